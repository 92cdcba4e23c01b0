"""Every entry of the op database (``op_db.py``) through the same checks, against torch.

For each entry, each sample and each dtype, torch computes the expected answer at test time:

* ``forward``: values, dtype, shape, strides and requires_grad of every output;
* ``grad_fn``: the output's grad_fn class and ``name()``, and the whole graph under it
  (node names and ``next_functions`` edges);
* ``backward``: ``autograd.grad`` of the outputs with a random upstream gradient, for every
  differentiable input (``None`` where torch gives ``None``);
* ``fwad``: forward-mode AD with random tangents (``make_dual``/``unpack_dual``);
* ``gradgrad``: gradients made with ``create_graph=True``, then the gradient of
  ``sum(grad * random weights)`` with respect to the inputs and the upstream gradients;
* ``gradgrad_graph``: the graph of each gradient made with ``create_graph=True`` (node names
  and edges, as ``grad_fn``, and the numbers each node saves), built by the backward formulas
  as torch's are;
* ``gradcheck`` and ``gradcheck_fwad``: minigrad's own ``gradcheck`` (reverse mode, then
  forward mode) against finite differences, in float64.

Then two coverage tests: every backward node class minigrad defines is produced by some
sample, and every public op (Tensor method, ``minigrad.*`` function, ``nn.functional``) is
called by some entry or is listed in ``NOT_OPS`` with the reason it is not one.
"""

from __future__ import annotations

import functools
import inspect
import zlib

import numpy as np
import pytest
import torch
import torch.autograd.forward_ad as tfw
from torch_compare import graph_signature, saved_numbers, saved_signature, walk_graph
from torch_compare import normalize_text as norm

import minigrad
from minigrad._ops import METHODS
from minigrad.autograd import forward_ad as mfw
from minigrad.autograd.function import BackwardCFunction
from minigrad.autograd.graph import Node
from tests.engine.op_db import CHECKS, OPS, Arg, DType

# torch computes inf and nan silently; NumPy's RuntimeWarnings must not leak from minigrad.
pytestmark = pytest.mark.filterwarnings("error::RuntimeWarning")

DTYPES = ("float32", "float64")
# torch.testing.assert_close's defaults
TOLERANCES = {"float16": (1e-3, 1e-5), "float32": (1.3e-6, 1e-5), "float64": (1e-7, 1e-7)}
FW = {minigrad: mfw, torch: tfw}


# --- samples as tensors --------------------------------------------------------------------------
@functools.cache
def samples(name: str) -> list:
    entry = next(e for e in OPS if e.name == name)
    return entry.samples(np.random.default_rng(zlib.crc32(name.encode())))


def rng(entry, i: int, purpose: str) -> np.random.Generator:
    """The same random numbers for both engines, whatever order the tests run in."""
    return np.random.default_rng(zlib.crc32(f"{entry.name}/{i}/{purpose}".encode()))


def _tensor(lib, data: np.ndarray, noncontig: bool):
    """``data`` as a tensor of ``lib``; non-contiguous: a transposed or strided view of a
    bigger buffer, detached so that it is a leaf (torch's ``make_tensor(noncontiguous=True)``)."""
    if not noncontig:
        return lib.tensor(data)
    if data.ndim >= 2:
        t = lib.tensor(np.ascontiguousarray(np.swapaxes(data, -1, -2))).transpose(-1, -2)
    else:
        buffer = np.zeros(2 * data.shape[0], dtype=data.dtype)
        buffer[::2] = data
        t = lib.tensor(buffer)[::2]
    assert not t.is_contiguous()
    return t.detach()


def build(lib, sample, dtype: str, leaf):
    """``(args, kwargs, inputs)`` for ``lib``: each differentiable input goes through
    ``leaf(tensor, k)`` (make it require grad, make it dual...) and is listed in ``inputs``."""
    inputs = []

    def convert(a):
        if isinstance(a, np.ndarray | np.generic):  # a NumPy scalar is 0-d data
            a = Arg(np.asarray(a), grad=np.asarray(a).dtype.kind == "f")
        if isinstance(a, Arg):
            data = a.data
            if data.dtype.kind == "f":
                data = data.astype(a.dtype or dtype)
            t = _tensor(lib, data, a.noncontig)
            if a.grad and data.dtype.kind == "f":
                t = leaf(t, len(inputs))
                inputs.append(t)
            return t
        if isinstance(a, DType):
            return getattr(lib, a.name)
        if isinstance(a, list | tuple):
            return type(a)(convert(x) for x in a)
        return a

    args = convert(sample.args)
    kwargs = {k: convert(v) for k, v in sample.kwargs.items()}
    return args, kwargs, inputs


