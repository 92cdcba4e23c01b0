"""Drawing the backward graph, for minigrad tensors and torch tensors alike.

``make_dot`` follows torchviz: start at the output tensor, walk ``grad_fn.next_functions``
and draw one box per backward node, a light blue box per leaf (reached through
``AccumulateGrad.variable``), orange boxes for saved tensors and a green box for the output.
Both engines expose the same attributes, so a single walker draws both; the few places where
they differ (how saved tensors are stored, how a view is recognised) are the small
``_saved_of`` and ``_base_of`` adapters below.

Node ids come from a counter in walk order, never from ``id()``: the same graph always gives
the same DOT text, so notebooks keep stable outputs and tests can compare minigrad with torch.

This module never imports torch: a torch tensor can only exist once torch has been imported,
so ``is_tensor`` looks torch up in ``sys.modules``. Drawing minigrad graphs needs no torch.
Use it as ``from coursekit import viz``.
"""

from __future__ import annotations

import html
import re
import sys
import warnings
from collections import Counter

import graphviz
import ipywidgets as widgets
import numpy as np
from IPython.display import SVG

from coursekit.fold import Block, Blocks, block_nodes, record_modules
from minigrad import Tensor
from minigrad.autograd.graph import Node

__all__ = ["Block", "Blocks", "beside", "fold_widget", "make_dot", "record_modules", "show",
           "side_by_side", "stable_ids", "structure"]

INSTALL_HINT = (
    "The graphviz 'dot' program was not found, so the graph cannot be rendered. Install it "
    "with one of:\n"
    "    sudo apt-get install graphviz      (Debian/Ubuntu)\n"
    "    conda install -c conda-forge graphviz\n"
    "    brew install graphviz              (macOS)\n"
    "The DOT text is returned instead; paste it into https://dreampuf.github.io/GraphvizOnline"
)
NODE_ATTR = dict(style="filled", shape="box", align="left", fontsize="10", ranksep="0.1",
                 height="0.2", fontname="monospace")
OUTPUT, BASE, LEAF, SAVED = "darkolivegreen1", "darkolivegreen3", "lightblue", "orange"
FOLDED = "khaki"
VALUE_COLOR, GRAD_COLOR = "darkgreen", "blue"
_INTERNAL = {"next_functions", "needs_input_grad", "variable", "view_fn"}


# --- what differs between the engines ---------------------------------------------------------
def is_tensor(obj) -> bool:
    """A minigrad or a torch tensor (torch is only consulted if it is already imported)."""
    if isinstance(obj, Tensor):
        return True
    torch = sys.modules.get("torch")
    return torch is not None and isinstance(obj, torch.Tensor)


def _is_minigrad_node(fn) -> bool:
    return isinstance(fn, Node)


def _base_of(t):
    """The tensor ``t`` is a view of, or None (torch: ``_is_view()``; minigrad: ``_base``)."""
    return getattr(t, "_base", None)


def _saved_of(fn):
    """``[(name, value)]`` of what ``fn`` saved: tensors and plain attributes, sorted by name.

    torch shows them as ``_saved_<name>`` attributes; minigrad keeps tensors in
    ``node._saved`` (a dict of ``SavedTensor``) and plain values as attributes. Tensors freed by
    backward are left out (torch raises when they are read).
    """
    out = {}
    if _is_minigrad_node(fn):
        for name, saved in fn._saved.items():
            value = _unpack_quietly(saved)
            if value is not None:
                out[name] = value
        for name, value in vars(fn).items():
            if not name.startswith("_") and name not in _INTERNAL and not callable(value):
                out[name] = value
        return sorted(out.items())
    for attr in dir(fn):
        if attr.startswith("_saved_"):
            try:
                out[attr[len("_saved_"):]] = getattr(fn, attr)
            except RuntimeError:  # freed by backward
                continue
    return sorted(out.items())


def _unpack_quietly(saved):
    if saved.version is None:  # freed by a backward without retain_graph
        return None
    if saved.is_output:
        return Tensor._make(saved.data)
    return saved.tensor


def grad_of(t):
    """``t.grad`` without the non-leaf warning: None unless a leaf or ``retain_grad``."""
    if t.grad_fn is not None and not t.retains_grad:
        return None
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return t.grad


def as_array(t) -> np.ndarray:
    """The values of a minigrad or torch tensor as a NumPy array."""
    return np.asarray(t.detach().cpu().numpy())


