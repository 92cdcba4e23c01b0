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
import inspect
import warnings

import numpy as np

from minigrad import _dtype
from minigrad._ops import _vmap_hook, subclass
from minigrad._ops._core import needs_grad
from minigrad._tensor import Tensor
from minigrad.autograd import forward_grad, grad_mode
from minigrad.autograd.graph import SECOND_BACKWARD, Node
from minigrad.autograd.special_nodes import Error, rebase_history
from minigrad.autograd.views import (
    IN_CUSTOM_FUNCTION,
    MULTI_OUTPUT_NODE,
    alias_of,
    check_view_rebase,
)


class FunctionCtx:
    """What ``forward`` can tell ``backward`` (and the engine) through ``ctx``."""

    def save_for_backward(self, *tensors) -> None:
        """Keep tensors for backward. They are checked against in-place changes, as the
        tensors a built-in op saves are; other values can simply be stored as attributes
        (``apply`` checks that only tensors and None were given, once forward is done)."""
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
    _non_tensor_outputs = ()
    saved_for_forward = ()
    dirty_tensors = ()
    non_differentiable = ()

    def __dir__(self):
        """Everything the node has, as dir() of torch's Python node of a custom Function shows
        its class's methods and the context's fields, less minigrad's own views (``_saved``,
        ``_metadata``)."""
        return sorted(set(object.__dir__(self)) - {"_saved", "_metadata"})

    def __init__(self, args):
        if _vmap_hook.active or _vmap_hook.transforms:
            _check_under_transforms(self._forward_cls)
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

    def release_variables(self) -> None:
        """Free what was saved; ``ctx.saved_tensors`` raises from now on even if nothing was
        saved, as torch's (its flag is set whatever the node kept)."""
        super().release_variables()
        self._released = True

    def _user_backward(self):
        """The Function's ``backward``, or its ``vjp``: torch's two names for one method (its
        docs' ``save_for_forward`` example defines ``vjp``); defining both is an error."""
        backward, vjp = self._forward_cls.backward, self._forward_cls.vjp
        if backward is not Function.backward and vjp is not Function.vjp:
            raise RuntimeError("Implementing both 'backward' and 'vjp' for a custom Function is "
                               "not allowed. You should only implement one of them.")
        return vjp if vjp is not Function.vjp else backward

    def apply(self, *grads):
        """Call the user's backward and check its answer the way torch does."""
        if self._non_tensor_outputs:  # backward gets None for them, never zeros
            grads = tuple(None if i in self._non_tensor_outputs else g
                          for i, g in enumerate(grads))
        result = self._user_backward()(self, *grads)
        result = result if isinstance(result, tuple) else (result,)
        n = len(self._is_tensor_arg)
        if len(result) > n and all(g is None for g in result[n:]):
            result = result[:n]  # torch allows extra trailing Nones
        if len(result) != n:
            raise RuntimeError(f"function {self.name()} returned an incorrect number of "
                               f"gradients (expected {n}, got {len(result)})")
        for i, (g, is_tensor) in enumerate(zip(result, self._is_tensor_arg)):
            if g is not None and not isinstance(g, Tensor):
                raise RuntimeError(f"expected Variable or None (got {type(g).__name__})")
            if g is not None and not is_tensor:
                raise RuntimeError(f"function {self.name()} returned a gradient different than "
                                   f"None at position {i + 1}, but the corresponding forward "
                                   "input was not a Variable")
        return tuple(g for g, is_tensor in zip(result, self._is_tensor_arg) if is_tensor)


