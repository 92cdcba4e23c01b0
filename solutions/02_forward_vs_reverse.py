# ---
# jupyter:
#   jupytext:
#     formats: ipynb,py:percent
#     text_representation:
#       extension: .py
#       format_name: percent
#       format_version: '1.3'
#       jupytext_version: 1.19.6
#   kernelspec:
#     display_name: Python 3 (ipykernel)
#     language: python
#     name: python3
# ---

# %% [markdown]
# # Exercises 02 · Forward mode vs reverse mode
#
# Practise lesson 02 (`notebooks/02_forward_vs_reverse.ipynb`): the chain rule by hand in both
# orders (tangents pushed forward, adjoints pulled back), one Jacobian-vector product and one
# vector-Jacobian product with the engines, and counting the passes each mode needs. Each
# answer cell is followed by a check cell; the questions do not depend on each other.

# %%
# Run this cell first.
import math
import warnings

import torch
import torch.autograd.forward_ad as fwAD

import minigrad
from coursekit.grading import question

with warnings.catch_warnings():  # torch's first forward-AD pass warns about torch.jit: say it now
    warnings.simplefilter("ignore")
    with fwAD.dual_level():
        fwAD.make_dual(torch.tensor(1.0), torch.tensor(1.0))

# %% [markdown]
# ## The function of 02.1 and 02.2
#
# $$y_1 = x_1 x_2, \qquad y_2 = \sin y_1, \qquad y_3 = x_1 + y_2, \qquad z = y_1\, y_3$$
#
# at $x_1 = 0.5,\ x_2 = 3$. Two values are used twice: $x_1$ (in $y_1$ and in $y_3$) and $y_1$
# (in $y_2$ and in $z$).
#
# ## 02.1 · Forward mode by hand: tangents (3 points)
#
# Move the inputs in the direction $(\dot x_1, \dot x_2) = (2, 1)$. Walking the steps from the
# inputs to the output, compute the tangents $\dot y_1, \dot y_2, \dot y_3, \dot z$. Numbers and
# `math` only (no autograd). Hint: each step's tangent is its local derivatives times the
# tangents of its inputs, summed over the inputs.

# %% question="02.1" role="answer"
# Answer 02.1: numbers only (no autograd).
x1, x2 = 0.5, 3.0
dx1, dx2 = 2.0, 1.0
y1 = x1 * x2
y2 = math.sin(y1)
y3 = x1 + y2
### BEGIN SOLUTION
tan_y1 = dx1 * x2 + x1 * dx2
tan_y2 = math.cos(y1) * tan_y1
tan_y3 = dx1 + tan_y2
tan_z = tan_y1 * y3 + y1 * tan_y3
### END SOLUTION

# %% question="02.1" role="check" points=3
with question("02.1", points=3, answers=("tan_y1", "tan_y2", "tan_y3", "tan_z")) as q:
    import warnings
    with warnings.catch_warnings(), fwAD.dual_level():
        warnings.simplefilter("ignore")
        d1 = fwAD.make_dual(torch.tensor(0.5, dtype=torch.float64),
                            torch.tensor(2.0, dtype=torch.float64))
        d2 = fwAD.make_dual(torch.tensor(3.0, dtype=torch.float64),
                            torch.tensor(1.0, dtype=torch.float64))
        ty1 = d1 * d2
        ty2 = torch.sin(ty1)
        ty3 = d1 + ty2
        tz = ty1 * ty3
        want = {n: fwAD.unpack_dual(t).tangent.item()
                for n, t in (("y1", ty1), ("y2", ty2), ("y3", ty3), ("z", tz))}
        vals = {n: fwAD.unpack_dual(t).primal.item()
                for n, t in (("y1", ty1), ("y2", ty2), ("y3", ty3))}
    q.close("tan_y1", tan_y1, want["y1"], mistakes=[
        (2.0 * 3.0, "y1 = x1·x2 moves when x2 moves too: add x1 · dx2 (product rule)"),
        (0.5 * 1.0, "y1 = x1·x2 moves when x1 moves too: add dx1 · x2 (product rule)"),
        (2.0 * 0.5 + 1.0 * 3.0, "product rule: dx1 goes with x2 and dx2 with x1")])
    q.close("tan_y2", tan_y2, want["y2"], mistakes=[
        (math.cos(vals["y1"]), "multiply the local derivative cos(y1) by the tangent of y1"),
        (-math.sin(vals["y1"]) * want["y1"], "the derivative of sin is cos, not -sin")])
    q.close("tan_y3", tan_y3, want["y3"], mistakes=[
        (want["y2"], "y3 = x1 + y2 also uses x1 directly: add its tangent dx1 = 2")])
    q.close("tan_z", tan_z, want["z"], mistakes=[
        (want["y1"] * vals["y3"], "z = y1·y3: add y1 · (tangent of y3) (product rule)"),
        (vals["y1"] * want["y3"], "z = y1·y3: add (tangent of y1) · y3 (product rule)")])

