"""Random custom autograd Functions, each run on minigrad and on torch, every observable compared.

A drawn *spec* (plain tuples and dicts) describes one Function: its arguments (tensors that
require grad or not, made by ops or leaves, and non-tensor values), its outputs (new tensors,
the input returned as-is, views of inputs, inputs changed in place and marked dirty, integer
and non-differentiable outputs, ints/None/tuples), what it saves (inputs and outputs in any
order, ``None``), ``set_materialize_grads(False)``, ``once_differentiable``, the ``setup_context``
style, a ``jvp``, and a backward that may be deliberately wrong (too few or too many
gradients, a wrong shape, a gradient for a non-tensor argument). Then it is used: in a bigger
graph, with tensor and node hooks, by ``backward`` (with ``retain_graph`` and a second call),
by ``autograd.grad`` under ``create_graph`` (first and second derivatives), by
``gradgradcheck`` and by forward mode.

``make_function(lib, spec)`` builds the same class from the spec for either engine (closures,
no source text), and ``run(lib, spec, values)`` records a *trace* of everything observable:
values, gradients, ``grad_fn`` names and ``next_functions`` shapes, ``needs_input_grad``, what
hooks saw, exceptions (type and message) and warnings. The two traces must be equal (float64
values to a tight tolerance). ``MINIGRAD_FN_EXAMPLES`` sets the number of examples (a long
run: ``MINIGRAD_FN_EXAMPLES=20000``).
"""

from __future__ import annotations

import os
import re
import warnings

import numpy as np
import pytest
import torch
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

import minigrad
from tests.torch_compare import graph_signature, normalize_text

EXAMPLES = int(os.environ.get("MINIGRAD_FN_EXAMPLES", "1000"))
SHAPES = ((3,), (3,), (2, 3))
KS = (0.5, -1.5, 2.0)
NON_TENSORS = (3, None, "s", (1, 2))
# tensor outputs; the first three are new tensors computed from the input
NEW = ("scale", "exp", "square")
TENSOR_KINDS = NEW + ("input", "view", "dirty", "long", "nondiff", "nondiff_input",
                     "dirty_new")
VIEWS = ("slice", "unsqueeze", "view_as")
BACKWARD_QUIRKS = ("ok", "ok", "ok", "needs", "none_all", "too_few", "too_many_none",
                   "too_many_value", "bad_shape", "expand", "nontensor_grad", "float32")


RARELY = st.sampled_from((False,) * 15 + (True,))  # (hypothesis favours both ends of integers)


