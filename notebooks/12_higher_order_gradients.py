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
# # 12 · Higher-order gradients
#
# A gradient is computed by tensor operations: backward multiplies, adds and calls `cos` just
# as forward did. If autograd records *those* operations too, the gradient becomes an ordinary
# tensor with a history, and you can differentiate it again. That gives second derivatives,
# Hessians, Hessian-vector products, and losses that contain a gradient.
#
# **Goals.** By the end you can:
#
# * explain what `create_graph=True` changes, and read the graph of a gradient;
# * compute first, second and third derivatives of a scalar function with `torch.autograd.grad`;
# * compute a Hessian with `torch.autograd.functional.hessian`, and a Hessian-vector product
#   without building the Hessian, and say why the second costs about two backward passes
#   while the first costs $n$;
# * train with a gradient penalty, recognise the error you get when you forget
#   `create_graph=True`, and check a double backward with `gradgradcheck`.
#
# **Time:** about 30 minutes. You should know lessons 03 (`grad_fn`, leaves) and 09
# (`torch.autograd.Function`, `gradcheck`).

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
# ## 1. A gradient with a history: `create_graph=True`
#
# [`torch.autograd.grad(outputs, inputs)`](https://docs.pytorch.org/docs/stable/generated/torch.autograd.grad.html)
# returns the gradient of `outputs` with respect to `inputs` as a tuple (one entry per
# input), instead of adding it into `.grad`. Take $y = x^3$ at $x = 2$: $dy/dx = 3x^2 = 12$.
# By default backward runs with gradient recording switched off, so the result is a plain
# number with no `grad_fn`:

# %%
# %%both x y dy_dx
x = torch.tensor(2.0, requires_grad=True)
y = x ** 3
(dy_dx,) = torch.autograd.grad(y, x)
print(dy_dx, dy_dx.requires_grad, dy_dx.grad_fn)

# %% [markdown]
# With `create_graph=True` the engine keeps recording while it runs backward. The operations
# of the backward pass build a new graph, and the gradient comes back with a `grad_fn`:

# %%
# %%both x y dy_dx
x = torch.tensor(2.0, requires_grad=True)
y = x ** 3
(dy_dx,) = torch.autograd.grad(y, x, create_graph=True)
print(dy_dx, dy_dx.requires_grad, dy_dx.grad_fn)

# %% [markdown]
# Same value, but now `dy_dx` is the output of a `MulBackward0` node. That node does not
# come from our forward code (which had only a power): it is the multiplication *inside*
# `PowBackward0`'s backward, which computes `grad * (3 * x ** 2)`.
#
# ## 2. The graph of a gradient
#
# Let us draw it. Read it from the top: the leaf `x` feeds a `PowBackward0` (the
# $x^{2}$ of $3x^2$), then a `MulBackward1` (times the number 3), then the `MulBackward0` that
# multiplies by the incoming gradient (the seed, 1, which needs no gradient and so has no
# edge). Why `MulBackward1`? torch's backward formulas are C++ code, and C++ multiplying a
# tensor by a plain number calls the `mul` overload for a number (`mul.Scalar`), whose node is
# `MulBackward1`; in Python, `3 * t` turns the 3 into a tensor and records `MulBackward0`.

# %%
viz.show(viz.side_by_side(compare.get("dy_dx"), compare.get("dy_dx", "torch"),
                          params={"x": compare.get("x")},
                          torch_params={"x": compare.get("x", "torch")}))

# %%
# %%both x dy_dx
times_three = dy_dx.grad_fn.next_functions[1][0]   # the node below the last MulBackward0
print("inside backward:", times_three.name(), times_three._saved_other)
print("in Python:      ", (3 * x).grad_fn.name())

# %% [markdown]
# This graph is exactly as differentiable as any forward graph: calling `grad` on `dy_dx` walks
# it back to `x` and gives $d^2y/dx^2 = 6x = 12$. The first-order graph from `y` is still
# there too (`create_graph=True` implies `retain_graph=True`), so we could also go back from
# `y` again.

