"""Names older and newer tutorials use around the autograd code: ``torch.autograd.Variable``
(pre-0.4 tutorials) and ``torch.accelerator`` (the newest ones pick their device with it).
Each is compared with torch, run here."""

from __future__ import annotations

import pytest
import torch

import minigrad


@pytest.mark.parametrize("requires_grad", [False, True])
def test_variable_is_a_fresh_tensor_sharing_data_without_history(requires_grad):
    outcomes = []
    for lib in (torch, minigrad):
        x = lib.tensor([1.0, -2.0], requires_grad=True) * 2
        v = lib.autograd.Variable(x, requires_grad=requires_grad)
        with lib.no_grad():
            x.mul_(3)  # shares x's data
        outcomes.append((v.tolist(), v.requires_grad, v.grad_fn is None, v is x,
                         isinstance(x, lib.autograd.Variable),
                         isinstance([1.0], lib.autograd.Variable), v.is_leaf))
    assert outcomes[0] == outcomes[1]


def test_variable_refuses_what_is_not_a_tensor():
    for lib in (torch, minigrad):
        with pytest.raises(TypeError, match="^Variable data has to be a tensor, but got list$"):
            lib.autograd.Variable([1.0, 2.0])


def test_accelerator_as_a_cpu_only_torch():
    for lib in (torch, minigrad):
        acc = lib.accelerator
        assert (acc.is_available(), acc.current_accelerator(), acc.device_count()) == \
            (torch.accelerator.is_available(), torch.accelerator.current_accelerator(),
             torch.accelerator.device_count())
        for name in ("current_device_index", "synchronize"):
            with pytest.raises(RuntimeError) as raised:
                getattr(acc, name)()
            with pytest.raises(RuntimeError) as theirs:
                getattr(torch.accelerator, name)()
            assert str(raised.value) == str(theirs.value)
