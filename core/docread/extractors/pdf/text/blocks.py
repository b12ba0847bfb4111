"""A column's lines as blocks (structure.py lays out the page, flow.py writes them): paragraphs
split at line gaps, first-line indents and sentence ends after a short line; list items from
bullets and numbers; headings (headings.py) set right against the column's bullets and
numbered heads."""

from __future__ import annotations

import re
from bisect import bisect_left
from collections import Counter
from typing import TYPE_CHECKING

from ....sanitize import lazy_pattern
from ..library import OCR_FONT
from ..order import Item
from ..survey import HEAD_NUMBER as _HEAD_NUMBER
from .headings import CODE, ocr_contents, typed_blocks
from .joins import closed
from .lines import Line
from .pieces import CAPTION, CAPTION_START, STRONG_BULLETS, WEAK_BULLETS, Block, bulleted, norm
from .relations import (
    ENDS,
    LINE_NUMBER,
    STOPS,
    first_word,
    hung,
    hung_text,
    leads,
    run_in,
    runs_to_edge,
    script,
    side_by_side,
    stacked,
    valued,
    verse,
)

if TYPE_CHECKING:
    from ..survey import Style, Survey

_NUMBERED = lazy_pattern(r"^\s*(?:\d{1,3}[.)]|\(?[a-z][.)]|\([ivx]{1,4}\)|\(\d{1,3}\))\s+\S")
_LETTER = lazy_pattern(r"\s*[A-Z]\.\s")  # "A. ": a capital's label
_ITEM_LABEL = lazy_pattern(r"\s*(\(?)(\d{1,3}|[a-z])([.)])\s")  # "b) ", "(2) ", "3. "
_LIST_START = frozenset("0123456789(abcdefghijklmnopqrstuvwxyz")
_APPENDIX = lazy_pattern(r"\s*[A-Z] [A-Z]")  # a paper's appendix head: "B Alternative ..."
_CAPTION_WORD = lazy_pattern(r"^(?:Figure|Fig\.|Table|Tab\.|Tabelle|Abbildung|Abb\.)$", re.IGNORECASE)
_CAPTION_LABEL = lazy_pattern(CAPTION.pattern + r"[\w.\-–]*[.:]?$", re.IGNORECASE)  # "Table 1."
_URL = lazy_pattern(r"\s*(?:https?://|ftp://|www\.|doi:)", re.IGNORECASE)  # a reference's address
_CLAUSE = lazy_pattern(r"\s*(?:\(?[a-z]\)|\([ivx]{1,4}\)|\(?\d{1,3}\))\s+\S")  # "(a) ", "2) "
# "i. e.,", "z. B. ": no "i." label; a capital's initial only in these ("c. P. ex.", "a. J. Smith": labels)
_ABBREVIATION = lazy_pattern(r"\s*(?:[a-z]\.\s?[a-zäöü]|z\.\s?[BT]|u\.\s?U|o\.\s?Ä)\.[\s,]")
_NUMBER_ONLY = lazy_pattern(_HEAD_NUMBER.pattern.replace("(?:\\s|$)", "$"), re.IGNORECASE)  # "1.2"


