"""Run PyTorch's own tutorials and docs block by block, on torch and on minigrad, and compare.

    python tools/tutorial_sweep.py DIR [--only NAME ...] [--json OUT] [--markdown OUT]

DIR holds tutorial sources fetched by hand (they are third-party text and stay out of this
repository): sphinx-gallery ``.py`` files and ``.rst`` pages. Each file is split into code
blocks, and its blocks run twice, cumulatively in one namespace, each time in a fresh
subprocess: once with the real torch, once with ``minigrad`` standing in for ``torch`` (a
meta-path finder maps ``torch`` and every ``torch.X`` to ``minigrad`` and ``minigrad.X``).
Each block's stdout, warnings, displayed value, exception and the tensors it bound are
captured and compared after normalisation (module names, memory addresses, floats within a
relative 1e-6, profiler timings), and the block is classified:

    same            what torch printed and bound, minigrad printed and bound
    differs         it ran on both, with a different result (the first differing line is kept)
    minigrad error  torch ran it, minigrad raised
    out of scope    it needs what minigrad leaves out by design (a keyword, e.g. torchvision,
                    Conv2d, torch.compile, __torch_function__), or torch itself fails here
    not code        an ``::`` literal block that is not Python (an output listing)

The sweep this tool was written for ran on these files (any layout under DIR works):
pytorch/tutorials beginner_source/basics/autogradqs_tutorial.py, blitz/autograd_tutorial.py,
introyt/autogradyt_tutorial.py, examples_autograd/{polynomial_autograd, polynomial_custom_
function, two_layer_net_autograd, two_layer_net_custom_function}.py, examples_nn/{dynamic_net,
polynomial_module, polynomial_nn, polynomial_optim, two_layer_net_module, two_layer_net_nn,
two_layer_net_optim}.py, examples_tensor/polynomial_tensor.py; intermediate_source/
forward_ad_usage.py, autograd_saved_tensors_hooks_tutorial.py,
custom_function_double_backward_tutorial.rst; pytorch/pytorch docs/source/notes/autograd.rst
and extending.rst.

Why the choices: blocks are reseeded before each one (``manual_seed(seed + block)``, also
``random`` and NumPy) so one block's failure does not shift the random numbers of the next;
both engines get the same seeds, so the tutorial's numbers are compared as torch prints them.
Sphinx-gallery shows the value of a block's last expression, and sphinx's doctest the value
of every ``>>>`` expression; the runner shows them the same way. ``.rst`` pages assume names
they never import (``torch``, ``nn``, ``Function``): a preamble gives them, on both sides.
"""

from __future__ import annotations

import argparse
import ast
import dataclasses
import io
import json
import math
import os
import re
import subprocess
import sys
import tempfile
import time
import tokenize
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
RST_PREAMBLE = ("import os, tempfile, threading, uuid\nimport torch\nfrom torch import nn\n"
                "from torch.autograd import Function\ntmp_dir = tempfile.mkdtemp()\n")
FILE_TIMEOUT = float(os.environ.get("SWEEP_FILE_TIMEOUT", "240"))
REL_TOL = 1e-6
DEPRECATIONS = (DeprecationWarning, PendingDeprecationWarning, FutureWarning)

# What minigrad leaves out by design (its _left_out.py), and what needs more than a CPU torch.
# Matched on code with its comments removed.
OUT_OF_SCOPE = {
    "torchvision": r"\btorchvision\b",
    "torchviz (a drawing of torch's graph)": r"\btorchviz\b",
    "functorch (the old package; torch.func is its successor)": r"\bfunctorch\b|\bft\.",
    "torch.compile / torch.jit / torch.fx": r"\btorch\.(compile|jit|fx)\b|@torch\.jit|\bmake_fx\b",
    "convolution / pooling layers": r"\b(Conv[123]d|conv[123]d|MaxPool|AvgPool|max_pool|avg_pool)",
    "recurrent layers": r"\bnn\.(RNN|LSTM|GRU)\b",
    "batch norm": r"\b(BatchNorm|batch_norm)",  # LayerNorm is in (issue 22)
    "__torch_function__ / __torch_dispatch__":
        r"__torch_(function|dispatch)__|Torch(Function|Dispatch)Mode|\btorch\.(ops|overrides)\b"
        r"|create_selective_checkpoint_contexts",
    "profiler ranges for external tools (Intel ITT, NVIDIA NVTX)": r"\bemit_(itt|nvtx)\b",
    "multi-device (DataParallel, distributed)": r"\bDataParallel\b|torch\.distributed",
    "downloads": r"\bdownload\s*=\s*True|torch\.hub|urllib",
    "CUDA": r"\.cuda\(\)|['\"]cuda:\d",
}


