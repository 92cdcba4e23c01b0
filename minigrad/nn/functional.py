"""``minigrad.nn.functional``: layers and losses as plain functions of tensors.

Like torch, ``linear``, ``mse_loss``, ``softmax``, ``log_softmax`` and ``nll_loss`` are fused
operations with one backward node each (``AddmmBackward0``, ``MseLossBackward0``,
``SoftmaxBackward0``, ``LogSoftmaxBackward0``, ``NllLossBackward0``; see
``minigrad/_ops/nn_ops.py``), so a model's graph is the same node for node as torch's.
``cross_entropy`` composes them as torch does. ``binary_cross_entropy_with_logits`` is one
fused node too (``BinaryCrossEntropyWithLogitsBackward0``; see ``minigrad/_ops/bce.py``).
The activations ``leaky_relu``, ``gelu``, ``silu``, ``softplus`` and ``elu`` are one node each
(``minigrad/_ops/activation.py``), ``embedding`` too (``minigrad/_ops/embedding.py``);
``dropout`` multiplies by torch's noise (``minigrad/_ops/dropout.py``), and so do its variants
(``dropout1d/2d/3d`` per channel, ``alpha_dropout``, ``feature_alpha_dropout``). ``layer_norm``
(``NativeLayerNormBackward0``, ``minigrad/_ops/normalization.py``), ``binary_cross_entropy``
(``minigrad/_ops/loss.py``), ``huber_loss`` and ``smooth_l1_loss``
(``minigrad/_ops/robust_loss.py``) are fused nodes too; ``l1_loss`` and ``rms_norm`` are
composed from basic ops, as torch 2.13 composes them on the CPU.
"""

from __future__ import annotations

import math
import warnings

import numpy as np

from minigrad import _creation, _dtype, _left_out
from minigrad._ops import activation, bce, nn_ops
from minigrad._ops import composite_loss as _composite
from minigrad._ops import distance as _distance
from minigrad._ops import dropout as _dropout
from minigrad._ops import embedding as _embedding
from minigrad._ops import loss as _loss
from minigrad._ops import multi_margin as _multi_margin
from minigrad._ops import nll as _nll
from minigrad._ops import normalization as _normalization
from minigrad._ops import padding as _padding
from minigrad._ops import robust_loss as _robust_loss
from minigrad._ops import soft_margin as _soft_margin
from minigrad._ops import subclass as _subclass
from minigrad._ops._args import nn_builtin as _nn_builtin
from minigrad._ops._args import parses as _parses
from minigrad._ops._core import check_same_shape_broadcast as _check_same_shape_broadcast
from minigrad._ops.inplace import relu_ as _relu_
from minigrad._ops.pointwise import add_scalar as _add_scalar
from minigrad._ops.pointwise import div as _div
from minigrad._ops.pointwise import mul_scalar as _mul_scalar
from minigrad._ops.pointwise import relu as _relu
from minigrad.autograd import forward_grad, grad_mode


@_parses('linear(Tensor input, Tensor weight, Tensor? bias = None)')
def _linear(input, weight, bias=None):
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


# torch's F.linear is the compiled op (torch._C._nn's): its parser checks arguments
linear = _nn_builtin(_linear, "linear")


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


# F's activations hand their input to torch's compiled ops, whose parser checks each argument
# (``.as_function``: minigrad's op behind torch's signature, so a wrong argument gets its error)
def relu(input, inplace=False):
    return (_relu_ if inplace else _relu).as_function(input)


def tanh(input):
    return input.tanh()


def sigmoid(input):
    return input.sigmoid()


# --- activations, dropout, embedding (one fused node each where torch has one: _ops/activation.py,
# _ops/dropout.py, _ops/embedding.py)
def leaky_relu(input, negative_slope=0.01, inplace=False):
    fn = activation.leaky_relu_ if inplace else activation.leaky_relu
    return fn.as_function(input, negative_slope)


# torch's F.gelu and F.softplus are the compiled ops themselves (torch._C._nn's)
gelu, softplus = _nn_builtin(activation.gelu), _nn_builtin(activation.softplus)


def silu(input, inplace=False):
    return (activation.silu_ if inplace else activation.silu).as_function(input)


def elu(input, alpha=1.0, inplace=False):
    return (activation.elu_ if inplace else activation.elu).as_function(input, alpha)


# F.relu_ (torch.relu_), F.leaky_relu_ and F.elu_ (torch._C._nn's) are torch's in-place ops
relu_ = _relu_.as_function
leaky_relu_, elu_ = _nn_builtin(activation.leaky_relu_), _nn_builtin(activation.elu_)


def dropout(input, p=0.5, training=True, inplace=False):
    """Zero each element with probability ``p``, scale the rest by ``1 / (1 - p)``; torch's
    numbers after the same ``manual_seed`` (see ``_ops/dropout.py``)."""
    if p < 0.0 or p > 1.0:
        raise ValueError(f"dropout probability has to be between 0 and 1, but got {p}")
    return (_dropout.dropout_checked_ if inplace else _dropout.dropout_checked).as_function(
        input, p, training)


def _check_p(p):
    if p < 0.0 or p > 1.0:
        raise ValueError(f"dropout probability has to be between 0 and 1, but got {p}")


def _feature_dropout(input, p, training, inplace):
    op = _dropout.feature_dropout_ if inplace else _dropout.feature_dropout
    return op.as_function(input, p, training)


