"""Tables without rules on a PDF page: rows of short lines side by side whose left edges line
up in columns over three or more rows (key/value grids in two pairs of columns too; a row may
hold one cell between rows of cells: a group label), with the row just above as the header."""

from __future__ import annotations

import re
from bisect import bisect_left
from collections.abc import Callable
from math import inf
from typing import TYPE_CHECKING

from ..order import column_sides, line_chars, region_columns
from ..survey import in_band
from .cells import (
    NUMBER,
    PageTable,
    clean_rows,
    make_table,
    rows_of,
    spaced_apart,
    whole_lines,
)
from .cuts import ALIGN, column_cuts
from .grid import grid, reach, run_box
from .pairs import FAR, short_cell, two_row_tables

if TYPE_CHECKING:
    from ....settings import OutputSettings
    from ..survey import Survey
    from ..text.lines import Line, PageText

_WORD = re.compile(r"[^\W\d_]{3}")  # a word: three letters in a row
_CAPTION = re.compile(r"^\s*(?:Table|Tab\.|Tabelle|Tableau|Tabla|Figure|Fig\.)\s*[\dIVX]", re.I)
_LABEL = re.compile(r"^\s*[^\W\d_][^:]{0,30}:\s*$")  # a form field's label: "Booking ID:"


def aligned_tables(
    text: PageText, lines: list[Line], output: OutputSettings, survey: Survey
) -> list[PageTable]:
    """The page's tables without rules among ``lines`` (rows of short cells side by side), then
    among the lines they left each column's (``order.region_columns``: the page's two, or the
    two under a title or a table across it; a table in one column has its rows between the
    other column's lines: rows across the page mix them)."""
    width = text.width
    lines, whole = column_cuts(*spaced_apart(lines))
    short = sum(ln.x1 - ln.x0 < 0.3 * width and ln.text.count(" ") < 6 for ln in lines)
    if short < 6:  # two rows of three cells at least
        return []
    found = _aligned(text, lines, whole, output, survey)
    sided = _sided(text, lines, whole, output, survey, found) if found else None
    if sided is not None:
        return sided
    taken = set().union(*(t.lines for t in found))
    rest = [ln for ln in lines if id(whole.get(id(ln), ln)) not in taken]
    for side in region_columns(rest, line_chars) if rest else ():
        found += _aligned(text, side, whole, output, survey)
    return found


def _sided(
    text: PageText,
    lines: list[Line],
    whole: dict[int, Line],
    output: OutputSettings,
    survey: Survey,
    found: list[PageTable],
) -> list[PageTable] | None:
    """The tables of each side of a gutter through all the lines, when a table ``found``
    across the page runs over it, both sides hold tables and some table of one side has most
    of its lines at heights where no table of the other side has one: two page columns each
    with its own lists set as grids (GeoTopo's symbol list), not one table across the gutter
    (whose sides' rows are the same rows, a few rows of one side aside: an invoice's totals
    under its amounts); else None."""
    sides = column_sides(lines, line_chars, forms=False)
    if sides is None:
        return None
    gap = (max(ln.x1 for ln in sides[0]), min(ln.x0 for ln in sides[1]))
    if not any(t.x0 < gap[0] and gap[1] < t.x1 for t in found):
        return None  # no table across the gutter
    left, right = (_aligned(text, side, whole, output, survey) for side in sides)
    if not left or not right:
        return None
    centres = [
        [[ln.y0 + ln.y1 for ln in side if id(whole.get(id(ln), ln)) in t.lines] for t in tables]
        for side, tables in zip(sides, (left, right), strict=True)
    ]
    height = min(ln.height for ln in lines)  # centres within half a line: the same row
    every = [sorted(c for t in side for c in t) for side in centres]  # each side's, sorted once
    if not any(
        _apart(table, theirs, height)
        for ours, theirs in ((centres[0], every[1]), (centres[1], every[0]))
        for table in ours
    ):
        return None
    return left + right


