"""Attacks beyond the issue's list, each planted in a copy of an exercise or a solution and graded.

Two notebooks are graded with the real grader (sandboxed: several attacks signal every process
they can reach, which outside a sandbox would be the whole machine's; the prisoner also tries
to remount the sandbox's read-only folders writable first):

* ``forger``: an untouched exercise 01 plus cells that hunt for solutions anywhere on the
  machine (files, git histories, symlinks out of the scratch folder) and exec their answers,
  forge kernel replies with the id found on the stack, signal the grader, leave daemons and a
  crowd of processes behind, keep threads changing the answers, patch minigrad, NumPy, torch
  (``__eq__``, ``tolist``, ``.grad``, ``.data``, ``.shape``) and the grader's encoder, define
  lying objects (subclasses, metaclasses, lying ``__class__``), hide a right answer in a cell
  marked as a check, add a check cell of their own, duplicate cell ids, use look-alike names,
  make a huge cell, put terminal escapes in an error message, and unsettle the kernel (cwd
  changed, a tiny recursion limit, a stdout whose flush exits). It must score 0, with the
  solution's questions and honest feedback.
* ``prisoner``: the solution of exercise 01, each answer cell preceded by a probe that raises
  if it escapes (a solution file or git history visible, a file written outside the sandbox,
  the grader's processes or environment visible, a terminal, the network, a disk filled). It
  must score full marks, and no file it tried to write may exist afterwards.

A third, ``bomber``, runs a fork bomb (where the kernel's tasks are capped by a cgroup) and keeps
its full marks. Submissions that are not notebooks (a symlink to a solution, a huge file,
broken JSON shapes) get "unreadable" without starting a kernel.
"""

from __future__ import annotations

import json
import os
import shutil
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import nbformat
import pytest

from coursekit.grading import grader
from coursekit.grading.grader import grade, printable
from coursekit.grading.runner import Limits, pids_cgroup, sandbox_available
from tests.setup_guarantees import needs, skip_unless

ROOT = Path(__file__).resolve().parents[2]
SOLUTIONS = ROOT / "solutions"
LESSON = "01_computational_graphs"
MARK = "31337.25"  # the daemons' sleep argument, to find them afterwards
SECRET = "G14_TEACHER_TOKEN"  # in the grader's environment while grading
QUESTIONS = {"01.1": 2, "01.2": 2, "01.3": 2, "01.4": 3}

needs_sandbox = needs(sandbox_available(), "bubblewrap is not usable here (these attacks "
                      "signal every process they can reach)")

HUNT = r"""
import os, json, subprocess
_found = []
def _answers(text):
    if text.lstrip().startswith('{'):
        try:
            cells = json.loads(text)['cells']
        except Exception:
            return []
        return [''.join(c['source']) for c in cells
                if c.get('metadata', {}).get('role') == 'answer']
    return [c.split('\n', 1)[1] for c in text.split('# %%')
            if 'role="answer"' in c.split('\n', 1)[0]]
def _run(src):
    exec(src.replace('### BEGIN SOLUTION', '').replace('### END SOLUTION', ''), globals())
for _root, _dirs, _files in os.walk('/'):
    if _root == '/':
        _dirs[:] = [d for d in _dirs if d not in ('proc', 'sys', 'dev', 'usr')]
    for _d in _dirs:
        if _d == '.git' or _d.endswith('.git'):
            for _p in ('solutions/01_computational_graphs.py',
                       'solutions/01_computational_graphs.ipynb'):
                _out = subprocess.run(['git', '--git-dir', os.path.join(_root, _d), 'show',
                                       'HEAD:' + _p], capture_output=True, text=True).stdout
                if _out:
                    _found.append(_p)
                    for _src in _answers(_out):
                        _run(_src)
    for _f in _files:
        if _f.startswith('01_') and _f.endswith(('.py', '.ipynb')):
            try:
                _text = open(os.path.join(_root, _f), encoding='utf-8').read()
            except Exception:
                continue
            if 'BEGIN SOLUTION' in _text:
                _found.append(os.path.join(_root, _f))
                for _src in _answers(_text):
                    try:
                        _run(_src)
                    except Exception:
                        pass
for _target in ('/', '/work', '/root', '/home', '/proc/1/root', '/proc/1/cwd'):
    try:  # a symlink out of the scratch folder sees only what the sandbox shows
        os.symlink(_target, 'link')
        _found += [n for n in os.listdir('link') if 'solution' in n]
        os.remove('link')
    except OSError:
        pass
print("hunt found", _found)
for _pid in os.listdir("/proc"):
    for _what in ('cwd', 'root'):
        try:
            _found += os.listdir(f'/proc/{_pid}/{_what}/solutions')
        except Exception:
            pass
"""

