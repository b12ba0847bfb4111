"""Tables of contents on a PDF page, title | page, one row per entry (an entry wrapped over two
lines one row):

- with dot leaders (``Notices . . . vii``): the leaders and the number in the entry's line;
- without leaders: each entry's page number set apart at the right, the numbers of a column
  right-aligned on one edge, not all the same and never decreasing down the page (what tells
  a TOC from a table whose last column holds numbers or marks), the title the text left of it
  on its row (a section number printed apart from its title included, leaders printed apart
  from the number dropped); entries of both kinds whose numbers end on one edge are one
  table (chapter lines without leaders over section lines with them)."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from ....sanitize import lazy_pattern
from .cells import LEADERS, TOL, PageTable, box_of, make_table
from .cuts import ALIGN

if TYPE_CHECKING:
    from ....settings import OutputSettings
    from ..text.lines import Line

    Entry = tuple[list[Line], str, str]  # the lines it takes, its title, its page

_LEADER = lazy_pattern(
    rf"^(?P<title>.*?\S)\s*(?:[{LEADERS}]\s*){{3,}}\s*(?P<page>\d{{1,4}}|[ivxlcdm]{{1,7}})\s*$",
    re.IGNORECASE,
)
_NUMERALS = "ivxlcdmIVXLCDM\u0130\u0131"  # the page's roman letters, in either case
_DOTS = lazy_pattern(rf"\s*(?:[{LEADERS}]\s*){{3,}}$")  # leaders at a line's end
_PAGE = lazy_pattern(r"^(?:\d{1,4}|[ivxlcdm]{1,7})$")  # roman in lower case: "X" is a mark
_ROMAN = {"i": 1, "v": 5, "x": 10, "l": 50, "c": 100, "d": 500, "m": 1000}
_TOC_ROWS = 3  # entries with leaders a page needs to hold a table of contents
_BARE_ROWS = 5  # entries without leaders: a column of numbers needs more to be a TOC


def contents_tables(lines: list[Line], output: OutputSettings) -> list[PageTable]:
    """The page's tables of contents among ``lines``: entries with leaders, then entries
    without them among the lines those did not take; entries without leaders whose numbers
    end where a column of leader entries' numbers end are rows of that table (a chapter's
    line set without leaders over its sections' lines with them)."""
    columns = _leader_columns(lines)
    taken = {id(ln) for col in columns for parts, _, _ in col for ln in parts}
    free = [ln for ln in lines if id(ln) not in taken]
    edges = [col[-1][0][-1].x1 for col in columns]
    led = list(zip(columns, edges, strict=True))  # only leader columns take bare entries in
    for col in _bare_columns(free, edges):
        edge = col[-1][0][-1].x1
        near = next((c for c, e in led if abs(e - edge) <= 2 * TOL), None)
        if near is None:
            columns.append(col)
        else:
            near += col
    return [t for col in columns if len(col) >= 2 and (t := _table(col, output)) is not None]


def _leader_columns(lines: list[Line]) -> list[list[Entry]]:
    """Entries with dot leaders and a page number, one list per column of them: a line
    without leaders right above an entry (the start of a wrapped title) joins its title."""
    entries: list[tuple[Line, str, str]] = []
    for ln in lines:
        m = (
            _LEADER.match(ln.text)
            if (not ln.rotated and "." in ln.text or "…" in ln.text) and _led(ln.text)
            else None
        )
        if m is not None and len(m.group("title")) <= 200:
            entries.append((ln, m.group("title").rstrip(" " + LEADERS), m.group("page")))
    if len(entries) < _TOC_ROWS:
        return []
    taken = {id(e[0]) for e in entries}
    columns: list[list[Entry]] = []
    for ln, title, page in sorted(entries, key=lambda e: (e[0].x1, e[0].y0)):
        start = _wrapped_start(ln, lines, taken)
        parts = [start, ln] if start is not None else [ln]
        if start is not None:
            taken.add(id(start))
            title = " ".join(start.text.split()) + " " + title
        if not title.strip():
            continue
        row = (parts, " ".join(title.split()), page)
        col = next((c for c in columns if abs(c[-1][0][-1].x1 - ln.x1) <= 2 * TOL), None)
        if col is None:
            columns.append([row])
        else:
            col.append(row)
    return [col for col in columns if len(col) >= 2]


def _led(text: str) -> bool:
    """What ``_LEADER`` needs at the line's end, checked from there (the pattern itself tries
    every start of a title): a leader character, then (spaces aside) a page number."""
    t = text.rstrip()
    end = len(t)
    while end and (t[end - 1].isdecimal() or t[end - 1] in _NUMERALS):
        end -= 1
    return end < len(t) and t[:end].rstrip()[-1:] in LEADERS


