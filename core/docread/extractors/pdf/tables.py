"""Tables of a PDF page as markdown pipe tables with their place on the page, from the lines and
rules its one reading collected (lines.PageText): no second pass over the page.

- Tables of contents: entries with dot leaders and a page number (``Notices . . . vii``), one
  row per entry (title | page), an entry wrapped over two lines one row.
- Ruled tables: the cells rules make around text lines (across above and below, down on one
  side at least), neighbouring cells grouped into a table, its grid from the cells' edges (a
  cell over several columns or rows is one cell: its text in the first, the others empty).
- Tables without rules: rows of short lines side by side whose left edges line up in three
  or more columns over three or more rows (key/value grids in two pairs of columns too)."""

from __future__ import annotations

import bisect
import re
from collections.abc import Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from ..markdown import Cell, Grid, grid_table

if TYPE_CHECKING:
    from ...settings import OutputSettings
    from .lines import Box, Line, PageText

_THIN = 2.0  # points: a stroke or filled rect this thin is a rule
_MIN_EDGE = 4.0  # points: a shorter rule is a dash or a tick, not a cell's wall
_TOL = 2.0  # points: rules and text edges this close meet
_SPACING = 6.0  # points between the walls of neighbouring cells framed one by one (HTML tables)
_ALIGN = 4.0  # points: left edges this close are one column
_FAR = 2.5  # columns' widths: two columns of short lines this far apart are text, not a table
_WORD = re.compile(r"[^\W\d_]{3}")  # a word: three letters in a row
_HYPHEN_BREAK = re.compile(r"([^\W\d_]-)\n(?=\S)")
_NUMBER = re.compile(r"^[-+(]?[$€£]?\d[\d,.]*%?\)?$")
_LEADER = re.compile(
    r"^(?P<title>.*?\S)\s*(?:[.·•…‥_∙]\s*){3,}\s*(?P<page>\d{1,4}|[ivxlcdm]{1,7})\s*$",
    re.IGNORECASE,
)
_CELL_BULLET = re.compile(r"^\s*[•◦▪▫‣⁃∙●○■□▶►➢✓\u25b8\ufffd\uf0a7\uf0b7\uf0d8\uf0fc]\s*")
_TOC_ROWS = 3  # entries with leaders a page needs to hold a table of contents


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


def clean_rows(rows: list[list[str]]) -> list[list[str]]:
    """Rows without the rows and columns empty throughout; a row whose cells stack the same
    number of numbers (a table ruled only between groups of rows) split into that many rows;
    a word broken after its hyphen inside a cell ("umbrella-" / "A50") made whole; a bullet
    glyph opening a cell left out (the cell's text is what it says)."""
    rows = [[_CELL_BULLET.sub("", _HYPHEN_BREAK.sub(r"\1", c)) for c in r] for r in rows]
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


def drawn_tables(
    text: PageText, lines: list[Line], output: OutputSettings, max_seconds: float
) -> tuple[list[PageTable], bool]:
    """The page's tables of contents and ruled tables among ``lines`` (its text without
    running lines), and whether ruled ones were not looked for (``over_budget``)."""
    found = _toc_tables(lines, output)
    over = over_budget(text, max_seconds)
    if not over and text.rects:
        free = _left(lines, found)
        found += _ruled_tables(text.rects, free, (0.0, 0.0, text.width, text.height), output)
    return found, over


def aligned_tables(text: PageText, lines: list[Line], output: OutputSettings) -> list[PageTable]:
    """The page's tables without rules among ``lines`` (rows of short cells side by side)."""
    width = text.width
    short = sum(ln.x1 - ln.x0 < 0.3 * width and ln.text.count(" ") < 6 for ln in lines)
    if short < 6:  # two rows of three cells at least
        return []
    found = []
    for run in unruled_runs(lines, width):
        used = [ln for row in run for ln in row]
        if sum(bool(_WORD.search(ln.text)) for ln in used) < 2:
            continue  # no words: a display formula's array or a diagram's labels
        if sum(ln.text.lstrip()[:1].islower() for ln in used) * 2 >= len(used):
            continue  # lines that carry on a sentence: narrow columns of text
        table = _table(run_box(run), clean_rows(grid(run)), output, used)
        if table is not None:
            found.append(table)
    return found


