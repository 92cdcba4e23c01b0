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
# # 17 · Functional transforms: `torch.func`
#
# Until now we differentiated *tensors*: run the forward pass on a leaf that requires grad,
# then call `backward()` or `torch.autograd.grad` on the result. `torch.func` differentiates
# *functions*: `torch.func.grad(f)` is a new Python function that returns the gradient of
# `f`. Because the result is again a function, transforms stack: the gradient of a gradient,
# the Jacobian of a gradient, the gradient of every sample of a batch at once.
#
# **Goals.** By the end you can:
#
# * use `grad`, `grad_and_value` (with `argnums` and `has_aux`), `vjp` and `jvp`, and say what
#   one call of each costs;
# * choose between `jacrev` and `jacfwd` from the shape of the Jacobian, and count the passes
#   each one needs;
# * compute a Hessian (`hessian` is `jacfwd(jacrev(f))`) and a Hessian-vector product two
#   ways, reverse over reverse and forward over reverse;
# * batch a function with `vmap` (`in_dims`, `out_dims`, nesting) and compute per-sample
#   gradients of a small network with `vmap(grad(loss))` and `functional_call`;
# * say why torch's documentation points from `torch.autograd.functional` to `torch.func`.
#
# **Time:** about 40 minutes. You need lesson 02 (forward and reverse mode), lesson 11
# (vector-Jacobian products, Jacobians row by row and column by column) and lesson 12
# (second derivatives, the Hessian-vector product trick).

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
# ## 1. `grad`: a function in, a function out
#
# [`torch.func.grad(f)`](https://docs.pytorch.org/docs/stable/generated/torch.func.grad.html)
# takes a function `f` that returns a scalar (0-dim) tensor and gives back a *function* with the
# same arguments, which returns $\nabla f$ with respect to the first argument. Compare it
# with lesson 12's way for $f(\mathbf x) = \sum_i x_i \sin x_i$, whose gradient is
# $\sin x_i + x_i \cos x_i$:

# %%
# %%both x g_tensors g_func
def f(x):
    return (x * torch.sin(x)).sum()


x = torch.tensor([0.5, 1.0, 2.0], dtype=torch.float64)

# the tensor way: a leaf that requires grad, a forward pass, then grad of the result
xr = x.clone().requires_grad_()
(g_tensors,) = torch.autograd.grad(f(xr), xr)

# the function way: grad(f) is a function; call it on a plain tensor
grad_f = torch.func.grad(f)
g_func = grad_f(x)
print(g_tensors)
print(g_func)
print("closed form:", torch.sin(x) + x * torch.cos(x))
print("x.requires_grad:", x.requires_grad, " g_func.grad_fn:", g_func.grad_fn)

# %% [markdown]
# Three things differ from `torch.autograd.grad`. You never mark anything with
# `requires_grad`: `grad` wraps the input in a tensor of its own that requires grad, and
# differentiates with respect to that. You never see the
# forward graph: `grad` runs `f`, takes the gradient and hands back a plain tensor. And
# `grad_f` is an ordinary function, so it can be called on other points, passed around, and
# transformed again. The second derivative of $x^3$ is `grad(grad(cube))`, no `create_graph`
# needed (each `grad` records what the next one needs):

# %%
# %%both d1 d2 d3
def cube(x):
    return x ** 3


point = torch.tensor(2.0, dtype=torch.float64)
d1 = torch.func.grad(cube)(point)
d2 = torch.func.grad(torch.func.grad(cube))(point)
d3 = torch.func.grad(torch.func.grad(torch.func.grad(cube)))(point)
print(d1, d2, d3, "  closed forms: 3x² = 12, 6x = 12, 6")

# %% [markdown]
# `grad` wants a scalar (0-dim) output: it is stricter than `backward()` without an argument
# (lesson 11), which takes any one-element tensor, even of shape (1,). For a vector output its
# error points you to the transforms of the next sections:

# %%
# %%both
torch.func.grad(torch.sin)(torch.tensor([1.0, 2.0]))

# %% [markdown]
# ### `argnums`, `has_aux` and `grad_and_value`
#
# A loss usually has several arguments: weights, a bias, data. `argnums` says which ones to
# differentiate (the default 0 is the first); a tuple gives a tuple of gradients.
# `has_aux=True` lets `f` return `(loss, anything)`: only the loss is differentiated, the
# rest comes back untouched (predictions to log, say).
# [`grad_and_value`](https://docs.pytorch.org/docs/stable/generated/torch.func.grad_and_value.html)
# returns the loss as well, from the same forward pass, so a training step does not run
# the model twice.

