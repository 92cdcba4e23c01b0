"""Our own red team against the plain-data bridge and the method checks (issue 21, attacks 6, 8
and 12), and the honest learner's feedback.

* Forged replies: whatever plain data the learner's process sends, ``plain.decode`` returns a
  value or raises ``DecodeError`` (never another exception), in time linear in the data's size
  (a hypothesis fuzzer, and the floods: 40,000 ints or 2-tuples that all hash alike, huge
  strings, deep nesting, shapes and dtypes that lie), with every string it returns bounded.
* Learner-controlled names are bounded on the way out too (``encode``: a class named with
  450,000 newlines) and in the feedback ``checks`` builds.
* Method checks: a fact only the learner's process can report (how many times ``f`` was called,
  whether ``w`` came back itself...) is worth 1 point of its question (``Question.method``), and
  the values the grader verifies earn the rest. Each method check of the solutions is run on an
  answer with the right values and the wrong method: it loses exactly that 1 point and says why.
  02.3 is graded with the real grader, also with the counter reset through ``f.__closure__``:
  the forgery gains at most the 1 trusted point, and with wrong values it gains nothing.
"""

from __future__ import annotations

import ast
import json
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import jupytext
import nbformat
import pytest
import torch
from hypothesis import given, settings
from hypothesis import strategies as st

import minigrad
from coursekit.grading import checks, kernel, plain
from coursekit.grading.grader import grade
from coursekit.grading.runner import Limits, sandbox_available

ROOT = Path(__file__).resolve().parents[2]
SOLUTIONS = ROOT / "solutions"
P61 = (1 << 61) - 1  # an int n hashes like n + k * P61
SECONDS_PER_BYTE = 2e-6  # ten times what decoding takes here for the slowest kind of data


# --- forged replies against decode ----------------------------------------------------------

def _decoded(data):
    """``decode(data)``, or the DecodeError; any other exception fails the test."""
    try:
        return plain.decode(data)
    except plain.DecodeError as error:
        return error


def _timed(data) -> tuple[object, float, int]:
    """``decode(data)``, the processor time it took and the size of ``data`` as JSON. Processor
    time, not the wall clock: a quadratic decode is slow in both, but only the wall clock also
    counts the time other processes hold the CPU (12 times the work, seen with the suite's two
    workers and three other test runs sharing two cores)."""
    size = len(json.dumps(data))
    start = time.process_time()
    out = _decoded(data)
    return out, time.process_time() - start, size


def _strings(value, depth=0):
    """Every string a decoded value holds (names of objects and errors included)."""
    if isinstance(value, str):
        yield value
    elif isinstance(value, plain.LearnerObject):
        yield value.type_name
    elif isinstance(value, plain.LearnerError):
        yield value.type_name
        yield value.message
    elif isinstance(value, BaseException):
        yield str(value)
    elif isinstance(value, list | tuple | set):
        for item in value:
            yield from _strings(item, depth + 1)
    elif isinstance(value, dict):
        for key, item in value.items():
            yield from _strings(key, depth + 1)
            yield from _strings(item, depth + 1)


KINDS = ["tuple", "set", "dict", "float", "ellipsis", "tensor", "ndarray", "npscalar", "error",
         "object", "missing", "code"]
FIELDS = ["$", "items", "lib", "dtype", "shape", "data", "requires_grad", "is_leaf", "grad_fn",
          "grad", "value", "type", "builtin", "message", "in_check"]
_leaf = (st.none() | st.booleans() | st.integers() | st.integers(-3, 3).map(lambda k: 7 + k * P61)
         | st.floats() | st.text(max_size=6) | st.sampled_from(
             KINDS + ["torch", "minigrad", "float32", "int8", "bool", "bool_", "nan", "inf",
                      "RuntimeError", "AttributeError"]))


