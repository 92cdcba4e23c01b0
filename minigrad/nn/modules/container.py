"""Containers: modules that hold other modules or parameters, as torch's ``container.py``.

``Sequential`` applies its modules one after the other; ``ModuleList`` and ``ModuleDict`` only
hold them (registered, so ``parameters()`` and ``state_dict()`` see inside) for a ``forward``
written by hand; ``ParameterList`` and ``ParameterDict`` do the same for parameters. Each
names its items as torch does ("0", "1"... or the dict's keys), so state dicts match.
"""

from __future__ import annotations

import operator
from collections import OrderedDict
from collections import abc as container_abcs
from itertools import chain, islice

from minigrad._tensor import Tensor
from minigrad.nn.modules.module import Module, _addindent, typename
from minigrad.nn.parameter import Parameter


def _index(size: int, idx) -> int:
    """A position in a container of ``size`` items, negative ones counted from the end."""
    idx = operator.index(idx)
    if not -size <= idx < size:
        raise IndexError(f"index {idx} is out of range")
    return idx % size


def _renumber(modules: OrderedDict) -> OrderedDict:
    """After a deletion: the keys "0", "1"... again, in order."""
    return OrderedDict((str(i), m) for i, m in enumerate(modules.values()))


class Sequential(Module):
    def __init__(self, *args):
        super().__init__()
        if len(args) == 1 and isinstance(args[0], OrderedDict):
            for name, module in args[0].items():
                self.add_module(name, module)
        else:
            for i, module in enumerate(args):
                self.add_module(str(i), module)

    def forward(self, input):
        for module in self:
            input = module(input)
        return input

    def __add__(self, other):
        """``seq1 + seq2``: a new Sequential holding both's modules (the same objects)."""
        if not isinstance(other, Sequential):
            raise ValueError("add operator supports only objects of Sequential class, but "
                             f"{type(other)} is given.")
        ret = Sequential()
        for layer in chain(self, other):
            ret.append(layer)
        return ret

    def __iadd__(self, other):
        if not isinstance(other, Sequential):
            raise ValueError("add operator supports only objects of Sequential class, but "
                             f"{type(other)} is given.")
        offset = len(self)
        for i, module in enumerate(other):
            self.add_module(str(i + offset), module)
        return self

    def _check_factor(self, other):
        if not isinstance(other, int):
            raise TypeError(f"unsupported operand type(s) for *: {type(self)} and {type(other)}")
        if other <= 0:
            raise ValueError(f"Non-positive multiplication factor {other} for {type(self)}")

    def __mul__(self, other):
        """``seq * 3``: the same modules three times over (shared, not copied)."""
        self._check_factor(other)
        combined = Sequential()
        for i, module in enumerate(m for _ in range(other) for m in self):
            combined.add_module(str(i), module)
        return combined

    def __rmul__(self, other):
        return self.__mul__(other)

    def __imul__(self, other):
        self._check_factor(other)
        n = len(self)
        for offset in range(n, n * other, n):
            for i in range(n):
                self.add_module(str(i + offset), self._modules[str(i)])
        return self

    def __dir__(self):
        return [key for key in super().__dir__() if not key.isdigit()]

    def __getitem__(self, idx):
        if isinstance(idx, slice):
            return self.__class__(OrderedDict(list(self._modules.items())[idx]))
        return next(islice(self._modules.values(), _index(len(self), idx), None))

    def __setitem__(self, idx, module):
        key = next(islice(self._modules.keys(), _index(len(self), idx), None))
        setattr(self, key, module)

    def __delitem__(self, idx):
        keys = list(self._modules.keys())
        for key in keys[idx] if isinstance(idx, slice) else [keys[_index(len(keys), idx)]]:
            delattr(self, key)
        self._modules = _renumber(self._modules)

    def __len__(self) -> int:
        return len(self._modules)

    def __iter__(self):
        return iter(self._modules.values())

    def append(self, module):
        self.add_module(str(len(self)), module)
        return self

    def insert(self, index, module):
        if not isinstance(module, Module):
            raise AssertionError(f"module should be of type: {Module}")
        n = len(self._modules)
        if not -n <= index <= n:
            raise IndexError(f"Index out of range: {index}")
        index = index + n if index < 0 else index
        for i in range(n, index, -1):
            self._modules[str(i)] = self._modules[str(i - 1)]
        self._modules[str(index)] = module
        return self

    def extend(self, sequential):
        for layer in sequential:
            self.append(layer)
        return self

    def pop(self, key):
        v = self[key]
        del self[key]
        return v


