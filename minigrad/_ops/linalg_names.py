"""torch.linalg's own spellings of ops minigrad has under other names: ``linalg.inv`` (and
``inv_ex``), ``linalg.cross``, ``linalg.matmul``, ``linalg.diagonal`` and
``linalg.matrix_power``.

Each is the op itself (the same node, the same numbers); only the signature is torch.linalg's:
its parser names them ``linalg_*`` in its messages, ``linalg.cross`` takes ``dim`` (default
-1) by keyword only, ``linalg.diagonal`` reads the last two dims by default. ``inv_ex`` does not
raise for a singular matrix: it reports it in ``info`` (LAPACK's index of the zero pivot).
"""

from __future__ import annotations

import numpy as np

from minigrad import return_types
from minigrad._ops import lu as _lu
from minigrad._ops._args import parses
from minigrad._ops._core import record
from minigrad._ops.inverse import LinalgInvExBackward0, _LinAlgError, inverse
from minigrad._ops.linalg import matmul as _matmul
from minigrad._ops.products import linalg_cross
from minigrad._ops.products import matrix_power as _matrix_power
from minigrad._ops.shape import diagonal as _diagonal
from minigrad._tensor import Tensor


@parses('linalg_inv(Tensor A, *, Tensor out = None)')
def inv(A):
    """The inverse of a square matrix: ``inverse``."""
    return inverse(A)


@parses('linalg_inv_ex(Tensor A, *, bool check_errors = False)')
def inv_ex(A, *, check_errors=False):
    """``(inverse, info)``: info is 0 for an invertible matrix, else the 1-based index of the
    first zero pivot of its LU factorisation (then the inverse is not meaningful)."""
    info = None
    if A.dim() >= 2 and A.shape[-1] == A.shape[-2] and A.dtype.is_floating_point \
            and A.dtype.numpy != np.float16:
        info = _lu.lu_factor(A._data)[2]
    if info is None or not info.any():
        out = inverse(A)
        return return_types.linalg_inv_ex((out, Tensor._make(np.zeros_like(info, np.int32))))
    if check_errors:
        first = int(np.flatnonzero(info.reshape(-1))[0])
        where = f"(Batch element {first}): " if A.dim() > 2 else ""
        raise _LinAlgError(f"linalg.inv_ex: {where}The diagonal element "
                           f"{int(info.reshape(-1)[first])} is zero, the inversion could not be "
                           "completed because the input matrix is singular.")
    lu, pivots, _ = _lu.lu_factor(A._data)
    eye = np.broadcast_to(np.eye(A.shape[-1], dtype=A._data.dtype), A._data.shape)
    data = _lu.column_major(_lu.lu_solve(lu, pivots, eye, False))
    out = record(data, LinalgInvExBackward0, (A,), output_name="inverse")
    return return_types.linalg_inv_ex((out, Tensor._make(info)))


@parses('linalg_cross(Tensor input, Tensor other, *, int dim = -1, Tensor out = None)')
def cross(input, other, *, dim=-1):
    """The cross product of 3-vectors along ``dim`` (the last by default)."""
    return linalg_cross(input, other, dim)


@parses('linalg_matmul(Tensor input, Tensor other, *, Tensor out = None)')
def matmul(input, other):
    """The matrix product: ``matmul``."""
    return _matmul(input, other)


@parses('linalg_diagonal(Tensor A, *, int offset = 0, int dim1 = -2, int dim2 = -1)')
def diagonal(A, *, offset=0, dim1=-2, dim2=-1):
    """A view of a diagonal of each matrix (the last two dims by default)."""
    return _diagonal(A, offset, dim1, dim2)


@parses('linalg_matrix_power(Tensor input, int n, *, Tensor out = None)')
def matrix_power(input, n):
    """``input`` multiplied by itself ``n`` times (the inverse's power for n < 0)."""
    return _matrix_power(input, n)
