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
# # 15 · Capstone: build your own engine
#
# You have used autograd for fourteen lessons. Now you write one: a tensor class of your own,
# wrapping a NumPy array, with a handful of operations, a backward pass and broadcasting, in
# about a hundred lines. Every step is checked against torch. Then you read minigrad's real
# engine and see what it adds to yours.
#
# **Goals.** After this lesson you can
#
# 1. write a value class that records its parents and a local backward function for each
#    operation (add, mul, sum, exp, tanh, matmul);
# 2. explain why backward must visit the nodes in a topological order, and count what a naive
#    recursion does instead;
# 3. sum a gradient back to the shape of a broadcast input ("unbroadcast");
# 4. explain why a recursive backward fails on a deep graph, and walk the graph without
#    recursion;
# 5. read minigrad's `engine.execute` and name what it adds: dependency counts, a ready queue
#    ordered by `sequence_nr`, hooks, freeing saved tensors, `retain_graph` and `create_graph`.
#
# **Time:** about 40 minutes. Lessons 01-04 (graphs, `grad_fn`, intermediate gradients) come
# first; lesson 09 (custom Functions) helps.

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
# ## 1. The target
#
# Here is what our engine must reproduce: a small expression with a matrix product, a
# broadcast bias, `tanh`, a reused input and a sum, differentiated by torch (and by minigrad,
# which the `%%both` cell compares with torch). We work in float64 so that our NumPy results
# can be compared with torch's to many digits.

# %%
# %%both x W b loss
x = torch.tensor([[0.5, -1.0], [2.0, 0.25]], dtype=torch.float64, requires_grad=True)
W = torch.tensor([[0.3, -0.2, 0.1], [0.7, 0.4, -0.5]], dtype=torch.float64, requires_grad=True)
b = torch.tensor([0.1, 0.0, -0.2], dtype=torch.float64, requires_grad=True)
loss = (torch.tanh(x @ W + b).sum() * x).sum()
loss.backward()
print(loss)
print(W.grad)
print(b.grad)

# %%
viz.show(viz.make_dot(compare.get("loss"),
                      params={"x": compare.get("x"), "W": compare.get("W"), "b": compare.get("b")}))

# %% [markdown]
# Each box is a node: the backward function of one operation. `x` reaches the loss along two
# paths (through `MmBackward0` and through the last `MulBackward0`), so its gradient is the sum
# of two contributions. Keep this picture in mind: our engine will build the same graph.
#
# ## 2. A value that remembers where it came from
#
# Our class wraps a NumPy array (`data`). A value made by an operation also keeps its
# `parents` (the values it was computed from) and a `backward_fn`: given the gradient of the
# loss with respect to this value, it returns one gradient for each parent. This is exactly a
# torch node's job (lesson 09: one gradient per input). Leaves have no parents; backward stores
# their gradient in `.grad`.

# %%
class Value:
    """A NumPy array that remembers the operation and the values it was computed from."""

    def __init__(self, data, parents=(), op="leaf"):
        self.data = np.asarray(data, dtype=np.float64)
        self.grad = None            # filled by backward, for leaves only
        self.parents = parents      # the Values this one was computed from
        self.op = op                # the operation's name, for drawings
        self.backward_fn = None     # grad of self -> one grad per parent

    def __repr__(self):
        return f"Value({np.array2string(self.data, precision=4)}, op={self.op!r})"


def as_value(x):
    """Plain numbers and arrays become leaves (constants)."""
    return x if isinstance(x, Value) else Value(x)


# %% [markdown]
# The first two operations. The local rules are the ones you know:
# $\frac{\partial (a+b)}{\partial a} = 1$ and $\frac{\partial (ab)}{\partial a} = b$, each
# multiplied by the incoming gradient `g` (the chain rule). The closure keeps `a` and `b`
# alive, as torch keeps the tensors a node saved.

# %%
def add(a, b):
    a, b = as_value(a), as_value(b)
    out = Value(a.data + b.data, (a, b), "add")
    out.backward_fn = lambda g: (g, g)
    return out


