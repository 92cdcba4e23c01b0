"""Making tensors: from data, filled with a value, ranges, and random numbers.

Random numbers are torch's: after ``manual_seed(s)`` (or from a ``Generator``), ``rand``,
``randn``, ``randint`` and ``randperm`` give the numbers torch gives on CPU for the same seed,
float16, float32 and float64 (the algorithms are in ``_random.py``).
"""

from __future__ import annotations

import importlib
import math
import numbers
import os

import numpy as np

from minigrad import _dtype, _layout, _random, cuda, storage
from minigrad._numeric import cast, fma, for_dtype, quietly
from minigrad._ops import _vmap_hook
from minigrad._ops._args import parses
from minigrad._ops._core import check_same_shape_broadcast, warn_at_caller
from minigrad._tensor import Tensor, _TensorType, _warn_once, check_device
from minigrad._tensor import device as _device
from minigrad.autograd import grad_mode


class Generator:
    """``torch.Generator``: torch's CPU engine (mt19937), seeded as torch seeds it."""

    def __init__(self, device="cpu"):
        self._engine = _random.Engine(_random.DEFAULT_SEED)

    def __repr__(self) -> str:  # torch's is a C++ class: what ``torch.manual_seed(0)`` shows
        return f"<minigrad._C.Generator object at {hex(id(self))}>"

    def manual_seed(self, seed: int) -> Generator:
        seed = int(seed) & 0xFFFF_FFFF_FFFF_FFFF  # a negative seed as torch reads it
        self._engine = _random.Engine(seed)
        return self

    def initial_seed(self) -> int:
        return self._engine.seed

    def seed(self) -> int:
        """Seed with a number from the operating system (not reproducible), and return it."""
        seed = int.from_bytes(os.urandom(8), "little") & 0x7FFF_FFFF_FFFF_FFFF
        self._engine = _random.Engine(seed)
        return seed

    def get_state(self) -> Tensor:
        """The generator's whole state as torch's uint8 tensor of 5056 bytes (its
        CPUGeneratorImplState), the same bytes torch gives after the same seed and draws."""
        return Tensor._make(self._engine.get_state())

    def set_state(self, new_state) -> Generator:
        if not isinstance(new_state, Tensor):
            raise TypeError(f"expected a torch.ByteTensor, but got {type(new_state).__name__}")
        if new_state.dtype is not _dtype.uint8:
            raise TypeError("RNG state must be a torch.ByteTensor")
        if not new_state.is_contiguous():
            raise RuntimeError("RNG state must be contiguous")
        if new_state.numel() != 5056:
            raise RuntimeError("Expected a CPUGeneratorImplState of size 5056 but found the "
                               f"input RNG state size to be {new_state.numel()}")
        engine = _random.Engine.from_state(np.ascontiguousarray(new_state._data).reshape(-1))
        if engine is None:
            raise RuntimeError("Invalid mt19937 state")
        self._engine = engine
        return self


default_generator = Generator()
_DEFAULT_DEVICE = [None]  # set_default_device's device; None: the CPU


def set_default_device(device) -> None:
    """Where factories make tensors by default. Any device torch knows may be set (as in
    torch); making a tensor anywhere but the CPU then raises a CPU-only torch's error."""
    _DEFAULT_DEVICE[0] = None if device is None else _device(device)


def get_default_device() -> _device:
    d = _DEFAULT_DEVICE[0]
    if d is None:
        return _device("cpu")
    if d.type == "mps":
        raise RuntimeError("PyTorch is not linked with support for mps devices")
    if d.type == "cuda" and d.index is None:  # torch asks CUDA for the current index
        check_device(d)  # a CPU-only torch's AssertionError
    return d


_TENSOR_TYPE_DEPRECATED = (  # torch's words, about torch's history (as asarray's below)
    "torch.set_default_tensor_type() is deprecated as of PyTorch 2.1, please use "
    "torch.set_default_dtype() and torch.set_default_device() as alternatives.")


def set_default_tensor_type(t, /) -> None:
    """The pre-2.1 way to set the default dtype, still in old books:
    ``set_default_tensor_type(torch.DoubleTensor)`` (or its dotted name) is
    ``set_default_dtype(torch.float64)``. torch warns once per process that it is deprecated,
    then accepts only a CPU floating type; a CUDA type gets the CPU-only torch's error."""
    if isinstance(t, str):  # torch's _import_dotted_name, "torch." meaning minigrad
        head, *rest = t.split(".")
        t = importlib.import_module("minigrad" if head == "torch" else head)
        for name in rest:
            t = getattr(t, name)
    _warn_once(_TENSOR_TYPE_DEPRECATED, stacklevel=2)  # torch's C++, called from its Python
    if isinstance(t, cuda._UnavailableType):
        t()  # raises torch's TypeError: the type is not available without CUDA
    if not isinstance(t, _TensorType):
        raise TypeError("invalid type object: only floating-point types are supported as the "
                        "default type")
    _dtype.set_default_dtype(t.dtype)


def _check_device(device) -> None:
    check_device(_DEFAULT_DEVICE[0] if device is None else device)


def get_rng_state() -> Tensor:
    return default_generator.get_state()