def _check_under_transforms(cls) -> None:
    """torch's rules for a Function under torch.func's transforms (vmap, grad, jvp...): it
    must have the newer form (``setup_context``), and under vmap a batching rule (its
    ``vmap`` or ``generate_vmap_rule``, even for unbatched inputs), else torch's errors."""
    if cls.setup_context is Function.setup_context:
        raise RuntimeError(
            "In order to use an autograd.Function with functorch transforms (vmap, grad, jvp, "
            "jacrev, ...), it must override the setup_context staticmethod. For more details, "
            "please see https://pytorch.org/docs/main/notes/extending.func.html")
    if _vmap_hook.active and cls.vmap is not Function.vmap:
        # a batching rule of its own (often around NumPy code): minigrad does not call it, but
        # runs the whole vmapped function once per sample, which gives the rule's results
        raise _vmap_hook.Unbatchable
    if _vmap_hook.active and not cls.generate_vmap_rule:
        raise RuntimeError(
            f"You tried to vmap over {cls.__name__}, but it does not have vmap support. Please "
            "override and implement the vmap staticmethod or set generate_vmap_rule=True. For "
            "more details, please see https://pytorch.org/docs/main/notes/extending.func.html")


class Function:
    """Base class of custom operations. Call them with ``MyFn.apply(*args)``."""

    # under vmap, a Function needs a batching rule: its own ``vmap``, or this flag, with which
    # vmap runs it per sample (torch generates the rule from forward and setup_context)
    generate_vmap_rule = False

    def __init_subclass__(cls, **kwargs):
        super().__init_subclass__(**kwargs)
        cls._backward_cls = type(f"{cls.__name__}Backward", (BackwardCFunction,),
                                 {"_forward_cls": cls, "__module__": cls.__module__})

    def __init__(self, *args, **kwargs):
        warnings.warn(f"{self.__class__} should not be instantiated. Methods on autograd "
                      "functions are all static, so you should invoke them on the class itself. "
                      "Instantiating an autograd function will raise an error in a future "
                      "version of PyTorch.", DeprecationWarning, stacklevel=2)

    def __call__(self, *args, **kwargs):
        """The old style (an instance called, a forward that is not static): torch's error."""
        raise RuntimeError("Legacy autograd function with non-static forward method is "
                           "deprecated. Please use new-style autograd function with static "
                           "forward method. (Example: https://pytorch.org/docs/stable/"
                           "autograd.html#torch.autograd.Function)")

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

    @staticmethod
    def vmap(info, in_dims, *args):
        """A batching rule of the Function's own (under vmap, minigrad runs it per sample)."""
        raise NotImplementedError("To use autograd.Function with vmap, you must either "
                                  "override the vmap staticmethod or set "
                                  "generate_vmap_rule=True.")

    @classmethod
    def apply(cls, *args, **kwargs):
        if kwargs:  # as positional arguments: they are the node's inputs too
            args = _bind(cls, args, kwargs)
        ctx = cls._backward_cls(args)
        # forward runs with grad mode and forward AD off: its own ops record nothing
        with grad_mode.no_grad(), forward_grad._Off():
            if cls.setup_context is Function.setup_context:
                outputs = cls.forward(ctx, *args)
                setup_context = False
            else:  # the newer style: forward without ctx, then setup_context
                outputs = cls.forward(*args)
                cls.setup_context(ctx, args, outputs)
                setup_context = True
        is_tuple = isinstance(outputs, tuple)
        outputs = outputs if is_tuple else (outputs,)
        differentiable = needs_grad(args)
        if differentiable:  # torch checks what was saved only when a graph is recorded
            for i, t in enumerate(ctx.to_save):
                if t is not None and not isinstance(t, Tensor):
                    raise TypeError(f"save_for_backward can only save variables, but argument "
                                    f"{i} is of type {type(t).__name__}")
        saved_ids = set()
        if setup_context:  # what setup_context saved: an input returned as-is may not be
            saved_ids = {id(t) for t in (*ctx.to_save, *ctx.saved_for_forward)
                         if isinstance(t, Tensor)}
        outputs = _wrap_outputs(ctx, args, outputs, differentiable, saved_ids)
        if forward_grad._state.level is not None:
            _function_jvp(cls, ctx, args, outputs)
            _alias_tangents(ctx, args, outputs)
        if differentiable:
            _save(ctx, outputs)
        return outputs if is_tuple else outputs[0]


