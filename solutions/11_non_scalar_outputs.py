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
# # Exercises 11 · Non-scalar outputs
#
# Practise lesson 11 (`notebooks/11_non_scalar_outputs.ipynb`): what `backward(gradient=v)`
# and `torch.autograd.grad` compute and where they put it, Jacobians row by row (reverse
# mode) for any shapes, derivatives along chosen directions (forward mode), and gradients that
# must not end up in `.grad`.
# Each answer cell is followed by a check cell; the questions do not depend on each other.

# %%
# Run this cell first.
import torch
import torch.autograd.forward_ad as fwAD

import minigrad
from coursekit.grading import question

# %% [markdown]
# ## 11.1 · Predict: a vector-Jacobian product, returned and stored (2 points)
#
# ```python
# x = torch.tensor([2.0, -1.0], requires_grad=True)
# y = torch.stack([x[0] ** 2, x[0] * x[1], 3 * x[1]])
# (g,) = torch.autograd.grad(y, x, grad_outputs=torch.tensor([1.0, 2.0, -1.0]),
#                            retain_graph=True)
# y.backward(torch.tensor([1.0, 0.0, 0.0]))
# ```
#
# Without running it: what are the two values of `g`, and of `x.grad` afterwards? (Write the
# Jacobian of `y` first: one row per output, one column per input.)

# %% question="11.1" role="answer"
# Answer 11.1
### BEGIN SOLUTION
g_values = [2.0, 1.0]
x_grad_values = [4.0, 0.0]
### END SOLUTION

# %% question="11.1" role="check" points=2
with question("11.1", points=2, answers=("g_values", "x_grad_values")) as q:
    tx = torch.tensor([2.0, -1.0], requires_grad=True)
    ty = torch.stack([tx[0] ** 2, tx[0] * tx[1], 3 * tx[1]])
    v = torch.tensor([1.0, 2.0, -1.0])
    (tg,) = torch.autograd.grad(ty, tx, grad_outputs=v, retain_graph=True)
    ty.backward(torch.tensor([1.0, 0.0, 0.0]))
    rows = torch.autograd.functional.jacobian(
        lambda z: torch.stack([z[0] ** 2, z[0] * z[1], 3 * z[1]]), tx.detach())
    q.close("g_values", g_values, tg, mistakes=[
        (rows.sum(0), "that is the sum of the rows (v all ones): weight row i by v[i]"),
        (rows[0], "that is row 0 alone: with grad_outputs v the result is v^T J, the sum "
                  "of the rows weighted by v")])
    q.close("x_grad_values", x_grad_values, tx.grad, mistakes=[
        (tg + tx.grad, "torch.autograd.grad returns its result and leaves x.grad alone: only "
                       "the backward call adds into x.grad"),
        (tg, "torch.autograd.grad leaves x.grad alone; x.grad is what backward with "
             "v = [1, 0, 0] stored: row 0 of the Jacobian")])

# %% [markdown]
# ## 11.2 · Implement: a Jacobian row by row, for any shapes (3 points)
#
# The lesson's `jacobian_by_rows` handles a function from a 1-D tensor to a 1-D tensor. Write
# `jacobian_rows(f, x)` for tensors of **any** shapes, as `torch.autograd.functional.jacobian`
# does: when `x` has shape $(a, b)$ and `f(x)` has shape $(c, d)$, the result has shape
# $(c, d, a, b)$, and its entry `[i, j, k, l]` is $\partial y_{ij} / \partial x_{kl}$, where
# `y = f(x)`. Build it with one backward pass per output element (a one-hot `grad_outputs`,
# shaped like the output, picks one of them). `x` does not require grad when you get it. Do not
# use `torch.autograd.functional` or `torch.func`.

# %% question="11.2" role="answer"
# Answer 11.2
def jacobian_rows(f, x):
    ### BEGIN SOLUTION
    x = x.detach().requires_grad_()
    y = f(x)
    rows = []
    for i in range(y.numel()):
        v = torch.zeros(y.numel())
        v[i] = 1.0
        (row,) = torch.autograd.grad(y, x, grad_outputs=v.reshape(y.shape), retain_graph=True)
        rows.append(row)
    return torch.stack(rows).reshape(*y.shape, *x.shape)
    ### END SOLUTION


