"""Every backward formula in one place, op by op (minigrad's ``derivatives.yaml``).

Each class is the ``grad_fn`` an operation records; its name is torch's. ``backward`` gets the
gradient of the op's output and returns one gradient per input (``None`` for inputs that need
none). Formulas are written with minigrad operations, so with ``create_graph=True`` the
gradient is itself a graph that can be differentiated again. The engine then sums each
gradient back to its input's shape (undoing broadcasting) and casts it to the input's dtype.

Saved tensors are read with ``self.saved(name)``, which checks they were not modified in place
since the forward pass and not freed by an earlier backward.
"""

from __future__ import annotations

import numpy as np

from minigrad._tensor import Tensor
from minigrad.autograd import forward_ad, grad_mode
from minigrad.autograd.graph import Node


def _need(node, i: int) -> bool:
    return node.needs_input_grad[i]


def _plain() -> bool:
    """May a formula compute in plain NumPy? Only when minigrad ops would record nothing:
    no ``create_graph`` (so grad mode is off) and no forward-mode AD tangents to carry."""
    return not grad_mode.is_recording() and forward_ad._state.level is None


# --- arithmetic -------------------------------------------------------------------------------
class AddBackward0(Node):
    """out = self + alpha * other"""

    def backward(self, grad):
        return grad, (grad * self.alpha if self.alpha != 1 else grad)


class SubBackward0(Node):
    """out = self - alpha * other"""

    def backward(self, grad):
        return grad, -grad * self.alpha if self.alpha != 1 else -grad


class RsubBackward1(Node):
    """out = other - self, with ``other`` a number"""

    def backward(self, grad):
        return -grad


class MulBackward0(Node):
    """out = self * other"""

    def backward(self, grad):
        return (grad * self.saved("other") if _need(self, 0) else None,
                grad * self.saved("self") if _need(self, 1) else None)


class DivBackward0(Node):
    """out = self / other"""

    def backward(self, grad):
        other = self.saved("other")
        return (grad / other if _need(self, 0) else None,
                -grad * self.saved("self") / (other * other) if _need(self, 1) else None)


class DivBackward1(Node):
    """out = self / other, with ``other`` a number (torch's C++ code divides by a count)"""

    def backward(self, grad):
        return grad / self.other


class NegBackward0(Node):
    def backward(self, grad):
        return -grad


class ReciprocalBackward0(Node):
    """out = 1 / self; d/dx = -out^2"""

    def backward(self, grad):
        result = self.saved("result")
        return -grad * result * result


class PowBackward0(Node):
    """out = self ** exponent, exponent a number"""

    def backward(self, grad):
        e = self.exponent
        if e == 0:
            return grad * 0
        return grad * e * self.saved("self") ** (e - 1)


class PowBackward1(Node):
    """out = self ** exponent, both tensors"""

    def backward(self, grad):
        from minigrad._ops.pointwise import where

        base, exponent = self.saved("self"), self.saved("exponent")
        g_self = g_exp = None
        if _need(self, 0):
            g_self = where(exponent == 0, 0.0, grad * exponent * base ** (exponent - 1))
        if _need(self, 1):
            result = self.saved("result")
            g_exp = where((base == 0) & (exponent >= 0), 0.0, grad * result * base.log())
        return g_self, g_exp


class PowBackward2(Node):
    """out = base ** exponent, base a number"""

    def backward(self, grad):
        with np.errstate(divide="ignore", invalid="ignore"):
            log_base = float(np.log(np.float64(self.base)))  # nan for a negative base
        if self.base == 0:  # 0 ** e is 0 for e > 0 and 1 for e == 0: flat, so no gradient
            from minigrad._ops.pointwise import where

            return grad * where(self.saved("exponent") >= 0, 0.0, self.saved("result") * log_base)
        return grad * (self.saved("result") * log_base)


# --- pointwise functions ---------------------------------------------------------------------
class AbsBackward0(Node):
    def backward(self, grad):
        return grad * self.saved("self").sign()


class ExpBackward0(Node):
    def backward(self, grad):
        return grad * self.saved("result")


class LogBackward0(Node):
    def backward(self, grad):
        return grad / self.saved("self")


class SqrtBackward0(Node):
    def backward(self, grad):
        return grad / (2 * self.saved("result"))


class SinBackward0(Node):
    def backward(self, grad):
        return grad * self.saved("self").cos()


