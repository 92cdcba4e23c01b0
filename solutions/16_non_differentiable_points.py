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
# # Exercises 16 · Gradients where the derivative does not exist
#
# Practise lesson 16 (`notebooks/16_non_differentiable_points.ipynb`): the gradients torch
# returns at corners and ties, where a NaN gradient comes from, and how to choose the gradient
# a function has at its corners. Each answer cell is followed by
# a check cell; the questions do not depend on each other.

# %%
# Run this cell first.
import torch

import minigrad
from coursekit.grading import question

# %% [markdown]
# ## 16.1 · Predict: corners and ties (2 points)
#
# ```python
# x = torch.tensor([0.0, 2.0, 2.0, -1.0], requires_grad=True)
# y = torch.relu(x).sum() + x.clamp(max=2.0).sum() + x.amax()
# y.backward()
# ```
#
# Without running it: what is `x.grad`? Write it as a list of four numbers.

# %% question="16.1" role="answer"
# Answer 16.1
### BEGIN SOLUTION
grad_x = [1.0, 2.5, 2.5, 1.0]
### END SOLUTION

# %% question="16.1" role="check" points=2
with question("16.1", points=2, answers=("grad_x",)) as q:
    tx = torch.tensor([0.0, 2.0, 2.0, -1.0], requires_grad=True)
    (torch.relu(tx).sum() + tx.clamp(max=2.0).sum() + tx.amax()).backward()
    q.true(isinstance(grad_x, (list, tuple)) and len(grad_x) == 4,
           "`grad_x` should be a list of four numbers, one per entry of x")
    q.close("grad_x", torch.tensor([float(g) for g in grad_x]), tx.grad, mistakes=[
        (torch.tensor([2.0, 2.5, 2.5, 1.0]), "relu's gradient at 0 is 0 (the smallest "
                                             "subgradient), not 1"),
        (torch.tensor([1.0, 2.0, 2.0, 1.0]), "clamp lets the gradient through at its bound: "
                                             "at x = 2 = max it is 1, not 0"),
        (torch.tensor([1.0, 3.0, 2.0, 1.0]), "amax over everything splits a tie evenly: "
                                             "0.5 to each of the two 2s"),
        (torch.tensor([1.0, 3.0, 3.0, 1.0]), "the tie of amax is split, not copied: each "
                                             "2 gets 0.5")])

# %% [markdown]
# ## 16.2 · Predict: which entries are NaN? (2 points)
#
# ```python
# x = torch.tensor([-1.0, 0.0, 2.0], requires_grad=True)
# y = torch.where(x > 0, torch.log(x), 0.0)
# y.sum().backward()
# ```
#
# `log(-1)` is NaN and `log(0)` is $-\infty$, but `where` only keeps `log(2)`. Which entries
# of `x.grad` are NaN? Set `nan_entries` to the list of their positions (0, 1, 2), e.g. `[0]`
# or `[]`. (Hint: `LogBackward0` computes `grad / x`, and `where` sends a gradient of 0 to the
# entries it did not keep. What is $0 / (-1)$? And $0 / 0$?)

# %% question="16.2" role="answer"
# Answer 16.2
### BEGIN SOLUTION
nan_entries = [1]
### END SOLUTION

# %% question="16.2" role="check" points=2
with question("16.2", points=2, answers=("nan_entries",)) as q:
    tx = torch.tensor([-1.0, 0.0, 2.0], requires_grad=True)
    torch.where(tx > 0, torch.log(tx), 0.0).sum().backward()
    want = [i for i in range(3) if torch.isnan(tx.grad[i])]
    q.true(isinstance(nan_entries, (list, tuple)) and all(
        isinstance(i, int) and not isinstance(i, bool) for i in nan_entries),
        "`nan_entries` should be a list of positions (ints), e.g. [0, 2] or []")
    got = sorted(set(nan_entries))
    q.true(got != [0, 1], "entry 0 is not NaN: the backward of log computes grad / x, and "
           "0 / (-1) is -0.0, a number. The NaN value of log(-1) is never read by backward")
    q.true(got != [], "0 / 0 is NaN: at x = 0 the gradient 0 that where sends is divided by x")
    q.true(got == want, f"not quite: the NaN entries are the ones where grad / x is 0 / 0 "
           f"(you said {got})")

# %% [markdown]
# ## 16.3 · Implement: `hardtanh` with torch's gradient at its corners (3 points)
#
# `torch.nn.functional.hardtanh(x)` computes the same values as `x.clamp(-1.0, 1.0)`, but its
# backward made the other choice at the two corners: the gradient is 1 only where
# $-1 < x < 1$ (strictly), and 0 at $x = -1$ and $x = 1$, where `clamp` lets it through.
# Write `my_hardtanh(x)` for a tensor `x` of any shape: the values of `clamp(x, -1, 1)` and the
# gradient of `hardtanh`, corners included. Build it from tensor operations (the check runs
# backward through it); do not call `hardtanh`, `Hardtanh` or `relu6`.

# %% question="16.3" role="answer"
# Answer 16.3
def my_hardtanh(x):
    ### BEGIN SOLUTION
    inside = (x > -1.0) & (x < 1.0)
    return torch.where(inside, x, x.clamp(-1.0, 1.0).detach())
    ### END SOLUTION


