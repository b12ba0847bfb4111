"""What a row of an unruled run may be (``unruled.unruled_runs``): its lines in the run's
columns, a form's ``label: value`` pairs, a name and what it is, one long cell between short
ones; a one-line row held between rows of cells (a group label, a cell's first lines) and the
row that ends it; how near two rows are."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import TYPE_CHECKING

from .cuts import ALIGN

if TYPE_CHECKING:
    from ..text.lines import Line

_LABEL = re.compile(
    r"^\s*(?:\d{1,2}\.\s+)?[^\W\d_][^:]{0,30}:\s*$"
)  # "Booking ID:", "3. APPROVED AS TO FORM:"


def fits(row: list[Line], cols: list[list[float]]) -> int:
    """How many of the row's lines overlap (or start at) a column of the run so far."""
    return sum(
        any(c[0] - ALIGN <= ln.x0 <= c[1] or (ln.x0 < c[1] and c[0] < ln.x1) for c in cols)
        for ln in row
    )


def described(row: list[Line], width: float) -> bool:
    """A row of two: a short label (three words at most) and a line of up to eight words after
    it, under half the page wide (a file's name and what it is: a list set as a grid)."""
    return (
        len(row) == 2
        and len(row[0].text.split()) <= 3
        and row[0].x1 - row[0].x0 < 0.3 * width
        and len(row[1].text.split()) <= 8
        and row[1].x1 - row[1].x0 < 0.5 * width
    )


def one_long(row: list[Line], width: float) -> bool:
    """A row of three or more cells in one style (a one-character cell may differ in family
    alone: a symbol in a fallback font), of a word or three each but one between them, that
    one up to 12 words (a question between its code and its answer; ``row`` left to right)."""
    longer = {ln.style for ln in row if len(ln.text.strip()) > 1}
    if len(row) < 3 or len(longer) != 1 or len({ln.style[:3] for ln in row}) != 1:
        return False
    wordy = [
        i for i, ln in enumerate(row) if len(ln.text.split()) > 3 or ln.x1 - ln.x0 >= 0.3 * width
    ]
    return (
        len(wordy) == 1
        and 0 < wordy[0] < len(row) - 1
        and len(row[wordy[0]].text.split()) <= 12
        and row[wordy[0]].x1 - row[wordy[0]].x0 < 0.6 * width
    )


def held_line(
    held: list[list[Line]],
    line: Line,
    cols: list[list[float]],
    short: Callable[[Line], bool],
    above: list[Line],
) -> bool:
    """A one-line row that may sit between rows of cells: a short line (a group label), or a
    line of up to 12 words from the start of a column after the first, in the style of a
    cell of the row ``above`` (a cell's first lines, the row's other cells set on its last:
    no heading), or set in right under a later cell of that row (``_set_in``: its wrapped
    line), and up to two more lines right under it, from the same start."""
    if not held:
        words = len(line.text.split())
        return short(line) or words <= 12 and (
            any(abs(line.x0 - c[0]) <= ALIGN for c in cols[1:])
            and any(ln.style == line.style for ln in above)
            or any(_set_in(line, ln) for ln in above[1:])
        )
    last = held[-1][0]
    return (
        len(held) < 3
        and abs(line.x0 - last.x0) <= ALIGN
        and 0 <= line.y0 - last.y1 < 0.5 * last.height
        and len(line.text.split()) <= 12
    )


def _set_in(line: Line, cell: Line) -> bool:
    """``line`` is ``cell``'s wrapped line set in under it: in its style, starting within it,
    right under it (less than half a line between: a party's name over two lines in a
    signature block, ``2. SANTA CRUZ COUNTY REGIONAL`` / ``TRANSPORTATION COMMISSION``), the
    cell ending no sentence (a paragraph's next one set in under its last line is no wrap)."""
    return (
        line.style == cell.style
        and cell.x0 - ALIGN <= line.x0 <= cell.x1
        and 0 <= line.y0 - cell.y1 < 0.5 * cell.height
        and not cell.text.rstrip().endswith((".", "!", "?"))
    )


def ends_held(held: list[list[Line]], row: list[Line], width: float) -> bool:
    """The row ends the cell whose first lines are ``held``: one of its lines starts where
    they do, right under the last (less than half a line between), its other lines a word or
    three each (a cell's code and answer, not a column of text beside it)."""
    if not held:
        return False
    last = held[-1][0]
    end = [
        ln
        for ln in row
        if abs(ln.x0 - last.x0) <= ALIGN and 0 <= ln.y0 - last.y1 < 0.5 * last.height
    ]
    return len(end) == 1 and all(
        len(ln.text.split()) <= 3 and ln.x1 - ln.x0 < 0.3 * width for ln in row if ln is not end[0]
    )


def labelled(row: list[Line], width: float) -> bool:
    """A row of ``label: value`` pairs (a form's fields side by side): every other line a
    label of a few words ending in a colon, or set in bold before a value that is not, each
    followed by its value, a value of one line (up to 12 words) whatever its length."""
    return len(row) % 2 == 0 and all(
        (_LABEL.match(label.text) or _bold_label(label, value))
        and len(value.text.split()) <= 12
        and value.x1 - value.x0 < 0.6 * width
        for label, value in zip(row[::2], row[1::2], strict=True)
    )


def _bold_label(label: Line, value: Line) -> bool:
    """A form's label set in bold before its value in the body weight: a few words, no
    sentence's end."""
    text = label.text.strip()
    return (
        label.bold
        and not value.bold
        and len(text.split()) <= 4
        and not text.endswith((".", "!", "?"))
    )


def wrapped(row: list[Line], held: list[list[Line]]) -> bool:
    """The one-line row ``held`` is a cell of ``row`` wrapped onto a second line: right under
    it (less than half a line between), starting where one of its lines starts."""
    if not held:
        return False
    ln = held[-1][0]
    return any(
        abs(ln.x0 - cell.x0) <= ALIGN and 0 <= ln.y0 - cell.y1 + 0.5 * cell.height < cell.height
        for cell in row
    )


def near(upper: list[Line], lower: list[Line], lines: float = 2) -> bool:
    """Two rows no more than ``lines`` line heights apart."""
    height = max(ln.y1 - ln.y0 for ln in lower)
    return min(ln.y0 for ln in lower) - max(ln.y1 for ln in upper) <= lines * height
