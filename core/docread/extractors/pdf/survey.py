"""What the whole document says about its pages, before any page's structure: the body text's
style, the styles its headings are set in (and their rank: the heading levels), the running
headers/footers (and the first page each is printed on), and the outline. A fixed sample of
pages is read (all of a document of 20 pages or fewer), never chosen by the pages asked for,
so a page reads the same alone, in a split read or whole; the pages it reads are kept for the
read (a page is read once)."""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass, field
from itertools import groupby
from operator import attrgetter
from typing import TYPE_CHECKING

from ...sanitize import lazy_pattern
from .content import bound_content
from .text.lines import Line, PageText
from .text.reading import read_page

if TYPE_CHECKING:
    import pymupdf

SAMPLE = 20  # pages surveyed at most (spread over the document; 40 read 2x the pages for the same real_pdf.py scores)
OUTLINE_DEPTH = 64  # outline levels read at most: deeper, the outline is hostile or broken
OUTLINE_ITEMS = 50_000  # outline entries read at most
BAND = 0.1  # top and bottom share of the page where running lines live
_WIDE_BAND = 0.2  # a line known to run on other pages is taken out this far in (a masthead)
_TITLE = 1.4  # times its running size: a title page's title, not the header repeating it
_DIGITS = re.compile(r"\d+")
_SPOT = re.compile(r"[&#]zoom=[^,&]*,[^,&]*,(-?\d+(?:\.\d+)?)$")
_PAGE_NUMBER = re.compile(
    r"^(?:page\s*|p\.\s*|-\s*)?(?:\d{1,4}|[ivxlc]{1,6})(?:\s*(?:of|/)\s*\d{1,4})?(?:\s*-)?$",
    re.IGNORECASE,
)
_ROMAN = r"(?=[ivxlc])c{0,3}(?:xc|xl|l?x{0,3})(?:ix|iv|v?i{0,3})"  # a Roman numeral to 399
_WORDS = (  # a number spelled out, to twenty
    r"(?:one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|thirteen|fourteen"
    r"|fifteen|sixteen|seventeen|eighteen|nineteen|twenty)"
)
HEAD_NUMBER = re.compile(  # a heading's numbering: 1.2, A., A.6.1, IV., (1), Kapitel 3, 제 1 장, 第3节
    r"^(?:\d{1,2}(?:\.\d{1,2}){0,4}\.?|(?-i:[A-Z])(?:\.\d{1,2}){1,4}\.?|[A-Z]\.|[IVX]{1,5}\.|\(\d{1,2}\)|\d{1,2}\)"
    r"|(?:chapter|section|part|appendix|kapitel|abschnitt|teil)\s+(?:\d{1,3}|(?-i:[A-Z]|"
    + _ROMAN.upper() + "|" + _ROMAN + r")|" + _WORDS + r")(?:\.|:(?=\s+\S))?"  # no word: "Section heads."
    r"|제\s*\d+\s*[장절조편]|第\s*[\d一二三四五六七八九十]{1,3}\s*[章节篇部])(?:\s|$)",
    re.IGNORECASE,
)
_MONTH = (
    r"(?:January|February|March|April|May|June|July|August|September|October|November|December"
    r"|Jan|Feb|Mar|Apr|Jun|Jul|Aug|Sept?|Oct|Nov|Dec|Januar|Februar|März|Mai|Juni|Juli|Oktober"
    r"|Dezember|janvier|février|mars|avril|juin|juillet|août|septembre|octobre|novembre"
    r"|décembre)\.?"
)
_DATE = lazy_pattern(  # a day's date alone: "October 14, 1998", "14. Oktober 1998", "1998-10-14"
    rf"^(?:[A-Z][a-z]+day,?\s+)?(?:\d{{1,2}}(?:st|nd|rd|th|er)?\.?\s+(?:of\s+)?{_MONTH},?\s+\d{{4}}"
    rf"|{_MONTH}\s+\d{{1,2}}(?:st|nd|rd|th)?,?\s+\d{{4}}|\d{{4}}-\d{{1,2}}-\d{{1,2}}"
    r"|\d{1,2}[./]\d{1,2}[./]\d{2,4})$",
    re.IGNORECASE,
)
BIGGER = 1.15  # a size this many times the body's marks a heading by itself
_WIDE = lazy_pattern(r"[\u1100-\u11ff\u2e80-\u9fff\uac00-\ud7af\uf900-\ufaff\uff00-\uff60]")
_PROSE = 10  # a prose style with this share (1/10) of a listing face's characters is the body
_ALONE_WORDS = 20  # a run of lines in one style this short, between other styles, stands alone

