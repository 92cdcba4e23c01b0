"""Forward-mode AD: the tangent every op of the core produces equals torch's, on random
inputs and random tangents."""

from __future__ import annotations

import numpy as np
import pytest
import torch
import torch.autograd.forward_ad as tfw
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

import minigrad
from minigrad.autograd import forward_ad as mfw
from tests.torch_compare import assert_close, assert_same_error

FW = {minigrad: mfw, torch: tfw}

# Each op takes (lib, x, y) with x, y of shape (2, 3); the same code runs on both engines.
OPS = {
    "add": lambda L, x, y: x + y,
    "add_alpha": lambda L, x, y: L.add(x, y, alpha=2.5),
    "sub_alpha": lambda L, x, y: L.sub(x, y, alpha=0.5),
    "rsub": lambda L, x, y: 2 - x,
    "mul": lambda L, x, y: x * y,
    "mul_scalar": lambda L, x, y: x * 3,
    "div": lambda L, x, y: x / (y * y + 1),
    "rdiv": lambda L, x, y: 2 / (x * x + 1),
    "neg": lambda L, x, y: -x,
    "reciprocal": lambda L, x, y: (x * x + 0.5).reciprocal(),
    "pow_scalar": lambda L, x, y: x ** 3,
    "pow_tensor": lambda L, x, y: (y * y + 0.5) ** x,
    "rpow": lambda L, x, y: 2.0 ** x,
    "abs": lambda L, x, y: x.abs(),
    "exp": lambda L, x, y: x.exp(),
    "log": lambda L, x, y: (x * x + 0.1).log(),
    "sqrt": lambda L, x, y: (x * x + 0.1).sqrt(),
    "sin": lambda L, x, y: x.sin(),
    "cos": lambda L, x, y: x.cos(),
    "tanh": lambda L, x, y: x.tanh(),
    "sigmoid": lambda L, x, y: x.sigmoid(),
    "relu": lambda L, x, y: x.relu(),
    "clamp": lambda L, x, y: x.clamp(-0.5, 0.5),
    "clamp_min": lambda L, x, y: x.clamp(min=0.1),
    "where": lambda L, x, y: L.where(x > y, x, y * 2),
    "clone": lambda L, x, y: x.clone(),
    "to": lambda L, x, y: x.to(L.float32),
    "sum": lambda L, x, y: x.sum(),
    "sum_dim": lambda L, x, y: x.sum(1),
    "sum_keepdim": lambda L, x, y: x.sum(0, keepdim=True),
    "mean": lambda L, x, y: x.mean(),
    "mean_dim": lambda L, x, y: x.mean((0, 1), keepdim=True),
    "max": lambda L, x, y: x.max(),
    "min": lambda L, x, y: x.min(),
    "max_dim": lambda L, x, y: x.max(1)[0],
    "min_dim_keepdim": lambda L, x, y: x.min(0, keepdim=True)[0],
    "mm": lambda L, x, y: x.mm(y.t()),
    "mv": lambda L, x, y: x.mv(y[0]),
    "dot": lambda L, x, y: x[0].dot(y[1]),
    "matmul_batch": lambda L, x, y: x.unsqueeze(0).expand(2, 2, 3) @ y.t(),
    "t": lambda L, x, y: x.t(),
    "transpose": lambda L, x, y: x.transpose(0, 1),
    "permute": lambda L, x, y: x.unsqueeze(2).permute(2, 0, 1),
    "view": lambda L, x, y: x.view(3, 2),
    "reshape_copy": lambda L, x, y: x.t().reshape(6),
    "squeeze": lambda L, x, y: x.unsqueeze(1).squeeze(),
    "squeeze_dim": lambda L, x, y: x[:1].squeeze(0),
    "expand": lambda L, x, y: x[:1].expand(4, 3),
    "select": lambda L, x, y: x[1],
    "slice": lambda L, x, y: x[:, 1:],
    "index": lambda L, x, y: x[[1, 0, 1]],
    "index_put": lambda L, x, y: x.index_put((L.tensor([0, 1]),), y[0]),
    "cat": lambda L, x, y: L.cat([x, y * 2], 1),
    "stack": lambda L, x, y: L.stack([x, y], 0),
    "unbind_free_chain": lambda L, x, y: (x * y).sin().sum(0) / (y.exp() + 1).mean(0),
    # nn.functional's fused ops (AddmmBackward0, MseLossBackward0, ...)
    "linear": lambda L, x, y: L.nn.functional.linear(x, y, y[:, 0]),
    "linear_vector": lambda L, x, y: L.nn.functional.linear(x[0], y, y[:, 1]),
    "linear_batch": lambda L, x, y: L.nn.functional.linear(x.unsqueeze(0), y, y[:, 2]),
    "linear_transposed": lambda L, x, y: L.nn.functional.linear(x.t().unsqueeze(0).transpose(
        1, 2), y, y[:, 0]),
    "linear_no_bias": lambda L, x, y: L.nn.functional.linear(x, y),
    "mse_loss": lambda L, x, y: L.nn.functional.mse_loss(x, y),
    "mse_loss_sum": lambda L, x, y: L.nn.functional.mse_loss(x, y, reduction="sum"),
    "mse_loss_none": lambda L, x, y: L.nn.functional.mse_loss(x, y, reduction="none"),
    "softmax": lambda L, x, y: L.nn.functional.softmax(x, 1),
    "log_softmax": lambda L, x, y: L.nn.functional.log_softmax(x, 0),
    "cross_entropy": lambda L, x, y: L.nn.functional.cross_entropy(x, L.tensor([2, 0])),
    "cross_entropy_probs": lambda L, x, y: L.nn.functional.cross_entropy(
        x, L.nn.functional.softmax(y, 1)),
    "nll_loss_none": lambda L, x, y: L.nn.functional.nll_loss(x, L.tensor([1, -100]),
                                                              reduction="none"),
    # in place
    "mul_": lambda L, x, y: x.clone().mul_(y),
    "add_": lambda L, x, y: x.clone().add_(y, alpha=2),
    "sub_": lambda L, x, y: x.clone().sub_(y),
    "div_": lambda L, x, y: x.clone().div_(y * y + 1),
    "exp_": lambda L, x, y: x.clone().exp_(),
    "tanh_": lambda L, x, y: x.clone().tanh_(),
    "sigmoid_": lambda L, x, y: x.clone().sigmoid_(),
    "relu_": lambda L, x, y: x.clone().relu_(),
    "neg_": lambda L, x, y: x.clone().neg_(),
    "clamp_": lambda L, x, y: x.clone().clamp_(-0.3, 0.3),
    "zero_": lambda L, x, y: x.clone().zero_() + y,
    "fill_tensor": lambda L, x, y: x.clone().fill_(y[0, 0]),
    "copy_": lambda L, x, y: x.clone().copy_(y),
    "t_": lambda L, x, y: x.clone().t_() * 1,
    "transpose_unsqueeze_": lambda L, x, y: (x.clone().transpose_(0, -1).unsqueeze_(1)
                                             * y.t()[:, None]),
    "squeeze_": lambda L, x, y: x.clone()[None].squeeze_(0) * y,
    "setitem_view": lambda L, x, y: _setitem(x, y),
    "inplace_on_view": lambda L, x, y: _inplace_on_view(x, y),
}


