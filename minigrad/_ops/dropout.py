"""``dropout``: zero each element with probability ``p`` and scale the rest by ``1 / (1 - p)``.

torch has no dropout node on the CPU: its ``_dropout_impl`` (aten/src/ATen/native/Dropout.cpp)
draws a noise tensor shaped like the input with ``bernoulli_(1 - p)``, divides it in place by
``1 - p`` and multiplies, so the graph shows one ``MulBackward0`` whose saved ``other`` is the
noise. minigrad composes the same ops, so the same ``manual_seed`` gives the same zeros.

The noise is laid out in memory like the input (``empty_like``) and drawn in memory order, as
torch's kernel fills it: a transposed input gets its numbers in the order of its storage.

The same ``_dropout_impl`` gives torch's three variants. Feature dropout (``dropout1d/2d/3d``,
``Dropout2d``...) draws one number per sample and channel, a noise of shape ``(N, C, 1, ...)``
that broadcasts over the rest, so a whole channel is kept or zeroed. Alpha dropout (for SELU
networks) sets a dropped element to SELU's negative saturation instead of zero and then rescales
and shifts so the mean and variance stay: the noise becomes ``a`` or 0 and the result is
``input * noise + b``, ``b = (noise - 1) * alpha * a + alpha * a * p`` before the noise is
scaled (``AddBackward0`` on top of the ``MulBackward0``).
"""

from __future__ import annotations

import math

import numpy as np

from minigrad import _creation, _random
from minigrad._ops._args import parses
from minigrad._ops.pointwise import mul
from minigrad._tensor import Tensor


def bernoulli_like(input, p, generator=None) -> Tensor:
    """``torch.empty_like(input).bernoulli_(p)``: ones with probability ``p``, in the input's
    dtype and memory layout (``empty_like`` keeps the strides of a dense input, and the order
    of the dims of any other), drawn in memory order: the draws fill a buffer in order, and
    the noise is that buffer seen with the layout's strides."""
    data = input._data
    engine = _creation._generator(generator)._engine
    buffer = _random.bernoulli(engine, data.size, p).astype(data.dtype)
    strides = _dense_strides(data)
    return Tensor._make(np.lib.stride_tricks.as_strided(
        buffer, data.shape, [s * data.itemsize for s in strides]))


def _dense_strides(data) -> list:
    """The element strides of ``empty_like(data)``: ``data``'s own when its elements fill
    their memory without gaps or overlaps (size-1 dims count for nothing), else contiguous
    strides in the order of ``data``'s dims from outermost to innermost."""
    strides = [s // data.itemsize for s in data.strides]
    dims = sorted((d for d in range(data.ndim) if data.shape[d] != 1),
                  key=lambda d: (strides[d], -d))  # innermost first
    expected = 1
    for d in dims:
        if strides[d] != expected:
            break
        expected *= data.shape[d]
    else:
        return strides
    dense = [0] * data.ndim
    expected = 1
    for d in sorted(range(data.ndim), key=lambda d: (abs(strides[d]), -d)):
        dense[d] = expected
        expected *= data.shape[d]
    return dense


def feature_noise(input, p) -> Tensor:
    """``input.new_empty(N, C, 1, ..., 1).bernoulli_(p)``: one draw per sample and channel."""
    data = input._data
    if data.ndim < 2:
        raise RuntimeError("Feature dropout requires at least 2 dimensions in the input")
    shape = data.shape[:2] + (1,) * (data.ndim - 2)
    engine = _creation._generator(None)._engine
    draws = _random.bernoulli(engine, int(np.prod(shape)), p).astype(data.dtype)
    return Tensor._make(draws.reshape(shape))


_SELU_ALPHA = 1.7580993408473766  # SELU's -scale * alpha: where a dropped element goes


def dropout(input, p=0.5, train=True, inplace=False, *, feature=False, alpha=False):
    """torch's ``_dropout_impl``: the input itself when nothing is dropped (``p == 0``, eval
    mode, or no elements); times a zero for ``p == 1``; else times the noise (per channel for
    ``feature``), scaled by ``1 / (1 - p)``, or for ``alpha`` made ``a`` or 0, plus ``b``."""
    if p == 0 or not train or input.numel() == 0:
        return input
    if p == 1:
        zero = Tensor._make(np.zeros((), dtype=input._data.dtype))
        return input.mul_(zero) if inplace else mul(input, zero)
    noise = feature_noise(input, 1 - p) if feature else bernoulli_like(input, 1 - p)
    if alpha:
        a = 1.0 / math.sqrt((_SELU_ALPHA * _SELU_ALPHA * p + 1) * (1 - p))
        b = noise.add(-1).mul_(_SELU_ALPHA * a).add_(_SELU_ALPHA * a * p)
        noise.mul_(a)
    else:
        noise.div_(1 - p)
    out = input.mul_(noise) if inplace else mul(input, noise)
    return out.add_(b) if alpha else out


# F.dropout hands its arguments to torch's compiled dropout/dropout_, whose parser checks them
@parses('dropout(Tensor input, float p, bool train)')
def dropout_checked(input, p, train):
    return dropout(input, p, train)


@parses('dropout_(Tensor input, float p, bool train)')
def dropout_checked_(input, p, train):
    return dropout(input, p, train, inplace=True)


# torch's compiled feature_dropout, alpha_dropout and feature_alpha_dropout (and their in-place
# forms), which F's functions call after their own checks
def _variant(name, feature, alpha):
    @parses(f'{name}(Tensor input, float p, bool train)')
    def op(input, p, train):
        return dropout(input, p, train, feature=feature, alpha=alpha)

    @parses(f'{name}_(Tensor input, float p, bool train)')
    def op_(input, p, train):
        return dropout(input, p, train, inplace=True, feature=feature, alpha=alpha)

    return op, op_


feature_dropout, feature_dropout_ = _variant('feature_dropout', True, False)
alpha_dropout, alpha_dropout_ = _variant('alpha_dropout', False, True)
feature_alpha_dropout, feature_alpha_dropout_ = _variant('feature_alpha_dropout', True, True)
