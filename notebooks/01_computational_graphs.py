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
# # 01 · Computational graphs: forward and backward passes
#
# A computation such as `z = x*x + sin(2*y)` is a small **graph**: inputs at one end, the
# result at the other, one node per operation. Autograd records this graph while your code
# runs, then walks it backwards to get gradients.
#
# **Goals**
#
# - Run a forward pass by hand (the value of every node) and a backward pass by hand (the
#   gradient of the result with respect to every node), then check both against the engines.
# - Use the chain rule one node at a time, the way [`backward()`](https://docs.pytorch.org/docs/stable/generated/torch.Tensor.backward.html) does.
# - See why gradients **add up** when a value is used in more than one place (fan-out).
# - Tell a **dynamic** graph (PyTorch) from a **static** one.
#
# **Time:** about 25 minutes. **You need:** lesson 00 (how `%%both` and `viz` work).

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
# ## 1. The forward pass
#
# Take
#
# $$ z = x\cdot x + \sin(2y) \qquad\text{at}\qquad x = 4,\; y = \pi. $$
#
# Split it into one operation per step and give every intermediate result a name:
#
# | node | operation | value at x = 4, y = π |
# | --- | --- | --- |
# | `a` | `x * x` | 16 |
# | `u` | `2 * y` | 2π ≈ 6.2832 |
# | `b` | `sin(u)` | sin 2π = 0 |
# | `z` | `a + b` | 16 |
#
# Computing these values from the inputs to the result is the **forward pass**. Here it is
# on both engines:

# %%
# %%both x y a u b z
import math

x = torch.tensor(4.0, requires_grad=True)
y = torch.tensor(math.pi, requires_grad=True)
a = x * x
u = 2 * y
b = torch.sin(u)
z = a + b
print(f"a = {a.item():.4f}, u = {u.item():.4f}, b = {b.item():.4f}, z = {z.item():.4f}")
print(z)

# %% [markdown]
# (`b` is not exactly 0: π stored as a 32-bit float is slightly off, so `sin(2y)` is about
# 1.7·10⁻⁷. Printed with four decimals it is 0.)
#
# While computing, autograd also wrote down **how** each result was made: `z` carries
# `grad_fn=<AddBackward0>`. Here is the graph it recorded (minigrad's copy; the boxes are
# explained in lesson 00). Values are in green:

# %%
def names(engine="minigrad"):
    """The named tensors of this section, from one engine, for the drawing."""
    return {k: compare.get(k, engine) for k in ("x", "y", "a", "u", "b", "z")}


viz.show(viz.make_dot(compare.get("z"), params=names(), show_values=True))

# %% [markdown]
# ## 2. The backward pass, by hand
#
# Now we want the derivatives of `z` with respect to the inputs: how much `z` moves when `x`
# or `y` moves a little. The **backward pass** gets them by starting at the result and
# walking the graph in reverse, one node at a time. Call `g_n` the gradient of `z` with
# respect to node `n`:
#
# 1. `g_z = 1` (z with respect to itself).
# 2. `z = a + b`: a sum passes its gradient on unchanged, so `g_a = 1` and `g_b = 1`.
# 3. `b = sin(u)`: the local derivative is `cos(u)`, so `g_u = g_b · cos(2π) = 1`.
# 4. `u = 2y`: the local derivative is 2, so `g_y = 2 · g_u = 2`.
# 5. `a = x · x`: the product sends `g_a · x = 4` to its first input **and** `g_a · x = 4` to
#    its second. Both inputs are `x`, so `x` receives 4 + 4: `g_x = 8`.
#
# This agrees with the formulas `∂z/∂x = 2x = 8` and `∂z/∂y = 2 cos(2y) = 2`.
#
# `z.backward()` does exactly this. It stores the gradients of the **leaves** (`x` and `y`)
# in their [`.grad`](https://docs.pytorch.org/docs/stable/generated/torch.Tensor.grad.html). For the intermediate nodes it normally throws the gradients away once
# they are used; [`retain_grad()`](https://docs.pytorch.org/docs/stable/generated/torch.Tensor.retain_grad.html) asks it to keep them, so we can print them too (lesson 04
# is about this).

# %%
# %%both x y a u b z
for t in (a, u, b, z):
    t.retain_grad()
z.backward()
print(f"g_z = {z.grad.item()}, g_a = {a.grad.item()}, g_b = {b.grad.item()}")
print(f"g_u = {u.grad.item():.4f}, g_y = {y.grad.item():.4f}, g_x = {x.grad.item()}")

