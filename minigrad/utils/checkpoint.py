"""Activation checkpointing (``torch.utils.checkpoint``): trade compute for memory.

``checkpoint(fn, *args)`` runs ``fn`` without keeping the tensors its ops would save for
backward, and runs ``fn`` a second time during backward to get them back. Two ways to do
it, as torch has:

* ``use_reentrant=True`` (torch's default, with a warning when not chosen explicitly): a
  custom ``Function`` (its node is ``CheckpointFunctionBackward``) runs ``fn`` under
  ``no_grad``; its ``backward`` re-runs ``fn`` with grad on and calls the engine again
  (re-entrantly) on that small graph. Gradients reach only the tensor *arguments*, so
  ``autograd.grad`` and ``backward(inputs=...)`` are refused.
* ``use_reentrant=False``: ``fn`` runs normally, so the graph is the real one, but inside a
  ``saved_tensors_hooks`` block whose pack hook keeps a placeholder instead of each saved
  tensor. The first unpack in a backward pass re-runs ``fn`` (under a second pair of hooks
  that catch the recomputed tensors in the same order) and hands back the matching one.
  It works with ``autograd.grad``, nesting and keyword arguments.

Random ops inside ``fn`` (dropout) must draw the same numbers both times: with
``preserve_rng_state`` the generator's state is saved before the forward and restored for
the recomputation, then the surrounding state is put back.
"""

from __future__ import annotations

import contextlib
import itertools
import warnings
import weakref
from collections import defaultdict

from minigrad import _creation, _left_out
from minigrad._tensor import Tensor
from minigrad.autograd import api, engine, grad_mode
from minigrad.autograd.function import Function
from minigrad.autograd.graph import SavedTensor, saved_tensors_hooks
from minigrad.nn import Sequential

__all__ = ["checkpoint", "checkpoint_sequential", "CheckpointError", "CheckpointFunction",
           "detach_variable", "set_checkpoint_debug_enabled",
           "set_checkpoint_early_stop"]

_DEFAULT_DETERMINISM_MODE = "default"
_enable_checkpoint_early_stop = None


class CheckpointError(RuntimeError):
    """A recomputation that saved different tensors than the original forward."""


def detach_variable(inputs):
    """Each tensor of the tuple ``inputs`` detached, keeping its ``requires_grad``."""
    if not isinstance(inputs, tuple):
        raise RuntimeError("Only tuple of tensors is supported. Got Unsupported input type: "
                           f"{type(inputs).__name__}")
    out = []
    for inp in inputs:
        if isinstance(inp, Tensor):
            x = inp.detach()
            x.requires_grad = inp.requires_grad
            inp = x
        out.append(inp)
    return tuple(out)


def check_backward_validity(inputs) -> None:
    if not any(inp.requires_grad for inp in inputs if isinstance(inp, Tensor)):
        warnings.warn("None of the inputs have requires_grad=True. Gradients will be None",
                      stacklevel=2)


@contextlib.contextmanager
def _replayed_rng(state, enabled: bool):
    """Run the block with the generator at ``state``, then restore the state it had before
    (torch's ``fork_rng`` followed by ``set_rng_state``)."""
    if not enabled:
        yield
        return
    outer = _creation.get_rng_state()
    _creation.set_rng_state(state)
    try:
        yield
    finally:
        _creation.set_rng_state(outer)


def _is_checkpoint_valid() -> bool:
    """False inside a backward pass that only wants some gradients (``autograd.grad`` or
    ``backward(inputs=...)``): the reentrant checkpoint cannot honour that."""
    return all(task.inputs is None for task in engine.running)


