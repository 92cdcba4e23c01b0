"""Custom autograd Functions: your own forward, your own backward, one node in the graph.

Subclass ``Function``, write ``forward(ctx, *args)`` and ``backward(ctx, *grads)`` as static
methods, and call ``MyFn.apply(*args)``. What ``apply`` does is what every built-in operation
does through ``_ops/_core.record``, spelled out:

1. run ``forward`` with grad mode off, so the ops inside it leave no graph of their own;
2. if grad mode is on and some tensor argument requires grad, create one node of the class
   ``<MyFn>Backward`` (made for you when you subclass), link it to the tensor arguments' nodes
   and make it the ``grad_fn`` of the outputs.

The node *is* the ``ctx`` that ``forward`` received, as in torch: whatever you stored on it
(``save_for_backward``, plain attributes) is there when the engine calls ``backward``.
``backward`` returns one gradient per ``forward`` argument; ``None`` where none is needed.
"""

from __future__ import annotations

import functools

from minigrad import _dtype
from minigrad._ops._core import needs_grad
from minigrad._tensor import Tensor
from minigrad.autograd import forward_grad, grad_mode, graph
from minigrad.autograd.graph import SECOND_BACKWARD, Node
from minigrad.autograd.special_nodes import Error, rebase_history
from minigrad.autograd.views import IN_CUSTOM_FUNCTION, alias_of, check_view_rebase


class FunctionCtx:
    """What ``forward`` can tell ``backward`` (and the engine) through ``ctx``."""

    def save_for_backward(self, *tensors) -> None:
        """Keep tensors for backward. They are checked against in-place changes, as the
        tensors a built-in op saves are; other values can simply be stored as attributes."""
        for i, t in enumerate(tensors):
            if t is not None and not isinstance(t, Tensor):
                raise TypeError(f"save_for_backward can only save variables, but argument {i} "
                                f"is of type {type(t).__name__}")
        self.to_save = tensors

    def save_for_forward(self, *tensors) -> None:
        """Keep tensors for ``jvp`` (forward mode), where ``ctx.saved_tensors`` returns them."""
        self.saved_for_forward = tensors

    def mark_dirty(self, *tensors) -> None:
        """Declare arguments that ``forward`` modified in place: they become outputs."""
        self.dirty_tensors = tensors

    def mark_non_differentiable(self, *tensors) -> None:
        """Declare outputs that get no gradient (indices, masks): requires_grad=False."""
        self.non_differentiable = tensors

    def set_materialize_grads(self, value: bool) -> None:
        """With False, ``backward`` gets ``None`` (not zeros) for outputs that got no gradient."""
        self.materialize_grads = value


class BackwardCFunction(FunctionCtx, Node):
    """The node of a custom Function; ``<MyFn>Backward`` subclasses it, one per Function."""

    _forward_cls = None
    materialize_grads = True
    to_save = ()
    _num_saved = 0
    _in_jvp = False
    saved_for_forward = ()
    dirty_tensors = ()
    non_differentiable = ()

    def __init__(self, args):
        self._is_tensor_arg = tuple(isinstance(a, Tensor) for a in args)
        super().__init__([a for a in args if isinstance(a, Tensor)])
        needs = iter(self.needs_input_grad)
        # torch's ctx.needs_input_grad has one entry per forward argument
        self.needs_input_grad = tuple(next(needs) if t else False for t in self._is_tensor_arg)

    def __repr__(self) -> str:
        return f"<minigrad.autograd.function.{type(self).__name__} object at {id(self):#x}>"

    @property
    def saved_tensors(self):
        """The tensors given to ``save_for_backward``, after the version check."""
        if self._in_jvp:
            return tuple(self.saved_for_forward)
        if self._released:
            raise RuntimeError(SECOND_BACKWARD)
        return tuple(self.saved(str(i)) if self._find_saved(str(i)) is not None else None
                     for i in range(self._num_saved))

    def apply(self, *grads):
        """Call the user's backward and check its answer the way torch does."""
        result = self._forward_cls.backward(self, *grads)
        result = result if isinstance(result, tuple) else (result,)
        n = len(self._is_tensor_arg)
        if len(result) > n and all(g is None for g in result[n:]):
            result = result[:n]  # torch allows extra trailing Nones
        if len(result) != n:
            raise RuntimeError(f"function {self.name()} returned an incorrect number of "
                               f"gradients (expected {n}, got {len(result)})")
        for i, (g, is_tensor) in enumerate(zip(result, self._is_tensor_arg)):
            if g is not None and not is_tensor:
                raise RuntimeError(f"function {self.name()} returned a gradient different than "
                                   f"None at position {i + 1}, but the corresponding forward "
                                   "input was not a Variable")
        return tuple(g for g, is_tensor in zip(result, self._is_tensor_arg) if is_tensor)


