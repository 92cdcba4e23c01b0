"""``backward`` and ``grad``: the two ways into the backward engine.

``backward`` accumulates gradients into the leaves' ``.grad``; ``grad`` returns them instead.
Both check their arguments as torch does, seed the starting gradients, and hand the work to
``engine.execute``.
"""

from __future__ import annotations

import collections.abc
import sys
import warnings

import numpy as np

from minigrad._creation import ones_like, tensor, zeros_like
from minigrad._ops import _vmap_hook, subclass
from minigrad._ops.join import stack
from minigrad._tensor import Tensor
from minigrad.autograd import engine, grad_mode
from minigrad.autograd.graph import GradientEdge, edge_of
from minigrad.autograd.special_nodes import accumulate_into

__all__ = ["backward", "grad"]

CREATE_GRAPH_WARNING = (
    "Using backward() with create_graph=True will create a reference cycle between the "
    "parameter and its gradient which can cause a memory leak. We recommend using autograd.grad "
    "when creating the graph to avoid this. If you have to use this function, make sure to "
    "reset the .grad fields of your parameters to None after use to break the cycle and avoid "
    "the leak.")
_warned_create_graph = False  # torch warns once per process (TORCH_WARN_ONCE)


def _as_tuple(x):
    if x is None:
        return ()
    if isinstance(x, GradientEdge):  # a named tuple, but one edge
        return (x,)
    return tuple(x) if isinstance(x, list | tuple) else (x,)


def _one_per_output(grads, outputs) -> tuple:
    """The starting gradients as given, one per output (None: all to be made)."""
    if grads is None:
        return (None,) * len(outputs)
    grads = _as_tuple(grads)[:len(outputs)]  # torch zips them: extra gradients are dropped
    if len(grads) != len(outputs):
        raise RuntimeError(f"got {len(outputs)} tensors and {len(grads)} gradients")
    return grads


def _seed_grads(outputs, grad_outputs):
    """One starting gradient per output: ones for a scalar, else the caller must give one."""
    if len(outputs) == 1 and grad_outputs[0] is None:  # loss.backward(): the usual call
        out = outputs[0]
        data = out._data
        if data.size == 1 and data.dtype.kind == "f" and out.requires_grad:
            # ones_like(out), without the factory's checks (a float tensor on the CPU)
            return [Tensor._make(np.ones(data.shape, data.dtype))]
    grads = []
    for i, (out, g) in enumerate(zip(outputs, grad_outputs)):
        if g is None and not out.requires_grad:
            grads.append(None)  # the engine's "does not require grad" error comes first
            continue
        if g is None:
            if out.numel() != 1:
                raise RuntimeError("grad can be implicitly created only for scalar outputs")
            if not out.dtype.is_floating_point:
                raise RuntimeError("grad can be implicitly created only for real scalar "
                                   f"outputs but got {out.dtype!r}")
            g = ones_like(out)
        elif not isinstance(g, Tensor):
            g = tensor(g, dtype=out.dtype)
        if g.shape != out.shape:
            raise RuntimeError(f"Mismatch in shape: grad_output[{i}] has a shape of {g.shape!r} "
                               f"and output[{i}] has a shape of {out.shape!r}.")
        grads.append(g)
    return grads


def _seeds(outputs, grad_outputs):
    """``_seed_grads``, for outputs that may be GradientEdges: an edge's starting gradient
    must be given (a node does not keep its outputs' shapes), and stands in for it."""
    if not any(isinstance(out, GradientEdge) for out in outputs):
        return _seed_grads(outputs, grad_outputs)
    for i, (out, g) in enumerate(zip(outputs, grad_outputs)):
        if isinstance(out, GradientEdge) and not isinstance(g, Tensor):
            raise RuntimeError(f"grad_outputs[{i}] must be a tensor: minigrad cannot make the "
                               "starting gradient of a GradientEdge output itself")
    return _seed_grads([g if isinstance(out, GradientEdge) else out
                        for out, g in zip(outputs, grad_outputs)], grad_outputs)


BATCHED_SHAPE_MISMATCH = (
    "If `is_grads_batched=True`, we interpret the first dimension of each grad_output as the "
    "batch dimension. The sizes of the remaining dimensions are expected to match the shape of "
    "corresponding output, but a mismatch was detected: grad_output[{i}] has a shape of "
    "{grad!r} and output[{i}] has a shape of {out!r}. If you only want some tensors in "
    "`grad_output` to be considered batched, consider using vmap.")


