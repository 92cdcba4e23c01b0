"""``linalg.solve`` (and ``solve_ex``): ``X`` with ``A X = B`` (``X A = B`` for ``left=False``),
one node as torch's ``_linalg_solve_ex`` (``LinalgSolveExBackward0``).

As torch, the solve factors ``A`` once (LU with partial pivoting, ``_ops/lu.py``) and solves
with the factors, which the node saves (``info``, the first zero pivot, is that factorisation's
too). ``B`` may be a
vector (or a batch of them: NumPy's rule) and broadcasts against ``A``'s batch; the engine
sums a broadcast gradient back. The gradient is ``gB = A^{-H} gX``, ``gA = -gB X^H``: solved
with the saved factors, or, under ``create_graph``, by a new ``linalg.solve`` (torch's
``linalg_solve_backward``), so the gradient has torch's graph.
"""

from __future__ import annotations

import numpy as np

from minigrad import return_types
from minigrad._ops import lu as _lu
from minigrad._ops._args import parses
from minigrad._ops._core import fused, record
from minigrad._ops.inverse import _LinAlgError
from minigrad._tensor import Tensor
from minigrad.autograd.graph import Node


def square_check(A, name: str) -> None:
    """torch's squareCheckInputs: at least 2 dims, square matrices."""
    if A.dim() < 2:
        raise RuntimeError(f"{name}: The input tensor A must have at least 2 dimensions.")
    rows, cols = A.shape[-2:]
    if rows != cols:
        raise RuntimeError(f"{name}: A must be batches of square matrices, but they are {rows} "
                           f"by {cols} matrices")


def floating_check(A, name: str, low_precision: bool = True) -> None:
    """torch's checkFloatingOrComplex (float16 refused unless ``low_precision``)."""
    if not A.dtype.is_floating_point:
        raise RuntimeError(f"{name}: Expected a floating point or complex tensor as input. Got "
                           f"{A.dtype.scalar_name}")
    if not low_precision and A.dtype.numpy == np.float16:
        raise RuntimeError(f"{name}: Low precision dtypes not supported. Got Half")


def no_half_lu(A) -> None:
    """torch's CPU LU factorisation has no float16 kernel."""
    if A.dtype.numpy == np.float16:
        raise NotImplementedError("\"lu_cpu\" not implemented for 'Half'")


def factor(A, transposed: bool = False):
    """``(LU, pivots, info, use_A_T)``: the factors torch's solvers and determinants keep, of
    ``A^T`` when ``transposed`` (torch's determinants factor a contiguous ``A`` so, its
    ``use_A_T``), else of ``A``."""
    use_a_t = transposed
    data = A._data
    lu, pivots, info = _lu.lu_factor(np.swapaxes(data, -1, -2) if use_a_t else data)
    return lu, pivots, info, use_a_t


def lu_solve(lu, pivots, b, left: bool, adjoint: bool) -> np.ndarray:
    """torch's ``linalg_lu_solve(LU, pivots, B, left, adjoint)`` on arrays: ``op(M) X = B``
    (``X op(M) = B`` when not ``left``), ``op`` the transpose when ``adjoint``."""
    if left:
        return _lu.lu_solve(lu, pivots, b, adjoint)
    return np.swapaxes(_lu.lu_solve(lu, pivots, np.swapaxes(b, -1, -2), not adjoint), -1, -2)


def raise_if_singular(info: np.ndarray, api: str, is_matrix: bool) -> None:
    """torch's ``_linalg_check_errors`` for a solver: the first singular matrix, by batch."""
    flat = info.reshape(-1)
    bad = np.flatnonzero(flat)
    if bad.size:
        where = "" if is_matrix else f"(Batch element {bad[0]}): "
        raise _LinAlgError(f"{api}: {where}The solver failed because the input matrix is "
                           "singular.")


def is_vector_rhs(A, B) -> bool:
    """torch's linalg_solve_is_vector_rhs: B is a vector, or a batch of them shaped like
    ``A.shape[:-1]`` (NumPy's rule)."""
    return B.dim() == 1 or (A.dim() - 1 == B.dim() and tuple(B.shape) == tuple(A.shape[:-1]))


def _laid_out(data: np.ndarray, f_contig: bool) -> np.ndarray:
    """torch's batched_matrix_contiguous_strides: C-contiguous batches of column-major (or
    row-major) matrices; a vector's batch counts as a matrix."""
    if f_contig and data.ndim >= 2:
        return _lu.column_major(data)
    return np.ascontiguousarray(data)


