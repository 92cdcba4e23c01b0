"""float32 results of minigrad and torch against an exact reference: error budgets that hold on
every CPU, and the measurements behind them.

Shared by ``tests/engine/test_float32_bits.py`` (which asserts the budgets) and
``benchmarks/float32_report.py`` (which prints, per op, how many results are bit-identical to
torch's and how far apart the others are: figures that depend on the CPU, so they are a report,
never a test).

Units. ``U = 2**-24`` is float32's unit roundoff: a correctly rounded result ``fl(v)`` has
``|fl(v) - v| <= U |v|``, and one ulp of ``v`` is at most ``2 U |v|``. Every budget is a number of
such relative errors, counted from the roundings a kernel makes (first order: the second-order
terms are below ``U**2``, covered by the ``SLACK`` factor).

The reference is torch's float64 result for the same float32 inputs (MKL's or SLEEF's double
functions are within 1 ulp of float64: ``2**-29`` float32 ulps, so the reference is exact for
our purpose), and float64 autograd for derivatives.
"""

from __future__ import annotations

import numpy as np
import torch

import minigrad

U = 2.0 ** -24
SLACK = 1 + 2.0 ** -10  # second-order terms and the float64 reference's own ~1e-16 error
TINY = 2.0 ** -149  # the smallest float32: absolute floor of every bound (one subnormal step)
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
BASE = float(np.float32(2.7))  # number ** x: both engines raise the float32 number to x


def _tanh_bwd(exact, g, x, y, sens, ours):
    """g * (1 - y*y) from the rounded output y: the output's error |dy| <= c U |y| (c = 1
    ours, 2 torch) moves it by |sens| |dy|, sens = d(g (1 - y*y))/dy (torch's float64
    autograd of its tanh_backward); then 1 - y*y rounds once (ours: in float64, then to
    float32; torch: one fused multiply-add) or twice (torch without FMA: y*y rounds, by
    U y*y = U |sens| |y| / (2 |g|), then 1 - y*y is exact or rounds once), and the product
    rounds."""
    c = 1 if ours else 2.5
    return U * (2 * np.abs(exact) + c * np.abs(sens * y))


def _sigmoid_bwd(exact, g, x, y, sens, ours):
    """g * (1 - y) * y from the rounded output y (the same three float32 roundings in both
    engines), plus the output's error |dy| <= 3 U |y| (ours) or 4 U |y| (torch) (see
    sigmoid's forward budget) times sens = d(g (1 - y) y)/dy (torch's float64 autograd of its
    sigmoid_backward)."""
    c = 3 if ours else 4
    return U * (3 * np.abs(exact) + c * np.abs(sens * y))


def _pow_tensor_grad_x(exact, g, x, y, sens, ours):
    """g * (y * x ** (y - 1)): y - 1 rounds (by U |y - 1|), which moves the power by
    |ln x| U |y - 1| relatively; then the power (1 U ours, 2 U torch) and two products."""
    return U * np.abs(exact) * ((3 if ours else 4) + np.abs(np.log(x) * (y - 1)))


