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
# # Exercises 08 · Slicing pitfalls
#
# Practise lesson 08 (`notebooks/08_slicing_pitfalls.ipynb`): views and copies, the version
# error that writing into a slice can cause (and its `clone()` fix), writing into part of a
# leaf, and replacing a `CopySlices` chain with one `torch.stack`. Each answer cell is followed
# by a check cell; the questions do not depend on each other.

# %%
# Run this cell first.
import torch

import minigrad
from coursekit.grading import question

# %% [markdown]
# ## 08.1 · Predict: views, copies and one version counter (2 points)
#
# ```python
# a = torch.arange(6.0)        # [0, 1, 2, 3, 4, 5]
# b = a[1:4]
# c = a[[0, 5]]
# d = a[::2]
# b += 10
# c += 100
# d[0] = -1
# ```
#
# Without running it: what are the six values of `a` afterwards (a list of numbers), and what
# is `a._version`?

# %% question="08.1" role="answer"
# Answer 08.1
### BEGIN SOLUTION
a_values = [-1.0, 11.0, 12.0, 13.0, 4.0, 5.0]
version_a = 2
### END SOLUTION

# %% question="08.1" role="check" points=2
with question("08.1", points=2, answers=("a_values", "version_a")) as q:
    ta = torch.arange(6.0)
    tb, tc, td = ta[1:4], ta[[0, 5]], ta[::2]
    tb += 10
    tc += 100
    td[0] = -1
    try:
        values = [float(v) for v in a_values]
    except (TypeError, ValueError):
        q.fail("`a_values` should be a list of six numbers, like [0.0, 1.0, 2.0, 3.0, ...]")
    want = ta.tolist()
    q.true(len(values) == 6, f"`a_values` has {len(values)} numbers: a has 6")
    q.true(values[5] == want[5], f"a[5] is not {values[5]:g}: c = a[[0, 5]] is "
           "advanced indexing (a list of indices), which copies: c += 100 leaves a alone")
    q.true(values[1:4] == want[1:4], f"a[1:4] is not {values[1:4]}: b = a[1:4] "
           "is a view, so b += 10 writes into a's memory")
    q.true(values[0] == want[0], f"a[0] is not {values[0]:g}: d = a[::2] is a "
           "view too (a slice with a step), and d[0] is a[0]")
    q.close("a_values", values, ta)
    q.close("version_a", version_a, ta._version, mistakes=[
        (3, "c is a copy with its own version counter: c += 100 does not count for a"),
        (0, "b and d are views: they share a's version counter, and every write through "
            "them bumps it"),
        (1, "both b += 10 and d[0] = -1 write through a view of a: each bumps the shared "
            "counter")])

# %% [markdown]
# ## 08.2 · Debug: a `CopySlices` version error (3 points)
#
# `cumulative(x)` should return the running products $[1,\ x_0,\ x_0x_1,\ x_0x_1x_2, \dots]$,
# filling a preallocated tensor slice by slice:
#
# ```python
# def cumulative(x):
#     s = torch.ones(len(x) + 1)
#     for i in range(len(x)):
#         s[i + 1] = s[i] * x[i]
#     return s
# ```
#
# The forward pass works, but `cumulative(x).sum().backward()` fails with *"one of the
# variables needed for gradient computation has been modified by an inplace operation: ...
# which is output 0 of AsStrided, is at version 3; expected version 2"*. Copy the function
# into the answer cell and fix it, keeping the slice assignment (the point is to repair it, so
# no `torch.cumprod`, and no list joined at the end), so backward works and gives the right
# gradient.

# %% question="08.2" role="answer"
# Answer 08.2
def cumulative(x):
    ### BEGIN SOLUTION
    s = torch.ones(len(x) + 1)
    for i in range(len(x)):
        s[i + 1] = s[i].clone() * x[i]
    return s
    ### END SOLUTION


# %% question="08.2" role="check" points=3
def _cumulative_reference(values, upstream, cut=False):
    """The running products and x.grad; with cut=True, as if each s[i] were detached."""
    x = torch.tensor(values, dtype=torch.float64, requires_grad=True)
    if cut:
        s = torch.cat([torch.ones(1, dtype=torch.float64),
                       torch.cumprod(x.detach(), 0) / x.detach() * x])
    else:
        s = torch.cat([torch.ones(1, dtype=torch.float64), torch.cumprod(x, 0)])
    s.backward(torch.tensor(upstream, dtype=torch.float64))
    return s.detach(), x.grad


def _copy_slices(t):
    """How many CopySlices nodes (slice assignments) the graph behind ``t`` has."""
    count, seen, todo = 0, set(), [getattr(t, "grad_fn", None)]
    while todo:
        node = todo.pop()
        if node is None or node in seen:
            continue
        seen.add(node)
        count += type(node).__name__ == "CopySlices"
        todo += [n for n, _ in node.next_functions]
    return count


