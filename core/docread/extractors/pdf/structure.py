"""A PDF page as markdown from its text geometry: headings (``#``..``####``, from the outline when
it names a line of the page, else from font size and weight against the document's body size),
tables as pipe tables where they stand, lists as ``-`` items, columns read one after the other,
running headers/footers and page numbers left out, pictures as a ``[Figure]`` line, words
hyphenated at a line end joined, a paragraph's lines joined into one.

One ``dict`` text extraction a page (about what plain text costs); ``find_tables`` only where
tables.py sees ruled cells around text, within the page's table budget."""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING

from .lines import Line, PageText, Survey, is_page_number, running_key, visible
from .tables import inside, page_tables

if TYPE_CHECKING:
    import pymupdf

    from ...settings import OutputSettings

_BULLETS = "•◦▪▫‣⁃∙●○■□–-*·"
_NUMBERED = re.compile(r"^\s*(?:\d{1,3}[.)]|\(?[a-z][.)]|\([ivx]{1,4}\))\s+\S")
_LIST_START = frozenset("0123456789(abcdefghijklmnopqrstuvwxyz")
_HYPHEN_END = re.compile(r"[^\W\d_]-$")
_GUTTER = 8.0  # points of empty width between columns at least
_COLUMN_CHARS = 200  # text each side of a gutter needs to be a column (not a label/value form)
_FIGURE_SHARE = 0.02  # pictures over this share of the page get a [Figure] line
_BACKGROUND = 0.7  # a picture over this share is a scan or a background, not a figure
_MAX_HEADING = 160  # characters: a longer line is text, whatever its font
_FIGURE = "[Figure]"
_CAPTION = re.compile(
    r"^(?:Figure|Fig\.|Chart|Image|Photo|Abbildung|Abb\.)\s*[\dIVX]", re.IGNORECASE
)


@dataclass
class Item:
    """A piece of the page to place in reading order: a text block's lines, a table or a figure."""

    x0: float
    y0: float
    x1: float
    y1: float
    lines: list[Line] = field(default_factory=list)
    markdown: str = ""


@dataclass(frozen=True, slots=True)
class PageMarkdown:
    """A page's markdown, the headings it holds, in order, as (level, text), the
    characters of its text layer (spaces aside: what the OCR threshold counts), and whether
    ruled tables were not looked for (over the page's table budget)."""

    text: str
    headings: list[tuple[int, str]]
    chars: int
    tables_skipped: bool = False


def _norm(text: str) -> str:
    return " ".join(text.split()).casefold()


def kept_lines(page: pymupdf.Page, text: PageText, survey: Survey) -> list[Line]:
    """The page's lines without running headers/footers (in the top/bottom band) and page
    numbers (in the band, or alone above or below everything else); all of them when that
    would leave nothing (a page that only holds its number still says so)."""
    height, lines = page.rect.height, text.lines
    ends = (min(lines, key=lambda ln: ln.y0), max(lines, key=lambda ln: ln.y1)) if lines else ()

    def alone(ln: Line) -> bool:
        """The top line, above every other line, or the bottom one, below them."""
        if ln not in ends:
            return False
        others = [o for o in lines if o is not ln]
        return bool(others) and (
            all(o.y0 >= ln.y1 - 1 for o in others) or all(o.y1 <= ln.y0 + 1 for o in others)
        )

    kept = [
        ln
        for ln in lines
        if not (
            is_page_number(ln.text)
            and (survey.in_band(ln, height) or alone(ln))
            or survey.in_band(ln, height)
            and running_key(ln.text) in survey.running
        )
    ]
    return kept or lines


