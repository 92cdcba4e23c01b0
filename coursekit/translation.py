"""The course in other languages: English notebooks cut into messages, and put back translated.

The English jupytext sources (``notebooks/NN_slug.py``, ``solutions/NN_slug.py``) are the one
source of truth. A translation is a gettext catalog per notebook and language
(``locale/<lang>/LC_MESSAGES/lessons/NN_slug.po``, ``.../exercises/NN_slug.po``), the way
Python's and Sphinx's documentation are translated: each *message* is one piece of text a
learner reads, and the translated notebook is the English one with every message replaced.

What is a message:

* in a markdown cell, each paragraph (blocks separated by a blank line; a fenced code block or a
  display-math block on its own is left as it is: code and mathematics are never translated);
* in a code cell, each comment (a run of whole-line comments is one message) and each string
  literal that reads as prose (two words or more; identifiers, format codes and paths are not
  messages). Magics (``%%both``), nbgrader's markers (``### BEGIN SOLUTION``) and ``noqa``
  comments stay as they are.

Code is never touched: a translated cell runs the same statements as the English one, only
comments and prose literals differ (``code_skeleton`` gives what must stay equal, and the tests
compare it). When an English message changes, ``tools/translations.py update`` marks its
translation fuzzy (or untranslated) in every language, and the catalog tests fail until a
translator has looked at it again.
"""

from __future__ import annotations

import io
import re
import tokenize
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
LOCALE = ROOT / "locale"
LANGUAGES = ("ru", "zh", "ja")  # besides English, the source language
# The two kinds of notebook, their English sources and where each language's copies go.
KINDS = {"lessons": "notebooks", "exercises": "solutions"}

_MAGIC = re.compile(r"^\s*[%!]")
_KEEP_COMMENT = re.compile(r"^#+\s*(%|BEGIN |END |noqa|type:|fmt:|pragma)")
_WORD = re.compile(r"[A-Za-z]{2,}")
_PLACEHOLDER = re.compile(r"\{[^{}]*\}")
_NON_ASCII = re.compile(r"[^\x00-\x7f]")


@dataclass
class Message:
    """One translatable piece of a cell: where it is, its English text and its kind."""

    cell: int
    kind: str  # "markdown", "comment" or "string"
    text: str
    start: int = 0  # character span in the cell's source (code cells)
    end: int = 0
    indent: str = ""  # a comment block's indentation
    prefix: str = ""  # a string literal's prefix and quote, e.g. 'f"'
    quote: str = ""


# ----------------------------------------------------------------- markdown ----

def markdown_blocks(source: str) -> list[tuple[str, bool]]:
    """Split a markdown cell into (block, translatable) pieces, blocks being separated by blank
    lines (a fenced code block is one block, blank lines and all)."""
    return [(source[a:b], _is_prose(source[a:b])) for a, b in _markdown_spans(source)]


def _markdown_spans(source: str) -> list[tuple[int, int]]:
    """(start, end) of each block of a markdown cell, so that translating it keeps the rest
    (leading and repeated blank lines) as it is."""
    spans, start, end, fence, pos = [], None, None, None, 0
    for line in source.split("\n"):
        stripped = line.strip()
        line_end = pos + len(line)
        if fence is not None:
            end = line_end
            if stripped.startswith(fence):
                fence = None
        elif stripped == "":
            if start is not None:
                spans.append((start, end))
                start = None
        else:
            if stripped.startswith(("```", "~~~")):
                fence = stripped[:3]
            if start is None:
                start = pos
            end = line_end
        pos = line_end + 1
    if start is not None:
        spans.append((start, end))
    return spans


def _is_prose(block: str) -> bool:
    """A block a translator must see: not a lone code fence or a lone display formula."""
    s = block.strip()
    if s.startswith(("```", "~~~")) and s.endswith(("```", "~~~")) and s.count("\n") >= 1:
        return False
    if s.startswith("$$") and s.endswith("$$"):
        return False
    return bool(_WORD.search(_strip_code_and_math(s)))


def _strip_code_and_math(text: str) -> str:
    text = re.sub(r"`[^`]*`", "", text)
    return re.sub(r"\$[^$]*\$", "", text)


# --------------------------------------------------------------------- code ----

def _offsets(source: str) -> list[int]:
    starts, pos = [], 0
    for line in source.split("\n"):
        starts.append(pos)
        pos += len(line) + 1
    return starts


def _tokens(source: str):
    """Python tokens of a cell; magic lines (``%%both``, ``%load_ext``) are blanked first."""
    masked = "\n".join("" if _MAGIC.match(line) else line for line in source.split("\n"))
    return list(tokenize.generate_tokens(io.StringIO(masked).readline))


