"""``minigrad.testing``: ``assert_close``, the check PyTorch's docs and tutorials use to say
"these two results agree", with torch's rules and torch's messages.

Why it is here: a learner who pastes ``torch.testing.assert_close(ours, expected)`` from a
tutorial needs the same verdict torch gives, and when it fails, the same report (how many
elements differ, the greatest absolute and relative difference and where), so the report can be
read against torch's. The rules, as torch's ``torch/testing/_comparison.py``:

* inputs are compared pair by pair, recursing through sequences (not strings) and mappings
  (their keys must match); a leaf pair is ``None`` with ``None``, bool with bool, number with
  number (Python or NumPy), or tensor-like with tensor-like (tensors; NumPy arrays; one must be
  an instance of the other's type);
* tensors must agree in shape, and by default in dtype, device and layout (``check_stride``
  adds the strides); then every element must satisfy ``|actual - expected| <= atol + rtol *
  |expected|`` (``isclose``), with ``inf`` only close to itself and NaN only to NaN under
  ``equal_nan``;
* default tolerances by dtype (the loosest of the two): float16 (1e-3, 1e-5), float32
  (1.3e-6, 1e-5), float64 (1e-7, 1e-7), anything else exact; ``rtol`` and ``atol`` are given
  together or not at all;
* ``msg`` replaces the report (a string) or rewrites it (a callable).
"""

from __future__ import annotations

import cmath
import collections.abc
import warnings

import numpy as np

from minigrad import _dtype
from minigrad._creation import as_tensor, tensor
from minigrad._tensor import Tensor

__all__ = ["assert_close", "assert_allclose"]

# dtype -> (rtol, atol), torch's _DTYPE_PRECISIONS
_PRECISIONS = {_dtype.float16: (0.001, 1e-5), _dtype.float32: (1.3e-6, 1e-5),
               _dtype.float64: (1e-7, 1e-7)}
_ALLCLOSE_PRECISIONS = {_dtype.float16: (1e-3, 1e-3), _dtype.float32: (1e-4, 1e-5),
                        _dtype.float64: (1e-5, 1e-8)}
# a Python number is compared as the dtype torch gives it
_NUMBER_DTYPES = {int: _dtype.int64, float: _dtype.float64}


class _Mismatch(Exception):
    """One failed pair: the exception type to raise, its message and where it sits in the
    nested inputs (torch's ``ErrorMeta``)."""

    def __init__(self, kind: type[Exception], msg: str, id: tuple = ()):
        super().__init__(msg)
        self.kind, self.msg, self.id = kind, msg, id

    def to_error(self, msg=None) -> Exception:
        if not isinstance(msg, str):
            text = self.msg
            if self.id:
                text += ("\n\nThe failure occurred for item "
                         + "".join(str([item]) for item in self.id))
            msg = msg(text) if callable(msg) else text
        return self.kind(msg)


class _Unsupported(Exception):
    """This kind of pair cannot take these inputs: try the next kind."""


def _tolerances(dtypes, rtol, atol, id) -> tuple[float, float]:
    if (rtol is None) != (atol is None):
        raise _Mismatch(ValueError, "Both 'rtol' and 'atol' must be either specified or omitted, "
                                    f"but got no {'rtol' if rtol is None else 'atol'}.", id)
    if rtol is not None:
        return rtol, atol
    rtols, atols = zip(*[_PRECISIONS.get(d, (0.0, 0.0)) for d in dtypes])
    return max(rtols), max(atols)


def _mismatch_report(identifier: str, extra: str, abs_diff, abs_idx, atol, rel_diff, rel_idx,
                     rtol) -> str:
    equality = rtol == 0 and atol == 0

    def line(kind, diff, idx, tol):
        text = (f"{kind.title()} difference: {diff}" if idx is None
                else f"Greatest {kind} difference: {diff} at index {idx}")
        return text + ("" if equality else f" (up to {tol} allowed)") + "\n"

    text = f"{identifier} are not {'equal' if equality else 'close'}!\n\n{extra.strip()}\n"
    text += line("absolute", abs_diff, abs_idx, atol) + line("relative", rel_diff, rel_idx, rtol)
    return text.strip()


def _scalar_report(actual, expected, rtol, atol) -> str:
    abs_diff = abs(actual - expected)
    rel_diff = float("inf") if expected == 0 else abs_diff / abs(expected)
    return _mismatch_report("Scalars", f"Expected {expected} but got {actual}.", abs_diff, None,
                            atol, rel_diff, None, rtol)


def _compare_none(actual, expected, id, **_):
    if not (actual is None and expected is None):
        raise _Mismatch(AssertionError, f"None mismatch: {actual} is not {expected}", id)


def _compare_bool(actual, expected, id, **_):
    actual, expected = bool(actual), bool(expected)
    if actual is not expected:
        raise _Mismatch(AssertionError, f"Booleans mismatch: {actual} is not {expected}", id)


