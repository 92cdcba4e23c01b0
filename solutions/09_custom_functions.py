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
# # Exercises 09 · Custom Functions
#
# Practise lesson 09 (`notebooks/09_custom_functions.ipynb`): write a `torch.autograd.Function`
# whose backward is a central difference, predict what `ctx` knows and what `backward` must
# return, estimate a derivative by hand with forward and central differences, and repair a
# Function that breaks two of the rules. Each answer cell is followed by a check cell; the
# questions do not depend on each other.

# %%
# Run this cell first.
import numpy as np
import torch

from coursekit.grading import question

# %% [markdown]
# ## 09.1 · Implement: a Function with central differences (3 points)
#
# `CentralDiff.apply(fn, x, h)` runs `fn(x)`, where `fn` is any function from a 1-D tensor `x`
# to a tensor `y` (of any shape) that autograd cannot see into, for example because it goes
# through NumPy. Write `forward` and `backward` so that backward estimates each derivative with
# a **central difference**:
#
# $$\frac{\partial L}{\partial x_i} \approx \sum_k \mathrm{grad\_output}_k\,
#   \frac{y_k(\mathbf x + h\,\mathbf e_i) - y_k(\mathbf x - h\,\mathbf e_i)}{2h}.$$
#
# The rules of the lesson apply: save tensors with `ctx.save_for_backward`, keep `fn` and `h`
# as plain attributes of `ctx`, return one value per input of `forward` (`None` for `fn` and
# `h`), and never change `x` itself (nudge a copy). Write the differences yourself: not with
# the numerical Jacobian of `torch.autograd.gradcheck`, which is built the same way.

# %% question="09.1" role="answer"
# Answer 09.1
class CentralDiff(torch.autograd.Function):
    @staticmethod
    def forward(ctx, fn, x, h):
        ### BEGIN SOLUTION
        ctx.save_for_backward(x)
        ctx.fn, ctx.h = fn, h
        return fn(x)
        ### END SOLUTION

    @staticmethod
    def backward(ctx, grad_output):
        ### BEGIN SOLUTION
        (x,) = ctx.saved_tensors
        x = x.detach().clone()
        grads = []
        for i in range(len(x)):
            x[i] += ctx.h
            up = ctx.fn(x)
            x[i] -= 2 * ctx.h
            down = ctx.fn(x)
            x[i] += ctx.h
            grads.append((grad_output * (up - down)).sum() / (2 * ctx.h))
        return None, torch.stack(grads), None
        ### END SOLUTION


# %% question="09.1" role="check" points=3
def _through_numpy(v):
    """y_k = sum_i (k + 1) * cos(i * v_i) + v_k ** 3, computed outside autograd."""
    a = v.detach().numpy()
    y = np.cos(np.arange(len(a)) * a).sum() * np.arange(1, len(a) + 1) + a ** 3
    return torch.from_numpy(y)


def _estimate(values, h, upstream, kind):
    """The estimate of x.grad that a difference of `kind` gives (computed here, by torch)."""
    x = torch.tensor(values, dtype=torch.float64)
    out = []
    for i in range(len(values)):
        e = torch.zeros_like(x)
        e[i] = h
        if kind == "central":
            d = (_through_numpy(x + e) - _through_numpy(x - e)) / (2 * h)
        else:
            d = (_through_numpy(x + e) - _through_numpy(x)) / h
        out.append((upstream * d).sum())
    return torch.stack(out)


def _central_probe(values, h, upstream):
    """CentralDiff.apply(_through_numpy, x, h): y, its node's name, then after backward from
    ``upstream``: x's values and x.grad (or the error backward raised)."""
    x = torch.tensor(values, dtype=torch.float64, requires_grad=True)
    y = CentralDiff.apply(_through_numpy, x, h)
    seen = {"y": y, "node": None if y.grad_fn is None else type(y.grad_fn).__name__}
    try:
        y.backward(torch.tensor(upstream, dtype=torch.float64))
    except NotImplementedError:
        raise
    except (TypeError, RuntimeError) as error:
        seen["error"] = error
    seen.update(x=x.detach(), grad=x.grad)
    return seen


def _jacobian_probe(values, h):
    """The rows of the Jacobian that CentralDiff's backward gives (one backward per output)."""
    rows = []
    for k in range(len(values)):
        x = torch.tensor(values, dtype=torch.float64, requires_grad=True)
        upstream = torch.zeros(len(values), dtype=torch.float64)
        upstream[k] = 1.0
        CentralDiff.apply(_through_numpy, x, h).backward(upstream)
        rows.append(x.grad)
    return rows


