"""Shortcuts score nothing: a ready-made API, the lesson's own code, another valid method.

Three holes a reviewer found with the grader (issue 23): 12.2 answered with
``torch.autograd.functional.hvp``, 15.2 with the lesson's depth-first order reversed, and a 15.3
that the lesson's ``unbroadcast`` answered verbatim. Here each shortcut goes through the real
grader (``grade``), beside the honest answer, and must score 0 with feedback that says why;
``q.refuse`` reads the submitted answer cell's text in the grader's own process.
"""

from __future__ import annotations

import pytest

from coursekit.grading import checks
from tests.course.grading_variants import grade_variants

SHORTCUTS = {  # name: (lesson, question, answer cell, the words of the feedback)
    "hvp attribute": ("12_higher_order_gradients", "12.2", '''
def hvp_trick(f, x, v):
    return torch.autograd.functional.hvp(f, x, v)[1]
''', "your answer uses functional, hvp"),
    "hvp imported": ("12_higher_order_gradients", "12.2", '''
from torch.autograd.functional import hvp


def hvp_trick(f, x, v):
    return hvp(f, x, v)[1]
''', "your answer uses"),
    "torch.func": ("12_higher_order_gradients", "12.2", '''
import torch.func


def hvp_trick(f, x, v):
    return torch.func.jvp(torch.func.grad(f), (x,), (v,))[1]
''', "your answer uses"),
    "depth first, reversed": ("15_build_your_own_engine", "15.2", '''
def backward_order(root):
    order, seen, stack = [], set(), [(root, False)]
    while stack:
        v, done = stack.pop()
        if done:
            order.append(v)
            continue
        if v in seen:
            continue
        seen.add(v)
        stack.append((v, True))
        stack.extend((parent, False) for parent in v.parents if parent not in seen)
    return order[::-1]
''', "a valid order, but not the one dependency counts give"),
    "mean through torch": ("15_build_your_own_engine", "15.3", '''
def mean(a, axis=None, keepdims=False):
    t = torch.tensor(a.data, requires_grad=True)
    m = t.mean(dim=axis, keepdim=keepdims)
    out = Value(m.detach().numpy(), (a,), "mean")
    out.backward_fn = lambda g: (torch.autograd.grad(m, t, torch.tensor(g))[0].numpy(),)
    return out
''', "the engine is NumPy only"),
    "mean divided by a's size": ("15_build_your_own_engine", "15.3", '''
def mean(a, axis=None, keepdims=False):
    out = Value(a.data.mean(axis=axis, keepdims=keepdims), (a,), "mean")

    def backward_fn(g):
        if axis is not None and not keepdims:
            g = np.expand_dims(g, axis)
        return (np.broadcast_to(g / a.data.size, a.data.shape).copy(),)

    out.backward_fn = backward_fn
    return out
''', "not by a's size"),
    "hardtanh itself": ("16_non_differentiable_points", "16.3", '''
def my_hardtanh(x):
    return torch.nn.functional.hardtanh(x)
''', "your answer uses hardtanh"),
    "clamp's corners": ("16_non_differentiable_points", "16.3", '''
def my_hardtanh(x):
    return x.clamp(-1.0, 1.0)
''', "that is clamp's gradient"),
    "norm itself": ("16_non_differentiable_points", "16.4", '''
def length(v):
    return v.norm()
''', "your answer uses norm"),
    "length with a NaN at zero": ("16_non_differentiable_points", "16.4", '''
def length(v):
    return (v ** 2).sum().sqrt()
''', "keep sqrt away from 0"),
    "ready-made jacobian": ("17_functional_transforms", "17.3", '''
def jacobian(f, x):
    return torch.autograd.functional.jacobian(f, x)
''', "your answer uses"),
    "hvp from the whole Hessian": ("17_functional_transforms", "17.4", '''
def hvp_fwd_rev(f, x, v):
    return torch.func.hessian(f)(x) @ v
''', "your answer uses"),
}


@pytest.fixture(scope="module")
def graded(tmp_path_factory):
    """Each shortcut in a copy of its solution notebook, graded by the grader."""
    return grade_variants(tmp_path_factory.mktemp("shortcuts"), {
        name: (lesson, {qid: answer}) for name, (lesson, qid, answer, _) in SHORTCUTS.items()})


@pytest.mark.parametrize("name", sorted(SHORTCUTS))
def test_a_shortcut_scores_nothing_and_says_why(graded, name):
    lesson, qid, _, words = SHORTCUTS[name]
    q = graded[name][qid]
    assert q["points"] == 0, q
    assert words in q["feedback"], q
    others = [o for o in graded[name].values() if o["id"] != qid]
    assert all(o["points"] == o["max"] for o in others), others  # the solution's answers


def test_names_used_reads_outside_names_not_the_learner_s_own():
    used = checks.names_used("def hvp(f, x, v):\n    hessian = 1\n"
                             "    return torch.autograd.grad(f(x), x)\n")
    assert {"torch", "autograd", "grad"} <= used
    assert not {"hvp", "hessian", "f", "x", "v"} & used
    assert {"functional", "hvp"} <= checks.names_used(
        "from torch.autograd.functional import hvp as H\nH(1)")
    assert "torch" in checks.names_used("this does not parse: torch(")


def test_refuse_stops_the_question_only_on_the_grader_s_reading_of_the_answer():
    def question(source):
        return checks.Question("12.2", 3, results={}, observer=lambda *a: {"returned": None},
                               answer_source=source)

    q = question("def hvp_trick(f, x, v):\n    return F.hvp(f, x, v)[1]\n")
    with q:
        q.refuse(("hvp",), "two grad calls")
    assert q._results["12.2"]["points"] == 0
    assert q._results["12.2"]["feedback"] == "your answer uses hvp: two grad calls"
    q = question("def hvp_trick(f, x, v):\n    return torch.autograd.grad(f(x), x)[0]\n")
    with q:
        q.refuse(("hvp",), "two grad calls")
    assert q._results["12.2"]["points"] == 3


def test_ready_made_caller_sees_the_api_on_the_stack():
    import torch

    seen = []

    def f(t):
        seen.append(checks.ready_made_caller())
        return (t ** 3).sum()

    torch.autograd.functional.hvp(f, torch.ones(2), torch.ones(2))
    f(torch.ones(2))
    assert seen == ["torch.autograd.functional", None]
