"""What a row of an unruled run may be (``unruled.unruled_runs``): its lines in the run's
columns, a form's ``label: value`` pairs, a name and what it is, one long cell between short
ones, an item's row on a bill (a price last); a one-line row held between rows of cells (a group
label, a cell's first lines) and the row that ends it, or under the last (``trailing``); how near
two rows are, and where a run ends (a closing rule)."""

from __future__ import annotations

import re
from bisect import bisect_left, bisect_right
from collections.abc import Callable
from typing import TYPE_CHECKING

from .cells import row_bottom, row_top
from .cuts import ALIGN

if TYPE_CHECKING:
    from collections.abc import Sequence

    from ..text.lines import Box, Line

_LABEL = re.compile(
    r"^\s*(?:\d{1,2}\.\s+)?[^\W\d_][^:]{0,30}:\s*$"
)  # "Booking ID:", "3. APPROVED AS TO FORM:"


_CODE = r"(?:USD|EUR|GBP|INR|CHF|JPY|CAD|AUD|CNY|SEK|NOK|DKK|PLN|CZK|Rs\.?)"  # a currency's
_SIGN = r"[$€£₹¥]"  # ... code or sign
_DIGITS = r"(?:\d{1,3}(?:[ ',.]\d{3})+|\d+)"  # 1939, 1 000, 12,500: groups of three, no run
_MONEY = re.compile(  # a currency's mark before or after: Rs 1939, $7.50, EUR 12, 45,93 €, 0 €
    rf"^(?:{_CODE}\s?|{_SIGN}\s?)[-−]?{_DIGITS}(?:[.,]\d\d)?$"
    rf"|^[-−]?{_DIGITS}(?:[.,]\d\d)?\s?(?:{_SIGN}|{_CODE})$"
)
_CENTS = re.compile(rf"^[-−]?{_DIGITS}[.,]\d\d$")  # to the cent, no mark: 3,89, 1 000.40
_FIGURE = re.compile(r"^[-−]?[\d.,' ]*\d$")  # a number as set (any decimals)


def price(text: str) -> bool:
    """A price: a currency's mark and a number, or a number to the cent (``_CENTS``)."""
    return _MONEY.match(text) is not None or _CENTS.match(text) is not None


def priced(row: list[Line], width: float) -> bool:
    """An item's row on a bill: its last cell a price (a currency's sign or code, ``Rs 1939``,
    ``56,02 €``; or two decimals, ``3,89``, when the row's other numbers are whole or to the
    cent too: not a table of measures, ``0.1 | 0.24 | 2.46``), the others up to 12 words each
    and under ``0.6`` of the page wide (``Rs 1939 x 1 Night x 1 Room`` between a charge and
    its amount)."""
    *rest, last = sorted(row, key=lambda ln: ln.x0)
    cells = [ln.text.strip() for ln in rest]
    return (
        bool(rest)
        and (
            _MONEY.match(last.text.strip()) is not None
            or _CENTS.match(last.text.strip()) is not None
            and all(_CENTS.match(c) or c.isdigit() for c in cells if _FIGURE.match(c))
        )
        and all(len(ln.text.split()) <= 12 and ln.x1 - ln.x0 < 0.6 * width for ln in rest)
    )


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
        return (
            short(line)
            or words <= 12
            and (
                any(abs(line.x0 - c[0]) <= ALIGN for c in cols[1:])
                and any(ln.style == line.style for ln in above)
                or any(_set_in(line, ln) for ln in above[1:])
            )
        )
    last = held[-1][0]
    return (
        len(held) < 3
        and abs(line.x0 - last.x0) <= ALIGN
        and _under(line, last, held[0][0].y0 - max(ln.y1 for ln in above), billed(above))
        and len(line.text.split()) <= 12
    )


