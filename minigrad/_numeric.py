"""Float arithmetic as torch's compiled CPU kernels do it, where NumPy's differs.

* inf and nan are values, not warnings: ``quietly`` runs a NumPy call without its
  floating-point warnings, and ``quiet`` a whole block (the engine's backward pass).
* The compiler fuses ``a + b * c`` into one fused multiply-add (FMA), rounded once, where
  NumPy rounds the product and then the sum. ``arange`` and ``lerp`` need torch's exact digits.
* torch adds up a float tensor in an order of its own (``cascade_sum``), NumPy pairwise: the
  same numbers, other last digits, which a training loop then amplifies.
"""

from __future__ import annotations

import functools
import os
import platform

import numpy as np

from minigrad import _layout

# NumPy's error state lives in a context variable; ``np.errstate`` rebuilds its value on every
# entry, which costs more than a small op itself. ``quietly`` and ``quiet`` set a value made
# once instead, and ``quietly`` inside ``quiet`` (every op of a backward pass) sets nothing.
# NumPy keeps this variable private (the course pins NumPy 2.4); with a NumPy that lacks it,
# both fall back to ``np.errstate``: the same result, only slower.
_ufunc_config = getattr(getattr(np, "_core", None), "_ufunc_config", None)
_ERRSTATE = getattr(_ufunc_config, "_extobj_contextvar", None)
_IGNORE_ALL = _ufunc_config._make_extobj(all="ignore") if _ERRSTATE is not None else None


def quietly(fn, *args):
    """``fn(*args)`` without NumPy's floating-point warnings: inf and nan are values here, as
    in torch (what ``with np.errstate(all="ignore")`` does, at a third of its cost)."""
    if _ERRSTATE is None:
        with np.errstate(all="ignore"):
            return fn(*args)
    if _ERRSTATE.get() is _IGNORE_ALL:  # inside ``quiet`` already
        return fn(*args)
    token = _ERRSTATE.set(_IGNORE_ALL)
    try:
        return fn(*args)
    finally:
        _ERRSTATE.reset(token)


class quiet:  # noqa: N801 - used like a function, ``with quiet():``
    """A block without NumPy's floating-point warnings (``np.errstate(all="ignore")``).

    A class rather than a ``contextlib.contextmanager`` generator: every backward pass enters
    one, and a generator-based block costs twice as much to enter and leave."""

    __slots__ = ("_token", "_fallback")

    def __enter__(self) -> None:
        if _ERRSTATE is None:
            self._fallback = np.errstate(all="ignore")
            self._fallback.__enter__()
        else:
            self._token = _ERRSTATE.set(_IGNORE_ALL)

    def __exit__(self, *exc) -> bool:
        if _ERRSTATE is None:
            self._fallback.__exit__(*exc)
        else:
            _ERRSTATE.reset(self._token)
        return False


_HALF = np.dtype(np.float16)
_DOUBLE = np.dtype(np.float64)
_WIDE_FLOATS = frozenset((np.dtype(np.float32), _DOUBLE))


def for_dtype(data, np_dtype):
    """``data`` (an array or a Python number) ready to be converted to ``np_dtype`` as torch
    converts: itself, or, bound for float16 from a double, its float32 rounding.

    Why: torch's half type (c10::Half) is built from a float, so a double (a Python float, a
    float64 tensor) becomes float32 first and then float16, rounded twice. NumPy rounds a
    float64 straight to float16. The two differ where the double lies just past a midpoint
    between two halves and float32 rounds it onto the midpoint (about one value in 8,000):
    ``-1.3500976563396945`` is -1.349609375 in torch, -1.3505859375 rounded once."""
    if np_dtype == _HALF:
        if isinstance(data, float):
            return np.float32(data) if abs(data) < 3.4e38 else data  # (an inf stays inf)
        if isinstance(data, np.ndarray) and data.dtype == _DOUBLE:
            return quietly(data.astype, np.float32)
    return data


def number(value, np_dtype):
    """A Python number as a NumPy scalar of ``np_dtype``, converted as torch converts a
    ``Scalar`` (``for_dtype``)."""
    return np.dtype(np_dtype).type(for_dtype(value, np.dtype(np_dtype)))


def cast(data, np_dtype) -> np.ndarray:
    """``data`` (an array or a Python number) as an array of ``np_dtype``, converted as torch
    converts (``for_dtype``), without NumPy's overflow warnings."""
    if data.__class__ is float and -3.4e38 < data < 3.4e38 and np_dtype in _WIDE_FLOATS:
        # the usual case (``x * 0.5``): nothing to round twice, nothing that overflows, so
        # no warnings to silence (which costs more than the conversion itself)
        return np.asarray(data, np_dtype)
    if np_dtype == _HALF:
        data = for_dtype(data, _HALF)
    return quietly(np.asarray, data, np_dtype)


