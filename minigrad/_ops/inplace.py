"""In-place operations: change a tensor's data where it is, and keep autograd honest.

Three rules, all torch's:

1. A leaf that requires grad (or a view of one) may not change in place while grad mode is on:
   its old value is what its gradient is about.
2. Every in-place change bumps the version counter shared by the tensor and its views, so a
   saved tensor that changed is caught at backward time.
3. The tensor's history is rewritten: it becomes the output of the in-place op's node. When
   the tensor is a view, the change is recorded on its base as ``CopySlices``, which knows
   where in the base the view lies.

In-place versions of out-of-place ops (``add_``, ``exp_``...) record the same nodes as those
ops; the nodes of the ops that only exist in place (``zero_``, ``fill_``, ``copy_``,
``index_put_``) are written here.
"""

from __future__ import annotations

import operator
import re
import warnings

import numpy as np

from minigrad import _creation, _dtype, _layout, _random
from minigrad._numeric import cast, for_dtype, quietly
from minigrad._ops import _vmap_hook
from minigrad._ops import indexing as I  # noqa: E741
from minigrad._ops import pointwise as P
from minigrad._ops._args import parses
from minigrad._ops._core import (
    ReducedScalar,
    as_tensor_like,
    check_same_shape_broadcast,
    common_data,
    needs_grad,
    record,
    result_type,
    wrapped,
)
from minigrad._ops.indexing import check_indices, index_op, put, save_indices
from minigrad._ops.pointwise import (
    AbsBackward0,
    AddBackward0,
    CeilBackward0,
    ClampBackward1,
    ClampMaxBackward0,
    ClampMaxBackward1,
    ClampMinBackward0,
    ClampMinBackward1,
    CosBackward0,
    DivBackward0,
    ExpBackward0,
    FloorBackward0,
    FmodBackward0,
    FmodBackward1,
    FracBackward0,
    LerpBackward0,
    LerpBackward1,
    LogBackward0,
    MulBackward0,
    NegBackward0,
    NotImplemented_,
    PowBackward0,
    PowBackward1,
    ReluBackward0,
    RemainderBackward0,
    RemainderBackward1,
    RoundBackward0,
    SigmoidBackward0,
    SinBackward0,
    SqrtBackward0,
    SubBackward0,
    TanhBackward0,
    TruncBackward0,
    _division_operands,
    _not_differentiable,
    _np_sigmoid,
    _sub_check,
    _torch_remainder,
    clip,
    lerp_data,
    np_cos,
    np_exp,
    np_log,
    np_sin,
    np_tanh,
    torch_max,
    torch_min,
)
from minigrad._ops.scan import CumprodBackward0, CumsumBackward0, scan
from minigrad._ops.shape import (
    SqueezeBackward0,
    SqueezeBackward2,
    SqueezeBackward4,
    TBackward0,
    TransposeBackward0,
    UnsqueezeBackward0,
)
from minigrad._tensor import _CPP_TYPE_NAMES, Tensor, _wrap_dim
from minigrad.autograd import forward_grad, grad_mode, graph
from minigrad.autograd.graph import Node
from minigrad.autograd.special_nodes import rebase_history
from minigrad.autograd.views import check_view_rebase

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
    if data.flags.c_contiguous:  # the usual tensor: no stride 0 over a dim of 2 or more
        return
    if data.size and any(st == 0 and n > 1 for st, n in zip(data.strides, data.shape)):
        raise RuntimeError(INTERNAL_OVERLAP_ERROR)


PARTIAL_OVERLAP_ERROR = (
    "unsupported operation: some elements of the input tensor and the written-to tensor refer "
    "to a single memory location. Please clone() the tensor before performing the operation."
)


def check_no_partial_overlap(out: np.ndarray, other: np.ndarray) -> None:
    """``x[1:] += x[:-1]``: the input overlaps the output only in part, so the result would
    depend on the order elements are written in; torch refuses (the very same memory is fine)."""
    if not np.may_share_memory(out, other):  # a quick bounds check first
        return
    same = (out.__array_interface__["data"][0] == other.__array_interface__["data"][0]
            and out.strides == other.strides and out.shape == other.shape)
    if not same and np.shares_memory(out, other):
        raise RuntimeError(PARTIAL_OVERLAP_ERROR)


def _check_no_overlap_with(self: Tensor, src) -> None:
    """scatter_ reads ``src`` while it writes ``self``: any shared memory, even all of it,
    is refused (torch's assert_no_overlap)."""
    if isinstance(src, Tensor) and np.shares_memory(self._data, src._data):
        raise RuntimeError(PARTIAL_OVERLAP_ERROR)


def check_inplace(t: Tensor, inputs=()) -> None:
    """torch's ``check_inplace``: only when grad mode records and some input of the in-place
    op requires grad, a special view (made under no_grad, unbind's...), a view of a leaf that
    requires grad, or such a leaf itself may not change."""
    if t._is_inference and not grad_mode._state.inference:
        raise RuntimeError(INFERENCE_INPLACE_ERROR)
    if not needs_grad((t, *inputs)):
        return
    if t._base is not None:
        check_view_rebase(t)
        if t._base._grad_fn is None and t._base._requires_grad:
            raise RuntimeError(VIEW_OF_LEAF_ERROR)
    if t._grad_fn is None and t._requires_grad and t._base is None:
        raise RuntimeError(LEAF_ERROR)


def _check_cast(t: Tensor, d) -> None:
    if _dtype.category(d) > _dtype.category(t.dtype):
        raise RuntimeError(f"result type {d.scalar_name} can't be cast to "
                           f"the desired output type {t.dtype.scalar_name}")


def apply_inplace(self: Tensor, data, node_cls, inputs, save=None, output_name=None, **attrs):
    """Write ``data`` into ``self`` and record ``node_cls`` as its new history.

    ``data`` is the new values, or a function that writes them into the array it is given
    (so ``x += y`` makes one pass over ``x``, not a new array and then a copy)."""
    check_inplace(self, inputs)
    if node_cls not in (FillBackward2, ZeroBackward0, IndexPutBackward0):
        check_no_overlap(self)  # writing one number everywhere is fine, as in torch
    node = None
    if needs_grad(inputs):  # made before the write: it reads the inputs' current history
        node = graph.record(node_cls, inputs, (), save, **attrs)
    old = _original(self, forward_grad._state.level is not None)  # forward AD needs it
    if callable(data):
        data(self._data)
    else:
        np.copyto(self._data, data, casting="unsafe")
    self._bump_version()
    if old is not None and self.dtype.is_floating_point:
        forward_grad.propagate_inplace(self, old, node_cls, inputs, save, attrs)
    if node is None:
        return self
    if output_name is not None:
        node.save_output(output_name, self)
    if self._base is None:
        self._attach(node)
        self._view_version = self._version
    else:
        rebase_history(self, node, inputs, output_name)
    return self


