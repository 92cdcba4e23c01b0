"""Blocks of a backward graph: which nodes one piece of forward code built, to draw them folded.

A graph of a real model has hundreds of nodes, and a drawing of all of them is unreadable. What
a reader wants is one box per layer, or per step of a loop, opened only when asked. A *block*
names a piece of forward code by the tensors that went in and came out of it;
``block_nodes`` then finds the backward nodes that piece built, from the graph alone:

* every node reachable (through ``next_functions``) from the outputs' ``grad_fn``,
* except those reachable from the inputs (they were built before the block ran), and the
  ``AccumulateGrad`` of a leaf input,
* and except nodes that something outside the block also uses: a weight shared by twenty steps
  of a loop belongs to none of them, so it stays in the drawing with an arrow into each step.

The same rules serve minigrad and torch, since both expose ``grad_fn``, ``next_functions`` and
``AccumulateGrad.variable``. ``record_modules`` makes one block per call of each child of a
model. It wraps each child's ``forward`` for the duration of a ``with`` block instead of using
forward hooks, because minigrad's modules have no hooks and the same lesson code must run on
both engines. Nothing here imports torch (``coursekit.viz`` says why).
"""

from __future__ import annotations

from contextlib import contextmanager


def _tensors(obj) -> tuple:
    """The tensors in ``obj``: a tensor, or a (nested) tuple/list of them and other things."""
    if isinstance(obj, tuple | list):
        return tuple(t for x in obj for t in _tensors(x))
    return (obj,) if hasattr(obj, "grad_fn") and hasattr(obj, "requires_grad") else ()


class Block:
    """A named piece of forward code: the tensors that came out of it and went into it."""

    def __init__(self, name: str, outputs, inputs=()):
        self.name = name
        self.outputs = _tensors(outputs)
        self.inputs = _tensors(inputs)

    def __repr__(self) -> str:
        return f"Block({self.name!r}, {len(self.outputs)} outputs, {len(self.inputs)} inputs)"


class Blocks(list):
    """The blocks to fold, in the order they were recorded (which fixes the DOT ids)."""

    def add(self, name: str, outputs, inputs=()):
        """Record a block and return ``outputs``; a name used twice gets `` #2``, `` #3``..."""
        taken = {b.name for b in self}
        unique, k = name, 1
        while unique in taken:
            k += 1
            unique = f"{name} #{k}"
        self.append(Block(unique, outputs, inputs))
        return outputs

    @property
    def names(self) -> list[str]:
        return [b.name for b in self]


@contextmanager
def record_modules(model, blocks: Blocks | None = None):
    """``with record_modules(model) as blocks:`` records one block per call of each child.

    A block is named after the child and its class (``"0: Linear"``; a second call of the
    same child gives ``"0: Linear #2"``).

    Works for minigrad and torch modules alike: while the ``with`` block runs, each child's
    ``forward`` is an instance attribute that calls the real one and records its tensor
    arguments and result. Afterwards the children are as they were.
    """
    blocks = Blocks() if blocks is None else blocks
    children = list(model.named_children())
    for key, child in children:
        original = child.forward
        name = f"{key}: {type(child).__name__}"

        def forward(*args, _original=original, _name=name, **kwargs):
            return blocks.add(_name, _original(*args, **kwargs), (args, tuple(kwargs.values())))

        object.__setattr__(child, "forward", forward)
    try:
        yield blocks
    finally:
        for _, child in children:
            object.__delattr__(child, "forward")


def _reach(roots, children, stop=frozenset()) -> set:
    """Ids reachable from ``roots`` through ``children``, not entering ``stop``."""
    seen, stack = set(), [r for r in roots if r not in stop]
    while stack:
        n = stack.pop()
        if n in seen:
            continue
        seen.add(n)
        stack.extend(c for c in children.get(n, ()) if c not in stop and c not in seen)
    return seen


def block_nodes(roots, stops, children, users) -> set:
    """The node ids of one block (see the module's docstring for the three rules).

    ``roots``: ids of the outputs' nodes; ``stops``: ids of the inputs' nodes (their
    ``grad_fn``, or a leaf input's ``AccumulateGrad``); ``children``/``users``: id -> ids, the
    graph's edges in both directions.
    """
    inside = _reach(roots, children) - _reach(stops, children)
    changed = True
    while changed:  # drop nodes used from outside, until none is left
        changed = False
        for n in sorted(inside - set(roots)):
            if any(u not in inside for u in users.get(n, ())):
                inside.discard(n)
                changed = True
    return inside
