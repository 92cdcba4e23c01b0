"""In-place ops whose input overlaps the written-to tensor: the same memory is fine, a partial
overlap is refused (torch's ``assert_no_partial_overlap``); both checked against torch."""

from __future__ import annotations

import numpy as np
import pytest
import torch

import minigrad

CASES = {
    "same tensor": lambda a: a.add_(a),
    "shifted slice": lambda a: a[1:].add_(a[:-1]),
    "row into matrix": lambda a: a.view(2, 3).mul_(a.view(2, 3)[0]),
    "disjoint halves": lambda a: a[:3].sub_(a[3:]),
    "reversed view": lambda a: a.view(2, 3).t().add_(a.view(3, 2)),
    "div by itself": lambda a: a.div_(a),
}


def _run(lib, case):
    a = lib.arange(1.0, 7.0)
    try:
        CASES[case](a)
    except RuntimeError as e:
        return "error", str(e)
    return "value", a.tolist()


@pytest.mark.parametrize("case", list(CASES))
def test_overlapping_inplace_matches_torch(case):
    got, expected = _run(minigrad, case), _run(torch, case)
    assert got[0] == expected[0], (got, expected)
    if got[0] == "value":
        np.testing.assert_allclose(got[1], expected[1])
    else:
        assert got[1] == expected[1]
