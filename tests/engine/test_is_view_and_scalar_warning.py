"""Tensor._is_view() and the warning of float(t) on a tensor that requires grad (issue 22),
both against torch at test time.

The warning is torch's TORCH_WARN_ONCE, so each engine runs the same script in a fresh
interpreter and what it prints is compared.
"""

from __future__ import annotations

import subprocess
import sys

import pytest
import torch

import minigrad

VIEW_CASES = {
    "leaf": lambda x: x,
    "index": lambda x: x[0],
    "slice": lambda x: x[1:],
    "view": lambda x: x.view(2, 3),
    "view_of_view": lambda x: x.view(2, 3)[0],
    "reshape_viewable": lambda x: x.reshape(3, 2),
    "reshape_copy": lambda x: x.view(2, 3).t().reshape(6),
    "transpose": lambda x: x.view(2, 3).t(),
    "detach": lambda x: x.detach(),
    "detach_of_view": lambda x: x[1:].detach(),
    "data": lambda x: x.data,
    "clone": lambda x: x.clone(),
    "result": lambda x: x * 2,
    "expand": lambda x: x[:1].expand(4),
}


@pytest.mark.parametrize("requires_grad", [False, True])
@pytest.mark.parametrize("case", sorted(VIEW_CASES))
def test_is_view_matches_torch(case, requires_grad):
    f = VIEW_CASES[case]
    want = f(torch.arange(6.0).requires_grad_(requires_grad))._is_view()
    got = f(minigrad.arange(6.0).requires_grad_(requires_grad))._is_view()
    assert got is want


SCRIPT = """
import warnings
import {lib} as torch
steps = [("float plain", lambda: float(torch.tensor(1.0))),
         ("int grad", lambda: int(torch.tensor(1.0, requires_grad=True))),
         ("item grad", lambda: torch.tensor(1.0, requires_grad=True).item()),
         ("bool grad", lambda: bool(torch.tensor(1.0, requires_grad=True))),
         ("float grad", lambda: float(torch.tensor(1.0, requires_grad=True))),
         ("float grad again", lambda: float(torch.tensor([2.0], requires_grad=True))),
         ("complex grad", lambda: complex(torch.tensor(1.0, requires_grad=True)))]
for name, step in steps:
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        value = step()
    print(name, value, [(w.category.__name__, str(w.message).split(" (Triggered")[0],
                         w.filename) for w in caught])
"""


def run(lib: str) -> str:
    done = subprocess.run([sys.executable, "-c", SCRIPT.format(lib=lib)], capture_output=True,
                          text=True, check=True)
    return done.stdout


def test_float_of_a_tensor_that_requires_grad_warns_once_like_torch():
    """Only float() (and complex(), through it) warns, once per process, pointing at the
    caller's line, with torch's text."""
    expected, got = run("torch"), run("minigrad")
    assert got == expected
    assert expected.count("Converting a tensor with requires_grad=True") == 1