def set_rng_state(new_state) -> None:
    default_generator.set_state(new_state)


def manual_seed(seed: int) -> Generator:
    return default_generator.manual_seed(seed)


def initial_seed() -> int:
    return default_generator.initial_seed()


def seed() -> int:
    return default_generator.seed()


def _generator(generator=None) -> Generator:
    return default_generator if generator is None else generator


def _draw_seed(generator=None) -> int:
    """torch's ``torch.empty((), dtype=torch.int64).random_(generator=...)``: how the
    DataLoader seeds its workers and a RandomSampler its own generator."""
    return int(_generator(generator)._engine.random64(1)[0] % np.uint64(2**63))


def _uniform(shape, dtype, low=0.0, high=1.0, generator=None) -> np.ndarray:
    """torch's ``uniform_``: ``shape`` filled in row-major order."""
    gen, n = _generator(generator), math.prod(shape)
    return _random.uniform(gen._engine, n, dtype.numpy, low, high).reshape(shape)


def _check_floating(kernel: str, dtype) -> None:
    """Random floats only: torch's kernel has no integer version."""
    if not dtype.is_floating_point:
        raise NotImplementedError(f'"{kernel}" not implemented for \'{dtype.scalar_name}\'')


def _normal(shape, dtype, mean=0.0, std=1.0, generator=None) -> np.ndarray:
    """torch's ``normal_``: ``shape`` filled in row-major order."""
    gen, n = _generator(generator), math.prod(shape)
    return _random.normal(gen._engine, n, dtype.numpy, mean, std).reshape(shape)


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
    if isinstance(x, np.ndarray):  # an array in a list counts as its dtype, like a tensor
        return _dtype.from_numpy_dtype(x.dtype)
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
    _dtype.check_fits(array, dtype, name)


def _finish(t: Tensor, requires_grad: bool, device=None) -> Tensor:
    _check_device(device)  # the CPU only: "cuda" raises a CPU-only torch's error
    if requires_grad:
        if not t.dtype.is_floating_point:  # a factory's wording, not requires_grad_'s
            raise RuntimeError("Only Tensors of floating point and complex dtype can require "
                               "gradients")
        t.requires_grad_(True)
    return t


LIST_OF_ARRAYS_WARNING = (
    "Creating a tensor from a list of numpy.ndarrays is extremely slow. Please consider "
    "converting the list to a single numpy.ndarray with numpy.array() before converting to a "
    "tensor.")


def _ranges_as_lists(data):
    if isinstance(data, range):
        return list(data)
    if isinstance(data, list | tuple) and any(isinstance(x, range | list | tuple) for x in data):
        return [_ranges_as_lists(x) for x in data]
    return data


def _element_of_list(t: Tensor):
    """A tensor inside a list given to ``tensor()``: torch reads it as one number, whatever its
    shape (``[tensor([[2]]), 3]`` is ``tensor([2, 3])``); more than one element is an error."""
    if t._data.size != 1:
        raise ValueError("only one element tensors can be converted to Python scalars")
    return t.item()


@parses(
    'tensor(object data, *, torch.dtype? dtype = None, torch.device? device = None, '
    'bool? pin_memory = False, bool? requires_grad = False)',
)
def tensor(data, dtype=None, device=None, requires_grad=False) -> Tensor:
    """A new leaf tensor holding a copy of ``data`` (a number, nested lists, an array)."""
    if isinstance(data, Tensor):
        warn_at_caller("To copy construct from a tensor, it is recommended to use "
                       "sourceTensor.detach().clone() or sourceTensor.detach().clone()"
                       ".requires_grad_(True), rather than minigrad.tensor(sourceTensor).")
        array = data._data.copy()
        dtype = dtype or data.dtype
    elif isinstance(data, np.ndarray):
        _check_strides(data)
        array = data.copy()
        dtype = dtype or _dtype.from_numpy_dtype(array.dtype)
    else:
        if data is None and dtype is not None:  # what torch's element conversion says
            raise TypeError("must be real number, not NoneType" if dtype.is_floating_point
                            else "'NoneType' object cannot be interpreted as an integer")
        data = _ranges_as_lists(data)  # torch reads a range as the sequence it is
        inferred = _infer_dtype(data)
        if isinstance(data, list | tuple):
            if any(isinstance(x, np.ndarray) for x in data):
                _warn_once(LIST_OF_ARRAYS_WARNING)
                data = [x.tolist() if isinstance(x, np.ndarray) else x for x in data]
            data = [_element_of_list(x) if isinstance(x, Tensor) else x for x in data]
            _check_nesting(data)
        # floats asked for at a given float dtype are converted once, from Python's doubles,
        # as torch does (not rounded to the default float32 on the way)
        # (ints too: 2**63 is a float, as torch reads a Python int for a float dtype)
        wide = dtype is not None and dtype.is_floating_point
        # a float beyond the dtype's range is inf, as in torch (no NumPy overflow warning)
        try:
            array = quietly(np.array, data, np.float64 if wide else inferred.numpy)
        except OverflowError:  # an int beyond int64: torch's message when it reads it
            raise ValueError("Overflow when unpacking long long") from None
        if dtype is not None:
            _check_fits(array, dtype, dtype.name)
        dtype = dtype or inferred
    array = quietly(np.array, for_dtype(array, dtype.numpy), dtype.numpy)
    return _finish(Tensor._make(array), requires_grad, device)