def fmt(t, max_elements: int = 6) -> str:
    """A compact text for a value or gradient: ``2.5`` or ``[1, 2.5]`` or ``(3, 4) tensor``."""
    a = as_array(t)
    if a.size > max_elements:
        return "(" + ", ".join(str(s) for s in a.shape) + ") tensor"
    if a.ndim == 0:
        return f"{a.item():.4g}"
    return np.array2string(a, precision=4, separator=", ", suppress_small=True,
                           formatter={"float_kind": lambda v: f"{v:.4g}"}).replace("\n", "")


def size_to_str(size) -> str:
    return "(" + ", ".join(str(int(v)) for v in size) + ")"


# --- the walker --------------------------------------------------------------------------------
class _Ids:
    """Deterministic node ids: ``prefix + counter`` in the order objects are first met.

    The objects are kept alive (in ``objs``) so no ``id()`` is reused while we walk.
    """

    def __init__(self, prefix: str = ""):
        self.prefix = prefix
        self.ids = {}
        self.objs = []

    def __contains__(self, obj) -> bool:
        return id(obj) in self.ids

    def __call__(self, obj) -> str:
        key = id(obj)
        if key not in self.ids:
            self.ids[key] = f"{self.prefix}{len(self.ids)}"
            self.objs.append(obj)
        return self.ids[key]


class GraphWalk:
    """The nodes and edges of a backward graph, in a fixed walk order.

    ``nodes`` is a list of ``(node_id, label_lines, attrs)``; ``edges`` of
    ``(tail_id, head_id, attrs, key)``, where ``key`` is ``(head_id, i)`` for the edge from
    ``next_functions[i]`` and ``(tail_id, head_id)`` otherwise. Edges point the way the
    forward pass went (input to op), as in torchviz. ``fn_ids`` maps each backward node to
    its id.
    """

    def __init__(self, var, params=None, show_attrs=False, show_saved=False,
                 show_values=False, max_attr_chars=50, prefix=""):
        self.params = dict(params or {})
        self.show_attrs, self.show_saved = show_attrs, show_saved
        self.show_values, self.max_attr_chars = show_values, max_attr_chars
        self.ids = _Ids(prefix)
        self.nodes, self.edges = [], []
        self.fn_ids = {}
        self.owner = {}  # id of a leaf or saved-tensor box -> id of the node it hangs from
        self._seen_fns = _Ids()
        self._names = {id(v): k for k, v in self.params.items()}
        self._tensor_of_fn = {}
        outputs = var if isinstance(var, tuple | list) else (var,)
        for name, t in self.params.items():
            if is_tensor(t) and t.grad_fn is not None and not any(t is v for v in outputs):
                self._tensor_of_fn.setdefault((id(t.grad_fn), _output_nr(t)), (name, t))
        for v in outputs:
            self._add_tensor(v, OUTPUT)

    # --- labels ---
    def _tensor_label(self, t, name=None):
        name = name if name is not None else self._names.get(id(t), "")
        lines = [name, " " + size_to_str(t.size())]
        return lines + self._value_lines(t)

    def _value_lines(self, t):
        if not self.show_values:
            return []
        lines = [("value", fmt(t))]
        g = grad_of(t)
        if g is not None:
            lines.append(("grad", fmt(g)))
        return lines

    def _fn_label(self, fn):
        lines = [type(fn).__name__]
        named = self._tensor_of_fn.get((id(fn), 0))
        if self.show_values and named is not None:
            lines = [f"{named[0]} = {type(fn).__name__}"] + self._value_lines(named[1])
        if self.show_attrs:
            lines += self._attr_lines(fn, len(type(fn).__name__))
        return lines

    def _attr_lines(self, fn, name_width):
        attrs = {}
        for k, v in _saved_of(fn):
            if is_tensor(v):
                attrs[k] = "[saved tensor]"
            elif isinstance(v, tuple) and any(is_tensor(x) for x in v):
                attrs[k] = "[saved tensors]"
            else:
                attrs[k] = str(v)
        if not attrs:
            return []
        width = max(self.max_attr_chars, 3)
        col1 = max(len(k) for k in attrs)
        col2 = min(max(len(v) for v in attrs.values()), width)

        def cut(s):
            return s[:col2 - 3] + "..." if len(s) > col2 else s

        sep = "-" * max(col1 + col2 + 2, name_width)
        return [sep] + [f"{k:<{col1}}: {cut(v):>{col2}}" for k, v in attrs.items()]

    # --- walking ---
    def _node(self, obj, lines, **attrs):
        self.nodes.append((self.ids(obj), lines, attrs))

    def _edge(self, tail, head, key=None, **attrs):
        """An edge; ``key`` tells apart two edges between the same nodes (``y * y``)."""
        tail, head = self.ids(tail), self.ids(head)
        self.edges.append((tail, head, attrs, key or (tail, head)))

    def _add_tensor(self, var, color):
        if var in self.ids:
            return
        self._node(var, self._tensor_label(var), fillcolor=color)
        if var.grad_fn is not None:
            self._add_fns(var.grad_fn)
            self._edge(var.grad_fn, var)
        base = _base_of(var)
        if base is not None:
            self._add_tensor(base, BASE)
            self._edge(base, var, style="dotted")

    def _add_fns(self, root):
        """Depth first from ``root``, without recursion (graphs can be long chains)."""
        stack = [root]
        while stack:
            fn = stack.pop()
            if fn in self._seen_fns:
                continue
            self._seen_fns(fn)
            self.fn_ids[fn] = self.ids(fn)
            self._node(fn, self._fn_label(fn))
            if hasattr(fn, "variable"):
                leaf = fn.variable
                self._node(leaf, self._tensor_label(leaf), fillcolor=LEAF)
                self.owner[self.ids(leaf)] = self.fn_ids[fn]
                self._edge(leaf, fn)
            if self.show_saved:
                self._add_saved(fn)
            children = [u for u, _ in getattr(fn, "next_functions", ()) if u is not None]
            for i, (u, _) in enumerate(getattr(fn, "next_functions", ())):
                if u is not None:
                    self._edge(u, fn, key=(self.ids(fn), i))
            stack.extend(reversed(children))

    def _add_saved(self, fn):
        for name, value in _saved_of(fn):
            values = value if isinstance(value, tuple) else (value,)
            for i, t in enumerate(values):
                if not is_tensor(t):
                    continue
                label = f"{name}[{i}]" if isinstance(value, tuple) else name
                key = ("saved", self.ids(fn), label)  # one box per saved slot
                self._node(key, self._tensor_label(t, label), fillcolor=SAVED)
                self.owner[self.ids(key)] = self.ids(fn)
                self._edge(fn, key, dir="none")


