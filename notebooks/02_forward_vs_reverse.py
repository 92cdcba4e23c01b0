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
# # Lesson 02 — Forward mode vs reverse mode
#
# The chain rule can be applied in two orders: from the inputs towards the output (**forward
# mode**) or from the output back towards the inputs (**reverse mode**). Both give the same
# numbers; they differ in how much work they need to get *all* the derivatives.
#
# **Goals.** After this lesson you can
#
# * differentiate a small function by hand both ways: forward mode pushes *tangents* from
#   the inputs, reverse mode pulls *adjoints* from the output;
# * do the same with the engines: `torch.autograd.forward_ad` for forward mode, `backward()`
#   for reverse mode;
# * explain, with a count of passes, why deep learning uses reverse mode;
# * build whole Jacobians both ways with `torch.autograd.functional.jacobian`.
#
# **Time:** about 35 minutes.

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
# ## 1. The function and its graph
#
# We study one function of two inputs,
#
# $$f(x_1, x_2) = \log(x_1 x_2)\,\sin(x_1 x_2),$$
#
# at the point $x_1 = 1,\ x_2 = 2$. Split into elementary steps, as the engine sees it:
#
# $$y_1 = x_1 x_2, \qquad y_2 = \log y_1, \qquad y_3 = \sin y_1, \qquad z = y_2\, y_3.$$
#
# Computing these in order, from the inputs to the output, is the **forward pass**. Every
# derivative below, in either mode, needs the values it produces.

# %%
# %%both x1 x2 y1 y2 y3 z
x1 = torch.tensor(1.0, requires_grad=True)
x2 = torch.tensor(2.0, requires_grad=True)
y1 = x1 * x2
y2 = torch.log(y1)
y3 = torch.sin(y1)
z = y2 * y3
print(f"y1 = {y1.item():.4f}, y2 = {y2.item():.4f}, y3 = {y3.item():.4f}, z = {z.item():.4f}")

# %%
names = ("x1", "x2", "y1", "y2", "y3")
viz.show(viz.make_dot(compare.get("z"), params={k: compare.get(k) for k in names},
                      show_values=True))

# %% [markdown]
# `y1` fans out: it feeds both `log` and `sin`. Keep that in mind; it is where both modes
# have to add two contributions.

# %% [markdown]
# ## 2. Forward mode by hand: tangents
#
# Forward mode picks a **direction** in input space, $(\dot x_1, \dot x_2)$, and asks how fast
# every intermediate value moves when the inputs move that way. That rate is the value's
# **tangent**, written with a dot. To get $\partial z/\partial x_1$, move $x_1$ only:
# $\dot x_1 = 1,\ \dot x_2 = 0$. Then walk the steps in the forward order, applying each step's
# local derivative to the tangents of its inputs:
#
# $$
# \begin{aligned}
# \dot y_1 &= \dot x_1\, x_2 + x_1\, \dot x_2 \\
# \dot y_2 &= \dot y_1 / y_1 \\
# \dot y_3 &= \cos(y_1)\, \dot y_1 \\
# \dot z &= \dot y_2\, y_3 + y_2\, \dot y_3
# \end{aligned}
# $$
#
# Each tangent is computed right next to its value, so the values can be forgotten as soon as
# the next step has used them. Plain Python does the arithmetic:

# %%
import math

a1, a2 = 1.0, 2.0                      # the point (x1, x2)
v1 = a1 * a2                           # the forward pass: y1, y2, y3, z
v2, v3 = math.log(v1), math.sin(v1)


def forward_mode(d1, d2):
    """Tangents of y1, y2, y3, z for the input direction (d1, d2)."""
    t1 = d1 * a2 + a1 * d2
    t2 = t1 / v1
    t3 = math.cos(v1) * t1
    tz = t2 * v3 + v2 * t3
    return t1, t2, t3, tz


t1, t2, t3, tz = forward_mode(1.0, 0.0)
print(f"direction (1, 0): y1' = {t1:.4f}, y2' = {t2:.4f}, y3' = {t3:.4f}, z' = {tz:.4f}")
print(f"  z' = y2' * y3 + y2 * y3' = {t2 * v3:.4f} + ({v2 * t3:.4f}) = {tz:.4f}")

# %% [markdown]
# So $\partial z/\partial x_1 = 0.3324$. The two terms of the last line are the two paths
# from `y1` to `z`: 0.9093 through `log`, −0.5769 through `sin`.
#
# One forward pass gave the derivative along **one** direction. For $\partial z/\partial x_2$
# we need a second pass, with the direction $(0, 1)$:

# %%
t1, t2, t3, tz = forward_mode(0.0, 1.0)
print(f"direction (0, 1): y1' = {t1:.4f}, y2' = {t2:.4f}, y3' = {t3:.4f}, z' = {tz:.4f}")

# %% [markdown]
# ## 3. Reverse mode by hand: adjoints
#
# Reverse mode starts at the output and asks the opposite question: how much does $z$ move
# when each intermediate value moves? That sensitivity is the value's **adjoint**, written
# with a bar: $\bar v = \partial z / \partial v$. Start with $\bar z = 1$ and walk the steps
# backwards. A value used in several places (here $y_1$) adds up the adjoints coming back
# from each use:
#
# $$
# \begin{aligned}
# \bar y_2 &= \bar z\, y_3, \qquad \bar y_3 = \bar z\, y_2 \\
# \bar y_1 &= \bar y_2 / y_1 + \bar y_3 \cos(y_1) \\
# \bar x_1 &= \bar y_1\, x_2, \qquad \bar x_2 = \bar y_1\, x_1
# \end{aligned}
# $$
#
# The backward walk needs $y_1, y_2, y_3$, which were computed in the forward pass: reverse
# mode must **store** the forward pass before it can start. That is the graph and its saved
# tensors from lesson 01.

# %%
zbar = 1.0
y2bar, y3bar = zbar * v3, zbar * v2
y1bar = y2bar / v1 + y3bar * math.cos(v1)
x1bar, x2bar = y1bar * a2, y1bar * a1
print(f"adjoints: y3 = {y3bar:.4f}, y2 = {y2bar:.4f}, y1 = {y1bar:.4f}")
print(f"dz/dx1 = {x1bar:.4f}, dz/dx2 = {x2bar:.4f}")

# %% [markdown]
# **One** backward pass gave **both** partial derivatives. That is the whole difference:
#
# * forward mode: one pass per **input** direction, each giving the derivative of every output;
# * reverse mode: one pass per **output**, each giving the derivative with respect to every input.

# %% [markdown]
# ## 4. Reverse mode with the engines: `backward()`
#
# `backward()` is reverse mode. To see the adjoints of the intermediate values too, ask the
# engine to keep them with `retain_grad()` (lesson 04 covers it): by default only leaves get
# a `.grad`.

# %%
# %%both x1 x2 y1 y2 y3 z
for t in (y1, y2, y3):
    t.retain_grad()
z.backward()
print(f"dz/dx1 = {x1.grad.item():.4f}, dz/dx2 = {x2.grad.item():.4f}")
print(f"adjoints: y1 = {y1.grad.item():.4f}, y2 = {y2.grad.item():.4f}, "
      f"y3 = {y3.grad.item():.4f}")

# %% [markdown]
# The same numbers as by hand, and the same on both engines. The drawing now shows each
# adjoint in blue next to its value:

# %%
viz.show(viz.make_dot(compare.get("z"), params={k: compare.get(k) for k in names},
                      show_values=True))

# %% [markdown]
# If no input requires a gradient, there is no graph to walk back through. This is the error
# you get:

# %%
# %%both
u1 = torch.tensor(1.0)
u2 = torch.tensor(2.0)
w = torch.log(u1 * u2) * torch.sin(u1 * u2)
w.backward()

# %% [markdown]
# ## 5. Forward mode with the engines: `forward_ad`
#
# Forward mode lives in `torch.autograd.forward_ad`. Three functions do it:
#
# * `dual_level()`: a `with` block inside which tensors can carry tangents;
# * `make_dual(x, tangent)`: `x` together with its tangent, a **dual tensor**;
# * `unpack_dual(t)`: the pair `(primal, tangent)` of any tensor computed from dual tensors.
#
# Every operation on a dual tensor computes the output's value *and* its tangent, in the same
# pass. No graph is needed, so the inputs need not require grad.
#
# One thing to know first: the first time torch's forward AD runs in a process, torch 2.13
# itself emits a batch of `DeprecationWarning`s about `torch.jit.script` (it compiles a few
# helpers). They say nothing about your code. The next cell triggers that once, quietly, so
# the checked cells below compare only what matters.

# %%
import warnings

