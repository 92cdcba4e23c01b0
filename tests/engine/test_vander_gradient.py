"""torch.vander, torch.linalg.vander and torch.gradient: composites in torch, so what is
compared is what torch builds from its ops (values, dtypes, graphs node by node, errors),
computed by torch at test time. (op_db runs vander and linalg.vander through its checks too.)
"""

from __future__ import annotations

import numpy as np
import pytest
import torch
from hypothesis import given, settings
from hypothesis import strategies as st

import minigrad
from tests.torch_compare import assert_close, both_engines, graph_signature

X = [1.5, 2.0, -0.5, 0.25]


def _facts(result):
    """A result as plain data: dtype, shape, values (as text: NaN equals NaN), the graph's
    node names, its version."""
    return (str(result.dtype).split(".")[-1], tuple(result.shape), repr(result.tolist()),
            graph_signature(result.grad_fn), result._version, result.requires_grad)


# --- vander, linalg.vander --------------------------------------------------------------------
VANDER_CALLS = {
    "default": lambda lib, x: lib.vander(x),
    "N=2 increasing": lambda lib, x: lib.vander(x, 2, True),
    "N=6": lambda lib, x: lib.vander(x, N=6),
    "N=1": lambda lib, x: lib.vander(x, 1),
    "N=0": lambda lib, x: lib.vander(x, 0, increasing=True),
    "N=None": lambda lib, x: lib.vander(x, None, True),
    "0-d int N": lambda lib, x: lib.vander(x, lib.tensor(3)),
    "strided": lambda lib, x: lib.vander(x[::2], increasing=True),
    "empty": lambda lib, x: lib.vander(x[:0]),
    "int8": lambda lib, x: lib.vander(lib.tensor([3, -2, 5], dtype=lib.int8), 5),
    "uint8": lambda lib, x: lib.vander(lib.tensor([3, 2], dtype=lib.uint8)),
    "bool": lambda lib, x: lib.vander(lib.tensor([True, False])),
    "int64 wraps": lambda lib, x: lib.vander(lib.tensor([3000, -7]), 7),
    "float16": lambda lib, x: lib.vander(x.detach().half() * 3, 4),
    "float64": lambda lib, x: lib.vander(x.double(), increasing=True),
    "2-d": lambda lib, x: lib.vander(x.view(2, 2)),
    "0-d": lambda lib, x: lib.vander(x[0]),
    "negative N": lambda lib, x: lib.vander(x, -1),
    "float N": lambda lib, x: lib.vander(x, 2.5),
    "bool N": lambda lib, x: lib.vander(x, True),
    "int increasing": lambda lib, x: lib.vander(x, increasing=1),
    "list": lambda lib, x: lib.vander([1.0, 2.0]),
    "no method": lambda lib, x: x.vander(),
    "linalg": lambda lib, x: lib.linalg.vander(x),
    "linalg N=5": lambda lib, x: lib.linalg.vander(x, N=5),
    "linalg batch": lambda lib, x: lib.linalg.vander(x.view(2, 2), N=3),
    "linalg 0-d": lambda lib, x: lib.linalg.vander(x[1], N=3),
    "linalg 0-d no N": lambda lib, x: lib.linalg.vander(x[1]),
    "linalg N=1": lambda lib, x: lib.linalg.vander(x, N=1),
    "linalg empty": lambda lib, x: lib.linalg.vander(x[:0]),
    "linalg positional N": lambda lib, x: lib.linalg.vander(x, 3),
    "linalg float N": lambda lib, x: lib.linalg.vander(x, N=2.5),
    "linalg int8": lambda lib, x: lib.linalg.vander(lib.tensor([3, 2], dtype=lib.int8), N=6),
    "linalg uint8": lambda lib, x: lib.linalg.vander(lib.tensor([3, 2], dtype=lib.uint8)),
    "linalg bool": lambda lib, x: lib.linalg.vander(lib.tensor([True])),
    "linalg float16": lambda lib, x: lib.linalg.vander(x.half()),
    "linalg out": lambda lib, x: lib.linalg.vander(x, out=x),
}


@pytest.mark.parametrize("call", VANDER_CALLS.values(), ids=VANDER_CALLS.keys())
def test_vander_matches_torch(call):
    """Values and dtypes (integers and bools give int64, as cumprod does; float16 stays), the
    graph torch's composition builds (vander: FlipBackward0 over two CopySlices;
    linalg.vander: CatBackward0 of CumprodBackward0 of ExpandBackward0), the result's
    version (vander writes in place), and the errors."""
    both_engines(lambda lib: _facts(call(lib, lib.tensor(X, requires_grad=True))))