# %%
# %%both x dy_dx d2y_dx2
(d2y_dx2,) = torch.autograd.grad(dy_dx, x)
print("dy/dx =", dy_dx.item(), "  d2y/dx2 =", d2y_dx2.item(), "  closed forms:",
      3 * x.item() ** 2, 6 * x.item())

# %% [markdown]
# A bigger function draws a bigger gradient graph. For $y = x \sin x$ the derivative is
# $\sin x + x\cos x$: the product rule gives two paths, so the graph of the gradient has an
# `AddBackward0` joining them, and a `CosBackward0` from the backward of `sin` (which saves
# `x` and computes `grad * cos(x)`).

# %%
# %%both x y dy_dx
x = torch.tensor(1.0, requires_grad=True)
y = x * torch.sin(x)
(dy_dx,) = torch.autograd.grad(y, x, create_graph=True)
print(dy_dx)

# %%
viz.show(viz.make_dot(compare.get("dy_dx"), params={"x": compare.get("x"),
                                                     "dy/dx": compare.get("dy_dx")},
                      show_values=True))

# %% [markdown]
# ## 3. Derivatives of any order
#
# Repeat the trick and you get every derivative you want, as long as each `grad` call except
# the last one has `create_graph=True`. For $f(x) = \tanh x$ the closed forms are
#
# $$ f' = 1 - \tanh^2 x, \qquad f'' = -2\tanh x\,(1 - \tanh^2 x), \qquad
#    f''' = (6\tanh^2 x - 2)(1 - \tanh^2 x). $$
#
# The cell computes the three derivatives at several points at once. `grad` needs a scalar
# output (or `grad_outputs`); since point $i$ of the output only depends on point $i$ of the
# input, the gradient of the *sum* holds every point's own derivative.

# %%
# %%both x d1 d2 d3
x = torch.tensor([-1.5, -0.5, 0.0, 0.5, 1.5], requires_grad=True)
fx = torch.tanh(x)
(d1,) = torch.autograd.grad(fx.sum(), x, create_graph=True)
(d2,) = torch.autograd.grad(d1.sum(), x, create_graph=True)
(d3,) = torch.autograd.grad(d2.sum(), x)
t = fx.detach()
print("f'   ", d1.detach(), "\nclosed", 1 - t ** 2)
print("f''  ", d2.detach(), "\nclosed", -2 * t * (1 - t ** 2))
print("f''' ", d3, "\nclosed", (6 * t ** 2 - 2) * (1 - t ** 2))
print(d1.grad_fn.name(), d2.grad_fn.name())

# %% [markdown]
# The names `TanhBackwardBackward0` are new: torch computes tanh's backward,
# `grad * (1 - tanh(x)**2)`, as one fused operation (`tanh_backward`), and differentiating that
# operation needs a node of its own.
#
# ### Try it: $f$, $f'$ and $f''$ at a point
#
# Move `x`. The widget asks minigrad for $f'(x)$ and $f''(x)$ with two `grad` calls and draws
# the tangent line of $f$ (slope $f'$) and the tangent of $f'$ (slope $f''$) at the point.
# Where $f''$ changes sign ($x = 0$ for tanh) the tangent crosses the curve. Change the
# function to see a cubic, whose second derivative is a straight line.

# %% jupyter={"source_hidden": true}
import base64
import io

FUNCTIONS = {"tanh(x)": (minigrad.tanh, 1.3), "sin(x)": (minigrad.sin, 1.6),
             "x**3 - 2x": (lambda v: v ** 3 - 2 * v, 8)}  # the function, and how high to plot
GRID = np.linspace(-3, 3, 121)


def derivatives(fn, values):
    """f, f' and f'' of fn at each value (minigrad, two grad calls)."""
    v = minigrad.tensor(values, dtype=minigrad.float64, requires_grad=True)
    out = fn(v)
    (d1,) = minigrad.autograd.grad(out.sum(), v, create_graph=True)
    (d2,) = minigrad.autograd.grad(d1.sum(), v)
    return out.detach().numpy(), d1.detach().numpy(), d2.numpy()


