"""Forward-mode AD: push a tangent (a direction) through the computation with the values.

Reverse mode (``backward``) answers "how does one output depend on every input?". Forward mode
answers "how does every output move when the inputs move in direction ``v``?" in a single
forward pass: each tensor carries a *tangent* next to its value, and each operation computes
its output's tangent from its inputs' tangents (its JVP formula, in ``forward_rules.py``).

Usage, as in torch::

    with forward_ad.dual_level():
        x = forward_ad.make_dual(primal, tangent)
        y = f(x)
        value, jvp = forward_ad.unpack_dual(y)

A tangent belongs to the level it was set in; leaving the level forgets it. The tangent is
stored on the tensor as ``_fw_grad = (level, tangent)``, so an old level's tangents are
simply ignored. Outside a dual level, operations pay a single ``is None`` check.
"""

from __future__ import annotations

import itertools
from typing import NamedTuple

__all__ = ["dual_level", "make_dual", "unpack_dual", "UnpackedDualTensor", "enter_dual_level",
           "exit_dual_level"]


class _State:
    level = None  # the active level's id, or None: read by every recorded operation


_state = _State()
_ids = itertools.count()


def enter_dual_level() -> int:
    if _state.level is not None:
        raise RuntimeError("minigrad supports a single dual level at a time (nested forward "
                           "AD levels are not implemented)")
    _state.level = next(_ids)
    return _state.level


def exit_dual_level(*, level=None) -> None:
    _state.level = None


class dual_level:  # noqa: N801 - torch's spelling
    """The context in which dual tensors live; their tangents vanish on exit."""

    def __enter__(self):
        return enter_dual_level()

    def __exit__(self, *exc):
        exit_dual_level()
        return False


class UnpackedDualTensor(NamedTuple):
    primal: object
    tangent: object


def _tangent(t):
    """``t``'s tangent at the active level, or None."""
    entry = t.__dict__.get("_fw_grad") if hasattr(t, "__dict__") else None
    if entry is None or entry[0] != _state.level:
        return None
    return entry[1]


def _set_tangent(t, tangent) -> None:
    t._fw_grad = (_state.level, tangent)


def make_dual(tensor, tangent, *, level=None):
    """A view of ``tensor`` that carries ``tangent`` as its forward gradient."""
    if _state.level is None:
        raise RuntimeError("Trying to create a dual Tensor for forward AD but no level exists, "
                           "make sure to enter_dual_level() first.")
    if tangent.shape != tensor.shape:
        raise RuntimeError("Trying to set a forward gradient that has a different size than "
                           "that of the original Tensor, this is not supported. Tensor is of "
                           f"size {list(tensor.shape)} while the given forward gradient is of "
                           f"size {list(tangent.shape)}.")
    if not tensor.dtype.is_floating_point:
        raise ValueError(f"Expected primal to be floating point or complex, but got: "
                         f"{tensor.dtype!r}")
    out = tensor.view(*tensor.shape)
    _set_tangent(out, tangent)
    return out


def unpack_dual(tensor, *, level=None) -> UnpackedDualTensor:
    """``(primal, tangent)``: the value without its tangent, and the tangent (or None)."""
    if _state.level is None:
        return UnpackedDualTensor(tensor, None)
    tangent = _tangent(tensor)
    if tangent is None:
        return UnpackedDualTensor(tensor, None)
    from minigrad._ops.indexing import alias

    active, _state.level = _state.level, None
    try:
        primal = alias(tensor)
    finally:
        _state.level = active
    return UnpackedDualTensor(primal, tangent)


# --- the hooks the operations call ------------------------------------------------------------
def _propagate(out, node_cls, inputs, save, attrs) -> None:
    """Called by ``record`` while a level is active: give ``out`` its tangent."""
    tangents = [_tangent(t) for t in inputs]
    if all(t is None for t in tangents):
        return
    tangent = _compute(out, node_cls, inputs, tangents, save, attrs)
    if tangent is not None:
        _set_tangent(out, tangent)


def _propagate_inplace(self, old, node_cls, inputs, save, attrs) -> None:
    """Called by ``apply_inplace``: ``old`` is a copy of ``self`` before the change. The new
    tangent is written into the existing one, so views of it (and their base) see it."""
    tangents = [_tangent(t) for t in inputs]
    if all(t is None for t in tangents):
        return
    inputs = [old if t is self else t for t in inputs]
    tangent = _compute(self, node_cls, inputs, tangents, save, attrs)
    current = _tangent(self)
    if current is None and self._base is not None:
        current = _view_of_base_tangent(self)
    if current is None:
        _set_tangent(self, tangent)
    else:
        current._data[...] = 0 if tangent is None else tangent._data


def _view_of_base_tangent(view):
    """A view changed in place gets a tangent that is a view of its base's tangent (made
    zero if the base had none), so the base sees the change, as in torch."""
    from minigrad._creation import zeros

    base = view._base
    base_tangent = _tangent(base)
    if base_tangent is None:
        base_tangent = zeros(*base.shape, dtype=base.dtype)
        _set_tangent(base, base_tangent)
    active, _state.level = _state.level, None
    try:
        tangent = view._view_fn(base_tangent)
    finally:
        _state.level = active
    _set_tangent(view, tangent)
    return tangent


def _compute(out, node_cls, inputs, tangents, save, attrs):
    """Apply the op's JVP rule with forward AD switched off (the rule's own ops carry no
    tangents), then shape and cast the tangent like the output."""
    from minigrad.autograd.forward_rules import RULES

    rule = RULES.get(node_cls)
    if rule is None:
        raise NotImplementedError(f"Trying to use forward AD with {node_cls.__name__} that "
                                  "does not support it")
    f = _OpContext(inputs, out, save, attrs)
    active, _state.level = _state.level, None
    try:
        tangent = rule(f, *tangents)
        if tangent is not None:
            if tangent.shape != out.shape:
                tangent = tangent.expand(*out.shape).clone()
            if tangent.dtype is not out.dtype:
                tangent = tangent.to(out.dtype)
    finally:
        _state.level = active
    return tangent


class _OpContext:
    """What a JVP rule sees: the op's inputs, its result, what it saved and its attributes."""

    def __init__(self, inputs, result, save, attrs):
        self.__dict__.update(attrs)
        self.__dict__.update(save or {})
        self.inputs = tuple(inputs)
        self.result = result


def _function_jvp(cls, ctx, args, outputs) -> None:
    """A custom Function under forward AD: its ``jvp`` gives the output tangents."""
    from minigrad._tensor import Tensor

    tangents = [_tangent(a) if isinstance(a, Tensor) else None for a in args]
    if all(t is None for t in tangents):
        return
    active, _state.level = _state.level, None
    ctx._in_jvp = True
    try:
        result = cls.jvp(ctx, *tangents)
    finally:
        _state.level = active
        ctx._in_jvp = False
    result = result if isinstance(result, tuple) else (result,)
    for out, t in zip(outputs, result):
        if isinstance(out, Tensor) and t is not None:
            _set_tangent(out, t)
