"""Run a lesson cell on torch and on minigrad, and fail loudly if they disagree.

One source of code is executed twice, in two namespaces that persist from cell to cell: in
one ``torch`` is the real torch, in the other it is minigrad (``import torch`` inside the code
is redirected too). Each run's printed output, warnings and exception are captured; then the
tensors the cell names are compared (values, ``.grad``, ``requires_grad``, ``is_leaf`` and the
shape of the backward graph). A mismatch raises ``AssertionError`` with a unified diff, so
``nbval`` fails; a match prints the torch run's output and one deterministic line such as
``✓ minigrad matches torch: output, x, x.grad``.

minigrad's text is normalised before comparing, for its deliberate differences only:
``minigrad.`` -> ``torch.``, ``minigrad::`` -> ``torch::``, memory addresses -> ``0x…``, and
torch's "(Triggered internally at ...)" suffix is dropped.

From Python::

    from coursekit import compare
    compare.check("x = torch.tensor([1., 2.], requires_grad=True)")
    compare.check("y = (x * x).sum(); y.backward(); print(y)", names=["x", "y"])

In a notebook: ``compare.enable()`` once, then a cell starting with ``%%both x y``.
"""

from __future__ import annotations

import builtins
import contextlib
import difflib
import io
import re
import shlex
import sys
import traceback
import warnings

import numpy as np
import torch
from IPython import get_ipython

import minigrad
from coursekit import i18n, viz
from coursekit.i18n import _

ENGINES = ("torch", "minigrad")
_ADDRESS = re.compile(r"0x[0-9a-fA-F]+")
_TRIGGERED = re.compile(r" ?\(Triggered internally at [^)]*\)\.?")


def normalize(text: str) -> str:
    """minigrad's text in torch's spelling, with addresses and torch's C++ suffix removed."""
    text = text.replace("minigrad::", "torch::").replace("minigrad.", "torch.")
    text = _TRIGGERED.sub("", text)
    return _ADDRESS.sub("0x…", text)


# --- running one engine --------------------------------------------------------------------------
def _redirecting_import(name, globals=None, locals=None, fromlist=(), level=0):  # noqa: A002
    """``import torch[.x]`` gives ``minigrad[.x]`` in the minigrad namespace."""
    if level == 0 and (name == "torch" or name.startswith("torch.")):
        name = "minigrad" + name[len("torch"):]
    return builtins.__import__(name, globals, locals, fromlist, level)


class Run:
    """What one engine did with one cell: output, warnings, exception, final namespace."""

    def __init__(self, namespace):
        self.namespace = namespace
        self.output = ""
        self.warnings = []
        self.error = None  # (type name, message, traceback text)


def run(code: str, namespace: dict) -> Run:
    result = Run(namespace)
    buffer = io.StringIO()
    with warnings.catch_warnings(record=True) as caught, contextlib.redirect_stdout(buffer):
        warnings.simplefilter("always")
        try:
            exec(compile(code, "<cell>", "exec"), namespace)
        except Exception as exc:  # noqa: BLE001 - every error is compared, not handled
            result.error = (type(exc).__name__, str(exc), traceback.format_exc())
    result.output = buffer.getvalue()
    result.warnings = [(w.category.__name__, str(w.message)) for w in caught]
    return result


# --- describing a run as text, for comparing and diffing ---------------------------------------
def _tensor_facts(name, t):
    """Lines describing a tensor, and the arrays to compare numerically, keyed like the lines."""
    grad = viz.grad_of(t)
    fn = t.grad_fn
    lines = [f"{name}: shape={list(t.shape)} dtype={t.dtype} requires_grad={t.requires_grad} "
             f"is_leaf={t.is_leaf} grad_fn={None if fn is None else type(fn).__name__}",
             f"{name} = {_array_text(t)}"]
    arrays = {f"{name}": viz.as_array(t)}
    if grad is not None:
        lines.append(f"{name}.grad = {_array_text(grad)}")
        arrays[f"{name}.grad"] = viz.as_array(grad)
    return lines, arrays


def _array_text(t) -> str:
    return np.array2string(viz.as_array(t), precision=5, separator=", ", threshold=50)