class CosBackward0(Node):
    def backward(self, grad):
        return grad * -self.saved("self").sin()


class TanhBackward0(Node):
    """d tanh(x)/dx = 1 - tanh(x)^2, from the saved output.

    Without ``create_graph`` nobody differentiates this gradient again, so it is computed as
    one NumPy expression, like torch's fused ``tanh_backward`` kernel: three minigrad ops
    would cost three times the bookkeeping for the same numbers. With ``create_graph`` it is
    written in minigrad ops, so the result is a graph that can be differentiated again.
    """

    def backward(self, grad):
        result = self.saved("result")
        if _plain():
            r = result._data
            return Tensor._make(grad._data * (1 - r * r))
        return grad * (1 - result * result)


class SigmoidBackward0(Node):
    """d sigmoid(x)/dx = s (1 - s), from the saved output s; fused as in TanhBackward0."""

    def backward(self, grad):
        result = self.saved("result")
        if _plain():
            r = result._data
            return Tensor._make(grad._data * r * (1 - r))
        return grad * result * (1 - result)


class ReluBackward0(Node):
    def backward(self, grad):
        return grad * (self.saved("result") > 0)


class ClampBackward1(Node):
    """Gradient passes where min <= self <= max."""

    def backward(self, grad):
        x = self.saved("self")
        mask = x == x
        if self.min is not None:
            mask = mask & (x >= self.min)
        if self.max is not None:
            mask = mask & (x <= self.max)
        return grad * mask


class WhereBackward0(Node):
    """out = where(condition, self, other)"""

    def backward(self, grad):
        from minigrad._ops.pointwise import where

        cond = self.saved("condition")
        return (where(cond, grad, 0.0) if _need(self, 0) else None,
                where(cond, 0.0, grad) if _need(self, 1) else None)


class CloneBackward0(Node):
    def backward(self, grad):
        return grad


class ToCopyBackward0(Node):
    """A dtype conversion: the engine casts the gradient back to the input's dtype."""

    def backward(self, grad):
        return grad


# --- reductions ------------------------------------------------------------------------------
class SumBackward0(Node):
    def backward(self, grad):
        return grad.expand(*self.self_shape)


class SumBackward1(Node):
    """sum over ``dim``: put the reduced dims back, then expand."""

    def backward(self, grad):
        return _unreduce(grad, self.dim, self.keepdim, self.self_shape)


class MeanBackward0(Node):
    def backward(self, grad):
        return grad.expand(*self.self_shape) / self.numel


class MeanBackward1(Node):
    def backward(self, grad):
        return _unreduce(grad, self.dim, self.keepdim, self.self_shape) / self.count


class MaxBackward1(Node):
    """max of all elements: the gradient is shared evenly between tied maxima."""

    def backward(self, grad):
        mask = self.saved("self") == self.saved("result")
        return mask * (grad / mask.sum())


MinBackward1 = type("MinBackward1", (MaxBackward1,), {"__doc__": "min of all elements"})


class MaxBackward0(Node):
    """max along ``dim``: the gradient goes to the index that was picked."""

    def backward(self, grad):
        from minigrad._creation import zeros
        from minigrad._ops.shape import unsqueeze

        idx = self.saved("indices")
        if not self.keepdim:
            grad, idx = unsqueeze(grad, self.dim), unsqueeze(idx, self.dim)
        out = zeros(*self.self_shape, dtype=grad.dtype)
        return out.scatter(self.dim, idx, grad)


MinBackward0 = type("MinBackward0", (MaxBackward0,), {"__doc__": "min along a dim"})


def _unreduce(grad, dims, keepdim, shape):
    if not keepdim:
        for d in sorted(dims):
            grad = grad.unsqueeze(d)
    return grad.expand(*shape)


# --- linear algebra --------------------------------------------------------------------------
class DotBackward0(Node):
    def backward(self, grad):
        return (grad * self.saved("tensor") if _need(self, 0) else None,
                grad * self.saved("self") if _need(self, 1) else None)


class MmBackward0(Node):
    """out = self @ mat2 for matrices"""

    def backward(self, grad):
        return (grad.mm(self.saved("mat2").t()) if _need(self, 0) else None,
                self.saved("self").t().mm(grad) if _need(self, 1) else None)


