"""Smoke test of the benchmark (benchmarks/bench.py): it runs, and reports what it promises.

This checks correctness only, never speed: a tiny ``--quick`` run must print one ratio line
per workload, each ratio must be the quotient of the two times printed beside it, and the
within-engine slice/cat ratios must be there too. The script itself refuses to time an
engine whose gradients differ from torch's, so a zero exit status also means they agreed.
"""

from __future__ import annotations

import ast
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
BENCH = ROOT / "benchmarks" / "bench.py"


def _targets() -> dict:
    """bench.py's TARGETS, read from its source (importing it would set its thread variables
    in this process)."""
    for node in ast.parse(BENCH.read_text()).body:
        if isinstance(node, ast.Assign) and getattr(node.targets[0], "id", None) == "TARGETS":
            return ast.literal_eval(node.value)
    raise AssertionError("bench.py defines no TARGETS")


TIME = r"\s*([\d.]+) (s |ms)"
RATIO_LINE = re.compile(
    rf"^(?P<label>chain|mlp step|long chain|slices|cat):.*?{TIME}\s+{TIME}\s+ratio\s+"
    r"(?P<ratio>[\d.]+)x\s+target\s+(?P<target>[\d.]+)x\s+(?P<verdict>ok|MISS)$"
)
KEYS = {"chain": "chain", "mlp step": "mlp", "long chain": "long", "slices": "slices",
        "cat": "cat"}
LABELS = set(KEYS)


def _run_bench(*args: str) -> str:
    proc = subprocess.run([sys.executable, str(BENCH), *args], capture_output=True, text=True,
                          timeout=120, cwd=ROOT)
    assert proc.returncode == 0, proc.stderr
    return proc.stdout


def _seconds(value: str, unit: str) -> float:
    return float(value) * (1e-3 if unit == "ms" else 1.0)


@pytest.fixture(scope="module")
def quick_output() -> str:
    return _run_bench("--quick", "--repeat", "2")


def test_quick_run_prints_a_ratio_line_per_workload(quick_output):
    found = {}
    for line in quick_output.splitlines():
        m = RATIO_LINE.match(line)
        if m:
            found[m["label"]] = m
    assert set(found) == LABELS, quick_output
    for label, m in found.items():
        t_mine, t_torch = _seconds(m[2], m[3]), _seconds(m[4], m[5])
        ratio = float(m["ratio"])
        assert t_mine > 0 and t_torch > 0, label
        # The times are printed to 0.01 ms: allow for that rounding, nothing more.
        low = (t_mine - 5e-6) / (t_torch + 5e-6)
        high = (t_mine + 5e-6) / max(t_torch - 5e-6, 1e-9)
        assert low - 0.005 <= ratio <= high + 0.005, m[0]
        target = float(m["target"])
        assert target == _targets()[KEYS[label]], m[0]
        if abs(ratio - target) > 0.005:  # the verdict compares the unrounded ratio
            assert m["verdict"] == ("ok" if ratio < target else "MISS"), m[0]


def test_quick_run_prints_slice_over_cat_for_each_engine(quick_output):
    for engine in ("minigrad", "torch"):
        assert re.search(rf"^\s+{engine}\s+slice assignment / cat:\s+[\d.]+x slower$",
                         quick_output, re.MULTILINE), quick_output
    assert re.search(r"^total [\d.]+ s; \d/5 within their targets", quick_output, re.MULTILINE)


def test_only_runs_the_chosen_workloads():
    out = _run_bench("--quick", "--repeat", "1", "--only", "mlp")
    labels = {m["label"] for m in map(RATIO_LINE.match, out.splitlines()) if m}
    assert labels == {"mlp step"}, out


def test_course_script_offers_bench():
    course = (ROOT / "course").read_text()
    assert re.search(r"^\s+bench\) cmd_bench ", course, re.MULTILINE)
    help_text = subprocess.run(["bash", str(ROOT / "course"), "help"], capture_output=True,
                               text=True, check=True).stdout
    assert re.search(r"^  bench ", help_text, re.MULTILINE)


def test_float32_report_runs_and_prints_every_op():
    """``./course bench --float32`` runs benchmarks/float32_report.py: the CPU's capabilities,
    then per op and result the bit-identical fraction, the largest ulp distance and both
    engines' errors against their budgets (a zero exit status: minigrad's within budget)."""
    proc = subprocess.run([sys.executable, str(ROOT / "benchmarks" / "float32_report.py"),
                           "--quick", "--only", "exp", "tanh", "div"],
                          capture_output=True, text=True, timeout=120, cwd=ROOT)
    assert proc.returncode == 0, proc.stderr
    out = proc.stdout
    assert re.search(r"^torch .*: ATen CPU capability (DEFAULT|AVX2|AVX512)\b", out, re.MULTILINE)
    assert re.search(r"^NumPy [\d.]+: .*\bSSE2\b", out, re.MULTILINE), out
    rows = re.findall(r"^(\w+)\s+(out|grad|grad_y)\s+([\d.]+)%\s+(\d+)\s+([\d.]+)\s+([\d.]+)$",
                      out, re.MULTILINE)
    assert {(op, key) for op, key, *_ in rows} == {
        ("exp", "out"), ("exp", "grad"), ("tanh", "out"), ("tanh", "grad"),
        ("div", "out"), ("div", "grad"), ("div", "grad_y")}, out
    for op, key, same, ulps, ours, _ in rows:
        assert 0 <= float(same) <= 100 and float(ours) <= 1, (op, key)
        assert (float(same) == 100) == (int(ulps) == 0), (op, key)
    course = (ROOT / "course").read_text()
    assert "benchmarks/float32_report.py" in course and "--float32" in course
