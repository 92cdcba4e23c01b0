"""Data types named like torch's, each a thin wrapper around a NumPy dtype.

Why our own objects and not NumPy's: lesson code says ``x.dtype == minigrad.float64`` and prints
``x.dtype``; torch prints ``torch.float64``, so minigrad prints ``minigrad.float64``. The only
deliberate difference from torch is that module prefix.
"""

from __future__ import annotations

import builtins
import math

import numpy as np

from minigrad import _left_out


class dtype:  # noqa: N801 - torch's spelling
    """One element type: its NumPy counterpart and the facts autograd needs about it."""

    __slots__ = ("name", "numpy", "is_floating_point", "is_signed", "legacy_name")
    is_complex = False  # every minigrad dtype is real: complex ones are left out

    def __init__(self, name: str, numpy_dtype, legacy_name: str):
        self.name = name
        self.numpy = np.dtype(numpy_dtype)
        self.is_floating_point = self.numpy.kind == "f"
        self.is_signed = self.numpy.kind in "fi"
        self.legacy_name = legacy_name  # what torch calls the tensor type in messages

    @property
    def scalar_name(self) -> str:
        """torch's ScalarType name, as its kernel errors print it: 'Float', 'Long', 'Bool'."""
        return self.legacy_name.removesuffix("Tensor")

    @property
    def itemsize(self) -> int:
        return self.numpy.itemsize

    @property
    def abbr(self) -> str:
        """torch's short name: 'f32', 'i64', 'u8', 'b8'."""
        return f"{self.numpy.kind}{8 * self.itemsize}"

    def to_real(self) -> dtype:
        """The real dtype of the same precision: a real dtype is its own."""
        return self

    def to_complex(self) -> dtype:
        """torch's complex dtype of the same precision (complex64 for float32), which minigrad
        leaves out; an integer or bool dtype has none, with torch's error."""
        if self.is_floating_point:
            raise _left_out.missing("minigrad", {2: "complex32", 4: "complex64",
                                                 8: "complex128"}[self.itemsize])
        raise RuntimeError(f"Unknown Complex ScalarType for {self.scalar_name}")

    def __repr__(self) -> str:
        return f"minigrad.{self.name}"

    def __reduce__(self):
        return self.name


dtype.__module__ = "minigrad"  # type(x.dtype) prints <class 'minigrad.dtype'>, as torch's

float16 = half = dtype("float16", np.float16, "HalfTensor")
float32 = float = dtype("float32", np.float32, "FloatTensor")
float64 = double = dtype("float64", np.float64, "DoubleTensor")
int8 = dtype("int8", np.int8, "CharTensor")
uint8 = dtype("uint8", np.uint8, "ByteTensor")
int16 = short = dtype("int16", np.int16, "ShortTensor")
int32 = int = dtype("int32", np.int32, "IntTensor")
int64 = long = dtype("int64", np.int64, "LongTensor")
bool = dtype("bool", np.bool_, "BoolTensor")

_ALL = (float16, float32, float64, int8, uint8, int16, int32, int64, bool)
_BY_NUMPY = {d.numpy: d for d in _ALL}

_default_dtype = float32


def get_default_dtype() -> dtype:
    return _default_dtype


def set_default_dtype(d: dtype) -> None:
    """Like torch: only floating types may be the default."""
    global _default_dtype
    if not isinstance(d, dtype) or not d.is_floating_point:
        raise TypeError("only floating-point types are supported as the default type")
    _default_dtype = d


def from_numpy_dtype(np_dtype) -> dtype:
    try:
        return _BY_NUMPY[np_dtype]  # already a NumPy dtype: ``x.dtype`` asks this per op
    except (KeyError, TypeError):
        pass
    try:
        return _BY_NUMPY[np.dtype(np_dtype)]
    except KeyError:
        raise unsupported_numpy(np_dtype) from None


def unsupported_numpy(np_dtype) -> TypeError:
    """torch's error for an array of a NumPy type it cannot read (``object_``, ``str_``,
    ``longdouble``...): the type's own name, and every type torch reads, though minigrad
    leaves out complex and the wider unsigned ones."""
    return TypeError(
        f"can't convert np.ndarray of type numpy.{np.dtype(np_dtype).type.__name__}. The only "
        "supported types are: float64, float32, float16, complex64, complex128, int64, int32, "
        "int16, int8, uint64, uint32, uint16, uint8, and bool.")


def category(d: dtype) -> int:
    """0 for bool, 1 for integers, 2 for floats: promotion only climbs this ladder."""
    if d is bool:
        return 0
    return 2 if d.is_floating_point else 1


