"""Weight averaging (``torch.optim.swa_utils``): stochastic weight averaging (SWA) and
exponential moving averages (EMA) of a model's parameters, and ``SWALR``, the schedule that
goes with SWA.

``AveragedModel`` keeps a copy of the model whose parameters are a running average of the
model's, updated by ``update_parameters(model)`` (after each epoch for SWA, each step for EMA):
the plain mean by default, or ``avg_fn``/``multi_avg_fn``. The arithmetic is torch's CPU path,
one tensor at a time, so the averages print torch's floats. ``update_bn`` recomputes
batch-norm statistics for the averaged weights; minigrad has no batch-norm layers, and torch's
``update_bn`` returns at once for a model without them.
"""

from __future__ import annotations

import itertools
import math
import warnings
from copy import deepcopy

from minigrad import _left_out
from minigrad._creation import tensor
from minigrad._dtype import int64
from minigrad._ops.queries import is_floating_point
from minigrad._tensor import Tensor
from minigrad.autograd.grad_mode import no_grad
from minigrad.nn.modules.module import Module
from minigrad.optim.lr_scheduler import LRScheduler, _format_param

__all__ = ["AveragedModel", "update_bn", "SWALR", "get_ema_multi_avg_fn",
           "get_swa_multi_avg_fn", "get_ema_avg_fn", "get_swa_avg_fn"]


def _check_decay(decay) -> None:
    if decay < 0.0 or decay > 1.0:
        raise ValueError(f"Invalid decay value {decay} provided. Please provide a value in "
                         "[0,1] range.")


def get_ema_multi_avg_fn(decay=0.999):
    """An EMA of lists of tensors: ``ema.lerp_(current, 1 - decay)`` (torch's
    ``_foreach_lerp_``, which on the CPU is ``lerp_`` tensor by tensor)."""
    _check_decay(decay)

    @no_grad()
    def ema_update(ema_param_list, current_param_list, _):
        if is_floating_point(ema_param_list[0]):
            for p_ema, p_model in zip(ema_param_list, current_param_list, strict=True):
                p_ema.lerp_(p_model, 1 - decay)
        else:
            for p_ema, p_model in zip(ema_param_list, current_param_list, strict=True):
                p_ema.copy_(p_ema * decay + p_model * (1 - decay))

    return ema_update


def get_swa_multi_avg_fn():
    """The running mean of lists of tensors: ``avg.lerp_(current, 1 / (n + 1))``. torch
    passes the weight as a number made from a float32 tensor, so it is rounded to float32
    (also for float64 parameters); minigrad does the same."""

    @no_grad()
    def swa_update(averaged_param_list, current_param_list, num_averaged):
        if is_floating_point(averaged_param_list[0]):
            weight = 1 / (num_averaged + 1)
            if isinstance(weight, Tensor):
                weight = weight.item()
            for p_avg, p_model in zip(averaged_param_list, current_param_list, strict=True):
                p_avg.lerp_(p_model, weight)
        else:
            diffs = [p_model - p_avg
                     for p_avg, p_model in zip(averaged_param_list, current_param_list,
                                               strict=True)]
            for p_avg, diff in zip(averaged_param_list, diffs, strict=True):
                if isinstance(num_averaged, Tensor):
                    p_avg.addcdiv_(diff, num_averaged + 1)
                else:
                    p_avg.add_(diff, alpha=1.0 / (num_averaged + 1))

    return swa_update


def get_ema_avg_fn(decay=0.999):
    """An EMA of one tensor: ``decay * ema + (1 - decay) * current``."""
    _check_decay(decay)

    @no_grad()
    def ema_update(ema_param, current_param, num_averaged):
        return decay * ema_param + (1 - decay) * current_param

    return ema_update


def get_swa_avg_fn():
    """The running mean of one tensor: ``avg + (current - avg) / (n + 1)``."""

    @no_grad()
    def swa_update(averaged_param, current_param, num_averaged):
        return averaged_param + (current_param - averaged_param) / (num_averaged + 1)

    return swa_update


def _by_dtype(self_params, model_params) -> list:
    """The pairs grouped by dtype, in first-seen order (torch groups by device and dtype before
    calling a ``multi_avg_fn``)."""
    groups = {}
    for p_avg, p_model in zip(self_params, model_params, strict=True):
        pair = groups.setdefault(p_avg.dtype, ([], []))
        pair[0].append(p_avg)
        pair[1].append(p_model)
    return list(groups.values())


