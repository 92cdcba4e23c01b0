"""A learner's subclass of Tensor keeps its type through operations, as in torch.

Since torch 1.7, a method of ``torch.Tensor`` or a public ``torch.*`` function given an
instance of a subclass (``class MyTensor(torch.Tensor): pass``) returns an instance of that
subclass. torch's default ``Tensor.__torch_function__`` does it: the op runs on plain tensors
(inside it, subclasses dispatch nothing: ``DisableTorchFunctionSubclass``), then every tensor
it returns becomes the subclass through ``as_subclass``, an alias of the result (with an
``AliasBackward0`` node when it requires grad; that node is what ``grad_fn`` then shows). Of
several subclasses among the arguments, the one lowest in the hierarchy wins; two unrelated
ones are torch's TypeError. ``Parameter`` (and a subclass of it) turns all this off: its
results are plain tensors. A few things stay plain on purpose: ``.grad`` and ``._base``.

minigrad has no dispatcher, so it does the same in two places. ``register`` (called when a
learner's subclass is defined) gives the class a wrapper of each of Tensor's methods,
operators and tensor-valued properties, so ``s * 2``, ``s.sum()``, ``s[0]``, ``2 + s``
(Python asks the subclass first) and ``s.data`` pass through ``dispatch``; and it switches
``active`` on, which the ops' argument parsers (``_args.py``) read, so ``minigrad.add(t, s)``,
``t.mul(s)`` and ``F.relu(s)`` dispatch too. Until a learner defines a subclass, an op pays
one attribute read for this.

The dispatch extension points themselves, a subclass's own ``__torch_function__`` or
``__torch_dispatch__``, are left out: defining one is an error that says so.
"""

from __future__ import annotations

import functools
import importlib
import sys
import types
import weakref

from minigrad._tensor import Tensor

active = False  # a learner's subclass exists: the parsers look for one among the arguments
inside = False  # an op with a subclass argument is running (torch's DisableTorchFunctionSubclass)
PASS = object()  # ``dispatch``'s answer when no argument is a learner's subclass
_live = 0  # how many of the learner's subclasses are still defined (not yet collected)
_originals: list = []  # (module, name, function) that _dispatch_python_functions replaced

# What a learner's subclass does not wrap: what makes or describes the object itself, what
# returns no tensor, and what torch leaves unconverted (.grad, ._base: properties, skipped
# below anyway). Private names (one underscore) are minigrad's own and never wrapped.
_UNWRAPPED = {
    "__init__", "__new__", "__init_subclass__", "__getattr__", "__getattribute__",
    "__setattr__", "__delattr__", "__repr__", "__str__", "__format__", "__reduce__",
    "__reduce_ex__", "__deepcopy__", "__copy__", "__getstate__", "__setstate__", "__hash__",
    "__dir__", "__sizeof__", "__array__", "__array_wrap__", "__array_ufunc__",
    "__array_function__", "__dlpack__", "__dlpack_device__", "__len__", "__bool__",
    "__index__", "__float__", "__int__", "__complex__", "__contains__", "__setitem__",
    "__iter__", "__class_getitem__", "__weakref__", "__dict__", "__module__", "__doc__",
    "__slots__", "__array_priority__", "__subclasshook__",
    "backward", "register_hook", "register_post_accumulate_grad_hook", "retain_grad",
    "tolist", "item", "numpy", "dim", "size", "stride", "numel", "nelement", "ndimension",
    "element_size", "data_ptr", "storage_offset", "is_contiguous", "untyped_storage",
    "storage", "type", "get_device", "is_floating_point", "is_complex", "is_signed",
}
_TENSOR_PROPERTIES = ("data", "T", "mT", "H", "mH", "real", "imag")
_REFLECTED = {"__radd__", "__rsub__", "__rmul__", "__rtruediv__", "__rpow__", "__rmatmul__",
              "__rfloordiv__", "__rmod__", "__rand__", "__ror__", "__rxor__", "__rlshift__",
              "__rrshift__"}
