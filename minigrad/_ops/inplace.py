"""In-place operations: change a tensor's data where it is, and keep autograd honest.

Three rules, all torch's:

1. A leaf that requires grad (or a view of one) may not change in place while grad mode is on:
   its old value is what its gradient is about.
2. Every in-place change bumps the version counter shared by the tensor and its views, so a
   saved tensor that changed is caught at backward time.
3. The tensor's history is rewritten: it becomes the output of the in-place op's node. When
   the tensor is a view, the change is recorded on its base as ``CopySlices``, which knows
   where in the base the view lies.
"""

from __future__ import annotations

import weakref

import numpy as np

from minigrad import _dtype
from minigrad._ops._core import _needs_grad, as_tensor_like, result_type
from minigrad._tensor import Tensor
from minigrad.autograd import derivatives as D
from minigrad.autograd import forward_ad, grad_mode

LEAF_ERROR = "a leaf Variable that requires grad is being used in an in-place operation."
VIEW_OF_LEAF_ERROR = ("a view of a leaf Variable that requires grad is being used in an "
                      "in-place operation.")


INFERENCE_INPLACE_ERROR = (
    "Inplace update to inference tensor outside InferenceMode is not allowed.You can make a "
    "clone to get a normal tensor before doing inplace update.See "
    "https://github.com/pytorch/rfcs/pull/17 for more details."
)


INTERNAL_OVERLAP_ERROR = (
    "unsupported operation: more than one element of the written-to tensor refers to a single "
    "memory location. Please clone() the tensor before performing the operation."
)


def check_no_overlap(t: Tensor) -> None:
    """An expanded view repeats elements (stride 0): writing into it is ambiguous."""
    data = t._data
    if data.size and any(st == 0 and n > 1 for st, n in zip(data.strides, data.shape)):
        raise RuntimeError(INTERNAL_OVERLAP_ERROR)


def check_inplace(t: Tensor) -> None:
    if t._is_inference and not grad_mode._state.inference:
        raise RuntimeError(INFERENCE_INPLACE_ERROR)
    if not grad_mode.is_recording():
        return
    if t._base is not None and t._base._grad_fn is None and t._base._requires_grad:
        raise RuntimeError(VIEW_OF_LEAF_ERROR)
    if t._grad_fn is None and t._requires_grad and t._base is None:
        raise RuntimeError(LEAF_ERROR)
    fn = t._grad_fn
    if isinstance(fn, D.UnbindBackward0):
        raise RuntimeError(
            f"Output {t._output_nr} of Unbind is a view and is being modified "
            "inplace. This view is the output of a function that returns multiple views. Such "
            "functions do not allow the output views to be modified inplace. You should "
            "replace the inplace operation by an out-of-place one.")


def _check_cast(t: Tensor, d) -> None:
    if _dtype.category(d) > _dtype.category(t.dtype):
        raise RuntimeError(f"result type {d.legacy_name.removesuffix('Tensor')} can't be cast to "
                           f"the desired output type {t.dtype.legacy_name.removesuffix('Tensor')}")


def apply_inplace(self: Tensor, data, node_cls, inputs, save=None, output_name=None, **attrs):
    """Write ``data`` into ``self`` and record ``node_cls`` as its new history."""
    check_inplace(self)
    if node_cls not in (D.FillBackward2, D.ZeroBackward0, D.IndexPutBackward0):
        check_no_overlap(self)  # writing one number everywhere is fine, as in torch
    node = None
    if _needs_grad(inputs):
        node = node_cls(inputs, save)
        node.__dict__.update(attrs)
    old = _original(self, forward_ad._state.level is not None)  # forward AD needs it
    np.copyto(self._data, data, casting="unsafe")
    self._bump_version()
    if old is not None and self.dtype.is_floating_point:
        forward_ad._propagate_inplace(self, old, node_cls, inputs, save, attrs)
    if node is None:
        return self
    if self._base is None:
        self._attach(node)
        self._view_version = self._version
    else:
        base = self._base
        base._attach(D.CopySlices(base, self._view_fn, node))
        self.grad_fn  # noqa: B018 - like torch, give the view its new grad_fn at once
    if output_name is not None:
        node.save_output(output_name, self)
        if self._base is not None and self.grad_fn is not None:
            node._saved[output_name].view_grad_fn = weakref.ref(self.grad_fn)
    return self


def _original(t: Tensor, needed: bool):
    """A constant copy of ``t`` before it changes, when a formula needs the old value."""
    return Tensor._make(t._data.copy()) if needed else None


