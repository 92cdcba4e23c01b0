# ruff: noqa: E501 - snippets are kept as a learner types them, one per line
"""Loose ends: how torch's functions and dtypes describe themselves (reprs, attributes),
subclasses of Parameter and Tensor in custom Functions."""

_DTYPES = "[torch.float16, torch.float32, torch.float64, torch.int8, torch.uint8, torch.int16, torch.int32, torch.int64, torch.bool]"

PROBES = [
    f"for d in {_DTYPES}:\n    print(d, d.is_floating_point, d.is_complex, d.is_signed, d.itemsize, d.abbr, d.to_real())",
    "for d in [torch.int8, torch.uint8, torch.int16, torch.int32, torch.int64, torch.bool]:\n    try:\n        d.to_complex()\n    except RuntimeError as e:\n        print(e)",
    "print(torch.tensor([1.5]).dtype.to_real(), torch.tensor([1]).dtype.is_signed)",
    # how torch's functions print: C builtins
    "print(torch.relu)",
    "print(torch.add, torch.exp, torch.matmul, torch.tensor, torch.zeros, torch.cat)",
    "print(repr(torch.sigmoid), torch.tanh.__name__, torch.sum.__qualname__, torch.mean.__module__)",
    "print(torch.arccos, torch.concat, torch.fix, torch.absolute, torch.det, torch.clip, torch.sinh_)",
    "print(type(torch.add), type(torch.add).__name__)",
    "print(torch.as_tensor, torch.from_numpy, torch.normal, torch.is_grad_enabled, torch.get_num_threads)",
    "print(torch.nn.functional.linear, torch.nn.functional.elu_, torch.nn.functional.relu_)",
    "print(torch.nn.functional.gelu, torch.nn.functional.softplus, torch.nn.functional.one_hot)",
    "F = torch.nn.functional\nprint(F.logsigmoid, F.hardtanh_, F.softshrink, F.hardshrink, F.prelu, F.celu_, F.selu_, F.threshold_)",
    "print(torch.nn.functional.relu, torch.nn.functional.softmax, torch.nn.functional.cross_entropy)",
    "print(torch.norm, torch.einsum, torch.split)",
    # where torch's objects say they live
    "print(torch.optim.Adafactor, torch.optim.Adafactor.__module__, torch.finfo, torch.iinfo)",
    "print(torch.autograd.grad.__module__, torch.func.vmap.__module__, torch.manual_seed.__module__, torch.set_default_dtype.__module__)",
    # a learner's subclass of Parameter prints as torch's subclass repr, marked a Parameter
    "class P(torch.nn.Parameter):\n    pass\np = P(torch.ones(2))\nprint(p)\nprint(repr(p), type(p).__name__, isinstance(p, torch.nn.Parameter))\nprint(type(p * 2), p * 2)",
    "class P(torch.nn.Parameter):\n    pass\nprint(P(torch.ones(2), requires_grad=False))\nprint(P(torch.ones(2, 3, dtype=torch.float64)))\nprint(str(P(torch.ones(2, 3) * 1e-9)))",
    "class P(torch.nn.Parameter):\n    pass\nm = torch.nn.Linear(2, 1)\nm.w = P(torch.ones(2))\nprint([n for n, _ in m.named_parameters()], type(m.w).__name__)",
    # a subclass with slots of its own
    "class S(torch.Tensor):\n    __slots__ = ('tag',)\ns = torch.ones(2).as_subclass(S)\ns.tag = 3\nprint(s.tag, type(s * 2).__name__)\nprint(s)",
    "class S(torch.Tensor):\n    __slots__ = ('tag',)\nx = torch.ones(2, requires_grad=True)\ns = x.as_subclass(S)\ny = (s * s).sum()\nprint(y, type(y).__name__, s.grad_fn)\ny.backward()\nprint(x.grad, type(x.grad).__name__)",
    "class S(torch.Tensor):\n    __slots__ = ('tag',)\ns = torch.arange(6.).as_subclass(S)\nv = s.view(2, 3)\nprint(v, v[0], type(v[1]).__name__, v._base is s)\ns.add_(1)\nprint(v, s.max(dim=0))",
    "class S(torch.Tensor):\n    __slots__ = ('tag',)\nclass T(S):\n    __slots__ = ('more',)\nt = torch.ones(2).as_subclass(T)\nt.more = 2\nprint(type(t + torch.ones(2).as_subclass(S)).__name__, t.more)",
    "class S(torch.Tensor):\n    __slots__ = ()\ns = torch.ones(2).as_subclass(S)\nprint(type(s + 1).__name__, s.sum())\ntry:\n    s.x = 1\nexcept AttributeError as e:\n    print('AttributeError', e)",
    # a learner's subclass through a custom Function: forward's inputs and results, backward's grads
    "class S(torch.Tensor):\n    pass\nclass F(torch.autograd.Function):\n    @staticmethod\n    def forward(ctx, x):\n        print('fwd in', type(x).__name__)\n        return x * 2\n    @staticmethod\n    def backward(ctx, g):\n        print('bwd g', type(g).__name__)\n        return g * 2\ns = torch.ones(2, requires_grad=True).as_subclass(S)\ny = F.apply(s)\nprint(type(y).__name__, y.grad_fn)\ny.sum().backward()",
    "class S(torch.Tensor):\n    pass\nclass F(torch.autograd.Function):\n    @staticmethod\n    def forward(ctx, x):\n        ctx.save_for_backward(x)\n        return x.clone()\n    @staticmethod\n    def backward(ctx, g):\n        x, = ctx.saved_tensors\n        print('saved', type(x).__name__, type(g).__name__)\n        return g\ns = torch.ones(2).as_subclass(S).requires_grad_()\nF.apply(s).sum().backward()\nprint(type(s.grad).__name__)",
    "class S(torch.Tensor):\n    pass\nclass F(torch.autograd.Function):\n    @staticmethod\n    def forward(x):\n        return x * 2\n    @staticmethod\n    def setup_context(ctx, inputs, output):\n        pass\n    @staticmethod\n    def backward(ctx, g):\n        print('bwd g', type(g).__name__)\n        return g * 2\ns = torch.ones(2, requires_grad=True).as_subclass(S)\ny = F.apply(s)\nprint(type(y).__name__)\ny.backward(torch.ones(2).as_subclass(S))",
    "class S(torch.Tensor):\n    pass\nclass F(torch.autograd.Function):\n    @staticmethod\n    def forward(ctx, x, y):\n        return x + y, x.detach()\n    @staticmethod\n    def backward(ctx, g1, g2):\n        print(type(g1).__name__, type(g2).__name__)\n        return g1, g1\nx = torch.ones(2, requires_grad=True)\ns = torch.ones(2).as_subclass(S)\na, b = F.apply(x, s)\nprint(type(a).__name__, type(b).__name__)\na.sum().backward()",
    "class S(torch.Tensor):\n    pass\nclass F(torch.autograd.Function):\n    @staticmethod\n    def forward(ctx, x):\n        return x\n    @staticmethod\n    def backward(ctx, g):\n        return g\ns = torch.ones(2, requires_grad=True).as_subclass(S)\ny = F.apply(s)\nprint(type(y).__name__, y is s, y.grad_fn)\nwith torch.no_grad():\n    z = F.apply(s)\nprint(type(z).__name__, z is s)",
    "class S(torch.Tensor):\n    pass\nclass F(torch.autograd.Function):\n    @staticmethod\n    def forward(ctx, x):\n        return x\n    @staticmethod\n    def backward(ctx, g):\n        return g\ns = torch.ones(2).as_subclass(S)\ny = F.apply(s)\nprint(type(y).__name__, y is s, y.grad_fn)\np = torch.nn.Parameter(torch.ones(2))\nprint(type(F.apply(p)).__name__)",
    "class S(torch.Tensor):\n    __slots__ = ('tag',)\nclass F(torch.autograd.Function):\n    @staticmethod\n    def forward(ctx, x):\n        return x\n    @staticmethod\n    def backward(ctx, g):\n        return g\ns = torch.ones(2, requires_grad=True).as_subclass(S)\ny = F.apply(s)\ny.tag = 1\nprint(type(y).__name__, y.tag, y.grad_fn)",
    # a learner's subclass made in its own __new__ (Tensor._make_subclass, as Parameter's) or __init__
    "class S(torch.Tensor):\n    pass\nd = torch.ones(2)\ns = torch.Tensor._make_subclass(S, d, True)\nprint(s, s.requires_grad, s.is_leaf, s._version, s.grad_fn)\ns.data.add_(1)\nprint(d, s._base, type(s * 2).__name__)",
    "class S(torch.Tensor):\n    pass\ntry:\n    torch.Tensor._make_subclass(int, torch.ones(2))\nexcept TypeError as e:\n    print(e)\ntry:\n    torch.Tensor._make_subclass(S, [1.0])\nexcept TypeError as e:\n    print(e)",
    "class S(torch.Tensor):\n    pass\nx = torch.ones(2, requires_grad=True) * 2\nt = torch.Tensor._make_subclass(S, x)\nprint(t, t.grad_fn, t.requires_grad, t.is_leaf)\ntorch.Tensor._make_subclass(S, torch.ones(2, dtype=torch.int64), True)",
    "class M(torch.Tensor):\n    def __new__(cls, data):\n        return torch.Tensor._make_subclass(cls, data, True)\nm = M(torch.tensor([1.0, 2.0]))\ny = (m * m).sum()\ny.backward()\nprint(m, type(y).__name__, m.grad, type(m.grad).__name__)",
    "class M(torch.Tensor):\n    __slots__ = ('tag',)\n    def __new__(cls, data, tag):\n        t = torch.Tensor._make_subclass(cls, data)\n        t.tag = tag\n        return t\nm = M(torch.ones(2), 'a')\nprint(m, m.tag, type(m + 1).__name__)",
    "class T(torch.Tensor):\n    def __new__(cls, data):\n        return super().__new__(cls, data)\nt = T([1.0, 2.0])\nprint(t, type(t * 2).__name__)",
    "class T(torch.Tensor):\n    def __init__(self, data):\n        self.tag = 'a'\nt = T([1.0, 2.0])\nprint(t, t.tag, T(2, 3).shape, type(t.sum()).__name__)",
    "class T(torch.Tensor):\n    def __init__(self, data):\n        super().__init__(data)\ntry:\n    T([1.0])\nexcept TypeError as e:\n    print(e)",
    "print(torch.linalg.det, torch.linalg.vector_norm, torch.special.erf, torch.special.expit)",
    "act = torch.relu\nprint(act)\nprint(act(torch.tensor([-1.0, 2.0])))",
    "class M(torch.nn.Module):\n    act = torch.relu\n    def forward(self, x):\n        return self.act(x)\nprint(M()(torch.tensor([-1.0, 2.0])))",
    "print(torch.add(torch.ones(2), 1, alpha=2), callable(torch.add))",
]

KNOWN = {
    "print(torch.Tensor.add, torch.Tensor.sum)": "torch's methods are C method descriptors "
    "(<method 'add' of 'torch._C.TensorBase' objects>); minigrad's are Python functions, and "
    "a descriptor written in Python would slow every method call",
    "print(torch.ones(2).add)": "torch's bound C method (<built-in method add of Tensor object "
    "at 0x...>); minigrad's is a bound Python method, as above",
    "print(torch.unique)": "torch's is a boolean_dispatch closure (<function "
    "boolean_dispatch.<locals>.fn at 0x...>): an accident of torch's, not copied",
    "print(torch.float32.to_complex())": "minigrad leaves complex dtypes out (the course "
    "differentiates real functions): the left-out error",
}
