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
# # 08 · Slicing pitfalls
#
# A slice such as `s[1:3]` or `s[0]` is not a copy: it is a *view*, a second tensor that looks
# into the same memory. Writing into a slice, `s[1] = ...`, is therefore an in-place operation on
# `s`, with everything lesson 07 said about in-place operations: version counters, saved
# tensors, leaves. This lesson walks through the three problems that come with it, and one
# performance trap.
#
# **Goals.** After this lesson you can
#
# 1. say which indexing gives a view (sharing memory and version counter) and which gives a copy;
# 2. read `grad_fn=<CopySlices>` and explain what the node does in backward;
# 3. fix the version error that `s[1] = s[0] * x` causes, with `clone()`;
# 4. set part of a leaf that requires grad, without the error;
# 5. explain, with a measurement on both engines, why building a tensor with [`torch.cat`](https://docs.pytorch.org/docs/stable/generated/torch.cat.html) has a
#    much faster backward than filling it slice by slice.
#
# **Time:** about 25 minutes. Lesson 07 (in-place operations, `_version`) comes first.

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
# ## 1. Views share memory
#
# Basic indexing (an integer, a slice `a:b`, `...`, `None`) returns a view. A view knows the
# tensor it looks into, its [`_base`](https://docs.pytorch.org/docs/stable/tensor_view.html), and shares its version counter. Writing through either one
# changes both. Indexing with a list or a tensor of indices (*advanced* indexing) copies instead.

# %%
# %%both s v c
s = torch.zeros(5)
v = s[1:4]                   # a view of s
print("v._base is s:", v._base is s)
v.fill_(7.0)                 # write through the view ...
print("s =", s)              # ... and s has changed
s[2] = 1.0                   # write through s ...
print("v =", v)              # ... and the view sees it
print("versions:", s._version, v._version)
c = s[[0, 2]]                # advanced indexing: a copy
print("c._base is None:", c._base is None)
c.fill_(-1.0)
print("s =", s, "(unchanged by c)")

# %% [markdown]
# ## 2. Writing into a slice records `CopySlices`
#
# `s[1] = value` is, in effect, `s[1].copy_(value)`: an in-place copy into a view of `s`. When
# the value carries a history, autograd has to record that one region of `s` now comes from
# somewhere else. It does so on the *base* tensor `s`, with a node called `CopySlices`.
#
# Below `s` starts as a plain tensor of zeros, and its middle element becomes `2x`:

# %%
# %%both x s z
x = torch.tensor(1.5, requires_grad=True)
s = torch.zeros(3)
s[1] = x * 2
print(s)
print(s.grad_fn.next_functions)
z = s.sum()
z.backward()
print("dz/dx =", x.grad)

# %% [markdown]
# `CopySlices` has two inputs: the old history of `s` (`None` here, since the zeros needed no
# gradient) and the node that made the new values (`MulBackward0`). In the drawing, minigrad's
# graph is on the left and torch's on the right:

# %%
viz.show(viz.side_by_side(compare.get("z"), compare.get("z", "torch"),
                          params={"x": compare.get("x")},
                          torch_params={"x": compare.get("x", "torch")}, show_values=True))

# %% [markdown]
# ## 3. The version error, and the `clone()` fix
#
# Now a classic bug. We want `s[1]` to become `s[0] * x`:

# %%
# %%both x s
x = torch.tensor(2.0, requires_grad=True)
s = torch.tensor([3.0, 1.0])
s[1] = s[0] * x
print(s)
z = s.sum()
z.backward()