def mul(a, b):
    a, b = as_value(a), as_value(b)
    out = Value(a.data * b.data, (a, b), "mul")
    out.backward_fn = lambda g: (g * b.data, g * a.data)
    return out


Value.__add__, Value.__radd__ = add, lambda self, other: add(other, self)
Value.__mul__, Value.__rmul__ = mul, lambda self, other: mul(other, self)

# %% [markdown]
# To compare with torch we need a small helper that *raises loudly* on any difference, in
# shape or in value, so a wrong engine can never pass silently:

# %%
def check(name, ours, theirs):
    """Raise unless our NumPy array equals torch's tensor (same shape, same values)."""
    theirs = theirs.detach().numpy()
    ours = np.asarray(ours)
    if ours.shape != theirs.shape:
        raise AssertionError(f"{name}: our shape {ours.shape}, torch's {theirs.shape}")
    if not np.allclose(ours, theirs, rtol=1e-10, atol=1e-12):
        raise AssertionError(f"{name}: ours\n{ours}\ntorch's\n{theirs}")
    print(f"✓ {name} matches torch")


# %% [markdown]
# ## 3. Why backward needs a topological order
#
# The simplest backward is a recursion: give each parent its gradient and recurse into it.
# We count how often each value is visited:

# %%
def naive_backward(v, grad, visits):
    """Recurse along every path from v to the leaves (do not do this)."""
    visits[v] = visits.get(v, 0) + 1
    if not v.parents:
        v.grad = grad if v.grad is None else v.grad + grad
        return
    for parent, g in zip(v.parents, v.backward_fn(grad)):
        naive_backward(parent, g, visits)


a = Value(3.0)
b = a + a
c = b + b
visits = {}
naive_backward(c, np.ones(()), visits)
print("visits: a", visits[a], "times, b", visits[b], "times, c", visits[c], "time")
print("a.grad =", a.grad)

# %% [markdown]
# The gradient is right ($c = 4a$), but `a` was visited four times: once per *path* from `c`
# to `a`. Each doubling doubles the number of paths, so a chain of $n$ doublings visits `a`
# $2^n$ times, while the graph has only $n + 1$ values:

# %%
lines = []
for n in (1, 5, 10, 15):
    a = Value(1.0)
    v = a
    for _ in range(n):
        v = v + v
    visits = {}
    naive_backward(v, np.ones(()), visits)
    lines.append(f"{n:2d} doublings: {n + 1:2d} values, a visited {visits[a]:6d} times, "
                 f"a.grad = {a.grad}")
print("\n".join(lines))

# %% [markdown]
# Real networks reuse values everywhere (a weight used at every time step, a residual
# connection), so this blows up. The fix: visit every node **once**, and only after *all* the
# gradients flowing into it have been added up. An order in which every value comes after
# the values it was computed from is a **topological order**; backward walks it in reverse.
#
# A depth-first search gives one: a value goes into the list after all its parents.

# %%
def topo_sort(root):
    """Every Value reachable from root, each after all the Values it was computed from."""
    order, seen = [], set()

    def visit(v):
        if v in seen:
            return
        seen.add(v)
        for parent in v.parents:
            visit(parent)
        order.append(v)

    visit(root)
    return order


a = Value(3.0)
b = a + a
c = b + b
print([v.op for v in topo_sort(c)])

# %% [markdown]
# ## 4. The backward loop
#
# Walk the order backwards, starting with a gradient of ones at the root (as `loss.backward()`
# does for a scalar). Gradients for the same value are **added** in a dictionary until the
# loop reaches that value; then its `backward_fn` runs once and hands gradients to its parents.

# %%
def backward(root, order=topo_sort):
    grads = {root: np.ones_like(root.data)}
    for v in reversed(order(root)):
        g = grads.pop(v)
        if not v.parents:                               # a leaf: keep its gradient
            v.grad = g if v.grad is None else v.grad + g
            continue
        for parent, pg in zip(v.parents, v.backward_fn(g)):
            grads[parent] = grads[parent] + pg if parent in grads else pg


Value.backward = backward

