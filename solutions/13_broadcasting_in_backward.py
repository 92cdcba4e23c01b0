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
# # Exercises 13 · Broadcasting and reductions in backward
#
# Practise lesson 13 (`notebooks/13_broadcasting_in_backward.ipynb`): the gradient of a
# broadcast input, the $1/n$ of `mean` along different dimensions, a loss broken by `(n, 1)`
# against `(n,)`, and summing a gradient back to an input's shape yourself. Each answer cell is
# followed by a check cell; the questions do not depend on each other.

# %%
# Run this cell first.
import torch

import minigrad
from coursekit.grading import question

# %% [markdown]
# ## 13.1 · Predict: two broadcast inputs (2 points)
#
# ```python
# x = torch.tensor([[1.0, 2.0, 3.0],
#                   [4.0, 5.0, 6.0]])
# w = torch.tensor([1.0, 1.0, 1.0], requires_grad=True)     # shape (3,)
# c = torch.tensor([[2.0], [3.0]], requires_grad=True)      # shape (2, 1)
# y = x * w + c
# y.sum().backward()
# ```
#
# Without running it: what are `w.grad` (three numbers) and `c.grad` (two numbers, one per
# row)? Give lists.

# %% question="13.1" role="answer"
# Answer 13.1: two lists.
### BEGIN SOLUTION
grad_w = [5.0, 7.0, 9.0]
grad_c = [3.0, 3.0]
### END SOLUTION

# %% question="13.1" role="check" points=2
with question("13.1", points=2, answers=("grad_w", "grad_c")) as q:
    tx = torch.tensor([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]])
    tw = torch.tensor([1.0, 1.0, 1.0], requires_grad=True)
    tc = torch.tensor([[2.0], [3.0]], requires_grad=True)
    (tx * tw + tc).sum().backward()
    q.close("grad_w", grad_w, tw.grad, mistakes=[
        ([2.0, 2.0, 2.0], "each w[j] is multiplied by x[i, j]: its gradient is the sum of "
                          "column j of x, not just the number of rows"),
        ([6.0, 15.0, 0.0], "w is broadcast along the rows, so sum each column of x (not each "
                           "row)"),
        ([1.0, 1.0, 1.0], "w was used once in every row: the gradients of all its uses add "
                          "up")])
    q.close("grad_c", grad_c, tc.grad, mistakes=[
        ([1.0, 1.0], "c has shape (2, 1): each c[i] is added to the three entries of row i, "
                     "and the three gradients add up"),
        ([2.0, 2.0], "c is broadcast along the columns: each c[i] was used once per column"),
        ([6.0, 15.0], "c is added, not multiplied: each use has derivative 1, whatever x is")])

# %% [markdown]
# ## 13.2 · Predict: one entry's share of a reduction (2 points)
#
# ```python
# x = torch.ones(10, 5, requires_grad=True)   # 10 rows, 5 columns
# ```
#
# Three losses, each with its own fresh `x` and its own `backward()`:
#
# ```python
# loss_a = x.mean()
# loss_b = x.sum(dim=0).mean()
# loss_c = x.sum(dim=1, keepdim=True).mean()
# ```
#
# After each backward, what is `x.grad[0, 0]`? (All entries of `x.grad` are equal here.)

# %% question="13.2" role="answer"
# Answer 13.2: three numbers.
### BEGIN SOLUTION
share_a = 0.02
share_b = 0.2
share_c = 0.1
### END SOLUTION

# %% question="13.2" role="check" points=2
def _share(loss_of):
    tx = torch.ones(10, 5, requires_grad=True)
    loss_of(tx).backward()
    return tx.grad[0, 0]


with question("13.2", points=2, answers=("share_a", "share_b", "share_c")) as q:
    q.close("share_a", share_a, _share(lambda t: t.mean()), mistakes=[
        (0.1, "x.mean() averages over all 10 * 5 = 50 entries, not over the 10 rows"),
        (0.2, "x.mean() averages over all 10 * 5 = 50 entries, not over the 5 columns"),
        (1.0, "mean divides by the number of entries: each gets 1/n")])
    q.close("share_b", share_b, _share(lambda t: t.sum(dim=0).mean()), mistakes=[
        (0.1, "x.sum(dim=0) sums over the rows (dim 0) and leaves 5 numbers, one per "
              "column: the mean then divides by 5"),
        (0.02, "the sum gives each entry a gradient of 1: only the mean over the 5 column "
               "sums divides")])
    q.close("share_c", share_c, _share(lambda t: t.sum(dim=1, keepdim=True).mean()),
            mistakes=[
        (0.2, "x.sum(dim=1, keepdim=True) sums each row and has shape (10, 1): the mean "
              "divides by 10, not 5"),
        (0.02, "the sum gives each entry a gradient of 1: only the mean over the 10 row "
               "sums divides")])

