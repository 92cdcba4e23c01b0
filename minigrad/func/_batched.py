"""Batched tensors and batching rules: how ``vmap`` runs a function once on the whole batch.

Inside ``vmap(f)(x)``, ``f`` gets a ``BatchedTensor``: a physical tensor (``x`` itself) with
one dimension, ``bdim``, that holds the batch, at a vmap ``level`` (nested vmaps nest them).
What ``f`` sees is the *logical* tensor, one sample: ``shape``, ``dim()``, ``size()`` leave
the batch dimension out. Every op given a batched tensor goes to its *batching rule*, which
computes the op for all samples at once with ordinary ops on the physical tensor, as torch's
functorch rules do (``aten/src/ATen/functorch/BatchRules*.cpp``), so autograd records
torch's physical ops: ``vmap(torch.sin)(x)`` is one ``sin`` of ``x`` (SinBackward0), a
per-sample ``.sum()`` is ``x.sum(dim=[1])`` (SumBackward1), ``r @ w`` an ``mm`` of ``x``.

- pointwise ops on one tensor and numbers keep the batch dimension where it is;
- pointwise ops on several tensors move the batch dimension to the front (``movedim``, a
  PermuteBackward0), pad a batched operand with fewer logical dims by a ``view``, and
  broadcast unbatched operands as they are;
- reductions, softmax, views and shape ops move it to the front and shift their dims by one;
- ``dot``, ``mv``, ``mm`` and ``matmul`` follow torch's rules case by case;
- the losses follow torch's loss rules (mse, huber, smooth_l1: the loss of the flattened
  samples, then a mean or sum per sample; binary_cross_entropy: the whole batch, then reduced)
  or its decompositions (l1, binary_cross_entropy_with_logits, nll_loss: composed of ops
  with rules); embedding, torch's rule.

An op with no rule falls back as torch's fallback does: it runs once per sample on
``select``ed samples of each batched argument ``permute``d to the front, and ``stack``s the
results (then a ``view``: ViewBackward0 over StackBackward0, as torch's graph). A learner's
read of a batched tensor's values (``.tolist()``, ``.numpy()``, ``.item()``, ``float(x)``,
``if x:``) gets torch's error; minigrad's own code that reads them (an op not reached through
an argument parser) raises ``Unbatchable``, and vmap then runs the whole function once per
sample instead, as it once always did (``vmap.py``).
"""

from __future__ import annotations

import warnings

from minigrad import _dtype
from minigrad import storage as _storage
from minigrad._ops import METHODS, _vmap_hook, composite_loss
from minigrad._ops._core import _combine
from minigrad._ops.inplace import SqueezeBackward5
from minigrad._ops.join import stack
from minigrad._ops.pointwise import add_scalar, mul_scalar, sub_scalar
from minigrad._tensor import _CPU, T_0D_WARNING, T_ND_WARNING, Size, Tensor, _warn_once
from minigrad.func._pytree import tree_flatten, tree_unflatten

__all__ = ["BatchedTensor", "Unbatchable", "add_batch_dim"]


class Unbatchable(BaseException):  # noqa: N818 - a signal, not an error
    """A batched tensor's values were read directly: vmap runs the function per sample.
    A BaseException, so that no ``except Exception`` on the way swallows it."""


_vmap_hook.Unbatchable = Unbatchable  # (a custom Function with a vmap rule raises it)


def _unbatchable(*_args, **_kwargs):
    raise Unbatchable


class NoValues:
    """A batched tensor's ``_data``: a sample's shape and dtype (what the autograd engine
    checks a gradient by, ``validate_outputs``), and no values: reading them, or any NumPy
    operation on it, raises ``Unbatchable`` (the op or function then runs per sample). What
    is computed from the shape and dtype alone is the same for every sample."""

    __slots__ = ("shape", "dtype")

    def __init__(self, shape, dtype):
        self.shape, self.dtype = tuple(shape), dtype

    @property
    def ndim(self) -> int:
        return len(self.shape)

    @property
    def size(self) -> int:
        return Size(self.shape).numel()

    def __getattr__(self, name):
        raise Unbatchable

    __array__ = __array_ufunc__ = __array_function__ = __getitem__ = __setitem__ = \
        __len__ = __iter__ = __bool__ = __float__ = __int__ = __index__ = _unbatchable
    __add__ = __radd__ = __sub__ = __rsub__ = __mul__ = __rmul__ = __truediv__ = \
        __rtruediv__ = __pow__ = __rpow__ = __neg__ = __abs__ = __eq__ = __ne__ = __lt__ = \
        __le__ = __gt__ = __ge__ = __matmul__ = __rmatmul__ = _unbatchable
    __hash__ = None


class BatchedTensor(Tensor):
    """One sample's view (the logical tensor) of a batch (the physical tensor ``_value``)."""

    def __new__(cls, *args):  # made by __init__, not from data as Tensor(...) is
        return object.__new__(cls)

    def __init__(self, value, bdim: int, level: int):
        self._requires_grad = False
        self._grad_fn = None
        self._output_nr = 0
        self._grad = None
        self._counter = None
        self._is_inference = False
        self._value, self._bdim, self._level = value, bdim, level

    # its values exist only per sample: code reading them directly runs per sample; what
    # a sample's array would say of itself (shape, dtype) it answers
    _data = property(lambda self: NoValues(self.shape, self._value._data.dtype), _unbatchable)

    @property
    def shape(self) -> Size:
        s = tuple(self._value.shape)
        return Size(s[:self._bdim] + s[self._bdim + 1:])

    def size(self, dim=None):
        shape = self.shape
        if dim is None:
            return shape
        return shape[_wrap(dim, len(shape))]

    def dim(self) -> int:
        return self._value.dim() - 1

    ndim = property(dim)

    def numel(self) -> int:
        return Size(self.shape).numel()

    nelement = numel

    @property
    def dtype(self):
        return self._value.dtype

    @property
    def device(self):
        return _CPU

    def is_floating_point(self) -> bool:
        return self._value.dtype.is_floating_point

    def element_size(self) -> int:
        return self._value.element_size()

    @property
    def T(self):  # noqa: N802
        """As Tensor.T on a sample: its warning (once) on other than 2-D samples."""
        n = self.dim()
        if n != 2:
            _warn_once(T_0D_WARNING if n == 0 else T_ND_WARNING)
        return self.permute(*reversed(range(n)))

    @property
    def mT(self):  # noqa: N802
        if self.dim() < 2:
            raise RuntimeError("tensor.mT is only supported on matrices or batches of matrices. "
                               f"Got {self.dim()}-D tensor.")
        return self.transpose(-2, -1)

    def detach(self):
        return BatchedTensor(self._value.detach(), self._bdim, self._level)

    def __len__(self) -> int:
        if self.dim() == 0:
            raise TypeError("len() of a 0-d tensor")
        return self.shape[0]

    def __iter__(self):
        return iter([self.select(0, i) for i in range(len(self))])

    def __bool__(self):
        raise RuntimeError("vmap: It looks like you're attempting to use a Tensor in some "
                           "data-dependent control flow. We don't support that yet, please "
                           "file an issue at https://github.com/pytorch/pytorch/issues .")

    def item(self):
        raise RuntimeError("vmap: It looks like you're calling .item() on a Tensor. We don't "
                           "support vmap over calling .item() on a Tensor, please try to "
                           "rewrite what you're doing with other operations. If error is "
                           "occurring somewhere inside PyTorch internals, please file a bug "
                           "report.")

    def __float__(self):  # float(x) and int(x) are .item() in torch
        return self.item()

    __int__ = __float__

    def __index__(self):
        raise TypeError("only integer tensors of a single element can be converted to an index")

    # A learner's read of a sample's values (x.tolist(), x.numpy(), np.asarray(x)) is torch's
    # error too: a batched tensor has no storage of its own. (minigrad's own code that reads
    # ``_data`` raises Unbatchable instead, and vmap then runs the function per sample.)
    def _no_storage(self, *args, **kwargs):
        raise RuntimeError("Cannot access data pointer of Tensor that doesn't have storage")

    tolist = numpy = data_ptr = _no_storage

    def __array__(self, dtype=None, copy=None):
        self._no_storage()

    def untyped_storage(self):
        raise NotImplementedError("Cannot access storage of BatchedTensorImpl")

    def storage(self):
        _storage.warn_typed_storage_removal()  # torch's TypedStorage warns first
        return self.untyped_storage()

    def __repr__(self, *, tensor_contents=None) -> str:
        inner = "\n".join("    " + line if line else line
                          for line in repr(self._value).split("\n"))
        return f"BatchedTensor(lvl={self._level}, bdim={self._bdim}, value=\n{inner}\n)"

    __str__ = __repr__
    __hash__ = Tensor.__hash__

    # autograd of a sample (a transform such as grad inside vmap): per sample
    requires_grad = property(lambda self: False, _unbatchable)
    requires_grad_ = backward = register_hook = retain_grad = _unbatchable


# torch's batched tensors are plain Tensors to Python: ``type(x)`` inside vmap says so
BatchedTensor.__name__ = BatchedTensor.__qualname__ = "Tensor"
BatchedTensor.__module__ = Tensor.__module__


