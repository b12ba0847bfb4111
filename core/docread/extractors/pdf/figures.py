"""Where a PDF page draws a figure, from its one reading (text.lines.PageText): its pictures, and
its drawings (clusters of paths: a plot's curves and bars, a diagram's shapes), so that the
labels printed on them stay with the figure instead of running into the text around it, and
a plot's tick labels are not taken for a table; and a figure's caption into its placeholder."""

from __future__ import annotations

import re
from itertools import chain
from math import inf
from typing import TYPE_CHECKING

from ...sanitize import lazy_pattern
from .tables.cells import inside
from .text.pieces import CAPTION, Block, joined
from .text.relations import ENDS

if TYPE_CHECKING:
    from collections.abc import Sequence

    from .order import Item
    from .survey import Survey
    from .text.lines import Box, Line, PageText

PICTURE = 0.02  # pictures over this share of the page are figures
_SMALL = 0.005  # smaller pictures with text printed on them too
_COVERED = 0.15  # text covering this share of a picture or drawing: it is a background
_PHRASE = 4  # words: a line of text in a frame, not a chart's label
BACKGROUND = 0.7  # a picture over this share is a scan or a background, not a figure
_NEAR = 4.0  # points: paths this close belong to one drawing
_SHAPES = 4  # curves (paths that are not rectangles) a drawing holds at least
_BARS = 10  # or small filled rectangles (a bar chart's bars)
_TABLED = 0.8  # a table covering this share of a drawing: the drawing is the table's
_THIN = 2.0  # points: a rectangle this thin is a rule, not a shape
_LABEL_WORDS = 8  # a line on a figure this short is one of its labels, not text beside it
_AXES = 30.0  # points beside a figure where its tick labels and axis titles are printed
_NUMBERED = lazy_pattern(
    r"^\s*(?:\*\s*)?\d{1,3}[a-z]?\.\s+\S"
)  # a form's field number: "* 10. Name"

_FIGURE_CAPTION = lazy_pattern(
    r"^(?:Figure|Fig\.|Chart|Image|Photo|Abbildung|Abb\.|그림|\[그림)\s*[\dIVX]", re.IGNORECASE
)


def figure_boxes(text: PageText, tables: list[Box]) -> list[tuple[Box, bool]]:
    """The page's figures, each once, and whether it is drawn (not a picture): pictures
    between 2 % and 70 % of the page (from 0.5 % when lines of text are printed on them: a
    diagram's labels, where one line is a heading's or a label's plate), and drawings (paths within 4 points of one another, with 4 curves or one over 2 %
    of the page, or 10 small filled rectangles, over 2 % of the page, not a table's: its part
    beside a table that covers half of it, ``_beyond``)."""
    area = text.width * text.height or 1.0
    out: list[tuple[Box, bool]] = []
    for box in text.pictures:
        share = _area(box) / area
        small = _SMALL <= share < PICTURE and sum(_holds(box, ln) for ln in text.lines) > 1
        if (
            (small or PICTURE <= share <= BACKGROUND)
            and not any(_same(box, b) for b, _ in out)
            and not _behind_text(box, text.lines)
        ):
            out.append((box, False))
    if text.rects is not None and text.paths:
        for drawing in _drawings(text.paths, text.rects, area):
            part = _beyond(drawing, tables)
            if (
                part is not None
                and _area(part) >= PICTURE * area
                and not any(_overlap(part, b) > 0.5 * _area(part) for b, _ in out)
                and (part != drawing or not _behind_text(part, text.lines))
                and not _frame(part, text)
            ):
                out.append((part, True))
    return out


def _beyond(box: Box, tables: list[Box]) -> Box | None:
    """A drawing as a figure beside the tables found on it: none where a table covers most of
    it (``_TABLED``: the table's own rules); where one covers half of it or more, the part
    above or below that table (the larger: a diagram whose upper boxes the ruled pass took
    for a table, its lower labels still the figure's, no heading)."""
    for t in tables:
        share = _overlap(box, t) / (_area(box) or 1.0)
        if share > _TABLED:
            return None
        if share > 0.5:
            above, below = (*box[:3], t[1]), (box[0], t[3], *box[2:])
            box = max(above, below, key=_area)
    return box


