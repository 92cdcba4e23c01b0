"""Focused checks of the indexing, shape, sorting and linear-algebra ops of fidelity round 2
(masked_fill, gather, scatter(_add), index_select, masked_select, split, chunk, repeat, flip,
roll, topk, sort, addmm, outer, diag, diag_embed, diagonal, tril, triu, einsum), against torch
at test time. Values, gradients, forward mode and graphs are in the op database (op_db.py);
here: torch's error messages, which outputs are views, dtypes, the named tuples, and the
version check on saved index tensors.
"""

from __future__ import annotations

import numpy as np
import pytest
import torch
from hypothesis import given, settings
from hypothesis import strategies as st
from torch_compare import assert_same_error, both_engines, graph_signature, norm

import minigrad

pytestmark = pytest.mark.filterwarnings("error::RuntimeWarning")

RNG = np.random.default_rng(0)
X = RNG.standard_normal((3, 4))
MASK = X > 0


def T(lib, data, **kw):  # noqa: N802 - a short constructor for both engines
    return lib.tensor(np.array(data), **kw)


def Ix(lib, data, dtype="int64"):  # noqa: N802
    return lib.tensor(np.array(data), dtype=getattr(lib, dtype))


# --- errors: the same exception type and message in both engines --------------------------------
ERRORS = {
    "gather float index": lambda lib: T(lib, X).gather(0, T(lib, [[0.0]])),
    "gather out of bounds": lambda lib: T(lib, X).gather(0, Ix(lib, [[5]])),
    "gather negative": lambda lib: T(lib, X).gather(0, Ix(lib, [[0, -1]])),
    "gather dims": lambda lib: T(lib, X).gather(0, Ix(lib, [0])),
    "gather too big": lambda lib: T(lib, X).gather(0, Ix(lib, [[0] * 5])),
    "gather bad dim": lambda lib: T(lib, X).gather(2, Ix(lib, [[0]])),
    "scatter_add dtype": lambda lib: T(lib, X).scatter_add(0, Ix(lib, [[0]]), T(lib, X).float()),
    "scatter_add out of bounds": lambda lib: T(lib, X).scatter_add(0, Ix(lib, [[7]]), T(lib, X)),
    "scatter_add float index": lambda lib: T(lib, X).scatter_add(0, T(lib, [[0.0]]), T(lib, X)),
    "scatter_add src too small": lambda lib: T(lib, X).scatter_add(
        0, Ix(lib, [[0, 1, 2, 0]]), T(lib, X)[:1, :2]),
    "scatter_add dims": lambda lib: T(lib, X).scatter_add(0, Ix(lib, [0]), T(lib, X)),
    "scatter value float index": lambda lib: T(lib, X).scatter(0, T(lib, [[0.0]]), 1.0),
    "scatter_ leaf": lambda lib: T(lib, X, requires_grad=True).scatter_(0, Ix(lib, [[0]]), 1.0),
    "scatter_add_ leaf": lambda lib: T(lib, X, requires_grad=True).scatter_add_(
        0, Ix(lib, [[0]]), T(lib, X)),
    "index_select float": lambda lib: T(lib, X).index_select(0, T(lib, [0.0])),
    "index_select out of range": lambda lib: T(lib, X).index_select(0, Ix(lib, [3])),
    "index_select negative": lambda lib: T(lib, X).index_select(0, Ix(lib, [-1])),
    "index_select 2-D index": lambda lib: T(lib, X).index_select(0, Ix(lib, [[0]])),
    "index_select 0-d self": lambda lib: T(lib, 2.0).index_select(0, Ix(lib, [0, 0])),
    "masked_select long mask": lambda lib: T(lib, X).masked_select(Ix(lib, [1, 0, 1, 0])),
    "masked_select shapes": lambda lib: T(lib, X).masked_select(T(lib, [True, False, True])),
    "masked_fill long mask": lambda lib: T(lib, X).masked_fill(Ix(lib, [1, 0, 1, 0]), 1.0),
    "masked_fill int32 mask": lambda lib: T(lib, X).masked_fill(Ix(lib, [1, 0, 1, 0], "int32"),
                                                                1.0),
    "masked_fill 1-D value": lambda lib: T(lib, X).masked_fill(T(lib, MASK), T(lib, [1.0])),
    "masked_fill_ broadcast self": lambda lib: T(lib, X[0]).masked_fill_(T(lib, MASK), 1.0),
    "masked_fill shapes": lambda lib: T(lib, X).masked_fill(T(lib, [True, False, True]), 1.0),
    "masked_fill_ shapes": lambda lib: T(lib, X).masked_fill_(T(lib, [True, False, True]), 1.0),
    "masked_fill_ leaf": lambda lib: T(lib, X, requires_grad=True).masked_fill_(T(lib, MASK), 0),
    "split 0": lambda lib: T(lib, X).split(0),
    "split negative": lambda lib: T(lib, X).split(-1),
    "split sizes sum": lambda lib: T(lib, X).split([1, 1]),
    "split sizes negative": lambda lib: T(lib, X).split([4, -1]),
    "split 0-d": lambda lib: T(lib, 1.0).split(1),
    "split bad dim": lambda lib: T(lib, X).split(1, 2),
    "chunk 0": lambda lib: T(lib, X).chunk(0),
    "chunk 0-d": lambda lib: T(lib, 1.0).chunk(1),
    "repeat too few": lambda lib: T(lib, X).repeat(2),
    "repeat negative": lambda lib: T(lib, X).repeat(2, -1),
    "flip twice": lambda lib: T(lib, X).flip(0, 0),
    "flip twice negative": lambda lib: T(lib, X).flip(0, -2),
    "flip bad dim": lambda lib: T(lib, X).flip(2),
    "roll mismatch": lambda lib: T(lib, X).roll((1, 2), (0,)),
    "roll no dims": lambda lib: T(lib, X).roll((1, 2)),
    "roll no shifts": lambda lib: T(lib, X).roll(()),
    "topk too big": lambda lib: T(lib, X).topk(5),
    "topk negative": lambda lib: T(lib, X).topk(-1),
    "topk 0-d": lambda lib: T(lib, 1.0).topk(2),
    "sort bad dim": lambda lib: T(lib, X).sort(2),
    "tril 1-D": lambda lib: T(lib, X[0]).tril(),
    "triu 0-d": lambda lib: T(lib, 1.0).triu(),
    "diag 3-D": lambda lib: lib.diag(lib.zeros(2, 2, 2)),
    "diag 0-d": lambda lib: lib.diag(T(lib, 1.0)),
    "diagonal same dims": lambda lib: T(lib, X).diagonal(0, 1, 1),
    "diagonal 1-D": lambda lib: T(lib, X[0]).diagonal(),
    "diag_embed same dims": lambda lib: T(lib, X).diag_embed(0, 1, 1),
    "outer 2-D self": lambda lib: lib.outer(T(lib, X), T(lib, X[0])),
    "outer 2-D vec2": lambda lib: lib.outer(T(lib, X[0]), T(lib, X)),
    "addmm bias": lambda lib: lib.addmm(T(lib, X[0]), T(lib, X), T(lib, X).t()),
    "addmm 1-D": lambda lib: lib.addmm(T(lib, X), T(lib, X[0]), T(lib, X)),
    "einsum fewer": lambda lib: lib.einsum("ij,jk", T(lib, X)),
    "einsum more": lambda lib: lib.einsum("ij", T(lib, X), T(lib, X)),
    "einsum dims": lambda lib: lib.einsum("ijk", T(lib, X)),
    "einsum ellipsis dims": lambda lib: lib.einsum("ijk...", T(lib, X)),
    "einsum sizes": lambda lib: lib.einsum("ij,ij->i", T(lib, X), T(lib, X).t()),
    "einsum output label": lambda lib: lib.einsum("ij->k", T(lib, X)),
    "einsum output twice": lambda lib: lib.einsum("ij->ii", T(lib, X)),
    "einsum bad char": lambda lib: lib.einsum("i1", T(lib, X)),
    "einsum bad output char": lambda lib: lib.einsum("ij->i1", T(lib, X)),
    "einsum repeated sizes": lambda lib: lib.einsum("ii", T(lib, X)),
    "einsum dtypes": lambda lib: lib.einsum("ij,jk", T(lib, X), T(lib, X).t().float()),
    "einsum no operand": lambda lib: lib.einsum("ij"),
    "einsum two ellipses": lambda lib: lib.einsum("...i...", T(lib, X)),
    "einsum broken ellipsis": lambda lib: lib.einsum("..i", T(lib, X)),
    "einsum output ellipsis twice": lambda lib: lib.einsum("...->......", T(lib, X)),
    "einsum sublist range": lambda lib: lib.einsum(T(lib, X), [0, 52]),
    "einsum ellipsis sizes": lambda lib: lib.einsum("...i,...i", lib.zeros(2, 3), lib.zeros(4, 3)),
}


