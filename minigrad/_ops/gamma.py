"""The gamma function's family: lgamma, digamma, polygamma, mvlgamma, and Hurwitz's zeta.

Each value is computed as torch's kernels compute it (``aten/src/ATen/native/Math.h``: Cephes'
digamma, torch's trigamma, polygamma as ``(-1)**(n+1) n! zeta(n+1, x)``, Cephes' zeta), in
float64 and rounded once to the input's dtype (torch's float32 kernels run the same steps in
float32: the two agree to a few ulps). lgamma is C's, as torch's. The gradients are
``derivatives.yaml``'s: lgamma's is digamma, digamma's is polygamma(1), polygamma(n)'s is
polygamma(n + 1); zeta has a gradient for ``other`` only.
"""

from __future__ import annotations

import math

import numpy as np

from minigrad import _dtype
from minigrad._layout import elementwise_result
from minigrad._numeric import quietly
from minigrad._ops import pointwise as P
from minigrad._ops._args import parses
from minigrad._ops._core import check_same_shape_broadcast, common_data, operands, record
from minigrad._ops.inplace import _saved_original, _unary_inplace, apply_inplace
from minigrad._ops.pointwise import _unary, add_scalar
from minigrad._tensor import Tensor
from minigrad.autograd import grad_mode
from minigrad.autograd.graph import Node


# --- the float64 kernels ------------------------------------------------------------------------
def _lgamma1(x: float) -> float:
    """C's lgamma: +inf at the poles (0, -1, -2...) and at +-inf, where Python raises."""
    try:
        return math.lgamma(x)
    except (ValueError, OverflowError):
        return math.inf


_lgamma_ufunc = np.frompyfunc(_lgamma1, 1, 1)


def _lgamma64(x):
    return np.asarray(_lgamma_ufunc(x), dtype=np.float64)


_PSI_10 = 2.25175258906672110764
_DIGAMMA_A = (8.33333333333333333333E-2, -2.10927960927960927961E-2, 7.57575757575757575758E-3,
              -4.16666666666666666667E-3, 3.96825396825396825397E-3,
              -8.33333333333333333333E-3, 8.33333333333333333333E-2)


def _f(fn64, x):
    """A C library function of x's dtype: computed in float64 and rounded once (glibc's
    float32 log, sin... are correctly rounded but for rare cases)."""
    return fn64(x.astype(np.float64)).astype(x.dtype)


def _digamma(x):
    """torch's calc_digamma, in x's dtype (float32 or float64; float16 goes through float32):
    the reflection ``psi(1 - x) - pi / tan(pi r)`` below 0 (r the fractional part, the tangent
    in float64), then steps up to x >= 10 and Cephes' asymptotic series."""
    if x.dtype == np.float16:
        return _digamma(x.astype(np.float32)).astype(np.float16)
    T = x.dtype.type
    negative = x < 0
    r = np.fmod(x.astype(np.float64), 1.0)
    reflection = np.where(negative, math.pi / np.tan(math.pi * r), 0.0).astype(x.dtype)
    z = np.where(negative, T(1) - x, x)
    result = np.zeros_like(z)
    for _ in range(10):  # z >= 1 here (or 0 < z < 10): at most 10 steps
        below = z < 10
        result = np.where(below, result - T(1) / np.where(below, z, T(1)), result)
        z = np.where(below, z + T(1), z)
    zz = T(1) / (z * z)
    poly = np.zeros_like(zz)
    for c in _DIGAMMA_A:
        poly = poly * zz + T(c)
    y = np.where(z < T(1.0e17), zz * poly, T(0))
    out = np.where(z == 10, result + T(_PSI_10), result + _f(np.log, z) - T(0.5) / z - y)
    out = np.where(negative, out - reflection, out)
    out = np.where(negative & (x == np.trunc(x)), T(np.nan), out)
    return np.where(x == 0, np.copysign(T(np.inf), -x), out).astype(x.dtype)


