"""Products of vectors and matrices: dot, mv, mm, bmm, and matmul choosing between them.

Each product is linear in each factor, so its forward-mode rule is the product rule,
``d(a b) = da b + a db``, and its backward sends the gradient through the other factor,
transposed.
"""

from __future__ import annotations

import numpy as np

from minigrad._ops._core import check_same_shape_broadcast, cross_save, record
from minigrad.autograd.graph import Node

# The C++ element type names torch's mm prints in its dtype message.
_CPP_NAMES = {"float32": "float", "float64": "double", "float16": "c10::Half", "int64": "long int",
              "int32": "int", "int16": "short int", "int8": "signed char",
              "uint8": "unsigned char", "bool": "bool"}


def _short(d) -> str:
    return d.legacy_name.removesuffix("Tensor")  # Float, Double, Long...


def dot(input, tensor):
    if input.dim() != 1 or tensor.dim() != 1:
        raise RuntimeError(f"1D tensors expected, but got {input.dim()}D and {tensor.dim()}D "
                           "tensors")
    if input.dtype is not tensor.dtype:
        raise RuntimeError("dot : expected both vectors to have same dtype, but found "
                           f"{_short(input.dtype)} and {_short(tensor.dtype)}")
    if input.shape[0] != tensor.shape[0]:
        raise RuntimeError(
            f"inconsistent tensor size, expected tensor [{input.shape[0]}] and src "
            f"[{tensor.shape[0]}] to have the same number of elements, but got "
            f"{input.shape[0]} and {tensor.shape[0]} elements respectively")
    with np.errstate(invalid="ignore", over="ignore"):  # inf * 0 is nan, silently
        data = np.dot(input._data, tensor._data)
    return record(data, DotBackward0, (input, tensor),
                  save=cross_save(input, tensor, "self", "tensor"))


def _product_rule(op, inputs, t_self, t_other):
    """Forward mode of a product ``op(a, b)``: ``op(da, b) + op(a, db)``."""
    a, b = inputs
    left = None if t_self is None else op(t_self, b)
    right = None if t_other is None else op(a, t_other)
    return right if left is None else left if right is None else left + right


def column_major(t) -> bool:
    """Is this matrix stored column by column, like ``w.t()`` of a contiguous ``w``? (torch's
    test: strides ``(1, rows)``.)"""
    data = t._data
    return data.strides == (data.itemsize, data.itemsize * data.shape[0])


def mm_mat1_backward(grad, mat2, mat1_column_major: bool):
    """d(mat1 @ mat2)/dmat1 = grad @ mat2.T, computed, as torch does, in mat1's own layout:
    for a column-major mat1 as ``(mat2 @ grad.T).T``. Same numbers, but a gradient laid out
    like its input reaches ``.grad`` without a slow transposing copy (``nn.Linear``'s
    ``x @ w.t()``: after ``TBackward0`` the weight's gradient comes out contiguous)."""
    if mat1_column_major:
        return mat2.mm(grad.t()).t()
    return grad.mm(mat2.t())


def mm_mat2_backward(grad, mat1, mat2_column_major: bool):
    """d(mat1 @ mat2)/dmat2 = mat1.T @ grad, in mat2's layout (see ``mm_mat1_backward``)."""
    if mat2_column_major:
        return grad.t().mm(mat1).t()
    return mat1.t().mm(grad)


class DotBackward0(Node):
    """out = self . tensor, two vectors"""

    def backward(self, grad):
        return (grad * self.saved("tensor") if self.needs_input_grad[0] else None,
                grad * self.saved("self") if self.needs_input_grad[1] else None)

    def jvp(self, t_self, t_other):
        return _product_rule(lambda a, b: a.dot(b), self.inputs, t_self, t_other)


