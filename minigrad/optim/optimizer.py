"""``Optimizer``: what every optimizer shares.

It holds the parameters in ``param_groups`` (each group a dict of settings plus its
``params``) and per-parameter memory in ``state``. A subclass only writes ``step``. Steps run
under ``no_grad`` and change each parameter in place, so its version goes up, as in torch:
a graph that saved the old value refuses to backward through it.
"""

from __future__ import annotations

import copy
import functools
import itertools
import types
import warnings
from collections import OrderedDict, defaultdict
from collections.abc import Iterable

from minigrad._creation import tensor
from minigrad._dtype import float32, float64, get_default_dtype
from minigrad._tensor import Tensor
from minigrad.autograd.grad_mode import enable_grad, no_grad
from minigrad.autograd.graph import RemovableHandle, add_hook
from minigrad.nn.modules.module import typename
from minigrad.nn.parameter import zero_grads

# hooks on every optimizer's step (handle id -> hook), before each optimizer's own pre-hooks
# and after its own post-hooks, as torch's
_global_optimizer_pre_hooks = OrderedDict()
_global_optimizer_post_hooks = OrderedDict()


def register_optimizer_step_pre_hook(hook) -> RemovableHandle:
    """``hook(optimizer, args, kwargs)`` before every optimizer's step."""
    return add_hook(_global_optimizer_pre_hooks, hook)


def register_optimizer_step_post_hook(hook) -> RemovableHandle:
    """``hook(optimizer, args, kwargs)`` after every optimizer's step."""
    return add_hook(_global_optimizer_post_hooks, hook)


def _own_step(cls):
    """The step function to wrap for ``cls``. torch's optimizers each define their own step;
    minigrad's share ``Optimizer.step`` (one update loop, each class writing ``_update``), so
    a built-in class gets its own copy of it, named ``SGD.step`` as torch's, which is what
    ``print(opt.step)`` and the step hooks' messages show."""
    func = cls.step
    if func is not Optimizer.step:
        return func  # defined by the class or a base: torch wraps that one
    owner = next(c for c in cls.__mro__ if c.__module__.startswith("minigrad.optim"))
    if owner is Optimizer:
        return func
    own = types.FunctionType(func.__code__, func.__globals__, "step", func.__defaults__,
                             func.__closure__)
    own.__kwdefaults__, own.__doc__ = func.__kwdefaults__, func.__doc__
    own.__qualname__, own.__module__ = f"{owner.__name__}.step", owner.__module__
    return own


_HOOK_STORES = ("_optimizer_step_pre_hooks", "_optimizer_step_post_hooks",
                "_optimizer_state_dict_pre_hooks", "_optimizer_state_dict_post_hooks",
                "_optimizer_load_state_dict_pre_hooks", "_optimizer_load_state_dict_post_hooks")


def _scalar_dtype(fused=None):
    """torch's ``_get_scalar_dtype``: float32 for a fused step, else float64 only where it
    is the default."""
    return float64 if not fused and get_default_dtype() is float64 else float32


def _check_tensor_lr(lr) -> None:
    """torch's first check in every optimizer: a tensor learning rate holds one number."""
    if isinstance(lr, Tensor) and lr.numel() != 1:
        raise ValueError("Tensor lr must be 1-element")


def _check_fused(fused, differentiable, foreach) -> None:
    """torch's checks of ``fused=True`` (SGD, Adam, AdamW, Adagrad), after the groups are
    made."""
    if fused:
        if differentiable:
            raise RuntimeError("`fused` does not support `differentiable`")
        if foreach:
            raise RuntimeError("`fused` and `foreach` cannot be `True` together.")


def _to_scalar(x):
    """A 1-element tensor hyperparameter as a 0-d one (others unchanged), as torch's."""
    return x.squeeze() if isinstance(x, Tensor) and x.dim() != 0 else x


class _Required:
    def __repr__(self) -> str:
        return "<required parameter>"


required = _Required()