def _setitem(x, y):
    z = x.clone()
    z[0] = y[1] * 2
    return z


def _inplace_on_view(x, y):
    z = x * 1
    z[:, 1].mul_(y[0, 0])
    return z


shapes23 = hnp.arrays(np.float64, (2, 3), elements=st.floats(-2, 2), unique=True)


def _run(lib, op, x, y, tx, ty):
    fw = FW[lib]
    with fw.dual_level():
        args = []
        for value, tangent in ((x, tx), (y, ty)):
            t = lib.tensor(value.copy())
            args.append(t if tangent is None else fw.make_dual(t, lib.tensor(tangent.copy())))
        out = OPS[op](lib, *args)
        primal, tangent = fw.unpack_dual(out)
        return primal.detach().clone(), None if tangent is None else tangent.detach().clone()


@pytest.mark.parametrize("op", list(OPS))
@settings(deadline=None, max_examples=6)
@given(x=shapes23, y=shapes23, tx=shapes23, ty=shapes23, which=st.sampled_from(["x", "y", "xy"]))
def test_tangent_matches_torch(op, x, y, tx, ty, which):
    tx = tx if "x" in which else None
    ty = ty if "y" in which else None
    mp, mt = _run(minigrad, op, x, y, tx, ty)
    tp, tt = _run(torch, op, x, y, tx, ty)
    assert_close(mp, tp)
    assert (mt is None) == (tt is None), f"tangent: minigrad {mt} vs torch {tt}"
    if tt is not None:
        assert_close(mt, tt, "tangent ")