def _cumulative_probe(values, upstream):
    """cumulative(x), whether it requires grad, how many CopySlices its graph has, and x.grad
    after backward from ``upstream``."""
    x = torch.tensor(values, requires_grad=True)
    s = cumulative(x)
    seen = {"s": s, "requires_grad": getattr(s, "requires_grad", False) is True,
            "copies": _copy_slices(s)}
    if seen["requires_grad"]:
        try:
            s.backward(torch.tensor(upstream))
        except RuntimeError as error:
            seen["error"] = error
    seen["grad"] = x.grad
    return seen


with question("08.2", points=3, answers=()) as q:
    values, upstream = [2.0, 3.0, 0.5, -1.5], [1.0, 0.5, -2.0, 1.0, 3.0]
    want_s, want_grad = (t.float() for t in _cumulative_reference(values, upstream))
    q.refuse(("cumprod", "cumulative_trapezoid", "logcumsumexp"), "keep the slice assignment "
             "and repair it: the exercise is the version error, not the running product")
    seen = q.observe(_cumulative_probe, values, upstream)  # in float32
    q.close(f"cumulative(x) for x = {values}", seen["s"], want_s, tensor=True, hints={
        "other": "s[i + 1] must be s[i] times x[i]: the running product"})
    q.true(seen["requires_grad"], "cumulative(x) is cut from the graph: the copy of s[i] must "
           "stay in the graph (clone(), not detach())")
    # the CopySlices nodes are counted in the learner's process: a trusted fact, 1 point
    q.method(seen["copies"] == len(values), f"the graph of cumulative(x) has {seen['copies']} "
             f"CopySlices node(s), expected {len(values)}: keep the slice assignment "
             "s[i + 1] = ... and repair it")
    if "error" in seen:
        q.fail(f"backward still fails: {str(seen['error'])[:70]}...: MulBackward0 saves the "
               "view s[i], and the next write into s bumps its version; multiply a clone, "
               "s[i].clone() * x[i]")
    q.close(f"x.grad for x = {values}, upstream {upstream}", seen["grad"], want_grad,
            tensor=True, mistakes=[(
        _cumulative_reference(values, upstream, cut=True)[1],
        "each x[i] only gets the gradient of its own step: the copy of s[i] must stay in the "
        "graph (clone(), not detach().clone()), so later products reach earlier x's")])

# %% [markdown]
# ## 08.3 · Debug: writing into part of a leaf (2 points)
#
# `w = torch.tensor([...], requires_grad=True)` is a leaf, so `w[0] = 0.0` raises *"a view of a
# leaf Variable that requires grad is being used in an in-place operation"*. Two functions
# need that line, with two different meanings. Fix both:
#
# * `reset_first_(w)` changes the **weight itself**: `w[0]` becomes 0, `w` stays the same
#   tensor, still a leaf that requires grad. Return nothing.
# * `first_replaced(w)` returns a **new tensor**, equal to `w` except that its entry 0 is 0;
#   `w` must not change, and gradients must flow from the result back to `w` (with zero
#   gradient for the entry that was thrown away).

# %% question="08.3" role="answer"
# Answer 08.3
def reset_first_(w):
    ### BEGIN SOLUTION
    with torch.no_grad():
        w[0] = 0.0
    ### END SOLUTION


def first_replaced(w):
    ### BEGIN SOLUTION
    out = w.clone()
    out[0] = 0.0
    return out
    ### END SOLUTION


# %% question="08.3" role="check" points=2
def _reset_probe(values):
    """reset_first_(w): w afterwards, and whether it is still a leaf that requires grad."""
    w = torch.tensor(values, requires_grad=True)
    reset_first_(w)
    return {"w": w, "leaf": w.is_leaf and w.requires_grad}


def _replaced_probe(values, data):
    """first_replaced(w): the result, whether it is w, w's values, whether the result
    requires grad, and w.grad after backward of sum(data * out)."""
    w = torch.tensor(values, requires_grad=True)
    out = first_replaced(w)
    seen = {"out": out, "same": out is w, "w": w.detach().clone(),
            "requires_grad": getattr(out, "requires_grad", False) is True}
    if seen["requires_grad"] and not seen["same"]:
        (torch.tensor(data) * out).sum().backward()
        seen["grad"] = w.grad
    return seen


with question("08.3", points=2, answers=()) as q:
    values = [0.5, -1.0, 2.0]
    try:
        seen = q.observe(_reset_probe, values)
    except NotImplementedError:
        raise  # a stub (NotImplementedError is a RuntimeError)
    except RuntimeError as error:
        q.fail(f"reset_first_ still raises: {str(error)[:85]}...: change the weight under "
               "`with torch.no_grad():`")
    # whether w stayed a leaf, whether first_replaced changed w or returned it, and the node
    # names of powers' graph are reported by the learner's process: trusted facts, worth 1
    # point of each question (the values earn the rest)
    q.method(seen["leaf"], "after reset_first_, w must still be a leaf that "
             "requires grad: change it in place under no_grad, don't rebuild it")
    q.close(f"w after reset_first_, for w = {values}", seen["w"], [0.0] + values[1:], tensor=True)

    data = [1.0, 2.0, 3.0]
    try:
        seen = q.observe(_replaced_probe, values, data)
    except NotImplementedError:
        raise
    except RuntimeError as error:
        q.fail(f"first_replaced still raises: {str(error)[:50]}...: write into a clone of w, "
               "not into w")
    q.method(torch.equal(seen["w"], torch.tensor(values)), "first_replaced changed w "
             "itself: it must return a new tensor (write into w.clone())")
    q.method(not seen["same"], "first_replaced must return a new tensor, not w")
    q.close(f"first_replaced(w) for w = {values}", seen["out"], [0.0] + values[1:],
            tensor=True)
    q.true(seen["requires_grad"], "the result of first_replaced is cut from the graph: use "
           "w.clone() (recorded), not w.detach().clone()")
    q.close("w.grad", seen["grad"], [0.0, 2.0, 3.0], tensor=True, mistakes=[(
        data, "the overwritten entry 0 still gets a gradient: write the 0 into the copy, "
              "so CopySlices zeroes that entry's gradient")])

