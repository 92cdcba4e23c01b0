"""minigrad.func (grad, vjp, jvp, jacrev, jacfwd, hessian, vmap, functional_call) against
torch.func: random small functions run through each transform, and through compositions of
them, on both engines; results, shapes, dtypes, grad_fn presence and error messages compared."""

from __future__ import annotations

import numpy as np
import pytest
import torch
import torch.func
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

import minigrad
import minigrad.func
from minigrad.func import functional_call
from tests.torch_compare import assert_close, assert_same_error

# --- random small functions -----------------------------------------------------------------
# A function is a list of steps applied to h (starting from x), each mixing in y or the
# constant matrix M; all shapes stay (n,).
STEPS = {
    "sin": lambda L, h, y, M: h.sin(),
    "exp": lambda L, h, y, M: (h * 0.5).exp(),
    "tanh": lambda L, h, y, M: h.tanh(),
    "mul_y": lambda L, h, y, M: h * y,
    "add_cos_y": lambda L, h, y, M: h + y.cos(),
    "square": lambda L, h, y, M: h * h,
    "matmul": lambda L, h, y, M: L.matmul(M, h),
    "sigmoid_y": lambda L, h, y, M: (h - y).sigmoid(),
    "sum_bcast": lambda L, h, y, M: h * h.sum(),
}

steps = st.lists(st.sampled_from(sorted(STEPS)), min_size=1, max_size=4)
sizes = st.integers(1, 4)


def floats(shape):
    return hnp.arrays(np.float64, shape, elements=st.floats(-1.5, 1.5))


@st.composite
def cases(draw, batch=None):
    """(steps, x, y, M) as NumPy arrays; with ``batch``, x and y get a leading batch dim."""
    n = draw(sizes)
    lead = (batch,) if batch else ()
    return (draw(steps), draw(floats(lead + (n,))), draw(floats(lead + (n,))),
            draw(floats((n, n))))


def vector_fn(L, names, M):
    def f(x, y):
        h = x
        for name in names:
            h = STEPS[name](L, h, y, M)
        return h
    return f


def scalar_fn(L, names, M):
    vec = vector_fn(L, names, M)
    return lambda x, y: vec(x, y).sum()


def both(names, *arrays, M=None):
    """The function and its tensors for each engine: {lib: (L, tensors, M)}."""
    out = {}
    for L in (minigrad, torch):
        mat = L.tensor(M.copy()) if M is not None else None
        out[L] = (L, [L.tensor(a.copy()) for a in arrays], mat)
    return out


def assert_tree_close(m, t, what=""):
    """Nested tuples/lists/dicts of tensors: the same structure and close values."""
    if isinstance(t, torch.Tensor):
        assert isinstance(m, minigrad.Tensor), f"{what}: {type(m)} vs a tensor"
        # torch may answer a derivative known to be zero with a ZeroTensor (no NumPy view)
        assert_close(m, t.detach().clone() if not t._is_zerotensor() else
                     torch.zeros(t.shape, dtype=t.dtype), what)
        assert (m.grad_fn is None) == (t.grad_fn is None), f"{what}: grad_fn {m.grad_fn} vs " \
                                                           f"{t.grad_fn}"
    elif isinstance(t, dict):
        assert isinstance(m, dict) and list(m) == list(t), f"{what}: {m} vs {t}"
        for k in t:
            assert_tree_close(m[k], t[k], f"{what}[{k!r}]")
    elif isinstance(t, tuple | list):
        assert type(m) is type(t) and len(m) == len(t), f"{what}: {m} vs {t}"
        for i, (a, b) in enumerate(zip(m, t)):
            assert_tree_close(a, b, f"{what}[{i}]")
    else:
        assert m == t, f"{what}: {m} vs {t}"


def run_both(make, case):
    """``make(L, F, names, (x, y), M)`` on both engines (F is L.func)."""
    names, x, y, M = case
    results = {}
    for L in (minigrad, torch):
        results[L] = make(L, L.func, names, (L.tensor(x.copy()), L.tensor(y.copy())),
                          L.tensor(M.copy()))
    assert_tree_close(results[minigrad], results[torch])


SETTINGS = settings(deadline=None, max_examples=15)


