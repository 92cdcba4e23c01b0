"""Products of vectors and matrices: dot, mv, mm, bmm, and matmul choosing between them.

Each product is linear in each factor, so its forward-mode rule is the product rule,
``d(a b) = da b + a db``, and its backward sends the gradient through the other factor,
transposed.
"""

from __future__ import annotations

import numpy as np

from minigrad import _dtype
from minigrad._numeric import opmath, quietly
from minigrad._ops._args import parses, type_name
from minigrad._ops._core import check_same_shape_broadcast, cross_save, fused, record
from minigrad._ops.indexing import view_backward
from minigrad._ops.shape import DiagonalBackwardBackward0, diagonal_data
from minigrad._ops.shape import t as _t
from minigrad._tensor import Tensor, _wrap_dim
from minigrad.autograd.graph import Node

# The C++ element type names torch's mm prints in its dtype message.
_CPP_NAMES = {"float32": "float", "float64": "double", "float16": "c10::Half", "int64": "long int",
              "int32": "int", "int16": "short int", "int8": "signed char",
              "uint8": "unsigned char", "bool": "bool"}


# NumPy's products in float32 for float16 arrays, rounded once, as torch's (``opmath``)
matmul_array, dot_array = opmath(np.matmul), opmath(np.dot)


def _short(d) -> str:
    return d.scalar_name  # Float, Double, Long...


def _no_bool(kernel: str, t) -> None:
    """torch's CPU products have no bool kernel, and name the one that is missing."""
    if t.dtype is _dtype.bool:
        raise NotImplementedError(f'"{kernel}" not implemented for \'Bool\'')


@parses('dot(Tensor input, Tensor tensor, *, Tensor out = None)')
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
    _no_bool("dot", input)
    with np.errstate(invalid="ignore", over="ignore"):  # inf * 0 is nan, silently
        data = dot_array(input._data, tensor._data)
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
    if fused():
        # the same products on the arrays, with no op to record; the result is still a t()
        # view where torch's is
        g, m = grad._data, mat2._data
        if mat1_column_major:  # (shape.t itself: the method would check its arguments again)
            return _t(Tensor._make(quietly(matmul_array, m, g.T)))
        return Tensor._make(quietly(matmul_array, g, m.T))
    if mat1_column_major:
        return mat2.mm(grad.t()).t()
    return grad.mm(mat2.t())


def mm_mat2_backward(grad, mat1, mat2_column_major: bool):
    """d(mat1 @ mat2)/dmat2 = mat1.T @ grad, in mat2's layout (see ``mm_mat1_backward``)."""
    if fused():
        g, m = grad._data, mat1._data
        if mat2_column_major:
            return _t(Tensor._make(quietly(matmul_array, g.T, m)))
        return Tensor._make(quietly(matmul_array, m.T, g))
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


@opmath
def matrix_product(a, b):
    """``a @ b`` for two matrices (NumPy arrays), row-major like torch's result.

    A speed detail, not part of the idea: for ``x @ w.t()`` (every linear layer: ``b`` is a
    row-major weight seen transposed) with a result wider than tall, OpenBLAS computes
    ``(w @ x.T).T`` faster than ``x @ w.T`` (64x784 @ 784x256: 277 against 333 us, single
    thread), even with the copy that makes the result row-major again. Each element is still
    one dot product of a row of ``a`` with a column of ``b``. Not in float64, where it is no
    faster (the same product: 580 against 570 us; 2.4 against 2.2 ms for 128x784 @ 784x512)."""
    (n, k), m = a.shape, b.shape[1]
    if (n < m and n * k * m >= 1 << 20 and a.dtype == np.float32 and a.flags.c_contiguous
            and b.T.flags.c_contiguous):
        return np.ascontiguousarray(np.matmul(b.T, a.T).T)
    return np.matmul(a, b)


@parses('mm(Tensor input, Tensor mat2, *, Tensor out = None)',
        'mm(Tensor input, Tensor mat2, torch.dtype out_dtype, *, Tensor out = None)|left_out',
        method=('mm(Tensor mat2)',))