def _value_facts(name, value):
    if viz.is_tensor(value):
        return _tensor_facts(name, value)
    if isinstance(value, tuple | list) and any(viz.is_tensor(v) for v in value):
        lines, arrays = [f"{name}: {type(value).__name__} of {len(value)}"], {}
        for i, v in enumerate(value):
            more_lines, more_arrays = _value_facts(f"{name}[{i}]", v)
            lines += more_lines
            arrays.update(more_arrays)
        return lines, arrays
    return [f"{name} = {value!r}"], {}


def describe(r: Run, names, engine: str):
    """``(lines, arrays)`` for a run; minigrad's lines are normalised to torch's spelling."""
    norm = normalize if engine == "minigrad" else _strip_torch
    lines = ["# output"] + norm(r.output).splitlines()
    for kind, message in r.warnings:
        lines.append(f"# warning {kind}: {norm(message)}")
    if r.error is not None:
        lines.append(f"# raised {r.error[0]}: {norm(r.error[1])}")
    arrays = {}
    for name in names:
        if name not in r.namespace:
            lines.append(f"{name}: <not defined>")
            continue
        more_lines, more_arrays = _value_facts(name, r.namespace[name])
        lines += [norm(x) for x in more_lines]
        arrays.update(more_arrays)
    return lines, arrays


def _strip_torch(text: str) -> str:
    return _ADDRESS.sub("0x…", _TRIGGERED.sub("", text))


# --- comparing graphs ---------------------------------------------------------------------------
def _fn_name(fn) -> str:
    return "None" if fn is None else normalize(type(fn).__name__)


def graph_diff(minigrad_tensor, torch_tensor):
    """None if the two backward graphs have the same shape, else a sentence naming the first
    differing node (walking both graphs breadth first from the output, in the same order)."""
    a, b = minigrad_tensor.grad_fn, torch_tensor.grad_fn
    queue = [(a, b, "grad_fn")]
    seen = set()
    while queue:
        fa, fb, path = queue.pop(0)
        if _fn_name(fa) != _fn_name(fb):
            return f"{path}: minigrad has {_fn_name(fa)}, torch has {_fn_name(fb)}"
        if fa is None or id(fa) in seen:
            continue
        seen.add(id(fa))
        na, nb = fa.next_functions, fb.next_functions
        if len(na) != len(nb):
            return (f"{path} ({_fn_name(fa)}): minigrad has {len(na)} next_functions, "
                    f"torch has {len(nb)}")
        if hasattr(fa, "variable") and list(fa.variable.shape) != list(fb.variable.shape):
            return (f"{path}.variable: minigrad has shape {list(fa.variable.shape)}, torch has "
                    f"{list(fb.variable.shape)}")
        for i, ((ua, ia), (ub, ib)) in enumerate(zip(na, nb)):
            step = f"{path}.next_functions[{i}]"
            if ia != ib:
                return f"{step}: minigrad uses output {ia}, torch uses output {ib}"
            queue.append((ua, ub, step))
    return None


# --- the session: two namespaces that persist across cells ----------------------------------
class Session:
    """Two persistent namespaces, one per engine, plus a shared random source.

    ``same_random(*shape)`` is available in both namespaces: it draws float32 normal numbers
    from one NumPy generator, rewound so both runs of a cell get the same numbers. Use it
    (or NumPy data copied with ``torch.tensor(...)``) instead of ``torch.randn``, whose numbers
    differ between the engines.
    """

    def __init__(self, seed: int = 0):
        self.rng = np.random.default_rng(seed)
        self.namespaces = {
            "torch": {"torch": torch, "np": np, "__name__": "__main__"},
            "minigrad": {"torch": minigrad, "np": np, "__name__": "__main__",
                         "__builtins__": _minigrad_builtins()},
        }
        for ns in self.namespaces.values():
            ns["same_random"] = self._same_random

    def _same_random(self, *shape):
        return self.rng.standard_normal(shape).astype(np.float32)

    def check(self, code: str, names=(), *, engine: str = "torch", graph: bool = True,
              quiet: bool = False, user_ns: dict | None = None, rtol: dict | None = None):
        """Run ``code`` on both engines and compare; see the module docstring."""
        if engine not in ENGINES:
            raise ValueError(f"engine must be one of {ENGINES}, got {engine!r}")
        names = list(names or ())
        state = self.rng.bit_generator.state
        runs = {}
        for which in ENGINES:
            self.rng.bit_generator.state = state
            runs[which] = run(code, self.namespaces[which])
        problems = _compare(runs, names, graph, rtol or {})
        if problems:
            raise AssertionError(_report(runs, names, problems))
        if user_ns is not None:
            user_ns.update({k: v for k, v in runs["torch"].namespace.items()
                            if not k.startswith("__")})
        if not quiet:
            _show(runs[engine], engine)
            print(confirmation(runs["torch"], names))
        return runs