def _compare_number(actual, expected, id, rtol, atol, equal_nan, check_dtype, **_):
    actual, expected = (x.item() if isinstance(x, np.number) else x for x in (actual, expected))
    if isinstance(actual, complex) or isinstance(expected, complex):
        dtypes = [_dtype.float64, _dtype.float64]  # complex128's tolerances are float64's
    else:
        dtypes = [_NUMBER_DTYPES[type(x)] if type(x) in _NUMBER_DTYPES else _dtype.int64
                  for x in (actual, expected)]
    rtol, atol = _tolerances(dtypes, rtol, atol, id)
    if check_dtype and type(actual) is not type(expected):
        raise _Mismatch(AssertionError,
                        f"The (d)types do not match: {type(actual)} != {type(expected)}.", id)
    if actual == expected:
        return
    if equal_nan and cmath.isnan(actual) and cmath.isnan(expected):
        return
    abs_diff = abs(actual - expected)
    if cmath.isfinite(abs_diff) and abs_diff <= atol + rtol * abs(expected):
        return
    raise _Mismatch(AssertionError, _scalar_report(actual, expected, rtol, atol), id)


def _to_tensor(x) -> Tensor:
    if isinstance(x, Tensor):
        return x
    try:
        return as_tensor(x)
    except Exception:
        raise _Unsupported from None


def _compare_tensors(actual, expected, id, rtol, atol, equal_nan, check_device, check_dtype,
                     check_stride, **_):
    actual, expected = _to_tensor(actual), _to_tensor(expected)
    rtol, atol = _tolerances([actual.dtype, expected.dtype], rtol, atol, id)

    def differ(attribute, a, e):
        raise _Mismatch(AssertionError,
                        f"The values for attribute '{attribute}' do not match: {a} != {e}.", id)

    if actual.shape != expected.shape:
        differ("shape", actual.shape, expected.shape)
    if check_stride and actual.stride() != expected.stride():
        differ("stride()", actual.stride(), expected.stride())
    if check_device and actual.device != expected.device:
        differ("device", actual.device, expected.device)
    if check_dtype and actual.dtype != expected.dtype:
        differ("dtype", actual.dtype, expected.dtype)
    a, e = actual.detach(), expected.detach()
    if a.dtype != e.dtype:
        common = _dtype.promote_types(a.dtype, e.dtype)
        a, e = a.to(common), e.to(common)
    _compare_values(a, e, rtol, atol, equal_nan, id)


def _compare_values(actual, expected, rtol, atol, equal_nan, id) -> None:
    """Every element close, or torch's report of how many are not, and the worst of them."""
    a, e = actual.numpy(), expected.numpy()
    matches = _isclose(a, e, rtol, atol, equal_nan)
    if matches.all():
        return
    if a.ndim == 0:
        raise _Mismatch(AssertionError, _scalar_report(a.item(), e.item(), rtol, atol), id)
    total = matches.size
    wrong = total - int(matches.sum())
    extra = f"Mismatched elements: {wrong} / {total} ({wrong / total:.1%})"
    flat_a, flat_e, flat_m = a.reshape(-1), e.reshape(-1), matches.reshape(-1)
    if actual.dtype.is_floating_point:
        dtype = a.dtype
    else:  # torch upcasts integers and bools to int64 before subtracting
        dtype = np.int64
        flat_a, flat_e = flat_a.astype(np.int64), flat_e.astype(np.int64)
    with np.errstate(all="ignore"):
        abs_diff = np.abs(flat_a - flat_e).astype(dtype)
        abs_diff[flat_m] = 0
        rel_diff = abs_diff / np.abs(flat_e)  # integers: a float64 ratio, as torch's true division
        if not actual.dtype.is_floating_point:
            rel_diff = rel_diff.astype(np.float32)  # torch divides int64 into the default dtype
        rel_diff[flat_m] = 0
    abs_at, rel_at = _argmax_nan_first(abs_diff), _argmax_nan_first(rel_diff)
    raise _Mismatch(AssertionError, _mismatch_report(
        "Tensor-likes", extra, abs_diff[abs_at].item(), _unravel(abs_at, a.shape), atol,
        rel_diff[rel_at].item(), _unravel(rel_at, a.shape), rtol), id)


def _unravel(flat: int, shape: tuple) -> tuple[int, ...]:
    return tuple(int(i) for i in np.unravel_index(flat, shape))


def _argmax_nan_first(x: np.ndarray) -> int:
    """torch.max(x, 0)'s index: the first NaN if there is one (NaN is the greatest), else the
    first greatest value."""
    if x.dtype.kind == "f":
        nan = np.isnan(x)
        if nan.any():
            return int(np.argmax(nan))
    return int(np.argmax(x))


def _isclose(a, e, rtol, atol, equal_nan) -> np.ndarray:
    """torch.isclose: equal elements (infinities included) are close; otherwise finite and within
    ``atol + rtol * |e|``; NaN only with ``equal_nan``."""
    if a.dtype == np.bool_ or (a.dtype.kind in "iu" and rtol == 0 and atol == 0):
        return a == e
    with np.errstate(all="ignore"):
        close = a == e
        if equal_nan and a.dtype.kind == "f":
            close |= np.isnan(a) & np.isnan(e)
        if a.dtype.kind == "f":
            diff = np.abs(a - e)
            allowed = np.asarray(atol, a.dtype) + np.asarray(rtol, a.dtype) * np.abs(e)
            close |= np.isfinite(diff) & (diff <= allowed)
        else:
            diff = np.abs(a.astype(np.float64) - e.astype(np.float64))
            close |= diff <= atol + rtol * np.abs(e.astype(np.float64))
    return close