def redraw(change=None):
    (fn, top), x0 = FUNCTIONS[function_choice.value], x_slider.value
    f, d1, d2 = derivatives(fn, GRID)
    (f0,), (g0,), (h0,) = derivatives(fn, [x0])
    fig, ax = plt.subplots(figsize=(7, 3.8))
    ax.plot(GRID, f, label="f")
    ax.plot(GRID, d1, label="f'")
    ax.plot(GRID, d2, label="f''")
    near = np.abs(GRID - x0) < 1
    ax.plot(GRID[near], f0 + g0 * (GRID[near] - x0), "k--", linewidth=1, label="tangents")
    ax.plot(GRID[near], g0 + h0 * (GRID[near] - x0), "k--", linewidth=1)
    ax.plot([x0, x0, x0], [f0, g0, h0], "ko")
    ax.axhline(0, color="grey", linewidth=0.5)
    ax.set(xlabel="x", ylim=(-top, top), title=f"{function_choice.value} at x = {x0:.2f}")
    ax.legend(loc="upper left")
    fig.tight_layout()
    buffer = io.BytesIO()
    fig.savefig(buffer, format="png", dpi=80)
    plt.close(fig)
    image = base64.b64encode(buffer.getvalue()).decode()
    view.value = (f"<p>f = {f0:.4f}, f' = {g0:.4f}, f'' = {h0:.4f}</p>"
                  f"<img src='data:image/png;base64,{image}'>")


x_slider = widgets.FloatSlider(value=0.8, min=-2.5, max=2.5, step=0.1, description="x")
function_choice = widgets.Dropdown(options=list(FUNCTIONS), value="tanh(x)",
                                   description="f")
view = widgets.HTML()
x_slider.observe(redraw, names="value")
function_choice.observe(redraw, names="value")
redraw()
widgets.VBox([widgets.HBox([x_slider, function_choice]), view])

# %% [markdown]
# ## 4. Forgetting `create_graph`
#
# The most common mistake: compute a gradient without `create_graph=True`, then try to
# differentiate it. The gradient has no `grad_fn`, so there is nothing to walk back through,
# and you get the same error as for any tensor cut from the graph:

# %%
# %%both x dy_dx
x = torch.tensor(2.0, requires_grad=True)
(dy_dx,) = torch.autograd.grad(x ** 3, x)
torch.autograd.grad(dy_dx, x)

# %% [markdown]
# "element 0 of tensors" means the first of the tensors you asked to differentiate: here
# `dy_dx`. The fix is `create_graph=True` in the *first* call. The same holds for
# `backward()`: `y.backward(create_graph=True)` leaves a `.grad` with a `grad_fn`, and torch
# warns that `x.grad` now refers back to `x` (a reference cycle), suggesting `grad` instead:

# %%
# %%both x
x = torch.tensor(2.0, requires_grad=True)
(x ** 3).backward(create_graph=True)
print(x.grad, x.grad.grad_fn.name())
print(x.grad.grad_fn.next_functions)

# %% [markdown]
# Why `CopyBackwards` and not the `MulBackward0` of $3x^2$? Under `create_graph=True`, the
# `AccumulateGrad` of a leaf never stores the incoming gradient itself: it copies it into a new
# tensor laid out like `x` (`new_empty_strided(...).copy_(grad)`), and with recording on that
# copy is a recorded op too. `CopyBackwards` is the backward node of `copy_`. Its
# `next_functions` show two edges: `None` for the fresh tensor it copied into, and the
# `MulBackward0` that computed $3x^2$. (`autograd.grad`
# hands the gradient back as it is, with no copy: section 1's `dy_dx` had `MulBackward0`.)

# %% [markdown]
# ## 5. Hessians and Hessian-vector products
#
# For a function $f:\mathbb R^n \to \mathbb R$ the Hessian is the $n \times n$ matrix of second
# derivatives, $H_{ij} = \partial^2 f / \partial x_i \partial x_j$.
# [`torch.autograd.functional.hessian(f, x)`](https://docs.pytorch.org/docs/stable/generated/torch.autograd.functional.hessian.html)
# computes it. Our example is
#
# $$ f(\mathbf x) = \Big(\sum_i \tanh(x_i)^2\Big)\, x_0 , \qquad \mathbf x \in \mathbb R^4 .$$

