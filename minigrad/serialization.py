"""``minigrad.save`` and ``minigrad.load``: tensors, containers, state_dicts, in torch's format.

A file is a zip archive (stored, not compressed), as ``torch.save`` writes it:

* ``<archive>/data.pkl``: the object, pickled (protocol 2). A tensor is pickled as a call of
  ``torch._utils._rebuild_tensor_v2(storage, storage_offset, size, stride, requires_grad,
  hooks)`` (a Parameter wraps that in ``torch._utils._rebuild_parameter``); its storage is a
  *persistent id* ``("storage", torch.FloatStorage, key, "cpu", numel)``, so the pickle holds
  no numbers;
* ``<archive>/data/<key>``: each storage's raw bytes (little-endian), aligned to 64 bytes;
* ``byteorder``, ``version``, ``.format_version``, ``.storage_alignment`` and
  ``.data/serialization_id``, as torch writes them.

Tensors that share memory (a tensor and its views) share one storage, written once, and
share memory again once loaded. So ``torch.load`` reads minigrad's files and ``minigrad.load``
reads torch's, with neither library importing the other: the pickle names torch's functions
by module and name only, and minigrad's unpickler maps those names to its own rebuilders.

``load`` defaults to ``weights_only=True``, as torch 2.6 and later: only tensors, Parameters,
containers, numbers, strings, dtypes and sizes come back; any other class or function in the
pickle is refused with torch's message, unless allow-listed (``add_safe_globals``) or loaded
with ``weights_only=False`` (which runs arbitrary pickled code: trusted files only).
"""

from __future__ import annotations

import codecs
import collections
import contextlib
import io
import os
import pickle
import struct
import sys
import zipfile

import numpy as np

from minigrad import _dtype
from minigrad._tensor import Size, Tensor
from minigrad.nn.parameter import Parameter
from minigrad.storage import root_array

__all__ = ["save", "load", "add_safe_globals", "safe_globals", "get_safe_globals",
           "clear_safe_globals"]

_ALIGNMENT = 64
_PROTOCOL = 2

# torch's legacy storage class per dtype name
_STORAGE_NAMES = {"float32": "FloatStorage", "float64": "DoubleStorage",
                  "float16": "HalfStorage", "int64": "LongStorage", "int32": "IntStorage",
                  "int16": "ShortStorage", "int8": "CharStorage", "uint8": "ByteStorage",
                  "bool": "BoolStorage"}
_DTYPE_OF_STORAGE = {v: k for k, v in _STORAGE_NAMES.items()}


class _Global:
    """A name in the pickle (``module.name``) that minigrad writes without importing it."""

    _interned: dict = {}

    def __new__(cls, module: str, name: str):
        key = (module, name)
        if key not in cls._interned:
            obj = super().__new__(cls)
            obj.module, obj.name = module, name
            cls._interned[key] = obj
        return cls._interned[key]

    def __call__(self, *args):  # pickle asks that a reduce function be callable
        raise TypeError(f"{self.module}.{self.name} is only a name in a pickle")


class _StorageType:
    """What a storage class name (``torch FloatStorage``) is read as: its dtype."""

    def __init__(self, dtype_name: str):
        self.dtype = getattr(_dtype, dtype_name)


# --- saving -------------------------------------------------------------------------------
def _storage_of(data: np.ndarray):
    """``(root, offset, strides)`` in elements when ``data`` can be written as a view of its
    owner's memory; None when it cannot (negative strides, another dtype, scattered owner)."""
    root = root_array(data)
    item = data.itemsize
    if (root.dtype != data.dtype or not (root.flags.c_contiguous or root.flags.f_contiguous)
            or any(s < 0 or s % item for s in data.strides)):
        return None
    start = data.__array_interface__["data"][0] - root.__array_interface__["data"][0]
    if start < 0 or start % item:
        return None
    return root, start // item, tuple(s // item for s in data.strides)


