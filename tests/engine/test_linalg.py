"""torch.linalg (minigrad/linalg.py) beyond op_db: torch's errors for bad input, the named
tuples and printed results, singular matrices, what is left out, and random shapes and dtypes
against torch (hypothesis). op_db (tests/engine/op_db.py) checks values, graphs and gradients
of every differentiable spelling."""

from __future__ import annotations

import numpy as np
import pytest
import torch
from hypothesis import given, settings
from hypothesis import strategies as st

import minigrad
from minigrad import _left_out
from tests.torch_compare import assert_same_error, normalize_text
from tests.torch_compare import both_engines as both

INF = float("inf")

# Each call raises in torch; minigrad must raise the same type with the same message.
ERRORS = [
    "L.linalg.det(L.ones(2, 3))", "L.linalg.det(L.ones(3))",
    "L.linalg.det(L.ones(2, 2, dtype=L.int64))", "L.linalg.det(L.ones(2, 2, dtype=L.float16))",
    "L.linalg.det(1)", "L.det(L.ones(2, 3))", "L.det(1)", "L.ones(3).det()",
    "L.logdet(L.ones(2, 3))", "L.logdet(L.ones(3))", "L.logdet(L.ones(2, 2, dtype=L.int64))",
    "L.logdet(L.ones(2, 2, dtype=L.float16))", "L.logdet(1)",
    "L.slogdet(L.ones(2, 3))", "L.slogdet(L.ones(3))", "L.slogdet(L.ones(2, 2, dtype=L.int64))",
    "L.slogdet(L.ones(2, 2, dtype=L.float16))", "L.linalg.slogdet(L.ones(3, 2))",
    "L.linalg.slogdet(1)",
    "L.linalg.solve(L.ones(2, 3), L.ones(2))", "L.linalg.solve(L.ones(3), L.ones(3))",
    "L.linalg.solve(L.zeros(2, 2), L.ones(2))", "L.linalg.solve(L.zeros(3, 2, 2), L.ones(2))",
    "L.linalg.solve(L.eye(2), L.ones(3))", "L.linalg.solve(L.eye(2), L.ones(3, 3))",
    "L.linalg.solve(L.eye(2), L.ones(2, dtype=L.float64))",
    "L.linalg.solve(L.eye(2, dtype=L.int64), L.ones(2, dtype=L.int64))",
    "L.linalg.solve(L.eye(2), L.ones(2, 3), left=False)",
    "L.linalg.solve(L.eye(2), L.ones(2), left=False)",
    "L.linalg.solve(L.eye(1), L.ones(1), left=False)",
    "L.linalg.solve(L.eye(2).expand(3, 2, 2), L.ones(5, 2))",
    "L.linalg.solve(L.eye(2).expand(3, 2, 2), L.ones(4, 2, 2))",
    "L.linalg.solve(L.eye(2, dtype=L.float16), L.ones(2, dtype=L.float16))",
    "L.linalg.solve(1, 2)", "L.linalg.solve_ex(L.zeros(2, 2), L.ones(2), check_errors=True)",
    "L.linalg.inv(L.zeros(2, 2))", "L.linalg.inv(L.ones(2, 3))", "L.linalg.inv(1)",
    "L.linalg.inv_ex(L.ones(2, 3))", "L.linalg.inv_ex(L.zeros(2, 2), check_errors=True)",
    "L.linalg.inv_ex(L.zeros(3, 2, 2), check_errors=True)",
    "L.linalg.vector_norm(L.arange(4))", "L.linalg.vector_norm(1)",
    "L.linalg.vector_norm(L.arange(4.), 'fro')",
    "L.linalg.vector_norm(L.arange(4.), dtype=L.int64)",
    "L.linalg.vector_norm(L.arange(4.), dtype=L.float16)",
    "L.linalg.vector_norm(L.arange(4., dtype=L.float64), dtype=L.float32)",
    "L.linalg.vector_norm(L.zeros(0, 3), INF)", "L.linalg.vector_norm(L.zeros(0, 3), -1)",
    "L.linalg.vector_norm(L.zeros(0, 3), INF, dim=0)",
    "L.linalg.vector_norm(L.zeros(0, 3), -1.5, dim=(1, 0))",
    "L.linalg.vector_norm(L.ones(2, 3), dim=(0, 0))",
    "L.linalg.matrix_norm(L.ones(3))", "L.linalg.matrix_norm(L.ones(2, 3), 3)",
    "L.linalg.matrix_norm(L.ones(2, 3), 'abc')", "L.linalg.matrix_norm(L.ones(2, 3), dim=(0, 0))",
    "L.linalg.matrix_norm(L.ones(2, 3), 'fro', dim=(0, -2))",
    "L.linalg.matrix_norm(L.ones(2, 3, dtype=L.int64))",
    "L.linalg.matrix_norm(L.ones(2, 3), dim=(0,))",
    "L.linalg.matrix_norm(L.ones(2, 3), dim=(0, 1, 2))",
    "L.linalg.matrix_norm(L.ones(2, 3), dim=(0, 5))", "L.linalg.matrix_norm(1)",
    "L.linalg.norm(L.ones(2, 3, 4), 1)", "L.linalg.norm(L.ones(3), 'fro')",
    "L.linalg.norm(L.ones(2, 3, 4), 'fro')", "L.linalg.norm(L.ones(2, 3), 3)",
    "L.linalg.norm(L.ones(2, 3), dim=(0, 1, 1))", "L.linalg.norm(L.ones(2, 3), 'fro', dim=0)",
    "L.linalg.norm(L.ones(2, 3), 1.5, (0, 1))", "L.linalg.norm(L.ones(2, 3, dtype=L.int64))",
    "L.linalg.norm(1)",
    "L.linalg.vecdot(L.ones(3), L.ones(3, dtype=L.float64))",
    "L.linalg.vecdot(L.ones(3, dtype=L.int64), L.ones(3, dtype=L.int64))",
    "L.linalg.vecdot(L.ones(3), L.ones(4))", "L.linalg.vecdot(1, 2)",
    "L.linalg.multi_dot([L.ones(3)])", "L.linalg.multi_dot([])",
    "L.linalg.multi_dot([L.ones(2, 3), L.ones(3, 2, 2)])",
    "L.linalg.multi_dot([L.ones(2, 2, 2), L.ones(2, 3)])",
    "L.linalg.multi_dot([L.ones(2, 3), L.ones(3), L.ones(3, 2)])",
    "L.linalg.multi_dot([L.ones(3), L.ones(2, 2)])",
    "L.linalg.multi_dot([L.ones(2, 3), L.ones(3, 4), L.ones(5, 2)])",
    "L.linalg.multi_dot([L.ones(3), L.ones(3, dtype=L.float64)])", "L.linalg.multi_dot(1)",
    "L.linalg.diagonal(L.ones(3))", "L.linalg.diagonal(1)",
    "L.linalg.cross(L.ones(2, 3), L.ones(3))", "L.linalg.cross(L.ones(3, 2), L.ones(3, 2))",
    "L.linalg.cross(L.ones(3), L.ones(3), 0)", "L.linalg.cross(1, 2)",
    "L.linalg.matmul(1, 2)", "L.linalg.matmul(L.ones(2, 3), L.ones(2))",
    "L.linalg.matrix_power(L.ones(2, 3), 2)", "L.linalg.matrix_power(1, 2)",
]


