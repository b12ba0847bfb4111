"""What every kind of PDF table shares: its box and markdown on the page (PageTable), rows
cleaned of empty rows and columns and of stacked numbers, the one table renderer, the lines
no table took, a page's table budget, and rows of lines side by side."""

from __future__ import annotations

import bisect
from collections.abc import Iterable
from dataclasses import dataclass, replace
from itertools import accumulate
from operator import or_
from typing import TYPE_CHECKING, Any

from ....sanitize import lazy_pattern
from ...markdown import Cell, Grid, grid_table
from ..survey import is_page_number

if TYPE_CHECKING:
    from ....settings import OutputSettings
    from ..text.lines import Box, Line, PageText

TOL = 2.0  # points: rules and text edges this close meet
NUMBER = lazy_pattern(r"^[-+(]?[$€£]?\d[\d,.]*%?\)?$")
#: An amount as bills print it: a NUMBER, or one with its thousands grouped by spaces or a
#: true minus sign (``2 650,75``, ``−157,54``); not a list of numbers (an index's ``2454,
#: 2462, 2865``: its groups are no thousands); a per cent as France writes it too (``5,5 %``)
AMOUNT = lazy_pattern(
    r"^[-+\u2212(]?[$€£]?(?:\d{1,3}(?:\s\d{3})+(?:[,.]\d+)?|\d[\d,.']*)(?:\s?%)?\)?$"
)
_HYPHEN_BREAK = lazy_pattern(r"([^\W\d_]-)\n(?=\S)")
_CELL_TEXT = lazy_pattern(r"\S+(?: {1,2}\S+)*")  # a cell's text in a line padded with spaces
_NARROW = " ,.;:'!|"  # characters about half a digit wide
_BLANK = lazy_pattern(r"_{3,}")  # a form's blank to fill in, drawn as underscores
_HALF = 0.5
# A Dingbats font's codes as MuPDF gives them without a ToUnicode map, control characters (a
# paper's ✓ is \x13, its ✗ \x17): the Dingbats block in ZapfDingbats' order, three aside.
_DINGBATS = {c: 0x2700 + c for c in range(1, 32)} | {5: 0x260E, 10: 0x261B, 11: 0x261E}
LEADERS = ".·•…‥_∙"  # a dot leader's characters
_LED = lazy_pattern(rf"(?:\s*[{LEADERS}]){{2,}}\s*$")  # leader characters at a line's end
_SPACED = lazy_pattern(rf"[{LEADERS}]\s+[{LEADERS}]")  # ". ." leaders, not an ellipsis "..."
_LIST_GLYPHS = "•◦▪‣⁃∙●▶►➢\u25b8\ufffd\uf0a7\uf0b7\uf0d8"  # a list's bullets: no box, no tick
_LIST_BULLET = lazy_pattern(rf"^\s*[{_LIST_GLYPHS}]\s*(?=\S)")
_CELL_BULLET = lazy_pattern(  # before a cell's text; a tick or box alone is the cell's value
    rf"^\s*(?:[{_LIST_GLYPHS}▫○■□✓\uf0fc]\s*(?=\S)|\ufffd\s*$)"
)  # (a glyph the text layer cannot name, alone, is no value: emptied)


@dataclass(frozen=True, slots=True)
class PageTable:
    """A table's box on the page, its markdown, and the lines it took."""

    x0: float
    y0: float
    x1: float
    y1: float
    markdown: str
    lines: frozenset[int] = frozenset()  # ids of the Line objects it holds

    @property
    def bbox(self) -> Box:
        return (self.x0, self.y0, self.x1, self.y1)


def table_rows(table: Any) -> list[list[str]]:
    """A PyMuPDF table's cells as text rows (``extract_tables``): merged (None) cells empty,
    rows and columns empty throughout dropped (split-line ghosts)."""
    return clean_rows([["" if c is None else str(c) for c in row] for row in table.extract()])


def clean_rows(rows: list[list[str]], *, columns: bool = True) -> list[list[str]]:
    """Rows without the rows (and ``columns``) empty throughout; a row whose cells stack the same
    number of numbers (a table ruled only between groups of rows) split into that many rows;
    a word broken after its hyphen inside a cell ("umbrella-" / "A50") made whole; a bullet
    glyph opening a cell left out (the cell's text is what it says)."""
    rows = [[_CELL_BULLET.sub("", _HYPHEN_BREAK.sub(r"\1", c)) for c in r] for r in rows]
    rows = [part for r in rows for part in _unstacked(r) if any(c.strip() for c in part)]
    if not rows:
        return []
    width = max(len(r) for r in rows)
    keep = [
        c for c in range(width) if not columns or any(c < len(r) and r[c].strip() for r in rows)
    ]
    return [[r[c] if c < len(r) else "" for c in keep] for r in rows]


