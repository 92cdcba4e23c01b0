"""``minigrad.testing.assert_close`` against ``torch.testing.assert_close``: the same verdict
and, when it fails, the same exception and the same report, for hand-picked cases (nesting,
numbers, bools, None, NumPy inputs, tolerances, msg) and for random pairs of tensors."""

from __future__ import annotations

import warnings

import numpy as np
import pytest
import torch
from hypothesis import given, settings
from hypothesis import strategies as st

import minigrad


def outcome(lib, case):
    """What the call does on ``lib``: ("OK", warnings) or (exception type, message), with the
    library's name taken out of printed dtypes."""
    try:
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            case(lib)
        return "OK", [str(w.message) for w in caught]
    except Exception as error:  # noqa: BLE001 - the exception itself is what we compare
        return type(error).__name__, str(error).replace("minigrad.", "torch.")


def _case(f):
    return pytest.param(f, id=f"case{len(CASES)}")


CASES = []
for f in [
    lambda L: L.testing.assert_close(L.tensor([1., 2, 3]), L.tensor([1., 2.5, 3])),
    lambda L: L.testing.assert_close(L.tensor([[1., 2], [3, 4]]), L.tensor([[1., 2], [3, 5]])),
    lambda L: L.testing.assert_close(L.tensor([1., 2]), L.tensor([1., 2], dtype=L.float64)),
    lambda L: L.testing.assert_close(L.tensor([1., 2, 3]), L.tensor([1., 2])),
    lambda L: L.testing.assert_close(L.tensor([1, 2, 3]), L.tensor([1, 2, 4])),
    lambda L: L.testing.assert_close(L.tensor(1.0), L.tensor(1.5)),
    lambda L: L.testing.assert_close(1.0, 1.5),
    lambda L: L.testing.assert_close(1.0, 1),
    lambda L: L.testing.assert_close(1, 1.0, check_dtype=True),
    lambda L: L.testing.assert_close(2, 3),
    lambda L: L.testing.assert_close(1 + 1j, 1 + 2j),
    lambda L: L.testing.assert_close(float("nan"), float("nan"), equal_nan=True),
    lambda L: L.testing.assert_close([L.tensor(1.), L.tensor(2.)], [L.tensor(1.), L.tensor(3.)]),
    lambda L: L.testing.assert_close({"a": L.tensor(1.), "b": 2}, {"a": L.tensor(1.), "b": 3}),
    lambda L: L.testing.assert_close({"a": 1}, {"b": 1}),
    lambda L: L.testing.assert_close({"a": [1, {"c": 2.0}]}, {"a": [1, {"c": 2.5}]}),
    lambda L: L.testing.assert_close([1., 2.], (1., 2.5)),
    lambda L: L.testing.assert_close([1., 2.], (1.,)),
    lambda L: L.testing.assert_close(L.tensor([float("nan")]), L.tensor([float("nan")])),
    lambda L: L.testing.assert_close(L.tensor([float("nan"), 1.]), L.tensor([float("nan"), 1.]),
                                     equal_nan=True),
    lambda L: L.testing.assert_close(L.tensor([1., 2, 3]), L.tensor([1., 2.5, 3]), rtol=0.1),
    lambda L: L.testing.assert_close([None, L.tensor([1.])], [None, L.tensor([1.])], atol=0.1),
    lambda L: L.testing.assert_close(None, None, rtol=0.1),
    lambda L: L.testing.assert_close(L.tensor([1., 2, 3]), L.tensor([1., 2.5, 3]), rtol=0.1,
                                     atol=0),
    lambda L: L.testing.assert_close(L.tensor([1., 2, 3]), L.tensor([1., 2.5, 3]), msg="custom"),
    lambda L: L.testing.assert_close([L.tensor([1., 2, 3])], [L.tensor([1., 2.5, 3])],
                                     msg=lambda m: "pre " + m),
    lambda L: L.testing.assert_close({"w": 1}, {"v": 1}, msg="ignored for structure"),
    lambda L: L.testing.assert_close(L.tensor([1., 2, 3]), [1., 2, 3]),
    lambda L: L.testing.assert_close(L.tensor([[1., 2], [3, 4]]).t(), L.tensor([[1., 3], [2, 4]]),
                                     check_stride=True),
    lambda L: L.testing.assert_close(L.tensor([[1., 2], [3, 4]]).t(), L.tensor([[1., 3], [2, 4]])),
    lambda L: L.testing.assert_close(L.tensor([True, False]), L.tensor([True, True])),
    lambda L: L.testing.assert_close(True, False),
    lambda L: L.testing.assert_close(np.bool_(True), True),
    lambda L: L.testing.assert_close(np.float32(1.0), 1.0000001),
    lambda L: L.testing.assert_close(L.tensor([1., 2, 3], requires_grad=True),
                                     L.tensor([1., 2, 3.1])),
    lambda L: L.testing.assert_close(L.tensor([1e-9]), L.tensor([0.])),
    lambda L: L.testing.assert_close(L.tensor([1., float("inf")]), L.tensor([1., -float("inf")])),
    lambda L: L.testing.assert_close(L.tensor([1., float("inf")]), L.tensor([1., float("inf")])),
    lambda L: L.testing.assert_close(L.tensor([1., 2]), L.tensor([1., 2.1], dtype=L.float64),
                                     check_dtype=False),
    lambda L: L.testing.assert_close(L.tensor([1, 2]), L.tensor([1., 2.5]), check_dtype=False),
    lambda L: L.testing.assert_close("a", "a"),
    lambda L: L.testing.assert_close(None, None),
    lambda L: L.testing.assert_close(L.tensor([1., 2.]), None),
    lambda L: L.testing.assert_close(np.array([1., 2.]), np.array([1., 2.1])),
    lambda L: L.testing.assert_close(L.tensor([1., 2.], dtype=L.float16),
                                     L.tensor([1., 2.01], dtype=L.float16)),
    lambda L: L.testing.assert_close(L.tensor([3, 200], dtype=L.uint8),
                                     L.tensor([5, 2], dtype=L.uint8)),
    lambda L: L.testing.assert_close(L.tensor([3, 0]), L.tensor([5, 0]) * 0),
    lambda L: L.testing.assert_close(L.nn.Parameter(L.tensor([1.])), L.tensor([1.])),
    lambda L: L.testing.assert_close(L.nn.Parameter(L.tensor([1.])), L.tensor([1.]),
                                     allow_subclasses=False),
    lambda L: L.testing.assert_close(L.zeros(2, 3, 4),
                                     L.zeros(2, 3, 4) + L.arange(24.).reshape(2, 3, 4) * 1e-5),
    lambda L: L.testing.assert_allclose(L.tensor([1., 2.]), [1., 2.0001]),
    lambda L: L.testing.assert_allclose(L.tensor([1., 2.]), [1., 2.1]),
    lambda L: L.testing.assert_allclose([1., 2.], [1., 2.1]),
    lambda L: L.testing.assert_allclose(L.tensor([float("nan")]), [float("nan")]),
]:
    CASES.append(_case(f))


