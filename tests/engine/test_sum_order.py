"""A float sum adds up in torch's order, so its digits are torch's on every CPU.

torch's CPU sum (``cascade_sum``) runs the AVX2 kernel even on AVX512 machines and is just as
wide in its plain build, so its order of additions is the same everywhere (test_cpu_capabilities
re-runs this module with the kernels forced down). minigrad writes that order out
(``minigrad._numeric.cascade_sum``): sums, means and the mean/sum of the fused losses are
bit-identical to torch's. Up to 32,768 elements torch sums on one thread; past that it splits
the sum between its threads, so the long sums are compared with torch on one thread.
"""

from __future__ import annotations

import contextlib
import itertools

import numpy as np
import pytest
import torch
from hypothesis import given, settings
from hypothesis import strategies as st

import minigrad
from minigrad._numeric import cascade_sum
from minigrad._ops.nn_ops import log_softmax_backward_data, softmax_backward_data

SIZES = [0, 1, 2, 3, 4, 5, 7, 8, 9, 15, 16, 17, 31, 32, 33, 63, 64, 65, 127, 128, 129, 511,
         512, 513, 640, 1000, 2000, 4095, 4096, 4097, 10000, 32768]
LONG = [32769, 100_000, 1 << 20]  # past torch's grain size: level 3 of the cascade


def _values(n, dtype, seed):
    """Numbers of very different sizes and both signs: every order of addition shows."""
    rng = np.random.default_rng(seed)
    return (rng.standard_normal(n) * 10.0 ** rng.uniform(-4, 4, n)).astype(dtype)


def _same(got: np.ndarray, want: torch.Tensor) -> bool:
    want = want.numpy()
    return got.dtype == want.dtype and got.shape == want.shape and \
        got.tobytes() == want.tobytes()


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("n", SIZES)
def test_full_sum_is_torchs_bit_for_bit(n, dtype):
    for seed in range(3):
        x = _values(n, dtype, seed)
        assert _same(cascade_sum(x), torch.from_numpy(x).sum()), (n, seed)


@contextlib.contextmanager
def _one_thread():
    """torch on one thread: past 32,768 elements it splits a sum between its threads (in
    another order); minigrad gives its one-thread sum."""
    threads = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        yield
    finally:
        torch.set_num_threads(threads)


@pytest.mark.parametrize("n", LONG)
def test_long_sums_are_torchs_one_thread_sum(n):
    with _one_thread():
        for dtype in (np.float32, np.float64):
            x = _values(n, dtype, n)
            assert _same(cascade_sum(x), torch.from_numpy(x).sum()), (n, dtype)


def _layouts(x):
    """The same numbers laid out as torch reads them: contiguous, transposed, strided."""
    yield "flat", x
    n = x.size // 12 * 12
    yield "matrix", x[:n].reshape(-1, 12)
    yield "transposed", x[:n].reshape(-1, 12).T
    yield "3-d permuted", x[:n].reshape(-1, 3, 4).transpose(2, 0, 1)
    yield "every other", x[::2]


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_every_layout_sums_as_torch_reads_it(dtype):
    for n in (5, 96, 700, 5000):
        for name, view in _layouts(_values(n, dtype, n)):
            assert _same(cascade_sum(view), torch.from_numpy(view).sum()), (n, name)


@settings(max_examples=150, deadline=None)
@given(n=st.integers(0, 3000), seed=st.integers(0, 2**32 - 1),
       dtype=st.sampled_from([np.float32, np.float64]),
       special=st.sampled_from([None, 0.0, -0.0, np.inf, -np.inf, np.nan]))