def _under(line: Line, last: Line, first: float, bill: bool) -> bool:
    """``line`` is right under ``last``: less than half a line between, or, under an item's
    row on a bill (``bill``), as far under it as the first held line is under that row
    (``first``, under a line: the item's description lines set at the row's own leading)."""
    gap = line.y0 - last.y1
    return 0 <= gap < 0.5 * last.height or bill and 0 <= gap < last.height and abs(gap - first) <= 1


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
    it (less than half a line between), starting where one of its lines starts; or, where
    ``row`` is an item's on a bill (``billed``), the first held line under one of its cells
    within a line (its description lines, set at the row's own leading)."""
    if not held:
        return False
    ln, first = held[-1][0], held[0][0]
    return (
        any(
            abs(ln.x0 - cell.x0) <= ALIGN and 0 <= ln.y0 - cell.y1 + 0.5 * cell.height < cell.height
            for cell in row
        )
        or billed(row)
        and any(
            abs(first.x0 - cell.x0) <= ALIGN and 0 <= first.y0 - cell.y1 < cell.height
            for cell in row
        )
    )


def billed(row: list[Line]) -> bool:
    """A row whose last line is a price (``price``): an item's on a bill."""
    return price(max(row, key=lambda ln: ln.x1).text.strip())


def running_text(run: list[list[Line]]) -> bool:
    """The run's first column reads on as a paragraph (three rows or more, four words or more
    a cell, each cell after the first opening in lower case): running text beside a list of
    prices or values on its baselines, no table's column."""
    firsts = [min(row, key=lambda ln: ln.x0).text.strip() for row in run if row]
    return (
        len(firsts) >= 3
        and all(len(cell.split()) >= 4 for cell in firsts)
        and all(cell[:1].islower() for cell in firsts[1:])
    )


def near(upper: list[Line], lower: list[Line], lines: float = 2) -> bool:
    """Two rows no more than ``lines`` line heights apart."""
    height = max(ln.y1 - ln.y0 for ln in lower)
    return min(ln.y0 for ln in lower) - max(ln.y1 for ln in upper) <= lines * height


def trailing(run: list[list[Line]], held: list[list[Line]]) -> bool:
    """The one-line rows ``held`` under the last row of a run of three rows or more, an item's
    on a bill (``billed``), are the description lines of one of its cells after the first
    (``wrapped``) where an item above has such lines too, from the same start (``_described``):
    not a note under items without any (``All prices include VAT``), nor a line at the run's
    first column, nor a line under a table of other rows (the next paragraph, a code line under
    a macro's description), nor a two-row head's last line (a run too short stays none)."""
    return (
        len(run) >= 3
        and bool(held)
        and billed(run[-1])
        and wrapped(run[-1], held)
        and held[0][0].x0 > min(ln.x0 for r in run for ln in r) + ALIGN
        and _described(run, held[0][0])
    )


def _described(run: list[list[Line]], line: Line) -> bool:
    """An item's row of ``run`` (``billed``) with a one-line row right under it starting where
    ``line`` starts: an item's description line above the last."""
    return any(
        len(b) == 1 and abs(b[0].x0 - line.x0) <= ALIGN and billed(a) and wrapped(a, [b])
        for a, b in zip(run, run[1:-1], strict=False)
    )


def ruled_off(
    run: list[list[Line]], held: list[list[Line]], row: list[Line], rules: Sequence[Box]
) -> bool:
    """A row in a smaller type than the run's last row, under a rule across half the run's
    width or more, set off from a run of three rows or more (or its one-line rows ``held`` under
    it) by over twice the usual gap between its last rows (the median of eight) and over a line,
    no rule between the run's rows but under its first (a head's): a block under an unruled
    table's closing rule (an invoice's company footer in columns), not the next row of a table
    ruled between its rows (a CV's language grid, its rows in its type). ``rules`` sorted top
    down (bisected: a tall page ruled under every row costs no scan of them all a row)."""
    if len(run) < 3 or not rules or max(ln.size for ln in row) >= min(ln.size for ln in run[-1]):
        return False  # a row in the run's own type: the next row under a rule between rows
    last = row_bottom(held[-1] if held else run[-1])
    top = row_top(row)
    x0 = min(ln.x0 for ln in run[-1])
    x1 = max(ln.x1 for ln in run[-1])
    under = bisect_left(rules, last, key=_y)  # the first rule under the run
    between = rules[under : bisect_right(rules, top, key=_y)]
    if not any(min(r[2], x1) - max(r[0], x0) >= 0.5 * (x1 - x0) for r in between):
        return False
    first = row_top(run[1])  # a rule under the first row: its head's
    if under > bisect_right(rules, first, key=_y):
        return False  # ruled between its rows: the rule is the next row's
    tail = run[-9:]
    gaps = sorted(row_top(b) - row_bottom(a) for a, b in zip(tail, tail[1:], strict=False))
    return top - last > max(2 * gaps[len(gaps) // 2], min(ln.height for ln in row))


def _y(rule: Box) -> float:
    """A rule's height on the page (its top)."""
    return rule[1]
