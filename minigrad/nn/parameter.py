"""``Parameter``: a tensor that a ``Module`` recognises as something to train.

It is an ordinary leaf tensor (requiring grad by default). The only thing that makes it special
is its type: assigning one to a module attribute registers it, so ``parameters()`` can find it.
Like torch's, it shares memory with the tensor it wraps.
"""

from __future__ import annotations

import numpy as np

from minigrad import _dtype
from minigrad._tensor import Tensor
from minigrad._tensor_str import parameter_str, tensor_str


class Parameter(Tensor):
    _plain_results = True  # ops on a Parameter give plain tensors, as torch's (its subclasses' too)

    def __new__(cls, data=None, requires_grad=True):
        if data is None:
            data = Tensor._make(np.empty(0, dtype=_dtype.get_default_dtype().numpy))
        elif not isinstance(data, Tensor):
            # torch's path for other objects calls data.detach(): Python's own AttributeError
            # for a list or a NumPy array
            data.detach()
            raise TypeError(f"minigrad's Parameter wraps a minigrad tensor, not {type(data)}")
        t = object.__new__(cls)
        Tensor._init(t, data._data)
        t._version_counter = data._version_counter
        if requires_grad and not t.dtype.is_floating_point:  # a Parameter words it as a factory
            raise RuntimeError("Only Tensors of floating point and complex dtype can require "
                               "gradients")
        t.requires_grad_(requires_grad)
        return t

    def __init__(self, data=None, requires_grad=True):
        """All the work is in ``__new__``: a Parameter is made around existing data."""

    def __repr__(self) -> str:
        d = self.dtype
        if type(self) is not Parameter:  # a learner's subclass: torch's repr of a subclass
            # (its name as the prefix), marked as a Parameter: Parameter(P([1., 2.]))
            return "Parameter containing:\nParameter(" + tensor_str(
                self._data, dtype_name=d.name, prefix=f"{type(self).__name__}(",
                is_default_dtype=d is _dtype.get_default_dtype(),
                requires_grad=self.requires_grad, grad_fn_name=None) + ")"
        return parameter_str(self._data, dtype_name=d.name,
                             is_default_dtype=d is _dtype.get_default_dtype(),
                             requires_grad=self.requires_grad)

    __str__ = __repr__

    def __deepcopy__(self, memo):
        """torch's: a new Parameter around a copy of the data, and nothing else. The gradient
        and any attribute a learner set stay with the original (a plain tensor's deepcopy
        takes its gradient along), so ``copy.deepcopy(model)``, as ``AveragedModel`` does,
        starts with no gradients."""
        if id(self) in memo:
            return memo[id(self)]
        out = type(self)(Tensor._make(self._data.copy(order="K")), self.requires_grad)
        memo[id(self)] = out
        return out

    def __reduce_ex__(self, proto):
        return (Parameter, (Tensor._make(self._data.copy()), self.requires_grad))


def zero_grads(params, set_to_none: bool = True) -> None:
    """What ``Module.zero_grad`` and ``Optimizer.zero_grad`` both do: forget each gradient
    (``None``, the default and cheapest) or set it to zeros in place, cut from any graph."""
    for p in params:
        if p.grad is None:
            continue
        if set_to_none:
            p.grad = None
        else:
            if p.grad.grad_fn is not None:
                p.grad.detach_()
            else:
                p.grad.requires_grad_(False)
            p.grad.zero_()