def _output_nr(t) -> int:
    """Which output of its grad_fn ``t`` is (torch: ``output_nr``; minigrad: ``_output_nr``)."""
    return t.output_nr if hasattr(t, "output_nr") else t._output_nr


def _html_label(lines) -> str:
    """Plain lines as text; (kind, text) pairs coloured: values green, gradients blue."""
    if all(isinstance(x, str) for x in lines):
        return "\n".join(lines)
    parts = []
    for x in lines:
        if isinstance(x, str):
            parts.append(html.escape(x))
        else:
            kind, text = x
            color = VALUE_COLOR if kind == "value" else GRAD_COLOR
            parts.append(f'<font color="{color}">{kind} {html.escape(text)}</font>')
    return "<" + "<br/>".join(parts) + ">"


def _fill(graph, walk: GraphWalk, highlight=None, edge_labels=None, node_extra=None):
    highlight = highlight or {}
    node_extra = node_extra or {}
    for nid, lines, attrs in walk.nodes:
        attrs = dict(attrs)
        if nid in highlight:
            attrs["fillcolor"] = highlight[nid]
        graph.node(nid, _html_label(list(lines) + node_extra.get(nid, [])), **attrs)
    for tail, head, attrs, key in walk.edges:
        attrs = dict(attrs)
        label = (edge_labels or {}).get(key)
        if label is not None:
            attrs.update(label=label, fontcolor=GRAD_COLOR, fontsize="9")
        graph.edge(tail, head, **attrs)


def _resize(dot, size_per_element=0.15, min_size=12):
    size = max(min_size, len(dot.body) * size_per_element)
    dot.graph_attr.update(size=f"{size},{size}")


def _digraph():
    return graphviz.Digraph(node_attr=dict(NODE_ATTR), graph_attr=dict(size="12,12"), format="svg")


