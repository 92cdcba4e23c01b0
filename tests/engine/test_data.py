"""minigrad.utils.data against torch.utils.data.

Without shuffling the batches must be torch's exactly. Shuffled order comes from minigrad's own
generator, so it cannot equal torch's; there we check the meaning instead: every epoch is a
permutation, a seeded generator repeats it, and batch sizes are torch's."""

from __future__ import annotations

import numpy as np
import pytest
import torch
from hypothesis import given, settings
from hypothesis import strategies as st

import minigrad
from tests.torch_compare import assert_same_error, to_numpy

LIBS = (minigrad, torch)


def _datasets(n, seed=0):
    rng = np.random.default_rng(seed)
    xs = rng.standard_normal((n, 3)).astype(np.float32)
    ys = rng.integers(0, 5, n)
    return {lib.__name__: lib.utils.data.TensorDataset(lib.tensor(xs), lib.tensor(ys))
            for lib in LIBS}


def _describe(batch):
    """A batch as comparable plain data: container types, dtypes, shapes and values."""
    if isinstance(batch, minigrad.Tensor | torch.Tensor):
        return ("tensor", str(batch.dtype).split(".")[-1], tuple(batch.shape),
                to_numpy(batch).tolist())
    if isinstance(batch, dict):
        return ("dict", {k: _describe(v) for k, v in batch.items()})
    if isinstance(batch, list | tuple):
        return (type(batch).__name__, [_describe(b) for b in batch])
    return (type(batch).__name__, batch)


def test_tensor_dataset_items_match_torch():
    ds = _datasets(6)
    assert len(ds["minigrad"]) == len(ds["torch"]) == 6
    for i in (0, 3, -1):
        assert _describe(ds["minigrad"][i]) == _describe(ds["torch"][i])


def test_tensor_dataset_size_mismatch_error_matches_torch():
    assert_same_error(
        lambda: minigrad.utils.data.TensorDataset(minigrad.zeros(3), minigrad.zeros(4)),
        lambda: torch.utils.data.TensorDataset(torch.zeros(3), torch.zeros(4)))


@settings(deadline=None, max_examples=30)
@given(n=st.integers(1, 23), batch_size=st.integers(1, 8), drop_last=st.booleans())
def test_unshuffled_batches_equal_torchs(n, batch_size, drop_last):
    ds = _datasets(n)
    loaders = {name: lib.utils.data.DataLoader(ds[name], batch_size=batch_size,
                                               drop_last=drop_last)
               for name, lib in (("minigrad", minigrad), ("torch", torch))}
    m_batches = [_describe(b) for b in loaders["minigrad"]]
    t_batches = [_describe(b) for b in loaders["torch"]]
    assert m_batches == t_batches
    assert len(loaders["minigrad"]) == len(loaders["torch"]) == len(t_batches)


def _shuffled_epochs(n, batch_size, drop_last, seed, epochs=3):
    ds = _datasets(n)["minigrad"]
    index_of = {tuple(x.tolist()): i for i, x in enumerate(ds.tensors[0]._data)}
    loader = minigrad.utils.data.DataLoader(
        ds, batch_size=batch_size, shuffle=True, drop_last=drop_last,
        generator=minigrad.Generator().manual_seed(seed))
    result = []
    for _ in range(epochs):
        epoch = []
        for xb, yb in loader:
            assert len(xb) == len(yb)
            epoch.append([index_of[tuple(row)] for row in xb._data.tolist()])
        result.append(epoch)
    return result, len(loader)


@settings(deadline=None, max_examples=30)
@given(n=st.integers(1, 30), batch_size=st.integers(1, 8), drop_last=st.booleans(),
       seed=st.integers(0, 2**31))