def _tagged(inner):
    """A dict that looks like an encoded form: a known (or unknown) "$" and random fields."""
    return st.builds(lambda kind, fields: {"$": kind, **fields}, st.sampled_from(KINDS),
                     st.dictionaries(st.sampled_from(FIELDS[1:]), inner, max_size=6))


FORGED = st.recursive(_leaf, lambda inner: st.lists(inner, max_size=6) | _tagged(inner)
                      | st.dictionaries(st.text(max_size=3), inner, max_size=3), max_leaves=40)


@settings(max_examples=400, deadline=None)
@given(FORGED)
def test_a_forged_reply_is_a_value_or_a_decode_error_never_anything_else(data):
    out, seconds, size = _timed(data)
    assert seconds < 0.05 + SECONDS_PER_BYTE * size, (seconds, size)
    if not isinstance(out, plain.DecodeError):
        for text in _strings(out):
            assert len(text) <= plain.MAX_TEXT + plain.MAX_NAME + 2


@settings(max_examples=150, deadline=None)
@given(st.integers(1, 30), st.sampled_from(["float32", "float64", "int8", "int64", "bool"]),
       st.lists(st.integers(-2, 6), max_size=4), st.sampled_from(["torch", "minigrad"]),
       st.one_of(st.floats(), st.integers(-300, 300), st.booleans()))
def test_tensors_with_lying_shapes_dtypes_and_values(n, dtype, shape, lib, fill):
    """Shapes that do not match the data, negative sizes, values out of a dtype's range (an
    int8 of 300), NaN in an int tensor: a tensor of the declared shape, or a DecodeError."""
    data = {"$": "tensor", "lib": lib, "dtype": dtype, "shape": shape, "data": [fill] * n,
            "requires_grad": True}
    out = _decoded(data)
    if not isinstance(out, plain.DecodeError):
        assert list(out.shape) == shape == [n] and out.requires_grad == out.dtype.is_floating_point
    array = {"$": "ndarray", "dtype": dtype, "shape": shape, "data": [fill] * n}
    out = _decoded(array)
    assert isinstance(out, plain.DecodeError) or list(out.shape) == shape


def _colliding_pairs(count: int) -> list[tuple[int, int]]:
    """2-tuples of small ints that all have one hash: CPython 3.11's tuple hash (xxHash's
    round) is invertible in the last item's hash, and an int below 2**61 - 1 is its own hash."""
    mask, x1, x2, x5 = (1 << 64) - 1, 11400714785074694791, 14029467366897019727, \
        2870177450012600261
    inverse = pow(x2, -1, 1 << 64)
    pairs, a = [], 0
    while len(pairs) < count:
        a += 1
        acc = (x5 + a * x2) & mask
        acc = (((acc << 31) | (acc >> 33)) & mask) * x1 & mask
        lane = (12345 - acc) * inverse & mask
        lane = lane - (1 << 64) if lane >= 1 << 63 else lane
        if -P61 < lane < P61 and lane != -1:
            pairs.append((a, lane))
    return pairs


def _deep(levels):
    data = 0
    for _ in range(levels):
        data = [data]
    return data