# %% [markdown]
# ## 02.2 · Reverse mode by hand: adjoints (3 points)
#
# Same function, same point. Start from $\bar z = 1$ and walk the steps backwards to get the
# adjoints $\bar y_3, \bar y_2, \bar y_1, \bar x_1, \bar x_2$ (where $\bar v = \partial z/\partial
# v$). Numbers and `math` only. Remember: a value used in two places adds up the adjoints that
# come back from both.

# %% question="02.2" role="answer"
# Answer 02.2: numbers only (no autograd).
x1, x2 = 0.5, 3.0
y1 = x1 * x2
y2 = math.sin(y1)
y3 = x1 + y2
adj_z = 1.0
### BEGIN SOLUTION
adj_y3 = adj_z * y1
adj_y2 = adj_y3
adj_y1 = adj_z * y3 + adj_y2 * math.cos(y1)
adj_x1 = adj_y1 * x2 + adj_y3
adj_x2 = adj_y1 * x1
### END SOLUTION

# %% question="02.2" role="check" points=3
with question("02.2", points=3, answers=("adj_y3", "adj_y2", "adj_y1", "adj_x1", "adj_x2")) as q:
    tx1 = torch.tensor(0.5, dtype=torch.float64, requires_grad=True)
    tx2 = torch.tensor(3.0, dtype=torch.float64, requires_grad=True)
    ty1 = tx1 * tx2
    ty2 = torch.sin(ty1)
    ty3 = tx1 + ty2
    for t in (ty1, ty2, ty3):
        t.retain_grad()
    (ty1 * ty3).backward()
    g1, g3, cos1 = ty1.grad.item(), ty3.grad.item(), math.cos(ty1.item())
    q.close("adj_y3", adj_y3, ty3.grad, hints={"other": "z = y1·y3, so dz/dy3 = y1"})
    q.close("adj_y2", adj_y2, ty2.grad, hints={
        "other": "y3 = x1 + y2 passes its adjoint to y2 unchanged"})
    q.close("adj_y1", adj_y1, ty1.grad, mistakes=[
        (ty3.item(), "y1 is used twice: add the adjoint coming back through sin, adj_y2 · cos(y1)"),
        (ty2.grad.item() * cos1, "y1 is used twice: add the direct one from z = y1·y3, adj_z · y3")])
    q.close("adj_x1", adj_x1, tx1.grad, mistakes=[
        (g1 * 3.0, "x1 is used twice: add the adjoint coming back from y3 = x1 + y2"),
        (g1 * 0.5 + g3, "the local derivative of x1·x2 with respect to x1 is x2, not x1")])
    q.close("adj_x2", adj_x2, tx2.grad, mistakes=[
        (g1 * 3.0, "the local derivative of x1·x2 with respect to x2 is x1, not x2")])

# %% [markdown]
# ## 02.3 · Implement: one JVP and one VJP (3 points)
#
# For a function `f` from vectors to vectors with Jacobian $J$ at `x`:
#
# * `jvp(f, x, v)` returns $J v$ with **one** forward-mode pass: use `torch.autograd.forward_ad`
#   (imported as `fwAD`: `dual_level`, `make_dual`, `unpack_dual`);
# * `vjp(f, x, u)` returns $u^\top J$ with **one** reverse-mode pass: `torch.autograd.grad`
#   (or `backward`) with `u` as the starting gradient.
#
# Each may call `f` only once, and must not build the whole Jacobian (1 of the 3 points: the
# other 2 are for the values). `x` may arrive without `requires_grad`. Do not use
# `torch.autograd.functional` or `torch.func`: their `jvp` and `vjp` are the answer, not the
# method.

# %% question="02.3" role="answer"
# Answer 02.3
def jvp(f, x, v):
    ### BEGIN SOLUTION
    with fwAD.dual_level():
        out = f(fwAD.make_dual(x, v))
        return fwAD.unpack_dual(out).tangent
    ### END SOLUTION