def _bind(cls, args, kwargs) -> tuple:
    """``apply``'s keyword arguments placed by ``forward``'s parameter names, as torch places
    them: with a ``setup_context``, every default filled in (``inspect``'s binding); without,
    up to the last keyword given, with no gap and no keyword-only parameter."""
    signature = inspect.signature(cls.forward)
    if cls.setup_context is not Function.setup_context:
        bound = signature.bind(*args, **kwargs)
        bound.apply_defaults()
        return bound.args
    kinds = (inspect.Parameter.POSITIONAL_ONLY, inspect.Parameter.POSITIONAL_OR_KEYWORD)
    names = [p.name for p in list(signature.parameters.values())[1:] if p.kind in kinds]
    for name in kwargs:
        if name not in names:
            raise TypeError(f"forward() got an unexpected keyword argument '{name}'")
        if names.index(name) < len(args):
            raise TypeError(f"forward() got multiple values for argument '{name}'")
    placed = list(args)
    for i in range(len(args), max(names.index(name) for name in kwargs) + 1):
        if names[i] not in kwargs:
            raise TypeError(f"forward() missing required argument: '{names[i]}' (position {i})")
        placed.append(kwargs[names[i]])
    return tuple(placed)


RETURNED_AS_IS_SAVED = (
    "An input that has been returned as-is as output is being saved for backward. This is not "
    "supported if you override setup_context. You should return and save a view of the input "
    "instead, e.g. with x.view_as(x) or setup ctx inside the forward function itself.")


def _wrap_outputs(ctx, args, outputs, differentiable, saved_ids):
    """Make each tensor output an output of ``ctx``, as torch's ``_process_backward_mode_ad``:
    a returned input becomes a new view of it, an input changed in place (``mark_dirty``)
    gets the node as its new history, a non-differentiable output gets none."""
    inputs = {id(a): k for k, a in enumerate(a for a in args if isinstance(a, Tensor))}
    dirty = {id(t) for t in ctx.dirty_tensors}
    for t in ctx.dirty_tensors:  # torch bumps them on top of the in-place op's own bump
        t._bump_version()
    non_diff = {id(t) for t in ctx.non_differentiable}
    ctx._raw_outputs = {id(o): i for i, o in enumerate(outputs)}
    wrapped = []
    num_diff = 0
    for i, out in enumerate(outputs):
        if not isinstance(out, Tensor):
            wrapped.append(out)
            continue
        is_input, is_modified = id(out) in inputs, id(out) in dirty
        is_diff = differentiable and id(out) not in non_diff and out.dtype.is_floating_point
        if not is_diff:
            if not out.requires_grad:
                if is_input and not is_modified:
                    if id(out) in saved_ids:
                        raise RuntimeError(RETURNED_AS_IS_SAVED)
                    out = _alias_of_input(out)
            elif is_input:  # a detached alias, rather than changing the input; of a learner's
                # subclass, a plain tensor, as torch's C++ detach gives (no dispatch)
                out = Tensor.detach(out) if out._learner_subclass else out.detach()
            elif out._base is None:
                out.detach_()
        elif is_modified:
            _check_dirty(out, is_input, len(outputs))
            if out._base is not None:
                _rebase_view(out, ctx)
            else:
                out._attach(ctx, i)
                out._view_version = out._version
        else:
            if is_input:
                if id(out) in saved_ids:
                    raise RuntimeError(RETURNED_AS_IS_SAVED)
                out = _alias_of_input(out)
            out._attach(ctx, i)
            out._view_version = out._version
        if not (is_input and is_modified) and out._base is not None:
            out._creation_meta = IN_CUSTOM_FUNCTION  # CopySlices would bypass the backward
        num_diff += is_diff
        wrapped.append(out)
    if num_diff > 1:  # several differentiable outputs: none of their views may change in place
        for out in wrapped:
            if isinstance(out, Tensor) and out._base is not None:
                out._creation_meta = MULTI_OUTPUT_NODE
    returned = {id(o) for o in outputs}
    if any(id(t) not in returned for t in ctx.dirty_tensors):
        raise RuntimeError("Some elements marked as dirty during the forward method were not "
                           "returned as output. The inputs that are modified inplace must all "
                           "be outputs of the Function.")
    if differentiable:
        ctx._num_outputs = len(outputs)
        ctx._non_tensor_outputs = tuple(i for i, o in enumerate(outputs)
                                        if not isinstance(o, Tensor))
        ctx._output_meta = [(o._data.shape, o._data.dtype) if isinstance(o, Tensor)
                            else ((), _dtype.get_default_dtype().numpy) for o in wrapped]
    return tuple(wrapped)