def add_batch_dim(x, in_dim: int, level: int) -> BatchedTensor:
    return BatchedTensor(x, in_dim, level)


def _wrap(dim: int, n: int) -> int:
    """A logical dim in range (torch's message when it is not)."""
    lo, hi = (-n, n - 1) if n else (-1, 0)
    if not lo <= dim <= hi:
        raise IndexError(f"Dimension out of range (expected to be in range of [{lo}, {hi}], "
                         f"but got {dim})")
    return dim % n if n else 0


# --- dispatch ---------------------------------------------------------------------------------

def _level_of(args, kwargs) -> int:
    level = 0
    for a in (*args, *kwargs.values()):
        if isinstance(a, BatchedTensor):
            level = max(level, a._level)
        elif type(a) in (list, tuple):
            for b in a:
                if isinstance(b, BatchedTensor):
                    level = max(level, b._level)
    return level


def call(name, fn, args, kwargs):
    """``fn(*args, **kwargs)`` (an op named ``name``) with some batched argument: its rule, or
    the per-sample fallback. ``PASS`` when nothing is batched."""
    level = _level_of(args, kwargs)
    if not level:
        return _vmap_hook.PASS
    if kwargs.get("out") is not None:  # torch's rules and fallback both refuse out=
        overload = _OUT_OVERLOADS.get(name, "out")
        raise RuntimeError(f"Batching rule not implemented for aten::{name}.{overload}"
                           + (". We could not generate a fallback." if name in ("cat", "stack")
                              else "; the fallback path doesn't work on out= or view ops."))
    if name in _DRAWN_FROM_INPUTS and RANDOMNESS.get(level) == "same":
        raise RuntimeError("Vmap does not currently support same randomness with a batched "
                           "tensor input. Please file an issue with functorch")
    rule = RULES.get(name)
    if rule is not None:
        out = rule(fn, level, args, kwargs)
        if out is not _FALLBACK:
            return out
    return _fallback(name, fn, level, args, kwargs)


_FALLBACK = object()
# the random ops whose numbers come from a batched input's values (probabilities, means):
# torch refuses them under randomness='same'
_DRAWN_FROM_INPUTS = {"multinomial", "bernoulli", "normal", "poisson"}
RANDOMNESS = {}  # a running vmap's level -> its randomness mode (set by vmap.py)


def _is_batched(x, level) -> bool:
    return isinstance(x, BatchedTensor) and x._level == level


def _batch_size(level, args, kwargs) -> int:
    for a in (*args, *kwargs.values()):
        for b in (a if type(a) in (list, tuple) else (a,)):
            if _is_batched(b, level):
                return b._value.shape[b._bdim]
    raise AssertionError("no batched argument")


def sample_of(x, dim: int, i: int, size: int):
    """Sample ``i`` of ``x`` along ``dim``; for an empty batch, zeros shaped like a sample: the
    function runs on them once so that the empty results get their shapes."""
    if size == 0:
        return x.new_zeros(x.shape[:dim] + x.shape[dim + 1:])
    return x.select(dim, i)


def _sample(x, level, i, size):
    if type(x) in (list, tuple):
        return type(x)(_sample(b, level, i, size) for b in x)
    if not _is_batched(x, level):
        return x
    return sample_of(x._value, x._bdim, i, size)


def _fallback(name, fn, level, args, kwargs):
    """torch's batched fallback: the op once per sample, the results stacked (at dim 0)."""
    size = _batch_size(level, args, kwargs)
    inplace = name.endswith("_") and not name.startswith("__") or name in _INPLACE_OPERATORS
    if inplace and not _is_batched(args[0] if args else None, level):
        return _inplace_into_unbatched(name, fn, level, args, kwargs)
    if not inplace and size:  # torch's fallback: each batch dim first (a permute), once
        args = [_permuted_front(a, level) for a in args]
        kwargs = {k: _permuted_front(v, level) for k, v in kwargs.items()}
    outs = []
    for i in range(max(size, 1)):
        sample_args = [_sample(a, level, i, size) for a in args]
        sample_kwargs = {k: _sample(v, level, i, size) for k, v in kwargs.items()}
        outs.append(fn(*sample_args, **sample_kwargs))
    if inplace:
        if size == 0:
            return args[0]
        return args[0] if name != "__setitem__" else None
    if any(o is NotImplemented for o in outs):
        return NotImplemented
    return _stack_results(outs, level, size, viewed=True)


def _permuted_front(x, level):
    """A batched argument with its batch dim first by a permute (torch's fallback permutes
    every batched argument, even in place: PermuteBackward0)."""
    if type(x) in (list, tuple):
        return type(x)(_permuted_front(b, level) for b in x)
    if not _is_batched(x, level):
        return x
    order = [x._bdim, *(d for d in range(x._value.dim()) if d != x._bdim)]
    return BatchedTensor(x._value.permute(order), 0, level)


_OUT_OVERLOADS = {"sum": "IntList_out", "softmax": "int_out", "log_softmax": "int_out",
                  "where": "self_out"}
# torch's in-place ops whose batching rule refuses a batched operand for an unbatched self
# under the name "inplace arithmetic", those with rules of their own names, and those whose
# rule writes the whole batch into self (a broadcasting error, self lacking the batch dim)
_ARITHMETIC_INPLACE = {"mul_", "multiply_", "sub_", "div_", "divide_", "true_divide_",
                       "copy_", "clamp_min_", "clamp_max_", "logical_and_", "logical_or_",
                       "logical_xor_", "__isub__", "__imul__", "__itruediv__"}
_OWN_RULE_INPLACE = {"fill_", "index_add_", "scatter_add_"}
_WHOLE_BATCH_INPLACE = {"add_", "__iadd__", "atan2_", "arctan2_", "copysign_"}
_ATEN_NAMES = {"__ipow__": "pow_", "__ifloordiv__": "floor_divide_", "__imod__": "remainder_"}


def _inplace_into_unbatched(name, fn, level, args, kwargs):
    """An in-place op on an unbatched tensor given a batched operand: torch's error (its rule's
    or its fallback's), never a write of every sample into the one tensor."""
    self = args[0] if args else None
    if name in _WHOLE_BATCH_INPLACE and isinstance(self, Tensor):
        rank = self.dim()
        return fn(self, *[_front_padded(a, level, rank) for a in args[1:]], **kwargs)
    if name == "__setitem__":
        index = args[1] if len(args) > 1 else None
        parts = index if isinstance(index, tuple) else (index,)
        if not any(isinstance(p, Tensor) for p in parts):  # a view's copy_ or fill_ refuses
            return fn(*args, **kwargs)
        op = "index_put_"
    elif name == "masked_fill_":
        mask = args[1] if len(args) > 1 else kwargs.get("mask")
        op = "inplace arithmetic" if _is_batched(mask, level) else None
    elif name in _ARITHMETIC_INPLACE:
        op = "inplace arithmetic"
    elif name in _OWN_RULE_INPLACE:
        op = name
    else:
        op = None
    where = "in a vmap"
    if op is None:  # torch's fallback, which warns that it is one first
        op, where = f"aten::{_ATEN_NAMES.get(name, name)}", f"at level {level}"
        warnings.warn("There is a performance drop because we have not yet implemented the "
                      f"batching rule for {op}{_overload(name, args, kwargs)}. Please file us "
                      "an issue on GitHub so that we can prioritize its implementation.",
                      UserWarning, stacklevel=4)
    raise RuntimeError(f"vmap: {op}(self, *extra_args) is not possible because there exists a "
                       "Tensor `other` in extra_args that has more elements than `self`. This "
                       "happened due to `other` being vmapped over but `self` not being vmapped "
                       f"over {where}. Please try to use out-of-place operators instead of {op}. "
                       "If said operator is being called inside the PyTorch framework, please "
                       "file a bug report instead.")


_NO_OVERLOAD = {"addcdiv_", "addcmul_", "heaviside_", "hypot_", "igamma_", "igammac_",
                "index_copy_", "ldexp_", "masked_scatter_", "nextafter_", "resize_as_"}


def _overload(name, args, kwargs) -> str:
    """The overload of an in-place op torch names in its fallback's warning."""
    if name in _NO_OVERLOAD:
        return ""
    if name == "scatter_":
        return ".src" if isinstance(args[-1] if len(args) > 3 else kwargs.get("src"),
                                    Tensor) else ".value"
    if name == "lerp_":
        weight = args[2] if len(args) > 2 else kwargs.get("weight")
        return ".Tensor" if isinstance(weight, Tensor) else ".Scalar"
    others = (*args[1:], *kwargs.values())
    return ".Tensor" if any(isinstance(a, Tensor) for a in others) else ".Scalar"