class Function:
    """Base class of custom operations. Call them with ``MyFn.apply(*args)``."""

    def __init_subclass__(cls, **kwargs):
        super().__init_subclass__(**kwargs)
        cls._backward_cls = type(f"{cls.__name__}Backward", (BackwardCFunction,),
                                 {"_forward_cls": cls, "__module__": cls.__module__})

    @staticmethod
    def forward(ctx, *args):
        raise NotImplementedError("You must implement the forward function for custom "
                                  "autograd.Function.")

    @staticmethod
    def backward(ctx, *grads):
        raise NotImplementedError("You must implement either the backward or vjp method for "
                                  "your custom autograd.Function to use it with backward mode "
                                  "AD.")

    @staticmethod
    def jvp(ctx, *tangents):
        raise NotImplementedError("You must implement the jvp function for custom "
                                  "autograd.Function to use it with forward mode AD.")

    vjp = backward

    @staticmethod
    def setup_context(ctx, inputs, output):
        """Override to fill ``ctx`` separately; ``forward`` then takes no ``ctx``."""

    @classmethod
    def apply(cls, *args):
        ctx = cls._backward_cls(args)
        with grad_mode.no_grad():
            if cls.setup_context is Function.setup_context:
                outputs = cls.forward(ctx, *args)
            else:  # the newer style: forward without ctx, then setup_context
                outputs = cls.forward(*args)
                cls.setup_context(ctx, args, outputs)
        is_tuple = isinstance(outputs, tuple)
        outputs = outputs if is_tuple else (outputs,)
        differentiable = needs_grad(args)
        outputs = _wrap_outputs(ctx, args, outputs, differentiable)
        if forward_grad._state.level is not None:
            _function_jvp(cls, ctx, args, outputs)
        if differentiable:
            _save(ctx, outputs)
        return outputs if is_tuple else outputs[0]


def _wrap_outputs(ctx, args, outputs, differentiable):
    """Make each tensor output an output of ``ctx``; returned inputs become new views."""
    inputs = {id(a) for a in args if isinstance(a, Tensor)}
    dirty = {id(t) for t in ctx.dirty_tensors}
    non_diff = {id(t) for t in ctx.non_differentiable}
    ctx._raw_outputs = {id(o): i for i, o in enumerate(outputs)}
    wrapped = []
    for i, out in enumerate(outputs):
        if not isinstance(out, Tensor):
            wrapped.append(out)
            continue
        if id(out) in dirty:
            _check_dirty(out, differentiable)
        else:
            if id(out) in inputs:
                out = alias_of(out)
            if out._base is not None:  # CopySlices would bypass the custom backward
                out._creation_meta = IN_CUSTOM_FUNCTION
        if differentiable and id(outputs[i]) not in non_diff and out.dtype.is_floating_point:
            if id(out) in dirty and out._base is not None:
                # a view changed in place: like any in-place op on a view, the base's history
                # becomes CopySlices around this node (which reads the view as input 0)
                rebase_history(out, ctx, [a for a in args if isinstance(a, Tensor)])
            else:
                out._attach(ctx, i)
                out._view_version = out._version
        wrapped.append(out)
    if differentiable:
        ctx._num_outputs = len(outputs)
        ctx._output_meta = [(o._data.shape, o._data.dtype) if isinstance(o, Tensor)
                            else ((), _dtype.get_default_dtype().numpy) for o in wrapped]
    return tuple(wrapped)


def _check_dirty(t, differentiable) -> None:
    """A dirty tensor was changed in place: bump its version (torch does, on top of the
    bump from the in-place op itself) and refuse a leaf that requires grad."""
    t._bump_version()
    if differentiable and t._grad_fn is None and t._requires_grad:
        raise RuntimeError("a leaf Variable that requires grad has been used in an in-place "
                           "operation.")
    if differentiable and t._base is not None:  # torch's check_inplace, for a view
        check_view_rebase(t)
        if t._base._grad_fn is None and t._base._requires_grad:
            raise RuntimeError("a view of a leaf Variable that requires grad is being used in "
                               "an in-place operation.")


def _function_jvp(cls, ctx, args, outputs) -> None:
    """A custom Function under forward AD: its ``jvp`` gives the output tangents."""
    tangents = [forward_grad.tangent_of(a) if isinstance(a, Tensor) else None for a in args]
    if all(t is None for t in tangents):
        return
    ctx._in_jvp = True
    try:
        with forward_grad._Off():
            result = cls.jvp(ctx, *tangents)
    finally:
        ctx._in_jvp = False
    result = result if isinstance(result, tuple) else (result,)
    for out, t in zip(outputs, result):
        if isinstance(out, Tensor) and t is not None:
            forward_grad.set_tangent(out, t)


def _save(ctx, outputs) -> None:
    """Turn ``ctx.to_save`` into checked saved tensors, now that the outputs are known."""
    ctx._num_saved = len(ctx.to_save)
    for i, t in enumerate(ctx.to_save):
        if t is None:
            continue
        nr = ctx._raw_outputs.get(id(t))
        if nr is not None and outputs[nr].grad_fn is ctx:
            ctx.save_output(str(i), outputs[nr], nr)
        else:
            ctx.save({str(i): t})
    ctx.to_save = ()


def once_differentiable(fn):
    """Mark a backward whose formula is not itself differentiable (it uses NumPy, say).

    It runs under ``no_grad``; under ``create_graph`` its results are tied to a node that
    raises if a second backward reaches it, instead of silently giving a zero.
    """

    @functools.wraps(fn)
    def wrapper(ctx, *grads):
        with grad_mode.no_grad():
            outputs = fn(ctx, *grads)
        if not grad_mode.is_grad_enabled():
            return outputs
        needing = [g for g in grads if isinstance(g, Tensor) and g.requires_grad]
        if not needing:
            return outputs
        single = not isinstance(outputs, tuple)
        wrapped = []
        for o in (outputs,) if single else outputs:
            if isinstance(o, Tensor):
                o = o.detach()
                graph.record(Error, needing, (o,))
            wrapped.append(o)
        return wrapped[0] if single else tuple(wrapped)

    return wrapper
