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
# # 05 · Pausing the graph: `no_grad`, `inference_mode`, `.data` and frozen layers
#
# Autograd records every operation on a tensor that requires grad. Most of the time that is
# what you want; sometimes it is not: when you only predict (no backward will ever come), when
# you update the weights themselves, or when part of a model should stay fixed. This lesson is
# about the switches that stop the recording.
#
# **Goals.** By the end you can:
#
# * turn recording off and on with [`torch.no_grad()`](https://docs.pytorch.org/docs/stable/generated/torch.no_grad.html), [`torch.enable_grad()`](https://docs.pytorch.org/docs/stable/generated/torch.enable_grad.html) and
#   [`torch.set_grad_enabled(mode)`](https://docs.pytorch.org/docs/stable/generated/torch.set_grad_enabled.html), as blocks and as decorators;
# * say what [`torch.inference_mode()`](https://docs.pytorch.org/docs/stable/generated/torch.inference_mode.html) adds to `no_grad`, and what the old [`volatile`](https://docs.pytorch.org/docs/stable/autograd.html#variable-deprecated) flag was;
# * reuse one leaf tensor across a loop (change it under `no_grad`, zero its gradient), and know
#   why `.data` is a riskier way to do the same;
# * freeze a layer with `requires_grad=False` and see it vanish from the graph;
# * read the few lines of minigrad that implement the grad-mode switch.
#
# **Time:** about 30 minutes. You should know lessons 03 and 04.

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
# ## 1. `no_grad`: compute without recording
#
# Inside a `with torch.no_grad():` block, operations still compute their values, but no node is
# added to the graph: every result has `requires_grad=False` and `grad_fn=None`, even when its
# inputs require grad. That saves the time of building the graph and, more importantly, the
# memory of the values the graph would keep for backward.
#
# Our function from lesson 04, $z = \log(x_1 x_2)\sin(x_1 x_2)$ at $(1, 2)$, computed inside
# `no_grad`:

# %%
# %%both x1 x2 z
x1 = torch.tensor(1.0, requires_grad=True)
x2 = torch.tensor(2.0, requires_grad=True)
with torch.no_grad():
    y1 = x1 * x2
    z = torch.log(y1) * torch.sin(y1)
    print("inside the block, recording is", torch.is_grad_enabled())
print(z, z.requires_grad, z.grad_fn)
print("after the block, recording is", torch.is_grad_enabled())

# %% [markdown]
# The value is right ($\log 2 \cdot \sin 2 \approx 0.6303$), but there is no graph behind it, so
# there is nothing for backward to walk. This is the error you get when you forget that:

# %%
# %%both z
z.backward()

# %% [markdown]
# Two more facts about `no_grad`:
#
# * It does not change the leaves: `x1.requires_grad` is still `True`, and a leaf you *create*
#   inside the block with `requires_grad=True` does require grad. Only the results of
#   operations are affected.
# * When the block ends, recording comes back by itself (even if the block raised an error).

# %%
# %%both x1 w
with torch.no_grad():
    w = torch.tensor(5.0, requires_grad=True)
print(x1.requires_grad, w.requires_grad, (w * 2).requires_grad)

# %% [markdown]
# ## 2. `enable_grad` and `set_grad_enabled`
#
# `torch.enable_grad()` is the opposite switch: inside it, recording is on again, even within a
# `no_grad` block. The blocks nest; each one puts the previous state back when it ends.

# %%
# %%both x z1 z2 z3
x = torch.ones(1, requires_grad=True)
with torch.no_grad():
    z1 = 2 * x
    with torch.enable_grad():
        z2 = 2 * x
    z3 = 2 * x
print(x.requires_grad, z1.requires_grad, z2.requires_grad, z3.requires_grad)

# %% [markdown]
# `torch.set_grad_enabled(mode)` takes the state as an argument, which is handy when one
# function serves both training and evaluation:

# %%
# %%both x
def run(t, training):
    with torch.set_grad_enabled(training):
        return (3 * t).sum()