def _original(t: Tensor, needed: bool):
    """A constant copy of ``t`` before it changes (forward mode's old value)."""
    return Tensor._make(t._data.copy()) if needed else None


def _saved_original(t: Tensor, needed: bool):
    """``t`` before it changes, for a formula that needs the old value: a clone, with its
    history, as torch saves it, so a gradient made with ``create_graph`` still depends on it."""
    return t.clone() if needed else None


def _binary_inplace(self, other, np_fn, node_cls, save_self=False, save_other=False,
                    reduced=False, **attrs):
    """``reduced``: the op has torch's float16 kernel for one number (``ReducedScalar``)."""
    x = self._data
    if isinstance(other, Tensor) and other._data.dtype == x.dtype:
        other_t = other  # the usual case (an optimizer's update): nothing to promote or check
        y = other._data
    else:
        d = result_type(self, other)
        _check_cast(self, d)
        other_t = as_tensor_like(other, self.dtype if d is self.dtype else d)
        x, y = common_data(self, other_t, d)  # torch computes in the common dtype
        if reduced:
            np_fn = ReducedScalar.wrap(np_fn, d, other)
    if other_t._data.shape != self._data.shape:
        check_same_shape_broadcast(self._data, other_t._data)
        shape = np.broadcast_shapes(self._data.shape, other_t._data.shape)
        if shape != self._data.shape:
            raise RuntimeError(f"output with shape {list(self.shape)} doesn't match the "
                               f"broadcast shape {list(shape)}")
    check_no_partial_overlap(self._data, other_t._data)
    if x.dtype != self._data.dtype:  # computed in a wider dtype, then converted as torch does
        data = cast(quietly(np_fn, x, y), self._data.dtype)
    elif isinstance(np_fn, np.ufunc):
        data = _writer(np_fn, y)
    elif (np_fn.__class__ is P.Scaled and type(np_fn.alpha) in (int, float)
          and x.dtype.kind == "f" and y.dtype == x.dtype and x is self._data
          and not np_fn.fuses(x, y)):
        data = _scaled_writer(np_fn, y)
    else:
        data = quietly(np_fn, x, y)
    save = {}
    if save_self:
        save["self"] = _saved_original(self, other_t.requires_grad)
    if save_other:  # a number as torch keeps it: its own type (float64 for -1.5)
        save["other"] = other_t if isinstance(other, Tensor) else wrapped(other)
    return apply_inplace(self, data, node_cls, (self, other_t), save=save, **attrs)


def _writer(ufunc, other):
    """Write ``ufunc(out, other)`` into ``out`` itself, with inf and nan as plain values."""
    def write(out):
        quietly(ufunc, out, other, out)

    return write


def _scaled_writer(scaled, other):
    """``scaled``'s result written into ``out`` itself, where torch's kernels do not fuse
    (see ``Scaled``): the product ``alpha * other`` is the
    one new array (then added in place, the same two roundings as ``x + alpha * y``), where
    computing ``x + alpha * y`` and copying it in would make two and pass over ``x`` twice.
    For a float tensor and ``other`` of its dtype, with ``alpha`` a Python number (so the
    product keeps that dtype)."""
    def write(out):
        quietly(scaled.ufunc, out, quietly(operator.mul, scaled.alpha, other), out)

    return write


@parses('add_(Tensor input, Tensor other, *, Number alpha = 1)',
        'add_(Tensor input, Number alpha, Tensor other)|hidden', numbers_as_tensors=True)
def add_(self, other, *, alpha=1):
    if alpha.__class__ is not int:
        P._check_alpha(self, other, alpha)
    fn = np.add if alpha == 1 else P.Scaled(np.add, alpha)
    return _binary_inplace(self, other, fn, AddBackward0, alpha=alpha)


@parses('sub_(Tensor input, Tensor other, *, Number alpha = 1)',
        'sub_(Tensor input, Number alpha, Tensor other)|hidden', numbers_as_tensors=True)
def sub_(self, other, *, alpha=1):
    _sub_check(self, other)
    if alpha.__class__ is not int:
        P._check_alpha(self, other, alpha)
    fn = np.subtract if alpha == 1 else P.Scaled(np.subtract, alpha)
    return _binary_inplace(self, other, fn, SubBackward0, alpha=alpha)


@parses('mul_(Tensor input, Tensor other)', numbers_as_tensors=True)
def mul_(self, other):
    return _binary_inplace(self, other, np.multiply, MulBackward0, save_self=True,
                           save_other=True, reduced=True)


@parses('div_(Tensor input, Tensor other)',
        'div_(Tensor input, Tensor other, *, str? rounding_mode)',
        'div_(Tensor input, Number other, *, str? rounding_mode)', numbers_as_tensors=True)
def div_(self, other, *, rounding_mode=None):
    if rounding_mode is not None:  # div's rounded values and node, written into self
        b = other if isinstance(other, Tensor) else as_tensor_like(other, self.dtype)
        with grad_mode.no_grad():
            plain = other.detach() if isinstance(other, Tensor) else other
            data = P.div(self.detach(), plain, rounding_mode=rounding_mode)._data
        _check_cast(self, _dtype.from_numpy_dtype(data.dtype))
        save = {"self": _saved_original(self, b.requires_grad), "other": wrapped(other)}
        return apply_inplace(self, data, P.DivBackward2, (self, b), save=save,
                             rounding_mode=rounding_mode)
    if not self.dtype.is_floating_point:
        raise RuntimeError("result type Float can't be cast to the desired output type "
                           f"{self.dtype.scalar_name}")
    return _binary_inplace(self, other, np.true_divide, DivBackward0, save_self=True,
                           save_other=True, reduced=True)


def _unary_inplace(self, np_fn, node_cls, save_self=False, save_result=False, floats=False):
    """``floats``: the op's result is a float (exp, log, sqrt...), which an integer or bool
    tensor cannot hold: torch's cast error, not a truncated value."""
    if floats and not self.dtype.is_floating_point:
        raise RuntimeError("result type Float can't be cast to the desired output type "
                           f"{self.dtype.scalar_name}")
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
        data = np_fn(self._data)
    save = {"self": _saved_original(self, True)} if save_self else None
    return apply_inplace(self, data, node_cls, (self,), save=save,
                         output_name="result" if save_result else None)