def _solve_ex(A, B, left):
    floating_check(A, "linalg.solve")
    if A.dtype is not B.dtype:
        raise RuntimeError(f"linalg.solve: Expected A and B to have the same dtype, but found A "
                           f"of type {A.dtype.scalar_name} and B of type "
                           f"{B.dtype.scalar_name} instead")
    vector_case = is_vector_rhs(A, B)
    b = B._data[..., None] if vector_case else B._data
    square_check(A, "linalg.solve")
    if b.ndim < 2:
        raise RuntimeError("linalg.solve: The input tensor B must have at least 2 dimensions.")
    n = A.shape[-1]
    if (b.shape[-2] if left else b.shape[-1]) != n:
        raise RuntimeError(f"linalg.solve: Incompatible shapes of A and B for the equation "
                           f"{'AX = B' if left else 'XA = B'} ({n}x{n} and "
                           f"{b.shape[-2]}x{b.shape[-1]})")
    try:
        batch = np.broadcast_shapes(b.shape[:-2], A._data.shape[:-2])
    except ValueError:
        raise RuntimeError(f"The size of tensor a ({b.shape[-3]}) must match the size of "
                           f"tensor b ({A.shape[-3]}) at non-singleton dimension 0") from None
    if not left and vector_case:
        raise RuntimeError("linalg.solve: Vector broadcasting of the left hand side is not "
                           "supported for left=False. In this case linalg.solve is equivalent "
                           "to B / A.squeeze(-1)")
    no_half_lu(A)
    lu, pivots, info, _ = factor(A)
    x = lu_solve(lu, pivots, np.broadcast_to(b, (*batch, *b.shape[-2:])), left, False)
    if vector_case:
        x = x[..., 0]
    out = record(_laid_out(x.astype(A._data.dtype, copy=False), left), LinalgSolveExBackward0,
                 (A, B), save={"A": A, "LU": Tensor._make(lu), "pivots": Tensor._make(pivots)},
                 output_name="result", left=left, vector_case=vector_case)
    return out, Tensor._make(info)


@parses('linalg_solve(Tensor A, Tensor B, *, bool left = True, Tensor out = None)')
def solve(A, B, *, left=True):
    """The solution ``X`` of ``A X = B`` (``X A = B`` for ``left=False``); torch's
    ``LinAlgError`` for a singular ``A``."""
    out, info = _solve_ex(A, B, left)
    raise_if_singular(info._data, "torch.linalg.solve", A.dim() == 2)
    return out


@parses('linalg_solve_ex(Tensor A, Tensor B, *, bool left = True, bool check_errors = False)')
def solve_ex(A, B, *, left=True, check_errors=False):
    """``(result, info)``: the solution and, per matrix, 0 or the index of a zero pivot."""
    out, info = _solve_ex(A, B, left)
    if check_errors:
        raise_if_singular(info._data, "torch.linalg.solve_ex", A.dim() == 2)
    return return_types.linalg_solve_ex((out, info))


class LinalgSolveExBackward0(Node):
    """X = A^{-1} B: gB = A^{-H} gX, gA = -gB X^H (X^H gB for left=False)"""

    def backward(self, grad):
        need_a, need_b = self.needs_input_grad
        vec, left = self.vector_case, self.left
        g = grad.unsqueeze(-1) if vec else grad
        if fused():
            data = lu_solve(self.saved("LU")._data, self.saved("pivots")._data, g._data, left,
                            True)
            g_b = Tensor._make(data.astype(g._data.dtype, copy=False))
        else:  # a new solve, so that the gradient's own gradient reaches A
            g_b = solve(self.saved("A").mH, g, left=left)
        g_a = None
        if need_a:
            x = self.saved("result")
            x = x.unsqueeze(-1) if vec else x
            g_a = -g_b.matmul(x.mH) if left else -x.mH.matmul(g_b)
        return g_a, ((g_b.squeeze(-1) if vec else g_b) if need_b else None)

    def jvp(self, t_a, t_b):
        """dX = A^{-1} (dB - dA X) (torch's linalg_solve_jvp)"""
        vec, left = self.vector_case, self.left
        x = self.result.unsqueeze(-1) if vec else self.result
        rhs = None
        if t_b is not None:
            rhs = t_b.unsqueeze(-1) if vec else t_b
        if t_a is not None:
            r = t_a.matmul(x) if left else x.matmul(t_a)
            rhs = -r if rhs is None else rhs - r
        a = Tensor._make(self.inputs[0]._data)
        dx = solve(a, rhs, left=left)
        return dx.squeeze(-1) if vec else dx
