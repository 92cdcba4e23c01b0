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
# # Exercises 06 · `detach()` and `clone()`
#
# Practise lesson 06 (`notebooks/06_detach_and_clone.ipynb`): which ways of making a tensor
# keep it in the graph, a gradient by hand with one branch detached, a target that should have
# been a constant, and the safe road from a tensor to a NumPy array. Each answer cell is
# followed by a check cell; the questions do not depend on each other.

# %%
# Run this cell first.
import math

import numpy as np
import torch

import minigrad
from coursekit.grading import question

# %% [markdown]
# ## 06.1 · Predict: five ways to make `y` (2 points)
#
# A variation on the lesson's A–E experiment, with another function and another value:
#
# ```python
# x = torch.tensor(2.0, requires_grad=True)
# y = ...                  # one of the five ways below
# z = x * y + y
# z.backward()
# ```
#
# | | `y = ...` |
# | --- | --- |
# | A | `torch.tensor(2.0, requires_grad=True)` |
# | B | `x` |
# | C | `torch.tensor(2.0)` |
# | D | `x.detach().clone()` |
# | E | `x.clone()` |
#
# In every case `z` is 6. What is `x.grad` in each case? Fill in a number for each letter.

# %% question="06.1" role="answer"
# Answer 06.1
### BEGIN SOLUTION
x_grad = {"A": 2.0, "B": 5.0, "C": 2.0, "D": 2.0, "E": 5.0}
### END SOLUTION

# %% question="06.1" role="check" points=2
def _x_grad_for(way):
    x = torch.tensor(2.0, requires_grad=True)
    y = {"A": lambda: torch.tensor(2.0, requires_grad=True), "B": lambda: x,
         "C": lambda: torch.tensor(2.0), "D": lambda: x.detach().clone(),
         "E": lambda: x.clone()}[way]()
    (x * y + y).backward()
    return x.grad


with question("06.1", points=2, answers=("x_grad",)) as q:
    why = {"A": "y is a second, independent leaf: only the x in x * y depends on x",
           "B": "y is x itself, so z = x² + x: the gradients of every use of x add up",
           "C": "y is a constant: only the x in x * y depends on x",
           "D": "detach().clone() copies x's value but not its history: to autograd y is a "
                "constant, wherever its value came from",
           "E": "clone() is recorded (CloneBackward0), so the gradient of every use of y "
                "flows through the copy into x, as in B"}
    q.true(isinstance(x_grad, dict), "`x_grad` should be a dict like {'A': 1.0, ...}")
    for way in "ABCDE":
        q.true(way in x_grad, f"`x_grad` has no entry for {way!r}")
        q.close(f"x_grad[{way!r}]", x_grad[way], _x_grad_for(way), hints={"other": why[way]})

# %% [markdown]
# ## 06.2 · Compute by hand: detaching the other branch (3 points)
#
# Lesson 06 cut the `log` branch of $z = \log(y_1)\sin(y_1)$, $y_1 = x_1 x_2$, at
# $(x_1, x_2) = (1, 2)$. This time the **`sin`** branch reads a detached `y1`:
#
# ```python
# y1 = x1 * x2
# z = torch.log(y1) * torch.sin(y1.detach())
# ```
#
# With numbers and `math` only (no autograd), compute `grad_x1` $=\partial z/\partial x_1$ and
# `grad_x2` $=\partial z/\partial x_2$ for this code, and `grad_x1_full`, the value
# $\partial z/\partial x_1$ would have with no detach at all.

# %% question="06.2" role="answer"
# Answer 06.2: numbers only (no autograd).
x1_value, x2_value = 1.0, 2.0
### BEGIN SOLUTION
y1_value = x1_value * x2_value
dz_dy1 = math.sin(y1_value) / y1_value          # only the log branch carries gradient
grad_x1 = dz_dy1 * x2_value
grad_x2 = dz_dy1 * x1_value
dz_dy1_full = math.sin(y1_value) / y1_value + math.log(y1_value) * math.cos(y1_value)
grad_x1_full = dz_dy1_full * x2_value
### END SOLUTION