def requires_grad(t, k):
    return t.requires_grad_()


def call(lib, entry, sample, dtype, leaf=requires_grad):
    """Run the entry on ``lib``; the outputs as a list, and the differentiable inputs."""
    args, kwargs, inputs = build(lib, sample, dtype, leaf)
    out = entry.op(lib, *args, **kwargs)
    return (list(out) if isinstance(out, tuple | list) else [out]), inputs


def random_like(r, t) -> np.ndarray:
    return np.asarray(r.standard_normal(tuple(t.shape))).astype(str(t.dtype).split(".")[-1])


# --- comparing -----------------------------------------------------------------------------------
def numpy(t) -> np.ndarray:
    return t.detach().numpy(force=True)  # torch: also a ZeroTensor (abs's second derivative)


def assert_same(m, t, what: str) -> None:
    """Both None, or the same dtype, shape and values (tolerance from the dtype)."""
    if m is None or t is None:
        assert m is None and t is None, f"{what}: minigrad {m!r} vs torch {t!r}"
        return
    m_dtype, t_dtype = m.dtype.name, str(t.dtype).removeprefix("torch.")
    assert m_dtype == t_dtype, f"{what}: dtype minigrad {m_dtype} vs torch {t_dtype}"
    assert tuple(m.shape) == tuple(t.shape), \
        f"{what}: shape minigrad {tuple(m.shape)} vs torch {tuple(t.shape)}"
    rtol, atol = TOLERANCES.get(t_dtype, (0, 0))
    np.testing.assert_allclose(numpy(m), numpy(t), rtol=rtol, atol=atol, equal_nan=True,
                               err_msg=what)


def for_each_sample(entry, dtype, check) -> None:
    """``check(i, sample)`` for every sample; all failures are reported together."""
    failures = []
    for i, sample in enumerate(samples(entry.name)):
        try:
            check(i, sample)
        except Exception as e:  # noqa: BLE001 - every sample's failure goes in the report
            failures.append(f"sample {i} {sample}: {type(e).__name__}: {e}")
    assert not failures, f"{entry.name} ({dtype}):\n" + "\n".join(failures)


def params(check: str, dtypes=DTYPES):
    """One test per (entry, dtype), with the entry's strict xfail for this check."""
    out = []
    for entry in OPS:
        if check.startswith("gradcheck") and entry.no_gradcheck:
            continue  # finite differences cannot check it (the reason is in the entry)
        if check.startswith("gradgrad") and not entry.supports_gradgrad:
            continue  # torch itself cannot differentiate it twice
        for dtype in dtypes:
            marks = []
            reason = entry.xfail.get(f"{check}:{dtype}") or entry.xfail.get(check)
            if reason:
                marks.append(pytest.mark.xfail(strict=True, reason=reason))
            out.append(pytest.param(entry, dtype, id=f"{entry.name}-{dtype}", marks=marks))
    return out


def differentiable(t_outs) -> list[int]:
    return [k for k, t in enumerate(t_outs) if isinstance(t, torch.Tensor) and t.requires_grad]


# --- the checks ----------------------------------------------------------------------------------
@pytest.mark.parametrize("entry,dtype", params("forward"))
def test_forward(entry, dtype):
    def check(i, sample):
        m_outs, _ = call(minigrad, entry, sample, dtype)
        t_outs, _ = call(torch, entry, sample, dtype)
        assert len(m_outs) == len(t_outs), f"{len(m_outs)} outputs vs torch {len(t_outs)}"
        for k, (m, t) in enumerate(zip(m_outs, t_outs)):
            assert_same(m, t, f"output {k}")
            assert m.requires_grad == t.requires_grad, \
                f"output {k}: requires_grad minigrad {m.requires_grad} vs torch {t.requires_grad}"
            if t.numel() > 1:  # the layout too: .stride(), is_contiguous() and view() read it
                assert m.stride() == t.stride(), \
                    f"output {k}: strides minigrad {m.stride()} vs torch {t.stride()}"

    for_each_sample(entry, dtype, check)