class ModuleList(Module):
    """A list of modules, registered as "0", "1"...: ``forward`` is yours to write."""

    def __init__(self, modules=None):
        super().__init__()
        if modules is not None:
            self += modules

    def __getitem__(self, idx):
        if isinstance(idx, slice):
            return self.__class__(list(self._modules.values())[idx])
        return self._modules[str(_index(len(self), idx))]

    def __setitem__(self, idx, module):
        setattr(self, str(_index(len(self), idx)), module)

    def __delitem__(self, idx):
        if isinstance(idx, slice):
            for k in range(len(self._modules))[idx]:
                delattr(self, str(k))
        else:
            delattr(self, str(_index(len(self), idx)))
        self._modules = _renumber(self._modules)

    def __len__(self) -> int:
        return len(self._modules)

    def __iter__(self):
        return iter(self._modules.values())

    def __iadd__(self, modules):
        return self.extend(modules)

    def __dir__(self):
        return [key for key in super().__dir__() if not key.isdigit()]

    def __add__(self, other):
        combined = ModuleList()
        for i, module in enumerate(chain(self, other)):
            combined.add_module(str(i), module)
        return combined

    def insert(self, index, module):
        for i in range(len(self._modules), index, -1):
            self._modules[str(i)] = self._modules[str(i - 1)]
        self._modules[str(index)] = module

    def append(self, module):
        self.add_module(str(len(self)), module)
        return self

    def pop(self, key):
        v = self[key]
        del self[key]
        return v

    def extend(self, modules):
        if not isinstance(modules, container_abcs.Iterable):
            raise TypeError("ModuleList.extend should be called with an iterable, but got "
                            + type(modules).__name__)
        offset = len(self)
        for i, module in enumerate(modules):
            self.add_module(str(offset + i), module)
        return self

    def __repr__(self) -> str:
        """torch's: a run of equal modules prints once, as ``(0-2): 3 x Linear(...)``."""
        reprs = [repr(m) for m in self]
        if not reprs:
            return self._get_name() + "()"
        runs = [[0, 0, reprs[0]]]
        for i, r in enumerate(reprs[1:], 1):
            if r == runs[-1][2]:
                runs[-1][1] = i
            else:
                runs.append([i, i, r])
        lines = [_addindent(f"({a}): {r}" if a == b else f"({a}-{b}): {b - a + 1} x {r}", 2)
                 for a, b, r in runs]
        return self._get_name() + "(\n  " + "\n  ".join(lines) + "\n)"


class ModuleDict(Module):
    """Modules by name, in insertion order: ``forward`` is yours to write."""

    def __init__(self, modules=None):
        super().__init__()
        if modules is not None:
            self.update(modules)

    def __getitem__(self, key):
        return self._modules[key]

    def __setitem__(self, key, module):
        self.add_module(key, module)

    def __delitem__(self, key):
        del self._modules[key]

    def __len__(self) -> int:
        return len(self._modules)

    def __iter__(self):
        return iter(self._modules)

    def __contains__(self, key) -> bool:
        return key in self._modules

    def clear(self):
        self._modules.clear()

    def pop(self, key):
        v = self[key]
        del self[key]
        return v

    def keys(self):
        return self._modules.keys()

    def items(self):
        return self._modules.items()

    def values(self):
        return self._modules.values()

    def update(self, modules):
        if not isinstance(modules, container_abcs.Iterable):
            raise TypeError("ModuleDict.update should be called with an iterable of key/value "
                            "pairs, but got " + type(modules).__name__)
        if isinstance(modules, OrderedDict | ModuleDict | container_abcs.Mapping):
            for key, module in modules.items():
                self[key] = module
            return
        for j, m in enumerate(modules):
            if not isinstance(m, container_abcs.Iterable):
                raise TypeError("ModuleDict update sequence element #" + str(j)
                                + " should be Iterable; is" + type(m).__name__)
            if not len(m) == 2:
                raise ValueError("ModuleDict update sequence element #" + str(j)
                                 + " has length " + str(len(m)) + "; 2 is required")
            self[m[0]] = m[1]


def _parameter_line(key, p, dtype_text) -> str:
    """One line of ParameterList's or ParameterDict's printout."""
    if isinstance(p, Tensor):
        size = "x".join(str(n) for n in p.size())
        kind = "Parameter" if isinstance(p, Parameter) else "Tensor"
        return f"  ({key}): {kind} containing: [{dtype_text(p)} of size {size}]"
    return f"  ({key}): Object of type: {type(p).__name__}"