# %% [markdown]
# What happened, step by step:
#
# 1. `s[0]` is a view of `s`. `s[0] * x` needs `s[0]` to compute the gradient of `x`, so
#    `MulBackward0` saves that view, at version 0.
# 2. `s[1] = ...` writes into `s`. The view `s[0]` shares `s`'s version counter, so it is now at
#    version 1, although its own number did not change.
# 3. Backward finds the saved tensor at version 1 and stops. (torch calls the view "output 0 of
#    AsStrided": a view whose base was changed in place gets its history rebuilt as a generic
#    [`as_strided`](https://docs.pytorch.org/docs/stable/generated/torch.as_strided.html) view. minigrad prints the same.)
#
# Autograd cannot know that the write missed `s[0]`: versions count changes to the whole
# memory, not to single elements. The fix is to give the multiplication its own copy, with
# `clone()`. `clone()` is recorded in the graph, so gradients still flow back through it when the
# original requires grad.
#
# With $s = [3, 1]$ the result is $s = [3, 3x]$, $z = 3 + 3x$ and $dz/dx = 3$:

# %%
# %%both x s z
x = torch.tensor(2.0, requires_grad=True)
s = torch.tensor([3.0, 1.0])
s[1] = s[0].clone() * x
z = s.sum()
z.backward()
print(s, "dz/dx =", x.grad)

# %%
viz.show(viz.make_dot(compare.get("z"), params={"x": compare.get("x")}, show_values=True))

# %% [markdown]
# `MulBackward0` now keeps the clone, a separate tensor (value 3) that nothing will change. The
# clone itself is not drawn: `s` does not require grad, so neither do `s[0]` and its clone, and
# the graph only goes back to `x`. Another way out is to not write into `s` at all and to build
# the result out of place, for example `s = torch.stack([s[0], s[0] * x])`.

# %% [markdown]
# ## 4. Assigning into a leaf's slice
#
# Writing into part of a leaf that requires grad is an in-place change of that leaf, so it is
# refused (the message says "a view of a leaf", because `w[0]` is a view):

# %%
# %%both w
w = torch.tensor([0.5, -1.0, 2.0], requires_grad=True)
w[0] = 1.0

# %% [markdown]
# Which fix is right depends on what you mean.
#
# **You want to change the weight itself** (initialise it, clip it, reset part of it). Do it
# under `torch.no_grad()`: nothing is recorded, `w` stays the same leaf, and later gradients are
# with respect to the new values.

# %%
# %%both w
with torch.no_grad():
    w[0] = 1.0
print(w, "is_leaf:", w.is_leaf)
data = torch.tensor([1.0, 2.0, 3.0])
(data * w).sum().backward()
print("w.grad =", w.grad)

# %% [markdown]
# **You want a new tensor that uses `w` except in one place** (masking, padding). Then the
# gradient must know that `w[0]` was thrown away. Clone first and write into the clone (a
# non-leaf, so it is allowed), or build the tensor with `torch.cat`. Both give `w.grad[0] = 0`:
# the overwritten entry has no influence on the result.

# %%
# %%both w w2
w = torch.tensor([0.5, -1.0, 2.0], requires_grad=True)
w2 = w.clone()
w2[0] = 1.0
print(w2)
(data * w2).sum().backward()
print("w.grad =", w.grad)

# %% [markdown]
# In the drawing, `CopySlices` has two inputs: the old history of `w2` (`CloneBackward0`, which
# leads to `w`) and the history of the value written into it (none: `1.0` is a constant).

# %%
viz.show(viz.make_dot(compare.get("w2"), params={"w": compare.get("w")}, show_values=True))

# %% [markdown]
# The `cat` route gives the same gradient, through a slice of `w` and `CatBackward0`:

# %%
# %%both w w3
w = torch.tensor([0.5, -1.0, 2.0], requires_grad=True)
w3 = torch.cat([torch.ones(1), w[1:]])
print(w3)
(data * w3).sum().backward()
print("w.grad =", w.grad)

# %% [markdown]
# ## 5. `torch.cat` versus slice assignment
#
# A common pattern fills a preallocated tensor in a loop, `y[i] = piece`. The alternative
# collects the pieces in a list and joins them once with `torch.cat` (or [`torch.stack`](https://docs.pytorch.org/docs/stable/generated/torch.stack.html)). Both
# give the same values and the same gradients:

# %%
# %%both y_cat y_slices
data = same_random(4, 3, 2)

