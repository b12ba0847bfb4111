"""A column's lines as blocks (structure.py lays out the page and writes them): paragraphs split
at line gaps, first-line indents and sentence ends after a short line; list items from bullets
and numbers; headings from the outline, the heading styles (survey.py) and numbering, never a
caption, bullet, formula or sentences; a heading run into its paragraph split from it."""

from __future__ import annotations

import re
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING

from ...sanitize import lazy_pattern
from .lines import Line, closed
from .order import (
    ENDS,
    STOPS,
    Item,
    first_word,
    hung,
    hung_text,
    hyphenated,
    join,
    run_in,
    runs_to_edge,
    script,
    side_by_side,
    stacked,
    verse,
)
from .survey import HEAD_NUMBER as _HEAD_NUMBER

if TYPE_CHECKING:
    from .survey import Style, Survey

_STRONG_BULLETS = "•◦▪▫‣⁃●○■□▶►➢✓\u25b8\ufffd\uf0a7\uf0b7\uf0d8\uf0fc"
_WEAK_BULLETS = "-–—*·∙"
_NUMBERED = lazy_pattern(r"^\s*(?:\d{1,3}[.)]|\(?[a-z][.)]|\([ivx]{1,4}\)|\(\d{1,3}\))\s+\S")
_LIST_START = frozenset("0123456789(abcdefghijklmnopqrstuvwxyz")
_APPENDIX = lazy_pattern(r"\s*[A-Z] [A-Z]")  # a paper's appendix head: "B Alternative ..."
_CAPTION_WORDS = (
    r"(?:Figure|Fig\.|Chart|Image|Photo|Abbildung|Abb\.|Table|Tab\.|Tabelle|Listing|Example"
    r"|Algorithm|Scheme|Plate|Exhibit|그림|표|\[표|\[그림)"
)
CAPTION = lazy_pattern(rf"^{_CAPTION_WORDS}\s*[\dIVX]", re.IGNORECASE)
_CAPTION_START = lazy_pattern(rf"^\s*{_CAPTION_WORDS}", re.IGNORECASE)  # what a caption opens with
_THEOREM = lazy_pattern(  # a theorem's or a proof's label: it opens a paragraph, heads no section
    r"^(?:Satz|Lemma|Theorem|Korollar|Corollary|Proposition|Definition|Bemerkung|Remark|Beweis"
    r"|Proof|Folgerung|Hilfssatz|Conjecture|Vermutung|Claim|Behauptung)(?:\s+[\d.]+|\s*[.:(]|$)"
    r"|^(?:Beispiel|Example|Aufgabe|Exercise|Übung|Anmerkung|Notation)\s+\d[\d.]*\s*"
    r"(?:[.:(]|\([^()]*\))?$",  # "Beispiel 1 (Topologien)": its name in brackets
)  # an example's or exercise's numbered label too (alone: "Example" may head a section)
_FIELD = lazy_pattern(r"^[^\d:]{1,40}:\s*\S*\d|[$€£¥₩]\s?\d|\d[.,]\d\d\b")  # "Total: $45.00"
_CONTACT = lazy_pattern(  # a phone number, an e-mail or a web address: a letterhead's, no title's
    r"\(\d{2,4}\)\s?\d{3,4}[\s.-]\d{3,4}|\b\d{3}[.-]\d{3}[.-]\d{4}\b|\+\d{1,3}[\s.-]\d"
    r"|[\w.+-]+(?:@| at )[\w-]+\.[a-z]{2,}\b|\bwww\.\w|https?://"  # "tal197 at users.sf.net"
)
_CAPTION_WORD = lazy_pattern(r"^(?:Figure|Fig\.|Table|Tab\.|Tabelle|Abbildung|Abb\.)$", re.IGNORECASE)
_CAPTION_LABEL = lazy_pattern(CAPTION.pattern + r"[\w.\-–]*[.:]?$", re.IGNORECASE)  # "Table 1."
_URL = lazy_pattern(r"\s*(?:https?://|ftp://|www\.|doi:)", re.IGNORECASE)  # a reference's address
_MAX_HEADING = 160  # characters: a longer block is text, whatever its font
_WEAK_WORDS = 12  # a heading set only apart by slant, family or a little size: this many words
_WORD = lazy_pattern(r"[^\W\d_]{3}|[\u3040-\u30ff\u4e00-\u9fff\uac00-\ud7af]{2}")  # a word
_ACRONYM = lazy_pattern(r"\b[A-Z]{2}\b")  # two capitals: a word of a bold title ("TL;DR:")
_SENTENCES = lazy_pattern(r"[a-z]{2}[.!?]\s+[A-Z]")  # one sentence ends, another starts
_ABBREVIATED = lazy_pattern(r"(?:\b[^\W\d_]{1,3}\.){2,}$|\b(?:Inc|Ltd|Co|Corp)\.$")  # n.e.V., Inc.
_NUMBER_ONLY = lazy_pattern(_HEAD_NUMBER.pattern.replace("(?:\\s|$)", "$"), re.IGNORECASE)  # "1.2"
_SMALL = 0.85  # a numbered head apart from the body may be set this much smaller (9 pt over 10)
_CAPS_HEAD = 8  # words at most of a numbered line in capitals taken for a heading at body style
_TOC_ENTRY = lazy_pattern(r"\S\s+(?:\d{1,4}|[ivxlc]{1,6})$")  # "... Kompaktheit 27": a page number
_MATH_FONT = lazy_pattern(r"^(?:CM(?:MI|SY|EX)|MSAM|MSBM|rsfs|eufm|wasy)|Math|Symbol", re.I)
_MATH_SIGN = lazy_pattern(r"[=<>≤≥≠≈≡⇒⇔→↦←∈∉⊂⊆⊃⊇∩∪∧∨∑∏∫∂∇×÷±∞]")  # two in a line: a formula's


