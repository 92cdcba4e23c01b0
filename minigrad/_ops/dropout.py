"""``dropout``: zero each element with probability ``p`` and scale the rest by ``1 / (1 - p)``.

torch has no dropout node on the CPU: its ``_dropout_impl`` (aten/src/ATen/native/Dropout.cpp)
draws a noise tensor shaped like the input with ``bernoulli_(1 - p)``, divides it in place by
``1 - p`` and multiplies, so the graph shows one ``MulBackward0`` whose saved ``other`` is the
noise. minigrad composes the same ops, so the same ``manual_seed`` gives the same zeros.

The noise is laid out in memory like the input (``empty_like``) and drawn in memory order, as
torch's kernel fills it: a transposed input gets its numbers in the order of its storage.
"""

from __future__ import annotations

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


def dropout(input, p=0.5, train=True, inplace=False):
    """torch's ``dropout``/``dropout_``: the input itself when nothing is dropped (``p == 0``,
    eval mode, or no elements); times a zero for ``p == 1``; else times the scaled noise."""
    if p == 0 or not train or input.numel() == 0:
        return input
    if p == 1:
        zero = Tensor._make(np.zeros((), dtype=input._data.dtype))
        return input.mul_(zero) if inplace else mul(input, zero)
    noise = bernoulli_like(input, 1 - p)
    noise.div_(1 - p)
    return input.mul_(noise) if inplace else mul(input, noise)


# F.dropout hands its arguments to torch's compiled dropout/dropout_, whose parser checks them
@parses('dropout(Tensor input, float p, bool train)')
def dropout_checked(input, p, train):
    return dropout(input, p, train)


@parses('dropout_(Tensor input, float p, bool train)')
def dropout_checked_(input, p, train):
    return dropout(input, p, train, inplace=True)