# %% question="11.2" role="check" points=3
def _examples():
    """The functions the checks of 11.2 and 11.3 use, by name (torch code)."""
    W = torch.tensor([[1.0, -2.0], [0.5, 3.0], [2.0, 1.0]])
    return {"mix": lambda x: torch.stack([x[0] * x[1], x[1] * torch.sin(x[2])]),
            "layer": lambda x: torch.tanh(W @ x)}


def _rows_probe(name, values):
    """jacobian_rows on one of the example functions; how many gradients flowed back through
    f's output (one per backward pass), and whether a ready-made Jacobian was called (reported
    by the learner's process, so it costs the method's point; the grader's own reading of the
    answer cell, q.refuse, costs the whole question)."""
    import torch.func

    passes, ready_made = [], []

    def counted(z):
        y = _row_examples()[name](z)
        if y.requires_grad:
            y.register_hook(lambda g: passes.append(1))
        return y

    def spy(api, fn):
        def call(*args, **kwargs):
            ready_made.append(api)
            return fn(*args, **kwargs)
        return call

    functions = [(torch.autograd.functional, "jacobian"), (torch.func, "jacrev"),
                 (torch.func, "jacfwd"), (torch.func, "vjp"), (torch.func, "vmap")]
    saved = [getattr(module, attr) for module, attr in functions]
    for (module, attr), fn in zip(functions, saved):
        setattr(module, attr, spy(f"{module.__name__}.{attr}", fn))
    try:
        J = jacobian_rows(counted, torch.tensor(values))
    finally:
        for (module, attr), fn in zip(functions, saved):
            setattr(module, attr, fn)
    return {"J": J, "passes": len(passes), "ready_made": ready_made}


def values_shape(values):
    """The shape of the nested list ``values``."""
    return tuple(torch.tensor(values).shape)


def _row_examples():
    """11.2's functions: 11.3's, and two with a matrix input or output."""
    return {**_examples(),
            "matrix in": lambda x: torch.stack([(x * x).sum(), x[0, 1] * x[1, 0], x.trace()]),
            "matrix out": lambda x: torch.outer(x, x[:2]).sin()}


with question("11.2", points=3, answers=()) as q:
    q.refuse(("functional", "func", "jacobian", "jacrev", "jacfwd", "vjp", "vmap"),
             "build the Jacobian yourself, one backward pass per output element")
    for name, values in (("mix", [1.0, 2.0, 0.5]), ("layer", [0.3, -0.2]),
                         ("matrix in", [[0.5, -1.0], [2.0, 0.25]]),
                         ("matrix out", [0.3, -0.7, 1.1])):
        want = torch.autograd.functional.jacobian(_row_examples()[name], torch.tensor(values))
        try:
            seen = q.observe(_rows_probe, name, values)
        except NotImplementedError:
            raise
        except RuntimeError as error:
            if "second time" in str(error):
                q.fail("the second backward pass finds the graph freed: pass "
                       "retain_graph=True to every pass but the last")
            if "Mismatch in shape" in str(error):
                q.fail(f"for the {name!r} example: grad_outputs must have the output's shape: "
                       "make the one-hot vector, then .reshape(y.shape)")
            raise
        # a ready-made Jacobian is refused, and the backward passes counted, beside the
        # learner's code, which can undo both: trusted facts, worth 1 point together
        if seen["ready_made"]:
            q.method(False, f"jacobian_rows called {seen['ready_made'][0]}: build the Jacobian "
                     "yourself, one backward pass per output element")
        q.need_tensor(f"jacobian_rows for the {name!r} example", seen["J"])
        outputs = _row_examples()[name](torch.tensor(values)).numel()
        q.method(seen["passes"] == outputs,
                 f"for the {name!r} example, {seen['passes']} gradient(s) flowed back through "
                 f"f's output, expected {outputs}: one backward pass per output element, each "
                 "with a one-hot grad_outputs")
        got = tuple(seen["J"].shape)
        q.true(got == tuple(want.shape) or len(got) != 2 or want.dim() == 2,
               f"for the {name!r} example jacobian_rows has shape {list(got)}, expected "
               f"{list(want.shape)} (the output's shape, then x's): reshape the stacked rows "
               "to (*y.shape, *x.shape)")
        if want.dim() == 2:
            m, n = want.shape
            q.true(got != (n, m) or m == n,
                   f"jacobian_rows has shape {[n, m]}, expected {[m, n]}: one row per OUTPUT, "
                   "stack the rows with torch.stack(rows)")
        flat = want.reshape(-1, *values_shape(values))
        q.close(f"jacobian_rows for the {name!r} example at {values}", seen["J"], want,
                tensor=True, mistakes=[(flat.cumsum(0).reshape(want.shape),
                                        "each row also holds the rows before it: .grad "
                                        "accumulates, so reset x.grad = None before each "
                                        "backward (or use torch.autograd.grad)")])

