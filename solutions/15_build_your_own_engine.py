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
# # Exercises 15 · Build your own engine
#
# Practise lesson 15 (`notebooks/15_build_your_own_engine.ipynb`): counting the paths a naive
# recursion follows, the engine's backward order built from dependency counts (deep graphs
# included), a mean along chosen axes with its backward rule, and a backward rule with a bug
# that simple tests miss. Each answer cell is followed by a check cell; the questions do not depend
# on each other. Every check compares your engine with torch.

# %%
# Run this cell first.
import numpy as np
import torch

import minigrad
from coursekit.grading import question

# %% [markdown]
# The engine of the lesson, without a topological sort and without broadcasting (run this
# cell too; the questions use it). `run_backward(root, order)` is the lesson's backward loop,
# given the order as a list in which every value comes after its parents.

# %%
class Value:
    """A NumPy array that remembers the operation and the values it was computed from."""

    def __init__(self, data, parents=(), op="leaf"):
        self.data = np.asarray(data, dtype=np.float64)
        self.grad = None
        self.parents = parents
        self.op = op
        self.backward_fn = None

    def __repr__(self):
        return f"Value({np.array2string(self.data, precision=4)}, op={self.op!r})"


def add(a, b):
    out = Value(a.data + b.data, (a, b), "add")
    out.backward_fn = lambda g: (g, g)
    return out


def mul(a, b):
    out = Value(a.data * b.data, (a, b), "mul")
    out.backward_fn = lambda g: (g * b.data, g * a.data)
    return out


def tanh(a):
    t = np.tanh(a.data)
    out = Value(t, (a,), "tanh")
    out.backward_fn = lambda g: (g * (1 - t * t),)
    return out


def run_backward(root, order):
    """Backward along ``order`` (parents before children), from a gradient of ones."""
    grads = {root: np.ones_like(root.data)}
    for v in reversed(order):
        g = grads.pop(v, None)
        if g is None:
            continue
        if not v.parents:
            v.grad = g if v.grad is None else v.grad + g
            continue
        for parent, pg in zip(v.parents, v.backward_fn(g)):
            grads[parent] = grads[parent] + pg if parent in grads else pg


# %% [markdown]
# ## 15.1 · Predict: how many paths? (2 points)
#
# The lesson's naive recursion visits a value once per path from the root to it:
#
# ```python
# def naive_backward(v, grad, visits):
#     visits[v] = visits.get(v, 0) + 1
#     if not v.parents:
#         v.grad = grad if v.grad is None else v.grad + grad
#         return
#     for parent, g in zip(v.parents, v.backward_fn(grad)):
#         naive_backward(parent, g, visits)
#
# x = Value(2.0)
# y = mul(x, x)
# z = add(mul(y, y), y)
# visits = {}
# naive_backward(z, np.ones(()), visits)
# ```
#
# Without running it: how many times is `x` visited (`visits[x]`), and what is `x.grad`
# afterwards?

# %% question="15.1" role="answer"
# Answer 15.1: two numbers.
### BEGIN SOLUTION
visits_x = 6
grad_x = 36.0
### END SOLUTION

# %% question="15.1" role="check" points=2
def _paths(node, target):
    """The number of paths from ``node`` to ``target`` in torch's graph."""
    if node is target:
        return 1
    return sum(_paths(n, target) for n, _ in node.next_functions if n is not None)


with question("15.1", points=2, answers=("visits_x", "grad_x")) as q:
    tx = torch.tensor(2.0, dtype=torch.float64, requires_grad=True)
    ty = tx * tx
    tz = ty * ty + ty
    tz.backward()
    leaf = ty.grad_fn.next_functions[0][0]  # x's AccumulateGrad
    q.close("visits_x", visits_x, _paths(tz.grad_fn, leaf), mistakes=[
        (1, "that is what a backward in topological order does; the naive recursion visits x "
            "once per path from z to x"),
        (3, "that counts the paths from z to y; each of them goes on to x along more than one "
            "path (y = x * x uses x twice)"),
        (4, "y is used three times in z (twice in y * y, once in the sum)")])
    q.close("grad_x", grad_x, tx.grad, mistakes=[
        (32.0, "that is the derivative of y² alone: z = y² + y, and the direct path through "
               "`+ y` adds a term of its own"),
        (6.0, "that is the number of paths; each path carries its own product of local "
              "derivatives")])

