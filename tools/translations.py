"""Keep the course's translations (``locale/``) in step with the English sources.

    python tools/translations.py update [--lang ru] [SLUG...]  # English changed: refresh catalogs
    python tools/translations.py status            # how much of each language is translated
    python tools/translations.py build [--lang ru] [--exercises-only] [SLUG...]
                                                   # write notebooks/<lang>/, exercises/<lang>/
    python tools/translations.py check             # exit 1 if a generated notebook is stale
    python tools/translations.py todo CATALOG      # its untranslated/fuzzy entries, numbered
    python tools/translations.py fill CATALOG FILE # set translations from "=== N" blocks
    python tools/translations.py lint CATALOG...   # mathematics, code, f-string fields kept?
    python tools/translations.py outputs --lang ru SLUG  # built lesson's outputs as English's?

``update`` cuts every English lesson (``notebooks/NN_slug.py``) and solution
(``solutions/NN_slug.py``) into messages (``coursekit.translation``) and merges them into
``locale/<lang>/LC_MESSAGES/{lessons,exercises}/NN_slug.po``: a new paragraph arrives
untranslated, a changed one keeps its old translation marked fuzzy (Babel's fuzzy matching, as
``msgmerge`` does), a removed one goes. The messages of the course's own tools (``_()`` calls in
``coursekit/``) go to ``locale/<lang>/LC_MESSAGES/coursekit.po``.

``build`` writes, for each language and each notebook whose catalog is complete (no empty and no
fuzzy entry), the translated lesson ``notebooks/<lang>/NN_slug.ipynb`` (executed, like the English
one) and exercise ``exercises/<lang>/NN_slug.ipynb`` (generated from the translated solution,
like the English one). A notebook whose catalog is not complete is not published in that
language; ``status`` lists them.
"""

from __future__ import annotations

import argparse
import functools
import io
import re
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

import jupytext
import nbformat
from babel.messages.catalog import Catalog
from babel.messages.extract import extract_from_dir
from babel.messages.pofile import write_po

from coursekit import i18n, notebooks, translation
from coursekit.translation import KINDS, LANGUAGES, LOCALE, ROOT

LOCALES = {"ru": "ru", "zh": "zh_Hans_CN", "ja": "ja"}
OUT = {"lessons": "notebooks", "exercises": "exercises"}
HEADER = """\
# {name}: the minigrad course in {lang}.
# Generated and updated by `python tools/translations.py update` from the English source;
# translate the empty msgstr entries, and look again at every fuzzy one (then drop its flag).
# Terms: locale/{lang}/GLOSSARY.md."""


@functools.cache
def _read(path: Path, mtime: float):
    return jupytext.read(path)


def english(kind: str, slug: str):
    """The English source notebook (read once while the file is unchanged; do not modify it)."""
    path = translation.source_path(kind, slug)
    return _read(path, path.stat().st_mtime)


def slugs(kind: str) -> list[str]:
    return sorted(p.stem for p in (ROOT / KINDS[kind]).glob("[0-9][0-9]_*.py"))


def template(kind: str, slug: str) -> Catalog:
    """The English messages of one notebook, as an empty catalog."""
    source = translation.source_path(kind, slug)
    nb = english(kind, slug)
    cat = Catalog(project="minigrad course", fuzzy=False)
    rel = source.relative_to(ROOT).as_posix()
    for msg in translation.messages(nb):
        if msg.text in cat:
            cat[msg.text].auto_comments.append(f"also cell {msg.cell}")
            continue
        cat.add(msg.text, locations=[(rel, None)],
                auto_comments=[f"{msg.kind}, cell {msg.cell}"])
    return cat


def tools_template() -> Catalog:
    """The messages of the course's tools: every ``_("...")`` in ``coursekit/``."""
    cat = Catalog(project="minigrad course", fuzzy=False)
    found = extract_from_dir(str(ROOT / "coursekit"), method_map=[("**.py", "python")],
                             keywords={"_": None, "N_": None}, comment_tags=("TRANSLATORS:",))
    for filename, lineno, message, comments, _context in sorted(found):
        if isinstance(message, str) and message:
            if message in cat:
                cat[message].locations.append((f"coursekit/{filename}", lineno))
            else:
                cat.add(message, locations=[(f"coursekit/{filename}", lineno)],
                        auto_comments=comments)
    return cat


