"""Tables of two rows only, without rules: two rows of two short cells each, the left cells
starting at one edge and the right ones at another, each column in one style (a borderless
2 x 2 table, two symbols beside their meanings); a looser pair of rows (a heading beside a
heading over a heading beside a paragraph's first line, a form's labels side by side) is
left to the text. Runs of three rows and more are ``unruled.unruled_runs``'s."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..text.relations import STOPS
from .cuts import ALIGN

if TYPE_CHECKING:
    from ..text.lines import Line

SHORT = 0.3  # of the page's width: a cell's line is narrower
WORDS = 6  # a cell's line has no more words
FAR = 2.5  # the columns' widths: two columns of short lines this far apart are text, not a table


def short_cell(ln: Line, width: float) -> bool:
    """A line that may be a cell: under ``SHORT`` of the page's ``width``, ``WORDS`` words at
    most, not rotated."""
    return ln.x1 - ln.x0 < width * SHORT and not ln.rotated and len(ln.text.split()) <= WORDS


def two_row_tables(
    rows: list[list[Line]], taken: set[int], width: float
) -> list[tuple[int, list[list[Line]]]]:
    """The pairs of rows (``rows`` top to bottom, each left to right) that are a table of two
    rows (``_pair``), none of their lines ``taken`` by a run already (ids), the pair set off
    from the lines around it (``_set_off``: a longer grid that was not a table, or a listing,
    has no two rows that are one); as ``unruled_runs`` gives runs (no header row)."""
    out: list[tuple[int, list[list[Line]]]] = []
    for i in range(len(rows) - 1):
        upper, lower = rows[i], rows[i + 1]
        if any(id(ln) in taken for ln in (*upper, *lower)) or not _pair(upper, lower, width):
            continue
        if not _set_off(rows[i - 1] if i else None, upper, lower, rows[i + 2 : i + 3]):
            continue
        out.append((0, [upper, lower]))
    return out


def _pair(upper: list[Line], lower: list[Line], width: float) -> bool:
    """Two rows of two short lines each (under ``SHORT`` of the page wide, ``WORDS`` words
    at most, not rotated, none in a monospaced face: code beside what it prints), one column
    starting where the other's lines end or later, the columns' edges aligned, each column's
    two lines in one style, not each a sentence ending on its second line, the rows less than
    one and a half lines apart (a word processor's table row pads its line) and the columns no
    further apart than ``FAR`` times the wider."""
    lines = (*upper, *lower)
    if (
        len(upper) != 2
        or len(lower) != 2
        or any(ln.mono or not short_cell(ln, width) for ln in lines)
    ):
        return False
    if not _columns(upper, lower) or any(
        a.style != b.style for a, b in zip(upper, lower, strict=True)
    ):
        return False
    if all(
        STOPS.search(b.text) and not STOPS.search(a.text) for a, b in zip(upper, lower, strict=True)
    ):  # each column a sentence wrapped over its two lines: two paragraphs side by side
        return False
    left = max(upper[0].x1, lower[0].x1)
    right = min(upper[1].x0, lower[1].x0)
    wider = max(ln.x1 - ln.x0 for ln in lines)
    height = max(ln.y1 - ln.y0 for ln in lines)
    return (
        left < right
        and right - left < FAR * wider
        and min(ln.y0 for ln in lower) - max(ln.y1 for ln in upper) < 1.5 * height
    )


def _columns(upper: list[Line], lower: list[Line]) -> bool:
    """Two rows of two lines whose left edges line up, column by column."""
    return all(abs(a.x0 - b.x0) <= ALIGN for a, b in zip(upper, lower, strict=True))


def _set_off(
    above: list[Line] | None, upper: list[Line], lower: list[Line], below: list[list[Line]]
) -> bool:
    """The pair of rows stands apart as a block: the row ``above`` it and the one ``below``
    (where there are) at least half a line further off than its two rows are from each other
    (a code listing's or a text's next lines follow at its own spacing: no table of two)."""
    height = max(ln.y1 - ln.y0 for ln in (*upper, *lower))
    gap = min(ln.y0 for ln in lower) - max(ln.y1 for ln in upper)
    off = max(gap, 0) + height / 2
    if above is not None and min(ln.y0 for ln in upper) - max(ln.y1 for ln in above) < off:
        return False
    return not below or min(ln.y0 for ln in below[0]) - max(ln.y1 for ln in lower) >= off
