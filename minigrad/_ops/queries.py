"""Questions about tensors and dtypes that compute nothing: ``torch.is_floating_point``,
``is_complex``, ``is_nonzero``, ``numel``, ``result_type``, ``promote_types``, ``can_cast``.

Their answers drive a learner's own code (which dtype a sum will have, whether a cast loses
information), so they follow torch's rules exactly, and take torch's arguments only.
"""

from __future__ import annotations

from minigrad import _dtype
from minigrad._ops._args import parses
from minigrad._ops._core import result_type as _result_type


@parses('is_floating_point(Tensor input)')
def is_floating_point(input) -> bool:
    return input.dtype.is_floating_point


@parses('is_complex(Tensor input)')
def is_complex(input) -> bool:
    """Always False: minigrad has no complex dtypes."""
    return False


@parses('is_nonzero(Tensor input)')
def is_nonzero(input) -> bool:
    """Whether a one-element tensor is not zero (``bool(t)`` with torch's errors)."""
    if input.numel() == 0:
        raise RuntimeError("Boolean value of Tensor with no values is ambiguous")
    if input.numel() > 1:
        raise RuntimeError("Boolean value of Tensor with more than one value is ambiguous")
    return bool(input._data.reshape(-1)[0] != 0)


@parses('numel(Tensor input)')
def numel(input) -> int:
    return input.numel()


@parses('result_type(Tensor tensor, Tensor other)', 'result_type(Number scalar, Tensor tensor)',
        'result_type(Tensor tensor, Number other)', 'result_type(Number scalar1, Number scalar2)')
def result_type(*operands) -> _dtype.dtype:
    """The dtype ``a + b`` would have: torch's promotion (``_core.result_type``)."""
    return _result_type(*operands)


@parses('promote_types(torch.dtype type1, torch.dtype type2)')
def promote_types(type1, type2) -> _dtype.dtype:
    return _dtype.promote_types(type1, type2)


@parses('can_cast(torch.dtype from_, torch.dtype to)')
def can_cast(from_, to) -> bool:
    """torch's casting rule: never from a float to an integer, nor from a number to bool."""
    if from_.is_floating_point and not to.is_floating_point:
        return False
    return not (to is _dtype.bool and from_ is not _dtype.bool)
