"""The activation functions of ``nn.functional`` as torch's fused ops: leaky_relu, gelu,
silu, softplus and elu.

Each could be written with minigrad's basic ops, and autograd would differentiate the
pieces. torch has one kernel and one backward formula for each (tools/autograd/
derivatives.yaml), so a model's graph shows one ``GeluBackward0``, not a dozen nodes; minigrad
records the same single node. As for tanh and relu, the backward of most of them is an op of
its own in torch (``gelu_backward``, ``softplus_backward``...): without ``create_graph`` it is
one NumPy expression, with it one node (``GeluBackwardBackward0``...) whose backward is the
second derivative, written with minigrad ops as torch's C++ composes it, so the graph of a
second derivative is torch's too. silu is the exception: torch differentiates it with a
composite formula whenever grad mode is on, and minigrad does the same.

float32 inputs are computed in float64 and rounded once (as ``pointwise._like_torch`` does):
torch's vectorised kernels are within about an ulp of the exact value, NumPy's float32 math
is not always.
"""

from __future__ import annotations

import math

import numpy as np

from minigrad import _layout
from minigrad._numeric import cast, number, quietly
from minigrad._ops._args import parses
from minigrad._ops._core import fused, needs_grad, record
from minigrad._ops.elementary import cosh
from minigrad._ops.inplace import _saved_original, apply_inplace
from minigrad._ops.join import cat
from minigrad._ops.linalg import _short
from minigrad._ops.pointwise import (
    NotImplemented_,
    _like_torch,
    add,
    add_scalar,
    clip,
    div,
    div_scalar,
    logical_and,
    mul,
    mul_scalar,
    neg,
    pow,
    sigmoid_backward,
    sub,
    sub_scalar,
    threshold_backward,
    where,
)
from minigrad._tensor import Tensor, _wrap_dim
from minigrad.autograd import forward_grad, grad_mode, graph
from minigrad.autograd.graph import Node


def _floats(input, kernel):
    """torch's error for an integer or bool input, naming the op's CPU kernel."""
    if not input.dtype.is_floating_point:
        raise NotImplementedError(f'"{kernel}" not implemented for \'{_short(input.dtype)}\'')


def _wide(fn, *arrays):
    """``fn`` on float64 copies of ``arrays`` (float32 and float16 ones), rounded once to the
    first array's dtype; float64 as it is. No NumPy warnings: inf and nan are values."""
    dtype = arrays[0].dtype
    if dtype == np.float64:
        out = np.asarray(quietly(fn, *arrays))
    else:
        wide = [a.astype(np.float64) for a in arrays]
        out = np.asarray(quietly(fn, *wide)).astype(dtype)
    return _layout.elementwise_result(out, *arrays)  # laid out as torch's


def _result(data, grad_output):
    """A backward kernel's result, as a tensor of its own when nothing is recorded."""
    return Tensor._make(np.asarray(data, dtype=grad_output._data.dtype))


def _zeros_or(t, like):
    return like.new_zeros(like.shape) if t is None else t


def _sum(*terms):
    present = [t for t in terms if t is not None]
    out = present[0]
    for t in present[1:]:
        out = out + t
    return out


# --- leaky_relu -------------------------------------------------------------------------------
_LEAKY_INPLACE_ERROR = (
    "In-place leakyReLu backward calculation is triggered with a negative slope which is not "
    "supported. This is caused by calling in-place forward function with a negative slope, "
    "please call out-of-place version instead. File an issue at "
    "https://github.com/pytorch/pytorch if you do require supporting in-place leakRelu "
    "backward calculation with negative slope")


def _np_leaky(x, slope):
    return np.where(x > 0, x, x * number(slope, x.dtype)).astype(x.dtype, copy=False)


@parses('leaky_relu(Tensor input, Number negative_slope = 0.01, *, Tensor out = None)')
def leaky_relu(input, negative_slope=0.01):
    """``x`` where ``x > 0``, else ``negative_slope * x``."""
    _floats(input, "leaky_relu_cpu")
    data = quietly(_np_leaky, input._data, negative_slope)
    return record(data, LeakyReluBackward0, (input,), save={"self": input},
                  negative_slope=negative_slope)


@parses('leaky_relu_(Tensor input, Number negative_slope = 0.01)')
def leaky_relu_(input, negative_slope=0.01):
    """In place: the node keeps the result (``LeakyReluBackward1``); its backward reads the
    input's sign from the result, which a negative slope would flip."""
    _floats(input, "leaky_relu_cpu")
    data = quietly(_np_leaky, input._data, negative_slope)
    return apply_inplace(input, data, LeakyReluBackward1, (input,), output_name="result",
                         negative_slope=negative_slope)


class LeakyReluBackward0(Node):
    """d/dself = 1 where self > 0, else negative_slope: torch's leaky_relu_backward."""

    def backward(self, grad):
        return leaky_relu_backward(grad, self.saved("self"), self.negative_slope)

    def jvp(self, t):
        return leaky_relu_backward(t, self.inputs[0], self.negative_slope)


class LeakyReluBackward1(Node):
    """leaky_relu_: the same derivative, read from the result's sign."""

    def backward(self, grad):
        if self.negative_slope < 0:
            raise RuntimeError(_LEAKY_INPLACE_ERROR)
        return leaky_relu_backward(grad, self.saved("result"), self.negative_slope)

    def jvp(self, t):
        if self.negative_slope < 0:
            raise RuntimeError(_LEAKY_INPLACE_ERROR)
        return leaky_relu_backward(t, self.result, self.negative_slope)


def leaky_relu_backward(grad_output, input, negative_slope):
    """``grad_output`` where ``input > 0``, else ``grad_output * negative_slope``."""
    g = grad_output._data
    data = quietly(lambda: np.where(input._data > 0, g, g * number(negative_slope, g.dtype)))
    if fused():
        return _result(data, grad_output)
    return record(data.astype(g.dtype, copy=False), LeakyReluBackwardBackward0,
                  (grad_output, input), save={"self": input}, negative_slope=negative_slope)


class LeakyReluBackwardBackward0(Node):
    """out = leaky_relu_backward(g, self): linear in g, flat in self."""

    def backward(self, w):
        g_g = g_self = None
        if self.needs_input_grad[0]:
            g_g = leaky_relu_backward(w, self.saved("self"), self.negative_slope)
        if self.needs_input_grad[1]:
            g_self = w.new_zeros(w.shape)
        return g_g, g_self

    def jvp(self, t_g, t_self):
        g, x = self.inputs
        return leaky_relu_backward(_zeros_or(t_g, g), x, self.negative_slope)