def test_shuffled_epochs_are_permutations_with_torchs_batch_sizes(n, batch_size, drop_last,
                                                                  seed):
    epochs, length = _shuffled_epochs(n, batch_size, drop_last, seed)
    t_loader = torch.utils.data.DataLoader(_datasets(n)["torch"], batch_size=batch_size,
                                           shuffle=True, drop_last=drop_last,
                                           generator=torch.Generator().manual_seed(seed))
    t_sizes = [len(xb) for xb, _ in t_loader]
    assert length == len(t_loader)
    for epoch in epochs:
        assert [len(b) for b in epoch] == t_sizes
        flat = [i for b in epoch for i in b]
        assert len(set(flat)) == len(flat)
        if not drop_last:
            assert sorted(flat) == list(range(n))
    # the same seed gives the same epochs again
    assert _shuffled_epochs(n, batch_size, drop_last, seed)[0] == epochs


def test_shuffle_changes_order_between_epochs_and_seeds():
    epochs, _ = _shuffled_epochs(40, 40, False, seed=1)
    other, _ = _shuffled_epochs(40, 40, False, seed=2)
    assert epochs[0] != epochs[1] != epochs[2]
    assert epochs != other
    assert epochs[0][0] != list(range(40))


def test_shuffle_without_generator_follows_manual_seed():
    ds = _datasets(20)["minigrad"]

    def order():
        loader = minigrad.utils.data.DataLoader(ds, batch_size=20, shuffle=True)
        return next(iter(loader))[1].tolist()

    minigrad.manual_seed(7)
    first = order()
    minigrad.manual_seed(7)
    assert order() == first
    assert sorted(first) == sorted(ds.tensors[1].tolist())


@pytest.mark.parametrize("samples", [
    [1.5, 2.5, -1.0],
    [1, 2, 3],
    [True, False],
    [(1.0, 2), (3.0, 4)],
    [[1, 2.5], [3, 4.5]],
    [{"a": 1, "b": (0.5, 1)}, {"a": 2, "b": (1.5, 2)}],
    [np.array([1.0, 2.0]), np.array([3.0, 4.0])],
    [np.arange(3, dtype=np.int32), np.arange(3, dtype=np.int32)],
    [("x", 1), ("y", 2)],
    # NumPy's scalars keep their dtype (np.int32 once became int64)
    [np.int32(3), np.int32(4)], [np.float32(1.5), np.float32(2.0)], [np.bool_(True)],
    [np.uint8(7), np.uint8(9)], [(np.float64(1.5), "a"), (np.float64(2.5), "b")],
])
def test_default_collate_matches_torch(samples):
    assert _describe(minigrad.utils.data.default_collate(samples)) == \
        _describe(torch.utils.data.default_collate(samples))


@pytest.mark.parametrize("sample", [
    (np.arange(3), 1.5), {"a": np.float32(2.0), "b": [1, 2]}, np.eye(2), "text",
    np.bool_(True), np.int16(5),
])
def test_default_convert_matches_torch(sample):
    assert _describe(minigrad.utils.data.default_convert(sample)) == \
        _describe(torch.utils.data.default_convert(sample))


def test_default_collate_of_tensors_matches_torch():
    arrays = [np.full((2,), i, dtype=np.float64) for i in range(3)]
    m = minigrad.utils.data.default_collate([(minigrad.tensor(a), i) for i, a in
                                             enumerate(arrays)])
    t = torch.utils.data.default_collate([(torch.tensor(a), i) for i, a in enumerate(arrays)])
    assert _describe(m) == _describe(t)


def test_custom_collate_fn_and_batch_size_none_like_torch():
    ds = _datasets(5)
    for lib in LIBS:
        loader = lib.utils.data.DataLoader(ds[lib.__name__], batch_size=2,
                                           collate_fn=lambda batch: len(batch))
        assert list(loader) == [2, 2, 1]
    m = list(minigrad.utils.data.DataLoader(ds["minigrad"], batch_size=None))
    t = list(torch.utils.data.DataLoader(ds["torch"], batch_size=None))
    assert [_describe(b) for b in m] == [_describe(b) for b in t]


def test_sampler_with_shuffle_error_matches_torch():
    ds = _datasets(3)
    assert_same_error(
        lambda: minigrad.utils.data.DataLoader(ds["minigrad"], shuffle=True, sampler=[0, 1]),
        lambda: torch.utils.data.DataLoader(ds["torch"], shuffle=True, sampler=[0, 1]))


