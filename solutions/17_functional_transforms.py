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
# # Exercises 17 · Functional transforms: `torch.func`
#
# Practise lesson 17 (`notebooks/17_functional_transforms.ipynb`): the shapes `vmap` and
# `jacrev` give, per-sample gradients with `vmap(grad(...))` and `functional_call`, choosing
# `jacrev` or `jacfwd` from the shape of the Jacobian, and a Hessian-vector product forward
# over reverse. Each answer cell is followed by a check cell; the questions do not depend on
# each other.

# %%
# Run this cell first.
import torch
import torch.func

import minigrad
from coursekit.grading import question

# %% [markdown]
# ## 17.1 · Predict: the shapes of transformed functions (2 points)
#
# ```python
# def f(w, x):                      # w and x: shape (3,)
#     return torch.stack([(w * x).sum(), (w * x ** 2).sum()])
#
# W = torch.ones(3)
# X = torch.ones(8, 3)              # 8 samples
#
# a = torch.func.vmap(f, in_dims=(None, 0))(W, X)
# b = torch.func.vmap(f, in_dims=(None, 0), out_dims=1)(W, X)
# c = torch.func.jacrev(f)(W, X[0])
# d = torch.func.vmap(torch.func.jacrev(f, argnums=1), in_dims=(None, 0))(W, X)
# ```
#
# Without running it: give the shapes of `a`, `b`, `c` and `d` as tuples of ints, e.g.
# `shape_a = (4, 5)`.

# %% question="17.1" role="answer"
# Answer 17.1
### BEGIN SOLUTION
shape_a = (8, 2)
shape_b = (2, 8)
shape_c = (2, 3)
shape_d = (8, 2, 3)
### END SOLUTION

# %% question="17.1" role="check" points=2
with question("17.1", points=2, answers=("shape_a", "shape_b", "shape_c", "shape_d")) as q:
    def _f(w, x):
        return torch.stack([(w * x).sum(), (w * x ** 2).sum()])

    W, X = torch.ones(3), torch.ones(8, 3)
    want = {"shape_a": torch.func.vmap(_f, in_dims=(None, 0))(W, X).shape,
            "shape_b": torch.func.vmap(_f, in_dims=(None, 0), out_dims=1)(W, X).shape,
            "shape_c": torch.func.jacrev(_f)(W, X[0]).shape,
            "shape_d": torch.func.vmap(torch.func.jacrev(_f, argnums=1),
                                       in_dims=(None, 0))(W, X).shape}
    given = {"shape_a": shape_a, "shape_b": shape_b, "shape_c": shape_c, "shape_d": shape_d}
    hints = {"shape_a": "vmap stacks one output of f (2 numbers) per sample, at out_dims=0",
             "shape_b": "out_dims=1 puts the batch dimension second",
             "shape_c": "a Jacobian has one row per output and one column per input",
             "shape_d": "one (outputs, inputs) Jacobian per sample, stacked at dimension 0"}
    for name in want:
        got = given[name]
        q.true(got is not Ellipsis, f"`{name}` is still `...`: replace it with your answer")
        q.true(isinstance(got, tuple | list) and all(isinstance(n, int) for n in got),
               f"`{name}` should be a tuple of ints, like (4, 5)")
        q.true(len(got) == len(want[name]), f"`{name}` has {len(got)} dimension(s), which is "
               f"not right: {hints[name]}")
        q.close(name, list(got), list(want[name]), hints={"other": hints[name]})

# %% [markdown]
# ## 17.2 · Implement: per-sample gradients with `vmap` and `grad` (3 points)
#
# Write `per_sample_grads(model, params, X, Y)`. `model` is an `nn.Module` that maps a batch
# of inputs of shape `(N, 3)` to outputs of shape `(N, 1)`; `params` is a dict of its
# parameters by name (as `dict(model.named_parameters())` gives, but with your own values);
# `X` has shape `(B, 3)` and `Y` shape `(B, 1)`. The loss of sample $i$ is
# $\big(\mathrm{model}(x_i) - y_i\big)^2$ (summed over the one output), computed with the
# tensors of `params` in the model.
#
# Return a dict with the same keys as `params`, where entry `name` has shape
# `(B, *params[name].shape)`: row $i$ is the gradient of sample $i$'s loss. Use
# `torch.func.functional_call`, `torch.func.grad` and `torch.func.vmap` (lesson 17, section 6),
# not a Python loop over the samples: the check counts how many times your code calls the
# model.

