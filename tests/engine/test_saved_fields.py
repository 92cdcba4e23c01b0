"""``grad_fn._saved_<field>`` / ``_raw_saved_<field>`` against torch's, for every node class
minigrad has (names) and for a list of ops (values); and saved-tensor hooks
(``saved_tensors_hooks``, ``save_on_cpu``, ``disable_saved_tensors_hooks``,
``SavedTensor.register_hooks``)."""

from __future__ import annotations

import numpy as np
import pytest
import torch

import minigrad
from minigrad.autograd.function import BackwardCFunction
from minigrad.autograd.graph import Node
from tests.torch_compare import assert_close, assert_same_error, both_engines, normalize_text


def _node_classes():
    found, stack = {}, [Node]
    while stack:
        for sub in stack.pop().__subclasses__():
            # not the test suites' own nodes, nor a custom Function's node (minigrad's own
            # checkpoint has one): torch makes those in Python too, with no generated fields
            if sub.__module__.startswith("minigrad.") and not issubclass(sub, BackwardCFunction):
                found[sub.__name__] = sub
            stack.append(sub)
    return found


# Node classes of minigrad's own that torch has no generated class for.
NOT_TORCH_NODES = {"BackwardCFunction", "_ViewNode", "_ZeroGradient", "_ZeroComparison"}


def _saved_names(obj):
    return sorted(a for a in dir(obj) if a.startswith("_saved_") or a.startswith("_raw_saved_"))


@pytest.mark.parametrize("name", sorted(set(_node_classes()) - NOT_TORCH_NODES))
def test_every_node_class_has_torchs_saved_field_names(name):
    """The names on an instance of each class equal those of torch's class of that name."""
    cls = _node_classes()[name]
    torch_cls = getattr(torch._C._functions, name)
    node = cls.__new__(cls)
    assert _saved_names(node) == _saved_names(torch_cls)


def _x(L, *shape, seed=0, rg=True):
    data = np.random.default_rng(seed).standard_normal(shape)
    return L.tensor(data, requires_grad=rg)


