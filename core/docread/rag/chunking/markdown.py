"""The structure the chunker reads in a unit's markdown: ATX heading lines (``#`` to ``####``,
not inside a fenced code block) and pipe tables (a header row, a ``|---|`` separator, rows)."""

from __future__ import annotations

import re
from bisect import bisect_left
from dataclasses import dataclass

from .splitter import Span

#: Heading levels that start a section; deeper ones (#####) stay text, as in docling's chunker.
MAX_LEVEL = 4
#: A heading title is cut to this many characters in ``headings`` (short strings: metadata).
TITLE_CHARS = 200

_HEADING = re.compile(r"^ {0,3}(#{1,4})[ \t]+([^\n]*)", re.M)  # levels 1 to MAX_LEVEL
_CLOSING = re.compile(r"[ \t]#+$")  # an optional closing sequence: "## Title ##"
_FENCE = re.compile(r"^ {0,3}(?:`{3,}|~{3,})", re.M)
_ROW = re.compile(r"^ {0,3}\|[^\n]*", re.M)  # a line that starts with "|"
_SEPARATOR_CHARS = frozenset("|-: \t")


@dataclass(frozen=True, slots=True)
class Heading:
    at: int  # offset of the heading line in the text
    level: int  # 1 for "#", ... 4 for "####"
    title: str


@dataclass(frozen=True, slots=True)
class Table:
    header: Span  # the header row and the separator line, with its line break
    rows: tuple[Span, ...]  # each row with its line break

    @property
    def end(self) -> int:
        return self.rows[-1][1] if self.rows else self.header[1]


def headings(text: str) -> list[Heading]:
    """The heading lines of ``text``, in order, outside fenced code (``# comment`` in a
    fenced Python block is code, not a section)."""
    if "#" not in text:
        return []
    fences = [m.start() for m in _FENCE.finditer(text)]
    out: list[Heading] = []
    for m in _HEADING.finditer(text):
        inside = bisect_left(fences, m.start()) % 2  # an odd count of fences before it
        title = _CLOSING.sub("", m.group(2).strip()).strip().strip("*_").strip()[:TITLE_CHARS]
        if not inside and title:
            out.append(Heading(m.start(), len(m.group(1)), title))
    return out


def tables(text: str) -> list[Table]:
    """The pipe tables of ``text``: a row followed by a separator line starts one; the rows
    after it belong to it until a line that is not a row (or a row that starts another table:
    a page that repeats the header). Rows and separators start with "|"."""
    if "|" not in text or "-" not in text:
        return []
    lines: list[Span] = []  # the lines that start with "|", with their line break
    for m in _ROW.finditer(text):
        lines.append((m.start(), m.end() + 1 if text.startswith("\n", m.end()) else m.end()))
    out: list[Table] = []
    i = 0
    while i < len(lines) - 1:
        if not (lines[i + 1][0] == lines[i][1] and _separator(text, lines[i + 1])):
            i += 1
            continue
        header = (lines[i][0], lines[i + 1][1])
        i += 2
        rows: list[Span] = []
        while i < len(lines) and lines[i][0] == (rows[-1][1] if rows else header[1]):
            if (
                i + 1 < len(lines)
                and lines[i + 1][0] == lines[i][1]
                and _separator(text, lines[i + 1])
            ):
                break  # a new header: another table (or the same one, its header repeated)
            rows.append(lines[i])
            i += 1
        out.append(Table(header, tuple(rows)))
    return out


def _separator(text: str, line: Span) -> bool:
    content = text[line[0] : line[1]].strip()
    return "|" in content and "-" in content and set(content) <= _SEPARATOR_CHARS
