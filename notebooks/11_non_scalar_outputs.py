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
# # 11 · Non-scalar outputs
#
# So far almost every `backward()` started from a single number, a loss. This lesson is about
# outputs with several elements: what `backward()` needs to be told before it can start from
# them, what it then computes (a *vector-Jacobian product*), and how to get the whole Jacobian,
# one row or one column at a time.
#
# **Goals.** After this lesson you can
#
# * explain why `y.backward()` fails for a vector `y`, and what `y.backward(gradient=v)`
#   computes: $v^\top J$;
# * choose between `backward` and `torch.autograd.grad` (returns instead of accumulating;
#   `inputs=`, `allow_unused`, `retain_graph`);
# * build a Jacobian row by row with one-hot `v`'s, and with
#   `torch.autograd.functional.jacobian`;
# * build it column by column with forward mode (dual numbers, `functional.jvp`);
# * count, with node hooks, how much work each way takes, and say which suits which shape.
#
# **Time:** about 35 minutes. You need lessons 01 and 02 (node pre-hooks; forward and reverse
# mode), 03 (`backward`, `retain_graph`) and 04 (tensor hooks).

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
# ## 1. A function with two outputs
#
# Our running example takes three numbers and returns two:
#
# $$ f(x) = \begin{pmatrix} x_0\,x_1 \\ x_1 \sin x_2 \end{pmatrix},
# \qquad
# J = \frac{\partial f}{\partial x} = \begin{pmatrix} x_1 & x_0 & 0 \\
#                                      0 & \sin x_2 & x_1 \cos x_2 \end{pmatrix}. $$
#
# The **Jacobian** $J$ has one row per output and one column per input: here $2 \times 3$.
# Row $i$ is the gradient of output $i$; column $j$ says how every output moves when input
# $j$ moves. Now ask for "the gradient" of `y`:

# %%
# %%both x y
def f(x):
    return torch.stack([x[0] * x[1], x[1] * torch.sin(x[2])])


x = torch.tensor([1.0, 2.0, 0.5], requires_grad=True)
y = f(x)
print(y)
y.backward()

# %% [markdown]
# A gradient belongs to **one** number. `backward()` with no argument starts the backward
# pass from $\partial y/\partial y = 1$, which only makes sense when `y` is a single number.
# With two outputs there is no single answer: do you want the gradient of $y_0$, of $y_1$, of
# their sum? Torch refuses to guess.
#
# "Scalar" here means "one element", not "zero dimensions": an output of shape `(1,)` starts
# from 1 without complaint.

# %%
# %%both w
w = torch.tensor([2.0], requires_grad=True)
(3 * w).backward()
print(w.grad)

# %% [markdown]
# Here is the graph the two outputs share. Backward has to start at the green box with
# something of `y`'s shape.

# %%
viz.show(viz.make_dot(compare.get("y"), params={"x": compare.get("x")}))

# %% [markdown]
# ## 2. `backward(gradient=v)`: a vector-Jacobian product
#
# [`Tensor.backward`](https://docs.pytorch.org/docs/stable/generated/torch.Tensor.backward.html)
# takes a `gradient` argument of the output's shape. Think of it as the gradient of some
# scalar $L$ that would come *after* `y`, with $\partial L / \partial y = v$. By the chain rule
# backward then stores
#
# $$ \frac{\partial L}{\partial x} = v^\top J = v_0 \cdot (\text{row } 0) + v_1 \cdot
# (\text{row } 1), $$
#
# a **vector-Jacobian product** (VJP): a weighted sum of the rows of $J$, computed without
# ever building $J$. At $x = (1, 2, 0.5)$ the rows are $(2, 1, 0)$ and
# $(0, \sin 0.5, 2\cos 0.5) \approx (0, 0.4794, 1.7552)$.

# %%
# %%both x y
x = torch.tensor([1.0, 2.0, 0.5], requires_grad=True)
y = f(x)
y.backward(gradient=torch.tensor([1.0, 0.0]), retain_graph=True)
print("v = [1, 0]  ->", x.grad, "(row 0)")
x.grad = None
y.backward(gradient=torch.tensor([0.0, 1.0]), retain_graph=True)
print("v = [0, 1]  ->", x.grad, "(row 1)")
x.grad = None
y.backward(gradient=torch.tensor([3.0, -1.0]))
print("v = [3, -1] ->", x.grad, "(3 row 0 - row 1)")