def _floods() -> dict[str, object]:
    pairs = _colliding_pairs(40_000)
    assert len({hash(p) for p in pairs}) == 1  # the attack is real
    tuples = [{"$": "tuple", "items": list(p)} for p in pairs]
    return {
        "ints hashing alike": {"$": "set", "items": [7 + k * P61 for k in range(41_000)]},
        "ints hashing alike, in range": {"$": "set", "items": [7 + k * P61 for k in (-1, 0, 1)]
                                         * 20_000},
        "tuples hashing alike (set)": {"$": "set", "items": tuples[:20_000]},
        "tuples hashing alike (dict)": {"$": "dict", "items": [[t, 0] for t in tuples[:20_000]]},
        "floats hashing alike": {"$": "set", "items": [2.0 ** (61 * k) for k in range(16)]
                                 + [-(2.0 ** (61 * k)) for k in range(16)]},
        "a flat list": list(range(45_000)),
        "a set of distinct ints": {"$": "set", "items": list(range(45_000))},
        "a dict of distinct ints": {"$": "dict", "items": [[i, i] for i in range(30_000)]},
        "many small tensors": [{"$": "tensor", "lib": "torch", "dtype": "float32", "shape": [1],
                                "data": [0.5]} for _ in range(8_000)],
        "a big tensor": {"$": "tensor", "lib": "minigrad", "dtype": "float64",
                         "shape": [300, 150], "data": [[0.5] * 150] * 300},
        "huge strings": ["x" * 400_000, "y" * 400_000],
        "a huge name": {"$": "object", "type": "\n" * 450_000},
        "a huge error": {"$": "error", "type": "E" * 300_000, "builtin": False,
                         "message": "m" * 300_000},
        "deep nesting": _deep(900),  # json.loads refuses deeper
        "a size-0 tensor of 2**63 columns": {"$": "tensor", "lib": "torch", "dtype": "float32",
                                             "shape": [0, 2 ** 63], "data": []},
        "a chain of 600 gradients": _grad_chain(600),
    }


def _grad_chain(n):
    data = None
    for _ in range(n):
        data = {"$": "tensor", "lib": "torch", "dtype": "float32", "shape": [], "data": 1.0,
                "requires_grad": True, "grad": data}
    return data


def test_floods_decode_in_linear_time_or_are_refused():
    """Each flood (under the runner's 1 MB reply cap, or about) decodes or is refused within
    ``SECONDS_PER_BYTE`` per byte, plus 0.1 s: building a set of 41,000 ints that hash alike
    took 12 s before (quadratic), a set of 20,000 colliding tuples 9 s."""
    refused = set()
    for name, data in _floods().items():
        out, seconds, size = _timed(data)
        assert seconds < 0.1 + SECONDS_PER_BYTE * size, (name, seconds, size)
        if isinstance(out, plain.DecodeError):
            refused.add(name)
        else:
            assert all(len(s) <= plain.MAX_TEXT for s in _strings(out)), name
    assert refused >= {"ints hashing alike", "tuples hashing alike (set)",
                       "tuples hashing alike (dict)", "floats hashing alike", "huge strings",
                       "a huge name", "a huge error", "deep nesting",
                       "a size-0 tensor of 2**63 columns", "a chain of 600 gradients"}, refused
    assert not refused & {"ints hashing alike, in range", "a flat list", "a set of distinct ints",
                          "a dict of distinct ints", "many small tensors", "a big tensor"}


@settings(max_examples=40, deadline=None)
@given(st.integers(2, 12), st.integers(0, 3))
def test_a_few_members_of_one_hash_are_fine_and_more_are_refused(alike, others):
    """Up to ``MAX_ALIKE`` distinct members of one hash (plus any duplicates) are a set like any
    other; one more and the set is refused."""
    pairs = _colliding_pairs(alike)
    items = [{"$": "tuple", "items": list(p)} for p in pairs] * 3 + list(range(others))
    out = _decoded({"$": "set", "items": items})
    if alike <= plain.MAX_ALIKE:
        assert out == set(pairs) | set(range(others))
    else:
        assert isinstance(out, plain.DecodeError)


@settings(max_examples=80, deadline=None)
@given(st.recursive(st.none() | st.booleans() | st.integers(-2**62 + 1, 2**62 - 1)
                    | st.floats(allow_nan=False) | st.text(max_size=20),
                    lambda inner: st.lists(inner, max_size=5) | st.tuples(inner, inner)
                    | st.dictionaries(st.integers(-2**62 + 1, 2**62 - 1) | st.text(max_size=5),
                                      inner, max_size=5)
                    | st.frozensets(st.integers(-2**40, 2**40), max_size=5).map(set),
                    max_leaves=30))
def test_what_encode_makes_decodes_to_the_same_value(value):
    """The guards refuse only what ``encode`` never makes: honest values come back whole."""
    assert plain.decode(json.loads(json.dumps(plain.encode(value)))) == value