pieces = [torch.tensor(data[i:i + 1], requires_grad=True) for i in range(4)]  # each (1, 3, 2)
y_cat = torch.cat(pieces, dim=0)
(y_cat * y_cat).sum().backward()

leaves = [torch.tensor(data[i], requires_grad=True) for i in range(4)]        # each (3, 2)
y_slices = torch.empty(4, 3, 2)
for i in range(4):
    y_slices[i] = leaves[i]
(y_slices * y_slices).sum().backward()

print("same values:   ", torch.equal(y_cat, y_slices))
print("same gradients:", all(torch.equal(p.grad[0], q.grad) for p, q in zip(pieces, leaves)))
print("grad_fn:", type(y_cat.grad_fn).__name__, "vs", type(y_slices.grad_fn).__name__)

# %% [markdown]
# The graphs are very different, though. `cat` makes one `CatBackward0` node with an edge to each
# piece. Slice assignment makes a *chain* of `CopySlices` nodes, one per assignment, each
# standing on the previous version of `y`. Move the slider to add pieces (each piece here is a
# single number, so the values and gradients fit on the drawing; the gradient of $y^2$ summed is
# $2y$):
#
# *(The next cell's code is folded away, since it is only plumbing: click the three dots to read it.)*

# %% jupyter={"source_hidden": true}
def draw_both(change=None):
    n = pieces_slider.value
    values = np.arange(1.0, n + 1.0, dtype=np.float32)

    xs = [minigrad.tensor(values[i:i + 1], requires_grad=True) for i in range(n)]
    y = minigrad.cat(xs)
    (y * y).sum().backward()
    left = viz.make_dot(y, params={f"x{i}": t for i, t in enumerate(xs)}, show_values=True)

    xs = [minigrad.tensor(values[i], requires_grad=True) for i in range(n)]
    y = minigrad.empty(n)
    for i in range(n):
        y[i] = xs[i]
    (y * y).sum().backward()
    right = viz.make_dot(y, params={f"x{i}": t for i, t in enumerate(xs)}, show_values=True)

    cells = "".join(f"<div style='margin-right:24px'><b>{title}</b><br>{viz.show(d).data}</div>"
                    for title, d in (("torch.cat", left), ("y[i] = x_i", right)))
    view.value = f"<div style='display:flex;align-items:flex-start'>{cells}</div>"


pieces_slider = widgets.IntSlider(value=3, min=1, max=6, description="pieces")
view = widgets.HTML()
pieces_slider.observe(draw_both, names="value")
draw_both()
widgets.VBox([pieces_slider, view])

# %% [markdown]
# ### Measuring it
#
# Now the real sizes: `n` pieces of 48×48 numbers, joined either way, then `y.sum().backward()`.
# We time the forward pass (building `y`) and the backward pass separately, on both engines.
# Each point is the best of five runs, which filters out most of the noise of a busy machine;
# the two ways take turns, so both meet the same load; and, as `timeit` does, Python's garbage
# collector is paused while we time. This cell runs each engine directly, not through `%%both`:
# timings differ on every run, so they only go into the plot (the title of its backward panel
# gives the ratio at the largest `n`), and nothing timed is printed.

# %%
import gc
import time


def build(T, n, how, data):
    """y (n, 48, 48) from n leaves, with torch.cat or with slice assignment; T is the engine."""
    if how == "cat":
        xs = [T.tensor(data[i:i + 1], requires_grad=True) for i in range(n)]
        return T.cat(xs, dim=0)
    xs = [T.tensor(data[i], requires_grad=True) for i in range(n)]
    y = T.empty(n, *data.shape[1:])
    for i in range(n):
        y[i] = xs[i]
    return y

# %% [markdown]
# The timing loop and the plot:
#
# *(The next cell's code is folded away, since it is only plumbing: click the three dots to read it.)*

