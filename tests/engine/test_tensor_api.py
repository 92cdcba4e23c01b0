"""The Tensor's attributes and small methods against torch's, plus printing integration.

Values are created once with NumPy and copied into both libraries; errors are compared by
type and message (minigrad's text normalised: ``minigrad.`` -> ``torch.``).
"""

from __future__ import annotations

import warnings

import pytest
import torch
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

import minigrad
from tests.torch_compare import both_engines as both
from tests.torch_compare import norm, outcome

LIBS = (torch, minigrad)





DTYPES = ["float32", "float64", "int64", "bool"]


@st.composite
def arrays(draw, max_dims=2):
    dtype = draw(st.sampled_from(DTYPES))
    shape = draw(hnp.array_shapes(min_dims=0, max_dims=max_dims, min_side=0, max_side=4))
    if dtype == "bool":
        elements = st.booleans()
    elif dtype == "int64":
        elements = st.integers(-1000, 1000)
    else:
        elements = st.floats(-1e3, 1e3, width=32)
    return draw(hnp.arrays(dtype, shape, elements=elements))


def make(lib, a, requires_grad=False):
    t = lib.tensor(a.copy())
    if requires_grad:
        t.requires_grad_()
    return t


@settings(deadline=None, max_examples=150)
@given(arrays(max_dims=3))
def test_plain_facts_match_torch(a):
    def fn(lib):
        t = make(lib, a)
        return (tuple(t.shape), tuple(t.size()), t.dim(), t.ndim, t.numel(), t.tolist(),
                norm(repr(t.dtype)), t.is_leaf, t.requires_grad, t.grad_fn, t._version,
                t._base, t.is_floating_point(), str(t.device), t.cpu() is t,
                outcome(lambda _: t.item(), lib), outcome(lambda _: len(t), lib),
                [t.size(d) for d in range(-t.dim(), t.dim())],
                norm(repr(t.shape)))

    both(fn)


@settings(deadline=None, max_examples=150)
@given(arrays(max_dims=2), st.booleans())
def test_repr_str_and_format_match_torch(a, grad):
    def fn(lib):
        t = make(lib, a)
        if grad and t.is_floating_point():
            t = t.requires_grad_() * 2
        out = [norm(repr(t)), norm(str(t)), norm(f"{t}")]
        if t.dim() == 0:
            out.append(f"{t:.2f}" if t.is_floating_point() else f"{t:d}")
        return out

    both(fn)


def test_format_spec_on_non_scalar_tensor():
    both(lambda lib: format(lib.ones(2), ".2f"))


def test_numpy_and_detach():
    def fn(lib):
        x = lib.tensor([1.0, 2.0], requires_grad=True)
        err = outcome(lambda _: x.numpy(), lib)
        d = x.detach()
        n = d.numpy()
        n[0] = 5.0  # shares memory
        y = x * 2
        err_y = outcome(lambda _: y.numpy(), lib)
        return err, err_y, x.tolist(), d.requires_grad, d.is_leaf, d._version, d._base

    both(fn)


def test_requires_grad_rules():
    def fn(lib):
        x = lib.tensor([1.0])
        r = x.requires_grad_()
        res = [r is x, x.requires_grad, x.is_leaf]
        x.requires_grad = False
        res.append(x.requires_grad)
        res.append(outcome(lambda _: lib.tensor([1, 2]).requires_grad_(), lib))
        y = lib.tensor([1.0], requires_grad=True) * 2
        res.append(outcome(lambda _: setattr(y, "requires_grad", False), lib))
        res.append(outcome(lambda _: y.requires_grad_(False), lib))
        res.append(outcome(lambda _: y.requires_grad_(True) is y, lib))
        res.append(outcome(lambda _: setattr(y, "requires_grad", True), lib))
        return res

    both(fn)


