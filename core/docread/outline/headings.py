"""Heading lines, the one reading of where a section starts in text: ATX lines (``#`` to
``####``, outside fenced code) in every markdown unit; in markdown someone wrote by hand (a
``.md`` file, a notebook's markdown cell) also underlined (setext) titles; in reStructuredText
titles under (and over) a line of one punctuation character, their levels in the order the
styles first appear."""

from __future__ import annotations

import re
from bisect import bisect_left

from ..model import dataclass
from ..sanitize import lazy_pattern

#: Heading levels that start a section; deeper ones (#####) stay text, as in docling's chunker.
MAX_LEVEL = 4
#: A heading title is cut to this many characters (short strings: metadata, outline lines).
TITLE_CHARS = 200

_HEADING = lazy_pattern(r"^ {0,3}(#{1,4})[ \t]+([^\n]*)", re.M)  # levels 1 to MAX_LEVEL
_CLOSING = lazy_pattern(r"[ \t]#+$")  # an optional closing sequence: "## Title ##"
_FENCE = lazy_pattern(r"^ {0,3}(?:`{3,}|~{3,})", re.M)
_SETEXT = lazy_pattern(r"^ {0,3}(=+|-+)[ \t]*$")
_RST_ADORNMENT = lazy_pattern(r"^([!-/:-@\[-`{-~])\1{2,}[ \t]*$")  # 3+ of one punctuation char
_MARKUP = lazy_pattern(r"[*_`\[\]()#]+")
_LINK = lazy_pattern(r"!?\[([^\]]*)\]\([^)]*\)")  # [text](url), ![alt](src): the text


@dataclass(frozen=True, slots=True)
class Heading:
    at: int  # offset of the heading's (first) line in the text
    level: int  # 1 for "#", ... 4 for "####"
    title: str


def headings(text: str) -> list[Heading]:
    """The ATX heading lines of ``text``, in order, outside fenced code (``# comment`` in a
    fenced Python block is code, not a section)."""
    if "#" not in text:
        return []
    fences = _fences(text)
    out: list[Heading] = []
    for m in _HEADING.finditer(text):
        title = clean_title(_CLOSING.sub("", m.group(2).strip()))
        if title and not _inside(fences, m.start()):
            out.append(Heading(m.start(), len(m.group(1)), title))
    return out


def written_headings(text: str) -> list[Heading]:
    """Markdown as people write it: ATX lines and underlined titles (``Title`` over ``===``:
    level 1, over ``---``: level 2) whose title line follows a blank line or the start."""
    found = headings(text)
    if "==" not in text and "--" not in text:
        return found
    fences = _fences(text)
    previous, at, out = "", 0, list(found)
    lines = text.split("\n")
    for i, line in enumerate(lines):
        start = at
        at += len(line) + 1
        if i + 1 >= len(lines) or not (m := _SETEXT.match(lines[i + 1])):
            previous = line
            continue
        title = clean_title(line)
        plain = title and not line.startswith((" " * 4, "\t", "#", "|", "- ", "* ", ">"))
        if plain and not previous.strip() and not _inside(fences, start):
            out.append(Heading(start, 1 if m.group(1)[0] == "=" else 2, title))
        previous = line
    return sorted(out, key=lambda h: h.at)


def rst_headings(text: str) -> list[Heading]:
    """reStructuredText section titles: a line of text with an underline (and maybe an overline)
    of one punctuation character at least as long; each style (character, overlined) is a
    level, numbered as it first appears, at most MAX_LEVEL."""
    lines = text.split("\n")
    starts, at = [], 0
    for line in lines:
        starts.append(at)
        at += len(line) + 1
    styles: list[tuple[str, bool]] = []
    out: list[Heading] = []
    i = 0
    while i + 1 < len(lines):
        over = bool(_RST_ADORNMENT.match(lines[i]))
        title_at = i + 1 if over else i
        if title_at + 1 >= len(lines):
            break
        title, under = lines[title_at].strip(), lines[title_at + 1]
        m = _RST_ADORNMENT.match(under)
        fits = m is not None and len(under.rstrip()) >= len(title) and bool(title)
        if not fits or _RST_ADORNMENT.match(lines[title_at]) or (over and lines[i][0] != under[0]):
            i += 1
            continue
        style = (under[0], over)
        if style not in styles:
            styles.append(style)
        level = styles.index(style) + 1
        if level <= MAX_LEVEL and (cleaned := clean_title(title)):
            out.append(Heading(starts[i], level, cleaned))
        i = title_at + 2
    return out


def clean_title(text: str) -> str:
    """A heading's title as shown: one line, emphasis marks at its ends gone, at most
    TITLE_CHARS characters."""
    if "](" in text:
        text = _LINK.sub(r"\1", text)
    return " ".join(text.split()).strip("*_").strip()[:TITLE_CHARS]


def title_key(text: str) -> str:
    """What two spellings of one title share: case, spaces and markup aside."""
    return " ".join(_MARKUP.sub(" ", text).casefold().split())


def _fences(text: str) -> list[int]:
    return [m.start() for m in _FENCE.finditer(text)]


def _inside(fences: list[int], at: int) -> bool:
    """``at`` lies in fenced code: an odd count of fence lines before it."""
    return bool(bisect_left(fences, at) % 2)
