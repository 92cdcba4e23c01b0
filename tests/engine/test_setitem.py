"""``x[index] = value`` follows torch's ``set_item``: a full index writes into ``x`` itself,
a number or 0-d tensor is a ``fill_``, a tensor a ``copy_`` (leading size-1 dims dropped);
graph, values and gradients checked against torch."""

from __future__ import annotations

import numpy as np
import pytest
import torch

import minigrad

INDICES = {"...": Ellipsis, ":": slice(None), "0:2": slice(0, 2), "0": 0, "None": None,
           "(:, ...)": (slice(None), Ellipsis), "0:10": slice(0, 10), "(0:2,)": (slice(0, 2),)}
VALUES = {"number": lambda lib: 2.5, "0-d": lambda lib: lib.tensor(2.5, requires_grad=True),
          "[1]": lambda lib: lib.tensor([2.5], requires_grad=True),
          "[1, 1]": lambda lib: lib.tensor([[2.5]], requires_grad=True)}


def _names(fn):
    if fn is None:
        return None
    return (fn.name().split("::")[-1], tuple(_names(n) for n, _ in fn.next_functions))


def _run(lib, index, value):
    w = lib.tensor([1.0, 2.0, 3.0], requires_grad=True)
    x = w * 2
    v = VALUES[value](lib)
    try:
        x[INDICES[index]] = v
    except RuntimeError as e:
        return ("error", str(e).replace("minigrad", "torch"))
    (x * lib.tensor([1.0, 10.0, 100.0])).sum().backward()
    v_grad = v.grad.tolist() if isinstance(v, lib.Tensor) else None
    return (_names(x.grad_fn), x.tolist(), w.grad.tolist(), v_grad)


@pytest.mark.parametrize("value", list(VALUES))
@pytest.mark.parametrize("index", list(INDICES))
def test_setitem_matches_torch(index, value):
    got, expected = _run(minigrad, index, value), _run(torch, index, value)
    assert got[0] == expected[0]
    if got[0] != "error":
        for g, e in zip(got[1:], expected[1:]):
            np.testing.assert_allclose(np.asarray(g, dtype=float) if g is not None else np.nan,
                                       np.asarray(e, dtype=float) if e is not None else np.nan)
    else:
        assert got == expected