class AveragedModel(Module):
    """A copy of ``model`` (``module``) whose parameters average the model's over the calls
    to ``update_parameters``; ``n_averaged`` (an int64 buffer) counts them. With
    ``use_buffers`` the buffers are averaged too, else copied from the model."""

    def __init__(self, model, device=None, avg_fn=None, multi_avg_fn=None, use_buffers=False):
        super().__init__()
        if avg_fn is not None and multi_avg_fn is not None:
            raise AssertionError("Only one of avg_fn and multi_avg_fn should be provided")
        self.module = deepcopy(model)
        if device is not None:
            self.module = self.module.to(device)
        self.register_buffer("n_averaged", tensor(0, dtype=int64, device=device))
        self.avg_fn = avg_fn
        self.multi_avg_fn = multi_avg_fn
        self.use_buffers = use_buffers

    def forward(self, *args, **kwargs):
        return self.module(*args, **kwargs)

    def update_parameters(self, model) -> None:
        """Average ``model``'s parameters in: the first call copies them."""
        self_param = (itertools.chain(self.module.parameters(), self.module.buffers())
                      if self.use_buffers else self.parameters())
        model_param = (itertools.chain(model.parameters(), model.buffers())
                       if self.use_buffers else model.parameters())
        self_param_detached, model_param_detached = [], []
        copy_param = bool(self.n_averaged == 0)
        for p_averaged, p_model in zip(self_param, model_param, strict=False):
            p_model_ = p_model.detach()
            self_param_detached.append(p_averaged.detach())
            model_param_detached.append(p_model_)
            if copy_param:
                p_averaged.detach().copy_(p_model_)
        if self.n_averaged > 0:
            if self.multi_avg_fn is not None or self.avg_fn is None:
                for self_params, model_params in _by_dtype(self_param_detached,
                                                           model_param_detached):
                    if self.multi_avg_fn:
                        self.multi_avg_fn(self_params, model_params, self.n_averaged)
                    else:  # torch's CPU path: the mean tensor by tensor
                        avg_fn = get_swa_avg_fn()
                        for p_averaged, p_model in zip(self_params, model_params, strict=True):
                            p_averaged.copy_(avg_fn(p_averaged, p_model, self.n_averaged))
            else:
                for p_averaged, p_model in zip(self_param_detached, model_param_detached,
                                               strict=True):
                    p_averaged.detach().copy_(
                        self.avg_fn(p_averaged.detach(), p_model, self.n_averaged))
        if not self.use_buffers:
            # the buffers are not averaged: they follow the model's
            for b_swa, b_model in zip(self.module.buffers(), model.buffers(), strict=True):
                b_swa.detach().copy_(b_model.detach())
        self.n_averaged += 1


@no_grad()
def update_bn(loader, model, device=None) -> None:
    """Recompute the batch-norm layers' running statistics with one pass over ``loader``.
    minigrad has no batch-norm layers, so (as torch for a model without them) nothing to do."""
    for _module in model.modules():
        pass


class SWALR(LRScheduler):
    """From each group's rate to ``swa_lr`` in ``anneal_epochs`` epochs (cosine or linear),
    then constant: the schedule of the SWA phase."""

    def __init__(self, optimizer, swa_lr, anneal_epochs=10, anneal_strategy="cos",
                 last_epoch=-1):
        swa_lrs = _format_param("swa_lr", optimizer, swa_lr)
        for lr, group in zip(swa_lrs, optimizer.param_groups, strict=True):
            group["swa_lr"] = lr
        if anneal_strategy not in ["cos", "linear"]:
            raise ValueError("anneal_strategy must be one of 'cos' or 'linear', instead got "
                             f"{anneal_strategy}")
        self._set_anneal_func(anneal_strategy)
        if not isinstance(anneal_epochs, int) or anneal_epochs < 0:
            raise ValueError(f"anneal_epochs must be equal or greater than 0, got "
                             f"{anneal_epochs}")
        self.anneal_epochs = anneal_epochs
        super().__init__(optimizer, last_epoch)

    @staticmethod
    def _linear_anneal(t):
        return t

    @staticmethod
    def _cosine_anneal(t):
        return (1 - math.cos(math.pi * t)) / 2

    @staticmethod
    def _get_initial_lr(lr, swa_lr, alpha):
        if alpha == 1:
            return swa_lr
        return (lr - alpha * swa_lr) / (1 - alpha)

    def get_lr(self) -> list:
        """The step's rates, in torch's chainable form: the previous step's starting rate is
        recovered from the current one, then moved ``alpha`` of the way to ``swa_lr``."""
        if not self._get_lr_called_within_step:
            warnings.warn("To get the last learning rate computed by the scheduler, please use "
                          "`get_last_lr()`.", UserWarning, stacklevel=2)
        step = self._step_count - 1
        if self.anneal_epochs == 0:
            step = max(1, step)
        prev_t = max(0, min(1, (step - 1) / max(1, self.anneal_epochs)))
        prev_alpha = self.anneal_func(prev_t)
        prev_lrs = [self._get_initial_lr(group["lr"], group["swa_lr"], prev_alpha)
                    for group in self.optimizer.param_groups]
        t = max(0, min(1, step / max(1, self.anneal_epochs)))
        alpha = self.anneal_func(t)
        return [group["swa_lr"] * alpha + lr * (1 - alpha)
                for group, lr in zip(self.optimizer.param_groups, prev_lrs, strict=True)]

    def _set_anneal_func(self, anneal_strategy) -> None:
        self._anneal_strategy = anneal_strategy
        self.anneal_func = (self._cosine_anneal if anneal_strategy == "cos"
                            else self._linear_anneal)

    def state_dict(self) -> dict:
        """All but the optimizer and the anneal function (set again from its name on load)."""
        return {key: value for key, value in self.__dict__.items()
                if key not in ("optimizer", "anneal_func")}

    def load_state_dict(self, state_dict) -> None:
        self.__dict__.update(state_dict)
        self._set_anneal_func(self._anneal_strategy)


def __getattr__(name):
    """Only reached for names this module does not define (PEP 562); see ``_left_out``."""
    raise _left_out.missing(__name__, name)
