"""Learning-rate schedules (``torch.optim.lr_scheduler``): change each group's ``lr`` as
training goes on.

A scheduler is stepped once per epoch (after ``optimizer.step()``) and writes the new rate into
``optimizer.param_groups``. Like torch's, each schedule works in its "chainable" form, from the
rate the group has now (``StepLR`` multiplies it by ``gamma`` every ``step_size`` epochs), with
the same arithmetic in the same order, so a schedule prints torch's floats; ``step(epoch)``
uses the closed form where torch has one. The state dicts hold the same fields, in the same
order, as torch's.

The cyclic schedules (``CyclicLR``, ``OneCycleLR``) also cycle the momentum (or Adam's beta1)
inversely to the rate; ``SequentialLR`` and ``ChainedScheduler`` combine schedules, one after
the other or all at once.
"""

from __future__ import annotations

import math
import types
import warnings
from bisect import bisect_right
from collections import Counter
from functools import partial, wraps
from weakref import ref

from minigrad import _left_out
from minigrad._tensor import Tensor
from minigrad.optim.optimizer import Optimizer, _to_scalar

__all__ = ["LRScheduler", "LambdaLR", "MultiplicativeLR", "StepLR", "MultiStepLR",
           "ConstantLR", "LinearLR", "ExponentialLR", "CosineAnnealingLR", "ReduceLROnPlateau",
           "PolynomialLR", "CosineAnnealingWarmRestarts", "CyclicLR", "OneCycleLR",
           "SequentialLR", "ChainedScheduler"]

EPOCH_DEPRECATION_WARNING = (
    "The epoch parameter in `scheduler.step()` was not necessary and is being deprecated where "
    "possible. Please use `scheduler.step()` to step the scheduler. During the deprecation, if "
    "epoch is different from None, the closed form is used instead of the new chainable form, "
    "where available. Please open an issue if you are unable to replicate your use case: "
    "https://github.com/pytorch/pytorch/issues/new/choose.")
_ORDER_URL = "https://pytorch.org/docs/stable/optim.html#how-to-adjust-learning-rate"


def _lrs(optimizer, key="lr") -> list:
    """Each group's ``key``, a tensor one copied (torch's ``_param_groups_val_list``): what
    ``get_last_lr()`` returns never aliases the optimizer's own tensor."""
    return [group[key].clone() if isinstance(group[key], Tensor) else group[key]
            for group in optimizer.param_groups]


def _set_lr(group, lr) -> None:
    """``group["lr"] = lr``, but a tensor learning rate is filled in place, as torch's
    ``_update_param_group_val`` does (the tensor the learner passed changes with it)."""
    if isinstance(group["lr"], Tensor):
        group["lr"].fill_(_to_scalar(lr))
    else:
        group["lr"] = lr


class LRScheduler:
    """The base: remembers each group's starting rate (``initial_lr``, ``base_lrs``), counts
    epochs (``last_epoch``) and steps once at construction (epoch 0)."""

    _get_lr_called_within_step = False
    _is_initial = False

    def __init__(self, optimizer, last_epoch=-1):
        if not isinstance(optimizer, Optimizer):
            raise TypeError(f"{type(optimizer).__name__} is not an Optimizer")
        self.optimizer = optimizer
        if last_epoch == -1:
            for group in optimizer.param_groups:
                initial_lr = group["lr"]
                if isinstance(initial_lr, Tensor):
                    initial_lr = initial_lr.clone()
                group.setdefault("initial_lr", initial_lr)
        else:
            for i, group in enumerate(optimizer.param_groups):
                if "initial_lr" not in group:
                    raise KeyError(
                        f"param 'initial_lr' is not specified in param_groups[{i}] when resuming "
                        "scheduler with last_epoch >= 0.\nThis typically happens when:\n1. "
                        "You're trying to resume training from a checkpoint but haven't properly "
                        "loaded the optimizer state\n2. You're using last_epoch >= 0 for a fresh "
                        "training run (not recommended)")
        self.base_lrs = _lrs(optimizer, "initial_lr")
        self.last_epoch = last_epoch
        _watch_step(optimizer)
        self._initial_step()

    def _initial_step(self) -> None:
        """Step once to epoch 0 (``SequentialLR`` calls it again when a schedule starts)."""
        self._step_count = 0
        self._is_initial = True
        try:
            self.step()
        finally:
            self._is_initial = False

    def state_dict(self) -> dict:
        """Everything the scheduler holds but its optimizer."""
        return {key: value for key, value in self.__dict__.items() if key != "optimizer"}

    def load_state_dict(self, state_dict) -> None:
        self.__dict__.update(state_dict)

    def get_last_lr(self) -> list:
        return self._last_lr

    def get_lr(self) -> list:
        raise NotImplementedError

    def step(self, epoch=None) -> None:
        """Move to the next epoch and set its rates (call it after ``optimizer.step()``)."""
        if self._step_count == 1:
            if not hasattr(self.optimizer.step, "_wrapped_by_lr_sched"):
                warnings.warn(
                    "Seems like `optimizer.step()` has been overridden after learning rate "
                    "scheduler initialization. Please, make sure to call `optimizer.step()` "
                    f"before `lr_scheduler.step()`. See more details at {_ORDER_URL}",
                    UserWarning, stacklevel=2)
            elif not getattr(self.optimizer, "_opt_called", False):
                warnings.warn(
                    "Detected call of `lr_scheduler.step()` before `optimizer.step()`. In "
                    "PyTorch 1.1.0 and later, you should call them in the opposite order: "
                    "`optimizer.step()` before `lr_scheduler.step()`.  Failure to do this will "
                    "result in PyTorch skipping the first value of the learning rate schedule. "
                    f"See more details at {_ORDER_URL}", UserWarning, stacklevel=2)
        self._step_count += 1
        if epoch is not None:
            warnings.warn(EPOCH_DEPRECATION_WARNING, UserWarning, stacklevel=2)
        self._update_lr(epoch)

    def _update_lr(self, epoch=None) -> None:
        """Set the next epoch's rates: the chainable form, or the closed form at ``epoch``."""
        self._get_lr_called_within_step = True
        try:
            if epoch is None:
                self.last_epoch += 1
                values = self.get_lr()
            else:
                self.last_epoch = epoch
                closed_form = getattr(self, "_get_closed_form_lr", None)
                values = closed_form() if closed_form is not None else self.get_lr()
        finally:
            self._get_lr_called_within_step = False
        for group, lr in zip(self.optimizer.param_groups, values, strict=True):
            _set_lr(group, lr)
        self._last_lr = _lrs(self.optimizer)

    def _check_called_within_step(self) -> None:
        if not self._get_lr_called_within_step:
            warnings.warn("To get the last learning rate computed by the scheduler, please use "
                          "`get_last_lr()`.", UserWarning, stacklevel=2)  # torch's: get_lr