def make_dot(var, params=None, show_attrs=False, show_saved=False, max_attr_chars=50,
             show_values=False, fold=None, expand=()):
    """The backward graph of ``var`` (a minigrad or torch tensor, or a tuple of them).

    Arguments mean what they mean in torchviz: ``params`` names tensors (``dict(x=x)``),
    ``show_attrs`` lists what each node saved, ``show_saved`` draws saved tensors as orange
    boxes. ``show_values=True`` also writes each known tensor's value (green) and gradient
    (blue); intermediate tensors are known when they are named in ``params``.
    ``fold`` (a list of ``Block``, e.g. from ``record_modules``) draws each block as one khaki
    box with its name, its number of boxes and its input and output shapes; the blocks named
    in ``expand`` are drawn in full instead, inside a dashed frame.
    Returns a ``graphviz.Digraph``; ``.source`` is the DOT text.
    """
    walk = GraphWalk(var, params, show_attrs, show_saved, show_values, max_attr_chars)
    dot = _digraph()
    if fold is None:
        _fill(dot, walk)
        _resize(dot)
        return dot
    groups = fold_groups(walk, fold)
    expand = set(expand)
    unknown = expand - {b.name for b, _ in groups}
    if unknown:
        raise ValueError(f"no block named {sorted(unknown)}; the blocks are "
                         f"{[b.name for b, _ in groups]}")
    _fill_folded(dot, walk, groups, expand)
    _resize(dot)
    for i, (block, nodes) in enumerate(groups):
        if block.name in expand and nodes:
            with dot.subgraph(name=f"cluster_fold{i}") as sub:
                sub.attr(label=block.name, style="dashed", color="grey40", fontname="monospace")
                for nid, _, _ in walk.nodes:
                    if nid in nodes:
                        sub.node(nid)
    return dot


# --- folding -----------------------------------------------------------------------------------
def fold_groups(walk: GraphWalk, blocks) -> list:
    """``[(block, box ids)]``: the boxes of ``walk`` each block folds (``coursekit.fold``'s rules).

    A block also takes the leaf and saved-tensor boxes hanging from its nodes. A box claimed by
    two blocks (nested ones) goes to the first.
    """
    fns = set(walk.fn_ids.values())
    children, users = {}, {}
    for tail, head, _, _ in walk.edges:
        if tail in fns and head in fns:
            children.setdefault(head, []).append(tail)
            users.setdefault(tail, []).append(head)
    claimed, groups = set(), []
    for block in blocks:
        roots = [walk.fn_ids[t.grad_fn] for t in block.outputs if t.grad_fn in walk.fn_ids]
        stops = [_node_id_of(walk, t) for t in block.inputs]
        nodes = block_nodes(roots, [s for s in stops if s is not None], children, users)
        nodes -= claimed
        nodes |= {box for box, fn in walk.owner.items() if fn in nodes}
        claimed |= nodes
        groups.append((block, nodes))
    return groups


def _node_id_of(walk, t):
    """The id of the node a gradient for ``t`` goes to: its grad_fn, or its AccumulateGrad."""
    if t.grad_fn is not None:
        return walk.fn_ids.get(t.grad_fn)
    box = walk.ids.ids.get(id(t))
    return walk.owner.get(box)


def _block_label(block, count):
    lines = [block.name, f"{count} box" if count == 1 else f"{count} boxes"]
    for word, ts in (("in", block.inputs), ("out", block.outputs)):
        if ts:
            lines.append(f"{word} " + " ".join(size_to_str(t.size()) for t in ts))
    return "\n".join(lines)


def _fill_folded(graph, walk, groups, expand):
    """Like ``_fill``, with each folded block's boxes replaced by one box ``fold<i>``.

    The block's box stands where its first box would; edges into and out of it are drawn
    once each, and edges inside it disappear.
    """
    rep = {}
    for i, (block, nodes) in enumerate(groups):
        if block.name not in expand:
            rep.update(dict.fromkeys(nodes, f"fold{i}"))
    drawn = set()
    for nid, lines, attrs in walk.nodes:
        box = rep.get(nid)
        if box is None:
            graph.node(nid, _html_label(lines), **attrs)
        elif box not in drawn:
            drawn.add(box)
            block, nodes = groups[int(box[len("fold"):])]
            graph.node(box, _block_label(block, len(nodes)), fillcolor=FOLDED, shape="box3d")
    joined = set()
    for tail, head, attrs, _ in walk.edges:
        t, h = rep.get(tail, tail), rep.get(head, head)
        if t == h:
            continue
        if (t, h) != (tail, head):
            if (t, h) in joined:
                continue
            joined.add((t, h))
        graph.edge(t, h, **attrs)