@pytest.mark.parametrize("entry,dtype", params("grad_fn"))
def test_grad_fn(entry, dtype):
    def check(i, sample):
        m_outs, _ = call(minigrad, entry, sample, dtype)
        t_outs, _ = call(torch, entry, sample, dtype)
        for k, (m, t) in enumerate(zip(m_outs, t_outs)):
            if t.grad_fn is None:
                assert m.grad_fn is None, f"output {k}: grad_fn {m.grad_fn} vs torch None"
                continue
            assert m.grad_fn is not None, f"output {k}: no grad_fn; torch {t.grad_fn.name()}"
            m_cls, t_cls = type(m.grad_fn).__name__, type(t.grad_fn).__name__
            assert m_cls == t_cls, f"output {k}: grad_fn {m_cls} vs torch {t_cls}"
            assert norm(m.grad_fn.name()) == t.grad_fn.name()
            m_graph, t_graph = graph_signature(m.grad_fn), graph_signature(t.grad_fn)
            assert m_graph == t_graph, f"output {k}: graph\n {m_graph}\nvs torch\n {t_graph}"
            m_saved, t_saved = saved_signature(m.grad_fn), saved_signature(t.grad_fn)
            assert m_saved == t_saved, f"output {k}: saved\n {m_saved}\nvs torch\n {t_saved}"
            m_face, t_face = node_face(m.grad_fn), node_face(t.grad_fn)
            assert m_face == t_face, f"output {k}: node\n {m_face}\nvs torch\n {t_face}"

    for_each_sample(entry, dtype, check)


def node_face(fn) -> tuple:
    """What a learner sees of a node beyond its graph: dir() past object's own names, and
    the shape and dtype of each gradient it takes in (``_input_metadata``)."""
    names = sorted(set(dir(fn)) - set(dir(object)))
    metas = [(tuple(m.shape), str(m.dtype).split(".")[-1], str(m.device))
             for m in fn._input_metadata]
    return names, metas, fn.requires_grad


@pytest.mark.parametrize("entry,dtype", params("backward"))
def test_backward(entry, dtype):
    def check(i, sample):
        m_outs, m_in = call(minigrad, entry, sample, dtype)
        t_outs, t_in = call(torch, entry, sample, dtype)
        diff = differentiable(t_outs)
        assert [k for k, m in enumerate(m_outs) if m.requires_grad] == diff
        if not diff:
            return
        r = rng(entry, i, "upstream")
        vs = [random_like(r, t_outs[k]) for k in diff]

        def grads(lib, outs, inputs):
            return lib.autograd.grad([outs[k] for k in diff], inputs,
                                     [lib.tensor(v) for v in vs], allow_unused=True)

        if not entry.supports_backward:  # torch has no derivative: the same error in both
            with pytest.raises(RuntimeError) as t_exc:
                grads(torch, t_outs, t_in)
            with pytest.raises(RuntimeError) as m_exc:
                grads(minigrad, m_outs, m_in)
            assert norm(str(m_exc.value)) == str(t_exc.value)
            return
        t_grads, m_grads = grads(torch, t_outs, t_in), grads(minigrad, m_outs, m_in)
        for j, (m, t) in enumerate(zip(m_grads, t_grads)):
            assert_same(m, t, f"grad of input {j}")

    for_each_sample(entry, dtype, check)


def dual_maker(lib, entry, i):
    """``leaf`` for ``build``: each differentiable input becomes a dual tensor with a random
    tangent (the same numbers for both engines)."""
    r = rng(entry, i, "tangent")

    def leaf(t, k):
        tangent = lib.tensor(random_like(r, t))
        return FW[lib].make_dual(t, tangent)

    return leaf


def tangents(lib, entry, i, sample, dtype):
    with FW[lib].dual_level():
        outs, _ = call(lib, entry, sample, dtype, dual_maker(lib, entry, i))
        return [FW[lib].unpack_dual(o).tangent for o in outs]


@pytest.mark.parametrize("entry,dtype", params("fwad"))
def test_fwad(entry, dtype):
    def check(i, sample):
        try:
            t_tangents = tangents(torch, entry, i, sample, dtype)
        except Exception as t_exc:  # noqa: BLE001 - torch has no forward formula
            assert not entry.supports_fwad, f"torch raised {t_exc!r}, but supports_fwad=True"
            with pytest.raises(type(t_exc)) as m_exc:
                tangents(minigrad, entry, i, sample, dtype)
            assert norm(str(m_exc.value)) == str(t_exc)
            return
        assert entry.supports_fwad, "torch supports forward AD here: set supports_fwad=True"
        m_tangents = tangents(minigrad, entry, i, sample, dtype)
        for k, (m, t) in enumerate(zip(m_tangents, t_tangents)):
            assert_same(m, t, f"tangent of output {k}")

    for_each_sample(entry, dtype, check)


