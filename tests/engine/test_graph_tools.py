"""torch.autograd.graph's tools over whole graphs and passes, against torch: multi-grad hooks
(hand-picked cases and random graphs and passes), gradient edges (also as ``grad``'s inputs and
outputs), ``grad`` with a dict of inputs, ``increment_version``, ``Node.metadata``,
``allow_mutation_on_saved_tensors`` and ``set_multithreading_enabled``."""

from __future__ import annotations

import collections
import warnings

import pytest
import torch
from hypothesis import given, settings
from hypothesis import strategies as st

import minigrad


def outcome(lib, case):
    """What the case returns on ``lib`` (its repr, the library's name taken out), or the
    exception it raises."""
    try:
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            result = case(lib)
        return "OK", repr(result).replace("minigrad", "torch"), [str(w.message) for w in caught]
    except Exception as error:  # noqa: BLE001 - the exception is what we compare
        return type(error).__name__, str(error).replace("minigrad.", "torch.")


def case_1(L):
    out = []
    a = L.tensor([1., 2., 3.], requires_grad=True)
    b = L.tensor([4., 5., 6.], requires_grad=True)
    c, d = a * b, a * b
    L.autograd.graph.register_multi_grad_hook(
        (a, b, c, d), lambda gs: out.append([g is not None for g in gs]))
    c.sum().backward(retain_graph=True)
    c.sum().backward(inputs=(a,), retain_graph=True)
    L.autograd.grad(c.sum(), b, retain_graph=True)  # a leaf hooked: torch refuses
    return out


def case_2(L):
    out = []
    a = L.tensor([1., 2., 3.], requires_grad=True)
    b = L.tensor([4., 5., 6.], requires_grad=True)
    c = (a * b).exp()
    e = c * 2
    handle = L.autograd.graph.register_multi_grad_hook(
        (a, b, c), lambda gs: out.append([None if g is None else g.tolist() for g in gs]))
    e.sum().backward(retain_graph=True)
    L.autograd.grad(e.sum(), [c], retain_graph=True)
    handle.remove()
    e.sum().backward()
    return out


def case_3(L):
    out = []
    a = L.tensor([1., 2., 3.], requires_grad=True)
    b = L.tensor([4., 5., 6.], requires_grad=True)
    c = a * b
    L.autograd.graph.register_multi_grad_hook((a, b), lambda g: out.append(g.tolist()),
                                              mode="any")
    c.sum().backward(retain_graph=True)
    (c * 3).sum().backward()
    return out


def case_4(L):
    return L.autograd.graph.register_multi_grad_hook([], print, mode="some")


def case_5(L):
    return L.autograd.graph.register_multi_grad_hook([L.tensor([1., 2.])], print)


def case_6(L):
    x = L.ones(2, requires_grad=True)
    y = x * 2
    z = y * 3
    e = L.autograd.graph.get_gradient_edge(y)
    ex = L.autograd.graph.get_gradient_edge(x)
    return (type(e.node).__name__, e.output_nr, e.ownership_token, type(ex.node).__name__,
            L.autograd.grad(z.sum(), e, retain_graph=True),
            L.autograd.grad(z.sum(), [ex, x], retain_graph=True),
            L.autograd.grad(e, x, grad_outputs=L.tensor([1., 10.]), retain_graph=True))


def case_7(L):
    return L.autograd.graph.get_gradient_edge(L.ones(2))


def case_8(L):
    x, w = L.ones(2, requires_grad=True), L.ones(2, requires_grad=True)
    y = (x * 2).sum()
    return (L.autograd.grad(y, {"x": x, "w": w}, allow_unused=True, retain_graph=True),
            L.autograd.grad(y, {"x": x, "w": w}, materialize_grads=True))


def case_9(L):
    x = L.ones(2, requires_grad=True)
    return L.autograd.grad((x * 2).sum(), collections.OrderedDict(x=x))


def case_10(L):
    x, w = L.ones(2, requires_grad=True), L.ones(2, requires_grad=True)
    return L.autograd.grad((x * 2).sum(), [x, L.autograd.graph.get_gradient_edge(w)],
                           materialize_grads=True)


def case_11(L):
    x = L.ones(2, requires_grad=True)
    y = x * 2
    versions = [x._version, y._version]
    L.autograd.graph.increment_version(x)
    versions.append(x._version)
    L.autograd.graph.increment_version([x, y])
    versions += [x._version, y._version]
    z = (y * y).sum()
    L.autograd.graph.increment_version(y)
    try:
        z.backward()
    except RuntimeError as e:
        versions.append(str(e))
    return versions


