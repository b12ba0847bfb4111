"""Tables drawn with rules across only (booktabs: a rule under the head row, a bottom rule, maybe
a top rule and one between rows; no rule down) that the aligned rows (unruled.py) left: one row
under its head, or cells wrapped over many lines. Rules of one width bound the bands. The head
is one row of short cells whose left edges start the columns: the row set just above a rule,
else the first row between a top rule and the next. Each band after it set close between its
rules (booktabs' padding: a running head's rule or a form's fill-in lines stand far from the
text) whose lines all keep inside one column is a band of rows, a line in the first column (or
lines in every later one: a row group's row) opening a row and the lines under it carrying its
cells on."""

from __future__ import annotations

import bisect
from functools import reduce
from math import inf
from typing import TYPE_CHECKING

from ..library import right_to_left
from .cells import (
    TOL,
    PageTable,
    box_of,
    clean_rows,
    make_table,
    row_bottom,
    row_top,
    rows_of,
    whole_lines,
)
from .cuts import cut_at
from .grid import glued

if TYPE_CHECKING:
    from ....settings import OutputSettings
    from ..text.lines import Line, PageText

THIN = 2.0  # points: a rule across is this thin at most
WIDE = 60.0  # points: a table's rule across is this wide at least (no underline of a word)
_HEAD_WORDS = 4  # words in a head cell at most
Band = list[list["Line"]]  # a band's rows, each left to right


class _Page:
    """The lines by vertical middle (bisected for a band's) and the tables found so far."""

    def __init__(self, lines: list[Line], found: list[PageTable]) -> None:
        self.order = sorted(lines, key=_middle)
        self.middles = [_middle(ln) for ln in self.order]
        self.found = list(found)

    def band(self, top: float, bottom: float, side: tuple[float, float]) -> Band | None:
        """The rows of the lines between ``top`` and ``bottom`` within ``side``'s reach, or
        None where a table found before reaches into it (a line crossing the rules' ends keeps
        inside no column: ``_rows``)."""
        if any(
            t.y0 < bottom and t.y1 > top and t.x0 < side[1] and t.x1 > side[0] for t in self.found
        ):
            return None
        inside = self.order[
            bisect.bisect_left(self.middles, top) : bisect.bisect_right(self.middles, bottom)
        ]
        return rows_of([ln for ln in inside if ln.x1 > side[0] and ln.x0 < side[1]])


def banded_tables(
    text: PageText, lines: list[Line], output: OutputSettings, found: list[PageTable]
) -> list[PageTable]:
    """The tables of rules across only among ``lines`` (see the module docstring): for each
    width that two rules or more across share, and no rule down crosses, its rules read top
    down; a head and the bands of rows fitting its columns under it are a table, in no band a
    table ``found`` before reaches into (its lines are that table's)."""
    if not text.rects or not lines:
        return []
    across: list[tuple[float, float, float]] = []
    downs: list[tuple[float, float, float]] = []
    for x0, y0, x1, y1 in text.rects:
        if y1 - y0 <= THIN:
            across.append((x0, x1, (y0 + y1) / 2))
        elif x1 - x0 <= THIN:
            downs.append(((x0 + x1) / 2, y0, y1))
    across = [r for r in joined_rules(across) if r[1] - r[0] >= WIDE]
    widths: list[tuple[float, float, list[float]]] = []  # rules of one width: its ends, their ys
    for x0, x1, y in sorted(across):
        if widths and x0 - widths[-1][0] <= TOL and abs(x1 - widths[-1][1]) <= TOL:
            widths[-1][2].append(y)  # a thicker stroke's box a little wider: the same width
        else:
            widths.append((x0, x1, [y]))
    page = _Page(lines, found)
    out: list[PageTable] = []
    for left, right, at in widths:
        ys = sorted({round(y, 1) for y in at})
        side = (left, right)
        if len(ys) < 2 or any(
            side[0] - TOL < x < side[1] + TOL and a < ys[-1] and b > ys[0] for x, a, b in downs
        ):
            continue  # a rule down: a ruled table's (ruled.py)
        i = 0
        while i + 1 < len(ys):
            made = _table(ys, i, side, page, output)
            if made is None:
                i += 1
                continue
            out.append(made[0])
            page.found.append(made[0])
            i = made[1]
    return out


