"""The backward engine: runs the graph's nodes in a valid order and routes gradients.

The algorithm, without recursion so a 100,000-op chain works:

1. Walk the graph once from the roots (an explicit stack) and count, for each node, how many
   edges point into it: its *dependencies*.
2. A node is *ready* when every node that feeds it a gradient has run (its count is 0). Ready
   nodes wait in a priority queue; like torch, the most recently created node runs first, and
   ``AccumulateGrad`` nodes run as soon as they are ready.
3. Running a node: apply its hooks, call its ``backward``, free its saved tensors (unless
   ``retain_graph``), and add each gradient it returns into the input buffer of the next node.

Everything one call needs is in one ``GraphTask`` object, named as in torch's engine. Every
node and edge is visited a constant number of times, so the cost is linear in the graph size
(plus the heap's log factor).
"""

from __future__ import annotations

import heapq
import itertools

from minigrad._numeric import quiet
from minigrad._ops import subclass
from minigrad.autograd import anomaly_mode, grad_mode, graph, profiler
from minigrad.autograd.graph import validate_outputs, zeros_for
from minigrad.autograd.special_nodes import AccumulateGrad


class GraphTask:
    """The state of one ``backward()`` or ``autograd.grad()`` call (torch's ``GraphTask``).

    * ``dependencies``: node -> how many edges into it have not delivered their gradient yet;
    * ``ready``: the ready queue, a heap of nodes whose dependencies are all met;
    * ``buffers``: node -> the gradients gathered so far for each of its outputs (torch's
      ``InputBuffer``s of the nodes not ready yet);
    * ``retain_graph`` (keep saved tensors) and ``create_graph`` (record the backward pass);
    * ``inputs``: for ``grad()`` or ``backward(inputs=...)``, the ``(node, output_nr)`` edges
      whose gradient is wanted; ``captured`` receives those gradients, and ``needed`` is the
      set of nodes from which some wanted edge can be reached (torch's ``exec_info``);
    * ``accumulate_grad``: whether ``AccumulateGrad`` nodes run (``grad()`` leaves ``.grad``
      alone);
    * ``id``: a number no other GraphTask of this process gets (torch's graph task id, which
      checkpoint keys its recomputations by; ``id()`` would be reused once a task is freed);
    * ``nodes``: every node the pass can reach from its roots;
    * ``returns_grads``: run by ``autograd.grad()`` (not ``backward()``).
    """

    __slots__ = ("dependencies", "ready", "buffers", "retain_graph", "create_graph", "inputs",
                 "captured", "needed", "accumulate_grad", "id", "nodes", "returns_grads")

    def __init__(self, roots, grads, *, retain_graph: bool, create_graph: bool, inputs=None,
                 accumulate_grad: bool = True, returns_grads: bool = False):
        root_nodes = [n for n, _ in roots]
        self.returns_grads = returns_grads
        self.id = next(_task_ids)
        self.retain_graph = retain_graph
        self.create_graph = create_graph
        self.inputs = inputs
        self.accumulate_grad = accumulate_grad
        self.captured = {}
        self.dependencies, seen = _dependencies(root_nodes)
        self.nodes = seen
        self.needed = None if inputs is None else _needed(seen, [n for n, _ in inputs])
        self.buffers = {}
        for (node, nr), g in zip(roots, grads):
            self.add_gradient(node, nr, g)
        self.ready = []
        for node in dict.fromkeys(root_nodes):
            if self.dependencies.get(node, 0) == 0:
                heapq.heappush(self.ready, _Ready(node))

    def will_execute(self, node) -> bool:
        """Whether this pass runs ``node`` or captures a gradient there (torch's
        ``_will_engine_execute_node``)."""
        runs = node in self.nodes and (self.needed is None or node in self.needed)
        if runs and self.returns_grads and isinstance(node, AccumulateGrad):
            raise RuntimeError("A leaf node was passed to _will_engine_execute_node but we are "
                               "currently running autograd.grad(). This is currently not "
                               "supported.")
        return runs

    def add_gradient(self, node, nr: int, grad) -> None:
        """Add ``grad`` into output ``nr`` of ``node``'s input buffer."""
        slot = self.buffers.get(node)
        if slot is None:
            slot = self.buffers[node] = [None] * node._num_outputs
        slot[nr] = grad if slot[nr] is None else slot[nr] + grad