@parses('log_(Tensor input)')
def log_(self):
    return _unary_inplace(self, np_log, LogBackward0, save_self=True, floats=True)


@parses('nan_to_num_(Tensor input, float? nan = None, float? posinf = None, '
        'float? neginf = None)')
def nan_to_num_(self, nan=None, posinf=None, neginf=None):
    if not self.dtype.is_floating_point:  # nothing to replace: torch returns the tensor as is
        return self
    return _unary_inplace(self, lambda x: P.np_nan_to_num(x, nan, posinf, neginf),
                          P.NanToNumBackward0, save_self=True, floats=True)


@parses('log10_(Tensor input)')
def log10_(self):
    return _unary_inplace(self, np.log10, P.Log10Backward0, save_self=True, floats=True)


@parses('log2_(Tensor input)')
def log2_(self):
    return _unary_inplace(self, np.log2, P.Log2Backward0, save_self=True, floats=True)


@parses('rsqrt_(Tensor input)')
def rsqrt_(self):
    return _unary_inplace(self, P.np_rsqrt, P.RsqrtBackward0, save_result=True, floats=True)


@parses('exp_(Tensor input)')
def exp_(self):
    return _unary_inplace(self, np_exp, ExpBackward0, save_result=True, floats=True)


@parses('neg_(Tensor input)')
def neg_(self):
    return _unary_inplace(self, np.negative, NegBackward0)


@parses('sigmoid_(Tensor input)')
def sigmoid_(self):
    return _unary_inplace(self, _np_sigmoid, SigmoidBackward0, save_result=True, floats=True)


@parses('tanh_(Tensor input)')
def tanh_(self):
    return _unary_inplace(self, np_tanh, TanhBackward0, save_result=True, floats=True)


@parses('sqrt_(Tensor input)')
def sqrt_(self):
    return _unary_inplace(self, np.sqrt, SqrtBackward0, save_result=True, floats=True)


@parses('sin_(Tensor input)')
def sin_(self):
    return _unary_inplace(self, np_sin, SinBackward0, save_self=True, floats=True)


@parses('cos_(Tensor input)')
def cos_(self):
    return _unary_inplace(self, np_cos, CosBackward0, save_self=True, floats=True)


@parses('abs_(Tensor input)')
def abs_(self):
    if self.dtype is _dtype.bool:
        raise NotImplementedError("\"abs_cpu\" not implemented for 'Bool'")
    return _unary_inplace(self, np.abs, AbsBackward0, save_self=True)


@parses('pow_(Tensor input, Tensor exponent)', 'pow_(Tensor input, Number exponent)')
def pow_(self, exponent):
    """``x.pow_(e)``: pow's values and node (PowBackward0 for a number, PowBackward1 for a
    tensor), written into ``x``."""
    with grad_mode.no_grad():
        e = exponent.detach() if isinstance(exponent, Tensor) else exponent
        data = P.pow(self.detach(), e)._data
    _check_cast(self, _dtype.from_numpy_dtype(data.dtype))
    old = _saved_original(self, True)
    if isinstance(exponent, Tensor):
        return apply_inplace(self, data, PowBackward1, (self, exponent),
                             save={"self": old, "exponent": exponent}, output_name="result")
    return apply_inplace(self, data, PowBackward0, (self,), save={"self": old},
                         exponent=exponent)


@parses('relu_(Tensor input)')
def relu_(self):
    return _unary_inplace(self, lambda x: clip(x, 0, None), ReluBackward0, save_result=True)


@parses('clamp_(Tensor input, Tensor? min = None, Tensor? max = None)',
        'clamp_(Tensor input, Number? min = None, Number? max = None)')
def clamp_(self, min=None, max=None):
    d = result_type(self, *(b for b in (min, max) if b is not None))
    if _dtype.category(d) > _dtype.category(self.dtype):  # torch names the C++ type here
        raise RuntimeError(f"result type {d.scalar_name} can't be cast "
                           f"to the desired output type {_CPP_TYPE_NAMES[self.dtype.name]}")
    return apply_inplace(self, clip(self._data, min, max), ClampBackward1, (self,),
                         save={"self": _saved_original(self, True)}, min=min, max=max)


def _rounding_(self, np_fn, node_cls):
    """floor_, ceil_, round_, trunc_: an integer tensor stays as it is."""
    if not self.dtype.is_floating_point:
        check_inplace(self)
        return self
    return _unary_inplace(self, np_fn, node_cls)


@parses('floor_(Tensor input)')
def floor_(self):
    return _rounding_(self, np.floor, FloorBackward0)


@parses('ceil_(Tensor input)')
def ceil_(self):
    return _rounding_(self, np.ceil, CeilBackward0)


@parses('trunc_(Tensor input)')
def trunc_(self):
    return _rounding_(self, np.trunc, TruncBackward0)


@parses('round_(Tensor input)', 'round_(Tensor input, *, int decimals)|left_out')
def round_(self):
    return _rounding_(self, np.rint, RoundBackward0)


@parses('frac_(Tensor input)')
def frac_(self):
    return _unary_inplace(self, lambda x: x - np.trunc(x), FracBackward0)


_C_TYPE_NAMES = {"int64": "long int", "int32": "int", "int16": "short int", "int8": "signed char",
                 "uint8": "unsigned char", "bool": "bool"}


def _check_clamp_cast(self, bound) -> None:
    """clamp_min_/clamp_max_ cannot make an integer tensor hold a float bound; for a number
    bound torch names the tensor's type as C does."""
    d = result_type(self, bound)
    if isinstance(bound, Tensor):
        _check_cast(self, d)
    elif _dtype.category(d) > _dtype.category(self.dtype):
        raise RuntimeError(f"result type {d.scalar_name} can't be cast to "
                           f"the desired output type {_C_TYPE_NAMES[self.dtype.name]}")


def _clamp_bound_(self, bound, np_fn, scalar_node, tensor_node, key):
    _check_clamp_cast(self, bound)
    old = _saved_original(self, True)
    if isinstance(bound, Tensor):
        check_same_shape_broadcast(self._data, bound._data)
        return apply_inplace(self, np_fn(self._data, bound._data), tensor_node, (self, bound),
                             save={"self": old, key: bound})
    return apply_inplace(self, np_fn(self._data, cast(bound, self._data.dtype)), scalar_node,
                         (self,),
                         save={"self": old}, **{key: bound})


