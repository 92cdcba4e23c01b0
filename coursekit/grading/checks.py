"""The check helpers that check cells call, in the notebook and under the grader.

A check cell reads like a short test::

    with question("01.1", points=2) as q:
        q.close("grad_x", grad_x, torch_value)

The first failed expectation stops the question, scores it 0 and prints one line of feedback;
otherwise the question gets its points. Results also go to ``RESULTS``, which the grader reads
from a freshly imported copy of this module, so a learner who redefines ``question`` (or this
module's names) in their notebook cannot change what the grader sees.
"""

from __future__ import annotations

import numpy as np

RESULTS: dict[str, dict] = {}


class CheckFailed(Exception):
    """One expectation of a question was not met; the message is the learner's feedback."""


def as_array(value):
    """Numbers, lists, minigrad and torch tensors as float64 NumPy arrays (None stays None)."""
    if value is None:
        return None
    if hasattr(value, "detach") and hasattr(value, "numpy"):
        return np.asarray(value.detach().numpy(), dtype=np.float64)
    return np.asarray(value, dtype=np.float64)


def _fmt(a) -> str:
    a = np.asarray(a)
    if a.ndim == 0:
        return f"{float(a):.4g}"
    return np.array2string(a, precision=4, separator=", ")


def compare(name: str, got, want, hints: dict | None = None, mistakes=(), rtol=1e-4,
            atol=1e-6) -> str | None:
    """Why ``got`` is not ``want`` (``None`` when they agree), in words a learner can act on.

    ``hints`` maps a mistake's name to its explanation; the mistakes recognised are
    ``"double"``/``"half"`` (off by a factor 2), ``"negated"``, ``"zero"`` and ``"none"``.
    ``mistakes`` lists ``(wrong value, explanation)`` pairs for mistakes known in advance.
    """
    hints = hints or {}
    w = as_array(want)
    if got is None:
        return f"`{name}` is None" + (f": {hints['none']}" if "none" in hints else "")
    if got is Ellipsis:
        return f"`{name}` is still `...`: replace it with your answer"
    try:
        g = as_array(got)
    except (TypeError, ValueError):
        return f"`{name}` should be a number or a tensor, not {type(got).__name__}"
    if g.shape != w.shape and g.size != w.size:
        return f"`{name}` has shape {list(g.shape)}, expected {list(w.shape)}"
    g = g.reshape(w.shape)
    if np.allclose(g, w, rtol=rtol, atol=atol):
        return None
    for wrong, words in mistakes:
        if np.allclose(g, as_array(wrong).reshape(w.shape), rtol=rtol, atol=atol):
            return f"your `{name}` is {_fmt(g)}, expected {_fmt(w)}: {words}"
    for key, factor, words in (("double", 2.0, "twice"), ("half", 0.5, "half"),
                               ("negated", -1.0, "minus")):
        if np.any(w != 0) and np.allclose(g, factor * w, rtol=rtol, atol=atol):
            return f"your `{name}` is {words} the right value ({_fmt(w)})" + (
                f": {hints[key]}" if key in hints else "")
    if np.all(g == 0) and "zero" in hints:
        return f"your `{name}` is zero: {hints['zero']}"
    return f"your `{name}` is {_fmt(g)}, expected {_fmt(w)}" + (
        f": {hints['other']}" if "other" in hints else "")


class Question:
    """One graded question: expectations, then a score and feedback."""

    def __init__(self, qid: str, points: float):
        self.id, self.points = qid, points

    def close(self, name: str, got, want, hints: dict | None = None, mistakes=(),
              **tol) -> None:
        """``got`` must equal ``want`` (numbers or tensors, within a small tolerance)."""
        message = compare(name, got, want, hints, mistakes, **tol)
        if message is not None:
            raise CheckFailed(message)

    def true(self, condition, feedback: str) -> None:
        if not condition:
            raise CheckFailed(feedback)

    def fail(self, feedback: str) -> None:
        raise CheckFailed(feedback)

    def __enter__(self):
        return self

    def _record(self, points, feedback: str) -> None:
        RESULTS[self.id] = {"id": self.id, "points": points, "max": self.points,
                            "feedback": feedback}
        mark = "✓" if points == self.points else "✗"
        print(f"{mark} {self.id}: {_num(points)}/{_num(self.points)} points · {feedback}")

    def __exit__(self, kind, error, tb) -> bool:
        if kind is None:
            self._record(self.points, "correct")
        else:
            self._record(0, explain(error))
        return kind is None or issubclass(kind, Exception)


def explain(error: BaseException) -> str:
    """Feedback for an exception raised while checking a question."""
    if isinstance(error, CheckFailed):
        return str(error)
    if isinstance(error, NotImplementedError):
        return "not answered yet: this raises NotImplementedError (replace the stub)"
    if isinstance(error, NameError):
        return f"{error}: run your answer cell (and the cells above it) first"
    return f"checking your answer raised {type(error).__name__}: {error}"


def _num(x) -> str:
    return str(int(x)) if float(x).is_integer() else str(x)


def question(qid: str, points: float = 1) -> Question:
    """Open the checks of question ``qid`` (use it as ``with question(...) as q:``)."""
    return Question(qid, points)