# --- the spec ----------------------------------------------------------------------------------
@st.composite
def specs(draw):
    n_in = draw(st.integers(1, 3))
    # how each tensor argument is made: a leaf that requires grad, a constant, or an op result
    # how each tensor argument is made: a leaf that requires grad, a constant, an op's result,
    # a view of an op's result, a view of a leaf that requires grad
    inputs = tuple(draw(st.sampled_from(("leaf", "leaf", "const", "op", "view", "leafview")))
                   for _ in range(n_in))
    shapes = tuple(draw(st.sampled_from(SHAPES)) for _ in range(n_in))
    n_other = draw(st.integers(0, 2))
    others = [("c", draw(st.sampled_from(NON_TENSORS))) for _ in range(n_other)]
    args = draw(st.permutations([("t", i) for i in range(n_in)] + others))
    outs, dirty_or_alias = [], set()
    for _ in range(draw(st.integers(1, 3))):
        kind = draw(st.sampled_from(TENSOR_KINDS))
        i = draw(st.integers(0, n_in - 1))
        if kind in ("dirty", "input", "view", "nondiff_input"):  # one alias or change per input
            if i in dirty_or_alias or (kind == "dirty" and inputs[i] in ("leaf", "leafview")
                                       and not draw(st.sampled_from((False,) * 4 + (True,)))):
                kind = "scale"
            else:
                dirty_or_alias.add(i)
        k = draw(st.sampled_from(KS))
        if kind == "view":
            k = draw(st.sampled_from(VIEWS))
        outs.append((kind, i, k))
    n_tensor_out = len(outs)
    for _ in range(draw(st.integers(0, 2))):  # non-tensor outputs, anywhere
        outs.insert(draw(st.integers(0, len(outs))),
                    ("py", draw(st.sampled_from(NON_TENSORS)), None))
    tensor_out = [j for j, o in enumerate(outs) if o[0] != "py"]
    save_in = set(draw(st.sets(st.integers(0, n_in - 1))))
    save_out = set(draw(st.sets(st.sampled_from(tensor_out))))
    for j, (kind, i, _) in enumerate(outs):  # what each formula needs is saved
        if kind == "square":
            save_in.add(i)
        elif kind == "exp" and j not in save_out and i not in save_in:
            save_out.add(j)
    saves = [("in", i) for i in sorted(save_in)] + [("out", j) for j in sorted(save_out)]
    saves += [("none", 0)] * draw(st.integers(0, 1))
    saves = tuple(draw(st.permutations(saves)))
    spec = {
        "inputs": inputs,
        "shapes": shapes,
        "args": tuple(args),
        "outs": tuple(outs),
        "as_tuple": len(outs) > 1 or draw(st.booleans()),
        "saves": saves,
        "setup_context": draw(st.booleans()),
        "materialize": draw(st.booleans()),
        "once": draw(st.sampled_from((False, False, False, True))),
        "ctx_attr": draw(st.booleans()),
        "jvp": draw(st.sampled_from((True, True, True, False))),
        "jvp_quirk": draw(st.sampled_from(("ok", "ok", "ok", "ok", "as_is", "too_few", "number",
                                           "clone_views", "tangent_nondiff"))),
        "save_for_forward": draw(st.booleans()),
        "quirk": draw(st.sampled_from(BACKWARD_QUIRKS)),
        "after": draw(st.sampled_from(("sum", "exp", "inplace"))),
        "inplace_out": draw(st.integers(0, n_tensor_out - 1)),
        "weights": tuple(draw(st.sets(st.integers(0, n_tensor_out - 1), min_size=1))),
        "tensor_hook": draw(st.sampled_from((None,) + tuple(("out", j) for j in range(n_tensor_out))
                                            + tuple(("leaf", i) for i in range(n_in)))),
        "node_hook": draw(st.sampled_from((None, "post", "pre", "pre_replace", "post_replace"))),
        "mode": draw(st.sampled_from(("backward", "retain", "again", "create", "create",
                                      "create_backward", "grad_outputs", "no_grad",
                                      "gradgradcheck", "forward", "forward"))),
        # rarely: mark an input dirty without returning it, save a non-tensor
        "unreturned_dirty": draw(RARELY),
        "save_number": draw(RARELY),
        "tangents": tuple(draw(st.booleans()) for _ in range(n_in)),
    }
    return spec


# --- the Function, for either engine -----------------------------------------------------------
def _new(kind, x, k):
    if kind == "scale":
        return x * k
    if kind == "exp":
        return (x * k).exp()
    return x * x * k


def _view(x, how):
    if how == "slice":
        return x[:]
    if how == "unsqueeze":
        return x.unsqueeze(0)
    return x.view_as(x)


