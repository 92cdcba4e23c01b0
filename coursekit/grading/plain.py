"""Learner values as plain data, and back: what crosses from the learner's process to the grader.

``encode`` runs in the learner's process (the grading kernel, or inline in a notebook). It turns
a value into JSON-able data and never calls anything the learner can override: types are
compared exactly (``type(x) is float``, never ``isinstance``, which a ``__class__`` property
can fool), and tensors and arrays are read through the libraries' own functions and
descriptors, bound here when this module is imported (before any learner code runs in the
kernel). A value it does not know becomes ``{"$": "object", "type": name}``.

``decode`` runs in the trusted process: it rebuilds plain Python values, torch and minigrad
tensors (leaves with the same data, dtype, ``requires_grad`` and ``.grad``), NumPy arrays and
exceptions, from that data only. Nothing the learner wrote is ever executed there. The data
may be forged (the learner's process is the learner's: it can send any reply), so ``decode``
takes nothing on trust: anything ``encode`` would not make raises ``DecodeError`` (never another
exception), strings and names are as short as ``encode`` makes them, and rebuilding takes time
linear in the data's size. Sets and dicts are the one place where Python's own cost is not
linear: their members' hashes are chosen by the learner (an int ``n`` hashes like
``n + k * (2**61 - 1)``, and tuples of such ints can be made to collide at will), so ``decode``
refuses one with more than ``MAX_ALIKE`` distinct members of one hash before inserting them.

Encoded forms (besides JSON's own None, bool, int, float, str and lists):
``{"$": "tuple", "items"}``,
``{"$": "set", "items"}``, ``{"$": "dict", "items": [[key, value], ...]}``,
``{"$": "tensor", "lib", "dtype", "shape", "data", "requires_grad", "is_leaf", "grad_fn",
"grad"}``, ``{"$": "ndarray", "dtype", "shape", "data"}``, ``{"$": "npscalar", "dtype",
"value"}``, ``{"$": "error", "type", "builtin", "message"}``, ``{"$": "ellipsis"}``,
``{"$": "object", "type"}``. An error raised by the check's own observation function on the
learner's value (``'float' object has no attribute 'backward'``) says so: ``"in_check": true``.
"""

from __future__ import annotations

import builtins
import math
import warnings

import numpy as np
import torch

import minigrad
import minigrad.nn

MAX_DEPTH = 12
MAX_ITEMS = 50_000  # numbers and containers' items per encoded value (the reply stays < 1 MB)
MAX_TEXT = 2_000  # characters kept of a string or an error message
MAX_NAME = 200  # characters kept of a type's name (a class may be named with 450,000 newlines)
INT_LIMIT = 1 << 62
MAX_ALIKE = 8  # distinct members of one hash in a rebuilt set or dict (hash flooding)
MAX_DIMS = 32
OBSERVE_FILE = "<observe>"  # the file name the kernel compiles a check's observation under

# --- bound now: the learner cannot swap these --------------------------------------------------
_type = builtins.type
_len = builtins.len
_list = builtins.list
_str = builtins.str
_BaseException = builtins.BaseException
_exc_str = builtins.BaseException.__str__
_type_name = builtins.type.__dict__["__name__"].__get__
_type_mro = builtins.type.__dict__["__mro__"].__get__
_dict_items = builtins.dict.items
_catch_warnings = warnings.catch_warnings
_simplefilter = warnings.simplefilter
_isfinite = math.isfinite
_tb_of = builtins.BaseException.__dict__["__traceback__"].__get__

_TB = torch._C.TensorBase
_t_get = {name: _TB.__dict__[name].__get__
          for name in ("grad", "requires_grad", "grad_fn", "is_leaf", "dtype", "shape")}
_t_detach = torch.Tensor.detach  # a method_descriptor of torch.Tensor (C code)
_t_tolist = _TB.tolist
_t_numel = _TB.numel
_TORCH_TYPES = (torch.Tensor, torch.nn.Parameter)
_TORCH_DTYPES = {_str(d): d for d in (torch.float16, torch.bfloat16, torch.float32,
                                      torch.float64, torch.int8, torch.int16, torch.int32,
                                      torch.int64, torch.uint8, torch.bool)}

_MG_TYPES = (minigrad.Tensor, minigrad.nn.Parameter)
_mg_slot = {name: minigrad.Tensor.__dict__[name].__get__
            for name in ("_data", "_requires_grad", "_grad_fn", "_grad")}

_nd_tolist = np.ndarray.tolist
_nd_get = {name: np.ndarray.__dict__[name].__get__ for name in ("dtype", "shape", "size")}
_np_item = np.generic.item
_NP_SCALARS = {np.float16, np.float32, np.float64, np.int8, np.int16, np.int32, np.int64,
               np.uint8, np.bool_}