class Optimizer:
    def __init__(self, params, defaults):
        self.defaults = defaults
        for store in _HOOK_STORES:
            setattr(self, store, OrderedDict())
        self._patch_step_function()
        self.state = defaultdict(dict)
        self.param_groups = []
        if isinstance(params, Tensor):
            raise TypeError("params argument given to the optimizer should be an iterable of "
                            f"Tensors or dicts, but got {typename(params)}")
        groups = list(params)
        if not groups:
            raise ValueError("optimizer got an empty parameter list")
        if not isinstance(groups[0], dict):
            groups = [{"params": groups}]
        for group in groups:
            self.add_param_group(group)
        self._warned_capturable_if_run_uncaptured = True

    # --- step hooks: torch wraps each class's step once, whatever class defines it -------------
    def _patch_step_function(self) -> None:
        self._zero_grad_profile_name = f"Optimizer.zero_grad#{type(self).__name__}.zero_grad"
        cls = type(self)
        if not getattr(cls.step, "hooked", None):
            cls.step = self.profile_hook_step(_own_step(cls))
            cls.step.hooked = True

    @staticmethod
    def profile_hook_step(func):
        """``func`` (a class's step) with the global and the optimizer's step hooks around."""
        @functools.wraps(func)
        def wrapper(*args, **kwargs):
            self, *_ = args
            for pre_hook in (*_global_optimizer_pre_hooks.values(),
                             *self._optimizer_step_pre_hooks.values()):
                result = pre_hook(self, args, kwargs)
                if result is not None:
                    if not (isinstance(result, tuple) and len(result) == 2):
                        raise RuntimeError(f"{func} must return None or a tuple of (new_args, "
                                           f"new_kwargs), but got {result}.")
                    args, kwargs = result
            out = func(*args, **kwargs)
            for post_hook in (*self._optimizer_step_post_hooks.values(),
                              *_global_optimizer_post_hooks.values()):
                post_hook(self, args, kwargs)
            return out
        return wrapper

    def register_step_pre_hook(self, hook) -> RemovableHandle:
        """``hook(optimizer, args, kwargs)`` before each step; it may return new
        ``(args, kwargs)``."""
        return add_hook(self._optimizer_step_pre_hooks, hook)

    def register_step_post_hook(self, hook) -> RemovableHandle:
        """``hook(optimizer, args, kwargs)`` after each step."""
        return add_hook(self._optimizer_step_post_hooks, hook)

    def register_state_dict_pre_hook(self, hook, prepend=False) -> RemovableHandle:
        return self._add_hook("_optimizer_state_dict_pre_hooks", hook, prepend)

    def register_state_dict_post_hook(self, hook, prepend=False) -> RemovableHandle:
        return self._add_hook("_optimizer_state_dict_post_hooks", hook, prepend)

    def register_load_state_dict_pre_hook(self, hook, prepend=False) -> RemovableHandle:
        return self._add_hook("_optimizer_load_state_dict_pre_hooks", hook, prepend)

    def register_load_state_dict_post_hook(self, hook, prepend=False) -> RemovableHandle:
        return self._add_hook("_optimizer_load_state_dict_post_hooks", hook, prepend)

    def _add_hook(self, store, hook, prepend) -> RemovableHandle:
        hooks = getattr(self, store)
        handle = RemovableHandle(hooks)
        hooks[handle.id] = hook
        if prepend:
            hooks.move_to_end(handle.id, last=False)
        return handle

    def __getstate__(self) -> dict:
        return {"defaults": self.defaults, "state": self.state,
                "param_groups": self.param_groups}

    # What torch's __setstate__ (run by load_state_dict and unpickling) gives an old
    # checkpoint: each group's settings it may lack, in torch's order, and the per-parameter
    # state kept as 0-d tensors that an old one held as numbers (its step count...).
    _group_defaults: tuple = ()
    _tensor_state: tuple = ()

    def __setstate__(self, state) -> None:
        self.__dict__.update(state)
        for store in _HOOK_STORES:
            if store not in self.__dict__:
                setattr(self, store, OrderedDict())
        self._patch_step_function()
        self.defaults.setdefault("differentiable", False)
        for group in self.param_groups:
            for key, value in self._group_defaults:
                group.setdefault(key, value)
            for p in group["params"]:
                p_state = self.state.get(p, [])
                for key in self._tensor_state if len(p_state) != 0 else ():
                    if not isinstance(p_state[key], Tensor):
                        p_state[key] = tensor(float(p_state[key]),
                                              dtype=_scalar_dtype(group.get("fused")))

    def add_param_group(self, param_group):
        """Add a group: its dict (kept, as torch keeps it) gets the defaults it lacks."""
        if not isinstance(param_group, dict):
            raise TypeError(f"param_group must be a dict, but got {type(param_group)}")
        params = param_group["params"]
        if isinstance(params, set):
            raise TypeError("optimizer parameters need to be organized in ordered collections, "
                            "but the ordering of tensors in sets will change between runs. "
                            "Please use a list instead.")
        params = [params] if isinstance(params, Tensor) else list(params)
        # named parameters (model.named_parameters()): the names go to 'param_names'
        names = [p[0] for p in params if isinstance(p, tuple)]
        params = param_group["params"] = [p[1] if isinstance(p, tuple) else p for p in params]
        if names:
            if len(names) != len(params):
                raise ValueError("all optimizer params should be with/without names. Some param "
                                 "names are missing")
            param_group["param_names"] = names
        for p in params:
            if not isinstance(p, Tensor):
                raise TypeError("optimizer can only optimize Tensors, but one of the params is "
                                f"{typename(p)}")
            if not self.defaults.get("differentiable") and not (p.is_leaf or p.retains_grad):
                raise ValueError("can't optimize a non-leaf Tensor")
        for name, default in self.defaults.items():
            if default is required and name not in param_group:
                raise ValueError(f"parameter group didn't specify a value of required "
                                 f"optimization parameter {name}")
            param_group.setdefault(name, default)
        if len({id(p) for p in params}) != len(params):
            warnings.warn("optimizer contains a parameter group with duplicate parameters; in "
                          "future, this will cause an error; see "
                          "github.com/pytorch/pytorch/issues/40967 for more information",
                          stacklevel=3)
        seen = {id(p) for g in self.param_groups for p in g["params"]}
        for group in self.param_groups:
            if ("param_names" in param_group) != ("param_names" in group):
                kind = "with names" if "param_names" in param_group else "without names"
                raise ValueError("all optimizer param groups should be with/without names. "
                                 f"cannot add param group {kind} to the optimizer")
        if any(id(p) in seen for p in params):
            raise ValueError("some parameters appear in more than one parameter group")
        self.param_groups.append(param_group)

    def zero_grad(self, set_to_none=True):
        zero_grads((p for group in self.param_groups for p in group["params"]), set_to_none)

    def step(self, closure=None):
        """Evaluate ``closure`` (with grad on) if given, then update every parameter."""
        if type(self)._update is Optimizer._update:  # a learner's subclass without a step:
            raise NotImplementedError  # torch's Optimizer.step
        loss = None
        if closure is not None:
            with enable_grad():
                loss = closure()
        with no_grad():
            for group in self.param_groups:
                for p in group["params"]:
                    if p.grad is not None:
                        self._refuse_left_out(p, group)
                        self._update(p, p.grad, self._state_of(p, group), group)
        return loss

    # The tensors torch's CPU step names when it refuses ``capturable=True`` (CUDA graphs: not
    # for CPU tensors); None: the optimizer has no such setting.
    _capturable_tensors: str | None = None
    _capturable_devices = ["cuda", "xpu", "hpu", "privateuseone", "xla"]

    def _refuse_left_out(self, param, group) -> None:
        """torch's errors for the settings its CPU step refuses: ``capturable=True``, and a leaf
        parameter that requires grad when the optimizer was made with ``differentiable=True``
        (torch then steps with grad mode on, whatever the caller's, and its in-place update
        of the leaf fails). A differentiable step through a non-leaf parameter is left out."""
        if group.get("capturable") and self._capturable_tensors is not None:
            raise AssertionError(f"If capturable=True, {self._capturable_tensors} must be on "
                                 f"supported devices: {self._capturable_devices}.")
        if self.defaults.get("differentiable") and param.requires_grad:
            if param.is_leaf:
                raise RuntimeError("a leaf Variable that requires grad is being used in an "
                                   "in-place operation.")
            raise NotImplementedError(
                f"minigrad's {type(self).__name__} has no differentiable step (an update that "
                "autograd can go through, for meta-learning); or run this code with torch")

    def _state_of(self, param, group) -> dict:
        """``param``'s entry in ``state`` (made on first use), which its update reads and
        fills. An optimizer that keeps nothing for some settings returns a throwaway dict, so
        that ``state`` stays empty as torch's does."""
        return self.state[param]

    def _update(self, param, grad, state, group):
        raise NotImplementedError

    def state_dict(self):
        """Parameters replaced by their index, as torch saves them (each parameter's state is
        the optimizer's own dict, not a copy, as in torch)."""
        for pre_hook in self._optimizer_state_dict_pre_hooks.values():
            pre_hook(self)
        mapping = {}
        start = 0
        groups = []
        for group in self.param_groups:
            packed = {k: v for k, v in group.items() if k != "params"}
            mapping.update({id(p): i for i, p in enumerate(group["params"], start)
                            if id(p) not in mapping})
            packed["params"] = [mapping[id(p)] for p in group["params"]]
            start += len(packed["params"])
            groups.append(packed)
        state = {(mapping[id(k)] if isinstance(k, Tensor) else k): v
                 for k, v in self.state.items()}
        state_dict = {"state": state, "param_groups": groups}
        for post_hook in self._optimizer_state_dict_post_hooks.values():
            result = post_hook(self, state_dict)
            if result is not None:
                state_dict = result
        return state_dict

    def load_state_dict(self, state_dict):
        """Take the settings and per-parameter state of ``state_dict`` (from ``state_dict()``,
        here or in torch) for this optimizer's own parameters, matched by their order."""
        state_dict = state_dict.copy()
        for pre_hook in self._optimizer_load_state_dict_pre_hooks.values():
            result = pre_hook(self, state_dict)
            if result is not None:
                state_dict = result
        groups = self.param_groups
        saved_groups = copy.deepcopy(state_dict["param_groups"])
        if len(groups) != len(saved_groups):
            raise ValueError("loaded state dict has a different number of parameter groups")
        if any(len(g["params"]) != len(s["params"]) for g, s in zip(groups, saved_groups)):
            raise ValueError("loaded state dict contains a parameter group that doesn't match "
                             "the size of optimizer's group")
        by_index = dict(zip(itertools.chain.from_iterable(g["params"] for g in saved_groups),
                            itertools.chain.from_iterable(g["params"] for g in groups)))
        state = defaultdict(dict)
        for key, value in state_dict["state"].items():
            if key in by_index:
                param = by_index[key]
                state[param] = _cast(param, value, key, state_dict["param_groups"])
            else:
                state[key] = value
        for group, saved in zip(groups, saved_groups):
            saved["params"] = group["params"]
            if "param_names" in group and "param_names" not in saved:
                saved["param_names"] = group["param_names"]
        self.__setstate__({"state": state, "param_groups": saved_groups})
        for post_hook in self._optimizer_load_state_dict_post_hooks.values():
            post_hook(self)

    def __repr__(self) -> str:
        text = type(self).__name__ + " ("
        for i, group in enumerate(self.param_groups):
            text += f"\nParameter Group {i}\n"
            for key in sorted(group):
                if key != "params":
                    text += f"    {key}: {group[key]}\n"
        return text + ")"


def _cast(param, value, param_id, param_groups, key=None):
    """A saved state value as torch loads it: tensors in the parameter's float dtype (its
    ``step`` count as it was, unless the group is fused or capturable: float32), dicts and
    other iterables (LBFGS's lists of directions) entry by entry. A tensor already right is
    not copied, so a state dict loaded in the same program shares its tensors with the
    optimizer it came from, as in torch."""
    if isinstance(value, Tensor):
        if key == "step":
            group = next((g for g in param_groups if param_id in g["params"]), {})
            if group.get("fused") or group.get("capturable"):
                return value.to(dtype=float32)
            return value
        return value.to(dtype=param.dtype) if param.is_floating_point() else value
    if isinstance(value, dict):
        return {k: _cast(param, v, param_id, param_groups, k) for k, v in value.items()}
    if isinstance(value, Iterable) and not isinstance(value, str):
        return type(value)(_cast(param, v, param_id, param_groups) for v in value)
    return value

