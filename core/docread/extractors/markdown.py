"""Rendering shared by every family: markdown tables with one cell-escaping rule, and sizes."""

from __future__ import annotations

from collections.abc import Sequence

_CELL_BREAKS = str.maketrans({"\r": " ", "\n": " ", "\t": " "})


def human_size(n: float) -> str:
    """1536 -> '1.5 KB'; under 1 KB the exact count of bytes ('512 B')."""
    size = float(n)
    for unit in ("B", "KB", "MB", "GB", "TB"):
        if size < 1024 or unit == "TB":
            return f"{int(size):,} B" if unit == "B" else f"{size:.1f} {unit}"
        size /= 1024
    raise AssertionError("unreachable")


def escape_cell(text: object) -> str:
    """One table cell on one line: line breaks and tabs become spaces, pipes are escaped."""
    return " ".join(str(text).translate(_CELL_BREAKS).split(" ")).replace("|", "\\|")


def markdown_table(header: Sequence[object], rows: Sequence[Sequence[object]]) -> str:
    """A pipe table; short rows are padded so every row has the header's width."""
    width = max([len(header), *(len(r) for r in rows)]) if rows or header else 0
    head = [escape_cell(c) for c in header] + [""] * (width - len(header))
    lines = ["| " + " | ".join(head) + " |", "|" + "---|" * width]
    for row in rows:
        cells = [escape_cell(c) for c in row] + [""] * (width - len(row))
        lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines)
