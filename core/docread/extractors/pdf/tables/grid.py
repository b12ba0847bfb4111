"""A run of aligned rows (``unruled.unruled_runs``) as a table's grid: columns from the x ranges
its rows of cells cover, header rows with cells spanning columns, a cell's wrapped lines glued
back to it."""

from __future__ import annotations

from typing import TYPE_CHECKING

from .cells import AMOUNT, NUMBER, box_of
from .cuts import ALIGN
from .rows import price

if TYPE_CHECKING:
    from ..text.lines import Box, Line


def run_box(run: list[list[Line]]) -> Box:
    """The box around a run of rows, a point wider on every side."""
    box = box_of(ln for row in run for ln in row)
    return (box[0] - 1, box[1] - 1, box[2] + 1, box[3] + 1)


def grid(run: list[list[Line]], heads: int = 1) -> list[list[str]]:
    """A run of rows as a table's rows: columns are the x ranges the lines of its rows of
    cells cover (overlapping ranges merged; a header or a group label goes to the column it
    starts in, or the one it overlaps most); a row right under the one before (closer than
    half the gap between its rows usually is) with fewer cells continues its cells (wrapped
    text). The header rows (``heads``, or the rows without a number that open a table of
    numbers) are read by ``_header`` and left out of the columns."""
    top = max(1, heads, _lead(run))
    body = [row for row in run[top:] if len(row) >= 2] or run
    gaps = sorted(_top(b) - max(ln.y1 for ln in a) for a, b in zip(run, run[1:], strict=False))
    usual = gaps[len(gaps) // 2] if gaps else 0.0
    cols = _columns([ln for row in body for ln in row])
    rows = _header(run[:top], cols) if top > 1 else []
    bottom = max(ln.y1 for ln in run[top - 1]) if top > 1 else 0.0
    for row in run[top:] if top > 1 else run:
        cells = [""] * len(cols)
        for ln in row:
            i = _column_of(ln, cols)
            cells[i] = f"{cells[i]} {ln.text.strip()}".strip()
        gap = _top(row) - bottom
        tight = bool(rows) and (usual <= 0.5 or gap < 0.6 * usual)
        if tight and (_continued(rows[-1], cells) or len(rows) > 1 and _opens(rows[-1], cells)):
            rows[-1] = [glued(a, b) for a, b in zip(rows[-1], cells, strict=True)]
        else:
            rows.append(cells)
        bottom = max(ln.y1 for ln in row)
    return _keyed(_itemised(rows))


#: Words a phrase does not end on, as written (English, German, French, Spanish): a cell ending
#: in one was cut mid-phrase by its column's width.
_FUNCTION_WORDS = frozenset({
    "a", "an", "and", "as", "at", "by", "for", "from", "in", "into", "of", "on", "or", "the",
    "to", "with", "und", "oder", "von", "vom", "zum", "zur", "der", "die", "das", "des", "dem",
    "den", "ein", "eine", "einer", "eines", "mit", "für", "auf", "aus", "bei", "nach", "über",
    "unter", "durch", "et", "ou", "de", "du", "la", "le", "les", "un", "une", "à", "en", "y", "o",
    "del", "el", "los", "las", "con", "por", "para",
})  # fmt: skip


def _keyed(rows: list[list[str]]) -> list[list[str]]:
    """The rows with each one that holds one cell of text alone, its first column empty, glued
    to the row above when that row's key and that cell are filled, the cell ending no
    sentence nor in a number (an index's entry and its page) and that row's cell cut
    mid-phrase (``_mid_phrase``), in a table whose first column keys its rows (at most a
    quarter of the rows under the first empty there): a meaning wrapped in a symbol list whose
    lines are set as far apart as its rows (GeoTopo's ``Gerade durch die Punkte A und`` /
    ``B``), not a changelog's second change under its version (``Fixed crash``: a new entry)."""
    empty = sum(not r[0] for r in rows[1:])
    if len(rows) < 4 or not empty or empty * 4 > len(rows) - 1:
        return rows
    out: list[list[str]] = []
    for row in rows:
        filled = [i for i, c in enumerate(row) if c]
        at = filled[0] if len(filled) == 1 else 0
        above = out[-1][at] if out and at and out[-1][0] else ""
        ends = above.endswith((".", ":", "!", "?")) or above[-1:].isdigit()  # an index's page
        if above and not ends and not NUMBER.match(row[at]) and _mid_phrase(above):
            out[-1] = [glued(a, b) for a, b in zip(out[-1], row, strict=True)]
        else:
            out.append(row)
    return out


def _itemised(rows: list[list[str]]) -> list[list[str]]:
    """The rows with each one that holds one cell alone, after the first column, glued to the
    row above when that row keys an item (its first cell filled, the cell over this one filled,
    a price right of it: ``rows.price``) and this row holds no number: an invoice's description lines under
    the item's name (``Grundgebühr pro Einheit`` / ``Dienst: ...`` under ``Small Business
    QualityExchange 2010``, its position, quantity and prices on the name's line), set as far
    apart as the items are; not a changelog's next change (no price right of it, a page
    number at most), nor a results table's remark (one decimal)."""
    out: list[list[str]] = []
    for row in rows:
        filled = [i for i, c in enumerate(row) if c]
        above = out[-1] if out else None
        at = filled[0] if len(filled) == 1 else 0
        if (
            above is not None
            and at > 0
            and above[0]
            and above[at]
            and not NUMBER.match(row[at])
            and any(price(c) for c in above[at + 1 :])
        ):
            out[-1] = [glued(a, b) for a, b in zip(above, row, strict=True)]
        else:
            out.append(row)
    return out


def _mid_phrase(above: str) -> bool:
    """Whether a cell (``above``) breaks off mid-phrase, the next row's cell its wrapped line:
    it ends in a hyphen, a comma or a function word (``Punkte A und`` / ``B``), or leaves a
    bracket open (``Gruppe (von`` / ``General Linear Group)``). How the next cell starts says
    nothing: ``iPhone 15``, ``kg``, ``+ dark mode`` or ``A`` open entries of their own."""
    return (
        above.endswith(("-", ","))
        or above.count("(") > above.count(")")
        or above.rsplit(None, 1)[-1] in _FUNCTION_WORDS
    )


def _top(row: list[Line]) -> float:
    """A row's top: its lines' lowest (a superscript's raises its line, not its row: rows of
    ``(2g)ᵃ`` set a point apart are no cell's wrapped lines)."""
    return max(ln.y0 for ln in row)


def _columns(lines: list[Line]) -> list[list[float]]:
    """The x ranges the lines cover, overlapping ranges merged; a line over twice the usual
    width that spans two ranges the others keep apart is left out (a cell's text run on over
    the next, empty cell: it does not join two columns)."""
    widths = sorted(ln.x1 - ln.x0 for ln in lines)
    wide = 2 * widths[len(widths) // 2]
    base = _merged([ln for ln in lines if ln.x1 - ln.x0 <= wide])
    return _merged(
        [
            ln
            for ln in lines
            if ln.x1 - ln.x0 <= wide or sum(a < ln.x1 and ln.x0 < b for a, b in base) < 2
        ]
    )


def _merged(lines: list[Line]) -> list[list[float]]:
    """The lines' horizontal extents merged where they overlap (within a point): columns."""
    cols: list[list[float]] = []
    for x0, x1 in sorted((ln.x0, ln.x1) for ln in lines):
        if cols and x0 <= cols[-1][1] + 1:
            cols[-1][1] = max(cols[-1][1], x1)
        else:
            cols.append([x0, x1])
    return cols


def _lead(run: list[list[Line]]) -> int:
    """How many rows open a table of numbers without a number in them (its header rows, up
    to three), else 0."""
    for i, row in enumerate(run):
        if any(NUMBER.match(ln.text.strip()) for ln in row):
            return i if i <= 3 else 0
    return 0


def _header(rows: list[list[Line]], cols: list[list[float]]) -> list[list[str]]:
    """A table's header rows as cells: a line over two or more columns, or centred over the gap
    between two or over their span (a group label), keeps its row; the other lines of each
    column, top to bottom, are one cell of the last row (a head wrapped over lines, or set
    between two header rows)."""
    if len(rows) > 1 and all(_full(row, cols) for row in rows):
        return [[ln.text.strip() for ln in sorted(row, key=lambda ln: ln.x0)] for row in rows]
    out: list[list[str]] = []
    stacked = [""] * len(cols)
    for k, row in enumerate(rows):
        groups = [""] * len(cols)
        for ln in row:
            i = _column_of(ln, cols)
            mid = (ln.x0 + ln.x1) / 2
            over = sum(min(ln.x1, x1) - max(ln.x0, x0) > 1 for x0, x1 in cols)
            span = _spanned(ln, cols, i, rows[k + 1] if k + 1 < len(rows) else [])
            if over >= 2 or not any(x0 <= mid <= x1 for x0, x1 in cols) or span is not None:
                i = i if span is None else span
                groups[i] = f"{groups[i]} {ln.text.strip()}".strip()
            else:
                stacked[i] = glued(stacked[i], ln.text.strip())
        if any(groups):
            out.append(groups)
    return [*out, stacked] if any(stacked) else out


def _full(row: list[Line], cols: list[list[float]]) -> bool:
    """A header row with one line in each column (a row of heads, then one of their units or
    sub-heads: ``One Two Three`` over ``one two three``): no head wrapped over it."""
    return len(row) == len(cols) and len({_column_of(ln, cols) for ln in row}) == len(cols)


def _spanned(ln: Line, cols: list[list[float]], i: int, below: list[Line]) -> int | None:
    """The first of two or more neighbouring columns, its column ``i`` among them, that a head
    set neither left, centred nor right in column ``i`` is centred over, heads in two of them
    on the header row ``below`` (a booktabs group label narrower than its columns: ``Artikel``
    over Tier and Beschreibung); else None."""
    x0, x1 = cols[i]
    mid = (ln.x0 + ln.x1) / 2
    if min(abs(ln.x0 - x0), abs(mid - (x0 + x1) / 2), abs(ln.x1 - x1)) <= ALIGN:
        return None
    under = {_column_of(head, cols) for head in below}
    for a, b in ((j, k) for j in range(i + 1) for k in range(max(j + 1, i), len(cols))):
        width = cols[b][1] - cols[a][0]
        if abs(mid - (cols[a][0] + cols[b][1]) / 2) <= max(ALIGN, 0.1 * width):
            return a if len(under & set(range(a, b + 1))) >= 2 else None
    return None


def glued(a: str, b: str) -> str:
    """A cell's text and its wrapped line: no space after a hyphen ("enc-" "layers")."""
    if not a or not b:
        return a or b
    return f"{a}{b}" if a.endswith("-") else f"{a} {b}"


def _opens(above: list[str], cells: list[str]) -> bool:
    """A row that holds the first lines of cells the row under it ends (a cell set on its
    last line beside one wrapped over several): fewer filled cells than it, or one, each
    over a filled cell that is no number."""
    filled = [i for i, c in enumerate(above) if c]
    fewer = 0 < len(filled) < sum(bool(c) for c in cells) or len(filled) == 1
    return fewer and all(cells[i] and not NUMBER.match(cells[i]) for i in filled)


def _continued(above: list[str], cells: list[str]) -> bool:
    """A row that carries on the cells of the row above (wrapped text): fewer cells, each
    under a filled one, no number under a number (an amount's digits grouped by spaces too:
    a bill's ``3 001,80`` under ``500,00`` is a totals row; a header's unit under its name is
    text: "mAP" / "(0.75)")."""
    filled = [i for i, c in enumerate(cells) if c]
    return len(filled) < sum(bool(c) for c in above) and all(
        above[i] and not (AMOUNT.match(cells[i]) and AMOUNT.match(above[i])) for i in filled
    )


def _column_of(ln: Line, cols: list[list[float]]) -> int:
    """The column a line starts in, else the one it overlaps most, else the one it reaches
    (``reach``: a head set left over numbers set right)."""
    for i, (x0, x1) in enumerate(cols):
        if x0 - 1 <= ln.x0 <= x1:
            return i
    overlaps = [min(ln.x1, x1) - max(ln.x0, x0) for x0, x1 in cols]
    best = max(range(len(cols)), key=lambda i: overlaps[i])
    if overlaps[best] > 0:
        return best
    return reach(ln, cols)


def reach(ln: Line, cols: list[list[float]]) -> int:
    """The first column that ends right of the line's start (the last one past them all): a
    column reaches left to the end of the one before it."""
    return next((i for i, (_, x1) in enumerate(cols) if ln.x0 < x1), len(cols) - 1)
