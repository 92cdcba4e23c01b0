"""``torch.return_types``: the named tuples that ``max(dim)``, ``min(dim)``, ``sort``,
``topk``, ``cummax`` and ``cummin`` return.

torch returns one tuple type per op (``torch.return_types.max``, ``...sort``): a tuple whose
two items can also be read by name, ``values`` and ``indices``. minigrad has the same classes
under the same names, so ``values, indices = x.max(0)``, ``x.max(0).indices``, ``type(r)`` and
the printed result all read as torch's.
"""


class _ValuesIndices(tuple):
    """(values, indices), readable by position or by name."""

    values = property(lambda self: self[0])
    indices = property(lambda self: self[1])

    def __repr__(self) -> str:
        return (f"minigrad.return_types.{type(self).__name__}(\nvalues={self[0]!r},\n"
                f"indices={self[1]!r})")


class max(_ValuesIndices):  # noqa: A001 - torch's name
    pass


class min(_ValuesIndices):  # noqa: A001 - torch's name
    pass


class sort(_ValuesIndices):
    pass


class topk(_ValuesIndices):
    pass


class cummax(_ValuesIndices):
    pass


class cummin(_ValuesIndices):
    pass
# statistics_losses: the order statistics (minigrad/_ops/order_statistics.py)
class median(_ValuesIndices):
    pass


class nanmedian(_ValuesIndices):
    pass


class kthvalue(_ValuesIndices):
    pass


class mode(_ValuesIndices):
    pass


class aminmax(tuple):
    """(min, max), readable by position or by name."""

    min = property(lambda self: self[0])
    max = property(lambda self: self[1])

    def __repr__(self) -> str:
        return f"minigrad.return_types.aminmax(\nmin={self[0]!r},\nmax={self[1]!r})"


class frexp(tuple):
    """(mantissa, exponent), readable by position or by name (torch.frexp)."""

    mantissa = property(lambda self: self[0])
    exponent = property(lambda self: self[1])

    def __repr__(self) -> str:
        return (f"minigrad.return_types.frexp(\nmantissa={self[0]!r},\n"
                f"exponent={self[1]!r})")