def test_generated_sums_match_torch(n, seed, dtype, special):
    x = _values(n, dtype, seed)
    if special is not None and n:
        x[np.random.default_rng(seed).integers(0, n, 1 + n // 50)] = special
    assert _same(cascade_sum(x), torch.from_numpy(x).sum())


@settings(max_examples=200, deadline=None)
@given(n=st.integers(1, 40_000), seed=st.integers(0, 2**32 - 1),
       dtype=st.sampled_from([np.float32, np.float64]), matrix=st.booleans(),
       special=st.sampled_from([None, -0.0, np.inf, np.nan]))
def test_contiguous_sums_of_any_length_match_torch(n, seed, dtype, matrix, special):
    """The hot path (a loss's mean, a row-major tensor's sum: ``_vector_sum``) for every
    length up to 40,000 (level 2 of the cascade, whole and partial quads of vectors, a tail
    past the last vector), compared with torch's one-thread sum."""
    x = _values(n, dtype, seed)
    if special is not None:
        x[np.random.default_rng(seed).integers(0, n, 1 + n // 50)] = special
    if matrix and n % 2 == 0:
        x = x.reshape(2, -1)
    with _one_thread():
        assert _same(cascade_sum(x), torch.from_numpy(x).sum())


@settings(max_examples=150, deadline=None)
@given(rows=st.integers(1, 300), columns=st.integers(1, 120), seed=st.integers(0, 2**32 - 1),
       dtype=st.sampled_from([np.float32, np.float64]), keepdim=st.booleans())
def test_column_sums_match_torch(rows, columns, seed, dtype, keepdim):
    """A bias's gradient: a row-major matrix summed over dim 0 (groups of 4 vectors, the
    columns past the last group, rows past the last quad), as torch sums it."""
    x = _values(rows * columns, dtype, seed).reshape(rows, columns)
    with _one_thread():
        want = torch.from_numpy(x).sum(0, keepdim=keepdim)
    assert _same(minigrad.tensor(x).sum(0, keepdim=keepdim).numpy(), want)


def test_all_negative_zeros_sum_to_positive_zero():
    """torch's running sums start from +0.0: a sum of -0.0s is +0.0."""
    for n in (1, 3, 9, 100):
        x = np.full(n, -0.0, np.float32)
        assert _same(cascade_sum(x), torch.from_numpy(x).sum())
        assert not np.signbit(cascade_sum(x))


@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("n", [3, 17, 640, 2000, 16000])  # 2n <= 32768: one thread
def test_sum_mean_and_losses_are_torchs(n, dtype):
    a = _values(n, dtype, 1)
    b = _values(n, dtype, 2) / 1000

    def each(lib):
        F = lib.nn.functional
        x, y = lib.tensor(a, requires_grad=True), lib.tensor(b)
        return {"sum": x.sum(), "mean": x.mean(), "mean of a product": (x * y).mean(),
                "mse": F.mse_loss(x, y), "mse sum": F.mse_loss(x, y, reduction="sum"),
                "l1": F.l1_loss(x, y), "huber": F.huber_loss(x, y),
                "matrix sum": x.reshape(-1, 1).expand(n, 2).t().contiguous().sum()}

    got, want = each(minigrad), each(torch)
    for name in want:
        assert _same(got[name].detach().numpy(), want[name].detach()), name


SHAPES = [(5,), (3, 4), (4, 3), (64, 256), (64, 10), (10, 64), (7, 9), (2, 3, 40), (40, 3, 2),
          (1, 50), (50, 1), (3, 1, 17), (100, 33), (33, 100), (16, 16, 8), (300, 7), (7, 300),
          (5, 1, 1), (2, 3, 4, 5)]


def _dim_sets(ndim):
    for r in range(1, ndim + 1):
        yield from itertools.combinations(range(ndim), r)


@pytest.mark.parametrize("shape", SHAPES, ids=str)
def test_sums_over_dims_are_torchs(shape):
    """Every set of dims: the reduced dims last (a row per result), first or in the middle (a
    column per result), first and last (rows' sums added in turn); and the four-run patterns,
    which fall back to NumPy's sum and are only compared within float rounding."""
    for dtype in ("float32", "float64"):
        x = _values(int(np.prod(shape)), dtype, len(shape)).reshape(shape)
        for dims in _dim_sets(len(shape)):
            for keepdim in (False, True):
                want = torch.from_numpy(x).sum(dims, keepdim=keepdim)
                got = minigrad.tensor(x).sum(dims, keepdim=keepdim)
                mean = minigrad.tensor(x).mean(dims, keepdim=keepdim).numpy()
                want_mean = torch.from_numpy(x).mean(dims, keepdim=keepdim)
                if len(_runs(shape, dims)) <= 3:
                    assert _same(got.numpy(), want), (dims, keepdim)
                    assert _same(mean, want_mean), (dims, keepdim)
                else:
                    np.testing.assert_allclose(got.numpy(), want.numpy(), rtol=1e-5)


def _runs(shape, dims):
    pattern = [i in dims for i, n in enumerate(shape) if n != 1]
    return [r for k, r in enumerate(pattern) if k == 0 or pattern[k - 1] != r]


def test_bias_gradients_and_broadcast_sums_are_torchs():
    """The sums backward makes: a bias's gradient (the batch summed away) and a broadcast
    operand's (sum_to_size), through the engine as torch's. (Only exactly rounded ops around
    them, so that any difference would be the sums'.)"""
    rng = np.random.default_rng(3)
    data = {k: rng.standard_normal(s).astype(np.float32) for k, s in
            (("h", (64, 256)), ("k", (64, 256)), ("b", (256,)), ("c", (64, 1)), ("r", (1, 256)))}

    def grads(lib):
        t = {k: lib.tensor(v, requires_grad=k in "bcr") for k, v in data.items()}
        (((t["h"] + t["b"]) * t["c"] - t["r"]) * t["k"]).sum().backward()
        return {k: t[k].grad for k in "bcr"}

    got, want = grads(minigrad), grads(torch)
    for k in want:
        assert _same(got[k].numpy(), want[k]), k


# --- nll_loss (and cross_entropy) add up their terms in a cascade of their own -----------------


def _nll_case(batch, classes, dtype, seed, ignored, weighted):
    rng = np.random.default_rng(seed)
    scores = (rng.standard_normal((batch, classes)) * 10.0 ** rng.uniform(-3, 3, (batch, 1)))
    target = rng.integers(0, classes, batch)
    if ignored:  # ignore_index at random places, and at places where the cascade moves up
        target[rng.random(batch) < ignored] = -100
        target[::16][rng.random(len(target[::16])) < 0.5] = -100
    weight = rng.uniform(0.1, 3.0, classes).astype(dtype) if weighted else None
    return scores.astype(dtype), target, weight


def _nll_losses(lib, scores, target, weight, reduction):
    F = lib.nn.functional
    x = lib.tensor(scores, requires_grad=True)
    w = None if weight is None else lib.tensor(weight)
    loss = F.nll_loss(x, lib.tensor(target), weight=w, reduction=reduction)
    loss.backward()
    return loss, x.grad


@settings(max_examples=60, deadline=None)
@given(batch=st.integers(1, 5000), classes=st.integers(1, 12), seed=st.integers(0, 2**32 - 1),
       dtype=st.sampled_from([np.float32, np.float64]),
       ignored=st.sampled_from([0.0, 0.1, 0.7]), weighted=st.booleans(),
       reduction=st.sampled_from(["mean", "sum"]))
def test_nll_loss_adds_up_as_torch(batch, classes, seed, dtype, ignored, weighted, reduction):
    """ATen's nll_loss adds its terms one at a time into 8 levels (16 per level), not as
    sum() does: the loss, its total weight (a mean's divisor) and so the gradient are torch's
    bits, with ignored targets and class weights, past 256 terms (level 2) too."""
    case = _nll_case(batch, classes, dtype, seed, ignored, weighted)
    (got, got_grad), (want, want_grad) = (_nll_losses(lib, *case, reduction)
                                          for lib in (minigrad, torch))
    assert _same(got.detach().numpy(), want.detach())
    assert _same(got_grad.numpy(), want_grad)


def test_nll_loss_order_is_not_numpys_sum():
    """The test above can fail: NumPy's sum of the same terms differs from torch's loss."""
    differ = 0
    for seed in range(50):
        scores, target, _ = _nll_case(64, 10, np.float32, seed, 0.0, False)
        picked = -scores[np.arange(64), target]
        want = torch.nn.functional.nll_loss(torch.from_numpy(scores), torch.from_numpy(target),
                                            reduction="sum").numpy()
        differ += picked.sum() != want
    assert differ > 10


# --- softmax's and log_softmax's kernels add a row up in vectorised order ----------------------
# That order depends on the kernels torch runs on this CPU (AVX512, AVX2 or its plain build);
# minigrad asks the CPU (and ATEN_CPU_CAPABILITY) what torch asks it, and test_cpu_capabilities
# re-runs these tests with the kernels forced down. The backward formulas use only exactly
# rounded arithmetic around the sums, so any difference would be the sums'.

SOFTMAX_SHAPES = [(1, 1), (3, 5), (2, 7), (4, 8), (3, 9), (2, 15), (2, 16), (2, 17), (5, 31),
                  (2, 33), (3, 100), (2, 1000), (2, 3, 20), (10,)]


def _softmax_backward(lib, grad, output, log: bool):
    """torch's _softmax_backward_data / _log_softmax_backward_data, over the last dim."""
    if lib is torch:
        fn = torch._log_softmax_backward_data if log else torch._softmax_backward_data
        grad = torch.from_numpy(grad)
        return fn(grad, torch.from_numpy(output), -1, grad.dtype)
    fn = log_softmax_backward_data if log else softmax_backward_data
    with minigrad.no_grad():
        return fn(minigrad.tensor(grad), minigrad.tensor(output), -1)


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("shape", SOFTMAX_SHAPES, ids=str)
def test_softmax_backward_sums_are_torchs(shape, dtype):
    """softmax's backward adds up grad * output along each row, log_softmax's the gradient
    (with output 0, exp(output) is exactly 1): bit for bit torch's, on this CPU's kernels."""
    for seed in range(4):
        rng = np.random.default_rng(seed)
        grad = (rng.standard_normal(shape) * 10.0 ** rng.uniform(-3, 3, shape)).astype(dtype)
        output = rng.uniform(0, 1, shape).astype(dtype)
        for log, out in ((False, output), (True, np.zeros(shape, dtype))):
            got = _softmax_backward(minigrad, grad, out, log).numpy()
            assert _same(got, _softmax_backward(torch, grad, out, log)), (seed, log)


def test_softmax_backward_order_is_not_numpys():
    """The test above can fail: with NumPy's sum, many rows come out differently."""
    rng = np.random.default_rng(0)
    grad = (rng.standard_normal((200, 100)) * 10.0 ** rng.uniform(-3, 3, (200, 100)))
    grad = grad.astype(np.float32)
    want = torch._log_softmax_backward_data(torch.from_numpy(grad), torch.zeros(200, 100), -1,
                                            torch.float32).numpy()
    numpy_order = grad - grad.sum(axis=-1, keepdims=True)
    assert (numpy_order != want).any(axis=1).sum() > 20


@pytest.mark.parametrize("shape", SOFTMAX_SHAPES, ids=str)
def test_softmax_and_log_softmax_forward_are_torchs_up_to_exp(shape):
    """The forward kernels also exponentiate (torch with SLEEF's vectorised exp, not always
    correctly rounded; minigrad's is): equal to torch within a few units in the last place;
    cross_entropy too."""
    rng = np.random.default_rng(shape[-1])
    x = (rng.standard_normal(shape) * 4).astype(np.float32)
    for name in ("softmax", "log_softmax"):
        got = getattr(minigrad, name)(minigrad.tensor(x), -1).numpy()
        want = getattr(torch, name)(torch.from_numpy(x), -1).numpy()
        np.testing.assert_allclose(got, want, rtol=4e-7 * max(4, shape[-1] ** 0.5), atol=1e-7)
    if len(shape) == 2:
        target = rng.integers(0, shape[-1], shape[0])
        got = minigrad.nn.functional.cross_entropy(minigrad.tensor(x), minigrad.tensor(target))
        want = torch.nn.functional.cross_entropy(torch.from_numpy(x), torch.from_numpy(target))
        np.testing.assert_allclose(got.numpy(), want.numpy(), rtol=1e-6)


# --- vector norms of order 1 and 2 add up in the norm kernel's own order ------------------------


NORM_SHAPES = [(1,), (3,), (7,), (8,), (9,), (13,), (50,), (1000,), (4, 37), (37, 5), (3, 4, 5),
               (2, 1, 9), (64, 256), (5, 1)]


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("shape", NORM_SHAPES, ids=str)
def test_vector_norms_are_torchs_bit_for_bit(shape, dtype):
    """The 2-norm over the last dims takes a vectorised path (registers of 32 bytes, the
    numbers left over one at a time, fused or not as torch's build does it); every other 1-
    and 2-norm adds one number at a time in memory order: torch's bits, on this CPU's kernels,
    for every set of dims."""
    rng = np.random.default_rng(len(shape) * 100 + shape[-1])
    for dims in [None, *_dim_sets(len(shape))]:
        for p in (1, 2):
            x = (rng.standard_normal(shape) * 10.0 ** rng.uniform(-2, 2, shape)).astype(dtype)
            for keepdim in (False, True):
                got = minigrad.tensor(x).norm(p=p, dim=dims, keepdim=keepdim).numpy()
                want = torch.linalg.vector_norm(torch.from_numpy(x), p, dims, keepdim)
                assert _same(got, want), (dims, p, keepdim)


def test_vector_norm_order_is_not_numpys():
    """The test above can fail: NumPy's sum of squares gives other 2-norms."""
    rng = np.random.default_rng(1)
    differ = 0
    for n in (7, 13, 50, 300):
        for _ in range(20):
            x = (rng.standard_normal(n) * 10.0 ** rng.uniform(-2, 2, n)).astype(np.float32)
            differ += np.sqrt((x * x).sum()) != torch.from_numpy(x).norm().numpy()
    assert differ > 10


# --- layer norm's statistics: Welford's algorithm in registers, as ATen's RowwiseMoments -------


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("size", [1, 3, 7, 8, 9, 17, 33, 100, 257, 300, 1000, 4097])
def test_layer_norm_forward_is_torchs_bit_for_bit(size, dtype):
    """The mean and 1/std (torch's saved results 1 and 2) and the output, with and without
    weight and bias, are torch's bits on this CPU's kernels: rows of every length that
    exercises a part of the algorithm (numbers left over, one chunk, the cascade)."""
    rng = np.random.default_rng(size)
    x = (rng.standard_normal((6, size)) * 3 + rng.uniform(-5, 5, (6, 1))).astype(dtype)
    w = rng.uniform(-1.5, 1.5, size).astype(dtype)
    b = rng.standard_normal(size).astype(dtype)
    for weight, bias in ((None, None), (w, None), (None, b), (w, b)):
        got = minigrad.nn.functional.layer_norm(
            minigrad.tensor(x, requires_grad=True), (size,),
            None if weight is None else minigrad.tensor(weight),
            None if bias is None else minigrad.tensor(bias))
        want, mean, rstd = torch.native_layer_norm(
            torch.from_numpy(x), (size,), None if weight is None else torch.from_numpy(weight),
            None if bias is None else torch.from_numpy(bias), 1e-5)
        assert _same(got.detach().numpy(), want), (weight is None, bias is None)
        node = got.grad_fn
        assert _same(node._saved_result1.numpy(), mean)
        assert _same(node._saved_result2.numpy(), rstd)


def test_layer_norm_statistics_are_not_float64s():
    """The test above can fail: the mean and variance worked out in float64 and rounded once
    (minigrad's way before) differ from torch's for many rows."""
    rng = np.random.default_rng(0)
    x = (rng.standard_normal((200, 300)) * 3 + 1).astype(np.float32)
    _, _, rstd = torch.native_layer_norm(torch.from_numpy(x), (300,), None, None, 1e-5)
    var = x.astype(np.float64).var(axis=1).astype(np.float32)
    rounded = np.float32(1) / np.sqrt(var + np.float32(1e-5))
    assert (rounded != rstd.numpy().ravel()).sum() > 10


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("size", [1, 3, 5, 8, 10, 17, 33, 100, 257, 300])
def test_layer_norm_input_gradient_is_torchs_bit_for_bit(size, dtype):
    """The input's gradient, with and without a weight: its row sums in the kernel's order
    and its multiply-adds fused where torch's build fuses them. (The weight's and bias's
    gradients add up per-thread partial sums in torch, so their bits depend on its thread
    count: they are compared within rounding.)"""
    rng = np.random.default_rng(size + 1)
    x = (rng.standard_normal((40, size)) * 3 + 1).astype(dtype)
    g = rng.standard_normal((40, size)).astype(dtype)
    w = rng.uniform(0.5, 1.5, size).astype(dtype)
    for weight in (None, w):
        grads = []
        for lib in (minigrad, torch):
            t = lib.tensor(x, requires_grad=True)
            p = None if weight is None else lib.tensor(weight, requires_grad=True)
            lib.nn.functional.layer_norm(t, (size,), p).backward(lib.tensor(g))
            grads.append((t.grad, None if p is None else p.grad))
        (got, got_w), (want, want_w) = grads
        assert _same(got.numpy(), want), weight is None
        if weight is not None:
            np.testing.assert_allclose(got_w.numpy(), want_w.numpy(), rtol=1e-5, atol=1e-6)
