"""``minigrad.func``: torch.func's composable transforms, on minigrad's autograd.

``grad``, ``grad_and_value``, ``vjp`` and ``jacrev`` (reverse mode, ``eager_transforms.py``);
``jvp``, ``jacfwd``, ``hessian`` and ``linearize`` (forward mode, ``forward_transforms.py``);
``vmap`` (batched tensors and batching rules, ``vmap.py``); ``functional_call`` (a module
as a function of its parameters) and ``stack_module_state`` (an ensemble's parameters
stacked for vmap), in ``functional_call.py``. Transforms compose: ``grad(grad(f))``,
``jacrev(jacfwd(f))``, ``vmap(grad(f))`` for per-sample gradients. torch.func's other names
(functionalize, debug_unwrap, rearrange) are left out on purpose (``_left_out.py``).
"""

from minigrad import _left_out
from minigrad.func.eager_transforms import grad, grad_and_value, jacrev, vjp
from minigrad.func.forward_transforms import hessian, jacfwd, jvp, linearize
from minigrad.func.functional_call import (
    functional_call,
    replace_all_batch_norm_modules_,
    stack_module_state,
)
from minigrad.func.vmap import vmap

# torch.func's transforms say they are torch.func's (its __init__ re-exports them so)
for _f in (grad, grad_and_value, vjp, jacrev, jvp, jacfwd, hessian, vmap, functional_call,
           linearize, stack_module_state, replace_all_batch_norm_modules_):
    _f.__module__ = __name__

__all__ = ["grad", "grad_and_value", "vjp", "jacrev", "jvp", "jacfwd", "hessian", "vmap",
           "functional_call", "linearize", "stack_module_state", "replace_all_batch_norm_modules_"]


def __getattr__(name):
    """Only reached for names this module does not define (PEP 562); see ``_left_out``."""
    raise _left_out.missing(__name__, name)