@dataclasses.dataclass
class Block:
    """One runnable piece of a tutorial: its code, where it starts, how its values show."""

    number: int
    line: int
    code: str
    mode: str = "exec"          # "gallery": show the last expression; "doctest": show each one
    expected: str | None = None  # a doctest's printed expectation, kept for the report only


# ----------------------------------------------------------------------------- splitting

_SEPARATOR = re.compile(r"^(#{20,}|# ?%%)")


def _docstring_end(lines: list[str]) -> int:
    """The line index after a module docstring at the top of the file (0 if there is none)."""
    try:
        tree = ast.parse("".join(lines))
    except SyntaxError:
        return 0
    first = tree.body[0] if tree.body else None
    if (isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant)
            and isinstance(first.value.value, str)):
        return first.end_lineno
    return 0


def _has_statements(code: str) -> bool:
    try:
        return bool(ast.parse(code).body)
    except SyntaxError:
        return True  # let the runner report it


def split_gallery(text: str) -> list[Block]:
    """Sphinx-gallery's cells: a ``####...`` (20 or more) or ``# %%`` line opens a text cell of
    the comment lines right after it; the code that follows, up to the next separator, is one
    block. The module docstring is text."""
    lines = text.splitlines(keepends=True)
    i = _docstring_end(lines)
    blocks, current, start, in_text = [], [], i + 1, False

    def close():
        code = "".join(current)
        if _has_statements(code):
            blocks.append(Block(len(blocks) + 1, start, code, "gallery"))

    while i < len(lines):
        line = lines[i]
        if _SEPARATOR.match(line):
            close()
            current, in_text = [], True
        elif in_text and line.lstrip().startswith("#"):
            pass
        else:
            if in_text or not current:
                start = i + 1
            in_text = False
            current.append(line)
        i += 1
    close()
    return blocks


_DIRECTIVE = re.compile(r"^(\s*)\.\. (code|code-block|sourcecode|testcode|doctest)::\s*(\S*)\s*$")
_LITERAL = re.compile(r"^(\s*)(.*)::\s*$")
_PYTHON = {"", "python", "python3", "py", "pycon", "default"}


def _indented_body(lines: list[str], i: int, indent: int) -> tuple[list[str], int]:
    """The lines after a directive or ``::`` that are indented deeper than ``indent``
    (options such as ``:caption:`` skipped), and the index after them."""
    body = []
    while i < len(lines):
        line = lines[i]
        if line.strip() and len(line) - len(line.lstrip()) <= indent:
            break
        body.append(line)
        i += 1
    while body and not body[-1].strip():
        body.pop()
    while body and (not body[0].strip() or re.match(r"^\s*:\w[\w-]*:", body[0])):
        body.pop(0)
    if not body:
        return [], i
    margin = min(len(x) - len(x.lstrip()) for x in body if x.strip())
    return [x[margin:] if x.strip() else "\n" for x in body], i


def _doctest(body: list[str]) -> tuple[str, str]:
    """Source and expected output of a ``>>>`` session."""
    source, expected = [], []
    for line in body:
        stripped = line.rstrip("\n")
        if stripped.startswith(">>> ") or stripped == ">>>":
            source.append(stripped[4:] + "\n")
        elif stripped.startswith("... ") or stripped == "...":
            source.append(stripped[4:] + "\n")
        else:
            expected.append(stripped + "\n")
    return "".join(source), "".join(expected)