# --- use_reentrant=True ------------------------------------------------------------------
class CheckpointFunction(Function):
    @staticmethod
    def forward(ctx, run_function, preserve_rng_state, *args):
        check_backward_validity(args)
        ctx.run_function = run_function
        ctx.preserve_rng_state = preserve_rng_state
        if preserve_rng_state:
            ctx.fwd_cpu_state = _creation.get_rng_state()
        # the tensors are saved (checked against in-place changes), other arguments kept
        ctx.inputs = [None if isinstance(a, Tensor) else a for a in args]
        ctx.tensor_indices = [i for i, a in enumerate(args) if isinstance(a, Tensor)]
        ctx.save_for_backward(*(a for a in args if isinstance(a, Tensor)))
        with grad_mode.no_grad():
            return run_function(*args)

    @staticmethod
    def backward(ctx, *args):
        if not _is_checkpoint_valid():
            raise RuntimeError(
                "When use_reentrant=True, torch.utils.checkpoint is incompatible with .grad() "
                "or passing an `inputs` parameter to .backward(). To resolve this error, you "
                "can either set use_reentrant=False, or call .backward() without passing the "
                "`inputs` argument.")
        inputs = list(ctx.inputs)
        for idx, t in zip(ctx.tensor_indices, ctx.saved_tensors):
            inputs[idx] = t
        with _replayed_rng(getattr(ctx, "fwd_cpu_state", None), ctx.preserve_rng_state):
            detached = detach_variable(tuple(inputs))
            with grad_mode.enable_grad():
                outputs = ctx.run_function(*detached)
        if isinstance(outputs, Tensor):
            outputs = (outputs,)
        pairs = [(o, g) for o, g in zip(outputs, args)
                 if isinstance(o, Tensor) and o.requires_grad]
        if not pairs:
            raise RuntimeError("none of output has requires_grad=True, this checkpoint() is "
                               "not necessary")
        api.backward([o for o, _ in pairs], [g for _, g in pairs])
        grads = tuple(inp.grad if isinstance(inp, Tensor) else None for inp in detached)
        return (None, None) + grads


# --- use_reentrant=False -----------------------------------------------------------------
class _Holder:
    """What the forward keeps in place of a saved tensor: per backward pass (graph task),
    the handle under which the recomputed tensor waits."""

    def __init__(self):
        self.handles = {}


class _Handle:
    pass


class _StopRecomputationError(Exception):
    """Raised from the recomputation's pack hook once every needed tensor is back."""


def _default_meta(x):
    return {"shape": x.shape, "dtype": x.dtype, "device": x.device}


_METADATA_FNS = {_DEFAULT_DETERMINISM_MODE: _default_meta, "none": lambda _: None}

_DEBUG_TIP = (
    "\nTip: To see a more detailed error message, either pass `debug=True` to\n"
    "`torch.utils.checkpoint.checkpoint(...)` or wrap the code block\n"
    "with `with torch.utils.checkpoint.set_checkpoint_debug_enabled(True):` to\n"
    "enable checkpoint\u2011debug mode globally.\n\n"
    "If this error occurs under torch.compile with automatic_dynamic_shapes enabled,\n"
    "it may be because the recomputation selected a different compiled graph than the\n"
    "forward pass (e.g., a dynamic graph instead of the original static graph).\n"
    "To fix this, either:\n"
    "  - Use torch._dynamo.mark_dynamic() to explicitly mark varying dimensions as\n"
    "    dynamic upfront, avoiding the static-to-dynamic transition.\n"
    "  - Call torch._C._dynamo.eval_frame._set_lru_cache(False) to disable LRU cache\n"
    "    reordering, which can change which graph is checked first between forward\n"
    "    and recompute.\n"
    "See https://github.com/pytorch/pytorch/issues/166926 for more details and\n"
    "workaround examples.\n")


class _Frame:
    """One checkpointed call: its inputs, a weak reference to each placeholder (in the order
    the forward saved them), and per graph task the tensors recomputed for them."""

    def __init__(self, recompute_fn, early_stop, metadata_fn):
        self.recompute_fn = recompute_fn
        self.early_stop = early_stop
        self.metadata_fn = metadata_fn
        self.saved_args = []
        self.weak_holders = []
        self.x_metadatas = []
        self.recomputed = defaultdict(weakref.WeakKeyDictionary)
        self.recomp_counter = defaultdict(int)
        self.is_recomputed = defaultdict(bool)
        self.forward_completed = False
        self.ignore_saved_mismatch = False

    def save_inputs(self, args) -> None:
        """Keep the call's tensor arguments as saved tensors, as torch's frame does: a
        saved-tensor hook active around ``checkpoint`` sees them (and packs them) like any
        saved input, and unpacking checks their versions."""
        self.saved_args = [SavedTensor(a) if isinstance(a, Tensor) else a for a in args]

    def get_inputs(self) -> list:
        return [a.unpack(None) if isinstance(a, SavedTensor) else a for a in self.saved_args]

    def check_recomputed_tensors_match(self, gid) -> None:
        if self.ignore_saved_mismatch:
            return
        if len(self.weak_holders) != self.recomp_counter[gid]:
            raise CheckpointError(
                "torch.utils.checkpoint: A different number of tensors was saved during the "
                "original forward and recomputation.\n"
                f"Number of tensors saved during forward: {len(self.weak_holders)}\n"
                f"Number of tensors saved during recomputation: {self.recomp_counter[gid]}.\n"
                f"{_DEBUG_TIP}")
        different = []
        for idx, ref in enumerate(self.weak_holders):
            holder = ref()
            if holder is None:
                continue
            meta = self.metadata_fn(self.recomputed[gid][holder.handles[gid]])
            if self.x_metadatas[idx] != meta:
                different.append(f"tensor at position {idx}:\nsaved metadata: "
                                 f"{self.x_metadatas[idx]}\nrecomputed metadata: {meta}\n")
        if different:
            raise CheckpointError(
                "torch.utils.checkpoint: Recomputed values for the following tensors have "
                "different metadata than during the forward pass.\n"
                f"{''.join(different)}.\n{_DEBUG_TIP}")