def make_function(lib, spec, log):
    """The Function described by ``spec`` for ``lib`` (torch or minigrad); ``log`` collects
    what its methods see (needs_input_grad, saved tensors' graph facts)."""
    args, outs, saves = spec["args"], spec["outs"], spec["saves"]
    n_args = len(args)
    tensor_pos = [p for p, (what, _) in enumerate(args) if what == "t"]
    # the shape of the i-th tensor argument
    shape_of = [spec["shapes"][n] for what, n in args if what == "t"]

    def forward_body(ctx, xs):
        """The outputs; ``ctx`` is None in the setup_context style."""
        ys = [None] * len(outs)
        for j, (kind, i, k) in enumerate(outs):  # new tensors and views first
            if kind in NEW:
                ys[j] = _new(kind, xs[i], k)
            elif kind == "input":
                ys[j] = xs[i]
            elif kind == "view":
                ys[j] = _view(xs[i], k)
            elif kind == "long":
                ys[j] = (xs[i] > 0).long()
            elif kind == "nondiff":
                ys[j] = xs[i] * k
            elif kind == "nondiff_input":
                ys[j] = xs[i]
            elif kind == "dirty_new":  # a new tensor, changed in place and marked dirty
                ys[j] = (xs[i] * k).add_(0.0)
            elif kind == "py":
                ys[j] = i
        for j, (kind, i, k) in enumerate(outs):  # then the in-place changes
            if kind == "dirty":
                ys[j] = xs[i].mul_(k)
        return ys

    def fill_ctx(ctx, xs, ys):
        if not spec["materialize"]:
            ctx.set_materialize_grads(False)
        dirty = [ys[j] for j, o in enumerate(outs) if o[0] in ("dirty", "dirty_new")]
        if spec["unreturned_dirty"]:
            dirty.append(xs[0])
        if dirty:
            ctx.mark_dirty(*dirty)
        nondiff = [ys[j] for j, o in enumerate(outs) if o[0] in ("nondiff", "nondiff_input")]
        if nondiff:
            ctx.mark_non_differentiable(*nondiff)
        to_save = [None if what == "none" else xs[n] if what == "in" else ys[n]
                   for what, n in saves]
        ctx.save_for_backward(*to_save, *([7] if spec["save_number"] else []))
        if spec["ctx_attr"]:
            ctx.ks = tuple(o[2] if o[0] in NEW + ("dirty", "dirty_new", "nondiff") else None
                           for o in outs)
        ctx.fw = (tuple(x.detach() for x in xs), None)
        if spec["save_for_forward"]:
            ctx.save_for_forward(*xs)

    def tensors_of(a):
        return [a[p] for p in tensor_pos]

    def result(ys):
        return tuple(ys) if spec["as_tuple"] else ys[0]

    def backward(ctx, *grads):
        log.append(("needs in backward", tuple(ctx.needs_input_grad)))
        log.append(("grads", tuple(None if g is None else (tuple(g.shape), g.requires_grad)
                                   for g in grads)))
        saved = ctx.saved_tensors
        log.append(("saved", tuple(None if s is None else
                                   (s.requires_grad, _name(s.grad_fn), s._version)
                                   for s in saved)))
        saved = dict(zip(saves, saved))
        ks = ctx.ks if spec["ctx_attr"] else tuple(o[2] for o in outs)
        gx = [None] * len(tensor_pos)
        for j, ((kind, i, _), g) in enumerate(zip(outs, grads)):
            if g is None or kind in ("long", "nondiff", "nondiff_input", "py"):
                continue
            k = ks[j]
            if kind in ("scale", "dirty", "dirty_new"):
                term = g * k
            elif kind == "exp":
                y = saved.get(("out", j))
                term = g * (y if y is not None else (saved[("in", i)] * k).exp()) * k
            elif kind == "square":
                term = g * saved[("in", i)] * (2 * k)
            else:  # the input itself, or a view of it
                term = g.reshape(shape_of[i])
            gx[i] = term if gx[i] is None else gx[i] + term
        result = [None] * n_args
        for i, p in enumerate(tensor_pos):
            result[p] = gx[i]
        quirk = spec["quirk"]
        if quirk == "needs":
            result = [g if ctx.needs_input_grad[p] else None for p, g in enumerate(result)]
        elif quirk == "none_all":
            result = [None] * n_args
        elif quirk == "too_few":
            result = result[:-1]
        elif quirk == "too_many_none":
            result = result + [None]
        elif quirk == "too_many_value":
            result = result + [grads[0] if grads[0] is not None else None]
        elif quirk in ("bad_shape", "expand", "float32"):
            for p, g in enumerate(result):
                if g is not None:
                    result[p] = (g[..., :2] if quirk == "bad_shape" else
                                 g.unsqueeze(0).expand(2, *g.shape) if quirk == "expand" else
                                 g.float())
                    break
        elif quirk == "nontensor_grad" and len(tensor_pos) < n_args:
            p = next(p for p in range(n_args) if p not in tensor_pos)
            result[p] = grads[0] if grads[0] is not None else None
        return tuple(result) if len(result) != 1 else result[0]

    def jvp(ctx, *tangents):
        ts = tensors_of(tangents)
        xs = ctx.saved_tensors if spec["save_for_forward"] else ctx.fw[0]
        quirk = spec["jvp_quirk"]
        out = []
        for kind, i, k in outs:
            t = None if kind == "py" else ts[i]
            if kind == "py":
                out.append(None)
            elif t is None:  # (None for a differentiable output trips an assert in torch)
                shape = shape_of[i]
                shape = (1, *shape) if kind == "view" and k == "unsqueeze" else shape
                out.append(None if kind in ("long", "nondiff", "nondiff_input")
                           else lib.zeros(shape, dtype=lib.float64))
            elif kind in ("scale", "dirty_new"):
                out.append(t * k)
            elif kind in ("nondiff", "nondiff_input"):
                out.append(t * 2 if quirk == "tangent_nondiff" else None)
            elif kind == "exp":
                out.append(t * (xs[i] * k).exp() * k)
            elif kind == "square":
                out.append(t * xs[i] * (2 * k))
            elif kind == "input":
                out.append(t if quirk == "as_is" else t.view_as(t))
            elif kind == "view":
                out.append(_view(t, k).clone() if quirk == "clone_views" else _view(t, k))
            elif kind == "dirty":
                out.append(t.mul_(k))
            else:  # long
                out.append(None)
        if quirk == "too_few":
            out = out[:-1]
        elif quirk == "number":
            out[0] = 3
        return tuple(out) if spec["as_tuple"] or len(out) != 1 else out[0]

    body = {}
    if spec["setup_context"]:
        def forward(*a):
            return result(forward_body(None, tensors_of(a)))

        def setup_context(ctx, inputs, output):
            log.append(("needs in setup_context", tuple(ctx.needs_input_grad)))
            ys = list(output) if spec["as_tuple"] else [output]
            fill_ctx(ctx, tensors_of(inputs), ys)

        body["setup_context"] = staticmethod(setup_context)
    else:
        def forward(ctx, *a):
            log.append(("needs in forward", tuple(ctx.needs_input_grad)))
            xs = tensors_of(a)
            ys = forward_body(ctx, xs)
            fill_ctx(ctx, xs, ys)
            return result(ys)

    body["forward"] = staticmethod(forward)
    body["backward"] = staticmethod(lib.autograd.function.once_differentiable(backward)
                                    if spec["once"] else backward)
    if spec["jvp"]:
        body["jvp"] = staticmethod(jvp)
    return type("F", (lib.autograd.Function,), body)