def split_rst(text: str) -> list[Block]:
    """``.. code::`` / ``.. code-block:: python`` directives and ``::`` literal blocks, in order.
    A body that starts with ``>>>`` is a doctest session; a literal block that is not Python
    (an output listing) becomes a ``not code`` block."""
    lines = text.splitlines(keepends=True)
    blocks, i = [], 0
    while i < len(lines):
        line = lines[i]
        if line.lstrip().startswith(">>>"):
            # a doctest block of its own (no ``::`` needed): it ends at a blank line
            end = i
            while end < len(lines) and lines[end].strip():
                end += 1
            margin = len(line) - len(line.lstrip())
            code, expected = _doctest([x[margin:] for x in lines[i:end]])
            blocks.append(Block(len(blocks) + 1, i + 1, code, "doctest", expected))
            i = end
            continue
        directive = _DIRECTIVE.match(line)
        literal = None if directive else _LITERAL.match(line)
        if directive and directive.group(3).lower() not in _PYTHON:
            i += 1
            continue
        if not directive and not (literal and not line.lstrip().startswith("..")):
            i += 1
            continue
        indent = len((directive or literal).group(1))
        body, after = _indented_body(lines, i + 1, indent)
        if body:
            number, start = len(blocks) + 1, i + 2
            if body[0].startswith(">>>"):
                code, expected = _doctest(body)
                blocks.append(Block(number, start, code, "doctest", expected))
            else:
                blocks.append(Block(number, start, "".join(body), "exec"))
        i = max(after, i + 1)
    return blocks


def split_file(path: Path) -> list[Block]:
    text = path.read_text(encoding="utf-8")
    return split_rst(text) if path.suffix == ".rst" else split_gallery(text)


def is_python(code: str) -> bool:
    try:
        compile(code, "<block>", "exec")
    except SyntaxError:
        return False
    return True


def strip_comments(code: str) -> str:
    """The code without its comments, for keyword matching (a commented-out ``.cuda()`` is
    not a need for CUDA)."""
    try:
        tokens = [t for t in tokenize.generate_tokens(io.StringIO(code).readline)
                  if t.type != tokenize.COMMENT]
        return tokenize.untokenize(tokens)
    except (tokenize.TokenError, IndentationError, SyntaxError):
        return code


def out_of_scope_reason(code: str) -> str | None:
    plain = strip_comments(code)
    for reason, pattern in OUT_OF_SCOPE.items():
        if re.search(pattern, plain):
            return reason
    return None


# ----------------------------------------------------------------------------- normalising

_ADDRESS = re.compile(r"0x[0-9a-fA-F]+")
_TMP_PATH = re.compile(r"/tmp/[\w.+-]+(?:/[\w.+-]+)*")
_TRIGGERED = re.compile(r" ?\(Triggered internally at [^)]*\)\.?")  # where in torch's C++
_NUMBER = re.compile(r"(?<![\w.])[-+]?(?:\d+\.\d*|\.\d+|\d+)(?:[eE][-+]?\d+)?(?![\w.])")
_TIME = re.compile(r"-?\d+(?:\.\d+)?(?:us|ms|s|%)(?!\w)")


def _profiler_table(text: str) -> str:
    """Profiler tables print timings that change from run to run and rows sorted by them:
    keep the op names and call counts, sorted, drop the times and the column padding."""
    out, rows, in_table = [], [], False
    for line in text.split("\n"):
        if "Self CPU" in line and "Name" in line:
            in_table = True
            out.append("<profiler table>")
            continue
        if in_table:
            if line.startswith("Self CPU time total"):
                out.extend(sorted(rows))
                out.append("Self CPU time total: <time>")
                rows, in_table = [], False
            elif line.strip() and not set(line.strip()) <= {"-", " "}:
                rows.append(" ".join(_TIME.sub("<t>", line).split()))
            continue
        out.append(line)
    out.extend(sorted(rows))
    return "\n".join(out)


