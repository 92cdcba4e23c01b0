"""torch.func and torch.autograd.functional as a learner tries them after PyTorch's torch.func
tutorials (per-sample gradients, jacobians and hessians, ensembling, functional_call): each
snippet once differed from torch and now agrees."""

PROBES = [
    # in-place into a tensor that is not batched, given a batched operand: torch's errors
    # (never every sample written into the one tensor)
    """from torch.func import vmap
x = torch.ones(2)
def f(x, y):
    x.mul_(y)
    return y
try:
    vmap(f, in_dims=(None, 0))(x, torch.ones(3, 2))
except RuntimeError as e:
    print(e)
print(x)""",
    """from torch.func import vmap
def f(x, y):
    x.add_(y)
    return x
vmap(f, in_dims=(None, 0))(torch.ones(2), torch.ones(3, 2))""",
    """from torch.func import vmap
def f(x, y):
    x += y
    return x
vmap(f, in_dims=(None, 0))(torch.ones(4, 3, 2), torch.ones(3, 2))""",
    """from torch.func import vmap
def f(x):
    y = torch.zeros(2)
    y[0] = x.sum()
    return y
vmap(f)(torch.ones(3, 2))""",
    """from torch.func import vmap
def f(x):
    y = torch.zeros(2)
    y[torch.tensor([0, 1])] = x
    return y
vmap(f)(torch.ones(3, 2))""",
    """from torch.func import vmap
def f(x):
    y = torch.zeros(2)
    y.copy_(x)
    return y
vmap(f)(torch.ones(3, 2))""",
    """from torch.func import vmap
acc = torch.zeros(2)
def f(x):
    acc.pow_(x)
    return x
vmap(f)(torch.ones(3, 2))""",
    """from torch.func import vmap
def f(x, y):
    x.fill_(y.sum())
    return x
vmap(f, in_dims=(None, 0))(torch.ones(2), torch.ones(3, 2))""",
    """from torch.func import vmap
def f(x, y):
    x.index_add_(0, torch.tensor([0, 1]), y)
    return x
vmap(f, in_dims=(None, 0))(torch.ones(2), torch.ones(3, 2))""",
    """from torch.func import vmap
def f(x, y):
    x.masked_fill_(torch.tensor([True, False]), y.sum())
    return x
vmap(f, in_dims=(None, 0))(torch.ones(2), torch.ones(3, 2))""",
    """from torch.func import vmap
def f(x, y):
    x //= y
    return x
vmap(f, in_dims=(None, 0))(torch.ones(2), torch.ones(3, 2))""",
    # backward() and requires_grad_() inside a transform: torch's errors
    """from torch.func import grad
def f(x):
    y = (x * x).sum()
    y.backward()
    return y
grad(f)(torch.tensor([1., 2.]))""",
    """from torch.func import vmap
def f(x):
    y = (x * x).sum()
    y.backward()
    return y
vmap(f)(torch.ones(2, 2))""",
    """from torch.func import jvp
def f(x):
    y = (x * x).sum()
    y.backward()
    return y
jvp(f, (torch.ones(2),), (torch.ones(2),))""",
    """from torch.func import grad
w = torch.tensor(2., requires_grad=True)
def f(x):
    (w * 3).backward()
    return (x * x).sum()
grad(f)(torch.tensor([1., 2.]))""",
    """from torch.func import grad
def f(x):
    z = torch.ones(2).requires_grad_()
    return (x * z).sum()
grad(f)(torch.tensor([1., 2.]))""",
    """from torch.func import vmap
def f(x):
    x.requires_grad_()
    return x.sum()
vmap(f)(torch.ones(2, 2))""",
    """from torch.func import jvp
def f(x):
    x.requires_grad_(False)
    return x.sum()
jvp(f, (torch.ones(2),), (torch.ones(2),))""",
    """from torch.func import grad
def f(x):
    w = torch.nn.Parameter(torch.ones(2))
    return (x * w.detach()).sum()
print(grad(f)(torch.tensor([1., 2.])))""",
    # torch.autograd.functional inside a transform: torch's requires_grad_() error
    """from torch.autograd.functional import jacobian
from torch.func import vmap
vmap(lambda x: jacobian(torch.sin, x))(torch.ones(2, 2))""",
    """from torch.autograd.functional import jacobian
from torch.func import grad
grad(lambda x: jacobian(torch.sin, x).sum())(torch.ones(2))""",
    """from torch.autograd.functional import hessian
from torch.func import jvp
jvp(lambda x: hessian(lambda y: (y ** 3).sum(), x), (torch.ones(2),), (torch.ones(2),))""",
    # names
    """from torch.func import vjp
out, fn = vjp(torch.sin, torch.tensor([1., 2.]))
print(fn.__name__, fn.__qualname__)
print(fn)""",
    """import torch.nn as nn
from torch.func import replace_all_batch_norm_modules_
m = nn.Sequential(nn.Linear(2, 2), nn.ReLU())
print(replace_all_batch_norm_modules_(m) is m)
print(replace_all_batch_norm_modules_(nn.Linear(2, 2)))""",
    # max()/min()/median() of everything inside a transform: torch's formula for wrapped
    # tensors (mask * grad / count), -0 beside the extreme for a negative gradient
    """from torch.func import grad, vmap, jacrev, vjp
x = torch.tensor([1., 3., 2.])
print(grad(lambda x: -x.max())(x))
print(grad(lambda x: -x.min())(x))
print(grad(lambda x: -x.median())(x))
print(vmap(grad(lambda x: -x.max()))(x.view(1, 3)))
o, f = vjp(lambda x: x.max(), x)
print(f(torch.tensor(-1.)))
print(jacrev(lambda x: -x.max())(x))""",
    """from torch.func import jacrev, vmap
x0 = torch.linspace(-1.5, 2., 12).view(3, 4)
print(jacrev(lambda x: x.max() * x)(x0[0]))
print(vmap(jacrev(lambda x: x.max() * x), chunk_size=2)(x0)[1])""",
    """x = torch.tensor([1., 3., 2.], requires_grad=True)
(-x.max()).backward()
print(x.grad)""",
    # printing inside grad, vjp, jvp: torch's GradTrackingTensor around the value outside sees
    """from torch.func import grad
def f(x):
    print(x)
    y = x * 2
    print(y, y.requires_grad)
    return y.sum()
print(grad(f)(torch.tensor([1., 2.])))""",
    """from torch.func import grad
def f(x):
    print(x)
    return (x ** 3).sum()
grad(lambda x: grad(f)(x).sum())(torch.tensor([1., 2.]))
grad(grad(lambda x: f(x) * 1))(torch.tensor(2.))""",
    """from torch.func import grad
w = torch.tensor([1., 1.], requires_grad=True)
def f(x):
    y = x * w
    print(y)
    return y.sum()
grad(f)(torch.tensor([1., 2.]))""",
    """from torch.func import grad
def f(x):
    print(x)
    print(x * 2)
    return (x * 2).sum()
grad(f)(torch.tensor([1., 2.], requires_grad=True))""",
    """from torch.func import jvp
def f(x):
    y = x.sin()
    print(x, y)
    return y
print(jvp(f, (torch.tensor([1., 2.]),), (torch.ones(2),)))""",
    """from torch.func import jvp, grad
def f(x):
    y = x.sin()
    print(y)
    return y.sum()
jvp(grad(f), (torch.tensor([1., 2.]),), (torch.ones(2),))
grad(lambda x: jvp(f, (x,), (torch.ones(2),))[1])(torch.tensor([1., 2.]))""",
    """from torch.func import vjp, jacrev
def f(x):
    print(x)
    return x.exp()
out, fn = vjp(f, torch.tensor([1., 2.]))
print(out, fn(torch.ones(2)))
jacrev(f)(torch.tensor([1., 2.]))""",
    """from torch.func import grad, vmap
def f(x):
    print(x)
    return x.sin().sum()
grad(lambda x: vmap(f)(x).sum())(torch.ones(2, 2))""",
    """from torch.func import grad
def f(x):
    print(f"{x}", str(x), [x])
    print(x.double(), x[0], x.sum())
    return x.sum()
grad(f)(torch.tensor([1., 2.]))""",
    # vmap's outputs as torch's pytrees: a Size is its ints, an op's return type a container
    """from torch.func import vmap
x = torch.arange(6.).view(3, 2)
print(vmap(lambda r: r.max(0))(x))
print(vmap(torch.sort)(x.flip(1)))
print(vmap(lambda r: r.topk(1))(x).indices)
print(vmap(lambda r: (r.sum(), r.shape), out_dims=(0, None))(x))""",
    """from torch.func import vmap
vmap(lambda x: x.size())(torch.ones(2, 3, 4))""",
    """from torch.func import vmap
vmap(lambda x, s: x.view(s), in_dims=(0, 0))(torch.ones(2, 3, 4), torch.Size([12]))""",
    # an int index out of a sample's range: torch's message, the sample's dims
    """from torch.func import vmap
for f in [lambda x: x[5], lambda x: x[:, 7], lambda x: x[-4], lambda x: x[1, -5],
          lambda x: x[..., 9], lambda x: x[0, 0, 0]]:
    try:
        vmap(f)(torch.ones(2, 3, 4))
    except IndexError as e:
        print(e)""",
    # randomness='same' with numbers drawn from a batched input: torch's error
    """from torch.func import vmap
torch.manual_seed(0)
vmap(lambda x: torch.multinomial(x, 1), randomness='same')(torch.ones(3, 4))""",
    """from torch.func import vmap
torch.manual_seed(0)
print(vmap(lambda x: torch.multinomial(x, 1), randomness='different')(torch.ones(3, 4)).shape)
print(vmap(lambda x: x.bernoulli_(0.5), randomness='same')(torch.ones(3, 4)))""",
    # 0-d samples (vmap over a vector): a sample's transpose, movedim and prod along dim 0
    """from torch.func import vmap
x = torch.ones(3, requires_grad=True)
for f in [lambda x: x.prod(0), lambda x: x.t(), lambda x: x.movedim(0, 0),
          lambda x: x.movedim(-1, 0), lambda x: x.transpose(0, -1),
          lambda x: x.prod(0, keepdim=True), lambda x: x.swapaxes(0, 0)]:
    r = vmap(f)(x)
    print(type(r.grad_fn).__name__, r is x, r)
for f in [lambda x: x.transpose(0, 1), lambda x: x.movedim(1, 0), lambda x: x.prod(1)]:
    try:
        vmap(f)(x)
    except IndexError as e:
        print(e)""",
    # a transform inside vmap whose function closes over the vmap's sample (the inputs it
    # differentiates are not batched): per-sample values, not zeros
    """from torch.func import vmap, grad, jacrev, jacfwd, jvp, hessian
W = torch.tensor([1., 2., 3.])
X = torch.arange(6.).view(2, 3)
print(vmap(lambda x: grad(lambda w: (w * x).sum())(W))(X))
print(vmap(lambda x: jacrev(lambda w: (w * x).sin())(W))(X)[1])
print(vmap(lambda x: jacfwd(lambda w: (w * x).sin())(W))(X)[1])
print(vmap(lambda x: hessian(lambda w: (w * x).sin().sum())(W))(X)[1])
print(vmap(lambda x: jvp(lambda w: (w * x).sin(), (W,), (torch.ones(3),))[1])(X))""",
    """from torch.func import vmap, vjp
torch.manual_seed(0)
W = torch.randn(2, 3)
def g(x1):
    out, vjp_fn = vjp(lambda W: (W @ x1).tanh(), W)
    return vjp_fn(torch.tensor([1., 0.]))[0]
print(vmap(g)(torch.randn(3, 3))[0])""",
    """import torch.nn as nn
from torch.func import functional_call, vmap, vjp, jvp
torch.manual_seed(0)
net = nn.Sequential(nn.Linear(3, 4), nn.Tanh(), nn.Linear(4, 2))
params = {k: v.detach() for k, v in net.named_parameters()}
def fnet_single(params, x):
    return functional_call(net, params, (x.unsqueeze(0),)).squeeze(0)
def get_ntk(x1, x2):
    output, vjp_fn = vjp(lambda p: fnet_single(p, x1), params)
    def get_ntk_slice(vec):
        vjps = vjp_fn(vec)
        return jvp(lambda p: fnet_single(p, x2), (params,), vjps)[1]
    return vmap(get_ntk_slice)(torch.eye(output.numel()))
r = vmap(vmap(get_ntk, (None, 0)), (0, None))(torch.randn(3, 3), torch.randn(2, 3))
print(r.shape)
print(r[0, 0])""",
    """import torch.nn as nn
import torch.nn.functional as F
from torch.func import functional_call, vmap, grad
torch.manual_seed(0)
model = nn.Sequential(nn.Linear(4, 8), nn.ReLU(), nn.Linear(8, 3))
params = {k: v.detach() for k, v in model.named_parameters()}
data, targets = torch.randn(5, 4), torch.tensor([0, 2, 1, 1, 0])
def per_sample(x, t):
    return grad(lambda p: F.cross_entropy(functional_call(model, p, (x.unsqueeze(0),)),
                                          t.unsqueeze(0)))(params)
g = vmap(per_sample)(data, targets)
print({k: v.shape for k, v in g.items()})
print(g['2.bias'])""",
    # functional_call's errors for a wrong name or value: torch's
    """import torch.nn as nn
from torch.func import functional_call
m = nn.Linear(2, 2)
functional_call(m, {'foo.weight': torch.ones(2, 2)}, (torch.ones(1, 2),))""",
    """import torch.nn as nn
from torch.func import functional_call
m = nn.Sequential(nn.Linear(2, 2))
functional_call(m, {'1.weight': torch.ones(2, 2)}, (torch.ones(1, 2),))""",
    """import torch.nn as nn
from torch.func import functional_call
m = nn.Sequential(nn.Linear(2, 2), nn.ReLU())
m.cfg = 3
functional_call(m, {'cfg.weight': torch.ones(2, 2)}, (torch.ones(1, 2),))""",
    """import torch.nn as nn
from torch.func import functional_call
m = nn.Linear(2, 2)
try:
    functional_call(m, {'bias': torch.zeros(2), 'weight': 3.0}, (torch.ones(1, 2),))
except TypeError as e:
    print(e)
print(type(m.weight).__name__, type(m.bias).__name__)
print(functional_call(m, {'bias': None}, (torch.ones(1, 2),)).shape, m.bias is None)""",
    # transforms under inference_mode: torch turns it off inside (the gradients, not zeros)
    """from torch.func import grad, vjp, jacrev, jvp, jacfwd, hessian
def f(x):
    print(torch.is_inference_mode_enabled(), torch.is_grad_enabled(), x.is_inference())
    y = x ** 2
    print(y.requires_grad, y.is_inference())
    return y.sum()
x0 = torch.tensor([1., 2.])
with torch.inference_mode():
    print(grad(f)(x0))
    x = torch.tensor([1., 2.])
    g = grad(f)(x)
    print(g, g.is_inference(), g.requires_grad)
    print(jacrev(torch.sin)(x), vjp(torch.sin, x)[1](torch.ones(2)))
    print(jvp(torch.sin, (x,), (torch.ones(2),)))
    print(jacfwd(torch.sin)(x), hessian(lambda x: x.sin().sum())(x))""",
    # dropout that drops nothing under vmap: the input itself (was stacked per sample)
    """import torch.nn.functional as F
from torch.func import vmap
x = torch.ones(2, 2, requires_grad=True)
for f in [lambda x: F.dropout(x, 0.5, training=False), lambda x: F.dropout(x, 0.),
          lambda x: F.alpha_dropout(x, 0.5, training=False),
          lambda x: F.dropout1d(x.view(2, 1), 0.5, training=False),
          lambda x: torch.nn.Dropout(0.3).eval()(x) * 2]:
    r = vmap(f)(x)
    print(r.grad_fn, r is x, r)""",
    """import torch.nn as nn
from torch.func import functional_call, vmap, stack_module_state
import copy
torch.manual_seed(0)
models = [nn.Sequential(nn.Linear(2, 3), nn.Dropout(0.5)) for _ in range(2)]
params, buffers = stack_module_state(models)
base = copy.deepcopy(models[0])
f = lambda p, b, x: functional_call(base, (p, b), (x,))
print(vmap(f, in_dims=(0, 0, None), randomness='same')(params, buffers, torch.ones(4, 2)).shape)
base.eval()
print(vmap(f, in_dims=(0, 0, None))(params, buffers, torch.ones(4, 2)))""",
    # out= inside vmap
    """from torch.func import vmap
out = torch.zeros(2)
vmap(lambda x: torch.sin(x, out=out))(torch.ones(3, 2))""",
    """from torch.func import vmap
vmap(lambda x: torch.add(x, 1, out=x))(torch.ones(3, 2))""",
    """from torch.func import vmap
vmap(lambda x: torch.sum(x, 0, out=torch.zeros(())))(torch.ones(3, 2))""",
    """from torch.func import vmap
vmap(lambda x: torch.softmax(x, 0, out=torch.zeros(2)))(torch.ones(3, 2))""",
    # nested vmap runs batched at both levels (the function once)
    """from torch.func import vmap
def f(x):
    print(repr(x), type(x).__name__, type(x))
    return x * 2 + x.sin()
print(vmap(vmap(f))(torch.ones(2, 3)))""",
    # the losses and embedding under vmap: their batching rules (the function once)
    """import torch.nn.functional as F
from torch.func import vmap
x = torch.randn(4, 3, requires_grad=True)
print(type(vmap(lambda x: F.mse_loss(x, torch.zeros(3)))(x).grad_fn).__name__)
t = torch.tensor([0, 1, 2, 1])
print(type(vmap(lambda x, t: F.cross_entropy(x, t))(x, t).grad_fn).__name__)""",
    """import torch.nn.functional as F
from torch.func import vmap
def f(x, t):
    print(x.shape, t.shape)
    return (F.huber_loss(x, t, reduction='none'), F.l1_loss(x, t),
            F.binary_cross_entropy_with_logits(x, t.sigmoid(), pos_weight=torch.ones(3)),
            F.nll_loss(x.log_softmax(0), torch.tensor(1), weight=torch.ones(3)),
            F.embedding(torch.tensor([0, 2]), x.view(3, 1)))
for r in vmap(f, in_dims=(0, None))(torch.randn(4, 3, requires_grad=True), torch.zeros(3)):
    print(r.shape, r.grad_fn)
print(vmap(lambda w, i: F.embedding(i, w))(torch.ones(2, 3, 4, requires_grad=True),
                                           torch.tensor([[0, 1], [2, 2]])).grad_fn)""",
    # a plain tensor minus a batched one (the batched tensor's reflected operator runs first):
    # torch's sub; x.new_tensor(data) inside vmap: a plain tensor
    """from torch.func import vmap
w = torch.ones(3, requires_grad=True)
print(vmap(lambda r: w - r)(torch.ones(2, 3)).grad_fn)
print(vmap(lambda r: r.new_tensor([1., 2.]))(torch.ones(2, 3)))""",
    # vmap(grad(f)) runs grad on the batch: f once, its input torch's GradTrackingTensor
    # around the BatchedTensor
    """from torch.func import grad, vmap
def f(x):
    print(x)
    return x.sin().sum()
vmap(grad(f))(torch.ones(2, 2))""",
    # grad inside vmap of a function closing over the samples: one batched backward pass
    # (its rows), f once
    """from torch.func import vmap, grad
W = torch.tensor([1., 2., 3.])
def f(x):
    print('call')
    return grad(lambda w: (w * x).sum())(W)
print(vmap(f)(torch.arange(6.).view(2, 3)))""",
    """from torch.func import vmap, grad, grad_and_value
W = torch.tensor([1., 2., 3.])
print(vmap(lambda x: grad_and_value(lambda w: (w * x).sin().sum())(W))(
    torch.arange(6.).view(2, 3)))
print(vmap(lambda x: grad(lambda w: (w * 2).sin().sum() + x.sum())(W))(
    torch.arange(6.).view(2, 3)))""",
    # jvp inside vmap with batched primals runs on the batch (f once, torch's graph)
    """from torch.func import vmap, jvp
x = torch.randn(2, 3, requires_grad=True)
r = vmap(lambda x: jvp(lambda x: x * x, (x,), (torch.ones_like(x),))[1])(x)
print(r.grad_fn)""",
    """from torch.func import vmap, jvp
def f(x):
    print(x)
    return x.sin()
print(vmap(lambda x: jvp(f, (x,), (torch.ones(3),)))(torch.ones(2, 3)))
print(vmap(lambda x, t: jvp(lambda x: x.sum() * x, (x,), (t,)), in_dims=(1, 0))(
    torch.ones(3, 2), torch.ones(2, 3)))""",
    # jacrev inside vmap with batched arguments runs on the batch (f once)
    """from torch.func import vmap, jacrev
def f(x):
    print(x.shape)
    return x.sin() * x.sum()
X = torch.arange(6.).view(2, 3)
print(vmap(jacrev(f))(X))
W = torch.tensor([1., 2., 3.])
print(vmap(jacrev(lambda w, x: (w * x).tanh(), argnums=(0, 1)), in_dims=(None, 0))(W, X))
print(vmap(jacrev(lambda x: (x.exp(), x.sum()), has_aux=True))(X))""",
    # flip, roll, split, unbind of 0-d samples: torch's rules shift dim 0 past the batch
    # and fail (though a 0-d tensor takes them outside vmap)
    """from torch.func import vmap
for f in [lambda x: x.flip(0), lambda x: x.roll(1, 0), lambda x: x.split(1, 0),
          lambda x: x.unbind(0), lambda x: x.flip(-1)]:
    try:
        print(vmap(f)(torch.ones(3)))
    except IndexError as e:
        print(e)
print(vmap(lambda x: x.flip(0))(torch.ones(2, 3, requires_grad=True)).grad_fn)""",
    # bernoulli and normal with batched probabilities or means under randomness='same':
    # torch's error (through their rule)
    """from torch.func import vmap
torch.manual_seed(0)
for f in [lambda x: torch.bernoulli(x), lambda x: torch.normal(x, 1.),
          lambda x: torch.normal(0., x + 1), lambda x: torch.bernoulli(x, 0.5),
          lambda x: x.bernoulli()]:
    for r in ['same', 'different']:
        try:
            print(r, vmap(f, randomness=r)(torch.ones(3, 4) * 0.5).shape)
        except RuntimeError as e:
            print(r, e)""",
]