# %% [markdown]
# A one-hot `v` picks one row; any other `v` mixes them. (We set `x.grad = None` between
# the passes: `.grad` accumulates, lesson 03.)
#
# The familiar `loss.backward()` is the special case $v = 1$ for a one-element output, and
# `y.sum().backward()` is the same as `y.backward(torch.ones_like(y))`: the sum's backward
# hands a 1 to every element.

# %%
# %%both a b
a = torch.tensor([1.0, 2.0, 0.5], requires_grad=True)
f(a).sum().backward()
b = torch.tensor([1.0, 2.0, 0.5], requires_grad=True)
f(b).backward(torch.ones(2))
print(a.grad, b.grad, torch.equal(a.grad, b.grad))

# %% [markdown]
# `v` must have exactly the output's shape; torch does not broadcast it:

# %%
# %%both
f(torch.tensor([1.0, 2.0, 0.5], requires_grad=True)).backward(torch.ones(3))

# %% [markdown]
# ### Try it: move $x_1$
#
# The slider sets $x_1$. The widget runs minigrad twice, once per one-hot `v`, writes the two
# rows it got into the Jacobian table (red positive, blue negative) and redraws the graph with
# the values and the gradient of the last pass (row 1). The plumbing is in the collapsed cell
# below.

# %% jupyter={"source_hidden": true}
def rows_at(x1):
    """Two backward passes with one-hot v on f at (1, x1, 0.5), in minigrad: J and the graph
    of the last pass (values and gradients)."""
    x = minigrad.tensor([1.0, x1, 0.5], requires_grad=True)
    y = minigrad.stack([x[0] * x[1], x[1] * minigrad.sin(x[2])])
    rows = []
    for i in range(2):
        x.grad = None
        y.backward(minigrad.tensor([1.0 - i, float(i)]), retain_graph=True)
        rows.append(x.grad.tolist())
    return rows, viz.make_dot(y, params={"x": x, "y": y}, show_values=True)


def table_html(rows):
    """The Jacobian as an HTML table, each entry coloured by its sign and size."""
    def cell(value):
        alpha = min(abs(value) / 3, 1)
        colour = f"rgba(214,39,40,{alpha:.2f})" if value > 0 else f"rgba(31,119,180,{alpha:.2f})"
        return f'<td style="background:{colour};padding:6px 12px">{value:.4f}</td>'
    head = "<tr><th></th>" + "".join(f"<th>x{j}</th>" for j in range(3)) + "</tr>"
    body = "".join(f"<tr><th>y{i}</th>" + "".join(cell(v) for v in row) + "</tr>"
                   for i, row in enumerate(rows))
    return f"<table style='border-collapse:collapse;font-family:monospace'>{head}{body}</table>"


# %%
def redraw(change=None):
    rows, dot = rows_at(x1_slider.value)
    view.value = table_html(rows) + dot.pipe(format="svg").decode()


x1_slider = widgets.FloatSlider(value=2.0, min=-3.0, max=3.0, step=0.25, description="x1")
view = widgets.HTML()
x1_slider.observe(redraw, names="value")
redraw()
widgets.VBox([x1_slider, view])

# %% [markdown]
# Two entries move with $x_1$, the two with $x_1$ in their formula: $J_{00} = x_1$, which
# changes sign with it, and $J_{12} = x_1 \cos x_2$. The others stay put: $J_{01} = x_0$ and
# $J_{11} = \sin x_2$ do not involve $x_1$, and $J_{02}$ stays 0 because $y_0$ does not use
# $x_2$.
#
# ## 3. `torch.autograd.grad`: the same pass, returned instead of stored
#
# [`torch.autograd.grad(outputs, inputs, grad_outputs=v)`](https://docs.pytorch.org/docs/stable/generated/torch.autograd.grad.html)
# runs the same backward pass, but **returns** the gradients of the `inputs` you name, as a
# tuple, and leaves every `.grad` alone. `grad_outputs` plays the role of `gradient`.

# %%
# %%both x y g
x = torch.tensor([1.0, 2.0, 0.5], requires_grad=True)
y = f(x)
(g,) = torch.autograd.grad(y, x, grad_outputs=torch.tensor([3.0, -1.0]), retain_graph=True)
print("returned:", g)
print("x.grad:  ", x.grad)
y.backward(torch.tensor([3.0, -1.0]), retain_graph=True)
y.backward(torch.tensor([3.0, -1.0]))
print("x.grad after two backward calls:", x.grad)

