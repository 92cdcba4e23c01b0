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
# # 07 · In-place operations and leaves
#
# An *in-place* operation changes a tensor's numbers where they already are, instead of making
# a new tensor. It saves memory, and it is how optimizers update weights. It is also where
# autograd gets strict: some in-place changes are refused at once, others are caught later,
# during `backward()`. This lesson explains both, and why.
#
# **Goals.** After this lesson you can
#
# 1. tell an in-place operation from an ordinary one (same Python object or a new one);
# 2. explain the error *"a leaf Variable that requires grad is being used in an in-place
#    operation"* and update weights the allowed way, under `torch.no_grad()`;
# 3. use in-place operations on intermediate tensors, and read their version counter [`_version`](https://docs.pytorch.org/docs/stable/notes/autograd.html#in-place-correctness-checks);
# 4. explain and fix *"one of the variables needed for gradient computation has been modified by
#    an inplace operation"*;
# 5. tell *reassigning* a leaf's name from *modifying* the leaf.
#
# **Time:** about 25 minutes. You should know `requires_grad`, `grad_fn` and leaves
# (lesson 03) and `no_grad` (lesson 05).

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
# ## 1. What "in place" means
#
# In PyTorch these change a tensor in place:
#
# * methods whose name ends with an underscore: [`add_`](https://docs.pytorch.org/docs/stable/generated/torch.Tensor.add_.html), `mul_`, `zero_`, `fill_`, `log_`,
#   `clamp_`, [`copy_`](https://docs.pytorch.org/docs/stable/generated/torch.Tensor.copy_.html), ...;
# * augmented assignment: `x += 1`, `x *= 2`, `x -= y`, ...;
# * assignment into an index or a slice: `x[0] = 5` (lesson 08 is about this one).
#
# `x = x + 1` is *not* in place: `x + 1` builds a brand-new tensor, and then the name `x` is moved
# to it. The old tensor is untouched.
#
# Python's `id(obj)` tells objects apart: two names refer to the same object exactly when their
# ids are equal. The numbers themselves change from run to run, so we only print the comparison.
# `before` keeps a second name for the tensor we start with.

# %%
# %%both x before
x = torch.ones(2)
before = x
x += 1
print("after x += 1:     ", x, "same object:", id(x) == id(before))
x.add_(1)
print("after x.add_(1):  ", x, "same object:", id(x) == id(before))
x = x + 1
print("after x = x + 1:  ", x, "same object:", id(x) == id(before))
print("the old object:   ", before)

# %% [markdown]
# The first two lines changed the object that `before` also names, so `before` saw the change.
# The last line made a new object: `before` still holds `[3., 3.]`.
#
# (The `✓` line under each checked cell says that minigrad printed the same thing and ended
# with the same tensors as torch.)

# %% [markdown]
# ## 2. Leaves that require grad may not change in place
#
# A leaf with `requires_grad=True` is where a graph starts: a weight, an input you want the
# gradient for. Autograd promises to put into its `.grad` the derivative *with respect to its
# value*. An in-place operation would rewrite that value and record itself as the leaf's history,
# turning the start of the graph into the middle of it. Torch refuses, immediately:

# %%
# %%both x
x = torch.tensor(1.0, requires_grad=True)
x += 1

# %% [markdown]
# Another name for the same object does not help. `y = x` does not copy anything: `y` *is* `x`.

# %%
# %%both x y
x = torch.tensor(1.0, requires_grad=True)
y = x
print("y is x:", y is x)
y *= 1

# %% [markdown]
# Every in-place method gives the same error, and so does writing into a part of the leaf (the
# message then speaks of "a view of a leaf", see lesson 08):

# %%
# %%both x
x = torch.tensor([1.0, 2.0], requires_grad=True)
x.zero_()

# %%
# %%both x
x[0] = 5.0

# %% [markdown]
# ### So how does an optimizer change the weights?
#
# Under `torch.no_grad()` nothing is recorded, so there is no history to spoil: in-place changes
# to a leaf are allowed, and the tensor stays a leaf. This is exactly what [`optimizer.step()`](https://docs.pytorch.org/docs/stable/generated/torch.optim.Optimizer.step.html) does
# inside. Here is gradient descent on `loss = (w - 3)²` by hand, with a learning rate of 0.25:

# %%
# %%both w
w = torch.tensor(1.0, requires_grad=True)
for step in range(4):
    loss = (w - 3) ** 2
    loss.backward()
    with torch.no_grad():
        w -= 0.25 * w.grad      # in place, not recorded
    print(f"step {step}: w = {w.item():.4f}")
    w.grad.zero_()              # .grad is a plain tensor: zeroing it in place is fine