KNOWN = {
    """from torch.func import grad
def f(x):
    print(x.is_leaf, x.grad_fn)
    return x.sum()
grad(f)(torch.tensor([1., 2.], requires_grad=True))""":
        "inside grad, an input that already requires grad is torch's wrapper, a leaf at the "
        "transform's level; minigrad's is a view of the input (so the learner's backward "
        "still reaches it): is_leaf False, grad_fn ViewBackward0",
    """from torch.func import grad
def f(x):
    print(torch.ones(2), x.detach(), x > 1)
    return x.sum()
grad(f)(torch.tensor([1., 2.]))""":
        "torch wraps every tensor an op makes inside grad (a fresh torch.ones, a detach, a "
        "comparison) in a GradTrackingTensor; minigrad knows a tensor belongs to grad only "
        "through its graph, so those print as plain tensors",
    """import torch.nn as nn
from torch.func import stack_module_state, functional_call, vmap
import copy
torch.manual_seed(0)
models = [nn.Linear(3, 2) for _ in range(4)]
params, buffers = stack_module_state(models)
base = copy.deepcopy(models[0]).to('meta')
def fmodel(p, b, x):
    return functional_call(base, (p, b), (x,))
print(vmap(fmodel, in_dims=(0, 0, None))(params, buffers, torch.ones(5, 3)).shape)""":
        "the ensembling tutorial's stateless copy on the 'meta' device: minigrad computes on "
        "the CPU only and has no storage-less tensors (a clear error; skip the .to('meta'))",
    """import torch.nn as nn
from torch.func import grad, functional_call, vmap
torch.manual_seed(0)
model = nn.Sequential(nn.Linear(3, 4), nn.ReLU(), nn.Linear(4, 2))
params = dict(model.named_parameters())
def loss(p, x, t):
    out = functional_call(model, p, (x.unsqueeze(0),))
    return nn.functional.cross_entropy(out, t.unsqueeze(0))
x = torch.randn(5, 3); t = torch.tensor([0, 1, 1, 0, 1])
print(vmap(grad(loss), in_dims=(None, 0, 0))(params, x, t)['2.bias'])""":
        "vmap(grad(f)) runs grad on the batch (f once), but minigrad differentiates the "
        "batching rules' physical ops where torch differentiates the sample's ops at grad's "
        "level: with parameters that require grad, a bias's per-sample gradient ends in "
        "MulBackward1 (the addmm decomposition's self * beta) where torch's ends in a view "
        "(ViewBackward0); the weights' agree (TransposeBackward0), and the values",
}