Style = tuple[float, bool, bool, str]  # Line.style: size, bold, italic, family


def running_key(text: str) -> str:
    """A running line's identity: digits stand for any number (``Page 3 of 9``)."""
    return _DIGITS.sub("#", " ".join(text.split()).casefold())


def is_page_number(text: str) -> bool:
    """``7``, ``vii``, ``Page 7``, ``7 of 12``, ``7/12``, ``- 7 -``."""
    return len(text) <= 24 and bool(_PAGE_NUMBER.match(text.strip()))


@dataclass
class Survey:
    """The document's body style (``body`` size, ``body_style``, its weight and colour), the
    styles that stand alone the way headings do (``heading_styles``, largest and heaviest first:
    their rank is the heading level), the colours that do (``heading_colors``), the running lines (their keys, each with the first sampled
    page that prints it and the size most pages print it in), the outline's headings by page,
    and the pages it read."""

    body: float = 10.0
    body_style: Style = (10.0, False, False, "")
    body_weight: int = 400
    body_color: int = 0
    heading_styles: list[Style] = field(default_factory=list)
    heading_colors: set[int] = field(default_factory=set)
    running: dict[str, int] = field(default_factory=dict)
    running_size: dict[str, float] = field(default_factory=dict)
    toc: dict[int, list[tuple[int, str]]] = field(default_factory=dict)
    headed: bool = False  # a sampled page has a line in a heading style
    read: dict[int, PageText] = field(default_factory=dict)  # surveyed pages, read once
    # read without their pictures (text.reading.with_pictures adds them if the page is analysed)
    unpictured: set[int] = field(default_factory=set)
    cut: set[int] = field(default_factory=set)  # pages whose content the survey cut (0-based)
    outline_lost: str = ""  # why the PDF's outline was not used (it could not be read)
    outline: list[tuple[int, str, int, float]] = field(default_factory=list)  # as read (outline)
    titles: frozenset[str] | None = None  # the outline's titles as compared (made on first use)
    # the per-page budget of ruled-table detection (pdf.table_max_paths, table_max_seconds)
    max_paths: int = 5000  # paths a page's reading collects at most
    max_seconds: float = 1.0  # a page whose reading took longer is not searched for rules

    def bigger(self, line: Line) -> bool:
        """Set clearly larger than the body."""
        return line.size >= self.body * BIGGER

    def distinct(self, line: Line) -> bool:
        """Set apart from the body by size (half a point or more), weight (bold, or heavier in
        the body's family), slant, family or a heading colour (at body size or larger)."""
        size, bold, italic, family = self.body_style
        if line.size >= size + 0.5:
            return True
        if line.size < size - 0.5:
            return False
        return (
            (line.bold and not bold)
            or (line.italic and not italic)
            or (line.family == family and line.weight > self.body_weight)
            or (line.family != family and line.size >= size and not line.mono)
            or (line.color in self.heading_colors and line.size >= size)
        )

    def hangs(self, first: Line, ln: Line) -> bool:
        """``ln`` wraps the numbered heading ``first`` opens, under its title past its number
        (a hanging indent, no paragraph's first-line indent), in its style apart from the body."""
        numbered = HEAD_NUMBER.match(first.text.strip())
        return bool(numbered) and ln.style == first.style and self.distinct(first)

    def numbered_title(self, text: str, first: Line) -> bool:
        """A numbered title set larger than the body (``3.1.1 Sie haben ... Was soll ich tun?``):
        its sentences and its length (a FAQ's question, up to three lines) keep it a heading."""
        return bool(HEAD_NUMBER.match(text.lstrip())) and self.bigger(first)

    def title(self, line: Line) -> bool:
        """A bold line clearly larger than the body: a title each page prints (a form and its
        copy, an estimate's pages), not a running line."""
        return line.bold and line.size >= self.body * _TITLE

    def heading_style(self, line: Line) -> bool:
        """In a style or a colour the document sets its headings in."""
        return line.style in self.heading_styles or line.color in self.heading_colors

    def code(self, line: Line) -> bool:
        """A line in a monospaced family other than the body's, not set as large as a title: a
        listing's, a signature's (a title's class name in typewriter is the title's)."""
        return line.mono and line.family != self.body_style[3] and line.size < self.body * _TITLE

    def level(self, line: Line) -> int:
        """A heading line's level: 1 + the heading styles ranked above its own (larger, then
        heavier, then upright before italic), at most 4."""
        key = _rank(line.style, line.weight)
        return min(1 + sum(_rank(s, 700 if s[1] else 400) > key for s in self.heading_styles), 4)

    def running_at(self, line: Line, height: float) -> bool:
        """A running header/footer line: its text (numbers aside) runs on other pages in its
        size (not a title page's title that the other pages' header repeats small), and it is
        in the top/bottom band (a fifth of the page for one seen elsewhere in the band)."""
        if not (line.y1 <= height * _WIDE_BAND or line.y0 >= height * (1 - _WIDE_BAND)):
            return False  # the band first: a key is made only for the lines in it
        key = running_key(line.text)
        return key in self.running and line.size <= _TITLE * self.running_size[key]