def mm(input, mat2):
    if input.dim() != 2:
        raise RuntimeError("self must be a matrix")
    if mat2.dim() != 2:
        raise RuntimeError("mat2 must be a matrix")
    (n, k), (k2, m) = input.shape, mat2.shape
    if k != k2:
        raise RuntimeError(f"mat1 and mat2 shapes cannot be multiplied ({n}x{k} and {k2}x{m})")
    if input.dtype is not mat2.dtype:
        raise RuntimeError("expected m1 and m2 to have the same dtype, but got: "
                           f"{_CPP_NAMES[input.dtype.name]} != {_CPP_NAMES[mat2.dtype.name]}")
    with np.errstate(invalid="ignore", over="ignore"):
        data = input._data @ mat2._data
    return record(data, MmBackward0, (input, mat2),
                  save=cross_save(input, mat2, "self", "mat2"),
                  self_column_major=column_major(input), mat2_column_major=column_major(mat2))


class MmBackward0(Node):
    """out = self @ mat2 for matrices"""

    def backward(self, grad):
        return (mm_mat1_backward(grad, self.saved("mat2"), self.self_column_major)
                if self.needs_input_grad[0] else None,
                mm_mat2_backward(grad, self.saved("self"), self.mat2_column_major)
                if self.needs_input_grad[1] else None)

    def jvp(self, t_self, t_other):
        return _product_rule(lambda a, b: a.mm(b), self.inputs, t_self, t_other)


def mv(input, vec):
    if input.dim() == 0:  # torch sizes the result from input.size(0) before checking
        raise IndexError("Dimension specified as 0 but tensor has no dimensions")
    if input.dim() != 2 or vec.dim() != 1:
        raise RuntimeError(f"vector + matrix @ vector expected, got 1, {input.dim()}, "
                           f"{vec.dim()}")
    if input.shape[1] != vec.shape[0]:
        raise RuntimeError(f"size mismatch, got input ({input.shape[0]}), mat "
                           f"({input.shape[0]}x{input.shape[1]}), vec ({vec.shape[0]})")
    if input.dtype is not vec.dtype:  # torch computes mv as addmv(out, mat, vec)
        out, a, b = _short(vec.dtype), _short(input.dtype), _short(vec.dtype)
        raise RuntimeError(f"addmv input tensors must have the same dtype, but got {out}, {a}, "
                           f"and {b}")
    with np.errstate(invalid="ignore", over="ignore"):
        data = input._data @ vec._data
    return record(data, MvBackward0, (input, vec),
                  save=cross_save(input, vec, "self", "vec"))


class MvBackward0(Node):
    """out = self @ vec, a matrix times a vector"""

    def backward(self, grad):
        return (grad.unsqueeze(1) * self.saved("vec").unsqueeze(0) if self.needs_input_grad[0]
                else None,
                self.saved("self").t().mv(grad) if self.needs_input_grad[1] else None)

    def jvp(self, t_self, t_other):
        return _product_rule(lambda a, b: a.mv(b), self.inputs, t_self, t_other)


def bmm(input, mat2):
    """A batch of matrix products: ``(b, n, k) @ (b, k, m)``."""
    if input.dim() != 3:
        raise RuntimeError("batch1 must be a 3D tensor")
    if mat2.dim() != 3:
        raise RuntimeError("batch2 must be a 3D tensor")
    (b, _, k), (b2, k2, _) = input.shape, mat2.shape
    if (b2, k2) != (b, k):
        raise RuntimeError(f"Expected size for first two dimensions of batch2 tensor to be: "
                           f"[{b}, {k}] but got: [{b2}, {k2}].")
    if input.dtype is not mat2.dtype:
        raise RuntimeError(f"expected scalar type {_short(input.dtype)} but found "
                           f"{_short(mat2.dtype)}")
    with np.errstate(invalid="ignore", over="ignore"):
        data = np.matmul(input._data, mat2._data)
    return record(data, BmmBackward0, (input, mat2), save=cross_save(input, mat2, "self", "mat2"))


class BmmBackward0(Node):
    """out = self @ mat2 for batches of matrices"""

    def backward(self, grad):
        return (grad.bmm(self.saved("mat2").transpose(1, 2)) if self.needs_input_grad[0]
                else None,
                self.saved("self").transpose(1, 2).bmm(grad) if self.needs_input_grad[1]
                else None)

    def jvp(self, t_self, t_other):
        return _product_rule(lambda a, b: a.bmm(b), self.inputs, t_self, t_other)


