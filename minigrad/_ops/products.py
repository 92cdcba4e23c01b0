"""More products: tensordot, inner, kron, cross, vdot, addmv, baddbmm, addbmm, matrix_power
and cartesian_prod.

``tensordot``, ``inner`` and ``kron`` are composites in torch, built the same way here so the
graphs are torch's: tensordot permutes both operands, reshapes them to matrices and calls
``mm`` (``dot`` when nothing is left over), inner is a tensordot over the last dims, kron
multiplies two ``_unsafe_view``s with interleaved size-1 dims. ``cross`` (torch's
linalg_cross, LinalgCrossBackward0), ``vdot`` (VdotBackward0) and the fused
``beta * input + alpha * product`` ops (AddmvBackward0, BaddbmmBackward0, AddbmmBackward0)
have nodes of their own, with derivatives.yaml's formulas.
"""

from __future__ import annotations

import numpy as np

from minigrad import _dtype, _layout
from minigrad._numeric import fma, torch_fuses
from minigrad._ops._args import parses
from minigrad._ops._core import cross_save, record, result_type, warn_at_caller
from minigrad._ops.inplace import apply_inplace
from minigrad._ops.inverse import inverse
from minigrad._ops.join import stack
from minigrad._ops.linalg import _product_rule, _short, bmm, dot, matmul, mm, outer
from minigrad._ops.pointwise import mul_scalar
from minigrad._ops.rearrange import broadcast_shape, meshgrid
from minigrad._tensor import _CPP_TYPE_NAMES, Tensor, _wrap_dim
from minigrad.autograd.graph import Node


# --- tensordot, inner -------------------------------------------------------------------------
def tensordot(a, b, dims=2, out=None):
    """Sums the products of ``a``'s dims ``dims[0]`` with ``b``'s ``dims[1]`` (an int ``n``:
    the last ``n`` of ``a`` with the first ``n`` of ``b``); the free dims of ``a`` then of
    ``b`` remain. torch.functional's argument handling, then ATen's tensordot (whose parser
    checks the dims lists and ``out``)."""
    if not isinstance(dims, tuple | list | Tensor | int):
        raise RuntimeError("tensordot expects dims to be int or tuple[list[int], list[int]] or "
                           f"list[list[int]] containing two lists, but got dims={dims}")
    if isinstance(dims, Tensor):
        if dims.numel() > 1:
            dims = (dims[0].tolist(), dims[1].tolist())
        else:
            dims = int(dims.item())
            if dims < 0:
                raise RuntimeError(f"tensordot expects dims >= 0, but got dims={dims}")
            dims = (list(range(-dims, 0)), list(range(dims)))
    if isinstance(dims, tuple | list):
        dims_a, dims_b = dims
    elif isinstance(dims, int):
        if dims < 0:
            raise RuntimeError(f"tensordot expects dims >= 0, but got dims={dims}")
        if dims > min(a.dim(), b.dim()):
            raise RuntimeError(f"tensordot expects dims < ndim_a or ndim_b, but got dims={dims}")
        dims_a, dims_b = list(range(-dims, 0)), list(range(dims))
    return _tensordot.as_function(a, b, dims_a, dims_b, **({} if out is None else {"out": out}))


@parses('tensordot(Tensor input, Tensor other, tuple of ints dims_self, tuple of ints dims_other, '
        '*, Tensor out = None)')
