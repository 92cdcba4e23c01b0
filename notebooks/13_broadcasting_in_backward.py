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
# # 13 · Broadcasting and reductions in backward
#
# Broadcasting lets a tensor of shape `(3,)` stand in for a `(4, 3)` one without anyone
# writing a loop. Forward, it copies nothing. Backward, it has a price that is easy to miss:
# every place the small tensor was used sends a gradient back, and those gradients are
# **added up**. Reductions (`sum`, `mean`) do the opposite job: forward they add things up,
# backward they spread one gradient out again. This lesson is about those two directions and
# the shape bugs that live between them.
#
# **Goals.** By the end you can:
#
# * predict the gradient of a broadcast input (a bias `b` added to every row gets the column
#   sums), and compute it with `Tensor.sum_to_size`;
# * tell `expand` (a view, no copy) from `repeat` (a copy), and read their backward nodes;
# * say what the $1/n$ of `mean` does to every gradient (and to your learning rate), and use
#   reductions along a `dim` with `keepdim`;
# * recognise three shape bugs: `(n,)` against `(n, 1)` in a loss, `backward()` on a
#   non-scalar, and an in-place broadcast whose result would need to grow;
# * read the few lines of minigrad that sum a broadcast gradient back to its input's shape.
#
# **Time:** about 30 minutes. You should know lesson 03 (`grad_fn`, leaves, `backward()`) and
# lesson 08 (views).

# %%
# Run this cell first: it loads both engines and the course tools.
# %load_ext coursekit.compare
import numpy as np
import torch
import minigrad
import ipywidgets as widgets
import matplotlib.pyplot as plt
from coursekit import compare, viz
compare.session(reset=True)
compare.seed_all(0)

# %% [markdown]
# ## 1. A bias added to every row
#
# A linear layer computes `x @ W + b`: a batch `x` of 4 rows, and one bias `b` of shape `(3,)`
# that is added to **every** row. Torch's
# [broadcasting rules](https://docs.pytorch.org/docs/stable/notes/broadcasting.html) line the
# shapes up from the right, and treat the missing leading dimension of `b` as if `b` were
# repeated 4 times. Here we leave `W` out and look at `y = x + b` alone.
#
# To see *which* gradient comes back, we call `y.backward(upstream)` with a gradient of our
# own choice instead of a loss (the `gradient` argument of
# [`Tensor.backward`](https://docs.pytorch.org/docs/stable/generated/torch.Tensor.backward.html)):
# `upstream[i, j]` plays the part of $\partial L/\partial y_{ij}$.

# %%
# %%both x b y upstream
x = torch.tensor([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0], [7.0, 8.0, 9.0], [10.0, 11.0, 12.0]])
b = torch.tensor([0.1, 0.2, 0.3], requires_grad=True)
y = x + b
print("shapes:", x.shape, b.shape, y.shape)
upstream = torch.tensor([[1.0, 0.0, 2.0], [1.0, 0.0, 2.0], [1.0, 1.0, 0.0], [1.0, 1.0, 0.0]])
y.backward(upstream)
print("b.grad          =", b.grad)
print("column sums     =", upstream.sum(dim=0))

# %% [markdown]
# `b[0]` was used in all four entries `y[0, 0], y[1, 0], y[2, 0], y[3, 0]`, each with
# derivative 1. By the chain rule, the contributions of every use of a variable add up, so
# $\partial L/\partial b_0 = \sum_i \partial L/\partial y_{i0}$: the sum of column 0 of
# `upstream`. That is the whole rule:
#
# > **The gradient of a broadcast input is the incoming gradient summed over the dimensions
# > it was broadcast along.** The result always has the input's own shape.
#
# The graph shows something surprising: there is no node for the broadcast. `AddBackward0`
# hands a `(4, 3)` gradient to `b`'s `AccumulateGrad`, and `b.grad` still arrives with shape
# `(3,)`. The summing happens in the engine, between the two nodes (section 6 shows where).

# %%
viz.show(viz.make_dot(compare.get("y"), params={"b": compare.get("b"), "y": compare.get("y")},
                      show_values=True))

# %% [markdown]
# ### `sum_to_size`: the rule as one method
#
# [`Tensor.sum_to_size`](https://docs.pytorch.org/docs/stable/generated/torch.Tensor.sum_to_size.html)
# sums a tensor down to a shape it could have been broadcast from. It is exactly the reduction
# backward applies: to `(3,)` or `(1, 3)` it sums the rows away (the column sums), to `(4, 1)`
# it sums each row. So a per-row offset `c` of shape `(4, 1)` gets the row sums:

