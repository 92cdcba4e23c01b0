"""torch.special against minigrad.special, at test time: every function's values on
hypothesis-drawn inputs over its domain (with nan, +-inf, -0.0 and the domain's own edges) in
float64 and float32, its gradient in float64, torch's errors, and the names left out.

Tolerances. float64: minigrad runs torch's kernels' steps (``Math.h``) in float64, with NumPy's
exp/log/sin where torch calls glibc's: each within an ulp of the other, so results agree to a
few float64 ulps, ``rtol=1e-12``; near a root (lgamma at 1 and 2, digamma at 1.4616...) the
kernels' last cancellation leaves an absolute error of a few ulps of the terms cancelled (order
1), hence ``atol=1e-14``; where the function itself is ill-conditioned (erfinv near +-1, whose
Newton steps resolve x only to erf's last bit over erf's tiny slope) a few float64 roundings
of the input, carried through ``|x f'(x)|`` (as for float32 below). float32: torch computes
in float32 (SLEEF or glibc inside), minigrad rounds each C library call from float64
(correctly rounded): an error of up to a few float32
ulps in each step, which the function scales by its condition number ``|x f'(x) / f(x)|``
near roots and poles. The bound is ``8 ulps of the result + 8 * 2**-24 * |x f'(x)|`` (the
second term: the error of a few roundings of an input-sized intermediate, carried through
``f'``, from torch's float64 gradient), plus the smallest normal float32 for results that
underflow to subnormals (log_ndtr far right). Measured: most results are bit-identical to
torch's; the largest distance is ~160 ulps, only where the second term covers it.
"""

from __future__ import annotations

import math
import warnings

import numpy as np
import pytest
import torch
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

import minigrad
import minigrad.special
from minigrad import _left_out
from tests.torch_compare import assert_same_error

EDGES = [0.0, -0.0, math.nan, math.inf, -math.inf]
# name: (call on a library's special module and a tensor, the domain drawn, the domain's own
# edge values)
UNARY = {
    "expit": (lambda s, x: s.expit(x), (-100, 100), [1e-30]),
    "logit": (lambda s, x: s.logit(x), (0, 1), [1.0, 0.5, 1e-30]),
    "logit_eps": (lambda s, x: s.logit(x, eps=1e-3), (0, 1), [1.0, 1e-4, 0.9999]),
    "erf": (lambda s, x: s.erf(x), (-6, 6), [1e-30]),
    "erfc": (lambda s, x: s.erfc(x), (-6, 30), [1e-30]),
    "erfinv": (lambda s, x: s.erfinv(x), (-1, 1), [1.0, -1.0, 0.9999999, 0.7, -0.7, 1.5]),
    "expm1": (lambda s, x: s.expm1(x), (-50, 80), [1e-30]),
    "exp2": (lambda s, x: s.exp2(x), (-120, 120), [1e-30]),
    "log1p": (lambda s, x: s.log1p(x), (-1, 100), [-1.0, -2.0, 1e-30]),
    "gammaln": (lambda s, x: s.gammaln(x), (-20, 40), [1.0, 2.0, -1.0, -2.0, -2.5, 1e-30]),
    "digamma": (lambda s, x: s.digamma(x), (-20, 40), [1.0, 10.0, -1.0, -3.0, -2.5, 1e-30,
                                                      1.4616321449683622]),
    "psi": (lambda s, x: s.psi(x), (-5, 15), [10.0, -1.0]),
    "polygamma1": (lambda s, x: s.polygamma(1, x), (-10, 30), [0.5, 1.0, -1.0, -2.5]),
    "polygamma2": (lambda s, x: s.polygamma(2, x), (0.05, 30), [1.0, 9.0, 10.0]),
    "polygamma4": (lambda s, x: s.polygamma(4, x), (0.1, 30), [1.0, 3.5]),
    "multigammaln": (lambda s, x: s.multigammaln(x, 3), (1.01, 40), [1.5, 2.0]),
    "sinc": (lambda s, x: s.sinc(x), (-20, 20), [1.0, -2.0, 0.5, 1e-30]),
    "ndtr": (lambda s, x: s.ndtr(x), (-40, 40), [1e-30, -1.0]),
    "ndtri": (lambda s, x: s.ndtri(x), (0, 1), [1.0, 0.5, math.exp(-2), 1 - math.exp(-2),
                                                1e-20, 1e-300, 1.5, -0.5]),
    "log_ndtr": (lambda s, x: s.log_ndtr(x), (-60, 15), [-1.0, -1e3, -37.0, 1e-30]),
    "i0": (lambda s, x: s.i0(x), (-80, 80), [8.0, -8.0, 1e-30]),
    "i0e": (lambda s, x: s.i0e(x), (-200, 200), [8.0, -8.0, 1e-30]),
    "i1": (lambda s, x: s.i1(x), (-80, 80), [8.0, -8.0, 1e-30]),
    "i1e": (lambda s, x: s.i1e(x), (-200, 200), [8.0, -8.0, 1e-30]),
    "round": (lambda s, x: s.round(x), (-10, 10), [0.5, 1.5, -2.5]),
    "round_decimals": (lambda s, x: s.round(x, decimals=2), (-10, 10), [0.125, -0.005]),
    "entr": (lambda s, x: s.entr(x), (-1, 20), [1.0, 1e-30]),
    "softmax": (lambda s, x: s.softmax(x, 0), (-50, 50), []),
    "log_softmax": (lambda s, x: s.log_softmax(x, 0), (-50, 50), []),
    "logsumexp": (lambda s, x: s.logsumexp(x, 0), (-50, 50), []),
}
BINARY = {
    "xlogy": (lambda s, x, y: s.xlogy(x, y), (-5, 5), (-1, 20), [0.0, 1.0]),
    "xlog1py": (lambda s, x, y: s.xlog1py(x, y), (-5, 5), (-2, 20), [0.0, -1.0, 1.0]),
    "zeta": (lambda s, x, y: s.zeta(x, y), (1, 12), (-5, 20), [1.0, 2.0, -2.0, -1.5, 0.0]),
}
SMALLEST_NORMAL32 = float(np.finfo(np.float32).tiny)