_task_ids = itertools.count()


class _Ready:
    """A heap entry: the node created last comes first. Ties (two AccumulateGrad nodes) are
    left to the heap itself, which then behaves exactly like torch's ``std::priority_queue``."""

    __slots__ = ("node", "priority")

    def __init__(self, node):
        self.node = node
        self.priority = node._sequence_nr()

    def __lt__(self, other) -> bool:
        return self.priority > other.priority


def _dependencies(roots):
    deps = {}
    stack = list(dict.fromkeys(roots))  # a node may be a root twice (two of its outputs)
    seen = set(stack)
    while stack:
        node = stack.pop()
        for nxt in node._next_nodes:
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
        for nxt in node._next_nodes:
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


# The GraphTasks being executed, innermost last: a node's backward may run the engine again
# (checkpoint's, reentrantly), and checkpoint and multi-grad hooks ask which pass it is in.
running = graph.running


class _Running:
    """``task`` on the stack of running passes for the pass's length. Meanwhile a learner's
    Tensor subclass dispatches nothing (``_ops/subclass.py``): torch's formulas are C++, so a
    gradient computed from a saved subclass instance comes out a plain tensor."""

    def __init__(self, task):
        self.task = task
        self.dispatching = None

    def __enter__(self):
        running.append(self.task)
        self.dispatching, subclass.inside = subclass.inside, True

    def __exit__(self, *exc):
        running.pop()
        subclass.inside = self.dispatching


def execute(task: GraphTask) -> dict:
    """Run ``task`` to the end; return the captured gradients (``{edge: grad}``)."""
    ready, buffers, deps, needed = task.ready, task.buffers, task.dependencies, task.needed
    # a running profiler times each node (checked once per pass, not per node)
    evaluate = evaluate_function
    if profiler._state.active:
        evaluate = profiler.profiled(evaluate_function)
    # inf and nan are values, as in torch, for the whole pass: formulas written directly in
    # NumPy (TanhBackward0's) then need no ``np.errstate`` of their own, entered per node,
    # and the ops' own ``quietly`` finds the warnings already off.
    with grad_mode.set_grad_enabled(task.create_graph), quiet(), _Running(task):
        while ready:
            node = heapq.heappop(ready).node
            grads = buffers.pop(node, None) or [None] * node._num_outputs
            if needed is not None and node not in needed:
                outputs = (None,) * len(node._next_nodes)
            else:
                outputs = evaluate(task, node, grads)
            for nxt, nr, g in zip(node._next_nodes, node._next_nrs, outputs):
                if nxt is None:
                    continue
                if g is not None:  # task.add_gradient(nxt, nr, g), written out: it runs per edge
                    slot = buffers.get(nxt)
                    if slot is None:
                        slot = buffers[nxt] = [None] * nxt._num_outputs
                    slot[nr] = g if slot[nr] is None else slot[nr] + g
                count = deps[nxt] - 1
                deps[nxt] = count
                if count == 0:
                    heapq.heappush(ready, _Ready(nxt))
            # The gradients now live in the buffers only: a leaf's AccumulateGrad can tell
            # that nobody else holds its gradient, and keep it as .grad without a copy.
            outputs = g = None
    return task.captured


