"""A printed line's fragments joined into one line (``joined_rows``): the pieces MuPDF reads
apart on one baseline (a leader's dots and its page number, a script, a clause's number before
a tab stop, words joined by a drawn underscore, an end-of-proof mark flush right), table cells
and columns kept apart."""

from __future__ import annotations

from operator import attrgetter
from typing import TYPE_CHECKING

from ....sanitize import lazy_pattern
from ..tables.cuts import joined_cuts
from .lines import Line, visible

if TYPE_CHECKING:
    from collections.abc import Sequence

    from .lines import Box

_MERGE_GAP = 0.5  # ems: fragments of one printed line this close are one line
_SENTENCE_GAP = 1.5  # ems: a sentence's end and the next one's start this close are one line
_SENTENCE_END = lazy_pattern(r"[^\W\d_]{2}[.!?]\d{0,2}$")  # "method." "benchmarks.1"
_LABEL_GAP = 2.5  # ems: a number or bullet this close before text is that line's start
_TOMBSTONES = frozenset("■□∎")  # an end of proof set flush right: the end of its row's line
_TAB_GAP, _CLAUSE = 4.0, lazy_pattern(r"^\d{1,2}(?:[.)]|(?:\.\d{1,2}){1,3}\.?)$")  # "2.1": tab
_FIGURE = lazy_pattern(r"^[-+−±]?[\d.,]+%?$")  # a number in a table's cell: "0.0" "−4.8" "12%"
_STROKE = (1.5, 9.0)  # points: a drawn underscore's height and width at most
_WALL = 2.0  # points: a drawn column rule's width at most
_SCRIPT, _STACK = 0.8, 2.5  # a script's size to its line's at most; ems it may sit under
_REJOIN = 16  # fragments of a line joined again for a script, at most (text over text: linear)
_OPEN = 64  # lines open at once, at most: a printed line's fragments are a few; text printed
# over itself thousands of times (a content bomb) made the join quadratic


def joined_rows(
    lines: list[Line], rtl: bool = False, strokes: Sequence[Box] = (), walls: Sequence[Box] = ()
) -> list[Line]:
    """Fragments of one printed line joined into one Line: pieces side by side on the same
    baseline no more than half an em apart (a leader's dots and its page number, words MuPDF
    split into blocks, a subscript; one set under a raised mark in its place, ``_rejoined``), a
    number or bullet up to 2.5 ems before its text ("1" in a box before a heading), a clause's
    number up to 4 before a word of its size (a tab stop: ``2.1 Term``; not a cell's ``0.69``
    before the next column's smaller footnote);
    by "_" where one of the page's short ``strokes`` lies on the baseline between them (TeX's
    underscore: ``asn1_array2tree``). Right to left pages join from the right. Table cells,
    columns and right-aligned labels stay apart (wider gaps, one of the page's upright ``walls``
    between: a drawn column rule)."""
    if len(lines) < 2:
        return lines
    out: list[Line] = []
    active: list[int] = []  # indexes in out of lines still open (their bottom below this top)
    pieces: dict[int, list[Line]] = {}  # the fragments joined into out[i], where two or more
    for ln in sorted(lines, key=attrgetter("y0")):
        active = [i for i in active[-_OPEN:] if out[i].y1 > ln.y0] if active else active
        merged = tried = False  # tried: a rejoin, once a fragment (a page of text over text)
        if active and not ln.rotated:
            for i in active:
                other = out[i]
                if other.rotated or not same_row(other, ln):
                    continue
                joined = _join_fragments(other, ln, rtl, strokes, walls)
                if (
                    joined is None and not rtl and not tried and 1 < len(pieces.get(i, ())) < _REJOIN
                    and other.x0 < ln.x0 < other.x1 and _script(ln, max(p.size for p in pieces[i]))
                ):  # a script set inside it whose next word joined first (its top higher)
                    joined, tried = _rejoined(pieces[i], ln, strokes, walls), True
                if joined is not None:
                    out[i] = joined
                    pieces.setdefault(i, [other]).append(ln)
                    merged = True
                    break
        if not merged:
            active.append(len(out))
            out.append(ln)
    marks = [] if rtl else [ln for ln in out if ln.text.strip() in _TOMBSTONES]
    if marks:  # a mark left alone (no bullet of the text after it) may end its row's line
        out = [ln for ln in out if ln.text.strip() not in _TOMBSTONES]
    for mark in marks:
        at = _closing(out, mark, marks, walls)
        if at is None:
            out.append(mark)
        else:
            out[at] = _join_fragments(out[at], mark, rtl, strokes, walls, ended=True) or out[at]
    # back to content order (MuPDF's order of blocks: columns read one after the other)
    out.sort(key=attrgetter("block", "y0"))
    return out