# %%
# %%both w b X target gw gb preds grads value
def loss_fn(w, b, X, target):
    preds = torch.tanh(X @ w + b)
    return ((preds - target) ** 2).mean(), preds


w = torch.tensor([0.5, -0.25], dtype=torch.float64)
b = torch.tensor(0.1, dtype=torch.float64)
X = torch.tensor([[1.0, 2.0], [-0.5, 1.0], [2.0, -1.0]], dtype=torch.float64)
target = torch.tensor([0.9, 0.3, 0.2], dtype=torch.float64)

(gw, gb), preds = torch.func.grad(loss_fn, argnums=(0, 1), has_aux=True)(w, b, X, target)
print("dL/dw:", gw, " dL/db:", gb)
print("aux (predictions):", preds)

grads, (value, _) = torch.func.grad_and_value(loss_fn, argnums=(0, 1), has_aux=True)(
    w, b, X, target)
print("loss:", value, " same gradients:", torch.equal(grads[0], gw), torch.equal(grads[1], gb))

# %% [markdown]
# ### The graph behind a transform
#
# A transform's result has no history when its input has none. But `torch.func` composes
# with ordinary autograd too: give `grad_f` an input that requires grad, and the gradient
# comes back with a graph, the recorded backward pass of `f` (lesson 12 drew the same kind
# of graph). Read it from the top: the leaf `x` feeds `sin` and `cos` (the `CosBackward0`
# comes from `sin`'s backward, which computes `grad * cos(x)`), and $\sin x + x\cos x$ ends
# in an `AddBackward0` of the two paths of the product rule.

# %%
# %%both --no-graph xg g_graph
xg = torch.tensor([0.5, 1.0, 2.0], dtype=torch.float64, requires_grad=True)
g_graph = torch.func.grad(f)(xg)
print(g_graph.grad_fn.name())
(second,) = torch.autograd.grad(g_graph.sum(), xg)
print("d/dx of the gradient's sum:", second)

# %% [markdown]
# The graphs are the same except for one node, which is why the cell above compares
# values but not graphs (`--no-graph`). torch gives each active transform a number, its *level*,
# wraps the tensors it works on with that number, differentiates only tensors of its own level and
# unwraps the result when it returns; minigrad has one graph for everything, so `grad`
# differentiates with respect to an alias of `x` (`x.view_as(x)`), which keeps the inner gradient
# apart from any outer one: that is the extra `ViewBackward0` on minigrad's side (left).

# %%
viz.show(viz.side_by_side(compare.get("g_graph"), compare.get("g_graph", "torch"),
                          params={"x": compare.get("xg")},
                          torch_params={"x": compare.get("xg", "torch")}))

# %% [markdown]
# ### Look inside: how minigrad keeps transforms apart
#
# The docstring of minigrad's reverse-mode transforms says how one graph does the work of
# torch's levels: wrap each input (the alias above, or a fresh leaf), differentiate with
# `create_graph=True` so that an enclosing transform can differentiate again, and detach the
# results that depend on nothing outside the transform.

# %%
print(minigrad.func.eager_transforms.__doc__)

# %% [markdown]
# ## 2. `vjp` and `jvp`: one product each
#
# Lesson 11's function takes three numbers and returns two,
# $f(\mathbf x) = (x_0 x_1,\; x_1 \sin x_2)$, with a $2\times 3$ Jacobian $J$.
#
# * [`torch.func.vjp(f, x)`](https://docs.pytorch.org/docs/stable/generated/torch.func.vjp.html)
#   runs `f` once, recording the graph, and returns the output and a function `vjp_fn`.
#   Each call `vjp_fn(v)` is **one backward pass** and returns $\mathbf v^{\mathsf T} J$ (as a
#   tuple, one entry per input). You can call it again with another $\mathbf v$: the graph
#   is kept.
# * [`torch.func.jvp(f, (x,), (u,))`](https://docs.pytorch.org/docs/stable/generated/torch.func.jvp.html)
#   runs `f` once in forward mode (lesson 02's dual numbers) and returns the output and
#   $J\mathbf u$. **One forward pass** per direction $\mathbf u$, and no graph is kept.
#
# (torch loads its forward-mode helpers the first time `jvp` runs, and that import prints
# deprecation warnings of torch's own that have nothing to do with us. The next cell loads
# them quietly, once.)

# %%
import warnings
with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    import torch._decomp.decompositions_for_jvp  # noqa: F401

# %%
# %%both x out row0 mixed Ju
def f2(x):
    return torch.stack([x[0] * x[1], x[1] * torch.sin(x[2])])


