"""The course in Russian, Chinese and Japanese stays true to the English sources (issue 24).

* Every catalog is in step with its English source: exactly its messages, none missing and none
  left over (``tools/translations.py update`` was run after the last English change).
* A translated notebook exists exactly when its catalog is complete: no empty and no fuzzy entry.
  So when an English paragraph changes, its entries turn fuzzy and this file fails until the
  translation is looked at again (or the notebook is withdrawn from that language).
* Translated notebooks are what generation gives (lessons: their sources; exercises: byte for
  byte), run the same code as the English ones (comments and prose literals aside), are written
  in their language's script, and (lessons) stored the same kinds of outputs as the English ones.
* Every catalog keeps mathematics, code spans and f-string fields (``lint``).
* The messages of the course's own tools are translated for every language that has a notebook.

Strict nbval runs every generated lesson (``notebooks/<lang>/``) like the English ones.
"""

from __future__ import annotations

import ast
import re
import subprocess
import sys

import jupytext
import nbformat
import pytest

from coursekit import i18n, translation
from coursekit.translation import KINDS, LANGUAGES, LOCALE, ROOT

sys.path.insert(0, str(ROOT / "tools"))
import translations as tool  # noqa: E402  (tools/translations.py)

CATALOGS = [(lang, kind, slug) for lang in LANGUAGES for kind in KINDS for slug in tool.slugs(kind)]
PUBLISHED = [(lang, kind, slug) for lang, kind, slug in CATALOGS if tool.complete(lang, kind, slug)]
LESSONS = [(lang, slug) for lang, kind, slug in PUBLISHED if kind == "lessons"]
# What a language's prose is written in (kana tells Japanese from Chinese).
SCRIPT = {"ru": re.compile(r"[А-Яа-яЁё]"), "zh": re.compile(r"[\u4e00-\u9fff]"),
          "ja": re.compile(r"[\u3040-\u30ff]")}
KANA = re.compile(r"[\u3040-\u30ff]")


def _id(row) -> str:
    return "-".join(row)


@pytest.mark.parametrize("lang, kind, slug", CATALOGS, ids=map(_id, CATALOGS))
def test_catalog_in_step_with_the_english_source(lang, kind, slug):
    path = translation.catalog_path(lang, kind, slug)
    assert path.exists(), f"{path} is missing: run python tools/translations.py update"
    want = {m.id for m in tool.template(kind, slug) if m.id}
    have = {m.id for m in translation.read_catalog(path) if m.id}
    assert not want - have, (f"{path}: {len(want - have)} English messages are not in the "
                             "catalog: run python tools/translations.py update")
    assert not have - want, (f"{path}: {len(have - want)} entries are no longer in the English "
                             "source: run python tools/translations.py update")


@pytest.mark.parametrize("lang, kind, slug", CATALOGS, ids=map(_id, CATALOGS))
def test_catalog_is_complete(lang, kind, slug):
    """No untranslated and no fuzzy entry: every lesson and exercise exists in every language.
    (After an English change, ``update`` leaves the changed entries fuzzy or empty, and this
    fails until they are translated again: ``tools/translations.py todo CATALOG``.)"""
    path = translation.catalog_path(lang, kind, slug)
    done, fuzzy, empty = tool.progress(path)
    assert fuzzy == empty == 0, f"{path}: {fuzzy} fuzzy and {empty} untranslated entries"


@pytest.mark.parametrize("lang, kind, slug", CATALOGS, ids=map(_id, CATALOGS))
def test_catalog_keeps_maths_code_and_fields(lang, kind, slug):
    assert tool.lint(translation.catalog_path(lang, kind, slug)) == []


def test_generated_notebooks_are_exactly_the_published_ones():
    """Missing, stale or unpublished (incomplete catalog) translated notebooks: none."""
    assert tool.stale() == []