def _name(node):
    return None if node is None else normalize_text(node.name())


# --- running it --------------------------------------------------------------------------------
def _array(t):
    if t is None:
        return None
    if isinstance(t, torch.Tensor):
        return ("T", str(t.dtype).removeprefix("torch."), t.detach().numpy().copy())
    return ("T", t.dtype.name, np.array(t.detach()._data, copy=True))


def _tensor_facts(t):
    """What a user can see of a tensor's place in the graph."""
    facts = (tuple(t.shape), t.requires_grad, t.is_leaf, t._is_view(), t._version,
             _name(t.grad_fn))
    return facts + (None if t.grad_fn is None else graph_signature(t.grad_fn),)


def _inputs(lib, spec, values):
    """The leaves and the Function's arguments."""
    leaves, args = [], []
    for i, how in enumerate(spec["inputs"]):
        shape = spec["shapes"][i]
        data = values[i][:int(np.prod(shape))].reshape(shape)
        leaf = lib.tensor(data, dtype=lib.float64, requires_grad=how != "const")
        leaves.append(leaf)
        args.append(leaf * 1.5 if how == "op" else (leaf * 1.5)[:] if how == "view"
                    else leaf[:] if how == "leafview" else leaf)
    full = [args[n] if what == "t" else n for what, n in spec["args"]]
    return leaves, full


