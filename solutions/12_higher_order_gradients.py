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
# # Exercises 12 · Higher-order gradients
#
# Practise lesson 12 (`notebooks/12_higher_order_gradients.ipynb`): what `create_graph=True`
# gives you, derivatives of any order, Hessian-vector products without the Hessian, and a
# gradient penalty that silently does nothing. Each answer cell is followed by a check cell;
# the questions do not depend on each other.

# %%
# Run this cell first.
import torch

import minigrad
from coursekit.grading import question

# %% [markdown]
# ## 12.1 · Predict: a gradient, and the gradient of the gradient (2 points)
#
# ```python
# x = torch.tensor(1.0, requires_grad=True)
# y = x ** 4 + 2 * x
# (g,) = torch.autograd.grad(y, x, create_graph=True)
# (h,) = torch.autograd.grad(g, x)
#
# x2 = torch.tensor(1.0, requires_grad=True)
# (g2,) = torch.autograd.grad(x2 ** 4 + 2 * x2, x2)
# ```
#
# Without running it: what are `g` and `h` (numbers), and what is `g2.requires_grad`
# (`True` or `False`)?

# %% question="12.1" role="answer"
# Answer 12.1
### BEGIN SOLUTION
g_value = 6.0
h_value = 12.0
g2_requires_grad = False
### END SOLUTION

# %% question="12.1" role="check" points=2
with question("12.1", points=2, answers=("g_value", "h_value", "g2_requires_grad")) as q:
    tx = torch.tensor(1.0, requires_grad=True)
    ty = tx ** 4 + 2 * tx
    (tg,) = torch.autograd.grad(ty, tx, create_graph=True)
    (th,) = torch.autograd.grad(tg, tx)
    tx2 = torch.tensor(1.0, requires_grad=True)
    (tg2,) = torch.autograd.grad(tx2 ** 4 + 2 * tx2, tx2)
    q.close("g_value", g_value, tg, mistakes=[
        (4.0, "don't forget the 2x term: dy/dx = 4x³ + 2"),
        (3.0, "y = x⁴ + 2x at x = 1 is 3: g is its derivative, 4x³ + 2")])
    q.close("h_value", h_value, th, mistakes=[
        (6.0, "that is dy/dx again: h differentiates g = 4x³ + 2 once more"),
        (24.0, "d(4x³ + 2)/dx = 12x², which is 12 at x = 1"),
        (14.0, "the + 2 of g is a constant: its derivative is 0")])
    q.true(g2_requires_grad in (True, False), "`g2_requires_grad` should be True or False")
    q.true(bool(g2_requires_grad) == tg2.requires_grad, "without create_graph=True the backward "
           "pass runs with recording off: g2 has no grad_fn and does not require grad")

# %% [markdown]
# ## 12.2 · Implement: a Hessian-vector product in two backward passes (3 points)
#
# Write `hvp_trick(f, x, v)`: `f` takes a 1-D tensor and returns a scalar, `x` is a 1-D tensor
# that does **not** require grad, and `v` has the shape of `x`. Return $H\mathbf v$, where $H$
# is the Hessian of `f` at `x`, as a tensor that does not require grad. Do not build the
# Hessian: two `torch.autograd.grad` calls are enough (the check counts how many backward
# passes reach `x`). Work on a copy of `x` that requires grad. Do not use
# `torch.autograd.functional` or `torch.func` (their `hvp` is the answer, not the method).

# %% question="12.2" role="answer"
# Answer 12.2
def hvp_trick(f, x, v):
    ### BEGIN SOLUTION
    x = x.detach().requires_grad_()
    (g,) = torch.autograd.grad(f(x), x, create_graph=True)
    (hv,) = torch.autograd.grad((g * v).sum(), x)
    return hv
    ### END SOLUTION


# %% question="12.2" role="check" points=3
def _f_quartic(t):
    return (t ** 4).sum() + t[0] * t[1] * t[2]


def _f_tanh(t):
    return (torch.tanh(t) ** 2).sum() * t.sum()


def _hvp_probe(name, values, direction):
    """hvp_trick on one of two functions: its result, whether the result requires grad, and
    how many backward passes reached x (a hook on the tensor f is called with)."""
    passes = []

    from coursekit.grading.checks import ready_made_caller

    ready_made = []

    def f(t):
        ready_made.append(ready_made_caller())
        if t.requires_grad:
            t.register_hook(lambda grad: passes.append(1))
        if name == "quartic":
            return (t ** 4).sum() + t[0] * t[1] * t[2]
        return (torch.tanh(t) ** 2).sum() * t.sum()

    x = torch.tensor(values, dtype=torch.float64)
    out = hvp_trick(f, x, torch.tensor(direction, dtype=torch.float64))
    return {"out": out, "passes": len(passes), "x": x,
            "requires_grad": getattr(out, "requires_grad", False) is True,
            "ready_made": [api for api in ready_made if api]}