# --- gelu -------------------------------------------------------------------------------------
_SQRT1_2 = math.sqrt(0.5)
_PDF_BETA = 2 / math.sqrt(math.pi) * _SQRT1_2 * 0.5  # 1 / sqrt(2 pi)
_TANH_BETA = math.sqrt(2) * (2 / math.sqrt(math.pi)) * 0.5  # sqrt(2 / pi)
_KAPPA = 0.044715
_erf = np.frompyfunc(math.erf, 1, 1)


def _np_erf(x):
    return np.asarray(_erf(x), dtype=np.float64)


def _gelu_kernel(x, approximate):
    if approximate == "tanh":
        inner = _TANH_BETA * (x + _KAPPA * x * x * x)
        return 0.5 * x * (1 + np.tanh(inner))
    return x * 0.5 * (1 + _np_erf(x * _SQRT1_2))


def _gelu_backward_kernel(g, x, approximate):
    if approximate == "tanh":
        x_sq = x * x
        inner = _TANH_BETA * (x + _KAPPA * x_sq * x)
        tanh_inner = np.tanh(inner)
        left_derivative = 0.5 * (1 + tanh_inner)
        right_derivative = 0.5 * x * (1 - tanh_inner * tanh_inner) * (
            _TANH_BETA * (1 + 3 * _KAPPA * x_sq))
        return g * (left_derivative + right_derivative)
    cdf = 0.5 * (1 + _np_erf(x * _SQRT1_2))
    pdf = _PDF_BETA * np.exp(-0.5 * x * x)
    return g * (cdf + x * pdf)


def _check_approximate(approximate):
    if approximate not in ("none", "tanh"):
        raise RuntimeError("approximate argument must be either none or tanh.")


@parses('gelu(Tensor input, *, str approximate = "none", Tensor out = None)')
def gelu(input, approximate="none"):
    """``x * Phi(x)`` (Phi the standard normal CDF), or its tanh approximation."""
    _check_approximate(approximate)
    _floats(input, "GeluKernelImpl")
    data = _wide(lambda x: _gelu_kernel(x, approximate), input._data)
    return record(data, GeluBackward0, (input,), save={"self": input}, approximate=approximate)


class GeluBackward0(Node):
    """d/dself = Phi(x) + x phi(x) (or the tanh form's derivative): torch's gelu_backward."""

    def backward(self, grad):
        return gelu_backward(grad, self.saved("self"), self.approximate)

    def jvp(self, t):
        return gelu_backward(t, self.inputs[0], self.approximate)


def gelu_backward(grad_output, input, approximate="none"):
    data = _wide(lambda g, x: _gelu_backward_kernel(g, x, approximate), grad_output._data,
                 input._data)
    if fused():
        return _result(data, grad_output)
    return record(data, GeluBackwardBackward0, (grad_output, input),
                  save={"grad_output": grad_output, "self": input}, approximate=approximate)


class GeluBackwardBackward0(Node):
    """out = g gelu'(x): d/dg = gelu'(x) (gelu_backward again), d/dx = g gelu''(x) (torch's
    gelu_double_backward)."""

    def backward(self, w):
        g, x = self.saved("grad_output"), self.saved("self")
        return (gelu_backward(w, x, self.approximate) if self.needs_input_grad[0] else None,
                gelu_double_backward(w, g, x, self.approximate)
                if self.needs_input_grad[1] else None)

    def jvp(self, t_g, t_x):
        g, x = self.inputs
        return _sum(None if t_g is None else gelu_backward(t_g, x, self.approximate),
                    None if t_x is None else gelu_double_backward(t_x, g, x, self.approximate))


def gelu_double_backward(ggI, gO, input, approximate):
    """``ggI * gO * gelu''(input)``, composed of minigrad ops in torch's order (so a third
    derivative's graph is torch's)."""
    if approximate == "tanh":
        inner = mul_scalar(add(input, mul_scalar(pow(input, 3), _KAPPA)), _TANH_BETA)
        tanh_inner = inner.tanh()
        cosh_inner = cosh(inner)  # C++ 1 / t: empty_like(t).fill_(1).div_(t), DivBackward0
        sech_inner = div(cosh_inner.new_ones(cosh_inner.shape), cosh_inner)
        f = mul_scalar(input, 0.5)
        g = sub(1, mul(tanh_inner, tanh_inner))
        h = mul_scalar(add_scalar(mul(mul_scalar(input, 3 * _KAPPA), input), 1), _TANH_BETA)
        f_prime_gh = mul(mul_scalar(g, 0.5), h)
        g_prime = mul(mul(mul_scalar(sech_inner, 2), mul(neg(sech_inner), tanh_inner)), h)
        g_prime_fh = mul(mul(f, h), g_prime)
        h_prime = mul_scalar(mul_scalar(input, 6 * _KAPPA), _TANH_BETA)
        h_prime_fg = mul(mul(f, g), h_prime)
        total = add(add(mul_scalar(f_prime_gh, 2), g_prime_fh), h_prime_fg)
        return mul(mul(ggI, gO), total)
    input_sq = mul(input, input)
    pdf = mul_scalar(mul_scalar(input_sq, -0.5).exp(), _PDF_BETA)
    return mul(mul(ggI, gO), sub(mul_scalar(pdf, 2), mul(input_sq, pdf)))


# --- silu -------------------------------------------------------------------------------------
@parses('silu(Tensor input, *, Tensor out = None)')
def silu(input):
    """``x * sigmoid(x)``."""
    _floats(input, "silu_cpu")
    data = _wide(lambda x: x / (1 + np.exp(-x)), input._data)
    return record(data, SiluBackward0, (input,), save={"self": input})


@parses('silu_(Tensor input)')
def silu_(input):
    _floats(input, "silu_cpu")
    data = _wide(lambda x: x / (1 + np.exp(-x)), input._data)
    return apply_inplace(input, data, SiluBackward0, (input,),
                         save={"self": _saved_original(input, True)})


class SiluBackward0(Node):
    """d/dself = s (1 + x (1 - s)), s = sigmoid(x). With grad mode on (create_graph) torch
    computes it from differentiable ops (infinitely_differentiable_silu_backward), so the
    gradient's graph is SigmoidBackward0, MulBackward0... as here; without, one kernel."""

    def backward(self, grad):
        return silu_backward(grad, self.saved("self"))

    def jvp(self, t):
        return silu_backward(t, self.inputs[0])