def opmath(kernel):
    """``kernel`` (arrays in, an array or a tuple of arrays out) computed in float32 for
    float16 arrays, its results rounded to float16 once at the end: torch's CPU kernels for
    float16 (a 'reduced' float) compute in float32, their 'opmath' type, so a sum, a softmax
    or a matrix product rounds once, not after every step as NumPy's float16 does."""
    @functools.wraps(kernel)
    def run(*args, **kwargs):
        for a in args:
            if getattr(a, "dtype", None) is _HALF:
                break
        else:  # (the usual case: nothing in float16)
            return kernel(*args, **kwargs)
        wide = (a.astype(np.float32) if getattr(a, "dtype", None) is _HALF else a
                for a in args)
        out = kernel(*wide, **kwargs)
        if isinstance(out, tuple):
            return tuple(o.astype(np.float16) if o.dtype == np.float32 else o for o in out)
        return np.asarray(out).astype(np.float16)

    return run


def fma(a, b, c, dtype):
    """``a * b + c`` rounded once to ``dtype`` (float32 or float64), as the FMA instruction."""
    return fma32(a, b, c) if np.dtype(dtype) == np.float32 else fma64(a, b, c)


_LOW29, _HALF29, _TINY32 = np.uint64(0x1FFFFFFF), np.uint64(0x10000000), 2.0 ** -126


def fma32(a, b, c):
    """float32 ``a * b + c`` rounded once. The product of two float32 is exact in float64 and
    the sum rounds there first; rounding twice only goes wrong when that float64 sum falls
    exactly halfway between two float32s (its 29 extra bits 1000...0), or in float32's
    subnormal range, where fewer bits are kept: only those elements get the sum's exact error
    computed to settle the result (the rest stays one fast NumPy expression)."""
    with quiet():
        return _fma32(a, b, c)


def _fma32(a, b, c):
    """``fma32`` inside ``quiet`` already (a loop of them enters it once)."""
    total = np.add(np.multiply(a, b, dtype=np.float64), c, dtype=np.float64)
    rounded = np.asarray(total.astype(np.float32))
    bits = np.asarray(total).view(np.uint64)
    unsure = (((bits & _LOW29) == _HALF29) | (np.abs(total) < _TINY32)) & (total != 0)
    if unsure.any():
        p = np.multiply(a, b, dtype=np.float64)
        p, c = (np.broadcast_to(np.asarray(v, np.float64), total.shape)[unsure] for v in (p, c))
        exact, error = _two_sum(p, c)
        near = rounded[unsure]
        rounded[unsure] = _settle_tie(near, exact - near.astype(np.float64), error)
    return rounded


def fma64(a, b, c):
    """float64 ``a * b + c`` rounded once: the product split exactly (Dekker), the sums with
    their errors (Knuth), and the last error settling a result that falls halfway between two
    float64s."""
    a, b, c = (np.asarray(v, dtype=np.float64) for v in (a, b, c))
    with np.errstate(all="ignore"):
        p = a * b
        a_hi, b_hi = _split(a), _split(b)
        a_lo, b_lo = a - a_hi, b - b_hi
        p_error = ((a_hi * b_hi - p) + a_hi * b_lo + a_lo * b_hi) + a_lo * b_lo  # a*b = p + it
        s, s_error = _two_sum(p, c)
        u, u_error = _two_sum(s_error, p_error)  # a*b + c = s + u + u_error, exactly
        rounded, rest = _two_sum(s, u)  # = rounded + rest + u_error
        out = _settle_tie(rounded, rest, u_error)
        out = np.where(u == 0, s, out)  # nothing to add back: keep s, and its signed zero
        return np.where(np.isfinite(out), out, p + c)  # infinities: no remainders to add


def _settle_tie(rounded, rest, error):
    """``rounded + rest + error`` (exactly) rounded once, given ``rounded``, the nearest
    value to ``rounded + rest``: only a tie (``rest`` half a unit) can be decided wrongly,
    and ``error`` decides it."""
    other = np.nextafter(rounded, np.where(rest > 0, np.inf, -np.inf).astype(rounded.dtype))
    tie = (rest != 0) & (2 * rest == other.astype(np.float64) - rounded.astype(np.float64))
    beyond = tie & (error != 0) & (np.sign(error) == np.sign(rest))
    return np.where(beyond, other, rounded)


def _two_sum(a, b):
    """``a + b`` rounded, and the exact error of that rounding (Knuth)."""
    s = a + b
    back = s - a
    return s, (a - (s - back)) + (b - back)


def _split(x):
    """The high half of a double (26 bits), so that ``x * y`` splits into exact products."""
    t = x * 134217729.0  # 2**27 + 1
    return t - (t - x)


# --- sums in torch's order --------------------------------------------------------------------
# ATen's CPU sum (SumKernel.cpp, ``cascade_sum``) reads a float tensor as vectors of one 32-byte
# register (8 float32, 4 float64: the AVX2 kernel, which torch also runs on AVX512 CPUs, and
# the width of its plain build), keeps 4 vectors' running sums side by side, and adds each run
# of 16 (or more) rows into the next level up, so that only numbers of a like size meet. The
# lanes are added left to right at the end. Written out below with NumPy, level by level.
_REGISTER_BYTES = 32
_add_reduce = np.add.reduce