# %%
# %%both c upstream
print(upstream.sum_to_size(3))
print(upstream.sum_to_size(1, 3))
print(upstream.sum_to_size(4, 1))
c = torch.zeros(4, 1, requires_grad=True)
(x + c).backward(upstream)
print("c.grad =", c.grad)

# %% [markdown]
# ### Try it: more rows, bigger gradient
#
# The widget builds a batch with `n` rows (move the slider), adds the bias
# `b = [0.1, -0.2, 0.3]`, squares, and reduces the `(n, 3)` result to one number with `sum` or
# with `mean` (the drop-down). It runs minigrad, and shows the `(n, 3)` gradient arriving at
# `y = x + b` row by row, `b.grad` (its column sums) under it, and the graph. With `sum`, each
# extra row adds one more row to the sum: the gradient grows with the batch. With `mean`,
# every row's share shrinks to $1/(3n)$ and `b.grad` stays the same size. Section 3 explains
# why that matters.

# %% jupyter={"source_hidden": true}
X_ALL = np.round(0.5 + 0.25 * (np.arange(24).reshape(8, 3) % 5), 2)  # up to 8 rows of data


def grad_table(rows, total):
    """An HTML table: the gradient arriving at y = x + b, row by row, and its column sums."""
    def tds(values, bold=False):
        return "".join(f"<td>{'<b>' * bold}{v:.3f}{'</b>' * bold}</td>" for v in values)

    cells = "".join(f"<tr><td>row {i}</td>{tds(r)}</tr>" for i, r in enumerate(rows))
    last = tds(total, bold=True)
    return (f"<table style='font-family:monospace'>{cells}"
            f"<tr style='border-top:1px solid'><td><b>b.grad</b></td>{last}</tr></table>")


def draw_bias(change=None):
    """Rebuild loss = reduce((x + b) ** 2) for the first n rows and redraw its graph."""
    n = int(rows_slider.value)
    xs = minigrad.tensor(X_ALL[:n].tolist())
    bias = minigrad.tensor([0.1, -0.2, 0.3], requires_grad=True)
    y = xs + bias
    y.retain_grad()
    loss = (y ** 2).sum() if reduction.value == "sum" else (y ** 2).mean()
    loss.backward()
    dot = viz.make_dot(loss, params={"b": bias, "y": y, "loss": loss}, show_values=True)
    view.value = (f"<p>x has {n} row(s); loss = {reduction.value} of (x + b)². The gradient "
                  "arriving at y = x + b has one row per row of x; b.grad is its column sum:</p>"
                  + grad_table(y.grad.tolist(), bias.grad.tolist())
                  + dot.pipe(format="svg").decode())


rows_slider = widgets.FloatSlider(value=4, min=1, max=8, step=1, description="rows n",
                                  readout_format=".0f")
reduction = widgets.Dropdown(options=["sum", "mean"], value="sum", description="reduce")
view = widgets.HTML()
rows_slider.observe(draw_bias, names="value")
reduction.observe(draw_bias, names="value")
draw_bias()
widgets.VBox([widgets.HBox([rows_slider, reduction]), view])

# %% [markdown]
# ## 2. Broadcasting on purpose: `expand` against `repeat`
#
# You can also broadcast by hand. Two methods give a `(4, 3)` tensor whose rows are all `b`:
#
# * [`Tensor.expand`](https://docs.pytorch.org/docs/stable/generated/torch.Tensor.expand.html)
#   returns a **view**: no new memory; the stride of the new dimension is 0, so all four
#   "rows" read the same three numbers. Its node is `ExpandBackward0`.
# * [`Tensor.repeat`](https://docs.pytorch.org/docs/stable/generated/torch.Tensor.repeat.html)
#   makes a **copy**: four real rows in new memory. Its node is `RepeatBackward0`.
#
# Two methods let us look at the memory:
# [`stride()`](https://docs.pytorch.org/docs/stable/generated/torch.Tensor.stride.html) says
# how many elements to jump to reach the next entry along each dimension, and
# [`untyped_storage()`](https://docs.pytorch.org/docs/stable/generated/torch.Tensor.untyped_storage.html)
# is the block of memory the tensor reads (its `nbytes()` and where it starts, `data_ptr()`).