def as_tensor(data, dtype=None, device=None) -> Tensor:
    """``data`` itself when it is a tensor (``data.to(dtype)`` for another dtype: a copy in
    the graph, as torch's), a NumPy array shared when its dtype fits, else a new tensor."""
    _check_device(device)
    if isinstance(data, Tensor):
        return data if dtype is None or dtype is data.dtype else data.to(dtype)
    if isinstance(data, np.ndarray) and (dtype is None or dtype.numpy == data.dtype):
        return from_numpy(data)
    return tensor(data, dtype=dtype)


ASARRAY_REQUIRES_GRAD_WARNING = (
    "torch.asarray: unspecified requires_grad now defaults to obj.requires_grad instead of "
    "False. Pass requires_grad=False explicitly to get the old behavior and silence this "
    "warning.")


def asarray(obj, *, dtype=None, device=None, copy=None, requires_grad=None) -> Tensor:
    """``obj`` as a tensor, sharing its memory when it can (torch's ``asarray``).

    A tensor or a NumPy array is aliased unless ``copy=True``, or another dtype asks for a
    copy (``copy=False`` then refuses); anything else is read as ``tensor()`` reads it.
    ``requires_grad`` defaults to the tensor's own: a tensor with history keeps it, and
    ``requires_grad=False`` detaches it, or, for a leaf returned as itself, switches the
    leaf's own flag off, as torch's ``set_requires_grad`` does.
    """
    _check_device(device)  # the CPU only, so never the wrong device
    source = obj if isinstance(obj, Tensor) else None
    grad = requires_grad if requires_grad is not None else (
        source is not None and source.requires_grad)
    if grad and requires_grad is None:
        _warn_once(ASARRAY_REQUIRES_GRAD_WARNING)
    force_copy = bool(copy)
    if isinstance(obj, np.generic):  # a NumPy scalar: always a fresh tensor
        if copy is False:
            raise RuntimeError("can't alias NumPy scalars. Either remove copy=False or "
                               "transform it in a ndarray. ")
        source, force_copy = Tensor._make(_checked_array(np.array(obj))), False  # a copy
    elif isinstance(obj, np.ndarray):
        source = from_numpy(obj)
    if source is None:
        if copy is False:
            raise ValueError("can't alias arbitrary sequence into a tensor.")
        return _finish(tensor(obj, dtype=dtype), grad)
    wrong_dtype = dtype is not None and dtype is not source.dtype
    if wrong_dtype and copy is not False:
        source = source.to(dtype, copy=force_copy)
    elif force_copy:
        source = source.clone()
    elif wrong_dtype:
        raise ValueError(f"can't alias tensor with dtype '{source.dtype.scalar_name}' into "
                         f"dtype '{dtype.scalar_name}'.")
    if not source.is_leaf and not grad:
        return source.detach()
    if source.is_leaf:
        return _finish(source, grad) if grad else source.requires_grad_(False)
    return source


def _check_strides(array: np.ndarray) -> None:
    """torch reads a NumPy array through its strides and has none below zero: ``a[::-1]``
    is refused, even by ``tensor``, which would copy it."""
    if any(s < 0 for s in array.strides):
        raise ValueError("At least one stride in the given numpy array is negative, and "
                         "tensors with negative strides are not currently supported. (You can "
                         "probably work around this by making a copy of your array  with "
                         "array.copy().) ")


def from_numpy(array: np.ndarray) -> Tensor:
    """A tensor sharing memory with ``array``: changing one changes the other."""
    storage.mark_not_resizable(_checked_array(array))  # the learner's memory: resize_ may
    return Tensor._make(array)  # not grow it


def _checked_array(array: np.ndarray) -> np.ndarray:
    """``array``, which torch can read as a tensor's memory, or torch's error."""
    if not isinstance(array, np.ndarray):
        raise TypeError(f"expected np.ndarray (got {type(array).__name__})")
    if array.dtype not in _dtype._BY_NUMPY:
        raise _dtype.unsupported_numpy(array.dtype)
    _check_strides(array)
    return array


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


@parses(
    'full(tuple of ints size, Number fill_value, *, Tensor out = None, '
    'torch.dtype? dtype = None, torch.layout? layout = None, torch.device? device = None, '
    'bool? pin_memory = False, bool? requires_grad = False)',
)
def full(size, fill_value, *, dtype=None, requires_grad=False, device=None) -> Tensor:
    if dtype is None:
        dtype = (_dtype.bool if isinstance(fill_value, bool) else _dtype.int64
                 if isinstance(fill_value, numbers.Integral) else _dtype.get_default_dtype())
    if not dtype.is_floating_point and dtype is not _dtype.bool:
        _check_fits(np.asarray(fill_value), dtype, dtype.numpy.name + "_t")
    else:
        _dtype.check_number_fits(fill_value, dtype)  # 1e39 into float32 is refused
    shape = _size((size,) if isinstance(size, int) else tuple(size), "full")
    value = for_dtype(fill_value, dtype.numpy)
    return _finish(Tensor._make(quietly(np.full, shape, value, dtype.numpy)), requires_grad,
                   device)


