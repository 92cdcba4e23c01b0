"""Sorting: ``sort`` and ``topk``, each returning values and their indices.

Both return torch's named tuples (``torch.return_types.sort``/``topk``), the same mechanism as
``max(dim)``. The values are read from the input at the indices, so backward puts the gradient
back at those indices (zeros elsewhere) and forward mode reads the tangent there.
"""

from __future__ import annotations

import numpy as np

from minigrad import _layout, return_types
from minigrad._ops import stl_sort
from minigrad._ops._args import parses
from minigrad._ops._core import record
from minigrad._tensor import Tensor, _wrap_dim
from minigrad.autograd import grad_mode
from minigrad.autograd.graph import Node


def _before(largest: bool):
    """torch's comparators on (value, index) pairs: "x goes first"; NaN counts as largest."""
    if largest:
        return lambda x, y: (x[0] != x[0] and y[0] == y[0]) or x[0] > y[0]
    return lambda x, y: (x[0] == x[0] and y[0] != y[0]) or x[0] < y[0]


def _rows(data, d):
    """``data`` with ``d`` last, as rows; and a function putting row results back."""
    moved = np.moveaxis(data, d, -1)
    rows = moved.reshape(-1, moved.shape[-1]) if moved.size else moved.reshape(0, 0)

    def back(out_rows, k):
        return np.moveaxis(out_rows.reshape(*moved.shape[:-1], k), -1, d)

    return rows, back


def _tied(rows):
    """Which rows hold two values that compare equal (two NaNs included)."""
    if rows.shape[-1] < 2:
        return np.zeros(len(rows), dtype=bool)
    s = np.sort(rows, axis=-1)
    tied = (s[:, 1:] == s[:, :-1]).any(axis=-1)
    if rows.dtype.kind == "f":
        tied |= np.isnan(rows).sum(axis=-1) > 1
    return tied


def _unstable_order(data, d, descending):
    """torch's ``std::sort`` order: rows that tie run libstdc++'s introsort (stl_sort.py);
    others have one sorted order, the stable one."""
    order = _order(data, d, descending)
    rows, back = _rows(data, d)
    tied = _tied(rows)
    if not tied.any():
        return order
    n, comp = rows.shape[-1], _before(descending)
    order_rows, _ = _rows(order, d)
    order_rows = order_rows.copy()
    for r in np.nonzero(tied)[0]:
        pairs = list(zip(rows[r].tolist(), range(n), strict=True))
        stl_sort.sort(pairs, 0, n, comp)
        order_rows[r] = [i for _, i in pairs]
    return back(order_rows, n)


def _topk_order(data, d, k, largest, sorted):  # noqa: A002 - torch's keyword
    """torch's topk_impl_loop on each row: ``std::partial_sort`` when ``k * 64 <= n``, else
    ``std::nth_element`` and (sorted) ``std::sort`` of the first k - 1. Rows without ties,
    sorted, need none of it: their first k are the sorted order's."""
    order = np.take(_order(data, d, largest), np.arange(k), axis=d)
    rows, back = _rows(data, d)
    n = rows.shape[-1]
    partial = k * 64 <= n
    redo = np.ones(len(rows), dtype=bool) if not (sorted or partial) else _tied(rows)
    if k == 0 or not redo.any():
        return order
    comp = _before(largest)
    out, _ = _rows(order, d)
    out = out.copy()
    for r in np.nonzero(redo)[0]:
        pairs = list(zip(rows[r].tolist(), range(n), strict=True))
        if partial:
            stl_sort.partial_sort(pairs, 0, k, n, comp)
        else:
            stl_sort.nth_element(pairs, k - 1, comp)
            if sorted:
                stl_sort.sort(pairs, 0, k - 1, comp)
        out[r] = [i for _, i in pairs[:k]]
    return back(out, k)