# %%
# %%both b e r
b = torch.tensor([0.1, 0.2, 0.3], requires_grad=True)
e = b.expand(4, 3)
r = b.repeat(4, 1)
print("same values:", torch.equal(e, r))
print("nodes:", e.grad_fn.name(), r.grad_fn.name())
print("strides:", e.stride(), r.stride())
print("bytes of memory behind them:", e.untyped_storage().nbytes(), r.untyped_storage().nbytes())
print("e uses b's memory:", e.untyped_storage().data_ptr() == b.untyped_storage().data_ptr())
print("r uses b's memory:", r.untyped_storage().data_ptr() == b.untyped_storage().data_ptr())

# %% [markdown]
# Twelve bytes (three float32 numbers) behind `e`, forty-eight behind `r`. For a large batch
# that difference is the reason to prefer `expand` (or plain broadcasting, which does the same
# without you asking).
#
# Backward, the two agree: each entry of `b` was used four times, so both sum the incoming
# gradient over the four rows. Here both are used in one loss, so `b.grad` is twice the column
# sums:

# %%
# %%both b e r loss
loss = (e * upstream).sum() + (r * upstream).sum()
loss.backward()
print("b.grad         =", b.grad)
print("2 * col sums   =", 2 * upstream.sum(dim=0))

# %%
viz.show(viz.make_dot(compare.get("loss"), params={"b": compare.get("b"), "e": compare.get("e"),
                                                   "r": compare.get("r")}, show_values=True))

# %% [markdown]
# `repeat` can also tile along an existing dimension: `b.repeat(2)` is
# `[b0, b1, b2, b0, b1, b2]`, and `RepeatBackward0` adds up the gradients of the two tiles:

# %%
# %%both b
b = torch.tensor([0.1, 0.2, 0.3], requires_grad=True)
b.repeat(2).backward(torch.tensor([1.0, 2.0, 3.0, 10.0, 20.0, 30.0]))
print(b.grad)

# %% [markdown]
# Because an expanded tensor shares one memory location between many entries, writing into it
# is refused: which of the four "rows" would the write be for?

# %%
# %%both
plain = torch.tensor([0.1, 0.2, 0.3])
plain.expand(4, 3).add_(1.0)

# %% [markdown]
# ## 3. `mean` against `sum`: the $1/n$ in every gradient
#
# A loss reduces many numbers to one. `sum` gives every entry a gradient of 1; `mean` divides
# by the number of entries $n$, so every entry gets $1/n$. The nodes are `SumBackward0` and
# `MeanBackward0` (see [`torch.sum`](https://docs.pytorch.org/docs/stable/generated/torch.sum.html)
# and [`torch.mean`](https://docs.pytorch.org/docs/stable/generated/torch.mean.html)):

# %%
# %%both v w
v = torch.tensor([1.0, 2.0, 3.0, 4.0], requires_grad=True)
w = torch.tensor([1.0, 2.0, 3.0, 4.0], requires_grad=True)
v.sum().backward()
w.mean().backward()
print(v.sum().grad_fn.name(), v.grad)
print(w.mean().grad_fn.name(), w.grad)

# %% [markdown]
# Why care? The learning rate multiplies the gradient. Fit $y = 2x$ with one weight, starting
# from $w = 0$, using a squared-error loss over a batch of $n$ points, and take one SGD step
# with learning rate 0.1. With `mean`, the gradient (and the step) does not depend on $n$ here. With
# `sum`, it is $n$ times larger: a learning rate that works for 4 points throws the weight far
# past 2 for 400 points.

