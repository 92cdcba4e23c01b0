"""Checks on the project itself: packaging, environment files, scripts, CI.

These do not test the autograd engine; they keep the scaffolding around it
honest (pins agree, the documented commands are the ones CI runs, the set-up
script fails politely). That minigrad stands alone (no torch, no coursekit, no
Jupyter) is checked in tests/engine/test_package.py.
"""

from __future__ import annotations

import os
import re
import shutil
import stat
import subprocess
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
    # Packages conda-forge lacks are pip-installed there, pinned the same way.
    for item in pip:
        if "==" in item:
            name, version = _parse_pin(item, "==")
            assert name not in conda_pins, f"{name} is pinned twice in environment.yml"
            conda_pins[name] = version

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


def test_only_minigrad_and_coursekit_are_packaged():
    find = _pyproject()["tool"]["setuptools"]["packages"]["find"]
    assert find["include"] == ["minigrad*", "coursekit*"]
    for package in ("minigrad", "coursekit"):
        assert (ROOT / package / "__init__.py").is_file(), package


def test_tests_are_laid_out_by_what_they_test():
    """tests/engine/: minigrad's own tests; tests/course/: everything around it. Test files sit
    in one of the two (pytest's default import mode needs unique basenames)."""
    assert not list((ROOT / "tests").glob("test_*.py"))
    engine = {p.name for p in (ROOT / "tests" / "engine").glob("test_*.py")}
    course = {p.name for p in (ROOT / "tests" / "course").glob("test_*.py")}
    assert {"test_engine.py", "test_ops.py", "test_package.py"} <= engine
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


# ------------------------------------------- the tools moved out of minigrad ---

# What moved from minigrad/ to coursekit/ (issue 12). Spelled in pieces so this file does not
# match itself.
_OLD = "mini" + "grad"
STALE = re.compile(rf"\b{_OLD}[./](compare|compare_hints|viz|stepper|grading)\b"
                   rf"|\bfrom {_OLD} import [^\n]*\b(compare|viz|stepper|grading)\b")
SKIP_DIRS = {".git", ".venv", "test-artifacts", "__pycache__", ".pytest_cache", ".ruff_cache",
             ".hypothesis", ".ipynb_checkpoints", "build", "dist"}


def _repo_text_files():
    for dirpath, dirnames, filenames in os.walk(ROOT):
        dirnames[:] = [d for d in dirnames
                       if d not in SKIP_DIRS and not d.endswith(".egg-info")]
        for name in filenames:
            path = Path(dirpath) / name
            if path.suffix in {".py", ".md", ".ipynb", ".toml", ".yml", ".txt", ".cfg"} or \
                    name in {"course", "run"}:
                yield path


def test_no_stale_references_to_the_tools_moved_to_coursekit():
    stale = []
    for path in _repo_text_files():
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            if STALE.search(line):
                stale.append(f"{path.relative_to(ROOT)}:{n}: {line.strip()[:100]}")
    assert not stale, "use coursekit's names:\n" + "\n".join(stale)


def test_course_script_and_docs_use_coursekit():
    course = (ROOT / "course").read_text(encoding="utf-8")
    assert '"$VPY" -m coursekit.compare_hints install' in course
    assert "-m coursekit.grading exercises/" in course
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert "python -m coursekit.compare_hints install" in readme
    assert ".venv/bin/python -m coursekit.grading exercises/" in readme


def _map_rows(text: str) -> set[str]:
    """The lesson names (``NN_slug``) in the first column of a markdown table."""
    return set(re.findall(r"^(?:# )?\| `(\d\d_\w+)` \|", text, flags=re.M))


def test_readme_and_lesson_00_list_every_lesson_and_exercise_once():
    lessons = {p.stem for p in (ROOT / "notebooks").glob("[0-9][0-9]_*.ipynb")}
    exercises = {p.stem for p in (ROOT / "exercises").glob("[0-9][0-9]_*.ipynb")}
    readme = (ROOT / "README.md").read_text("utf-8")
    welcome = (ROOT / "notebooks" / "00_welcome.py").read_text("utf-8")
    assert _map_rows(readme) == lessons
    assert _map_rows(welcome) == lessons
    for name in lessons:
        assert len(re.findall(rf"^(?:# )?\| `{name}` \|", readme, flags=re.M)) == 1, name
    for name in exercises:
        assert f"`exercises/{name}.ipynb`" in readme, name
