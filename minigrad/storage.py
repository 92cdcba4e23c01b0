"""A tensor's memory, as torch shows it: ``t.untyped_storage()`` (bytes) and ``t.storage()``.

A tensor is a view of one block of memory, its *storage*: ``t.storage_offset()`` says where in
it the tensor starts and ``t.stride()`` how it steps through it. In minigrad that block is the
NumPy array that owns the memory (every view's ``.base`` chain ends there). ``storage()`` reads
it as numbers of the tensor's dtype (torch's ``TypedStorage``, deprecated since torch 2.0 but
still in the books, so it warns once, as torch does); ``untyped_storage()`` as bytes. Writing
an element writes the tensor's memory, as in torch.
"""

from __future__ import annotations

import warnings
import weakref

import numpy as np

from minigrad import _dtype

_TYPED_STORAGE_WARNING = (
    "TypedStorage is deprecated. It will be removed in the future and UntypedStorage will be "
    "the only storage class. This should only matter to you if you are using storages "
    "directly.  To access UntypedStorage directly, use tensor.untyped_storage() instead of "
    "tensor.storage()")
_warned = []


def warn_typed_storage_removal(stacklevel: int = 2) -> None:
    """torch's warning, the first time a typed storage is used in this process."""
    if not _warned:
        _warned.append(True)
        warnings.warn(_TYPED_STORAGE_WARNING, UserWarning, stacklevel=stacklevel + 1)


def root_array(data: np.ndarray) -> np.ndarray:
    """The array that owns ``data``'s memory (itself, or the end of its ``.base`` chain)."""
    base = data
    while True:
        parent = base.base
        if not isinstance(parent, np.ndarray):
            # as_strided (expand's stride-0 view) hangs the real array on a helper object:
            # without this step an expanded tensor would seem to own a full-size copy
            parent = getattr(parent, "base", None)
        if not isinstance(parent, np.ndarray):
            return base
        base = parent


_NOT_RESIZABLE = {}  # id(owner array) -> a weak reference to it


def mark_not_resizable(data: np.ndarray) -> None:
    """``data``'s memory is a NumPy array the learner handed over (``from_numpy``,
    ``as_tensor``, ``asarray``): torch wraps such memory in a storage it cannot resize, so
    ``resize_`` may not grow it, even once nothing else holds the array."""
    root = root_array(data)
    key = id(root)
    _NOT_RESIZABLE[key] = weakref.ref(root, lambda _, key=key: _NOT_RESIZABLE.pop(key, None))


def resizable(data: np.ndarray) -> bool:
    """Whether torch could grow the storage of a tensor over ``data``."""
    root = root_array(data)
    ref = _NOT_RESIZABLE.get(id(root))
    return ref is None or ref() is not root


def _flat(root: np.ndarray, dtype) -> np.ndarray:
    """The owner's memory, in memory order, as a 1-D array of ``dtype`` (a view, so that a
    write reaches the tensor; a copy for the rare owner that is not one block)."""
    if not (root.flags.c_contiguous or root.flags.f_contiguous):
        return root.ravel(order="K").view(dtype)
    return root.reshape(-1, order="A").view(np.uint8).view(dtype)  # "A": memory order


class _StorageBase:
    def __init__(self, root: np.ndarray, device):
        self._root = root
        self.device = device

    def data_ptr(self) -> int:
        return self._root.__array_interface__["data"][0]

    def nbytes(self) -> int:
        return self._root.nbytes

    def __len__(self) -> int:
        return self.size()

    def __iter__(self):
        return iter(self.tolist())

    def tolist(self) -> list:
        return self._values().tolist()

    def __getitem__(self, index):
        if isinstance(index, slice):
            return self._slice(index)
        if not isinstance(index, int) or isinstance(index, bool):
            raise self._index_error(index)
        values = self._values()
        if not -len(values) <= index < len(values):
            raise IndexError(f"index {index} out of range for storage of size {len(values)}")
        return values[index].item()

    def __setitem__(self, index, value):
        values = self._values()
        values[index] = value

    def __str__(self) -> str:
        kind = f"{type(self).__module__}.{type(self).__name__}"
        info = f"[{kind}({self._info()}) of size {len(self)}]"
        return " " + "\n ".join(str(v) for v in self.tolist()) + "\n" + info

    __repr__ = __str__


class UntypedStorage(_StorageBase):
    """The memory as bytes: ``t.untyped_storage()``."""

    def size(self) -> int:
        return self._root.nbytes

    def _values(self) -> np.ndarray:
        return _flat(self._root, np.uint8)

    def _info(self) -> str:
        return f"device={self.device}"

    def _slice(self, index: slice) -> UntypedStorage:
        """``storage[a:b]``: the same bytes, a storage of its own (as torch's)."""
        start, stop, step = index.indices(self.size())
        if step != 1:
            raise RuntimeError(f"Trying to slice with a step of {step}, but only a step of 1 is "
                               "supported")
        return UntypedStorage(self._values()[start:max(start, stop)], self.device)

    def _index_error(self, index) -> Exception:
        return TypeError(f"can't index a minigrad.UntypedStorage with {type(index).__name__}")


class TypedStorage(_StorageBase):
    """The memory as numbers of one dtype: ``t.storage()`` (deprecated in torch, still used)."""

    def __init__(self, root: np.ndarray, device, dtype):
        super().__init__(root, device)
        self.dtype = dtype

    def size(self) -> int:
        warn_typed_storage_removal()
        return self._root.nbytes // self.dtype.itemsize

    def element_size(self) -> int:
        return self.dtype.itemsize

    def untyped(self) -> UntypedStorage:
        return UntypedStorage(self._root, self.device)

    def _values(self) -> np.ndarray:
        return _flat(self._root, self.dtype.numpy)

    def _info(self) -> str:
        return f"dtype={self.dtype}, device={self.device}"

    def _slice(self, index: slice):
        raise RuntimeError("slices are only supported in UntypedStorage.__getitem__")

    def _index_error(self, index) -> Exception:
        """torch's: a RuntimeError naming both classes (a TypeError for a bool)."""
        error = TypeError if isinstance(index, bool) else RuntimeError
        return error(f"can't index a {type(self)} with {type(index)}")


def typed_storage(data: np.ndarray, device) -> TypedStorage:
    """``t.storage()`` for a tensor over ``data``."""
    warn_typed_storage_removal(stacklevel=3)
    return TypedStorage(root_array(data), device, _dtype.from_numpy_dtype(data.dtype))