@pytest.mark.parametrize("case", CASES)
def test_assert_close_as_torch(case):
    assert outcome(minigrad, case) == outcome(torch, case)


FLOATS = st.floats(-1e3, 1e3, allow_nan=False, width=32) | st.sampled_from(
    [0.0, -0.0, float("inf"), -float("inf"), float("nan"), 1e-30])


@settings(max_examples=150, deadline=None)
@given(st.data())
def test_random_tensor_pairs_as_torch(data):
    """Random pairs: a tensor and a perturbed copy (a few elements nudged by about the
    tolerance, or set to inf/NaN), in a random dtype and shape, with default or given
    tolerances and equal_nan either way."""
    dtype = data.draw(st.sampled_from(["float16", "float32", "float64", "int64", "int32",
                                       "bool"]))
    shape = tuple(data.draw(st.lists(st.integers(1, 4), max_size=3)))
    n = int(np.prod(shape))
    values = np.array(data.draw(st.lists(FLOATS, min_size=n, max_size=n)), dtype=np.float64)
    other = values.copy()
    for i in data.draw(st.lists(st.integers(0, n - 1), max_size=3)):
        other[i] = data.draw(FLOATS | st.builds(
            lambda v, s: v * (1 + s), st.just(values[i]),
            st.sampled_from([1e-8, 1e-6, 2e-6, 1e-4, 1e-3, 1e-2])))
    if dtype in ("int64", "int32"):
        values, other = (np.nan_to_num(np.round(v), posinf=7, neginf=-7) for v in (values, other))
    elif dtype == "bool":
        values, other = values > 0, other > 0
    kwargs = {"equal_nan": data.draw(st.booleans())}
    if data.draw(st.booleans()):
        kwargs.update(rtol=data.draw(st.sampled_from([0.0, 1e-6, 1e-3])),
                      atol=data.draw(st.sampled_from([0.0, 1e-8, 1e-5, 1e-2])))

    def case(lib):
        def make(v):
            return lib.tensor(v.reshape(shape), dtype=getattr(lib, dtype))

        lib.testing.assert_close(make(values), make(other), **kwargs)

    assert outcome(minigrad, case) == outcome(torch, case)
