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


# named tuples made alike: torch.linalg's (minigrad/linalg.py), torch.slogdet's, torch.frexp's
def _named(name: str, fields: tuple):
    """A tuple type whose items can also be read by these names (torch's structseq)."""
    def __repr__(self) -> str:  # noqa: N807
        items = ",\n".join(f"{k}={v!r}" for k, v in zip(fields, self))
        return f"minigrad.return_types.{name}(\n{items})"

    body = {k: property(lambda self, i=i: self[i]) for i, k in enumerate(fields)}
    return type(name, (tuple,), {**body, "__repr__": __repr__, "__module__": __name__,
                                 "__slots__": ()})


slogdet = _named("slogdet", ("sign", "logabsdet"))
linalg_slogdet = _named("linalg_slogdet", ("sign", "logabsdet"))
linalg_inv_ex = _named("linalg_inv_ex", ("inverse", "info"))
linalg_solve_ex = _named("linalg_solve_ex", ("result", "info"))
frexp = _named("frexp", ("mantissa", "exponent"))
histogram = _named("histogram", ("hist", "bin_edges"))
