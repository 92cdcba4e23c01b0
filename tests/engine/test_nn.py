"""minigrad.nn against torch.nn: printed text, registration, state dicts, and the numbers
(forward values and gradients) of layers and functional ops with weights copied across."""

from __future__ import annotations

import math
import warnings
from collections import OrderedDict

import numpy as np
import pytest
import torch
from hypothesis import given, settings
from hypothesis import strategies as st

import minigrad
from tests.engine.test_gradcheck_numeric import check_gradient, check_second_order
from tests.torch_compare import (
    TOLERANCES,
    assert_grad_close,
    assert_same_error,
    assert_same_graph,
    capture,
    normalize_text,
    pair,
    to_numpy,
)
from tests.torch_compare import assert_close as assert_tensor_close

LIBS = (minigrad, torch)


def both(build):
    """``build(lib)`` for each engine: (minigrad result, torch result)."""
    return build(minigrad), build(torch)


def copy_weights(m_model, t_model):
    """torch model gets minigrad's (random) weights, through numpy."""
    state = {k: torch.from_numpy(to_numpy(v).copy()) for k, v in m_model.state_dict().items()}
    t_model.load_state_dict(state)


def assert_close(m, t, dtype="float32"):
    rtol, atol = TOLERANCES[dtype]
    np.testing.assert_allclose(to_numpy(m), to_numpy(t), rtol=rtol, atol=atol)


def mlp(lib):
    nn = lib.nn
    return nn.Sequential(nn.Linear(3, 4), nn.ReLU(), nn.Linear(4, 4, bias=False), nn.Tanh(),
                         nn.Sequential(nn.Linear(4, 2), nn.Sigmoid()))


# --- printing -------------------------------------------------------------------------------
@pytest.mark.parametrize("build", [
    mlp,
    lambda lib: lib.nn.Linear(3, 4),
    lambda lib: lib.nn.Linear(5, 1, bias=False),
    lambda lib: lib.nn.ReLU(inplace=True),
    lambda lib: lib.nn.MSELoss(),
    lambda lib: lib.nn.Sequential(),
    lambda lib: lib.nn.Sequential(OrderedDict([("hidden", lib.nn.Linear(2, 3)),
                                               ("act", lib.nn.ReLU())])),
    lambda lib: lib.nn.Softmax(dim=1),
    lambda lib: lib.nn.CrossEntropyLoss(),
])
def test_module_repr_matches_torch(build):
    m, t = both(build)
    assert repr(m) == repr(t)


def test_custom_module_repr_matches_torch():
    def build(lib):
        class Net(lib.nn.Module):
            def __init__(self):
                super().__init__()
                self.w = lib.nn.Parameter(lib.zeros(2))
                self.body = lib.nn.Sequential(lib.nn.Linear(2, 2), lib.nn.ReLU())
                self.head = lib.nn.Linear(2, 1)
        return Net()

    m, t = both(build)
    assert repr(m) == repr(t)


@settings(deadline=None, max_examples=25)
@given(shape=st.lists(st.integers(0, 4), min_size=0, max_size=3),
       dtype=st.sampled_from(["float32", "float64"]), requires_grad=st.booleans(),
       seed=st.integers(0, 1000))
def test_parameter_repr_matches_torch(shape, dtype, requires_grad, seed):
    array = np.asarray(np.random.default_rng(seed).standard_normal(shape) * 10, dtype=dtype)
    m = minigrad.nn.Parameter(minigrad.tensor(array), requires_grad=requires_grad)
    t = torch.nn.Parameter(torch.tensor(array), requires_grad=requires_grad)
    assert normalize_text(repr(m)) == repr(t)


def test_parameter_is_a_leaf_tensor_sharing_memory_like_torch():
    assert minigrad.nn.parameter.Parameter is minigrad.nn.Parameter
    for lib in LIBS:
        data = lib.tensor([1.0, 2.0])
        p = lib.nn.Parameter(data)
        assert isinstance(p, lib.Tensor) and p.is_leaf and p.requires_grad
        data[0] = 5.0
        assert p[0].item() == 5.0
        assert type(p * 2) is lib.Tensor and type(p.detach()) is lib.Tensor
        assert not lib.nn.Parameter(lib.zeros(1), requires_grad=False).requires_grad
    assert normalize_text(repr(minigrad.nn.Parameter())) == repr(torch.nn.Parameter())


# --- registration and walking the tree ------------------------------------------------------
def test_named_parameters_children_modules_match_torch():
    m, t = both(mlp)
    assert [n for n, _ in m.named_parameters()] == [n for n, _ in t.named_parameters()]
    assert [tuple(p.shape) for p in m.parameters()] == [tuple(p.shape) for p in t.parameters()]
    assert [n for n, _ in m.named_children()] == [n for n, _ in t.named_children()]
    assert [type(c).__name__ for c in m.children()] == [type(c).__name__ for c in t.children()]
    assert [n for n, _ in m.named_modules()] == [n for n, _ in t.named_modules()]
    assert [n for n, _ in m.named_parameters(prefix="net", recurse=False)] == \
        [n for n, _ in t.named_parameters(prefix="net", recurse=False)]
    assert len(m) == len(t) and type(m[-1]).__name__ == type(t[-1]).__name__
    assert all(isinstance(p, minigrad.nn.Parameter) for p in m.parameters())


def test_shared_parameter_listed_once_like_torch():
    def build(lib):
        layer = lib.nn.Linear(2, 2)
        return lib.nn.Sequential(layer, lib.nn.ReLU(), layer)

    m, t = both(build)
    assert [n for n, _ in m.named_parameters()] == [n for n, _ in t.named_parameters()]
    assert list(m.state_dict()) == list(t.state_dict())


