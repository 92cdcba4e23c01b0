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
# # 02 · Forward mode vs reverse mode
#
# The chain rule can be applied in two orders: from the inputs towards the output (**forward
# mode**) or from the output back towards the inputs (**reverse mode**). Both give the same
# numbers; they differ in how much work they need to get *all* the derivatives.
#
# **Goals.** After this lesson you can
#
# * differentiate a small function by hand both ways: forward mode pushes *tangents* from
#   the inputs, reverse mode pulls *adjoints* from the output;
# * do the same with the engines: [`torch.autograd.forward_ad`](https://docs.pytorch.org/docs/stable/autograd.html#forward-mode-automatic-differentiation) for forward mode, [`backward()`](https://docs.pytorch.org/docs/stable/generated/torch.Tensor.backward.html)
#   for reverse mode;
# * explain, with the engine's own count of node calls and with timings, why deep learning
#   uses reverse mode;
# * build whole Jacobians both ways with [`torch.autograd.functional.jacobian`](https://docs.pytorch.org/docs/stable/generated/torch.autograd.functional.jacobian.html).
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
# engine to keep them with [`retain_grad()`](https://docs.pytorch.org/docs/stable/generated/torch.Tensor.retain_grad.html) (lesson 04 covers it): by default only leaves get
# a `.grad`.

# %%
# %%both x1 x2 y1 y2 y3 z
for t in (y1, y2, y3):
    t.retain_grad()
z.backward()
print(f"dz/dx1 = {x1.grad.item():.4f}, dz/dx2 = {x2.grad.item():.4f}")
print(f"adjoints: y1 = {y1.grad.item():.4f}, y2 = {y2.grad.item():.4f}, y3 = {y3.grad.item():.4f}")

# %% [markdown]
# The same numbers as by hand, and the same on both engines. ([`.item()`](https://docs.pytorch.org/docs/stable/generated/torch.Tensor.item.html)
# turns the float32 result into a Python float. Printed in full, `x1.grad.item()` shows 17
# digits, such as 0.33239537477493286, of which float32 holds only about seven; the exact value
# is $0.3323954139\ldots$. The last of those seven can differ from one computer to another:
# torch's float32 `log`, `sin` and `cos` are accurate to one float32 step (one *ulp*), not
# always to the nearest float32 number, and which of the two nearest they return depends on
# the CPU. The gradient, built from them, can then differ by a few steps, in its seventh or
# eighth digit. So the course prints four digits, which every CPU agrees on.) The drawing now
# shows each adjoint in blue next to its value:

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
# * [`dual_level()`](https://docs.pytorch.org/docs/stable/generated/torch.autograd.forward_ad.dual_level.html): a `with` block inside which tensors can carry tangents;
# * [`make_dual(x, tangent)`](https://docs.pytorch.org/docs/stable/generated/torch.autograd.forward_ad.make_dual.html): `x` together with its tangent, a **dual tensor**;
# * [`unpack_dual(t)`](https://docs.pytorch.org/docs/stable/generated/torch.autograd.forward_ad.unpack_dual.html): the pair `(primal, tangent)` of any tensor computed from dual tensors.
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
# Let us measure instead of counting on paper. The next cell writes both loops out:
# `jacobian_by_forward` runs one dual pass per input, `jacobian_by_reverse` one
# [`autograd.grad`](https://docs.pytorch.org/docs/stable/generated/torch.autograd.grad.html) call per output (the one-hot `grad_outputs` picks the row). To see what the
# engine really does, `jacobian_by_reverse` puts a pre-hook
# ([`Node.register_prehook`](https://docs.pytorch.org/docs/stable/generated/torch.autograd.graph.Node.register_prehook.html))
# on every node of the graph: the engine calls it each time it is about to run that node, so
# the list `calls` is the engine's own record of the backward work, not our guess.

# %%
# %%both J_rev J_fwd
def graph_nodes(output):
    """Every node reachable from output.grad_fn, each once."""
    nodes, todo = [], [output.grad_fn]
    while todo:
        node = todo.pop()
        if node is not None and node not in nodes:
            nodes.append(node)
            todo.extend(next_node for next_node, _ in node.next_functions)
    return nodes


def jacobian_by_forward(f, x):
    columns = []
    for j in range(x.numel()):
        direction = torch.zeros(x.numel())
        direction[j] = 1.0
        with fwAD.dual_level():
            y = f(fwAD.make_dual(x, direction))
            columns.append(fwAD.unpack_dual(y).tangent)
    return torch.stack(columns, dim=1), y.grad_fn


def jacobian_by_reverse(f, x):
    x = x.detach().requires_grad_()
    y = f(x)
    calls = []                                    # one entry per node the engine runs
    handles = [node.register_prehook(lambda grads, node=node: calls.append(node.name()))
               for node in graph_nodes(y)]
    rows = []
    for i in range(y.numel()):
        pick = torch.zeros(y.numel())
        pick[i] = 1.0
        (row,) = torch.autograd.grad(y, x, grad_outputs=pick, retain_graph=True)
        rows.append(row)
    for handle in handles:
        handle.remove()
    return torch.stack(rows), calls


