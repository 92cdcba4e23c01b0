"""Arguments checked as torch's Python argument parser checks them.

Torch's functions are C++ with typed signatures; its parser matches each call against them
and raises a ``TypeError`` naming the argument (``unsqueeze(): argument 'dim' (position 2)
must be int, not bool``) or listing the overloads (``... received an invalid combination of
arguments - got (Tensor, int), but expected one of:``). Python would take ``True`` for an int
or ``2.5`` for a count without a word, and compute something else. ``@parses(...)`` gives an
op torch's signatures, written as torch prints them::

    @parses("unsqueeze(Tensor input, int dim)")
    def unsqueeze(input, dim): ...

The op stays as it is for minigrad's own calls; its ``.as_function`` is ``torch.unsqueeze``
(``minigrad/__init__.py`` exports it) and its ``.as_method`` is ``x.unsqueeze`` (``METHODS``
binds it): the same signatures without ``input``, and without ``out``, as torch's methods
have them. A call whose arguments have the expected plain types (a tensor, an int...) goes
straight to the op after a few ``type() in`` checks; anything else takes the slow path:
torch's matching rules, its NumPy-style keyword names (``axis`` for ``dim``, ``keepdims``
for ``keepdim``), a list of ints given one by one (``x.permute(1, 0)``), a 0-d integer
tensor for an int, ``out=`` (written by ``_into_out``, for every op alike but the few whose
``out=`` torch treats its own way, left out: ``_OWN_OUT_RULES``), and torch's error texts when
nothing matches.

Spec additions to torch's printed form: ``tuple of ints[1]`` (a single int is taken for the
list, torch's ``int[1]``), ``?`` after a type (None is accepted), and a trailing ``|hidden``
(an overload torch accepts without listing it, such as ``add(x, 2, y)``) or ``|left_out``
(listed by torch): minigrad leaves those forms out with a NotImplementedError.
"""

from __future__ import annotations

import sys
import warnings

import numpy as np

from minigrad import _dtype, _layout
from minigrad._ops import _vmap_hook, subclass
from minigrad._tensor import _CPP_TYPE_NAMES, Size, Tensor, device
from minigrad.autograd import grad_mode

_NUMPY_NAMES = {"dim": ("axis",), "keepdim": ("keepdims",), "input": ("x", "a", "x1"),
                "other": ("x2",)}
_PY_DTYPES = {float: _dtype.float64, int: _dtype.int64, bool: _dtype.bool}
_TORCH_TYPE_NAMES = {_dtype.dtype: "torch.dtype", device: "torch.device", Size: "torch.Size"}
_NUMBER_TYPES = (int, float, complex, np.number, np.bool_)
_NO_SELF = object()
_SLOW_KEYWORDS = frozenset({"out", "layout", "pin_memory"})  # handled by _call


def type_name(obj) -> str:
    """The name torch's messages give a Python object's type (its C ``tp_name``)."""
    cls = type(obj)
    if cls in _TORCH_TYPE_NAMES:
        return _TORCH_TYPE_NAMES[cls]
    if cls.__module__ == "numpy":
        return f"numpy.{cls.__name__}"
    return cls.__name__


def _is_index(obj) -> bool:
    """torch's checkIndex: an int, or anything with ``__index__``, but never a bool."""
    if isinstance(obj, bool | np.bool_):
        return False
    if isinstance(obj, int | np.integer):
        return True
    if isinstance(obj, Tensor):
        return obj.numel() == 1 and _integral(obj.dtype)
    return False


def _integral(d) -> bool:
    return d.numpy.kind in "iu"


def _scalar_tensor(obj) -> bool:
    return isinstance(obj, Tensor) and obj.dim() == 0 and not obj.requires_grad