def column_blocks(
    leaf: list[Item | Line], survey: Survey, toc: dict[str, int], rtl: bool
) -> list[Block]:
    """A column's pieces as blocks: its lines split into paragraphs, list items and headings
    (``_restyled``); its tables and figures as they stand."""
    lines = [p for p in leaf if isinstance(p, Line)]
    if not lines:
        return [p.block for p in leaf if isinstance(p, Item)]
    left, right = min(ln.x0 for ln in lines), max(ln.x1 for ln in lines)
    gap = _line_gap(lines)
    starts = {key.split(None, 1)[0] for key in toc if key}  # the outline's titles' first words
    reach: dict[int, float] = {}  # how far right the lines starting at an x run (4 pt steps)
    for ln in lines:
        at = round(ln.x0 / 4)
        reach[at] = max(reach.get(at, 0.0), ln.x1)
    letters = {(t[0], round(ln.x0 / 2)) for ln in lines  # "C. " labels by x (2 pt): siblings
               if (t := ln.text.lstrip())[1:3] == ". " and t[0].isupper()}  # fmt: skip
    out: list[Block] = []
    current: list[Line] = []
    far = 0.0  # how far right the block being made runs
    kind = "text"
    beside = False  # the block being made sits beside the one before (a label on its row)

    def flush() -> None:
        nonlocal current, kind
        if current:
            edge = far if len(current) > 1 else right
            indented = current[0].x0 > left + 0.5 * current[0].size
            strong = kind == "item" and (indented or len(current) > 1)
            typed = typed_blocks(current, kind, survey, toc, starts, edge, beside=beside, strong=strong)
            out.extend(typed)
        current, kind = [], "text"

    prev: Line | None = None
    for piece in leaf:
        if isinstance(piece, Item):
            flush()
            out.append(piece.block)
            prev = None
            continue
        ln = piece
        opener = current[0] if current else None
        start = _starts_item(ln, prev, (reach, right), rtl, letters, opener)
        if start or prev is None or _breaks(
            prev, ln, current, far, kind, gap, (left, right), reach, survey, rtl
        ):
            flush()
            kind = "item" if start else "text"
            beside = (  # a label on its row; a title far larger than the tag beside it is none
                prev is not None and side_by_side(prev, ln)
                and not (survey.bigger(ln) and ln.size >= 1.5 * prev.size)
            )  # fmt: skip
        far = max(far, ln.x1) if current else ln.x1
        current.append(ln)
        prev = ln
    flush()
    return _restyled(out, lines, toc, right, survey)


def _restyled(
    out: list[Block], lines: list[Line], toc: dict[str, int], at: float, survey: Survey
) -> list[Block]:
    """A column's headings set right: one in its bullets' style is text (a slide's list levels),
    unless numbered or the outline's; a number alone in a numbered heading's style is one; a
    definition list's terms are text (``_terms``), a label over a code (``GSTIN`` over
    ``06AABCO6063D1ZQ``: a field and its value, ``headings.CODE``) and a scanned contents
    page's entries (``headings.ocr_contents``)."""
    headed = [b for b in out if b.kind == "heading"]  # most columns: none, nothing to set right
    terms = _terms(out, toc, survey) if headed else []
    for i in terms:
        out[i] = Block("text", out[i].lines, right=at)
    headed = [b for b in out if b.kind == "heading"] if terms else headed
    for i, block in enumerate(out if headed else ()):  # a field's label over its code
        if block.kind == "heading" and _over_code(block, lines) and norm(block.text) not in toc:
            out[i] = Block("text", block.lines, right=at)
    scanned = any(b.lines[0].family == OCR_FONT for b in headed)  # a scanned contents page's
    entries = ocr_contents(lines) if scanned else set()  # entries: no side heads
    for i, block in enumerate(out if entries else ()):
        first = block.lines[0] if block.kind == "heading" else None
        if first and (first.x0, first.y0) in entries:
            out[i] = Block("text", block.lines, right=at)
    listed = {(ln.style, ln.weight) for ln in (lines if headed else ()) if bulleted(ln.text)}
    heads = {_key(b): b.level for b in headed if _HEAD_NUMBER.match(b.text)}
    for i, block in enumerate(out if listed or heads else ()):
        text = block.text
        if block.kind == "heading" and _key(block)[:2] in listed and not _HEAD_NUMBER.match(text):
            out[i] = block if norm(text) in toc else Block("text", block.lines, right=at)
        elif block.kind == "text" and _key(block) in heads and _NUMBER_ONLY.match(text):
            out[i] = Block("heading", block.lines, level=heads[_key(block)])
    return out