@parses('clamp_min_(Tensor input, Tensor min)', 'clamp_min_(Tensor input, Number min)')
def clamp_min_(self, min):
    return _clamp_bound_(self, min, torch_max, ClampMinBackward0, ClampMinBackward1, "min")


@parses('clamp_max_(Tensor input, Tensor max)', 'clamp_max_(Tensor input, Number max)')
def clamp_max_(self, max):
    return _clamp_bound_(self, max, torch_min, ClampMaxBackward0, ClampMaxBackward1, "max")


def _division_(self, other, np_fn, kernel, scalar_node, tensor_node, **attrs):
    """floor_divide_, remainder_, fmod_ (``x //= y``, ``x %= y``): torch's integer division
    by zero error, and no float result written into an integer tensor."""
    _check_cast(self, result_type(self, other))
    _, b, d = _division_operands(self, other, kernel)
    if np_fn is P.floor_divide_array:  # torch's div(rounding_mode='floor') kernel
        np_fn = ReducedScalar.wrap(np_fn, d, other)
    data = quietly(np_fn, self._data, common_data(self, b, d)[1])
    if not isinstance(other, Tensor):
        return apply_inplace(self, data, scalar_node, (self,), **attrs)
    save = {"self": _saved_original(self, b.requires_grad),  # only other's gradient reads
            "other": b if b.requires_grad else None}           # them, as torch saves them
    return apply_inplace(self, data, tensor_node, (self, b), save=save, **attrs)


@parses('floor_divide_(Tensor input, Tensor other)', 'floor_divide_(Tensor input, Number other)')
def floor_divide_(self, other):
    return _division_(self, other, P.floor_divide_array, "div_floor_cpu", NotImplemented_,
                      NotImplemented_, op="floor_divide_")


@parses('remainder_(Tensor input, Tensor other)', 'remainder_(Tensor input, Number other)')
def remainder_(self, other):
    return _division_(self, other, _torch_remainder, "remainder_cpu", RemainderBackward0,
                      RemainderBackward1)


@parses('fmod_(Tensor input, Tensor other)', 'fmod_(Tensor input, Number other)')
def fmod_(self, other):
    return _division_(self, other, np.fmod, "fmod_cpu", FmodBackward0, FmodBackward1)


@parses('lerp_(Tensor input, Tensor end, Tensor weight)',
        'lerp_(Tensor input, Tensor end, Number weight)')
def lerp_(self, end, weight):
    """``self += weight * (end - self)`` (an exponential moving average's update)."""
    data = lerp_data(self, end, weight)
    if data.shape != self._data.shape:
        raise RuntimeError(f"output with shape {list(self.shape)} doesn't match the broadcast "
                           f"shape {list(data.shape)}")
    if not isinstance(weight, Tensor):
        return apply_inplace(self, data, LerpBackward0, (self, end), weight=weight)
    save = {"self": _saved_original(self, weight.requires_grad), "end": end, "weight": weight}
    return apply_inplace(self, data, LerpBackward1, (self, end, weight), save=save)


def _scan_(self, dim, dtype, np_fn, node_cls, **save):
    if dtype is not None and dtype is not self.dtype:
        names = {**_C_TYPE_NAMES, "float32": "float", "float64": "double", "float16": "c10::Half"}
        raise RuntimeError(f"Bad in-place call: input tensor dtype {names[self.dtype.name]} and "
                           f"output tensor dtype {names[dtype.name]} should match")
    d = _wrap_dim(dim, self.dim())
    return apply_inplace(self, scan(np_fn, self._data, d), node_cls, (self,), dim=d,
                         dim_arg=dim, **save)


@parses('cumsum_(Tensor input, int dim, *, torch.dtype? dtype = None)')
def cumsum_(self, dim, *, dtype=None):
    return _scan_(self, dim, dtype, np.cumsum, CumsumBackward0)


@parses('cumprod_(Tensor input, int dim, *, torch.dtype? dtype = None)')
def cumprod_(self, dim, *, dtype=None):
    return _scan_(self, dim, dtype, np.cumprod, CumprodBackward0,
                  save={"self": _saved_original(self, True)}, output_name="result")


@parses('zero_(Tensor input)')
def zero_(self):
    return apply_inplace(self, 0, ZeroBackward0, (self,))


class ZeroBackward0(Node):
    """The old values are gone, so their gradient is zero."""

    def backward(self, grad):
        return grad.new_zeros(grad.shape)  # torch's zeros_like(grad): a constant

    def jvp(self, t):
        return t * 0


def _in_memory_order(self: Tensor, values: np.ndarray) -> np.ndarray:
    """Numbers drawn one after another, laid out as torch's TensorIterator fills ``self``: in
    the order of its memory (a transposed view gets them column by column)."""
    data = self._data
    perm = sorted(range(data.ndim), key=lambda d: -data.strides[d])  # stable: ties keep order
    return values.reshape([data.shape[d] for d in perm]).transpose(np.argsort(perm))


@parses('uniform_(Tensor input, float from = 0, float to = 1, *, '
        'torch.Generator? generator = None)')
def uniform_(self, a=0.0, b=1.0, *, generator=None, **bounds):
    """Fill with numbers drawn uniformly from [a, b): torch's generator, so torch's numbers.
    (``from=`` and ``to=``, torch's keywords, are names Python cannot give a parameter.)"""
    a, b = bounds.get("from", a), bounds.get("to", b)
    if not self.dtype.is_floating_point:
        raise NotImplementedError(
            f"\"check_uniform_bounds\" not implemented for '{self.dtype.scalar_name}'")
    if not a <= b:
        raise RuntimeError(f"uniform_ expects to return a [from, to) range, but found from={a:g} "
                           f"> to={b:g}")
    data = _in_memory_order(self, _creation._uniform((self.numel(),), self.dtype, a, b,
                                                     generator))
    return apply_inplace(self, data, UniformBackward0, (self,))


@parses('normal_(Tensor input, float mean = 0, float std = 1, *, '
        'torch.Generator? generator = None)')
def normal_(self, mean=0.0, std=1.0, *, generator=None):
    """Fill with numbers drawn from N(mean, std²): torch's generator, so torch's numbers."""
    if not self.dtype.is_floating_point:
        raise NotImplementedError(
            f"\"normal_kernel_cpu\" not implemented for '{self.dtype.scalar_name}'")
    _creation.check_std(std)
    if not self.is_contiguous():  # torch's serial kernel: one float64 sample at a time
        engine = _creation._generator(generator)._engine
        values = _random.normal_serial(engine, self.numel(), self.dtype.numpy, mean, std)
        return apply_inplace(self, _in_memory_order(self, values), NormalBackward0, (self,))
    data = _creation._normal(tuple(self.shape), self.dtype, mean, std, generator)
    return apply_inplace(self, data, NormalBackward0, (self,))