def mm(input, mat2):
    a, b = input._data, mat2._data  # the checks read the arrays: this runs for every layer
    if a.ndim != 2:
        raise RuntimeError("self must be a matrix")
    if b.ndim != 2:
        raise RuntimeError("mat2 must be a matrix")
    (n, k), (k2, m) = a.shape, b.shape
    if k != k2:
        raise RuntimeError(f"mat1 and mat2 shapes cannot be multiplied ({n}x{k} and {k2}x{m})")
    if a.dtype != b.dtype and input.dtype is not mat2.dtype:
        raise RuntimeError("expected m1 and m2 to have the same dtype, but got: "
                           f"{_CPP_NAMES[input.dtype.name]} != {_CPP_NAMES[mat2.dtype.name]}")
    if a.dtype.kind == "b":
        _no_bool("addmm_impl_cpu_", input)
    data = quietly(matrix_product, a, b)  # inf * 0 is nan, silently
    return record(data, MmBackward0, (input, mat2),
                  save=cross_save(input, mat2, "self", "mat2"),
                  self_column_major=column_major(input), mat2_column_major=column_major(mat2),
                  operand_shapes=(input._data.shape, mat2._data.shape))


class MmBackward0(Node):
    """out = self @ mat2 for matrices"""

    def backward(self, grad):
        return (mm_mat1_backward(grad, self.saved("mat2"), self.self_column_major)
                if self.needs_input_grad[0] else None,
                mm_mat2_backward(grad, self.saved("self"), self.mat2_column_major)
                if self.needs_input_grad[1] else None)

    def jvp(self, t_self, t_other):
        return _product_rule(lambda a, b: a.mm(b), self.inputs, t_self, t_other)


@parses('mv(Tensor input, Tensor vec, *, Tensor out = None)')
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
    _no_bool("addmv_impl_cpu", input)
    with np.errstate(invalid="ignore", over="ignore"):
        data = matmul_array(input._data, vec._data)
    return record(data, MvBackward0, (input, vec),
                  save=cross_save(input, vec, "self", "vec"))


class MvBackward0(Node):
    """out = self @ vec, a matrix times a vector"""

    def backward(self, grad):
        return (outer(grad, self.saved("vec")) if self.needs_input_grad[0]
                else None,
                self.saved("self").t().mv(grad) if self.needs_input_grad[1] else None)

    def jvp(self, t_self, t_other):
        return _product_rule(lambda a, b: a.mv(b), self.inputs, t_self, t_other)


@parses('bmm(Tensor input, Tensor mat2, *, Tensor out = None)',
        'bmm(Tensor input, Tensor mat2, torch.dtype out_dtype, *, Tensor out = None)|left_out',
        method=('bmm(Tensor mat2)',))
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
    _no_bool("bmm", input)
    with np.errstate(invalid="ignore", over="ignore"):
        data = matmul_array(input._data, mat2._data)
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


@parses('matmul(Tensor input, Tensor other, *, Tensor out = None)')
def matmul(input, other):
    """Dispatch on dimensions like torch: 1-D@1-D dot, 2-D@1-D mv, 1-D@2-D and 2-D@2-D mm,
    then a batch folded into one mm or mv, else broadcast batches and bmm."""
    if not (isinstance(input, Tensor) and isinstance(other, Tensor)):
        # ``x @ 2``, through the operator (the function's parser refuses it first): Python
        # then raises its own TypeError, as with torch
        return NotImplemented
    da, db = input._data.ndim, other._data.ndim
    if da == 2 and db == 2:  # the usual case (a layer), first
        return mm(input, other)
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


@parses('outer(Tensor input, Tensor vec2, *, Tensor out = None)')
def outer(input, vec2):
    """The outer product of two vectors, as torch computes it: ``input.reshape(-1, 1) * vec2``
    (so its graph is MulBackward0 over a ViewBackward0)."""
    for name, v in (("self", input), ("vec2", vec2)):
        if v.dim() != 1:
            raise RuntimeError(f"outer: Expected 1-D argument {name}, but got {v.dim()}-D")
    return input.reshape(input.shape[0], 1) * vec2