def _trigamma(x):
    """torch's trigamma, in x's dtype: the reflection below 0.5, six steps up, then the
    asymptotic series."""
    if x.dtype == np.float16:
        return _trigamma(x.astype(np.float32)).astype(np.float16)
    T = x.dtype.type
    low = x < T(0.5)
    sin_pi_x = _f(np.sin, T(math.pi) * x)
    result = np.where(low, -(T(math.pi) * T(math.pi)) / (sin_pi_x * sin_pi_x), T(0))
    z = np.where(low, T(1) - x, x)
    for _ in range(6):
        result = result + T(1) / (z * z)
        z = z + T(1)
    ixx = T(1) / (z * z)
    tail = ixx * (T(1. / 6) - ixx * (T(1. / 30) - ixx * T(1. / 42)))
    result = result + (T(1) + T(1) / (T(2) * z) + tail) / z
    return np.where(low, -result, result).astype(x.dtype)


_MACHEP = 1.11022302462515654042E-16
_ZETA_A = (12.0, -720.0, 30240.0, -1209600.0, 47900160.0, -1.8924375803183791606e9,
           7.47242496e10, -2.950130727918164224e12, 1.1646782814350067249e14,
           -4.5979787224074726105e15, 1.8152105401943546773e17, -7.1661652561756670113e18)


def _zeta64(x, q):
    """Cephes' Hurwitz zeta as torch's: ``sum over k of (k + q) ** -x``, directly for the
    first terms, then the Euler-Maclaurin tail (each element leaves where torch's loop would)."""
    x, q = np.broadcast_arrays(np.asarray(x, np.float64), np.asarray(q, np.float64))
    out = np.full(x.shape, np.nan)
    # torch's checks, in its order (a nan x passes the first two: zeta(nan, 0) is inf)
    first = (x == 1) | (x < 1)
    pole = ~first & (q <= 0) & (q == np.floor(q))
    out[(x == 1) | pole] = np.inf
    todo = ~first & ~pole & ~((q <= 0) & (x != np.floor(x)))
    x, q = x[todo], q[todo]
    s = q ** -x
    a, b = q.copy(), np.zeros_like(q)
    done, i = np.zeros(x.shape, bool), 0
    running = np.ones(x.shape, bool)  # in the direct sum's loop
    while running.any():
        i += 1
        a = np.where(running, a + 1, a)
        b = np.where(running, a ** -x, b)
        s = np.where(running, s + b, s)
        converged = running & (-_MACHEP * s < b) & (b < _MACHEP * s)
        done |= converged
        running &= ~converged & ((i < 9) | (a <= 9.0))
    tail = ~done
    w = a
    s = np.where(tail, s + b * w / (x - 1) - 0.5 * b, s)
    a, k = np.ones_like(x), 0.0
    for j in range(12):
        a = a * (x + k)
        b = b / w
        t = a * b / _ZETA_A[j]
        s = np.where(tail, s + t, s)
        tail &= ~(np.abs(t / s) < _MACHEP)
        k += 1.0
        a = a * (x + k)
        b = b / w
        k += 1.0
    out[todo] = s
    return out


def _polygamma(n):
    """polygamma(n, .) in x's dtype: digamma, trigamma, or ``(-1)**(n+1) exp(lgamma(n + 1))
    zeta(n + 1, x)`` with zeta in float64 (torch's accumulate type) and the rest in x's."""
    if n == 0:
        return _digamma
    if n == 1:
        return _trigamma

    def kernel(x):
        T = x.dtype.type
        factorial = T(math.exp(T(math.lgamma(n + 1.0))))
        zeta = _zeta64(float(n + 1), x.astype(np.float64)).astype(x.dtype)
        return (T(1 if n % 2 else -1) * factorial * zeta).astype(x.dtype)

    return kernel


def _lgamma(x):
    return _lgamma64(x.astype(np.float64)).astype(x.dtype)


def _laid_out(kernel):
    """``kernel`` with its result laid out as torch's element-wise result."""
    return lambda x: elementwise_result(np.asarray(quietly(kernel, x)), x)


np_lgamma, np_digamma, np_trigamma = map(_laid_out, (_lgamma, _digamma, _trigamma))


def np_polygamma(n):
    return _laid_out(_polygamma(n))


# --- lgamma, digamma, polygamma -----------------------------------------------------------------
@parses('lgamma(Tensor input, *, Tensor out = None)')
def lgamma(input):
    """``log |Gamma(x)|``: +inf at the poles 0, -1, -2..."""
    return _unary(input, np_lgamma, LgammaBackward0, save_self=True)