def run(lib, spec, values):
    """Everything observable about the spec's Function on ``lib``, as a list of events; an
    exception ends the list."""
    trace = []
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            _run(lib, spec, values, trace)
        except Exception as e:  # noqa: BLE001 - the error itself is compared
            trace.append(("error", type(e).__name__, _message(e)))
    seen = []
    for w in caught:
        event = ("warning", w.category.__name__, _message(w.message))
        # gradcheck calls the Function as often as its own implementation needs
        if spec["mode"] != "gradgradcheck" or event not in seen:
            trace.append(event)
        seen.append(event)
    return trace


def _message(e) -> str:
    text = normalize_text(str(e)).split("\nException raised from")[0]
    text = re.sub(r" \(Triggered internally at .*\)$", "", text)
    return re.sub(r"0x[0-9a-f]+", "0x", text)


def _run(lib, spec, values, trace):
    # the Function's methods write into the trace too (but gradcheck calls it as often as
    # its own implementation needs)
    log = [] if spec["mode"] == "gradgradcheck" else trace
    fn = make_function(lib, spec, log)
    leaves, args = _inputs(lib, spec, values)
    if spec["mode"] == "forward":
        _forward_mode(lib, spec, fn, args, trace)
        return
    if spec["mode"] == "gradgradcheck":
        _gradgradcheck(lib, spec, fn, args, leaves, trace)
        return
    if spec["mode"] == "no_grad":
        with lib.no_grad():
            out = fn.apply(*args)
    else:
        out = fn.apply(*args)
    outs = list(out) if spec["as_tuple"] else [out]
    trace.append(("output types", tuple(type(o).__name__.replace("Tensor", "T")
                                        if not isinstance(o, lib.Tensor) else "T"
                                        for o in outs)))
    trace.append(("python outputs", tuple(o for o in outs if not isinstance(o, lib.Tensor))))
    tensors = [o for o in outs if isinstance(o, lib.Tensor)]
    for t in tensors:
        trace.append(("output", _array(t), _tensor_facts(t)))
    for a in args:
        if isinstance(a, lib.Tensor):
            trace.append(("input after", _array(a), _tensor_facts(a)))
    _hooks(spec, tensors, leaves, trace)
    diff = [t for t in tensors if t.requires_grad]
    if not diff:
        return
    if spec["after"] == "inplace":
        tensors[spec["inplace_out"]].add_(1.0)
        trace.append(("after in-place", _tensor_facts(tensors[spec["inplace_out"]])))
    loss = _loss(spec, tensors)
    trace.append(("loss", _array(loss), _tensor_facts(loss)))
    mode = spec["mode"]
    if mode in ("backward", "retain", "again"):
        loss.backward(retain_graph=mode == "retain")
        trace.append(("grads", [_array(x.grad) for x in leaves]))
        if mode != "backward":
            _loss(spec, tensors).backward() if mode == "again" else loss.backward()
            trace.append(("grads again", [_array(x.grad) for x in leaves]))
        return
    if mode == "grad_outputs":  # the gradients of the Function's outputs and arguments
        wanted = [t for t in tensors + [a for a in args if isinstance(a, lib.Tensor)]
                  if t.requires_grad]
        g = lib.autograd.grad(loss, wanted, allow_unused=True, retain_graph=True)
        trace.append(("wrt outputs and arguments", [_array(d) for d in g]))
        return
    wanted = [x for x in leaves if x.requires_grad]
    g = lib.autograd.grad(loss, wanted, create_graph=True, allow_unused=True)
    trace.append(("first", [(_array(d), None if d is None else _tensor_facts(d)) for d in g]))
    used = [d * (i + 1.5) for i, d in enumerate(g) if d is not None and d.requires_grad]
    if not used:
        return
    if mode == "create_backward":  # runs every node, the once_differentiable Error too
        sum(d.sum() for d in used).backward()
        trace.append(("second by backward", [_array(x.grad) for x in leaves]))
        return
    gg = lib.autograd.grad(sum(d.sum() for d in used), wanted, allow_unused=True)
    trace.append(("second", [_array(d) for d in gg]))


