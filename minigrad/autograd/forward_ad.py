"""Forward-mode AD: push a tangent (a direction) through the computation with the values.

Reverse mode (``backward``) answers "how does one output depend on every input?". Forward mode
answers "how does every output move when the inputs move in direction ``v``?" in a single
forward pass: each tensor carries a *tangent* next to its value, and each operation computes
its output's tangent from its inputs' tangents (its ``jvp`` rule, written on its node class
next to ``backward``; the machinery is in ``forward_grad.py``).

Usage, as in torch::

    with forward_ad.dual_level():
        x = forward_ad.make_dual(primal, tangent)
        y = f(x)
        value, jvp = forward_ad.unpack_dual(y)
"""

from __future__ import annotations

import functools
import inspect
from typing import NamedTuple

from minigrad._ops.indexing import alias
from minigrad._tensor import Tensor
from minigrad.autograd import forward_grad
from minigrad.autograd.forward_grad import _Off, _state, set_tangent, tangent_of
from minigrad.autograd.grad_mode import _wrap_generator

__all__ = ["UnpackedDualTensor", "enter_dual_level", "exit_dual_level", "make_dual",
           "unpack_dual", "dual_level"]


def _current_level() -> int:
    """The level as torch numbers it: 0 inside a ``dual_level``, -1 outside. (Inside,
    forward_grad keeps its own id per level, so that tangents of a level that has ended are
    never read again; torch reuses the number 0.)"""
    return -1 if _state.level is None else 0


def enter_dual_level() -> int:
    """Enter a forward-AD level and return its number (0: one level at a time, as in torch)."""
    forward_grad.enter_dual_level()
    return 0


def exit_dual_level(*, level=None) -> None:
    """Leave the current level; every tangent made in it is gone."""
    current = _current_level()
    if level is None:
        level = current
    if level != current:
        raise RuntimeError("Trying to exit a forward AD level that was not the last one that "
                           "was created. This is not supported.")
    if level < 0:
        raise RuntimeError("Dual level must be a positive number.")
    forward_grad.exit_dual_level()


class dual_level:  # noqa: N801 - torch's spelling
    """The context in which dual tensors live; their tangents vanish on exit. Like torch's,
    it also decorates a function (``@dual_level()``) to run each call inside a level."""

    def __enter__(self):
        return enter_dual_level()

    def __exit__(self, *exc):
        exit_dual_level()
        return False

    def __call__(self, func):
        if inspect.isgeneratorfunction(func):
            return _wrap_generator(type(self), func)

        @functools.wraps(func)
        def wrapper(*args, **kwargs):
            with type(self)():
                return func(*args, **kwargs)

        return wrapper


class UnpackedDualTensor(NamedTuple):
    primal: object
    tangent: object


def make_dual(tensor, tangent, *, level=None):
    """A view of ``tensor`` that carries ``tangent`` as its forward gradient. Checked in
    torch's order: a level exists, both are floating point, the level is the current one,
    the sizes agree."""
    if level is None:
        level = _current_level()
    if level < 0:
        raise RuntimeError("Trying to create a dual Tensor for forward AD but no level exists, "
                           "make sure to enter_dual_level() first.")
    if not tensor.is_floating_point():
        raise ValueError(f"Expected primal to be floating point or complex, but got: "
                         f"{tensor.dtype}")
    if not tangent.is_floating_point():
        raise ValueError(f"Expected tangent to be floating point or complex, but got: "
                         f"{tangent.dtype}")
    if level != _current_level():
        raise RuntimeError("Invalid level given to _make_dual")
    if tangent.shape != tensor.shape:
        raise RuntimeError("Trying to set a forward gradient that has a different size than "
                           "that of the original Tensor, this is not supported. Tensor is of "
                           f"size {list(tensor.shape)} while the given forward gradient is of "
                           f"size {list(tangent.shape)}.")
    out = tensor.view(*tensor.shape)
    set_tangent(out, tangent)
    return out


def unpack_dual(tensor, *, level=None) -> UnpackedDualTensor:
    """``(primal, tangent)``: the value without its tangent, and the tangent (or None).
    Outside a level anything passes through; inside, only a tensor is accepted."""
    if level is None:
        level = _current_level()
    if level < 0:
        return UnpackedDualTensor(tensor, None)
    if not isinstance(tensor, Tensor):
        raise TypeError("_unpack_dual(): argument 'dual' (position 1) must be Tensor, not "
                        f"{type(tensor).__name__}")
    tangent = tangent_of(tensor)
    if tangent is None:
        return UnpackedDualTensor(tensor, None)
    if level != _current_level():
        raise RuntimeError("Invalid level given to _fw_primal")
    with _Off():
        primal = alias(tensor)
    set_tangent(primal, None)  # torch's _fw_primal: a view that never reads its base's tangent
    return UnpackedDualTensor(primal, tangent)