def _batched_seeds(outputs, grad_outputs):
    """``grad(..., is_grads_batched=True)``'s starting gradients: each one's first dim is the
    batch, the rest must match its output (torch's ``_make_grads``), and every batch has the
    same size (the check of the vmap torch runs over them)."""
    if any(isinstance(out, GradientEdge) for out in outputs):
        raise RuntimeError("Batched grads are not supported with GradientEdge")
    seeds = []
    for i, (out, g) in enumerate(zip(outputs, grad_outputs)):
        if not isinstance(g, Tensor):  # None: a scalar's ones, or torch's error
            seeds.append(_seed_grads([out], [g])[0])
        elif g[0].shape != out.shape:  # g[0]: a 0-d g's IndexError, as torch's
            # torch drops the batch dim twice in the message (from g[0]'s shape too)
            raise RuntimeError(BATCHED_SHAPE_MISMATCH.format(i=i, grad=g[0].shape[1:],
                                                             out=out.shape))
        else:
            seeds.append(g)
    if any(g is not None and g.dim() == 0 for g in seeds):  # a scalar's ones, not batched
        raise ValueError("vmap(vjp, in_dims=0, ...)(<inputs>): Got in_dim=0 for some input, "
                         "but that input is a Tensor of dimensionality 0 so expected in_dim to "
                         "satisfy 0 <= in_dim < 0.")
    sizes = [g.shape[0] for g in seeds if g is not None]
    if len(set(sizes)) > 1:
        raise ValueError(f"vmap: Expected all tensors to have the same size in the mapped "
                         f"dimension, got sizes {sizes} for the mapped dimension")
    return seeds


def _batched_run(run, grads, edges, retain_graph) -> dict:
    """One backward pass per row of the batched starting gradients, the graph kept until the
    last; each input's gradients stacked along a new first dim (torch vmaps one pass over
    the batch). An input that gets no gradient gets none from any row."""
    size = next(g.shape[0] for g in grads if g is not None)
    rows = [run([None if g is None else g[b] for g in grads], retain_graph or b < size - 1)
            for b in range(size)]
    return {edge: _stack_batch([row[edge] for row in rows]) for edge in edges
            if all(row.get(edge) is not None for row in rows)}


def _stack_batch(rows):
    """The rows stacked along a new first dim; a dim every row broadcasts (stride 0, as
    SumBackward0's expand leaves it) stays broadcast, as torch's one batched pass leaves it."""
    first = rows[0]
    broadcast = [d for d in range(first.dim())
                 if first.shape[d] > 1 and all(r.stride(d) == 0 for r in rows)]
    if not broadcast:
        return stack(rows)
    compact = [r[tuple(slice(0, 1) if d in broadcast else slice(None)
                       for d in range(first.dim()))] for r in rows]
    return stack(compact).expand(len(rows), *first.shape)


def _roots(outputs):
    roots = []
    for i, out in enumerate(outputs):
        if isinstance(out, GradientEdge):
            roots.append((out.node, out.output_nr))
            continue
        if not out.requires_grad:
            raise RuntimeError(f"element {i} of tensors does not require grad and does not "
                               "have a grad_fn")
        roots.append(edge_of(out))
    return roots


def backward(tensors, grad_tensors=None, retain_graph=None, create_graph=False,
             grad_variables=None, inputs=None):
    """Accumulate d(tensors)/d(leaf) into every leaf's ``.grad`` (or only ``inputs``').
    ``grad_variables`` is ``grad_tensors``' name from before PyTorch 0.4 (old books use it):
    still taken, in torch's place among the arguments, with torch's FutureWarning."""
    if _vmap_hook.active or _vmap_hook.transforms:  # inside torch.func's vmap, grad, jvp...
        raise RuntimeError("backward() called inside a functorch transform. This is not "
                           "supported, please use functorch.grad or functorch.vjp instead or "
                           "call backward() outside of functorch transforms.")
    if grad_variables is not None:
        warnings.warn("`grad_variables` is deprecated. Use `grad_tensors` instead.",
                      FutureWarning, stacklevel=2)
        if grad_tensors is not None:
            raise RuntimeError("`grad_tensors` and `grad_variables` (deprecated) arguments both "
                               "passed to `backward()`. Please only use `grad_tensors`.")
        grad_tensors = grad_variables
    outputs = _as_tuple(tensors)
    grads = _seeds(outputs, _one_per_output(grad_tensors, outputs))
    if retain_graph is None:
        retain_graph = create_graph
    roots = _roots(outputs)
    if create_graph:
        _warn_create_graph()
    if inputs is not None and not _as_tuple(inputs):
        raise RuntimeError("`inputs` argument to `backward()` cannot be empty.")
    inputs = _as_tuple(inputs)
    if not inputs:
        engine.execute(engine.GraphTask(roots, grads, retain_graph=retain_graph,
                                        create_graph=create_graph))
        return
    for t in inputs:
        t.retain_grad()  # as torch does: a non-leaf input gets its .grad through retain_grad
    targets = {_target_edge(t): t for t in inputs}
    captured = engine.execute(engine.GraphTask(roots, grads, retain_graph=retain_graph,
                                               create_graph=create_graph, inputs=targets,
                                               accumulate_grad=False))
    for edge, t in targets.items():
        if edge in captured and t.is_leaf:
            grad = captured.pop(edge)
            unshared = sys.getrefcount(grad) <= 2  # this name and getrefcount's argument
            with grad_mode.set_grad_enabled(create_graph):
                accumulate_into(t, grad, unshared)


