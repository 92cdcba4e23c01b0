"""The check helpers that check cells call, in the notebook and under the grader.

A check cell reads like a short test::

    with question("01.1", points=2, answers=("grad_x",)) as q:
        q.close("grad_x", grad_x, torch_value)

    def _probe(values):                      # calls the learner's code, returns plain data
        w = torch.tensor(values, requires_grad=True)
        weighted_loss(w).backward()
        return w.grad

    with question("05.4", points=2, answers=()) as q:
        q.close("w.grad", q.observe(_probe, [1.0, 2.0]), expected)

The first failed expectation stops the question, scores it 0 and prints one line of feedback;
otherwise the question gets its points, less those of a failed ``q.method`` (see there: a fact
about *how* the learner's code works, which only the learner's process can report, is worth
little and never stops the question).

Inline (in the learner's notebook) ``answers`` are the notebook's variables and
``q.observe(fn, *args)`` calls ``fn``. Under the grader (``coursekit.grading.trusted``) the check
runs in the grader's own process: the ``answers`` are fetched from the learner's process as
plain data and rebuilt, and ``q.observe`` sends ``fn``'s source to the learner's process and
gets back what it returned (or raised) as plain data (``coursekit.grading.plain``). Both ways
the check sees the same rebuilt values, so its feedback is the same. Expected values are only
ever computed in the check's own process.

Feedback is for an honest learner: it says what was expected and what came back (a float where
a tensor is due reads "expected a tensor from your code, got float", not the AttributeError the
observation function raised on it), and it is bounded (``FEEDBACK_CAP`` characters; names and
messages of the learner's errors are cut), since every string the learner's process sends is
the learner's.
"""

from __future__ import annotations

import ast
import re
import sys

import numpy as np
import torch

import minigrad
from coursekit.grading import plain
from coursekit.i18n import N_, _

RESULTS: dict[str, dict] = {}
FEEDBACK_CAP = 1000  # characters of one question's feedback
MESSAGE_CAP = 300  # characters of a learner's error message quoted in feedback
VALUE_CAP = 300  # characters of a value shown in feedback
_NO_ATTRIBUTE = re.compile(r"^'(\w{1,100})' object has no attribute '(\w{1,100})'$")


class CheckFailed(Exception):
    """One expectation of a question was not met; the message is the learner's feedback."""


def is_tensor(value) -> bool:
    return hasattr(value, "detach") and hasattr(value, "numpy") and hasattr(value, "grad_fn")


def as_array(value):
    """Numbers, lists, minigrad and torch tensors as float64 NumPy arrays (None stays None)."""
    if value is None:
        return None
    if isinstance(value, plain.LearnerObject):
        raise TypeError(value.type_name)
    if is_tensor(value):
        return np.asarray(value.detach().numpy(), dtype=np.float64)
    return np.asarray(value, dtype=np.float64)


def _dtype(t) -> str:
    """A tensor's dtype without its library: ``float32`` for torch's and minigrad's alike."""
    return str(t.dtype).rsplit(".", 1)[-1]


def _kind(value) -> str:
    if isinstance(value, plain.LearnerObject):
        return value.type_name
    return type(value).__name__


def _short(text: str, cap: int) -> str:
    return text if len(text) <= cap else text[:cap - 3] + "..."


def _fmt(a) -> str:
    a = np.asarray(a)
    if a.ndim == 0:
        return f"{float(a):.4g}"
    return _short(" ".join(np.array2string(a, precision=4, separator=", ", threshold=50)
                           .split()), VALUE_CAP)  # one line


