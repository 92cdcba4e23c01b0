"""float32 results bit for bit against torch: the digits learners see are torch's.

torch's CPU kernels (SLEEF for exp, log, sin, cos, tanh, pow; fused multiply-adds in some
backward kernels) round some float32 results differently from NumPy. minigrad chooses, op by
op, how to compute so that as many results as possible are bit-identical to torch's (see
``_like_torch`` in ``minigrad/_ops/pointwise.py``). Exact equality everywhere would need
SLEEF's own algorithms, so this file measures, on 100k elements per input range, the fraction
of float32 results bit-identical to torch (computed now), forward and backward, and keeps each
op at or above a floor set a little below what was measured: reverting a choice falls below
it. Then whole examples of the course must match torch exactly, repr and bits.
"""

from __future__ import annotations

import numpy as np
import pytest
import torch

import minigrad

N = 100_000
RANGES = {  # name: (low, high) of a uniform draw
    "tiny": (-1e-3, 1e-3),
    "unit": (-3.0, 3.0),
    "wide": (-30.0, 30.0),
}
POSITIVE = {
    "tiny": (1e-4, 1e-2),
    "unit": (0.05, 3.0),
    "wide": (3.0, 1e4),
}


def _inputs(positive, seed):
    rng = np.random.default_rng(seed)
    ranges = POSITIVE if positive else RANGES
    return {name: rng.uniform(lo, hi, N).astype(np.float32) for name, (lo, hi) in ranges.items()}