def silu_backward(grad_output, input):
    if grad_mode.is_grad_enabled():
        s = input.sigmoid()
        # the right factor first, as torch's compiled C++ evaluates it (the order fixes the
        # nodes' sequence numbers, so the order a second backward adds gradients in)
        right = add_scalar(mul(input, sub(1.0, s)), 1.0)
        return mul(mul(grad_output, s), right)

    def kernel(g, x):
        s = 1 / (1 + np.exp(-x))
        return g * s * (1 + x * (1 - s))

    return _result(_wide(kernel, grad_output._data, input._data), grad_output)


# --- softplus ---------------------------------------------------------------------------------
def _softplus_kernel(x, beta, threshold):
    z = x * beta
    return np.where(z > threshold, x, np.log1p(np.exp(z)) / beta)


@parses('softplus(Tensor input, Number beta = 1, Number threshold = 20, *, Tensor out = None)')
def softplus(input, beta=1, threshold=20):
    """``log(1 + exp(beta x)) / beta``, or ``x`` itself where ``beta x > threshold``."""
    _floats(input, "softplus_cpu")
    data = _wide(lambda x: _softplus_kernel(x, beta, threshold), input._data)
    return record(data, SoftplusBackward0, (input,), save={"self": input}, beta=beta,
                  threshold=threshold)


class SoftplusBackward0(Node):
    """d/dself = sigmoid(beta x), or 1 where beta x > threshold: torch's softplus_backward."""

    def backward(self, grad):
        return softplus_backward(grad, self.saved("self"), self.beta, self.threshold)

    def jvp(self, t):
        return softplus_backward(t, self.inputs[0], self.beta, self.threshold)


def softplus_backward(grad_output, input, beta, threshold):
    def kernel(g, x):
        z = np.exp(x * beta)
        return np.where(x * beta > threshold, g, g * z / (z + 1))

    data = _wide(kernel, grad_output._data, input._data)
    if fused():
        return _result(data, grad_output)
    return record(data, SoftplusBackwardBackward0, (grad_output, input),
                  save={"grad_output": grad_output, "self": input}, beta=beta,
                  threshold=threshold)


class SoftplusBackwardBackward0(Node):
    """out = g sigmoid(beta x): d/dg is softplus_backward again, d/dx is torch's
    softplus_double_backward of ``w * g``."""

    def backward(self, w):
        g, x = self.saved("grad_output"), self.saved("self")
        g_g = g_x = None
        if self.needs_input_grad[0]:
            g_g = softplus_backward(w, x, self.beta, self.threshold)
        if self.needs_input_grad[1]:
            g_x = softplus_double_backward(mul(w, g), x, self.beta, self.threshold)
        return g_g, g_x

    def jvp(self, t_g, t_x):
        g, x = self.inputs
        return _sum(
            None if t_g is None else softplus_backward(t_g, x, self.beta, self.threshold),
            None if t_x is None else softplus_double_backward(mul(t_x, g), x, self.beta,
                                                              self.threshold))


def softplus_double_backward(grad, input, beta, threshold):
    """``sigmoid_backward(grad, sigmoid(beta x)) * (beta x < threshold) * beta``, torch's
    composition: d/dx sigmoid(beta x) = beta s (1 - s), zero past the threshold."""
    z = mul_scalar(input, beta)
    below = (z < threshold).to(grad.dtype)
    return mul_scalar(mul(sigmoid_backward(grad, z.sigmoid()), below), beta)


# --- elu --------------------------------------------------------------------------------------
_ELU_INPLACE_ERROR = (
    "In-place elu backward calculation is triggered with a negative slope which is not "
    "supported. This is caused by calling in-place forward function with a negative slope, "
    "please call out-of-place version instead.")


def _elu_kernel(x, alpha, scale, input_scale):
    return np.where(x <= 0, np.expm1(x * input_scale) * (alpha * scale), x * scale)


@parses('elu(Tensor input, Number alpha = 1, Number scale = 1, Number input_scale = 1, *, '
        'Tensor out = None)')
def elu(input, alpha=1.0, scale=1, input_scale=1):
    """``scale * x`` where ``x > 0``, else ``scale * alpha * (exp(input_scale * x) - 1)``."""
    _floats(input, "elu_cpu")
    data = _wide(lambda x: _elu_kernel(x, alpha, scale, input_scale), input._data)
    return record(data, EluBackward0, (input,), save={"self": input}, alpha=alpha, scale=scale,
                  input_scale=input_scale)


@parses('elu_(Tensor input, Number alpha = 1, Number scale = 1, Number input_scale = 1)')
def elu_(input, alpha=1.0, scale=1, input_scale=1):
    """In place: the node keeps the result (``EluBackward1``), from which the derivative on
    the negative side is ``input_scale * (result + alpha * scale)``."""
    _floats(input, "elu_cpu")
    data = _wide(lambda x: _elu_kernel(x, alpha, scale, input_scale), input._data)
    return apply_inplace(input, data, EluBackward1, (input,), output_name="result",
                         alpha=alpha, scale=scale, input_scale=input_scale)


class EluBackward0(Node):
    """d/dself = scale where x > 0, else alpha scale input_scale exp(input_scale x)."""

    def backward(self, grad):
        return elu_backward(grad, self.alpha, self.scale, self.input_scale, False,
                            self.saved("self"))

    def jvp(self, t):
        return elu_backward(t, self.alpha, self.scale, self.input_scale, False, self.inputs[0])


class EluBackward1(Node):
    """elu_: the same derivative, from the result."""

    def backward(self, grad):
        if self.alpha < 0:
            raise RuntimeError(_ELU_INPLACE_ERROR)
        return elu_backward(grad, self.alpha, self.scale, self.input_scale, True,
                            self.saved("result"))

    def jvp(self, t):
        if self.alpha < 0:
            raise RuntimeError(_ELU_INPLACE_ERROR)
        return elu_backward(t, self.alpha, self.scale, self.input_scale, True, self.result)


def elu_backward(grad_output, alpha, scale, input_scale, is_result, self_or_result):
    negcoef, poscoef = alpha * scale, scale

    def kernel(g, x):
        if is_result:
            negative = g * input_scale * (x + negcoef)
        else:
            negative = g * input_scale * negcoef * np.exp(x * input_scale)
        return np.where(x <= 0, negative, g * poscoef)

    data = _wide(kernel, grad_output._data, self_or_result._data)
    if fused():
        return _result(data, grad_output)
    return record(data, EluBackwardBackward0, (grad_output, self_or_result),
                  save={"grad_output": grad_output, "self_or_result": self_or_result},
                  alpha=alpha, scale=scale, input_scale=input_scale, is_result=is_result)