def left_over(lines: list[Line], tables: Iterable[PageTable]) -> list[Line]:
    """The lines no table took."""
    return _left(lines, tables)


def _left(lines: list[Line], tables: Iterable[PageTable]) -> list[Line]:
    taken = set().union(*(t.lines for t in tables))
    return [ln for ln in lines if id(ln) not in taken] if taken else lines


def over_budget(text: PageText, max_seconds: float) -> bool:
    """Whether a page is over its table budget: it drew more paths than its reading collects
    (``text.rects`` is None) or that reading alone took over ``max_seconds``."""
    return text.rects is None or text.seconds > max_seconds


def _table(
    box: Box, rows: list[list[str]], output: OutputSettings, lines: list[Line], *, toc: bool = False
) -> PageTable | None:
    if len(rows) < 2 or max(len(r) for r in rows) < 2:
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


def _box(lines: Iterable[Line]) -> Box:
    ls = list(lines)
    return (
        min(ln.x0 for ln in ls), min(ln.y0 for ln in ls),
        max(ln.x1 for ln in ls), max(ln.y1 for ln in ls),
    )  # fmt: skip


# -- tables of contents ---------------------------------------------------------------------------
def _toc_tables(lines: list[Line], output: OutputSettings) -> list[PageTable]:
    """Entries with dot leaders and a page number, one table per column of them: a line
    without leaders right above an entry (the start of a wrapped title) joins its title."""
    entries: list[tuple[Line, str, str]] = []
    for ln in lines:
        m = _LEADER.match(ln.text) if not ln.rotated and "." in ln.text or "…" in ln.text else None
        if m is not None and len(m.group("title")) <= 200:
            entries.append((ln, m.group("title").rstrip(" .·•…‥_∙"), m.group("page")))
    if len(entries) < _TOC_ROWS:
        return []
    taken = {id(e[0]) for e in entries}
    columns: list[list[tuple[list[Line], str, str]]] = []
    for ln, title, page in sorted(entries, key=lambda e: (e[0].x1, e[0].y0)):
        start = _wrapped_start(ln, lines, taken)
        parts = [start, ln] if start is not None else [ln]
        if start is not None:
            taken.add(id(start))
            title = " ".join(start.text.split()) + " " + title
        if not title.strip():
            continue
        row = (parts, " ".join(title.split()), page)
        col = next((c for c in columns if abs(c[-1][0][-1].x1 - ln.x1) <= 2 * _TOL), None)
        if col is None:
            columns.append([row])
        else:
            col.append(row)
    out = []
    for col in columns:
        if len(col) < 2:
            continue
        col.sort(key=lambda r: r[0][0].y0)
        used = [ln for parts, _, _ in col for ln in parts]
        table = _table(_box(used), [[t, p] for _, t, p in col], output, used, toc=True)
        if table is not None:
            out.append(table)
    return out


def _wrapped_start(entry: Line, lines: list[Line], taken: set[int]) -> Line | None:
    """The line right above a leader line that starts its title (no leaders, same column,
    starts at or left of it, less than a line apart)."""
    best = None
    for ln in lines:
        if id(ln) in taken or ln.rotated or ln.y1 > entry.y0 + _TOL or ln.size != entry.size:
            continue
        if entry.y0 - ln.y1 > 0.4 * (entry.y1 - entry.y0):
            continue
        near = abs(ln.x0 - entry.x0) <= _ALIGN * 3 and ln.x0 <= entry.x0 + _ALIGN
        if near and ln.x1 < entry.x1 and (best is None or ln.y1 > best.y1):
            best = ln
    return best


# -- ruled tables ---------------------------------------------------------------------------------
Rule = tuple[float, float, float]  # (position, start, end): a rule across (y, x0, x1) or down


