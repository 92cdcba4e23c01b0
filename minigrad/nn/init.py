"""Filling weights in place with random numbers (``torch.nn.init``).

The recipes and the random numbers are torch's: after the same ``manual_seed``, a freshly made
layer has torch's values. All functions work under ``no_grad`` and change the tensor in place
(its version goes up).
"""

from __future__ import annotations

import math
import warnings

import numpy as np

from minigrad import _creation, _left_out
from minigrad._creation import _normal, _uniform
from minigrad._ops.pointwise import where
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
        if param is not None and (isinstance(param, bool) or not isinstance(param, int | float)):
            raise ValueError(f"negative_slope {param} not a valid number")
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


def orthogonal_(tensor, gain=1, generator=None):
    """A (semi-)orthogonal matrix (Saxe et al.), the tensor seen as ``rows x rest``: Q of the
    QR factorization of a normal_ draw, its columns' signs made those of R's diagonal (then Q
    is uniform over the orthogonal matrices). torch takes the QR from LAPACK (geqrf, orgqr),
    as NumPy's ``linalg.qr`` does: the same matrix, within a few ulps (the libraries' sums run
    in their own orders), with the same signs."""
    if tensor.dim() < 2:
        raise ValueError("Only tensors with 2 or more dimensions are supported")
    if tensor.numel() == 0:
        return tensor
    rows = tensor.size(0)
    cols = tensor.numel() // rows
    flattened = _normal((rows, cols), tensor.dtype, 0, 1, generator)
    if rows < cols:
        flattened = flattened.T
    q, r = np.linalg.qr(flattened)
    q = q * np.sign(np.diagonal(r)).astype(q.dtype)
    if rows < cols:
        q = q.T
    with no_grad():
        tensor.view(rows, cols).copy_(Tensor._make(np.ascontiguousarray(q, tensor._data.dtype)))
        tensor.mul_(gain)
    return tensor


def trunc_normal_(tensor, mean=0.0, std=1.0, a=-2.0, b=2.0, generator=None):
    """N(mean, std**2) cut to [a, b], by torch 2.13's rejection sampling, draw for draw: when
    [a, b] holds most of the mass (p > 0.3) the rejected numbers are drawn again from the
    normal; otherwise uniform proposals in [a, b] are accepted with the normal's density
    (log u < log pdf), until every element has one."""
    if (mean < a - 2 * std) or (mean > b + 2 * std):
        warnings.warn("mean is more than 2 std from [a, b] in nn.init.trunc_normal_. The "
                      "distribution of values may be incorrect.", stacklevel=1)  # torch's: init
    with no_grad():
        p = _norm_cdf((b - mean) / std) - _norm_cdf((a - mean) / std)
        if p > 0.3:
            # the bounds in the tensor's dtype, so the test agrees with the stored numbers
            lo = tensor.new_tensor(a).item()
            hi = tensor.new_tensor(b).item()
            result = tensor.normal_(mean, std, generator=generator)
            while True:
                mask = (result < lo) | (result > hi)
                if not mask.any():
                    break
                result = where(mask, _creation.empty_like(result).normal_(
                    mean, std, generator=generator), result)
            if tensor is not result:
                tensor.copy_(result)
            return tensor
        mode = max(a, min(mean, b))
        log_peak = -0.5 * ((mode - mean) / std) ** 2
        candidates = _creation.empty_like(tensor)
        accept_buf = _creation.empty_like(tensor)
        tensor.uniform_(a, b, generator=generator)
        candidates.copy_(tensor)
        candidates.sub_(mean).div_(std).pow_(2).mul_(-0.5).sub_(log_peak)  # log pdf - peak
        pending = accept_buf.uniform_(generator=generator).log_().gt(candidates)
        if not pending.any():
            return tensor
        result = tensor
        while True:
            candidates.uniform_(a, b, generator=generator)
            result = where(pending, candidates, result)
            candidates.sub_(mean).div_(std).pow_(2).mul_(-0.5).sub_(log_peak)
            pending = where(pending, accept_buf.uniform_(generator=generator).log_().gt(
                candidates), pending)
            if not pending.any():
                break
        tensor.copy_(result)
        return tensor


def _norm_cdf(x: float) -> float:
    return (1.0 + math.erf(x / math.sqrt(2.0))) / 2.0


def sparse_(tensor, sparsity, std=0.01, generator=None):
    """N(0, std**2) with ``ceil(sparsity * rows)`` zeros in each column (Martens), the rows
    picked by ``randperm`` from the default generator (torch passes ``generator`` to the
    normal draws only)."""
    if tensor.dim() != 2:
        raise ValueError("Only tensors with 2 dimensions are supported")
    rows, cols = tensor.shape
    num_zeros = math.ceil(sparsity * rows)
    with no_grad():
        tensor.normal_(0, std, generator=generator)
        for col_idx in range(cols):
            row_indices = _creation.randperm(rows)
            tensor[row_indices[:num_zeros], col_idx] = 0
    return tensor


def dirac_(tensor, groups=1):
    """A convolution's identity: a 1 at the centre of the kernel from each input channel to
    its output channel (per group), zeros elsewhere, so the layer passes its input through."""
    dimensions = tensor.dim()
    if dimensions not in [3, 4, 5]:
        raise ValueError("Only tensors with 3, 4, or 5 dimensions are supported")
    sizes = tensor.size()
    if sizes[0] % groups != 0:
        raise ValueError("dim 0 must be divisible by groups")
    out_chans_per_grp = sizes[0] // groups
    min_dim = min(out_chans_per_grp, sizes[1])
    centre = tuple(size // 2 for size in sizes[2:])
    with no_grad():
        tensor.zero_()
        for g in range(groups):
            for d in range(min_dim):
                tensor[(g * out_chans_per_grp + d, d, *centre)] = 1
    return tensor


def _make_deprecate(meth):
    """The names without the trailing underscore, from before PyTorch 0.4 (old books call
    ``nn.init.xavier_uniform(w)``): they still work, with torch's FutureWarning."""
    new_name = meth.__name__
    old_name = new_name[:-1]

    def deprecated_init(*args, **kwargs):
        warnings.warn(f"`nn.init.{old_name}` is now deprecated in favor of `nn.init.{new_name}`.",
                      FutureWarning, stacklevel=2)
        return meth(*args, **kwargs)

    deprecated_init.__name__ = deprecated_init.__qualname__ = old_name
    deprecated_init.__doc__ = f"Deprecated: use ``{new_name}``."
    return deprecated_init


uniform = _make_deprecate(uniform_)
normal = _make_deprecate(normal_)
constant = _make_deprecate(constant_)
eye = _make_deprecate(eye_)
dirac = _make_deprecate(dirac_)
xavier_uniform = _make_deprecate(xavier_uniform_)
xavier_normal = _make_deprecate(xavier_normal_)
kaiming_uniform = _make_deprecate(kaiming_uniform_)
kaiming_normal = _make_deprecate(kaiming_normal_)
orthogonal = _make_deprecate(orthogonal_)
sparse = _make_deprecate(sparse_)


def __getattr__(name):
    """Only reached for names this module does not define (PEP 562); see ``_left_out``."""
    raise _left_out.missing(__name__, name)