# %% [markdown]
# ## 15.2 · Implement: the engine's order, with dependency counts (3 points)
#
# The lesson's `topo_sort_iterative` walks the graph depth first. minigrad's engine (and
# torch's) orders the backward pass another way: it first counts, for every value, how many
# times it is used as a parent (its *dependencies*, as `engine._dependencies` does), then runs a
# value only once every value that uses it has run, lowering its parents' counts as it goes (a
# ready list, Kahn's algorithm).
#
# Write `backward_order(root)` that way: a list of every `Value` reachable from `root`
# (through `.parents`), each exactly once, **`root` first** and every value **before all its
# parents**, the order in which a backward pass can run them. A value used twice by the same
# child (`a + a`) counts twice. It must work on a chain of 5,000 operations, so do not recurse.
#
# Many orders are valid (the lesson's depth-first one, reversed, is one of them); the check
# wants the one dependency counts give with this ready list: start with `ready = [root]`;
# repeatedly take `v = ready.pop()` (the value added last) and append it to the order; then go
# through `v.parents` in their order, lowering each parent's count by one, and `append` a
# parent to `ready` the moment its count reaches 0. The check compares your order with that
# one, then runs `run_backward(root, backward_order(root)[::-1])` and compares the gradients
# with torch's.

# %% question="15.2" role="answer"
# Answer 15.2
def backward_order(root):
    ### BEGIN SOLUTION
    uses, stack, seen = {}, [root], {root}
    while stack:  # one walk: how many times each value is used as a parent
        v = stack.pop()
        for parent in v.parents:
            uses[parent] = uses.get(parent, 0) + 1
            if parent not in seen:
                seen.add(parent)
                stack.append(parent)
    order, ready = [], [root]
    while ready:
        v = ready.pop()
        order.append(v)
        for parent in v.parents:
            uses[parent] -= 1
            if uses[parent] == 0:  # every value that uses it has run
                ready.append(parent)
    return order
    ### END SOLUTION


# %% question="15.2" role="check" points=3
GRAPHS = {
    "diamond": [["x", 0.5], ["w", -1.5], ["y", "mul", "x", "w"], ["z", "add", "y", "x"],
                ["t", "tanh", "z"], ["out", "mul", "t", "y"]],
    "reuse": [["a", 0.75], ["b", "add", "a", "a"], ["c", "mul", "b", "b"], ["d", "add", "c", "b"],
              ["e", "mul", "d", "a"], ["out", "add", "e", "c"]],
    "late parent": [["p", 1.25], ["q", -0.5], ["r", "add", "p", "q"], ["s", "mul", "r", "p"],
                    ["u", "tanh", "s"], ["v", "mul", "r", "u"], ["out", "add", "u", "v"]],
    "double use": [["x", 0.5], ["y", 1.5], ["d", "mul", "x", "y"], ["c", "add", "x", "x"],
                   ["out", "mul", "d", "c"]],
    "chain of 5000": [["x", 0.3]] + [[f"h{i}", "add", f"h{i - 1}" if i else "x", "x"]
                                      for i in range(5000)] + [["out", "tanh", "h4999"]],
}


def _order_probe(spec):
    """backward_order(out) on a graph built from ``spec``: the labels in the order returned,
    and the leaves' gradients after run_backward along it (reversed: parents first)."""
    built = {}
    for label, *rest in spec:
        if len(rest) == 1:
            built[label] = Value(rest[0])
        else:
            op, *parents = rest
            args = [built[p] for p in parents]
            built[label] = {"add": add, "mul": mul, "tanh": tanh}[op](*args)
    names = {id(v): label for label, v in built.items()}
    order = backward_order(built["out"])
    if not isinstance(order, list):
        return {"type": type(order).__name__}
    labels = [names.get(id(v), "?") for v in order]
    if len(labels) == len(set(labels)) and "?" not in labels:
        run_backward(built["out"], order[::-1])
    leaves = [s[0] for s in spec if len(s) == 2]
    return {"type": "list", "order": labels,
            "grads": {leaf: built[leaf].grad for leaf in leaves}}


