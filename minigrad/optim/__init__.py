"""``minigrad.optim``: optimizers that update parameters from their ``.grad``."""

from minigrad.optim.adam import Adam
from minigrad.optim.optimizer import Optimizer
from minigrad.optim.sgd import SGD

__all__ = ["Optimizer", "SGD", "Adam"]
