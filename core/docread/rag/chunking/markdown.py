"""The tables the chunker reads in a unit's markdown: pipe tables (a header row, a ``|---|``
separator, rows). Where sections start is the outline's (``docread.outline``)."""

from __future__ import annotations

import re
from dataclasses import dataclass

from .splitter import Span

_ROW = re.compile(r"^ {0,3}\|[^\n]*", re.M)  # a line that starts with "|"
_SEPARATOR_CHARS = frozenset("|-: \t")


@dataclass(frozen=True, slots=True)
class Table:
    header: Span  # the header row and the separator line, with its line break
    rows: tuple[Span, ...]  # each row with its line break

    @property
    def end(self) -> int:
        return self.rows[-1][1] if self.rows else self.header[1]


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
