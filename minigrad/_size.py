"""What describes a tensor apart from its numbers: its shape (``Size``) and where it lives
(``device``).

Apart from ``_tensor`` so that the graph's nodes, below it in the imports, can describe the
gradients they take in (``Node._input_metadata``) with torch's types.
"""

from __future__ import annotations

import operator

import numpy as np


class Size(tuple):
    """A tensor's shape: a tuple that prints like torch's ``Size``."""

    def __new__(cls, sizes=()):
        """``Size([2, 3])``: ints only (anything with ``__index__`` becomes one), as torch."""
        items = list(sizes)
        for i, n in enumerate(items):
            if type(n) is not int:
                try:
                    items[i] = operator.index(n)
                except TypeError:
                    raise TypeError(f"minigrad.Size() takes an iterable of 'int' (item {i} is "
                                    f"'{type(n).__name__}')") from None
        return tuple.__new__(cls, items)

    def __repr__(self) -> str:
        return f"minigrad.Size({list(self)})"

    # slicing, concatenating and repeating a Size give a Size, as in torch
    def __getitem__(self, index):
        out = tuple.__getitem__(self, index)
        return tuple.__new__(Size, out) if isinstance(index, slice) else out

    def __setitem__(self, index, value):
        """``x.shape[0] = 5``: torch's C type names itself in Python's message."""
        raise TypeError("'minigrad.Size' object does not support item assignment")

    def __delitem__(self, index):
        raise TypeError("'minigrad.Size' object doesn't support item deletion")

    def __add__(self, other):
        if not isinstance(other, tuple):
            raise TypeError(f"can only concatenate tuple (not {type(other).__name__}) to "
                            "minigrad.Size")
        return Size(tuple.__add__(self, other))

    def __radd__(self, other):
        return Size(tuple.__add__(other, self)) if isinstance(other, tuple) else NotImplemented

    def __mul__(self, n):
        return Size(tuple.__mul__(self, n))

    __rmul__ = __mul__

    def numel(self) -> int:
        return int(np.prod(self, dtype=np.int64))


_DEVICE_TYPES = ("cpu, cuda, ipu, xpu, mkldnn, opengl, opencl, ideep, hip, ve, fpga, maia, "
                 "xla, lazy, vulkan, mps, meta, hpu, mtia, privateuseone")


class device:  # noqa: N801 - torch's spelling
    """A device as torch names one: ``device("cpu")``, ``device("cuda:1")``,
    ``device("cuda", 0)``. Making one is fine; minigrad only computes on the CPU, and putting
    a tensor anywhere else raises a CPU-only torch's error (see ``minigrad/cuda.py``)."""

    def __init__(self, type, index=None):  # noqa: A002
        if isinstance(type, device):
            type, index = type.type, type.index  # noqa: A001
        if not isinstance(type, str):
            raise RuntimeError("Cannot access accelerator device when none is available.")
        name, _, number = type.partition(":")
        if name not in _DEVICE_TYPES.split(", "):
            raise RuntimeError(f"Expected one of {_DEVICE_TYPES} device type at start of device "
                               f"string: {type}")
        if _:
            if not number.isdigit() or index is not None:
                raise RuntimeError(f"Invalid device string: '{type}'")
            index = int(number)
        self.type = name
        self.index = index

    def __repr__(self) -> str:
        if self.index is None:
            return f"device(type='{self.type}')"
        return f"device(type='{self.type}', index={self.index})"

    def __str__(self) -> str:
        return self.type if self.index is None else f"{self.type}:{self.index}"

    def __eq__(self, other) -> bool:
        return (isinstance(other, device) and other.type == self.type
                and other.index == self.index)

    def __hash__(self) -> int:
        return hash((self.type, self.index))


Size.__module__ = device.__module__ = "minigrad"
