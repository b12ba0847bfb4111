"""Rendering shared by every family: markdown tables with one cell-escaping rule, and sizes."""

from __future__ import annotations

import re
import sys
from collections.abc import Callable, Sequence
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
