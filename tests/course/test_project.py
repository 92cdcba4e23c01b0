"""Checks on the project itself: packaging, environment files, scripts, CI.

These do not test the autograd engine; they keep the scaffolding around it
honest (pins agree, the documented commands are the ones CI runs, the set-up
script fails politely, and minigrad does not depend on torch).
"""

from __future__ import annotations

import ast
import fnmatch
import os
import re
import shutil
import stat
import subprocess
import sys
import tempfile
import tomllib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

# conda-forge name -> PyPI name, for packages named differently on the two.
CONDA_TO_PYPI = {
    "pytorch-cpu": "torch",
    "python-graphviz": "graphviz",
    "matplotlib-base": "matplotlib",
}

# Modules of minigrad that may import torch: they compare against it, draw it,
# or grade exercises with it. Everything else must work with NumPy alone.
TORCH_ALLOWED = [
    "minigrad/compare*",
    "minigrad/viz*",
    "minigrad/grading*",
    "minigrad/testing*",
]


# ------------------------------------------------------------ helpers -------


def _pyproject() -> dict:
    with open(ROOT / "pyproject.toml", "rb") as f:
        return tomllib.load(f)


def _parse_pin(requirement: str, sep: str) -> tuple[str, str]:
    name, _, version = requirement.partition(sep)
    assert version, f"{requirement!r} is not pinned with {sep!r}"
    return name.strip().lower(), version.strip()


def _environment_yml() -> tuple[list[str], list[str]]:
    """Return (conda dependencies, pip dependencies) from environment.yml.

    PyYAML is not a dependency, and the file is simple, so read it by hand:
    top-level keys at column 0, list items "  - x", and a nested "- pip:" list.
    """
    conda: list[str] = []
    pip: list[str] = []
    section = None
    in_pip = False
    for raw in (ROOT / "environment.yml").read_text(encoding="utf-8").splitlines():
        line = raw.split("#", 1)[0].rstrip()
        if not line.strip():
            continue
        indent = len(line) - len(line.lstrip())
        if indent == 0:
            section = line.split(":", 1)[0]
            in_pip = False
            continue
        if section != "dependencies":
            continue
        item = line.strip()
        assert item.startswith("- "), f"unexpected line in environment.yml: {raw!r}"
        item = item[2:].strip()
        if item == "pip:":
            in_pip = True
        elif in_pip and indent > 2:
            pip.append(item)
        else:
            in_pip = False
            conda.append(item)
    return conda, pip


# -------------------------------------------------- pins and packaging ------


def test_all_dependencies_are_pinned_exactly():
    project = _pyproject()["project"]
    reqs = project["dependencies"] + project["optional-dependencies"]["test"]
    for req in reqs:
        assert re.fullmatch(r"[A-Za-z0-9_.\-]+==[0-9][A-Za-z0-9.+]*", req), req
    # A looser torch spec makes pip pull the multi-gigabyte CUDA build.
    assert any(r.startswith("torch==") for r in project["dependencies"])


def test_environment_yml_matches_pyproject():
    pyproject_pins = dict(_parse_pin(r, "==") for r in _pyproject()["project"]["dependencies"])

    conda, pip = _environment_yml()
    conda_pins = {}
    for item in conda:
        if item in ("pip",):
            continue
        name, version = _parse_pin(item.replace("==", "="), "=")
        if name == "python":
            continue
        conda_pins[CONDA_TO_PYPI.get(name, name)] = version

    assert conda_pins == pyproject_pins
    assert "pip" in conda
    assert any(p.startswith("-e .") for p in pip), "environment.yml must pip-install the repo"


def test_environment_yml_python_matches_requires_python():
    conda, _ = _environment_yml()
    (python,) = [c for c in conda if c.startswith("python=")]
    version = tuple(int(x) for x in python.split("=", 1)[1].split("."))
    requires = _pyproject()["project"]["requires-python"]
    minimum = tuple(int(x) for x in re.fullmatch(r">=\s*([\d.]+)", requires)[1].split("."))
    assert version >= minimum


def test_only_minigrad_is_packaged():
    find = _pyproject()["tool"]["setuptools"]["packages"]["find"]
    assert find["include"] == ["minigrad*"]


def test_tests_are_laid_out_by_what_they_test():
    """tests/engine/: minigrad's own tests; tests/course/: everything around it. Test files sit
    in one of the two (pytest's default import mode needs unique basenames)."""
    assert not list((ROOT / "tests").glob("test_*.py"))
    engine = {p.name for p in (ROOT / "tests" / "engine").glob("test_*.py")}
    course = {p.name for p in (ROOT / "tests" / "course").glob("test_*.py")}
    assert {"test_engine.py", "test_ops.py"} <= engine
    assert {"test_viz.py", "test_grading.py", "test_project.py", "test_browser.py"} <= course
    assert not engine & course
    assert "tests" in _pyproject()["tool"]["pytest"]["ini_options"]["testpaths"]


