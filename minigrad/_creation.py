"""Making tensors: from data, filled with a value, ranges, and random numbers.

Random numbers come from one NumPy generator seeded by ``manual_seed``. They are *not* the
numbers torch draws for the same seed (torch uses its own generator): lessons that compare the
two engines create data once and copy it across.
"""

from __future__ import annotations

import numbers
import warnings

import numpy as np

from minigrad import _dtype
from minigrad._tensor import Tensor, check_device

_generator = np.random.default_rng(0)


class Generator:
    """A seedable source of random numbers, as ``torch.Generator``."""

    def __init__(self, device="cpu"):
        self._rng = np.random.default_rng(0)

    def manual_seed(self, seed: int) -> Generator:
        self._rng = np.random.default_rng(seed)
        return self


def manual_seed(seed: int) -> Generator:
    global _generator
    _generator = np.random.default_rng(seed)
    return Generator().manual_seed(seed)


def _rng(generator=None):
    return _generator if generator is None else generator._rng


def _infer_dtype(data):
    """torch.tensor's rule: promote the elements' types, where a Python float counts as the
    default dtype, an int as int64, a bool as bool, and a NumPy scalar or tensor as its own."""
    result = None
    for x in _flatten(data):
        d = _element_dtype(x)
        result = d if result is None else _dtype.promote_types(result, d)
    return result or _dtype.get_default_dtype()


def _element_dtype(x):
    if isinstance(x, Tensor):
        return x.dtype
    if isinstance(x, np.generic):
        return _dtype.from_numpy_dtype(x.dtype)
    if isinstance(x, bool):
        return _dtype.bool
    if isinstance(x, numbers.Integral):
        return _dtype.int64
    if isinstance(x, numbers.Real):
        return _dtype.get_default_dtype()
    if isinstance(x, str):
        raise TypeError("new(): invalid data type 'str'")
    raise RuntimeError(f"Could not infer dtype of {type(x).__name__}")


def _flatten(data):
    if isinstance(data, list | tuple):
        for x in data:
            yield from _flatten(x)
    else:
        yield data


def _check_nesting(data) -> None:
    """Nested lists must be rectangular: sizes come from the first element at each depth."""
    sizes, x = [], data
    while isinstance(x, list | tuple):
        sizes.append(len(x))
        if not x:
            break
        x = x[0]

    def walk(x, dim):
        if dim == len(sizes):
            return
        if not isinstance(x, list | tuple):
            raise TypeError("not a sequence")
        if len(x) != sizes[dim]:
            raise ValueError(f"expected sequence of length {sizes[dim]} at dim {dim} "
                             f"(got {len(x)})")
        for y in x:
            walk(y, dim + 1)

    walk(data, 0)


def _check_fits(array: np.ndarray, dtype, name: str) -> None:
    """torch refuses Python numbers that do not fit an integer dtype (negative integers may
    wrap around into an unsigned type; negative floats may not)."""
    if dtype.is_floating_point or dtype is _dtype.bool or array.size == 0:
        return
    info = np.iinfo(dtype.numpy)
    lowest = info.min if (info.min < 0 or array.dtype.kind == "f") else -int(info.max)
    if array.min() < lowest or array.max() > info.max:
        raise RuntimeError(f"value cannot be converted to type {name} without overflow")


def _finish(t: Tensor, requires_grad: bool, device=None) -> Tensor:
    check_device(device)  # the CPU only: "cuda" raises a CPU-only torch's error
    if requires_grad:
        if not t.dtype.is_floating_point:  # a factory's wording, not requires_grad_'s
            raise RuntimeError("Only Tensors of floating point and complex dtype can require "
                               "gradients")
        t.requires_grad_(True)
    return t


