"""nn layers against torch, computed at test time: the activations (LeakyReLU, GELU, SiLU,
Softplus, ELU), Dropout, one_hot, Embedding, Flatten, Unflatten and Identity.

Values, gradients, second derivatives, forward-mode tangents (also through the backward ops:
forward over reverse), grad_fn names and graphs, saved fields, module reprs, errors; dropout's
numbers after the same manual_seed (see ``torch_draws_bernoulli_per_element``)."""

from __future__ import annotations

import math
import pathlib
import re

import numpy as np
import pytest
import torch
import torch.autograd.forward_ad as tfw
from hypothesis import assume, example, given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

import minigrad
from minigrad import _left_out
from minigrad.autograd import forward_ad as mfw
from tests.torch_compare import (
    assert_close,
    assert_same_error,
    graph_signature,
    pair,
    saved_numbers,
    walk_graph,
)

LIBS = {"torch": torch, "minigrad": minigrad}
FW = {"torch": tfw, "minigrad": mfw}
# float32: minigrad computes in float64 and rounds once, torch's vectorised kernels are within
# a few ulps of that (erf, exp, log1p, tanh): a few float32 ulps, relative, plus a floor for
# results that cancel to almost nothing (gelu and silu near -3, an underflowing softplus)
TOLERANCE = {"float32": (1e-5, 1e-6), "float64": (1e-12, 1e-14)}


def close(m, t, what="", dtype="float64"):
    rtol, atol = TOLERANCE[dtype]
    assert_close(m, t, what, rtol=rtol, atol=atol)


def same_graph_and_saved(m_fn, t_fn):
    assert graph_signature(m_fn) == graph_signature(t_fn)
    for m_node, t_node in zip(walk_graph(m_fn), walk_graph(t_fn), strict=True):
        assert saved_numbers(m_node) == saved_numbers(t_node), t_node.name()


# --- activations --------------------------------------------------------------------------------
ACTIVATIONS = {
    "leaky_relu": (lambda F, x, a: F.leaky_relu(x, a), st.sampled_from([0.01, 0.2, -0.5, 2, 0])),
    "gelu": (lambda F, x, a: F.gelu(x, approximate=a), st.sampled_from(["none", "tanh"])),
    "silu": (lambda F, x, a: F.silu(x), st.none()),
    "softplus": (lambda F, x, a: F.softplus(x, *a),
                 st.tuples(st.sampled_from([1, 0.5, 2.0, 3]), st.sampled_from([20, 1.0, 5]))),
    "elu": (lambda F, x, a: F.elu(x, a), st.sampled_from([1.0, 0.5, 2, 0.0])),
}
SPECIAL = [0.0, -0.0, 1e-300, -30.0, 30.0, 100.0, -100.0]


@st.composite
def activation_cases(draw, allow_special=True):
    name = draw(st.sampled_from(sorted(ACTIVATIONS)))
    arg = draw(ACTIVATIONS[name][1])
    dtype = draw(st.sampled_from(["float32", "float64"]))
    shape = draw(hnp.array_shapes(min_dims=0, max_dims=3, max_side=4))
    element = st.floats(-8, 8) if not allow_special else \
        st.one_of(st.floats(-8, 8), st.sampled_from(SPECIAL))
    x = draw(hnp.arrays(np.float64, shape, elements=element)).astype(dtype)
    v = draw(hnp.arrays(np.float64, shape, elements=st.floats(-2, 2))).astype(dtype)
    return name, arg, x, v


def _activation(lib, name, arg, x, v):
    fn = ACTIVATIONS[name][0]
    xi = lib.tensor(x.copy(), requires_grad=True)
    vi = lib.tensor(v.copy(), requires_grad=True)
    y = fn(lib.nn.functional, xi, arg)
    (g,) = lib.autograd.grad(y, xi, vi, create_graph=True)
    return xi, vi, y, g


@settings(max_examples=150, deadline=None)
@given(activation_cases())
def test_activation_values_gradients_and_graphs_match_torch(case):
    name, arg, x, v = case
    dtype = x.dtype.name
    m_x, m_v, m_y, m_g = _activation(minigrad, *case)
    t_x, t_v, t_y, t_g = _activation(torch, *case)
    close(m_y, t_y, "forward: ", dtype)
    close(m_g, t_g, "gradient: ", dtype)
    same_graph_and_saved(m_y.grad_fn, t_y.grad_fn)
    same_graph_and_saved(m_g.grad_fn, t_g.grad_fn)  # the backward op's node (or silu's graph)
    assert_close(m_y.grad_fn._saved_self, t_y.grad_fn._saved_self)


