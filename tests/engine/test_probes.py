"""The differential probe suite: short snippets a curious learner would type, run on both engines.

Each snippet in ``tests/engine/probes/<category>.py`` runs twice in a fresh namespace: once
with ``torch`` bound to real torch, once with ``torch`` bound to minigrad (``import torch``
inside a snippet gives minigrad too); ``np`` is NumPy in both. What the snippet prints, the
exception it ends with (type and message) and the warnings it raises (category and message)
must be identical, after minigrad's deliberate spelling differences are mapped to torch's
(``minigrad.`` -> ``torch.``, ``minigrad::`` -> ``torch::``) and memory addresses blanked.

A category's ``KNOWN`` dict lists snippets that still differ, each with the reason; they run
as strict xfails, so one that starts passing fails the suite and must move to ``PROBES``.

A category's ``KERNEL_DEPENDENT`` set names snippets (of ``PROBES`` or ``KNOWN``) whose torch
output depends on the CPU's kernels (``tests/cpu_kernels.py``): where torch runs its vectorised
kernels, which minigrad reproduces, they are checked as above; elsewhere a probe's text must
match with every number within ``4 u M`` (``u = 2**-24``, ``M`` the largest number printed:
these are ``start + i * step`` computed with the product rounded or not, see
``cpu_kernels.fma_bound``, with ``|i * step| <= 2 M``), plus what printing at its precision
moved it, whatever notation torch picks (an exact 0 printed 0.0000 where minigrad's -3e-8 turns
the whole tensor scientific); a known difference is a non-strict xfail (it may agree there).
"""

from __future__ import annotations

import builtins
import contextlib
import difflib
import gc
import importlib
import io
import re
import warnings

import numpy as np
import pytest
import torch

import minigrad
from minigrad._ops import subclass
from tests.cpu_kernels import VECTOR_KERNELS

CATEGORIES = ["views_inplace", "versions", "signed_zeros", "dtypes", "numpy_interop", "devices",
              "reprs", "misc", "autograd_api", "random", "everyday_ops", "red_team",
              "manipulation", "statistics_losses", "optimizers", "activations", "doc_examples",
              "redteam_books", "tensor_subclasses", "redteam_func", "redteam_print",
              "redteam_loose", "redteam_courses"]
_ADDRESS = re.compile(r"0x[0-9a-fA-F]+")
_TRIGGERED = re.compile(r" ?\(Triggered internally at [^)]*\)\.?")


def normalize(text: str) -> str:
    """minigrad's text in torch's spelling (its only deliberate difference), addresses blanked."""
    text = text.replace("minigrad::", "torch::").replace("minigrad.", "torch.")
    text = re.sub(r"\bminigrad\b", "torch", text)  # a module's name, as in type(x).__module__
    return _ADDRESS.sub("0x…", text)


def _redirecting_import(name, globals=None, locals=None, fromlist=(), level=0):  # noqa: A002
    if level == 0 and (name == "torch" or name.startswith("torch.")):
        name = "minigrad" + name[len("torch"):]
    return builtins.__import__(name, globals, locals, fromlist, level)


# NumPy 2 warns that torch 2.13's __array__ and __array_wrap__ predate its protocol (no
# ``copy`` keyword): torch's own debt, not behaviour to copy. minigrad implements the protocol.
_NUMPY2_MIGRATION = ("__array__ implementation doesn't accept a copy keyword",
                     "__array_wrap__ must accept context and return_scalar arguments")

# forward AD's first use in a process (make_dual: torch.func.jvp, jacfwd, hessian) loads
# TorchScript decompositions, whose torch.jit deprecation warnings would land in that probe
with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    import torch._decomp.decompositions_for_jvp  # noqa: F401

_MINIGRAD_BUILTINS = {**vars(builtins), "__import__": _redirecting_import}


def run(code: str, engine: str) -> str:
    """Everything observable about one run of ``code``, as text."""
    if engine == "torch":
        namespace = {"torch": torch, "np": np, "__name__": "__main__"}
    else:
        namespace = {"torch": minigrad, "np": np, "__name__": "__main__",
                     "__builtins__": _MINIGRAD_BUILTINS}
    out = io.StringIO()
    error = None
    with warnings.catch_warnings(record=True) as caught, contextlib.redirect_stdout(out):
        warnings.simplefilter("always")
        try:
            exec(compile(code, "<probe>", "exec"), namespace)
        except Exception as exc:  # noqa: BLE001 - every error is compared, not handled
            error = f"{type(exc).__name__}: {exc}"
        finally:
            namespace["torch"].set_default_dtype(namespace["torch"].float32)
    lines = out.getvalue().splitlines()
    lines += [f"warning {w.category.__name__}: {w.message}" for w in caught
              if not str(w.message).startswith(_NUMPY2_MIGRATION)]
    if error is not None:
        lines.append(f"raised {error}")
    text = "\n".join(lines)
    if engine == "minigrad":
        if subclass.active:  # a snippet's Tensor subclass: collected now, so that dispatch
            namespace.clear()  # (and the frame it adds to nn.functional) ends with it
            gc.collect()
        return normalize(text)
    return _ADDRESS.sub("0x…", _TRIGGERED.sub("", text))  # where in torch's C++, not what