def test_reassigning_and_deleting_attributes_like_torch():
    for lib in LIBS:
        layer = lib.nn.Linear(2, 2)
        layer.bias = None
        assert [n for n, _ in layer.named_parameters()] == ["weight"]
        layer.extra = lib.nn.Parameter(lib.ones(1))
        del layer.weight
        assert [n for n, _ in layer.named_parameters()] == ["extra"]
        assert repr(layer) == "Linear(in_features=2, out_features=2, bias=False)"


@pytest.mark.parametrize("action", [
    lambda lib: setattr(lib.nn.Linear(2, 2), "weight", lib.zeros(2, 2)),
    lambda lib: lib.nn.Linear(2, 2).missing,
    lambda lib: lib.nn.Module()(lib.zeros(1)),
    lambda lib: lib.nn.Linear(2, 2).train("yes"),
])
def test_module_errors_match_torch(action):
    assert_same_error(lambda: action(minigrad), lambda: action(torch))


def test_assigning_parameter_before_init_matches_torch():
    def build(lib):
        class Broken(lib.nn.Module):
            def __init__(self):
                self.w = lib.nn.Parameter(lib.zeros(1))
                super().__init__()
        return Broken()

    assert_same_error(lambda: build(minigrad), lambda: build(torch))


def test_train_eval_requires_grad_and_zero_grad_like_torch():
    m, t = both(mlp)
    copy_weights(m, t)
    for model in (m, t):
        assert model.training and all(c.training for c in model.modules())
        assert model.eval() is model
        assert not any(c.training for c in model.modules())
        model.train()
        assert all(c.training for c in model.modules())
        model.requires_grad_(False)
        assert not any(p.requires_grad for p in model.parameters())
        model.requires_grad_()
    x = np.random.default_rng(0).standard_normal((5, 3)).astype(np.float32)
    m(minigrad.tensor(x)).sum().backward()
    t(torch.tensor(x)).sum().backward()
    m.zero_grad(set_to_none=False)
    t.zero_grad(set_to_none=False)
    for pm, pt in zip(m.parameters(), t.parameters()):
        assert pm.grad is not None and pt.grad is not None
        assert_close(pm.grad, pt.grad)
    m.zero_grad()
    t.zero_grad()
    assert all(p.grad is None for p in m.parameters())
    assert all(p.grad is None for p in t.parameters())


# --- state dicts ---------------------------------------------------------------------------
def test_state_dict_keys_and_detached_values_like_torch():
    m, t = both(mlp)
    copy_weights(m, t)
    ms, ts = m.state_dict(), t.state_dict()
    assert isinstance(ms, OrderedDict)
    assert list(ms) == list(ts)
    for key in ts:
        assert ms[key].requires_grad == ts[key].requires_grad is False
        assert type(ms[key]) is minigrad.Tensor
        assert_close(ms[key], ts[key])
    kept = m.state_dict(keep_vars=True)
    assert all(kept[k] is p for k, p in m.named_parameters())
    # detached but sharing memory: changing the model shows in the state dict
    with minigrad.no_grad():
        m[0].weight.fill_(3.0)
    assert (ms["0.weight"]._data == 3.0).all()


def test_load_state_dict_copies_in_place_without_recording():
    source, target = mlp(minigrad), mlp(minigrad)
    weight = target[0].weight
    before = weight._version
    result = target.load_state_dict(source.state_dict())
    assert tuple(result) == ([], [])
    assert target[0].weight is weight and weight.is_leaf and weight._version > before
    for a, b in zip(source.parameters(), target.parameters()):
        np.testing.assert_array_equal(a._data, b._data)
        assert a._data is not b._data


@pytest.mark.parametrize("edit", [
    lambda sd: sd.pop("0.bias"),
    lambda sd: sd.__setitem__("extra", sd["0.bias"]),
    lambda sd: (sd.pop("2.weight"), sd.__setitem__("extra", sd["0.bias"])),
    lambda sd: sd.__setitem__("0.bias", sd["0.weight"]),
])
def test_load_state_dict_errors_match_torch(edit):
    def attempt(lib):
        model = mlp(lib)
        state = model.state_dict()
        edit(state)
        return model.load_state_dict(state)

    assert_same_error(lambda: attempt(minigrad), lambda: attempt(torch))


def test_load_state_dict_not_strict_reports_keys_like_torch():
    def attempt(lib):
        model = mlp(lib)
        state = model.state_dict()
        state.pop("0.bias")
        state["extra"] = state["0.weight"]
        return model.load_state_dict(state, strict=False)

    m, t = both(attempt)
    assert (m.missing_keys, m.unexpected_keys) == (t.missing_keys, t.unexpected_keys)


_LEAVES = ["Linear(2, 3)", "Linear(3, 1, bias=False)", "ReLU()", "Tanh()", "Dropout(0.25)",
           "LayerNorm(3)", "Embedding(4, 2)", "Identity()", "PReLU()", "LeakyReLU(0.5)"]