def _check_probability(p) -> None:
    if not 0 <= p <= 1:
        raise RuntimeError(f"bernoulli_ expects p to be in [0, 1], but got p={p:g}")


def _bernoulli_data(probs: Tensor, generator, layout: Tensor):
    """torch's bernoulli_tensor_cpu_kernel: one uniform per element, below its p; the
    uniform is float64 for a float64 p, else float32 (as measured against torch), drawn in
    the memory order of ``layout``, the tensor written in place (row-major when None: a new
    tensor is contiguous)."""
    if not probs.dtype.is_floating_point:
        raise NotImplementedError(f'"bernoulli_tensor_cpu_p_" not implemented for '
                                  f"'{probs.dtype.scalar_name}'")
    p = probs._data
    if p.size and not ((p >= 0) & (p <= 1)).all():
        raise RuntimeError("Expected p_in >= 0 && p_in <= 1 to be true, but got false.  (Could "
                           "this error message be improved?  If so, please report an "
                           "enhancement request to PyTorch.)")
    d = _dtype.float64 if probs.dtype is _dtype.float64 else _dtype.float32
    u = _creation._uniform((p.size,), d, 0.0, 1.0, generator).reshape(p.shape)
    if layout is not None:
        u = _in_memory_order(layout, u)
    return u < p.astype(d.numpy)


def bernoulli(input, p=None, *, generator=None):
    """0 or 1 per element, 1 with probability ``input`` (or with the number ``p``), drawn as
    torch draws them. Its gradient is zero, as torch's BernoulliBackward0 says."""
    if _vmap_hook.active:  # a batched input inside vmap: its rule (torch's randomness checks)
        kwargs = {k: v for k, v in (("p", p), ("generator", generator)) if v is not None}
        out = _vmap_hook.call("bernoulli", bernoulli, (input,), kwargs)
        if out is not _vmap_hook.PASS:
            return out
    if p is not None:  # torch records no derivative for this overload (NotImplemented)
        _check_probability(p)
        u = _creation._uniform(tuple(input.shape), _dtype.float64, 0.0, 1.0, generator)
        return _not_differentiable((u < p).astype(input._data.dtype), (input,), "bernoulli")
    data = _bernoulli_data(input, generator, None).astype(input._data.dtype)
    out = Tensor._make(data)
    if needs_grad((input,)):
        graph.record(BernoulliBackward0, (input,), (out,))
    return out


@parses('bernoulli_(Tensor input, Tensor p, *, torch.Generator? generator = None)',
        'bernoulli_(Tensor input, float p = 0.5, *, torch.Generator? generator = None)')
def bernoulli_(self, p=0.5, *, generator=None):
    """A tensor ``p`` draws as ``bernoulli`` does (float32 uniforms); a number ``p``, one
    float64 uniform per element (torch's two kernels)."""
    if isinstance(p, Tensor):
        probs = p
        if p._data.shape != self._data.shape:
            _check_expand(p, self._data.shape)
            probs = Tensor._make(np.broadcast_to(p._data, self._data.shape))  # no graph
        return apply_inplace(self, _bernoulli_data(probs, generator, self), BernoulliBackward1,
                             (self, p))
    _check_probability(p)
    u = _creation._uniform((self.numel(),), _dtype.float64, 0.0, 1.0, generator)
    u = _in_memory_order(self, u)
    return apply_inplace(self, u < p, BernoulliBackward2, (self,))


def _check_expand(p, shape) -> None:
    try:
        np.broadcast_to(p._data, shape)
    except ValueError:
        dim = next(i for i in range(1, p.dim() + 1)
                   if p._data.shape[-i] not in (1, shape[-i]))
        raise RuntimeError(
            f"The expanded size of the tensor ({shape[-dim]}) must match the existing size "
            f"({p._data.shape[-dim]}) at non-singleton dimension {len(shape) - dim}.  Target "
            f"sizes: {list(shape)}.  Tensor sizes: {list(p._data.shape)}") from None


class BernoulliBackward0(ZeroBackward0):
    """bernoulli(p): a draw does not change smoothly with p, so the gradient is zero."""


class BernoulliBackward1(Node):
    """bernoulli_(p tensor): zero for the old values and for p."""

    def backward(self, grad):
        p_shape = self._input_meta[1][0] if self._input_meta[1] is not None else grad.shape
        return grad.new_zeros(grad.shape), grad.new_zeros(p_shape)

    def jvp(self, t_self, t_p):
        x = self.inputs[0]
        return x.new_zeros(x.shape)


class BernoulliBackward2(ZeroBackward0):
    """bernoulli_(p number): the old values are gone, so their gradient is zero."""


class UniformBackward0(ZeroBackward0):
    """uniform_: the old values are gone, so their gradient is zero."""


class NormalBackward0(ZeroBackward0):
    """normal_: the old values are gone, so their gradient is zero."""


_RANDOM_SIGNATURES = ("random_() received an invalid combination of arguments - got ({}), but "
                      "expected one of:\n * (*, torch.Generator generator = None)\n{} * (int "
                      "from, int to, *, torch.Generator generator = None)\n * (int to, *, "
                      "torch.Generator generator = None)\n")
_INT64_MIN = -(2**63)