@pytest.mark.parametrize("call", ERRORS)
def test_bad_input_raises_torchs_error(call):
    def run(L):
        return lambda: eval(call, {"L": L, "INF": INF})  # noqa: S307 - our own test strings

    assert_same_error(run(minigrad), run(torch))


def _text(r) -> str:
    return normalize_text(repr(r))


SUCCESSES = [
    "L.linalg.slogdet(L.tensor([[1., 2.], [3., 4.]]))",
    "L.slogdet(L.tensor([[1., 2.], [3., 4.]]))", "L.eye(2).slogdet()",
    "L.linalg.slogdet(L.zeros(2, 0, 0))", "L.linalg.det(L.zeros(0, 0))",
    "L.linalg.det(L.tensor([[1., 2.], [2., 4.]]))",
    "L.linalg.slogdet(L.tensor([[1., 2.], [2., 4.]]))",
    "L.logdet(L.tensor([[1., 2.], [3., 4.]]))", "L.logdet(L.tensor([[1., 2.], [2., 4.]]))",
    "L.logdet(L.eye(3, dtype=L.float64) * 2)",
    "L.linalg.inv_ex(L.tensor([[1., 2.], [3., 4.]]))",
    "L.linalg.inv_ex(L.zeros(3, 2, 2)).info", "L.linalg.solve_ex(L.zeros(2, 2), L.ones(2)).info",
    "L.linalg.solve_ex(L.eye(2), L.ones(2))",
    "L.linalg.solve_ex(L.tensor([[0., 1.], [0., 2.]]), L.ones(2)).info",
    "L.linalg.inv_ex(L.tensor([[1., 2.], [2., 4.]]))",
    "L.linalg.solve(L.eye(2), L.ones(3, 2), left=False)",
    "L.linalg.solve(L.eye(2).expand(3, 2, 2), L.ones(4, 1, 2, 2)).shape",
    "L.linalg.solve(L.eye(2).expand(3, 2, 2), L.ones(3, 2)).stride()",
    "L.linalg.solve(L.eye(2), L.ones(5, 3, 2, 4)).stride()",
    "L.linalg.solve(L.eye(2), L.ones(3, 2), left=False).stride()",
    "L.linalg.vector_norm(L.arange(4.))", "L.linalg.vector_norm(L.arange(4.), dtype=L.float64)",
    "L.linalg.vector_norm(L.ones(2, 3), 2, 0, True)",
    "L.linalg.vector_norm(L.ones(2, 3, dtype=L.float16))",
    "L.linalg.matrix_norm(L.ones(2, 3))", "L.linalg.matrix_norm(L.ones(2, 3, dtype=L.float16), 1)",
    "L.linalg.matrix_norm(L.zeros(0, 3), 1)", "L.linalg.norm(L.ones(2, 3, 4))",
    "L.linalg.norm(L.ones(2, 3), 1)", "L.linalg.norm(L.ones(2, 3), 2, dim=0)",
    "L.linalg.norm(L.ones(2, 3), dim=(0, 1))",
    "L.linalg.vecdot(L.ones(2, 3), L.ones(3), dim=0)",
    "L.linalg.multi_dot([L.ones(3), L.ones(3)])",
    "L.linalg.multi_dot([L.ones(3), L.ones(3, 2), L.ones(2)])",
    "L.linalg.diagonal(L.ones(2, 3, 4), offset=1)", "L.linalg.cross(L.ones(3), L.ones(3))",
    "L.linalg.matmul(L.ones(2, 3), L.ones(3))", "L.linalg.matrix_power(L.ones(2, 2), 2)",
    "type(L.linalg.slogdet(L.eye(2))).__name__", "L.linalg.slogdet(L.eye(2)).logabsdet",
    "type(L.linalg.inv_ex(L.eye(2))).__name__", "L.linalg.LinAlgError.__name__",
    "L.linalg.LinAlgError.__mro__[1:]",
]


