"""What running PyTorch's own tutorials on minigrad turned up (tools/tutorial_sweep.py), in
the files no other part owns: forward_ad's levels, its checks and their order, and
``dual_level`` as a decorator. Each scenario runs the same code on both engines; torch, run
here, is the oracle."""

from __future__ import annotations

import pytest
import torch
import torch.autograd.forward_ad as tfw

import minigrad
from minigrad.autograd import forward_ad as mfw
from tests.torch_compare import assert_close, assert_same_error, capture

FW = {minigrad: mfw, torch: tfw}


def _level(fw) -> int:
    return fw._current_level() if fw is mfw else fw._current_level


@pytest.fixture(autouse=True)
def no_level_left():
    """A failing scenario must not leave a level open for the next one."""
    yield
    for fw in (mfw, tfw):
        while _level(fw) >= 0:
            fw.exit_dual_level()


def run(scenario):
    """The scenario on both engines, each closing whatever level it opened."""
    def on(lib):
        def call():
            try:
                return scenario(lib, FW[lib])
            finally:
                while _level(FW[lib]) >= 0:
                    FW[lib].exit_dual_level()
        return call
    return on(minigrad), on(torch)


def _inside(body):
    def scenario(L, fw):
        fw.enter_dual_level()
        return body(L, fw)
    return scenario


def _p(L):
    return L.tensor([1.0, -2.0, 3.0], dtype=L.float64)


ERRORS = {
    "exit without a level": lambda L, fw: fw.exit_dual_level(),
    "exit level 0 without a level": lambda L, fw: fw.exit_dual_level(level=0),
    "exit a level that is not the current one":
        _inside(lambda L, fw: fw.exit_dual_level(level=1)),
    "a second level": _inside(lambda L, fw: fw.enter_dual_level()),
    "make_dual without a level": lambda L, fw: fw.make_dual(_p(L), L.ones(3, dtype=L.float64)),
    "make_dual at an invalid level":
        _inside(lambda L, fw: fw.make_dual(_p(L), L.ones(3, dtype=L.float64), level=1)),
    "make_dual at level -1":
        _inside(lambda L, fw: fw.make_dual(_p(L), L.ones(3, dtype=L.float64), level=-1)),
    "an integer tangent": _inside(lambda L, fw: fw.make_dual(_p(L), L.ones(3, dtype=L.int64))),
    "an integer primal is named before a size mismatch":
        _inside(lambda L, fw: fw.make_dual(L.ones(2, dtype=L.int64), L.ones(3, dtype=L.int64))),
    "an integer tangent is named before a size mismatch":
        _inside(lambda L, fw: fw.make_dual(_p(L), L.ones(4, dtype=L.int64))),
    "a size mismatch": _inside(lambda L, fw: fw.make_dual(_p(L), L.ones(4, dtype=L.float64))),
    "a number as primal": _inside(lambda L, fw: fw.make_dual(3.0, L.ones(3))),
    "unpack_dual of a number inside a level": _inside(lambda L, fw: fw.unpack_dual(3)),
    "unpack_dual of None inside a level": _inside(lambda L, fw: fw.unpack_dual(None)),
    "unpack_dual of a dual at another level": _inside(
        lambda L, fw: fw.unpack_dual(fw.make_dual(_p(L), L.ones(3, dtype=L.float64)), level=1)),
}


@pytest.mark.parametrize("name", list(ERRORS))
def test_forward_ad_errors_as_torch(name):
    assert_same_error(*run(ERRORS[name]))


def test_levels_are_numbered_as_torch_numbers_them():
    def scenario(L, fw):
        numbers = []
        for _ in range(3):
            with fw.dual_level() as level:
                numbers.append(level)
        numbers.append(fw.enter_dual_level())
        fw.exit_dual_level(level=0)
        return numbers
    m_fn, t_fn = run(scenario)
    assert m_fn() == t_fn() == [0, 0, 0, 0]


