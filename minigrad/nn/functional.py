"""``minigrad.nn.functional``: layers and losses as plain functions of tensors.

Like torch, ``linear``, ``mse_loss``, ``softmax``, ``log_softmax`` and ``nll_loss`` are fused
operations with one backward node each (``AddmmBackward0``, ``MseLossBackward0``,
``SoftmaxBackward0``, ``LogSoftmaxBackward0``, ``NllLossBackward0``; see
``minigrad/_ops/nn_ops.py``), so a model's graph is the same node for node as torch's.
``cross_entropy`` composes them as torch does. ``binary_cross_entropy_with_logits`` is one
fused node too (``BinaryCrossEntropyWithLogitsBackward0``; see ``minigrad/_ops/bce.py``).
"""

from __future__ import annotations

import warnings

import numpy as np

from minigrad import _left_out
from minigrad._ops import bce, nn_ops
from minigrad._ops._core import check_same_shape_broadcast
from minigrad.autograd import forward_grad


def linear(input, weight, bias=None):
    """input @ weight.T + bias, recorded the way torch's ``linear`` records it:

    * a 2-D input with a bias: one ``addmm`` (``AddmmBackward0``);
    * any other contiguous input with a 1-D-like bias: flatten the input to a matrix (a
      view), ``addmm``, and view the result back;
    * otherwise ``matmul`` (``MmBackward0``, ``MvBackward0``...) then the bias added in place
      (out of place when the bias carries a forward-mode tangent).
    """
    if input.dim() == 0 or weight.dim() == 0:
        raise RuntimeError(f"both arguments to linear need to be at least 1D, but they are "
                           f"{input.dim()}D and {weight.dim()}D")
    if bias is not None and input.dim() == 2:
        return nn_ops.addmm(bias, input, weight.t())
    if bias is not None and _bias_fusable(bias) and input.is_contiguous():
        *batch, k = input.shape
        rows = 1
        for size in batch:
            rows *= size
        out = nn_ops.addmm(bias, input.reshape(rows, k), weight.t())
        return out.view(*batch, out.shape[1])
    out = input.matmul(weight.t())
    if bias is None:
        return out
    if out._base is not None:  # a 1-D input: torch squeezes in place, minigrad returns a view,
        _check_in_place_broadcast(out, bias)  # and adding in place to that view would record
        return out + bias                     # CopySlices, so add out of place
    if forward_grad._state.level is not None and forward_grad.tangent_of(bias) is not None:
        return out + bias
    return out.add_(bias)


def _check_in_place_broadcast(out, bias) -> None:
    try:
        shape = np.broadcast_shapes(out.shape, bias.shape)
    except ValueError:
        return  # the addition raises torch's error
    if tuple(shape) != tuple(out.shape):
        raise RuntimeError(f"output with shape {list(out.shape)} doesn't match the broadcast "
                           f"shape {list(shape)}")


def _bias_fusable(bias) -> bool:
    """torch's test: a contiguous bias that is 1-D, or 1-D once its size-1 dims are dropped."""
    one_d = bias.dim() == 1 or sum(s != 1 for s in bias.shape) == 1
    return one_d and bias.is_contiguous()


def relu(input, inplace=False):
    return input.relu_() if inplace else input.relu()


def tanh(input):
    return input.tanh()


def sigmoid(input):
    return input.sigmoid()


def mse_loss(input, target, size_average=None, reduce=None, reduction="mean", weight=None):
    if target.shape != input.shape:
        warnings.warn(f"Using a target size ({target.shape!r}) that is different to the input "
                      f"size ({input.shape!r}). This will likely lead to incorrect results due "
                      "to broadcasting. Please ensure they have the same size.", UserWarning,
                      stacklevel=2)
    _unsupported(weight=weight)
    input, target = _broadcast(input, target)
    return nn_ops.mse_loss(input, target, reduction)