# --- grad, grad_and_value, vjp, jvp ---------------------------------------------------------

@pytest.mark.parametrize("argnums", [0, 1, (0, 1), (1, 0), -1])
@SETTINGS
@given(case=cases())
def test_grad_and_value(argnums, case):
    run_both(lambda L, F, names, xy, M: F.grad_and_value(scalar_fn(L, names, M), argnums)(*xy),
             case)


@SETTINGS
@given(case=cases())
def test_grad_has_aux(case):
    def make(L, F, names, xy, M):
        f = scalar_fn(L, names, M)
        return F.grad(lambda x, y: (f(x, y), {"x2": x * 2, "v": [f(x, y).exp()]}),
                      argnums=(0, 1), has_aux=True)(*xy)
    run_both(make, case)


@SETTINGS
@given(case=cases())
def test_grad_of_grad(case):
    def make(L, F, names, xy, M):
        f = scalar_fn(L, names, M)
        inner = F.grad(f)
        outer = F.grad(lambda x, y: (inner(x, y) * y).sum(), argnums=(0, 1))
        return outer(*xy), F.grad(lambda y: F.grad(f)(xy[0], y).sin().sum())(xy[1])
    run_both(make, case)


@SETTINGS
@given(case=cases())
def test_grad_of_a_dict_argument(case):
    def make(L, F, names, xy, M):
        f = scalar_fn(L, names, M)
        return F.grad(lambda d, s: f(d["a"], d["b"]) * s)({"a": xy[0], "b": xy[1]},
                                                          L.tensor(2.0, dtype=L.float64))
    run_both(make, case)


@SETTINGS
@given(case=cases())
def test_vjp(case):
    def make(L, F, names, xy, M):
        f = vector_fn(L, names, M)
        out, fn, aux = F.vjp(lambda x, y: ((f(x, y), f(y, x).sum()), x.cos()), *xy,
                             has_aux=True)
        return out, fn((xy[1], L.tensor(1.5, dtype=L.float64))), aux
    run_both(make, case)


@SETTINGS
@given(case=cases())
def test_jvp(case):
    def make(L, F, names, xy, M):
        f = vector_fn(L, names, M)
        plain = F.jvp(f, tuple(xy), (xy[1].cos(), xy[0] * 0.5))
        aux = F.jvp(lambda x: (f(x, xy[1]).sum(), x.exp()), (xy[0],), (xy[1],), has_aux=True)
        return plain, aux
    run_both(make, case)


@SETTINGS
@given(case=cases())
def test_differentiating_with_respect_to_directions(case):
    """grad with respect to a jvp's tangent, and to a vjp's cotangent."""
    def make(L, F, names, xy, M):
        f = vector_fn(L, names, M)
        x, y = xy
        by_tangent = F.grad(lambda v: F.jvp(lambda q: f(q, y), (x,), (v,))[1].sum())(y)
        by_cotangent = F.grad(lambda u: F.vjp(lambda q: f(q, y), x)[1](u)[0].pow(2).sum())(y)
        return by_tangent, by_cotangent
    run_both(make, case)


@SETTINGS
@given(case=cases())
def test_nested_forward_mode(case):
    """jvp inside jvp: minigrad has one dual level, so the inner one runs by reverse mode."""
    def make(L, F, names, xy, M):
        f = vector_fn(L, names, M)
        x, y = xy
        inner = lambda r: F.jvp(lambda q: f(q, y), (r,), (r * 2,))[1]  # noqa: E731
        return F.jvp(inner, (x,), (y,)), F.jacfwd(inner)(x)
    run_both(make, case)


@SETTINGS
@given(case=cases())
def test_jvp_of_grad_and_grad_of_jvp(case):
    """Forward over reverse (a Hessian-vector product) and reverse over forward."""
    def make(L, F, names, xy, M):
        f = scalar_fn(L, names, M)
        hvp = F.jvp(lambda x: F.grad(f)(x, xy[1]), (xy[0],), (xy[1],))
        rof = F.grad(lambda x: F.jvp(lambda a: f(a, xy[1]), (x,), (xy[1],))[1])(xy[0])
        return hvp, rof
    run_both(make, case)


# --- Jacobians and Hessians -----------------------------------------------------------------