# --- diagonals and triangles ------------------------------------------------------------------
@parses('diag_embed(Tensor input, int offset = 0, int dim1 = -2, int dim2 = -1)')
def diag_embed(input, offset=0, dim1=-2, dim2=-1):
    """A tensor with one more dim whose diagonal ``offset`` of the (dim1, dim2) planes holds
    ``input``'s last dim, zeros elsewhere."""
    n = input.dim() + 1
    d1, d2 = _wrap_dim(dim1, n), _wrap_dim(dim2, n)
    if d1 == d2:
        raise RuntimeError(f"diagonal dimensions cannot be identical {dim1}, {dim2}")
    size = (input._data.shape[-1] if input.dim() else 1) + abs(offset)
    rest = list(input._data.shape[:-1])
    shape = []
    for k in range(n):
        shape.append(size if k in (d1, d2) else rest.pop(0))
    data = np.zeros(shape, dtype=input._data.dtype)
    diagonal_data(data, offset, d1, d2)[...] = input._data
    return record(data, DiagEmbedBackward0, (input,), offset=offset, dim1=d1, dim2=d2,
                  dim1_arg=dim1, dim2_arg=dim2)


class DiagEmbedBackward0(Node):
    """out = self laid on a diagonal: the gradient is read back from that diagonal."""

    def backward(self, grad):
        # the dims as given (-2, -1 by default), as torch's formula passes them
        return grad.diagonal(self.offset, self.dim1_arg, self.dim2_arg)

    def jvp(self, t):
        return t.diag_embed(self.offset, self.dim1, self.dim2)


@parses('diag(Tensor input, int diagonal = 0, *, Tensor out = None)')
def diag(input, diagonal=0):
    """1-D: a matrix with ``input`` on a diagonal (torch's diag_embed); 2-D: a copy of one
    diagonal (torch's diagonal_copy, whose node is DiagonalBackward0_copy)."""
    if input.dim() == 1:
        return diag_embed(input, diagonal)  # dims -2, -1: what torch keeps
    if input.dim() != 2:
        raise RuntimeError(f"diag(): Supports 1D or 2D tensors. Got {input.dim()}D")
    data = diagonal_data(input._data, diagonal, 0, 1).copy()
    return record(data, DiagonalBackward0_copy, (input,), offset=diagonal,
                  self_shape=input._data.shape, dim1_arg=0, dim2_arg=1)


class DiagonalBackward0_copy(Node):  # noqa: N801 - torch's name
    """out = a copy of a diagonal of self: the gradient goes back onto that diagonal."""

    def backward(self, grad):
        offset = self.offset
        return view_backward(grad, self, lambda t: t.diagonal(offset),
                             DiagonalBackwardBackward0)

    def jvp(self, t):
        return t.diag(self.offset)


def _triangle(input, diagonal, np_fn, node_cls, name):
    if input.dim() < 2:
        raise RuntimeError(f"{name}: input tensor must have at least 2 dimensions")
    return record(np_fn(input._data, diagonal), node_cls, (input,), diagonal=diagonal)


@parses('tril(Tensor input, int diagonal = 0, *, Tensor out = None)')
def tril(input, diagonal=0):
    """A copy with the elements above diagonal ``diagonal`` of the last two dims zeroed."""
    return _triangle(input, diagonal, np.tril, TrilBackward0, "tril")


@parses('triu(Tensor input, int diagonal = 0, *, Tensor out = None)')
def triu(input, diagonal=0):
    """A copy with the elements below diagonal ``diagonal`` of the last two dims zeroed."""
    return _triangle(input, diagonal, np.triu, TriuBackward0, "triu")


class TrilBackward0(Node):
    def backward(self, grad):
        return grad.tril(self.diagonal)

    def jvp(self, t):
        return t.tril(self.diagonal)


class TriuBackward0(Node):
    def backward(self, grad):
        return grad.triu(self.diagonal)

    def jvp(self, t):
        return t.triu(self.diagonal)


# --- einsum -----------------------------------------------------------------------------------
_ELLIPSIS = 52  # labels are 0..51: A-Z, then a-z (torch's order)


def _subscript(c: str) -> int:
    return ord(c) - ord("A") if c.isupper() else ord(c) - ord("a") + 26


