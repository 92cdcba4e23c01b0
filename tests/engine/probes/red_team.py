# ruff: noqa: E501 - snippets are kept as a learner types them, one per line
"""What three red-team helpers found in one round (issue 22): a learner's experiments off the
lessons' path, each once wrong in minigrad (a silent difference, an error torch does not give,
or torch's error worded otherwise)."""

PROBES = [
    # numbers beyond a dtype: inf silently where torch gives inf, torch's error where it refuses
    "print(torch.tensor([1e39]), torch.tensor([7e4], dtype=torch.float16), torch.tensor(1e39), torch.as_tensor([1e39]))",
    "print(torch.tensor([1e300], dtype=torch.float64).float(), torch.tensor([7e4]).half(), torch.zeros(2) * 1e39, torch.zeros(2, dtype=torch.float16) + 7e4)",
    "print(torch.zeros(2).new_tensor([1e39]), torch.full((2,), float('inf')), torch.full((2,), 1e300, dtype=torch.float64))",
    "torch.full((2,), 1e39)",
    "torch.full((2,), 7e4, dtype=torch.float16)",
    "torch.full((2,), 3.5e38)",
    "torch.zeros(2).fill_(1e39)",
    "torch.zeros(2, dtype=torch.float16).fill_(65519.0)",
    "torch.zeros(2).fill_(-1e39)",
    "x = torch.zeros(3); x[0] = 1e39",
    "torch.zeros(2).clamp(max=1e39)",
    "torch.zeros(2).masked_fill(torch.tensor([True, False]), 1e39)",
    "torch.full_like(torch.zeros(2), 1e39)",
    "print(torch.zeros(2).fill_(float('nan')), torch.full((1,), -float('inf')), torch.zeros(2).clamp(min=-3e38))",
    "print(torch.zeros(2, dtype=torch.float16).fill_(torch.tensor(1e10)), torch.zeros(2).fill_(torch.tensor(1e300, dtype=torch.float64)), torch.zeros(2, dtype=torch.int32).fill_(torch.tensor(1e10)))",
    # backward() and grad() with nothing to differentiate against
    "x = torch.ones(2, requires_grad=True); (x * 2).sum().backward(inputs=[])",
    "x = torch.ones(2, requires_grad=True); torch.autograd.backward((x * 2).sum(), inputs=())",
    "x = torch.ones(2, requires_grad=True); torch.autograd.grad((x * 2).sum(), [])",
    # Size takes ints (or what has __index__)
    "torch.Size([2.5])",
    "torch.Size([2, 'a'])",
    "print(torch.Size([torch.tensor(3), True, 4]), torch.Size(), torch.Size((1, 2)) + (3,))",
    # Python scalars from tensors
    "float(torch.ones(2))",
    "int(torch.ones(2))",
    "float(torch.ones(0))",
    "bool(torch.tensor([]))",
    "bool(torch.ones(0, 3))",
    "bool(torch.tensor([1.0, 2.0]))",
    "torch.nn.Parameter(torch.tensor([1, 2]))",
    # empty reductions
    "torch.tensor([]).argmax()",
    "torch.tensor([]).argmin()",
    "torch.ones(0, 3).argmax(0)",
    "torch.ones(0, 3).max(0)",
    "torch.ones(0, 3).min(dim=0)",
    "print(torch.ones(0, 3).argmax(1), torch.ones(2, 3).argmax(keepdim=True), torch.ones(2, 3).argmin(keepdim=True).shape)",
    # Python ints beyond int64
    "torch.tensor(2**63)",
    "torch.tensor([1, 2**64])",
    "torch.tensor(-2**63 - 1)",
    "print(torch.tensor(2**63 - 1), torch.tensor(2**63, dtype=torch.float32), torch.tensor([2**64], dtype=torch.float64))",
    # reshape of nothing with an inferred dim
    "torch.ones(0, 3).reshape(-1, 0)",
    "torch.ones(0, 3).view(0, -1)",
    "print(torch.ones(0, 3).reshape(-1, 3).shape, torch.ones(0, 3).reshape(0, 3, -1).shape)",
    # an index out of range names its place in the index
    "torch.ones(3, 2)[1, 2]",
    "torch.ones(3, 2, 4)[1, 1, 9]",
    "torch.ones(3, 2, 4)[..., 9]",
    "torch.ones(5, 3, 2, 4)[..., 1, 9]",
    "torch.ones(3, 2, 4)[None, 1, 7]",
    "torch.ones(5, 3, 2, 4)[:, None, 1, 9]",
    "x = torch.ones(5, 3, 2); x[0, 0, 5] = 1",
    # add and sub with alpha round once where torch's kernels fuse (SGD's update is one)
    "torch.manual_seed(0); a, b = torch.randn(1000), torch.randn(1000); print(a.add(b, alpha=-0.1).sum().item(), a.sub(b, alpha=0.3)[:8].tolist(), torch.add(a, 2.5, alpha=0.7)[:3].tolist())",
    "torch.manual_seed(0); a, b = torch.randn(100, dtype=torch.float64), torch.randn(100, dtype=torch.float64); c = a.clone(); c.add_(b, alpha=0.123); d = a.clone(); d.sub_(b, alpha=0.123); print(c.sum().item(), d.sum().item(), c[:3].tolist())",
    "p = torch.tensor([0.11984150856733322], requires_grad=True); p.grad = torch.tensor([1.5336730480194092]); torch.optim.SGD([p], lr=0.1).step(); print(p.item())",
    "torch.manual_seed(0); p = torch.nn.Parameter(torch.randn(1000)); p.grad = torch.randn(1000); opt = torch.optim.SGD([p], lr=0.1, momentum=0.9, nesterov=True, weight_decay=0.01)\nfor _ in range(5): opt.step()\nprint(p[-5:].tolist(), (p * 1000).sum().item())",
    # autograd's API: starting gradients, hooks and custom Functions that return the wrong thing
    "x = torch.tensor([1.0, 2.0], requires_grad=True); torch.autograd.grad([x.sum(), (x * 10).sum()], x, grad_outputs=[torch.tensor(1.0)])",
    "x = torch.tensor([1.0, 2.0], requires_grad=True); torch.autograd.backward([x.sum(), (x * 10).sum()], grad_tensors=[torch.tensor(1.0)])",
    "x = torch.tensor([1.0, 2.0], requires_grad=True); torch.autograd.grad(x.sum(), x, grad_outputs=[])",
    "x = torch.tensor([1.0, 2.0], requires_grad=True); print(torch.autograd.grad([x.sum()], x, grad_outputs=(torch.tensor(1.0), torch.tensor(2.0))), torch.autograd.grad(x.sum(), x, grad_outputs=torch.tensor(2.0)))",
    "x = torch.tensor([1.0, 2.0], requires_grad=True); torch.autograd.grad(x.sum(), [x, x], materialize_grads=True, allow_unused=False)",
    "y = torch.ones(2, requires_grad=True); y.register_post_accumulate_grad_hook(lambda p: p.grad * 10); (y * 2).sum().backward()",
    "z = torch.ones(2, requires_grad=True); z2 = z * 1; z2.register_hook(lambda g: 3); z2.sum().backward()",
    "class Bad(torch.autograd.Function):\n    @staticmethod\n    def forward(ctx, x): return x * 2\n    @staticmethod\n    def backward(ctx, g): return 1.0\nBad.apply(torch.ones(2, requires_grad=True)).sum().backward()",
    "class Bad(torch.autograd.Function):\n    @staticmethod\n    def forward(ctx, x, y): return x * y\n    @staticmethod\n    def backward(ctx, g): return g, [1]\nBad.apply(torch.ones(2, requires_grad=True), torch.ones(2, requires_grad=True)).sum().backward()",
    "class Old(torch.autograd.Function):\n    def forward(self, x): return x * 2\n    def backward(self, g): return g * 2\nOld()(torch.ones(2))",
    "torch.manual_seed(0); x = torch.tensor([1.0, 2.0], dtype=torch.float64, requires_grad=True); print(torch.autograd.gradgradcheck(torch.sin, (x,)), torch.rand(2))",
    # optimizers: param_groups as torch keeps them, state only where kept, load_state_dict
    "torch.manual_seed(0); m = torch.nn.Sequential(torch.nn.Linear(2, 3), torch.nn.ReLU(), torch.nn.Linear(3, 1)); opt = torch.optim.SGD([{'params': m[0].parameters()}, {'params': m[2].parameters(), 'momentum': 0.9, 'lr': 1.0}], lr=0.1); print(opt); print(list(opt.param_groups[1].keys())); m(torch.ones(4, 2)).sum().backward(); opt.step(); print(opt.state_dict(), len(opt.state))",
    "p = torch.nn.Parameter(torch.ones(2)); torch.optim.SGD([p], lr=0.1).add_param_group([p])",
    "torch.optim.Adam([1.0, 2.0])",
    "torch.optim.SGD({torch.nn.Parameter(torch.ones(2))}, lr=0.1)",
    "p = torch.nn.Parameter(torch.ones(2)); print(torch.optim.SGD([p, p], lr=0.1))",
    "p, q = torch.nn.Parameter(torch.ones(2)), torch.nn.Parameter(torch.ones(2)); o = torch.optim.SGD([p], lr=0.1); o.add_param_group({'params': q, 'lr': 0.5}); print(o)",
    "torch.manual_seed(0); m = torch.nn.Linear(3, 2); a = torch.optim.Adam(m.parameters(), lr=0.01)\nfor _ in range(3):\n    a.zero_grad(); m(torch.randn(4, 3, dtype=torch.float32)).pow(2).sum().backward(); a.step()\nm2 = torch.nn.Linear(3, 2); m2.load_state_dict(m.state_dict()); b = torch.optim.Adam(m2.parameters(), lr=0.5); b.load_state_dict(a.state_dict()); print(b.param_groups[0]['lr'], b.state_dict()['state'][0]['step'], b.state_dict()['state'][1]['exp_avg'].shape)",
    "m = torch.nn.Linear(3, 2); b = torch.optim.Adam(m.parameters()); b.load_state_dict({'state': {}, 'param_groups': []})",
    "m = torch.nn.Linear(3, 2); b = torch.optim.Adam(m.parameters()); b.load_state_dict({'state': {}, 'param_groups': [{'params': [0], 'lr': 0.1}]})",
    "import io\ntorch.manual_seed(0); m = torch.nn.Linear(3, 2, dtype=torch.float64); s = torch.optim.SGD(m.parameters(), lr=0.1, momentum=0.9); m(torch.randn(4, 3, dtype=torch.float64)).sum().backward(); s.step(); buf = io.BytesIO(); torch.save(s.state_dict(), buf); buf.seek(0); s2 = torch.optim.SGD(m.parameters(), lr=0.2); s2.load_state_dict(torch.load(buf)); print(s2.state_dict())",
    # containers and registration
    "torch.manual_seed(0); nn = torch.nn; ml = nn.ModuleList([nn.Linear(2, 2) for _ in range(3)] + [nn.ReLU(), nn.ReLU(), nn.Linear(2, 1)]); print(ml); print(len(ml), ml[-1], ml[1:3]); print([n for n, _ in ml.named_parameters()])",
    "nn = torch.nn; ml = nn.ModuleList([nn.ReLU()]); ml[3]",
    "nn = torch.nn; ml = nn.ModuleList([nn.Linear(1, 1), nn.ReLU()]); ml.append(nn.Tanh()); ml.insert(0, nn.Sigmoid()); del ml[2]; print(ml, list(ml.state_dict())); e = nn.ModuleList(); print(e); e += [nn.ReLU()]; print(e + e)",
    "torch.nn.ModuleList(5)",
    "torch.nn.ModuleList([1])",
    "nn = torch.nn; md = nn.ModuleDict({'b': nn.Linear(1, 1), 'a': nn.ReLU()}); print(md, list(md.keys()), 'a' in md, len(md)); md['c'] = nn.Tanh(); print(md.pop('a'), list(md), list(md.state_dict()))",
    "nn = torch.nn; nn.ModuleDict([('x', nn.ReLU()), ('y',)])",
    "nn = torch.nn; pl = nn.ParameterList([nn.Parameter(torch.ones(2, 3)), torch.zeros(4)]); print(pl, len(pl), [type(p).__name__ for p in pl], pl[1]); pl.append(torch.ones(1, dtype=torch.float64)); print(pl, list(pl.state_dict().keys()))",
    "nn = torch.nn; pd = nn.ParameterDict({'w': nn.Parameter(torch.ones(2)), 'a': torch.zeros(3)}); print(pd, list(pd.keys()), list(pd.named_parameters()))",
    "nn = torch.nn; pd = nn.ParameterDict({'w': nn.Parameter(torch.ones(2))}); pd[1]",
    "nn = torch.nn; s = nn.Sequential(nn.Linear(1, 1), nn.ReLU(), nn.Linear(1, 2)); print(s[-1], s[1:]); s.insert(1, nn.Tanh()); del s[0]; s[0] = nn.Sigmoid(); print(s, s.pop(1)); s.extend([nn.ReLU()]); print(s)",
    "nn = torch.nn; s = nn.Sequential(nn.Linear(1, 1), nn.ReLU()); s[5]",
    "torch.nn.Sequential([torch.nn.Linear(1, 1)])",
    "torch.nn.Sequential(torch.nn.Linear(1, 1), 'relu')",
    "torch.nn.Linear(1, 1).add_module('x', 3)",
    "torch.nn.Linear(1, 1).add_module('a.b', torch.nn.ReLU())",
    "torch.nn.Linear(1, 1).add_module('weight', torch.nn.ReLU())",
    "torch.nn.Linear(1, 1).register_parameter('a.b', torch.nn.Parameter(torch.ones(1)))",
    "torch.nn.Linear(1, 1).register_parameter('', None)",
    "torch.nn.Linear(1, 1).register_buffer('weight', torch.ones(1))",
    "torch.nn.Linear(1, 1).register_buffer('z', 3)",
    "torch.nn.Linear(1, 1).register_parameter('p', torch.nn.Parameter(torch.ones(1)) * 2)",
    "nn = torch.nn\nclass B(nn.Module):\n    def __init__(s):\n        super().__init__(); s.register_buffer('running', torch.zeros(2)); s.register_buffer('tmp', torch.ones(2), persistent=False); s.lin = nn.Linear(2, 2)\nb = B(); print(list(b.state_dict().keys()), [n for n, _ in b.named_buffers()]); print(b.load_state_dict(b.state_dict())); print(b.load_state_dict({'running': torch.ones(2)}, strict=False))",
    # nn.utils
    "from torch.nn.utils import clip_grad_norm_, clip_grad_value_\ntorch.manual_seed(0); ps = [torch.nn.Parameter(torch.randn(4, 5)), torch.nn.Parameter(torch.randn(3))]\nfor p in ps: p.grad = torch.randn(p.shape) * 10\nprint(clip_grad_norm_(ps, 1.0), [p.grad.norm().item() for p in ps])\nfor p in ps: p.grad = torch.randn(p.shape)\nprint(clip_grad_norm_(ps, max_norm=0.5, norm_type=1), clip_grad_norm_(ps, 0.5, norm_type=float('inf')), clip_grad_norm_(ps, 100.0), ps[1].grad)\nprint(clip_grad_value_(ps, 0.01), ps[0].grad)",
    "import torch.nn.utils as U\np = torch.nn.Parameter(torch.tensor([float('inf'), 1.0])); p.grad = torch.tensor([float('inf'), 1.0]); print(U.clip_grad_norm_([], 1.0), U.clip_grad_norm_(p, 1.0), p.grad, U.get_total_norm([torch.ones(3), torch.ones(2) * 2]))",
    "import torch.nn.utils as U\np = torch.nn.Parameter(torch.tensor([float('inf'), 1.0])); p.grad = torch.tensor([float('inf'), 1.0]); U.clip_grad_norm_(p, 1.0, error_if_nonfinite=True)",
    "from torch.nn.utils import parameters_to_vector, vector_to_parameters\ntorch.manual_seed(0); m = torch.nn.Linear(3, 2); v = parameters_to_vector(m.parameters()); print(v.shape, v.grad_fn.name(), v); vector_to_parameters(v * 2, m.parameters()); print(m.bias)",
    "from torch.nn.utils import vector_to_parameters\nvector_to_parameters([1.0], torch.nn.Linear(1, 1).parameters())",
    # what nodes save: torch reads every saved tensor, so an input changed in place is caught
    "x = torch.randn(3, 4, requires_grad=True) * 1; y = x.gather(1, torch.tensor([[0, 1], [2, 3], [1, 1]])); g = y.grad_fn; print([a for a in dir(g) if a.startswith('_saved')], g._saved_self.shape, g._saved_index, g._saved_dim); x.mul_(2); y.sum().backward()",
    "z = torch.randn(4, 3, requires_grad=True); t = torch.tensor([0, 2, 1, 1]); l = torch.nn.functional.nll_loss(z, t); print([a for a in dir(l.grad_fn) if a.startswith('_saved')], l.grad_fn._saved_target); t.add_(0); l.backward()",
    # nn.init's other recipes, torch's numbers after the same seed
    "torch.manual_seed(0); w = torch.empty(3, 5); print(torch.nn.init.kaiming_normal_(w), torch.nn.init.kaiming_normal_(w, mode='fan_out', nonlinearity='relu'), torch.nn.init.xavier_normal_(w, gain=2.0), torch.nn.init.eye_(w), torch.nn.init.kaiming_uniform_(torch.empty(4, 2), a=0.1, mode='FAN_OUT'))",
    "torch.nn.init.kaiming_normal_(torch.empty(3, 5), mode='fan')",
    "torch.nn.init.eye_(torch.empty(3))",
    "print(torch.nn.Linear(0, 3), torch.nn.init.kaiming_uniform_(torch.empty(0)))",
]

KNOWN = {}

# add/sub with alpha: torch's AVX2 and AVX512 kernels fuse the multiply-add, its plain one does not
KERNEL_DEPENDENT = {code for code in PROBES if "alpha" in code or "SGD" in code}
