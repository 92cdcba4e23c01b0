"""One notebook graded in a process of its own: ``grade_in_worker`` (the class CLI's side) and
``run`` (the worker).

Why a process per notebook: the trusted checks of ``coursekit.grading.trusted`` run in the
grader, under a lock (grad mode, ``warnings``, ``sys.stdout`` and the AST parser are
process-wide), and rebuild the data the learner's process sends. In one process shared by the
whole class, a notebook that holds that lock (a slow observation, a costly rebuild) made a
classmate's checks wait, and time out. Here nothing is shared: each notebook has its own
process, lock, kernel and scratch folder, and its whole grading (the worker's start, cells,
restarts, rebuilds, checks) is bounded by its time limit: the worker stops itself by then
(``grade``'s ``started``), and a worker that has not reported ``KILL_GRACE`` seconds later
(stuck in a rebuild, say) is killed with its kernel; its questions then score 0 with the reason.

Fresh, and cheap: workers are forked from a fork server (``multiprocessing``'s "forkserver": a
new interpreter started once per class, which imports the grader, torch and nbformat, and
then only ever forks). The server never grades anything and a worker grades one notebook and
exits, so each worker starts from the same untouched state: nothing of one learner's grading
can reach another's. (A worker started from scratch paid 2 to 3 s of imports per notebook.)

A worker sends on its pipe ``{"questions": [{"id", "max"}]}`` once it knows them, then
``{"result": Result.as_dict()}`` (or ``{"error": text}`` when the grader itself failed). Its
stdout and stderr are /dev/null: they are the class CLI's (its report may be on stdout).
"""

from __future__ import annotations

import json
import multiprocessing
import os
import secrets
import shutil
import sys
import tempfile
import threading
import time
import traceback
from datetime import UTC, datetime
from pathlib import Path

from coursekit.grading import runner
from coursekit.grading.grader import Result, grade
from coursekit.grading.runner import Limits

# Imported by the class CLI and preloaded by the fork server: both become non-dumpable at once
# (as a worker does when it starts a kernel), so that an unsandboxed kernel of the grader's own
# user cannot patch them through /proc or ptrace, and through the server, the next workers.
runner.protect_grader()

KILL_GRACE = 5.0  # seconds past a notebook's time limit before its worker is killed
RESULT_CAP = 64 << 20  # bytes: a longer message from a worker is a grader failure
_SERVER = threading.Lock()


def _context():
    """The fork server's context, which preloads this module (so the grader, torch...)."""
    with _SERVER:
        context = multiprocessing.get_context("forkserver")
        context.set_forkserver_preload([__name__])
        return context


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")


def _failed(student: str, path, sandbox: bool, status: str, feedback: str,
            questions: list[dict] | None, started: str) -> dict:
    """The report of a notebook whose worker gave none: every question known scores 0."""
    result = Result(student, str(path), status, started=started, finished=_now(),
                    sandboxed=sandbox).as_dict()
    result["questions"] = [{"id": q["id"], "points": 0, "max": q["max"], "feedback": feedback}
                           for q in questions] if questions else [
        {"id": "grader", "points": 0, "max": 0, "feedback": feedback}]
    result["max_score"] = sum(q["max"] for q in result["questions"])
    return result


def grade_in_worker(path, solutions, *, limits: Limits, hidden=(), student: str,
                    sandbox: bool, lesson: str | None = None) -> dict:
    """``grade(...).as_dict()``, computed in a fresh worker process that is killed when it
    runs past the notebook's time limit (plus ``KILL_GRACE``). Never raises for what happens
    in the worker: its failures are the notebook's status."""
    started, stamp = time.monotonic(), _now()
    deadline = started + limits.notebook_timeout + KILL_GRACE
    tag = secrets.token_hex(6)
    temp = Path(tempfile.mkdtemp(prefix="minigrad-worker-"))  # its scratch folders go there
    job = {"path": str(path), "solutions": str(solutions), "student": student,
           "limits": vars(limits), "hidden": [str(h) for h in hidden], "sandbox": sandbox,
           "lesson": lesson, "started": started, "tag": tag, "temp": str(temp)}
    context = _context()
    reader, writer = context.Pipe(duplex=False)
    process = context.Process(target=run, args=(job, writer), daemon=False)
    messages, ended, code = [], False, None
    try:
        process.start()
        writer.close()
        while not ended:
            left = deadline - time.monotonic()
            if left <= 0:
                break
            if not reader.poll(min(left, 1.0)):
                continue
            try:
                messages.append(json.loads(reader.recv_bytes(RESULT_CAP)))
            except (EOFError, OSError, ValueError):
                ended = True
                break
            ended = isinstance(messages[-1], dict) and ("result" in messages[-1]
                                                         or "error" in messages[-1])
    finally:
        reader.close()
        if process.pid is not None:
            process.join(0.5 if ended else 0)
            code = process.exitcode
            process.kill()  # late, or done: its kernels die with it
            process.join()
        runner.remove_cgroups(f"{runner.CGROUP_PREFIX}{tag}-")
        shutil.rmtree(temp, ignore_errors=True)
    questions, error = None, None
    for message in messages:
        if isinstance(message, dict) and isinstance(message.get("result"), dict):
            # the notebook's time is its worker's, from its start to its report
            return {**message["result"], "started": stamp, "finished": _now()}
        if isinstance(message, dict) and isinstance(message.get("questions"), list):
            questions = message["questions"]
        if isinstance(message, dict) and isinstance(message.get("error"), str):
            error = message["error"]
    if not ended:
        return _failed(student, path, sandbox, "timeout", "not graded: the notebook ran longer "
                       f"than its time limit ({limits.notebook_timeout:g} s)", questions, stamp)
    why = error or f"the grading worker exited (status {code})"
    return _failed(student, path, sandbox, "crashed", f"the grader failed: {why}"[:1000],
                   questions, stamp)


def run(job: dict, out) -> None:
    """The worker: grade ``job``'s notebook, sending what it finds on the connection ``out``."""
    null = os.open(os.devnull, os.O_RDWR)
    for fd in (0, 1, 2):  # the class CLI's: its report may go to stdout
        os.dup2(null, fd)
    os.close(null)
    runner.CGROUP_PREFIX = f"minigrad-grade-{job['tag']}-"
    tempfile.tempdir = job["temp"]

    def send(message: dict) -> None:
        out.send_bytes(json.dumps(message, allow_nan=False).encode())

    try:
        result = grade(Path(job["path"]), Path(job["solutions"]),
                       limits=Limits(**job["limits"]), hidden=[Path(h) for h in job["hidden"]],
                       student=job["student"], sandbox=job["sandbox"], lesson=job["lesson"],
                       started=job["started"], announce=lambda qs: send({"questions": qs}))
        send({"result": result.as_dict()})
    except Exception as error:  # noqa: BLE001 - a grader bug costs one notebook, not all
        send({"error": "".join(traceback.format_exception_only(error)).strip()})
    finally:
        out.close()
        sys.stdout.flush()