def _letter(s: int) -> str:
    return chr(s + ord("A")) if s < 26 else chr(s - 26 + ord("a"))


def _sublist_label(n) -> str:
    if n is Ellipsis:
        return "..."
    if 0 <= n < 52:
        return _letter(n)
    raise ValueError("einsum(): subscript in subscript list is not within the valid range "
                     "[0, 52)")


def _einsum_parse(equation, operands):
    """The labels of each operand (``_ELLIPSIS`` for ``...``), with torch's parse errors."""
    arrow = equation.find("->")
    lhs = equation if arrow < 0 else equation[:arrow]
    labels, current, seen_ellipsis, i = [[] for _ in operands], 0, False, 0
    while i < len(lhs):
        c = lhs[i]
        if c == ".":
            if seen_ellipsis:
                raise RuntimeError(f"einsum(): found '.' for operand {current} for which an "
                                   "ellipsis was already found")
            if lhs[i:i + 3] != "...":
                raise RuntimeError(f"einsum(): found '.' for operand {current} that is not part "
                                   "of any ellipsis")
            labels[current].append(_ELLIPSIS)
            seen_ellipsis, i = True, i + 2
        elif c == ",":
            current += 1
            if current >= len(operands):
                raise RuntimeError("einsum(): fewer operands were provided than specified in "
                                   "the equation")
            seen_ellipsis = False
        elif c != " ":
            if not (c.isascii() and c.isalpha()):
                raise RuntimeError(f"einsum(): invalid subscript given at index {i} in the "
                                   "equation string, subscripts must be in [a-zA-Z]")
            labels[current].append(_subscript(c))
        i += 1
    if current != len(operands) - 1:
        raise RuntimeError("einsum(): more operands were provided than specified in the equation")
    return arrow, lhs, labels