x = torch.tensor([1.0, 2.0, 0.5], dtype=torch.float64)
out, vjp_fn = torch.func.vjp(f2, x)
(row0,) = vjp_fn(torch.tensor([1.0, 0.0], dtype=torch.float64))    # v = e_0: row 0 of J
(mixed,) = vjp_fn(torch.tensor([3.0, -1.0], dtype=torch.float64))  # 3 row 0 - row 1
out_again, Ju = torch.func.jvp(f2, (x,), (torch.tensor([0.0, 0.0, 1.0], dtype=torch.float64),))
print("f(x) =", out)
print("v = e0      ->", row0)
print("v = (3, -1) ->", mixed)
print("u = e2      ->", Ju, " (column 2 of J)")

# %% [markdown]
# A one-hot $\mathbf v$ gives a row of $J$, a one-hot $\mathbf u$ a column. So a whole
# Jacobian costs one backward pass per **output** (rows, through `vjp`) or one forward pass
# per **input** (columns, through `jvp`). Let us count both, with a hook on the input inside
# the function for backward passes (it runs each time a backward pass reaches $\mathbf x$) and
# a counter for the calls of the function:

# %%
# %%both J_rows J_cols
calls, backward_passes = [], []


def counted(fn):
    """fn, counting its calls and the backward passes that reach its input."""
    def wrapper(x):
        calls.append(1)
        if x.requires_grad:
            x.register_hook(lambda grad: backward_passes.append(1))
        return fn(x)
    return wrapper


def jacobian_by_rows(fn, x):
    """One vjp per output: J row by row."""
    out, vjp_fn = torch.func.vjp(fn, x)
    eye = torch.eye(out.numel(), dtype=out.dtype)
    return torch.stack([vjp_fn(eye[i])[0] for i in range(out.numel())])


def jacobian_by_columns(fn, x):
    """One jvp per input: J column by column."""
    eye = torch.eye(x.numel(), dtype=x.dtype)
    return torch.stack([torch.func.jvp(fn, (x,), (eye[j],))[1] for j in range(x.numel())],
                       dim=1)


def cost(method, fn, x):
    calls.clear()
    backward_passes.clear()
    J = method(counted(fn), x)
    return J, len(calls), len(backward_passes)


J_rows, n_calls, n_back = cost(jacobian_by_rows, f2, x)
print(f"by rows:    {n_calls} call of f, {n_back} backward passes")
J_cols, n_calls, n_back = cost(jacobian_by_columns, f2, x)
print(f"by columns: {n_calls} calls of f (forward passes), {n_back} backward passes")
print(J_rows, torch.equal(J_rows, J_cols))

# %% [markdown]
# ## 3. `jacrev` or `jacfwd`: tall and wide Jacobians
#
# [`jacrev`](https://docs.pytorch.org/docs/stable/generated/torch.func.jacrev.html) builds
# the Jacobian from vjps (rows), and
# [`jacfwd`](https://docs.pytorch.org/docs/stable/generated/torch.func.jacfwd.html) from jvps
# (columns). The results are equal; the costs are not. For $f:\mathbb R^n \to \mathbb R^m$:
#
# | | work | cheaper when |
# |---|---|---|
# | `jacrev` | one forward pass + $m$ backward passes | $m < n$: a **wide** Jacobian (few outputs, many inputs; a loss is the extreme, $m = 1$) |
# | `jacfwd` | $n$ forward passes with tangents | $n < m$: a **tall** Jacobian (few inputs, many outputs) |
#
# Two functions to count on: `spread` takes 3 numbers and returns 12 (tall), `squash` takes
# 12 and returns 2 (wide).

# %%
# %%both tall_rev tall_fwd wide_rev wide_fwd
def spread(x):            # R^3 -> R^12
    k = torch.arange(1, 5, dtype=x.dtype)
    return torch.sin(torch.outer(k, x)).reshape(-1)


def squash(x):            # R^12 -> R^2
    return torch.stack([(x ** 2).sum(), torch.tanh(x).prod()])


a3 = torch.linspace(-1.0, 1.0, 3, dtype=torch.float64)
a12 = torch.linspace(-1.0, 1.0, 12, dtype=torch.float64)
for name, fn, point in (("spread (tall)", spread, a3), ("squash (wide)", squash, a12)):
    _, calls_rev, back_rev = cost(jacobian_by_rows, fn, point)
    _, calls_fwd, back_fwd = cost(jacobian_by_columns, fn, point)
    print(f"{name}: rows need {calls_rev} forward + {back_rev} backward passes, "
          f"columns need {calls_fwd} forward passes")

