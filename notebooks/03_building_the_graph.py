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
# # 03 · Building the graph: leaves, nodes and `backward()`
#
# Lesson 01 drew graphs. This lesson looks at what autograd actually stores while your code
# runs, and what [`backward()`](https://docs.pytorch.org/docs/stable/generated/torch.Tensor.backward.html) does with it.
#
# **Goals**
#
# - Read the five autograd fields of a tensor: `data`, [`grad`](https://docs.pytorch.org/docs/stable/generated/torch.Tensor.grad.html), [`grad_fn`](https://docs.pytorch.org/docs/stable/notes/autograd.html#how-autograd-encodes-the-history), [`is_leaf`](https://docs.pytorch.org/docs/stable/generated/torch.Tensor.is_leaf.html),
#   [`requires_grad`](https://docs.pytorch.org/docs/stable/generated/torch.Tensor.requires_grad.html).
# - See how `requires_grad` spreads from inputs to results, and tell leaves from non-leaves.
# - Walk the real graph: `grad_fn` objects and their [`next_functions`](https://docs.pytorch.org/docs/stable/generated/torch.autograd.graph.Node.next_functions.html); see where constants go.
# - Run `backward()`, meet the "backward through the graph a second time" error and
#   [`retain_graph`](https://docs.pytorch.org/docs/stable/generated/torch.Tensor.backward.html), and see gradients **accumulate** in `.grad` until you zero them.
#
# **Time:** about 30 minutes. **You need:** lessons 00 and 01.

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
# ## 1. What a tensor carries
#
# A tensor is more than its numbers. Five attributes matter to autograd:
#
# | attribute | meaning |
# | --- | --- |
# | `data` | the values, as a tensor that autograd does not track |
# | `grad` | the gradient `backward()` computed for this tensor, or `None` |
# | `grad_fn` | the graph node of the operation that produced this tensor, or `None` |
# | `is_leaf` | `True` if no tracked operation produced it |
# | `requires_grad` | `True` if autograd should record operations on it |
#
# A freshly made tensor has no gradient, no node, is a leaf, and is not tracked:

# %%
# %%both v
v = torch.zeros(2)
print("data:         ", v.data)
print("grad:         ", v.grad)
print("grad_fn:      ", v.grad_fn)
print("is_leaf:      ", v.is_leaf)
print("requires_grad:", v.requires_grad)

# %% [markdown]
# ## 2. Asking for gradients
#
# You can ask for gradients when you make the tensor, or later, by setting the attribute or
# calling the in-place method [`requires_grad_()`](https://docs.pytorch.org/docs/stable/generated/torch.Tensor.requires_grad_.html):

# %%
# %%both x y k
x = torch.ones(2, requires_grad=True)  # at creation
y = torch.empty(2).fill_(3)            # made first...
y.requires_grad = True                 # ...asked later
k = torch.tensor([0.5, 1.5]).requires_grad_()
print(x)
print(y)
print(k)

# %% [markdown]
# Only floating-point tensors can have gradients. An integer tensor refuses:

# %%
# %%both
counts = torch.tensor([1, 2, 3])
counts.requires_grad = True

# %% [markdown]
# ## 3. `requires_grad` spreads
#
# As soon as **one** input of an operation requires gradients, the operation is recorded:
# its result gets a `grad_fn` and requires gradients too. The result of that is tracked in
# turn, and so on, so the flag spreads through everything computed from `y`:

# %%
# %%both y z
z = (y * y).sum()   # y[0]² + y[1]²
print(z)
print("is_leaf:      ", y.is_leaf, z.is_leaf)
print("requires_grad:", y.requires_grad, z.requires_grad)
print("grad_fn:      ", y.grad_fn, z.grad_fn)

# %% [markdown]
# `y` is a **leaf**: you made it, no tracked operation produced it. `z` is not: it has a
# `grad_fn`, the node of the last operation that produced it (`sum`).
#
# When no input requires gradients, nothing is recorded, and the result is a plain leaf:

# %%
# %%both plain mixed
plain = torch.ones(2) * 5 + torch.zeros(2)
mixed = torch.ones(2) * 5 + y
print(plain.requires_grad, plain.grad_fn, plain.is_leaf)
print(mixed.requires_grad, mixed.grad_fn, mixed.is_leaf)