OPS = {
    "add": lambda L, x, y: x + y, "add_alpha": lambda L, x, y: L.add(x, y, alpha=2),
    "add_scalar": lambda L, x, y: x + 2, "sub": lambda L, x, y: x.sub(y, alpha=3),
    "rsub": lambda L, x, y: 2 - x, "mul": lambda L, x, y: x * y,
    "mul_scalar": lambda L, x, y: x * 2, "mul_const": lambda L, x, y: x * y.detach(),
    "div": lambda L, x, y: x / y, "div_scalar": lambda L, x, y: x / 2,
    "neg": lambda L, x, y: -x, "reciprocal": lambda L, x, y: x.reciprocal(),
    "pow": lambda L, x, y: x ** 2, "pow_t": lambda L, x, y: x.abs() ** y,
    "rpow": lambda L, x, y: 2 ** x, "exp": lambda L, x, y: x.exp(),
    "log": lambda L, x, y: x.abs().log(), "sqrt": lambda L, x, y: x.abs().sqrt(),
    "sin": lambda L, x, y: x.sin(), "cos": lambda L, x, y: x.cos(),
    "tanh": lambda L, x, y: x.tanh(), "sigmoid": lambda L, x, y: x.sigmoid(),
    "relu": lambda L, x, y: x.relu(), "abs": lambda L, x, y: x.abs(),
    "sign": lambda L, x, y: x.sign(), "clamp": lambda L, x, y: x.clamp(-0.5, 0.5),
    "clamp_min": lambda L, x, y: x.clamp(min=0), "clamp_t": lambda L, x, y: x.clamp(y),
    "where": lambda L, x, y: L.where(x > 0, x, y),
    "sum": lambda L, x, y: x.sum(), "sum_dim": lambda L, x, y: x.sum(1, keepdim=True),
    "mean": lambda L, x, y: x.mean(), "mean_dim": lambda L, x, y: x.mean(0),
    "max": lambda L, x, y: x.max(), "max_dim": lambda L, x, y: x.max(1)[0],
    "min": lambda L, x, y: x.min(), "min_dim": lambda L, x, y: x.min(0, keepdim=True)[0],
    "prod": lambda L, x, y: x.prod(), "prod_dim": lambda L, x, y: x.prod(1),
    "dot": lambda L, x, y: x[0].dot(y[0]), "mm": lambda L, x, y: x.mm(y.t()),
    "mm_t": lambda L, x, y: x.t().mm(y), "mv": lambda L, x, y: x.mv(y[0]),
    "bmm": lambda L, x, y: x.unsqueeze(0).bmm(y.t().unsqueeze(0)),
    "matmul": lambda L, x, y: x @ y.t(), "view": lambda L, x, y: x.view(12),
    "reshape": lambda L, x, y: x.t().reshape(12), "clone": lambda L, x, y: x.clone(),
    "to": lambda L, x, y: x.to(L.float32), "t": lambda L, x, y: x.t(),
    "transpose": lambda L, x, y: x.transpose(0, 1), "permute": lambda L, x, y: x.permute(1, 0),
    "unsqueeze": lambda L, x, y: x.unsqueeze(1), "squeeze": lambda L, x, y: x[None].squeeze(),
    "squeeze_dim": lambda L, x, y: x[None].squeeze(0),
    "squeeze_dims": lambda L, x, y: x[None].squeeze((0, 1)),
    "vec_matmul": lambda L, x, y: x[0] @ y.t(),
    "expand": lambda L, x, y: x[None].expand(2, 3, 4), "unbind": lambda L, x, y: x.unbind(0)[1],
    "select": lambda L, x, y: x[1], "select_neg": lambda L, x, y: x[-1],
    "select_dim": lambda L, x, y: x.select(1, 2), "slice": lambda L, x, y: x[1:],
    "slice_step": lambda L, x, y: x[:, 1:3:2], "slice_neg": lambda L, x, y: x[-2:],
    "slice_stop": lambda L, x, y: x[:2], "slice_negs": lambda L, x, y: x[:, -3:-1],
    "cat": lambda L, x, y: L.cat([x, y]), "stack": lambda L, x, y: L.stack([x, y], 1),
    "linear": lambda L, x, y: L.nn.functional.linear(x, y, y[:, 0]),
    "mse": lambda L, x, y: L.nn.functional.mse_loss(x, y),
    "mse_sum": lambda L, x, y: L.nn.functional.mse_loss(x, y, reduction="sum"),
    "softmax": lambda L, x, y: L.nn.functional.softmax(x, 1),
    "log_softmax": lambda L, x, y: L.nn.functional.log_softmax(x, 0),
    "nll": lambda L, x, y: L.nn.functional.nll_loss(x, L.tensor([0, 1, 3])),
    "scatter": lambda L, x, y: x.scatter(1, L.tensor([[0], [1], [2]]), y[:, :1]),
    "index_put": lambda L, x, y: x.index_put((L.tensor([0]),), y[:1]),
    "index": lambda L, x, y: x[[0, 2]],
    "sgn": lambda L, x, y: x.sgn(),
    "div_floor": lambda L, x, y: x.div(y, rounding_mode="floor"),
    "div_trunc": lambda L, x, y: L.div(x, 2, rounding_mode="trunc"),
    "relu_grad": lambda L, x, y: L.autograd.grad((x.relu() * y).sum(), x, create_graph=True)[0],
    "tanh_grad": lambda L, x, y: L.autograd.grad((x.tanh() * y).sum(), x, create_graph=True)[0],
    "sigmoid_grad": lambda L, x, y: L.autograd.grad((x.sigmoid() * y).sum(), x,
                                                    create_graph=True)[0],
    # one or more per node class added since: negative dims read back as torch shows them
    "amax": lambda L, x, y: x.amax(-1, keepdim=True), "amax_all": lambda L, x, y: x.amax(),
    "amin": lambda L, x, y: x.amin((0, 1)),
    "clamp_min_f": lambda L, x, y: L.clamp_min(x, 0.3),
    "clamp_min_t": lambda L, x, y: L.clamp_min(x, y),
    "clamp_max_f": lambda L, x, y: L.clamp_max(x, 0.3),
    "clamp_max_t": lambda L, x, y: L.clamp_max(x, y),
    "cumsum": lambda L, x, y: x.cumsum(-1), "cumprod": lambda L, x, y: x.cumprod(0),
    "diag_embed": lambda L, x, y: L.diag_embed(x, 1, 0, -1),
    "diag_1d": lambda L, x, y: L.diag(x[0], -1), "diag_2d": lambda L, x, y: L.diag(x, -1),
    "diagonal": lambda L, x, y: x[None].diagonal(1, -1, -2),
    "flip": lambda L, x, y: x.flip(-1, 0),
    "floor": lambda L, x, y: x.floor(), "ceil": lambda L, x, y: x.ceil(),
    "trunc": lambda L, x, y: x.trunc(), "frac": lambda L, x, y: x.frac(),
    "round": lambda L, x, y: x.round(), "round_decimals": lambda L, x, y: x.round(decimals=1),
    "fmod": lambda L, x, y: L.fmod(x, 0.3), "fmod_t": lambda L, x, y: L.fmod(x, y),
    "remainder": lambda L, x, y: x % 0.3, "remainder_t": lambda L, x, y: x % y,
    "fmod_t_const": lambda L, x, y: L.fmod(x, y.detach()),
    "remainder_t_const": lambda L, x, y: x % y.detach(),
    "maximum_const": lambda L, x, y: L.maximum(x, y.detach()),
    "clamp_min_t_const": lambda L, x, y: L.clamp_min(x, y.detach()),
    "clamp_max_t_const": lambda L, x, y: L.clamp_max(x.detach(), y),
    "floor_divide": lambda L, x, y: x // y,
    "gather": lambda L, x, y: x.gather(-1, L.tensor([[0, 1], [2, 0], [1, 1]])),
    "index_select": lambda L, x, y: x.index_select(-1, L.tensor([0, 2])),
    "lerp": lambda L, x, y: L.lerp(x, y, 0.3), "lerp_t": lambda L, x, y: L.lerp(x, y, y),
    "lerp_t_const_weight": lambda L, x, y: L.lerp(x, y, y.detach().exp()),
    "lerp_t_const_ends": lambda L, x, y: L.lerp(x.detach(), y.detach(), y),
    "norm": lambda L, x, y: x.norm(), "norm_dim": lambda L, x, y: x.norm(3, -1),
    "vector_norm": lambda L, x, y: x.norm(float("inf"), (0, 1), True),
    "logsumexp": lambda L, x, y: x.logsumexp(-1, keepdim=True),
    "masked_fill": lambda L, x, y: x.masked_fill(y > 0, 2.0),
    "masked_fill_t": lambda L, x, y: x.masked_fill(y > 0, y[0, 0]),
    "masked_select": lambda L, x, y: x.masked_select(y > 0),
    "maximum": lambda L, x, y: L.maximum(x, y), "minimum": lambda L, x, y: L.minimum(x, y),
    "repeat": lambda L, x, y: x.repeat(2, 1, 1),
    "roll": lambda L, x, y: x.roll((1, -1), (0, -1)), "roll_flat": lambda L, x, y: x.roll(2),
    "scatter_add": lambda L, x, y: x.scatter_add(-1, L.tensor([[0], [1], [2]]), y[:, :1]),
    "scatter_value": lambda L, x, y: x.scatter(-1, L.tensor([[0], [1], [2]]), 2.0),
    "scatter_neg": lambda L, x, y: x.scatter(-1, L.tensor([[0], [1], [2]]), y[:, :1]),
    "sort": lambda L, x, y: x.sort(0, descending=True)[0],
    "sort_stable": lambda L, x, y: x.sort(stable=True)[0],
    "topk": lambda L, x, y: x.topk(2)[0], "topk_dim": lambda L, x, y: x.topk(2, 0)[0],
    "split": lambda L, x, y: x.split(3, -1)[1], "chunk": lambda L, x, y: x.chunk(2, 0)[0],
    "split_sizes": lambda L, x, y: x.split([1, 3], 1)[1],
    "std": lambda L, x, y: x.std(), "std_dim": lambda L, x, y: x.std(-1, correction=0),
    "var": lambda L, x, y: x.var(), "var_dim": lambda L, x, y: x.var(1, keepdim=True),
    "var_unbiased": lambda L, x, y: x.var(0, unbiased=False),
    "var_dims": lambda L, x, y: x.var((0, 1), correction=2),
    "var_keepdim": lambda L, x, y: x.var(keepdim=True),
    "var_bool": lambda L, x, y: x.var(False), "std_unbiased": lambda L, x, y: L.std(x, 0),
    "amax_empty": lambda L, x, y: x.amax(()),
    "norm_keepdim": lambda L, x, y: x.norm(dim=1, keepdim=True),
    "scatter_inplace": lambda L, x, y: x.clone().scatter_(-1, L.tensor([[0], [1], [2]]), 2.0),
    "scatter_t_inplace": lambda L, x, y: x.clone().scatter_(-1, L.tensor([[0], [1], [2]]),
                                                            y[:, :1]),
    "scatter_add_inplace": lambda L, x, y: x.clone().scatter_add_(-1, L.tensor([[0], [1], [2]]),
                                                                  y[:, :1]),
    "masked_fill_inplace": lambda L, x, y: x.clone().masked_fill_(y > 0, 1.0),
    "diag_embed_default": lambda L, x, y: L.diag_embed(x),
    "diagonal_default": lambda L, x, y: x.diagonal(), "roll_neg": lambda L, x, y: x.roll(-1, -1),
    "tril": lambda L, x, y: x.tril(), "triu": lambda L, x, y: x.triu(-1),
    # statistics_losses
    "pairwise_distance": lambda L, x, y: L.pairwise_distance(x, y, 1, keepdim=True),
    "pairwise_distance_0d": lambda L, x, y: L.pairwise_distance(x[0, 0], y[0, 0]),
    "dist": lambda L, x, y: x.dist(y), "dist_p": lambda L, x, y: L.dist(x, y, 1.5),
    "dist_inf": lambda L, x, y: L.dist(x, y.detach(), float("inf")),
    "dist_int_p": lambda L, x, y: L.dist(x, y, 3),
    "cdist": lambda L, x, y: L.cdist(x, y, 1.5),
    "kl_div_xlogy": lambda L, x, y: L.kl_div(x, y.exp()),
    "cdist_mm": lambda L, x, y: L.cdist(x, y, compute_mode="use_mm_for_euclid_dist"),
    "median": lambda L, x, y: x.median(), "median_dim": lambda L, x, y: x.median(-1)[0],
    "nanmedian_dim": lambda L, x, y: x.nanmedian(0, True)[0],
    "kthvalue": lambda L, x, y: x.kthvalue(2)[0], "mode": lambda L, x, y: x.mode(0)[0],
    "nansum": lambda L, x, y: x.nansum(), "nansum_dim": lambda L, x, y: x.nansum(-1, True),
    "var_mean": lambda L, x, y: L.var_mean(x)[0],
    "var_mean_dim": lambda L, x, y: L.var_mean(x, -1, correction=0)[1],
    "std_mean": lambda L, x, y: L.std_mean(x, (0, 1), keepdim=True)[0],
    "aminmax": lambda L, x, y: L.aminmax(x).max,
    "aminmax_dim": lambda L, x, y: x.aminmax(dim=-1).min,
    "pad": lambda L, x, y: L.nn.functional.pad(x, (1, -1, 0, 2)),
    "logsigmoid": lambda L, x, y: L.nn.functional.logsigmoid(x),
    "inverse": lambda L, x, y: (x[:2, :2] + 3 * L.eye(2)).inverse(),
    "multi_margin_loss": lambda L, x, y: L.nn.functional.multi_margin_loss(
        x, L.tensor([0, 2, 1]), p=2, margin=0.5, reduction="sum"),
    # the activations group's block
    "erf": lambda L, x, y: L.erf(x), "erfc": lambda L, x, y: x.erfc(),
    "erfinv": lambda L, x, y: (x * 0.1).erfinv(), "erf_": lambda L, x, y: x.clone().erf_(),
    "hardtanh": lambda L, x, y: L.nn.functional.hardtanh(x, -0.5, 1),
    "hardtanh_": lambda L, x, y: L.nn.functional.hardtanh(x.clone(), inplace=True),
    "relu6": lambda L, x, y: L.nn.functional.relu6(x * 4),
    "relu6_module": lambda L, x, y: L.nn.ReLU6()(x * 4),
    "hardtanh_grad": lambda L, x, y: L.autograd.grad(
        (L.nn.functional.hardtanh(x) * y).sum(), x, create_graph=True)[0],
    "logsigmoid_grad": lambda L, x, y: L.autograd.grad(
        (L.nn.functional.logsigmoid(x) * y).sum(), x, create_graph=True)[0],
    "selu": lambda L, x, y: L.nn.functional.selu(x), "selu_": lambda L, x, y: L.selu_(x * 1),
    "celu": lambda L, x, y: L.nn.functional.celu(x, 1.5), "celu_": lambda L, x, y: L.celu_(x * 1),
    "celu_grad": lambda L, x, y: L.autograd.grad(
        (L.celu(x, 1.1) * y).sum(), x, create_graph=True)[0],
    "mish": lambda L, x, y: L.nn.functional.mish(x),
    "hardsigmoid": lambda L, x, y: L.nn.functional.hardsigmoid(x * 3),
    "hardswish": lambda L, x, y: L.nn.functional.hardswish(x * 3),
    "hardswish_grad": lambda L, x, y: L.autograd.grad(
        (L.nn.functional.hardswish(x) * y).sum(), x, create_graph=True)[0],
    "softsign": lambda L, x, y: L.nn.functional.softsign(x),
    "softmin": lambda L, x, y: L.nn.functional.softmin(x, -1),
    "threshold": lambda L, x, y: L.threshold(x, 0.1, 2), "threshold_": lambda L, x, y:
        L.nn.functional.threshold(x.clone(), 0.1, 2.0, inplace=True),
    "softshrink": lambda L, x, y: L.nn.functional.softshrink(x, 0.3),
    "hardshrink": lambda L, x, y: x.hardshrink(),
    "softshrink_grad": lambda L, x, y: L.autograd.grad(
        (L.nn.functional.softshrink(x) * y).sum(), x, create_graph=True)[0],
    "hardshrink_grad": lambda L, x, y: L.autograd.grad(
        (L.hardshrink(x, 1) * y).sum(), x, create_graph=True)[0],
    "glu": lambda L, x, y: L.nn.functional.glu(x), "glu_0": lambda L, x, y: L.nn.functional.glu(
        x[:2], 0),
    "glu_grad": lambda L, x, y: L.autograd.grad(
        (L.nn.functional.glu(x) * y[:, :2]).sum(), x, create_graph=True)[0],
    "prelu": lambda L, x, y: L.prelu(x, y[0, :1]),
    "prelu_grad": lambda L, x, y: L.autograd.grad(
        (L.prelu(x, y[0, :1]) * y).sum(), x, create_graph=True)[0],
    "logaddexp": lambda L, x, y: L.logaddexp(x, y), "deg2rad": lambda L, x, y: x.deg2rad(),
    "rad2deg": lambda L, x, y: L.rad2deg(x),
    "logit": lambda L, x, y: L.logit(x.sigmoid()), "logit_eps": lambda L, x, y: x.logit(0.1),
    "sinc": lambda L, x, y: L.sinc(x),
    "xlogy": lambda L, x, y: L.xlogy(x, y.abs()), "xlogy_other": lambda L, x, y: L.xlogy(x, 2.0),
    "xlogy_self": lambda L, x, y: L.xlogy(2, y.abs()),
}