import torch.autograd.forward_ad as fwAD

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    with fwAD.dual_level():
        fwAD.make_dual(torch.tensor(1.0), torch.tensor(1.0))

# %%
# %%both x1 x2 dz_dx1
import torch.autograd.forward_ad as fwAD

x1 = torch.tensor(1.0)
x2 = torch.tensor(2.0)
with fwAD.dual_level():
    d1 = fwAD.make_dual(x1, torch.tensor(1.0))   # move x1 ...
    d2 = fwAD.make_dual(x2, torch.tensor(0.0))   # ... and not x2
    y1 = d1 * d2
    y2 = torch.log(y1)
    y3 = torch.sin(y1)
    z = y2 * y3
    print(d1)
    for name, t in (("y1", y1), ("y2", y2), ("y3", y3), ("z", z)):
        print(name, fwAD.unpack_dual(t))
    dz_dx1 = fwAD.unpack_dual(z).tangent

# %% [markdown]
# Inside the level, a dual tensor prints its tangent next to its value. The tangents are the
# ones we computed by hand: 2, 1, −0.8323 and 0.3324.
#
# A tangent belongs to its level. Once the `with` block ends, the same tensor has none:

# %%
# %%both
print(fwAD.unpack_dual(z))

# %% [markdown]
# And a dual tensor can only be made inside a level, with a tangent of the same shape:

# %%
# %%both
fwAD.make_dual(torch.tensor(1.0), torch.tensor(1.0))

# %%
# %%both
with fwAD.dual_level():
    fwAD.make_dual(torch.tensor(1.0), torch.tensor([1.0, 0.0]))

# %% [markdown]
# A tangent can point in any direction, not only along an axis. With the direction $(1, 1)$
# one pass gives $\partial z/\partial x_1 + \partial z/\partial x_2$: the **directional
# derivative**, or Jacobian-vector product (JVP). Forward mode computes one JVP per pass.

# %%
# %%both jvp
with fwAD.dual_level():
    d1 = fwAD.make_dual(x1, torch.tensor(1.0))
    d2 = fwAD.make_dual(x2, torch.tensor(1.0))
    s = d1 * d2
    jvp = fwAD.unpack_dual(torch.log(s) * torch.sin(s)).tangent
print(f"dz/dx1 + dz/dx2 = {jvp.item():.4f}")

# %% [markdown]
# ### Look inside: one rule per operation, two ways
#
# For each operation minigrad's node class has a backward formula (reverse mode, `backward`)
# and a tangent rule (forward mode, `jvp`), side by side, right under the op in
# `minigrad/_ops/`. For `sin`, backward multiplies the incoming *adjoint* by cos(x); forward
# multiplies the incoming *tangent* by cos(x):

# %%
import inspect
from minigrad._ops import pointwise
from minigrad.autograd import forward_grad

print(inspect.getsource(pointwise.SinBackward0))
print(inspect.getsource(pointwise.LogBackward0))

# %% [markdown]
# And this is where every recorded operation hands its output a tangent while a level is
# active: gather the inputs' tangents, apply the op's rule.

# %%
print(inspect.getsource(forward_grad.propagate))

# %% [markdown]
# ## 6. Why deep learning uses reverse mode
#
# Take a function with $n$ inputs and $m$ outputs. Its full set of first derivatives is the
# **Jacobian**, an $m \times n$ matrix.
#
# * Forward mode gets one **column** per pass (the tangent direction is one input axis):
#   $n$ passes.
# * Reverse mode gets one **row** per pass (the starting adjoint is one output axis):
#   $m$ passes.
#
# Training a network means differentiating **one** number, the loss ($m = 1$), with respect
# to every parameter ($n$ in the millions). Reverse mode does it in one backward pass, which
# costs a small multiple of the forward pass; forward mode would need a pass per parameter.
# The price of reverse mode is memory: the forward pass must be stored until backward runs.
#
# Let us count the passes for real. The next cell writes both loops out: `jacobian_by_forward`
# runs one dual pass per input, `jacobian_by_reverse` one `autograd.grad` call per output (the
# one-hot `grad_outputs` picks the row). Both return the Jacobian and the number of passes.

# %%
# %%both J_rev J_fwd
def jacobian_by_forward(f, x):
    columns = []
    for j in range(x.numel()):
        direction = torch.zeros(x.numel())
        direction[j] = 1.0
        with fwAD.dual_level():
            y = f(fwAD.make_dual(x, direction))
            columns.append(fwAD.unpack_dual(y).tangent)
    return torch.stack(columns, dim=1), x.numel()