def _warn_create_graph() -> None:
    """x.grad made with create_graph has a grad_fn leading back to x: a reference cycle.
    torch warns from its C++ engine, called by its own Python (autograd/graph.py's
    ``_engine_run_backward``): the warning names that line, as this one names ``backward``'s."""
    global _warned_create_graph
    if not _warned_create_graph:
        _warned_create_graph = True
        warnings.warn(CREATE_GRAPH_WARNING, UserWarning, stacklevel=2)


def tensor_backward(self, gradient=None, retain_graph=None, create_graph=False, inputs=None):
    """``x.backward()`` (bound as a Tensor method in ``_ops/__init__.py``): accumulate the
    gradient of ``x`` into the leaves' ``.grad``."""
    backward(self, gradient, retain_graph, create_graph, inputs=inputs)


def _target_edge(t):
    if isinstance(t, GradientEdge):
        return (t.node, t.output_nr)
    if not t.requires_grad:
        raise RuntimeError("One of the differentiated Tensors does not require grad")
    return edge_of(t)


def grad(outputs, inputs, grad_outputs=None, retain_graph=None, create_graph=False,
         only_inputs=True, allow_unused=None, is_grads_batched=False, materialize_grads=False):
    """Return d(outputs)/d(inputs) without touching any ``.grad`` (a dict of inputs gives a
    dict of gradients, under the same keys). ``only_inputs`` is ignored (torch's too: it
    warns when it is False)."""
    names = None
    if type(inputs) is dict:
        names, inputs = list(inputs), tuple(inputs.values())
    elif isinstance(inputs, collections.abc.Mapping):
        raise TypeError(f"`inputs` argument to `grad()` must be a dict, not "
                        f"{type(inputs).__name__}. Other Mapping types are not supported.")
    outputs, inputs = _as_tuple(outputs), _as_tuple(inputs)
    if not inputs:
        raise RuntimeError("`inputs` argument to `grad()` cannot be empty.")
    if not only_inputs:
        warnings.warn("only_inputs argument is deprecated and is ignored now (defaults to "
                      "True). To accumulate gradient for other parts of the graph, please use "
                      "minigrad.autograd.backward.", FutureWarning,
                      stacklevel=subclass.stacklevel(2))
    if _vmap_hook.active and not is_grads_batched:  # batched grad_outputs inside vmap
        out = _vmap_hook.grad(grad, outputs, inputs, grad_outputs, retain_graph, create_graph,
                              allow_unused, materialize_grads)
        if out is not _vmap_hook.PASS:
            return dict(zip(names, out)) if names is not None else out
    grad_outputs = _one_per_output(grad_outputs, outputs)
    grads = (_batched_seeds if is_grads_batched else _seeds)(outputs, grad_outputs)
    if retain_graph is None:
        retain_graph = create_graph
    if materialize_grads and allow_unused is False:
        raise ValueError("Expected allow_unused to be True or not passed when materialize_grads="
                         "True, but got: allow_unused=False.")
    if allow_unused is None:
        allow_unused = materialize_grads
    roots = _roots(outputs)  # the outputs are checked before the inputs, as torch's engine does
    edges = [_target_edge(t) for t in inputs]

    def run(grads, retain_graph):
        return engine.execute(engine.GraphTask(roots, grads, retain_graph=retain_graph,
                                               create_graph=create_graph, inputs=set(edges),
                                               accumulate_grad=False, returns_grads=True))

    if is_grads_batched:
        captured = _batched_run(run, grads, edges, retain_graph)
    else:
        captured = run(grads, retain_graph)
    result = []
    for i, edge in enumerate(edges):
        g = captured.get(edge)
        if g is None and not allow_unused:
            raise RuntimeError(f"The differentiated Tensor at index {i} appears to not have been "
                               "used in the graph. Set allow_unused=True if this is the desired "
                               "behavior.")
        result.append(g)
    if materialize_grads:
        if any(g is None and isinstance(t, GradientEdge) for g, t in zip(result, inputs)):
            raise RuntimeError("materialize_grads cannot be used when the given input is a "
                               "GradientEdge")
        result = [zeros_like(t, requires_grad=create_graph) if g is None else g
                  for g, t in zip(result, inputs)]
    return tuple(result) if names is None else dict(zip(names, result))