def _counted_order(spec):
    """The labels of ``spec``'s graph in the order the question describes, computed here (in
    the check's process) from the labels alone: count the uses, then a last-in first-out ready
    list."""
    parents = {label: (rest[1:] if len(rest) > 1 else []) for label, *rest in spec}
    uses = {label: 0 for label in parents}
    for label in parents:
        for parent in parents[label]:
            uses[parent] += 1
    order, ready = [], ["out"]
    while ready:
        label = ready.pop()
        order.append(label)
        for parent in parents[label]:
            uses[parent] -= 1
            if uses[parent] == 0:
                ready.append(parent)
    return order


def _torch_grads(spec):
    built, ops = {}, {"add": torch.add, "mul": torch.mul, "tanh": torch.tanh}
    for label, *rest in spec:
        if len(rest) == 1:
            built[label] = torch.tensor(rest[0], dtype=torch.float64, requires_grad=True)
        else:
            built[label] = ops[rest[0]](*[built[p] for p in rest[1:]])
    built["out"].backward()
    return {s[0]: built[s[0]].grad for s in spec if len(s) == 2}


with question("15.2", points=3, answers=()) as q:
    for name, spec in GRAPHS.items():
        try:
            seen = q.observe(_order_probe, spec)
        except RecursionError:
            q.fail(f"backward_order raised RecursionError on the {name} graph: a chain of 5000 "
                   "operations is deeper than Python's recursion limit; keep your own stack "
                   "or ready list instead of calling a function recursively")
        q.true(seen["type"] == "list", f"backward_order returned a {seen['type']}, not a list")
        order, labels = seen["order"], [s[0] for s in spec]
        q.true("?" not in order, f"{name} graph: backward_order returned something that is "
               "not one of the graph's values")
        q.true(len(order) == len(set(order)), f"{name} graph: some values appear more than "
               "once in the order: a value becomes ready once, when its count reaches 0")
        missing = [lb for lb in labels if lb not in order]
        q.true(not missing, f"{name} graph: values {missing[:5]} are missing from the order: "
               "their count never reached 0. Count the uses once per value: walk each value "
               "reachable through .parents only once (keep a seen set), adding 1 for each of "
               "its parents (a value used twice by one child, as in a + a, counts twice)")
        q.true(order[0] == "out", f"{name} graph: the order starts with {order[0]!r}; the root "
               "comes first, as in a backward pass")
        position = {lb: i for i, lb in enumerate(order)}
        for label, *rest in spec:
            for parent in rest[1:] if len(rest) > 1 else ():
                q.true(position[label] < position[parent], f"{name} graph: {parent!r} comes "
                       f"before {label!r}, which uses it; a value is ready only once every "
                       "value that uses it has run")
        counted = _counted_order(spec)
        first = next((i for i, (a, b) in enumerate(zip(order, counted)) if a != b), None)
        q.true(first is None, f"{name} graph: a valid order, but not the one dependency counts "
               f"give: position {first} holds {order[first] if first is not None else ''!r} "
               f"where the ready list gives {counted[first] if first is not None else ''!r} "
               "(count every value's uses first; then pop the last ready value, lower its "
               "parents' counts in order, and append each parent whose count reaches 0)")
        want = _torch_grads(spec)
        for leaf, grad in seen["grads"].items():
            q.close(f"{leaf}.grad ({name} graph)", grad, want[leaf])