# --- the samplers torch has and their checks ---------------------------------------------------
SAMPLERS = {
    "subset random": lambda lib: lib.utils.data.SubsetRandomSampler([4, 7, 9, 11, 2]),
    "subset random, a generator": lambda lib: lib.utils.data.SubsetRandomSampler(
        range(10, 17), generator=lib.Generator().manual_seed(3)),
    "weighted, replacement": lambda lib: lib.utils.data.WeightedRandomSampler(
        [0.1, 0.9, 0.4, 0.7, 3.0, 0.6], 12),
    "weighted, no replacement": lambda lib: lib.utils.data.WeightedRandomSampler(
        lib.tensor([0.9, 0.4, 0.05, 0.2, 0.3, 0.1]), 5, replacement=False),
    "random, replacement": lambda lib: lib.utils.data.RandomSampler(
        range(7), replacement=True, num_samples=75),
    "random, more samples than data": lambda lib: lib.utils.data.RandomSampler(
        range(4), num_samples=10),
    "random, fewer samples": lambda lib: lib.utils.data.RandomSampler(range(9), num_samples=4),
}


@pytest.mark.parametrize("name", SAMPLERS)
def test_samplers_draw_torchs_indices(name):
    """Their indices for the same seed, their length, and the default generator's state
    after (the next number drawn)."""
    def draw(lib):
        lib.manual_seed(0)
        sampler = SAMPLERS[name](lib)
        epochs = [[int(i) for i in sampler] for _ in range(2)]
        return epochs, len(sampler), lib.rand(1).item()
    assert draw(minigrad) == draw(torch)


def test_sampler_subclass_drives_the_loader_like_torchs():
    def batches(lib):
        class Evens(lib.utils.data.Sampler):
            def __iter__(self):
                return iter(range(0, 9, 2))

            def __len__(self):
                return 5
        loader = lib.utils.data.DataLoader(lib.arange(10, 20), batch_size=2, sampler=Evens())
        return [b.tolist() for b in loader], len(loader)
    assert batches(minigrad) == batches(torch)


SAMPLER_BAD = {
    "batch_size=0": lambda lib: lib.utils.data.DataLoader(range(5), batch_size=0),
    "float batch_size": lambda lib: lib.utils.data.DataLoader(range(5), batch_size=2.0),
    "int drop_last": lambda lib: lib.utils.data.DataLoader(range(5), drop_last=1),
    "num_workers < 0": lambda lib: lib.utils.data.DataLoader(range(5), num_workers=-1),
    "timeout < 0": lambda lib: lib.utils.data.DataLoader(range(5), timeout=-1),
    "batch_size=None with drop_last": lambda lib: lib.utils.data.DataLoader(
        range(5), batch_size=None, drop_last=True),
    "batch_sampler with shuffle": lambda lib: lib.utils.data.DataLoader(
        range(5), batch_sampler=[[0, 1]], shuffle=True),
    "weighted: no samples": lambda lib: lib.utils.data.WeightedRandomSampler([1.0, 2.0], 0),
    "weighted: 2-d weights": lambda lib: lib.utils.data.WeightedRandomSampler([[1.0]], 2),
    "weighted: int replacement": lambda lib: lib.utils.data.WeightedRandomSampler(
        [1.0, 2.0], 2, replacement=1),
    "random: int replacement": lambda lib: lib.utils.data.RandomSampler(range(3), 1),
    "random: empty data": lambda lib: lib.utils.data.RandomSampler([]),
}


@pytest.mark.parametrize("name", SAMPLER_BAD)
def test_sampler_and_loader_checks_match_torch(name):
    assert_same_error(lambda: SAMPLER_BAD[name](minigrad), lambda: SAMPLER_BAD[name](torch))


def test_batch_sampler_given_to_the_loader_like_torchs():
    def batches(lib):
        data = lib.utils.data
        sampler = data.BatchSampler(data.SequentialSampler(range(5)), 2, False)
        loader = data.DataLoader(range(10, 15), batch_sampler=sampler)
        return ([b.tolist() for b in loader], len(loader), loader.batch_size, loader.drop_last,
                data.get_worker_info())
    assert batches(minigrad) == batches(torch)