def random_(self, *args, generator=None, **kwargs):
    """Whole numbers: ``random_()`` over the dtype's range (``[0, 2**digits]`` for floats),
    ``random_(to)`` in ``[0, to)``, ``random_(from, to)`` in ``[from, to)`` (``to=None``: up to
    the dtype's largest), drawn as torch draws them."""
    bound = ({"to": args[0]} if len(args) == 1 and not kwargs
             else {**dict(zip(("from", "to"), args, strict=False)), **kwargs})
    not_int = [v for v in bound.values()
               if v is not None and (isinstance(v, bool) or not isinstance(v, int | np.integer))]
    if len(args) > 2 or set(kwargs) - {"from", "to"} or not_int or None in (
            bound.get("from", 0), *args[:1]):
        types = [type(v).__name__ for v in args]
        got = ", ".join(types + [f"{k}={type(v).__name__}" for k, v in kwargs.items()])
        marked = ", ".join(f"!{t}!" for t in types)
        why = (f"      didn't match because some of the arguments have invalid types: ({marked})\n"
               if len(args) == 2 and not kwargs else "")
        raise TypeError(_RANDOM_SIGNATURES.format(got, why))
    engine, n, name = _creation._generator(generator)._engine, self.numel(), self.dtype.name
    if not bound:
        data = _in_memory_order(self, _random.random_bits(engine, n, name))
        return apply_inplace(self, data, RandomBackward2, (self,))
    lo, hi = int(bound.get("from", 0)), bound.get("to")
    node = RandomBackward1 if set(bound) == {"to"} else RandomBackward0
    if hi is None and lo == _INT64_MIN:  # the kernel's dtype check: never for an empty tensor
        if n and name in ("float16", "bool"):
            raise NotImplementedError(f'"random_full_64_bits_range_kernel_cpu" not implemented '
                                      f"for '{self.dtype.scalar_name}'")
        if n and name not in ("int64", "float32", "float64"):
            raise RuntimeError("random_full_64_bits_range_kernel_cpu handles only int64, double, "
                               "float and bfloat16")
        data = _in_memory_order(self, _random.random_full_range(engine, n))
        return apply_inplace(self, data, node, (self,))
    floating = self.dtype.is_floating_point
    if hi is not None:
        hi = int(hi)
        if lo >= hi:
            raise RuntimeError(f"random_ expects 'from' to be less than 'to', but got "
                               f"from={lo} >= to={hi}")
        if floating:
            lo, hi = _random.update_from(lo, name), _random.update_to(hi, name)
            if lo >= hi:
                raise RuntimeError("random_ expects 'from' casted to dtype to be less than 'to' "
                                   f"casted to dtype, but got from={lo} >= to={hi}")
        hi_inc = hi - 1
    elif floating:
        hi_inc = 2 ** _random._DIGITS[name]
        lo = _random.update_from(lo, name)
        if lo >= hi_inc:
            raise RuntimeError("random_ expects 'from' casted to dtype to be less than or equal "
                               f"to 'to_inc' casted to dtype, but got from={lo} > to_inc={hi_inc}")
    else:
        hi_inc = 1 if name == "bool" else int(np.iinfo(self.dtype.numpy).max)
    _check_random_range(lo, hi_inc, self.dtype)
    data = _in_memory_order(self, _random.random_from_to(engine, n, hi_inc + 1 - lo, lo))
    if name == "float16":  # int64 -> float -> half, as c10::Half converts
        data = data.astype(np.float32)
    return apply_inplace(self, data, node, (self,))


def _check_random_range(lo: int, hi_inc: int, dtype) -> None:
    """torch's check_from_to_in_range: both ends within the dtype (an error), and for floats
    within ``±2**digits``, where every whole number is exact (a warning)."""
    c_name = {**_CPP_TYPE_NAMES}[dtype.name]
    info = np.finfo(dtype.numpy) if dtype.is_floating_point else None
    low, high = ((float(info.min), float(info.max)) if info is not None else (0, 1)
                 if dtype.name == "bool" else (int(np.iinfo(dtype.numpy).min),
                                               int(np.iinfo(dtype.numpy).max)))
    for value, what in ((lo, "from"), (hi_inc, "to - 1")):
        if not low <= value <= high:
            raise RuntimeError(f"{what} is out of bounds for {c_name}")
    if info is not None:
        digits = _random._DIGITS[dtype.name]
        for value, what in ((lo, "from"), (hi_inc, "to - 1")):
            if not -(2**digits) <= value <= 2**digits:
                warnings.warn(
                    f"{what} is out of bounds [-(2^{digits}), 2^{digits}]. Due to precision "
                    f"limitations {c_name} can support discrete uniform distribution only "
                    "within this range. This warning will become an error in version 1.7 "
                    "release, please fix the code in advance", UserWarning, stacklevel=3)


class RandomBackward0(ZeroBackward0):
    """random_(from, to): the old values are gone, so their gradient is zero."""


class RandomBackward1(ZeroBackward0):
    """random_(to): the old values are gone, so their gradient is zero."""


class RandomBackward2(ZeroBackward0):
    """random_(): the old values are gone, so their gradient is zero."""


@parses('exponential_(Tensor input, float lambd = 1, *, torch.Generator? generator = None)')
def exponential_(self, lambd=1.0, *, generator=None):
    """Fill with numbers drawn from Exp(lambd), as torch draws them (float64 uniforms)."""
    if not lambd > 0:
        raise RuntimeError(f"exponential_ expects lambda > 0.0, but found lambda={lambd:g}")
    if not self.dtype.is_floating_point:
        raise RuntimeError("Exponential distribution is a continuous probability distribution. "
                           f"dtype must be a floating point but you specified "
                           f"{self.dtype.scalar_name}")
    engine = _creation._generator(generator)._engine
    data = _random.exponential(engine, self.numel(), self.dtype.numpy, lambd)
    return apply_inplace(self, _in_memory_order(self, data), ExponentialBackward0, (self,))


class ExponentialBackward0(ZeroBackward0):
    """exponential_: the old values are gone, so their gradient is zero."""


@parses('geometric_(Tensor input, float p, *, torch.Generator? generator = None)')
def geometric_(self, p, *, generator=None):
    """Fill with the number of Bernoulli(p) trials up to the first success, as torch draws it."""
    if not 0 < p < 1:
        raise RuntimeError(f"geometric_ expects p to be in (0, 1), but got p={p:g}")
    data = _random.geometric(_creation._generator(generator)._engine, self.numel(), p)
    return apply_inplace(self, _in_memory_order(self, quietly(data.astype, self._data.dtype)),
                         GeometricBackward0, (self,))


class GeometricBackward0(ZeroBackward0):
    """geometric_: the old values are gone, so their gradient is zero."""


@parses('fill_(Tensor input, Tensor value)', 'fill_(Tensor input, Number value)')
def fill_(self, value):
    if isinstance(value, Tensor):
        if value.dim() != 0:
            raise RuntimeError("fill_ only supports 0-dimension value tensor but got tensor "
                               f"with {value.dim()} dimensions.")
        data = cast(value._data, self._data.dtype)  # 1e10 into float16: inf, silently
        return apply_inplace(self, data, FillBackward3, (self, value))
    _dtype.check_number_fits(value, self.dtype)
    return apply_inplace(self, for_dtype(value, self._data.dtype), FillBackward2, (self,))


class FillBackward2(ZeroBackward0):
    """fill_ with a number: the old values are gone, so their gradient is zero."""