@pytest.mark.parametrize("name", ERRORS)
def test_error(name):
    fn = ERRORS[name]
    assert_same_error(lambda: fn(minigrad), lambda: fn(torch))


def test_split_outputs_refuse_in_place():
    for make in (lambda y: y.split(2)[0], lambda y: y.chunk(2)[1],
                 lambda y: y.split([1, 2])[1], lambda y: y.split_with_sizes([1, 2])[0]):
        ms, ts = (lib.tensor(X, requires_grad=True) * 1 for lib in (minigrad, torch))
        assert_same_error(lambda m=ms, mk=make: mk(m).mul_(2),
                          lambda t=ts, mk=make: mk(t).mul_(2))


# --- views and copies ---------------------------------------------------------------------------
VIEWS = {
    "split": lambda x: x.split(2)[1], "split list": lambda x: x.split([1, 3], 1)[1],
    "chunk": lambda x: x.chunk(2, 1)[0], "diagonal": lambda x: x.diagonal(),
    "diagonal offset": lambda x: x.diagonal(-1), "split_with_sizes": lambda x: x.split_with_sizes(
        [2, 1])[0],
}
COPIES = {
    "masked_fill": lambda x: x.masked_fill(x > 0, 0.0), "gather": lambda x: x.gather(
        1, x.new_zeros(3, 2).long()), "index_select": lambda x: x.index_select(0, x.new_zeros(
            2).long()), "masked_select": lambda x: x.masked_select(x > 0),
    "scatter_add": lambda x: x.scatter_add(0, x.new_zeros(1, 4).long(), x),
    "repeat": lambda x: x.repeat(1, 2), "flip": lambda x: x.flip(1), "roll": lambda x: x.roll(1),
    "topk": lambda x: x.topk(2)[0], "sort": lambda x: x.sort(0)[0], "tril": lambda x: x.tril(),
    "triu": lambda x: x.triu(1), "diag": lambda x: x.diag(), "diag_embed": lambda x: x.diag_embed(),
    "outer": lambda x: x[0].outer(x[1]), "repeat 1": lambda x: x.repeat(1, 1),
    "flip none": lambda x: x.flip(()),
}