def _unstacked(row: list[str]) -> list[list[str]]:
    """``row`` as k rows when 2+ of its cells hold k > 1 lines that are all numbers and every
    cell holds 1 or k lines (a single-line cell stays in the first row); else ``[row]``."""
    parts = [c.split("\n") for c in row]
    counts = {len(p) for p in parts if len(p) > 1}
    numeric = sum(len(p) > 1 and all(NUMBER.match(x.strip()) for x in p) for p in parts)
    if len(counts) != 1 or numeric < 2:
        return [row]
    k = counts.pop()
    return [[p[i] if len(p) == k else (p[0] if i == 0 else "") for p in parts] for i in range(k)]


def unbulleted(text: str) -> str:
    """A cell's line without the bullet glyph it opens with (an item of a list set in a cell,
    after the cell's first line: "Usage setting: • ALLOWED: ..." reads without the •); a box
    or a tick stays (``_LIST_BULLET``: a form's option and its state)."""
    return _LIST_BULLET.sub("", text)


def spaced_apart(lines: list[Line]) -> tuple[list[Line], dict[int, Line]]:
    """The lines with those that set cells apart by runs of spaces (three or more inside a
    line in a proportional font: a spreadsheet's padded numbers) cut into one line a cell,
    each placed by its characters' share of the line's width (a space or a comma half a
    digit's), and those that end in dot leaders (a statistical table's row labels: ``Robbery
    . . . . .``) cut to their text, and a Dingbats glyph the text layer gives as a control
    character named (``_DINGBATS``: a cell's ✓), and a line that is only a form's blank to
    fill in (underscores) left out (``By: ____`` is cut to ``By:`` as leaders are) unless it
    is a field's value (``_fields``); and the line each piece was cut from, by the piece's
    id."""
    leaders = {id(ln): at for ln in lines if (at := _leaders_at(ln)) is not None}
    dingbats = [ln for ln in lines if "Dingbats" in ln.family and min(ln.text) < " "]
    if (
        not leaders
        and not dingbats
        and not any("   " in ln.text or "___" in ln.text for ln in lines)
    ):
        return lines, {}
    out: list[Line] = []
    whole: dict[int, Line] = {}
    named = {id(ln) for ln in dingbats}
    blanks = {id(ln) for ln in lines if _blank(ln)}
    blanks -= _fields(lines) if blanks else set()
    for ln in lines:
        if id(ln) in named:
            piece = replace(ln, text=ln.text.translate(_DINGBATS))
            whole[id(piece)] = ln
            out.append(piece)
            continue
        if id(ln) in blanks:
            continue  # a form's blank to fill in alone (``____``): no cell, no row
        led = leaders.get(id(ln))
        text = ln.text if led is None else ln.text[:led]
        if ("   " not in text.strip() or ln.mono or ln.rotated) and not (led and text.strip()):
            out.append(ln)
            continue
        weights = [_HALF if c in _NARROW else 1.0 for c in ln.text]
        scale = (ln.x1 - ln.x0) / (sum(weights) or 1.0)
        for m in _CELL_TEXT.finditer(text) if "   " in text.strip() else [None]:
            start, end = (m.start(), m.end()) if m else (len(text) - len(text.lstrip()), len(text))
            x0 = ln.x0 + scale * sum(weights[:start])
            x1 = x0 + scale * sum(weights[start:end])
            cuts = ln.cuts if m is None else ()  # a piece's offsets would count from the line's
            piece = replace(ln, x0=x0, x1=x1, text=m.group() if m else text.strip(), cuts=cuts)
            whole[id(piece)] = ln
            out.append(piece)
    return out, whole


def _blank(line: Line) -> bool:
    """A line that is only a form's blank to fill in, drawn as underscores (``____``)."""
    return "___" in line.text and not line.mono and not _BLANK.sub("", line.text).strip()


