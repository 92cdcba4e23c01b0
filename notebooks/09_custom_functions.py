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
# # 09 · Custom Functions
#
# Autograd can only differentiate what it sees. If part of your computation happens outside
# torch (in a string passed to `eval`, in another library, in C code you call), the graph is cut
# there and `backward()` has nothing to follow. The way back is a **custom Function**: you write
# the forward pass *and* its backward pass, and autograd treats the pair as one node.
#
# **Goals.** After this lesson you can
#
# 1. recognise code that cuts the graph, and read the error `backward()` then gives;
# 2. write a [`torch.autograd.Function`](https://docs.pytorch.org/docs/stable/generated/torch.autograd.Function.html) with `forward`/`backward`, use `ctx.save_for_backward`
#    for tensors and plain `ctx` attributes for everything else, return `None` for inputs that
#    need no gradient, and call it with `.apply`;
# 3. check a hand-written backward with [`torch.autograd.gradcheck`](https://docs.pytorch.org/docs/stable/generated/torch.autograd.gradcheck.gradcheck.html), and read its failure report;
# 4. train a model ([`nn.Module`](https://docs.pytorch.org/docs/stable/generated/torch.nn.Module.html), [`nn.Parameter`](https://docs.pytorch.org/docs/stable/generated/torch.nn.parameter.Parameter.html), [`Adam`](https://docs.pytorch.org/docs/stable/generated/torch.optim.Adam.html), [`MSELoss`](https://docs.pytorch.org/docs/stable/generated/torch.nn.MSELoss.html), [`DataLoader`](https://docs.pytorch.org/docs/stable/data.html#torch.utils.data.DataLoader)) whose forward
#    goes through such a Function, and compare it with the ordinary autograd model;
# 5. explain why central differences estimate a derivative better than forward differences, and
#    how the step `h` should be chosen.
#
# **Time:** about 30 minutes. Lessons 03 (`grad_fn`, leaves) and 06 (`detach`) come first.

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
# ## 1. A tiny model that autograd understands
#
# Our running example has one input `x` and two weights:
#
# $$f(x, \mathbf w) = 2\,x\,w_0 + x^2\,w_1, \qquad
# \frac{\partial f}{\partial w_0} = 2x, \quad \frac{\partial f}{\partial w_1} = x^2 .$$
#
# Written with tensor operations, autograd records every step, so at $x = 1$ it finds the
# gradient $(2x, x^2) = (2, 1)$ on its own:

# %%
# %%both x w y
def f(x, w):
    return 2 * x * w[0] + x**2 * w[1]

x = torch.tensor([1.0])
w = torch.tensor([1.0, 1.0], requires_grad=True)
y = f(x, w)
print(y)
y.backward()
print("w.grad =", w.grad)

# %%
viz.show(viz.make_dot(compare.get("y"), params={"w": compare.get("w")}, show_values=True))

# %% [markdown]
# Two `SelectBackward0` nodes pick `w[0]` and `w[1]` out of `w`; the multiplications and the sum
# lead back to them, and backward adds the two contributions into `w.grad`.
#
# ## 2. The same function, through a string
#
# Now a deliberately silly version of `f`. It prints the numbers into a Python expression and
# evaluates the text with `eval`, one input at a time, then packs the results into a new tensor.
# (Think of it as a stand-in for any code autograd cannot look into.) The values are exactly
# those of `f`:

# %%
# %%both x w y_str
def f_str(x, w):
    """f, computed from text: every number goes through a string and eval."""
    return torch.tensor([eval(f"2 * {xi} * {w[0]} + {xi}**2 * {w[1]}") for xi in x],
                        dtype=x.dtype)

print("the text eval sees:", f"2 * {x[0]} * {w[0]} + {x[0]}**2 * {w[1]}")
y_str = f_str(x, w)
print(y_str)
print("grad_fn:", y_str.grad_fn, "  requires_grad:", y_str.requires_grad)

