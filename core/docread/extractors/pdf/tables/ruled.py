"""Tables a PDF page draws, from the lines and rules its one reading collected
(text.lines.PageText): no second pass over the page.

- Tables of contents (contents.py).
- Ruled tables: the cells rules make around text lines (across above and below, down on one
  side at least; an underline is no rule), neighbouring cells and cells one rule bounds grouped into a table, its grid
  from the cells' edges (a cell over several columns or rows is one cell: its text in the
  first, the others empty)."""

from __future__ import annotations

import bisect
from collections.abc import Iterable
from typing import TYPE_CHECKING

from .cells import (
    TOL,
    PageTable,
    clean_rows,
    left_over,
    make_table,
    over_budget,
    rows_of,
    spaced_apart,
    unbulleted,
    whole_lines,
)
from .contents import contents_tables
from .cuts import walled_cuts

if TYPE_CHECKING:
    from ....settings import OutputSettings
    from ..text.lines import Box, Line, PageText

_THIN = 2.0  # points: a stroke or filled rect this thin is a rule
_MIN_EDGE = 4.0  # points: a shorter rule is a dash or a tick, not a cell's wall
_SPACING = 6.0  # points between the walls of neighbouring cells framed one by one (HTML tables)
_ABUT = 0.1  # points: fills this close meet edge to edge


def drawn_tables(
    text: PageText, lines: list[Line], output: OutputSettings, max_seconds: float
) -> tuple[list[PageTable], bool]:
    """The page's tables of contents and ruled tables among ``lines`` (its text without
    running lines), and whether ruled ones were not looked for (``over_budget``)."""
    found = contents_tables(lines, output)
    over = over_budget(text, max_seconds)
    if not over and text.rects:
        free, whole = spaced_apart(left_over(lines, found))
        page = (0.0, 0.0, text.width, text.height)
        tables = _ruled_tables(_fills_joined(text.rects, text.fills), free, page, output, whole)
        found += [whole_lines(t, whole) for t in tables]
    return found, over


# -- ruled tables ---------------------------------------------------------------------------------
Rule = tuple[float, float, float]  # (position, start, end): a rule across (y, x0, x1) or down


def _ruled_tables(
    rects: list[Box], lines: list[Line], page: Box, output: OutputSettings, whole: dict[int, Line]
) -> list[PageTable]:
    """Tables of cells ruled around text lines (see the module docstring); a line joined over
    a rule down cut there (``walled_cuts``: ``whole`` takes its pieces)."""
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
    across = _walls(across, lines)
    if len(across) < 2 or len(down) < 2:
        return []
    across.sort()
    down.sort()
    ys = [a[0] for a in across]
    xs = [d[0] for d in down]
    lines, cut = walled_cuts(lines, down, whole)
    whole.update(cut)
    cells: dict[Box, list[Line]] = {}
    bounds: dict[Box, tuple[Rule, ...]] = {}  # the rules each cell's sides lie on
    for ln in lines:
        found = _cell(ln, across, ys, down, xs)
        if found is not None:
            cells.setdefault(found[0], []).append(ln)
            bounds[found[0]] = found[1]
    groups = _neighbour_groups(list(cells), bounds)
    celled = {id(ln) for held in cells.values() for ln in held}
    free = [ln for ln in lines if id(ln) not in celled]
    out = []
    for group in groups:
        if len(group) < 2 or any(_container(cells[c]) for c in group):
            continue  # a frame around text laid out in rows of its own: not cells of a grid
        one = len({c[0] for c in group}) == 1  # one column of cells: the rules may draw more
        drawn = _drawn_columns(group, bounds, down) if one else []
        table = _lattice(group, cells, output, drawn, (across, free))
        if table is not None:
            out.append(table)
    return out


def _fills_joined(rects: list[Box], fills: dict[Box, int]) -> list[Box]:
    """The page's rects with fills of one colour (``fills``: unstroked rects' colours) that
    meet edge to edge side by side, of one height, joined into one: a row shaded cell by cell
    (LaTeX's colortbl) draws no wall between its cells; a stroked box, or a fill of another
    colour (a table drawn only with cells in alternating colours), stays a wall. One pass over
    the rects sorted by their rows."""
    thin = [r for r in rects if r[2] - r[0] <= _THIN or r[3] - r[1] <= _THIN]
    out: list[Box] = []
    colours: list[int | None] = []
    for box in sorted(
        (r for r in rects if r[2] - r[0] > _THIN and r[3] - r[1] > _THIN),
        key=lambda r: (round(r[1], 1), round(r[3], 1), r[0]),
    ):
        colour = fills.get(box)
        last = out[-1] if out else None
        if (
            last is not None
            and colour is not None
            and colours[-1] == colour
            and abs(last[1] - box[1]) <= _ABUT
            and abs(last[3] - box[3]) <= _ABUT
            and abs(last[2] - box[0]) <= _ABUT
        ):
            out[-1] = (last[0], last[1], box[2], last[3])
        else:
            out.append(box)
            colours.append(colour)
    return thin + out