def _string_parts(token_text: str) -> tuple[str, str, str] | None:
    m = re.match(r"(?i)^([rbuf]*)('''|\"\"\"|'|\")", token_text)
    if not m or "b" in m.group(1).lower():
        return None
    prefix, quote = m.group(1), m.group(2)
    if not token_text.endswith(quote) or len(token_text) < len(prefix) + 2 * len(quote):
        return None
    return prefix, quote, token_text[len(prefix) + len(quote):len(token_text) - len(quote)]


# A one-word string is a message too when it labels something on screen: a widget's
# description, a plot's title or axis label (``description="steps"``, ``set_xlabel("step")``).
_LABEL_KEYWORDS = {"description", "label", "xlabel", "ylabel", "title"}
_LABEL_CALLS = {"set_xlabel", "set_ylabel", "set_title", "xlabel", "ylabel", "title", "suptitle"}


def _is_label(previous: list[str], content: str) -> bool:
    """``previous``: the two code tokens before the string."""
    if not re.search(r"[A-Za-z]{3,}", content):
        return False
    return (len(previous) == 2 and previous[1] == "=" and previous[0] in _LABEL_KEYWORDS) or \
        (len(previous) == 2 and previous[1] == "(" and previous[0] in _LABEL_CALLS)


def _is_prose_string(content: str, prefix: str) -> bool:
    text = _PLACEHOLDER.sub(" ", content) if "f" in prefix.lower() else content
    return len(_WORD.findall(text)) >= 2 and " " in text.strip()


def code_messages(source: str, cell: int) -> list[Message]:
    """The comments and prose string literals of one code cell, in source order."""
    starts = _offsets(source)
    pos = lambda rc: starts[rc[0] - 1] + rc[1]  # noqa: E731
    try:
        tokens = _tokens(source)
    except (tokenize.TokenError, IndentationError, SyntaxError):
        return []
    out: list[Message] = []
    block: list[tokenize.TokenInfo] = []

    def flush():
        if block:
            indent = source[pos((block[0].start[0], 0)):pos(block[0].start)]
            text = "\n".join(_comment_text(t.string) for t in block)
            out.append(Message(cell, "comment", text, pos(block[0].start), pos(block[-1].end),
                               indent=indent))
            block.clear()

    prev_line_code = set()
    for tok in tokens:
        if tok.type not in (tokenize.COMMENT, tokenize.NL, tokenize.NEWLINE):
            prev_line_code.add(tok.start[0])
    previous: list[str] = []  # the last two code tokens
    previous_token = None
    for tok in tokens:
        if tok.type in (tokenize.COMMENT, tokenize.NEWLINE):
            previous_token = tok  # a tail never reaches over a comment or a statement's end
        if tok.type == tokenize.COMMENT:
            if _KEEP_COMMENT.match(tok.string) or not _WORD.search(tok.string):
                flush()
                continue
            whole_line = tok.start[0] not in prev_line_code
            if not whole_line:
                flush()
                out.append(Message(cell, "comment", _comment_text(tok.string),
                                   pos(tok.start), pos(tok.end)))
                continue
            if block and (tok.start[0] != block[-1].start[0] + 1
                          or tok.start[1] != block[0].start[1]):
                flush()
            block.append(tok)
            continue
        if tok.type in (tokenize.NL, tokenize.NEWLINE):
            continue
        flush()
        if tok.type == tokenize.STRING:
            parts = _string_parts(tok.string)
            last = out[-1] if out else None
            if parts and (_is_prose_string(parts[2], parts[0]) or _is_label(previous, parts[2])):
                out.append(Message(cell, "string", parts[2], pos(tok.start), pos(tok.end),
                                   prefix=parts[0], quote=parts[1]))
            elif parts and last is not None and _continues(last, parts, previous_token):
                # the tail of a sentence split over adjacent literals ("... what it "
                # "returns"): part of the sentence's message, not English left behind
                last.text += parts[2]
                last.end = pos(tok.end)
        previous = (previous + [tok.string])[-2:]
        previous_token = tok
    flush()
    return out


def _continues(last: Message, parts, previous_token) -> bool:
    """Whether a literal that is no message by itself ends the string message just before it:
    adjacent literals (only line breaks between), the same prefix and quotes."""
    return (last.kind == "string" and previous_token is not None
            and previous_token.type == tokenize.STRING
            and parts[0].lower() == last.prefix.lower() and parts[1] == last.quote)


def _comment_text(comment: str) -> str:
    return re.sub(r"^#\s?", "", comment)


# -------------------------------------------------------------- notebooks ----

def messages(nb) -> list[Message]:
    """Every message of a notebook (an ``nbformat`` notebook read from a jupytext source)."""
    out: list[Message] = []
    for i, cell in enumerate(nb.cells):
        if cell.cell_type == "markdown":
            out += [Message(i, "markdown", b) for b, prose in markdown_blocks(cell.source) if prose]
        elif cell.cell_type == "code":
            out += code_messages(cell.source, i)
    return out