KERNEL_DEPENDENT = set()


def _load():
    probes, known = [], []
    for category in CATEGORIES:
        module = importlib.import_module(f"tests.engine.probes.{category}")
        dependent = getattr(module, "KERNEL_DEPENDENT", set())
        assert dependent <= set(module.PROBES) | set(module.KNOWN), category  # no stale entry
        KERNEL_DEPENDENT.update(dependent)
        for i, code in enumerate(module.PROBES):
            probes.append(pytest.param(code, id=f"{category}-{i}"))
        for i, (code, reason) in enumerate(module.KNOWN.items()):
            strict = VECTOR_KERNELS or code not in dependent
            known.append(pytest.param(code, id=f"{category}-known-{i}",
                                      marks=pytest.mark.xfail(strict=strict, reason=reason)))
    return probes, known


PROBES, KNOWN = _load()
_NUMBER = re.compile(r"[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?")


def _half_unit(number: str) -> float:
    """Half a unit in the last printed digit: how far printing may have moved the number."""
    mantissa, _, exponent = number.lower().partition("e")
    decimals = len(mantissa.partition(".")[2])
    return 0.5 * 10.0 ** (int(exponent or 0) - decimals)


def _same_up_to_rounding(expected: str, got: str) -> bool:
    """The same text once numbers and spacing are set aside, and every number within
    ``4 u M`` of torch's, plus what printing each at its precision may have moved it (see the
    module's docstring)."""
    def skeleton(text):
        return "".join(_NUMBER.sub("#", text).split())
    if skeleton(expected) != skeleton(got):
        return False
    numbers = _NUMBER.findall(expected), _NUMBER.findall(got)
    a, b = (np.array([float(v) for v in found]) for found in numbers)
    printing = np.array([_half_unit(x) + _half_unit(y) for x, y in zip(*numbers, strict=True)])
    largest = float(np.abs(a).max(initial=0.0))
    return bool((np.abs(a - b) <= 4 * 2.0 ** -24 * largest + printing).all())


def side_by_side(expected: str, got: str, width: int = 60) -> str:
    """torch's lines and minigrad's in two columns, ``|`` where they agree and ``X`` where
    they differ; long lines are wrapped so each column stays readable."""
    a, b = expected.splitlines(), got.splitlines()
    rows = [f"{'torch':<{width}}   minigrad"]
    for i in range(max(len(a), len(b))):
        left, right = (a[i] if i < len(a) else ""), (b[i] if i < len(b) else "")
        mark = "|" if left == right else "X"
        lefts = [left[j:j + width] for j in range(0, max(len(left), 1), width)]
        rights = [right[j:j + width] for j in range(0, max(len(right), 1), width)]
        for k in range(max(len(lefts), len(rights))):
            l_part = lefts[k] if k < len(lefts) else ""
            r_part = rights[k] if k < len(rights) else ""
            rows.append(f"{l_part:<{width}} {mark} {r_part}")
    return "\n".join(rows)


def check(code: str) -> None:
    expected, got = run(code, "torch"), run(code, "minigrad")
    if code in KERNEL_DEPENDENT and not VECTOR_KERNELS and _same_up_to_rounding(expected, got):
        return
    if expected != got:
        diff = "\n".join(difflib.unified_diff(expected.splitlines(), got.splitlines(),
                                              "torch", "minigrad", lineterm=""))
        pytest.fail(f"minigrad differs from torch on:\n{code}\n\n"
                    f"{side_by_side(expected, got)}\n\n{diff}", pytrace=False)


@pytest.mark.parametrize("code", PROBES)
def test_probe(code):
    check(code)


@pytest.mark.parametrize("code", KNOWN)
def test_known_difference(code):
    """A known difference must still differ: when it starts passing, move it to PROBES."""
    check(code)



def test_probes_are_many_and_distinct():
    assert len(PROBES) + len(KNOWN) >= 150
    codes = [p.values[0] for p in PROBES + KNOWN]
    assert len(codes) == len(set(codes)), "a snippet is listed twice"
