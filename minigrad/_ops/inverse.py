"""``inverse``: the matrix inverse (of each matrix in a batch), one node as torch's
``linalg.inv_ex`` (``LinalgInvExBackward0``), whose gradient is ``-A⁻ᴴ grad A⁻ᴴ`` written with
matmul, so a gradient taken with ``create_graph`` has torch's graph.

A singular matrix raises torch's ``_LinAlgError`` naming the first zero on the diagonal of
its LU factorisation with partial pivoting (LAPACK's ``getrf``, which torch calls).
"""

from __future__ import annotations

import numpy as np

from minigrad import _dtype
from minigrad._ops._args import parses
from minigrad._ops._core import record
from minigrad.autograd.graph import Node


class _LinAlgError(RuntimeError):
    """torch's ``torch.linalg.LinAlgError`` (``torch._C._LinAlgError``)."""


def _first_zero_pivot(a: np.ndarray) -> int:
    """1-based index of the first exactly-zero pivot of ``a``'s LU factorisation with partial
    pivoting (as getrf reports it), 0 when there is none."""
    u = a.astype(np.float64).copy()
    n = u.shape[0]
    first = 0
    for k in range(n):
        p = k + int(np.argmax(np.abs(u[k:, k])))
        if u[p, k] == 0:
            first = first or k + 1
            continue
        if p != k:
            u[[k, p]] = u[[p, k]]
        u[k + 1:, k:] -= np.outer(u[k + 1:, k] / u[k, k], u[k, k:])
    return first


@parses('inverse(Tensor input, *, Tensor out = None)')
def inverse(input):
    """The inverse of a square matrix (of each one, for a batch)."""
    data = input._data
    if data.ndim < 2:
        raise RuntimeError("linalg.inv: The input tensor A must have at least 2 dimensions.")
    if not input.dtype.is_floating_point:
        raise RuntimeError("linalg.inv: Expected a floating point or complex tensor as input. "
                           f"Got {input.dtype.scalar_name}")
    if input.dtype is _dtype.float16:
        raise RuntimeError("linalg.inv: Low precision dtypes not supported. Got Half")
    rows, cols = data.shape[-2:]
    if rows != cols:
        raise RuntimeError(f"linalg.inv: A must be batches of square matrices, but they are "
                           f"{rows} by {cols} matrices")
    batch = data.reshape(-1, rows, cols) if data.size else ()
    for i, m in enumerate(batch):
        k = _first_zero_pivot(m)
        if k:
            where = f"(Batch element {i}): " if data.ndim > 2 else ""
            raise _LinAlgError(f"linalg.inv: {where}The diagonal element {k} is zero, the "
                               "inversion could not be completed because the input matrix is "
                               "singular.")
    out = np.asarray(np.linalg.inv(data) if data.size else data.copy(), dtype=data.dtype)
    # laid out as LAPACK writes it, column-major matrices (torch's strides: its backward's
    # transposes are then contiguous)
    out = np.swapaxes(np.ascontiguousarray(np.swapaxes(out, -1, -2)), -1, -2)
    return record(out, LinalgInvExBackward0, (input,), output_name="inverse")


class LinalgInvExBackward0(Node):
    """out = A⁻¹: d/dA = -A⁻ᴴ grad A⁻ᴴ"""

    def backward(self, grad):
        inv_h = self.saved("inverse").mH
        return -inv_h.matmul(grad.matmul(self.saved("inverse").mH))

    def jvp(self, t):
        inv = self.result
        return -inv.matmul(t.matmul(inv))
