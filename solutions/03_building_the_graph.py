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
# # Exercises 03 · Building the graph
#
# Practise lesson 03 (`notebooks/03_building_the_graph.ipynb`): leaves and `requires_grad`,
# how `.grad` accumulates, writing a backward node of your own, and a training loop that
# forgets to zero its gradients. Each answer cell is followed by a check cell; the questions do
# not depend on each other.

# %%
# Run this cell first.
import torch

import minigrad
from minigrad._ops._core import record
from minigrad.autograd.graph import Node
from coursekit.grading import question

# %% [markdown]
# ## 03.1 · Predict: leaves and `requires_grad` (2 points)
#
# ```python
# a = torch.tensor(2.0, requires_grad=True)
# b = torch.tensor(3.0)
# c = a * b
# d = b * 2
# e = c.detach()
# ```
#
# For each tensor, is it a leaf (`is_leaf`), and does it require grad (`requires_grad`)?
# Fill in `True` or `False`.

# %% question="03.1" role="answer"
# Answer 03.1
### BEGIN SOLUTION
is_leaf = {"a": True, "b": True, "c": False, "d": True, "e": True}
requires_grad = {"a": True, "b": False, "c": True, "d": False, "e": False}
### END SOLUTION

# %% question="03.1" role="check" points=2
with question("03.1", points=2, answers=("is_leaf", "requires_grad")) as q:
    ta = torch.tensor(2.0, requires_grad=True)
    tb = torch.tensor(3.0)
    tc = ta * tb
    truth = {"a": ta, "b": tb, "c": tc, "d": tb * 2, "e": tc.detach()}
    why = {"c": "it is made by an op on a tensor that requires grad, so it has a grad_fn",
           "d": "no input requires grad, so nothing is recorded: d is a plain constant",
           "e": "detach() gives a tensor outside the graph", "a": "you created it yourself",
           "b": "you created it yourself"}
    for attr, answer in (("is_leaf", is_leaf), ("requires_grad", requires_grad)):
        for name, t in truth.items():
            want = getattr(t, attr)
            q.true(isinstance(answer, dict) and name in answer,
                   f"`{attr}` should be a dict with an entry for {name!r}")
            q.true(answer[name] is want or answer[name] == want,
                   f"{name}.{attr} is {want}, not {answer[name]}: {why[name]}")

# %% [markdown]
# ## 03.2 · Predict: `.grad` accumulates (2 points)
#
# ```python
# x = torch.tensor(3.0, requires_grad=True)
# y = x * x
# y.backward(retain_graph=True)
# y.backward()
# (2 * x).backward()
# ```
#
# What is `x.grad` now? Give a number.

# %% question="03.2" role="answer"
# Answer 03.2
### BEGIN SOLUTION
x_grad = 6.0 + 6.0 + 2.0
### END SOLUTION

# %% question="03.2" role="check" points=2
with question("03.2", points=2, answers=("x_grad",)) as q:
    tx = torch.tensor(3.0, requires_grad=True)
    ty = tx * tx
    ty.backward(retain_graph=True)
    ty.backward()
    (2 * tx).backward()
    adds = "each backward() adds into .grad, it never overwrites it"
    q.close("x_grad", x_grad, tx.grad,
            mistakes=[(2.0, "that is only the last backward: " + adds),
                      (6.0, "that is one backward of y: " + adds),
                      (8.0, "y.backward() ran twice: " + adds)])

# %% [markdown]
# ## 03.3 · Implement a backward node (3 points)
#
# minigrad records every op as a node class written next to the op in `minigrad/_ops/`. Here is a
# new op, `cube(x) = x³`, recorded with `record(...)` exactly like minigrad's own ops. Write
# `CubeBackward0.backward`: given `grad` (the gradient of the output), return the gradient of
# the input. The input was saved as `"self"`: read it with `self.saved("self")`. Use minigrad
# operations on `x` and `grad` (not NumPy, nor a new tensor made from their numbers), so the
# formula works for any shape and can itself be differentiated: the check also takes a second
# derivative, through a gradient computed with `create_graph=True`. Write the formula yourself:
# no autograd call inside the node (and no torch).

# %% question="03.3" role="answer"
# Answer 03.3
class CubeBackward0(Node):
    """out = self ** 3"""

    def backward(self, grad):
        ### BEGIN SOLUTION
        x = self.saved("self")
        return grad * 3 * x * x
        ### END SOLUTION


def cube(x):
    return record(x._data ** 3, CubeBackward0, (x,), save={"self": x})


# %% question="03.3" role="check" points=3
def _cube_probe(values, upstream):
    """The node cube(x) records, and x.grad after backward (from ``upstream``, or of the sum)."""
    x = minigrad.tensor(values, requires_grad=True)
    y = cube(x)
    name = y.grad_fn.name()
    if upstream is None:
        y.sum().backward()
    else:
        y.backward(minigrad.tensor(upstream))
    return {"node": name, "grad": x.grad}