@pytest.mark.parametrize("argnums", [0, 1, (0, 1)])
@SETTINGS
@given(case=cases())
def test_jacrev_jacfwd(argnums, case):
    def make(L, F, names, xy, M):
        f = vector_fn(L, names, M)
        two = lambda x, y: (f(x, y), f(x, y).sum())  # noqa: E731
        return (F.jacrev(f, argnums)(*xy), F.jacfwd(f, argnums)(*xy),
                F.jacrev(two, argnums)(*xy), F.jacfwd(two, argnums)(*xy))
    run_both(make, case)


@SETTINGS
@given(case=cases())
def test_jacobians_have_aux(case):
    def make(L, F, names, xy, M):
        f = vector_fn(L, names, M)
        g = lambda x, y: (f(x, y), x.sin())  # noqa: E731
        return F.jacrev(g, has_aux=True)(*xy), F.jacfwd(g, has_aux=True)(*xy)
    run_both(make, case)


@SETTINGS
@given(case=cases())
def test_hessian_and_compositions(case):
    """hessian, and every pair of jacrev/jacfwd, give torch's Hessian."""
    def make(L, F, names, xy, M):
        f = scalar_fn(L, names, M)
        return (F.hessian(f)(*xy), F.hessian(f, (0, 1))(*xy),
                F.jacrev(F.jacfwd(f))(*xy), F.jacfwd(F.jacfwd(f))(*xy),
                F.jacrev(F.jacrev(f))(*xy))
    run_both(make, case)


def test_results_keep_the_graph_of_outer_autograd():
    """At the top level results have no grad_fn; with an input (or a closed-over tensor)
    that requires grad they have one, and backward through them matches torch."""
    grads = {}
    for L in (minigrad, torch):
        x = L.tensor([0.3, -0.7, 1.1], dtype=L.float64, requires_grad=True)
        w = L.tensor([1.5, 0.5, -2.0], dtype=L.float64, requires_grad=True)
        f = lambda x, w=w: (x.sin() * w).sum()  # noqa: E731
        g = L.func.grad(f)(x)
        assert g.grad_fn is not None
        assert L.func.grad(lambda v: (v * v).sum())(x.detach()).grad_fn is None
        with L.no_grad():
            assert L.func.grad(f)(x).grad_fn is None
        (g * g).sum().backward()
        grads[L] = (x.grad, w.grad)
    assert_tree_close(grads[minigrad], grads[torch])


# --- vmap -----------------------------------------------------------------------------------

@pytest.mark.parametrize("in_dims,out_dims,chunk_size", [
    (0, 0, None), ((0, None), 0, None), ((None, 0), 1, None), ((1, 0), -1, 2),
    ((0, 1), (0,), None), ((1, 1), 1, 3), ((1, 1), (1,), None)])
@SETTINGS
@given(case=cases(batch=3))
def test_vmap(in_dims, out_dims, chunk_size, case):
    names, x, y, M = case
    dims = in_dims if isinstance(in_dims, tuple) else (in_dims, in_dims)
    x = x if dims[0] != 1 else x.T.copy()
    y = y if dims[1] != 1 else y.T.copy()
    y = y[0] if dims[1] is None else y
    x = x[0] if dims[0] is None else x

    def make(L, F, names, xy, M):
        f = vector_fn(L, names, M)
        # (x * y).sum() keeps the output batched: torch fails to expand an unbatched output
        # to out_dims != 0, and with chunk_size to take out_dims=(0,) for a single tensor
        return F.vmap(lambda x, y: f(x, y) + (x * y).sum(), in_dims, out_dims,
                      chunk_size=chunk_size)(*xy)
    run_both(make, (names, x, y, M))


@SETTINGS
@given(case=cases(batch=2))
def test_vmap_pytrees_and_nesting(case):
    def make(L, F, names, xy, M):
        f = vector_fn(L, names, M)
        x, y = xy
        tree = F.vmap(lambda d, t: {"out": f(d["x"], t[0]), "pair": (t[1], d["x"].sum())},
                      in_dims=({"x": 0}, (0, None)), out_dims={"out": 1, "pair": (None, 0)})
        nested = F.vmap(F.vmap(lambda a, b: f(a, b).sum(), in_dims=(0, None)), in_dims=(None, 0))
        return tree({"x": x}, (y, M)), nested(x, y)
    run_both(make, case)