def dropout1d(input, p=0.5, training=True, inplace=False):
    """Zero whole channels (``input[i, j]``, a 1-D feature map) with probability ``p``; an
    unbatched ``(C, L)`` input is treated as one sample, as torch does."""
    _check_p(p)
    if input.dim() not in (2, 3):
        raise RuntimeError(
            f"dropout1d: Expected 2D or 3D input, but received a {input.dim()}D input. "
            "Note that dropout1d exists to provide channel-wise dropout on inputs with 1 "
            "spatial dimension, a channel dimension, and an optional batch dimension "
            "(i.e. 2D or 3D inputs).")
    return _channel_dropout(input, input.dim() == 3, p, training, inplace)


def dropout2d(input, p=0.5, training=True, inplace=False):
    """Zero whole 2-D channels. torch warns about inputs that are not 3-D or 4-D, and reads a
    3-D input as ``(N, C, L)`` (1-D channel dropout), with a warning saying so."""
    _check_p(p)
    dim = input.dim()
    if dim not in (3, 4):
        warnings.warn(
            f"dropout2d: Received a {dim}-D input to dropout2d, which is deprecated "
            "and will result in an error in a future release. To retain the behavior "
            "and silence this warning, please use dropout instead. Note that dropout2d "
            "exists to provide channel-wise dropout on inputs with 2 spatial dimensions, "
            "a channel dimension, and an optional batch dimension (i.e. 3D or 4D inputs).",
            stacklevel=_subclass.stacklevel(2))
    if dim == 3:
        warnings.warn(
            "dropout2d: Received a 3D input to dropout2d and assuming that channel-wise "
            "1D dropout behavior is desired - input is interpreted as shape (N, C, L), where C "
            "is the channel dim. This behavior will change in a future release to interpret the "
            "input as one without a batch dimension, i.e. shape (C, H, W). To maintain the 1D "
            "channel-wise dropout behavior, please switch to using dropout1d instead.",
            stacklevel=_subclass.stacklevel(2))
    return _feature_dropout(input, p, training, inplace)


def dropout3d(input, p=0.5, training=True, inplace=False):
    """Zero whole 3-D channels; an unbatched 4-D input is one sample (others warn)."""
    _check_p(p)
    dim = input.dim()
    if dim not in (4, 5):
        warnings.warn(
            f"dropout3d: Received a {dim}-D input to dropout3d, which is deprecated "
            "and will result in an error in a future release. To retain the behavior "
            "and silence this warning, please use dropout instead. Note that dropout3d "
            "exists to provide channel-wise dropout on inputs with 3 spatial dimensions, "
            "a channel dimension, and an optional batch dimension (i.e. 4D or 5D inputs).",
            stacklevel=_subclass.stacklevel(2))
    return _channel_dropout(input, dim == 5, p, training, inplace)


def _channel_dropout(input, batched, p, training, inplace):
    """``_feature_dropout`` of a batch; an unbatched input as a batch of one, as torch."""
    if not batched:
        input = input.unsqueeze_(0) if inplace else input.unsqueeze(0)
    result = _feature_dropout(input, p, training, inplace)
    if not batched:
        result = result.squeeze_(0) if inplace else result.squeeze(0)
    return result


def alpha_dropout(input, p=0.5, training=False, inplace=False):
    """Dropout for SELU networks: a dropped element goes to SELU's negative saturation, and
    the result is rescaled and shifted to keep zero mean and unit variance. Note torch's
    default ``training=False`` here: the function does nothing unless told to."""
    _check_p(p)
    op = _dropout.alpha_dropout_ if inplace else _dropout.alpha_dropout
    return op.as_function(input, p, training)


def feature_alpha_dropout(input, p=0.5, training=False, inplace=False):
    """``alpha_dropout`` of whole channels (``training=False`` by default, as torch's)."""
    _check_p(p)
    op = _dropout.feature_alpha_dropout_ if inplace else _dropout.feature_alpha_dropout
    return op.as_function(input, p, training)


one_hot = _nn_builtin(_embedding.one_hot)  # torch's F.one_hot is the compiled op


def embedding(input, weight, padding_idx=None, max_norm=None, norm_type=2.0,
              scale_grad_by_freq=False, sparse=False):
    """The rows of ``weight`` picked by the indices in ``input``; with ``max_norm``, the rows
    used are first renormalised in place, as torch does (``sparse`` is not supported)."""
    if padding_idx is not None:
        if padding_idx > 0:
            assert padding_idx < weight.size(0), "Padding_idx must be within num_embeddings"
        elif padding_idx < 0:
            assert padding_idx >= -weight.size(0), "Padding_idx must be within num_embeddings"
            padding_idx = weight.size(0) + padding_idx
    else:
        padding_idx = -1
    _unsupported(sparse=sparse or None)
    if max_norm is not None:
        _embedding.embedding_renorm_(weight, input, max_norm, norm_type)
    return _embedding.embedding.as_function(weight, input, padding_idx, scale_grad_by_freq, sparse)


def mse_loss(input, target, size_average=None, reduce=None, reduction="mean", weight=None):
    if target.size() != input.size():  # size(): torch's error for a non-tensor
        warnings.warn(f"Using a target size ({target.shape!r}) that is different to the input "
                      f"size ({input.shape!r}). This will likely lead to incorrect results due "
                      "to broadcasting. Please ensure they have the same size.", UserWarning,
                      stacklevel=_subclass.stacklevel(2))
    if size_average is not None or reduce is not None:
        reduction = _legacy_reduction(size_average, reduce)
    input, target = _broadcast(input, target)
    if weight is not None:  # torch's composition: sum(weight (input - target)^2) / sum(weight)
        return _weighted(lambda: (input - target).pow(2), input, weight, reduction)
    return _mse_loss.as_function(input, target, _reduction_enum(None, None, reduction))


