"""The fused operations behind ``nn.functional``: each records one node, as torch's kernels do.

``addmm`` (bias + matrix product, for ``nn.Linear``), ``mse_loss``, ``softmax`` and
``log_softmax`` (and ``nll_loss``, in ``nll.py``) could be built from basic ops, and autograd
would differentiate the pieces. torch has one kernel and one backward formula for each, so a model's
graph shows ``AddmmBackward0`` or ``MseLossBackward0``; recording the same single node keeps
minigrad's graphs identical to torch's. Each node is written right under its op.
"""

from __future__ import annotations

import numpy as np

from minigrad._numeric import cascade_sum, opmath, quietly, vec_row_sums
from minigrad._ops._args import parses
from minigrad._ops._core import record, result_type
from minigrad._ops.linalg import (
    _short,
    column_major,
    matrix_product,
    mm_mat1_backward,
    mm_mat2_backward,
)
from minigrad._ops.pointwise import div_scalar, mul_scalar, np_exp, np_log
from minigrad._tensor import _wrap_dim
from minigrad.autograd.graph import Node

_REDUCTIONS = ("none", "mean", "sum")


def _check_reduction(reduction):
    if reduction not in _REDUCTIONS:
        raise ValueError(f"{reduction} is not a valid value for reduction")


@parses('addmm(Tensor input, Tensor mat1, Tensor mat2, *, Number beta = 1, Number alpha = 1, '
        'Tensor out = None)',
        'addmm(Tensor input, Tensor mat1, Tensor mat2, torch.dtype out_dtype, *, Number beta = 1, '
        'Number alpha = 1, Tensor out = None)|left_out',
        method=('addmm(Tensor mat1, Tensor mat2, *, Number beta = 1, Number alpha = 1)',
                'addmm(Number beta, Number alpha, Tensor mat1, Tensor mat2)|hidden'))
def addmm(input, mat1, mat2, *, beta=1, alpha=1):
    """``beta * input + alpha * (mat1 @ mat2)``, ``input`` broadcast to the product's shape."""
    for name, m in (("mat1", mat1), ("mat2", mat2)):
        if m._data.ndim != 2:
            raise RuntimeError(f"{name} must be a matrix, got {m.dim()}-D tensor")
    (n, k), (k2, m) = mat1._data.shape, mat2._data.shape
    if k != k2:
        raise RuntimeError(f"mat1 and mat2 shapes cannot be multiplied ({n}x{k} and {k2}x{m})")
    if mat1.dtype is not mat2.dtype:
        raise RuntimeError(f"mat1 and mat2 must have the same dtype, but got "
                           f"{_short(mat1.dtype)} and {_short(mat2.dtype)}")
    if input.dtype is not mat2.dtype:
        raise RuntimeError(f"self and mat2 must have the same dtype, but got "
                           f"{_short(input.dtype)} and {_short(mat2.dtype)}")
    bias = input._data  # a layer's bias (m,) broadcasts as it is: no view to check it
    if bias.shape != (m,) and bias.shape != (n, m):
        bias = input.detach().expand(n, m)._data  # torch's error if it does not broadcast
    data = quietly(_addmm_data, bias, mat1._data, mat2._data, beta, alpha)  # inf * 0: nan
    save = {"mat1": mat1 if mat2.requires_grad else None,
            "mat2": mat2 if mat1.requires_grad else None}
    return record(data.astype(mat1._data.dtype, copy=False), AddmmBackward0,
                  (input, mat1, mat2), save=save, beta=beta, alpha=alpha,
                  mat1_column_major=column_major(mat1), mat2_column_major=column_major(mat2),
                  operand_shapes=(mat1._data.shape, mat2._data.shape))


@opmath
def _addmm_data(bias, a, b, beta, alpha):
    """``beta * bias + alpha * (a @ b)`` on arrays (float16: in float32, rounded once)."""
    product = matrix_product(a, b)
    if beta == 1 and alpha == 1:  # bias + product, written into the product (a new array)
        return np.add(bias, product, product)
    return (bias if beta == 1 else beta * bias) + (product if alpha == 1 else alpha * product)


