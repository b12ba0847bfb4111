"""Rendering shared by every family: markdown tables with one cell-escaping rule, the one table
renderer for documents (``Grid`` of spanned ``Cell``s -> ``grid_table``), and sizes."""

from __future__ import annotations

import re
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from ..sanitize import cut_cell

if TYPE_CHECKING:
    from ..settings import OutputSettings

# a run of line breaks with the blanks around it: one space keeps the cell on one line
_BREAKS = re.compile(r"[ \t]*(?:[\r\n][ \t]*)+")


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
    first_row: int | None = None,
) -> str:
    """A pipe table of ``header`` and ``rows`` ("" when both are empty).

    Every cell is ``text(value)``, cut at ``output.max_cell_content`` by cut_cell's rule when
    ``output`` is given, then escape_cell'd; short rows are padded to the widest. With
    ``first_row``, a leading Row column numbers the rows from it.
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

    if first_row is None:
        lines = [line(header), "|" + "---|" * width]
        lines += map(line, rows)
    else:
        lines = ["| Row " + line(header), "|" + "---|" * (width + 1)]
        lines += [f"| {n} " + line(row) for n, row in enumerate(rows, first_row)]
    return "\n".join(lines)


# -- the one table renderer: a grid of cells with spans -> a pipe table ----------------------------
MAX_SPAN = 1000  # columns one cell may span (browsers' colspan limit); a hostile 10**9 is cut


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


def grid_cells(grid: Grid) -> list[list[str]]:
    """The grid as a rectangle of texts: a spanned value repeated in every cell it covers."""
    placed: list[list[str | None]] = []
    for r, row in enumerate(grid.rows):
        while len(placed) <= r:
            placed.append([])
        c = 0
        for cell in row:
            line = placed[r]
            while c < len(line) and line[c] is not None:  # taken by a span from above
                c += 1
            span_r, span_c = max(cell.rowspan, 1), min(max(cell.colspan, 1), MAX_SPAN)
            for dr in range(min(span_r, len(grid.rows) - r)):
                while len(placed) <= r + dr:
                    placed.append([])
                target = placed[r + dr]
                if len(target) < c + span_c:
                    target += [None] * (c + span_c - len(target))
                target[c : c + span_c] = [cell.text] * span_c
            c += span_c
    width = max(map(len, placed), default=0)
    return [[t or "" for t in line] + [""] * (width - len(line)) for line in placed]


def grid_table(grid: Grid, *, output: OutputSettings | None = None) -> str:
    """THE table renderer of every document family (office, PDF, HTML): ``grid`` as a pipe
    table, spans repeated, several header rows joined per column (``A / B``), the caption on a
    ``Table: ...`` line above; "" for a grid without cells."""
    cells = grid_cells(grid)
    if not cells or not any(any(c.strip() for c in row) for row in cells):
        return ""
    heads = max(min(grid.header_rows, len(cells)), 1)
    header = [
        " / ".join(dict.fromkeys(row[c] for row in cells[:heads] if row[c].strip()))
        for c in range(len(cells[0]))
    ]
    return captioned(grid.caption, markdown_table(header, cells[heads:], output=output))


def captioned(caption: str, table: str) -> str:
    """A pipe table under its caption's ``Table: ...`` line (the table alone without one)."""
    caption = " ".join(caption.split())
    return f"Table: {escape_cell(caption)}\n\n{table}" if caption else table


def flatten_grid(grid: Grid) -> str:
    """A table nested in a cell, as that cell's text: its rows joined (cells by ``, ``, rows by
    ``; ``) behind a ``[nested table: ...]`` note, since a pipe table cannot hold a table."""
    rows = [", ".join(c for c in row if c.strip()) for row in grid_cells(grid)]
    body = "; ".join(r for r in rows if r)
    return f"[nested table: {body}]" if body else ""
