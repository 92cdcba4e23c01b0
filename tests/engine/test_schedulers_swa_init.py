"""The remaining learning-rate schedules (PolynomialLR, CosineAnnealingWarmRestarts, CyclicLR,
OneCycleLR, SequentialLR, ChainedScheduler), ``optim.swa_utils`` and the remaining
``nn.init`` recipes, against torch run here and now.

Every schedule runs the same code in both engines (a function of ``lib``): the rates, momenta
and betas after every step are compared float for float (``==``), and so are state dicts,
warnings and errors.
"""

from __future__ import annotations

import math
import pickle
import warnings

import numpy as np
import pytest
import torch
from hypothesis import given, settings
from hypothesis import strategies as st

import minigrad
from tests.torch_compare import assert_same_error, to_numpy

LIBS = (minigrad, torch)


def _optimizer(lib, kind="sgd", groups=1):
    params = [{"params": [lib.nn.Parameter(lib.ones(2))], "lr": 0.1 * (i + 1)}
              for i in range(groups)]
    if kind == "sgd":
        return lib.optim.SGD(params, lr=0.1, momentum=0.9)
    if kind == "adam":
        return lib.optim.Adam(params, lr=0.1)
    return lib.optim.Adagrad(params, lr=0.1)


def _momenta(group):
    return group.get("momentum"), group.get("betas")


def _plain(value):
    """A state dict with its callables and tensors made comparable across engines."""
    if isinstance(value, dict):
        return [(k, _plain(v)) for k, v in value.items()]  # in order
    if isinstance(value, list | tuple):
        return type(value)(_plain(v) for v in value)
    if isinstance(value, minigrad.Tensor | torch.Tensor):
        return ("tensor", to_numpy(value).tolist())
    if callable(value):
        return ("callable", getattr(value, "__name__", type(value).__name__))
    return value


def _history(lib, make, steps, kind="sgd", groups=1, epochs=None):
    """Each step's rates, momenta and ``get_last_lr()`` (and the state dict at the end)."""
    opt = _optimizer(lib, kind, groups)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        sched = make(lib, opt)
        out = [([g["lr"] for g in opt.param_groups], [_momenta(g) for g in opt.param_groups],
                sched.get_last_lr())]
        for i in range(steps):
            opt.step()
            if epochs is None:
                sched.step()
            else:
                sched.step(epochs[i])
            out.append(([g["lr"] for g in opt.param_groups],
                        [_momenta(g) for g in opt.param_groups], sched.get_last_lr()))
    out.append(_plain(sched.state_dict()))
    out.append([sorted(_plain(g), key=repr) for g in opt.state_dict()["param_groups"]])
    return out


def _same_history(make, steps=40, **kwargs):
    """The same histories in both engines, or the same error."""
    try:
        t = _history(torch, make, steps, **kwargs)
    except Exception:  # noqa: BLE001 - then minigrad raises the same
        assert_same_error(lambda: _history(minigrad, make, steps, **kwargs),
                          lambda: _history(torch, make, steps, **kwargs))
        return None
    m = _history(minigrad, make, steps, **kwargs)
    assert len(m) == len(t)
    for i, (a, b) in enumerate(zip(m, t, strict=True)):
        assert a == b, f"step {i}:\n minigrad {a}\n torch    {b}"
    return t


S = "optim.lr_scheduler"


def _sched(lib, name):
    return getattr(lib.optim.lr_scheduler, name)