def vjp(f, x, u):
    ### BEGIN SOLUTION
    x = x.detach().requires_grad_()
    (grad,) = torch.autograd.grad(f(x), x, grad_outputs=u)
    return grad
    ### END SOLUTION


# %% question="02.3" role="check" points=3
def _f(kind):
    """The map of test ``kind``, from a vector x to a vector."""
    if kind == "tanh":
        W = torch.tensor([[1.0, -2.0, 0.5], [0.3, 0.0, 2.0]])
        return lambda t: torch.tanh(W @ t)
    return lambda t: torch.stack([t.prod(), t.sin().sum(), (t * t).sum(), t[0]])


def _mode_probe(mode, kind, x, direction):
    """Your jvp (or vjp) of map ``kind`` at x: the result and how many times it called f."""
    f, calls = _f(kind), []

    def counted(t):
        calls.append(1)
        return f(t)

    got = (jvp if mode == "jvp" else vjp)(counted, torch.tensor(x), torch.tensor(direction))
    return {"got": got, "calls": len(calls)}


def _try(q, what, call, advice):
    try:
        return call()
    except NotImplementedError:
        raise  # a stub (NotImplementedError is a RuntimeError)
    except RuntimeError as error:
        q.fail(f"{what} raised: {str(error)[:90]}: {advice}")


def _check_jvp_vjp(q, kind, x, v, u, what):
    from torch.autograd.functional import jacobian
    J = jacobian(_f(kind), torch.tensor(x))
    v, u = torch.tensor(v), torch.tensor(u)
    seen = _try(q, f"jvp {what}", lambda: q.observe(_mode_probe, "jvp", kind, x, v.tolist()),
                "make x dual with make_dual(x, v) inside `with fwAD.dual_level():`")
    got = seen["got"]
    q.true(got is not None, "jvp returned None: read the tangent with unpack_dual(out).tangent "
           "inside the `with fwAD.dual_level():` block (after it ends the tangent is gone)")
    q.need_tensor("jvp's result", got)
    # how many times jvp called f is counted beside the learner's code, which can reset the
    # count (f.__closure__): a trusted fact, worth 1 point; the values earn the other 2
    q.method(seen["calls"] == 1,
             f"jvp called f {seen['calls']} times: one pass with the tangent v gives J v")
    q.true(tuple(got.shape) == tuple((J @ v).shape), f"jvp {what}: J v has one entry per output "
           f"of f ({J.shape[0]}), yours has shape {list(got.shape)}: is that uᵀJ (reverse mode)?")
    q.close(f"jvp {what} at x = {x}, v = {v.tolist()}", got, J @ v, hints={"other": "the tangent of f(x) along v is J v"})
    seen = _try(q, f"vjp {what}", lambda: q.observe(_mode_probe, "vjp", kind, x, u.tolist()),
                "let x require grad (x.detach().requires_grad_()) and pass grad_outputs=u")
    got = seen["got"]
    q.true(got is not None, "vjp returned None: return the gradient of x (autograd.grad's "
           "result, or x.grad after backward)")
    q.need_tensor("vjp's result", got)
    q.method(seen["calls"] == 1,  # trusted, as jvp's count
             f"vjp called f {seen['calls']} times: one backward pass from u gives uᵀJ")
    q.true(tuple(got.shape) == tuple((u @ J).shape), f"vjp {what}: uᵀJ has one entry per input "
           f"of f ({J.shape[1]}), yours has shape {list(got.shape)}: is that J v (forward mode)?")
    q.close(f"vjp {what} at x = {x}, u = {u.tolist()}", got, u @ J, hints={"other": "start the backward pass from u"})


with question("02.3", points=3, answers=()) as q:
    q.refuse(("functional", "func", "jvp", "vjp", "jacobian", "jacrev", "jacfwd", "vmap"),
             "push the tangent yourself with fwAD, and pull u back with one "
             "torch.autograd.grad (or backward) call")
    _check_jvp_vjp(q, "tanh", [0.5, -1.0, 2.0], [1.0, 2.0, -1.0], [1.0, -3.0], "for tanh(W x)")
    ### BEGIN HIDDEN TESTS
    _check_jvp_vjp(q, "stack", [1.5, -0.5], [0.5, 2.0], [1.0, 0.5, -2.0, 3.0],
                   "for a map from 2 inputs to 4 outputs")
    ### END HIDDEN TESTS

