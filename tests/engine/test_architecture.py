"""The house rules of ARCHITECTURE.md, checked on the code: imports at module top, no import
circle between minigrad's modules, every op's node with its forward-mode rule, and every API a
message names exists."""

from __future__ import annotations

import ast
import functools
import importlib
import inspect
import pathlib
import re

import minigrad
from minigrad._ops import _core
from minigrad.autograd import graph, special_nodes

PACKAGE = pathlib.Path(minigrad.__file__).parent


@functools.cache
def _modules() -> tuple:
    """(name, path, syntax tree) of every module, parsed once for all the tests."""
    out = []
    for path in sorted(PACKAGE.rglob("*.py")):
        name = ".".join(path.relative_to(PACKAGE.parent).with_suffix("").parts)
        out.append((name.removesuffix(".__init__"), path,
                    ast.parse(path.read_text(encoding="utf-8"))))
    return tuple(out)


@functools.cache
def _module_names() -> frozenset:
    return frozenset(n for n, _, _ in _modules())


def test_no_import_inside_a_function():
    found = []
    for name, _, tree in _modules():
        for fn in ast.walk(tree):
            if isinstance(fn, ast.FunctionDef | ast.AsyncFunctionDef):
                found += [f"{name}.{fn.name}" for node in ast.walk(fn)
                          if isinstance(node, ast.Import | ast.ImportFrom)]
    assert not found, f"imports inside functions: {found}"


def _imports(name, tree):
    """The minigrad modules ``name`` imports at its top (``from a import b`` counts as ``a.b``
    when ``a.b`` is a module)."""
    known = _module_names()
    out = set()
    for node in tree.body:
        targets = []
        if isinstance(node, ast.Import):
            targets = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module:
            targets = [f"{node.module}.{a.name}" for a in node.names] + [node.module]
        out |= {t for t in targets if t in known and t != name}
    return out


def test_no_import_circle_between_modules():
    """Package ``__init__`` files only hand names on, so they are left out of the graph."""
    graph_ = {name: _imports(name, tree) for name, path, tree in _modules()
              if path.name != "__init__.py"}
    packages = {name for name, path, _ in _modules() if path.name == "__init__.py"}
    graph_ = {k: {v for v in vs if v not in packages} for k, vs in graph_.items()}
    state, cycle = {}, []

    def visit(node, stack):
        state[node] = "open"
        for nxt in sorted(graph_.get(node, ())):
            if state.get(nxt) == "open":
                cycle.append(stack[stack.index(nxt):] + [nxt])
            elif nxt not in state:
                visit(nxt, [*stack, nxt])
        state[node] = "done"

    for node in sorted(graph_):
        if node not in state:
            visit(node, [node])
    assert not cycle, f"import circles: {cycle}"


def _op_nodes():
    nodes = []
    for module in (minigrad._ops.pointwise, minigrad._ops.reduction, minigrad._ops.linalg,
                   minigrad._ops.shape, minigrad._ops.indexing, minigrad._ops.join,
                   minigrad._ops.inplace, minigrad._ops.nn_ops, minigrad.autograd.views):
        nodes += [c for _, c in inspect.getmembers(module, inspect.isclass)
                  if issubclass(c, graph.Node) and c.__module__ == module.__name__]
    return nodes


def test_every_op_node_has_its_backward_and_forward_rule():
    nodes = _op_nodes()
    assert len(nodes) > 50
    missing = [c.__name__ for c in nodes if not c.__name__.startswith("_")
               and (c.backward is graph.Node.backward or c.jvp is graph.Node.jvp)]
    assert not missing, f"nodes without backward or jvp: {missing}"


def test_a_node_without_a_forward_rule_raises_torchs_error():
    class MysteryBackward0(graph.Node):
        def backward(self, grad):
            return grad

    x = minigrad.ones(2)
    with minigrad.autograd.forward_ad.dual_level():
        dual = minigrad.autograd.forward_ad.make_dual(x, minigrad.ones(2))
        try:
            _core.record(dual._data * 1, MysteryBackward0, (dual,))
        except NotImplementedError as e:
            message = str(e)
    assert message.startswith("Trying to use forward AD with mystery that does not support it "
                              "because it has not been implemented yet.")


def test_special_nodes_are_apart_from_the_op_formulas():
    for cls in (special_nodes.AccumulateGrad, special_nodes.CopySlices, special_nodes.Error):
        assert cls.__module__ == "minigrad.autograd.special_nodes"
    assert all(c.__module__.startswith(("minigrad._ops.", "minigrad.autograd.views"))
               for c in _op_nodes())


# A dotted torch or minigrad name inside a string (not in a URL, where "/" precedes it).
_API_NAME = re.compile(r"(?<![/\w.])(torch|minigrad)((?:\.[A-Za-z_]\w*)+)")
# Names in messages that are not meant to be looked up, each with the reason.
_NOT_AN_API = {
    "minigrad._C._autograd.SavedTensor": "SavedTensor's repr, spelled as torch's class path",
    "minigrad._C.Generator": "a Generator's repr, spelled as torch's class path",
    "minigrad._C._autograd._InputMetadata": "a node's _input_metadata entries' repr, spelled as "
                                             "torch's class path",
}


def _resolves(dotted: str) -> bool:
    parts = dotted.split(".")
    obj = importlib.import_module(parts[0])
    for i, part in enumerate(parts[1:], 1):
        if hasattr(obj, part):
            obj = getattr(obj, part)
            continue
        try:
            obj = importlib.import_module(".".join(parts[:i + 1]))
        except ImportError:
            return False
    return True


def _docstring_ids(tree):
    for node in ast.walk(tree):
        if isinstance(node, ast.Module | ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            first = node.body[0] if node.body else None
            if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant):
                yield id(first.value)


def test_every_api_a_message_names_exists():
    """An error, a warning or a repr that names ``torch.X`` or ``minigrad.X`` points at
    something a learner can type: the name resolves in torch or in minigrad."""
    missing = []
    for module, _path, tree in _modules():
        docstrings = set(_docstring_ids(tree))
        for node in ast.walk(tree):
            if (isinstance(node, ast.Constant) and isinstance(node.value, str)
                    and id(node) not in docstrings):
                for match in _API_NAME.finditer(node.value):
                    name = match.group(0)
                    if name not in _NOT_AN_API and not _resolves(name):
                        missing.append(f"{module}:{node.lineno}: {name}")
    assert not missing, "messages name APIs that do not exist:\n" + "\n".join(missing)