@settings(max_examples=100, deadline=None)
@given(activation_cases(allow_special=False), st.integers(0, 2**32 - 1))
def test_activation_second_derivatives_match_torch(case, seed):
    """The gradient of sum(gradient * w) with respect to the input and the upstream gradient
    (the backward op's own backward), in float64."""
    name, arg, x, v = case
    x, v = x.astype(np.float64), v.astype(np.float64)
    w = np.random.default_rng(seed).normal(size=x.shape)
    out = {}
    for key, lib in LIBS.items():
        xi, vi, _, g = _activation(lib, name, arg, x, v)
        total = (g * lib.tensor(w)).sum()
        out[key] = lib.autograd.grad(total, (xi, vi), allow_unused=True)
    for m, t in zip(out["minigrad"], out["torch"], strict=True):
        assert (m is None) == (t is None)
        if t is not None:
            close(m, t, "second derivative: ")


@settings(max_examples=80, deadline=None)
@given(activation_cases(allow_special=False), st.integers(0, 2**32 - 1))
@example(("gelu", "tanh", np.array([0, 0, 0, -5.625], np.float32), np.full(4, -2, np.float32)),
         5687)  # found by a run: the tanh form's cancellation (1.4e-8 relative, 1.1e-14 absolute)
def test_activation_forward_mode_and_forward_over_reverse_match_torch(case, seed):
    """jvp of the op, and jvp of its backward op (a gradient made with create_graph, with
    dual inputs: the *BackwardBackward0 nodes' forward-mode rules)."""
    name, arg, x, v = case
    x, v = x.astype(np.float64), v.astype(np.float64)
    rng = np.random.default_rng(seed)
    tx, tv = rng.normal(size=x.shape), rng.normal(size=x.shape)
    out = {}
    for key, lib in LIBS.items():
        fw = FW[key]
        with fw.dual_level():
            xd = fw.make_dual(lib.tensor(x, requires_grad=True), lib.tensor(tx))
            vd = fw.make_dual(lib.tensor(v, requires_grad=True), lib.tensor(tv))
            y = ACTIVATIONS[name][0](lib.nn.functional, xd, arg)
            (g,) = lib.autograd.grad(y, xd, vd, create_graph=True)
            out[key] = [fw.unpack_dual(y).tangent, fw.unpack_dual(g).tangent]
    if name == "gelu" and arg == "tanh":  # 1 + tanh and 1 - tanh**2 cancel for x << 0
        allowed = _gelu_tanh_cancellation(x, v, tx, tv)
        for m, t, slack in zip(out["minigrad"], out["torch"], allowed, strict=True):
            m, t = m.detach().numpy(), t.detach().numpy()
            assert (np.abs(m - t) <= 1e-12 * np.abs(t) + slack).all(), (m, t, slack)
        return
    for m, t in zip(out["minigrad"], out["torch"], strict=True):
        close(m, t, "tangent: ")


def _gelu_tanh_cancellation(x, v, tx, tv):
    """How far two correct float64 engines may differ in the tanh gelu's tangents: their
    tanh may differ by an ulp (torch's SLEEF, NumPy's libm), and ``1 + tanh(inner)`` and
    ``1 - tanh(inner)**2`` lose every digit of it where tanh is near -1, so each carries an
    absolute error of a few eps times the factors it is multiplied by (torch's own result
    errs as much)."""
    eps = np.finfo(np.float64).eps
    beta, kappa = math.sqrt(2 / math.pi), 0.044715
    h = beta * (1 + 3 * kappa * x * x)  # d inner / dx
    h_prime = beta * 6 * kappa * x
    first = 0.5 + 0.5 * np.abs(x) * h  # the factors of (1 + tanh) and (1 - tanh**2) in gelu'
    second = np.abs(h) + np.abs(0.5 * x * h_prime) + np.abs(x) * h * h  # ... in gelu''
    y_slack = 8 * eps * first * np.abs(tx)
    g_slack = 8 * eps * (first * np.abs(tv) + second * np.abs(tx * v))
    return y_slack, g_slack


@pytest.mark.parametrize("name", ["leaky_relu", "gelu", "silu", "softplus", "elu"])
def test_gradcheck_and_gradgradcheck(name):
    rng = np.random.default_rng(1)
    x = minigrad.tensor(rng.normal(size=(3, 4)) * 2 + 0.05, requires_grad=True)
    fn = ACTIVATIONS[name][0]
    arg = {"leaky_relu": 0.2, "gelu": "tanh", "silu": None, "softplus": (2, 3), "elu": 0.7}[name]

    def f(a):
        return fn(minigrad.nn.functional, a, arg)
    assert minigrad.autograd.gradcheck(f, (x,), check_forward_ad=True)
    assert minigrad.autograd.gradgradcheck(f, (x,))