# %%
# %%both
for n in (4, 40, 400):
    xs = torch.tensor([0.5, 1.0]).repeat(n // 2)    # n points: 0.5, 1.0, 0.5, 1.0, ...
    ys = 2 * xs
    for reduce in ("mean", "sum"):
        w = torch.tensor(0.0, requires_grad=True)
        squares = (w * xs - ys) ** 2
        loss = squares.mean() if reduce == "mean" else squares.sum()
        loss.backward()
        print(f"n = {n:3d}  {reduce:4s}: w.grad = {w.grad.item():9.3f}   "
              f"w after one step = {(w - 0.1 * w.grad).item():8.3f}")

# %% [markdown]
# Torch's losses average by default (`reduction="mean"` in
# [`nn.MSELoss`](https://docs.pytorch.org/docs/stable/generated/torch.nn.MSELoss.html)), and
# that is what you want in most training loops: the learning rate you found keeps working when
# you change the batch size. If you switch a loss from `mean` to `sum` and train with plain
# SGD, divide the learning rate by the number of elements the mean averaged over to take the
# same steps: that is $n$ here, but $64 \times 10 = 640$ for an `MSELoss` on a `(64, 10)`
# output, because `mean` divides by every element, not by the batch size.
#
# That advice is for SGD (and SGD with momentum) only. Adam divides each gradient by a running
# estimate of its own size, so a constant factor in the loss cancels out (up to the tiny `eps`
# in the denominator): `mean` and `sum` give Adam the same steps, and dividing its learning
# rate would make every step $n$ times too small. Two runs of Adam, on the mean and on the sum
# of the same squared errors over a `(64, 10)` batch:

# %%
# %%both w_mean w_sum
xs = torch.tensor(same_random(64, 10))
ys = 2 * xs
for reduce in ("mean", "sum"):
    w = torch.tensor(0.0, requires_grad=True)
    optimizer = torch.optim.Adam([w], lr=0.1)
    for step in range(5):
        squares = (w * xs - ys) ** 2
        loss = squares.mean() if reduce == "mean" else squares.sum()
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
    print(f"{reduce:4s}: w after 5 Adam steps = {w.item():.6f}")
    if reduce == "mean":
        w_mean = w.detach()
    else:
        w_sum = w.detach()

# %% [markdown]
#
# ## 4. Reducing along a dimension, and `keepdim`
#
# `x.sum(dim=1)` adds up each row. Its node is a different one, `SumBackward1`: it remembers
# the `dim`, whether you asked for `keepdim`, and the input's shape, because backward has to
# spread each row's gradient over that row again. That spreading is an `expand`: **a sum
# forward is an expand backward, and an expand forward is a sum backward.**

# %%
# %%both x s k
x = torch.tensor([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]], requires_grad=True)
s = x.sum(dim=1)
k = x.sum(dim=1, keepdim=True)
print("shapes:", s.shape, k.shape)
node = s.grad_fn
print(node.name(), "dim:", node._saved_dim, "keepdim:", node._saved_keepdim,
      "input shape:", node._saved_self_sym_sizes)
s.backward(torch.tensor([10.0, 20.0]))
print(x.grad)

# %% [markdown]
# `keepdim=True` keeps the summed dimension with size 1: `(2, 1)` instead of `(2,)`. That is
# what you want when the result goes back into a broadcast with `x`, for example to centre
# each row. Without it, the `(2,)` row means are lined up against the *columns* of `x`, and
# the shapes clash:

# %%
# %%both x
centred = x - x.mean(dim=1, keepdim=True)
print(centred)
x - x.mean(dim=1)

# %% [markdown]
# The error is the lucky case. With a **square** matrix the shapes fit, nothing is raised, and
# each *column* gets a row's mean subtracted. The numbers are simply wrong:

# %%
# %%both
sq = torch.tensor([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0], [7.0, 8.0, 9.0]])
print("with keepdim:   ", sq - sq.mean(dim=1, keepdim=True))
print("without keepdim:", sq - sq.mean(dim=1))

# %% [markdown]
# ## 5. Shape bugs learners hit
#
# ### `(n, 1)` against `(n,)`: a loss that is silently a matrix
#
# A model with one output unit returns predictions of shape `(n, 1)`; the targets are often a
# plain vector of shape `(n,)`. Subtract them and broadcasting makes an `(n, n)` matrix: every
# prediction against *every* target. The mean of that matrix is a number, so `backward()`
# runs, and nothing looks wrong, but the value and the gradients are those of another loss.
# The cell compares it with the right loss, where
# [`pred.squeeze(1)`](https://docs.pytorch.org/docs/stable/generated/torch.squeeze.html)
# first drops the size-1 dimension.

# %%
# %%both pred target
pred = torch.tensor([[1.0], [2.0], [3.0], [4.0]], requires_grad=True)
target = torch.tensor([1.5, 2.0, 2.5, 5.0])
diff = pred - target
print("diff has shape", diff.shape)
wrong = (diff ** 2).mean()
wrong.backward()
print("wrong loss:", wrong.item(), " pred.grad:", pred.grad.flatten())
pred.grad = None
right = ((pred.squeeze(1) - target) ** 2).mean()
right.backward()
print("right loss:", right.item(), " pred.grad:", pred.grad.flatten())

# %% [markdown]
# Torch's `mse_loss` notices the mismatch and warns (but still broadcasts, and still gives
# the wrong number). [`nn.functional.mse_loss`](https://docs.pytorch.org/docs/stable/generated/torch.nn.functional.mse_loss.html)
# is the function behind `nn.MSELoss`:

# %%
# %%both pred target
loss = torch.nn.functional.mse_loss(pred, target)
print(loss)