def _over_code(block: Block, lines: list[Line]) -> bool:
    """A heading that is an acronym of two to five capitals (a register's name: a title over a
    course's or a booking's code stays one) whose line right under it, across its width, is a
    code (``headings.CODE``): a field's label over its value (``GSTIN`` over ``06AABCO6063D1ZQ``)."""
    last = block.lines[-1]
    if not (2 <= len(block.text.strip()) <= 5 and block.text.strip().isalpha() and block.text.isupper()):
        return False
    under = [ln for ln in lines if ln.y0 >= last.y1 - 1 and ln.x0 < last.x1 and ln.x1 > last.x0]
    return bool(under) and CODE.match(min(under, key=lambda ln: ln.y0).text.strip()) is not None


def _terms(out: list[Block], toc: dict[str, int], survey: Survey) -> list[int]:
    """The indices of a definition list's terms read as headings (policy p149's ``dubious``,
    ``ctte``): one unnumbered line no larger than the body, not ending with ``:`` (bgteubner
    p29's ``Beispiel .:``), not the outline's (``_outlined``), over a paragraph set in past it
    by 1.5 ems, not a listing, where two such terms in the term's style stand in the column,
    one over a one-line definition or the last followed by the body at its x (tlc-article p7's
    field names; a heading over a paragraph quoted or set in, side heads over bodies set in up
    to the next head, stay headings), and a paragraph of the column stands at the term's x."""
    found: list[tuple[int, bool]] = []
    lefts = sorted(b.x0 for b in out if b.kind == "text")  # bisected: no pass per term
    for i, block in enumerate(out[:-1]):
        text = out[i + 1]
        if block.kind != "heading" or len(block.lines) != 1 or text.kind != "text":
            continue
        first = block.lines[0]
        if (
            not _HEAD_NUMBER.match(block.text) and not survey.bigger(first)
            and not block.text.rstrip().endswith(":")
            and not all(ln.mono for ln in text.lines)
            and all(ln.x0 >= first.x0 + 1.5 * first.size for ln in text.lines)
            and not _outlined(norm(block.text), toc)
        ):  # fmt: skip
            at = bisect_left(lefts, first.x0 - 0.5 * first.size)
            if at < len(lefts) and lefts[at] < first.x0 + 0.5 * first.size:
                after = out[i + 2] if i + 2 < len(out) else text  # the body going on past the list
                ends = after.kind == "text" and abs(after.x0 - first.x0) < 0.5 * first.size
                found.append((i, len(text.lines) == 1 or ends))
    styles = Counter(out[i].lines[0].style for i, _ in found)
    listed = {out[i].lines[0].style for i, sure in found if sure}  # a list's sign in that style
    return [i for i, _ in found if out[i].lines[0].style in listed and styles[out[i].lines[0].style] >= 2]


def _outlined(text: str, toc: dict[str, int]) -> bool:
    """The outline names ``text``, alone or opening a title (DA-619p's ``Arcane Horror``, whose
    outline entry ``Arcane Horror Same as in DAO`` takes in the note flush right on its row)."""
    return text in toc or any(key.startswith(text + " ") for key in toc)


def _key(block: Block) -> tuple[Style, int, int]:
    """A block's first line's style, weight and indent (in 2 pt steps)."""
    return block.lines[0].style, block.lines[0].weight, round(block.lines[0].x0 / 2)