def page_markdown(
    page: pymupdf.Page, survey: Survey, output: OutputSettings, *, lines_kept: bool = False
) -> PageMarkdown:
    """The page as markdown (see the module docstring); ``lines_kept`` (the agent's text view):
    a paragraph keeps the page's line breaks, all else (headings, tables, order) the same."""
    text = survey.page(page)
    lines = kept_lines(page, text, survey)
    tables, skipped = page_tables(page, text, lines, output, survey.max_seconds)
    items = [Item(*t.bbox, markdown=t.markdown) for t in tables]
    blocks: dict[int, list[Line]] = {}
    for ln in lines:
        if not any(inside(ln, t.bbox) for t in tables):
            blocks.setdefault(ln.block, []).append(ln)
    text_items = [
        Item(min(b.x0 for b in bl), min(b.y0 for b in bl), max(b.x1 for b in bl),
             max(b.y1 for b in bl), bl)
        for bl in blocks.values()
    ]  # fmt: skip
    area = abs(page.rect) or 1.0
    pictures = lines and page.get_images()  # (cheap: the resources) a page that is a picture: OCR's
    for info in page.get_image_info() if pictures else ():
        x0, y0, x1, y1 = info["bbox"]
        if _FIGURE_SHARE * area <= (x1 - x0) * (y1 - y0) <= _BACKGROUND * area:
            items.append(Item(x0, y0, x1, y1, markdown=_FIGURE))
    gutters = _gutters(text_items, page.rect.width)
    ordered = _titles_joined(_reading_order(text_items, items, gutters), survey)
    rights: dict[int, float] = {}  # each column's right edge: where a wrapped line ends
    for item in text_items:
        col = _column(item, gutters)
        rights[col] = max(rights.get(col, 0.0), item.x1)
    toc = {_norm(title): level for level, title in survey.toc.get(page.number, ())}
    parts: list[str] = []
    headings: list[tuple[int, str]] = []
    for i, item in enumerate(ordered):
        caption = (
            _caption(ordered[i + 1]) if item.markdown == _FIGURE and i + 1 < len(ordered) else ""
        )
        if caption:  # the caption under a picture goes into its placeholder
            parts.append(f"[Figure: {caption}]")
            ordered[i + 1].lines = []
        elif item.markdown:
            parts.append(item.markdown)
        elif item.lines:
            right = rights.get(_column(item, gutters), item.x1)
            parts.extend(_block(item.lines, survey, toc, headings, right, lines_kept))
    chars = sum(visible(ln.text) for ln in text.lines)
    return PageMarkdown("\n\n".join(parts), headings, chars, skipped)


def _titles_joined(items: list[Item], survey: Survey) -> list[Item]:
    """Blocks that are each a line or two of one heading style, right under each other, as
    one block: a title set on two lines MuPDF put in two blocks is one heading."""
    out: list[Item] = []
    for item in items:
        prev = out[-1] if out else None
        if prev is not None and _title(prev, survey) and _title(item, survey):
            last, first = prev.lines[-1], item.lines[0]
            same = (last.size, last.bold) == (first.size, first.bold)
            if same and 0 <= first.y0 - last.y1 < last.y1 - last.y0:
                prev.lines = [*prev.lines, *item.lines]
                prev.y1 = max(prev.y1, item.y1)
                continue
        out.append(item)
    return out


def _title(item: Item, survey: Survey) -> bool:
    """A text block of one or two lines in a heading style."""
    return 0 < len(item.lines) <= 2 and all(survey.level(ln) for ln in item.lines)


def _caption(item: Item) -> str:
    """A text block's text when it is a caption ("Figure 3: ..."), else ""."""
    if item.markdown or not item.lines or not _CAPTION.match(item.lines[0].text.lstrip()):
        return ""
    return _joined(item.lines)


def _column(item: Item, gutters: list[float]) -> int:
    """The column an item is in (-1: it crosses a gutter)."""
    if any(item.x0 < g < item.x1 for g in gutters):
        return -1
    return sum(g < item.x0 for g in gutters)


def _reading_order(text: list[Item], placed: list[Item], gutters: list[float]) -> list[Item]:
    """Columns one after the other when the page has them (bands between items that cross a
    gutter are read column by column); otherwise the content order, with tables and figures
    put before the first text block below their top."""
    if not gutters:
        out = list(text)
        for item in sorted(placed, key=lambda it: it.y0):
            at = next(
                (i for i, t in enumerate(out) if t.y0 >= item.y0 and not t.markdown), len(out)
            )
            out.insert(at, item)
        return out
    ordered: list[Item] = []
    band: list[Item] = []
    for item in sorted([*text, *placed], key=lambda it: (it.y0, it.x0)):
        if _column(item, gutters) < 0:
            ordered.extend(sorted(band, key=lambda it: (_column(it, gutters), it.y0)))
            ordered.append(item)
            band = []
        else:
            band.append(item)
    ordered.extend(sorted(band, key=lambda it: (_column(it, gutters), it.y0)))
    return ordered


def _gutters(items: list[Item], width: float) -> list[float]:
    """x positions of empty vertical strips between text columns: runs of at least _GUTTER
    points that under a fifth of the page's text height covers (a title or a full-width
    paragraph across them does not fill them), with enough text (and a paragraph of 3+
    lines) on each side; a form's labels and values, side by side one line at a time, are
    not columns."""
    if len(items) < 2:
        return []
    # the cover (sum of item heights) along x, piecewise constant between item edges
    edges = sorted({x for it in items for x in (it.x0, it.x1)})
    cover = [0.0] * len(edges)
    index = {x: i for i, x in enumerate(edges)}
    for it in items:
        for i in range(index[it.x0], index[it.x1]):
            cover[i] += it.y1 - it.y0
    low = 0.2 * max(cover)
    gaps, start = [], None
    for i, c in enumerate(cover[:-1]):
        if c <= low and start is None:
            start = edges[i]
        elif c > low and start is not None:
            if edges[i] - start >= _GUTTER:
                gaps.append((start + edges[i]) / 2)
            start = None
    kept = []
    for g in gaps:
        sides = ([it for it in items if it.x1 <= g], [it for it in items if it.x0 >= g])
        if all(
            sum(len(ln.text) for it in side for ln in it.lines) >= _COLUMN_CHARS
            and any(len(it.lines) >= 3 for it in side)
            for side in sides
        ):
            kept.append(g)
    return kept


