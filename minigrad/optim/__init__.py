"""``minigrad.optim``: optimizers that update parameters from their ``.grad``."""

from minigrad.optim.adagrad import Adagrad
from minigrad.optim.adam import Adam
from minigrad.optim.adamw import AdamW
from minigrad.optim.optimizer import Optimizer
from minigrad.optim.rmsprop import RMSprop
from minigrad.optim.sgd import SGD

__all__ = ["Optimizer", "SGD", "Adam", "AdamW", "RMSprop", "Adagrad"]