def _running(rows):
    """``acc = 0; for row in rows: acc += row`` down the rows of a 2-D array, in its dtype: a
    new array, one number per column. (NumPy's running sums start from the first row, not from
    +0.0, so a sum of -0.0s is -0.0 here: the callers add their result to +0.0 at the end, as
    torch's output.)"""
    if len(rows) <= 1:
        return rows[0].copy() if len(rows) else np.zeros(rows.shape[1], rows.dtype)
    if rows.shape[1] == 1:  # one column: accumulate, a running sum by definition (NumPy's
        return np.add.accumulate(rows[:, 0])[-1:]  # reduce would add it pairwise)
    # NumPy's reduce adds up an axis that is not the innermost one in memory one row after
    # another (its pairwise sum is for the innermost axis only): in a row-major array with
    # more than one column, axis 0 is such an axis.
    return np.add.reduce(np.ascontiguousarray(rows), axis=0)


def _block_sums(rows, step):
    """The running sum of each block of ``step`` rows (``len(rows)`` is a multiple of it)."""
    blocks = np.ascontiguousarray(rows).reshape(-1, step, rows.shape[1])
    if rows.shape[1] == 1:  # as in ``_running``: a running sum down one column
        return np.add.accumulate(blocks, axis=1)[:, -1]
    return np.add.reduce(blocks, axis=1)