class Param:
    """One parameter of a signature: how it prints, which objects it takes."""

    __slots__ = ("type", "name", "default", "optional", "allow_none", "kw_only", "size",
                 "fast", "aliases", "numbers_as_tensors")

    def __init__(self, text: str, kw_only: bool, numbers_as_tensors: bool):
        declared, _, default = text.partition(" = ")
        kind, _, self.name = declared.rpartition(" ")
        self.allow_none = kind.endswith("?") or default == "None"
        kind = kind.rstrip("?")
        self.size = 0
        if kind.endswith("]"):  # torch's int[1]: one int for the list (None for a default)
            kind, _, size = kind[:-1].partition("[")
            self.size = int(size)
            self.allow_none = self.allow_none or bool(default)
        self.type, self.default, self.kw_only = kind, default or None, kw_only
        self.optional = bool(default)
        self.aliases = _NUMPY_NAMES.get(self.name, ())
        self.numbers_as_tensors = numbers_as_tensors
        self.fast = _FAST.get(kind, frozenset())
        if self.size:  # one int for torch's int[1]: the ops take it as it is
            self.fast = self.fast | {int}
        if self.allow_none:
            self.fast = self.fast | {type(None)}

    def __str__(self):
        text = f"{self.type} {self.name}"
        return text if self.default is None else f"{text} = {self.default}"

    def accepts(self, obj) -> bool:
        """torch's FunctionParameter::check: may ``obj`` be this argument?"""
        kind = self.type
        if kind == "Tensor":
            return isinstance(obj, Tensor) or (
                self.numbers_as_tensors and isinstance(obj, _NUMBER_TYPES))
        if kind in ("Number", "float"):
            if isinstance(obj, (_NUMBER_TYPES if kind == "Number" else
                                (int, float, np.floating, np.integer, np.bool_))):
                return True
            return _scalar_tensor(obj)
        if kind == "int":
            if isinstance(obj, int | np.integer) and not isinstance(obj, bool):
                return True
            return _scalar_tensor(obj) and _integral(obj.dtype)
        if kind == "bool":
            return isinstance(obj, bool)
        if kind == "tuple of ints":
            if isinstance(obj, tuple | list):
                return not obj or _is_index(obj[0])
            return self.size > 0 and _is_index(obj)
        if kind == "tuple of Tensors":
            return isinstance(obj, tuple | list)
        if kind == "tuple of floats":  # torch's is_double_list: it looks at the first item
            return isinstance(obj, tuple | list) and (
                not obj or isinstance(obj[0], int | float | np.integer | np.floating))
        if kind == "tuple of Scalars":  # torch's is_scalar_list: Python numbers only
            return isinstance(obj, tuple | list) and all(
                isinstance(item, int | float | complex) for item in obj)
        if kind == "torch.dtype":
            return isinstance(obj, _dtype.dtype) or obj is float or obj is int or obj is bool
        if kind == "str":
            return isinstance(obj, str)
        if kind == "torch.device":
            return isinstance(obj, str | device) or (isinstance(obj, int) and not isinstance(
                obj, bool))
        if kind in ("torch.Generator", "torch.memory_format", "torch.layout"):
            return type(obj).__name__ == kind[6:]  # known by name (the Generator imports us)
        return kind == "object"


_FAST = {  # objects a parameter takes as they are, known by their exact type
    "Tensor": frozenset({Tensor}), "int": frozenset({int}), "bool": frozenset({bool}),
    "float": frozenset({float, int}), "Number": frozenset({float, int, bool}),
    "torch.dtype": frozenset({_dtype.dtype}), "str": frozenset({str}),
}