# %% [markdown]
# No `grad_fn`: the history has gone. Two things cut it:
#
# * putting a 0-dim tensor (a single number with no dimensions, like `xi` or `w[0]` here) into an
#   f-string calls `.item()`, which returns a plain Python `float`, with no link to `w`. Only
#   0-dim tensors do that: a tensor with a dimension, even holding one number, is written as
#   its repr, and a format spec such as `:.1f` is refused (next cell). Here is minigrad's
#   `Tensor.__format__`, which does the same as torch's:

# %%
# %%both
print(f"{torch.tensor(1.5)} | {torch.tensor([1.5])} | {torch.tensor(2.25):.1f}")
print(f"{torch.tensor([1.5]):.1f}")

# %%
import inspect
print(inspect.getsource(minigrad.Tensor.__format__))

# %% [markdown]
# * `torch.tensor([...])` always builds a brand-new leaf from the numbers it is given. It never
#   records where they came from.
#
# So when we ask for the gradient, there is nothing to walk back through:

# %%
# %%both w y_str
y_str.backward()

# %%
# %%both w
print(w.grad)   # still the (2, 1) from section 1: y_str.backward() added nothing

# %% [markdown]
# "element 0 of tensors does not require grad and does not have a grad_fn" is the message you
# get whenever the tensor you call `backward()` on is cut off from every leaf that requires
# grad. Before writing any backward yourself, check that the cut is really needed: here it
# obviously is not, `f` does the same job. The rest of the lesson pretends that it is.
#
# ## 3. Writing the backward yourself: `torch.autograd.Function`
#
# If autograd cannot differentiate `f_str`, we have to supply the derivative. We do not even
# need a formula: a **forward difference** estimates it from two evaluations,
#
# $$\frac{\partial f(x, \mathbf w)}{\partial w_i} \approx
#   \frac{f(x, \mathbf w + h\,\mathbf e_i) - f(x, \mathbf w)}{h},$$
#
# where $\mathbf e_i$ is 1 at position $i$ and 0 elsewhere, and $h$ is a small step (we use
# $10^{-3}$).
#
# What does backward have to return? It receives `grad_output`, the gradient of the final loss
# with respect to each output $y_k = f(x_k, \mathbf w)$ (one per input `x_k` in the batch), and
# must return the gradient of the loss with respect to each *input* of forward. For the weights,
# the chain rule gives
#
# $$\frac{\partial L}{\partial w_i} = \sum_k \mathrm{grad\_output}_k\,
#   \frac{\partial f(x_k, \mathbf w)}{\partial w_i}.$$
#
# Here it is as a Function. Read the comments: each line is one of the rules.

# %%
# %%both x w y_fd
class ForwardDifference(torch.autograd.Function):
    @staticmethod
    def forward(ctx, fn, xs, weight, h):
        ys = fn(xs, weight)
        ctx.save_for_backward(xs, ys, weight)  # tensors go through save_for_backward
        ctx.fn = fn                            # anything else is stored as an attribute
        ctx.h = h
        return ys

    @staticmethod
    def backward(ctx, grad_output):
        xs, ys, weight = ctx.saved_tensors
        weight = weight.detach().clone()       # our own copy, to nudge one entry at a time
        grads = []
        for i in range(len(weight)):
            weight[i] += ctx.h
            slopes = (ctx.fn(xs, weight) - ys) / ctx.h   # df(x_k, w)/dw_i, for every k
            grads.append((grad_output * slopes).sum())
            weight[i] -= ctx.h
        # one answer per input of forward: fn, xs, weight, h
        return None, None, torch.stack(grads), None


w = torch.tensor([1.0, 1.0], requires_grad=True)
y_fd = ForwardDifference.apply(f_str, x, w, 1e-3)
print(y_fd)
y_fd.backward()
print("w.grad =", w.grad)