class EluBackwardBackward0(Node):
    """out = g elu'(x): d/dg is elu_backward again, d/dx torch's elu_double_backward."""

    def backward(self, w):
        g, x = self.saved("grad_output"), self.saved("self_or_result")
        g_g = g_x = None
        if self.needs_input_grad[0]:
            g_g = elu_backward(w, self.alpha, self.scale, self.input_scale, self.is_result, x)
        if self.needs_input_grad[1]:
            g_x = elu_double_backward(w, g, self.alpha, self.scale, self.input_scale,
                                      self.is_result, x)
        return g_g, g_x

    def jvp(self, t_g, t_x):
        g, x = self.inputs
        args = (self.alpha, self.scale, self.input_scale, self.is_result)
        return _sum(None if t_g is None else elu_backward(t_g, *args, x),
                    None if t_x is None else elu_double_backward(t_x, g, *args, x))


def elu_double_backward(grad, grad_output, alpha, scale, input_scale, is_result,
                        self_or_result):
    """Only the negative side, where the slope is exponential, has a second derivative."""
    negative = (self_or_result < 0).to(grad.dtype)
    scaled = mul_scalar(mul(grad, grad_output), input_scale)
    if is_result:
        return mul(scaled, negative)
    return mul(elu_backward(scaled, alpha, scale, input_scale, is_result, self_or_result),
               negative)


# --- the activations group's block --------------------------------------------------------------
# --- hardtanh, relu6 --------------------------------------------------------------------------
def _hardtanh_data(input, min_val, max_val, name):
    if input._data.dtype.kind == "b":
        raise RuntimeError(f"Bool inputs not supported for {name}")
    x = input._data
    # clip keeps x on a tie and nan as nan; a float bound of an integer tensor is truncated
    return clip(x, cast(min_val, x.dtype), cast(max_val, x.dtype))


@parses('hardtanh(Tensor input, Number min_val = -1, Number max_val = 1, *, '
        'Tensor out = None)')
def hardtanh(input, min_val=-1, max_val=1):
    """``x`` clamped to ``[min_val, max_val]``; its gradient is 0 at the bounds themselves."""
    data = _hardtanh_data(input, min_val, max_val, "hardtanh")
    return record(data, HardtanhBackward0, (input,), save={"self": input}, min_val=min_val,
                  max_val=max_val)


@parses('hardtanh_(Tensor input, Number min_val = -1, Number max_val = 1)')
def hardtanh_(input, min_val=-1, max_val=1):
    """In place: torch's node is HardtanhBackward0 still, keeping the input as it was (a
    clone)."""
    data = _hardtanh_data(input, min_val, max_val, "hardtanh")
    return apply_inplace(input, data, HardtanhBackward0, (input,),
                         save={"self": _saved_original(input, True)}, min_val=min_val,
                         max_val=max_val)


@parses('relu6(Tensor input)')
def relu6(input):
    """torch's relu6 is hardtanh(input, 0, 6): its node is HardtanhBackward0, bounds int."""
    return hardtanh(input, 0, 6)


@parses('relu6_(Tensor input)')
def relu6_(input):
    return hardtanh_(input, 0, 6)


class HardtanhBackward0(Node):
    """The gradient passes strictly inside the bounds: torch's hardtanh_backward."""

    def backward(self, grad):
        return hardtanh_backward(grad, self.saved("self"), self.min_val, self.max_val)

    def jvp(self, t):
        return hardtanh_backward(t, self.inputs[0], self.min_val, self.max_val)


def hardtanh_backward(grad_output, input, min_val, max_val):
    """``grad_output`` where ``min_val < input < max_val``, else +0 (nan passes, as torch's
    kernel tests ``x <= min_val || x >= max_val``)."""
    g, x = grad_output._data, input._data
    data = quietly(lambda: np.where((x <= min_val) | (x >= max_val), g.dtype.type(0), g))
    if fused():
        return _result(data, grad_output)
    return record(data.astype(g.dtype, copy=False), HardtanhBackwardBackward0,
                  (grad_output, input), save={"self": input}, min_val=min_val,
                  max_val=max_val)


class HardtanhBackwardBackward0(Node):
    """out = hardtanh_backward(g, self): linear in g, flat in self."""

    def backward(self, w):
        g_g = g_self = None
        if self.needs_input_grad[0]:
            g_g = hardtanh_backward(w, self.saved("self"), self.min_val, self.max_val)
        if self.needs_input_grad[1]:
            g_self = w.new_zeros(w.shape)
        return g_g, g_self

    def jvp(self, t_g, t_self):
        g, x = self.inputs
        return hardtanh_backward(_zeros_or(t_g, g), x, self.min_val, self.max_val)


# --- logsigmoid -------------------------------------------------------------------------------
@parses('log_sigmoid(Tensor input)')
def log_sigmoid(input):
    """``log(sigmoid(x)) = min(x, 0) - log1p(exp(-|x|))``, stable at both ends. As torch's
    kernel, it also makes ``buffer = exp(-|x|)``, which the node keeps for the backward."""
    _floats(input, "log_sigmoid_cpu")
    # (both row-major whatever the input's layout, as torch's kernel writes them)
    buffer = Tensor._make(_layout.row_major(_wide(lambda x: np.exp(-np.abs(x)), input._data)))
    data = _layout.row_major(
        _wide(lambda x: np.minimum(x, 0) - np.log1p(np.exp(-np.abs(x))), input._data))
    return record(data, LogSigmoidBackward0, (input,), save={"self": input, "buffer": buffer})


class LogSigmoidBackward0(Node):
    """d/dself = 1 - sigmoid(x), read from the buffer: torch's log_sigmoid_backward."""

    def backward(self, grad):
        return log_sigmoid_backward(grad, self.saved("self"), self.saved("buffer"))

    def jvp(self, t):
        return log_sigmoid_backward(t, self.inputs[0], self.buffer)


