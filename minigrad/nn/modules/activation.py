"""Elementwise nonlinearities as modules, so they can sit in a ``Sequential``."""

from __future__ import annotations

import warnings

from minigrad._creation import empty  # .as_function: torch.empty, with its argument checks
from minigrad._ops import pointwise as _pointwise
from minigrad.nn import functional as F
from minigrad.nn import init as _init
from minigrad.nn.modules.module import Module
from minigrad.nn.parameter import Parameter


class ReLU(Module):
    def __init__(self, inplace=False):
        super().__init__()
        self.inplace = inplace

    def forward(self, input):
        return F.relu(input, inplace=self.inplace)

    def extra_repr(self) -> str:
        return "inplace=True" if self.inplace else ""


class Tanh(Module):
    def forward(self, input):
        return _pointwise.tanh.as_function(input)  # torch.tanh: its error for a non-tensor


class Sigmoid(Module):
    def forward(self, input):
        return _pointwise.sigmoid.as_function(input)


class Softmax(Module):
    def __init__(self, dim=None):
        super().__init__()
        self.dim = dim

    def forward(self, input):
        return F.softmax(input, self.dim)

    def extra_repr(self) -> str:
        return f"dim={self.dim}"


class Softmax2d(Module):
    """Softmax over the channels at each location of an image batch (dim -3 of a 3-D or 4-D
    input)."""

    def forward(self, input):
        if input.dim() not in (3, 4):
            raise ValueError(f"Softmax2d: expected input to be 3D or 4D, got {input.dim()}D "
                             f"instead")
        return F.softmax(input, -3)


class LogSoftmax(Softmax):
    def forward(self, input):
        return F.log_softmax(input, self.dim)


class LeakyReLU(Module):
    def __init__(self, negative_slope=0.01, inplace=False):
        super().__init__()
        self.negative_slope = negative_slope
        self.inplace = inplace

    def forward(self, input):
        return F.leaky_relu(input, self.negative_slope, self.inplace)

    def extra_repr(self) -> str:
        return f"negative_slope={self.negative_slope}" + (", inplace=True" if self.inplace else "")


class GELU(Module):
    def __init__(self, approximate="none"):
        super().__init__()
        self.approximate = approximate

    def forward(self, input):
        return F.gelu(input, approximate=self.approximate)

    def extra_repr(self) -> str:
        return f"approximate={self.approximate!r}"


class SiLU(Module):
    def __init__(self, inplace=False):
        super().__init__()
        self.inplace = inplace

    def forward(self, input):
        return F.silu(input, inplace=self.inplace)

    def extra_repr(self) -> str:
        return "inplace=True" if self.inplace else ""


class Softplus(Module):
    def __init__(self, beta=1.0, threshold=20.0):
        super().__init__()
        self.beta = beta
        self.threshold = threshold

    def forward(self, input):
        return F.softplus(input, self.beta, self.threshold)

    def extra_repr(self) -> str:
        return f"beta={self.beta}, threshold={self.threshold}"


class ELU(Module):
    def __init__(self, alpha=1.0, inplace=False):
        super().__init__()
        self.alpha = alpha
        self.inplace = inplace

    def forward(self, input):
        return F.elu(input, self.alpha, self.inplace)

    def extra_repr(self) -> str:
        return f"alpha={self.alpha}" + (", inplace=True" if self.inplace else "")


# --- the activations group's block --------------------------------------------------------------
class Hardtanh(Module):
    def __init__(self, min_val=-1.0, max_val=1.0, inplace=False, min_value=None,
                 max_value=None):
        super().__init__()
        if min_value is not None:
            warnings.warn("keyword argument `min_value` is deprecated and renamed to `min_val`",
                          FutureWarning, stacklevel=2)
            min_val = min_value
        if max_value is not None:
            warnings.warn("keyword argument `max_value` is deprecated and renamed to `max_val`",
                          FutureWarning, stacklevel=2)
            max_val = max_value
        self.min_val = min_val
        self.max_val = max_val
        self.inplace = inplace
        if self.max_val <= self.min_val:
            raise AssertionError(
                f"max_val ({self.max_val}) must be greater than min_val ({self.min_val})")

    def forward(self, input):
        return F.hardtanh(input, self.min_val, self.max_val, self.inplace)

    def extra_repr(self) -> str:
        inplace_str = ", inplace=True" if self.inplace else ""
        return f"min_val={self.min_val}, max_val={self.max_val}{inplace_str}"