def _check_hvp(q, name, fn, values, direction):
    x = torch.tensor(values, dtype=torch.float64)
    v = torch.tensor(direction, dtype=torch.float64)
    hessian = torch.autograd.functional.hessian(fn, x)
    xr = x.clone().requires_grad_()
    gradient = torch.autograd.grad(fn(xr), xr)[0]
    refused = "compute H v yourself, with two torch.autograd.grad calls"
    q.refuse(("functional", "func", "hvp", "vhp", "hessian", "jacobian", "jacrev", "jacfwd",
              "vjp", "jvp"), refused)
    seen = q.observe(_hvp_probe, name, values, direction)
    # the ready-made API found on the stack by the learner's process: a trusted fact, worth 1
    # point (q.refuse above is the grader's own reading of the answer cell)
    q.method(not seen["ready_made"], f"hvp_trick called f through {seen['ready_made'][:1]}: "
             f"{refused}")
    q.need_tensor(f"hvp_trick for {name}", seen["out"])
    # x after the call, the backward passes that reached x and whether the result requires
    # grad are reported by the learner's process: trusted facts, worth 1 point together
    q.method(torch.equal(seen["x"], x), "hvp_trick changed x in place: work on "
             "x.detach().requires_grad_() (a new tensor)")
    q.close(f"hvp_trick for {name} at x = {values}, v = {direction}", seen["out"], hessian @ v,
            tensor=True, mistakes=[
                (gradient, "that is the gradient g: differentiate once more, the scalar "
                           "(g * v).sum(), with the gradient made with create_graph=True"),
                (v @ hessian @ v * torch.ones(len(values)), "return the vector H v, not "
                                                            "the number v·Hv")])
    q.method(seen["passes"] <= 2, f"{seen['passes']} backward passes reached x: that is the "
             "cost of the whole Hessian (one pass per entry of x, plus one); two grad calls "
             "are enough")
    q.method(not seen["requires_grad"], "the result still requires grad: the second grad "
             "call needs no create_graph")


with question("12.2", points=3, answers=()) as q:
    _check_hvp(q, "quartic", _f_quartic, [1.0, -2.0, 0.5, 3.0, -1.0], [1.0, 0.0, 2.0, -1.0, 0.5])
    ### BEGIN HIDDEN TESTS
    _check_hvp(q, "tanh", _f_tanh, [0.3, -0.7, 1.1, 0.0, 2.0, -1.5],
               [0.5, 1.0, -1.0, 2.0, 0.0, 1.0])
    ### END HIDDEN TESTS

# %% [markdown]
# ## 12.3 · Debug: a gradient penalty that does nothing (3 points)
#
# This loss should punish a steep model with $\lambda$ times the mean squared norm of each
# sample's input gradient $\partial \hat y_i / \partial \mathbf x_i$ (lesson 12, section 6):
#
# ```python
# def penalised_loss(w, X, target, lam):
#     inputs = X.clone().requires_grad_()
#     pred = torch.tanh(inputs @ w)
#     loss = ((pred - target) ** 2).mean()
#     (input_grad,) = torch.autograd.grad(pred.sum(), inputs, retain_graph=True)
#     return loss + lam * (input_grad ** 2).sum(dim=1).mean()
# ```
#
# Its value is right and `penalised_loss(w, X, target, lam).backward()` runs without error,
# but training gives the same weights whatever `lam` is: `w.grad` ignores the penalty. Copy it
# into the answer cell and fix it.

# %% question="12.3" role="answer"
# Answer 12.3
def penalised_loss(w, X, target, lam):
    ### BEGIN SOLUTION
    inputs = X.clone().requires_grad_()
    pred = torch.tanh(inputs @ w)
    loss = ((pred - target) ** 2).mean()
    (input_grad,) = torch.autograd.grad(pred.sum(), inputs, create_graph=True)
    return loss + lam * (input_grad ** 2).sum(dim=1).mean()
    ### END SOLUTION


# %% question="12.3" role="check" points=3
def _penalty_reference(w_values, X, target, lam, penalty_has_graph=True):
    w = torch.tensor(w_values, dtype=torch.float64, requires_grad=True)
    inputs = torch.tensor(X, dtype=torch.float64, requires_grad=True)
    pred = torch.tanh(inputs @ w)
    loss = ((pred - torch.tensor(target, dtype=torch.float64)) ** 2).mean()
    (input_grad,) = torch.autograd.grad(pred.sum(), inputs, create_graph=penalty_has_graph,
                                        retain_graph=True)
    total = loss + lam * (input_grad ** 2).sum(dim=1).mean()
    total.backward()
    return total.detach(), w.grad


def _penalty_probe(w_values, X, target, lam):
    """penalised_loss's value, and w.grad after its backward."""
    w = torch.tensor(w_values, dtype=torch.float64, requires_grad=True)
    total = penalised_loss(w, torch.tensor(X, dtype=torch.float64),
                           torch.tensor(target, dtype=torch.float64), lam)
    seen = {"total": total}
    if getattr(total, "requires_grad", False):
        total.backward()
        seen["grad"] = w.grad
    return seen