def _loss(spec, tensors):
    total = None
    for n, j in enumerate(spec["weights"]):
        t = tensors[j]
        if not t.requires_grad:
            continue
        term = (t.exp() if spec["after"] == "exp" else t) * (n + 1.0)
        term = term.sum()
        total = term if total is None else total + term
    return total if total is not None else sum(t.sum() for t in tensors if t.requires_grad)


def _hooks(spec, tensors, leaves, trace):
    if spec["tensor_hook"] is not None:
        where, j = spec["tensor_hook"]
        t = tensors[j] if where == "out" else leaves[j]
        if t.requires_grad:
            def tensor_hook(g):
                trace.append(("tensor hook", _array(g)))
                return None if g is None else g * 2

            t.register_hook(tensor_hook)
    node = next((t.grad_fn for t in tensors if t.grad_fn is not None), None)
    how = spec["node_hook"]
    if node is None or how is None:
        return
    if how.startswith("pre"):
        def prehook(grad_outputs):
            trace.append(("prehook", [_array(g) for g in grad_outputs]))
            if how == "pre_replace":
                return tuple(None if g is None else g * 3 for g in grad_outputs)
            return None

        node.register_prehook(prehook)
    else:
        def posthook(grad_inputs, grad_outputs):
            trace.append(("posthook", [_array(g) for g in grad_inputs],
                          [_array(g) for g in grad_outputs]))
            if how == "post_replace":
                return tuple(None if g is None else g * 0.5 for g in grad_inputs)
            return None

        node.register_hook(posthook)


def _gradgradcheck(lib, spec, fn, args, leaves, trace):
    if any(o[0] == "dirty" for o in spec["outs"]) or not any(x.requires_grad for x in leaves):
        return  # an in-place Function changes gradcheck's inputs; nothing to check
    positions = [p for p, (what, _) in enumerate(spec["args"]) if what == "t"]

    def f(*xs):
        full = list(args)
        for p, x in zip(positions, xs):
            full[p] = x
        out = fn.apply(*full)
        outs = out if isinstance(out, tuple) else (out,)
        return tuple(o for o in outs if isinstance(o, lib.Tensor) and o.requires_grad)

    xs = [x.detach().requires_grad_(x.requires_grad) for x in leaves]
    if not f(*xs):
        return
    ok = lib.autograd.gradgradcheck(f, xs, raise_exception=False)
    trace.append(("gradgradcheck", ok))


def _forward_mode(lib, spec, fn, args, trace):
    fwad = lib.autograd.forward_ad
    with fwad.dual_level():
        duals = []
        n = 0
        for a in args:
            if isinstance(a, lib.Tensor):
                if spec["tangents"][n]:
                    tangent = lib.ones_like(a) * (n + 0.5)
                    a = fwad.make_dual(a.detach() * 1.0, tangent)
                n += 1
            duals.append(a)
        out = fn.apply(*duals)
        outs = list(out) if spec["as_tuple"] else [out]
        for o in outs:
            if isinstance(o, lib.Tensor):
                primal, tangent = fwad.unpack_dual(o)
                trace.append(("dual", _array(primal), _array(tangent)))
        for a in duals:
            if isinstance(a, lib.Tensor):
                trace.append(("input tangent after", _array(fwad.unpack_dual(a)[1])))