def normalise(text: str) -> str:
    """Engine-neutral text: minigrad's module name read as torch's, addresses hidden,
    where in torch's C++ a warning was raised dropped, trailing spaces dropped, profiler
    timings removed."""
    text = _TRIGGERED.sub("", text.replace("minigrad", "torch"))
    text = _ADDRESS.sub("0xADDR", text)
    text = _TMP_PATH.sub("<tmp path>", text)
    if "Self CPU" in text:
        text = _profiler_table(text)
    return "\n".join(line.rstrip() for line in text.strip("\n").split("\n"))


def _numbers(text: str) -> tuple[str, list[float]]:
    values = [float(m) for m in _NUMBER.findall(text)]
    return _NUMBER.sub("#", text), values


def _close(a: float, b: float) -> bool:
    if a == b or (math.isnan(a) and math.isnan(b)):
        return True
    return math.isfinite(a) and math.isfinite(b) and abs(a - b) <= REL_TOL * max(abs(a), abs(b))


def compare_text(torch_text: str, mini_text: str) -> tuple[bool, str | None, float, float]:
    """Whether two normalised outputs agree (numbers within REL_TOL), the first differing
    line pair if not, and the largest relative and absolute differences among the numbers
    (relative is inf when the text around the numbers differs)."""
    a, b = normalise(torch_text), normalise(mini_text)
    if a == b:
        return True, None, 0.0, 0.0
    a_lines, b_lines = a.split("\n"), b.split("\n")
    worst, worst_abs, first = 0.0, 0.0, None
    for k in range(max(len(a_lines), len(b_lines))):
        la = a_lines[k] if k < len(a_lines) else "<no line>"
        lb = b_lines[k] if k < len(b_lines) else "<no line>"
        if la == lb:
            continue
        sa, va = _numbers(la)
        sb, vb = _numbers(lb)
        if sa == sb and len(va) == len(vb):
            pairs = [(x, y) for x, y in zip(va, vb) if not _close(x, y)]
            if not pairs:
                continue
            worst = max(worst, max(abs(x - y) / max(abs(x), abs(y)) for x, y in pairs))
            worst_abs = max(worst_abs, max(abs(x - y) for x, y in pairs))
        else:
            worst = math.inf
        if first is None:
            first = f"line {k + 1}:\n  torch:    {la}\n  minigrad: {lb}"
    return first is None, first, worst, worst_abs


# ----------------------------------------------------------------------------- the child

ALIAS_SOURCE = r'''
import importlib, importlib.abc, importlib.util, sys

class _TorchIsMinigrad(importlib.abc.MetaPathFinder, importlib.abc.Loader):
    """``import torch.X`` gives ``minigrad.X``, the very module object."""

    def find_spec(self, name, path=None, target=None):
        if name != "torch" and not name.startswith("torch."):
            return None
        real = "minigrad" + name[len("torch"):]
        try:
            module = importlib.import_module(real)
        except ModuleNotFoundError as error:
            if error.name == real:
                return None
            raise
        spec = importlib.util.spec_from_loader(name, self)
        spec._sweep_module = module
        return spec

    def create_module(self, spec):
        module = spec._sweep_module
        spec._sweep_saved_spec = module.__spec__
        return module

    def exec_module(self, module):
        module.__spec__ = module.__spec__._sweep_saved_spec  # keep minigrad's own spec

sys.meta_path.insert(0, _TorchIsMinigrad())
'''


def _bound_names(tree: ast.AST) -> list[str]:
    """Names a block binds at top level (assignments, loops, with-as), in order."""
    names = []

    def targets(node):
        if isinstance(node, ast.Name):
            names.append(node.id)
        elif isinstance(node, (ast.Tuple, ast.List)):
            for element in node.elts:
                targets(element)
        elif isinstance(node, ast.Starred):
            targets(node.value)

    for node in getattr(tree, "body", []):
        if isinstance(node, ast.Assign):
            for target in node.targets:
                targets(target)
        elif isinstance(node, (ast.AugAssign, ast.AnnAssign)):
            targets(node.target)
        elif isinstance(node, (ast.For, ast.With)):
            if isinstance(node, ast.For):
                targets(node.target)
            else:
                for item in node.items:
                    if item.optional_vars is not None:
                        targets(item.optional_vars)
            for inner in node.body:
                if isinstance(inner, ast.Assign):
                    for target in inner.targets:
                        targets(target)
    return list(dict.fromkeys(names))