_fresh_ids = itertools.count()


def _current_graph_task_id():
    """The running backward pass (its GraphTask's id), or a fresh id outside one."""
    if engine.running:
        return engine.running[-1].id
    return ("outside backward", next(_fresh_ids))


class _recomputation_hook(saved_tensors_hooks):  # noqa: N801 - torch's name
    """During recomputation: each saved tensor is stored for the placeholder at the same
    position of the original forward."""

    def __init__(self, frame_ref, gid):
        def pack_hook(x):
            x = x.detach() if x.requires_grad else x
            frame = frame_ref()
            idx = frame.recomp_counter[gid]
            frame.recomp_counter[gid] += 1
            if idx >= len(frame.weak_holders):
                if not frame.forward_completed:  # a backward inside the checkpointed forward
                    frame.ignore_saved_mismatch = True
                    return x
                raise CheckpointError(
                    "torch.utils.checkpoint: trying to save more tensors during recomputation "
                    f"than during the original forward pass.\n{_DEBUG_TIP}")
            holder = frame.weak_holders[idx]()
            if holder is not None:  # None: freed already by an earlier backward
                holder.handles[gid] = _Handle()
                frame.recomputed[gid][holder.handles[gid]] = x
            if frame.early_stop and frame.recomp_counter[gid] == len(frame.weak_holders):
                raise _StopRecomputationError
            return x

        super().__init__(pack_hook, lambda x: x)


class _checkpoint_hook(saved_tensors_hooks):  # noqa: N801 - torch's name
    """During the checkpointed forward: save a placeholder; unpacking recomputes."""

    def __init__(self, frame):
        def pack_hook(x):
            holder = _Holder()
            frame.weak_holders.append(weakref.ref(holder))
            if frame.metadata_fn is not None:
                with grad_mode.no_grad():
                    frame.x_metadatas.append(frame.metadata_fn(x))
            return holder

        def unpack_hook(holder):
            gid = _current_graph_task_id()
            if not frame.is_recomputed[gid]:
                try:
                    with _recomputation_hook(weakref.ref(frame), gid), grad_mode.enable_grad():
                        frame.recompute_fn(*frame.get_inputs())
                except _StopRecomputationError:
                    pass
                frame.is_recomputed[gid] = True
                frame.check_recomputed_tensors_match(gid)
            if holder.handles.get(gid, 0) is None:
                raise CheckpointError(
                    "torch.utils.checkpoint: Unpack is being triggered for a tensor that was "
                    "already unpacked once. If you are calling ctx.saved_tensors in backward, "
                    "make sure to do so only once. Otherwise please open an issue with details "
                    "on your use case.")
            ret = frame.recomputed[gid][holder.handles[gid]]
            holder.handles[gid] = None
            return ret

        super().__init__(pack_hook, unpack_hook)


def noop_context_fn():
    return contextlib.nullcontext(), contextlib.nullcontext()


@contextlib.contextmanager
def set_checkpoint_early_stop(enable: bool):
    """Whether a non-reentrant recomputation stops once it has every tensor it needs."""
    global _enable_checkpoint_early_stop
    prev, _enable_checkpoint_early_stop = _enable_checkpoint_early_stop, enable
    try:
        yield
    finally:
        _enable_checkpoint_early_stop = prev


