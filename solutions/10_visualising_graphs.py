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
# # Exercises 10 · Visualising graphs
#
# Practise lesson 10 (`notebooks/10_visualising_graphs.ipynb`): walk a graph over
# `next_functions` the way `make_dot` does, predict what `make_dot` draws, predict the order in
# which backward runs the nodes, and compute the gradients that meet at a leaf used twice.
# Each answer cell is followed by a check cell; the questions do not depend on each other.

# %%
# Run this cell first.
import math

import torch

import minigrad
from coursekit import viz
from coursekit.grading import question
from coursekit.stepper import BackwardStepper

# %% [markdown]
# ## 10.1 · Implement: count the node kinds of a graph (3 points)
#
# Write `count_nodes(t)`: start at `t.grad_fn`, follow `next_functions` (skipping `None`), and
# return a dict from each node's class name (`type(node).__name__`, e.g. `"MulBackward0"`,
# `"AccumulateGrad"`) to how many **distinct** nodes of that kind the graph has. A node that
# can be reached along two paths is still one node. Return `{}` when `t.grad_fn` is `None`.
# It must work for minigrad and torch tensors, and for long chains (use a loop, not
# recursion). Walk the graph yourself: not with the course's `viz` or `BackwardStepper`, which
# walk it for you.
#
# For example, for `z = x * y + torch.sin(x)` with leaves `x`, `y` that require grad:
# `{"AddBackward0": 1, "MulBackward0": 1, "SinBackward0": 1, "AccumulateGrad": 2}`.

# %% question="10.1" role="answer"
# Answer 10.1
def count_nodes(t):
    ### BEGIN SOLUTION
    counts, seen, todo = {}, set(), [t.grad_fn]
    while todo:
        node = todo.pop()
        if node is None or node in seen:
            continue
        seen.add(node)
        name = type(node).__name__
        counts[name] = counts.get(name, 0) + 1
        todo.extend(child for child, _ in node.next_functions)
    return counts
    ### END SOLUTION


# %% question="10.1" role="check" points=3
def _walk(root, once=True):
    """Reference counts; with once=False, a node is counted once per path that reaches it."""
    counts, seen, todo = {}, set(), [root]
    while todo:
        node = todo.pop()
        if node is None or (once and node in seen):
            continue
        seen.add(node)
        counts[type(node).__name__] = counts.get(type(node).__name__, 0) + 1
        todo += [child for child, _ in node.next_functions]
    return counts


def _graph(lib_name, kind):
    """The output tensor of test graph ``kind``, built with torch or minigrad."""
    lib = minigrad if lib_name == "minigrad" else torch
    if kind == "shared":
        x = lib.tensor([1.0, 2.0], requires_grad=True)
        y = lib.tensor([0.5, -1.0], requires_grad=True)
        h = x * y
        return (h * h + lib.sin(x) * lib.tensor([3.0, 3.0])).sum()
    if kind == "none":
        return lib.tensor([3.0, 3.0]) * 2
    if kind == "chain":
        y = x = lib.tensor(0.5, requires_grad=True)
        for _ in range(3000):
            y = y * 1.0001 + x
        return y
    w = lib.tensor([[1.0, -1.0], [2.0, 0.5]], requires_grad=True)
    s = w.clone()
    s[0] = s[1] * 2
    return (s.exp() * w.t()).sum()


def _count_probe(lib_name, kind):
    return count_nodes(_graph(lib_name, kind))


def _check_counts(q, lib, kind, what):
    t = _graph(lib.__name__, kind)
    try:
        got = q.observe(_count_probe, lib.__name__, kind)
    except RecursionError:
        q.fail(f"{what}: too deep for recursion; walk the graph with a loop and a list of "
               "nodes still to visit")
    q.true(isinstance(got, dict), f"count_nodes should return a dict, not {type(got).__name__}")
    want = _walk(t.grad_fn)
    if got == want:
        return
    q.true(got != _walk(t.grad_fn, once=False), f"{what}: you counted a node once per path "
           "that reaches it; keep a set of the nodes already seen and count each node once")
    q.true("None" not in got and "NoneType" not in got, f"{what}: skip the None entries of "
           "next_functions (inputs that need no gradient)")
    for name in sorted(set(want) | set(got)):
        hint = (": the AccumulateGrad nodes (one per leaf that requires grad) are nodes too"
                if name == "AccumulateGrad" else "")
        q.true(got.get(name, 0) == want.get(name, 0), f"{what}: you counted "
               f"{got.get(name, 0)} {name}, the graph has {want.get(name, 0)}{hint}")