# %% [markdown]
# So "leaf" has two kinds of members: tensors you asked gradients for (these get a `.grad`)
# and tensors that need no gradient at all (constants, data). Only the first kind are the
# "inputs" `backward()` will fill.
#
# Since a non-leaf's flag is decided by its inputs, you cannot switch it off by hand:

# %%
# %%both z
z.requires_grad = False

# %% [markdown]
# **Look inside.** In minigrad every operation ends by calling `record` from
# `minigrad/_ops/_core.py`. These few lines are the whole rule "one input requires grad, so
# the result is tracked": `graph.record` makes the node, links it to the inputs (its
# `next_functions`), saves what its formula needs and attaches it to the result.

# %%
import inspect

from minigrad._ops import _core

from minigrad.autograd import graph

print(inspect.getsource(_core.needs_grad))
print(inspect.getsource(_core.record))
print(inspect.getsource(graph.record))

# %% [markdown]
# ## 4. The real nodes: `grad_fn` and `next_functions`
#
# In lesson 01 the boxes of the drawing were operations, not tensors. That is literally how
# autograd stores the graph: the nodes are the `grad_fn` objects. Each one knows where to
# send gradients next, in `next_functions`: one `(node, index)` pair per input of the
# operation.
#
# Let's follow `z = (y * y).sum()` from the top:

# %%
# %%both
sum_node = z.grad_fn
print(sum_node, sum_node.next_functions)
mul_node = sum_node.next_functions[0][0]
print(mul_node, mul_node.next_functions)
acc_node = mul_node.next_functions[0][0]
print(acc_node, acc_node.next_functions)
print(acc_node.variable is y)

# %% [markdown]
# - `SumBackward0` has one input, the product, so one pair pointing to `MulBackward0`.
# - `MulBackward0` has two inputs, both `y`: two pairs pointing to the **same**
#   `AccumulateGrad` node.
# - `AccumulateGrad` is the end of the road. Its `.variable` is the leaf `y` itself; its job
#   is to add the gradient it receives into `y.grad`. Every leaf that requires gradients has
#   one such node, shared by all its uses.
#
# ### Constants
#
# What about inputs that need no gradient? They get the pair `(None, 0)`: "nothing to send
# here". With a constant tensor `a` and the number `8`:

# %%
# %%both x a z2
x = torch.ones(1, requires_grad=True)
a = torch.tensor(-4.0)
z2 = 8 * x + a
print(z2)
print(z2.grad_fn.next_functions)
print(z2.grad_fn.next_functions[0][0].next_functions)

# %% [markdown]
# A short function can print the whole graph by following `next_functions`, the same way
# `backward()` and `viz.make_dot` walk it:

# %%
# %%both
def print_graph(node, depth=0):
    pad = "    " * depth
    if node is None:
        print(pad + "None  (a constant: no gradient)")
        return
    leaf = "  -> fills .grad of a leaf" if hasattr(node, "variable") else ""
    print(pad + type(node).__name__ + leaf)
    for next_node, _ in node.next_functions:
        print_graph(next_node, depth + 1)


print_graph(z2.grad_fn)

# %% [markdown]
# The drawing shows the same thing. Constants do not appear at all: no gradient flows to
# them.

# %%
viz.show(viz.side_by_side(compare.get("z2"), z2,
                          params={"x": compare.get("x"), "z2": compare.get("z2")},
                          torch_params={"x": x, "z2": z2}))

# %% [markdown]
# ## 5. `backward()`
#
# `z.backward()` starts at `z.grad_fn` with the gradient 1 and walks `next_functions`,
# letting each node apply its local rule (lesson 01). For `z = y[0]² + y[1]²` at `y = [3, 3]`:
#
# - `SumBackward0` copies the 1 to every element: `[1, 1]`;
# - `MulBackward0` multiplies by the *other* factor, once per input: `[3, 3]` and `[3, 3]`;
# - both arrive at `y`'s `AccumulateGrad`, which adds them: `y.grad = [6, 6]`.

# %%
# %%both x y z z2
z.backward()
z2.backward()
print("y.grad:", y.grad)
print("x.grad:", x.grad, "  a.grad:", a.grad)

# %% [markdown]
# `a` was a constant, so it has no gradient. Step through the same backward pass on a
# fresh minigrad graph and watch the two `[3, 3]` meet at the last step:

# %%
from coursekit.stepper import step_through