class Signature:
    """One overload, parsed from torch's printed form ``name(Type arg = default, *, ...)``."""

    def __init__(self, spec: str, numbers_as_tensors: bool = False):
        spec, _, flag = spec.partition("|")
        self.hidden, self.left_out = flag == "hidden", bool(flag)
        self.name, _, body = spec.partition("(")
        body = body[:-1]
        self.params, kw_only = [], False
        for text in body.split(", ") if body else ():
            if text == "*":
                kw_only = True
            else:
                self.params.append(Param(text, kw_only, numbers_as_tensors))
        self._finish()

    def _finish(self):
        self.positional = [p for p in self.params if not p.kw_only]
        self.max_pos = len(self.positional)
        self.min_args = sum(not p.optional for p in self.params)
        self.min_pos = 0
        for p in self.positional:
            if p.optional:
                break
            self.min_pos += 1
        self.required_kw = frozenset(p.name for p in self.params if p.kw_only and not p.optional)
        self.by_name = {p.name: p for p in self.params}
        self.position = {p.name: (len(self.params) if p.kw_only else i)
                         for i, p in enumerate(self.params)}
        self.varargs = self.max_pos == 1 and self.positional[0].type == "tuple of ints"
        # ints one by one; not for torch's int[1], which takes a first int as the whole list
        self.varargs_fast = self.varargs and not self.positional[0].size

    def without(self, *names) -> Signature:
        """The method's signature: ``input`` (the tensor it is called on) and ``out`` left out."""
        method = object.__new__(Signature)
        method.name, method.hidden, method.left_out = self.name, self.hidden, self.left_out
        method.params = [p for p in self.params if p.name not in names]
        method._finish()
        return method

    def __str__(self):
        parts, starred = [], False
        for p in self.params:
            if p.kw_only and not starred:
                parts.append("*")
                starred = True
            parts.append(str(p))
        return f"({', '.join(parts)})"

    def fast_match(self, args, kwargs) -> int:
        """The common call: plain values of the expected types, torch's own keyword names.
        0: no; 1: call the op with the arguments as they are; 2: ints given one by one
        (``x.permute(1, 0)``), to hand over as one tuple."""
        n = len(args)
        if self.varargs_fast and n and type(args[0]) is int:  # x.view(-1), x.permute(1, 0)
            for a in args:
                if type(a) is not int:
                    return 0
            return 2 if not kwargs or self._fast_kwargs(kwargs, 1) else 0
        if n > self.max_pos:
            return 0
        if n < self.min_pos:
            return False
        for a, p in zip(args, self.positional):
            if type(a) not in p.fast and not _plain(p, a):
                return False
        if kwargs:
            return self._fast_kwargs(kwargs, n)
        return not self.required_kw

    def _fast_kwargs(self, kwargs, n) -> bool:
        by_name, position = self.by_name, self.position
        for k, v in kwargs.items():
            p = by_name.get(k)
            if p is None or k in _SLOW_KEYWORDS or position[k] < n:
                return False
            if type(v) not in p.fast and not _plain(p, v):
                return False
        return not self.required_kw or self.required_kw <= kwargs.keys()

    def bind(self, args, kwargs, raise_error: bool):
        """torch's FunctionSignature::parse. Returns (positional, keywords) to call the op
        with, None if the call does not match (or raises, with ``raise_error``)."""
        n = len(args)
        if n > self.max_pos and not (self.varargs and _is_index(args[0])):
            if raise_error:
                raise TypeError(self._extra_args(n))
            return None
        values, used, arg_pos = {}, 0, 0
        for i, p in enumerate(self.params):
            is_kwd = False
            if arg_pos < n:
                if p.kw_only:
                    if raise_error:
                        raise TypeError(self._extra_args(n))
                    return None
                obj, given = args[arg_pos], True
            else:
                given, obj, is_kwd = False, None, True
                for key in (p.name, *p.aliases):
                    if key in kwargs:
                        given, obj = True, kwargs[key]
                        break
            if (not given and p.optional) or (given and obj is None and p.allow_none):
                if given:
                    values[p.name] = None
                    if is_kwd:
                        used += 1
                    else:
                        arg_pos += 1
                continue
            if not given:
                if raise_error:
                    raise TypeError(self._missing(i))
                return None
            if p.type == "tuple of Tensors" and isinstance(obj, tuple | list):
                for j, item in enumerate(obj):
                    if not isinstance(item, Tensor):  # raised at once, as torch does
                        raise TypeError(f"expected Tensor as element {j} in argument {i}, "
                                        f"but got {type_name(item)}")
            if p.accepts(obj):
                value = _converted(self.name, p, obj, arg_pos)
            elif self.varargs and arg_pos == 0 and not is_kwd and _int_list(args):
                values[p.name] = _converted(self.name, p, tuple(args), 0)
                arg_pos = n
                continue
            elif raise_error:
                if is_kwd:
                    raise TypeError(f"{self.name}(): argument '{p.name}' must be {p.type}, "
                                    f"not {type_name(obj)}")
                if p.type == "tuple of ints" and isinstance(obj, tuple | list):  # its first item
                    raise TypeError(f"{self.name}(): argument '{p.name}' (position {arg_pos + 1})"
                                    f" must be {p.type}, but found element of type "
                                    f"{type_name(obj[0])} at pos 0")
                raise TypeError(f"{self.name}(): argument '{p.name}' (position {arg_pos + 1}) "
                                f"must be {p.type}, not {type_name(obj)}")
            else:
                return None
            values[p.name] = value
            if is_kwd:
                used += 1
            else:
                arg_pos += 1
        if used < len(kwargs):
            if raise_error:
                raise TypeError(self._extra_kwargs(kwargs, n))
            return None
        pos = []  # the positional parameters in order, up to the first one not given
        for p in self.positional:
            if p.name not in values:
                break
            pos.append(values.pop(p.name))
        return pos, values

    def _extra_args(self, n) -> str:
        if self.min_args != self.max_pos:
            return (f"{self.name}() takes from {self.min_args} to {self.max_pos} positional "
                    f"arguments but {n} were given")
        plural = "" if self.max_pos == 1 else "s"
        were = "was" if n == 1 else "were"
        return (f"{self.name}() takes {self.max_pos} positional argument{plural} but {n} {were} "
                "given")

    def _missing(self, i) -> str:
        names = [f'"{p.name}"' for p in self.params[i:] if not p.optional]
        plural = "s" if len(names) == 1 else ""  # torch's message has it the other way round
        return (f"{self.name}() missing {len(names)} required positional argument{plural}: "
                f"{', '.join(names)}")

    def _extra_kwargs(self, kwargs, n) -> str:
        names = [p.name for p in self.params]
        for key in kwargs:  # torch looks the names up without their NumPy spellings here
            if key not in names:
                return f"{self.name}() got an unexpected keyword argument '{key}'"
            if names.index(key) < n:
                return f"{self.name}() got multiple values for argument '{key}'"
        return "invalid keyword arguments"