_BINARY = {"__add__", "__sub__", "__mul__", "__truediv__", "__pow__", "__matmul__",
           "__floordiv__", "__mod__", "__and__", "__or__", "__xor__", "__lshift__",
           "__rshift__", "__iadd__", "__isub__", "__imul__", "__itruediv__", "__lt__", "__le__",
           "__gt__", "__ge__", "__eq__", "__ne__"}
# torch's functions written in Python (torch/functional.py and the like), each dispatching as
# one function; minigrad's namesakes are Python too (the others are ops, whose parsers dispatch)
_PYTHON_FUNCTIONS = {
    "minigrad": ("atleast_1d", "atleast_2d", "atleast_3d", "block_diag", "broadcast_tensors",
                 "cartesian_prod", "cdist", "chain_matmul", "einsum", "meshgrid", "norm", "split",
                 "tensordot", "unique", "unique_consecutive", "as_tensor", "cov", "bernoulli"),
    "minigrad.linalg": ("multi_dot",),
}


def register(cls) -> None:
    """Called for every new subclass of Tensor (``Tensor.__init_subclass__``): a learner's
    (not minigrad's own, not a Parameter's) gets its wrappers; see the module's docstring."""
    if cls.__module__ == "minigrad" or cls.__module__.startswith("minigrad."):
        return  # Parameter, vmap's BatchedTensor: minigrad's own
    for name in ("__torch_function__", "__torch_dispatch__"):
        if name in vars(cls):
            raise TypeError(
                f"minigrad does not implement torch.Tensor.{name}: minigrad calls no "
                "__torch_function__ or __torch_dispatch__ handlers (torch's dispatch extension "
                "points); a subclass of minigrad.Tensor without one keeps its type through "
                "operations, as torch's default handler gives; or run this code with torch")
    if getattr(cls, "_plain_results", False):
        return  # a subclass of Parameter: torch's Parameter disables __torch_function__
    global active, _live
    if not active:
        active = True
        _dispatch_python_functions()
    _live += 1
    weakref.finalize(cls, _forget)
    cls._learner_subclass = True
    for name, attr in vars(Tensor).items():
        if name in _UNWRAPPED or (name.startswith("_") and not name.startswith("__")):
            continue
        if _defined_below_tensor(cls, name):
            continue  # the learner's own method (or one a parent subclass wrapped already)
        if isinstance(attr, property):
            if name in _TENSOR_PROPERTIES:
                setattr(cls, name, property(_wrapped(f"Tensor.{name}.__get__", attr.fget),
                                            attr.fset, attr.fdel))
        elif name in _REFLECTED:
            setattr(cls, name, _reflected(name, attr))
        elif callable(attr) and not isinstance(attr, type | staticmethod | classmethod):
            setattr(cls, name, _wrapped(f"Tensor.{name}", attr))
    if not _defined_below_tensor(cls, "__format__"):
        cls.__format__ = _format
    if not _defined_below_tensor(cls, "__deepcopy__"):
        cls.__deepcopy__ = _deepcopy


def _forget() -> None:
    """A learner's subclass is gone (collected): with none left, nothing dispatches, and the
    Python functions are as they were (a long session, a test run, pays nothing more)."""
    global active, _live
    _live -= 1
    if active and not _live:
        active = False
        for module, name, fn in _originals:
            setattr(module, name, fn)
        _originals.clear()


def _dispatch_python_functions() -> None:
    """The public functions written in Python rather than as one op (most of nn.functional's,
    torch.autograd.grad) dispatch as one torch function each, as torch's do: wrapped when the
    first learner's subclass is defined, so that until then no call pays for a wrapper's frame.
    (Imported here, not at the top: these modules import the ops, which import this one.)"""
    chosen = {"minigrad.autograd": ("grad",), **_PYTHON_FUNCTIONS}
    functional = importlib.import_module("minigrad.nn.functional")
    chosen[functional.__name__] = [name for name, fn in vars(functional).items()
                                   if not name.startswith("_")
                                   and isinstance(fn, types.FunctionType)
                                   and fn.__module__ == functional.__name__]
    for module_name, names in chosen.items():
        module = importlib.import_module(module_name)
        prefix = "torch" + module_name[len("minigrad"):] + "."
        for name in names:
            fn = getattr(module, name)
            _originals.append((module, name, fn))
            setattr(module, name, _dispatching(fn, prefix + name))


