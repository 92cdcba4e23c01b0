"""autograd.functional's vjp, jvp, vhp and hvp (and the argument checks all six share)
against torch's: values, the exact return structure (tuples vs tensors), whether results
carry a graph, and torch's errors."""

from __future__ import annotations

import functools
import inspect

import numpy as np
import pytest
import torch
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

import minigrad
from tests.torch_compare import assert_close, assert_same_error, outcome

PRODUCTS = ["vjp", "jvp", "vhp", "hvp"]


def _assert_same_structure(m, t):
    """Same nesting (tuple/list/tensor), same values, same requires_grad."""
    if isinstance(t, tuple | list):
        assert type(m) is type(t) and len(m) == len(t), f"{m!r} vs {t!r}"
        for a, b in zip(m, t):
            _assert_same_structure(a, b)
    else:
        assert isinstance(m, minigrad.Tensor), f"{m!r} vs {t!r}"
        assert m.requires_grad == t.requires_grad, f"requires_grad {m!r} vs {t!r}"
        assert (m.grad_fn is None) == (t.grad_fn is None), f"grad_fn {m!r} vs {t!r}"
        assert_close(m, t)


def _same_outcome(run, compare=_assert_same_structure):
    """``run(torch)`` and ``run(minigrad)`` give the same results or raise the same error."""
    t = outcome(run, torch)
    m = outcome(run, minigrad)
    assert m[0] == t[0], (m, t)
    if t[0] == "ok":
        compare(m[1], t[1])
    else:
        assert m[1] == t[1]


def test_signatures_match_torch():
    for name in PRODUCTS + ["jacobian", "hessian"]:
        m = inspect.signature(getattr(minigrad.autograd.functional, name))
        t = inspect.signature(getattr(torch.autograd.functional, name))
        assert [(p.name, p.default) for p in m.parameters.values()] == \
            [(p.name, p.default) for p in t.parameters.values()], name
    assert sorted(minigrad.autograd.functional.__all__) == \
        sorted(torch.autograd.functional.__all__)


# Functions of one or two inputs, returning one tensor or a tuple.
VECTOR_FUNCS = {
    "single": lambda L, x, y: x.sin() * y.exp(),
    "tuple_out": lambda L, x, y: (x * y, (x - y).tanh().sum()),
    "matrix": lambda L, x, y: x.unsqueeze(1) * y.unsqueeze(0),
    "unused_y": lambda L, x, y: x.exp(),
}
SCALAR_FUNCS = {
    "cubic": lambda L, x, y: (x.pow(3) * y).sum(),
    "mixed": lambda L, x, y: (x.sin() * y * y).sum() + (x * y).tanh().mean(),
    "linear": lambda L, x, y: (x * 2).sum() + y.sum(),
    "unused_y": lambda L, x, y: (x * x).sum(),
}

vectors = st.integers(1, 4).flatmap(
    lambda n: st.tuples(*[hnp.arrays(np.float64, n, elements=st.floats(-2, 2))] * 4))


def _run(lib, *, op, fname, arrays, in_tuple, create_graph=False, strict=False,
         requires_grad=False):
    x, y, u, w = (lib.tensor(a.copy(), requires_grad=requires_grad and i < 2)
                  for i, a in enumerate(arrays))
    funcs = VECTOR_FUNCS if op in ("vjp", "jvp") else SCALAR_FUNCS
    f = funcs[fname]
    fn = getattr(lib.autograd.functional, op)
    if in_tuple:
        func, inputs = (lambda a, b: f(lib, a, b)), (x, y)
    else:
        func, inputs = (lambda a: f(lib, a, y)), x
    if op == "vjp":  # v has the outputs' shapes: take them from one call
        probe = func(*inputs) if in_tuple else func(inputs)
        outs = probe if isinstance(probe, tuple) else (probe,)
        vs = tuple(lib.ones_like(o) * (k + 1.5) for k, o in enumerate(outs))
        v = vs if isinstance(probe, tuple) else vs[0]
    else:
        v = (u, w) if in_tuple else u
    return fn(func, inputs, v, create_graph=create_graph, strict=strict)


@pytest.mark.parametrize("op", PRODUCTS)
@pytest.mark.parametrize("in_tuple", [False, True])
@pytest.mark.parametrize("create_graph", [False, True])
@settings(deadline=None, max_examples=4)
@given(arrays=vectors)
def test_products_match_torch(op, in_tuple, create_graph, arrays):
    funcs = VECTOR_FUNCS if op in ("vjp", "jvp") else SCALAR_FUNCS
    for fname in funcs:
        for rg in (False, True):
            _same_outcome(functools.partial(_run, op=op, fname=fname, arrays=arrays,
                                            in_tuple=in_tuple, create_graph=create_graph,
                                            requires_grad=rg))


@pytest.mark.parametrize("op", PRODUCTS)
@pytest.mark.parametrize("create_graph", [False, True])
def test_strict_errors_match_torch(op, create_graph):
    arrays = [np.array([0.5, -1.0, 2.0])] * 4
    funcs = VECTOR_FUNCS if op in ("vjp", "jvp") else SCALAR_FUNCS
    for fname in funcs:
        for in_tuple in (False, True):
            _same_outcome(functools.partial(_run, op=op, fname=fname, arrays=arrays,
                                            in_tuple=in_tuple, create_graph=create_graph,
                                            strict=True))


def test_jvp_is_the_double_backward_trick():
    """torch's jvp differentiates ``u -> u^T J`` again: results match forward mode's."""
    x = np.array([0.3, -0.7, 1.1])
    m = minigrad.autograd.functional.jvp(lambda a: a.sin() * a,
                                         minigrad.tensor(x), minigrad.tensor(x * 0 + 1))
    t = torch.autograd.functional.jvp(lambda a: a.sin() * a, torch.tensor(x),
                                      torch.tensor(x * 0 + 1))
    _assert_same_structure(m, t)