def _tensordot(input1, input2, dims1, dims2):
    if len(dims1) != len(dims2):
        raise RuntimeError("both dimension lists should have same length")
    if input1.dtype is not input2.dtype:
        raise RuntimeError("both inputs should have same dtype")
    csize, t1, t2 = 1, input1, input2
    for d1, d2 in zip(dims1, dims2):
        s1, s2 = input1.shape[d1], input2.shape[d2]
        if s2 == 1:  # a broadcast dim is summed right away
            t1 = t1.sum(d1, True)
        elif s1 == 1:
            t2 = t2.sum(d2, True)
        else:
            if s1 != s2:
                raise RuntimeError(f"contracted dimensions need to match, but first has size "
                                   f"{s1} in dim {d1} and second has size {s2} in dim {d2}")
            csize *= s1
    c1 = {_wrap_dim(d, input1.dim()) for d in dims1}
    c2 = {_wrap_dim(d, input2.dim()) for d in dims2}
    free1 = [i for i in range(input1.dim()) if i not in c1]
    free2 = [i for i in range(input2.dim()) if i not in c2]
    sizes = [t1.shape[i] for i in free1] + [t2.shape[i] for i in free2]
    size1 = int(np.prod([t1.shape[i] for i in free1]))
    size2 = int(np.prod([t2.shape[i] for i in free2]))
    t1 = t1.permute(*free1, *dims1)
    t2 = t2.permute(*dims2, *free2)
    if not free1 and not free2:  # two vectors: torch's dot
        return dot(t1.flatten(), t2.flatten()).reshape(sizes)
    return mm(t1.reshape(size1, csize), t2.reshape(csize, size2)).reshape(sizes)


@parses('inner(Tensor input, Tensor other, *, Tensor out = None)')
def inner(input, other):
    """Sums over the last dim of both (a number times a tensor for a 0-d one)."""
    if input.dim() == 0 or other.dim() == 0:
        return input * other
    if input.shape[-1] != other.shape[-1]:
        raise RuntimeError(f"inner() the last dimension must match on both input tensors but "
                           f"got shapes {list(input.shape)} and {list(other.shape)}")
    return _tensordot(input, other, [-1], [-1])


# --- kron --------------------------------------------------------------------------------------
@parses('kron(Tensor input, Tensor other, *, Tensor out = None)')
def kron(input, other):
    """The Kronecker product: each element of ``input`` times the whole of ``other``."""
    n = max(input.dim(), other.dim())
    pad_a, pad_b = n - input.dim(), n - other.dim()
    a_shape, b_shape, out_shape = [], [], []
    for i in range(n):
        sa = input.shape[i - pad_a] if i >= pad_a else 1
        sb = other.shape[i - pad_b] if i >= pad_b else 1
        a_shape += [sa, 1]
        b_shape += [1, sb]
        out_shape.append(sa * sb)
    product = input._unsafe_view(tuple(a_shape)) * other._unsafe_view(tuple(b_shape))
    return product._unsafe_view(tuple(out_shape))


# --- cross -------------------------------------------------------------------------------------
_cross_warned = []
CROSS_WARNING = ("Using torch.cross without specifying the dim arg is deprecated.\nPlease either "
                 "pass the dim explicitly or simply use torch.linalg.cross.\nThe default value "
                 "of dim will change to agree with that of linalg.cross in a future release.")


@parses('cross(Tensor input, Tensor other, int? dim = None, *, Tensor out = None)')
def cross(input, other, dim=None):
    """The cross product of 3-vectors along ``dim`` (without ``dim``: the first dim of size
    3, with torch's deprecation warning, once)."""
    if dim is None:
        if not _cross_warned:
            _cross_warned.append(True)
            warn_at_caller(CROSS_WARNING)  # torch warns from C++: at the learner's line
        dim = next((i for i, s in enumerate(input.shape) if s == 3), None)
        if dim is None:
            raise RuntimeError("no dimension of size 3 in input")
    return linalg_cross(input, other, dim)