@pytest.mark.parametrize("call", [
    lambda lib, x: lib.nn.functional.leaky_relu(x.clone(), 0.3, inplace=True),
    lambda lib, x: lib.nn.functional.elu(x.clone(), 0.5, inplace=True),
    lambda lib, x: lib.nn.functional.silu(x.clone(), inplace=True),
    lambda lib, x: lib.nn.LeakyReLU(0.1, inplace=True)(x.clone()),
    lambda lib, x: lib.nn.ELU(inplace=True)(x.clone() * 1),
    lambda lib, x: lib.nn.SiLU(inplace=True)(x.clone()),
])
def test_inplace_activations_match_torch(call):
    """In place: LeakyReluBackward1 and EluBackward1 save the result, SiluBackward0 the input
    as it was; values, gradients and second derivatives as torch's."""
    data = np.array([[-2.0, -0.3, 0.0, 0.5], [1.5, -1.0, 3.0, -0.01]])
    res = {}
    for key, lib in LIBS.items():
        x = lib.tensor(data, requires_grad=True)
        y = call(lib, x)
        (g,) = lib.autograd.grad(y, x, lib.ones_like(y), create_graph=True)
        (gg,) = lib.autograd.grad(g.sum(), x, allow_unused=True)
        res[key] = (y, g, gg)
    m, t = res["minigrad"], res["torch"]
    close(m[0], t[0])
    close(m[1], t[1])
    assert (m[2] is None) == (t[2] is None)
    if t[2] is not None:
        close(m[2], t[2])
    same_graph_and_saved(m[0].grad_fn, t[0].grad_fn)


@pytest.mark.parametrize("call", [
    lambda lib: lib.nn.functional.leaky_relu(lib.arange(3), 0.1),
    lambda lib: lib.nn.functional.gelu(lib.arange(3)),
    lambda lib: lib.nn.functional.silu(lib.arange(3)),
    lambda lib: lib.nn.functional.softplus(lib.tensor([True])),
    lambda lib: lib.nn.functional.elu(lib.arange(3)),
    lambda lib: lib.nn.functional.gelu(lib.ones(2), approximate="fast"),
    lambda lib: lib.nn.functional.gelu(lib.ones(2), "tanh"),
    lambda lib: lib.nn.GELU("erf")(lib.ones(2)),
    lambda lib: lib.nn.functional.leaky_relu(lib.ones(2, requires_grad=True), inplace=True),
    lambda lib: lib.nn.functional.leaky_relu(
        lib.ones(2, requires_grad=True) * -1, -0.1, inplace=True).sum().backward(),
    lambda lib: lib.nn.functional.elu(
        lib.ones(2, requires_grad=True) * -1, -0.5, inplace=True).sum().backward(),
    lambda lib: _dual_inplace(lib, lambda x: lib.nn.functional.leaky_relu(x, -0.1, True)),
    lambda lib: _dual_inplace(lib, lambda x: lib.nn.functional.elu(x, -0.5, True)),
])
def test_activation_errors_match_torch(call):
    assert_same_error(lambda: call(minigrad), lambda: call(torch))


def _dual_inplace(lib, fn):
    """``fn`` on a dual tensor: an in-place activation's forward-mode rule runs at once."""
    fw = FW["torch" if lib is torch else "minigrad"]
    with fw.dual_level():
        return fn(fw.make_dual(lib.tensor([-1.0, 2.0]), lib.tensor([1.0, 1.0])))


MODULES = [
    "LeakyReLU()", "LeakyReLU(0.2, inplace=True)", "LeakyReLU(negative_slope=1)",
    "GELU()", "GELU('tanh')", "GELU(approximate='none')",
    "SiLU()", "SiLU(inplace=True)", "Softplus()", "Softplus(2, 5)", "Softplus(beta=0.5)",
    "ELU()", "ELU(0.5, True)", "ELU(alpha=2)", "Identity()", "Identity(3, unused=4)",
    "Flatten()", "Flatten(0, 2)", "Flatten(start_dim=-2)", "Unflatten(1, (2, 3))",
    "Unflatten(-1, [2, -1])", "Dropout()", "Dropout(0.2, True)", "Dropout(p=0)", "Dropout(1)",
    "Embedding(5, 3)", "Embedding(5, 3, padding_idx=-2)",
    "Embedding(5, 3, padding_idx=1, max_norm=2.0, norm_type=1.0, scale_grad_by_freq=True, "
    "sparse=True)", "Embedding(5, 3, max_norm=1)",
    "Sequential(Linear(4, 3), GELU(), Dropout(0.1), Linear(3, 2), SiLU(), Flatten(0))",
]