def _rebase_view(view, ctx) -> None:
    """A view changed in place: like any in-place op on a view, the base's history becomes
    CopySlices around this node. Its edges are the base's, then the node's own but the first
    (torch takes the view to be input 0), as the node saw them before the change."""
    rebase_history(view, ctx, [view])
    copy_slices = view._base._grad_fn
    copy_slices._next_nodes += ctx._next_nodes[1:]
    copy_slices._next_nrs += ctx._next_nrs[1:]
    copy_slices._input_meta += ctx._input_meta[1:]
    copy_slices.needs_input_grad = tuple(m is not None for m in copy_slices._input_meta)


def _check_dirty(t, is_input, num_outputs) -> None:
    """torch's checks on a differentiable tensor marked dirty: not a leaf that requires grad,
    an input (else a warning), and not a view when the Function has several outputs."""
    if t._grad_fn is None and t._requires_grad and t._base is None:
        raise RuntimeError("a leaf Variable that requires grad has been used in an in-place "
                           "operation.")
    if not is_input:
        warnings.warn("ctx.mark_dirty() received a tensor that was not an input. Only input "
                      "Tensors that have been mutated should be passed to ctx.mark_dirty().",
                      stacklevel=4)
    if t._base is not None:
        if num_outputs > 1:
            raise RuntimeError(
                "If your Function modifies inplace an input that is a view of another Tensor, "
                "your Function cannot return more than one Tensor. This is not supported by "
                "the current autograd engine. You should either make sure the input is not a "
                "view (using .clone() for example) or make your Function only return one "
                "Tensor (potentially splitting it into two Functions: one doing the inplace "
                "that returns a single Tensor and a second one that does the other "
                "operations). You can ask on the forum https://discuss.pytorch.org/ if you "
                "need help to do this change.")
        check_view_rebase(t)  # torch's check_inplace, for a view
        if t._base._grad_fn is None and t._base._requires_grad:
            raise RuntimeError("a view of a leaf Variable that requires grad is being used in "
                               "an in-place operation.")
    t._grad = None  # torch resets the gradient of the tensor whose history is replaced


def _alias_of_input(t):
    """``alias_of(t)`` for an input returned as-is, of the input's class when that is a
    learner's subclass, as torch's (a Parameter's is a plain tensor)."""
    out = alias_of(t)
    return subclass.retyped(out, type(t)) if t._learner_subclass else out


def _alias_tangents(ctx, args, outputs) -> None:
    """A view of an input made by ``forward`` (or the input returned as-is) that got no
    tangent from ``jvp`` (a non-differentiable output, or one after torch's early stop)
    still shows its input's tangent: torch's views read their tangent through their base."""
    inputs = [a for a in args if isinstance(a, Tensor)]
    for out in outputs:
        if (not isinstance(out, Tensor) or out._base is None
                or forward_grad.tangent_of(out) is not None):
            continue
        for a in inputs:
            tangent = forward_grad.tangent_of(a)
            if tangent is None or (a._base if a._base is not None else a) is not out._base:
                continue
            with forward_grad._Off():
                if a._base is None:
                    base_tangent = tangent
                else:  # the input's tangent, written into its place in a base-sized tangent
                    base_tangent = a._base.new_zeros(a._base.shape)
                    a._view_fn(base_tangent).copy_(tangent)
                tangent = out._view_fn(base_tangent)
            forward_grad.set_tangent(out, tangent)
            break