@contextlib.contextmanager
def set_checkpoint_debug_enabled(enabled):
    """Accepted for torch's code; minigrad's checkpoint errors carry no operator log."""
    yield


def _checkpoint_without_reentrant(function, preserve, context_fn, determinism_check,
                                  early_stop, args, kwargs):
    if determinism_check not in _METADATA_FNS:
        raise ValueError(f"determinism_check should be one of {list(_METADATA_FNS)}, but got "
                         f"{determinism_check}")
    forward_context, recompute_context = context_fn()
    fwd_state = _creation.get_rng_state() if preserve else None

    def recompute_fn(*inputs):
        with _replayed_rng(fwd_state, preserve), recompute_context:
            function(*inputs, **kwargs)

    if not grad_mode.is_grad_enabled():
        return function(*args, **kwargs)
    frame = _Frame(recompute_fn, (_enable_checkpoint_early_stop
                                  if _enable_checkpoint_early_stop is not None else early_stop),
                   _METADATA_FNS[determinism_check])
    frame.save_inputs(args)
    with _checkpoint_hook(frame), forward_context:
        out = function(*args, **kwargs)
    frame.forward_completed = True
    return out


def checkpoint(function, *args, use_reentrant=None, context_fn=noop_context_fn,
               determinism_check=_DEFAULT_DETERMINISM_MODE, debug=False, early_stop=True,
               **kwargs):
    """``function(*args)``, whose saved tensors are recomputed in backward instead of kept
    (torch.utils.checkpoint.checkpoint). ``debug`` is accepted; minigrad's checkpoint errors
    carry no operator log."""
    if use_reentrant is None:
        warnings.warn(
            "torch.utils.checkpoint: the use_reentrant parameter should be passed explicitly. "
            "Starting in PyTorch 2.9, calling checkpoint without use_reentrant will raise an "
            "exception. use_reentrant=False is recommended, but if you need to preserve the "
            "current default behavior, you can pass use_reentrant=True. Refer to docs for "
            "more details on the differences between the two variants.", stacklevel=2)
        use_reentrant = True
    preserve = kwargs.pop("preserve_rng_state", True)
    if kwargs and use_reentrant:
        raise ValueError("Unexpected keyword arguments: " + ",".join(kwargs))
    if use_reentrant:
        if context_fn is not noop_context_fn or debug is not False:
            raise ValueError("Passing `context_fn` or `debug` is only supported when "
                             "use_reentrant=False.")
        return CheckpointFunction.apply(function, preserve, *args)
    if debug and context_fn is not noop_context_fn:
        raise ValueError("debug=True is incompatible with non-default context_fn")
    return _checkpoint_without_reentrant(function, preserve, context_fn, determinism_check,
                                         early_stop, args, kwargs)


def checkpoint_sequential(functions, segments, input, use_reentrant=None, **kwargs):  # noqa: A002
    """Run ``functions`` (a Sequential or a list) in ``segments`` pieces, checkpointing all
    but the last piece."""
    if use_reentrant is None:
        warnings.warn(
            "torch.utils.checkpoint.checkpoint_sequential: the use_reentrant parameter should "
            "be passed explicitly. In version 2.9 we will raise an exception if use_reentrant "
            "is not passed. use_reentrant=False is recommended, but if you need to preserve "
            "the current default behavior, you can pass use_reentrant=True. Refer to docs for "
            "more details on the differences between the two variants.", stacklevel=2)
        use_reentrant = True
    preserve = kwargs.pop("preserve_rng_state", True)
    if kwargs:
        raise ValueError("Unexpected keyword arguments: " + ",".join(kwargs))
    if isinstance(functions, Sequential):
        functions = list(functions.children())

    def run(start, end):
        def forward(x):
            for j in range(start, end + 1):
                x = functions[j](x)
            return x
        return forward

    size = len(functions) // segments
    end = -1
    for start in range(0, size * (segments - 1), size):
        end = start + size - 1
        input = checkpoint(run(start, end), input, use_reentrant=use_reentrant,  # noqa: A001
                           preserve_rng_state=preserve)
    return run(end + 1, len(functions) - 1)(input)


def __getattr__(name):
    """Only reached for names this module does not define (PEP 562); see ``_left_out``."""
    raise _left_out.missing(__name__, name)