# name: (function of (lib, x[, y]), positive inputs?, a second input?, forward budget (ours,
# torch), gradient budget per input (ours, torch): a number of U |exact gradient|, or a
# function giving the bound). Ours is what minigrad computes (see ``_like_torch`` in
# minigrad/_ops/pointwise.py): exp, log, sin, cos, tanh and pow in float64, rounded once to
# float32 -- NumPy's float64 functions are within a few float64 ulps (~2**-27 float32 ulps)
# on every CPU, so the result is correctly rounded up to that: 1 U. Torch's are MKL's vector
# math in HA mode (exp, log, sin, cos, tanh, sqrt), SLEEF's u10 functions (pow, and the exp in
# sigmoid) or, without vector units (ATEN_CPU_CAPABILITY=default), the C library's expf and
# powf: all documented within 1 ulp, i.e. 2 U. An arithmetic op (+ - * /, sqrt in NumPy) is
# IEEE's, correctly rounded: 1 U each.
OPS = {
    # exp: ours 1 rounding; grad = g * y: y's rounding + the product's
    "exp": (lambda lib, x: lib.exp(x), False, False, (1, 2), [(2, 3)]),
    # grad = g / x: one IEEE division in both engines
    "log": (lambda lib, x: lib.log(x), True, False, (1, 2), [(1, 1)]),
    # grad = g * cos(x): the cosine's rounding + the product's
    "sin": (lambda lib, x: lib.sin(x), False, False, (1, 2), [(2, 3)]),
    "cos": (lambda lib, x: lib.cos(x), False, False, (1, 2), [(2, 3)]),
    "tanh": (lambda lib, x: lib.tanh(x), False, False, (1, 2), [_tanh_bwd]),
    # 1 / (1 + exp(-x)): e = exp(-x) (1 U ours, 2 U torch) enters as e / (1 + e) < 1 of its
    # error, 1 + e and the division round once each: 3 U ours, 4 U torch
    "sigmoid": (lambda lib, x: lib.sigmoid(x), False, False, (3, 4), [_sigmoid_bwd]),
    # IEEE division in both; grad = -g * (r * r): r's error twice, and two products
    "reciprocal": (lambda lib, x: lib.reciprocal(x), True, False, (1, 1), [(4, 4)]),
    # x ** e: one rounding (ours), pow's 1 ulp (torch); grad = g * (e * x ** (e - 1)): the
    # power's error and two products
    "pow_2.5": (lambda lib, x: x ** 2.5, True, False, (1, 2), [(3, 4)]),
    "pow_-1.5": (lambda lib, x: x ** -1.5, True, False, (1, 2), [(3, 4)]),
    # x * x * x in both (two roundings); grad = g * (3 * (x * x)): three
    "pow_3": (lambda lib, x: x ** 3, False, False, (2, 2), [(3, 3)]),
    # 1 / (x * x) in both; grad = g * (-2 * x ** -3): ours pow rounded once, torch's pow
    # 1 ulp; times -2 is exact, times g rounds
    "pow_-2": (lambda lib, x: x ** -2, True, False, (2, 2), [(2, 3)]),
    # ours one rounding, torch's pow 1 ulp; grad = g * (4 * (x * x * x)): x ** 3 rounds twice
    # (both), times 4 is exact, times g rounds
    "pow_4": (lambda lib, x: x ** 4, False, False, (1, 2), [(3, 3)]),
    # BASE ** x; grad = g * (result * log(BASE)): log(BASE) is a float32 number (1 U), the
    # result's error, two products
    "rpow": (lambda lib, x: BASE ** x, False, False, (1, 2), [(4, 5)]),
    # grad_y = g * (result * log(x)): the result's and the log's errors, two products
    "pow_tensor": (lambda lib, x, y: x ** y, True, True, (1, 2), [_pow_tensor_grad_x, (4, 6)]),
    # IEEE division; grads g / y and -g * ((x / y) / y): the same ops in both engines
    "div": (lambda lib, x, y: x / y, True, True, (1, 1), [(1, 1), (3, 3)]),
    # ours IEEE sqrt; torch's MKL sqrt (HA) within 1 ulp; grad = g / (2 * result)
    "sqrt": (lambda lib, x: lib.sqrt(x), True, False, (1, 2), [(2, 3)]),
}

# Where both engines run the same IEEE operations (correctly rounded, no fused multiply-add
# possible) in the same order on the same float32 values, the bits are equal on every CPU:
# (op, result) pairs asserted bit for bit.
SAME_OPERATIONS = {
    ("reciprocal", "out"), ("reciprocal", "grad"),
    ("div", "out"), ("div", "grad"), ("div", "grad_y"),
    ("log", "grad"),
    ("pow_3", "out"), ("pow_3", "grad"),
    ("pow_-2", "out"),
    ("pow_4", "grad"),
}

# The backward kernels of the ops whose gradient is computed from their output.
OUTPUT_BACKWARD = {"tanh": torch.ops.aten.tanh_backward, "sigmoid": torch.ops.aten.sigmoid_backward}

RESULTS = ("out", "grad", "grad_y")


def inputs(name, seed=0, n=N):
    """{range name: (x, g, y or None)} for one op of OPS: n float32 inputs per range."""
    _, positive, binary, *_ = OPS[name]
    rng = np.random.default_rng(seed)
    noise = np.random.default_rng(seed + 1)
    ranges = POSITIVE if positive else RANGES
    out = {}
    for key, (lo, hi) in ranges.items():
        x = rng.uniform(lo, hi, n).astype(np.float32)
        g = noise.standard_normal(n).astype(np.float32)
        y = noise.uniform(-3, 3, n).astype(np.float32) if binary else None
        if name == "div":
            y = np.where(noise.random(n) < 0.5, -1, 1).astype(np.float32) * x[::-1]
        out[key] = (x, g, y)
    return out


