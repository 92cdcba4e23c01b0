"""torch.vander, torch.linalg.vander and torch.gradient: composites in torch, so what is
compared is what torch builds from its ops (values, dtypes, graphs node by node, errors),
computed by torch at test time. (op_db runs vander and linalg.vander through its checks too.)
"""

from __future__ import annotations

import numpy as np
import pytest

from tests.torch_compare import both_engines, graph_signature

X = [1.5, 2.0, -0.5, 0.25]


def _facts(result):
    """A result as plain data: dtype, shape, values, the graph's node names, its version."""
    return (str(result.dtype).split(".")[-1], tuple(result.shape), result.tolist(),
            graph_signature(result.grad_fn), result._version, result.requires_grad)


# --- vander, linalg.vander --------------------------------------------------------------------
VANDER_CALLS = {
    "default": lambda lib, x: lib.vander(x),
    "N=2 increasing": lambda lib, x: lib.vander(x, 2, True),
    "N=6": lambda lib, x: lib.vander(x, N=6),
    "N=1": lambda lib, x: lib.vander(x, 1),
    "N=0": lambda lib, x: lib.vander(x, 0, increasing=True),
    "N=None": lambda lib, x: lib.vander(x, None, True),
    "0-d int N": lambda lib, x: lib.vander(x, lib.tensor(3)),
    "strided": lambda lib, x: lib.vander(x[::2], increasing=True),
    "empty": lambda lib, x: lib.vander(x[:0]),
    "int8": lambda lib, x: lib.vander(lib.tensor([3, -2, 5], dtype=lib.int8), 5),
    "uint8": lambda lib, x: lib.vander(lib.tensor([3, 2], dtype=lib.uint8)),
    "bool": lambda lib, x: lib.vander(lib.tensor([True, False])),
    "int64 wraps": lambda lib, x: lib.vander(lib.tensor([3000, -7]), 7),
    "float16": lambda lib, x: lib.vander(x.detach().half() * 3, 4),
    "float64": lambda lib, x: lib.vander(x.double(), increasing=True),
    "2-d": lambda lib, x: lib.vander(x.view(2, 2)),
    "0-d": lambda lib, x: lib.vander(x[0]),
    "negative N": lambda lib, x: lib.vander(x, -1),
    "float N": lambda lib, x: lib.vander(x, 2.5),
    "bool N": lambda lib, x: lib.vander(x, True),
    "int increasing": lambda lib, x: lib.vander(x, increasing=1),
    "list": lambda lib, x: lib.vander([1.0, 2.0]),
    "no method": lambda lib, x: x.vander(),
    "linalg": lambda lib, x: lib.linalg.vander(x),
    "linalg N=5": lambda lib, x: lib.linalg.vander(x, N=5),
    "linalg batch": lambda lib, x: lib.linalg.vander(x.view(2, 2), N=3),
    "linalg 0-d": lambda lib, x: lib.linalg.vander(x[1], N=3),
    "linalg 0-d no N": lambda lib, x: lib.linalg.vander(x[1]),
    "linalg N=1": lambda lib, x: lib.linalg.vander(x, N=1),
    "linalg empty": lambda lib, x: lib.linalg.vander(x[:0]),
    "linalg positional N": lambda lib, x: lib.linalg.vander(x, 3),
    "linalg float N": lambda lib, x: lib.linalg.vander(x, N=2.5),
    "linalg int8": lambda lib, x: lib.linalg.vander(lib.tensor([3, 2], dtype=lib.int8), N=6),
    "linalg uint8": lambda lib, x: lib.linalg.vander(lib.tensor([3, 2], dtype=lib.uint8)),
    "linalg bool": lambda lib, x: lib.linalg.vander(lib.tensor([True])),
    "linalg float16": lambda lib, x: lib.linalg.vander(x.half()),
    "linalg out": lambda lib, x: lib.linalg.vander(x, out=x),
}


@pytest.mark.parametrize("call", VANDER_CALLS.values(), ids=VANDER_CALLS.keys())
def test_vander_matches_torch(call):
    """Values and dtypes (integers and bools give int64, as cumprod does; float16 stays), the
    graph torch's composition builds (vander: FlipBackward0 over two CopySlices;
    linalg.vander: CatBackward0 of CumprodBackward0 of ExpandBackward0), the result's
    version (vander writes in place), and the errors."""
    both_engines(lambda lib: _facts(call(lib, lib.tensor(X, requires_grad=True))))


@pytest.mark.parametrize("increasing", [False, True])
def test_vander_backward_fails_as_torchs(increasing):
    """torch.vander's own backward raises: its cumprod saved the slice it read, which the
    second copy_ overwrites. minigrad's composition is torch's, so it raises the same error;
    linalg.vander differentiates."""
    def grads(lib):
        x = lib.tensor(X, requires_grad=True)
        return lib.autograd.grad(lib.vander(x, increasing=increasing).sum(), x)[0].tolist()

    def linalg_grads(lib):
        x = lib.tensor(X, requires_grad=True, dtype=lib.float64)
        return lib.autograd.grad((lib.linalg.vander(x) ** 2).sum(), x)[0].tolist()

    assert both_engines(grads)[0] == "RuntimeError"
    assert both_engines(linalg_grads)[0] == "ok"


def test_vander_forward_mode_matches_torch():
    """Forward mode goes through the copies and the cumulative product."""
    def tangent(lib):
        fw = lib.autograd.forward_ad
        with fw.dual_level():
            x = fw.make_dual(lib.tensor(X, dtype=lib.float64),
                             lib.tensor(np.arange(4.0) - 1.5, dtype=lib.float64))
            return [fw.unpack_dual(v).tangent.tolist()
                    for v in (lib.vander(x), lib.linalg.vander(x, N=3))]

    kind, (vander, linalg) = both_engines(tangent)
    assert kind == "ok" and len(vander) == 4
