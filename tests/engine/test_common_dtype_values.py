"""The values (bit for bit) of binary ops whose operands have different dtypes, against torch.

``test_dtype_promotion.py`` checks which dtype comes out; this file checks the numbers. torch's
TensorIterator casts every operand to the common dtype before its kernel runs, so a 0-d
float64 tensor or a Python number meeting a float32 tensor is rounded to float32 first; NumPy
would compute in the wider type and round the result (another last digit for about half of
the elements). float16 adds torch's "opmath" kernels: ``mul`` and ``div`` by one number keep
that number in float32 and round each result once, and ``add``/``sub`` with ``alpha`` are one
fused multiply-add in float32 on contiguous operands.

The operations here are IEEE-exact (+, -, *, /, fmod, comparisons, fused multiply-add), so
the results must be identical on every CPU, not merely close.
"""

from __future__ import annotations

import operator

import numpy as np
import pytest
import torch
from hypothesis import given, settings
from hypothesis import strategies as st

import minigrad

TENSOR_DTYPES = ["float16", "float32", "float64", "int32", "int64"]
OTHER_KINDS = ["python float", "python int", "0-d float64", "0-d float32", "0-d float16",
               "0-d int64", "0-d int32", "[1] same dtype", "full float32", "full float64",
               "full float16"]
SINGLE = {kind for kind in OTHER_KINDS if not kind.startswith("full")}
# add/sub with alpha where the second operand is one number: torch's kernel for that case
# fuses x + alpha * other in its vectorised body but not in some of the elements its
# compiled remainder loop handles (which ones depends on the compiler's own vectorising);
# minigrad fuses them all. The generator puts the number first there (measured: all fused).
ALPHA_OPS = {"add_alpha", "sub_alpha", "sub_alpha_"}
OPS = {
    "add": operator.add, "sub": operator.sub, "mul": operator.mul, "truediv": operator.truediv,
    "floordiv": operator.floordiv, "mod": operator.mod,
    "fmod": lambda lib, a, b: lib.fmod(a, b), "remainder": lambda lib, a, b: lib.remainder(a, b),
    "div_trunc": lambda lib, a, b: lib.div(a, b, rounding_mode="trunc"),
    "div_floor": lambda lib, a, b: lib.div(a, b, rounding_mode="floor"),
    "maximum": lambda lib, a, b: lib.maximum(a, b),
    "eq": operator.eq, "lt": operator.lt,
    "add_alpha": lambda lib, a, b: lib.add(a, b, alpha=0.3),
    "sub_alpha": lambda lib, a, b: lib.sub(a, b, alpha=0.7),
    "mul_": lambda lib, a, b: a.clone().mul_(b), "div_": lambda lib, a, b: a.clone().div_(b),
    "add_": lambda lib, a, b: a.clone().add_(b),
    "sub_alpha_": lambda lib, a, b: a.clone().sub_(b, alpha=0.3),
    "floordiv_": lambda lib, a, b: a.clone().floor_divide_(b),
    "fmod_": lambda lib, a, b: a.clone().fmod_(b),
}
NEEDS_TENSOR_ARGS = {"maximum"}  # torch.maximum takes two tensors, no number
NUMBER_FIRST_OK = {"add", "sub", "mul", "truediv", "floordiv", "mod", "eq", "lt"}


def _other(lib, kind: str, value: float, dtype: str):
    if kind == "python float":
        return value
    if kind == "python int":
        return int(round(value * 3)) or 2
    if kind.startswith("0-d "):
        name = kind.removeprefix("0-d ")
        v = value if name.startswith("float") else (int(round(value * 3)) or 2)
        return lib.tensor(v, dtype=getattr(lib, name))
    if kind.startswith("full "):
        name = kind.removeprefix("full ")
        full = np.random.default_rng(int(abs(value) * 1000)).standard_normal((5, 7)) * 3
        return lib.tensor(full.astype(name))
    v = value if dtype.startswith("float") else (int(round(value * 3)) or 2)
    return lib.tensor([v], dtype=getattr(lib, dtype))


def _run(lib, op, data, dtype, kind, value, first, layout):
    t = lib.tensor(data.astype(dtype))
    if layout == "transposed":
        t = lib.tensor(np.ascontiguousarray(data.astype(dtype).T)).t()
    elif layout == "strided":
        t = lib.tensor(np.repeat(data.astype(dtype), 2, axis=-1))[..., ::2]
    other = _other(lib, kind, value, dtype)
    a, b = (t, other) if first else (other, t)
    fn = OPS[op]
    if fn in (operator.add, operator.sub, operator.mul, operator.truediv, operator.floordiv,
              operator.mod, operator.eq, operator.lt):
        return fn(a, b)
    return fn(lib, a, b)


def _outcome(lib, *args):
    try:
        out = _run(lib, *args)
    except Exception as exc:  # noqa: BLE001 - the error is the result to compare
        return type(exc).__name__
    return out


@settings(deadline=None, max_examples=400)
@given(op=st.sampled_from(sorted(OPS)), dtype=st.sampled_from(TENSOR_DTYPES),
       kind=st.sampled_from(OTHER_KINDS), first=st.booleans(),
       layout=st.sampled_from(["contiguous", "transposed", "strided"]),
       value=st.sampled_from([0.1, 0.3, -0.7, 1.5, 2.0, -3.25, 1e-3, 7.1]),
       seed=st.integers(0, 2**32 - 1))
def test_values_in_the_common_dtype(op, dtype, kind, first, layout, value, seed):
    if not first and (op.endswith("_") or op not in NUMBER_FIRST_OK and kind.startswith("python")):
        first = True  # in place, or no number-first overload: the tensor comes first
    if op in NEEDS_TENSOR_ARGS and kind.startswith("python"):
        kind = "0-d float64"
    if op in ALPHA_OPS and kind in SINGLE:
        if op.endswith("_"):
            kind = "full " + dtype if dtype.startswith("float") else "full float32"
        else:
            first = False
    rng = np.random.default_rng(seed)
    data = rng.standard_normal((5, 7)) * 4
    args = (op, data, dtype, kind, value, first, layout)
    expected, got = _outcome(torch, *args), _outcome(minigrad, *args)
    if isinstance(expected, str) or isinstance(got, str):
        assert got == expected, f"{args[0]}: minigrad {got} vs torch {expected}"
        return
    t_dtype = str(expected.dtype).removeprefix("torch.")
    m_dtype = str(got.dtype).removeprefix("minigrad.")
    assert m_dtype == t_dtype, f"dtype minigrad {m_dtype} vs torch {t_dtype}"
    e, g = expected.numpy(), got.numpy()
    same = (e == g) | (np.isnan(e) & np.isnan(g)) if e.dtype.kind == "f" else e == g
    bad = np.argwhere(~same)[:4].tolist()
    assert same.all(), (f"{(~same).sum()} of {same.size} differ, at {bad}: minigrad "
                        f"{[float(v).hex() for v in g[~same][:4]]} vs torch "
                        f"{[float(v).hex() for v in e[~same][:4]]}")


@pytest.mark.parametrize("lib_value", [0.1, 1 / 3])
def test_float16_times_a_number_keeps_the_number_in_float32(lib_value):
    """The one case a reader can check by hand: 0.1 is not rounded to float16 first."""
    x = np.arange(1, 2049, dtype=np.float16)
    expected = (torch.tensor(x) * lib_value).numpy()
    got = (minigrad.tensor(x) * lib_value).numpy()
    np.testing.assert_array_equal(got, expected)
    assert (got != (x * np.float16(lib_value))).any()  # rounding 0.1 first would differ