def joined_rules(across: list[tuple[float, float, float]]) -> list[tuple[float, float, float]]:
    """Rules across drawn cell by cell joined into one: segments at one height (within a
    point), each starting where the one before ends (a receipt's dotted rules between its rows,
    a segment a column)."""
    out: list[tuple[float, float, float]] = []
    for x0, x1, y in sorted(across, key=lambda r: (round(r[2]), r[0])):
        if out and abs(y - out[-1][2]) <= 1 and x0 <= out[-1][1] + 1:
            out[-1] = (out[-1][0], max(x1, out[-1][1]), out[-1][2])
        else:
            out.append((x0, x1, y))
    return out


def _heads(
    ys: list[float], i: int, side: tuple[float, float], page: _Page, whole: dict[int, Line]
) -> list[tuple[list[Line], int, Band]]:
    """The heads rule ``i``'s table may have, in the order tried, each cut into its cells
    (``whole`` takes the pieces' lines) with the index of the rule its rows start at and the
    rows over that rule under the head: the row just above rule ``i`` within its height (no
    top rule), set a line's height apart from the row or rule over it (a head over rows, not
    the last row of a table or of a row group set under its rule); then the first row between
    rule ``i`` and the next set close under it (a top rule over it), the rows under it there
    too where no rule underlines it, unless the band over rule ``i`` is a row group (rule
    ``i`` inside a table: no top rule); short cells each (``_short``)."""
    heads: list[tuple[list[Line], int, Band]] = []
    above = page.band(ys[i - 1] if i else -inf, ys[i], side)
    if above:
        row = above[-1]
        over = row_bottom(above[-2]) if len(above) > 1 else (ys[i - 1] if i else -inf)
        if row_top(row) - over > _height(row) and ys[i] - row_bottom(row) <= _height(row):
            head = _short([p for ln in row for p in _pieces(ln, None, whole)])
            if head:
                heads.append((head, i, []))
    if i and above and _tight(above, ys[i - 1], ys[i], False) and any(map(_cells, above)):
        return heads  # a row group's band over rule i: a rule inside a table, no top rule
    band = page.band(ys[i], ys[i + 1], side)
    if band and _tight(band, ys[i], ys[i + 1], i + 2 == len(ys)):
        head = _short([p for ln in band[0] for p in _pieces(ln, None, whole)])
        if head:
            heads.append((head, i + 1, band[1:]))
    return heads


def _short(head: list[Line]) -> list[Line]:
    """A head row whose cells are each of a few words (``_HEAD_WORDS``), not all in a
    typewriter face (a listing's first line framed by rules) nor right to left (Arabic,
    Hebrew: its columns would read left to right), else none (a head of one cell makes rows
    of one cell: no table, ``_body``)."""
    if all(ln.mono for ln in head) or right_to_left("".join(ln.text for ln in head)):
        return []  # nothing in tables/ reads a right-to-left table's columns from the right
    return head if all(len(ln.text.split()) <= _HEAD_WORDS for ln in head) else []


def _table(
    ys: list[float], i: int, side: tuple[float, float], page: _Page, output: OutputSettings
) -> tuple[PageTable, int] | None:
    """The table of the first of rule ``i``'s heads (``_heads``) that bands of rows fit under
    (``_body``), and the index of its last rule; None where no head makes one."""
    whole: dict[int, Line] = {}
    for head, j, under in _heads(ys, i, side, page, whole):
        body = _body(ys, j, side, page, head, under, whole)
        if body is None:
            continue
        rows, used, last = body
        cells = [[ln.text.strip() for ln in head]]
        cells += [[reduce(glued, c, "") for c in r] for r in rows]
        table = make_table(box_of(used), clean_rows(cells), output, used)
        return (whole_lines(table, whole), last) if table is not None else None
    return None