# %% question="17.2" role="answer"
# Answer 17.2
def per_sample_grads(model, params, X, Y):
    ### BEGIN SOLUTION
    def sample_loss(p, x, y):
        pred = torch.func.functional_call(model, p, (x.unsqueeze(0),))
        return ((pred.squeeze(0) - y) ** 2).sum()

    return torch.func.vmap(torch.func.grad(sample_loss), in_dims=(None, 0, 0))(params, X, Y)
    ### END SOLUTION


# %% question="17.2" role="check" points=3
def _per_sample_probe(param_values, X_values, Y_values):
    """per_sample_grads on a two-layer network that counts the calls of its forward."""

    class _CountingNet(torch.nn.Module):
        def __init__(self):
            super().__init__()
            self.hidden = torch.nn.Linear(3, 4, dtype=torch.float64)
            self.out = torch.nn.Linear(4, 1, dtype=torch.float64)
            self.calls = 0

        def forward(self, x):
            self.calls += 1
            return self.out(torch.tanh(self.hidden(x)))

    model = _CountingNet()
    params = {name: torch.tensor(value, dtype=torch.float64)
              for name, value in param_values.items()}
    grads = per_sample_grads(model, params, torch.tensor(X_values, dtype=torch.float64),
                             torch.tensor(Y_values, dtype=torch.float64))
    if isinstance(grads, dict):
        grads = {name: grads.get(name) for name in param_values}
    return {"grads": grads, "calls": model.calls}


def _per_sample_reference(param_values, X, Y):
    """Each sample's gradient with torch.autograd.grad, one sample at a time."""
    names = list(param_values)
    rows = {name: [] for name in names}
    for x, y in zip(X, Y):
        p = {name: torch.tensor(v, dtype=torch.float64, requires_grad=True)
             for name, v in param_values.items()}
        hidden = torch.tanh(p["hidden.weight"] @ x + p["hidden.bias"])
        loss = ((p["out.weight"] @ hidden + p["out.bias"] - y) ** 2).sum()
        for name, g in zip(names, torch.autograd.grad(loss, [p[n] for n in names])):
            rows[name].append(g)
    return {name: torch.stack(rows[name]) for name in names}


def _check_per_sample(q, batch, shift):
    grid = torch.linspace(-1.0, 1.0, 30, dtype=torch.float64) + shift
    param_values = {"hidden.weight": grid[:12].reshape(4, 3).tolist(),
                    "hidden.bias": grid[12:16].tolist(),
                    "out.weight": grid[16:20].reshape(1, 4).tolist(),
                    "out.bias": grid[20:21].tolist()}
    X = torch.sin(torch.arange(batch * 3, dtype=torch.float64) * 0.7 + shift).reshape(batch, 3)
    Y = torch.cos(torch.arange(batch, dtype=torch.float64) + shift).reshape(batch, 1)
    want = _per_sample_reference(param_values, X, Y)
    try:
        seen = q.observe(_per_sample_probe, param_values, X.tolist(), Y.tolist())
    except ValueError as error:
        if "mapped dimension" not in str(error):
            raise
        q.fail(f"per_sample_grads raises: {str(error)[:100]}...: vmap tried to split the "
               "parameters into samples too; they are shared, so their in_dim is None: "
               "in_dims=(None, 0, 0)")
    q.true(isinstance(seen["grads"], dict), "per_sample_grads should return a dict with the "
           "keys of params (grad of a function of a dict gives a dict)")
    for name, wanted in want.items():
        got = seen["grads"][name]
        q.need_tensor(f"per_sample_grads(...)[{name!r}]", got)
        q.true(tuple(got.shape) != tuple(wanted.shape[1:]), f"per_sample_grads(...)[{name!r}] "
               f"has the shape of the parameter, {list(got.shape)}: that is one gradient for "
               "the whole batch; vmap gives one per sample, with a leading batch dimension")
        q.close(f"per_sample_grads(...)[{name!r}] for {batch} samples", got, wanted,
                tensor=True, mistakes=[(wanted * 0.5, "the loss of one sample is the squared "
                                                      "error itself, not half of it")])
    # how many times the model ran is counted beside the learner's code: a trusted fact
    q.method(seen["calls"] == 1, f"your code called the model {seen['calls']} times for "
             f"{batch} samples: that is a loop; vmap(grad(sample_loss), in_dims=(None, 0, 0)) "
             "runs the model once, on the whole batch")


