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
# # Exercises 14 · Memory and debugging
#
# Practise lesson 14 (`notebooks/14_memory_and_debugging.ipynb`): what nodes save, counting it
# with saved-tensor hooks, the `losses.append(loss)` leak, and a NaN gradient behind a
# `torch.where`. Each answer cell is followed by a check cell; the questions do not depend on
# each other.

# %%
# Run this cell first.
import torch

import minigrad
from coursekit.grading import question

# %% [markdown]
# ## 14.1 · Predict: what does the graph keep? (2 points)
#
# ```python
# a = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
# b = torch.tensor([4.0, 5.0, 6.0])              # data: no gradient needed
# d = (a * b).sin().exp().sum()
# ```
#
# Without running it: which of its two operands does the multiplication save for backward
# (`"a"`, `"b"` or `"both"`), and how many tensor **elements** does the whole graph of `d` save
# (over all its nodes)?

# %% question="14.1" role="answer"
# Answer 14.1
### BEGIN SOLUTION
mul_saves = "b"
saved_total = 9
### END SOLUTION

# %% question="14.1" role="check" points=2
with question("14.1", points=2, answers=("mul_saves", "saved_total")) as q:
    ta = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
    tb = torch.tensor([4.0, 5.0, 6.0])
    packed = []
    with torch.autograd.graph.saved_tensors_hooks(lambda t: packed.append(t) or t, lambda t: t):
        tm = ta * tb
        mul_packed = list(packed)
        tm.sin().exp().sum()
    kept = [name for name, t in (("a", ta), ("b", tb)) if any(p is t for p in mul_packed)]
    truth = kept[0] if len(kept) == 1 else "both"
    q.true(mul_saves in ("a", "b", "both"), '`mul_saves` should be "a", "b" or "both"')
    q.true(mul_saves == truth, {
        "a": "the gradient of a * b with respect to a is b: to compute a.grad, backward needs "
             "b; a itself would only be needed for b's gradient, and b needs none",
        "both": "both would be needed only if both required grad: b is data, so the formula "
                "for b's gradient (which needs a) never runs, and a is not saved",
        "b": "look again at which operand's gradient is needed"}[mul_saves])
    q.close("saved_total", saved_total, sum(t.numel() for t in packed), mistakes=[
        (12, "the multiplication saves only b (a's gradient needs b, and b needs none)"),
        (6, "sin saves its input (cos needs it) and exp its output: count both"),
        (15, "the multiplication saves only b, and sum saves no tensor (only a shape)")])

# %% [markdown]
# ## 14.2 · Implement: count what a graph saves (3 points)
#
# Write `saved_numel(fn, *args)`: it calls `fn(*args)` and returns `(out, n)`, the output and
# the total number of tensor elements that autograd saved for backward during the call. Use
# `torch.autograd.graph.saved_tensors_hooks`. The graph must still work: `out.backward()` has
# to give the usual gradients.

# %% question="14.2" role="answer"
# Answer 14.2
def saved_numel(fn, *args):
    ### BEGIN SOLUTION
    sizes = []

    def pack(t):
        sizes.append(t.numel())
        return t

    with torch.autograd.graph.saved_tensors_hooks(pack, lambda t: t):
        out = fn(*args)
    return out, sum(sizes)
    ### END SOLUTION


# %% question="14.2" role="check" points=3
def _reference_numel(case, values):
    """The count and x.grad for one case, computed here with torch's own hooks."""
    sizes = []
    x = torch.tensor(values, requires_grad=True)
    with torch.autograd.graph.saved_tensors_hooks(lambda t: sizes.append(t.numel()) or t,
                                                  lambda t: t):
        out = _CASES[case](x)
    out.sum().backward()
    return sum(sizes), len(sizes), x.grad


_CASES = {
    "x.exp().sum()": lambda x: x.exp().sum(),
    "(x * x).sin().sum()": lambda x: (x * x).sin().sum(),
    "(x + 1).sum()": lambda x: (x + 1).sum(),
    "x.outer(x).tanh().mean()": lambda x: x.outer(x).tanh().mean(),
}


def _saved_numel_probe(source, values):
    """saved_numel on one case: the count it returned, and x.grad after backward."""
    x = torch.tensor(values, requires_grad=True)
    result = saved_numel(eval(source), x)
    seen = {"n": result[1] if isinstance(result, tuple) and len(result) == 2 else result}
    if isinstance(result, tuple) and len(result) == 2:
        result[0].sum().backward()
        seen["grad"] = x.grad
    return seen


with question("14.2", points=3, answers=()) as q:
    values = [0.5, -1.0, 2.0]
    for case in _CASES:
        want_n, want_count, want_grad = _reference_numel(case, values)
        try:
            seen = q.observe(_saved_numel_probe, f"lambda x: {case}", values)
        except NotImplementedError:
            raise
        except (RuntimeError, TypeError) as error:
            q.fail(f"backward after saved_numel({case}) raises: {str(error)[:70]}...: the pack "
                   "hook must return something unpack can turn back into the tensor (return t "
                   "itself, and let unpack return it)")
        q.true("grad" in seen, "saved_numel must return a pair (out, n)")
        q.close(f"n for {case} with x of {len(values)} elements", seen["n"], want_n,
                mistakes=[(want_count, "that is the number of saved tensors: count their "
                                       "elements (t.numel())")] if want_count != want_n else [])
        q.close(f"x.grad for {case}", seen["grad"], want_grad, tensor=True)

