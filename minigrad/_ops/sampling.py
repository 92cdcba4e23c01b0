"""multinomial: indices drawn with the probabilities of each row, as torch draws them on CPU.

Without replacement (and for one sample), torch's Gumbel trick: ``p / q`` with ``q`` drawn by
``exponential_`` (one per element, in memory order), then ``argmax`` or ``topk``. With
replacement, one float64 uniform per sample, searched in the row's cumulative sum (summed and
normalised in the input's dtype, its last entry set to 1). No gradient: the result is int64.
"""

from __future__ import annotations

import numpy as np

from minigrad import _creation, _random
from minigrad._ops import sorting
from minigrad._ops._args import parses
from minigrad._tensor import Tensor


@parses('multinomial(Tensor input, int num_samples, bool replacement = False, *, '
        'torch.Generator? generator = None, Tensor out = None)')
def multinomial(input, num_samples, replacement=False, *, generator=None):  # noqa: A002
    data = input._data
    if not 1 <= data.ndim <= 2:
        raise RuntimeError("prob_dist must be 1 or 2 dim")
    if data.dtype.kind != "f":
        raise RuntimeError("multinomial only supports floating-point dtypes for input, got: "
                           f"{input.dtype.scalar_name}")
    if num_samples <= 0:
        raise RuntimeError("cannot sample n_sample <= 0 samples")
    if not replacement and num_samples > data.shape[-1]:
        raise RuntimeError("cannot sample n_sample > prob_dist.size(-1) samples without "
                           "replacement")
    if data.shape[-1] > 2**24:
        raise RuntimeError("number of categories cannot exceed 2^24")
    shape = (num_samples,) if data.ndim == 1 else (data.shape[0], num_samples)
    engine = _creation._generator(generator)._engine
    if 0 in shape:
        return Tensor._make(np.zeros(shape, np.int64))
    if not replacement or num_samples == 1:
        return Tensor._make(_gumbel(engine, data, num_samples))
    if data.shape[-1] == 0:  # every row sums to 0
        raise RuntimeError("invalid multinomial distribution (sum of probabilities <= 0)")
    rows = data.reshape(-1, data.shape[-1])
    out = np.stack([_with_replacement(engine, row, num_samples) for row in rows])
    return Tensor._make(out.reshape(shape))


def _gumbel(engine, data, k):
    if not (data.max() < np.inf and data.min() >= 0):  # nan fails both
        raise RuntimeError("probability tensor contains either `inf`, `nan` or element < 0")
    if (data.sum(-1) == 0).any():
        raise RuntimeError("invalid multinomial distribution (sum of probabilities <= 0)")
    # empty_like keeps a transposed (dense) input's strides: q is drawn in memory order
    transposed = data.ndim == 2 and data.flags.f_contiguous and not data.flags.c_contiguous
    q = _random.exponential(engine, data.size, data.dtype, 1.0)
    q = q.reshape(data.shape[::-1]).T if transposed else q.reshape(data.shape)
    with np.errstate(divide="ignore", invalid="ignore"):
        ratio = (data / q).astype(data.dtype)
    if k == 1:
        return np.argmax(ratio, axis=-1, keepdims=True).astype(np.int64)
    return sorting._topk_order(ratio, ratio.ndim - 1, k, True, True).astype(np.int64)


def _with_replacement(engine, row, k):
    bad = ~(row >= 0) | ~np.isfinite(row)
    if bad.any():  # torch checks entry by entry: the first bad one names the error
        first = row[np.argmax(bad)]
        what = "< 0" if not first >= 0 else "= infinity or NaN"
        raise RuntimeError(f"invalid multinomial distribution (encountering probability entry "
                           f"{what})")
    acc = np.float32 if row.dtype == np.float16 else row.dtype  # half sums in float
    cum = np.cumsum(row.astype(acc), dtype=acc)
    total = cum[-1]
    if not total > 0:
        raise RuntimeError("invalid multinomial distribution (sum of probabilities <= 0)")
    cum = (cum / total).astype(acc)
    cum[-1] = 1
    u = _random.uniform(engine, k, np.float64)
    return np.searchsorted(cum.astype(np.float64), u, side="left").astype(np.int64)