# %% jupyter={"source_hidden": true}
def best_times(T, n, data, repeats=5):
    """{how: (forward, backward)}: the best of `repeats` runs, cat and slices taking turns."""
    best = {how: (float("inf"), float("inf")) for how in ("cat", "slices")}
    gc.disable()
    for _ in range(repeats):
        for how in ("cat", "slices"):
            start = time.perf_counter()
            z = build(T, n, how, data).sum()
            middle = time.perf_counter()
            z.backward()
            end = time.perf_counter()
            best[how] = (min(best[how][0], middle - start), min(best[how][1], end - middle))
    gc.enable()
    return best


sizes = [10, 40, 80, 120, 160, 200]
blocks = np.random.default_rng(0).standard_normal((max(sizes), 48, 48)).astype(np.float32)
threads = torch.get_num_threads()
torch.set_num_threads(1)          # one core for torch, as for minigrad
times = {}
for T in (torch, minigrad):
    runs = [best_times(T, n, blocks) for n in sizes]
    for how in ("cat", "slices"):
        times[(T.__name__, how)] = [r[how] for r in runs]
torch.set_num_threads(threads)

fig, axes = plt.subplots(1, 2, figsize=(11, 4), sharey=True)
ratios = ", ".join(f"{engine} {times[(engine, 'slices')][-1][1] / times[(engine, 'cat')][-1][1]:.0f}x"
                   for engine in ("torch", "minigrad"))
for ax, k, title in ((axes[0], 0, "forward (build y)"),
                     (axes[1], 1, f"backward (n = {sizes[-1]}: slices / cat = {ratios})")):
    for (engine, how), ts in times.items():
        ax.plot(sizes, [1000 * t[k] for t in ts], marker="o",
                linestyle="-" if how == "slices" else "--", label=f"{engine}, {how}")
    ax.set(title=title, xlabel="number of pieces n", ylabel="time (ms)")
    ax.legend()
plt.tight_layout()
plt.show()

# %% [markdown]
# Both panels share one time axis. On the right, the slice-assignment curves bend upward while
# the `cat` curves stay flat near zero: the backward of slice assignment grows like $n^2$. On
# the left, every forward pass is small: building `y` slice by slice is not the problem, its
# backward is. (Your numbers will differ from run to run, and on a busy machine a single point
# can jump; the shape of the curves will not change.)
#
# ### At the original sizes
#
# The experiment this lesson follows used 100 pieces of 256×256 numbers (each piece a leaf of
# shape `(1, 256, 256)` for `cat`, `(256, 256)` for slice assignment) and reported the slice
# version to be almost 10 times slower, because of its backward. Here is that exact size,
# backward only, again with the garbage collector paused: after one untimed run (torch's very
# first backward of this size is slow, as it sets itself up), the best of three runs for `cat`
# and one run for slice assignment. It is the slowest cell of
# the course (`y` holds 6.5 million numbers, so the `CopySlices` chain copies 655 million, and
# torch briefly needs almost 3 GB). The measured times go into a bar chart, with the ratio over
# each engine's pair of bars; they change from run to run, so nothing timed is printed. (Ten
# times *more* pieces would cost a hundred times more: the copies grow like $n^2$.)

# %%
def backward_time(T, n, how, data):
    """Seconds for y.sum().backward(), with y built from n pieces with cat or slices."""
    z = build(T, n, how, data).sum()
    gc.disable()
    start = time.perf_counter()
    z.backward()
    elapsed = time.perf_counter() - start
    gc.enable()
    return elapsed


seed_blocks = np.random.default_rng(1).standard_normal((100, 256, 256)).astype(np.float32)
seed_times = {}
for T in (torch, minigrad):
    backward_time(T, 100, "cat", seed_blocks)          # a first run, untimed: warms up
    cat_b = min(backward_time(T, 100, "cat", seed_blocks) for _ in range(3))
    seed_times[T.__name__] = (cat_b, backward_time(T, 100, "slices", seed_blocks))
del seed_blocks

fig, ax = plt.subplots(figsize=(7, 3.5))
for k, (engine, (cat_b, slices_b)) in enumerate(seed_times.items()):
    ax.bar([3 * k, 3 * k + 1], [1000 * cat_b, 1000 * slices_b], color=["C0", "C1"])
    ax.text(3 * k + 1, 1000 * slices_b, f"{slices_b / cat_b:.0f}x", ha="center", va="bottom")