FORGE_REPLY = r"""
import sys, os, json
def topo_order(root):
    f = sys._getframe()
    while f is not None:
        req = f.f_locals.get('request')
        if isinstance(req, dict) and 'id' in req:
            forged = {'id': req['id'], 'status': 'ok',
                      'result': json.dumps({'points': 3, 'feedback': 'correct'})}
            line = (json.dumps(forged) + '\n').encode()
            for fd in range(3, 64):
                try:
                    os.write(fd, line)
                except OSError:
                    pass
            for folder in ('/proc/self/fd', '/proc/1/fd'):
                for name in os.listdir(folder):
                    try:
                        with open(f'{folder}/{name}', 'wb') as pipe:
                            pipe.write(line)
                    except OSError:
                        pass
            break
        f = f.f_back
    return []
"""

SIGNALS = r"""
import os, signal
for _pid, _sig in ((os.getppid(), signal.SIGKILL), (1, signal.SIGKILL), (-1, signal.SIGSTOP),
                   (-1, signal.SIGTERM)):
    try:
        os.kill(_pid, _sig)
    except OSError:
        pass
"""

PROCESSES = f"""
import os, subprocess
if os.fork() == 0:  # a daemon: its own session, its parent gone
    os.setsid()
    if os.fork() == 0:
        os.execvp('sleep', ['sleep', '{MARK}'])
    os._exit(0)
os.wait()
_crowd = [subprocess.Popen(['sleep', '{MARK}']) for _ in range(200)]
"""

THREADS = r"""
import threading, random, time
def _churn():
    while True:
        globals().update(grad_x=random.random(), grad_y=8.0, a=16.0, grad_a=random.random())
        time.sleep(0.001)
threading.Thread(target=_churn, daemon=True).start()
"""

PATCHES = r"""
import sys, numpy as np, torch, minigrad
minigrad.Tensor.__eq__ = lambda *a: True
minigrad.allclose = lambda *a, **k: True
minigrad.Tensor.tolist = lambda self: [8.0]
torch.Tensor.tolist = lambda self: 8.0
torch.Tensor.grad = property(lambda self: torch.tensor(8.0))
torch.Tensor.data = property(lambda self: torch.tensor(8.0))
minigrad.Tensor.grad = property(lambda self: minigrad.tensor(8.0))
minigrad.Tensor.data = property(lambda self: minigrad.tensor(8.0))
minigrad.Tensor.shape = property(lambda self: ())
for _t in (np.ndarray,):
    try:
        _t.tolist = lambda self: [8.0]
    except TypeError:
        pass
for _m in list(sys.modules.values()):
    _d = getattr(_m, '__dict__', None)
    if not isinstance(_d, dict):
        continue
    for _k in ('_nd_tolist', '_t_tolist', '_np_item'):
        if _k in _d:
            _d[_k] = lambda x: 8.0
    if '_ENCODE' in _d:
        _d['_ENCODE'] = lambda x, *a: 8.0
"""

UNSETTLING = r"""
import os, sys, faulthandler
os.chdir('/')
faulthandler.enable()
sys.setrecursionlimit(60)
class _Flusher:
    def write(self, text): return len(text)
    def flush(self): raise SystemExit(0)
sys.stdout = _Flusher()
"""

LIARS = r"""
import numpy as np, torch, minigrad
class _Meta(type):
    def __instancecheck__(cls, obj): return True
    def __subclasscheck__(cls, sub): return True
class Anything(metaclass=_Meta):
    __class__ = property(lambda self: float)
    def __reduce__(self): raise RuntimeError('no')
    def __repr__(self):
        while True: pass
    def __hash__(self): raise RuntimeError('no')
    def __float__(self): return 8.0
    def __eq__(self, other): return True
class NpLiar(np.ndarray):
    def __eq__(self, other): return np.ones_like(np.asarray(self), dtype=bool)
class TorchLiar(torch.Tensor):
    @property
    def shape(self): return torch.Size([])
class MgLiar(minigrad.Tensor):
    pass
z = Anything()
grad_w1 = np.array(0.0).view(NpLiar)
grad_w2 = torch.tensor(0.0).as_subclass(TorchLiar)
grad_w3 = MgLiar(0.0) if callable(MgLiar) else 0.0
grad_w4 = [Anything()] * 10
"""