def run(lib, name, x, g, y=None):
    """The op's forward values and the gradients of its inputs for the upstream gradient g."""
    fn = OPS[name][0]
    xs = [lib.tensor(v, requires_grad=True) for v in (x, y) if v is not None]
    out = fn(lib, *xs)
    out.backward(lib.tensor(g))
    return [out.detach().numpy()] + [t.grad.numpy() for t in xs]


def reference(name, x, g, y=None):
    """torch float64 on the same float32 inputs: [out, grads...], and, for an op whose
    backward reads its output (tanh, sigmoid), how fast that backward changes with the output:
    ``sens = d backward(g, out) / d out`` (torch's float64 autograd through its own backward
    kernel, ``|g f''(x) / f'(x)|`` in the usual notation), which turns the forward's error into
    the gradient's."""
    fn = OPS[name][0]
    xs = [torch.tensor(v.astype(np.float64), requires_grad=True) for v in (x, y)
          if v is not None]
    out = fn(torch, *xs)
    g64 = torch.tensor(g.astype(np.float64))
    grads = torch.autograd.grad(out, xs, g64)
    sens = None
    if name in OUTPUT_BACKWARD:
        y_ref = out.detach().requires_grad_()
        (sens,) = torch.autograd.grad(OUTPUT_BACKWARD[name](g64, y_ref).sum(), y_ref)
        sens = sens.numpy()
    return [out.detach().numpy()] + [t.numpy() for t in grads], sens


def bounds(name, x, g, y, ref, sens, ours: bool):
    """The largest |result - exact| each result may have (float64 arrays), from OPS's
    budgets, ours or torch's."""
    forward, grad_budgets = OPS[name][3], OPS[name][4]
    out = [forward[0 if ours else 1] * U * np.abs(ref[0])]
    g64, x64 = g.astype(np.float64), x.astype(np.float64)
    other = ref[0] if y is None else y.astype(np.float64)  # the output, or the second input
    for i, budget in enumerate(grad_budgets):
        if callable(budget):
            out.append(budget(ref[1 + i], g64, x64, other, sens, ours))
        else:
            out.append(budget[0 if ours else 1] * U * np.abs(ref[1 + i]))
    return [b * SLACK + TINY for b in out]


def same_bits(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Element-wise: the same float32 bits (any NaN equals any NaN: torch prints them alike)."""
    return (a.view(np.uint32) == b.view(np.uint32)) | (np.isnan(a) & np.isnan(b))


def ulp_distance(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """How many float32 values apart a and b are (0 for the same value; +0 and -0 are 0)."""
    def ordered(v):
        i = v.astype(np.float32).view(np.int32).astype(np.int64)
        return np.where(i < 0, -(i & 0x7FFFFFFF), i)
    return np.abs(ordered(a) - ordered(b))


def measure(name, seed=0, n=N):
    """Per result (out, grad, grad_y): the fraction bit-identical to torch (lowest over the
    input ranges), the largest ulp distance to torch, and the largest error of each engine in
    units of its bound (<= 1 means within budget)."""
    stats = {}
    for x, g, y in inputs(name, seed, n).values():
        ours, theirs = run(minigrad, name, x, g, y), run(torch, name, x, g, y)
        ref, sens = reference(name, x, g, y)
        ours_bound = bounds(name, x, g, y, ref, sens, ours=True)
        torch_bound = bounds(name, x, g, y, ref, sens, ours=False)
        for key, a, b, r, ba, bb in zip(RESULTS, ours, theirs, ref, ours_bound, torch_bound):
            s = stats.setdefault(key, {"same": 1.0, "ulps": 0, "ours": 0.0, "torch": 0.0})
            s["same"] = min(s["same"], float(same_bits(a, b).mean()))
            s["ulps"] = max(s["ulps"], int(ulp_distance(a, b).max()))
            s["ours"] = max(s["ours"], float((np.abs(a - r) / ba).max()))
            s["torch"] = max(s["torch"], float((np.abs(b - r) / bb).max()))
    return stats