tall_rev, tall_fwd = torch.func.jacrev(spread)(a3), torch.func.jacfwd(spread)(a3)
wide_rev, wide_fwd = torch.func.jacrev(squash)(a12), torch.func.jacfwd(squash)(a12)
print("shapes:", tuple(tall_rev.shape), tuple(wide_rev.shape),
      " equal:", torch.allclose(tall_rev, tall_fwd), torch.allclose(wide_rev, wide_fwd))

# %% [markdown]
# For the tall `spread`, rows need 1 + 12 passes and columns 3; for the wide
# `squash`, rows need 1 + 2 and columns 12. A backward pass costs a small multiple of a forward
# pass (lesson 02), so the rule of thumb is: fewer outputs than inputs, go reverse; fewer inputs
# than outputs, go forward.
#
# `torch.func` does not run those passes one after the other in Python: `jacrev` calls
# `vmap` (section 6) over the $m$ one-hot vectors, so torch pushes all $m$ of them through
# *one* batched backward pass (and `jacfwd` all $n$ tangents through one batched forward
# pass). The arithmetic is the same $m$ or $n$ products, done as matrix operations instead
# of a Python loop. minigrad does the same, so counting Python calls gives one of each in
# both engines: `f` runs once, and `jacrev`'s backward pass reaches `x` once, for all 12
# rows at a time:

# %%
for library in (torch, minigrad):
    seen = {"calls": 0, "hooks": 0}

    def spread_counted(x, library=library, seen=seen):
        seen["calls"] += 1
        if x.requires_grad:
            x.register_hook(lambda grad: seen.update(hooks=seen["hooks"] + 1))
        k = library.arange(1, 5, dtype=x.dtype)
        return library.sin(library.outer(k, x)).reshape(-1)

    point = library.linspace(-1.0, 1.0, 3, dtype=library.float64)
    library.func.jacfwd(spread_counted)(point)
    fwd_calls = seen["calls"]
    seen.update(calls=0, hooks=0)
    library.func.jacrev(spread_counted)(point)
    print(f"{library.__name__:8}: jacfwd called f {fwd_calls} time(s); jacrev called f "
          f"{seen['calls']} time(s) and its backward reached x {seen['hooks']} time(s)")

# %% [markdown]
# ### Try it: the cost of a Jacobian by shape
#
# Pick the number of inputs $n$ and outputs $m$ of a function $\mathbb R^n \to \mathbb R^m$.
# The widget builds the Jacobian of one such function with minigrad both ways
# (`jacobian_by_rows` and `jacobian_by_columns` from section 2, counting real passes) and
# plots the passes each way needs as $m$ varies, with your $m$ marked. Where the two lines
# cross, near $m = n$, the choice flips. (Passes are only a first measure: a backward pass,
# and a forward pass that carries tangents, each cost a small multiple of a plain forward
# pass.)

# %% jupyter={"source_hidden": true}
from coursekit.widgets import figure_html

rows_m, columns_m, cost_m = (compare.get("jacobian_by_rows"), compare.get("jacobian_by_columns"),
                             compare.get("cost"))


def make_function(m):
    """A function R^n -> R^m (minigrad): m different smooth mixtures of the inputs."""
    def fn(x):
        k = minigrad.arange(1, m + 1, dtype=x.dtype)
        return minigrad.sin(minigrad.outer(k, x).sum(dim=1) / (1 + x.numel()))
    return fn


def passes(m, n):
    point = minigrad.linspace(-1.0, 1.0, n, dtype=minigrad.float64)
    J_r, calls_r, back_r = cost_m(rows_m, make_function(m), point)
    J_c, calls_c, back_c = cost_m(columns_m, make_function(m), point)
    assert minigrad.allclose(J_r, J_c)
    return calls_r + back_r, calls_c + back_c


def redraw_cost(change=None):
    m, n = outputs_slider.value, inputs_slider.value
    ms = np.arange(1, 17)
    by_rows, by_columns = zip(*[passes(k, n) for k in ms])
    here_rows, here_columns = passes(m, n)
    fig, ax = plt.subplots(figsize=(6.5, 3.4))
    ax.plot(ms, by_rows, "o-", label="jacrev: 1 forward + m backward")
    ax.plot(ms, by_columns, "s-", label="jacfwd: n forward (with tangents)")
    ax.axvline(m, color="grey", linestyle="--", linewidth=1)
    ax.set(xlabel="outputs m", ylabel="passes counted", ylim=(0, 18),
           title=f"a Jacobian of shape ({m}, {n})")
    ax.legend(loc="upper left")
    fig.tight_layout()
    image = figure_html(fig)
    better = ("jacrev" if here_rows < here_columns else
              "jacfwd" if here_columns < here_rows else "either")
    cost_view.value = (f"<p>m = {m}, n = {n}: jacrev {here_rows} passes, jacfwd "
                       f"{here_columns} passes → <b>{better}</b></p>"
                       + image)