def _plain(p: Param, obj) -> bool:
    """Taken as it is, with no conversion (the fast path's second chance)."""
    kind = p.type
    if kind == "Tensor":
        return isinstance(obj, Tensor) or (p.numbers_as_tensors and type(obj) in _FAST["Number"])
    if kind == "object":
        return True
    if kind == "tuple of Tensors":
        if type(obj) is tuple or type(obj) is list:
            for item in obj:
                if not isinstance(item, Tensor):
                    return False
            return True
        return False
    if kind == "tuple of ints":
        if type(obj) is tuple or type(obj) is Size or type(obj) is list:
            for item in obj:
                if type(item) is not int:
                    return False
            return True
        return p.size > 0 and type(obj) is int
    if obj is None:
        return p.allow_none
    return False


def _int_list(args) -> bool:
    return _is_index(args[0])


def _converted(name, p: Param, obj, arg_pos):
    """The value handed to the op: ints for ints (a 0-d tensor, a NumPy integer), the list
    of ints checked element by element as torch unpacks it."""
    kind = p.type
    if kind == "int" and type(obj) is not int:
        return int(obj)
    if kind in ("float", "Number") and isinstance(obj, Tensor):
        return obj.item()  # torch reads a 0-d tensor's number
    if kind == "torch.dtype" and obj in _PY_DTYPES:
        return _PY_DTYPES[obj]
    if kind == "tuple of ints" and not isinstance(obj, tuple | list):
        return int(obj)  # torch's int[1] given one int (or a 0-d integer tensor)
    if kind == "tuple of ints":
        for j, item in enumerate(obj):
            if not (isinstance(item, int | np.integer) or _is_index(item)):
                raise TypeError(f"{name}(): argument '{p.name}' failed to unpack the object at "
                                f"pos {j + 1} with error \"type must be tuple of ints,but got "
                                f"{type_name(item)}\"")
        return tuple(int(item) for item in obj)
    return obj


def _kwargs_order(kwargs) -> list:
    """The keywords in the order torch lists them: its std::unordered_map of a few
    keywords gives them back last one first."""
    return list(reversed(kwargs.items()))


def _arg_desc(args, kwargs) -> str:
    parts = [type_name(a) for a in args] + [f"{k}={type_name(v)}" for k, v in
                                            _kwargs_order(kwargs)]
    text = ", ".join(parts)
    if kwargs and not args:
        text += ", "  # torch trims the last ", " only when there are positional arguments
    return f"({text})"


def _matches_printed(param_type: str, obj) -> bool:
    """invalid_arguments.cpp's loose check by type name, used to mark ``!mismatches!``."""
    name = type_name(obj)
    if param_type == "float":
        return name in ("float", "int")
    if param_type == "int":
        return name == "int"
    return name == param_type


def _formatted_desc(sig: Signature, printed: list, args, kwargs) -> str:
    parts = []
    for i, obj in enumerate(list(args) + [v for _, v in _kwargs_order(kwargs)]):
        is_kwarg = i >= len(args)
        ok = i < len(printed) and _matches_printed(printed[i][0], obj)
        text = type_name(obj)
        if isinstance(obj, tuple | list):
            inner = ", ".join(type_name(e) for e in obj)
            if isinstance(obj, tuple):
                inner = f"({inner}{',' if len(obj) == 1 else ''})"
            else:
                inner = f"[{inner}]"
            text = f"{type_name(obj)} of {inner}"
        if is_kwarg:
            text = f"{printed[i][1] if i < len(printed) else ''}={text}"
        parts.append(text if ok else f"!{text}!")
    return f"({', '.join(parts)})"