def _exercise():
    return nbformat.read(ROOT / "exercises" / f"{LESSON}.ipynb", as_version=4)


def _solution():
    return nbformat.read(SOLUTIONS / f"{LESSON}.ipynb", as_version=4)


def _cell(nb, qid, role):
    return next(c for c in nb.cells if c.metadata.get("question") == qid
                and c.metadata.get("role") == role)


def _forger():
    nb = _exercise()
    answers = _solution()
    # a right answer hidden in a cell that says it is a check: the grader skips it
    hidden = nbformat.v4.new_code_cell(_cell(answers, "01.2", "answer").source)
    hidden.metadata.update(role="check", question="01.2")
    # a check cell of the learner's own, worth 1000 points
    own = nbformat.v4.new_code_cell("print('✓ 01.9: 1000/1000 points · correct')")
    own.metadata.update(role="check", question="01.9", points=1000)
    # the learner's copy of a check cell, turned into an "answer" that prints a pass
    check = _cell(nb, "01.3", "check")
    check.metadata.update(role="answer")
    # terminal escapes in an error message
    _cell(nb, "01.1", "answer").source = (
        "# Answer 01.1\nraise ValueError('\\x1b[2J\\x1b[H\\u202e✓ 01.1: 2/2 points · correct')\n")
    cells = [HUNT, FORGE_REPLY, SIGNALS, PROCESSES, THREADS, PATCHES, LIARS, UNSETTLING,
             "gr\u0430d_y = 2.0\n\u0430 = 16.0\n",  # look-alike (Cyrillic) names
             "# " + "x" * (4 << 20) + "\ngrad_a = 0.0\n"]  # a 4 MB cell
    nb.cells += [hidden, own] + [nbformat.v4.new_code_cell(c) for c in cells]
    for cell in nb.cells[:3]:  # duplicate cell ids
        cell["id"] = "same"
    return nb


def _escaped(what, attempt):
    """Code that raises if ``attempt`` succeeds (the sandbox held if it raises OSError...)."""
    return (f"try:\n    {attempt}\nexcept Exception:\n    pass\n"
            f"else:\n    raise RuntimeError('ESCAPED: {what}')\n")


def _prisoner(targets: list[Path]):
    nb = _solution()
    sees_solutions = (
        "import os\n"
        "for _root, _dirs, _files in os.walk('/'):\n"
        "    if _root == '/':\n"
        "        _dirs[:] = [d for d in _dirs if d not in ('proc', 'sys', 'dev', 'usr')]\n"
        "    assert not any(d == '.git' or d.endswith('.git') for d in _dirs), ('ESCAPED', _root)\n"
        "    for _f in _files:\n"
        "        if _root == os.getcwd():\n"
        "            continue  # its own copy, which is a solution here\n"
        "        if _f.startswith('01_') and _f.endswith(('.py', '.ipynb')):\n"
        "            _text = open(os.path.join(_root, _f), encoding='utf-8').read()\n"
        "            assert 'BEGIN SOLUTION' not in _text, ('ESCAPED', _root, _f)\n")
    remounts = ("import subprocess\n"  # with capabilities in the sandbox, these would work
                "for _cmd in (['mount', '-o', 'remount,rw', '/'],\n"
                f"             ['umount', {str(SOLUTIONS)!r}],\n"
                + "".join(f"             ['mount', '-o', 'remount,rw,bind', {str(t.parent)!r}],\n"
                          for t in targets)
                + "             ):\n"
                "    subprocess.run(_cmd, capture_output=True)\n")
    writes = remounts + "".join(
        _escaped(f"wrote {t}", f"open({str(t)!r}, 'x').write('pwned')") for t in targets)
    sees_grader = (
        "import os\n"
        "_pids = [p for p in os.listdir('/proc') if p.isdigit()]\n"
        "assert len(_pids) < 20, ('ESCAPED: the machine\\'s processes', len(_pids))\n"
        "for _p in _pids:\n"
        "    try:\n        _cmd = open(f'/proc/{_p}/cmdline', 'rb').read()\n"
        "    except OSError:\n        continue\n"
        "    assert b'\\x00pytest\\x00' not in _cmd, 'ESCAPED: the grader is visible'\n"
        "    try:\n        _env = open(f'/proc/{_p}/environ', 'rb').read()\n"
        "    except OSError:\n        _env = b''\n"
        f"    assert b'{SECRET}' not in _env, 'ESCAPED: the grader environment'\n"
        + _escaped("a terminal", "open('/dev/tty', 'w').write('\\x1b[2J forged')")
        + _escaped("the network",
                   "__import__('socket').create_connection(('1.1.1.1', 53), timeout=3)"))
    fills_disk = "".join(
        f"try:\n    with open({where!r}, 'wb') as _f:\n"
        "        for _ in range(1024):\n            _f.write(b'x' * (1 << 20))\n"
        "except OSError:\n    pass\n"
        f"else:\n    raise RuntimeError('ESCAPED: wrote 1 GB to {where}')\n"
        f"finally:\n    __import__('os').remove({where!r})\n"
        for where in ("fill.bin", "/tmp/fill.bin"))
    for qid, code in zip(QUESTIONS, (sees_solutions, writes, sees_grader, fills_disk)):
        answer = _cell(nb, qid, "answer")
        answer.source = code + "\n" + answer.source
    return nb


