"""In-place comparisons (``eq_``, ``lt_``...), logical ops (``logical_and_``...), ``hypot_``
and ``atan2_``: each writes its result into ``self``, in ``self``'s dtype.

Why three kinds of history:

* A comparison in place is differentiable in torch's table (derivatives.yaml): its gradient
  is zero for ``self`` (and for a tensor ``other``), and its tangent is zero. So
  ``y.eq_(t)`` records EqBackward1 (EqBackward0 for a number), whose backward returns zeros.
* A logical op in place is not differentiable at all: torch records nothing and checks
  nothing. The values change (the version counter moves), the tensor keeps the node it had
  (``(x * 2).logical_and_(m)`` still says MulBackward0, and a backward pass flows through it
  as if nothing happened), its tangent is unchanged, and even a leaf that requires grad is
  written without the in-place error.
* ``hypot_`` and ``atan2_`` record the nodes of ``hypot`` and ``atan2`` (HypotBackward0
  saving ``result``, Atan2Backward0 the old ``self``).
"""

from __future__ import annotations

import numpy as np

from minigrad._ops import elementary as E
from minigrad._ops import inplace as X
from minigrad._ops import pointwise as P
from minigrad._ops._args import parses
from minigrad._tensor import Tensor
from minigrad.autograd.graph import Node


def _written(self: Tensor, result: Tensor) -> np.ndarray:
    """``result`` (broadcast from ``self`` and the other operand) as ``self``'s new values:
    torch's error when the broadcast shape is not ``self``'s."""
    if result._data.shape != self._data.shape:
        raise RuntimeError(f"output with shape {list(self.shape)} doesn't match the "
                           f"broadcast shape {list(result.shape)}")
    return result._data.astype(self._data.dtype, copy=False)


class _ZeroComparison(Node):
    """A comparison written in place: zero gradients, zero tangent."""

    other_shape = None  # a tensor ``other``'s shape (Backward1)

    def backward(self, grad):
        zeros = grad.new_zeros(grad.shape)
        if self.other_shape is None:
            return zeros
        return zeros, grad.new_zeros(self.other_shape)

    def jvp(self, *tangents):
        return self.result.new_zeros(self.result.shape)


def _comparison_(name: str, compare, scalar_node, tensor_node):
    @parses(f'{name}(Tensor input, Tensor other)', f'{name}(Tensor input, Number other)')
    def method(self, other):
        plain = other.detach() if isinstance(other, Tensor) else other
        data = _written(self, compare(self.detach(), plain))
        if isinstance(other, Tensor):
            return X.apply_inplace(self, data, tensor_node, (self, other),
                                   other_shape=tuple(other.shape))
        return X.apply_inplace(self, data, scalar_node, (self,))

    method.__name__ = name
    return method


def _nodes(base: str):
    """torch's pair of node classes for a comparison: ``<Base>Backward0`` (a number) and
    ``<Base>Backward1`` (a tensor)."""
    return tuple(type(f"{base}Backward{k}", (_ZeroComparison,),
                      {"__module__": __name__, "__doc__": f"{base.lower()}_ written in place"})
                 for k in (0, 1))


EqBackward0, EqBackward1 = _nodes("Eq")
NeBackward0, NeBackward1 = _nodes("Ne")
LtBackward0, LtBackward1 = _nodes("Lt")
LeBackward0, LeBackward1 = _nodes("Le")
GtBackward0, GtBackward1 = _nodes("Gt")
GeBackward0, GeBackward1 = _nodes("Ge")

eq_ = _comparison_("eq_", P.eq, EqBackward0, EqBackward1)
ne_ = _comparison_("ne_", P.ne, NeBackward0, NeBackward1)
lt_ = _comparison_("lt_", P.lt, LtBackward0, LtBackward1)
le_ = _comparison_("le_", P.le, LeBackward0, LeBackward1)
gt_ = _comparison_("gt_", P.gt, GtBackward0, GtBackward1)
ge_ = _comparison_("ge_", P.ge, GeBackward0, GeBackward1)
not_equal_ = _comparison_("not_equal_", P.ne, NeBackward0, NeBackward1)
less_ = _comparison_("less_", P.lt, LtBackward0, LtBackward1)
less_equal_ = _comparison_("less_equal_", P.le, LeBackward0, LeBackward1)
greater_ = _comparison_("greater_", P.gt, GtBackward0, GtBackward1)
greater_equal_ = _comparison_("greater_equal_", P.ge, GeBackward0, GeBackward1)


def _logical_(name: str, logical):
    @parses(f'{name}(Tensor input, Tensor other)')
    def method(self, other):
        data = _written(self, logical(self.detach(), other.detach()))
        np.copyto(self._data, data, casting="unsafe")  # no node, no check: not differentiable
        self._bump_version()
        return self

    method.__name__ = name
    return method


logical_and_ = _logical_("logical_and_", P.logical_and)
logical_or_ = _logical_("logical_or_", P.logical_or)
logical_xor_ = _logical_("logical_xor_", P.logical_xor)


@parses('logical_not_(Tensor input)')
def logical_not_(self):
    np.copyto(self._data, P.logical_not(self.detach())._data, casting="unsafe")
    self._bump_version()
    return self


@parses('hypot_(Tensor input, Tensor other)')
def hypot_(self, other):
    if not self.dtype.is_floating_point:
        raise NotImplementedError(f"\"hypot_cpu\" not implemented for '{self.dtype.scalar_name}'")
    data = _written(self, E.hypot(self.detach(), other.detach()))
    save = {"self": X._saved_original(self, self.requires_grad),
            "other": other if other.requires_grad else None}
    return X.apply_inplace(self, data, E.HypotBackward0, (self, other), save=save,
                           output_name="result")


@parses('atan2_(Tensor input, Tensor other)')
def atan2_(self, other):
    if not self.dtype.is_floating_point:
        raise RuntimeError("result type Float can't be cast to the desired output type "
                           f"{self.dtype.scalar_name}")
    data = _written(self, E.atan2(self.detach(), other.detach()))
    save = {"self": X._saved_original(self, True), "other": other}
    return X.apply_inplace(self, data, E.Atan2Backward0, (self, other), save=save)


arctan2_ = atan2_