# %% [markdown]
# ## 02.4 · Predict: how many passes? (2 points)
#
# For each task, how many **forward-mode passes** (one tangent direction each) and how many
# **reverse-mode passes** (one starting adjoint each) does it take, at the least? Answer with a
# pair `(forward passes, reverse passes)`.
#
# * A: the gradient of a loss of 100 parameters ($f: \mathbb{R}^{100} \to \mathbb{R}$);
# * B: the full Jacobian of a map from 3 inputs to 50 outputs;
# * C: $J v$ for one given vector $v$, for a map from 20 inputs to 20 outputs;
# * D: $u^\top J$ for one given vector $u$, for the same map.

# %% question="02.4" role="answer"
# Answer 02.4
### BEGIN SOLUTION
passes = {"A": (100, 1), "B": (3, 50), "C": (1, 20), "D": (20, 1)}
### END SOLUTION

# %% question="02.4" role="check" points=2
def _passes(n_in, n_out, task):
    """(forward, reverse) passes for task, counted while torch does it both ways."""
    from torch.autograd.functional import jacobian
    gen = torch.Generator().manual_seed(n_in * 1000 + n_out)
    W = torch.randn(n_out, n_in, generator=gen)
    f = lambda t: torch.tanh(W @ t)  # noqa: E731
    x, v, u = (torch.randn(n, generator=gen) for n in (n_in, n_in, n_out))
    J = jacobian(f, x)
    directions = [v] if task == "Jv" else list(torch.eye(n_in))  # Jv: one direction suffices
    seeds = [u] if task == "uJ" else list(torch.eye(n_out))      # uJ: one seed suffices
    with warnings.catch_warnings(), fwAD.dual_level():
        warnings.simplefilter("ignore")
        cols = [fwAD.unpack_dual(f(fwAD.make_dual(x, d))).tangent for d in directions]
    xr = x.clone().requires_grad_()
    out = f(xr)
    rows = [torch.autograd.grad(out, xr, s, retain_graph=True)[0] for s in seeds]
    by_fwd = cols[0] if task == "Jv" else torch.stack(cols, 1)
    by_rev = rows[0] if task == "uJ" else torch.stack(rows)
    want = {"J": J, "Jv": J @ v, "uJ": u @ J}[task]
    if task == "Jv":
        by_rev = by_rev @ v
    if task == "uJ":
        by_fwd = u @ by_fwd
    assert torch.allclose(by_fwd, want, atol=1e-5) and torch.allclose(by_rev, want, atol=1e-5)
    return len(directions), len(seeds)


with question("02.4", points=2, answers=("passes",)) as q:
    import warnings
    tasks = {"A": (100, 1, "J"), "B": (3, 50, "J"), "C": (20, 20, "Jv"), "D": (20, 20, "uJ")}
    why = {"A": "forward mode needs one pass per input (a column each), reverse mode one per "
                "output (a row each): one loss, one backward",
           "B": "forward mode: one pass per input (a column each); reverse mode: one pass per "
                "output (a row each)",
           "C": "J v is exactly what one forward pass with tangent v gives; reverse mode only "
                "gets there by building every row of J first",
           "D": "uᵀJ is exactly what one backward pass started from u gives; forward mode only "
                "gets there by building every column of J first"}
    q.true(isinstance(passes, dict), "`passes` should be a dict like {'A': (100, 1), ...}")
    for key, (n_in, n_out, task) in tasks.items():
        want = _passes(n_in, n_out, task)
        q.true(key in passes, f"`passes` has no entry for {key!r}")
        got = tuple(passes[key]) if isinstance(passes[key], (tuple, list)) else passes[key]
        if got == want[::-1]:
            q.fail(f"{key}: you have the two counts swapped: {why[key]}")
        q.true(got == want, f"{key}: {got} is not the number of passes needed: {why[key]}")

# %% [markdown]
# ## Reflection (not scored)
#
# Reverse mode gave both partial derivatives of the lesson's function in one pass. Why, then,
# does `torch.autograd.forward_ad` exist at all? Give one situation where forward mode is the
# better choice.
#
# ### BEGIN SOLUTION
# When a function has few inputs and many outputs, forward mode needs fewer passes (one per
# input). It also needs no stored graph: each value can be forgotten as soon as its tangent is
# computed, so it saves memory, and a single Jacobian-vector product (a directional derivative)
# costs one pass.
# ### END SOLUTION
#
# <details><summary>One possible answer</summary>
#
# When the function has fewer inputs than outputs (n < m), or when you need only J v (one
# pass). Forward mode also keeps no graph, so it needs less memory than reverse mode.
# </details>