@pytest.mark.parametrize("name", [*VIEWS, *COPIES])
def test_views_and_copies(name):
    """Which outputs share memory (``_base``, ``_version``), their layout and strides."""
    fn = VIEWS.get(name) or COPIES[name]
    m, t = minigrad.tensor(X.copy()), torch.tensor(X.copy())
    m_out, t_out = fn(m), fn(t)
    assert (m_out._base is m) == (t_out._base is t) == (name in VIEWS)
    assert m_out.is_contiguous() == t_out.is_contiguous()
    assert m_out.stride() == t_out.stride()
    m.add_(1)
    t.add_(1)
    assert m_out._version == t_out._version
    np.testing.assert_allclose(m_out.numpy(), t_out.numpy(), rtol=1e-12)


def test_diagonal_writes_through():
    m, t = minigrad.tensor(X.copy()), torch.tensor(X.copy())
    m.diagonal(1).fill_(7.0)
    t.diagonal(1).fill_(7.0)
    np.testing.assert_array_equal(m.numpy(), t.numpy())


# --- dtypes -------------------------------------------------------------------------------------
DTYPES = {
    "gather int32 index": lambda lib: T(lib, X).gather(0, Ix(lib, [[2, 0, 1, 1]], "int32")),
    "scatter_add int32 index": lambda lib: T(lib, X).scatter_add(0, Ix(lib, [[1]], "int32"),
                                                                 T(lib, X)),
    "index_select int32": lambda lib: T(lib, X).index_select(1, Ix(lib, [3, 3], "int32")),
    "masked_fill int self": lambda lib: Ix(lib, [1, 2, 3]).masked_fill(T(lib, [True, False,
                                                                            True]), 1.5),
    "masked_fill double value": lambda lib: T(lib, X).float().masked_fill(
        T(lib, MASK), T(lib, 2.5).double()),
    "outer promotion": lambda lib: lib.outer(T(lib, X[0]).float(), T(lib, X[1])),
    "outer int and float": lambda lib: lib.outer(T(lib, X[0]).float(), Ix(lib, [1, 2])),
    "topk int": lambda lib: Ix(lib, [[3, 1, 2]]).topk(2),
    "sort bool": lambda lib: T(lib, [True, False, True]).sort(),
    "tril int": lambda lib: Ix(lib, [[1, 2], [3, 4]]).tril(),
    "repeat bool": lambda lib: T(lib, [True, False]).repeat(2),
    "diag int": lambda lib: lib.diag(Ix(lib, [1, 2])),
    "einsum int": lambda lib: lib.einsum("ij,jk->ik", Ix(lib, [[1, 2]]), Ix(lib, [[3], [4]])),
}


