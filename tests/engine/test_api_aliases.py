"""Small API that lesson code written for torch uses, against torch at test time: NumPy-style
keyword names (``axis=``, ``keepdims=``), ``size=`` for factories, ``out=``, and the default
device (a CPU-only torch: "cuda" may be set, and then making a tensor fails)."""

from __future__ import annotations

import warnings

import numpy as np
import pytest
import torch
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

import minigrad
from tests.torch_compare import normalize_text

LIBS = (torch, minigrad)


def outcome(fn, lib):
    """``("ok", value as NumPy/plain data)`` or (error type, first line of its message)."""
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            return "ok", plain(fn(lib))
    except Exception as e:  # noqa: BLE001 - the error is what we compare
        return type(e).__name__, normalize_text(str(e)).split("\n")[0]


class Values:
    """A tensor's dtype, shape and values; equal to another within float64's rounding
    (NumPy and torch may sum in different orders), NaN equal to NaN."""

    def __init__(self, tensor):
        self.dtype = str(tensor.dtype).split(".")[-1]
        self.data = tensor.detach().numpy().copy()

    def __eq__(self, other):
        a, b = self.data, other.data
        if self.dtype != other.dtype or a.shape != b.shape:
            return False
        if a.dtype.kind == "f":
            return np.allclose(a, b, rtol=1e-12, atol=0, equal_nan=True)
        return np.array_equal(a, b)

    def __repr__(self):
        return f"{self.dtype}{list(self.data.shape)} {self.data.tolist()}"


def plain(value):
    if isinstance(value, torch.Tensor | minigrad.Tensor):
        return Values(value)
    if isinstance(value, tuple | list):
        return [plain(v) for v in value]
    return value


def same(fn):
    expected, got = outcome(fn, torch), outcome(fn, minigrad)
    assert got == expected
    return got


# --- NumPy's keyword names -------------------------------------------------------------------
# (name, extra positional arguments): every op of minigrad's whose ``dim`` torch also takes as
# ``axis``; ``keepdims`` where torch has ``keepdim``
AXIS_OPS = [("sum", ()), ("mean", ()), ("max", ()), ("min", ()), ("std", ()), ("var", ()),
            ("prod", ()), ("any", ()), ("all", ()), ("amax", ()), ("amin", ()),
            ("logsumexp", ()), ("argmax", ()), ("argmin", ()), ("cumsum", ()),
            ("cumprod", ()), ("sort", ()), ("argsort", ()), ("topk", (1,)), ("squeeze", ()),
            ("unsqueeze", ()), ("chunk", (2,)), ("unbind", ()), ("softmax", ()),
            ("log_softmax", ())]
KEEPDIMS_OPS = [name for name, _ in AXIS_OPS[:14]]
NOT_AXIS = ["flip", "roll", "transpose", "narrow", "diagonal", "flatten"]


@st.composite
def matrices(draw):
    shape = draw(hnp.array_shapes(min_dims=2, max_dims=3, min_side=1, max_side=4))
    data = draw(hnp.arrays(np.float64, shape, elements=st.floats(-10, 10, width=32)))
    return data, draw(st.integers(-len(shape), len(shape) - 1))


@pytest.mark.parametrize(("name", "extra"), AXIS_OPS)
@settings(max_examples=10, deadline=None)
@given(case=matrices())
def test_axis_is_dim(name, extra, case):
    data, d = case
    same(lambda lib: getattr(lib, name)(lib.tensor(data), *extra, axis=d))
    same(lambda lib: getattr(lib.tensor(data), name)(*extra, axis=d))


@pytest.mark.parametrize("name", KEEPDIMS_OPS)
@settings(max_examples=10, deadline=None)
@given(case=matrices(), keep=st.booleans())
def test_keepdims_is_keepdim(name, case, keep):
    data, d = case
    same(lambda lib: getattr(lib.tensor(data), name)(axis=d, keepdims=keep))
    same(lambda lib: getattr(lib, name)(lib.tensor(data), d, keepdims=keep))


@pytest.mark.parametrize("name", NOT_AXIS)
def test_axis_refused_where_torch_refuses(name):
    assert same(lambda lib: getattr(lib.ones(2, 3), name)(axis=0))[0] == "TypeError"