_PAIRS = (_compare_none, _compare_bool, _compare_number, _compare_tensors)


def _pairs(actual, expected, id: tuple, options: dict) -> list:
    """The leaf pairs of two nested inputs, each with the comparison that takes it."""
    sequence = collections.abc.Sequence
    if (isinstance(actual, sequence) and not isinstance(actual, str)
            and isinstance(expected, sequence) and not isinstance(expected, str)):
        if len(actual) != len(expected):
            raise _Mismatch(AssertionError, f"The length of the sequences mismatch: "
                                            f"{len(actual)} != {len(expected)}", id)
        return [p for i in range(len(actual))
                for p in _pairs(actual[i], expected[i], (*id, i), options)]
    mapping = collections.abc.Mapping
    if isinstance(actual, mapping) and isinstance(expected, mapping):
        keys_a, keys_e = set(actual.keys()), set(expected.keys())
        if keys_a != keys_e:
            raise _Mismatch(AssertionError, (
                f"The keys of the mappings do not match:\n"
                f"Missing keys in the actual mapping: {sorted(keys_e - keys_a)}\n"
                f"Additional keys in the actual mapping: {sorted(keys_a - keys_e)}"), id)
        keys = list(keys_a)
        try:
            keys = sorted(keys)
        except Exception:
            pass
        return [p for k in keys for p in _pairs(actual[k], expected[k], (*id, k), options)]
    for compare in _PAIRS:
        if _takes(compare, actual, expected, options):
            rtol, atol = options["rtol"], options["atol"]
            if compare in (_compare_number, _compare_tensors) and (rtol is None) != (atol is None):
                # torch builds every pair, checking its tolerances, before comparing any
                _tolerances((), rtol, atol, id)
            return [(compare, actual, expected, id)]
    raise _Mismatch(TypeError, f"No comparison pair was able to handle inputs of type "
                               f"{type(actual)} and {type(expected)}.", id)


def _takes(compare, actual, expected, options) -> bool:
    """Whether ``compare`` accepts this pair of inputs (torch tries its pair types in turn)."""
    if compare is _compare_none:
        return actual is None or expected is None
    if compare is _compare_bool:
        return all(isinstance(x, bool | np.bool_) for x in (actual, expected))
    if compare is _compare_number:
        return all(isinstance(x, int | float | complex | np.number) for x in (actual, expected))
    if not (isinstance(actual, type(expected)) or isinstance(expected, type(actual))):
        return False
    if not options["allow_subclasses"] and type(actual) is not type(expected):
        return False
    try:
        _to_tensor(actual), _to_tensor(expected)
    except _Unsupported:
        return False
    return True


def assert_close(actual, expected, *, allow_subclasses=True, rtol=None, atol=None,
                 equal_nan=False, check_device=True, check_dtype=True, check_layout=True,
                 check_stride=False, msg=None):
    """Raise an AssertionError, with torch's report, unless ``actual`` and ``expected`` are
    close (see the module's docstring for the rules)."""
    __tracebackhide__ = True
    options = dict(allow_subclasses=allow_subclasses, rtol=rtol, atol=atol, equal_nan=equal_nan,
                   check_device=check_device, check_dtype=check_dtype,
                   check_layout=check_layout, check_stride=check_stride)
    try:
        pairs = _pairs(actual, expected, (), options)
    except _Mismatch as mismatch:
        raise mismatch.to_error() from None
    for compare, a, e, id in pairs:
        try:
            compare(a, e, id=id, **options)
        except _Mismatch as mismatch:
            raise mismatch.to_error(msg) from None


def assert_allclose(actual, expected, rtol=None, atol=None, equal_nan=True, msg=""):
    """torch's deprecated predecessor of ``assert_close``: warns, then compares with
    ``equal_nan=True`` and no dtype check."""
    warnings.warn(
        "`torch.testing.assert_allclose()` is deprecated since 1.12 and will be removed in a "
        "future release. Please use `torch.testing.assert_close()` instead. You can find "
        "detailed upgrade instructions in https://github.com/pytorch/pytorch/issues/61844.",
        FutureWarning, stacklevel=2)
    if not isinstance(actual, Tensor):
        actual = tensor(actual)
    if not isinstance(expected, Tensor):
        expected = tensor(expected, dtype=actual.dtype)
    if rtol is None and atol is None:  # its own, looser, defaults
        rtol, atol = (max(x) for x in zip(*[_ALLCLOSE_PRECISIONS.get(d, (0.0, 0.0))
                                            for d in (actual.dtype, expected.dtype)]))
    assert_close(actual, expected, rtol=rtol, atol=atol, equal_nan=equal_nan, check_device=True,
                 check_dtype=False, check_stride=False, msg=msg or None)