def _printed_args(sig: Signature) -> list:
    """(type, name) of each comma-separated item of the printed signature, read as torch's
    invalid_arguments.cpp reads it: ``*`` counts as an argument, and the type is everything
    before the last space (``Tensor min = None`` has the type ``Tensor min =``, which
    matches nothing)."""
    return [item.rpartition(" ")[::2] for item in str(sig)[1:-1].split(", ")]


def _unmatched_keywords(printed, kwargs) -> list:
    """torch's _tryMatchKwargs: keywords looked up among the last ``len(kwargs)`` printed
    arguments, by the printed text's last word (``Number alpha = 1`` is named ``1``)."""
    names = [name for _, name in printed[max(len(printed) - len(kwargs), 0):]]
    return [k for k, _ in _kwargs_order(kwargs) if k not in names]


def invalid_combination(name, sigs, args, kwargs) -> str:
    """torch's format_invalid_args: what was given, and each visible overload."""
    shown = [s for s in sigs if not s.hidden]
    message = f"{name}() received an invalid combination of arguments - "
    if len(shown) == 1:
        sig = shown[0]
        printed = _printed_args(sig)
        unknown = _unmatched_keywords(printed, kwargs)
        if unknown:
            return f"{message}got unrecognized keyword arguments: {', '.join(unknown)}"
        if len(args) + len(kwargs) == len(printed):
            given = _formatted_desc(sig, printed, args, kwargs)
        else:
            given = _arg_desc(args, kwargs)
        return f"{message}got {given}, but expected {sig}"
    message += f"got {_arg_desc(args, kwargs)}, but expected one of:\n"
    for sig in shown:
        message += f" * {sig}\n"
        printed = _printed_args(sig)
        if len(args) + len(kwargs) == len(printed):
            unknown = _unmatched_keywords(printed, kwargs)
            if unknown:
                message += ("      didn't match because some of the keywords were incorrect: "
                            f"{', '.join(unknown)}\n")
            else:
                message += ("      didn't match because some of the arguments have invalid "
                            f"types: {_formatted_desc(sig, printed, args, kwargs)}\n")
    return message


def parse(name, sigs, args, kwargs):
    """torch's PythonArgParser: the first overload that matches, else its error."""
    if len(sigs) == 1:
        bound = sigs[0].bind(args, kwargs, True)
        return sigs[0], bound
    for sig in sigs:
        bound = sig.bind(args, kwargs, False)
        if bound is not None:
            return sig, bound
    count = len(args) + len(kwargs)
    plausible = [s for s in sigs if s.min_args <= count <= len(s.params) and not s.hidden]
    if len(plausible) == 1:
        plausible[0].bind(args, kwargs, True)
    raise TypeError(invalid_combination(name, sigs, args, kwargs))


def _call(fn, sig, bound, self=_NO_SELF):
    if sig.left_out:
        raise NotImplementedError(f"minigrad leaves out this form of {sig.name}(): "
                                  f"{sig.name}{sig}; use {sig.name}{sig.alternative}")
    pos, kw = bound
    if self is not _NO_SELF:
        pos = [self, *pos]
    if kw.pop("pin_memory", False) or kw.pop("layout", None) not in (None, _layout.strided):
        raise NotImplementedError(f"minigrad leaves out {sig.name}()'s layout= and "
                                  "pin_memory=: its tensors are strided, on the CPU")
    out = kw.pop("out", None)
    if out is None:
        return fn(*pos, **kw)
    if sig.name in _OWN_OUT_RULES:
        raise NotImplementedError(f"minigrad leaves out {sig.name}()'s out=: assign the "
                                  "returned tensor instead")
    if not isinstance(out, Tensor):
        raise NotImplementedError(f"minigrad leaves out {sig.name}()'s out= for several "
                                  "outputs: assign the returned tensors instead")
    return _into_out(sig.name, fn, pos, kw, out)


# How an op's ``out=`` takes a result of another dtype: torch's kernels differ. The default
# is TensorIterator's: the result is cast, unless that would turn floats into integers (or
# anything into bools). Each rule: (check before the gradient check?, the check).
def _cast_message(name, result, out):
    return (f"result type {result.dtype.scalar_name} can't be cast to the desired output type "
            f"{out.dtype.scalar_name}")


def _castable(result, out) -> bool:
    source, target = result._data.dtype.kind, out._data.dtype.kind
    return not ((source == "f" and target in "iub") or (source in "iu" and target == "b"))


def _cpp(t) -> str:
    return _CPP_TYPE_NAMES[t.dtype.name]


