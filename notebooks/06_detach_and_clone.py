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
# # 06 · `detach()` and `clone()`
#
# Two methods that look alike and do opposite things. [`detach()`](https://docs.pytorch.org/docs/stable/generated/torch.Tensor.detach.html) gives you the **same
# memory** with the graph cut off; [`clone()`](https://docs.pytorch.org/docs/stable/generated/torch.Tensor.clone.html) gives you **new memory** and stays in the graph.
# Mixing them up gives gradients that are silently wrong, or arrays that change behind your
# back. This lesson takes them apart.
#
# **Goals.** By the end you can:
#
# * say what `detach()` shares with the original tensor (memory, version counter) and what it
#   drops (the graph);
# * predict `x.grad` and `y.grad` for five ways of making a tensor `y` from `x` (A–E);
# * choose between `clone()`, `detach().clone()` and a clone under `no_grad`;
# * turn any tensor into a NumPy array safely with `detach().cpu().clone().numpy()`;
# * compute by hand how detaching one branch changes a gradient.
#
# **Time:** about 30 minutes. You should know lessons 03–05.

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
# ## 1. `detach()` shares memory
#
# `y = x.detach()` is a new tensor object with no `grad_fn` and `requires_grad=False`: a leaf
# that autograd ignores. But it is **not a copy**. It looks at the same memory as `x`, so
# writing into `y` changes `x`:

# %%
# %%both x y
x = torch.tensor([1.0, 2.0], requires_grad=True)
y = x.detach()
print(x)
print(y, y.requires_grad, y.is_leaf)
y[0] = 5.0
print(x)
print("same memory:", x.data_ptr() == y.data_ptr())

# %% [markdown]
# Notice that torch let us change a leaf that requires grad, in place, without `no_grad`. The
# write went through `y`, which autograd does not watch. It does keep count, though: `x` and
# `y` share one **version counter**, and the write bumped it. That is what lets autograd
# catch a stale value in backward (you saw the error in lesson 05, section 6).

# %%
# %%both x y
print("versions:", x._version, y._version)

# %% [markdown]
# This makes `detach()` another way to reuse one leaf in a loop (lesson 05 did it with
# `no_grad`): keep a detached handle and fill it with new values.

# %%
# %%both x z
x = torch.zeros(2, requires_grad=True)
handle = x.detach()
for i in range(1, 3):
    handle.fill_(i)
    z = x.dot(x)
    z.backward()
    print(z.item(), x.grad)
    x.grad.zero_()

# %% [markdown]
# ## 2. Same value, five gradients: the A–E experiment
#
# Take a leaf $x = 3$, build some tensor $y$ whose value is also 3, and compute
#
# $$ z = x + y^2 = 3 + 9 = 12 .$$
#
# The forward pass always gives 12. The gradients depend on **how** `y` was made:
#
# | | `y = ...` | what `y` is |
# | --- | --- | --- |
# | A | `torch.tensor(3., requires_grad=True)` | a second, independent leaf |
# | B | `x` | the very same tensor as `x` |
# | C | `torch.tensor(3.)` | a constant |
# | D | `x.detach().clone()` | a constant copy of `x`'s value |
# | E | `x.clone()` | a copy that stays in the graph |
#
# Try to predict `x.grad` and `y.grad` for each before running the cell. (For E, `y` is not a
# leaf, so its `.grad` is not kept; we print "non-leaf" instead of reading it.)

# %%
# %%both
def make_y(way, x):
    if way == "A":
        return torch.tensor(3.0, requires_grad=True)
    if way == "B":
        return x
    if way == "C":
        return torch.tensor(3.0)
    if way == "D":
        return x.detach().clone()
    return x.clone()                      # E


print("way  z     x.grad  y.grad    y.requires_grad  y.grad_fn")
for way in "ABCDE":
    x = torch.tensor(3.0, requires_grad=True)
    y = make_y(way, x)
    z = x + y * y
    z.backward()
    y_grad = y.grad if y.is_leaf else "non-leaf"
    fn = None if y.grad_fn is None else type(y.grad_fn).__name__
    print(f"{way}    {z.item():<5} {x.grad.item():<7} {str(y_grad):<9} {y.requires_grad!s:<16} {fn}")