def _function_jvp(cls, ctx, args, outputs) -> None:
    """A custom Function under forward AD: its ``jvp`` gives the output tangents, checked as
    torch's ``_process_forward_mode_AD`` checks them."""
    tensor_args = [a for a in args if isinstance(a, Tensor)]
    given = [forward_grad.tangent_of(a) for a in tensor_args]
    if all(t is None for t in given):
        return
    versions = [None if t is None else t._version for t in given]
    tangents, n = [], 0
    for a in args:  # one per argument: None for a non-tensor, zeros for a missing tangent
        if not isinstance(a, Tensor):
            tangents.append(None)
            continue
        t = given[n]
        if t is None and ctx.materialize_grads and a.dtype.is_floating_point:
            with forward_grad._Off():
                t = a.new_zeros(a.shape)
        tangents.append(t)
        n += 1
    ctx._in_jvp = True
    try:
        with forward_grad._Off():
            result = cls.jvp(ctx, *tangents)
    finally:
        ctx._in_jvp = False
    result = result if isinstance(result, tuple) else (result,)
    for i, r in enumerate(result):
        if r is not None and not isinstance(r, Tensor):
            raise RuntimeError(f"expected Variable or None (got {type(r).__name__}) for "
                               f"grad output {i}.")
    if len(result) != len(outputs):
        raise RuntimeError(f"Function's jvp returned an invalid number of forward gradients "
                           f"(expected {len(outputs)} but got {len(result)})")
    raw = {i: o for o, i in ctx._raw_outputs.items()}  # output number -> id of raw output
    inputs = {id(a): k for k, a in enumerate(tensor_args)}
    dirty = {id(t) for t in ctx.dirty_tensors}
    non_diff = {id(t) for t in ctx.non_differentiable}
    bases = {id(a._base if a._base is not None else a): k for k, a in enumerate(tensor_args)}
    for i, (out, t) in enumerate(zip(outputs, result)):
        if not isinstance(out, Tensor):
            continue
        is_diff = raw[i] not in non_diff and out.dtype.is_floating_point
        if not is_diff:
            if t is not None:
                raise RuntimeError(f"Function's jvp returned a gradient at position {i}, but  "
                                   "the corresponding forward output is not a differentiable "
                                   "Tensor.You should return None at that position instead.")
            continue
        if raw[i] in dirty:
            k = inputs.get(raw[i])
            if k is None:
                raise RuntimeError("Only input Tensors should be given to ctx.mark_dirty(). If "
                                   "a Tensor is not an input, there is no need to pass it to "
                                   "mark_dirty().")
            if given[k] is not None:
                if t is None or t._version == versions[k]:
                    raise RuntimeError(
                        "An inplace custom Function is not modifying the forward mode "
                        "gradients inplace. If the forward is modifying an input inplace, then "
                        "the jvp function must modify the corresponding gradient inplace.")
                if t is not given[k]:
                    raise RuntimeError(
                        "An inplace custom Function is not returning the forward mode "
                        "gradients as-is. If the forward is modifying an input inplace, then "
                        "the jvp function must modify the gradient inplace and return it "
                        "as-is.")
            elif t is not None:
                _set_tangent_inplace(out, t)
            continue
        if out._base is not None and id(out._base) in bases:
            k = bases[id(out._base)]
            if given[k] is None:  # torch takes it as an in-place op, and stops there
                if t is not None:
                    _set_tangent_inplace(out, t)
                return
            if t is None or t._base is None:
                raise RuntimeError("A custom Function's forward is returning a view (or an "
                                   "input as-is) but the jvp is not returning a view.")
            wanted = given[k]._base if given[k]._base is not None else given[k]
            if t._base is not wanted:
                raise RuntimeError(
                    "A custom Function is returning a view but the jvp is not returning a view "
                    "of the same base as the given grad input." if given[k]._base is not None
                    else "A custom Function is returning a view but the jvp is not returning "
                    "a view of the given grad input.")
        if t is not None:
            forward_grad.set_tangent(out, t)