@st.composite
def nested_models(draw, depth=3):
    """Source text of a random model: leaves in Sequential (plain or named), ModuleList (with
    runs of equal modules, which torch prints as ``(0-2): 3 x ...``) and ModuleDict."""
    if depth == 0 or draw(st.booleans()):
        return draw(st.sampled_from(_LEAVES))
    kids = draw(st.lists(nested_models(depth - 1), max_size=3))
    kind = draw(st.sampled_from(["seq", "named", "list", "dict"]))
    if kind == "seq":
        return f"Sequential({', '.join(kids)})"
    if kind == "named":
        return ("Sequential(OrderedDict([" + ", ".join(f"('{k}{i}', {m})" for i, (k, m) in
                enumerate(zip(draw(st.lists(st.sampled_from("abz"), min_size=len(kids),
                                                max_size=len(kids))), kids))) + "]))")
    if kind == "list":
        return f"ModuleList([{', '.join(kids * draw(st.integers(1, 3)))}])"
    return "ModuleDict({" + ", ".join(f"'m{i}': {m}" for i, m in enumerate(kids)) + "})"


@settings(deadline=None, max_examples=60)
@given(source=nested_models(), seed=st.integers(0, 2**16), data=st.data())
def test_nested_models_print_walk_and_load_like_torch(source, seed, data):
    """print(model), the walks (named_modules/children/parameters/buffers), state_dict keys
    and _metadata, and load_state_dict of a checkpoint with keys dropped, added (some under a
    child's prefix) or of a wrong shape: strict=False's result, strict=True's error."""
    def build(lib):
        lib.manual_seed(seed)
        return eval(source, {**vars(lib.nn), "OrderedDict": OrderedDict})

    m_model, t_model = both(build)
    text = [normalize_text(repr(m_model)), repr(t_model)]
    assert text[0] == text[1]
    for walk in ("named_modules", "named_children", "named_parameters", "named_buffers"):
        assert ([n for n, _ in getattr(m_model, walk)()]
                == [n for n, _ in getattr(t_model, walk)()]), walk
    m_state, t_state = m_model.state_dict(), t_model.state_dict()
    assert list(m_state) == list(t_state)
    assert dict(m_state._metadata) == dict(t_state._metadata)
    keys = list(t_state)
    dropped = data.draw(st.lists(st.sampled_from(keys), unique=True) if keys else st.just([]))
    prefixes = ["", *(n + "." for n, _ in t_model.named_modules() if n)]
    added = data.draw(st.lists(st.tuples(st.sampled_from(prefixes),
                                         st.sampled_from(["extra", "weight", "x.y"])),
                               max_size=3))
    reshaped = data.draw(st.sampled_from([None, *keys]))
    strict = data.draw(st.booleans())

    def load(lib, model, state):
        state = OrderedDict((k, v) for k, v in state.items() if k not in dropped)
        for prefix, name in added:
            state[prefix + name] = lib.zeros(1)
        if reshaped is not None and reshaped in state:
            state[reshaped] = lib.zeros(7)
        return model.load_state_dict(state, strict=strict)

    outcome = [capture(lambda: load(minigrad, m_model, m_state)),
               capture(lambda: load(torch, t_model, t_state))]
    assert normalize_text(str(outcome[0])) == str(outcome[1])


# --- Linear ------------------------------------------------------------------------------------
@settings(deadline=None, max_examples=20)
@given(fan_in=st.integers(1, 40), fan_out=st.integers(1, 40), seed=st.integers(0, 1000))
def test_linear_default_init_uses_torchs_bound(fan_in, fan_out, seed):
    minigrad.manual_seed(seed)
    layer = minigrad.nn.Linear(fan_in, fan_out)
    t_layer = torch.nn.Linear(fan_in, fan_out)
    bound = 1 / math.sqrt(fan_in)
    for m_p, t_p in zip(layer.parameters(), t_layer.parameters()):
        assert m_p.shape == t_p.shape and m_p.dtype.name == "float32"
        assert np.abs(m_p._data).max() <= bound
        assert t_p.abs().max().item() <= bound
    minigrad.manual_seed(seed)
    again = minigrad.nn.Linear(fan_in, fan_out)
    np.testing.assert_array_equal(again.weight._data, layer.weight._data)


def test_linear_default_init_spreads_over_the_bound():
    minigrad.manual_seed(0)
    w = minigrad.nn.Linear(400, 300).weight._data
    bound = 1 / math.sqrt(400)
    # uniform on [-b, b]: mean 0, std b / sqrt(3); 120000 draws pin both down
    assert abs(w.mean()) < 0.01 * bound
    assert abs(w.std() - bound / math.sqrt(3)) < 0.01 * bound


@settings(deadline=None, max_examples=25)
@given(batch=st.integers(1, 6), fan_in=st.integers(1, 5), fan_out=st.integers(1, 5),
       bias=st.booleans(), dtype=st.sampled_from(["float32", "float64"]),
       seed=st.integers(0, 1000), vector_input=st.booleans())
def test_linear_forward_and_gradients_match_torch(batch, fan_in, fan_out, bias, dtype, seed,
                                                  vector_input):
    m = minigrad.nn.Linear(fan_in, fan_out, bias=bias)
    t = torch.nn.Linear(fan_in, fan_out, bias=bias)
    if dtype == "float64":
        m, t = m.double(), t.double()
    copy_weights(m, t)
    shape = (fan_in,) if vector_input else (batch, fan_in)
    x = np.random.default_rng(seed).standard_normal(shape).astype(dtype)
    mx, tx = minigrad.tensor(x, requires_grad=True), torch.tensor(x, requires_grad=True)
    my, ty = m(mx), t(tx)
    assert my.dtype.name == dtype and tuple(my.shape) == tuple(ty.shape)
    assert_close(my, ty, dtype)
    g = np.random.default_rng(seed + 1).standard_normal(ty.shape).astype(dtype)
    my.backward(minigrad.tensor(g))
    ty.backward(torch.tensor(g))
    assert_close(mx.grad, tx.grad, dtype)
    for pm, pt in zip(m.parameters(), t.parameters()):
        assert_close(pm.grad, pt.grad, dtype)


