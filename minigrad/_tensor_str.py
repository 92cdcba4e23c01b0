"""Turn a tensor's data into the same text that ``repr(torch_tensor)`` prints.

minigrad promises to look exactly like PyTorch, and printing is the first
thing a learner compares.  This module follows the algorithm of
``torch/_tensor_str.py`` step by step, using only NumPy:

1. Decide whether to *summarize* (show ``...``): yes when the tensor holds
   more than ``threshold`` elements.
2. Build one ``_Formatter`` from the values that will actually be shown.  It
   picks a single notation (integer-like, fixed point or scientific) and a
   single column width, so that every element lines up.
3. Render the nested brackets recursively, wrapping long rows at
   ``linewidth`` characters.
4. Append suffixes such as ``dtype=...``, ``size=...``, ``grad_fn=<...>`` or
   ``requires_grad=True``, moving them to a new line when they would not fit.

The only deliberate difference from torch: dtypes are written
``minigrad.float64`` instead of ``torch.float64``.

Floats are always formatted as *Python* floats (``array.tolist()``), exactly
like torch does.  A float32 value therefore prints through its exact double
value, which is what makes the digits agree with torch's.
"""

from __future__ import annotations

import contextlib
import dataclasses
import math
from collections.abc import Iterator
from typing import Any

import numpy as np

__all__ = [
    "PRINT_OPTS",
    "PrintOptions",
    "get_printoptions",
    "parameter_str",
    "printoptions",
    "set_printoptions",
    "tensor_str",
]


# ---------------------------------------------------------------------------
# Print options
# ---------------------------------------------------------------------------


@dataclasses.dataclass
class PrintOptions:
    """The knobs of ``set_printoptions``; the defaults are torch's defaults."""

    precision: int = 4
    threshold: float = 1000
    edgeitems: int = 3
    linewidth: int = 80
    sci_mode: bool | None = None


PRINT_OPTS = PrintOptions()

# Each profile resets four options at once (sci_mode is handled separately).
_PROFILES: dict[str, dict[str, Any]] = {
    "default": {"precision": 4, "threshold": 1000, "edgeitems": 3, "linewidth": 80},
    "short": {"precision": 2, "threshold": 1000, "edgeitems": 2, "linewidth": 80},
    "full": {"precision": 4, "threshold": math.inf, "edgeitems": 3, "linewidth": 80},
}


def set_printoptions(
    precision: int | None = None,
    threshold: float | None = None,
    edgeitems: int | None = None,
    linewidth: int | None = None,
    profile: str | None = None,
    sci_mode: bool | None = None,
) -> None:
    """Change how tensors are printed, with the same semantics as torch.

    A ``profile`` is applied first, then any explicit option overrides it.
    Options left as ``None`` keep their value -- except ``sci_mode``, which is
    always assigned, so calling this without ``sci_mode`` switches scientific
    notation back to automatic (torch does the same).  Unknown profile names
    are ignored, as in torch.
    """
    if profile in _PROFILES:
        for name, value in _PROFILES[profile].items():
            setattr(PRINT_OPTS, name, value)
    if precision is not None:
        PRINT_OPTS.precision = precision
    if threshold is not None:
        PRINT_OPTS.threshold = threshold
    if edgeitems is not None:
        PRINT_OPTS.edgeitems = edgeitems
    if linewidth is not None:
        PRINT_OPTS.linewidth = linewidth
    PRINT_OPTS.sci_mode = sci_mode


def get_printoptions() -> dict[str, Any]:
    """Return the current options as a dict that ``set_printoptions`` accepts."""
    return dataclasses.asdict(PRINT_OPTS)


@contextlib.contextmanager
def printoptions(**kwargs: Any) -> Iterator[None]:
    """Temporarily change the print options inside a ``with`` block."""
    saved = get_printoptions()
    set_printoptions(**kwargs)
    try:
        yield
    finally:
        set_printoptions(**saved)


# ---------------------------------------------------------------------------
# Formatting single elements
# ---------------------------------------------------------------------------


