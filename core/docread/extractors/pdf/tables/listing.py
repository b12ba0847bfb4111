"""A code listing's pieces on one row (an option and its description, set apart by spaces
MuPDF does not keep) as one line spaced to its columns, so the reading order keeps the row and
no table is made of a listing; a row under a head row in another face stays cells."""

from __future__ import annotations

import re
from bisect import bisect_left, bisect_right
from dataclasses import replace
from itertools import pairwise
from typing import TYPE_CHECKING

from ..text.joins import same_row
from .cells import rows_of
from .cuts import ALIGN

if TYPE_CHECKING:
    from ..survey import Survey
    from ..text.lines import Line

_NUMBER = re.compile(r"\s*\d{1,6}\s*$")  # a line number, alone on its line
_NUMBERED = re.compile(r"\s*(\d{1,6})\s")  # a line opening with its number


def code_rows(lines: list[Line], survey: Survey) -> list[Line]:
    """A listing's pieces on one row (an option, its description) as one line, left to right,
    spaced to their columns in characters of the font: the reading order keeps the row, no
    table is made; unless a row in another face above it starts two of its columns (a head
    row over cells in code: R's ``Family name | Link functions``)."""
    lines = _numbered(lines)
    rows: list[list[Line]] = []
    for ln in sorted((ln for ln in lines if survey.code(ln)), key=lambda ln: (ln.y0, ln.x0)):
        if rows and same_row(rows[-1][0], ln):
            rows[-1].append(ln)  # on the row's baseline: a piece of it
        else:
            rows.append([ln])
    merged: dict[int, Line | None] = {}  # a piece's id -> its row as one line, or None: gone
    heads: list[tuple[float, list[Line]]] | None = None  # by bottom: made once, at the first row
    pieced = [sorted(r, key=lambda ln: ln.x0) for r in rows if len(r) > 1]
    gutters = _gutters([ln for ln in lines if not survey.code(ln)]) if pieced else []
    for row in (part for r in pieced for part in _columns(r, gutters) if len(part) > 1):
        import statistics  # here: a first page seldom has a listing (with fractions, decimal)

        if heads is None:
            prose = rows_of([ln for ln in lines if not survey.code(ln)])
            heads = sorted(((max(ln.y1 for ln in r), r) for r in prose if r[1:]), key=_bottom)
        if _headed(row, heads):
            continue  # a table's row: its cells stay apart
        width = statistics.median((ln.x1 - ln.x0) / max(len(ln.text), 1) for ln in row)
        text = ""
        for ln in row:
            at = round((ln.x0 - row[0].x0) / width)
            text = (text + " " if text else "").ljust(at) + ln.text.strip()
        merged[id(row[0])] = replace(row[0], text=text, x1=max(ln.x1 for ln in row))
        merged.update(dict.fromkeys((id(ln) for ln in row[1:]), None))
    return _uncut([got for ln in lines if (got := merged.get(id(ln), ln)) is not None])


def _numbered(lines: list[Line]) -> list[Line]:
    """Each line number alone on its line (docstrip numbers a listing's lines in the text face)
    joined to the monospaced line right of it on its row, where the numbers of two such rows
    follow on: one line in the code's face and no cuts, a listing's line, no row of cells."""
    mono = sorted((ln for ln in lines if ln.mono), key=lambda ln: ln.y0)
    tops = [ln.y0 for ln in mono]
    pairs: list[tuple[Line, Line]] = []
    for ln in lines:
        if not mono or not _NUMBER.match(ln.text):
            continue
        near = mono[bisect_left(tops, ln.y0 - ln.height) : bisect_right(tops, ln.y1)]
        code = min((m for m in near if m.x0 >= ln.x1 and same_row(m, ln)), key=_left, default=None)
        if code is not None:
            pairs.append((ln, code))
    numbers = sorted((pair[0].y0, int(pair[0].text)) for pair in pairs)
    following = {a for (_, a), (_, b) in zip(numbers, numbers[1:], strict=False) if b == a + 1}
    following |= {n + 1 for n in following}
    joined: dict[int, Line | None] = {}
    for number, code in pairs:
        if int(number.text) in following:
            width = (code.x1 - code.x0) / max(len(code.text), 1)  # a character's: its indent
            text = number.text.strip() + " " * max(round((code.x0 - number.x1) / width), 1)
            text += code.text
            joined[id(code)] = replace(code, x0=number.x0, text=text, cuts=())
            joined[id(number)] = None
    if not joined:
        return lines
    return [got for ln in lines if (got := joined.get(id(ln), ln)) is not None]


def _left(line: Line) -> float:
    """A line's left edge: the nearest code right of a line number is the least."""
    return line.x0


def _uncut(lines: list[Line]) -> list[Line]:
    """The monospaced lines opening with a line number one more or one less than the next's
    above or below (a docstrip listing's, numbered in its own face) without cuts: a listing's
    numbered line, no row of cells."""
    numbered = sorted(
        (ln.y0, int(m.group(1)), id(ln))
        for ln in lines
        if ln.mono and (m := _NUMBERED.match(ln.text))
    )
    pairs = zip(numbered, numbered[1:], strict=False)
    keep = {key for a, b in pairs if b[1] == a[1] + 1 for _, _, key in (a, b)}
    return [replace(ln, cuts=()) if id(ln) in keep and ln.cuts else ln for ln in lines]


def _bottom(head: tuple[float, list[Line]]) -> float:
    """A head row's sort key: its bottom."""
    return head[0]


def _headed(row: list[Line], heads: list[tuple[float, list[Line]]]) -> bool:
    """A row among ``heads`` (by bottom) sits above ``row``, no more than ten lines up, and
    starts two of its columns; only the rows in that band are looked at (bisected: a page of
    a thousand code rows under a thousand prose rows is not a million comparisons)."""
    top = row[0].y0
    start = bisect_left(heads, top - 10 * row[0].height, key=_bottom)
    end = bisect_right(heads, top, key=_bottom)
    return any(
        sum(any(abs(h.x0 - ln.x0) <= ALIGN for h in head) for ln in row) >= 2
        for _, head in heads[start:end]
    )


def _gutters(prose: list[Line]) -> list[float]:
    """The middles of the x-ranges that no prose line of the page crosses, prose on both sides,
    left to right: a two-column page's gutter (none on a page without prose)."""
    spans = sorted((ln.x0, ln.x1) for ln in prose)
    out: list[float] = []
    reach = spans[0][1] if spans else 0.0
    for x0, x1 in spans[1:]:
        if x0 > reach:
            out.append((reach + x0) / 2)
        reach = max(reach, x1)
    return out


def _columns(row: list[Line], gutters: list[float]) -> list[list[Line]]:
    """A row's pieces (left to right) parted where a gutter lies between two: the rows of two
    columns' listings side by side (elbioimp's two-column page), each merged on its own."""
    parts = [[row[0]]]
    for prev, ln in pairwise(row):
        at = bisect_left(gutters, prev.x1)  # the first gutter past the piece (sorted: no scan)
        if at < len(gutters) and gutters[at] <= ln.x0:
            parts.append([])
        parts[-1].append(ln)
    return parts