@dataclass
class Block:
    """A piece of the page in reading order. ``kind``: "text" (a paragraph), "item" (a list
    item), "heading" (``level``), "table", "figure" (``markdown``), "caption", "note" (a
    footnote), "lines" (figure labels, margin text, running lines), "code" (a listing)."""

    kind: str
    lines: list[Line] = field(default_factory=list)
    markdown: str = ""
    level: int = 0
    right: float = 0.0  # the column's right edge: where a wrapped line ends

    @property
    def x0(self) -> float:
        return min(ln.x0 for ln in self.lines)

    @property
    def text(self) -> str:
        return joined(self.lines).strip()

    @property
    def y0(self) -> float:
        return min(ln.y0 for ln in self.lines)

    @property
    def y1(self) -> float:
        return max(ln.y1 for ln in self.lines)


def norm(text: str) -> str:
    return " ".join(text.split()).casefold()


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
            typed = _typed(current, kind, survey, toc, starts, edge, beside=beside, strong=strong)
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
        start = _starts_item(ln, prev, reach, rtl, letters)
        if start or prev is None or _breaks(
            prev, ln, current, far, kind, gap, left, right, survey, rtl
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
    return _restyled(out, lines, toc, right)


def _restyled(out: list[Block], lines: list[Line], toc: dict[str, int], at: float) -> list[Block]:
    """A column's headings set right: one in its bullets' style is text (a slide's list levels),
    unless numbered or the outline's; a number alone in a numbered heading's style is one."""
    headed = [b for b in out if b.kind == "heading"]  # most columns: none, nothing to set right
    listed = {(ln.style, ln.weight) for ln in (lines if headed else ()) if bulleted(ln.text)}
    heads = {_key(b): b.level for b in headed if _HEAD_NUMBER.match(b.text)}
    for i, block in enumerate(out if listed or heads else ()):
        text = block.text
        if block.kind == "heading" and _key(block)[:2] in listed and not _HEAD_NUMBER.match(text):
            out[i] = block if norm(text) in toc else Block("text", block.lines, right=at)
        elif block.kind == "text" and _key(block) in heads and _NUMBER_ONLY.match(text):
            out[i] = Block("heading", block.lines, level=heads[_key(block)])
    return out


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
    ln: Line, prev: Line | None, reach: dict[int, float], rtl: bool, letters: set[tuple[str, int]]
) -> bool:
    """A line opening a list item: a strong bullet, or a weak one (``-``) or a number after a line
    short of its text's edge (``reach``: column_blocks') or full and ending a sentence left of it
    (a definition's, its ``a)``), a capital's ``C.`` under a line set in, ``B.``/``D.`` at its x."""
    stripped = ln.text.lstrip()
    first, second = stripped[:1], stripped[1:2]
    if first in _STRONG_BULLETS:
        return first == "\ufffd" or bool(stripped[1:].strip())  # a box alone: no empty item
    weak = first in _WEAK_BULLETS and second in (" ", "\t", "\xa0")
    numbered = not weak and first in _LIST_START and bool(_NUMBERED.match(stripped))
    if second == "." and first.isupper() and stripped[2:3].isspace():  # "C." under a clause's
        at, near = round(ln.x0 / 2), (chr(ord(first) - 1), chr(ord(first) + 1))  # text set in
        sibling = any((c, at + d) in letters for c in near for d in (-1, 0, 1))
        return sibling and prev is not None and prev.x0 > ln.x0 + 2
    if not (weak or numbered) or prev is None:
        return weak or numbered
    at = round(prev.x0 / 4)  # where the text prev starts with wraps (an item's line only)
    edge = max(reach.get(at - 1, 0.0), reach.get(at, 0.0), reach.get(at + 1, 0.0))
    full = edge >= max(reach.values()) - ln.size  # its text's edge the column's: a full line
    ends = full and ln.x0 > prev.x0 + 0.5 * ln.size and ENDS.search(prev.text.rstrip())
    return not runs_to_edge(prev, edge, rtl) or prev.x0 > ln.x0 + 2 or bool(ends)


