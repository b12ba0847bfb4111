"""A PDF page's text lines with their geometry, font (size, weight, slant, family) and colour,
from one ``dict`` extraction, with the drawn rules and pictures the structure pass needs: the
page read once, everything after works on what it returns (``PageText``), never on the page
again."""

from __future__ import annotations

import time
from dataclasses import replace
from operator import itemgetter
from typing import TYPE_CHECKING, Any

from ....model import collector_paused
from ....sanitize import lazy_pattern
from .. import library
from ..library import drawn_pictures, flags, over_paths, page_text, raw_lines, right_to_left
from ..tables.cuts import span_cuts
from .joins import joined_rows, thin_rules
from .lines import MAX_LINES, Line, PageText, visible

if TYPE_CHECKING:
    import pymupdf

    from .lines import Box

_SPACED_POINT = lazy_pattern(r"\. (?<=\d\. )\d")  # "11,062. 6" (". " first: a literal, 8x faster)
_MARK = lazy_pattern(r"^[\d*†‡§¶∗⋆a-z]{1,3}\)?$")  # a footnote mark: 1, 12, *, †, a, 1)
_MOSTLY = 0.6  # a line is bold (italic) when this share of its characters is
_STYLE, _TEXT = itemgetter("size", "font", "flags", "color"), itemgetter("text")  # of a span


@collector_paused()  # its objects hold no cycles
@library.quads_corrected()  # the same boxes whoever imported pymupdf4llm
def read_page(page: pymupdf.Page, max_paths: int, *, pictures: bool = True) -> PageText:
    """The page's non-blank text lines (a printed line's fragments joined: ``joined_rows``), its
    rectilinear paths and pictures (``with_pictures`` adds them if not ``pictures``), from one
    ``dict``; a page of over ``max_paths`` blocks is read again without its paths (100,000 paths
    in Python cost 5-10x its text). Right-to-left pages' characters reordered, spaces MuPDF made
    up after a number's point removed (``raw_lines``); over MAX_LINES lines: plain text only.
    Its ``seconds`` are this thread's CPU time: the table budget holds whatever else the machine
    or the process runs (wall time under load took tables off pages at random)."""
    start = time.thread_time()
    textpage = page.get_textpage(flags=flags())
    rects: list[Box] | None = []
    paths: list[Box] = []
    fills: dict[Box, int] = {}
    if over_paths(textpage, max_paths):
        textpage, rects = page.get_textpage(flags=flags(vectors=False)), None
    data = page.get_text("dict", textpage=textpage)
    rect = page.rect
    if sum(len(block.get("lines", ())) for block in data["blocks"]) > MAX_LINES:
        plain = page_text(page, textpage)  # off's text, from this text page (ligatures expanded)
        return PageText([], None, [], rect.width, rect.height, visible(plain), plain=plain)
    out: list[Line] = []
    rotation = page.rotation  # (a call)
    turn = _turn(page, data) if rotation and _sideways(data) else None
    if rotation and not turn:  # read as stored: the boxes are the stored page's, so its size
        rect = page.cropbox
    for number, block in enumerate(data["blocks"]):
        if block["type"] == 3:
            box = _box(block["bbox"], turn) if turn else block["bbox"]
            (rects if block["isrect"] else paths).append(box)  # type: ignore[union-attr]
            if block["isrect"] and not block["stroked"]:
                fills[box] = block["color"]
            continue
        for line in block.get("lines", ()):
            made = _line(_turned(line, turn) if turn else line, number)
            if made is not None:
                out.append(made)
    everything = "".join([ln.text for ln in out])  # counted and searched once, not a line each
    chars, rtl = visible(everything), right_to_left(everything)
    if not turn and (rtl or _SPACED_POINT.search(everything)):  # characters read where needed
        out = raw_lines(page, textpage, out, rtl)
    drawn = _pictures(page, turn) if pictures and out and page.get_images() else []
    ocr = library.OCR_FONT  # an OCR text layer's font: every line in it
    if out and out[0].family == ocr and all(ln.family == ocr for ln in out):
        out = library.steadied(out)
    return PageText(
        joined_rows(out, rtl, *thin_rules(rects)), rects, drawn, rect.width, rect.height, chars,
        time.thread_time() - start, paths, fills=fills, turn=turn,
    )  # fmt: skip


Turn = tuple[float, float, float, float, float, float]  # a matrix: a b c d e f


def _sideways(data: dict[str, Any]) -> bool:
    """Some line of the page's ``dict`` runs other than left to right as stored."""
    for block in data["blocks"]:
        for line in block.get("lines", ()):
            if line["dir"][0] < 0.95:
                return True
    return False


def _turn(page: pymupdf.Page, data: dict[str, Any]) -> Turn | None:
    """The page's rotation matrix where the page is shown turned (``/Rotate``) and more of its
    text reads left to right turned so than as stored (a landscape table set sideways on a
    portrait page): its lines, rules and pictures are then read as shown; else None (a page
    turned whose text runs across as stored is read as stored, as before)."""
    m = page.rotation_matrix
    a, b, c, d, e, f = float(m.a), float(m.b), float(m.c), float(m.d), float(m.e), float(m.f)
    across = turned = 0
    for block in data["blocks"]:
        for line in block.get("lines", ()):
            n = sum(len(span["text"]) for span in line["spans"])
            dx, dy = line["dir"]
            across += n if dx > 0.95 else 0
            turned += n if dx * a + dy * c > 0.95 else 0
    return (a, b, c, d, e, f) if turned > across else None


def _box(box: Box, turn: Turn) -> Box:
    """A box as the turned page shows it."""
    import pymupdf

    r = pymupdf.Rect(box) * pymupdf.Matrix(*turn)
    return (r.x0, r.y0, r.x1, r.y1)