@parses('lgamma_(Tensor input)')
def lgamma_(self):
    return _unary_inplace(self, np_lgamma, LgammaBackward0, save_self=True, floats=True)


class LgammaBackward0(Node):
    """``grad * digamma(self)``."""

    def backward(self, grad):
        return grad * digamma(self.saved("self"))

    def jvp(self, t):
        return t * digamma(self.inputs[0])


@parses('digamma(Tensor input, *, Tensor out = None)')
def digamma(input):
    """``Gamma'(x) / Gamma(x)``: -inf at +0, +inf at -0, nan at the negative integers."""
    return _unary(input, np_digamma, DigammaBackward0, save_self=True)


@parses('digamma_(Tensor input)')
def digamma_(self):
    return _unary_inplace(self, np_digamma, DigammaBackward0, save_self=True, floats=True)


class DigammaBackward0(Node):
    """``grad * polygamma(1, self)``."""

    def backward(self, grad):
        return grad * polygamma(1, self.saved("self"))

    def jvp(self, t):
        return t * polygamma(1, self.inputs[0])


def _check_n(n):
    if n < 0:
        raise RuntimeError("polygamma(n, x) does not support negative n.")


@parses('polygamma(int n, Tensor input, *, Tensor out = None)')
def polygamma(n, input):
    """The n-th derivative of digamma (``polygamma(0, x)`` is digamma itself)."""
    _check_n(n)
    x = input if input.dtype.is_floating_point else input.to(_dtype.get_default_dtype())
    data = quietly(np_polygamma(n), x._data)
    return record(data, PolygammaBackward0, (x,), save={"self": x}, n=n)


@parses('polygamma(Tensor input, int n)', method_only=True)
def polygamma_method(self, n):
    """``x.polygamma(n)``: torch's method takes n after the tensor."""
    return polygamma(n, self)


@parses('polygamma_(Tensor input, int n)')
def polygamma_(self, n):
    _check_n(n)
    if not self.dtype.is_floating_point:
        raise RuntimeError("result type Float can't be cast to the desired output type "
                           f"{self.dtype.scalar_name}")
    data = quietly(np_polygamma(n), self._data)
    return apply_inplace(self, data, PolygammaBackward1, (self,),
                         save={"self": _saved_original(self, True)}, n=n)


class PolygammaBackward0(Node):
    """``grad * polygamma(n + 1, self)``."""

    def backward(self, grad):
        return grad * polygamma(self.n + 1, self.saved("self"))

    def jvp(self, t):
        return t * polygamma(self.n + 1, self.inputs[0])


class PolygammaBackward1(PolygammaBackward0):
    """polygamma_'s node (torch names the in-place form's apart): the same formula."""


# --- mvlgamma -----------------------------------------------------------------------------------
def _mvlgamma_args(dtype, p):
    """torch's ``arange(-p / 2 + 0.5, 0.5, 0.5)``: the shifts of the p gamma factors."""
    return np.arange(p, dtype=np.float64)[::-1] * -0.5  # exact halves, in any float dtype


@parses('mvlgamma(Tensor input, int p, *, Tensor out = None)')
def mvlgamma(input, p):
    """The multivariate log-gamma of dimension p: ``p (p - 1) / 4 log(pi) + sum over i < p
    of lgamma(x - i / 2)``, summed as torch's ``args.lgamma_().sum(-1)``."""
    if input.dtype is _dtype.bool:
        raise RuntimeError("The input tensor may not be a boolean tensor.")
    if p < 1:
        raise RuntimeError("p has to be greater than or equal to 1")
    x = input if input.dtype.is_floating_point else input.to(_dtype.get_default_dtype())
    d = x._data.dtype
    args = (x._data[..., None] + _mvlgamma_args(d, p).astype(d)).astype(d)
    terms = quietly(np_lgamma, args)
    total = terms[..., 0]
    for k in range(1, p):  # a short row: torch adds it in order
        total = (total + terms[..., k]).astype(d)
    data = np.array(total + d.type(p * (p - 1) * math.log(math.pi) * 0.25), dtype=d, order="C")
    return record(data, MvlgammaBackward0, (x,), save={"self": x}, p=p)