def _apart(ours: list[float], theirs: list[float], height: float) -> bool:
    """Most of a table's lines (``ours``: twice their middles' heights) have no line of the
    other side's tables (``theirs``, sorted) at their height, within half of ``height``."""
    alone = 0
    for c in ours:
        at = bisect_left(theirs, c - height)
        alone += at == len(theirs) or theirs[at] > c + height
    return alone * 2 > len(ours)


def _figures(run: list[list[Line]]) -> bool:
    """Four rows or more, most of them a label (a word or two, a letter first: a chemical
    element, a symbol) and two numbers or more after it: a table of figures with row labels,
    not a formula's array of numbers (nor rows of figures beside the other column's text)."""
    labelled = sum(
        row[0].text.strip()[:1].isalpha()
        and len(row[0].text.split()) <= 2
        and sum(NUMBER.match(ln.text.strip()) is not None for ln in row[1:]) >= 2
        for row in (sorted(r, key=lambda ln: ln.x0) for r in run)
    )
    return labelled >= 4 and labelled * 4 >= 3 * len(run)


def _aligned(
    text: PageText,
    lines: list[Line],
    whole: dict[int, Line],
    output: OutputSettings,
    survey: Survey,
) -> list[PageTable]:
    """The tables of the aligned runs among ``lines`` (pieces: ``spaced_apart``)."""
    found = []
    for heads, run in unruled_runs(lines, text.width, text.height):
        used = list(
            {
                id(w): w for ln in (x for row in run for x in row) for w in [whole.get(id(ln), ln)]
            }.values()
        )
        if sum(bool(_WORD.search(ln.text)) for ln in used) < 2 and not _figures(run):
            continue  # no words: a display formula's array or a diagram's labels
        keys = {
            id(whole.get(id(row[0]), row[0]))
            for row in run
            if any(_WORD.search(ln.text) for ln in row[1:])
        }  # the first cells of rows with words after them: a symbol list's symbols
        if sum(_carries_on(ln, survey, keys) for ln in used) * 2 >= len(used):
            continue  # lines that carry on a sentence: narrow columns of text
        table = make_table(run_box(run), clean_rows(grid(run, heads)), output, used)
        if table is not None:
            found.append(whole_lines(table, whole))
    return found


def _fits(row: list[Line], cols: list[list[float]]) -> int:
    """How many of the row's lines overlap (or start at) a column of the run so far."""
    return sum(
        any(c[0] - ALIGN <= ln.x0 <= c[1] or (ln.x0 < c[1] and c[0] < ln.x1) for c in cols)
        for ln in row
    )


def _carries_on(line: Line, survey: Survey, keys: set[int]) -> bool:
    """A line that carries on a sentence: a lowercase start, not code, and not a row's first
    cell (``keys``) without a word of three letters in it (a symbol: ``f−1(M)``, ``χ(K)``,
    before its meaning; a formula's ``k=0`` under another is none)."""
    return (
        line.text.lstrip()[:1].islower()
        and not survey.code(line)
        and not (id(line) in keys and not _WORD.search(line.text))
    )


def _spaced_off(
    run: list[list[Line]], held: list[list[Line]], row: list[Line], widest: float
) -> bool:
    """A row set off from a tight run of three rows or more (rows under a third of a line
    apart) by over three quarters of a line (from the run's last row, or the one-line rows
    ``held`` under it), a line of it starting where none of the run's does: the next list
    (GeoTopo's symbol lists one under another, each its own columns), not a note's row set
    off under a bill's rows. ``widest``: the widest gap between the run's rows, kept as they
    are added."""
    if len(run) < 3:
        return False
    last = held[-1] if held else run[-1]
    height = min(ln.height for ln in (*last, *row))
    if widest >= height / 3 or _top(row) - _bottom_of(last) <= 0.75 * height:
        return False
    starts = [ln.x0 for r in run for ln in r]
    return any(all(abs(ln.x0 - x) > ALIGN for x in starts) for ln in row)