def _values(result):
    if isinstance(result, tuple):
        return tuple(_values(r) for r in result)
    return (str(result.dtype).split(".")[-1], result.numpy().tolist())


@pytest.mark.parametrize("name", DTYPES)
def test_dtypes(name):
    fn = DTYPES[name]
    assert _values(fn(minigrad)) == _values(fn(torch))


# --- named tuples -------------------------------------------------------------------------------
@pytest.mark.parametrize("call", [lambda x: x.topk(2), lambda x: x.sort(descending=True),
                                  lambda x: x[0].topk(1, largest=False), lambda x: x.sort(0),
                                  lambda x: x[0, 0].sort()])
def test_return_types(call):
    m = minigrad.tensor(X.astype(np.float32), requires_grad=True)
    t = torch.tensor(X.astype(np.float32), requires_grad=True)
    m_res, t_res = call(m), call(t)
    assert norm(repr(m_res)) == repr(t_res)
    values, indices = m_res
    assert values is m_res.values and indices is m_res.indices
    assert m_res.indices.dtype is minigrad.int64
    assert len(m_res) == len(t_res) == 2


def test_sort_ties_stable():
    """With ``stable=True`` ties keep their order, in both directions."""
    data = np.array([[1.0, 2.0, 1.0, 0.0, 2.0, 1.0]])
    for descending in (False, True):
        m = minigrad.tensor(data).sort(descending=descending, stable=True)
        t = torch.tensor(data).sort(descending=descending, stable=True)
        assert m.indices.numpy().tolist() == t.indices.numpy().tolist()


@settings(deadline=None, max_examples=20)
@given(st.integers(0, 2**32 - 1), st.integers(1, 4), st.integers(1, 5), st.booleans(),
       st.booleans())
def test_topk_sort_match_torch(seed, rows, cols, largest, dim0):
    """Distinct values: topk and sort pick the same values and indices as torch, and their
    gradients land in the same places."""
    r = np.random.default_rng(seed)
    data = r.permutation(rows * cols).reshape(rows, cols) * 0.5 + 0.1
    dim = 0 if dim0 else 1
    k = r.integers(0, data.shape[dim] + 1)
    m = minigrad.tensor(data, requires_grad=True)
    t = torch.tensor(data, requires_grad=True)
    for fn in (lambda x: x.topk(int(k), dim, largest), lambda x: x.sort(dim, not largest)):
        m_res, t_res = fn(m), fn(t)
        assert m_res.indices.numpy().tolist() == t_res.indices.numpy().tolist()
        np.testing.assert_array_equal(m_res.values.detach().numpy(), t_res.values.detach().numpy())
        (m_g,) = minigrad.autograd.grad(m_res.values.sum(), m)
        (t_g,) = torch.autograd.grad(t_res.values.sum(), t)
        np.testing.assert_array_equal(m_g.numpy(), t_g.numpy())