def _walls(across: list[Rule], lines: list[Line]) -> list[Rule]:
    """The rules across that are no underline: a rule in a text line's lower half, within its
    width, underlines it (a hyperlink in a cell), and is no wall of its cell."""
    rows = sorted((ln.y1, ln.y0, ln.x0, ln.x1) for ln in lines)
    bottoms = [row[0] for row in rows]
    out = []
    for rule in across:
        y, x0, x1 = rule
        under = rows[bisect.bisect_left(bottoms, y) : bisect.bisect_right(bottoms, y + 20)]
        if not any(
            (top + bottom) / 2 <= y and left - TOL <= x0 and x1 <= right + TOL
            for bottom, top, left, right in under
        ):
            out.append(rule)
    return out


def _nearest(
    rules: list[Rule], at: list[float], edge: float, mid: float, *, before: bool
) -> Rule | None:
    """The rule nearest to ``edge`` on one side (``rules`` sorted by position, ``at`` their
    positions) whose span covers ``mid``, or None."""
    i = bisect.bisect_right(at, edge)
    for rule in reversed(rules[:i]) if before else rules[i:]:
        if rule[1] - TOL <= mid <= rule[2] + TOL:
            return rule
    return None


def _cell(
    ln: Line, across: list[Rule], ys: list[float], down: list[Rule], xs: list[float]
) -> tuple[Box, tuple[Rule, ...]] | None:
    """The cell (left, top, right, bottom) that rules make around a text line, and the rules
    it lies on: the nearest rules above and below it, reaching over its width, and the
    nearest rule down on at least one side, from the rule above to the one below, which both
    reach; an open side (a table without outer walls) ends where the rules across end. A line
    printed on past the rule down where its cell's rules across end (a long name in a narrow
    column) is that cell's, if the cell holds most of it; a line's height over its size (a
    raised mark: ``Nº pièce``) may cross the rule above. None when there is none."""
    x, y = (ln.x0 + ln.x1) / 2, (ln.y0 + ln.y1) / 2
    rise = max(TOL, ln.y1 - ln.y0 - ln.size)  # a raised mark's part may cross the rule above
    top = _nearest(across, ys, ln.y0 + rise, x, before=True)
    bottom = _nearest(across, ys, ln.y1 - TOL, x, before=False)
    if top is None or bottom is None:
        return None
    start, end = max(top[1], bottom[1]), min(top[2], bottom[2])  # where both rules reach
    x1 = min(ln.x1, end)  # text printed on past its cell's wall: the cell it starts in
    if start > ln.x0 + TOL or x1 - ln.x0 < 0.5 * (ln.x1 - ln.x0):
        return None
    walls = [
        wall
        for wall in (
            _nearest(down, xs, ln.x0 + TOL, y, before=True),
            _nearest(down, xs, x1 - TOL, y, before=False),
        )
        if wall is not None
        and wall[1] - TOL <= top[0]
        and wall[2] + TOL >= bottom[0]
        and start - TOL <= wall[0] <= end + TOL
    ]
    if not walls or x1 < ln.x1 - TOL and abs(walls[-1][0] - end) > TOL:
        return None  # past where the rules reach, no wall there: no cell of this table
    left = max((w[0] for w in walls if w[0] <= ln.x0 + TOL), default=start)
    right = min((w[0] for w in walls if w[0] >= x1 - TOL), default=end)
    box = (round(left, 1), round(top[0], 1), round(right, 1), round(bottom[0], 1))
    return box, (top, bottom, *walls)


