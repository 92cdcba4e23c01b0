"""minigrad.stepper: the stepper's order is the order the engine ran the nodes."""

import numpy as np
import pytest
import torch
from hypothesis import given, settings
from hypothesis import strategies as st

import minigrad
from minigrad import viz
from minigrad.stepper import BackwardStepper

EXPRESSIONS = [
    lambda x: (x * 2 * x + (x * 2).exp() * x).sum(),
    lambda x: (x.sin() + x.cos() * x.tanh()).mean(),
    lambda x: (x.reshape(2, 2) * x.reshape(2, 2).t()).sum(),
]


def all_fns(out):
    return list(viz.GraphWalk(out).fn_ids)


@settings(deadline=None, max_examples=15)
@given(st.sampled_from(range(len(EXPRESSIONS))),
       st.lists(st.floats(-2, 2, width=32), min_size=4, max_size=4))
def test_order_equals_engine_order_recorded_with_hooks(i, values):
    x = minigrad.tensor(values, requires_grad=True)
    out = EXPRESSIONS[i](x)
    seen = []
    for fn in all_fns(out):
        fn.register_prehook(lambda grads, fn=fn: seen.append(fn))
    stepper = BackwardStepper(out)
    assert [s.node for s in stepper.steps] == seen
    assert len(seen) == len(all_fns(out))


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
