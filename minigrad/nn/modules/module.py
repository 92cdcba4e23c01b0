"""``Module``: the base class of layers and models.

A module is an object whose attributes are of three kinds: parameters (``Parameter``),
submodules (``Module``) and plain values. ``__setattr__`` sorts the first two into
``_parameters`` and ``_modules`` so that ``parameters()`` can walk the whole tree, which is
all an optimizer needs. Calling a module calls its ``forward``.
"""

from __future__ import annotations

import warnings
from collections import OrderedDict, namedtuple

from minigrad._creation import empty
from minigrad._dtype import float32, float64
from minigrad._tensor import Tensor
from minigrad.autograd.grad_mode import no_grad
from minigrad.autograd.graph import RemovableHandle, add_hook
from minigrad.nn.modules.backward_hooks import (
    BackwardHook,
    WrappedHook,
    warn_non_full_backward_hook,
)
from minigrad.nn.parameter import Parameter, zero_grads


class _IncompatibleKeys(namedtuple("IncompatibleKeys", ["missing_keys", "unexpected_keys"])):
    """What ``load_state_dict`` returns: prints as torch's when every key matched."""

    def __repr__(self) -> str:
        if not self.missing_keys and not self.unexpected_keys:
            return "<All keys matched successfully>"
        return super().__repr__()

    __str__ = __repr__


def typename(obj) -> str:
    """torch.typename: how torch's messages name the type of ``obj``."""
    if isinstance(obj, Tensor):
        return obj.type()
    module = getattr(obj, "__module__", "") or ""
    qualname = getattr(obj, "__qualname__", None) or getattr(obj, "__name__", None)
    if qualname is None:
        module, qualname = type(obj).__module__ or "", type(obj).__qualname__
    return qualname if module in ("", "builtins") else f"{module}.{qualname}"


def _addindent(text: str, spaces: int) -> str:
    lines = text.split("\n")
    if len(lines) == 1:
        return text
    return lines[0] + "\n" + "\n".join(" " * spaces + line for line in lines[1:])


def _quoted(keys) -> str:
    return ", ".join(f'"{k}"' for k in keys)


# --- hooks on every module (torch.nn.modules.module.register_module_*_hook) -------------------
# They run before each module's own hooks; a debugging and profiling tool (print every layer).
# handle id -> hook, as torch keeps them (a hook registered with_kwargs also has its id in
# the matching _with_kwargs dict)
_global_forward_pre_hooks = OrderedDict()
_global_forward_hooks = OrderedDict()
_global_forward_hooks_with_kwargs = OrderedDict()
_global_backward_pre_hooks = OrderedDict()
_global_backward_hooks = OrderedDict()
_global_is_full_backward_hook = None  # True (full), False (deprecated kind), None (none yet)


def register_module_forward_pre_hook(hook):
    return add_hook(_global_forward_pre_hooks, hook)


def register_module_forward_hook(hook, *, with_kwargs=False, always_call=False):
    return _add_hook(_global_forward_hooks, _global_forward_hooks_with_kwargs, hook, False,
                     with_kwargs)


def _add_hook(hooks, with_kwargs_ids, hook, prepend, with_kwargs) -> RemovableHandle:
    """``hook`` into ``hooks`` under a new handle's id (first with ``prepend``), its id in
    ``with_kwargs_ids`` too when it takes the keyword arguments: torch's two dicts, so that
    code reading or clearing ``module._forward_hooks`` sees torch's contents."""
    handle = RemovableHandle(hooks, extra_dict=with_kwargs_ids)
    hooks[handle.id] = hook
    if with_kwargs:
        with_kwargs_ids[handle.id] = True
    if prepend:  # first in the order the hooks run
        hooks.move_to_end(handle.id, last=False)
    return handle


def _set_global_kind(full: bool):
    global _global_is_full_backward_hook
    if _global_is_full_backward_hook is (not full):
        raise RuntimeError("Cannot use both regular backward hooks and full backward hooks as a "
                           "global Module hook. Please use only one of them.")
    _global_is_full_backward_hook = full