def _block(
    lines: list[Line],
    survey: Survey,
    toc: dict[str, int],
    headings: list[tuple[int, str]],
    right: float,
    lines_kept: bool = False,
) -> Iterable[str]:
    """A text block's markdown: headings, list items and paragraphs (a paragraph's lines that
    wrap at the column's ``right`` edge joined, a line that ends short keeps its break; with
    ``lines_kept`` every line keeps its break)."""
    whole = _norm(" ".join(ln.text for ln in lines)) if toc else ""
    if whole in toc:
        title, level = _joined(lines), min(toc[whole], 4)
        headings.append((level, title))
        return [f"{'#' * level} {title}"]
    big = survey.body * 1.15
    all_bold = all(ln.bold for ln in lines)
    headed = toc or all_bold or any(ln.size >= big for ln in lines)
    out: list[str] = []
    para: list[Line] = []
    head: list[Line] = []
    level = 0

    def flush() -> None:
        nonlocal para, head, level
        if head:
            title = _joined(head)
            out.append(f"{'#' * level} {title}")
            headings.append((level, title))
        elif para and lines_kept:
            out.append("\n".join(" ".join(ln.text.split()) for ln in para))
        elif para:
            out.append(_wrapped(para, right))
        para, head, level = [], [], 0

    for i, ln in enumerate(lines):
        lv = 0
        if headed and len(ln.text) <= _MAX_HEADING:
            lv = (toc and toc.get(_norm(ln.text))) or survey.level(ln)
            if lv and ln.size < big and not all_bold:
                lv = 0  # a bold phrase inside a paragraph is not a heading
        stripped = ln.text.lstrip()
        bullet = stripped[:1] in _BULLETS and stripped[1:2] in (" ", "\t", "\xa0")
        numbered = not bullet and stripped[:1] in _LIST_START and bool(_NUMBERED.match(stripped))
        gap = i and ln.y0 - lines[i - 1].y1 > 0.8 * (ln.y1 - ln.y0)
        if lv:
            if head and lv == level and not gap:
                head.append(ln)
                continue
            flush()
            head, level = [ln], min(lv, 4)
            continue
        if head or bullet or numbered or gap:
            flush()
        if bullet:
            para = [replace(ln, text="- " + stripped[1:].lstrip())]
            continue
        para.append(ln)
    flush()
    return out


def _joined(lines: list[Line]) -> str:
    return _join(ln.text for ln in lines)


def _wrapped(lines: list[Line], right: float) -> str:
    """A paragraph: runs of lines that wrap joined (``_join``), a line break kept after a line
    whose end leaves room for the next line's first word."""
    runs: list[list[str]] = [[]]
    for ln, nxt in zip(lines, [*lines[1:], None], strict=True):
        runs[-1].append(ln.text)
        if nxt is None:
            break
        text = ln.text.strip()
        per_char = (ln.x1 - ln.x0) / max(len(text), 1)
        word = len(nxt.text.split()[0]) if nxt.text.split() else 0
        if ln.x1 + (word + 2) * per_char < right and not _hyphenated(text):
            runs.append([])
    return "\n".join(_join(run) for run in runs)


def _hyphenated(text: str) -> bool:
    """Ends in a letter and a hyphen."""
    return text.endswith("-") and bool(_HYPHEN_END.search(text))


def _join(lines: Iterable[str]) -> str:
    """Lines as one: a word hyphenated at a line end joined ("struc-" + "ture"), else a space."""
    out = ""
    for line in lines:
        text = " ".join(line.split())
        if not out:
            out = text
        elif _hyphenated(out) and text[:1].islower():
            out = out[:-1] + text
        else:
            out = f"{out} {text}"
    return out


def paragraphs(text: str) -> str:
    """Plain text with blank lines between paragraphs (an OCR reading) with each paragraph's
    lines joined into one, hyphenated words made whole."""
    return "\n\n".join(
        _join(chunk.splitlines()) for chunk in re.split(r"\n\s*\n", text) if chunk.strip()
    )


def fold(path: list[tuple[int, str]], headings: Iterable[tuple[int, str]]) -> list[tuple[int, str]]:
    """The heading path after ``headings``: each replaces those of its level and below."""
    out = list(path)
    for level, title in headings:
        while out and out[-1][0] >= level:
            out.pop()
        out.append((level, title))
    return out