def _frame(box: Box, text: PageText) -> bool:
    """A drawing that is one path around text and nothing else drawn with curves: a box with
    rounded corners (a receipt's item table, a panel of fields), its rules and fills only
    rectangles, fewer than a bar chart's, three lines of text or more inside, two of them
    phrases (``_PHRASE`` words or more: ``Payment received by OYO``, where a chart's labels
    and legend are a word or two: ``Q1``, ``accuracy (train)``): no figure."""
    paths = [b for b in text.paths if _meets(b, box)]
    if len(paths) != 1 or any(abs(a - b) > _NEAR for a, b in zip(paths[0], box, strict=True)):
        return False  # (most drawings: their rects not looked at)
    rects = [r for r in text.rects or () if _meets(r, box)]
    return (
        sum(min(r[2] - r[0], r[3] - r[1]) > _THIN for r in rects) < _BARS
        and sum(_holds(box, ln) for ln in text.lines) >= 3
        and sum(_holds(box, ln) and len(ln.text.split()) >= _PHRASE for ln in text.lines) >= 2
    )


def _behind_text(box: Box, lines: list[Line]) -> bool:
    """A background: the text printed on it covers a good part of it (a heading's bar, a
    shaded box around a paragraph), where a figure's labels are sparse."""
    covered = sum((ln.x1 - ln.x0) * (ln.y1 - ln.y0) for ln in lines if _holds(box, ln))
    return covered > _COVERED * _area(box)


def _holds(box: Box, ln: Line) -> bool:
    x, y = (ln.x0 + ln.x1) / 2, (ln.y0 + ln.y1) / 2
    return box[0] <= x <= box[2] and box[1] <= y <= box[3]


def _drawings(paths: list[Box], rects: list[Box], area: float) -> list[Box]:
    """Clusters of paths and rectangles that hold a drawing (see ``figure_boxes``)."""
    clusters: list[list[float]] = []  # x0, y0, x1, y1, curves, bars
    shapes = [(b, _SHAPES if _area(b) >= PICTURE * area else 1, 0) for b in paths]
    shapes += [
        (r, 0, 1 if _area(r) < 0.05 * area and min(r[2] - r[0], r[3] - r[1]) > _THIN else 0)
        for r in rects
        if _area(r) < 0.5 * area
    ]
    near: list[list[float]] = []  # the clusters a later shape may still join, in their order
    low = inf  # no cluster of ``near`` ends above this (a bound: clusters only grow)
    for (x0, y0, x1, y1), curve, bar in sorted(shapes, key=lambda s: s[0][1]):
        left, right, top, bottom = x0 - _NEAR, x1 + _NEAR, y0 - _NEAR, y1 + _NEAR
        if top > low:  # shapes come top down: a cluster ending above ``top`` is done growing
            near = [c for c in near if top <= c[3]]
            low = min([c[3] for c in near], default=inf)
        hit = [c for c in near if left <= c[2] and c[0] <= right and top <= c[3] and c[1] <= bottom]
        if not hit:
            clusters.append([x0, y0, x1, y1, curve, bar])
            near.append(clusters[-1])
            low = min(low, y1)
            continue
        keep = hit[0]
        for c in hit[1:]:
            _grown(keep, c[0], c[1], c[2], c[3])
            keep[4] += c[4]
            keep[5] += c[5]
            clusters.remove(c)
            near.remove(c)
        _grown(keep, x0, y0, x1, y1)  # (in place: a drawing of 5,000 paths grows 5,000 times)
        keep[4] += curve
        keep[5] += bar
    return [
        (c[0], c[1], c[2], c[3])
        for c in _merged(clusters)
        if (c[4] >= _SHAPES or c[5] >= _BARS) and _area((c[0], c[1], c[2], c[3])) >= PICTURE * area
    ]


