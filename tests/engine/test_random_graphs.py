"""Random programs run on minigrad and torch side by side: the whole autograd story at once.

Hypothesis writes a small program: a pool starts with a few leaves (some requiring grad, some
constants, shapes that broadcast against each other); each step applies an op to values drawn
from the pool (so intermediates are reused: fan-out, diamonds, reused non-leaves) and adds the
result to the pool; some results call ``retain_grad``. Both engines run the same program on
the same data. Compared: every intermediate's value and dtype, its grad_fn name, the whole
graph under the loss (node names, edges, and which nodes are shared), leaf grads and retained
grads.
"""

from __future__ import annotations

import warnings

import numpy as np
import pytest
import torch
from hypothesis import given, settings
from hypothesis import strategies as st
from torch_compare import (
    assert_close,
    assert_grad_close,
    assert_same_autograd_facts,
    assert_same_graph,
    pair,
)

import minigrad

pytestmark = pytest.mark.filterwarnings("error::RuntimeWarning")

LEAF_SHAPES = [(), (3,), (2, 1), (1, 3), (2, 3)]

UNARY = {
    "neg": lambda lib, x: -x,
    "tanh": lambda lib, x: x.tanh(),
    "sigmoid": lambda lib, x: lib.sigmoid(x),
    "sin": lambda lib, x: x.sin(),
    "cos": lambda lib, x: lib.cos(x),
    "exp_of_tanh": lambda lib, x: x.tanh().exp(),
    "log_of_abs": lambda lib, x: (x.abs() + 0.5).log(),
    "sqrt_of_abs": lambda lib, x: lib.sqrt(x.abs() + 0.1),
    "relu": lambda lib, x: x.relu(),
    "square": lambda lib, x: x ** 2,
    "pow_half": lambda lib, x: (x * x + 1) ** 0.5,
    "scalar_mul": lambda lib, x: 2.5 * x,
    "scalar_rsub": lambda lib, x: 1 - x,
    "scalar_rdiv": lambda lib, x: 1 / (x.abs() + 1),
    "scalar_rpow": lambda lib, x: 2 ** x.tanh(),
}
BINARY = {
    "add": lambda lib, a, b: a + b,
    "sub": lambda lib, a, b: a - b,
    "mul": lambda lib, a, b: a * b,
    "div": lambda lib, a, b: a / (b * b + 1),
    "pow": lambda lib, a, b: (a.abs() + 0.5) ** b.tanh(),
    "add_alpha": lambda lib, a, b: lib.add(a, b, alpha=0.5),
}


def _reductions(shape):
    """Reductions that make sense for ``shape``: (name, fn) pairs."""
    out = [("sum", lambda lib, x: x.sum()), ("mean", lambda lib, x: x.mean()),
           ("max", lambda lib, x: x.max()), ("min", lambda lib, x: lib.min(x))]
    for d in range(-len(shape), len(shape)):
        out.append((f"max{d}", lambda lib, x, d=d: x.max(d).values))
        out.append((f"min{d}", lambda lib, x, d=d: x.min(d, keepdim=True)[0]))
        for keepdim in (False, True):
            out.append((f"sum{d}{keepdim}", lambda lib, x, d=d, k=keepdim: x.sum(d, keepdim=k)))
            out.append((f"mean{d}{keepdim}",
                        lambda lib, x, d=d, k=keepdim: x.mean(d, keepdim=k)))
    return out


def _broadcasts(a, b) -> bool:
    return all(x == y or x == 1 or y == 1 for x, y in zip(reversed(a), reversed(b)))


def _matmul_ok(a, b) -> bool:
    if not a or not b or len(a) > 2 or len(b) > 2:
        return False
    return a[-1] == b[0]


SCALAR_STEPS = {
    "x+s": lambda x, s: x + s, "s-x": lambda x, s: s - x, "x*s": lambda x, s: x * s,
    "x/s": lambda x, s: x / s, "x**2": lambda x, s: x ** 2, "s*x": lambda x, s: s * x,
}


def apply_step(lib, step, xs):
    """One program step on the tensors ``xs`` with ``lib`` (minigrad or torch)."""
    kind, arg = step[0], step[1]
    if kind == "unary":
        return UNARY[arg](lib, xs[0])
    if kind == "scalar":
        return SCALAR_STEPS[arg[0]](xs[0], arg[1])
    if kind == "binary":
        return BINARY[arg](lib, *xs)
    if kind == "reduce":
        return _reductions(tuple(xs[0].shape))[arg][1](lib, xs[0])
    if kind == "matmul":
        return xs[0] @ xs[1]
    join = lib.cat if arg.startswith("cat") else lib.stack
    return join(xs, int(arg.removeprefix("cat").removeprefix("stack")))