def _value(v):
    if isinstance(v, torch.Tensor | minigrad.Tensor):
        return ("tensor", tuple(v.shape), v.requires_grad, v.detach().numpy().tolist()
                if isinstance(v, torch.Tensor) else v.detach()._data.tolist())
    if isinstance(v, tuple | list):
        return tuple(_value(a) for a in v)
    return v


@pytest.mark.parametrize("op", list(OPS))
def test_saved_field_values_match_torch(op):
    """Same names on the op's node, the same value for each ``_saved_*`` (or, for what
    minigrad does not keep, an AttributeError saying so), a SavedTensor for each
    ``_raw_saved_*``; after backward, tensors are freed with torch's error."""
    nodes = {}
    for L in (torch, minigrad):
        x, y = _x(L, 3, 4), _x(L, 3, 4, seed=1)
        nodes[L] = OPS[op](L, x, y).grad_fn
    t, m = nodes[torch], nodes[minigrad]
    assert m.name() == normalize_text(t.name()) or normalize_text(m.name()) == t.name()
    names = _saved_names(t)
    assert _saved_names(m) == names
    for name in names:
        if name.startswith("_raw_saved_"):
            got = getattr(t, name)
            kind = [type(a).__name__ for a in got] if isinstance(got, list) else \
                type(got).__name__
            if kind == "SavedTensor":
                try:
                    assert type(getattr(m, name)).__name__ == "SavedTensor", name
                except AttributeError as e:
                    assert "does not keep" in str(e)
            continue
        try:
            got = getattr(m, name)
        except AttributeError as e:  # documented, deliberate: one clear error
            assert "does not keep" in str(e) and "which torch saves" in str(e), e
            continue
        expected = getattr(t, name)
        assert _value(got) == _value(expected) or _close(got, expected), \
            f"{name}: minigrad {got!r} vs torch {expected!r}"


