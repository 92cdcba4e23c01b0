"""gradcheck and gradgradcheck: same verdicts, same failure reports and same signature as
torch's, on the same functions and inputs."""

from __future__ import annotations

import inspect
import warnings

import numpy as np
import pytest
import torch
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

import minigrad
from tests.torch_compare import assert_same_error, normalize_text, pair


def functions(lib):
    F = lib.autograd.Function

    class Square(F):
        @staticmethod
        def forward(ctx, x):
            ctx.save_for_backward(x)
            ctx.save_for_forward(x)
            return x * x

        @staticmethod
        def backward(ctx, g):
            (x,) = ctx.saved_tensors
            return 2 * g * x

        @staticmethod
        def jvp(ctx, t):
            (x,) = ctx.saved_tensors
            return 2 * t * x

    class WrongSquare(F):
        """Backward (and jvp) forget the factor 2."""

        @staticmethod
        def forward(ctx, x):
            ctx.save_for_backward(x)
            ctx.save_for_forward(x)
            return x * x

        @staticmethod
        def backward(ctx, g):
            (x,) = ctx.saved_tensors
            return g * x

        @staticmethod
        def jvp(ctx, t):
            (x,) = ctx.saved_tensors
            return t * x

    class MulAdd(F):
        """Two inputs, two outputs: (x * y, x + y)."""

        @staticmethod
        def forward(ctx, x, y):
            ctx.save_for_backward(x, y)
            return x * y, x + y

        @staticmethod
        def backward(ctx, ga, gb):
            x, y = ctx.saved_tensors
            return ga * y + gb, ga * x + gb

    class WrongSecondInput(F):
        @staticmethod
        def forward(ctx, x, y):
            ctx.save_for_backward(x, y)
            return x * y.exp()

        @staticmethod
        def backward(ctx, g):
            x, y = ctx.saved_tensors
            return g * y.exp(), g * x  # the second should be g * x * exp(y)

    class DetachedBackward(F):
        """First derivative right, second wrong: backward cuts its own graph."""

        @staticmethod
        def forward(ctx, x):
            ctx.save_for_backward(x)
            return x ** 3

        @staticmethod
        def backward(ctx, g):
            (x,) = ctx.saved_tensors
            return 3 * g * (x * x).detach()

    return {c.__name__: c for c in (Square, WrongSquare, MulAdd, WrongSecondInput,
                                    DetachedBackward)}


M, T = functions(minigrad), functions(torch)


def _inputs(lib, arrays, requires=None):
    return tuple(lib.tensor(a.copy(), requires_grad=True if requires is None else r)
                 for a, r in zip(arrays, requires or [None] * len(arrays)))


vectors = hnp.arrays(np.float64, st.integers(1, 4), elements=st.floats(-2, 2))


def _both(fn_name, arrays, check=minigrad.autograd.gradcheck, t_check=None, **kw):
    t_check = t_check or getattr(torch.autograd, check.__name__)
    m = check(M[fn_name].apply, _inputs(minigrad, arrays), **kw)
    t = t_check(T[fn_name].apply, _inputs(torch, arrays), **kw)
    return m, t


@settings(deadline=None, max_examples=15)
@given(vectors)
def test_correct_function_passes(a):
    assert _both("Square", [a]) == (True, True)


@settings(deadline=None, max_examples=15)
@given(vectors.filter(lambda a: np.abs(a).max() > 0.01))
def test_wrong_function_fails_with_torchs_report(a):
    def run(lib, fns):
        return lib.autograd.gradcheck(fns["WrongSquare"].apply,
                                                  _inputs(lib, [a]))

    exc = assert_same_error(lambda: run(minigrad, M), lambda: run(torch, T))
    assert str(exc).startswith("Jacobian mismatch for output 0 with respect to input 0,\n"
                               "numerical:")
    assert _both("WrongSquare", [a], raise_exception=False) == (False, False)


def test_report_names_the_right_input_and_output():
    rng = np.random.default_rng(1)
    arrays = [rng.normal(size=3), rng.normal(size=3)]
    assert _both("MulAdd", arrays) == (True, True)

    def run(lib, fns):
        return lib.autograd.gradcheck(fns["WrongSecondInput"].apply, _inputs(lib, arrays))

    exc = assert_same_error(lambda: run(minigrad, M), lambda: run(torch, T))
    assert "with respect to input 1" in str(exc)


def test_tolerances_and_eps_are_used():
    a = np.array([0.5, -1.5, 2.0])
    # a huge atol lets the wrong function through, in both engines
    assert _both("WrongSquare", [a], atol=10.0) == (True, True)
    assert _both("Square", [a], eps=1e-3) == (True, True)


@settings(deadline=None, max_examples=10)
@given(vectors, vectors)
def test_ops_pass_gradcheck_and_gradgradcheck(a, b):
    n = min(len(a), len(b))
    a, b = a[:n], np.abs(b[:n]) + 0.5

    def f(x, y):
        return ((x * y).sin() / y + x.tanh() * y.log()).sum(), x.exp() * y ** 2

    for check in ("gradcheck", "gradgradcheck"):
        m = getattr(minigrad.autograd, check)(f, _inputs(minigrad, [a, b]))
        t = getattr(torch.autograd, check)(f, _inputs(torch, [a, b]))
        assert m is t is True