@pytest.mark.parametrize("expr", MODULES)
def test_module_reprs_match_torch(expr):
    reprs = [repr(eval(expr, {k: getattr(lib.nn, k) for k in dir(torch.nn) if hasattr(lib.nn, k)}))  # noqa: S307
             for lib in (minigrad, torch)]
    assert reprs[0] == reprs[1]


@pytest.mark.parametrize("name", ["LeakyReLU", "GELU", "SiLU", "Softplus", "ELU", "Dropout",
                                  "Flatten", "Unflatten", "Identity", "Embedding"])
def test_layers_are_no_longer_left_out(name):
    assert getattr(minigrad.nn, name).__name__ == name
    text = str(pytest.raises(AttributeError, lambda: minigrad.nn.Conv2d).value)
    assert name in text  # the hint lists what minigrad.nn has


@pytest.mark.parametrize("name", ["leaky_relu", "gelu", "silu", "softplus", "elu", "dropout",
                                  "one_hot", "embedding"])
def test_functions_are_no_longer_left_out(name):
    assert callable(getattr(minigrad.nn.functional, name))
    text = str(pytest.raises(AttributeError, lambda: minigrad.nn.functional.conv2d).value)
    assert name in text


def _listed(message: str) -> list[str]:
    """The names a left-out hint lists: its lines after the first, each kind's label dropped."""
    lines = message.split("\n")[1:]
    return [name for line in lines for name in re.findall(r"\w+", re.sub(r"^ +[a-z]+: ", "", line))]


def test_the_left_out_hints_list_every_layer_and_every_function():
    """The hint of ``minigrad.nn.Conv2d`` names every layer minigrad.nn has (its public
    ``Module`` subclasses but ``Module``), that of ``minigrad.nn.functional.conv2d`` every
    public function of minigrad.nn.functional, once each and nothing else: names torch has
    too (a helper imported under a public name would be listed, and fail here)."""
    nn, functional = minigrad.nn, minigrad.nn.functional
    layers = {name for name, obj in vars(nn).items()
              if not name.startswith("_") and isinstance(obj, type)
              and issubclass(obj, nn.Module) and obj is not nn.Module}
    functions = {name for name, obj in vars(functional).items()
                 if not name.startswith("_") and callable(obj)}
    assert {"Linear", "ReLU", "MSELoss", "Sequential", "RMSNorm"} <= layers  # found any at all
    assert {"linear", "relu", "mse_loss", "rms_norm", "pad"} <= functions
    for lazy, names, torch_module in ((lambda: nn.Conv2d, layers, torch.nn),
                                      (lambda: functional.conv2d, functions, torch.nn.functional)):
        listed = _listed(str(pytest.raises(AttributeError, lazy).value))
        assert sorted(listed) == sorted(names)
        assert all(hasattr(torch_module, name) for name in listed)
    # each file of layers has a kind of its own in the list, not the file's bare name
    assert {getattr(nn, name).__module__.rpartition(".")[2] for name in layers} <= set(
        _left_out._KINDS)


def test_activation_modules_compute_what_torch_computes():
    data = np.linspace(-3, 3, 12).reshape(3, 4)
    for expr in ["LeakyReLU(0.2)", "GELU('tanh')", "GELU()", "SiLU()", "Softplus(2, 1)",
                 "ELU(0.3)"]:
        out = {}
        for key, lib in LIBS.items():
            x = lib.tensor(data, requires_grad=True)
            y = eval(expr, {n: getattr(lib.nn, n) for n in ("LeakyReLU", "GELU", "SiLU",  # noqa: S307
                                                            "Softplus", "ELU")})(x)
            y.backward(lib.ones_like(y))
            out[key] = (y, x.grad)
        close(out["minigrad"][0], out["torch"][0], expr)
        close(out["minigrad"][1], out["torch"][1], expr)


# --- Flatten, Unflatten, Identity -----------------------------------------------------------------
@settings(max_examples=80, deadline=None)
@given(hnp.array_shapes(min_dims=0, max_dims=4, min_side=1, max_side=3), st.data())
def test_flatten_matches_torch(shape, data):
    ndim = max(len(shape), 1)
    start = data.draw(st.integers(-ndim, ndim - 1))
    end = data.draw(st.integers(-ndim, ndim - 1))
    assume(start % ndim <= end % ndim)  # else torch's error: see the xfail below
    transposed = len(shape) >= 2 and data.draw(st.booleans())
    base = np.arange(float(np.prod(shape))).reshape(shape)

    def run(lib):
        x = lib.tensor(base, requires_grad=True)
        y = (x.transpose(0, 1) if transposed else x * 1)
        return x, lib.nn.Flatten(start, end)(y)

    tx, ty = run(torch)
    mx, my = run(minigrad)
    close(my, ty)
    assert graph_signature(my.grad_fn) == graph_signature(ty.grad_fn)
    assert my._base is not None if ty._base is not None else my._base is None