# %% [markdown]
# ## 13.3 · Debug: a loss that broadcasts into a matrix (3 points)
#
# This squared-error loss is used with a model whose predictions have shape `(n, 1)`, while
# the targets have shape `(n,)`:
#
# ```python
# def mse(pred, target):
#     return ((pred - target) ** 2).mean()
# ```
#
# It runs and returns a number, but the number is wrong, and so are the gradients. Copy the
# function into the answer cell and fix it so that it gives the mean squared error of
# `pred[i]` against `target[i]`, whether `pred` has shape `(n, 1)` or `(n,)`; the targets keep
# shape `(n,)`. The result must stay connected to the graph (gradients reach `pred`).

# %% question="13.3" role="answer"
# Answer 13.3
def mse(pred, target):
    ### BEGIN SOLUTION
    return ((pred.reshape(target.shape) - target) ** 2).mean()
    ### END SOLUTION


# %% question="13.3" role="check" points=3
def _mse_probe(pred_values, target_values):
    """mse(pred, target), whether it requires grad, and pred.grad after its backward."""
    pred = torch.tensor(pred_values, requires_grad=True)
    loss = mse(pred, torch.tensor(target_values))
    seen = {"loss": loss, "requires_grad": getattr(loss, "requires_grad", False) is True,
            "shape": list(getattr(loss, "shape", [-1]))}
    if seen["requires_grad"] and seen["shape"] == []:
        loss.backward()
        seen["grad"] = pred.grad
    return seen


def _mse_reference(pred_values, target_values, broadcast=False):
    """torch's mse_loss on equal shapes (or the broadcast bug), and pred.grad."""
    pred = torch.tensor(pred_values, requires_grad=True)
    target = torch.tensor(target_values)
    if broadcast:
        loss = ((pred - target) ** 2).mean()
    else:
        loss = torch.nn.functional.mse_loss(pred.reshape(target.shape), target)
    loss.backward()
    return loss.detach(), pred.grad


with question("13.3", points=3, answers=()) as q:
    target_values = [1.5, 2.0, 2.5, 5.0]
    for pred_values in ([[1.0], [2.0], [3.0], [4.0]], [1.0, 2.0, 3.0, 4.0]):
        shape = "(4, 1)" if isinstance(pred_values[0], list) else "(4,)"
        seen = q.observe(_mse_probe, pred_values, target_values)
        want_loss, want_grad = _mse_reference(pred_values, target_values)
        bug_loss, bug_grad = _mse_reference(pred_values, target_values, broadcast=True)
        q.need_tensor(f"mse(pred, target) for pred of shape {shape}", seen["loss"])
        q.true(seen["shape"] == [], f"mse(pred, target) for pred of shape {shape} has shape "
               f"{seen['shape']}: reduce it to one number with .mean()")
        q.close(f"mse(pred, target) for pred of shape {shape}", seen["loss"], want_loss,
                mistakes=[(bug_loss, "pred - target still broadcasts into a 4 x 4 matrix: "
                           "give pred the target's shape first (reshape, squeeze or view_as)"),
                          (4 * want_loss, "that is the sum of the squared errors: take the "
                           "mean")])
        q.true(seen["requires_grad"], "the loss is cut from the graph: don't detach pred or "
               "build a new tensor from its numbers; reshape it")
        q.close(f"pred.grad for pred of shape {shape}", seen["grad"], want_grad,
                mistakes=[(bug_grad.reshape(want_grad.shape), "each prediction still gets a "
                           "gradient from every target: the subtraction broadcasts")])

# %% [markdown]
# ## 13.4 · Implement: summing a gradient back to an input's shape (3 points)
#
# The engine runs this step after every node: a gradient `grad` arrives with the broadcast
# shape, and must be summed down to the `shape` of the input it belongs to. Write
# `unbroadcast(grad, shape)` **without** `sum_to_size`, `expand` or `broadcast_to`, and without
# autograd (a backward pass through a broadcast would do the sums for you), using `sum` with
# `dim` (and `keepdim`):
#
# * dimensions that broadcasting added in front of `shape` are summed away;
# * dimensions where `shape` has size 1 but `grad` does not are summed with `keepdim=True`.
#
# For example, a `(4, 3)` gradient and `shape = (3,)` give the 3 column sums; `shape = (4, 1)`
# gives the row sums as a `(4, 1)` tensor; `shape = (2, 1, 3)` from a `(5, 2, 4, 3)` gradient
# sums dimension 0 away and dimension 2 (of the gradient) with `keepdim`. `shape` is a tuple and
# always one that could broadcast to `grad.shape`.