a = Value(3.0)
c = (a + a) + (a + a)
c.backward()
ta = torch.tensor(3.0, dtype=torch.float64, requires_grad=True)
tc = (ta + ta) + (ta + ta)
tc.backward()
check("a.grad", a.grad, ta.grad)

# %% [markdown]
# Every value reachable from the root is in the order, and every value after its parents, so
# `grads.pop(v)` always finds a complete gradient. Now a first real check, with same-shaped
# inputs and a reused value:

# %%
xs, ys = [[1.0, -2.0], [0.5, 3.0]], [[2.0, 0.5], [-1.0, 4.0]]
x, y = Value(xs), Value(ys)
z = x * y + x * x
z.backward()

tx = torch.tensor(xs, dtype=torch.float64, requires_grad=True)
ty = torch.tensor(ys, dtype=torch.float64, requires_grad=True)
tz = tx * ty + tx * tx
tz.backward(torch.ones_like(tz))
check("z", z.data, tz)
check("x.grad", x.grad, tx.grad)
check("y.grad", y.grad, ty.grad)

# %% [markdown]
# ## 5. Broadcasting: sum the gradient back
#
# NumPy (like torch) broadcasts: `x + b` with `x` of shape `(2, 3)` and `b` of shape `(3,)`
# adds `b` to every row. Our `add` hands `g`, of shape `(2, 3)`, to `b` too, and the check
# catches it:

# %%
xs, bs = [[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]], [0.5, -1.0, 2.0]
x, bias = Value(xs), Value(bs)
(x + bias).backward()
tx = torch.tensor(xs, dtype=torch.float64, requires_grad=True)
tb = torch.tensor(bs, dtype=torch.float64, requires_grad=True)
(tx + tb).sum().backward()
try:
    check("bias.grad", bias.grad, tb.grad)
except AssertionError as error:
    print("AssertionError:", error)

# %% [markdown]
# `b` was used once per row, so (as for any reused value) its gradient is the **sum** of the
# gradients of its copies: sum `g` over the dimensions that broadcasting added in front, and
# over the dimensions where `b` had size 1 (keeping them, with `keepdims=True`). That is what
# gave torch's `b.grad` the shape `(3,)` (section 8 shows where minigrad's engine does it).

# %%
def unbroadcast(grad, shape):
    """Sum grad down to shape: undo NumPy's broadcasting."""
    while grad.ndim > len(shape):                 # dimensions added in front
        grad = grad.sum(axis=0)
    for axis, size in enumerate(shape):           # dimensions stretched from size 1
        if size == 1 and grad.shape[axis] != 1:
            grad = grad.sum(axis=axis, keepdims=True)
    return grad


def add(a, b):
    a, b = as_value(a), as_value(b)
    out = Value(a.data + b.data, (a, b), "add")
    out.backward_fn = lambda g: (unbroadcast(g, a.data.shape), unbroadcast(g, b.data.shape))
    return out


def mul(a, b):
    a, b = as_value(a), as_value(b)
    out = Value(a.data * b.data, (a, b), "mul")
    out.backward_fn = lambda g: (unbroadcast(g * b.data, a.data.shape),
                                 unbroadcast(g * a.data, b.data.shape))
    return out


Value.__add__, Value.__mul__ = add, mul  # __radd__/__rmul__ look these names up at call time

# %% [markdown]
# Both kinds of broadcasting at once: a column `(2, 1)` times a row `(1, 3)`, plus a `(3,)`:

# %%
cs, rs, bs = [[2.0], [-1.0]], [[1.0, 0.5, -3.0]], [0.5, -1.0, 2.0]
col, row, bias = Value(cs), Value(rs), Value(bs)
out = col * row + bias
out.backward()
tcol, trow, tbias = (torch.tensor(v, dtype=torch.float64, requires_grad=True)
                     for v in (cs, rs, bs))
tout = tcol * trow + tbias
tout.sum().backward()
for name, ours, theirs in (("out", out.data, tout), ("col.grad", col.grad, tcol.grad),
                           ("row.grad", row.grad, trow.grad),
                           ("bias.grad", bias.grad, tbias.grad)):
    check(name, ours, theirs)