def test_numpy_names_in_lesson_code():
    data = np.arange(6.0).reshape(2, 3)
    same(lambda lib: lib.tensor(data).sum(axis=0, keepdims=True))
    same(lambda lib: lib.sum(lib.tensor(data), axis=(0, 1)))
    same(lambda lib: lib.cat([lib.tensor(data)] * 2, axis=1))
    same(lambda lib: lib.stack([lib.tensor(data)] * 2, axis=0))
    same(lambda lib: lib.add(x1=lib.tensor(data), x2=lib.tensor(data)))
    same(lambda lib: lib.tensor(data).sum(0, axis=1))  # torch: unexpected keyword 'axis'
    same(lambda lib: lib.tensor(data).select(axis=1, index=0))
    same(lambda lib: lib.gather(lib.tensor(data), axis=1, index=lib.tensor([[0], [2]])))
    same(lambda lib: lib.tensor(data).cumsum_(axis=1))
    same(lambda lib: lib.tensor(data).unsqueeze_(axis=0))
    same(lambda lib: lib.nn.functional.softmax(lib.tensor(data), axis=1))  # a Python function


# --- size= -----------------------------------------------------------------------------------
@pytest.mark.parametrize("name", ["zeros", "ones", "empty", "rand", "randn"])
@pytest.mark.parametrize("size", [(2, 3), [4], (), (0, 2)])
def test_size_keyword(name, size):
    def make(lib):
        lib.manual_seed(0)
        t = getattr(lib, name)(size=size, dtype=lib.float64)
        return t if name != "empty" else t.shape  # empty's values are whatever is there
    same(make)


@pytest.mark.parametrize("name", ["zeros", "ones", "empty", "rand", "randn"])
@pytest.mark.parametrize("call", [lambda f: f(2, size=(2,)), lambda f: f(size=2),
                                  lambda f: f(size=None)])
def test_size_keyword_errors(name, call):
    assert same(lambda lib: call(getattr(lib, name)))[0] == "TypeError"


# --- out= ------------------------------------------------------------------------------------
OUT_CALLS = {
    "add": (lambda lib, a, b, **kw: lib.add(a, b, **kw), (2, 3)),
    "add_alpha": (lambda lib, a, b, **kw: lib.add(a, b, alpha=2, **kw), (2, 3)),
    "exp": (lambda lib, a, b, **kw: lib.exp(a, **kw), (2, 3)),
    "sum": (lambda lib, a, b, **kw: lib.sum(a, 0, **kw), (3,)),
    "mean": (lambda lib, a, b, **kw: lib.mean(a, 1, keepdim=True, **kw), (2, 1)),
    "mm": (lambda lib, a, b, **kw: lib.mm(a, b.t(), **kw), (2, 2)),
    "matmul": (lambda lib, a, b, **kw: lib.matmul(a, b.t(), **kw), (2, 2)),
    "cat": (lambda lib, a, b, **kw: lib.cat([a, b], **kw), (4, 3)),
    "stack": (lambda lib, a, b, **kw: lib.stack([a, b], 1, **kw), (2, 2, 3)),
    "eq": (lambda lib, a, b, **kw: lib.eq(a, b, **kw), (2, 3)),
    "clamp": (lambda lib, a, b, **kw: lib.clamp(a, 0.5, **kw), (2, 3)),
    "log10": (lambda lib, a, b, **kw: lib.log10(a, **kw), (2, 3)),
    "scatter": (lambda lib, a, b, **kw: lib.scatter(a, 1, lib.tensor([[2], [0]]), b, **kw),
                (2, 3)),
}
DATA = np.array([[0.5, 1.25, 2.0], [3.5, 0.75, 1.5]])


@pytest.mark.parametrize("name", OUT_CALLS)
@pytest.mark.parametrize("out_dtype", ["float64", "float32"])
def test_out_writes_into_the_given_tensor(name, out_dtype):
    fn, shape = OUT_CALLS[name]

    def run(lib):
        a, b = lib.tensor(DATA), lib.tensor(DATA[::-1].copy())
        out = lib.zeros(shape, dtype=getattr(lib, out_dtype))
        result = fn(lib, a, b, out=out)
        return result is out, out._version, out
    got = same(run)  # mm, matmul, clamp... refuse another dtype, as torch does
    assert got[0] != "ok" or got[1][0] is True