def compare(name: str, got, want, hints: dict | None = None, mistakes=(), rtol=1e-4,
            atol=1e-6, reveal: bool = True, tensor: bool = False) -> str | None:
    """Why ``got`` is not ``want`` (``None`` when they agree), in words a learner can act on.

    ``hints`` maps a mistake's name to its explanation; the mistakes recognised are
    ``"double"``/``"half"`` (off by a factor 2), ``"negated"``, ``"zero"`` and ``"none"``.
    ``mistakes`` lists ``(wrong value, explanation)`` pairs for mistakes known in advance.
    ``reveal=False`` (a "predict the value" question) never prints the expected value, nor how
    the answer relates to it ("twice the right value" would give it away): only the idea.
    ``tensor=True``: ``got`` must be a tensor (an implementation's result), of ``want``'s shape
    and (when ``want`` is a tensor) dtype.
    Numbers, lists, arrays and tensors are otherwise equivalent forms of an answer; a tensor or
    array of the right size but another shape is wrong.
    """
    hints = hints or {}
    w = as_array(want)
    if got is None:
        return _("`{name}` is None").format(name=name) + _with(hints.get("none"))
    if got is Ellipsis:
        return _("`{name}` is still `...`: replace it with your answer").format(name=name)
    if tensor and not is_tensor(got):
        return _("`{name}`: expected a tensor, got {kind}").format(name=name, kind=_kind(got))
    if tensor and is_tensor(want) and _dtype(got) != _dtype(want):
        return _("`{name}` has dtype {got}, expected {want}").format(
            name=name, got=_dtype(got), want=_dtype(want))
    try:
        g = as_array(got)
    except (TypeError, ValueError):
        return _("`{name}` should be a number or a tensor, not {kind}").format(
            name=name, kind=_kind(got))
    shaped = is_tensor(got) or isinstance(got, np.ndarray)
    if g.shape != w.shape and (g.size != w.size or shaped and g.size > 1):
        return _("`{name}` has shape {got}, expected {want}").format(
            name=name, got=list(g.shape), want=list(w.shape))
    g = g.reshape(w.shape)
    if np.allclose(g, w, rtol=rtol, atol=atol):
        return None
    expected = _(", expected {value}").format(value=_fmt(w)) if reveal else ""
    for wrong, words in mistakes:
        if np.allclose(g, as_array(wrong).reshape(w.shape), rtol=rtol, atol=atol):
            return _("your `{name}` is {value}{expected}: {why}").format(
                name=name, value=_fmt(g), expected=expected, why=words)
    for key, factor, words in (("double", 2.0, N_("your `{name}` is twice the right value "
                                                   "({value})")),
                               ("half", 0.5, N_("your `{name}` is half the right value "
                                                "({value})")),
                               ("negated", -1.0, N_("your `{name}` is minus the right value "
                                                    "({value})"))):
        if np.any(w != 0) and np.allclose(g, factor * w, rtol=rtol, atol=atol):
            if not reveal:  # "half the right value" would give the value away: only the idea
                return _("your `{name}` ({value}) is not right").format(name=name, value=_fmt(g)) \
                    + _with(hints.get(key, _(REVISIT)))
            return _(words).format(name=name, value=_fmt(w)) + _with(hints.get(key))
    if np.all(g == 0) and "zero" in hints:
        return _("your `{name}` is zero").format(name=name) + _with(hints["zero"])
    if not reveal:
        return _("your `{name}` ({value}) is not right").format(name=name, value=_fmt(g)) \
            + _with(hints.get("other", _(REVISIT)))
    where = np.argmax(np.abs(g - w)) if g.ndim else None
    off = "" if where is None or g.size < 2 else _(
        " (largest difference at index {index}: {got} instead of {want})").format(
            index=[int(i) for i in np.unravel_index(where, g.shape)],
            got=_fmt(g.flat[where]), want=_fmt(w.flat[where]))
    return _("your `{name}` is {value}{expected}{off}").format(
        name=name, value=_fmt(g), expected=expected, off=off) + _with(hints.get("other"))


def _with(explanation) -> str:
    """``": explanation"`` after a verdict, or nothing."""
    return _(": {why}").format(why=explanation) if explanation else ""


REVISIT = N_("work it through again step by step, as in the lesson")