class _LRScheduler(LRScheduler):
    """torch's older name, kept for old code that subclasses it: a subclass (as torch's), not
    an alias, so a built-in scheduler is not an instance of it."""


def _watch_step(optimizer) -> None:
    """Wrap ``optimizer.step`` once so that it notes it was called (the scheduler warns when
    it is stepped first)."""
    if hasattr(optimizer.step, "_wrapped_by_lr_sched"):
        return
    opt_ref, func = ref(optimizer), optimizer.step.__func__

    @wraps(func)
    def wrapper(*args, **kwargs):
        opt = opt_ref()
        opt._opt_called = True
        return func.__get__(opt, opt.__class__)(*args, **kwargs)

    wrapper._wrapped_by_lr_sched = True
    optimizer.step = wrapper


def _one_per_group(lr_lambda, optimizer) -> list:
    """One function per parameter group: the one given for all, or a list of them."""
    if not isinstance(lr_lambda, list | tuple):
        return [lr_lambda] * len(optimizer.param_groups)
    if len(lr_lambda) != len(optimizer.param_groups):
        raise ValueError(f"Expected {len(optimizer.param_groups)} lr_lambdas, but got "
                         f"{len(lr_lambda)}")
    return list(lr_lambda)


class LambdaLR(LRScheduler):
    """``lr = base_lr * lr_lambda(epoch)`` (one function, or one per group)."""

    def __init__(self, optimizer, lr_lambda, last_epoch=-1):
        self.optimizer = optimizer
        self.lr_lambdas = _one_per_group(lr_lambda, optimizer)
        super().__init__(optimizer, last_epoch)

    def state_dict(self) -> dict:
        """The lambdas themselves are not saved (only a callable object's attributes)."""
        state = {key: value for key, value in self.__dict__.items()
                 if key not in ("optimizer", "lr_lambdas")}
        state["lr_lambdas"] = [None if isinstance(fn, types.FunctionType) else fn.__dict__.copy()
                               for fn in self.lr_lambdas]
        return state

    def load_state_dict(self, state_dict) -> None:
        lr_lambdas = state_dict.pop("lr_lambdas")
        self.__dict__.update(state_dict)
        state_dict["lr_lambdas"] = lr_lambdas
        for fn, saved in zip(self.lr_lambdas, lr_lambdas):
            if saved is not None:
                fn.__dict__.update(saved)

    def get_lr(self) -> list:
        self._check_called_within_step()
        return [base_lr * lmbda(self.last_epoch)
                for lmbda, base_lr in zip(self.lr_lambdas, self.base_lrs, strict=True)]


class MultiplicativeLR(LRScheduler):
    """``lr *= lr_lambda(epoch)`` each epoch after the first."""

    def __init__(self, optimizer, lr_lambda, last_epoch=-1):
        self.optimizer = optimizer
        self.lr_lambdas = _one_per_group(lr_lambda, optimizer)
        for fn in self.lr_lambdas:
            if not callable(fn):
                raise TypeError(f"lr_lambda should be a function, but got {type(fn).__name__}")
        super().__init__(optimizer, last_epoch)

    state_dict = LambdaLR.state_dict
    load_state_dict = LambdaLR.load_state_dict

    def get_lr(self) -> list:
        self._check_called_within_step()
        if self._is_initial:
            return _lrs(self.optimizer)
        return [group["lr"] * lmbda(self.last_epoch)
                for lmbda, group in zip(self.lr_lambdas, self.optimizer.param_groups,
                                        strict=True)]


