"""Where forward-mode tangents live, and how an op computes its output's tangent.

A tangent belongs to the dual level it was set in; leaving the level forgets it. It is stored
on the tensor as ``_fw_grad = (level, tangent)``, so an old level's tangents are simply
ignored. Outside a dual level, operations pay a single ``is None`` check on ``_state.level``.

When a level is active, every op calls ``propagate`` after computing its value: it gathers the
inputs' tangents and hands them to the op's ``jvp`` rule, written on its node class next to
``backward`` (see ``graph.Node.jvp``). The user-facing API (``dual_level``, ``make_dual``,
``unpack_dual``) is in ``forward_ad.py``.
"""

from __future__ import annotations

import itertools

import numpy as np

from minigrad._ops import _vmap_hook
from minigrad.autograd import grad_mode
from minigrad.autograd.graph import OpContext


class _State:
    level = None  # the active level's id, or None: read by every recorded operation


_state = _State()
_ids = itertools.count()


def enter_dual_level() -> int:
    if _state.level is not None:
        # torch has one forward-AD level too, and refuses a second with these words.
        raise RuntimeError("Nested forward mode AD is not supported at the moment")
    _state.level = next(_ids)
    return _state.level


def exit_dual_level(*, level=None) -> None:
    _state.level = None


def tangent_of(t):
    """``t``'s tangent at the active level, or None. A view without one of its own reads its
    base's (the matching view of it), as torch's views do once their base got a tangent."""
    entry = t.__dict__.get("_fw_grad") if hasattr(t, "__dict__") else None
    if entry is None or entry[0] != _state.level:
        base = getattr(t, "_base", None)
        if base is None or _state.level is None:
            return None
        base_tangent = tangent_of(base)
        if base_tangent is None:
            return None
        with _Off():
            tangent = t._view_fn(base_tangent)
        set_tangent(t, tangent)
        return tangent
    return entry[1]


def set_tangent(t, tangent) -> None:
    t._fw_grad = (_state.level, tangent)


class _Off:
    """Forward AD switched off for a while: a rule's own ops must carry no tangents."""

    def __enter__(self):
        self.level, _state.level = _state.level, None

    def __exit__(self, *exc):
        _state.level = self.level
        return False


def propagate(outputs, node_cls, inputs, save, attrs) -> None:
    """Called by every op while a level is active: give its outputs their tangents."""
    tangents = [tangent_of(t) for t in inputs]
    if all(t is None for t in tangents):
        return
    if None in tangents and grad_mode.is_recording() and any(
            getattr(t, "requires_grad", False) for t in inputs):
        tangents = _zeros_for_missing(inputs, tangents)
    result = _compute(outputs, node_cls, inputs, tangents, save, attrs)
    for out, tangent in zip(outputs, result):
        if tangent is not None:
            set_tangent(out, tangent)
            _keep_in_saved_output(out)


def _zeros_for_missing(inputs, tangents) -> list:
    """torch evaluates a forward formula with a zero (its efficient ZeroTensor) for each
    missing tangent, so a term like ``other_t * self_p`` is recorded when ``self_p`` requires
    grad: the tangent then has a graph back to the primal, and differentiating it gives zeros
    where minigrad, dropping the term, would say the tangent does not require grad."""
    with _Off():
        filled = [tangent if tangent is not None or not _floating(t) else t.new_zeros(t.shape)
                  for t, tangent in zip(inputs, tangents)]
    _made_zeros[:] = [z for z, tangent in zip(filled, tangents) if tangent is None]
    return filled


# The zeros ``_zeros_for_missing`` just made, for the ``_compute`` that follows it: torch's are
# ZeroTensors, which a term multiplies into nothing and a sum leaves out, so their tangent's
# values are those of the rule without them. Real zeros would give the same numbers but for
# signed zeros: ``-0.0 + 0 * x`` is +0.0 where torch keeps -0.0 (a Hessian's off-diagonal).
_made_zeros: list = []


def _floating(t) -> bool:
    return hasattr(t, "dtype") and getattr(t.dtype, "is_floating_point", False)


def _keep_in_saved_output(out) -> None:
    """An op that saved its own output for backward (exp, tanh...) keeps the output's tangent
    with it, as torch saves outputs after their forward gradient is set: a gradient computed
    with ``create_graph`` inside the level then has its own tangent (forward-over-reverse)."""
    fn = out._grad_fn
    if fn is not None:
        for saved in fn._saved.values():
            if saved.is_output and saved.data is out._data:
                saved.fw_grad = out._fw_grad