def _is_floating(array: np.ndarray) -> bool:
    return array.dtype.kind == "f"


class _Formatter:
    """Chooses one notation and one width for all elements of a tensor.

    Integers and bools are printed with ``str`` and right-aligned to the
    longest one.  Floats look only at their finite, nonzero values:

    * ``int_mode``: every such value is a whole number, so print ``3.``
      (the trailing dot still tells the reader it is a float);
    * ``sci_mode``: the magnitudes span more than three decades, or are huge
      (> 1e8) or tiny (< 1e-4), so fixed point would be unreadable;
    * otherwise fixed point with ``precision`` decimals.

    Zeros, nan and inf never influence the width, exactly as in torch, which
    is why e.g. ``tensor([0., nan, inf])`` is not padded.
    """

    def __init__(self, values: np.ndarray) -> None:
        self.floating = _is_floating(values)
        self.int_mode = True
        self.sci_mode = False
        self.max_width = 1

        flat = values.reshape(-1)
        if not self.floating:
            for value in flat.tolist():
                self.max_width = max(self.max_width, len(f"{value}"))
            return

        shown = flat[np.isfinite(flat) & (flat != 0)]
        if shown.size == 0:
            return  # nothing to measure: keep the defaults

        self.int_mode = bool(np.all(shown == np.ceil(shown)))
        self.sci_mode = self._choose_sci_mode(shown)
        for value in shown.tolist():
            self.max_width = max(self.max_width, self._measure(value))

    @staticmethod
    def _choose_sci_mode(shown: np.ndarray) -> bool:
        """Use the user's choice if any, else torch's automatic rule."""
        if PRINT_OPTS.sci_mode is not None:
            return bool(PRINT_OPTS.sci_mode)
        # torch compares in double precision; Python floats are doubles.
        magnitudes = np.abs(shown).astype(np.float64)
        smallest, largest = float(magnitudes.min()), float(magnitudes.max())
        return largest / smallest > 1000.0 or largest > 1.0e8 or smallest < 1.0e-4

    def _measure(self, value: float) -> int:
        """Width of one finite, nonzero value in the chosen notation."""
        precision = PRINT_OPTS.precision
        if self.sci_mode:
            return len(f"{value:.{precision}e}")
        if self.int_mode:
            return len(f"{value:.0f}") + 1  # + 1 for the trailing "."
        return len(f"{value:.{precision}f}")

    def width(self) -> int:
        return self.max_width

    def format(self, value: Any) -> str:
        """Render one Python scalar, right-aligned to the common width."""
        precision = PRINT_OPTS.precision
        if not self.floating:
            text = f"{value}"
        elif self.sci_mode:
            text = f"{value:{self.max_width}.{precision}e}"
        elif self.int_mode:
            text = f"{value:.0f}"
            if not (math.isinf(value) or math.isnan(value)):
                text += "."
        else:
            text = f"{value:.{precision}f}"
        return (self.max_width - len(text)) * " " + text


# ---------------------------------------------------------------------------
# Summarization
# ---------------------------------------------------------------------------


def _summarized_data(array: np.ndarray) -> np.ndarray:
    """Keep only the elements that a summarized print will show.

    The formatter must measure the *visible* values only; otherwise a huge
    hidden value could force scientific notation on a tensor whose printed
    part is small.  Mirrors torch's ``get_summarized_data``, quirks included
    (with ``edgeitems=0`` a 1-d tensor is kept whole because ``a[-0:]`` is the
    whole array).
    """
    edge = PRINT_OPTS.edgeitems
    if array.ndim == 0:
        return array
    if array.ndim == 1:
        if array.shape[0] > 2 * edge:
            return np.concatenate((array[:edge], array[-edge:]))
        return array
    if not edge:
        return np.empty((0,) * array.ndim, dtype=array.dtype)
    if array.shape[0] > 2 * edge:
        rows = list(range(edge)) + list(range(array.shape[0] - edge, array.shape[0]))
    else:
        rows = list(range(array.shape[0]))
    return np.stack([_summarized_data(array[i]) for i in rows])