def _stack_results(outs, level, size, viewed=False):
    """The per-sample results of one op as one batched result: tensors stacked (at dim 0;
    ``viewed``: then viewed to their shape, as torch's fallback does), containers rebuilt
    around their stacked items (tuples as torch's return types too); anything else must be
    the same for every sample."""
    first = outs[0]
    if isinstance(first, Tensor):
        if not all(isinstance(o, Tensor) for o in outs):
            raise Unbatchable
        stacked = stack(list(outs))
        if viewed and size:
            stacked = stacked.view(stacked.shape)
        return BatchedTensor(stacked if size else stacked.narrow(0, 0, 0), 0, level)
    if isinstance(first, tuple | list):
        if any(type(o) is not type(first) or len(o) != len(first) for o in outs):
            raise Unbatchable
        items = [_stack_results([o[k] for o in outs], level, size, viewed)
                 for k in range(len(first))]
        if hasattr(type(first), "_fields"):  # a namedtuple
            return type(first)(*items)
        return type(first)(items)
    if isinstance(first, dict):
        return type(first)((k, _stack_results([o[k] for o in outs], level, size, viewed))
                           for k in first)
    for o in outs[1:]:
        if isinstance(o, Tensor) or not (o is first or o == first):
            raise Unbatchable
    return first


def per_sample(fn, args):
    """``fn(*args)`` once per sample of its batched arguments, the results stacked (the
    fallback of a forward-mode rule given batched tangents, of a backward given batched
    gradients)."""
    level = _level_of(args, {})
    if not level:  # what cannot run batched is not in the arguments
        raise Unbatchable
    return _fallback("per_sample", fn, level, args, {})


_vmap_hook.per_sample = per_sample

_INPLACE_OPERATORS = {"__setitem__", "__iadd__", "__isub__", "__imul__", "__itruediv__",
                      "__ipow__", "__ifloordiv__", "__imod__"}


# --- rules ------------------------------------------------------------------------------------

def _front(x: BatchedTensor):
    """The physical tensor with the batch dim first (torch's moveBatchDimToFront)."""
    return x._value if x._bdim == 0 else x._value.movedim(x._bdim, 0)


def _front_padded(x, level, rank):
    """An operand at ``level`` with its batch dim first and, when it has fewer logical dims
    than ``rank``, dims of size 1 after it (a ``view``), as torch pads before broadcasting;
    anything else as it is."""
    if not _is_batched(x, level):
        return x
    v = _front(x)
    if x.dim() < rank:
        shape = tuple(v.shape)
        v = v.view(shape[:1] + (1,) * (rank - x.dim()) + shape[1:])
    return v


def _only_self(args, kwargs, level) -> bool:
    """Is ``args[0]`` the only tensor argument, batched at ``level``?"""
    if not args or not _is_batched(args[0], level):
        return False
    rest = (*args[1:], *kwargs.values())
    return not any(isinstance(a, Tensor) or (type(a) in (list, tuple)
                                              and any(isinstance(b, Tensor) for b in a))
                   for a in rest)


def _unary(fn, level, args, kwargs):
    """A pointwise op of one tensor (and numbers): on the physical tensor, bdim kept."""
    if not _only_self(args, kwargs, level):
        return _n_ary(fn, level, args, kwargs)
    x = args[0]
    out = fn(x._value, *args[1:], **kwargs)
    if not isinstance(out, Tensor):  # NotImplemented, or ``x == None``'s False
        return out
    return BatchedTensor(out, x._bdim, level)


def _n_ary(fn, level, args, kwargs):
    """A pointwise op of several tensors (torch's binary_pointwise_batch_rule): batched
    operands with the batch dim first, padded to the largest logical rank (a view); unbatched
    ones as they are."""
    if not args or any(isinstance(v, Tensor) for v in kwargs.values()):
        return _FALLBACK
    tensors = [a for a in args if isinstance(a, Tensor)]
    if any(type(a) in (list, tuple) for a in args):
        return _FALLBACK
    if len({t.dtype for t in tensors if t.dtype.name != "bool"}) > 1 and not _promotes_alike(
            tensors, level):  # promotion by rank (0-d or not) would differ: per sample
        return _FALLBACK
    rank = max(t.dim() for t in tensors)
    physical = [_front_padded(a, level, rank) for a in args]
    out = fn(*physical, **kwargs)
    if out is NotImplemented:
        return out
    return BatchedTensor(out, 0, level)


def _promotes_alike(tensors, level) -> bool:
    """Whether operands of several dtypes promote on the batch as a sample's do (a 0-d
    tensor does not promote a dimensioned one of its category, and the batch dim makes a 0-d
    sample dimensioned): torch's result type both ways, from the ranks and dtypes."""
    def promoted(zero_d):
        ranks = [None, None]  # dimensioned, 0-d
        for t, is_0d in zip(tensors, zero_d):
            k = 1 if is_0d else 0
            ranks[k] = t.dtype if ranks[k] is None else _dtype.promote_types(ranks[k], t.dtype)
        return _combine(ranks[0], ranks[1])
    return promoted([t.dim() == 0 for t in tensors]) is promoted(
        [t.dim() == 0 and not _is_batched(t, level) for t in tensors])


def _dims_arg(args, kwargs, position=1, key="dim"):
    if len(args) > position:
        return args[position], True
    if key in kwargs:
        return kwargs[key], True
    return None, False


def _reduction(fn, level, args, kwargs):
    """sum, mean...: the batch dim first, the logical dims shifted by one; a full reduction
    reduces every logical dim (torch's SumBackward1, dims (1, ...))."""
    if not _only_self(args, kwargs, level):
        return _FALLBACK
    x = args[0]
    n = x.dim()
    dim, given = _dims_arg(args, kwargs)
    rest_args = list(args[2:])
    kw = {k: v for k, v in kwargs.items() if k != "dim"}
    if n == 0:  # samples are numbers: torch reduces a dim of size 1 it adds (and drops)
        if given and dim is not None and not (isinstance(dim, int) and dim in (-1, 0) or (
                type(dim) in (list, tuple) and len(dim) == 1 and dim[0] in (-1, 0))):
            return _FALLBACK
        if (not given or dim is None) and (rest_args or "keepdim" in kw):
            return _FALLBACK
        out = fn(x._value.unsqueeze(-1), [1], *rest_args, **kw)
        keepdim = rest_args[0] if rest_args else kw.get("keepdim", False)
        return BatchedTensor(out.squeeze(-1) if keepdim else out, 0, level)
    if not given or dim is None:
        if rest_args or "keepdim" in kw:
            return _FALLBACK
        dims = list(range(1, n + 1))
    elif isinstance(dim, bool):
        return _FALLBACK
    elif isinstance(dim, int):
        dims = [_wrap(dim, n) + 1]
    elif type(dim) in (list, tuple) and all(isinstance(d, int) for d in dim):
        if not dim:
            return _FALLBACK
        dims = [_wrap(d, n) + 1 for d in dim]
    else:
        return _FALLBACK
    return BatchedTensor(fn(_front(x), dims, *rest_args, **kw), 0, level)


def _along_dim(fn, level, args, kwargs):
    """An op along one dim (softmax, cumsum...): the batch dim first, the dim shifted."""
    if not _only_self(args, kwargs, level):
        return _FALLBACK
    x = args[0]
    dim, given = _dims_arg(args, kwargs)
    if not given or not isinstance(dim, int):
        return _FALLBACK
    d = _wrap(dim, x.dim()) + 1
    rest = list(args[2:])
    kw = {k: v for k, v in kwargs.items() if k != "dim"}
    if x.dim() == 0:  # samples are numbers: along a dim of size 1 torch adds and drops
        return BatchedTensor(fn(x._value.unsqueeze(-1), 1, *rest, **kw).squeeze(-1), 0, level)
    return BatchedTensor(fn(_front(x), d, *rest, **kw), 0, level)


def _shape_arg(args):
    if len(args) == 1 and type(args[0]) in (tuple, list, Size):
        args = tuple(args[0])
    if all(isinstance(s, int) and not isinstance(s, bool) for s in args):
        return tuple(args)
    return None


def _view(fn, level, args, kwargs):
    """view/reshape: the batch dim first, the batch size before the new shape."""
    if kwargs or not _only_self(args, kwargs, level):
        return _FALLBACK
    shape = _shape_arg(args[1:])
    if shape is None:
        return _FALLBACK
    v = _front(args[0])
    return BatchedTensor(fn(v, (v.shape[0], *shape)), 0, level)


def _dims_rule(transform):
    """A shape op whose int arguments are logical dims: the batch dim first, each shifted."""
    def rule(fn, level, args, kwargs):
        if kwargs or not _only_self(args, kwargs, level):
            return _FALLBACK
        x = args[0]
        if transform is _TRANSPOSE and x.dim() == 0 and _ints(args[1:]) and len(args) == 3:
            for d in args[1:]:
                _wrap(d, 0)
            return x  # a sample's transpose of itself: torch's rule returns it, no op
        new = transform(x, args[1:])
        if new is None:
            return _FALLBACK
        return BatchedTensor(fn(_front(x), *new), 0, level)
    return rule


def _ints(values) -> bool:
    return all(isinstance(v, int) and not isinstance(v, bool) for v in values)


def _unsqueeze_args(x, rest):
    if len(rest) != 1 or not _ints(rest):
        return None
    return (_wrap(rest[0], x.dim() + 1) + 1,)


def _shifted(count):
    def transform(x, rest):
        if len(rest) != count or not _ints(rest):
            return None
        return tuple(_wrap(d, x.dim()) + 1 for d in rest)
    return transform


