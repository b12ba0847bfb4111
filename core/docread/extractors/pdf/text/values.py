"""Rows of a line and its value: a short value (an amount, a date, an exam's marks) set flush
right on its line's baseline, far right of it. A column cut would read such values after the
text of every column below them; order.py reads a band of these rows row by row instead. Most
regions hold no short piece at their right edge (``any_value``: the early way out)."""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Callable
from typing import TYPE_CHECKING

from ....sanitize import lazy_pattern

if TYPE_CHECKING:
    from ..order import Interval, P, Piece

VALUE_CHARS = 10  # a row's value: at most this many characters
VALUE = lazy_pattern(  # what a row's value looks like: no margin key, line number or index page
    r"\s*(?:(?:[.·…]\s?){3,}\s*\d{1,4}\s?分?"  # a leader's marks or page: "······2分"
    r"|[-−]?[$€£¥₹]\s?\d[\d,.]*"  # a currency mark: "$12", "€ 4,50"
    # a price with two decimals: "1,204.50", "4,50 EUR"
    r"|[-−]?\d{1,3}(?:[,.' ]\d{3})*[.,]\d{2}\s?(?:[$€£¥₹]|EUR|USD|GBP)?"
    r"|[(（]\s*(?:\d{1,3}(?:\.\d)?\s?(?:marks?|pts?|points?|P\.?|Punkte|分))?\s*[)）]"  # "( )"
    r"|\d{1,3}(?:\.\d)?\s?(?:分|marks?|pts?|points?|Punkte)"  # an exam's marks: "3分"
    r"|\d{1,2}:\d{2}(?:\s?[ap]\.?m\.?)?"  # a time: "08:30"
    r"|\d{1,2}[./-]\d{1,2}[./-]\d{2,4}|\d{4}-\d{2}-\d{2})\s*$"  # a date: "3.12.2024"
)
_VALUE_EDGE = 2.0  # points: a row's value ends this close to the region's right edge
_VALUE_GAP = 6.0  # points: a row's value starts this far right of its line at least (a gutter)


def _value(p: P, chars: Callable[[P], int], edge: float) -> bool:
    """``p`` ends at ``edge`` and reads as a row's value (``VALUE``)."""
    return (
        p.x1 >= edge and 0 < chars(p) <= VALUE_CHARS
        and VALUE.fullmatch(getattr(p, "text", "")) is not None
    )  # fmt: skip


def any_value(pieces: list[P], chars: Callable[[P], int], hi: float) -> bool:
    """A piece short enough for a value (``VALUE_CHARS``) ends at ``hi``, the region's right
    edge, reading as a value (``VALUE``): the one test most regions of a page take (a loop:
    it runs for every cut)."""
    edge = hi - _VALUE_EDGE
    for p in pieces:  # noqa: SIM110 - any() over a generator: slower on every region
        if _value(p, chars, edge):
            return True
    return False


def value_segments(
    bands: list[list[P]], chars: Callable[[P], int], edges: Interval,
    split: Callable[[list[P]], bool],
) -> list[tuple[list[P], bool]] | None:  # fmt: skip
    """The region's ``bands`` in runs, each flagged whether it holds rows of a line and its
    value (``_value_rows``; ``split``: a gutter runs between pieces, two columns' lines, a
    column's equation and its number), or None where no band does."""
    flags = []
    for i in range(len(bands)):
        rest = _value_rows(bands, i, chars, edges)
        flags.append(rest is not None and not split(rest))
    if not any(flags):
        return None
    segments: list[tuple[list[P], bool]] = []
    for band, flag in zip(bands, flags, strict=True):
        if segments and segments[-1][1] == flag:
            segments[-1][0].extend(band)
        else:
            segments.append((list(band), flag))
    return segments


def _value_rows(
    bands: list[list[P]], i: int, chars: Callable[[P], int], edges: Interval
) -> list[P] | None:
    """Band ``i``'s pieces other than its values where each short piece ending at the
    region's right edge is a line's value (``_valued``), else None."""
    band, (lo, hi) = bands[i], edges
    values = [p for p in band if _value(p, chars, hi - _VALUE_EDGE)]
    if not values or len(values) == len(band):
        return None
    ids = {id(v) for v in values}
    rest = sorted((p for p in band if id(p) not in ids), key=lambda q: q.y0)
    near: list[P] = []
    plain: list[P] = []  # the pieces of a band next to it that holds no value
    for j in (i - 1, i + 1):
        if 0 <= j < len(bands):
            near.extend(bands[j])
            if not any_value(bands[j], chars, hi):
                plain.extend(bands[j])
    tops, tall = [p.y0 for p in rest], max(p.y1 - p.y0 for p in rest)
    margin = _justified([p.x1 for p in (*near, *rest) if p.x1 - p.x0 >= (hi - lo) / 2])
    for v in values:  # its row's pieces: those of ``rest`` starting up to ``tall`` above it
        row = rest[bisect_left(tops, v.y0 - tall) : bisect_left(tops, v.y1)]
        if v.x0 > margin or not _valued(v, row, plain):
            return None  # a value right of a justified block's edge: a margin note, a key
    return rest


def _justified(ends: list[float]) -> float:
    """The leftmost x where two or more of the long lines around a band end together (``ends``:
    their right ends): a justified text block's right edge, a margin right of it."""
    ends.sort()
    return next((a for a, b in zip(ends, ends[1:], strict=False) if b - a < 1), float("inf"))


def _valued(v: P, row: list[P], plain: list[P]) -> bool:
    """``v`` shares a baseline with a piece of ``row`` (the band's pieces near its height)
    ``_VALUE_GAP`` or more left of it, and no line of a band next to it without a value
    (``plain``) starts where that piece does and runs as far (``v`` beside a column's last
    line, the column going on above it)."""
    lines = [p for p in row if p.x1 <= v.x0 - _VALUE_GAP and _beside(p, v)]
    if not lines:
        return False
    p = max(lines, key=lambda q: q.x1)  # the line's last piece before ``v``
    return not any(abs(q.x0 - p.x0) < 1 and q.x1 >= p.x1 for q in plain)


def _beside(p: Piece, v: Piece) -> bool:
    """``p`` shares half the smaller height with ``v``: one row."""
    return min(p.y1, v.y1) - max(p.y0, v.y0) >= 0.5 * min(p.y1 - p.y0, v.y1 - v.y0)
