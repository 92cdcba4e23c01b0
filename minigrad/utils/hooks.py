"""``torch.utils.hooks``: the handle every ``register_*hook`` returns (tensors, nodes,
modules, optimizers); ``remove()`` takes the hook out again."""

from minigrad.autograd.graph import RemovableHandle

__all__ = ["RemovableHandle"]