def merge(path: Path, tmpl: Catalog, lang: str) -> None:
    """Merge ``tmpl`` into the catalog at ``path`` (created when missing)."""
    before = path.read_bytes() if path.exists() else None
    if path.exists():
        cat = translation.read_catalog(path)
        tmpl.creation_date = cat.creation_date  # no date churn when nothing changed
        cat.update(tmpl, no_fuzzy_matching=False, update_header_comment=False)
    else:
        cat = Catalog(locale=LOCALES[lang], project="minigrad course", fuzzy=False,
                      header_comment=HEADER.format(lang=lang, name=path.name))
        for m in tmpl:
            if m.id:
                cat.add(m.id, locations=m.locations, auto_comments=m.auto_comments)
    cat.fuzzy = False  # the header is never "fuzzy"; entries are
    path.parent.mkdir(parents=True, exist_ok=True)
    buf = io.BytesIO()
    write_po(buf, cat, width=0, ignore_obsolete=True, include_previous=True, sort_output=False)
    if buf.getvalue() != before:
        path.write_bytes(buf.getvalue())


def entries(path: Path) -> list:
    """A catalog's entries in file order (the header aside): ``todo``/``fill`` number them."""
    return [m for m in translation.read_catalog(path) if m.id]


def todo(path: Path) -> None:
    """Print the untranslated and fuzzy entries of a catalog, numbered, for a translator."""
    for i, m in enumerate(entries(path)):
        if m.string and not m.fuzzy:
            continue
        note = "; ".join(m.auto_comments)
        print(f"=== {i}  [{note}{'; fuzzy, was: ' + repr(m.string) if m.fuzzy else ''}]")
        print(m.id)


def fill(path: Path, answers: Path) -> None:
    """Set translations from a file of ``=== N`` blocks (N from ``todo``); clears fuzzy."""
    blocks = re.split(r"^=== (\d+)[^\n]*\n", answers.read_text(encoding="utf-8"), flags=re.M)
    cat = translation.read_catalog(path)
    ordered = [m for m in cat if m.id]
    for number, text in zip(blocks[1::2], blocks[2::2]):
        m = ordered[int(number)]
        m.string = text.rstrip("\n")
        m.flags.discard("fuzzy")
        m.previous_id = []
    buf = io.BytesIO()
    write_po(buf, cat, width=0, ignore_obsolete=True, include_previous=True, sort_output=False)
    path.write_bytes(buf.getvalue())
    print(f"{path}: {len(blocks) // 2} entries filled")


def update(tools_only: bool = False, langs=LANGUAGES, only=()) -> None:
    for lang in langs:
        for kind in KINDS if not tools_only else ():
            for slug in slugs(kind):
                if not only or slug in only:
                    merge(translation.catalog_path(lang, kind, slug), template(kind, slug), lang)
        merge(LOCALE / lang / "LC_MESSAGES" / "coursekit.po", tools_template(), lang)


def progress(path: Path) -> tuple[int, int, int]:
    """(translated, fuzzy, untranslated) entries of a catalog."""
    done = fuzzy = empty = 0
    for m in translation.read_catalog(path):
        if not m.id:
            continue
        if m.fuzzy:
            fuzzy += 1
        elif m.string:
            done += 1
        else:
            empty += 1
    return done, fuzzy, empty


def complete(lang: str, kind: str, slug: str) -> bool:
    path = translation.catalog_path(lang, kind, slug)
    if not path.exists():
        return False
    _, fuzzy, empty = progress(path)
    return fuzzy == 0 and empty == 0


def published(lang: str, kind: str) -> list[str]:
    """The notebooks of ``kind`` that exist in ``lang`` (their catalogs are complete)."""
    return [s for s in slugs(kind) if complete(lang, kind, s)]