_TRANSPOSE = _shifted(2)


def _select_args(x, rest):
    if len(rest) != 2 or not _ints(rest):
        return None
    return (_wrap(rest[0], x.dim()) + 1, rest[1])


def _permute_args(x, rest):
    dims = _shape_arg(rest)
    if dims is None:
        return None
    wrapped = [_wrap(d, x.dim()) + 1 for d in dims]
    if len(dims) != x.dim():  # torch's rule counts the batch dim in its message
        raise RuntimeError("permute(sparse_coo): number of dimensions in the tensor input does "
                           "not match the length of the desired ordering of dimensions i.e. "
                           f"input.dim() = {x.dim() + 1} is not equal to len(dims) = "
                           f"{len(dims) + 1}")
    return (0, *wrapped)


def _flatten_args(x, rest):
    if not _ints(rest) or len(rest) > 2 or x.dim() == 0:
        return None
    start, end = (list(rest) + [0, -1][len(rest):])[:2]
    return (_wrap(start, x.dim()) + 1, _wrap(end, x.dim()) + 1)


def _squeeze(fn, level, args, kwargs):
    """squeeze: torch's rule squeezes the dims as a list (SqueezeBackward2)."""
    if kwargs or not _only_self(args, kwargs, level):
        return _FALLBACK
    x = args[0]
    shape = x.shape
    if len(args) == 1:  # every dim of size 1: torch views the batch without them
        v = _front(x)
        return BatchedTensor(v.view(v.shape[0], *(n for n in shape if n != 1)), 0, level)
    if isinstance(args[1], int):
        dims = [_wrap(args[1], x.dim())] if x.dim() else []
    elif type(args[1]) in (tuple, list) and _ints(args[1]):
        dims = [_wrap(d, x.dim()) for d in args[1]]
    else:
        return _FALLBACK
    return BatchedTensor(_front(x).squeeze(tuple(d + 1 for d in dims)), 0, level)


def _squeeze_dims(fn, level, args, kwargs):
    """matmul's own in-place ``squeeze_(dims)`` of its fresh result (SqueezeBackward5)."""
    if not _only_self(args, kwargs, level) or len(args) != 2:
        return _FALLBACK
    x = args[0]
    dims = tuple(_wrap(d, x.dim()) + 1 for d in args[1])
    return BatchedTensor(_front(x)._squeeze_dims(dims, SqueezeBackward5, dims), 0, level)


def _transpose_2d(fn, level, args, kwargs):
    """t: torch's ``transpose(0, 0 if dim < 2 else 1)`` of the sample (of a 0-d sample, the
    sample itself, as torch's rule returns it)."""
    if kwargs or len(args) != 1 or not _is_batched(args[0], level):
        return _FALLBACK
    if args[0].dim() == 0:
        return args[0]
    last = 2 if args[0].dim() == 2 else 1
    return BatchedTensor(_front(args[0]).transpose(1, last), 0, level)


def _movedim(fn, level, args, kwargs):
    if kwargs or len(args) != 3 or not _ints(args[1:]) or not _is_batched(args[0], level):
        return _FALLBACK
    x = args[0]
    if x.dim() == 0:  # torch's rule: an alias of the 0-d samples (AliasBackward0)
        _wrap(args[1], 0), _wrap(args[2], 0)
        return BatchedTensor(_front(x)._alias(), 0, level)
    return BatchedTensor(_front(x).movedim(_wrap(args[1], x.dim()) + 1,
                                           _wrap(args[2], x.dim()) + 1), 0, level)


def _index_rule(fn, level, args, kwargs):
    """``x[i]``, ``x[1:]``, ``x[:, 0]``: ints and slices apply to the batch with a full slice
    in front (torch skips it: SelectBackward0, SliceBackward0 only); other indexing falls
    back."""
    if len(args) != 2 or not _is_batched(args[0], level) or kwargs:
        return _FALLBACK
    if args[0].dim() == 0 and isinstance(args[1], slice):  # torch slices past the batch dim
        raise IndexError("Dimension out of range (expected to be in range of [-1, 0], but got 1)")
    index = args[1] if isinstance(args[1], tuple) else (args[1],)
    if not index or len(index) > args[0].dim() or not all(
            isinstance(i, slice) or (isinstance(i, int) and not isinstance(i, bool))
            for i in index):
        return _FALLBACK
    shape = args[0].shape
    for k, i in enumerate(index):  # torch checks an int against the sample's dim
        if isinstance(i, int) and not -shape[k] <= i < shape[k]:
            raise IndexError(f"index {i} is out of bounds for dimension {k} with size "
                             f"{shape[k]}")
    if len(index) == 1 and isinstance(index[0], int):
        return BatchedTensor(_front(args[0]).select(1, index[0]), 0, level)
    return BatchedTensor(_front(args[0])[(slice(None), *index)], 0, level)


def _narrow_args(x, rest):
    if len(rest) != 3 or not _ints(rest):
        return None
    return (_wrap(rest[0], x.dim()) + 1, rest[1], rest[2])


def _expand(fn, level, args, kwargs):
    """expand: torch views the batch to the new rank first (a ViewBackward0, padded with
    ones), then expands it."""
    if kwargs or not _only_self(args, kwargs, level):
        return _FALLBACK
    sizes = _shape_arg(args[1:])
    x = args[0]
    if sizes is None:
        return _FALLBACK
    if len(sizes) < x.dim():
        raise RuntimeError(f"expand: the number of sizes provided ({len(sizes)}) must be greater "
                           f"or equal to the number of dimensions in the tensor ({x.dim()})")
    v = _front(x)
    shape = tuple(v.shape)
    padded = v.view(shape[:1] + (1,) * (len(sizes) - x.dim()) + shape[1:])
    return BatchedTensor(padded.expand(shape[0], *sizes), 0, level)


def _repeat(fn, level, args, kwargs):
    if kwargs or not _only_self(args, kwargs, level):
        return _FALLBACK
    sizes = _shape_arg(args[1:])
    if sizes is None or len(sizes) != args[0].dim():
        return _FALLBACK
    return BatchedTensor(_front(args[0]).repeat(1, *sizes), 0, level)


def _pieces(method):
    """unbind, chunk, split: the batch dim first, the pieces batched alike."""
    def rule(fn, level, args, kwargs):
        if not _only_self(args, kwargs, level) or set(kwargs) - {"dim"}:
            return _FALLBACK
        x = args[0]
        rest = list(args[1:])
        nargs = 0 if method == "unbind" else 1
        if len(rest) > nargs + 1 or len(rest) < nargs or (x.dim() == 0 and method == "chunk"):
            return _FALLBACK  # (chunk of a 0-d sample: its own error, per sample)
        dim = rest[nargs] if len(rest) > nargs else kwargs.get("dim", 0)
        if not _ints(rest[:nargs]) or not isinstance(dim, int):
            return _FALLBACK
        parts = getattr(_front(x), method)(*rest[:nargs], _wrap(dim, x.dim()) + 1)
        return tuple(BatchedTensor(p, 0, level) for p in parts)
    return rule


def _flip(fn, level, args, kwargs):
    """flip: the batch dim first, the dims shifted by one (a 0-d sample's dim 0 too: torch's
    rule then fails, though flip(0) of a 0-d tensor works outside vmap)."""
    if kwargs or not _only_self(args, kwargs, level):
        return _FALLBACK
    dims = _shape_arg(args[1:])
    if dims is None:
        return _FALLBACK
    x = args[0]
    return BatchedTensor(_front(x).flip([_wrap(d, x.dim()) + 1 for d in dims]), 0, level)


def _roll(fn, level, args, kwargs):
    """roll along given dims: the batch dim first, the dims shifted by one (as flip)."""
    given = _given(args[1:], kwargs, ("shifts", "dims"))
    if given is None or given.get("dims") in (None, (), []) or not _only_self(
            args, {}, level):
        return _FALLBACK
    x, shifts, dims = args[0], given.get("shifts"), given["dims"]
    dims = [dims] if isinstance(dims, int) else list(dims)
    if not _ints(dims):
        return _FALLBACK
    return BatchedTensor(_front(x).roll(shifts, [_wrap(d, x.dim()) + 1 for d in dims]), 0,
                         level)


def _contiguous(fn, level, args, kwargs):
    """contiguous: the batched tensor itself when its samples are laid out contiguously (what
    torch checks), else a contiguous copy with the batch dim first (CloneBackward0)."""
    if len(args) != 1 or kwargs or not _is_batched(args[0], level):
        return _FALLBACK
    x = args[0]
    strides = list(x._value.stride())
    del strides[x._bdim]
    expected = 1
    for size, stride in reversed(list(zip(x.shape, strides))):
        if size != 1 and stride != expected:
            return BatchedTensor(_front(x).contiguous(), 0, level)
        expected *= size
    return x


def _unflatten(fn, level, args, kwargs):
    if kwargs or not _only_self(args, kwargs, level) or len(args) != 3:
        return _FALLBACK
    x, dim, sizes = args
    if not isinstance(dim, int) or _shape_arg((sizes,)) is None or x.dim() == 0:
        return _FALLBACK
    return BatchedTensor(_front(x).unflatten(_wrap(dim, x.dim()) + 1, sizes), 0, level)


