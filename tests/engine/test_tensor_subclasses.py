"""A learner's subclass of Tensor through every entry of the op database, against torch.

torch's default ``__torch_function__`` gives every op's tensor results the subclass of its
inputs (as an alias: ``AliasBackward0`` on top of the op's own node when it requires grad);
minigrad does the same without a dispatcher (``minigrad/_ops/subclass.py``). For each entry
of ``op_db.py`` (float32), every differentiable input is made an instance of a subclass
(``Sub``) in both engines, and the outputs must agree: their classes (``Sub`` or a plain
tensor, by name), values, and the graph under each (node names and edges, as
``test_op_db.test_grad_fn`` compares them). Then the cases op_db cannot express: mixed
subclasses, ``Parameter``, ``as_subclass``, printing, gradients, and the one error for a
subclass's own ``__torch_function__``.
"""

from __future__ import annotations

import copy
import gc
import subprocess
import sys

import numpy as np
import pytest
import torch
from torch_compare import graph_signature

import minigrad
from minigrad._ops import subclass
from tests.engine.op_db import OPS
from tests.engine.test_op_db import assert_same, call, samples

pytestmark = pytest.mark.filterwarnings("ignore")  # (the ops' own warnings: test_op_db's)


SUB = {}  # lib -> its subclass, while this module's tests run (see the fixture)


@pytest.fixture(autouse=True, scope="module")
def _subclasses():
    """One subclass per engine for this module's tests, gone (collected) after them: while a
    learner's subclass of minigrad.Tensor lives, nn.functional's Python functions are wrapped
    (a frame more: a warning they raise points one frame further in), so the tests that run
    next in this process must not inherit one."""
    SUB[torch] = type("TorchSub", (torch.Tensor,), {"__module__": __name__})
    SUB[minigrad] = type("MinigradSub", (minigrad.Tensor,), {"__module__": "__main__"})
    yield
    SUB.clear()
    gc.collect()
    assert not subclass.active, "a learner's subclass outlived this module's tests"


def _as_sub(lib):
    def leaf(t, k):
        return t.detach().as_subclass(SUB[lib]).requires_grad_()
    return leaf


def _kind(x) -> str:
    return type(x).__name__.replace("TorchSub", "Sub").replace("MinigradSub", "Sub")


# torch's own slips, where its dispatch for a subclass drops an argument: its answer without
# the subclass is the oracle there (checked below to differ, so that a fixed torch shows up)
TORCH_DROPS_AN_ARGUMENT = {
    "l1_loss": "F.l1_loss's handle_torch_function passes no weight= on (torch 2.13): a "
               "subclass's weighted L1 loss is the unweighted one",
}


def _torch_outs(entry, sample):
    if entry.name in TORCH_DROPS_AN_ARGUMENT and "weight" in sample.kwargs:
        wrong, _ = call(torch, entry, sample, "float32", _as_sub(torch))
        outs, _ = call(torch, entry, sample, "float32")
        assert not np.allclose(wrong[0].detach().numpy(), outs[0].detach().numpy()), \
            f"torch now keeps {entry.name}'s argument: {TORCH_DROPS_AN_ARGUMENT[entry.name]}"
        return [_convert_like_torch(t, wrong[0]) for t in outs]
    return call(torch, entry, sample, "float32", _as_sub(torch))[0]


def _convert_like_torch(t, like):
    """``t`` (a plain result) as torch's subclass result would be: of ``like``'s class, and
    with its graph (an alias on top)."""
    return t.as_subclass(type(like))


@pytest.mark.parametrize("entry", OPS, ids=lambda e: e.name)
def test_every_op_keeps_the_subclass_as_torch(entry):
    failures = []
    for i, sample in enumerate(samples(entry.name)):
        try:
            m_outs, _ = call(minigrad, entry, sample, "float32", _as_sub(minigrad))
            t_outs = _torch_outs(entry, sample)
            assert [_kind(m) for m in m_outs] == [_kind(t) for t in t_outs], \
                f"classes {[_kind(m) for m in m_outs]} vs torch {[_kind(t) for t in t_outs]}"
            for k, (m, t) in enumerate(zip(m_outs, t_outs)):
                if isinstance(t, torch.Tensor):
                    assert_same(m.as_subclass(minigrad.Tensor), t.as_subclass(torch.Tensor),
                                f"output {k}")
                    if t.grad_fn is not None:
                        m_graph, t_graph = graph_signature(m.grad_fn), graph_signature(t.grad_fn)
                        assert m_graph == t_graph, \
                            f"output {k}: graph\n {m_graph}\nvs torch\n {t_graph}"
        except Exception as e:  # noqa: BLE001 - every sample's failure in the report
            failures.append(f"sample {i} {sample}: {type(e).__name__}: {e}")
    assert not failures, f"{entry.name}:\n" + "\n".join(failures)


# --- beyond op_db ---------------------------------------------------------------------------------
def test_a_subclass_with_its_own_torch_function_is_one_clear_error():
    with pytest.raises(TypeError, match=r"minigrad does not implement "
                                        r"torch\.Tensor\.__torch_function__: .*run this code with "
                                        r"torch"):
        class Handler(minigrad.Tensor):
            @classmethod
            def __torch_function__(cls, func, types, args=(), kwargs=None):
                return NotImplemented
    with pytest.raises(TypeError, match="__torch_dispatch__"):
        class Dispatcher(minigrad.Tensor):
            __torch_dispatch__ = None


def test_nothing_dispatches_once_the_subclasses_are_gone():
    """Defining a subclass switches dispatch on (and wraps nn.functional's Python functions);
    once every learner's subclass is collected, it is off and the functions are the originals,
    so one experiment does not slow a whole session. In a fresh interpreter: nothing else
    there has defined a subclass."""
    script = """
import gc
import minigrad
import minigrad.nn.functional as F
from minigrad._ops import subclass
original, grad = F.mse_loss, minigrad.autograd.grad
print(subclass.active)
class Local(minigrad.Tensor):
    pass
class Deeper(Local):
    pass
print(subclass.active, F.mse_loss is original, minigrad.autograd.grad is grad)
print(type(F.mse_loss(Deeper([1.0]), minigrad.ones(1))).__name__)
del Local, Deeper
gc.collect()
print(subclass.active, F.mse_loss is original, minigrad.autograd.grad is grad)
"""
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                          check=True)
    assert done.stdout.split("\n") == ["False", "True False False", "Deeper",
                                        "False True True", ""]


def test_grad_and_printing_follow_torch():
    for lib in (torch, minigrad):
        sub = SUB[lib]
        x = lib.tensor([1.0, 2.0]).as_subclass(sub).requires_grad_()
        y = (x * x).sum()
        (g,) = lib.autograd.grad(y, x, create_graph=True)
        y.backward()
        assert type(x.grad).__name__ == "Tensor"  # .grad stays plain, as torch's engine makes it
        assert _kind(g) == "Sub"  # autograd.grad is a torch function: its result converts
        with pytest.raises(RuntimeError, match="new_empty"):
            copy.deepcopy(x)
    m = minigrad.tensor([1.5, -2.0]).as_subclass(SUB[minigrad])
    t = torch.tensor([1.5, -2.0]).as_subclass(SUB[torch])
    assert repr(m).replace("MinigradSub", "TorchSub") == repr(t)
    assert str(m.sum()).replace("MinigradSub", "TorchSub") == str(t.sum())
    with pytest.raises(TypeError, match="unsupported format string"):
        f"{m.sum():.2f}"
