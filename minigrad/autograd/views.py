"""Views and their bookkeeping: what lets an in-place change through a view reach its base.

A view shares memory (and the version counter) with its *base*. Besides its ``grad_fn``, it
remembers its root base (``_base``) and how to look at the base again (``_view_fn``, composed
from the root). Three things use that:

* an in-place op on a view rewrites the base's history as ``CopySlices`` (``rebase_history``);
* a view whose base changed in place after the view was made gets a fresh
  ``AsStridedBackward0`` node pointing at the base (``refresh_grad_fn``), as in torch;
* forward-mode AD gives a view changed in place a tangent that is a view of its base's.
"""

from __future__ import annotations

import weakref

import numpy as np

from minigrad.autograd.graph import Node, record
from minigrad.autograd.special_nodes import CopySlices


def make_view(base, out, view_fn) -> None:
    """Make ``out`` a view of ``base``: ``view_fn`` takes the same view of any tensor shaped
    like ``base``."""
    parent_fn = base._view_fn
    out._base = base._base if base._base is not None else base
    out._view_fn = view_fn if parent_fn is None else _compose(parent_fn, view_fn)
    out._version_counter = base._version_counter
    out._view_version = base._version_counter.value
    out._is_inference = base._is_inference  # a view is an inference tensor iff its base is


def _compose(first, second):
    return lambda t: second(first(t))


def alias_of(t):
    """``t`` returned as a new tensor viewing the same memory (a custom Function that returns
    one of its inputs), as in torch."""
    out = type(t)._make(t._data)
    make_view(t, out, lambda x: x)
    return out


def refresh_grad_fn(view) -> None:
    """A view whose base changed in place since the view was made (its version is behind):
    the view's old ``grad_fn`` describes old values, so, like torch, give it a new
    ``AsStridedBackward0`` node that reads the base as it is now."""
    view._view_version = view._version_counter.value
    base = view._base
    if base.requires_grad:
        record(AsStridedBackward0, (base,), (view,), view_fn=view._view_fn,
               self_shape=base._data.shape)


def rebase_history(view, node, inputs, output_name=None) -> None:
    """An in-place op (its ``node`` read ``inputs``, the view first) changed ``view``: the
    change is recorded on the base, whose new ``grad_fn`` is ``CopySlices``."""
    base = view._base
    record(CopySlices, (base, *inputs[1:]), (base,), view_fn=view._view_fn, fn=node)
    view.grad_fn  # noqa: B018 - like torch, give the view its new grad_fn at once
    if output_name is not None and view.grad_fn is not None:
        # the version error names the view's grad_fn while that node is alive, as torch's
        node._saved[output_name].view_grad_fn = weakref.ref(view.grad_fn)


class AsStridedBackward0(Node):
    """The grad_fn torch gives a view whose base changed in place after the view was made.

    The view may repeat base elements (an ``expand`` in its chain): like torch, each base
    element gets the sum of the gradients of every view element that reads it."""

    def backward(self, grad):
        n = int(np.prod(self.self_shape, dtype=np.int64))
        positions = type(grad)._make(np.arange(n).reshape(self.self_shape))
        where = self.view_fn(positions).reshape(-1)
        flat = grad.new_zeros(n).index_put((where,), grad.reshape(-1), accumulate=True)
        return flat.view(*self.self_shape)

    def jvp(self, t):
        return self.view_fn(t)