W = torch.tensor(same_random(3, 4))    # a small layer: 4 inputs, 3 outputs


def layer(x):
    return torch.tanh(W @ x)


x = torch.tensor([1.0, -1.0, 0.5, 2.0])
J_fwd, last_grad_fn = jacobian_by_forward(layer, x)
J_rev, calls = jacobian_by_reverse(layer, x)
print(J_rev)
print("same Jacobian:", torch.allclose(J_fwd, J_rev))
print("forward mode: the output of a dual pass has grad_fn", last_grad_fn)
print(f"reverse mode: {len(calls)} node calls, in order:", calls)

# %% [markdown]
# Forward mode recorded no graph at all (`grad_fn` is `None`): its work is the 4 dual passes
# themselves, each as long as the forward pass. Reverse mode ran `TanhBackward0` and
# `MvBackward0` once per output row, 3 times. (`AccumulateGrad`, the node of the leaf `x`, is in
# the graph but never runs: `autograd.grad` hands the gradient back to us instead of adding it
# into `x.grad`.)
#
# Now grow the layer: one output and more and more inputs, then one input and more and more
# outputs. Both engines count their node calls:

# %%
# %%both
def tanh_layer(n_in, n_out):
    weight = torch.tensor(same_random(n_out, n_in))
    return lambda v: torch.tanh(weight @ v)


widths = [1, 2, 4, 8, 16, 32]
one_output = [len(jacobian_by_reverse(tanh_layer(n, 1), torch.ones(n))[1]) for n in widths]
one_input = [len(jacobian_by_reverse(tanh_layer(1, m), torch.ones(1))[1]) for m in widths]
print("widths:                                 ", widths)
print("reverse-mode node calls, 1 output, n inputs: ", one_output)
print("reverse-mode node calls, 1 input, m outputs: ", one_input)

# %% [markdown]
# With one output, reverse mode runs the same two nodes whatever the number of inputs: one
# backward pass gives the whole gradient. With $m$ outputs it runs them $m$ times.
#
# Counts are not seconds, so here are the seconds too. The next cell times both loops on both
# engines (the best of five runs per point, since a busy machine adds noise) and plots them.
# Timings change from run to run, so they go into the plot only.
#
# *(The next cell's code is folded away, since it is only plumbing: click the three dots to read it.)*

# %% jupyter={"source_hidden": true}
import time


def best_time(jacobian_fn, f, x, repeats=5):
    best = float("inf")
    for _ in range(repeats):
        start = time.perf_counter()
        jacobian_fn(f, x)
        best = min(best, time.perf_counter() - start)
    return best


fig, axes = plt.subplots(1, 2, figsize=(11, 3.8), sharey=True)
for ax, shape, label in ((axes[0], lambda k: (k, 1), "number of inputs n (one output)"),
                         (axes[1], lambda k: (1, k), "number of outputs m (one input)")):
    for engine, T in (("torch", torch), ("minigrad", minigrad)):
        by_fwd = compare.get("jacobian_by_forward", engine)
        by_rev = compare.get("jacobian_by_reverse", engine)
        rng = np.random.default_rng(0)
        times = {"forward": [], "reverse": []}
        for k in widths:
            n_in, n_out = shape(k)
            weight = T.tensor(rng.standard_normal((n_out, n_in)).astype(np.float32))
            f = lambda v, weight=weight, T=T: T.tanh(weight @ v)  # noqa: E731
            v = T.ones(n_in)
            times["forward"].append(1000 * best_time(by_fwd, f, v))
            times["reverse"].append(1000 * best_time(by_rev, f, v))
        for mode, style in (("forward", "o-"), ("reverse", "s--")):
            ax.plot(widths, times[mode], style, label=f"{engine}, {mode} mode")
    ax.set(xlabel=label, ylabel="time for the full Jacobian (ms)")
    ax.legend(fontsize=8)
axes[0].set_title("a loss of many parameters: reverse wins")
axes[1].set_title("many outputs of one input: forward wins")
fig.tight_layout()
plt.show()

# %% [markdown]
# ### Try it: choose the shape
#
# Move the sliders to set the number of inputs and outputs of the layer `tanh(W x)`. The
# widget runs both loops on minigrad, checks that the two Jacobians agree, and shows the
# measured time of each mode, with reverse mode's node calls as the engine counted them. The
# cheaper mode is the one whose side of the Jacobian is shorter: $n$ for forward, $m$ for
# reverse. (The plumbing of the widget is in `coursekit/widgets.py`.)

# %%
from coursekit import widgets as course_widgets

course_widgets.jacobian_cost_widget(compare.get("jacobian_by_forward"),
                                    compare.get("jacobian_by_reverse"))

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
# Like torch's, its forward AD supports one `dual_level` at a time, and both refuse a nested
# one with the same error:

# %%
# %%both
with torch.autograd.forward_ad.dual_level():
    with torch.autograd.forward_ad.dual_level():
        pass

# %% [markdown]
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
