"""``minigrad.func``: torch.func's composable transforms, on minigrad's autograd.

``grad``, ``grad_and_value``, ``vjp`` and ``jacrev`` (reverse mode, ``eager_transforms.py``);
``jvp``, ``jacfwd`` and ``hessian`` (forward mode, ``forward_transforms.py``); ``vmap`` (a
loop over the batch, ``vmap.py``); ``functional_call`` (a module as a function of its
parameters, ``functional_call.py``). Transforms compose: ``grad(grad(f))``,
``jacrev(jacfwd(f))``, ``vmap(grad(f))`` for per-sample gradients.
"""

from minigrad.func.eager_transforms import grad, grad_and_value, jacrev, vjp
from minigrad.func.forward_transforms import hessian, jacfwd, jvp
from minigrad.func.functional_call import functional_call
from minigrad.func.vmap import vmap

__all__ = ["grad", "grad_and_value", "vjp", "jacrev", "jvp", "jacfwd", "hessian", "vmap",
           "functional_call"]