SCHEDULES = {
    "poly": lambda lib, o: _sched(lib, "PolynomialLR")(o, total_iters=7, power=2.0),
    "poly_default": lambda lib, o: _sched(lib, "PolynomialLR")(o),
    "poly_half": lambda lib, o: _sched(lib, "PolynomialLR")(o, total_iters=30, power=0.5),
    "warm": lambda lib, o: _sched(lib, "CosineAnnealingWarmRestarts")(o, T_0=5),
    "warm_mult": lambda lib, o: _sched(lib, "CosineAnnealingWarmRestarts")(
        o, T_0=3, T_mult=2, eta_min=0.001),
    "cyclic": lambda lib, o: _sched(lib, "CyclicLR")(o, base_lr=0.01, max_lr=0.1,
                                                     step_size_up=4),
    "cyclic2": lambda lib, o: _sched(lib, "CyclicLR")(
        o, base_lr=[0.01, 0.02], max_lr=0.3, step_size_up=3, step_size_down=5,
        mode="triangular2", base_momentum=0.7, max_momentum=[0.95, 0.9]),
    "cyclic_exp": lambda lib, o: _sched(lib, "CyclicLR")(
        o, base_lr=0.001, max_lr=0.05, step_size_up=6, mode="exp_range", gamma=0.97),
    "cyclic_fn": lambda lib, o: _sched(lib, "CyclicLR")(
        o, 0.01, 0.1, step_size_up=5, scale_fn=lambda x: 0.9 ** x, scale_mode="iterations",
        cycle_momentum=False),
    "onecycle": lambda lib, o: _sched(lib, "OneCycleLR")(o, max_lr=0.5, total_steps=40),
    "onecycle_lin": lambda lib, o: _sched(lib, "OneCycleLR")(
        o, max_lr=[0.3, 0.6], epochs=4, steps_per_epoch=10, pct_start=0.25,
        anneal_strategy="linear", three_phase=True, div_factor=10.0),
    "onecycle_3": lambda lib, o: _sched(lib, "OneCycleLR")(
        o, max_lr=0.1, total_steps=45, three_phase=True, base_momentum=0.8,
        max_momentum=[0.9, 0.99], final_div_factor=100.0),
    "onecycle_nomom": lambda lib, o: _sched(lib, "OneCycleLR")(
        o, max_lr=0.1, total_steps=40, cycle_momentum=False),
    "sequential": lambda lib, o: _sched(lib, "SequentialLR")(
        o, [_sched(lib, "LinearLR")(o, start_factor=0.1, total_iters=5),
            _sched(lib, "CosineAnnealingLR")(o, T_max=20)], milestones=[5]),
    "sequential3": lambda lib, o: _sched(lib, "SequentialLR")(
        o, [_sched(lib, "ConstantLR")(o, factor=0.1, total_iters=4),
            _sched(lib, "ExponentialLR")(o, gamma=0.9),
            _sched(lib, "PolynomialLR")(o, total_iters=10)], milestones=[6, 15]),
    "chained": lambda lib, o: _sched(lib, "ChainedScheduler")(
        [_sched(lib, "ConstantLR")(o, factor=0.1, total_iters=2),
         _sched(lib, "ExponentialLR")(o, gamma=0.9)]),
    "chained_warm": lambda lib, o: _sched(lib, "ChainedScheduler")(
        [_sched(lib, "LinearLR")(o, start_factor=0.5, total_iters=6),
         _sched(lib, "CosineAnnealingWarmRestarts")(o, T_0=4, T_mult=2)], optimizer=o),
    "sequential_of_chained": lambda lib, o: _sched(lib, "SequentialLR")(
        o, [_sched(lib, "ChainedScheduler")(
            [_sched(lib, "LinearLR")(o, start_factor=0.2, total_iters=3),
             _sched(lib, "StepLR")(o, step_size=2, gamma=0.5)]),
            _sched(lib, "CyclicLR")(o, 0.01, 0.1, step_size_up=3)], milestones=[7]),
    "swalr": lambda lib, o: lib.optim.swa_utils.SWALR(o, swa_lr=0.05),
    "swalr_lin": lambda lib, o: lib.optim.swa_utils.SWALR(
        o, swa_lr=[0.5, 0.01], anneal_epochs=7, anneal_strategy="linear"),
    "swalr_0": lambda lib, o: lib.optim.swa_utils.SWALR(o, swa_lr=0.02, anneal_epochs=0),
    "sequential_swa": lambda lib, o: _sched(lib, "SequentialLR")(
        o, [_sched(lib, "CosineAnnealingLR")(o, T_max=10),
            lib.optim.swa_utils.SWALR(o, swa_lr=0.03, anneal_epochs=4)], milestones=[10]),
}


@pytest.mark.parametrize("kind", ["sgd", "adam"])
@pytest.mark.parametrize("groups", [1, 2])
@pytest.mark.parametrize("name", sorted(SCHEDULES))
def test_schedules_match_torch_step_by_step(name, groups, kind):
    if name.startswith("onecycle"):
        steps = 40
    else:
        steps = 45
    _same_history(SCHEDULES[name], steps=steps, kind=kind, groups=groups)