def test_mlp_with_copied_weights_matches_torch():
    m, t = both(mlp)
    copy_weights(m, t)
    x = np.random.default_rng(1).standard_normal((7, 3)).astype(np.float32)
    y = np.random.default_rng(2).standard_normal((7, 2)).astype(np.float32)
    m_loss = minigrad.nn.MSELoss()(m(minigrad.tensor(x)), minigrad.tensor(y))
    t_loss = torch.nn.MSELoss()(t(torch.tensor(x)), torch.tensor(y))
    assert_close(m_loss, t_loss)
    m_loss.backward()
    t_loss.backward()
    for pm, pt in zip(m.parameters(), t.parameters()):
        assert_close(pm.grad, pt.grad)


# --- functional -------------------------------------------------------------------------------
arrays = st.tuples(st.integers(1, 5), st.integers(1, 5), st.integers(0, 10_000),
                   st.sampled_from([1.0, 30.0, 1000.0]), st.sampled_from(["float32", "float64"]))


def _pair(rows, cols, seed, scale, dtype):
    x = (np.random.default_rng(seed).standard_normal((rows, cols)) * scale).astype(dtype)
    return minigrad.tensor(x, requires_grad=True), torch.tensor(x, requires_grad=True)


def _check_fn(m_fn, t_fn, mx, tx, dtype, seed):
    my, ty = m_fn(mx), t_fn(tx)
    assert my.dtype.name == dtype and tuple(my.shape) == tuple(ty.shape)
    assert np.isfinite(to_numpy(my)).all()
    assert_close(my, ty, dtype)
    g = np.random.default_rng(seed + 7).standard_normal(tuple(ty.shape)).astype(dtype)
    my.backward(minigrad.tensor(g))
    ty.backward(torch.tensor(g))
    assert_close(mx.grad, tx.grad, dtype)


@settings(deadline=None, max_examples=30)
@given(spec=arrays, name=st.sampled_from(["softmax", "log_softmax"]), dim=st.sampled_from([0,
                                                                                          1, -1]))
def test_softmax_and_log_softmax_match_torch_even_for_large_inputs(spec, name, dim):
    mx, tx = _pair(*spec)
    _check_fn(lambda x: getattr(minigrad.nn.functional, name)(x, dim),
              lambda x: getattr(torch.nn.functional, name)(x, dim), mx, tx, spec[4], spec[2])


@settings(deadline=None, max_examples=30)
@given(spec=arrays, reduction=st.sampled_from(["mean", "sum", "none"]),
       probabilities=st.booleans())
def test_cross_entropy_matches_torch(spec, reduction, probabilities):
    rows, cols, seed, _, dtype = spec
    mx, tx = _pair(*spec)
    rng = np.random.default_rng(seed + 3)
    if probabilities:
        target = rng.random((rows, cols)).astype(dtype)
        target /= target.sum(1, keepdims=True)
    else:
        target = rng.integers(0, cols, rows)
    _check_fn(lambda x: minigrad.nn.functional.cross_entropy(x, minigrad.tensor(target),
                                                             reduction=reduction),
              lambda x: torch.nn.functional.cross_entropy(x, torch.tensor(target),
                                                          reduction=reduction),
              mx, tx, dtype, seed)
    module = minigrad.nn.CrossEntropyLoss(reduction=reduction)
    t_module = torch.nn.CrossEntropyLoss(reduction=reduction)
    assert_close(module(mx, minigrad.tensor(target)), t_module(tx, torch.tensor(target)), dtype)


@settings(deadline=None, max_examples=30)
@given(spec=arrays, reduction=st.sampled_from(["mean", "sum", "none"]))
def test_mse_loss_matches_torch(spec, reduction):
    rows, cols, seed, _, dtype = spec
    mx, tx = _pair(*spec)
    target = np.random.default_rng(seed + 5).standard_normal((rows, cols)).astype(dtype)
    _check_fn(lambda x: minigrad.nn.functional.mse_loss(x, minigrad.tensor(target),
                                                        reduction=reduction),
              lambda x: torch.nn.functional.mse_loss(x, torch.tensor(target),
                                                     reduction=reduction),
              mx, tx, dtype, seed)


@settings(deadline=None, max_examples=20)
@given(spec=arrays, name=st.sampled_from(["relu", "tanh", "sigmoid"]))
def test_activations_match_torch(spec, name):
    mx, tx = _pair(*spec)
    modules = {"relu": "ReLU", "tanh": "Tanh", "sigmoid": "Sigmoid"}
    _check_fn(getattr(minigrad.nn, modules[name])(), getattr(torch.nn, modules[name])(),
              mx, tx, spec[4], spec[2])
    assert_close(getattr(minigrad.nn.functional, name)(mx.detach()),
                 getattr(torch.nn.functional, name)(tx.detach()), spec[4])


def test_linear_functional_matches_torch():
    rng = np.random.default_rng(0)
    x, w, b = rng.standard_normal((4, 3)), rng.standard_normal((2, 3)), rng.standard_normal(2)
    assert_close(minigrad.nn.functional.linear(minigrad.tensor(x), minigrad.tensor(w),
                                               minigrad.tensor(b)),
                 torch.nn.functional.linear(torch.tensor(x), torch.tensor(w), torch.tensor(b)),
                 "float64")