def _close(m, t):
    if isinstance(t, torch.Tensor) and isinstance(m, minigrad.Tensor):
        assert_close(m, t)
        return m.requires_grad == t.requires_grad
    return False


DIM_OPS = {
    "cumsum": lambda L, x, d: x.cumsum(d), "cumprod": lambda L, x, d: x.cumprod(d),
    "sort": lambda L, x, d: x.sort(d)[0], "topk": lambda L, x, d: x.topk(2, d)[0],
    "amax": lambda L, x, d: x.amax(d), "logsumexp": lambda L, x, d: x.logsumexp(d, True),
    "norm": lambda L, x, d: x.norm(2, d), "var": lambda L, x, d: x.var(d),
    "std": lambda L, x, d: x.std((d, 1 - d % 2)), "flip": lambda L, x, d: x.flip(d),
    "roll": lambda L, x, d: x.roll(1, d), "split": lambda L, x, d: x.split(2, d)[0],
    "gather": lambda L, x, d: x.gather(d, L.zeros(2, 2, dtype=L.int64)),
    "index_select": lambda L, x, d: x.index_select(d, L.tensor([1, 0])),
    "scatter_add": lambda L, x, d: x.scatter_add(d, L.ones(2, 2, dtype=L.int64), x),
    "diagonal": lambda L, x, d: x.diagonal(d + 1, d, 1 - d % 2),
    "diag_embed": lambda L, x, d: L.diag_embed(x, d, d, d + 1 if d in (-3, 0, 1) else 0),
}