with question("17.2", points=3, answers=()) as q:
    _check_per_sample(q, 5, 0.0)
    ### BEGIN HIDDEN TESTS
    _check_per_sample(q, 3, 0.3)
    ### END HIDDEN TESTS

# %% [markdown]
# ## 17.3 · Implement: the cheaper Jacobian (3 points)
#
# Write `jacobian(f, x)` for a function `f` from a 1-D tensor to a 1-D tensor: return its
# Jacobian at `x` (shape `(outputs, inputs)`), computed with `torch.func.jacrev` when `f` has
# fewer outputs than inputs and with `torch.func.jacfwd` otherwise (lesson 17, section 3).
# You may call `f(x)` once to find out how many outputs it has. Do not use
# `torch.autograd.functional`. The check counts the backward passes that reach `x`.

# %% question="17.3" role="answer"
# Answer 17.3
def jacobian(f, x):
    ### BEGIN SOLUTION
    outputs = f(x).numel()
    if outputs < x.numel():
        return torch.func.jacrev(f)(x)
    return torch.func.jacfwd(f)(x)
    ### END SOLUTION


# %% question="17.3" role="check" points=3
def _jacobian_target(kind, x):
    """The functions of 17.3: "tall" (6 outputs per input) or "wide" (2 outputs)."""
    if kind == "tall":
        k = torch.arange(1.0, 7.0, dtype=x.dtype)
        return torch.sin(torch.outer(k, x)).reshape(-1)
    return torch.stack([(x ** 2).sum(), torch.tanh(x).prod()])


def _jacobian_probe(kind, values):
    """jacobian on a tall or a wide function, and how many backward passes reached x (torch's
    first forward-mode pass warns about its own jit helpers: silenced)."""
    import warnings

    passes = []

    def f(x):
        if x.requires_grad:
            x.register_hook(lambda grad: passes.append(1))
        return _jacobian_target(kind, x)

    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        J = jacobian(f, torch.tensor(values, dtype=torch.float64))
    return {"J": J, "passes": len(passes)}


def _check_jacobian(q, kind, values):
    x = torch.tensor(values, dtype=torch.float64)
    want = torch.autograd.functional.jacobian(lambda t: _jacobian_target(kind, t), x)
    q.refuse(("functional",), "use torch.func's jacrev or jacfwd, chosen by the shape")
    seen = q.observe(_jacobian_probe, kind, values)
    q.close(f"jacobian of the {kind} function at {values}", seen["J"], want, tensor=True,
            mistakes=[(want.T, "that is the transpose: one row per output, one column per "
                               "input")] if want.shape[0] == want.shape[1] else [])
    # the backward passes that reached x are counted beside the learner's code: trusted facts
    m, n = want.shape
    if m < n:
        q.method(seen["passes"] > 0, f"the Jacobian has {m} rows and {n} columns and your code "
                 "ran no backward pass: fewer outputs than inputs is jacrev's case")
    else:
        q.method(seen["passes"] == 0, f"the Jacobian has {m} rows and {n} columns and a "
                 "backward pass reached x: more outputs than inputs is jacfwd's case")


with question("17.3", points=3, answers=()) as q:
    _check_jacobian(q, "tall", [0.5, -1.0, 2.0])
    _check_jacobian(q, "wide", [0.3, -0.7, 1.1, 0.0, 2.0, -1.5, 0.4])
    ### BEGIN HIDDEN TESTS
    _check_jacobian(q, "tall", [1.5, 0.25])
    _check_jacobian(q, "wide", [1.0, -2.0, 0.5])
    ### END HIDDEN TESTS

# %% [markdown]
# ## 17.4 · Implement: a Hessian-vector product, forward over reverse (2 points)
#
# Write `hvp_fwd_rev(f, x, v)`: `f` maps a 1-D tensor to a one-element tensor; return
# $H\mathbf v$, where $H$ is the Hessian of `f` at `x`, as the forward-mode derivative of the
# gradient along `v` (lesson 17, section 4): one call of `torch.func.jvp` on
# `torch.func.grad(f)`. Do not build the Hessian, and do not use `torch.autograd` (its two
# `grad` calls are lesson 12's reverse-over-reverse way, which runs two backward passes; the
# check counts them).