class AddmmBackward0(Node):
    """out = beta * self + alpha * (mat1 @ mat2): ``nn.Linear``'s fused op, self the bias"""

    def backward(self, grad):
        g_self = g_mat1 = g_mat2 = None
        if self.needs_input_grad[0]:
            g_self = mul_scalar(grad, self.beta) if self.beta != 1 else grad
        if self.needs_input_grad[1]:
            g_mat1 = mm_mat1_backward(grad, self.saved("mat2"), self.mat1_column_major)
            g_mat1 = mul_scalar(g_mat1, self.alpha) if self.alpha != 1 else g_mat1
        if self.needs_input_grad[2]:
            g_mat2 = mm_mat2_backward(grad, self.saved("mat1"), self.mat2_column_major)
            g_mat2 = mul_scalar(g_mat2, self.alpha) if self.alpha != 1 else g_mat2
        return g_self, g_mat1, g_mat2

    def jvp(self, t_self, t_mat1, t_mat2):
        _, mat1, mat2 = self.inputs
        terms = [t_self if t_self is None or self.beta == 1 else t_self * self.beta,
                 None if t_mat1 is None else t_mat1.mm(mat2) * self.alpha,
                 None if t_mat2 is None else mat1.mm(t_mat2) * self.alpha]
        return _total(terms)


def _total(terms):
    present = [t for t in terms if t is not None]
    out = present[0]
    for t in present[1:]:
        out = out + t
    return out


def mse_loss(input, target, reduction="mean"):
    """The mean (or sum, or each) of ``(input - target) ** 2``; shapes must already agree."""
    _check_reduction(reduction)
    d = result_type(input, target)
    if not d.is_floating_point:
        raise NotImplementedError(f'"mse_cpu" not implemented for \'{_short(d)}\'')
    with np.errstate(invalid="ignore", over="ignore"):
        diff = input._data.astype(d.numpy) - target._data.astype(d.numpy)
        square = diff * diff
        data = reduce_loss(square, reduction)
    return record(np.asarray(data, dtype=d.numpy), MseLossBackward0, (input, target),
                  save={"self": input, "target": target}, reduction=reduction,
                  numel=square.size)


class MseLossBackward0(Node):
    """out = reduce((self - target)^2); d/dself = 2 (self - target) (/ numel for a mean),
    d/dtarget = -d/dself"""

    def backward(self, grad):
        x, target = self.saved("self"), self.saved("target")
        return (mse_loss_backward(grad, x, target, self.reduction)
                if self.needs_input_grad[0] else None,
                mse_loss_backward(grad, target, x, self.reduction)
                if self.needs_input_grad[1] else None)

    def jvp(self, t_self, t_target):
        a, b = self.inputs
        t = 2 * (a - b) * _total([t_self, None if t_target is None else -t_target])
        return t.mean() if self.reduction == "mean" else t.sum() if self.reduction == "sum" \
            else t


def mse_loss_backward(grad_output, input, target, reduction):
    """``norm * (input - target) * grad_output`` (norm 2, or 2 / numel for a mean): mse_loss's
    backward as the op torch uses (MseLossBackwardBackward0; the target's gradient is this
    op with ``input`` and ``target`` swapped)."""
    d = result_type(input, target)
    numel = input.numel()
    norm = 2.0 / max(numel, 1) if reduction == "mean" else 2.0
    with np.errstate(invalid="ignore", over="ignore"):
        diff = input._data.astype(d.numpy) - target._data.astype(d.numpy)
        data = np.asarray(norm, dtype=d.numpy) * diff * grad_output._data
    return record(data.astype(d.numpy, copy=False), MseLossBackwardBackward0,
                  (grad_output, input, target),
                  save={"grad_output": grad_output, "self": input, "target": target},
                  reduction=reduction)


class MseLossBackwardBackward0(Node):
    """out = norm (self - target) g: linear in g; d/dself = norm g, d/dtarget = -norm g
    (torch's mse_loss_double_backward and mse_loss_double_backward_grad_output)."""

    def backward(self, w):
        g, x, target = self.saved("grad_output"), self.saved("self"), self.saved("target")
        g_g = g_x = g_t = None
        if self.needs_input_grad[0]:
            if self.reduction == "none":
                g_g = mse_loss_backward(w, x, target, self.reduction)
            else:
                ones = g.new_zeros(g.shape) + 1
                g_g = (mse_loss_backward(ones, x, target, self.reduction) * w).sum()
        if self.needs_input_grad[1]:
            g_x = self._double(w * g, x)
        if self.needs_input_grad[2]:
            g_t = -self._double(w * g, target)
        return g_g, g_x, g_t

    def jvp(self, t_g, t_x, t_t):
        g, x, target = self.inputs
        out = None if t_g is None else mse_loss_backward(t_g, x, target, self.reduction)
        if t_x is not None or t_t is not None:
            t_diff = t_x if t_t is None else (-t_t if t_x is None else t_x - t_t)
            norm = 2.0 / max(x.numel(), 1) if self.reduction == "mean" else 2.0
            moved = mul_scalar(t_diff * g, norm)
            out = moved if out is None else out + moved
        return out

    def _double(self, grad, input):
        out = mul_scalar(grad, 2)
        return div_scalar(out, input.numel()) if self.reduction == "mean" else out