@SETTINGS
@given(case=cases(batch=3))
def test_vmap_of_grad_per_sample(case):
    def make(L, F, names, xy, M):
        f = scalar_fn(L, names, M)
        return (F.vmap(F.grad(f))(*xy), F.vmap(F.grad(f, (0, 1)), in_dims=(0, None))(xy[0], M[0]),
                F.grad(lambda x: F.vmap(f)(x, xy[1]).sum())(xy[0]),
                F.vmap(F.jacrev(vector_fn(L, names, M)))(*xy),
                F.vmap(F.hessian(f))(*xy),
                F.jvp(F.vmap(vector_fn(L, names, M)), tuple(xy), (xy[1], xy[0])),
                F.vmap(lambda a, b: F.jvp(lambda q: f(q, b), (a,), (b,)))(*xy))
    run_both(make, case)


def _mlp(L, seed):
    L.manual_seed(seed)
    return L.nn.Sequential(L.nn.Linear(3, 4), L.nn.Tanh(), L.nn.Linear(4, 2)).double()


@settings(deadline=None, max_examples=10)
@given(seed=st.integers(0, 2**16), data=floats((5, 3)), targets=floats((5, 2)))
def test_per_sample_gradients_with_functional_call(seed, data, targets):
    results = {}
    for L in (minigrad, torch):
        model = _mlp(L, seed)
        params = {k: v.detach() for k, v in model.named_parameters()}

        def loss(p, x, t, L=L, model=model):
            out = L.func.functional_call(model, p, (x.unsqueeze(0),))
            return ((out - t) ** 2).mean()

        x, t = L.tensor(data.copy()), L.tensor(targets.copy())
        per_sample = L.func.vmap(L.func.grad(loss), in_dims=(None, 0, 0))(params, x, t)
        outputs = L.func.functional_call(model, (params,), x)
        results[L] = (per_sample, outputs, L.func.functional_call(model, params, args=x,
                                                                  strict=True))
    assert_tree_close(results[minigrad], results[torch])


# --- functional_call ------------------------------------------------------------------------

class _Tied:
    """A module with a weight held under two names (tied weights), built for either engine."""

    @staticmethod
    def make(L):
        class Tied(L.nn.Module):
            def __init__(self):
                super().__init__()
                self.a = L.nn.Parameter(L.tensor([1.0, 2.0]))
                self.b = self.a
                self.register_buffer("scale", L.tensor(3.0))

            def forward(self, x):
                return x * self.a + self.b * self.scale

        return Tied()


def test_functional_call_tied_weights_strict_and_restoring():
    for flags in ({}, {"tie_weights": False}):
        out = {}
        for L in (minigrad, torch):
            m = _Tied.make(L)
            out[L] = (L.func.functional_call(m, {"a": L.tensor([5.0, 6.0])}, L.ones(2), **flags),
                      m.a.detach().clone(), m(L.ones(2)).detach())
        assert_tree_close(out[minigrad], out[torch])
    for bad in [
        lambda L, m: L.func.functional_call(m, {"a": L.ones(2), "b": L.zeros(2)}, L.ones(2)),
        lambda L, m: L.func.functional_call(m, {"a": L.ones(2), "c": L.ones(1)}, L.ones(2),
                                            strict=True),
        lambda L, m: L.func.functional_call(m, ({"a": L.ones(2)}, {"a": L.ones(2)}), L.ones(2)),
        lambda L, m: L.func.functional_call(m, ({"a": L.ones(2)}, 3), L.ones(2)),
        lambda L, m: L.func.functional_call(m, 3, L.ones(2)),
    ]:
        assert_same_error(lambda bad=bad: bad(minigrad, _Tied.make(minigrad)),
                          lambda bad=bad: bad(torch, _Tied.make(torch)))


# --- randomness -----------------------------------------------------------------------------