def _rank(style: Style, weight: int) -> tuple[float, int, bool]:
    size, bold, italic, _ = style
    return (size, 700 if bold else min(weight, 650), not italic)


def in_band(line: Line, height: float) -> bool:
    return line.y1 <= height * BAND or line.y0 >= height * (1 - BAND)


def alone(ln: Line, lines: list[Line]) -> bool:
    """The top line, above every other line, or the bottom one, below them."""
    others = [o for o in lines if o is not ln]
    return bool(others) and (
        all(o.y0 >= ln.y1 - 1 for o in others) or all(o.y1 <= ln.y0 + 1 for o in others)
    )


def marking(heading: list[Line], lines: list[Line], height: float) -> bool:
    """A heading's lines that mark the page, not head its text: a date alone (a title block's
    date line), in the bottom band with only lines of the band below them (a one-page
    document's footer: no other page repeats it), or in one band with their text printed again
    in the other (a marking at top and foot)."""
    text = " ".join(ln.text for ln in heading).strip()
    if len(text) <= 40 and _DATE.match(text):
        return True
    if not all(in_band(ln, height) for ln in heading):
        return False
    top, low = min(ln.y0 for ln in heading), heading[0].y0 >= height * (1 - BAND)
    if low and all(ln.y0 >= height * (1 - BAND) for ln in lines if ln.y0 > top):
        return True
    key = running_key(" ".join(ln.text for ln in heading))
    return any(
        abs(ln.y0 - top) > height / 2 and in_band(ln, height) and running_key(ln.text) == key
        for ln in lines
    )


def band_stack(lines: list[Line], height: float) -> set[int]:
    """The ids of the lines in the top/bottom band and of those stacked onto them (each within
    a line's height of the last one taken, up to a fifth of the page in): a header of six
    lines runs past the band."""
    out: set[int] = set()
    for down in (True, False):
        band, wide = (BAND, _WIDE_BAND) if down else (1 - BAND, 1 - _WIDE_BAND)
        last: float | None = None  # the inner edge of the lines taken
        for ln in sorted(lines, key=lambda ln: ln.y0 if down else -ln.y1):
            top, bottom = (ln.y0, ln.y1) if down else (-ln.y1, -ln.y0)  # read from the edge in
            if bottom <= height * band * (1 if down else -1) or (
                last is not None
                and top <= last + ln.height
                and bottom <= height * wide * (1 if down else -1)
            ):
                out.add(id(ln))
                last = bottom if last is None else max(last, bottom)
            else:
                break
    return out


def sample(count: int) -> list[int]:
    """0-based pages spread evenly over the document, at most SAMPLE."""
    if count <= SAMPLE:
        return list(range(count))
    return sorted({round(i * (count - 1) / (SAMPLE - 1)) for i in range(SAMPLE)})


