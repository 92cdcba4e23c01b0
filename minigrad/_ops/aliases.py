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
* What a CPU tensor of dense memory answers: ``is_meta``, ``is_sparse``, ``is_quantized``,
  ``is_nested``... are False, ``is_shared()`` False (``share_memory_`` returns the tensor:
  there is no other process to share it with), ``name`` None; ``output_nr`` is which output of
  its node the tensor is (0 for a leaf).
* In-place forms torch has under other names: ``divide_``, ``multiply_``, ``subtract_``,
  ``clip_``, ``fix_``, ``square_`` (pow_ with 2: PowBackward0); ``reciprocal_``, ``sign_``,
  ``tril_`` and ``triu_`` with their nodes.
"""

from __future__ import annotations

import numpy as np

from minigrad import _dtype
from minigrad._ops import inplace as X
from minigrad._ops import linalg as L
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


@parses('isposinf(Tensor input, *, Tensor out = None)')
def isposinf(input):
    return P.logical_and(P.isinf(input), input > 0)


@parses('isneginf(Tensor input, *, Tensor out = None)')
def isneginf(input):
    return P.logical_and(P.isinf(input), input < 0)


@parses('isreal(Tensor input)')
def isreal(input):
    """Every element of a real tensor is real."""
    return input.new_ones(input.shape, dtype=_dtype.bool)


@parses('reciprocal_(Tensor input)')
def reciprocal_(self):
    return X._unary_inplace(self, np.reciprocal, P.ReciprocalBackward0, save_result=True,
                            floats=True)


@parses('sign_(Tensor input)')
def sign_(self):
    return X._unary_inplace(self, lambda x: (x > 0).astype(x.dtype) - (x < 0).astype(x.dtype),
                            P.SignBackward0)


@parses('square_(Tensor input)')
def square_(self):
    return X.pow_(self, 2)


def output_nr(self) -> int:
    return self._output_nr


def _false(self) -> bool:
    return False


def share_memory_(self):
    return self


def name(self):
    return None


# the device and layout flags of a CPU tensor of dense memory (properties, as torch's)
FALSE_FLAGS = ("is_meta", "is_sparse", "is_sparse_csr", "is_quantized", "is_nested",
               "is_mkldnn", "is_vulkan", "is_xla", "is_xpu", "is_mps", "is_ipu", "is_maia",
               "is_mtia")
divide_, multiply_, subtract_, clip_, fix_ = X.div_, X.mul_, X.sub_, X.clamp_, X.trunc_


@parses('detach(Tensor input)')
def detach(input):
    return input.detach()


@parses('detach_(Tensor input)')
def detach_(input):
    return input.detach_()


@parses('is_inference(Tensor input)')
def is_inference(input) -> bool:
    return input.is_inference()


def _triangle_(self, diagonal, np_fn, node_cls, name):
    if self.dim() < 2:
        raise RuntimeError(f"{name}: input tensor must have at least 2 dimensions")
    return X.apply_inplace(self, np_fn(self._data, diagonal), node_cls, (self,),
                           diagonal=diagonal)


@parses('tril_(Tensor input, int diagonal = 0)')
def tril_(self, diagonal=0):
    return _triangle_(self, diagonal, np.tril, L.TrilBackward0, "tril")


@parses('triu_(Tensor input, int diagonal = 0)')
def triu_(self, diagonal=0):
    return _triangle_(self, diagonal, np.triu, L.TriuBackward0, "triu")