class Question:
    """One graded question: expectations, then a score and feedback.

    ``answers`` names the learner's variables the check reads. Under the grader, ``observer``
    carries observations to the learner's process and ``results`` receives the verdict (nothing
    is printed); inline, ``observe`` calls the function itself.
    """

    def __init__(self, qid: str, points: float, answers=(), *, observer=None, results=None,
                 answer_source: str | None = None):
        self.id, self.points, self.answers = qid, points, tuple(answers)
        self._observer = observer
        self._answer_source = answer_source
        self._results = RESULTS if results is None else results
        self._more = False
        self._method: tuple[float, str] | None = None  # the first failed ``method`` fact

    def observe(self, fn, *args, **kwargs):
        """What ``fn(*args, **kwargs)`` returns (or raises) where the learner's code runs, as
        rebuilt plain data (``coursekit.grading.plain``); ``fn`` is a top-level function of
        the check cell and the arguments are plain data."""
        if self._observer is not None:
            outcome = self._observer(fn.__name__, args, kwargs)
        else:
            try:
                outcome = {"returned": plain.encode(fn(*args, **kwargs))}
            except Exception as error:  # noqa: BLE001 - the learner's error is an observation
                outcome = {"raised": plain.encode_error(error, fn.__code__.co_filename)}
        if "raised" in outcome:
            error = plain.rebuild_error(outcome["raised"])
            error.observed_input = _inputs(args, kwargs)  # for ``explain``, if uncaught
            raise error
        return plain.decode(outcome["returned"])

    def more_when_graded(self) -> None:
        """Put where the solution has hidden tests: a pass inline is not the final word."""
        self._more = True

    def close(self, name: str, got, want, hints: dict | None = None, mistakes=(),
              **options) -> None:
        """``got`` must equal ``want`` (numbers or tensors, within a small tolerance). The
        expected value is not shown when ``name`` is one of the question's ``answers`` (a
        "predict" answer), unless ``reveal=True``."""
        options.setdefault("reveal", name not in self.answers)
        if self._observer is None and name in self.answers:
            got = plain.decode(plain.encode(got))  # what the grader will see of it
        message = compare(name, got, want, hints, mistakes, **options)
        if message is not None:
            raise CheckFailed(message)

    def need_tensor(self, name: str, got) -> None:
        """``got`` must be a tensor (not a number, a list or another object)."""
        if not is_tensor(got):
            raise CheckFailed(_("`{name}`: expected a tensor, got {kind}").format(
                name=name, kind=_kind(got)))

    def method(self, condition, feedback: str, points: float = 1) -> None:
        """``condition`` is a fact about *how* the learner's code works (how many times it
        called ``f``, whether it returned ``w`` itself, whether it used a ready-made function)
        that only the learner's process can report: the observation function computes it beside
        the learner's code, which can reset a counter through ``f.__closure__``, or send any
        reply at all. Forging it costs nothing, so it is worth at most ``points`` of the
        question (1 by default; the question's values, which the grader verifies, earn the
        rest), and a failed one does not stop the question: when every other expectation
        holds, the question scores its points less the largest of its failed facts', with the
        first failed fact's ``feedback``; when a later one fails, it scores 0 with that same
        feedback (the first problem found, as if the fact had stopped the question)."""
        if not condition:
            lost = min(float(points), float(self.points))
            if self._method is None or lost > self._method[0]:
                self._method = (lost, feedback if self._method is None else self._method[1])

    def refuse(self, names, feedback: str) -> None:
        """The question's answer cells must not use any of ``names`` (a ready-made API such as
        ``hvp``, or ``torch`` in a NumPy-only engine): the first one found stops the question
        with ``feedback``. Unlike ``method``, this is a fact the grader establishes itself,
        from the text of the submitted notebook (``grader.answer_sources``), so it costs the
        whole question. Inline it reads the answer cell from the notebook's input history
        (``answer_source_inline``); with no source to read, it checks nothing."""
        source = self._answer_source if self._observer is not None else answer_source_inline(
            self.id)
        found = names_used(source or "") & set(names)
        if found:
            raise CheckFailed(_("your answer uses {names}: {why}").format(
                names=", ".join(sorted(found)), why=feedback))

    def true(self, condition, feedback: str) -> None:
        if not condition:
            raise CheckFailed(feedback)

    def fail(self, feedback: str) -> None:
        raise CheckFailed(feedback)

    def __enter__(self):
        self._method = None
        return self

    def _record(self, points, feedback: str) -> None:
        feedback = _short(feedback, FEEDBACK_CAP)
        self._results[self.id] = {"id": self.id, "points": points, "max": self.points,
                                  "feedback": feedback}
        if self._observer is not None:
            return
        mark = "✓" if points == self.points else "✗"
        print(_("{mark} {id}: {points}/{max} points · {feedback}").format(
            mark=mark, id=self.id, points=_num(points), max=_num(self.points), feedback=feedback))

    def __exit__(self, kind, error, tb) -> bool:
        if kind is None and self._method is not None:
            lost, feedback = self._method
            points = self.points - lost
            self._record(int(points) if float(points).is_integer() else points,
                         _("right values, but {why}").format(why=feedback))
        elif kind is None:
            self._record(self.points, _("passes the visible checks; grading runs more")
                         if self._more else _("correct"))
        elif self._method is not None and issubclass(kind, Exception):
            # the failed fact came first: it is what to fix (what failed after it may only
            # follow from it, a value or a key the observation did not make)
            self._record(0, self._method[1])
        else:
            self._record(0, explain(error))
        return kind is None or issubclass(kind, Exception)


