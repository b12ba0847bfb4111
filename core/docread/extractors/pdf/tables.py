"""Tables of a PDF page as markdown pipe tables with their place on the page.

PyMuPDF's ``find_tables`` costs 20-70 ms a page, 10-30x the page's text, so it runs only where
cheap signals show a table: ruling (enough thin horizontal and vertical strokes or filled cell
rectangles in the page's draw log). Tables without ruling are found and built here from the
text lines: rows of lines side by side whose left edges line up in three or more columns over
three or more rows (its text strategy, clipped to them, cut words at column edges)."""

from __future__ import annotations

import bisect
import re
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from ..markdown import Cell, Grid, grid_table

if TYPE_CHECKING:
    import pymupdf

    from ...settings import OutputSettings
    from .lines import Box, Line, PageText

_THIN = 2.0  # points: a stroke or filled rect this thin is a rule
_MIN_EDGE = 4.0  # points: a shorter rule is a dash or a tick, not a cell's wall
_TOL = 2.0  # points: rules and text edges this close meet
_SPACING = 6.0  # points between the walls of neighbouring cells framed one by one (HTML tables)
_ALIGN = 4.0  # points: left edges this close are one column
_HYPHEN_BREAK = re.compile(r"([^\W\d_]-)\n(?=\S)")
_NUMBER = re.compile(r"^[-+(]?[$€£]?\d[\d,.]*%?\)?$")


@dataclass(frozen=True, slots=True)
class PageTable:
    """A table's box on the page and its markdown."""

    bbox: tuple[float, float, float, float]
    markdown: str


def table_rows(table: Any) -> list[list[str]]:
    """A PyMuPDF table's cells as text rows: merged (None) cells empty, rows and columns empty
    throughout dropped (split-line ghosts)."""
    return clean_rows([["" if c is None else str(c) for c in row] for row in table.extract()])


def clean_rows(rows: list[list[str]]) -> list[list[str]]:
    """Rows without the rows and columns empty throughout; a row whose cells stack the same
    number of numbers (a table ruled only between groups of rows) split into that many rows;
    a word broken after its hyphen inside a cell ("umbrella-" / "A50") made whole."""
    rows = [[_HYPHEN_BREAK.sub(r"\1", c) for c in r] for r in rows]
    rows = [part for r in rows for part in _unstacked(r) if any(c.strip() for c in part)]
    if not rows:
        return []
    width = max(len(r) for r in rows)
    keep = [c for c in range(width) if any(c < len(r) and r[c].strip() for r in rows)]
    return [[r[c] if c < len(r) else "" for c in keep] for r in rows]


def _unstacked(row: list[str]) -> list[list[str]]:
    """``row`` as k rows when 2+ of its cells hold k > 1 lines that are all numbers and every
    cell holds 1 or k lines (a single-line cell stays in the first row); else ``[row]``."""
    parts = [c.split("\n") for c in row]
    counts = {len(p) for p in parts if len(p) > 1}
    numeric = sum(len(p) > 1 and all(_NUMBER.match(x.strip()) for x in p) for p in parts)
    if len(counts) != 1 or numeric < 2:
        return [row]
    k = counts.pop()
    return [[p[i] if len(p) == k else (p[0] if i == 0 else "") for p in parts] for i in range(k)]


def ruled_cells(rects: list[Box], lines: list[Line], page: Box) -> Box | None:
    """Whether the page's rectilinear paths form a grid of cells around its text: two text
    lines in cells of rules (``_cell``: across above and below, down on one side at least),
    two different cells that share a wall (side by side or one over the other). A figure's
    curves are not rectilinear; a plot's axes and ticks do not close a cell; a framed note
    is one cell; boxes of a diagram stand apart; rectangles over half the page (a
    background, a page frame) are no cell's walls. The box around all these rules (a table
    of rules lies within it: where ``find_tables`` need look), or None."""
    across: list[tuple[float, float, float]] = []  # (y, x0, x1)
    down: list[tuple[float, float, float]] = []  # (x, y0, y1)
    big = 0.5 * (page[2] - page[0]) * (page[3] - page[1])
    for x0, y0, x1, y1 in rects:
        width, height = x1 - x0, y1 - y0
        if height <= _THIN and width >= _MIN_EDGE:
            across.append(((y0 + y1) / 2, x0, x1))
        elif width <= _THIN and height >= _MIN_EDGE:
            down.append(((x0 + x1) / 2, y0, y1))
        elif width > _THIN and height > _THIN and width * height < big:
            across += [(y0, x0, x1), (y1, x0, x1)]
            down += [(x0, y0, y1), (x1, y0, y1)]
    if len(across) < 2 or len(down) < 2:
        return None
    across.sort()
    down.sort()
    ys = [a[0] for a in across]
    xs = [d[0] for d in down]
    cells: set[Box] = set()
    for ln in lines:
        cell = _cell(ln, across, ys, down, xs)
        if cell is not None:
            cells.add(cell)
    if not any(_neighbours(a, b) for a in cells for b in cells if a < b):
        return None
    return (
        min(min(r[1] for r in across), min(d[0] for d in down)) - _TOL,
        min(min(a[0] for a in across), min(r[1] for r in down)) - _TOL,
        max(max(r[2] for r in across), max(d[0] for d in down)) + _TOL,
        max(max(a[0] for a in across), max(r[2] for r in down)) + _TOL,
    )