def jacobian_by_reverse(f, x):
    x = x.detach().requires_grad_()
    y = f(x)
    rows = []
    for i in range(y.numel()):
        pick = torch.zeros(y.numel())
        pick[i] = 1.0
        (row,) = torch.autograd.grad(y, x, grad_outputs=pick, retain_graph=True)
        rows.append(row)
    return torch.stack(rows), y.numel()


W = torch.tensor(same_random(3, 4))    # a small layer: 4 inputs, 3 outputs


def layer(x):
    return torch.tanh(W @ x)


x = torch.tensor([1.0, -1.0, 0.5, 2.0])
J_fwd, passes_fwd = jacobian_by_forward(layer, x)
J_rev, passes_rev = jacobian_by_reverse(layer, x)
print(J_rev)
print("same Jacobian:", torch.allclose(J_fwd, J_rev))
print("forward-mode passes:", passes_fwd, " reverse-mode passes:", passes_rev)

# %% [markdown]
# Now grow the layer. Left: one output (a loss) and more and more inputs. Right: one input and
# more and more outputs. The counts come from running the two functions above on minigrad.

# %%
jac_fwd = compare.get("jacobian_by_forward")
jac_rev = compare.get("jacobian_by_reverse")
rng = np.random.default_rng(0)


def count_passes(n_in, n_out):
    Wk = minigrad.tensor(rng.standard_normal((n_out, n_in)).astype(np.float32))
    f = lambda v: minigrad.tanh(Wk @ v)  # noqa: E731
    v = minigrad.tensor(rng.standard_normal(n_in).astype(np.float32))
    Jf, pf = jac_fwd(f, v)
    Jr, pr = jac_rev(f, v)
    assert np.allclose(Jf.numpy(), Jr.numpy(), atol=1e-5)
    return pf, pr


sizes = [1, 2, 4, 8, 16, 32, 64]
by_inputs = [count_passes(n, 1) for n in sizes]
by_outputs = [count_passes(1, m) for m in sizes]

fig, axes = plt.subplots(1, 2, figsize=(10, 3.6))
for ax, counts, label in ((axes[0], by_inputs, "number of inputs n (one output)"),
                          (axes[1], by_outputs, "number of outputs m (one input)")):
    ax.plot(sizes, [c[0] for c in counts], "o-", label="forward mode")
    ax.plot(sizes, [c[1] for c in counts], "s--", label="reverse mode")
    ax.set_xlabel(label)
    ax.set_ylabel("passes for the full Jacobian")
    ax.legend()
axes[0].set_title("a loss of many parameters: reverse wins")
axes[1].set_title("many outputs of one input: forward wins")
fig.tight_layout()
plt.show()
print("one output :", by_inputs)
print("one input  :", by_outputs)

# %% [markdown]
# ### Try it: choose the shape
#
# Move the sliders to set the number of inputs and outputs of the layer `tanh(W x)`. The
# widget runs both loops on minigrad, checks that the two Jacobians agree, and plots how many
# passes each mode needed. The cheaper mode is the one whose count is the smaller of $n$ and
# $m$.

# %%
import io


def passes_png(n_in, n_out):
    pf, pr = count_passes(n_in, n_out)
    fig, ax = plt.subplots(figsize=(5, 2.6))
    bars = ax.barh(["reverse mode", "forward mode"], [pr, pf], color=["tab:orange", "tab:blue"])
    ax.bar_label(bars)
    ax.set_xlim(0, 33)
    ax.set_xlabel("passes")
    ax.set_title(f"Jacobian {n_out} x {n_in}: "
                 + ("reverse" if pr < pf else "forward" if pf < pr else "either") + " is cheaper")
    fig.tight_layout()
    buffer = io.BytesIO()
    fig.savefig(buffer, format="png")
    plt.close(fig)
    return buffer.getvalue()


n_slider = widgets.IntSlider(value=8, min=1, max=32, description="inputs n")
m_slider = widgets.IntSlider(value=1, min=1, max=32, description="outputs m")
chart = widgets.Image(value=passes_png(8, 1), format="png")


def redraw(change):
    chart.value = passes_png(n_slider.value, m_slider.value)


n_slider.observe(redraw, names="value")
m_slider.observe(redraw, names="value")
widgets.VBox([widgets.HBox([n_slider, m_slider]), chart])