@pytest.mark.parametrize("dim", [-2, -1, 0, 1])
@pytest.mark.parametrize("op", list(DIM_OPS))
def test_saved_ints_are_the_arguments_as_given(op, dim):
    """torch keeps a dim (and an offset, shifts...) as the caller gave it, a negative one
    read back as its unsigned 64-bit pattern; the wrapped dim minigrad's formulas use is
    not what torch shows."""
    t, m = (DIM_OPS[op](L, _x(L, 3, 4), dim).grad_fn for L in (torch, minigrad))
    names = [n for n in _saved_names(t) if n.startswith("_saved_")
             and not isinstance(getattr(t, n), torch.Tensor)]
    assert names
    assert {n: getattr(m, n) for n in names} == {n: getattr(t, n) for n in names}


@pytest.mark.parametrize("op", ["mul", "exp", "max_dim", "pow_t", "clamp_t"])
def test_saved_tensors_freed_after_backward(op):
    def run(L):
        x, y = _x(L, 3, 4), _x(L, 3, 4, seed=1)
        out = OPS[op](L, x, y)
        fields = [n for n in _saved_names(out.grad_fn) if n.startswith("_saved_")]
        out.sum().backward()
        return [outcome_of(lambda n=n: getattr(out.grad_fn, n)) for n in fields]

    both_engines(run)


