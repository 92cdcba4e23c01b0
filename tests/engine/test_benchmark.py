"""minigrad.utils.benchmark against torch.utils.benchmark: Measurements built from the same
fixed times print the same (reprs, units, warnings, Compare's tables), the helpers give the
same numbers at the unit boundaries, and minigrad's Timer returns Measurements of torch's
shape (counts and structure; the times are minigrad's own)."""

from __future__ import annotations

import importlib
import pickle
import re
import timeit

import numpy as np
import pytest
import torch.utils.benchmark as tbench
from hypothesis import given, settings
from hypothesis import strategies as st

import minigrad
import minigrad.utils.benchmark as mbench
from minigrad import _runtime
from minigrad.utils.benchmark import Timer
from tests.torch_compare import normalize_text

LIBS = (mbench, tbench)


def _text(obj) -> str:
    """Engine-neutral printout: minigrad's module names read as torch's, addresses hidden."""
    return re.sub(r" at 0x[0-9a-f]+>", " at 0x...>", normalize_text(str(obj)))


def _both(raw_times, number_per_run=100, **spec):
    spec.setdefault("stmt", "f(x)")
    spec.setdefault("setup", "pass")
    return [lib.Measurement(number_per_run, list(raw_times), lib.TaskSpec(**spec))
            for lib in LIBS]


def _same(fn):
    mine, theirs = (fn(lib) for lib in LIBS)
    assert _text(mine) == _text(theirs)
    return mine


# raw times (seconds per run of number_per_run=100): 1 to many, ns to s, calm and noisy
TIMES = {
    "one_ns": [3.21e-6],
    "one_us": [4.5e-4],
    "one_ms": [0.12],
    "one_s": [250.0],
    "two": [1.0e-5, 1.2e-5],
    "three": [2e-3, 2.1e-3, 1.9e-3],
    "four_calm": [1.00e-4, 1.01e-4, 1.02e-4, 0.99e-4],
    "four_noisy": [1e-4, 1.5e-4, 0.7e-4, 2.5e-4],
    "many_calm": list(np.linspace(5.0e-3, 5.2e-3, 37)),
    "many_fluctuating": list(np.linspace(1.0, 1.3, 11)),
    "many_gross": list(np.geomspace(1e-7, 1e-4, 25)),
    "boundary_us": [9.9999997e-5] * 5,
    "boundary_ms": [0.099999999, 0.1, 0.100000001],
}


@pytest.mark.parametrize("times", TIMES.values(), ids=TIMES.keys())
@pytest.mark.parametrize("spec", [
    {},
    {"label": "ReLU(x + 1)", "sub_label": "float", "description": "n=4"},
    {"stmt": "y = f(x)\ny.sum()", "setup": "x = torch.ones(3)\nf = torch.exp",
     "sub_label": "multi", "num_threads": 4},
    {"stmt": "", "setup": "x = 1", "description": "a\nb", "env": "A", "num_threads": 2},
], ids=["plain", "labels", "multiline", "env"])
def test_measurement_prints_and_answers_as_torch(times, spec):
    mine, theirs = _both(times, **spec)
    assert _text(repr(mine)) == _text(repr(theirs))
    assert repr(mine).startswith("<minigrad.utils.benchmark.utils.common.Measurement object")
    for name in ("times", "median", "mean", "iqr", "significant_figures", "has_warnings",
                 "title", "env", "as_row_name", "stmt", "label", "num_threads"):
        assert getattr(mine, name) == getattr(theirs, name), name
    for threshold in (0.01, 0.1, 0.5):
        assert mine.meets_confidence(threshold) == theirs.meets_confidence(threshold)