def _constant(L, a):
    return L.ones(3)


# (op, function, inputs, v) builders, each run on both engines; every one makes torch raise.
ERROR_CASES = {
    "vjp_v_none_vector_out": ("vjp", lambda L, a: a.exp(), lambda L: L.ones(3), None),
    "jvp_v_none_vector_in": ("jvp", lambda L, a: a.exp(), lambda L: L.ones(3), None),
    "vhp_v_none_vector_in": ("vhp", lambda L, a: a.sum(), lambda L: L.ones(3), None),
    "hvp_v_none_vector_in": ("hvp", lambda L, a: a.sum(), lambda L: L.ones(3), None),
    "vjp_int_out": ("vjp", lambda L, a: 3, lambda L: L.ones(3), lambda L: L.ones(3)),
    "jvp_int_out": ("jvp", lambda L, a: 3, lambda L: L.ones(3), lambda L: L.ones(3)),
    "vjp_list_in": ("vjp", lambda L, a: a.exp(), lambda L: [L.ones(3)], lambda L: L.ones(3)),
    "vjp_list_out": ("vjp", lambda L, a: [a, a], lambda L: L.ones(3),
                     lambda L: [L.ones(3), L.ones(3)]),
    "vjp_bad_v_size": ("vjp", lambda L, a: a.exp(), lambda L: L.ones(3), lambda L: L.ones(2)),
    "jvp_bad_v_size": ("jvp", lambda L, a: a.exp(), lambda L: L.ones(3), lambda L: L.ones(2)),
    "jvp_bad_v_len": ("jvp", lambda L, a, b: a * b, lambda L: (L.ones(3), L.ones(3)),
                      lambda L: (L.ones(3),)),
    "jvp_bad_entry": ("jvp", lambda L, a, b: a * b, lambda L: (L.ones(3), L.ones(3)),
                      lambda L: (L.ones(3), L.ones(2))),
    "vjp_v_two_for_one": ("vjp", lambda L, a: a.exp(), lambda L: L.ones(3),
                          lambda L: (L.ones(3), L.ones(3))),
    "vjp_v_not_tensor": ("vjp", lambda L, a: a.exp(), lambda L: L.ones(3), lambda L: 1.0),
    "hvp_vector_out": ("hvp", lambda L, a: a.exp(), lambda L: L.ones(3), lambda L: L.ones(3)),
    "vhp_vector_out": ("vhp", lambda L, a: a.exp(), lambda L: L.ones(3), lambda L: L.ones(3)),
    "hvp_tuple_out": ("hvp", lambda L, a: (a.sum(),), lambda L: L.ones(3), lambda L: L.ones(3)),
    "vhp_tuple_out": ("vhp", lambda L, a: (a.sum(),), lambda L: L.ones(3), lambda L: L.ones(3)),
}


@pytest.mark.parametrize("case", list(ERROR_CASES))
def test_argument_errors_match_torch(case):
    op, f, inputs, v = ERROR_CASES[case]

    def run(L):
        inp = inputs(L)
        fn = getattr(L.autograd.functional, op)
        return fn(lambda *a: f(L, *a), inp, None if v is None else v(L))

    assert_same_error(lambda: run(minigrad), lambda: run(torch))


@pytest.mark.parametrize("op", PRODUCTS)
def test_v_may_be_omitted_for_one_element(op):
    def run(L):
        f = (lambda a: a.exp() * 3) if op in ("vjp", "jvp") else (lambda a: (a ** 3).sum())
        return getattr(L.autograd.functional, op)(f, L.tensor([0.7]))

    _assert_same_structure(run(minigrad), run(torch))


@pytest.mark.parametrize("kw", [
    {"vectorize": True},
    {"vectorize": True, "strict": True},
    {"strategy": "forward-mode", "create_graph": True},
    {"strategy": "forward-mode", "vectorize": False},
])
def test_jacobian_options_match_torch(kw):
    def run(L):
        return L.autograd.functional.jacobian(lambda a, b: (a * b, a.exp()),
                                              (L.tensor([1.0, 2.0]), L.tensor([0.5, 3.0])), **kw)

    _same_outcome(run)


@pytest.mark.parametrize("kw", [
    {"vectorize": True},
    {"outer_jacobian_strategy": "forward-mode", "vectorize": True},
    {"outer_jacobian_strategy": "forward-mode"},
    {"outer_jacobian_strategy": "sideways"},
    {"strict": True},
])
@pytest.mark.parametrize("fname", ["cubic", "linear"])
def test_hessian_options_match_torch(kw, fname):
    def run(L):
        x, y = L.tensor([1.0, -2.0]), L.tensor([0.5, 3.0])
        return L.autograd.functional.hessian(lambda a, b: SCALAR_FUNCS[fname](L, a, b), (x, y),
                                             **kw)

    _same_outcome(run, _assert_nested_values)


def _assert_nested_values(m, t):
    if isinstance(t, tuple | list):
        assert type(m) is type(t) and len(m) == len(t)
        for a, b in zip(m, t):
            _assert_nested_values(a, b)
    else:
        assert_close(m, t)


@pytest.mark.parametrize("case", ["vector", "tuple", "int"])
def test_hessian_output_errors(case):
    outs = {"vector": lambda L, a: a.exp(), "tuple": lambda L, a: (a.sum(),),
            "int": lambda L, a: 3}

    def run(L):
        return L.autograd.functional.hessian(lambda a: outs[case](L, a), L.ones(3))

    assert_same_error(lambda: run(minigrad), lambda: run(torch))