def log_sigmoid_backward(grad_output, input, buffer):
    """torch's CPU kernel: ``(max_deriv - sign * z / (1 + z)) * grad_output`` with
    ``z = exp(-|x|)``, ``max_deriv, sign = (1, 1)`` for ``x < 0``, else ``(0, -1)``."""
    def kernel(g, x, z):
        negative = x < 0
        return (np.where(negative, 1.0, 0.0) - np.where(negative, 1.0, -1.0) * (z / (1 + z))) * g

    data = _wide(kernel, grad_output._data, input._data, buffer._data)
    if fused():
        return _result(data, grad_output)
    return record(data, LogSigmoidBackwardBackward0, (grad_output, input),
                  save={"grad_output": grad_output, "self": input, "buffer": buffer})


class LogSigmoidBackwardBackward0(Node):
    """out = g (1 - sigmoid(x)): d/dg is log_sigmoid_backward again, d/dx torch's
    log_sigmoid_double_backward of ``w * g``."""

    def backward(self, w):
        g, x = self.saved("grad_output"), self.saved("self")
        g_g = g_x = None
        if self.needs_input_grad[0]:
            g_g = log_sigmoid_backward(w, x, self.saved("buffer"))
        if self.needs_input_grad[1]:
            g_x = log_sigmoid_double_backward(mul(w, g), x)
        return g_g, g_x

    def jvp(self, t_g, t_x):
        g, x = self.inputs
        return _sum(None if t_g is None else log_sigmoid_backward(t_g, x, self.buffer),
                    None if t_x is None else log_sigmoid_double_backward(mul(t_x, g), x))


def log_sigmoid_double_backward(grad, input):
    """``grad * (z - 1) * z`` with ``z = sigmoid(input)``, in torch's ops."""
    z = input.sigmoid()
    return mul(mul(grad, sub_scalar(z, 1)), z)


# --- selu, celu: elu with other constants ----------------------------------------------------
_SELU_ALPHA = 1.6732632423543772848170429916717
_SELU_SCALE = 1.0507009873554804934193349852946


@parses('selu(Tensor input)')
def selu(input):
    """``elu`` with torch's fixed alpha and scale: its node is EluBackward0."""
    return elu(input, _SELU_ALPHA, _SELU_SCALE, 1)


@parses('selu_(Tensor input)')
def selu_(input):
    return elu_(input, _SELU_ALPHA, _SELU_SCALE, 1)


def _celu_data(input, alpha):
    if alpha == 0:
        raise RuntimeError("ZeroDivisionError: alpha cannot be 0 for CELU")
    _floats(input, "elu_cpu")
    return _wide(lambda x: _elu_kernel(x, alpha, 1, 1.0 / alpha), input._data)


def _celu_input_scale(alpha):
    """torch's ``1.0 / alpha.toFloat()``: alpha rounded to float32 first."""
    return 1.0 / float(np.float32(alpha))


@parses('celu(Tensor input, Number alpha = 1.0)')
def celu(input, alpha=1.0):
    """``max(0, x) + min(0, alpha * (exp(x / alpha) - 1))``: elu with input_scale 1/alpha."""
    return record(_celu_data(input, alpha), CeluBackward0, (input,), save={"self": input},
                  alpha=alpha)


@parses('celu_(Tensor input, Number alpha = 1.0)')
def celu_(input, alpha=1.0):
    return apply_inplace(input, _celu_data(input, alpha), CeluBackward1, (input,),
                         output_name="result", alpha=alpha)


class CeluBackward0(Node):
    """``elu_backward(grad, alpha, 1, 1.0 / alpha, false, self)``."""

    def backward(self, grad):
        return elu_backward(grad, self.alpha, 1, _celu_input_scale(self.alpha), False,
                            self.saved("self"))

    def jvp(self, t):
        return elu_backward(t, self.alpha, 1, _celu_input_scale(self.alpha), False,
                            self.inputs[0])


class CeluBackward1(Node):
    """celu_: the same derivative, from the result (refused for a negative alpha)."""

    def backward(self, grad):
        if self.alpha < 0:
            raise RuntimeError(_ELU_INPLACE_ERROR)
        return elu_backward(grad, self.alpha, 1, _celu_input_scale(self.alpha), True,
                            self.saved("result"))

    def jvp(self, t):
        if self.alpha < 0:
            raise RuntimeError(_ELU_INPLACE_ERROR)
        return elu_backward(t, self.alpha, 1, _celu_input_scale(self.alpha), True,
                            self.result)


# --- mish -------------------------------------------------------------------------------------
_exp, _log1p, _tanh = map(_like_torch, (np.exp, np.log1p, np.tanh))


def _stepwise(fn):
    """``fn`` in the input's own dtype, each exp, log1p and tanh rounded once as torch's
    kernels round them (so ``exp(-100)`` is float32's subnormal, as in torch); float16 in
    float32, rounded at the end."""
    def kernel(*arrays):
        if arrays[0].dtype == np.float16:
            return kernel(*(a.astype(np.float32) for a in arrays)).astype(np.float16)
        return np.asarray(quietly(fn, *arrays)).astype(arrays[0].dtype, copy=False)

    return kernel


@_stepwise
def _np_mish(x):
    return x * _tanh(_log1p(_exp(x)))


@_stepwise
def _np_mish_backward(g, x):
    one = x.dtype.type(1)
    sigmoid = one / (one + _exp(-x))
    tanh_softplus = _tanh(_log1p(_exp(x)))
    return g * (tanh_softplus + x * sigmoid * (one - tanh_softplus * tanh_softplus))


@parses('mish(Tensor input)')
def mish(input):
    """``x * tanh(softplus(x))``."""
    _floats(input, "mish_cpu")
    data = _layout.elementwise_result(_np_mish(input._data), input._data)
    return record(data, MishBackward0, (input,), save={"self": input})


@parses('mish_(Tensor input)')
def mish_(input):
    _floats(input, "mish_cpu")
    return apply_inplace(input, _np_mish(input._data), MishBackward0, (input,),
                         save={"self": _saved_original(input, True)})


class MishBackward0(Node):
    """d/dself = tanh(sp) + x sigmoid(x) (1 - tanh(sp)^2), sp = softplus(x). With grad mode
    on, torch composes it from differentiable ops (infinitely_differentiable_mish_backward);
    without, one kernel."""

    def backward(self, grad):
        return mish_backward(grad, self.saved("self"))

    def jvp(self, t):
        return mish_backward(t, self.inputs[0])


def mish_backward(grad_output, input):
    if grad_mode.is_grad_enabled():
        sigmoid = input.sigmoid()
        tanh_softplus = input.exp().log1p().tanh()
        right = mul(mul(input, sigmoid), sub(1.0, mul(tanh_softplus, tanh_softplus)))
        return mul(grad_output, add(tanh_softplus, right))
    return _result(_np_mish_backward(grad_output._data, input._data), grad_output)