def _same(message):
    def check(name, result, out):
        if result.dtype is not out.dtype:
            raise RuntimeError(message(name, result, out))
    return check


def _cast(name, result, out):
    if not _castable(result, out):
        raise RuntimeError(_cast_message(name, result, out))


def _cat_cast(name, result, out):
    if not _castable(result, out):
        raise TypeError(f"torch.cat(): input types can't be cast to the desired output type "
                        f"{out.dtype.scalar_name}")


def _only(dtype, message):
    def check(name, result, out):
        if out.dtype is not dtype:
            raise RuntimeError(message(name, out))
    return check


_FOUND = _same(lambda n, r, o: f"Found dtype {o.dtype.scalar_name} but expected "
                               f"{r.dtype.scalar_name}")
_EXPECTED = _same(lambda n, r, o: f"Expected out tensor to have dtype {_cpp(r)}, but got "
                                  f"{_cpp(o)} instead")
_LONG = _only(_dtype.int64, lambda n, o: f"Expected out tensor to have dtype long int, but got "
                                         f"{_cpp(o)} instead")
_BOOL = _only(_dtype.bool, lambda n, o: f"{n} only supports bool tensor for result, got: "
                                       f"{o.dtype.scalar_name}")


def _floats(name, result, out):
    if not out.dtype.is_floating_point:
        raise RuntimeError(f"{name}(): Expected floating point type for result tensor, but got: "
                           f"{out.dtype.scalar_name}")


def _mean(name, result, out):  # torch's two kernels word it differently
    if not _castable(result, out):
        raise RuntimeError(f"result type {_dtype.get_default_dtype().scalar_name} can't be cast "
                           f"to the desired output type {out.dtype.scalar_name}")


OUT_RULES = {
    **dict.fromkeys(("neg", "abs", "floor", "ceil", "trunc", "frac", "sgn", "sign", "clamp", "clip",
                     "clamp_min", "clamp_max", "round"), (False, _FOUND)),
    **dict.fromkeys(("mm", "matmul", "bmm", "gather", "scatter", "scatter_add"),
                    (False, _EXPECTED)),
    **dict.fromkeys(("argmax", "argmin"), (True, _LONG)),
    **dict.fromkeys(("all", "any"), (True, _BOOL)),
    **dict.fromkeys(("cat", "stack"), (False, _cat_cast)),
    "amax": (False, _same(lambda n, r, o: "Expected the dtype for input and out to match, but "
                          f"got {r.dtype.scalar_name} for input's dtype and "
                          f"{o.dtype.scalar_name} for out's dtype.")),
    "where": (False, _same(lambda n, r, o: f"Expected out type to be {r.dtype.scalar_name} but "
                           f"got {o.dtype.scalar_name}")),
    "dot": (False, _same(lambda n, r, o: f"result dtype {o.dtype.scalar_name} does not match "
                         f"input dtype {r.dtype.scalar_name}")),
    "mv": (False, _same(lambda n, r, o: "addmv input tensors must have the same dtype, but got "
                        f"{o.dtype.scalar_name}, {r.dtype.scalar_name}, and "
                        f"{r.dtype.scalar_name}")),
    **dict.fromkeys(("index_select", "masked_select"), (False, _same(
        lambda n, r, o: f"{n}(): self and result must have the same scalar type"))),
    "logsumexp": (False, _floats),
    "mean": (False, _mean),
}
OUT_RULES["amin"] = OUT_RULES["amax"]
# no gradient to refuse: any dtype, and an input that requires grad is fine
_NOT_DIFFERENTIABLE = {"eq", "ne", "lt", "le", "gt", "ge", "logical_and", "logical_or",
                       "logical_xor", "logical_not"}
_ATEN_NAMED = {"floor_divide", "bitwise_and", "bitwise_or", "bitwise_xor", "bitwise_not",
               "bitwise_left_shift", "bitwise_right_shift"}
# out= with rules of its own in torch, left out: a range resizes ``out`` with a warning of its
# own (or none), softmax copies into ``out`` keeping the graph of an input that requires grad
_OWN_OUT_RULES = {"arange", "linspace", "softmax", "log_softmax"}
# out's dtype is the reduction's dtype: the input is cast first, as with dtype=
_AS_DTYPE = {"sum", "prod", "cumsum", "cumprod"}