@pytest.mark.parametrize("call", [
    lambda lib: lib.nn.Flatten()(lib.ones(3)),
    lambda lib: lib.nn.Flatten(0, 3)(lib.ones(3, 2)),
    lambda lib: lib.nn.Flatten(-3)(lib.ones(3, 2)),
])
def test_flatten_errors_match_torch(call):
    assert_same_error(lambda: call(minigrad), lambda: call(torch))


@pytest.mark.parametrize("call", [
    lambda lib: lib.nn.Flatten(1, 0)(lib.zeros(2, 3)),
    lambda lib: lib.nn.Flatten()(lib.zeros(())),
    lambda lib: lib.zeros(2, 3).flatten(1, 0),
    lambda lib: lib.zeros(()).flatten(1),
    lambda lib: lib.zeros(2, 3).flatten(5),
])
def test_flatten_checks_its_dims_as_torch(call):
    assert_same_error(lambda: call(minigrad), lambda: call(torch))


@pytest.mark.parametrize(("dim", "sizes", "shape"), [
    (1, (2, 3), (4, 6)), (-1, [2, -1], (4, 6)), (0, (1, 4, 1), (4, 6)), (1, (-1,), (4, 6)),
    (1, (2, 2), (4, 6)), (1, (-1, -1), (4, 6)), (1, (4, -1), (4, 6)), (2, (2, 3), (4, 6)),
    (0, (2, 0), (0, 3)), (0, (-1, 0), (0, 3)), (1, (), (4, 6)), (0, (1,), ()),
    (1, (-2, 3), (4, 6)),
])
def test_unflatten_matches_torch(dim, sizes, shape):
    def run(lib):
        x = lib.zeros(shape, dtype=lib.float64).requires_grad_()
        y = lib.nn.Unflatten(dim, sizes)(x * 1)
        return y

    try:
        t = run(torch)
    except Exception:  # noqa: BLE001 - both must raise alike
        assert_same_error(lambda: run(minigrad), lambda: run(torch))
        return
    m = run(minigrad)
    close(m, t)
    assert graph_signature(m.grad_fn) == graph_signature(t.grad_fn)


@pytest.mark.parametrize("args", [(1, 6), (1, (2, 3.0)), (1, "23"), (1, None)])
def test_unflatten_constructor_errors_match_torch(args):
    assert_same_error(lambda: minigrad.nn.Unflatten(*args), lambda: torch.nn.Unflatten(*args))


def test_unflatten_of_a_transposed_input_is_a_view_like_torchs():
    """Splitting one dim is a view of any layout: the same values, strides and graph."""
    (mx, tx) = pair(np.arange(12.0).reshape(3, 4), requires_grad=True)
    m, t = (lib.nn.Unflatten(0, (2, 2))(x.t()) for lib, x in ((minigrad, mx), (torch, tx)))
    close(m, t)
    assert m.stride() == t.stride()
    assert graph_signature(m.grad_fn) == graph_signature(t.grad_fn)


def test_identity_returns_its_input_itself():
    for lib in (minigrad, torch):
        x = lib.ones(2, requires_grad=True)
        assert lib.nn.Identity(5, bias=True)(x) is x


# --- dropout --------------------------------------------------------------------------------------
def torch_draws_bernoulli_per_element() -> bool:
    """Does torch's ``bernoulli_(p)`` run the per-element kernel that minigrad reproduces? Yes,
    unless torch was built with MKL and runs on an Intel processor, where it seeds MKL's own
    generator instead (DistributionKernels.cpp checks the vendor; this machine: see below)."""
    if not torch.backends.mkl.is_available():
        return True
    cpuinfo = pathlib.Path("/proc/cpuinfo")
    vendor = ""
    if cpuinfo.exists():
        for line in cpuinfo.read_text().splitlines():
            if line.startswith("vendor_id"):
                vendor = line.split(":", 1)[1].strip()
                break
    return vendor != "GenuineIntel"


PER_ELEMENT = torch_draws_bernoulli_per_element()