def test_mse_loss_shape_mismatch_warns_like_torch():
    messages = []
    for lib in LIBS:
        with pytest.warns(UserWarning) as record:
            lib.nn.functional.mse_loss(lib.zeros(3), lib.zeros(3, 1))
        messages.append(str(record[0].message))
    assert normalize_text(messages[0]) == messages[1]


# --- fused layers and losses: the same single nodes as torch ------------------------------------
# linear, mse_loss, softmax, log_softmax and nll_loss record torch's fused nodes (AddmmBackward0,
# MseLossBackward0, ...), so whole graphs, not only values and gradients, must equal torch's.
F_M, F_T = minigrad.nn.functional, torch.nn.functional


def _leaf_pair(array, requires_grad):
    return pair(array, requires_grad=requires_grad)


def _backward_both(my, ty, leaves, seed):
    """Backward a random upstream gradient through both results; compare the leaves' grads."""
    g = np.random.default_rng(seed + 11).standard_normal(tuple(ty.shape)).astype(
        str(ty.dtype).removeprefix("torch."))
    if not ty.requires_grad:
        return
    my.backward(minigrad.tensor(g))
    ty.backward(torch.tensor(g))
    for i, (m, t) in enumerate(leaves):
        assert_grad_close(m, t, f"input {i} ")


def _check_graph_values_grads(m_fn, t_fn, leaves, seed):
    my, ty = m_fn(*(m for m, _ in leaves)), t_fn(*(t for _, t in leaves))
    assert_tensor_close(my, ty)
    assert_same_graph(my, ty)
    _backward_both(my, ty, leaves, seed)
    return my, ty


@st.composite
def linear_cases(draw):
    """Input of 1 to 4 dims (sometimes non-contiguous), weight, and a bias of several shapes."""
    ndim = draw(st.integers(1, 4))
    k, out = draw(st.integers(1, 4)), draw(st.integers(1, 4))
    batch = draw(st.lists(st.integers(0, 3), min_size=ndim - 1, max_size=ndim - 1))
    transposed = ndim >= 2 and draw(st.booleans())
    bias = draw(st.sampled_from([None, (out,), (), (1,), (1, out), (1, 1)]))
    grads = draw(st.tuples(st.booleans(), st.booleans(), st.booleans()))
    dtype = draw(st.sampled_from(["float32", "float64"]))
    return batch, k, out, transposed, bias, grads, dtype


@settings(deadline=None, max_examples=80)
@given(case=linear_cases(), seed=st.integers(0, 1000))
def test_linear_graph_values_and_grads_match_torch(case, seed):
    batch, k, out, transposed, bias_shape, (gx, gw, gb), dtype = case
    # A non-contiguous input takes matmul's path. Its folding of >2-D inputs into one mm also
    # depends on strides when the weight needs no gradient, which minigrad's matmul does not
    # copy (a matmul difference, not a linear one), so then the weight requires grad.
    gw = gw or transposed
    if len(batch) >= 2 and math.prod(batch[:-1]) == 1:
        transposed = False  # that flattening is a strided view: torch's ReshapeAliasBackward0
    rng = np.random.default_rng(seed)
    shape = (*batch, k)
    x = rng.standard_normal(shape).astype(dtype)
    if transposed:  # a non-contiguous input: torch takes the matmul path, then adds the bias
        x = np.ascontiguousarray(np.swapaxes(x, -1, -2))
    leaves = [_leaf_pair(x, gx), _leaf_pair(rng.standard_normal((out, k)).astype(dtype), gw)]
    if bias_shape is not None:
        leaves.append(_leaf_pair(rng.standard_normal(bias_shape).astype(dtype), gb))

    def run(F, lib):
        def fn(x, w, b=None):
            if transposed:
                x = x.transpose(-1, -2)
            return F.linear(x, w, b)
        return fn

    m_fn, t_fn = run(F_M, minigrad), run(F_T, torch)
    if capture(lambda: t_fn(*(t for _, t in leaves)))[0] == "error":  # a bias that broadcasts
        assert_same_error(lambda: m_fn(*(m for m, _ in leaves)),   # beyond the output
                          lambda: t_fn(*(t for _, t in leaves)))
        return
    my, ty = _check_graph_values_grads(m_fn, t_fn, leaves, seed)
    if len(shape) > 1:  # the matmul path adds the bias in place, as torch does
        assert my._version == ty._version  # (a 1-D matmul differs: torch squeezes in place)


@pytest.mark.parametrize("build", [
    lambda lib: lib.nn.Linear(3, 2),
    lambda lib: lib.nn.Linear(3, 2, bias=False),
])
@pytest.mark.parametrize("shape", [(3,), (4, 3), (2, 4, 3)])
def test_linear_module_graph_matches_torch(build, shape):
    m, t = both(build)
    copy_weights(m, t)
    x = np.random.default_rng(0).standard_normal(shape).astype(np.float32)
    for requires_grad in (False, True):
        mx, tx = pair(x, requires_grad=requires_grad)
        my, ty = m(mx), t(tx)
        assert_same_graph(my, ty)
        assert normalize_text(my.grad_fn.name()) == ty.grad_fn.name()


def test_mlp_with_losses_graph_matches_torch_node_for_node():
    m, t = both(mlp)
    copy_weights(m, t)
    x = np.random.default_rng(1).standard_normal((7, 3)).astype(np.float32)
    y = np.random.default_rng(2).standard_normal((7, 2)).astype(np.float32)
    labels = np.random.default_rng(3).integers(0, 2, 7)
    for m_loss, t_loss in [
        (minigrad.nn.MSELoss()(m(minigrad.tensor(x)), minigrad.tensor(y)),
         torch.nn.MSELoss()(t(torch.tensor(x)), torch.tensor(y))),
        (minigrad.nn.CrossEntropyLoss()(m(minigrad.tensor(x)), minigrad.tensor(labels)),
         torch.nn.CrossEntropyLoss()(t(torch.tensor(x)), torch.tensor(labels))),
    ]:
        assert_same_graph(m_loss, t_loss)
        assert_tensor_close(m_loss, t_loss)