def linalg_cross(input, other, dim=-1):
    if input.dim() != other.dim():
        raise RuntimeError("linalg.cross: inputs must have the same number of dimensions.")
    d = _wrap_dim(dim, input.dim())
    if input.shape[d] != 3 or other.shape[d] != 3:
        raise RuntimeError(f"linalg.cross: inputs dimension {dim} must have length 3. Got "
                           f"{input.shape[d]} and {other.shape[d]}")
    if input.dtype is not other.dtype:
        raise RuntimeError(f"expected scalar type {input.dtype.scalar_name} but found "
                           f"{other.dtype.scalar_name}")
    shape = broadcast_shape((input, other))
    x = np.moveaxis(np.broadcast_to(input._data, shape), d, 0)
    y = np.moveaxis(np.broadcast_to(other._data, shape), d, 0)
    if x.dtype in (np.float32, np.float64) and torch_fuses():
        def term(p, q, r, s):  # torch's kernel, compiled: fma(p, q, -(r * s))
            return fma(p, q, -(r * s), x.dtype)
    else:
        def term(p, q, r, s):
            return p * q - r * s
    with np.errstate(all="ignore"):
        parts = [term(x[1], y[2], x[2], y[1]), term(x[2], y[0], x[0], y[2]),
                 term(x[0], y[1], x[1], y[0])]
    data = np.ascontiguousarray(np.moveaxis(np.stack(parts), 0, d))
    return record(data, LinalgCrossBackward0, (input, other),
                  save=cross_save(input, other), dim=d, dim_arg=dim)


class LinalgCrossBackward0(Node):
    """``cross(other, grad)`` and ``cross(grad, self)``."""

    def backward(self, grad):
        need = self.needs_input_grad
        return (linalg_cross(self.saved("other"), grad, self.dim_arg) if need[0] else None,
                linalg_cross(grad, self.saved("self"), self.dim_arg) if need[1] else None)

    def jvp(self, t_self, t_other):
        return _product_rule(lambda a, b: linalg_cross(a, b, self.dim), self.inputs, t_self,
                             t_other)


# --- vdot --------------------------------------------------------------------------------------
@parses('vdot(Tensor input, Tensor other, *, Tensor out = None)')
def vdot(input, other):
    """``dot`` with the first vector conjugated (the same for real tensors), its own node."""
    if input.dim() != 1 or other.dim() != 1:
        raise RuntimeError(f"1D tensors expected, but got {input.dim()}D and {other.dim()}D "
                           "tensors")
    if input.dtype is not other.dtype:
        raise RuntimeError("dot : expected both vectors to have same dtype, but found "
                           f"{_short(input.dtype)} and {_short(other.dtype)}")
    data = dot(input.detach(), other.detach())._data
    return record(data, VdotBackward0, (input, other), save=cross_save(input, other))


class VdotBackward0(Node):
    """``grad * other`` and ``grad * self``."""

    def backward(self, grad):
        need = self.needs_input_grad
        return (grad * self.saved("other") if need[0] else None,
                grad * self.saved("self") if need[1] else None)

    def jvp(self, t_self, t_other):
        return _product_rule(vdot, self.inputs, t_self, t_other)


# --- addmv, baddbmm, addbmm: beta * input + alpha * product -----------------------------------
def _opmath(t):
    """``t`` in the dtype torch's CPU products compute in: float32 for float16 (the result is
    rounded once, at the end)."""
    return t.float() if t.dtype is _dtype.float16 else t


def _scaled_sum(bias, product, beta, alpha, dtype):
    """``beta * bias + alpha * product`` as addmm writes it; ``beta = 0`` ignores ``bias``
    (its nan and inf too), as torch's kernels."""
    bias = bias.astype(product.dtype, copy=False)  # (float16: the sum in float32 too)
    with np.errstate(invalid="ignore", over="ignore"):
        scaled = product if alpha == 1 else alpha * product
        if beta == 0:
            data = scaled + np.zeros_like(scaled)
        else:
            data = (bias if beta == 1 else beta * bias) + scaled
    return np.asarray(data).astype(dtype, copy=False)


def _times(t, scalar):
    """torch's maybe_multiply: ``t`` itself when the scalar is 1."""
    return t if scalar == 1 else mul_scalar(t, scalar)


@parses('addmv(Tensor input, Tensor mat, Tensor vec, *, Number beta = 1, Number alpha = 1, '
        'Tensor out = None)')