def case_12(L):
    y = L.ones(2, requires_grad=True) * 2
    y.grad_fn.metadata["k"] = 1
    return (y.grad_fn.metadata, "metadata" in dir(y.grad_fn), "_metadata" in dir(y.grad_fn),
            L.ones(2, requires_grad=True).exp().grad_fn.metadata)


def case_13(L):
    with L.autograd.graph.allow_mutation_on_saved_tensors():
        a = L.ones(2, 3, requires_grad=True)
        b = a.clone()
        out = (b ** 2).sum()
        b.sin_()
        out.sum().backward()
        return a.grad.tolist(), b.tolist()


def case_14(L):
    with L.autograd.graph.allow_mutation_on_saved_tensors():
        a = L.tensor([1., 2.], requires_grad=True)
        b = a * 3
        out = (b * b).sum()
    b.mul_(2)
    out.backward()  # outside the block: refused


def case_15(L):
    with L.autograd.graph.allow_mutation_on_saved_tensors():
        with L.autograd.graph.allow_mutation_on_saved_tensors():
            pass


def case_16(L):
    with L.autograd.graph.allow_mutation_on_saved_tensors():
        a = L.tensor([1., 2.], requires_grad=True)
        b = a * 3
        out = (b * b).sum()
        same = out.grad_fn.next_functions[0][0]._saved_self is b
        out.backward()
        return same, a.grad


def case_17(L):
    L.autograd.set_multithreading_enabled(False)
    with L.autograd.set_multithreading_enabled(True):
        pass
    return type(L.autograd.set_multithreading_enabled(True)).__name__


CASES = [v for k, v in sorted(globals().items()) if k.startswith("case_")]


@pytest.mark.parametrize("case", CASES, ids=[c.__name__ for c in CASES])
def test_as_torch(case):
    assert outcome(minigrad, case) == outcome(torch, case)


def apply(op, a, b):
    if op == "mul":
        return a * b
    if op == "add":
        return a + b * 2
    if op == "exp":
        return (a * 0.1).exp()
    return a.sum() * b


@settings(max_examples=60, deadline=None)
@given(st.data())
def test_multi_grad_hook_random_graphs_and_passes(data):
    """A random graph of 2-3 leaves and 2-5 ops, a multi-grad hook (either mode) on a random
    choice of its tensors, then a random sequence of passes (backward, backward with inputs,
    grad with inputs): the hook's calls, in order, are torch's."""
    n_leaves = data.draw(st.integers(2, 3))
    ops = data.draw(st.lists(st.tuples(st.sampled_from(["mul", "add", "exp", "sum2"]),
                                       st.integers(0, 10), st.integers(0, 10)),
                             min_size=2, max_size=5))
    watched = data.draw(st.lists(st.integers(0, n_leaves + len(ops) - 1), min_size=1,
                                 max_size=4, unique=True))
    mode = data.draw(st.sampled_from(["all", "any"]))
    passes = data.draw(st.lists(st.tuples(st.sampled_from(["backward", "inputs", "grad"]),
                                          st.integers(0, 10), st.integers(0, 10)),
                                min_size=1, max_size=3))

    def case(lib):
        tensors = [lib.tensor([1.0 + i, 0.5 - i], requires_grad=True) for i in range(n_leaves)]
        for op, i, j in ops:
            tensors.append(apply(op, tensors[i % len(tensors)], tensors[j % len(tensors)]))
        calls = []

        def fn(grads):
            if mode == "any":
                calls.append(grads.tolist())
            else:
                calls.append([None if g is None else g.tolist() for g in grads])

        lib.autograd.graph.register_multi_grad_hook([tensors[w] for w in watched], fn, mode=mode)
        loss = tensors[-1].sum()
        for kind, i, j in passes:
            some = [tensors[i % len(tensors)], tensors[j % len(tensors)]]
            if kind == "backward":
                loss.backward(retain_graph=True)
            elif kind == "inputs":
                loss.backward(inputs=[t for t in some if t.is_leaf][:1] or None,
                              retain_graph=True)
            else:
                lib.autograd.grad(loss, some, retain_graph=True, allow_unused=True)
            calls.append("|")
        return calls

    assert outcome(minigrad, case) == outcome(torch, case)