def upright(text: PageText) -> tuple[list[Line], float]:
    """A page read turned (``PageText.turn``): its lines with their boxes as stored, and the
    page's height as stored: where its running head and folio, stored upright and shown
    sideways, stand in the running lines' band."""
    import pymupdf

    assert text.turn is not None
    back = ~pymupdf.Matrix(*text.turn)  # shown -> stored
    stored = pymupdf.Rect(0, 0, text.width, text.height) * back
    out = []
    for ln in text.lines:
        r = pymupdf.Rect(ln.x0, ln.y0, ln.x1, ln.y1) * back
        out.append(replace(ln, x0=r.x0, y0=r.y0, x1=r.x1, y1=r.y1))
    return out, stored.height


def _turned(line: dict[str, Any], turn: Turn) -> dict[str, Any]:
    """A MuPDF line (its box, direction and spans' boxes) as the turned page shows it."""
    a, b, c, d = turn[:4]
    dx, dy = line["dir"]
    spans = [{**span, "bbox": _box(span["bbox"], turn)} for span in line["spans"]]
    return {**line, "bbox": _box(line["bbox"], turn), "dir": (dx * a + dy * c, dx * b + dy * d),
            "spans": spans}  # fmt: skip


def _pictures(page: pymupdf.Page, turn: Turn | None) -> list[Box]:
    """``drawn_pictures`` (the page's unrotated boxes), as the page is read (``turn``)."""
    boxes = drawn_pictures(page)
    return [_box(box, turn) for box in boxes] if turn else boxes


def with_pictures(page: pymupdf.Page, text: PageText) -> PageText:
    """A reading made without its pictures (``read_page(pictures=False)``) as ``read_page``
    makes it: a run of the page's content that the survey spares the pages it only samples."""
    start = time.thread_time()
    drawn = _pictures(page, text.turn) if text.lines and page.get_images() else []
    return replace(text, pictures=drawn, seconds=text.seconds + time.thread_time() - start)


def _line(line: dict[str, Any], number: int) -> Line | None:
    """A MuPDF line as a Line (None when blank): footnote marks set as superscripts get a
    space before them when glued to a word ("Center1" -> "Center 1"); the line's style is
    that of most of its visible characters, marks aside."""
    spans = line["spans"]
    dx, dy = line["dir"]
    rotated = abs(dy) > 0.05 or dx < 0
    lead = 0
    span = spans[0]
    style = _STYLE(span)
    size, font, flags_, color = style
    if len(spans) == 1 or all(map(style.__eq__, map(_STYLE, spans))):
        # one style (most lines; a paper's words and MuPDF's synthetic spaces between them
        # come as spans of their own): nothing to weigh (each to the first by map: no generator)
        text = span["text"] if len(spans) == 1 else "".join(map(_TEXT, spans))
        if not text.strip():
            return None
        family, weight, bold, italic, mono = library.face(font, flags_)
        cuts: tuple[tuple[float, int, float], ...] = ()
    else:
        text, size, font, flags_, bold, italic, lead, color = _joined_spans(spans)
        if not text.strip():
            return None
        family, weight, _, _, mono = library.face(font, flags_)
        cuts = span_cuts(spans)
    x0, y0, x1, y1 = line["bbox"]
    return Line(
        x0, y0, x1, y1, text, round(size * 2) / 2, bold, italic, mono, family, weight, number,
        rotated, lead, color, cuts,
    )  # fmt: skip


def _joined_spans(
    spans: list[dict[str, Any]],
) -> tuple[str, float, str, int, bool, bool, int, int]:
    """A multi-span line's text (raised marks glued to a word spaced off), the size, font and
    flags most of its visible characters have, whether most of the characters that count
    (visible, not a raised mark smaller than that size) are bold / italic (60 %), and the
    length of the bold label it opens with (``Line.lead``; 0 when the line is bold). One pass
    to weigh the styles, one to write (a paper's line comes as a span a word); and the colour
    most of its visible characters have."""
    counts: list[int] = []
    weights: dict[tuple[float, str, int], int] = {}
    colors: dict[int, int] = {}
    for span in spans:
        n = len(span["text"].strip())
        counts.append(n)
        colors[span["color"]] = colors.get(span["color"], 0) + n
        if n and not span["flags"] & 1:
            key = (span["size"], span["font"], span["flags"] & ~1)
            weights[key] = weights.get(key, 0) + n
    if not weights:  # only raised text
        for span, n in zip(spans, counts, strict=True):
            key = (span["size"], span["font"], span["flags"])
            weights[key] = weights.get(key, 0) + n
    size, font, flags_ = max(weights.items(), key=itemgetter(1))[0]  # the first of the most
    parts: list[str] = []
    length = bold_chars = italic_chars = total = 0  # length: of the parts so far
    lead, labelled = 0, True  # the bold label's length; still reading it
    for span, n in zip(spans, counts, strict=True):
        text, s_flags = span["text"], span["flags"]
        raised = s_flags & 1 and span["size"] < size
        if n and not raised:  # it counts for the line's style
            _, _, b, i = library.font_style(span["font"], s_flags)
            total += n
            bold_chars += n if b else 0
            italic_chars += n if i else 0
            if labelled and b:
                lead = length + len(text)
            labelled = labelled and b
        if (
            raised and parts and _MARK.match(text.strip())
            and parts[-1][-1:].isalnum() and text[:1].strip()
        ):  # fmt: skip
            text = " " + text
        parts.append(text)
        length += len(text)
    bold = bold_chars >= _MOSTLY * total > 0
    italic = italic_chars >= _MOSTLY * total > 0
    color = max(colors.items(), key=itemgetter(1))[0]
    return "".join(parts), size, font, flags_, bold, italic, 0 if bold or labelled else lead, color