with question("09.1", points=3, answers=()) as q:
    q.refuse(("gradcheck", "_get_numerical_jacobian", "get_numerical_jacobian",
              "get_numerical_jacobian_wrt_specific_input", "_compute_numerical_gradient",
              "functional", "func"), "nudge each entry of a copy of x yourself and take the "
             "central difference")
    values, h = [0.5, -1.0, 2.0], 0.01
    upstream = torch.tensor([1.0, -2.0, 0.5], dtype=torch.float64)
    seen = q.observe(_central_probe, values, h, upstream.tolist())
    x = torch.tensor(values, dtype=torch.float64)
    q.close("CentralDiff.apply(fn, x, h)", seen["y"], _through_numpy(x), tensor=True,
            hints={"other": "forward must return fn(x)"})
    q.true(seen["node"] == "CentralDiffBackward",
           "the output has no CentralDiffBackward node: call fn inside forward and return "
           "its result")
    if isinstance(seen.get("error"), TypeError):
        q.fail(f"backward raised TypeError: {seen['error']}: save only tensors with "
               "save_for_backward; keep fn and h as ctx.fn, ctx.h")
    if "error" in seen:
        q.fail(f"backward raised: {str(seen['error'])[:90]}: return exactly one value per "
               "forward input (fn, x, h), with None for fn and h")
    # x's values after backward are read in the learner's process: trusted, 1 point
    q.method(torch.equal(seen["x"], x), "backward changed x's values: nudge a copy, "
             "x.detach().clone()")
    want = _estimate(values, h, upstream, "central")
    q.close(f"x.grad for x = {values}, h = {h}", seen["grad"], want, tensor=True, mistakes=[
        (_estimate(values, h, upstream, "forward"),
         "that is a forward difference: step to both sides, f(x + h) - f(x - h), over 2h"),
        (_estimate(values, h, torch.ones(3, dtype=torch.float64), "central"),
         "the incoming gradient is missing: multiply by grad_output before summing over "
         "the outputs (chain rule)")],
        hints={"double": "divide the difference by 2h, not h: the two points are 2h apart",
               "half": "divide by 2h, not 4h"})
    ### BEGIN HIDDEN TESTS
    values = [0.3, 1.2]
    rows = q.observe(_jacobian_probe, values, 1e-6)
    for k, row in enumerate(rows):
        e = torch.zeros(2, dtype=torch.float64)
        e[k] = 1.0
        q.close(f"row {k} of the Jacobian (h = 1e-6, float64)", row,
                _estimate(values, 1e-4, e, "central"), tensor=True, rtol=1e-3, atol=1e-5)
    ### END HIDDEN TESTS

# %% [markdown]
# ## 09.2 · Predict: what `ctx` knows, what `backward` returns (2 points)
#
# ```python
# class Fit(torch.autograd.Function):
#     @staticmethod
#     def forward(ctx, fn, xs, weight, h):
#         ...
#
# xs = torch.tensor([1.0, 2.0])                          # data
# w = torch.tensor([1.0, 2.0], requires_grad=True)
# y = Fit.apply(my_fn, xs, w, 1e-3)
# ```
#
# * `needs_input_grad`: the value of `ctx.needs_input_grad` inside `forward` (a tuple of
#   booleans);
# * `n_returns`: how many values `backward` must return;
# * `must_be_none`: the set of forward argument names (`"fn"`, `"xs"`, `"weight"`, `"h"`)
#   whose gradient **must** be `None`: torch raises an error if `backward` returns a tensor
#   there.

# %% question="09.2" role="answer"
# Answer 09.2
### BEGIN SOLUTION
needs_input_grad = (False, False, True, False)
n_returns = 4
must_be_none = {"fn", "h"}
### END SOLUTION

# %% question="09.2" role="check" points=2
def _fit_class(replace=None):
    """A Function like Fit whose backward returns a tensor at position `replace` too."""
    class Fit(torch.autograd.Function):
        @staticmethod
        def forward(ctx, fn, xs, weight, h):
            ctx.seen = ctx.needs_input_grad
            return fn(xs, weight)

        @staticmethod
        def backward(ctx, grad_output):
            grads = [None, None, grad_output.sum() * torch.ones(2), None]
            if replace is not None and grads[replace] is None:
                grads[replace] = torch.ones(2)
            return tuple(grads)
    return Fit