ys = minigrad.tensor([3.0, 3.0], requires_grad=True)
zs = (ys * ys).sum()
step_through(zs, {"y": ys})

# %% [markdown]
# ### Only scalars start by themselves
#
# `backward()` with no argument starts from the gradient 1, which only makes sense for a
# single number. For a tensor with several elements, torch asks you to say what to start
# from: a vector `v` shaped like the output, passed as `backward(v)`. Lesson 02 (section 6)
# started backward from one-hot vectors to get one row of the Jacobian per pass; any other
# `v` gives the weighted sum of rows $v^\top J$, a vector-Jacobian product; lesson 11
# (non-scalar outputs) is all about `backward(gradient=v)`. Without it:

# %%
# %%both
(y * 2).backward()

# %% [markdown]
# ## 6. The graph is freed: `retain_graph`
#
# Some nodes **save** tensors during the forward pass because their backward rule needs
# them: `MulBackward0` keeps both factors, `SinBackward0` its input. To save memory,
# `backward()` frees these saved tensors as it goes. The graph has served its purpose;
# next time you will compute the forward pass again and record a new one (a dynamic graph,
# lesson 01). So a second `backward()` through the same graph fails:

# %%
# %%both y
z.backward()

# %% [markdown]
# **Look inside.** After running a node, minigrad's engine calls `release_variables()` on
# it unless `retain_graph=True`; reading a saved tensor afterwards raises the message above:

# %%
from minigrad.autograd.graph import Node

print(inspect.getsource(Node.saved))
print(inspect.getsource(Node.release_variables))

# %% [markdown]
# A consequence that surprises people: a graph whose nodes saved **nothing** can be run
# twice. Adding needs no saved values, so this works on both engines (and the gradients add
# up, see section 7):

# %%
# %%both y
s = (y + y).sum()
s.backward()
s.backward()
print(y.grad)

# %% [markdown]
# (`y.grad` was `[6, 6]`; each pass added `[2, 2]`.) Do not rely on this; pass
# `retain_graph=True` when you really mean to go through a graph twice:

# %%
# %%both q
q = torch.tensor(2.0, requires_grad=True)
r = q * q * q                 # dr/dq = 3q² = 12
r.backward(retain_graph=True)
print(q.grad)
r.backward()                  # allowed, and frees the graph this time
print(q.grad)
r.backward()                  # now it is gone

# %% [markdown]
# ## 7. Gradients accumulate in `.grad`
#
# Look at `q.grad` above: 12, then 24. `backward()` never overwrites `.grad`, it **adds** to
# it (when two paths meet at a leaf, adding is exactly right, lesson 01). The flip side: in a
# loop that reuses the same leaf, old gradients pile up unless you clear them.

# %%
# %%both w
w = torch.tensor([1.0, 2.0], requires_grad=True)
for step in range(3):
    loss = (w * w).sum()   # d loss / dw = 2w = [2, 4]
    loss.backward()
    print(step, w.grad)

# %% [markdown]
# The true gradient is `[2, 4]` every time; `.grad` shows the running sum. The sum is even
# kept in the **same** tensor object, updated in place. Clear it before each backward pass,
# either in place with [`zero_()`](https://docs.pytorch.org/docs/stable/generated/torch.Tensor.zero_.html), or by setting it to `None` (what [`optimizer.zero_grad()`](https://docs.pytorch.org/docs/stable/generated/torch.optim.Optimizer.zero_grad.html)
# does by default):

# %%
# %%both w
kept = w.grad
loss = (w * w).sum()
loss.backward()
print("same object:", kept is w.grad, w.grad)

for step in range(3):
    w.grad.zero_()
    loss = (w * w).sum()
    loss.backward()
    print(step, w.grad)

w.grad = None
print("after w.grad = None:", w.grad)

# %% [markdown]
# ## 8. Try it: who requires gradients?
#
# The graph below computes `out = (x * w + b).sum()` with `x = [1, 2]`, `w = [3, -1]`,
# `b = 0.5`. Tick which of the three leaves require gradients and choose how many times
# `backward()` runs (with `retain_graph=True`). The drawing shows only what autograd
# recorded, with values (green) and the accumulated `.grad` (blue). Try:
#
# - untick everything: no graph is recorded and `backward()` fails;
# - tick only `b`: the multiplication is not recorded at all, it is a constant for autograd;
# - set the count to 3: every `.grad` is three times the true gradient.
#
# *(The next cell's code is folded away, since it is only plumbing: click the three dots to read it.)*

