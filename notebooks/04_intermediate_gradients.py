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
# # 04 · Intermediate gradients: `retain_grad` and hooks
#
# After [`backward()`](https://docs.pytorch.org/docs/stable/generated/torch.Tensor.backward.html), only the **leaves** of the graph keep their gradient in `.grad`. The
# tensors in the middle (the *intermediate* or *non-leaf* tensors) see a gradient pass through
# them, and then it is thrown away. This lesson shows how to keep it, and how to look at or
# change it on its way through.
#
# **Goals.** By the end you can:
#
# * explain why a non-leaf tensor's `.grad` is `None`, and recognise the warning torch prints;
# * keep an intermediate gradient with `retain_grad()` and check it with [`retains_grad`](https://docs.pytorch.org/docs/stable/generated/torch.Tensor.retains_grad.html);
# * attach a hook with [`register_hook`](https://docs.pytorch.org/docs/stable/generated/torch.Tensor.register_hook.html) that prints a gradient, or replaces it, and remove it
#   with `handle.remove()`;
# * read the few lines of minigrad that implement [`retain_grad`](https://docs.pytorch.org/docs/stable/generated/torch.Tensor.retain_grad.html).
#
# **Time:** about 25 minutes. You should know lesson 03 (leaves, `grad_fn`, `backward()`).

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
# ## 1. The running example
#
# We use one small function all lesson long:
#
# $$ z = \log(x_1 x_2)\,\sin(x_1 x_2) \quad\text{at}\quad x_1 = 1,\ x_2 = 2 .$$
#
# Written step by step, it has three intermediate tensors:
#
# $$ y_1 = x_1 x_2, \qquad y_2 = \log y_1, \qquad y_3 = \sin y_1, \qquad z = y_2\,y_3 .$$
#
# `x1` and `x2` are leaves (we made them, with `requires_grad=True`); `y1`, `y2`, `y3` and `z`
# were made by operations, so they are non-leaves. Every code cell below that starts with
# `%%both` runs on real torch *and* on minigrad, and fails if the two disagree.

# %%
# %%both x1 x2 y1 z
x1 = torch.tensor(1.0, requires_grad=True)
x2 = torch.tensor(2.0, requires_grad=True)
y1 = x1 * x2
y2 = torch.log(y1)
y3 = torch.sin(y1)
z = y2 * y3
z.backward()
print("dz/dx1 =", x1.grad)
print("dz/dx2 =", x2.grad)
print("leaves:", x1.is_leaf, x2.is_leaf, "| y1 is a leaf:", y1.is_leaf)

# %% [markdown]
# By the chain rule, $\partial z/\partial y_1 = y_3 / y_1 + y_2 \cos y_1 = \sin 2 / 2 + \log 2
# \cos 2 \approx 0.1662$, and then $\partial z/\partial x_1 = 0.1662 \cdot x_2 \approx 0.3324$
# and $\partial z/\partial x_2 = 0.1662 \cdot x_1 \approx 0.1662$. The engine computed
# $\partial z/\partial y_1$ on the way, but where is it? Let us ask `y1`.

# %%
# %%both y1
print(y1.grad)

# %% [markdown]
# `None`, and a **warning**. Torch is telling you that `y1` is not a leaf, so backward did not
# store anything in its `.grad` — and that if you really want it, you should call
# `.retain_grad()` *before* `backward()`. (In torch the warning also ends with "Triggered
# internally at ..." and the C++ file it came from; the course hides that part.)
#
# Why not keep every gradient? Memory. A real network has millions of intermediate values;
# keeping a gradient for each one would double the memory backward needs, for numbers you
# almost never look at. Leaves are what an optimiser updates, so leaves are what get stored.
#
# Here is the graph. Blue boxes are leaves; grey boxes are the backward nodes (`grad_fn`) that
# backward runs; the green box is `z`. Only the leaves show a gradient.

# %%
viz.show(viz.make_dot(compare.get("z"), params={"x1": compare.get("x1"), "x2": compare.get("x2"),
                                                "y1": compare.get("y1"), "y2": compare.get("y2"),
                                                "y3": compare.get("y3"), "z": compare.get("z")},
                      show_values=True))