def _into_out(name, fn, pos, kw, out):
    """torch's ``out=``: the result written into ``out`` (resized, with torch's warning, when
    its shape differs; cast to its dtype where the op's kernel casts, see ``OUT_RULES``), and
    ``out`` returned. No gradient flows through it, so an input that requires grad is an
    error."""
    early, check = OUT_RULES.get(name, (False, _cast))
    if early:
        check(name, None, out)
    if name not in _NOT_DIFFERENTIABLE and grad_mode.is_grad_enabled():
        inputs = [*pos, *kw.values(), out]
        inputs += [t for a in pos if isinstance(a, tuple | list) for t in a]
        if any(isinstance(a, Tensor) and a.requires_grad for a in inputs):
            shown = f"aten::{name}" if name in _ATEN_NAMED else name
            raise RuntimeError(f"{shown}(): functions with out=... arguments don't support "
                               "automatic differentiation, but one of the arguments requires "
                               "grad.")
    if name in _AS_DTYPE and kw.get("dtype") is None:
        kw = {**kw, "dtype": out.dtype}
    with grad_mode.no_grad():
        result = fn(*pos, **kw)
    if not early and name not in _NOT_DIFFERENTIABLE and name not in _AS_DTYPE:
        check(name, result, out)
    target = out._data.dtype
    if out._data.shape != result._data.shape:
        if out._data.size:
            warnings.warn(
                f"An output with one or more elements was resized since it had shape "
                f"{list(out._data.shape)}, which does not match the required output shape "
                f"{list(result._data.shape)}. This behavior is deprecated, and in a future "
                "PyTorch release outputs will not be resized unless they have zero elements. "
                "You can explicitly reuse an out tensor t by resizing it, inplace, to zero "
                "elements with t.resize_(0).", UserWarning, stacklevel=4)
        out._data = np.empty(result._data.shape, dtype=target)
    out._data[...] = result._data
    out._bump_version()
    return out


def parses(*specs: str, method: tuple | None = None, numbers_as_tensors: bool = False,
           self_name: str = "input", method_only: bool = False):
    """Give an op torch's signatures (see the module's docstring). ``method``: the method's
    own signatures when they are not the function's without ``input`` and ``out``;
    ``method_only``: torch has no such function (``torch.expand``), so minigrad's function
    takes what the method takes."""
    sigs = [Signature(s, numbers_as_tensors) for s in specs]
    if method is None:
        method_sigs = [s.without(self_name, "out") for s in sigs
                       if s.params and s.params[0].name == self_name]
    else:
        method_sigs = [Signature(s, numbers_as_tensors) for s in method]
    for group in (sigs, method_sigs):  # what a left-out form's error suggests instead
        shown = [s for s in group if not s.left_out]
        for s in group:
            s.alternative = shown[0] if shown else s
    name = sigs[0].name

    def decorate(fn):
        fn.as_method = _method_wrapper(fn, name, method_sigs)
        fn.as_function = fn.as_method if method_only else _wrapper(fn, name, sigs)
        fn.signatures = sigs
        return fn  # minigrad's own calls go straight to the op

    return decorate


class _VariableFunctionsClass:  # noqa: N801 - torch's name
    """What torch's functions are static methods of (``torch._C._VariableFunctions``): the
    type object their repr names."""


class builtin_function_or_method(staticmethod):  # noqa: N801 - the type torch's print as
    """A torch function, printed as torch's C builtins print: ``<built-in method add of type
    object at 0x...>``, or ``<built-in function linear>`` for ``torch._C._nn``'s (``of_type``
    False). A staticmethod calls the function it holds from C, so a call costs no Python frame
    (warnings keep their stack levels) and, stored on a class, it binds no ``self``, as a
    builtin."""

    __slots__ = ()

    def __init__(self, function, of_type: bool = True, name: str | None = None):
        super().__init__(function)
        self.__self__ = _VariableFunctionsClass if of_type else None
        self.__name__ = self.__qualname__ = name or function.__name__
        if of_type:
            self.__qualname__ = f"_VariableFunctionsClass.{self.__name__}"
            self.__module__ = "minigrad"

    def renamed(self, name: str) -> builtin_function_or_method:
        """The same function under another of torch's names, a builtin of its own there
        (``torch.arccos``, ``torch.concat``)."""
        return type(self)(self.__func__, self.__self__ is not None, name)

    def __repr__(self) -> str:
        if self.__self__ is None:
            return f"<built-in function {self.__name__}>"
        return f"<built-in method {self.__name__} of type object at {id(self.__self__):#x}>"