# --- hardsigmoid, hardswish -------------------------------------------------------------------
def _np_hardsigmoid(x):
    return clip(x + x.dtype.type(3), 0, 6) / x.dtype.type(6)


@parses('hardsigmoid(Tensor input, *, Tensor out = None)')
def hardsigmoid(input):
    """``relu6(x + 3) / 6``: a piecewise-linear sigmoid."""
    _floats(input, "hardsigmoid_cpu")
    return record(quietly(_np_hardsigmoid, input._data), HardsigmoidBackward0, (input,),
                  save={"self": input})


@parses('hardsigmoid_(Tensor input)')
def hardsigmoid_(input):
    _floats(input, "hardsigmoid_cpu")
    return apply_inplace(input, quietly(_np_hardsigmoid, input._data), HardsigmoidBackward0,
                         (input,), save={"self": _saved_original(input, True)})


class HardsigmoidBackward0(Node):
    """1/6 strictly between -3 and 3, else 0: torch's hardsigmoid_backward."""

    def backward(self, grad):
        return hardsigmoid_backward(grad, self.saved("self"))

    def jvp(self, t):
        return hardsigmoid_backward(t, self.inputs[0])


def hardsigmoid_backward(grad_output, input):
    """torch has no derivative for this backward op: with create_graph its node is
    NotImplemented, over the inputs that require grad (backward through it raises)."""
    g, x = grad_output._data, input._data
    data = quietly(lambda: np.where((x > -3) & (x < 3), g * g.dtype.type(1 / 6),
                                    g.dtype.type(0)))
    if fused():
        return _result(data, grad_output)
    inputs = tuple(t for t in (grad_output, input) if t.requires_grad)
    return record(data.astype(g.dtype, copy=False), NotImplemented_, inputs,
                  op="hardsigmoid_backward")


def _np_hardswish(x):
    return x * clip(x + x.dtype.type(3), 0, 6) / x.dtype.type(6)


@parses('hardswish(Tensor input, *, Tensor out = None)')
def hardswish(input):
    """``x * relu6(x + 3) / 6``."""
    _floats(input, "hardswish_cpu")
    return record(quietly(_np_hardswish, input._data), HardswishBackward0, (input,),
                  save={"self": input})


@parses('hardswish_(Tensor input)')
def hardswish_(input):
    _floats(input, "hardswish_cpu")
    return apply_inplace(input, quietly(_np_hardswish, input._data), HardswishBackward0,
                         (input,), save={"self": _saved_original(input, True)})


class HardswishBackward0(Node):
    """0 below -3, ``x / 3 + 1/2`` up to 3, 1 above: torch's hardswish_backward."""

    def backward(self, grad):
        return hardswish_backward(grad, self.saved("self"))

    def jvp(self, t):
        return hardswish_backward(t, self.inputs[0])


def hardswish_backward(grad_output, input):
    g, x = grad_output._data, input._data
    three, half = x.dtype.type(3), x.dtype.type(0.5)
    # torch's kernel: 0 up to -3 (included), then the slope, and 1 from 3 on (nan: 1)
    data = quietly(lambda: np.where(x <= -three, g.dtype.type(0),
                                    np.where(x < three, g * (x / three + half), g)))
    if fused():
        return _result(data, grad_output)
    return record(data.astype(g.dtype, copy=False), HardswishBackwardBackward0,
                  (grad_output, input), save={"grad_output": grad_output, "self": input})


def _hardswish_double(grad, grad_output, input):
    """``where(-3 < self < 3, grad * grad_output / 3.0, 0)``, in torch's ops."""
    inside = logical_and(input > -3.0, input < 3.0)
    return where(inside, div_scalar(mul(grad, grad_output), 3.0), input.new_zeros(()))


class HardswishBackwardBackward0(Node):
    """out = hardswish_backward(g, x): d/dg is hardswish_backward again, d/dx is
    ``g / 3`` strictly between -3 and 3."""

    def backward(self, w):
        g, x = self.saved("grad_output"), self.saved("self")
        return (hardswish_backward(w, x) if self.needs_input_grad[0] else None,
                _hardswish_double(w, g, x) if self.needs_input_grad[1] else None)

    def jvp(self, t_g, t_x):
        g, x = self.inputs
        return _sum(None if t_g is None else hardswish_backward(t_g, x),
                    None if t_x is None else _hardswish_double(t_x, g, x))


# --- threshold --------------------------------------------------------------------------------
def _threshold_data(input, threshold, value):
    x = input._data
    if x.dtype.kind == "b":
        raise NotImplementedError("\"threshold_cpu\" not implemented for 'Bool'")
    return np.where(x <= threshold, cast(value, x.dtype), x).astype(x.dtype)


@parses('threshold(Tensor input, Number threshold, Number value, *, Tensor out = None)')
def threshold(input, threshold, value):
    """``value`` where ``x <= threshold``, else ``x`` (relu is threshold(x, 0, 0))."""
    return record(quietly(_threshold_data, input, threshold, value), ThresholdBackward0,
                  (input,), save={"self": input}, threshold=threshold)


@parses('threshold_(Tensor input, Number threshold, Number value)')
def threshold_(input, threshold, value):
    """In place: ThresholdBackward1, keeping the input as it was (a clone)."""
    return apply_inplace(input, quietly(_threshold_data, input, threshold, value),
                         ThresholdBackward1, (input,),
                         save={"self": _saved_original(input, True)}, threshold=threshold)


def _threshold_backward(grad, input, threshold):
    """pointwise's threshold_backward; its bit trick on a 0-d array (``mask -= 1`` wrapping
    around) makes NumPy warn of an overflow, which is the intended wrap-around."""
    with np.errstate(over="ignore"):
        return threshold_backward(grad, input, threshold)


class ThresholdBackward0(Node):
    """The gradient passes where ``self > threshold``: torch's threshold_backward."""

    def backward(self, grad):
        return _threshold_backward(grad, self.saved("self"), self.threshold)

    def jvp(self, t):
        return _threshold_backward(t, self.inputs[0], self.threshold)


class ThresholdBackward1(ThresholdBackward0):
    """threshold_: the same formula, on the input before the change."""


# --- softshrink, hardshrink -------------------------------------------------------------------
_FLOAT_MAX = {"float16": ("Half", "65504"), "float32": ("Float", "3.40282e+38"),
              "float64": ("Double", "1.79769e+308")}


