"""LU factorisation with partial pivoting, as LAPACK's ``getrf`` computes it, and solving with
its factors (``getrs``): what torch's determinants and ``linalg.solve`` are built on.

NumPy calls LAPACK too, but keeps the factors to itself; torch's nodes save them
(``grad_fn._saved_LU``, ``_saved_pivots``), and torch's backward formulas solve with them, so
minigrad factors a batch of matrices itself: column by column, the largest remaining entry
(the first of equal ones, as LAPACK's ``idamax``) swapped onto the diagonal, the column below
it scaled by the pivot's reciprocal, the rest updated by one rank-1 product.

Layouts are torch's: the factors are column-major (LAPACK's Fortran order), the pivots int32
and 1-based, ``info`` the 1-based index of the first exactly-zero pivot (0 when none).
"""

from __future__ import annotations

import numpy as np


def column_major(data: np.ndarray) -> np.ndarray:
    """A copy of a batch of matrices laid out as LAPACK writes them: C-contiguous batches of
    column-major matrices (torch's strides for the results of its linear algebra)."""
    buffer = np.empty((*data.shape[:-2], data.shape[-1], data.shape[-2]), dtype=data.dtype)
    out = np.swapaxes(buffer, -1, -2)
    out[...] = data
    return out


def lu_factor(a: np.ndarray):
    """``(LU, pivots, info)`` of each matrix of ``a`` (``..., n, n``), in ``a``'s dtype."""
    *batch, n, _ = a.shape
    lu = a.reshape(int(np.prod(batch, dtype=np.int64)), n, n).copy()
    b = lu.shape[0]
    pivots = np.zeros((b, n), dtype=np.int32)
    info = np.zeros(b, dtype=np.int32)
    rows = np.arange(b)
    with np.errstate(all="ignore"):
        for k in range(n):
            p = k + np.argmax(np.abs(lu[:, k:, k]), axis=1)
            pivots[:, k] = p + 1
            row_k = lu[rows, k].copy()
            lu[rows, k] = lu[rows, p]
            lu[rows, p] = row_k
            pivot = lu[:, k, k]
            zero = pivot == 0
            info[(info == 0) & zero] = k + 1
            # a zero pivot leaves its column alone (it is all zeros below the diagonal)
            scale = np.where(zero, 1, 1 / np.where(zero, 1, pivot)).astype(lu.dtype)
            lu[:, k + 1:, k] *= scale[:, None]
            lu[:, k + 1:, k + 1:] -= lu[:, k + 1:, k, None] * lu[:, k, None, k + 1:]
    return (column_major(lu.reshape(a.shape)), pivots.reshape(*batch, n),
            info.reshape(batch))


def permutation_sign(pivots: np.ndarray, dtype) -> np.ndarray:
    """The determinant of the row permutation the pivots describe: -1 for an odd number of
    swaps (torch's ``lu_det_P``)."""
    n = pivots.shape[-1]
    swaps = (pivots != np.arange(1, n + 1, dtype=np.int32)).sum(-1)
    return np.where(swaps % 2 == 1, -1, 1).astype(dtype)


def diagonal_product(lu: np.ndarray) -> np.ndarray:
    """The product of the diagonals of U, one factor after another (torch's ``prod``)."""
    diag = np.diagonal(lu, 0, -2, -1)
    out = np.ones(diag.shape[:-1], dtype=lu.dtype)
    with np.errstate(all="ignore"):
        for k in range(diag.shape[-1]):
            out = out * diag[..., k]
    return out


def lu_solve(lu: np.ndarray, pivots: np.ndarray, b: np.ndarray, adjoint: bool) -> np.ndarray:
    """Solve ``M X = B`` (``M^T X = B`` when ``adjoint``) for the matrix ``M = P L U`` that
    ``lu_factor`` factored; the batch dims of ``lu`` and ``b`` broadcast."""
    batch = np.broadcast_shapes(lu.shape[:-2], b.shape[:-2])
    n = lu.shape[-1]
    lu = np.broadcast_to(lu, (*batch, n, n))
    pivots = np.broadcast_to(pivots, (*batch, n))
    x = np.array(np.broadcast_to(b, (*batch, *b.shape[-2:])), dtype=lu.dtype)
    idx = np.indices(batch) if batch else ()

    def swap(k):
        p = pivots[..., k] - 1
        row_k = x[(*idx, k)].copy()
        x[(*idx, k)] = x[(*idx, p)]
        x[(*idx, p)] = row_k

    with np.errstate(all="ignore"):
        if not adjoint:  # P L U x = b: swap, then L (unit) forward, then U backward
            for k in range(n):
                swap(k)
            for k in range(n):
                x[..., k + 1:, :] -= lu[..., k + 1:, k, None] * x[..., k, None, :]
            for k in reversed(range(n)):
                x[..., k, :] /= lu[..., k, k, None]
                x[..., :k, :] -= lu[..., :k, k, None] * x[..., k, None, :]
        else:  # U^T L^T P^T x = b: U^T forward, L^T (unit) backward, then the swaps undone
            for k in range(n):
                x[..., k, :] /= lu[..., k, k, None]
                x[..., k + 1:, :] -= lu[..., k, k + 1:, None] * x[..., k, None, :]
            for k in reversed(range(n)):
                x[..., :k, :] -= lu[..., k, :k, None] * x[..., k, None, :]
            for k in reversed(range(n)):
                swap(k)
    return x


def perturbed(lu: np.ndarray) -> np.ndarray:
    """The factors with each exactly-zero pivot replaced by the dtype's epsilon: torch's
    non-singular stand-in for a singular matrix in the determinant's derivatives (the
    determinant is C^1, and the result is multiplied by det = 0 anyway)."""
    eps = np.finfo(lu.dtype).eps
    out = lu.copy()
    diag = np.diagonal(out, 0, -2, -1).copy()
    np.einsum("...ii->...i", out)[...] = np.where(diag == 0, eps, diag)
    return out
