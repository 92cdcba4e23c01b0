"""The C++ standard library's unstable sorting algorithms, step for step (GCC's libstdc++).

torch's CPU ``sort`` (with ``stable=False``, the default) calls ``std::sort`` and ``topk``
calls ``std::nth_element`` (then ``std::sort`` on the first k - 1) or, when k is small next to
the row (``k * 64 <= n``), ``std::partial_sort``. Where values tie, which index comes first
is whatever these algorithms leave, so minigrad runs the same algorithms on the same
(value, index) pairs: introselect and introsort (median-of-three pivot, unguarded partition,
insertion sort below 16 elements) and the binary-heap partial sort.

Every function works in place on the list ``a`` between ``first`` and ``last`` and orders by
``comp(x, y)``, "x goes before y". Rows without ties do not need this (every algorithm gives
the same answer there); ``sorting.py`` only calls it for rows that tie.
"""

from __future__ import annotations


def _lg(n: int) -> int:
    return n.bit_length() - 1


def _insertion_sort(a, first, last, comp):
    if first == last:
        return
    for i in range(first + 1, last):
        val = a[i]
        if comp(val, a[first]):
            a[first + 1:i + 1] = a[first:i]
            a[first] = val
        else:
            _unguarded_linear_insert(a, i, comp)


def _unguarded_linear_insert(a, i, comp):
    val, j = a[i], i
    while comp(val, a[j - 1]):
        a[j] = a[j - 1]
        j -= 1
    a[j] = val


def _final_insertion_sort(a, first, last, comp):
    if last - first > 16:
        _insertion_sort(a, first, first + 16, comp)
        for i in range(first + 16, last):
            _unguarded_linear_insert(a, i, comp)
    else:
        _insertion_sort(a, first, last, comp)


def _move_median_to_first(a, result, x, y, z, comp):
    if comp(a[x], a[y]):
        m = y if comp(a[y], a[z]) else z if comp(a[x], a[z]) else x
    else:
        m = x if comp(a[x], a[z]) else z if comp(a[y], a[z]) else y
    a[result], a[m] = a[m], a[result]


def _partition_pivot(a, first, last, comp):
    """The median of first, middle and last - 1 moves to ``first``; then Hoare's partition,
    unguarded (the pivot stops both scans)."""
    _move_median_to_first(a, first, first + 1, first + (last - first) // 2, last - 1, comp)
    lo, hi, pivot = first + 1, last, a[first]
    while True:
        while comp(a[lo], pivot):
            lo += 1
        hi -= 1
        while comp(pivot, a[hi]):
            hi -= 1
        if not lo < hi:
            return lo
        a[lo], a[hi] = a[hi], a[lo]
        lo += 1


# --- binary heaps, offsets from ``first`` (libstdc++'s __adjust_heap and friends) ---------------
def _push_heap(a, first, hole, top, value, comp):
    parent = (hole - 1) // 2
    while hole > top and comp(a[first + parent], value):
        a[first + hole] = a[first + parent]
        hole = parent
        parent = (hole - 1) // 2
    a[first + hole] = value


def _adjust_heap(a, first, hole, length, value, comp):
    top, child = hole, hole
    while child < (length - 1) // 2:
        child = 2 * (child + 1)
        if comp(a[first + child], a[first + child - 1]):
            child -= 1
        a[first + hole] = a[first + child]
        hole = child
    if length % 2 == 0 and child == (length - 2) // 2:
        child = 2 * (child + 1)
        a[first + hole] = a[first + child - 1]
        hole = child - 1
    _push_heap(a, first, hole, top, value, comp)


def _make_heap(a, first, last, comp):
    length = last - first
    if length < 2:
        return
    for parent in range((length - 2) // 2, -1, -1):
        _adjust_heap(a, first, parent, length, a[first + parent], comp)


def _pop_heap(a, first, last, result, comp):
    value = a[result]
    a[result] = a[first]
    _adjust_heap(a, first, 0, last - first, value, comp)


def _heap_select(a, first, middle, last, comp):
    _make_heap(a, first, middle, comp)
    for i in range(middle, last):
        if comp(a[i], a[first]):
            _pop_heap(a, first, middle, i, comp)


def partial_sort(a, first, middle, last, comp):
    """``std::partial_sort``: the smallest ``middle - first`` (by ``comp``) in order."""
    _heap_select(a, first, middle, last, comp)
    while middle - first > 1:
        middle -= 1
        _pop_heap(a, first, middle, middle, comp)


def sort(a, first, last, comp):
    """``std::sort``: introsort, then one insertion-sort pass."""
    if first == last:
        return
    _introsort_loop(a, first, last, 2 * _lg(last - first), comp)
    _final_insertion_sort(a, first, last, comp)


def _introsort_loop(a, first, last, depth, comp):
    while last - first > 16:
        if depth == 0:
            partial_sort(a, first, last, last, comp)
            return
        depth -= 1
        cut = _partition_pivot(a, first, last, comp)
        _introsort_loop(a, cut, last, depth, comp)
        last = cut


def nth_element(a, nth, comp):
    """``std::nth_element`` on the whole list: introselect, insertion sort at the end."""
    first, last = 0, len(a)
    if first == last or nth == last:
        return
    depth = 2 * _lg(last - first)
    while last - first > 3:
        if depth == 0:
            _heap_select(a, first, nth + 1, last, comp)
            a[first], a[nth] = a[nth], a[first]
            return
        depth -= 1
        cut = _partition_pivot(a, first, last, comp)
        if cut <= nth:
            first = cut
        else:
            last = cut
    _insertion_sort(a, first, last, comp)