class ReLU6(Hardtanh):
    """hardtanh between 0.0 and 6.0 (floats: the node's saved bounds are 0.0 and 6.0, where
    ``F.relu6`` saves 0 and 6, as in torch)."""

    def __init__(self, inplace=False):
        super().__init__(0.0, 6.0, inplace)

    def extra_repr(self) -> str:
        return "inplace=True" if self.inplace else ""


class LogSigmoid(Module):
    def forward(self, input):
        return F.logsigmoid(input)


class SELU(Module):
    def __init__(self, inplace=False):
        super().__init__()
        self.inplace = inplace

    def forward(self, input):
        return F.selu(input, self.inplace)

    def extra_repr(self) -> str:
        return "inplace=True" if self.inplace else ""


class CELU(Module):
    def __init__(self, alpha=1.0, inplace=False):
        super().__init__()
        self.alpha = alpha
        self.inplace = inplace

    def forward(self, input):
        return F.celu(input, self.alpha, self.inplace)

    def extra_repr(self) -> str:
        return f"alpha={self.alpha}" + (", inplace=True" if self.inplace else "")


class Mish(Module):
    def __init__(self, inplace=False):
        super().__init__()
        self.inplace = inplace

    def forward(self, input):
        return F.mish(input, inplace=self.inplace)

    def extra_repr(self) -> str:
        return "inplace=True" if self.inplace else ""


class Hardsigmoid(Module):
    """(torch's repr does not show ``inplace``.)"""

    def __init__(self, inplace=False):
        super().__init__()
        self.inplace = inplace

    def forward(self, input):
        return F.hardsigmoid(input, self.inplace)


class Hardswish(Module):
    """(torch's repr does not show ``inplace``.)"""

    def __init__(self, inplace=False):
        super().__init__()
        self.inplace = inplace

    def forward(self, input):
        return F.hardswish(input, self.inplace)


class Softsign(Module):
    def forward(self, input):
        return F.softsign(input)


class Tanhshrink(Module):
    def forward(self, input):
        return F.tanhshrink(input)


class Softmin(Module):
    def __init__(self, dim=None):
        super().__init__()
        self.dim = dim

    def forward(self, input):
        # torch's _stacklevel=5 names its Module's call machinery (two frames there, one
        # here): a library line, so Python's default filter shows the warning once
        return F.softmin(input, self.dim, _stacklevel=4)

    def extra_repr(self) -> str:
        return f"dim={self.dim}"


class Threshold(Module):
    def __init__(self, threshold, value, inplace=False):
        super().__init__()
        self.threshold = threshold
        self.value = value
        self.inplace = inplace

    def forward(self, input):
        return F.threshold(input, self.threshold, self.value, self.inplace)

    def extra_repr(self) -> str:
        inplace_str = ", inplace=True" if self.inplace else ""
        return f"threshold={self.threshold}, value={self.value}{inplace_str}"


class Softshrink(Module):
    def __init__(self, lambd=0.5):
        super().__init__()
        self.lambd = lambd

    def forward(self, input):
        return F.softshrink(input, self.lambd)

    def extra_repr(self) -> str:
        return str(self.lambd)


class Hardshrink(Softshrink):
    def forward(self, input):
        return F.hardshrink(input, self.lambd)


class GLU(Module):
    def __init__(self, dim=-1):
        super().__init__()
        self.dim = dim

    def forward(self, input):
        return F.glu(input, self.dim)

    def extra_repr(self) -> str:
        return f"dim={self.dim}"


class PReLU(Module):
    """leaky_relu whose slope is a parameter: one, or one per channel (dim 1), 0.25 to
    start."""

    def __init__(self, num_parameters=1, init=0.25, device=None, dtype=None):
        self.num_parameters = num_parameters
        super().__init__()
        self.init = init
        self.weight = Parameter(empty.as_function(num_parameters, dtype=dtype))
        self.reset_parameters()

    def reset_parameters(self):
        _init.constant_(self.weight, self.init)

    def forward(self, input):
        return F.prelu(input, self.weight)

    def extra_repr(self) -> str:
        return f"num_parameters={self.num_parameters}"