SIZES = st.integers(1, 12)


def _arrays(low, high, edges, size=SIZES):
    elements = st.one_of(st.floats(low, high, allow_nan=False), st.sampled_from(EDGES + edges))
    return size.flatmap(lambda n: hnp.arrays(np.float64, (n,), elements=elements))


def _quiet(fn):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return fn()


def _torch_slope(fn, *xs):
    """``sum over inputs of |x * df/dx|`` in float64 by torch's autograd (0 where torch has no
    derivative or gives nan): the condition part of the float32 bound."""
    leaves = [torch.tensor(x, requires_grad=True) for x in xs]
    total = np.zeros(np.broadcast_shapes(*(np.shape(x) for x in xs)))
    for k, leaf in enumerate(leaves):
        try:
            (g,) = torch.autograd.grad(fn(torch.special, *leaves).sum(), leaf,
                                       allow_unused=True)
        except (RuntimeError, NotImplementedError):
            continue
        if g is not None:
            total += np.nan_to_num(np.abs(xs[k] * g.numpy()), nan=0.0, posinf=0.0)
    return total


def _compare(fn, xs, dtype):
    t_args = [torch.tensor(x, dtype=getattr(torch, dtype)) for x in xs]
    m_args = [minigrad.tensor(x, dtype=getattr(minigrad, dtype)) for x in xs]
    expected = _quiet(lambda: fn(torch.special, *t_args)).numpy().astype(np.float64)
    got = _quiet(lambda: fn(minigrad.special, *m_args))
    assert str(got.dtype).split(".")[-1] == str(fn(torch.special, *t_args).dtype).split(".")[-1]
    got = got.numpy().astype(np.float64)
    assert got.shape == expected.shape
    np.testing.assert_array_equal(np.isnan(got), np.isnan(expected), err_msg=f"nan at {xs}")
    finite = np.isfinite(expected)
    np.testing.assert_array_equal(got[~finite], expected[~finite], err_msg=f"inf at {xs}")
    zeros = finite & (expected == 0) & (got == 0)  # else the tolerance below decides
    np.testing.assert_array_equal(np.signbit(got[zeros]), np.signbit(expected[zeros]),
                                  err_msg=f"signed zeros at {xs}")
    inputs = [np.asarray(x, dtype).astype(np.float64) for x in xs]
    slope = _quiet(lambda: _torch_slope(fn, *inputs))
    if slope.shape != expected.shape:  # a reduction (logsumexp): the whole input's condition
        slope = np.full(expected.shape, slope.sum())
    if dtype == "float64":
        bound = 1e-12 * np.abs(expected) + 1e-14 + 8 * 2.0 ** -53 * slope
    else:
        ulp = np.spacing(np.abs(expected).astype(np.float32)).astype(np.float64)
        bound = 8 * ulp + 8 * 2.0 ** -24 * slope + SMALLEST_NORMAL32
    error = np.abs(got - expected)
    assert (error[finite] <= bound[finite]).all(), \
        f"{dtype} at {xs}: {got[finite]} vs {expected[finite]} (bound {bound[finite]})"


