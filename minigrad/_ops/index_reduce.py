"""scatter_reduce(_) and index_reduce(_): ``src`` (``source``) combined into ``input`` at an
index along ``dim`` by a reduction ("sum", "prod", "mean", "amax", "amin"; index_reduce has
no "sum": index_add is that), ``input``'s own value taking part or not (``include_self``).

The forward fills the reached places with the reduction's identity when ``include_self`` is
False and then folds the values in, in the order of the index, as torch's CPU kernels do: a
sum or a product is rounded step by step, so only that order gives torch's bits; "mean"
divides the sum by the count of values that took part (1 where nothing arrived).

The nodes are torch's ScatterReduceBackward0 and IndexReduceBackward0. Both save ``self``,
``index``, ``src``/``source`` and the ``result`` whatever needs a gradient (the formulas of
``scatter_reduce_backward`` / ``index_reduce_backward`` read them all), and compose their
gradients from differentiable ops in torch's order, so a double backward builds torch's
graph. "prod" divides by the inputs with zeros masked, and recomputes the exclusive product
where a single zero arrived; two zeros at one place cannot be differentiated twice (a
``DelayedError`` node says so if one tries). "amax"/"amin" split the gradient evenly among
all the values equal to the result. Forward mode: torch has a rule for scatter_reduce's
"sum", "mean", "amax", "amin" (its "prod" quietly gives no tangent) and none for index_reduce.
"""

from __future__ import annotations

import numpy as np

from minigrad._ops._args import parses
from minigrad._ops._core import record
from minigrad._ops.index_add import _check as _index_add_check
from minigrad._ops.indexing import _at_least_1d, _check_index, _grids, _leading
from minigrad._ops.inplace import _saved_original, apply_inplace
from minigrad._ops.pointwise import where
from minigrad._tensor import Tensor, _warn_once, _wrap_dim
from minigrad.autograd import grad_mode
from minigrad.autograd.graph import Node
from minigrad.autograd.special_nodes import Error

_REDUCES = ("sum", "prod", "mean", "amax", "amin")
_FOLD = {"sum": np.add, "mean": np.add, "prod": np.multiply, "amax": np.maximum,
         "amin": np.minimum}
INDEX_REDUCE_WARNING = "index_reduce() is in beta and the API may change at any time."


def _identity(reduce, dtype):
    """What a reached place starts from when ``include_self`` is False."""
    if reduce in ("sum", "mean"):
        return 0
    if reduce == "prod":
        return 1
    if dtype.kind == "f":
        return -np.inf if reduce == "amax" else np.inf
    info = np.iinfo(dtype) if dtype.kind in "iu" else None
    if info is None:  # bool
        return reduce == "amin"
    return info.min if reduce == "amax" else info.max


def _fold(data, places, values, reduce, include_self):
    """Reduce ``values`` into ``data`` (in place) at ``places``, in their order; "mean"
    then divides by the counts (returns the result array)."""
    if not include_self:
        data[places] = _identity(reduce, data.dtype)
    with np.errstate(all="ignore"):
        _FOLD[reduce].at(data, places, values)
    if reduce != "mean":
        return data
    count = np.ones(data.shape, data.dtype) if include_self else np.zeros(data.shape, data.dtype)
    np.add.at(count, places, np.ones_like(values))
    count[count == 0] = 1
    with np.errstate(all="ignore"):
        if data.dtype.kind == "f":
            return np.divide(data, count).astype(data.dtype, copy=False)
        return np.floor_divide(data, count).astype(data.dtype, copy=False)


# --- scatter_reduce, scatter_reduce_ --------------------------------------------------------------
def _scatter_check(input, dim, index, src, reduce):
    if reduce not in _REDUCES:
        raise RuntimeError(f"reduce argument must be either sum, prod, mean, amax or amin, got "
                           f"{reduce}")
    d = _wrap_dim(dim, input.dim())
    _check_index("scatter", input, d, index, src)
    return d


def _scattered(input, d, index, src, reduce, include_self):
    data = _at_least_1d(input._data).copy()
    values = _at_least_1d(src._data)[_leading(index, 1)]
    data = _fold(data, _grids(index, d, 1), values, reduce, include_self)
    return data.reshape(input._data.shape)


@parses('scatter_reduce(Tensor input, int dim, Tensor index, Tensor src, str reduce, *, '
        'bool include_self = True, Tensor out = None)')
def scatter_reduce(input, dim, index, src, reduce, *, include_self=True):
    """A copy of ``input`` with ``src[i][j]`` reduced into ``[index[i][j]][j]`` (``dim=0``)."""
    d = _scatter_check(input, dim, index, src, reduce)
    data = _scattered(input, d, index, src, reduce, include_self)
    return record(data, ScatterReduceBackward0, (input, src),
                  save={"self": input, "index": index, "src": src}, output_name="result",
                  dim=d, dim_arg=dim, reduce=reduce, include_self=include_self,
                  index_tensor=index, inplace=False)