def _neighbours(a: Box, b: Box) -> bool:
    """Two cells (left, top, right, bottom) side by side or stacked: overlapping along the
    shared side, and a wall of one on, or within _SPACING of, the facing wall of the other
    (cells framed one by one)."""

    def near(p: float, q: float, tol: float = TOL) -> bool:
        return abs(p - q) <= tol

    row = min(a[3], b[3]) - max(a[1], b[1]) > TOL
    column = min(a[2], b[2]) - max(a[0], b[0]) > TOL
    return (row and (near(a[2], b[0], _SPACING) or near(b[2], a[0], _SPACING))) or (
        column and (near(a[3], b[1], _SPACING) or near(b[3], a[1], _SPACING))
    )


def _neighbour_groups(cells: list[Box], bounds: dict[Box, tuple[Rule, ...]]) -> list[list[Box]]:
    """Cells joined into tables by neighbourhood, or by one rule that bounds both (cells with
    empty cells between them: a sparse grid, a nested table's diagonal); union-find, a page
    holds few cells."""
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
    along: dict[Rule, int] = {}
    for i, cell in enumerate(cells):
        for rule in bounds[cell]:
            parent[root(i)] = root(along.setdefault(rule, i))
    for wall, rule in _crossings(bounds):
        parent[root(along[wall])] = root(along[rule])
    groups: dict[int, list[Box]] = {}
    for i, cell in enumerate(cells):
        groups.setdefault(root(i), []).append(cell)
    return list(groups.values())


def _crossings(bounds: dict[Box, tuple[Rule, ...]]) -> list[tuple[Rule, Rule]]:
    """The cells' walls (rules down) that cross or touch a rule across bounding a cell: one
    drawn grid, though empty cells part the filled ones (a sparse table's far column)."""
    walls = {r for b in bounds.values() for r in b[2:]}
    across = sorted({r for b in bounds.values() for r in b[:2]})
    ys = [r[0] for r in across]
    return [
        (wall, rule)
        for wall in walls
        for rule in across[
            bisect.bisect_left(ys, wall[1] - TOL) : bisect.bisect_right(ys, wall[2] + TOL)
        ]
        if rule[1] - TOL <= wall[0] <= rule[2] + TOL
    ]


def _edges(values: Iterable[float]) -> list[float]:
    """Positions merged within TOL."""
    out: list[float] = []
    for v in sorted(values):
        if not out or v - out[-1] > TOL:
            out.append(v)
    return out


def _drawn_columns(
    group: list[Box], bounds: dict[Box, tuple[Rule, ...]], down: list[Rule]
) -> list[float]:
    """Where the rules down that run the group's whole height stand, within the reach of the
    rules across that bound its cells: the drawn grid's columns, empty ones included."""
    top, bottom = min(c[1] for c in group), max(c[3] for c in group)
    reach = [r for c in group for r in bounds[c][:2]]
    x0, x1 = min(r[1] for r in reach), max(r[2] for r in reach)
    return [
        d[0]
        for d in down
        if x0 - TOL <= d[0] <= x1 + TOL and d[1] <= top + TOL and d[2] >= bottom - TOL
    ]


def _lattice(
    group: list[Box],
    cells: dict[Box, list[Line]],
    output: OutputSettings,
    drawn: list[float],
    page: tuple[list[Rule], list[Line]],
) -> PageTable | None:
    """A table from its cells: columns and rows between the cells' edges and the ``drawn``
    columns; each cell's text (its lines top to bottom, one text) in the first slot it
    covers, under the heads in the band above its first row (``_band``: the ``page``'s rules
    across and the lines in no cell). Filled cells in one column of a grid drawn with more keep its empty
    columns (a table whose other column holds a nested table)."""
    xs = _edges([*(x for c in group for x in (c[0], c[2])), *drawn])
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
        slots = [_slot(xs, ln.x0) for ln in lines]
        if len(set(slots)) > 1 and all(
            _slot(xs, ln.x1 - TOL) == at for ln, at in zip(lines, slots, strict=True)
        ):
            for at in sorted(set(slots)):  # pieces in columns of the grid no rule parts here
                rows[row][at] = _cell_text(
                    [ln for ln, i in zip(lines, slots, strict=True) if i == at]
                )
        else:
            rows[row][col] = _cell_text(lines)
    if _banded(group, cells):
        return None  # each "cell" is a row band holding several columns: not a grid
    heads = _band(xs, ys[0], *page) if len(ys) > 2 else []  # a table of two rows or more
    if heads:
        rows.insert(
            0, [_cell_text([h for h in heads if _slot(xs, h.x0) == i]) for i in range(len(xs) - 1)]
        )
        used.extend(heads)
    box = (xs[0], min([ys[0], *(h.y0 for h in heads)]), xs[-1], ys[-1])
    kept = clean_rows(rows)
    if kept and max(len(r) for r in kept) == 1:
        kept = clean_rows(rows, columns=False)
    return make_table(box, kept, output, used, head=_head_alone(kept, box, used, page[1]))


