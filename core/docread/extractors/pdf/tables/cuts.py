"""Where one text line holds two cells: a wide gap inside it (TeX sets a symbol list's
``A × B`` and ``Kreuzprodukt`` as one line, MuPDF gives it as one), marked when the page is
read (``Line.cuts``) and cut only where a column of the page starts (``column_cuts``)."""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from collections.abc import Callable
from dataclasses import replace
from typing import TYPE_CHECKING, Any

from ....sanitize import lazy_pattern

if TYPE_CHECKING:
    from ..text.lines import Line

ALIGN = 4.0  # points: left edges this close are one column
_CELL_SPACE = 0.5  # ems: a gap this wide inside a line may part two cells
_ITEM_LABEL = lazy_pattern(
    r"^(?:[^\w\s]|\(?(?:\d{1,3}|[A-Za-z]|[ivx]{1,4})[.)]|\d+(?:\.\d+)+\.?"
    r"|[^\W\d_]{3,}\s\d{1,3}[.:)]?)$"
)  # "1." "a)" "(iv)" "2.1" "•" "Fall 1"
_WORD = lazy_pattern(r"[^\W\d_]{3}")  # a word: three letters in a row
_FIGURE = lazy_pattern(
    r"^[-+\u2212]?\(?\d[\d.,]*\)?%?(?: ?[a-z*\u2020\u2021])?$"
)  # 0.8, 4.6 a, (0.062)
_CUT = tuple[float, int, float]  # a cut's left edge, the visible characters before it, the end
# of the text before it


def span_cuts(spans: list[dict[str, Any]]) -> tuple[_CUT, ...]:
    """A MuPDF line's cuts: each span of text half an em or more after the last one's end
    (blank spans between or none), its left edge, the visible characters before it and the
    last one's end; none after raised marks alone (an affiliation's smaller ``4``)."""
    cuts: list[_CUT] = []
    seen, end, size = 0, 0.0, 0.0  # size: the largest text's before the gap
    for span in spans:
        n = len("".join(span["text"].split()))
        if n:
            x0, _, x1, _ = span["bbox"]
            if seen and x0 - end >= _CELL_SPACE * span["size"] and size > span["size"] - 1:
                cuts.append((x0, seen, end))
            seen, end, size = seen + n, x1, max(size, span["size"])
    return tuple(cuts)


def joined_cuts(first: Line, second: Line, wide: bool, inserted: str = "") -> tuple[_CUT, ...]:
    """The cuts of ``second`` joined after ``first`` (``text.joins.joined_rows``) with ``inserted``
    between them: both lines' cuts, the second's counted past what is inserted (an underscore
    drawn as a stroke: ``_``, which makes one word of them, never cut), and the gap between
    them when ``wide`` and nothing is inserted (a symbol's ``∂M`` joined to its text)."""
    if not wide and not second.cuts:
        return first.cuts
    seen = len("".join(first.text.split()))
    wide = wide and not inserted.strip()
    seen_after = seen + len("".join(inserted.split()))
    return (
        first.cuts
        + (((second.x0, seen, first.x1),) if wide else ())
        + tuple((x, seen_after + n, end) for x, n, end in second.cuts)
    )


def column_cuts(lines: list[Line], whole: dict[int, Line]) -> tuple[list[Line], dict[int, Line]]:
    """The lines with each one a wide gap parts (``Line.cuts``: TeX's ``A × B   Kreuzprodukt``
    as one line) cut there into one line a cell, where two other lines (or cuts) within six
    lines' height start at that edge (a column, not a word spaced wide) and what is left of
    the cut is no list's label (``1.``, ``a)``, a bullet: an item's text starts there too);
    ``whole``, ``spaced_apart``'s, with each piece's line added."""
    if not any(ln.cuts for ln in lines):
        return lines, whole
    starts = sorted(
        [(ln.y0, ln.x0) for ln in lines] + [(ln.y0, c[0]) for ln in lines for c in ln.cuts]
    )
    tops = [y for y, _ in starts]
    return _cut_lines(lines, whole, lambda ln: _edges(ln, starts, tops))