def status() -> None:
    for lang in LANGUAGES:
        rows = []
        for kind in KINDS:
            for slug in slugs(kind):
                path = translation.catalog_path(lang, kind, slug)
                done, fuzzy, empty = progress(path) if path.exists() else (0, 0, 0)
                rows.append((kind, slug, done, fuzzy, empty))
        total = sum(r[2] for r in rows), sum(r[2] + r[3] + r[4] for r in rows)
        print(f"{lang}: {total[0]}/{total[1]} messages translated")
        for kind, slug, done, fuzzy, empty in rows:
            mark = "published" if fuzzy == empty == 0 and done else f"{fuzzy} fuzzy, {empty} empty"
            print(f"  {kind}/{slug}: {done}/{done + fuzzy + empty} ({mark})")
        path = LOCALE / lang / "LC_MESSAGES" / "coursekit.po"
        if path.exists():
            done, fuzzy, empty = progress(path)
            print(f"  coursekit.po: {done}/{done + fuzzy + empty}")


# ------------------------------------------------------------------ build ----

def lesson(lang: str, slug: str) -> nbformat.NotebookNode:
    """The translated lesson notebook, before execution (sources only)."""
    nb = english("lessons", slug)
    out = translation.translated_source(nb, lang, "lessons", slug)
    notebooks.number_cells(out)
    out.metadata.pop("jupytext", None)  # generated: JupyterLab must not pair it with a .py
    out.metadata["kernelspec"] = dict(notebooks.KERNELSPEC)
    out.metadata["language_info"] = {"name": "python"}
    out.metadata["course"] = {"lang": lang, "source": f"notebooks/{slug}.py"}
    return out


def exercise(lang: str, slug: str) -> str:
    """The translated exercise notebook's file text."""
    source = translation.source_path("exercises", slug)
    nb = translation.translated_source(english("exercises", slug), lang, "exercises", slug)
    with i18n.speaking(lang):
        out = notebooks.exercise_from(nb, f"{lang}/{slug}.ipynb", source.name)
    out.metadata["course"] = {"lang": lang}
    return nbformat.writes(out) + "\n"


def same_sources(a, b) -> bool:
    return [(c.cell_type, c.source) for c in a.cells] == [(c.cell_type, c.source) for c in b.cells]


def _execute(target: Path, attempts: int = 3) -> Path:
    """Run one lesson in a fresh kernel. Two kernels started at the same moment by parallel
    jobs can pick the same free port ("Address already in use"): then start it again."""
    print(f"executing {target.relative_to(ROOT)}", flush=True)
    for attempt in range(attempts):
        try:
            notebooks.execute(target)
            return target
        except RuntimeError as error:  # "Kernel died before replying to kernel_info"
            if "Kernel died" not in str(error) or attempt == attempts - 1:
                raise
            time.sleep(1 + attempt)
    return target


def _reuse_outputs(nb, target: Path) -> bool:
    """Give ``nb`` the outputs stored in ``target`` when every code cell is unchanged."""
    if not target.exists():
        return False
    old = nbformat.read(target, as_version=4)
    if [(c.cell_type, c.source) for c in old.cells if c.cell_type == "code"] != \
            [(c.cell_type, c.source) for c in nb.cells if c.cell_type == "code"]:
        return False
    stored = iter(c for c in old.cells if c.cell_type == "code")
    for cell in nb.cells:
        if cell.cell_type == "code":
            match = next(stored)
            cell.outputs, cell.execution_count = match.outputs, match.execution_count
    nb.metadata["widgets"] = old.metadata.get("widgets", {})
    return True