# %% [markdown]
# ## 11.3 · Implement: derivatives along chosen directions (2 points)
#
# Forward mode does not need one-hot tangents: one dual pass with tangent $u$ gives $J u$, the
# derivative of every output along the direction $u$ in input space (the lesson's
# `jacobian_by_columns` is the special case of the $n$ one-hot directions). Write
# `directional_derivatives(f, x, U)`: `x` is a 1-D tensor of $n$ numbers, `U` an $n \times k$
# tensor whose columns are $k$ directions, `f` maps `x` to a 1-D tensor of $m$ numbers; return
# the $m \times k$ tensor $J U$, column $j$ being $J$ times column $j$ of `U`. Use **forward
# mode**: call `f` exactly $k$ times, each time on a dual `x` whose tangent is one direction
# (not once per input), and never build $J$ itself. (`fwAD` is `torch.autograd.forward_ad`,
# imported in the first cell.) Do not use `torch.autograd.functional` or `torch.func`: their
# `jvp` and `jacobian` do the passes for you.

# %% question="11.3" role="answer"
# Answer 11.3
def directional_derivatives(f, x, U):
    ### BEGIN SOLUTION
    columns = []
    for j in range(U.shape[1]):
        with fwAD.dual_level():
            out = f(fwAD.make_dual(x, U[:, j]))
            columns.append(fwAD.unpack_dual(out).tangent)
    return torch.stack(columns, dim=1)
    ### END SOLUTION


# %% question="11.3" role="check" points=2
def _examples():
    """The functions the checks of 11.2 and 11.3 use, by name (torch code)."""
    W = torch.tensor([[1.0, -2.0], [0.5, 3.0], [2.0, 1.0]])
    return {"mix": lambda x: torch.stack([x[0] * x[1], x[1] * torch.sin(x[2])]),
            "layer": lambda x: torch.tanh(W @ x)}


def _directions_probe(name, values, directions):
    """directional_derivatives on one of the example functions, and how many times it called
    f (torch's first forward-AD pass warns about its own jit helpers: silenced)."""
    import warnings

    runs, duals = [], []

    def counted(z):
        runs.append(1)
        duals.append(fwAD.unpack_dual(z).tangent is not None)
        return _examples()[name](z)

    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        JU = directional_derivatives(counted, torch.tensor(values), torch.tensor(directions))
    return {"JU": JU, "runs": len(runs), "all_dual": all(duals)}


with question("11.3", points=2, answers=()) as q:
    for name, values, directions in (
            ("mix", [1.0, 2.0, 0.5], [[1.0, 0.5], [-2.0, 0.0], [0.5, 3.0]]),
            ("layer", [0.3, -0.2], [[1.0, 0.0, 2.0], [1.0, 1.0, -1.0]])):
        q.refuse(("functional", "func", "jvp", "jacobian", "jacrev", "jacfwd", "vmap"),
                 "push each direction through f yourself, with fwAD.make_dual and "
                 "fwAD.unpack_dual")
        J = torch.autograd.functional.jacobian(_examples()[name], torch.tensor(values))
        U = torch.tensor(directions)
        want = J @ U
        seen = q.observe(_directions_probe, name, values, directions)
        q.need_tensor(f"directional_derivatives for the {name!r} example", seen["JU"])
        m, k = want.shape
        n = U.shape[0]
        q.true(tuple(seen["JU"].shape) != (k, m) or m == k,
               f"directional_derivatives has shape {[k, m]}, expected {[m, k]}: each tangent "
               "is a column, so stack them side by side: torch.stack(columns, dim=1)")
        # what f was called on, and how often, is counted beside the learner's code, which
        # can change the count: trusted facts, worth 1 point together
        q.method(seen["all_dual"], "f got an x without a tangent: forward mode calls f on "
                 "fwAD.make_dual(x, u) inside fwAD.dual_level(), one direction u at a time")
        q.method(seen["runs"] != n or n == k, f"f ran {n} times, once per input: that builds "
                 "the whole Jacobian first; one dual pass per direction (column of U) is "
                 "enough")
        q.method(seen["runs"] == k, f"f ran {seen['runs']} time(s) for {k} directions: "
                 "forward mode runs f once per direction, with that direction as the tangent")
        q.close(f"directional_derivatives for the {name!r} example at {values}", seen["JU"],
                want, tensor=True, mistakes=[(want.T, "that is (J U) transposed: each "
                                              "tangent is a column")] if m == k else [])

