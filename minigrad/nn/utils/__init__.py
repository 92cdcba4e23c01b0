"""``minigrad.nn.utils``: what a training loop uses around its modules (torch's
``nn.utils``): gradient clipping, and a model's parameters as one vector and back."""

from minigrad import _left_out
from minigrad.nn.utils.clip_grad import (
    clip_grad_norm,
    clip_grad_norm_,
    clip_grad_value_,
    clip_grads_with_norm_,
    get_total_norm,
)
from minigrad.nn.utils.convert_parameters import parameters_to_vector, vector_to_parameters

__all__ = ["clip_grad_norm", "clip_grad_norm_", "clip_grad_value_", "clip_grads_with_norm_",
           "get_total_norm",
           "parameters_to_vector", "vector_to_parameters"]


def __getattr__(name):
    """Only reached for names this module does not define (PEP 562); see ``_left_out``."""
    raise _left_out.missing(__name__, name)