# %% [markdown]
# ## 2. Keeping an intermediate gradient: `retain_grad()`
#
# Call `t.retain_grad()` on a non-leaf **before** `backward()`. From then on `t.retains_grad`
# is `True`, and backward stores the gradient that flows through `t` in `t.grad`.

# %%
# %%both x1 x2 y1 y2 y3 z
x1 = torch.tensor(1.0, requires_grad=True)
x2 = torch.tensor(2.0, requires_grad=True)
y1 = x1 * x2
y2 = torch.log(y1)
y3 = torch.sin(y1)
z = y2 * y3
for t in (y1, y2, y3):
    t.retain_grad()
z.backward()
for name, t in [("x1", x1), ("x2", x2), ("y1", y1), ("y2", y2), ("y3", y3)]:
    print(f"dz/d{name} = {t.grad.item():.4f}   is_leaf={t.is_leaf}   retains_grad={t.retains_grad}")

# %% [markdown]
# Check them by hand: $\partial z/\partial y_2 = y_3 = \sin 2 \approx 0.9093$ and
# $\partial z/\partial y_3 = y_2 = \log 2 \approx 0.6931$. Notice that `retains_grad` is `False`
# for the leaves: they keep their gradient anyway, so the flag only means something for
# non-leaves. Now the drawing can show every gradient:

# %%
viz.show(viz.make_dot(compare.get("z"), params={"x1": compare.get("x1"), "x2": compare.get("x2"),
                                                "y1": compare.get("y1"), "y2": compare.get("y2"),
                                                "y3": compare.get("y3"), "z": compare.get("z")},
                      show_values=True))

# %% [markdown]
# ### Try it: move the inputs
#
# Move `x1` and `x2`. The widget rebuilds the graph with minigrad, retains the three
# intermediate gradients and redraws every value (green) and gradient (blue).
#
# *(The next cell's code is folded away, since it is only plumbing: click the three dots to read it.)*

# %% jupyter={"source_hidden": true}
def draw_example(change=None):
    a = minigrad.tensor(x1_slider.value, requires_grad=True)
    b = minigrad.tensor(x2_slider.value, requires_grad=True)
    p = a * b
    q, r = minigrad.log(p), minigrad.sin(p)
    out = q * r
    for t in (p, q, r):
        t.retain_grad()
    out.backward()
    dot = viz.make_dot(out, params=dict(x1=a, x2=b, y1=p, y2=q, y3=r, z=out), show_values=True)
    view.value = dot.pipe(format="svg").decode()


x1_slider = widgets.FloatSlider(value=1.0, min=0.2, max=3.0, step=0.1, description="x1")
x2_slider = widgets.FloatSlider(value=2.0, min=0.2, max=3.0, step=0.1, description="x2")
view = widgets.HTML()
for slider in (x1_slider, x2_slider):
    slider.observe(draw_example, names="value")
draw_example()
widgets.VBox([widgets.HBox([x1_slider, x2_slider]), view])

# %% [markdown]
# Things to notice while you play: the gradient of `y1` is always the sum of what comes back
# along its two outgoing edges (through `log` and through `sin`), and `x1`'s gradient is always
# `y1`'s gradient times `x2`.
#
# ### The same idea with vectors
#
# With a vector, `.grad` has the same shape as the tensor. Here $y = 2x$ and $z$ is the mean
# of the four entries of $y$, so each entry of $y$ gets $1/4$ and each entry of $x$ gets
# $2 \cdot 1/4 = 1/2$. Even the output `z` only has a `.grad` (of 1, the seed of backward) if
# you ask for it.

# %%
# %%both x y z
x = torch.tensor([1.0, 1.0, 1.0, 1.0], requires_grad=True)
y = 2 * x
y.retain_grad()
z = y.mean()
z.retain_grad()
z.backward()
print(x.grad)
print(y.grad)
print(z.grad)

# %% [markdown]
# ## 3. The rules of `retain_grad`
#
# **It must come before `backward()`.** It installs something that catches the gradient as it
# passes; once backward has run, there is nothing left to catch. Calling it late is not an
# error, and it even silences the warning, but `.grad` stays `None`:

# %%
# %%both w v
w = torch.tensor(3.0, requires_grad=True)
v = w ** 2
(5 * v).backward()
v.retain_grad()          # too late: backward already ran
print(v.retains_grad, v.grad, w.grad)

# %% [markdown]
# **It needs a tensor that requires grad.** A constant has no gradient to keep:

# %%
# %%both
c = torch.tensor(1.0)
c.retain_grad()

# %% [markdown]
# **On a leaf it does nothing.** A leaf keeps its gradient anyway, so the flag stays `False`:

# %%
# %%both x1
x1.retain_grad()
print(x1.is_leaf, x1.retains_grad)

# %% [markdown]
# **Retained gradients accumulate**, like leaf gradients: two backward passes through the same
# graph add up. Here $y = x^2$ and $z = 2y$ at $x = 2$, so $\partial z/\partial y = 2$ and
# $\partial z/\partial x = 8$. The second `backward` doubles both.

# %%
# %%both x y z
x = torch.tensor(2.0, requires_grad=True)
y = x ** 2
y.retain_grad()
z = 2 * y
z.retain_grad()
z.backward(retain_graph=True)
print(z.item(), y.item(), x.item())
print(z.grad.item(), y.grad.item(), x.grad.item())
z.backward()
print(z.grad.item(), y.grad.item(), x.grad.item())

# %% [markdown]
# ## 4. Hooks: watching and changing a gradient in flight
#
# `retain_grad` stores a gradient. A **hook** lets you run your own function on it.
# `t.register_hook(fn)` asks backward to call `fn(grad)` each time the gradient of `t` has been
# computed:
#
# * if `fn` returns `None`, the gradient goes on unchanged (a hook that only looks);
# * if `fn` returns a tensor, that tensor **replaces** the gradient from then on: everything
#   further back in the graph sees the new value.
#
# `register_hook` returns a *handle*; `handle.remove()` takes the hook off again.
#
# ### A hook that prints

# %%
# %%both x1 x2 z
x1 = torch.tensor(1.0, requires_grad=True)
x2 = torch.tensor(2.0, requires_grad=True)
y1 = x1 * x2
y2, y3 = torch.log(y1), torch.sin(y1)
z = y2 * y3
handle = y1.register_hook(lambda grad: print("gradient arriving at y1:", grad))
z.backward()
print("dz/dx1 =", x1.grad)

# %% [markdown]
# The hook saw the same $0.1662$ that `retain_grad` stored above. Printing hooks are a handy
# way to find out where a `nan` or a huge gradient first appears.
#
# ### A hook that replaces the gradient
#
# Now a hook that returns something: it multiplies the gradient at `y1` by 10. Everything
# behind `y1` — here `x1` and `x2` — gets ten times its true gradient. Because `y1` also
# retains its gradient, we can see that `retain_grad` stores the value *after* the hook: torch
# always runs the retain step last.

# %%
# %%both x1 x2 y1 z
x1 = torch.tensor(1.0, requires_grad=True)
x2 = torch.tensor(2.0, requires_grad=True)
y1 = x1 * x2
y2, y3 = torch.log(y1), torch.sin(y1)
z = y2 * y3
y1.retain_grad()
handle = y1.register_hook(lambda grad: grad * 10)
z.backward(retain_graph=True)
print("with the hook:    y1.grad =", y1.grad, " x1.grad =", x1.grad)

handle.remove()
x1.grad = None
x2.grad = None
y1.grad = None
z.backward()
print("hook removed:     y1.grad =", y1.grad, " x1.grad =", x1.grad)

# %% [markdown]
# After `handle.remove()` the same graph gives the true gradients again. (We set the `.grad`
# fields back to `None` first; otherwise the second pass would add to the first.)
#
# ### A hook on a leaf
#
# A hook on a leaf runs just before the gradient is added into `.grad`, so what it returns is
# what gets stored. A common use is to clip one parameter's gradient:

# %%
# %%both w
w = torch.tensor([1.0, -2.0, 3.0], requires_grad=True)
w.register_hook(lambda grad: grad.clamp(min=-1.0, max=1.0))
loss = (w ** 2).sum()          # true gradient: 2w = [2, -4, 6]
loss.backward()
print(w.grad)