# %% [markdown]
# The same graph, now with every gradient (blue) next to every value (green):

# %%
viz.show(viz.make_dot(compare.get("z"), params=names(), show_values=True))

# %% [markdown]
# Compare it with torch's drawing of its own graph: the same nodes, values and gradients.

# %%
viz.show(viz.side_by_side(compare.get("z"), z, params=names(), torch_params=names("torch"),
                          show_values=True))

# %% [markdown]
# ## 3. The chain rule, one node at a time
#
# The backward pass is the **chain rule** written as an algorithm. Along the path from `y`
# to `z`,
#
# $$ \frac{\partial z}{\partial y} = \frac{\partial z}{\partial b}\cdot
#    \frac{\partial b}{\partial u}\cdot\frac{\partial u}{\partial y}
#    = 1\cdot\cos(2\pi)\cdot 2 = 2. $$
#
# No node needs to know the whole formula. Each one only knows its **local** derivative:
# given the gradient arriving at its output, it multiplies by its own derivative and sends
# the result to its inputs. The engine does the bookkeeping: it runs a node only once all
# the gradients for it have arrived, and adds gradients that meet at the same place.
#
# **Look inside.** In minigrad each local rule is a few lines, written right under the op's
# forward code in `minigrad/_ops/` (here `pointwise.py`). The node for `sin` multiplies the
# incoming gradient by
# `cos` of the input it saved during the forward pass; the node for a product sends each
# input the gradient times the *other* input:

# %%
import inspect

from minigrad._ops import pointwise

print(inspect.getsource(pointwise.SinBackward0))
print(inspect.getsource(pointwise.MulBackward0))

# %% [markdown]
# (`self.needs_input_grad[i]` says whether input `i` wants a gradient at all: constants such
# as the `2` in `2 * y` do not. `jvp` is the same derivative used in forward mode, lesson 02.)
#
# You can watch the engine run the nodes in its real order. `step_through` runs `backward()`
# on a fresh minigrad graph and records each step: the node running now is gold, nodes
# already done are pale green, and each arrow that has carried a gradient is labelled with it
# in blue. Press play or drag the slider. At the last step, look at `x`: two gradients of 4
# meet there and are added.
#
# The order is not "left branch first": the engine runs a node as soon as every gradient it
# waits for has arrived, and among the ready ones it picks the node created last (here the
# `sin` branch).

# %%
import math

from coursekit.stepper import step_through

xs = minigrad.tensor(4.0, requires_grad=True)
ys = minigrad.tensor(math.pi, requires_grad=True)
zs = xs * xs + minigrad.sin(2 * ys)
step_through(zs, {"x": xs, "y": ys})

# %% [markdown]
# **Look inside: the engine's loop.** The drawings are pictures of a short loop. Here is the
# real one, `execute` in `minigrad/autograd/engine.py`, which every `backward()` ends in:

# %%
from minigrad.autograd import engine

print(inspect.getsource(engine.execute))

# %% [markdown]
# How to read it:
#
# * `ready` holds the nodes whose gradients have all arrived. It is a heap ordered by each
#   node's creation number, so `heappop` gives the node created **last**: that is why the
#   `sin` branch ran first above.
# * `buffers` holds, per node, the gradients sent to it so far; `task.add_gradient` **adds** a
#   new one to what is there. This is where the two 4s meeting at `x` became 8.
# * `evaluate_function` runs one node: its hooks, then its `backward` (the local rule you saw
#   above), and frees what it saved unless `retain_graph=True` (lesson 03).
# * `deps[nxt]` counts how many gradients node `nxt` still waits for; when it drops to 0 the
#   node joins `ready`.
#
# (The `needed` test skips nodes that lead to no requested input: it only matters for
# [`torch.autograd.grad`](https://docs.pytorch.org/docs/stable/generated/torch.autograd.grad.html), which lesson 02 uses.) torch's engine is C++, with threads and
# devices, but on the CPU it runs the nodes in this same order. The stepper learns the order
# from a pre-hook on every node
# ([`Node.register_prehook`](https://docs.pytorch.org/docs/stable/generated/torch.autograd.graph.Node.register_prehook.html)),
# which the engine calls just before it runs that node; here is that trick on both engines:

# %%
# %%both
import math