def outcome_of(fn):
    try:
        v = fn()
    except Exception as e:  # noqa: BLE001 - the error is what is compared
        return type(e).__name__, normalize_text(str(e))
    return "ok", None if v is None else type(v).__name__.replace("Tensor", "T")


def test_saved_result_is_a_new_tensor_with_the_node_as_grad_fn():
    def run(L):
        x = _x(L, 3)
        y = x.exp()
        s = y.grad_fn._saved_result
        z = x * x
        return (s is y, s.grad_fn is y.grad_fn, z.grad_fn._saved_self is x,
                z.grad_fn._saved_other is x, s.requires_grad)

    both_engines(run)


# --- saved-tensor hooks ---------------------------------------------------------------------

def test_saved_tensors_hooks_pack_and_unpack_as_torch():
    def run(L):
        log = []

        def pack(t):
            log.append(("pack", tuple(t.shape), t.grad_fn is not None))
            return ("box", t)

        def unpack(p):
            log.append(("unpack", p[0]))
            return p[1]

        a = _x(L, 3)
        with L.autograd.graph.saved_tensors_hooks(pack, unpack):
            b = a * a
            c = b.sin()
            d = b.exp()
        facts = [list(log)]
        s = b.grad_fn._saved_self
        facts += [s is a, s.requires_grad, s.grad_fn, list(log)]
        r = d.grad_fn._saved_result
        facts += [r.grad_fn is d.grad_fn, r.requires_grad, list(log)]
        (c + d).sum().backward()
        facts += [list(log), a.grad.tolist()]
        return facts

    both_engines(run)