# %% [markdown]
# Reading the table:
#
# * **A**: two independent leaves. $\partial z/\partial x = 1$ and $\partial z/\partial y = 2y = 6$.
# * **B**: `y` *is* `x`, so $z = x + x^2$ and $\partial z/\partial x = 1 + 2x = 7$. The 6 from the
#   $y^2$ term flows into the same leaf and adds to the 1.
# * **C** and **D**: `y` is a constant. Only the first term depends on `x`: `x.grad` is 1,
#   and `y` has no gradient at all. D's value was *copied from* `x`, but autograd does not
#   care where a value came from, only whether the graph connects it.
# * **E**: `clone()` is recorded (`CloneBackward0`), so the 6 flows through the clone back
#   into `x`: again 7, as in B. `y` itself is a non-leaf, so its gradient is not kept.
#
# If you want E's intermediate gradient, you know the tool from lesson 04:

# %%
# %%both x y
x = torch.tensor(3.0, requires_grad=True)
y = x.clone()
y.retain_grad()
z = x + y * y
z.backward()
print(x.grad, y.grad)

# %% [markdown]
# ### Try it: the five graphs
#
# Pick a way and move `x`. The drawing (built with minigrad) shows where the gradient can flow.
# In C and D, `y` does not even appear: a constant is not part of the backward graph.
#
# *(The next cell's code is folded away, since it is only plumbing: click the three dots to read it.)*

# %% jupyter={"source_hidden": true}
import html


def draw_five_ways(change=None):
    way, x = way_menu.value, x_slider.value
    xt = minigrad.tensor(x, requires_grad=True)
    if way == "A":
        yt = minigrad.tensor(x, requires_grad=True)
    elif way == "B":
        yt = xt
    elif way == "C":
        yt = minigrad.tensor(x)
    elif way == "D":
        yt = xt.detach().clone()
    else:
        yt = xt.clone()
        yt.retain_grad()
    zt = xt + yt * yt
    zt.backward()
    names = {"z": zt, "x": xt} if yt is xt else {"z": zt, "x": xt, "y": yt}
    text = html.escape(f"z = {zt.item():.4g}   x.grad = {xt.grad.item():.4g}")
    svg = viz.make_dot(zt, params=names, show_values=True).pipe(format="svg").decode()
    five_view.value = f"<pre>{text}</pre>{svg}"


way_menu = widgets.Dropdown(options=list("ABCDE"), value="E", description="way")
x_slider = widgets.FloatSlider(value=3.0, min=-3.0, max=3.0, step=0.5, description="x")
five_view = widgets.HTML()
for control in (way_menu, x_slider):
    control.observe(draw_five_ways, names="value")
draw_five_ways()
widgets.VBox([widgets.HBox([way_menu, x_slider]), five_view])

# %% [markdown]
# ## 3. `clone()` versus `detach().clone()`
#
# Both give new memory. The difference is whether the copy stays connected to the graph:

# %%
# %%both x y_nograd y_detached y_clone
x = torch.ones(1, requires_grad=True)
with torch.no_grad():
    y_nograd = x.clone()
y_detached = x.detach().clone()
y_clone = x.clone()
for name, y in [("no_grad clone", y_nograd), ("detach().clone()", y_detached),
                ("clone()", y_clone)]:
    fn = None if y.grad_fn is None else type(y.grad_fn).__name__
    print(f"{name:17s} requires_grad={y.requires_grad!s:5s} grad_fn={fn!s:14s} "
          f"new memory={x.data_ptr() != y.data_ptr()}")

# %% [markdown]
# A plain `clone()` inside a recorded computation is often a surprise. Say you want to keep a
# *snapshot* of a weight, to use as a fixed number later:

# %%
# %%both w
w = torch.tensor(2.0, requires_grad=True)
snapshot = w.clone()                # meant as a fixed copy...
loss = w * snapshot
loss.backward()
print(w.grad)                       # ...but the gradient flowed through it too: 2w = 4

# %%
# %%both w
w = torch.tensor(2.0, requires_grad=True)
snapshot = w.detach().clone()       # a real constant
loss = w * snapshot
loss.backward()
print(w.grad)                       # only the first factor counts: snapshot = 2

