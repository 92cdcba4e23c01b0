"""The autograd API around the lessons, against torch: grad modes decorating generators,
inference tensors meeting autograd, and the parts of torch minigrad leaves out on purpose."""

from __future__ import annotations

import importlib
import re
import warnings

import pytest
import torch

import minigrad
from minigrad import _left_out
from tests.torch_compare import assert_close, graph_signature
from tests.torch_compare import both_engines as both

# --- grad modes as decorators of generators ------------------------------------------------

DECORATORS = {
    "no_grad()": lambda L: L.no_grad(),
    "no_grad": lambda L: L.no_grad,
    "enable_grad()": lambda L: L.enable_grad(),
    "enable_grad": lambda L: L.enable_grad,
    "set_grad_enabled(False)": lambda L: L.set_grad_enabled(False),
    "set_grad_enabled(True)": lambda L: L.set_grad_enabled(True),
    "inference_mode()": lambda L: L.inference_mode(),
    "inference_mode": lambda L: L.inference_mode,
    "inference_mode(mode=False)": lambda L: L.inference_mode(mode=False),
}
OUTER = {"plain": lambda L: L.enable_grad(), "no_grad": lambda L: L.no_grad(),
         "inference": lambda L: L.inference_mode()}


def _modes(L):
    return L.is_grad_enabled(), L.is_inference_mode_enabled()


@pytest.mark.parametrize("outer", list(OUTER))
@pytest.mark.parametrize("deco", list(DECORATORS))
def test_decorated_generator_keeps_its_mode_per_step(deco, outer):
    """Each resumed step runs in the decorator's mode, the caller's code between steps in its
    own; send, throw and the return value pass through."""

    def run(L):
        seen = []

        @DECORATORS[deco](L)
        def gen(n):
            for i in range(n):
                try:
                    got = yield (i, _modes(L), (L.ones(1, requires_grad=True) * 2).requires_grad)
                except ValueError:
                    got = "thrown"
                seen.append((got, _modes(L)))
            return "done"

        with OUTER[outer](L):
            g = gen(3)
            first = next(g)
            between = _modes(L)
            second = g.send("sent")
            third = g.throw(ValueError())
            try:
                next(g)
                end = None
            except StopIteration as stop:
                end = stop.value
        return first, between, second, third, end, seen, gen.__name__

    both(run)


@pytest.mark.parametrize("deco", list(DECORATORS))
def test_decorated_generator_close_runs_in_the_mode(deco):
    def run(L):
        closed = []

        @DECORATORS[deco](L)
        def gen():
            try:
                yield 1
            finally:
                closed.append(_modes(L))

        g = gen()
        next(g)
        g.close()
        return closed, _modes(L)

    both(run)


@pytest.mark.parametrize("deco", list(DECORATORS))
def test_decorated_function(deco):
    def run(L):
        @DECORATORS[deco](L)
        def f(x):
            """doc"""
            return _modes(L), (x * 2).requires_grad

        with L.no_grad():
            inner = f(L.ones(1, requires_grad=True))
        return f(L.ones(1, requires_grad=True)), inner, f.__name__, f.__doc__, _modes(L)

    both(run)


# --- inference tensors meeting autograd ------------------------------------------------------

INFERENCE_CASES = {
    "saved_for_backward": lambda L, t, x: x * t,
    "saved_nonleaf": lambda L, t, x: (x * 2) * t,
    "add_not_saved": lambda L, t, x: (x + t).requires_grad,
    "inplace_outside": lambda L, t, x: t.mul_(2),
    "inplace_with_grad": lambda L, t, x: t.add_(x),
    "inplace_on_view": lambda L, t, x: t.view(4).add_(1),
    "inplace_on_t": lambda L, t, x: t.t().mul_(2),
    "inplace_into_normal": lambda L, t, x: L.ones(2, 2).add_(t),
    "requires_grad_": lambda L, t, x: t.requires_grad_(),
    "requires_grad_attr": lambda L, t, x: setattr(t, "requires_grad", True),
    "requires_grad_false": lambda L, t, x: t.requires_grad_(False).requires_grad,
    "version": lambda L, t, x: t._version,
    "view_version": lambda L, t, x: t[0]._version,
    "results_are_normal": lambda L, t, x: ((t + 1).is_inference(), t.clone().is_inference()),
    "views_are_inference": lambda L, t, x: (t[0].is_inference(), t.view(4).is_inference(),
                                            t.t().is_inference(), t.detach().is_inference()),
}


