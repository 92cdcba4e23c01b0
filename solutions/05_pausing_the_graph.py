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
# # Exercises 05 · Pausing the graph
#
# Practise lesson 05 (`notebooks/05_pausing_the_graph.ipynb`): what `no_grad`, `enable_grad`,
# decorators and frozen layers do to `requires_grad`, what `inference_mode`, `detach()` and
# `.data` allow, reusing one leaf across a loop, and an `inference_mode` that should have been
# a `no_grad`. Each answer cell is followed by a check cell; the questions do not depend on
# each other.

# %%
# Run this cell first.
import torch

import minigrad
from coursekit.grading import question

# %% [markdown]
# ## 05.1 · Predict: which results require grad? (2 points)
#
# ```python
# x = torch.ones(2, requires_grad=True)
# with torch.no_grad():
#     a = x * 2
#     w = torch.zeros(2, requires_grad=True)
#     with torch.enable_grad():
#         b = x * 2
#     c = b * 2
# d = a * x
#
# @torch.no_grad()
# def double(t):
#     return 2 * t
#
# e = double(x)
# layer = torch.nn.Linear(2, 1)
# layer.requires_grad_(False)        # freeze the layer's weight and bias
# f = layer(x)
# g = layer(torch.ones(2))
# ```
#
# For each of `a` to `g`, does it require grad? Fill in `True` or `False`.

# %% question="05.1" role="answer"
# Answer 05.1
### BEGIN SOLUTION
requires = {"a": False, "w": True, "b": True, "c": False, "d": True, "e": False, "f": True,
            "g": False}
### END SOLUTION

# %% question="05.1" role="check" points=2
with question("05.1", points=2, answers=("requires",)) as q:
    tx = torch.ones(2, requires_grad=True)
    with torch.no_grad():
        ta = tx * 2
        tw = torch.zeros(2, requires_grad=True)
        with torch.enable_grad():
            tb = tx * 2
        tc = tb * 2
    td = ta * tx

    @torch.no_grad()
    def _double(t):
        return 2 * t

    layer = torch.nn.Linear(2, 1)
    layer.requires_grad_(False)
    truth = {"a": ta, "w": tw, "b": tb, "c": tc, "d": td, "e": _double(tx), "f": layer(tx),
             "g": layer(torch.ones(2))}
    why = {"a": "inside no_grad, results of operations are not recorded",
           "w": "no_grad only affects results of operations: a leaf you create with "
                "requires_grad=True still requires grad",
           "b": "enable_grad turns recording back on inside the no_grad block",
           "c": "after the enable_grad block ends, recording is off again (we are still in "
                "no_grad), even though b requires grad",
           "d": "outside the block recording is on, and x requires grad (a does not, but one "
                "input that requires grad is enough)",
           "e": "@torch.no_grad() on a function turns recording off inside every call",
           "f": "the frozen layer's weights do not require grad, but its input x does: the "
                "graph still goes back to x",
           "g": "neither the frozen weights nor the input require grad: nothing to record"}
    q.true(isinstance(requires, dict), "`requires` should be a dict like {'a': True, ...}")
    for name, t in truth.items():
        q.true(name in requires, f"`requires` has no entry for {name!r}")
        q.true(requires[name] == t.requires_grad, f"{name}.requires_grad is {t.requires_grad}, "
               f"not {requires[name]}: {why[name]}")

# %% [markdown]
# ## 05.2 · Predict: which snippets raise? (2 points)
#
# `x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)` is made afresh before each snippet.
#
# ```python
# # A
# with torch.no_grad():
#     y = x * 2
# (y * x).sum().backward()
#
# # B
# with torch.inference_mode():
#     y = x * 2
# (y * x).sum()
#
# # C
# with torch.inference_mode():
#     y = x * 2
# (y.clone() * x).sum().backward()
#
# # D
# with torch.no_grad():
#     y = (x * x).sum()
# y.backward()
#
# # E
# s = x.sigmoid()
# s.detach().zero_()
# s.sum().backward()
#
# # F
# s = x.sigmoid()
# s.data.zero_()
# s.sum().backward()
# ```
#
# For each, does it raise an error? Fill in `True` (raises) or `False`.

# %% question="05.2" role="answer"
# Answer 05.2
### BEGIN SOLUTION
raises = {"A": False, "B": True, "C": False, "D": True, "E": True, "F": False}
### END SOLUTION