outputs_slider = widgets.IntSlider(value=3, min=1, max=16, description="outputs m")
inputs_slider = widgets.IntSlider(value=6, min=1, max=16, description="inputs n")
cost_view = widgets.HTML()
outputs_slider.observe(redraw_cost, names="value")
inputs_slider.observe(redraw_cost, names="value")
redraw_cost()
widgets.VBox([widgets.HBox([outputs_slider, inputs_slider]), cost_view])

# %% [markdown]
# ## 4. Hessians and Hessian-vector products
#
# The Hessian of $f:\mathbb R^n\to\mathbb R$ is the Jacobian of its gradient. `grad(f)` maps
# $\mathbb R^n \to \mathbb R^n$, a square Jacobian, where neither way wins on shape; torch's
# [`hessian`](https://docs.pytorch.org/docs/stable/generated/torch.func.hessian.html) is
# `jacfwd(jacrev(f))`: reverse mode for the gradient (one output: the cheap direction),
# then forward mode over it, which avoids recording a second graph. Any composition gives
# the same matrix. Our function is lesson 12's
# $f(\mathbf x) = \big(\sum_i \tanh(x_i)^2\big)\,x_0$:

# %%
# %%both x v H H_rr
def f4(x):
    return (torch.tanh(x) ** 2).sum() * x[0]


x = torch.tensor([0.5, -1.0, 2.0, 0.3], dtype=torch.float64)
v = torch.tensor([1.0, 0.0, 2.0, -1.0], dtype=torch.float64)
H = torch.func.hessian(f4)(x)
H_rr = torch.func.jacrev(torch.func.jacrev(f4))(x)
print(H)
print("jacfwd(jacrev) == jacrev(jacrev):", torch.allclose(H, H_rr),
      "  == autograd.functional.hessian:",
      torch.allclose(H, torch.autograd.functional.hessian(f4, x)))

# %% [markdown]
# ### $H\mathbf v$ two ways
#
# Lesson 12 computed $H\mathbf v$ without the Hessian by **reverse over reverse**: a gradient
# recorded with `create_graph=True`, then the gradient of $\mathbf g \cdot \mathbf v$ (two
# backward passes). The torch.func tutorial
# ([Jacobians, Hessians, hvp, vhp, and more](https://docs.pytorch.org/tutorials/intermediate/jacobians_hessians.html))
# does it **forward over reverse**: $H\mathbf v$ is the directional derivative of the gradient
# along $\mathbf v$, that is the jvp of `grad(f)` with tangent $\mathbf v$. One call:
#
# ```python
# _, hv = torch.func.jvp(torch.func.grad(f), (x,), (v,))
# ```
#
# Here both, with the counters of section 2 (calls of $f$, backward passes reaching
# $\mathbf x$):

# %%
# %%both x v hv_rr hv_fr
def hvp_reverse_over_reverse(fn, x, v):
    xr = x.detach().requires_grad_()
    (g,) = torch.autograd.grad(fn(xr), xr, create_graph=True)   # backward pass 1, recorded
    (hv,) = torch.autograd.grad((g * v).sum(), xr)               # backward pass 2
    return hv


def hvp_forward_over_reverse(fn, x, v):
    return torch.func.jvp(torch.func.grad(fn), (x,), (v,))[1]   # 1 backward, carrying tangents


calls.clear()
backward_passes.clear()
hv_rr = hvp_reverse_over_reverse(counted(f4), x, v)
print(f"reverse over reverse: {len(calls)} call of f, {len(backward_passes)} backward passes")
calls.clear()
backward_passes.clear()
hv_fr = hvp_forward_over_reverse(counted(f4), x, v)
print(f"forward over reverse: {len(calls)} call of f, {len(backward_passes)} backward pass")
print(hv_rr, hv_fr, H @ v, sep="\n")

# %% [markdown]
# Equal vectors. What the first way keeps in memory shows in its graph: the gradient
# `g` made with `create_graph=True` holds a recorded backward pass, with the tensors its
# nodes saved, until the second pass is done. Forward over reverse keeps no such gradient
# between two passes: the tangents ride along its one backward pass, and whatever `grad`
# records inside is dropped when it returns.

# %%
# %%both x g
def graph_size(node, seen=None):
    """The number of nodes reachable from a grad_fn."""
    seen = set() if seen is None else seen
    if node is None or node in seen:
        return 0
    seen.add(node)
    return 1 + sum(graph_size(child, seen) for child, _ in node.next_functions)