def explain(error: BaseException) -> str:
    """Feedback for an exception raised while checking a question."""
    if isinstance(error, CheckFailed):
        return str(error)
    if isinstance(error, NotImplementedError):
        return _("not answered yet: this raises NotImplementedError (replace the stub)")
    if isinstance(error, NameError):
        return _("{error}: run your answer cell (and the cells above it) first").format(
            error=error)
    if isinstance(error, plain.DecodeError):
        return _("no verdict: what your code returned could not be read")
    name = error.type_name if isinstance(error, plain.LearnerError) else type(error).__name__
    message = error.message if isinstance(error, plain.LearnerError) else str(error)
    name, message = _short(name, 100), _short(message, MESSAGE_CAP)
    inputs = getattr(error, "observed_input", None)
    if inputs is not None and getattr(error, "in_check", False) \
            and isinstance(error, AttributeError | TypeError):
        # the check's observation function raised it on what the learner's code gave it
        missing = _NO_ATTRIBUTE.match(message) if isinstance(error, AttributeError) else None
        if missing and _is_tensor_attribute(missing.group(2)):
            got = "None" if missing.group(1) == "NoneType" else _("a {type}").format(
                type=missing.group(1))
            return _("expected a tensor from your code, got {got}: the check needs its "
                     "`.{attribute}` (called by the check with {inputs})").format(
                         got=got, attribute=missing.group(2), inputs=inputs)
        return _("the check could not use what your code gave it ({name}: {message}; called "
                 "by the check with {inputs})").format(name=name, message=message, inputs=inputs)
    if inputs is not None:  # the learner's code raised it, called by the check on these inputs
        return _("your code raised {name}: {message} (called by the check with {inputs})").format(
            name=name, message=message, inputs=inputs)
    return _("checking your answer raised {name}: {message}").format(name=name, message=message)


def _is_tensor_attribute(name: str) -> bool:
    """Whether torch's or minigrad's tensors have an attribute ``name`` (``grad_fn``,
    ``backward``, ``shape``...): one the check reads only because it expects a tensor."""
    return hasattr(torch.Tensor, name) or hasattr(minigrad.Tensor, name)


def _inputs(args, kwargs) -> str:
    """The check's plain inputs of an observation, short, for feedback."""
    shown = [repr(a) for a in args] + [f"{k}={v!r}" for k, v in kwargs.items()]
    text = ", ".join(shown) or _("no arguments")
    return text if len(text) <= 120 else text[:117] + "..."


def _num(x) -> str:
    return str(int(x)) if float(x).is_integer() else str(x)


def names_used(source: str) -> set[str]:
    """The outside names ``source`` reaches for: attributes (``torch.autograd.functional.hvp``
    gives ``autograd``, ``functional``, ``hvp``), imported modules and their parts, and the
    names it reads without binding them itself (``torch``; a learner's own ``def hvp`` or
    variable ``hessian`` is theirs, not the API). Code that does not parse is read word by
    word instead."""
    try:
        tree = ast.parse(source)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return set(re.findall(r"[A-Za-z_][A-Za-z0-9_]*", source))
    found, read, bound = set(), set(), set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Name):
            (read if isinstance(node.ctx, ast.Load) else bound).add(node.id)
        elif isinstance(node, ast.Attribute):
            found.add(node.attr)
        elif isinstance(node, ast.alias):
            found.update(node.name.split("."))
        elif isinstance(node, ast.ImportFrom) and node.module:
            found.update(node.module.split("."))
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            bound.add(node.name)
        elif isinstance(node, ast.arg):
            bound.add(node.arg)
    return found | (read - bound)


READY_MADE = ("torch/autograd/functional.py", "torch/_functorch/",
              "minigrad/autograd/functional.py", "minigrad/func/")


def ready_made_caller() -> str | None:
    """Called from inside a function the learner's code was given: the ready-made
    differentiation API (``torch.autograd.functional``, ``torch.func``, or minigrad's) on the
    call stack, if any; a probe records it. The learner's process reports it, so it can only
    ever lower a score (``q.refuse`` is the grader's own check of the same thing)."""
    frame = sys._getframe(1)
    while frame is not None:
        path = frame.f_code.co_filename.replace("\\", "/")
        for part in READY_MADE:
            if part in path:
                return part.rstrip("/").removesuffix(".py").replace("/", ".")
        frame = frame.f_back
    return None


def answer_source_inline(qid: str) -> str | None:
    """The last cell run in this notebook whose first line is ``# Answer <qid>`` (every answer
    cell starts so, in a translation with its word for "Answer"), read from IPython's input
    history; None outside IPython."""
    try:
        from IPython import get_ipython
    except ImportError:
        return None
    shell = get_ipython()
    history = shell.user_ns.get("In", []) if shell is not None else []
    # "# Answer 12.2", or its translation ("# Ответ 12.2", "# 解答 12.2")
    first_line = re.compile(rf"#\s*\w+\s*{re.escape(qid)}(?![\d.])")
    for text in reversed(history):
        if isinstance(text, str) and first_line.match(text.lstrip().split("\n", 1)[0]):
            return text
    return None


def question(qid: str, points: float = 1, answers=()) -> Question:
    """Open the checks of question ``qid`` (use it as ``with question(...) as q:``);
    ``answers``: the names of the learner's variables the check reads."""
    return Question(qid, points, answers)