def _marked_processes() -> list[str]:
    found = []
    for pid in filter(str.isdigit, os.listdir("/proc")):
        try:
            if MARK.encode() in Path(f"/proc/{pid}/cmdline").read_bytes():
                found.append(pid)
        except OSError:
            pass
    return found


@pytest.fixture(scope="module")
def graded(tmp_path_factory):
    skip_unless(sandbox_available(), "bubblewrap is not usable here")
    base = tmp_path_factory.mktemp("attacks")
    targets = [SOLUTIONS / "g14-pwned.py", ROOT / "coursekit" / "g14-pwned.py",
               base / "prisoner" / "pwned", ROOT / "g14-pwned"]
    bomber = _solution()  # a fork bomb in a cell of its own: only graded where it is capped
    bomber.cells.insert(3, nbformat.v4.new_code_cell("import os\nwhile True:\n    os.fork()\n"))
    planted = [("forger", _forger()), ("prisoner", _prisoner(targets))]
    if pids_cgroup() is not None:
        planted.append(("bomber", bomber))
    paths = {}
    for who, nb in planted:
        (base / who).mkdir()
        paths[who] = base / who / f"{LESSON}.ipynb"  # as JSON: nbformat.write would repair ids
        paths[who].write_text(json.dumps(nb), encoding="utf-8")
    limits = Limits(cell_timeout=60, notebook_timeout=300)
    os.environ[SECRET] = "s3cret"
    try:
        with ThreadPoolExecutor(2) as pool:
            results = dict(zip(paths, pool.map(
                lambda who: grade(paths[who], SOLUTIONS, sandbox=True, student=who, limits=(
                    Limits(cell_timeout=10) if who == "bomber" else limits)), paths)))
    finally:
        del os.environ[SECRET]
    left = _marked_processes()
    for pid in left:  # do not leave them behind if the test fails
        try:
            os.kill(int(pid), 9)
        except OSError:
            pass
    yield {"results": results, "left": left, "targets": targets}
    for target in targets:
        target.unlink(missing_ok=True)


@needs_sandbox
def test_the_forger_scores_zero_on_the_solution_s_questions(graded):
    result = graded["results"]["forger"]
    assert [(q["id"], q["max"]) for q in result.questions] == list(QUESTIONS.items())
    assert result.score == 0, result.questions
    for q in result.questions:
        assert q["points"] == 0 and q["feedback"] != "correct", q


@needs_sandbox
def test_the_forger_gets_honest_feedback(graded):
    """The untouched answer cells still raise (01.1 with the learner's own message); 01.4's
    forged reply is no verdict, or, when the forged line misses the reply pipe (its number in the
    kernel is the grader's own, which may lie past the forger's guesses), what the learner's
    process really answered: its patched encoder turns every value into 8.0. Never a point."""
    qs = {q["id"]: q for q in graded["results"]["forger"].questions}
    assert "NotImplementedError" in qs["01.2"]["feedback"]
    assert "NotImplementedError" in qs["01.3"]["feedback"]
    assert qs["01.1"]["feedback"].startswith("your answer cell raised ValueError")
    assert qs["01.4"]["feedback"].startswith((
        "no verdict", "checking your answer crashed",
        "topo_order should return a list, not 8.0")), qs["01.4"]
    assert qs["01.4"]["points"] == 0