def test_measurement_equality_merge_and_pickle():
    a = [lib.Measurement(10, [1e-3, 2e-3], lib.TaskSpec("s", "pass", label="L")) for lib in LIBS]
    b = [lib.Measurement(1, [3e-4], lib.TaskSpec("s", "pass", label="L"), {"k": 1}) for lib in LIBS]
    c = [lib.Measurement(1, [5e-4], lib.TaskSpec("t", "pass", label="L")) for lib in LIBS]
    merged = [lib.Measurement.merge([x, y, z]) for lib, x, y, z in zip(LIBS, a, b, c)]
    assert [_text(m) for m in merged[0]] == [_text(m) for m in merged[1]]
    assert [(m.number_per_run, m.raw_times, m.metadata) for m in merged[0]] == [
        (m.number_per_run, m.raw_times, m.metadata) for m in merged[1]]
    mine = a[0]
    assert mine == mbench.Measurement(10, [1e-3, 2e-3], mbench.TaskSpec("s", "pass", label="L"))
    assert _text(pickle.loads(pickle.dumps(mine))) == _text(a[1])


@pytest.mark.parametrize("spec", [
    {"stmt": "x + 1", "setup": "pass"},
    {"stmt": "x + 1", "setup": "", "sub_label": "int"},
    {"stmt": "a\nb", "setup": "x = 1", "sub_label": "s"},
    {"stmt": "a\nb", "setup": "x = 1\ny = 2", "label": "L", "description": "d"},
    {"stmt": "", "setup": "pass", "label": "L", "sub_label": "", "description": "two\nlines"},
])
def test_taskspec_summarize_as_torch(spec):
    mine, theirs = (lib.TaskSpec(**spec) for lib in LIBS)
    assert (mine.title, mine.setup_str(), mine.summarize()) == (
        theirs.title, theirs.setup_str(), theirs.summarize())
    assert hash(mine) == hash(mbench.TaskSpec(**spec))


def _near_boundaries():
    values = []
    for e in range(-11, 3):
        f = np.float32(10.0 ** e)
        values += [10.0 ** e, float(f), float(np.nextafter(f, np.float32(0))),
                   float(np.nextafter(f, np.float32(1e9))), 10.0 ** e * (1 - 1e-9),
                   10.0 ** e * (1 + 1e-9), 10.0 ** e * (1 - 3e-8)]
    return values


@pytest.mark.parametrize("t", _near_boundaries())
def test_select_unit_at_unit_boundaries(t):
    assert mbench.select_unit(t) == tbench.select_unit(t)
    for n in (1, 2, 3, 4):
        assert mbench.trim_sigfig(t, n) == tbench.trim_sigfig(t, n)


@settings(max_examples=200, deadline=None)
@given(st.floats(min_value=1e-12, max_value=1e4), st.integers(1, 5))
def test_select_unit_and_trim_sigfig_as_torch(t, n):
    assert mbench.select_unit(t) == tbench.select_unit(t)
    assert mbench.trim_sigfig(t, n) == tbench.trim_sigfig(t, n)
    assert mbench.trim_sigfig(-t, n) == tbench.trim_sigfig(-t, n)


def test_unit_helpers_and_their_errors():
    for u in ("ns", "us", "ms", "s"):
        assert mbench.unit_to_english(u) == tbench.unit_to_english(u)
    assert mbench.ordered_unique([3, 1, 3, 2, 1]) == tbench.ordered_unique([3, 1, 3, 2, 1])
    assert_same_errors([lambda lib: lib.trim_sigfig(1.5, 1.5),
                        lambda lib: lib.trim_sigfig(0.0, 2), lambda lib: lib.select_unit(0.0),
                        lambda lib: lib.select_unit(-1.0)])


def assert_same_errors(calls) -> None:
    """Each call raises on both engines, the same exception type and message."""
    for call in calls:
        errors = []
        for lib in LIBS:
            with pytest.raises(Exception) as info:
                call(lib)
            errors.append((type(info.value), str(info.value)))
        assert errors[0] == errors[1]