def test_make_dual_needs_a_level():
    assert_same_error(lambda: mfw.make_dual(minigrad.ones(2), minigrad.ones(2)),
                      lambda: tfw.make_dual(torch.ones(2), torch.ones(2)))


def test_make_dual_checks_the_tangent_size():
    def run(lib):
        with FW[lib].dual_level():
            FW[lib].make_dual(lib.ones(3), lib.ones(2))

    assert_same_error(lambda: run(minigrad), lambda: run(torch))


def test_unpack_dual_without_tangent_and_after_the_level():
    for lib in (minigrad, torch):
        fw = FW[lib]
        x = lib.ones(2)
        with fw.dual_level():
            assert fw.unpack_dual(x).tangent is None
            d = fw.make_dual(x, lib.ones(2))
            y = d * 2
            assert fw.unpack_dual(y).tangent is not None
            assert d._base is x
            assert fw.unpack_dual(d.detach()).tangent is None
        assert fw.unpack_dual(y).tangent is None
        assert type(fw.unpack_dual(y)).__name__ == "UnpackedDualTensor"
        with fw.dual_level():
            assert fw.unpack_dual(y).tangent is None  # a new level knows nothing of the old


def test_in_place_through_a_view_updates_the_base_tangent():
    results = []
    for lib in (minigrad, torch):
        fw = FW[lib]
        with fw.dual_level():
            base = fw.make_dual(lib.tensor([1.0, 2.0, 3.0]), lib.tensor([1.0, 1.0, 1.0]))
            view = base[1:]
            view.mul_(lib.tensor(3.0))
            results.append((base.detach().clone(), fw.unpack_dual(base).tangent.clone(),
                            fw.unpack_dual(view).tangent.clone()))
    for m, t in zip(*results):
        assert_close(m, t)


def test_forward_ad_works_with_requires_grad_and_backward_of_the_tangent():
    """A tangent is built with ordinary ops, so it can be differentiated in reverse mode."""
    grads = []
    for lib in (minigrad, torch):
        fw = FW[lib]
        x = lib.tensor([0.3, -1.2, 0.7], dtype=lib.float64, requires_grad=True)
        with fw.dual_level():
            d = fw.make_dual(x, lib.tensor([1.0, 0.5, -2.0], dtype=lib.float64))
            out = (d.sin() * d).sum()
            _, tangent = fw.unpack_dual(out)
        (g,) = lib.autograd.grad(tangent, x)
        grads.append(g)
    assert_close(*grads)


def test_custom_function_jvp_and_missing_jvp():
    def run(lib, with_jvp):
        class Cube(lib.autograd.Function):
            @staticmethod
            def forward(ctx, x):
                ctx.save_for_forward(x)
                return x ** 3

            if with_jvp:
                @staticmethod
                def jvp(ctx, t):
                    (x,) = ctx.saved_tensors
                    return 3 * t * x * x

        fw = FW[lib]
        with fw.dual_level():
            d = fw.make_dual(lib.tensor([1.0, -2.0]), lib.tensor([0.5, 2.0]))
            return fw.unpack_dual(Cube.apply(d)).tangent.clone()

    assert_close(run(minigrad, True), run(torch, True))
    assert_same_error(lambda: run(minigrad, False), lambda: run(torch, False))