# ------------------------------------------------------- scripts and CI -----


def test_course_script_is_executable_bash():
    course = ROOT / "course"
    assert course.stat().st_mode & stat.S_IXUSR, "run: chmod +x course"
    assert course.read_text().startswith("#!/usr/bin/env bash\n")
    subprocess.run(["bash", "-n", str(course)], check=True)


def test_ci_runs_the_test_command_from_the_readme():
    commands = []
    for line in (ROOT / ".ci" / "run").read_text().splitlines():
        line = line.strip()
        if not line or line.startswith("#") or line.startswith("set ") or line.startswith("cd "):
            continue
        commands.append(line)
    assert commands == ["./course test"]
    readme_lines = {line.strip() for line in (ROOT / "README.md").read_text().splitlines()}
    assert commands[0] in readme_lines


def _run_dot_check(as_nobody: bool) -> subprocess.CompletedProcess:
    """Run `course check-dot` with a PATH that holds only bash (so no `dot`)."""
    bash = shutil.which("bash")
    assert bash
    tmp = Path(tempfile.mkdtemp(prefix="course-dot-"))
    try:
        # World-readable so that the unprivileged user can run the copy.
        tmp.chmod(0o755)
        (tmp / "bin").mkdir(mode=0o755)
        os.symlink(os.path.realpath(bash), tmp / "bin" / "bash")
        shutil.copy(ROOT / "course", tmp / "course")
        (tmp / "course").chmod(0o755)
        cmd = [str(tmp / "bin" / "bash"), str(tmp / "course"), "check-dot"]
        if as_nobody:
            cmd = [
                shutil.which("setpriv"),
                "--reuid=65534",
                "--regid=65534",
                "--clear-groups",
                *cmd,
            ]
        env = {"PATH": str(tmp / "bin"), "HOME": str(tmp), "LC_ALL": "C"}
        return subprocess.run(cmd, env=env, capture_output=True, text=True, timeout=60)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def _assert_polite_dot_failure(result: subprocess.CompletedProcess) -> None:
    assert result.returncode == 1, result
    err = result.stderr
    assert "Graphviz's `dot` program was not found" in err
    assert "sudo apt-get install graphviz" in err
    assert "conda install -c conda-forge python-graphviz" in err
    assert "brew install graphviz" in err
    assert "Traceback" not in err
    assert "command not found" not in err  # the script used a tool not on PATH
    assert "Installing" not in result.stdout  # it must not try apt-get


@pytest.mark.skipif(os.name != "posix", reason="bash script")
def test_dot_missing_not_root_fails_with_clear_message():
    if os.geteuid() == 0:
        assert shutil.which("setpriv"), "setpriv (util-linux) is needed to drop root"
        result = _run_dot_check(as_nobody=True)
    else:
        result = _run_dot_check(as_nobody=False)
    _assert_polite_dot_failure(result)


@pytest.mark.skipif(os.name != "posix" or os.geteuid() != 0, reason="needs root")
def test_dot_missing_root_without_apt_fails_with_clear_message():
    # Root, but apt-get is not on PATH either: same message, no install attempt.
    _assert_polite_dot_failure(_run_dot_check(as_nobody=False))


# ---------------------------------------------------- the minigrad package ---


@pytest.mark.package
def test_minigrad_imports_without_torch():
    code = (
        "import sys\n"
        "sys.modules['torch'] = None  # any `import torch` now raises ImportError\n"
        "import minigrad\n"
        "assert minigrad.__file__, 'minigrad/__init__.py is missing (namespace package)'\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=120
    )
    assert result.returncode == 0, result.stderr


@pytest.mark.package
def test_minigrad_source_does_not_import_torch():
    files = sorted((ROOT / "minigrad").rglob("*.py"))
    assert files, "minigrad/ has no Python files"
    offenders = []
    for path in files:
        rel = path.relative_to(ROOT).as_posix()
        if any(fnmatch.fnmatch(rel, pattern) for pattern in TORCH_ALLOWED):
            continue
        tree = ast.parse(path.read_text(encoding="utf-8"), filename=rel)
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom) and node.level == 0:
                names = [node.module or ""]
            else:
                continue
            if any(name.split(".")[0] == "torch" for name in names):
                offenders.append(f"{rel}:{node.lineno}")
    assert not offenders, (
        "minigrad must work with NumPy alone; torch is only allowed in "
        f"{TORCH_ALLOWED}. Found imports at: {offenders}"
    )
