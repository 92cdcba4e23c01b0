"""``minigrad.nn``: modules, parameters and loss functions built on minigrad's tensors.

Nothing here knows about gradients: a module only computes its forward pass with ordinary
minigrad operations, and autograd records the graph as for any other code.
"""

from minigrad import _left_out
from minigrad.nn import functional, init, parameter, utils
from minigrad.nn.modules import (
    ELU,
    GELU,
    BCELoss,
    BCEWithLogitsLoss,
    CrossEntropyLoss,
    Dropout,
    Embedding,
    Flatten,
    HuberLoss,
    Identity,
    L1Loss,
    LayerNorm,
    LeakyReLU,
    Linear,
    LogSoftmax,
    Module,
    ModuleDict,
    ModuleList,
    MSELoss,
    NLLLoss,
    ParameterDict,
    ParameterList,
    ReLU,
    Sequential,
    Sigmoid,
    SiLU,
    SmoothL1Loss,
    Softmax,
    Softplus,
    Tanh,
    Unflatten,
)
from minigrad.nn.parameter import Parameter

# isort: split
# the activations group's block
from minigrad.nn.modules import (
    CELU,
    GLU,
    SELU,
    Hardshrink,
    Hardsigmoid,
    Hardswish,
    Hardtanh,
    LogSigmoid,
    Mish,
    PReLU,
    ReLU6,
    Softmin,
    Softshrink,
    Softsign,
    Tanhshrink,
    Threshold,
)

__all__ = ["functional", "init", "parameter", "utils", "Parameter", "Module", "Linear",
           "Sequential",
           "ReLU", "Tanh", "Sigmoid", "Softmax", "LogSoftmax", "MSELoss", "CrossEntropyLoss",
           "BCEWithLogitsLoss", "BCELoss", "L1Loss", "NLLLoss", "LayerNorm", "HuberLoss",
           "SmoothL1Loss",
           "LeakyReLU", "GELU", "SiLU", "Softplus", "ELU", "Dropout", "Flatten", "Unflatten",
           "Identity", "Embedding", "ModuleList", "ModuleDict", "ParameterList", "ParameterDict"]
__all__ += ["Hardtanh", "ReLU6", "LogSigmoid", "SELU", "CELU",
            "Mish", "Hardsigmoid", "Hardswish",
            "Softsign", "Tanhshrink", "Softmin",
            "Threshold", "Softshrink", "Hardshrink", "GLU", "PReLU"]  # activations group


def __getattr__(name):
    """Only reached for names this module does not define (PEP 562); see ``_left_out``."""
    raise _left_out.missing(__name__, name)