def einsum(*args):
    """Einstein summation, computed exactly as torch does (``at::native::einsum``, without a
    contraction path): each operand's diagonals are taken for repeated labels, missing labels
    unsqueezed, dims permuted to (output labels, contracted labels); operands are then
    multiplied pairwise left to right, each pair as permute -> reshape -> bmm -> view ->
    permute (torch's ``sumproduct_pair``). Built from minigrad's own ops, so the graph is
    torch's, node for node: for 'ij,jk->ik' it ends in ViewBackward0 over PermuteBackward0
    over ViewBackward0 over BmmBackward0. Where the graph can still differ: torch's mul and
    sum lay their result out like their (permuted) inputs, minigrad's in C order, so after an
    intermediate mul or a label summed away alone, a later reshape can be a ViewBackward0
    where torch's is a ReshapeAliasBackward0, or a copy (CloneBackward0 + UnsafeViewBackward0)
    where torch's is a view; values and gradients are the same. (With three or more operands
    torch may use opt_einsum's contraction order when that package is installed; minigrad
    always contracts left to right, as torch without it.)"""
    if len(args) < 2:
        raise ValueError("einsum(): must specify the equation string and at least one operand, "
                         "or at least one operand and its subscripts list")
    equation, operands = args[0], args[1:]
    if isinstance(equation, Tensor):  # the sublist format: x, [0, 1], y, [1, 2], [0, 2]
        equation = ",".join("".join(_sublist_label(n) for n in sub) for sub in args[1::2])
        if len(args) % 2 == 1:
            equation += "->" + "".join(_sublist_label(n) for n in args[-1])
            operands = args[:-1:2]
        else:
            operands = args[::2]
    if len(operands) == 1 and isinstance(operands[0], list | tuple):
        operands = tuple(operands[0])
    if not isinstance(equation, str):  # torch's parser, argument by argument
        raise TypeError(f"einsum(): argument 'equation' (position 1) must be str, not "
                        f"{type_name(equation)}")
    for i, op in enumerate(operands):
        if not isinstance(op, Tensor):
            raise TypeError(f"expected Tensor as element {i} in argument 1, but got "
                            f"{type_name(op)}")
    arrow, lhs, op_labels = _einsum_parse(equation, operands)
    for a, b in zip(operands, operands[1:]):
        if a.dtype is not b.dtype:
            raise RuntimeError(f"expected scalar type {_short(a.dtype)} but found "
                               f"{_short(b.dtype)}")
    count = [0] * 52
    ell_num_dim = 0
    for i, (op, labels) in enumerate(zip(operands, op_labels)):
        n = sum(1 for s in labels if s != _ELLIPSIS)
        has_ellipsis = n != len(labels)
        if has_ellipsis:
            ell_num_dim = max(ell_num_dim, op.dim() - n)
        for s in labels:
            if s != _ELLIPSIS:
                count[s] += 1
        if (n > op.dim()) if has_ellipsis else (n != op.dim()):
            what = ") is more than the number of dimensions (" if has_ellipsis else \
                ") does not match the number of dimensions ("
            tail = "" if has_ellipsis else " and no ellipsis was given"
            raise RuntimeError(f"einsum(): the number of subscripts in the equation ({n}{what}"
                               f"{op.dim()}) for operand {i}{tail}")

    # Where each label goes in the aligned shape: output labels first, then contracted ones.
    perm_of = [-1] * 52
    perm_index, ell_index, ell_in_output = 0, 0, False
    if arrow < 0:  # implicit output: the ellipsis, then the labels seen once, in order
        perm_index, ell_in_output = ell_num_dim, True
        for s in range(52):
            if count[s] == 1:
                perm_of[s] = perm_index
                perm_index += 1
    else:
        rhs, i = equation[arrow + 2:], 0
        while i < len(rhs):
            c = rhs[i]
            if c == ".":
                if ell_in_output:
                    raise RuntimeError("einsum(): found '.' for output but an ellipsis (...) "
                                       "was already found")
                if rhs[i:i + 3] != "...":
                    raise RuntimeError("einsum(): found '.' for output that is not part of any "
                                       "ellipsis (...)")
                ell_index, ell_in_output = perm_index, True
                perm_index += ell_num_dim
                i += 2
            elif c != " ":
                if not (c.isascii() and c.isalpha()):
                    raise RuntimeError(f"einsum(): invalid subscript given at index "
                                       f"{len(lhs) + 2 + i} in the equation string, subscripts "
                                       "must be in [a-zA-Z]")
                s = _subscript(c)
                if count[s] == 0 or perm_of[s] != -1:
                    why = " appears more than once in the output" if perm_of[s] > -1 else \
                        " does not appear in the equation for any input operand"
                    raise RuntimeError(f"einsum(): output subscript {c}{why}")
                perm_of[s] = perm_index
                perm_index += 1
            i += 1
    out_num_dim = perm_index
    if not ell_in_output:
        ell_index = perm_index
        perm_index += ell_num_dim
    for s in range(52):
        if count[s] > 0 and perm_of[s] == -1:
            perm_of[s] = perm_index
            perm_index += 1

    sizes = {"label": [1] * 52, "ellipsis": [1] * ell_num_dim}  # seen so far, for the checks
    ops = [_einsum_align(i, op, op_labels[i], perm_of, perm_index, ell_index, ell_num_dim, sizes)
           for i, op in enumerate(operands)]
    dim_counts = [sum(1 for op in ops if op.shape[d] != 1) for d in range(perm_index)]

    while len(ops) > 1:  # contract left to right
        a, b = ops.pop(0), ops.pop(0)
        sum_dims, a_sum, b_sum = [], [], []
        for d in range(out_num_dim, perm_index):
            if a.shape[d] != 1 and b.shape[d] != 1:
                dim_counts[d] -= 1
                if dim_counts[d] == 1:
                    sum_dims.append(d)
                    dim_counts[d] = 0
            elif dim_counts[d] == 1:
                if a.shape[d] != 1:
                    a_sum.append(d)
                    dim_counts[d] = 0
                elif b.shape[d] != 1:
                    b_sum.append(d)
                    dim_counts[d] = 0
        if a_sum:
            a = a.sum(tuple(a_sum), keepdim=True)
        if b_sum:
            b = b.sum(tuple(b_sum), keepdim=True)
        ops.insert(0, _sumproduct_pair(a, b, sum_dims))

    result = ops[0]
    if perm_index - out_num_dim > 0:
        if len(operands) > 1:
            return result.view(*result.shape[:out_num_dim])
        return result.sum(tuple(range(out_num_dim, perm_index)))
    return result