xr = x.clone().requires_grad_()
forward_nodes = graph_size(f4(xr).grad_fn)
(g,) = torch.autograd.grad(f4(xr), xr, create_graph=True)
print("nodes of f's graph:", forward_nodes, "  of the recorded gradient g:", graph_size(g.grad_fn))

# %% [markdown]
# Reverse over reverse runs the backward pass of $f$ while *recording* it (`g`'s
# graph holds $f$'s nodes plus the recorded backward pass, all of it kept alive), then a backward
# pass through that recorded graph. Forward over reverse runs $f$ and its backward pass once each,
# with every value carrying a tangent: each operation does its own work plus that of its
# forward-mode rule, and no recorded gradient is kept for a second pass. Same result, one backward
# pass instead of two and less memory; it is also the strategy torch's `hessian` documentation
# names.
#
# ## 5. Why `torch.func` and not `torch.autograd.functional`?
#
# Lesson 12 used `torch.autograd.functional.hessian` and `hvp`. They take a function too,
# but they return *tensors*, and they are built on `autograd.grad` calls in a Python loop:
# [`functional.jacobian`](https://docs.pytorch.org/docs/stable/generated/torch.autograd.functional.jacobian.html)
# calls `autograd.grad` once per row. Its `vectorize=True` option batches the rows with an
# experimental prototype of vmap, and the documentation of that option points you to
# `torch.func.jacrev` and `torch.func.jacfwd` instead, as less experimental and faster.
# [`functional.jvp`](https://docs.pytorch.org/docs/stable/generated/torch.autograd.functional.jvp.html)
# is not even forward mode: it runs the double-backward trick, and its documentation points
# you to `torch.func.jvp` (or `forward_ad`). Two things make `torch.func` the better tool:
#
# * **Composability.** Each transform returns a function, so they stack: `jacfwd(jacrev(f))`,
#   `vmap(grad(loss))`, `grad(lambda w: ... grad(...) ...)`. `functional.jacobian` returns a
#   tensor; you cannot differentiate or batch "the Jacobian function" without writing it
#   yourself.
# * **Batching with `vmap`.** torch.func's vmap pushes a batch dimension through every
#   operation (forward and backward), so $m$ vjps, or one gradient per sample, become one
#   batched pass. That is what makes `jacrev`, `jacfwd`, `hessian` and per-sample gradients
#   fast; `autograd.functional` has only its experimental `vectorize=True` prototype.
#
# A batch of Jacobians shows both at once: `vmap(jacrev(f))` gives one Jacobian per row of a
# batch, without a loop in your code.

# %%
# %%both batch_J loop_J
points = torch.tensor([[1.0, 2.0, 0.5], [0.0, -1.0, 3.0], [2.0, 0.5, -0.5]], dtype=torch.float64)
batch_J = torch.func.vmap(torch.func.jacrev(f2))(points)
loop_J = torch.stack([torch.autograd.functional.jacobian(f2, p) for p in points])
print(tuple(batch_J.shape), torch.allclose(batch_J, loop_J))

# %% [markdown]
# ## 6. `vmap`: write it for one sample, run it on a batch
#
# [`torch.func.vmap(fn)`](https://docs.pytorch.org/docs/stable/generated/torch.func.vmap.html)
# turns a function written for one sample into one that takes a batch. `in_dims` says, for
# each argument, which dimension is the batch (`None`: not batched, the same for every
# sample); `out_dims` says where the batch dimension goes in the result.

# %%
# %%both A B u dots with_u per_column out_1 table
def dot(a, b):
    return (a * b).sum()


A = torch.tensor([[1.0, 2.0, 3.0], [0.0, 1.0, -1.0]], dtype=torch.float64)   # 2 samples of 3
B = torch.tensor([[2.0, 0.0, 1.0], [1.0, 1.0, 1.0]], dtype=torch.float64)
u = torch.tensor([1.0, -1.0, 0.5], dtype=torch.float64)

dots = torch.func.vmap(dot)(A, B)                              # row i of A with row i of B
with_u = torch.func.vmap(dot, in_dims=(0, None))(A, u)         # every row of A with one u
per_column = torch.func.vmap(dot, in_dims=1)(A, B)             # batch along dimension 1
out_1 = torch.func.vmap(lambda a: a * 2, out_dims=1)(A)        # results stacked as columns
table = torch.func.vmap(torch.func.vmap(dot, in_dims=(None, 0)), in_dims=(0, None))(A, B)
print("dots:", dots, "\nwith_u:", with_u, "\nper_column:", per_column)
print("out_dims=1:", tuple(out_1.shape), " nested:\n", table)
print("nested vmap == A @ B.T:", torch.equal(table, A @ B.T))