# --- saved index tensors are version-checked ------------------------------------------------------
SAVED_INDEX = {
    "gather": lambda lib, x, i: x.gather(0, i),
    "scatter_add": lambda lib, x, i: x.scatter_add(0, i, x[:1] * 1),
    "scatter_add_": lambda lib, x, i: (x * 1).scatter_add_(0, i, x[:1] * 1),
    "scatter value": lambda lib, x, i: x.scatter(0, i, 2.0),
    "scatter_ value": lambda lib, x, i: (x * 1).scatter_(0, i, 2.0),
    "index_select": lambda lib, x, i: x.index_select(1, i[0]),
}


@pytest.mark.parametrize("name", SAVED_INDEX)
def test_index_changed_in_place_after_the_op(name):
    def run(lib):
        x = lib.tensor(X, requires_grad=True)
        i = lib.tensor([[0, 1, 2, 0]])
        out = SAVED_INDEX[name](lib, x, i)
        i.add_(0)
        out.sum().backward()

    both = both_engines(run)
    assert both[0] == "RuntimeError"


@pytest.mark.parametrize("op", ["masked_fill", "masked_select", "masked_fill_"])
def test_mask_changed_in_place_after_the_op(op):
    def run(lib):
        x = lib.tensor(X, requires_grad=True)
        m = lib.tensor(MASK)
        if op == "masked_fill_":
            out = (x * 1).masked_fill_(m, 0.0)
        else:
            out = getattr(x, op)(m) if op == "masked_select" else x.masked_fill(m, 0.0)
        m.logical_not_() if hasattr(m, "logical_not_") else m.copy_(~m)
        out.sum().backward()

    both = both_engines(run)
    assert both[0] == "RuntimeError"


def test_topk_indices_changed_in_place():
    def run(lib):
        x = lib.tensor(X, requires_grad=True)
        values, indices = x.topk(2)
        indices.zero_()
        values.sum().backward()

    assert both_engines(run)[0] == "RuntimeError"


# --- einsum's graph ends where torch's does ------------------------------------------------------
@pytest.mark.parametrize("equation,shapes", [
    ("ij,jk->ik", [(2, 3), (3, 4)]), ("bij,bjk->bik", [(2, 2, 3), (2, 3, 2)]),
    ("i,i->", [(3,), (3,)]), ("ij->ji", [(2, 3)]), ("ii->i", [(3, 3)]), ("ii", [(3, 3)]),
    ("ij->", [(2, 3)]), ("i,j->ij", [(3,), (2,)]), ("bi,bi->b", [(2, 3), (2, 3)]),
    ("...ij,...jk->...ik", [(2, 2, 3), (2, 3, 2)]), ("ij", [(2, 3)]),
])
def test_einsum_grad_fn(equation, shapes):
    arrays = [RNG.standard_normal(s) for s in shapes]
    ms = [minigrad.tensor(a, requires_grad=True) for a in arrays]
    ts = [torch.tensor(a, requires_grad=True) for a in arrays]
    m_out, t_out = minigrad.einsum(equation, *ms), torch.einsum(equation, *ts)
    m_name = None if m_out.grad_fn is None else m_out.grad_fn.name()
    t_name = None if t_out.grad_fn is None else t_out.grad_fn.name()
    assert m_name == t_name
    assert (m_out._base is None) == (t_out._base is None)
    assert m_out.is_contiguous() == t_out.is_contiguous()
    np.testing.assert_allclose(m_out.detach().numpy(), t_out.detach().numpy(), rtol=1e-12)


@pytest.mark.parametrize("call", [lambda x: x.sort(), lambda x: x.sort(descending=True),
                                  lambda x: x.topk(3), lambda x: x.topk(2, largest=False),
                                  lambda x: x.sort(stable=True, descending=True)])
def test_sort_nan_is_largest(call):
    data = np.array([1.0, np.nan, 3.0, np.inf, -1.0, np.nan, -np.inf])
    m, t = call(minigrad.tensor(data)), call(torch.tensor(data))
    assert m.indices.numpy().tolist() == t.indices.numpy().tolist()


@pytest.mark.parametrize("dtype", ["int64", "int8", "uint8", "bool"])
def test_sort_integers_descending(dtype):
    data = np.array([3, 0, 127, 1, 0, 3]).astype(dtype)
    m = minigrad.tensor(data).sort(descending=True, stable=True)
    t = torch.tensor(data).sort(descending=True, stable=True)
    assert _values(tuple(m)) == _values(tuple(t))