def _head_alone(rows: list[list[str]], box: Box, used: list[Line], free: list[Line]) -> bool:
    """One drawn row of three cells or more, each filled with a word or three, and no free line
    starting within two lines' height under it: a table's head row (its body on the next page),
    or a form's row of boxed fields, not a line of text in a box nor the head over a body the
    rules do not draw (12s0324's crime table, a thesis' rules between rows only)."""
    if not (
        len(rows) == 1
        and len(rows[0]) >= 3
        and all(cell and len(cell.split()) <= 3 for cell in rows[0])
    ):
        return False
    reach = box[3] + 2 * max(ln.y1 - ln.y0 for ln in used)
    return not any(box[3] - TOL <= ln.y0 <= reach for ln in free)


def _band(xs: list[float], top: float, across: list[Rule], lines: list[Line]) -> list[Line]:
    """The lines between a table's first row (at ``top``) and the nearest rule across above it
    that spans the table, at most five lines' height up, top to bottom: its column heads set
    where no rule down reaches (a statement's ``January–June`` over ``2023``), when they fall
    in two columns or more, each line within one; else none."""
    spans = [
        r[0] for r in across if r[0] < top - TOL and r[1] <= xs[0] + TOL <= xs[-1] <= r[2] + TOL
    ]
    if not spans:
        return []
    band = [
        ln
        for ln in lines
        if ln.y0 >= max(spans) - TOL
        and ln.y1 <= top + TOL
        and xs[0] - TOL <= ln.x0
        and ln.x1 <= xs[-1] + TOL
    ]
    if not band or top - max(spans) > 5 * max(ln.y1 - ln.y0 for ln in band):
        return []
    if (
        any(_slot(xs, ln.x0) != _slot(xs, ln.x1 - 2 * TOL) for ln in band)
        or len({_slot(xs, ln.x0) for ln in band}) < 2
    ):
        return []
    return sorted(band, key=lambda ln: (round(ln.y0), ln.x0))


def _slot(edges: list[float], at: float) -> int:
    i = bisect.bisect_right(edges, at + TOL) - 1
    return max(0, min(i, len(edges) - 2))


def _container(lines: list[Line]) -> bool:
    """A "cell" holding two or more rows, one of them of pieces side by side far apart: a
    frame or a band around a form or a table without rules, not one cell of a grid."""
    rows = rows_of(lines)
    return len(rows) >= 2 and any(
        b.x0 - a.x1 > 2 * a.size for row in rows for a, b in zip(row, row[1:], strict=False)
    )


def _banded(group: list[Box], cells: dict[Box, list[Line]]) -> bool:
    """Cells whose lines sit side by side far apart: bands of a striped table (a background
    per row, over half the cells) or of a shaded group of columns (every filled cell of a
    column of three or more), not cells; their text is left to the unruled tables."""
    split = 0
    columns: dict[float, list[bool]] = {}
    for cell in group:
        lines = cells[cell]
        apart = any(
            b is not a and b.x0 > a.x1 + 3 * a.size and _same_line(a, b)
            for a in lines
            for b in lines
        )
        split += apart
        columns.setdefault(cell[0], []).append(apart)
    return split * 2 > len(group) or any(len(c) >= 3 and all(c) for c in columns.values())


def _same_line(a: Line, b: Line) -> bool:
    return min(a.y1, b.y1) - max(a.y0, b.y0) > 0.5 * min(a.y1 - a.y0, b.y1 - b.y0)


def _cell_text(lines: list[Line]) -> str:
    """A cell's lines as its text: a line break where the cell's text breaks a word after a
    hyphen (joined by clean_rows), else a space; lines side by side left to right; a bullet
    opening a line after the first left out (``unbulleted``: the first's is, by clean_rows)."""
    parts = [" ".join(ln.text.split()) for ln in lines]
    parts[1:] = [unbulleted(p) for p in parts[1:]]
    out = ""
    for part in parts:
        if not out:
            out = part
        elif out.endswith("-"):
            out = f"{out}\n{part}"
        else:
            out = f"{out} {part}"
    return out