@parses('scatter_reduce_(Tensor input, int dim, Tensor index, Tensor src, str reduce, *, '
        'bool include_self = True)')
def scatter_reduce_(self, dim, index, src, reduce, *, include_self=True):
    d = _scatter_check(self, dim, index, src, reduce)
    data = _scattered(self, d, index, src, reduce, include_self)
    return apply_inplace(self, data, ScatterReduceBackward0, (self, src),
                         save={"self": _saved_original(self, True), "index": index, "src": src},
                         output_name="result", dim=d, dim_arg=dim, reduce=reduce,
                         include_self=include_self, index_tensor=index, inplace=True)


def _delayed(g, msg):
    """``g`` behind torch's ``DelayedError`` node (printed ``<Error>``, as torch's) that raises
    ``msg`` if one differentiates through it."""
    return record(g._data, Error, (g,), msg=msg)


def _prod_grads(grad, self, src, result, reduce_fn, spread, gather, name):
    """The product's gradients (both ops): exclusive products, a lone zero recomputed."""
    masked_self = self.masked_fill(self == 0, 1)
    masked_self_result = reduce_fn(masked_self, src)
    grad_self = grad * masked_self_result / masked_self
    src_zero = src == 0
    src_num_zeros = gather(spread(_zeros_like(self), src_zero.to(self.dtype)))
    src_single_zero = src_zero.bitwise_and(src_num_zeros == 1)
    masked_src = src.masked_fill(src_single_zero, 1)
    masked_src_result = reduce_fn(self, masked_src)
    grad_src1 = where(src_single_zero, gather(grad * masked_src_result),
                      gather(grad * result) / src.masked_fill(src_zero, 1))
    if grad_mode.is_grad_enabled() and bool((src_num_zeros._data > 1).any()):
        word = "src" if name == "scatter_reduce" else "source"
        return grad_self, _delayed(grad_src1, f"{name}(): Double backward is unsupported for "
                                   f"{word} when >1 zeros in {word} are scattered to the same "
                                   "position in self")
    return grad_self, grad_src1


def _zeros_like(t):
    return Tensor._make(np.zeros_like(t._data))


def _ones_like(t):
    return Tensor._make(np.ones_like(t._data))


def _grads(node, grad, spread, gather, reduce_fn, unreached, name):
    """``scatter_reduce_backward`` / ``index_reduce_backward``: ``spread`` adds values of the
    src's shape into a tensor of self's shape, ``gather`` reads self's shape back at the
    index, ``reduce_fn`` redoes the op, ``unreached`` zeroes the reached places of self."""
    self, src, result = node.saved("self"), node.saved(node.src_name), node.saved("result")
    reduce = node.reduce
    if reduce == "sum":
        grad_self, grad_src = grad, gather(grad)
    elif reduce == "prod":
        grad_self, grad_src = _prod_grads(grad, self, src, result, reduce_fn, spread,
                                          gather, name)
    elif reduce == "mean":
        n = _ones_like(grad) if node.include_self else _zeros_like(grad)
        n = spread(n, _ones_like(src))
        n.masked_fill_(n == 0, 1)
        grad_self = grad / n
        grad_src = gather(grad) / gather(n)
    else:  # amax, amin: the gradient split evenly among the values equal to the result
        value = gather(result)
        self_is_result = (self == result).to(self.dtype)
        src_is_result = (src == value).to(self.dtype)
        grad_distributed = grad / spread(self_is_result, src_is_result)
        if name == "scatter_reduce":
            grad_self = (self == result) * grad_distributed
            grad_src = (src == value) * gather(grad_distributed)
        else:
            grad_self = self_is_result * grad_distributed
            grad_src = src_is_result * gather(grad_distributed)
    if not node.include_self:
        grad_self = unreached(grad_self)
    return grad_self, grad_src


class ScatterReduceBackward0(Node):
    """out = self with src reduced in at index along dim (torch's
    ``scatter_reduce_backward``)."""

    src_name = "src"

    def backward(self, grad):
        d, index, include_self, reduce = self.dim_arg, self.saved("index"), \
            self.include_self, self.reduce
        return _grads(
            self, grad,
            spread=lambda t, s: t.scatter_add(d, index, s),
            gather=lambda t: t.gather(d, index),
            reduce_fn=lambda t, s: t.scatter_reduce(d, index, s, reduce,
                                                    include_self=include_self),
            unreached=lambda t: t.scatter(d, index, 0), name="scatter_reduce")

    def jvp(self, t_self, t_src):
        x, src = self.inputs
        t_self = x.new_zeros(x.shape) if t_self is None else t_self
        t_src = src.new_zeros(src.shape) if t_src is None else t_src
        d, index, inc = self.dim, self.index_tensor, self.include_self
        if self.reduce in ("sum", "mean"):  # linear
            return t_self.scatter_reduce(d, index, t_src, self.reduce, include_self=inc)
        if self.reduce == "prod":  # torch has no rule: no tangent; in place, copying that
            if self.inplace:  # missing tangent into self's raises
                raise RuntimeError("Expected a proper Tensor but got None (or an undefined "
                                   "Tensor in C++) for argument #1 'src'")
            return None
        result = self.result
        mask_self = x == result
        mask_src = src == result.gather(d, index)
        div = mask_self.to(t_self.dtype).scatter_reduce(d, index, mask_src.to(t_self.dtype),
                                                        "sum", include_self=inc)
        return (where(mask_self, t_self, 0.)
                .scatter_reduce(d, index, where(mask_src, t_src, 0.), "sum", include_self=inc)
                .div(div))