def walled_cuts(
    lines: list[Line], down: list[tuple[float, float, float]], whole: dict[int, Line]
) -> tuple[list[Line], dict[int, Line]]:
    """The lines with each one a drawn rule down passes through the gap of (``Line.cuts``: two
    cells' texts MuPDF joined over the rule between them, a label and the next cell's value)
    cut there (``_cut``); ``down``: the rules down, (x, y0, y1); ``whole`` with each piece's
    line added. Rules end to end on one x are one (a grid of boxed cells: a rule a row); the
    rules on one x, apart, are bisected by top: a gap meets a few however long the table."""
    if not any(ln.cuts for ln in lines) or not down:
        return lines, whole
    spans: dict[float, tuple[list[float], list[float]]] = {}  # x: the rules' tops and bottoms
    for x, y0, y1 in sorted((round(x * 2) / 2, y0, y1) for x, y0, y1 in down):
        tops, ends = spans.setdefault(x, ([], []))
        if ends and y0 <= ends[-1] + 1:
            ends[-1] = max(ends[-1], y1)
        else:
            tops.append(y0)
            ends.append(y1)
    xs = sorted(spans)

    def walled(ln: Line) -> list[_CUT]:
        """The line's cuts whose gap a rule down crosses at the line's middle."""
        mid = (ln.y0 + ln.y1) / 2
        return [
            c
            for c in ln.cuts
            if any(
                (i := bisect_right(spans[x][0], mid) - 1) >= 0 and spans[x][1][i] >= mid
                for x in xs[bisect_left(xs, c[2]) : bisect_right(xs, c[0])]
            )
        ]

    return _cut_lines(lines, whole, walled)


def cut_at(line: Line, starts: list[float] | None) -> list[Line]:
    """``line`` cut (``_cut``) at its cuts where one of ``starts`` is (within ALIGN), or at every
    cut (None): a banded table's head row and the rows under it (``banded``)."""
    edges = [c for c in line.cuts if starts is None or any(abs(c[0] - x) <= ALIGN for x in starts)]
    return _cut(line, edges) if edges else [line]


def _cut_lines(
    lines: list[Line], whole: dict[int, Line], edges_of: Callable[[Line], list[_CUT]]
) -> tuple[list[Line], dict[int, Line]]:
    """The lines with each one that has cuts cut at those ``edges_of`` it keeps (``_cut``);
    ``whole`` with each piece's line (the line it was cut from, or that one's own) added."""
    out: list[Line] = []
    whole = dict(whole)
    for ln in lines:
        edges = edges_of(ln) if ln.cuts else []
        pieces = _cut(ln, edges) if edges else [ln]
        out += pieces
        if len(pieces) > 1:
            whole.update(dict.fromkeys(map(id, pieces), whole.get(id(ln), ln)))
    return out, whole


def _edges(line: Line, starts: list[tuple[float, float]], tops: list[float]) -> list[_CUT]:
    """The line's cuts where two other lines (or cuts) among ``starts`` (tops and left edges,
    by top; ``tops`` theirs) start within six lines' height: only those are looked at
    (bisected: a page of a thousand cut lines is not a million comparisons)."""
    near = starts[
        bisect_left(tops, line.y0 - 6 * line.height) : bisect_right(tops, line.y0 + 6 * line.height)
    ]
    return [
        cut
        for cut in line.cuts
        if sum(abs(cut[0] - x) <= ALIGN for _, x in near) >= 3  # the cut itself and two more
    ]


def _cut(line: Line, edges: list[_CUT]) -> list[Line]:
    """``line`` cut at ``edges`` (``_CUT``); whole where a piece left of a cut reads as a
    list's label, a piece is blank or one right of a cut holds no word (a display formula's
    pieces: ``∂u1 (p) = ∂F``) unless every piece is a figure (a results table's ``0.8`` and
    ``4.6 a``, its footnote mark raised: MuPDF joins them as one line)."""
    pieces: list[Line] = []
    start, x0, seen, i = 0, line.x0, 0, 0
    for x, n, end in edges:
        while i < len(line.text) and seen < n:
            seen += not line.text[i].isspace()
            i += 1
        pieces.append(replace(line, x0=x0, x1=end, text=line.text[start:i].strip(), cuts=()))
        start, x0 = i, x
    pieces.append(replace(line, x0=x0, text=line.text[start:].strip(), cuts=()))
    if all(_FIGURE.match(p.text) for p in pieces):
        return pieces  # a row of figures: ``0.8`` reads as a section's number, but is none
    if (
        any(not p.text for p in pieces)
        or any(_ITEM_LABEL.match(p.text) for p in pieces[:-1])
        or not all(_WORD.search(p.text) for p in pieces[1:])
    ):
        return [line]
    return pieces