print(w, "is_leaf:", w.is_leaf)

# %% [markdown]
# Each step halves the distance to 3, `w` is still the same leaf (still `requires_grad=True`,
# still no `grad_fn`), and its `.grad` is ready for the next step.

# %% [markdown]
# ## 3. In-place operations on intermediate tensors are allowed
#
# A tensor that came out of an operation (a *non-leaf*) already has a history, so an in-place
# operation can simply extend it. Below, `y` is changed twice in place; it stays the same Python
# object, but its `grad_fn` is replaced each time:
#
# $$y = \log(2x + 2), \qquad \frac{dy}{dx} = \frac{2}{2x+2} = \frac{1}{x+1} = 0.5 \text{ at } x = 1.$$

# %%
# %%both x y
x = torch.tensor(1.0, requires_grad=True)
y = 2 * x
y0 = y
print(y)
y += 2
print(y)
y.log_()
print(y, "| same object as before:", y is y0)
y.backward()
print("dy/dx =", x.grad)

# %% [markdown]
# The graph records all three steps, `MulBackward0 → AddBackward0 → LogBackward0`, even though
# there is only one tensor object. minigrad's drawing (left) and torch's (right) agree:

# %%
viz.show(viz.side_by_side(compare.get("y"), compare.get("y", "torch"),
                          params={"x": compare.get("x")},
                          torch_params={"x": compare.get("x", "torch")}, show_values=True))

# %% [markdown]
# ## 4. Version counters
#
# Every tensor carries a *version counter*, `t._version` (an underscore attribute: an internal
# detail, fine to read while learning). Every in-place change adds one; out-of-place operations
# leave it alone. A view (a slice like `a[1:]`, lesson 08) shares the counter of the tensor it
# looks into, because they share memory.

# %%
# %%both a v
a = torch.zeros(3)
print("new:               ", a._version)
a.add_(1)
print("after add_:        ", a._version)
a[0] = 7
print("after a[0] = 7:    ", a._version)
b = a * 2
print("after b = a * 2:   ", a._version, "(b starts at", b._version, end=")\n")
v = a[1:]
v.mul_(3)
print("after v.mul_(3):   ", a._version, v._version, a)

# %% [markdown]
# ### Why autograd needs them: saved tensors
#
# To compute a gradient, many backward nodes need values from the forward pass. `exp` is a
# good example: the derivative of $e^x$ is $e^x$ itself, so `ExpBackward0` keeps its *output*.
# When a node saves a tensor it also writes down the tensor's version. During `backward()` the
# version is checked again; if the tensor changed in between, the saved numbers are no longer
# the ones the formula needs, and autograd stops instead of returning a wrong gradient:

# %%
# %%both x h
x = torch.tensor([0.5, 1.0, 2.0], requires_grad=True)
h = x.exp()                 # ExpBackward0 saves h (version 0)
h.add_(1)                   # h is now at version 1
h.sum().backward()

# %% [markdown]
# Read the message from left to right: the tensor is a `FloatTensor` of shape `[3]`, it is
# "output 0 of Exp" (our `h`), it is at version 1 but the node saved it at version 0.
#
# An in-place operation is harmless when no node has saved the tensor it changes. It is the
# *order* that matters. Here `h` is changed before `h * h` saves it, and backward works:

# %%
# %%both x h z
x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
h = x * 2
h.add_(1)                   # nobody has saved h yet
z = (h * h).sum()           # MulBackward0 saves h at version 1
z.backward()
print(x.grad)               # dz/dx = 2h * 2 = 4(2x + 1)

# %% [markdown]
# Swap the two lines and the same `add_` breaks `backward()`:

# %%
# %%both x h z
x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
h = x * 2
z = (h * h).sum()           # MulBackward0 saves h at version 0
h.add_(1)
z.backward()

# %% [markdown]
# The drawing with `show_saved=True` shows why. Orange boxes are tensors a node saved. The two
# under the lower `MulBackward0` (the one for `h * h`, just above `SumBackward0`) are `self` and
# `other` of that product: both are `h` itself, so they now show `[3, 5, 7]`, not the `[2, 4, 6]`
# that was actually multiplied. Using them would give a wrong gradient. (The upper
# `MulBackward0`, for `x * 2`, kept `x` and the number 2, which did not change.)

