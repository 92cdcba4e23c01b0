"""Sorting: ``sort`` and ``topk``, each returning values and their indices.

Both return torch's named tuples (``torch.return_types.sort``/``topk``), the same mechanism as
``max(dim)``. The values are read from the input at the indices, so backward puts the gradient
back at those indices (zeros elsewhere) and forward mode reads the tangent there.
"""

from __future__ import annotations

import numpy as np

from minigrad import return_types
from minigrad._ops._core import record
from minigrad._tensor import Tensor, _wrap_dim
from minigrad.autograd.graph import Node


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


def sort(input, dim=-1, descending=False, *, stable=_NOT_GIVEN):
    """Values sorted along ``dim`` and where they came from. minigrad's sort is always stable
    (``stable=False`` lets torch order ties as it likes; stable order is one such order). As
    in torch, passing ``stable`` at all (even None) selects the overload whose node is
    SortBackward1."""
    d = _wrap_dim(dim, input.dim())
    data = input._data
    if data.ndim == 0:
        idx = np.zeros((), dtype=np.int64)
        values = data.copy()
    else:
        idx = _order(data, d, descending).astype(np.int64)
        values = np.take_along_axis(data, idx, axis=d)
    indices = Tensor._make(idx)
    node_cls = SortBackward0 if stable is _NOT_GIVEN else SortBackward1
    out = record(values, node_cls, (input,), save={"indices": indices}, dim=d, dim_arg=dim,
                 self_shape=data.shape)
    return return_types.sort((out, indices))


def topk(input, k, dim=-1, largest=True, sorted=True):  # noqa: A002 - torch's keyword
    """The ``k`` largest (or smallest) values along ``dim`` and their indices. minigrad always
    returns them in sorted order: with ``sorted=False`` torch's order is whatever its selection
    algorithm leaves (unspecified), so there the order (not the values) can differ."""
    d = _wrap_dim(dim, input.dim())
    data = input._data
    n = data.shape[d] if data.ndim else 1
    if not 0 <= k <= n:
        raise RuntimeError("selected index k out of range")
    if data.ndim == 0:
        idx = np.zeros((), dtype=np.int64)
        values = data.copy()
    else:
        order = _order(data, d, largest)
        idx = np.take(order, np.arange(k), axis=d).astype(np.int64)
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