def test_vmap_randomness():
    x = {L: L.zeros(4, 3, dtype=L.float64) for L in (minigrad, torch)}
    assert_same_error(lambda: minigrad.vmap(lambda v: v + minigrad.randn(3))(x[minigrad]),
                      lambda: torch.vmap(lambda v: v + torch.randn(3))(x[torch]))
    assert_same_error(lambda: minigrad.vmap(lambda v: v + minigrad.rand_like(v))(x[minigrad]),
                      lambda: torch.vmap(lambda v: v + torch.rand_like(v))(x[torch]))
    assert_same_error(lambda: minigrad.func.jacfwd(lambda v: v * minigrad.rand(3))(
        minigrad.ones(3)), lambda: torch.func.jacfwd(lambda v: v * torch.rand(3))(torch.ones(3)))
    same = {}
    for L in (minigrad, torch):
        L.manual_seed(7)
        same[L] = (L.vmap(lambda v, L=L: v + L.randn(3, dtype=L.float64), randomness="same")(x[L]),
                   L.vmap(lambda v, L=L: v + L.rand(3, dtype=L.float64), randomness="same",
                          chunk_size=3)(x[L]),
                   L.randn(20))  # the generator ends where torch's does
    assert_tree_close(same[minigrad], same[torch])
    nested = {}
    for L in (minigrad, torch):
        L.manual_seed(3)
        inner = L.vmap(lambda v, L=L: v + L.rand(()), randomness="same")
        nested[L] = (L.vmap(inner, randomness="same")(x[L]), L.rand(3))
    assert_tree_close(nested[minigrad], nested[torch])
    mixed = minigrad.vmap(minigrad.vmap(lambda v: v + minigrad.rand(()), randomness="different"),
                          randomness="same")(x[minigrad])
    assert all(minigrad.equal(row, mixed[0]) for row in mixed), "the outer samples are the same"
    assert len(set(mixed[0].tolist())) == 3, "the inner samples differ"
    minigrad.manual_seed(7)
    different = minigrad.vmap(lambda v: v + minigrad.randn(3), randomness="different")(
        minigrad.zeros(4, 3))
    assert different.shape == (4, 3)
    rows = {tuple(r) for r in different.tolist()}
    assert len(rows) == 4, "every sample draws its own numbers"


# --- errors ---------------------------------------------------------------------------------

def _f(x):
    return x.sin()


