"""``minigrad.nn``: modules, parameters and loss functions built on minigrad's tensors.

Nothing here knows about gradients: a module only computes its forward pass with ordinary
minigrad operations, and autograd records the graph as for any other code.
"""

from minigrad import _left_out
from minigrad.nn import functional, init, parameter
from minigrad.nn.modules import (
    BCEWithLogitsLoss,
    CrossEntropyLoss,
    Linear,
    LogSoftmax,
    Module,
    MSELoss,
    ReLU,
    Sequential,
    Sigmoid,
    Softmax,
    Tanh,
)
from minigrad.nn.parameter import Parameter

__all__ = ["functional", "init", "parameter", "Parameter", "Module", "Linear", "Sequential",
           "ReLU", "Tanh", "Sigmoid", "Softmax", "LogSoftmax", "MSELoss", "CrossEntropyLoss",
           "BCEWithLogitsLoss"]


def __getattr__(name):
    """Only reached for names this module does not define (PEP 562); see ``_left_out``."""
    raise _left_out.missing(__name__, name)