def _breaks(
    prev: Line, ln: Line, current: list[Line], far: float, kind: str, gap: float, left: float,
    right: float, survey: Survey, rtl: bool,
) -> bool:  # fmt: skip
    """Whether ``ln`` starts a new block after ``prev`` (``current``'s last, its lines ``far``
    right): it sits beside it, more space is above it than between a paragraph's lines, the
    size changes, two short lines apart from the body change slant or family (a subtitle over
    a heading, not a byline over affiliations); after a line that runs to the text's edge, only
    a first-line indent; after a short line, a heading style's change, or a sentence's end."""
    if side_by_side(prev, ln) and not stacked(prev, ln):
        return not (run_in(prev, ln) or script(prev, ln))  # a label or a value: its own block
    if ln.y0 - prev.y1 > gap + 0.35 * min(ln.y1 - ln.y0, prev.y1 - prev.y0):
        return True
    if _CAPTION_START.match(current[0].text) and _captioning(current[0], prev, ln):
        return False  # a caption's label and its text, in styles of their own
    if abs(ln.size - prev.size) >= 1.0:
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
        if first is prev and (survey.hangs(prev, ln) or lettered or wraps and hung(prev, ln)):
            return False  # a title or an item wrapped under itself (a hanging indent)
        return first is prev or first.x0 <= left + 0.6 * em or abs(first.x0 - ln.x0) < 0.3 * em
    return False


def _captioning(first: Line, prev: Line, ln: Line) -> bool:
    """``ln`` goes on with the caption ``first`` opens: after its bare label (``Table 1.``,
    or ``Table`` then the number) or a line of it that ends no sentence, at the caption's size."""
    opened = first.text.lstrip()
    opens = CAPTION.match(opened) or _CAPTION_WORD.match(opened) and first is prev
    label = _CAPTION_LABEL.match(prev.text.strip()) or _CAPTION_WORD.match(prev.text.strip())
    same = abs(ln.size - prev.size) < 1.0
    return bool(opens) and same and (bool(label) or not ENDS.search(prev.text.rstrip()))


