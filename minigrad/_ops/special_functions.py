"""torch.special's own element-wise functions: the modified Bessel functions i0, i0e, i1, i1e,
the normal distribution's ndtr, ndtri and log_ndtr, entr and xlog1py.

Each kernel runs torch's steps (``aten/src/ATen/native/Math.h``: Cephes' Chebyshev series for
the Bessel functions and ndtri) in the input's dtype, as torch's templated kernels do (float16
through float32); the C library functions inside (exp, log, sqrt) are computed in float64 and
rounded once. The gradients are ``derivatives.yaml``'s and ``FunctionsManual.cpp``'s.
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
from minigrad._ops.elementary import erf, np_erfc
from minigrad._ops.inplace import _unary_inplace
from minigrad._ops.pointwise import _total, _unary, add_scalar, div_scalar, mul_scalar
from minigrad._tensor import Tensor
from minigrad.autograd.graph import Node


def _f(fn64, x):
    """A C library function in x's dtype: float64, rounded once."""
    return fn64(x.astype(np.float64)).astype(x.dtype)


def _in_float32(kernel):
    """torch computes float16 in float32 and rounds once; the result laid out as torch's."""
    def run(x):
        if x.dtype == np.float16:
            out = kernel(x.astype(np.float32)).astype(np.float16)
        else:
            out = kernel(x).astype(x.dtype, copy=False)
        return elementwise_result(np.asarray(out), x)

    return run


# --- Cephes' Chebyshev series -------------------------------------------------------------------
_I0_A = (-4.41534164647933937950E-18, 3.33079451882223809783E-17, -2.43127984654795469359E-16,
         1.71539128555513303061E-15, -1.16853328779934516808E-14, 7.67618549860493561688E-14,
         -4.85644678311192946090E-13, 2.95505266312963983461E-12, -1.72682629144155570723E-11,
         9.67580903537323691224E-11, -5.18979560163526290666E-10, 2.65982372468238665035E-9,
         -1.30002500998624804212E-8, 6.04699502254191894932E-8, -2.67079385394061173391E-7,
         1.11738753912010371815E-6, -4.41673835845875056359E-6, 1.64484480707288970893E-5,
         -5.75419501008210370398E-5, 1.88502885095841655729E-4, -5.76375574538582365885E-4,
         1.63947561694133579842E-3, -4.32430999505057594430E-3, 1.05464603945949983183E-2,
         -2.37374148058994688156E-2, 4.93052842396707084878E-2, -9.49010970480476444210E-2,
         1.71620901522208775349E-1, -3.04682672343198398683E-1, 6.76795274409476084995E-1)
_I0_B = (-7.23318048787475395456E-18, -4.83050448594418207126E-18, 4.46562142029675999901E-17,
         3.46122286769746109310E-17, -2.82762398051658348494E-16, -3.42548561967721913462E-16,
         1.77256013305652638360E-15, 3.81168066935262242075E-15, -9.55484669882830764870E-15,
         -4.15056934728722208663E-14, 1.54008621752140982691E-14, 3.85277838274214270114E-13,
         7.18012445138366623367E-13, -1.79417853150680611778E-12, -1.32158118404477131188E-11,
         -3.14991652796324136454E-11, 1.18891471078464383424E-11, 4.94060238822496958910E-10,
         3.39623202570838634515E-9, 2.26666899049817806459E-8, 2.04891858946906374183E-7,
         2.89137052083475648297E-6, 6.88975834691682398426E-5, 3.36911647825569408990E-3,
         8.04490411014108831608E-1)
_I1_A = (2.77791411276104639959E-18, -2.11142121435816608115E-17, 1.55363195773620046921E-16,
         -1.10559694773538630805E-15, 7.60068429473540693410E-15, -5.04218550472791168711E-14,
         3.22379336594557470981E-13, -1.98397439776494371520E-12, 1.17361862988909016308E-11,
         -6.66348972350202774223E-11, 3.62559028155211703701E-10, -1.88724975172282928790E-9,
         9.38153738649577178388E-9, -4.44505912879632808065E-8, 2.00329475355213526229E-7,
         -8.56872026469545474066E-7, 3.47025130813767847674E-6, -1.32731636560394358279E-5,
         4.78156510755005422638E-5, -1.61760815825896745588E-4, 5.12285956168575772895E-4,
         -1.51357245063125314899E-3, 4.15642294431288815669E-3, -1.05640848946261981558E-2,
         2.47264490306265168283E-2, -5.29459812080949914269E-2, 1.02643658689847095384E-1,
         -1.76416518357834055153E-1, 2.52587186443633654823E-1)