# %% [markdown]
# ## 6. Four more operations
#
# `sum`, `exp`, `tanh` and the matrix product, each with its local rule:
#
# * `sum`: every element contributed once, so each gets the (scalar) gradient:
#   `broadcast_to(g, shape)`;
# * `exp`: $\frac{d}{da} e^a = e^a$, the output itself; `tanh`: $1 - \tanh^2 a$, from the
#   output too (torch's `ExpBackward0` and `TanhBackward0` also save their result, as the
#   next cell shows);
# * `matmul` (2-D): for $C = AB$, $\frac{\partial L}{\partial A} = G B^\top$ and
#   $\frac{\partial L}{\partial B} = A^\top G$.

# %%
# %%both v
v = torch.tensor([0.5, -1.0], requires_grad=True)
print(torch.exp(v).grad_fn._saved_result, torch.tanh(v).grad_fn._saved_result)

# %%
def sum_(a):
    out = Value(a.data.sum(), (a,), "sum")
    out.backward_fn = lambda g: (np.broadcast_to(g, a.data.shape).copy(),)
    return out


def exp(a):
    e = np.exp(a.data)
    out = Value(e, (a,), "exp")
    out.backward_fn = lambda g: (g * e,)
    return out


def tanh(a):
    t = np.tanh(a.data)
    out = Value(t, (a,), "tanh")
    out.backward_fn = lambda g: (g * (1 - t * t),)
    return out


def matmul(a, b):
    out = Value(a.data @ b.data, (a, b), "matmul")
    out.backward_fn = lambda g: (g @ b.data.T, a.data.T @ g)
    return out


Value.sum, Value.exp, Value.tanh, Value.__matmul__ = sum_, exp, tanh, matmul

# %% [markdown]
# That is the whole engine. Now the expression of section 1, on our engine and on torch
# (computed here, in this cell):

# %%
xs = [[0.5, -1.0], [2.0, 0.25]]
Ws = [[0.3, -0.2, 0.1], [0.7, 0.4, -0.5]]
bs = [0.1, 0.0, -0.2]
x, W, b = Value(xs), Value(Ws), Value(bs)
loss = ((x @ W + b).tanh().sum() * x).sum()
loss.backward()

tx, tW, tb = (torch.tensor(v, dtype=torch.float64, requires_grad=True) for v in (xs, Ws, bs))
tloss = (torch.tanh(tx @ tW + tb).sum() * tx).sum()
tloss.backward()
for name, ours, theirs in (("loss", loss.data, tloss), ("x.grad", x.grad, tx.grad),
                           ("W.grad", W.grad, tW.grad), ("b.grad", b.grad, tb.grad)):
    check(name, ours, theirs)
# exp is not in that expression: check its value and its backward rule on their own
v = Value([0.5, -1.0])
e = v.exp().sum()
e.backward()
tv = torch.tensor([0.5, -1.0], dtype=torch.float64, requires_grad=True)
te = tv.exp().sum()
te.backward()
check("sum(exp(v))", e.data, te)
check("v.grad for sum(exp(v))", v.grad, tv.grad)

# %% [markdown]
# Here is our graph, drawn from `topo_sort` (the drawing code is in the collapsed cell:
# click it to see it). Each box shows an operation's value and, for leaves, the gradient.
# Compare it with torch's graph in section 1: the same operations, wired the same way (our
# boxes are values; torch's are the backward nodes that made them).

# %% jupyter={"source_hidden": true}
import graphviz


def draw(root, names=None):
    """Our engine's graph as graphviz: leaves blue with their gradient, ops grey;
    ``names`` maps some values to the names shown instead of their op."""
    names = names or {}
    dot = graphviz.Digraph(graph_attr={"rankdir": "BT", "size": "9,9"},
                           node_attr={"shape": "box", "fontname": "monospace", "fontsize": "10"})
    order = topo_sort(root)
    ids = {v: f"v{i}" for i, v in enumerate(order)}
    for v in order:
        text = np.array2string(v.data, precision=3, suppress_small=True)
        label = f"{names.get(v, v.op)}\n{text}"
        if v.grad is not None:
            label += f"\ngrad {np.array2string(v.grad, precision=3, suppress_small=True)}"
        dot.node(ids[v], label, style="filled",
                 fillcolor="lightblue" if not v.parents else "lightgrey")
        for parent in v.parents:
            dot.edge(ids[parent], ids[v])
    return dot