@pytest.mark.parametrize("name, epochs", [
    ("poly", [3, 1, 9, 2, 7, 4]),
    ("warm", [0, 2.5, 7, 11.25, 3, 0.5]),
    ("warm_mult", [0, 1.5, 4, 9.75, 21, 45.5, 2, 100]),
])
def test_step_with_an_epoch_uses_the_closed_form_as_torch(name, epochs):
    _same_history(SCHEDULES[name], steps=len(epochs), epochs=epochs, groups=2)


@settings(max_examples=25, deadline=None)
@given(kind=st.sampled_from(["warm", "poly", "cyclic", "onecycle"]),
       a=st.integers(1, 12), b=st.integers(1, 4), c=st.floats(0.05, 0.95),
       d=st.floats(0.1, 3.0), e=st.sampled_from(["cos", "linear"]), f=st.booleans(),
       beta=st.booleans())
def test_random_schedules_match_torch(kind, a, b, c, d, e, f, beta):
    """Random arguments for the schedules with the most arithmetic."""
    def make(lib, o):
        s = lib.optim.lr_scheduler
        if kind == "warm":
            return s.CosineAnnealingWarmRestarts(o, T_0=a, T_mult=b, eta_min=c * 0.01)
        if kind == "poly":
            return s.PolynomialLR(o, total_iters=a * b, power=d)
        if kind == "cyclic":
            return s.CyclicLR(o, base_lr=0.01, max_lr=c, step_size_up=a, step_size_down=b,
                              mode=["triangular", "triangular2", "exp_range"][b % 3],
                              gamma=c, cycle_momentum=f)
        return s.OneCycleLR(o, max_lr=d, total_steps=30 + a, pct_start=c, anneal_strategy=e,
                            three_phase=f, div_factor=1 + 10 * d)
    _same_history(make, steps=30, kind="adam" if beta else "sgd", groups=2)


@pytest.mark.parametrize("name", ["poly", "warm_mult", "cyclic2", "cyclic_fn", "onecycle_3",
                                  "sequential3", "chained_warm", "sequential_of_chained",
                                  "swalr_lin", "sequential_swa"])
def test_state_dict_round_trip_continues_as_torch(name):
    """Save after 13 steps, load into a fresh schedule (over a fresh optimizer given the
    saved optimizer state), step on: the same rates as torch's, which does the same."""
    def run(lib):
        opt = _optimizer(lib, "sgd", 2)
        out = []
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            sched = SCHEDULES[name](lib, opt)
            for _ in range(13):
                opt.step()
                sched.step()
            saved_opt = pickle.loads(pickle.dumps(opt.state_dict()))
            saved = pickle.loads(pickle.dumps(sched.state_dict()))
            opt2 = _optimizer(lib, "sgd", 2)
            sched2 = SCHEDULES[name](lib, opt2)
            opt2.load_state_dict(saved_opt)
            sched2.load_state_dict(saved)
            out.append(_plain(saved))
            for _ in range(15):
                opt2.step()
                sched2.step()
                out.append(([g["lr"] for g in opt2.param_groups], sched2.get_last_lr(),
                            [_momenta(g) for g in opt2.param_groups]))
            out.append(_plain(sched2.state_dict()))
        return out

    assert run(minigrad) == run(torch)


def _warnings_of(fn):
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        fn()
    return [(w.category.__name__, str(w.message)) for w in caught]


@pytest.mark.parametrize("what", ["early", "epoch", "get_lr", "overridden", "warm_epoch"])
@pytest.mark.parametrize("name", ["poly", "warm", "cyclic", "onecycle", "sequential",
                                  "chained", "swalr"])
def test_warnings_are_torchs(name, what):
    """Stepping the schedule before the optimizer, ``step(epoch)``, ``get_lr()`` outside a
    step, an optimizer.step replaced after the schedule was made: torch's warnings, word for
    word (or none where torch gives none)."""
    def run(lib):
        opt = _optimizer(lib)
        sched = SCHEDULES[name](lib, opt)
        if what == "early":
            return _warnings_of(lambda: (sched.step(), sched.step()))
        if what == "overridden":
            opt.step = lambda *a: None
            return _warnings_of(sched.step)
        opt.step()
        if what == "get_lr":
            return _warnings_of(lambda: getattr(sched, "get_lr", lambda: None)()) if name not in (
                "sequential", "chained") else []
        if what == "warm_epoch" and name != "warm":
            return []
        try:
            return _warnings_of(lambda: sched.step(1))
        except TypeError as e:  # SequentialLR and ChainedScheduler take no epoch
            return [str(e).replace(lib.__name__, "LIB")]
    m, t = run(minigrad), run(torch)
    assert m == t
    if what == "early" and name not in ("sequential", "chained", "warm"):
        assert any("before `optimizer.step()`" in text for _, text in t)