def _minigrad_builtins() -> dict:
    b = dict(vars(builtins))
    b["__import__"] = _redirecting_import
    return b


def _compare(runs, names, graph: bool, rtol: dict):
    """The list of what differs (empty when the engines agree). A name in ``rtol`` is compared
    within that fraction of its largest entry (a value the cell rounds coarsely on purpose,
    e.g. through float16, whose last digits no two CPUs need agree on)."""
    lt, at = describe(runs["torch"], names, "torch")
    lm, am = describe(runs["minigrad"], names, "minigrad")
    problems = []
    numeric = set(at) & set(am)
    if [x for x in lt if not _is_value_line(x, numeric)] != \
            [x for x in lm if not _is_value_line(x, numeric)]:
        problems.append("text")
    for key in sorted(numeric, key=list(at).index):
        loose = rtol.get(key)
        if at[key].shape != am[key].shape:
            problems.append(key)
        elif loose is None and not np.allclose(at[key], am[key], rtol=1e-5, atol=1e-6,
                                               equal_nan=True):
            problems.append(key)
        elif loose is not None and at[key].size and not np.allclose(
                at[key], am[key], rtol=0, atol=loose * np.nanmax(np.abs(at[key])),
                equal_nan=True):
            problems.append(key)
    if graph:
        for name in names:
            t, m = runs["torch"].namespace.get(name), runs["minigrad"].namespace.get(name)
            if viz.is_tensor(t) and viz.is_tensor(m):
                diff = graph_diff(m, t)
                if diff is not None:
                    problems.append(f"graph of {name}: {diff}")
    return problems


def _is_value_line(line: str, numeric) -> bool:
    """Lines holding numbers are compared with allclose, not as text."""
    head = line.split(" = ", 1)[0]
    return " = " in line and head in numeric


def _report(runs, names, problems) -> str:
    lt, _unused = describe(runs["torch"], names, "torch")
    lm, _unused = describe(runs["minigrad"], names, "minigrad")
    diff = "\n".join(difflib.unified_diff(lt, lm, "torch", "minigrad (normalised)", lineterm=""))
    return _("minigrad differs from torch: {problems}").format(problems="; ".join(problems)) \
        + "\n" + diff


def confirmation(r: Run, names) -> str:
    """The deterministic line printed when both engines agree."""
    parts = []
    if r.output:
        parts.append(_("output"))
    if r.warnings:
        parts.append(_("warnings"))
    if r.error is not None:
        parts.append(_("error ({name})").format(name=r.error[0]))
    for name in names:
        value = r.namespace.get(name)
        parts.append(name)
        if viz.is_tensor(value) and viz.grad_of(value) is not None:
            parts.append(f"{name}.grad")
    return _("✓ minigrad matches torch: {what}").format(
        what=_(", ").join(parts) if parts else _("nothing to compare"))


def _show(r: Run, engine: str):
    """What the learner sees: the chosen engine's output, its warnings and its error."""
    # Addresses are masked on both engines: they change every run, and stored notebook outputs
    # must not.
    norm = normalize if engine == "minigrad" else (
        lambda s: _ADDRESS.sub("0x…", _TRIGGERED.sub("", s)))
    sys.stdout.write(norm(r.output))
    for kind, message in r.warnings:
        print(f"{kind}: {norm(message)}")
    if r.error is not None:
        print(f"{r.error[0]}: {norm(r.error[1])}")


