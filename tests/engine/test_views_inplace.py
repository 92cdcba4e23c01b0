"""Views, in-place operations and version counters, against torch.

The main property builds a random chain of views (select, slice, transpose, unsqueeze,
squeeze, expand, view/reshape) on a non-leaf base, changes one view in place, and compares
everything torch lets us see: values, ``_version`` of base and views, the base's grad_fn graph
(``CopySlices``, ``AsStridedBackward0`` for a view made before the change), leaf gradients and
error messages (minigrad's text normalised: ``minigrad.`` -> ``torch.``).
"""

from __future__ import annotations

import warnings

import numpy as np
import pytest
import torch
from hypothesis import given, settings
from hypothesis import strategies as st

import minigrad
from tests.torch_compare import norm, outcome, saved_numbers, walk_graph

LIBS = (torch, minigrad)




def arr(t):
    return None if t is None else t.detach().numpy().copy()


def graph_names(fn, depth=8):
    if fn is None:
        return None
    kids = () if depth == 0 else tuple(graph_names(n, depth - 1) for n, _ in fn.next_functions)
    return (norm(fn.name()), kids)


# --- random view chains ----------------------------------------------------------------------
@st.composite
def view_step(draw, shape):
    """One view op valid for ``shape``, as plain data so both libraries can replay it."""
    n = len(shape)
    kinds = ["unsqueeze", "reshape_flat", "view_split"]
    if n:
        kinds += ["select", "slice", "slice"]
    if n >= 2:
        kinds += ["transpose", "t2"]
    if 1 in shape:
        kinds += ["squeeze", "expand"]
    kind = draw(st.sampled_from(kinds))
    if kind == "select":
        d = draw(st.integers(-n, n - 1))
        size = shape[d]
        if size == 0:
            return ("slice", d, None, None, 1)
        return (kind, d, draw(st.integers(-size, size - 1)))
    if kind == "slice":
        d = draw(st.integers(0, n - 1))
        size = shape[d]
        start = draw(st.none() | st.integers(-size - 1, size + 1))
        stop = draw(st.none() | st.integers(-size - 1, size + 1))
        return (kind, d, start, stop, draw(st.integers(1, 3)))
    if kind == "transpose":
        return (kind, draw(st.integers(-n, n - 1)), draw(st.integers(-n, n - 1)))
    if kind == "unsqueeze":
        return (kind, draw(st.integers(-n - 1, n)))
    if kind == "squeeze":
        return (kind, draw(st.sampled_from([d for d in range(n) if shape[d] == 1] + [None])))
    if kind == "expand":
        d = draw(st.sampled_from([d for d in range(n) if shape[d] == 1]))
        return (kind, tuple(draw(st.integers(1, 3)) if i == d else -1 for i in range(n)))
    if kind == "view_split" and n and shape[-1] % 2 == 0 and shape[-1] > 0:
        return ("view", (*shape[:-1], 2, shape[-1] // 2))
    return ("reshape", (-1,))


def apply_step(t, step):
    kind, *args = step
    if kind == "select":
        d, i = args
        return t.select(d, i) if d % 2 else t[(slice(None),) * (d % t.dim()) + (i,)]
    if kind == "slice":
        d, start, stop, step_ = args
        return t[(slice(None),) * d + (slice(start, stop, step_),)]
    if kind == "transpose":
        return t.transpose(*args)
    if kind == "t2":
        return t.t() if t.dim() == 2 else t.transpose(0, 1)
    if kind == "unsqueeze":
        return t.unsqueeze(args[0])
    if kind == "squeeze":
        return t.squeeze() if args[0] is None else t.squeeze(args[0])
    if kind == "expand":
        return t.expand(*args[0])
    if kind == "view":
        return t.view(*args[0])
    return t.reshape(*args[0])


@st.composite
def scenarios(draw):
    shape = tuple(draw(st.lists(st.integers(1, 4), min_size=1, max_size=3)))
    steps, cur = [], shape
    probe = torch.zeros(shape)
    for _ in range(draw(st.integers(1, 4))):
        step = draw(view_step(cur))
        steps.append(step)
        try:
            probe = apply_step(probe, step)
        except Exception:  # noqa: BLE001 - an invalid step is still a fine thing to compare
            break
        cur = tuple(probe.shape)
    stale_at = draw(st.integers(0, len(steps)))  # a second view taken here, before the change
    op = draw(st.sampled_from(["mul_", "add_", "sub_", "div_", "copy_", "fill_", "zero_",
                               "setitem", "iadd", "imul", "log_", "fill_tensor"]))
    seed = draw(st.integers(0, 2**31 - 1))
    base_kind = draw(st.sampled_from(["nonleaf", "leaf", "leaf_no_grad", "nonleaf_no_grad"]))
    return shape, steps, stale_at, op, seed, base_kind


def run_scenario(lib, shape, steps, stale_at, op, seed, base_kind):
    rng = np.random.default_rng(seed)
    xd = rng.uniform(0.5, 2.0, size=shape)
    wd = rng.uniform(-1, 1, size=shape)
    x = lib.tensor(xd, requires_grad=base_kind != "leaf_no_grad")
    src = lib.tensor(rng.uniform(0.5, 2.0), dtype=lib.float64, requires_grad=True)
    if base_kind == "nonleaf":
        base = x * 1.5
    elif base_kind == "nonleaf_no_grad":
        with lib.no_grad():
            base = x * 1.5
    else:
        base = x
    report = {}
    views = [base]
    for step in steps:
        views.append(apply_step(views[-1], step))
    v, stale = views[-1], views[stale_at]
    other = src * 2 + 0.5 if v.dim() == 0 else (src * 2 + 0.5).expand(*v.shape)
    before = (base._version, v._version)
    if op == "mul_":
        v.mul_(other)
    elif op == "add_":
        v.add_(other, alpha=2)
    elif op == "sub_":
        v.sub_(other)
    elif op == "div_":
        v.div_(other)
    elif op == "copy_":
        v.copy_(other)
    elif op == "fill_":
        v.fill_(0.25)
    elif op == "fill_tensor":
        v.fill_(src * 3)
    elif op == "zero_":
        v.zero_()
    elif op == "log_":
        v.log_()
    elif op == "iadd":
        w = v
        w += other
        report["same_object"] = w is v
    elif op == "imul":
        w = v
        w *= 3.0
        report["same_object"] = w is v
    else:
        v[...] = other
    report["versions"] = (before, base._version, v._version, stale._version, x._version)
    report["values"] = arr(base)
    report["graph"] = graph_names(base.grad_fn)
    report["stale_graph"] = graph_names(stale.grad_fn)
    report["stale_values"] = arr(stale)
    if not base.requires_grad:
        return report
    loss = (base * lib.tensor(wd)).sum() + (stale * stale).sum()
    loss.backward()
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")  # x may have become a non-leaf: torch warns then
        report["x_grad"] = arr(x.grad)
        report["src_grad"] = arr(src.grad)
    report["warnings"] = len(caught)
    return report


def assert_same(got, expected, where="result"):
    """Equal, with arrays compared to float tolerance, inside any nesting of containers."""
    if isinstance(expected, np.ndarray):
        assert isinstance(got, np.ndarray), where
        assert got.shape == expected.shape, where
        np.testing.assert_allclose(got, expected, rtol=1e-6, atol=1e-9, err_msg=where)
    elif isinstance(expected, dict):
        assert isinstance(got, dict) and got.keys() == expected.keys(), where
        for key in expected:
            assert_same(got[key], expected[key], f"{where}[{key!r}]")
    elif isinstance(expected, tuple | list):
        assert type(got) is type(expected) and len(got) == len(expected), (where, got, expected)
        for i, (g, e) in enumerate(zip(got, expected)):
            assert_same(g, e, f"{where}[{i}]")
    else:
        assert got == expected, where


def compare(expected, got):
    assert_same(got, expected)


@settings(deadline=None, max_examples=600)
@given(scenarios())
def test_random_view_chain_then_inplace_matches_torch(scenario):
    compare(outcome(lambda lib: run_scenario(lib, *scenario), torch),
            outcome(lambda lib: run_scenario(lib, *scenario), minigrad))


# --- specific behaviours -----------------------------------------------------------------------
def both(fn):
    expected, got = outcome(fn, torch), outcome(fn, minigrad)
    compare(expected, got)
    return got


@pytest.mark.parametrize("op", ["add_", "mul_", "fill_", "zero_", "copy_", "iadd", "setitem"])
def test_inplace_on_leaf_requiring_grad_raises(op):
    def fn(lib):
        x = lib.ones(3, requires_grad=True)
        {"add_": lambda: x.add_(1), "mul_": lambda: x.mul_(2), "fill_": lambda: x.fill_(1),
         "zero_": lambda: x.zero_(), "copy_": lambda: x.copy_(lib.zeros(3)),
         "iadd": lambda: x.__iadd__(1), "setitem": lambda: x.__setitem__(0, 1.0)}[op]()

    assert both(fn)[0] == "RuntimeError"


def test_inplace_on_view_of_leaf_raises_and_no_grad_allows_it():
    def fn(lib):
        x = lib.ones(2, 3, requires_grad=True)
        out = outcome(lambda _: x[0].mul_(2), lib)
        with lib.no_grad():
            x[1].mul_(3)
            x.add_(1)
        return out, x._version, arr(x), x.is_leaf, x.grad_fn

    both(fn)


def test_augmented_assignment_keeps_object_and_bumps_version():
    def fn(lib):
        x = lib.tensor([1.0, 2.0], requires_grad=True)
        y = x * 1
        ident = id(y)
        versions = []
        for opname in ("__iadd__", "__isub__", "__imul__", "__itruediv__"):
            y = getattr(y, opname)(2.0)
            versions.append((id(y) == ident, y._version, y.grad_fn.name()))
        y.sum().backward()
        return versions, arr(x.grad)

    both(fn)


def test_saved_tensor_modified_error_text():
    def fn(lib):
        a = lib.tensor([[1.0, 2.0], [3.0, 4.0]], requires_grad=True)
        b = a.sigmoid()  # saves its output
        c = a * 2
        d = c.sin()  # saves c, a non-leaf
        e = c[0]
        f = e * e  # saves a view
        b.mul_(2)
        loss_b = outcome(lambda _: b.sum().backward(retain_graph=True), lib)
        c.add_(1)
        loss_d = outcome(lambda _: d.sum().backward(retain_graph=True), lib)
        loss_f = outcome(lambda _: f.sum().backward(), lib)
        return loss_b, loss_d, loss_f

    results = both(fn)[1]
    assert all(r[0] == "RuntimeError" and "modified by an inplace" in r[1] for r in results)


def test_saved_leaf_modified_under_no_grad_error_text():
    def fn(lib):
        w = lib.tensor([1.0, 2.0], requires_grad=True)
        y = (w * w).sum()
        with lib.no_grad():
            w.sub_(0.1)
        y.backward()

    assert both(fn)[0] == "RuntimeError"


def test_data_bypasses_autograd_and_version_counter():
    def fn(lib):
        w = lib.tensor([1.0, 2.0], requires_grad=True)
        y = (w * w).sum()
        w.data.mul_(0.5)
        d = w.data
        w.data = lib.tensor([5.0, 6.0])
        y.backward()
        return arr(w.grad), w._version, d.requires_grad, arr(w), w.is_leaf

    both(fn)


def test_detach_shares_storage_and_version():
    def fn(lib):
        x = lib.tensor([1.0, 2.0], requires_grad=True)
        y = x * 2
        d = y.detach()
        d.add_(1)
        return arr(y), y._version, d._version, d.requires_grad, d.is_leaf

    both(fn)


def test_detach_inplace():
    def fn(lib):
        x = lib.tensor([1.0, 2.0], requires_grad=True)
        y = x * 2
        r = y.detach_()
        v = (x * 3)[0]
        err = outcome(lambda _: v.detach_(), lib)
        return r is y, y.requires_grad, y.grad_fn, y.is_leaf, err

    both(fn)


def test_slice_assignment_records_copyslices_with_torch_gradients():
    def fn(lib):
        x = lib.tensor([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]], requires_grad=True)
        s = lib.tensor([7.0, 8.0], requires_grad=True)
        y = x.clone()
        y[:, 1] = s * 2
        y[0, 0] = 0.0
        fn_ = y.grad_fn
        (y * y).sum().backward()
        return graph_names(fn_), y._version, arr(x.grad), arr(s.grad)

    both(fn)


def test_views_share_version_counter():
    def fn(lib):
        x = lib.zeros(2, 3)
        a, b, c = x[0], x.t(), x.view(6)
        b.add_(1)
        return [t._version for t in (x, a, b, c)], arr(x), x._base is None, a._base is x

    both(fn)


@pytest.mark.parametrize("index", [0, (1, 2), (slice(None), 1), (slice(0, 2), slice(1, None, 2)),
                                   (Ellipsis, 0), (None, 1), -1, slice(None), (slice(None),),
                                   (slice(0, 100),), (slice(None), slice(0, 4)),
                                   (slice(-3, None),), slice(0, 100), (), Ellipsis])
def test_indexing_returns_views_with_torch_grad_fn(index):
    def fn(lib):
        x = lib.arange(12.0).reshape(3, 4).requires_grad_()
        y = x * 1
        v = y[index]
        return v._base is y, tuple(v.shape), graph_names(v.grad_fn), arr(v)

    both(fn)


def test_cannot_change_requires_grad_of_non_leaf():
    def fn(lib):
        x = lib.ones(2, requires_grad=True)
        (x * 2).requires_grad = False

    assert both(fn)[0] == "RuntimeError"


def test_unbind_output_inplace_error():
    def fn(lib):
        x = lib.ones(2, 3, requires_grad=True)
        a, _ = (x * 1).unbind(0)
        a.mul_(2)

    assert both(fn)[0] == "RuntimeError"


def test_expand_shares_storage_and_repeat_copies():
    """expand is a stride-0 view of its input's memory (no copy); repeat makes a new tensor."""
    def fn(lib):
        b = lib.tensor([1.0, 2.0, 3.0])
        e, r = b.expand(4, 3), b.repeat(4, 1)
        sliced = lib.arange(12.0).reshape(4, 3)[1:, ::2].expand(2, 3, 2)
        return (e.untyped_storage().nbytes(), r.untyped_storage().nbytes(),
                e.untyped_storage().data_ptr() == b.untyped_storage().data_ptr(),
                r.untyped_storage().data_ptr() == b.untyped_storage().data_ptr(),
                sliced.untyped_storage().nbytes(), e.stride(), r.stride())

    both(fn)


SECOND_ORDER_CASES = {
    # a base whose memory is transposed (x.t() * 2 keeps x.t()'s strides), written through a slice
    "transposed_base": lambda lib, x: _assign(x.t() * 2, (1, slice(None, None, 2)), x[0, :2] * 3),
    "stale_expand": lambda lib, x: _stale(x.t() * 1, lambda b: b.expand(2, 3, 4)),
    "stale_slice": lambda lib, x: _stale(x * 1, lambda b: b[1:, 2]),
    "stale_overlapping_windows": lambda lib, x: _stale(x.reshape(-1) * 1,
                                                       lambda b: b.unfold(0, 3, 2)),
}


def _assign(b, key, value):
    b[key] = value
    return b


def _stale(b, make_view):
    v = make_view(b)
    b.mul_(3)
    return v


@pytest.mark.parametrize("name", SECOND_ORDER_CASES)
def test_second_order_through_copyslices_and_stale_views(name):
    """Gradients made with ``create_graph`` through CopySlices and a stale view's
    AsStridedBackward0 (torch's as_strided steps: AsStridedBackward0, CopyBackwards, CopySlices),
    and their own gradients, are torch's; so is the first gradient's graph (bar torch's
    IndexAddBackward0 for overlapping windows, which minigrad writes with index_put), and the
    numbers its nodes save (bar the strides of a transposed base's region: minigrad's
    CopySlices reads it in contiguous memory, torch's in memory laid out like the base)."""
    def fn(lib):
        x = lib.tensor(np.arange(12.0).reshape(4, 3) / 5, dtype=lib.float64, requires_grad=True)
        out = SECOND_ORDER_CASES[name](lib, x)
        g = lib.tensor(np.linspace(-1, 2, out.numel()).reshape(tuple(out.shape)),
                       requires_grad=True)
        (gx,) = lib.autograd.grad(out, x, g, create_graph=True)
        (gg, gxx) = lib.autograd.grad((gx * gx).sum(), (g, x), allow_unused=True)
        names = [n.name().split("::")[-1] for n in walk_graph(gx.grad_fn)]
        return arr(gx), arr(gg), arr(gxx), [numbers for n in walk_graph(gx.grad_fn)
                                            if (numbers := saved_numbers(n))], names

    (tg, tgg, tgxx, tsaved, tnames), (mg, mgg, mgxx, msaved, mnames) = fn(torch), fn(minigrad)
    np.testing.assert_allclose(mg, tg)
    np.testing.assert_allclose(mgg, tgg)
    assert (mgxx is None) == (tgxx is None)
    if name != "stale_overlapping_windows":
        assert mnames == tnames
    if name not in ("stale_overlapping_windows", "transposed_base"):
        assert msaved == tsaved
