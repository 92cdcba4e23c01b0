"""When is a leaf's first ``.grad`` the very gradient the engine computed, and when a copy?

torch's AccumulateGrad "steals" the incoming gradient (uses it as ``.grad`` without copying)
when grad mode is off, the gradient is laid out like the leaf, and no other tensor references
it: a hook that kept the gradient, a view of it, or the caller's ``gradient=`` argument
prevents it. Something that shares the memory without referencing the tensor (``detach()``,
``numpy()``) does not, so there ``.grad`` and the kept alias are one memory. Each case
below writes into what a hook (or the caller) kept, and asks whether ``.grad`` changed:
minigrad must answer as torch does, case by case.
"""

from __future__ import annotations

import numpy as np
import pytest

from tests.torch_compare import both_engines as both


def _write(kept, lib) -> None:
    """Overwrite what was kept (a tensor or a NumPy array) with 7s, whatever it is."""
    if isinstance(kept, np.ndarray):
        kept.fill(7.0)
    else:
        with lib.no_grad():
            kept.fill_(7.0)


def _aliased(lib, run) -> bool:
    """``run(lib, x, kept)`` does one backward into the leaf ``x`` (or returns another leaf
    it used instead), appending to ``kept`` the one thing to overwrite; then: does the
    leaf's ``.grad`` see the write?"""
    x = lib.zeros(2, 3, requires_grad=True)
    kept = []
    other = run(lib, x, kept)
    x = x if other is None else other
    before = x.grad.clone()
    _write(kept[0], lib)
    return not bool(lib.equal(before, x.grad))


def _leaf_hook_keeping(view):
    """A hook on the leaf keeps ``view(gradient)``; the gradient is a fresh ``x * 2`` one."""
    def run(lib, x, kept):
        x.register_hook(lambda g: kept.append(view(g)))
        (x * 2).sum().backward()
    return run


def _node_post_hook(lib, x, kept):
    y = x * 2
    y.grad_fn.register_hook(lambda grad_inputs, grad_outputs: kept.append(grad_inputs[0]))
    y.sum().backward()


def _accumulator_pre_hook(lib, x, kept):
    y = x * 2
    y.grad_fn.next_functions[0][0].register_prehook(lambda grads: kept.append(grads[0]))
    y.sum().backward()


def _caller_gradient(lib, x, kept):
    g = lib.ones(2, 3)
    kept.append(g)
    x.backward(g)


def _caller_gradient_through_view(lib, x, kept):
    g = lib.ones(6)
    kept.append(g)
    x.view(6).backward(g)


def _retained_grad(lib, x, kept):
    y = x + 0
    y.retain_grad()
    (y * 1).backward(lib.ones(2, 3))
    kept.append(y.grad)


def _hook_on_intermediate(view):
    """``y = x + 0`` passes its gradient on unchanged: a hook on ``y`` sees x's gradient."""
    def run(lib, x, kept):
        y = x + 0
        y.register_hook(lambda g: kept.append(view(g)))
        (y * 2).sum().backward()
    return run


def _transposed_weight(lib, x, kept):
    """``inputs @ w.t()``, as nn.Linear: the weight's gradient arrives as a t() of a t()."""
    w = lib.zeros(4, 6, requires_grad=True)
    w.register_hook(lambda g: kept.append(g.detach()))
    (lib.ones(3, 6) @ w.t()).sum().backward()
    return w


def _cat_output_hook(lib, x, kept):
    """A hook keeps the gradient of ``cat([a, b])``: a's gradient is a slice of it, a tensor
    nobody else references, so torch steals it, and it shares the kept gradient's memory."""
    a = lib.zeros(3, requires_grad=True)
    y = lib.cat([a, lib.zeros(2, requires_grad=True)])
    y.register_hook(lambda g: kept.append(g))
    (y * 2).sum().backward()
    return a


def _backward_with_inputs(view):
    """``backward(inputs=[x])``: the gradient is captured, then accumulated."""
    def run(lib, x, kept):
        x.register_hook(lambda g: kept.append(view(g)))
        (x * 2).sum().backward(inputs=[x])
    return run


CASES = {
    "hook keeps the gradient": _leaf_hook_keeping(lambda g: g),
    "hook keeps g.detach()": _leaf_hook_keeping(lambda g: g.detach()),
    "hook keeps g.view(-1)": _leaf_hook_keeping(lambda g: g.view(-1)),
    "hook keeps g[0]": _leaf_hook_keeping(lambda g: g[0]),
    "hook keeps g.t()": _leaf_hook_keeping(lambda g: g.t()),
    "hook keeps g.numpy()": _leaf_hook_keeping(lambda g: g.numpy()),
    "node post-hook keeps its grad_input": _node_post_hook,
    "AccumulateGrad pre-hook keeps its grad": _accumulator_pre_hook,
    "x.backward(g)": _caller_gradient,
    "x.view(6).backward(g)": _caller_gradient_through_view,
    "retain_grad on y = x + 0": _retained_grad,
    "hook on y = x + 0 keeps g": _hook_on_intermediate(lambda g: g),
    "hook on y = x + 0 keeps g.detach()": _hook_on_intermediate(lambda g: g.detach()),
    "x @ w.t(): hook keeps the weight's g.detach()": _transposed_weight,
    "a hook keeps the gradient of cat([a, b])": _cat_output_hook,
    "backward(inputs=[x]), hook keeps g": _backward_with_inputs(lambda g: g),
    "backward(inputs=[x]), hook keeps g.detach()": _backward_with_inputs(lambda g: g.detach()),
}


@pytest.mark.parametrize("case", CASES)
def test_first_grad_aliases_what_torch_aliases(case):
    assert both(lambda lib: _aliased(lib, CASES[case]))[0] == "ok"


@pytest.mark.parametrize("inputs", [False, True])
def test_a_gradient_sent_to_two_leaves_is_stolen_by_one_at_most(inputs):
    """``a + b`` hands the same gradient to both leaves: at most one may keep it."""
    def fn(lib):
        a = lib.zeros(3, requires_grad=True)
        b = lib.zeros(3, requires_grad=True)
        ((a + b) * 2).sum().backward(inputs=[a, b] if inputs else None)
        with lib.no_grad():
            a.grad.add_(1.0)
        return a.grad.tolist(), b.grad.tolist()

    assert both(fn)[0] == "ok"


def test_a_broadcast_gradient_is_copied_into_the_leaf_layout():
    """``x.sum()``'s gradient is an expanded view (stride 0): ``.grad`` is a contiguous copy."""
    def fn(lib):
        x = lib.zeros(2, 3, requires_grad=True)
        x.sum().backward()
        return x.grad.is_contiguous(), x.grad.stride(), x.grad._base is None, x.grad.tolist()

    assert both(fn)[0] == "ok"


def test_a_stolen_gradient_is_a_plain_tensor():
    """The weight's gradient of ``inputs @ w.t()`` is stolen: not a view, no grad_fn, and a
    later backward adds into the same tensor."""
    def fn(lib):
        w = lib.zeros(4, 6, requires_grad=True)
        (lib.ones(3, 6) @ w.t()).sum().backward()
        first = w.grad
        res = [first._base is None, first.grad_fn, first.requires_grad, first.is_contiguous()]
        (lib.ones(3, 6) @ w.t()).sum().backward()
        return res + [w.grad is first, w.grad.tolist()]

    assert both(fn)[0] == "ok"