# %% [markdown]
# The rules, one by one:
#
# * **Static methods, `ctx` first.** `forward(ctx, ...)` and `backward(ctx, ...)` are static:
#   the Function class is never instantiated. `ctx` is the node itself, a fresh one for every
#   call, and it carries what forward wants backward to know.
# * **Every tensor that backward needs goes through `ctx.save_for_backward(...)`**, and only
#   tensors do (passing it a function raises a `TypeError`). Autograd keeps them safely and
#   checks, when backward reads `ctx.saved_tensors`, that nobody changed them in place meanwhile
#   (lesson 07's version counters); saved-tensor hooks see them too. A tensor stored directly as
#   `ctx.t = t` gets none of that: a later in-place change silently gives a wrong gradient, and
#   an output stored on its own node keeps itself alive (a memory leak), which is why
#   [torch's documentation](https://docs.pytorch.org/docs/stable/generated/torch.autograd.function.FunctionCtx.save_for_backward.html)
#   asks for `save_for_backward`. (An intermediate tensor, neither input nor output, may be
#   saved too; such a Function may then not support double backward.) Everything that is not a
#   tensor (our function `fn`, the step `h`) simply becomes an attribute of `ctx`, as in
#   torch's own code.
# * **One return value per input of forward**, in order, `ctx` excluded: `fn`, `xs`, `weight`,
#   `h`. Inputs that are not tensors, or do not need a gradient, get `None`. Only `weight` gets a
#   gradient here.
# * **Call it with `.apply`**, never `ForwardDifference(...)` nor `.forward(...)` directly:
#   `apply` is what runs forward with recording switched off and hangs the node in the graph.
#
# Inside `backward`, `weight.detach().clone()` gives a copy that is cut from the graph and has
# its own memory, so nudging it neither records anything nor touches the real weights. (With
# `detach()` alone the nudges would land in the parameter's own memory, and `w + h - h` is not
# always exactly `w` in floating point.)
#
# The answer `(2.0001, 0.9999)` is close to the exact `(2, 1)` but not equal. $f$ is linear in
# $\mathbf w$, so the forward difference would be exact in exact arithmetic; the $10^{-4}$ comes
# from rounding: $y \approx 3$ is stored in float32 with about 7 significant digits, and dividing
# the difference of two such numbers by $h = 10^{-3}$ magnifies that rounding a thousand times.
#
# The graph has one node for the whole Function, named after the class:
# `ForwardDifferenceBackward`.

# %%
viz.show(viz.side_by_side(compare.get("y_fd"), compare.get("y_fd", "torch"),
                          params={"w": compare.get("w")},
                          torch_params={"w": compare.get("w", "torch")}, show_values=True))

# %% [markdown]
# ### Look inside: what `.apply` does
#
# Here is minigrad's `Function.apply`. It makes the node (`ctx`), runs your `forward` under
# `no_grad` (so the operations inside leave no graph of their own), and, if some tensor argument
# requires grad, makes the node the `grad_fn` of the outputs. The saved tensors are registered
# last, once the outputs exist.

# %%
print(inspect.getsource(minigrad.autograd.Function.apply))

# %% [markdown]
# When backward reaches the node, the engine calls your `backward` and checks its answer: the
# right number of values, and `None` wherever forward's argument was not a tensor. These are the
# two mistakes you are most likely to make, with the messages you will see:

# %%
# %%both x w
class SavesAFunction(torch.autograd.Function):
    @staticmethod
    def forward(ctx, fn, xs, weight):
        ctx.save_for_backward(fn)             # not a tensor
        return fn(xs, weight)

SavesAFunction.apply(f_str, x, w)

# %%
# %%both x w
class ForgetsTheNones(torch.autograd.Function):
    @staticmethod
    def forward(ctx, fn, xs, weight):
        return fn(xs, weight)

    @staticmethod
    def backward(ctx, grad_output):
        return torch.stack([(grad_output * 2 * x).sum(), (grad_output * x**2).sum()])

ForgetsTheNones.apply(f, x, w).backward()

# %% [markdown]
# ## 4. Is my backward right? `torch.autograd.gradcheck`
#
# A hand-written backward is easy to get wrong, and wrong gradients do not raise errors: the
# model just trains badly. `torch.autograd.gradcheck(fn, inputs)` tests it. For every input
# element it estimates the derivatives itself, with a central difference and a tiny step
# (`eps=1e-6`), runs your backward once per output element, and compares the two Jacobians
# entry by entry: it passes if $|\text{analytical} - \text{numerical}| \le
# \text{atol} + \text{rtol}\,|\text{numerical}|$ everywhere, with `atol=1e-5`, `rtol=1e-3`.
#
# Two habits: use **float64** inputs (with float32 a step of `1e-6` drowns in rounding; that is
# why `f_str` keeps the dtype of `x`), and wrap the non-tensor arguments in a `lambda`, so that
# the function gradcheck sees takes just the tensors to check.