# %% question="05.2" role="check" points=2
_SNIPPETS = {
    "A": "with torch.no_grad():\n    y = x * 2\n(y * x).sum().backward()",
    "B": "with torch.inference_mode():\n    y = x * 2\n(y * x).sum()",
    "C": "with torch.inference_mode():\n    y = x * 2\n(y.clone() * x).sum().backward()",
    "D": "with torch.no_grad():\n    y = (x * x).sum()\ny.backward()",
    "E": "s = x.sigmoid()\ns.detach().zero_()\ns.sum().backward()",
    "F": "s = x.sigmoid()\ns.data.zero_()\ns.sum().backward()",
}
_WHY = {
    "A": "y made under no_grad is a plain constant; y * x is recorded because x requires grad",
    "B": "y is an inference tensor, and `*` would have to save it for backward: refused",
    "C": "clone() outside inference mode gives a normal tensor that may enter the graph",
    "D": "y was computed under no_grad: it has no grad_fn, so there is nothing to go back "
         "through",
    "E": "detach() shares the version counter: sigmoid's saved output changed, and backward "
         "notices",
    "F": ".data hides the change from autograd: backward runs and silently gives wrong "
         "gradients (zeros here)",
}


def _snippet_raises(code):
    scope = {"torch": torch, "x": torch.tensor([1.0, 2.0, 3.0], requires_grad=True)}
    try:
        exec(code, scope)
    except RuntimeError:
        return True
    return False


with question("05.2", points=2, answers=("raises",)) as q:
    q.true(isinstance(raises, dict), "`raises` should be a dict like {'A': True, ...}")
    for key, code in _SNIPPETS.items():
        want = _snippet_raises(code)
        q.true(key in raises, f"`raises` has no entry for {key!r}")
        q.true(raises[key] == want, f"{key}: you said {raises[key]}, torch says {want}: "
               f"{_WHY[key]}")

# %% [markdown]
# ## 05.3 · Implement: one leaf for many points (3 points)
#
# Write `gradients_at(f, x, points)`. `f` maps a tensor to a scalar tensor; `x` is a leaf
# that requires grad; `points` is a list of tensors of `x`'s shape. Return a list with the
# gradient of `f` at each point, computed by **reusing `x`**: for each point, put its values
# into `x` (without making a new tensor), call `f(x)`, run backward, and collect the gradient.
# Each gradient must be the gradient at that point alone, and must stay right after the loop.
# Use backward (or `torch.autograd.grad`) on `x`, not `torch.func` or `torch.autograd.functional`,
# which compute a gradient without any leaf of yours.

# %% question="05.3" role="answer"
# Answer 05.3
def gradients_at(f, x, points):
    ### BEGIN SOLUTION
    grads = []
    for p in points:
        with torch.no_grad():
            x.copy_(p)
        f(x).backward()
        grads.append(x.grad.clone())
        x.grad.zero_()
    return grads
    ### END SOLUTION


# %% question="05.3" role="check" points=3
def _fn(kind):
    if kind == "quadratic":
        return lambda t: (t * t).sum() + t[0] * t[1]
    return lambda t: (t.sin() * t).sum()


def _points_probe(kind, points):
    """gradients_at on f ``kind`` at ``points``: the gradients, the calls of f, and x after."""
    f = _fn(kind)
    x = torch.zeros_like(torch.tensor(points[0])).requires_grad_()
    seen = []

    def spy(t):
        seen.append(t)
        return f(t)

    grads = gradients_at(spy, x, [torch.tensor(p) for p in points])
    return {"grads": grads, "calls": len(seen), "on_x": all(t is x for t in seen),
            "leaf": x.is_leaf and x.requires_grad}


def _check_gradients_at(q, kind, points, what):
    try:
        seen = q.observe(_points_probe, kind, points)
    except NotImplementedError:
        raise  # a stub (NotImplementedError is a RuntimeError)
    except RuntimeError as error:
        q.fail(f"{what}: gradients_at raised: {str(error)[:80]}...: change x's values inside "
               "`with torch.no_grad():`")
    grads = seen["grads"]
    q.true(isinstance(grads, list) and len(grads) == len(points),
           f"{what}: return a list with one gradient per point ({len(points)})")
    # the calls of f, what f was called on and whether x stayed a leaf are counted beside the
    # learner's code, which can change them: trusted facts, worth 1 point together
    q.method(seen["calls"] == len(points) and seen["on_x"],
             f"{what}: call f on x itself, once per point: change its values in place under "
             "no_grad (x.copy_(p)) instead of making a new tensor")
    q.method(seen["leaf"], f"{what}: x must stay a leaf that requires grad")
    want, total, f = [], 0, _fn(kind)
    for p in points:
        fresh = torch.tensor(p).requires_grad_()
        f(fresh).backward()
        want.append(fresh.grad)
    for i, (got, w) in enumerate(zip(grads, want)):
        total = total + w
        q.true(got is not None, f"{what}: gradient {i} is None: collect x.grad after backward")
        q.close(f"gradient {i} ({what})", got, w, tensor=True, mistakes=[
            (total, "x.grad accumulates across backward calls: zero it (x.grad = None or "
                    "x.grad.zero_()) after each point"),
            (torch.zeros_like(w), "you stored x.grad itself and then zeroed it in place: store "
                                  "a copy (x.grad.clone())"),
            (sum(want), "every entry is x.grad itself, which kept accumulating: store a copy "
                        "(x.grad.clone()) and zero x.grad after each point"),
            (want[-1], "every entry is the same tensor, x.grad, which ended with the last "
                       "point's gradient: store a copy (x.grad.clone())")])