# --- learner-controlled names, on the way out and in the feedback ------------------------------

HUGE = "\n" * 450_000


def test_a_class_named_with_450000_newlines_is_cut_by_encode():
    Huge = type(HUGE, (), {})  # noqa: N806
    HugeError = type(HUGE, (RuntimeError,), {})  # noqa: N806
    assert len(plain.encode(Huge())["type"]) == plain.MAX_NAME
    error = plain.encode_error(HugeError("m" * 10_000))
    assert len(error["type"]) == plain.MAX_NAME and len(error["message"]) == plain.MAX_TEXT
    assert error["builtin"] is False
    assert len(json.dumps(plain.encode({"a": [Huge()] * 3, HUGE: HugeError()}))) < 10_000


def test_a_cell_s_error_class_with_a_huge_name_is_cut_by_the_kernel():
    """An answer cell's error goes through the kernel's own reply, not through ``q.observe``:
    it is bounded the same way, and a lying ``__str__`` does not break the reply."""
    class Lying(Exception):
        def __str__(self):
            raise RuntimeError("no")

    reply = kernel._error(type(HUGE, (RuntimeError,), {})("m" * 10_000))
    assert len(reply["ename"]) == plain.MAX_NAME and len(reply["evalue"]) == plain.MAX_TEXT
    assert kernel._error(Lying())["ename"] == "Lying"