def _extreme(name):
    """max/min: of everything, torch's max.dim of the batch viewed as (batch, -1); along a
    dim, the batch dim first (values and indices batched)."""
    return lambda fn, level, args, kwargs: _extreme_rule(name, level, args, kwargs)


def _extreme_rule(name, level, args, kwargs):
    if not _only_self(args, kwargs, level) or kwargs:
        return _FALLBACK
    x = args[0]
    if len(args) == 1:
        if x.dim() == 0:
            return _FALLBACK
        v = _front(x)
        if x.dim() != 1:
            v = v.view(v.shape[0], -1)
        if _vmap_hook.transforms and v.requires_grad:
            # inside grad run on the batch (vmap(grad(f))): torch records max() at grad's
            # level, whose backward shares the gradient among the ties (mask * grad / count,
            # -0 elsewhere for a negative gradient): amax's backward, per sample
            return BatchedTensor(getattr(v, "a" + name)(1), 0, level)
        return BatchedTensor(getattr(v, name)(1)[0], 0, level)
    if not isinstance(args[1], int) or len(args) > 3 or x.dim() == 0:
        return _FALLBACK
    out = getattr(_front(x), name)(_wrap(args[1], x.dim()) + 1, *args[2:])
    return type(out)([BatchedTensor(t, 0, level) for t in out])


def _prod(fn, level, args, kwargs):
    """prod of everything: torch's prod.dim_int of the batch viewed as (batch, -1)."""
    x = args[0] if args else None
    if _is_batched(x, level) and x.dim() == 0 and (len(args) > 1 or "dim" in kwargs):
        dim, _ = _dims_arg(args, kwargs)  # a 0-d sample along its dim: torch's prod.dim_int
        keepdim = args[2] if len(args) > 2 else kwargs.get("keepdim", False)
        if isinstance(dim, int) and not isinstance(dim, bool) and len(args) <= 3 and set(
                kwargs) <= {"dim", "keepdim"}:
            _wrap(dim, 0)
            out = _front(x).unsqueeze(1).prod(1, keepdim=keepdim)
            return BatchedTensor(out.squeeze(1) if keepdim else out, 0, level)
    if len(args) != 1 or kwargs or not _is_batched(args[0], level):
        return _reduction(fn, level, args, kwargs) if len(args) > 1 else _FALLBACK
    v = _front(args[0])
    if args[0].dim() != 1:  # (0-d samples too: a view with a dim of 1, as torch's)
        v = v.view(v.shape[0], -1)
    return BatchedTensor(v.prod(1), 0, level)


def _stack(fn, level, args, kwargs):
    """stack: every batched tensor moved to the front (a permute, always), every unbatched
    one expanded to the batch; then one stack a dim further."""
    if kwargs or not args or type(args[0]) not in (list, tuple) or len(args) > 2:
        return _FALLBACK
    tensors, dim = args[0], (args[1] if len(args) > 1 else 0)
    if not tensors or not isinstance(dim, int) or not all(isinstance(t, Tensor)
                                                         for t in tensors):
        return _FALLBACK
    size = _batch_size(level, args, kwargs)
    n = tensors[0].dim() + 1
    moved = [t._value.movedim(t._bdim, 0) if _is_batched(t, level)
             else t.unsqueeze(0).expand(size, *t.shape) for t in tensors]
    return BatchedTensor(fn(moved, _wrap(dim, n) + 1), 0, level)


def _cat(fn, level, args, kwargs):
    """cat: batched tensors with the batch dim first, unbatched ones expanded to the batch;
    then one cat a dim further."""
    if kwargs or not args or type(args[0]) not in (list, tuple) or len(args) > 2:
        return _FALLBACK
    tensors, dim = args[0], (args[1] if len(args) > 1 else 0)
    if not tensors or not isinstance(dim, int) or not all(isinstance(t, Tensor)
                                                         for t in tensors):
        return _FALLBACK
    if any(t.dim() == 0 for t in tensors):
        return _FALLBACK
    size = _batch_size(level, args, kwargs)
    moved = [_front(t) if _is_batched(t, level) else t.expand(size, *t.shape)
             for t in tensors]
    return BatchedTensor(fn(moved, _wrap(dim, tensors[0].dim()) + 1), 0, level)


def _sorting(method, nargs):
    """sort and topk: the batch dim first, the dim shifted; values and indices batched."""
    def rule(fn, level, args, kwargs):
        if not _only_self(args, kwargs, level) or args[0].dim() == 0:
            return _FALLBACK
        x, rest, kw = args[0], list(args[1:]), dict(kwargs)
        if len(rest) > nargs:
            dim = rest.pop(nargs)
        else:
            dim = kw.pop("dim", -1)
        if not isinstance(dim, int) or isinstance(dim, bool):
            return _FALLBACK
        out = getattr(_front(x), method)(*rest[:nargs], dim=_wrap(dim, x.dim()) + 1,
                                         **dict(zip(_SORT_FLAGS[method], rest[nargs:])), **kw)
        return type(out)([BatchedTensor(t, 0, level) for t in out])
    return rule


_SORT_FLAGS = {"sort": ("descending",), "topk": ("largest", "sorted")}


def _layer_norm(fn, level, args, kwargs):
    """layer_norm over the last dims: the batch dim first, the rest as it is (one
    NativeLayerNormBackward0), when the weight and bias are not batched."""
    if kwargs or len(args) < 2 or not _is_batched(args[0], level):
        return _FALLBACK
    x, shape, rest = args[0], args[1], args[2:]
    if any(isinstance(a, BatchedTensor) for a in rest) or _shape_arg((shape,)) is None:
        return _FALLBACK
    if len(shape) > x.dim():
        return _FALLBACK
    return BatchedTensor(fn(_front(x), shape, *rest), 0, level)


# --- products: torch's rules, case by case ----------------------------------------------------

def _two(args, kwargs):
    if kwargs or len(args) != 2 or not all(isinstance(a, Tensor) for a in args):
        return None
    return args


def _dot(fn, level, args, kwargs):
    pair = _two(args, kwargs)
    if pair is None or pair[0].dim() != 1 or pair[1].dim() != 1:
        return _FALLBACK
    a, b = pair
    if a.dtype is not b.dtype:
        return _FALLBACK
    ba, bb = _is_batched(a, level), _is_batched(b, level)
    if ba and bb:  # a batch of 1x1 products: bmm
        out = _front(a).unsqueeze(-2).matmul(_front(b).unsqueeze(-1))
        return BatchedTensor(out.squeeze(-1).squeeze(-1), 0, level)
    if ba:
        return BatchedTensor(_front(a).mv(b.t()), 0, level)
    return BatchedTensor(a.unsqueeze(0).mm(_front(b).t()).squeeze_(0), 0, level)


def _mv(fn, level, args, kwargs):
    pair = _two(args, kwargs)
    if pair is None or pair[0].dim() != 2 or pair[1].dim() != 1:
        return _FALLBACK
    m, v = pair
    if m.dtype is not v.dtype:
        return _FALLBACK
    bm, bv = _is_batched(m, level), _is_batched(v, level)
    if bm and not bv:
        return BatchedTensor(_front(m).matmul(v), 0, level)
    if bv and not bm:  # the samples as the columns of one matrix
        return BatchedTensor(m.mm(v._value.movedim(v._bdim, 1)), 1, level)
    # both: a matmul of the batches with the vectors as columns (torch's permute included)
    out = m._value.movedim(m._bdim, 0).matmul(_front(v).unsqueeze(-1))
    return BatchedTensor(out.squeeze(-1), 0, level)


def _mm(fn, level, args, kwargs):
    pair = _two(args, kwargs)
    if pair is None or pair[0].dim() != 2 or pair[1].dim() != 2:
        return _FALLBACK
    a, b = pair
    if a.dtype is not b.dtype:
        return _FALLBACK
    ba, bb = _is_batched(a, level), _is_batched(b, level)
    if ba and bb:  # torch's rule: a matmul of the batches (expand, view, bmm)
        return BatchedTensor(_front(a).matmul(_front(b)), 0, level)
    if ba:
        return BatchedTensor(_front(a).matmul(b), 0, level)
    return BatchedTensor(a.matmul(_front(b)), 0, level)


def _matmul(fn, level, args, kwargs, reflected=False):
    """torch's matmul, decomposed as torch decomposes it into dot, mv, mm and folded
    products; each piece then goes to its own rule."""
    pair = _two(args, kwargs)
    if pair is None:
        return _FALLBACK
    a, b = (pair[1], pair[0]) if reflected else pair
    if a.dtype is not b.dtype:
        return _FALLBACK
    da, db = a.dim(), b.dim()
    if da == 0 or db == 0:
        return _FALLBACK
    if da == 1 and db == 1:
        return _dot(None, level, (a, b), {})
    if da == 2 and db == 1:
        return _mv(None, level, (a, b), {})
    if da == 1 and db == 2:
        first = a.unsqueeze(0)
        out = _mm(None, level, (first, b), {})
        return _FALLBACK if out is _FALLBACK else out._squeeze_dims((0,))
    if da == 2 and db == 2:
        return _mm(None, level, (a, b), {})
    if da == 1 or db == 1:
        return _FALLBACK
    rank = max(da, db)
    physical = [_front_padded(t, level, rank) for t in (a, b)]
    return BatchedTensor(physical[0].matmul(physical[1]), 0, level)