@pytest.mark.parametrize("increasing", [False, True])
def test_vander_backward_fails_as_torchs(increasing):
    """torch.vander's own backward raises: its cumprod saved the slice it read, which the
    second copy_ overwrites. minigrad's composition is torch's, so it raises the same error;
    linalg.vander differentiates."""
    def grads(lib):
        x = lib.tensor(X, requires_grad=True)
        return lib.autograd.grad(lib.vander(x, increasing=increasing).sum(), x)[0].tolist()

    def linalg_grads(lib):
        x = lib.tensor(X, requires_grad=True, dtype=lib.float64)
        return lib.autograd.grad((lib.linalg.vander(x) ** 2).sum(), x)[0].tolist()

    assert both_engines(grads)[0] == "RuntimeError"
    assert both_engines(linalg_grads)[0] == "ok"


def test_vander_forward_mode_matches_torch():
    """Forward mode goes through the copies and the cumulative product."""
    def tangent(lib):
        fw = lib.autograd.forward_ad
        with fw.dual_level():
            x = fw.make_dual(lib.tensor(X, dtype=lib.float64),
                             lib.tensor(np.arange(4.0) - 1.5, dtype=lib.float64))
            return [fw.unpack_dual(v).tangent.tolist()
                    for v in (lib.vander(x), lib.linalg.vander(x, N=3))]

    kind, (vander, linalg) = both_engines(tangent)
    assert kind == "ok" and len(vander) == 4


# --- gradient -------------------------------------------------------------------------------------
@st.composite
def gradient_calls(draw):
    """An input and torch.gradient's arguments in each of their forms: spacing None, one
    number, a number per dim or coordinates per dim (tensors, with or without gradients);
    dim None, an int or a list; edge_order 1 or 2."""
    edge_order = draw(st.sampled_from([1, 2]))
    shape = draw(st.lists(st.integers(edge_order + 1, 5), min_size=1, max_size=3))
    dtype = draw(st.sampled_from(["float32", "float64"]))
    ndim = len(shape)
    dim_form = draw(st.sampled_from(["none", "int", "list"]))
    if dim_form == "none":
        dims, dim = list(range(ndim)), None
    elif dim_form == "int":
        dim = draw(st.integers(-ndim, ndim - 1))
        dims = [dim]
    else:
        dims = draw(st.lists(st.integers(-ndim, ndim - 1), min_size=1, max_size=ndim,
                             unique_by=lambda d: d % ndim))
        dim = dims
    spacing_form = draw(st.sampled_from(["none", "number", "numbers", "coordinates"]))
    if spacing_form == "number":
        spacing = draw(st.sampled_from([2, 0.5, 3.25]))
    elif spacing_form == "numbers":
        spacing = [draw(st.sampled_from([1, 0.25, 2.5])) for _ in dims]
    elif spacing_form == "coordinates":
        spacing = [np.cumsum(draw(st.lists(st.floats(0.25, 2.0), min_size=shape[d],
                                           max_size=shape[d]))) for d in dims]
    else:
        spacing = None
    seed = draw(st.integers(0, 2**16))
    coords_grad = draw(st.booleans())
    return shape, dtype, spacing, dim, edge_order, seed, coords_grad


def _gradient_facts(lib, shape, dtype, spacing, dim, edge_order, seed, coords_grad):
    rng = np.random.default_rng(seed)
    x = lib.tensor(rng.standard_normal(shape), dtype=getattr(lib, dtype), requires_grad=True)
    kwargs = {"edge_order": edge_order}
    leaves = [x]
    if dim is not None:
        kwargs["dim"] = dim
    if isinstance(spacing, list) and isinstance(spacing[0], np.ndarray):
        coords = [lib.tensor(c, dtype=getattr(lib, dtype), requires_grad=coords_grad)
                  for c in spacing]
        leaves += coords if coords_grad else []
        kwargs["spacing"] = coords
    elif spacing is not None:
        kwargs["spacing"] = spacing
    results = lib.gradient(x, **kwargs)
    weights = [lib.tensor(rng.standard_normal(tuple(r.shape)), dtype=r.dtype) for r in results]
    total = sum((r * w).sum() for r, w in zip(results, weights))
    grads = lib.autograd.grad(total, leaves)
    return results, grads, [graph_signature(r.grad_fn) for r in results]


@settings(max_examples=60, deadline=None)
@given(call=gradient_calls())
def test_gradient_matches_torch(call):
    """Values (central differences inside, first- or second-order one-sided ones at the
    ends, for even steps and for coordinates), the graph of each result node for node, and
    the gradients (into the coordinates too), all against torch at test time."""
    m_results, m_grads, m_graphs = _gradient_facts(minigrad, *call)
    t_results, t_grads, t_graphs = _gradient_facts(torch, *call)
    assert type(m_results) is type(t_results) is tuple
    assert m_graphs == t_graphs
    for m, t in zip(m_results + m_grads, t_results + t_grads):
        assert_close(m, t)


