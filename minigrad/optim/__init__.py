"""``minigrad.optim``: optimizers that update parameters from their ``.grad``, and
``lr_scheduler``, the schedules that change their learning rates, and ``swa_utils``, weight
averaging (SWA, EMA)."""

from minigrad import _left_out
from minigrad.optim import lr_scheduler, swa_utils
from minigrad.optim.adadelta import Adadelta
from minigrad.optim.adafactor import Adafactor
from minigrad.optim.adagrad import Adagrad
from minigrad.optim.adam import Adam
from minigrad.optim.adamax import Adamax
from minigrad.optim.adamw import AdamW
from minigrad.optim.asgd import ASGD
from minigrad.optim.lbfgs import LBFGS
from minigrad.optim.nadam import NAdam
from minigrad.optim.optimizer import Optimizer
from minigrad.optim.radam import RAdam
from minigrad.optim.rmsprop import RMSprop
from minigrad.optim.rprop import Rprop
from minigrad.optim.sgd import SGD

Adafactor.__module__ = "minigrad.optim"  # as torch's optim/__init__.py names it

__all__ = ["Optimizer", "SGD", "Adam", "AdamW", "RMSprop", "Adagrad", "lr_scheduler",
           "Adadelta", "Adamax", "NAdam", "RAdam", "Rprop", "ASGD", "LBFGS", "swa_utils",
           "Adafactor"]


def __getattr__(name):
    """Only reached for names this module does not define (PEP 562); see ``_left_out``."""
    raise _left_out.missing(__name__, name)