@_parses('mse_loss(Tensor input, Tensor target, int reduction = 1)')
def _mse_loss(input, target, reduction=1):
    """``torch._C._nn.mse_loss``, which F.mse_loss hands its arguments to: under vmap, its
    batching rule (``func/_batched.py``); ``reduction``: torch's enum (0 none, 1 mean, 2 sum)."""
    return nn_ops.mse_loss(input, target, _REDUCTIONS[reduction])


_REDUCTIONS = ("none", "mean", "sum")


def _weighted(errors, input, weight, reduction: str):
    """A loss with ``weight=`` (mse_loss, l1_loss) as torch composes it: ``errors() * weight``,
    then nothing, its sum, or its sum over ``weight``'s sum."""
    if weight.shape != input.shape:
        raise ValueError("Weights and input must have the same size.")
    weighted = errors() * weight
    if reduction == "none":
        return weighted
    if reduction == "sum":
        return weighted.sum()
    if reduction == "mean":
        return weighted.sum() / weight.sum()
    raise ValueError(f"Invalid reduction mode: {reduction}. Expected one of 'none', 'mean', "
                     "'sum'.")


def _broadcast(a, b):
    """Both expanded to their common shape, as ``torch.broadcast_tensors`` (a tensor that
    already has that shape is returned as it is)."""
    if a.shape == b.shape:
        return a, b
    _check_same_shape_broadcast(a._data, b._data)
    shape = tuple(np.broadcast_shapes(a.shape, b.shape))
    return (a if a.shape == shape else a.expand(*shape),
            b if b.shape == shape else b.expand(*shape))


def _get_softmax_dim(name, ndim, stacklevel):
    """torch's deprecated default: dim 0 for 0-, 1- and 3-D inputs, else 1, with a warning."""
    warnings.warn(f"Implicit dimension choice for {name} has been deprecated. Change the call "
                  "to include dim=X as an argument.", stacklevel=_subclass.stacklevel(stacklevel))
    return 0 if ndim in (0, 1, 3) else 1


def softmax(input, dim=None, _stacklevel=3, dtype=None):
    if dim is None:
        dim = _get_softmax_dim("softmax", input.dim(), _stacklevel)
    if dtype is None:  # the method: torch's checks of dim and dtype
        return input.softmax(dim)
    return input.softmax(dim, dtype=dtype)


def log_softmax(input, dim=None, _stacklevel=3, dtype=None):
    if dim is None:
        dim = _get_softmax_dim("log_softmax", input.dim(), _stacklevel)
    if dtype is None:  # the method: torch's checks of dim and dtype
        return input.log_softmax(dim)
    return input.log_softmax(dim, dtype=dtype)


def nll_loss(input, target, weight=None, size_average=None, ignore_index=-100, reduce=None,
             reduction="mean"):
    """Minus the log-probability of each target class, times its class ``weight`` if given."""
    if size_average is not None or reduce is not None:
        reduction = _legacy_reduction(size_average, reduce)
    return _nll_loss_nd.as_function(input, target, weight,
                                    _reduction_enum(None, None, reduction), ignore_index)


# F.nll_loss and F.cross_entropy hand their arguments to torch's compiled nll_loss_nd and
# cross_entropy_loss: their parsers' checks (the ops' own checks are in _ops/nll.py).
@_parses('nll_loss_nd(Tensor input, Tensor target, Tensor? weight = None, int reduction = 1, '
        'int ignore_index = -100)')
def _nll_loss_nd(input, target, weight=None, reduction=1, ignore_index=-100):
    """The op (``_ops/nll.py``), through the parser: under vmap, its batching rule."""
    return _nll.nll_loss(input, target, ignore_index, _REDUCTIONS[reduction], weight)


@_parses('cross_entropy_loss(Tensor input, Tensor target, Tensor? weight = None, '
        'int reduction = 1, int ignore_index = -100, float label_smoothing = 0.0)')
def _cross_entropy_args(input, target, weight=None, reduction=1, ignore_index=-100,
                        label_smoothing=0.0):
    """Nothing beyond the parser."""