@st.composite
def dropout_cases(draw):
    shape = draw(hnp.array_shapes(min_dims=0, max_dims=3, min_side=0, max_side=6))
    dtype = draw(st.sampled_from(["float32", "float64"]))
    x = draw(hnp.arrays(np.float64, shape, elements=st.floats(-5, 5))).astype(dtype)
    p = draw(st.one_of(st.sampled_from([0.0, 0.5, 1.0, 0.1, 0.9]), st.floats(0, 1)))
    layout = draw(st.sampled_from(["contiguous", "transposed", "strided"]))
    return x, p, layout, draw(st.booleans()), draw(st.booleans()), draw(st.integers(0, 2**40))


def _dropout(lib, x, p, layout, training, inplace, seed):
    leaf = lib.tensor(x, requires_grad=True)
    y = leaf * 1
    if layout == "transposed" and y.dim() >= 2:
        y = y.transpose(0, -1)
    elif layout == "strided" and y.dim() >= 1:
        y = y[::2]
    lib.manual_seed(seed)
    before = y.detach().clone()  # what the input held (inplace=True overwrites it)
    out = lib.nn.functional.dropout(y, p, training, inplace)
    after = lib.rand(3, dtype=lib.float64)  # where the generator stands
    return leaf, y, out, after, before


@settings(max_examples=150, deadline=None)
@given(dropout_cases())
def test_dropout_matches_torch_after_the_same_seed(case):
    x, p, layout, training, inplace, seed = case
    m_leaf, m_in, m_out, m_after, m_before = _dropout(minigrad, *case)
    t_leaf, t_in, t_out, t_after, _ = _dropout(torch, *case)
    assert (m_out is m_in) == (t_out is t_in)  # nothing dropped: the input itself
    assert graph_signature(m_out.grad_fn) == graph_signature(t_out.grad_fn)
    exact = PER_ELEMENT or not training or p in (0.0, 1.0) or x.size == 0
    if exact and t_out is not t_in:  # the saved noise, before backward frees it
        assert_close(m_out.grad_fn._saved_other, t_out.grad_fn._saved_other, rtol=0, atol=0)
        assert m_out.grad_fn._saved_other.stride() == t_out.grad_fn._saved_other.stride()
    m_grad, t_grad = (lib.autograd.grad(out.sum(), leaf)[0]
                      for lib, out, leaf in ((minigrad, m_out, m_leaf), (torch, t_out, t_leaf)))
    if exact:
        assert_close(m_out, t_out, rtol=0, atol=0)  # the same zeros, the same scaled values
        assert_close(m_grad, t_grad, rtol=0, atol=0)
        assert_close(m_after, t_after, rtol=0, atol=0)
    else:  # MKL's generator on an Intel processor: other numbers, the same kind of result
        kept = m_out.detach().numpy() != 0
        scale = np.asarray(1 / np.asarray(1 - p, x.dtype), x.dtype)
        np.testing.assert_allclose(m_out.detach().numpy()[kept],
                                   (m_before.numpy() * scale)[kept], rtol=1e-6)


def test_dropout_draws_in_memory_order_like_torch():
    """A transposed input gets its noise in the order of its storage, as torch's kernel."""
    if not PER_ELEMENT:
        pytest.xfail("torch uses MKL's generator on this Intel processor")
    (mx, tx) = pair(np.arange(1.0, 25.0).reshape(4, 6))
    outs = []
    for lib, x in ((minigrad, mx), (torch, tx)):
        lib.manual_seed(0)
        outs.append(lib.nn.functional.dropout(x.t(), 0.5))
    assert_close(outs[0], outs[1], rtol=0, atol=0)


def test_dropout_module_in_train_and_eval_mode():
    data = np.linspace(-1, 1, 20).reshape(4, 5)
    res = {}
    for key, lib in LIBS.items():
        mod = lib.nn.Dropout(0.3)
        x = lib.tensor(data, requires_grad=True)
        lib.manual_seed(11)
        train_out = mod(x)
        mod.eval()
        res[key] = (train_out, mod(x) is x, mod.training)
    assert res["minigrad"][1:] == res["torch"][1:] == (True, False)
    if PER_ELEMENT:
        assert_close(res["minigrad"][0], res["torch"][0], rtol=0, atol=0)
    assert res["minigrad"][0].grad_fn.name() == res["torch"][0].grad_fn.name() == "MulBackward0"


@pytest.mark.parametrize("call", [
    lambda lib: lib.nn.Dropout(1.5),
    lambda lib: lib.nn.Dropout(-0.1),
    lambda lib: lib.nn.functional.dropout(lib.ones(3), -0.5),
    lambda lib: lib.nn.functional.dropout(lib.ones(3), 2),
    lambda lib: lib.nn.functional.dropout(lib.arange(4), 0.5),
    lambda lib: lib.nn.functional.dropout(lib.ones(3, requires_grad=True), 0.5, inplace=True),
])
def test_dropout_errors_match_torch(call):
    assert_same_error(lambda: call(minigrad), lambda: call(torch))