def second_order(lib, outs, inputs, vs, ws):
    """First gradients with ``create_graph=True``, then the gradient of
    ``sum(grad * w)`` with respect to the inputs and the upstream gradients."""
    vs = [lib.tensor(v).requires_grad_() for v in vs]
    firsts = lib.autograd.grad(outs, inputs, vs, create_graph=True, allow_unused=True)
    terms = [(g * lib.tensor(w)).sum() for g, w in zip(firsts, ws)
             if g is not None and g.requires_grad]
    if not terms:
        return firsts, [None] * (len(inputs) + len(vs))
    total = functools.reduce(lambda a, b: a + b, terms)
    return firsts, lib.autograd.grad(total, [*inputs, *vs], allow_unused=True)


@pytest.mark.parametrize("entry,dtype", params("gradgrad", ("float64",)))
def test_gradgrad(entry, dtype):
    def check(i, sample):
        m_outs, m_in = call(minigrad, entry, sample, dtype)
        t_outs, t_in = call(torch, entry, sample, dtype)
        diff = differentiable(t_outs)
        if not diff:
            return
        r = rng(entry, i, "gradgrad")
        vs = [random_like(r, t_outs[k]) for k in diff]
        ws = [random_like(r, t) for t in t_in]
        t_first, t_second = second_order(torch, [t_outs[k] for k in diff], t_in, vs, ws)
        m_first, m_second = second_order(minigrad, [m_outs[k] for k in diff], m_in, vs, ws)
        for j, (m, t) in enumerate(zip(m_first, t_first)):
            assert_same(m, t, f"first gradient of input {j}")
        names = [f"input {j}" for j in range(len(t_in))] + [f"upstream {j}" for j in diff]
        for name, m, t, like in zip(names, m_second, t_second, [*t_in, *vs]):
            # A gradient that does not depend on the inputs is None in one engine and zeros
            # in the other: both mean zero, which is what is compared here.
            zeros = np.zeros(np.shape(like))
            m_val = zeros if m is None else numpy(m)
            t_val = zeros if t is None else numpy(t)
            np.testing.assert_allclose(m_val, t_val, rtol=1e-7, atol=1e-7,
                                       err_msg=f"second-order gradient w.r.t. {name}")

    for_each_sample(entry, dtype, check)


@pytest.mark.parametrize("entry,dtype", params("gradgrad_graph", ("float64",)))
def test_gradgrad_graph(entry, dtype):
    """A gradient made with ``create_graph=True`` is a graph of torch's nodes, as torch's
    backward formulas (derivatives.yaml) compose them: a learner who draws it, or walks its
    ``next_functions``, sees what torch shows."""
    def check(i, sample):
        m_outs, m_in = call(minigrad, entry, sample, dtype)
        t_outs, t_in = call(torch, entry, sample, dtype)
        diff = differentiable(t_outs)
        if not diff:
            return
        vs = [random_like(rng(entry, i, "gradgrad"), t_outs[k]) for k in diff]

        def firsts(lib, outs, inputs):
            v = [lib.tensor(x).requires_grad_() for x in vs]
            return lib.autograd.grad([outs[k] for k in diff], inputs, v, create_graph=True,
                                     allow_unused=True)

        for j, (m, t) in enumerate(zip(firsts(minigrad, m_outs, m_in),
                                       firsts(torch, t_outs, t_in))):
            t_graph = None if t is None or t.grad_fn is None else graph_signature(t.grad_fn)
            m_graph = None if m is None or m.grad_fn is None else graph_signature(m.grad_fn)
            assert m_graph == t_graph, f"gradient of input {j}:\n {m_graph}\nvs torch\n {t_graph}"
            if t_graph is not None:
                # The numbers each node saves (dims, sizes, scalars), by repr: 2 and 2.0 differ.
                for mnode, tnode in zip(walk_graph(m.grad_fn), walk_graph(t.grad_fn), strict=True):
                    assert saved_numbers(mnode) == saved_numbers(tnode), \
                        f"gradient of input {j}, node {tnode.name()}"

    for_each_sample(entry, dtype, check)


def minigrad_function(entry, sample):
    """``(func, leaves)`` for gradcheck: ``func(*leaves)`` runs the entry in float64."""
    _, _, leaves = build(minigrad, sample, "float64", requires_grad)

    def func(*tensors):
        args, kwargs, _ = build(minigrad, sample, "float64", lambda t, k: tensors[k])
        out = entry.op(minigrad, *args, **kwargs)
        return tuple(out) if isinstance(out, tuple | list) else out

    return func, leaves


@pytest.mark.parametrize("entry,dtype", params("gradcheck", ("float64",)))
def test_gradcheck(entry, dtype):
    def check(i, sample):
        func, leaves = minigrad_function(entry, sample)
        assert minigrad.autograd.gradcheck(func, tuple(leaves))

    for_each_sample(entry, dtype, check)