print(run(x, training=True))
print(run(x, training=False))

# %% [markdown]
# All three also work as **decorators**, which is the usual way to write a prediction function:

# %%
# %%both x
@torch.no_grad()
def predict(t):
    return 3 * t

print(predict(x).requires_grad, (3 * x).requires_grad)

# %% [markdown]
# One trap: called as a plain function (not in a `with`), `torch.set_grad_enabled(False)`
# switches recording off **at once and for good**, until you switch it back:

# %%
# %%both x
torch.set_grad_enabled(False)
print(torch.is_grad_enabled(), (3 * x).requires_grad)
torch.set_grad_enabled(True)
print(torch.is_grad_enabled(), (3 * x).requires_grad)

# %% [markdown]
# ## 3. `inference_mode`: `no_grad` with a stamp
#
# `torch.inference_mode()` stops recording like `no_grad`, and also marks every tensor made
# inside as an **inference tensor** ([`t.is_inference()`](https://docs.pytorch.org/docs/stable/generated/torch.Tensor.is_inference.html) is `True`). Torch can then skip some
# bookkeeping (such as version counters), which makes pure prediction a little faster. The
# price comes later, outside inference mode: an inference tensor may not be **saved** for
# backward, nor changed in place. Where an op does not need to save it, it may still take
# part in a recorded computation.

# %%
# %%both x y
x = torch.ones(2, requires_grad=True)
with torch.inference_mode():
    y = x * 2
print(y, y.requires_grad, y.is_inference())

# %% [markdown]
# Adding `y` to `x` is recorded as usual: the gradient of a sum does not need `y`'s values,
# so nothing of `y` is kept.

# %%
# %%both x
x.grad = None
(x + y).sum().backward()
print(x.grad)

# %% [markdown]
# Multiplying is different: backward needs `y` to compute `x`'s gradient, so `y` would have
# to be saved, and inference tensors cannot be saved:

# %%
# %%both x
loss = (y * x).sum()

# %% [markdown]
# The message suggests the way out: make a normal copy with `clone()` outside inference mode.

# %%
# %%both x
y_normal = y.clone()
loss = (y_normal * x).sum()
loss.backward()
print(y_normal.is_inference(), loss, x.grad)

# %% [markdown]
# Changing an inference tensor in place outside inference mode is refused too (we use a
# throwaway tensor `t` here):

# %%
# %%both
with torch.inference_mode():
    t = torch.ones(2)
t.add_(1)

# %% [markdown]
# Rule of thumb: `inference_mode` for code that only predicts; `no_grad` when the results may
# later meet tensors that are being trained (for example when you update weights).
#
# ## 4. History: the `volatile` flag
#
# Older tutorials (PyTorch 0.3 and earlier) show `Variable(data, volatile=True)`. Back then
# tensors and autograd variables were two different classes, and *volatile* was a second flag
# next to `requires_grad`: a volatile input made everything computed from it skip the graph,
# and it beat `requires_grad=True` wherever they met. It existed for inference: you set it once
# on the input instead of setting `requires_grad=False` on every weight.
#
# PyTorch 0.4 merged `Variable` into `Tensor` and **removed** `volatile`. Today passing it only
# earns a warning ("volatile was removed and now has no effect. Use `with torch.no_grad():`
# instead."), and reading `.volatile` always gives `False`, so do not use it. (minigrad never
# had it.) What replaced it:
#
# | then (≤ 0.3) | now |
# | --- | --- |
# | `Variable(x, volatile=True)` | `with torch.no_grad():` or `with torch.inference_mode():` |
# | "volatile spreads to every result" | "nothing inside the block is recorded" |
# | `Variable(x, requires_grad=False)` for frozen weights | `p.requires_grad_(False)` (section 7) |
#
# The idea survived; it moved from a flag on a tensor to a mode around a block of code.
#
# ## 5. Reusing one leaf in a loop
#
# The simplest way to evaluate a function at several points is to make a fresh leaf each time.
# Here $z = x_0^2 + x_1^2$, whose gradient is $2x$:

# %%
# %%both x z
for i in range(1, 3):
    x = torch.zeros(2).fill_(i).requires_grad_(True)
    z = x.dot(x)
    z.backward()
    print(z.item(), x.grad)

# %% [markdown]
# Each pass allocates a new `x`. For a big tensor (the weights of a model) you would rather
# keep one tensor and change its values. Two things are needed:
#
# 1. change it **under `no_grad`**, so the change is not recorded (and is allowed at all);
# 2. **zero its gradient** after each backward, because `.grad` accumulates.

# %%
# %%both x z
x = torch.zeros(2, requires_grad=True)
for i in range(1, 3):
    with torch.no_grad():
        x.fill_(i)
    z = x.dot(x)
    z.backward()
    print(z.item(), x.grad.numpy())
    x.grad.zero_()

# %% [markdown]
# Same results as before, from a single tensor. Forget the `no_grad`, and torch refuses to
# change a leaf that requires grad in place (lesson 07 explains why):

# %%
# %%both x
x.fill_(3.0)

# %% [markdown]
# Forget to zero the gradient, and the second pass reports $2 + 4 = 6$ instead of $4$:

# %%
# %%both x
x.grad = None
for i in range(1, 3):
    with torch.no_grad():
        x.fill_(i)
    x.dot(x).backward()
    print(x.grad)

# %% [markdown]
# This loop is exactly what a training step does: compute a loss, `backward()`, then change
# the weights under `no_grad` and clear the gradients. Here is gradient descent on
# $(w - 3)^2$ written out by hand; `w` moves towards 3.

# %%
# %%both w
w = torch.tensor(0.0, requires_grad=True)
for step in range(4):
    loss = (w - 3) ** 2
    loss.backward()
    with torch.no_grad():
        w -= 0.25 * w.grad
    w.grad = None
    print(f"step {step}: loss {loss.item():.4f}, w = {w.item():.4f}")

# %% [markdown]
# ## 6. `.data`: the old back door
#
# Before `no_grad` existed, code changed a leaf through its `.data` attribute: `x.data` is a
# tensor that shares `x`'s memory but is invisible to autograd. The loop above can be written
# that way, and gives the same numbers:

# %%
# %%both x
x = torch.zeros(2, requires_grad=True)
for i in range(1, 3):
    x.data.fill_(i)
    x.dot(x).backward()
    print(x.grad, x.data.requires_grad)
    x.grad.zero_()

# %% [markdown]
# It works here, but `.data` is invisible to autograd in a dangerous way: autograd cannot even
# tell that the values changed. In the next cell `sigmoid` keeps its output for backward (its
# derivative is $s(1-s)$). We then overwrite that output through `.data`. Backward uses the
# overwritten values and returns **wrong gradients without any error**:

# %%
# %%both a
a = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
s = a.sigmoid()
s.data.zero_()
s.sum().backward()
print(a.grad)          # should be s*(1-s) = [0.1966, 0.1050, 0.0452]

# %% [markdown]
# The modern tool, `detach()` (lesson 06), also shares memory, but it shares the tensor's
# *version counter* too: autograd notices the change and stops you instead of lying.

# %%
# %%both b
b = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
s = b.sigmoid()
s.detach().zero_()
s.sum().backward()

# %% [markdown]
# So: prefer `with torch.no_grad():` to change values, and `detach()` to get a tensor outside
# the graph. Use `.data` only when you know nothing saved for backward is affected.
#
# ## 7. Freezing layers with `requires_grad=False`
#
# Fine-tuning often keeps the first layers of a pretrained model fixed and trains only the
# last ones. To freeze a parameter, set `requires_grad=False` on it. It then becomes a
# constant to autograd: no gradient is computed for it, and the optimiser leaves it alone.
#
# Our model is two `Linear` layers with a `tanh` between. [`nn.Linear`](https://docs.pytorch.org/docs/stable/generated/torch.nn.Linear.html) starts from random
# weights; we set them by hand instead (under `no_grad`, of course), so that the numbers
# below are easy to follow.