# %%
# %%both x v H
def f(x):
    return (torch.tanh(x) ** 2).sum() * x[0]

x = torch.tensor([0.5, -1.0, 2.0, 0.3], dtype=torch.float64)
v = torch.tensor([1.0, 0.0, 2.0, -1.0], dtype=torch.float64)
H = torch.autograd.functional.hessian(f, x)
print(H)
print("symmetric:", torch.allclose(H, H.T))

# %% [markdown]
# Often you do not need $H$ itself, only its product with a vector, $H\mathbf v$ (Newton-type
# optimisers, curvature along a direction, the largest eigenvalue by power iteration). There
# is a trick that never builds $H$: the gradient $\mathbf g(\mathbf x) = \nabla f$ made with
# `create_graph=True` is a tensor with a history, and
#
# $$ \nabla_{\mathbf x}\big(\mathbf g(\mathbf x) \cdot \mathbf v\big) = H\,\mathbf v
#    \qquad (\mathbf v \text{ held fixed}). $$
#
# (Entry $j$ of the left side is $\sum_i v_i\,\partial g_i/\partial x_j$, a row of
# $\mathbf v^{\mathsf T} H$; that equals $H\mathbf v$ because the Hessian of a twice
# continuously differentiable $f$ is symmetric.) So one backward gives $\mathbf g$, and a
# second backward, from the scalar $\mathbf g \cdot \mathbf v$, gives $H\mathbf v$. torch
# packages it as
# [`torch.autograd.functional.hvp`](https://docs.pytorch.org/docs/stable/generated/torch.autograd.functional.hvp.html),
# which returns $f(\mathbf x)$ and $H\mathbf v$. All three agree:

# %%
# %%both x v H hv_full hv_functional hv_trick
hv_full = H @ v
_, hv_functional = torch.autograd.functional.hvp(f, x, v)

xr = x.clone().requires_grad_()
(g,) = torch.autograd.grad(f(xr), xr, create_graph=True)
(hv_trick,) = torch.autograd.grad((g * v).sum(), xr)
print(hv_full, hv_functional, hv_trick, sep="\n")

# %% [markdown]
# ### Why $H\mathbf v$ is cheap and $H$ is not
#
# One backward pass gives the gradient of **one** scalar with respect to all the inputs: one
# row of a Jacobian. The Hessian is the Jacobian of $\mathbf g$, which has $n$ entries, so it
# needs $n$ backward passes through the graph of $\mathbf g$ (one per row), plus the one that
# built $\mathbf g$. The trick needs just two, whatever $n$ is: $\mathbf g \cdot \mathbf v$ is
# one scalar. For a network with a million weights that is the difference between two
# backward passes and a million (and a matrix of $10^{12}$ numbers).
#
# We can count the passes. A hook on `x` inside `f` runs every time a backward pass reaches
# `x`:

# %%
# %%both
passes = []

def f_counted(x):
    x.register_hook(lambda grad: passes.append(1))
    return (torch.tanh(x) ** 2).sum() * x[0]

for n in (4, 8):
    point = torch.linspace(-1.0, 1.0, n, dtype=torch.float64)
    direction = torch.ones(n, dtype=torch.float64)
    passes.clear()
    torch.autograd.functional.hessian(f_counted, point)
    n_hessian = len(passes)
    passes.clear()
    torch.autograd.functional.hvp(f_counted, point, direction)
    print(f"n = {n}: hessian reached x {n_hessian} times, hvp {len(passes)} times")

# %% [markdown]
# $n + 1$ against $2$. Each of those passes goes through the graph of $\mathbf g$, which is
# itself about as big as the forward graph, so in practice an $H\mathbf v$ costs a small
# constant times one gradient, whatever $n$ is.
#
# ### Look inside: `vhp` and `hvp`
#
# minigrad's `functional` module is a port of torch's, so its source shows what torch does.
# `vhp` ($\mathbf v^{\mathsf T} H$) is exactly our trick: one `grad` with `create_graph=True`
# for `jac`, then one `grad` of `jac` with `v` as its `grad_outputs` (which is the gradient of
# `jac · v`). `hvp` computes $H\mathbf v$ rather than $\mathbf v^{\mathsf T} H$, which for a
# general (non-symmetric) matrix would need the transpose: it applies the double-backward trick
# once more, through a dummy `grad_jac` of zeros, and so runs a third backward (that one does
# not reach `x`, so our hook did not count it). That is why
# `hvp`'s documentation (linked above) calls it slower than
# [`vhp`](https://docs.pytorch.org/docs/stable/generated/torch.autograd.functional.vhp.html),
# and suggests `vhp` for a twice continuously differentiable function: its Hessian is
# symmetric, so both give the same vector.