# %%
# %%both xs64 w64
xs64 = torch.tensor([0.5, 1.0, 2.0], dtype=torch.float64)
w64 = torch.tensor([0.3, -0.7], dtype=torch.float64, requires_grad=True)
print(torch.autograd.gradcheck(lambda w: ForwardDifference.apply(f_str, xs64, w, 1e-3), (w64,)))

# %% [markdown]
# It passes, but only because $f$ is *linear* in $\mathbf w$: a straight line's slope is the same
# whatever the step. Give `ForwardDifference` a function that curves,
#
# $$g(x, \mathbf w) = x\,w_0^2 + x^3\,w_1^3, \qquad
# \frac{\partial g}{\partial w_0} = 2 x w_0, \quad \frac{\partial g}{\partial w_1} = 3 x^3 w_1^2,$$
#
# and gradcheck catches the forward difference's error:

# %%
# %%both xs64 w64
def g_str(x, w):
    return torch.tensor([eval(f"{xi} * {w[0]}**2 + {xi}**3 * {w[1]}**3") for xi in x],
                        dtype=x.dtype)

torch.autograd.gradcheck(lambda w: ForwardDifference.apply(g_str, xs64, w, 1e-3), (w64,))

# %% [markdown]
# How to read the report: one row per input element ($w_0$, $w_1$), one column per output
# element ($x = 0.5, 1, 2$). "numerical" is gradcheck's estimate, "analytical" is what our
# backward returned. In the first row the exact value is $2 x w_0 = 0.6x$, and our backward is
# off by exactly $x h$: for $w_0^2$ the forward difference gives
# $\frac{(w_0 + h)^2 - w_0^2}{h} = 2w_0 + h$. In general the error of a forward difference is
# about $\frac h2 \cdot$ (second derivative), here $\frac h2 \cdot 2x = xh$: a relative error
# of $xh / 0.6x \approx 1.7 \cdot 10^{-3}$, more than `rtol` $= 10^{-3}$ allows. (Pass `raise_exception=False` to get `False` instead of an error.)
#
# ## 5. Training both models
#
# Now the real use: fit $\mathbf w$ from data. We make 200 training pairs $(x, f(x, \mathbf
# w^*))$ with the true weights $\mathbf w^* = (1.2, -3.4)$ and $x$ uniform in $[0, 1)$, plus 10
# pairs for validation, and feed them in batches of 10 with a `DataLoader`.
#
# The random numbers come from one NumPy generator with a fixed seed, so both engines get the
# same data. The loader does not shuffle (`shuffle=False` is the default): with `shuffle=True`
# each engine would draw the order from its *own* random generator, the batches would differ
# and the loss curves could not be compared number by number.

# %%
# %%both train_x train_y
true_w = (1.2, -3.4)
rng = np.random.default_rng(2020)
train_x = torch.tensor(rng.random(200, dtype=np.float32))
train_y = f(train_x, true_w)
valid_x = torch.tensor(rng.random(10, dtype=np.float32))
valid_y = f(valid_x, true_w)

train_loader = torch.utils.data.DataLoader(
    torch.utils.data.TensorDataset(train_x, train_y), batch_size=10)
valid_loader = torch.utils.data.DataLoader(
    torch.utils.data.TensorDataset(valid_x, valid_y), batch_size=10)
print(len(train_loader), "batches per epoch")
xb, yb = next(iter(train_loader))
print("first batch:", xb.shape, yb.shape)

# %% [markdown]
# Two models with the same starting weights $(0, 0)$: one calls `f` and lets autograd do the
# work; the other calls `f_str` through our Function. The weights are an `nn.Parameter`, a
# tensor that requires grad and that `model.parameters()` hands to the optimizer.