BAD = [
    lambda lib, o: _sched(lib, "CosineAnnealingWarmRestarts")(o, T_0=0),
    lambda lib, o: _sched(lib, "CosineAnnealingWarmRestarts")(o, T_0=2.0),
    lambda lib, o: _sched(lib, "CosineAnnealingWarmRestarts")(o, T_0=2, T_mult=0),
    lambda lib, o: _sched(lib, "CosineAnnealingWarmRestarts")(o, T_0=2, T_mult=1.5),
    lambda lib, o: _sched(lib, "CosineAnnealingWarmRestarts")(o, T_0=2, eta_min="0"),
    lambda lib, o: _sched(lib, "CosineAnnealingWarmRestarts")(o, T_0=2).step(-1),
    lambda lib, o: _sched(lib, "CosineAnnealingWarmRestarts")(o, T_0=2, last_epoch=3),
    lambda lib, o: _sched(lib, "PolynomialLR")(o, last_epoch=4),
    lambda lib, o: _sched(lib, "CyclicLR")(o, 0.1, 1.0, mode="sine"),
    lambda lib, o: _sched(lib, "CyclicLR")(o, [0.1, 0.2], 1.0),
    lambda lib, o: _sched(lib, "CyclicLR")(o, 0.1, (1.0, 2.0, 3.0)),
    lambda lib, o: _sched(lib, "CyclicLR")(lib.optim.Adagrad([lib.ones(1)]), 0.1, 1.0),
    lambda lib, o: _sched(lib, "CyclicLR")(None, 0.1, 1.0),
    lambda lib, o: _sched(lib, "OneCycleLR")(o, 0.1),
    lambda lib, o: _sched(lib, "OneCycleLR")(o, 0.1, total_steps=0),
    lambda lib, o: _sched(lib, "OneCycleLR")(o, 0.1, total_steps=5.0),
    lambda lib, o: _sched(lib, "OneCycleLR")(o, 0.1, epochs=2, steps_per_epoch=0),
    lambda lib, o: _sched(lib, "OneCycleLR")(o, 0.1, epochs=-2, steps_per_epoch=3),
    lambda lib, o: _sched(lib, "OneCycleLR")(o, 0.1, epochs=2),
    lambda lib, o: _sched(lib, "OneCycleLR")(o, 0.1, total_steps=5, pct_start=1),
    lambda lib, o: _sched(lib, "OneCycleLR")(o, 0.1, total_steps=5, pct_start=1.5),
    lambda lib, o: _sched(lib, "OneCycleLR")(o, 0.1, total_steps=5, anneal_strategy="exp"),
    lambda lib, o: _sched(lib, "OneCycleLR")(o, [0.1, 0.2], total_steps=5),
    lambda lib, o: _sched(lib, "OneCycleLR")(o, 0.1, total_steps=5, max_momentum=[0.9] * 3),
    lambda lib, o: _sched(lib, "OneCycleLR")(lib.optim.Adagrad([lib.ones(1)]), 0.1,
                                             total_steps=5),
    lambda lib, o: [s.step() for s in [_sched(lib, "OneCycleLR")(o, 0.1, total_steps=2)] * 3],
    lambda lib, o: _sched(lib, "SequentialLR")(o, [], []),
    lambda lib, o: _sched(lib, "SequentialLR")(o, [_sched(lib, "StepLR")(o, 2)], [3]),
    lambda lib, o: _sched(lib, "SequentialLR")(o, [_sched(lib, "StepLR")(o, 2), object()],
                                               [3]),
    lambda lib, o: _sched(lib, "SequentialLR")(
        o, [_sched(lib, "ReduceLROnPlateau")(o)], []),
    lambda lib, o: _sched(lib, "SequentialLR")(
        o, [_sched(lib, "StepLR")(_optimizer(lib, "adam"), 2)], []),
    lambda lib, o: _sched(lib, "ChainedScheduler")([]),
    lambda lib, o: _sched(lib, "ChainedScheduler")(
        [_sched(lib, "StepLR")(o, 2), _sched(lib, "ReduceLROnPlateau")(o)]),
    lambda lib, o: _sched(lib, "ChainedScheduler")(
        [_sched(lib, "StepLR")(o, 2), _sched(lib, "StepLR")(_optimizer(lib, "adam"), 2)]),
    lambda lib, o: _sched(lib, "ChainedScheduler")([_sched(lib, "StepLR")(o, 2)]).get_lr(),
    lambda lib, o: lib.optim.swa_utils.SWALR(o, 0.1, anneal_strategy="exp"),
    lambda lib, o: lib.optim.swa_utils.SWALR(o, 0.1, anneal_epochs=-1),
    lambda lib, o: lib.optim.swa_utils.SWALR(o, 0.1, anneal_epochs=2.0),
    lambda lib, o: lib.optim.swa_utils.SWALR(o, [0.1, 0.2]),
    lambda lib, o: lib.optim.swa_utils.get_ema_avg_fn(1.5),
    lambda lib, o: lib.optim.swa_utils.get_ema_multi_avg_fn(-0.1),
    lambda lib, o: lib.optim.swa_utils.AveragedModel(
        lib.nn.Linear(2, 2), avg_fn=lib.optim.swa_utils.get_swa_avg_fn(),
        multi_avg_fn=lib.optim.swa_utils.get_swa_multi_avg_fn()),
]