def cross_entropy(input, target, weight=None, size_average=None, ignore_index=-100,
                  reduce=None, reduction="mean", label_smoothing=0.0):
    """log_softmax then nll_loss; a target shaped like the input holds class probabilities.
    ``label_smoothing`` mixes in the uniform distribution, as torch does: for class indices,
    ``(1 - ls) * nll + ls / C * (the mean of -log p over all classes)``; for probabilities, the
    target itself becomes ``target * (1 - ls) + ls / C``."""
    if size_average is not None or reduce is not None:
        reduction = _legacy_reduction(size_average, reduce)
    enum = _reduction_enum(None, None, reduction)
    reduction = _REDUCTIONS[enum]  # ('elementwise_mean', deprecated, is 'mean')
    _cross_entropy_args.as_function(input, target, weight, enum, ignore_index, label_smoothing)
    if label_smoothing > 1.0:  # torch checks only a positive one (a negative one is 0)
        raise RuntimeError(f"label_smoothing must be between 0.0 and 1.0. Got: "
                           f"{label_smoothing:g}")
    class_dim = 0 if input.dim() == 1 else 1
    if target.shape != input.shape:
        log_p = log_softmax(input, class_dim)
        nll = _nll_loss_nd.as_function(log_p, target, weight, _REDUCTIONS.index(reduction),
                                       ignore_index)
        if label_smoothing <= 0.0:
            return nll
        return _smoothed(nll, log_p, target, weight, ignore_index, reduction, label_smoothing,
                         class_dim)
    if not target.dtype.is_floating_point:
        raise RuntimeError(f"Expected floating point type for target with class probabilities, "
                           f"got {nn_ops._short(target.dtype)}")
    if ignore_index >= 0:
        raise RuntimeError("ignore_index is not supported for floating point target")
    nn_ops._check_reduction(reduction)
    n_classes = input.shape[class_dim]
    if weight is not None and (weight.dim() != 1 or weight.numel() != n_classes):
        raise RuntimeError(f"cross_entropy: weight tensor should be defined either for all "
                           f"{n_classes} classes or no classes but got weight tensor of shape: "
                           f"{list(weight.shape)}")
    if label_smoothing > 0.0:
        target = _add_scalar(_mul_scalar(target, 1 - label_smoothing),
                            label_smoothing / n_classes)
    loss = log_softmax(input, class_dim) * target  # torch's order: log-probabilities first
    if weight is not None:  # a weight per class, along the class dimension
        shape = [1] * input.dim()
        shape[class_dim] = n_classes
        loss = loss * (weight.view(shape) if input.dim() > 1 else weight)
    if reduction == "none":
        return -loss.sum(class_dim)
    if reduction == "sum":
        return -loss.sum()
    if input.numel() == 0:
        return -loss.sum().fill_(float("nan"))
    return nn_ops.div_by_count(-loss.sum(), input.numel() // input.shape[class_dim])


def _smoothed(nll, log_p, target, weight, ignore_index, reduction, label_smoothing, class_dim):
    """Class-index cross-entropy with label smoothing, in the ops of torch's
    ``cross_entropy_loss_label_smoothing`` (so the graph is torch's): the smoothing term is
    ``-sum(log p)`` per sample (weighted per class), 0 for an ignored target, reduced as the
    loss (a weighted mean divides by the counted targets' weights)."""
    ignored = target == ignore_index
    if weight is not None:
        shape = [1] * log_p.dim()
        shape[class_dim] = weight.shape[0]
        smooth = -(log_p * weight.view(shape)).sum(class_dim)
    else:
        smooth = -log_p.sum(class_dim)
    smooth.masked_fill_(ignored, 0.0)
    if reduction == "mean":
        if weight is not None:
            total = weight.gather(0, target.masked_select(~ignored).flatten()).sum()
        else:
            total = (~ignored).sum()
        smooth = smooth.sum() / total
    elif reduction == "sum":
        smooth = smooth.sum()
    n_classes = log_p.shape[class_dim]
    return _mul_scalar(nll, 1 - label_smoothing) + _mul_scalar(smooth, label_smoothing / n_classes)


def binary_cross_entropy_with_logits(input, target, weight=None, size_average=None, reduce=None,
                                     reduction="mean", pos_weight=None):
    """Binary cross-entropy of ``sigmoid(input)``, fused and stable (see ``_ops/bce.py``)."""
    if size_average is not None or reduce is not None:
        reduction = _legacy_reduction(size_average, reduce)
    if target.size() != input.size():  # size(): torch's error for a non-tensor
        raise ValueError(f"Target size ({target.shape!r}) must be the same as input size "
                         f"({input.shape!r})")
    return _bce_with_logits.as_function(input, target, weight, pos_weight,
                                        _reduction_enum(None, None, reduction))


@_parses('binary_cross_entropy_with_logits(Tensor input, Tensor target, Tensor? weight = None, '
        'Tensor? pos_weight = None, int reduction = 1)')
def _bce_with_logits(input, target, weight=None, pos_weight=None, reduction=1):
    """The compiled op F.binary_cross_entropy_with_logits hands its arguments to (under
    vmap, its batching rule: torch's composite, ``func/_batched.py``)."""
    return bce.binary_cross_entropy_with_logits(input, target, weight, pos_weight,
                                                _REDUCTIONS[reduction])



def layer_norm(input, normalized_shape, weight=None, bias=None, eps=1e-5):
    """Normalise over the last dims (``normalized_shape``, a tuple: a bare int is refused, as
    torch refuses it; nn.LayerNorm makes one), then scale and shift: one fused node,
    ``NativeLayerNormBackward0`` (see ``_ops/normalization.py``). The arguments go through the
    parser of torch's ``torch.layer_norm``, which F.layer_norm calls."""
    return _layer_norm.as_function(input, normalized_shape, weight, bias, eps, True)


@_parses('layer_norm(Tensor input, tuple of ints normalized_shape, Tensor? weight = None, '
        'Tensor? bias = None, float eps = 1e-05, bool cudnn_enable = True)')
def _layer_norm(input, normalized_shape, weight=None, bias=None, eps=1e-5, cudnn_enable=True):
    return _normalization.native_layer_norm(input, normalized_shape, weight, bias, eps)


def rms_norm(input, normalized_shape, weight=None, eps=None):
    """Divide by the root mean square over the last dims, then scale: composed from basic
    ops, as torch's ``rms_norm`` composes them on the CPU (``MulBackward0`` over
    ``RsqrtBackward0``, ``AddBackward1``, ``MeanBackward1``, ``PowBackward0``; a
    ``CloneBackward0`` on top when the result is not contiguous). float16 is
    computed in float32, scaled, and cast back to the input's dtype (a weight of another dtype
    too); ``eps`` defaults to that dtype's machine epsilon."""
    return _rms_norm.as_function(input, normalized_shape, weight, eps)


@_parses('rms_norm(Tensor input, tuple of ints normalized_shape, Tensor? weight = None, '
        'float? eps = None)')
def _rms_norm(input, normalized_shape, weight=None, eps=None):
    normalized_shape = tuple(normalized_shape)
    _normalization.check_shapes(input, normalized_shape, weight, None, sep="")
    if not input.dtype.is_floating_point:
        raise NotImplementedError(f'"rms_norm" not implemented for '
                                  f"'{input.dtype.scalar_name}'")
    if weight is not None and weight.dtype != input.dtype and not _rms_norm_warned:
        _rms_norm_warned.append(True)  # torch's TORCH_WARN_ONCE: once per process
        c_name = _dtype._C_FLOAT_NAMES.get
        warnings.warn(f"Mismatch dtype between input and weight: input dtype = "
                      f"{c_name(input.dtype.name)}, weight dtype = {c_name(weight.dtype.name)}, "
                      f"Cannot dispatch to fused implementation.",
                      stacklevel=_subclass.stacklevel(3))
    opmath = _dtype.float32 if input.dtype == _dtype.float16 else input.dtype
    upcast = input.to(opmath)
    if eps is None:
        eps = float(np.finfo(opmath.numpy).eps)
    dims = [input.dim() - i - 1 for i in range(len(normalized_shape))]  # torch's order
    # torch adds eps in place to the mean (AddBackward1, the number overload)
    result = upcast.mul(_add_scalar(upcast.pow(2).mean(dims, keepdim=True), eps).rsqrt())
    if weight is not None:
        result = result.mul(weight)
    return result.contiguous().type_as(input)  # a strided input's result: a CloneBackward0


_rms_norm_warned = []


# --- binary_cross_entropy (one fused node, _ops/loss.py), l1_loss (composite, as torch's)
def binary_cross_entropy(input, target, weight=None, size_average=None, reduce=None,
                         reduction="mean"):
    """Binary cross-entropy of probabilities in [0, 1]; each log is clamped at -100."""
    if size_average is not None or reduce is not None:
        reduction = _legacy_reduction(size_average, reduce)
    elif reduction not in ("none", "mean", "sum"):
        raise ValueError(f"{reduction} is not a valid value for reduction")
    if target.size() != input.size():  # size(): torch's error for a non-tensor
        raise ValueError(f"Using a target size ({target.shape!r}) that is different to the "
                         f"input size ({input.shape!r}) is deprecated. Please ensure they have "
                         "the same size.")
    if weight is not None:
        weight = weight.expand(*_broadcast_shape(target.shape, weight.shape))
    return _binary_cross_entropy.as_function(input, target, weight, _REDUCTIONS.index(reduction))


@_parses('binary_cross_entropy(Tensor input, Tensor target, Tensor? weight = None, '
        'int reduction = 1)')
def _binary_cross_entropy(input, target, weight=None, reduction=1):
    """``torch._C._nn.binary_cross_entropy``, which F.binary_cross_entropy hands its arguments
    to: under vmap, its batching rule (``func/_batched.py``)."""
    return _loss.binary_cross_entropy(input, target, weight, _REDUCTIONS[reduction])


def _broadcast_shape(a, b):
    """torch.broadcast_shapes of two shapes, with its error."""
    for i in range(1, min(len(a), len(b)) + 1):
        if a[-i] != b[-i] and a[-i] != 1 and b[-i] != 1:
            bad, first = (b, a) if b[-i] != 1 else (a, b)
            raise RuntimeError(f"Attempting to broadcast a dimension of length {bad[-i]} at "
                               f"-{i}! Mismatching argument at index 1 had {bad!r}; but expected "
                               f"shape should be broadcastable to {list(first)}")
    return tuple(np.broadcast_shapes(tuple(a), tuple(b)))


def l1_loss(input, target, size_average=None, reduce=None, reduction="mean", weight=None):
    """The mean (or sum, or each) of ``|input - target|``. torch 2.13 composes it from basic
    ops, so the graph is ``SubBackward0``, ``AbsBackward0``, then ``MeanBackward0`` or
    ``SumBackward0``; with ``weight``, ``sum(weight |input - target|) / sum(weight)``."""
    if target.size() != input.size():  # size(): torch's error for a non-tensor
        warnings.warn(f"Using a target size ({target.shape!r}) that is different to the input "
                      f"size ({input.shape!r}). This will likely lead to incorrect results due "
                      "to broadcasting. Please ensure they have the same size.",
                      stacklevel=_subclass.stacklevel(2))
    if size_average is not None or reduce is not None:
        reduction = _legacy_reduction(size_average, reduce)
    input, target = _broadcast(input, target)
    if weight is not None:
        return _weighted(lambda: (input - target).abs(), input, weight, reduction)
    return _l1_loss.as_function(input, target, _reduction_enum(None, None, reduction))


@_parses('l1_loss(Tensor input, Tensor target, int reduction = 1)')
def _l1_loss(input, target, reduction=1):
    """``torch._C._nn.l1_loss`` (F.l1_loss's, and F.smooth_l1_loss's for ``beta=0``): a
    composite in torch 2.13, ``|input - target|`` then its mean or sum (``reduction``: torch's
    enum, 0 none, 1 mean, 2 sum)."""
    errors = (input - target).abs()
    if reduction == 0:
        return errors
    return errors.mean() if reduction == 1 else errors.sum()


def _warn_size_mismatch(input, target):
    if target.size() != input.size():  # size(): torch's error for a non-tensor
        warnings.warn(f"Using a target size ({target.shape!r}) that is different to the input "
                      f"size ({input.shape!r}). This will likely lead to incorrect results due "
                      "to broadcasting. Please ensure they have the same size.",
                      stacklevel=_subclass.stacklevel(3))


def huber_loss(input, target, reduction="mean", delta=1.0, weight=None):
    """Quadratic below ``delta``, linear above: one fused node (``_ops/robust_loss.py``, whose
    parser checks ``delta``); with ``weight``, the unreduced loss times the weights, then
    reduced."""
    _warn_size_mismatch(input, target)
    input, target = _broadcast(input, target)
    if weight is None:
        return _robust_loss.huber_loss.as_function(input, target,
                                                   _reduction_enum(None, None, reduction), delta)
    if weight.shape != input.shape:
        raise ValueError("Weights and input must have the same size.")
    weighted = _robust_loss.huber_loss.as_function(input, target, 0, delta) * weight
    if reduction == "none":
        return weighted
    if reduction == "sum":
        return weighted.sum()
    if reduction == "mean":
        return weighted.mean()
    raise ValueError(f"Invalid reduction mode: {reduction}. Expected one of 'none', 'mean', "
                     "'sum'.")


def smooth_l1_loss(input, target, size_average=None, reduce=None, reduction="mean", beta=1.0):
    """Huber's loss divided by ``beta`` (one fused node, ``_ops/robust_loss.py``, whose parser
    checks ``beta``); ``beta == 0`` is compared first, in Python as torch's F does, and is
    ``l1_loss``."""
    _warn_size_mismatch(input, target)
    if size_average is not None or reduce is not None:
        reduction = _legacy_reduction(size_average, reduce)
    input, target = _broadcast(input, target)
    if beta == 0.0:
        return _l1_loss.as_function(input, target, _reduction_enum(None, None, reduction))
    return _robust_loss.smooth_l1_loss.as_function(input, target,
                                                   _reduction_enum(None, None, reduction), beta)


def _legacy_reduction(size_average, reduce):
    """torch's mapping of the deprecated ``size_average``/``reduce`` flags to a reduction.
    Its warning names the library's line that asked (torch's stacklevel=2), not the
    learner's, so Python's default filter shows it once, as torch's."""
    size_average = True if size_average is None else size_average
    reduce = True if reduce is None else reduce
    ret = ("mean" if size_average else "sum") if reduce else "none"
    warnings.warn(f"size_average and reduce args will be deprecated, please use "
                  f"reduction='{ret}' instead.", stacklevel=_subclass.stacklevel(2))
    return ret


# --- statistics_losses: distances (minigrad/_ops/distance.py)
def normalize(input, p=2.0, dim=1, eps=1e-12, out=None):
    """Each vector along ``dim`` divided by its p-norm (at least ``eps``), composed as torch's:
    ``input / input.norm(p, dim, keepdim=True).clamp_min(eps).expand_as(input)``."""
    if out is None:
        denom = input.norm(p, dim, keepdim=True).clamp_min(eps).expand_as(input)
        return input / denom
    denom = input.norm(p, dim, keepdim=True).clamp_min_(eps).expand_as(input)
    return _div.as_function(input, denom, out=out)


_PAD_MODES = ("constant", "reflect", "replicate", "circular")


@_parses('pad(Tensor input, tuple of ints pad, str mode = "constant", float? value = None)')
def _pad(input, pad, mode="constant", value=None):
    """A border around the last ``len(pad) // 2`` dims: ``pad`` is (left, right) for the last
    dim, then for the one before... Constant mode (``value``, 0 by default) is torch's
    ``constant_pad_nd``; a negative pad crops."""
    if len(pad) % 2:
        raise RuntimeError("Padding length must be divisible by 2")
    if len(pad) // 2 > input.dim():
        raise RuntimeError(f"Padding length should be less than or equal to two times the input "
                           f"dimension but got padding length {len(pad)} and input of dimension "
                           f"{input.dim()}")
    if mode not in _PAD_MODES:
        raise NotImplementedError(f"Unrecognised padding mode {mode}")
    if mode != "constant":
        if value is not None and value != 0:
            raise RuntimeError(f'Padding mode "{mode}" doesn\'t take in value argument')
        raise NotImplementedError(f"minigrad's F.pad has mode='constant' only, not "
                                  f"mode={mode!r}; run this code with torch")
    return _padding.constant_pad_nd.as_function(input, pad, 0 if value is None else value)


def pad(input, pad, mode="constant", value=None):  # noqa: A002 - torch's names
    """torch's F.pad: a Python function that hands its arguments to the compiled pad."""
    return _pad.as_function(input, pad, mode, value)


cosine_similarity = _distance.cosine_similarity.as_function
pairwise_distance = _distance.pairwise_distance.as_function


# --- statistics_losses: losses torch composes in C++ (minigrad/_ops/composite_loss.py)
def _reduction_enum(size_average, reduce, reduction):
    """torch's ``_Reduction``: the legacy flags (with their warning) or the reduction's name,
    as the enum the composite losses take (0 none, 1 mean, 2 sum)."""
    if size_average is not None or reduce is not None:
        reduction = _legacy_reduction(size_average, reduce)
    if reduction == "elementwise_mean":
        warnings.warn("reduction='elementwise_mean' is deprecated. Please use reduction='mean' "
                      "instead.", stacklevel=_subclass.stacklevel(3))
        return 1
    if reduction not in ("none", "mean", "sum"):
        raise ValueError(f"{reduction} is not a valid value for reduction")
    return ("none", "mean", "sum").index(reduction)


def kl_div(input, target, size_average=None, reduce=None, reduction="mean", log_target=False):
    """KL divergence of ``target`` from ``input`` (log-probabilities); ``'batchmean'`` is the
    sum divided by the batch size, the true KL divergence per sample."""
    if size_average is not None or reduce is not None:
        enum = _reduction_enum(size_average, reduce, reduction)
    else:
        if reduction == "mean":
            warnings.warn("reduction: 'mean' divides the total loss by both the batch size and "
                          "the support size.'batchmean' divides only by the batch size, and "
                          "aligns with the KL div math definition.'mean' will be changed to "
                          "behave the same as 'batchmean' in the next major release.",
                          stacklevel=_subclass.stacklevel(2))
        enum = 2 if reduction == "batchmean" else _reduction_enum(None, None, reduction)
    reduced = _composite.kl_div.as_function(input, target, enum, log_target=log_target)
    if reduction == "batchmean" and input.dim() != 0:
        reduced = reduced / input.size()[0]
    return reduced


def margin_ranking_loss(input1, input2, target, margin=0, size_average=None, reduce=None,
                        reduction="mean"):
    enum = _reduction_enum(size_average, reduce, reduction)
    if input1.dim() != input2.dim() or input1.dim() != target.dim():
        raise RuntimeError(f"margin_ranking_loss : All input tensors should have same dimension "
                           f"but got sizes: input1: {input1.size()}, input2: {input2.size()}, "
                           f"target: {target.size()} ")
    return _composite.margin_ranking_loss.as_function(input1, input2, target, margin, enum)


def hinge_embedding_loss(input, target, margin=1.0, size_average=None, reduce=None,
                         reduction="mean"):
    enum = _reduction_enum(size_average, reduce, reduction)
    return _composite.hinge_embedding_loss.as_function(input, target, margin, enum)


def cosine_embedding_loss(input1, input2, target, margin=0, size_average=None, reduce=None,
                          reduction="mean"):
    enum = _reduction_enum(size_average, reduce, reduction)
    return _composite.cosine_embedding_loss.as_function(input1, input2, target, margin, enum)


def triplet_margin_loss(anchor, positive, negative, margin=1.0, p=2, eps=1e-6, swap=False,
                        size_average=None, reduce=None, reduction="mean"):
    enum = _reduction_enum(size_average, reduce, reduction)
    if margin <= 0:
        raise ValueError(f"margin must be greater than 0, got {margin}")
    return _composite.triplet_margin_loss.as_function(anchor, positive, negative, margin, p, eps,
                                                      swap, enum)


def poisson_nll_loss(input, target, log_input=True, full=False, size_average=None, eps=1e-8,
                     reduce=None, reduction="mean"):
    if size_average is not None or reduce is not None:
        reduction = _legacy_reduction(size_average, reduce)
    if reduction not in ("none", "mean", "sum"):
        raise ValueError(reduction + " is not a valid value for reduction")
    return _composite.poisson_nll_loss.as_function(input, target, log_input, full, eps,
                                                   ("none", "mean", "sum").index(reduction))


def multilabel_soft_margin_loss(input, target, weight=None, size_average=None, reduce=None,
                                reduction="mean"):
    """One binary cross-entropy per class (from logits), averaged over the classes; composed
    as torch's Python code composes it."""
    if size_average is not None or reduce is not None:
        reduction = _legacy_reduction(size_average, reduce)
    loss = -(target * logsigmoid(input) + (1 - target) * logsigmoid(-input))
    if weight is not None:
        loss = loss * weight
    class_dim = input.dim() - 1
    classes = input.size(class_dim)
    loss = loss.sum(dim=class_dim) / classes
    if reduction == "none":
        return loss
    if reduction == "mean":
        return loss.mean()
    if reduction == "sum":
        return loss.sum()
    raise ValueError(reduction + " is not valid")


def multi_margin_loss(input, target, p=1, margin=1.0, weight=None, size_average=None,
                      reduce=None, reduction="mean"):
    """The multi-class hinge loss: one fused node (``_ops/multi_margin.py``)."""
    enum = _reduction_enum(size_average, reduce, reduction)
    if p != 1 and p != 2:
        raise ValueError("only p == 1 and p == 2 supported")
    if weight is not None and weight.dim() != 1:
        raise ValueError("weight must be one-dimensional")
    return _multi_margin_loss.as_function(input, target, p, margin, weight, enum)


def soft_margin_loss(input, target, size_average=None, reduce=None, reduction="mean"):
    """``log(1 + exp(-target * input))`` reduced: one fused node (``_ops/soft_margin.py``)."""
    enum = _reduction_enum(size_average, reduce, reduction)
    return _soft_margin_loss.as_function(input, target, enum)


@_parses('multi_margin_loss(Tensor input, Tensor target, Number p = 1, Number margin = 1, '
         'Tensor? weight = None, int reduction = 1)')
def _multi_margin_loss(input, target, p=1, margin=1, weight=None, reduction=1):
    """The compiled op F.multi_margin_loss hands its arguments to (under vmap, torch's
    fallback: per sample)."""
    return _multi_margin.multi_margin_loss(input, target, p, margin, weight,
                                           _REDUCTIONS[reduction])


@_parses('soft_margin_loss(Tensor input, Tensor target, int reduction = 1)')
def _soft_margin_loss(input, target, reduction=1):
    """The compiled op F.soft_margin_loss hands its arguments to (under vmap, torch's
    fallback: per sample)."""
    return _soft_margin.soft_margin_loss(input, target, _REDUCTIONS[reduction])


def gaussian_nll_loss(input, target, var, full=False, eps=1e-6, reduction="mean"):
    """The negative log-likelihood of ``target`` under a Gaussian of mean ``input`` and
    variance ``var`` (clamped at ``eps`` on a clone, where autograd does not look), composed as
    torch's Python code composes it."""
    if isinstance(var, float):
        if var < 0:
            raise ValueError("var has negative entry/entries")
        var = var * _creation.ones_like(input)
    elif (var < 0).any():
        raise ValueError("var has negative entry/entries")
    if var.size() != input.size():
        if input.size()[:-1] == var.size():
            var = var.unsqueeze(-1)
        elif input.dim() == var.dim() and sum(
                y for x, y in zip(input.size(), var.size(), strict=True) if x != y) == 1:
            pass
        else:
            raise ValueError("var is of incorrect size")
    if reduction not in ("none", "mean", "sum"):
        raise ValueError(reduction + " is not valid")
    var = var.clone()
    with grad_mode.no_grad():
        var.clamp_(min=eps)
    loss = 0.5 * (var.log() + (input - target) ** 2 / var)
    if full:
        loss += 0.5 * math.log(2 * math.pi)
    if reduction == "mean":
        return loss.mean()
    if reduction == "sum":
        return loss.sum()
    return loss


def _unsupported(**options):
    for name, value in options.items():
        if value is not None:
            raise NotImplementedError(f"minigrad's nn.functional does not support {name}")


# --- the activations group's block (one node each where torch has one: _ops/activation.py)
def hardtanh(input, min_val=-1.0, max_val=1.0, inplace=False):
    if min_val > max_val:
        raise ValueError("min_val cannot be greater than max_val")
    if inplace:
        return activation.hardtanh_.as_function(input, min_val, max_val)
    return activation.hardtanh.as_function(input, min_val, max_val)


hardtanh_ = _nn_builtin(activation.hardtanh_)  # torch's builtin: its bounds the ints -1 and 1


def relu6(input, inplace=False):
    """hardtanh between 0 and 6 (its node is HardtanhBackward0, as in torch)."""
    if inplace:
        return activation.relu6_.as_function(input)
    return activation.relu6.as_function(input)


# torch's builtin log_sigmoid (LogSigmoidBackward0, which keeps a buffer)
logsigmoid = _nn_builtin(activation.log_sigmoid, "log_sigmoid")


def selu(input, inplace=False):
    """elu with fixed constants: EluBackward0 (EluBackward1 in place), as torch's."""
    return (activation.selu_ if inplace else activation.selu).as_function(input)


selu_ = activation.selu_.as_function  # torch.selu_ itself, as the next few


def celu(input, alpha=1.0, inplace=False):
    return (activation.celu_ if inplace else activation.celu).as_function(input, alpha)


celu_ = activation.celu_.as_function


def mish(input, inplace=False):
    return (activation.mish_ if inplace else activation.mish).as_function(input)


def hardsigmoid(input, inplace=False):
    return (activation.hardsigmoid_ if inplace else activation.hardsigmoid).as_function(input)


def hardswish(input, inplace=False):
    return (activation.hardswish_ if inplace else activation.hardswish).as_function(input)


# composites in torch too: their graphs are the pieces'
def tanhshrink(input):
    return input - input.tanh()


def softsign(input):
    return input / (input.abs() + 1)


def softmin(input, dim=None, _stacklevel=3, dtype=None):
    """softmax of ``-input``: NegBackward0 then SoftmaxBackward0, as torch's."""
    if dim is None:
        dim = _get_softmax_dim("softmin", input.dim(), _stacklevel)
    if dtype is None:
        return (-input).softmax(dim)
    return (-input).softmax(dim, dtype=dtype)


def threshold(input, threshold, value, inplace=False):
    """``value`` where ``input <= threshold``: ThresholdBackward0 (ThresholdBackward1 in
    place)."""
    fn = activation.threshold_ if inplace else activation.threshold
    return fn.as_function(input, threshold, value)


threshold_ = activation.threshold_.as_function
softshrink = _nn_builtin(activation.softshrink)
hardshrink = activation.hardshrink.as_function


def glu(input, dim=-1):
    if input.dim() == 0:
        raise RuntimeError("glu does not support scalars because halving size must be even")
    return activation.glu.as_function(input, dim)


prelu = activation.prelu.as_function  # torch.prelu: the weight viewed along dim 1


def __getattr__(name):
    """Only reached for names this module does not define (PEP 562); see ``_left_out``."""
    raise _left_out.missing(__name__, name)