def test_a_node_class_with_a_huge_name_is_cut_by_encode():
    class Scale(torch.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            return x * 2

        @staticmethod
        def backward(ctx, grad):
            return grad * 2

    Backward = type(HUGE, (minigrad.autograd.graph.Node,), {})  # noqa: N806
    y = minigrad.tensor([1.0], requires_grad=True) * 2
    object.__setattr__(y, "_grad_fn", Backward.__new__(Backward))
    Scale._backward_cls.__name__ = HUGE
    encoded = [plain.encode(Scale.apply(torch.ones(1, requires_grad=True))), plain.encode(y)]
    assert all(len(e["grad_fn"]) <= plain.MAX_NAME for e in encoded), encoded


def test_feedback_on_a_learner_s_huge_error_is_bounded():
    error = plain.rebuild_error({"$": "error", "type": "E" * plain.MAX_NAME, "builtin": False,
                                 "message": "\n" * plain.MAX_TEXT})
    error.observed_input = "[1.0]"
    assert len(checks.explain(error)) < 600
    q = checks.Question("05.3", 2, results={})
    with q:
        q.fail("x" * 100_000)
    assert len(q._results["05.3"]["feedback"]) == checks.FEEDBACK_CAP
    huge = torch.arange(100_000.0)
    message = checks.compare("g", huge, huge + 1)
    assert len(message) < 3 * checks.VALUE_CAP


# --- honest feedback: what was expected and what came back -------------------------------------

def _probe_backward(values):
    loss = learner_loss(values)  # noqa: F821 - the "learner's" function, in the namespace
    loss.backward()
    return loss


def test_a_float_where_a_tensor_is_due_says_so_inline():
    namespace = {"learner_loss": lambda values: sum(values)}
    probe = type(_probe_backward)(_probe_backward.__code__, namespace, "_probe")
    q = checks.Question("05.4", 2, results={})
    with q:
        q.observe(probe, [1.0, 2.0])
    assert q._results["05.4"]["feedback"] == (
        "expected a tensor from your code, got a float: the check needs its `.backward` (called "
        "by the check with [1.0, 2.0])")
    namespace["learner_loss"] = lambda values: None
    with q:
        q.observe(probe, [1.0])
    assert q._results["05.4"]["feedback"].startswith("expected a tensor from your code, got None")


def test_an_error_inside_the_learner_s_code_is_still_the_learner_s():
    """An AttributeError raised in the learner's own function (not by the check on what it
    returned) keeps the usual words."""
    namespace: dict = {}
    exec(compile("def learner_loss(values):\n"  # a float has no backward: the learner's mistake
                 "    return values[0].backward()\n", "<answer cell>", "exec"), namespace)
    probe = type(_probe_backward)(_probe_backward.__code__, namespace, "_probe")
    q = checks.Question("05.4", 2, results={})
    with q:
        q.observe(probe, [1.0, 2.0])
    assert q._results["05.4"]["feedback"].startswith(
        "your code raised AttributeError: 'float' object has no attribute 'backward'")


# --- method checks: worth the 1 point a forgery costs nothing to get ---------------------------

WRONG_METHOD = {  # question: (an answer with right values and the wrong method, the words)
    "02.3": ('''
def jvp(f, x, v):
    columns = []
    for i in range(x.numel()):
        e = torch.zeros_like(x)
        e[i] = 1.0
        with fwAD.dual_level():
            columns.append(fwAD.unpack_dual(f(fwAD.make_dual(x, e))).tangent)
    return torch.stack(columns, 1) @ v


def vjp(f, x, u):
    x = x.detach().requires_grad_()
    y = f(x)
    rows = [torch.autograd.grad(y[i], x, retain_graph=True)[0] for i in range(len(y))]
    return u @ torch.stack(rows)
''', "jvp called f 3 times"),
    "03.4": ('''
def train(w, steps=5, lr=0.1):
    w = w.detach().clone().requires_grad_()
    for _ in range(steps):
        loss = (2 * w - 1) ** 2
        loss.backward()
        with torch.no_grad():
            w -= lr * w.grad
        w.grad = None
    return w
''', "train should update w in place"),
    "04.3": ('''
def clip_norm_hook(max_norm):
    def hook(grad):
        norm = grad.norm()
        if norm > max_norm:
            grad.mul_(max_norm / norm)
        return grad
    return hook
''', "your hook changed `grad` in place"),
    "05.3": ('''
def gradients_at(f, x, points):
    grads = []
    for p in points:
        fresh = p.clone().requires_grad_()
        f(fresh).backward()
        grads.append(fresh.grad)
    return grads
''', "call f on x itself"),
    "06.4": ('''
def to_numpy(obj):
    if isinstance(obj, (torch.Tensor, minigrad.Tensor)):
        return obj.detach().numpy()
    if isinstance(obj, dict):
        return {key: to_numpy(value) for key, value in obj.items()}
    if isinstance(obj, (list, tuple)):
        return type(obj)(to_numpy(value) for value in obj)
    return obj
''', "writing into the array changed"),
    "07.3": ('''
def sgd_step(params, lr):
    for i, p in enumerate(params):
        params[i] = p - lr * p.grad
''', "the parameters must stay leaves"),
    "08.4": ('''
def powers(x, n):
    y = torch.empty(n, *x.shape, dtype=x.dtype)
    for i in range(n):
        y[i] = x ** i
    return y
''', "still has 4 CopySlices"),
    "11.2": ('''
def jacobian_rows(f, x):
    return torch.autograd.functional.jacobian(f, x)
''', "jacobian_rows called torch.autograd.functional.jacobian"),
    "11.3": ('''
def directional_derivatives(f, x, U):
    return torch.autograd.functional.jacobian(f, x) @ U
''', "f got an x without a tangent"),
    "11.4": ('''
def param_grads(loss, params):
    for p in params:
        p.grad = None
    loss.backward()
    return [torch.zeros_like(p) if p.grad is None else p.grad for p in params]
''', "param_grads changed the parameters' .grad"),
    "12.2": ('''
def hvp_trick(f, x, v):
    x = x.detach().requires_grad_()
    (g,) = torch.autograd.grad(f(x), x, create_graph=True)
    rows = [torch.autograd.grad(g[i], x, retain_graph=True)[0] for i in range(len(x))]
    return torch.stack(rows) @ v
''', "backward passes reached x"),
    "13.4": ('''
def unbroadcast(grad, shape):
    return grad.sum_to_size(shape)
''', "called sum_to_size"),
    "14.3": ('''
_kept = []


def validation_losses(batches, w):
    losses = []
    for x, y in batches:
        loss = ((x @ w - y) ** 2).mean()
        _kept.append(loss)
        losses.append(loss.item())
    return losses
''', "saved tensors are still alive"),
}


def _solution_of(qid: str) -> Path:
    return next(SOLUTIONS.glob(f"{qid[:2]}_*.py"))


def _solution_answer(qid: str) -> str:
    cell = next(c for c in jupytext.read(_solution_of(qid)).cells
                if c.metadata.get("role") == "answer" and c.metadata.get("question") == qid)
    return "\n".join(line for line in cell.source.split("\n") if "### " not in line)


WRONG_METHOD.update({  # answers made from the solution's, with the wrong method added
    "06.3": (lambda: _solution_answer("06.3").replace(
        "    return ((p - target) ** 2).sum()",
        "    loss = ((p - target) ** 2).sum()\n"
        "    with torch.no_grad():\n        p.add_(1.0)  # p changed, after the fact\n"
        "    return loss"), "sharpen_loss changed p's values"),
    "08.3": (lambda: _solution_answer("08.3").replace(
        "    with torch.no_grad():\n        w[0] = 0.0",
        "    w.requires_grad_(False)\n    w[0] = 0.0"), "w must still be a leaf"),
    "09.1": (lambda: _solution_answer("09.1").replace(
        "        return None, torch.stack(grads), None",
        "        ctx.saved_tensors[0].detach().add_(0.5)  # x itself, nudged for good\n"
        "        return None, torch.stack(grads), None"), "backward changed x's values"),
})


def _inline(qid: str, answer: str) -> dict:
    """The solution's check of ``qid`` run inline (as in the learner's notebook) after its set-up
    cells and ``answer``: the recorded result."""
    cells = jupytext.read(_solution_of(qid)).cells
    namespace: dict = {"__name__": "__main__"}
    for cell in cells:
        if cell.cell_type == "code" and cell.metadata.get("role") not in ("answer", "check"):
            exec(compile(cell.source, "<set-up>", "exec"), namespace)
    exec(compile(answer, "<answer>", "exec"), namespace)
    check = next(c for c in cells if c.metadata.get("role") == "check"
                 and c.metadata.get("question") == qid)
    checks.RESULTS.pop(qid, None)
    exec(compile(check.source, f"<check {qid}>", "exec"), namespace)
    return checks.RESULTS[qid]


@pytest.mark.parametrize("qid", sorted(WRONG_METHOD))
def test_the_wrong_method_with_right_values_loses_only_the_trusted_point(qid):
    answer, words = WRONG_METHOD[qid]
    answer = answer() if callable(answer) else answer
    assert answer != _solution_answer(qid)
    result = _inline(qid, answer)
    assert result["points"] == result["max"] - 1, result
    assert result["feedback"].startswith("right values, but ") and words in result["feedback"], \
        result


def test_every_check_on_a_fact_of_the_learner_s_process_is_a_method_check():
    """The facts the probes count or read beside the learner's code (calls, passes, runs,
    ``same``, ``leaf``, ``alive``, ``ready_made``, ``called``, ``nodes``) are only ever judged
    by ``q.method``, never by ``q.true`` (which would make them worth the whole question)."""
    facts = ('["calls"]', '["passes"]', '["runs"]', '["same"]', '["leaf"]', '["alive"]',
             '["ready_made"]', '["called"]', '["all_dual"]', '["on_x"]', "copies ==")
    for path in sorted(SOLUTIONS.glob("[0-9][0-9]_*.py")):
        for cell in jupytext.read(path).cells:
            if cell.metadata.get("role") != "check":
                continue
            for node in ast.walk(ast.parse(cell.source)):
                if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) \
                        and node.func.attr in ("true", "fail"):
                    text = ast.get_source_segment(cell.source, node)
                    assert not any(f in text for f in facts), (path.name, text)