def _typed(
    lines: list[Line], kind: str, survey: Survey, toc: dict[str, int], starts: set[str],
    right: float, *, beside: bool = False, strong: bool = False,
) -> list[Block]:  # fmt: skip
    """A run of lines as its blocks: a heading (the outline names it, or its style and shape
    say so: ``_heading_level``), a heading run into the paragraph it opens, a caption, or a
    paragraph / list item; a block ``beside`` another on its row (a label, a value) is never a
    heading, a list item (``strong``: indented, or of lines) only if larger than body or bold."""
    opens = lines[0].text.split(None, 1)[:1] if toc else []  # a title's first word: of ``starts``
    named = opens and opens[0].casefold() in starts
    whole = norm(" ".join(ln.text for ln in lines)) if named else None
    if whole is not None and whole in toc:
        return [Block("heading", lines, level=min(toc[whole], 4))]
    if kind == "text" and _CAPTION_START.match(lines[0].text) and CAPTION.match(joined(lines[:2])):
        return [Block("caption", lines, right=right)]
    if beside:
        return [Block(kind, lines, right=right)]
    first = lines[0]  # larger and mostly in a bold face: a heading's line, a word in code in it
    lines = lines if survey.bigger(first) and first.weight >= 600 else _lead_split(lines)
    if len(lines) > 1 and run_in(lines[0], lines[1]):
        return _run_in_label(lines, kind, survey, right)
    level = _heading_level(lines, survey, toc, strong=strong)
    if level:
        return [Block("heading", lines, level=level)]
    head = _lead(lines, survey)
    if head:
        level = _heading_level(lines[:head], survey, toc, strong=strong)
        if level:
            rest = Block(kind, lines[head:], right=right)
            return [Block("heading", lines[:head], level=level), rest]
    return [Block(kind, lines, right=right)]


def _lead_split(lines: list[Line]) -> list[Line]:
    """A first line opening with a label in another style (``Line.lead``): label, text apart."""
    first = lines[0]
    if not first.lead or first.lead >= len(first.text):
        return lines
    cut = first.x0 + (first.x1 - first.x0) * first.lead / len(first.text)
    label = replace(first, x1=cut, text=first.text[: first.lead].rstrip(), lead=0, bold=True)
    rest = replace(first, x0=cut, text=first.text[first.lead :].lstrip(), lead=0)
    return [label, rest, *lines[1:]] if rest.text else lines


def _run_in_label(lines: list[Line], kind: str, survey: Survey, right: float) -> list[Block]:
    """A block that opens with a label run into its text on the same row: a numbered one
    (``2. COMPENSATION.``, set apart from the body) is a heading of its own, any other
    (``Satz 4.1``, ``Note:``, ``Beweis.``) stays in its paragraph, never a heading."""
    label, text = lines[0], lines[0].text.strip()
    if _HEAD_NUMBER.match(text) and survey.distinct(label) and len(text.split()) <= _CAPS_HEAD:
        rest = Block(kind, lines[1:], right=right)
        return [Block("heading", [label], level=survey.level(label)), rest]
    return [Block(kind, lines, right=right)]


