"""Rows of a line and its value: a short value (an amount, a date, an exam's marks) set flush
right on its line's baseline, far right of it. A column cut would read such values after the
text of every column below them; order.py reads a band of these rows row by row instead. Most
regions hold no short piece at their right edge (``any_value``: the early way out)."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from ..order import Interval, P, Piece

VALUE_CHARS = 10  # a row's value: at most this many characters
_VALUE_EDGE = 2.0  # points: a row's value ends this close to the region's right edge
_NUMBER_STEPS = (5, 10)  # a margin's line numbers count in these steps: 5, 10, 15 ...
_VALUE_GAP = 6.0  # points: a row's value starts this far right of its line at least (a gutter)


def any_value(pieces: list[P], chars: Callable[[P], int], hi: float) -> bool:
    """A piece short enough for a value (``VALUE_CHARS``) ends at ``hi``, the region's right
    edge: the one test most regions of a page take (a loop: it runs for every cut)."""
    edge = hi - _VALUE_EDGE
    for p in pieces:  # noqa: SIM110 - any() over a generator: slower on every region
        if p.x1 >= edge and 0 < chars(p) <= VALUE_CHARS:
            return True
    return False


def value_segments(
    bands: list[list[P]], chars: Callable[[P], int], edges: Interval,
    split: Callable[[list[P]], bool],
) -> list[tuple[list[P], bool]] | None:  # fmt: skip
    """The region's ``bands`` in runs, each flagged whether it holds rows of a line and its
    value (``_value_rows``; ``split``: a gutter runs between pieces, two columns' lines, a
    column's equation and its number), or None where no band does."""
    if _line_numbers(bands, chars, edges[1]):
        return None
    flags = []
    for i in range(len(bands)):
        rest = _value_rows(bands, i, chars, edges)
        flags.append(rest is not None and not split(rest))
    for end, inner in ((0, 1), (-1, -2)):  # a running head's or foot's page number: no rows
        if len(flags) > 1 and not flags[inner]:
            flags[end] = False
    if not any(flags):
        return None
    segments: list[tuple[list[P], bool]] = []
    for band, flag in zip(bands, flags, strict=True):
        if segments and segments[-1][1] == flag:
            segments[-1][0].extend(band)
        else:
            segments.append((list(band), flag))
    return segments


def _line_numbers(bands: list[list[P]], chars: Callable[[P], int], hi: float) -> bool:
    """The short pieces at the region's right edge are two or more bare numbers counting down
    the page in a step of 5 or 10 (``_NUMBER_STEPS``): a bill's margin line numbers, beside
    whatever line of its text stands there, no values of rows."""
    edge = hi - _VALUE_EDGE
    numbers = [
        getattr(p, "text", "").strip()
        for band in bands
        for p in band
        if p.x1 >= edge and 0 < chars(p) <= VALUE_CHARS
    ]
    if len(numbers) < 2 or not all(n.isdecimal() for n in numbers):
        return False
    steps = {int(b) - int(a) for a, b in zip(numbers, numbers[1:], strict=False)}
    return len(steps) == 1 and steps <= set(_NUMBER_STEPS)


def _value_rows(
    bands: list[list[P]], i: int, chars: Callable[[P], int], edges: Interval
) -> list[P] | None:
    """Band ``i``'s pieces other than its values where each short piece ending at the
    region's right edge is a line's value (``_valued``), else None."""
    band, (lo, hi) = bands[i], edges
    values = [p for p in band if p.x1 >= hi - _VALUE_EDGE and 0 < chars(p) <= VALUE_CHARS]
    if not values or len(values) == len(band):
        return None
    rest = [p for p in band if all(p is not v for v in values)]
    near: list[P] = []
    plain: list[P] = []  # the pieces of a band next to it that holds no value
    for j in (i - 1, i + 1):
        if 0 <= j < len(bands):
            near.extend(bands[j])
            if not any_value(bands[j], chars, hi):
                plain.extend(bands[j])
    start = lo + (hi - lo) / 3
    if not all(_valued(v, rest, (near, plain), chars, start) for v in values):
        return None
    return rest


def _valued(
    v: P, rest: list[P], around: tuple[list[P], list[P]], chars: Callable[[P], int], start: float
) -> bool:
    """``v`` shares a baseline with a piece of ``rest`` ``_VALUE_GAP`` or more left of it that
    starts left of ``start`` (the region's first third: a row across it, not an index's right
    column), with only short pieces between them (a quantity, a price: no index's entry of a
    column between, no table); no longer piece in the bands next to it (``near``) starts right of that piece and
    runs over or under ``v`` (a column's line, ``v`` its paragraph's short last line), and no
    line of a band next to it without a value (``plain``) starts where that piece does and runs
    as far (running text, ``v`` a bill's line number in the margin)."""
    near, plain = around
    row = [p for p in rest if _beside(p, v)]
    lines = [p for p in row if p.x0 < start]
    if not lines:
        return False
    p = max(lines, key=lambda q: q.x1)  # the line's last piece in the first third
    over = p.x1 + _VALUE_GAP  # a longer piece starting right of this runs over ``v``
    return (
        v.x0 - p.x1 >= _VALUE_GAP
        and all(0 < chars(q) <= VALUE_CHARS for q in row if q.x0 >= p.x1)  # a price, no entry
        and not any(
            q.x0 > over and q.x0 < v.x1 and q.x1 > v.x0 and chars(q) > VALUE_CHARS for q in near
        )
        and not any(abs(q.x0 - p.x0) < 1 and q.x1 >= p.x1 for q in plain)
    )


def _beside(p: Piece, v: Piece) -> bool:
    """``p`` shares half the smaller height with ``v``: one row."""
    return min(p.y1, v.y1) - max(p.y0, v.y0) >= 0.5 * min(p.y1 - p.y0, v.y1 - v.y0)
