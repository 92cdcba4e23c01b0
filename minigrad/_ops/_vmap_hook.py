"""The one switch vmap's batched tensors need in the ops' argument parsers (``_args.py``).

While a ``minigrad.func.vmap`` runs a function on batched tensors, ``active`` counts it and
``call`` is its dispatcher: an op given a batched tensor (``minigrad.sin(x)``, ``w.dot(x)``)
goes to its batching rule (``minigrad/func/_batched.py``). ``call`` answers ``PASS`` when no
argument is batched, and the op runs as usual. Outside vmap, the parsers read ``active`` and
go on: one attribute read per op. ``grad`` is how ``torch.autograd.grad`` given batched
``grad_outputs`` (``vmap(lambda v: grad(y, x, v))(torch.eye(n))``, rows of a Jacobian, and
jacrev) runs one batched pass, as torch does, rather than a function per sample.
``per_sample`` is the fallback of a backward or forward rule that cannot take batched
gradients or tangents at once.
"""

active = 0
call = None
PASS = object()
grad = None
# torch.func's other transforms running now (grad, vjp, jvp...: with ``active``, torch's
# "functorch transforms are active", which a custom Function checks)
transforms = 0
Unbatchable = None  # vmap's signal to run the function per sample (set by func/_batched.py)
# a function once per sample of its batched arguments, the results stacked (an op's forward
# rule given batched tangents it cannot compute at once; set by func/_batched.py)
per_sample = None