_I1_B = (7.51729631084210481353E-18, 4.41434832307170791151E-18, -4.65030536848935832153E-17,
         -3.20952592199342395980E-17, 2.96262899764595013876E-16, 3.30820231092092828324E-16,
         -1.88035477551078244854E-15, -3.81440307243700780478E-15, 1.04202769841288027642E-14,
         4.27244001671195135429E-14, -2.10154184277266431302E-14, -4.08355111109219731823E-13,
         -7.19855177624590851209E-13, 2.03562854414708950722E-12, 1.41258074366137813316E-11,
         3.25260358301548823856E-11, -1.89749581235054123450E-11, -5.58974346219658380687E-10,
         -3.83538038596423702205E-9, -2.63146884688951950684E-8, -2.51223623787020892529E-7,
         -3.88256480887769039346E-6, -1.10588938762623716291E-4, -9.76109749136146840777E-3,
         7.78576235018280120474E-1)


def _chbevl(y, coefficients):
    """Cephes' Chebyshev series ``0.5 * (b0 - b2)``, in y's dtype."""
    T = y.dtype.type
    b0, b1, b2 = np.full_like(y, T(coefficients[0])), np.zeros_like(y), np.zeros_like(y)
    for c in coefficients[1:]:
        b2, b1 = b1, b0
        b0 = y * b1 - b2 + T(c)
    return T(0.5) * (b0 - b2)


def _bessel(x, a, b, scaled, odd):
    """i0/i1 (``scaled``: times exp(-|x|)) on [0, 8] and beyond, as torch's calc_i0... ."""
    T = x.dtype.type
    ax = np.abs(x)
    small = _chbevl(ax / T(2) - T(2), a)
    large = _chbevl(T(32) / np.where(ax > 8, ax, T(8)) - T(2), b) / _f(np.sqrt, ax)
    if odd:
        small = small * ax
    if not scaled:
        small, large = _f(np.exp, ax) * small, _f(np.exp, ax) * large
    out = np.where(ax <= T(8), small, large)
    return np.where(x < 0, -out, out) if odd else out


np_i0 = _in_float32(lambda x: _bessel(x, _I0_A, _I0_B, False, False))
np_i0e = _in_float32(lambda x: _bessel(x, _I0_A, _I0_B, True, False))
np_i1 = _in_float32(lambda x: _bessel(x, _I1_A, _I1_B, False, True))
np_i1e = _in_float32(lambda x: _bessel(x, _I1_A, _I1_B, True, True))


@parses('i0(Tensor input, *, Tensor out = None)')
def i0(input):
    """The modified Bessel function of the first kind, order 0."""
    return _unary(input, np_i0, I0Backward0, save_self=True)


@parses('i0_(Tensor input)')
def i0_(self):
    return _unary_inplace(self, np_i0, I0Backward0, save_self=True, floats=True)


class I0Backward0(Node):
    """``grad * special_i1(self)``."""

    def backward(self, grad):
        return grad * i1(self.saved("self"))

    def jvp(self, t):
        return t * i1(self.inputs[0])


@parses('special_i0e(Tensor input, *, Tensor out = None)')
def i0e(input):
    """``i0(x) * exp(-|x|)``: no overflow for large |x|."""
    return _unary(input, np_i0e, SpecialI0EBackward0, save_self=True, save_result=True)


class SpecialI0EBackward0(Node):
    """``grad * (special_i1e(self) - self.sgn() * result)``."""

    def backward(self, grad):
        x = self.saved("self")
        return grad * (i1e(x) - x.sgn() * self.saved("result"))

    def jvp(self, t):
        x = self.inputs[0]
        return t * (i1e(x) - x.sgn() * self.result)


@parses('special_i1(Tensor input, *, Tensor out = None)')
def i1(input):
    """The modified Bessel function of the first kind, order 1."""
    return _unary(input, np_i1, SpecialI1Backward0, save_self=True, save_result=True)


