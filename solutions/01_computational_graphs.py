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
# # Exercises 01 · Computational graphs
#
# Practise lesson 01 (`notebooks/01_computational_graphs.ipynb`): forward and backward passes
# by hand, gradients that add up where a value fans out, and the order in which backward visits
# a graph. Each question has an answer cell, then a check cell that tells you at once whether
# your answer is right. The questions do not depend on each other.

# %%
# Run this cell first.
import math

import torch

import minigrad
from coursekit.grading import question

# %% [markdown]
# ## 01.1 · Forward and backward by hand (2 points)
#
# Take $z = x \cdot x + \sin(2y)$ at $x = 4$, $y = \pi$. Without autograd, using only numbers
# and `math`, compute the forward pass (`a = x·x`, `b = sin(2y)`, `z = a + b`) and then the
# backward pass: `grad_x` $= \partial z/\partial x$ and `grad_y` $= \partial z/\partial y$.

# %% question="01.1" role="answer"
# Answer 01.1: numbers only (no autograd).
x_value, y_value = 4.0, math.pi
### BEGIN SOLUTION
a = x_value * x_value
b = math.sin(2 * y_value)
z = a + b
grad_x = 2 * x_value
grad_y = 2 * math.cos(2 * y_value)
### END SOLUTION

# %% question="01.1" role="check" points=2
with question("01.1", points=2, answers=("a", "z", "grad_x", "grad_y", "b")) as q:
    tx = torch.tensor(4.0, dtype=torch.float64, requires_grad=True)
    ty = torch.tensor(math.pi, dtype=torch.float64, requires_grad=True)
    ta = tx * tx
    tz = ta + torch.sin(2 * ty)
    tz.backward()
    q.close("a", a, ta)
    q.close("z", z, tz)
    q.close("grad_x", grad_x, tx.grad, hints={
        "half": "x appears twice in x·x, so d(x·x)/dx = 2x: both uses send a gradient"})
    q.close("grad_y", grad_y, ty.grad, hints={
        "half": "the chain rule multiplies by d(2y)/dy = 2 as well as by cos(2y)"})
    ### BEGIN HIDDEN TESTS
    q.close("b", b, torch.sin(2 * ty))
    ### END HIDDEN TESTS

# %% [markdown]
# ## 01.2 · Predict the gradients of the w1..w4 graph (2 points)
#
# ```python
# a = torch.tensor(3.0)
# w1, w2, w3, w4 = (torch.tensor(v, requires_grad=True) for v in (2.0, -1.0, 0.5, 4.0))
# b = w1 * a
# c = w2 * a
# d = w3 * b + w4 * c
# L = 10 - d
# L.backward()
# ```
#
# Without running it, what are `w1.grad`, `w2.grad`, `w3.grad` and `w4.grad`?

# %% question="01.2" role="answer"
# Answer 01.2: four numbers.
### BEGIN SOLUTION
grad_w1 = -0.5 * 3.0
grad_w2 = -4.0 * 3.0
grad_w3 = -(2.0 * 3.0)
grad_w4 = -(-1.0 * 3.0)
### END SOLUTION

# %% question="01.2" role="check" points=2
with question("01.2", points=2,
              answers=("grad_w1", "grad_w2", "grad_w3", "grad_w4")) as q:
    ta = torch.tensor(3.0)
    tw = [torch.tensor(v, requires_grad=True) for v in (2.0, -1.0, 0.5, 4.0)]
    tb, tc = tw[0] * ta, tw[1] * ta
    (10 - (tw[2] * tb + tw[3] * tc)).backward()
    sign = {"negated": "L = 10 - d: the minus sign flips every gradient that flows back from L"}
    for name, got, w in zip(("grad_w1", "grad_w2", "grad_w3", "grad_w4"),
                            (grad_w1, grad_w2, grad_w3, grad_w4), tw):
        q.close(name, got, w.grad, hints=sign)

# %% [markdown]
# ## 01.3 · Where a value fans out, gradients add up (2 points)
#
# Same graph as 01.2, but now `a = torch.tensor(3.0, requires_grad=True)`. `a` feeds both `b`
# and `c`. What is `a.grad` after `L.backward()`? Give a number.

# %% question="01.3" role="answer"
# Answer 01.3: one number.
### BEGIN SOLUTION
grad_a = -(0.5 * 2.0 + 4.0 * -1.0)
### END SOLUTION

# %% question="01.3" role="check" points=2
with question("01.3", points=2, answers=("grad_a",)) as q:
    ta = torch.tensor(3.0, requires_grad=True)
    w1, w2, w3, w4 = (torch.tensor(v) for v in (2.0, -1.0, 0.5, 4.0))
    (10 - (w3 * (w1 * ta) + w4 * (w2 * ta))).backward()
    one_path = "a is used twice (in b and in c): the gradients of both paths add up"
    q.close("grad_a", grad_a, ta.grad, hints={"negated": "L = 10 - d flips the sign"},
            mistakes=[(-(w3 * w1), one_path), (-(w4 * w2), one_path),
                      (w3 * w1 + w4 * w2, "L = 10 - d flips the sign")])

