"""The trusted run of a solution's check cell: in the grader's own process, never the learner's.

The check cell (``coursekit.grading.checks``) names the learner's variables it reads
(``question(..., answers=(...))``) and calls the learner's functions only through
``q.observe(fn, *args)``. Here:

* the named variables are fetched from the learner's process (the kernel's ``observe`` op) as
  plain data and rebuilt (``coursekit.grading.plain.decode``) into the check's namespace;
* ``q.observe(fn, ...)`` sends ``fn``'s source, cut out of the check cell with ``ast`` together
  with the check cell's other top-level functions it calls, plus the plain arguments; the
  learner's process runs it on a copy of its namespace and sends back what it returned (or the
  exception it raised) as plain data, rebuilt here;
* everything else (torch's expected values, hints, the verdict) runs here only.

So expected values never enter the learner's process, and nothing the learner's process sends
can run code here: what it sends is only ever rebuilt into plain Python, NumPy, torch or
minigrad objects by our code. Trusted runs take a lock, because minigrad's grad mode,
``warnings`` and ``sys.stdout`` are process-wide and ``grade()`` may be called from threads.
The class command line never shares it between classmates: it grades each notebook in a
process of its own (``coursekit.grading.worker``), so a slow observation or a costly rebuild
only ever spends its own notebook's time. (Callers of ``grade()`` in threads share the lock;
the waiting is not counted against a notebook's time limit.)
"""

from __future__ import annotations

import ast
import contextlib
import io
import json
import math
import threading
import time
import warnings

from coursekit.grading import plain
from coursekit.grading.checks import Question
from coursekit.grading.runner import KernelDied

# One lock for the grader's threads (``-j N``): checks run one at a time (they patch stdout and
# warnings), and so does everything that builds Python AST objects (``ast.parse``, also inside
# jupytext's ``literal_eval``): CPython 3.11 keeps one recursion counter for that per interpreter,
# so two threads parsing at once can fail with "SystemError: AST constructor recursion depth
# mismatch" (seen here in a class batch; see python/cpython#106905). Re-entrant: a check's
# ``q.observe`` parses inside it.
LOCK = threading.RLock()
FEEDBACK_CAP = 1000  # characters of feedback kept


def clean_points(value, maximum: float) -> float | None:
    """Points as a number in [0, maximum], or None when they are not a finite real number."""
    if isinstance(value, bool) or not isinstance(value, int | float):
        return None
    try:
        value = float(value)
    except OverflowError:
        return None
    if not math.isfinite(value):
        return None
    value = min(max(value, 0.0), float(maximum))
    return int(value) if value.is_integer() else value


class Stop(BaseException):  # noqa: N818 - not an error of the check: it ends the trusted run
    """The learner's process died or answered nonsense during an observation: no verdict."""

    def __init__(self, died: KernelDied | None, reason: str = ""):
        super().__init__(reason or (died.reason if died else ""))
        self.died, self.reason = died, reason


def parse(source: str) -> ast.Module:
    """``ast.parse``, one thread at a time (see ``LOCK``)."""
    with LOCK:
        return ast.parse(source)


def answers_of(check_source: str) -> tuple[str, ...] | None:
    """The ``answers=`` names of the check's ``question(...)`` call, or None when it names
    none (then the check reads no learner variable)."""
    for node in ast.walk(parse(check_source)):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) \
                and node.func.id == "question":
            for keyword in node.keywords:
                if keyword.arg == "answers":
                    names = ast.literal_eval(keyword.value)
                    if not all(isinstance(n, str) and n.isidentifier() for n in names):
                        raise ValueError(f"answers must be variable names: {names!r}")
                    return tuple(names)
    return None


