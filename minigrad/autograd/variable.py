"""``Variable``: the name tensors had before PyTorch 0.4 merged them into ``Tensor``.

torch keeps it as a deprecated alias, and old tutorials still write
``Variable(x, requires_grad=True)``: it returns a new tensor sharing ``x``'s data, with no
history and the ``requires_grad`` asked for, and every tensor counts as a ``Variable``.
"""

from __future__ import annotations

import warnings

from minigrad._creation import empty
from minigrad._tensor import Tensor


class _VariableMeta(type):
    def __instancecheck__(cls, other) -> bool:
        return isinstance(other, Tensor)


class Variable(metaclass=_VariableMeta):
    def __new__(cls, data=None, requires_grad=False, volatile=False):
        if volatile:  # pre-0.4 inference flag: torch warns, and refuses it with requires_grad
            warnings.warn("volatile was removed and now has no effect. Use `with "
                          "minigrad.no_grad():` instead.", stacklevel=2)
            if requires_grad:
                raise ValueError("Variable can't be volatile and require_grad at the same time!")
        if data is None:
            return empty(0, requires_grad=requires_grad)
        if not isinstance(data, Tensor):
            raise TypeError(f"Variable data has to be a tensor, but got {type(data).__name__}")
        out = Tensor._make(data._data)
        return out.requires_grad_(requires_grad) if requires_grad else out