def _script(ln: Line, size: float) -> bool:
    """Whether ``ln`` may be a sub- or superscript of a line of ``size`` (its largest piece's):
    one to four characters, a letter or digit among them (``e``, ``i∈I``; no end-of-proof
    mark), set smaller (not a matrix's entry or a fraction's part: the line's size)."""
    small = ln.size <= _SCRIPT * size
    return small and 0 < visible(ln.text) <= 4 and any(map(str.isalnum, ln.text))


def _rejoined(
    pieces: list[Line], script: Line, strokes: Sequence[Box], walls: Sequence[Box]
) -> Line | None:
    """A line's fragments joined again left to right with a script after the piece its middle
    lies over (``w(i)`` ``e`` ``from``; a big operator's limit after it), None when it is larger
    than that piece (a chapter's title under its label) or a fragment no longer joins."""
    pieces = sorted(pieces, key=attrgetter("x0"))
    at = sum(p.x0 <= (script.x0 + script.x1) / 2 for p in pieces)
    pieces.insert(at, script)  # after the piece it lies under, no smaller than it, or no line
    line: Line | None = pieces[0] if at and script.size <= 1.1 * pieces[at - 1].size else None
    for piece in pieces[1:]:
        line = line and _join_fragments(line, piece, False, strokes, walls, under=piece is script)
    return line


def thin_rules(rects: list[Box] | None) -> tuple[list[Box], list[Box]]:
    """The short thin horizontal rules among a page's rectilinear paths (drawn underscores), and
    apart from them the thin upright ones (column rules: ``_walled``): a join looks at its kind."""
    rects = rects or []
    strokes = [r for r in rects if r[3] - r[1] <= _STROKE[0] and r[2] - r[0] <= _STROKE[1]]
    return strokes, [r for r in rects if r[2] - r[0] <= _WALL < r[3] - r[1]]


def _underscored(first: Line, second: Line, strokes: Sequence[Box]) -> bool:
    """Whether a stroke fills the gap between two fragments of a line, low in its band."""
    low = first.y0 + 0.6 * first.height
    return any(
        r[0] >= first.x1 - 1 and r[2] <= second.x0 + 1 and low <= r[1] <= first.y1 + 2
        for r in strokes
    )  # fmt: skip


def _walled(first: Line, second: Line, walls: Sequence[Box]) -> bool:
    """Whether a table's column rule runs through the row between two fragments (either order):
    an upright rule there taller than two lines, or met at an end by another at its x (drawn
    cell by cell); a bar alone about a line high sets a head's number off its title."""
    lo, hi, h = min(first.x1, second.x1), max(first.x0, second.x0), first.height
    return any(
        r[3] - r[1] > 2 * h or any(o is not r and abs(o[0] - r[0]) <= 1
                                   and o[1] <= r[3] + h / 2 and o[3] >= r[1] - h / 2 for o in walls)
        for r in walls if lo <= r[0] and r[2] <= hi and r[1] <= first.y0 + h / 2 <= r[3]
    )  # fmt: skip


def same_row(a: Line, b: Line) -> bool:
    """Two lines sharing most of the smaller one's height (a raised mark, a subscript: its band)."""
    overlap = min(a.y1, b.y1) - max(a.y0, b.y0)
    return overlap >= 0.6 * min(a.y1 - a.y0, b.y1 - b.y0)


def _closing(out: list[Line], mark: Line, marks: list[Line], walls: Sequence[Box]) -> int | None:
    """The line (its index in ``out``) an end-of-proof mark (``■ □ ∎``) ends whatever the gap:
    of the lines on the mark's row the one sharing most of its height, the mark the row's last
    fragment and flush right, at the edge of the text over and under that line (not beside
    another column's text), no column rule between, no other mark on its row or at its x near
    it (a table's ticks). GeoTopo p6: a remark's ``■``, its box a little above the line's."""
    h = mark.y1 - mark.y0
    if any(o is not mark and (same_row(o, mark) or abs(o.x0 - mark.x0) <= 1
                              and abs(o.y0 - mark.y0) <= 3 * h) for o in marks):
        return None  # a table's column of ticks
    row = [i for i, ln in enumerate(out) if not ln.rotated and same_row(ln, mark)]
    if any(out[i].x0 >= mark.x1 for i in row):
        return None  # text right of it: a bullet or a cell, not the row's end
    row = [i for i in row if out[i].x1 <= mark.x0]
    if not row:
        return None
    i = max(row, key=lambda i: min(out[i].y1, mark.y1) - max(out[i].y0, mark.y0))
    after = [j for j in row if out[j].x0 >= out[i].x1 and same_row(out[j], out[i])]
    i = max(after, key=lambda j: out[j].x1) if after else i  # its row's last piece: "= χ(∆)"
    line = out[i]
    column = [ln.x1 for ln in out if ln.x0 < line.x1 and ln.x1 > line.x0]  # over and under it
    if not any(abs(mark.x1 - x) <= mark.size / 2 for x in column) or mark.x1 > max(column) + 1:
        return None  # no line of its column ends where it does (the next column's bullet)
    return None if walls and _walled(line, mark, walls) else i


