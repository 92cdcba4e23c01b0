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
# # Exercises 04 · Intermediate gradients: `retain_grad` and hooks
#
# Practise lesson 04 (`notebooks/04_intermediate_gradients.ipynb`): which tensors keep a
# `.grad`, what `retain_grad()` stores and when, hooks that replace a gradient, and hooks you
# forget to remove. Each answer cell is followed by a check cell; the questions do not depend
# on each other.

# %%
# Run this cell first.
import warnings

import torch

import minigrad
from coursekit.grading import question

# %% [markdown]
# ## 04.1 · Predict: who keeps a gradient? (2 points)
#
# ```python
# x = torch.tensor(2.0, requires_grad=True)
# a = x * 3
# b = a ** 2
# a.retain_grad()
# c = b + a
# c.backward()
# b.retain_grad()
# ```
#
# What are `x.grad`, `a.grad`, `b.grad` and `c.grad` now? Give a number, or `None` where there
# is no gradient.

# %% question="04.1" role="answer"
# Answer 04.1: numbers or None.
### BEGIN SOLUTION
grad_x, grad_a, grad_b, grad_c = 39.0, 13.0, None, None
### END SOLUTION

# %% question="04.1" role="check" points=2
def _grad_or_none(q, name, got, want, why_none, **kw):
    if want is None:
        q.true(got is None, f"`{name}` should be None, not {got!r}: {why_none}")
    else:
        q.true(got is not None, f"`{name}` is None, but this tensor does keep a gradient")
        q.close(name, got, want, **kw)


with question("04.1", points=2, answers=("grad_x", "grad_a", "grad_b", "grad_c")) as q:
    tx = torch.tensor(2.0, requires_grad=True)
    ta = tx * 3
    tb = ta ** 2
    ta.retain_grad()
    tc = tb + ta
    tc.backward()
    tb.retain_grad()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # reading a non-leaf's .grad warns
        truth = {"grad_x": tx.grad, "grad_a": ta.grad, "grad_b": tb.grad, "grad_c": tc.grad}
    twice = "a is used twice (in b = a² and in c = b + a): the gradients of both uses add up"
    _grad_or_none(q, "grad_x", grad_x, truth["grad_x"], "x is a leaf", mistakes=[
        (2 * 6.0 * 3, twice + "; then multiply by da/dx = 3")])
    _grad_or_none(q, "grad_a", grad_a, truth["grad_a"], "a.retain_grad() came before backward",
                  mistakes=[(2 * 6.0, twice), (1.0, twice)])
    _grad_or_none(q, "grad_b", grad_b, truth["grad_b"], "b.retain_grad() came after backward, "
                  "when the gradient had already passed: it stays None (and no warning)")
    _grad_or_none(q, "grad_c", grad_c, truth["grad_c"], "c is not a leaf and was never "
                  "retained: even the output of backward only gets a .grad if you retain it")

# %% [markdown]
# ## 04.2 · Predict: hooks that change a gradient (2 points)
#
# ```python
# x = torch.tensor([1.0, -2.0, 3.0], requires_grad=True)
# y = x * x
# y.retain_grad()
# y.register_hook(lambda g: g * 10)
# z = (y * torch.tensor([1.0, 2.0, 3.0])).sum()
# x.register_hook(lambda g: g.clamp(-50, 50))
# z.backward()
# ```
#
# What are `y.grad` and `x.grad`? Give lists of three numbers.

# %% question="04.2" role="answer"
# Answer 04.2: two lists of three numbers.
### BEGIN SOLUTION
y_grad = [10.0, 20.0, 30.0]
x_grad = [20.0, -50.0, 50.0]
### END SOLUTION

# %% question="04.2" role="check" points=2
with question("04.2", points=2, answers=("y_grad", "x_grad")) as q:
    tx = torch.tensor([1.0, -2.0, 3.0], requires_grad=True)
    ty = tx * tx
    ty.retain_grad()
    ty.register_hook(lambda g: g * 10)
    c = torch.tensor([1.0, 2.0, 3.0])
    tz = (ty * c).sum()
    tx.register_hook(lambda g: g.clamp(-50, 50))
    tz.backward()
    plain = 2 * tx.detach() * c
    q.close("y_grad", y_grad, ty.grad, mistakes=[(c, (
        "retain_grad stores the gradient after the tensor's hooks have run (torch always does "
        "the retain step last), whatever the order you called them in"))])
    q.close("x_grad", x_grad, tx.grad, mistakes=[
        (plain, "the hook on y replaced its gradient by 10 times it (everything behind y sees "
                "the replacement), and x's hook clamps what arrives at x"),
        (10 * plain, "the hook on the leaf x runs before its .grad is stored: clamp to "
                     "[-50, 50]")])