def addmv(input, mat, vec, *, beta=1, alpha=1):
    """``beta * input + alpha * (mat @ vec)``."""
    if mat.dim() != 2 or vec.dim() != 1 or input.dim() > 1:
        raise RuntimeError(f"vector + matrix @ vector expected, got {input.dim()}, {mat.dim()}, "
                           f"{vec.dim()}")
    if not (mat.shape[1] == vec.shape[0] and input.numel() in (mat.shape[0], 1)):
        size = input.shape[0] if input.dim() else input.numel()
        raise RuntimeError(f"size mismatch, got input ({size}), mat ({mat.shape[0]}x"
                           f"{mat.shape[1]}), vec ({vec.shape[0]})")
    if not input.dtype is mat.dtype is vec.dtype:
        raise RuntimeError(f"addmv input tensors must have the same dtype, but got "
                           f"{_short(input.dtype)}, {_short(mat.dtype)}, and {_short(vec.dtype)}")
    m, v = _opmath(mat.detach()), _opmath(vec.detach())
    product = mm(m, v.reshape(vec.shape[0], 1))._data.reshape(-1)
    bias = np.broadcast_to(input._data, product.shape)
    data = _scaled_sum(bias, product, beta, alpha, mat._data.dtype)
    return record(data, AddmvBackward0, (input, mat, vec), save=cross_save(mat, vec, "mat", "vec"),
                  beta=beta, alpha=alpha)


class AddmvBackward0(Node):
    """``grad * beta``, ``outer(grad, vec) * alpha`` and ``mat.t().mv(grad) * alpha``."""

    def backward(self, grad):
        need = self.needs_input_grad
        return (_times(grad, self.beta) if need[0] else None,
                _times(outer(grad, self.saved("vec")), self.alpha) if need[1] else None,
                _times(self.saved("mat").t().mv(grad), self.alpha) if need[2] else None)

    def jvp(self, t_self, t_mat, t_vec):
        _, mat, vec = self.inputs
        return _sum([None if t_self is None else _times(t_self, self.beta),
                     None if t_mat is None else _times(t_mat.mv(vec), self.alpha),
                     None if t_vec is None else _times(mat.mv(t_vec), self.alpha)])


# --- addr ---------------------------------------------------------------------------------------
def _addr_check(input, vec1, vec2, inplace):
    """torch's addr checks: two vectors, the bias broadcastable to (n, m) (in place: exactly
    that shape), integer tensors only with integer scalars."""
    for name, v in (("vec1", vec1), ("vec2", vec2)):
        if v.dim() != 1:
            raise RuntimeError(f"addr: Expected 1-D argument {name}, but got {v.dim()}-D")
    shape = (vec1.shape[0], vec2.shape[0])
    if inplace and input.dim() != 2:
        raise RuntimeError(f"2D tensor expected, got {input.dim()}D tensor for input")
    own = tuple(input.shape)
    for i in range(1, len(own) + 1):
        if own[-i] != 1 and (i > 2 or own[-i] != shape[-i]):
            target = shape[-i] if i <= 2 else 1
            raise RuntimeError(f"The expanded size of the tensor ({target}) must match the "
                               f"existing size ({own[-i]}) at non-singleton dimension "
                               f"{2 - i}.  Target sizes: {list(shape)}.  Tensor sizes: "
                               f"{list(own)}")
    return shape


def _addr_data(input, vec1, vec2, beta, alpha):
    shape = _addr_check(input, vec1, vec2, False)
    for name, scalar in (("beta", beta), ("alpha", alpha)):
        if not input.dtype.is_floating_point and isinstance(scalar, float):
            raise RuntimeError(f"For integral input tensors, argument {name} must not be a "
                               "floating point number.")
    dtype = result_type(input, vec1, vec2).numpy  # a 0-d input does not widen the vectors' type
    if dtype == np.bool_:  # torch's boolean addr: (beta and input) or (alpha and v1 v2')
        product = np.logical_and.outer(vec1._data, vec2._data) & bool(alpha)
        return np.broadcast_to(input._data, shape) & bool(beta) | product
    product = np.multiply.outer(_opmath(vec1.detach())._data, _opmath(vec2.detach())._data)
    bias = np.broadcast_to(input._data, shape)
    data = _scaled_sum(bias, product, beta, alpha, dtype)
    # laid out like the bias when it has the result's shape, as torch's kernel writes it
    return _layout.preserved(data, input._data) if input.shape == shape else data