# %%
viz.show(draw(loss, names={x: "x", W: "W", b: "b"}))

# %% [markdown]
# ### Try it: move the input
#
# The slider sets one input, $s$, of a tiny expression that uses it twice:
# $L = \tanh(s \cdot w + b) \cdot s$ with $w = 1.5$, $b = -0.5$. Our engine redraws its graph
# and gradient at every move (the two unnamed leaves are the constants $w$ and $b$), and
# torch's $\frac{dL}{ds}$ (computed in the callback) is shown above it. Watch `s.grad`: it is the sum of the two paths, $\tanh(sw + b)$ through the
# product and $s \cdot w\,(1 - \tanh^2)$ through `tanh`.

# %%
def redraw(change=None):
    s_value = s_slider.value
    s = Value(s_value)
    L = tanh(s * 1.5 + (-0.5)) * s
    L.backward()
    ts = torch.tensor(s_value, dtype=torch.float64, requires_grad=True)
    (torch.tanh(ts * 1.5 - 0.5) * ts).backward()
    same = np.allclose(s.grad, ts.grad.numpy())
    view.value = (f"<p>s = {s_value:.2f}: our s.grad = {float(s.grad):.5f}, torch's = "
                  f"{ts.grad.item():.5f} {'✓' if same else '✗ DIFFERENT'}</p>"
                  + draw(L, names={s: "s"}).pipe(format="svg").decode())


s_slider = widgets.FloatSlider(value=0.5, min=-2.0, max=2.0, step=0.25, description="s",
                               continuous_update=False)
view = widgets.HTML()
s_slider.observe(redraw, names="value")
redraw()
widgets.VBox([s_slider, view])

# %% [markdown]
# ## 7. Deep graphs: recursion runs out
#
# `topo_sort` calls itself once per level of the graph. Python stops a recursion at about a
# thousand nested calls (`sys.getrecursionlimit()`), so a long chain of operations (an RNN
# unrolled over many steps, for example) breaks it. A chain of 100,000 additions:

# %%
import sys

x = Value(1.0)
y = x
for _ in range(100_000):
    y = y + 0.001
try:
    y.backward()
except RecursionError as error:
    print(f"recursion limit: {sys.getrecursionlimit()}\nRecursionError: "
          + ("our recursive topo_sort went too deep" if "recursion" in str(error) else str(error)))

# %% [markdown]
# The cure is to keep our own stack instead of Python's. The same depth-first search,
# iteratively: a value is pushed once to expand it and once more (`done=True`) to be appended
# after its parents.

# %%
def topo_sort_iterative(root):
    """topo_sort without recursion: an explicit stack of (value, done) pairs."""
    order, seen, stack = [], set(), [(root, False)]
    while stack:
        v, done = stack.pop()
        if done:
            order.append(v)
            continue
        if v in seen:
            continue
        seen.add(v)
        stack.append((v, True))
        stack.extend((parent, False) for parent in v.parents if parent not in seen)
    return order


def is_topological(order):
    """Every value once, and after all its parents."""
    position = {v: i for i, v in enumerate(order)}
    return len(position) == len(order) and all(
        position[p] < position[v] for v in order for p in v.parents)


print("a valid order for the graph of section 6:", is_topological(topo_sort_iterative(loss)))
backward(y, order=topo_sort_iterative)
print("x.grad =", x.grad, "  y =", round(float(y.data), 6))

# %% [markdown]
# (It visits the parents in another order than the recursive version, so its list can differ:
# a graph usually has many topological orders, and any of them gives the same gradients.)
# Our engine also computed gradients for the 100,000 constants `0.001`; torch skips tensors
# that do not require grad
# ([autograd mechanics](https://docs.pytorch.org/docs/stable/notes/autograd.html)). torch and
# minigrad handle the same chain without trouble:

# %%
# %%both x --no-graph
x = torch.tensor(1.0, dtype=torch.float64, requires_grad=True)
y = x
for _ in range(100_000):
    y = y + 0.001
y.backward()
print(x.grad, round(y.item(), 6))

# %% [markdown]
# ## 8. Look inside minigrad: the real engine
#
# minigrad's backward is `minigrad.autograd.engine.execute`. First, how it finds the order:
# not with a topological sort, but by counting, for each node, how many edges point into it
# (its **dependencies**), with an explicit stack like ours:

# %%
import inspect

from minigrad.autograd import engine

print(inspect.getsource(engine._dependencies))

# %% [markdown]
# And the loop itself:

# %%
print(inspect.getsource(engine.execute))

# %% [markdown]
# Read it next to our `backward`. What it adds:
#
# * **Dependency counts instead of a topological sort.** A node is *ready* when its count
#   drops to 0: every node that feeds it has run, so its gradient is complete. This is
#   Kahn's algorithm; it needs no list of all nodes in order, only the counts.
# * **A ready queue ordered by `sequence_nr`.** Every node gets a number when it is created;
#   among the ready nodes, the heap (`heapq`, with `_Ready.__lt__`, printed below) pops the
#   most recent one first, as torch's engine does (the cells below show it). Any topological order gives
#   the same gradients; a fixed rule makes the order, and so the order of hooks, predictable.
# * **Hooks.** `evaluate_function` (below) runs tensor hooks and `retain_grad` before a node
#   (lesson 04), node pre-hooks (lessons 01 and 02), and node post-hooks after it.
# * **Freeing saved tensors.** After a node ran, `node.release_variables()` drops what it
#   saved, unless `retain_graph=True`. Our closures keep everything alive as long as the graph
#   exists.
# * **`retain_graph` and `create_graph`.** The whole pass runs under
#   `set_grad_enabled(task.create_graph)`: with `create_graph=True` the backward operations are
#   themselves recorded, so the gradient has a graph and can be differentiated again.
#   Our engine works on bare NumPy arrays, so its gradients can never be differentiated.

# %% [markdown]
# The heap's rule, `_Ready`: the larger `sequence_nr`, the sooner a node runs.

# %%
print(inspect.getsource(engine._Ready))

# %% [markdown]
# The order of the ready queue is visible from outside: a pre-hook on each node (lessons 01
# and 02) records when it runs. `exp` and `sin` both become ready once `AddBackward0` has run; the one
# created last, `sin`, runs first, on both engines:

# %%
# %%both x
x = torch.tensor(1.0, requires_grad=True)
a = torch.exp(x)      # created first
b = torch.sin(x)      # created second
y = a + b
order = []
for node in (y.grad_fn, a.grad_fn, b.grad_fn):
    node.register_prehook(lambda grads, node=node: order.append(node.name()))
y.backward()
print(order)

# %% [markdown]
# Here is `evaluate_function`, which runs one node with its hooks and frees its saved tensors:

# %%
print(inspect.getsource(engine.evaluate_function))

# %% [markdown]
# Two of these additions, on both engines. Freeing the saved tensors is why a second backward
# through the same graph fails (see
# [`torch.Tensor.backward`](https://docs.pytorch.org/docs/stable/generated/torch.Tensor.backward.html)
# for `retain_graph` and `create_graph`):

# %%
# %%both x
x = torch.tensor(2.0, requires_grad=True)
y = torch.exp(x) * x
y.backward()
y.backward()

# %% [markdown]
# With `create_graph=True` the gradient is a tensor with a `grad_fn`, and differentiating it
# again gives the second derivative, $\frac{d^2}{dx^2} \sin x = -\sin x$ (here with
# [`torch.autograd.grad`](https://docs.pytorch.org/docs/stable/generated/torch.autograd.grad.html),
# which returns the gradient instead of storing it in `.grad`):

# %%
# %%both x dy d2y
x = torch.tensor(2.0, requires_grad=True)
y = torch.sin(x)
(dy,) = torch.autograd.grad(y, x, create_graph=True)
(d2y,) = torch.autograd.grad(dy, x)
print(dy, d2y)
print(torch.cos(x), -torch.sin(x))