# --- 02.3 under the real grader, forged ----------------------------------------------------------

RESET = '''
    for cell in f.__closure__ or ():
        if type(cell.cell_contents) is list:
            cell.cell_contents[:] = [1]  # "called f once"
'''


def _forged(answer: str, scale: str = "") -> str:
    """``answer`` whose jvp and vjp reset the probe's call counter through ``f.__closure__``
    before returning (and scale their result, for wrong values)."""
    out = []
    for line in answer.split("\n"):
        if line.lstrip().startswith("return "):
            indent = line[:len(line) - len(line.lstrip())]
            out.append(indent + "_result = " + line.strip()[len("return "):])
            out.append(RESET.strip("\n"))
            out.append(indent + f"return _result{scale}")
        else:
            out.append(line)
    return "\n".join(out)


FLOAT_LOSS = '''
def weighted_loss(w, x):
    with torch.no_grad():
        weights = torch.softmax(w * x, 0)
    return float((weights * (w * x - 1) ** 2).sum())
'''


@pytest.fixture(scope="module")
def graded_02(tmp_path_factory):
    """Solution notebooks with one answer replaced, graded by the grader: lesson 02 with 02.3's
    jvp and vjp built from whole Jacobians (honestly, with the call counter reset, with the
    counter reset and wrong values), lesson 12 with 12.2's product from the whole Hessian
    (honestly, and with the backward passes' counter reset through ``f.__closure__``), and
    lesson 05 with a loss returned as a float."""
    base = tmp_path_factory.mktemp("method")
    answer = WRONG_METHOD["02.3"][0]
    variants = {"honest": ("02_forward_vs_reverse", "02.3", answer),
                "forged": ("02_forward_vs_reverse", "02.3", _forged(answer)),
                "forged-wrong": ("02_forward_vs_reverse", "02.3", _forged(answer, " * 2")),
                "float": ("05_pausing_the_graph", "05.4", FLOAT_LOSS),
                "hessian": ("12_higher_order_gradients", "12.2", WRONG_METHOD["12.2"][0]),
                "hessian-forged": ("12_higher_order_gradients", "12.2",
                                   _forged(WRONG_METHOD["12.2"][0]))}
    paths = {}
    for who, (lesson, qid, source) in variants.items():
        nb = nbformat.read(SOLUTIONS / f"{lesson}.ipynb", as_version=4)
        cell = next(c for c in nb.cells if c.metadata.get("question") == qid
                    and c.metadata.get("role") == "answer")
        cell.source = f"# Answer {qid}\n" + source
        (base / who).mkdir()
        paths[who] = base / who / f"{lesson}.ipynb"
        nbformat.write(nb, paths[who])
    limits = Limits(cell_timeout=60, notebook_timeout=300)
    with ThreadPoolExecutor(2) as pool:
        results = dict(zip(paths, pool.map(lambda who: grade(
            paths[who], SOLUTIONS, sandbox=sandbox_available(), student=who, limits=limits),
            paths)))
    return {who: {q["id"]: q for q in r.questions} for who, r in results.items()}