def _softshrink_check(input, lambd):
    if not input.dtype.is_floating_point:
        raise NotImplementedError(
            f'"softshrink_check" not implemented for \'{_short(input.dtype)}\'')
    name, top = _FLOAT_MAX[input._data.dtype.name]
    if lambd < 0:
        raise RuntimeError(f"lambda must be in range [0, {top}] for input dtype {name}, but "
                           f"found {lambd:g}")


def _np_softshrink(x, lambd):
    lam = x.dtype.type(lambd)
    return np.where(x > lam, x - lam, np.where(x < -lam, x + lam, x * x.dtype.type(0)))


def _np_hardshrink(x, lambd):
    lam = x.dtype.type(lambd)
    return np.where((x >= -lam) & (x <= lam), x.dtype.type(0), x)


@parses('softshrink(Tensor input, Number lambd = 0.5, *, Tensor out = None)')
def softshrink(input, lambd=0.5):
    """``x`` moved ``lambd`` towards 0, and 0 within ``lambd`` of it."""
    _softshrink_check(input, lambd)
    return record(quietly(_np_softshrink, input._data, lambd), SoftshrinkBackward0, (input,),
                  save={"self": input}, lambd=lambd)


@parses('hardshrink(Tensor input, Number lambd = 0.5, *, Tensor out = None)')
def hardshrink(input, lambd=0.5):
    """``x``, or 0 within ``lambd`` of 0."""
    _floats(input, "hardshrink_cpu")
    return record(quietly(_np_hardshrink, input._data, lambd), HardshrinkBackward0, (input,),
                  save={"self": input}, lambd=lambd)


class SoftshrinkBackward0(Node):
    """The gradient passes outside ``[-lambd, lambd]``: torch's softshrink_backward."""

    def backward(self, grad):
        return shrink_backward(grad, self.saved("self"), self.lambd, SoftshrinkBackwardBackward0)

    def jvp(self, t):
        return shrink_backward(t, self.inputs[0], self.lambd, SoftshrinkBackwardBackward0)


class HardshrinkBackward0(Node):
    """The same as softshrink's: torch's hardshrink_backward."""

    def backward(self, grad):
        return shrink_backward(grad, self.saved("self"), self.lambd, HardshrinkBackwardBackward0)

    def jvp(self, t):
        return shrink_backward(t, self.inputs[0], self.lambd, HardshrinkBackwardBackward0)


def shrink_backward(grad_output, input, lambd, node_cls):
    """``grad_output`` outside ``[-lambd, lambd]``, else +0 (nan passes, as torch's kernel
    tests ``x >= -lambd && x <= lambd``); softshrink_backward and hardshrink_backward."""
    g, x = grad_output._data, input._data
    lam = x.dtype.type(lambd)
    data = quietly(lambda: np.where((x >= -lam) & (x <= lam), g.dtype.type(0), g))
    if fused():
        return _result(data, grad_output)
    return record(data.astype(g.dtype, copy=False), node_cls, (grad_output, input),
                  save={"self": input}, lambd=lambd)


class SoftshrinkBackwardBackward0(Node):
    """out = softshrink_backward(g, self): linear in g, flat in self."""

    def backward(self, w):
        g_g = g_self = None
        if self.needs_input_grad[0]:
            g_g = shrink_backward(w, self.saved("self"), self.lambd, type(self))
        if self.needs_input_grad[1]:
            g_self = w.new_zeros(w.shape)
        return g_g, g_self

    def jvp(self, t_g, t_self):
        g, x = self.inputs
        return shrink_backward(_zeros_or(t_g, g), x, self.lambd, type(self))


class HardshrinkBackwardBackward0(SoftshrinkBackwardBackward0):
    """out = hardshrink_backward(g, self): the same."""


# --- glu --------------------------------------------------------------------------------------
def _halves(x, dim):
    n = x.shape[dim] // 2
    return x.narrow(dim, 0, n), x.narrow(dim, n, n)


def _np_halves(x, dim):
    n = x.shape[dim] // 2
    return np.split(x, [n], axis=dim)


@parses('glu(Tensor input, int dim = -1, *, Tensor out = None)')
def glu(input, dim=-1):
    """The gated linear unit: the input's first half along ``dim`` times the sigmoid of the
    second half."""
    _floats(input, "glu_cpu")
    wrapped = _wrap_dim(dim, input.dim())
    size = input.shape[wrapped]
    if size % 2:
        raise RuntimeError(f"Halving dimension must be even, but dimension {wrapped} is size "
                           f"{size}")
    data = _wide(lambda x: np.multiply(*_np_halves(x, wrapped)[:1],
                                       1 / (1 + np.exp(-_np_halves(x, wrapped)[1]))),
                 input._data)
    return record(data, GluBackward0, (input,), save={"self": input}, dim=wrapped, dim_arg=dim)


class GluBackward0(Node):
    """d/da = sigmoid(b), d/db = a sigmoid(b) (1 - sigmoid(b)): torch's glu_backward."""

    def backward(self, grad):
        return glu_backward(grad, self.saved("self"), self.dim, self.dim_arg)

    def jvp(self, t):
        """torch's glu_jvp: ``(glu - glu * sigmoid(b)) * db + sigmoid(b) * da``."""
        _, b = _halves(self.inputs[0], self.dim)
        da, db = _halves(t, self.dim)
        sb = b.sigmoid()
        return (self.result - self.result * sb) * db + sb * da


def glu_backward(grad_output, input, dim, dim_arg=None):
    def kernel(g, x):
        a, b = _np_halves(x, dim)
        s = 1 / (1 + np.exp(-b))
        return np.concatenate([s * g, (1 - s) * s * a * g], axis=dim)

    data = _wide(kernel, grad_output._data, input._data)
    if fused():
        return _result(data, grad_output)
    return record(data, GluBackwardBackward0, (grad_output, input),
                  save={"grad_output": grad_output, "self": input}, dim=dim,
                  dim_arg=dim if dim_arg is None else dim_arg)