@pytest.mark.parametrize("entry,dtype", params("gradcheck_fwad", ("float64",)))
def test_gradcheck_fwad(entry, dtype):
    def check(i, sample):
        func, leaves = minigrad_function(entry, sample)
        assert minigrad.autograd.gradcheck(func, tuple(leaves), check_forward_ad=True,
                                           check_backward_ad=False)

    for_each_sample(entry, dtype, check)


def test_db_is_well_formed():
    valid = set(CHECKS) | {f"{c}:{d}" for c in CHECKS for d in DTYPES}
    for entry in OPS:
        assert set(entry.xfail) <= valid, f"{entry.name}: unknown xfail keys"
        assert samples(entry.name), f"{entry.name}: no samples"
        for sample in samples(entry.name):
            _, _, inputs = build(minigrad, sample, "float64", requires_grad)
            assert inputs, f"{entry.name} {sample}: no differentiable input"


# --- coverage ------------------------------------------------------------------------------------
# Node classes that no op can produce, and why.
NOT_PRODUCED_BY_OPS = {
    "Error": "only in gradient graphs: behind a once_differentiable Function's gradient, or "
             "scatter_reduce's prod gradient for two zeros at one place (the entry "
             "scatter_reduce_two_zeros checks it under create_graph)",
    "_ViewNode": "the base class of the view nodes (its jvp is theirs); never recorded itself",
    "_ZeroGradient": "the base class of the rounding nodes (floor, ceil, round, trunc); never "
                     "recorded itself",
    "_ZeroComparison": "the base class of the in-place comparisons' nodes (EqBackward0...); "
                       "never recorded itself",
    **dict.fromkeys(["ThresholdBackwardBackward0", "TanhBackwardBackward0",
                     "SigmoidBackwardBackward0"],
                    "recorded by relu/tanh/sigmoid's backward under create_graph, not by an "
                    "op; test_autograd_api.test_create_graph_gradient_has_torchs_graph checks "
                    "them against torch"),
    **dict.fromkeys(["MulBackward1", "AddBackward1", "SubBackward1", "SelectBackwardBackward0",
                     "SliceBackwardBackward0", "IndexPutImplBackward0",
                     "SoftmaxBackwardDataBackward0", "LogSoftmaxBackwardDataBackward0",
                     "MseLossBackwardBackward0", "NllLossBackwardBackward0",
                     "NllLoss2DBackwardBackward0",
                     "DiagonalBackwardBackward0", "IndexAddBackward0",
                     "MaskedScatterBackwardBackward0", "UnfoldBackwardBackward0",
                     "BinaryCrossEntropyBackwardBackward0", "LogitBackward0",
                     "NativeLayerNormBackwardBackward0", "HuberLossBackwardBackward0",
                     "SmoothL1LossBackwardBackward0"],
                    "recorded by backward formulas under create_graph (torch's C++ formulas "
                    "call the tensor-and-number overloads), not by an op; test_gradgrad_graph "
                    "checks them against torch"),
}


def minigrad_node_classes() -> set[type]:
    """Every Node subclass defined in minigrad, except custom Function nodes (whose classes
    are made per Function by users and tests)."""
    found, stack = set(), [Node]
    while stack:
        for sub in stack.pop().__subclasses__():
            if sub not in found:
                found.add(sub)
                stack.append(sub)
    return {c for c in found if c.__module__.startswith("minigrad.")
            and not issubclass(c, BackwardCFunction)}


def walk_nodes(outputs) -> set[str]:
    """Class names of every node reachable from the outputs (and inside CopySlices)."""
    seen, names = set(), set()
    stack = [o.grad_fn for o in outputs if isinstance(o, minigrad.Tensor)]
    while stack:
        node = stack.pop()
        if node is None or id(node) in seen:
            continue
        seen.add(id(node))
        names.add(type(node).__name__)
        stack.extend(child for child, _ in node.next_functions)
        if hasattr(node, "fn") and isinstance(node.fn, Node):
            stack.append(node.fn)  # CopySlices: the in-place op's own node
    return names


def test_every_node_class_is_produced():
    produced = set()
    for entry in OPS:
        for sample in samples(entry.name):
            try:
                outs, _ = call(minigrad, entry, sample, "float64")
            except Exception:  # noqa: BLE001, S112 - xfailed entries that raise today
                continue
            produced |= walk_nodes(outs)
    defined = {c.__name__ for c in minigrad_node_classes()}
    assert set(NOT_PRODUCED_BY_OPS) <= defined, "stale names in NOT_PRODUCED_BY_OPS"
    missing = defined - produced - set(NOT_PRODUCED_BY_OPS)
    assert not missing, f"no sample of op_db produces these nodes: {sorted(missing)}"


