"""Friendly hints for a learner whose lesson's set-up cell has not run (an IPython extension).

Every kernel started from the course's environment loads this extension: the set-up of
``./course`` runs ``python -m coursekit.compare_hints install``, which writes
``<environment>/etc/ipython/ipython_kernel_config.py`` (:data:`KERNEL_CONFIG`), a file IPython
reads for every kernel started from that environment (``.venv/`` here; run the same command
once in a conda environment). The extension is tiny and imports nothing but IPython (already
loaded in a kernel); it only changes what a learner sees in two situations:

* a ``%%both`` cell runs before the set-up cell (the notebook was just opened, the kernel was
  restarted, or cells ran out of order). IPython would say "UsageError: Cell magic `%%both` not
  found."; instead a stand-in ``%%both`` says to run the set-up cell first. The set-up cell's
  ``%load_ext coursekit.compare`` then replaces the stand-in with the real magic.
* a cell raises ``NameError`` (typically ``torch``, ``viz`` or a tensor from a cell that has
  not run): the short usual error, followed by a one-line hint on what to run.

Load it by hand with ``%load_ext coursekit.compare_hints``.
"""

from __future__ import annotations

import sys
from pathlib import Path

from IPython.core.error import UsageError

from coursekit.i18n import N_, _

WRITTEN_BY = "# Written by the set-up of ./course"
KERNEL_CONFIG = f'''\
{WRITTEN_BY}: every kernel of this environment loads the course's
# first-run hints (coursekit/compare_hints.py).
c.InteractiveShellApp.extensions.append("coursekit.compare_hints")
'''

SETUP_CELL = N_('the first code cell, "# Run this cell first"')
BOTH_HINT = N_(
    "%%both is not loaded yet: run this lesson's set-up cell first ({setup}), then "
    "this cell again.\nAfter a kernel restart, run the cells from the top: "
    "Run > Run All Above Selected Cell."
)


def _stand_in_both(line: str, cell: str):
    raise UsageError(_(BOTH_HINT).format(setup=_(SETUP_CELL)))


def _setup_has_run(shell) -> bool:
    both = shell.magics_manager.magics["cell"].get("both")
    return both is not None and getattr(both, "__func__", both) is not _stand_in_both


def name_error_hint(shell, error: NameError) -> str:
    """The hint printed under a NameError."""
    if not _setup_has_run(shell):
        return _("Hint: this lesson's set-up cell has not run in this kernel (the notebook was "
                 "just opened, or the kernel restarted).\nRun it ({setup}), then the "
                 "cells above this one: Run > Run All Above Selected Cell.").format(
                     setup=_(SETUP_CELL))
    name = getattr(error, "name", None)
    what = f"`{name}`" if name else _("this name")
    return _("Hint: if {what} is made by a cell above, run that cell first (Run > Run All "
             "Above Selected Cell); otherwise check the spelling.").format(what=what)


def _on_name_error(shell, etype, value, tb, tb_offset=None):
    stb = shell.InteractiveTB.structured_traceback(etype, value, tb, tb_offset=tb_offset)
    stb = [*stb, "", f"\x1b[32m{name_error_hint(shell, value)}\x1b[0m"]
    shell._showtraceback(etype, value, stb)
    return None


def load_ipython_extension(ipython) -> None:
    magics = ipython.magics_manager.magics["cell"]
    if "both" not in magics:  # never replace the real %%both
        ipython.register_magic_function(_stand_in_both, magic_kind="cell", magic_name="both")
    if not ipython.custom_exceptions:  # leave anyone else's handler alone
        ipython.set_custom_exc((NameError,), _on_name_error)


def config_path() -> Path:
    """Where IPython looks for this environment's kernel configuration."""
    return Path(sys.prefix) / "etc" / "ipython" / "ipython_kernel_config.py"


def install() -> bool:
    """Write :data:`KERNEL_CONFIG` for this environment; False if nothing had to change.

    A file an earlier set-up wrote (it starts with :data:`WRITTEN_BY`) is replaced; someone
    else's file is left alone: it must already load the hints, else this stops and says how.
    """
    path = config_path()
    if path.is_file():
        old = path.read_text(encoding="utf-8")
        if old == KERNEL_CONFIG:
            return False
        line = KERNEL_CONFIG.splitlines()[-1]
        if not old.startswith(WRITTEN_BY):
            if line in old.splitlines():
                return False
            raise SystemExit(f"{path} exists and was not written by the course: add this line "
                             f"to it yourself:\n  {line}")
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(KERNEL_CONFIG, encoding="utf-8")
    return True


if __name__ == "__main__":
    if sys.argv[1:] != ["install"]:
        raise SystemExit("usage: python -m coursekit.compare_hints install")
    if install():
        print(f"==> Kernel hints: wrote {config_path()}")