# %%
import inspect
from minigrad.autograd import functional
print(inspect.getsource(functional.vhp))
print(inspect.getsource(functional.hvp))

# %% [markdown]
# ## 6. A loss that contains a gradient: the gradient penalty
#
# Some losses punish a model for being steep with respect to its *input*: if
# $\|\partial \hat y / \partial \mathbf x\|$ is small, a small change of the input cannot
# change the output much. WGAN-GP keeps the critic's input gradient near norm 1 this way;
# input-gradient regularisation adds its squared norm to the loss,
#
# $$ L_\text{total} = L + \lambda\,\frac 1N \sum_i \big\|\partial \hat y_i / \partial
#    \mathbf x_i\big\|^2 $$
#
# (and "double backpropagation" does the same with $\partial L / \partial \mathbf x$).
# Training needs the gradient of $L_\text{total}$ with respect to the weights, and the penalty
# is itself a gradient. So: compute the input gradient with `create_graph=True`, add its
# squared norm to the loss, and call `backward()` as usual. Our model is one tanh unit,
# $\hat y = \tanh(X\mathbf w + b)$, fitted to six points by plain gradient descent
# ([`torch.optim.SGD`](https://docs.pytorch.org/docs/stable/generated/torch.optim.SGD.html)).
# Sample $i$'s output depends only on row $i$ of `inputs`, so the gradient of `pred.sum()`
# holds each sample's own input gradient in its row (the sum trick of section 3).

# %%
# %%both X target
X = torch.tensor([[1.0, 2.0], [-0.5, 1.0], [2.0, -1.0], [0.0, 0.5], [-1.5, -1.0], [1.0, 0.0]])
target = torch.tensor([0.9, 0.3, 0.2, 0.4, -0.8, 0.5])


def train(penalty_weight, steps=60):
    w = torch.tensor([0.5, 0.5], requires_grad=True)
    b = torch.tensor(0.0, requires_grad=True)
    optimizer = torch.optim.SGD([w, b], lr=0.2)
    for step in range(steps):
        inputs = X.clone().requires_grad_()
        pred = torch.tanh(inputs @ w + b)
        loss = ((pred - target) ** 2).mean()
        (input_grad,) = torch.autograd.grad(pred.sum(), inputs, create_graph=True)
        penalty = (input_grad ** 2).sum(dim=1).mean()
        total = loss + penalty_weight * penalty
        optimizer.zero_grad()
        total.backward()
        optimizer.step()
    return w.detach(), loss.item(), penalty.item()


for penalty_weight in (0.0, 0.1, 1.0):
    w_end, loss_end, penalty_end = train(penalty_weight)
    print(f"lambda = {penalty_weight}: w = {[round(a, 3) for a in w_end.tolist()]}, "
          f"loss {loss_end:.4f}, penalty {penalty_end:.4f}")

# %% [markdown]
# The larger $\lambda$, the flatter the model: the weights, which set the slope of $\hat y$
# along $\mathbf x$, shrink, the penalty falls four times, and the fit gets worse. That is the
# trade-off $\lambda$ controls.
#
# What if the first call forgets `create_graph=True`? Then `autograd.grad` also takes its
# default `retain_graph=False` (lesson 11, section 3): it frees the tensors the graph of `pred`
# saved, and that graph is shared with `loss`. So `total.backward()` does complain, with the
# error of a second backward through a freed graph:

# %%
# %%both
inputs = X.clone().requires_grad_()
w = torch.tensor([0.5, 0.5], requires_grad=True)
pred = torch.tanh(inputs @ w)
loss = ((pred - target) ** 2).mean()
(input_grad,) = torch.autograd.grad(pred.sum(), inputs)  # no create_graph
total = loss + (input_grad ** 2).sum(dim=1).mean()
print(input_grad.grad_fn)
total.backward()