# Public names that are not (differentiable) ops, and why. Everything else must be called by
# some entry of op_db (checked by test_every_public_op_has_an_entry).
NON_DIFFERENTIABLE = "bool or integer result: no grad_fn in torch either"
CREATES = "creates a new leaf tensor (no history)"
NOT_AN_OP = "not an op: metadata, autograd API, conversion out of tensors, or settings"
INTERNAL = "minigrad-internal helper, not torch API; reached through reshape/squeeze/slicing"
NOT_OPS = {
    **dict.fromkeys(["Tensor.imag", "minigrad.imag"],
                    "real tensors only: torch's error (test_misc_ops checks it)"),
    **dict.fromkeys(["Tensor.eq", "Tensor.ne", "Tensor.lt", "Tensor.le", "Tensor.gt",
                     "Tensor.ge", "Tensor.__eq__", "Tensor.__ne__", "Tensor.__lt__",
                     "Tensor.__le__", "Tensor.__gt__", "Tensor.__ge__", "Tensor.__and__",
                     "Tensor.__or__", "Tensor.__xor__", "Tensor.__invert__",
                     "Tensor.logical_not", "Tensor.logical_and", "Tensor.logical_or",
                     "Tensor.logical_xor", "Tensor.isnan", "Tensor.allclose", "Tensor.equal",
                     "Tensor.argmax", "Tensor.long", "Tensor.int", "Tensor.bool", "Tensor.byte",
                     "Tensor.char", "Tensor.short",
                     "minigrad.eq", "minigrad.ne", "minigrad.lt", "minigrad.le", "minigrad.gt",
                     "minigrad.ge", "minigrad.logical_not", "minigrad.logical_and",
                     "minigrad.logical_or", "minigrad.logical_xor", "minigrad.isnan",
                     "Tensor.isinf", "Tensor.isfinite", "minigrad.isinf", "minigrad.isfinite",
                     "minigrad.allclose", "minigrad.equal", "minigrad.argmax",
                     "Tensor.argmin", "Tensor.all", "Tensor.any", "minigrad.argmin",
                     "minigrad.all", "minigrad.any", "Tensor.argsort", "minigrad.argsort",
                     "Tensor.__rand__", "Tensor.__ror__",
                     "Tensor.__rxor__", "Tensor.__lshift__", "Tensor.__rshift__",
                     "Tensor.__rlshift__", "Tensor.__rrshift__", "Tensor.bitwise_and",
                     "Tensor.bitwise_or", "Tensor.bitwise_xor", "Tensor.bitwise_not",
                     "Tensor.bitwise_left_shift", "Tensor.bitwise_right_shift",
                     "minigrad.bitwise_and", "minigrad.bitwise_or", "minigrad.bitwise_xor",
                     "minigrad.bitwise_not", "minigrad.bitwise_left_shift",
                     "minigrad.bitwise_right_shift"],
                    NON_DIFFERENTIABLE),
    **dict.fromkeys(["minigrad.arange", "minigrad.as_tensor", "minigrad.empty",
                     "minigrad.empty_like", "minigrad.eye", "minigrad.from_numpy",
                     "minigrad.full", "minigrad.full_like", "minigrad.linspace", "minigrad.ones",
                     "minigrad.ones_like", "minigrad.rand", "minigrad.rand_like",
                     "minigrad.randint", "minigrad.randn", "minigrad.randn_like",
                     "minigrad.randperm", "minigrad.range", "minigrad.tensor", "minigrad.normal",
                     "minigrad.zeros",
                     "minigrad.zeros_like", "Tensor.new_zeros", "Tensor.new_ones",
                     "Tensor.new_empty", "Tensor.new_full", "Tensor.new_tensor"], CREATES),
    **dict.fromkeys(["Tensor.backward", "Tensor.cpu", "Tensor.data", "Tensor.data_ptr",
                     "Tensor.detach", "Tensor.detach_", "Tensor.device", "Tensor.dim",
                     "Tensor.dtype", "Tensor.element_size", "Tensor.grad", "Tensor.grad_dtype",
                     "Tensor.grad_fn",
                     "Tensor.is_contiguous", "Tensor.layout", "Tensor.is_cuda",
                     "Tensor.is_floating_point",
                     "Tensor.is_pinned", "Tensor.pin_memory",
                     "Tensor.is_inference", "Tensor.is_leaf", "Tensor.item", "Tensor.ndim",
                     "Tensor.nelement", "Tensor.numel", "Tensor.numpy", "Tensor.register_hook",
                     "Tensor.register_post_accumulate_grad_hook", "Tensor.requires_grad",
                     "Tensor.requires_grad_", "Tensor.retain_grad", "Tensor.retains_grad",
                     "Tensor.shape", "Tensor.size", "Tensor.stride", "Tensor.tolist",
                     "Tensor.untyped_storage", "Tensor.storage", "minigrad.get_default_dtype",
                     "Tensor.itemsize", "Tensor.nbytes", "Tensor.storage_offset",
                     "minigrad.set_default_dtype", "minigrad.set_printoptions",
                     "minigrad.set_default_device", "minigrad.get_default_device",
                     "minigrad.manual_seed", "minigrad.is_grad_enabled",
                     "minigrad.is_inference_mode_enabled", "minigrad.is_tensor",
                     "minigrad.is_anomaly_enabled", "minigrad.is_anomaly_check_nan_enabled"],
                    NOT_AN_OP),
    **dict.fromkeys(["Tensor._unsafe_view", "Tensor._squeeze_dims", "Tensor._slice",
                     "Tensor._index_put_padded"], INTERNAL),
    **dict.fromkeys(["minigrad.initial_seed", "minigrad.get_rng_state",
                     "minigrad.set_rng_state", "minigrad.save", "minigrad.load"], NOT_AN_OP),
    "minigrad.vmap": "a transform of functions (tests/engine/test_func.py), not an op",
    **dict.fromkeys(["minigrad.multinomial", "Tensor.multinomial"], NON_DIFFERENTIABLE),
    # fidelity round 2: device moves and type names (tests/engine/probes/devices.py, reprs.py)
    **dict.fromkeys(["Tensor.cuda", "Tensor.type", "Tensor.get_device", "Tensor.is_cpu"],
                    NOT_AN_OP),
    # issue 22: questions about tensors and dtypes, process-wide switches (probes/red_team.py)
    **dict.fromkeys(["Tensor.is_complex", "Tensor.is_nonzero", "minigrad.can_cast",
                     "minigrad.is_complex", "minigrad.is_floating_point", "minigrad.is_nonzero",
                     "minigrad.numel", "minigrad.promote_types", "minigrad.result_type",
                     "minigrad.typename", "minigrad.seed",
                     "minigrad.are_deterministic_algorithms_enabled",
                     "minigrad.get_float32_matmul_precision", "minigrad.get_num_interop_threads",
                     "minigrad.get_num_threads",
                     "minigrad.is_deterministic_algorithms_warn_only_enabled",
                     "minigrad.set_float32_matmul_precision", "minigrad.set_num_threads",
                     "minigrad.use_deterministic_algorithms"], NOT_AN_OP),
    # statistics_losses: comparisons and binning (tests/engine/probes/statistics_losses.py)
    **dict.fromkeys(["minigrad.isclose", "Tensor.isclose", "minigrad.searchsorted",
                     "minigrad.bucketize", "minigrad.histc", "Tensor.histc"],
                    NON_DIFFERENTIABLE),
    # the missing torch functions (tests/engine/test_float_bits.py)
    **dict.fromkeys(["minigrad.signbit", "Tensor.signbit"], NON_DIFFERENTIABLE),
    "minigrad.isin": NON_DIFFERENTIABLE,  # tests/engine/test_misc_ops.py
    **dict.fromkeys(["minigrad.tril_indices", "minigrad.triu_indices"], CREATES),
    "minigrad.broadcast_shapes": NOT_AN_OP,
    # torch's other names and a real tensor's trivial answers (tests/engine/probes/everyday_ops.py)
    **dict.fromkeys(["Tensor.greater", "Tensor.greater_equal", "Tensor.less",
                     "Tensor.less_equal", "Tensor.not_equal", "minigrad.greater",
                     "minigrad.greater_equal", "minigrad.less", "minigrad.less_equal",
                     "minigrad.not_equal", "Tensor.isposinf", "Tensor.isneginf",
                     "Tensor.isreal", "minigrad.isposinf", "minigrad.isneginf",
                     "minigrad.isreal"], NON_DIFFERENTIABLE),
    **dict.fromkeys(["Tensor.is_conj", "Tensor.is_neg", "Tensor.is_signed",
                     "Tensor.is_same_size", "Tensor.ndimension", "Tensor.output_nr",
                     "Tensor.is_shared", "Tensor.share_memory_", "Tensor.name",
                     "Tensor.is_meta", "Tensor.is_sparse", "Tensor.is_sparse_csr",
                     "Tensor.is_quantized", "Tensor.is_nested", "Tensor.is_mkldnn",
                     "Tensor.is_vulkan", "Tensor.is_xla", "Tensor.is_xpu", "Tensor.is_mps",
                     "Tensor.is_ipu", "Tensor.is_maia", "Tensor.is_mtia", "minigrad.is_conj",
                     "minigrad.is_neg", "minigrad.is_signed", "minigrad.is_same_size",
                     "minigrad.detach", "minigrad.detach_", "minigrad.is_inference"],
                    NOT_AN_OP),
    "Tensor.__getattr__": "Python calls it for a name a tensor does not have "
                          "(tests/engine/test_left_out_names.py)",
    # the docstring sweep (tests/engine/probes/doc_examples.py)
    "minigrad.asarray": "aliases its input (history kept) or creates a leaf: not an op",
    # pre-0.4 flag, removed: warns (tests/engine/probes/redteam_books.py)
    "Tensor.volatile": NOT_AN_OP,
    # a new shape over the same memory, refused for a tensor that requires grad: no gradient
    # (tests/engine/test_resize.py)
    **dict.fromkeys(["Tensor.resize_", "Tensor.resize_as_", "minigrad.resize_as_"],
                    "resizes memory in place; a tensor that requires grad cannot be resized"),
    "minigrad.set_default_tensor_type": NOT_AN_OP,  # (the deprecated set_default_dtype)
    # an alias of the same tensor as another class (AliasBackward0, which _alias's entry
    # covers): every op with a subclass in tests/engine/test_tensor_subclasses.py
    "Tensor.as_subclass": "the same tensor as a learner's subclass (test_tensor_subclasses)",
    # deprecated, torch's own custom Function (ResizeBackward), not an op of its derivatives
    # table (tests/engine/probes/redteam_books.py)
    **dict.fromkeys(["Tensor.resize", "Tensor.resize_as"], "a custom Function of torch's"),
}