class ParameterList(Module):
    """Parameters in a list, registered as "0", "1"... (a plain tensor becomes a Parameter)."""

    def __init__(self, values=None):
        super().__init__()
        self._size = 0
        if values is not None:
            self += values

    def __getitem__(self, idx):
        if isinstance(idx, slice):
            return self.__class__([self[i] for i in range(len(self))[idx]])
        return getattr(self, str(_index(len(self), idx)))

    def __setitem__(self, idx, param):
        idx = _index(len(self), idx)
        if isinstance(param, Tensor) and not isinstance(param, Parameter):
            param = Parameter(param)
        setattr(self, str(idx), param)

    def __len__(self) -> int:
        return self._size

    def __iter__(self):
        return iter(self[i] for i in range(len(self)))

    def __iadd__(self, parameters):
        return self.extend(parameters)

    def __dir__(self):
        return [key for key in super().__dir__() if not key.isdigit()]

    def append(self, value):
        self._size += 1
        self[self._size - 1] = value
        return self

    def extend(self, values):
        if not isinstance(values, container_abcs.Iterable) or isinstance(values, Tensor):
            raise TypeError("ParameterList.extend should be called with an iterable, but got "
                            + type(values).__name__)
        for value in values:
            self.append(value)
        return self

    def extra_repr(self) -> str:
        return "\n".join(_parameter_line(k, p, lambda t: t.dtype) for k, p in enumerate(self))

    def __call__(self, *args, **kwargs):
        raise RuntimeError("ParameterList should not be called.")


class ParameterDict(Module):
    """Parameters by name (a plain tensor becomes a Parameter)."""

    def __init__(self, parameters=None):
        super().__init__()
        self._keys = {}
        if parameters is not None:
            self.update(parameters)

    def _key(self, key) -> str:
        if not isinstance(key, str):
            raise TypeError("Index given to ParameterDict cannot be used as a key as it is not "
                            f"a string (type is '{type(key).__name__}'). Open an issue on github "
                            "if you need non-string keys.")
        return key

    def __getitem__(self, key):
        return getattr(self, self._key(key))

    def __setitem__(self, key, value):
        self._keys[key] = None
        if isinstance(value, Tensor) and not isinstance(value, Parameter):
            value = Parameter(value)
        setattr(self, self._key(key), value)

    def __delitem__(self, key):
        del self._keys[key]
        delattr(self, self._key(key))

    def __len__(self) -> int:
        return len(self._keys)

    def __iter__(self):
        return iter(self._keys)

    def __contains__(self, key) -> bool:
        return key in self._keys

    def __reversed__(self):
        return reversed(self._keys)

    def copy(self):
        return ParameterDict(OrderedDict((k, self[k]) for k in self._keys))

    def setdefault(self, key, default=None):
        if key not in self:
            self[key] = default
        return self[key]

    def popitem(self):
        k, _ = self._keys.popitem()
        self._keys[k] = None  # back in, so that del below finds it
        val = self[k]
        del self[k]
        return k, val

    def fromkeys(self, keys, default=None):
        return ParameterDict((k, default) for k in keys)

    def __or__(self, other):
        copy = self.copy()
        copy.update(other)
        return copy

    def __ror__(self, other):
        copy = other.copy()
        copy.update(self)
        return copy

    def __ior__(self, other):
        self.update(other)
        return self

    def keys(self):
        return self._keys.keys()

    def items(self):
        return ((k, self[k]) for k in self._keys)

    def values(self):
        return (self[k] for k in self._keys)

    def get(self, key, default=None):
        return self[key] if key in self else default

    def pop(self, key):
        v = self[key]
        del self[key]
        return v

    def clear(self):
        for k in list(self._keys):
            del self[k]

    def update(self, parameters):
        if not isinstance(parameters, container_abcs.Iterable):
            raise TypeError("ParametersDict.update should be called with an iterable of "
                            "key/value pairs, but got " + type(parameters).__name__)
        if isinstance(parameters, OrderedDict | ParameterDict):
            for key, parameter in parameters.items():
                self[key] = parameter
        elif isinstance(parameters, container_abcs.Mapping):
            for key, parameter in sorted(parameters.items()):
                self[key] = parameter
        else:
            for j, p in enumerate(parameters):
                if not isinstance(p, container_abcs.Iterable):
                    raise TypeError("ParameterDict update sequence element #" + str(j)
                                    + " should be Iterable; is" + type(p).__name__)
                if not len(p) == 2:
                    raise ValueError("ParameterDict update sequence element #" + str(j)
                                     + " has length " + str(len(p)) + "; 2 is required")
                self[p[0]] = p[1]

    def extra_repr(self) -> str:
        return "\n".join(_parameter_line(k, p, typename) for k, p in self.items())

    def __call__(self, input):
        raise RuntimeError("ParameterDict should not be called.")