def register_module_full_backward_hook(hook):
    _set_global_kind(True)
    return add_hook(_global_backward_hooks, hook)


def register_module_full_backward_pre_hook(hook):
    return add_hook(_global_backward_pre_hooks, hook)


def register_module_backward_hook(hook):
    _set_global_kind(False)
    return add_hook(_global_backward_hooks, hook)


class Module:
    training: bool

    def __init__(self, *args, **kwargs):
        if args or kwargs:
            raise TypeError(f"{type(self).__name__}.__init__() takes 1 positional argument but "
                            f"{len(args) + 1} were given")
        object.__setattr__(self, "training", True)
        object.__setattr__(self, "_parameters", OrderedDict())
        object.__setattr__(self, "_buffers", OrderedDict())
        object.__setattr__(self, "_modules", OrderedDict())
        object.__setattr__(self, "_non_persistent_buffers_set", set())
        # the hooks, under torch's names and in torch's OrderedDicts (handle id -> hook):
        # old books read and clear them (len(m._forward_hooks), m._backward_hooks.clear())
        object.__setattr__(self, "_backward_pre_hooks", OrderedDict())
        object.__setattr__(self, "_backward_hooks", OrderedDict())
        object.__setattr__(self, "_is_full_backward_hook", None)
        for store in ("_forward_hooks", "_forward_hooks_with_kwargs", "_forward_pre_hooks",
                      "_forward_pre_hooks_with_kwargs"):
            object.__setattr__(self, store, OrderedDict())

    # --- registration ---------------------------------------------------------------------
    def __setattr__(self, name, value):
        params = self.__dict__.get("_parameters")
        if isinstance(value, Parameter):
            if params is None:
                raise AttributeError("cannot assign parameters before Module.__init__() call")
            self._forget(name, keep=self._parameters)
            self.register_parameter(name, value)
        elif params is not None and name in params:
            if value is not None:
                raise TypeError(f"cannot assign '{typename(value)}' as parameter '{name}' "
                                "(torch.nn.Parameter or None expected)")
            params[name] = None
        elif isinstance(value, Module):
            if params is None:
                raise AttributeError("cannot assign module before Module.__init__() call")
            self._forget(name, keep=self._modules)
            self._modules[name] = value
        elif self.__dict__.get("_modules") is not None and name in self._modules:
            if value is not None:
                raise TypeError(f"cannot assign '{typename(value)}' as child module "
                                f"'{name}' (torch.nn.Module or None expected)")
            self._modules[name] = None
        elif self.__dict__.get("_buffers") is not None and name in self._buffers:
            self._buffers[name] = value
        else:
            object.__setattr__(self, name, value)

    def _forget(self, name, keep):
        """``name`` out of every store but ``keep`` (where it keeps its place, as in torch)."""
        for store in (self.__dict__, self._parameters, self._buffers, self._modules):
            if store is not keep:
                store.pop(name, None)
        self.__dict__.get("_non_persistent_buffers_set", set()).discard(name)

    def __getattr__(self, name):
        for store in ("_parameters", "_buffers", "_modules"):
            d = self.__dict__.get(store)
            if d is not None and name in d:
                return d[name]
        raise AttributeError(f"'{type(self).__name__}' object has no attribute '{name}'")

    def __delattr__(self, name):
        for store in (self._parameters, self._buffers, self._modules):
            if name in store:
                del store[name]
                return
        object.__delattr__(self, name)

    def _check_name(self, kind: str, name, store: str) -> None:
        """torch's checks of a new parameter's or buffer's name."""
        if not isinstance(name, str):
            raise TypeError(f"{kind} name should be a string. Got {typename(name)}")
        if "." in name:
            raise KeyError(f"{kind} name can't contain \".\"")
        if name == "":
            raise KeyError(f"{kind} name can't be empty string \"\"")
        if hasattr(self, name) and name not in self.__dict__[store]:
            raise KeyError(f"attribute '{name}' already exists")

    def register_parameter(self, name, param):
        if "_parameters" not in self.__dict__:
            raise AttributeError("cannot assign parameter before Module.__init__() call")
        self._check_name("parameter", name, "_parameters")
        if param is not None and not isinstance(param, Parameter):
            raise TypeError(f"cannot assign '{typename(param)}' object to parameter '{name}' "
                            "(torch.nn.Parameter or None required)")
        if param is not None and param.grad_fn is not None:
            raise ValueError(f"Cannot assign non-leaf Tensor to parameter '{name}'. Model "
                             f"parameters must be created explicitly. To express '{name}' as a "
                             "function of another Tensor, compute the value in the forward() "
                             "method.")
        self._parameters[name] = param

    def register_buffer(self, name, tensor, persistent=True):
        """A tensor that is part of the module's state but no parameter (a running mean...);
        ``persistent=False`` keeps it out of ``state_dict``."""
        if "_buffers" not in self.__dict__:
            raise AttributeError("cannot assign buffer before Module.__init__() call")
        self._check_name("buffer", name, "_buffers")
        if tensor is not None and not isinstance(tensor, Tensor):
            raise TypeError(f"cannot assign '{typename(tensor)}' object to buffer '{name}' "
                            "(torch Tensor or None required)")
        self._buffers[name] = tensor
        if persistent:
            self.__dict__.get("_non_persistent_buffers_set", set()).discard(name)
        else:
            self._non_persistent_buffers_set.add(name)

    def add_module(self, name, module):
        if not isinstance(module, Module) and module is not None:
            raise TypeError(f"{typename(module)} is not a Module subclass")
        if not isinstance(name, str):
            raise TypeError(f"module name should be a string. Got {typename(name)}")
        if hasattr(self, name) and name not in self._modules:
            raise KeyError(f"attribute '{name}' already exists")
        if "." in name:
            raise KeyError(f"module name can't contain \".\", got: {name}")
        if name == "":
            raise KeyError("module name can't be empty string \"\"")
        self._modules[name] = module

    register_module = add_module

    # --- walking the tree -------------------------------------------------------------------
    def named_modules(self, memo=None, prefix="", remove_duplicate=True):
        memo = set() if memo is None else memo
        if remove_duplicate and self in memo:
            return
        if remove_duplicate:
            memo.add(self)
        yield prefix, self
        for name, module in self._modules.items():
            if module is not None:
                sub = prefix + ("." if prefix else "") + name
                yield from module.named_modules(memo, sub, remove_duplicate)

    def modules(self):
        for _, m in self.named_modules():
            yield m

    def named_children(self):
        seen = set()
        for name, module in self._modules.items():
            if module is not None and module not in seen:
                seen.add(module)
                yield name, module

    def children(self):
        for _, m in self.named_children():
            yield m

    def _named_members(self, store, prefix, recurse, remove_duplicate):
        seen = set()
        modules = self.named_modules(prefix=prefix, remove_duplicate=remove_duplicate) \
            if recurse else [(prefix, self)]
        for module_prefix, module in modules:
            for name, value in getattr(module, store).items():
                if value is None or (remove_duplicate and value in seen):
                    continue
                seen.add(value)
                yield module_prefix + ("." if module_prefix else "") + name, value

    def named_parameters(self, prefix="", recurse=True, remove_duplicate=True):
        yield from self._named_members("_parameters", prefix, recurse, remove_duplicate)

    def parameters(self, recurse=True):
        for _, p in self.named_parameters(recurse=recurse):
            yield p

    def named_buffers(self, prefix="", recurse=True, remove_duplicate=True):
        yield from self._named_members("_buffers", prefix, recurse, remove_duplicate)

    def buffers(self, recurse=True):
        for _, b in self.named_buffers(recurse=recurse):
            yield b

    def apply(self, fn):
        for module in self.children():
            module.apply(fn)
        fn(self)
        return self

    # --- modes and gradients ------------------------------------------------------------------
    def train(self, mode=True):
        if not isinstance(mode, bool):
            raise ValueError("training mode is expected to be boolean")
        self.training = mode
        for module in self.children():
            module.train(mode)
        return self

    def eval(self):
        return self.train(False)

    def requires_grad_(self, requires_grad=True):
        for p in self.parameters():
            p.requires_grad_(requires_grad)
        return self

    def zero_grad(self, set_to_none=True):
        zero_grads(self.parameters(), set_to_none)

    def _apply(self, fn):
        """Replace every parameter's (and gradient's) data by ``fn(data)``: dtype casts."""
        for module in self.children():
            module._apply(fn)
        for p in self._parameters.values():
            if p is not None:
                p.data = fn(p.data)
                if p._grad is not None:
                    p._grad.data = fn(p._grad.data)
        for name, b in self._buffers.items():
            if b is not None:
                self._buffers[name] = fn(b)
        return self

    def double(self):
        return self._apply(lambda t: t.double() if t.is_floating_point() else t)

    def float(self):
        return self._apply(lambda t: t.float() if t.is_floating_point() else t)

    def half(self):
        return self._apply(lambda t: t.half() if t.is_floating_point() else t)

    # --- looking up by dotted name -----------------------------------------------------------
    def _get_name(self) -> str:
        return type(self).__name__

    def get_submodule(self, target: str):
        """``model.get_submodule("encoder.0")``: the module at that dotted path."""
        if target == "":
            return self
        mod = self
        for item in target.split("."):
            if not hasattr(mod, item):
                raise AttributeError(mod._get_name() + " has no attribute `" + item + "`")
            mod = getattr(mod, item)
            if not isinstance(mod, Module):
                raise AttributeError("`" + item + "` is not an nn.Module")
        return mod

    def get_parameter(self, target: str):
        """``model.get_parameter("encoder.0.weight")``: the parameter at that dotted path."""
        module_path, _, param_name = target.rpartition(".")
        mod = self.get_submodule(module_path)
        if not hasattr(mod, param_name):
            raise AttributeError(mod._get_name() + " has no attribute `" + param_name + "`")
        param = getattr(mod, param_name)
        if not isinstance(param, Parameter):
            raise AttributeError("`" + param_name + "` is not an nn.Parameter")
        return param

    # --- forward hooks: functions called around forward ----------------------------------------
    def register_forward_pre_hook(self, hook, *, prepend=False, with_kwargs=False):
        """``hook(module, args)`` before forward (``hook(module, args, kwargs)`` with
        ``with_kwargs``); what it returns (not None) replaces the arguments."""
        return self._add_forward_hook("_forward_pre_hooks", hook, prepend, with_kwargs)

    def register_forward_hook(self, hook, *, prepend=False, with_kwargs=False,
                              always_call=False):
        """``hook(module, args, output)`` after forward (``hook(module, args, kwargs,
        output)`` with ``with_kwargs``); what it returns (not None) replaces the output."""
        return self._add_forward_hook("_forward_hooks", hook, prepend, with_kwargs)

    def _add_forward_hook(self, store, hook, prepend, with_kwargs):
        return _add_hook(getattr(self, store), getattr(self, f"{store}_with_kwargs"), hook,
                         prepend, with_kwargs)

    # --- backward hooks: functions called with the module's gradients (backward_hooks) ---------
    def register_full_backward_hook(self, hook, prepend=False):
        """``hook(module, grad_input, grad_output)`` once the gradients of the positional
        tensor arguments are known; what it returns (not None) replaces ``grad_input``."""
        if self.__dict__.get("_is_full_backward_hook") is False:
            raise RuntimeError("Cannot use both regular backward hooks and full backward hooks "
                               "on a single Module. Please use only one of them.")
        object.__setattr__(self, "_is_full_backward_hook", True)
        return self._add_backward_hook("_backward_hooks", hook, prepend)

    def register_full_backward_pre_hook(self, hook, prepend=False):
        """``hook(module, grad_output)`` when the output's gradients are known; what it
        returns (not None) replaces ``grad_output``."""
        return self._add_backward_hook("_backward_pre_hooks", hook, prepend)

    def register_backward_hook(self, hook):
        """Deprecated: ``hook(module, grad_input, grad_output)`` on the output's last node."""
        if self.__dict__.get("_is_full_backward_hook") is True:
            raise RuntimeError("Cannot use both regular backward hooks and full backward hooks "
                               "on a single Module. Please use only one of them.")
        object.__setattr__(self, "_is_full_backward_hook", False)
        return self._add_backward_hook("_backward_hooks", hook, False)

    def _add_backward_hook(self, store, hook, prepend):
        return _add_hook(getattr(self, store), None, hook, prepend, False)

    def to(self, *args, **kwargs):
        """torch's three forms: ``to(device=None, dtype=None, non_blocking=False)``,
        ``to(dtype, non_blocking=False)`` and ``to(tensor, non_blocking=False)``. Floating
        parameters and buffers take the dtype (which must be a floating one), every tensor
        the device (the CPU; other devices raise a CPU-only torch's errors), 4-D and 5-D ones
        the ``memory_format``."""
        memory_format = kwargs.pop("memory_format", None)
        # Tensor.to parses the arguments as torch does (and rejects the devices): asked of
        # a float32 and a float64 tensor, it answers one dtype for both only if one was given
        answers = [empty(0, dtype=d).to(*args, **kwargs).dtype for d in (float32, float64)]
        dtype = answers[0] if answers[0] is answers[1] else None
        if dtype is not None and not dtype.is_floating_point:
            raise TypeError("nn.Module.to only accepts floating point or complex dtypes, but "
                            f"got desired dtype={dtype}")

        def convert(t):
            if memory_format is not None and t.dim() in (4, 5):
                t = t.contiguous(memory_format=memory_format)
            return t.to(dtype) if dtype is not None and t.is_floating_point() else t

        return self._apply(convert)

    def cpu(self):
        return self

    def cuda(self, device=None):
        """A CPU-only torch's answer: its tensors cannot move to a GPU."""
        return self._apply(lambda t: t.cuda(device))

    # --- saving and loading ---------------------------------------------------------------------
    def state_dict(self, *, destination=None, prefix="", keep_vars=False):
        """Every parameter and buffer by dotted name, detached (unless ``keep_vars``)."""
        out = OrderedDict() if destination is None else destination
        for name, p in self._parameters.items():
            if p is not None:
                out[prefix + name] = p if keep_vars else p.detach()
        for name, b in self._buffers.items():
            if b is not None and name not in self.__dict__.get("_non_persistent_buffers_set", ()):
                out[prefix + name] = b if keep_vars else b.detach()
        for name, module in self._modules.items():
            if module is not None:
                module.state_dict(destination=out, prefix=prefix + name + ".",
                                  keep_vars=keep_vars)
        return out

    def load_state_dict(self, state_dict, strict=True, assign=False):
        """Copy values into the existing parameters, in place and without recording."""
        own = self.state_dict(keep_vars=True)
        missing = [k for k in own if k not in state_dict]
        unexpected = [k for k in state_dict if k not in own]
        errors = []
        for key, target in own.items():
            if key not in state_dict:
                continue
            value = state_dict[key]
            if not isinstance(value, Tensor):
                errors.append(f'While copying the parameter named "{key}", expected '
                              f"torch.Tensor or Tensor-like object from checkpoint but "
                              f"received {type(value)}")
            elif value.shape != target.shape:
                errors.append(f"size mismatch for {key}: copying a param with shape "
                              f"{value.shape!r} from checkpoint, the shape in current model is "
                              f"{target.shape!r}.")
            else:
                with no_grad():
                    target.copy_(value)
        if strict:
            if unexpected:
                errors.insert(0, "Unexpected key(s) in state_dict: "
                              f"{_quoted(unexpected)}. ")
            if missing:
                errors.insert(0, "Missing key(s) in state_dict: "
                              f"{_quoted(missing)}. ")
        if errors:
            raise RuntimeError(f"Error(s) in loading state_dict for {type(self).__name__}:\n\t"
                               + "\n\t".join(errors))
        return _IncompatibleKeys(missing, unexpected)

    # --- calling and printing ---------------------------------------------------------------------
    def forward(self, *args, **kwargs):
        raise NotImplementedError(f'Module [{type(self).__name__}] is missing the required '
                                  '"forward" function')

    def __call__(self, *args, **kwargs):
        d = self.__dict__
        pre, post = d.get("_forward_pre_hooks"), d.get("_forward_hooks")
        backward, backward_pre = d.get("_backward_hooks"), d.get("_backward_pre_hooks")
        if not (pre or post or backward or backward_pre or _global_forward_pre_hooks
                or _global_forward_hooks or _global_backward_hooks or _global_backward_pre_hooks):
            return self.forward(*args, **kwargs)  # the usual case: forward alone
        pre_kwargs = d.get("_forward_pre_hooks_with_kwargs", ())
        post_kwargs = d.get("_forward_hooks_with_kwargs", ())
        pre = [*((hook, False) for hook in _global_forward_pre_hooks.values()),
               *((hook, key in pre_kwargs) for key, hook in (pre or {}).items())]
        post = [*((hook, key in _global_forward_hooks_with_kwargs)
                  for key, hook in _global_forward_hooks.items()),
                *((hook, key in post_kwargs) for key, hook in (post or {}).items())]
        full = [*(_global_backward_hooks.values() if _global_is_full_backward_hook else ()),
                *((backward or {}).values() if d.get("_is_full_backward_hook") else ())]
        old = [*(_global_backward_hooks.values() if _global_is_full_backward_hook is False
                 else ()),
               *((backward or {}).values() if d.get("_is_full_backward_hook") is False else ())]
        backward_pre = [*_global_backward_pre_hooks.values(), *(backward_pre or {}).values()]
        for hook, with_kwargs in pre:
            if with_kwargs:
                result = hook(self, args, kwargs)
                if result is not None:
                    if not (isinstance(result, tuple) and len(result) == 2):
                        raise RuntimeError("forward pre-hook must return None or a tuple of "
                                           f"(new_args, new_kwargs), but got {result}.")
                    args, kwargs = result
            else:
                result = hook(self, args)
                if result is not None:
                    args = result if isinstance(result, tuple) else (result,)
        bw_hook = None
        if full or backward_pre:  # identity nodes around forward (see backward_hooks)
            bw_hook = BackwardHook(self, full, backward_pre)
            args = bw_hook.setup_input_hook(args)
        output = self.forward(*args, **kwargs)
        for hook, with_kwargs in post:
            result = hook(self, args, kwargs, output) if with_kwargs else hook(self, args, output)
            if result is not None:
                output = result
        if bw_hook:
            if not isinstance(output, (Tensor, tuple)):
                warnings.warn("For backward hooks to be called, module output should be a "
                              f"Tensor or a tuple of Tensors but received {type(output)}",
                              stacklevel=2)
            output = bw_hook.setup_output_hook(output)
        if old:
            var = output
            while not isinstance(var, Tensor):
                var = (next(v for v in var.values() if isinstance(v, Tensor))
                       if isinstance(var, dict) else var[0])
            if var.grad_fn is not None:
                for hook in old:
                    var.grad_fn.register_hook(WrappedHook(hook, self))
                warn_non_full_backward_hook(args, output, var.grad_fn)
        return output

    def extra_repr(self) -> str:
        return ""

    def __repr__(self) -> str:
        """torch's layout: one line when there is only an extra_repr, else one line per child."""
        extra = self.extra_repr()
        lines = extra.split("\n") if extra else []
        children = [f"({name}): {_addindent(repr(m), 2)}" for name, m in self._modules.items()]
        body = lines + children
        text = type(self).__name__ + "("
        if body:
            if len(lines) == 1 and not children:
                text += lines[0]
            else:
                text += "\n  " + "\n  ".join(body) + "\n"
        return text + ")"

    def __dir__(self):
        return sorted(set(super().__dir__()) | set(self._parameters) | set(self._modules)
                      | set(self._buffers))