PACK_ORDER_OPS = {
    "mul": lambda L, a, b, c: a * b,
    "div": lambda L, a, b, c: a / b,
    "mm": lambda L, a, b, c: a @ b,
    "pow": lambda L, a, b, c: a.abs() ** b,
    "lerp": lambda L, a, b, c: L.lerp(a, b, c),
    "maximum": lambda L, a, b, c: L.maximum(a, b),
    "clamp": lambda L, a, b, c: L.clamp(a, b, c),
    "addmm": lambda L, a, b, c: L.addmm(a, b, c),
    "mv": lambda L, a, b, c: a.mv(b[0]),
    "prod": lambda L, a, b, c: a.prod(),
}


@pytest.mark.parametrize("op", PACK_ORDER_OPS)
def test_pack_hook_sees_a_nodes_tensors_in_torchs_order(op):
    """When one node saves several tensors, pack_hook is called in torch's order (``a * b``
    packs ``b`` first): a hook that logs or numbers what it packs sees the same sequence."""
    def run(L):
        a, b, c = _x(L, 2, 2, seed=1), _x(L, 2, 2, seed=2), _x(L, 2, 2, seed=3)
        names = {id(a): "a", id(b): "b", id(c): "c"}
        log = []

        def pack(t):
            log.append(names.get(id(t), "result" if t.grad_fn is not None else "other"))
            return t

        with L.autograd.graph.saved_tensors_hooks(pack, lambda t: t):
            PACK_ORDER_OPS[op](L, a, b, c)
        return log

    both_engines(run)


def test_nested_hooks_only_the_innermost_pair_is_used():
    def run(L):
        log = []

        def hooks(tag):
            return (lambda t: (log.append("pack" + tag), t)[1],
                    lambda t: (log.append("unpack" + tag), t)[1])

        a = _x(L, 3)
        with L.autograd.graph.saved_tensors_hooks(*hooks("1")):
            with L.autograd.graph.saved_tensors_hooks(*hooks("2")):
                d = a.exp()
            e = a.sin()
        f = a.cos()
        (d + e + f).sum().backward()
        return log, a.grad.tolist()

    both_engines(run)