def glu_double_backward(grad, grad_output, input, dim):
    """torch's glu_double_backward, op for op (``dim`` as the caller gave it, as torch's
    cat keeps it)."""
    g_o = grad_output
    first_half, second_half = _halves(input, dim)
    sig_second_half = second_half.sigmoid()
    one_sub_sig_second_half = sub(1, sig_second_half)  # C++ 1 - t: SubBackward0
    sig_one_sub_sig = sig_second_half * one_sub_sig_second_half
    ggi_first_half, ggi_second_half = _halves(grad, dim)
    ggi_second_half_times_first_half = ggi_second_half * first_half
    gi_first_half = ggi_second_half * g_o * sig_one_sub_sig
    second_order_sh = (sig_one_sub_sig * one_sub_sig_second_half
                       - sig_second_half * sig_one_sub_sig)
    gi_second_half = (ggi_second_half_times_first_half * g_o * second_order_sh
                      + ggi_first_half * g_o * sig_one_sub_sig)
    return cat([gi_first_half, gi_second_half], dim)


def glu_double_backward_grad_output(grad, input, dim):
    """torch's: ``grad * glu_backward(ones, input)``, its two halves added (torch wraps the
    dim first, so that glu_backward's node keeps the wrapped dim)."""
    sizes = list(input.shape)
    sizes[dim] //= 2
    ones = Tensor._make(np.ones(sizes, input._data.dtype))
    tmp = grad * glu_backward(ones, input, dim, dim)
    return tmp.narrow(dim, 0, sizes[dim]) + tmp.narrow(dim, sizes[dim], sizes[dim])


class GluBackwardBackward0(Node):
    """out = glu_backward(g, x): torch's glu_double_backward_grad_output and
    glu_double_backward."""

    def backward(self, w):
        g, x = self.saved("grad_output"), self.saved("self")
        return (glu_double_backward_grad_output(w, x, self.dim)
                if self.needs_input_grad[0] else None,
                glu_double_backward(w, g, x, self.dim_arg) if self.needs_input_grad[1] else None)

    def jvp(self, t_g, t_x):
        """The Jacobian in x is the Hessian of <g, glu(x)>, symmetric: glu_double_backward."""
        g, x = self.inputs
        return _sum(None if t_g is None else glu_backward(t_g, x, self.dim, self.dim_arg),
                    None if t_x is None else glu_double_backward(t_x, g, x, self.dim_arg))


# --- prelu ------------------------------------------------------------------------------------
@parses('prelu(Tensor input, Tensor weight)')
def prelu(input, weight):
    """leaky_relu with a learned slope, one per channel (dim 1) or one for all. As torch's
    composite: the weight viewed to broadcast along dim 1 (ViewBackward0), then the kernel
    (PreluKernelBackward0)."""
    _floats(input, "prelu_cpu")
    if weight.dim() not in (0, 1):
        raise RuntimeError("prelu: Expected `weight` to be a scalar or 1D tensor, but got: "
                           f"ndim = {weight.dim()}")
    n = weight.numel()
    if n != 1:
        channels = input.shape[1] if input.dim() >= 2 else 1
        if channels != n:
            raise RuntimeError(f"Mismatch of parameter numbers and input channel size. Found "
                               f"parameter numbers = {n} and channel size = {channels}.")
    if input.dtype is not weight.dtype:
        raise RuntimeError(f"prelu: Type promoting not supported. Got {_short(input.dtype)} "
                           f"and {_short(weight.dtype)}")
    if input.dim() != weight.dim():
        shape = [1] * input.dim()
        if input.dim() >= 2:
            shape[1] = n
        weight = weight.view(shape)
    x, w = input._data, weight._data
    data = quietly(lambda: np.where(x > 0, x, w * x)).astype(x.dtype, copy=False)
    return record(data, PreluKernelBackward0, (input, weight),
                  save={"self": input, "weight": weight})


class PreluKernelBackward0(Node):
    """d/dself = 1 where self > 0, else weight; d/dweight = 0 there, else self (summed to the
    weight's shape by the engine): torch's _prelu_kernel_backward."""

    def backward(self, grad):
        return prelu_kernel_backward(grad, self.saved("self"), self.saved("weight"))

    def jvp(self, t_self, t_weight):
        """``where(self >= 0, self_t, weight * self_t + weight_t * self)``."""
        x, w = self.inputs
        t_self = _zeros_or(t_self, x)
        inner = w * t_self
        if t_weight is not None:
            inner = inner + t_weight * x
        return where(x >= 0, t_self, inner)


def prelu_kernel_backward(grad_output, input, weight):
    g, x, w = grad_output._data, input._data, weight._data
    gi = quietly(lambda: np.where(x > 0, g, w * g)).astype(g.dtype, copy=False)
    gw = quietly(lambda: np.where(x > 0, g.dtype.type(0), x * g)).astype(g.dtype, copy=False)
    outs = (Tensor._make(np.asarray(gi)), Tensor._make(np.asarray(gw)))
    if fused():
        return outs
    inputs = (grad_output, input, weight)
    save = {"grad_output": grad_output, "self": input, "weight": weight}
    if needs_grad(inputs):
        graph.record(PreluKernelBackwardBackward0, inputs, outs, save)
    if forward_grad._state.level is not None:
        forward_grad.propagate(outs, PreluKernelBackwardBackward0, inputs, save, {})
    return outs


class PreluKernelBackwardBackward0(Node):
    """outs = (where(x > 0, g, w g), where(x > 0, 0, x g)); for incoming a (input's) and b
    (weight's), torch's formulas: d/dg = where(x >= 0, a, a w + b x), d/dx = where(x >= 0,
    0, g b), d/dw = where(x >= 0, 0, g a)."""

    def backward(self, a, b):
        g, x, w = self.saved("grad_output"), self.saved("self"), self.saved("weight")
        zero = x.new_zeros(())
        nonneg = x >= 0
        if a is not None:
            g_g = where(nonneg, a, a * w + b * x) if b is not None else where(nonneg, a, a * w)
        else:
            g_g = where(nonneg, zero, b * x)
        g_x = where(nonneg, zero, g * b) if b is not None else x.new_zeros(x.shape)
        g_w = where(nonneg, zero, g * a) if a is not None else x.new_zeros(x.shape)
        return (g_g if self.needs_input_grad[0] else None,
                g_x if self.needs_input_grad[1] else None,
                g_w if self.needs_input_grad[2] else None)

    def jvp(self, t_g, t_x, t_w):
        g, x, w = self.inputs
        positive = x > 0
        zero = x.new_zeros(())
        t_g, t_x, t_w = (_zeros_or(t, like) for t, like in ((t_g, g), (t_x, x), (t_w, w)))
        d_gi = where(positive, t_g, t_g * w + g * t_w)
        d_gw = where(positive, zero, t_x * g + x * t_g)
        return d_gi, d_gw