def test_gradgradcheck_catches_a_backward_that_is_not_differentiable():
    a = np.array([0.5, -1.5, 2.0])
    assert _both("Square", [a], check=minigrad.autograd.gradgradcheck) == (True, True)
    assert _both("DetachedBackward", [a], check=minigrad.autograd.gradgradcheck,
                 raise_exception=False) == (False, False)
    assert _both("DetachedBackward", [a]) == (True, True)


def test_gradgradcheck_with_given_grad_outputs():
    a, v = np.array([0.3, -0.7]), np.array([1.5, -0.5])

    def run(lib):
        x = lib.tensor(a, requires_grad=True)
        gv = lib.tensor(v, requires_grad=True)
        return lib.autograd.gradgradcheck(lambda t: t.sin() * t, (x,), (gv,))

    assert run(minigrad) is run(torch) is True


def test_forward_ad_check():
    a = np.array([0.5, -1.5, 2.0])
    assert _both("Square", [a], check_forward_ad=True) == (True, True)

    def run(lib, fns):
        return lib.autograd.gradcheck(fns["WrongSquare"].apply, _inputs(lib, [a]),
                                      check_forward_ad=True, check_backward_ad=False)

    exc = assert_same_error(lambda: run(minigrad, M), lambda: run(torch, T))
    assert "computed with forward mode" in str(exc)


@pytest.mark.parametrize("shapes", [((0,), ()), ((0, 3),), ((3, 4), (0, 4))],
                         ids=["empty-and-0d", "empty", "empty-source"])
def test_forward_ad_check_with_inputs_of_no_elements(shapes):
    """An input of 0 elements gives a Jacobian of no rows (and one column per output element):
    minigrad's forward-mode check broadcast a (0, 0) one against the numerical (0, n)."""
    def run(lib):
        xs = [(lib.arange(int(np.prod(s)), dtype=lib.float64) * 0.1 - 0.3).reshape(s)
              .requires_grad_() for s in shapes]
        if len(xs) == 2 and xs[1].dim() == 2:  # index_copy of an empty source, as op_db's
            def f(a, b):
                return a.index_copy(0, lib.zeros(0, dtype=lib.int64), b)
        else:
            def f(*ts):
                return tuple(t * 2 + 1 for t in ts) + (ts[0].sum(),)
        return lib.autograd.gradcheck(f, tuple(xs), check_forward_ad=True)

    assert run(minigrad) is run(torch) is True


@pytest.mark.parametrize("make_inputs", [lambda x, y: x, lambda x, y: [y, x]],
                         ids=["input", "second-input"])
def test_grad_checks_its_outputs_before_its_inputs(make_inputs):
    """``autograd.grad(f(x), x)`` where nothing requires grad: torch's engine reports the
    output first ("element 0 of tensors..."), and only then an input that needs no grad."""
    def run(lib):
        x, y = lib.ones(3), lib.ones(3, requires_grad=True)
        return lib.autograd.grad(x.sin().sum(), make_inputs(x, y))

    assert_same_error(lambda: run(minigrad), lambda: run(torch))


def test_no_input_requires_grad():
    a = np.array([1.0, 2.0])
    assert_same_error(
        lambda: minigrad.autograd.gradcheck(lambda x: x * 2, (minigrad.tensor(a),)),
        lambda: torch.autograd.gradcheck(lambda x: x * 2, (torch.tensor(a),)))


def test_float32_input_warns_like_torch():
    a = np.array([1.0, 2.0], dtype=np.float32)
    texts = []
    for lib in (minigrad, torch):
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            x = lib.tensor(a, requires_grad=True)
            lib.autograd.gradcheck(lambda t: t * 2, (x,), raise_exception=False)
        texts.append([normalize_text(str(w.message)) for w in caught])
    assert texts[0] == texts[1] and texts[0]


def test_non_tensor_argument_and_single_tensor_input():
    m, t = pair([0.1, 0.2], requires_grad=True)
    assert minigrad.autograd.gradcheck(lambda x, k: x * k, (m, 3.0))
    assert torch.autograd.gradcheck(lambda x, k: x * k, (t, 3.0))
    assert minigrad.autograd.gradcheck(lambda x: x.exp(), m)
    assert torch.autograd.gradcheck(lambda x: x.exp(), t)


@pytest.mark.parametrize("name", ["gradcheck", "gradgradcheck"])
def test_signature_and_defaults_match_torch(name):
    def params(fn):
        return [(p.name, p.kind, p.default) for p in inspect.signature(fn).parameters.values()]

    assert params(getattr(minigrad.autograd, name)) == params(getattr(torch.autograd, name))
    assert minigrad.autograd.GradcheckError.__mro__[1] is RuntimeError