def test_timeit_returns_a_measurement_of_n_runs():
    x = minigrad.ones(8)
    timer = Timer(stmt="\n    y = x * 2\n    torch.relu(y)\n", setup="z = 1",
                  globals={"x": x}, label="double", num_threads=3)
    prior = _runtime.get_num_threads()
    m = timer.timeit(50)
    assert _runtime.get_num_threads() == prior
    assert isinstance(m, mbench.Measurement) and m.number_per_run == 50
    assert len(m.raw_times) == 1 and 0 < m.times[0] < 0.1
    assert m.task_spec == mbench.TaskSpec("y = x * 2\ntorch.relu(y)", "z = 1", label="double",
                                          num_threads=3)
    assert "1 measurement, 50 runs , 3 threads" in repr(m)


def test_the_jacobians_tutorial_pattern_runs():
    from minigrad.func import jacrev

    weight, bias, x = minigrad.randn(4, 4), minigrad.randn(4), minigrad.randn(4)

    def predict(weight, bias, x):
        return minigrad.nn.functional.linear(x, weight, bias).tanh()

    namespace = {"jacrev": jacrev, "predict": predict, "weight": weight, "bias": bias, "x": x}
    first = Timer(stmt="jacrev(predict, argnums=2)(weight, bias, x)", globals=namespace)
    second = Timer(stmt="predict(weight, bias, x)", globals=namespace)
    a, b = first.timeit(5), second.timeit(5)
    assert a.times[0] > 0 and b.times[0] > 0
    assert str(a).splitlines()[1:] == ["jacrev(predict, argnums=2)(weight, bias, x)",
                                       f"  {a.median / mbench.select_unit(a.median)[1]:.2f} "
                                       f"{mbench.select_unit(a.median)[0]}",
                                       "  1 measurement, 5 runs , 1 thread"]


def test_blocked_autorange_structure():
    calls = []
    m = Timer("sum(range(100))").blocked_autorange(
        callback=lambda number, t: calls.append((number, t)), min_run_time=0.02)
    n = m.number_per_run
    assert str(n) == "1" + "0" * (len(str(n)) - 1)  # a power of ten
    assert len(m.raw_times) >= 1 and sum(m.raw_times) >= 0.02
    assert calls == [(n, t) for t in m.raw_times]


def test_adaptive_autorange_structure():
    m = Timer("sum(range(50))").adaptive_autorange(threshold=0.5, min_run_time=0.001,
                                                   max_run_time=0.3)
    assert len(m.raw_times) > 3 or sum(m.raw_times) > 0.3
    assert m.meets_confidence(0.5) or sum(m.raw_times) > 0.3
    assert Timer("pass", timer=timeit.default_timer).adaptive_autorange(
        threshold=0.0, min_run_time=0.0, max_run_time=0.02).number_per_run >= 1


def test_timer_errors_as_torch():
    calls = [
        lambda lib: lib.Timer(stmt=len),
        lambda lib: lib.Timer("pass", global_setup="#include <x>"),
        lambda lib: lib.Timer("pass", language="rust"),
        lambda lib: lib.Timer("pass").repeat(),
        lambda lib: lib.Timer("pass").autorange(),
        lambda lib: lib.Timer("x = ").timeit(1),
        lambda lib: lib.Timer("undefined_name").timeit(1),
        lambda lib: lib.Timer("pass", num_threads=0).timeit(1),
        lambda lib: lib.Compare([1]),
        lambda lib: lib.Measurement(1, [1.0], lib.TaskSpec("s", "pass")).no_such_name,
        # no description: torch's table cannot measure a column named None
        lambda lib: print(lib.Compare([lib.Measurement(1, [1.0], lib.TaskSpec("s", "pass"))])),
    ]
    assert_same_errors(calls)


