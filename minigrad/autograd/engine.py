"""The backward engine: runs the graph's nodes in a valid order and routes gradients.

The algorithm, without recursion so a 100,000-op chain works:

1. Walk the graph once from the roots (an explicit stack) and count, for each node, how many
   edges point into it: its *dependencies*.
2. A node is *ready* when every node that feeds it a gradient has run (its count is 0). Ready
   nodes wait in a priority queue; like torch, the most recently created node runs first, and
   ``AccumulateGrad`` nodes run as soon as they are ready.
3. Running a node: apply its hooks, call its ``backward``, free its saved tensors (unless
   ``retain_graph``), and add each gradient it returns into the input buffer of the next node.

Every node and edge is visited a constant number of times, so the cost is linear in the graph
size (plus the heap's log factor).
"""

from __future__ import annotations

import heapq

import numpy as np

from minigrad import _dtype
from minigrad.autograd import grad_mode
from minigrad.autograd.graph import AccumulateGrad


def accumulate_into(variable, grad) -> None:
    """``variable.grad += grad``, the way AccumulateGrad does it.

    The first gradient is stored as a fresh copy (so it never aliases a gradient flowing
    elsewhere); later ones are added in place, so ``x.grad`` stays the same object, as in torch.
    Under ``create_graph`` the sum is a graph of its own, so nothing is done in place.
    """
    if variable._grad is None:
        if grad_mode.is_grad_enabled():
            variable._grad = grad
        else:
            variable._grad = grad.detach().clone()
    elif grad_mode.is_grad_enabled():
        variable._grad = variable._grad + grad
    else:
        variable._grad._data += grad._data
    if variable._post_accumulate_hooks:
        for hook in list(variable._post_accumulate_hooks.values()):
            hook(variable)


def _dependencies(roots):
    deps = {}
    seen = set(roots)
    stack = list(roots)
    while stack:
        node = stack.pop()
        for nxt, _ in node.next_functions:
            if nxt is None:
                continue
            deps[nxt] = deps.get(nxt, 0) + 1
            if nxt not in seen:
                seen.add(nxt)
                stack.append(nxt)
    return deps, seen


def _needed(seen, targets):
    """Nodes from which some target node can be reached: the only ones worth running."""
    parents = {}
    for node in seen:
        for nxt, _ in node.next_functions:
            if nxt is not None:
                parents.setdefault(nxt, []).append(node)
    needed = set(targets)
    stack = list(targets)
    while stack:
        node = stack.pop()
        for p in parents.get(node, ()):
            if p not in needed:
                needed.add(p)
                stack.append(p)
    return needed


def _call_pre_hooks(node, grads):
    """Tensor hooks first, then retain_grad (always last, as in torch), then node pre-hooks."""
    if node._tensor_hooks:
        for out_nr, fn in list(node._tensor_hooks.values()):
            if grads[out_nr] is not None:
                new = fn(grads[out_nr])
                if new is not None:
                    _check_hook_result(fn, grads[out_nr], new)
                    grads[out_nr] = new
    if node._retain_grad_hooks:
        for out_nr, ref in node._retain_grad_hooks.items():
            tensor = ref()
            if tensor is not None and grads[out_nr] is not None:
                _retain(tensor, grads[out_nr])
    if node._pre_hooks:
        for fn in list(node._pre_hooks.values()):
            new = fn(tuple(grads))
            if new is not None:
                grads[:] = list(new)
    return grads


def _check_hook_result(hook, old, new) -> None:
    """A tensor hook may change a gradient's values, never its size or dtype (torch's check)."""
    name = getattr(hook, "__name__", type(hook).__name__)
    if new.shape != old.shape:
        raise RuntimeError(f"hook '{name}' has changed the size of value")
    if new.dtype is not old.dtype:
        def kind(t):
            return f"minigrad.{t.dtype.legacy_name}"

        raise RuntimeError(f"hook '{name}' has changed the type of value (was {kind(old)} got "
                           f"{kind(new)})")


def _retain(tensor, grad):
    """What retain_grad does: keep a copy of the gradient flowing through a non-leaf."""
    if tensor._grad is None:
        tensor._grad = grad if grad_mode.is_grad_enabled() else grad.detach().clone()
    else:
        tensor._grad = tensor._grad + grad


class _Ready:
    """A heap entry: the node created last comes first. Ties (two AccumulateGrad nodes) are
    left to the heap itself, which then behaves exactly like torch's ``std::priority_queue``."""

    __slots__ = ("node", "priority")

    def __init__(self, node):
        self.node = node
        self.priority = node._sequence_nr

    def __lt__(self, other) -> bool:
        return self.priority > other.priority


def _num_outputs(node) -> int:
    return node._num_outputs