class BmmBackward0(Node):
    """out = self @ mat2 for batches of matrices"""

    def backward(self, grad):
        return (grad.bmm(self.saved("mat2").transpose(1, 2)) if _need(self, 0) else None,
                self.saved("self").transpose(1, 2).bmm(grad) if _need(self, 1) else None)


class MvBackward0(Node):
    """out = self @ vec, a matrix times a vector"""

    def backward(self, grad):
        return (grad.unsqueeze(1) * self.saved("vec").unsqueeze(0) if _need(self, 0) else None,
                self.saved("self").t().mv(grad) if _need(self, 1) else None)


# --- views and shapes --------------------------------------------------------------------------
class TBackward0(Node):
    def backward(self, grad):
        return grad.t()


class TransposeBackward0(Node):
    def backward(self, grad):
        return grad.transpose(self.dim0, self.dim1)


class PermuteBackward0(Node):
    def backward(self, grad):
        inverse = [0] * len(self.dims)
        for i, d in enumerate(self.dims):
            inverse[d] = i
        return grad.permute(*inverse)


class ViewBackward0(Node):
    def backward(self, grad):
        return grad.reshape(*self.self_shape)


UnsafeViewBackward0 = type("UnsafeViewBackward0", (ViewBackward0,), {})
SqueezeBackward0 = type("SqueezeBackward0", (ViewBackward0,), {})
SqueezeBackward1 = type("SqueezeBackward1", (ViewBackward0,), {})
SqueezeBackward4 = type("SqueezeBackward4", (ViewBackward0,), {})


class UnsqueezeBackward0(Node):
    def backward(self, grad):
        return grad.squeeze(self.dim)


class ExpandBackward0(Node):
    def backward(self, grad):
        return grad.sum_to_size(*self.self_shape)


class AliasBackward0(Node):
    def backward(self, grad):
        return grad


class SelectBackward0(Node):
    """out = self[..., index, ...]: the gradient goes back into a zero tensor at ``index``."""

    def backward(self, grad):
        return _into_zeros(grad, self.self_shape, self.view_fn)


class SliceBackward0(SelectBackward0):
    """out = self[..., start:end:step, ...]"""


class AsStridedBackward0(SelectBackward0):
    """The grad_fn torch gives a view whose base changed in place after the view was made."""

    def __init__(self, inputs):
        super().__init__(inputs)
        self.self_shape = inputs[0]._data.shape

    def backward(self, grad):
        """The view may repeat base elements (an ``expand`` in its chain): like torch, each
        base element gets the sum of the gradients of every view element that reads it."""
        from minigrad._creation import arange, zeros

        n = 1
        for s in self.self_shape:
            n *= s
        where = self.view_fn(arange(n).view(*self.self_shape)).reshape(-1)
        flat = zeros(n, dtype=grad.dtype).index_put((where,), grad.reshape(-1), accumulate=True)
        return flat.view(*self.self_shape)


class UnbindBackward0(Node):
    """Several outputs, one per slice along ``dim``: stack their gradients back."""

    def backward(self, *grads):
        from minigrad._ops.join import stack

        return stack(list(grads), self.dim)


class IndexBackward0(Node):
    """Advanced indexing copies; the gradient is scattered back, adding at repeated indices."""

    def backward(self, grad):
        from minigrad._creation import zeros

        return zeros(*self.self_shape, dtype=grad.dtype).index_put(self.index, grad,
                                                                  accumulate=True)


class IndexPutBackward0(Node):
    """out = self with ``values`` put at ``index``."""

    def backward(self, grad):
        g_self = g_values = None
        if _need(self, 0):
            g_self = grad.index_put(self.index, grad.new_zeros(()), accumulate=False) \
                if not self.accumulate else grad
        if _need(self, 1):
            g_values = grad[self.index]
        return g_self, g_values


def _into_zeros(grad, shape, view_fn):
    from minigrad._creation import zeros

    out = zeros(*shape, dtype=grad.dtype)
    view_fn(out).copy_(grad)
    return out


# --- joining -----------------------------------------------------------------------------------
class CatBackward0(Node):
    def backward(self, grad):
        pieces, start = [], 0
        for size in self.sizes:
            pieces.append(grad.narrow(self.dim, start, size) if size is not None else None)
            start += size or 0
        return tuple(pieces)


class StackBackward0(Node):
    def backward(self, grad):
        return tuple(grad.unbind(self.dim))


# --- in-place ------------------------------------------------------------------------------------
class ZeroBackward0(Node):
    def backward(self, grad):
        return grad * 0