# %% [markdown]
# Finally, the broadcasting rule of section 5 lives in `graph.validate_outputs`, which the
# engine applies to the result of every node: a gradient whose shape differs from the input's
# is summed back with `sum_to`, minigrad's `unbroadcast`.

# %%
print(inspect.getsource(minigrad.autograd.graph.validate_outputs))

# %% [markdown]
# ## 9. The payoff: train a network with your engine
#
# Everything a training loop needs is now in our hands: a forward pass that records, a
# backward pass that fills `.grad`, and plain NumPy for the update. Here is a two-layer
# network, $\hat y = \tanh(XW_1 + b_1)\,W_2 + b_2$ with 8 hidden units, fitted to 32 points of
# $y = \sin(3x_0) + x_1$ by gradient descent on the mean squared error. Two things every
# training loop does, with torch's names:
#
# * **`zero_grad`**: our `backward` *adds* to a leaf's `.grad`, as torch's does (lesson 03),
#   so every step starts by clearing the parameters' gradients;
# * **the SGD step**: $p \leftarrow p - \eta\,\partial L/\partial p$, done on `.data`, outside
#   the graph (what `torch.optim.SGD.step()` does under `no_grad`).
#
# The same network runs on torch, from the same starting weights, with `torch.optim.SGD`, and
# `check` compares the two losses at every step and the weights at the end.

# %%
def normal(*shape):
    """The same normal numbers on every run (float64, as our engine computes)."""
    return compare.same_random(*shape).astype(np.float64)


inputs = normal(32, 2)
targets = np.sin(3 * inputs[:, :1]) + inputs[:, 1:]
start = {"W1": normal(2, 8) * 0.5, "b1": np.zeros(8), "W2": normal(8, 1) * 0.5, "b2": np.zeros(1)}


def train_ours(steps, lr=0.1, zero_grad=True):
    params = {name: Value(value.copy()) for name, value in start.items()}
    X, y = Value(inputs), Value(targets)
    losses = []
    for step in range(steps):
        if zero_grad:
            for p in params.values():
                p.grad = None
        hidden = tanh(X @ params["W1"] + params["b1"])
        error = hidden @ params["W2"] + params["b2"] + y * (-1.0)
        loss = (error * error).sum() * (1 / len(inputs))
        loss.backward()
        for p in params.values():
            p.data = p.data - lr * p.grad
        losses.append(float(loss.data))
    return losses, params


def train_torch(steps, lr=0.1, zero_grad=True):
    params = {name: torch.tensor(value, requires_grad=True) for name, value in start.items()}
    X, y = torch.tensor(inputs), torch.tensor(targets)
    optimizer = torch.optim.SGD(params.values(), lr=lr)
    losses = []
    for step in range(steps):
        if zero_grad:
            optimizer.zero_grad()
        hidden = torch.tanh(X @ params["W1"] + params["b1"])
        loss = ((hidden @ params["W2"] + params["b2"] - y) ** 2).mean()
        loss.backward()
        optimizer.step()
        losses.append(loss.item())
    return losses, params


ours, our_params = train_ours(300)
theirs, their_params = train_torch(300)
check("the 300 losses", np.array(ours), torch.tensor(theirs, dtype=torch.float64))
for name in start:
    check(f"{name} after training", our_params[name].data, their_params[name].detach())
print(f"loss: {ours[0]:.4f} at the start, {ours[-1]:.4f} after 300 steps, on both engines")

# %% [markdown]
# Our forty-line engine trains a network, step for step as torch does. Now the most common
# training bug: forget `zero_grad`. Each step's gradient is then the *sum of all the
# gradients so far*, so the steps keep pushing in old directions long after the slope has
# changed: after two good steps the loss overshoots and swings up and down instead of falling
# steadily. torch makes the same mistake in the same way (the check compares the curves):

# %%
forgot, _ = train_ours(300, zero_grad=False)
forgot_torch, _ = train_torch(300, zero_grad=False)
check("the 300 losses without zero_grad", np.array(forgot),
      torch.tensor(forgot_torch, dtype=torch.float64))