# ---------------------------------------------------------------------------
# Rendering the nested brackets
# ---------------------------------------------------------------------------


def _scalar_str(array: np.ndarray, formatter: _Formatter) -> str:
    return formatter.format(array.item())


def _vector_str(array: np.ndarray, indent: int, summarize: bool, formatter: _Formatter) -> str:
    """Render a 1-d array, wrapping it into several lines if it is too long.

    ``indent`` is the column where the opening bracket sits; continuation
    lines start one column further so the numbers line up under each other.
    """
    edge = PRINT_OPTS.edgeitems
    element_length = formatter.width() + 2  # the element plus ", "
    per_line = max(1, math.floor((PRINT_OPTS.linewidth - indent) / element_length))

    if summarize and not edge:
        items = ["..."]
    elif summarize and array.shape[0] > 2 * edge:
        items = (
            [formatter.format(v) for v in array[:edge].tolist()]
            + [" ..."]
            + [formatter.format(v) for v in array[-edge:].tolist()]
        )
    else:
        items = [formatter.format(v) for v in array.tolist()]

    lines = [", ".join(items[i : i + per_line]) for i in range(0, len(items), per_line)]
    return "[" + (",\n" + " " * (indent + 1)).join(lines) + "]"


def _nested_str(array: np.ndarray, indent: int, summarize: bool, formatter: _Formatter) -> str:
    """Render an array of any rank by rendering its sub-arrays recursively.

    Sub-arrays of a k-d array are separated by k-1 newlines, so a 3-d tensor
    shows its matrices as blocks divided by a blank line.
    """
    if array.ndim == 0:
        return _scalar_str(array, formatter)
    if array.ndim == 1:
        return _vector_str(array, indent, summarize, formatter)

    edge = PRINT_OPTS.edgeitems
    length = array.shape[0]

    def render(i: int) -> str:
        return _nested_str(array[i], indent + 1, summarize, formatter)

    if summarize and length > 2 * edge:
        head = [render(i) for i in range(edge)]
        tail = [render(i) for i in range(length - edge, length)]
        parts = head + ["..."] + tail
    else:
        parts = [render(i) for i in range(length)]

    separator = "," + "\n" * (array.ndim - 1) + " " * (indent + 1)
    return "[" + separator.join(parts) + "]"


def _body_str(array: np.ndarray, indent: int) -> str:
    """The bracketed contents, e.g. ``[1., 2.]`` (torch's ``_tensor_str``)."""
    if array.size == 0:
        return "[]"
    summarize = array.size > PRINT_OPTS.threshold
    formatter = _Formatter(_summarized_data(array) if summarize else array)
    return _nested_str(array, indent, summarize, formatter)


# ---------------------------------------------------------------------------
# Suffixes and the public entry points
# ---------------------------------------------------------------------------

# Dtypes that torch leaves implicit in a non-empty tensor's repr, besides the
# default floating dtype: values like ``3`` or ``True`` already reveal them.
_IMPLICIT_DTYPES = frozenset({"int64", "bool"})


def _size_str(array: np.ndarray) -> str:
    return "size=" + str(tuple(int(n) for n in array.shape))


def _suffixes(
    array: np.ndarray,
    dtype_name: str,
    is_default_dtype: bool,
    requires_grad: bool,
    grad_fn_name: str | None,
    tangent=None,
) -> list[str]:
    """The ``key=value`` notes printed after the data, in torch's order."""
    suffixes = []
    dtype_suffix = f"dtype=minigrad.{dtype_name}"
    if array.size == 0:
        # "[]" says nothing about the shape or the dtype, so spell them out.
        # (1-d is what "[]" suggests, so its size is left out, like NumPy.)
        if array.ndim != 1:
            suffixes.append(_size_str(array))
        if not is_default_dtype:
            suffixes.append(dtype_suffix)
    else:
        if not PRINT_OPTS.edgeitems:
            suffixes.append(_size_str(array))  # the data shows no sizes at all
        if not (is_default_dtype or dtype_name in _IMPLICIT_DTYPES):
            suffixes.append(dtype_suffix)

    if grad_fn_name is not None:
        suffixes.append(f"grad_fn=<{grad_fn_name}>")
    elif requires_grad:
        suffixes.append("requires_grad=True")
    if tangent is not None:  # a dual tensor inside forward_ad.dual_level()
        suffixes.append(f"tangent={tangent}")
    return suffixes