@pytest.mark.parametrize("case", list(INFERENCE_CASES))
def test_inference_tensor_outside_inference_mode(case):
    def run(L):
        with L.inference_mode():
            t = L.ones(2, 2)
        x = L.ones(2, 2, requires_grad=True)
        out = INFERENCE_CASES[case](L, t, x)
        return out if isinstance(out, tuple | bool | int | type(None)) else out.tolist()

    both(run)


def test_inside_inference_mode():
    def run(L):
        x = L.ones(2, 2, requires_grad=True)
        base = L.ones(2, 2)
        with L.inference_mode():
            t = L.ones(2, 2)
            y = x * 2
            facts = [y.requires_grad, y.is_inference(), t.requires_grad_().requires_grad,
                     base.view(4).is_inference(), base[0].is_inference(),
                     (base + 1).is_inference()]
            with L.inference_mode(mode=False):
                facts.append((_modes(L), (x * 2).requires_grad, L.ones(1).is_inference()))
        return facts

    both(run)


# --- what minigrad leaves out on purpose -----------------------------------------------------

@pytest.mark.parametrize("package, name", [(package, name)
                                            for package, names in _left_out.LEFT_OUT.items()
                                            for name in names])
def test_left_out_parts_raise_one_clear_error(package, name):
    """Every name listed as left out exists in torch (so the message names a real API) and
    raises minigrad's one clear error, naming torch's API."""
    torch_package = importlib.import_module("torch" + package[len("minigrad"):])
    assert hasattr(torch_package, name)
    module = importlib.import_module(package)
    torch_name = f"torch{package[len('minigrad'):]}.{name}"
    expected = rf"^minigrad does not implement {re.escape(torch_name)}: "
    with pytest.raises(AttributeError, match=expected):
        getattr(module, name)
    assert not hasattr(module, name)


@pytest.mark.parametrize("package, name", [(package, name)
                                            for package, names in _left_out.LEFT_OUT.items()
                                            for name in names])
def test_left_out_parts_give_the_same_error_to_import_statements(package, name):
    """``from minigrad.nn import Conv2d`` and ``import minigrad.jit`` go through Python's
    import machinery, not ``__getattr__``: they still get minigrad's message (as an
    ImportError, what torch code expects an import to raise), not "cannot import name"."""
    torch_name = f"torch{package[len('minigrad'):]}.{name}"
    expected = rf"^minigrad does not implement {re.escape(torch_name)}: "
    with pytest.raises(ImportError, match=expected):
        exec(f"from {package} import {name}", {})
    if hasattr(importlib.import_module(package), "__path__"):  # a package: submodules exist
        with pytest.raises(ImportError, match=expected):
            importlib.import_module(f"{package}.{name}")
    with pytest.raises(ImportError, match=r"^cannot import name 'no_such_name' from "):
        exec(f"from {package} import no_such_name", {})


@pytest.mark.parametrize("package", sorted(_left_out.LEFT_OUT))
def test_other_unknown_names_get_torchs_wording(package):
    module = importlib.import_module(package)
    torch_package = importlib.import_module("torch" + package[len("minigrad"):])
    for lib_module, lib in ((module, "minigrad"), (torch_package, "torch")):
        with pytest.raises(AttributeError) as caught:
            lib_module.no_such_name  # noqa: B018
        assert str(caught.value).replace(lib, "LIB") == (
            f"module '{package.replace('minigrad', 'LIB')}' has no attribute 'no_such_name'")


def test_unknown_attribute_error_is_torchs():
    def run(L):
        try:
            L.no_such_thing  # noqa: B018
        except AttributeError as e:
            return str(e).replace(L.__name__, "LIB")
        return None

    both(run)


# --- hooks on AccumulateGrad, post-accumulate-grad hooks, hook results ------------------------

def test_accumulate_grad_node_hooks_run_as_torchs():
    """On a leaf's AccumulateGrad: tensor hook, node pre-hook (before .grad changes),
    post-accumulate-grad hook, then the node's post-hook with no grad_inputs."""
    def run(L):
        x = L.tensor([1.0, 2.0], requires_grad=True)
        acc = (x * 3).grad_fn.next_functions[0][0]
        log = []

        def grad_now():
            return None if x.grad is None else x.grad.tolist()

        acc.register_prehook(lambda go: log.append(("pre", [g.tolist() for g in go], grad_now())))
        acc.register_hook(lambda gi, go: log.append(("post", gi, [g.tolist() for g in go],
                                                     grad_now())))
        x.register_hook(lambda g: log.append(("tensor", g.tolist())))
        x.register_post_accumulate_grad_hook(lambda t: log.append(("pah", t is x, grad_now())))
        (x * 3).sum().backward()
        acc.register_prehook(lambda go: (go[0] * 10,))
        (x * 3).sum().backward()
        return log, x.grad.tolist()

    both(run)


