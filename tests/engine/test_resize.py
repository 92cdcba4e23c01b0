"""``Tensor.resize_`` and ``resize_as_`` against torch: sequences of resizes from tensors of
every kind (fresh, transposed, sliced, expanded, empty), the memory they share afterwards, and
where minigrad must refuse what torch does (growing memory that other arrays hold).

Grown elements are uninitialised in both engines, so values are compared only where the
original storage reaches: the kept prefix.
"""

from __future__ import annotations

import numpy as np
import pytest
import torch

import minigrad

STARTS = {
    "fresh": lambda lib: lib.arange(6.),
    "matrix view": lambda lib: lib.arange(6.).reshape(2, 3),
    "transposed": lambda lib: lib.arange(6.).reshape(2, 3).t(),
    "slice": lambda lib: lib.arange(10.)[2:5],
    "strided": lambda lib: lib.arange(10.)[::2],
    "expanded": lambda lib: lib.arange(3.).unsqueeze(0).expand(2, 3),
    "int64": lambda lib: lib.arange(6),
    "empty": lambda lib: lib.zeros(0),
    "scalar": lambda lib: lib.tensor(3.),
}
SEQUENCES = [[(3, 2)], [(6,), (6,)], [(2, 4)], [(1,), (0,), (2, 2)], [(2, 3), (5, 5), (3,)],
             [()], [(0,), (7,), ()]]


def _facts(t, storage_elems):
    """What a resize decides, and the values it keeps: those of the original storage."""
    offset, numel = t.storage_offset(), t.numel()
    kept = max(0, min(numel, storage_elems - offset)) if t.is_contiguous() else numel
    return (tuple(t.shape), t.stride(), offset, t._version, t.is_contiguous(),
            t.untyped_storage().nbytes(), t.dtype.itemsize, t.flatten()[:kept].tolist())


def _run(lib, start, sequence):
    t = STARTS[start](lib)
    storage_elems = t.untyped_storage().nbytes() // t.element_size()
    seen = [_facts(t, storage_elems)]
    for shape in sequence:
        assert t.resize_(shape) is t
        seen.append(_facts(t, storage_elems))
    return seen


@pytest.mark.parametrize("sequence", SEQUENCES, ids=str)
@pytest.mark.parametrize("start", STARTS)
def test_resize_sequences_match_torch(start, sequence):
    assert _run(minigrad, start, sequence) == _run(torch, start, sequence)


@pytest.mark.parametrize("start", ["fresh", "matrix view", "transposed", "int64"])
def test_resize_as_matches_torch(start):
    def run(lib):
        t = STARTS[start](lib)
        template = lib.zeros(4, 2, dtype=lib.float64)
        assert lib.resize_as_(t, template) is t
        return _facts(t, 6)
    assert run(minigrad) == run(torch)


def _shared_after_growth(lib):
    """A view whose base nothing else holds grows: the base moves with it (one storage)."""
    x = lib.arange(6.).reshape(2, 3)
    x.resize_(4, 4)
    x[0, 1] = 50.
    base = x._base
    return (base.tolist(), tuple(base.shape), base._version, x._version,
            base.untyped_storage().nbytes(), base.data_ptr() == x.data_ptr())


def test_growing_a_view_moves_its_private_base_onto_the_new_memory():
    assert _shared_after_growth(minigrad) == _shared_after_growth(torch)


def _shared_after_shrink(lib):
    b = lib.arange(10.)
    v = b[2:8]
    w = b[::2]
    v.resize_(2, 2)
    b.resize_(6)
    v[0, 0] = -1.
    w[1] = -2.
    return b.tolist(), v.tolist(), w.tolist(), b._version, v._version, w._version


def test_shrinking_keeps_memory_shared_with_base_and_views():
    assert _shared_after_shrink(minigrad) == _shared_after_shrink(torch)


SHARED = {
    "view of a held base": lambda lib: (lambda b: (b, b[2:5]))(lib.arange(10.)),
    "base with a view": lambda lib: (lambda b: (b[1:3], b))(lib.arange(6.)),
    "detached": lambda lib: (lambda a: (a, a.detach()))(lib.ones(3)),
    "two views of one base": lambda lib: (lambda b: (b[:2], b[1:]))(lib.arange(4.)),
    "numpy array": lambda lib: (lambda a: (a.numpy(), a))(lib.ones(3)),
}


@pytest.mark.parametrize("case", SHARED)
def test_growing_memory_others_hold_is_refused_not_unshared(case):
    """torch grows the storage every sharer sees; NumPy cannot, so minigrad raises its own
    error and changes nothing (the tensor keeps its shape, version and sharing)."""
    other, t = SHARED[case](minigrad)
    shape, version = tuple(t.shape), t._version
    with pytest.raises(RuntimeError, match="minigrad cannot resize_ this tensor beyond its "
                                           "memory"):
        t.resize_(20)
    assert (tuple(t.shape), t._version) == (shape, version)
    t.fill_(7.)  # still one memory
    assert 7. in np.asarray(other).reshape(-1).tolist()
    torch_other, torch_t = SHARED[case](torch)
    if case == "numpy array":  # torch refuses too: .numpy() left its storage not resizable
        with pytest.raises(RuntimeError, match="Trying to resize storage that is not resizable"):
            torch_t.resize_(20)
    else:
        torch_t.resize_(20)  # torch grows it
        assert torch_t.shape == (20,)


def test_growing_from_numpy_memory_is_refused():
    """torch cannot resize memory a NumPy array lent it (from_numpy, as_tensor, asarray),
    even once nothing else holds the array; torch.tensor copies, and the copy grows."""
    array = np.arange(6.)
    for lib in (torch, minigrad):
        for make in (lib.from_numpy, lib.as_tensor, lib.asarray):
            with pytest.raises(RuntimeError, match="^Trying to resize storage that is not "
                                                   "resizable$"):
                make(np.arange(6.)).resize_(10)  # (no other reference to the array)
            with pytest.raises(RuntimeError, match="^Trying to resize storage that is not "
                                                   "resizable$"):
                make(array)[2:].resize_(5)
        assert lib.tensor(np.arange(6.)).resize_(10).shape == (10,)
    t = minigrad.from_numpy(array)
    t.resize_(2)  # shrinking keeps the array's memory, as torch
    t[0] = 9.
    assert array[0] == 9.
