"""Ties in sort (not stable) and topk come out in torch's order.

torch's CPU kernels leave tied values where libstdc++'s ``std::sort``, ``std::nth_element``
and ``std::partial_sort`` put them (minigrad/_ops/stl_sort.py runs the same algorithms).
Rows full of ties, NaNs, both directions, every k and ``sorted`` flag, rows short and long
(insertion sort below 16, introsort and introselect above, the heap when ``k * 64 <= n``),
each compared with torch's indices computed now.
"""

from __future__ import annotations

import numpy as np
import pytest
import torch

import minigrad


def _rows(seed):
    rng = np.random.default_rng(seed)
    n = int(rng.choice([3, 15, 17, 40, 130, 700]))
    kind = seed % 4
    if kind == 0:
        a = rng.integers(0, 4, (3, n)).astype(np.float32)
    elif kind == 1:
        a = rng.integers(-3, 3, (2, n)).astype(np.int64)
    elif kind == 2:
        a = rng.integers(0, 5, (2, n)).astype(np.float64)
        a[rng.random(a.shape) < 0.1] = np.nan
    else:
        a = rng.standard_normal((2, n)).astype(np.float32)
    return rng, a


@pytest.mark.parametrize("seed", range(24))
def test_sort_and_topk_indices_match_torch(seed):
    _, a = _rows(seed)
    n = a.shape[1]
    t, m = torch.from_numpy(a), minigrad.from_numpy(a)
    for descending in (False, True):
        for dim in (0, 1):
            assert np.array_equal(m.sort(dim, descending=descending).indices.numpy(),
                                  t.sort(dim, descending=descending).indices.numpy())
    for k in {0, 1, 2, min(5, n), n // 2, n}:
        for largest in (True, False):
            for sorted_ in (True, False):
                ours = m.topk(k, 1, largest, sorted_)
                theirs = t.topk(k, 1, largest, sorted_)
                assert np.array_equal(ours.indices.numpy(), theirs.indices.numpy()), \
                    (k, largest, sorted_)
                assert np.array_equal(ours.values.numpy(), theirs.values.numpy(),
                                      equal_nan=True)