def _heading_level(
    lines: list[Line], survey: Survey, toc: dict[str, int], *, strong: bool = False
) -> int:
    """The level of a block that is a heading, else 0: at most three lines of one size and
    weight apart from the body's (survey.Survey.distinct), with a word in it (not a formula),
    not a caption, a bullet, sentences or a part of one (a comma at its end, unnumbered lower
    case at its start), contact data (a letterhead's), code (monospaced, a bracket left open), and larger
    or bolder, or (unless ``strong`` only: a list item) in a style the document sets its
    headings in, or numbered (``1.2``, ``(1)``, ``Chapter 3``), short and not a sentence."""
    first = lines[0]
    if len(lines) > 3:
        return 0
    small = _small_head(first, survey)  # apart though smaller: even as a list item's line
    distinct = small or survey.distinct(first)
    if not distinct and (len(lines) > 1 or not _HEAD_NUMBER.match(first.text.strip())):
        return 0  # neither apart from the body nor numbered (most blocks: no text joined)
    if any(abs(ln.size - first.size) >= 0.5 or ln.bold != first.bold for ln in lines):
        return 0
    text = joined(lines)
    if not text or len(text) > _MAX_HEADING and not survey.numbered_title(text, first):
        return 0
    if not distinct and not _caps_numbered(text):
        return 0
    if toc and norm(text) in toc:
        return min(toc[norm(text)], 4)
    stripped = text.lstrip()
    if (
        stripped[:1] in _STRONG_BULLETS
        or CAPTION.match(stripped)
        or _THEOREM.match(stripped)
        or not (_WORD.search(text) or first.bold and _ACRONYM.search(text))
        or _MATH_FONT.search(first.family)
        or len(_MATH_SIGN.findall(text)) >= 2  # a display formula set in a text face
        or _SENTENCES.search(text)
        and not survey.numbered_title(text, first)
        or _CONTACT.search(text)
        or survey.code(first)  # a signature, a listing
        or text.rstrip().endswith((",", ";"))  # a sentence's part: a list item, an OCR line
    ):
        return 0
    words = len(text.split())
    number = _HEAD_NUMBER.match(stripped)
    numbered, rest = number is not None, stripped[number.end() :] if number else ""
    field = not number and not survey.bigger(first) and bool(_FIELD.search(stripped))
    field = field or not number and stripped[:1].islower() and words > 2  # a sentence carried on
    count = (rest if number else stripped).count  # brackets apart from the number's "(1)"
    if _TOC_ENTRY.search(rest) and _WORD.search(rest) or field or count("(") != count(")"):
        return 0  # a TOC entry, a field, a sentence carried on, a wrapped line's open bracket
    sentence = bool(re.search(r"[.,;]$", end := text.rstrip())) and (not numbered or words > 8)
    sentence = sentence and not _ABBREVIATED.search(end)  # a name's "e.V.", "Inc.": no end
    heavier = len(lines) == 1 and first.family == survey.body_style[3]
    heavier = heavier and first.weight > survey.body_weight  # a line in a heavier cut: bold
    if survey.bigger(first) or (first.bold or heavier) and not survey.body_style[1]:
        if sentence and (words > 8 or text.rstrip().endswith(".") and words > 2) or first.mono:
            return 0
        return survey.level(first)
    if (strong and not (small or _caps_numbered(text))) or words > _WEAK_WORDS or sentence:
        return 0
    if numbered or survey.heading_style(first) and stripped[:1] not in "—–-\"“'‘(":
        return survey.level(first)
    return 0


def _small_head(first: Line, survey: Survey) -> bool:
    """A numbered line set a little smaller than the body but apart from it by weight, slant or
    family, no sentence: a paper's section head (REVTeX's 9 pt heads over a 10 pt body)."""
    size, bold, italic, family, text = *survey.body_style, first.text.strip()
    if not size * _SMALL <= first.size < size - 0.5 or not _HEAD_NUMBER.match(text):
        return False
    apart = first.bold > bold or first.italic > italic or first.family != family and not first.mono
    sentence = text.endswith((".", "!")) or text.endswith("?") and not first.bold  # a bold question heads
    return apart and not (sentence and len(text.split()) > 5)


def _caps_numbered(text: str) -> bool:
    """A numbered line in capitals, a few words (``1. INTENT``): a heading at body style."""
    stripped = text.strip()  # the number first: most lines have none (no letters looked at)
    letters = [c for c in stripped if c.isalpha()] if _HEAD_NUMBER.match(stripped) else ""
    caps = len(letters) >= 3 and all(c.isupper() for c in letters)
    return caps and len(stripped.split()) <= _CAPS_HEAD and not stripped.endswith((",", ";"))


def _lead(lines: list[Line], survey: Survey) -> int:
    """How many first lines of a block are a heading run into its paragraph: whole lines in
    one style apart from the body's, the next not in it; or a numbered line in capitals over
    text that is not (``0. PREAMBLE``: a list item's title line)."""
    if len(lines) > 1 and _caps_numbered(lines[0].text) and not lines[1].text.isupper():
        return 1
    if len(lines) < 2 or not survey.distinct(lines[0]):
        return 0
    n = 1
    while n < min(3, len(lines)) and lines[n].style == lines[0].style:
        n += 1
    return n if n < len(lines) and not survey.distinct(lines[n]) else 0


def ended(block: Block) -> bool:
    """The block's text ends a sentence."""
    end = block.lines[-1].text.rstrip() if block.lines else ""
    return bool(ENDS.search(end)) and not hyphenated(end)


def bulleted(text: str) -> bool:
    """The line opens with a bullet glyph (a weak one, ``-``, followed by a space)."""
    head = text.lstrip()[:2]
    return head[:1] in _STRONG_BULLETS or head[:1] in _WEAK_BULLETS and head[1:2].isspace()


def joined(lines: list[Line]) -> str:
    return join(ln.text for ln in lines)