Rule = tuple[float, float, float]  # (position, start, end): a rule across (y, x0, x1) or down


def _nearest(
    rules: list[Rule], at: list[float], edge: float, mid: float, *, before: bool
) -> Rule | None:
    """The rule nearest to ``edge`` on one side (``rules`` sorted by position, ``at`` their
    positions) whose span covers ``mid``, or None."""
    i = bisect.bisect_right(at, edge)
    for rule in reversed(rules[:i]) if before else rules[i:]:
        if rule[1] - _TOL <= mid <= rule[2] + _TOL:
            return rule
    return None


def _cell(
    ln: Line, across: list[Rule], ys: list[float], down: list[Rule], xs: list[float]
) -> Box | None:
    """The cell (left, top, right, bottom) that rules make around a text line: the nearest
    rules above and below it, reaching over its width, and the nearest rule down on at
    least one side, from the rule above to the one below, which both reach; an open side
    (a table without outer walls) ends where the rules across end. None when there is none."""
    x, y = (ln.x0 + ln.x1) / 2, (ln.y0 + ln.y1) / 2
    top = _nearest(across, ys, ln.y0 + _TOL, x, before=True)
    bottom = _nearest(across, ys, ln.y1 - _TOL, x, before=False)
    if top is None or bottom is None:
        return None
    start, end = max(top[1], bottom[1]), min(top[2], bottom[2])  # where both rules reach
    if start > ln.x0 + _TOL or end < ln.x1 - _TOL:
        return None
    walls = [
        wall
        for wall in (
            _nearest(down, xs, ln.x0 + _TOL, y, before=True),
            _nearest(down, xs, ln.x1 - _TOL, y, before=False),
        )
        if wall is not None
        and wall[1] - _TOL <= top[0]
        and wall[2] + _TOL >= bottom[0]
        and start - _TOL <= wall[0] <= end + _TOL
    ]
    if not walls:
        return None
    left = max((w[0] for w in walls if w[0] <= ln.x0 + _TOL), default=start)
    right = min((w[0] for w in walls if w[0] >= ln.x1 - _TOL), default=end)
    return (left, top[0], right, bottom[0])


def _neighbours(a: Box, b: Box) -> bool:
    """Two cells (left, top, right, bottom) side by side or stacked: aligned, and a wall of
    one on, or within _SPACING of, the facing wall of the other (cells framed one by one)."""

    def near(p: float, q: float, tol: float = _TOL) -> bool:
        return abs(p - q) <= tol

    row = near(a[1], b[1]) and near(a[3], b[3])
    column = near(a[0], b[0]) and near(a[2], b[2])
    return (row and (near(a[2], b[0], _SPACING) or near(b[2], a[0], _SPACING))) or (
        column and (near(a[3], b[1], _SPACING) or near(b[3], a[1], _SPACING))
    )


def _rows(lines: list[Line]) -> list[list[Line]]:
    """Lines grouped into rows, left to right: lines whose vertical middles are within half a
    line of the row's first, and lines that touch the row's bottom (a cell's wrapped line)."""
    rows: list[list[Line]] = []
    bottom = 0.0
    for line in sorted(lines, key=lambda ln: (round(ln.y0), ln.x0)):
        mid, height = (line.y0 + line.y1) / 2, line.y1 - line.y0
        if rows:
            first = rows[-1][0]
            same = abs(mid - (first.y0 + first.y1) / 2) <= (first.y1 - first.y0) / 2
            if same or line.y0 - bottom <= 0.1 * height:
                rows[-1].append(line)
                bottom = max(bottom, line.y1)
                continue
        rows.append([line])
        bottom = line.y1
    for row in rows:
        row.sort(key=lambda ln: ln.x0)
    return rows


def _aligned(row: list[Line], anchors: list[float]) -> int:
    return sum(any(abs(line.x0 - a) <= _ALIGN for a in anchors) for line in row)


def unruled_runs(lines: list[Line], width: float) -> list[list[list[Line]]]:
    """Runs of 3+ rows of 3+ short side-by-side cells (a few words each) that share their
    columns' left edges (a row may leave cells empty), with the row of cells just above (a header centred over its columns). Text in columns does not qualify: its rows
    have one long line per column."""
    runs: list[list[list[Line]]] = []
    run: list[list[Line]] = []
    anchors: list[float] = []
    before: list[Line] = []

    def cells(row: list[Line]) -> bool:
        words = [len(ln.text.split()) for ln in row]
        return (
            len(row) >= 2
            and all(ln.x1 - ln.x0 < width * 0.3 for ln in row)
            and max(words) <= 6
            and sum(words) <= 3 * len(row)
        )

    def close() -> None:
        if len(run) >= 3 and len(anchors) >= 3:
            head = [before] if before and _near(before, run[0]) else []
            runs.append(head + run)

    last: list[Line] = []
    for row in _rows(lines):
        if cells(row) and run and _aligned(row, anchors) >= min(2, len(row)):
            run.append(row)
            anchors.extend(ln.x0 for ln in row if _aligned([ln], anchors) == 0)
            last = row
            continue
        close()
        before = last if last and cells(last) else []
        run, anchors = ([row], [ln.x0 for ln in row]) if cells(row) and len(row) >= 3 else ([], [])
        last = row
    close()
    return runs


