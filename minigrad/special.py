"""torch.special: the special functions under torch's names for them.

Most are other names of minigrad's ops (``expit`` is sigmoid, ``gammaln`` is lgamma, ``psi``
is digamma): the same values and the same ``grad_fn`` as torch's (``special.expit(x).grad_fn``
is a ``SigmoidBackward0``), with torch's ``special_<name>`` in argument errors. The functions
of torch.special's own live in ``_ops/special_functions.py`` (Bessel, normal distribution,
entr, xlog1py) and ``_ops/gamma.py`` (the gamma family, zeta). The Bessel functions of other
kinds, the orthogonal polynomials, the incomplete gamma functions, erfcx and airy_ai are left
out (``_left_out.LEFT_OUT["minigrad.special"]`` says what to use).
"""

from __future__ import annotations

from minigrad import _left_out
from minigrad._ops import elementary as _E
from minigrad._ops import gamma as _G
from minigrad._ops import nn_ops as _N
from minigrad._ops import pointwise as _P
from minigrad._ops import reduction as _R
from minigrad._ops import special_functions as _F
from minigrad._ops._args import parses as _parses


def _spelled(op, *specs):
    """``op`` under torch.special's name: its own argument parser (torch's signatures and
    messages), the op's values and node."""
    def call(*args, **kwargs):
        return op(*args, **kwargs)

    call.__name__ = call.__qualname__ = specs[0].split("(")[0].removeprefix("special_")
    call.__doc__ = op.__doc__
    return _parses(*specs)(call).as_function


def _unary(op, name):
    return _spelled(op, f"special_{name}(Tensor input, *, Tensor out = None)")


_BINARY = ("(Tensor input, Tensor other, *, Tensor out = None)",
           "(Number self, Tensor other, *, Tensor out = None)",
           "(Tensor input, Number other, *, Tensor out = None)")


def _binary(op, name):
    return _spelled(op, *(f"special_{name}{form}" for form in _BINARY))


def _round(input, *, decimals=0):
    """torch.special.round always takes its decimals form (``RoundBackward1``)."""
    return _P.round(input, decimals=decimals)


expit = _unary(_P.sigmoid, "expit")
exp2 = _unary(_E.exp2, "exp2")
expm1 = _unary(_E.expm1, "expm1")
log1p = _unary(_E.log1p, "log1p")
erf = _unary(_E.erf, "erf")
erfc = _unary(_E.erfc, "erfc")
erfinv = _unary(_E.erfinv, "erfinv")
sinc = _unary(_E.sinc, "sinc")
gammaln = _unary(_G.lgamma, "gammaln")
digamma = _unary(_G.digamma, "digamma")
psi = _unary(_G.digamma, "psi")
i0 = _unary(_F.i0, "i0")
i0e = _unary(_F.i0e, "i0e")
i1 = _unary(_F.i1, "i1")
i1e = _unary(_F.i1e, "i1e")
ndtr = _unary(_F.ndtr, "ndtr")
ndtri = _unary(_F.ndtri, "ndtri")
log_ndtr = _unary(_F.log_ndtr, "log_ndtr")
entr = _unary(_F.entr, "entr")
xlogy = _binary(_E.xlogy, "xlogy")
xlog1py = _binary(_F.xlog1py, "xlog1py")
zeta = _binary(_G.zeta, "zeta")
logit = _spelled(_E.logit, "special_logit(Tensor input, float? eps = None, *, Tensor out = None)")
polygamma = _spelled(_G.polygamma, "special_polygamma(int n, Tensor input, *, Tensor out = None)")
multigammaln = _spelled(_G.mvlgamma,
                        "special_multigammaln(Tensor input, int p, *, Tensor out = None)")
round = _spelled(_round,  # noqa: A001 - torch's name
                 "special_round(Tensor input, *, int decimals = 0, Tensor out = None)")
softmax = _spelled(_N.softmax, "special_softmax(Tensor input, int dim, torch.dtype dtype = None)")
log_softmax = _spelled(_N.log_softmax,
                       "special_log_softmax(Tensor input, int dim, *, torch.dtype? dtype = None)")
logsumexp = _spelled(_R.logsumexp, "special_logsumexp(Tensor input, tuple of ints[1] dim, "
                                   "bool keepdim = False, *, Tensor out = None)")


def __getattr__(name):
    """Only reached for names minigrad.special does not define (PEP 562); see ``_left_out``."""
    raise _left_out.missing(__name__, name)