@parses(
    'zeros(tuple of ints size, *, Tensor out = None, torch.dtype? dtype = None, '
    'torch.layout? layout = None, torch.device? device = None, bool? pin_memory = False, '
    'bool? requires_grad = False)',
)
def zeros(*size, dtype=None, requires_grad=False, device=None) -> Tensor:
    dtype = dtype or _dtype.get_default_dtype()
    return _finish(Tensor._make(np.zeros(_size(size), dtype=dtype.numpy)), requires_grad, device)


@parses(
    'ones(tuple of ints size, *, Tensor out = None, torch.dtype? dtype = None, '
    'torch.layout? layout = None, torch.device? device = None, bool? pin_memory = False, '
    'bool? requires_grad = False)',
)
def ones(*size, dtype=None, requires_grad=False, device=None) -> Tensor:
    dtype = dtype or _dtype.get_default_dtype()
    return _finish(Tensor._make(np.ones(_size(size, "ones"), dtype=dtype.numpy)), requires_grad,
                   device)


@parses(
    'empty(tuple of ints size, *, torch.memory_format? memory_format = None, '
    'Tensor out = None, torch.dtype? dtype = None, torch.layout? layout = None, '
    'torch.device? device = None, bool? pin_memory = False, bool? requires_grad = False)',
)
def empty(*size, dtype=None, requires_grad=False, device=None, memory_format=None) -> Tensor:
    """Zeros, in fact: NumPy's uninitialised memory would make lessons unrepeatable."""
    dtype = dtype or _dtype.get_default_dtype()
    data = np.zeros(_size(size, "empty"), dtype=dtype.numpy)
    if memory_format is _layout.preserve_format:
        raise RuntimeError("unsupported memory format Preserve")
    if memory_format is not None and memory_format is not _layout.contiguous_format:
        data = _layout.copy_like(data, memory_format)  # channels_last: its rank is checked
    return _finish(Tensor._make(data), requires_grad, device)


@parses(
    'eye(int n, *, Tensor out = None, torch.dtype? dtype = None, torch.layout? layout = None, '
    'torch.device? device = None, bool? pin_memory = False, bool? requires_grad = False)',
    'eye(int n, int m, *, Tensor out = None, torch.dtype? dtype = None, '
    'torch.layout? layout = None, torch.device? device = None, bool? pin_memory = False, '
    'bool? requires_grad = False)',
)
def eye(n, m=None, *, dtype=None, requires_grad=False, device=None) -> Tensor:
    dtype = dtype or _dtype.get_default_dtype()
    return _finish(Tensor._make(np.eye(n, m, dtype=dtype.numpy)), requires_grad, device)


@parses(
    'arange(Number end, *, Tensor out = None, torch.dtype? dtype = None, '
    'torch.layout? layout = None, torch.device? device = None, bool? pin_memory = False, '
    'bool? requires_grad = False)',
    'arange(Number start, Number end, *, torch.dtype? dtype = None, torch.layout? layout = None, '
    'torch.device? device = None, bool? pin_memory = False, bool? requires_grad = False)',
    'arange(Number start, Number end, Number step = 1, *, Tensor out = None, '
    'torch.dtype? dtype = None, torch.layout? layout = None, torch.device? device = None, '
    'bool? pin_memory = False, bool? requires_grad = False)',
)
def arange(start, end=None, step=1, *, dtype=None, requires_grad=False, device=None) -> Tensor:
    """``start, start + step, ...`` up to ``end`` (excluded), with torch's exact values.

    torch's length is ``ceil((end - start) / step)`` in double (for int64, the integer
    arithmetic of truncated bounds); each value is ``start + i * step`` computed in double
    (see ``_torch_ramp``) and then cast, which is not what ``np.arange`` computes. An integer
    dtype truncates a float start and step first (``arange(0.5, 3, 1.5, dtype=int32)`` counts
    0, 1)."""
    if end is None:
        start, end = 0, start
    if dtype is None:
        is_float = any(isinstance(v, float) for v in (start, end, step))
        dtype = _dtype.get_default_dtype() if is_float else _dtype.int64
    for bound in (start, end):
        if not np.isfinite(bound):
            raise RuntimeError(f"unsupported range: {start} -> {end}")
    if step == 0:
        raise RuntimeError("step must be nonzero")
    if (end - start) * step < 0:
        raise RuntimeError("upper bound and lower bound inconsistent with step sign")
    if dtype.is_floating_point:
        size = int(np.ceil((float(end) - float(start)) / float(step)))
        # accumulated in torch's acc_type: double, but float for a half tensor
        acc = np.float32 if dtype is _dtype.float16 else np.float64
        data = _torch_ramp(for_dtype(float(start), acc), for_dtype(float(step), acc), size,
                           dtype.numpy, acc)
    else:  # integers: the bounds and the step truncated to int64 first
        first, last, by = int(start), int(end), int(step)
        if dtype is _dtype.int64:
            if by == 0:
                raise ValueError("step must be nonzero")
            n = last - first + by - ((by > 0) - (by < 0))
            size = abs(n) // abs(by) * (1 if (n >= 0) == (by > 0) else -1)  # C's division
        else:
            size = int(np.ceil((float(end) - float(start)) / float(step)))
        data = (first + by * np.arange(size, dtype=np.int64)).astype(dtype.numpy)
    return _finish(Tensor._make(data), requires_grad, device)