fig, ax = plt.subplots(figsize=(8, 3.5))
ax.plot(ours, label="with zero_grad")
ax.plot(forgot, label="without zero_grad: gradients pile up")
ax.set_yscale("log")
ax.set_xlabel("step")
ax.set_ylabel("mean squared error")
ax.legend()
plt.show()
print(f"after 300 steps: {ours[-1]:.4f} with zero_grad, {forgot[-1]:.4f} without")

# %% [markdown]
# ### Try it: the learning rate
#
# Move the learning rate and watch both curves: a small one trains slowly, a larger one
# faster, and without `zero_grad` the curve swings whatever the rate, because the summed
# gradients keep old directions alive. (Each move trains our engine twice, 300 steps each.)

# %%
from coursekit.widgets import figure_html


def replot(change=None):
    lr = lr_slider.value
    with_zero, _ = train_ours(300, lr=lr)
    without, _ = train_ours(300, lr=lr, zero_grad=False)
    fig, ax = plt.subplots(figsize=(8, 3.2))
    ax.plot(with_zero, label="with zero_grad")
    ax.plot(without, label="without zero_grad")
    ax.set_yscale("log")
    ax.set_xlabel("step")
    ax.set_title(f"learning rate {lr:.2f}")
    ax.legend()
    curves.value = figure_html(fig)


lr_slider = widgets.FloatSlider(value=0.1, min=0.02, max=0.5, step=0.02, description="lr",
                                continuous_update=False)
curves = widgets.HTML()
lr_slider.observe(replot, names="value")
replot()
widgets.VBox([lr_slider, curves])

# %% [markdown]
# ## Where our engine and minigrad differ from torch
#
# * Our engine gives every leaf a gradient, constants included, and computes the gradient of
#   every input of every operation; torch (and minigrad) skip inputs that do not require grad.
# * Our engine works in float64 NumPy arrays only, has no dtypes, no views, no in-place
#   operations and no version counters (lesson 07), and its gradients have no graph.
# * minigrad's engine follows torch's: the cells above give the same output, the same errors
#   and the same gradients on both. Its names print with a `minigrad.` prefix.

# %% [markdown]
# ## Self-check
#
# 1. In `b = a + a; c = b + b; d = c + c`, how many times does `naive_backward` visit `a`?
#    How many times does `backward` (with `topo_sort`) run each node?
# 2. Why does `backward` add the gradients for a value in `grads` and wait, instead of
#    passing each one on as soon as it arrives?
# 3. `w` has shape `(1, 3)` and `x @ W + w` has shape `(4, 3)`. What does `unbroadcast` do
#    to the gradient `g` for `w`?
# 4. Why does our recursive `topo_sort` fail on a chain of 100,000 operations, and what does
#    minigrad's engine do instead?
# 5. Name two things minigrad's `execute` does that our `backward` does not.
#
# <details><summary>Answers</summary>
#
# 1. Eight times (one per path, $2^3$). `backward` runs each node exactly once.
# 2. A node's backward must get the *total* gradient of its output. Running it on a partial
#    gradient and again on the rest would repeat all the work behind it, once per path (the
#    sums come out right, as section 3 shows, but the work grows like the number of paths), and
#    anything that looks at a node's gradient on the way, such as a hook, would see only part
#    of it.
# 3. It sums `g` over axis 0 with `keepdims=True` (size 1 in `w`, 4 in `g`), giving shape
#    `(1, 3)`.
# 4. Each level of the graph is one nested Python call, and Python's recursion limit is about
#    1000. minigrad walks the graph with an explicit stack (`_dependencies`) and a loop over a
#    ready queue (`execute`), so depth costs no Python stack.
# 5. Any two of: dependency counts and a ready queue ordered by `sequence_nr`; tensor hooks,
#    `retain_grad` and node hooks; freeing saved tensors unless `retain_graph=True`;
#    recording the backward pass with `create_graph=True`; computing only what `inputs` need.
#
# </details>
#
# **Exercises:** `exercises/15_build_your_own_engine.ipynb` (counting paths, the engine's
# order from dependency counts, a `mean` along axes, and a buggy `mul`).