@pytest.mark.parametrize("lang", LANGUAGES)
def test_each_language_has_a_glossary(lang):
    text = (LOCALE / lang / "GLOSSARY.md").read_text(encoding="utf-8")
    rows = [line for line in text.splitlines() if line.startswith("|") and "---" not in line]
    assert len(rows) > 40, "the glossary fixes the course's terms (a table, one term a row)"
    assert SCRIPT[lang].search(text)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_tools_messages_translated_where_the_course_is(lang):
    """Once a language has a notebook, what our tools print in it is translated too."""
    if not any(row[0] == lang for row in PUBLISHED):
        assert (LOCALE / lang / "LC_MESSAGES" / "coursekit.po").exists()
        return
    path = LOCALE / lang / "LC_MESSAGES" / "coursekit.po"
    done, fuzzy, empty = tool.progress(path)
    assert fuzzy == empty == 0, f"{path}: {fuzzy} fuzzy and {empty} untranslated messages"
    want = {m.id for m in tool.tools_template() if m.id}
    have = {m.id for m in translation.read_catalog(path) if m.id}
    assert want <= have, "run python tools/translations.py update"


@pytest.mark.parametrize("lang", LANGUAGES)
def test_tools_messages_keep_their_fields(lang):
    """Our tools fill ``{name}``-style fields into their messages: every translation keeps
    exactly the English fields, or ``.format`` raises (or says something else)."""
    for m in translation.read_catalog(LOCALE / lang / "LC_MESSAGES" / "coursekit.po"):
        if m.id and m.string:
            assert translation.placeholders(m.string) == translation.placeholders(m.id), m.id


def _notebook(lang, kind, slug):
    folder = "notebooks" if kind == "lessons" else "exercises"
    return nbformat.read(ROOT / folder / lang / f"{slug}.ipynb", as_version=4)


def _english(kind, slug):
    if kind == "lessons":
        return nbformat.read(ROOT / "notebooks" / f"{slug}.ipynb", as_version=4)
    return nbformat.read(ROOT / "exercises" / f"{slug}.ipynb", as_version=4)


@pytest.mark.parametrize("lang, kind, slug", PUBLISHED, ids=map(_id, PUBLISHED))
def test_translation_runs_the_same_code(lang, kind, slug):
    english, other = _english(kind, slug), _notebook(lang, kind, slug)
    assert [c.cell_type for c in other.cells] == [c.cell_type for c in english.cells]
    for i, (a, b) in enumerate(zip(english.cells, other.cells)):
        assert a.get("metadata", {}).get("question") == b.get("metadata", {}).get("question")
        if a.cell_type == "code":
            assert translation.code_skeleton(b.source) == translation.code_skeleton(a.source), \
                f"cell {i}: the code differs from the English notebook's"


def _prose(markdown: str) -> str:
    """A markdown cell without its code blocks, code spans, formulas and link targets."""
    text = re.sub(r"```.*?```", "", markdown, flags=re.S)
    text = re.sub(r"\]\([^)]*\)", "]", text)
    return translation._strip_code_and_math(text)


@pytest.mark.parametrize("lang, kind, slug", PUBLISHED, ids=map(_id, PUBLISHED))
def test_translation_is_written_in_its_language(lang, kind, slug):
    english, other = _english(kind, slug), _notebook(lang, kind, slug)
    for i, (a, b) in enumerate(zip(english.cells, other.cells)):
        prose = any(p for _, p in translation.markdown_blocks(a.source))
        if a.cell_type != "markdown" or not prose:
            continue
        assert SCRIPT[lang].search(b.source), f"cell {i} reads as untranslated:\n{b.source[:200]}"
        if lang == "zh":
            assert not KANA.search(b.source), f"cell {i}: kana in the Chinese text"
    english_prose = sum(len(re.findall(r"[A-Za-z]{4,}", _prose(c.source)))
                        for c in english.cells if c.cell_type == "markdown")
    left = sum(len(re.findall(r"\b(the|and|with|which|when|that)\b", _prose(c.source)))
               for c in other.cells if c.cell_type == "markdown")
    assert left < 0.02 * english_prose, "English function words left in the prose"


@pytest.mark.parametrize("lang, slug", LESSONS, ids=map(_id, LESSONS))
def test_translated_lesson_stored_the_english_kinds_of_outputs(lang, slug):
    """Same cells print, warn, draw and raise as in English: no translated string broke code."""
    assert tool.compare_outputs(lang, slug) == []