# %% [markdown]
# Two rules for hooks: **never change `grad` in place** inside a hook (return a new tensor
# instead), and, like `retain_grad`, a hook needs a tensor that requires grad:

# %%
# %%both
torch.tensor([1.0, 2.0]).register_hook(print)

# %% [markdown]
# ## 5. Look inside: how minigrad keeps a gradient
#
# `retain_grad` is short. It does not copy anything yet: it leaves a note on the node that
# *made* the tensor (`self.grad_fn`) saying "when the gradient for my output number
# `_output_nr` passes through you, give it to me". It keeps only a weak reference, so the note
# does not keep the tensor alive.

# %%
import inspect
print(inspect.getsource(minigrad.Tensor.retain_grad))

# %% [markdown]
# The engine reads those notes just before it runs a node, in `call_pre_hooks`. The order is
# the one we saw above: your tensor hooks first (each may replace the gradient), then the
# retain step, which stores what is left, then the node's own pre-hooks.

# %%
from minigrad.autograd import engine
print(inspect.getsource(engine.call_pre_hooks))
print(inspect.getsource(engine._retain))

# %% [markdown]
# `_retain` also explains the accumulation in section 3: the first gradient is stored, the
# next ones are added (`tensor._grad + grad`). And `register_hook` is the same mechanism, made
# public: on a non-leaf it adds `(output_nr, hook)` to the node that made the tensor; on a leaf
# it adds it to the leaf's `AccumulateGrad` node.

# %%
print(inspect.getsource(minigrad.Tensor.register_hook))

# %% [markdown]
# ## Where minigrad differs from torch
#
# Nowhere in this lesson, apart from spelling: minigrad's messages say `minigrad.` where
# torch's say `torch.`, and torch's non-leaf warning ends with a "(Triggered internally at
# ...)" note naming a C++ file, which minigrad does not have. The `%%both` check ignores both.
# Inside, the two keep the retain step in the same place: torch's `retain_grad` also leaves it
# on the tensor's `grad_fn` (a "retains grad" hook stored with the node, under the tensor's
# output number), and the order (your hooks, then retain) is the same. You can see where it
# lives: an in-place op gives `y` a new `grad_fn`, and the retain step moves to that new node,
# so `y.grad` is the gradient of the *new* `y` in both engines.

# %%
# %%both x y
x = torch.tensor([1.0, 2.0], requires_grad=True)
y = x * 2
y.retain_grad()
first = y.grad_fn
y.mul_(3)  # y is now 6x, with a new grad_fn: the retain step moves with it
print(y.grad_fn is first, y.retains_grad)
(y * y).sum().backward()
print(y.grad)  # d(y*y)/dy = 2y for the new y = 6x: [12., 24.]
print(x.grad)

# %% [markdown]
# ## Self-check
#
# 1. After `z.backward()`, `y.grad` prints `None` with a warning. Name two ways `y` could
#    still have had a gradient stored.
# 2. You call `y.retain_grad()` after `z.backward()`. What does `y.grad` hold, and is there a
#    warning?
# 3. A hook on `y1` returns `grad * 0`. What are `x1.grad` and `x2.grad` afterwards?
# 4. Why does `retains_grad` stay `False` for a leaf even after you call `retain_grad()` on it?
#
# <details><summary>Answers</summary>
#
# 1. Call `y.retain_grad()` before `backward()`; or register a hook on `y` that saves the
#    gradient somewhere (for example appends it to a list). (If `y` were a leaf, `.grad` would
#    be filled anyway.)
# 2. `None`, without a warning: `retains_grad` is now `True`, so torch no longer warns, but the
#    gradient passed through before anyone was listening.
# 3. Both `0`: the hook replaced the gradient at `y1`, and everything behind `y1` only sees the
#    replacement.
# 4. A leaf keeps its gradient in `.grad` anyway, so `retain_grad()` on a leaf does nothing and
#    the flag stays `False`.
#
# </details>
#
# **Exercises:** `exercises/04_intermediate_gradients.ipynb`.
# **Next:** lesson 05, pausing the graph with `no_grad` and friends.