ERRORS = {
    "grad of a vector": lambda L, x: L.func.grad(_f)(x),
    "grad of a non-tensor": lambda L, x: L.func.grad(lambda v: 1.0)(x),
    "grad has_aux not a pair": lambda L, x: L.func.grad(lambda v: v.sum(), has_aux=True)(x),
    "aux not tensors": lambda L, x: L.func.grad(lambda v: (v.sum(), 1), has_aux=True)(x),
    "argnum out of range": lambda L, x: L.func.grad(lambda v: v.sum(), argnums=2)(x),
    "argnums empty": lambda L, x: L.func.grad(lambda v: v.sum(), argnums=())(x),
    "argnums repeated": lambda L, x: L.func.grad(lambda a, b: a.sum(), argnums=(0, 0))(x, x),
    "argnums a list": lambda L, x: L.func.grad(lambda v: v.sum(), argnums=[0])(x),
    "grad of an int": lambda L, x: L.func.grad(lambda v: v.sum())(L.ones(3, dtype=L.int64)),
    "not a tensor": lambda L, x: L.func.grad(lambda v: v)(1.0),
    "vjp int output": lambda L, x: L.func.vjp(lambda v: (v > 0).long(), x),
    "vjp empty output": lambda L, x: L.func.vjp(lambda v: (), x),
    "vjp cotangent structure": lambda L, x: L.func.vjp(_f, x)[1]((x, x)),
    "jvp primals not a tuple": lambda L, x: L.func.jvp(_f, x, (x,)),
    "jvp structure": lambda L, x: L.func.jvp(_f, (x,), (x, x)),
    "jvp strict": lambda L, x: L.func.jvp(lambda v: L.ones(2), (x,), (x,), strict=True),
    "jvp output": lambda L, x: L.func.jvp(lambda v: 3, (x,), (x,)),
    "jacrev chunk": lambda L, x: L.func.jacrev(_f, chunk_size=0),
    "vmap in_dims type": lambda L, x: L.vmap(_f, in_dims=[0])(x),
    "vmap no inputs": lambda L, x: L.vmap(_f)(),
    "vmap in_dims structure": lambda L, x: L.vmap(_f, in_dims=(0, 0))(x),
    "vmap in_dims nested": lambda L, x: L.vmap(lambda t: t[0], in_dims=((0, None, 0),))((x, x)),
    "vmap in_dim range": lambda L, x: L.vmap(_f, in_dims=2)(x),
    "vmap in_dim float": lambda L, x: L.vmap(_f, in_dims=(0.5,))(x),
    "vmap non-tensor": lambda L, x: L.vmap(lambda a, b: a, in_dims=(0, 0))(x, 3),
    "vmap sizes": lambda L, x: L.vmap(lambda a, b: a + b.sum())(x, L.ones(4, 2)),
    "vmap all None": lambda L, x: L.vmap(_f, in_dims=None)(x),
    "vmap int output": lambda L, x: L.vmap(lambda v: 3)(x),
    "vmap batched with out_dims None": lambda L, x: L.vmap(_f, out_dims=None)(x.cumsum(0)),
    "vmap out_dims structure": lambda L, x: L.vmap(lambda v: (v, v), out_dims=(0, 0, 0))(x),
    "vmap out_dims type": lambda L, x: L.vmap(_f, out_dims=(0.5,))(x),
    "vmap randomness": lambda L, x: L.vmap(_f, randomness="sometimes"),
    "vmap in_dims dict keys": lambda L, x: L.vmap(lambda d: d["a"], in_dims=({"b": 0},))({"a": x}),
    "vmap None input": lambda L, x: L.vmap(lambda a, b: a)(x, None),
    "vjp has_aux not a pair": lambda L, x: L.func.vjp(_f, x, has_aux=True),
    "jvp has_aux not a pair": lambda L, x: L.func.jvp(_f, (x,), (x,), has_aux=True),
    "jacfwd has_aux not a pair": lambda L, x: L.func.jacfwd(_f, has_aux=True)(x),
    "jacrev has_aux not a pair": lambda L, x: L.func.jacrev(_f, has_aux=True)(x),
    "jvp integer primal": lambda L, x: L.func.jvp(_f, (x.long(),), (x.long(),)),
    "jvp tangent shape": lambda L, x: L.func.jvp(_f, (x,), (x[0],)),
    "jacrev integer output": lambda L, x: L.func.jacrev(lambda v: v.long())(x),
    "vmap chunk": lambda L, x: L.vmap(_f, chunk_size=0),
}


@pytest.mark.parametrize("name", list(ERRORS))
def test_errors_match_torch(name):
    fn = ERRORS[name]
    assert_same_error(lambda: fn(minigrad, minigrad.ones(3, 2, dtype=minigrad.float64)),
                      lambda: fn(torch, torch.ones(3, 2, dtype=torch.float64)))


def test_vmap_out_dims_none_for_unbatched_outputs():
    for L in (minigrad, torch):
        out = L.vmap(lambda v, L=L: (v * 2, L.ones(2), 3), out_dims=(0, None, None))(L.ones(3, 2))
        assert out[0].shape == (3, 2) and out[1].shape == (2,) and out[2] == 3


@settings(deadline=None, max_examples=10)
@given(seed=st.integers(0, 2**16), data=floats((2, 3)))
def test_ensemble_with_vmap_over_parameters(seed, data):
    """vmap over stacked parameters: several models in one call."""
    results = {}
    for L in (minigrad, torch):
        L.manual_seed(seed)
        model = L.nn.Linear(3, 2).double()
        w, b = L.randn(4, 2, 3, dtype=L.float64), L.randn(4, 2, dtype=L.float64)
        run = L.func.vmap(lambda w, b, L=L, model=model: L.func.functional_call(
            model, {"weight": w, "bias": b}, L.tensor(data.copy())))
        results[L] = run(w, b)
    assert_tree_close(results[minigrad], results[torch])


def test_package_names():
    assert minigrad.vmap is minigrad.func.vmap
    assert functional_call is minigrad.func.functional_call
    for name in ("grad", "grad_and_value", "vjp", "jvp", "jacrev", "jacfwd", "hessian", "vmap",
                 "functional_call"):
        assert hasattr(torch.func, name) and callable(getattr(minigrad.func, name))