# --- the machinery, on every English notebook ------------------------------------------------
SOURCES = [translation.source_path(kind, slug) for kind in KINDS for slug in tool.slugs(kind)]


@pytest.mark.parametrize("source", SOURCES, ids=lambda p: f"{p.parent.name}-{p.stem}")
def test_untranslated_is_the_english_notebook(source):
    nb = jupytext.read(source)
    same = translation.translate_notebook(nb, lambda text: None)
    assert [c.source for c in same.cells] == [c.source for c in nb.cells]
    ident = translation.translate_notebook(nb, lambda text: text)
    for a, b in zip(nb.cells, ident.cells):
        if a.cell_type != "code":
            assert b.source == a.source
        elif b.source != a.source:  # a sentence over adjacent literals comes back as one literal
            assert _ast(b.source) == _ast(a.source)


def _ast(source: str) -> str:
    masked = "\n".join("" if translation._MAGIC.match(line) else line
                        for line in source.split("\n"))
    return ast.dump(ast.parse(masked))


@pytest.mark.parametrize("source", SOURCES, ids=lambda p: f"{p.parent.name}-{p.stem}")
def test_any_translation_keeps_the_code(source):
    """Replace every message by text with quotes, braces, hashes and line breaks: the code
    still parses to the same tokens (a translation can only change comments and prose)."""
    nb = jupytext.read(source)

    def tricky(text):
        fields = " ".join(translation.placeholders(text))
        multi = "\n" in text
        return ("Перевод «# не код» 翻訳 " + fields + (" \nвторая строка" if multi else ""))

    messages = {m.text: m for m in translation.messages(nb)}

    def lookup(text):
        m = messages[text]
        if m.kind == "string" and len(m.quote) == 1:
            return tricky(text).replace("\n", " ")
        return tricky(text)

    new = translation.translate_notebook(nb, lookup)
    for a, b in zip(nb.cells, new.cells):
        if a.cell_type == "code":
            assert translation.code_skeleton(b.source) == translation.code_skeleton(a.source)


def test_messages_cover_comments_prose_and_not_code():
    src = ('# Run this cell first: it loads both engines.\n'
           'x = torch.tensor(1.0)  # a leaf tensor\n'
           'print("the gradient of y is", x.grad)\n'
           'name = "grad_fn"\n'
           '### BEGIN SOLUTION\n'
           'y = f"{x} and {name} are here"\n')
    got = [(m.kind, m.text) for m in translation.code_messages(src, 0)]
    assert got == [("comment", "Run this cell first: it loads both engines."),
                   ("comment", "a leaf tensor"), ("string", "the gradient of y is"),
                   ("string", "{x} and {name} are here")]
    md = "## Title\n\nSome prose here.\n\n```python\nx = 1\n```\n\n$$ a = b $$"
    assert [b for b, prose in translation.markdown_blocks(md) if prose] == [
        "## Title", "Some prose here."]


# --- the language our tools speak ------------------------------------------------------------
def test_language_follows_folder_environment_and_choice(tmp_path, monkeypatch):
    monkeypatch.delenv("COURSE_LANG", raising=False)
    (tmp_path / "notebooks" / "ja").mkdir(parents=True)
    monkeypatch.chdir(tmp_path / "notebooks" / "ja")
    assert i18n.language() == "ja"
    monkeypatch.setenv("COURSE_LANG", "ru")
    assert i18n.language() == "ru"
    with i18n.speaking("zh"):
        assert i18n.language() == "zh"
    assert i18n.language() == "ru"
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("COURSE_LANG")
    assert i18n.language() == "en"
    with pytest.raises(ValueError, match="unknown language"):
        i18n.set_language("fr")


@pytest.mark.parametrize("lang", [lang for lang in LANGUAGES
                                  if any(row[0] == lang for row in PUBLISHED)])
def test_tools_speak_the_language(lang):
    from coursekit.grading import checks

    with i18n.speaking(lang):
        said = checks.compare("grad_x", 4.0, 8.0, hints={"half": "x"})
    assert SCRIPT[lang].search(said), said
    assert "`grad_x`" in said


