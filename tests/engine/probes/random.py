# ruff: noqa: E501 - snippets are kept as a learner types them, one per line
"""Random numbers after torch.manual_seed: rand, randn, randint, randperm, normal_, uniform_,
bernoulli, normal, in float16/32/64, with generators, and their errors."""

PROBES = [
    # held-out style probes (issue 13 audit)
    "torch.manual_seed(0); print(torch.rand(3), torch.randn(2, 2), torch.randint(0, 10, (5,)), torch.randperm(6))",
    "torch.manual_seed(42); print(torch.randn(3, dtype=torch.float64), torch.rand(2, dtype=torch.float64), torch.randint(-5, 5, (2, 3)), torch.randint(3, (4,), dtype=torch.int32))",
    "torch.manual_seed(1); x = torch.empty(4); x.normal_(); print(x); x.uniform_(-2, 2); print(x); x.normal_(5., 0.1); print(x)",
    "torch.manual_seed(3); print(torch.randn(17), torch.rand(20))",
    "torch.manual_seed(3); print(torch.randn(5, 5)[2])",
    "torch.manual_seed(7); print(torch.bernoulli(torch.full((6,), 0.5)))",
    "torch.manual_seed(0); print(torch.normal(0., 1., (3,)), torch.normal(torch.zeros(2), torch.ones(2)))",
    "torch.manual_seed(0); a = torch.rand(2); torch.manual_seed(0); b = torch.rand(2); print(torch.equal(a, b), torch.initial_seed())",
    "g = torch.Generator().manual_seed(5); print(torch.rand(3, generator=g), torch.randn(2, generator=g))",
    "torch.manual_seed(0); print(torch.rand_like(torch.ones(2, 2)), torch.randn_like(torch.ones(3, dtype=torch.float64)))",
    "torch.manual_seed(0); print(torch.randperm(20), torch.randperm(1), torch.randperm(0))",
    "torch.manual_seed(0); print(torch.randint(0, 2**40, (3,)), torch.randint(0, 1, (2,)))",
    "torch.manual_seed(0); x = torch.zeros(3, dtype=torch.float16); x.uniform_(); print(x); x.normal_(); print(x)",
    "torch.manual_seed(0); print(torch.rand(()), torch.randn(()), torch.rand(0), torch.randn(2, 0))",
    "torch.manual_seed(0); torch.rand(-1)",
    "torch.manual_seed(0); t = torch.randn(4, requires_grad=True); print(t, torch.nn.init.normal_(torch.empty(2)), torch.nn.init.uniform_(torch.empty(2)))",
    "torch.manual_seed(0); l = torch.nn.Linear(3, 2); print(l.weight, l.bias)",
    "torch.manual_seed(0); x = torch.randn(3); print(x[torch.randperm(3)])",
    "torch.manual_seed(7); print(torch.bernoulli(torch.full((6,), 0.5)), torch.bernoulli(torch.rand(3, 4)))",
    "torch.manual_seed(7); print(torch.bernoulli(torch.tensor([0.2, 0.8], dtype=torch.float64)), torch.bernoulli(torch.ones(5), 0.3))",
    "torch.manual_seed(2); x = torch.empty(8); print(x.bernoulli_(), x.bernoulli_(0.9), x.bernoulli_(torch.linspace(0, 1, 8)))",
    "torch.manual_seed(2); print(torch.ones(3, dtype=torch.int64).bernoulli_(0.5), torch.zeros(2, 3).bernoulli_(torch.tensor([0.1, 0.5, 0.9])))",
    "torch.bernoulli(torch.tensor([1.5]))",
    "torch.empty(2).bernoulli_(1.5)",
    "torch.empty(2).bernoulli_(-0.1)",
    "torch.bernoulli(torch.tensor([1, 0]))",
    "torch.ones(3).bernoulli_(torch.tensor([0.1, 0.9]))",
    "torch.manual_seed(0); p = torch.full((3,), .5, requires_grad=True); b = torch.bernoulli(p); b.sum().backward(); print(b, p.grad)",
    "torch.manual_seed(0); x = torch.ones(3, requires_grad=True).clone(); x.bernoulli_(0.5); print(x.grad_fn); x.bernoulli_(torch.full((3,), .5)); print(x.grad_fn)",
    "torch.manual_seed(0); print(torch.normal(0., 1., (3,)), torch.normal(torch.zeros(2), torch.ones(2)), torch.normal(2., 3., size=(2, 2)))",
    "torch.manual_seed(0); print(torch.normal(torch.arange(4.), 0.5), torch.normal(1., torch.arange(4.)), torch.normal(torch.zeros(2, 1), torch.ones(3)))",
    "torch.manual_seed(0); print(torch.normal(torch.arange(20.), 0.3), torch.normal(-1., torch.arange(18.) / 7))",
    "torch.manual_seed(0); print(torch.normal(torch.zeros(3, dtype=torch.float64), torch.ones(3, dtype=torch.float64)), torch.normal(0, 1, (2,)), torch.normal(0., 1., (2,), dtype=torch.float64))",
    "torch.normal(0., 1.)",
    "torch.normal(0., -1., (2,))",
    "torch.normal(torch.zeros(2), torch.tensor([-1., 1.]))",
    "torch.normal(torch.zeros(2), torch.ones(3))",
    "torch.normal(torch.tensor([0, 1]), 1.)",
    "torch.empty(2).normal_(0, -1)",
    "torch.empty(2).normal_(0, -0.5)",
    "g = torch.Generator().manual_seed(3); print(torch.normal(0., 1., (3,), generator=g), torch.bernoulli(torch.full((4,), .5), generator=g))",
    "torch.manual_seed(3); print(torch.bernoulli(torch.linspace(0.05, 0.95, 24, dtype=torch.float64)), torch.bernoulli(torch.linspace(0.05, 0.95, 24, dtype=torch.float16)))",
    "torch.manual_seed(3); print(torch.zeros(24, dtype=torch.float64).bernoulli_(torch.linspace(0.05, 0.95, 24)), torch.zeros(5).bernoulli_(torch.full((5,), 0.5, dtype=torch.float64)))",
    # held-out style probes (issue 13 audit)
    """x = torch.ones(2, requires_grad=True)
b = torch.bernoulli(x, 0.5); print(b.grad_fn.name())
b.sum().backward()""",
    "torch.manual_seed(0); print(torch.bernoulli(torch.ones(2, 3), 0.25), torch.bernoulli(torch.zeros(3, dtype=torch.float64), p=0.5))",
]

KNOWN = {}
