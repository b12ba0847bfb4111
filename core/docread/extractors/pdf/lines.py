"""A PDF page's text lines with their geometry and font (size, bold), from one ``dict`` extraction,
and the document survey the structure pass needs before any page: the body font size, the
sizes that mark headings, the running headers/footers. The survey reads a fixed sample of
pages, never the pages asked for, so a page reads the same alone, in a split read or whole."""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import pymupdf

SAMPLE = 40  # pages surveyed at most (spread over the document)
BAND = 0.08  # top and bottom share of the page where running lines live
_DIGITS = re.compile(r"\d+")
_PAGE_NUMBER = re.compile(
    r"^(?:page\s*)?(?:\d{1,4}|[ivxlc]{1,6})(?:\s*(?:of|/)\s*\d{1,4})?$", re.IGNORECASE
)
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


def flags() -> int:
    """The text flags of plain ``get_text()`` (ligatures and whitespace kept, clipped to the
    page), without images: what the text mode reads, no slower."""
    import pymupdf

    return (
        pymupdf.TEXT_PRESERVE_LIGATURES
        | pymupdf.TEXT_PRESERVE_WHITESPACE
        | pymupdf.TEXT_MEDIABOX_CLIP
    )


def page_lines(page: pymupdf.Page, textpage: Any = None) -> list[Line]:
    """The page's non-blank text lines in content order."""
    data = page.get_text("dict", flags=flags(), textpage=textpage)
    out: list[Line] = []
    for number, block in enumerate(data["blocks"]):
        for line in block.get("lines", ()):
            spans = line["spans"]
            text = "".join(s["text"] for s in spans)
            if not text.strip():
                continue
            weights: Counter[float] = Counter()
            bold = True
            for s in spans:
                visible = len(s["text"].strip())
                if not visible:
                    continue
                weights[round(s["size"] * 2) / 2] += visible
                bold = bold and bool(s["flags"] & 16 or _BOLD_FONT.search(s["font"]))
            x0, y0, x1, y1 = line["bbox"]
            out.append(Line(x0, y0, x1, y1, text, weights.most_common(1)[0][0], bold, number))
    return out


def running_key(text: str) -> str:
    """A running line's identity: digits stand for any number (``Page 3 of 9``)."""
    return _DIGITS.sub("#", " ".join(text.split()).casefold())


def is_page_number(text: str) -> bool:
    """``7``, ``vii``, ``Page 7``, ``7 of 12``, ``7/12``."""
    return bool(_PAGE_NUMBER.match(text.strip()))


@dataclass
class Survey:
    """What the whole document says about its pages: body size, heading sizes (largest first),
    running line keys, and its outline's headings by page."""

    body: float = 10.0
    sizes: list[float] = field(default_factory=list)
    running: set[str] = field(default_factory=set)
    toc: dict[int, list[tuple[int, str]]] = field(default_factory=dict)

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


def survey(doc: pymupdf.Document) -> Survey:
    """The body size (the size most characters have), heading sizes (larger sizes that start
    short lines), running lines (a line in the top/bottom band whose text, numbers aside,
    repeats on half the sampled pages and at least two) and the outline."""
    sizes: Counter[float] = Counter()
    heads: Counter[float] = Counter()
    bands: Counter[str] = Counter()
    pages = sample(doc.page_count)
    for n in pages:
        page = doc[n]
        height = page.rect.height
        seen = set()
        for line in page_lines(page):
            chars = len(line.text.strip())
            sizes[line.size] += chars
            heads[line.size] += 1
            if line.y1 <= height * BAND or line.y0 >= height * (1 - BAND):
                seen.add(running_key(line.text))
        bands.update(seen)
    body = sizes.most_common(1)[0][0] if sizes else 10.0
    found = Survey(body=body)
    found.sizes = sorted((s for s in heads if s >= body * 1.15), reverse=True)
    need = max(2, (len(pages) + 1) // 2)
    found.running = {key for key, n in bands.items() if n >= need}
    for level, title, number, *_ in doc.get_toc(simple=True):
        if number >= 1 and title.strip():
            found.toc.setdefault(number - 1, []).append((level, " ".join(title.split())))
    return found