with question("10.1", points=3, answers=()) as q:
    q.refuse(("viz", "GraphWalk", "make_dot", "fn_ids", "BackwardStepper", "stepper",
              "step_through"), "walk next_functions yourself, with a loop and a set of the "
             "nodes already seen")
    for lib in (minigrad, torch):
        _check_counts(q, lib, "shared", f"a graph with shared nodes ({lib.__name__})")
        _check_counts(q, lib, "none", f"a tensor with no graph ({lib.__name__})")
    ### BEGIN HIDDEN TESTS
    _check_counts(q, minigrad, "chain", "a chain of 6000 ops (minigrad)")
    _check_counts(q, torch, "views", "a torch graph with CopySlices and views")
    ### END HIDDEN TESTS

# %% [markdown]
# ## 10.2 · Predict: what `make_dot` draws (2 points)
#
# ```python
# x = torch.tensor([1.0, 2.0])                        # data
# w = torch.tensor([0.5, -1.0], requires_grad=True)
# b = torch.tensor(0.1, requires_grad=True)
# z = torch.tanh(x * w).sum() + b
# dot = viz.make_dot(z, params={"x": x, "w": w, "b": b}, show_saved=True)
# ```
#
# How many boxes of each colour does the drawing have: `green` (the output), `grey` (backward
# nodes, `AccumulateGrad` included), `blue` (leaves), `orange` (saved tensors)? And
# `orange_after`: how many orange boxes does the same call draw after `z.backward()`?

# %% question="10.2" role="answer"
# Answer 10.2
### BEGIN SOLUTION
green, grey, blue, orange = 1, 6, 2, 2
orange_after = 0
### END SOLUTION

# %% question="10.2" role="check" points=2
def _boxes(t, params):
    colours = {viz.OUTPUT: "green", viz.LEAF: "blue", viz.SAVED: "orange"}
    counts = {"green": 0, "grey": 0, "blue": 0, "orange": 0}
    for _, _, attrs in viz.GraphWalk(t, params, show_saved=True).nodes:
        counts[colours.get(attrs.get("fillcolor"), "grey")] += 1
    return counts


with question("10.2", points=2, answers=("green", "blue", "grey", "orange", "orange_after")) as q:
    tx = torch.tensor([1.0, 2.0])
    tw = torch.tensor([0.5, -1.0], requires_grad=True)
    tb = torch.tensor(0.1, requires_grad=True)
    tz = torch.tanh(tx * tw).sum() + tb
    params = {"x": tx, "w": tw, "b": tb}
    before = _boxes(tz, params)
    tz.backward()
    after = _boxes(tz, params)
    q.close("green", green, before["green"], hints={
        "other": "one green box: the output z itself"})
    q.close("blue", blue, before["blue"], mistakes=[(3, "x needs no gradient: autograd "
            "keeps no edge to it, so make_dot draws no box for it, even when it is named")])
    q.close("grey", grey, before["grey"], mistakes=[
        (4, "each leaf that requires grad has its own AccumulateGrad node: count those too"),
        (7, "x has no AccumulateGrad: it does not require grad")],
        hints={"other": "one grey box per backward node: the add, the sum, tanh, the "
                        "product, and one AccumulateGrad per leaf that requires grad"})
    q.close("orange", orange, before["orange"], mistakes=[
        (3, "torch saves only what the gradients it computes need: x * w keeps x (for w's "
            "gradient) but not w, because x gets no gradient"),
        (1, "tanh saves its result (d tanh = 1 - tanh²), and the product saves x")])
    q.close("orange_after", orange_after, after["orange"], hints={
        "other": "backward() frees the saved tensors once they are used (unless "
                 "retain_graph=True), so they are no longer drawn"})

# %% [markdown]
# ## 10.3 · Predict: the order backward runs the nodes (2 points)
#
# ```python
# x = torch.tensor(1.0, requires_grad=True)
# y = torch.tensor(0.5, requires_grad=True)
# u = x * y
# v = torch.sin(x)
# s = u + v
# e = torch.exp(y)
# z = s * e
# z.backward()
# ```
#
# List the names of the backward nodes in the order the engine runs them, **leaving out the
# two `AccumulateGrad`s** (they run last here). Remember the rule from the lesson: a node runs
# once every gradient it waits for has arrived, and among the nodes ready to run, the engine
# picks the one created last.

# %% question="10.3" role="answer"
# Answer 10.3
### BEGIN SOLUTION
order = ["MulBackward0", "ExpBackward0", "AddBackward0", "SinBackward0", "MulBackward0"]
### END SOLUTION

