"""Rendering shared by every family: markdown tables with one cell-escaping rule, the one table
renderer for documents (``Grid`` of spanned ``Cell``s -> ``grid_table``), and sizes."""

from __future__ import annotations

import math
import sys
from collections.abc import Callable, Sequence
from dataclasses import field
from typing import TYPE_CHECKING, Any

from ..model import dataclass
from ..sanitize import cut_cell, lazy_pattern

if TYPE_CHECKING:
    from ..settings import OutputSettings
    from .base import Context

# a run of line breaks with the blanks around it: one space keeps the cell on one line
_BREAKS = lazy_pattern(r"[ \t]*(?:[\r\n][ \t]*)+")


def human_size(n: float) -> str:
    """1536 -> '1.5 KB'; under 1 KB the exact count of bytes ('512 B')."""
    size = float(n)
    for unit in ("B", "KB", "MB", "GB", "TB"):
        if size < 1024 or unit == "TB":
            return f"{int(size):,} B" if unit == "B" else f"{size:.1f} {unit}"
        size /= 1024
    raise AssertionError("unreachable")


def escape_cell(text: str) -> str:
    """One table cell on one line: each run of line breaks (with the blanks around it) becomes
    one space and pipes are escaped; other spacing is the value's own and is kept."""
    if "\n" in text or "\r" in text:
        text = _BREAKS.sub(" ", text)
    return text.replace("|", "\\|") if "|" in text else text


def markdown_table(
    header: Sequence[Any],
    rows: Sequence[Sequence[Any]],
    *,
    text: Callable[[Any], str] = str,
    output: OutputSettings | None = None,
    numbers: Sequence[int] | None = None,
) -> str:
    """A pipe table of ``header`` and ``rows`` ("" when both are empty).

    Every cell is ``text(value)``, cut at ``output.max_cell_content`` by cut_cell's rule when
    ``output`` is given, then escape_cell'd; short rows are padded to the widest. With
    ``numbers`` (one a row), a leading Row column gives them.
    """
    width = max(len(header), max(map(len, rows), default=0))
    if not width:
        return ""
    limit = output.max_cell_content if output is not None else sys.maxsize

    def cut(shown: str) -> str:
        return cut_cell(shown, output) if output is not None else shown

    def line(row: Sequence[Any]) -> str:
        cells = [t if len(t) <= limit else cut(t) for t in map(text, row)]
        if len(cells) < width:
            cells += [""] * (width - len(cells))
        joined = " | ".join(cells)
        # escape_cell only for a row that needs it: more pipes than separators, or a break
        if joined.count("|") != width - 1 or "\n" in joined or "\r" in joined:
            joined = " | ".join(map(escape_cell, cells))
        return "| " + joined + " |"

    if numbers is None:
        lines = [line(header), "|" + "---|" * width]
        lines += map(line, rows)
    else:
        lines = ["| Row " + line(header), "|" + "---|" * (width + 1)]
        lines += [f"| {n} " + line(row) for n, row in zip(numbers, rows, strict=True)]
    return "\n".join(lines)


# -- the one table renderer: a grid of cells with spans -> a pipe table ----------------------------
MAX_NESTING = 32  # tables in tables (and office inline elements) past this: their words only
MAX_SPAN = 1000  # columns one cell may span (browsers' colspan limit); a hostile 10**9 is cut
MAX_TABLE_CELLS = 1_000_000  # the default of output.max_table_cells
#: How a cut table ends: a line under it, which also marks its unit ``truncated`` (the pipeline).
TABLE_CUT = "[table cut after "


def count_attr(value: str | None, default: int = 1, most: int = MAX_SPAN) -> int:
    """A count an attribute gives (a span, a repeat, a list level, a run of spaces): ``default``
    unless it is plain ASCII digits, and never over ``most``, so a hostile ``10**9`` (or a
    5,000-digit number, which ``int`` refuses) multiplies nothing. The one rule of every family."""
    value = (value or "").strip()
    if not (value.isascii() and value.isdigit()):
        return default
    return most if len(value) > 18 else min(int(value), most)