# torch.linalg's and torch.special's functions are builtins of torch._C's modules (<built-in
# function linalg_det>), named by their prefix
_C_MODULES = {"linalg": "minigrad.linalg", "special": "minigrad.special"}


def nn_builtin(op, name: str | None = None) -> builtin_function_or_method:
    """``op``'s torch function as one of ``torch._C._nn``'s, which nn.functional exports
    (``F.linear``, ``F.elu_``): ``<built-in function linear>``."""
    function = builtin_function_or_method(op.as_function.__func__, of_type=False, name=name)
    function.__module__ = "minigrad.nn.functional"
    return function


builtin_function_or_method.__module__ = "builtins"  # type(torch.add), as Python's own type


def _wrapper(fn, name, sigs):
    module = "torch.nn.functional." if fn.__module__.startswith("minigrad.nn") else "torch."
    public = module + name  # how torch names the function in its dispatch errors
    if len(sigs) == 1:
        sig = sigs[0]

        def function(*args, **kwargs):
            if _vmap_hook.active:  # a batched tensor inside vmap: its batching rule
                out = _vmap_hook.call(name, function, args, kwargs)
                if out is not _vmap_hook.PASS:
                    return out
            if subclass.active and not subclass.inside:  # a learner's Tensor subclass
                out = subclass.dispatch(public, function, args, kwargs)
                if out is not subclass.PASS:
                    return out
            how = sig.fast_match(args, kwargs)
            if how == 1:
                return fn(*args, **kwargs)
            if how == 2:  # torch.zeros(2, 3)
                return fn(args, **kwargs)
            return _call(fn, *parse(name, sigs, args, kwargs))
    else:
        def function(*args, **kwargs):
            if _vmap_hook.active:  # a batched tensor inside vmap: its batching rule
                out = _vmap_hook.call(name, function, args, kwargs)
                if out is not _vmap_hook.PASS:
                    return out
            if subclass.active and not subclass.inside:  # a learner's Tensor subclass
                out = subclass.dispatch(public, function, args, kwargs)
                if out is not subclass.PASS:
                    return out
            for sig in sigs:
                if sig.fast_match(args, kwargs) == 1:
                    if sig.left_out:
                        break
                    return fn(*args, **kwargs)
            return _call(fn, *parse(name, sigs, args, kwargs))

    function.__name__ = function.__qualname__ = fn.__name__
    function.__doc__ = fn.__doc__
    function.__module__ = fn.__module__
    package = _C_MODULES.get(name.partition("_")[0])
    if package is None:
        return builtin_function_or_method(function, name=name)
    function = builtin_function_or_method(function, of_type=False, name=name)
    function.__module__ = package
    return function


def _from_minigrad() -> bool:
    """Whether the caller is minigrad's own code. ``t.expand(*shape)`` with an empty shape
    is how minigrad asks for a 0-d result, where torch wants ``t.expand(())``; only a
    learner's ``x.view()`` gets torch's error."""
    return sys._getframe(2).f_globals.get("__name__", "").startswith("minigrad.")


def _method_wrapper(fn, name, sigs):
    varargs = any(s.varargs for s in sigs)
    public = f"torch.Tensor.{name}"  # how torch names the method in its dispatch errors
    if not sigs or not any(s.params for s in sigs):  # x.exp(): no arguments at all

        def method(self, *args, **kwargs):
            if args or kwargs:
                if kwargs:
                    raise TypeError(f"TensorBase.{name}() takes no keyword arguments")
                raise TypeError(f"TensorBase.{name}() takes no arguments ({len(args)} given)")
            return fn(self)
    else:
        def method(self, *args, **kwargs):
            if _vmap_hook.active:  # a batched argument inside vmap: its batching rule
                out = _vmap_hook.call(name, method, (self, *args), kwargs)
                if out is not _vmap_hook.PASS:
                    return out
            if subclass.active and not subclass.inside:  # a learner's Tensor subclass
                out = subclass.dispatch(public, method, (self, *args), kwargs)
                if out is not subclass.PASS:
                    return out
            for sig in sigs:
                how = sig.fast_match(args, kwargs)
                if how:
                    if sig.left_out:
                        break
                    if how == 2:
                        return fn(self, args, **kwargs)
                    return fn(self, *args, **kwargs)
            if not args and not kwargs and varargs and _from_minigrad():
                return fn(self)  # minigrad's own ``t.view(*shape)`` of a 0-d shape
            return _call(fn, *parse(name, sigs, args, kwargs), self)

    method.__name__ = method.__qualname__ = name
    method.__doc__ = fn.__doc__
    return method