def child_main(spec_path: str, out_path: str) -> None:
    """Run one file's blocks on one engine, writing one JSON line per block as it ends."""
    spec = json.loads(Path(spec_path).read_text())
    if spec["engine"] == "minigrad":
        sys.path.insert(0, spec["root"])
        exec(ALIAS_SOURCE, {})
    import contextlib
    import random
    import traceback
    import warnings

    import numpy
    import torch  # the real one, or minigrad under torch's name

    def describe(value, depth=0):
        """A short, engine-neutral account of a bound value (tensors by their sums)."""
        if isinstance(value, torch.Tensor):
            parts = [f"shape={tuple(value.shape)}", f"dtype={value.dtype}",
                     f"requires_grad={value.requires_grad}"]
            if value.grad_fn is not None:
                parts.append(f"grad_fn={type(value.grad_fn).__name__}")
            try:
                with torch.no_grad():
                    # sums of magnitudes: a sum that cancels (sin over a period) would turn
                    # one-ulp differences of the elements into large relative ones
                    parts.append(f"abs_sum={float(value.detach().double().abs().sum()):.9g}")
                    if value.grad is not None:
                        parts.append(f"grad_abs_sum={float(value.grad.double().abs().sum()):.9g}")
            except Exception as error:  # noqa: BLE001 - any failure is part of the account
                parts.append(f"<{type(error).__name__}>")
            return "Tensor(" + ", ".join(parts) + ")"
        if isinstance(value, (tuple, list)) and depth == 0 and len(value) <= 8:
            inner = ", ".join(describe(v, 1) for v in value)
            return f"{type(value).__name__}({inner})"
        if isinstance(value, (bool, int, float, str)) or value is None:
            text = repr(value)
            return text if len(text) < 200 else text[:200] + "..."
        if isinstance(value, (torch.nn.Module, torch.dtype, torch.device, torch.Size)):
            return repr(value)
        return f"<{type(value).__name__}>"

    ns = {"__name__": "__main__", "__builtins__": __builtins__}
    if spec["preamble"]:
        exec(compile(spec["preamble"], "<preamble>", "exec"), ns)
    results = open(out_path, "w")
    for block in spec["blocks"]:
        seed = spec["seed"] + block["number"]
        torch.manual_seed(seed)
        random.seed(seed)
        numpy.random.seed(seed % 2**32)
        out = io.StringIO()
        caught = []
        record = {"number": block["number"], "error": None}
        begin = time.perf_counter()

        def show(msg, category, filename, lineno, file=None, line=None, caught=caught):
            # a deprecation inside the library's own imports is not the tutorial's business
            if filename.startswith("<block") or not issubclass(category, DEPRECATIONS):
                caught.append(f"{category.__name__}: {msg}")

        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(out), \
                warnings.catch_warnings():
            warnings.showwarning = show
            warnings.simplefilter("default")
            try:
                code = block["code"]
                tree = ast.parse(code)
                if block["mode"] == "doctest":
                    for node in tree.body:
                        piece = ast.Interactive(body=[node])
                        exec(compile(piece, f"<block {block['number']}>", "single"), ns)
                elif (block["mode"] == "gallery" and tree.body
                      and isinstance(tree.body[-1], ast.Expr)):
                    head = ast.Module(body=tree.body[:-1], type_ignores=[])
                    exec(compile(head, f"<block {block['number']}>", "exec"), ns)
                    tail = ast.Expression(body=tree.body[-1].value)
                    value = eval(compile(tail, f"<block {block['number']}>", "eval"), ns)
                    if value is not None:
                        print(repr(value))
                else:
                    exec(compile(tree, f"<block {block['number']}>", "exec"), ns)
            except BaseException as error:  # noqa: BLE001 - SystemExit too is a block's result
                lines = traceback.format_exception_only(type(error), error)
                record["error"] = "".join(lines).strip()
                frames = traceback.extract_tb(error.__traceback__)
                record["where"] = [f"{f.filename}:{f.lineno} {f.name}" for f in frames[-4:]]
        record["seconds"] = round(time.perf_counter() - begin, 3)
        record["stdout"] = out.getvalue()
        record["warnings"] = caught
        bound = []
        try:
            for name in _bound_names(ast.parse(block["code"])):
                if name in ns:
                    bound.append(f"{name} = {describe(ns[name])}")
        except Exception as error:  # noqa: BLE001
            bound.append(f"<could not describe: {type(error).__name__}>")
        record["bound"] = bound
        results.write(json.dumps(record) + "\n")
        results.flush()
    results.close()