def propagate_inplace(self, old, node_cls, inputs, save, attrs) -> None:
    """Called by an in-place op: ``old`` is a copy of ``self`` before the change. The new
    tangent is written into the existing one, so views of it (and their base) see it."""
    tangents = [tangent_of(t) for t in inputs]
    if all(t is None for t in tangents):
        return
    inputs = [old if t is self else t for t in inputs]
    (tangent,) = _compute((self,), node_cls, inputs, tangents, save, attrs)
    current = tangent_of(self)
    if current is None and self._base is not None:
        current = _view_of_base_tangent(self)
    if current is None:
        set_tangent(self, tangent)
    else:
        current._data[...] = 0 if tangent is None else tangent._data


def _view_of_base_tangent(view):
    """A view changed in place gets a tangent that is a view of its base's tangent (made
    zero if the base had none), so the base sees the change, as in torch."""
    base = view._base
    base_tangent = tangent_of(base)
    if base_tangent is None:
        with _Off():
            base_tangent = base.new_zeros(base.shape)
        set_tangent(base, base_tangent)
    with _Off():
        tangent = view._view_fn(base_tangent)
    set_tangent(view, tangent)
    return tangent


def _compute(outputs, node_cls, inputs, tangents, save, attrs):
    """Apply the op's ``jvp`` with forward AD switched off (the rule's own ops carry no
    tangents), then shape and cast each tangent like its output."""
    ctx = OpContext(node_cls, inputs, outputs[0] if len(outputs) == 1 else outputs, save, attrs)
    zeros, _made_zeros[:] = list(_made_zeros), []
    with _Off():
        fixed = _apply_rule(ctx, node_cls, outputs, tangents)
        if zeros:  # recorded with zeros (see _zeros_for_missing); the values without them
            with grad_mode.no_grad():
                values = _apply_rule(ctx, node_cls, outputs, [
                    None if any(t is z for z in zeros) else t for t in tangents])
            for tangent, value in zip(fixed, values):
                if tangent is not None:
                    _copy_values(tangent, value)
    return fixed


def _copy_values(dst, src) -> None:
    """Write ``src``'s numbers (zeros for None) into ``dst``, a tangent just computed: in
    place, so the tangent keeps its graph. Through vmap's batched tensors (jacfwd's basis) to
    their batch of numbers, the batch dim moved to ``dst``'s; a batch of batches (nested vmap)
    batched another way is left as it is."""
    if _plain(dst):
        if src is None or _plain(src):
            _write(dst, 0 if src is None else src._data)
        return
    inner = getattr(dst, "_value", None)  # a batched tensor's batch
    if inner is None:
        return
    if src is None:
        _copy_values(inner, None)
    elif _plain(src):  # the same numbers for every sample
        if _plain(inner):
            _write(inner, np.expand_dims(src._data, dst._bdim))
    elif getattr(src, "_level", None) == dst._level:
        if src._bdim == dst._bdim:
            _copy_values(inner, src._value)
        elif _plain(inner) and _plain(src._value):
            _write(inner, np.moveaxis(src._value._data, src._bdim, dst._bdim))


def _write(t, values) -> None:
    if not t._data.flags.writeable:  # (a broadcast view)
        t._data = t._data.copy()
    t._data[...] = values


def _plain(t) -> bool:
    """A tensor with its numbers at hand (not one of vmap's batched tensors)."""
    return isinstance(getattr(t, "_data", None), np.ndarray)


def _apply_rule(ctx, node_cls, outputs, tangents) -> list:
    """The op's ``jvp`` on these tangents, each result shaped and cast like its output."""
    try:
        result = node_cls.jvp(ctx, *tangents)
    except BaseException as e:
        if not _vmap_hook.active or not isinstance(e, _vmap_hook.Unbatchable):
            raise
        # batched tangents (jacfwd's basis) the rule cannot compute at once: torch's
        # fallback, the rule once per sample, the results stacked
        result = _vmap_hook.per_sample(lambda *ts: node_cls.jvp(ctx, *ts), tangents)
    result = result if isinstance(result, tuple | list) else (result,)
    fixed = []
    for out, tangent in zip(outputs, result):
        if tangent is not None:
            if tangent.shape != out.shape:
                tangent = tangent.expand(*out.shape).clone()
            if tangent.dtype is not out.dtype:
                tangent = tangent.to(out.dtype)
        fixed.append(tangent)
    return fixed