def _op(name, fn, *args, **kwargs):
    """``fn(*args, **kwargs)`` as an op named ``name``: its rule if an argument is batched."""
    out = call(name, fn, args, kwargs)
    return fn(*args, **kwargs) if out is _vmap_hook.PASS else out


def _scalar_op(op):
    """torch's Scalar overload of ``op`` (``mul.Scalar``, MulBackward1; AddBackward1,
    SubBackward1): a unary rule, the batch dim kept."""
    def apply(t, number):
        if isinstance(t, BatchedTensor):
            return BatchedTensor(apply(t._value, number), t._bdim, t._level)
        return op(t, number)
    return apply


_mul_scalar, _add_scalar, _sub_scalar = (_scalar_op(op) for op in (mul_scalar, add_scalar,
                                                                    sub_scalar))


def _addmm(fn, level, args, kwargs):
    """torch's decomposition of addmm under vmap: ``add(self * beta, mm(mat1, mat2), alpha)``."""
    if len(args) != 3 or set(kwargs) - {"beta", "alpha"}:
        return _FALLBACK
    bias, mat1, mat2 = args
    if not all(isinstance(t, Tensor) for t in args) or mat1.dim() != 2 or mat2.dim() != 2:
        return _FALLBACK
    beta, alpha = kwargs.get("beta", 1), kwargs.get("alpha", 1)
    product = _op("mm", Tensor.mm, mat1, mat2)
    extra = {} if alpha == 1 else {"alpha": alpha}
    return _op("add", Tensor.add, _mul_scalar(bias, beta), product, **extra)


def _linear(fn, level, args, kwargs):
    """``F.linear`` as torch decomposes it under vmap: a 2-D input with a bias is an
    ``addmm`` (decomposed as above); a 1-D one a ``matmul`` and an ``add``."""
    names = ("input", "weight", "bias")
    given = dict(zip(names, args))
    given.update(kwargs)
    if len(args) > 3 or set(given) - set(names):
        return _FALLBACK
    x, weight, bias = given.get("input"), given.get("weight"), given.get("bias")
    if not isinstance(x, Tensor) or not isinstance(weight, Tensor) or weight.dim() != 2:
        return _FALLBACK
    if bias is not None and not isinstance(bias, Tensor):
        return _FALLBACK
    wt = _op("t", Tensor.t, weight)
    if bias is not None and x.dim() == 2:
        return _addmm(None, level, (bias, x, wt), {})
    if x.dim() != 1 and not (x.dim() == 2 and bias is None):
        return _FALLBACK  # torch's fused paths for larger inputs: per sample
    out = _op("matmul", Tensor.matmul, x, wt)
    return out if bias is None else _op("add", Tensor.add, out, bias)


# --- losses: torch's rules (BatchRulesLoss.cpp) and decompositions -----------------------------

def _given(args, kwargs, names):
    """The arguments by name (None when some are not the op's)."""
    if len(args) > len(names) or set(kwargs) - set(names):
        return None
    given = dict(zip(names, args))
    given.update(kwargs)
    return given


def _flatten_logical(x, level):
    """torch's flatten_logical: a batched tensor's samples flattened behind the batch dim
    first; an unbatched one flattened whole (it broadcasts against the batch)."""
    if _is_batched(x, level):
        v = _front(x)
        return v.flatten(1) if v.dim() > 1 else v
    return x.flatten()


def _reduced(loss, reduction):
    """torch's apply_loss_reduction of a batched loss: a mean or sum of each sample (through
    their rules: MeanBackward1, SumBackward1)."""
    if reduction == 1:
        return loss.mean()
    return loss.sum() if reduction == 2 else loss


def _pointwise_loss(param):
    """mse_loss, huber_loss, smooth_l1_loss (torch's loss_batch_rule_helper): the loss, unreduced,
    of the samples flattened behind the batch dim, then each sample's mean or sum (dim -1)."""
    names = ("input", "target", "reduction") + ((param,) if param else ())

    def rule(fn, level, args, kwargs):
        given = _given(args, kwargs, names)
        if given is None:
            return _FALLBACK
        x, target = given.get("input"), given.get("target")
        reduction = given.get("reduction", 1)
        if not (isinstance(x, Tensor) and isinstance(target, Tensor)) or x.shape != target.shape \
                or x.dtype is not target.dtype or reduction not in (0, 1, 2):
            return _FALLBACK
        extra = {param: given[param]} if param in given else {}
        result = fn(_flatten_logical(x, level), _flatten_logical(target, level), 0, **extra)
        if result.dim() == 1:  # 0-d samples: torch returns the loss unreduced
            return BatchedTensor(result, 0, level)
        if reduction == 0:
            batched = x if _is_batched(x, level) else target
            return BatchedTensor(result.reshape(_front(batched).shape), 0, level)
        return BatchedTensor(result.mean(-1) if reduction == 1 else result.sum(-1), 0, level)
    return rule


def _ensure_batched(x, level, size):
    """The batch dim first, an unbatched tensor expanded to the batch (torch's
    ensure_has_bdim)."""
    return _front(x) if _is_batched(x, level) else x.expand(size, *x.shape)


def _binary_cross_entropy(fn, level, args, kwargs):
    """torch's binary_cross_entropy plumbing: the loss of the whole batch unreduced (each
    operand with the batch dim first), times the weight, then reduced per sample."""
    given = _given(args, kwargs, ("input", "target", "weight", "reduction"))
    if given is None:
        return _FALLBACK
    x, target, weight = given.get("input"), given.get("target"), given.get("weight")
    reduction = given.get("reduction", 1)
    if not (isinstance(x, Tensor) and isinstance(target, Tensor)) or reduction not in (0, 1, 2) \
            or x.shape != target.shape:
        return _FALLBACK
    size = _batch_size(level, args, kwargs)
    if _is_batched(x, level) or _is_batched(target, level):
        loss = BatchedTensor(fn(_ensure_batched(x, level, size),
                                _ensure_batched(target, level, size), None, 0), 0, level)
    else:
        loss = fn(x, target, None, 0)
    if weight is not None:
        loss = loss * weight
    return _reduced(loss, reduction)


def _ones_like(t):
    """A tensor of ones shaped as ``t`` (batched as ``t``), outside the graph."""
    if isinstance(t, BatchedTensor):
        return BatchedTensor(_ones_like(t._value), t._bdim, t._level)
    return t.detach().new_ones(t.shape)


def _bce_with_logits(fn, level, args, kwargs):
    """binary_cross_entropy_with_logits as torch decomposes it under vmap (its composite, out of
    place): ``(1 - target) * input + max + log(exp(-max) + exp(-input - max))``, ``max`` the
    clamped ``-input``; with ``pos_weight``, the log term scaled by ``1 + (pos_weight - 1)
    target``."""
    given = _given(args, kwargs, ("input", "target", "weight", "pos_weight", "reduction"))
    if given is None:
        return _FALLBACK
    x, target = given.get("input"), given.get("target")
    weight, pos_weight = given.get("weight"), given.get("pos_weight")
    reduction = given.get("reduction", 1)
    if not all(isinstance(t, Tensor) for t in (x, target)) or reduction not in (0, 1, 2) or (
            len({t.dtype for t in (x, target, weight, pos_weight) if t is not None}) > 1):
        return _FALLBACK
    max_val = (-x).clamp_min(0)
    log_term = (-max_val).exp().add((-x - max_val).exp()).log()
    loss = _ones_like(target).sub(target).mul(x)
    if pos_weight is not None:
        log_weight = _add_scalar(_sub_scalar(pos_weight, 1).mul(target), 1)
        loss = loss.add(log_weight.mul(log_term.add(max_val)))
    else:
        loss = loss.add(max_val).add(log_term)
    if weight is not None:
        loss = loss.mul(weight)
    return _reduced(loss, reduction)


def _l1_loss(fn, level, args, kwargs):
    """l1_loss, a composite in torch: ``|input - target|``, then each sample's mean or sum."""
    given = _given(args, kwargs, ("input", "target", "reduction"))
    if given is None or given.get("reduction", 1) not in (0, 1, 2):
        return _FALLBACK
    return _reduced((given["input"] - given["target"]).abs(), given.get("reduction", 1))