RANGE_DEPRECATED = (
    "torch.range is deprecated and will be removed in a future release because its behavior is "
    "inconsistent with Python's range builtin. Instead, use torch.arange, which produces values "
    "in [start, end).")


@parses(
    'range(Number start, Number end, Number step = 1, *, Tensor out = None, '
    'torch.dtype? dtype = None, torch.layout? layout = None, torch.device? device = None, '
    'bool? requires_grad = False)',
)
def range_(start, end, step=1, *, dtype=None, requires_grad=False, device=None) -> Tensor:
    """``torch.range``: deprecated, still in courses that predate ``arange``, which counts
    ``start, start + step, ...`` up to ``end`` *included*, in the default dtype whatever the
    bounds. Its own kernel, not arange's: ``(end - start) / step + 1`` values (truncated),
    each ``start + i * step`` in the accumulating type (double; float for half; int64 for
    integers), with no vector blocks, so it is written here rather than through arange."""
    warn_at_caller(RANGE_DEPRECATED)
    dtype = dtype or _dtype.get_default_dtype()
    start, end, step = (float(v.item() if isinstance(v, Tensor) else v) for v in (start, end, step))
    if step == 0:  # checked in double, before the bounds are converted
        raise RuntimeError("step must be nonzero")
    if not (math.isfinite(start) and math.isfinite(end)):
        raise RuntimeError(f"unsupported range: {start:g} -> {end:g}")  # C++'s << of a double
    if not ((step > 0 and end >= start) or (step < 0 and end <= start)):
        raise RuntimeError("upper bound and lower bound inconsistent with step sign")
    if not dtype.is_floating_point:
        acc = np.int64
        start, end, step = (int(v) for v in (start, end, step))
        if step == 0:  # range(0, 5, 0.5, dtype=int64): torch divides by zero and crashes
            raise RuntimeError("step must be nonzero")
        size = abs(end - start) // abs(step) + 1  # C's division, truncating toward zero
    else:
        acc = np.float32 if dtype is _dtype.float16 else np.float64
        start, end, step = (acc(for_dtype(v, acc)) for v in (start, end, step))
        size = int((end - start) / step + acc(1))
    with np.errstate(all="ignore"):
        data = (np.asarray(start, acc) + np.arange(size).astype(acc) * np.asarray(step, acc))
    return _finish(Tensor._make(cast(data, dtype.numpy)), requires_grad, device)


# torch's CPU kernels fill a range 2 vectors at a time (then one by one for the tail), and a
# vector starts from its first value, rounded to the result's dtype, plus j * step. The
# vector width is that of the AVX2 kernels (32 bytes) torch 2.x runs on x86, and the compiler
# fuses each ``a + b * c`` into one fused multiply-add (one rounding: ``_numeric.fma``).
# A range longer than one parallel chunk (32768) is split between torch's threads, each
# starting its own vectors: minigrad does not follow that split.
_VECTOR_BYTES = 32