def reduce_loss(values: np.ndarray, reduction):
    """A loss's ``reduction``: the values, their sum, or their mean (nan for no values), each
    in the values' dtype; the fused losses (mse, bce, huber, smooth_l1) share it."""
    if reduction == "none":
        return values
    total = cascade_sum(values)  # in torch's order of additions
    if reduction == "sum":
        return total
    return quietly(np.divide, total, np.asarray(values.size, dtype=values.dtype))


def _softmax_input(input, dim, name):
    d = _wrap_dim(dim, input.dim())  # checked before the dtype, as torch does
    if not input.dtype.is_floating_point:
        last = input.dim() == 0 or d == input.dim() - 1
        kernel = f"{name}_lastdim_kernel_impl" if last else f"{name}_kernel_impl"
        raise NotImplementedError(f'"{kernel}" not implemented for \'{_short(input.dtype)}\'')
    return d


def _shifted(data, axis):
    """``data`` minus its max along ``axis``: the same softmax, but ``exp`` cannot overflow."""
    if data.size == 0:
        return data
    return data - data.max(axis=axis, keepdims=True)


@parses('softmax(Tensor input, int dim, torch.dtype? dtype = None, *, Tensor out = None)')
def softmax(input, dim, dtype=None):
    """``torch.softmax``, ``x.softmax`` and ``F.softmax`` (one implementation); with
    ``dtype`` the input is cast first, a node of its own as in torch."""
    input = input if dtype is None else input.to(dtype)
    d = _softmax_input(input, dim, "softmax")
    x = input._data
    if x.ndim == 0:
        data = np.ones_like(x)
    else:  # row-major whatever the input's layout, as torch's kernel writes it
        data = np.ascontiguousarray(quietly(_softmax_data, x, d))
    return record(data, SoftmaxBackward0, (input,), output_name="result", dim=d,
                  dim_arg=d if dim is None else dim)


@opmath
def _softmax_data(x, axis):
    """``exp(z) / sum(exp(z))`` for ``z = _shifted(x)``; over the last dim as torch's kernel
    computes it: its sums (``_row_sums``), and times ``1 / sum`` rather than divided by it."""
    e = np_exp(_shifted(x, axis))
    if _last(x, axis):
        return e * (x.dtype.type(1) / _row_sums(e, axis))
    return e / e.sum(axis=axis, keepdims=True)


def _last(data, axis) -> bool:
    """Is ``axis`` the last dim of a non-empty array? Then torch's softmax and log_softmax
    (and their backward) run their vectorised "lastdim" kernels, a row at a time."""
    return data.size > 0 and axis % data.ndim == data.ndim - 1


def _row_sums(data, axis):
    """Sums over ``axis`` (kept as a dim of 1) in the order torch's softmax kernels add them:
    over the last dim its vectorised order (``vec_row_sums``: it depends on the CPU), over
    another dim NumPy's."""
    if _last(data, axis):
        n = data.shape[-1]
        return vec_row_sums(data.reshape(-1, n)).reshape(data.shape[:-1] + (1,))
    return np.add.reduce(data, axis, keepdims=True)


class SoftmaxBackward0(Node):
    """out = exp(self) / sum(exp(self), dim); d/dself = out * (grad - sum(grad * out, dim))"""

    def backward(self, grad):
        # the dim as given (-1 stays -1), as torch's formula passes it
        return softmax_backward_data(grad, self.saved("result"), self.dim_arg)

    def jvp(self, t):
        if t.dim() == 0:
            return t * 0
        return self.result * (t - (t * self.result).sum(self.dim, keepdim=True))


@parses('log_softmax(Tensor input, int dim, torch.dtype? dtype = None, *, Tensor out = None)')
def log_softmax(input, dim, dtype=None):
    input = input if dtype is None else input.to(dtype)
    d = _softmax_input(input, dim, "log_softmax")
    x = input._data
    if x.ndim == 0:
        data = np.zeros_like(x)
    else:  # row-major whatever the input's layout, as torch's kernel writes it
        data = np.ascontiguousarray(quietly(_log_softmax_data, x, d))
    return record(data, LogSoftmaxBackward0, (input,), output_name="result", dim=d,
                  dim_arg=d if dim is None else dim)


@opmath
def _log_softmax_data(x, axis):
    """``z - log(sum(exp(z)))`` for ``z = _shifted(x)``; the two reductions called as the ufuncs
    that ``max`` and ``sum`` are (their Python wrappers cost more than a small batch's math)."""
    z = x - np.maximum.reduce(x, axis, None, None, True) if x.size else x
    return z - np_log(_row_sums(np_exp(z), axis))