# %% [markdown]
# ## 01.4 · Implement: the order backward visits the nodes (3 points)
#
# Backward may run a node only after every node that sends it a gradient. Write
# `topo_order(root)`: given a `grad_fn` node, return a list of all the nodes reachable through
# `next_functions` (each once, skipping `None`), in an order where every node comes **before**
# the nodes in its `next_functions`. It must work for minigrad and torch graphs alike, and for
# long chains (avoid deep recursion: use a loop).

# %% question="01.4" role="answer"
# Answer 01.4
def topo_order(root):
    ### BEGIN SOLUTION
    order, seen = [], set()
    stack = [(root, False)]
    while stack:
        node, children_done = stack.pop()
        if children_done:
            order.append(node)
            continue
        if node in seen:
            continue
        seen.add(node)
        stack.append((node, True))
        for child, _ in node.next_functions:
            if child is not None and child not in seen:
                stack.append((child, False))
    return order[::-1]
    ### END SOLUTION


# %% question="01.4" role="check" points=3
def _graph(lib, kind):
    """The graph of test ``kind`` built with ``lib`` (torch or minigrad): its root node."""
    if kind == "diamond":
        x = lib.tensor([1.0, 2.0], requires_grad=True)
        y = x * x
        return (y.sin() + y.exp()).sum().grad_fn
    if kind == "chain":
        y = x = lib.tensor(0.5, requires_grad=True)
        for _ in range(3000):
            y = y * 1.0001
        return y.grad_fn
    w = lib.tensor([1.0, -1.0], requires_grad=True)
    h = (w * 2).relu()
    return ((h + h * w) * h).sum().grad_fn


def _order_probe(lib_name, kind):
    """Your topo_order on graph ``kind``, as plain data: for each node of your order, its
    name, the place of its first appearance, and the places of its next_functions."""
    root = _graph(minigrad if lib_name == "minigrad" else torch, kind)
    order = topo_order(root)
    if type(order) is not list:
        return type(order).__name__
    first = {}
    for i, node in enumerate(order):
        first.setdefault(id(node), i)
    return [None if node is None else
            [node.name(), first[id(node)],
             [first.get(id(child), -1) for child, _ in node.next_functions if child is not None]]
            for node in order]


def _check_order(q, lib, kind, what):
    got = q.observe(_order_probe, lib.__name__, kind)
    q.true(isinstance(got, list), f"topo_order should return a list, not {got}")
    reach, todo = set(), [_graph(lib, kind)]
    while todo:
        node = todo.pop()
        if node not in reach:
            reach.add(node)
            todo += [n for n, _ in node.next_functions if n is not None]
    q.true(None not in got, f"{what}: your order contains None (skip missing edges)")
    q.true(all(entry[1] == i for i, entry in enumerate(got)),
           f"{what}: a node appears twice in your order")
    q.true(len(got) == len(reach), f"{what}: your order has {len(got)} nodes, the graph has "
           f"{len(reach)}: follow every edge of next_functions")
    shape = sorted((n.name(), len([c for c, _ in n.next_functions if c is not None]))
                   for n in reach)
    q.true(sorted((name, len(children)) for name, _, children in got) == shape,
           f"{what}: your order does not hold the nodes of the graph")
    for i, (name, _, children) in enumerate(got):
        for child in children:
            q.true(child != -1, f"{what}: {name} sends a gradient to a node missing from "
                   "your order")
            if child < i:
                q.fail(f"{what}: {got[child][0]} comes before {name}, which sends it a "
                       "gradient: a node must come after everything that uses it")


with question("01.4", points=3, answers=()) as q:
    for lib in (minigrad, torch):
        _check_order(q, lib, "diamond", f"a diamond in {lib.__name__}")
    ### BEGIN HIDDEN TESTS
    _check_order(q, minigrad, "chain", "a chain of 3000 ops")
    _check_order(q, torch, "shared", "a torch graph with shared nodes")
    ### END HIDDEN TESTS

# %% [markdown]
# ## Reflection (not scored)
#
# In your own words: torch builds a new graph on every forward pass. What does that let you
# write in a model that a graph defined once, before any data, would not?
#
# ### BEGIN SOLUTION
# Ordinary Python control flow: an `if` on a tensor's value, a loop whose length depends on
# the input, recursion. The graph records what actually ran this time, so backward
# differentiates exactly that.
# ### END SOLUTION
#
# <details><summary>One possible answer</summary>
#
# Plain Python control flow (ifs, loops of varying length), decided by the data itself: each
# forward pass records what really ran.
# </details>