# ----------------------------------------------------------------------------- the parent

def run_engine(path: Path, blocks: list[Block], engine: str, seed: int,
               timeout: float = FILE_TIMEOUT) -> tuple[dict[int, dict], str | None]:
    """Run the blocks in a fresh subprocess in a fresh directory; results by block number,
    and what went wrong with the process itself, if anything."""
    preamble = RST_PREAMBLE if path.suffix == ".rst" else ""
    with tempfile.TemporaryDirectory(prefix=f"sweep-{engine}-") as work:
        spec_path, out_path = Path(work, "spec.json"), Path(work, "results.jsonl")
        spec_path.write_text(json.dumps({
            "engine": engine, "root": str(ROOT), "seed": seed, "preamble": preamble,
            "blocks": [dataclasses.asdict(b) for b in blocks if is_python(b.code)],
        }))
        env = dict(os.environ, MPLBACKEND="Agg", PYTHONHASHSEED="0")
        env.pop("PYTHONPATH", None)
        cwd = Path(work, "cwd")
        cwd.mkdir()
        problem = None
        try:
            proc = subprocess.run(
                [sys.executable, str(Path(__file__).resolve()), "--child", str(spec_path),
                 str(out_path)], cwd=cwd, env=env, capture_output=True, text=True,
                timeout=timeout)
            if proc.returncode != 0:
                problem = f"exit {proc.returncode}: {proc.stderr.strip()[-500:]}"
        except subprocess.TimeoutExpired:
            problem = f"timed out after {timeout:.0f} s"
        results = {}
        if out_path.exists():
            for line in out_path.read_text().splitlines():
                record = json.loads(line)
                results[record["number"]] = record
        return results, problem


def printed_text(record: dict) -> str:
    """What a block showed: its output, warnings and error, as one text."""
    parts = [record.get("stdout", "")]
    parts += [f"[warning] {w}" for w in record.get("warnings", [])]
    if record.get("error"):
        parts.append(f"[error] {record['error']}")
    return "\n".join(p.rstrip("\n") for p in parts if p)


def bound_text(record: dict) -> str:
    """What a block left behind: the names it bound, described."""
    return "\n".join(f"[bound] {b}" for b in record.get("bound", []))


def block_text(record: dict) -> str:
    return "\n".join(t for t in (printed_text(record), bound_text(record)) if t)


@dataclasses.dataclass
class Verdict:
    file: str
    number: int
    line: int
    status: str      # same, differs, minigrad error, out of scope, not code
    detail: str = ""
    seconds: tuple[float, float] = (0.0, 0.0)
    code: str = ""


def classify(block: Block, reason: str | None, torch_rec: dict | None, mini_rec: dict | None,
             torch_problem: str | None, mini_problem: str | None) -> tuple[str, str]:
    """The status of one block from both engines' records, and the detail that explains it;
    ``reason`` says why the block is out of scope, if it is, before anything ran."""
    if not is_python(block.code):
        return "not code", ""
    if torch_rec is None:
        return "out of scope", f"torch did not reach it ({torch_problem})"
    if torch_rec.get("error"):
        mine = (mini_rec or {}).get("error")
        same = mine is not None and normalise(mine) == normalise(torch_rec["error"])
        tail = "minigrad raises the same error" if same else f"minigrad: {mine or 'no error'}"
        return "out of scope", f"torch fails: {torch_rec['error'].splitlines()[-1]} ({tail})"
    if reason:
        return "out of scope", reason
    if mini_rec is None:
        return "minigrad error", f"minigrad did not reach it ({mini_problem})"
    if mini_rec.get("error"):
        where = "; ".join(mini_rec.get("where", [])[-2:])
        return "minigrad error", mini_rec["error"] + (f"\n  at {where}" if where else "")
    for what, text in (("printed output", printed_text), ("bound values only", bound_text)):
        same, first, worst, worst_abs = compare_text(text(torch_rec), text(mini_rec))
        if not same:
            scale = ("text" if math.isinf(worst) else
                     f"numbers: relative {worst:.2g}, absolute {worst_abs:.2g}")
            return "differs", f"[{what}; {scale}] {first}"
    return "same", ""