class FillBackward2(ZeroBackward0):
    """fill_ with a number: the old values are gone, so their gradient is zero."""


class FillBackward3(Node):
    """fill_ with a 0-d tensor: it receives the sum of the gradient."""

    def backward(self, grad):
        return grad * 0, grad.sum()


class CopyBackwards(Node):
    """self.copy_(src): nothing flows to the old self; src gets the gradient."""

    def name(self) -> str:
        return "minigrad::autograd::CopyBackwards"  # hand-written in torch's C++, like CopySlices

    def backward(self, grad):
        return grad * 0, grad


class CopySlices(Node):
    """An in-place op on a view, seen from the base.

    ``fn`` is the in-place op's own node; it maps the gradient of the view to gradients of
    (old view values, other inputs). The base's gradient is the incoming gradient with the
    view's region replaced by fn's first output. This clones the whole gradient each time,
    which is why a loop of slice assignments is slow in backward (lesson 08).
    """

    def __init__(self, base_edge_tensor, view_fn, fn):
        super().__init__((base_edge_tensor,))
        self.next_functions = self.next_functions + fn.next_functions[1:]
        self.needs_input_grad = self.needs_input_grad + fn.needs_input_grad[1:]
        self._input_meta = self._input_meta + fn._input_meta[1:]
        self.view_fn = view_fn
        self.fn = fn

    def name(self) -> str:
        return "minigrad::autograd::CopySlices"

    def backward(self, grad):
        result = grad.clone()
        grad_slice = self.view_fn(result)
        from minigrad.autograd.engine import _check_outputs

        res = _check_outputs(self.fn, self.fn.apply(grad_slice.clone()))
        if res[0] is None:
            grad_slice.zero_()
        else:
            grad_slice.copy_(res[0])
        return (result, *res[1:])

    def release_variables(self) -> None:
        self.fn.release_variables()
        super().release_variables()


# --- layers and losses ---------------------------------------------------------------------------
class AddmmBackward0(Node):
    """out = beta * self + alpha * (mat1 @ mat2): ``nn.Linear``'s fused op, self the bias"""

    def backward(self, grad):
        g_self = g_mat1 = g_mat2 = None
        if _need(self, 0):
            g_self = grad * self.beta if self.beta != 1 else grad
        if _need(self, 1):
            g_mat1 = grad.mm(self.saved("mat2").t())
            g_mat1 = g_mat1 * self.alpha if self.alpha != 1 else g_mat1
        if _need(self, 2):
            g_mat2 = self.saved("mat1").t().mm(grad)
            g_mat2 = g_mat2 * self.alpha if self.alpha != 1 else g_mat2
        return g_self, g_mat1, g_mat2


class MseLossBackward0(Node):
    """out = reduce((self - target)^2); d/dself = 2 (self - target) (/ numel for a mean),
    d/dtarget = -d/dself"""

    def backward(self, grad):
        norm = 2.0 / max(self.numel, 1) if self.reduction == "mean" else 2.0
        g = norm * (self.saved("self") - self.saved("target")) * grad
        return g if _need(self, 0) else None, -g if _need(self, 1) else None


class SoftmaxBackward0(Node):
    """out = exp(self) / sum(exp(self), dim); d/dself = out * (grad - sum(grad * out, dim))"""

    def backward(self, grad):
        result = self.saved("result")
        if result.dim() == 0:  # softmax of one number is 1, whatever the number
            return grad * 0
        return result * (grad - (grad * result).sum(self.dim, keepdim=True))


class LogSoftmaxBackward0(Node):
    """out = self - log(sum(exp(self), dim)); d/dself = grad - exp(out) * sum(grad, dim)"""

    def backward(self, grad):
        result = self.saved("result")
        if result.dim() == 0:
            return grad * 0
        return grad - result.exp() * grad.sum(self.dim, keepdim=True)


class NllLossBackward0(Node):
    """out[i] = -self[i, target[i]] (reduced; a mean divides by the number of counted targets):
    the gradient is -grad at each picked entry, zero elsewhere."""

    def backward(self, grad):
        from minigrad._ops.pointwise import where

        if self.reduction == "none":
            grad = grad.unsqueeze(-1) if grad.dim() else grad  # one row per target
        elif self.reduction == "mean":
            grad = grad / self.total_weight
        return where(self.mask, -grad, 0.0)