@pytest.mark.parametrize("call", SUCCESSES)
def test_results_print_as_torchs(call):
    both(lambda L: _text(eval(call, {"L": L, "INF": INF})))  # noqa: S307


def test_nodes_save_torchs_lu_factors():
    """det and slogdet factor a contiguous A transposed (torch's use_A_T), solve factors A."""
    def run(L):
        a = L.tensor([[1.0, 5.0, 2.0], [3.0, 1.0, 0.0], [2.0, 2.0, 7.0]], requires_grad=True)
        out = []
        for A in (a, a.mT):
            for r in (L.linalg.det(A), L.linalg.slogdet(A)[1], L.linalg.solve(A, L.ones(3))):
                g = r.grad_fn
                out.append(_text((g._saved_LU, g._saved_LU.stride(), g._saved_pivots,
                                  g._saved_A)))
        return out

    both(run)


def test_named_tuples_unpack_and_read_by_name():
    def run(L):
        a = L.tensor([[2.0, 1.0], [1.0, 3.0]], requires_grad=True)
        sign, logabsdet = L.linalg.slogdet(a)
        r = L.slogdet(a)
        inverse, info = L.linalg.inv_ex(a)
        s = L.linalg.solve_ex(a, L.ones(2))
        return [_text(x) for x in (sign, logabsdet, r.sign, r.logabsdet, r[1], inverse, info,
                                   s.result, s.info, len(r), isinstance(r, tuple))]

    both(run)


