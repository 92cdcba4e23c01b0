"""``minigrad.autograd``: computing gradients of tensors through the recorded graph.

``backward`` and ``grad`` (in ``api.py``) run the engine (``engine.py``) over the graph of
nodes (``graph.py``) that operations record; ``forward_ad`` is forward mode; ``Function``
lets you write your own node.
"""

from minigrad import _left_out
from minigrad.autograd import forward_ad, functional, graph, profiler
from minigrad.autograd.anomaly_mode import detect_anomaly, set_detect_anomaly
from minigrad.autograd.api import backward, grad
from minigrad.autograd.function import Function, FunctionCtx, once_differentiable
from minigrad.autograd.grad_mode import (
    enable_grad,
    enforce_grad_layout_policy,
    inference_mode,
    is_grad_enabled,
    is_inference_mode_enabled,
    no_grad,
    set_grad_enabled,
    set_multithreading_enabled,
)
from minigrad.autograd.gradcheck import GradcheckError, gradcheck, gradgradcheck
from minigrad.autograd.variable import Variable

backward.__module__ = grad.__module__ = __name__  # torch defines them in autograd/__init__.py

__all__ = ["backward", "grad", "no_grad", "enable_grad", "set_grad_enabled", "inference_mode",
           "is_grad_enabled", "is_inference_mode_enabled", "graph", "Function", "FunctionCtx",
           "once_differentiable", "gradcheck", "gradgradcheck", "GradcheckError", "forward_ad",
           "functional", "detect_anomaly", "set_detect_anomaly", "profiler", "Variable",
           "set_multithreading_enabled", "enforce_grad_layout_policy"]


def __getattr__(name):
    """Only reached for names this package does not define (PEP 562); see ``_left_out``."""
    raise _left_out.missing(__name__, name)