def _line_gap(lines: list[Line]) -> float:
    """The space between a paragraph's lines in this column: the lower quartile of the gaps
    between lines one under the other (one-line paragraphs make the median theirs), or 0.3 h."""
    gaps = sorted(
        b.y0 - a.y1
        for a, b in zip(lines, lines[1:], strict=False)
        if b.y0 >= a.y1 - 0.5 * a.height and a.size == b.size and b.y0 - a.y1 < 2 * a.height
    )
    if len(gaps) < 2:
        return 0.3 * (lines[0].height if lines else 10.0)
    return max(gaps[len(gaps) // 4], 0.0)


def _starts_item(
    ln: Line, prev: Line | None, reaches: tuple[dict[int, float], float], rtl: bool,
    letters: set[tuple[str, int]], opener: Line | None = None,
) -> bool:  # fmt: skip
    """A line opening a list item: a strong bullet, or a weak one (``-``) or a number after a line
    short of its text's edge (``reaches``: column_blocks' reach and the column's right) or full and
    ending a sentence left of it (a definition's, its ``a)``), the next label at its x
    (``b)`` then ``c)``), a capital's ``C.`` under a line set in, ``B.``/``D.`` at its x, or
    at the x of the block's ``opener`` labelled so after it ends (``Q.`` then ``A.``)."""
    stripped = ln.text.lstrip()
    first, second = stripped[:1], stripped[1:2]
    if first in STRONG_BULLETS:
        return first == "\ufffd" or bool(stripped[1:].strip())  # a box alone: no empty item
    weak = first in WEAK_BULLETS and second in (" ", "\t", "\xa0")
    numbered = (
        not weak and first in _LIST_START and bool(_NUMBERED.match(stripped))
        and not _ABBREVIATION.match(stripped)
    )  # fmt: skip
    capital = second == "." and first.isupper() and stripped[2:3].isspace()
    if capital:  # "C." under a clause's text set in, "A." under "Q.", "A." a level in
        at, near = round(ln.x0 / 2), (chr(ord(first) - 1), chr(ord(first) + 1))
        sibling = any((c, at + d) in letters for c in near for d in (-1, 0, 1))
        if prev is not None and not _centred(prev, ln) and (  # an author list: no item opens
            _answers(opener, prev, ln, reaches[1])
            or sibling and _nested(prev, ln, reaches[1], rtl)
        ):  # fmt: skip
            return True
        return sibling and prev is not None and prev.x0 > ln.x0 + 2
    if prev is not None and (weak or numbered) and _nested(prev, ln, reaches[1], rtl):
        return True  # a level deeper under a short item: "a) First" under "1. First"
    if not (weak or numbered) or prev is None:
        return weak or numbered
    reach, widest = reaches
    edge = _reached(reach, prev.x0)  # where the text prev starts with wraps (an item's line only)
    full = edge >= widest - ln.size  # its text's edge the column's: a full line
    ends = full and ln.x0 > prev.x0 + 0.5 * ln.size and ENDS.search(prev.text.rstrip())
    after = abs(prev.x0 - ln.x0) < 2 and _follows(prev.text, stripped)  # "b) ..." over "c) ..."
    return not runs_to_edge(prev, edge, rtl) or prev.x0 > ln.x0 + 2 or bool(ends) or after


def _nested(prev: Line, ln: Line, right: float, rtl: bool) -> bool:
    """``ln`` stands under ``prev`` (no piece of its row) an em or more right of it, ``prev`` an
    item's line (a bullet or a label) that stops short of the column's ``right``: the next level
    of a nested list of short items (se2thesis p11's ``a)`` under ``1.``), no wrap (a wrap
    follows a line that runs on)."""
    if rtl or ln.x0 <= prev.x0 + ln.size or ln.y0 < prev.y1 - 0.25 * ln.size:
        return False  # most lines: at or left of the line above (or a piece of its row)
    above = prev.text.lstrip()
    labelled = bulleted(above) or bool(_NUMBERED.match(above)) or bool(_LETTER.match(above))
    return labelled and not runs_to_edge(prev, right, rtl, first_word(ln.text))


def _centred(prev: Line, ln: Line) -> bool:
    """``ln`` and ``prev`` share a centre, not a left edge (jacow-collaboration p1's centred
    author lines): neither a nested item's line nor an answer's."""
    shared = abs(ln.x0 + ln.x1 - prev.x0 - prev.x1) < ln.size
    return shared and abs(ln.x0 - prev.x0) > 0.5 * ln.size


def _answers(opener: Line | None, prev: Line, ln: Line, right: float) -> bool:
    """``ln``'s capital label (``A.``) stands at the x of the block's ``opener``, itself opening
    with one (``Q.``), after a line that ends a sentence or stops short of the column's ``right``:
    a FAQ's answer under its question, the next lettered clause after one whose last line ran
    full (a wrap opening with an initial, ``J. Smith``, follows a line that runs on)."""
    if opener is None:
        return False
    label = opener.text.lstrip()[:3]
    if not (label[:1].isupper() and label[1:2] == "." and label[2:3].isspace()):
        return False
    ended = bool(ENDS.search(prev.text.rstrip())) or not runs_to_edge(prev, right, False)
    return ended and abs(opener.x0 - ln.x0) < 0.5 * ln.size  # (labels set right: "I." past "H.")


def _follows(above: str, text: str) -> bool:
    """``text`` opens with the label after the one ``above`` opens with (``b)`` then ``c)``,
    ``2.`` then ``3.``, in the same brackets): the next item of a list of one-line items."""
    a, b = _ITEM_LABEL.match(above), _ITEM_LABEL.match(text)
    if a is None or b is None or (a[1], a[3]) != (b[1], b[3]):
        return False
    if a[2].isdigit() and b[2].isdigit():
        return int(b[2]) == int(a[2]) + 1
    return a[2].isalpha() and b[2].isalpha() and ord(b[2]) == ord(a[2]) + 1


def _reached(reach: dict[int, float], x: float) -> float:
    """How far right the column's lines starting at ``x`` (4 pt steps, one either side) run."""
    at = round(x / 4)
    return max(reach.get(at - 1, 0.0), reach.get(at, 0.0), reach.get(at + 1, 0.0))


def _breaks(
    prev: Line, ln: Line, current: list[Line], far: float, kind: str, gap: float,
    sides: tuple[float, float], reach: dict[int, float], survey: Survey, rtl: bool,
) -> bool:  # fmt: skip
    """Whether ``ln`` starts a new block after ``prev`` (``current``'s last, its lines ``far``
    right; the column's ``sides`` and ``reach``): it sits beside it, more space is above it
    than between a paragraph's lines, the size changes, two short lines apart from the body
    change slant or family (a subtitle over a heading, not a byline over affiliations); after a
    line that runs to the text's edge, only a first-line indent (no hanging one); after a short
    line, a heading style's change, or a sentence's end."""
    left, right = sides
    if side_by_side(prev, ln) and not stacked(prev, ln):  # a label or a value: its own block
        return not (run_in(prev, ln) or script(prev, ln) or leads(prev, ln) or valued(prev, ln))
    if len(current) > 1 and valued(current[-2], prev):
        return True  # a row's value ends its printed line's block
    if ln.y0 - prev.y1 > gap + 0.35 * min(ln.y1 - ln.y0, prev.y1 - prev.y0):
        return True
    if CAPTION_START.match(current[0].text) and _captioning(current[0], prev, ln):
        return False  # a caption's label and its text, in styles of their own
    if abs(ln.size - prev.size) >= 1.0 and not _scripted(prev, ln, min(prev.x0, current[0].x0)):
        return True
    heady_prev, heady = survey.distinct(prev), survey.distinct(ln)
    restyled = heady_prev and heady and (prev.italic, prev.family) != (ln.italic, ln.family)
    if restyled and not runs_to_edge(prev, right, rtl, first_word(ln.text)):
        return True  # two short lines apart from the body in two slants or families
    edge = max(far, ln.x1) if current else right  # this text's edge
    wraps = runs_to_edge(prev, edge, rtl, first_word(ln.text)) and not closed(prev)
    code, coded = survey.code(ln), survey.code(prev)  # a listing opens set in, or ends
    if code and not coded and _URL.match(ln.text) and hung_text(current[0], ln):
        return False  # a reference's or an item's URL where its text hangs: the entry goes on
    if code != coded and not wraps or code and ln.x0 > prev.x0 + ln.size and not (wraps and coded):
        return True  # (under a short line, itself in code or not: "/opt/X11, e.g. by")
    if not wraps:
        if heady_prev != heady or (heady and (prev.style, prev.weight) != (ln.style, ln.weight)):
            return True
        if ENDS.search(prev.text.rstrip()) and not verse(prev, current, right, rtl):
            return True
    if (
        ln.lead and " " in ln.text[ln.lead - 1 : ln.lead + 1] and STOPS.search(prev.text)
        and not ln.text[ln.lead :].lstrip()[:1].islower()  # a head goes on: a capital, a "("
    ):  # fmt: skip
        return True  # a bold label run in after a sentence's end: a paper's next paragraph
    if rtl or kind == "item":  # an item ends at a line set out left of its first (its bullet)
        if len(current) > 1 and run_in(current[0], current[1]):
            return False  # a run-in head's paragraph (``a. Syntax The ...``): its lines go on
        return not rtl and ln.x0 < current[0].x0 - 0.5 * ln.size
    em = ln.size
    indented = left + 0.6 * em < ln.x0 <= left + 6 * em and ln.x0 > prev.x0 + 0.6 * em
    if indented and prev.x0 <= left + 0.6 * em:
        first = current[0]  # not a hanging indent: the block opened at the left or as indented
        lettered = _APPENDIX.match(prev.text) and ln.style == prev.style and survey.distinct(prev)
        if first is prev and (
            survey.hangs(prev, ln) or lettered or wraps and (hung(prev, ln) or hung_text(prev, ln))
        ):
            return False  # a title, an item or a reference ([3] ...) wrapped under itself
        if first is prev and _hanging(prev, ln, sides, _reached(reach, ln.x0), survey):
            return False  # a reference's first line and its wraps set in under it
        return first is prev or first.x0 <= left + 0.6 * em or abs(first.x0 - ln.x0) < 0.3 * em
    return False


def _scripted(prev: Line, ln: Line, start: float) -> bool:
    """``ln`` is set at a script's size (under 0.76 of ``prev``'s: no footnote nor caption set
    small) in a box as tall as ``prev``'s (not taller by a fifth of its size: no row of two
    lines an OCR layer merged, a caption's and the body's), in its family, wrapped at the block's
    left (``start``: no display set in, no line of another column left of it): a line of the
    body whose scripts outnumber its letters (``P_selected(i).``); not a line a small number
    leads (a listing's line number: a script follows its base), nor one of an OCR layer in its
    own font, whose boxes are all one height whatever its sizes."""
    tall = prev.height - 0.5 <= ln.height <= prev.height + 0.2 * prev.size
    scripts = ln.size < 0.76 * prev.size and tall
    wrapped = abs(ln.x0 - start) <= 0.5 * prev.size and not LINE_NUMBER.match(ln.text)
    return scripts and wrapped and ln.family == prev.family != OCR_FONT


def _hanging(
    prev: Line, ln: Line, sides: tuple[float, float], reach: float, survey: Survey
) -> bool:
    """``ln`` wraps the entry ``prev`` opens at the column's left (a reference list's hanging
    indent): ``prev`` in the body's style runs to the column's edge ending no sentence; ``ln``,
    set in up to two ems (no centred display), opening with no bracketed label nor bullet (a
    lead-in's clauses: ``(a) is duly ...``; ``11. Jahrhunderts`` may open a wrap), runs there
    too or ends the entry at a stop, as lines set in at its x do (``reach``)."""
    left, right = sides
    full = runs_to_edge(prev, right, False, first_word(ln.text)) and reach >= right - ln.size
    wrap = runs_to_edge(ln, right, False) or bool(ENDS.search(ln.text.rstrip()))
    ends = ENDS.search(prev.text.rstrip())
    labelled = _CLAUSE.match(ln.text) or bulleted(ln.text)  # a list under its lead: no wrap
    return (
        full and wrap and ln.x0 <= left + 2 * ln.size and not ends and not labelled
        and not survey.distinct(prev)
    )  # fmt: skip


def _captioning(first: Line, prev: Line, ln: Line) -> bool:
    """``ln`` goes on with the caption ``first`` opens: after its bare label (``Table 1.``,
    or ``Table`` then the number) or a line of it that ends no sentence, at the caption's size."""
    opened = first.text.lstrip()
    opens = CAPTION.match(opened) or _CAPTION_WORD.match(opened) and first is prev
    label = _CAPTION_LABEL.match(prev.text.strip()) or _CAPTION_WORD.match(prev.text.strip())
    same = abs(ln.size - prev.size) < 1.0
    return bool(opens) and same and (bool(label) or not ENDS.search(prev.text.rstrip()))
