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

from typing import NamedTuple

from minigrad._ops.indexing import alias
from minigrad.autograd.forward_grad import (
    _Off,
    _state,
    enter_dual_level,
    exit_dual_level,
    set_tangent,
    tangent_of,
)

__all__ = ["dual_level", "make_dual", "unpack_dual", "UnpackedDualTensor", "enter_dual_level",
           "exit_dual_level"]


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
    set_tangent(out, tangent)
    return out


def unpack_dual(tensor, *, level=None) -> UnpackedDualTensor:
    """``(primal, tangent)``: the value without its tangent, and the tangent (or None)."""
    if _state.level is None:
        return UnpackedDualTensor(tensor, None)
    tangent = tangent_of(tensor)
    if tangent is None:
        return UnpackedDualTensor(tensor, None)
    with _Off():
        primal = alias(tensor)
    return UnpackedDualTensor(primal, tangent)