# %% [markdown]
# The silent version of this bug needs one more argument: with `retain_graph=True` (and still
# no `create_graph=True`) nothing is freed, `total.backward()` runs without complaint, and the
# penalty, a constant with no history, adds nothing to the weights' gradients: the model trains
# as if $\lambda = 0$. Exercise 12.3 asks you to find exactly that bug.
#
# Here is the graph of one `total`. The loss comes in through the `MeanBackward0` on the left.
# The penalty, on the right, is built from the *backward* of the prediction:
# `TanhBackwardBackward0` is tanh's backward, and the `ViewBackward0` and `MulBackward0` below
# it are `mv`'s backward, which computes sample $i$'s input gradient as its factor
# $1 - \hat y_i^2$ times $\mathbf w$. That is why `w` gets a second, direct edge: the penalty
# depends on $\mathbf w$ through the slope, not only through the prediction.

# %%
# %%both total
w = torch.tensor([0.5, 0.5], requires_grad=True)
b = torch.tensor(0.0, requires_grad=True)
inputs = X.clone().requires_grad_()
pred = torch.tanh(inputs @ w + b)
loss = ((pred - target) ** 2).mean()
(input_grad,) = torch.autograd.grad(pred.sum(), inputs, create_graph=True)
total = loss + 1.0 * (input_grad ** 2).sum(dim=1).mean()
print(total)

# %%
viz.show(viz.make_dot(compare.get("total"), params={"w": compare.get("w"), "b": compare.get("b"),
                                                     "inputs": compare.get("inputs")}))

# %% [markdown]
# ## 7. Checking a double backward: `gradgradcheck`
#
# Lesson 09's `gradcheck` compares your backward with finite differences.
# [`torch.autograd.gradgradcheck`](https://docs.pytorch.org/docs/stable/generated/torch.autograd.gradcheck.gradgradcheck.html)
# does the same one level up: it differentiates the *gradient* (backpropagated from some
# `grad_outputs`) and compares with finite differences of the gradient. Built-in operations
# pass:

# %%
# %%both a
a = torch.tensor([0.5, -1.0, 2.0], dtype=torch.float64, requires_grad=True)
print(torch.autograd.gradgradcheck(lambda t: torch.tanh(t) * t ** 2, (a,)))

# %% [markdown]
# A custom Function's backward is differentiable only if it is written with differentiable
# tensor operations. This `Cube` has a correct first derivative, so `gradcheck` passes, but its
# backward detaches the saved input: the gradient has no path back to `a`, and the second
# derivative comes out as 0. `gradgradcheck` finds it (we pass `grad_outputs` ourselves, so
# the report does not depend on random numbers):

# %%
# %%both a
class Cube(torch.autograd.Function):
    @staticmethod
    def forward(ctx, t):
        ctx.save_for_backward(t)
        return t ** 3

    @staticmethod
    def backward(ctx, grad_output):
        (t,) = ctx.saved_tensors
        return grad_output * 3 * t.detach() ** 2   # the detach breaks double backward


a = torch.tensor([0.5, -1.0], dtype=torch.float64, requires_grad=True)
ones = torch.ones(2, dtype=torch.float64, requires_grad=True)
print("gradcheck:", torch.autograd.gradcheck(Cube.apply, (a,)))
torch.autograd.gradgradcheck(Cube.apply, (a,), (ones,))

# %% [markdown]
# The numerical Jacobian has $6t \cdot 1 = (3, -6)$ on its diagonal; the analytical one is all
# 0. Without the `.detach()` the backward is made of recorded operations, and the check passes:

# %%
# %%both a
class CubeFixed(Cube):
    @staticmethod
    def backward(ctx, grad_output):
        (t,) = ctx.saved_tensors
        return grad_output * 3 * t ** 2


print(torch.autograd.gradgradcheck(CubeFixed.apply, (a,), (ones,)))