@pytest.mark.parametrize("i", range(len(BAD)))
def test_bad_arguments_raise_torchs_errors(i):
    def run(lib):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            return BAD[i](lib, _optimizer(lib))
    assert_same_error(lambda: run(minigrad), lambda: run(torch))


def test_the_new_schedules_are_importable_as_in_torch():
    from minigrad.optim.lr_scheduler import (  # noqa: F401
        ChainedScheduler,
        CosineAnnealingWarmRestarts,
        CyclicLR,
        OneCycleLR,
        PolynomialLR,
        SequentialLR,
    )
    assert sorted(minigrad.optim.lr_scheduler.__all__) == sorted(
        torch.optim.lr_scheduler.__all__)


# --- swa_utils: AveragedModel, SWALR, update_bn --------------------------------------------

def _avg_kwargs(lib, kind):
    u = lib.optim.swa_utils
    return {"default": {}, "ema_multi": {"multi_avg_fn": u.get_ema_multi_avg_fn(0.9)},
            "ema": {"avg_fn": u.get_ema_avg_fn(0.8)}, "swa": {"avg_fn": u.get_swa_avg_fn()},
            "swa_multi": {"multi_avg_fn": u.get_swa_multi_avg_fn()},
            "buffers": {"use_buffers": True, "multi_avg_fn": u.get_ema_multi_avg_fn(0.5)},
            "buffers_default": {"use_buffers": True}}[kind]


def _model(lib, dtype):
    lib.manual_seed(0)
    model = lib.nn.Sequential(lib.nn.Linear(3, 4), lib.nn.Tanh(), lib.nn.Linear(4, 1))
    model = model.to(getattr(lib, dtype))
    model.register_buffer("seen", lib.zeros(2, dtype=getattr(lib, dtype)))
    return model


KINDS = ["default", "ema_multi", "ema", "swa", "swa_multi", "buffers", "buffers_default"]


@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("kind", KINDS)
def test_averaged_model_averages_given_weights_as_torch(kind, dtype):
    """The model's weights set to the same numbers in both engines before each update: the
    averages are torch's, bit for bit."""
    rng = np.random.default_rng(len(kind))
    draws = [[rng.standard_normal(tuple(p.shape)).astype(dtype)
              for p in _model(torch, dtype).state_dict().values()] for _ in range(6)]

    def run(lib):
        model = _model(lib, dtype)
        avg = lib.optim.swa_utils.AveragedModel(model, **_avg_kwargs(lib, kind))
        out = []
        for arrays in draws:
            with lib.no_grad():
                for t, a in zip(model.state_dict().values(), arrays, strict=True):
                    t.copy_(lib.from_numpy(a))
            avg.update_parameters(model)
            out.append([to_numpy(t).tolist() for t in avg.state_dict().values()])
        return out, list(avg.state_dict()), repr(avg), to_numpy(avg.n_averaged).tolist()

    assert run(minigrad) == run(torch)