@parses('special_i1e(Tensor input, *, Tensor out = None)')
def i1e(input):
    """``i1(x) * exp(-|x|)``."""
    return _unary(input, np_i1e, SpecialI1EBackward0, save_self=True, save_result=True)


def _safe_self(x):
    """torch's i1 backward: |x| <= eps is replaced by eps (the formula's 0/0), its slope by 0.5."""
    eps = float(np.finfo(x._data.dtype).eps)
    not_tiny = x.abs() > eps
    return not_tiny, P.where(not_tiny, x, x.new_full((), eps))


def _no_half(name, x):
    """torch's kernel has no float16 version: its dispatch error."""
    if x.dtype is _dtype.float16:
        raise NotImplementedError(f"\"{name}\" not implemented for 'Half'")


def _i1_backward(grad, x, result):
    _no_half("i1_backward", x)
    not_tiny, safe = _safe_self(x)
    slope = i0(safe) - result * safe.reciprocal()
    return grad * P.where(not_tiny, slope, x.new_full((), 0.5))


def _i1e_backward(grad, x, result):
    _no_half("i1e_backward", x)
    not_tiny, safe = _safe_self(x)
    slope = i0e(safe) - result * (safe.sgn() + safe.reciprocal())
    return grad * P.where(not_tiny, slope, x.new_full((), 0.5))


class SpecialI1Backward0(Node):
    """torch's i1_backward: ``grad * (i0(x) - result / x)``, 0.5 at |x| <= eps."""

    def backward(self, grad):
        return _i1_backward(grad, self.saved("self"), self.saved("result"))

    def jvp(self, t):
        return _i1_backward(t, self.inputs[0], self.result)


class SpecialI1EBackward0(Node):
    """torch's i1e_backward: ``grad * (i0e(x) - result * (sgn(x) + 1 / x))``, 0.5 at
    |x| <= eps."""

    def backward(self, grad):
        return _i1e_backward(grad, self.saved("self"), self.saved("result"))

    def jvp(self, t):
        return _i1e_backward(t, self.inputs[0], self.result)


# --- the normal distribution ------------------------------------------------------------------
_SQRT1_2 = math.sqrt(0.5)
_SQRT_2PI = math.sqrt(2 * math.pi)


@parses('special_ndtr(Tensor input, *, Tensor out = None)')
def ndtr(input):
    """The standard normal CDF, composed as torch's: ``(1 + erf(x * sqrt(1/2))) * 0.5``."""
    return mul_scalar(add_scalar(erf(mul_scalar(input, _SQRT1_2)), 1), 0.5)


_NDTRI_P0 = (-5.99633501014107895267E1, 9.80010754185999661536E1, -5.66762857469070293439E1,
             1.39312609387279679503E1, -1.23916583867381258016E0)
_NDTRI_Q0 = (1.0, 1.95448858338141759834E0, 4.67627912898881538453E0, 8.63602421390890590575E1,
             -2.25462687854119370527E2, 2.00260212380060660359E2, -8.20372256168333339912E1,
             1.59056225126211695515E1, -1.18331621121330003142E0)
_NDTRI_P1 = (4.05544892305962419923E0, 3.15251094599893866154E1, 5.71628192246421288162E1,
             4.40805073893200834700E1, 1.46849561928858024014E1, 2.18663306850790267539E0,
             -1.40256079171354495875E-1, -3.50424626827848203418E-2, -8.57456785154685413611E-4)
_NDTRI_Q1 = (1.0, 1.57799883256466749731E1, 4.53907635128879210584E1, 4.13172038254672030440E1,
             1.50425385692907503408E1, 2.50464946208309415979E0, -1.42182922854787788574E-1,
             -3.80806407691578277194E-2, -9.33259480895457427372E-4)
_NDTRI_P2 = (3.23774891776946035970E0, 6.91522889068984211695E0, 3.93881025292474443415E0,
             1.33303460815807542389E0, 2.01485389549179081538E-1, 1.23716634817820021358E-2,
             3.01581553508235416007E-4, 2.65806974686737550832E-6, 6.23974539184983293730E-9)
_NDTRI_Q2 = (1.0, 6.02427039364742014255E0, 3.67983563856160859403E0, 1.37702099489081330271E0,
             2.16236993594496635890E-1, 1.34204006088543189037E-2, 3.28014464682127739104E-4,
             2.89247864745380683936E-6, 6.79019408009981274425E-9)
