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
# ## 06.4 · Implement: a batch of tensors to NumPy arrays (2 points)
#
# The lesson turned one tensor into a NumPy array safely. What you log or plot is usually a
# whole structure: a batch, a dict of metrics, a list of layers' outputs. Write `to_numpy(obj)`:
# `obj` is a tensor, or a list, tuple or dict holding tensors and other values, nested to any
# depth. Return the same structure (same container types, same keys, same order) with every
# tensor replaced by a NumPy array of its values that **owns its memory**: writing into an
# array must never change the tensor. Anything else (a number, a string) comes back as it is.
# Tensors may come from torch or from minigrad (tell them from the rest with
# `isinstance(v, (torch.Tensor, minigrad.Tensor))`), and may require grad or sit in the middle
# of a graph. `to_numpy` must not change any tensor (no `requires_grad_(False)`, no in-place
# ops).

# %% question="06.4" role="answer"
# Answer 06.4
def to_numpy(obj):
    ### BEGIN SOLUTION
    if isinstance(obj, (torch.Tensor, minigrad.Tensor)):
        return obj.detach().cpu().clone().numpy()
    if isinstance(obj, dict):
        return {key: to_numpy(value) for key, value in obj.items()}
    if isinstance(obj, (list, tuple)):
        return type(obj)(to_numpy(value) for value in obj)
    return obj
    ### END SOLUTION


# %% question="06.4" role="check" points=2
def _batch(w):
    """A non-leaf made from w, and the nested structure to_numpy gets: w (a leaf that requires
    grad) and tensors made from it, with a string, an int and a float."""
    h = w * 2
    return h, {"w": w, "pair": (h, "label", 7), "more": [w * w, {"h": h, "lr": 0.5}]}


def _arrays(value):
    """The NumPy arrays inside ``value`` (dicts, lists and tuples are searched)."""
    if type(value) is np.ndarray:
        return [value]
    if type(value) is dict:
        value = list(value.values())
    if type(value) in (list, tuple):
        return [a for item in value for a in _arrays(item)]
    return []


def _as_arrays(value):
    """The expected result: ``value`` with each (torch) tensor as an array of its values."""
    if isinstance(value, torch.Tensor):
        return value.detach().numpy()
    if type(value) is dict:
        return {k: _as_arrays(v) for k, v in value.items()}
    if type(value) in (list, tuple):
        return type(value)(_as_arrays(v) for v in value)
    return value


def _copied(value):
    """``value`` with each array copied, before the probe writes into the arrays."""
    if type(value) is np.ndarray:
        return np.array(value)
    if type(value) is dict:
        return {k: _copied(v) for k, v in value.items()}
    if type(value) in (list, tuple):
        return type(value)(_copied(v) for v in value)
    return value


def _numpy_probe(lib_name):
    """to_numpy on a leaf that requires grad, on a non-leaf and on a nested structure of
    tensors: what it returned, then whether the tensors still require grad and their first
    values once the first entry of every array returned was overwritten."""
    lib = minigrad if lib_name == "minigrad" else torch
    seen = []
    for kind in range(3):  # fresh tensors each time: a write into one array stays there
        w = lib.tensor([1.0, -2.0, 3.0], requires_grad=True)
        h, batch = _batch(w)
        out = to_numpy((w, h, batch)[kind])
        entry = {"out": _copied(out)}
        for arr in _arrays(out):
            if arr.size:
                arr[0] = 1000.0
        entry.update(requires_grad=w.requires_grad and h.requires_grad,
                     first=[float(w.detach()[0]), float(h.detach()[0])])
        seen.append(entry)
    return seen


def _check_structure(q, got, want, where):
    """``got`` (what to_numpy returned) has ``want``'s structure, arrays for tensors."""
    if isinstance(want, np.ndarray):
        q.true(isinstance(got, np.ndarray), f"{where} should be a NumPy array, not "
               f"{type(got).__name__}")
        q.close(where, got, want)
    elif isinstance(want, dict):
        q.true(isinstance(got, dict) and list(got) == list(want), f"{where} should be a dict "
               f"with the keys {list(want)}, in that order")
        for key in want:
            _check_structure(q, got[key], want[key], f"{where}[{key!r}]")
    elif isinstance(want, list | tuple):
        q.true(type(got) is type(want) and len(got) == len(want), f"{where} should be a "
               f"{type(want).__name__} of {len(want)} items, like the one given: keep each "
               "container's type")
        for i, (mine, theirs) in enumerate(zip(got, want)):
            _check_structure(q, mine, theirs, f"{where}[{i}]")
    else:
        q.true(type(got) is type(want) and got == want, f"{where} is {want!r} in what "
               f"to_numpy was given, not a tensor: return it as it is")


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
        h, batch = _batch(w)
        for what, given, entry in (("a leaf that requires grad", w, seen[0]),
                                   ("a non-leaf", h, seen[1]),
                                   ("a nested dict of tensors", batch, seen[2])):
            _check_structure(q, entry["out"], _copied(_as_arrays(given)),
                             f"to_numpy({what}) ({lib.__name__})")
            # the tensors' state after the call (and after writes into the arrays) is read in
            # the learner's process: trusted facts, worth 1 point together
            q.method(entry["requires_grad"], f"to_numpy turned off requires_grad of {what}: "
                     "work on a detached copy, leave the tensors alone")
            q.method(entry["first"] == [1.0, 2.0], f"writing into the array changed {what} "
                     f"({lib.__name__}): numpy() does not copy, so clone() before calling it")


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