ax.set_xticks([0, 1, 3, 4], ["torch\ncat", "torch\nslices", "minigrad\ncat", "minigrad\nslices"])
ax.set(ylabel="backward time (ms)", title="100 pieces of 256x256: backward of y.sum()")
plt.tight_layout()
plt.show()

# %% [markdown]
# ### Why: look inside `CopySlices`
#
# Here is minigrad's `CopySlices` (in `minigrad/autograd/special_nodes.py`). Its `backward`
# receives the gradient for the *whole* base tensor, and the first thing it does is clone it:

# %%
import inspect
from minigrad._ops import join
from minigrad.autograd import special_nodes

print(inspect.getsource(special_nodes.CopySlices.backward))

# %% [markdown]
# It has to: the gradient that flows on to the *previous* version of `y` is the incoming
# gradient with the assigned region replaced (by zeros here, since the old values were
# overwritten), and the incoming gradient may not be changed in place. So every one of the `n`
# nodes in the chain copies an `(n, 48, 48)` gradient, $n \cdot n \cdot 2304$ numbers in all.
# torch's C++ `CopySlices` does the same copy. `CatBackward0` only cuts the gradient into
# pieces, which are views and cost almost nothing:

# %%
print(inspect.getsource(join.CatBackward0.backward))

# %% [markdown]
# The count of numbers copied by the `CopySlices` chain, against the size of `y` itself:

# %%
for n in sizes:
    print(f"n = {n:3d}: y holds {n * 2304:>7,} numbers; the CopySlices chain copies "
          f"{n * n * 2304:>10,} in backward ({n} times y)")

# %% [markdown]
# **Rule of thumb:** in code that autograd records, collect pieces in a list and join them with
# `torch.cat` or `torch.stack`; keep `y[i] = ...` loops for code under `torch.no_grad()`.

# %% [markdown]
# ## Where minigrad differs from torch
#
# * The values, gradients, graphs and error messages in this lesson are the same on both
#   engines (the checked cells prove it); types print as `minigrad.FloatTensor` in minigrad's own
#   messages.
# * minigrad has no `Tensor._is_view()`; test `t._base is not None` instead, which works on both.
# * minigrad is much slower than torch per operation (Python and NumPy instead of C++), so its
#   curves sit higher; the quadratic growth of the slice-assignment backward is the same, since
#   both clone the whole gradient at every `CopySlices` node.

# %% [markdown]
# ## Self-check
#
# 1. `a = torch.arange(6.0); b = a[2:4]; b += 10`. What is `a`? What about `c = a[[2, 3]];
#    c += 10`?
# 2. Why does `s[1] = s[0] * x` break backward even though `s[0]` itself never changes?
# 3. You want to zero the first row of a weight matrix `W` (a leaf) before training. What do
#    you write?
# 4. A loop runs `y[i] = f(x_i)` for 1000 pieces and then calls `backward()`. Roughly how many
#    copies of `y`'s gradient does backward make, and how do you avoid them?
#
# <details><summary>Answers</summary>
#
# 1. `b` is a view, so `a` becomes `[0, 1, 12, 13, 4, 5]`. `c` is a copy (advanced indexing), so
#    `c += 10` leaves `a` alone.
# 2. `MulBackward0` saved the view `s[0]`, and the view shares `s`'s version counter. Writing
#    `s[1]` bumps that counter, and backward sees the saved tensor at a newer version. Use
#    `s[0].clone() * x`.
# 3. `with torch.no_grad(): W[0] = 0.` (or `W[0].zero_()` inside the same block).
# 4. About 1000: one per `CopySlices` node, each the size of all of `y`. Collect the pieces in a
#    list and call `torch.cat` (or `torch.stack`) once.
#
# </details>
#
# **Exercises:** `exercises/08_slicing_pitfalls.ipynb`. Next: lesson 09, custom Functions.