# %% question="10.3" role="check" points=2
with question("10.3", points=2, answers=("order",)) as q:
    tx = torch.tensor(1.0, requires_grad=True)
    ty = torch.tensor(0.5, requires_grad=True)
    tz = (tx * ty + torch.sin(tx)) * torch.exp(ty)
    want = [n for n in BackwardStepper(tz).order if n != "AccumulateGrad"]
    q.true(isinstance(order, list | tuple), "`order` should be a list of node names")
    got = [str(n) for n in order if n != "AccumulateGrad"]
    missing, extra = sorted(set(want) - set(got)), sorted(set(got) - set(want))
    q.true(sorted(got) == sorted(want), f"your list has {len(got)} nodes besides "
           f"AccumulateGrad, the graph has {len(want)}" + (
               f"; {', '.join(extra)} is not in this graph" if extra else "") + (
               "; draw the graph: one node per operation of the forward pass"
               if missing else ""))
    for k, (mine, theirs) in enumerate(zip(got, want)):
        q.true(mine == theirs, f"step {k + 1}: not {mine}. "
               + ("After the product z = s * e, both AddBackward0 and ExpBackward0 are ready: "
                  "the engine runs the one created last, and exp was recorded after the sum"
                  if k == 1 else
                  "After AddBackward0, both SinBackward0 and the product u = x * y are ready: "
                  "sin was created after the product, so it runs first" if k == 3 else
                  "a node runs once all its gradients have arrived; among ready nodes the "
                  "newest goes first"))

# %% [markdown]
# ## 10.4 · Compute by hand: two gradients meet at `x` (2 points)
#
# Same graph as 10.3, at $x = 1$, $y = 0.5$: $z = (xy + \sin x)\,e^{y}$. `x` is used twice, so
# its `AccumulateGrad` receives two gradients, one from the product `u = x * y` and one from
# `v = sin(x)`, and stores their sum. Compute, with numbers and `math` only: `via_mul` (the
# gradient the product sends to `x`), `via_sin` (the one `SinBackward0` sends) and `x_grad`.

# %% question="10.4" role="answer"
# Answer 10.4: numbers only (no autograd).
x_value, y_value = 1.0, 0.5
### BEGIN SOLUTION
dz_ds = math.exp(y_value)
via_mul = dz_ds * y_value
via_sin = dz_ds * math.cos(x_value)
x_grad = via_mul + via_sin
### END SOLUTION

# %% question="10.4" role="check" points=2
with question("10.4", points=2, answers=("via_mul", "via_sin", "x_grad")) as q:
    tx = torch.tensor(1.0, dtype=torch.float64, requires_grad=True)
    ty = torch.tensor(0.5, dtype=torch.float64, requires_grad=True)
    tu, tv = tx * ty, torch.sin(tx)
    tz = (tu + tv) * torch.exp(ty)
    sent = {step.node: step.grads_out for step in BackwardStepper(tz).steps}
    want_mul, want_sin = sent[tu.grad_fn][0], sent[tv.grad_fn][0]
    no_ds = "the gradient arriving at s is dz/ds = exp(y), not 1: multiply by it (chain rule)"
    q.close("via_mul", via_mul, want_mul, mistakes=[
        (0.5, no_ds), (want_mul / 0.5 * 1.0, "d(x·y)/dx is y = 0.5, not x")])
    q.close("via_sin", via_sin, want_sin, mistakes=[
        (math.cos(1.0), no_ds), (want_sin / math.cos(1.0) * math.sin(1.0),
                                 "d(sin x)/dx is cos x, not sin x")])
    q.close("x_grad", x_grad, tx.grad, mistakes=[
        (want_mul, "that is only the product's share: x is used twice, and the gradients "
                   "of both uses add up"),
        (want_sin, "that is only the sine's share: x is used twice, and the gradients of "
                   "both uses add up")])

# %% [markdown]
# ## Reflection (not scored)
#
# `make_dot` never draws a box for an input that does not require grad, even when you name it
# in `params`. Why is that the right picture of what `backward()` will do?
#
# ### BEGIN SOLUTION
# The drawing follows next_functions, the same edges the engine follows. An input that needs
# no gradient has a None entry there: backward never sends anything to it, so there is nothing
# to draw.
# ### END SOLUTION
#
# <details><summary>One possible answer</summary>
#
# `make_dot` walks exactly the edges `backward()` walks. Autograd records no edge to a tensor
# that needs no gradient (its `next_functions` entry is `None`), so no gradient ever reaches
# it, and the drawing shows just that.
# </details>