def _binary_inplace(self, other, np_fn, node_cls, save_self=False, save_other=False, **attrs):
    d = result_type(self, other)
    _check_cast(self, d)
    other_t = as_tensor_like(other, self.dtype if d is self.dtype else d)
    from minigrad._ops._core import check_same_shape_broadcast

    check_same_shape_broadcast(self._data, other_t._data)
    data = np_fn(self._data, other_t._data)
    if data.shape != self._data.shape:
        raise RuntimeError(f"output with shape {list(self.shape)} doesn't match the broadcast "
                           f"shape {list(data.shape)}")
    save = {}
    if save_self:
        save["self"] = _original(self, other_t.requires_grad)
    if save_other:
        save["other"] = other_t
    return apply_inplace(self, data, node_cls, (self, other_t), save=save, **attrs)


def add_(self, other, *, alpha=1):
    fn = np.add if alpha == 1 else (lambda x, y: x + alpha * y)
    return _binary_inplace(self, other, fn, D.AddBackward0, alpha=alpha)


def sub_(self, other, *, alpha=1):
    fn = np.subtract if alpha == 1 else (lambda x, y: x - alpha * y)
    return _binary_inplace(self, other, fn, D.SubBackward0, alpha=alpha)


def mul_(self, other):
    return _binary_inplace(self, other, np.multiply, D.MulBackward0, save_self=True,
                           save_other=True)


def div_(self, other):
    if not self.dtype.is_floating_point:
        raise RuntimeError("result type Float can't be cast to the desired output type "
                           f"{self.dtype.legacy_name.removesuffix('Tensor')}")
    return _binary_inplace(self, other, np.true_divide, D.DivBackward0, save_self=True,
                           save_other=True)


def _unary_inplace(self, np_fn, node_cls, save_self=False, save_result=False):
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
        data = np_fn(self._data)
    save = {"self": _original(self, True)} if save_self else None
    return apply_inplace(self, data, node_cls, (self,), save=save,
                         output_name="result" if save_result else None)


def log_(self):
    return _unary_inplace(self, np.log, D.LogBackward0, save_self=True)


def exp_(self):
    return _unary_inplace(self, np.exp, D.ExpBackward0, save_result=True)


def neg_(self):
    return _unary_inplace(self, np.negative, D.NegBackward0)


def sigmoid_(self):
    from minigrad._ops.pointwise import _np_sigmoid

    return _unary_inplace(self, _np_sigmoid, D.SigmoidBackward0, save_result=True)


def tanh_(self):
    return _unary_inplace(self, np.tanh, D.TanhBackward0, save_result=True)


def relu_(self):
    return _unary_inplace(self, lambda x: np.maximum(x, 0), D.ReluBackward0, save_result=True)


def clamp_(self, min=None, max=None):
    return apply_inplace(self, np.clip(self._data, min, max), D.ClampBackward1, (self,),
                         save={"self": _original(self, True)}, min=min, max=max)


def zero_(self):
    return apply_inplace(self, 0, D.ZeroBackward0, (self,))


def fill_(self, value):
    if isinstance(value, Tensor):
        if value.dim() != 0:
            raise RuntimeError("fill_ only supports 0-dimension value tensor but got tensor "
                               f"with {value.dim()} dimensions.")
        return apply_inplace(self, value._data, D.FillBackward3, (self, value))
    return apply_inplace(self, value, D.FillBackward2, (self,))


def copy_(self, src, non_blocking=False):
    """Copy ``src``'s values (broadcast, cast) into ``self``."""
    src_t = as_tensor_like(src, self.dtype)
    try:
        data = np.broadcast_to(src_t._data, self._data.shape)
    except ValueError:
        raise RuntimeError(
            f"The size of tensor a ({self._data.shape[-1] if self.dim() else 1}) must match "
            f"the size of tensor b ({src_t._data.shape[-1] if src_t.dim() else 1}) at "
            f"non-singleton dimension {max(self.dim() - 1, 0)}") from None
    return apply_inplace(self, data, D.CopyBackwards, (self, src_t))


def index_put_(self, indices, values, accumulate=False):
    """``self[indices] = values`` for advanced (tensor) indices; adds up with accumulate."""
    from minigrad._ops.indexing import to_numpy_index

    index = to_numpy_index(indices)
    values_t = as_tensor_like(values, self.dtype)
    data = self._data.copy()
    if accumulate:
        np.add.at(data, index, values_t._data)
    else:
        data[index] = values_t._data
    return apply_inplace(self, data, D.IndexPutBackward0, (self, values_t), index=indices,
                         accumulate=accumulate)