@dataclass(slots=True)
class Cell:
    """One cell as its family found it: its text (a nested table already flattened by
    ``flatten_grid``) and how many rows and columns it covers (1 each when it spans none)."""

    text: str
    rowspan: int = 1
    colspan: int = 1


@dataclass(slots=True)
class Grid:
    """A table as a family reads it: rows of cells in reading order, a cell spanning rows
    appearing only in its first row (as in HTML, DOCX, ODF and PPTX); ``header_rows`` leading
    rows are the header (0: none marked, the first row serves); ``caption`` is the table's title."""

    rows: list[list[Cell]] = field(default_factory=list)
    header_rows: int = 0
    caption: str = ""
    width: int = field(default=0, repr=False)  # the widest row added by ``add``, spans counted

    def add(self, row: list[Cell], max_cells: int, times: int = 1) -> bool:
        """Append ``row`` (``times`` times: a repeated row); True once the grid holds more than
        ``max_cells`` cells (rows times the widest row, its column spans counted), where it
        stops: a family reads no more rows, and ``grid_table`` cuts the table and says so."""
        self.width = max(self.width, sum(min(max(c.colspan, 1), MAX_SPAN) for c in row))
        for _ in range(times):
            self.rows.append(row)
            if len(self.rows) * self.width > max_cells:
                return True
        return False


def _no_note(note: str) -> None:
    """Where a cut is said when no read is there to hear it."""


@dataclass(frozen=True, slots=True)
class TableCaps:
    """What one read's tables may cost: ``max_cells`` cells a table once its spans are placed
    (``output.max_table_cells``), ``room()`` characters (what is left of the read's output
    budget, ``Context.text_left``); ``warn`` says a cut. ``TableCaps.of(ctx)`` in a read; the
    defaults bound a table rendered outside one."""

    max_cells: int = MAX_TABLE_CELLS
    room: Callable[[], float] = lambda: math.inf
    warn: Callable[[str], None] = _no_note

    @classmethod
    def of(cls, ctx: Context) -> TableCaps:
        return cls(ctx.settings.output.max_table_cells, ctx.text_left, ctx.warn)


@dataclass(slots=True)
class _Placed:
    """A grid's rectangle of texts and, when rows (or a first row's columns) were left out, the
    line that says so under the table."""

    cells: list[list[str]]
    cut: str = ""


def _place(grid: Grid, caps: TableCaps, cell_limit: int) -> _Placed:
    """Spans placed row by row (a spanned value repeated in every cell it covers, rows only as
    far as the grid goes), never more than ``caps.max_cells`` cells (rows x width: the rows from
    the one that would pass it on are left out; a first row wider than that is cut), and stopped
    after the row that passes ``caps.room()`` characters (counted as at least rendered, cells cut
    at ``cell_limit``). Work and memory follow the cells kept, whatever the spans claim."""
    room, most = caps.room(), max(caps.max_cells, 1)
    placed: list[list[str | None]] = []
    above: dict[int, _Span] = {}  # first column -> a span from a row above covering this row
    width = chars = 0
    cut = ""
    for row in grid.rows:
        line: list[str | None] = []
        spans: dict[int, _Span] = {}  # what covers this row, by first column
        cells = iter(row)
        c = 0
        while True:
            span = above.get(c)
            if span is None:
                cell = next(cells, None)
                if cell is None:  # the row's own cells are placed: spans from above may follow
                    c = min((k for k in above if k > c), default=-1)
                    if c < 0:
                        break
                    continue
                span = _Span(
                    min(max(cell.colspan, 1), MAX_SPAN), max(cell.rowspan, 1) - 1, cell.text
                )
            if (len(placed) + 1) * max(width, c + span.columns) > most:
                if placed:  # this row would take the table past its cells: it ends before it
                    cut = f"over output.max_table_cells={most:,} cells once its spans are placed"
                    break
                cut = f"its first row has more than output.max_table_cells={most:,} cells"
                span.columns = most - c  # a first row alone wider than that: its columns are cut
            if len(line) < c:
                line += [None] * (c - len(line))
            line[c : c + span.columns] = [span.text] * span.columns
            chars += span.columns * (min(len(span.text), cell_limit) + 3)
            spans[c] = span
            c += span.columns
            if cut:
                break
        if cut and placed:
            break
        placed.append(line)
        width = max(width, len(line))
        above = {
            k: _Span(s.columns, s.rows - 1, s.text) for k, s in (above | spans).items() if s.rows
        }
        if cut:
            break
        if chars > room and len(placed) < len(grid.rows):
            cut = "the file's output budget is spent (output.max_text_ratio)"
            break
    rect = [[t or "" for t in line] + [""] * (width - len(line)) for line in placed]
    if cut:
        caps.warn(
            f"A table was cut: {cut}; the rows past the cut are left out and a line under the "
            "table says so (metadata truncated)."
        )
        cut = f"{TABLE_CUT}{len(rect):,} rows: {cut}]"
    return _Placed(rect, cut)


