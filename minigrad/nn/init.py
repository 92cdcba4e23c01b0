"""Filling weights in place with random numbers (``torch.nn.init``).

The recipes and the random numbers are torch's: after the same ``manual_seed``, a freshly made
layer has torch's values. All functions work under ``no_grad`` and change the tensor in place
(its version goes up).
"""

from __future__ import annotations

import math
import warnings

import numpy as np

from minigrad import _left_out
from minigrad._creation import _normal, _uniform
from minigrad._tensor import Tensor
from minigrad.autograd.grad_mode import no_grad


def calculate_gain(nonlinearity, param=None):
    linear = ("linear", "conv1d", "conv2d", "conv3d", "conv_transpose1d", "conv_transpose2d",
              "conv_transpose3d", "sigmoid")
    if nonlinearity in linear:
        return 1
    if nonlinearity == "tanh":
        return 5.0 / 3
    if nonlinearity == "relu":
        return math.sqrt(2.0)
    if nonlinearity == "leaky_relu":
        slope = 0.01 if param is None else param
        return math.sqrt(2.0 / (1 + slope**2))
    if nonlinearity == "selu":
        return 3.0 / 4
    raise ValueError(f"Unsupported nonlinearity {nonlinearity}")


def _calculate_fan_in_and_fan_out(tensor):
    if tensor.dim() < 2:
        raise ValueError("Fan in and fan out can not be computed for tensor with fewer than 2 "
                         "dimensions")
    receptive = int(np.prod(tensor.shape[2:])) if tensor.dim() > 2 else 1
    return tensor.shape[1] * receptive, tensor.shape[0] * receptive


def _fill(tensor, values):
    with no_grad():
        tensor.copy_(Tensor._make(np.asarray(values, dtype=tensor._data.dtype)))
    return tensor


def uniform_(tensor, a=0.0, b=1.0, generator=None):
    return _fill(tensor, _uniform(tuple(tensor.shape), tensor.dtype, a, b, generator))


def normal_(tensor, mean=0.0, std=1.0, generator=None):
    return _fill(tensor, _normal(tuple(tensor.shape), tensor.dtype, mean, std, generator))


def constant_(tensor, val):
    with no_grad():
        return tensor.fill_(val)


def zeros_(tensor):
    return constant_(tensor, 0.0)


def ones_(tensor):
    return constant_(tensor, 1.0)


def _calculate_correct_fan(tensor, mode):
    mode = mode.lower()
    valid_modes = ["fan_in", "fan_out"]
    if mode not in valid_modes:
        raise ValueError(f"Mode {mode} not supported, please use one of {valid_modes}")
    fan_in, fan_out = _calculate_fan_in_and_fan_out(tensor)
    return fan_in if mode == "fan_in" else fan_out


def _no_op(tensor) -> bool:
    """A tensor with no numbers: torch warns and leaves it (the Kaiming recipes)."""
    if 0 in tensor.shape:
        warnings.warn("Initializing zero-element tensors is a no-op", stacklevel=3)
        return True
    return False


def kaiming_uniform_(tensor, a=0, mode="fan_in", nonlinearity="leaky_relu", generator=None):
    """U(-bound, bound) with bound = gain * sqrt(3 / fan). Linear uses a = sqrt(5), which
    works out to bound = 1 / sqrt(fan_in)."""
    if _no_op(tensor):
        return tensor
    fan = _calculate_correct_fan(tensor, mode)
    std = calculate_gain(nonlinearity, a) / math.sqrt(fan)
    bound = math.sqrt(3.0) * std  # torch's order of operations, which rounds the same
    return uniform_(tensor, -bound, bound, generator)


def kaiming_normal_(tensor, a=0, mode="fan_in", nonlinearity="leaky_relu", generator=None):
    """N(0, std**2) with std = gain / sqrt(fan): He et al.'s recipe for ReLU networks."""
    if _no_op(tensor):
        return tensor
    fan = _calculate_correct_fan(tensor, mode)
    std = calculate_gain(nonlinearity, a) / math.sqrt(fan)
    return normal_(tensor, 0, std, generator)


def xavier_uniform_(tensor, gain=1.0, generator=None):
    fan_in, fan_out = _calculate_fan_in_and_fan_out(tensor)
    bound = gain * math.sqrt(6.0 / (fan_in + fan_out))
    return uniform_(tensor, -bound, bound, generator)


def xavier_normal_(tensor, gain=1.0, generator=None):
    """N(0, std**2) with std = gain * sqrt(2 / (fan_in + fan_out)) (Glorot and Bengio)."""
    fan_in, fan_out = _calculate_fan_in_and_fan_out(tensor)
    std = gain * math.sqrt(2.0 / float(fan_in + fan_out))
    return normal_(tensor, 0.0, std, generator)


def eye_(tensor):
    """The identity matrix (ones on the diagonal) into a 2-D tensor."""
    if tensor.dim() != 2:
        raise ValueError("Only tensors with 2 dimensions are supported")
    return _fill(tensor, np.eye(*tensor.shape))


def __getattr__(name):
    """Only reached for names this module does not define (PEP 562); see ``_left_out``."""
    raise _left_out.missing(__name__, name)
