"""Making tensors: from data, filled with a value, ranges, and random numbers.

Random numbers come from one NumPy generator seeded by ``manual_seed``. They are *not* the
numbers torch draws for the same seed (torch uses its own generator): lessons that compare the
two engines create data once and copy it across.
"""

from __future__ import annotations

import numbers

import numpy as np

from minigrad import _dtype
from minigrad._tensor import Tensor

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
    """torch.tensor's rule: any float makes it the default float dtype, else ints, else bool."""
    flat = list(_flatten(data))
    if any(isinstance(x, Tensor) for x in flat):
        kinds = {x.dtype for x in flat if isinstance(x, Tensor)}
        return kinds.pop() if len(kinds) == 1 else _dtype.get_default_dtype()
    if any(isinstance(x, float | np.floating) for x in flat):
        return _dtype.get_default_dtype()
    if flat and all(isinstance(x, bool | np.bool_) for x in flat):
        return _dtype.bool
    if any(isinstance(x, numbers.Integral) for x in flat):
        return _dtype.int64
    return _dtype.get_default_dtype()


def _flatten(data):
    if isinstance(data, list | tuple):
        for x in data:
            yield from _flatten(x)
    else:
        yield data


def _finish(t: Tensor, requires_grad: bool) -> Tensor:
    if requires_grad:
        if not t.dtype.is_floating_point:  # a factory's wording, not requires_grad_'s
            raise RuntimeError("Only Tensors of floating point and complex dtype can require "
                               "gradients")
        t.requires_grad_(True)
    return t


def tensor(data, dtype=None, device=None, requires_grad=False) -> Tensor:
    """A new leaf tensor holding a copy of ``data`` (a number, nested lists, an array)."""
    if isinstance(data, Tensor):
        array = data._data.copy()
        dtype = dtype or data.dtype
    elif isinstance(data, np.ndarray):
        array = data.copy()
        dtype = dtype or _dtype.from_numpy_dtype(array.dtype)
    else:
        if isinstance(data, list | tuple):
            data = [x.item() if isinstance(x, Tensor) and x.dim() == 0 else
                    (x.tolist() if isinstance(x, Tensor) else x) for x in data]
        dtype = dtype or _infer_dtype(data)
        array = np.array(data)
    array = np.array(array, dtype=dtype.numpy)
    return _finish(Tensor._make(array), requires_grad)


def as_tensor(data, dtype=None) -> Tensor:
    if isinstance(data, Tensor) and (dtype is None or dtype is data.dtype):
        return data
    if isinstance(data, np.ndarray) and (dtype is None or dtype.numpy == data.dtype):
        return from_numpy(data)
    return tensor(data, dtype=dtype)


def from_numpy(array: np.ndarray) -> Tensor:
    """A tensor sharing memory with ``array``: changing one changes the other."""
    _dtype.from_numpy_dtype(array.dtype)
    return Tensor._make(array)


def _size(size):
    if len(size) == 1 and isinstance(size[0], tuple | list):
        return tuple(size[0])
    return tuple(size)


def full(size, fill_value, *, dtype=None, requires_grad=False, device=None) -> Tensor:
    if dtype is None:
        dtype = (_dtype.bool if isinstance(fill_value, bool) else _dtype.int64
                 if isinstance(fill_value, numbers.Integral) else _dtype.get_default_dtype())
    return _finish(Tensor._make(np.full(_size((size,)) if isinstance(size, int) else
                                        tuple(size), fill_value, dtype=dtype.numpy)),
                   requires_grad)


def zeros(*size, dtype=None, requires_grad=False, device=None) -> Tensor:
    dtype = dtype or _dtype.get_default_dtype()
    return _finish(Tensor._make(np.zeros(_size(size), dtype=dtype.numpy)), requires_grad)


def ones(*size, dtype=None, requires_grad=False, device=None) -> Tensor:
    dtype = dtype or _dtype.get_default_dtype()
    return _finish(Tensor._make(np.ones(_size(size), dtype=dtype.numpy)), requires_grad)


def empty(*size, dtype=None, requires_grad=False, device=None) -> Tensor:
    return zeros(*size, dtype=dtype, requires_grad=requires_grad)


def eye(n, m=None, *, dtype=None, requires_grad=False) -> Tensor:
    dtype = dtype or _dtype.get_default_dtype()
    return _finish(Tensor._make(np.eye(n, m, dtype=dtype.numpy)), requires_grad)


def arange(start, end=None, step=1, *, dtype=None, requires_grad=False, device=None) -> Tensor:
    if end is None:
        start, end = 0, start
    if dtype is None:
        is_float = any(isinstance(v, float) for v in (start, end, step))
        dtype = _dtype.get_default_dtype() if is_float else _dtype.int64
    return _finish(Tensor._make(np.arange(start, end, step).astype(dtype.numpy)), requires_grad)


def linspace(start, end, steps, *, dtype=None, requires_grad=False) -> Tensor:
    dtype = dtype or _dtype.get_default_dtype()
    return _finish(Tensor._make(np.linspace(start, end, steps).astype(dtype.numpy)),
                   requires_grad)


def rand(*size, generator=None, dtype=None, requires_grad=False) -> Tensor:
    dtype = dtype or _dtype.get_default_dtype()
    data = _rng(generator).random(_size(size)).astype(dtype.numpy)
    return _finish(Tensor._make(data), requires_grad)


def randn(*size, generator=None, dtype=None, requires_grad=False) -> Tensor:
    dtype = dtype or _dtype.get_default_dtype()
    data = _rng(generator).standard_normal(_size(size)).astype(dtype.numpy)
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
        return maker(*input.shape, dtype=dtype or input.dtype, requires_grad=requires_grad)

    like.__name__ = maker.__name__ + "_like"
    return like


zeros_like, ones_like, empty_like = _like(zeros), _like(ones), _like(empty)


def rand_like(input, *, dtype=None, requires_grad=False):
    return rand(*input.shape, dtype=dtype or input.dtype, requires_grad=requires_grad)


def randn_like(input, *, dtype=None, requires_grad=False):
    return randn(*input.shape, dtype=dtype or input.dtype, requires_grad=requires_grad)


def full_like(input, fill_value, *, dtype=None, requires_grad=False):
    return full(input.shape, fill_value, dtype=dtype or input.dtype, requires_grad=requires_grad)
