"""The layer classes of ``minigrad.nn``, one idea per file."""

from minigrad.nn.modules.activation import LogSoftmax, ReLU, Sigmoid, Softmax, Tanh
from minigrad.nn.modules.container import Sequential
from minigrad.nn.modules.linear import Linear
from minigrad.nn.modules.loss import BCEWithLogitsLoss, CrossEntropyLoss, MSELoss
from minigrad.nn.modules.module import Module

__all__ = ["Module", "Linear", "Sequential", "ReLU", "Tanh", "Sigmoid", "Softmax", "LogSoftmax",
           "MSELoss", "CrossEntropyLoss",
           "BCEWithLogitsLoss"]