# %% [markdown]
# `grad` is the natural tool when *you* want the numbers (to build a Jacobian, or a penalty on
# a gradient): no accumulation to reset, nothing left in `.grad` for an optimiser to pick up by
# mistake. `backward` is the tool for training: it puts each parameter's gradient where the
# optimiser looks for it.
#
# **Choosing the inputs.** `grad` only computes what you name. `backward` fills every leaf
# that requires grad, unless you give it `inputs=`: then only those get a `.grad`.

# %%
# %%both a b
a = torch.tensor(2.0, requires_grad=True)
b = torch.tensor(3.0, requires_grad=True)
z = torch.stack([a * b, a + b])
z.backward(torch.tensor([1.0, 1.0]), inputs=[a])
print("a.grad =", a.grad, " b.grad =", b.grad)

# %% [markdown]
# **Inputs the output does not use.** Ask `grad` for an input that is not in the graph and it
# raises, because that is usually a bug (a tensor you thought you used, a copy that broke the
# graph):

# %%
# %%both a b
c = a * 2
torch.autograd.grad(c, [a, b])

# %% [markdown]
# If it is intended, say so with `allow_unused=True`: that input's gradient comes back as
# `None` (or as zeros with `materialize_grads=True`).

# %%
# %%both a b
c = a * 2
print(torch.autograd.grad(c, [a, b], allow_unused=True))
c = a * 2
print(torch.autograd.grad(c, [a, b], materialize_grads=True))

# %% [markdown]
# **Twice through one graph.** Like `backward`, `grad` frees the saved tensors of the graph as
# it goes, so a second pass needs `retain_graph=True` on the first (lesson 03):

# %%
# %%both x
y = f(x)
torch.autograd.grad(y, x, grad_outputs=torch.tensor([1.0, 0.0]))
torch.autograd.grad(y, x, grad_outputs=torch.tensor([0.0, 1.0]))

# %% [markdown]
# ## 4. The whole Jacobian, row by row
#
# One backward pass gives one $v^\top J$. With $v$ one-hot on output $i$, that is row $i$. So
# $m$ outputs need $m$ passes, all through the same graph (hence `retain_graph=True`). Lesson
# 02 wrote this loop to count passes; now you know what each pass computes:

# %%
# %%both J_rows
def jacobian_by_rows(f, x):
    x = x.detach().requires_grad_()
    y = f(x)
    rows = []
    for i in range(y.numel()):
        v = torch.zeros(y.numel())
        v[i] = 1.0
        (row,) = torch.autograd.grad(y, x, grad_outputs=v, retain_graph=True)
        rows.append(row)
    return torch.stack(rows)


J_rows = jacobian_by_rows(f, torch.tensor([1.0, 2.0, 0.5]))
print(J_rows)

# %% [markdown]
# [`torch.autograd.functional.jacobian`](https://docs.pytorch.org/docs/stable/generated/torch.autograd.functional.jacobian.html)
# does this loop for you. Its default strategy is reverse mode, one backward pass per output
# element, exactly as above. Its `vectorize=True` option is not needed for that: it only
# batches the passes with torch's experimental `vmap` to run them faster, and the result is
# the same.

# %%
# %%both J_rows J_auto J_vec
from torch.autograd.functional import jacobian

x0 = torch.tensor([1.0, 2.0, 0.5])
J_auto = jacobian(f, x0)
J_vec = jacobian(f, x0, vectorize=True)
print(J_auto)
print("same as ours:", torch.allclose(J_auto, J_rows), " vectorized too:",
      torch.allclose(J_vec, J_rows))

# %% [markdown]
# ## 5. The whole Jacobian, column by column: forward mode
#
# Forward mode (lesson 02) pushes a tangent $u$ along with the values and gets $J u$, a
# **Jacobian-vector product** (JVP). With $u$ one-hot on input $j$ that is column $j$. The
# tools are the dual numbers of
# [`torch.autograd.forward_ad`](https://docs.pytorch.org/docs/stable/autograd.html#forward-mode-automatic-differentiation):
# `make_dual(x, u)` attaches the tangent, `unpack_dual(out).tangent` reads the output's.
#
# (As in lesson 02, the next cell runs torch's forward AD once quietly: its first use in a
# process makes torch 2.13 emit `DeprecationWarning`s about its own `torch.jit.script`
# helpers, which say nothing about our code.)

# %%
import warnings