def test_left_out_parts_say_so():
    with pytest.raises(NotImplementedError, match="minigrad does not implement C.. timing"):
        Timer("pass", language="c++")
    with pytest.raises(NotImplementedError, match="minigrad does not implement C.. timing"):
        Timer("pass", language=mbench.Language.CPP)
    with pytest.raises(NotImplementedError, match="collect_callgrind"):
        Timer("pass").collect_callgrind()
    with pytest.raises(AttributeError, match="minigrad does not implement "
                                             "torch.utils.benchmark.Fuzzer"):
        mbench.Fuzzer  # noqa: B018
    with pytest.raises(ImportError, match="torch.utils.benchmark.CallgrindStats"):
        from minigrad.utils.benchmark import CallgrindStats  # noqa: F401
    with pytest.raises(AttributeError, match="has no attribute 'nothing'"):
        mbench.nothing  # noqa: B018
    with pytest.raises(ImportError, match="minigrad does not implement "
                                          "torch.utils.benchmark.utils.fuzzer"):
        importlib.import_module("minigrad.utils.benchmark.utils.fuzzer")
    assert minigrad.utils.benchmark is mbench and mbench.Language.PYTHON.value == 0


def test_statements_see_minigrad_as_torch():
    """As torch's Timer adds ``torch`` to the globals, minigrad's adds minigrad under that name:
    a statement written for torch times minigrad's code."""
    m = Timer("assert torch is engine and torch.ones(2).sum().item() == 2.0",
              globals={"engine": minigrad}).timeit(3)
    assert m.number_per_run == 3
    mine = Timer("pass", globals={"torch": 1})
    assert mine._globals == {"torch": 1}


def _measurements(lib):
    out = []
    calm = list(np.linspace(1.0e-3, 1.02e-3, 9))
    for threads in (1, 4):
        for sub_label, scale in (("float", 1.0), ("int", 3.7), ("bool", 0.5)):
            for description, factor in (("n=1", 1.0), ("n=64", 41.3), ("n=4096", 2650.0)):
                if (sub_label, description) == ("bool", "n=64"):
                    continue  # an empty cell
                times = [t * scale * factor / threads for t in calm]
                if sub_label == "int" and description == "n=4096":
                    times = list(np.geomspace(0.5, 2.0, 9) * times[0])  # noisy
                spec = lib.TaskSpec("f(x)", "pass", label="ReLU", sub_label=sub_label,
                                    description=description, num_threads=threads)
                out.append(lib.Measurement(100, times, spec))
    slow = lib.TaskSpec("g()", "pass", label="slow", description="")
    out += [lib.Measurement(10, [2.5, 2.6], slow), lib.Measurement(10, [2.7], slow)]
    out.append(lib.Measurement(1, [3e-8, 3.3e-8, 2.9e-8, 3.1e-8],
                               lib.TaskSpec("h()", "pass", label=None, description="fast")))
    return out


@pytest.mark.parametrize("options", [(), ("trim",), ("colorize",), ("rowwise",),
                                     ("highlight",), ("trim", "colorize", "highlight")])
def test_compare_prints_torchs_table(options, capsys):
    tables = []
    for lib in LIBS:
        compare = lib.Compare(_measurements(lib))
        if "trim" in options:
            compare.trim_significant_figures()
        if "colorize" in options:
            compare.colorize()
        if "rowwise" in options:
            compare.colorize(rowwise=True)
        if "highlight" in options:
            compare.highlight_warnings()
        compare.print()
        tables.append(capsys.readouterr().out)
    assert tables[0] == tables[1]
    assert "Times are in microseconds (us)." in tables[0]


def test_compare_with_envs_and_extended_results():
    tables = []
    for lib in LIBS:
        first = [lib.Measurement(100, [1e-4 * (1 + k / 50) for k in range(5)],
                                 lib.TaskSpec("f(x)", "pass", label="L", env=env,
                                              description=d))
                 for env in ("A", "main") for d in ("a", "b")]
        compare = lib.Compare(first[:2])
        compare.extend_results(first[2:])
        tables.append(str(compare))
    assert _text(tables[0]) == _text(tables[1])
    assert "(main)" in tables[0]
