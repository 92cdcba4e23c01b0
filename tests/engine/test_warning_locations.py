# ruff: noqa: E501 - cases are kept as a learner types them, one per line
"""Where tensor-level warnings point, as torch's do (``w.filename``/``w.lineno``).

Python's default filter shows a warning once per place it names: one torch raises from C++
names the learner's line that called it (shown once per such line), one from torch's own
Python, or from C++ that torch's Python calls, names torch's file (shown once a session).
Each case below is a learner's few lines; a warning must name the same line of them where
torch's does, and the library where torch's does. (``test_nn.py`` holds nn's own table.)

Several warnings are torch's once per process (create_graph's, set_default_tensor_type's, the
x.T of a 0-d tensor...), so each library runs the table once in a fresh interpreter, every case
in order, the first to warn in each process.
"""

from __future__ import annotations

import functools
import json
import subprocess
import sys
import warnings
from pathlib import Path

import numpy as np
import pytest

ROOT = Path(__file__).resolve().parents[2]

CASES = [
    "x = lib.ones(2, requires_grad=True)\n(x * x).sum().backward(create_graph=True)",
    "x = lib.ones(1)\nx.std()",
    "x = lib.ones(1)\nx.var()",
    "x = lib.ones(1)\nlib.std(x)",
    "x = lib.ones(1)\nlib.var(x)",
    "x = lib.ones(1, 3)\nx.std(dim=0)",
    "lib.ones(1).std(correction=2)",
    "x = lib.ones(1)\nlib.std_mean(x)",
    "x = lib.ones(1)\nlib.var_mean(x)",
    "lib.cov(lib.ones(1, 1))",
    "lib.meshgrid(lib.ones(2), lib.ones(2))",
    "lib.cross(lib.ones(3, 3), lib.ones(3, 3))",
    "y = lib.ones(2, requires_grad=True) * 2\ny.grad",
    "x = lib.ones(2)\nx[lib.tensor([1, 0], dtype=lib.uint8)]",
    "x = lib.ones(2, 3)\nx[[[0, 1], [1, 0]]]",
    "lib.add(lib.ones(2), 1, out=lib.empty(3))",
    "with lib.autograd.detect_anomaly():\n    pass",
    "lib.autograd.Function()",
    "x = lib.ones(2, requires_grad=True)\nlib.autograd.grad((x * 2).sum(), x, only_inputs=False)",
    "x = lib.ones(2, requires_grad=True)\nlib.autograd.backward((x * 2).sum(), grad_variables=lib.ones(()))",
    "lib.autograd.Variable(lib.ones(2), volatile=True)",
    "x = lib.ones(4)\nx.resize(2)",
    "x = lib.ones(2)\nx.resize_as(lib.ones(2))",
    "lib.utils.checkpoint.checkpoint(lambda t: t * 2, lib.ones(2), use_reentrant=True)",
    "lib.utils.data.random_split(range(2), [1.0, 0.0])",
    "lib.set_float32_matmul_precision('bad')",
    "lib.set_default_tensor_type(lib.DoubleTensor)\nlib.set_default_dtype(lib.float32)",
    "lib.autograd.gradcheck(lambda t: t * 2, (lib.ones(2, requires_grad=True),))",
    "lib.tensor(lib.ones(2))",
    "lib.ones(2).new_tensor(lib.ones(2))",
    "lib.range(0, 3)",
    "x = lib.ones(2, requires_grad=True)\nfloat(x.sum())",
    "x = lib.ones(3)\nx.T",
    "x = lib.ones(())\nx.T",
    "lib.ones(2).storage()",
    "lib.testing.assert_allclose(lib.ones(2), lib.ones(2))",
    # last (a learner's subclass changes how minigrad dispatches until it is collected): while
    # one lives, a plain tensor's warnings name the same lines; a subclass's, torch's dispatch
    "class S(lib.Tensor):\n    pass\nlib.nn.functional.softmax(lib.ones(2, 2))",
    "class S(lib.Tensor):\n    pass\nlib.nn.functional.log_softmax(lib.ones(2, 2))",
    "class S(lib.Tensor):\n    pass\nlib.nn.functional.mse_loss(lib.ones(2, 1), lib.ones(2))",
    "class S(lib.Tensor):\n    pass\nlib.nn.functional.nll_loss(lib.zeros(2, 2), lib.tensor([0, 1]), reduce=False)",
    "class S(lib.Tensor):\n    pass\nlib.nn.Softmax()(lib.ones(2, 2))",
    "class S(lib.Tensor):\n    pass\nlib.nn.MSELoss()(lib.ones(2, 1), lib.ones(2))",
    "class S(lib.Tensor):\n    pass\nlib.ones(1).std()",
    "class S(lib.Tensor):\n    pass\nlib.cov(lib.ones(1, 1))",
    "class S(lib.Tensor):\n    pass\nx = lib.ones(2, requires_grad=True)\nlib.autograd.grad((x * 2).sum(), x, only_inputs=False)",
    "class S(lib.Tensor):\n    pass\ns = lib.ones(2, 2).as_subclass(S)\nlib.nn.functional.softmax(s)",
    "class S(lib.Tensor):\n    pass\ns = lib.ones(2, 1).as_subclass(S)\nlib.nn.functional.mse_loss(s, lib.ones(2))",
    "class S(lib.Tensor):\n    pass\ns = lib.ones(1).as_subclass(S)\ns.std()",
    "class S(lib.Tensor):\n    pass\ns = lib.ones(1).as_subclass(S)\nlib.var_mean(s)",
]
_NUMPY2_MIGRATION = ("__array__ implementation doesn't accept a copy keyword",
                     "__array_wrap__ must accept context and return_scalar arguments")


def _places(lib) -> list:
    """For each case: its warnings, each as (category, the case's line it names or
    'library'), and how it ended."""
    out = []
    for i, code in enumerate(CASES):
        name = f"<learner-{i}>"
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            try:
                exec(compile(code, name, "exec"), {"lib": lib, "np": np})  # noqa: S102
                ended = "ok"
            except Exception as error:  # noqa: BLE001 - compared, not handled
                ended = type(error).__name__
        out.append([[w.category.__name__, w.lineno if w.filename == name else "library"]
                    for w in caught if not str(w.message).startswith(_NUMPY2_MIGRATION)]
                   + [ended])
    return out


@functools.cache
def _run(lib: str) -> list:
    """The table run once on ``lib`` in a fresh interpreter."""
    run = subprocess.run([sys.executable, __file__, lib], cwd=ROOT, capture_output=True,
                         text=True, timeout=300, env={"PYTHONPATH": str(ROOT), "PATH": ""})
    assert run.returncode == 0, run.stderr
    return json.loads(run.stdout)


@pytest.mark.parametrize("i", range(len(CASES)), ids=[c.splitlines()[-1][:40] for c in CASES])
def test_a_warning_names_the_line_torchs_names(i):
    assert _run("minigrad")[i] == _run("torch")[i], CASES[i]


def test_every_case_warns():
    """A case that no longer warns in torch tests nothing: replace it."""
    quiet = [code for code, got in zip(CASES, _run("torch"), strict=True) if len(got) < 2]
    assert not quiet


if __name__ == "__main__":
    if sys.argv[1] == "torch":
        import torch as library
    else:
        import minigrad as library
    print(json.dumps(_places(library)))