def _body(
    ys: list[float],
    j: int,
    side: tuple[float, float],
    page: _Page,
    head: list[Line],
    under: Band,
    whole: dict[int, Line],
) -> tuple[list[list[list[str]]], list[Line], int] | None:
    """The rows under ``head`` (those of ``under``, then of each band from rule ``j`` on set
    close between its rules, ``_tight``, whose lines keep to the head's columns), the lines
    they take and the index of the table's last rule; None where no row fits, or where most
    rows hold one cell and the head fewer than three (a label boxed by rules over its text, a
    running head over a page's columns; a blank form's head of many cells over its row
    numbers is a table)."""
    starts = [ln.x0 for ln in head]
    rows: list[list[list[str]]] = []
    used = list(head)
    cut = [[p for ln in row for p in _pieces(ln, starts, whole)] for row in under]
    if not _rows(cut, starts, side[1], rows):
        return None  # the rows under a head no rule underlines keep to its columns
    used += [ln for row in cut for ln in row]
    while j + 1 < len(ys):
        band = page.band(ys[j], ys[j + 1], side)
        if not band or not _tight(band, ys[j], ys[j + 1], j + 2 == len(ys)):
            break
        cut = [[p for ln in row for p in _pieces(ln, starts, whole)] for row in band]
        if not _rows(cut, starts, side[1], rows):
            break
        used += [ln for row in cut for ln in row]
        j += 1
    if not rows or (len(head) < 3 and 2 * sum(sum(map(bool, r)) > 1 for r in rows) <= len(rows)):
        return None
    return rows, used, j


def _pieces(line: Line, starts: list[float] | None, whole: dict[int, Line]) -> list[Line]:
    """``line`` cut where a column starts (``cuts.cut_at``), each piece's line in ``whole``."""
    pieces = cut_at(line, starts)
    if len(pieces) > 1:
        whole.update(dict.fromkeys(map(id, pieces), line))
    return pieces


def _rows(band: Band, starts: list[float], right: float, rows: list[list[list[str]]]) -> bool:
    """The band's rows added to ``rows`` (a row's cells, each a list of its lines' texts): a
    printed row with a line in the first column, or in every later one (two or more: a row
    group's rows under its label, the first cell blank), opens a row (the band's first always
    does); lines in some later columns carry their cells on (cells wrapped in a few columns);
    False, nothing added, where a line keeps inside no column (it starts left of the first or
    crosses the next column's start)."""
    ends = [*starts[1:], right]
    got: list[list[list[str]]] = []
    for row in band:
        ks = [bisect.bisect_right(starts, ln.x0 + TOL) - 1 for ln in row]
        if any(k < 0 or ln.x1 > ends[k] + TOL for k, ln in zip(ks, row, strict=True)):
            return False
        if not got or min(ks) == 0 or 1 < len(set(ks)) == len(starts) - 1:
            got.append([[] for _ in starts])
        for k, ln in zip(ks, row, strict=True):
            got[-1][k].append(ln.text.strip())
    rows += got
    return True


def _middle(line: Line) -> float:
    """A line's vertical middle: the key its band is found by."""
    return (line.y0 + line.y1) / 2


def _height(row: list[Line]) -> float:
    """A printed row's line height: its tallest line's (a row of a table of font sizes sets
    a command beside its tiny sample)."""
    return max(ln.y1 - ln.y0 for ln in row)


def _cells(row: list[Line]) -> bool:
    """A printed row of two cells or more: two lines, or a line with gaps to cut at."""
    return len(row) > 1 or bool(row[0].cuts)


def _tight(band: Band, top: float, bottom: float, end: bool) -> bool:
    """The band's first row within its line height under the rule over it (``top``) and,
    unless ``end`` (a table's last band: blank rows may stand under its text), its last row
    within its line height over the rule under it: booktabs pads a rule by half an ex; a
    page's head and foot rules and a form's fill-in lines stand far from the text."""
    return row_top(band[0]) - top <= _height(band[0]) and (
        end or bottom - row_bottom(band[-1]) <= _height(band[-1])
    )