class LogSoftmaxBackward0(Node):
    """out = self - log(sum(exp(self), dim)); d/dself = grad - exp(out) * sum(grad, dim)"""

    def backward(self, grad):
        return log_softmax_backward_data(grad, self.saved("result"), self.dim_arg)

    def jvp(self, t):
        if t.dim() == 0:
            return t * 0
        return t - (t * self.result.exp()).sum(self.dim, keepdim=True)


# softmax's and log_softmax's backward are ops of their own in torch (_softmax_backward_data,
# _log_softmax_backward_data), so a gradient made with create_graph is one node over the
# upstream gradient and the saved output, whose own backward is the second derivative.
def softmax_backward_data(grad_output, output, dim):
    """``output * (grad_output - sum(grad_output * output, dim))``"""
    g, y = grad_output._data, output._data
    with np.errstate(invalid="ignore", over="ignore"):
        # softmax of one number is 1, whatever the number: no gradient
        data = g * 0 if y.ndim == 0 else _softmax_grad(g, y, dim)
    return record(data.astype(g.dtype, copy=False), SoftmaxBackwardDataBackward0,
                  (grad_output, output), save={"grad_output": grad_output, "output": output},
                  dim=dim)


@opmath
def _softmax_grad(g, y, dim):
    return (g - _row_sums(g * y, dim)) * y


@opmath
def _log_softmax_grad(g, y, dim):
    return g - np_exp(y) * _row_sums(g, dim)


class SoftmaxBackwardDataBackward0(Node):
    """out = y (g - sum(g y)): d/dg is softmax's backward again; d/dy is torch's
    softmax_double_backward, g w - sum(y g) w - g sum(y w) for the incoming gradient w."""

    def backward(self, w):
        g, y = self.saved("grad_output"), self.saved("output")
        g_g = g_y = None
        if self.needs_input_grad[0]:
            g_g = softmax_backward_data(w, y, self.dim)
        if self.needs_input_grad[1]:
            if y.dim() == 0:
                g_y = w * 0
            else:
                g_y = (g * w - (y * g).sum(self.dim, keepdim=True) * w
                       - g * (y * w).sum(self.dim, keepdim=True))
        return g_g, g_y

    def jvp(self, t_g, t_y):
        g, y = self.inputs
        if y.dim() == 0:
            return y.new_zeros(())
        out = None if t_g is None else softmax_backward_data(t_g, y, self.dim)
        if t_y is not None:
            d = self.dim
            moved = t_y * (g - (g * y).sum(d, keepdim=True)) - y * (g * t_y).sum(d, keepdim=True)
            out = moved if out is None else out + moved
        return out


def log_softmax_backward_data(grad_output, output, dim):
    """``grad_output - exp(output) * sum(grad_output, dim)``"""
    g, y = grad_output._data, output._data
    with np.errstate(invalid="ignore", over="ignore"):
        data = g * 0 if y.ndim == 0 else _log_softmax_grad(g, y, dim)
    return record(data.astype(g.dtype, copy=False), LogSoftmaxBackwardDataBackward0,
                  (grad_output, output), save={"grad_output": grad_output, "output": output},
                  dim=dim)


class LogSoftmaxBackwardDataBackward0(Node):
    """out = g - exp(y) sum(g): d/dg is w - sum(w exp(y)); d/dy is -sum(g) exp(y) w."""

    def backward(self, w):
        g, y = self.saved("grad_output"), self.saved("output")
        if y.dim() == 0:
            return (w * 0 if self.needs_input_grad[0] else None,
                    w * 0 if self.needs_input_grad[1] else None)
        g_g = g_y = None
        if self.needs_input_grad[0]:
            g_g = w - (w * y.exp()).sum(self.dim, keepdim=True)
        if self.needs_input_grad[1]:
            g_y = -g.sum(self.dim, keepdim=True) * y.exp() * w
        return g_g, g_y

    def jvp(self, t_g, t_y):
        g, y = self.inputs
        if y.dim() == 0:
            return y.new_zeros(())
        out = None if t_g is None else log_softmax_backward_data(t_g, y, self.dim)
        if t_y is not None:
            moved = -(y.exp() * t_y) * g.sum(self.dim, keepdim=True)
            out = moved if out is None else out + moved
        return out


def div_by_count(input, count):
    """``input / count`` for a Python number, recorded as torch's ``DivBackward1`` (C++ code
    dividing by a size, as ``cross_entropy`` does for its mean)."""
    return div_scalar(input, count)