@parses('mvlgamma_(Tensor input, int p)')
def mvlgamma_(self, p):
    """In place: mvlgamma's values and node, written into ``self``."""
    if not self.dtype.is_floating_point:
        raise RuntimeError("result type Float can't be cast to the desired output type "
                           f"{self.dtype.scalar_name}")
    with grad_mode.no_grad():
        data = mvlgamma(self.detach(), p)._data
    return apply_inplace(self, data, MvlgammaBackward0, (self,),
                         save={"self": _saved_original(self, True)}, p=p)


class MvlgammaBackward0(Node):
    """torch's mvlgamma_backward: ``grad * (arange(-p/2 + 0.5, 0.5, 0.5) +
    self.unsqueeze(-1)).digamma().sum(-1)``."""

    def backward(self, grad):
        return grad * _mvlgamma_slope(self.saved("self"), self.p)

    def jvp(self, t):
        return t * _mvlgamma_slope(self.inputs[0], self.p)


def _mvlgamma_slope(x, p):
    args = Tensor._make(_mvlgamma_args(x._data.dtype, p).astype(x._data.dtype))
    return digamma(args + x.unsqueeze(-1)).sum(-1)


# --- zeta ---------------------------------------------------------------------------------------
np_zeta = _zeta64


def _zeta_kernel(x, q):
    d = np.result_type(x, q)
    wide = np.float64
    return np.asarray(_zeta64(x.astype(wide), q.astype(wide))).astype(d)


@parses('special_zeta(Tensor input, Tensor other, *, Tensor out = None)',
        'special_zeta(Number self, Tensor other, *, Tensor out = None)',
        'special_zeta(Tensor input, Number other, *, Tensor out = None)')
def zeta(input, other):
    """Hurwitz's zeta ``sum over k >= 0 of (k + other) ** -input`` (Riemann's at other=1)."""
    a, b, d = operands(input, other)
    if not d.is_floating_point:
        d = _dtype.get_default_dtype()
    if d is _dtype.float16:
        raise NotImplementedError("\"zeta_cpu\" not implemented for 'Half'")
    check_same_shape_broadcast(a._data, b._data)
    x, y = common_data(a, b, d)
    data = elementwise_result(quietly(_zeta_kernel, x.astype(d.numpy), y.astype(d.numpy)),
                              a._data, b._data)
    if isinstance(input, Tensor) and isinstance(other, Tensor):
        # only other's formula reads them: saved only when it is wanted, as torch saves them
        save = {"self": a, "other": b} if b.requires_grad else None
        return record(data, SpecialZetaBackward0, (a, b), save=save)
    if not isinstance(input, Tensor):
        return record(data, SpecialZetaBackward1, (b,), save={"other": b}, self=input)
    return record(data, SpecialZetaBackward2, (a,))  # no derivative: nothing kept


def _not_implemented():
    raise NotImplementedError("the derivative for 'zeta' is not implemented.")


def _no_forward_ad():
    """torch's derivatives.yaml gives special_zeta no forward-mode formula at all."""
    raise NotImplementedError(
        "Trying to use forward AD with special_zeta that does not support it because it has not "
        "been implemented yet.\nPlease file an issue to PyTorch at "
        "https://github.com/pytorch/pytorch/issues/new?template=feature-request.yml so that we "
        "can prioritize its implementation or submit a PR adding the implementation to "
        "derivatives.yaml")


class SpecialZetaBackward0(Node):
    """self: not implemented; other: ``grad * -self * zeta(self + 1., other)``."""

    def backward(self, grad):
        if self.needs_input_grad[0]:
            _not_implemented()
        x, q = self.saved("self"), self.saved("other")
        return None, grad * -x * zeta(add_scalar(x, 1.0), q)

    def jvp(self, t_self, t_other):
        _no_forward_ad()


class SpecialZetaBackward1(Node):
    """zeta(number, other): ``grad * -self * zeta(self + 1., other)``."""

    def backward(self, grad):
        return P.mul_scalar(grad, -self.self) * zeta(self.self + 1.0, self.saved("other"))

    def jvp(self, t):
        _no_forward_ad()


class SpecialZetaBackward2(Node):
    """zeta(self, number): torch has no derivative for self."""

    def backward(self, grad):
        _not_implemented()

    def jvp(self, t):
        _no_forward_ad()
