"""Every entry of the op database in float16, forward, against torch.

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
from tests.engine.test_op_db import call, for_each_sample, numpy, params


def _same(m, t, what: str) -> None:
    m_dtype, t_dtype = m.dtype.name, str(t.dtype).removeprefix("torch.")
    assert m_dtype == t_dtype, f"{what}: dtype minigrad {m_dtype} vs torch {t_dtype}"
    assert tuple(m.shape) == tuple(t.shape), f"{what}: shape {tuple(m.shape)} vs {tuple(t.shape)}"
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