with question("09.2", points=2, answers=("needs_input_grad", "n_returns", "must_be_none")) as q:
    def fn(xs, weight):
        return xs * weight[0] + weight[1]

    xs, w = torch.tensor([1.0, 2.0]), torch.tensor([1.0, 2.0], requires_grad=True)
    y = _fit_class().apply(fn, xs, w, 1e-3)
    want = tuple(y.grad_fn.seen)
    q.true(isinstance(needs_input_grad, tuple | list) and len(needs_input_grad) == len(want),
           f"`needs_input_grad` should be a tuple of {len(want)} booleans: one per argument "
           "of forward, ctx excluded")
    for name, got, truth in zip(("fn", "xs", "weight", "h"), needs_input_grad, want):
        q.true(bool(got) == truth, f"needs_input_grad for {name} is {truth}, not {got}: "
               + ("only weight requires grad" if name == "weight" else
                  "xs is a tensor, but it does not require grad" if name == "xs" else
                  f"{name} is not a tensor"))
    q.close("n_returns", n_returns, len(want), mistakes=[
        (5, "ctx is not counted: one value per argument after ctx"),
        (1, "one value per input of forward, not per output")])
    names = ("fn", "xs", "weight", "h")
    truth = set()
    for pos in range(4):
        try:
            _fit_class(replace=pos).apply(fn, xs, w, 1e-3).sum().backward()
        except RuntimeError:
            truth.add(names[pos])
    q.true(isinstance(must_be_none, set | list | tuple), "`must_be_none` should be a set of "
           "names, like {'xs'}")
    for name in names:
        q.true((name in must_be_none) == (name in truth), f"{name}: " + (
            "torch raises when backward returns a tensor for an argument that is not a tensor"
            if name in truth else "a tensor that needs no gradient may get one; torch just "
            "ignores it (None is better style, but not required)" if name == "xs" else
            "weight requires grad: it needs a real gradient"))

# %% [markdown]
# ## 09.3 · Compute by hand: forward versus central differences (2 points)
#
# Take $g(w) = w^3$ at $w = 2$ with a (large) step $h = 0.4$. With numbers only, compute:
# `exact` ($g'(2)$), `forward` (the forward-difference estimate
# $\frac{g(w+h)-g(w)}{h}$), `central` (the central-difference estimate
# $\frac{g(w+h)-g(w-h)}{2h}$) and `central_half` (the central estimate with $h = 0.2$).
# Compare the errors: how do they shrink with $h$?

# %% question="09.3" role="answer"
# Answer 09.3: numbers only (no autograd).
w_value, h_value = 2.0, 0.4
### BEGIN SOLUTION
exact = 3 * w_value ** 2
forward = ((w_value + h_value) ** 3 - w_value ** 3) / h_value
central = ((w_value + h_value) ** 3 - (w_value - h_value) ** 3) / (2 * h_value)
central_half = ((w_value + h_value / 2) ** 3 - (w_value - h_value / 2) ** 3) / h_value
### END SOLUTION

# %% question="09.3" role="check" points=2
with question("09.3", points=2, answers=("exact", "forward", "central", "central_half")) as q:
    tw = torch.tensor(2.0, dtype=torch.float64, requires_grad=True)
    (tw ** 3).backward()

    def g(v):
        return torch.tensor(v, dtype=torch.float64) ** 3

    def central_at(h):
        return (g(2.0 + h) - g(2.0 - h)) / (2 * h)

    q.close("exact", exact, tw.grad, hints={"other": "d(w³)/dw = 3w²"})
    h = 0.4
    q.close("forward", forward, (g(2.0 + h) - g(2.0)) / h, mistakes=[
        (tw.grad, "that is the exact derivative: a forward difference with h = 0.4 is off "
                  "by 3wh + h² = 2.56 here"),
        ((g(2.0 + h) - g(2.0)) / (2 * h), "a forward difference divides by h, not 2h")])
    q.close("central", central, central_at(h), mistakes=[
        (2 * central_at(h), "divide by 2h: the two points are 2h apart"),
        (tw.grad, "that is the exact derivative: the central estimate is off by h² here")])
    q.close("central_half", central_half, central_at(h / 2), mistakes=[
        (2 * central_at(h / 2), "divide by 2h = 0.4 for h = 0.2"),
        (central_at(h), "that is the estimate for h = 0.4: use h = 0.2")],
        hints={"other": "with h halved, the central error h² drops by 4: 0.16 becomes 0.04"})