def _torch_ramp(start, step, size, out_dtype, acc, end=None, steps=None):
    """The values torch's ``arange``/``linspace`` kernels write. Index ``k`` is
    ``start + step * k`` in ``acc`` arithmetic. With ``end`` it is linspace (a scalar loop):
    from ``steps // 2`` on, a value counts back from ``end``. arange's kernel is vectorized:
    inside a block, the block's first value is rounded to ``out_dtype`` before ``j * step``
    is added."""
    out_dtype, acc = np.dtype(out_dtype), np.dtype(acc)
    width = _VECTOR_BYTES // out_dtype.itemsize
    k = np.arange(size, dtype=np.int64)

    def mul_add(a, b, c):  # float16 (c10::Half) rounds the product and the sum each
        return a * b + c if acc == np.float16 else fma(a, b, c, acc)

    def scalar(index):  # the value at ``index`` (int64) as the scalar loop computes it
        idx = index.astype(acc)
        if end is None:
            return mul_add(step, idx, start)
        back = (steps - 1 - index).astype(acc)  # counted in int64, then converted
        return np.where(index < steps // 2, mul_add(step, idx, start),
                        mul_add(-step, back, end))

    with np.errstate(all="ignore"):
        out = scalar(k).astype(out_dtype)
        blocks = size - size % (2 * width)  # the prefix filled by whole pairs of vectors
        if blocks and out_dtype.kind == "f" and end is None:
            first = (k[:blocks] // width) * width
            base = scalar(first).astype(out_dtype).astype(acc)
            j = (k[:blocks] - first).astype(acc)
            vectors = fma(j, step, base, acc).astype(out_dtype)
            out[:blocks] = np.where(j == 0, base.astype(out_dtype), vectors)  # lane 0: base
    return out


@parses(
    'linspace(Tensor start, Tensor end, int steps, *, Tensor out = None, '
    'torch.dtype? dtype = None, torch.layout? layout = None, torch.device? device = None, '
    'bool? pin_memory = False, bool? requires_grad = False)',
    'linspace(Number start, Tensor end, int steps, *, Tensor out = None, '
    'torch.dtype? dtype = None, torch.layout? layout = None, torch.device? device = None, '
    'bool? pin_memory = False, bool? requires_grad = False)',
    'linspace(Tensor start, Number end, int steps, *, Tensor out = None, '
    'torch.dtype? dtype = None, torch.layout? layout = None, torch.device? device = None, '
    'bool? pin_memory = False, bool? requires_grad = False)',
    'linspace(Number start, Number end, int steps, *, Tensor out = None, '
    'torch.dtype? dtype = None, torch.layout? layout = None, torch.device? device = None, '
    'bool? pin_memory = False, bool? requires_grad = False)',
)
def linspace(start, end, steps, *, dtype=None, requires_grad=False, device=None) -> Tensor:
    """``steps`` values from ``start`` to ``end``, as torch computes them: the step is
    ``(end - start) / (steps - 1)`` in the result's dtype, the first half counts from
    ``start`` and the second half back from ``end``, so both ends are exact."""
    for name, bound in (("start", start), ("end", end)):
        if isinstance(bound, Tensor) and bound.dim():
            raise RuntimeError("linspace only supports 0-dimensional start and end tensors, but "
                               f"got {name} with {bound.dim()} dimension(s).")
    start, end = (b.item() if isinstance(b, Tensor) else b for b in (start, end))
    dtype = dtype or _dtype.get_default_dtype()
    if steps < 0:
        raise RuntimeError("number of steps must be non-negative")
    floating = dtype.is_floating_point  # integers: the bounds truncated, the step in double
    acc = np.dtype(dtype.numpy if floating else np.float64)
    if steps == 1:
        data = cast(np.full(1, start), dtype.numpy)
    else:
        lo = acc.type(for_dtype(start, acc) if floating else int(start))
        hi = acc.type(for_dtype(end, acc) if floating else int(end))
        with np.errstate(all="ignore"):
            step = (hi - lo) / acc.type(steps - 1)
        data = _torch_ramp(lo, step, steps, dtype.numpy, acc, end=hi, steps=steps)
    return _finish(Tensor._make(data), requires_grad, device)


@parses(
    'rand(tuple of ints size, *, torch.Generator? generator, Tensor out = None, '
    'torch.dtype? dtype = None, torch.layout? layout = None, torch.device? device = None, '
    'bool? pin_memory = False, bool? requires_grad = False)',
    'rand(tuple of ints size, *, Tensor out = None, torch.dtype? dtype = None, '
    'torch.layout? layout = None, torch.device? device = None, bool? pin_memory = False, '
    'bool? requires_grad = False)',
)
def rand(*size, generator=None, dtype=None, requires_grad=False, device=None) -> Tensor:
    _check_device(device)  # before drawing: a refused device leaves the generator as it was
    dtype = dtype or _dtype.get_default_dtype()
    _check_floating("check_uniform_bounds", dtype)
    data = _uniform(_size(size, "rand"), dtype, generator=generator)
    return _finish(Tensor._make(data), requires_grad, device)


@parses(
    'randn(tuple of ints size, *, torch.Generator? generator, Tensor out = None, '
    'torch.dtype? dtype = None, torch.layout? layout = None, torch.device? device = None, '
    'bool? pin_memory = False, bool? requires_grad = False)',
    'randn(tuple of ints size, *, Tensor out = None, torch.dtype? dtype = None, '
    'torch.layout? layout = None, torch.device? device = None, bool? pin_memory = False, '
    'bool? requires_grad = False)',
)
def randn(*size, generator=None, dtype=None, requires_grad=False, device=None) -> Tensor:
    _check_device(device)
    dtype = dtype or _dtype.get_default_dtype()
    _check_floating("normal_kernel_cpu", dtype)
    data = _normal(_size(size, "randn"), dtype, generator=generator)
    return _finish(Tensor._make(data), requires_grad, device)


def check_std(std) -> None:
    if std < 0:
        raise RuntimeError(f"normal expects std >= 0.0, but found std {std:g}")


_NORMAL_SIGNATURES = (
    "normal() received an invalid combination of arguments - got (float, float), but expected "
    "one of:\n"
    " * (Tensor mean, Tensor std, *, torch.Generator generator = None, Tensor out = None)\n"
    " * (Tensor mean, float std = 1, *, torch.Generator generator = None, Tensor out = None)\n"
    " * (float mean, Tensor std, *, torch.Generator generator = None, Tensor out = None)\n"
    " * (float mean, float std, tuple of ints size, *, torch.Generator generator = None, "
    "Tensor out = None, torch.dtype dtype = None, torch.layout layout = None, torch.device "
    "device = None, bool pin_memory = False, bool requires_grad = False)\n")


def normal(mean, std=1.0, size=None, *, generator=None, dtype=None, requires_grad=False,
           device=None) -> Tensor:
    """torch.normal's overloads, with torch's numbers: standard normals of the result's shape,
    then scaled and shifted as ATen does it (``normal_(0, std)`` then ``+ mean`` for a tensor
    mean and a number std; ``* std + mean`` for a tensor std), each step in the dtype.

    Gradients through a tensor mean or std are left out: one clear error says so."""
    tensors = [t for t in (mean, std) if isinstance(t, Tensor)]
    if tensors and _vmap_hook.active:  # a batched mean or std inside vmap: its rule
        kwargs = {k: v for k, v in (("size", size), ("generator", generator), ("dtype", dtype))
                  if v is not None}
        out = _vmap_hook.call("normal", normal, (mean, std), kwargs)
        if out is not _vmap_hook.PASS:
            return out
    if not tensors:
        if size is None:
            raise TypeError(_NORMAL_SIGNATURES)
        check_std(std)
        dtype = dtype or _dtype.get_default_dtype()
        data = _normal(_size(size, "normal"), dtype, mean, std, generator)
        return _finish(Tensor._make(data), requires_grad, device)
    _check_device(device)
    if any(t.requires_grad for t in tensors):
        raise NotImplementedError("minigrad's normal() does not differentiate through a tensor "
                                  "mean or std; write mean + std * torch.randn_like(mean) "
                                  "instead")
    out_dtype = mean.dtype if isinstance(mean, Tensor) else std.dtype
    if not out_dtype.is_floating_point:
        raise NotImplementedError(f"\"normal_kernel_cpu\" not implemented for "
                                  f"'{out_dtype.scalar_name}'")
    if isinstance(std, Tensor):
        if (std._data < 0).any():
            raise RuntimeError("normal expects all elements of std >= 0.0")
    else:
        check_std(std)
    arrays = [np.asarray(t._data if isinstance(t, Tensor) else t, dtype=out_dtype.numpy)
              for t in (mean, std)]
    check_same_shape_broadcast(*arrays)
    shape = np.broadcast_shapes(*(a.shape for a in arrays))
    m, s = arrays
    with np.errstate(all="ignore"):
        if isinstance(mean, Tensor) and not isinstance(std, Tensor):
            data = _normal(shape, out_dtype, 0.0, std, generator) + m
        else:
            data = _normal(shape, out_dtype, 0.0, 1.0, generator) * s + m
    return Tensor._make(np.asarray(data, dtype=out_dtype.numpy))


_RANDOM_INTS = ("Tensor out = None, torch.dtype? dtype = None, torch.layout? layout = None, "
                "torch.device? device = None, bool? pin_memory = False, "
                "bool? requires_grad = False)")


@parses(f"randint(int high, tuple of ints size, *, torch.Generator? generator, {_RANDOM_INTS}",
        f"randint(int high, tuple of ints size, *, {_RANDOM_INTS}",
        f"randint(int low, int high, tuple of ints size, *, torch.Generator? generator, "
        f"{_RANDOM_INTS}",
        f"randint(int low, int high, tuple of ints size, *, {_RANDOM_INTS}")
def randint(low=0, high=None, size=(), *, generator=None, dtype=None, device=None,
            requires_grad=False) -> Tensor:
    """``randint(high, size)`` or ``randint(low, high, size)``, as torch's overloads."""
    _check_device(device)
    if isinstance(high, tuple | list):
        low, high, size = 0, low, high
    if high is None:
        low, high = 0, low
    if high <= low:
        raise RuntimeError(f"random_ expects 'from' to be less than 'to', but got "
                           f"from={low} >= to={high}")
    dtype = dtype or _dtype.int64
    shape = _size((size,) if isinstance(size, int) else tuple(size), "randint")
    data = _random.randint(_generator(generator)._engine, math.prod(shape), low, high)
    return _finish(Tensor._make(data.reshape(shape).astype(dtype.numpy)), requires_grad, device)


@parses(f"randperm(int n, *, torch.Generator? generator, {_RANDOM_INTS}",
        f"randperm(int n, *, {_RANDOM_INTS}")
def randperm(n, *, generator=None, device=None, dtype=None, requires_grad=False) -> Tensor:
    _check_device(device)
    data = _random.randperm(_generator(generator)._engine, n)
    return _finish(Tensor._make(data.astype((dtype or _dtype.int64).numpy, copy=False)),
                   requires_grad, device)


_LIKE_OPTIONS = ("torch.memory_format? memory_format = None, torch.dtype? dtype = None, "
                 "torch.layout? layout = None, torch.device? device = None, "
                 "bool? pin_memory = False, bool? requires_grad = False")


def _laid_out_like(input, dtype, memory_format, fill):
    """A tensor laid out as torch's ``empty_like`` lays it out (``preserve_format``: a
    transposed input gives a transposed result), then ``fill(tensor)`` written into it in
    place, as torch's ``*_like`` factories do; None where that layout is row-major, so the
    caller makes it as a plain factory does (the same numbers, the usual fast path)."""
    if _layout.strides_for(input._data, memory_format) is None:
        return None
    out = Tensor._make(_layout.empty_like_array(input._data, dtype.numpy, memory_format))
    with grad_mode.no_grad():
        fill(out)
    return out


def _like(maker, fill):
    def like(input, *, dtype=None, requires_grad=False, device=None, memory_format=None):
        dtype = dtype or input.dtype
        out = _laid_out_like(input, dtype, memory_format, fill)
        if out is not None:
            return _finish(out, requires_grad, device)
        return maker(tuple(input.shape), dtype=dtype, requires_grad=requires_grad,
                     device=device or input.device)

    like.__name__ = maker.__name__ + "_like"
    return parses(f"{like.__name__}(Tensor input, *, {_LIKE_OPTIONS})")(like)


zeros_like = _like(zeros, lambda t: t._data.fill(0))
ones_like = _like(ones, lambda t: t._data.fill(1))
empty_like = _like(empty, lambda t: t._data.fill(0))  # zeros, as ``empty`` (see there)


@parses(f"rand_like(Tensor input, *, torch.Generator? generator, {_LIKE_OPTIONS})",
        f"rand_like(Tensor input, *, {_LIKE_OPTIONS})")
def rand_like(input, *, dtype=None, requires_grad=False, generator=None, device=None,
              memory_format=None):
    _check_floating("check_uniform_bounds", dtype or input.dtype)
    out = _laid_out_like(input, dtype or input.dtype, memory_format,
                         lambda t: t.uniform_(generator=generator))
    if out is not None:
        return _finish(out, requires_grad, device)
    return rand(tuple(input.shape), dtype=dtype or input.dtype, requires_grad=requires_grad,
                generator=generator, device=device or input.device)


@parses(f"randn_like(Tensor input, *, torch.Generator? generator, {_LIKE_OPTIONS})",
        f"randn_like(Tensor input, *, {_LIKE_OPTIONS})")
def randn_like(input, *, dtype=None, requires_grad=False, generator=None, device=None,
               memory_format=None):
    _check_floating("normal_kernel_cpu", dtype or input.dtype)
    out = _laid_out_like(input, dtype or input.dtype, memory_format,
                         lambda t: t.normal_(generator=generator))
    if out is not None:
        return _finish(out, requires_grad, device)
    return randn(tuple(input.shape), dtype=dtype or input.dtype, requires_grad=requires_grad,
                 generator=generator, device=device or input.device)


@parses(f"full_like(Tensor input, Number fill_value, *, {_LIKE_OPTIONS})")
def full_like(input, fill_value, *, dtype=None, requires_grad=False, device=None,
              memory_format=None):
    out = _laid_out_like(input, dtype or input.dtype, memory_format,
                         lambda t: t.fill_(fill_value))
    if out is not None:
        return _finish(out, requires_grad, device)
    return full(input.shape, fill_value, dtype=dtype or input.dtype, requires_grad=requires_grad,
                device=device or input.device)


_NEW_OPTIONS = ("*, torch.dtype? dtype = None, torch.layout? layout = None, "
                "torch.device? device = None, bool? pin_memory = False, "
                "bool? requires_grad = False)")


@parses(f"new_zeros(Tensor input, tuple of ints size, {_NEW_OPTIONS})", method_only=True)
def new_zeros(self, *size, dtype=None, requires_grad=False, device=None) -> Tensor:
    """``x.new_zeros(size)``: zeros with ``x``'s dtype and device unless told otherwise."""
    return zeros(*size, dtype=dtype or self.dtype, requires_grad=requires_grad,
                 device=device or self.device)


@parses(f"new_ones(Tensor input, tuple of ints size, {_NEW_OPTIONS})", method_only=True)
def new_ones(self, *size, dtype=None, requires_grad=False, device=None) -> Tensor:
    return ones(*size, dtype=dtype or self.dtype, requires_grad=requires_grad,
                device=device or self.device)


@parses(f"new_empty(Tensor input, tuple of ints size, {_NEW_OPTIONS})", method_only=True)
def new_empty(self, *size, dtype=None, requires_grad=False, device=None) -> Tensor:
    return empty(*size, dtype=dtype or self.dtype, requires_grad=requires_grad,
                 device=device or self.device)


@parses(f"new_full(Tensor input, tuple of ints size, Number fill_value, {_NEW_OPTIONS})",
        method_only=True)
def new_full(self, size, fill_value, *, dtype=None, requires_grad=False, device=None) -> Tensor:
    return full(size, fill_value, dtype=dtype or self.dtype, requires_grad=requires_grad,
                device=device or self.device)


@parses('new_tensor(Tensor input, object data, *, torch.dtype? dtype = None, '
        'torch.device? device = None, bool requires_grad = False)', method_only=True)
def new_tensor(self, data, dtype=None, device=None, requires_grad=False) -> Tensor:
    """``x.new_tensor(data)``: ``tensor(data)`` with ``x``'s dtype unless told otherwise (and
    torch's warning, naming new_tensor, for a tensor given as data)."""
    if isinstance(data, Tensor):
        warn_at_caller("To copy construct from a tensor, it is recommended to use "
                       "sourceTensor.detach().clone() or sourceTensor.detach().clone()"
                       ".requires_grad_(True), rather than tensor.new_tensor(sourceTensor).")
        data = data._data  # copied by tensor(), without its own warning
    return tensor(data, dtype=dtype or self.dtype, device=device or self.device,
                  requires_grad=requires_grad)