def _statement_bindings(node: ast.stmt) -> set[str]:
    bound = set(_bound_names(ast.Module(body=[node], type_ignores=[])))
    if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
        bound.add(node.name)
    elif isinstance(node, (ast.Import, ast.ImportFrom)):
        bound.update((a.asname or a.name).split(".")[0] for a in node.names)
    return bound


_SCOPES = (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ListComp, ast.SetComp,
           ast.DictComp, ast.GeneratorExp)


def _global_loads(node: ast.AST, local: frozenset):
    """Names read at module level, or read inside a function or comprehension without being
    its own parameter or variable."""
    if isinstance(node, _SCOPES):
        names = {n.id for n in ast.walk(node) if isinstance(n, ast.Name)
                 and isinstance(n.ctx, ast.Store)}
        if not isinstance(node, (ast.ListComp, ast.SetComp, ast.DictComp, ast.GeneratorExp)):
            names |= {a.arg for a in ast.walk(node.args) if isinstance(a, ast.arg)}
        local = local | names
    if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Load) and node.id not in local:
        yield node.id
    for child in ast.iter_child_nodes(node):
        yield from _global_loads(child, local)


def _names(tree: ast.AST) -> tuple[set[str], set[str]]:
    """The names a block reads before binding them itself (statement by statement), and the
    names it binds at top level (defs, classes and imports too)."""
    free, bound = set(), set()
    for node in getattr(tree, "body", []):
        loads = set(_global_loads(node, frozenset()))
        free |= loads - bound
        bound |= _statement_bindings(node)
    return free, bound


def scope_reasons(blocks: list[Block]) -> dict[int, str | None]:
    """Why each block is out of scope before it runs: a keyword in its code, or a name it
    reads that an out-of-scope block defined (a class with ``__torch_function__``...)."""
    tainted, reasons = {}, {}   # name -> the keyword reason at the root of its definition
    for block in blocks:
        reason = root = out_of_scope_reason(block.code)
        try:
            used, bound = _names(ast.parse(block.code))
        except SyntaxError:
            reasons[block.number] = reason
            continue
        if reason is None:
            for name in sorted(used & tainted.keys()):
                root = tainted[name]
                reason = f"uses {name}, defined in an out-of-scope block ({root})"
                break
        for name in bound:
            if root:
                tainted[name] = root
            else:
                tainted.pop(name, None)
        reasons[block.number] = reason
    return reasons


def sweep_file(path: Path, seed: int = 0, timeout: float = FILE_TIMEOUT) -> list[Verdict]:
    blocks = split_file(path)
    reasons = scope_reasons(blocks)
    torch_res, torch_problem = run_engine(path, blocks, "torch", seed, timeout)
    mini_res, mini_problem = run_engine(path, blocks, "minigrad", seed, timeout)
    verdicts, failed_before = [], False
    for block in blocks:
        t, m = torch_res.get(block.number), mini_res.get(block.number)
        status, detail = classify(block, reasons[block.number], t, m, torch_problem, mini_problem)
        if status in ("minigrad error", "differs") and failed_before:
            detail += "\n  (an earlier block of this file already failed on minigrad)"
        if status in ("minigrad error", "differs"):
            failed_before = True
        seconds = ((t or {}).get("seconds", 0.0), (m or {}).get("seconds", 0.0))
        verdicts.append(Verdict(path.name, block.number, block.line, status, detail, seconds,
                                block.code))
    return verdicts