def test_02_3_graded_whole_jacobian_loses_the_method_point(graded_02):
    q = graded_02["honest"]["02.3"]
    assert (q["points"], q["max"]) == (2, 3), q
    assert q["feedback"].startswith("right values, but jvp called f 3 times"), q


def test_02_3_a_reset_counter_gains_at_most_the_trusted_point(graded_02):
    honest, forged = graded_02["honest"]["02.3"], graded_02["forged"]["02.3"]
    assert forged["points"] - honest["points"] <= 1, (honest, forged)
    wrong = graded_02["forged-wrong"]["02.3"]
    assert wrong["points"] == 0 and "jvp" in wrong["feedback"], wrong
    for who in ("honest", "forged", "forged-wrong"):  # the other questions: the solution's
        assert all(q["points"] == q["max"] for qid, q in graded_02[who].items()
                   if qid != "02.3"), graded_02[who]


def test_12_2_a_reset_pass_counter_gains_at_most_the_trusted_point(graded_02):
    honest, forged = graded_02["hessian"]["12.2"], graded_02["hessian-forged"]["12.2"]
    assert (honest["points"], honest["max"]) == (2, 3), honest
    assert "backward passes reached x" in honest["feedback"], honest
    assert forged["points"] - honest["points"] <= 1, (honest, forged)