# %% [markdown]
# The nested `vmap` loops over the rows of `A` outside and over the rows of `B` inside, so
# `table[i, j]` is `dot(A[i], B[j])`: the matrix product $AB^{\mathsf T}$, written as a dot
# product of two vectors. Inside the function, each argument has the shape of one sample: `dot`
# never sees the batch dimension.
#
# ### Per-sample gradients
#
# A training step needs the gradient of the *mean* loss, but some methods need the gradient
# of each sample's loss on its own (differentially private training clips each one; some
# data-selection methods rank samples by it). `backward()` on the batch's loss gives only their
# sum (or mean), not each one; the plain
# way is a loop with one backward per sample. With `torch.func` it is three steps:
#
# 1. make the model a function of its parameters:
#    [`functional_call(model, params, (x,))`](https://docs.pytorch.org/docs/stable/generated/torch.func.functional_call.html)
#    runs `model` with the tensors of the dict `params` in place of its own;
# 2. write the loss of **one** sample, as a function of `(params, x, y)`, and take `grad` of
#    it (the gradient has the structure of `params`: a dict);
# 3. `vmap` that over the samples: `in_dims=(None, 0, 0)`, since the parameters are shared
#    and `x` and `y` are batched.

# %%
# %%both params X Y gw_vmap gw_loop gw_mean
model = torch.nn.Sequential(torch.nn.Linear(3, 4), torch.nn.Tanh(), torch.nn.Linear(4, 1))
model = model.double()
params = {"0.weight": torch.tensor(same_random(4, 3), dtype=torch.float64),
          "0.bias": torch.tensor(same_random(4), dtype=torch.float64),
          "2.weight": torch.tensor(same_random(1, 4), dtype=torch.float64),
          "2.bias": torch.tensor(same_random(1), dtype=torch.float64)}
X = torch.tensor(same_random(5, 3), dtype=torch.float64)       # 5 samples
Y = torch.tensor(same_random(5, 1), dtype=torch.float64)


def sample_loss(params, x, y):
    """The loss of ONE sample: x has shape (3,), y shape (1,)."""
    pred = torch.func.functional_call(model, params, (x.unsqueeze(0),))
    return ((pred.squeeze(0) - y) ** 2).sum()


per_sample = torch.func.vmap(torch.func.grad(sample_loss), in_dims=(None, 0, 0))(params, X, Y)
gw_vmap = per_sample["0.weight"]
print({name: tuple(g.shape) for name, g in per_sample.items()})

# the plain way: one backward pass per sample, on the model's own parameters
with torch.no_grad():
    for name, p in model.named_parameters():
        p.copy_(params[name])
rows = []
for i in range(len(X)):
    model.zero_grad()
    ((model(X[i:i + 1]) - Y[i:i + 1]) ** 2).sum().backward()
    rows.append(model[0].weight.grad.clone())
gw_loop = torch.stack(rows)
print("vmap(grad) == loop of backward:", torch.allclose(gw_vmap, gw_loop))

# their mean is the gradient of the mean loss, what one ordinary backward gives
gw_mean = torch.func.grad(lambda p: torch.func.vmap(sample_loss, in_dims=(None, 0, 0))(
    p, X, Y).mean())(params)["0.weight"]
print("mean of per-sample == grad of mean loss:", torch.allclose(gw_vmap.mean(0), gw_mean))

# %% [markdown]
# The dict has the structure of `params`, with a leading dimension of 5: one gradient per
# sample. And the last line shows `grad(vmap(...))` works too: transforms compose in either
# order.
#
# ## 7. Look inside: minigrad's `vmap` runs on batched tensors
#
# torch implements `vmap` with *batched tensors*: the function is called **once**, on tensors
# that look like one sample but carry a hidden batch dimension, and each operation has a
# batching rule (a `sin` of a batch is a `sin`; a `dot` of a batch is a matrix-vector
# product). minigrad does the same, with the same rules for the common operations, so the
# graph holds torch's nodes. `grad`, `jacrev` and `jvp` given a batched tensor run on the
# batch too, as torch's: the per-sample gradients above called `sample_loss` once. An
# operation without a rule, a `vjp` given a batched tensor, or a custom `autograd.Function`
# that brings its own `vmap` rule runs once per sample and the results are stacked (the values
# its rule would give). When the function draws random numbers, or reaches a part of
# minigrad that reads a sample's values directly,
# minigrad falls back to calling the whole function once per sample, on `x.select(in_dim, i)`,
# and stacks the results (reading the values yourself, with `.item()` or `.tolist()`, is an
# error in both engines):

# %%
import inspect
source = inspect.getsource(minigrad.func.vmap)
print(source[source.index("    @functools.wraps"):])

