"""``linalg.vecdot`` and ``linalg.multi_dot``: products torch composes from other ops.

``vecdot(x, y, dim)`` is ``(x * y).sum(dim)`` (x conjugated, for complex numbers), so its graph
is ``SumBackward1`` over ``MulBackward0``; for two vectors it is torch's ``vdot``.
``multi_dot`` multiplies a chain of matrices in the cheapest order (the fewest scalar
multiplications): for three, torch compares the two orders; for more, it runs the classic
dynamic program over the chain's sizes. Each product is one ``mm``; a vector at either end is
viewed as a row (column) matrix first and the result viewed back, so the graph is torch's:
``ViewBackward0`` over ``MmBackward0`` nodes.
"""

from __future__ import annotations

from minigrad._ops._args import parses
from minigrad._ops.linalg import _CPP_NAMES, mm
from minigrad._ops.products import vdot
from minigrad._ops.reduction import sum as _sum
from minigrad._tensor import Tensor


@parses('linalg_vecdot(Tensor x, Tensor y, *, int dim = -1, Tensor out = None)')
def vecdot(x, y, *, dim=-1):
    """The dot product of the vectors along ``dim`` (broadcasting the rest)."""
    if not x.dtype.is_floating_point:
        raise RuntimeError("linalg.vecdot: Expected a floating point or complex tensor as "
                           f"input. Got {x.dtype.scalar_name}")
    if x.dtype is not y.dtype:
        raise RuntimeError(f"linalg.vecdot: Expected x and y to have the same dtype, but found x "
                           f"of type {x.dtype.scalar_name} and y of type {y.dtype.scalar_name} "
                           "instead")
    if x.dim() == 1 and y.dim() == 1:  # two vectors: torch's vdot (VdotBackward0)
        return vdot(x, y)
    return _sum(x * y, dim)


def _chain_order(sizes: list[int]) -> list[list[int]]:
    """torch's matrix_chain_order: ``split[i][j]``, where to split the chain ``i..j`` so
    that it costs the fewest multiplications (matrix k is ``sizes[k] x sizes[k + 1]``)."""
    n = len(sizes) - 1
    cost = [[0] * n for _ in range(n)]
    split = [[0] * n for _ in range(n)]
    for length in range(1, n):
        for i in range(n - length):
            j = i + length
            cost[i][j] = None
            for k in range(i, j):
                q = cost[i][k] + cost[k + 1][j] + sizes[i] * sizes[k + 1] * sizes[j + 1]
                if cost[i][j] is None or q < cost[i][j]:
                    cost[i][j], split[i][j] = q, k
    return split


def _chain(tensors, split, i, j):
    if i == j:
        return tensors[i]
    return mm(_chain(tensors, split, i, split[i][j]), _chain(tensors, split, split[i][j] + 1, j))


def multi_dot(tensors):
    """``tensors[0] @ tensors[1] @ ...`` in the cheapest order; the first may be a row
    vector, the last a column vector."""
    if not isinstance(tensors, list | tuple) or not all(isinstance(t, Tensor) for t in tensors):
        raise TypeError("linalg_multi_dot(): argument 'tensors' (position 1) must be tuple of "
                        f"Tensors, not {type(tensors).__name__}")
    n = len(tensors)
    if n < 2:
        raise RuntimeError(f"multi_dot(): expected at least 2 tensors but got {n}")
    out_shape, mats = [], list(tensors)
    first, last = tensors[0], tensors[-1]
    if first.dim() == 1:
        mats[0] = first.unsqueeze(0)
    elif first.dim() == 2:
        out_shape.append(first.shape[0])
    else:
        raise RuntimeError(f"multi_dot(): the first tensor must be 1D or 2D but got "
                           f"{first.dim()}D")
    if last.dim() == 1:
        mats[-1] = last.unsqueeze(-1)
    elif last.dim() == 2:
        out_shape.append(last.shape[1])
    else:
        raise RuntimeError(f"multi_dot(): the last tensor must be 1D or 2D but got "
                           f"{last.dim()}D")
    for i in range(1, n - 1):
        if tensors[i].dim() != 2:
            raise RuntimeError(f"multi_dot(): tensor {i} must be 2D but got {tensors[i].dim()}D")
    for i in range(1, n):
        if mats[i].dtype is not mats[0].dtype:
            raise RuntimeError(f"multi_dot(): all tensors must have be the same dtype but tensor "
                               f"0 is {_CPP_NAMES[mats[0].dtype.name]} and tensor {i} "
                               f"{_CPP_NAMES[mats[i].dtype.name]}")
        if mats[i - 1].shape[-1] != mats[i].shape[0]:
            raise RuntimeError(f"multi_dot(): tensors {i - 1} and {i} with shapes "
                               f"{list(tensors[i - 1].shape)} and {list(tensors[i].shape)} "
                               "cannot be multiplied")
    if n == 2:
        result = mm(mats[0], mats[1])
    elif n == 3:
        a, b, c, d = mats[0].shape[0], mats[1].shape[0], mats[2].shape[0], mats[2].shape[1]
        if (a * c) * (b + d) > (b * d) * (a + c):
            result = mm(mats[0], mm(mats[1], mats[2]))
        else:
            result = mm(mm(mats[0], mats[1]), mats[2])
    else:
        sizes = [m.shape[0] for m in mats] + [mats[-1].shape[1]]
        result = _chain(mats, _chain_order(sizes), 0, n - 1)
    return result.view(*out_shape)
