# ruff: noqa: E501 - snippets are kept as a learner types them, one per line
"""torch.optim's Adadelta, Adamax, NAdam, RAdam, Rprop and ASGD: reprs, errors, state dicts,
a few steps printed."""

_SETUP = "torch.manual_seed(0); w = torch.nn.Parameter(torch.randn(2, 3)); x = torch.randn(4, 3)\n"
_LOOP = "for _ in range(5):\n    opt.zero_grad(); loss = (x @ w.t()).tanh().pow(2).mean(); loss.backward(); opt.step()\n"
# the same gradients in both engines (a loss's gradients can differ in the last bit)
_GIVEN = "gs = torch.randn(5, 2, 3, dtype=w.dtype)\nfor g in gs:\n    w.grad = g.clone(); opt.step()\n"

PROBES = [
    # reprs and defaults
    "print(torch.optim.Adadelta([torch.zeros(2, requires_grad=True)]))",
    "print(torch.optim.Adamax([torch.zeros(2, requires_grad=True)], lr=0.1, betas=(0.5, 0.9)))",
    "print(torch.optim.NAdam([torch.zeros(2, requires_grad=True)], decoupled_weight_decay=True, weight_decay=0.01))",
    "print(torch.optim.RAdam([torch.zeros(2, requires_grad=True)]))",
    "print(torch.optim.Rprop([torch.zeros(2, requires_grad=True)], etas=(0.3, 1.5)))",
    "print(torch.optim.ASGD([torch.zeros(2, requires_grad=True)], t0=10))",
    "print(torch.optim.Adadelta([torch.zeros(2, requires_grad=True)]).defaults)",
    "print(torch.optim.NAdam([torch.zeros(2, requires_grad=True)]).param_groups[0].keys())",
    "print(list(torch.optim.RAdam([torch.zeros(2, requires_grad=True)], foreach=False).param_groups[0].items())[1:])",
    "print(torch.optim.Rprop([torch.zeros(2, requires_grad=True)]).defaults, torch.optim.ASGD([torch.zeros(2, requires_grad=True)]).defaults)",
    "print([n for n in ('Adadelta', 'Adamax', 'NAdam', 'RAdam', 'Rprop', 'ASGD') if n in torch.optim.__all__])",
    "print(issubclass(torch.optim.NAdam, torch.optim.Optimizer), isinstance(torch.optim.ASGD([torch.zeros(1, requires_grad=True)]), torch.optim.Optimizer))",
    # argument errors
    "torch.optim.Adadelta([torch.zeros(2, requires_grad=True)], lr=-1)",
    "torch.optim.Adadelta([torch.zeros(2, requires_grad=True)], rho=1.5)",
    "torch.optim.Adadelta([torch.zeros(2, requires_grad=True)], eps=-1e-6)",
    "torch.optim.Adamax([torch.zeros(2, requires_grad=True)], betas=(1.0, 0.9))",
    "torch.optim.Adamax([torch.zeros(2, requires_grad=True)], weight_decay=-0.1)",
    "torch.optim.NAdam([torch.zeros(2, requires_grad=True)], momentum_decay=-1)",
    "torch.optim.NAdam([torch.zeros(2, requires_grad=True)], betas=(0.9, 1.0))",
    "torch.optim.RAdam([torch.zeros(2, requires_grad=True)], eps=-1)",
    "torch.optim.RAdam([torch.zeros(2, requires_grad=True)], betas=(-0.5, 0.9))",
    "torch.optim.Rprop([torch.zeros(2, requires_grad=True)], etas=(1.2, 0.5))",
    "torch.optim.Rprop([torch.zeros(2, requires_grad=True)], lr=-0.1)",
    "torch.optim.ASGD([torch.zeros(2, requires_grad=True)], weight_decay=-1)",
    "torch.optim.ASGD([], lr=0.1)",
    "torch.optim.Adadelta(torch.zeros(2, requires_grad=True))",
    "torch.optim.RAdam([{'params': [torch.zeros(2, requires_grad=True)], 'lr': 0.1}, {'params': [torch.ones(1, requires_grad=True)]}], lr=-3)",
    # a few steps (float64: exact; the float32 ones print 4 digits)
    _SETUP + "opt = torch.optim.Adadelta([w])\n" + _LOOP + "print(w)",
    _SETUP + "w.data = w.data.double(); x = x.double(); opt = torch.optim.Adadelta([w], lr=0.5, weight_decay=0.1)\n" + _GIVEN + "print(w.tolist())",
    _SETUP + "opt = torch.optim.Adamax([w], lr=0.1)\n" + _GIVEN + "print(w.tolist())",
    _SETUP + "opt = torch.optim.Adamax([w], lr=0.1, maximize=True, weight_decay=0.5)\n" + _LOOP + "print(w, opt.state[w]['exp_inf'])",
    _SETUP + "opt = torch.optim.NAdam([w], lr=0.1)\n" + _LOOP + "print(w, opt.state[w]['mu_product'])",
    _SETUP + "w.data = w.data.double(); x = x.double(); opt = torch.optim.NAdam([w], lr=0.1, weight_decay=0.1, decoupled_weight_decay=True)\n" + _GIVEN + "print(w.tolist(), opt.state[w]['mu_product'].item())",
    _SETUP + "opt = torch.optim.RAdam([w], lr=0.1)\n" + _LOOP + "print(w)",
    _SETUP + "w.data = w.data.double(); x = x.double(); opt = torch.optim.RAdam([w], lr=0.1, betas=(0.5, 0.6), weight_decay=0.1)\n" + _GIVEN + "print(w.tolist())",
    _SETUP + "opt = torch.optim.Rprop([w], lr=0.1)\n" + _GIVEN + "print(w.tolist(), opt.state[w]['step_size'], opt.state[w]['prev'])",
    _SETUP + "opt = torch.optim.ASGD([w], lr=0.1, t0=2, lambd=0.1)\n" + _GIVEN + "print(w.tolist(), opt.state[w]['ax'], opt.state[w]['eta'], opt.state[w]['mu'])",
    # state dicts
    _SETUP + "opt = torch.optim.Adadelta([w])\n" + _LOOP + "print(opt.state_dict())",
    _SETUP + "opt = torch.optim.NAdam([w])\n" + _LOOP + "sd = opt.state_dict(); print(sd['state'][0].keys(), sd['state'][0]['step'], sd['param_groups'])",
    _SETUP + "opt = torch.optim.RAdam([w])\n" + _LOOP + "sd = opt.state_dict(); print(sd['state'][0]['step'], sd['state'][0].keys())",
    _SETUP + "opt = torch.optim.Rprop([w])\n" + _LOOP + "print(opt.state_dict())",
    _SETUP + "opt = torch.optim.ASGD([w])\n" + _LOOP + "print(opt.state_dict())",
    _SETUP + "opt = torch.optim.Adamax([w])\n" + _LOOP + "print(opt.state_dict()['state'][0]['step'])",
    _SETUP + "w.data = w.data.double(); x = x.double(); opt = torch.optim.NAdam([w])\n" + _LOOP + "opt2 = torch.optim.NAdam([w], lr=1.0); opt2.load_state_dict(opt.state_dict()); print(opt2.state[w]['mu_product'].dtype, opt2.state[w]['step'].dtype, opt2.param_groups[0]['lr'])",
    _SETUP + "w.data = w.data.double(); x = x.double(); opt = torch.optim.ASGD([w])\n" + _LOOP + "opt2 = torch.optim.ASGD([w]); opt2.load_state_dict(opt.state_dict()); print({k: v.dtype for k, v in opt2.state[w].items()})",
    # a parameter with no gradient is left alone and gets no state
    "a = torch.zeros(2, requires_grad=True); b = torch.ones(2, requires_grad=True); a.grad = torch.tensor([1., -1.]); opt = torch.optim.Rprop([a, b]); opt.step(); print(a, b, len(opt.state))",
    "a = torch.zeros(2, requires_grad=True); opt = torch.optim.Adadelta([a]); opt.step(); print(a, opt.state_dict())",
    # a closure: its loss is returned
    _SETUP + "opt = torch.optim.RAdam([w])\ndef closure():\n    opt.zero_grad(); loss = (w * w).sum(); loss.backward(); return loss\nprint(opt.step(closure))",
    # float64 params, the step counter stays float32
    "p = torch.zeros(2, dtype=torch.float64, requires_grad=True); p.grad = torch.ones(2, dtype=torch.float64); opt = torch.optim.NAdam([p]); opt.step(); print(opt.state[p]['step'], opt.state[p]['mu_product'], opt.state[p]['exp_avg'])",
    # nan and inf gradients
    "p = torch.zeros(3, requires_grad=True); p.grad = torch.tensor([float('nan'), float('inf'), -1.]); opt = torch.optim.Rprop([p]); opt.step(); opt.step(); print(p, opt.state[p]['step_size'])",
    "p = torch.zeros(3, requires_grad=True); p.grad = torch.tensor([float('nan'), float('inf'), -1.]); opt = torch.optim.Adamax([p]); opt.step(); print(p, opt.state[p]['exp_inf'])",
    "p = torch.zeros(3, requires_grad=True); p.grad = torch.tensor([float('nan'), float('inf'), 0.]); opt = torch.optim.Adadelta([p]); opt.step(); print(p)",
    # empty and 0-d parameters
    "p = torch.zeros(0, requires_grad=True); p.grad = torch.zeros(0); opt = torch.optim.NAdam([p]); opt.step(); print(p, opt.state[p]['exp_avg'])",
    "p = torch.tensor(1.0, requires_grad=True); p.grad = torch.tensor(0.5); opt = torch.optim.ASGD([p], t0=0); opt.step(); opt.step(); print(p, opt.state[p])",
    # settings torch's CPU step refuses: capturable (CUDA graphs), a differentiable step of a leaf
    "p = torch.zeros(2, requires_grad=True); p.grad = torch.ones(2); torch.optim.NAdam([p], capturable=True).step()",
    "p = torch.zeros(2, requires_grad=True); p.grad = torch.ones(2); torch.optim.Adadelta([p], capturable=True).step()",
    "p = torch.zeros(2, requires_grad=True); p.grad = torch.ones(2); torch.optim.ASGD([p], capturable=True).step()",
    "p = torch.zeros(2, requires_grad=True); p.grad = torch.ones(2)\nwith torch.no_grad(): torch.optim.Rprop([p], differentiable=True).step()",
    "p = torch.zeros(2); p.grad = torch.ones(2); opt = torch.optim.Adamax([p], differentiable=True); opt.step(); print(p, opt.state[p]['step'])",
    "p = torch.zeros(2, requires_grad=True); p.grad = torch.ones(2); opt = torch.optim.RAdam([p], foreach=False); opt.step(); print(p, opt.param_groups[0]['foreach'])",
    # PyTorch's MNIST example: Adadelta(lr=1.0) with StepLR(step_size=1, gamma=0.7)
    _SETUP + "opt = torch.optim.Adadelta([w], lr=1.0); sched = torch.optim.lr_scheduler.StepLR(opt, step_size=1, gamma=0.7)\nfor epoch in range(3):\n    " + _GIVEN.replace("\n", "\n    ") + "sched.step(); print(sched.get_last_lr(), list(opt.param_groups[0]))\nprint(w)",
    # LBFGS: a closure-based step
    "print(torch.optim.LBFGS([torch.zeros(2, requires_grad=True)]))",
    "print(torch.optim.LBFGS([torch.zeros(2, requires_grad=True)], max_iter=7, line_search_fn='strong_wolfe').defaults)",
    "torch.optim.LBFGS([torch.zeros(2, requires_grad=True)], lr=-0.5)",
    "torch.optim.LBFGS([{'params': [torch.zeros(2, requires_grad=True)]}, {'params': [torch.ones(1, requires_grad=True)]}])",
    "w = torch.zeros(2, requires_grad=True); opt = torch.optim.LBFGS([w]); opt.step()",
    "w = torch.ones(2, requires_grad=True); opt = torch.optim.LBFGS([w], line_search_fn='backtracking')\ndef closure():\n    opt.zero_grad(); loss = (w * w).sum(); loss.backward(); return loss\nopt.step(closure)",
    "w = torch.tensor([1.5, -2.0], requires_grad=True); opt = torch.optim.LBFGS([w])\ndef closure():\n    opt.zero_grad(); loss = ((w - torch.tensor([3., 1.])) ** 2).sum(); loss.backward(); return loss\nprint(opt.step(closure), w, opt.state[w]['func_evals'], opt.state[w]['n_iter'], list(opt.state[w]))",
    "w = torch.tensor([1.5, -2.0], requires_grad=True); opt = torch.optim.LBFGS([w], line_search_fn='strong_wolfe')\ndef closure():\n    opt.zero_grad(); loss = (w[0] - 1) ** 2 + 10 * (w[1] - w[0] ** 2) ** 2; loss.backward(); return loss\nfor _ in range(3): print(opt.step(closure).item() > 0, opt.state[w]['func_evals'], opt.state[w]['n_iter'])\nprint(w)",
    "w = torch.tensor([0.0, 0.0], requires_grad=True); opt = torch.optim.LBFGS([w])\ndef closure():\n    opt.zero_grad(); loss = (w * 0).sum(); loss.backward(); return loss\nprint(opt.step(closure), dict(opt.state[w]))",
    "w = torch.tensor([1.5, -2.0], requires_grad=True); opt = torch.optim.LBFGS([w], max_iter=2, history_size=1)\ndef closure():\n    opt.zero_grad(); loss = (w ** 4).sum(); loss.backward(); return loss\nopt.step(closure); opt.step(closure); print(w, opt.state_dict()['state'][0]['n_iter'], len(opt.state[w]['old_dirs']), type(opt.state[w]['t']).__name__, opt.state[w]['H_diag'])",
    # the remaining schedules, SWA and Adafactor, as the docs and tutorials write them
    "p = torch.nn.Parameter(torch.ones(1)); opt = torch.optim.SGD([p], lr=1e-4, momentum=0.9)\nsched = torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=0.01, steps_per_epoch=4, epochs=3)\nfor epoch in range(3):\n    for batch in range(4):\n        opt.step(); sched.step()\n    print(sched.get_last_lr(), opt.param_groups[0]['momentum'])\nprint(sched.state_dict()['_schedule_phases'], sorted(opt.param_groups[0]))\nsched.step()",
    "p = torch.nn.Parameter(torch.ones(1)); opt = torch.optim.Adam([p], lr=0.1)\ns = torch.optim.lr_scheduler.CyclicLR(opt, base_lr=0.001, max_lr=0.1, step_size_up=3, mode='triangular2')\nfor _ in range(14):\n    opt.step(); s.step(); print(s.get_last_lr(), opt.param_groups[0]['betas'])",
    "p = torch.nn.Parameter(torch.ones(1)); opt = torch.optim.SGD([p], lr=0.1)\ns = torch.optim.lr_scheduler.CosineAnnealingWarmRestarts(opt, T_0=3, T_mult=2, eta_min=1e-4)\niters = 4\nfor epoch in range(5):\n    for i in range(iters):\n        opt.step(); s.step(epoch + i / iters)\n    print(s.get_last_lr(), s.T_cur, s.T_i)",
    "p = torch.nn.Parameter(torch.ones(1)); opt = torch.optim.SGD([p], lr=0.05)\ns1 = torch.optim.lr_scheduler.ConstantLR(opt, factor=0.1, total_iters=2)\ns2 = torch.optim.lr_scheduler.ExponentialLR(opt, gamma=0.9)\ns = torch.optim.lr_scheduler.SequentialLR(opt, schedulers=[s1, s2], milestones=[2])\nc = torch.optim.lr_scheduler.ChainedScheduler([torch.optim.lr_scheduler.PolynomialLR(opt, total_iters=4, power=1.0)])\nfor _ in range(6):\n    opt.step(); s.step(); print(s.get_last_lr())\nprint(s.state_dict(), c.state_dict())",
    "torch.manual_seed(0)\nmodel = torch.nn.Sequential(torch.nn.Linear(3, 2), torch.nn.ReLU(), torch.nn.Linear(2, 1))\nopt = torch.optim.SGD(model.parameters(), lr=0.1)\nswa_model = torch.optim.swa_utils.AveragedModel(model)\nema_model = torch.optim.swa_utils.AveragedModel(model, multi_avg_fn=torch.optim.swa_utils.get_ema_multi_avg_fn(0.9))\nscheduler = torch.optim.lr_scheduler.CosineAnnealingLR(opt, T_max=10)\nswa_scheduler = torch.optim.swa_utils.SWALR(opt, swa_lr=0.05)\nx = torch.randn(16, 3); y = torch.randn(16, 1)\nfor epoch in range(10):\n    opt.zero_grad(); torch.nn.functional.mse_loss(model(x), y).backward(); opt.step()\n    ema_model.update_parameters(model)\n    if epoch > 5:\n        swa_model.update_parameters(model); swa_scheduler.step()\n    else:\n        scheduler.step()\ntorch.optim.swa_utils.update_bn([x], swa_model)\nprint(swa_model, swa_model.n_averaged, ema_model.n_averaged, list(swa_model.state_dict()))\nprint(swa_model(x[:2]), ema_model.module[0].weight, swa_scheduler.get_last_lr())",
    "torch.manual_seed(0); w = torch.empty(3, 5)\nprint(torch.nn.init.orthogonal_(w), torch.nn.init.trunc_normal_(w, std=0.02), torch.nn.init.sparse_(w, sparsity=0.4), torch.nn.init.dirac_(torch.empty(2, 2, 3)), torch.rand(2))",
    "torch.nn.init.trunc_normal_(torch.empty(2), mean=5.0)",
    "torch.manual_seed(0); w = torch.nn.Parameter(torch.randn(3, 4)); b = torch.nn.Parameter(torch.zeros(4)); x = torch.randn(5, 3)\nopt = torch.optim.Adafactor([w, b], lr=0.1)\nprint(opt)\nfor _ in range(5):\n    opt.zero_grad(); (x @ w + b).tanh().pow(2).mean().backward(); opt.step()\nprint(w, b, opt.state[w]['row_var'], opt.state[b]['variance'], opt.state[w]['step'])",
    "torch.optim.Adafactor([torch.zeros(2, requires_grad=True)], beta2_decay=0.1)",
]

KNOWN: dict[str, str] = {}

# float32 sums and products whose last bit depends on torch's fused multiply-adds
KERNEL_DEPENDENT = {code for code in PROBES if "range(5)" in code or "for g in gs" in code}