def build(langs, only, lessons: bool = True, jobs: int = 1,
          reuse_outputs: bool = False) -> list[Path]:
    """Write the published notebooks of ``langs`` (``only``: these slugs); lessons are executed
    (``jobs`` at a time, each in a kernel of its own), or, with ``reuse_outputs``, keep the
    outputs they stored when only their prose changed (their code cells are the same)."""
    written, to_run = [], []
    for lang in langs:
        for kind, folder in OUT.items():  # withdraw what is no longer complete
            keep = set(published(lang, kind))
            for old in sorted((ROOT / folder / lang).glob("*.ipynb")):
                if old.stem not in keep and (lessons or kind == "exercises"):
                    old.unlink()
                    print(f"withdrew {old.relative_to(ROOT)} (its catalog is not complete)")
        for slug in published(lang, "lessons") if lessons else ():
            if only and slug not in only:
                continue
            target = ROOT / "notebooks" / lang / f"{slug}.ipynb"
            target.parent.mkdir(parents=True, exist_ok=True)
            nb = lesson(lang, slug)
            if reuse_outputs and _reuse_outputs(nb, target):
                nbformat.write(nb, target)  # only its prose changed: the outputs still hold
                print(f"wrote {target.relative_to(ROOT)} (outputs kept)")
                written.append(target)
                continue
            nbformat.write(nb, target)
            to_run.append(target)
        for slug in published(lang, "exercises"):
            if only and slug not in only:
                continue
            target = ROOT / "exercises" / lang / f"{slug}.ipynb"
            text = exercise(lang, slug)
            if target.exists() and target.read_text(encoding="utf-8") == text:
                continue
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_text(text, encoding="utf-8")
            print(f"wrote {target.relative_to(ROOT)}")
            written.append(target)
    with ProcessPoolExecutor(max(1, jobs)) as pool:
        written += list(pool.map(_execute, to_run))
    return written


def stale() -> list[str]:
    """Generated notebooks that are missing, out of date, or no longer published."""
    problems = []
    for lang in LANGUAGES:
        for kind, folder in OUT.items():
            want = set(published(lang, kind))
            have = {p.stem for p in (ROOT / folder / lang).glob("*.ipynb")}
            problems += [f"{folder}/{lang}/{s}.ipynb: not published (catalog incomplete)"
                         for s in sorted(have - want)]
            for slug in sorted(want):
                target = ROOT / folder / lang / f"{slug}.ipynb"
                if not target.exists():
                    problems.append(f"{folder}/{lang}/{slug}.ipynb: missing")
                elif kind == "lessons":
                    if not same_sources(nbformat.read(target, as_version=4), lesson(lang, slug)):
                        problems.append(f"{folder}/{lang}/{slug}.ipynb: out of date")
                elif target.read_text(encoding="utf-8") != exercise(lang, slug):
                    problems.append(f"{folder}/{lang}/{slug}.ipynb: out of date")
    return problems


def lint(path: Path) -> list[str]:
    """What is wrong with the translations of one catalog (mathematics, code, placeholders)."""
    kind, slug = path.parent.name, path.stem
    lang = path.parent.parent.parent.name
    problems = []
    kinds = {}
    nb = english(kind, slug)
    for msg in translation.messages(nb):
        kinds.setdefault(msg.text, msg)
    for m in entries(path):
        if not m.string or m.fuzzy or m.id not in kinds:
            continue
        msg, new = kinds[m.id], m.string
        where = f"{path.name}: {m.id[:60]!r}"
        if msg.kind == "markdown" and new == m.id and \
                len(re.findall(r"[A-Za-z]{3,}", translation._strip_code_and_math(m.id))) >= 4:
            problems.append(f"{where}: this paragraph is still in English")
        if translation.maths(m.id) != translation.maths(new):
            problems.append(f"{where}: the $...$ mathematics differs")
        spans = translation.code_spans(new)
        missing = [c for c in translation.code_spans(m.id) if c not in spans
                   and not re.search(r"(notebooks|exercises|solutions)/", c)]
        if missing:
            problems.append(f"{where}: code spans changed or missing: {missing}")
        if msg.kind == "string" and "f" in msg.prefix.lower() and \
                translation.placeholders(m.id) != translation.placeholders(new):
            problems.append(f"{where}: the {{...}} fields of the f-string differ")
        if msg.kind == "comment" and "\n" in new and "\n" not in m.id and \
                msg.indent == "" and msg.start and not _whole_line(msg, nb):
            problems.append(f"{where}: a comment after code must stay on one line")
    lookup = translation.lookup_for(lang, kind, slug)
    for i, cell in enumerate(nb.cells):
        if cell.cell_type != "code":
            continue
        new = translation.translate_cell(cell, i, lookup)
        if translation.code_skeleton(new) != translation.code_skeleton(cell.source):
            problems.append(f"{path.name}: cell {i}: the translated code differs from the "
                            "English code (a quote inside a string? a comment that swallows code?)")
    return problems