def public_ops() -> dict[str, tuple[object, str]]:
    """Every public name that could be an op: ``"Tensor.x"``, ``"minigrad.x"``, ``"F.x"``,
    ``"linalg.x"``, mapped to ``(owner, attribute)``."""
    tensor = minigrad.Tensor
    names = {f"Tensor.{n}": (tensor, n) for n in METHODS}
    names |= {f"Tensor.{n}": (tensor, n) for n in dir(tensor) if not n.startswith("_")}
    for n in dir(minigrad):
        obj = getattr(minigrad, n)
        if not n.startswith("_") and callable(obj) and not inspect.isclass(obj):
            names[f"minigrad.{n}"] = (minigrad, n)
    for n in minigrad.linalg.__all__:  # torch.linalg's functions (LinAlgError is a class)
        if not inspect.isclass(getattr(minigrad.linalg, n)):
            names[f"linalg.{n}"] = (minigrad.linalg, n)
    functional = minigrad.nn.functional
    for n, obj in vars(functional).items():
        if not n.startswith("_") and inspect.isfunction(obj) \
                and obj.__module__ == functional.__name__:
            names[f"F.{n}"] = (functional, n)
    return names


class Spy:
    """Records which public ops an entry calls itself (not the ones they call inside)."""

    def __init__(self):
        self.called, self.active, self.depth = set(), False, 0

    def wrap(self, key, fn):
        @functools.wraps(fn)
        def spied(*args, **kwargs):
            if self.active and self.depth == 0:
                self.called.add(key)
            self.depth += 1
            try:
                return fn(*args, **kwargs)
            finally:
                self.depth -= 1

        return spied

    def install(self, monkeypatch, key, owner, attr) -> None:
        raw = inspect.getattr_static(owner, attr)
        if isinstance(raw, property):
            monkeypatch.setattr(owner, attr, property(self.wrap(key, raw.fget)))
        else:
            monkeypatch.setattr(owner, attr, self.wrap(key, getattr(owner, attr)))


def test_every_public_op_has_an_entry(monkeypatch):
    ops = public_ops()
    assert set(NOT_OPS) <= set(ops), f"stale NOT_OPS: {sorted(set(NOT_OPS) - set(ops))}"
    spy = Spy()
    for key, (owner, attr) in ops.items():
        if key not in NOT_OPS:
            spy.install(monkeypatch, key, owner, attr)
    for entry in OPS:
        for sample in samples(entry.name):
            args, kwargs, _ = build(minigrad, sample, "float64", requires_grad)
            spy.active = True
            try:
                entry.op(minigrad, *args, **kwargs)
            except Exception:  # noqa: BLE001, S112 - xfailed entries that raise today
                pass
            finally:
                spy.active = False
    missing = set(ops) - set(NOT_OPS) - spy.called
    assert not missing, f"public ops that no op_db entry calls: {sorted(missing)}"