# %% [markdown]
# ## 7. Jacobians with `torch.autograd.functional.jacobian`
#
# You rarely write those loops yourself: `torch.autograd.functional.jacobian(f, x)` builds the
# Jacobian, and its `strategy` argument picks the mode, `"reverse-mode"` (the default) or
# `"forward-mode"`. For our function of two inputs, pass them as one vector:

# %%
# %%both J_f
from torch.autograd.functional import jacobian


def f(x):
    y1 = x[0] * x[1]
    return torch.log(y1) * torch.sin(y1)


x = torch.tensor([1.0, 2.0])
J_f = jacobian(f, x)
print(J_f)

# %% [markdown]
# For the layer of section 6 both strategies give the same 3 × 4 matrix. torch insists on
# `vectorize=True` with forward mode (it batches the passes with `vmap`):

# %%
# %%both J_rev J_fwd
J_rev = jacobian(layer, torch.tensor([1.0, -1.0, 0.5, 2.0]), strategy="reverse-mode")
J_fwd = jacobian(layer, torch.tensor([1.0, -1.0, 0.5, 2.0]), strategy="forward-mode",
                 vectorize=True)
print(J_fwd)
print("same Jacobian:", torch.allclose(J_fwd, J_rev))

# %% [markdown]
# Forget `vectorize=True` and torch refuses (its message really does say "isonly"):

# %%
# %%both
jacobian(layer, torch.tensor([1.0, -1.0, 0.5, 2.0]), strategy="forward-mode")

# %% [markdown]
# **Where minigrad differs.** minigrad accepts `vectorize=True` but does not batch anything:
# it simply loops, one pass per input element (forward mode) or per output element (reverse
# mode), like our functions of section 6. The results are the same; only the speed differs.
# Its forward AD supports one `dual_level` at a time (torch does not nest them either,
# yet).
#
# ## Summary
#
# * Forward mode pushes tangents from the inputs: one pass per input direction gives the
#   derivatives of every output along it (a column of the Jacobian, a JVP).
# * Reverse mode pulls adjoints from the output: one pass per output gives its derivatives
#   with respect to every input (a row of the Jacobian), but the forward pass must be stored.
# * In both, a value used twice adds up two contributions (here `y1`: 0.9093 − 0.5769).
# * Deep learning differentiates one loss with respect to millions of parameters, so it uses
#   reverse mode: `backward()`.
# * `torch.autograd.forward_ad` (`dual_level`, `make_dual`, `unpack_dual`) is forward mode;
#   `torch.autograd.functional.jacobian(..., strategy=...)` builds Jacobians either way.
#
# ## Self-check
#
# 1. At $(x_1, x_2) = (1, 2)$, how many forward-mode passes and how many reverse-mode passes
#    give both $\partial z/\partial x_1$ and $\partial z/\partial x_2$?
#
# <details><summary>Answer</summary>
#
# Two forward passes (directions (1, 0) and (0, 1)), one reverse pass (starting from
# $\bar z = 1$).
# </details>
#
# 2. Which mode needs to keep all the intermediate values until the end, and why?
#
# <details><summary>Answer</summary>
#
# Reverse mode. It walks the steps backwards, after the forward pass has finished, and each
# local derivative needs the values of that step ($y_1$ for `log` and `sin`, $y_2$ and $y_3$
# for the product). Forward mode uses each value right after computing it.
# </details>
#
# 3. A function maps 3 inputs to 1000 outputs. Which `strategy` would you pass to `jacobian`?
#
# <details><summary>Answer</summary>
#
# `"forward-mode"` (with `vectorize=True`): 3 passes instead of 1000.
# </details>
#
# 4. With `make_dual(x1, 1.)` and `make_dual(x2, 1.)` you get 0.4986. What is that number?
#
# <details><summary>Answer</summary>
#
# The directional derivative along (1, 1): $\partial z/\partial x_1 + \partial z/\partial x_2
# = 0.3324 + 0.1662$. One forward pass gives one Jacobian-vector product.
# </details>
#
# 5. Why does `w.backward()` fail when `u1` and `u2` were made without `requires_grad=True`?
#
# <details><summary>Answer</summary>
#
# Nothing required a gradient, so no graph was recorded: `w` has no `grad_fn` and there is
# nothing for reverse mode to walk back through.
# </details>
#
# **Exercises:** `exercises/02_forward_vs_reverse.ipynb`.