def promote_types(a: dtype, b: dtype) -> dtype:
    """torch's table: a float beats any integer as it is (int64 + float32 is float32, where
    NumPy says float64); within one category, NumPy's table agrees with torch's."""
    if category(a) != category(b):
        return a if category(a) > category(b) else b
    return from_numpy_dtype(np.promote_types(a.numpy, b.numpy))


class finfo:  # noqa: N801 - torch's spelling
    """``torch.finfo``: the limits of a floating dtype (NumPy knows them), printed as torch."""

    def __init__(self, type=None):  # noqa: A002 - torch's keyword
        d = type or get_default_dtype()
        if not d.is_floating_point:
            raise TypeError("torch.finfo() requires a floating point input type. Use "
                            "torch.iinfo to handle 'torch.finfo'")
        info = np.finfo(d.numpy)
        self.bits, self.dtype = info.bits, d.name
        # .item(): Python floats (this module's ``float`` is the dtype)
        self.eps, self.max, self.min = info.eps.item(), info.max.item(), info.min.item()
        self.tiny = self.smallest_normal = info.smallest_normal.item()
        self.resolution = info.resolution.item()

    def __repr__(self) -> str:
        return (f"finfo(resolution={self.resolution:g}, min={self.min:g}, max={self.max:g}, "
                f"eps={self.eps:g}, smallest_normal={self.smallest_normal:g}, "
                f"tiny={self.tiny:g}, dtype={self.dtype})")


class iinfo:  # noqa: N801 - torch's spelling
    """``torch.iinfo``: the limits of an integer dtype, printed as torch."""

    def __init__(self, type):  # noqa: A002 - torch's keyword
        if type is bool:
            raise TypeError("torch.bool is not supported by torch.iinfo")
        if type.is_floating_point:
            raise TypeError("torch.iinfo() requires an integer input type. Use torch.finfo "
                            "to handle 'torch.iinfo'")
        info = np.iinfo(type.numpy)
        self.bits, self.dtype, self.min, self.max = info.bits, type.name, info.min, info.max

    def __repr__(self) -> str:
        return f"iinfo(min={self.min:g}, max={self.max:g}, dtype={self.dtype})"


# What torch's C++ calls each integer type when a number does not fit it (c10's table).
_C_INT_NAMES = {"int64": "int64_t", "int32": "int", "int16": "int16_t", "int8": "int8_t",
                "uint8": "uint8_t"}


def check_fits(array, d: dtype, name=None) -> None:
    """torch refuses numbers that do not fit an integer dtype (nan and inf included):
    ``value cannot be converted to type ... without overflow``. Negative integers may wrap
    around into an unsigned type; negative floats may not. ``name``: how the caller's torch
    code names the type (the dtype's name, or C++'s for a number written into a tensor)."""
    array = np.asarray(array)
    if d.is_floating_point or d is bool or array.size == 0:
        return
    info = np.iinfo(d.numpy)
    lowest = info.min if (info.min < 0 or array.dtype.kind == "f") else -info.max
    finite = array.dtype.kind != "f" or np.isfinite(array).all()
    if not finite or array.min() < lowest or array.max() > info.max:
        raise RuntimeError(f"value cannot be converted to type {name or d.name} without "
                           "overflow")


# ... and each float type (a finite number beyond its largest one; inf and nan pass).
_C_FLOAT_NAMES = {"float32": "float", "float64": "double", "float16": "c10::Half",
                  "bfloat16": "c10::BFloat16"}


def check_number_fits(value, d: dtype) -> None:
    """A Python number written into a tensor (``x[0] = v``, ``fill_``, ``full``, ``clamp``'s
    bounds, ``masked_fill``): c10's ``checked_convert``, which refuses a number the dtype
    cannot hold (an integer type's range; a float type's largest finite number)."""
    if isinstance(value, builtins.bool) or d is bool:
        return
    if not d.is_floating_point:
        check_fits(value, d, _C_INT_NAMES[d.name])
    elif isinstance(value, builtins.int | builtins.float) and d.name in _C_FLOAT_NAMES:
        try:
            largest = builtins.float(np.finfo(d.numpy).max)
            too_big = abs(builtins.float(value)) > largest and not math.isinf(value)
        except OverflowError:  # an int beyond even a double's range
            too_big = True
        if too_big:
            raise RuntimeError(f"value cannot be converted to type {_C_FLOAT_NAMES[d.name]} "
                               "without overflow")