@settings(deadline=None, max_examples=40)
@given(shape=st.lists(st.integers(0, 3), min_size=0, max_size=3),
       broadcast=st.sampled_from(["none", "target", "input"]),
       reduction=st.sampled_from(["mean", "sum", "none"]),
       grads=st.sampled_from([(True, False), (True, True), (False, True)]),
       dtype=st.sampled_from(["float32", "float64"]), seed=st.integers(0, 1000))
def test_mse_loss_graph_values_and_grads_match_torch(shape, broadcast, reduction, grads, dtype,
                                                     seed):
    rng = np.random.default_rng(seed)
    shapes = [tuple(shape), tuple(shape)]
    if broadcast != "none" and shape:
        shapes[broadcast == "input"] = tuple(shape[1:])  # drop a leading dim: broadcast back
    leaves = [_leaf_pair(rng.standard_normal(s).astype(dtype), g) for s, g in zip(shapes, grads)]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)  # the size warning, tested above
        _check_graph_values_grads(lambda a, b: F_M.mse_loss(a, b, reduction=reduction),
                                  lambda a, b: F_T.mse_loss(a, b, reduction=reduction),
                                  leaves, seed)


@settings(deadline=None, max_examples=40)
@given(shape=st.lists(st.integers(0, 4), min_size=0, max_size=3), dim_seed=st.integers(0, 10),
       name=st.sampled_from(["softmax", "log_softmax"]), to_double=st.booleans(),
       scale=st.sampled_from([1.0, 50.0]), seed=st.integers(0, 1000))
def test_softmax_and_log_softmax_graphs_match_torch(shape, dim_seed, name, to_double, scale,
                                                    seed):
    ndim = len(shape)
    dim = dim_seed % (2 * ndim) - ndim if ndim else dim_seed % 2 - 1  # negative dims too
    x = (np.random.default_rng(seed).standard_normal(shape) * scale).astype(np.float32)
    dtype = {"dtype": (minigrad.float64, torch.float64)} if to_double else {}

    def run(F, i):
        kwargs = {k: v[i] for k, v in dtype.items()}
        return lambda x: getattr(F, name)(x, dim, **kwargs)

    _check_graph_values_grads(run(F_M, 0), run(F_T, 1), [_leaf_pair(x, True)], seed)


@settings(deadline=None, max_examples=60)
@given(rows=st.integers(0, 4), classes=st.integers(1, 4), vector=st.booleans(),
       probabilities=st.booleans(), ignore=st.booleans(),
       reduction=st.sampled_from(["mean", "sum", "none"]),
       target_grad=st.booleans(), dtype=st.sampled_from(["float32", "float64"]),
       seed=st.integers(0, 1000))
def test_cross_entropy_and_nll_loss_graphs_match_torch(rows, classes, vector, probabilities,
                                                       ignore, reduction, target_grad, dtype,
                                                       seed):
    rng = np.random.default_rng(seed)
    shape = (classes,) if vector else (rows, classes)
    x = rng.standard_normal(shape).astype(dtype)
    if probabilities:
        target = rng.random(shape).astype(dtype)
        target /= np.maximum(target.sum(-1, keepdims=True), 1e-3)
        leaves = [_leaf_pair(x, True), _leaf_pair(target, target_grad)]
    else:
        target = rng.integers(0, classes, shape[:-1])
        if ignore:
            target = np.where(rng.random(target.shape) < 0.4, -100, target)
        leaves = [_leaf_pair(x, True), _leaf_pair(target, False)]
    _check_graph_values_grads(lambda a, b: F_M.cross_entropy(a, b, reduction=reduction),
                              lambda a, b: F_T.cross_entropy(a, b, reduction=reduction),
                              leaves, seed)
    if not probabilities:
        leaves = [_leaf_pair(x, True), _leaf_pair(target, False)]
        _check_graph_values_grads(lambda a, b: F_M.nll_loss(a, b, reduction=reduction),
                                  lambda a, b: F_T.nll_loss(a, b, reduction=reduction),
                                  leaves, seed)