def _nll_loss(fn, level, args, kwargs):
    """nll_loss as torch decomposes it under vmap (``_nll_loss_forward``): ``-gather`` of the
    target's log-probabilities, 0 where the target is ignored, then each sample's sum, or
    its sum over the counted targets (or their weights)."""
    names = ("input", "target", "weight", "reduction", "ignore_index")
    given = _given(args, kwargs, names)
    if given is None:
        return _FALLBACK
    x, target, weight = given.get("input"), given.get("target"), given.get("weight")
    reduction, ignore = given.get("reduction", 1), given.get("ignore_index", -100)
    if not (isinstance(x, Tensor) and isinstance(target, Tensor)) or x.dim() not in (1, 2) or \
            target.shape != x.shape[:-1] or target.dtype.name != "int64" or \
            reduction not in (0, 1, 2) or _is_batched(weight, level) or \
            not x.dtype.is_floating_point:
        return _FALLBACK
    n_dims = x.dim()
    channel = 1 if n_dims > 1 else 0
    if weight is not None:
        if weight.dim() != 1 or weight.shape[0] != x.shape[channel] or weight.dtype is not x.dtype:
            return _FALLBACK
        w = weight
        if n_dims > 1:
            shape = [1] * n_dims
            shape[channel] = weight.shape[0]
            w = weight.view(shape)
        x = x * w
    size = _batch_size(level, args, kwargs)
    kept = target != ignore
    safe = _ensure_batched(_op("where", Tensor.where, target, kept, 0), level, size)
    index = safe.unsqueeze(channel + 1)
    picked = _ensure_batched(x, level, size).gather(channel + 1, index)
    result = -BatchedTensor(picked, 0, level).squeeze(channel)
    result = _op("where", Tensor.where, result, kept, 0)
    if reduction == 0:
        return result
    if weight is not None:
        w = _ensure_batched(w.expand(x.shape), level, size)
        total = _op("where", Tensor.where, BatchedTensor(
            w.gather(channel + 1, index), 0, level).squeeze(channel), kept, 0).sum()
    else:
        total = kept.sum().to(x.dtype)
    return result.sum() if reduction == 2 else result.sum() / total


def _embedding(fn, level, args, kwargs):
    """embedding (torch's rule): batched indices into an unbatched weight, one embedding of
    the batch; a batched weight with unbatched indices, the batch folded into the rows'
    features and out again; both batched, the batch's weights stacked into one table, each
    sample's indices shifted to its own rows."""
    names = ("weight", "indices", "padding_idx", "scale_grad_by_freq", "sparse")
    given = _given(args, kwargs, names)
    if given is None:
        return _FALLBACK
    weight, indices = given.get("weight"), given.get("indices")
    rest = {k: v for k, v in given.items() if k not in ("weight", "indices")}
    if not (isinstance(weight, Tensor) and isinstance(indices, Tensor)):
        return _FALLBACK
    if _is_batched(indices, level) and not _is_batched(weight, level):
        return BatchedTensor(fn(weight, indices._value, **rest), indices._bdim, level)
    if _is_batched(weight, level) and not _is_batched(indices, level) and weight.dim() == 2:
        v = weight._value.movedim(weight._bdim, 1)  # torch's reshape_dim_into(bdim, 1)
        rows, size = v.shape[0], v.shape[1]
        out = fn(v.reshape(rows, -1), indices, **rest)
        out = out.reshape(*out.shape[:-1], size, -1)
        return BatchedTensor(out, out.dim() - 2, level)
    if weight.dim() != 2 or indices.dtype.name not in ("int64", "int32"):
        return _FALLBACK
    # both: the batch's rows one table (torch's reshape_dim_into: a movedim, always a
    # permute), each sample's indices shifted to its own rows
    v = weight._value.movedim(weight._bdim, 0)
    size, rows = v.shape[0], v.shape[1]
    steps = _arange_like(indices._value, size, rows).view(size, *[1] * indices.dim())
    return BatchedTensor(fn(v.reshape(size * rows, -1), _front(indices) + steps, **rest), 0,
                         level)


def _arange_like(t, size, step):
    """``0, step, 2 step...`` (``size`` of them), of ``t``'s dtype (torch's getStepTensor)."""
    return t.new_tensor([k * step for k in range(size)])


UNARY = ("abs neg reciprocal exp log sqrt sin cos tanh sigmoid relu square log1p expm1 exp2 "
         "atan arctan asin arcsin acos arccos sign sgn floor ceil round trunc frac fix rsqrt "
         "log10 log2 erf erfc erfinv lgamma digamma i0 sinc logit deg2rad rad2deg isnan isinf "
         "isfinite logical_not bitwise_not negative clamp clip clamp_min clamp_max nan_to_num "
         "clone float double half long int bool to signbit "
         "__neg__ __abs__ __invert__ sinh cosh tan asinh acosh atanh arcsinh arccosh arctanh "
         "absolute softplus gelu silu elu "
         "mish hardtanh leaky_relu relu6 selu celu softsign tanhshrink hardsigmoid hardswish "
         "logsigmoid").split()
BINARY = ("add sub mul div pow maximum minimum fmax fmin atan2 arctan2 hypot eq ne lt le gt ge "
          "logical_and logical_or logical_xor remainder fmod floor_divide copysign xlogy "
          "logaddexp logaddexp2 true_divide multiply subtract divide rsub where lerp "
          "addcmul addcdiv float_power nextafter heaviside bitwise_and bitwise_or bitwise_xor "
          "__add__ __radd__ __sub__ __rsub__ __mul__ __rmul__ __truediv__ __rtruediv__ "
          "__pow__ __rpow__ __eq__ __ne__ __lt__ __le__ __gt__ __ge__ __floordiv__ "
          "__rfloordiv__ __mod__ __rmod__ __and__ __or__ __xor__ __rand__ __ror__ "
          "__rxor__").split()

# torch's Tensor overloads, which read a number as a (wrapped) tensor: the batch dim moves to
# the front even beside a number; the other binary ops have Scalar overloads, unary rules
FRONT_WITH_NUMBERS = ("add sub mul div multiply subtract divide true_divide where maximum "
                      "minimum __add__ __radd__ __sub__ __mul__ __rmul__ __truediv__ "
                      "__rpow__").split()


def _masked_fill(fn, level, args, kwargs):
    """masked_fill: a pointwise op of self and mask; a batched value (a 0-d sample, which
    the pointwise rule would pad to self's rank) per sample."""
    value = args[2] if len(args) > 2 else kwargs.get("value")
    if _is_batched(value, level):
        return _FALLBACK
    return _n_ary(fn, level, args, kwargs)


def _dropout(fn, level, args, kwargs):
    """dropout that drops nothing (eval mode, ``p == 0``): the input itself, as torch's
    ``_dropout_impl`` returns it; a drop draws per sample (the randomness modes)."""
    given = dict(zip(("input", "p", "train"), args))
    given.update(kwargs)
    x = given.get("input")
    if _is_batched(x, level) and len(args) <= 3 and (
            given.get("p") == 0 or given.get("train") is False or x.numel() == 0):
        return x
    return _FALLBACK


def _ravel(fn, level, args, kwargs):
    """``ravel``: torch's composite ``contiguous().view(-1)``, each through its own rule."""
    if kwargs or len(args) != 1:
        return _FALLBACK
    return args[0].contiguous().view(-1)


def _rtruediv(fn, level, args, kwargs):
    """``2 / x``: torch's reciprocal, then a mul by the number."""
    if kwargs or len(args) != 2 or isinstance(args[1], Tensor):
        return _n_ary(fn, level, args, kwargs)
    return args[0].reciprocal() * args[1]


def _rsub(fn, level, args, kwargs):
    """``w - x`` for a plain ``w``: Python asks the batched ``x`` first (a subclass's
    reflected operator); torch's ``sub(w, x)`` (SubBackward0), not an rsub."""
    if not kwargs and len(args) == 2 and isinstance(args[1], Tensor):
        return _op("sub", Tensor.sub, args[1], args[0])
    return _unary(fn, level, args, kwargs)


def _reflected(op):
    """``w * x``, ``w / x``... for a plain tensor ``w``: Python asks the batched ``x`` first (a
    subclass's reflected operator); torch records ``op(w, x)``, operands in that order."""
    def rule(fn, level, args, kwargs):
        if not kwargs and len(args) == 2 and isinstance(args[1], Tensor):
            return _op(op, getattr(Tensor, op), args[1], args[0])
        return _n_ary(fn, level, args, kwargs)  # beside a number: as a Tensor overload
    return rule


def _inplace(fn, level, args, kwargs):
    """An in-place op on a batched ``self`` whose batch dim is first (a fresh result's): on
    the physical tensor, the other operands padded as for the pointwise rule (torch's rules
    for in-place ops); otherwise per sample."""
    self = args[0] if args else None
    if not _is_batched(self, level) or self._bdim != 0 or any(
            isinstance(v, Tensor) for v in kwargs.values()) or any(
            type(a) in (list, tuple) for a in args):
        return _FALLBACK
    tensors = [a for a in args if isinstance(a, Tensor)]
    rank = self.dim()
    if any(t.dim() > rank for t in tensors) or any(
            isinstance(t, BatchedTensor) and t._level > level for t in tensors):
        return _FALLBACK
    fn(self._value, *[_front_padded(a, level, rank) for a in args[1:]], **kwargs)
    return self


_INPLACE_RULES = ("masked_fill_ clamp_min_ clamp_max_ clamp_ add_ sub_ mul_ div_ neg_ exp_ "
                  "log_ sqrt_ abs_ pow_").split()