@dataclass(slots=True)
class _Span:
    """A cell being placed: the columns it covers, the rows below it still covers, its text."""

    columns: int
    rows: int
    text: str


def grid_cells(grid: Grid, caps: TableCaps | None = None) -> list[list[str]]:
    """The grid as a rectangle of texts: a spanned value repeated in every cell it covers (at
    most ``caps.max_cells`` cells)."""
    return _place(grid, caps or TableCaps(), sys.maxsize).cells


def grid_table(
    grid: Grid, caps: TableCaps | None = None, *, output: OutputSettings | None = None
) -> str:
    """THE table renderer of every document family (office, PDF, HTML): ``grid`` as a pipe
    table, spans repeated, several header rows joined per column (``A / B``), the caption on a
    ``Table: ...`` line above; "" for a grid without cells. ``caps`` bound it (the read's
    ``TableCaps.of(ctx)``; without, ``output.max_table_cells`` or its default): a cut table ends
    with a ``[table cut after N rows: why]`` line. ``output`` also cuts cells at
    ``output.max_cell_content``."""
    if caps is None:
        caps = TableCaps(output.max_table_cells) if output is not None else TableCaps()
    placed = _place(grid, caps, output.max_cell_content if output is not None else sys.maxsize)
    cells = placed.cells
    if not cells or not any(any(c.strip() for c in row) for row in cells):
        return ""
    heads = max(min(grid.header_rows, len(cells)), 1)
    header = (
        [" / ".join(dict.fromkeys(row[c] for row in cells[:heads] if row[c].strip()))
         for c in range(len(cells[0]))]
        if heads > 1
        else [t if t.strip() else "" for t in cells[0]]
    )  # fmt: skip
    table = markdown_table(header, cells[heads:], output=output)
    return captioned(grid.caption, table + (f"\n\n{placed.cut}" if placed.cut else ""))


def captioned(caption: str, table: str) -> str:
    """A pipe table under its caption's ``Table: ...`` line (the table alone without one)."""
    caption = " ".join(caption.split())
    return f"Table: {escape_cell(caption)}\n\n{table}" if caption else table


def flatten_grid(grid: Grid, caps: TableCaps | None = None) -> str:
    """A table nested in a cell, as that cell's text: its rows joined (cells by ``, ``, rows by
    ``; ``) behind a ``[nested table: ...]`` note, since a pipe table cannot hold a table; the
    caps of ``grid_table`` apply (a cut one ends with its cut line)."""
    placed = _place(grid, caps or TableCaps(), sys.maxsize)
    rows = [", ".join(c for c in row if c.strip()) for row in placed.cells]
    body = "; ".join(r for r in rows if r)
    return f"[nested table: {body}{' ' + placed.cut if placed.cut else ''}]" if body else ""