def _ruled_tables(
    rects: list[Box], lines: list[Line], page: Box, output: OutputSettings
) -> list[PageTable]:
    """Tables of cells ruled around text lines (see the module docstring)."""
    across: list[Rule] = []
    down: list[Rule] = []
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
        return []
    across.sort()
    down.sort()
    ys = [a[0] for a in across]
    xs = [d[0] for d in down]
    cells: dict[Box, list[Line]] = {}
    for ln in lines:
        cell = _cell(ln, across, ys, down, xs)
        if cell is not None:
            cells.setdefault(cell, []).append(ln)
    groups = _neighbour_groups(list(cells))
    out = []
    for group in groups:
        if len(group) < 2 or any(_container(cells[c]) for c in group):
            continue  # a frame around text laid out in rows of its own: not cells of a grid
        table = _lattice(group, cells, output)
        if table is not None:
            out.append(table)
    return out


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
    return (round(left, 1), round(top[0], 1), round(right, 1), round(bottom[0], 1))


def _neighbours(a: Box, b: Box) -> bool:
    """Two cells (left, top, right, bottom) side by side or stacked: overlapping along the
    shared side, and a wall of one on, or within _SPACING of, the facing wall of the other
    (cells framed one by one)."""

    def near(p: float, q: float, tol: float = _TOL) -> bool:
        return abs(p - q) <= tol

    row = min(a[3], b[3]) - max(a[1], b[1]) > _TOL
    column = min(a[2], b[2]) - max(a[0], b[0]) > _TOL
    return (row and (near(a[2], b[0], _SPACING) or near(b[2], a[0], _SPACING))) or (
        column and (near(a[3], b[1], _SPACING) or near(b[3], a[1], _SPACING))
    )


def _neighbour_groups(cells: list[Box]) -> list[list[Box]]:
    """Cells joined into tables by neighbourhood (union-find; a page holds few cells)."""
    parent = list(range(len(cells)))

    def root(i: int) -> int:
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    for i, a in enumerate(cells):
        for j in range(i + 1, len(cells)):
            if _neighbours(a, cells[j]):
                parent[root(j)] = root(i)
    groups: dict[int, list[Box]] = {}
    for i, cell in enumerate(cells):
        groups.setdefault(root(i), []).append(cell)
    return list(groups.values())


def _edges(values: Iterable[float]) -> list[float]:
    """Positions merged within _TOL."""
    out: list[float] = []
    for v in sorted(values):
        if not out or v - out[-1] > _TOL:
            out.append(v)
    return out


def _lattice(
    group: list[Box], cells: dict[Box, list[Line]], output: OutputSettings
) -> PageTable | None:
    """A table from its cells: columns and rows between the cells' edges; each cell's text
    (its lines top to bottom, one text) in the first slot it covers."""
    xs = _edges(x for c in group for x in (c[0], c[2]))
    ys = _edges(y for c in group for y in (c[1], c[3]))
    if len(xs) < 3 or len(ys) < 2:
        return None
    rows = [["" for _ in xs[:-1]] for _ in ys[:-1]]
    used: list[Line] = []
    for cell in group:
        col = _slot(xs, cell[0])
        row = _slot(ys, cell[1])
        lines = sorted(cells[cell], key=lambda ln: (round(ln.y0), ln.x0))
        used.extend(lines)
        rows[row][col] = _cell_text(lines)
    if _banded(group, cells):
        return None  # each "cell" is a row band holding several columns: not a grid
    box = (xs[0], ys[0], xs[-1], ys[-1])
    return _table(box, clean_rows(rows), output, used)


def _slot(edges: list[float], at: float) -> int:
    i = bisect.bisect_right(edges, at + _TOL) - 1
    return max(0, min(i, len(edges) - 2))


def _container(lines: list[Line]) -> bool:
    """A "cell" holding two or more rows, one of them of pieces side by side far apart: a
    frame or a band around a form or a table without rules, not one cell of a grid."""
    rows = _rows(lines)
    return len(rows) >= 2 and any(
        b.x0 - a.x1 > 2 * a.size for row in rows for a, b in zip(row, row[1:], strict=False)
    )