with question("12.3", points=3, answers=()) as q:
    X = [[1.0, 2.0], [-0.5, 1.0], [2.0, -1.0], [0.0, 0.5]]
    target, w_values, lam = [0.9, 0.3, 0.2, 0.4], [0.5, -0.25], 2.0
    want_total, want_grad = _penalty_reference(w_values, X, target, lam)
    _, ignored_grad = _penalty_reference(w_values, X, target, lam, penalty_has_graph=False)
    try:
        seen = q.observe(_penalty_probe, w_values, X, target, lam)
    except NotImplementedError:
        raise
    except RuntimeError as error:
        q.fail(f"penalised_loss raises: {str(error)[:80]}...: keep the graph of the first "
               "pass alive (create_graph=True implies retain_graph=True)")
    q.close("penalised_loss(w, X, target, 2.0)", seen["total"], want_total, tensor=True,
            hints={"other": "keep the value: loss + lam * mean over samples of the squared "
                            "norm of each row of the input gradient"})
    q.true("grad" in seen, "the loss does not require grad: it must stay connected to w")
    q.close("w.grad", seen["grad"], want_grad, tensor=True, mistakes=[(
        ignored_grad, "w.grad still ignores the penalty: retain_graph=True only keeps the "
                      "graph, it does not record the backward pass; input_grad needs "
                      "create_graph=True to have a history back to w")])

# %% [markdown]
# ## 12.4 · Implement: the n-th derivative (2 points)
#
# Write `nth_derivative(f, x, n)`: `f` is an elementwise function (like `torch.sin`), `x` a 1-D
# tensor that does not require grad, `n >= 1`. Return $f^{(n)}$ at each point of `x`, as a
# tensor of the shape of `x`, with `n` calls of `torch.autograd.grad`.

# %% question="12.4" role="answer"
# Answer 12.4
def nth_derivative(f, x, n):
    ### BEGIN SOLUTION
    x = x.detach().requires_grad_()
    out = f(x)
    for _ in range(n):
        (out,) = torch.autograd.grad(out.sum(), x, create_graph=True)
    return out.detach()
    ### END SOLUTION


# %% question="12.4" role="check" points=2
def _nth_probe(name, values, n):
    """nth_derivative of torch.sin, torch.tanh or a polynomial at ``values``."""
    functions = {"sin": torch.sin, "tanh": torch.tanh, "poly": lambda t: t ** 5 - 3 * t ** 3}
    return nth_derivative(functions[name], torch.tensor(values, dtype=torch.float64), n)


def _check_nth(q, name, values, n, want, below):
    try:
        got = q.observe(_nth_probe, name, values, n)
    except NotImplementedError:
        raise
    except RuntimeError as error:
        q.fail(f"nth_derivative({name}, x, {n}) raises: {str(error)[:60]}...: every grad call "
               "but the last must use create_graph=True, or the next one has nothing to "
               "differentiate")
    q.close(f"nth_derivative({name}, x, {n})", got, want, tensor=True, mistakes=[
        (below, f"that is derivative number {n - 1}: differentiate n = {n} times")])


with question("12.4", points=2, answers=()) as q:
    x = torch.tensor([-1.0, 0.0, 0.5, 2.0], dtype=torch.float64)
    t = torch.tanh(x)
    _check_nth(q, "sin", x.tolist(), 1, torch.cos(x), torch.sin(x))
    _check_nth(q, "sin", x.tolist(), 3, -torch.cos(x), -torch.sin(x))
    _check_nth(q, "tanh", x.tolist(), 2, -2 * t * (1 - t ** 2), 1 - t ** 2)
    ### BEGIN HIDDEN TESTS
    _check_nth(q, "poly", x.tolist(), 4, 120 * x, 60 * x ** 2 - 18)
    _check_nth(q, "sin", x.tolist(), 5, torch.cos(x), torch.sin(x))
    ### END HIDDEN TESTS

# %% [markdown]
# ## Reflection (not scored)
#
# `create_graph=True` is off by default. What would it cost if it were always on, and why is
# it still the right default to leave off?
#
# ### BEGIN SOLUTION
# Recording the backward pass builds a second graph about as big as the forward one and keeps
# all its saved tensors alive as long as the gradient lives: more time and memory on every
# backward, for a graph almost nobody differentiates. Ordinary training only needs first
# derivatives, so recording is switched off unless you ask.
# ### END SOLUTION
#
# <details><summary>One possible answer</summary>
#
# Every backward would record nodes and keep tensors for them, roughly doubling the memory and
# adding time, and every `.grad` would hold a graph (even a reference cycle back to its
# parameter). Only a few methods (Hessians, gradient penalties, meta-learning) need it.
# </details>