def _fields(lines: list[Line]) -> set[int]:
    """The ids of the blanks (``_blank``) that are a field's value: the nearest line left of
    them on their row is a label ending in a colon (a questionnaire's ``Firma:`` | ``____``,
    a form's ``Name: ____    Date: ____``, whatever the next column holds), and no line left
    of them holds a label's blank in its text (a signature grid's ``By: ____`` | ``By:`` |
    ``____``: the first party's blank is cut off its label, so the second's goes too). A
    row's lines are found by bisection and sorted by x once for all its blanks of one height
    (a row of many blanks: no quadratic pass)."""
    rows = sorted(((ln.y0 + ln.y1) / 2, i) for i, ln in enumerate(lines))
    mids = [mid for mid, _ in rows]
    seen: dict[tuple[float, float], tuple[list[float], list[Line], list[bool]]] = {}
    out = set()
    for ln in lines:
        if not _blank(ln):
            continue
        if (ln.y0, ln.y1) not in seen:
            span = rows[bisect.bisect_left(mids, ln.y0) : bisect.bisect_right(mids, ln.y1)]
            row = sorted((lines[i] for _, i in span), key=lambda other: other.x0)
            cut = list(accumulate(("___" in r.text and not _blank(r) for r in row), or_))
            seen[ln.y0, ln.y1] = [r.x0 for r in row], row, cut
        xs, row, cut = seen[ln.y0, ln.y1]
        at = bisect.bisect_left(xs, ln.x0) - 1  # the nearest line starting left of the blank
        if at >= 0 and not cut[at] and row[at].text.rstrip().endswith(":"):
            out.add(id(ln))
    return out


def _leaders_at(line: Line) -> int | None:
    """Where the dot leaders a line ends in start (four leader characters or more, or two set
    apart: ``violations . .``; an ellipsis is none); None without them. A sentence's full stop
    is turned away by its last two characters, before any pattern (most lines end in one)."""
    end = line.text.rstrip()[-2:]
    if (
        line.rotated
        or len(end) < 2
        or end[1] not in LEADERS
        or not (end[0] in LEADERS or end[0].isspace())
    ):
        return None
    m = _LED.search(line.text)
    if m is None or sum(c in LEADERS for c in m.group()) < 4 and not _SPACED.search(m.group()):
        return None
    return m.start()


def whole_lines(table: PageTable, whole: dict[int, Line]) -> PageTable:
    """The table holding the lines its pieces were cut from (``spaced_apart``)."""
    if not whole:
        return table
    return replace(table, lines=frozenset(id(whole[i]) if i in whole else i for i in table.lines))


def left_over(lines: list[Line], tables: Iterable[PageTable]) -> list[Line]:
    """The lines no table took."""
    taken = set().union(*(t.lines for t in tables))
    return [ln for ln in lines if id(ln) not in taken] if taken else lines


def numbers_row(line: Line, lines: list[Line]) -> bool:
    """A line with two or more numbers beside it on its row: a cell of a table's row of
    figures (its first or last in the page's band), not a page number."""
    mid = (line.y0 + line.y1) / 2
    row = (o for o in lines if o.y0 < mid < o.y1 and o is not line)
    return sum(NUMBER.match(o.text.strip()) is not None for o in row) >= 2


def heads_row(line: Line, lines: list[Line]) -> bool:
    """A line of a row of three or more, a row of two or more set right under it (within a
    line's height): a table's header row, printed again atop each page the table runs over,
    not a running header (which stands apart from the body under it)."""
    mid, height = (line.y0 + line.y1) / 2, line.y1 - line.y0
    row = sum(o.y0 < mid < o.y1 for o in lines)
    return row >= 3 and sum(line.y1 - 1 <= o.y0 < line.y1 + height for o in lines) >= 2


def page_number(line: Line, lines: list[Line]) -> bool:
    """A line that reads as a page number (``survey.is_page_number``) and is in no row of
    numbers (``numbers_row``)."""
    return is_page_number(line.text) and not numbers_row(line, lines)


def over_budget(text: PageText, max_seconds: float) -> bool:
    """Whether a page is over its table budget: it drew more paths than its reading collects
    (``text.rects`` is None) or that reading alone took over ``max_seconds``."""
    return text.rects is None or text.seconds > max_seconds


def make_table(
    box: Box,
    rows: list[list[str]],
    output: OutputSettings,
    lines: list[Line],
    *,
    toc: bool = False,
    head: bool = False,
) -> PageTable | None:
    """The table of ``rows`` (its box, markdown and lines), or None for one row or one column:
    text in a box; a ``head`` row alone (a drawn table's first row, its body on the next page)
    is a table."""
    if len(rows) < 2 and not head or max(len(r) for r in rows) < 2:
        return None  # one row or one column: text in a box, not a table
    markdown = pipe_table(rows, output)
    return PageTable(*box, markdown, frozenset(id(ln) for ln in lines))


