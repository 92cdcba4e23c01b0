"""minigrad stands alone: NumPy is all it needs, and it knows nothing of the course around it.

The course's tools (``%%both``, drawing, stepping, grading) live in ``coursekit/``, which
imports minigrad; minigrad never imports coursekit, torch or any Jupyter/plotting package.
"""

from __future__ import annotations

import ast
import json
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PACKAGE = ROOT / "minigrad"
# What minigrad must never import, even lazily: the reference engine, the course's tools and
# everything only the course's notebooks need.
FORBIDDEN = ("torch", "IPython", "ipywidgets", "graphviz", "matplotlib", "nbclient",
             "nbformat", "jupytext", "coursekit")

# Imports minigrad and every submodule, then a tiny forward and backward; prints what it did
# as JSON. argv[1]: "block" makes every FORBIDDEN import fail (sys.modules[name] = None).
IMPORT_EVERYTHING = """
import json, pkgutil, sys
forbidden = json.loads(sys.argv[2])
if sys.argv[1] == "block":
    for name in forbidden:
        sys.modules[name] = None  # `import name` (or name.x) now raises ImportError

import minigrad

def fail(name):
    raise ImportError(f"walking minigrad's submodules failed at {name}")

imported = sorted(m.name for m in pkgutil.walk_packages(minigrad.__path__, "minigrad.",
                                                         onerror=fail))
for name in imported:
    __import__(name)

x = minigrad.tensor([1.0, 2.0, 3.0], requires_grad=True)
w = minigrad.nn.Linear(3, 2)
loss = (w(x * x).tanh().sum() + x.exp().mean())
loss.backward()
assert x.grad is not None and x.grad.shape == (3,) and w.weight.grad.shape == (2, 3)
loaded = sorted({m.split(".")[0] for m, mod in sys.modules.items() if mod is not None}
                & set(forbidden))
print(json.dumps({"file": minigrad.__file__, "modules": imported, "loaded": loaded}))
"""


def _import_everything(mode: str) -> dict:
    run = subprocess.run([sys.executable, "-c", IMPORT_EVERYTHING, mode, json.dumps(FORBIDDEN)],
                         cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert run.returncode == 0, run.stderr
    return json.loads(run.stdout.strip().splitlines()[-1])


def _submodules() -> set[str]:
    names = set()
    for path in PACKAGE.rglob("*.py"):
        parts = path.relative_to(ROOT).with_suffix("").parts
        names.add(".".join(parts[:-1] if parts[-1] == "__init__" else parts))
    return names - {"minigrad"}


@pytest.mark.package
def test_minigrad_and_every_submodule_import_and_run_without_the_course():
    """With torch, Jupyter, Graphviz, matplotlib and coursekit all blocked, every module of
    minigrad imports and a small model runs forward and backward."""
    done = _import_everything("block")
    assert Path(done["file"]).resolve() == PACKAGE / "__init__.py", (
        "minigrad/__init__.py is missing (namespace package), or another minigrad was imported")
    assert set(done["modules"]) == _submodules()
    assert len(done["modules"]) > 20


@pytest.mark.package
def test_importing_minigrad_loads_none_of_the_course_packages():
    """Not even an optional import that falls back quietly on ImportError."""
    assert _import_everything("free")["loaded"] == []


@pytest.mark.package
def test_minigrad_source_imports_none_of_them():
    """Imports inside functions too (the subprocess tests only see those that ran)."""
    files = sorted(PACKAGE.rglob("*.py"))
    assert files, "minigrad/ has no Python files"
    offenders = []
    for path in files:
        rel = path.relative_to(ROOT).as_posix()
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), filename=rel)):
            if isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom) and node.level == 0:
                names = [node.module or ""]
            else:
                continue
            if any(name.split(".")[0] in FORBIDDEN for name in names):
                offenders.append(f"{rel}:{node.lineno}")
    assert not offenders, f"minigrad must work with NumPy alone; found imports at: {offenders}"


@pytest.mark.package
def test_minigrad_never_mentions_coursekit():
    mentions = []
    for path in sorted(PACKAGE.rglob("*")):
        if path.is_file() and "__pycache__" not in path.parts:
            text = path.read_bytes().decode("utf-8", errors="replace")
            if "coursekit" in text:
                mentions.append(path.relative_to(ROOT).as_posix())
    assert not mentions, f"minigrad must not know about coursekit: {mentions}"


@pytest.mark.package
def test_the_course_tools_are_not_in_minigrad():
    """They moved to coursekit/ (issue 12); no copy or shim stays behind."""
    assert not (PACKAGE / "grading").exists()
    # torch.utils.benchmark's Compare lives in a module named compare, under torch's path
    torchs_own = {"minigrad/utils/benchmark/utils/compare.py"}
    for pattern in ("viz.py", "compare*.py", "stepper.py", "grading*"):
        found = [p.relative_to(ROOT).as_posix() for p in PACKAGE.rglob(pattern)]
        found = [f for f in found if f not in torchs_own]
        assert not found, f"{found}: the course's tools live in coursekit/"
    for name in ("viz", "compare", "compare_hints", "stepper", "grading"):
        assert (ROOT / "coursekit" / name).exists() or \
            (ROOT / "coursekit" / f"{name}.py").is_file(), name