def test_unpack_dual_passes_through_what_it_does_not_check():
    def scenario(L, fw):
        p = _p(L)
        outside = fw.unpack_dual(3)
        fw.enter_dual_level()
        d = fw.make_dual(p, L.ones(3, dtype=L.float64))
        other_level = fw.unpack_dual(p, level=1)          # a plain tensor: no check
        return (outside.primal, outside.tangent, other_level.tangent,
                fw.unpack_dual(d, level=0).tangent.tolist())
    m_fn, t_fn = run(scenario)
    assert m_fn() == t_fn() == (3, None, None, [1.0, 1.0, 1.0])


def test_dual_level_decorates_a_function():
    def scenario(L, fw):
        @fw.dual_level()
        def tangent_of_square(x):
            d = fw.make_dual(x, L.ones_like(x))
            return fw.unpack_dual(d * d).tangent

        result = tangent_of_square(L.tensor([1.0, 2.0, -3.0]))
        return result, _level(fw)
    (m, m_level), (t, t_level) = run(scenario)[0](), run(scenario)[1]()
    assert m_level == t_level == -1          # the level ended with the call
    assert_close(m, t)


def test_dual_level_decorates_a_generator_step_by_step():
    def scenario(L, fw):
        @fw.dual_level()
        def tangents(xs):
            for x in xs:
                yield fw.unpack_dual(fw.make_dual(x, L.ones_like(x)) * 3).tangent

        seen = []
        for tangent in tangents([L.tensor([1.0]), L.tensor([2.0, 5.0])]):
            seen.append((tangent.tolist(), _level(fw)))   # between steps: no level
        return seen
    m_fn, t_fn = run(scenario)
    assert m_fn() == t_fn() == [([3.0], -1), ([3.0, 3.0], -1)]


def test_public_names_as_torch():
    assert mfw.__all__ == tfw.__all__


def test_scenarios_raise_on_torch():
    """The error scenarios above are errors on torch itself (the oracle has not moved)."""
    for scenario in ERRORS.values():
        assert capture(run(scenario)[1])[0] == "error"


# --- gradcheck: Jacobians in torch's dtypes ---------------------------------------------------
# The numerical Jacobian has the output's dtype, the analytical one the input's: a float32
# function's failure prints float32 Jacobians (no dtype suffix), as torch's does.

def _wrong_backward(L):
    class Triple(L.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            ctx.save_for_backward(x)
            return x ** 2

        @staticmethod
        def backward(ctx, g):
            x, = ctx.saved_tensors
            return g * 3 * x
    return Triple.apply


GRADCHECK_FAILURES = {
    "float32, coarse finite differences": lambda L: L.autograd.gradcheck(
        lambda a: a * 2, (L.ones(2, requires_grad=True),)),
    "float32, wrong backward": lambda L: L.autograd.gradcheck(
        _wrong_backward(L), (L.tensor([1.0, 2.0], requires_grad=True),)),
    "float64, wrong backward": lambda L: L.autograd.gradcheck(
        _wrong_backward(L), (L.tensor([1.0, 2.0], dtype=L.float64, requires_grad=True),)),
    "float64 in, float32 out": lambda L: L.autograd.gradcheck(
        lambda a: a.float() * 2, (L.tensor([1.0, 3.0], dtype=L.float64, requires_grad=True),)),
    "float32, forward mode, coarse finite differences": lambda L: L.autograd.gradcheck(
        lambda a: a * 2, (L.ones(2, requires_grad=True),), check_forward_ad=True,
        check_backward_ad=False),
}


@pytest.mark.filterwarnings("ignore:Input #0 requires gradient")
@pytest.mark.parametrize("name", list(GRADCHECK_FAILURES))
def test_gradcheck_failure_message_as_torch(name):
    check = GRADCHECK_FAILURES[name]
    assert_same_error(lambda: check(minigrad), lambda: check(torch))