def pipe_table(rows: list[list[str]], output: OutputSettings) -> str:
    """A PDF table's rows (the first is the header) through the one table renderer."""
    return grid_table(Grid([[Cell(text) for text in row] for row in rows], 1), output=output)


def inside(line: Line, box: Box) -> bool:
    """The line's middle is in the box."""
    x, y = (line.x0 + line.x1) / 2, (line.y0 + line.y1) / 2
    return box[0] <= x <= box[2] and box[1] <= y <= box[3]


def _in_row(first: Line, line: Line) -> bool:
    """``line``'s middle within half a line of a row's ``first`` line's: the lower one's when
    both are one size, else the first's."""
    half = (min(first.height, line.height) if line.size == first.size else first.height) / 2
    return abs((line.y0 + line.y1) / 2 - (first.y0 + first.y1) / 2) <= half


def _level(other: Line, line: Line) -> bool:
    """Two lines of one size ending at one bottom (a tenth of the lower one's height apart),
    their middles within half the taller one's: set on one baseline."""
    low, high = sorted((other.height, line.height))
    return (
        other.size == line.size
        and abs(other.y1 - line.y1) <= 0.1 * low
        and abs(other.y0 + other.y1 - line.y0 - line.y1) <= high
    )


def box_of(lines: Iterable[Line]) -> Box:
    ls = list(lines)
    return (
        min(ln.x0 for ln in ls), min(ln.y0 for ln in ls),
        max(ln.x1 for ln in ls), max(ln.y1 for ln in ls),
    )  # fmt: skip


def row_top(row: list[Line]) -> float:
    """A printed row's top: its highest line's (``grid._top`` takes the lowest: a raised mark
    there must not part a cell's lines)."""
    return min(ln.y0 for ln in row)


def row_bottom(row: list[Line]) -> float:
    """A printed row's bottom: its lowest line's."""
    return max(ln.y1 for ln in row)


_FAR = 1e12  # points: no page is this far out (PyMuPDF's boxes are float32)


def rows_apart(lines: list[Line]) -> bool:
    """No two of the lines could share a row of ``rows_of`` (``_in_row`` either way round,
    ``_level``), whichever of them it groups: no row of two lines in any subset of them, so no
    table's row (a page of prose, one line a row). Both tests need two lines' middles within
    half the taller one's height (a hundredth of a point spared for rounding): each line is
    tested against the lines whose middles lie within its own half height, so a tall line costs
    only its own neighbours (a box with a NaN or infinite edge, or one past _FAR, where float
    sums lose the hundredth: no answer, False)."""
    spans = sorted(((ln.y0 + ln.y1) / 2, ln.y1 - ln.y0, i) for i, ln in enumerate(lines))
    mids = [mid for mid, _, _ in spans]
    if not all(abs(mid) < _FAR and abs(h) < _FAR for mid, h, _ in spans):
        return False
    for k, (mid, height, i) in enumerate(spans):
        reach = height / 2 + 0.01
        near = range(bisect.bisect_left(mids, mid - reach), bisect.bisect_right(mids, mid + reach))
        if any(n != k and _paired(lines[i], lines[spans[n][2]]) for n in near):
            return False
    return True


def _paired(a: Line, b: Line) -> bool:
    """Whether ``rows_of`` could put the two lines in one row, whichever comes first (each test
    both ways round: a sum's rounding differs with its order, at the tests' very edge)."""
    return _in_row(a, b) or _in_row(b, a) or _level(a, b) or _level(b, a)


def rows_of(lines: list[Line]) -> list[list[Line]]:
    """Lines grouped into rows, left to right: lines whose vertical middles are within half a
    line of the row's first, of the lower one when both are one size (a math symbol's box
    nearly twice its line's height takes in no row under it), or lines of one size ending at
    one bottom within half a line (a matrix's closing bracket a little lower than its row's
    first, level with the line it ends); a cell's wrapped line is a row of its own: ``grid``
    joins it."""
    rows: list[list[Line]] = []
    for line in sorted(lines, key=lambda ln: (ln.y0 + ln.y1) / 2):
        if rows and (_in_row(rows[-1][0], line) or any(_level(ln, line) for ln in rows[-1])):
            rows[-1].append(line)
            continue
        rows.append([line])
    for row in rows:
        row.sort(key=lambda ln: ln.x0)
    return rows