_EXP_M2 = 0.13533528323661269189  # exp(-2)


def _polevl(x, coefficients):
    T = x.dtype.type
    result = np.zeros_like(x)
    for c in coefficients:
        result = result * x + T(c)
    return result


def _ndtri(y0):
    """Cephes' ndtri as torch's calc_ndtri: a rational function of y - 1/2 in the middle, of
    1 / sqrt(-2 log y) in the tails."""
    T = y0.dtype.type
    upper = y0 > T(1) - T(_EXP_M2)
    y = np.where(upper, T(1) - y0, y0)
    mid = y - T(0.5)
    y2 = mid * mid
    central = (mid + mid * (y2 * _polevl(y2, _NDTRI_P0) / _polevl(y2, _NDTRI_Q0))) * T(_SQRT_2PI)
    x = _f(np.sqrt, T(-2.0) * _f(np.log, y))
    x0 = x - _f(np.log, x) / x
    z = T(1) / x
    x1 = np.where(x < T(8), z * _polevl(z, _NDTRI_P1) / _polevl(z, _NDTRI_Q1),
                  z * _polevl(z, _NDTRI_P2) / _polevl(z, _NDTRI_Q2))
    tail = np.where(upper, x0 - x1, -(x0 - x1))
    out = np.where(y > T(_EXP_M2), central, tail)
    out = np.where((y0 < 0) | (y0 > 1) | np.isnan(y0), T(np.nan), out)
    out = np.where(y0 == 0, T(-np.inf), out)
    return np.where(y0 == 1, T(np.inf), out)


np_ndtri = _in_float32(_ndtri)


@parses('special_ndtri(Tensor input, *, Tensor out = None)')
def ndtri(input):
    """The inverse of ndtr: the x whose standard normal CDF is the input."""
    _no_half("ndtri_cpu", input)
    return _unary(input, np_ndtri, SpecialNdtriBackward0, save_result=True)


class SpecialNdtriBackward0(Node):
    """``grad * sqrt(2 pi) * (result.square() / 2).exp()``."""

    def backward(self, grad):
        return _ndtri_backward(grad, self.saved("result"))

    def jvp(self, t):
        return _ndtri_backward(t, self.result)


def _ndtri_backward(grad, result):
    return mul_scalar(grad, _SQRT_2PI) * div_scalar(P.pow(result, 2), 2).exp()


def _erfcx_asymptotic_log(y):
    """``log(erfcx(y))`` for y >= 26 in float64, from erfc's asymptotic series (its terms
    fall below 1e-17 after eight)."""
    inv = 1.0 / (2.0 * y * y)
    term, series = np.ones_like(y), np.ones_like(y)
    for n in range(1, 9):
        term = term * -(2 * n - 1) * inv
        series = series + term
    return -np.log(y * math.sqrt(math.pi)) + np.log(series)


def _log_ndtr64(x):
    """torch's calc_log_ndtr: ``log(erfcx(-t) / 2) - t * t`` below -1 (t = x / sqrt 2), that
    is ``log(erfc(-t) / 2)`` while erfc does not underflow; ``log1p(-erfc(t) / 2)`` above."""
    t = x * _SQRT1_2
    y = np.where(t < -26.0, -t, 26.0)
    far = _erfcx_asymptotic_log(y) - math.log(2) - y * y
    near = np.log(np_erfc(-t) / 2)
    left = np.where(t < -26.0, far, near)
    return np.where(x < -1.0, left, np.log1p(-np_erfc(t) / 2))


def _log_ndtr(x):
    return _log_ndtr64(x.astype(np.float64)).astype(x.dtype)


np_log_ndtr = _in_float32(_log_ndtr)


@parses('special_log_ndtr(Tensor input, *, Tensor out = None)')
def log_ndtr(input):
    """``log(ndtr(x))``, accurate far into the left tail."""
    _no_half("log_ndtr_cpu", input)
    return _unary(input, np_log_ndtr, SpecialLogNdtrBackward0, save_self=True, save_result=True)


class SpecialLogNdtrBackward0(Node):
    """``grad / sqrt(2 pi) * (result + self.pow(2) / 2).neg().exp()``."""

    def backward(self, grad):
        return _log_ndtr_backward(grad, self.saved("self"), self.saved("result"))

    def jvp(self, t):
        return _log_ndtr_backward(t, self.inputs[0], self.result)