@pytest.mark.parametrize("call", [
    lambda L: L.nn.functional.linear(L.ones(()), L.ones(2, 3)),
    lambda L: L.nn.functional.linear(L.ones(3), L.ones(())),
    lambda L: L.nn.functional.linear(L.ones(2, 5), L.ones(3, 4), L.ones(3)),
    lambda L: L.nn.functional.linear(L.ones(5), L.ones(3, 4), L.ones(3)),
    lambda L: L.nn.functional.linear(L.ones(2, 2, 5), L.ones(3, 4), L.ones(3)),
    lambda L: L.nn.functional.linear(L.ones(2, 5), L.ones(3, 4)),
    lambda L: L.nn.functional.linear(L.ones(2, 4), L.ones(3, 4), L.ones(4)),
    lambda L: L.nn.functional.linear(L.ones(4), L.ones(3, 4), L.ones(2, 3)),
    lambda L: L.nn.functional.linear(L.ones(2, 4), L.ones(3, 4), L.ones(1, 1, 3)),
    lambda L: L.nn.functional.linear(L.ones(2, 4), L.ones(4), L.ones(())),
    lambda L: L.nn.functional.linear(L.ones(2, 4).double(), L.ones(3, 4), L.ones(3)),
    lambda L: L.nn.functional.linear(L.ones(2, 4), L.ones(3, 4), L.ones(3).double()),
    lambda L: L.nn.functional.mse_loss(L.ones(3), L.ones(3), reduction="avg"),
    lambda L: L.nn.functional.mse_loss(L.ones(3).long(), L.ones(3).long()),
    lambda L: L.nn.functional.softmax(L.ones(2, 3), 2),
    lambda L: L.nn.functional.softmax(L.ones(2, 3).long(), 0),
    lambda L: L.nn.functional.log_softmax(L.ones(2, 3).long(), -1),
    lambda L: L.nn.functional.nll_loss(L.ones(2, 3), L.tensor([0, 3])),
    lambda L: L.nn.functional.nll_loss(L.ones(2, 3), L.tensor([0, -1])),
    lambda L: L.nn.functional.nll_loss(L.ones(2, 3), L.tensor([0.0, 1.0])),
    lambda L: L.nn.functional.nll_loss(L.ones(2, 3), L.tensor([0, 1, 1])),
    lambda L: L.nn.functional.nll_loss(L.ones(()), L.tensor(0)),
    lambda L: L.nn.functional.nll_loss(L.ones(2, 3), L.tensor([0, 1]), reduction="all"),
    lambda L: L.nn.functional.cross_entropy(L.ones(()), L.tensor(0)),
    lambda L: L.nn.functional.cross_entropy(L.ones(2, 3), L.ones(2, 4)),
])
def test_fused_op_errors_match_torch(call):
    assert_same_error(lambda: call(minigrad), lambda: call(torch))


@pytest.mark.parametrize("name", ["linear", "linear_vector", "linear_batch", "mse_loss",
                                  "mse_loss_sum", "mse_loss_none", "softmax", "log_softmax",
                                  "cross_entropy", "cross_entropy_probs", "nll_loss_none"])
@settings(deadline=None, max_examples=5)
@given(seed=st.integers(0, 2**32 - 1))
def test_fused_ops_gradients_numerically_float64(name, seed):
    """Central differences, first and second order, as in test_gradcheck_numeric.py."""
    rng = np.random.default_rng(seed)
    labels = minigrad.tensor(rng.integers(0, 3, 4))
    cases = {
        "linear": (lambda x, w, b: F_M.linear(x, w, b), [(4, 3), (2, 3), (2,)]),
        "linear_vector": (lambda x, w, b: F_M.linear(x, w, b), [(3,), (2, 3), (2,)]),
        "linear_batch": (lambda x, w: F_M.linear(x, w), [(2, 4, 3), (2, 3)]),
        "mse_loss": (lambda a, b: F_M.mse_loss(a, b), [(4, 3), (4, 3)]),
        "mse_loss_sum": (lambda a, b: F_M.mse_loss(a, b, reduction="sum"), [(4, 3), (4, 3)]),
        "mse_loss_none": (lambda a, b: F_M.mse_loss(a, b, reduction="none"), [(4, 3), (4, 3)]),
        "softmax": (lambda x: F_M.softmax(x, 1), [(4, 3)]),
        "log_softmax": (lambda x: F_M.log_softmax(x, 0), [(4, 3)]),
        "cross_entropy": (lambda x: F_M.cross_entropy(x, labels), [(4, 3)]),
        "cross_entropy_probs": (lambda x, p: F_M.cross_entropy(x, F_M.softmax(p, 1)),
                                [(4, 3), (4, 3)]),
        "nll_loss_none": (lambda x: F_M.nll_loss(F_M.log_softmax(x, 1), labels,
                                                 reduction="none"), [(4, 3)]),
    }
    fn, shapes = cases[name]
    arrays = [rng.standard_normal(s) for s in shapes]
    check_gradient(fn, arrays, rng)
    check_second_order(fn, arrays, rng)


@settings(deadline=None, max_examples=15)
@given(seed=st.integers(0, 1000), loss=st.sampled_from(["mse", "ce", "ce_probs"]))
def test_fused_ops_second_derivatives_match_torch(seed, loss):
    """Hessian-vector products of a small network's loss, through every fused node."""
    rng = np.random.default_rng(seed)
    arrays = [rng.standard_normal(s) for s in [(5, 3), (4, 3), (4,), (2, 4), (2,)]]
    target = rng.standard_normal((5, 2)) if loss != "ce" else rng.integers(0, 2, 5)
    v = [rng.standard_normal(a.shape) for a in arrays[1:]]
    results = []
    for lib in LIBS:
        x, w1, b1, w2, b2 = (lib.tensor(a, requires_grad=i > 0) for i, a in enumerate(arrays))
        F = lib.nn.functional
        out = F.linear(F.linear(x, w1, b1).tanh(), w2, b2)
        y = lib.tensor(target)
        value = (F.mse_loss(out, y) if loss == "mse" else
                 F.cross_entropy(out, F.softmax(y, 1) if loss == "ce_probs" else y))
        params = (w1, b1, w2, b2)
        grads = lib.autograd.grad(value, params, create_graph=True)
        dot = sum((g * lib.tensor(u)).sum() for g, u in zip(grads, v))
        results.append((grads, lib.autograd.grad(dot, params)))
    (mg, mh), (tg, th) = results
    for m, t in zip((*mg, *mh), (*tg, *th)):
        assert_tensor_close(m, t, rtol=1e-9, atol=1e-11)