def tensor(data, dtype=None, device=None, requires_grad=False) -> Tensor:
    """A new leaf tensor holding a copy of ``data`` (a number, nested lists, an array)."""
    if isinstance(data, Tensor):
        warnings.warn("To copy construct from a tensor, it is recommended to use "
                      "sourceTensor.detach().clone() or sourceTensor.detach().clone()"
                      ".requires_grad_(True), rather than minigrad.tensor(sourceTensor).",
                      UserWarning, stacklevel=2)
        array = data._data.copy()
        dtype = dtype or data.dtype
    elif isinstance(data, np.ndarray):
        array = data.copy()
        dtype = dtype or _dtype.from_numpy_dtype(array.dtype)
    else:
        inferred = _infer_dtype(data)
        if isinstance(data, list | tuple):
            data = [x.item() if isinstance(x, Tensor) and x.dim() == 0 else
                    (x.tolist() if isinstance(x, Tensor) else x) for x in data]
            _check_nesting(data)
        # floats asked for at a given float dtype are converted once, from Python's doubles,
        # as torch does (not rounded to the default float32 on the way)
        wide = dtype is not None and dtype.is_floating_point and inferred.is_floating_point
        array = np.array(data, dtype=np.float64 if wide else inferred.numpy)
        if dtype is not None:
            _check_fits(array, dtype, dtype.name)
        dtype = dtype or inferred
    array = np.array(array, dtype=dtype.numpy)
    return _finish(Tensor._make(array), requires_grad, device)


def as_tensor(data, dtype=None) -> Tensor:
    if isinstance(data, Tensor) and (dtype is None or dtype is data.dtype):
        return data
    if isinstance(data, np.ndarray) and (dtype is None or dtype.numpy == data.dtype):
        return from_numpy(data)
    return tensor(data, dtype=dtype)


def from_numpy(array: np.ndarray) -> Tensor:
    """A tensor sharing memory with ``array``: changing one changes the other."""
    if not isinstance(array, np.ndarray):
        raise TypeError(f"expected np.ndarray (got {type(array).__name__})")
    if array.dtype not in _dtype._BY_NUMPY:
        raise TypeError(f"can't convert np.ndarray of type numpy.{array.dtype.type.__name__}. "
                        "The only supported types are: float64, float32, float16, complex64, "
                        "complex128, int64, int32, int16, int8, uint64, uint32, uint16, uint8, "
                        "and bool.")
    return Tensor._make(array)


def _size(size, name: str = "zeros"):
    """The shape from ``f(2, 3)`` or ``f((2, 3))``, with torch's error for a negative size.
    (``f()`` gives a 0-d tensor, where torch asks for a size: minigrad's own code relies on
    ``zeros(*shape)`` working for every shape.)"""
    if len(size) == 1 and isinstance(size[0], tuple | list):
        size = size[0]
    size = tuple(size)
    for s in size:
        if s < 0:
            if name == "zeros":
                raise RuntimeError("zeros: Dimension size must be non-negative.")
            raise RuntimeError(f"Trying to create tensor with negative dimension {s}: "
                               f"{list(size)}")
    return size


def full(size, fill_value, *, dtype=None, requires_grad=False, device=None) -> Tensor:
    if dtype is None:
        dtype = (_dtype.bool if isinstance(fill_value, bool) else _dtype.int64
                 if isinstance(fill_value, numbers.Integral) else _dtype.get_default_dtype())
    if not dtype.is_floating_point and dtype is not _dtype.bool:
        _check_fits(np.asarray(fill_value), dtype, dtype.numpy.name + "_t")
    shape = _size((size,) if isinstance(size, int) else tuple(size), "full")
    return _finish(Tensor._make(np.full(shape, fill_value, dtype=dtype.numpy)), requires_grad,
                   device)


def zeros(*size, dtype=None, requires_grad=False, device=None) -> Tensor:
    dtype = dtype or _dtype.get_default_dtype()
    return _finish(Tensor._make(np.zeros(_size(size), dtype=dtype.numpy)), requires_grad, device)