def fold_widget(var, blocks, params=None, **kwargs):
    """A folded drawing with a list to pick the blocks to expand (ctrl/shift-click for more)."""
    names = [b.name for b in blocks]
    choose = widgets.SelectMultiple(options=names, rows=min(len(names), 6),
                                    description="expand")
    view = widgets.HTML()

    def redraw(change=None):
        dot = make_dot(var, params, fold=blocks, expand=choose.value, **kwargs)
        view.value = dot.pipe(format="svg", encoding="utf-8")

    redraw()
    choose.observe(redraw, names="value")
    return widgets.VBox([choose, view])


def side_by_side(minigrad_var, torch_var, params=None, torch_params=None, **kwargs):
    """minigrad's graph (left) next to torch's (right) for the same code, in one drawing.

    ``params`` names minigrad tensors, ``torch_params`` torch ones (default: the same names
    looked up in ``params`` are not transferable, so pass both when you want names).
    """
    dot = _digraph()
    for title, var, p in (("minigrad", minigrad_var, params), ("torch", torch_var, torch_params)):
        walk = GraphWalk(var, p, prefix=title[0], **kwargs)
        with dot.subgraph(name=f"cluster_{title}") as sub:
            sub.attr(label=title, fontname="monospace", style="rounded", color="grey")
            _fill(sub, walk)
    _resize(dot)
    return dot


# --- comparing with torchviz -------------------------------------------------------------------
_STATEMENT = re.compile(r'^\t+(\w+)(?: -> (\w+))?( \[.*)?$', re.S)


def _statements(dot):
    """``(tail, head or None, attributes)`` per node or edge statement of ``dot``'s body, in
    frames too (labels may span lines, so statements are split where a line starts with a
    tab); a frame's bare list of its members is left out."""
    text = "".join(dot.body)
    found = (_STATEMENT.match(chunk) for chunk in re.split(r"\n(?=\t)", text.strip("\n")))
    return [m.groups() for m in found if m and (m.group(2) or m.group(3))]


_ID_LINE = re.compile(r"^(\t+)(\w+)(?: -> (\w+))?(?=[ \n]|$)")
_KEYWORDS = {"subgraph", "graph", "node", "edge"}


def _renamed(dot, new):
    """A copy of ``dot`` with each node id replaced by ``new(id)``."""
    def line(text):
        m = _ID_LINE.match(text)
        if m is None or m.group(2) in _KEYWORDS:
            return text
        ids = new(m.group(2)) + (f" -> {new(m.group(3))}" if m.group(3) else "")
        return m.group(1) + ids + text[m.end():]

    out = graphviz.Digraph(node_attr=dict(dot.node_attr), graph_attr=dict(dot.graph_attr),
                           format="svg")
    out.body = [line(text) for text in dot.body]
    return out


def stable_ids(dot, prefix="t"):
    """A copy of ``dot`` whose node ids are ``t0, t1, ...`` in order of first appearance.

    torchviz names each node by its Python ``id()``, a memory address that changes from run to
    run; renumbered, its DOT text is the same on every run and can be stored in a notebook.
    """
    ids = {}
    return _renamed(dot, lambda old: ids.setdefault(old, f"{prefix}{len(ids)}"))


def beside(**dots):
    """Finished drawings next to each other in one picture, one frame per keyword argument.

    The keyword is the frame's title (``_`` shown as ``.``: ``coursekit_viz`` reads
    ``coursekit.viz``); node ids get the frame's number in front, so they never clash.
    """
    out = _digraph()
    for k, (title, dot) in enumerate(dots.items()):
        with out.subgraph(name=f"cluster_{title}") as sub:
            sub.attr(label=title.replace("_", "."), fontname="monospace", style="rounded",
                     color="grey")
            sub.body += _renamed(dot, lambda old, k=k: f"d{k}_{old}").body
    _resize(out)
    return out


def structure(dot) -> tuple[Counter, Counter]:
    """What a drawing shows, whatever its node ids: the boxes (label and colour) and the arrows
    (from which box to which), each counted. Two drawings with equal structures look alike."""
    boxes, arrows = {}, Counter()
    for tail, head, attrs in _statements(dot):
        if head is None:
            boxes[tail] = attrs
    for tail, head, attrs in _statements(dot):
        if head is not None:
            arrows[(boxes.get(tail), boxes.get(head), attrs)] += 1
    return Counter(boxes.values()), arrows


def show(dot):
    """Render ``dot`` as SVG for a notebook; without the ``dot`` program, print how to install
    it and return the DOT text instead."""
    try:
        svg = dot.pipe(format="svg", encoding="utf-8")
    except graphviz.ExecutableNotFound:
        print(INSTALL_HINT)
        return dot.source
    return SVG(svg)
