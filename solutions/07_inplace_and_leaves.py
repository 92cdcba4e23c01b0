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
# # Exercises 07 · In-place operations and leaves
#
# Practise lesson 07 (`notebooks/07_inplace_and_leaves.ipynb`): version counters, the leaf
# in-place error, and the "modified by an inplace operation" error at backward time. Each
# answer cell is followed by a check cell; the questions do not depend on each other.

# %%
# Run this cell first.
import torch

import minigrad
from coursekit.grading import question

# %% [markdown]
# ## 07.1 · Predict: version counters (2 points)
#
# ```python
# a = torch.ones(3, requires_grad=True)
# b = a * 2
# b.add_(1)
# b.mul_(3)
# b += 1
# c = b + 1
# ```
#
# What are `a._version`, `b._version` and `c._version`?

# %% question="07.1" role="answer"
# Answer 07.1
### BEGIN SOLUTION
version_a, version_b, version_c = 0, 3, 0
### END SOLUTION

# %% question="07.1" role="check" points=2
with question("07.1", points=2, answers=("version_a", "version_b", "version_c")) as q:
    ta = torch.ones(3, requires_grad=True)
    tb = ta * 2
    tb.add_(1)
    tb.mul_(3)
    tb += 1
    tc = tb + 1
    q.close("version_a", version_a, ta._version, hints={
        "other": "a itself was never changed in place"})
    q.close("version_b", version_b, tb._version, mistakes=[(
        2, "`b += 1` is an in-place op too: every in-place op adds one to the counter")])
    q.close("version_c", version_c, tc._version, hints={
        "other": "c = b + 1 is a new tensor: its counter starts at 0"})

# %% [markdown]
# ## 07.2 · Predict: which lines raise? (2 points)
#
# `w = torch.tensor([1.0, 2.0], requires_grad=True)` is made afresh before each line:
#
# * A: `w.add_(1)`
# * B: `with torch.no_grad(): w.add_(1)`
# * C: `h = w * 2; h.add_(1)`
# * D: `w.data.add_(1)`
# * E: `w += 1`
#
# For each, does it raise an error? Fill in `True` (raises) or `False`.

# %% question="07.2" role="answer"
# Answer 07.2
### BEGIN SOLUTION
raises = {"A": True, "B": False, "C": False, "D": False, "E": True}
### END SOLUTION

# %% question="07.2" role="check" points=2
def _raises(code):
    scope = {"torch": torch, "w": torch.tensor([1.0, 2.0], requires_grad=True)}
    try:
        exec(code, scope)
    except RuntimeError:
        return True
    return False


with question("07.2", points=2, answers=("raises",)) as q:
    lines = {"A": "w.add_(1)", "B": "with torch.no_grad(): w.add_(1)",
             "C": "h = w * 2; h.add_(1)", "D": "w.data.add_(1)", "E": "w += 1"}
    why = {True: "a leaf that requires grad may not change in place while grad is recorded",
           False: "this is allowed: no recorded in-place change of a leaf that requires grad"}
    q.true(isinstance(raises, dict), "`raises` should be a dict like {'A': True, ...}")
    for key, code in lines.items():
        want = _raises(code)
        q.true(key in raises, f"`raises` has no entry for {key!r}")
        q.true(raises[key] == want, f"{key} (`{code}`): you said {raises[key]}, torch says "
               f"{want}: {why[want]}")

# %% [markdown]
# ## 07.3 · Debug: the leaf in-place error (2 points)
#
# This update step raises *"a leaf Variable that requires grad is being used in an in-place
# operation"*:
#
# ```python
# def sgd_step(params, lr):
#     for p in params:
#         p -= lr * p.grad
# ```
#
# Fix `sgd_step` so it changes each parameter in place (same tensor objects, still leaves that
# require grad) without raising.

# %% question="07.3" role="answer"
# Answer 07.3
def sgd_step(params, lr):
    ### BEGIN SOLUTION
    with torch.no_grad():
        for p in params:
            p -= lr * p.grad
    ### END SOLUTION


