"""Every entry of the op database in float16, forward and backward, against torch.

torch's CPU kernels compute float16 in float32 and round each result once (its "opmath");
minigrad does the same for the arithmetic, reductions, products, softmax and layer norm, and
``test_common_dtype_values.py`` holds the element-wise arithmetic to torch bit for bit. Some of
torch's float16 kernels take their own mixed steps (a sum in float16 here, a float32 one
there), so values are compared within float16's tolerance as torch's own OpInfo tests
override it for float16 (``rtol=atol=1e-2``); the dtype, the shape, ``requires_grad`` and the
error (type) when torch refuses must be the same. This is what catches an op that silently
returns float32 or float64 for float16 inputs.
"""

from __future__ import annotations

import numpy as np
import pytest
import torch

import minigrad
from tests.engine.test_op_db import (
    call,
    differentiable,
    for_each_sample,
    numpy,
    params,
    random_like,
    rng,
)


def _same(m, t, what: str, requires_grad: bool = True) -> None:
    m_dtype, t_dtype = m.dtype.name, str(t.dtype).removeprefix("torch.")
    assert m_dtype == t_dtype, f"{what}: dtype minigrad {m_dtype} vs torch {t_dtype}"
    assert tuple(m.shape) == tuple(t.shape), f"{what}: shape {tuple(m.shape)} vs {tuple(t.shape)}"
    if requires_grad:
        assert m.requires_grad == t.requires_grad, f"{what}: requires_grad"
    np.testing.assert_allclose(numpy(m).astype(np.float64), numpy(t).astype(np.float64),
                               rtol=1e-2, atol=1e-2, equal_nan=True, err_msg=what)


@pytest.mark.parametrize("entry,dtype", params("forward", ("float16",)))
def test_forward_float16(entry, dtype):
    def check(i, sample):
        try:
            t_outs, _ = call(torch, entry, sample, dtype)
        except Exception as exc:  # noqa: BLE001 - torch's refusal is the expected result
            with pytest.raises(type(exc)):
                call(minigrad, entry, sample, dtype)
            return
        m_outs, _ = call(minigrad, entry, sample, dtype)
        assert len(m_outs) == len(t_outs), f"{len(m_outs)} outputs vs torch {len(t_outs)}"
        for k, (m, t) in enumerate(zip(m_outs, t_outs)):
            if isinstance(t, torch.Tensor):
                _same(m, t, f"output {k}")
            else:
                assert m == t, f"output {k}: {m!r} vs torch {t!r}"

    for_each_sample(entry, dtype, check)


@pytest.mark.parametrize("entry,dtype", params("backward", ("float16",)))
def test_backward_float16(entry, dtype):
    """The gradients of every differentiable input: float16 as torch's (a formula that
    strays into float32 or float64 shows here), values within float16's tolerance."""
    def check(i, sample):
        try:
            t_outs, t_in = call(torch, entry, sample, dtype)
        except Exception:  # noqa: BLE001 - refused in float16: test_forward_float16's case
            return
        m_outs, m_in = call(minigrad, entry, sample, dtype)
        diff = differentiable(t_outs)
        if not diff or not entry.supports_backward:
            return
        r = rng(entry, i, "upstream")
        upstream = [random_like(r, t_outs[k]) for k in diff]

        def grads(lib, outs, inputs):
            return lib.autograd.grad([outs[k] for k in diff], inputs,
                                     [lib.tensor(v) for v in upstream], allow_unused=True)

        try:
            t_grads = grads(torch, t_outs, t_in)
        except Exception as exc:  # noqa: BLE001 - torch's refusal is the expected result
            with pytest.raises(type(exc)):
                grads(minigrad, m_outs, m_in)
            return
        for j, (m, t) in enumerate(zip(grads(minigrad, m_outs, m_in), t_grads)):
            if t is None:
                assert m is None, f"grad of input {j}: minigrad has one, torch None"
                continue
            _same(m, t, f"grad of input {j}", requires_grad=False)

    for_each_sample(entry, dtype, check)