def test_hooks_that_copy_keep_gradients_and_skip_version_checks():
    """A pack hook that copies means an in-place change after saving is not seen (torch
    checks no version then); gradients still reach the leaf and non-leaf inputs."""
    def run(L):
        a = _x(L, 3)
        with L.autograd.graph.saved_tensors_hooks(lambda t: t.clone(), lambda t: t):
            z = a * 2
            f = z.sin() * a
            z.mul_(2)
        f.sum().backward()
        return a.grad.tolist()

    both_engines(run)


@pytest.mark.parametrize("case", ["unpack_int", "pack_int", "unpack_none"])
def test_unpack_hook_must_return_a_tensor(case):
    hooks = {"unpack_int": (lambda t: t, lambda t: 3), "pack_int": (lambda t: 3, lambda t: t),
             "unpack_none": (lambda t: t, lambda t: None)}

    def run(L):
        a = _x(L, 3)
        with L.autograd.graph.saved_tensors_hooks(*hooks[case]):
            f = a.sin()
        return f.sum().backward()

    assert_same_error(lambda: run(minigrad), lambda: run(torch))


def test_save_on_cpu_keeps_the_tensors():
    def run(L):
        a = _x(L, 3)
        with L.autograd.graph.save_on_cpu():
            g = a.exp() * a
        with L.autograd.graph.save_on_cpu(pin_memory=False):
            h = (a * 3).tanh()
        (g.sum() + h.sum()).backward()
        graph = L.autograd.graph
        return a.grad, issubclass(graph.save_on_cpu, graph.saved_tensors_hooks)

    m, t = run(minigrad), run(torch)
    assert_close(m[0], t[0])
    assert m[1] and t[1]


def test_disable_saved_tensors_hooks():
    def run(L):
        graph = L.autograd.graph
        out = []
        with graph.disable_saved_tensors_hooks("no hooks in here"):
            out.append(outcome_of(lambda: graph.saved_tensors_hooks(
                lambda t: t, lambda t: t).__enter__()))
            out.append(outcome_of(lambda: _x(L, 2).sin()))
        with graph.saved_tensors_hooks(lambda t: t, lambda t: t):
            out.append(outcome_of(lambda: graph.disable_saved_tensors_hooks("msg").__enter__()))
        with graph.saved_tensors_hooks(lambda t: t, lambda t: t):  # enabled again
            out.append(outcome_of(lambda: _x(L, 2).sin()))
        return out

    both_engines(run)


def test_register_hooks_on_raw_saved_tensor():
    def run(L):
        log = []
        x = _x(L, 2)
        y = x.exp()
        r = y.grad_fn._raw_saved_result
        r.register_hooks(lambda t: (log.append(("pack", t.grad_fn is None)), t * 10)[1],
                         lambda t: (log.append(("unpack",)), t)[1])
        v = y.grad_fn._saved_result
        out = [list(log), v.tolist(), v.grad_fn is y.grad_fn]
        out.append(outcome_of(lambda: r.register_hooks(lambda t: t, lambda t: t)))
        z = x.sin()
        z.grad_fn._raw_saved_self.register_hooks(lambda t: t * 0, lambda t: t)
        (y.sum() + z.sum()).backward()
        out += [x.grad.tolist(), list(log)]
        out.append(outcome_of(lambda: y.grad_fn._saved_result))
        out.append(outcome_of(lambda: y.grad_fn._raw_saved_result))
        out.append(outcome_of(lambda: r.register_hooks(lambda t: t, lambda t: t)))
        unsaved = (x * 2).grad_fn._raw_saved_self  # mul by a number needs no self
        out.append(outcome_of(lambda: unsaved.register_hooks(lambda t: t, lambda t: t)))
        return out

    both_engines(run)