x = torch.tensor(4.0, requires_grad=True)
y = torch.tensor(math.pi, requires_grad=True)
z = x * x + torch.sin(2 * y)
order, nodes = [], [z.grad_fn]
for node in nodes:                              # the list grows while we walk it
    node.register_prehook(lambda grads, node=node: order.append(type(node).__name__))
    for next_node, _ in node.next_functions:
        if next_node is not None and next_node not in nodes:
            nodes.append(next_node)
z.backward()
print(order)

# %% [markdown]
# Six nodes, each run once, in the order the stepper showed. `AccumulateGrad` appears twice:
# once for `y`, once for `x` (after its two gradients were added).

# %% [markdown]
# ## 4. A second example: four weights
#
# A classic example with a constant input `a = 4` and four weights `w1..w4 = 2, 5, 9, 7`:
#
# $$ b = w_1 a,\quad c = w_2 a,\quad d = w_3 b + w_4 c,\quad L = 10 - d. $$
#
# Forward: `b = 8`, `c = 20`, `d = 9·8 + 7·20 = 212`, `L = −202`.
#
# Backward, by the chain rule: `∂L/∂d = −1`, so
#
# - `∂L/∂w3 = −b = −8` and `∂L/∂w4 = −c = −20`;
# - `∂L/∂b = −w3 = −9`, so `∂L/∂w1 = −9 · a = −36`;
# - `∂L/∂c = −w4 = −7`, so `∂L/∂w2 = −7 · a = −28`.
#
# `a` is a plain tensor: it does not require gradients, so autograd treats it as a constant
# and gives it no `.grad`.

# %%
# %%both a w1 w2 w3 w4 L
a = torch.tensor(4.0)
w1, w2, w3, w4 = (torch.tensor(v, requires_grad=True) for v in (2.0, 5.0, 9.0, 7.0))
b = w1 * a
c = w2 * a
d = w3 * b + w4 * c
L = 10 - d
L.backward()
print("L =", L.item())
for i, w in enumerate((w1, w2, w3, w4), start=1):
    print(f"dL/dw{i} = {w.grad.item()}")
print("a.grad:", a.grad)

# %% [markdown]
# A gradient is what a training step needs: moving each weight a little **against** its
# gradient, `w ← w − lr · w.grad`, makes `L` smaller.
#
# Here is the graph. Notice what is *not* in it: `a`, `b`, `c` and `d` have no boxes of
# their own. The boxes are the **operations** (`MulBackward0`, `AddBackward0`,
# `RsubBackward1` for `10 − d`) plus the leaves that need a gradient. `d` alone became three
# nodes: two products and a sum. Lesson 03 shows that these operation nodes are the real
# graph that `backward()` walks.

# %%
viz.show(viz.make_dot(compare.get("L"),
                      params={k: compare.get(k) for k in ("w1", "w2", "w3", "w4", "L")},
                      show_values=True))

# %% [markdown]
# ## 5. Fan-out: gradients add up
#
# When one value is used in several places, a change in it moves the result through
# **every** path at once. So its gradient is the **sum** of what comes back along each path.
# You saw it with `x * x` (4 + 4). Here is a value used three times:
#
# $$ f = e^x + x^2 + 3x,\qquad \frac{df}{dx} = e^x + 2x + 3 = e + 5 \approx 7.7183
#    \text{ at } x = 1. $$

# %%
# %%both x f
x = torch.tensor(1.0, requires_grad=True)
f = torch.exp(x) + x * x + 3 * x
f.backward()
print(f"df/dx = {x.grad.item():.4f}   e + 5 = {math.e + 5:.4f}")

# %% [markdown]
# This is also why autograd **accumulates** gradients instead of overwriting them: adding is
# the right thing to do whenever gradients meet. (Lesson 03 shows the consequence: calling
# `backward()` twice adds into `.grad` again.)

# %% [markdown]
# ## 6. Dynamic graphs versus static graphs
#
# PyTorch builds the graph **while your Python code runs**: every operation on a tensor that
# requires gradients adds its node there and then. This is a *dynamic* (define-by-run)
# graph. Run the code again and you get a brand-new graph; ordinary `if` statements and
# loops decide what goes into it.
#
# The other design is a *static* graph (TensorFlow 1.x worked this way): you first describe
# the whole computation, it is compiled once, and then run many times with different input
# values. It can be optimised ahead of time, but it cannot change from one run to the next,
# and branches have to be written as special graph operations.
#
# Below, the same Python function records different graphs depending on the **value** of its
# input, and on how many times the loop runs:

# %%
# %%both p q r
def shape_of_graph(t, steps):
    out = t
    for _ in range(steps):
        out = out * t
    if out > 0:
        return out.sin()
    return out.exp()