# %% question="16.3" role="check" points=3
def _hardtanh_probe(values):
    """my_hardtanh on a leaf: its value, and the leaf's gradient for a weighted sum."""
    x = torch.tensor(values, dtype=torch.float64, requires_grad=True)
    y = my_hardtanh(x)
    if not torch.is_tensor(y):
        return {"type": type(y).__name__}
    weights = torch.arange(1.0, x.numel() + 1.0, dtype=torch.float64).reshape(x.shape)
    if y.requires_grad:
        (y * weights).sum().backward()
    return {"type": "tensor", "y": y.detach(), "grad": x.grad}


with question("16.3", points=3, answers=()) as q:
    q.refuse(("hardtanh", "Hardtanh", "relu6", "ReLU6", "hardtanh_"), "rebuild its gradient "
             "from tensor operations")
    for values in ([-2.0, -1.0, 0.0, 1.0, 2.0], [[0.5, -1.0], [1.0, -0.25]],
                   [1.0, 1.0 - 2 ** -52, -1.0 - 2 ** -52, 3.0]):
        seen = q.observe(_hardtanh_probe, values)
        q.true(seen["type"] == "tensor", f"my_hardtanh returned a {seen['type']}, not a tensor")
        tx = torch.tensor(values, dtype=torch.float64, requires_grad=True)
        want = torch.nn.functional.hardtanh(tx)
        weights = torch.arange(1.0, tx.numel() + 1.0, dtype=torch.float64).reshape(tx.shape)
        (want * weights).sum().backward()
        clamp_grad = weights * ((tx >= -1.0) & (tx <= 1.0))
        q.close(f"my_hardtanh({values})", seen["y"], want.detach())
        q.true(seen["grad"] is not None, f"my_hardtanh({values}) is not connected to x: build "
               "it from x with tensor operations, so backward reaches x")
        q.close(f"x.grad for my_hardtanh({values})", seen["grad"], tx.grad, mistakes=[
            (clamp_grad, "that is clamp's gradient, which passes the gradient at x = -1 and "
                         "x = 1; hardtanh's is 0 there: the gradient flows only where "
                         "-1 < x < 1")])

# %% [markdown]
# ## 16.4 · Implement: a vector length with torch's gradient at zero (3 points)
#
# `v.norm()` has gradient $v / \|v\|$ away from 0 and 0 at $v = 0$ (lesson 16, section 5);
# `(v ** 2).sum().sqrt()` gives NaN there. Write `length(v)` for a 1-D tensor `v`: the
# Euclidean length $\sqrt{\sum_i v_i^2}$, as a 0-d tensor, whose gradient is $v / \|v\|$ when
# $v \ne 0$ and 0 when $v = 0$. Do not call `norm`, `vector_norm` or `linalg` (that is what
# you are rebuilding); a custom `torch.autograd.Function` or the double where both work.

# %% question="16.4" role="answer"
# Answer 16.4
def length(v):
    ### BEGIN SOLUTION
    squares = (v ** 2).sum()
    nonzero = squares > 0
    safe = torch.where(nonzero, squares, 1.0)
    return torch.where(nonzero, safe.sqrt(), 0.0)
    ### END SOLUTION


# %% question="16.4" role="check" points=3
def _length_probe(values):
    """length(v) on a leaf: its value and shape, and v's gradient."""
    v = torch.tensor(values, dtype=torch.float64, requires_grad=True)
    out = length(v)
    if not torch.is_tensor(out):
        return {"type": type(out).__name__}
    if out.requires_grad:
        out.sum().backward()
    return {"type": "tensor", "out": out.detach(), "grad": v.grad}


with question("16.4", points=3, answers=()) as q:
    q.refuse(("norm", "vector_norm", "linalg", "hypot"), "build the length from the squares, "
             "with a gradient of 0 at the zero vector")
    for values in ([3.0, 4.0], [0.0, 0.0, 0.0], [-1e-3, 2e-3], [0.0], [1.0, -2.0, 2.0]):
        seen = q.observe(_length_probe, values)
        q.true(seen["type"] == "tensor", f"length returned a {seen['type']}, not a tensor")
        tv = torch.tensor(values, dtype=torch.float64, requires_grad=True)
        want = tv.norm()
        want.backward()
        q.true(tuple(seen["out"].shape) == (), f"length({values}) has shape "
               f"{list(seen['out'].shape)}: return a 0-d tensor (a sum, not a vector)")
        q.close(f"length({values})", seen["out"], want.detach())
        q.true(seen["grad"] is not None, f"length({values}) is not connected to v")
        q.true(not torch.isnan(seen["grad"]).any(), f"the gradient at {values} is "
               f"{seen['grad'].tolist()}: at the zero vector sqrt's infinite slope meets "
               "pow's 0; keep sqrt away from 0 there")
        q.close(f"v.grad for length({values})", seen["grad"], tv.grad)

# %% [markdown]
# ## Reflection (not scored)
#
# `relu`, `clamp(x, min=0)` and `maximum(x, 0)` compute the same function with three different
# gradients at 0. Can this difference ever change the result of training? When?
#
# ### BEGIN SOLUTION
# Only when inputs land exactly on 0, and then only through which subgradient is used. In
# float32 that happens more than one would think (sparse inputs, padding, quantised or float16
# activations), and the choice then changes which weights move; in float64 with continuous
# data it almost never happens.
# ### END SOLUTION
#
# <details><summary>One possible answer</summary>
#
# The gradients differ only at exactly 0. With continuous float64 inputs that is practically
# never hit, but in low precision, with zero padding or with ReLU networks whose activations
# are often exactly 0, the choice changes the updates, and two implementations of "the same"
# model can train differently.
# </details>