# %% question="17.4" role="answer"
# Answer 17.4
def hvp_fwd_rev(f, x, v):
    ### BEGIN SOLUTION
    return torch.func.jvp(torch.func.grad(f), (x,), (v,))[1]
    ### END SOLUTION


# %% question="17.4" role="check" points=2
def _hvp_target(name, t):
    """The functions of 17.4."""
    if name == "quartic":
        return (t ** 4).sum() + t[0] * t[1] * t[2]
    return (torch.tanh(t) ** 2).sum() * t.sum()


def _hvp_probe(name, values, direction):
    """hvp_fwd_rev on one of two functions: its result, and how many backward passes reached
    x (torch's first forward-mode pass warns about its own jit helpers: silenced)."""
    import warnings

    passes = []

    def f(t):
        if t.requires_grad:
            t.register_hook(lambda grad: passes.append(1))
        return _hvp_target(name, t)

    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        out = hvp_fwd_rev(f, torch.tensor(values, dtype=torch.float64),
                          torch.tensor(direction, dtype=torch.float64))
    return {"out": out, "passes": len(passes)}


def _check_hvp(q, name, values, direction):
    x = torch.tensor(values, dtype=torch.float64)
    v = torch.tensor(direction, dtype=torch.float64)
    hessian = torch.autograd.functional.hessian(lambda t: _hvp_target(name, t), x)
    xr = x.clone().requires_grad_()
    gradient = torch.autograd.grad(_hvp_target(name, xr), xr)[0]
    q.refuse(("autograd", "hessian", "jacrev", "jacfwd", "hvp", "vhp", "functional"),
             "compute H v as torch.func.jvp of torch.func.grad(f), without the Hessian")
    seen = q.observe(_hvp_probe, name, values, direction)
    q.close(f"hvp_fwd_rev for {name} at x = {values}, v = {direction}", seen["out"],
            hessian @ v, tensor=True, mistakes=[
                (gradient, "that is the gradient: jvp returns (output, tangent), and H v is "
                           "the tangent of grad(f)'s output, the second entry")])
    # the backward passes that reached x are counted beside the learner's code: a trusted fact
    q.method(seen["passes"] <= 1, f"{seen['passes']} backward passes reached x: forward over "
             "reverse needs only one, the backward pass of grad(f), run with tangents")


with question("17.4", points=2, answers=()) as q:
    _check_hvp(q, "quartic", [1.0, -2.0, 0.5, 3.0], [1.0, 0.0, 2.0, -1.0])
    ### BEGIN HIDDEN TESTS
    _check_hvp(q, "tanh", [0.3, -0.7, 1.1, 0.0, 2.0], [0.5, 1.0, -1.0, 2.0, 0.0])
    ### END HIDDEN TESTS

# %% [markdown]
# ## Reflection (not scored)
#
# torch's `vmap` calls your function once, on tensors that hide a batch dimension, and so
# does minigrad's, most of the time (lesson 17, section 7). Name one case where minigrad calls
# the function once per sample instead, what a `print` inside it then shows, and one reason
# the batched way is faster.
#
# ### BEGIN SOLUTION
# A function that draws random numbers (with `randomness="same"` or `"different"`): minigrad's
# batched call stops at the draw and the function runs again once per sample, so a `print`
# before the draw shows $B + 1$ lines in minigrad and one in torch. A `vjp` given a batched
# tensor also runs its function once per sample. (Reading a value with `.item()`, or a Python
# `if` on it, is refused by both.) The batched way is faster because each operation runs once
# on the whole batch as one vectorised kernel (a matrix product instead of many dot
# products), with no Python overhead per sample.
# ### END SOLUTION
#
# <details><summary>One possible answer</summary>
#
# A function that draws random numbers runs once per sample in minigrad (after a batched
# attempt that stops at the draw) and once in torch, so a `print` inside shows more lines in
# minigrad. Batched is faster because every operation runs once, on the whole batch, instead
# of $B$ times from Python.
# </details>