class _Pickler(pickle._Pickler):
    """The pure-Python pickler, taught torch's way of writing tensors."""

    dispatch = dict(pickle._Pickler.dispatch)

    def __init__(self, file, protocol):
        super().__init__(file, protocol=protocol)
        self.storages = {}  # id(root array) -> (key, root)

    def save_torch_global(self, obj):
        self.write(pickle.GLOBAL + f"{obj.module}\n{obj.name}\n".encode())
        self.memoize(obj)

    dispatch[_Global] = save_torch_global

    def persistent_id(self, obj):
        if isinstance(obj, tuple) and len(obj) == 2 and obj[0] is _STORAGE_TAG:
            key, root = self.storages[id(obj[1])]
            return ("storage", _Global("torch", _STORAGE_NAMES[_dtype_name(root)]), key, "cpu",
                    int(root.size))
        return None

    def reducer_override(self, obj):
        if isinstance(obj, Tensor):
            return self._reduce_tensor(obj)
        if isinstance(obj, Size):
            return _Global("torch", "Size"), (tuple(obj),)
        return NotImplemented

    def _reduce_tensor(self, t):
        data = t._data
        if _dtype_name(data) not in _STORAGE_NAMES:
            raise pickle.PicklingError(f"minigrad.save cannot write a {data.dtype} tensor")
        where = _storage_of(data)
        if where is None:  # no view to keep: the values, in a storage of their own
            data = np.ascontiguousarray(data)
            where = (data, 0, tuple(s // data.itemsize for s in data.strides))
        root, offset, strides = where
        if id(root) not in self.storages:
            self.storages[id(root)] = (str(len(self.storages)), root)
        if data.size == 0:  # NumPy's strides of an empty array are not torch's
            strides = tuple(t.stride())
        args = ((_STORAGE_TAG, root), offset, tuple(data.shape), strides,
                bool(t.requires_grad), collections.OrderedDict())
        rebuilt = (_Global("torch._utils", "_rebuild_tensor_v2"), args)
        if isinstance(t, Parameter):
            return (_Global("torch._utils", "_rebuild_parameter"),
                    (_Rebuild(*rebuilt), bool(t.requires_grad), collections.OrderedDict()))
        return rebuilt


class _Rebuild:
    """A nested ``callable(*args)`` in the pickle (a Parameter's inner tensor)."""

    def __init__(self, fn, args):
        self.fn, self.args = fn, args

    def __reduce__(self):
        return self.fn, self.args


_STORAGE_TAG = _Global("minigrad.serialization", "_storage_tag")


def _dtype_name(data: np.ndarray) -> str:
    return "bool" if data.dtype == np.bool_ else data.dtype.name


def _dtype_global(pickler, obj):
    pickler.save_torch_global(_Global("torch", obj.name))


_Pickler.dispatch[_dtype.dtype] = _dtype_global


def _archive_name(f) -> str:
    if isinstance(f, str | os.PathLike):
        return os.path.splitext(os.path.basename(os.fspath(f)))[0] or "archive"
    return "archive"


def _write_record(zf: zipfile.ZipFile, name: str, data: bytes) -> None:
    """One stored entry whose data starts at a multiple of 64 bytes in the file, padded
    through the local header's extra field (as torch's writer does)."""
    info = zipfile.ZipInfo(name, date_time=(1980, 1, 1, 0, 0, 0))
    info.compress_type = zipfile.ZIP_STORED
    header_end = zf.fp.tell() + 30 + len(name.encode())
    pad = (-(header_end + 4)) % _ALIGNMENT
    info.extra = b"FB" + struct.pack("<H", pad) + b"Z" * pad
    zf.writestr(info, data)


def save(obj, f, pickle_module=None, pickle_protocol=_PROTOCOL,
         _use_new_zipfile_serialization=True, _disable_byteorder_record=False) -> None:
    """Write ``obj`` to ``f`` (a path or a binary file object) in torch's zip format."""
    buffer = io.BytesIO()
    pickler = _Pickler(buffer, pickle_protocol)
    pickler.dump(obj)
    name = _archive_name(f)
    opened = open(f, "wb") if isinstance(f, str | os.PathLike) else contextlib.nullcontext(f)
    with opened as out, zipfile.ZipFile(out, "w", zipfile.ZIP_STORED) as zf:
        _write_record(zf, f"{name}/data.pkl", buffer.getvalue())
        _write_record(zf, f"{name}/.format_version", b"1")
        _write_record(zf, f"{name}/.storage_alignment", b"64")
        _write_record(zf, f"{name}/byteorder", b"little")
        for key, root in sorted(pickler.storages.values(), key=lambda kv: int(kv[0])):
            raw = root.astype(root.dtype.newbyteorder("<"), copy=False).tobytes(order="A")
            _write_record(zf, f"{name}/data/{key}", raw)
        _write_record(zf, f"{name}/version", b"3\n")
        _write_record(zf, f"{name}/.data/serialization_id", os.urandom(20).hex().encode())


# --- loading ------------------------------------------------------------------------------
def _rebuild_tensor_v2(storage, storage_offset, size, stride, requires_grad, backward_hooks,
                       metadata=None):
    item = storage.itemsize
    if len(size) and 0 in size:
        data = np.empty(size, storage.dtype)
    else:
        data = np.lib.stride_tricks.as_strided(storage[storage_offset:], shape=tuple(size),
                                               strides=tuple(s * item for s in stride))
    t = Tensor._make(data)
    if requires_grad:
        t.requires_grad_(True)
    return t


def _rebuild_parameter(data, requires_grad, backward_hooks, state=None):
    return Parameter(data, requires_grad)


def _rebuild_parameter_with_state(data, requires_grad, backward_hooks, state):
    return _rebuild_parameter(data, requires_grad, backward_hooks)


_TORCH_GLOBALS = {
    ("torch._utils", "_rebuild_tensor_v2"): _rebuild_tensor_v2,
    ("torch._utils", "_rebuild_parameter"): _rebuild_parameter,
    ("torch._utils", "_rebuild_parameter_with_state"): _rebuild_parameter_with_state,
    ("torch", "Size"): Size,
    ("collections", "OrderedDict"): collections.OrderedDict,
    ("builtins", "set"): set,
    ("builtins", "frozenset"): frozenset,
    ("builtins", "complex"): complex,
    ("builtins", "slice"): slice,
    ("builtins", "bytearray"): bytearray,
    ("_codecs", "encode"): codecs.encode,
}
_safe_globals: dict = {}

UNSAFE_MESSAGE = (
    "In PyTorch 2.6, we changed the default value of the `weights_only` argument in `torch.load` "
    "from `False` to `True`. Re-running `torch.load` with `weights_only` set to `False` will "
    "likely succeed, but it can result in arbitrary code execution. Do it only if you got the "
    "file from a trusted source.")


def _weights_only_error(qualified: str) -> pickle.UnpicklingError:
    return pickle.UnpicklingError(
        "Weights only load failed. This file can still be loaded, to do so you have two "
        "options, \x1b[1mdo those steps only if you trust the source of the checkpoint\x1b[0m. "
        f"\n\t(1) {UNSAFE_MESSAGE}\n\t(2) Alternatively, to load with `weights_only=True` "
        "please check the recommended steps in the following error message.\n\t"
        f"WeightsUnpickler error: Unsupported global: GLOBAL {qualified} was not an allowed "
        "global by default. Please use `torch.serialization.add_safe_globals"
        f"([{qualified}])` or the `torch.serialization.safe_globals([{qualified}])` context "
        "manager to allowlist this global if you trust this class/function.\n\nCheck the "
        "documentation of torch.load to learn more about types accepted by default with "
        "weights_only https://pytorch.org/docs/stable/generated/torch.load.html.")


class _Unpickler(pickle.Unpickler):
    def __init__(self, file, records, weights_only: bool, byteorder: str):
        super().__init__(file)
        self.records = records
        self.weights_only = weights_only
        self.byteorder = byteorder
        self.storages = {}

    def find_class(self, module, name):
        if module == "__builtin__":  # protocol 2 names Python 2's module (pickle's fix_imports)
            module = "builtins"
        known = _TORCH_GLOBALS.get((module, name))
        if known is not None:
            return known
        if module == "torch" and name in _DTYPE_OF_STORAGE:
            return _StorageType(_DTYPE_OF_STORAGE[name])
        if module == "torch" and isinstance(getattr(_dtype, name, None), _dtype.dtype):
            return getattr(_dtype, name)
        if (module, name) in _safe_globals:
            return _safe_globals[(module, name)]
        if self.weights_only:
            raise _weights_only_error(f"{module}.{name}")
        if module == "torch" or module.startswith("torch."):  # never import torch
            raise pickle.UnpicklingError(
                f"minigrad.load cannot rebuild torch's {module}.{name}; save the object's "
                "state_dict() with torch.save and load that instead")
        return super().find_class(module, name)

    def persistent_load(self, pid):
        kind, storage_type, key, _location, numel = pid
        if kind != "storage":
            raise pickle.UnpicklingError(f"Unknown typename for persistent_load, expected "
                                         f"'storage' but got '{kind}'")
        if key not in self.storages:
            dt = np.dtype(storage_type.dtype.numpy)
            if dt.itemsize > 1:
                dt = dt.newbyteorder("<" if self.byteorder == "little" else ">")
            raw = bytearray(self.records(key))
            array = np.frombuffer(raw, dtype=dt, count=numel)
            if not array.dtype.isnative:
                array = array.astype(array.dtype.newbyteorder("="))
            self.storages[key] = array
        return self.storages[key]


def load(f, map_location=None, pickle_module=None, *, weights_only=None, mmap=None,
         **pickle_load_args):
    """Read what ``save`` (or ``torch.save``) wrote. ``weights_only`` defaults to True."""
    if weights_only is None:
        weights_only = True
    opened = open(f, "rb") if isinstance(f, str | os.PathLike) else contextlib.nullcontext(f)
    with opened as source:
        raw = source.read()
    if not zipfile.is_zipfile(io.BytesIO(raw)):
        raise RuntimeError("minigrad.load reads the zip format of torch.save (torch 1.6 and "
                           "later); this file is not a zip archive")
    with zipfile.ZipFile(io.BytesIO(raw)) as zf:
        names = zf.namelist()
        pkl = next((n for n in names if n.endswith("/data.pkl") and n.count("/") == 1), None)
        if pkl is None:
            raise RuntimeError("PytorchStreamReader failed locating file data.pkl: file not "
                               "found")
        prefix = pkl[: -len("data.pkl")]
        order = (zf.read(prefix + "byteorder").decode() if prefix + "byteorder" in names
                 else sys.byteorder)
        unpickler = _Unpickler(io.BytesIO(zf.read(pkl)),
                               lambda key: zf.read(f"{prefix}data/{key}"), weights_only, order)
        return unpickler.load()


# --- allow-listing ------------------------------------------------------------------------
def _qualified(obj):
    return obj.__module__, obj.__qualname__


def add_safe_globals(safe_globals) -> None:
    """Allow these classes or functions in a ``weights_only`` load."""
    for g in safe_globals:
        if isinstance(g, tuple):
            g, name = g
            _safe_globals[tuple(name.rsplit(".", 1))] = g
        else:
            _safe_globals[_qualified(g)] = g


def get_safe_globals() -> list:
    return list(_safe_globals.values())


def clear_safe_globals() -> None:
    _safe_globals.clear()


class safe_globals:  # noqa: N801 - torch's name
    """``add_safe_globals`` for the duration of a block."""

    def __init__(self, safe_globals):
        self.safe_globals = safe_globals

    def __enter__(self):
        self.before = dict(_safe_globals)
        add_safe_globals(self.safe_globals)

    def __exit__(self, *exc):
        _safe_globals.clear()
        _safe_globals.update(self.before)
        return False