# %% [markdown]
# ## 14.3 · Debug: a validation loop that eats memory (3 points)
#
# This function computes the loss of every validation batch, for a plot. Memory grows with
# every call, until the program dies:
#
# ```python
# def validation_losses(batches, w):
#     losses = []
#     for x, y in batches:
#         loss = ((x @ w - y) ** 2).mean()
#         losses.append(loss)
#     return losses
# ```
#
# Fix it: it must return a list of plain Python floats (the same values), and no graph, with
# nothing saved for backward, may outlive the call.

# %% question="14.3" role="answer"
# Answer 14.3
def validation_losses(batches, w):
    ### BEGIN SOLUTION
    losses = []
    with torch.no_grad():
        for x, y in batches:
            loss = ((x @ w - y) ** 2).mean()
            losses.append(loss.item())
    return losses
    ### END SOLUTION


# %% question="14.3" role="check" points=3
def _batches(seed):
    """Three batches of (x, y), the same in every process."""
    g = torch.Generator().manual_seed(seed)
    return [(torch.randn(4, 3, generator=g), torch.randn(4, generator=g)) for _ in range(3)]


def _validation_probe(seed, w_values):
    """validation_losses under a meter of saved tensors: the result itself (the grader reads
    its elements' types from it), their values, and how many saved tensors are still held by
    autograd once it returned."""
    import weakref

    class Box:
        def __init__(self, t):
            self.t = t.detach()

    alive = weakref.WeakSet()

    def pack(t):
        box = Box(t)
        alive.add(box)
        return box

    g = torch.Generator().manual_seed(seed)
    batches = [(torch.randn(4, 3, generator=g), torch.randn(4, generator=g)) for _ in range(3)]
    w = torch.tensor(w_values, requires_grad=True)
    with torch.autograd.graph.saved_tensors_hooks(pack, lambda box: box.t):
        result = validation_losses(batches, w)
    return {"result": result, "values": [float(v) for v in result], "alive": len(alive)}


with question("14.3", points=3, answers=()) as q:
    w_values = [0.5, -1.0, 2.0]
    w = torch.tensor(w_values)
    want = [((x @ w - y) ** 2).mean().item() for x, y in _batches(7)]
    seen = q.observe(_validation_probe, 7, w_values)
    q.close("validation_losses(...)", seen["values"], want)
    # the saved tensors still alive are counted beside the learner's code, which can empty the
    # count: a trusted fact, worth 1 point; the list's floats are read from the result itself
    q.method(seen["alive"] == 0, f"{seen['alive']} saved tensors are still alive after the "
             "call: each loss tensor in the list keeps its whole graph; append loss.item() "
             "(and compute under torch.no_grad())")
    result = seen["result"]
    types = sorted({getattr(v, "type_name", type(v).__name__) for v in result}) \
        if isinstance(result, list) else [type(result).__name__]
    q.true(isinstance(result, list) and types == ["float"], "the list should hold Python "
           f"floats (it holds {', '.join(types)}): use loss.item()")

# %% [markdown]
# ## 14.4 · Debug: a NaN from a protected log (2 points)
#
# ```python
# def safe_log(x):
#     """log(x) where x > 0, and 0 elsewhere."""
#     return torch.where(x > 0, torch.log(x), 0.0)
# ```
#
# The values are right, but for `x = [0.0, 0.5, 2.0, -1.0]`, `safe_log(x).sum().backward()`
# makes `x.grad` NaN at `x = 0` (and `detect_anomaly` names `LogBackward0`). Fix it: the same
# values, and the gradient $1/x$ where $x > 0$, 0 elsewhere, with no NaN. Keep using
# `torch.where` and `torch.log`.

# %% question="14.4" role="answer"
# Answer 14.4
def safe_log(x):
    ### BEGIN SOLUTION
    positive = x > 0
    return torch.where(positive, torch.log(torch.where(positive, x, 1.0)), 0.0)
    ### END SOLUTION


# %% question="14.4" role="check" points=2
def _safe_log_probe(values):
    """safe_log(x), whether it is in the graph, and x.grad after backward of the sum."""
    x = torch.tensor(values, requires_grad=True)
    out = safe_log(x)
    seen = {"out": out.detach(), "requires_grad": getattr(out, "requires_grad", False) is True}
    if seen["requires_grad"]:
        out.sum().backward()
        seen["grad"] = x.grad
    return seen


with question("14.4", points=2, answers=()) as q:
    values = [0.0, 0.5, 2.0, -1.0]
    x = torch.tensor(values)
    seen = q.observe(_safe_log_probe, values)
    q.close(f"safe_log(x) for x = {values}", seen["out"],
            torch.where(x > 0, x.clamp(min=1e-30).log(), torch.zeros(())), tensor=True)
    q.true(seen["requires_grad"], "safe_log(x) is cut from the graph: no gradient reaches x "
           "(no detach() or no_grad here; only the input of log needs changing)")
    q.true(seen["grad"] is not None and not torch.isnan(seen["grad"]).any(), "x.grad still has a NaN: where only routes a "
           "gradient of 0 to the unused log(0), and LogBackward0 computes 0 / 0; give log a "
           "safe input there (an inner torch.where)")
    q.close("x.grad", seen["grad"], torch.where(x > 0, 1 / x, torch.zeros(())), tensor=True,
            hints={"other": "the gradient should be 1/x where x > 0 and 0 elsewhere"})

# %% [markdown]
# **Next:** back to the lesson's self-check, or lesson 15.