KEYWORDS = {
    "split": lambda lib, x, i: x.split(split_size=2, dim=1),
    "split fn": lambda lib, x, i: lib.split(x, split_size_or_sections=[1, 2], dim=0),
    "split_with_sizes": lambda lib, x, i: x.split_with_sizes(split_sizes=[1, 2], dim=0),
    "chunk": lambda lib, x, i: x.chunk(chunks=2, dim=1),
    "flip": lambda lib, x, i: x.flip(dims=(0,)) + lib.flip(x, dims=[1]) + x.flip([0, 1]),
    "repeat": lambda lib, x, i: x.repeat(repeats=(2, 1)),
    "roll": lambda lib, x, i: x.roll(shifts=1, dims=0),
    "scatter value": lambda lib, x, i: x.scatter(0, i, value=2.0)
    + lib.scatter(x, 0, i, value=1.0),
    "scatter src": lambda lib, x, i: x.scatter(dim=0, index=i, src=x),
    "scatter_": lambda lib, x, i: x.clone().scatter_(0, i, value=2.0),
    "scatter_add": lambda lib, x, i: x.scatter_add(dim=0, index=i, src=x),
    "gather": lambda lib, x, i: x.gather(dim=0, index=i) + lib.gather(x, 0, i, sparse_grad=False),
    "index_select": lambda lib, x, i: x.index_select(dim=1, index=i[0]),
    "masked_fill": lambda lib, x, i: x.masked_fill(mask=x > 0, value=1.0),
    "masked_select": lambda lib, x, i: x.masked_select(mask=x > 0),
    "topk": lambda lib, x, i: x.topk(k=2, dim=0, largest=False, sorted=True).values,
    "sort": lambda lib, x, i: lib.sort(x, dim=0, descending=True, stable=True).values,
    "addmm": lambda lib, x, i: lib.addmm(x, mat1=x, mat2=x.t()[:, :4] * 0 + 1, beta=2,
                                         alpha=0.5),
    "outer": lambda lib, x, i: lib.outer(x[0], vec2=x[1]),
    "diag": lambda lib, x, i: lib.diag(x, diagonal=1) + x.diag(diagonal=-1)[:2],
    "diag_embed": lambda lib, x, i: x.diag_embed(offset=1, dim1=0, dim2=2),
    "diagonal": lambda lib, x, i: x.diagonal(offset=1, dim1=1, dim2=0),
    "tril triu": lambda lib, x, i: x.tril(diagonal=1) + lib.triu(x, diagonal=-1),
}


@pytest.mark.parametrize("name", KEYWORDS)
def test_keyword_names(name):
    def run(lib):
        x = lib.tensor(X)
        out = KEYWORDS[name](lib, x, lib.tensor([[0, 1, 2, 0]]))
        return _values(tuple(out) if isinstance(out, tuple | list) else out)

    both_engines(run)


def test_einsum_sublist_format():
    a, b = RNG.standard_normal((2, 3)), RNG.standard_normal((3, 4))

    def run(lib):
        x, y = lib.tensor(a), lib.tensor(b)
        return [_values(lib.einsum(x, [0, 1], y, [1, 2], [0, 2])),
                _values(lib.einsum(x, [Ellipsis, 30], [30, Ellipsis])),
                _values(lib.einsum(x, [1, 2])), _values(lib.einsum("ij,jk", [x, y]))]

    for m, t in zip(run(minigrad), run(torch), strict=True):
        assert m[0] == t[0]
        np.testing.assert_allclose(m[1], t[1], rtol=1e-12)


def test_scatter_reduce_and_sparse_grad_are_refused():
    x = minigrad.tensor(X)
    i = minigrad.tensor([[0, 1, 2, 0]])
    with pytest.raises(NotImplementedError, match="reduce"):
        x.scatter(0, i, x, reduce="add")
    with pytest.raises(NotImplementedError, match="reduce"):
        x.clone().scatter_(0, i, 2.0, reduce="multiply")
    with pytest.raises(NotImplementedError, match="sparse"):
        x.gather(0, i, sparse_grad=True)


