"""Whether a run of a column's lines is a heading, and its level (``typed_blocks``): the outline
names it, or its size, weight, the document's heading styles (survey.py) and its numbering
say so, never a caption, a bullet, a formula, contact data or sentences; a heading run into
its paragraph split from it, a label run in on its row kept in it unless numbered."""

from __future__ import annotations

import re
from dataclasses import replace
from typing import TYPE_CHECKING

from ....sanitize import lazy_pattern
from ..library import OCR_FONT
from ..survey import HEAD_NUMBER as _HEAD_NUMBER
from ..tables.rows import price
from .joins import same_row
from .pieces import CAPTION, CAPTION_START, STRONG_BULLETS, Block, joined, norm
from .relations import run_in

if TYPE_CHECKING:
    from ..survey import Survey
    from .lines import Line

_THEOREM = lazy_pattern(  # a theorem's or a proof's label: it opens a paragraph, heads no section
    r"^(?:Satz|Lemma|Theorem|Korollar|Corollary|Proposition|Definition|Bemerkung|Remark|Beweis"
    r"|Proof|Folgerung|Hilfssatz|Conjecture|Vermutung|Claim|Behauptung)(?:\s+[\d.]+|\s*[.:(]|$)"
    r"|^(?:Beispiel|Example|Aufgabe|Exercise|Übung|Anmerkung|Notation)\s+\d[\d.]*\s*"
    r"(?:[.:(]|\([^()]*\))?$",  # "Beispiel 1 (Topologien)": its name in brackets
)  # an example's or exercise's numbered label too (alone: "Example" may head a section)
_ADMONITION = lazy_pattern(  # a note box's label (DocBook, Sphinx), in their languages
    r"^(?:Note|Tip|Hint|Warning|Caution|Important|Anmerkung|Hinweis|Tipp|Warnung|Achtung|Wichtig"
    r"|Vorsicht|Remarque|Astuce|Avertissement|Nota|Avvertenza|Suggerimento|Aviso|Advertencia"
    r"|Dica):?$",
    re.IGNORECASE,
)
_BYLINE = lazy_pattern(  # "Brian D. Beitzel†": a name and its footnote's mark (an address)
    r"^(?:[A-Z][\w'’.-]*\s+){1,4}[A-Z][\w'’-]+\s*,?\s*[†‡§¶][\s,†‡§¶\d]*$"
)
_STARRED = lazy_pattern(  # "Jürgen Spitzmüller∗": LaTeX's first \thanks mark (a title's too)
    r"^(?:[A-Z][\w'’.-]*\s+){1,4}[A-Z][\w'’-]+\s*,?\s*[∗*][\s,†‡§¶∗*\d]*$"
)
_NAME = lazy_pattern(  # "Joseph C. Slater", "Professor R. O. Tenase": a byline, no mark needed
    r"^(?:(?:Prof\.|Professor|Dr\.)\s+)?[A-Z][a-zà-ÿ'’-]+(?:\s+[A-Z]\.){1,2}\s+[A-Z][a-zà-ÿ'’-]+$"
)
_INITIALED = (  # a name with its initials: "W. N. Venables", "Joseph C. Slater"; atomic groups:
    r"(?>(?:[A-Z]\.\s?+){1,3}+[A-Z][a-zà-ÿ'’-]++"  # no space taken two ways (2^n backtracking)
    r"|[A-Z][a-zà-ÿ'’-]++(?:\s+[A-Z]\.){1,2}+\s+[A-Z][a-zà-ÿ'’-]++)"
)
_JOINED = r"\s*+(?:,|\band\b|&|\bund\b)\s*+"  # names' joint: a comma, "and" as a word
_AUTHORS = lazy_pattern(  # "W. N. Venables, D. M. Smith and the R Core Team": two names at least
    rf"^{_INITIALED}(?>{_JOINED}{_INITIALED})++(?:{_JOINED}(?:the\s.+|[A-Z][a-z]+\s[A-Z][a-z]+))?$"
)
_PARTS = lazy_pattern(  # a document part's letter: "Exhibit A. Terms", "Schedule B. Prices"
    r"^(?:Exhibit|Schedule|Annex|Attachment|Appendix|Article|Section|Part|Form|Step|Phase"
    r"|Option|Type|Class|Group|Plan|Level|Model|Table|Figure|Anhang|Anlage)\s", re.IGNORECASE
)
_LEADER = lazy_pattern(r"(?:\.\s?){5,}|ꞏ{3,}|…{2,}")  # a TOC entry's leader, its page apart
_FIELD = lazy_pattern(r"^[^\d:]{1,40}:\s*\S*\d|[$€£¥₩]\s?\d|\d[.,]\d\d\b")  # "Total: $45.00"
_VALUED = lazy_pattern(r"^[^\d:：()]{1,40}[:：]\s*(?!\d{4}$)[^\s:：]*\d[^\s:：]*$")  # "ID: OD3041…"
CODE = lazy_pattern(  # "ACCEA5E3GPBQJ9P9", "AIECE2021-0001": a product's or a paper's code, no title
    r"^(?=(?:\D*\d){3})(?=(?:[^A-Z]*[A-Z]){2})[A-Z\d][A-Z\d_-]{9,}$"
)
_NUMBER_SIGN = lazy_pattern(  # "# invoice_number_1", "№ 42/7": a document's number, no title
    r"^(?:#|№|No\.|Nr\.|N[°º])\s*\S*\d\S*$", re.IGNORECASE
)
_DATED = lazy_pattern(r"\d{4}[-/–.]\d{1,2}[-/–.]\d{1,2}|\b\d{1,2}[-/.]\d{1,2}[-/.]\d{4}")  # 2022/12/06
_RELEASE = lazy_pattern(  # what dates a release: "Version 2.2", "v1.7.1", "Released", "dated", "发布"
    r"\b(?:version|versão|release[ds]?|dated|vom|from)\b|\bv\.?\s?\d|发布", re.IGNORECASE
)
_CONTACT = lazy_pattern(  # a phone number, an e-mail or a web address: a letterhead's, no title's
    r"\(\d{2,4}\)\s?\d{3,4}[\s.-]\d{3,4}|\b\d{3}[.-]\d{3}[.-]\d{4}\b|\+\d{1,3}[\s.-]\d"
    r"|[\w.+-]+(?:@| at )[\w-]+\.[a-z]{2,}\b|\bwww\.\w|https?://"  # "tal197 at users.sf.net"
)
_MAX_HEADING = 160  # characters: a longer block is text, whatever its font
_WEAK_WORDS = 12  # a heading set only apart by slant, family or a little size: this many words
_WORD = lazy_pattern(r"[^\W\d_]{3}|[\u3040-\u30ff\u4e00-\u9fff\uac00-\ud7af]{2}")  # a word
_SPACED = lazy_pattern(r"(?<=\b[^\W\d_]) (?=[^\W\d_]\b)")  # "T E S T": a letterspaced title
_ACRONYM = lazy_pattern(r"\b[A-Z]{2}\b")  # two capitals: a word of a bold title ("TL;DR:")
_SENTENCES = lazy_pattern(r"[a-z]{2}[.!?]\s+[A-Z]")  # one sentence ends, another starts
_CJK_SENTENCE = lazy_pattern(r"[。，]|[！？]\s*\S|[；、]$")  # a stop, a clause's comma, sentences
_BRACKETED = lazy_pattern(r"（[^）]*）|\([^)]*\)")  # "（每题3 分，共18 分）": a heading's note
_ABBREVIATED = lazy_pattern(r"(?:\b[^\W\d_]{1,3}\.){2,}$|\b(?:Inc|Ltd|Co|Corp)\.$")  # n.e.V., Inc.
_ABSTRACT = lazy_pattern(  # a paper's part set small over it (\small\bfseries, ASME's sans caps)
    r"^(?:Abstract|Zusammenfassung|Kurzfassung|Résumé|Resumo|Resumen|Sommario|Riassunto"
    r"|Samenvatting|Аннотация|摘\s*要|Nomenclature|Acknowledge?ments?|References)[.:]?$",
    re.IGNORECASE,
)
_SMALL = 0.85  # a numbered head apart from the body may be set this much smaller (9 pt over 10)
_ENDS = lazy_pattern(r"[^\W\d_]{2}[.!?]\s*$")  # a sentence's end: "None." run in after a head
_SUB_ROMAN = lazy_pattern(r"^[IVX]{1,5}(?:\.\d{1,2}){1,3}\.?(?:\s|$)")  # REVTeX's "IV.5." entry
_LISTED = lazy_pattern(r"[\\%{}#@$<(\[]|.*[;{}]$")  # a listing's line after its number: "56 \\author{"
_CONTENTS_RUN = 4  # OCR rows opening with a number, none between: a scanned contents page's
_CAPS_HEAD = 8  # words at most of a numbered line in capitals taken for a heading at body style
_TOC_ENTRY = lazy_pattern(r"\S\s+(?:\d{1,4}|[ivxlc]{1,6})$")  # "... Kompaktheit 27": a page number
_CITED = lazy_pattern(  # "Appendices for Chapter 3": the number a part's, no page's
    r"\b(?:Chapter|Section|Part|Appendix|Kapitel|Abschnitt|Teil|Table|Figure)\s+\d{1,4}$", re.I
)
_SYNTAX = lazy_pattern(r"⟨[^⟩]+⟩|^\\[A-Za-z@]+\*?\s*[{\[]")  # \author{⟨author⟩}: a command's
_MATH_FONT = lazy_pattern(r"^(?:CM(?:MI|SY|EX)|MSAM|MSBM|rsfs|eufm|wasy)|Math|Symbol", re.I)
_MATH_SIGN = lazy_pattern(r"[=<>≤≥≠≈≡⇒⇔→↦←∈∉⊂⊆⊃⊇∩∪∧∨∑∏∫∂∇×÷±∞]")  # two in a line: a formula's