def test_grad_runs_no_accumulate_grad_hooks():
    def run(L):
        x = L.tensor([1.0, 2.0], requires_grad=True)
        acc = (x * 1).grad_fn.next_functions[0][0]
        log = []
        acc.register_prehook(lambda go: log.append("pre"))
        acc.register_hook(lambda gi, go: log.append("post"))
        x.register_hook(lambda g: log.append("tensor"))
        x.register_post_accumulate_grad_hook(lambda t: log.append("pah"))
        (g,) = L.autograd.grad((x * 2).sum(), x)
        log.append(g.tolist())
        h = x.register_post_accumulate_grad_hook(lambda t: log.append("removed"))
        h.remove()
        (x * 2).sum().backward()
        return log

    both(run)


@pytest.mark.parametrize("tensor", ["non_leaf", "no_grad"])
def test_post_accumulate_grad_hook_errors(tensor):
    def run(L):
        x = L.tensor([1.0, 2.0], requires_grad=tensor == "non_leaf")
        t = x * 2 if tensor == "non_leaf" else x
        try:
            t.register_post_accumulate_grad_hook(lambda t: None)
        except RuntimeError as e:
            return str(e)
        return None

    both(run)


HOOK_RESULTS = {
    "list": lambda gi, go: list(go),
    "extra": lambda gi, go: tuple(go) + (None,),
    "one_none": lambda gi, go: (None,),
    "empty": lambda gi, go: (),
    "scaled": lambda gi, go: tuple(None if g is None else g * 5 for g in (gi or go)),
    "none": lambda gi, go: None,
}


@pytest.mark.parametrize("result", list(HOOK_RESULTS))
@pytest.mark.parametrize("kind", ["post", "pre"])
@pytest.mark.parametrize("leaf", [True, False])
def test_node_hook_results_are_checked_as_torch(result, kind, leaf):
    def run(L):
        x = L.tensor([1.0, 2.0], requires_grad=True)
        y = x * 2
        node = y.grad_fn.next_functions[0][0] if leaf else y.grad_fn
        fn = HOOK_RESULTS[result]
        if kind == "post":
            node.register_hook(fn)
        else:
            node.register_prehook(lambda go: fn(None, go))
        try:
            (y * 1).sum().backward()
        except (RuntimeError, TypeError) as e:
            return type(e).__name__, str(e)
        return x.grad.tolist()

    both(run)


def test_leaf_grad_under_create_graph_carries_torchs_grad_fn():
    def run(L):
        x = L.tensor([1.0, 2.0], requires_grad=True)
        (x ** 3).sum().backward(create_graph=True)
        g = x.grad
        first = (g.grad_fn.name().replace("minigrad", "torch"),
                 [None if n is None else n.name() for n, _ in g.grad_fn.next_functions],
                 g.is_leaf, g.requires_grad, g.tolist())
        (gg,) = L.autograd.grad(g.sum(), x, retain_graph=True)
        (x ** 3).sum().backward(create_graph=True)
        second = x.grad.grad_fn.name(), x.grad.tolist()
        c = L.tensor([1.0, 2.0], requires_grad=True)
        (c * 2).sum().backward(create_graph=True)
        return first, gg.tolist(), second, c.grad.grad_fn, c.grad.requires_grad

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # torch's once-per-process reference-cycle warning
        both(run)


# --- anomaly detection ---------------------------------------------------------------------------

