"""The messages our own tools print, in the learner's language (gettext, from ``locale/``).

What torch and minigrad print stays as it is (the lessons compare it with torch); what the
course's tools say (``%%both``'s verdict, the grader's feedback, widget labels, hints) goes
through :func:`_` and comes out in the notebook's language.

The language, first that applies:

1. :func:`set_language` (the grader calls it in the learner's kernel);
2. the environment variable ``COURSE_LANG`` (``ru``, ``zh``, ``ja`` or ``en``);
3. the folder the kernel runs in: JupyterLab, nbval and ``./course execute`` start a notebook's
   kernel in the notebook's own folder, and a translated notebook lives in
   ``notebooks/<lang>/`` or ``exercises/<lang>/``;
4. English.

The catalogs are ``locale/<lang>/LC_MESSAGES/coursekit.po``, read once per process with Babel.
"""

from __future__ import annotations

import contextlib
import contextvars
import os
from pathlib import Path

LOCALE = Path(__file__).resolve().parent.parent / "locale"
LANGUAGES = ("en", "ru", "zh", "ja")
DOMAIN = "coursekit"

# A context variable, not a global: the grader's threads each grade a notebook of their own.
_chosen: contextvars.ContextVar[str | None] = contextvars.ContextVar("course_lang", default=None)
_tables: dict[str, dict[str, str]] = {}


def set_language(lang: str | None) -> None:
    """Choose the language of our messages (None: back to the automatic choice)."""
    if lang is not None and lang not in LANGUAGES:
        raise ValueError(f"unknown language {lang!r}: choose one of {', '.join(LANGUAGES)}")
    _chosen.set(lang)


@contextlib.contextmanager
def speaking(lang: str | None):
    """Our messages in ``lang`` inside the ``with`` block (None: the automatic choice)."""
    if lang is not None and lang not in LANGUAGES:
        raise ValueError(f"unknown language {lang!r}: choose one of {', '.join(LANGUAGES)}")
    token = _chosen.set(lang)
    try:
        yield
    finally:
        _chosen.reset(token)


def language() -> str:
    """The language our messages are printed in now."""
    chosen = _chosen.get()
    if chosen:
        return chosen
    env = os.environ.get("COURSE_LANG", "")
    if env in LANGUAGES:
        return env
    here = Path.cwd()
    if here.name in LANGUAGES and here.parent.name in ("notebooks", "exercises"):
        return here.name
    return "en"


def _table(lang: str) -> dict[str, str]:
    if lang not in _tables:
        table: dict[str, str] = {}
        path = LOCALE / lang / "LC_MESSAGES" / f"{DOMAIN}.po"
        if path.exists():
            from babel.messages.pofile import read_po

            with open(path, "rb") as f:
                for m in read_po(f):
                    if m.id and m.string and not m.fuzzy:
                        table[m.id] = m.string
        _tables[lang] = table
    return _tables[lang]


def _(message: str) -> str:
    """``message`` in the current language (English when it has no translation yet)."""
    lang = language()
    if lang == "en":
        return message
    return _table(lang).get(message, message)


gettext = _


def N_(message: str) -> str:
    """Mark a constant for translation where it is defined; ``_()`` translates it where used."""
    return message