def _broadcast(a, b):
    """Both expanded to their common shape, as ``torch.broadcast_tensors`` (a tensor that
    already has that shape is returned as it is)."""
    if a.shape == b.shape:
        return a, b
    check_same_shape_broadcast(a._data, b._data)
    shape = tuple(np.broadcast_shapes(a.shape, b.shape))
    return (a if a.shape == shape else a.expand(*shape),
            b if b.shape == shape else b.expand(*shape))


def _get_softmax_dim(name, ndim, stacklevel):
    """torch's deprecated default: dim 0 for 0-, 1- and 3-D inputs, else 1, with a warning."""
    warnings.warn(f"Implicit dimension choice for {name} has been deprecated. Change the call "
                  "to include dim=X as an argument.", stacklevel=stacklevel)
    return 0 if ndim in (0, 1, 3) else 1


def softmax(input, dim=None, _stacklevel=3, dtype=None):
    if dim is None:
        dim = _get_softmax_dim("softmax", input.dim(), _stacklevel)
    return nn_ops.softmax(input, dim, dtype)


def log_softmax(input, dim=None, _stacklevel=3, dtype=None):
    if dim is None:
        dim = _get_softmax_dim("log_softmax", input.dim(), _stacklevel)
    return nn_ops.log_softmax(input, dim, dtype)


def nll_loss(input, target, weight=None, size_average=None, ignore_index=-100, reduce=None,
             reduction="mean"):
    """Minus the log-probability of each target class (``weight`` is not supported)."""
    _unsupported(weight=weight)
    return nn_ops.nll_loss(input, target, ignore_index, reduction)


def cross_entropy(input, target, weight=None, size_average=None, ignore_index=-100,
                  reduce=None, reduction="mean", label_smoothing=0.0):
    """log_softmax then nll_loss; a target shaped like the input holds class probabilities."""
    _unsupported(weight=weight, label_smoothing=label_smoothing or None)
    class_dim = 0 if input.dim() == 1 else 1
    if target.shape != input.shape:
        return nn_ops.nll_loss(log_softmax(input, class_dim), target, ignore_index, reduction)
    if not target.dtype.is_floating_point:
        raise RuntimeError(f"Expected floating point type for target with class probabilities, "
                           f"got {nn_ops._short(target.dtype)}")
    nn_ops._check_reduction(reduction)
    loss = log_softmax(input, class_dim) * target  # torch's order: log-probabilities first
    if reduction == "none":
        return -loss.sum(class_dim)
    if reduction == "sum":
        return -loss.sum()
    if input.numel() == 0:
        return -loss.sum().fill_(float("nan"))
    return nn_ops.div_by_count(-loss.sum(), input.numel() // input.shape[class_dim])


def binary_cross_entropy_with_logits(input, target, weight=None, size_average=None, reduce=None,
                                     reduction="mean", pos_weight=None):
    """Binary cross-entropy of ``sigmoid(input)``, fused and stable (see ``_ops/bce.py``)."""
    if size_average is not None or reduce is not None:
        reduction = _legacy_reduction(size_average, reduce)
    if target.shape != input.shape:
        raise ValueError(f"Target size ({target.shape!r}) must be the same as input size "
                         f"({input.shape!r})")
    return bce.binary_cross_entropy_with_logits(input, target, weight, pos_weight, reduction)


def _legacy_reduction(size_average, reduce):
    """torch's mapping of the deprecated ``size_average``/``reduce`` flags to a reduction."""
    size_average = True if size_average is None else size_average
    reduce = True if reduce is None else reduce
    ret = ("mean" if size_average else "sum") if reduce else "none"
    warnings.warn(f"size_average and reduce args will be deprecated, please use "
                  f"reduction='{ret}' instead.", stacklevel=3)
    return ret


def _unsupported(**options):
    for name, value in options.items():
        if value is not None:
            raise NotImplementedError(f"minigrad's nn.functional does not support {name}")


def __getattr__(name):
    """Only reached for names this module does not define (PEP 562); see ``_left_out``."""
    raise _left_out.missing(__name__, name)