# %%
# %%both loss
model = torch.nn.Sequential(torch.nn.Linear(2, 2), torch.nn.Tanh(), torch.nn.Linear(2, 1))
with torch.no_grad():
    model[0].weight.copy_(torch.tensor([[0.5, -0.3], [0.8, 0.2]]))
    model[0].bias.copy_(torch.tensor([0.2, -0.1]))
    model[2].weight.copy_(torch.tensor([[1.0, -1.0]]))
    model[2].bias.fill_(0.0)

for p in model[0].parameters():      # freeze the first layer
    p.requires_grad_(False)

inputs = torch.tensor([[1.0, 2.0]])
loss = model(inputs).pow(2).sum()
loss.backward()
for name, p in model.named_parameters():
    print(f"{name:9s} requires_grad={p.requires_grad!s:5s} grad={p.grad}")

# %% [markdown]
# Only the second layer got gradients. An optimiser skips parameters whose `.grad` is `None`,
# so one SGD step changes the second layer and leaves the first one as it was:

# %%
# %%both
opt = torch.optim.SGD(model.parameters(), lr=0.1)
opt.step()
print(model[0].weight)
print(model[2].weight)

# %% [markdown]
# The graph shows why it is cheaper: the frozen layer's weight and bias are not in it at all,
# and neither is the `tanh`: nothing before the second layer needs a gradient, so nothing
# there was recorded.
# Here is minigrad's graph (left) next to torch's (right); they are the same. A `Linear` layer
# on a 2-D input is one fused operation, `addmm` (bias plus matrix product), so it appears as
# a single `AddmmBackward0` node. Its inputs are the bias, the layer's input (the `tanh`'s
# output, which needs no gradient here, so that edge is empty) and the transposed weight
# (`TBackward0`).

# %%
viz.show(viz.side_by_side(compare.get("loss"), compare.get("loss", "torch"),
                          params=dict(compare.get("model").named_parameters()),
                          torch_params=dict(compare.get("model", "torch").named_parameters())))

# %% [markdown]
# ### Try it: recording and freezing
#
# The widget builds the same little model with minigrad and draws the graph of its loss with
# values and gradients. Move the input, switch recording off (as if inside `no_grad`), or
# unfreeze the first layer and watch its parameters join the graph.
#
# *(The next cell's code is folded away, since it is only plumbing: click the three dots to read it.)*

# %% jupyter={"source_hidden": true}
W1 = [[0.5, -0.3], [0.8, 0.2]]
B1 = [0.2, -0.1]
W2 = [[1.0, -1.0]]


def draw_model(change=None):
    x0, grad_enabled, freeze_first = x0_slider.value, record_box.value, freeze_box.value
    nn = minigrad.nn
    net = nn.Sequential(nn.Linear(2, 2), nn.Tanh(), nn.Linear(2, 1))
    with minigrad.no_grad():
        net[0].weight.copy_(minigrad.tensor(W1))
        net[0].bias.copy_(minigrad.tensor(B1))
        net[2].weight.copy_(minigrad.tensor(W2))
        net[2].bias.fill_(0.0)
    for p in net[0].parameters():
        p.requires_grad_(not freeze_first)
    with minigrad.set_grad_enabled(grad_enabled):
        out = net(minigrad.tensor([[x0, 2.0]])).pow(2).sum()
    if not out.requires_grad:
        view.value = (f"<pre>loss = {out.item():.4f}: nothing was recorded (requires_grad=False),"
                      "\nso there is no graph to draw and no backward to run.</pre>")
        return
    out.backward()
    dot = viz.make_dot(out, params=dict(net.named_parameters(), loss=out), show_values=True)
    view.value = dot.pipe(format="svg").decode()