def _near(upper: list[Line], lower: list[Line]) -> bool:
    """Two rows no more than two line heights apart."""
    height = max(ln.y1 - ln.y0 for ln in lower)
    return min(ln.y0 for ln in lower) - max(ln.y1 for ln in upper) <= 2 * height


def grid(run: list[list[Line]]) -> tuple[tuple[float, float, float, float], list[list[str]]]:
    """A run of rows as a table: columns are the x ranges the lines cover (overlapping ranges
    merged); a row right under the one before (closer than a third of a line) with fewer
    cells continues its cells (wrapped text)."""
    cols: list[list[float]] = []
    for x0, x1 in sorted((ln.x0, ln.x1) for row in run for ln in row):
        if cols and x0 <= cols[-1][1] + 1:
            cols[-1][1] = max(cols[-1][1], x1)
        else:
            cols.append([x0, x1])
    rows: list[list[str]] = []
    bottom = 0.0
    for row in run:
        cells = [""] * len(cols)
        for ln in row:
            i = next(i for i, c in enumerate(cols) if c[0] <= ln.x0 <= c[1])
            cells[i] = f"{cells[i]} {ln.text.strip()}".strip()
        top, height = min(ln.y0 for ln in row), max(ln.y1 - ln.y0 for ln in row)
        filled = sum(bool(c) for c in cells)
        if rows and top - bottom < height / 3 and filled < sum(bool(c) for c in rows[-1]):
            rows[-1] = [f"{a} {b}".strip() for a, b in zip(rows[-1], cells, strict=True)]
        else:
            rows.append(cells)
        bottom = max(ln.y1 for ln in row)
    boxes = [ln for row in run for ln in row]
    box = (
        min(ln.x0 for ln in boxes) - 1, min(ln.y0 for ln in boxes) - 1,
        max(ln.x1 for ln in boxes) + 1, max(ln.y1 for ln in boxes) + 1,
    )  # fmt: skip
    return box, rows


def page_tables(
    page: pymupdf.Page, text: PageText, lines: list[Line], output: OutputSettings,
    max_seconds: float,
) -> tuple[list[PageTable], bool]:  # fmt: skip
    """The page's tables among ``lines`` (its text without running lines), ruled ones first
    found by their lines, then those without ruling where the text lines show them; and
    whether ruled ones were not looked for (``over_budget``)."""
    found: list[PageTable] = []
    taken: list[Any] = []
    over = over_budget(text, max_seconds)
    ruling = (
        None if over or not text.rects else ruled_cells(text.rects, text.lines, tuple(page.rect))
    )
    if ruling is not None:  # find_tables reads every character it is given: only those there
        for table in page.find_tables(clip=ruling, use_layout=False).tables:
            _add(found, taken, tuple(table.bbox), table_rows(table), output)
    free = [ln for ln in lines if not any(inside(ln, box) for box in taken)]
    width = page.rect.width
    short = sum(ln.x1 - ln.x0 < 0.3 * width and ln.text.count(" ") < 6 for ln in free)
    for run in unruled_runs(free, width) if short >= 9 else ():  # 3 rows of 3 cells at least
        box, rows = grid(run)
        _add(found, taken, box, clean_rows(rows), output)
    return found, over


def over_budget(text: PageText, max_seconds: float) -> bool:
    """Whether a page is over its table budget: it drew more paths than its reading collects
    (``text.rects`` is None) or that reading alone took over ``max_seconds`` (find_tables
    reads the page and its drawings again: a multiple of that, 100 s on 120,000 rules)."""
    return text.rects is None or text.seconds > max_seconds


def _add(
    found: list[PageTable],
    taken: list[Any],
    box: tuple[float, float, float, float],
    rows: list[list[str]],
    output: OutputSettings,
) -> None:
    if len(rows) < 2 or max(len(r) for r in rows) < 2:
        return  # one row or one column: text in a box, not a table
    taken.append(box)
    found.append(PageTable(box, pipe_table(rows, output)))


def pipe_table(rows: list[list[str]], output: OutputSettings) -> str:
    """A PDF table's rows (the first is the header) through the one table renderer."""
    return grid_table(Grid([[Cell(text) for text in row] for row in rows], 1), output=output)


def inside(line: Line, box: tuple[float, float, float, float]) -> bool:
    """The line's middle is in the box."""
    x, y = (line.x0 + line.x1) / 2, (line.y0 + line.y1) / 2
    return box[0] <= x <= box[2] and box[1] <= y <= box[3]