with question("05.3", points=3, answers=()) as q:
    q.refuse(("func", "functional", "vmap", "jacrev", "jacfwd", "jacobian", "hessian", "vjp"),
             "put each point's values into x and run backward through f(x)")
    _check_gradients_at(q, "quadratic", [[1.0, 2.0], [3.0, -1.0], [0.5, 0.5]],
                        "f(x) = x0² + x1² + x0·x1")
    ### BEGIN HIDDEN TESTS
    _check_gradients_at(q, "sine", [[[0.1, 0.2], [0.3, 0.4]], [[1.0, -1.0], [2.0, 0.0]]],
                        "f(x) = sum(x·sin x)")
    ### END HIDDEN TESTS

# %% [markdown]
# ## 05.4 · Debug: `inference_mode` in a training loss (2 points)
#
# `weighted_loss` weights each term of a squared error by a softmax of `w * x`. The weights
# are computed from the current `w` but must act as **constants**: no gradient flows through
# them. This version raises *"Inference tensors cannot be saved for backward"*:
#
# ```python
# def weighted_loss(w, x):
#     with torch.inference_mode():
#         weights = torch.softmax(w * x, 0)
#     return (weights * (w * x - 1) ** 2).sum()
# ```
#
# Fix it so that `weighted_loss(w, x).backward()` works and gives the right gradient.

# %% question="05.4" role="answer"
# Answer 05.4
def weighted_loss(w, x):
    ### BEGIN SOLUTION
    with torch.no_grad():
        weights = torch.softmax(w * x, 0)
    ### END SOLUTION
    return (weights * (w * x - 1) ** 2).sum()


# %% question="05.4" role="check" points=2
def _loss_probe(w_values, x_values):
    """weighted_loss(w, x) and w.grad after its backward."""
    w = torch.tensor(w_values, requires_grad=True)
    loss = weighted_loss(w, torch.tensor(x_values))
    loss.backward()
    return {"loss": loss, "grad": w.grad}


def _check_weighted_loss(q, w_values, x_values):
    x = torch.tensor(x_values)
    try:
        seen = q.observe(_loss_probe, w_values, x_values)
    except NotImplementedError:
        raise  # a stub (NotImplementedError is a RuntimeError)
    except RuntimeError as error:
        q.fail(f"weighted_loss still fails ({str(error).split('.')[0]}): compute the weights under "
               "torch.no_grad() instead (or use a clone of them outside inference mode)")
    q.true(seen["grad"] is not None, "w.grad is None after backward: the loss must still depend on w "
           "through (w * x - 1) ** 2")
    tw = torch.tensor(w_values, requires_grad=True)
    weights = torch.softmax(tw.detach() * x, 0)
    want_loss = (weights * (tw * x - 1) ** 2).sum()
    want_loss.backward()
    tw_through = torch.tensor(w_values, requires_grad=True)
    (torch.softmax(tw_through * x, 0) * (tw_through * x - 1) ** 2).sum().backward()
    q.close(f"the loss for w = {w_values}, x = {x_values}", seen["loss"], want_loss, tensor=True, hints={
        "other": "weighted_loss must still compute sum(softmax(w·x) · (w·x - 1)²)"})
    q.close(f"w.grad for w = {w_values}, x = {x_values}", seen["grad"], tw.grad, tensor=True, mistakes=[(
        tw_through.grad, "the gradient flows through the weights too: they must stay "
                         "constants, so compute them under torch.no_grad() (or detach them)")])


with question("05.4", points=2, answers=()) as q:
    _check_weighted_loss(q, [1.0, 2.0, 3.0], [0.5, -1.0, 2.0])
    ### BEGIN HIDDEN TESTS
    _check_weighted_loss(q, [0.2, -0.4], [3.0, 1.0])
    ### END HIDDEN TESTS

# %% [markdown]
# ## Reflection (not scored)
#
# `torch.inference_mode()` and `torch.no_grad()` both stop the recording. When would you pick
# `inference_mode`, and when must you use `no_grad` instead?
#
# ### BEGIN SOLUTION
# `inference_mode` for code that only predicts and whose results never meet autograd again: it
# skips a little more bookkeeping. `no_grad` when the results may later be used with tensors
# that are trained (weight updates, constants inside a loss), because inference tensors may not
# be saved for backward.
# ### END SOLUTION
#
# <details><summary>One possible answer</summary>
#
# `inference_mode` for pure prediction (a little faster); `no_grad` whenever the results can
# end up in a recorded computation later, such as optimiser updates or weights used inside a
# loss.
# </details>