def _einsum_align(i, op, labels, perm_of, perm_index, ell_index, ell_num_dim, sizes):
    """One operand with its repeated labels' diagonals taken, missing labels unsqueezed and
    its dims permuted into the shared order; sizes are checked on the way, as torch does."""
    permutation = [-1] * perm_index
    dim = 0
    ndim = op.dim() - (len(labels) - 1)  # the dims the ellipsis covers, if any
    for s in labels:
        if s == _ELLIPSIS:
            for j in range(ell_num_dim - ndim, ell_num_dim):
                n, seen = op.shape[dim], sizes["ellipsis"]
                if n != 1:
                    if seen[j] != 1 and seen[j] != n:
                        raise RuntimeError(
                            f"einsum(): dimension {dim} covered by ellipsis in operand {i}has "
                            f"size {n} which does not broadcast with previously seen ellipsis "
                            f"with size {seen[j]} for the respective dimension")
                    seen[j] = n
                permutation[ell_index + j] = dim
                dim += 1
        elif permutation[perm_of[s]] == -1:
            n, seen = op.shape[dim], sizes["label"]
            if n != 1:
                if seen[s] != 1 and seen[s] != n:
                    raise RuntimeError(f"einsum(): subscript {_letter(s)} has size {n} for "
                                       f"operand {i} which does not broadcast with previously "
                                       f"seen size {seen[s]}")
                seen[s] = n
            permutation[perm_of[s]] = dim
            dim += 1
        else:  # a repeated label: take the diagonal, moved to where the label first was
            prev = permutation[perm_of[s]]
            if op.shape[dim] != op.shape[prev]:
                raise RuntimeError(f"einsum(): subscript {_letter(s)} is repeated for operand "
                                   f"{i} but the sizes don't match, {op.shape[dim]} != "
                                   f"{op.shape[prev]}")
            op = op.diagonal(0, prev, dim)
            order = list(range(op.dim() - 1))
            order.insert(prev, op.dim() - 1)
            op = op.permute(*order)  # torch's movedim(-1, prev)
    for k, p in enumerate(permutation):
        if p == -1:
            op = op.unsqueeze(dim)
            permutation[k] = dim
            dim += 1
    return op.permute(*permutation)


def _sumproduct_pair(left, right, sum_dims):
    """``(left * right).sum(sum_dims, keepdim=True)`` as torch computes it: permute both to
    (batch, rows, summed) and (batch, summed, columns), flatten, bmm, view and permute back
    (the operands swapped when that makes bmm's result come out in the output's order)."""
    if not sum_dims:
        return left * right
    lro, lo, ro = [], [], []
    lro_size = lo_size = ro_size = sum_size = 1
    for i in range(left.dim()):
        sl, sr = left.shape[i] != 1, right.shape[i] != 1
        if i in sum_dims:
            if sl and sr:
                sum_size *= left.shape[i]
            elif sl:
                left = left.sum(i, keepdim=True)
            elif sr:
                right = right.sum(i, keepdim=True)
        elif sl and sr:
            lro.append(i)
            lro_size *= left.shape[i]
        elif sl:
            lo.append(i)
            lo_size *= left.shape[i]
        else:
            ro.append(i)
            ro_size *= right.shape[i]
    if lo and ro and ro[-1] < lo[0]:  # the right's dims come first: swapped, bmm's result
        left, right, lo, ro = right, left, ro, lo  # is already in the output's order
        lo_size, ro_size = ro_size, lo_size
    out_size = ([left.shape[d] for d in lro] + [left.shape[d] for d in lo]
                + [1] * len(sum_dims) + [right.shape[d] for d in ro])
    lperm = lro + lo + list(sum_dims) + ro
    rperm = lro + list(sum_dims) + ro + lo
    operm = [0] * len(out_size)
    for i, d in enumerate(lro + lo + list(sum_dims) + ro):
        operm[d] = i
    left = left.permute(*lperm).reshape(lro_size, lo_size, sum_size)
    right = right.permute(*rperm).reshape(lro_size, sum_size, ro_size)
    return bmm(left, right).view(*out_size).permute(*operm)