def execute(roots, grads, *, retain_graph: bool, create_graph: bool, capture=None,
            accumulate: bool = True, order_log=None):
    """Run backward from ``roots`` (``(node, output_nr)`` pairs) seeded with ``grads``.

    ``capture`` maps ``(node, output_nr)`` to a slot: the gradient arriving there is recorded
    instead of (``accumulate=False``, for ``autograd.grad``) or besides being passed on.
    Returns the captured gradients.
    """
    root_nodes = [n for n, _ in roots]
    deps, seen = _dependencies(root_nodes)
    captured = {}
    needed = None
    if capture is not None:
        needed = _needed(seen, [n for n, _ in capture])
    buffers = {}
    for (node, nr), g in zip(roots, grads):
        _add_to_buffer(buffers, node, nr, g)
    ready = []
    for node in dict.fromkeys(root_nodes):
        if deps.get(node, 0) == 0:
            heapq.heappush(ready, _Ready(node))
    # inf and nan are values, as in torch, for the whole pass: formulas written directly in
    # NumPy (TanhBackward0's) then need no ``np.errstate`` of their own, entered per node.
    with grad_mode.set_grad_enabled(create_graph), np.errstate(all="ignore"):
        while ready:
            node = heapq.heappop(ready).node
            node_grads = buffers.pop(node, None) or [None] * _num_outputs(node)
            if needed is not None and node not in needed:
                outputs = (None,) * len(node.next_functions)
            else:
                outputs = _run_node(node, node_grads, retain_graph, capture, captured,
                                    accumulate, order_log, needed)
            for (nxt, nr), g in zip(node.next_functions, outputs):
                if nxt is None:
                    continue
                if g is not None:
                    _add_to_buffer(buffers, nxt, nr, g)
                deps[nxt] -= 1
                if deps[nxt] == 0:
                    heapq.heappush(ready, _Ready(nxt))
    return captured


def _run_node(node, grads, retain_graph, capture, captured, accumulate, order_log, needed):
    if node._tensor_hooks or node._retain_grad_hooks or node._pre_hooks:
        grads = _call_pre_hooks(node, list(grads))
    if capture is not None:
        for nr in range(len(grads)):
            if (node, nr) in capture and grads[nr] is not None:
                captured[(node, nr)] = grads[nr]
        if not accumulate and isinstance(node, AccumulateGrad):
            return ()
        if not any(n in needed for n, _ in node.next_functions if n is not None):
            return (None,) * len(node.next_functions)  # a target whose inputs nobody needs
    if order_log is not None:
        order_log.append((node, tuple(grads)))
    if isinstance(node, AccumulateGrad):
        if grads[0] is not None:
            node.apply(grads[0])
        outputs = ()
    elif (missing := sum(g is None for g in grads)) == len(grads):
        outputs = (None,) * len(node.next_functions)
    else:
        if missing:
            grads = _materialize(node, grads)
        outputs = _check_outputs(node, node.apply(*grads))
        if node._post_hooks:
            for hook in list(node._post_hooks.values()):
                new = hook(tuple(outputs), tuple(grads))
                if new is not None:
                    outputs = tuple(new)
    if not retain_graph:
        node.release_variables()
    return outputs


def _materialize(node, grads):
    """Missing output gradients become zeros, as torch's built-in formulas expect (a custom
    Function can opt out with ``ctx.set_materialize_grads(False)``)."""
    if all(g is not None for g in grads) or not getattr(node, "materialize_grads", True):
        return grads
    shapes = getattr(node, "_output_meta", None)
    from minigrad._creation import zeros

    return [g if g is not None else zeros(*shapes[i][0], dtype=shapes[i][1])
            for i, g in enumerate(grads)]


def _check_outputs(node, outputs):
    """Like torch's validate_outputs: right count, then each gradient summed back to its
    input's shape (broadcasting) and cast to its dtype."""
    n = len(node.next_functions)
    if len(outputs) != n:
        raise RuntimeError(
            f"function {node.name()} returned an incorrect number of gradients "
            f"(expected {n}, got {len(outputs)})"
        )
    fixed = list(outputs)
    for i, (g, meta) in enumerate(zip(outputs, node._input_meta)):
        if node.next_functions[i][0] is None:
            fixed[i] = None  # a constant input: nobody will read this gradient
            continue
        if g is None or meta is None:
            continue
        shape, dtype = meta
        if g._data.shape != shape:
            if not _expandable(shape, g._data.shape):
                raise RuntimeError(
                    f"Function {node.name()} returned an invalid gradient at index {i} - got "
                    f"{list(g._data.shape)} but expected shape compatible with {list(shape)}"
                )
            g = g.sum_to_size(*shape)
        if g._data.dtype != dtype and dtype.kind == "f":
            g = g.to(_dtype.from_numpy_dtype(dtype))
        fixed[i] = g
    return tuple(fixed)


def _expandable(shape, target) -> bool:
    """Can a tensor of ``shape`` be broadcast to ``target``?"""
    if len(shape) > len(target):
        return False
    return all(s == t or s == 1 for s, t in zip(reversed(shape), reversed(target)))


def _add_to_buffer(buffers, node, nr, grad):
    slot = buffers.get(node)
    if slot is None:
        slot = buffers[node] = [None] * _num_outputs(node)
    slot[nr] = grad if slot[nr] is None else slot[nr] + grad