import torch.autograd.forward_ad as fwAD

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    with fwAD.dual_level():
        fwAD.make_dual(torch.tensor(1.0), torch.tensor(1.0))

# %%
# %%both J_rows J_cols
import torch.autograd.forward_ad as fwAD


def jacobian_by_columns(f, x):
    columns = []
    for j in range(x.numel()):
        u = torch.zeros(x.numel())
        u[j] = 1.0
        with fwAD.dual_level():
            out = f(fwAD.make_dual(x, u))
            columns.append(fwAD.unpack_dual(out).tangent)
    return torch.stack(columns, dim=1)


J_cols = jacobian_by_columns(f, torch.tensor([1.0, 2.0, 0.5]))
print(J_cols)
print("same as row by row:", torch.allclose(J_cols, J_rows))

# %% [markdown]
# Three inputs, three passes; nothing is recorded for a backward pass (`x` does not require
# grad here). `jacobian(f, x, strategy="forward-mode", vectorize=True)` does the same (lesson
# 02, section 7).
#
# For a single product $J u$ there is also
# [`torch.autograd.functional.jvp`](https://docs.pytorch.org/docs/stable/generated/torch.autograd.functional.jvp.html),
# and its mirror
# [`functional.vjp`](https://docs.pytorch.org/docs/stable/generated/torch.autograd.functional.vjp.html)
# for $v^\top J$. Both return the output too. (torch's `functional.jvp` does not use dual
# numbers: as its page says, it runs *backward twice*, the "double-backward trick". Same
# numbers, more work.)

# %%
# %%both Ju vJ
from torch.autograd.functional import jvp, vjp

x0 = torch.tensor([1.0, 2.0, 0.5])
out, Ju = jvp(f, x0, torch.tensor([1.0, 0.0, 1.0]))   # column 0 + column 2
out, vJ = vjp(f, x0, torch.tensor([3.0, -1.0]))       # 3 row 0 - row 1
print("J u   =", Ju)
print("v^T J =", vJ)

# %% [markdown]
# ## 6. Counting the work: which mode for which shape?
#
# A function with $n$ inputs and $m$ outputs has an $m \times n$ Jacobian. Reverse mode needs
# $m$ backward passes (one per row), forward mode $n$ forward passes (one per column). Let us
# measure the reverse side instead of trusting the formula: a **pre-hook** on a node
# (`node.register_prehook`, [docs](https://docs.pytorch.org/docs/stable/generated/torch.autograd.graph.Node.register_prehook.html),
# the tool the course's stepper uses) runs each time the engine calls that node. We put one
# on every node of the graph and count the calls while the Jacobian is built.
#
# Forward mode has no nodes to hook: the tangent is computed inside each operation as `f`
# runs. So there we count how many times `f` runs; each run performs every operation of `f`
# once, with its tangent. How many operations is that? One ordinary run of `f` on an `x` that
# requires grad records one node per operation: we count those.
#
# The four counting helpers are in the folded cell below (click it to read them):
# `reverse_cost(f, x)` builds the Jacobian row by row with a pre-hook on every node and
# returns the number of backward passes and of node calls; `forward_cost(f, x)` builds it
# column by column and counts the runs of `f`; `ops_per_run(f, x)` counts the operations one
# run records; `net_of(n, m)` makes a small network with `n` inputs and `m` outputs.

# %% jupyter={"source_hidden": true}
# %%both
def graph_nodes(t):
    """Every node behind t, each once."""
    nodes, todo = [], [t.grad_fn]
    while todo:
        node = todo.pop()
        if node is not None and not any(node is seen for seen in nodes):
            nodes.append(node)
            todo += [next_node for next_node, _ in node.next_functions]
    return nodes


def reverse_cost(f, x):
    """Build the Jacobian row by row; count the node calls seen by pre-hooks."""
    x = x.detach().requires_grad_()
    y = f(x)
    calls = []
    handles = [node.register_prehook(lambda grads: calls.append(1)) for node in graph_nodes(y)]
    for i in range(y.numel()):
        v = torch.zeros(y.numel())
        v[i] = 1.0
        torch.autograd.grad(y, x, grad_outputs=v, retain_graph=True)
    for handle in handles:
        handle.remove()
    return y.numel(), len(calls)


def forward_cost(f, x):
    """Build the Jacobian column by column; count the runs of f."""
    runs = []

    def counted(z):
        runs.append(1)
        return f(z)

    jacobian_by_columns(counted, x)
    return len(runs)