def _should_fold(input, other) -> bool:
    """torch's should_fold: fold the batch of the operand with >= 3 dims into the rows of one
    mm or mv when the other operand (<= 2 dims) requires grad, so that its gradient is one
    product, or when the batch folds without a copy. With the batch on the right, torch
    folds ``other.mT`` and transposes back."""
    transpose = other.dim() > input.dim()
    big, small = (np.swapaxes(other._data, -1, -2), input) if transpose else (input._data, other)
    if big.ndim < 3 or small.dim() > 2:
        return False
    if small.requires_grad:
        return True
    if input.dim() == 2:  # the result of mm would need a transposed copy
        return False
    strides, shape = big.strides, big.shape
    return big.size == 0 or all(strides[i] == strides[i + 1] * shape[i + 1]
                                for i in range(big.ndim - 2))


def _folded(input, other):
    """``(b, n, k) @ (k, m)`` as ``(b*n, k) @ (k, m)``; ``a @ B`` as ``(B.mT @ a.T).mT``."""
    transpose = other.dim() > input.dim()
    big = other.mT if transpose else input
    small = (input.t() if input.dim() == 2 else input) if transpose else other
    rows = tuple(big.shape[:-1])
    folded = big.reshape(int(np.prod(rows, dtype=np.int64)), big.shape[-1])
    if small.dim() == 1:
        return mv(folded, small)._unsafe_view(rows)
    out = mm(folded, small)._unsafe_view((*rows, small.shape[1]))
    return out.mT.contiguous() if transpose else out


def _batched(input, other):
    """torch's general matmul path: broadcast the batch dims, flatten them, bmm, reshape (a
    1-D operand is a matrix of one row or column)."""
    da, db = input.dim(), other.dim()
    n, k = (input.shape[-2] if da > 1 else 1), input.shape[-1]
    k2, m = (other.shape[-2], other.shape[-1]) if db > 1 else (other.shape[0], 1)
    check_same_shape_broadcast(np.broadcast_to(0, input.shape[:-2]),
                               np.broadcast_to(0, other.shape[:-2]))
    batch = np.broadcast_shapes(input.shape[:-2], other.shape[:-2])
    count = int(np.prod(batch, dtype=np.int64))
    left = input.expand(*batch, n, k).reshape(count, n, k)
    if db == 1:
        right = other.expand(*batch, k2).reshape(count, k2).unsqueeze(2)
        out = bmm(left, right).squeeze(-1)
    else:
        out = bmm(left, other.expand(*batch, k2, m).reshape(count, k2, m))
    return out._unsafe_view((*batch, *((n,) if da > 1 else ()), *((m,) if db > 1 else ())))


def matmul(input, other):
    """Dispatch on dimensions like torch: 1-D@1-D dot, 2-D@1-D mv, 1-D@2-D and 2-D@2-D mm,
    then a batch folded into one mm or mv, else broadcast batches and bmm."""
    da, db = input.dim(), other.dim()
    if da == 0 or db == 0:
        raise RuntimeError(f"both arguments to matmul need to be at least 1D, but they are "
                           f"{da}D and {db}D")
    if da == 1 and db == 1:
        return dot(input, other)
    if da == 2 and db == 1:
        return mv(input, other)
    if da == 1 and db == 2:
        if input.shape[0] != other.shape[0]:
            raise RuntimeError(f"mat1 and mat2 shapes cannot be multiplied (1x{input.shape[0]} "
                               f"and {other.shape[0]}x{other.shape[1]})")
        return mm(input.unsqueeze(0), other)._squeeze_dims((0,))
    if da == 2 and db == 2:
        return mm(input, other)
    if _should_fold(input, other):
        return _folded(input, other)
    if da == 3 and db == 3 and input.shape[0] != other.shape[0]:
        # a batch of one that requires grad is dropped: its gradient is then one mm
        if input.shape[0] == 1 and input.requires_grad:
            return matmul(input.squeeze(0), other)
        if other.shape[0] == 1 and other.requires_grad:
            return matmul(input, other.squeeze(0))
    return _batched(input, other)