def ones(*size, dtype=None, requires_grad=False, device=None) -> Tensor:
    dtype = dtype or _dtype.get_default_dtype()
    return _finish(Tensor._make(np.ones(_size(size, "ones"), dtype=dtype.numpy)), requires_grad,
                   device)


def empty(*size, dtype=None, requires_grad=False, device=None) -> Tensor:
    """Zeros, in fact: NumPy's uninitialised memory would make lessons unrepeatable."""
    dtype = dtype or _dtype.get_default_dtype()
    return _finish(Tensor._make(np.zeros(_size(size, "empty"), dtype=dtype.numpy)),
                   requires_grad, device)


def eye(n, m=None, *, dtype=None, requires_grad=False) -> Tensor:
    dtype = dtype or _dtype.get_default_dtype()
    return _finish(Tensor._make(np.eye(n, m, dtype=dtype.numpy)), requires_grad)


def arange(start, end=None, step=1, *, dtype=None, requires_grad=False, device=None) -> Tensor:
    if end is None:
        start, end = 0, start
    if dtype is None:
        is_float = any(isinstance(v, float) for v in (start, end, step))
        dtype = _dtype.get_default_dtype() if is_float else _dtype.int64
    if step == 0:
        raise RuntimeError("step must be nonzero")
    if (end - start) * step < 0:
        raise RuntimeError("upper bound and lower bound inconsistent with step sign")
    return _finish(Tensor._make(np.arange(start, end, step).astype(dtype.numpy)), requires_grad,
                   device)


def linspace(start, end, steps, *, dtype=None, requires_grad=False) -> Tensor:
    dtype = dtype or _dtype.get_default_dtype()
    return _finish(Tensor._make(np.linspace(start, end, steps).astype(dtype.numpy)),
                   requires_grad)


def rand(*size, generator=None, dtype=None, requires_grad=False) -> Tensor:
    dtype = dtype or _dtype.get_default_dtype()
    data = _rng(generator).random(_size(size, "rand")).astype(dtype.numpy)
    return _finish(Tensor._make(data), requires_grad)


def randn(*size, generator=None, dtype=None, requires_grad=False) -> Tensor:
    dtype = dtype or _dtype.get_default_dtype()
    data = _rng(generator).standard_normal(_size(size, "randn")).astype(dtype.numpy)
    return _finish(Tensor._make(data), requires_grad)


def randint(low, high=None, size=(), *, generator=None, dtype=None) -> Tensor:
    if high is None:
        low, high = 0, low
    dtype = dtype or _dtype.int64
    return Tensor._make(_rng(generator).integers(low, high, size).astype(dtype.numpy))


def randperm(n, *, generator=None) -> Tensor:
    return Tensor._make(_rng(generator).permutation(n).astype(np.int64))


def _like(maker):
    def like(input, *, dtype=None, requires_grad=False, **_):
        return maker(tuple(input.shape), dtype=dtype or input.dtype,
                     requires_grad=requires_grad)

    like.__name__ = maker.__name__ + "_like"
    return like


zeros_like, ones_like, empty_like = _like(zeros), _like(ones), _like(empty)


def rand_like(input, *, dtype=None, requires_grad=False):
    return rand(tuple(input.shape), dtype=dtype or input.dtype, requires_grad=requires_grad)


def randn_like(input, *, dtype=None, requires_grad=False):
    return randn(tuple(input.shape), dtype=dtype or input.dtype, requires_grad=requires_grad)


def full_like(input, fill_value, *, dtype=None, requires_grad=False):
    return full(input.shape, fill_value, dtype=dtype or input.dtype, requires_grad=requires_grad)


def new_zeros(self, *size, dtype=None, requires_grad=False, device=None) -> Tensor:
    """``x.new_zeros(size)``: zeros with ``x``'s dtype unless told otherwise."""
    return zeros(*size, dtype=dtype or self.dtype, requires_grad=requires_grad, device=device)
