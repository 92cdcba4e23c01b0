# ruff: noqa: E501 - snippets are kept as a learner types them, one per line
"""What a learner types around the training code of the usual books and courses (written afresh
for a red team): printing and inspecting models, optimizers, schedulers and their state,
tensors under print options, losses. Each snippet here once differed from torch."""

PROBES = [
    """import torch.nn as nn
for cls in [nn.ConstantPad1d, nn.ConstantPad2d, nn.ConstantPad3d]:
    try:
        cls(1)
    except TypeError as e:
        print(e)
print(nn.ConstantPad2d((1, 2, 0, 3), 0.5), nn.ZeroPad2d(1))
nn.ConstantPad3d()""",
    """import torch.nn as nn
m = nn.Linear(3, 2)
opt = torch.optim.SGD(m.parameters(), lr=0.1)
s = torch.optim.lr_scheduler.StepLR(opt, 1)
print(type(s).__mro__)
print(isinstance(s, torch.optim.lr_scheduler.LRScheduler), isinstance(s, torch.optim.lr_scheduler._LRScheduler))
print(torch.optim.lr_scheduler._LRScheduler.__mro__)""",
    """import torch.nn as nn
m = nn.Linear(2, 2)
print(m.__dict__.keys())
print(m._parameters.keys(), m._buffers, m._modules)""",
    """import torch.nn as nn
m = nn.Sequential(nn.Linear(2, 2), nn.ReLU())
print(m._modules)
print(dict(m.named_children()))""",
    """import torch.nn as nn
m = nn.Linear(2, 2)
m.weight.requires_grad = 5
print(m.weight.requires_grad)""",
    """import torch.nn as nn
m = nn.Linear(2, 2)
print(m.training, m.half().weight.dtype, m.float().weight.dtype, m.double().weight.dtype, m.to(torch.float32).weight.dtype)
print(m.type(torch.float64).weight.dtype)""",
    """import torch.nn as nn
m = nn.Linear(2, 2)
d = {}
print(m.state_dict(d) is d, list(d))
print(list(m.state_dict(None, 'net.')))""",
    """import torch.nn as nn
m = nn.Linear(2, 2)
m.load_state_dict([1,2])
x = torch.ones(2)
for v in [5, 1, 0, None, 'yes', 1.0, np.bool_(True), torch.tensor(True)]:
    try:
        x.requires_grad = v
        print(repr(v), x.requires_grad)
    except Exception as e:
        print(repr(v), type(e).__name__, e)
    x.requires_grad = False
y = torch.ones(2, requires_grad=True) * 2
for v in [5, 0, True, False]:
    try:
        y.requires_grad = v
    except Exception as e:
        print(repr(v), type(e).__name__, e)
x = torch.ones(2, dtype=torch.int64)
for v in [5, 0, True, False]:
    try:
        x.requires_grad = v
    except Exception as e:
        print(repr(v), type(e).__name__, e)
x = torch.ones(2)
for v in [5, 0, True, False, None]:
    try:
        print(x.requires_grad_(v).requires_grad)
    except Exception as e:
        print(repr(v), type(e).__name__, e)""",
    """import torch.nn as nn
a = nn.Sequential(nn.Linear(2, 2), nn.ReLU())
b = nn.Sequential(nn.Tanh())
print(a + b)
print((a + b)[0] is a[0])
print(a * 2)
print(2 * b)
a += b
print(a)
b *= 3
print(b)
print([k for k in dir(b) if k[0].isdigit()])""",
    """import torch.nn as nn
nn.Sequential(nn.ReLU()) + nn.ReLU()""",
    """import torch.nn as nn
nn.Sequential(nn.ReLU()) * 0""",
    """import torch.nn as nn
nn.Sequential(nn.ReLU()) * 1.5""",
    """import torch.nn as nn
s = nn.Sequential(nn.ReLU())
s += [nn.ReLU()]""",
    """import torch.nn as nn
d = nn.ParameterDict({'b': nn.Parameter(torch.ones(2)), 'a': torch.zeros(3)})
print(d)
print(list(reversed(d)), d.copy())
print(d.setdefault('c', torch.ones(1)))
print(d.popitem())
print(d | nn.ParameterDict({'z': torch.ones(1)}))
d |= {'y': torch.ones(4)}
print(d, len(d))
print(d.fromkeys(['p', 'q'], torch.ones(1)))""",
    """import torch.nn as nn
class Net(nn.Module):
    def _get_name(self):
        return 'MyNet'
    def __init__(self):
        super().__init__()
        self.l = nn.Linear(1, 1)
print(Net())
class L(nn.ModuleList):
    def _get_name(self):
        return 'Stack'
print(L([nn.ReLU()]), L())""",
    """import torch.nn as nn
m = nn.Linear(2, 2)
m.register_buffer('buf', torch.ones(1))
m.buf = torch.zeros(2)
print(m.buf, m.state_dict().keys())
m.buf = None
print(m.state_dict().keys(), m.buf)
m.buf = [1, 2]""",
    """import torch.nn as nn
m = nn.Linear(2, 2)
m.register_buffer('buf', torch.ones(1), persistent=False)
m.buf = torch.zeros(2)
print(m.state_dict().keys())
del m.buf
m.register_buffer('buf', torch.ones(1))
print(m.state_dict().keys())""",
    """import torch.nn as nn
m = nn.Linear(2, 2)
m.bias = None
print(m.state_dict().keys(), m.bias, m)
m.bias = 3""",
    """import torch.nn as nn
m = nn.Sequential(nn.Linear(2, 2))
m[0] = None
print(m)""",
    """import torch.nn as nn
m = nn.Sequential(nn.Linear(2, 2))
m[0] = 5""",
    """import torch.nn as nn
m = nn.Linear(2, 2)
m.weight = nn.Parameter(torch.ones(2, 2) * 2)
m.extra = nn.Parameter(torch.ones(1))
print([n for n, _ in m.named_parameters()])
m.extra = torch.ones(1)""",
    """import torch.nn as nn
m = nn.Linear(2, 2)
m.weight = nn.Parameter((torch.ones(2, 2, requires_grad=True) * 2))""",
    """import torch.nn as nn
m = nn.Linear(2, 2)
m.register_parameter('w2', nn.Parameter(torch.ones(2)) * 2)""",
    """import torch.nn as nn
m = nn.Linear(2, 2)
m.x = 1
m.x = nn.ReLU()
print(m, 'x' in m.__dict__)
m.x = nn.Parameter(torch.ones(1))
print(m, [n for n, _ in m.named_parameters()])""",
    """import torch.nn as nn
m = nn.Sequential(nn.Linear(2, 2), nn.Linear(2, 2))
sd = m.state_dict()
print(sd._metadata)
print(type(sd).__name__)
print(m.state_dict(prefix='p.')._metadata)""",
    """import torch.nn as nn
m = nn.Sequential(nn.Linear(2, 2), nn.Linear(2, 2))
sd = dict(m.state_dict())
sd['0.extra'] = torch.ones(1)
sd['extra'] = torch.ones(1)
sd['2.weight'] = torch.ones(1)
del sd['1.bias']
print(m.load_state_dict(sd, strict=False))
m.load_state_dict(sd)""",
    """import torch.nn as nn
torch.manual_seed(0)
m = nn.Linear(2, 2)
w = m.weight
r = m.load_state_dict({'weight': torch.ones(2, 2, dtype=torch.float64), 'bias': torch.zeros(2)}, assign=True)
print(r, m.weight is w, m.weight.dtype, type(m.weight).__name__, m.weight.requires_grad)
print(m.weight)""",
    """import torch.nn as nn
m = nn.Linear(2, 2)
m.weight.requires_grad_(False)
m.load_state_dict({'weight': torch.ones(2, 2), 'bias': torch.zeros(2)}, assign=True)
print(m.weight.requires_grad, m.bias.requires_grad)""",
    """import torch.nn as nn
m = nn.Linear(2, 2)
m.load_state_dict({'weight': torch.ones(2, 2), 'bias': torch.ones(2, dtype=torch.bool)})
print(m.bias)""",
    """import torch.nn as nn
m = nn.Module()
m.s = nn.Parameter(torch.tensor(1.0))
m.load_state_dict({'s': torch.tensor([5.0])})
print(m.s)
m.load_state_dict({'s': torch.tensor([5.0, 6.0])})""",
    """import torch.nn as nn
class M(nn.Module):
    def __init__(self):
        super().__init__()
        self.l = nn.Linear(1, 1)
        self.step = 0
    def get_extra_state(self):
        return {'step': self.step}
    def set_extra_state(self, state):
        self.step = state['step']
m = M()
m.step = 7
sd = m.state_dict()
print(list(sd.keys()), sd['_extra_state'])
m2 = M()
print(m2.load_state_dict(sd), m2.step)
print(m2.load_state_dict({k: v for k, v in sd.items() if k != '_extra_state'}, strict=False))
m2.load_state_dict({k: v for k, v in sd.items() if k != '_extra_state'})""",
    """import torch.nn as nn
m = nn.Linear(1, 1)
m.load_state_dict({'weight': torch.ones(1, 1), 'bias': torch.ones(1), '_extra_state': 1})""",
    """import torch.nn as nn
m = nn.Linear(1, 1)
def pre(module, prefix, keep_vars):
    print('pre', type(module).__name__, repr(prefix), keep_vars)
def post(module, sd, prefix, meta):
    print('post', list(sd), prefix, meta)
h1 = m.register_state_dict_pre_hook(pre)
h2 = m.register_state_dict_post_hook(post)
m.state_dict()
h1.remove(); h2.remove()
m.state_dict()
def lpre(module, sd, prefix, meta, strict, missing, unexpected, errors):
    print('lpre', list(sd), prefix, strict)
def lpost(module, keys):
    print('lpost', keys)
m.register_load_state_dict_pre_hook(lpre)
m.register_load_state_dict_post_hook(lpost)
print(m.load_state_dict({'weight': torch.ones(1, 1), 'bias': torch.ones(1)}))""",
    """import torch.nn as nn
m = nn.Linear(1, 1)
print(sorted(vars(m).keys()) == sorted(m.__dict__.keys()), list(vars(m)))
print(m._forward_hooks_always_called, m._state_dict_hooks)""",
    """import torch.nn as nn
m = nn.Linear(1, 1)
print(m.type(torch.float64).weight.dtype, m.type('torch.FloatTensor').bias.dtype)
print(m.type(torch.float16))""",
    """import torch.nn as nn
nn.Linear(1, 1, foo=1)""",
    """import torch.nn as nn
nn.Module(3)""",
    """import torch.nn as nn
nn.Module(foo=3)""",
    """import torch.nn as nn
import copy
m = nn.Sequential(nn.Linear(2, 2))
m.register_buffer('b', torch.ones(1), persistent=False)
m2 = copy.deepcopy(m)
print(m2.state_dict().keys(), m2._non_persistent_buffers_set, list(m2.named_buffers()))
print(type(m2._modules).__name__, type(m2._parameters).__name__)""",
    """import torch.nn as nn
m = nn.Sequential(nn.Linear(2, 2), nn.ReLU(), nn.Linear(2, 2))
del m[1]
print(m._modules)
print(type(m._modules).__name__)""",
    """import torch.nn as nn
m = nn.Linear(2, 2)
print(m._parameters)
print(nn.Module()._modules, nn.Module()._buffers)""",
    """import torch.nn as nn
w = nn.Parameter(torch.tensor([1.0, -2.0]))
opt = torch.optim.SGD([w], lr=0.1)
h = opt.register_step_pre_hook(lambda o, a, k: print('pre', type(o).__name__, len(a), k))
h2 = opt.register_step_post_hook(lambda o, a, k: print('post'))
opt.step()
h.remove()
opt.step()
print(opt._optimizer_step_pre_hooks, len(opt._optimizer_step_post_hooks))""",
    """import torch.nn as nn
torch.manual_seed(0)
m = nn.Linear(2, 1)
opt = torch.optim.SGD(m.named_parameters(), lr=0.1)
print(opt)
print(opt.param_groups[0]['param_names'])
print(opt.state_dict()['param_groups'])""",
    """import torch.nn as nn
torch.manual_seed(0)
m = nn.Linear(2, 1)
opt = torch.optim.Adam([{'params': m.named_parameters()}], lr=0.1)
opt.add_param_group({'params': [nn.Parameter(torch.ones(1))]})""",
    """import torch.nn as nn
torch.manual_seed(0)
m = nn.Linear(2, 1)
opt = torch.optim.Adam([('w', m.weight), m.bias], lr=0.1)""",
    """import torch.nn as nn
class MySGD(torch.optim.Optimizer):
    def __init__(self, params, lr=0.01):
        defaults = dict(lr=lr)
        super().__init__(params, defaults)
    @torch.no_grad()
    def step(self, closure=None):
        for group in self.param_groups:
            for p in group['params']:
                if p.grad is None:
                    continue
                state = self.state[p]
                state['n'] = state.get('n', 0) + 1
                p.add_(p.grad, alpha=-group['lr'])
        return None
w = nn.Parameter(torch.tensor([1.0, -2.0]))
opt = MySGD([w], lr=0.5)
print(opt)
opt.register_step_post_hook(lambda o, a, k: print('post', o.state[w]))
(w ** 2).sum().backward()
opt.step()
print(w, opt.state_dict())
s = torch.optim.lr_scheduler.StepLR(opt, 1, 0.1)
opt.step(); s.step()
print(s.get_last_lr(), MySGD.step.hooked)""",
    """import torch.nn as nn
from torch.optim.optimizer import register_optimizer_step_pre_hook
w = nn.Parameter(torch.tensor([1.0, -2.0]))
opt = torch.optim.Adam([w], lr=0.1)
h = register_optimizer_step_pre_hook(lambda o, a, k: print('global', type(o).__name__))
opt.step()
h.remove()
opt.step()""",
    """import torch.nn as nn
w = nn.Parameter(torch.tensor([1.0, -2.0]))
opt = torch.optim.Adam([w], lr=0.1)
opt.register_state_dict_pre_hook(lambda o: print('sd pre'))
opt.register_state_dict_post_hook(lambda o, sd: print('sd post', sd['param_groups'][0]['lr']))
opt.register_load_state_dict_pre_hook(lambda o, sd: print('load pre'))
opt.register_load_state_dict_post_hook(lambda o: print('load post'))
opt.load_state_dict(opt.state_dict())""",
    """import torch.nn as nn
w = nn.Parameter(torch.tensor([1.0, -2.0]))
opt = torch.optim.Adam([w], lr=0.1)
w.grad = torch.ones(2)
opt.step()
sd = opt.state_dict()
sd['state'][0]['exp_avg'].zero_()
print(sd['state'][0] is opt.state[w])
print(opt.state[w]['exp_avg'])""",
    """import torch.nn as nn
w = nn.Parameter(torch.tensor([1.0, -2.0]))
opt = torch.optim.SGD([w, w], lr=0.1)
print(opt.state_dict())""",
    """import torch.nn as nn
import pickle
w = nn.Parameter(torch.tensor([1.0, -2.0]))
opt = torch.optim.Adam([w], lr=0.1)
print(opt.__getstate__().keys())
print(sorted(vars(opt).keys()))""",
    """import torch.nn as nn
torch.optim.SGD(torch.ones(2), lr=0.1)""",
    """import torch.nn as nn
torch.optim.SGD(torch.ones(2, dtype=torch.float64), lr=0.1)""",
    """import torch.nn as nn
torch.optim.SGD(nn.Parameter(torch.ones(2)), lr=0.1)""",
    """import torch.nn as nn
w = nn.Parameter(torch.tensor([1.0, -2.0]))
opt = torch.optim.SGD([w], lr=0.1, differentiable=True)
print(opt)""",
    """import torch.nn as nn
m = nn.Linear(2, 2)
opt = torch.optim.SGD(m.parameters(), lr=0.1)
print(opt.state_dict()['state'], opt.state)
m(torch.ones(1, 2)).sum().backward()
opt.step()
print(opt.state)""",
    """print(abs(torch.tensor(-2.5)), -torch.tensor([1, 2]))
print(+torch.tensor(1.))""",
    """x = torch.tensor([1.0, 2.0], requires_grad=True)
y = +x
print(y, y is x)""",
    """+torch.tensor([True])""",
    """import torch.nn as nn
m = nn.Linear(3, 2)
m.weight.grad = torch.ones(2, 3)
print(nn.utils.get_total_norm([m.weight.grad]))
print(nn.utils.clip_grads_with_norm_([m.weight], 1.0, torch.tensor(5.)))""",
    """import torch.nn as nn
m = nn.Linear(3, 2)
m.weight.grad = torch.ones(2, 3)
print(nn.utils.clip_grad_norm_((p for p in []), 1.0))
print(nn.utils.clip_grad_norm_((p for p in m.parameters()), 1.0), m.weight.grad)
print(nn.utils.clip_grad_norm_([], 1.0))""",
    """import torch.nn as nn
torch.manual_seed(87)
x = torch.randn(2, 3, requires_grad=True)
t = torch.randint(0, 3, (2,))
crit = nn.MultiMarginLoss(p=1, margin=0.5, reduction='mean')
out = crit(x, t)
print(out)
out.backward()
print(x.grad)""",
    """import torch.nn as nn
torch.manual_seed(5)
x = torch.randn(2, 4, requires_grad=True)
t = torch.randint(0, 4, (2,))
out = nn.MultiMarginLoss(p=2, margin=0.5, weight=torch.tensor([1., 2., 3., 4.]))(x, t)
out.backward()
print(out, x.grad)""",
    """import torch.nn as nn
import torch.nn.functional as F
torch.manual_seed(0)
x = torch.randn(3, 4, requires_grad=True)
t = torch.softmax(torch.randn(3, 4), 1)
w = torch.tensor([0.5, 1.0, 2.0, 0.1])
for red in ['mean', 'sum', 'none']:
    for ls in [0.0, 0.2]:
        out = F.cross_entropy(x, t, weight=w, reduction=red, label_smoothing=ls)
        print(red, ls, out, out.grad_fn.next_functions)
F.cross_entropy(x, t, weight=w).backward()
print(x.grad)""",
    """import torch.nn.functional as F
torch.manual_seed(0)
x = torch.randn(4, requires_grad=True)
t = torch.softmax(torch.randn(4), 0)
print(F.cross_entropy(x, t, weight=torch.tensor([0.5, 1.0, 2.0, 0.1])))
print(F.cross_entropy(torch.randn(2, 3, 2), torch.softmax(torch.randn(2, 3, 2), 1), weight=torch.tensor([1., 2., 3.]), reduction='none'))""",
    """import torch.nn.functional as F
F.cross_entropy(torch.randn(2, 3), torch.rand(2, 3), weight=torch.ones(4))""",
    """import torch.nn.functional as F
F.cross_entropy(torch.randn(2, 3), torch.randint(0, 3, (2,)), weight=torch.ones(4))""",
    """import torch.nn.functional as F
F.cross_entropy(torch.randn(2, 3), torch.rand(2, 3), ignore_index=1)""",
    """import torch.nn.functional as F
F.cross_entropy(torch.randn(2, 3), torch.rand(2, 3), weight=torch.ones(1, 3))""",
    """import torch.nn.functional as F
torch.manual_seed(0)
x = torch.randn(2, 3, requires_grad=True)
y = torch.randn(2, 3)
w = torch.rand(2, 3)
for red in ['mean', 'sum', 'none']:
    out = F.mse_loss(x, y, reduction=red, weight=w)
    print(out)
out.sum().backward()
print(x.grad)
F.mse_loss(x, y, weight=torch.ones(3))""",
    """import torch.nn.functional as F
F.mse_loss(torch.ones(2), torch.ones(2), weight=torch.ones(2), reduction='avg')""",
    """import torch.nn as nn
w = nn.Parameter(torch.tensor([1.0, -2.0]))
opt = torch.optim.Adam([w], lr=0.1)
opt.register_step_pre_hook(lambda o, a, k: 5)
opt.step()""",
    """import torch.nn as nn
w = nn.Parameter(torch.tensor([1.0, -2.0]))
class MyAdam(torch.optim.Adam):
    pass
opt = MyAdam([w], lr=0.1)
print(opt.step)
opt2 = torch.optim.Adam([w], lr=0.1)
print(opt2.step)
print(torch.optim.Adam.step, MyAdam.step, torch.optim.Adam.step is MyAdam.step)
s = torch.optim.lr_scheduler.StepLR(opt, 1)
print(opt.step)""",
    """import torch.nn as nn
w = nn.Parameter(torch.tensor([1.0, -2.0]))
for cls in [torch.optim.SGD, torch.optim.Adam, torch.optim.AdamW, torch.optim.RMSprop, torch.optim.Adagrad, torch.optim.Adadelta, torch.optim.Adamax, torch.optim.NAdam, torch.optim.RAdam, torch.optim.ASGD, torch.optim.Rprop]:
    opt = cls([w], lr=0.1)
    print(repr(opt.step).split(' of ')[0], cls.step.__qualname__, cls.step.__name__, cls.step.__module__)""",
    """import torch.nn as nn
m = nn.Linear(2, 1)
opt = torch.optim.SGD(m.parameters(), lr=0.1)
print(opt.step)
print(opt.zero_grad)
print(torch.optim.SGD, torch.optim.Adam, torch.optim.lr_scheduler.StepLR, torch.optim.Optimizer)""",
    """import torch.nn as nn
print(nn.modules.loss._Loss, nn.modules.module.Module)
print(nn.Linear.__mro__)
print(nn.MSELoss.__mro__)
print(nn.CrossEntropyLoss.__mro__)
print(nn.ReLU.__mro__)
print(nn.Dropout.__mro__)
print(nn.Sequential.__mro__)
print(nn.LayerNorm.__mro__)
print(nn.Embedding.__mro__)""",
    """import torch.nn as nn
print(nn.Softmax.__mro__, nn.LeakyReLU.__mro__, nn.GELU.__mro__, nn.Flatten.__mro__, nn.Identity.__mro__, nn.BCELoss.__mro__, nn.NLLLoss.__mro__, nn.L1Loss.__mro__)""",
    """import torch.nn as nn
nn.MSELoss()(torch.ones(2), [1., 2.])""",
    """import torch.nn as nn
nn.L1Loss()(torch.ones(2), 1.0)""",
    """import torch.nn as nn
nn.BCELoss()(torch.ones(2), [1.0, 0.0])""",
    """import torch.nn as nn
nn.BCEWithLogitsLoss()(torch.ones(2), [1.0, 0.0])""",
    """import torch.nn as nn
nn.HuberLoss()(torch.ones(2), np.ones(2))""",
    """import torch.nn as nn
nn.SmoothL1Loss()(torch.ones(2), 2)""",
    """import torch.nn as nn
nn.MSELoss()([1.0], torch.ones(1))""",
    """import torch.nn as nn
nn.KLDivLoss()(torch.ones(2), [1.0, 0.0])""",
    """import torch.nn as nn
nn.Sigmoid()(np.ones(2))""",
    """import torch.nn as nn
nn.Tanh()(1.0)""",
    """import torch.nn as nn
nn.HingeEmbeddingLoss()([[0.5, 0.5, 0.5], [1.0, 1.0, 1.0]], torch.rand(2, 3))""",
    """import torch.nn as nn
nn.HingeEmbeddingLoss()(torch.rand(2, 3), [[0.5, 0.5, 0.5], [1.0, 1.0, 1.0]])""",
    """import torch.nn as nn
nn.CosineEmbeddingLoss()([[0.5, 0.5, 0.5], [1.0, 1.0, 1.0]], torch.rand(2, 3), torch.rand(2, 3))""",
    """import torch.nn as nn
nn.CosineEmbeddingLoss()(torch.rand(2, 3), [[0.5, 0.5, 0.5], [1.0, 1.0, 1.0]], torch.rand(2, 3))""",
    """import torch.nn as nn
nn.CosineEmbeddingLoss()(torch.rand(2, 3), torch.rand(2, 3), [[0.5, 0.5, 0.5], [1.0, 1.0, 1.0]])""",
    """import torch.nn as nn
nn.TripletMarginLoss()([[0.5, 0.5, 0.5], [1.0, 1.0, 1.0]], torch.rand(2, 3), torch.rand(2, 3))""",
    """import torch.nn as nn
nn.TripletMarginLoss()(torch.rand(2, 3), [[0.5, 0.5, 0.5], [1.0, 1.0, 1.0]], torch.rand(2, 3))""",
    """import torch.nn as nn
nn.TripletMarginLoss()(torch.rand(2, 3), torch.rand(2, 3), [[0.5, 0.5, 0.5], [1.0, 1.0, 1.0]])""",
    """import torch.nn as nn
nn.PoissonNLLLoss()([[0.5, 0.5, 0.5], [1.0, 1.0, 1.0]], torch.rand(2, 3))""",
    """import torch.nn as nn
nn.PoissonNLLLoss()(torch.rand(2, 3), [[0.5, 0.5, 0.5], [1.0, 1.0, 1.0]])""",
    """import torch.nn as nn
nn.SoftMarginLoss()([[0.5, 0.5, 0.5], [1.0, 1.0, 1.0]], torch.rand(2, 3))""",
    """import torch.nn as nn
nn.SoftMarginLoss()(torch.rand(2, 3), [[0.5, 0.5, 0.5], [1.0, 1.0, 1.0]])""",
    """import torch.nn as nn
nn.MultiMarginLoss()([[0.5, 0.5, 0.5], [1.0, 1.0, 1.0]], torch.tensor([0, 1]))""",
    """import torch.nn as nn
nn.MultiMarginLoss()(torch.rand(2, 3), [[0.5, 0.5, 0.5], [1.0, 1.0, 1.0]])""",
    """import torch.nn.functional as F
F.multi_margin_loss(torch.rand(2, 3), torch.tensor([0, 1]), p='a')""",
    """import torch.nn.functional as F
F.multi_margin_loss(torch.rand(2, 3), torch.tensor([0, 1]), margin='a')""",
    """import torch.nn.functional as F
F.multi_margin_loss(torch.rand(2, 3), torch.tensor([0, 1]), margin=True)""",
    """import torch.nn.functional as F
print(F.multi_margin_loss(torch.ones(2, 3), torch.tensor([0, 1]), margin=torch.tensor(0.5)))""",
    """import torch.nn.functional as F
F.soft_margin_loss(torch.rand(2, 3), torch.ones(2, 3), reduction='avg')""",
    """import torch.nn.functional as F
F.hinge_embedding_loss(torch.rand(2, 3), torch.ones(2, 3), margin='a')""",
    """import torch.nn.functional as F
print(F.hinge_embedding_loss(torch.ones(2, 3), torch.ones(2, 3), margin=torch.tensor(2.)))""",
    """import torch.nn.functional as F
print(F.poisson_nll_loss(torch.ones(2, 3), torch.ones(2, 3), log_input=1))""",
    """import torch.nn as nn
m = nn.Sequential(nn.Linear(2, 2))
m.register_buffer('b', torch.ones(1))
m[0].register_buffer('c', torch.zeros(1))
print(m.get_buffer('b'), m.get_buffer('0.c'))
m.get_buffer('0.weight')""",
    """import torch.nn as nn
m = nn.Sequential(nn.Linear(2, 2), nn.Sequential(nn.ReLU()))
m.set_submodule('1.0', nn.Tanh())
print(m)
m.set_submodule('0', nn.Sigmoid())
print(m)
m.set_submodule('2.0', nn.Tanh())""",
    """import torch.nn as nn
m = nn.Sequential(nn.Linear(2, 2))
m.set_submodule('0.weight', nn.Tanh())""",
    """import torch.nn as nn
m = nn.Sequential(nn.Linear(2, 2))
m.set_submodule('', nn.Tanh())""",
    """import torch.nn as nn
m = nn.Linear(2, 2)
m.requires_grad_(0)""",
    """import torch.nn as nn
enc = nn.Embedding(5, 3)
dec = nn.Linear(3, 5, bias=False)
dec.weight = enc.weight
model = nn.ModuleDict({'enc': enc, 'dec': dec})
print([n for n, _ in model.named_parameters()], list(model.state_dict()))
print(sum(p.numel() for p in model.parameters()))""",
    """import torch.nn as nn
m = nn.Linear(2, 2)
print(m.to_empty(device='cpu') is m)
print(m.share_memory() is m)
print(m.float() is m, m.requires_grad_() is m)""",
    """import torch.nn as nn
m = nn.Linear(2, 2)
print(m.ipu if hasattr(m, 'ipu') else 'no ipu', hasattr(m, 'xpu'), hasattr(m, 'mtia'))""",
    """import torch.nn as nn
class Bad(nn.Module):
    def forward(self, x):
        raise ValueError('boom')
m = Bad()
m.register_forward_hook(lambda mod, a, out: print('always', type(mod).__name__, a, out), always_call=True)
m.register_forward_hook(lambda mod, a, out: print('normal'))
print(len(m._forward_hooks_always_called))
m(torch.ones(1))""",
    """import torch.nn as nn
m = nn.Linear(1, 1)
h = m.register_forward_hook(lambda mod, a, out: print('always'), always_call=True)
m(torch.ones(1))
print(dict(m._forward_hooks_always_called))
h.remove()
print(dict(m._forward_hooks_always_called), len(m._forward_hooks))""",
    """import torch.nn as nn
m = nn.Linear(1, 1)
def bad(mod, a, out):
    raise KeyError('hook failed')
m.register_forward_hook(bad, always_call=True)
m.register_forward_pre_hook(lambda mod, a: 1 / 0)
m(torch.ones(1))""",
    """import torch.nn as nn
from torch.nn.modules.module import register_module_forward_hook
class Bad(nn.Module):
    def forward(self, x):
        raise ValueError('boom')
h = register_module_forward_hook(lambda mod, a, out: print('global always', out), always_call=True)
try:
    Bad()(torch.ones(1))
except ValueError as e:
    print('caught', e)
h.remove()""",
    """import torch.nn as nn
m = nn.Linear(1, 1)
m.register_forward_hook(lambda mod, a, kw, out: print('kw', kw, out is None), with_kwargs=True, always_call=True)
m.register_forward_pre_hook(lambda mod, a: (_ for _ in ()).throw(RuntimeError('pre')))
m(torch.ones(1))""",
    """import torch.nn as nn
w = nn.Parameter(torch.ones(2))
try:
    opt = torch.optim.SGD([w], lr=torch.tensor([0.01, 0.02]))
    print(opt)
    w.grad = torch.ones(2)
    opt.step()
    print(w)
except Exception as e:
    print(type(e).__name__, e)""",
    """import torch.nn as nn
w = nn.Parameter(torch.ones(2))
try:
    opt = torch.optim.SGD([w], fused=True, differentiable=True)
    print(opt)
    w.grad = torch.ones(2)
    opt.step()
    print(w)
except Exception as e:
    print(type(e).__name__, e)""",
    """import torch.nn as nn
w = nn.Parameter(torch.ones(2))
try:
    opt = torch.optim.SGD([w], fused=True, foreach=True)
    print(opt)
    w.grad = torch.ones(2)
    opt.step()
    print(w)
except Exception as e:
    print(type(e).__name__, e)""",
    """import torch.nn as nn
w = nn.Parameter(torch.ones(2))
try:
    opt = torch.optim.Adam([w], lr=torch.tensor([0.01, 0.02]))
    print(opt)
    w.grad = torch.ones(2)
    opt.step()
    print(w)
except Exception as e:
    print(type(e).__name__, e)""",
    """import torch.nn as nn
w = nn.Parameter(torch.ones(2))
try:
    opt = torch.optim.Adam([w], lr=torch.tensor(0.01), foreach=True)
    print(opt)
    w.grad = torch.ones(2)
    opt.step()
    print(w)
except Exception as e:
    print(type(e).__name__, e)""",
    """import torch.nn as nn
w = nn.Parameter(torch.ones(2))
try:
    opt = torch.optim.Adam([w], betas=(0, 0.99))
    print(opt)
    w.grad = torch.ones(2)
    opt.step()
    print(w)
except Exception as e:
    print(type(e).__name__, e)""",
    """import torch.nn as nn
w = nn.Parameter(torch.ones(2))
try:
    opt = torch.optim.Adam([w], betas=(0.9, 0))
    print(opt)
    w.grad = torch.ones(2)
    opt.step()
    print(w)
except Exception as e:
    print(type(e).__name__, e)""",
    """import torch.nn as nn
w = nn.Parameter(torch.ones(2))
try:
    opt = torch.optim.Adam([w], betas=(torch.tensor(0.9), 0.99))
    print(opt)
    w.grad = torch.ones(2)
    opt.step()
    print(w)
except Exception as e:
    print(type(e).__name__, e)""",
    """import torch.nn as nn
w = nn.Parameter(torch.ones(2))
try:
    opt = torch.optim.Adam([w], fused=True, differentiable=True)
    print(opt)
    w.grad = torch.ones(2)
    opt.step()
    print(w)
except Exception as e:
    print(type(e).__name__, e)""",
    """import torch.nn as nn
w = nn.Parameter(torch.ones(2))
try:
    opt = torch.optim.Adam([w], fused=True, foreach=True)
    print(opt)
    w.grad = torch.ones(2)
    opt.step()
    print(w)
except Exception as e:
    print(type(e).__name__, e)""",
    """import torch.nn as nn
w = nn.Parameter(torch.ones(2))
try:
    opt = torch.optim.AdamW([w], lr=torch.tensor([0.01, 0.02]))
    print(opt)
    w.grad = torch.ones(2)
    opt.step()
    print(w)
except Exception as e:
    print(type(e).__name__, e)""",
    """import torch.nn as nn
w = nn.Parameter(torch.ones(2))
try:
    opt = torch.optim.AdamW([w], lr=torch.tensor(0.01), foreach=True)
    print(opt)
    w.grad = torch.ones(2)
    opt.step()
    print(w)
except Exception as e:
    print(type(e).__name__, e)""",
    """import torch.nn as nn
w = nn.Parameter(torch.ones(2))
try:
    opt = torch.optim.AdamW([w], betas=(0, 0.99))
    print(opt)
    w.grad = torch.ones(2)
    opt.step()
    print(w)
except Exception as e:
    print(type(e).__name__, e)""",
    """import torch.nn as nn
w = nn.Parameter(torch.ones(2))
try:
    opt = torch.optim.AdamW([w], betas=(torch.tensor(0.9), 0.99))
    print(opt)
    w.grad = torch.ones(2)
    opt.step()
    print(w)
except Exception as e:
    print(type(e).__name__, e)""",
    """import torch.nn as nn
w = nn.Parameter(torch.ones(2))
try:
    opt = torch.optim.RMSprop([w], lr=torch.tensor([0.01, 0.02]))
    print(opt)
    w.grad = torch.ones(2)
    opt.step()
    print(w)
except Exception as e:
    print(type(e).__name__, e)""",
    """import torch.nn as nn
w = nn.Parameter(torch.ones(2))
try:
    opt = torch.optim.Adagrad([w], fused=True, differentiable=True)
    print(opt)
    w.grad = torch.ones(2)
    opt.step()
    print(w)
except Exception as e:
    print(type(e).__name__, e)""",
    """import torch.nn as nn
w = nn.Parameter(torch.ones(2))
try:
    opt = torch.optim.Adagrad([w], fused=True, foreach=True)
    print(opt)
    w.grad = torch.ones(2)
    opt.step()
    print(w)
except Exception as e:
    print(type(e).__name__, e)""",
    """import torch.nn as nn
w = nn.Parameter(torch.ones(2))
try:
    opt = torch.optim.ASGD([w], lr=torch.tensor([0.01, 0.02]))
    print(opt)
    w.grad = torch.ones(2)
    opt.step()
    print(w)
except Exception as e:
    print(type(e).__name__, e)""",
    """import torch.nn as nn
w = nn.Parameter(torch.ones(2))
try:
    opt = torch.optim.ASGD([w], lr=torch.tensor(0.01), foreach=True)
    print(opt)
    w.grad = torch.ones(2)
    opt.step()
    print(w)
except Exception as e:
    print(type(e).__name__, e)""",
    """import torch.nn as nn
w = nn.Parameter(torch.ones(2))
try:
    opt = torch.optim.ASGD([w], lr=torch.tensor(0.01))
    print(opt)
    w.grad = torch.ones(2)
    opt.step()
    print(w)
except Exception as e:
    print(type(e).__name__, e)""",
    """import torch.nn as nn
w = nn.Parameter(torch.ones(2))
try:
    opt = torch.optim.Rprop([w], lr=torch.tensor([0.01, 0.02]))
    print(opt)
    w.grad = torch.ones(2)
    opt.step()
    print(w)
except Exception as e:
    print(type(e).__name__, e)""",
    """import torch.nn as nn
w = nn.Parameter(torch.ones(2))
lr = torch.tensor(0.1)
opt = torch.optim.SGD([w], lr=lr)
s = torch.optim.lr_scheduler.StepLR(opt, 1, 0.5)
print(opt.param_groups[0]['initial_lr'] is lr, opt.param_groups[0]['lr'] is lr)
for i in range(3):
    opt.step(); s.step()
    print(s.get_last_lr(), opt.param_groups[0]['lr'], lr)
print(s.state_dict())""",
    """import torch.nn as nn
w = nn.Parameter(torch.ones(2))
opt = torch.optim.Adam([w], lr=torch.tensor(0.1))
s = torch.optim.lr_scheduler.CosineAnnealingLR(opt, 4)
for i in range(3):
    opt.step(); s.step()
    print(s.get_last_lr())""",
    """import torch.nn as nn
w = nn.Parameter(torch.ones(2))
opt = torch.optim.Adam([w], lr=torch.tensor(0.1))
s = torch.optim.lr_scheduler.ReduceLROnPlateau(opt, patience=0)
for l in [1.0, 2.0, 3.0]:
    opt.step(); s.step(l)
    print(s.get_last_lr(), opt.param_groups[0]['lr'])""",
    """import torch.nn as nn
w = nn.Parameter(torch.ones(2))
opt = torch.optim.SGD([w], lr=torch.tensor(0.1), momentum=0.9)
s = torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=1.0, total_steps=4)
for i in range(3):
    opt.step(); s.step()
    print(s.get_last_lr(), opt.param_groups[0]['lr'])""",
    """import torch.nn as nn
w = nn.Parameter(torch.ones(2))
opt = torch.optim.SGD([w], lr=torch.tensor(0.1))
s = torch.optim.lr_scheduler.LambdaLR(opt, lambda e: 0.5 ** e)
for i in range(3):
    opt.step(); s.step()
    print(s.get_last_lr(), opt.param_groups[0]['lr'])""",
    """import torch.nn as nn
nn.Parameter(np.ones(2))""",
    """import torch.nn as nn
nn.Parameter([1.0, 2.0])""",
    """import torch.nn as nn
w = nn.Parameter(torch.ones(2))
sgd = torch.optim.SGD([w], lr=0.1, momentum=0.9)
w.grad = torch.ones(2)
sgd.step()
adam = torch.optim.Adam([w], lr=0.01)
adam.load_state_dict(sgd.state_dict())
print(adam)
print(adam.state)
adam.step()""",
    """import torch.nn as nn
w = nn.Parameter(torch.ones(2))
opt = torch.optim.Adam([w], lr=0.01)
opt.load_state_dict({'state': {}, 'param_groups': [{'lr': 0.5, 'params': [0]}]})
print(opt)
w.grad = torch.ones(2)
opt.step()""",
    """import torch.nn as nn
w = nn.Parameter(torch.ones(2))
opt = torch.optim.Adam([w], lr=0.01)
opt.load_state_dict({'state': {0: {'step': 3, 'exp_avg': torch.zeros(2), 'exp_avg_sq': torch.zeros(2)}}, 'param_groups': [{'lr': 0.5, 'betas': (0.9, 0.99), 'eps': 1e-8, 'weight_decay': 0, 'params': [0]}]})
print(opt)
print(opt.state_dict())
w.grad = torch.ones(2)
opt.step()
print(w, opt.state[w]['step'])""",
    """import torch.nn as nn
w = nn.Parameter(torch.ones(2))
opt = torch.optim.SGD([w], lr=0.01)
opt.load_state_dict({'state': {}, 'param_groups': [{'lr': 0.5, 'momentum': 0.9, 'dampening': 0, 'weight_decay': 0, 'params': [0]}]})
print(opt)
print(opt.state_dict())""",
    """import torch.nn as nn
w = nn.Parameter(torch.ones(2))
opt = torch.optim.AdamW([w], lr=0.01)
opt.load_state_dict({'state': {}, 'param_groups': [{'lr': 0.5, 'betas': (0.9, 0.99), 'eps': 1e-8, 'weight_decay': 0.1, 'params': [0], 'decoupled_weight_decay': False}]})
print(opt.param_groups[0]['decoupled_weight_decay'])
print(opt)""",
    """import torch.nn as nn
w = nn.Parameter(torch.ones(2))
opt = torch.optim.Adagrad([w], lr=0.01)
sd = opt.state_dict()
sd['state'][0]['step'] = 4
print(sd)
opt.load_state_dict(sd)
print(opt.state)""",
    """import torch.nn as nn
w = nn.Parameter(torch.ones(2))
opt = torch.optim.ASGD([w], lr=0.01)
w.grad = torch.ones(2)
opt.step()
sd = opt.state_dict()
sd['state'][0]['step'] = 4
sd['state'][0]['eta'] = 0.5
sd['state'][0]['mu'] = 1
opt.load_state_dict(sd)
print(opt.state)""",
    """import torch.nn as nn
for name in ['RMSprop', 'Adadelta', 'Adamax', 'NAdam', 'RAdam', 'Rprop', 'Adafactor']:
    w = nn.Parameter(torch.ones(2))
    opt = getattr(torch.optim, name)([w], lr=0.01)
    w.grad = torch.ones(2)
    opt.step()
    sd = opt.state_dict()
    sd['state'][0]['step'] = 2
    if name == 'NAdam':
        sd['state'][0]['mu_product'] = 0.5
    sd['param_groups'][0] = {k: v for k, v in sd['param_groups'][0].items() if k not in ('foreach', 'maximize', 'differentiable', 'capturable', 'decoupled_weight_decay', 'centered', 'momentum')}
    opt.load_state_dict(sd)
    print(name, opt.state[w], opt.param_groups[0])""",
    """import torch.nn as nn
from torch.optim.optimizer import Optimizer, required
class MyOpt(Optimizer):
    def __init__(self, params, lr=required, momentum=0.0):
        if lr is not required and lr < 0.0:
            raise ValueError("Invalid learning rate: {}".format(lr))
        super(MyOpt, self).__init__(params, dict(lr=lr, momentum=momentum))
    def __setstate__(self, state):
        super(MyOpt, self).__setstate__(state)
    @torch.no_grad()
    def step(self, closure=None):
        loss = None
        if closure is not None:
            with torch.enable_grad():
                loss = closure()
        for group in self.param_groups:
            for p in group['params']:
                if p.grad is None:
                    continue
                d_p = p.grad
                if group['momentum'] != 0:
                    param_state = self.state[p]
                    if 'momentum_buffer' not in param_state:
                        buf = param_state['momentum_buffer'] = torch.clone(d_p).detach()
                    else:
                        buf = param_state['momentum_buffer']
                        buf.mul_(group['momentum']).add_(d_p)
                    d_p = buf
                p.add_(d_p, alpha=-group['lr'])
        return loss
w = nn.Parameter(torch.tensor([1.0, 2.0]))
opt = MyOpt([w], lr=0.1, momentum=0.5)
print(opt)
for _ in range(2):
    opt.zero_grad()
    (w ** 2).sum().backward()
    opt.step()
print(w, opt.state_dict())
opt2 = MyOpt([w], lr=0.5)
opt2.load_state_dict(opt.state_dict())
print(opt2)
print(required, repr(required))""",
    """import torch.nn as nn
from torch.optim.optimizer import Optimizer, required
class MyOpt(Optimizer):
    def __init__(self, params, lr=required):
        super().__init__(params, dict(lr=lr))
MyOpt([nn.Parameter(torch.ones(1))])""",
    """import torch.nn as nn
from torch.optim.optimizer import Optimizer, required
class MyOpt(Optimizer):
    def __init__(self, params, lr=required):
        super().__init__(params, dict(lr=lr))
o = MyOpt([{'params': [nn.Parameter(torch.ones(1))], 'lr': 0.1}])
print(o)
o.step()""",
    """import torch.nn as nn
from torch.optim import Optimizer
class Opt(Optimizer):
    def __init__(self, params):
        super().__init__(params, {})
o = Opt([nn.Parameter(torch.ones(1))])
print(o, o.defaults, o.param_groups)
o.step()""",
    """x = torch.zeros(2, 3)
x.shape[0] = 5""",
    """x = torch.zeros(2, 3)
del x.shape[0]""",
    """s = torch.Size([2, 3])
s[0] = 5""",
    """import torch.nn as nn
from torch.nn.modules.module import register_module_parameter_registration_hook
h = register_module_parameter_registration_hook(lambda m, n, p: print('param', type(m).__name__, n, tuple(p.shape)))
m = nn.Linear(2, 3)
h.remove()""",
    """import torch.nn as nn
from torch.nn.modules.module import register_module_module_registration_hook
h = register_module_module_registration_hook(lambda m, n, sub: print('module', type(m).__name__, n, type(sub).__name__))
m = nn.Sequential(nn.Linear(2, 3))
m.act = nn.ReLU()
h.remove()""",
    """import torch.nn as nn
from torch.nn.modules.module import register_module_buffer_registration_hook
h = register_module_buffer_registration_hook(lambda m, n, b: print('buffer', n, b))
m = nn.Module()
m.register_buffer('x', torch.ones(1))
h.remove()""",
]

KNOWN = {
    """import torch.nn as nn
m = nn.Linear(2, 2)
print(m.bfloat16())""":
        "minigrad has no bfloat16 (NumPy has none): Module.bfloat16 raises Tensor.bfloat16's left-out error, which names the lack",
}
