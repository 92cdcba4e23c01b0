"""torch.as_strided and Tensor.as_strided against torch, computed at test time: the view's
geometry and values, AsStridedBackward0 and its saved fields, gradients where the view
repeats elements (they add up) or the input repeats memory (they are shared out), in-place
changes through the view, forward mode, double backward and torch's errors. (op_db runs it
through its checks too.)"""

from __future__ import annotations

import numpy as np
import pytest

from tests.torch_compare import both_engines, graph_signature, saved_numbers


def _view_facts(call):
    def facts(lib):
        base = lib.arange(12.0).reshape(3, 4).requires_grad_()
        x = base * 1  # dense memory of its own, with a history
        view = call(lib, x, base)
        out = (str(view.dtype).split(".")[-1], tuple(view.shape), view.stride(),
               view.storage_offset(), view.tolist(), graph_signature(view.grad_fn),
               saved_numbers(view.grad_fn) if view.grad_fn is not None else None,
               view._base is x)
        if view.requires_grad:
            weights = lib.arange(1.0, view.numel() + 1).reshape(tuple(view.shape))
            out += (lib.autograd.grad((view * weights).sum(), base)[0].tolist(),)
        return out
    return facts


CALLS = {
    "offset": lambda lib, x, b: lib.as_strided(x, (2, 2), (1, 2), 1),
    "method, overlapping": lambda lib, x, b: x.as_strided((3, 3), (1, 1)),
    "windows": lambda lib, x, b: lib.as_strided(x, (4, 3), (2, 3)),
    "stride 0": lambda lib, x, b: lib.as_strided(x, (3, 4), (0, 1)),
    "size-1 dim": lambda lib, x, b: lib.as_strided(x, (2, 1, 3), (4, 7, 1), 2),
    "0-d": lambda lib, x, b: lib.as_strided(x, (), (), 5),
    "of a slice, own offset": lambda lib, x, b: lib.as_strided(x[1:], (2,), (1,)),
    "of a slice, offset 0": lambda lib, x, b: lib.as_strided(x[1:], (2,), (1,), 0),
    "of a transpose": lambda lib, x, b: lib.as_strided(x.t(), (2, 2), (1, 4), 5),
    "of a sliced transpose": lambda lib, x, b: lib.as_strided(x[:, 1:].t(), (2, 2), (4, 1)),
    "of an expanded row": lambda lib, x, b: lib.as_strided(x[0].expand(3, 4), (3, 3), (1, 1)),
    "of an expanded row, stride 0": lambda lib, x, b: lib.as_strided(x[0].expand(3, 4),
                                                                     (2, 3), (0, 1)),
    "past the input, within memory": lambda lib, x, b: lib.as_strided(x[0, 1:3], (5,), (2,)),
    "of a leaf": lambda lib, x, b: lib.as_strided(b, (2, 2), (1, 2)),
    "float16": lambda lib, x, b: lib.as_strided(x.half(), (2, 3), (1, 2)),
    "0-d tensor offset": lambda lib, x, b: lib.as_strided(x, [2, 2], [2, 1],
                                                          storage_offset=lib.tensor(1)),
    "lengths differ": lambda lib, x, b: lib.as_strided(x, (2,), (1, 1)),
    "negative stride": lambda lib, x, b: lib.as_strided(x, (2, 2), (-1, 1)),
    "out of bounds": lambda lib, x, b: lib.as_strided(x, (20,), (1,)),
    "out of bounds by the offset": lambda lib, x, b: lib.as_strided(x, (2,), (1,), 11),
    "negative offset": lambda lib, x, b: lib.as_strided(x, (2,), (1,), -1),
    "negative size": lambda lib, x, b: lib.as_strided(x, (-2,), (1,)),
    "int size": lambda lib, x, b: lib.as_strided(x, 2, 1),
    "float stride": lambda lib, x, b: lib.as_strided(x, (2,), (1.0,)),
    "str offset": lambda lib, x, b: lib.as_strided(x, (2,), (1,), "a"),
    "missing": lambda lib, x, b: lib.as_strided(x),
    "method, too many": lambda lib, x, b: x.as_strided((2,), (1,), None, 3),
}


@pytest.mark.parametrize("call", CALLS.values(), ids=CALLS.keys())
def test_as_strided_matches_torch(call):
    both_engines(_view_facts(call))


def test_in_place_through_an_as_strided_view_matches_torch():
    """A change through the view reaches the input (CopySlices), gradients included."""
    def facts(lib):
        base = lib.arange(12.0).requires_grad_()
        x = base * 1
        view = x.as_strided((2, 2), (1, 2), 1)
        view.mul_(lib.tensor([[2.0, 3.0], [4.0, 5.0]]))
        grad = lib.autograd.grad((x * lib.arange(12.0)).sum(), base)[0]
        return graph_signature(x.grad_fn), x.tolist(), grad.tolist(), view._version
    both_engines(facts)


@pytest.mark.parametrize("transposed", [False, True])
def test_as_strided_forward_mode_matches_torch(transposed):
    """The tangent is read where the primal is (a transposed primal's tangent included)."""
    def tangent(lib):
        fw = lib.autograd.forward_ad
        primal = lib.arange(12.0).reshape(3, 4)
        primal = primal.t() if transposed else primal
        with fw.dual_level():
            x = fw.make_dual(primal, lib.tensor(np.arange(12.0).reshape(tuple(primal.shape))
                                                * 10, dtype=lib.float32))
            return fw.unpack_dual(lib.as_strided(x, (3, 2), (1, 3), 1)).tangent.tolist()
    both_engines(tangent)


def test_as_strided_double_backward_matches_torch():
    """Under create_graph the gradient is torch's composition: IndexAddBackward0 where the
    view overlaps, then AsStridedBackward0."""
    def facts(lib):
        base = lib.arange(6.0, dtype=lib.float64).requires_grad_()
        view = lib.as_strided(base, (3, 3), (1, 1))
        grad, = lib.autograd.grad((view ** 2).sum(), base, create_graph=True)
        second, = lib.autograd.grad((grad * grad).sum(), base)
        return graph_signature(grad.grad_fn), grad.tolist(), second.tolist()
    both_engines(facts)


def test_as_strided_under_no_grad_matches_torch():
    def facts(lib):
        base = lib.arange(6.0).requires_grad_()
        with lib.no_grad():
            view = base.as_strided((2,), (2,))
        return view.requires_grad, view.grad_fn is None, view._base is base
    both_engines(facts)