# --- index_reduce, index_reduce_ ------------------------------------------------------------------
def _index_check(input, dim, index, source, reduce):
    if reduce not in _REDUCES[1:]:
        raise RuntimeError(f"index_reduce(): Expected reduce to be one of prod, mean, amax or "
                           f"amin but got {reduce}.")
    size = input.shape[_wrap_dim(dim, input.dim())] if input.dim() else 1
    idx = index._data.reshape(-1)
    in_range = bool(((idx >= 0) & (idx < size)).all()) if index._data.dtype.kind in "iu" \
        else True
    d = _index_add_check(input, dim, index if in_range else _in_range(index), source,
                         op="index_reduce_")
    _warn_once(INDEX_REDUCE_WARNING)
    if not in_range:
        raise IndexError("index out of range in self")
    return d


def _in_range(index):
    """An index of the same shape and dtype, with all values 0: lets the shared checks run
    their shape tests before the range error, which index_reduce words its own way."""
    return Tensor._make(np.zeros_like(index._data))


def _index_reduced(input, d, index, source, reduce, include_self):
    data = np.array(input._data, order="C")
    view = data.reshape(1) if data.ndim == 0 else np.moveaxis(data, d, 0)
    src = source._data.reshape(1) if source._data.ndim == 0 else np.moveaxis(source._data, d, 0)
    idx = index._data.reshape(-1).astype(np.int64)
    out = _fold(view, idx, src, reduce, include_self)
    if reduce == "mean":  # a new array: put it back in input's layout
        return (out.reshape(1) if data.ndim == 0 else np.moveaxis(out, 0, d)).reshape(
            data.shape).copy()
    return data


@parses('index_reduce(Tensor input, int dim, Tensor index, Tensor source, str reduce, *, '
        'bool include_self = True, Tensor out = None)')
def index_reduce(input, dim, index, source, reduce, *, include_self=True):
    """A copy of ``input`` with slice ``i`` of ``source`` reduced into slice ``index[i]``
    along ``dim``."""
    d = _index_check(input, dim, index, source, reduce)
    data = _index_reduced(input, d, index, source, reduce, include_self)
    return record(data, IndexReduceBackward0, (input, source),
                  save={"self": input, "index": index, "source": source}, output_name="result",
                  dim=d, dim_arg=dim, reduce=reduce, include_self=include_self, inplace=False)


@parses('index_reduce_(Tensor input, int dim, Tensor index, Tensor source, str reduce, *, '
        'bool include_self = True)')
def index_reduce_(self, dim, index, source, reduce, *, include_self=True):
    d = _index_check(self, dim, index, source, reduce)
    data = _index_reduced(self, d, index, source, reduce, include_self)
    return apply_inplace(self, data, IndexReduceBackward0, (self, source),
                         save={"self": _saved_original(self, True), "index": index,
                               "source": source},
                         output_name="result", dim=d, dim_arg=dim, reduce=reduce,
                         include_self=include_self, inplace=True)


class IndexReduceBackward0(Node):
    """out = self with the slices of source reduced in at index along dim (torch's
    ``index_reduce_backward``); torch has no forward-mode rule."""

    src_name = "source"

    def backward(self, grad):
        d, index, include_self, reduce = self.dim_arg, self.saved("index"), \
            self.include_self, self.reduce
        return _grads(
            self, grad,
            spread=lambda t, s: t.index_add(d, index, s),
            gather=lambda t: t.index_select(d, index),
            reduce_fn=lambda t, s: t.index_reduce(d, index, s, reduce,
                                                  include_self=include_self),
            unreached=lambda t: t.index_fill(d, index, 0), name="index_reduce")

    def jvp(self, *tangents):
        """No rule in torch; its in-place variant words the error a little differently."""
        if not self.inplace:
            return Node.jvp(self, *tangents)
        raise NotImplementedError(
            "Trying to use forward AD with index_reduce_ that does not support it because it "
            "has not been implemented yet.\nPlease file an issue to PyTorch at "
            "https://github.com/pytorch/pytorch/issues/new?template=feature-request.yml so "
            "that we can prioritize its implementation.")