# --- module-level API ----------------------------------------------------------------------------
_session = None


def session(reset: bool = False) -> Session:
    """The default session (made on first use; ``reset=True`` starts a fresh one)."""
    global _session
    if _session is None or reset:
        _session = Session()
    return _session


def check(code: str, names=(), **kwargs):
    """Run ``code`` on torch and on minigrad in the default session and compare the results.

    ``names``: tensors (or other values) to compare after the run. ``engine``: whose output
    the learner sees ("torch" or "minigrad"). ``graph=False`` skips the graph comparison.
    Raises ``AssertionError`` with a diff on any mismatch; returns the two ``Run`` objects.
    """
    return session().check(code, names, **kwargs)


def get(name: str, engine: str = "minigrad"):
    """A value from one engine's namespace, e.g. ``get("y")`` is minigrad's ``y``."""
    return session().namespaces[engine][name]


def seed_all(seed: int) -> None:
    """Seed torch, minigrad and ``same_random``: from here both engines draw the same numbers
    (minigrad's generator is torch's), as long as both draw the same things."""
    torch.manual_seed(seed)
    minigrad.manual_seed(seed)
    session().rng = np.random.default_rng(seed)


def same_random(*shape) -> np.ndarray:
    """float32 normal numbers from the default session's shared generator."""
    return session()._same_random(*shape)


# --- the IPython cell magic ---------------------------------------------------------------------
def _parse_magic_line(line: str):
    """``%%both x y~1e-3 --engine minigrad --no-graph`` -> (names, options); ``y~1e-3``
    compares ``y`` within 1e-3 of its largest entry."""
    names, options = [], {}
    words = iter(shlex.split(line))
    for w in words:
        if w == "--engine":
            options["engine"] = next(words)
        elif w == "--no-graph":
            options["graph"] = False
        elif w == "--quiet":
            options["quiet"] = True
        else:
            for n in filter(None, w.split(",")):
                n, _, tol = n.partition("~")
                names.append(n)
                if tol:
                    options.setdefault("rtol", {})[n] = float(tol)
    return names, options


def both(line: str, cell: str, user_ns: dict | None = None):
    """The body of ``%%both``: check the cell and copy torch's results into the notebook."""
    names, options = _parse_magic_line(line)
    session().check(cell, names, user_ns=user_ns, **options)


def load_ipython_extension(ipython) -> None:
    """``%load_ext coursekit.compare`` registers the ``%%both`` cell magic (and lets plots
    draw Chinese and Japanese labels)."""
    def magic(line, cell):
        both(line, cell, user_ns=ipython.user_ns)

    ipython.register_magic_function(magic, magic_kind="cell", magic_name="both")
    plot_fonts()


# Fonts with Chinese and Japanese glyphs, tried after matplotlib's own DejaVu Sans (Noto CJK is
# what set-up installs on Linux; the others come with macOS and Windows).
CJK_FONTS = ("Noto Sans CJK JP", "Noto Sans CJK SC", "Hiragino Sans", "PingFang SC",
             "Yu Gothic", "Microsoft YaHei")


def plot_fonts() -> None:
    """Let matplotlib fall back, glyph by glyph, to a CJK font for the translated lessons'
    labels (without it they draw as boxes, with a warning); Latin text keeps DejaVu Sans."""
    import matplotlib
    from matplotlib import font_manager

    have = {f.name for f in font_manager.fontManager.ttflist}
    first = ["Noto Sans CJK SC"] if i18n.language() == "zh" else []  # Chinese glyph forms
    extra = list(dict.fromkeys(name for name in (*first, *CJK_FONTS) if name in have))
    # a list of families is what matplotlib falls back along, glyph by glyph
    family = [f for f in matplotlib.rcParams["font.family"] if f not in CJK_FONTS]
    matplotlib.rcParams["font.family"] = family + extra


def enable() -> None:
    """Register ``%%both`` in the running IPython (a notebook's first cell calls this)."""
    ipython = get_ipython()
    if ipython is None:
        raise RuntimeError("coursekit.compare.enable() needs a running IPython or Jupyter kernel")
    load_ipython_extension(ipython)