# --- one_hot --------------------------------------------------------------------------------------
@settings(max_examples=100, deadline=None)
@given(hnp.arrays(np.int64, hnp.array_shapes(min_dims=0, max_dims=3, min_side=0, max_side=4),
                  elements=st.integers(-1, 6)),
       st.sampled_from([-1, 0, 1, 3, 7, 10, -2]))
def test_one_hot_matches_torch(values, num_classes):
    def call(lib):
        return lib.nn.functional.one_hot(lib.tensor(values), num_classes)
    try:
        t = call(torch)
    except RuntimeError:
        assert_same_error(lambda: call(minigrad), lambda: call(torch))
        return
    m = call(minigrad)
    assert_close(m, t, rtol=0, atol=0)


@pytest.mark.parametrize("dtype", ["int32", "float32", "bool", "uint8"])
def test_one_hot_refuses_other_dtypes_like_torch(dtype):
    assert_same_error(
        lambda: minigrad.nn.functional.one_hot(minigrad.zeros(2, dtype=getattr(minigrad, dtype))),
        lambda: torch.nn.functional.one_hot(torch.zeros(2, dtype=getattr(torch, dtype))))


# --- embedding ------------------------------------------------------------------------------------
@st.composite
def embedding_cases(draw):
    rows = draw(st.integers(1, 6))
    dim = draw(st.integers(1, 4))
    shape = draw(hnp.array_shapes(min_dims=0, max_dims=2, min_side=0, max_side=4))
    indices = draw(hnp.arrays(np.int64, shape, elements=st.integers(0, rows - 1)))
    padding = draw(st.one_of(st.none(), st.integers(-rows, rows - 1)))
    freq = draw(st.booleans())
    dtype = draw(st.sampled_from(["float32", "float64"]))
    weight = draw(hnp.arrays(np.float64, (rows, dim), elements=st.floats(-3, 3))).astype(dtype)
    upstream = draw(hnp.arrays(np.float64, (*shape, dim), elements=st.floats(-2, 2)))
    index_dtype = draw(st.sampled_from(["int64", "int32"]))
    return indices.astype(index_dtype), weight, padding, freq, upstream.astype(dtype)


def _embedding(lib, indices, weight, padding, freq, upstream):
    w = lib.tensor(weight, requires_grad=True)
    v = lib.tensor(upstream, requires_grad=True)
    out = lib.nn.functional.embedding(lib.tensor(indices), w, padding, scale_grad_by_freq=freq)
    (g,) = lib.autograd.grad(out, w, v, create_graph=True)
    (gv,) = lib.autograd.grad((g * g).sum(), v, allow_unused=True)
    return out, g, gv


@settings(max_examples=120, deadline=None)
@given(embedding_cases())
def test_embedding_matches_torch(case):
    if case[0].size == 0:  # torch's double backward views its result as [0, -1]: an error
        with pytest.raises(RuntimeError):
            _embedding(torch, *case)
        with pytest.raises(RuntimeError):  # minigrad's view words it otherwise (shape.py)
            _embedding(minigrad, *case)
        return
    m_out, m_g, m_gv = _embedding(minigrad, *case)
    t_out, t_g, t_gv = _embedding(torch, *case)
    dtype = case[1].dtype.name
    close(m_out, t_out, "forward: ", dtype)
    close(m_g, t_g, "gradient: ", dtype)
    same_graph_and_saved(m_out.grad_fn, t_out.grad_fn)
    assert_close(m_out.grad_fn._saved_indices, t_out.grad_fn._saved_indices)
    same_graph_and_saved(m_g.grad_fn, t_g.grad_fn)
    assert (m_gv is None) == (t_gv is None)
    if t_gv is not None:
        close(m_gv, t_gv, "second order: ", dtype)


def test_embedding_forward_mode_matches_torch():
    rng = np.random.default_rng(5)
    weight, tangent = rng.normal(size=(5, 3)), rng.normal(size=(5, 3))
    out = {}
    for key, lib in LIBS.items():
        with FW[key].dual_level():
            w = FW[key].make_dual(lib.tensor(weight), lib.tensor(tangent))
            y = lib.nn.functional.embedding(lib.tensor([[0, 4], [4, 1]]), w, padding_idx=4)
            out[key] = FW[key].unpack_dual(y).tangent
    close(out["minigrad"], out["torch"])