def evaluate_function(task: GraphTask, node, grads):
    """Run one node: pre-hooks, capture, the node itself, post-hooks, then free what it
    saved (unless ``retain_graph``). Returns one gradient per ``next_functions`` entry."""
    if (task.inputs is None and len(grads) == 1 and grads[0] is not None
            and not (node._tensor_hooks or node._retain_grad_hooks or node._pre_hooks
                     or node._post_hooks or anomaly_mode._state.enabled)):
        # The common case, taken first since it runs for every node: one gradient, no hooks,
        # nothing to capture, no anomaly mode. It does what the general path below does then.
        outputs = validate_outputs(node, node.apply(grads[0]))
        if not task.retain_graph:
            node.release_variables()
        return outputs
    # grad() does not run AccumulateGrad nodes, so their own hooks do not run (tensor hooks,
    # which belong to the leaf, do), as in torch.
    skip_leaf = not task.accumulate_grad and isinstance(node, AccumulateGrad)
    if task.inputs is not None:
        # As torch: a target node that must run anyway captures its gradients as they came
        # (its hooks run afterwards, before it runs); one that does not run (a leaf in
        # grad(), a target whose inputs nobody needs) runs its tensor hooks and retain_grad,
        # never its node pre-hooks, captures and stops there.
        runs = not skip_leaf and any(n in task.needed for n in node._next_nodes
                                     if n is not None)
        if not runs and (node._tensor_hooks or node._retain_grad_hooks):
            grads = call_pre_hooks(node, grads, node_hooks=False)
        for nr in range(len(grads)):
            if (node, nr) in task.inputs and grads[nr] is not None:
                task.captured[(node, nr)] = grads[nr]
        if not runs:
            return () if skip_leaf else (None,) * len(node._next_nodes)
    if node._tensor_hooks or node._retain_grad_hooks or node._pre_hooks:
        # in the engine's own list: a copy would hold on to the old gradients (see execute)
        grads = call_pre_hooks(node, grads, node_hooks=not skip_leaf)
    if isinstance(node, AccumulateGrad):
        if grads[0] is not None:
            node.apply(grads[0])
        elif node.variable._post_accumulate_hooks:  # torch runs them without a gradient too
            for hook in list(node.variable._post_accumulate_hooks.values()):
                hook(node.variable)
        outputs = ()
        if node._post_hooks:  # torch calls them with no grad_inputs, after .grad is updated
            for hook in list(node._post_hooks.values()):
                _checked_hook_result(hook, hook((), tuple(grads)), 0)
    elif (missing := [g is None for g in grads].count(True)) == len(grads):
        outputs = (None,) * len(node._next_nodes)
    else:
        hook_grads = grads  # post-hooks see the missing gradients as None, as in torch
        if missing:
            grads = _materialize(node, grads)
        if anomaly_mode._state.enabled:
            outputs = validate_outputs(node, anomaly_mode.checked_apply(node, grads))
        else:
            outputs = validate_outputs(node, node.apply(*grads))
        if node._post_hooks:
            for hook in list(node._post_hooks.values()):
                new = _checked_hook_result(hook, hook(tuple(outputs), tuple(hook_grads)),
                                           len(outputs))
                if new is not None:
                    outputs = new
    if not task.retain_graph:
        node.release_variables()
    return outputs


def call_pre_hooks(node, grads, node_hooks=True):
    """Tensor hooks first, then retain_grad (always last, as in torch), then node pre-hooks."""
    if node._tensor_hooks:
        for out_nr, fn in list(node._tensor_hooks.values()):
            new = fn(grads[out_nr])  # torch calls it with None for a missing gradient too
            if new is not None:
                if grads[out_nr] is None:
                    raise RuntimeError("can't replace a None gradient with a non-None value")
                _check_hook_result(fn, grads[out_nr], new)
                grads[out_nr] = new
    if node._retain_grad_hooks:
        for out_nr, ref in node._retain_grad_hooks.items():
            tensor = ref()
            if tensor is not None and grads[out_nr] is not None:
                _retain(tensor, grads[out_nr])
    if node._pre_hooks and node_hooks:
        for fn in list(node._pre_hooks.values()):
            new = _checked_hook_result(fn, fn(tuple(grads)), len(grads))
            if new is not None:
                grads[:] = list(new)
    return grads


def _checked_hook_result(hook, new, expected: int):
    """A node hook returns None or a tuple of one gradient per slot (torch's checks)."""
    if new is None:
        return None
    if not isinstance(new, tuple):
        raise TypeError(f"expected tuple, but hook returned '{type(new).__name__}'")
    if len(new) != expected:
        name = getattr(hook, "__name__", type(hook).__name__)
        raise RuntimeError(f"hook '{name}' has returned an incorrect number of values (got "
                           f"{len(new)}, but expected {expected})")
    return new


def _check_hook_result(hook, old, new) -> None:
    """A tensor hook may change a gradient's values, never its size or dtype (torch's check)."""
    if not isinstance(new, type(old)):
        raise TypeError(f"expected Variable, but hook returned '{type(new).__name__}'")
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


def _materialize(node, grads):
    """Missing output gradients become zeros, as torch's built-in formulas expect (a custom
    Function can opt out with ``ctx.set_materialize_grads(False)``)."""
    if not getattr(node, "materialize_grads", True):
        return grads
    like = next(g for g in grads if g is not None)
    return [g if g is not None else zeros_for(*node._output_meta[i], like)
            for i, g in enumerate(grads)]