def _multi_row_sum(rows):
    """ATen's ``multi_row_sum`` down the rows of a 2-D array. Level 0 is a running sum of
    rows; each full block of ``step`` rows moves up as one number of level 1, each full run of
    ``step`` of those up to level 2, and so on to level 3, which keeps all it gets. At the end
    the levels are added, bottom up (a level that got nothing is +0.0 and is skipped).

    Every sum sits on the hot path of a training step (a mean, a bias gradient), so with more
    than one column the levels call NumPy's reduce directly on a row-major copy, made once
    (``_running`` and ``_block_sums`` say why that is a running sum)."""
    size, width = rows.shape
    step = 1 << max(4, (size - 1).bit_length() // 4 if size > 1 else 0)
    if 1 < width and 0 < size < step * step:
        return _two_levels(np.ascontiguousarray(rows), step)
    if width == 1:
        running, block_sums = _running, _block_sums
    else:
        rows = np.ascontiguousarray(rows)
        running, block_sums = _reduce_rows, _reduce_blocks
    levels, carried = [], rows
    for _ in range(3):
        full = len(carried) // step * step
        if len(carried) > full:
            levels.append(running(carried[full:]))  # what is left at this level
        if not full:
            break
        carried = block_sums(carried[:full], step)
    else:
        levels.append(running(carried))
    if not levels:
        return np.zeros(width, rows.dtype)
    total = levels[0]  # a new array (a reduce's or a copy), so it can be added to in place
    for level in levels[1:]:
        total += level
    return total


def _two_levels(rows, step):
    """``_multi_row_sum`` of a row-major array with more than one column and fewer than
    ``step * step`` rows: the sums of a training step (a mean, a bias's gradient). Level 2
    then gets nothing, so the sum is level 0, the running sum of the rows past the last full
    block, plus level 1, the running sum of the full blocks' sums; with a single full block,
    that block's running sum is level 1 itself. The same additions as the loop above, in
    fewer NumPy calls, which is what a small sum costs."""
    size, width = rows.shape
    full = size // step * step
    if full == step:
        level1 = _add_reduce(rows if size == step else rows[:step], 0)
    elif full:
        blocks = (rows if size == full else rows[:full]).reshape(-1, step, width)
        level1 = _add_reduce(_add_reduce(blocks, 1), 0)
    if full == size:
        return level1
    level0 = _reduce_rows(rows[full:])
    if full:
        level0 += level1
    return level0


def _reduce_rows(rows):
    """``_running`` of a row-major 2-D array with more than one column and at least one row
    (one row is copied: quicker than NumPy's reduce, which would copy it too)."""
    return rows[0].copy() if len(rows) == 1 else _add_reduce(rows, 0)


def _reduce_blocks(rows, step):
    """``_block_sums`` of a row-major 2-D array with more than one column."""
    return _add_reduce(rows.reshape(-1, step, rows.shape[1]), 1)


def _row_sum(items):
    """ATen's ``row_sum`` down the rows of a 2-D array, read 4 rows at a time."""
    quads, width = len(items) // 4, items.shape[1]
    whole = quads * 4  # (slices and loops only when rows are left over: each is a NumPy call)
    partial = _multi_row_sum((items if whole == len(items) else items[:whole]).reshape(
        quads, 4 * width)).reshape(4, width)
    if whole < len(items):
        for row in items[whole:]:  # the rows past the last 4 go into the first partial sum
            partial[0] += row
    return _running(partial)  # then ((p0 + p1) + p2) + p3


def cascade_sum(data: np.ndarray) -> np.ndarray:
    """The sum of all of ``data`` (a float array) as torch adds it up, a 0-d array.

    Exact for the arrays torch reads as one run through memory (any dense layout: contiguous,
    transposed, permuted) and for a strided vector; others get NumPy's sum. Up to 32,768
    elements torch sums on one thread; beyond, it splits the work between its threads, and
    this is its one-thread sum."""
    if data.itemsize < 4:  # float16: torch adds it up in float32 and rounds once
        return quietly(cascade_sum(data.astype(np.float32)).astype, data.dtype)  # inf: a value
    if data.flags.c_contiguous and data.size:  # the usual case, first
        flat, vectors = data.reshape(-1), True
    elif data.ndim <= 1 and data.size:
        flat, vectors = data.reshape(-1), data.ndim == 1 and data.strides[0] == data.itemsize
    elif _layout.is_dense(data):
        flat, vectors = data.ravel(order="K"), True  # memory order, as torch's iterator reads
    else:
        return np.asarray(np.add.reduce(data, axis=None), dtype=data.dtype)
    if not vectors:  # a strided vector: torch reads it one number at a time
        return np.asarray(data.dtype.type(0) + _row_sum(flat.reshape(-1, 1))[0])
    if flat.size >= _REGISTER_BYTES // flat.itemsize:
        return np.asarray(_vector_sum(flat))
    return np.asarray(_inner_sums(flat[None])[0])  # one contiguous row, shorter than a vector


def _vector_sum(flat):
    """``_inner_sums`` of one contiguous row of at least one vector (a 1-D array), with the
    fewest NumPy calls (a mean of a loss is one every training step): the row's whole quads
    of vectors as ``multi_row_sum``'s rows, the last whole vectors into the first partial
    sum, the 4 partial sums added in turn, then the numbers past the last vector and the
    lanes, left to right, as one running sum (a NumPy scalar)."""
    lanes = _REGISTER_BYTES // flat.itemsize
    n = len(flat)
    quads, whole = n // (4 * lanes) * 4 * lanes, n - n % lanes
    partial = _multi_row_sum((flat if quads == n else flat[:quads]).reshape(-1, 4 * lanes))
    for start in range(quads, whole, lanes):
        partial[:lanes] += flat[start:start + lanes]
    last = _add_reduce(partial.reshape(4, lanes), 0)  # each lane's sum
    if whole < n:  # the numbers past the last vector come first
        last = np.concatenate((flat[whole:], last))
    return np.add.accumulate(last)[-1] + 0.0  # (+0.0 keeps the dtype: a sum of -0.0s is +0.0)


def cascade_sum_dims(data: np.ndarray, dims: tuple, keepdim: bool) -> np.ndarray:
    """``data`` (a float array) summed over ``dims``, added up as torch does.

    torch reads the reduced dims innermost. In a row-major array whose reduced dims come last,
    each result is the sum of one contiguous row, like ``cascade_sum``'s; where they come
    first (or in the middle), each result is a column's sum, read down the rows: groups of 32
    columns (4 vectors) as ``multi_row_sum`` (of 4 columns when there are fewer than 8), the
    other columns as ``row_sum``; where they come first and last, the rows' sums are added in
    turn. Other layouts get NumPy's sum. Exact up to 32,768 elements (then torch splits the
    work between its threads)."""
    pattern, sizes, out_shape = _reduction_plan(data.shape, tuple(dims), keepdim)
    zero = data.dtype.type(0)
    if pattern == "RK" and data.itemsize >= 4 and data.flags.c_contiguous and data.size:
        # checked first: a bias's gradient, a row-major matrix's columns summed (as in
        # ``_column_sums``, without its batch dim when the columns are all of one kind)
        rows = data.reshape(sizes)
        grouped = _grouped_columns(rows)
        if grouped == sizes[1]:
            sums = _multi_row_sum(rows)
        elif not grouped:
            sums = _row_sum(rows)
        else:
            sums = _column_sums(rows[None])[0]
    else:
        if data.dtype == np.float16:  # torch adds it up in float32 and rounds once
            return cascade_sum_dims(data.astype(np.float32), dims, keepdim).astype(np.float16)
        if data.itemsize < 4 or not data.flags.c_contiguous or not data.size or pattern not in (
                "", "R", "K", "KR", "KRK", "RKR"):
            out = np.asarray(np.add.reduce(data, axis=dims, keepdims=keepdim), dtype=data.dtype)
            return _layout.row_major(out)
        if pattern in ("", "R"):
            return cascade_sum(data).reshape(out_shape)
        if pattern == "K":  # nothing summed: each result is 0 + its one element
            return (data + zero).reshape(out_shape)
        blocks = data.reshape(sizes)
        if pattern == "KR":
            sums = _inner_sums(blocks)
        elif pattern == "KRK":
            sums = _column_sums(blocks)
        else:  # RKR: each row of the last run summed, then the rows of the first run in turn
            sums = _running(_inner_sums(blocks.reshape(-1, sizes[2])).reshape(sizes[0], -1))
    out = (zero + sums).reshape(out_shape)
    return _layout.row_major(out) if keepdim else out  # (torch's strides for dims of size 1)


@functools.lru_cache(maxsize=512)
def _reduction_plan(shape: tuple, dims: tuple, keepdim: bool):
    """How ``cascade_sum_dims`` reads a row-major array of ``shape``: the runs of reduced (R)
    or kept (K) dims as a pattern ("KR": a row per result...), the size of each run (dims of
    size 1 left out) and the result's shape. The same few shapes come back every step of a
    training loop, so this is worked out once for each."""
    out_shape = tuple(1 if i in dims else n for i, n in enumerate(shape)) if keepdim \
        else tuple(n for i, n in enumerate(shape) if i not in dims)
    runs = []  # [reduced?, size] of each run
    for i, n in enumerate(shape):
        if n != 1:
            if runs and runs[-1][0] == (i in dims):
                runs[-1][1] *= n
            else:
                runs.append([i in dims, n])
    return ("".join("R" if r else "K" for r, _ in runs), tuple(n for _, n in runs), out_shape)


def _inner_sums(rows):
    """Each row's sum, as ``vectorized_inner_sum`` adds a contiguous row: vectors of ``lanes``
    numbers through ``row_sum``, then the numbers past the last full vector, then the lanes,
    left to right (under ``lanes`` numbers, ``row_sum`` one number at a time)."""
    zero = rows.dtype.type(0)
    lanes = _REGISTER_BYTES // rows.itemsize
    count, n = rows.shape
    if n < lanes:  # one number at a time, every row side by side
        return zero + _row_sum(rows.T)
    whole = n // lanes * lanes
    # the k-th vector of every row side by side in row k: (vectors, rows x lanes)
    vectors = rows[:, :whole].reshape(count, -1, lanes).transpose(1, 0, 2).reshape(
        whole // lanes, count * lanes)
    per_lane = _row_sum(vectors).reshape(count, lanes)
    return zero + _running(np.concatenate((rows[:, whole:].T, per_lane.T)))


def _grouped_columns(blocks) -> int:
    """How many of the columns (the last dim) of ``blocks`` ``vectorized_outer_sum`` adds up
    in groups of 4 vectors (of 4 single columns when there are fewer than a vector's worth);
    ``row_sum`` adds the others."""
    lanes = _REGISTER_BYTES // blocks.itemsize
    columns = blocks.shape[-1]
    group = 4 * lanes if columns >= lanes else 4  # 4 vectors, or 4 single columns
    return columns // group * group


def _column_sums(blocks):
    """For ``blocks`` (batch, rows, columns), each column's sum down its rows, as
    ``vectorized_outer_sum`` (``scalar_outer_sum`` under 8 columns) adds them."""
    batch, rows, columns = blocks.shape
    grouped = _grouped_columns(blocks)
    down = blocks.transpose(1, 0, 2)  # the rows first: the running sums go down them
    if grouped == columns:
        return _multi_row_sum(down.reshape(rows, -1)).reshape(batch, columns)
    if not grouped:
        return _row_sum(down.reshape(rows, -1)).reshape(batch, columns)
    return np.concatenate(
        (_multi_row_sum(down[:, :, :grouped].reshape(rows, -1)).reshape(batch, grouped),
         _row_sum(down[:, :, grouped:].reshape(rows, -1)).reshape(batch, -1)), axis=-1)


def nll_sum(terms: np.ndarray, counted: np.ndarray) -> np.ndarray:
    """The sum of ``terms[counted]`` (a 1-D float array, and the positions of the terms that
    count, in order) as ATen's ``nll_loss_out_frame`` adds up nll_loss's terms, a 0-d array.

    One number at a time into level 0 of 8 levels; after the term at position ``b``, level 0
    moves up into level 1 when ``b`` is a multiple of 16, level 1 into level 2 when it is a
    multiple of 16**2, and so on (a skipped position, an ignored target, moves nothing). At
    the end the levels are added, level 0 first. Level 0's runs are added with NumPy, all at
    once; the moves up, a few per 16 terms, in a loop."""
    zero = terms.dtype.type(0)
    power = max(4, (len(terms) - 1).bit_length() // 8)  # ATen's max(4, CeilLog2(n) / 8)
    step = 1 << power
    values = terms[counted]
    moves = counted % step == 0  # after these terms, level 0 moves up
    # level 0's runs, each ended by a move (the last one, maybe empty, by the end), side by
    # side in the columns of a zero-padded block, then each column's running sum
    starts = np.concatenate(([0], np.nonzero(moves)[0] + 1))
    lengths = np.diff(np.append(starts, len(values)))
    run = np.repeat(np.arange(len(starts)), lengths)
    block = np.zeros((lengths.max(), len(starts)), terms.dtype)
    block[np.arange(len(values)) - starts[run], run] = values
    runs = _running(block)
    levels = [zero] * 8
    for total, b in zip(runs[:-1], counted[moves].tolist()):
        levels[1] = levels[1] + total
        for j in range(1, 7):
            if b & ((step - 1) << (j * power)):
                break
            levels[j + 1] = levels[j + 1] + levels[j]
            levels[j] = zero
    levels[0] = runs[-1]
    out = zero
    for level in levels:
        out = out + level
    return np.asarray(out)


# --- the orders of torch's other kernels: softmax's, the norms', layer norm's -----------------
# These kernels add a row up in vector registers: numbers side by side in lanes, added to by
# each next register, then the lanes added together (softmax's ``vec::reduce_all``, the
# 2-norm's fast path, layer norm's Welford steps). The register's width, how the lanes are
# added and whether a multiply-add is rounded once depend on which of its kernels torch runs
# on this CPU (its "CPU capability"): so, unlike ``cascade_sum``'s, these orders differ
# between CPUs, and minigrad asks the CPU what torch asks it.


@functools.lru_cache(maxsize=1)
def aten_capability() -> str | None:
    """The kernels torch runs on this CPU: "avx512", "avx2" or "default" (x86), as torch
    chooses them (``ATEN_CPU_CAPABILITY`` if set, else the CPU's features); None where this
    cannot be told (another processor, or no /proc/cpuinfo): then NumPy's order is used."""
    chosen = os.environ.get("ATEN_CPU_CAPABILITY")
    if chosen in ("avx512", "avx2", "default"):
        return chosen
    if platform.machine().lower() not in ("x86_64", "amd64"):
        return None
    try:
        with open("/proc/cpuinfo", encoding="ascii", errors="replace") as info:
            flags = next((set(line.split(":", 1)[1].split()) for line in info
                          if line.startswith("flags")), set())
    except OSError:
        return None
    if {"avx512vl", "avx512bw", "avx512dq", "fma"} <= flags:
        return "avx512"
    if {"avx2", "fma"} <= flags:
        return "avx2"
    return "default"


def torch_fuses() -> bool:
    """Does the build of torch's kernels that runs on this CPU round ``a * b + c`` once where
    its compiler fuses them (a fused multiply-add: the AVX2 and AVX512 kernels)? Not the plain
    build, and not a processor whose kernels are unknown here."""
    return aten_capability() in ("avx2", "avx512")


def vectorized_loop(*arrays) -> bool:
    """Would torch's ``cpu_kernel_vec`` run its vectorised loop over these operands (the
    broadcast arrays of one element-wise op)? Where the innermost dim in memory (the first
    operand's smallest stride) is contiguous or broadcast in every operand; a strided view
    takes the element-by-element loop, whose float16 arithmetic can round differently."""
    shape = np.broadcast_shapes(*(a.shape for a in arrays))
    views = [np.broadcast_to(a, shape) for a in arrays if a.size > 1]
    if not views or not shape:
        return True
    strides = [(abs(s), i) for i, s in enumerate(views[0].strides) if s and shape[i] > 1]
    if not strides:
        return True
    inner = min(strides)[1]
    return all(v.strides[inner] in (0, v.itemsize) for v in views)


def half_vector_tail(shape: tuple, *arrays) -> np.ndarray | None:
    """For an element-wise float16 op that ``vectorized_loop`` sends to the vectorised loop:
    a mask of the elements past the last full vector of each run, which torch's loop leaves
    to its element-by-element code (float16 arithmetic, each step rounded). A run is the
    whole tensor when every operand is one block in the same memory order (or one number),
    else a row of the last dim. The loop takes 32 float16 numbers a step (two vectors of 16),
    with AVX2 and AVX512 kernels alike (measured under both). None when there is no such
    element."""
    lanes = 32
    blocks = [a for a in arrays if a.size > 1]
    order = "C" if all(a.flags.c_contiguous and a.shape == shape for a in blocks) else \
        "F" if all(a.flags.f_contiguous and a.shape == shape for a in blocks) else None
    if order is None:  # runs along the last dim
        last = shape[-1] if shape else 1
        if last % lanes == 0:
            return None
        mask = np.zeros(shape, dtype=bool)
        mask[..., last // lanes * lanes:] = True
        return mask
    n = int(np.prod(shape))
    if n % lanes == 0:
        return None
    flat = np.zeros(n, dtype=bool)
    flat[n // lanes * lanes:] = True
    return flat.reshape(shape, order=order)


def vec_row_sums(rows: np.ndarray, register_bytes: int | None = None,
                 factors: tuple | None = None) -> np.ndarray:
    """Each row's sum (``rows`` is 2-D, float) as ``vec::reduce_all`` adds it on this CPU.

    A row shorter than a register: its numbers left to right. Otherwise the first register
    full, then each next full one added lane by lane, then the numbers left over added into
    the first lanes, then the lanes: for float32 with AVX2 or AVX512 by halves (lane i gets
    lane i + width/2, then i + width/4..., so 8 lanes end as ((l0+l4) + (l2+l6)) + ((l1+l5) +
    (l3+l7))), otherwise left to right.

    ``register_bytes``: the register's width, by default that of the kernels softmax runs on
    this CPU (64 bytes with AVX512); layer norm's kernels have no AVX512 version (32).
    ``factors``: ``(a, b)`` when ``rows`` is ``a * b`` and the kernel's compiler fuses the
    last, partial register's product into its sum (layer norm's backward, AVX2 build)."""
    capability = aten_capability()
    if capability is None:
        return np.add.reduce(rows, axis=1)
    if register_bytes is None:
        register_bytes = 64 if capability == "avx512" else _REGISTER_BYTES
    lanes = register_bytes // rows.itemsize
    count, n = rows.shape
    if n < lanes:
        return np.add.accumulate(rows, axis=1)[:, -1] if n else np.zeros(count, rows.dtype)
    full = n // lanes
    # the registers of a row one after another: the k-th of every row side by side in row k,
    # added up row after row (NumPy does that for the outer axis of a contiguous array)
    acc = np.add.reduce(np.ascontiguousarray(
        rows[:, :full * lanes].reshape(count, full, lanes).transpose(1, 0, 2)), axis=0)
    left = n - full * lanes
    if left and factors is not None and torch_fuses():
        a, b = (np.broadcast_to(f, rows.shape)[:, full * lanes:] for f in factors)
        acc[:, :left] = fma(a, b, acc[:, :left], rows.dtype)
    elif left:
        acc[:, :left] += rows[:, full * lanes:]
    if rows.dtype == np.float32 and capability != "default":
        half = lanes // 2
        while half:
            acc = acc + acc[:, np.arange(lanes) ^ half]
            half //= 2
        return acc[:, 0]
    return np.add.accumulate(acc, axis=1)[:, -1]


def norm_sum(data: np.ndarray, dims: tuple, keepdim: bool, p: int):
    """The sum inside torch's vector norm of order ``p`` (1: of ``|x|``; 2: of ``x * x``) over
    ``dims`` of a float array, added up as ATen's norm kernel does; None where that is not
    written out here (a strided array, nothing to add up, a processor whose kernels are
    unknown): the caller then sums with NumPy.

    Over the last dims of a row-major array, the 2-norm takes a vectorised fast path
    (``_norm_two_rows``); everything else adds one element at a time, in memory order."""
    pattern, sizes, out_shape = _reduction_plan(data.shape, tuple(dims), keepdim)
    if (aten_capability() is None or not data.size or not data.flags.c_contiguous
            or "R" not in pattern):
        return None
    if pattern in ("R", "KR") and p == 2:  # each result's numbers are one contiguous row
        return _norm_two_rows(data.reshape(-1, sizes[-1])).reshape(out_shape)
    # one number at a time, in memory order: each result's numbers in a row of their own
    terms = data * data if p == 2 else np.abs(data)
    kept = [d for d in range(data.ndim) if d not in dims]
    rows = terms.transpose(kept + sorted(dims)).reshape(-1, data.size // int(np.prod(
        [data.shape[d] for d in kept])))
    return np.add.accumulate(rows, axis=1)[:, -1].reshape(out_shape)


def _norm_two_rows(rows):
    """Each row's sum of squares as ATen's 2-norm fast path adds it: a register of 32 bytes
    (on every x86 kernel) adds the squares of each next register's worth, lane by lane; the
    lanes are then added left to right, and the numbers past the last full register one at
    a time. In the plain build each square and each sum is rounded; in torch's AVX2 build
    (measured against torch 2.13) its compiler squares the first four numbers left over
    together, rounded, and fuses the square and sum of the others (one rounding: FMA)."""
    lanes = _REGISTER_BYTES // rows.itemsize
    count, n = rows.shape
    whole = n // lanes * lanes
    body = rows[:, :whole].reshape(count, -1, lanes).transpose(1, 0, 2)  # register k: row k
    acc = np.add.reduce(np.ascontiguousarray(body * body), axis=0) if whole else \
        np.zeros((count, lanes), rows.dtype)
    total = np.add.accumulate(acc, axis=1)[:, -1]
    left = rows[:, whole:].T
    rounded = (4 if len(left) >= 4 else 0) if torch_fuses() else len(left)
    for d in left[:rounded]:
        total = total + d * d
    for d in left[rounded:]:
        total = fma(d, d, total, rows.dtype)
    return total


def row_moments(rows: np.ndarray):
    """Each row's mean and (biased) variance as ATen's ``RowwiseMoments`` computes them (layer
    norm's statistics), or None where its kernels are unknown (see ``aten_capability``).

    Welford's running mean and squared deviations, lane by lane in 32-byte registers, in
    chunks of 16 registers (all chunks side by side here: they are independent); the chunks
    merged pairwise in a binary tree (ATen's cascade: a pair at each level, a group left over
    at a level waits, and the waiting groups are merged into the lowest one at the end); then
    the numbers past the last full register one at a time, and the lanes merged into those.
    AVX2 and AVX512 kernels round ``a * b + c`` once (FMA) where the plain build rounds twice
    (except for the numbers left over: measured against torch 2.13, on every build)."""
    if aten_capability() is None:
        return None
    with quiet():
        return _row_moments(rows, torch_fuses())


def _row_moments(rows, fused: bool):
    dt = rows.dtype.type

    def mul_add(a, b, c):
        return _fma32(a, b, c) if fused and dt is np.float32 else fma64(a, b, c) if fused \
            else a * b + c

    count, size = rows.shape
    lanes = _REGISTER_BYTES // rows.itemsize
    n = size // lanes  # full registers per row
    chunks = -(-n // 16)
    depth = 1 if chunks <= 2 else (chunks - 1).bit_length()  # ATen's CeilLog2
    if chunks:
        # UpdateMomentsVec on every chunk at once: (rows, chunks, 16 registers, lanes); the
        # last chunk may be short, and stops updating after its last register
        padded = np.zeros((count, chunks * 16, lanes), rows.dtype)
        padded[:, :n] = rows[:, :n * lanes].reshape(count, n, lanes)
        block = padded.reshape(count, chunks, 16, lanes)
        sizes = np.minimum(16, n - 16 * np.arange(chunks))  # registers in each chunk
        m1 = m2 = np.zeros((count, chunks, lanes), rows.dtype)
        for j in range(min(16, n)):
            x = block[:, :, j]
            delta = x - m1
            new_m1 = mul_add(dt(1) / dt(j + 1), delta, m1)
            new_m2 = mul_add(delta, x - new_m1, m2)
            if j < sizes[-1]:
                m1, m2 = new_m1, new_m2
            else:  # past the short last chunk's end
                m1, m2 = (np.concatenate((new[:, :-1], old[:, -1:]), axis=1)
                          for new, old in ((new_m1, m1), (new_m2, m2)))
        groups = [sizes, m1, m2]
        waiting = []  # per level: the group left over there, or None
        for _ in range(depth - 1):  # the carries, level by level, all pairs at once
            pairs = len(groups[0]) // 2
            waiting.append(None if len(groups[0]) % 2 == 0 else
                           [groups[0][-1:], groups[1][:, -1:], groups[2][:, -1:]])
            groups = _merge([g[:2 * pairs:2] if i == 0 else g[:, :2 * pairs:2]
                             for i, g in enumerate(groups)],
                            [g[1:2 * pairs:2] if i == 0 else g[:, 1:2 * pairs:2]
                             for i, g in enumerate(groups)], mul_add, dt)
        if len(groups[0]) == 2:  # the top level keeps both of its groups, merged
            groups = _merge([g[:1] if i == 0 else g[:, :1] for i, g in enumerate(groups)],
                            [g[1:] if i == 0 else g[:, 1:] for i, g in enumerate(groups)],
                            mul_add, dt)
        waiting.append(groups)
        total = None
        for group in waiting:  # the waiting groups, lowest level first, into the lowest
            if group is not None:
                total = group if total is None else _merge(total, group, mul_add, dt)
        lane_m1, lane_m2 = total[1][:, 0], total[2][:, 0]
    m0, m1, m2 = 0, np.zeros(count, rows.dtype), np.zeros(count, rows.dtype)
    for x in rows[:, n * lanes:].T:  # the numbers left over, one at a time
        delta = x - m1
        m0 += 1
        m1 = m1 + delta / dt(m0)
        m2 = m2 + delta * (x - m1)  # not fused, in any build (measured)
    for lane in range(lanes if n else 0):  # AddMoments, lane by lane
        c = dt(n) / dt(m0 + n)
        delta = lane_m1[:, lane] - m1
        m1 = mul_add(c, delta, m1)
        m2 = m2 + mul_add(delta * delta * c, dt(m0), lane_m2[:, lane])
        m0 += n
    return m1, m2 / dt(size)


def _merge(into, add, mul_add, dt):
    """ATen's ``AddMomentsVec``: the statistics ``add`` (count, mean, squares) merged into
    ``into``; counts are (groups,) arrays, means and squares (rows, groups, lanes)."""
    n0, m1, m2 = into
    n_add, m1_add, m2_add = add
    total = n0 + n_add
    c = (n_add.astype(dt) / total.astype(dt))[None, :, None]  # never 0 / 0: groups are full
    delta = m1_add - m1
    c_delta = c * delta
    return [total, m1 + c_delta, mul_add(delta * n0.astype(dt)[None, :, None], c_delta,
                                         m2 + m2_add)]