# %%
viz.show(viz.make_dot(compare.get("z"), params={"x": compare.get("x")}, show_saved=True,
                      show_values=True))

# %% [markdown]
# The fix is to not overwrite a tensor that the graph still needs: use the out-of-place version
# (`h = h + 1` makes a new tensor and leaves the saved one alone), or `clone()` first.

# %%
# %%both x h z
x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
h = x * 2
z = (h * h).sum()
h = h + 1                   # a new tensor; the saved h is untouched
z.backward()
print(x.grad)               # dz/dx = 2h * 2 = 8x

# %% [markdown]
# ### Try it
#
# Move `x` and pick what happens to `h` *after* `z = (h * h).sum()` was built. The graph shows
# the values (green) and, when backward succeeds, the gradient (blue) on `x`.
#
# *(The next cell's code is folded away, since it is only plumbing: click the three dots to read it.)*

# %% jupyter={"source_hidden": true}
import html


def inplace_playground(change=None):
    x = minigrad.tensor([x_slider.value, 2.0], requires_grad=True)
    h = x * 2
    z = (h * h).sum()
    if then_menu.value == "h.add_(1)  (in place)":
        h.add_(1)
    elif then_menu.value == "h = h + 1  (new tensor)":
        h = h + 1
    try:
        z.backward()
        message = f"backward worked: x.grad = {x.grad}  (that is 8x)"
    except RuntimeError as err:
        message = "backward failed: " + str(err).split(". Hint")[0]
    graph = viz.show(viz.make_dot(z, params={"x": x}, show_saved=True, show_values=True))
    view.value = f"<pre>{html.escape(message)}</pre>{graph.data}"


x_slider = widgets.FloatSlider(value=1.0, min=-2.0, max=2.0, step=0.25, description="x[0]")
then_menu = widgets.Dropdown(options=["nothing", "h.add_(1)  (in place)",
                                      "h = h + 1  (new tensor)"], description="then")
view = widgets.HTML()
x_slider.observe(inplace_playground, names="value")
then_menu.observe(inplace_playground, names="value")
inplace_playground()
widgets.VBox([widgets.HBox([x_slider, then_menu]), view])

# %% [markdown]
# ## 5. Reassigning a leaf's name is not modifying the leaf
#
# `x = x + 1` is legal even for a leaf, because it changes nothing: it builds a new tensor and
# moves the name. But the name now points to a *non-leaf*, and the original leaf is gone unless
# another name still holds it. Its gradient is lost with it, and asking the new `x` for `.grad`
# only gives a warning and `None`:

# %%
# %%both x
x = torch.tensor(1.0, requires_grad=True)
x = x + 1
print(x, "is_leaf:", x.is_leaf)
x.backward()
print(x.grad)

# %% [markdown]
# Keep a name for the leaf, and its gradient is where you expect:

# %%
# %%both x0 x
x0 = torch.tensor(1.0, requires_grad=True)
x = x0 + 1
x.backward()
print(x0.grad)

# %% [markdown]
# The classic way to meet this bug is a hand-written training loop. `w = w - 0.25 * w.grad`
# looks like gradient descent, but after the first step `w` is a non-leaf, so the second
# `backward()` puts no gradient into it and `w.grad` is `None`:

# %%
# %%both w
w = torch.tensor(1.0, requires_grad=True)
for step in range(2):
    loss = (w - 3) ** 2
    loss.backward()
    print(f"step {step}: is_leaf={w.is_leaf}")
    w = w - 0.25 * w.grad       # rebinds w to a new, non-leaf tensor

# %% [markdown]
# The right update is the in-place one of section 2: `with torch.no_grad(): w -= 0.25 * w.grad`.
#
# | what you write | in place? | for a leaf with `requires_grad=True` |
# | --- | --- | --- |
# | `w -= lr * g`, `w.sub_(lr * g)` | yes | error, unless under `torch.no_grad()` |
# | `with torch.no_grad(): w -= lr * g` | yes | fine: `w` stays the same leaf |
# | `w = w - lr * g` | no | allowed, but `w` is now a non-leaf and the leaf is lost |

# %% [markdown]
# ## 6. Look inside minigrad
#
# minigrad's in-place machinery is in `minigrad/_ops/inplace.py`. Every in-place operation goes
# through `check_inplace` first. It refuses a leaf that requires grad, or a view of one, but only
# while graphs are being recorded (that is why `no_grad` lets the optimizer through):

# %%
import inspect
from minigrad._ops import inplace