def test_a_float_where_a_tensor_is_due_says_so_when_graded(graded_02):
    q = graded_02["float"]["05.4"]
    assert q["points"] == 0, q
    assert q["feedback"] == (
        "expected a tensor from your code, got a float: the check needs its `.backward` "
        "(called by the check with [1.0, 2.0, 3.0], [0.5, -1.0, 2.0])"), q


def test_method_points_need_the_values_first():
    """A failed method fact with wrong values scores 0, with the first problem found."""
    answer = WRONG_METHOD["05.3"][0].replace("grads.append(fresh.grad)",
                                             "grads.append(2 * fresh.grad)")
    result = _inline("05.3", answer)
    assert result["points"] == 0 and "call f on x itself" in result["feedback"], result


def test_math_of_the_int_flood():
    """Why ints are bounded: only a handful of ints below 2**62 share a hash."""
    alike = [7 + k * P61 for k in range(5) if 7 + k * P61 < plain.INT_LIMIT]
    assert len({hash(n) for n in alike}) == 1 and len(alike) <= 4 < plain.MAX_ALIKE
    assert isinstance(_decoded(plain.INT_LIMIT), plain.DecodeError)


@pytest.mark.parametrize("qid, answer, attribute", [
    ("03.3", lambda: _solution_answer("03.3").replace(
        '    return record(x._data ** 3, CubeBackward0, (x,), save={"self": x})',
        "    return float((x._data ** 3).sum())"), "grad_fn"),
    ("05.4", lambda: FLOAT_LOSS, "backward"),
    ("13.3", lambda: "def mse(pred, target):\n    return 0.5\n", None),  # need_tensor's words
])
def test_a_float_where_a_tensor_is_due_names_both_inline(qid, answer, attribute):
    """Wherever a check's observation function uses a tensor's attribute on what the learner's
    code gave it, a float reads as what it is (not as the AttributeError it raised)."""
    result = _inline(qid, answer())
    assert result["points"] == 0, result
    if attribute is None:
        assert "expected a tensor, got float" in result["feedback"], result
    else:
        assert result["feedback"].startswith(
            f"expected a tensor from your code, got a float: the check needs its `.{attribute}`"
            " (called by the check with "), result
    assert "AttributeError" not in result["feedback"], result


def test_method_facts_cost_at_most_their_points_and_never_stop_the_question():
    q = checks.Question("02.3", 3, results={})
    with q:
        q.method(False, "jvp called f 3 times")
        q.method(False, "vjp called f 2 times", points=0.5)
        q.close("jvp", [1.0, 2.0], [1.0, 2.0])
    assert q._results["02.3"] == {"id": "02.3", "points": 2, "max": 3,
                                  "feedback": "right values, but jvp called f 3 times"}
    with q:  # a new run starts clean; a fact worth more than the question costs the question
        q.method(False, "x", points=10)
    assert q._results["02.3"]["points"] == 0
    with q:
        q.method(True, "never shown")
    assert q._results["02.3"]["feedback"] == "correct"
    with q:
        q.method(False, "vjp called f 2 times", points=0.5)
        q.close("jvp", [1.0, 2.0], [1.0, 3.0])  # a wrong value: 0, with the first problem
    assert q._results["02.3"] == {"id": "02.3", "points": 0, "max": 3,
                                  "feedback": "vjp called f 2 times"}