def _merged(clusters: list[list[float]]) -> list[list[float]]:
    """The clusters that grew into one another (within ``_NEAR``) merged, until none touch, each
    group where its first cluster stands (what merging any touching pair first until none is
    left gives: clusters only grow, so every order ends in the same groups): pairs found by a
    sweep down the page, not by testing every pair (5,000 dots apart: 12 million tests) again
    after each merge."""
    while True:
        order = sorted(range(len(clusters)), key=lambda i: clusters[i][1])
        group = list(range(len(clusters)))  # each cluster's link toward its group's first
        joined = False
        for at, i in enumerate(order):
            a = clusters[i]
            reach = a[3] + _NEAR
            for k in range(at + 1, len(order)):
                j = order[k]
                b = clusters[j]
                if b[1] > reach:
                    break  # (the rest start lower still)
                touching = a[0] <= b[2] + _NEAR and b[0] <= a[2] + _NEAR and a[1] <= b[3] + _NEAR
                if touching and b[1] <= reach:  # (False for a NaN top, as before the sweep)
                    one, other = sorted((_first(group, i), _first(group, j)))
                    if one != other:
                        group[other], joined = one, True  # (a group's first: its least index)
        if not joined:
            return clusters
        groups: dict[int, list[float]] = {}
        for i, c in enumerate(clusters):
            root = _first(group, i)
            if root == i:
                groups[i] = list(c)
            else:
                g = groups[root]
                _grown(g, c[0], c[1], c[2], c[3])
                g[4] += c[4]
                g[5] += c[5]
        clusters = list(groups.values())


def _first(group: list[int], i: int) -> int:
    """The first cluster of ``i``'s group (``group``: each one's link toward it, halved on the
    way: a union-find's root)."""
    while group[i] != i:
        group[i] = group[group[i]]
        i = group[i]
    return i


def _grown(cluster: list[float], x0: float, y0: float, x1: float, y1: float) -> None:
    """The cluster's box (its first four) grown to hold the box ``x0 y0 x1 y1``."""
    if x0 < cluster[0]:
        cluster[0] = x0
    if y0 < cluster[1]:
        cluster[1] = y0
    if x1 > cluster[2]:
        cluster[2] = x1
    if y1 > cluster[3]:
        cluster[3] = y1


def _area(box: Box) -> float:
    return max(box[2] - box[0], 0.0) * max(box[3] - box[1], 0.0)


def _overlap(a: Box, b: Box) -> float:
    return _area((max(a[0], b[0]), max(a[1], b[1]), min(a[2], b[2]), min(a[3], b[3])))


def _meets(a: Box, b: Box) -> bool:
    """``_overlap(a, b) > 0`` without the area: both boxes have width and height and cross."""
    return (
        a[0] < a[2] and a[1] < a[3] and b[0] < b[2] and b[1] < b[3]
        and a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]
    )  # fmt: skip


def _same(a: Box, b: Box) -> bool:
    return abs(a[0] - b[0]) < 1 and abs(a[1] - b[1]) < 1 and abs(a[2] - b[2]) < 1


def drawn_label(lines: list[Line], text: PageText) -> bool:
    """Lines that label a drawing, not heading anything: a diagram's (``_diagram``) or a
    form's field label (``_field``)."""
    return _diagram(lines, text) or _field(lines, text)


def _field(lines: list[Line], text: PageText) -> bool:
    """A form's field label: ending with a colon right over an empty entry box (a drawn box
    holding no text, its top within two line heights under the label, its left edge within an
    em of the label's), or numbered with another numbered label on its row (``20. SIGNATURE``
    beside ``21. DATE SIGNED``, a cell's wall between them)."""
    first, last = lines[0], lines[-1]
    em, height = first.size, last.y1 - last.y0
    if _NUMBERED.match(first.text) and any(
        _NUMBERED.match(o.text) and o.x0 > first.x1 + em and o.y0 < first.y1 and o.y1 > first.y0
        and _walled(first, o, text.rects or ())
        for o in text.lines
    ):  # fmt: skip
        return True
    if not last.text.rstrip().endswith(":"):
        return False
    return any(
        last.y1 - 1 <= b[1] <= last.y1 + 2 * height
        and abs(b[0] - first.x0) <= em
        and b[3] - b[1] > _THIN
        and not any(_holds(b, ln) for ln in text.lines)
        for b in text.rects or ()
    )