print(inspect.getsource(inplace.check_inplace))

# %% [markdown]
# (Its first test is about `inference_mode` tensors, lesson 05. `check_view_rebase` refuses
# the views that torch cannot rewrite through `CopySlices` (lesson 08): views made under
# `no_grad`, the outputs of ops that return several views (`unbind`, `split`, `chunk`) and
# views returned by a custom Function, but again only while something records: under
# `no_grad`, or when nothing requires grad, torch lets you change an `unbind` output in place.)
# Both engines, all three cases:

# %%
# %%both
base = torch.tensor([1.0, 2.0, 3.0], requires_grad=True) * 2
first, second, third = base.unbind()
with torch.no_grad():
    first.mul_(10)                  # allowed: nothing is recorded
print(base)
plain = torch.tensor([1.0, 2.0, 3.0])
p0, p1, p2 = plain.unbind()
p0.mul_(10)                         # allowed: nothing requires grad
print(plain)
first.mul_(10)                      # refused: recorded, and base requires grad

# %% [markdown]
# Then `apply_inplace` (same file) records the operation's node, writes the new numbers into
# the same NumPy array, bumps the version counter, and attaches the node as the tensor's new
# `grad_fn`; for a view, `rebase_history` puts the node on the base inside a `CopySlices`
# (lesson 08). Here are those lines of it:

# %%
lines = inspect.getsource(inplace.apply_inplace).splitlines()
first = next(i for i, line in enumerate(lines) if "node = None" in line)
last = next(i for i, line in enumerate(lines) if "rebase_history(" in line)
print("\n".join(lines[first:last + 1]))

# %% [markdown]
# (The `old` and `forward_grad` lines serve forward-mode differentiation, lesson 02.)
#
# The other half of the story is in `minigrad/autograd/graph.py`: a `SavedTensor` remembers the
# version when it was saved, and `unpack` (called during backward) compares it with the current
# one:

# %%
from minigrad.autograd.graph import SavedTensor

print(inspect.getsource(SavedTensor.unpack))

# %% [markdown]
# ## Where minigrad differs from torch
#
# * Nothing in this lesson behaves differently: the same operations are refused, with the same
#   messages, and the version numbers match.
# * Error messages name minigrad's types (`minigrad.FloatTensor`,
#   `minigrad.autograd.set_detect_anomaly`); the checked cells print torch's spelling.
# * torch keeps the version counter in C++ and checks it in its C++ engine
#   ([in-place correctness checks](https://docs.pytorch.org/docs/stable/notes/autograd.html#in-place-correctness-checks));
#   minigrad keeps it in
#   a one-element NumPy array shared by a tensor and its views, so you can read every step
#   above.
# * Nodes save exactly what torch's save: for `x * 2`, `MulBackward0` keeps only the 2, since
#   the gradient for `x` needs nothing else (`grad_fn._saved_self` is `None` on both engines;
#   minigrad also lists what a node saved in the dictionary `grad_fn._saved`).

# %% [markdown]
# ## Self-check
#
# 1. `a = torch.ones(3); b = a; b.mul_(2)`. What is `a` now, and is `id(a) == id(b)`?
# 2. Why does `w -= 0.1 * w.grad` fail for a weight `w`, and what is the usual fix?
# 3. `h = x.sigmoid(); h.mul_(2); h.sum().backward()` fails, but
#    `h = x * 3; h.mul_(2); h.sum().backward()` works. Why?
# 4. After `x = torch.tensor(2.0, requires_grad=True); x = x * x; x.backward()`, where is the
#    gradient 4?
#
# <details><summary>Answers</summary>
#
# 1. `tensor([2., 2., 2.])`, and yes: `b = a` makes a second name, not a copy, and `mul_` changes
#    that one object.
# 2. `w` is a leaf that requires grad, and `-=` is in place. Do it inside
#    `with torch.no_grad():` (or let an optimizer do it).
# 3. `SigmoidBackward0` saves its output `h` (the derivative is `h·(1-h)`), so changing `h`
#    bumps a version it checks. The gradient of `x * 3` needs the 3, not the output `h`, so no
#    node saved `h` and nobody checks its version.
# 4. Nowhere: the name `x` was moved to the non-leaf `x * x` and the leaf was lost. Reading
#    `x.grad` warns and gives `None`. Keep the leaf under another name.
#
# </details>
#
# **Exercises:** `exercises/07_inplace_and_leaves.ipynb`. Next: lesson 08, slicing pitfalls.