# %%
# %%both
class AutogradModel(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.weight = torch.nn.Parameter(torch.tensor([0.0, 0.0]))

    def forward(self, x):
        return f(x, self.weight)


class StringModel(AutogradModel):             # same weights, another forward
    def forward(self, x):
        return ForwardDifference.apply(f_str, x, self.weight, 1e-3)


print(AutogradModel())
print([name for name, p in StringModel().named_parameters()])

# %% [markdown]
# First, what happens if the string model calls `f_str` directly, without the Function? The
# loss is computed fine, and `backward()` fails with the message from section 2, now coming out
# of a training step:

# %%
# %%both
model = AutogradModel()
criterion = torch.nn.MSELoss()
loss = criterion(f_str(xb, model.weight), yb)
print(loss)
loss.backward()

# %% [markdown]
# The training loop is the usual one. It records every batch's loss and the weights at the end
# of each epoch, and after training it measures the loss on the validation set without
# recording a graph:

# %%
# %%both
def train(model, epochs):
    optimizer = torch.optim.Adam(model.parameters(), lr=0.1)
    criterion = torch.nn.MSELoss()
    history, weights = [], []
    model.train()
    for epoch in range(epochs):
        for xb, yb in train_loader:
            loss = criterion(model(xb), yb)
            history.append(loss.item())
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
        weights.append(model.weight.detach().clone())
    model.eval()
    with torch.no_grad():
        valid = sum(criterion(model(xb), yb).item() for xb, yb in valid_loader)
    return torch.tensor(history), valid, torch.stack(weights)

# %% [markdown]
# Train each model for 40 epochs (800 steps). The original experiment stopped after 20 epochs
# at $\mathbf w \approx (1.1996, -3.3987)$, off by $4 \cdot 10^{-4}$ and $1.3 \cdot 10^{-3}$ (on its
# own data). The cell prints where our two models stand after those same 20 epochs (on our
# data: already $(1.2, -3.4)$ to four decimals), and checks that after 40 epochs both are
# within $10^{-3}$ of the truth. It compares the whole loss history and the final weights of
# both engines:

# %%
# %%both losses_auto losses_fd w_auto w_fd
auto_model, fd_model = AutogradModel(), StringModel()
losses_auto, valid_auto, path_auto = train(auto_model, epochs=40)
losses_fd, valid_fd, path_fd = train(fd_model, epochs=40)
w_auto, w_fd = auto_model.weight.detach(), fd_model.weight.detach()

for name, path in (("autograd", path_auto), ("string", path_fd)):
    print(f"{name:>8} model after 20 epochs: w = {[round(v, 4) for v in path[19].tolist()]}")

for name, w_end, valid in (("autograd", w_auto, valid_auto), ("string", w_fd, valid_fd)):
    print(f"{name:>8} model: w = {[round(v, 4) for v in w_end.tolist()]}, "
          f"validation loss below 1e-6: {valid < 1e-6}")
print("both within 1e-3 of true w:",
      all(abs(a - b) < 1e-3 for w_end in (w_auto, w_fd) for a, b in zip(w_end.tolist(), true_w)))

# %% [markdown]
# Both models find $\mathbf w^* = (1.2, -3.4)$. Here are their loss curves, on both engines
# (four curves: torch solid, minigrad dashed; where two coincide you see only one):
#
# *(The next cell's code is folded away, since it is only plumbing: click the three dots to read it.)*

# %% jupyter={"source_hidden": true}
curves = {(engine, name): compare.get(name, engine).numpy()
          for engine in ("torch", "minigrad") for name in ("losses_auto", "losses_fd")}

fig, (ax, ax_diff) = plt.subplots(1, 2, figsize=(11, 4))
for (engine, name), values in curves.items():
    label = f"{engine}, {'autograd' if name == 'losses_auto' else 'forward difference'}"
    ax.semilogy(values, linestyle="-" if engine == "torch" else "--", label=label)
ax.set(title="training loss per batch", xlabel="step (batch)", ylabel="MSE loss")
ax.legend()
for engine in ("torch", "minigrad"):
    gap = np.abs(curves[(engine, "losses_fd")] - curves[(engine, "losses_auto")])
    ax_diff.semilogy(gap + 1e-16, linestyle="-" if engine == "torch" else "--", label=engine)
ax_diff.set(title="|forward difference − autograd|", xlabel="step (batch)")
ax_diff.legend()
plt.tight_layout()
plt.show()

# %% [markdown]
# The curves lie on top of each other. (From about step 400 the loss cannot go lower: it has
# reached the rounding floor of float32 predictions.) The crude derivative costs nothing
# visible here, because
# $f$ is linear in $\mathbf w$: the forward difference is wrong only by rounding (about
# $10^{-4}$), and Adam's steps hardly notice. The right panel shows the gap between the two
# models. Note that it is the price in *speed* that is real: every backward of `StringModel`
# calls `f_str` twice more, each time going through `eval` for every sample.
#
# ### The loss's graph
#
# The loss of one batch of the string model, on both engines. The check compares the `loss`
# tensor itself: its value, its `grad_fn` and the whole graph behind it, as well as the
# weights' gradient.

# %%
# %%both loss weight_grad
model = StringModel()
loss = torch.nn.MSELoss()(model(xb), yb)
loss.backward()
weight_grad = model.weight.grad
print(round(loss.item(), 4), loss.grad_fn.name(), weight_grad)

# %%
viz.show(viz.side_by_side(compare.get("loss"), compare.get("loss", "torch")))

# %% [markdown]
# torch computes the mean squared error in one fused C++ kernel with its own backward node,
# `MseLossBackward0`, rather than as a subtraction, a square and a mean. minigrad records the
# same single node; its backward formula, $\frac 2n(\text{input} - \text{target})$ times the
# incoming gradient, is in `minigrad/_ops/nn_ops.py`. So the two drawings are the
# same: `MseLossBackward0` at the top, with one edge to our own node,
# `ForwardDifferenceBackward`, and an empty edge for the target `yb`, which needs no gradient.
#
# ## 6. A better estimate: central differences
#
# Step to both sides instead of one:
#
# $$\frac{\partial f}{\partial w_i} \approx
#   \frac{f(\mathbf w + h\,\mathbf e_i) - f(\mathbf w - h\,\mathbf e_i)}{2h}.$$
#
# The error terms of even order cancel: it shrinks like $h^2$ instead of $h$ (it is exact for
# quadratics, and off by $h^2 \cdot x^3$ for our $w_1^3$ term). It is also what gradcheck itself
# uses. The price is one more evaluation per weight: backward no longer reuses the saved `ys`.

# %%
# %%both xs64 w64
class CentralDifference(torch.autograd.Function):
    @staticmethod
    def forward(ctx, fn, xs, weight, h):
        ctx.save_for_backward(xs, weight)
        ctx.fn, ctx.h = fn, h
        return fn(xs, weight)

    @staticmethod
    def backward(ctx, grad_output):
        xs, weight = ctx.saved_tensors
        weight = weight.detach().clone()
        grads = []
        for i in range(len(weight)):
            weight[i] += ctx.h
            up = ctx.fn(xs, weight)
            weight[i] -= 2 * ctx.h
            down = ctx.fn(xs, weight)
            weight[i] += ctx.h
            grads.append((grad_output * (up - down) / (2 * ctx.h)).sum())
        return None, None, torch.stack(grads), None


print(torch.autograd.gradcheck(lambda w: CentralDifference.apply(g_str, xs64, w, 1e-3), (w64,)))

# %% [markdown]
# And of course an exact backward passes too. When you *can* work out the derivative, write
# it down: it is exact up to rounding and needs no extra evaluations.

# %%
# %%both xs64 w64
class GExact(torch.autograd.Function):
    @staticmethod
    def forward(ctx, xs, weight):
        ctx.save_for_backward(xs, weight)
        return g_str(xs, weight)

    @staticmethod
    def backward(ctx, grad_output):
        xs, weight = ctx.saved_tensors
        d_w0 = 2 * xs * weight[0]             # dg/dw0 for every x
        d_w1 = 3 * xs**3 * weight[1] ** 2     # dg/dw1 for every x
        return None, torch.stack([(grad_output * d_w0).sum(), (grad_output * d_w1).sum()])


print(torch.autograd.gradcheck(lambda w: GExact.apply(xs64, w), (w64,)))

# %% [markdown]
# ### Choosing the step `h`
#
# Shouldn't we just take `h` as small as possible? No: two errors pull in opposite directions.
# The *truncation* error (the curvature the formula ignores) shrinks with `h`; the *rounding*
# error (subtracting two nearly equal numbers, then dividing by `h`) grows like
# $\varepsilon / h$, where $\varepsilon$ is the precision of the dtype ($10^{-7}$ for float32,
# $10^{-16}$ for float64). The best step lies where the two meet.
#
# The widget runs both Functions (minigrad's, directly) on $g$ at $x = 2$, $\mathbf w = (0.3,
# -0.7)$ for many steps and plots the largest error of `w.grad` against the exact gradient
# $(1.2,\ 11.76)$. Move the step and the dtype: the marked point and the gradients above the plot
# follow.
#
# *(The next cell's code is folded away, since it is only plumbing: click the three dots to read it.)*

# %% jupyter={"source_hidden": true}
import base64
import io

MG_FORWARD = compare.get("ForwardDifference")
MG_CENTRAL = compare.get("CentralDifference")
MG_G_STR = compare.get("g_str")
EXACT = np.array([2 * 2.0 * 0.3, 3 * 2.0**3 * 0.7**2])        # (1.2, 11.76)
STEPS = 10.0 ** np.arange(-12, -0.99, 0.25)


def grad_estimate(method, h, dtype):
    """w.grad from one backward through `method` (a minigrad Function)."""
    w = minigrad.tensor([0.3, -0.7], dtype=dtype, requires_grad=True)
    method.apply(MG_G_STR, minigrad.tensor([2.0], dtype=dtype), w, h).sum().backward()
    return w.grad.numpy().astype(np.float64)


def errors(method, dtype):
    return np.array([np.abs(grad_estimate(method, h, dtype) - EXACT).max() for h in STEPS])


curves_h = {(name, dt): errors(method, getattr(minigrad, dt))
            for name, method in (("forward", MG_FORWARD), ("central", MG_CENTRAL))
            for dt in ("float32", "float64")}


def redraw(change=None):
    h, dt = 10.0 ** step_slider.value, dtype_choice.value
    dtype = getattr(minigrad, dt)
    fig, ax = plt.subplots(figsize=(6.5, 3.8))
    for name, style in (("forward", "-"), ("central", "--")):
        errs = np.maximum(curves_h[(name, dt)], 1e-12)
        ax.loglog(STEPS, errs, style, label=f"{name} difference")
        here = max(np.abs(grad_estimate(globals()[f"MG_{name.upper()}"], h, dtype) - EXACT).max(),
                   1e-12)
        ax.plot([h], [here], "o", color=ax.lines[-1].get_color())
    ax.axvline(h, color="grey", linewidth=0.8)
    ax.set(xlabel="step h", ylabel="max |w.grad − exact|", title=f"g in {dt}", ylim=(1e-11, 1e2))
    ax.legend(loc="lower left")
    fig.tight_layout()
    buffer = io.BytesIO()
    fig.savefig(buffer, format="png", dpi=80)
    plt.close(fig)
    image = base64.b64encode(buffer.getvalue()).decode()
    fwd = grad_estimate(MG_FORWARD, h, dtype)
    cen = grad_estimate(MG_CENTRAL, h, dtype)
    view.value = (f"<p>h = {h:.1e}: forward difference gives w.grad = "
                  f"({fwd[0]:.6f}, {fwd[1]:.6f}), central difference gives "
                  f"({cen[0]:.6f}, {cen[1]:.6f}); exact (1.2, 11.76)</p>"
                  f"<img src='data:image/png;base64,{image}'>")


step_slider = widgets.FloatSlider(value=-3, min=-12, max=-1, step=0.25,
                                  description="log10 h", continuous_update=False)
dtype_choice = widgets.Dropdown(options=["float32", "float64"], value="float32",
                                description="dtype")
view = widgets.HTML()
step_slider.observe(redraw, names="value")
dtype_choice.observe(redraw, names="value")
redraw()
widgets.VBox([widgets.HBox([step_slider, dtype_choice]), view])

# %% [markdown]
# What to look for:
#
# * Right of the minimum the curves fall as you shrink `h`: the forward difference with slope 1
#   (error $\propto h$), the central difference with slope 2 (error $\propto h^2$). Pick
#   float64 to see the two straight lines clearly.
# * Left of the minimum they rise again, roughly like $1/h$ and jaggedly: that is rounding. In
#   float32 with very small steps, `w[i] += h` does not change `w[i]` at all, the difference is
#   0, and so is the "gradient" (the flat line at the top, an error of 11.76).
# * In float64 the best forward step is near $10^{-8} \approx \sqrt{\varepsilon}$ and the
#   best central step near $10^{-5} \approx \varepsilon^{1/3}$; that is why gradcheck can
#   use central differences with `eps=1e-6` in float64. In float32 the minima sit between
#   $10^{-4}$ and $10^{-3}$ (forward) and near $10^{-2.5}$ (central), and no step does much
#   better than $10^{-3}$ (forward) or $10^{-5}$ (central): the `1e-3` of our training is a sensible choice, and
#   gradcheck in float32 would be hopeless.
#
# Even at its best, a difference quotient is an *estimate*: an exact backward, or better still
# a function autograd can see, is always preferable.

# %% [markdown]
# ## Where minigrad differs from torch
#
# * minigrad's `gradcheck` implements torch's default "slow mode" only: `fast_mode=True` and the
#   batched checks raise `NotImplementedError`.
# * Random numbers do not differ: minigrad's generator is torch's, so from the same seed a
#   `DataLoader(..., shuffle=True)` visits the batches in the same order on both engines (this
#   lesson does not shuffle, to keep the run easy to follow).
# * Everything else in this lesson (the cut graph and its error, the Function node and its
#   name, the errors about `save_for_backward` and the number of gradients, gradcheck's report,
#   the whole training run) is the same on both engines, as the checked cells show. Names print
#   with a `minigrad.` prefix in minigrad's own output.

# %% [markdown]
# ## Self-check
#
# 1. A colleague's model computes part of its forward pass with `float(t)` and `math.exp`, then
#    wraps the result in `torch.tensor(...)`. What will `loss.backward()` say, and why?
# 2. In a Function with `forward(ctx, fn, xs, weight, h)`, how many values must `backward`
#    return, and which of them can be `None`?
# 3. You need a Python function and a float in backward. Why not `ctx.save_for_backward(fn, h)`,
#    and what do you do instead?
# 4. `ForwardDifference` passed gradcheck for $f$ but not for $g$. Why?
# 5. You halve `h` in a central difference in float64, far from the rounding regime. By how
#    much does the error shrink? And in a forward difference?
#
# <details><summary>Answers</summary>
#
# 1. "element 0 of tensors does not require grad and does not have a grad_fn" (if nothing else
#    connects the loss to the parameters): `float(t)` leaves the graph, and `torch.tensor(...)`
#    makes a new leaf, so the loss has no path back to the weights.
# 2. Four, one per argument of forward (`ctx` excluded). `None` for `fn` and `h` (not tensors)
#    and for `xs` (it needs no gradient); only `weight` needs a real gradient.
# 3. `save_for_backward` accepts tensors only (a `TypeError` otherwise). Store them as
#    attributes: `ctx.fn = fn`, `ctx.h = h`.
# 4. $f$ is linear in $\mathbf w$, so the forward difference is exact up to rounding. $g$ has
#    curvature; the forward difference is off by about $\frac h2 \cdot g''$, here
#    $x h = 10^{-3} x$ for the $w_0$ column, beyond gradcheck's tolerance.
# 5. By 4 (error $\propto h^2$). By 2 for a forward difference (error $\propto h$).
#
# </details>
#
# **Exercises:** `exercises/09_custom_functions.ipynb`. Next: lesson 10, visualising graphs.