def _set_tangent_inplace(out, tangent) -> None:
    """Give ``out`` its tangent as an in-place op would: a view's tangent is a view of its
    base's (made zero first if the base had none), so the base's tangent changes too."""
    if out._base is None:
        forward_grad.set_tangent(out, tangent)
        return
    current = forward_grad._view_of_base_tangent(out)
    current._data[...] = tangent._data


def _save(ctx, outputs) -> None:
    """Turn ``ctx.to_save`` into checked saved tensors, now that the outputs are known."""
    ctx._num_saved = len(ctx.to_save)
    for i, t in enumerate(ctx.to_save):
        if t is None:
            continue
        nr = ctx._raw_outputs.get(id(t))
        # torch's test is "one of the outputs itself": an input returned as-is became a new
        # tensor (its alias), so the input saved is the input. A saved output comes back as
        # an output of this node (even a view changed in place, whose grad_fn is not), unless
        # it had no history at all (a non-differentiable output).
        if nr is not None and outputs[nr] is t and not t.is_leaf:
            ctx.save_output(str(i), outputs[nr], nr)
        else:
            ctx.save({str(i): t})
    ctx.to_save = ()


class InplaceFunction(Function):
    """torch keeps this for backward compatibility (a Function with an ``inplace`` flag);
    write a plain Function instead."""

    def __init__(self, inplace=False):
        super().__init__()
        self.inplace = inplace


def once_differentiable(fn):
    """Mark a backward whose formula is not itself differentiable (it uses NumPy, say).

    It runs under ``no_grad``. Under ``create_graph``, when a gradient it received requires
    grad, its results come out of one ``Error`` node (torch's ``DelayedError``) that raises
    if a backward runs it, instead of silently giving a zero. As in torch, that node's
    inputs are fresh leaves (detached copies of the results), not the graph the results came
    from: ``autograd.grad`` asked for the Function's inputs never reaches it (their gradient
    is None), while ``.backward()``, which runs every node that leads to a leaf, does.
    """

    @functools.wraps(fn)
    def wrapper(ctx, *grads):
        with grad_mode.no_grad():
            outputs = fn(ctx, *grads)
        if not grad_mode.is_grad_enabled():
            return outputs
        if not any(isinstance(g, Tensor) and g.requires_grad for g in grads):
            return outputs
        single = not isinstance(outputs, tuple)
        outputs = (outputs,) if single else outputs
        # torch's fake_requires_grad: each result, detached, as a leaf that requires grad; a
        # None gives the node an edge to nothing
        leaves = [_fake_requires_grad(o) if isinstance(o, Tensor) else _NO_INPUT
                  for o in outputs]
        node = Error(leaves)
        node._num_outputs = len(outputs)
        node._output_meta = [(o._data.shape, o._data.dtype) if isinstance(o, Tensor)
                             else ((), np.dtype(np.float64)) for o in outputs]
        wrapped = []
        for i, o in enumerate(outputs):
            if isinstance(o, Tensor):
                o = type(o)._make(o._data)  # the same memory, a version counter of its own
                o._attach(node, i)
            wrapped.append(o)
        return wrapped[0] if single else tuple(wrapped)

    return wrapper


def _fake_requires_grad(t):
    """torch's ``fake_requires_grad``: detached, then ``requires_grad = True`` (whose error
    for an integer tensor is the attribute's, not ``requires_grad_()``'s)."""
    leaf = t.detach()
    leaf.requires_grad = True
    return leaf


# what stands for a None result of a once_differentiable backward among the Error node's
# inputs: a constant, so its edge is (None, 0), as torch's for an undefined tensor
_NO_INPUT = Tensor._make(np.zeros(0))
