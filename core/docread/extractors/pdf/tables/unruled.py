"""Tables without rules on a PDF page: rows of short lines side by side whose left edges line
up in columns over three or more rows (key/value grids in two pairs of columns too; a row may
hold one cell between rows of cells: a group label), with the row just above as the header;
then, among the lines left, tables of rules across only (banded.py)."""

from __future__ import annotations

import re
from bisect import bisect_left
from collections.abc import Callable, Sequence
from math import inf
from typing import TYPE_CHECKING

from ..order import column_sides, line_chars, region_columns
from ..survey import in_band
from .banded import THIN, WIDE, banded_tables
from .cells import (
    NUMBER,
    PageTable,
    clean_rows,
    left_over,
    make_table,
    row_bottom,
    row_top,
    rows_apart,
    rows_of,
    spaced_apart,
    whole_lines,
)
from .cuts import ALIGN, column_cuts
from .grid import grid, reach, run_box
from .pairs import FAR, short_cell, two_row_tables
from .rows import (
    described,
    ends_held,
    fits,
    held_line,
    labelled,
    near,
    one_long,
    priced,
    ruled_off,
    running_text,
    trailing,
    wrapped,
)

if TYPE_CHECKING:
    from ....settings import OutputSettings
    from ..survey import Survey
    from ..text.lines import Box, Line, PageText

_WORD = re.compile(r"[^\W\d_]{3}")  # a word: three letters in a row
_DIGITS = re.compile(r"^\d[\d.,']*(?<!,)$")  # a group of a number's digits: 3456, 000,40
_CAPTION = re.compile(r"^\s*(?:Table|Tab\.|Tabelle|Tableau|Tabla|Figure|Fig\.)\s*[\dIVX]", re.I)


def aligned_tables(
    text: PageText, lines: list[Line], output: OutputSettings, survey: Survey
) -> list[PageTable]:
    """The page's tables without rules among ``lines`` (rows of short cells side by side), then
    among the lines they left each column's (``order.region_columns``: the page's two, or the
    two under a title or a table across it; a table in one column has its rows between the
    other column's lines: rows across the page mix them); then the tables of rules across only
    among the lines left (``banded.banded_tables``: cells wrapped over lines, one row)."""
    found = _unruled(text, lines, output, survey)
    return found + banded_tables(text, left_over(lines, found), output, found)


def _unruled(
    text: PageText, lines: list[Line], output: OutputSettings, survey: Survey
) -> list[PageTable]:
    """The tables of aligned rows among ``lines`` (``aligned_tables``), no rules needed."""
    width = text.width
    lines, whole = column_cuts(*spaced_apart(lines))
    short = sum(ln.x1 - ln.x0 < 0.3 * width and ln.text.count(" ") < 6 for ln in lines)
    if short < 6 or rows_apart(lines):  # two rows of three cells at least, side by side
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
    rules = sorted(
        (r for r in text.rects or () if r[3] - r[1] <= THIN and r[2] - r[0] >= WIDE),
        key=lambda r: r[1],
    )
    for heads, run in unruled_runs(lines, text.width, text.height, rules):
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
    if widest >= height / 3 or row_top(row) - row_bottom(last) <= 0.75 * height:
        return False
    starts = [ln.x0 for r in run for ln in r]
    return any(all(abs(ln.x0 - x) > ALIGN for x in starts) for ln in row)


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
    lines: list[Line],
    width: float,
    height: float,
    rules: Sequence[Box] = (),
) -> list[tuple[int, list[list[Line]]]]:
    """Runs of 3+ rows of short side-by-side cells (a few words each, or ``label: value``
    pairs, two rows of two pairs or more each will do, or short cells around one sentence:
    ``one_long``) whose cells fall in the same columns (a row may leave cells empty, or
    hold one cell between two rows of cells: a group label, or a cell's wrapped line, the
    next row then near that line; or up to three lines of a cell set on its row's last:
    ``held_line``),
    starting with a row of 2+ cells (two columns no further apart than 2.5 times the wider
    one), each with its header rows (``_head``: how many rows of the run head it). Text in
    columns does not qualify: its rows have one long line per column; nor does a page's
    footer under a run (``_footer``: the page's ``height`` places its bands), nor a block set
    off under a rule across the run (``rows.ruled_off``: an invoice's company footer). Then the
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
            and sum(_worded(ln.text) for ln in row) <= 3 * len(row)
            or labelled(row, width)
            or one_long(row, width)
            or described(row, width)
            or priced(row, width)
        )

    def close(end: int) -> None:
        nonlocal floor
        pairs = len(run) == 2 and all(len(r) >= 4 and labelled(r, width) for r in run)
        if len(run) < 3 and not pairs or len(cols) < 2:
            return  # fewer than three rows, unless two rows of two fields or more each
        if running_text(run):
            return  # a paragraph's lines beside values on their baselines
        widest = max(c[1] - c[0] for c in cols)
        if len(cols) == 2 and cols[1][0] - cols[0][1] >= FAR * widest:
            return  # two columns of short lines far apart: text columns, not a table
        head = _head(rows[floor:start], run[0], cols, short)
        runs.append((len(head), head + run))
        floor = end

    for i, row in enumerate(rows):
        if (
            run
            and (cells(row) or ends_held(held, row, width) and fits(row, cols) == len(row) >= 2)
            and fits(row, cols) >= max(1, len(row) - 1)
            and not _spaced_off(run, held, row, widest)
            and not ruled_off(run, held, row, rules)
            and near(held[-1] if wrapped(run[-1], held) else run[-1], row, 3)
            and not _footer(row, cols, height)
        ):
            for part in (*held, row):
                widest = max(widest, row_top(part) - row_bottom(run[-1]))
                run.append(part)
                cols = _widened(cols, part)
            held = []
            continue
        if (
            run
            and len(row) == 1
            and held_line(held, row[0], cols, short, run[-1])
            and fits(row, cols)
        ):
            held.append(row)  # a group label or a cell's first lines, if a row of cells follows
            continue
        if trailing(run, held):
            run += held  # the last row's later cell's lines under it (an item's description)
            held = []
        close(i - len(held))
        held = []
        run = [row] if cells(row) else []
        cols = _widened([], row) if run else []
        widest = -inf
        start = i
    if trailing(run, held):
        run += held
    close(len(rows))
    taken = {id(ln) for _, run in runs for row in run for ln in row}
    return runs + two_row_tables(rows, taken, width)  # two rows of two cells: a table too


def _worded(text: str) -> int:
    """How many of a line's words are not a number's digit groups, where it holds two groups or
    more (an IBAN's ``BE12 3456 7890 1234``, ``1 000,40``: one figure, not words of text); a
    lone number is a word (a section's ``7.2``, a listing's line number), as are a list's
    ``2332,`` and a sign or an operator (a formula's cases ``ϕ(t) = t −14``)."""
    words = text.split()
    groups = sum(bool(_DIGITS.match(word)) for word in words)
    return len(words) - groups if groups >= 2 else len(words)


def _footer(row: list[Line], cols: list[list[float]], height: float) -> bool:
    """A row in the page's top or bottom band (a running line's) with a line across the gap
    between two of the run's columns: a footer under a page-long grid, not its last row (a
    cell run on over the next one is no footer: it is not in the band)."""
    return all(in_band(ln, height) for ln in row) and any(
        sum(ln.x0 < x1 and x0 < ln.x1 for x0, x1 in cols) >= 2 for ln in row
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
        if not (fits(row, cols) or _over(row, cols)) or not near(row, below):
            break
        if len(row) == 1 and not (row[0].x0 > cols[0][1] or near(row, below, 0.3)):
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