STATUSES = ("same", "differs", "minigrad error", "out of scope", "not code")


def summary_table(verdicts: list[Verdict]) -> str:
    files = list(dict.fromkeys(v.file for v in verdicts))
    header = f"{'file':48} {'blocks':>6} {'in scope':>8} " + " ".join(
        f"{s:>14}" for s in STATUSES) + f" {'torch s':>8} {'minigrad s':>10}"
    rows = [header, "-" * len(header)]
    for name in files + ["TOTAL"]:
        mine = [v for v in verdicts if name in ("TOTAL", v.file)]
        counts = {s: sum(v.status == s for v in mine) for s in STATUSES}
        in_scope = counts["same"] + counts["differs"] + counts["minigrad error"]
        seconds = [sum(v.seconds[k] for v in mine) for k in (0, 1)]
        rows.append(f"{name:48} {len(mine):>6} {in_scope:>8} " + " ".join(
            f"{counts[s]:>14}" for s in STATUSES)
            + f" {seconds[0]:>8.1f} {seconds[1]:>10.1f}")
    in_scope = [v for v in verdicts if v.status in ("same", "differs", "minigrad error")]
    same = sum(v.status == "same" for v in in_scope)
    rows.append(f"\n{same} of {len(in_scope)} in-scope blocks same")
    return "\n".join(rows)


def failures_markdown(verdicts: list[Verdict]) -> str:
    lines = []
    for v in verdicts:
        if v.status in ("differs", "minigrad error"):
            lines.append(f"### {v.file} block {v.number} (line {v.line}): {v.status}\n")
            lines.append("```\n" + v.detail.strip() + "\n```\n")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("directory", type=Path)
    parser.add_argument("--only", nargs="*", default=None, help="file names (or parts) to run")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--timeout", type=float, default=FILE_TIMEOUT,
                        help="seconds for one file on one engine")
    parser.add_argument("--json", type=Path, help="write every verdict here")
    parser.add_argument("--markdown", type=Path, help="write the failing blocks here")
    parser.add_argument("-v", "--verbose", action="store_true", help="print every block")
    parser.add_argument("--dump", type=int, metavar="N",
                        help="print what block N of each file showed on both engines")
    args = parser.parse_args(argv)
    paths = sorted(p for p in args.directory.rglob("*") if p.suffix in (".py", ".rst"))
    if args.only:
        paths = [p for p in paths if any(part in str(p) for part in args.only)]
    if args.dump is not None:
        for path in paths:
            blocks = split_file(path)
            block = next(b for b in blocks if b.number == args.dump)
            print(f"=== {path.name} block {block.number} (line {block.line})\n{block.code}")
            for engine in ("torch", "minigrad"):
                records, problem = run_engine(path, blocks[:args.dump], engine, args.seed,
                                              args.timeout)
                record = records.get(args.dump, {})
                print(f"--- {engine}{' (' + problem + ')' if problem else ''}")
                print(block_text(record))
                if record.get("where"):
                    print("\n".join(record["where"]))
        return 0
    verdicts = []
    for path in paths:
        begin = time.perf_counter()
        mine = sweep_file(path, args.seed, args.timeout)
        verdicts += mine
        print(f"{path.relative_to(args.directory)}: {len(mine)} blocks, "
              f"{time.perf_counter() - begin:.0f} s", file=sys.stderr)
        for v in mine:
            if args.verbose or v.status in ("differs", "minigrad error"):
                print(f"  block {v.number} (line {v.line}) {v.status}"
                      + (f": {v.detail}" if v.detail else ""), file=sys.stderr)
    print(summary_table(verdicts))
    if args.json:
        args.json.write_text(json.dumps([dataclasses.asdict(v) for v in verdicts], indent=1))
    if args.markdown:
        args.markdown.write_text(failures_markdown(verdicts))
    return 0


if __name__ == "__main__":
    if len(sys.argv) == 4 and sys.argv[1] == "--child":
        child_main(sys.argv[2], sys.argv[3])
    else:
        sys.exit(main())
