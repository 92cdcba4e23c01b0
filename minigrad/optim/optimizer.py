"""``Optimizer``: what every optimizer shares.

It holds the parameters in ``param_groups`` (each group a dict of settings plus its
``params``) and per-parameter memory in ``state``. A subclass only writes ``step``. Steps run
under ``no_grad`` and change each parameter in place, so its version goes up, as in torch:
a graph that saved the old value refuses to backward through it.
"""

from __future__ import annotations

import copy
import itertools
import warnings
from collections import defaultdict

from minigrad._tensor import Tensor
from minigrad.autograd.grad_mode import enable_grad, no_grad
from minigrad.nn.modules.module import typename
from minigrad.nn.parameter import zero_grads


class _Required:
    def __repr__(self) -> str:
        return "<required parameter>"


required = _Required()


class Optimizer:
    def __init__(self, params, defaults):
        self.defaults = defaults
        self.state = defaultdict(dict)
        self.param_groups = []
        if isinstance(params, Tensor):
            raise TypeError("params argument given to the optimizer should be an iterable of "
                            f"Tensors or dicts, but got minigrad.{params.dtype.legacy_name}")
        groups = list(params)
        if not groups:
            raise ValueError("optimizer got an empty parameter list")
        if not isinstance(groups[0], dict):
            groups = [{"params": groups}]
        for group in groups:
            self.add_param_group(group)

    def add_param_group(self, param_group):
        """Add a group: its dict (kept, as torch keeps it) gets the defaults it lacks."""
        if not isinstance(param_group, dict):
            raise TypeError(f"param_group must be a dict, but got {type(param_group)}")
        params = param_group["params"]
        if isinstance(params, set):
            raise TypeError("optimizer parameters need to be organized in ordered collections, "
                            "but the ordering of tensors in sets will change between runs. "
                            "Please use a list instead.")
        params = param_group["params"] = [params] if isinstance(params, Tensor) else list(params)
        for p in params:
            if not isinstance(p, Tensor):
                raise TypeError("optimizer can only optimize Tensors, but one of the params is "
                                f"{typename(p)}")
            if not (p.is_leaf or p.retains_grad):
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
        if any(id(p) in seen for p in params):
            raise ValueError("some parameters appear in more than one parameter group")
        self.param_groups.append(param_group)

    def zero_grad(self, set_to_none=True):
        zero_grads((p for group in self.param_groups for p in group["params"]), set_to_none)

    def step(self, closure=None):
        """Evaluate ``closure`` (with grad on) if given, then update every parameter."""
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
        """Parameters replaced by their index, as torch saves them."""
        index = {}
        groups = []
        for group in self.param_groups:
            ids = [index.setdefault(id(p), len(index)) for p in group["params"]]
            groups.append({k: v for k, v in group.items() if k != "params"} | {"params": ids})
        state = {index[id(p)]: dict(s) for p, s in self.state.items() if id(p) in index}
        return {"state": state, "param_groups": groups}

    def load_state_dict(self, state_dict):
        """Take the settings and per-parameter state of ``state_dict`` (from ``state_dict()``,
        here or in torch) for this optimizer's own parameters, matched by their order."""
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
            param = by_index.get(key)
            if param is None:
                state[key] = value
                continue
            state[param] = {k: _cast_state(param, k, v) for k, v in value.items()}
        for group, saved in zip(groups, saved_groups):
            saved["params"] = group["params"]
        self.state, self.param_groups = state, saved_groups

    def __repr__(self) -> str:
        text = type(self).__name__ + " ("
        for i, group in enumerate(self.param_groups):
            text += f"\nParameter Group {i}\n"
            for key in sorted(group):
                if key != "params":
                    text += f"    {key}: {group[key]}\n"
        return text + ")"


def _cast_state(param, key, value):
    """A saved state tensor as torch loads it: in the parameter's float dtype (its ``step``
    count as it was), and not copied when it already is, so a state dict loaded in the same
    program shares its tensors with the optimizer it came from, as in torch."""
    if isinstance(value, Tensor) and key != "step" and param.is_floating_point():
        return value.to(param.dtype)
    return value