class FillBackward3(Node):
    """fill_ with a 0-d tensor: it receives the sum of the gradient."""

    def backward(self, grad):
        return grad.new_zeros(grad.shape), grad.sum()

    def jvp(self, t_self, t_value):
        return None if t_value is None else t_value.expand(*self.result.shape)


@parses('copy_(Tensor input, Tensor other, bool non_blocking = False)',
        'copy_(Tensor input, Tensor other, bool async = False)|hidden', numbers_as_tensors=True)
def copy_(self, src, non_blocking=False):
    """Copy ``src``'s values (broadcast, cast) into ``self``."""
    src_t = as_tensor_like(src, self.dtype)
    try:  # (np.broadcast_to costs more than a small copy: called only when shapes differ)
        data = (src_t._data if src_t._data.shape == self._data.shape
                else np.broadcast_to(src_t._data, self._data.shape))
    except ValueError:
        raise RuntimeError(_copy_shape_error(self._data.shape, src_t._data.shape)) from None
    if data.dtype != self._data.dtype:  # cast here: nan into an integer is a value, no warning
        data = cast(data, self._data.dtype)
    return apply_inplace(self, data, CopyBackwards, (self, src_t))


def _copy_shape_error(shape, src_shape) -> str:
    """torch's words when ``src`` cannot be copied into ``self``: the first dimension (from
    the right) where the sizes clash, or, if they broadcast, the broadcast shape that is
    bigger than ``self``."""
    ndim = max(len(shape), len(src_shape))
    for k in range(1, ndim + 1):
        a = shape[-k] if k <= len(shape) else 1
        b = src_shape[-k] if k <= len(src_shape) else 1
        if a != b and a != 1 and b != 1:
            return (f"The size of tensor a ({a}) must match the size of tensor b ({b}) at "
                    f"non-singleton dimension {ndim - k}")
    broadcast = list(np.broadcast_shapes(shape, src_shape))
    return f"output with shape {list(shape)} doesn't match the broadcast shape {broadcast}"


class CopyBackwards(Node):
    """self.copy_(src): nothing flows to the old self; src gets the gradient."""

    def name(self) -> str:
        return "minigrad::autograd::CopyBackwards"  # hand-written in torch's C++, like CopySlices

    def backward(self, grad):
        return grad.new_zeros(grad.shape), grad

    def jvp(self, t_self, t_src):
        if t_src is None:
            return self.result.new_zeros(self.result.shape)
        return t_src.expand(*self.result.shape)


@parses('index_put_(Tensor input, tuple of Tensors indices, Tensor values, '
        'bool accumulate = False)')
def index_put_(self, indices, values, accumulate=False):
    """``self[indices] = values`` for advanced (tensor) indices; adds up with accumulate.
    (``x[i] = v`` calls it with None in ``indices`` for a whole dim, as torch's kernel takes
    them; its Python binding, ``parses``, takes tensors only.)"""
    _check_same_dtype(self, values)
    values_t = as_tensor_like(values, self.dtype)
    if not accumulate:
        _check_masked_fill_dispatch(indices, values_t)
    data = put(self._data, indices, values_t._data, accumulate)
    return apply_inplace(self, data, IndexPutBackward0, (self, values_t),
                         save=save_indices(indices), index=indices, accumulate=accumulate)


class IndexPutBackward0(Node):
    """out = self with ``values`` put at ``index`` (added there with ``accumulate``)."""

    def backward(self, grad):
        check_indices(self)
        g_self = g_values = None
        if self.needs_input_grad[0]:
            g_self = grad if self.accumulate else \
                grad.index_put(self.index, grad.new_zeros(()), accumulate=False)
        if self.needs_input_grad[1]:
            g_values = index_op(grad, self.index)
        return g_self, g_values

    def jvp(self, t_self, t_values):
        x, values = self.inputs
        t_self = x.new_zeros(x.shape) if t_self is None else t_self
        t_values = values.new_zeros(values.shape) if t_values is None else t_values
        return t_self.index_put(self.index, t_values, accumulate=self.accumulate)


def _check_masked_fill_dispatch(indices, values) -> None:
    """torch's index_put_ fills with ``masked_fill_`` when one mask is the only index and one
    value is put; masked_fill_ refuses a uint8 mask (indexing itself only warns about it)."""
    tensors = [i for i in indices if i is not None]
    if (values.numel() == 1 and len(tensors) == 1 and tensors[0].dtype is _dtype.uint8):
        raise RuntimeError("masked_fill_ only supports boolean masks, but got mask with dtype "
                           "unsigned char")


def _check_same_dtype(destination, values) -> None:
    """index_put takes values of the tensor's own dtype only (``x[i] = v`` converts first)."""
    if isinstance(values, Tensor) and values.dtype is not destination.dtype:
        raise RuntimeError("Index put requires the source and destination dtypes match, got "
                           f"{destination.dtype.scalar_name} for the destination and "
                           f"{values.dtype.scalar_name} for the source.")


@parses('index_put(Tensor input, tuple of Tensors indices, Tensor values, '
        'bool accumulate = False)')
def index_put(input, indices, values, accumulate=False):
    """Out of place: a copy of ``input`` with ``values`` put at ``indices``; one
    IndexPutBackward0 node, as in torch."""
    _check_same_dtype(input, values)
    values_t = as_tensor_like(values, input.dtype)
    data = _layout.preserved(put(input._data, indices, values_t._data, accumulate), input._data)
    return record(data, IndexPutBackward0,
                  (input, values_t), save=save_indices(indices), index=indices,
                  accumulate=accumulate)


@parses('masked_scatter_(Tensor input, Tensor mask, Tensor source)')
def masked_scatter_(self, mask, source):
    """``self`` with ``source``'s elements, in order, where ``mask`` (expanded to ``self``) is
    True: masked_scatter in place, next to masked_fill_ (MaskedScatterBackward0)."""
    if self.dtype is not source.dtype:
        I.check_masked_scatter(self, mask, source)  # the dtype message comes first
    try:  # torch's check (and message) that mask expands to self
        mask.expand(*self.shape)
    except RuntimeError as e:  # torch's C++ expand names a bool tensor by its C++ type
        raise RuntimeError(re.sub(r"\w+\.BoolTensor{", "CPUBoolType{", str(e))) from None
    I.check_masked_scatter(self, mask, source)
    return apply_inplace(self, I.scattered(self._data, mask, source),
                         I.MaskedScatterBackward0, (self, source), save={"mask": mask},
                         source_shape=source._data.shape, mask=mask)