def _composite(body):
    """A loss torch composes from other ops (``_ops/composite_loss.py``): its body on the
    batched tensors, each op through its own rule (the function once, torch's graph); per
    sample if the body reads a sample's values."""
    def rule(fn, level, args, kwargs):
        try:
            return body(*args, **kwargs)
        except Unbatchable:
            return _FALLBACK
    return rule


def _new_tensor(fn, level, args, kwargs):
    """``x.new_tensor(data)``: a plain tensor of ``x``'s dtype, as torch's (the data does not
    depend on the samples)."""
    if len(args) < 1 or any(isinstance(a, Tensor) for a in (*args[1:], *kwargs.values())):
        return _FALLBACK
    return fn(args[0]._value, *args[1:], **kwargs)


RULES = {name: _unary for name in UNARY}
RULES.update({name: _unary for name in BINARY})  # one tensor and numbers: as a unary op
RULES.update({name: _n_ary for name in FRONT_WITH_NUMBERS})
RULES["__rtruediv__"] = _rtruediv
RULES.update({"__rsub__": _rsub, "new_tensor": _new_tensor})
RULES.update({"__rmul__": _reflected("mul"), "__radd__": _reflected("add"),
              "__rpow__": _reflected("pow")})
RULES.update({name: _inplace for name in _INPLACE_RULES})
RULES.update({name: _composite(getattr(composite_loss, name))
              for name in ("hinge_embedding_loss", "cosine_embedding_loss",
                           "poisson_nll_loss")})
# the Scalar overloads minigrad's own code calls (C++ code in torch: a sample's mean, a loss
# divided by a count)
RULES.update({name: _unary for name in ("mul_scalar", "add_scalar", "sub_scalar",
                                        "div_scalar")})
# element-wise backward ops (gradients or tangents batched), as torch's rules for them
RULES.update({name: _n_ary for name in ("tanh_backward", "sigmoid_backward",
                                        "threshold_backward")})
RULES["ravel"] = _ravel
RULES.update({"mse_loss": _pointwise_loss(None), "huber_loss": _pointwise_loss("delta"),
              "smooth_l1_loss": _pointwise_loss("beta"), "l1_loss": _l1_loss,
              "binary_cross_entropy": _binary_cross_entropy,
              "binary_cross_entropy_with_logits": _bce_with_logits,
              "nll_loss_nd": _nll_loss, "embedding": _embedding})
RULES.update({name + inplace: _dropout for name in ("dropout", "feature_dropout", "alpha_dropout",
                                                    "feature_alpha_dropout")
              for inplace in ("", "_")})
RULES.update({"addmm": _addmm, "linear": _linear})
RULES.update({name: _reduction for name in ("sum", "mean", "nansum", "nanmean", "logsumexp",
                                            "amax", "amin")})
RULES.update({name: _along_dim for name in ("softmax", "log_softmax", "cumsum", "cumprod")})
RULES.update({
    "view": _view, "reshape": _view, "_unsafe_view": _view,
    "unsqueeze": _dims_rule(_unsqueeze_args), "transpose": _dims_rule(_TRANSPOSE),
    "swapdims": _dims_rule(_TRANSPOSE), "swapaxes": _dims_rule(_TRANSPOSE),
    "select": _dims_rule(_select_args), "permute": _dims_rule(_permute_args),
    "flatten": _dims_rule(_flatten_args), "squeeze": _squeeze,
    "_squeeze_dims": _squeeze_dims, "t": _transpose_2d, "__getitem__": _index_rule,
    "narrow": _dims_rule(_narrow_args), "expand": _expand, "repeat": _repeat,
    "unbind": _pieces("unbind"), "chunk": _pieces("chunk"), "split": _pieces("split"),
    "contiguous": _contiguous, "flip": _flip, "roll": _roll, "unflatten": _unflatten,
    "max": _extreme("max"), "min": _extreme("min"),
    "prod": _prod, "stack": _stack, "cat": _cat, "concat": _cat, "concatenate": _cat,
    "masked_fill": _masked_fill, "sort": _sorting("sort", 0), "topk": _sorting("topk", 1),
    "layer_norm": _layer_norm, "var": _reduction, "std": _reduction,
    "movedim": _movedim, "moveaxis": _movedim,
    "dot": _dot, "mv": _mv, "mm": _mm, "matmul": _matmul,
    "__matmul__": _matmul,
    "__rmatmul__": lambda fn, level, args, kwargs: _matmul(fn, level, args, kwargs, True),
})


# --- Tensor methods on a batched tensor go to the dispatcher ----------------------------------

def _method(name):
    plain = getattr(Tensor, name)

    def method(self, *args, **kwargs):
        # the rule gets this method back as its op: what it calls on the physical tensors
        # (an enclosing vmap's batched tensors, under nested vmaps) dispatches again
        out = call(name, method, (self, *args), kwargs)
        if out is _vmap_hook.PASS:  # (not reached: self is batched)
            return plain(self, *args, **kwargs)
        return out

    method.__name__ = method.__qualname__ = name
    return method


for _name, _fn in METHODS.items():
    if isinstance(_fn, property) or _name in ("backward", "__eq__", "__ne__", "__hash__",
                                              "__getattr__"):
        continue
    setattr(BatchedTensor, _name, _method(_name))
BatchedTensor.__eq__ = _method("__eq__")
BatchedTensor.__ne__ = _method("__ne__")
BatchedTensor.__hash__ = Tensor.__hash__
del _name, _fn


def batched_grad(grad, outputs, inputs, grad_outputs, retain_graph, create_graph,
                 allow_unused, materialize_grads):
    """``torch.autograd.grad(y, x, v)`` inside vmap, ``v`` batched (rows of a Jacobian): as
    torch's vmap of the engine, one backward pass with batched gradients (each node's
    backward through the batching rules; a node whose backward cannot, per sample:
    ``Node.apply``), each gradient a batched tensor. ``PASS`` when only plain tensors are
    involved; when ``outputs`` or ``inputs`` are batched too, the function runs per sample
    (``Unbatchable``). A pass that frees the graph as it goes (``retain_graph`` false) runs
    once per row instead (``is_grads_batched``), so that a fallback finds the graph whole."""
    if grad_outputs is None:
        return _vmap_hook.PASS
    seeds = list(grad_outputs) if type(grad_outputs) in (list, tuple) else [grad_outputs]
    batched = [g for g in seeds if isinstance(g, BatchedTensor)]
    if not batched:
        return _vmap_hook.PASS
    level = max(g._level for g in batched)
    if any(isinstance(t, BatchedTensor) for t in (*outputs, *inputs)) or any(
            isinstance(g, BatchedTensor) and g._level != level for g in seeds):
        raise Unbatchable
    kwargs = {"retain_graph": retain_graph, "create_graph": create_graph,
              "allow_unused": allow_unused, "materialize_grads": materialize_grads}
    keeps_graph = retain_graph if retain_graph is not None else create_graph
    if keeps_graph:
        hook, _vmap_hook.grad = _vmap_hook.grad, _no_hook
        try:
            return grad(outputs, inputs, grad_outputs, **kwargs)
        finally:
            _vmap_hook.grad = hook
    size = batched[0]._value.shape[batched[0]._bdim]
    rows = [_front(g) if isinstance(g, BatchedTensor)
            else None if g is None else g.expand(size, *g.shape) for g in seeds]
    result = grad(outputs, inputs, rows, is_grads_batched=True, **kwargs)
    return tuple(None if r is None else BatchedTensor(r, 0, level) for r in result)


def _no_hook(*args):
    """``_vmap_hook.grad`` while a batched pass runs: the engine's own ``grad`` calls are plain."""
    return _vmap_hook.PASS


def refuse_batched(*trees) -> None:
    """A transform (grad, vjp, jvp, jacrev, jacfwd...) given a batched tensor inside vmap
    runs per sample: vmap then calls the whole function once per sample."""
    if not _vmap_hook.active:
        return
    for tree in trees:
        if any(isinstance(leaf, BatchedTensor) for leaf in tree_flatten(tree)[0]):
            raise Unbatchable


def holds_batched(tree) -> bool:
    """Whether a tree of arguments holds a batched tensor (inside vmap)."""
    return bool(_vmap_hook.active) and any(isinstance(leaf, BatchedTensor)
                                           for leaf in tree_flatten(tree)[0])


def transform_per_sample(fn, args, kwargs=None):
    """A transform (grad, jvp, jacrev, jacfwd...) given batched tensors inside vmap, as an op
    without a batching rule: once per sample, the results stacked (torch's fallback). ``PASS``
    when nothing is batched."""
    kwargs = kwargs or {}
    if not _vmap_hook.active:
        return _vmap_hook.PASS
    leaves, spec = tree_flatten((args, kwargs))
    level = max((leaf._level for leaf in leaves if isinstance(leaf, BatchedTensor)), default=0)
    if not level:
        return _vmap_hook.PASS
    size = next(leaf._value.shape[leaf._bdim] for leaf in leaves if _is_batched(leaf, level))
    outs = []
    for i in range(max(size, 1)):
        sample_args, sample_kwargs = tree_unflatten(
            [_sample(leaf, level, i, size) for leaf in leaves], spec)
        outs.append(fn(*sample_args, **sample_kwargs))
    return _stack_results(outs, level, size)