_NP_DTYPES = {"float16", "float32", "float64", "int8", "int16", "int32", "int64", "uint8",
              "bool"}
_dtype_name = np.dtype.__dict__["name"].__get__

_BUILTIN_ERRORS = {name: value for name, value in _dict_items(vars(builtins))
                   if _type(value) is _type and issubclass(value, _BaseException)}


class _Budget:
    def __init__(self, size: int = MAX_ITEMS):
        self.left = size

    def take(self, n: int) -> bool:
        self.left -= n
        return self.left >= 0


def _name(cls) -> str:
    """A class's name, at most ``MAX_NAME`` characters (``type.__name__`` is always a str)."""
    return _type_name(cls)[:MAX_NAME]


def _object(x) -> dict:
    return {"$": "object", "type": _name(_type(x))}


def _text(s) -> str:
    return s[:MAX_TEXT] if _type(s) is _str else ""


def _raised_in(exc, filename: str) -> bool:
    """Whether the innermost frame of ``exc``'s traceback runs code of file ``filename`` (the
    check's observation function, not the learner's code). Only for feedback: the traceback
    is the learner's to fake, and no verdict depends on it."""
    try:
        tb, steps = _tb_of(exc), 0
        while tb is not None and tb.tb_next is not None and steps < 10_000:
            tb, steps = tb.tb_next, steps + 1
        return tb is not None and _type(tb.tb_frame.f_code.co_filename) is _str \
            and tb.tb_frame.f_code.co_filename == filename
    except _BaseException:  # noqa: BLE001 - feedback only
        return False


def encode_error(exc, check_file: str = OBSERVE_FILE) -> dict:
    """An exception as ``{"$": "error", "type", "builtin", "message", "in_check"}``:
    ``builtin`` only when its class *is* the built-in class of that name (a learner's class
    named RuntimeError is not); ``in_check`` when the check's observation function (compiled
    from ``check_file``) raised it itself, on what the learner's code gave it."""
    cls = _type(exc)
    name = _type_name(cls)
    try:
        message = _text(_exc_str(exc))
    except _BaseException:  # noqa: BLE001 - a lying __str__ of an argument
        message = ""
    return {"$": "error", "type": name[:MAX_NAME],
            "builtin": _BUILTIN_ERRORS.get(name) is cls, "message": message,
            "in_check": _raised_in(exc, check_file)}


def _torch(x, depth, budget) -> dict:
    n = _t_numel(x)
    if not budget.take(n):
        return {"$": "object", "type": "a tensor too large to grade"}
    with _catch_warnings():
        _simplefilter("ignore")  # reading a non-leaf's .grad warns
        grad = _t_get["grad"](x)
        grad_fn = _t_get["grad_fn"](x)
        encoded_grad = None if grad is None else encode(grad, depth + 1, budget)
    dtype = _str(_t_get["dtype"](x))
    if dtype not in _TORCH_DTYPES:
        return {"$": "object", "type": f"a tensor of dtype {dtype}"}
    return {"$": "tensor", "lib": "torch", "dtype": dtype.removeprefix("torch."),
            "shape": [int(s) for s in _t_get["shape"](x)],
            "data": _t_tolist(_t_detach(x)), "requires_grad": bool(_t_get["requires_grad"](x)),
            "is_leaf": bool(_t_get["is_leaf"](x)),
            "grad_fn": None if grad_fn is None else _name(_type(grad_fn)),
            "grad": encoded_grad}


def _minigrad(x, depth, budget) -> dict:
    data = _mg_slot["_data"](x)
    if _type(data) is not np.ndarray or _dtype_name(_nd_get["dtype"](data)) not in _NP_DTYPES:
        return {"$": "object", "type": "a broken minigrad tensor"}
    if not budget.take(_nd_get["size"](data)):
        return {"$": "object", "type": "a tensor too large to grade"}
    grad_fn, grad = _mg_slot["_grad_fn"](x), _mg_slot["_grad"](x)
    return {"$": "tensor", "lib": "minigrad", "dtype": _dtype_name(_nd_get["dtype"](data)),
            "shape": _list(_nd_get["shape"](data)), "data": _nd_tolist(data),
            "requires_grad": bool(_mg_slot["_requires_grad"](x) is True or grad_fn is not None),
            "is_leaf": grad_fn is None,
            "grad_fn": None if grad_fn is None else _name(_type(grad_fn)),
            "grad": None if grad is None else encode(grad, depth + 1, budget)}