class StepLR(LRScheduler):
    """``lr *= gamma`` every ``step_size`` epochs."""

    def __init__(self, optimizer, step_size, gamma=0.1, last_epoch=-1):
        self.step_size = step_size
        self.gamma = gamma
        super().__init__(optimizer, last_epoch)

    def get_lr(self) -> list:
        self._check_called_within_step()
        if self.last_epoch == 0 or self.last_epoch % self.step_size != 0:
            return _lrs(self.optimizer)
        return [group["lr"] * self.gamma for group in self.optimizer.param_groups]

    def _get_closed_form_lr(self) -> list:
        return [base_lr * self.gamma ** (self.last_epoch // self.step_size)
                for base_lr in self.base_lrs]


class MultiStepLR(LRScheduler):
    """``lr *= gamma`` at each milestone epoch."""

    def __init__(self, optimizer, milestones, gamma=0.1, last_epoch=-1):
        self.milestones = Counter(milestones)
        self.gamma = gamma
        super().__init__(optimizer, last_epoch)

    def get_lr(self) -> list:
        self._check_called_within_step()
        if self.last_epoch not in self.milestones:
            return _lrs(self.optimizer)
        return [group["lr"] * self.gamma ** self.milestones[self.last_epoch]
                for group in self.optimizer.param_groups]

    def _get_closed_form_lr(self) -> list:
        milestones = sorted(self.milestones.elements())
        return [base_lr * self.gamma ** bisect_right(milestones, self.last_epoch)
                for base_lr in self.base_lrs]


class ConstantLR(LRScheduler):
    """``lr * factor`` for the first ``total_iters`` epochs, then ``lr``."""

    def __init__(self, optimizer, factor=1.0 / 3, total_iters=5, last_epoch=-1):
        if factor > 1.0 or factor < 0:
            raise ValueError("Constant multiplicative factor expected to be between 0 and 1.")
        self.factor = factor
        self.total_iters = total_iters
        super().__init__(optimizer, last_epoch)

    def get_lr(self) -> list:
        self._check_called_within_step()
        if self.last_epoch == 0:
            return [group["lr"] * self.factor for group in self.optimizer.param_groups]
        if self.last_epoch != self.total_iters:
            return _lrs(self.optimizer)
        return [group["lr"] * (1.0 / self.factor) for group in self.optimizer.param_groups]

    def _get_closed_form_lr(self) -> list:
        return [base_lr * (self.factor + (self.last_epoch >= self.total_iters)
                           * (1 - self.factor)) for base_lr in self.base_lrs]


class LinearLR(LRScheduler):
    """The factor goes linearly from ``start_factor`` to ``end_factor`` in ``total_iters``
    epochs (a warm-up)."""

    def __init__(self, optimizer, start_factor=1.0 / 3, end_factor=1.0, total_iters=5,
                 last_epoch=-1):
        if start_factor > 1.0 or start_factor <= 0:
            raise ValueError("Starting multiplicative factor expected to be greater than 0 and "
                             "less or equal to 1.")
        if end_factor > 1.0 or end_factor < 0:
            raise ValueError("Ending multiplicative factor expected to be between 0 and 1.")
        self.start_factor = start_factor
        self.end_factor = end_factor
        self.total_iters = total_iters
        super().__init__(optimizer, last_epoch)

    def get_lr(self) -> list:
        self._check_called_within_step()
        if self.last_epoch == 0:
            return [group["lr"] * self.start_factor for group in self.optimizer.param_groups]
        if self._is_initial or self.last_epoch > self.total_iters:
            return _lrs(self.optimizer)
        change = self.end_factor - self.start_factor
        return [group["lr"] * (1.0 + change / (self.total_iters * self.start_factor
                                               + (self.last_epoch - 1) * change))
                for group in self.optimizer.param_groups]

    def _get_closed_form_lr(self) -> list:
        return [base_lr * (self.start_factor + (self.end_factor - self.start_factor)
                           * min(self.total_iters, self.last_epoch) / self.total_iters)
                for base_lr in self.base_lrs]


class ExponentialLR(LRScheduler):
    """``lr *= gamma`` every epoch."""

    def __init__(self, optimizer, gamma, last_epoch=-1):
        self.gamma = gamma
        super().__init__(optimizer, last_epoch)

    def get_lr(self) -> list:
        self._check_called_within_step()
        if self._is_initial:
            return _lrs(self.optimizer)
        return [group["lr"] * self.gamma for group in self.optimizer.param_groups]

    def _get_closed_form_lr(self) -> list:
        return [base_lr * self.gamma ** self.last_epoch for base_lr in self.base_lrs]


class CosineAnnealingLR(LRScheduler):
    """From ``base_lr`` down to ``eta_min`` along half a cosine over ``T_max`` epochs (and up
    again after), in torch's recursive form."""

    def __init__(self, optimizer, T_max, eta_min=0.0, last_epoch=-1):  # noqa: N803 (torch's)
        self.T_max = T_max
        self.eta_min = eta_min
        super().__init__(optimizer, last_epoch)

    def get_lr(self) -> list:
        self._check_called_within_step()
        groups = self.optimizer.param_groups
        if self._is_initial:
            return _lrs(self.optimizer)
        if self._step_count == 1 and self.last_epoch > 0:
            return [self.eta_min + (base_lr - self.eta_min)
                    * (1 + math.cos(self.last_epoch * math.pi / self.T_max)) / 2
                    for base_lr, group in zip(self.base_lrs, groups, strict=True)]
        if (self.last_epoch - 1 - self.T_max) % (2 * self.T_max) == 0:
            return [group["lr"] + (base_lr - self.eta_min)
                    * (1 - math.cos(math.pi / self.T_max)) / 2
                    for base_lr, group in zip(self.base_lrs, groups, strict=True)]
        return [(1 + math.cos(math.pi * self.last_epoch / self.T_max))
                / (1 + math.cos(math.pi * (self.last_epoch - 1) / self.T_max))
                * (group["lr"] - self.eta_min) + self.eta_min for group in groups]

    def _get_closed_form_lr(self) -> list:
        return [self.eta_min + (base_lr - self.eta_min)
                * (1 + math.cos(math.pi * self.last_epoch / self.T_max)) / 2
                for base_lr in self.base_lrs]


class ReduceLROnPlateau(LRScheduler):
    """``lr *= factor`` when a watched number (``step(val_loss)``) has not improved for
    ``patience`` epochs."""

    def __init__(self, optimizer, mode="min", factor=0.1, patience=10, threshold=1e-4,
                 threshold_mode="rel", cooldown=0, min_lr=0, eps=1e-8):
        if factor >= 1.0:
            raise ValueError("Factor should be < 1.0.")
        self.factor = factor
        if not isinstance(optimizer, Optimizer):
            raise TypeError(f"{type(optimizer).__name__} is not an Optimizer")
        self.optimizer = optimizer
        if isinstance(min_lr, list | tuple):
            if len(min_lr) != len(optimizer.param_groups):
                raise ValueError(f"expected {len(optimizer.param_groups)} min_lrs, got "
                                 f"{len(min_lr)}")
            self.default_min_lr = None
            self.min_lrs = list(min_lr)
        else:
            self.default_min_lr = min_lr
            self.min_lrs = [min_lr] * len(optimizer.param_groups)
        self.patience = patience
        self.cooldown = cooldown
        self.eps = eps
        self.last_epoch = 0
        self._last_lr = _lrs(self.optimizer)
        self._init_is_better(mode, threshold, threshold_mode)
        self._reset()

    def _reset(self) -> None:
        self.best = self.mode_worse
        self.cooldown_counter = 0
        self.num_bad_epochs = 0

    def step(self, metrics, epoch=None) -> None:
        current = float(metrics)
        if epoch is None:
            epoch = self.last_epoch + 1
        else:
            warnings.warn(EPOCH_DEPRECATION_WARNING, UserWarning, stacklevel=2)
        self.last_epoch = epoch
        if self._is_better(current, self.best):
            self.best = current
            self.num_bad_epochs = 0
        else:
            self.num_bad_epochs += 1
        if self.in_cooldown:
            self.cooldown_counter -= 1
            self.num_bad_epochs = 0  # bad epochs in the cooldown do not count
        if self.num_bad_epochs > self.patience:
            self._reduce_lr(epoch)
            self.cooldown_counter = self.cooldown
            self.num_bad_epochs = 0
        self._last_lr = _lrs(self.optimizer)

    def _reduce_lr(self, epoch) -> None:
        if len(self.optimizer.param_groups) != len(self.min_lrs):
            if self.default_min_lr is None:
                raise RuntimeError(
                    f"The number of param groups in the `optimizer` "
                    f"({len(self.optimizer.param_groups)}) differs from when "
                    f"`ReduceLROnPlateau` was initialized ({len(self.min_lrs)}), usually due to "
                    "a new param group being added to the optimizer. Please modify the "
                    "`min_lrs` field to match the length of the `optimizer` param groups.")
            self.min_lrs = [self.default_min_lr] * len(self.optimizer.param_groups)
        for i, group in enumerate(self.optimizer.param_groups):
            old_lr = float(group["lr"])
            new_lr = max(old_lr * self.factor, self.min_lrs[i])
            if old_lr - new_lr > self.eps:
                _set_lr(group, new_lr)

    @property
    def in_cooldown(self) -> bool:
        return self.cooldown_counter > 0

    def _is_better(self, a, best) -> bool:
        if self.mode == "min" and self.threshold_mode == "rel":
            return a < best * (1.0 - self.threshold)
        if self.mode == "min" and self.threshold_mode == "abs":
            return a < best - self.threshold
        if self.mode == "max" and self.threshold_mode == "rel":
            return a > best * (self.threshold + 1.0)
        return a > best + self.threshold

    def _init_is_better(self, mode, threshold, threshold_mode) -> None:
        if mode not in {"min", "max"}:
            raise ValueError("mode " + mode + " is unknown!")
        if threshold_mode not in {"rel", "abs"}:
            raise ValueError("threshold mode " + threshold_mode + " is unknown!")
        self.mode_worse = math.inf if mode == "min" else -math.inf
        self.mode = mode
        self.threshold = threshold
        self.threshold_mode = threshold_mode

    def load_state_dict(self, state_dict) -> None:
        self.__dict__.update(state_dict)
        self._init_is_better(self.mode, self.threshold, self.threshold_mode)


def _format_param(name, optimizer, param) -> list:
    """One value per parameter group: the one given for all, or a list of them (tensors are
    copied, so a schedule never shares a tensor with its caller)."""
    if isinstance(param, list | tuple):
        if len(param) != len(optimizer.param_groups):
            raise ValueError(f"{name} must have the same length as optimizer.param_groups. "
                             f"{name} has {len(param)} values, param_groups has "
                             f"{len(optimizer.param_groups)}.")
    else:
        param = [param] * len(optimizer.param_groups)
    return [value.clone() if isinstance(value, Tensor) else value for value in param]


def _set_momentum(group, use_beta1, momentum) -> None:
    """The cyclic schedules move SGD's ``momentum``, or Adam's first beta."""
    if use_beta1:
        group["betas"] = (momentum, *group["betas"][1:])
    else:
        group["momentum"] = momentum


class PolynomialLR(LRScheduler):
    """The factor falls from 1 to 0 as ``(1 - epoch / total_iters) ** power``, then stays."""

    def __init__(self, optimizer, total_iters=5, power=1.0, last_epoch=-1):
        self.total_iters = total_iters
        self.power = power
        super().__init__(optimizer, last_epoch)

    def get_lr(self) -> list:
        self._check_called_within_step()
        if self._is_initial or self.last_epoch > self.total_iters:
            return _lrs(self.optimizer)
        decay_factor = ((1.0 - self.last_epoch / self.total_iters)
                        / (1.0 - (self.last_epoch - 1) / self.total_iters)) ** self.power
        return [group["lr"] * decay_factor for group in self.optimizer.param_groups]

    def _get_closed_form_lr(self) -> list:
        return [base_lr * (1.0 - min(self.total_iters, self.last_epoch) / self.total_iters)
                ** self.power for base_lr in self.base_lrs]


class CosineAnnealingWarmRestarts(LRScheduler):
    """Half a cosine from ``base_lr`` to ``eta_min`` over ``T_i`` epochs, then a restart at
    ``base_lr`` with ``T_i *= T_mult`` (SGDR). Its ``step(epoch)`` takes fractional epochs (a
    step per batch) and, unlike the others, warns about neither the epoch nor the order."""

    def __init__(self, optimizer, T_0, T_mult=1, eta_min=0.0, last_epoch=-1):  # noqa: N803
        if T_0 <= 0 or not isinstance(T_0, int):
            raise ValueError(f"Expected positive integer T_0, but got {T_0}")
        if T_mult < 1 or not isinstance(T_mult, int):
            raise ValueError(f"Expected integer T_mult >= 1, but got {T_mult}")
        if not isinstance(eta_min, float | int):
            raise ValueError(f"Expected float or int eta_min, but got {eta_min} of type "
                             f"{type(eta_min)}")
        self.T_0 = T_0
        self.T_i = T_0
        self.T_mult = T_mult
        self.eta_min = eta_min
        self.T_cur = last_epoch
        super().__init__(optimizer, last_epoch)

    def get_lr(self) -> list:
        self._check_called_within_step()
        return [self.eta_min + (base_lr - self.eta_min)
                * (1 + math.cos(math.pi * self.T_cur / self.T_i)) / 2
                for base_lr in self.base_lrs]

    def step(self, epoch=None) -> None:
        if epoch is None and self.last_epoch < 0:
            epoch = 0
        if epoch is None:
            epoch = self.last_epoch + 1
            self.T_cur = self.T_cur + 1
            if self.T_cur >= self.T_i:
                self.T_cur = self.T_cur % self.T_i
                self.T_i = self.T_i * self.T_mult
        else:
            if epoch < 0:
                raise ValueError(f"Expected non-negative epoch, but got {epoch}")
            if epoch >= self.T_0:
                if self.T_mult == 1:
                    self.T_cur = epoch % self.T_0
                else:
                    # the restart this epoch falls in: T_0 * (T_mult**n - 1) / (T_mult - 1)
                    n = int(math.log((epoch / self.T_0 * (self.T_mult - 1) + 1), self.T_mult))
                    self.T_cur = epoch - self.T_0 * (self.T_mult**n - 1) / (self.T_mult - 1)
                    self.T_i = self.T_0 * self.T_mult ** (n)
            else:
                self.T_i = self.T_0
                self.T_cur = epoch
        self.last_epoch = math.floor(epoch)
        self._get_lr_called_within_step = True
        try:
            values = self.get_lr()
        finally:
            self._get_lr_called_within_step = False
        for group, lr in zip(self.optimizer.param_groups, values, strict=True):
            _set_lr(group, lr)
        self._last_lr = _lrs(self.optimizer)


class CyclicLR(LRScheduler):
    """The rate goes up from ``base_lr`` to ``max_lr`` in ``step_size_up`` steps and down in
    ``step_size_down`` (a triangle per cycle, halved each cycle for ``triangular2``, shrunk by
    ``gamma**step`` for ``exp_range``, or scaled by your ``scale_fn``); stepped per batch."""

    def __init__(self, optimizer, base_lr, max_lr, step_size_up=2000, step_size_down=None,
                 mode="triangular", gamma=1.0, scale_fn=None, scale_mode="cycle",
                 cycle_momentum=True, base_momentum=0.8, max_momentum=0.9, last_epoch=-1):
        if not isinstance(optimizer, Optimizer):
            raise TypeError(f"{type(optimizer).__name__} is not an Optimizer")
        self.optimizer = optimizer
        base_lrs = _format_param("base_lr", optimizer, base_lr)
        if last_epoch == -1:
            for lr, group in zip(base_lrs, optimizer.param_groups, strict=True):
                _set_lr(group, lr)
        self.max_lrs = _format_param("max_lr", optimizer, max_lr)
        step_size_up = float(step_size_up)
        step_size_down = float(step_size_down) if step_size_down is not None else step_size_up
        self.total_size = step_size_up + step_size_down
        self.step_ratio = step_size_up / self.total_size
        if mode not in ["triangular", "triangular2", "exp_range"] and scale_fn is None:
            raise ValueError("mode is invalid and scale_fn is None")
        self.mode = mode
        self.gamma = gamma
        self._scale_fn_custom = scale_fn
        self.scale_mode = scale_mode
        self._init_scale_fn()
        self.cycle_momentum = cycle_momentum
        if cycle_momentum:
            if "momentum" not in optimizer.defaults and "betas" not in optimizer.defaults:
                raise ValueError("optimizer must support momentum or beta1 with "
                                 "`cycle_momentum` option enabled")
            self.use_beta1 = "betas" in self.optimizer.defaults
            self.base_momentums = _format_param("base_momentum", optimizer, base_momentum)
            self.max_momentums = _format_param("max_momentum", optimizer, max_momentum)
            if last_epoch == -1:
                for m_momentum, b_momentum, group in zip(
                        self.max_momentums, self.base_momentums, optimizer.param_groups,
                        strict=True):
                    _set_momentum(group, self.use_beta1, m_momentum)
                    group["max_momentum"] = m_momentum
                    group["base_momentum"] = b_momentum
        super().__init__(optimizer, last_epoch)
        self.base_lrs = base_lrs

    def _init_scale_fn(self) -> None:
        """The built-in modes' scale functions (not saved in the state dict: set again on
        load)."""
        if self._scale_fn_custom is not None:
            return
        if self.mode == "triangular":
            self._scale_fn_ref = self._triangular_scale_fn
            self.scale_mode = "cycle"
        elif self.mode == "triangular2":
            self._scale_fn_ref = self._triangular2_scale_fn
            self.scale_mode = "cycle"
        elif self.mode == "exp_range":
            self._scale_fn_ref = partial(self._exp_range_scale_fn, self.gamma)
            self.scale_mode = "iterations"

    def scale_fn(self, x) -> float:
        if self._scale_fn_custom is not None:
            return self._scale_fn_custom(x)
        return self._scale_fn_ref(x)

    @staticmethod
    def _triangular_scale_fn(x) -> float:
        return 1.0

    @staticmethod
    def _triangular2_scale_fn(x) -> float:
        return 1 / (2.0 ** (x - 1))

    @staticmethod
    def _exp_range_scale_fn(gamma, x) -> float:
        return gamma**x

    def get_lr(self) -> list:
        """The rates for this step; moves the momenta as a side effect."""
        self._check_called_within_step()
        cycle = math.floor(1 + self.last_epoch / self.total_size)
        x = 1.0 + self.last_epoch / self.total_size - cycle
        if x <= self.step_ratio:
            scale_factor = x / self.step_ratio
        else:
            scale_factor = (x - 1) / (self.step_ratio - 1)
        at = cycle if self.scale_mode == "cycle" else self.last_epoch
        lrs = [base_lr + (max_lr - base_lr) * scale_factor * self.scale_fn(at)
               for base_lr, max_lr in zip(self.base_lrs, self.max_lrs, strict=True)]
        if self.cycle_momentum:
            momentums = [max_momentum - (max_momentum - base_momentum) * scale_factor
                         * self.scale_fn(at)
                         for base_momentum, max_momentum in zip(
                             self.base_momentums, self.max_momentums, strict=True)]
            for group, momentum in zip(self.optimizer.param_groups, momentums, strict=True):
                _set_momentum(group, self.use_beta1, momentum)
        return lrs

    def state_dict(self) -> dict:
        """A ``scale_fn`` is saved only as a callable object's attributes (a function or
        lambda as None), as in ``LambdaLR``."""
        state = super().state_dict()
        state.pop("_scale_fn_ref", None)
        fn = state.pop("_scale_fn_custom")
        state["_scale_fn_custom"] = None
        if fn is not None and not isinstance(fn, types.FunctionType):
            state["_scale_fn_custom"] = fn.__dict__.copy()
        return state

    def load_state_dict(self, state_dict) -> None:
        fn = state_dict.pop("_scale_fn_custom")
        super().load_state_dict(state_dict)
        if fn is not None:
            self._scale_fn_custom.__dict__.update(fn)
        self._init_scale_fn()


class OneCycleLR(LRScheduler):
    """The 1cycle policy (Smith): up from ``max_lr / div_factor`` to ``max_lr`` in the first
    ``pct_start`` of ``total_steps``, then down to ``initial_lr / final_div_factor`` (a third
    phase with ``three_phase``), by cosine or linear annealing; momentum moves the other way.
    Stepped per batch; stepping past ``total_steps`` is an error."""

    def __init__(self, optimizer, max_lr, total_steps=None, epochs=None, steps_per_epoch=None,
                 pct_start=0.3, anneal_strategy="cos", cycle_momentum=True,
                 base_momentum=0.85, max_momentum=0.95, div_factor=25.0, final_div_factor=1e4,
                 three_phase=False, last_epoch=-1):
        if not isinstance(optimizer, Optimizer):
            raise TypeError(f"{type(optimizer).__name__} is not an Optimizer")
        self.optimizer = optimizer
        if total_steps is not None:
            if total_steps <= 0 or not isinstance(total_steps, int):
                raise ValueError(f"Expected positive integer total_steps, but got {total_steps}")
            self.total_steps = total_steps
        elif epochs is not None and steps_per_epoch is not None:
            if not isinstance(epochs, int) or epochs <= 0:
                raise ValueError(f"Expected positive integer epochs, but got {epochs}")
            if not isinstance(steps_per_epoch, int) or steps_per_epoch <= 0:
                raise ValueError(f"Expected positive integer steps_per_epoch, but got "
                                 f"{steps_per_epoch}")
            self.total_steps = epochs * steps_per_epoch
        else:
            raise ValueError("You must define either total_steps OR (epochs AND "
                             "steps_per_epoch)")
        # each phase: the step it ends at, and the group keys its rate and momentum go between
        up = {"end_step": float(pct_start * self.total_steps) - 1, "start_lr": "initial_lr",
              "end_lr": "max_lr", "start_momentum": "max_momentum",
              "end_momentum": "base_momentum"}
        if three_phase:
            self._schedule_phases = [
                up,
                {"end_step": float(2 * pct_start * self.total_steps) - 2, "start_lr": "max_lr",
                 "end_lr": "initial_lr", "start_momentum": "base_momentum",
                 "end_momentum": "max_momentum"},
                {"end_step": self.total_steps - 1, "start_lr": "initial_lr", "end_lr": "min_lr",
                 "start_momentum": "max_momentum", "end_momentum": "max_momentum"}]
        else:
            self._schedule_phases = [
                up,
                {"end_step": self.total_steps - 1, "start_lr": "max_lr", "end_lr": "min_lr",
                 "start_momentum": "base_momentum", "end_momentum": "max_momentum"}]
        if pct_start < 0 or pct_start > 1 or not isinstance(pct_start, float):
            raise ValueError(f"Expected float between 0 and 1 pct_start, but got {pct_start}")
        if anneal_strategy not in ["cos", "linear"]:
            raise ValueError("anneal_strategy must be one of 'cos' or 'linear', instead got "
                             f"{anneal_strategy}")
        self._anneal_func_type = anneal_strategy
        max_lrs = _format_param("max_lr", self.optimizer, max_lr)
        if last_epoch == -1:
            for idx, group in enumerate(self.optimizer.param_groups):
                group["initial_lr"] = max_lrs[idx] / div_factor
                group["max_lr"] = max_lrs[idx]
                group["min_lr"] = group["initial_lr"] / final_div_factor
        self.cycle_momentum = cycle_momentum
        if self.cycle_momentum:
            if ("momentum" not in self.optimizer.defaults
                    and "betas" not in self.optimizer.defaults):
                raise ValueError("optimizer must support momentum or beta1 with "
                                 "`cycle_momentum` option enabled")
            self.use_beta1 = "betas" in self.optimizer.defaults
            max_momentums = _format_param("max_momentum", optimizer, max_momentum)
            base_momentums = _format_param("base_momentum", optimizer, base_momentum)
            if last_epoch == -1:
                for m_momentum, b_momentum, group in zip(max_momentums, base_momentums,
                                                         optimizer.param_groups, strict=True):
                    _set_momentum(group, self.use_beta1, m_momentum)
                    group["max_momentum"] = m_momentum
                    group["base_momentum"] = b_momentum
        super().__init__(optimizer, last_epoch)

    def _anneal_func(self, start, end, pct):
        if self._anneal_func_type == "cos":
            return self._annealing_cos(start, end, pct)
        if self._anneal_func_type == "linear":
            return self._annealing_linear(start, end, pct)
        raise ValueError(f"Unknown _anneal_func_type: {self._anneal_func_type}")

    @staticmethod
    def _annealing_cos(start, end, pct):
        """From ``start`` to ``end`` along half a cosine as ``pct`` goes from 0 to 1."""
        cos_out = math.cos(math.pi * pct) + 1
        return end + (start - end) / 2.0 * cos_out

    @staticmethod
    def _annealing_linear(start, end, pct):
        return (end - start) * pct + start

    def get_lr(self) -> list:
        """The rates for this step; moves the momenta as a side effect."""
        self._check_called_within_step()
        step_num = self.last_epoch
        if step_num > self.total_steps:
            raise ValueError(f"Tried to step {step_num} times. The specified number of total "
                             f"steps is {self.total_steps}")
        lrs = []
        for group in self.optimizer.param_groups:
            start_step = 0.0
            for i, phase in enumerate(self._schedule_phases):
                end_step = phase["end_step"]
                if step_num <= end_step or i == len(self._schedule_phases) - 1:
                    pct = (step_num - start_step) / (end_step - start_step)
                    lrs.append(self._anneal_func(group[phase["start_lr"]],
                                                 group[phase["end_lr"]], pct))
                    if self.cycle_momentum:
                        _set_momentum(group, self.use_beta1, self._anneal_func(
                            group[phase["start_momentum"]], group[phase["end_momentum"]], pct))
                    break
                start_step = phase["end_step"]
        return lrs


def _check_schedulers(kind, optimizer, schedulers) -> None:
    """The schedules a ``SequentialLR`` or ``ChainedScheduler`` combines: all of the same
    optimizer, none a ``ReduceLROnPlateau`` (whose ``step`` wants a metric)."""
    for scheduler_idx, scheduler in enumerate(schedulers):
        if not hasattr(scheduler, "optimizer"):
            raise TypeError(f"{kind} at index {scheduler_idx} should have `optimizer` as its "
                            "attribute.")
        if isinstance(scheduler, ReduceLROnPlateau):
            raise ValueError(
                f"{kind} does not support `ReduceLROnPlateau` scheduler as it requires "
                "additional kwargs to be specified when calling `step`, but got one at index "
                f"{scheduler_idx} in the given schedulers sequence.")
        if optimizer != scheduler.optimizer:
            raise ValueError(
                f"{kind} expects all schedulers to belong to the same optimizer, but got "
                f"scheduler {scheduler.__class__.__name__} at index {scheduler_idx} has "
                f"{scheduler.optimizer}, which is different from "
                f"{optimizer.__class__.__name__}.")


def _combined_state_dict(self) -> dict:
    """Its own fields, and each combined schedule's state dict."""
    state = {key: value for key, value in self.__dict__.items()
             if key not in ("optimizer", "_schedulers")}
    state["_schedulers"] = [s.state_dict() for s in self._schedulers]
    return state


def _combined_load_state_dict(self, state_dict) -> None:
    schedulers = state_dict.pop("_schedulers")
    self.__dict__.update(state_dict)
    state_dict["_schedulers"] = schedulers  # the caller's dict is left as it was
    for scheduler, state in zip(self._schedulers, schedulers):
        scheduler.load_state_dict(state)


class SequentialLR(LRScheduler):
    """One schedule after another: ``schedulers[i]`` runs from ``milestones[i - 1]`` on (each
    starts afresh from its own epoch 0 there)."""

    def __init__(self, optimizer, schedulers, milestones, last_epoch=-1):
        kind = self.__class__.__name__
        if len(schedulers) < 1:
            raise ValueError(f"{kind} expects at least one scheduler, but got no scheduler.")
        _check_schedulers(kind, optimizer, schedulers)
        if len(milestones) != len(schedulers) - 1:
            raise ValueError(
                "Sequential Schedulers expects number of schedulers provided to be one more "
                "than the number of milestone points, but got number of schedulers "
                f"{len(schedulers)} and the number of milestones to be equal to "
                f"{len(milestones)}")
        self._schedulers = schedulers
        self._milestones = milestones
        self.last_epoch = last_epoch + 1
        self.optimizer = optimizer
        # the schedules stepped once when they were made: back to the start
        for group in self.optimizer.param_groups:
            _set_lr(group, group["initial_lr"])
        self.recursive_undo()
        idx = bisect_right(self._milestones, 0)
        self._schedulers[idx]._initial_step()
        self._last_lr = schedulers[idx].get_last_lr()

    def recursive_undo(self, sched=None) -> None:
        """Take back the epoch each schedule (and each combined one inside) counted when it
        was made."""
        scheds = self if sched is None else sched
        if hasattr(scheds, "_schedulers"):
            for s in scheds._schedulers:
                self.recursive_undo(s)
        elif hasattr(scheds, "last_epoch"):
            scheds.last_epoch -= 1

    def step(self) -> None:
        self.last_epoch += 1
        idx = bisect_right(self._milestones, self.last_epoch)
        scheduler = self._schedulers[idx]
        if idx > 0 and self._milestones[idx - 1] == self.last_epoch:
            scheduler._update_lr(0)  # a milestone: the next schedule at its epoch 0
        else:
            scheduler.step()
        self._last_lr = scheduler.get_last_lr()

    state_dict = _combined_state_dict
    load_state_dict = _combined_load_state_dict


class ChainedScheduler(LRScheduler):
    """Several schedules at once: each ``step`` steps them all, in order, each from the rate
    the one before left."""

    def __init__(self, schedulers, optimizer=None):
        kind = self.__class__.__name__
        if len(schedulers) < 1:
            raise ValueError(f"{kind} expects at least one scheduler to be chained, but got no "
                             "scheduler.")
        optimizer = optimizer or schedulers[0].optimizer
        _check_schedulers(kind, optimizer, schedulers)
        self._schedulers = schedulers
        self.optimizer = optimizer
        self._last_lr = _lrs(self._schedulers[-1].optimizer)

    def step(self) -> None:
        for scheduler in self._schedulers:
            scheduler.step()
        self._last_lr = _lrs(self._schedulers[-1].optimizer)

    state_dict = _combined_state_dict
    load_state_dict = _combined_load_state_dict


def __getattr__(name):
    """Only reached for names this module does not define (PEP 562); see ``_left_out``."""
    raise _left_out.missing(__name__, name)
