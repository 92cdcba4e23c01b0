"""Shortcuts across lessons 01-11 and 13 score nothing, or lose the method's point.

An audit of every "Implement" and "Debug" question (after issue 23's three holes) tried the
ready-made API that does the job, the lesson's own code pasted, and a plausible wrong method.
These scored full marks before and are closed now:

* a ready-made API the question forbids scores 0: ``q.refuse`` reads the submitted answer cell
  in the grader's own process (02.3 ``torch.autograd.functional.jvp``/``vjp`` and
  ``torch.func``, 03.3 ``autograd.grad`` inside the node, 05.3 ``torch.func.grad``, 08.2
  ``torch.cumprod``, 09.1 gradcheck's numerical Jacobian, 10.1 the course's own ``viz.GraphWalk``
  and ``BackwardStepper``, 11.2 ``jacobian``/``jacrev`` (they cost only the method's point
  before), 11.3 ``torch.func.jvp``, 13.4 a backward pass through a broadcast, ``broadcast_to``, a
  ``sum_to_size`` kept from before the probe's spy, minigrad's ``sum_to_size``);
* a backward node computed from NumPy values (03.3) is not differentiable: a second derivative
  with ``create_graph=True`` now checks it, a value the grader verifies (0 points);
* 06.4 was the lesson's one-line recipe: it now asks for nested structures of tensors, and the
  recipe alone raises;
* the wrong method with right values loses the method's point: 04.4 without the hook, 08.2
  without the slice assignment.

Each closed shortcut of a question goes once through the real grader (``grade``) in a copy of
its solution notebook; further variants run the check inline with the answer cell's text handed
to ``q.refuse`` as the grader hands it (``checks.answer_source_inline``).
"""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

from coursekit.grading import checks
from tests.course.grading_variants import grade_variants

ROOT = Path(__file__).resolve().parents[2]
SOLUTIONS = ROOT / "solutions"

FUNCTIONAL = '''
def jvp(f, x, v):
    return torch.autograd.functional.jvp(f, x, v)[1]


def vjp(f, x, u):
    return torch.autograd.functional.vjp(f, x, u)[1]
'''
TORCH_FUNC = '''
from torch.func import jvp as forward_jvp, vjp as reverse_vjp


def jvp(f, x, v):
    return forward_jvp(f, (x,), (v,))[1]


def vjp(f, x, u):
    return reverse_vjp(f, x)[1](u)[0]
'''
CUBE = '''
class CubeBackward0(Node):
    def backward(self, grad):
        x = self.saved("self")
        {body}


def cube(x):
    return record(x._data ** 3, CubeBackward0, (x,), save={{"self": x}})
'''
CUBE_AUTOGRAD = CUBE.format(body="with minigrad.enable_grad():\n            return "
                                 "minigrad.autograd.grad(x ** 3, x, grad, create_graph=True)[0]")
CUBE_NUMPY = CUBE.format(body="return grad * minigrad.tensor(3 * x._data ** 2)")
NO_HOOK = '''
def weighted_grad(w, x, weight):
    ((w * x) ** 2).sum().backward()
    grad = w.grad.clone() * weight
    w.grad = None
    return grad
'''
FUNC_GRAD = '''
import torch.func


def gradients_at(f, x, points):
    return [torch.func.grad(f)(p) for p in points]
'''
LESSON_RECIPE = '''
def to_numpy(t):
    return t.detach().cpu().clone().numpy()
'''
CUMPROD = '''
def cumulative(x):
    return torch.cat([torch.ones(1), x.cumprod(0)])
'''
NO_SLICE = '''
def cumulative(x):
    s = [torch.ones(())]
    for i in range(len(x)):
        s.append(s[i] * x[i])
    return torch.stack(s)
'''
NUMERICAL = '''
from torch.autograd.gradcheck import _get_numerical_jacobian


class CentralDiff(torch.autograd.Function):
    @staticmethod
    def forward(ctx, fn, x, h):
        ctx.save_for_backward(x)
        ctx.fn, ctx.h = fn, h
        return fn(x)

    @staticmethod
    def backward(ctx, grad_output):
        (x,) = ctx.saved_tensors
        copy = x.detach().clone().requires_grad_()
        J = _get_numerical_jacobian(ctx.fn, (copy,), eps=ctx.h)[0][0]
        return None, J @ grad_output.reshape(-1), None
'''
GRAPH_WALK = '''
def count_nodes(t):
    counts = {}
    for node in viz.GraphWalk(t).fn_ids:
        counts[type(node).__name__] = counts.get(type(node).__name__, 0) + 1
    return counts
'''
STEPPER = '''
def count_nodes(t):
    counts = {}
    for name in (BackwardStepper(t).order if t.grad_fn is not None else []):
        counts[name] = counts.get(name, 0) + 1
    return counts
'''
JACOBIAN = '''
def jacobian_rows(f, x):
    return torch.autograd.functional.jacobian(f, x)
'''
JACREV = '''
import torch.func


def jacobian_rows(f, x):
    return torch.func.jacrev(f)(x)
'''
FUNC_JVP = '''
import torch.func


def directional_derivatives(f, x, U):
    return torch.stack([torch.func.jvp(f, (x,), (U[:, j],))[1] for j in range(U.shape[1])], 1)
'''
THROUGH_ADD = '''
def unbroadcast(grad, shape):
    x = torch.zeros(shape, dtype=grad.dtype, requires_grad=True)
    (x + torch.zeros_like(grad)).backward(grad)
    return x.grad
'''
BROADCAST_TO = '''
def unbroadcast(grad, shape):
    x = torch.zeros(shape, dtype=grad.dtype, requires_grad=True)
    return torch.autograd.grad(torch.broadcast_to(x, grad.shape), x, grad)[0]
'''
KEPT_SUM_TO_SIZE = '''
_sum_to = torch.Tensor.sum_to_size


def unbroadcast(grad, shape):
    return _sum_to(grad, shape)
'''
MINIGRAD_SUM_TO_SIZE = '''
def unbroadcast(grad, shape):
    return torch.tensor(minigrad.tensor(grad.numpy()).sum_to_size(shape).numpy())
'''

