"""A PDF page's text lines with their geometry and font (size, bold), from one ``dict`` extraction,
and the document survey the structure pass needs before any page: the body font size, the
sizes that mark headings, the running headers/footers. The survey reads a fixed sample of
pages, never the pages asked for, so a page reads the same alone, in a split read or whole."""

from __future__ import annotations

import functools
import re
import time
from collections import Counter
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from .content import bound_content

if TYPE_CHECKING:
    import pymupdf

SAMPLE = 40  # pages surveyed at most (spread over the document)
OUTLINE_DEPTH = 64  # outline levels read at most: deeper, the outline is hostile or broken
OUTLINE_ITEMS = 50_000  # outline entries read at most
BAND = 0.1  # top and bottom share of the page where running lines live
_SPACES = (" ", "\n", "\t", "\r", "\xa0", "\u3000")
_DIGITS = re.compile(r"\d+")
_PAGE_NUMBER = re.compile(
    r"^(?:page\s*)?(?:\d{1,4}|[ivxlc]{1,6})(?:\s*(?:of|/)\s*\d{1,4})?$", re.IGNORECASE
)
_SPOT = re.compile(r"[&#]zoom=[^,&]*,[^,&]*,(-?\d+(?:\.\d+)?)$")
_BOLD_FONT = re.compile(r"bold|black|heavy|semibold|demi", re.IGNORECASE)


@dataclass(frozen=True, slots=True)
class Line:
    """One text line: its box, text, dominant font size (rounded to 0.5 pt), whether all of it is
    bold, and the MuPDF block it came from."""

    x0: float
    y0: float
    x1: float
    y1: float
    text: str
    size: float
    bold: bool
    block: int


Box = tuple[float, float, float, float]


@dataclass(frozen=True, slots=True)
class PageText:
    """A page's text lines in content order, the boxes of the rectilinear paths it draws (rules,
    cell frames and backgrounds: what a ruled table is made of; None when the page draws more
    paths than the budget, which are then not collected), and the seconds its pass took."""

    lines: list[Line]
    rects: list[Box] | None
    seconds: float = 0.0


def flags(*, vectors: bool = True) -> int:
    """The text flags of plain ``get_text()`` (whitespace kept, clipped to the page) without
    images (no slower than text), with ligatures expanded ("ﬀ" as "ff": searchable) and the
    drawn paths' boxes collected in the same pass (no second interpretation of the page)."""
    import pymupdf

    return int(
        pymupdf.TEXT_PRESERVE_WHITESPACE
        | pymupdf.TEXT_MEDIABOX_CLIP
        | (pymupdf.TEXT_COLLECT_VECTORS if vectors else 0)
    )


def over_paths(textpage: Any, limit: int) -> bool:
    """Whether a text page collected with vectors holds more than ``limit`` blocks (paths and
    text blocks), counted along MuPDF's block list without converting them: stops at
    ``limit`` + 1, so a page of 120,000 paths costs what one of ``limit`` does."""
    block, count = textpage.this.m_internal.first_block, 0
    while block is not None and count <= limit:
        block, count = block.next, count + 1
    return count > limit


def read_page(page: pymupdf.Page, max_paths: int) -> PageText:
    """The page's non-blank text lines and rectilinear paths, from one ``dict`` extraction;
    a page of more than ``max_paths`` blocks is read again without its paths (converting
    100,000 paths to Python costs 5-10x the page's text)."""
    start = time.perf_counter()
    textpage = page.get_textpage(flags=flags())
    rects: list[Box] | None = []
    if over_paths(textpage, max_paths):
        textpage, rects = page.get_textpage(flags=flags(vectors=False)), None
    data = page.get_text("dict", textpage=textpage)
    out: list[Line] = []
    for number, block in enumerate(data["blocks"]):
        if block["type"] == 3:
            if block["isrect"] and rects is not None:
                rects.append(block["bbox"])
            continue
        for line in block["lines"]:
            spans = line["spans"]
            if len(spans) == 1:  # most lines: no weighing
                span = spans[0]
                text = span["text"]
                if not text.strip():
                    continue
                size, bold = span["size"], _bold(span)
            else:
                text = "".join(s["text"] for s in spans)
                if not text.strip():
                    continue
                size, bold = _style(spans)
            x0, y0, x1, y1 = line["bbox"]
            out.append(Line(x0, y0, x1, y1, text, round(size * 2) / 2, bold, number))
    return PageText(out, rects, time.perf_counter() - start)


def _bold(span: dict[str, Any]) -> bool:
    return bool(span["flags"] & 16) or _bold_font(span["font"])


@functools.lru_cache(maxsize=256)
def _bold_font(name: str) -> bool:
    """A font named bold (``Arial-BoldMT``, ``Foo-Black``): not all set the bold flag."""
    return bool(_BOLD_FONT.search(name))


def _style(spans: list[dict[str, Any]]) -> tuple[float, bool]:
    """The size most visible characters of a line have, and whether all of them are bold."""
    weights: Counter[float] = Counter()
    bold = True
    for s in spans:
        visible = len(s["text"].strip())
        if visible:
            weights[s["size"]] += visible
            bold = bold and _bold(s)
    return weights.most_common(1)[0][0], bold


def visible(text: str) -> int:
    """Non-space characters: what the OCR threshold counts (C-speed counts, no word list)."""
    return len(text) - sum(map(text.count, _SPACES))


def running_key(text: str) -> str:
    """A running line's identity: digits stand for any number (``Page 3 of 9``)."""
    return _DIGITS.sub("#", " ".join(text.split()).casefold())


def is_page_number(text: str) -> bool:
    """``7``, ``vii``, ``Page 7``, ``7 of 12``, ``7/12``."""
    return len(text) <= 24 and bool(_PAGE_NUMBER.match(text.strip()))