# %% question="06.2" role="check" points=3
def _grads(detach_sin):
    x1 = torch.tensor(1.0, dtype=torch.float64, requires_grad=True)
    x2 = torch.tensor(2.0, dtype=torch.float64, requires_grad=True)
    y1 = x1 * x2
    (torch.log(y1) * torch.sin(y1.detach() if detach_sin else y1)).backward()
    return x1.grad, x2.grad


with question("06.2", points=3, answers=("grad_x1", "grad_x2", "grad_x1_full")) as q:
    g1, g2 = _grads(detach_sin=True)
    f1, f2 = _grads(detach_sin=False)
    sin_branch = f1 - g1
    q.close("grad_x1", grad_x1, g1, mistakes=[
        (f1, "that is the gradient without the detach: sin(y1.detach()) is a constant to "
             "autograd, so only the log branch, sin(y1)/y1, reaches y1"),
        (sin_branch, "that is the sin branch's share, the one the detach removes: keep "
                     "d(log y1)/dy1 · sin(y1) = sin(y1)/y1 instead"),
        (g1 / 2.0, "you stopped at dz/dy1: multiply by dy1/dx1 = x2 (chain rule)")])
    q.close("grad_x2", grad_x2, g2, mistakes=[
        (f2, "that is the gradient without the detach: only the log branch counts"),
        (g2 * 2.0, "dy1/dx2 is x1 = 1, not x2")])
    q.close("grad_x1_full", grad_x1_full, f1, mistakes=[
        (g1, "that is the detached value: without the detach, both branches send gradient "
             "to y1 and the two terms add up"),
        (sin_branch, "that is only the sin branch: add the log branch's sin(y1)/y1 · x2")])

# %% [markdown]
# ## 06.3 · Debug: a target that should stay fixed (2 points)
#
# `sharpen_loss(p)` pulls a vector of positive scores `p` towards a *sharpened* copy of itself,
# $t = p^2 / \sum p^2$, which is meant as a **fixed target**, like a label: the gradient should
# move `p` towards `t` and never move `t`. As written, the target is part of the graph and
# the gradient also flows through it:
#
# ```python
# def sharpen_loss(p):
#     target = p.clone() ** 2          # meant as a fixed copy...
#     target = target / target.sum()
#     return ((p - target) ** 2).sum()
# ```
#
# Fix the first line of the function so the target is a constant to autograd (the value of
# the loss must not change, only its gradient).

# %% question="06.3" role="answer"
# Answer 06.3
def sharpen_loss(p):
    ### BEGIN SOLUTION
    target = p.detach().clone() ** 2
    ### END SOLUTION
    target = target / target.sum()
    return ((p - target) ** 2).sum()


# %% question="06.3" role="check" points=2
def _sharpen_reference(values, fixed):
    p = torch.tensor(values, dtype=torch.float64, requires_grad=True)
    t = (p.detach() if fixed else p.clone()) ** 2
    loss = ((p - t / t.sum()) ** 2).sum()
    loss.backward()
    return loss.detach(), p.grad


def _sharpen_probe(values):
    """sharpen_loss(p): the loss, whether it requires grad, then (after its backward) p's
    values and p.grad."""
    p = torch.tensor(values, dtype=torch.float64, requires_grad=True)
    loss = sharpen_loss(p)
    seen = {"loss": loss, "requires_grad": getattr(loss, "requires_grad", False) is True}
    if seen["requires_grad"]:
        loss.backward()
    seen.update(p=p.detach(), grad=p.grad)
    return seen


with question("06.3", points=2, answers=()) as q:
    values = [0.2, 0.5, 0.3]
    seen = q.observe(_sharpen_probe, values)
    want_loss, want_grad = _sharpen_reference(values, fixed=True)
    q.true(seen["requires_grad"], "the loss no longer depends on p in the graph: detach the "
           "target, not p itself (p - target must still record p)")
    q.close(f"the loss for p = {values}", seen["loss"], want_loss, tensor=True, hints={
        "other": "the value of the loss must not change: only the gradient should"})
    # p's values after the call are read in the learner's process: trusted, 1 point
    q.method(torch.equal(seen["p"], torch.tensor(values, dtype=torch.float64)),
             "sharpen_loss changed p's values: compute the target on a copy")
    q.close(f"p.grad for p = {values}", seen["grad"], want_grad, tensor=True, mistakes=[(
        _sharpen_reference(values, fixed=False)[1],
        "the gradient still flows through the target: build it from p.detach() (or "
        "p.detach().clone()), not from p or p.clone()")])
    ### BEGIN HIDDEN TESTS
    values = [1.0, 2.0, 0.5, 4.0]
    q.close("p.grad for another p", q.observe(_sharpen_probe, values)["grad"],
            _sharpen_reference(values, fixed=True)[1], tensor=True)
    ### END HIDDEN TESTS

