"""``Module``: the base class of layers and models.

A module is an object whose attributes are of three kinds: parameters (``Parameter``),
submodules (``Module``) and plain values. ``__setattr__`` sorts the first two into
``_parameters`` and ``_modules`` so that ``parameters()`` can walk the whole tree, which is
all an optimizer needs. Calling a module calls its ``forward``.
"""

from __future__ import annotations

import warnings
from collections import OrderedDict, namedtuple
from collections.abc import Mapping

from minigrad import _left_out
from minigrad._creation import empty, empty_like
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


_EXTRA_STATE_KEY_SUFFIX = "_extra_state"


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
_global_forward_hooks_always_called = OrderedDict()
_global_backward_pre_hooks = OrderedDict()
_global_backward_hooks = OrderedDict()
_global_is_full_backward_hook = None  # True (full), False (deprecated kind), None (none yet)
# called as each parameter, submodule or buffer is registered on any module:
# hook(module, name, value), whose result (not None) is registered instead
_global_parameter_registration_hooks = OrderedDict()
_global_module_registration_hooks = OrderedDict()
_global_buffer_registration_hooks = OrderedDict()


def register_module_parameter_registration_hook(hook):
    return add_hook(_global_parameter_registration_hooks, hook)


def register_module_module_registration_hook(hook):
    return add_hook(_global_module_registration_hooks, hook)


def register_module_buffer_registration_hook(hook):
    return add_hook(_global_buffer_registration_hooks, hook)


def _registered(hooks, module, name, value):
    """``value`` after every registration hook of ``hooks`` has seen it."""
    for hook in hooks.values():
        output = hook(module, name, value)
        if output is not None:
            value = output
    return value


def register_module_forward_pre_hook(hook):
    return add_hook(_global_forward_pre_hooks, hook)


def register_module_forward_hook(hook, *, with_kwargs=False, always_call=False):
    return _add_hook(_global_forward_hooks, _global_forward_hooks_with_kwargs, hook, False,
                     with_kwargs, _global_forward_hooks_always_called, always_call)