# %% [markdown]
# ## 04.3 · Implement: a hook that clips the gradient's norm (3 points)
#
# Write `clip_norm_hook(max_norm)`: it returns a hook (a function of `grad`) that leaves a
# gradient whose norm $\|g\| = \sqrt{\sum g_i^2}$ is at most `max_norm` unchanged, and
# otherwise scales it down to norm exactly `max_norm` (same direction). Do not change `grad`
# in place. It must work on torch and minigrad tensors: compute the norm with
# `float((grad * grad).sum()) ** 0.5`.

# %% question="04.3" role="answer"
# Answer 04.3
def clip_norm_hook(max_norm):
    ### BEGIN SOLUTION
    def hook(grad):
        norm = float((grad * grad).sum()) ** 0.5
        if norm <= max_norm:
            return None
        return grad * (max_norm / norm)
    return hook
    ### END SOLUTION


# %% question="04.3" role="check" points=3
def _reference_clip(grad, max_norm):
    norm = grad.norm().item()
    return grad if norm <= max_norm else grad * (max_norm / norm)


def _hook_probe(values, max_norm):
    """Your hook of clip_norm_hook(max_norm) called on ``values``: what it returned, and the
    gradient it was given afterwards (a hook must not change it)."""
    hook = clip_norm_hook(max_norm)
    if not callable(hook):
        return {"callable": False}
    grad = torch.tensor(values)
    out = hook(grad)
    return {"callable": True, "out": out, "grad": grad}


def _hook_on_probe(lib_name, values, where, max_norm):
    """x.grad after backward through y = x * 2 and sum(y * y), the hook on y (or on x)."""
    x = (minigrad if lib_name == "minigrad" else torch).tensor(values, requires_grad=True)
    y = x * 2
    (y if where == "y" else x).register_hook(clip_norm_hook(max_norm))
    (y * y).sum().backward()
    return x.grad


def _check_hook_on(q, lib, values, where, max_norm):
    """Backward through y = x * 2 and z = sum(y * y), the hook on y (or on the leaf x)."""
    grad = q.observe(_hook_on_probe, lib.__name__, values, where, max_norm)
    tx = torch.tensor(values, requires_grad=True)
    ty = tx * 2
    (ty if where == "y" else tx).register_hook(lambda g: _reference_clip(g, max_norm))
    (ty * ty).sum().backward()
    unclipped = 8 * torch.tensor(values)
    q.close(f"x.grad ({lib.__name__}, hook on {where})", grad, tx.grad, tensor=True, mistakes=[
        (unclipped, "the hook did not change the gradient: return the scaled tensor")],
        hints={"other": "check your hook once it is registered: backward must use what it "
                        "returns"})


with question("04.3", points=3, answers=()) as q:
    seen = q.observe(_hook_probe, [6.0, 8.0], 5.0)  # norm 10
    q.true(seen["callable"], "clip_norm_hook(5.0) should return a function (the hook)")
    g = torch.tensor([6.0, 8.0])
    # the gradient after the hook ran is read in the learner's process: trusted, 1 point
    q.method(torch.equal(seen["grad"], g), "your hook changed `grad` in place: "
             "never do that in a hook; return a new tensor (grad * factor) instead")
    out = seen["out"]
    q.true(out is not None, "for a gradient of norm 10 and max_norm 5 your hook returned None, "
           "which leaves the gradient unchanged: return the scaled-down gradient")
    q.close("hook([6, 8])", out, _reference_clip(g, 5.0), tensor=True, mistakes=[
        (g.clamp(-5.0, 5.0), "that clips each entry; clip the norm of the whole gradient: "
                             "multiply it by max_norm / norm"),
        (g * 10.0 / 5.0, "the factor is upside down: multiply by max_norm / norm")])
    small = torch.tensor([0.3, 0.4])  # norm 0.5
    out = q.observe(_hook_probe, [0.3, 0.4], 5.0)["out"]
    q.close("hook([0.3, 0.4])", small if out is None else out, small, tensor=True, mistakes=[
        (torch.tensor([3.0, 4.0]), "a gradient whose norm is already at most max_norm must pass "
                                   "unchanged: only scale down")])
    for lib in (torch, minigrad):
        _check_hook_on(q, lib, [3.0, 4.0], "y", 5.0)
    ### BEGIN HIDDEN TESTS
    for lib in (torch, minigrad):
        _check_hook_on(q, lib, [[1.0, -2.0], [0.5, 3.0]], "x", 4.0)
        _check_hook_on(q, lib, [[0.1, -0.2], [0.05, 0.3]], "y", 4.0)
    ### END HIDDEN TESTS