def _banded(group: list[Box], cells: dict[Box, list[Line]]) -> bool:
    """Cells whose lines sit side by side far apart: bands of a striped table (a background
    per row), not cells; their text is left to the unruled tables."""
    split = 0
    for cell in group:
        lines = cells[cell]
        for a in lines:
            if any(b is not a and b.x0 > a.x1 + 3 * a.size and _same_line(a, b) for b in lines):
                split += 1
                break
    return split * 2 > len(group)


def _same_line(a: Line, b: Line) -> bool:
    return min(a.y1, b.y1) - max(a.y0, b.y0) > 0.5 * min(a.y1 - a.y0, b.y1 - b.y0)


def _cell_text(lines: list[Line]) -> str:
    """A cell's lines as its text: a line break where the cell's text breaks a word after a
    hyphen (joined by clean_rows), else a space; lines side by side left to right."""
    parts = [" ".join(ln.text.split()) for ln in lines]
    out = ""
    for part in parts:
        if not out:
            out = part
        elif out.endswith("-"):
            out = f"{out}\n{part}"
        else:
            out = f"{out} {part}"
    return out


# -- tables without rules -------------------------------------------------------------------------
def _rows(lines: list[Line]) -> list[list[Line]]:
    """Lines grouped into rows, left to right: lines whose vertical middles are within half a
    line of the row's first (a cell's wrapped line is a row of its own: ``grid`` joins it)."""
    rows: list[list[Line]] = []
    for line in sorted(lines, key=lambda ln: (ln.y0 + ln.y1) / 2):
        mid = (line.y0 + line.y1) / 2
        if rows:
            first = rows[-1][0]
            if abs(mid - (first.y0 + first.y1) / 2) <= (first.y1 - first.y0) / 2:
                rows[-1].append(line)
                continue
        rows.append([line])
    for row in rows:
        row.sort(key=lambda ln: ln.x0)
    return rows


def _fits(row: list[Line], cols: list[list[float]]) -> int:
    """How many of the row's lines overlap (or start at) a column of the run so far."""
    return sum(
        any(c[0] - _ALIGN <= ln.x0 <= c[1] or (ln.x0 < c[1] and c[0] < ln.x1) for c in cols)
        for ln in row
    )


def _widened(cols: list[list[float]], row: list[Line]) -> list[list[float]]:
    """The run's columns with the row's lines added (overlapping ranges merged)."""
    spans = sorted([*([c[0], c[1]] for c in cols), *([ln.x0, ln.x1] for ln in row)])
    out: list[list[float]] = []
    for x0, x1 in spans:
        if out and x0 <= out[-1][1]:
            out[-1][1] = max(out[-1][1], x1)
        else:
            out.append([x0, x1])
    return out


def unruled_runs(lines: list[Line], width: float) -> list[list[list[Line]]]:
    """Runs of 3+ rows of short side-by-side cells (a few words each) whose cells fall in the
    same columns (a row may leave cells empty, or hold one cell between two rows of cells: a
    group label), starting with a row of 2+ cells (two columns no further apart than 2.5 times
    the wider one), with the row of cells just above (a header centred over its columns). Text in columns does not qualify: its rows have one long line
    per column."""
    runs: list[list[list[Line]]] = []
    run: list[list[Line]] = []
    cols: list[list[float]] = []
    before: list[Line] = []
    held: list[list[Line]] = []  # one-cell rows waiting for a row of cells after them

    def short(ln: Line) -> bool:
        return ln.x1 - ln.x0 < width * 0.3 and not ln.rotated and len(ln.text.split()) <= 6

    def cells(row: list[Line]) -> bool:
        return (
            len(row) >= 2
            and all(short(ln) for ln in row)
            and sum(len(ln.text.split()) for ln in row) <= 3 * len(row)
        )

    def close() -> None:
        if len(run) < 3 or len(cols) < 2:
            return
        widest = max(c[1] - c[0] for c in cols)
        if len(cols) == 2 and cols[1][0] - cols[0][1] >= _FAR * widest:
            return  # two columns of short lines far apart: text columns, not a table
        head = [before] if before and _near(before, run[0]) and _fits(before, cols) else []
        runs.append(head + run)

    last: list[Line] = []
    for row in _rows(lines):
        if (
            run
            and cells(row)
            and _fits(row, cols) >= max(1, len(row) - 1)
            and _near(run[-1], row, 3)
        ):
            for part in (*held, row):
                run.append(part)
                cols = _widened(cols, part)
            held = []
            last = row
            continue
        if run and len(row) == 1 and short(row[0]) and _fits(row, cols) and not held:
            held = [row]  # a group label, if a row of cells follows
            continue
        close()
        held = []
        before = last if last and cells(last) else []
        run = [row] if cells(row) else []
        cols = _widened([], row) if run else []
        last = row
    close()
    return runs