def _cube_second_probe(values, direction):
    """The gradient of sum(cube(x)) taken with create_graph=True, whether it requires grad, and
    (when it does) the gradient of sum(direction * that gradient): a second derivative."""
    x = minigrad.tensor(values, requires_grad=True)
    (g,) = minigrad.autograd.grad(cube(x).sum(), x, create_graph=True)
    seen = {"requires_grad": getattr(g, "requires_grad", False) is True}
    if seen["requires_grad"]:
        (seen["second"],) = minigrad.autograd.grad((g * minigrad.tensor(direction)).sum(), x)
    return seen


with question("03.3", points=3, answers=()) as q:
    q.refuse(("autograd", "backward", "torch", "np", "numpy"), "write the formula of the "
             "derivative yourself, with minigrad operations on x and grad (no autograd call "
             "inside a backward node)")
    values = [[0.5, -1.5, 2.0], [1.0, 0.0, -0.25]]
    got = q.observe(_cube_probe, values, None)
    q.true(got["node"] == "CubeBackward0", "cube(x) should record a CubeBackward0 node")
    tx = torch.tensor(values, requires_grad=True)
    (tx ** 3).sum().backward()
    q.close(f"x.grad for x = {values}", got["grad"], tx.grad, tensor=True, hints={
        "other": "the derivative of x³ is 3x², times the incoming gradient"})
    direction = [[1.0, -2.0, 0.5], [3.0, 1.0, -1.0]]
    seen = q.observe(_cube_second_probe, values, direction)
    q.true(seen["requires_grad"], "with create_graph=True the gradient your backward returns "
           "is cut from the graph: compute it from x and grad with minigrad operations, not "
           "from their NumPy values")
    tx = torch.tensor(values, requires_grad=True)
    (tg,) = torch.autograd.grad((tx ** 3).sum(), tx, create_graph=True)
    (tg * torch.tensor(direction)).sum().backward()
    q.close("the second derivative through your backward", seen["second"], tx.grad,
            tensor=True, hints={"other": "the gradient 3x²·grad must be built from x itself "
                                         "(minigrad operations), so it can be differentiated"})
    ### BEGIN HIDDEN TESTS
    v = [[1.0, 2.0, -1.0], [0.5, 3.0, 2.0]]
    got = q.observe(_cube_probe, values, v)
    tx = torch.tensor(values, requires_grad=True)
    (tx ** 3).backward(torch.tensor(v))
    q.close("x.grad with an upstream gradient", got["grad"], tx.grad, tensor=True, hints={
        "other": "multiply by `grad`, the gradient flowing in from the output (chain rule)"})
    ### END HIDDEN TESTS

# %% [markdown]
# ## 03.4 · Fix: a training loop that never forgets (2 points)
#
# `train(w, steps, lr)` runs gradient descent on $(2w - 1)^2$, but each step moves `w` too far:
# `backward()` adds each new gradient to what `w.grad` already holds, so every step also uses
# the gradients of all the steps before it. Add the missing line so that each step uses only its
# own gradient. `train` must update `w` in place and return `w` itself.

# %% question="03.4" role="answer"
# Answer 03.4
def train(w, steps=5, lr=0.1):
    for _ in range(steps):
        loss = (2 * w - 1) ** 2
        loss.backward()
        with torch.no_grad():
            w -= lr * w.grad
        ### BEGIN SOLUTION
        w.grad = None
        ### END SOLUTION
    return w


# %% question="03.4" role="check" points=2
def _train_probe(start, steps, lr):
    """train on a fresh w: whether it returned w itself, and the w it returned."""
    w = torch.tensor(start, requires_grad=True)
    got = train(w, steps=steps, lr=lr)
    return {"same": got is w, "w": got}


with question("03.4", points=2, answers=()) as q:
    def reference(w, steps, lr, zero):
        for _ in range(steps):
            ((2 * w - 1) ** 2).backward()
            with torch.no_grad():
                w -= lr * w.grad
            if zero:
                w.grad = None
        return w

    got = q.observe(_train_probe, 3.0, 5, 0.1)
    # whether train returned w itself is reported by the learner's process: trusted, 1 point
    q.method(got["same"], "train should update w in place and return the same tensor")
    want = reference(torch.tensor(3.0, requires_grad=True), 5, 0.1, zero=True)
    q.close("w after 5 steps", got["w"], want, tensor=True, mistakes=[(
        reference(torch.tensor(3.0, requires_grad=True), 5, 0.1, zero=False),
        "w.grad still accumulates across steps: reset it (w.grad = None, or w.grad.zero_()) "
        "after each update")])

# %% [markdown]
# ## Reflection (not scored)
#
# Why does torch free a graph's saved tensors after `backward()` unless you pass
# `retain_graph=True`? When do you actually need it?
#
# ### BEGIN SOLUTION
# To save memory: most graphs are used once. You need it to backpropagate through the same
# graph twice, e.g. two losses sharing a trunk computed once.
# ### END SOLUTION
#
# <details><summary>One possible answer</summary>
#
# Saved intermediate values can be large and most graphs are used for exactly one backward.
# Keep them only when you will run backward through the same graph again.
# </details>