p = shape_of_graph(torch.tensor(2.0, requires_grad=True), 1)
q = shape_of_graph(torch.tensor(-2.0, requires_grad=True), 2)
r = shape_of_graph(torch.tensor(2.0, requires_grad=True), 1)
print(p.grad_fn.name(), q.grad_fn.name())
print(p.grad_fn is r.grad_fn)

# %% [markdown]
# `p` ended with a `sin`, `q` with an `exp` (and one more multiplication). And `r`, computed
# exactly like `p`, got its own new nodes: every call records a new graph. The two drawings:

# %%
viz.show(viz.make_dot(compare.get("p"), params={"p": compare.get("p")}))

# %%
viz.show(viz.make_dot(compare.get("q"), params={"q": compare.get("q")}))

# %% [markdown]
# Because the graph is rebuilt each time, it can also be thrown away each time: after
# `backward()` the values it saved are freed. Lesson 03 shows what that means in practice.

# %% [markdown]
# ## 7. Try it: move x and y
#
# The sliders set `x` and `y` in `z = x·x + sin(2y)`. Each move runs a forward and a backward
# pass on minigrad and redraws the graph with the new values (green) and gradients (blue).
# Check the blue numbers against `∂z/∂x = 2x` and `∂z/∂y = 2 cos(2y)`.
#
# *(The next cell's code is folded away, since it is only plumbing: click the three dots to read it.)*

# %% jupyter={"source_hidden": true}
import html


def draw_z(change=None):
    x = minigrad.tensor(x_slider.value, requires_grad=True)
    y = minigrad.tensor(y_slider.value, requires_grad=True)
    a = x * x
    u = 2 * y
    b = minigrad.sin(u)
    z = a + b
    for t in (a, u, b, z):
        t.retain_grad()
    z.backward()
    message = (f"z = {z.item():.4f}\n"
               f"dz/dx = {x.grad.item():.4f}   (2x = {2 * x_slider.value:.4f})\n"
               f"dz/dy = {y.grad.item():.4f}   (2cos 2y = {2 * math.cos(2 * y_slider.value):.4f})")
    params = {"x": x, "y": y, "a": a, "u": u, "b": b, "z": z}
    graph = viz.show(viz.make_dot(z, params=params, show_values=True))
    view.value = f"<pre>{html.escape(message)}</pre>{graph.data}"


x_slider = widgets.FloatSlider(value=4.0, min=-5.0, max=5.0, step=0.5, description="x")
y_slider = widgets.FloatSlider(value=3.14, min=-3.2, max=3.2, step=0.02, description="y")
view = widgets.HTML()
for slider in (x_slider, y_slider):
    slider.observe(draw_z, names="value")
draw_z()
widgets.VBox([widgets.HBox([x_slider, y_slider]), view])

# %% [markdown]
# ## Where minigrad differs from torch
#
# Nothing in this lesson: the values, gradients, node names and graphs above were checked
# to be the same. minigrad computes `sin` and `exp` with NumPy, so the last bit of a 32-bit
# result may differ from torch's; the check allows for that.

# %% [markdown]
# ## Self-check
#
# 1. For `z = x·x + sin(2y)` at `x = 1`, `y = 0`, what are `x.grad` and `y.grad`?
# 2. In the four-weight example, why is `∂L/∂w3 = −8`?
# 3. Why is `x.grad` 8 and not 4 for `z = x·x + sin(2y)` at `x = 4`?
# 4. You call the same function twice on new inputs. With a dynamic graph, how many graphs
#    exist afterwards? Can the two have different shapes?
#
# <details><summary>Answers</summary>
#
# 1. `x.grad = 2x = 2` and `y.grad = 2 cos 0 = 2`.
# 2. `L = 10 − d` and `d = w3·b + …`, so `∂L/∂w3 = −1 · b = −8` (with `b = w1·a = 8`).
# 3. `x` enters the product twice. Each use sends back `1 · x = 4`, and gradients that meet
#    are added: 4 + 4 = 8. That is the same as `d(x²)/dx = 2x`.
# 4. Two: each call records its own graph. Yes, they can differ: `if` and loops in Python
#    decide which operations are recorded.
#
# </details>
#
# **Exercises:** `exercises/01_computational_graphs.ipynb` — draw and compute by hand the
# forward and backward passes of new expressions, then check them on both engines.
#
# Next: **02 · Forward mode vs reverse mode**.