# %% [markdown]
# Read that warning as an error. The fix is to give both the same shape, with
# `pred.squeeze(1)` or
# [`target.unsqueeze(1)`](https://docs.pytorch.org/docs/stable/generated/torch.unsqueeze.html)
# (or `pred.view_as(target)`).
#
# ### `backward()` on something that is not a number
#
# Without an argument, `backward()` starts from the gradient 1, which only makes sense for a
# single number. On a tensor with several entries torch refuses, rather than guess:

# %%
# %%both x
x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
y = x * 2
y.backward()

# %% [markdown]
# Usually the fix is the reduction you forgot (`y.sum().backward()` or `y.mean()`); if you
# really want to start from given gradients, pass them: `y.backward(torch.ones_like(y))` is
# the same as `y.sum().backward()`.
#
# ### An in-place broadcast that would need to grow
#
# `a + b` may have a bigger shape than either input. An in-place `a += b` must write the
# result into `a`'s memory, which cannot grow. So `x += b` with `x` of shape `(4, 3)` and `b`
# of shape `(3,)` is fine, and the other way round is an error:

# %%
# %%both total
total = torch.zeros(3)
batch = torch.ones(4, 3)
batch += total              # fine: the result has batch's shape
total += batch              # the result would be (4, 3): it does not fit in total

# %% [markdown]
# Decide what you meant: `total = total + batch` (a new `(4, 3)` tensor), or, for a running
# total, `total += batch.sum(dim=0)`.
#
# ## 6. Look inside: where minigrad sums a broadcast gradient
#
# `AddBackward0` itself knows nothing about shapes: it returns the incoming gradient as it is.

# %%
import inspect
from minigrad._ops import pointwise
print(inspect.getsource(pointwise.AddBackward0))

# %% [markdown]
# The engine fixes it up. After running a node, it passes the node's gradients through
# `validate_outputs`. Each node remembers the shape and dtype of each of its inputs (its
# `_input_meta`); when a gradient has a different shape, and the input's shape could have been
# broadcast to it, the gradient is summed down with `sum_to_size`.

# %%
from minigrad.autograd import graph
print(inspect.getsource(graph.validate_outputs))

# %% [markdown]
# `sum_to_size` works out which dimensions were added in front (summed away) and which were
# stretched from size 1 (summed with `keepdim=True`), and sums them in one call. The same
# method is the whole backward of `expand`:

# %%
from minigrad._ops import shape
print(inspect.getsource(shape.sum_to_size))
print(inspect.getsource(shape.ExpandBackward0))

# %% [markdown]
# ## Where minigrad differs from torch
#
# Nowhere in this lesson, apart from spelling: minigrad prints `minigrad.Size` where torch
# prints `torch.Size` (also inside the `mse_loss` warning), which the `%%both` check ignores.
# Its memory is a NumPy array: an expanded tensor is a NumPy view with stride 0, and
# `untyped_storage()` reports the memory of the array it looks into, like torch's storage.
#
# ## Self-check
#
# 1. `w` has shape `(1, 3)` and is added to `x` of shape `(5, 3)`; the loss is `(x + w).sum()`.
#    What are the shape and the value of `w.grad`?
# 2. Why does `b.expand(1000, 3)` cost no memory, while `b.repeat(1000, 1)` does? Do their
#    gradients differ?
# 3. You change a loss from `.mean()` over a batch of 64 to `.sum()`. What happens to the
#    gradients, and what would you do to the learning rate?
# 4. `pred` has shape `(8, 1)`, `target` shape `(8,)`. What shape does `pred - target` have,
#    and how do you fix it?
#
# <details><summary>Answers</summary>
#
# 1. Shape `(1, 3)` (always the input's shape), and every entry is 5: each entry of `w` was
#    used in 5 rows, each with gradient 1, and those add up.
# 2. `expand` returns a view with stride 0 along the new dimension, so all rows read the same
#    three numbers; `repeat` copies them into new memory. Their gradients are the same: the
#    incoming gradient summed over the copies.
# 3. Every gradient becomes 64 times larger (no more $1/n$; with an output of shape `(64, 10)`
#    it would be 640 times, the number of elements averaged). With SGD, divide the learning rate
#    by that factor to take the same steps. With Adam, change nothing: it rescales each gradient
#    by its own running size, so the factor cancels.
# 4. `(8, 8)`: every prediction against every target. Make the shapes equal, for example
#    `pred.squeeze(1) - target`.
#
# </details>
#
# **Exercises:** `exercises/13_broadcasting_in_backward.ipynb`. Next: lesson 14, memory and debugging.