@parses('addr(Tensor input, Tensor vec1, Tensor vec2, *, Number beta = 1, Number alpha = 1, '
        'Tensor out = None)',
        'addr(Number beta, Tensor input, Number alpha, Tensor vec1, Tensor vec2)|hidden',
        method=('addr(Tensor vec1, Tensor vec2, *, Number beta = 1, Number alpha = 1)',
                'addr(Number beta, Number alpha, Tensor vec1, Tensor vec2)|hidden'))
def addr(input, vec1, vec2, *, beta=1, alpha=1):
    """``beta * input + alpha * outer(vec1, vec2)``: one AddrBackward0 node."""
    data = _addr_data(input, vec1, vec2, beta, alpha)
    return record(data, AddrBackward0, (input, vec1, vec2),
                  save=cross_save(vec1, vec2, "vec1", "vec2"), beta=beta, alpha=alpha)


@parses('addr_(Tensor input, Tensor vec1, Tensor vec2, *, Number beta = 1, Number alpha = 1)')
def addr_(self, vec1, vec2, *, beta=1, alpha=1):
    _addr_check(self, vec1, vec2, True)
    data = _addr_data(self.detach(), vec1.detach(), vec2.detach(), beta, alpha)
    return apply_inplace(self, data.astype(self._data.dtype, copy=False), AddrBackward0,
                         (self, vec1, vec2), save=cross_save(vec1, vec2, "vec1", "vec2"),
                         beta=beta, alpha=alpha)


class AddrBackward0(Node):
    """``grad * beta``, ``grad.mv(vec2) * alpha`` and ``grad.t().mv(vec1) * alpha``, as
    derivatives.yaml writes them (each factor saved only when the other needs a gradient)."""

    def backward(self, grad):
        need = self.needs_input_grad
        return (_times(grad, self.beta) if need[0] else None,
                _times(grad.mv(self.saved("vec2")), self.alpha) if need[1] else None,
                _times(grad.t().mv(self.saved("vec1")), self.alpha) if need[2] else None)

    def jvp(self, t_self, t_vec1, t_vec2):
        _, vec1, vec2 = self.inputs
        out = _sum([None if t_self is None else _times(t_self, self.beta),
                    None if t_vec1 is None else _times(outer(t_vec1, vec2), self.alpha),
                    None if t_vec2 is None else _times(outer(vec1, t_vec2), self.alpha)])
        shape = (vec1.shape[0], vec2.shape[0])  # a broadcast bias's tangent alone
        return out if tuple(out.shape) == shape else out.expand(*shape)


def _sum(terms):
    present = [t for t in terms if t is not None]
    out = present[0]
    for t in present[1:]:
        out = out + t
    return out


@parses('baddbmm(Tensor input, Tensor batch1, Tensor batch2, *, Number beta = 1, '
        'Number alpha = 1, Tensor out = None)')
def baddbmm(input, batch1, batch2, *, beta=1, alpha=1):
    """``beta * input + alpha * (batch1 @ batch2)`` for batches of matrices."""
    if input.dtype is not batch1.dtype:
        names = [_CPP_TYPE_NAMES[t.dtype.name] for t in (input, batch1, batch2)]
        raise RuntimeError(f"Input dtypes must be the same, got: input {names[0]}, "
                           f"batch1: {names[1]}, batch2: {names[2]}")
    product = bmm(_opmath(batch1.detach()), _opmath(batch2.detach()))._data
    bias = input.detach().expand(*product.shape)._data
    data = _scaled_sum(bias, product, beta, alpha, batch1._data.dtype)
    return record(data, BaddbmmBackward0, (input, batch1, batch2),
                  save=cross_save(batch1, batch2, "batch1", "batch2"), beta=beta, alpha=alpha)


