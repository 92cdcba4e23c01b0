"""Every public name of torch's mirrored packages either works in minigrad or says that minigrad
leaves it out (``minigrad/_left_out.py``), for attribute access, ``from ... import`` and
``import`` alike; names torch does not have either keep torch's own wording.

The list minigrad consults (``minigrad/_torch_names.py``) is generated from torch; the first
test regenerates it in a fresh interpreter and fails if torch has other names.
"""

from __future__ import annotations

import importlib
import re
import subprocess
import sys
import warnings
from pathlib import Path

import pytest
import torch

import minigrad
from minigrad._torch_names import NAMES

ROOT = Path(__file__).resolve().parents[2]


def test_the_list_is_torchs():
    """A fresh interpreter (its ``dir(torch)`` is not widened by what this process imported)."""
    run = subprocess.run([sys.executable, "tools/torch_names.py", "--check"], cwd=ROOT,
                         capture_output=True, text=True, timeout=300)
    assert run.returncode == 0, run.stderr


def _target(package: str):
    return minigrad.ones(2) if package == "minigrad.Tensor" else importlib.import_module(package)


def _torch_name(package: str, name: str) -> str:
    return f"torch{package[len('minigrad'):]}.{name}"


@pytest.mark.parametrize("package", sorted(NAMES))
def test_every_torch_name_works_or_says_it_is_left_out(package):
    target = _target(package)
    left_out = 0
    for name in sorted(NAMES[package]):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            try:
                getattr(target, name)
            except AttributeError as error:
                left_out += 1
                assert str(error).startswith(
                    f"minigrad does not implement {_torch_name(package, name)}: "), (name, error)
            except Exception:  # noqa: BLE001, S112 - it exists (mT of a 1-D tensor raises...)
                continue
    assert left_out < len(NAMES[package])  # minigrad has some of each


@pytest.mark.parametrize("package", sorted(set(NAMES) - {"minigrad.Tensor"}))
def test_import_statements_say_so_too(package):
    module = importlib.import_module(package)
    missing = [n for n in sorted(NAMES[package]) if not hasattr(module, n)]
    assert missing
    for name in missing[:40]:
        expected = rf"^minigrad does not implement {re.escape(_torch_name(package, name))}: "
        with pytest.raises(ImportError, match=expected):
            exec(f"from {package} import {name}", {})
        if hasattr(module, "__path__"):  # a package (import x.y of a module is Python's error)
            with pytest.raises(ImportError, match=expected):
                importlib.import_module(f"{package}.{name}")


@pytest.mark.parametrize("package", sorted(NAMES))
def test_names_torch_lacks_too_keep_torchs_wording(package):
    for lib in (torch, minigrad):
        target = (lib.ones(2) if package == "minigrad.Tensor"
                  else importlib.import_module(lib.__name__ + package[len("minigrad"):]))
        with pytest.raises(AttributeError) as caught:
            target.no_such_name  # noqa: B018
        text = str(caught.value).replace(lib.__name__, "LIB")
        if package == "minigrad.Tensor":
            assert text == "'Tensor' object has no attribute 'no_such_name'"
        else:
            assert text == (f"module '{'LIB' + package[len('minigrad'):]}' has no attribute "
                            "'no_such_name'")
    with pytest.raises(ModuleNotFoundError, match="^No module named 'minigrad.no_such_name'$"):
        importlib.import_module("minigrad.no_such_name")


def test_a_learner_s_examples():
    """What a learner reaches for, as they would type it."""
    for expr in ("minigrad.stft", "minigrad.ones(2).stft", "minigrad.nn.Conv3d",
                 "minigrad.nn.functional.grid_sample", "minigrad.sparse"):
        with pytest.raises(AttributeError, match="^minigrad does not implement torch"):
            eval(expr, {"minigrad": minigrad})
    for statement in ("import minigrad.masked", "from minigrad import fx",
                      "import minigrad.nn.utils.prune", "from minigrad.nn import Bilinear"):
        with pytest.raises(ImportError, match="^minigrad does not implement torch"):
            exec(statement, {})
    assert not hasattr(minigrad.ones(2), "stft") and not hasattr(minigrad, "masked")