def _same_bits(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Element-wise: the same float32 bits (any NaN equals any NaN: torch prints them alike)."""
    return (a.view(np.uint32) == b.view(np.uint32)) | (np.isnan(a) & np.isnan(b))


def _run(lib, fn, x, g, y=None):
    """fn's forward values and the gradient of x (and of y) for the upstream gradient g."""
    xs = [lib.tensor(x, requires_grad=True)] + ([] if y is None else
                                                 [lib.tensor(y, requires_grad=True)])
    out = fn(lib, *xs)
    out.backward(lib.tensor(g))
    return [out.detach().numpy()] + [t.grad.numpy() for t in xs]


# op: (function of (lib, x[, y]), positive inputs?, a second input y?, {result: floor}).
# The comments give what was measured (lowest input range, torch 2.13 CPU, AVX512): out,
# gradient [, gradient of y], then in brackets what NumPy float32 and the previous order of
# operations gave.
OPS = {
    # 98.9, 99.1 (60: grad * result is exact once the result is)
    "exp": (lambda lib, x: lib.exp(x), False, False, {"out": 0.985, "grad": 0.985}),
    # 90.3, 100 (84)
    "log": (lambda lib, x: lib.log(x), True, False, {"out": 0.89, "grad": 0.999}),
    # 94.9, 93.8 (83)
    "sin": (lambda lib, x: lib.sin(x), False, False, {"out": 0.935, "grad": 0.925}),
    # 91.8, 95.8 (81)
    "cos": (lambda lib, x: lib.cos(x), False, False, {"out": 0.90, "grad": 0.945}),
    # 99.9, 99.9 (68, 41)
    "tanh": (lambda lib, x: lib.tanh(x), False, False, {"out": 0.995, "grad": 0.995}),
    # 95.9, 96.3 (83, 65)
    "sigmoid": (lambda lib, x: lib.sigmoid(x), False, False, {"out": 0.95, "grad": 0.95}),
    # 100, 100 (100, 65)
    "reciprocal": (lambda lib, x: lib.reciprocal(x), True, False,
                   {"out": 0.999, "grad": 0.999}),
    # 98.2, 98.5 (79, 64)
    "pow_2.5": (lambda lib, x: x ** 2.5, True, False, {"out": 0.975, "grad": 0.975}),
    # 98.1, 98.5 (85, 63)
    "pow_-1.5": (lambda lib, x: x ** -1.5, True, False, {"out": 0.975, "grad": 0.975}),
    # 100, 100 (70, 62)
    "pow_3": (lambda lib, x: x ** 3, False, False, {"out": 0.999, "grad": 0.999}),
    # 100, 98.3 (70)
    "pow_-2": (lambda lib, x: x ** -2, True, False, {"out": 0.999, "grad": 0.975}),
    # 98.2, 100 (79)
    "pow_4": (lambda lib, x: x ** 4, False, False, {"out": 0.975, "grad": 0.999}),
    # 98.2, 98.3 (79)
    "rpow": (lambda lib, x: 2.7 ** x, False, False, {"out": 0.975, "grad": 0.975}),
    # 98.2, 98.4, 90.9 (80, -, 60)
    "pow_tensor": (lambda lib, x, y: x ** y, True, True,
                   {"out": 0.975, "grad": 0.975, "grad_y": 0.90}),
    # 100, 100, 100 (100, 100, 54)
    "div": (lambda lib, x, y: x / y, True, True,
            {"out": 0.999, "grad": 0.999, "grad_y": 0.999}),
    # 83.1, 85.2: torch's float32 sqrt is not correctly rounded on the reference CPU, and
    # rounding NumPy's float64 sqrt gets no closer: left as NumPy computes it.
    "sqrt": (lambda lib, x: lib.sqrt(x), True, False, {"out": 0.82, "grad": 0.84}),
}


def measure(name, seed=0):
    """{result: lowest fraction over the input ranges} for one op of OPS."""
    fn, positive, binary, _ = OPS[name]
    rng = np.random.default_rng(seed + 1)
    lowest = {}
    for x in _inputs(positive, seed).values():
        g = rng.standard_normal(N).astype(np.float32)
        y = rng.uniform(-3, 3, N).astype(np.float32) if binary else None
        if name == "div":
            y = np.where(rng.random(N) < 0.5, -1, 1).astype(np.float32) * x[::-1]
        ours = _run(minigrad, fn, x, g, y)
        theirs = _run(torch, fn, x, g, y)
        for key, a, b in zip(("out", "grad", "grad_y"), ours, theirs):
            frac = float(_same_bits(a, b).mean())
            lowest[key] = min(frac, lowest.get(key, 1.0))
    return lowest


@pytest.mark.parametrize("name", sorted(OPS))
def test_float32_bit_identical_fraction(name):
    floors = OPS[name][3]
    measured = measure(name)
    for key, floor in floors.items():
        assert measured[key] >= floor, (name, key, measured)


@pytest.mark.parametrize(("name", "floor"), [("tanh", 0.995), ("sigmoid", 0.95)])
def test_create_graph_gradient_fraction(name, floor):
    """With ``create_graph`` the gradient is built from minigrad ops, rounding as the fused
    kernel does: tanh 99.95% (41% with 1 - y*y rounded twice), sigmoid 97.0%."""
    rng = np.random.default_rng(5)
    x = rng.uniform(-3, 3, N).astype(np.float32)
    g = rng.standard_normal(N).astype(np.float32)
    grads = []
    for lib in (minigrad, torch):
        t = lib.tensor(x, requires_grad=True)
        (gx,) = lib.autograd.grad(getattr(lib, name)(t), t, lib.tensor(g), create_graph=True)
        grads.append(gx.detach().numpy())
    assert _same_bits(*grads).mean() >= floor


def test_float64_stays_numpy_float64():
    x = np.random.default_rng(3).uniform(0.1, 5, 1000)
    t = minigrad.tensor(x)
    for fn, np_fn in ((minigrad.exp, np.exp), (minigrad.log, np.log), (minigrad.sin, np.sin),
                      (minigrad.cos, np.cos), (minigrad.tanh, np.tanh),
                      (lambda t: t ** 2.5, lambda x: np.power(x, 2.5))):
        assert np.array_equal(fn(t).numpy(), np_fn(x))


@pytest.mark.parametrize("name", ["reciprocal", "div"])
def test_float64_gradients_in_torchs_order(name):
    """The backward formulas follow torch's order of operations, so float64 gradients made of
    arithmetic alone are bit-identical too (54-65% were in the previous order). (float64
    exp, pow... are NumPy's and differ from torch's in the last bit for a few % of inputs.)"""
    fn, _, binary, _ = OPS[name]
    rng = np.random.default_rng(11)
    x = rng.uniform(0.1, 3, 20_000)
    y = rng.uniform(-3, 3, 20_000) if binary else None
    g = rng.standard_normal(20_000)
    for ours, theirs in zip(_run(minigrad, fn, x, g, y)[1:], _run(torch, fn, x, g, y)[1:]):
        assert np.array_equal(ours, theirs)


def _bits(t):
    return np.asarray(t.detach().numpy(), dtype=np.float32).view(np.uint32).tolist()


def _same(ours, theirs):
    """The same printed repr and the same float32 bits."""
    assert repr(ours) == repr(theirs)
    assert _bits(ours) == _bits(theirs)


def _log_sin(lib):
    x1 = lib.tensor(1.0, requires_grad=True)
    x2 = lib.tensor(2.0, requires_grad=True)
    a = x1 * x2
    a.retain_grad()
    log_a, sin_a = lib.log(a), lib.sin(a)
    log_a.retain_grad()
    sin_a.retain_grad()
    z = log_a * sin_a
    z.backward()
    return [x1.grad, x2.grad, log_a.grad, sin_a.grad, a.grad, z]


def test_log_sin_example_bit_for_bit():
    ours, theirs = _log_sin(minigrad), _log_sin(torch)
    for a, b in zip(ours, theirs):
        _same(a, b)
        assert a.item() == b.item()


def _seed_detach(lib):
    """The seed's own detach example: dz/dx1 = -0.5769020318984985, dz/dx2 = -0.28845101594924927
    under torch (printed here by both engines, never typed in)."""
    x1 = lib.tensor(1.0, requires_grad=True)
    x2 = lib.tensor(2.0, requires_grad=True)
    y1 = x1 * x2
    z = lib.log(y1.detach()) * lib.sin(y1)
    z.backward()
    return [x1.grad, x2.grad, z]


def _detach_square(lib):
    x = lib.tensor([1.0, 2.0, 3.0], requires_grad=True)
    y = x ** 2
    z = y.detach() * x.exp() + y
    z.sum().backward()
    return [x.grad, y, z]


def _detach_exp_tanh(lib):
    x = lib.tensor([0.5, -1.25, 2.0, 3.7], requires_grad=True)
    y = x.exp()
    z = (y.detach() * x.tanh() + 1.5).log()
    (z * z).sum().backward()
    return [x.grad, z]


def _detach_pow_sigmoid(lib):
    x = lib.tensor([[0.3, 1.7], [2.6, 4.2]], requires_grad=True)
    y = x ** 1.5
    z = y.detach().sigmoid() * x ** 0.7 + lib.cos(x) / (x + 1)
    w = 3.0 ** z
    w.backward(lib.ones_like(w))
    return [x.grad, z, w]


def _detach_chain(lib):
    x = lib.tensor([0.1, 0.2, 0.7, 1.4, 2.2], requires_grad=True)
    h = lib.tanh(x * 3) ** 3
    k = h.detach().exp() * lib.log(x)
    out = k / (1 + x ** -2)
    out.backward(lib.ones_like(out))
    return [x.grad, h, k, out]


# Inputs avoid the few points where torch's SLEEF functions are not correctly rounded (there
# minigrad's float64-rounded result is one ulp away, see the fractions above): torch's
# cos(1.0), sin(2.9) and log(1.3) are such points. A float32 sum of several elements is
# compared elsewhere: torch adds in another order than NumPy.
@pytest.mark.parametrize("example", [_seed_detach, _detach_square, _detach_exp_tanh,
                                     _detach_pow_sigmoid, _detach_chain])
def test_detach_examples_bit_for_bit(example):
    for a, b in zip(example(minigrad), example(torch)):
        _same(a, b)
        if a.dim() == 0:
            assert a.item() == b.item()


if __name__ == "__main__":  # print the measured fractions, to update the table above
    for name in sorted(OPS):
        print(name, {k: round(v, 4) for k, v in measure(name).items()})