# %% question="13.4" role="answer"
# Answer 13.4
def unbroadcast(grad, shape):
    ### BEGIN SOLUTION
    lead = grad.dim() - len(shape)
    for _ in range(lead):
        grad = grad.sum(dim=0)
    for d, size in enumerate(shape):
        if size == 1 and grad.shape[d] != 1:
            grad = grad.sum(dim=d, keepdim=True)
    return grad
    ### END SOLUTION


# %% question="13.4" role="check" points=3
def _unbroadcast_probe(values, shape):
    """unbroadcast(grad, shape) for a float64 gradient with these values, and whether it called
    sum_to_size or expand (the exercise is to write them yourself). This report is the learner
    process's, so it costs the method's point; the grader's own reading of the answer cell
    (q.refuse) costs the whole question."""
    called = []

    def spy(name, fn):
        def call(*args, **kwargs):
            called.append(name)
            return fn(*args, **kwargs)
        return call

    grad = torch.tensor(values, dtype=torch.float64)
    saved = torch.Tensor.sum_to_size, torch.Tensor.expand
    torch.Tensor.sum_to_size = spy("sum_to_size", saved[0])
    torch.Tensor.expand = spy("expand", saved[1])
    try:
        return {"got": unbroadcast(grad, tuple(shape)), "called": called}
    finally:
        torch.Tensor.sum_to_size, torch.Tensor.expand = saved


def _unbroadcast_cases():
    """(gradient, target shape) pairs: leading dims, size-1 dims, both, and no change."""
    cases = [((4, 3), (3,)), ((4, 3), (1, 3)), ((4, 3), (4, 1)), ((5, 2, 4, 3), (2, 1, 3)),
             ((2, 3), (2, 3)), ((3, 1, 2), (1, 2)), ((2, 3), (1, 1))]
    for grad_shape, shape in cases:
        numel = torch.Size(grad_shape).numel()
        grad = (torch.arange(float(numel), dtype=torch.float64).reshape(grad_shape) % 7) - 2.5
        yield grad, shape


with question("13.4", points=3, answers=()) as q:
    q.refuse(("sum_to_size", "expand", "expand_as", "broadcast_to", "broadcast_tensors",
              "autograd", "backward", "minigrad"), "write the sums yourself, with "
             "sum(dim=..., keepdim=...)")
    for grad, shape in _unbroadcast_cases():
        name = f"unbroadcast(grad of shape {tuple(grad.shape)}, {shape})"
        try:
            seen = q.observe(_unbroadcast_probe, grad.tolist(), list(shape))
        except NotImplementedError:
            raise  # a stub (NotImplementedError is a RuntimeError)
        except RuntimeError as error:
            q.fail(f"{name} raised: {str(error)[:90]}")
        # whether unbroadcast called sum_to_size or expand is reported by the learner's
        # process: trusted, 1 point (the values earn the other 2)
        called = " and ".join(sorted(set(seen["called"])))
        q.method(not called, f"{name} called {called}: write the sums yourself, with "
                 "sum(dim=..., keepdim=...), without sum_to_size or expand")
        got = seen["got"]
        q.need_tensor(name, got)
        q.true(tuple(got.shape) == shape, f"{name} has shape {tuple(got.shape)}, expected "
               f"{shape}: sum the added leading dims away, and the size-1 dims with "
               "keepdim=True")
        q.close(name, got, grad.sum_to_size(shape), tensor=True, hints={
            "other": "each entry must be the sum of the gradient over every position that "
                     "was broadcast from it"})

# %% [markdown]
# ## Reflection (not scored)
#
# torch's loss functions warn when the target's shape differs from the input's, but go on and
# broadcast anyway. Why not raise an error instead? And what would you lose if broadcasting
# were never allowed in arithmetic at all?
#
# ### BEGIN SOLUTION
# Some programs broadcast a loss on purpose (one prediction against a batch of targets), and an
# error would break them; a warning flags the common mistake without forbidding the rare
# intended use. Without broadcasting every bias, normalisation or scaling would need an
# explicit `expand` (or a copy with `repeat`), which is longer to write and easy to get wrong
# in other ways; the gradient rule (sum over the broadcast dims) would be the same.
# ### END SOLUTION
#
# <details><summary>One possible answer</summary>
#
# Broadcasting in a loss is occasionally intended, so torch only warns. Forbidding
# broadcasting would make every bias and every per-row or per-column operation an explicit
# `expand`; the gradients would not change, only the code would get longer.
# </details>