def _hook_dicts(lib):
    """A module's hook stores as torch names them, before and after hooks come and go."""
    m = lib.nn.Linear(2, 2)
    names = [k for k in vars(m) if "hook" in k]
    handles = [m.register_forward_hook(lambda *a: None, with_kwargs=True),
               m.register_forward_pre_hook(lambda *a: None, with_kwargs=True),
               m.register_forward_pre_hook(lambda *a: None, prepend=True),
               m.register_full_backward_hook(lambda *a: None),
               m.register_full_backward_pre_hook(lambda *a: None, prepend=True)]
    ids = {id(h): i for i, h in enumerate(handles)}  # torch's handle ids differ from ours
    def shown(store):
        by_handle = {h.id: ids[id(h)] for h in handles}
        return [(by_handle[k], v if isinstance(v, bool) else callable(v))
                for k, v in store.items()]
    filled = {k: shown(v) for k, v in vars(m).items() if k in names and isinstance(v, dict)}
    for h in handles:
        h.remove()
    emptied = {k: len(v) for k, v in vars(m).items() if k in names and isinstance(v, dict)}
    return names, filled, emptied, {type(getattr(m, k)) for k in filled}


def test_module_hook_dicts_are_torch_s():
    """Old books read and clear ``_forward_hooks`` and the rest: the same OrderedDicts, keyed
    by handle, holding the hooks themselves (with_kwargs in a dict of its own), emptied by
    the handles. torch has a few stores minigrad does not (state-dict hooks, always_call):
    minigrad's are torch's, in torch's order."""
    names, filled, emptied, types = _hook_dicts(minigrad)
    t_names, t_filled, t_emptied, t_types = _hook_dicts(torch)
    assert names == [n for n in t_names if n in names]
    assert filled == {k: t_filled[k] for k in filled}
    assert emptied == {k: t_emptied[k] for k in emptied}
    assert types == {OrderedDict} and t_types == {OrderedDict}
    assert len(names) >= 7


def _firing_warning_lines(lib):
    """Where the 'Full backward hook is firing' warning points, through backward() and
    autograd.grad() (each call on its own line of this function)."""
    m = lib.nn.Linear(2, 2)
    m.register_full_backward_hook(lambda mod, gi, go: None)
    x = lib.ones(1, 2)
    with warnings.catch_warnings(record=True) as w:
        warnings.simplefilter("always")
        m(x).sum().backward()
        lib.autograd.grad(m(x).sum(), m.weight)
    return [(c.filename, c.lineno) for c in w if "Full backward hook" in str(c.message)]


def test_full_backward_hook_warning_points_at_the_learner_s_line():
    """torch's engine is C++, so the hook's warning lands on the line that called backward()
    or grad(); minigrad's engine adds Python frames, which the warning skips: with Python's
    default filter a learner sees it once per such line, as with torch."""
    got, want = _firing_warning_lines(minigrad), _firing_warning_lines(torch)
    assert len(want) == 2 and want[0][0] == __file__
    assert got == want


_WARNED = [  # each a learner's line that warns; torch names that line or one of its own
    lambda lib: lib.optim.lr_scheduler.StepLR(lib.optim.SGD([lib.nn.Parameter(lib.ones(1))],
                                                            lr=0.1), 1).get_lr(),
    lambda lib: lib.optim.lr_scheduler.StepLR(lib.optim.SGD([lib.nn.Parameter(lib.ones(1))],
                                                            lr=0.1), 1).step(),
    lambda lib: lib.nn.MSELoss(size_average=False),
    lambda lib: lib.nn.functional.nll_loss(lib.zeros(2, 2), lib.tensor([0, 1]), reduce=False),
    lambda lib: lib.nn.functional.margin_ranking_loss(lib.ones(2), lib.ones(2), lib.ones(2),
                                                      size_average=True),
    lambda lib: lib.nn.MSELoss()(lib.ones(2, 1), lib.ones(2)),
    lambda lib: lib.nn.KLDivLoss()(lib.ones(2), lib.ones(2)),
    lambda lib: lib.nn.Softmax()(lib.ones(2, 2)),
    lambda lib: lib.nn.Softmin()(lib.ones(2, 2)),
    lambda lib: lib.nn.functional.softmax(lib.ones(2, 2)),
    lambda lib: lib.nn.Linear(1, 1).state_dict({}),
    lambda lib: lib.nn.utils.clip_grad_norm_((p for p in []), 1.0),
    lambda lib: lib.nn.init.normal(lib.empty(2, 2)),
    lambda lib: lib.nn.init.trunc_normal_(lib.empty(2), mean=5.0),
    lambda lib: lib.tensor(lib.ones(2)),
    lambda lib: lib.ones(2).new_tensor(lib.ones(2)),
    lambda lib: _hooked_output_dict(lib),
]


def _hooked_output_dict(lib):
    """A module with a full backward hook whose forward returns a dict (torch warns)."""
    class D(lib.nn.Module):
        def forward(self, x):
            return {"out": x * 2}

    m = D()
    m.register_full_backward_hook(lambda mod, gi, go: None)
    return m(lib.ones(2, requires_grad=True))


@pytest.mark.parametrize("make", _WARNED)
def test_warnings_name_the_learner_s_line_where_torchs_do(make):
    """Python's default filter shows a warning once per place it names: a warning torch
    words from its own code shows once in a session, one naming the learner's line once per
    line. Each warning here names this file where torch's does, and the library where
    torch's does."""
    def places(lib):
        with warnings.catch_warnings(record=True) as w:
            warnings.simplefilter("always")
            make(lib)
        return [c.filename == __file__ for c in w]

    assert places(minigrad) == places(torch)