# %% jupyter={"source_hidden": true}
import html


def draw_leaves(change=None):
    x = minigrad.tensor([1.0, 2.0], requires_grad=x_box.value)
    w = minigrad.tensor([3.0, -1.0], requires_grad=w_box.value)
    b = minigrad.tensor(0.5, requires_grad=b_box.value)
    out = (x * w + b).sum()
    node = None if out.grad_fn is None else out.grad_fn.name()
    lines = [f"out.requires_grad = {out.requires_grad}, out.grad_fn = {node}"]
    try:
        for _ in range(passes.value):
            out.backward(retain_graph=True)
    except RuntimeError as error:
        lines.append(f"RuntimeError: {error}")
    lines += [f"{name}.grad = {t.grad}" for name, t in (("x", x), ("w", w), ("b", b))]
    graph = viz.show(viz.make_dot(out, params={"x": x, "w": w, "b": b, "out": out},
                                  show_values=True))
    view.value = f"<pre>{html.escape(chr(10).join(lines))}</pre>{graph.data}"


x_box = widgets.Checkbox(value=True, description="x requires grad")
w_box = widgets.Checkbox(value=True, description="w requires grad")
b_box = widgets.Checkbox(value=False, description="b requires grad")
passes = widgets.IntSlider(value=1, min=1, max=4, description="backward ×")
view = widgets.HTML()
for control in (x_box, w_box, b_box, passes):
    control.observe(draw_leaves, names="value")
draw_leaves()
widgets.VBox([widgets.HBox([x_box, w_box, b_box]), passes, view])

# %% [markdown]
# ## Where minigrad differs from torch
#
# - The leaf node's long name is `minigrad::autograd::AccumulateGrad` (torch:
#   `torch::autograd::AccumulateGrad`); its class name `AccumulateGrad` is the same.
# - Both engines show what a node saved as attributes such as `grad_fn._saved_self`; minigrad
#   also lists them all at once as a dict, `grad_fn._saved` (torch has no such attribute).
#   Inside, a minigrad node keeps them as a short chain of `SavedTensor`s, which
#   `_find_saved` walks in the code above: a dict per node would be one more object for
#   Python's garbage collector to scan, for every node of every graph alive.
# - Printing a node shows a memory address, which differs on every run on both engines; the
#   course prints it as `0x…`.
#
# Everything else above (flags, node names, `next_functions`, gradients, error messages)
# was checked to be the same.

# %% [markdown]
# ## Self-check
#
# 1. `p = torch.tensor(2.0)` and `t = torch.tensor(3.0, requires_grad=True)`. Which of
#    `p`, `t`, `p * t`, `p * 2` are leaves, and which require gradients?
# 2. What does `(p * t).grad_fn.next_functions` contain?
# 3. Why does a second `z.backward()` fail for `z = (y * y).sum()`, and what are two ways
#    to avoid the error?
# 4. A training loop calls `loss.backward()` every step but never clears `.grad`. What goes
#    wrong?
#
# <details><summary>Answers</summary>
#
# 1. `p`, `t` and `p * 2` are leaves (`p * 2` involves nothing that requires gradients, so
#    nothing is recorded). Only `t` and `p * t` require gradients; `p * t` is not a leaf.
# 2. Two pairs, one per input of the product: `(None, 0)` for the constant `p`, and
#    `(<AccumulateGrad>, 0)` for the leaf `t`.
# 3. The first `backward()` freed the tensors `MulBackward0` had saved. Either call the
#    first one with `retain_graph=True`, or (usually the right fix) compute `z` again, which
#    records a new graph.
# 4. Each step adds the new gradient to the sum of all the previous ones, so the updates use
#    the wrong gradient. Call `w.grad.zero_()`, set `w.grad = None`, or use
#    `optimizer.zero_grad()` before each backward pass.
#
# </details>
#
# **Exercises:** `exercises/03_building_the_graph.ipynb` — predict `is_leaf`,
# `requires_grad` and `next_functions` for small expressions, then check them on both
# engines; find and fix a loop that forgets to zero its gradients.
#
# Next: **04 · Intermediate gradients** (`retain_grad` and hooks).