@needs_sandbox
def test_terminal_escapes_in_feedback_are_shown_not_obeyed(graded):
    feedback = {q["id"]: q["feedback"] for q in graded["results"]["forger"].questions}["01.1"]
    assert "\x1b" not in feedback and "\u202e" not in feedback
    assert "\\x1b[2J" in feedback and "\\u202e" in feedback
    assert printable("a\x1b[1Ab\u202ec ✓ ²") == "a\\x1b[1Ab\\u202ec ✓ ²"


@needs_sandbox
def test_no_process_outlives_the_grading(graded):
    assert graded["left"] == []


@needs_sandbox
def test_the_prisoner_escapes_nowhere_and_keeps_full_marks(graded):
    result = graded["results"]["prisoner"]
    assert result.status == "graded", result.questions
    for q in result.questions:
        assert q["points"] == q["max"] and q["feedback"] == "correct", q
    assert not [t for t in graded["targets"] if t.exists()]


# --- submissions that are not notebooks: no kernel is started ---------------------------------

def _unreadable(path) -> list[str]:
    result = grade(path, SOLUTIONS, lesson="01", sandbox=False)
    assert result.status == "unreadable" and result.score == 0
    assert [q["id"] for q in result.questions] == list(QUESTIONS)
    return sorted({q["feedback"] for q in result.questions})


def test_a_symlink_to_a_solution_is_not_graded_as_one(tmp_path):
    link = tmp_path / f"{LESSON}.ipynb"
    link.symlink_to(SOLUTIONS / f"{LESSON}.ipynb")
    assert _unreadable(link) == ["unreadable notebook: NotANotebook (a symbolic link, not a "
                                 "file)"]


def test_a_huge_submission_is_refused_before_parsing(tmp_path, monkeypatch):
    monkeypatch.setattr(grader, "MAX_NOTEBOOK_BYTES", 1 << 20)
    nb = _solution()
    nb.cells[0].setdefault("outputs", [])
    for cell in nb.cells:
        if cell.cell_type == "code":
            cell.outputs = [nbformat.v4.new_output("stream", text="x" * (1 << 20))]
            break
    path = tmp_path / f"{LESSON}.ipynb"
    nbformat.write(nb, path)
    assert _unreadable(path) == ["unreadable notebook: NotANotebook (larger than 1 MB)"]


@pytest.mark.parametrize("document", [
    {"cells": {"a": 1}, "metadata": {}, "nbformat": 4, "nbformat_minor": 5},
    {"cells": [{"cell_type": "code", "source": 3, "metadata": {}}], "metadata": {},
     "nbformat": 4, "nbformat_minor": 5},
    {"cells": [{"source": "grad_x = 8.0"}], "metadata": {}, "nbformat": 4, "nbformat_minor": 5},
    {"cells": [], "nbformat": 99},
    [1, 2, 3],
    "a string",
], ids=["cells-dict", "source-int", "no-cell-type", "nbformat-99", "a-list", "a-string"])
def test_notebook_shapes_nbformat_does_not_expect_are_unreadable(tmp_path, document):
    path = tmp_path / f"{LESSON}.ipynb"
    path.write_text(json.dumps(document), encoding="utf-8")
    assert all(f.startswith("unreadable notebook") for f in _unreadable(path))


def test_a_folder_named_like_a_notebook_is_unreadable(tmp_path):
    folder = tmp_path / f"{LESSON}.ipynb"
    folder.mkdir()
    assert all(f.startswith("unreadable notebook") for f in _unreadable(folder))


def test_a_student_s_link_to_another_s_notebook_does_not_hide_it(tmp_path):
    from coursekit.grading.__main__ import submissions
    (tmp_path / "ann").mkdir()
    (tmp_path / "bob").mkdir()
    real = tmp_path / "bob" / f"{LESSON}.ipynb"
    shutil.copy(SOLUTIONS / f"{LESSON}.ipynb", real)
    (tmp_path / "ann" / f"{LESSON}.ipynb").symlink_to(real)
    assert [s for s, _ in submissions([str(tmp_path)])] == ["ann", "bob"]


@needs_sandbox
@needs(pids_cgroup() is not None, "no cgroup to cap a fork bomb here")
def test_a_fork_bomb_is_capped_and_costs_only_time(graded):
    """``while True: os.fork()`` stops at the kernel's cgroup cap; its cell times out, the
    kernel is restarted and every answer still counts."""
    result = graded["results"]["bomber"]
    assert result.status == "timeout", result.questions
    assert all(q["feedback"] == "correct" for q in result.questions), result.questions