def closed(ln: Line) -> bool:
    """A line an end-of-proof mark ends (``_closing``): its paragraph ends there, full or not."""
    return ln.text.rstrip()[-1:] in _TOMBSTONES


def _join_fragments(
    a: Line, b: Line, rtl: bool, strokes: Sequence[Box], walls: Sequence[Box],
    ended: bool = False, under: bool = False,
) -> Line | None:
    """``a`` and ``b`` as one line when they are fragments of it (``joined_rows``; ``ended``:
    ``b`` an end-of-proof mark that ends ``a``, ``_closing``, whatever the gap; ``under``: ``b``
    a script ``_rejoined`` puts after ``a``), else None."""
    first, second = (a, b) if (a.x0 <= b.x0) != rtl else (b, a)
    gap = first.x0 - second.x1 if rtl else second.x0 - first.x1  # rtl: the right one first
    em = max(first.size, second.size, 1.0)
    stacked = gap < -0.5 * em and not rtl and -gap <= _STACK * em
    stacked = stacked and (under or _script(second, first.size))  # set under a raised mark
    if gap < -0.5 * em and not stacked:
        return None  # overlapping: text printed over text (not a script set under one)
    if gap > _MERGE_GAP * em and not _sentence_gap(first, second, gap / em) and not ended:
        label, word = first.text.strip(), second.text.lstrip()[:1].isalpha()
        sized = abs(first.size - second.size) < 0.5  # a smaller note after it: no clause's
        clause = word and sized and gap <= _TAB_GAP * em and _CLAUSE.match(label)
        if not clause and (
            gap > _LABEL_GAP * em or len(label) > 3 or sum(map(str.isalpha, label)) >= 2
            or min(label) < " " or label[:1] == "(" and first.block != second.block
        ):  # a glyph the layer cannot name (a check mark in a cell); an equation's number
            return None
        if walls and _walled(first, second, walls):
            return None  # a cell's number, a drawn column rule, the next cell's text
        if _FIGURE.match(label) and _FIGURE.match(second.text.strip()):
            return None  # a number beside a number: a table's cells ("0.0" "0.0")
    big = first if visible(first.text) >= visible(second.text) else second
    if second.mono and not first.mono and first.bold and _CLAUSE.match(first.text.strip()):
        big = first  # a bold heading number before a word in code: the heading's face
    glued = gap < 0.15 * em and not stacked  # a script set under another: a word of its own
    glued = glued or first.text.endswith(" ") or second.text.startswith(" ")
    space, stop = "" if glued else " ", second.lead or len(second.text) - len(second.text.lstrip(".:"))
    if strokes and gap > 0 and _underscored(first, second, strokes):
        space = "_"
    cuts = () if rtl else joined_cuts(first, second, gap > _MERGE_GAP * em, space)
    return Line(
        min(a.x0, b.x0), min(a.y0, b.y0), max(a.x1, b.x1), max(a.y1, b.y1),
        first.text.rstrip() + space + second.text.lstrip() if space else first.text + second.text,
        big.size, first.bold and second.bold, first.italic and second.italic,
        big.mono, big.family, big.weight, min(a.block, b.block),
        lead=first.lead or (len(first.text.rstrip()) + (stop and len(space) + stop)
                            if first.bold and not second.bold else 0),  # its "." in the next
        color=big.color, cuts=cuts,
    )  # fmt: skip


def _sentence_gap(first: Line, second: Line, ems: float) -> bool:
    """A justified line's wide space after a sentence (MuPDF splits it there, in its block; not
    across a gutter): a full stop, a capital, one size and style, within 1.5 ems (no cells)."""
    return (
        ems <= _SENTENCE_GAP
        and first.block == second.block
        and first.size == second.size
        and first.style == second.style
        and bool(_SENTENCE_END.search(first.text.rstrip()))
        and second.text.lstrip()[:1].isupper()
    )