def translate_cell(cell, index: int, lookup) -> str:
    """The cell's source with each message replaced by ``lookup(text)`` (None: keep English)."""
    if cell.cell_type == "markdown":
        source, out, at = cell.source, [], 0
        for start, end in _markdown_spans(source):
            block = source[start:end]
            new = lookup(block) if _is_prose(block) else None
            out += [source[at:start], new or block]
            at = end
        return "".join(out) + source[at:]
    if cell.cell_type != "code":
        return cell.source
    source, out, at = cell.source, [], 0
    for msg in code_messages(source, index):
        new = lookup(msg.text)
        if not new:
            continue
        out.append(source[at:msg.start])
        if msg.kind == "comment":
            lines = new.split("\n")
            out.append(("\n" + msg.indent).join("# " + line if line else "#" for line in lines))
        else:
            out.append(f"{msg.prefix}{msg.quote}{new}{msg.quote}")
        at = msg.end
    out.append(source[at:])
    return "".join(out)


def translate_notebook(nb, lookup):
    """A copy of ``nb`` with every message translated through ``lookup``."""
    import copy

    new = copy.deepcopy(nb)
    for i, cell in enumerate(new.cells):
        cell.source = translate_cell(nb.cells[i], i, lookup)
    return new


def code_skeleton(source: str) -> list[tuple[int, str]]:
    """A code cell's tokens with comments dropped and prose literals blanked: what must match."""
    try:
        tokens = _tokens(source)
    except (tokenize.TokenError, IndentationError, SyntaxError):
        return [(0, source)]
    out, previous = [], []
    for tok in tokens:
        if tok.type in (tokenize.COMMENT, tokenize.NL):
            continue
        if tok.type == tokenize.STRING:
            parts = _string_parts(tok.string)
            # prose or a label in English, or already translated (Cyrillic, CJK: no ASCII words)
            if parts and (_is_prose_string(parts[2], parts[0]) or _NON_ASCII.search(parts[2])
                          or _is_label(previous, parts[2])):
                kind = (tok.type, parts[0].lower() + "<prose>")
                if not (out and out[-1] == kind and previous and previous[-1][:1] in "'\"rRuUfF"):
                    out.append(kind)  # one <prose> for a sentence over adjacent literals
                previous = (previous + [tok.string])[-2:]
                continue
            if parts and out and out[-1] == (tok.type, parts[0].lower() + "<prose>"):
                previous = (previous + [tok.string])[-2:]
                continue  # the tail of the sentence before it
        out.append((tok.type, tok.string))
        if tok.type not in (tokenize.NEWLINE, tokenize.INDENT, tokenize.DEDENT):
            previous = (previous + [tok.string])[-2:]
    magics = [line.strip() for line in source.split("\n") if _MAGIC.match(line)]
    return out + [(-1, m) for m in magics]


def maths(text: str) -> list[str]:
    """The ``$...$`` and ``$$...$$`` formulas of a message: translations keep them as they are
    (a formula may be wrapped over two lines; its spacing does not count)."""
    found = re.findall(r"\$\$.+?\$\$|\$[^$]+\$", text, flags=re.S)
    return sorted(" ".join(f.split()) for f in found)


def code_spans(text: str) -> list[str]:
    """The inline code spans of a message (`like this`, or reStructuredText's ``like this``
    in docstrings): translations keep them."""
    return [" ".join(c.split()) for c in re.findall(r"``[^`]+``|`[^`]+`", text)]


def placeholders(text: str) -> list[str]:
    """The ``{...}`` fields of an f-string message: a translation must keep every one."""
    return sorted(_PLACEHOLDER.findall(text))


# --------------------------------------------------------------- catalogs ----

def catalog_path(lang: str, kind: str, slug: str) -> Path:
    return LOCALE / lang / "LC_MESSAGES" / kind / f"{slug}.po"


def source_path(kind: str, slug: str) -> Path:
    return ROOT / KINDS[kind] / f"{slug}.py"


def read_catalog(path: Path):
    from babel.messages.pofile import read_po

    with open(path, "rb") as f:
        return read_po(f)


def lookup_for(lang: str, kind: str, slug: str):
    """``text -> translation`` from one catalog (fuzzy and empty entries give None)."""
    path = catalog_path(lang, kind, slug)
    if not path.exists():
        return lambda text: None
    table = {m.id: m.string for m in read_catalog(path)
             if m.id and m.string and not m.fuzzy}
    return table.get


def translated_source(nb, lang: str, kind: str, slug: str):
    """The English notebook ``nb`` in ``lang``."""
    return translate_notebook(nb, lookup_for(lang, kind, slug))