def test_singular_matrices_as_torch():
    """The first derivative of det at an exactly singular matrix is torch's (zero); under
    create_graph minigrad names the SVD it would need; slogdet's gradient there is inf."""
    def run(L):
        x = L.tensor([[1.0, 2.0], [2.0, 4.0]], requires_grad=True)
        (g,) = L.autograd.grad(L.linalg.det(x), x)
        (h,) = L.autograd.grad(L.linalg.slogdet(x)[1], x)
        return _text(g), _text(h)

    both(run)
    x = minigrad.tensor([[1.0, 2.0], [2.0, 4.0]], requires_grad=True)
    with pytest.raises(NotImplementedError, match="through an SVD"):
        minigrad.autograd.grad(minigrad.linalg.det(x), x, create_graph=True)


def test_svd_norms_are_left_out_with_a_clear_error():
    x = minigrad.ones(2, 3)
    for ord_ in ("nuc", 2, -2):
        with pytest.raises(NotImplementedError, match=r"torch\.linalg\.svdvals"):
            minigrad.linalg.matrix_norm(x, ord_)
    with pytest.raises(NotImplementedError, match="ord='nuc'"):
        minigrad.linalg.norm(x, "nuc")


@pytest.mark.parametrize("name", sorted(_left_out.LEFT_OUT["minigrad.linalg"]))
def test_the_rest_of_torch_linalg_is_left_out(name):
    expected = f"minigrad does not implement torch.linalg.{name}: minigrad.linalg has "
    with pytest.raises(AttributeError, match=f"^{expected}"):
        getattr(minigrad.linalg, name)
    with pytest.raises(ImportError, match=f"^{expected}"):
        exec(f"from minigrad.linalg import {name}", {})


def test_minigrad_linalg_has_what_torch_linalg_has_or_leaves_it_out():
    public = {n for n in dir(torch.linalg) if not n.startswith("_")} - {"common_notes"}
    ours = set(minigrad.linalg.__all__)
    assert ours <= public
    assert public - ours == set(_left_out.LEFT_OUT["minigrad.linalg"])
    for name in ("linalg", "det", "logdet", "slogdet"):
        assert name not in _left_out.LEFT_OUT["minigrad"]


# --- random shapes and dtypes against torch ------------------------------------------------
def _close(m, t, dtype, cond=1.0):
    """Close within the dtype's tolerance, widened for an ill-conditioned matrix: a solve's
    rounding error grows with cond(A), its gradient's (A^-T twice) with cond(A)**2, and two
    LU factorisations (LAPACK's, minigrad's) round differently."""
    eps = np.finfo(np.float32 if dtype == "float32" else np.float64).eps
    rtol, atol = (1e-4, 1e-5) if dtype == "float32" else (1e-9, 1e-10)
    rtol = max(rtol, 10 * eps * cond ** 2)
    np.testing.assert_allclose(m.detach().numpy(), t.detach().numpy(), rtol=rtol, atol=atol)


@settings(deadline=None, max_examples=25)
@given(batch=st.lists(st.integers(1, 3), max_size=2), n=st.integers(1, 4),
       dtype=st.sampled_from(["float32", "float64"]), seed=st.integers(0, 2**16),
       transposed=st.booleans(), k=st.integers(0, 3))
def test_det_slogdet_solve_norm_match_torch(batch, n, dtype, seed, transposed, k):
    r = np.random.default_rng(seed)
    a = r.standard_normal((*batch, n, n)) / 2 + 1.5 * np.eye(n)
    b = r.standard_normal((n, k) if k else (n,))
    outs = {}
    for L in (torch, minigrad):
        A = L.tensor(a, dtype=getattr(L, dtype), requires_grad=True)
        A_ = A.mT if transposed else A
        B = L.tensor(b, dtype=getattr(L, dtype), requires_grad=True)
        sign, logabsdet = L.linalg.slogdet(A_)
        values = [L.linalg.det(A_), sign, logabsdet, L.linalg.solve(A_, B),
                  L.linalg.vector_norm(A_, 3.0, -1), L.linalg.matrix_norm(A_, 1)]
        total = sum((v * (i + 1)).sum() for i, v in enumerate(values))
        outs[L.__name__] = values + list(L.autograd.grad(total, (A, B)))
    cond = float(np.max(np.linalg.cond(a)))
    for m, t in zip(outs["minigrad"], outs["torch"]):
        assert tuple(m.shape) == tuple(t.shape)
        _close(m, t, dtype, cond)