def _torch_length(suffix: str) -> int:
    """Length of ``suffix`` as torch would spell it (``torch.`` for dtypes).

    ``minigrad.`` is three characters longer than ``torch.``.  Measuring the
    torch spelling keeps every line break where torch puts it, so our text is
    always torch's text with only the module name swapped.
    """
    return len(suffix.replace("=minigrad.", "=torch."))


def _add_suffixes(text: str, suffixes: list[str], indent: int) -> str:
    """Append ``, suffix`` items, breaking the line when one would overflow.

    The current line length is computed exactly as torch does, including its
    off-by-two (``len - rfind + 1``), so line breaks land in the same places.
    """
    pieces = [text]
    line_length = len(text) - text.rfind("\n") + 1
    for suffix in suffixes:
        length = _torch_length(suffix)
        if line_length + length + 2 > PRINT_OPTS.linewidth:
            pieces.append(",\n" + " " * indent + suffix)
            line_length = indent + length
        else:
            pieces.append(", " + suffix)
            line_length += length + 2
    pieces.append(")")
    return "".join(pieces)


def tensor_str(
    array: np.ndarray,
    *,
    dtype_name: str,
    is_default_dtype: bool,
    requires_grad: bool,
    grad_fn_name: str | None,
    prefix: str = "tensor(",
    indent: int | None = None,
    tangent=None,
) -> str:
    """Return exactly what ``repr(torch_tensor)`` prints for this data.

    Args:
        array: the tensor's values, any rank (0-d included).  Float arrays
            (float16/32/64) use float formatting; int and bool arrays are
            printed with ``str``.
        dtype_name: dtype name without module, e.g. ``"float64"``; printed
            as ``dtype=minigrad.float64`` when the dtype must be shown.
        is_default_dtype: whether ``dtype_name`` is the current *default
            floating* dtype (``float32`` unless changed).  Non-empty int64 and
            bool tensors hide their dtype anyway; empty tensors show every
            dtype except the default floating one, as torch does.
        requires_grad: print ``requires_grad=True`` (only for leaves).
        grad_fn_name: class name of the node that produced the tensor, e.g.
            ``"MulBackward0"``; printed as ``grad_fn=<MulBackward0>`` and
            takes precedence over ``requires_grad``.
        prefix: text before the data; also sets the default ``indent``.
        indent: column under which wrapped lines align (``len(prefix)``).
        tangent: a dual tensor's forward-mode tangent, printed as ``tangent=...``.
    """
    if indent is None:
        indent = len(prefix)
    array = np.asarray(array)
    if array.dtype.kind not in "fiub":
        raise TypeError(f"cannot print arrays of dtype {array.dtype}")
    body = _body_str(array, indent)
    suffixes = _suffixes(array, dtype_name, is_default_dtype, requires_grad, grad_fn_name,
                         tangent)
    return _add_suffixes(prefix + body, suffixes, indent)


def parameter_str(
    array: np.ndarray,
    *,
    dtype_name: str,
    is_default_dtype: bool,
    requires_grad: bool = True,
) -> str:
    """What ``repr(torch.nn.Parameter(...))`` prints.

    torch simply puts a header line above the ordinary tensor repr.  A
    parameter is always a leaf, so it never has a ``grad_fn``.
    """
    return "Parameter containing:\n" + tensor_str(
        array,
        dtype_name=dtype_name,
        is_default_dtype=is_default_dtype,
        requires_grad=requires_grad,
        grad_fn_name=None,
    )
