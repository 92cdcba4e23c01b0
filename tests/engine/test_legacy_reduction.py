"""The deprecated ``size_average`` and ``reduce`` flags of every loss in ``nn.functional`` that
takes them: the loss torch computes with them (``reduce=False``: one loss per element,
``size_average=False``: their sum) and torch's deprecation warning. Found missing in mse_loss
and cross_entropy, which computed the mean whatever the flags said.

Every loss is found by its signature, so a loss added later is checked too; torch runs each
call at test time.
"""

from __future__ import annotations

import inspect
import warnings

import numpy as np
import pytest
import torch

import minigrad
import minigrad.nn.functional as F

LOSSES = sorted(name for name, fn in vars(F).items()
                if inspect.isfunction(fn) and not name.startswith("_")
                and "size_average" in inspect.signature(fn).parameters)

_X = np.array([[0.5, -1.25, 2.0], [-3.5, 0.75, 1.5]], dtype=np.float32)


def _args(lib, name):
    """Arguments each loss accepts: scores, probabilities, class indices or +-1 labels."""
    x = lib.tensor(_X)
    probs = lib.tensor(1 / (1 + np.exp(-_X)))
    classes = lib.tensor(np.array([1, 0]))
    signs = lib.tensor(np.array([[1.0, -1.0, 1.0], [-1.0, -1.0, 1.0]], dtype=np.float32))
    return {
        "binary_cross_entropy": (probs, (signs > 0).float()),
        "binary_cross_entropy_with_logits": (x, (signs > 0).float()),
        "cosine_embedding_loss": (x, x.flip(0), lib.tensor([1.0, -1.0])),
        "cross_entropy": (x, classes),
        "hinge_embedding_loss": (x, signs),
        "kl_div": (x.log_softmax(1), probs),
        "margin_ranking_loss": (x[0], x[1], signs[0]),
        "multi_margin_loss": (x, classes),
        "multilabel_soft_margin_loss": (x, (signs > 0).float()),
        "nll_loss": (x.log_softmax(1), classes),
        "poisson_nll_loss": (x, probs),
        "soft_margin_loss": (x, signs),
        "triplet_margin_loss": (x, x.flip(0), x * 2),
    }.get(name, (x, x.flip(0)))


def test_the_losses_are_found():
    assert {"mse_loss", "cross_entropy", "nll_loss", "l1_loss"} <= set(LOSSES), LOSSES


@pytest.mark.parametrize("flags", [{"size_average": False}, {"reduce": False},
                                   {"size_average": True, "reduce": True},
                                   {"size_average": False, "reduce": False}],
                         ids=["size_average=False", "reduce=False", "both True", "both False"])
@pytest.mark.parametrize("name", LOSSES)
def test_legacy_flags_give_torchs_loss_and_warning(name, flags):
    results = []
    for lib in (torch, minigrad):
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            loss = getattr(lib.nn.functional, name)(*_args(lib, name), **flags)
        messages = sorted({str(w.message) for w in caught
                           if "size_average and reduce" in str(w.message)})
        results.append((tuple(loss.shape), loss.detach().numpy(), messages))
    (shape_t, value_t, warn_t), (shape_m, value_m, warn_m) = results
    assert shape_m == shape_t
    np.testing.assert_allclose(value_m, value_t, rtol=1e-5, atol=1e-6)
    assert warn_m == warn_t