def _near(upper: list[Line], lower: list[Line], lines: float = 2) -> bool:
    """Two rows no more than ``lines`` line heights apart."""
    height = max(ln.y1 - ln.y0 for ln in lower)
    return min(ln.y0 for ln in lower) - max(ln.y1 for ln in upper) <= lines * height


def run_box(run: list[list[Line]]) -> Box:
    box = _box(ln for row in run for ln in row)
    return (box[0] - 1, box[1] - 1, box[2] + 1, box[3] + 1)


def grid(run: list[list[Line]]) -> list[list[str]]:
    """A run of rows as a table's rows: columns are the x ranges the lines of its rows of
    cells cover (overlapping ranges merged; a header or a group label goes to the column it
    starts in, or the one it overlaps most); a row right under the one before (closer than
    half the gap between its rows usually is) with fewer cells continues its cells (wrapped
    text)."""
    body = [row for row in run[1:] if len(row) >= 2] or run
    gaps = sorted(
        min(ln.y0 for ln in b) - max(ln.y1 for ln in a) for a, b in zip(run, run[1:], strict=False)
    )
    usual = gaps[len(gaps) // 2] if gaps else 0.0
    cols: list[list[float]] = []
    for x0, x1 in sorted((ln.x0, ln.x1) for row in body for ln in row):
        if cols and x0 <= cols[-1][1] + 1:
            cols[-1][1] = max(cols[-1][1], x1)
        else:
            cols.append([x0, x1])
    rows: list[list[str]] = []
    bottom = 0.0
    for row in run:
        cells = [""] * len(cols)
        for ln in row:
            i = _column_of(ln, cols)
            cells[i] = f"{cells[i]} {ln.text.strip()}".strip()
        top = min(ln.y0 for ln in row)
        if rows and (usual <= 0.5 or top - bottom < 0.6 * usual) and _continued(rows[-1], cells):
            rows[-1] = [_glued(a, b) for a, b in zip(rows[-1], cells, strict=True)]
        else:
            rows.append(cells)
        bottom = max(ln.y1 for ln in row)
    return rows


def _glued(a: str, b: str) -> str:
    """A cell's text and its wrapped line: no space after a hyphen ("enc-" "layers")."""
    if not a or not b:
        return a or b
    return f"{a}{b}" if a.endswith("-") else f"{a} {b}"


def _continued(above: list[str], cells: list[str]) -> bool:
    """A row that carries on the cells of the row above (wrapped text): fewer cells, each
    under a filled one, none a number."""
    filled = [i for i, c in enumerate(cells) if c]
    return len(filled) < sum(bool(c) for c in above) and all(
        above[i] and not _NUMBER.match(cells[i]) for i in filled
    )


def _column_of(ln: Line, cols: list[list[float]]) -> int:
    """The column a line starts in, else the one it overlaps most, else the nearest."""
    for i, (x0, x1) in enumerate(cols):
        if x0 - 1 <= ln.x0 <= x1:
            return i
    overlaps = [min(ln.x1, x1) - max(ln.x0, x0) for x0, x1 in cols]
    best = max(range(len(cols)), key=lambda i: overlaps[i])
    if overlaps[best] > 0:
        return best
    return min(range(len(cols)), key=lambda i: abs(cols[i][0] - ln.x0))