class BaddbmmBackward0(Node):
    """``grad * beta``, ``grad.bmm(batch2.transpose(1, 2)) * alpha`` and
    ``batch1.transpose(1, 2).bmm(grad) * alpha``."""

    def backward(self, grad):
        need = self.needs_input_grad
        return (_times(grad, self.beta) if need[0] else None,
                _times(grad.bmm(self.saved("batch2").transpose(1, 2)), self.alpha)
                if need[1] else None,
                _times(self.saved("batch1").transpose(1, 2).bmm(grad), self.alpha)
                if need[2] else None)

    def jvp(self, t_self, t1, t2):
        _, b1, b2 = self.inputs
        return _sum([None if t_self is None else _times(t_self, self.beta),
                     None if t1 is None else _times(t1.bmm(b2), self.alpha),
                     None if t2 is None else _times(b1.bmm(t2), self.alpha)])


@parses('addbmm(Tensor input, Tensor batch1, Tensor batch2, *, Number beta = 1, '
        'Number alpha = 1, Tensor out = None)')
def addbmm(input, batch1, batch2, *, beta=1, alpha=1):
    """``beta * input + alpha * sum_b(batch1[b] @ batch2[b])``: the batch summed away."""
    for name, t in (("batch1", batch1), ("batch2", batch2)):
        if t.dim() != 3:
            raise RuntimeError(f"{name} must be a 3D tensor")
    (b, n, k), (b2, k2, p) = batch1.shape, batch2.shape
    if b != b2:
        raise RuntimeError(f"batch1 and batch2 must have same number of batches, got {b} and "
                           f"{b2}")
    if k != k2:
        raise RuntimeError(f"Incompatible matrix sizes for bmm ({n}x{k} and {k2}x{p})")
    bias = input.detach().expand(n, p)._data
    if input.dtype is not batch2.dtype or batch1.dtype is not batch2.dtype:
        raise RuntimeError(f"self and mat2 must have the same dtype, but got "
                           f"{_short(input.dtype)} and {_short(batch2.dtype)}")
    with np.errstate(invalid="ignore", over="ignore"):
        product = np.matmul(_opmath(batch1)._data, _opmath(batch2)._data).sum(0)
    data = _scaled_sum(bias, product, beta, alpha, batch1._data.dtype)
    return record(data, AddbmmBackward0, (input, batch1, batch2),
                  save=cross_save(batch1, batch2, "batch1", "batch2"), beta=beta, alpha=alpha,
                  sizes=(b, n, p))


class AddbmmBackward0(Node):
    """The gradient of the summed batch is ``grad`` for every batch: ``grad.unsqueeze(0)
    .expand(b, n, p)``, then as baddbmm's."""

    def backward(self, grad):
        need = self.needs_input_grad
        g_self = _times(grad, self.beta) if need[0] else None
        g1 = g2 = None
        if need[1]:
            g1 = _times(grad.unsqueeze(0).expand(*self.sizes).bmm(
                self.saved("batch2").transpose(1, 2)), self.alpha)
        if need[2]:
            g2 = _times(self.saved("batch1").transpose(1, 2).bmm(
                grad.unsqueeze(0).expand(*self.sizes)), self.alpha)
        return g_self, g1, g2

    def jvp(self, t_self, t1, t2):
        _, b1, b2 = self.inputs
        return _sum([None if t_self is None else _times(t_self, self.beta),
                     None if t1 is None else _times(t1.bmm(b2).sum(0), self.alpha),
                     None if t2 is None else _times(b1.bmm(t2).sum(0), self.alpha)])