def survey(doc: pymupdf.Document, cap: int, max_paths: int, max_seconds: float) -> Survey:
    """Read the sample: the body style (the style most characters have), the heading styles
    (``_heading_styles``), running lines (a line in the top/bottom band whose text, numbers
    aside, repeats on a quarter of the sampled pages and at least two, once on each: lines alike
    but for their numbers on one page are the page's own, a list or a table) and the outline.
    Sampled pages have their content cut at ``cap`` bytes first (``pdf.max_page_content``,
    content.bound_content); ``max_paths`` and ``max_seconds`` are the pages' table budget
    (tables.page_tables)."""
    pages = sample(doc.page_count)
    found = Survey(max_paths=max_paths, max_seconds=max_seconds)
    bands: Counter[str] = Counter()
    first: dict[str, int] = {}
    sizes: dict[str, Counter[float]] = {}
    for n in pages:
        page = doc[n]
        if bound_content(doc, page, cap):
            found.cut.add(n)
        found.read[n] = text = read_page(page, max_paths, pictures=False)
        found.unpictured.add(n)
        keyed = [(running_key(ln.text), ln) for ln in text.lines]
        counts = Counter(key for key, _ in keyed)  # a running line is printed once a page
        banded = band_stack(text.lines, text.height)
        seen = {key: ln.size for key, ln in keyed if counts[key] == 1 and id(ln) in banded}
        for key, size in seen.items():
            first.setdefault(key, n)
            sizes.setdefault(key, Counter())[size] += 1
        bands.update(seen.keys())  # once a page each
    need = max(2, (len(pages) + 3) // 4)
    found.running = {key: first[key] for key, n in bands.items() if n >= need}
    found.running_size = {key: sizes[key].most_common(1)[0][0] for key in found.running}
    _styles(found)
    try:
        entries = outline(doc)
    except (ValueError, RuntimeError) as exc:  # MuPDF: a damaged outline; ours: over a cap
        found.outline_lost = str(exc)
        entries = []
    found.outline = entries
    for level, title, number, _ in entries:
        if number >= 1 and title.strip():
            found.toc.setdefault(number - 1, []).append((level, " ".join(title.split())))
    return found


def _styles(found: Survey) -> None:
    """The body style and the heading styles from the sampled pages (running lines aside):
    a style other than the body's (``Survey.distinct``) whose runs (lines in it one after the
    other) mostly stand alone, one or two lines of few words between other styles (a quotation
    set in it for lines on end is one run), with fewer characters in all than the body; or any
    style clearly larger than the body. The body is the style most characters have, but a
    listing's (monospaced) only where no other style has a tenth as many (``_body``)."""
    chars: Counter[Style] = Counter()
    listing: set[Style] = set()  # styles of monospaced lines
    weights: dict[Style, Counter[int]] = {}
    alone: Counter[Style] = Counter()  # runs of the style that stand alone
    runs: Counter[Style] = Counter()
    pages: list[list[Line]] = []
    for text in found.read.values():
        lines = [
            ln for ln in text.lines if not ln.rotated and not found.running_at(ln, text.height)
        ]
        pages.append(lines)
        for ln in lines:
            n, style = _width(ln.text.strip()), ln.style
            chars[style] += n
            if ln.mono:
                listing.add(style)
            by_weight = weights.get(style)  # (setdefault would make a Counter for every line)
            if by_weight is None:
                by_weight = weights[style] = Counter()
            by_weight[ln.weight] += n
        for run in _runs(lines):
            runs[run[0].style] += 1
            if len(run) <= 2 and _words(run) <= _ALONE_WORDS:
                alone[run[0].style] += 1
    if not chars:
        return
    body = found.body_style = _body(chars, listing)
    found.body = body[0]
    found.body_weight = weights[body].most_common(1)[0][0]
    heads = []
    for style in runs:
        probe = Line(0, 0, 0, 0, "", style[0], style[1], style[2], False, style[3],
                     weights[style].most_common(1)[0][0])  # fmt: skip
        if style == body or not found.distinct(probe) or chars[style] >= chars[body]:
            continue
        if style[0] >= found.body * BIGGER or alone[style] >= 0.5 * runs[style]:
            heads.append((style, probe.weight))
    heads.sort(key=lambda s: _rank(*s), reverse=True)
    found.heading_styles = [s for s, _ in heads]
    _colors(found, pages)
    found.headed = bool(heads or found.heading_colors)


def _width(text: str) -> int:
    """A line's characters, a CJK one counted twice (an em wide, two Latin letters' room; a
    Chinese manual's body face must not lose to its Latin listings by counting glyphs)."""
    return len(text) + len(_WIDE.findall(text))


def _body(chars: Counter[Style], listing: set[Style]) -> Style:
    """The body style: the one with the most characters, unless that is a listing's face and
    a style of running text has a tenth as many (a manual whose listings outnumber its prose:
    taken for the body, every prose line would stand apart from it as a heading)."""
    ranked = chars.most_common()
    top, most = ranked[0]
    prose = next(((s, n) for s, n in ranked if s not in listing), None)
    if top in listing and prose is not None and prose[1] * _PROSE >= most:
        return prose[0]
    return top


def _colors(found: Survey, pages: list[list[Line]]) -> None:
    """The body's colour (most of the body style's characters) and the heading colours: one
    with fewer characters than that, no grey lighter than the body (a byline, a date: set back,
    not apart), whose runs of lines at body size or larger (in content order, ``pages``) mostly
    stand alone as ``_styles`` says, each line alone on its row (a table's cells share theirs):
    a heading set apart by its colour only (``3.1.4 Hydrographic`` in dark blue)."""
    chars: Counter[int] = Counter()
    body: Counter[int] = Counter()
    for lines in pages:
        for ln in lines:
            chars[ln.color] += len(ln.text.strip())
            if ln.style == found.body_style:
                body[ln.color] += len(ln.text.strip())
    if not body:
        return
    found.body_color, most = body.most_common(1)[0]
    alone: Counter[int] = Counter()
    runs: Counter[int] = Counter()
    for lines in pages:
        if all(ln.color == found.body_color for ln in lines):
            continue
        shared = _sharing(lines)
        for color, group in groupby(lines, key=attrgetter("color")):
            run = list(group)
            if color == found.body_color or _lighter_grey(color, found.body_color):
                continue
            if all(ln.size >= found.body for ln in run):
                runs[color] += 1
                alone[color] += (
                    len(run) <= 2
                    and _words(run) <= _ALONE_WORDS
                    and not any(id(ln) in shared for ln in run)
                )
    found.heading_colors = {c for c in runs if chars[c] < most and alone[c] >= 0.5 * runs[c]}


def _sharing(lines: list[Line]) -> set[int]:
    """The ids of the lines that share their row with another line (half its height)."""
    out: set[int] = set()
    ordered = sorted(lines, key=attrgetter("y0"))
    for i, ln in enumerate(ordered):
        for other in ordered[i + 1 :]:
            if other.y0 >= ln.y1:
                break
            if min(ln.y1, other.y1) - other.y0 >= 0.5 * min(ln.height, other.height):
                out.update((id(ln), id(other)))
    return out


def _lighter_grey(color: int, body: int) -> bool:
    """A grey (the three channels within 16 of one another) lighter than the body's colour."""
    rgb = (color >> 16, color >> 8 & 255, color & 255)
    return max(rgb) - min(rgb) <= 16 and sum(rgb) > sum((body >> 16, body >> 8 & 255, body & 255))


def _words(run: list[Line]) -> int:
    return sum(len(ln.text.split()) for ln in run)


def _runs(lines: list[Line]) -> list[list[Line]]:
    """Consecutive lines (content order) of one style."""
    runs: list[list[Line]] = []
    for ln in lines:
        if runs and runs[-1][-1].style == ln.style:
            runs[-1].append(ln)
        else:
            runs.append([ln])
    return runs


def outline(doc: pymupdf.Document) -> list[tuple[int, str, int, float]]:
    """The outline as (level, title, 1-based page or -1, the point it shows on that page from
    the top or -1), in order, walked without recursion (``get_toc`` recurses once per level: a
    1,500-deep outline failed the read) along MuPDF's items, which the root holds (PyMuPDF's
    ``Outline`` wraps each field read: 3x the walk); ValueError past OUTLINE_DEPTH or ITEMS."""
    import pymupdf  # loaded: the document is open
    out: list[tuple[int, str, int, float]] = []
    root, external = doc.outline, pymupdf.mupdf.fz_is_external_link  # root: alive while walked
    stack = [(root.this.m_internal if root else None, 1)]
    while stack:
        item, level = stack.pop()
        if item is None:  # the end of a chain
            continue
        if level > OUTLINE_DEPTH or len(out) >= OUTLINE_ITEMS:
            raise ValueError(
                f"over {OUTLINE_DEPTH} levels deep" if level > OUTLINE_DEPTH
                else f"over {OUTLINE_ITEMS:,} entries"
            )  # fmt: skip
        uri = item.uri
        page, top = (-1, -1.0) if not uri or external(uri) else _target(doc, uri, item.page.page)
        out.append((level, item.title or " ", page, top))
        stack.append((item.next, level))
        stack.append((item.down, level + 1))  # popped first: children before siblings
    return out


def _target(doc: pymupdf.Document, uri: str, number: int) -> tuple[int, float]:
    """An internal item's 1-based page (MuPDF's 0-based ``number``, -1: unknown) and how far
    down it points (points from the top; -1: not said)."""
    spot = _SPOT.search(uri)  # "#page=6&zoom=nan,251,68.7": no lookup needed
    if number != -1 and spot is not None:
        return number + 1, float(spot.group(1))
    target, _, top = doc.resolve_link(uri)  # a named destination (-1: MuPDF resolves none)
    page = number + 1 if number != -1 else int(target) + 1 if target >= 0 else -1
    return page, float(top) if top is not None and -1e9 < top < 1e9 else -1.0  # NaN: /Fit