@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("kind", KINDS)
def test_swa_training_loop_matches_torch(kind, dtype):
    """A short SWA run as torch's tutorial writes it: a cosine schedule, then SWALR and
    AveragedModel updates, then update_bn; rates equal, weights within 1e-6 (the losses'
    gradients can differ in the last bit)."""
    def run(lib):
        model = _model(lib, dtype)
        avg = lib.optim.swa_utils.AveragedModel(model, **_avg_kwargs(lib, kind))
        opt = lib.optim.SGD(model.parameters(), lr=0.1, momentum=0.9)
        sched = lib.optim.lr_scheduler.CosineAnnealingLR(opt, T_max=20)
        swa = lib.optim.swa_utils.SWALR(opt, swa_lr=0.05, anneal_epochs=3)
        x = lib.randn(8, 3, dtype=getattr(lib, dtype))
        y = lib.randn(8, 1, dtype=getattr(lib, dtype))
        lrs = []
        for epoch in range(15):
            opt.zero_grad()
            ((model(x) - y) ** 2).mean().backward()
            opt.step()
            with lib.no_grad():
                model.seen.add_(1.5)
            if epoch >= 5:
                avg.update_parameters(model)
                swa.step()
            else:
                sched.step()
            lrs.append(opt.param_groups[0]["lr"])
        assert lib.optim.swa_utils.update_bn([x, (x, y)], avg) is None
        return lrs, [to_numpy(t) for t in avg.state_dict().values()], to_numpy(avg(x))

    (m_lrs, m_state, m_out), (t_lrs, t_state, t_out) = run(minigrad), run(torch)
    assert m_lrs == t_lrs
    for a, b in zip(m_state, t_state, strict=True):
        np.testing.assert_allclose(a, b, rtol=0, atol=1e-6)
    np.testing.assert_allclose(m_out, t_out, rtol=0, atol=1e-6)


def test_swa_utils_is_importable_as_in_torch():
    from minigrad.optim import swa_utils
    from minigrad.optim.swa_utils import (  # noqa: F401
        SWALR,
        AveragedModel,
        get_ema_avg_fn,
        get_ema_multi_avg_fn,
        get_swa_avg_fn,
        get_swa_multi_avg_fn,
        update_bn,
    )
    assert swa_utils is minigrad.optim.swa_utils
    assert sorted(swa_utils.__all__) == sorted(torch.optim.swa_utils.__all__)
    assert "swa_utils" in minigrad.optim.__all__


# --- nn.init: orthogonal_, trunc_normal_, sparse_, dirac_, calculate_gain -----------------

SHAPES = [(3, 5), (5, 3), (4, 4), (20, 17), (4, 3, 2), (100, 7), (2, 3, 2, 2)]


def _init(lib, fn, shape, dtype, seed):
    """The tensor ``fn`` fills, its warnings, and the generator's next number after it (the
    same count of draws)."""
    lib.manual_seed(seed)
    t = lib.empty(*shape, dtype=getattr(lib, dtype))
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        result = fn(lib, t)
    assert result is t
    return to_numpy(t), [str(w.message) for w in caught], lib.rand(1).item()


TRUNC = {
    "default": lambda lib, t: lib.nn.init.trunc_normal_(t),
    "vit": lambda lib, t: lib.nn.init.trunc_normal_(t, std=0.02),
    "narrow": lambda lib, t: lib.nn.init.trunc_normal_(t, mean=0.5, std=0.2, a=0.3, b=0.5),
    "tail": lambda lib, t: lib.nn.init.trunc_normal_(t, a=1.0, b=1.5),
    "far": lambda lib, t: lib.nn.init.trunc_normal_(t, mean=3.0, std=0.5, a=-1, b=1),
    "wide": lambda lib, t: lib.nn.init.trunc_normal_(t, mean=-1, std=3.0, a=-2, b=2),
}


@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("shape", SHAPES)
@pytest.mark.parametrize("name", sorted(TRUNC))
def test_trunc_normal_is_torchs_after_the_same_seed(name, shape, dtype):
    """Both of torch 2.13's samplers (normal draws with rejection, uniform proposals with
    acceptance), draw for draw: the same numbers, warnings and generator state."""
    m, t = (_init(lib, TRUNC[name], shape, dtype, seed=7) for lib in LIBS)
    np.testing.assert_array_equal(m[0], t[0])
    assert m[1:] == t[1:]