def _top(row: list[Line]) -> float:
    """A row's top: its highest line's (``grid._top`` takes the lowest: a raised mark there
    must not part a cell's lines; here the gap between rows must not be overstated)."""
    return min(ln.y0 for ln in row)


def _bottom_of(row: list[Line]) -> float:
    """A row's bottom: its lowest line's."""
    return max(ln.y1 for ln in row)


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


def unruled_runs(
    lines: list[Line], width: float, height: float
) -> list[tuple[int, list[list[Line]]]]:
    """Runs of 3+ rows of short side-by-side cells (a few words each, or ``label: value``
    pairs, two rows of two pairs or more each will do, or short cells around one sentence:
    ``_one_long``) whose cells fall in the same columns (a row may leave cells empty, or
    hold one cell between two rows of cells: a group label, or a cell's wrapped line, the
    next row then near that line; or up to three lines of a cell set on its row's last:
    ``_held``),
    starting with a row of 2+ cells (two columns no further apart than 2.5 times the wider
    one), each with its header rows (``_head``: how many rows of the run head it). Text in
    columns does not qualify: its rows have one long line per column; nor does a page's
    footer under a run (``_footer``: the page's ``height`` places its bands). Then the
    tables of two rows of two cells among the rows left (``pairs.two_row_tables``)."""
    rows = rows_of(lines)
    runs: list[tuple[int, list[list[Line]]]] = []
    run: list[list[Line]] = []
    cols: list[list[float]] = []
    held: list[list[Line]] = []  # one-cell rows waiting for a row of cells after them
    widest = -inf  # the widest gap between the run's rows (``_spaced_off``)
    start = floor = 0  # the run's first row; the first row no emitted run holds

    def short(ln: Line) -> bool:
        return short_cell(ln, width)

    def cells(row: list[Line]) -> bool:
        return len(row) >= 2 and (
            all(short(ln) for ln in row)
            and sum(len(ln.text.split()) for ln in row) <= 3 * len(row)
            or _labelled(row, width)
            or _one_long(row, width)
            or _described(row, width)
        )

    def close(end: int) -> None:
        nonlocal floor
        pairs = len(run) == 2 and all(len(r) >= 4 and _labelled(r, width) for r in run)
        if len(run) < 3 and not pairs or len(cols) < 2:
            return  # fewer than three rows, unless two rows of two fields or more each
        widest = max(c[1] - c[0] for c in cols)
        if len(cols) == 2 and cols[1][0] - cols[0][1] >= FAR * widest:
            return  # two columns of short lines far apart: text columns, not a table
        head = _head(rows[floor:start], run[0], cols, short)
        runs.append((len(head), head + run))
        floor = end

    for i, row in enumerate(rows):
        if (
            run
            and (cells(row) or _ends(held, row, width) and _fits(row, cols) == len(row) >= 2)
            and _fits(row, cols) >= max(1, len(row) - 1)
            and not _spaced_off(run, held, row, widest)
            and _near(held[-1] if _wrapped(run[-1], held) else run[-1], row, 3)
            and not _footer(row, cols, height)
        ):
            for part in (*held, row):
                widest = max(widest, _top(part) - _bottom_of(run[-1]))
                run.append(part)
                cols = _widened(cols, part)
            held = []
            continue
        if run and len(row) == 1 and _held(held, row[0], cols, short, run[-1]) and _fits(row, cols):
            held.append(row)  # a group label or a cell's first lines, if a row of cells follows
            continue
        close(i - len(held))
        held = []
        run = [row] if cells(row) else []
        cols = _widened([], row) if run else []
        widest = -inf
        start = i
    close(len(rows))
    taken = {id(ln) for _, run in runs for row in run for ln in row}
    return runs + two_row_tables(rows, taken, width)  # two rows of two cells: a table too


def _described(row: list[Line], width: float) -> bool:
    """A row of two: a short label (three words at most) and a line of up to eight words after
    it, under half the page wide (a file's name and what it is: a list set as a grid)."""
    return (
        len(row) == 2
        and len(row[0].text.split()) <= 3
        and row[0].x1 - row[0].x0 < 0.3 * width
        and len(row[1].text.split()) <= 8
        and row[1].x1 - row[1].x0 < 0.5 * width
    )