def test_translations_tool_check_passes():
    """What ``./course exercises --check`` runs for the translations."""
    out = subprocess.run([sys.executable, str(ROOT / "tools" / "translations.py"), "check"],
                         capture_output=True, text=True, cwd=ROOT, timeout=300)
    assert out.returncode == 0, out.stdout + out.stderr


# --- the grader answers in the notebook's language -------------------------------------------
GRADED = [lang for lang in LANGUAGES if tool.complete(lang, "exercises", "01_computational_graphs")]


@pytest.mark.parametrize("lang", GRADED)
def test_grader_feedback_in_the_exercise_language(lang, tmp_path):
    """A wrong answer in a translated exercise: the grader (the same checks, hidden tests and
    all) says why in that language; the right answers still score full marks."""
    from coursekit.grading.grader import grade
    from coursekit.grading.runner import Limits, sandbox_available

    nb = nbformat.read(ROOT / "exercises" / lang / "01_computational_graphs.ipynb", as_version=4)
    solution = jupytext.read(ROOT / "solutions" / "01_computational_graphs.py")
    answers = {c.metadata["question"]: c.source for c in solution.cells
               if c.metadata.get("role") == "answer"}
    for cell in nb.cells:
        if cell.metadata.get("role") == "answer":
            cell.source = answers[cell.metadata["question"]]  # right, but in English: code only
    first = next(c for c in nb.cells if c.metadata.get("question") == "01.1"
                 and c.metadata.get("role") == "answer")
    first.source += "\ngrad_x = 4.0  # forgot that x is used twice\n"
    path = tmp_path / "student" / "01_computational_graphs.ipynb"
    path.parent.mkdir()
    nbformat.write(nb, path)
    result = grade(path, ROOT / "solutions", sandbox=sandbox_available(),
                   limits=Limits(cell_timeout=60, notebook_timeout=300))
    got = {q["id"]: q for q in result.questions}
    assert got["01.1"]["points"] == 0
    assert SCRIPT[lang].search(got["01.1"]["feedback"]), got["01.1"]["feedback"]
    assert all(q["points"] == q["max"] for qid, q in got.items() if qid != "01.1"), got


# --- the machinery, on generated cells -------------------------------------------------------
from hypothesis import given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

WORDS = st.lists(st.sampled_from(["the", "gradient", "leaf", "graph", "x", "of", "y1", "{x}",
                                  "«quoted»", "it's", "a\\\\b", "100%", "—"]),
                 min_size=1, max_size=6).map(" ".join)
LINES = st.one_of(
    WORDS.map(lambda w: f"# {w}"),
    WORDS.map(lambda w: f"x = torch.tensor(1.0)  # {w}"),
    WORDS.map(lambda w: f'print("{w}")'.replace('{x}', 'x')),
    WORDS.map(lambda w: f"label = f'{w}: {{x!r}}'"),
    WORDS.map(lambda w: f's = widgets.IntSlider(description="{w.split()[0]}")'),
    WORDS.map(lambda w: f'def f(x):\n    """{w}"""\n    # {w}\n    return x  # {w}'),
    st.just("%%both x y"), st.just("y = x * 2"), st.just("### BEGIN SOLUTION"),
)


@settings(max_examples=300, deadline=None)
@given(st.lists(LINES, min_size=1, max_size=8), st.sampled_from(["ru", "zh", "ja"]))
def test_generated_cells_keep_their_code(lines, lang):
    """Any cell, any translation (quotes of every kind, line breaks in comments, f-string
    fields kept): the translated cell is the same code."""
    source = "\n".join(sorted(lines, key=lambda line: not line.startswith("%%")))
    word = {"ru": "перевод «в кавычках»", "zh": "翻译「引号」", "ja": "翻訳「かぎ括弧」"}[lang]

    def lookup(text):
        fields = " ".join(translation.placeholders(text))
        return f"{word} {fields}".strip()

    cell = nbformat.v4.new_code_cell(source)
    new = translation.translate_cell(cell, 0, lookup)
    assert translation.code_skeleton(new) == translation.code_skeleton(source)
    for msg in translation.code_messages(source, 0):
        assert lookup(msg.text) in new