def net_of(n, m):
    """A small network: n inputs, 3 hidden units, m outputs."""
    W1, W2 = torch.tensor(same_random(3, n)), torch.tensor(same_random(m, 3))
    return lambda x: torch.tanh(W2 @ torch.tanh(W1 @ x))


def ops_per_run(f, x):
    """The operations one run of f performs: each records one node when x requires grad."""
    y = f(x.detach().requires_grad_())
    return sum(type(node).__name__ != "AccumulateGrad" for node in graph_nodes(y))

# %%
# %%both counts
counts = []
for n, m in [(16, 1), (1, 16), (4, 4)]:
    net, x = net_of(n, m), torch.tensor(same_random(n))
    passes, node_calls = reverse_cost(net, x)
    runs, ops = forward_cost(net, x), ops_per_run(net, x)
    counts.append([n, m, passes, node_calls, runs, ops])
    print(f"n={n:2} inputs, m={m:2} outputs | reverse: {passes:2} backward passes, "
          f"{node_calls:2} node calls | forward: {runs:2} run(s) of f x {ops} ops = {runs * ops:2}")

# %% [markdown]
# The network records five nodes: four operations (two matrix-vector products, two `tanh`)
# and the `AccumulateGrad` node of `x`. Each backward pass calls the four operation nodes;
# the hooks show that `AccumulateGrad` is never called, because `grad` takes the gradient at
# `x` and returns it instead of storing it. A forward-mode run does the same four operations
# forwards, each with its tangent.
#
# So the totals follow the shape. A loss of many parameters ($m = 1$) needs **one** backward
# pass, whatever $n$ is, while forward mode would run `f` $n$ times. With one input and many
# outputs it is the other way round. Training is the first case ($m = 1$, $n$ in the
# millions), which is why it uses reverse mode. For a square Jacobian the counts tie, and
# other things decide: reverse mode must keep the forward pass's saved tensors in memory until
# backward runs; forward mode keeps nothing.
#
# ## 7. Look inside minigrad
#
# The refusal of section 1 is a few lines of minigrad's `backward` and `grad`, where each
# output gets its starting gradient: ones for a one-element output, else the `v` you gave,
# which must have the output's shape.

# %%
import inspect
from minigrad.autograd import api
print(inspect.getsource(api._seed_grads))

# %% [markdown]
# The rest is the same engine for both: `backward` and `grad` differ only in what happens to
# the gradients that reach the leaves (the engine's task has an `accumulate_grad` flag:
# `backward` leaves it on, so `AccumulateGrad` adds into `.grad`; `grad` turns it off and
# the wanted gradients are captured and returned).
#
# ## Where minigrad differs from torch
#
# * `vectorize=True` is accepted by minigrad's `jacobian`, with the same results, but it does
#   not batch anything: minigrad's `jacobian` runs the same loop either way. (minigrad does
#   have `vmap`, as `minigrad.func.vmap`, which batches as torch's does, but its `jacobian`
#   does not use it.)
# * Everything printed in this lesson, errors included, is the same in both engines (apart
#   from the `minigrad.` prefix); the `%%both` cells check it.
#
# ## Self-check
#
# 1. `y` has shape `(2, 3)`. What must you pass to `y.backward(...)`, and what does
#    `y.backward(torch.ones(2, 3))` compute?
# 2. After `g, = torch.autograd.grad(y, x, v)`, what is `x.grad` if it was `None` before?
# 3. A network maps 1000 inputs to 10 class scores. How many backward passes give the full
#    Jacobian? How many forward-mode passes?
# 4. `torch.autograd.grad(z, [a, b])` raises "appears to not have been used in the graph".
#    Name two possible causes and the option that turns the error into a `None`.
#
# <details><summary>Answers</summary>
#
# 1. A tensor of shape `(2, 3)` (the `gradient`, $v$). With all ones it computes the
#    gradient of `y.sum()`: the sum of all rows of the Jacobian.
# 2. Still `None`: `grad` returns the gradient and does not touch `.grad`.
# 3. 10 backward passes (one per output, one-hot `v`), 1000 forward-mode passes (one per
#    input).
# 4. `z` really does not depend on `b`, or the link was cut (a `detach`, a new tensor built
#    from numbers, a `no_grad` block). `allow_unused=True`.
#
# </details>
#
# **Exercises:** `exercises/11_non_scalar_outputs.ipynb`. Next: lesson 12, higher-order gradients.