def encode(x, depth: int = 0, budget: _Budget | None = None):
    """``x`` as plain data (see the module's docstring); never raises for a learner's value."""
    budget = budget or _Budget()
    t = _type(x)
    if x is None or t is bool:
        return x
    if not budget.take(1) or depth > MAX_DEPTH:
        return {"$": "object", "type": "a value too large or too deep to grade"}
    if t is int:
        return x if -INT_LIMIT < x < INT_LIMIT else {"$": "object", "type": "a huge int"}
    if t is float:
        return x if _isfinite(x) else {"$": "float", "value": float.__repr__(x)}
    if t is _str:
        return _text(x)
    if x is Ellipsis:
        return {"$": "ellipsis"}
    if t is _list:
        return [encode(item, depth + 1, budget) for item in _list.__iter__(x)]
    if t is tuple:
        return {"$": "tuple", "items": [encode(item, depth + 1, budget)
                                        for item in tuple.__iter__(x)]}
    if t is set or t is frozenset:
        return {"$": "set", "items": [encode(item, depth + 1, budget) for item in t.__iter__(x)]}
    if t is dict:
        return {"$": "dict", "items": [[encode(k, depth + 1, budget), encode(v, depth + 1, budget)]
                                       for k, v in _dict_items(x)]}
    if t in _TORCH_TYPES:
        return _torch(x, depth, budget)
    if t in _MG_TYPES:
        return _minigrad(x, depth, budget)
    if t is np.ndarray:
        name = _dtype_name(_nd_get["dtype"](x))
        if name not in _NP_DTYPES or not budget.take(_nd_get["size"](x)):
            return _object(x)
        return {"$": "ndarray", "dtype": name, "shape": _list(_nd_get["shape"](x)),
                "data": _nd_tolist(x)}
    if t in _NP_SCALARS:
        value = _np_item(x)
        if _type(value) is float and not _isfinite(value):
            value = float.__repr__(value)
        return {"$": "npscalar", "dtype": _name(t), "value": value}
    if _BaseException in _type_mro(t):
        return encode_error(x)
    return _object(x)


# --- the trusted side ---------------------------------------------------------------------------

class LearnerObject:
    """Stands for a learner's value the grader cannot take over (any class of the learner's)."""

    def __init__(self, type_name: str):
        self.type_name = type_name

    def __repr__(self) -> str:
        return f"<a {self.type_name}>"


class LearnerError(Exception):
    """An exception the learner's code raised whose type is not a built-in one."""

    def __init__(self, type_name: str, message: str):
        super().__init__(f"{type_name}: {message}")
        self.type_name, self.message = type_name, message


class DecodeError(ValueError):
    """The data is not something ``encode`` makes: no verdict."""


def _need(cond, what="malformed observation") -> None:
    if not cond:
        raise DecodeError(what)


def _number(value) -> None:
    t = type(value)
    _need(t is float or t is bool or t is int and -INT_LIMIT < value < INT_LIMIT)


def _float(value):
    if type(value) is str:
        _need(value in ("nan", "inf", "-inf"))
        return float(value)
    _number(value)
    return value


def _short(value, limit: int) -> str:
    _need(type(value) is str and len(value) <= limit)
    return value


def _shape(shape) -> list[int]:
    """A tensor's shape: at most ``MAX_DIMS`` sizes, none negative, at most ``MAX_ITEMS``
    elements (a size-0 tensor counts its other sizes, so ``[0, 2**63]`` is refused too)."""
    _need(type(shape) is list and len(shape) <= MAX_DIMS)
    total = 1
    for size in shape:
        _need(type(size) is int and 0 <= size <= MAX_ITEMS)
        total *= max(size, 1)
        _need(total <= MAX_ITEMS)
    return shape


def _check_data(data, shape, depth=0):
    """``data`` is a nested list of numbers of exactly ``shape``."""
    if not shape:
        _number(data)
        return
    _need(type(data) is list and len(data) == shape[0])
    for item in data:
        _check_data(item, shape[1:], depth + 1)


def _tensor(d: dict, depth: int, budget: _Budget):
    shape = _shape(d.get("shape"))
    _check_data(d.get("data"), shape)
    _need(budget.take(len(shape) + math.prod(shape)))
    dtype = d.get("dtype")
    if d.get("lib") == "torch":
        _need(type(dtype) is str and f"torch.{dtype}" in _TORCH_DTYPES)
        t = torch.tensor(d["data"], dtype=_TORCH_DTYPES[f"torch.{dtype}"]).reshape(shape)
    else:
        _need(d.get("lib") == "minigrad" and dtype in _NP_DTYPES)
        t = minigrad.tensor(np.array(d["data"], dtype=dtype).reshape(shape))
    if d.get("requires_grad") is True and t.dtype.is_floating_point:
        t.requires_grad_(True)
    if d.get("grad") is not None:
        grad = _decode(d["grad"], depth + 1, budget)
        _need(type(grad) is type(t) and grad.shape == t.shape and grad.dtype == t.dtype,
              "malformed gradient")
        t.grad = grad
    return t


