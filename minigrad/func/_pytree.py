"""Nested containers of tensors ("pytrees") as torch.utils._pytree sees them.

The transforms take and return nested tuples, lists, dicts and namedtuples of tensors: vmap's
``in_dims`` is matched against its inputs, ``argnums`` may pick a dict of parameters, jacrev
returns one Jacobian per (output, input) pair. Flattening gives the leaves in order and a
``TreeSpec`` (the shape of the nesting) that rebuilds the container around new leaves. The
spec prints as torch prints it, because torch's error messages show it.
"""

from __future__ import annotations

from collections import OrderedDict

from minigrad._size import Size


def _is_namedtuple(obj) -> bool:
    return isinstance(obj, tuple) and hasattr(type(obj), "_fields")


def _node_type(obj):
    """The container type when ``obj`` is a node (not a leaf), else None. torch's pytrees also
    open a ``Size`` (its ints) and the tuples ops return (``return_types.max``...)."""
    if _is_namedtuple(obj):
        return "namedtuple"
    if type(obj) is Size or type(obj).__module__ == "minigrad.return_types":
        return type(obj)
    for kind in (OrderedDict, dict, tuple, list):
        if type(obj) is kind:
            return kind
    return None


def _children(obj, kind):
    """(children, context): context is what rebuilding needs besides the children."""
    if kind == "namedtuple":
        return list(obj), type(obj)
    if kind in (dict, OrderedDict):
        return list(obj.values()), list(obj.keys())
    return list(obj), None


class TreeSpec:
    """The structure of a pytree: its container type, context and children's specs."""

    def __init__(self, kind, context, children):
        self.kind, self.context, self.children = kind, context, children
        self.num_leaves = sum(c.num_leaves for c in children)

    def is_leaf(self) -> bool:
        return False

    def unflatten(self, leaves):
        it = iter(leaves)
        return self._build(it)

    def _build(self, it):
        values = [child._build(it) for child in self.children]
        if self.kind == "namedtuple":
            return self.context(*values)
        if self.kind in (dict, OrderedDict):
            return self.kind(zip(self.context, values))
        if self.kind is Size:  # (torch rebuilds a Size as a plain tuple)
            return tuple(values)
        return self.kind(values)

    def __eq__(self, other):
        if not isinstance(other, TreeSpec) or other.is_leaf():
            return False
        return (self.kind == other.kind and self.context == other.context
                and self.children == other.children)

    def __hash__(self):
        return id(self)

    def __repr__(self, indent: int = 0) -> str:
        name = "namedtuple" if self.kind == "namedtuple" else self.kind.__name__
        text = f"TreeSpec({name}, {self.context}, ["
        if self.children:
            indent += 2
            parts = [self.children[0].__repr__(indent)]
            parts += ["\n" + " " * indent + c.__repr__(indent) for c in self.children[1:]]
            text += ",".join(parts)
        return text + "])"


class LeafSpec(TreeSpec):
    def __init__(self):
        super().__init__(None, None, [])
        self.num_leaves = 1

    def is_leaf(self) -> bool:
        return True

    def _build(self, it):
        return next(it)

    def __eq__(self, other):
        return isinstance(other, LeafSpec)

    def __hash__(self):
        return 0

    def __repr__(self, indent: int = 0) -> str:
        return "*"


_LEAF = LeafSpec()


def tree_flatten(tree):
    """(leaves, spec): the leaves in order (dicts in their insertion order)."""
    leaves = []
    return leaves, _flatten(tree, leaves)


def _flatten(tree, leaves) -> TreeSpec:
    kind = _node_type(tree)
    if kind is None:
        leaves.append(tree)
        return _LEAF
    children, context = _children(tree, kind)
    return TreeSpec(kind, context, [_flatten(c, leaves) for c in children])


def tree_unflatten(leaves, spec: TreeSpec):
    return spec.unflatten(leaves)


def tree_map(fn, tree):
    leaves, spec = tree_flatten(tree)
    return spec.unflatten([fn(leaf) for leaf in leaves])


def tree_leaves(tree):
    return tree_flatten(tree)[0]


def broadcast_to_and_flatten(prefix, spec: TreeSpec):
    """One value per leaf of ``spec``: each leaf of ``prefix`` (a tree that matches the top of
    ``spec``) repeated over the leaves below it; None if the structures do not match."""
    out = []
    return out if _broadcast(prefix, spec, out) else None


def _broadcast(prefix, spec, out) -> bool:
    kind = _node_type(prefix)
    if kind is None:
        out.extend([prefix] * spec.num_leaves)
        return True
    if spec.is_leaf():
        return False
    children, context = _children(prefix, kind)
    if kind != spec.kind or len(children) != len(spec.children):
        return False
    if kind in (dict, OrderedDict):
        if set(context) != set(spec.context):
            return False
        children = [prefix[key] for key in spec.context]
    elif kind == "namedtuple" and context is not spec.context:
        return False
    return all(_broadcast(c, s, out) for c, s in zip(children, spec.children))


def treespec_pprint(spec: TreeSpec) -> str:
    """The structure drawn with ``*`` for each leaf, as torch's ``treespec_pprint``."""
    return repr(spec.unflatten([_Star()] * spec.num_leaves))


class _Star:
    def __repr__(self):
        return "*"