# %% [markdown]
# ## 09.4 · Debug: a Function that breaks two rules (2 points)
#
# `ScaledExp.apply(x, a, k)` computes $y = a\,e^{kx}$ through NumPy, for a tensor `x` and two
# plain floats `a` and `k`. Its derivative is simply $dy/dx = k\,y$. As written it fails:
#
# ```python
# class ScaledExp(torch.autograd.Function):
#     @staticmethod
#     def forward(ctx, x, a, k):
#         y = torch.from_numpy(a * np.exp(k * x.detach().numpy()))
#         ctx.save_for_backward(y, k)
#         return y
#
#     @staticmethod
#     def backward(ctx, grad_output):
#         y, k = ctx.saved_tensors
#         return grad_output * k * y
# ```
#
# Write the repaired `forward` and `backward` below (keep the NumPy forward and the formula
# $k\,y$).

# %% question="09.4" role="answer"
# Answer 09.4
class ScaledExp(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x, a, k):
        ### BEGIN SOLUTION
        y = torch.from_numpy(a * np.exp(k * x.detach().numpy()))
        ctx.save_for_backward(y)
        ctx.k = k
        return y
        ### END SOLUTION

    @staticmethod
    def backward(ctx, grad_output):
        ### BEGIN SOLUTION
        (y,) = ctx.saved_tensors
        return grad_output * ctx.k * y, None, None
        ### END SOLUTION


# %% question="09.4" role="check" points=2
def _scaled_probe(values, a, k, upstream):
    """ScaledExp.apply(x, a, k) and x.grad after backward from ``upstream``."""
    x = torch.tensor(values, dtype=torch.float64, requires_grad=True)
    y = ScaledExp.apply(x, a, k)
    y.backward(torch.tensor(upstream, dtype=torch.float64))
    return {"y": y, "grad": x.grad}


with question("09.4", points=2, answers=()) as q:
    values, a, k = [0.0, 1.0, -2.0], 2.0, -0.5
    upstream = torch.tensor([1.0, 3.0, -1.0], dtype=torch.float64)
    try:
        seen = q.observe(_scaled_probe, values, a, k, upstream.tolist())
    except NotImplementedError:
        raise  # a stub (NotImplementedError is a RuntimeError)
    except TypeError as error:
        q.fail(f"still raises TypeError: {error}: save_for_backward takes tensors only; "
               "store the float k as an attribute, ctx.k = k")
    except RuntimeError as error:
        message = str(error)
        q.fail(f"still raises: {message[:70]}...: " + (
            "backward must return one value per input of forward (x, a, k): "
            "(grad_x, None, None)" if "incorrect number" in message else
            "a and k are floats, so their gradients must be None" if "different than None"
            in message else "read the error message"))
    tx = torch.tensor(values, dtype=torch.float64, requires_grad=True)
    ty = a * torch.exp(k * tx)
    ty.backward(upstream)
    q.close("y", seen["y"], ty, tensor=True, hints={"other": "keep the forward as it was: a * exp(k * x)"})
    q.close(f"x.grad for x = {values}, a = {a}, k = {k}", seen["grad"], tx.grad, tensor=True, mistakes=[
        ((ty * k).detach(), "multiply by grad_output, the gradient arriving from the loss"),
        ((upstream * ty).detach(), "dy/dx is k · y: the factor k is missing")])

# %% [markdown]
# ## Reflection (not scored)
#
# A colleague proposes to write every custom backward with central differences, "so we never
# have to derive a formula". What would you tell them about cost and accuracy?
#
# ### BEGIN SOLUTION
# Each backward needs two evaluations of the function per input element, so it is slow for
# many inputs, and the result is only an estimate: too large a step gives truncation error,
# too small gives rounding error, and in float32 nothing gets much better than about 1e-5.
# Use it to check an exact formula (gradcheck), or when no formula exists.
# ### END SOLUTION
#
# <details><summary>One possible answer</summary>
#
# Cost: two extra forward evaluations per input element in every backward pass. Accuracy: an
# estimate limited by the step (truncation) and by the dtype (rounding), far from exact in
# float32. Better: derive the formula, or let autograd see the computation, and keep the
# differences for checking.
# </details>
