"""torch's other names for ops minigrad has, and what a real tensor answers without computing.

A learner pastes ``x.mT``, ``torch.greater(a, b)``, ``x.ravel()`` or ``x.is_conj()`` from
PyTorch's documentation; each must give torch's answer, node and error, not an AttributeError.

* Aliases: ``greater``/``greater_equal``/``less``/``less_equal``/``not_equal`` are gt, ge, lt,
  le, ne; ``absolute`` is abs; ``ndimension`` is dim.
* ``ravel`` is torch's ``contiguous().view(-1)``: a ViewBackward0, after a CloneBackward0 when
  the tensor is not contiguous.
* ``mT``, ``mH`` and ``H`` transpose the last two dims (TransposeBackward0, saving -2 and -1
  as torch does); minigrad has no complex numbers, so the conjugating forms are the same. On a
  0-d tensor they are the identity with torch's once-per-process deprecation warning.
* ``positive``, ``conj``, ``resolve_conj``, ``resolve_neg`` return the tensor itself (torch
  returns the same object for a real tensor); ``is_conj`` and ``is_neg`` are False.
"""

from __future__ import annotations

from minigrad._ops import pointwise as P
from minigrad._ops import shape as S
from minigrad._ops._args import parses
from minigrad._tensor import _warn_once


@parses('ravel(Tensor input)')
def ravel(input):
    return S.view(S.contiguous(input), -1)


def _last_two_swapped(input, name: str, zero_d: str, matrices_only: bool = False):
    n = input.dim()
    if n == 0:
        _warn_once(f"Tensor.{name} is deprecated on 0-D tensors. {zero_d}")
        return input
    if matrices_only and n != 2:
        hint = " For batches of matrices, consider using tensor.mH" if n > 2 else ""
        raise RuntimeError(f"tensor.{name} is only supported on matrices (2-D tensors). Got "
                           f"{n}-D tensor.{hint}")
    if n < 2:
        raise RuntimeError(f"tensor.{name} is only supported on matrices or batches of "
                           f"matrices. Got {n}-D tensor.")
    return S.transpose(input, -2, -1)


def mT(self):  # noqa: N802 - torch's name
    """The last two dims swapped."""
    return _last_two_swapped(self, "mT", "This function is the identity in these cases.")


def mH(self):  # noqa: N802 - torch's name
    """The conjugate transpose of the last two dims: ``mT`` for real tensors."""
    return _last_two_swapped(self, "mH", "Consider using x.conj().")


def H(self):  # noqa: N802 - torch's name
    """The conjugate transpose of a matrix: its transpose for real tensors."""
    return _last_two_swapped(self, "H", "Consider using x.conj().", matrices_only=True)


@parses('positive(Tensor input)')
def positive(input):
    if input.dtype.name == "bool":
        raise RuntimeError("The `+` operator, on a bool tensor is not supported.")
    return input


@parses('conj(Tensor input)')
def conj(input):
    return input


@parses('resolve_conj(Tensor input)')
def resolve_conj(input):
    return input


@parses('resolve_neg(Tensor input)')
def resolve_neg(input):
    return input


@parses('is_conj(Tensor input)')
def is_conj(input) -> bool:
    return False


@parses('is_neg(Tensor input)')
def is_neg(input) -> bool:
    return False


@parses('is_signed(Tensor input)')
def is_signed(input) -> bool:
    return input.dtype.is_signed


@parses('is_same_size(Tensor input, Tensor other)')
def is_same_size(input, other) -> bool:
    return input.shape == other.shape


def ndimension(self) -> int:
    return self.dim()


greater, greater_equal, less, less_equal, not_equal = P.gt, P.ge, P.lt, P.le, P.ne
absolute = P.abs