@pytest.mark.parametrize("dtype", ["float64", "float32"])
@pytest.mark.parametrize("name", sorted(UNARY))
@settings(max_examples=10, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_unary_values_as_torch(name, dtype, data):
    fn, (low, high), edges = UNARY[name]
    x = data.draw(_arrays(low, high, edges))
    _compare(fn, [x], dtype)


@pytest.mark.parametrize("dtype", ["float64", "float32"])
@pytest.mark.parametrize("name", sorted(BINARY))
@settings(max_examples=10, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_binary_values_as_torch(name, dtype, data):
    fn, (xlo, xhi), (ylo, yhi), edges = BINARY[name]
    n = data.draw(st.integers(1, 8))
    x = data.draw(_arrays(xlo, xhi, edges, st.just(n)))
    y = data.draw(_arrays(ylo, yhi, edges, st.just(n)))
    _compare(fn, [x, y], dtype)
    _compare(fn, [x[:1].reshape(()), y], dtype)  # a 0-d first operand: broadcasting


@pytest.mark.parametrize("name", sorted(set(UNARY) - {"round", "round_decimals"}))
@settings(max_examples=6, deadline=None)
@given(data=st.data())
def test_gradients_as_torch(name, data):
    """float64 gradients (the inside of the domain, its edges: torch's formulas give their
    own values at 0, at the poles, at +-1)."""
    fn, (low, high), edges = UNARY[name]
    finite_edges = [e for e in edges if math.isfinite(e)] + [0.0]
    margin = 1e-6 * (high - low)  # not the domain's last floats: erfinv(1 - 1e-16)'s own
    # value is resolved to ~1% only (see the module's docstring), so is its gradient
    elements = st.one_of(st.floats(low + margin, high - margin), st.sampled_from(finite_edges))
    x = data.draw(hnp.arrays(np.float64, (data.draw(st.integers(1, 6)),), elements=elements))
    g = data.draw(hnp.arrays(np.float64, x.shape, elements=st.floats(-2, 2)))
    grads = []
    for lib in (torch, minigrad):
        leaf = lib.tensor(x, requires_grad=True)
        out = _quiet(lambda: fn(lib.special, leaf))  # noqa: B023 - called at once
        seed = lib.tensor(g[:out.numel()]).reshape(out.shape)
        (grad,) = _quiet(lambda: lib.autograd.grad(out, leaf, seed))  # noqa: B023
        grads.append(grad.numpy())
    expected, got = grads
    np.testing.assert_array_equal(np.isnan(got), np.isnan(expected), err_msg=f"{x}")
    # the formulas' own ops in float64; erfinv's gradient exp(erfinv(x)**2) carries the value's
    # ~1e-11 (see the module's docstring) times 2 erfinv(x)**2 near +-1
    np.testing.assert_allclose(got, expected, rtol=1e-8, atol=1e-14, err_msg=f"{x}")


@pytest.mark.parametrize("name", sorted(UNARY))
def test_grad_fn_as_torch(name):
    fn = UNARY[name][0]
    nodes = []
    for lib in (torch, minigrad):
        out = fn(lib.special, lib.tensor([0.3, 0.6], dtype=lib.float64, requires_grad=True))
        nodes.append(type(out.grad_fn).__name__)
    assert nodes[1] == nodes[0]


def _errors():
    x = (lambda lib: lib.tensor([0.3, 0.6], requires_grad=True))
    return {
        "polygamma_negative": lambda lib: lib.special.polygamma(-1, x(lib)),
        "polygamma_method_negative": lambda lib: x(lib).polygamma(-2),
        "polygamma_tensor_n": lambda lib: lib.special.polygamma(x(lib), x(lib)),
        "multigammaln_p0": lambda lib: lib.special.multigammaln(x(lib), 0),
        "multigammaln_bool": lambda lib: lib.mvlgamma(lib.tensor([True]), 1),
        "multigammaln_no_p": lambda lib: lib.special.multigammaln(x(lib)),
        "expit_two": lambda lib: lib.special.expit(x(lib), 1),
        "gammaln_number": lambda lib: lib.special.gammaln(1.0),
        "psi_number": lambda lib: lib.special.psi(1),
        "softmax_no_dim": lambda lib: lib.special.softmax(x(lib)),
        "log_softmax_no_dim": lambda lib: lib.special.log_softmax(x(lib)),
        "logsumexp_no_dim": lambda lib: lib.special.logsumexp(x(lib)),
        "round_positional": lambda lib: lib.special.round(x(lib), 1),
        "round_int_decimals": lambda lib: lib.special.round(lib.tensor([1, 2]), decimals=1),
        "round_int_decimals0": lambda lib: lib.round(lib.tensor([1, 2]), decimals=0),
        "logit_str": lambda lib: lib.special.logit(x(lib), "a"),
        "xlogy_one": lambda lib: lib.special.xlogy(x(lib)),
        "xlog1py_one": lambda lib: lib.special.xlog1py(x(lib)),
        "zeta_one": lambda lib: lib.special.zeta(x(lib)),
        "zeta_backward": lambda lib: lib.special.zeta(x(lib) + 1, x(lib)).sum().backward(),
        "zeta_number_other_backward": lambda lib: lib.special.zeta(x(lib) + 1, 2.0).sum()
        .backward(),
        "lgamma_int_inplace": lambda lib: lib.tensor([1, 2]).lgamma_(),
        "polygamma_int_inplace": lambda lib: lib.tensor([1, 2]).polygamma_(1),
    }


@pytest.mark.parametrize("name", sorted(_errors()))
def test_errors_as_torch(name):
    fn = _errors()[name]
    assert_same_error(lambda: fn(minigrad), lambda: fn(torch))


def test_zeta_forward_ad_refused_as_torch():
    def run(lib):
        q = lib.tensor([1.5, 2.5], dtype=lib.float64)
        with lib.autograd.forward_ad.dual_level():
            dual = lib.autograd.forward_ad.make_dual(q, lib.ones_like(q))
            return lib.special.zeta(3.0, dual)

    assert_same_error(lambda: run(minigrad), lambda: run(torch))


# --- what minigrad.special leaves out ------------------------------------------------------------
LEFT_OUT = sorted(_left_out.LEFT_OUT["minigrad.special"])
HAS = ("expit, logit, erf, erfc, erfinv, xlogy, xlog1py, expm1, exp2, log1p, logsumexp, softmax, "
       "log_softmax, gammaln, digamma, psi, polygamma, multigammaln, sinc, ndtr, ndtri, "
       "log_ndtr, i0, i0e, i1, i1e, round, entr and zeta")


def test_every_torch_special_function_is_there_or_left_out():
    torch_names = {n for n in dir(torch.special) if not n.startswith("_")} - {
        "Tensor", "torch", "common_args", "multi_dim_common"}
    have = {n for n in torch_names if hasattr(minigrad.special, n)}
    assert have | set(LEFT_OUT) == torch_names
    assert not have & set(LEFT_OUT)
    assert have == set(HAS.replace(" and ", ", ").split(", "))  # the message lists them all


@pytest.mark.parametrize("name", LEFT_OUT)
def test_left_out_names_say_so(name):
    message = f"minigrad does not implement torch.special.{name}: minigrad.special has {HAS}; " \
              "or run this code with torch"
    with pytest.raises(AttributeError) as attribute:
        getattr(minigrad.special, name)
    assert str(attribute.value) == message
    with pytest.raises(ImportError) as imported:
        exec(f"from minigrad.special import {name}", {})
    assert str(imported.value) == message
    assert callable(getattr(torch.special, name))


def test_unknown_special_name_as_torch_says():
    assert_same_error(lambda: minigrad.special.no_such_function,
                      lambda: torch.special.no_such_function)


def test_special_is_no_longer_left_out():
    assert "special" not in _left_out.LEFT_OUT["minigrad"]
    assert minigrad.special.expit is not None