def _keyed(pairs, depth: int, budget: _Budget) -> dict:
    """A dict of the decoded ``(key, value)`` pairs, refused (``DecodeError``) when more than
    ``MAX_ALIKE`` distinct keys share one hash: each insertion then compares a key with at most
    ``MAX_ALIKE`` others, so the time stays linear whatever hashes the learner chose. (The
    hashes are counted in a dict keyed by the hash values: ints of at most 64 bits, of which at
    most a handful share a hash of their own.)"""
    out: dict = {}
    alike: dict[int, int] = {}
    for key_data, value_data in pairs:
        key = _decode(key_data, depth + 1, budget)
        value = None if value_data is None else _decode(value_data, depth + 1, budget)
        try:
            h = hash(key)
        except TypeError:  # an unhashable key (a list)
            raise DecodeError("malformed observation") from None
        if key not in out:
            count = alike.get(h, 0) + 1
            _need(count <= MAX_ALIKE, "a set or dict whose keys all hash alike")
            alike[h] = count
        out[key] = value
    return out


def _items(data) -> list:
    _need(type(data.get("items")) is list)
    return data["items"]


def _decode(data, depth: int, budget: _Budget):
    _need(depth < 60 and budget.take(1))
    t = type(data)
    if data is None or t is bool or t is float:
        return data
    if t is int:
        _number(data)
        return data
    if t is str:
        return _short(data, MAX_TEXT)
    if t is list:
        return [_decode(item, depth + 1, budget) for item in data]
    _need(t is dict and type(data.get("$")) is str)
    kind = data["$"]
    if kind == "tuple":
        return tuple(_decode(item, depth + 1, budget) for item in _items(data))
    if kind == "set":
        return set(_keyed(((item, None) for item in _items(data)), depth, budget))
    if kind == "dict":
        pairs = _items(data)
        _need(all(type(pair) is list and len(pair) == 2 for pair in pairs))
        return _keyed(pairs, depth, budget)
    if kind == "float":
        return _float(data.get("value"))
    if kind == "ellipsis":
        return Ellipsis
    if kind == "tensor":
        return _tensor(data, depth, budget)
    if kind == "ndarray":
        _need(data.get("dtype") in _NP_DTYPES)
        shape = _shape(data.get("shape"))
        _check_data(data.get("data"), shape)
        _need(budget.take(len(shape) + math.prod(shape)))
        return np.array(data["data"], dtype=data["dtype"]).reshape(shape)
    if kind == "npscalar":
        _need(data.get("dtype") in _NP_DTYPES | {"bool_"})
        value = _float(data.get("value"))
        return getattr(np, data["dtype"])(value)
    if kind == "error":
        return rebuild_error(data)
    if kind == "object":
        return LearnerObject(_short(data.get("type"), MAX_NAME))
    raise DecodeError("malformed observation")


def decode(data):
    """Rebuild what ``encode`` made; raises ``DecodeError`` for anything else, and only that
    (a value NumPy or torch refuses to build, an int out of a dtype's range, is malformed
    data too)."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # NumPy's overflow warnings on an int8 of 300
        try:
            return _decode(data, 0, _Budget(2 * MAX_ITEMS))
        except DecodeError:
            raise
        except (TypeError, ValueError, OverflowError, RuntimeError, RecursionError) as error:
            raise DecodeError(f"malformed observation ({type(error).__name__})") from None


_REBUILT_ERRORS = {name: cls for name, cls in _BUILTIN_ERRORS.items()
                   if issubclass(cls, Exception) and cls.__init__ is not None}


def rebuild_error(data) -> Exception:
    """The exception to raise in the trusted check: the built-in type of that name when the
    learner's was the built-in one (so ``except RuntimeError`` works), else ``LearnerError``;
    never a ``BaseException`` that is not an ``Exception`` (a SystemExit stays a report).
    ``in_check`` is kept as the error's attribute of that name (for feedback only)."""
    _need(type(data) is dict)
    name, message = _short(data.get("type"), MAX_NAME), _short(data.get("message"), MAX_TEXT)
    cls = _REBUILT_ERRORS.get(name)
    error = None
    if data.get("builtin") is True and cls is not None:
        try:
            error = cls(message)
        except Exception:  # noqa: BLE001 - a built-in needing more arguments
            pass
    error = error if error is not None else LearnerError(name, message)
    error.in_check = data.get("in_check") is True
    return error