# %% [markdown]
# ## 11.4 · Debug: gradients that must not land in `.grad` (2 points)
#
# `param_grads(loss, params)` should return the gradient of the scalar `loss` with respect to
# each tensor of the list `params`, as a list of tensors shaped like them, with **zeros** for a
# parameter `loss` does not use. It must leave every `.grad` as it was (an optimiser may be
# collecting gradients there). This version breaks both promises:
#
# ```python
# def param_grads(loss, params):
#     loss.backward()
#     return [p.grad for p in params]
# ```
#
# Fix it.

# %% question="11.4" role="answer"
# Answer 11.4
def param_grads(loss, params):
    ### BEGIN SOLUTION
    return list(torch.autograd.grad(loss, params, materialize_grads=True))
    ### END SOLUTION


# %% question="11.4" role="check" points=2
def _param_grads_probe():
    """param_grads on a loss of a and b (c unused); a already holds a gradient."""
    a = torch.tensor([1.0, 2.0], requires_grad=True)
    b = torch.tensor(3.0, requires_grad=True)
    c = torch.tensor([0.5, -1.0, 2.0], requires_grad=True)
    a.grad = torch.tensor([10.0, 10.0])
    loss = (a * b).sum() + b ** 2
    grads = param_grads(loss, [a, b, c])
    return {"grads": list(grads) if isinstance(grads, list | tuple) else grads,
            "a_grad": a.grad, "b_grad": b.grad, "c_grad": c.grad}


with question("11.4", points=2, answers=()) as q:
    a = torch.tensor([1.0, 2.0], requires_grad=True)
    b = torch.tensor(3.0, requires_grad=True)
    want = torch.autograd.grad((a * b).sum() + b ** 2, [a, b])
    try:
        seen = q.observe(_param_grads_probe)
    except NotImplementedError:
        raise
    except RuntimeError as error:
        if "not have been used" in str(error):
            q.fail("c is not used by the loss, and torch.autograd.grad refuses it: ask for "
                   "zeros with materialize_grads=True")
        raise
    grads = seen["grads"]
    q.true(isinstance(grads, list) and len(grads) == 3,
           "param_grads must return a list with one gradient per parameter (3 here)")
    # the parameters' .grad after the call is read in the learner's process: trusted, 1 point
    q.method(seen["b_grad"] is None and seen["c_grad"] is None
             and torch.equal(seen["a_grad"], torch.tensor([10.0, 10.0])),
             "param_grads changed the parameters' .grad: backward() adds into .grad; "
             "torch.autograd.grad returns the gradients and leaves .grad alone")
    q.close("the gradient for a", grads[0], want[0], tensor=True, mistakes=[
        (want[0] + 10, "that includes the 10 already in a.grad: backward() accumulates")])
    q.close("the gradient for b", grads[1], want[1], tensor=True)
    q.close("the gradient for c (unused)", grads[2], torch.zeros(3), tensor=True, hints={
        "none": "the spec asks for zeros: materialize_grads=True (allow_unused=True alone "
                "gives None)"})

# %% [markdown]
# ## Reflection (not scored)
#
# A model maps an image (3072 numbers) to 10 class scores, and you want the full Jacobian of
# the scores with respect to the image. Which mode do you pick, and how many passes does it
# take? Which mode does training the same model use, and why is that a different question?
#
# ### BEGIN SOLUTION
# Reverse mode: 10 backward passes (one per score) against 3072 forward-mode passes (one per
# pixel). Training differentiates one number, the loss, with respect to the parameters: one
# backward pass, whatever the number of parameters.
# ### END SOLUTION
#
# <details><summary>One possible answer</summary>
#
# The Jacobian is 10 × 3072: 10 rows, so 10 reverse passes, while forward mode would need a
# pass per input, 3072. Training asks for the gradient of a single scalar, so one reverse pass
# gives it all, which is why training uses reverse mode (`backward()`).
# </details>