# %% [markdown]
# So the rule: **to copy values, write `detach().clone()`** (or clone under `no_grad`). Use a
# bare `clone()` only when you *want* the gradient to flow through the copy; lesson 08 shows
# such a case. (`clone().detach()` gives the same values too, but it first records a clone in
# the graph and then throws it away; `detach().clone()` is the cheaper order.)
#
# ## 4. From a tensor to a NumPy array
#
# NumPy knows nothing about graphs, so torch refuses to hand over a tensor that requires grad:

# %%
# %%both x1 x2 z
x1 = torch.tensor(1.0, requires_grad=True)
x2 = torch.tensor(2.0, requires_grad=True)
y1 = x1 * x2
z = torch.log(y1) * torch.sin(y1)
z.numpy()

# %% [markdown]
# The safe recipe has four steps, each with a reason:
#
# ```python
# arr = t.detach().cpu().clone().numpy()
# ```
#
# * `detach()` leaves the graph (otherwise [`numpy()`](https://docs.pytorch.org/docs/stable/generated/torch.Tensor.numpy.html) raises, as above);
# * [`cpu()`](https://docs.pytorch.org/docs/stable/generated/torch.Tensor.cpu.html) brings the values to the computer's main memory: NumPy cannot read a GPU tensor.
#   For a tensor already on the CPU it returns the tensor itself and costs nothing;
# * `clone()` makes the array own its memory. Without it, the array and the tensor share
#   memory, and changing one changes the other;
# * `numpy()` wraps that memory as a NumPy array (no copy).

# %%
# %%both z
arr = z.detach().cpu().clone().numpy()
print(arr, type(arr).__name__, arr.dtype)

# %% [markdown]
# Why the `clone()`? Watch what happens without it:

# %%
# %%both x
x = torch.tensor([1.0, 2.0], requires_grad=True)
shared = x.detach().numpy()             # no clone: shares x's memory
shared[0] = 100.0
print(x)
safe = x.detach().cpu().clone().numpy()
safe[1] = -1.0
print(x, safe)

# %% [markdown]
# For a single number, [`z.item()`](https://docs.pytorch.org/docs/stable/generated/torch.Tensor.item.html) gives a plain Python float and works even when `z` requires
# grad.
#
# ## 5. How detaching changes a gradient
#
# Back to the function of lesson 04, $z = \log(y_1)\,\sin(y_1)$ with $y_1 = x_1 x_2$ at
# $(1, 2)$. This time the `log` branch reads a **detached** `y1`:

# %%
# %%both x1 x2 z
x1 = torch.tensor(1.0, requires_grad=True)
x2 = torch.tensor(2.0, requires_grad=True)
y1 = x1 * x2
y1_detached = y1.detach()
y2 = torch.log(y1_detached)         # this branch is cut from the graph
y3 = torch.sin(y1)
z = y2 * y3
z.backward()
print(f"z = {z.item():.4f}")
print(f"dz/dx1 = {x1.grad.item():.4f}")
print(f"dz/dx2 = {x2.grad.item():.4f}")

# %% [markdown]
# The value of $z$ did not change ($\approx 0.6303$), but the gradient went from $+0.3324$
# (lesson 04) to $-0.5769$. By hand: with the `log` branch cut, $y_2 = \log 2$ is a constant
# to autograd, so only the `sin` branch carries gradient:
#
# $$ \frac{\partial z}{\partial y_1} = y_2 \cos y_1 = \log 2 \cdot \cos 2
#    \approx 0.6931 \times (-0.4161) \approx -0.2885, $$
#
# $$ \frac{\partial z}{\partial x_1} = -0.2885 \cdot x_2 \approx -0.5769, \qquad
#    \frac{\partial z}{\partial x_2} = -0.2885 \cdot x_1 \approx -0.2885 . $$
#
# The missing term is $y_3 / y_1 = \sin 2 / 2 \approx 0.4546$, which the `log` branch would
# have added to $\partial z/\partial y_1$. The graph shows it: `log` is gone, and the multiply
# node has only one input that leads back to the leaves.

# %%
viz.show(viz.make_dot(compare.get("z"), params={"x1": compare.get("x1"), "x2": compare.get("x2"),
                                                "y1": compare.get("y1"), "z": compare.get("z")},
                      show_values=True))

