"""``Linear``: y = x W^T + b, with torch's default initialisation; and ``Identity``, which
returns its input itself, adding no node (in torch's ``linear.py`` too, where
``type(nn.Identity())`` names it)."""

from __future__ import annotations

import math

from minigrad._creation import empty  # .as_function: torch.empty, with its argument checks
from minigrad.nn import functional as F
from minigrad.nn import init
from minigrad.nn.modules.module import Module
from minigrad.nn.parameter import Parameter


class Identity(Module):
    """Returns its input, the same tensor; any arguments are accepted and ignored (so it can
    stand in for a layer whose arguments are already written)."""

    def __init__(self, *args, **kwargs):
        super().__init__()

    def forward(self, input):
        return input


class Linear(Module):
    def __init__(self, in_features, out_features, bias=True, device=None, dtype=None):
        super().__init__()
        self.in_features = in_features
        self.out_features = out_features
        self.weight = Parameter(empty.as_function((out_features, in_features), dtype=dtype))
        if bias:
            self.bias = Parameter(empty.as_function(out_features, dtype=dtype))
        else:
            self.register_parameter("bias", None)
        self.reset_parameters()

    def reset_parameters(self):
        """kaiming_uniform_(a=sqrt(5)) gives U(-1/sqrt(in), 1/sqrt(in)); bias gets the same."""
        init.kaiming_uniform_(self.weight, a=math.sqrt(5))
        if self.bias is not None:
            fan_in = self.in_features
            bound = 1 / math.sqrt(fan_in) if fan_in > 0 else 0
            init.uniform_(self.bias, -bound, bound)

    def forward(self, input):
        return F.linear(input, self.weight, self.bias)

    def extra_repr(self) -> str:
        return (f"in_features={self.in_features}, out_features={self.out_features}, "
                f"bias={self.bias is not None}")
