"""Reading order of a page's pieces (text lines, tables, figures) by their geometry: columns
one after the other, bands across the page between them, by recursive cuts along empty
strips (an XY-cut that prefers columns: a gutter that runs through a region splits it before
the gaps between its paragraphs do). A piece is anything with a box (``x0 y0 x1 y1``). Margin
notes set close beside the body's column are told apart first (``margin_notes``): no cut
parts them from it; rows of a line and its value (text/values.py) are read row by row. How
two lines relate (a row's, a wrap's) is text/relations.py's."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from operator import attrgetter
from typing import TYPE_CHECKING, Protocol, TypeVar

from ...sanitize import lazy_pattern
from .text.relations import ENDS, LINE_NUMBER
from .text.values import any_value, value_segments

if TYPE_CHECKING:
    from .text.lines import Line
    from .text.pieces import Block

GUTTER = 6.0  # points of empty width between columns at least
_COLUMN_CHARS = 40  # text each side of a gutter needs (or a table, a figure, three lines)
_FORM_SHARE = 0.6  # lines of a side paired across the gap at this share, and short: a form
_FORM_CHARS = 25  # a form's label or value: shorter than this
_LABELLED = lazy_pattern(r"\s*(?:\(?\d{1,3}[.)]|\([a-z]\)|\[\w{1,4}\])\s")  # an item's: "(2) "
_FORM_GAP = 72.0  # points: a form's values start closer than this to its labels' ends


class Piece(Protocol):
    @property
    def x0(self) -> float: ...
    @property
    def y0(self) -> float: ...
    @property
    def x1(self) -> float: ...
    @property
    def y1(self) -> float: ...


@dataclass
class Item:
    """A table or a figure to place in reading order (its ``block`` written where it lands)."""

    x0: float
    y0: float
    x1: float
    y1: float
    block: Block


P = TypeVar("P", bound=Piece)
_LEFT, _TOP, _RIGHT = attrgetter("x0"), attrgetter("y0"), attrgetter("x1")
Interval = tuple[float, float]


def reading_order(
    pieces: Sequence[P], chars: Callable[[P], int], *, rtl: bool = False
) -> list[list[P]]:
    """The pieces as runs that read top to bottom (a column, or a band of one), in reading
    order; ``chars``: a piece's visible characters (0 for a table or figure: it counts as
    content enough for a column); ``rtl``: columns right to left."""
    if not pieces:
        return []
    out: list[list[P]] = []
    _cut(list(pieces), chars, rtl, out)
    return out


def _cut(pieces: list[P], chars: Callable[[P], int], rtl: bool, out: list[list[P]]) -> None:
    if len(pieces) == 1:
        out.append(pieces)
        return
    lo, hi = min(map(_LEFT, pieces)), max(map(_RIGHT, pieces))
    bands = None  # made once a region: for its rows of a value, else for its cut
    if any_value(pieces, chars, hi):  # rows of a line and its value: read row by row
        bands = _bands(pieces)
        segments = value_segments(bands, chars, (lo, hi), _split)
        if segments is not None:
            _read_on(segments, chars, rtl, out)
            return
    sides = column_sides(pieces, chars)
    if sides is not None:
        for side in sides[::-1] if rtl else sides:
            _cut(side, chars, rtl, out)
        return
    bands = bands or _bands(pieces)
    if len(bands) == 1:
        out.append(_rows(pieces, rtl))
        return
    groups = _joined(bands, lo, hi)
    if len(groups) == 1:  # their gutter did not pass as columns: band by band
        groups = bands
    _read_on([(group, False) for group in groups], chars, rtl, out)


def _read_on(
    groups: list[tuple[list[P], bool]], chars: Callable[[P], int], rtl: bool,
    out: list[list[P]],
) -> None:  # fmt: skip
    """The groups' runs in order (a group flagged True: rows of a line and its value, read
    row by row); runs of one column one after another read on as one run."""
    single = False  # the last run out came from a band that did not split: one column
    for group, rows in groups:
        runs: list[list[P]] = [group] if len(group) == 1 else []  # one piece: its own run
        if rows:
            runs = [_rows(group, rtl)]
        elif not runs:
            _cut(group, chars, rtl, runs)
        if len(runs) == 1 and single:
            out[-1].extend(runs[0])  # bands of one column read on as one run
            continue
        out.extend(runs)
        single = len(runs) == 1


def column_sides(
    pieces: list[P], chars: Callable[[P], int], *, forms: bool = True
) -> tuple[list[P], list[P]] | None:
    """The pieces left and right of a gutter that runs through them all (``_column_gap``;
    ``forms``: not a form's labels and values), or None: one column (one piece: no gap between
    pieces, most of a page's groups of bands)."""
    gap = _column_gap(pieces, chars, forms) if len(pieces) > 1 else None
    if gap is None:
        return None
    return [p for p in pieces if p.x1 <= gap], [p for p in pieces if p.x1 > gap]


def region_columns(pieces: list[P], chars: Callable[[P], int]) -> list[list[P]]:
    """The columns of the pieces' regions, one cut deep: the two sides of a gutter through
    them all, else those of each group of bands a gutter runs through (``_joined``: the two
    columns under a title or a table across the page); none where no region has columns."""
    sides = column_sides(pieces, chars)
    if sides is not None:
        return list(sides)
    groups = _joined(_bands(pieces), min(map(_LEFT, pieces)), max(map(_RIGHT, pieces)))
    return [side for group in groups for side in column_sides(group, chars) or ()]


def _free(pieces: list[P], lo: float, hi: float) -> list[Interval]:
    """The empty x intervals between ``lo`` and ``hi`` no piece covers."""
    free: list[Interval] = []
    edge = lo
    for p in pieces if len(pieces) == 1 else sorted(pieces, key=_LEFT):
        x0, x1 = p.x0, p.x1  # (a test, not max(): this runs for every band of every page)
        if x0 > edge:
            free.append((edge, x0))
        if x1 > edge:
            edge = x1
    if edge < hi:
        free.append((edge, hi))
    return free


def _column_gap(pieces: list[P], chars: Callable[[P], int], forms: bool = True) -> float | None:
    """The middle of the widest empty vertical strip through all the pieces that splits them
    into columns: GUTTER wide or more, with content each side (``_COLUMN_CHARS``, a table or
    figure, or three lines), and not a form (short labels left, short values right, paired
    line by line)."""
    lo, hi = min(map(_LEFT, pieces)), max(map(_RIGHT, pieces))
    inner = [(a, b) for a, b in _free(pieces, lo, hi) if a > lo and b < hi and b - a >= GUTTER]
    for a, b in sorted(inner, key=lambda g: g[0] - g[1]):  # widest first
        mid = (a + b) / 2
        left = [p for p in pieces if p.x1 <= mid]
        right = [p for p in pieces if p.x1 > mid]
        if (
            _substantial(left, chars)
            and _substantial(right, chars)
            and not (forms and _form(left, right, chars))
        ):
            return mid
    return None


def line_chars(line: Line) -> int:
    """A line's weight on its side of a gutter (``chars``): its characters, at least one (a
    weight of 0 is a table's or a figure's, ``_substantial``)."""
    return max(1, len(line.text.strip()))


def _substantial(side: list[P], chars: Callable[[P], int]) -> bool:
    total = 0
    for p in side:
        n = chars(p)
        if n == 0:
            return True  # a table or a figure
        total += n
    return total >= _COLUMN_CHARS or len(side) >= 3


def _form(left: list[P], right: list[P], chars: Callable[[P], int]) -> bool:
    """Short lines on both sides, most of them side by side with one across and close to it
    (under ``_FORM_GAP``): labels and values (or a table's columns), not columns of text, nor
    a typeset example beside its source (the left side mostly words, not monospaced, one line
    of them long, the right mostly monospaced: brandeis-problemset p7; a listing's numbers
    beside its code, a table of accents beside their codes stay one)."""
    if min(p.x0 for p in right) - max(p.x1 for p in left) >= _FORM_GAP:
        return False
    if (
        _mostly(right, _coded) and _mostly(left, lambda p: not _coded(p) and _worded(p))
        and any(chars(p) >= _FORM_CHARS for p in left)  # a line of prose, wrapped: no label
    ):  # fmt: skip
        return False
    short = [p for p in left if 0 < chars(p) < _FORM_CHARS]
    if len(short) < _FORM_SHARE * len(left) or not short:
        return False
    across = [p for p in right if 0 < chars(p) < _FORM_CHARS]
    if len(across) < _FORM_SHARE * len(right):
        return False
    paired = sum(any(min(p.y1, q.y1) - max(p.y0, q.y0) > 0 for q in across) for p in short)
    return paired >= _FORM_SHARE * len(left)


def _mostly(side: list[P], test: Callable[[P], bool]) -> bool:
    """Over half the side's pieces pass ``test``."""
    return 2 * sum(map(test, side)) > len(side)


def _coded(p: Piece) -> bool:
    """A line set in a monospaced face (a table or a figure is none)."""
    return bool(getattr(p, "mono", False))


def _worded(p: Piece) -> bool:
    """A line with a word in it (no line number, no table or figure)."""
    return any(c.isalpha() for c in getattr(p, "text", ""))


def _bands(pieces: list[P]) -> list[list[P]]:
    """The pieces split where an empty horizontal strip runs across all of them."""
    bands: list[list[P]] = []
    bottom = float("-inf")
    for p in sorted(pieces, key=_TOP):
        if bands and p.y0 < bottom:
            bands[-1].append(p)
            if p.y1 > bottom:  # max(bottom, p.y1), as a test
                bottom = p.y1
        else:
            bands.append([p])
            bottom = p.y1
    return bands


def _joined(bands: list[list[P]], lo: float, hi: float) -> list[list[P]]:
    """Neighbouring bands joined while an empty vertical strip (GUTTER wide) runs through
    all of them: lines of two columns that happen to leave a gap at the same height stay
    columns. A band that shares a strip with the band below it but not with the group above
    (the row of a heading and the right column's first line, under a centred author block;
    the row of two columns' heads under a full-width abstract's short last line: the strip
    the two bands below share, where they share one) opens a group of its own."""
    groups: list[list[P]] = []
    free: list[Interval] = []
    # only strips GUTTER wide can hold one: their intersections are no wider (a column's
    # ragged edges and indents left out of every intersection below)
    frees = [
        _margins(band[0], lo, hi)
        if len(band) == 1
        else [(a, b) for a, b in _free(band, lo, hi) if b - a >= GUTTER]
        for band in bands
    ]
    for i, band in enumerate(bands):
        here = frees[i]
        common = _intersect(free, here) if groups else []
        # it shares its gutter with the band below, not the one above: a column's top
        if (
            _gutter(common, lo, hi)
            and not _column_top(frees, i, common, lo, hi)
            and not _heads_below(bands, frees, i, common, lo, hi)
        ):
            groups[-1].extend(band)
            free = common
        elif (
            len(band) == 1 and i and len(bands[i - 1]) == 1 and not _gutter(free, lo, hi)
            and _reads_on(bands[i - 1][0], band[0], bands[i + 1 : i + 2], hi - lo)
        ):  # fmt: skip
            groups[-1].extend(band)  # a paragraph's short last line: no top of the columns below
            # nor a margin's strip the bands below may make a gutter of; a wrap set left of
            # its first line that opens a display (a colon) keeps its own margins, which take
            # the display in (apssamp p6: the equations under it read row by row, each number
            # after its equation; bgteubner p105's ``nen.`` over an index's columns none)
            free = here if _opens_display(bands[i - 1][0], band[0]) else []
        else:
            groups.append(list(band))
            free = here
    return groups


def _opens_display(a: P, b: P) -> bool:
    """``b``, a paragraph's wrap set left of its first line ``a``, ends with a colon."""
    return b.x0 < a.x0 - 1.0 and getattr(b, "text", "").rstrip().endswith(":")


def _reads_on(a: P, b: P, below: list[list[P]], width: float) -> bool:
    """``b``, a band's one line, is set under ``a``, the one line of the band above, as a
    paragraph's next line is (the same left, or left of ``a`` set in as a first line is:
    aipsamp p7's ``ment:``; as tall, closer than half its height) and
    shorter, ``a`` a paragraph's line (over 0.6 of the region's ``width``: no byline's nor
    address's; ending no sentence: no list item's), no line so close under ``b`` (``below``:
    the next band, if any; its first piece the top one): a paragraph's last line, which a
    gutter of the pictures or columns under it must not take from it (a column's first line,
    its column's next line close under it, is none). Both prose (``_prose``), ``b`` opening
    with no item's label (``(2)``)."""
    height = a.y1 - a.y0
    if not (
        -2.5 * height < b.x0 - a.x0 < 1.0 and b.x1 < a.x1 and 0 <= b.y0 - a.y1 < 0.5 * height
        and a.x1 - a.x0 > 0.6 * width
        and abs(b.y1 - b.y0 - height) < 0.2 * height
        and (not below or below[0][0].y0 - b.y1 >= 0.5 * height)
    ):  # fmt: skip
        return False  # (the geometry first: most bands of a page fail it at once)
    text = getattr(a, "text", None)  # a line's (a table or a figure has none)
    return (
        isinstance(text, str) and not ENDS.search(text.rstrip())  # no item's or row's end
        and _prose(a, height) and _prose(b, height)
        and not _LABELLED.match(getattr(b, "text", ""))  # no next item ("(2) ...")
    )  # fmt: skip


def _prose(p: Piece, height: float) -> bool:
    """``p`` a line of prose: no code (monospaced, or a listing's numbered line) nor a row of
    cells (a gap over two ems in it: a mark or an amount set at the right)."""
    if _coded(p) or LINE_NUMBER.match(getattr(p, "text", "")):
        return False
    return all(x - end <= 2 * height for x, _, end in getattr(p, "cuts", ()))


def _heads_below(
    bands: list[list[P]], frees: list[list[Interval]], i: int, common: list[Interval],
    lo: float, hi: float,
) -> bool:  # fmt: skip
    """Band ``i``, one piece, stands closer to the band below than to the group above (whose
    strips it shares: ``common``), and the gutter does not run on below it: a side head over
    the text across the page under two columns, no column's last line."""
    if len(bands[i]) > 1 or i + 1 >= len(bands):
        return False
    p = bands[i][0]
    above = p.y0 - max(q.y1 for q in bands[i - 1])
    below = bands[i + 1][0].y0 - p.y1
    return (
        above > 2 * max(below, 0.0)
        and above > (p.y1 - p.y0) / 2
        and not _gutter(_intersect(common, frees[i + 1]), lo, hi)
    )


def _margins(p: Piece, lo: float, hi: float) -> list[Interval]:
    """``_free`` of one piece GUTTER wide or more (most bands: one line), without a sort."""
    x0, x1 = p.x0, p.x1
    edge = x1 if x1 > lo else lo
    out = [(lo, x0)] if x0 > lo and x0 - lo >= GUTTER else []
    if edge < hi and hi - edge >= GUTTER:
        out.append((edge, hi))
    return out


def _column_top(
    frees: list[list[Interval]], i: int, common: list[Interval], lo: float, hi: float
) -> bool:
    """Band ``i`` (free strips ``frees[i]``, ``common`` with the group above) shares a gutter
    with the band below (or the gutter the next two share) and not ``common``: looked at only
    where the band shares a gutter with the group above (``_joined``)."""
    if i + 1 >= len(frees):
        return False
    after = frees[i + 1]
    if i + 2 < len(frees):  # the gutter the next two bands share
        deeper = _intersect(after, frees[i + 2])
        after = deeper if _gutter(deeper, lo, hi) else after
    return _gutter(_intersect(frees[i], after), lo, hi) and not _gutter(
        _intersect(common, after), lo, hi
    )


def _split(pieces: list[P]) -> bool:
    """A strip GUTTER wide runs between the pieces (a row's values aside: no row of them)."""
    left, right = min(map(_LEFT, pieces)), max(map(_RIGHT, pieces))
    return _gutter(_free(pieces, left, right), left, right)


def _gutter(free: list[Interval], lo: float, hi: float) -> bool:
    """A strip GUTTER wide or more inside ``lo``..``hi`` (every band of every page asks: a
    loop, not any() over a generator, which costs 2x for the strip or two a band has)."""
    for a, b in free:  # noqa: SIM110 - any() over a generator: 2x the time here
        if b - a >= GUTTER and lo < a and b < hi:
            return True
    return False


def _intersect(a: list[Interval], b: list[Interval]) -> list[Interval]:
    out: list[Interval] = []
    i = j = 0
    na, nb = len(a), len(b)
    while i < na and j < nb:
        (a0, a1), (b0, b1) = a[i], b[j]
        lo, hi = (b0 if b0 > a0 else a0), (b1 if b1 < a1 else a1)  # max(), min(), inline
        if lo < hi:
            out.append((lo, hi))
        if a1 < b1:
            i += 1
        else:
            j += 1
    return out


def _rows(pieces: list[P], rtl: bool) -> list[P]:
    """Pieces top to bottom, side by side ones (sharing half the smaller height) left to right
    (right to left on ``rtl`` pages)."""
    ordered = sorted(pieces, key=lambda p: p.y0)
    out: list[P] = []
    row: list[P] = []
    for p in ordered:
        if row:
            first = row[0]
            overlap = min(first.y1, p.y1) - max(first.y0, p.y0)
            if overlap >= 0.5 * min(first.y1 - first.y0, p.y1 - p.y0):
                row.append(p)
                continue
            out.extend(sorted(row, key=lambda q: -q.x1 if rtl else q.x0))
        row = [p]
    out.extend(sorted(row, key=lambda q: -q.x1 if rtl else q.x0))
    return out


_NOTE_REACH = 14.0  # points: a margin note ends at most this far left of the body's column


def margin_notes(lines: Sequence[Line], width: float, body: float) -> set[int]:
    """The ids of the page's margin notes: short lines set smaller than the body (under 0.85
    of its size) that end just left of the column its full-width body lines start at (a
    LaTeX ``\\marginpar``, an option's name beside its paragraph). Read with the body, they
    would open a paragraph or break it with a block of their own."""
    full = [ln for ln in lines if ln.x1 - ln.x0 > 0.4 * width and abs(ln.size - body) < 1]
    if len(full) < 3:
        return set()
    left = Counter(round(ln.x0) for ln in full).most_common(1)[0][0]
    return {
        id(ln)
        for ln in lines
        if left - _NOTE_REACH <= ln.x1 < left - 1
        and ln.x1 - ln.x0 < 0.3 * width
        and ln.size < 0.85 * body
        and not ln.rotated
    }