# %% [markdown]
# Cutting a branch on purpose is a real technique ("stop-gradient"): the target of a
# reinforcement-learning update, or a running average used as a label, is computed from the
# model but must not be trained towards itself. It is also a classic bug when it happens by
# accident, for example when a value goes through NumPy and back.
#
# ### Try it: cut or keep the branch
#
# Move $x_1$ and $x_2$, and switch the detach on and off. The graph and the gradients change;
# the value of $z$ never does.
#
# *(The next cell's code is folded away, since it is only plumbing: click the three dots to read it.)*

# %% jupyter={"source_hidden": true}
def draw_detach(change=None):
    a = minigrad.tensor(x1_slider.value, requires_grad=True)
    b = minigrad.tensor(x2_slider.value, requires_grad=True)
    p = a * b
    q = minigrad.log(p.detach() if detach_box.value else p)
    out = q * minigrad.sin(p)
    p.retain_grad()
    out.backward()
    dot = viz.make_dot(out, params=dict(x1=a, x2=b, y1=p, z=out), show_values=True)
    detach_view.value = dot.pipe(format="svg").decode()


x1_slider = widgets.FloatSlider(value=1.0, min=0.2, max=3.0, step=0.1, description="x1")
x2_slider = widgets.FloatSlider(value=2.0, min=0.2, max=3.0, step=0.1, description="x2")
detach_box = widgets.Checkbox(value=True, description="detach y1 before log")
detach_view = widgets.HTML()
for control in (x1_slider, x2_slider, detach_box):
    control.observe(draw_detach, names="value")
draw_detach()
widgets.VBox([widgets.HBox([x1_slider, x2_slider, detach_box]), detach_view])

# %% [markdown]
# ## 6. Look inside
#
# minigrad's `detach` is three lines: a new tensor object around the **same** NumPy array, with
# the **same** version counter, and nothing else (no `grad_fn`, `requires_grad=False`):

# %%
import inspect
print(inspect.getsource(minigrad.Tensor.detach))

# %% [markdown]
# `clone` copies the array and records a node; the node's backward passes the gradient
# through unchanged, which is why E behaved like B:

# %%
from minigrad._ops import shape
print(inspect.getsource(shape.clone))
print(inspect.getsource(shape.CloneBackward0))

# %% [markdown]
# ## Where minigrad differs from torch
#
# Nowhere in this lesson, apart from spelling (`minigrad.` in messages and names where torch
# writes `torch.`). minigrad only has a CPU, so its `cpu()` always returns the tensor itself,
# as torch's does for a CPU tensor; the recipe above works unchanged on both.
#
# ## Self-check
#
# 1. `y = x.detach()`, then `y.add_(1)`. Does `x` change? Does `x.requires_grad` change?
# 2. In the A–E experiment, which ways give `x.grad == 7`, and why those?
# 3. `target = pred.clone()` is used in `loss = ((pred - target) ** 2).mean()`. What is
#    the gradient of `loss` with respect to `pred`, and what did the author probably want?
# 4. Why does `t.detach().numpy()` followed by writing into the array change `t`?
# 5. In section 5, which single term of $\partial z/\partial y_1$ disappeared, and what is its
#    value at $(1, 2)$?
#
# <details><summary>Answers</summary>
#
# 1. Yes, `x` changes: they share memory (and the version counter goes up). No,
#    `x.requires_grad` is still `True`.
# 2. B (`y = x`) and E (`y = x.clone()`): in both, the $y^2$ term is connected to `x`, so its
#    $2y = 6$ is added to the 1 from the first term.
# 3. Zero: `target` moves with `pred`, so `pred - target` is always 0 for autograd as well.
#    They wanted `target = pred.detach().clone()` (or a target from somewhere else).
# 4. `numpy()` does not copy; without `clone()` the array uses the tensor's memory.
# 5. The term from the `log` branch, $y_3 / y_1 = \sin 2 / 2 \approx 0.4546$.
#
# </details>
#
# **Exercises:** `exercises/06_detach_and_clone.ipynb`.
# **Next:** lesson 07, in-place operations and leaves.