def _walled(a: Line, b: Line, rects: Sequence[Box]) -> bool:
    """A drawn vertical rule between two lines of one row, across it (a form cell's wall)."""
    return any(
        r[2] - r[0] <= _THIN and a.x1 <= r[0] and r[2] <= b.x0 and r[1] <= a.y1 and r[3] >= a.y0
        for r in rects
    )


def _diagram(lines: list[Line], text: PageText) -> bool:
    """Lines printed inside a diagram, not heading anything: within a drawn box (a rectangle
    or a shape, not a rule, under half the page) that frames other boxes (a diagram's panel,
    a figure's frame around its shapes), unless they sit in a bar of their own across that
    box (a heading's band inside a form's frame)."""
    if text.rects is None or not (text.rects or text.paths):
        return False
    own = (min(ln.x0 for ln in lines), min(ln.y0 for ln in lines),
           max(ln.x1 for ln in lines), max(ln.y1 for ln in lines))  # fmt: skip
    half = 0.5 * text.width * text.height
    around = [b for b in chain(text.rects, text.paths) if _encloses(b, own) and _shape(b, half)]
    if not around:  # most headings: no box around them
        return False
    boxes = [b for b in chain(text.rects, text.paths) if _shape(b, half)]
    bar = min(around, key=_area)
    width = bar[2] - bar[0] if bar[3] - bar[1] <= 2.5 * (own[3] - own[1]) else 0.0
    return any(
        width < 0.8 * (box[2] - box[0])
        and any(o is not box and _area(o) < 0.8 * _area(box) and _encloses(box, o) for o in boxes)
        for box in around
    )


def _shape(box: Box, most: float) -> bool:
    """A box that is no rule (thicker than ``_THIN`` both ways), of less than ``most`` area."""
    return min(box[2] - box[0], box[3] - box[1]) > _THIN and _area(box) < most


def _encloses(box: Box, inner: Box) -> bool:
    """``inner`` lies within ``box`` (a point of slack)."""
    return (
        box[0] <= inner[0] + 1 and box[1] <= inner[1] + 1
        and inner[2] <= box[2] + 1 and inner[3] <= box[3] + 1
    )  # fmt: skip


def captioned(blocks: list[Block]) -> list[Block]:
    """A figure's caption (the caption block right after or before it) into its placeholder."""
    out: list[Block] = []
    skip = False
    for i, block in enumerate(blocks):
        if skip:
            skip = False
            continue
        if block.kind == "figure":
            after = blocks[i + 1] if i + 1 < len(blocks) else None
            if (
                after is not None
                and after.kind in ("caption", "text")
                and _FIGURE_CAPTION.match(after.lines[0].text.lstrip())
            ):
                block.markdown = f"[Figure: {joined(after.lines)}]"
                skip = True
        out.append(block)
    return out


def figure_label(ln: Line, figure: Item, axes: bool, survey: Survey) -> bool:
    """A figure's label: a short line on it (``_LABEL_WORDS``), or, by a drawing (``axes``),
    a word or three just outside it (a plot's tick labels and axis titles); never a caption,
    nor a heading's line beside it."""
    words = len(ln.text.split())
    if words > _LABEL_WORDS or CAPTION.match(ln.text.lstrip()):
        return False
    if inside(ln, (figure.x0, figure.y0, figure.x1, figure.y1)):
        return True
    if not axes or survey.bigger(ln):
        return False
    m = _AXES
    near = (figure.x0 - m, figure.y0 - m / 3, figure.x1 + m / 2, figure.y1 + m)
    return words <= 3 and not ENDS.search(ln.text.rstrip()) and _within(ln, near)


def _within(ln: Line, box: tuple[float, float, float, float]) -> bool:
    """The line lies wholly inside the box (a label printed on a figure, not beside it)."""
    return box[0] <= ln.x0 and ln.x1 <= box[2] and box[1] <= ln.y0 and ln.y1 <= box[3]