X2 = [[1.0, 2.0, 4.0, 7.0], [0.5, -1.0, 3.0, 2.0], [1.0, 1.0, 2.0, 3.0]]
GRADIENT_CALLS = {
    "scalar 0-d tensor spacing": lambda lib, x: lib.gradient(x, spacing=lib.tensor(2.0)),
    "bool spacing": lambda lib, x: lib.gradient(x, spacing=True),
    "zero spacing": lambda lib, x: lib.gradient(x, spacing=0),
    "numbers with a bool": lambda lib, x: lib.gradient(x, spacing=[True, 2]),
    "empty spacing, empty dims": lambda lib, x: lib.gradient(x, spacing=[], dim=[]),
    "no dims": lambda lib, x: lib.gradient(x, dim=[]),
    "0-d input": lambda lib, x: lib.gradient(x[0, 0]),
    "0-d input, spacing": lambda lib, x: lib.gradient(x[0, 0], spacing=2.0),
    "int input": lambda lib, x: lib.gradient(x.detach().long()),
    "int input, edge_order 2": lambda lib, x: lib.gradient(x.detach().long(), spacing=2,
                                                           edge_order=2),
    "float16": lambda lib, x: lib.gradient(x.half(), spacing=0.3, edge_order=2),
    "float64 coordinates": lambda lib, x: lib.gradient(
        x, spacing=[lib.tensor([0.0, 1.0, 3.0], dtype=lib.float64)], dim=0),
    "uint8": lambda lib, x: lib.gradient(x.detach().to(lib.uint8)),
    "bool": lambda lib, x: lib.gradient(x > 1),
    "positional spacing": lambda lib, x: lib.gradient(x, 1.0),
    "string spacing": lambda lib, x: lib.gradient(x, spacing="a"),
    "1-d tensor spacing": lambda lib, x: lib.gradient(x, spacing=lib.tensor([2.0, 1.0])),
    "tensor then number": lambda lib, x: lib.gradient(x, spacing=[lib.tensor([1.0, 2, 3]), 1.0]),
    "number then tensor": lambda lib, x: lib.gradient(x, spacing=[1.0, lib.tensor([1.0, 2, 3])]),
    "list of strings": lambda lib, x: lib.gradient(x, spacing=["a"]),
    "empty spacing": lambda lib, x: lib.gradient(x, spacing=[]),
    "0-d coordinates": lambda lib, x: lib.gradient(x, spacing=[lib.tensor(1.0), lib.tensor(1.0)]),
    "short coordinates": lambda lib, x: lib.gradient(x, spacing=[lib.tensor([0.0, 1.0])], dim=0),
    "spacing shorter than dims": lambda lib, x: lib.gradient(x, spacing=[2], dim=None),
    "spacing longer than dims": lambda lib, x: lib.gradient(x, spacing=[2, 3], dim=[0]),
    "spacing list, int dim": lambda lib, x: lib.gradient(x, spacing=[2, 3], dim=0),
    "dim out of range": lambda lib, x: lib.gradient(x, dim=2),
    "repeated dim": lambda lib, x: lib.gradient(x, dim=[0, -2]),
    "repeated before out of range": lambda lib, x: lib.gradient(x, dim=[0, 0, 5]),
    "float dim": lambda lib, x: lib.gradient(x, dim=1.0),
    "edge_order 3": lambda lib, x: lib.gradient(x, edge_order=3),
    "bool edge_order": lambda lib, x: lib.gradient(x, edge_order=True),
    "too short for edge_order 2": lambda lib, x: lib.gradient(x[:2], edge_order=2),
    "too short along dim": lambda lib, x: lib.gradient(x[:, :1], dim=[1]),
    "unknown keyword": lambda lib, x: lib.gradient(x, foo=1),
    "no method": lambda lib, x: x.gradient(),
}


@pytest.mark.parametrize("call", GRADIENT_CALLS.values(), ids=GRADIENT_CALLS.keys())
def test_gradient_forms_and_errors_match_torch(call):
    """The rarer forms (a 0-d tensor or bool for a number, integer and float16 inputs, no
    dims at all) and every error: torch's parser (overloads by the type of spacing and dim),
    then its checks in their order."""
    def facts(lib):
        results = call(lib, lib.tensor(X2, requires_grad=True))
        return type(results).__name__, [_facts(r) for r in results]
    both_engines(facts)