# %% [markdown]
# ## 8. Look inside: one switch
#
# How does minigrad record the backward pass? Nodes do not need a second, "recording" version
# of their backward: each `backward` is written with ordinary minigrad operations, and the
# engine runs the whole pass with gradient recording switched on or off by `create_graph`.
# Here is the loop of `engine.execute` (the line with `set_grad_enabled(task.create_graph)` is
# all there is to it) and `PowBackward0.backward`, whose operations record `PowBackward0`,
# `MulBackward1` (through `mul_scalar`, a product with a number) and `MulBackward0`, the three
# nodes of section 2.

# %%
import inspect
from minigrad.autograd import engine
print(inspect.getsource(engine.execute))
print(inspect.getsource(minigrad._ops.pointwise.PowBackward0.backward))

# %% [markdown]
# When recording is on, the operations inside `PowBackward0.backward` record nodes like any
# forward code; when it is off (the default), they record nothing, and the gradient comes
# back with no `grad_fn`. (A few nodes, such as `cumsum`'s, take a faster plain-NumPy path
# when nothing is being recorded: `_ops._core.fused()` tells them.)
#
# ## Where minigrad differs from torch
#
# * In this lesson, only in spelling: the `minigrad.` prefix of dtypes, and the "(Triggered
#   internally at ...)" note that ends torch's warning. The graphs of the gradients here are the
#   same node by node (`MulBackward1`, `TanhBackwardBackward0`, the `ViewBackward0` of `mv`'s
#   backward), and so are the pass counts of `hessian` and `hvp`: minigrad's `functional`
#   module follows torch's.
# * Not every op is there yet: the graph of a gradient made with `create_graph=True` is
#   torch's for every op in minigrad's op database except an in-place change of a view
#   (`y = x * 1; y[:2] = ...`, then a second derivative through it). There
#   torch's `CopySlices` reads the view back with `as_strided` and `copy_`, and minigrad's
#   re-applies the view op: the values and second derivatives are the same, only the drawing
#   differs.
# * Like its `gradcheck` (lesson 09), minigrad's `gradgradcheck` has only torch's default
#   slow mode.

# %% [markdown]
# ## Self-check
#
# 1. `(g,) = torch.autograd.grad(y, x)` and then `torch.autograd.grad(g, x)` raises. Why, and
#    what do you change?
# 2. For $y = x^4$ at $x = 1$, what are $dy/dx$ and $d^2y/dx^2$, and how many `grad` calls
#    need `create_graph=True` to get them?
# 3. $f$ has $10^6$ inputs. Why compute $H\mathbf v$ with the double-backward trick rather
#    than `hessian(f, x) @ v`?
# 4. You train with a gradient penalty but forgot `create_graph=True` in the `grad` call.
#    Does it raise? And if you also pass `retain_graph=True`?
# 5. A custom Function passes `gradcheck` but fails `gradgradcheck`. Where would you look?
#
# <details><summary>Answers</summary>
#
# 1. Without `create_graph=True` the gradient `g` was computed with recording off: it has no
#    `grad_fn` ("element 0 of tensors does not require grad..."). Pass `create_graph=True` to
#    the first `grad` call.
# 2. $4x^3 = 4$ and $12x^2 = 12$; only the first call (the second differentiates a graph that
#    the first one recorded, and needs no graph of its own).
# 3. The Hessian needs about $10^6$ backward passes and $10^{12}$ numbers of memory; the trick
#    needs two backward passes and memory for a few vectors.
# 4. It raises "Trying to backward through the graph a second time": without `create_graph`,
#    `grad` defaults to `retain_graph=False` and frees the saved tensors the loss shares with
#    the prediction. Add `retain_graph=True` alone and the error goes away, but silently: the
#    penalty is then a constant (no `grad_fn`), it adds nothing to the weights' gradients, and
#    the model trains as if $\lambda = 0$.
# 5. In its `backward`: something there is not a differentiable tensor operation (a
#    `.detach()`, `.item()`, NumPy, a new `torch.tensor(...)`), or it is marked
#    `once_differentiable`.
#
# </details>
#
# **Exercises:** `exercises/12_higher_order_gradients.ipynb`. Next: lesson 13, broadcasting and reductions in backward.