def test_embedding_gradcheck_and_gradgradcheck():
    w = minigrad.tensor(np.random.default_rng(2).normal(size=(4, 3)), requires_grad=True)
    idx = minigrad.tensor([[0, 3], [3, 2]])

    def f(weight):
        return minigrad.nn.functional.embedding(idx, weight)
    assert minigrad.autograd.gradcheck(f, (w,), check_forward_ad=True)
    assert minigrad.autograd.gradgradcheck(f, (w,))


@pytest.mark.parametrize("kwargs", [{}, {"padding_idx": 2}, {"padding_idx": -1},
                                    {"dtype": "float64"}])
@pytest.mark.parametrize("seed", [0, 1234])
def test_embedding_module_initialises_like_torch(kwargs, seed):
    """init.normal_ after the same manual_seed: torch's weights; the padding row zeroed."""
    weights = []
    for lib in (minigrad, torch):
        lib.manual_seed(seed)
        kw = {k: getattr(lib, v) if k == "dtype" else v for k, v in kwargs.items()}
        mod = lib.nn.Embedding(7, 20, **kw)
        weights.append(mod.weight)
        assert mod.weight.requires_grad
    assert_close(weights[0], weights[1], rtol=0, atol=0)
    assert type(weights[0]).__name__ == "Parameter"


@pytest.mark.parametrize("freeze", [True, False])
def test_embedding_from_pretrained_like_torch(freeze):
    data = np.arange(12.0).reshape(4, 3)
    res = {}
    for key, lib in LIBS.items():
        table = lib.tensor(data)
        mod = lib.nn.Embedding.from_pretrained(table, freeze=freeze, padding_idx=1)
        out = mod(lib.tensor([1, 3]))
        with lib.no_grad():
            table[0, 0] = 100.0  # the weight is the given tensor's memory
        res[key] = (repr(mod), mod.weight.requires_grad, out, mod.weight[0, 0].item(),
                    out.requires_grad)
    m, t = res["minigrad"], res["torch"]
    assert (m[0], m[1], m[3], m[4]) == (t[0], t[1], t[3], t[4])
    close(m[2], t[2])


def test_embedding_max_norm_renormalises_rows_in_place_like_torch():
    data = np.array([[3.0, 4.0], [0.3, 0.4], [-6.0, 8.0], [1.0, 1.0]])
    res = {}
    for key, lib in LIBS.items():
        mod = lib.nn.Embedding.from_pretrained(lib.tensor(data), freeze=False, max_norm=2.0)
        version = mod.weight._version
        out = mod(lib.tensor([0, 1, 0]))
        out.sum().backward()
        res[key] = (out, mod.weight.detach().clone(), mod.weight.grad,
                    mod.weight._version > version)
    for m, t in zip(res["minigrad"][:3], res["torch"][:3], strict=True):
        close(m, t)
    assert res["minigrad"][3] == res["torch"][3] is True
    for p in (1.0, 3, float("inf")):
        outs = [lib.nn.functional.embedding(lib.tensor([2, 3]), lib.tensor(data), max_norm=1.5,
                                            norm_type=p) for lib in (minigrad, torch)]
        close(outs[0], outs[1])


@pytest.mark.parametrize("call", [
    lambda lib: lib.nn.functional.embedding(lib.tensor([1.0]), lib.ones(3, 2)),
    lambda lib: lib.nn.functional.embedding(lib.tensor([1.0], dtype=lib.float64), lib.ones(3, 2)),
    lambda lib: lib.nn.functional.embedding(lib.tensor([3]), lib.ones(3, 2)),
    lambda lib: lib.nn.functional.embedding(lib.tensor([-1]), lib.ones(3, 2)),
    lambda lib: lib.nn.functional.embedding(lib.tensor([1]), lib.ones(3)),
    lambda lib: lib.nn.functional.embedding(lib.tensor([1]), lib.ones(3, 2), padding_idx=3),
    lambda lib: lib.nn.functional.embedding(lib.tensor([1]), lib.ones(3, 2), padding_idx=-4),
    lambda lib: lib.nn.Embedding(3, 2, padding_idx=3),
    lambda lib: lib.nn.Embedding(3, 2, padding_idx=-4),
    lambda lib: lib.nn.Embedding(3, 2, _weight=lib.ones(2, 2)),
    lambda lib: lib.nn.Embedding.from_pretrained(lib.ones(3)),
])
def test_embedding_errors_match_torch(call):
    assert_same_error(lambda: call(minigrad), lambda: call(torch))


def test_embedding_sparse_gradients_are_left_out_with_a_clear_error():
    with pytest.raises(NotImplementedError, match="sparse"):
        minigrad.nn.functional.embedding(minigrad.tensor([0]), minigrad.ones(2, 2), sparse=True)
