"""The nodes that belong to no single op: torch writes these by hand in C++, not in
``derivatives.yaml``.

* ``AccumulateGrad``: the sink of a leaf that requires grad; it adds into ``leaf.grad``.
* ``CopySlices``: an in-place op on a view, seen from the view's base (``rebase_history``
  records it).
* ``Error``: stands behind the result of a ``once_differentiable`` backward, and raises if a
  second backward reaches it.

(The node of a custom ``autograd.Function`` is its ``ctx``, in ``function.py`` next to
``Function``, since the two are one thing seen from two sides.)
"""

from __future__ import annotations

import sys
import weakref

import numpy as np

from minigrad import _layout
from minigrad._layout import contiguous_format
from minigrad.autograd import grad_mode, views
from minigrad.autograd.graph import SECOND_BACKWARD, Node, _tensor_class, record

# torch numbers an AccumulateGrad node with the largest sequence_nr there is (UINT64_MAX).
_UINT64_MAX = 2**64 - 1


class AccumulateGrad(Node):
    """The sink of a leaf that requires grad: adds the incoming gradient into ``leaf.grad``.

    One per leaf, made on first use and shared by every op that reads the leaf. It has no
    inputs of its own (``next_functions`` is empty): the backward pass ends here."""

    def __init__(self, variable):
        super().__init__()
        self.variable = variable
        self._seq_nr = _UINT64_MAX  # torch runs these as soon as they are ready

    def name(self) -> str:
        return "minigrad::autograd::AccumulateGrad"

    _more_dir = ("variable",)

    def _outputs_meta(self):
        """The leaf's own shape and dtype: what it accepts as a gradient."""
        return ((self.variable._data.shape, self.variable._data.dtype),)

    def apply(self, grad):
        # Who else references ``grad``? When the engine runs this node, only the engine's list
        # of this node's gradients, this argument and getrefcount's own argument do: three.
        # Anything more is a hook, a view or a caller that kept it (torch reads the same from
        # the tensor's use_count).
        unshared = sys.getrefcount(grad) <= 3
        accumulate_into(self.variable, grad, unshared)
        return ()


def accumulate_into(variable, grad, unshared: bool = False) -> None:
    """``variable.grad += grad``, the way AccumulateGrad does it.

    The first gradient becomes ``.grad`` itself, without a copy, when nothing else references
    it (``unshared``), grad mode is off and it is laid out like the variable: torch "steals"
    it. Otherwise it is stored as a fresh copy, so it never aliases a gradient someone else
    holds. (What shares its memory without referencing it, ``g.detach()`` or ``g.numpy()``
    kept by a hook, then shares ``.grad``'s memory too, as in torch.) Later gradients are added
    in place, so ``x.grad`` stays the same object, as in torch. Under ``create_graph`` the sum
    is a graph of its own, so nothing is done in place, and the first copy is torch's
    ``new_empty_strided(...).copy_(grad)``: ``x.grad.grad_fn`` is then ``CopyBackwards``.
    A ``grad_dtype`` set on the leaf (torch 2.13) is the dtype the gradient is cast to.
    """
    wanted = variable._grad_dtype
    if wanted is not variable._OWN_DTYPE and wanted is not None and grad.dtype is not wanted:
        grad, unshared = grad.to(wanted), True
    if variable._grad is None:
        if grad_mode._state.enabled:  # torch's clone_obey_contract: a CopyBackwards node
            memory = _contract_layout(variable._data, grad._data.dtype)
            memory.fill(0)
            variable._grad = variable._make(memory).copy_(grad)
        elif unshared and (_obeys_layout_contract(grad._data, variable._data) or (
                not grad_mode._grad_layout.enforced and grad._data.flags.writeable)):
            variable._grad = grad.detach()
        else:
            # torch's clone_obey_contract on the array, as nothing records here (``_make``
            # gives a plain Tensor even for a Parameter)
            memory = _contract_layout(variable._data, grad._data.dtype)
            np.copyto(memory, grad._data)
            variable._grad = variable._make(memory)
    elif grad_mode.is_grad_enabled():
        variable._grad = variable._grad + grad
    else:
        variable._grad._data += grad._data
    if variable._post_accumulate_hooks:
        _run_post_accumulate_hooks(variable)


def _run_post_accumulate_hooks(variable) -> None:
    """torch's ``_call_hooks``: a hook that hands back the very tensor it got (as
    ``lambda p: p.add_(p.grad, alpha=-lr)`` does, in torch's own example) changed nothing;
    another tensor is checked as a tensor hook's result would be and passed to the next
    hook, and once all have run, any such replacement is an error."""
    value, replaced = variable, False
    for hook in list(variable._post_accumulate_hooks.values()):
        result = hook(value)
        if result is None or result is value:
            continue
        # the engine's checks of a tensor hook's result (any Tensor, also for a Parameter)
        if not isinstance(result, _tensor_class(type(variable))):
            raise TypeError(f"expected Variable, but hook returned '{type(result).__name__}'")
        name = getattr(hook, "__name__", type(hook).__name__)
        if result.shape != value.shape:
            raise RuntimeError(f"hook '{name}' has changed the size of value")
        if result.dtype is not value.dtype:
            raise RuntimeError(f"hook '{name}' has changed the type of value (was "
                               f"minigrad.{value.dtype.legacy_name} got "
                               f"minigrad.{result.dtype.legacy_name})")
        value, replaced = result, True
    if replaced:
        raise RuntimeError("Tensor post accumulate grad hooks should return None.")