GRADED = {  # name: (lesson, {question: answer cell}, {question: (points, words of feedback)})
    "02.3 torch.autograd.functional": (
        "02_forward_vs_reverse", {"02.3": FUNCTIONAL},
        {"02.3": (0, "your answer uses functional, jvp, vjp")}),
    "03.3 autograd inside the node": (
        "03_building_the_graph", {"03.3": CUBE_AUTOGRAD},
        {"03.3": (0, "your answer uses autograd")}),
    "05.3 torch.func.grad": (
        "05_pausing_the_graph", {"05.3": FUNC_GRAD},
        {"05.3": (0, "your answer uses func")}),
    "06.4 the lesson's recipe": (
        "06_detach_and_clone", {"06.4": LESSON_RECIPE},
        {"06.4": (0, "'dict' object has no attribute 'detach'")}),
    "08.2 cumprod": (
        "08_slicing_pitfalls", {"08.2": CUMPROD},
        {"08.2": (0, "your answer uses cumprod")}),
    "09.1 gradcheck's numerical Jacobian": (
        "09_custom_functions", {"09.1": NUMERICAL},
        {"09.1": (0, "your answer uses _get_numerical_jacobian, gradcheck")}),
    "10.1 viz.GraphWalk": (
        "10_visualising_graphs", {"10.1": GRAPH_WALK},
        {"10.1": (0, "your answer uses GraphWalk, fn_ids, viz")}),
    "11.2 jacobian, 11.3 torch.func.jvp": (
        "11_non_scalar_outputs", {"11.2": JACOBIAN, "11.3": FUNC_JVP},
        {"11.2": (0, "your answer uses functional, jacobian"),
         "11.3": (0, "your answer uses func, jvp")}),
    "13.4 backward through a broadcast": (
        "13_broadcasting_in_backward", {"13.4": THROUGH_ADD},
        {"13.4": (0, "your answer uses backward")}),
}

INLINE = {  # name: (question, answer cell, points, words of feedback)
    "02.3 torch.func imported": ("02.3", TORCH_FUNC, 0, "your answer uses func, jvp, vjp"),
    "03.3 NumPy values in the node": ("03.3", CUBE_NUMPY, 0, "cut from the graph"),
    "04.4 no hook": ("04.4", NO_HOOK, 1, "registered 0 hook(s) in 3 calls"),
    "08.2 a list joined at the end": ("08.2", NO_SLICE, 2, "0 CopySlices node(s), expected 4"),
    "10.1 BackwardStepper": ("10.1", STEPPER, 0, "your answer uses BackwardStepper"),
    "11.2 torch.func.jacrev": ("11.2", JACREV, 0, "your answer uses func, jacrev"),
    "13.4 broadcast_to": ("13.4", BROADCAST_TO, 0, "autograd, broadcast_to"),
    "13.4 sum_to_size kept before the spy": ("13.4", KEPT_SUM_TO_SIZE, 0, "sum_to_size"),
    "13.4 minigrad's sum_to_size": ("13.4", MINIGRAD_SUM_TO_SIZE, 0, "sum_to_size"),
}


@pytest.fixture(scope="module")
def graded(tmp_path_factory):
    """Each shortcut in a copy of its solution notebook, graded by the grader."""
    return grade_variants(tmp_path_factory.mktemp("audit"), {
        name: (lesson, answers) for name, (lesson, answers, _) in GRADED.items()})


@pytest.mark.parametrize("name", sorted(GRADED))
def test_a_shortcut_graded_scores_nothing_and_says_why(graded, name):
    _, answers, expected = GRADED[name]
    for qid, (points, words) in expected.items():
        q = graded[name][qid]
        assert q["points"] == points, q
        assert words in q["feedback"], q
    others = [o for o in graded[name].values() if o["id"] not in answers]
    assert others and all(o["points"] == o["max"] for o in others), others  # the solution's


def _plain_tests():
    """tests/course/test_grading_plain.py, for its ``_inline`` (a check run as in a notebook)."""
    spec = importlib.util.spec_from_file_location(
        "grading_plain", Path(__file__).with_name("test_grading_plain.py"))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="module")
def inline():
    return _plain_tests()._inline


@pytest.mark.parametrize("name", sorted(INLINE))
def test_another_shortcut_scores_what_its_method_deserves(inline, monkeypatch, name):
    """The check inline, with the answer cell's text read by ``q.refuse`` as the grader reads
    it (inline, ``answer_source_inline`` reads it from IPython's history)."""
    qid, answer, points, words = INLINE[name]
    monkeypatch.setattr(checks, "answer_source_inline",
                        lambda asked: f"# Answer {qid}\n{answer}" if asked == qid else None)
    result = inline(qid, answer)
    assert result["points"] == points, result
    assert words in result["feedback"], result
