"""The grading child: ``python -m coursekit.grading.kernel REPLY_FD``.

A plain Python process (no Jupyter) that runs a learner's cells with IPython's
``InteractiveShell`` (so magics work) and answers the grader (``coursekit.grading.runner``).

* Requests arrive as JSON lines on stdin, which is then moved to a private fd: the learner's
  code sees an empty stdin, so ``input()`` cannot swallow the grader's requests.
* Replies go, one JSON line each, to ``REPLY_FD`` (a pipe passed with ``pass_fds``), never to
  stdout: fd 1 and 2 belong to the learner (the grader drains and caps them). A process the
  learner's code forks sees /dev/null in place of both pipes (``os.register_at_fork``).
* ``{"op": "cell", "id", "source"}`` runs ``source`` in the user namespace and replies
  ``{"id", "status": "ok"}`` or ``{"id", "status": "error", "ename", "evalue"}``.
* ``{"op": "observe", "id", "names"}`` replies ``{"id", "status": "ok", "result": TEXT}``, TEXT
  the JSON of ``{name: value}`` for the learner's variables ``names`` (a missing one is
  ``{"$": "missing"}``), each value made plain data by ``coursekit.grading.plain.encode``.
* ``{"op": "observe", "id", "source", "call", "args", "kwargs"}`` runs ``source`` (the check's
  observation function and its helpers) in a copy of the user namespace, calls ``call`` with
  the (plain JSON) arguments and replies with the plain data of what it returned, or of the
  exception it raised, as ``{"returned": value}`` or ``{"raised": error}``.

The kernel never runs code that computes an expected value, and all it sends back is plain data.

Display output (``Out[...]``, rich displays) is discarded; tracebacks go to the learner's stderr.
"""

from __future__ import annotations

import builtins
import json
import os
import sys

from IPython.core.interactiveshell import InteractiveShell
from traitlets.config import Config

from coursekit.grading import plain

# Bound now, before any learner code runs: a notebook that patches ``json.dumps`` changes what
# an observation reports (only an answer, compared in the grader), never the kernel's own replies.
_BUILTINS = builtins
_DUMPS, _LOADS = json.dumps, json.loads
_ENCODE, _ENCODE_ERROR = plain.encode, plain.encode_error
_DICT, _EXEC, _COMPILE, _STR, _TYPE = dict, exec, compile, str, type


def _shell() -> InteractiveShell:
    config = Config()
    config.HistoryManager.enabled = False  # no sqlite file in the (read-only) home
    config.InteractiveShell.colors = "NoColor"  # plain tracebacks in the learner's output
    shell = InteractiveShell.instance(config=config)
    shell.display_pub.publish = lambda *args, **kwargs: None
    return shell


def _error(exc: BaseException | None) -> dict:
    """A cell's error as the encoder sends any error: its class name and message bounded (a
    class named with 450,000 newlines is the learner's string) and read without calling the
    learner's ``__str__`` unguarded."""
    error = _ENCODE_ERROR(exc)
    return {"status": "error", "ename": error["type"], "evalue": error["message"]}


def run_cell(shell: InteractiveShell, source: str) -> dict:
    # silent=True: no displayhook (``Out[...]``); magics and the user namespace work as usual.
    result = shell.run_cell(source, store_history=False, silent=True)
    if result.error_before_exec is not None:
        return _error(result.error_before_exec)
    if result.error_in_exec is not None:
        return _error(result.error_in_exec)
    return {"status": "ok"}


def run_observe(shell: InteractiveShell, request: dict) -> dict:
    namespace = _DICT(shell.user_ns)
    if "names" in request:
        values = {}
        for name in request["names"]:
            try:
                values[name] = _ENCODE(namespace[name]) if name in namespace else {
                    "$": "missing"}
            except BaseException:  # noqa: BLE001 - a recursion limit, memory...
                values[name] = {"$": "object", "type": "a value that could not be read"}
        return {"status": "ok", "result": _DUMPS(values)}
    namespace["__builtins__"] = _BUILTINS
    try:
        _EXEC(_COMPILE(request["source"], "<observe>", "exec"), namespace)
        returned = namespace[request["call"]](*request["args"], **request["kwargs"])
    except BaseException as exc:  # noqa: BLE001 - SystemExit from the learner's code is data too
        return {"status": "ok", "result": _DUMPS({"raised": _ENCODE_ERROR(exc)})}
    try:
        encoded = {"returned": _ENCODE(returned)}
    except BaseException as exc:  # noqa: BLE001 - a recursion limit, memory...
        encoded = {"raised": {"$": "error", "type": "GradingError", "builtin": False,
                              "message": f"the value could not be read ({_TYPE(exc).__name__})"}}
    return {"status": "ok", "result": _DUMPS(encoded)}


def main() -> None:
    reply = os.fdopen(int(sys.argv[1]), "w", encoding="utf-8", buffering=1)
    requests = os.fdopen(os.dup(0), "r", encoding="utf-8")
    null = os.open(os.devnull, os.O_RDONLY)
    os.dup2(null, 0)
    os.close(null)
    os.set_inheritable(reply.fileno(), False)
    os.set_inheritable(requests.fileno(), False)

    def not_the_kernel():
        """In a process the learner's code forks (``os.fork``, a fork bomb) the grader's pipes
        become /dev/null: a copy of the kernel that returns to this loop must not read the
        grader's requests or answer them (the grader would take its replies for the kernel's)."""
        null = os.open(os.devnull, os.O_RDWR)
        for fd in (reply.fileno(), requests.fileno()):
            os.dup2(null, fd)
        os.close(null)

    os.register_at_fork(after_in_child=not_the_kernel)
    shell = _shell()
    for line in requests:
        request = _LOADS(line)
        if request["op"] == "cell":
            answer = run_cell(shell, request["source"])
        else:
            answer = run_observe(shell, request)
        for stream in (sys.stdout, sys.stderr):  # the learner may have replaced them
            try:
                stream.flush()
            except Exception:  # noqa: BLE001
                pass
        answer["id"] = request["id"]
        reply.write(_DUMPS(answer) + "\n")


if __name__ == "__main__":
    main()