def observation_source(check_source: str, name: str) -> str:
    """The source of the check cell's top-level function ``name`` and of the check cell's other
    top-level functions it calls (transitively), in the cell's order."""
    tree = parse(check_source)
    functions = {node.name: node for node in tree.body if isinstance(node, ast.FunctionDef)}
    if name not in functions:
        raise ValueError(f"q.observe needs a top-level function of the check cell, not {name!r}")
    wanted, todo = set(), [name]
    while todo:
        current = todo.pop()
        if current in wanted:
            continue
        wanted.add(current)
        todo += [n.id for n in ast.walk(functions[current])
                 if isinstance(n, ast.Name) and n.id in functions]
    with LOCK:
        return "\n\n\n".join(ast.unparse(node) for node in tree.body
                             if isinstance(node, ast.FunctionDef) and node.name in wanted)


def _plain_args(value):
    """Observation arguments as JSON (tuples become lists); anything else is a check bug."""
    text = json.dumps(value, allow_nan=False)
    return json.loads(text)


def base_namespace(setup_sources: list[str]) -> dict:
    """The namespace the solution's set-up cells make (imports), for every check of it."""
    namespace: dict = {"__name__": "__check__"}
    with LOCK, warnings.catch_warnings(), contextlib.redirect_stdout(io.StringIO()):
        warnings.simplefilter("ignore")
        for source in setup_sources:
            exec(compile(source, "<solution set-up>", "exec"), namespace)
    return namespace


def _outcome(reply: dict) -> dict:
    """The kernel's observation reply as ``{"returned": data}`` or ``{"raised": error}``."""
    if reply.get("status") != "ok":
        raise Stop(None, f"the observation failed ({reply.get('ename')})")
    try:
        outcome = json.loads(reply["result"])
    except (ValueError, RecursionError):
        raise Stop(None, "the observation's reply was malformed") from None
    if not isinstance(outcome, dict) or len(outcome) != 1 or not (
            "returned" in outcome or isinstance(outcome.get("raised"), dict)):
        raise Stop(None, "the observation's reply was malformed")
    return outcome


def run_check(qid: str, points: float, source: str, base: dict, session,
              answer_source: str = "") -> dict:
    """Run the check cell ``source`` of question ``qid`` here, observing the learner's process
    through ``session`` (``grader.Session``); ``answer_source`` is the text of the learner's
    answer cells for ``qid``, as the grader read it from the notebook (``q.refuse``). Returns
    ``{"points", "feedback"}``; raises ``Stop`` when the learner's process died or answered
    nonsense."""
    names = answers_of(source) or ()
    results: dict[str, dict] = {}

    def call(request: dict) -> dict:
        try:
            return session.observe(request)
        except KernelDied as died:
            raise Stop(died) from None

    def observer(fn_name: str, args, kwargs) -> dict:
        return _outcome(call({"source": observation_source(source, fn_name), "call": fn_name,
                              "args": _plain_args(list(args)),
                              "kwargs": _plain_args(dict(kwargs))}))

    def question(check_id: str, points: float = 1, answers=()) -> Question:
        return Question(check_id, points, answers, observer=observer, results=results,
                        answer_source=answer_source if check_id == qid else "")

    namespace = dict(base)
    if names:
        reply = call({"names": list(names)})
        if reply.get("status") != "ok":
            raise Stop(None, "the answers could not be read")
        try:
            values = json.loads(reply["result"])
            assert isinstance(values, dict) and set(values) == set(names)
            for name, data in values.items():
                if data != {"$": "missing"}:
                    namespace[name] = plain.decode(data)
        except (ValueError, AssertionError, RecursionError, TypeError):
            return {"points": 0, "feedback": "no verdict: your answers could not be read"}
    namespace["question"] = question
    waiting = time.monotonic()
    with LOCK, warnings.catch_warnings(), contextlib.redirect_stdout(io.StringIO()):
        # the time spent waiting for another notebook's checks is not this notebook's
        session.deadline += time.monotonic() - waiting
        warnings.simplefilter("ignore")
        exec(compile(source, f"<check {qid}>", "exec"), namespace)
    found = results.get(qid)
    if found is None:
        return {"points": 0, "feedback": "no verdict: the checks gave no result"}
    score = clean_points(found["points"], points)
    if score is None or not isinstance(found["feedback"], str):
        return {"points": 0, "feedback": "no verdict: the checks' result was malformed"}
    return {"points": score, "feedback": found["feedback"][:FEEDBACK_CAP]}