def test_retain_grad_and_retains_grad():
    def fn(lib):
        x = lib.tensor([1.0, 2.0], requires_grad=True)
        y = x * x
        flags = [y.retains_grad, x.retains_grad]
        y.retain_grad()
        x.retain_grad()  # no-op on a leaf
        flags += [y.retains_grad, x.retains_grad]
        err = outcome(lambda _: lib.tensor([1.0]).retain_grad(), lib)
        y.sum().backward()
        return flags, err, y.grad.tolist(), x.grad.tolist()

    both(fn)


def test_grad_setter_and_deleter():
    def fn(lib):
        x = lib.tensor([1.0, 2.0], requires_grad=True)
        x.grad = lib.tensor([3.0, 4.0])
        (x * 2).sum().backward()
        res = [x.grad.tolist()]
        del x.grad
        res.append(x.grad)
        res.append(outcome(lambda _: setattr(x, "grad", lib.ones(3)), lib))
        res.append(outcome(lambda _: setattr(x, "grad", lib.ones(2, dtype=lib.float64)), lib))
        return res

    both(fn)


def test_first_accumulated_grad_is_not_an_alias_and_later_ones_are_in_place():
    def fn(lib):
        x = lib.tensor([1.0, 2.0], requires_grad=True)
        g = lib.tensor([1.0, 1.0])
        (x * 1).backward(g)
        first = x.grad
        aliased = first.data_ptr() == g.data_ptr()
        (x * 1).backward(g)
        return aliased, x.grad is first, x.grad.tolist()

    both(fn)


def test_clone_detach_views_and_version():
    def fn(lib):
        x = lib.tensor([[1.0, 2.0], [3.0, 4.0]], requires_grad=True)
        c = x.clone()
        t1, t2 = x.t(), x.T
        res = [c.grad_fn.name(), c.is_leaf, c._base, t1.grad_fn.name(), t2.grad_fn.name(),
               t1._base is x, x.t().tolist(), x.mT.tolist()]
        d = c.detach_()
        res += [d is c, c.requires_grad, c.grad_fn]
        return res

    both(fn)


def test_data_get_set():
    def fn(lib):
        x = lib.tensor([1.0, 2.0], requires_grad=True)
        d = x.data
        res = [d.requires_grad, d.is_leaf, d.data_ptr() == x.data_ptr(), d._version]
        d.add_(1)
        res += [x.tolist(), x._version]
        x.data = lib.tensor([7.0, 8.0, 9.0])
        res += [tuple(x.shape), x.requires_grad, x.is_leaf]
        return res

    both(fn)


def test_grad_fn_objects():
    def fn(lib):
        x = lib.tensor([1.0, 2.0], requires_grad=True)
        y = (x * 2).sum()
        fn_ = y.grad_fn
        nxt = fn_.next_functions
        return (type(fn_).__name__, fn_.name(), len(nxt), type(nxt[0][0]).__name__, nxt[0][1],
                norm(nxt[0][0].next_functions[0][0].name()),
                nxt[0][0].next_functions[1] if len(nxt[0][0].next_functions) > 1 else None)

    both(fn)


def test_non_leaf_grad_warning_is_a_user_warning():
    for lib in LIBS:
        y = lib.tensor([1.0], requires_grad=True) * 2
        with pytest.warns(UserWarning, match="is not a leaf Tensor is being accessed"):
            _ = y.grad


def test_item_and_conversions():
    def fn(lib):
        t = lib.tensor([[2.5]])
        return (t.item(), float(t), int(t), bool(t), outcome(lambda _: lib.ones(2).item(), lib),
                outcome(lambda _: bool(lib.ones(2)), lib))

    both(fn)


def test_dtypes_of_tensor_factory_match():
    with warnings.catch_warnings():
        warnings.simplefilter("error")

        def fn(lib):
            return [norm(repr(lib.tensor(v).dtype)) for v in (1.0, 1, True, [1, 2], [1.0, 2])]

        both(fn)