# %% [markdown]
# ## 15.3 · Implement: `mean` along axes (3 points)
#
# The lesson's `sum_` reduces every element to one number. Write `mean(a, axis=None,
# keepdims=False)` for the engine above, as NumPy's `a.data.mean(axis=axis, keepdims=keepdims)`
# computes it: `axis` is `None` (every element), an int (negative counts from the end) or a
# tuple of ints. Return a new `Value` whose parents are `(a,)` and whose `backward_fn` takes
# the gradient `g` (shaped like the mean) and returns a one-element tuple: the gradient for
# `a`, shaped like `a.data`. Each element of `a` was averaged into one output with weight
# $1/n$, where $n$ is the number of elements averaged together. When `keepdims=False` the
# reduced axes are gone from `g`: put them back (size 1) before you broadcast. Use NumPy only
# (no `torch` in this engine). The check builds `mean`, `tanh` and `mul` on random inputs,
# runs `run_backward`, and compares values and gradients with torch's `mean(dim, keepdim)`.

# %% question="15.3" role="answer"
# Answer 15.3
def mean(a, axis=None, keepdims=False):
    ### BEGIN SOLUTION
    out = Value(a.data.mean(axis=axis, keepdims=keepdims), (a,), "mean")
    n = a.data.size // out.data.size  # the elements averaged into each output

    def backward_fn(g):
        if axis is not None and not keepdims:
            g = np.expand_dims(g, axis)  # the reduced axes again, with size 1
        return (np.broadcast_to(g / n, a.data.shape).copy(),)

    out.backward_fn = backward_fn
    return out
    ### END SOLUTION


# %% question="15.3" role="check" points=3
def _mean_probe(values, weights, axis, keepdims):
    """tanh(mean(x, axis, keepdims)) * w on the learner's engine: the mean's value, its
    parents, and x's gradient after run_backward (None if mean is not a Value)."""
    axis = tuple(axis) if isinstance(axis, list) else axis
    x = Value(values)
    m = mean(x, axis=axis, keepdims=keepdims)
    if not isinstance(m, Value):
        return {"type": type(m).__name__}
    w = Value(weights) if np.shape(weights) == m.data.shape else Value(np.ones(m.data.shape))
    t = tanh(m)
    out = mul(t, w)
    run_backward(out, [x, m, t, w, out])
    return {"type": "Value", "value": m.data, "parents": [p is x for p in m.parents],
            "grad": x.grad}


def _torch_mean(values, weights, axis, keepdims):
    axis = tuple(axis) if isinstance(axis, list) else axis
    x = torch.tensor(values, dtype=torch.float64, requires_grad=True)
    m = x.mean(dim=axis, keepdim=keepdims)
    (torch.tanh(m) * torch.tensor(weights, dtype=torch.float64)).backward(
        torch.ones(m.shape, dtype=torch.float64))
    return m.detach(), x.grad


with question("15.3", points=3, answers=()) as q:
    q.refuse(("torch", "minigrad"), "the engine is NumPy only: compute with a.data and np")
    rng = np.random.default_rng(15)
    cases = [((2, 3), None, False), ((2, 3), 0, False), ((2, 3), 1, True), ((2, 3), -1, False),
             ((2, 3, 4), [0, 2], False), ((2, 3, 4), -2, True), ((5,), 0, False),
             ((2, 3, 4), [1, 2], True)]
    for shape, axis, keepdims in cases:
        values = rng.normal(size=shape).round(3).tolist()
        reduced = np.zeros(shape).mean(axis=tuple(axis) if isinstance(axis, list) else axis,
                                       keepdims=keepdims).shape
        weights = rng.normal(size=reduced).round(3).tolist()
        want_value, want_grad = _torch_mean(values, weights, axis, keepdims)
        call = f"mean(x of shape {list(shape)}, axis={axis}, keepdims={keepdims})"
        seen = q.observe(_mean_probe, values, weights, axis, keepdims)
        q.true(seen["type"] == "Value", f"{call} returned a {seen['type']}, not a Value")
        q.close(call, seen["value"], want_value)
        q.true(seen["parents"] == [True], f"{call}: its parents must be (a,), the Value it "
               "averages, so that run_backward reaches a")
        q.true(seen["grad"] is not None, f"{call}: x got no gradient: backward_fn must return "
               "a one-element tuple")
        n = np.prod(shape) // max(int(np.prod(want_value.shape)), 1)
        q.close(f"x.grad for tanh({call}) * w", seen["grad"], want_grad, mistakes=[
            (want_grad * n, f"each element was averaged with weight 1/{n}: divide the "
                            "gradient by the number of elements averaged together"),
            (want_grad * n / np.prod(shape), "divide by the number of elements averaged "
                                             "into each output, not by a's size")])