@pytest.mark.parametrize("name", OUT_CALLS)
def test_out_errors(name):
    fn, shape = OUT_CALLS[name]

    def needs_grad(lib):
        a = lib.tensor(DATA, requires_grad=True)
        return fn(lib, a, lib.tensor(DATA), out=lib.zeros(shape, dtype=lib.float64))

    def cannot_cast(lib):
        return fn(lib, lib.tensor(DATA), lib.tensor(DATA), out=lib.zeros(shape, dtype=lib.long))

    def no_grad_is_fine(lib):
        a = lib.tensor(DATA, requires_grad=True)
        with lib.no_grad():
            out = lib.zeros(shape, dtype=lib.float64)
            fn(lib, a, lib.tensor(DATA), out=out)
        return out, out.requires_grad

    assert same(needs_grad)[0] == ("ok" if name == "eq" else "RuntimeError")
    same(cannot_cast)
    same(no_grad_is_fine)


@pytest.mark.parametrize("name", OUT_CALLS)
@pytest.mark.parametrize("out_shape", [(5,), (0,), (1, 1)])
def test_out_is_resized_with_torch_warning(name, out_shape):
    fn, shape = OUT_CALLS[name]
    got = {}
    for lib in LIBS:
        out = lib.zeros(out_shape, dtype=lib.float64)
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            fn(lib, lib.tensor(DATA), lib.tensor(DATA), out=out)
        messages = [str(w.message).split(" (Triggered internally")[0] for w in caught]
        got[lib.__name__] = (messages, plain(out))
    assert got["minigrad"] == got["torch"]


@pytest.mark.parametrize("call", ["lib.arange(0.5, 3, out=out)", "lib.linspace(0, 1, 3, out=out)",
                                  "lib.softmax(x, 0, out=out)", "lib.log_softmax(x, 0, out=out)"])
def test_out_left_out_where_torch_has_rules_of_its_own(call):
    """torch writes these (its own resizing, softmax's graph-keeping copy); minigrad says it
    leaves them out."""
    def run(lib):
        return eval(call, {"lib": lib, "x": lib.ones(3), "out": lib.zeros(3)})  # noqa: S307
    assert outcome(run, torch)[0] == "ok"
    assert outcome(run, minigrad) == ("NotImplementedError", f"minigrad leaves out "
                                      f"{call[4:call.index('(')]}()'s out=: assign the returned "
                                      "tensor instead")


def test_out_given_to_a_method_is_refused():
    same(lambda lib: lib.ones(2).exp(out=lib.ones(2)))
    same(lambda lib: lib.ones(2).sum(0, out=lib.ones(())))


# --- the default device ----------------------------------------------------------------------
@pytest.fixture
def restore_default_device():
    yield
    torch.set_default_device(None)
    minigrad.set_default_device(None)


MADE = ["lib.zeros(2)", "lib.randn(2)", "lib.tensor([1.0])", "lib.arange(3)", "lib.full((2,), 1.0)",
        "lib.eye(2)", "lib.empty(2)", "lib.linspace(0, 1, 3)", "lib.as_tensor([1.0])",
        "lib.ones(2, device='cpu')", "lib.zeros_like(x)", "lib.rand_like(x)",
        "x.new_zeros(2)", "x + 1", "lib.from_numpy(np.ones(2))", "lib.get_default_device()"]


@pytest.mark.parametrize("device", ["cpu", "cpu:0", "cuda", "cuda:0", "mps", "foo", 3, None])
@pytest.mark.parametrize("made", MADE)
def test_default_device(device, made, restore_default_device):
    def run(lib):
        lib.manual_seed(0)  # randn, rand_like: the same draws whatever ran before
        x = lib.ones(2)
        lib.set_default_device(device)
        value = eval(made, {"lib": lib, "x": x, "np": np})  # noqa: S307 - the table above
        if made.endswith("device()"):
            return str(value)
        if made.startswith("lib.empty"):  # its values are whatever the memory held
            return tuple(value.shape), str(value.device)
        return value, str(value.device)
    if device == "mps" and made != "lib.get_default_device()":
        return  # torch's MPS error lists its dispatch keys; minigrad says it computes on the CPU
    same(run)