def _bare_columns(lines: list[Line], edges: list[float]) -> list[list[Entry]]:
    """Entries whose page number stands apart at the right without leaders (module doc), one
    list per column: five or more whose numbers never go down, or any number of them when
    their numbers end on one of ``edges`` (a column of entries with leaders)."""
    numbers = [ln for ln in lines if not ln.rotated and _PAGE.match(ln.text.strip())]
    if not numbers:
        return []
    taken: set[int] = set()  # lines an entry of an earlier column took
    columns: list[list[Line]] = []
    for ln in sorted(numbers, key=lambda n: n.x1):
        col = next((c for c in columns if abs(c[-1].x1 - ln.x1) <= TOL), None)
        if col is None:
            columns.append([ln])
        else:
            col.append(ln)
    out = []
    for col in columns:
        joins = any(abs(col[-1].x1 - e) <= 2 * TOL for e in edges)
        if len(col) < _BARE_ROWS and not joins:
            continue
        held = taken | {id(n) for n in col}
        entries = []
        for number in sorted(col, key=lambda n: n.y0):
            entry = _bare_entry(number, lines, held)
            if entry is not None:
                entries.append(entry)
                held.update(id(ln) for ln in entry[0])
        pages = [_page_value(p) for _, _, p in entries]
        if not joins and (
            len(entries) < _BARE_ROWS
            or len(set(pages)) < 2
            or any(b < a for a, b in zip(pages, pages[1:], strict=False))
        ):
            continue  # too few entries, one number or numbers that go down: a table's values
        if entries:
            taken = held
            out.append(entries)
    return out


def _bare_entry(number: Line, lines: list[Line], taken: set[int]) -> Entry | None:
    """The entry a page number at the right closes: the lines left of it on its row (one to
    three: a section number and its title; leaders at its end dropped) with a line right
    above joined when it starts the title; None when the row holds other numbers or nothing
    with a letter, or its title ends less than an em before the number without leaders."""
    mid = (number.y0 + number.y1) / 2
    row = sorted(
        (
            ln
            for ln in lines
            if id(ln) not in taken and ln.x1 < number.x0 and ln.y0 < mid < ln.y1 and not ln.rotated
        ),
        key=lambda ln: ln.x0,
    )
    if not row or len(row) > 3:
        return None
    dotted = bool(_DOTS.search(row[-1].text))  # leaders printed apart from their number
    if number.x0 - row[-1].x1 < (0 if dotted else number.size):
        return None
    if any(_PAGE.match(ln.text.strip()) and ln.text.strip().isdigit() for ln in row[1:]):
        return None  # a number inside the row: a table's values, not a title
    if not any(c.isalpha() for ln in row for c in ln.text):
        return None
    above = _wrapped_row(row, number, lines, taken)
    parts = [*above, *row, number]
    title = ""
    for ln in (*above, *row):
        part = " ".join(ln.text.split())
        title = f"{title}{part}" if title.endswith("-") else f"{title} {part}".strip()
    return parts, _DOTS.sub("", title), number.text.strip()


def _wrapped_row(row: list[Line], number: Line, lines: list[Line], taken: set[int]) -> list[Line]:
    """The lines right above an entry's row that start its title (wrapped over two lines):
    left of its number, from at most three ems left of the row (a section number printed
    apart), less than half a line above, the same size, none taken by an entry."""
    height = number.y1 - number.y0
    top = min(ln.y0 for ln in row)
    return sorted(
        (
            ln
            for ln in lines
            if id(ln) not in taken
            and not ln.rotated
            and ln.size == number.size
            and ln.x1 < number.x0
            and ln.x0 >= row[0].x0 - 3 * number.size
            and -TOL <= top - ln.y1 <= 0.4 * height
            and not _DOTS.search(ln.text)
        ),
        key=lambda ln: ln.x0,
    )


def _page_value(page: str) -> int:
    """A page number's value: roman numbers (front matter) before arabic ones."""
    if page.isdigit():
        return 10_000 + int(page)
    values = [_ROMAN[c] for c in page.lower()]
    return sum(-v if i + 1 < len(values) and v < values[i + 1] else v for i, v in enumerate(values))


def _table(entries: list[Entry], output: OutputSettings) -> PageTable | None:
    entries = sorted(entries, key=lambda e: e[0][0].y0)
    used = [ln for parts, _, _ in entries for ln in parts]
    return make_table(box_of(used), [[t, p] for _, t, p in entries], output, used, toc=True)


def _wrapped_start(entry: Line, lines: list[Line], taken: set[int]) -> Line | None:
    """The line right above an entry's line that starts its title (no leaders, same column,
    starts at or left of it, less than a line apart)."""
    best = None
    top, gap = entry.y0, 0.4 * (entry.y1 - entry.y0)
    for ln in lines:
        if ln.y1 > top + TOL or top - ln.y1 > gap:
            continue  # not right above it (the test that rules out most lines, first)
        if id(ln) in taken or ln.rotated or ln.size != entry.size:
            continue
        if _DOTS.search(ln.text):
            continue  # an entry of its own, its number printed apart
        near = abs(ln.x0 - entry.x0) <= ALIGN * 3 and ln.x0 <= entry.x0 + ALIGN
        if near and ln.x1 < entry.x1 and (best is None or ln.y1 > best.y1):
            best = ln
    return best