# --- matrix_power, cartesian_prod -------------------------------------------------------------
@parses('matrix_power(Tensor input, int n)')
def matrix_power(input, n):
    """``input @ input @ ... (n times)``, by repeated squaring, as torch's
    linalg_matrix_power: the same ``matmul`` calls, so the same graph (n=0: a clone with the
    identity copied in; n=1: a clone; n < 0: the same of the inverse)."""
    if input.dim() < 2:
        raise RuntimeError("linalg.matrix_power: The input tensor A must have at least 2 "
                           "dimensions.")
    rows, cols = input.shape[-2], input.shape[-1]
    if rows != cols:
        raise RuntimeError(f"linalg.matrix_power: A must be batches of square matrices, but they "
                           f"are {rows} by {cols} matrices")
    if n == -1:  # as torch: the inverse itself (column-major, as LAPACK writes it)
        return inverse(input)
    if n < 0:  # as torch: the inverse, raised to |n|
        input, n = inverse(input), -n
    if n == 0:
        eye = np.broadcast_to(np.eye(rows, dtype=input._data.dtype), input.shape)
        return input.clone(memory_format=_layout.contiguous_format).copy_(
            Tensor._make(np.ascontiguousarray(eye)))
    if n == 1:
        return input.clone(memory_format=_layout.contiguous_format)
    if n == 2:
        return matmul(input, input)
    if n == 3:
        return matmul(matmul(input, input), input)
    z = result = None
    while n > 0:
        bit, n = n % 2, n // 2
        z = input if z is None else matmul(z, z)
        if bit:
            result = z if result is None else matmul(result, z)
    return result


def cartesian_prod(*tensors):
    """Every combination of one element from each vector, one per row (itertools.product):
    the ``meshgrid`` grids flattened and stacked as columns, as torch builds it."""
    for i, t in enumerate(tensors):
        if not isinstance(t, Tensor):
            raise TypeError(f"expected Tensor as element {i} in argument 0, but got "
                            f"{type(t).__name__}")
    for t in tensors:
        if t.dim() != 1:
            raise RuntimeError(f"Expect a 1D vector, but got shape {list(t.shape)}")
    if len(tensors) == 1:
        return tensors[0]
    grids = meshgrid(*tensors, indexing="ij")
    return stack([g.flatten() for g in grids], 1)


# --- addmv_, baddbmm_, addbmm_: the same, written into input --------------------------------
def _into(self, result, node_cls, inputs, **attrs):
    """Write ``result`` (computed without history) into ``self`` with ``node_cls`` as its
    history, with torch's error when the shapes differ."""
    if result.shape != self.shape:
        raise RuntimeError(f"Bad in-place call: input tensor size {list(self.shape)} and output "
                           f"tensor size {list(result.shape)} should match")
    return apply_inplace(self, result._data, node_cls, inputs, **attrs)


@parses('addmv_(Tensor input, Tensor mat, Tensor vec, *, Number beta = 1, Number alpha = 1)')
def addmv_(self, mat, vec, *, beta=1, alpha=1):
    result = addmv(self.detach(), mat.detach(), vec.detach(), beta=beta, alpha=alpha)
    return _into(self, result, AddmvBackward0, (self, mat, vec),
                 save=cross_save(mat, vec, "mat", "vec"), beta=beta, alpha=alpha)


@parses('baddbmm_(Tensor input, Tensor batch1, Tensor batch2, *, Number beta = 1, '
        'Number alpha = 1)')
def baddbmm_(self, batch1, batch2, *, beta=1, alpha=1):
    result = baddbmm(self.detach(), batch1.detach(), batch2.detach(), beta=beta, alpha=alpha)
    return _into(self, result, BaddbmmBackward0, (self, batch1, batch2),
                 save=cross_save(batch1, batch2, "batch1", "batch2"), beta=beta, alpha=alpha)


@parses('addbmm_(Tensor input, Tensor batch1, Tensor batch2, *, Number beta = 1, '
        'Number alpha = 1)')
def addbmm_(self, batch1, batch2, *, beta=1, alpha=1):
    result = addbmm(self.detach(), batch1.detach(), batch2.detach(), beta=beta, alpha=alpha)
    return _into(self, result, AddbmmBackward0, (self, batch1, batch2),
                 save=cross_save(batch1, batch2, "batch1", "batch2"), beta=beta, alpha=alpha,
                 sizes=(batch1.shape[0], batch1.shape[1], batch2.shape[2]))