FORWARD_OVER_REVERSE = {
    "exp": lambda x: x.exp(),
    "tanh": lambda x: x.tanh(),
    "sigmoid": lambda x: x.sigmoid(),
    "relu": lambda x: x.relu(),
    "sqrt": lambda x: (x * x + 1).sqrt(),
    "softmax": lambda x: x.softmax(0) * x,
    "log_softmax": lambda x: x.log_softmax(0) * x,
    "pow": lambda x: x ** 3,
    "sin_mul": lambda x: x.sin() * x,
}


@pytest.mark.parametrize("name", list(FORWARD_OVER_REVERSE))
def test_forward_over_reverse_tangent_of_a_gradient(name):
    """A gradient made with ``create_graph`` inside a dual level has a tangent, the second
    derivative along the tangent, as in torch; an op that saved its own output (exp, tanh,
    softmax...) keeps the output's tangent with it."""
    got = {}
    for lib in (torch, minigrad):
        fw = lib.autograd.forward_ad
        x0 = lib.tensor([0.5, -1.0, 2.0], dtype=lib.float64, requires_grad=True)
        with fw.dual_level():
            x = fw.make_dual(x0, lib.tensor([1.0, 2.0, -0.5], dtype=lib.float64))
            (g,) = lib.autograd.grad(FORWARD_OVER_REVERSE[name](x).sum(), x, create_graph=True)
            tangent = fw.unpack_dual(g).tangent
            got[lib] = None if tangent is None else tangent.detach().numpy()
    assert got[minigrad] is not None and got[torch] is not None
    np.testing.assert_allclose(got[minigrad], got[torch], rtol=1e-12, atol=1e-12)


def test_the_primal_of_unpack_dual_carries_no_tangent_even_as_a_view_of_the_dual():
    """unpack_dual's primal is a view of the dual (torch's _fw_primal) that never reads its
    base's tangent: printing it shows no tangent, and ops on it make none."""
    import torch
    import torch.autograd.forward_ad as tfw

    import minigrad
    import minigrad.autograd.forward_ad as mfw

    seen = []
    for lib, fw in ((torch, tfw), (minigrad, mfw)):
        with fw.dual_level():
            dual = fw.make_dual(lib.tensor([1.0, 2.0]), lib.tensor([0.5, -1.0])) * 3
            primal = fw.unpack_dual(dual).primal
            seen.append((repr(primal).replace(lib.__name__, "LIB"),
                         fw.unpack_dual(primal * 2).tangent is None, primal._is_view()))
    assert seen[0] == seen[1]


def _op(lib, name, d, W):
    if name == "mul":
        return d * 2
    if name == "div":
        return d / 2
    if name == "mm":
        return W @ d
    if name == "linear":
        return lib.nn.functional.linear(d, W)
    return d * lib.tensor([1.0, 2.0, 3.0])


@pytest.mark.parametrize("name", ["mul", "div", "mm", "linear", "mul_tensor"])
def test_a_tangent_keeps_torchs_graph_to_a_primal_that_requires_grad(name):
    """torch evaluates forward formulas with zeros for missing tangents, so ``t_other * p``
    is recorded when ``p`` requires grad: the tangent has a graph (the forward-mode tutorial's
    ``nn.Linear`` with dual parameters shows it), and differentiating it gives zeros."""
    seen = []
    for lib in (torch, minigrad):
        fw = lib.autograd.forward_ad
        p = lib.tensor([1.0, 2.0, 3.0], requires_grad=True)
        W = lib.tensor([[1.0, 2.0, 3.0], [0.5, 0.0, 1.0]])
        with fw.dual_level():
            tangent = fw.unpack_dual(_op(lib, name, fw.make_dual(p, lib.ones(3)), W)).tangent
            (grad,) = lib.autograd.grad(tangent.sum(), p)
        seen.append((tangent.tolist(), tangent.requires_grad, type(tangent.grad_fn).__name__,
                     np.abs(grad.numpy(force=True)).tolist()))
    assert seen[0] == seen[1]