@st.composite
def einsum_cases(draw):
    """A random equation over up to four labels (repeats within an operand allowed), one to
    three operands, some with an ellipsis (batch dims that broadcast), an explicit or implicit
    output, and sizes per label (some of size 1)."""
    sizes = {c: draw(st.integers(1, 3)) for c in "abcd"}
    batch = draw(st.lists(st.integers(2, 3), max_size=2))
    n_ops = draw(st.integers(1, 3))
    ops, shapes, ellipsis = [], [], False
    for _ in range(n_ops):
        labels = draw(st.lists(st.sampled_from("abcd"), min_size=0, max_size=3))
        shape = [sizes[c] for c in labels]
        if draw(st.booleans()):  # an ellipsis: a suffix of the batch dims, some of them 1
            k = draw(st.integers(0, len(batch)))
            dims = [n if draw(st.booleans()) else 1 for n in batch[len(batch) - k:]]
            at = draw(st.integers(0, len(labels)))
            labels = [*labels[:at], "...", *labels[at:]]
            shape = [*shape[:at], *dims, *shape[at:]]
            ellipsis = True
        ops.append("".join(labels))
        shapes.append(tuple(shape))
    used = sorted({c for op in ops for c in op.replace(".", "")})
    lhs = ",".join(ops)
    if draw(st.booleans()):
        out = list(draw(st.permutations(used))[:draw(st.integers(0, len(used)))])
        if ellipsis and draw(st.booleans()):
            out.insert(draw(st.integers(0, len(out))), "...")
        lhs += "->" + "".join(out)
    return lhs, shapes


@settings(deadline=None, max_examples=30)
@given(einsum_cases(), st.integers(0, 2**32 - 1))
def test_einsum_random_equations(case, seed):
    """Values, the whole graph (torch's decomposition, node for node) and the gradients."""
    equation, shapes = case
    r = np.random.default_rng(seed)
    arrays = [r.standard_normal(s) for s in shapes]
    ms = [minigrad.tensor(a, requires_grad=True) for a in arrays]
    ts = [torch.tensor(a, requires_grad=True) for a in arrays]
    m_out, t_out = minigrad.einsum(equation, *ms), torch.einsum(equation, *ts)
    np.testing.assert_allclose(m_out.detach().numpy(), t_out.detach().numpy(), rtol=1e-10,
                               atol=1e-12)
    m_graph, t_graph = graph_signature(m_out.grad_fn), graph_signature(t_out.grad_fn)
    assert m_graph == t_graph
    # mul and sum lay results out as torch's (a dim of size 1 aside: views give its stride
    # by NumPy's rule, not torch's computeStride, and nothing reads it)
    assert [s for s, n in zip(m_out.stride(), m_out.shape) if n > 1] == \
        [s for s, n in zip(t_out.stride(), t_out.shape) if n > 1]
    upstream = r.standard_normal(tuple(t_out.shape))
    m_grads = minigrad.autograd.grad(m_out, ms, minigrad.tensor(upstream), allow_unused=True)
    t_grads = torch.autograd.grad(t_out, ts, torch.tensor(upstream), allow_unused=True)
    for m, t in zip(m_grads, t_grads):
        np.testing.assert_allclose(m.numpy(), t.numpy(), rtol=1e-10, atol=1e-12)


@pytest.mark.parametrize("equation,shapes", [("ad,dac->", [(2, 2), (2, 2, 2)]),
                                             ("b...,...b,b", [(2, 2), (2, 2), (2,)])])
def test_einsum_layout(equation, shapes):
    arrays = [RNG.standard_normal(s) for s in shapes]
    m = minigrad.einsum(equation, *(minigrad.tensor(a, requires_grad=True) for a in arrays))
    t = torch.einsum(equation, *(torch.tensor(a, requires_grad=True) for a in arrays))
    assert graph_signature(m.grad_fn) == graph_signature(t.grad_fn)


# --- dtypes and edge cases: the same outcome (value or error) in both engines ------------------
def _rounded(result):
    if isinstance(result, tuple):
        return tuple(_rounded(r) for r in result)
    return (str(result.dtype).split(".")[-1], tuple(result.shape),
            np.round(result.numpy(), 6).tolist())