def _dispatching(fn, public_name: str):
    @functools.wraps(fn)
    def function(*args, **kwargs):
        if not inside:
            out = dispatch(public_name, fn, args, kwargs)
            if out is not PASS:
                return out
        return fn(*args, **kwargs)

    return function


# the code of every _dispatching wrapper (one function, many closures)
_WRAPPER_CODE = next(c for c in _dispatching.__code__.co_consts if isinstance(c, types.CodeType))


def stacklevel(level: int) -> int:
    """``level`` for a ``warnings.warn`` in the caller, plus one for each dispatching wrapper
    among the frames it counts. torch's Python functions dispatch inside themselves, so their
    warnings name the same line whether or not a learner's subclass lives; minigrad's wrappers
    (installed while one does) are frames of their own."""
    frame, extra = sys._getframe(1), 0
    for _ in range(level - 1):
        frame = frame.f_back
        while frame is not None and frame.f_code is _WRAPPER_CODE:
            frame, extra = frame.f_back, extra + 1
        if frame is None:
            break
    return level + extra


def _defined_below_tensor(cls, name: str) -> bool:
    for klass in cls.__mro__:
        if klass is Tensor:
            return False
        if name in vars(klass):
            return True
    return False


def _wrapped(qualname: str, fn):
    """Tensor's ``fn`` for a learner's subclass: through ``dispatch`` unless an op is running."""
    if qualname.startswith("Tensor.__") and qualname[7:] in _BINARY:
        def method(self, other):
            if inside:
                return fn(self, other)
            return operator(qualname[7:], fn, self, other)
    else:
        def method(*args, **kwargs):
            if inside:
                return fn(*args, **kwargs)
            out = dispatch(f"torch.{qualname}", fn, args, kwargs)
            return fn(*args, **kwargs) if out is PASS else out

    method.__name__ = getattr(fn, "__name__", qualname)
    method.__qualname__ = f"Tensor.{method.__name__}"
    method.__doc__ = fn.__doc__
    return method


def _reflected(name: str, fn):
    """A reflected operator (``__rmul__``) for a learner's subclass. Python asks a subclass's
    own reflected operator before the left operand's (``t * s`` calls ``s.__rmul__(t)``);
    torch's subclass has none of its own, so there Python calls ``t.__mul__(s)``, which
    dispatches: the same here, so that the operands keep their order (and the graph its
    edges)."""
    forward = getattr(Tensor, "__" + name[3:])

    def method(self, other):
        if isinstance(other, Tensor) and not other._learner_subclass:
            return forward(other, self)  # (inside an op too: ``t * s`` in a composite)
        if inside:
            return fn(self, other)
        return operator(name, fn, self, other)

    method.__name__ = method.__qualname__ = name
    return method


def operator(name: str, fn, self, other):
    """``fn(self, other)`` for an operator: as ``dispatch``, but two unrelated subclasses give
    NotImplemented, as torch's operators do, so that Python raises its own TypeError."""
    try:
        cls = _target_class(f"torch.Tensor.{name}", (self, other), {})
    except TypeError:
        return NotImplemented
    return fn(self, other) if cls is None else _run_as(cls, fn, (self, other), {})


def dispatch(public_name: str, fn, args, kwargs):
    """``fn(*args, **kwargs)`` as torch's default ``__torch_function__`` runs it when a
    learner's subclass is among the arguments (``PASS`` when none is): the op on its own, then
    its tensors turned into the lowest subclass."""
    cls = _target_class(public_name, args, kwargs)
    return PASS if cls is None else _run_as(cls, fn, args, kwargs)


def _run_as(cls, fn, args, kwargs):
    """``fn`` run on plain tensors (no subclass dispatches inside it), its tensors as ``cls``."""
    global inside
    inside = True
    try:
        out = fn(*args, **kwargs)
    finally:
        inside = False
    return _convert(out, cls)


# where an op a learner's subclass dispatched runs (see _core.warn_at_caller)
RUN_AS_CODE = _run_as.__code__