@parses('masked_fill_(Tensor input, Tensor mask, Tensor value)',
        'masked_fill_(Tensor input, Tensor mask, Number value)')
def masked_fill_(self, mask, value):
    """``self`` with ``value`` where ``mask`` is True (the mask broadcasts to ``self``)."""
    I.check_masked_fill(mask, value)
    check_same_shape_broadcast(self._data, mask._data)
    shape = np.broadcast_shapes(self._data.shape, mask._data.shape)
    if shape != self._data.shape:
        raise RuntimeError(f"output with shape {list(self.shape)} doesn't match the broadcast "
                           f"shape {list(shape)}")
    fill = value._data if isinstance(value, Tensor) else value
    data = np.where(mask._data, cast(fill, self._data.dtype), self._data)
    if isinstance(value, Tensor):
        return apply_inplace(self, data, I.MaskedFillBackward1, (self, value),
                             save={"mask": mask})
    return apply_inplace(self, data, I.MaskedFillBackward0, (self,), save={"mask": mask})


@parses('scatter_(Tensor input, int dim, Tensor index, Tensor src)',
        'scatter_(Tensor input, int dim, Tensor index, Tensor src, *, str reduce)',
        'scatter_(Tensor input, int dim, Tensor index, Number value)',
        'scatter_(Tensor input, int dim, Tensor index, Number value, *, str reduce)')
def scatter_(self, dim, index, src=None, *, value=None, reduce=None):
    """In place ``scatter``: ``src`` (a tensor) or a number put at ``index`` along ``dim``."""
    I.check_no_reduce(reduce)
    src = value if src is None else src
    plain = src.detach() if isinstance(src, Tensor) else src
    out = I.scatter(self.detach(), dim, index, plain)  # the values, and torch's checks
    _check_no_overlap_with(self, src)
    if isinstance(src, Tensor):
        # ``index`` both saved (version-checked) and as the attribute ScatterBackward0 reads
        return apply_inplace(self, out._data, I.ScatterBackward0, (self, src),
                             save={"index": index}, index=index, dim=_wrap_dim(dim, self.dim()),
                             dim_arg=dim)
    return apply_inplace(self, out._data, I.ScatterBackward1, (self,), save={"index": index},
                         dim=_wrap_dim(dim, self.dim()), dim_arg=dim, value=src)


@parses('scatter_add_(Tensor input, int dim, Tensor index, Tensor src)')
def scatter_add_(self, dim, index, src):
    """In place ``scatter_add``: ``src`` added at ``index`` along ``dim``."""
    out = I.scatter_add(self.detach(), dim, index, src.detach())
    _check_no_overlap_with(self, src)
    return apply_inplace(self, out._data, I.ScatterAddBackward0, (self, src),
                         save={"index": index if src.requires_grad else None},
                         dim=_wrap_dim(dim, self.dim()), dim_arg=dim, index_tensor=index)


def _inplace_view(self, op, node_cls, **attrs):
    """``t_``, ``transpose_``, ``unsqueeze_``, ``squeeze_``: ``self`` itself starts seeing its
    memory as ``op`` (the out-of-place view) would; no value changes.

    As in torch, this still counts as an in-place op: the leaf checks apply, the version
    counter moves, and ``self`` gets the op's in-place node (``TBackward1``...), whose input
    is ``self`` as it was. A view stays a view of its base, now seen through ``op`` too, so a
    later in-place change of it still reaches the base (torch then reads it with as_strided,
    which is what minigrad's refreshed views do)."""
    check_inplace(self, (self,))
    with grad_mode.no_grad():
        data = op(self.detach())._data  # detached: no tangent, no view bookkeeping
    node = graph.record(node_cls, (self,), (), view_fn=op, **attrs) if needs_grad((self,)) \
        else None
    tangent = forward_grad.tangent_of(self)
    self._data = data
    self._bump_version()
    if tangent is not None:
        forward_grad.set_tangent(self, op(tangent))
    if self._base is not None:
        self._view_fn = _compose_view(self._view_fn, op)
        self._view_version = self._version
    if node is not None:
        self._attach(node)
    return self


def _compose_view(first, second):
    return lambda t: second(first(t))


@parses('t_(Tensor input)')
def t_(self):
    if self.dim() > 2:
        raise RuntimeError(f"t_() expects a tensor with <= 2 dimensions, but self is "
                           f"{self.dim()}D")
    return _inplace_view(self, lambda x: x.t(), TBackward1)


@parses('transpose_(Tensor input, int dim0, int dim1)')
def transpose_(self, dim0, dim1):
    n = self.dim()
    d0, d1 = _wrap_dim(dim0, n), _wrap_dim(dim1, n)
    return _inplace_view(self, lambda x: x.transpose(d0, d1), TransposeBackward1,
                         dim0=d0, dim1=d1, dim0_arg=dim0, dim1_arg=dim1)


@parses('unsqueeze_(Tensor input, int dim)')
def unsqueeze_(self, dim):
    d = _wrap_dim(dim, self.dim() + 1)
    return _inplace_view(self, lambda x: x.unsqueeze(d), UnsqueezeBackward1, dim=d,
                         dim_arg=dim)


@parses('squeeze_(Tensor input)', 'squeeze_(Tensor input, int dim)',
        'squeeze_(Tensor input, tuple of ints dim)')
def squeeze_(self, dim=None):
    shape = self._data.shape
    if dim is None:
        return _inplace_view(self, lambda x: x.squeeze(), SqueezeBackward3, self_shape=shape)
    if isinstance(dim, tuple | list):
        dims = tuple(_wrap_dim(d, self.dim()) for d in dim)
        return _inplace_view(self, lambda x: x.squeeze(dims), SqueezeBackward5,
                             self_shape=shape, dims=dims, dims_arg=tuple(dim))
    d = _wrap_dim(dim, self.dim())
    return _inplace_view(self, lambda x: x.squeeze(d), SqueezeBackward4, self_shape=shape,
                         dims=(d,), dim_arg=dim)


class TBackward1(TBackward0):
    """t_(), in place"""


class TransposeBackward1(TransposeBackward0):
    """transpose_(dim0, dim1), in place"""


class UnsqueezeBackward1(UnsqueezeBackward0):
    """unsqueeze_(dim), in place"""


class SqueezeBackward3(SqueezeBackward0):
    """squeeze_(), in place"""


class SqueezeBackward5(SqueezeBackward2):
    """squeeze_(dims), in place"""