# %% [markdown]
# ## 08.4 · Implement: one `stack` instead of a `CopySlices` chain (2 points)
#
# This function fills a preallocated tensor with the powers $x^0, x^1, \dots, x^{n-1}$ of a
# tensor `x`:
#
# ```python
# def powers(x, n):
#     y = torch.empty(n, *x.shape)
#     for i in range(n):
#         y[i] = x ** i
#     return y
# ```
#
# It records a chain of `n` `CopySlices` nodes, whose backward copies the whole gradient of
# `y` at every node. Rewrite it without any slice assignment (collect the pieces in a list and
# join them once) so it gives the same values and gradients, and its graph has no `CopySlices`.

# %% question="08.4" role="answer"
# Answer 08.4
def powers(x, n):
    ### BEGIN SOLUTION
    return torch.stack([x ** i for i in range(n)])
    ### END SOLUTION


# %% question="08.4" role="check" points=2
def _node_names(t):
    """The class name of every node reachable from t.grad_fn (each node once)."""
    names, seen, todo = [], set(), [t.grad_fn]
    while todo:
        node = todo.pop()
        if node is None or node in seen:
            continue
        seen.add(node)
        names.append(type(node).__name__)
        todo += [n for n, _ in node.next_functions]
    return names


def _powers_reference(values, n, upstream):
    x = torch.tensor(values, dtype=torch.float64, requires_grad=True)
    y = torch.empty(n, *x.shape, dtype=torch.float64)
    for i in range(n):
        y[i] = x ** i
    y.backward(upstream)
    return y.detach(), x.grad


def _powers_probe(values, n, upstream):
    """powers(x, n), the names of its graph's nodes, and x.grad after backward."""
    x = torch.tensor(values, dtype=torch.float64, requires_grad=True)
    y = powers(x, n)
    if not isinstance(y, torch.Tensor):
        return {"y": y}
    seen = {"y": y, "nodes": _node_names(y)}
    if tuple(y.shape) == (n, *x.shape):
        y.backward(torch.tensor(upstream, dtype=torch.float64))
        seen["grad"] = x.grad
    return seen


with question("08.4", points=2, answers=()) as q:
    for values, n in (([1.5, -0.5], 4), ([[2.0, 0.5], [-1.0, 3.0]], 3)):
        x = torch.tensor(values, dtype=torch.float64)
        shape = (n, *x.shape)
        upstream = torch.arange(float(x.numel() * n), dtype=torch.float64).reshape(shape) - 2
        want_y, want_grad = _powers_reference(values, n, upstream)
        seen = q.observe(_powers_probe, values, n, upstream.tolist())
        y = seen["y"]
        q.need_tensor(f"powers(x, {n})", y)
        q.true(tuple(y.shape) == tuple(want_y.shape), f"powers(x, {n}) has shape "
               f"{list(y.shape)}, expected {list(want_y.shape)}: torch.cat joins along an "
               "existing dimension, torch.stack adds a new first one")
        q.close(f"powers(x, {n})", y, want_y, hints={
            "other": f"row i must be x ** i, for i = 0 .. {n - 1} (x ** 0 is all ones)"})
        copies = seen["nodes"].count("CopySlices")
        q.method(copies == 0, f"the graph of powers(x, {n}) still has {copies} CopySlices "
                 "node(s): build a list of the pieces and join them once with torch.stack")
        q.close(f"x.grad for powers(x, {n})", seen["grad"], want_grad, tensor=True)

# %% [markdown]
# ## Reflection (not scored)
#
# In 08.2, the write `s[i + 1] = ...` never touches `s[i]`, yet autograd refuses to go on. Why
# can't autograd tell that the saved value is still intact, and why is that a reasonable
# design?
#
# ### BEGIN SOLUTION
# A version counter belongs to the whole memory (the base and all its views), and any in-place
# write bumps it: autograd does not track which elements changed. Checking element by element
# would cost time and memory on every op; a cheap counter that sometimes refuses a safe program
# (fixed with one clone) is better than a silent wrong gradient.
# ### END SOLUTION
#
# <details><summary>One possible answer</summary>
#
# Views share one counter with their base, and any write through any of them increments it.
# Autograd only compares counters, so it cannot see that the write missed `s[i]`. Counting per
# element would be far more expensive; the counter errs on the side of safety.
# </details>