# --- comparing ---------------------------------------------------------------------------------
def _same(a, b) -> bool:
    if isinstance(a, tuple) and len(a) == 3 and isinstance(a[2], np.ndarray):
        return (isinstance(b, tuple) and len(b) == 3 and b[0] == "T" and a[1] == b[1]
                and a[2].shape == b[2].shape
                and np.allclose(a[2], b[2], rtol=1e-12, atol=1e-14, equal_nan=True))
    if isinstance(a, list | tuple):
        return (type(a) is type(b) and len(a) == len(b)
                and all(_same(x, y) for x, y in zip(a, b)))
    return a == b


def assert_same_trace(m, t):
    for n, (a, b) in enumerate(zip(m, t)):
        assert _same(a, b), f"event {n}:\n minigrad: {a}\n torch:    {b}\n" \
                            f"torch trace: {t}"
    assert len(m) == len(t), f"minigrad: {m[len(t):]}\n torch: {t[len(m):]}"


def _warm_up_torch():
    """torch's first forward-AD call imports modules that warn (DeprecationWarning): done
    once here, so the traces hold only what the Function itself caused."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        with torch.autograd.forward_ad.dual_level():
            torch.autograd.forward_ad.make_dual(torch.zeros(1), torch.ones(1)).exp()


_warm_up_torch()

values = st.lists(st.lists(st.floats(-1.5, 1.5), min_size=6, max_size=6),
                  min_size=3, max_size=3)


@settings(deadline=None, max_examples=EXAMPLES, suppress_health_check=[HealthCheck.too_slow])
@given(specs(), values)
def test_generated_function_matches_torch(spec, vals):
    vals = np.array(vals, dtype=np.float64)
    t_trace = run(torch, spec, vals)
    # An INTERNAL ASSERT is a bug of torch's own (its message asks for a report), not an
    # answer to mirror: such an example has no oracle. (One seen: a view input marked dirty
    # and returned, after a constant argument, differentiated with create_graph: CopySlices
    # asserts in tensor.cpp.)
    assume(not any(e[0] == "error" and "INTERNAL ASSERT FAILED" in str(e[2]) for e in t_trace))
    assert_same_trace(run(minigrad, spec, vals), t_trace)


# --- the differences the generator found, pinned --------------------------------------------
BASE = {"inputs": ("leaf",), "shapes": ((3,), (3,), (3,)), "args": (("t", 0),),
        "outs": (("scale", 0, 0.5),), "as_tuple": False, "saves": (), "setup_context": False,
        "materialize": True,
        "once": False, "ctx_attr": False, "jvp": True, "jvp_quirk": "ok",
        "save_for_forward": False, "quirk": "ok", "after": "sum", "inplace_out": 0,
        "weights": (0,), "tensor_hook": None, "node_hook": None, "mode": "backward",
        "unreturned_dirty": False, "save_number": False, "tangents": (True,)}
TWO = {"inputs": ("leaf", "leaf"), "args": (("t", 0), ("t", 1)), "tangents": (False, True)}
SCALE2 = (("scale", 0, 0.5), ("scale", 0, 0.5))
VIEW_DIRTY = {"inputs": ("view",), "outs": (("dirty", 0, 0.5),)}
FOUND = {
    "saved_tensors after the graph was freed, nothing saved": {"mode": "again"},
    "a saved input that is also returned as-is": {
        "outs": (("square", 0, 0.5), ("input", 0, 0.5)), "as_tuple": True,
        "saves": (("in", 0),), "mode": "create"},
    "a post-hook sees None for an output without gradient": {
        "outs": SCALE2, "as_tuple": True, "node_hook": "post"},
    "a tensor hook is called with None": {
        "outs": SCALE2, "as_tuple": True, "tensor_hook": ("out", 1)},
    "a leaf's hook is called with None": {"quirk": "none_all", "tensor_hook": ("leaf", 0)},
    "backward gets None for a non-tensor output": {
        "outs": (("py", 3, None), ("scale", 0, 0.5)), "as_tuple": True},
    "once_differentiable's Error node reads fresh leaves": {
        "once": True, "mode": "gradgradcheck"},
    "setup_context saving an input returned as-is": {
        "outs": (("input", 0, 0.5), ("scale", 0, 0.5)), "as_tuple": True,
        "saves": (("out", 0),), "setup_context": True},
    "a post-hook sees the gradient of a constant input": {
        "inputs": ("leaf", "const"), "args": (("t", 1), ("t", 0)), "node_hook": "post"},
    "a materialized zero gradient is at version 1": {
        **TWO, "outs": (("scale", 0, 0.5), ("input", 1, 0.5)), "as_tuple": True,
        "once": True, "mode": "create"},
    "jvp's tangent for an input returned as-is goes to its base": {
        **TWO, "materialize": False, "mode": "forward", "tangents": (False, True),
        "outs": (("input", 0, 0.5),)},
    "grad() captures before the node's pre-hooks": {
        "inputs": ("op", "const"), "args": (("t", 1), ("t", 0)),
        "outs": (("scale", 0, 0.5), ("dirty", 0, 0.5)), "as_tuple": True,
        "node_hook": "pre_replace", "mode": "create", "weights": (0, 1)},
    "save_for_backward is checked only when a graph is recorded": {
        "inputs": ("const",), "unreturned_dirty": True, "save_number": True},
    "mark_dirty on a new tensor warns": {"outs": (("dirty_new", 0, 0.5),)},
    "a dirty view's CopySlices refuses a second backward": {
        "inputs": ("view",), "outs": (("input", 0, 0.5),), "unreturned_dirty": True,
        "mode": "again"},
    "a dirty view's CopySlices takes the node's edges": {
        **TWO, "inputs": ("leaf", "view"), "outs": (("dirty", 1, 0.5),)},
    "a non-differentiable input returned as-is keeps its tangent": {
        "outs": (("scale", 0, 0.5), ("nondiff_input", 0, 0.5)), "as_tuple": True,
        "mode": "forward"},
    "a saved dirty view is saved as an output": {**VIEW_DIRTY, "saves": (("out", 0),)},
    "once_differentiable's leaves for an integer gradient": {
        "args": (("t", 0), ("c", 3)), "outs": (("long", 0, 0.5), ("scale", 0, 0.5)),
        "as_tuple": True, "quirk": "nontensor_grad", "once": True, "mode": "gradgradcheck"},
    "jvp returning a number": {"jvp_quirk": "number", "mode": "forward"},
    "CopySlices with no gradient for the view": {**VIEW_DIRTY, "quirk": "none_all"},
    "CopySlices with a gradient of the wrong shape": {**VIEW_DIRTY, "quirk": "bad_shape"},
    "CopySlices with a gradient of a broadcast shape": {**VIEW_DIRTY, "quirk": "expand"},
    "a view reads its tangent through its base": {
        "inputs": ("leaf", "view", "leaf"), "args": (("t", 0), ("t", 1), ("t", 2)),
        "outs": (("input", 1, 0.5),), "materialize": False, "mode": "forward",
        "tangents": (False, False, True)},
    "a view of a dual input made in forward reads the input's tangent": {
        "inputs": ("leaf", "leaf", "leaf"), "args": (("t", 0), ("t", 1), ("t", 2)),
        "outs": (("view", 0, "slice"), ("view", 2, "slice")), "as_tuple": True,
        "materialize": False, "mode": "forward", "tangents": (False, False, True)},
}


@pytest.mark.parametrize("name", FOUND)
def test_found_difference_stays_fixed(name):
    spec = {**BASE, **FOUND[name]}
    vals = np.array([[0.5, -1.0, 1.5, 0.75, -0.25, 1.0], [-0.5, 1.0, 0.25, 0.5, 1.5, -1.0],
                     [1.25, 0.0, -1.5, -0.75, 0.5, 2.0]])
    assert_same_trace(run(minigrad, spec, vals), run(torch, spec, vals))