# %% [markdown]
# Randomness is where a loop and a batch can disagree. Inside `vmap`, should every sample get
# the same random numbers or different ones? torch refuses to guess: a random op inside
# `vmap` is an error unless you pass `randomness="same"` or `"different"`. minigrad gives the
# same error, and with `"same"` every sample gets the same numbers, as in torch:

# %%
# %%both
def noisy(x):
    return x + torch.rand(3)


torch.func.vmap(noisy)(torch.zeros(4, 3))

# %%
# %%both
torch.manual_seed(0)
noise = torch.func.vmap(noisy, randomness="same")(torch.zeros(4, 3))
print("every sample got the same numbers:", bool((noise == noise[0]).all()))

# %% [markdown]
# With `"different"` both engines give every sample its own numbers. torch draws them for the
# whole batch at once, minigrad one sample after another: for float32 uniforms such as
# `torch.rand` here the numbers are still torch's, for large normal draws and float64 uniforms
# they are not (the docstring of minigrad's `vmap` module lists the cases).
#
# ## Where minigrad differs from torch
#
# * **`vmap` sometimes loops.** Both call the function once, on batched tensors, but minigrad
#   calls it once per sample when it draws random numbers or reaches minigrad code that reads
#   a sample's values (then a counter or a `print` inside runs $B$ times), and runs `vjp`
#   given a batched tensor, or a custom `Function` with its own `vmap` rule, once per sample.
#   `grad`, `jvp`, `jacrev`, `jacfwd` and `hessian` run batched, as torch's (the per-sample
#   gradients of section 6, the counting cell of section 3), except that a node whose
#   backward or forward rule has no batching rule in minigrad runs once per row there.
#   Values, shapes and errors are the same; graphs are torch's where minigrad has torch's
#   batching rule.
# * **Randomness with `randomness="different"`**: same shapes, every sample different, but
#   not always torch's numbers (float32 uniforms are; see the docstring of minigrad's `vmap`
#   module). `"error"` and `"same"` behave as torch's.
# * **The graph of a transform's result**, when its input requires grad outside (section 1):
#   minigrad differentiates with respect to an alias of the input, which adds a
#   `ViewBackward0` to the graph; torch keeps its transforms apart with levels instead.
#   The values and the gradients through that graph are the same.
# * **Nested forward mode**: minigrad, like torch's `forward_ad`, has one dual level, so a
#   `jvp` inside another `jvp` (`jacfwd(jacfwd(f))`) computes its product with a double vjp
#   instead. The numbers agree; the work is reverse mode's.
# * The rest is spelling: dtypes and sizes print with `minigrad.`. minigrad has the
#   transforms of this lesson, plus `linearize` and `stack_module_state`; `functionalize`
#   is left out.

# %% [markdown]
# ## Self-check
#
# 1. What does `torch.func.grad(f)` return, and what must `f` return for it to work?
# 2. `loss(w, b, x)` returns `(value, predictions)`. Which call gives the gradients with
#    respect to `w` and `b` and the predictions?
# 3. $f:\mathbb R^{1000} \to \mathbb R^{3}$. `jacrev` or `jacfwd`? How many passes does each
#    need?
# 4. Write $H\mathbf v$ for a scalar function `f` with one line of `torch.func`. How many
#    backward passes does it run, and how many does lesson 12's way run?
# 5. What does `vmap(f, in_dims=(None, 0))(a, B)` compute?
# 6. A function counts how often it is called. Under `vmap` over a batch of 8, what does the
#    counter say in torch, and in minigrad?
#
# <details><summary>Answers</summary>
#
# 1. A function with `f`'s arguments that returns the gradient of `f` with respect to its
#    first argument (or those `argnums` names). `f` must return a 0-dim tensor (or
#    `(0-dim tensor, aux)` with `has_aux=True`).
# 2. `torch.func.grad(loss, argnums=(0, 1), has_aux=True)(w, b, x)` returns
#    `((dw, db), predictions)`; `grad_and_value` also returns the value.
# 3. `jacrev`: 3 outputs, so one forward and 3 backward passes (rows). `jacfwd` would need
#    1000 forward passes (columns).
# 4. `torch.func.jvp(torch.func.grad(f), (x,), (v,))[1]`: one backward pass, carrying
#    tangents. Lesson 12's reverse over reverse runs two backward passes, and records the
#    first.
# 5. `f(a, B[i])` for every `i`, stacked along dimension 0: `a` is shared, `B` is batched
#    along its first dimension.
# 6. torch: 1 (one call on batched tensors). minigrad: 1 as well, or 8 when it falls back
#    to a loop (a function that draws random numbers, for instance).
#
# </details>
#
# **Exercises:** `exercises/17_functional_transforms.ipynb`.