def _log_ndtr_backward(grad, x, result):
    return div_scalar(grad, _SQRT_2PI) * P.neg(result + div_scalar(P.pow(x, 2), 2)).exp()


# --- entr, xlog1py ------------------------------------------------------------------------------
def _entr(x):
    """``-x log x``, 0 at 0, -inf below 0 (nan stays nan)."""
    T = x.dtype.type
    value = -x * _f(np.log, np.where(x > 0, x, T(1)))
    out = np.where(x > 0, value, np.where(x == 0, T(0), T(-np.inf)))
    return np.where(np.isnan(x), x, out)


np_entr = _in_float32(_entr)


@parses('special_entr(Tensor input, *, Tensor out = None)')
def entr(input):
    """The elementwise entropy ``-x log x``."""
    return _unary(input, np_entr, SpecialEntrBackward0, save_self=True)


class SpecialEntrBackward0(Node):
    """``grad * -(1 + self.log())``."""

    def backward(self, grad):
        return grad * P.neg(add_scalar(self.saved("self").log(), 1))

    def jvp(self, t):
        return t * P.neg(add_scalar(self.inputs[0].log(), 1))


def _np_xlog1py(x, y):
    """torch's kernel: nan where y is nan, 0 where x is 0, else ``x * log1p(y)``."""
    return np.where(np.isnan(y), np.nan, np.where(x == 0, 0.0, x * np.log1p(y)))


@parses('special_xlog1py(Tensor input, Tensor other, *, Tensor out = None)',
        'special_xlog1py(Number self, Tensor other, *, Tensor out = None)',
        'special_xlog1py(Tensor input, Number other, *, Tensor out = None)')
def xlog1py(input, other):
    """``input * log1p(other)``, 0 where ``input`` is 0 (unless ``other`` is nan)."""
    a, b, d = operands(input, other)
    if not d.is_floating_point:
        d = _dtype.get_default_dtype()
    check_same_shape_broadcast(a._data, b._data)
    wide = np.float64 if d.numpy == np.float32 else d.numpy
    x, y = common_data(a, b, d)
    data = quietly(_np_xlog1py, x.astype(wide), y.astype(wide)).astype(d.numpy)
    if isinstance(input, Tensor) and isinstance(other, Tensor):
        return record(data, SpecialXlog1PyBackward0, (a, b), save={"self": a, "other": b})
    if not isinstance(input, Tensor):
        return record(data, SpecialXlog1PyBackward1, (b,), save={"other": b}, self=input)
    return record(data, SpecialXlog1PyBackward2, (a,), save={"self": a}, other=other)


def _xlog1py_self_grad(grad, x, y):
    return xlog1py(grad, y).masked_fill((x == 0.0) & (y <= -1.0), 0.0)


class SpecialXlog1PyBackward0(Node):
    """``xlog1py(grad, other)`` (0 where self == 0 and other <= -1) and
    ``grad * self / (other + 1)``."""

    def backward(self, grad):
        x, y = self.saved("self"), self.saved("other")
        return (_xlog1py_self_grad(grad, x, y) if self.needs_input_grad[0] else None,
                grad * x / add_scalar(y, 1) if self.needs_input_grad[1] else None)

    def jvp(self, t_x, t_y):
        x, y = self.inputs
        return _total(None if t_x is None else _xlog1py_self_grad(t_x, x, y),
                      None if t_y is None else t_y * x / add_scalar(y, 1))


class SpecialXlog1PyBackward1(Node):
    """xlog1py(number, other): ``grad * self / (other + 1)``."""

    def backward(self, grad):
        return mul_scalar(grad, self.self) / add_scalar(self.saved("other"), 1)

    def jvp(self, t):
        return mul_scalar(t, self.self) / add_scalar(self.inputs[0], 1)


class SpecialXlog1PyBackward2(Node):
    """xlog1py(self, number): ``xlog1py(grad, other)``, 0 where self == 0 if other <= -1."""

    def backward(self, grad):
        g = xlog1py(grad, self.other)
        return g.masked_fill(self.saved("self") == 0.0, 0.0) if self.other <= -1 else g

    def jvp(self, t):
        g = xlog1py(t, self.other)
        return g.masked_fill(self.inputs[0] == 0.0, 0.0) if self.other <= -1 else g