# %% [markdown]
# ## 06.4 · Implement: from a tensor to a NumPy array (2 points)
#
# Write `to_numpy(t)`: it must accept any tensor, from torch or from minigrad, including one
# that requires grad or sits in the middle of a graph, and return a NumPy array with the same
# values that **owns its memory**: writing into the array must never change `t`. It must not
# change `t` either (no `requires_grad_(False)`, no in-place ops).

# %% question="06.4" role="answer"
# Answer 06.4
def to_numpy(t):
    ### BEGIN SOLUTION
    return t.detach().cpu().clone().numpy()
    ### END SOLUTION


# %% question="06.4" role="check" points=2
def _numpy_probe(lib_name):
    """to_numpy on a leaf that requires grad and on a non-leaf: the array, then whether the
    tensor still requires grad and its first value once the array's first entry was
    overwritten."""
    lib = minigrad if lib_name == "minigrad" else torch
    w = lib.tensor([1.0, -2.0, 3.0], requires_grad=True)
    seen = []
    for t in (w, w * 2):
        arr = to_numpy(t)
        entry = {"array": np.array(arr) if type(arr) is np.ndarray else arr,
                 "requires_grad": t.requires_grad}
        if type(arr) is np.ndarray and arr.size:
            arr[0] = 1000.0
            entry["first"] = float(t.detach()[0])
        seen.append(entry)
    return seen


with question("06.4", points=2, answers=()) as q:
    for lib in (torch, minigrad):
        try:
            seen = q.observe(_numpy_probe, lib.__name__)
        except NotImplementedError:
            raise  # a stub (NotImplementedError is a RuntimeError)
        except RuntimeError as error:
            q.fail(f"to_numpy raised ({lib.__name__}): {str(error)[:60]}...: "
                   "detach() it first, numpy() refuses a tensor that requires grad")
        w = torch.tensor([1.0, -2.0, 3.0])
        for what, before, entry in (("a leaf that requires grad", w, seen[0]),
                                    ("a non-leaf", w * 2, seen[1])):
            arr = entry["array"]
            q.true(isinstance(arr, np.ndarray),
                   f"to_numpy should return a NumPy array, not {type(arr).__name__}")
            q.close(f"the array for {what} ({lib.__name__})", arr, before)
            # t's state after the call (and after a write into the array) is read in the
            # learner's process: trusted facts, worth 1 point together
            q.method(entry["requires_grad"], f"to_numpy turned off requires_grad of {what}: "
                     "work on a detached copy, leave t alone")
            q.method(entry.get("first") == float(before[0]),
                     f"writing into the array changed {what} ({lib.__name__}): numpy() does "
                     "not copy, so clone() before calling it")

# %% [markdown]
# ## Reflection (not scored)
#
# In 06.1, `y` in D got its value from `x`, yet `x.grad` ignores it. What does autograd look
# at to decide whether a gradient flows from one tensor to another? When is that cut exactly
# what you want?
#
# ### BEGIN SOLUTION
# Only at the graph: whether a chain of grad_fn nodes connects them. Where a value came from
# does not matter. The cut is what you want for targets and running statistics computed from
# the model that must not be trained towards themselves (a stop-gradient).
# ### END SOLUTION
#
# <details><summary>One possible answer</summary>
#
# Autograd follows recorded edges (`grad_fn` and `next_functions`), not the history of the
# numbers. Copying a value with `detach().clone()` leaves no edge. You want that for a fixed
# target, a moving average used as a label, or any value that must act as a constant.
# </details>
