"""Products of vectors and matrices: dot, mv, mm, and matmul choosing between them."""

from __future__ import annotations

import numpy as np

from minigrad._ops._core import record
from minigrad.autograd import derivatives as D


def _check_dtypes(a, b, what="expected m1 and m2 to have the same dtype"):
    if a.dtype is not b.dtype:
        raise RuntimeError(f"{what}, but got: {a.dtype.name.replace('float32', 'float')} "
                           f"!= {b.dtype.name.replace('float32', 'float')}")


def dot(input, tensor):
    if input.dim() != 1 or tensor.dim() != 1:
        raise RuntimeError(f"1D tensors expected, but got {input.dim()}D and {tensor.dim()}D "
                           "tensors")
    if input.shape[0] != tensor.shape[0]:
        raise RuntimeError(
            f"inconsistent tensor size, expected tensor [{input.shape[0]}] and src "
            f"[{tensor.shape[0]}] to have the same number of elements, but got "
            f"{input.shape[0]} and {tensor.shape[0]} elements respectively")
    return record(np.dot(input._data, tensor._data), D.DotBackward0, (input, tensor),
                  save={"self": input, "tensor": tensor})


def mm(input, mat2):
    if input.dim() != 2:
        raise RuntimeError("self must be a matrix")
    if mat2.dim() != 2:
        raise RuntimeError("mat2 must be a matrix")
    (n, k), (k2, m) = input.shape, mat2.shape
    if k != k2:
        raise RuntimeError(f"mat1 and mat2 shapes cannot be multiplied ({n}x{k} and {k2}x{m})")
    _check_dtypes(input, mat2, "expected mat1 and mat2 to have the same dtype")
    return record(input._data @ mat2._data, D.MmBackward0, (input, mat2),
                  save={"self": input, "mat2": mat2})


def mv(input, vec):
    if input.dim() != 2 or vec.dim() != 1 or input.shape[1] != vec.shape[0]:
        raise RuntimeError(f"size mismatch, got input ({input.shape[0]}), mat "
                           f"({input.shape[0]}x{input.shape[1]}), vec ({vec.shape[0]})")
    return record(input._data @ vec._data, D.MvBackward0, (input, vec),
                  save={"self": input, "vec": vec})


def matmul(input, other):
    """Dispatch on dimensions like torch: 1-D@1-D dot, 2-D@1-D mv, 1-D@2-D and 2-D@2-D mm."""
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
    if db <= 2 and da > 2:
        # fold the batch into the rows: (b, n, k) @ (k, m) -> (b*n, k) @ (k, m)
        folded = input.reshape(-1, input.shape[-1])
        out = mm(folded, other if db == 2 else other.unsqueeze(1))
        shape = (*input.shape[:-1], other.shape[-1]) if db == 2 else tuple(input.shape[:-1])
        return out._unsafe_view(shape)
    raise NotImplementedError("minigrad's matmul supports 1-D and 2-D operands, and a batch of "
                              "matrices on the left")