@dataclass
class Survey:
    """What the whole document says about its pages: body size, heading sizes (largest first),
    running line keys, and its outline's headings by page."""

    body: float = 10.0
    sizes: list[float] = field(default_factory=list)
    running: set[str] = field(default_factory=set)
    toc: dict[int, list[tuple[int, str]]] = field(default_factory=dict)
    headed: bool = False  # a sampled page has a line in a heading size or all bold
    read: dict[int, PageText] = field(default_factory=dict)  # surveyed pages, read once
    cut: set[int] = field(default_factory=set)  # pages whose content the survey cut (0-based)
    outline_lost: str = ""  # why the PDF's outline was not used (it could not be read)
    # the per-page budget of ruled-table detection (pdf.table_max_paths, table_max_seconds)
    max_paths: int = 5000  # paths a page's reading collects at most
    max_seconds: float = 1.0  # a page whose reading took longer is not searched for rules

    def page(self, page: pymupdf.Page) -> PageText:
        """The page's text: the survey's reading (handed out once), else read now."""
        return self.read.pop(page.number, None) or read_page(page, self.max_paths)

    def level(self, line: Line) -> int:
        """0 when ``line`` is body text, else its heading level from its size (1 for the
        largest heading size, ...; a bold line at body size after them), at most 4."""
        if line.size >= self.body * 1.15:
            return min(1 + sum(s > line.size for s in self.sizes), 4)
        if line.bold and line.size >= self.body - 0.5:
            return min(1 + len(self.sizes), 4)
        return 0

    def in_band(self, line: Line, height: float) -> bool:
        return line.y1 <= height * BAND or line.y0 >= height * (1 - BAND)


def sample(count: int) -> list[int]:
    """0-based pages spread evenly over the document, at most SAMPLE."""
    if count <= SAMPLE:
        return list(range(count))
    return sorted({round(i * (count - 1) / (SAMPLE - 1)) for i in range(SAMPLE)})


def survey(doc: pymupdf.Document, cap: int, max_paths: int, max_seconds: float) -> Survey:
    """The body size (the size most characters have), heading sizes (larger sizes that start
    short lines), running lines (a line in the top/bottom band whose text, numbers aside,
    repeats on half the sampled pages and at least two) and the outline. Sampled pages have
    their content cut at ``cap`` bytes first (``pdf.max_page_content``, content.bound_content);
    ``max_paths`` and ``max_seconds`` are the pages' table budget (tables.page_tables)."""

    sizes: Counter[float] = Counter()
    heads: Counter[float] = Counter()
    bands: Counter[str] = Counter()
    pages = sample(doc.page_count)
    found = Survey(max_paths=max_paths, max_seconds=max_seconds)
    for n in pages:
        page = doc[n]
        if bound_content(doc, page, cap):
            found.cut.add(n)
        height = page.rect.height
        seen = set()
        found.read[n] = text = read_page(page, max_paths)
        for line in text.lines:
            chars = len(line.text.strip())
            sizes[line.size] += chars
            heads[line.size] += 1
            if line.y1 <= height * BAND or line.y0 >= height * (1 - BAND):
                seen.add(running_key(line.text))
        bands.update(seen)
    body = found.body = sizes.most_common(1)[0][0] if sizes else 10.0
    found.sizes = sorted((s for s in heads if s >= body * 1.15), reverse=True)
    found.headed = any(found.level(ln) for text in found.read.values() for ln in text.lines)
    need = max(2, (len(pages) + 1) // 2)
    found.running = {key for key, n in bands.items() if n >= need}
    try:
        entries = outline(doc)
    except (ValueError, RuntimeError) as exc:  # MuPDF: a damaged outline; ours: over a cap
        found.outline_lost = str(exc)
        entries = []
    for level, title, number, _ in entries:
        if number >= 1 and title.strip():
            found.toc.setdefault(number - 1, []).append((level, " ".join(title.split())))
    return found


def outline(doc: pymupdf.Document) -> list[tuple[int, str, int, float]]:
    """The outline as (level, title, 1-based page or -1, the point it shows on that page from
    the top or -1), in order, walked without recursion (PyMuPDF's ``get_toc`` recurses once per
    level: a 1,500-deep outline failed the read); ValueError past OUTLINE_DEPTH levels or
    OUTLINE_ITEMS entries."""
    out: list[tuple[int, str, int, float]] = []
    stack = [(doc.outline, 1)]
    while stack:
        item, level = stack.pop()
        if not item or not item.this.m_internal:  # the end of a chain
            continue
        if level > OUTLINE_DEPTH or len(out) >= OUTLINE_ITEMS:
            raise ValueError(
                f"over {OUTLINE_DEPTH} levels deep" if level > OUTLINE_DEPTH
                else f"over {OUTLINE_ITEMS:,} entries"
            )  # fmt: skip
        page, top = _target(doc, item)
        out.append((level, item.title or " ", page, top))
        stack.append((item.next, level))
        stack.append((item.down, level + 1))  # popped first: children before siblings
    return out


def _target(doc: pymupdf.Document, item: Any) -> tuple[int, float]:
    """An outline item's 1-based page, -1 when it points outside the document (as get_toc),
    and how far down that page it points (points from the top; -1 when it does not say)."""
    if item.is_external or not item.uri:
        return -1, -1.0
    spot = _SPOT.search(item.uri)  # "#page=6&zoom=nan,251,68.7": no lookup needed
    if item.page != -1 and spot is not None:
        return int(item.page) + 1, float(spot.group(1))
    target, _, top = doc.resolve_link(item.uri)  # a named destination
    page = int(target) + 1 if item.page == -1 else int(item.page) + 1
    return page, float(top) if top is not None else -1.0