@st.composite
def programs(draw):
    """A program: leaf specs, then steps ``(kind, arg, operand indices, retain_grad)``.

    Hypothesis draws only a seed; the choices come from a uniform NumPy generator, because
    hypothesis favours the first options of every ``sampled_from`` and small sizes, and so
    rarely reached the later ops. The drawn program is shown in full when a test fails.
    """
    rng = np.random.default_rng(draw(st.integers(0, 2**32 - 1)))
    n_leaves, n_steps = int(rng.integers(1, 5)), int(rng.integers(1, 13))
    leaves = [(LEAF_SHAPES[rng.integers(len(LEAF_SHAPES))], i == 0 or rng.random() < 0.75)
              for i in range(n_leaves)]  # constants now and then
    shapes = [s for s, _ in leaves]

    def choose(options):
        return options[rng.integers(len(options))]

    steps = []
    for _ in range(n_steps):
        kinds = ["unary", "unary", "binary", "binary", "reduce", "scalar"]
        mm_pairs = [(i, j) for i in range(len(shapes)) for j in range(len(shapes))
                    if _matmul_ok(shapes[i], shapes[j])]
        if mm_pairs:
            kinds.append("matmul")
        same = [(i, j) for i in range(len(shapes)) for j in range(len(shapes))
                if shapes[i] == shapes[j] and shapes[i]]
        if same:
            kinds.append("join")
        kind = choose(kinds)
        # recent values are likelier: long chains and reuse of fresh intermediates
        i = len(shapes) - 1 - int(rng.integers(len(shapes))) // 2
        if kind == "unary":
            step = ("unary", choose(sorted(UNARY)), (i,))
        elif kind == "scalar":
            step = ("scalar", (choose(sorted(SCALAR_STEPS)), choose([2, -1.5, 0.5, 3])), (i,))
        elif kind == "binary":
            j = choose([j for j in range(len(shapes)) if _broadcasts(shapes[i], shapes[j])])
            step = ("binary", choose(sorted(BINARY)), (i, j))
        elif kind == "reduce":
            step = ("reduce", int(rng.integers(len(_reductions(shapes[i])))), (i,))
        elif kind == "matmul":
            step = ("matmul", None, choose(mm_pairs))
        else:
            step = ("join", choose(["cat0", "cat-1", "stack0", "stack1"]), choose(same))
        probe = apply_step(torch, step, [torch.zeros(shapes[k]) for k in step[2]])
        shapes.append(tuple(probe.shape))
        steps.append((*step, bool(rng.random() < 0.3)))
    return leaves, steps


def run(lib, program, leaves):
    """Run ``program`` with ``lib`` on the given leaf tensors; return the pool."""
    _, steps = program
    pool = list(leaves)
    for step in steps:
        out = apply_step(lib, step, [pool[i] for i in step[2]])
        if step[3] and out.requires_grad:
            out.retain_grad()
        pool.append(out)
    return pool


def _loss(lib, pool, weights):
    """Every value that requires grad, summed with its own weight: all of them get gradient."""
    total = None
    for x, w in zip(pool, weights):
        if x.requires_grad:
            term = (x * w).sum()
            total = term if total is None else total + term
    return total


# float64 programs hold values and gradients to the tight default tolerances. float32 programs
# check dtype handling; their gradients pass through up to a dozen ops (powers, squares) whose
# rounding the two engines do in different orders, so relative errors of ~1e-4 are honest
# float32 noise, not bugs.
GRAD_TOL = {"float64": {}, "float32": {"rtol": 5e-4, "atol": 1e-5}}


@pytest.mark.parametrize("dtype", ["float64", "float32"])
@settings(deadline=None, max_examples=250)
@given(program=programs(), seed=st.integers(0, 2**32 - 1))
def test_random_program(dtype, program, seed):
    rng = np.random.default_rng(seed)
    leaf_specs, _ = program
    pairs = [pair(rng.standard_normal(shape).astype(dtype), requires_grad=rg)
             for shape, rg in leaf_specs]
    m_pool = run(minigrad, program, [m for m, _ in pairs])
    t_pool = run(torch, program, [t for _, t in pairs])
    eps32, largest = float(np.finfo(np.float32).eps), 0.0
    for i, (m, t) in enumerate(zip(m_pool, t_pool)):
        # A float32 result's rounding error follows the size of what it was computed from
        # (a matmul or a difference can cancel to a small number): the absolute tolerance
        # grows with the largest value so far. float64 keeps the tight defaults.
        if t.dtype.is_floating_point and t.numel():
            largest = max(largest, float(t.detach().abs().max()))
        atol = max(1e-6, 8 * eps32 * largest) if dtype == "float32" else None
        assert_close(m, t, f"value {i}: ", atol=atol)
        assert_same_autograd_facts(m, t, f"value {i}: ")
        assert_same_graph(m, t)
    weights = [float(w) for w in rng.uniform(0.5, 1.5, len(m_pool))]
    m_loss, t_loss = _loss(minigrad, m_pool, weights), _loss(torch, t_pool, weights)
    # The loss adds up every value: when its terms cancel, its float32 rounding error scales
    # with the size of the terms, not of the sum, so the absolute tolerance does too.
    scale = sum(float((x.detach().abs() * w).sum()) for x, w in zip(t_pool, weights)
                if x.requires_grad and x.dtype.is_floating_point)
    assert_close(m_loss, t_loss, "loss: ",
                 atol=4 * float(np.finfo(np.float32).eps) * scale if dtype == "float32" else None)
    assert_same_graph(m_loss, t_loss)
    m_loss.backward()
    t_loss.backward()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)  # .grad of non-leaves, checked below
        for i, (m, t) in enumerate(zip(m_pool, t_pool)):
            assert m.retains_grad == t.retains_grad
            if m.is_leaf or m.retains_grad:
                assert_grad_close(m, t, f"value {i}: ", **GRAD_TOL[dtype])


def test_diamond_and_fan_out_by_hand():
    """A fixed diamond with a reused non-leaf, so the property above has a readable twin."""
    x = np.array([[0.5, -1.0, 2.0]])
    (mx, tx) = pair(x, requires_grad=True)
    outs = []
    for lib, leaf in ((minigrad, mx), (torch, tx)):
        a = leaf.tanh()
        a.retain_grad()
        b, c = a * 2, a.exp()
        d = b * c + a
        d.retain_grad()
        outs.append((a, d, lib.cat([d, b], 0).sum()))
    (ma, md, ml), (ta, td, tl) = outs
    assert_same_graph(ml, tl)
    ml.backward()
    tl.backward()
    assert_grad_close(mx, tx)
    assert_grad_close(ma, ta)
    assert_grad_close(md, td)