@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("shape", [(3, 5), (5, 3), (20, 17), (100, 7), (1, 9)])
@pytest.mark.parametrize("sparsity", [0.0, 0.1, 0.5, 1.0])
def test_sparse_is_torchs_after_the_same_seed(sparsity, shape, dtype):
    def fn(lib, t):
        return lib.nn.init.sparse_(t, sparsity, std=0.5)
    m, t = (_init(lib, fn, shape, dtype, seed=3) for lib in LIBS)
    np.testing.assert_array_equal(m[0], t[0])
    assert m[1:] == t[1:]


@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("shape", SHAPES + [(1, 8), (8, 1), (3, 3, 3, 3, 2)])
@pytest.mark.parametrize("gain", [1, 2.5])
def test_orthogonal_is_torchs_after_the_same_seed(gain, shape, dtype):
    """The same normal draws and the same (semi-)orthogonal matrix with the same signs;
    torch's QR (MKL's LAPACK) and NumPy's (OpenBLAS's) sum in their own orders, so the
    numbers agree within a few ulps, not bit for bit."""
    def fn(lib, t):
        return lib.nn.init.orthogonal_(t, gain=gain)
    (m, m_warn, m_next), (t, t_warn, t_next) = (_init(lib, fn, shape, dtype, 5) for lib in LIBS)
    eps = np.finfo(dtype).eps
    tol = 8 * eps * gain * math.sqrt(max(shape[0], t.size // shape[0]))
    np.testing.assert_allclose(m, t, rtol=0, atol=tol)
    assert (np.sign(m) == np.sign(t))[np.abs(t) > tol].all()
    assert (m_warn, m_next) == (t_warn, t_next)
    flat = m.reshape(shape[0], -1) / gain
    small = flat if flat.shape[0] <= flat.shape[1] else flat.T
    np.testing.assert_allclose(small @ small.T, np.eye(len(small)), atol=100 * eps)


@pytest.mark.parametrize("shape, groups", [((4, 2, 3), 1), ((6, 3, 3, 3), 2),
                                           ((2, 4, 3, 2, 5), 1), ((4, 4, 2), 4),
                                           ((3, 5, 1, 1), 3), ((2, 6, 4, 4), 1)])
def test_dirac_is_torchs(shape, groups):
    m, t = (lib.nn.init.dirac_(lib.full(shape, 7.0), groups) for lib in LIBS)
    np.testing.assert_array_equal(to_numpy(m), to_numpy(t))
    assert m._version == t._version


def test_init_functions_work_in_place_on_parameters_as_torch():
    def run(lib):
        lib.manual_seed(0)
        w = lib.nn.Parameter(lib.empty(3, 4))
        versions = [lib.nn.init.orthogonal_(w)._version, lib.nn.init.trunc_normal_(w)._version,
                    lib.nn.init.sparse_(w, 0.5)._version,
                    lib.nn.init.dirac_(lib.nn.Parameter(lib.empty(2, 2, 3)))._version]
        return versions, w.requires_grad, w.grad_fn, w.is_leaf, lib.nn.init.orthogonal_(
            lib.empty(0, 3)).shape == (0, 3)
    assert run(minigrad) == run(torch)


@pytest.mark.parametrize("args", [("leaky_relu", 0.2), ("leaky_relu", 3), ("leaky_relu",),
                                  ("selu",), ("conv_transpose3d",), ("sigmoid",), ("tanh",),
                                  ("relu",), ("linear", 5)])
def test_calculate_gain_is_torchs(args):
    m, t = (lib.nn.init.calculate_gain(*args) for lib in LIBS)
    assert (m, type(m)) == (t, type(t))


INIT_ERRORS = [
    lambda lib: lib.nn.init.dirac_(lib.empty(2, 2)),
    lambda lib: lib.nn.init.dirac_(lib.empty(2, 2, 2, 2, 2, 2)),
    lambda lib: lib.nn.init.dirac_(lib.empty(3, 2, 2), 2),
    lambda lib: lib.nn.init.orthogonal_(lib.empty(3)),
    lambda lib: lib.nn.init.sparse_(lib.empty(3, 2, 2), 0.1),
    lambda lib: lib.nn.init.sparse_(lib.empty(3), 0.1),
    lambda lib: lib.nn.init.calculate_gain("leaky_relu", True),
    lambda lib: lib.nn.init.calculate_gain("leaky_relu", "0.1"),
    lambda lib: lib.nn.init.calculate_gain("swish"),
]


@pytest.mark.parametrize("i", range(len(INIT_ERRORS)))
def test_init_errors_are_torchs(i):
    assert_same_error(lambda: INIT_ERRORS[i](minigrad), lambda: INIT_ERRORS[i](torch))


# --- optim.Adafactor ------------------------------------------------------------------------

def _adafactor_run(lib, kwargs, dtype, seed, steps=20, reload_at=None):
    """Parameters of several ranks stepped on the same random gradients; each step's
    parameters (and, with ``reload_at``, a fresh optimizer loaded from the state dict there)."""
    rng = np.random.default_rng(seed)
    shapes = [(4, 5), (7,), (2, 3, 6), (1, 1), (3, 1)]
    params = [lib.nn.Parameter(lib.from_numpy(rng.standard_normal(s).astype(dtype)))
              for s in shapes]
    opt = lib.optim.Adafactor(params, **kwargs)
    out = []
    for i in range(steps):
        if i == reload_at:
            saved = pickle.loads(pickle.dumps(opt.state_dict()))
            opt = lib.optim.Adafactor(params, **kwargs)
            opt.load_state_dict(saved)
        for p in params:
            p.grad = lib.from_numpy(rng.standard_normal(tuple(p.shape)).astype(dtype))
        opt.step()
        out.append([to_numpy(p).tolist() for p in params])
    state = opt.state_dict()
    out.append(_plain(state["param_groups"]))
    out.append({k: [(name, to_numpy(v).tolist(), str(v.dtype).split(".")[-1])
                    for name, v in s.items()] for k, s in state["state"].items()})
    out.append(repr(opt))
    return out


@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("kwargs", [{}, {"lr": 0.1, "weight_decay": 0.1},
                                    {"maximize": True, "d": 2.0, "eps": (1e-30, 1e-2)},
                                    {"beta2_decay": -0.5, "lr": 0.5}])
def test_adafactor_steps_are_torchs_bit_for_bit(kwargs, dtype):
    """torch's single-tensor Adafactor (the CPU default) step by step: every parameter, the
    factored state (row_var, col_var) or variance, the repr and the state dict."""
    assert _adafactor_run(minigrad, kwargs, dtype, 0) == _adafactor_run(torch, kwargs, dtype, 0)


@settings(max_examples=15, deadline=None)
@given(seed=st.integers(0, 2**16), lr=st.floats(1e-3, 1.0), decay=st.floats(-1.0, -0.1),
       wd=st.sampled_from([0.0, 0.01, 0.3]), d=st.floats(1.0, 3.0), reload_at=st.integers(1, 9))
def test_adafactor_random_settings_and_reloads_match_torch(seed, lr, decay, wd, d, reload_at):
    kwargs = {"lr": lr, "beta2_decay": decay, "weight_decay": wd, "d": d}
    assert (_adafactor_run(minigrad, kwargs, "float32", seed, steps=10, reload_at=reload_at)
            == _adafactor_run(torch, kwargs, "float32", seed, steps=10, reload_at=reload_at))


@pytest.mark.parametrize("kwargs", [{"lr": -1}, {"beta2_decay": 0.5}, {"eps": (-1, 1e-3)},
                                    {"eps": (None, -1e-3)}, {"d": 0.5},
                                    {"weight_decay": -0.1}])
def test_adafactor_bad_settings_raise_torchs_errors(kwargs):
    def run(lib):
        return lib.optim.Adafactor([lib.nn.Parameter(lib.ones(2))], **kwargs)
    assert_same_error(lambda: run(minigrad), lambda: run(torch))


def test_adafactor_and_sparse_adam_names_as_in_torch():
    assert "Adafactor" in minigrad.optim.__all__
    assert issubclass(minigrad.optim.Adafactor, minigrad.optim.Optimizer)
    with pytest.raises(AttributeError, match=r"^minigrad does not implement "
                                             r"torch\.optim\.SparseAdam: minigrad has dense"):
        minigrad.optim.SparseAdam  # noqa: B018