def _whole_line(msg, nb) -> bool:
    source = nb.cells[msg.cell].source
    line_start = source.rfind("\n", 0, msg.start) + 1
    return source[line_start:msg.start].strip() == ""


def _kinds(outputs) -> list[tuple]:
    """What kinds of output a cell made; a stream the kernel sent in two chunks is one."""
    kinds = []
    for o in outputs:
        kind = (o.output_type, o.get("name"), o.get("ename"))
        if not (kinds and kind[0] == "stream" and kinds[-1] == kind):
            kinds.append(kind)
    return kinds


def compare_outputs(lang: str, slug: str) -> list[str]:
    """Cells whose outputs differ in kind from the English lesson's (an error, a missing print)."""
    english = nbformat.read(ROOT / "notebooks" / f"{slug}.ipynb", as_version=4)
    other = nbformat.read(ROOT / "notebooks" / lang / f"{slug}.ipynb", as_version=4)
    problems = []
    for i, (a, b) in enumerate(zip(english.cells, other.cells)):
        if a.cell_type != "code":
            continue
        ka, kb = _kinds(a.outputs), _kinds(b.outputs)
        if ka != kb:
            problems.append(f"notebooks/{lang}/{slug}.ipynb cell {i}: outputs {kb} != English {ka}")
    return problems


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("command", choices=("update", "status", "build", "check", "todo", "fill",
                                            "lint", "outputs"))
    parser.add_argument("slugs", nargs="*",
                        help="build: only these notebooks; todo: CATALOG; fill: CATALOG ANSWERS")
    parser.add_argument("--lang", action="append", choices=LANGUAGES,
                        help="only this language (build; repeatable)")
    parser.add_argument("--tools-only", action="store_true",
                        help="update: only coursekit.po, the messages of the course's tools")
    parser.add_argument("-j", "--jobs", type=int, default=1,
                        help="build: lessons executed at a time (default 1)")
    parser.add_argument("--reuse-outputs", action="store_true",
                        help="build: a lesson whose code cells did not change keeps its outputs "
                             "(after prose-only translation fixes; not after engine changes)")
    parser.add_argument("--exercises-only", action="store_true",
                        help="build: only the exercises (lessons are executed, which takes time)")
    args = parser.parse_intermixed_args(argv)
    if args.command == "update":
        update(tools_only=args.tools_only, langs=args.lang or LANGUAGES, only=set(args.slugs))
    elif args.command == "status":
        status()
    elif args.command == "todo":
        todo(Path(args.slugs[0]))
    elif args.command == "fill":
        fill(Path(args.slugs[0]), Path(args.slugs[1]))
    elif args.command in ("lint", "outputs"):
        if args.command == "lint":
            problems = [p for c in args.slugs for p in lint(Path(c))]
        else:
            problems = [p for lang in (args.lang or LANGUAGES) for slug in args.slugs
                        for p in compare_outputs(lang, slug)]
        print("\n".join(problems) or "no problems")
        return 1 if problems else 0
    elif args.command == "build":
        build(args.lang or LANGUAGES, set(args.slugs), lessons=not args.exercises_only,
              jobs=args.jobs, reuse_outputs=args.reuse_outputs)
    else:
        problems = stale()
        for p in problems:
            print(p)
        return 1 if problems else 0
    return 0


if __name__ == "__main__":
    sys.exit(main())
