"""coursekit.stepper: the stepper's order is the order the engine ran the nodes."""

import inspect

import numpy as np
import pytest
import torch
from hypothesis import given, settings
from hypothesis import strategies as st

import minigrad
from coursekit import stepper as stepper_module
from coursekit import viz
from coursekit.stepper import BackwardStepper

EXPRESSIONS = [
    lambda x: (x * 2 * x + (x * 2).exp() * x).sum(),
    lambda x: (x.sin() + x.cos() * x.tanh()).mean(),
    lambda x: (x.reshape(2, 2) * x.reshape(2, 2).t()).sum(),
]


def all_fns(out):
    return list(viz.GraphWalk(out).fn_ids)


def run_order_seen_after_each_node(out):
    """The order the engine runs the nodes, seen from *after* each one (not with the pre-hooks
    the stepper uses): a node's post-hook, or for a leaf's AccumulateGrad the leaf's
    post-accumulate-grad hook. The engine runs one node at a time, so this is its run order."""
    done = []
    for fn in all_fns(out):
        if hasattr(fn, "variable"):
            fn.variable.register_post_accumulate_grad_hook(lambda t, fn=fn: done.append(fn))
        else:
            fn.register_hook(lambda grad_inputs, grad_outputs, fn=fn: done.append(fn))
    return done


@pytest.mark.parametrize("lib", [minigrad, torch], ids=lambda m: m.__name__)
@settings(deadline=None, max_examples=10)
@given(st.sampled_from(range(len(EXPRESSIONS))),
       st.lists(st.floats(-2, 2, width=32), min_size=4, max_size=4))
def test_order_is_the_order_the_engine_ran_the_nodes(lib, i, values):
    x = lib.tensor(values, requires_grad=True)
    out = EXPRESSIONS[i](x)
    done = run_order_seen_after_each_node(out)
    stepper = BackwardStepper(out)
    assert [s.node for s in stepper.steps] == done
    assert len(done) == len(all_fns(out))


def test_one_code_path_for_both_engines_through_public_hooks():
    """The stepper watches minigrad only through hooks torch has too, never the engine itself."""
    source = inspect.getsource(stepper_module)
    assert "register_prehook" in source and "register_hook" in source
    for internal in ("order_log", "import minigrad", "from minigrad", "execute(", "_seed_grads"):
        assert internal not in source, internal


@pytest.mark.parametrize("i", range(len(EXPRESSIONS)))
def test_order_and_gradients_match_torch(i):
    a = np.array([0.3, -1.2, 0.7, 2.0], dtype=np.float32)
    steppers = [BackwardStepper(EXPRESSIONS[i](lib.tensor(a, requires_grad=True)))
                for lib in (minigrad, torch)]
    assert steppers[0].order == steppers[1].order
    for sm, st_ in zip(*(s.steps for s in steppers)):
        for gm, gt in zip(sm.grads_out, st_.grads_out):
            assert (gm is None) == (gt is None)
            if gm is not None:
                np.testing.assert_allclose(gm.numpy(), gt.numpy(), rtol=1e-5, atol=1e-6)


def test_frames_highlight_and_fan_in():
    x = minigrad.tensor([1.0, 2.0], requires_grad=True)
    stepper = BackwardStepper(EXPRESSIONS[0](x), dict(x=x))
    frames = [stepper.frame(k).source for k in range(len(stepper))]
    assert all(f.count("fillcolor=gold") == 1 for f in frames)
    assert len(set(frames)) == len(frames)
    last = frames[-1]  # AccumulateGrad(x): x arrives through three edges
    assert stepper.order[-1] == "AccumulateGrad"
    assert " + " in last and viz.fmt(x.grad) in last
    assert stepper.frame(0).source == frames[0]  # deterministic


def test_widget_updates_when_slider_moves():
    x = minigrad.tensor([1.0, 2.0], requires_grad=True)
    box = BackwardStepper(EXPRESSIONS[1](x), dict(x=x)).widget()
    first = box.view.value
    box.slider.value = 2
    assert box.view.value != first and "<svg" in box.view.value