def _obeys_layout_contract(grad: np.ndarray, variable: np.ndarray) -> bool:
    """torch's gradient layout contract: a gradient may become ``.grad`` as it is if it has
    the strides of a dense variable (size-1 dims aside, unless broadcast), or is contiguous
    for any other variable. (NumPy also needs it writable: the next gradient is added in.)"""
    if not grad.flags.writeable:
        return False
    if _layout.is_dense(variable):
        if grad.strides == variable.strides:  # the usual case, settled without the walk
            return True
        return all(g == v if n != 1 else g != 0
                   for g, v, n in zip(grad.strides, variable.strides, grad.shape))
    return grad.flags.c_contiguous


def _contract_layout(variable: np.ndarray, dtype) -> np.ndarray:
    """New memory for a gradient that breaks the contract (torch's clone_obey_contract):
    laid out as the variable is when it is dense, row-major otherwise."""
    if _layout.is_dense(variable):
        return _layout.empty_like_array(variable, dtype)
    return np.empty(variable.shape, dtype)


class CopySlices(Node):
    """An in-place op on a view, seen from the base.

    Its inputs are the base (before the change) and the in-place op's other inputs; ``fn`` is
    the in-place op's own node, which maps the gradient of the view to gradients of (old view
    values, other inputs). The base's gradient is the incoming gradient with the view's region
    replaced by fn's first output. This clones the whole gradient each time, which is why a
    loop of slice assignments is slow in backward (lesson 08).
    """

    def name(self) -> str:
        return "minigrad::autograd::CopySlices"

    def apply(self, grad):
        if self._released:  # torch drops ``fn`` when the graph is freed
            raise RuntimeError(SECOND_BACKWARD)
        if grad_mode.is_grad_enabled():  # create_graph: the steps of torch's CopySlices
            return self.backward_with_graph(grad)
        return self.backward(grad)

    def backward(self, grad):
        result = grad.clone(memory_format=contiguous_format)
        grad_slice = self.view_fn(result)
        # fn's gradients go unchecked here, as in torch: the engine checks the ones for the
        # other inputs (CopySlices shares fn's edges), copy_ the one for the view
        res = self.fn.apply(grad_slice.clone(memory_format=contiguous_format))
        if res[0] is None:  # (a custom Function's None): no gradient for the base, as torch
            return res
        grad_slice.copy_(res[0])
        return (result, *res[1:])

    def backward_with_graph(self, grad):
        """``backward`` in torch's steps, so that under ``create_graph`` the gradient's graph
        is torch's: the gradient copied into new memory (CopyBackwards), the view's region
        read with ``as_strided`` (AsStridedBackward0) and written back with ``copy_`` (a
        CopySlices of its own). The copy is contiguous, like ``backward``'s clone (torch's is
        laid out like the base): the region's strides must be those ``backward`` will meet
        when the new CopySlices runs."""
        memory = np.empty(self._input_meta[0][0], grad._data.dtype)
        result = grad._make(memory).copy_(grad)
        view = self.view_fn(result.detach())  # where the view sits in the base's memory
        grad_slice = views.as_strided(result, view.shape, view.stride(), view.storage_offset())
        # fn's gradients go unchecked here, as in torch: the engine checks the ones for the
        # other inputs (CopySlices shares fn's edges), copy_ the one for the view
        res = self.fn.apply(grad_slice.clone(memory_format=contiguous_format))
        if res[0] is None:  # (a custom Function's None): no gradient for the base, as torch
            return res
        grad_slice.copy_(res[0])
        return (result, *res[1:])

    def release_variables(self) -> None:
        self.fn.release_variables()
        super().release_variables()
        self._released = True


def rebase_history(view, node, inputs, output_name=None) -> None:
    """An in-place op (its ``node`` read ``inputs``, the view first) changed ``view``: the
    change is recorded on the base, whose new ``grad_fn`` is ``CopySlices``."""
    base = view._base
    record(CopySlices, (base, *inputs[1:]), (base,), view_fn=view._view_fn, fn=node)
    view.grad_fn  # noqa: B018 - like torch, give the view its new grad_fn at once
    if output_name is not None and view.grad_fn is not None:
        # the version error names the view's grad_fn while that node is alive, as torch's
        node._saved[output_name].view_grad_fn = weakref.ref(view.grad_fn)


class Error(Node):
    """torch's ``DelayedError`` node (a grad_fn printed as ``<Error>``). It stands behind the
    result of a ``once_differentiable`` backward: differentiating that again is an error,
    raised only if someone actually tries."""

    def name(self) -> str:
        return "minigrad::autograd::Error"

    msg = ("trying to differentiate twice a function that was marked with "
           "@once_differentiable")  # or the message of the op that made it (scatter_reduce)

    def backward(self, *grads):
        raise RuntimeError(self.msg)
