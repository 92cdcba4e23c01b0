"""Anomaly detection (``autograd.detect_anomaly``): the same switches, warnings and errors as
torch's, checked against torch at test time."""

from __future__ import annotations

import warnings

import pytest
import torch

import minigrad


def _nan_backward(lib, check_nan=True):
    """0/0 in backward: DivBackward0 returns NaN for ``other`` at x = 0."""
    x = lib.tensor([0.0, 1.0], requires_grad=True)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        with lib.autograd.detect_anomaly(check_nan=check_nan):
            try:
                (x / x).sum().backward()
                error = None
            except RuntimeError as e:
                error = str(e)
    return error, [str(w.message) for w in caught], x.grad


def test_nan_in_backward_is_reported_as_torch_does():
    m_err, m_warns, _ = _nan_backward(minigrad)
    t_err, t_warns, _ = _nan_backward(torch)
    assert t_err is not None and m_err == t_err
    assert m_warns[0] == t_warns[0]  # "Anomaly Detection has been enabled..."


def test_check_nan_false_lets_nan_through():
    m_err, _, m_grad = _nan_backward(minigrad, check_nan=False)
    t_err, _, t_grad = _nan_backward(torch, check_nan=False)
    assert m_err is None and t_err is None
    assert str(m_grad).replace("minigrad", "torch") == str(t_grad)


def _failing_backward(lib):
    class Boom(lib.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            return x * 2

        @staticmethod
        def backward(ctx, grad):
            raise ValueError("boom")

    x = lib.ones(2, requires_grad=True)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        with lib.autograd.detect_anomaly():
            y = Boom.apply(x).sum()  # the forward call the warning must point at
            with pytest.raises(ValueError, match="boom"):
                y.backward()
    return [str(w.message) for w in caught]


def test_error_in_backward_names_the_node_and_the_forward_line():
    m_warns, t_warns = _failing_backward(minigrad), _failing_backward(torch)
    head = "Error detected in BoomBackward. Traceback of forward call that caused the error:"
    m_error = next(w for w in m_warns if w.startswith("Error detected"))
    t_error = next(w for w in t_warns if w.startswith("Error detected"))
    assert m_error.startswith(head) and t_error.startswith(head)
    assert "y = Boom.apply(x).sum()" in m_error
    assert "minigrad/" not in m_error  # the user's frames only


@pytest.mark.parametrize("lib", [minigrad, torch], ids=["minigrad", "torch"])
def test_switches_and_restore(lib):
    assert not lib.is_anomaly_enabled()
    assert lib.is_anomaly_check_nan_enabled()
    with lib.autograd.set_detect_anomaly(True, check_nan=False):
        assert lib.is_anomaly_enabled() and not lib.is_anomaly_check_nan_enabled()
    assert not lib.is_anomaly_enabled() and lib.is_anomaly_check_nan_enabled()


def test_the_version_error_hint_names_an_api_that_exists():
    x = minigrad.ones(2, requires_grad=True)
    y = (x * 1).exp()
    y.mul_(2)
    with pytest.raises(RuntimeError, match="set_detect_anomaly") as info:
        y.sum().backward()
    assert "minigrad.autograd.set_detect_anomaly(True, check_nan=False)" in str(info.value)
    minigrad.autograd.set_detect_anomaly(True, check_nan=False)  # exists and takes those args
    minigrad.autograd.set_detect_anomaly(False)