x0_slider = widgets.FloatSlider(value=1.0, min=-2.0, max=2.0, step=0.1, description="input[0]")
record_box = widgets.Checkbox(value=True, description="recording on")
freeze_box = widgets.Checkbox(value=True, description="freeze layer 0")
view = widgets.HTML()
for control in (x0_slider, record_box, freeze_box):
    control.observe(draw_model, names="value")
draw_model()
widgets.VBox([widgets.HBox([x0_slider, record_box, freeze_box]), view])

# %% [markdown]
# ## 8. Look inside: the grad-mode switch
#
# In minigrad the whole mechanism is one global flag, `_state.enabled`. `no_grad` and its
# siblings are small context managers that set it on entry and restore the old value on exit:

# %%
import inspect
from minigrad.autograd import grad_mode
print(inspect.getsource(grad_mode._GradMode.__enter__))
print(inspect.getsource(grad_mode._GradMode.__exit__))
print(inspect.getsource(grad_mode.no_grad))
print(inspect.getsource(grad_mode.enable_grad))

# %% [markdown]
# The flag is read in exactly one place: every operation asks `needs_grad` before it creates a
# backward node. If recording is off (or inference mode is on), the answer is no, whatever the
# inputs' `requires_grad` says, and the result is a plain tensor:

# %%
from minigrad._ops import _core
print(inspect.getsource(grad_mode.is_recording))
print(inspect.getsource(_core.needs_grad))

# %% [markdown]
# This also explains why the decorators work: `_GradMode.__call__` wraps the function in a
# `with` of a fresh copy of the mode.
#
# ## Where minigrad differs from torch
#
# * `inference_mode` in minigrad only marks tensors and turns recording off; it does not make
#   anything faster (there is no bookkeeping to skip).
# * A detail you will probably never meet: when `t.add_(1)` on an inference tensor raises,
#   torch has already changed `t`'s values; minigrad raises before changing them.
# * Messages say `minigrad.` where torch says `torch.`; the `%%both` check ignores that.
#
# ## Self-check
#
# 1. Inside `with torch.no_grad():` you write `w = torch.ones(3, requires_grad=True)` and
#    `v = w * 2`. Which of `w`, `v` requires grad?
# 2. What is printed by
#    `with torch.no_grad(): with torch.enable_grad(): print(torch.is_grad_enabled())`?
# 3. Why does a training loop update weights inside `torch.no_grad()`? Give two reasons.
# 4. `x.data.mul_(2)` and `x.detach().mul_(2)` both double `x`. When does the difference
#    matter?
# 5. You freeze a layer with `requires_grad_(False)` but still pass all parameters to the
#    optimiser. Does the frozen layer change after `opt.step()`?
#
# <details><summary>Answers</summary>
#
# 1. `w` does (a leaf created with `requires_grad=True`); `v` does not (an operation result
#    inside `no_grad`).
# 2. `True`: the inner block turns recording back on.
# 3. The update must not become part of the graph (it is not part of the model's function and
#    would make the graph grow every step), and torch refuses in-place changes of a leaf that
#    requires grad while recording.
# 4. When something saved for backward shares that memory: through `detach()` the change
#    bumps the version counter and backward raises; through `.data` it does not, and backward
#    silently uses the changed values.
# 5. Not while its `.grad` is `None`: optimisers skip parameters without a gradient. But
#    freezing does not clear a `.grad` left from earlier steps. With the default
#    `opt.zero_grad()` (which sets `.grad` to `None`) the layer stays put; with
#    `zero_grad(set_to_none=False)` its `.grad` is a tensor of zeros, and an optimiser with
#    momentum (its stored velocity) or weight decay (`weight_decay * p` is added to the
#    gradient) still moves it. To be sure, set `p.grad = None` when you freeze.
#
# </details>
#
# **Exercises:** `exercises/05_pausing_the_graph.ipynb`.
# **Next:** lesson 06, `detach()` and `clone()`.