def _anomaly_outcome(fn, L):
    """The error, and each warning's first line plus the frames of this file in it."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            result = ("ok", fn(L))
        except Exception as e:  # noqa: BLE001 - the error is what is compared
            result = (type(e).__name__, str(e).replace("minigrad", "torch"))
    shown = []
    for w in caught:
        lines = str(w.message).replace("minigrad", "torch").splitlines()
        shown.append((w.category.__name__, lines[0],
                      [ln.strip() for ln in lines if __file__ in ln]))
    return result, shown


def _nan_backward(L):
    with L.autograd.detect_anomaly():
        x = L.tensor([0.0, 1.0], requires_grad=True)
        z = (x * 0).sqrt()
        z.sum().backward()
    return x.grad.tolist()


def _nan_unchecked(L):
    with L.autograd.detect_anomaly(check_nan=False):
        x = L.tensor([0.0, 1.0], requires_grad=True)
        (x * 0).sqrt().sum().backward()
    return str(x.grad.tolist())


def _nan_in_grad(L):
    with L.autograd.detect_anomaly():
        x = L.tensor([0.0, 1.0], requires_grad=True)
        return L.autograd.grad((x.log() * 0).sum(), x)


def _raising_function(L):
    class Boom(L.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            return x * 2

        @staticmethod
        def backward(ctx, g):
            raise ValueError("boom")

    with L.autograd.detect_anomaly():
        x = L.tensor([1.0], requires_grad=True)
        Boom.apply(x).sum().backward()


def _version_error_with_anomaly(L):
    with L.autograd.set_detect_anomaly(True):
        x = L.tensor([1.0, 2.0], requires_grad=True)
        y = x.exp()
        y.add_(1)
        y.sum().backward()


def _modes(L):
    L.autograd.set_detect_anomaly(True, check_nan=False)
    inside = (L.is_anomaly_enabled(), L.is_anomaly_check_nan_enabled())
    L.autograd.set_detect_anomaly(False)
    with L.autograd.set_detect_anomaly(True):
        ctx = L.is_anomaly_enabled()
    return inside, ctx, L.is_anomaly_enabled(), L.is_anomaly_check_nan_enabled()


def _as_decorator(L):
    @L.autograd.detect_anomaly()
    def f():
        return L.is_anomaly_enabled()

    return f()


@pytest.mark.parametrize("case", [_nan_backward, _nan_unchecked, _nan_in_grad, _raising_function,
                                  _version_error_with_anomaly, _modes, _as_decorator],
                         ids=lambda f: f.__name__)
def test_anomaly_detection_matches_torch(case):
    assert _anomaly_outcome(case, minigrad) == _anomaly_outcome(case, torch)


# --- double backward builds torch's graph -------------------------------------------------------

FIRST_ORDER = {
    "relu": lambda L, x: x.relu(), "relu_fn": lambda L, x: L.nn.functional.relu(x),
    "relu_": lambda L, x: (x * 1).relu_(), "abs": lambda L, x: x.abs(),
    "tanh": lambda L, x: x.tanh(), "sigmoid": lambda L, x: x.sigmoid(),
    "tanh_": lambda L, x: (x * 1).tanh_(), "sigmoid_": lambda L, x: (x * 1).sigmoid_(),
    "sgn": lambda L, x: x.sgn(), "mixed": lambda L, x: (x.relu() * x.tanh()).abs() * x,
}


@pytest.mark.parametrize("name", list(FIRST_ORDER))
def test_create_graph_gradient_has_torchs_graph(name):
    """The first-order gradient under create_graph=True: torch's nodes
    (ThresholdBackwardBackward0, SgnBackward0, TanhBackwardBackward0...), the same values at
    second and third order."""
    res = {}
    for L in (torch, minigrad):
        x = L.tensor([0.7, -1.3, 0.2, 2.1], dtype=L.float64, requires_grad=True)
        w = L.tensor([1.0, 2.0, -0.5, 3.0], dtype=L.float64)
        grads = list(L.autograd.grad((FIRST_ORDER[name](L, x) * w).sum(), x,
                                     create_graph=True))
        sig = graph_signature(grads[0].grad_fn) if grads[0].grad_fn is not None else None
        while grads[-1] is not None and grads[-1].requires_grad and len(grads) < 3:
            grads += L.autograd.grad((grads[-1] * w).sum(), x, create_graph=True,
                                     allow_unused=True)
        res[L] = sig, grads
    (msig, mgrads), (tsig, tgrads) = res[minigrad], res[torch]
    assert [(normalize(n), e) for n, e in msig or []] == [(normalize(n), e) for n, e in tsig or []]
    assert len(mgrads) == len(tgrads)
    for m, t in zip(mgrads, tgrads):
        assert (m is None) == (t is None)
        if t is not None:
            assert m.requires_grad == t.requires_grad
            if t._is_zerotensor():  # torch's lazy zeros (sgn's gradient) have no NumPy view
                t = torch.zeros(t.shape, dtype=t.dtype)
            assert_close(m, t)


def normalize(name):
    return None if name is None else name.replace("minigrad", "torch")
