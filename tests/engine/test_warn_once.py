"""Warnings torch gives once per process (TORCH_WARN_ONCE), compared in fresh interpreters.

Within the test session either engine may have warned already, so the same script runs in a
new Python process per engine and what it prints (the warnings each step raises) is compared.
"""

from __future__ import annotations

import subprocess
import sys

SCRIPT = """
import warnings
import {lib} as torch
for shape in [(2, 3, 4), (3,), (2, 3, 4), (), (), (2, 3)]:
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        out = torch.ones(shape).T
    print(tuple(out.shape), [(w.category.__name__, str(w.message).split(" (Triggered")[0])
                             for w in caught])
for step in range(2):
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        x = torch.tensor(2., requires_grad=True)
        torch.autograd.grad(x ** 2, x, create_graph=True)
        (x ** 3).backward(create_graph=True)
    print(step, [str(w.message).split(" (Triggered")[0] for w in caught])
import numpy as np
for step in range(2):
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        print(torch.tensor([np.arange(2.), np.ones(2)]).tolist())
    print(step, [str(w.message).split(" (Triggered")[0] for w in caught])
a = torch.ones(2, requires_grad=True)
for kwargs in [dict(), dict(), dict(requires_grad=False)]:
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        torch.asarray(a, **kwargs)
    print(kwargs, [str(w.message).split(" (Triggered")[0] for w in caught])
"""


def run(lib: str) -> str:
    done = subprocess.run([sys.executable, "-c", SCRIPT.format(lib=lib)], capture_output=True,
                          text=True, check=True)
    return done.stdout


def test_warnings_given_once_per_process_like_torch():
    """x.T on other than 2-D tensors, backward(create_graph=True), a list of arrays, and
    torch.asarray of a tensor that requires grad without saying requires_grad."""
    expected, got = run("torch"), run("minigrad")
    assert got == expected
    assert "dimension other than 2" in expected and "0-D" in expected  # both messages seen
    assert "reference cycle" in expected
    assert "list of numpy.ndarrays" in expected
    assert "torch.asarray: unspecified requires_grad" in expected


DEFAULT_TYPE_SCRIPT = """
import warnings
import {lib} as torch
try:
    for t in ['float', torch.LongTensor, torch.DoubleTensor, 'torch.FloatTensor',
              'torch.cuda.FloatTensor', torch.HalfTensor]:
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            try:
                torch.set_default_tensor_type(t)
                outcome = str(torch.get_default_dtype())
            except Exception as e:
                outcome = f"{{type(e).__name__}}: {{e}}"
        print(outcome.replace("minigrad", "torch"),
              [(w.category.__name__, str(w.message).split(" (Triggered")[0]) for w in caught])
finally:
    torch.set_default_dtype(torch.float32)
"""


def test_set_default_tensor_type_warns_once_like_torch():
    """Deprecated since torch 2.1: the first call warns (even one that then raises), after
    the dotted name is imported (a bad name raises first, without warning)."""
    def run_script(lib):
        return subprocess.run([sys.executable, "-c", DEFAULT_TYPE_SCRIPT.format(lib=lib)],
                              capture_output=True, text=True, check=True).stdout
    expected, got = run_script("torch"), run_script("minigrad")
    assert got == expected
    assert expected.count("deprecated as of PyTorch 2.1") == 1