OUTCOMES = {
    "mf long self float tval": lambda lib:
        T(lib, [1, 2, 3]).masked_fill(T(lib, [True, False, True]), T(lib, 2.5)),
    "mf bool self": lambda lib: T(lib, [True, False]).masked_fill(T(lib, [True, False]), False),
    "mf float self int tval": lambda lib: T(lib, X).masked_fill(T(lib, X > 0), T(lib, 3)),
    "mf float self bool val": lambda lib: T(lib, X).masked_fill(T(lib, X > 0), True),
    "mf_ long self float val": lambda lib:
        T(lib, [1, 2, 3]).masked_fill_(T(lib, [True, False, True]), 2.5),
    "sa long": lambda lib:
        T(lib, [[1, 2], [3, 4]]).scatter_add(0, T(lib, [[1, 0]]), T(lib, [[5, 6]])),
    "scatter long val float": lambda lib:
        T(lib, [[1, 2], [3, 4]]).scatter(0, T(lib, [[1, 0]]), 2.7),
    "scatter float int val": lambda lib: T(lib, X).scatter(0, T(lib, [[1, 0]]), 2),
    "scatter src dtype": lambda lib: T(lib, X).scatter(0, T(lib, [[1, 0]]), T(lib, X).float()),
    "gather bool": lambda lib: T(lib, X > 0).gather(1, T(lib, [[1, 0]] * 3)),
    "index_select bool": lambda lib: T(lib, X > 0).index_select(1, T(lib, [1, 0])),
    "masked_select int": lambda lib: T(lib, [1, 2, 3]).masked_select(T(lib, [True, False, True])),
    "flip int": lambda lib: T(lib, [1, 2, 3]).flip(0),
    "roll int": lambda lib: T(lib, [1, 2, 3]).roll(1),
    "split int": lambda lib: T(lib, [1, 2, 3]).split(2),
    "diag bool": lambda lib: lib.diag(T(lib, [True, False])),
    "diagonal int": lambda lib: T(lib, [[1, 2], [3, 4]]).diagonal(),
    "triu bool": lambda lib: T(lib, [[True, True], [True, True]]).triu(),
    "outer bool": lambda lib: lib.outer(T(lib, [True, False]), T(lib, [True, True])),
    "outer int float": lambda lib: lib.outer(T(lib, [1, 2]), T(lib, [0.5, 1.5])),
    "addmm int": lambda lib: lib.addmm(T(lib, [[1]]), T(lib, [[1, 2]]), T(lib, [[3], [4]])),
    "addmm mixed": lambda lib: lib.addmm(T(lib, [[1.]]), T(lib, [[1, 2]]), T(lib, [[3.], [4.]])),
    "einsum bool": lambda lib: lib.einsum("i,i->i", T(lib, [True, False]), T(lib, [True, True])),
    "einsum mixed": lambda lib: lib.einsum("i,i", T(lib, [1, 2]), T(lib, [1., 2.])),
    "sort empty": lambda lib: tuple(lib.zeros(0, 3).sort(0)),
    "topk empty k0": lambda lib: tuple(lib.zeros(2, 0).topk(0)),
    "repeat empty": lambda lib: lib.zeros(0, 2).repeat(2, 2),
    "chunk empty": lambda lib: lib.zeros(0, 2).chunk(2),
    "split empty 0": lambda lib: lib.zeros(0, 2).split(0),
    "diag_embed 0d": lambda lib: lib.diag_embed(T(lib, 2.)),
    "gather empty self": lambda lib: lib.zeros(0, 2).gather(0, lib.zeros(0, 2, dtype=lib.int64)),
    "index_select uint8": lambda lib: T(lib, X).index_select(0, T(lib, [1], dtype=lib.uint8)),
    "gather int16": lambda lib: T(lib, X).gather(0, T(lib, [[1]], dtype=lib.int16)),
    "masked_select uint8 mask": lambda lib: T(lib, X).masked_select(T(lib, X > 0).to(lib.uint8)),
    "roll empty": lambda lib: lib.zeros(0).roll(1),
    "flip 0-d dims": lambda lib: T(lib, 1.).flip(0),
    "tril neg big": lambda lib: T(lib, X).tril(-10),
    "diag big offset 1d": lambda lib: lib.diag(T(lib, [1., 2.]), -3),
}


@pytest.mark.parametrize("name", OUTCOMES)
def test_outcome(name):
    both_engines(lambda lib: _rounded(OUTCOMES[name](lib)))