def _add_hook(hooks, with_kwargs_ids, hook, prepend, with_kwargs, always_ids=None,
              always_call=False) -> RemovableHandle:
    """``hook`` into ``hooks`` under a new handle's id (first with ``prepend``), its id in
    ``with_kwargs_ids`` too when it takes the keyword arguments (and in ``always_ids`` when
    it runs even after forward fails): torch's dicts, so that code reading or clearing
    ``module._forward_hooks`` sees torch's contents."""
    extras = [d for d in (with_kwargs_ids, always_ids) if d is not None]
    handle = RemovableHandle(hooks, extra_dict=extras)
    hooks[handle.id] = hook
    if with_kwargs:
        with_kwargs_ids[handle.id] = True
    if always_call:
        always_ids[handle.id] = True
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
    dump_patches = False  # torch's class attributes, read by old code
    call_super_init = False

    _version = 1  # what state_dict's _metadata records for each module (torch's)

    def __init__(self, *args, **kwargs):
        if kwargs:
            raise TypeError(f"{type(self).__name__}.__init__() got an unexpected keyword "
                            f"argument '{next(iter(kwargs))}'")
        if args:
            raise TypeError(f"{type(self).__name__}.__init__() takes 1 positional argument but "
                            f"{len(args) + 1} were given")
        # torch's attributes, in torch's order (vars(model) lists them so): plain dicts for
        # what the module holds (a learner printing model._modules sees torch's {...}), and
        # the hooks in torch's OrderedDicts (handle id -> hook): old books read and clear
        # them (len(m._forward_hooks), m._backward_hooks.clear())
        object.__setattr__(self, "training", True)
        object.__setattr__(self, "_parameters", {})
        object.__setattr__(self, "_buffers", {})
        object.__setattr__(self, "_non_persistent_buffers_set", set())
        object.__setattr__(self, "_backward_pre_hooks", OrderedDict())
        object.__setattr__(self, "_backward_hooks", OrderedDict())
        object.__setattr__(self, "_is_full_backward_hook", None)
        for store in ("_forward_hooks", "_forward_hooks_with_kwargs",
                      "_forward_hooks_always_called", "_forward_pre_hooks",
                      "_forward_pre_hooks_with_kwargs", "_state_dict_hooks",
                      "_state_dict_pre_hooks", "_load_state_dict_pre_hooks",
                      "_load_state_dict_post_hooks"):
            object.__setattr__(self, store, OrderedDict())
        object.__setattr__(self, "_modules", {})

    # --- registration ---------------------------------------------------------------------
    def __setattr__(self, name, value):
        """torch's sorting: a Parameter is registered (and a name that holds a parameter
        takes only a Parameter or None), a Module likewise; a name that holds a buffer takes
        a tensor or None (and stays persistent or not); anything else is a plain attribute."""
        params = self.__dict__.get("_parameters")
        if isinstance(value, Parameter):
            if params is None:
                raise AttributeError("cannot assign parameters before Module.__init__() call")
            self._forget(name, self.__dict__, self._buffers, self._modules,
                         self._non_persistent_buffers_set)
            self.register_parameter(name, value)
        elif params is not None and name in params:
            if value is not None:
                raise TypeError(f"cannot assign '{typename(value)}' as parameter '{name}' "
                                "(torch.nn.Parameter or None expected)")
            self.register_parameter(name, value)
        else:
            modules = self.__dict__.get("_modules")
            if isinstance(value, Module):
                if modules is None:
                    raise AttributeError("cannot assign module before Module.__init__() call")
                self._forget(name, self.__dict__, self._parameters, self._buffers,
                             self._non_persistent_buffers_set)
                modules[name] = _registered(_global_module_registration_hooks, self, name,
                                            value)
            elif modules is not None and name in modules:
                if value is not None:
                    raise TypeError(f"cannot assign '{typename(value)}' as child module "
                                    f"'{name}' (torch.nn.Module or None expected)")
                modules[name] = _registered(_global_module_registration_hooks, self, name,
                                            value)
            else:
                buffers = self.__dict__.get("_buffers")
                if buffers is not None and name in buffers:
                    if value is not None and not isinstance(value, Tensor):
                        raise TypeError(f"cannot assign '{typename(value)}' as buffer '{name}' "
                                        "(torch.nn.Buffer, torch.Tensor or None expected)")
                    self.register_buffer(name, value,
                                         name not in self._non_persistent_buffers_set)
                else:
                    object.__setattr__(self, name, value)

    def _forget(self, name, *stores):
        """``name`` out of each store (dicts and the non-persistent set), as torch's
        ``remove_from``; the store it goes into keeps its place."""
        for store in stores:
            if name in store:
                if isinstance(store, dict):
                    del store[name]
                else:
                    store.discard(name)

    def __getattr__(self, name):
        for store in ("_parameters", "_buffers", "_modules"):
            d = self.__dict__.get(store)
            if d is not None and name in d:
                return d[name]
        raise AttributeError(f"'{type(self).__name__}' object has no attribute '{name}'")

    def __delattr__(self, name):
        if name in self._parameters:
            del self._parameters[name]
        elif name in self._buffers:
            del self._buffers[name]
            self._non_persistent_buffers_set.discard(name)
        elif name in self._modules:
            del self._modules[name]
        else:
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
        if param is not None:
            param = _registered(_global_parameter_registration_hooks, self, name, param)
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
        self._buffers[name] = _registered(_global_buffer_registration_hooks, self, name, tensor)
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
        self._modules[name] = _registered(_global_module_registration_hooks, self, name, module)

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

    def _apply(self, fn, recurse=True):
        """Replace every parameter's (and gradient's) data by ``fn(data)``: dtype casts."""
        for module in self.children() if recurse else ():
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

    def type(self, dst_type):
        """Every parameter and buffer cast with ``Tensor.type(dst_type)``."""
        return self._apply(lambda t: t.type(dst_type))

    def bfloat16(self):
        """Tensor.bfloat16's error (NumPy has no bfloat16) for a module with floating tensors."""
        return self._apply(lambda t: t.bfloat16() if t.is_floating_point() else t)

    def compile(self, *args, **kwargs):
        """torch.compile's left-out error: minigrad only runs eagerly."""
        raise _left_out.missing("minigrad", "compile")

    def share_memory(self):
        return self._apply(lambda t: t.share_memory_())

    def to_empty(self, *, device, recurse=True):
        """Every parameter and buffer replaced by an uninitialised one (``empty_like``)."""
        return self._apply(lambda t: empty_like(t, device=device), recurse=recurse)

    # other accelerators: each tensor's own method says what this torch lacks
    def xpu(self, device=None):
        return self._apply(lambda t: t.xpu(device))

    def ipu(self, device=None):
        return self._apply(lambda t: t.ipu(device))

    def mtia(self, device=None):
        return self._apply(lambda t: t.mtia(device))

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

    def set_submodule(self, target: str, module, strict: bool = False) -> None:
        """``model.set_submodule("encoder.0", layer)``: put ``layer`` at that dotted path."""
        if target == "":
            raise ValueError("Cannot set the submodule without a target name!")
        atoms = target.split(".")
        if not isinstance(module, Module):
            raise ValueError(f"`module` is not an nn.Module, found {type(module)}")
        parent = self if len(atoms) == 1 else self.get_submodule(".".join(atoms[:-1]))
        if strict and not hasattr(parent, atoms[-1]):
            raise AttributeError(parent._get_name() + " has no attribute `" + atoms[-1] + "`")
        if hasattr(parent, atoms[-1]) and not isinstance(getattr(parent, atoms[-1]), Module):
            raise AttributeError("`" + atoms[-1] + "` is not an nn.Module")
        setattr(parent, atoms[-1], module)

    def get_buffer(self, target: str):
        """``model.get_buffer("norm.running_mean")``: the buffer at that dotted path."""
        module_path, _, buffer_name = target.rpartition(".")
        mod = self.get_submodule(module_path)
        if not hasattr(mod, buffer_name):
            raise AttributeError(mod._get_name() + " has no attribute `" + buffer_name + "`")
        buffer = getattr(mod, buffer_name)
        if buffer_name not in mod._buffers:
            raise AttributeError("`" + buffer_name + "` is not a buffer")
        return buffer

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
        output)`` with ``with_kwargs``); what it returns (not None) replaces the output.
        With ``always_call`` it also runs when forward (or an earlier hook) raises."""
        return _add_hook(self._forward_hooks, self._forward_hooks_with_kwargs, hook, prepend,
                         with_kwargs, self._forward_hooks_always_called, always_call)

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
    def state_dict(self, *args, destination=None, prefix="", keep_vars=False):
        """Every parameter and persistent buffer by dotted name, detached (unless
        ``keep_vars``), in an OrderedDict whose ``_metadata`` holds each module's version."""
        if args:
            warnings.warn("Positional args are being deprecated, use kwargs instead. Refer to "
                          "https://pytorch.org/docs/main/generated/torch.nn.Module.html"
                          "#torch.nn.Module.state_dict for details.", FutureWarning,
                          stacklevel=2)
            if destination is None:
                destination = args[0]
            if len(args) > 1 and prefix == "":
                prefix = args[1]
            if len(args) > 2 and keep_vars is False:
                keep_vars = args[2]
        if destination is None:
            destination = OrderedDict()
            destination._metadata = OrderedDict()
        local_metadata = {"version": self._version}
        if hasattr(destination, "_metadata"):
            destination._metadata[prefix[:-1]] = local_metadata
        for hook in self._state_dict_pre_hooks.values():
            hook(self, prefix, keep_vars)
        self._save_to_state_dict(destination, prefix, keep_vars)
        for name, module in self._modules.items():
            if module is not None:
                module.state_dict(destination=destination, prefix=prefix + name + ".",
                                  keep_vars=keep_vars)
        for hook in self._state_dict_hooks.values():
            result = hook(self, destination, prefix, local_metadata)
            if not getattr(hook, "_from_public_api", False):
                if result is not None:
                    destination = result
            elif result is not None:
                raise RuntimeError("state_dict post-hook must return None")
        return destination

    def _save_to_state_dict(self, destination, prefix, keep_vars) -> None:
        """This module's own entries (not its children's): what old code overrides."""
        for name, p in self._parameters.items():
            if p is not None:
                destination[prefix + name] = p if keep_vars else p.detach()
        for name, b in self._buffers.items():
            if b is not None and name not in self._non_persistent_buffers_set:
                destination[prefix + name] = b if keep_vars else b.detach()
        if type(self).get_extra_state is not Module.get_extra_state:
            destination[prefix + _EXTRA_STATE_KEY_SUFFIX] = self.get_extra_state()

    def get_extra_state(self):
        raise RuntimeError("Reached a code path in Module.get_extra_state() that should never be "
                           "called. Please file an issue at https://github.com/pytorch/pytorch/"
                           "issues/new?template=bug-report.yml to report this bug.")

    def set_extra_state(self, state) -> None:
        raise RuntimeError("Reached a code path in Module.set_extra_state() that should never be "
                           "called. Please file an issue at https://github.com/pytorch/pytorch/"
                           "issues/new?template=bug-report.yml to report this bug.")

    def register_state_dict_pre_hook(self, hook):
        """``hook(module, prefix, keep_vars)`` before ``state_dict`` saves this module."""
        return _add_hook(self._state_dict_pre_hooks, None, hook, False, False)

    def register_state_dict_post_hook(self, hook):
        """``hook(module, state_dict, prefix, local_metadata)`` after; it must return None."""
        hook._from_public_api = True
        return _add_hook(self._state_dict_hooks, None, hook, False, False)

    def _register_state_dict_hook(self, hook):
        if getattr(hook, "_from_public_api", False):
            raise RuntimeError("Cannot register the same function as the state dict post hook "
                               "that was previously registered via register_state_dict_post_hook")
        return _add_hook(self._state_dict_hooks, None, hook, False, False)

    def register_load_state_dict_pre_hook(self, hook):
        """``hook(module, state_dict, prefix, local_metadata, strict, missing_keys,
        unexpected_keys, error_msgs)`` before this module's entries are loaded."""
        return self._register_load_state_dict_pre_hook(hook, with_module=True)

    def _register_load_state_dict_pre_hook(self, hook, with_module=False):
        wrapped = WrappedHook(hook, self) if with_module else hook
        return _add_hook(self._load_state_dict_pre_hooks, None, wrapped, False, False)

    def register_load_state_dict_post_hook(self, hook):
        """``hook(module, incompatible_keys)`` after; it may edit the key lists in place."""
        return _add_hook(self._load_state_dict_post_hooks, None, hook, False, False)

    def load_state_dict(self, state_dict, strict=True, assign=False):
        """Copy values into the existing parameters and buffers, in place and without
        recording (``assign=True``: the checkpoint's tensors take their places). torch's walk:
        each module loads the keys under its prefix, then its children; missing and
        unexpected keys are listed in that order."""
        if not isinstance(state_dict, Mapping):
            raise TypeError(f"Expected state_dict to be dict-like, got {type(state_dict)}.")
        missing_keys, unexpected_keys, error_msgs = [], [], []
        metadata = getattr(state_dict, "_metadata", None)
        state_dict = OrderedDict(state_dict)
        if metadata is not None:
            state_dict._metadata = metadata

        def load(module, local_state_dict, prefix=""):
            local_metadata = {} if metadata is None else metadata.get(prefix[:-1], {})
            if assign:
                local_metadata["assign_to_params_buffers"] = assign
            module._load_from_state_dict(local_state_dict, prefix, local_metadata, True,
                                         missing_keys, unexpected_keys, error_msgs)
            for name, child in module._modules.items():
                if child is not None:
                    child_prefix = prefix + name + "."
                    load(child, {k: v for k, v in local_state_dict.items()
                                 if k.startswith(child_prefix)}, child_prefix)
            incompatible = _IncompatibleKeys(missing_keys, unexpected_keys)
            for hook in module._load_state_dict_post_hooks.values():
                if hook(module, incompatible) is not None:
                    raise AssertionError(
                        "Hooks registered with ``register_load_state_dict_post_hook`` are not "
                        "expected to return new values, if incompatible_keys need to be "
                        "modified, it should be done inplace.")

        load(self, state_dict)
        if strict:
            if unexpected_keys:
                error_msgs.insert(0, "Unexpected key(s) in state_dict: "
                                  f"{_quoted(unexpected_keys)}. ")
            if missing_keys:
                error_msgs.insert(0, f"Missing key(s) in state_dict: {_quoted(missing_keys)}. ")
        if error_msgs:
            raise RuntimeError(f"Error(s) in loading state_dict for {type(self).__name__}:\n\t"
                               + "\n\t".join(error_msgs))
        return _IncompatibleKeys(missing_keys, unexpected_keys)

    def _load_from_state_dict(self, state_dict, prefix, local_metadata, strict, missing_keys,
                              unexpected_keys, error_msgs):
        """This module's own entries (not its children's): what old code overrides."""
        for hook in self._load_state_dict_pre_hooks.values():
            hook(state_dict, prefix, local_metadata, strict, missing_keys, unexpected_keys,
                 error_msgs)
        local_state = {k: v for k, v in (*self._parameters.items(), *(
            (k, b) for k, b in self._buffers.items()
            if k not in self._non_persistent_buffers_set)) if v is not None}
        assign = local_metadata.get("assign_to_params_buffers", False)
        for name, param in local_state.items():
            key = prefix + name
            if key not in state_dict:
                if strict:
                    missing_keys.append(key)
                continue
            value = state_dict[key]
            if not isinstance(value, Tensor):
                error_msgs.append(f'While copying the parameter named "{key}", expected '
                                  "torch.Tensor or Tensor-like object from checkpoint but "
                                  f"received {type(value)}")
                continue
            if param.dim() == 0 and value.dim() == 1 and value.shape[0] == 1:
                value = value[0]  # an old checkpoint's 1-element scalar
            if value.shape != param.shape:
                error_msgs.append(f"size mismatch for {key}: copying a param with shape "
                                  f"{value.shape} from checkpoint, the shape in current model "
                                  f"is {param.shape}.")
                continue
            try:
                with no_grad():
                    if assign:
                        if isinstance(param, Parameter):
                            if not isinstance(value, Parameter):
                                value = Parameter(value, requires_grad=param.requires_grad)
                            else:
                                value.requires_grad_(param.requires_grad)
                        setattr(self, name, value)
                    else:
                        param.copy_(value)
            except Exception as ex:  # noqa: BLE001 - torch reports any failure of the copy
                error_msgs.append(f'While copying the parameter named "{key}", whose '
                                  f"dimensions in the model are {param.size()} and whose "
                                  f"dimensions in the checkpoint are {value.size()}, an "
                                  f"exception occurred : {ex.args}.")
        extra_state_key = prefix + _EXTRA_STATE_KEY_SUFFIX
        if type(self).set_extra_state is not Module.set_extra_state:
            if extra_state_key in state_dict:
                self.set_extra_state(state_dict[extra_state_key])
            elif strict:
                missing_keys.append(extra_state_key)
        elif strict and extra_state_key in state_dict:
            unexpected_keys.append(extra_state_key)
        if strict:
            for key in state_dict:
                if key.startswith(prefix) and key != extra_state_key:
                    first, dot, _ = key[len(prefix):].partition(".")
                    if first not in (self._modules if dot else local_state):
                        unexpected_keys.append(key)

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
        state = {"args": args, "kwargs": kwargs, "result": None, "called": set()}
        try:
            return self._hooked_call(state)
        except Exception:
            self._call_always_called_hooks(state)
            raise

    def _hooked_call(self, state):
        """forward with the hooks around it; ``state`` keeps the arguments, the result and
        the always-called hooks already run, for ``_call_always_called_hooks`` if it fails."""
        d = self.__dict__
        args, kwargs = state["args"], state["kwargs"]
        pre, post = d.get("_forward_pre_hooks"), d.get("_forward_hooks")
        backward, backward_pre = d.get("_backward_hooks"), d.get("_backward_pre_hooks")
        pre_kwargs = d.get("_forward_pre_hooks_with_kwargs", ())
        post_kwargs = d.get("_forward_hooks_with_kwargs", ())
        always = d.get("_forward_hooks_always_called", ())
        pre = [*((hook, False) for hook in _global_forward_pre_hooks.values()),
               *((hook, key in pre_kwargs) for key, hook in (pre or {}).items())]
        post = [*((key, hook, key in _global_forward_hooks_with_kwargs)
                  for key, hook in _global_forward_hooks.items()),
                *((key, hook, key in post_kwargs) for key, hook in (post or {}).items())]
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
                    args, kwargs = state["args"], state["kwargs"] = result
            else:
                result = hook(self, args)
                if result is not None:
                    args = state["args"] = result if isinstance(result, tuple) else (result,)
        bw_hook = None
        if full or backward_pre:  # identity nodes around forward (see backward_hooks)
            bw_hook = BackwardHook(self, full, backward_pre)
            args = state["args"] = bw_hook.setup_input_hook(args)
        output = state["result"] = self.forward(*args, **kwargs)
        for key, hook, with_kwargs in post:
            if key in always or key in _global_forward_hooks_always_called:
                state["called"].add(key)
            result = hook(self, args, kwargs, output) if with_kwargs else hook(self, args, output)
            if result is not None:
                output = state["result"] = result
        if bw_hook:
            if not isinstance(output, (Tensor, tuple)):
                warnings.warn("For backward hooks to be called, module output should be a "
                              f"Tensor or a tuple of Tensors but received {type(output)}",
                              stacklevel=2)  # torch's names its call machinery
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

    def _call_always_called_hooks(self, state):
        """After an error in forward or a hook: the forward hooks registered with
        ``always_call=True`` that have not run yet, each with the result so far (None if
        forward failed); their own errors become warnings, and the first error is raised."""
        args, kwargs, result = state["args"], state["kwargs"], state["result"]
        for key, hook in _global_forward_hooks.items():
            if key in _global_forward_hooks_always_called and key not in state["called"]:
                try:
                    hook_result = hook(self, args, result)
                    if hook_result is not None:
                        result = hook_result
                except Exception as e:  # noqa: BLE001 - torch silences it into a warning
                    warnings.warn("global module forward hook with ``always_call=True`` raised "
                                  "an exception that was silenced as another error was raised "
                                  f"in forward: {e!s}", stacklevel=2)
        always = self.__dict__.get("_forward_hooks_always_called", ())
        with_kwargs = self.__dict__.get("_forward_hooks_with_kwargs", ())
        for key, hook in self._forward_hooks.items():
            if key in always and key not in state["called"]:
                try:
                    hook_result = (hook(self, args, kwargs, result) if key in with_kwargs
                                   else hook(self, args, result))
                    if hook_result is not None:
                        result = hook_result
                except Exception as e:  # noqa: BLE001 - torch silences it into a warning
                    warnings.warn("module forward hook with ``always_call=True`` raised an "
                                  "exception that was silenced as another error was raised in "
                                  f"forward: {e!s}", stacklevel=2)

    def extra_repr(self) -> str:
        return ""

    def __repr__(self) -> str:
        """torch's layout: one line when there is only an extra_repr, else one line per child."""
        extra = self.extra_repr()
        lines = extra.split("\n") if extra else []
        children = [f"({name}): {_addindent(repr(m), 2)}" for name, m in self._modules.items()]
        body = lines + children
        text = self._get_name() + "("
        if body:
            if len(lines) == 1 and not children:
                text += lines[0]
            else:
                text += "\n  " + "\n  ".join(body) + "\n"
        return text + ")"

    def __dir__(self):
        keys = [*dir(type(self)), *self.__dict__, *self._parameters, *self._modules,
                *self._buffers]
        return sorted(key for key in keys if not key[0].isdigit())