# %% question="07.3" role="check" points=2
def _sgd_probe(values, lr):
    """One sgd_step on parameters of loss sum(p²): each parameter, and whether it is still a
    leaf that requires grad."""
    params = [torch.tensor(v, requires_grad=True) for v in values]
    sum((p * p).sum() for p in params).backward()
    sgd_step(params, lr)
    return [{"p": p, "leaf": p.is_leaf, "requires_grad": p.requires_grad} for p in params]


with question("07.3", points=2, answers=()) as q:
    values = [[1.0, -2.0], [0.5, 4.0]]
    try:
        got = q.observe(_sgd_probe, values, 0.1)
    except NotImplementedError:
        raise  # a stub (NotImplementedError is a RuntimeError)
    except RuntimeError as error:
        q.fail(f"sgd_step still raises: {str(error)[:60]}...: do the update inside "
               "`with torch.no_grad():`")
    for seen, value in zip(got, values):
        old = torch.tensor(value)
        # whether the parameters stayed leaves is reported by the learner's process: trusted,
        # 1 point (their values, checked below, earn the other)
        q.method(seen["leaf"] and seen["requires_grad"], "the parameters must stay leaves "
                 "that require grad: update them in place, don't replace them")
        q.true(not torch.equal(seen["p"].detach(), old), "the parameters did not change: "
               "`p = p - ...` only rebinds the name p; change the tensor itself (p -= ...)")
        q.close("the updated parameter", seen["p"], old - 0.1 * 2 * old, tensor=True)

# %% [markdown]
# ## 07.4 · Debug: modified by an inplace operation (3 points)
#
# `f` computes $\sum (e^x + 1)^2$, but its backward fails: `exp` saves its *output* for the
# backward pass, and `add_` changes that output. Fix `f` so `f(x).backward()` works and gives
# the right gradient.

# %% question="07.4" role="answer"
# Answer 07.4
def f(x):
    y = x.exp()
    ### BEGIN SOLUTION
    y = y + 1
    ### END SOLUTION
    return (y * y).sum()


# %% question="07.4" role="check" points=3
def _f_probe(lib_name, values):
    """x.grad after f(x).backward(), x a tensor of ``lib_name``."""
    x = (minigrad if lib_name == "minigrad" else torch).tensor(values, requires_grad=True)
    f(x).backward()
    return x.grad


with question("07.4", points=3, answers=()) as q:
    values = [0.5, -1.0, 2.0]
    for lib in (torch, minigrad):
        try:
            grad = q.observe(_f_probe, lib.__name__, values)
        except NotImplementedError:
            raise  # a stub (NotImplementedError is a RuntimeError)
        except RuntimeError as error:
            q.fail(f"backward still fails on {lib.__name__}: {str(error)[:70]}...: make the "
                   "+1 out of place (y = y + 1) so exp's saved output stays untouched")
        tx = torch.tensor(values, requires_grad=True)
        ((tx.exp() + 1) ** 2).sum().backward()
        q.close(f"x.grad for x = {values} ({lib.__name__})", grad, tx.grad, tensor=True, hints={
            "other": "f must still compute sum((exp(x) + 1)**2)"})

# %% [markdown]
# ## Reflection (not scored)
#
# Why does autograd refuse `w.add_(1)` on a leaf that requires grad, but accept the same line
# under `torch.no_grad()`?
#
# ### BEGIN SOLUTION
# Recorded, the change would have to be part of the graph, but a leaf has no history: its
# gradient is what we want. Under `no_grad` nothing is recorded, so changing the value is
# just an update, as an optimizer does.
# ### END SOLUTION
#
# <details><summary>One possible answer</summary>
#
# A leaf is where gradients are collected; recording an in-place change would give it a
# history. Under `no_grad` the change is not recorded: it is a plain update of the weights.
# </details>