# %% [markdown]
# ## 15.4 · Debug: a backward rule that simple tests miss (2 points)
#
# A colleague wrote another multiplication for the engine, and tested it on `times(x, x)`,
# where it gives torch's gradient $2x$:
#
# ```python
# def times(a, b):
#     out = Value(a.data * b.data, (a, b), "mul")
#     out.backward_fn = lambda g: (g * a.data, g * b.data)
#     return out
# ```
#
# Find the bug and fix it (same name, same arguments; keep `parents` as `(a, b)`). Why did the
# test on `times(x, x)` pass? (Answer that in a comment in your answer cell.)

# %% question="15.4" role="answer"
# Answer 15.4
def times(a, b):
    ### BEGIN SOLUTION
    out = Value(a.data * b.data, (a, b), "mul")
    out.backward_fn = lambda g: (g * b.data, g * a.data)
    return out
    ### END SOLUTION


# %% question="15.4" role="check" points=2
def _times_probe(a, b, g):
    """times(Value(a), Value(b)): its value, parents, and backward_fn(g)."""
    va, vb = Value(a), Value(b)
    out = times(va, vb)
    grads = out.backward_fn(np.array(g, dtype=np.float64))
    parents = ["a" if p is va else "b" if p is vb else "?" for p in out.parents]
    return {"out": out.data, "parents": parents,
            "grads": [np.asarray(gr, dtype=np.float64) for gr in grads]}


with question("15.4", points=2, answers=()) as q:
    for a, b, g in (([2.0, -1.0], [0.5, 3.0], [1.0, 1.0]), ([1.5], [-4.0], [2.0]),
                    ([[1.0, 2.0], [3.0, -2.0]], [[0.5, -1.0], [2.0, 0.25]],
                     [[1.0, -1.0], [0.5, 2.0]])):
        ta, tb = (torch.tensor(v, dtype=torch.float64, requires_grad=True) for v in (a, b))
        tout = ta * tb
        tout.backward(torch.tensor(g, dtype=torch.float64))
        seen = q.observe(_times_probe, a, b, g)
        q.close(f"times({a}, {b})", seen["out"], tout)
        q.true(seen["parents"] == ["a", "b"], "the result's parents must be (a, b), in that "
               "order: backward_fn returns one gradient per parent, in the same order")
        wrong = (torch.tensor(g, dtype=torch.float64) * ta).detach()
        q.close(f"the gradient for a, times({a}, {b})", seen["grads"][0], ta.grad, mistakes=[
            (wrong, "a's gradient is g times the *other* factor, b: the two gradients were "
                    "swapped (with times(x, x) both factors are the same, so the test could "
                    "not see it)")])
        q.close(f"the gradient for b, times({a}, {b})", seen["grads"][1], tb.grad)

# %% [markdown]
# ## Reflection (not scored)
#
# Our engine's `backward_fn` closures keep every input array alive for as long as the graph
# exists. minigrad frees a node's saved tensors as soon as it has run. Why does that matter
# for training a large network, and what does it cost you?
#
# ### BEGIN SOLUTION
# The saved inputs of every layer are most of the memory a training step uses; freeing each
# as soon as backward has passed it lets memory fall during backward instead of staying at its
# peak. The price: the graph can be walked only once, so a second backward needs
# `retain_graph=True`.
# ### END SOLUTION
#
# <details><summary>One possible answer</summary>
#
# Activations saved for backward dominate memory in training; releasing them node by node
# keeps the peak lower. In exchange, a second backward through the same graph raises an error
# unless the first one was called with `retain_graph=True`.
# </details>