def _order(data, d, descending):
    """Indices that sort ``data`` along ``d``; ties keep their order (a stable sort). NaN is
    larger than everything, as in torch (NumPy already puts it last in ascending order)."""
    if not descending:
        return np.argsort(data, axis=d, kind="stable")
    # Reversing an ascending sort would reverse the ties: sort an order-reversing key instead
    # (``~`` for integers and bools: no overflow), then bring NaN to the front, stably.
    if data.dtype.kind != "f":
        return np.argsort(~data, axis=d, kind="stable")
    nan = np.isnan(data)
    order = np.argsort(np.where(nan, 0, -data), axis=d, kind="stable")
    if not nan.any():
        return order
    first = np.argsort(~np.take_along_axis(nan, order, axis=d), axis=d, kind="stable")
    return np.take_along_axis(order, first, axis=d)


_NOT_GIVEN = object()


@parses(
    'sort(Tensor input, *, bool? stable, int dim = -1, bool descending = False, '
    'tuple of Tensors out = None)',
    'sort(Tensor input, int dim = -1, bool descending = False, *, tuple of Tensors out = None)',
)
def sort(input, dim=-1, descending=False, *, stable=_NOT_GIVEN):
    """Values sorted along ``dim`` and where they came from. Ties come out as torch leaves
    them: in order with ``stable=True``, else as ``std::sort`` leaves them. As in torch,
    passing ``stable`` at all (even None) selects the overload whose node is SortBackward1."""
    d = _wrap_dim(dim, input.dim())
    data = input._data
    if data.ndim == 0:
        idx = np.zeros((), dtype=np.int64)
        values = data.copy()
    else:
        stable_order = stable is not _NOT_GIVEN and stable
        order = _order(data, d, descending) if stable_order else \
            _unstable_order(data, d, descending)
        idx = order.astype(np.int64)
        values = _layout.preserved(np.take_along_axis(data, idx, axis=d), data)
        idx = _layout.preserved(idx, data)  # (both laid out as the input, as torch's)
    indices = Tensor._make(idx)
    node_cls = SortBackward0 if stable is _NOT_GIVEN else SortBackward1
    out = record(values, node_cls, (input,), save={"indices": indices}, dim=d, dim_arg=dim,
                 self_shape=data.shape)
    return return_types.sort((out, indices))


@parses(
    'argsort(Tensor input, *, bool stable, int dim = -1, bool descending = False, '
    'Tensor out = None)',
    'argsort(Tensor input, int dim = -1, bool descending = False)',
)
def argsort(input, dim=-1, descending=False, *, stable=False):
    """Where the sorted values came from: ``sort``'s indices (stable or not, as asked)."""
    with grad_mode.no_grad():
        return sort(input, dim, descending, stable=stable).indices


@parses(
    'topk(Tensor input, int k, int dim = -1, bool largest = True, bool sorted = True, *, '
    'tuple of Tensors out = None)',
)
def topk(input, k, dim=-1, largest=True, sorted=True):  # noqa: A002 - torch's keyword
    """The ``k`` largest (or smallest) values along ``dim`` and their indices, ties and
    ``sorted=False`` in the order torch's selection algorithm leaves them."""
    d = _wrap_dim(dim, input.dim())
    data = input._data
    n = data.shape[d] if data.ndim else 1
    if not 0 <= k <= n:
        raise RuntimeError("selected index k out of range")
    if data.ndim == 0:
        idx = np.zeros((), dtype=np.int64)
        values = data.copy()
    else:
        idx = _topk_order(data, d, k, largest, sorted).astype(np.int64)
        values = np.take_along_axis(data, idx, axis=d)
    indices = Tensor._make(idx)
    out = record(values, TopkBackward0, (input,), save={"indices": indices}, dim=d, dim_arg=dim,
                 self_shape=data.shape)
    return return_types.topk((out, indices))


class SortBackward0(Node):
    """out = self's values at ``indices``: the gradient goes back there, zeros elsewhere."""

    def backward(self, grad):  # a 0-d input too: torch scatters its one value back
        indices = self.saved("indices")
        # the dim as given (-1 stays -1), as torch's formula passes it
        return grad.new_zeros(self.self_shape).scatter(self.dim_arg, indices, grad)

    def jvp(self, t):
        return t if not self.self_shape else t.gather(self.dim, self.indices)


class SortBackward1(SortBackward0):
    """sort(stable=...): the overload with a ``stable`` argument"""


class TopkBackward0(SortBackward0):
    """out = the k values of self at ``indices``"""
