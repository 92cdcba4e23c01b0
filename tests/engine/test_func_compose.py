"""torch.func's transforms composed at random (vmap, grad, jacrev, jacfwd, jvp, vjp, nested up
to three deep) over a table of the functions a learner differentiates, on torch and on
minigrad: the same shapes, dtypes and values, or the same error. Compared with torch at test
time."""

from __future__ import annotations

import numpy as np
import pytest
import torch
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import minigrad

BODIES = [
    lambda L, x: x.sin(), lambda L, x: x * x, lambda L, x: x.exp() / (1 + x * x),
    lambda L, x: L.tanh(x) * 2, lambda L, x: x.relu() + x.sigmoid(),
    lambda L, x: L.softmax(x, -1), lambda L, x: L.log_softmax(x, 0), lambda L, x: x.cumsum(0),
    lambda L, x: x.pow(3), lambda L, x: x.norm() * x, lambda L, x: x.exp().log1p() * x,
    lambda L, x: L.nn.functional.gelu(x), lambda L, x: x.max() * x, lambda L, x: x.mean() - x,
    lambda L, x: L.stack([x, x.sin()]).sum(0), lambda L, x: x.unsqueeze(0).expand(2, -1).sum(0),
    lambda L, x: x.var() * x, lambda L, x: L.logsumexp(x, 0) * x,
    lambda L, x: x.sum(-1, keepdim=True) * x,
    lambda L, x: x.atan() + x.sinh(), lambda L, x: L.where(x > 0, x, -x),
    lambda L, x: L.nn.functional.softplus(x), lambda L, x: x.clamp(-0.5, 0.5),
]

TRANSFORMS = {
    "vmap": lambda L, f: L.func.vmap(f),
    "vmap1": lambda L, f: L.func.vmap(f, in_dims=-1, out_dims=-1),
    "grad": lambda L, f: L.func.grad(lambda x: f(x).sum()),
    "grad2": lambda L, f: L.func.grad(lambda x: f(x).pow(2).mean()),
    "jacrev": lambda L, f: L.func.jacrev(f),
    "jacfwd": lambda L, f: L.func.jacfwd(f),
    "jvp": lambda L, f: lambda x: L.func.jvp(f, (x,), (L.ones_like(x),))[1],
    "vjp": lambda L, f: lambda x: L.func.vjp(f, x)[1](L.ones_like(f(x)))[0],
}


def _run(L, body, names, shape, dtype):
    f = lambda x: body(L, x)  # noqa: E731
    for name in names:
        f = TRANSFORMS[name](L, f)
    x = L.linspace(-1.5, 2.0, int(np.prod(shape)), dtype=getattr(L, dtype)).view(*shape)
    try:
        out = f(x)
    except Exception as e:  # noqa: BLE001 - the error is compared
        return type(e).__name__, str(e).replace("minigrad", "torch")
    # (torch's where under grad(jvp) gives a tensor whose storage only a copy reads)
    values = out.detach().clone().tolist() if L is torch else out.detach().tolist()
    return tuple(out.shape), str(out.dtype).replace("minigrad", "torch"), values


@settings(max_examples=40, deadline=None, suppress_health_check=list(HealthCheck))
@given(body=st.sampled_from(range(len(BODIES))),
       names=st.lists(st.sampled_from(sorted(TRANSFORMS)), min_size=1, max_size=3),
       shape=st.sampled_from([(3,), (2, 3)]),
       dtype=st.sampled_from(["float32", "float64"]))
def test_composed_transforms(body, names, shape, dtype):
    expected = _run(torch, BODIES[body], names, shape, dtype)
    got = _run(minigrad, BODIES[body], names, shape, dtype)
    if isinstance(expected[1], str) and not expected[1].startswith("torch."):  # an error
        assert got == expected
        return
    assert got[:2] == expected[:2]
    tol = 1e-4 if dtype == "float32" else 1e-10
    np.testing.assert_allclose(np.array(got[2]), np.array(expected[2]), rtol=tol, atol=tol)


@pytest.mark.parametrize("names", [("grad", "grad"), ("jacrev", "jacfwd"), ("vmap", "grad"),
                                   ("grad", "vmap"), ("jvp", "grad"), ("vjp", "vmap")])
def test_composed_transforms_table(names):
    for body in BODIES:
        expected = _run(torch, body, names, (2, 3), "float64")
        got = _run(minigrad, body, names, (2, 3), "float64")
        assert got[:2] == expected[:2]
        if len(got) == 3:
            np.testing.assert_allclose(np.array(got[2]), np.array(expected[2]), rtol=1e-10,
                                       atol=1e-12)