def _footer(row: list[Line], cols: list[list[float]], height: float) -> bool:
    """A row in the page's top or bottom band (a running line's) with a line across the gap
    between two of the run's columns: a footer under a page-long grid, not its last row (a
    cell run on over the next one is no footer: it is not in the band)."""
    return all(in_band(ln, height) for ln in row) and any(
        sum(ln.x0 < x1 and x0 < ln.x1 for x0, x1 in cols) >= 2 for ln in row
    )


def _one_long(row: list[Line], width: float) -> bool:
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


def _held(
    held: list[list[Line]],
    line: Line,
    cols: list[list[float]],
    short: Callable[[Line], bool],
    above: list[Line],
) -> bool:
    """A one-line row that may sit between rows of cells: a short line (a group label), or a
    line of up to 12 words from the start of a column after the first, in the style of a
    cell of the row ``above`` (a cell's first lines, the row's other cells set on its last:
    no heading), and up to two more lines right under it, from the same start."""
    if not held:
        words = len(line.text.split())
        return short(line) or (
            words <= 12
            and any(abs(line.x0 - c[0]) <= ALIGN for c in cols[1:])
            and any(ln.style == line.style for ln in above)
        )
    last = held[-1][0]
    return (
        len(held) < 3
        and abs(line.x0 - last.x0) <= ALIGN
        and 0 <= line.y0 - last.y1 < 0.5 * last.height
        and len(line.text.split()) <= 12
    )


def _ends(held: list[list[Line]], row: list[Line], width: float) -> bool:
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


def _head(
    above: list[list[Line]],
    first: list[Line],
    cols: list[list[float]],
    short: Callable[[Line], bool],
) -> list[list[Line]]:
    """The header rows right above a run (up to three, top first): rows of short lines over
    its columns, each close to the row under it (two lines' height); a row of one line only
    when it is a group label over later columns (right of the first) or the first column's
    head set between two header rows (touching them); never a caption."""
    head: list[list[Line]] = []
    below = first
    for row in reversed(above[-3:]):
        if not all(short(ln) for ln in row) or any(_CAPTION.match(ln.text) for ln in row):
            break
        if not (_fits(row, cols) or _over(row, cols)) or not _near(row, below):
            break
        if len(row) == 1 and not (row[0].x0 > cols[0][1] or _near(row, below, 0.3)):
            break
        head.insert(0, row)
        below = row
    return head


def _over(row: list[Line], cols: list[list[float]]) -> bool:
    """A row of heads each set left in its column over numbers set right (a spreadsheet's
    heads): two or more lines, left to right in distinct columns, each starting past the end
    of the column before its own and ending before the next one starts."""
    at = [reach(ln, cols) for ln in row]
    return (
        len(row) >= 2
        and all(a < b for a, b in zip(at, at[1:], strict=False))
        and all(
            i + 1 == len(cols) or ln.x1 <= cols[i + 1][0] for ln, i in zip(row, at, strict=True)
        )
    )


def _labelled(row: list[Line], width: float) -> bool:
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


def _wrapped(row: list[Line], held: list[list[Line]]) -> bool:
    """The one-line row ``held`` is a cell of ``row`` wrapped onto a second line: right under
    it (less than half a line between), starting where one of its lines starts."""
    if not held:
        return False
    ln = held[-1][0]
    return any(
        abs(ln.x0 - cell.x0) <= ALIGN and 0 <= ln.y0 - cell.y1 + 0.5 * cell.height < cell.height
        for cell in row
    )


def _near(upper: list[Line], lower: list[Line], lines: float = 2) -> bool:
    """Two rows no more than ``lines`` line heights apart."""
    height = max(ln.y1 - ln.y0 for ln in lower)
    return min(ln.y0 for ln in lower) - max(ln.y1 for ln in upper) <= lines * height