# %% [markdown]
# ## 04.4 · Debug: a hook that never goes away (2 points)
#
# `weighted_grad` should return the gradient of $\sum (w x)^2$ with respect to `w`, scaled by
# `weight` through a hook on `w`. It is called several times on the same `w`:
#
# ```python
# def weighted_grad(w, x, weight):
#     w.register_hook(lambda g: g * weight)
#     ((w * x) ** 2).sum().backward()
#     grad = w.grad.clone()
#     w.grad = None
#     return grad
# ```
#
# The first call is right; the later ones are not. Fix it, keeping the hook (and the last
# three lines).

# %% question="04.4" role="answer"
# Answer 04.4
def weighted_grad(w, x, weight):
    ### BEGIN SOLUTION
    handle = w.register_hook(lambda g: g * weight)
    ((w * x) ** 2).sum().backward()
    handle.remove()
    ### END SOLUTION
    grad = w.grad.clone()
    w.grad = None
    return grad


# %% question="04.4" role="check" points=2
def _weighted_probe(lib_name, calls):
    """weighted_grad called on one w for each (xs, weight) of ``calls``, then a plain backward
    of sum(w * w): the gradients returned, w.grad after that backward, and how many hooks the
    calls registered (register_hook is counted while they run)."""
    lib = minigrad if lib_name == "minigrad" else torch
    w = lib.tensor([1.0, -2.0], requires_grad=True)
    registered, saved = [], lib.Tensor.register_hook

    def counted(self, hook):
        registered.append(1)
        return saved(self, hook)

    lib.Tensor.register_hook = counted
    try:
        got = [weighted_grad(w, lib.tensor(xs), weight) for xs, weight in calls]
    finally:
        lib.Tensor.register_hook = saved
    w.grad = None
    (w * w).sum().backward()
    return {"calls": got, "after": w.grad, "hooks": len(registered)}


with question("04.4", points=2, answers=()) as q:
    calls = [([2.0, 1.0], 0.5), ([1.0, 3.0], 2.0), ([-1.0, 0.5], 3.0)]
    for lib in (torch, minigrad):
        seen = q.observe(_weighted_probe, lib.__name__, calls)
        # the hooks registered are counted beside the learner's code: a trusted fact, 1 point
        q.method(seen["hooks"] == len(calls), f"weighted_grad registered {seen['hooks']} "
                 f"hook(s) in {len(calls)} calls ({lib.__name__}): keep the hook (one per "
                 "call), and remove it after backward")
        tw = torch.tensor([1.0, -2.0])
        stacked = 1.0
        for i, ((xs, weight), got) in enumerate(zip(calls, seen["calls"]), start=1):
            plain = 2 * tw * torch.tensor(xs) ** 2
            stacked *= weight
            q.close(f"call {i} ({lib.__name__})", got, plain * weight, tensor=True, mistakes=[
                (plain * stacked, "the hooks of the earlier calls are still on w, so they all "
                 "scale the gradient: keep the handle register_hook returns and call "
                 "handle.remove() after backward"),
                (plain, "the gradient must still be scaled by `weight` (through the hook)")])
        q.close(f"a plain backward after the calls ({lib.__name__})", seen["after"], 2 * tw,
                tensor=True, hints={
                    "other": "a hook is still on w after weighted_grad returned: remove it"})

# %% [markdown]
# ## Reflection (not scored)
#
# Backward computes the gradient of every intermediate tensor on its way to the leaves, then
# throws it away unless you ask for it. Why is that a sensible default?
#
# ### BEGIN SOLUTION
# Memory: a network has far more intermediate values than parameters, and keeping a gradient
# for each would double what backward needs. The optimiser only needs the leaves' gradients;
# for the rare look inside there is `retain_grad()` or a hook.
# ### END SOLUTION
#
# <details><summary>One possible answer</summary>
#
# Intermediate gradients are needed only while backward passes through; storing them all
# would cost a lot of memory for values that are almost never read. The leaves (parameters)
# are what gets updated, so only they keep theirs.
# </details>