def _target_class(public_name: str, args, kwargs):
    """The learner's subclass the results take, or None: torch tries each subclass's handler,
    lowest first, and the default handler accepts only when its class is a subclass of every
    other one."""
    types = []
    for arg in (*args, *kwargs.values()):
        for item in (arg if type(arg) in (list, tuple) else (arg,)):
            if isinstance(item, Tensor) and getattr(item, "_learner_subclass", False):
                t = type(item)
                if t not in types:
                    types.append(t)
    if not types:
        return None
    for t in types:
        if all(issubclass(t, other) for other in types):
            return t
    listed = "".join(f"  - tensor subclass {t}\n" for t in types)
    raise TypeError(f"Multiple dispatch failed for '{public_name}'; all __torch_function__ "
                    f"handlers returned NotImplemented:\n\n{listed}\nFor more information, try "
                    "re-running with TORCH_LOGS=not_implemented")


def _convert(out, cls):
    """torch's ``_convert``: each tensor in ``out`` (itself, or in a tuple or list) as ``cls``."""
    if isinstance(out, Tensor):
        return out if isinstance(out, cls) else as_subclass(out, cls)
    if isinstance(out, tuple | list):
        return type(out)(_convert(item, cls) for item in out)
    return out


def as_subclass(self, cls):
    """``Tensor.as_subclass``: an alias of ``self`` (``AliasBackward0`` when it requires grad),
    as an instance of ``cls``."""
    _check_subclass(cls)
    return retyped(self._alias(), cls)


def make_subclass(cls, data, require_grad=False):
    """``Tensor._make_subclass``: ``data``'s memory, detached, as a new leaf of ``cls`` (how a
    learner's ``__new__`` makes an instance of its subclass, as Parameter's does)."""
    _check_subclass(cls)
    if not isinstance(data, Tensor):
        raise TypeError(f"_make_subclass(): argument 'data' (position 2) must be Tensor, not "
                        f"{type(data).__name__}")
    out = retyped(Tensor.detach(data), cls)
    if require_grad and not out.dtype.is_floating_point:
        raise RuntimeError("Only Tensors of floating point and complex dtype can require "
                           "gradients")
    out._requires_grad = bool(require_grad)
    return out


def _check_subclass(cls) -> None:
    if not (isinstance(cls, type) and issubclass(cls, Tensor)):
        raise TypeError("Creating a Tensor subclass from a class that does not inherit from "
                        "Tensor is not possible. Make sure your class inherits from Tensor.")


def retyped(t, cls):
    """``t``, a fresh tensor nothing else refers to yet, as an instance of ``cls``: itself, or,
    when ``cls`` has slots of its own (``__slots__ = ("tag",)``, whose layout Python cannot
    change an object to), a new ``cls`` object holding ``t``'s state."""
    try:
        t.__class__ = cls
    except TypeError:
        return _moved(t, cls)
    return t


_TENSOR_SLOTS = tuple(s for s in Tensor.__slots__ if s not in ("__dict__", "__weakref__"))


def _moved(t, cls):
    """A new ``cls`` object holding ``t``'s state (slots and attributes); a node that made
    ``t`` keeps only its metadata."""
    new = object.__new__(cls)
    for name in _TENSOR_SLOTS:
        setattr(new, name, getattr(t, name))
    new.__dict__.update(vars(t))
    return new


def _format(self, spec: str) -> str:
    """torch formats only a plain 0-d tensor as its number (``f"{loss:.3f}"``); a subclass
    gets ``object.__format__``: its repr for an empty spec, a TypeError for any other."""
    return object.__format__(self, spec)


def _deepcopy(self, memo):
    """torch's default deep copy of a subclass that wraps no other tensor needs ``new_empty``
    to return the subclass, and inside the copy (subclasses dispatching nothing) it does not."""
    raise RuntimeError(
        "The default implementation of __deepcopy__() for non-wrapper subclasses only works "
        "for subclass types that implement new_empty() and for which that function returns "
        "another instance of the same subclass. You should either properly implement "
        "new_empty() for your subclass or override __deepcopy__() if it is intended behavior "
        "for new_empty() to return an instance of a different type.")


Tensor._subclassed = staticmethod(register)
Tensor._make_subclass = staticmethod(make_subclass)