def typed_blocks(
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
    if kind == "text" and CAPTION_START.match(lines[0].text) and CAPTION.match(joined(lines[:2])):
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
    """A first line opening with a label in another style (``Line.lead``): label, text apart;
    not a bare number (``3``, ``3.1``: a heading's number before its title set in another face,
    a CJK title beside a Latin number, or an item's number before its text: one line)."""
    first = lines[0]
    if not first.lead or first.lead >= len(first.text):
        return lines
    if not _WORD.search(first.text[: first.lead]) and not first.mono:
        return lines  # a number before a monospaced title: split, the title is no listing
    cut = first.x0 + (first.x1 - first.x0) * first.lead / len(first.text)
    label = replace(first, x1=cut, text=first.text[: first.lead].rstrip(), lead=0, bold=True)
    rest = replace(first, x0=cut, text=first.text[first.lead :].lstrip(), lead=0)
    return [label, rest, *lines[1:]] if rest.text else lines


def _run_in_label(lines: list[Line], kind: str, survey: Survey, right: float) -> list[Block]:
    """A block that opens with a label run into its text on the same row: a numbered one
    (``2. COMPENSATION.``, set apart from the body) is a heading of its own, a bare number
    (``第3 节``) with the title beside it in its style; any other (``Satz 4.1``, ``Note:``,
    ``Beweis.``, a bare number before body text) stays in its paragraph, never a heading."""
    label, text = lines[0], lines[0].text.strip()
    if _HEAD_NUMBER.match(text) and survey.distinct(label) and len(text.split()) <= _CAPS_HEAD:
        chapter = text[:1] == "第" and bool(_HEAD_NUMBER.fullmatch(text))  # 第四章: no word
        bare = chapter or not _WORD.search(text)  # 3.1 (a run-in "Section heads." has words)
        titled = lines[1].style == label.style or survey.distinct(lines[1])  # its title's style
        title = lines[1].text if bare else ""  # a word, no sentence
        titled = titled and bool(_WORD.search(title)) and not _cjk_sentence(title)
        if (not bare or titled) and not _MATH_SIGN.search(text + title):  # an exam's question
            head, rest = lines[: 1 + bare], lines[1 + bare :]
            tail = [Block(kind, rest, right=right)] if rest else []
            return [Block("heading", head, level=survey.level(label)), *tail]
    return [Block(kind, lines, right=right)]


def _heading_level(
    lines: list[Line], survey: Survey, toc: dict[str, int], *, strong: bool = False
) -> int:
    """The level of a block that is a heading, else 0: at most three lines of one size and
    weight apart from the body's (survey.Survey.distinct), with a word in it (not a formula),
    not a caption, a bullet, sentences or a part of one (a comma at its end, unnumbered lower
    case at its start; a CJK full stop), contact data (a letterhead's; a byline's name with its
    footnote mark; several names with their initials), a TOC entry's leader, a code, a field
    with a value of one word or a bill's number at any size (``ACCEA5E3GPBQJ9P9``, ``Order ID:
    OD3041…``, ``# invoice_number_1``), code (monospaced, a bracket left open, a command's
    syntax: ``\\author{⟨author⟩}``), a note box's label, and larger or bolder, or (unless
    ``strong`` only: a list item) in a style the document sets its headings in, or numbered
    (``1.2``, ``(1)``, ``Chapter 3``), short and not a sentence."""
    first = lines[0]
    if len(lines) > 3:
        return 0
    small = _small_head(first, survey)  # apart though smaller: even as a list item's line
    distinct = small or survey.distinct(first)
    if not distinct and (len(lines) > 1 or not _HEAD_NUMBER.match(first.text.strip())):
        return 0  # neither apart from the body nor numbered (most blocks: no text joined)
    if any(abs(ln.size - first.size) >= 0.5 or ln.bold != first.bold and not ln.mono for ln in lines):
        return 0  # (a title's line in typewriter, no bold cut: ``my-thesis.cls``, of its weight)
    if first.lead and any(ln.family != first.family for ln in lines[1:]):
        return 0  # a run-in head's line over its paragraph's first line in the body face
    text = joined(lines)
    if not text or len(text) > _MAX_HEADING and not survey.numbered_title(text, first):
        return 0
    if not distinct and not (_caps_numbered(text) or _ocr_numbered(first, text)):
        return 0
    if toc and norm(text) in toc:
        return min(toc[norm(text)], 4)
    stripped = text.lstrip()
    if (
        stripped[:1] in STRONG_BULLETS
        or CAPTION.match(stripped)
        or _THEOREM.match(stripped)
        or _label(stripped, first, survey)
        or not (_WORD.search(_SPACED.sub("", text)) or first.bold and _ACRONYM.search(text))
        or _MATH_FONT.search(first.family)
        or len(_MATH_SIGN.findall(text)) >= 2  # a display formula set in a text face
        or (_SENTENCES.search(text) or _cjk_sentence(text))
        and not survey.numbered_title(text, first)
        or _CONTACT.search(text)
        or _BYLINE.match(stripped)  # a title page's author
        or _STARRED.match(stripped) and survey.level(first) > 1  # bold and typed *: a section's
        and not (first.bold and "∗" not in stripped or stripped.isupper())
        or _NAME.match(stripped) and not _PARTS.match(stripped)  # one with a middle initial
        or _AUTHORS.match(stripped)  # several with their initials
        or _LEADER.search(text)
        or CODE.match(stripped)  # the page's largest too: asmeconf's AIECE2021-0001
        or _NUMBER_SIGN.match(stripped)  # a bill's number under its title
        or stripped[:1] == "(" and stripped.endswith(")")  # a caption's note: "(Watermark ...)"
        or _SYNTAX.search(stripped) and not (survey.bigger(first) and first.bold)  # a command's
        or survey.code(first)  # a signature, a listing
        or text.rstrip().endswith((",", ";"))  # a sentence's part: a list item, an OCR line
    ):
        return 0
    words = len(text.split())
    number = _HEAD_NUMBER.match(stripped)
    numbered, rest = number is not None, stripped[number.end() :] if number else ""
    field = not number and not survey.bigger(first) and bool(_FIELD.search(stripped))
    field = field or not number and bool(_VALUED.match(stripped))  # a value of one word
    field = field or not number and stripped[:1].islower() and words > 2  # a sentence carried on
    count = (rest if number else stripped).count  # brackets apart from the number's "(1)"
    toc_entry = _TOC_ENTRY.search(rest) and _WORD.search(rest) and not _CITED.search(rest)
    if toc_entry or field or count("(") != count(")"):
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
    if numbered or small or survey.heading_style(first) and stripped[:1] not in "—–-\"“'‘(":
        return survey.level(first)
    return 0


def _cjk_sentence(text: str) -> bool:
    """CJK running text: a full stop, a comma between clauses (not in a heading's brackets),
    sentences, a clause's mark at the end."""
    return bool(_CJK_SENTENCE.search(_BRACKETED.sub("", text).rstrip()))


def _label(text: str, first: Line, survey: Survey) -> bool:
    """A note box's label (``Anmerkung``, ``Tip``) at body size in a face other than the body's
    (the box's text is set in it too): a label like a caption's, no heading; a reference
    manual's ``Note`` section in the body's face stays one."""
    return (
        first.family != survey.body_style[3]
        and not survey.bigger(first)
        and bool(_ADMONITION.match(text))
    )


def _small_head(first: Line, survey: Survey) -> bool:
    """A numbered line set a little smaller than the body but apart from it by weight, slant or
    family, no sentence: a paper's section head (REVTeX's 9 pt heads over a 10 pt body), an
    abstract's label (``Abstract`` in 9 pt bold over its 9 pt text) or a paper's other named
    part (ASME's ``NOMENCLATURE``, ``ACKNOWLEDGMENTS``, ``REFERENCES`` in 9 pt bold sans)."""
    size, bold, italic, family, text = *survey.body_style, first.text.strip()
    if not size * _SMALL <= first.size < size - 0.5:
        return False
    if not _HEAD_NUMBER.match(text) and not _ABSTRACT.match(text):
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


def _ocr_numbered(first: Line, text: str) -> bool:
    """An OCR text layer's side head (``8.1 Basic examples``): the layer has no weight and its
    sizes are steadied to the body's, so a line of a few words opening with a section number
    and a capital, no stop or colon at its end, is one (a numbered step's sentence is not)."""
    if first.family != OCR_FONT:
        return False
    stripped = text.strip()
    number = _HEAD_NUMBER.match(stripped)
    rest = stripped[number.end() :] if number else ""
    return (
        bool(rest[:1].isupper())
        and len(stripped.split()) <= _CAPS_HEAD
        and not stripped.endswith((".", ",", ";", ":", "："))
    )


def ocr_contents(lines: list[Line]) -> set[tuple[float, float]]:
    """Where (``x0``, ``y0``) a column's OCR lines are a contents page's entries: rows opening
    with a section number (no listing's numbered line of code), ``_CONTENTS_RUN`` or more with
    no other row between (a leader or a page number the OCR reads apart is a word of its
    entry's row, a sentence's end is not); an OCR side head is over its text (fbithesis p1
    scanned read ``2 Usage``, ``1.8 Thanks`` as heads)."""
    found: set[tuple[float, float]] = set()
    run: list[Line] = []
    for ln in [*lines, None]:
        middle = (ln.y0 + ln.y1) / 2 if ln else 0.0
        if ln and run and run[-1].y0 <= middle <= run[-1].y1 and not _ENDS.search(ln.text):
            continue  # on the entry's row (a run-in text, "None.", on it: a side head's)
        text = ln.text.strip() if ln and ln.family == OCR_FONT else ""
        if text.isdigit():
            continue  # a page number read apart from its row: neither entry nor text
        number = _HEAD_NUMBER.match(text) or _SUB_ROMAN.match(text)
        if ln and number and not _LISTED.match(text[number.end() :]):
            run.append(ln)
            continue
        if len(run) >= _CONTENTS_RUN:
            found.update((entry.x0, entry.y0) for entry in run)
        run = []
    return found


def _lead(lines: list[Line], survey: Survey) -> int:
    """How many first lines of a block are a heading run into its paragraph: whole lines in
    one style apart from the body's, the next not in it; or a numbered line in capitals over
    text that is not (``0. PREAMBLE``: a list item's title line), or an OCR layer's numbered
    side head over its text."""
    first = lines[0]
    if len(lines) > 1 and (
        _caps_numbered(first.text) and not lines[1].text.isupper()
        or _ocr_numbered(first, first.text)
    ):
        return 1
    if len(lines) < 2 or not (survey.distinct(lines[0]) or _small_head(lines[0], survey)):
        return 0
    n = 1
    while n < min(3, len(lines)) and lines[n].style == lines[0].style:
        n += 1
    return n if n < len(lines) and not survey.distinct(lines[n]) else 0


def row_label(heading: list[Line], lines: list[Line], toc: dict[str, int]) -> bool:
    """A heading's one line that labels prices set on its row to its right (the page's
    ``lines``; ``tables.rows.price``): a bill's ``Total HT :`` before ``46,68 €`` (a colon and
    one price), its ``Total`` before the sums (a short label and two prices or more): a row's
    label, no heading; unless the outline (``toc``) names it."""
    if len(heading) != 1 or norm(heading[0].text) in toc:
        return False
    head, text = heading[0], heading[0].text.strip()
    colon = text.endswith((":", "："))
    if not colon and len(text.split()) > 3:
        return False
    values = (ln for ln in lines if ln.x0 > head.x1 and same_row(ln, head))
    return sum(price(ln.text.strip()) for ln in values) >= (1 if colon else 2)


def dateline(blocks: list[Block], toc: dict[str, int]) -> Block | None:
    """The first page's release line: its one heading with a date in digits and a version or
    a release word (``Version 2.2, 2022/12/06``, ``2021/02/22 v1.7.1``, ``Released 2022/07/25``)
    under the document's top heading style dates the title block, no heading; a title that
    carries its date (in that style: ijsra's), one the outline names, or several (a change
    log's entries) stay headings."""
    dated = [block for block in blocks if block.kind == "heading" and _dated(joined(block.lines))]
    if len(dated) != 1 or norm(joined(dated[0].lines)) in toc:
        return None
    return dated[0] if dated[0].level > 1 else None


def _dated(text: str) -> bool:
    """A date in digits and a version or a release word: a release line's text."""
    return bool(_DATED.search(text)) and bool(_RELEASE.search(text))
