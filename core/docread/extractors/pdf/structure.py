"""A PDF page as markdown from its text geometry (text.lines.PageText, the page read once): headings
(``#``..``####``, from the outline when it names a line of the page, else from the document's
heading styles: survey.py), tables as pipe tables where they stand (tables.py), lists as ``-``
items, columns in reading order (order.py), pictures as a ``[Figure]`` line with their caption
and the labels printed on them, footnotes after the page's text, running headers/footers and
page numbers out of the flow (each running line once, on the first page that prints it),
rotated margin text and margin notes as plain lines at the end, words hyphenated at a line end joined, a
paragraph's lines joined into one, a paragraph that runs on into the next column whole.

``analyse`` makes a page's ``PageModel`` (its blocks: text/blocks.py, their runs across
columns: text/flow.py); ``PageModel.markdown`` writes it (text/flow.py), with each
paragraph's lines joined or kept (the agent's line-oriented text view)."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import TYPE_CHECKING

from ...sanitize import lazy_pattern
from .figures import captioned, drawn_label, figure_boxes, figure_label
from .library import right_to_left
from .order import Item, line_chars, margin_notes, reading_order
from .survey import BAND, HEAD_NUMBER, Survey, alone, in_band, is_page_number, marking, running_key
from .tables.cells import PageTable, heads_row, left_over, numbers_row, page_number
from .tables.listing import code_rows
from .tables.ruled import drawn_tables
from .tables.unruled import aligned_tables
from .text.blocks import column_blocks
from .text.flow import displayed, run_on, written
from .text.headings import dateline, row_label
from .text.joins import same_row
from .text.lines import Line, PageText
from .text.pieces import Block, ended, joined, norm
from .text.reading import upright

if TYPE_CHECKING:
    from ...settings import OutputSettings

_FIGURE = "[Figure]"
_PAGE_NO = lazy_pattern(r"^(?:\d{1,4}|[ivxlc]{1,6})$", re.IGNORECASE)
_TITLE_LABEL = lazy_pattern(
    r"^(?:(?:chapter|kapitel|part|teil|appendix|anhang|lecture|vorlesung|chapitre)\s+)?"
    r"(?:\d{1,3}|[IVXLC]{1,6})\.?$",
    re.IGNORECASE,
)  # a chapter's number set on a line of its own above its title
_FOOT_MARK = lazy_pattern(r"^\s*(?:\d{1,3}\)?|[*†‡§¶∗⋆]+|[¹²³⁴⁵⁶⁷⁸⁹⁰]+|\(\d{1,3}\))\s*\S")


@dataclass(frozen=True, slots=True)
class PageMarkdown:
    """A page's markdown, the headings it holds, in order, as (level, text), the
    characters of its text layer (spaces aside: what the OCR threshold counts), whether
    ruled tables were not looked for (over the page's table budget), and whether the page is
    its plain text, no structure looked for (over text.lines.MAX_LINES: ``PageText.plain``)."""

    text: str
    headings: list[tuple[int, str]]
    chars: int
    tables_skipped: bool = False
    plain: bool = False
    waited: float = 0.0  # seconds on another thread's turn: not the page's own reading time


@dataclass(frozen=True, slots=True)
class PageModel:
    """A page's blocks in reading order (with what it holds for the heading path), before it
    is written: the same model writes the joined and the line-oriented text."""

    blocks: list[Block]
    headings: list[tuple[int, str]]
    chars: int
    tables_skipped: bool = False

    def markdown(self, *, lines_kept: bool = False) -> PageMarkdown:
        parts = [written(b, lines_kept) for b in self.blocks]
        text = "\n\n".join(p for p in parts if p)
        return PageMarkdown(text, self.headings, self.chars, self.tables_skipped)


def analyse(text: PageText, number: int, survey: Survey, output: OutputSettings) -> PageModel:
    """Page ``number`` (0-based) as blocks (see the module docstring)."""
    height = text.height
    lines: list[Line] = []
    margin: list[Line] = []
    running: list[Line] = []
    folios = [ln for ln in text.lines if in_band(ln, height) and page_number(ln, text.lines)]
    beside = margin_notes(text.lines, text.width, survey.body)
    out, heads = _running_turned(text, survey) if text.turn else (set(), [])
    for ln in text.lines:
        if id(ln) in out or ln in heads:
            continue
        if ln.rotated or id(ln) in beside:
            margin.append(ln)
        elif is_page_number(ln.text) and (ln in folios or alone(ln, text.lines)):
            continue
        elif survey.running_at(ln, height) and not (
            numbers_row(ln, text.lines)
            or heads_row(ln, text.lines)
            or _page_title(ln, survey, number)
        ):
            if survey.running.get(running_key(ln.text)) == number:
                running.append(ln)
        elif folios and in_band(ln, height) and any(_paired(ln, n) for n in folios):
            running.append(ln)  # a running title on its page number's row (one page: no repeats)
        else:
            lines.append(ln)
    if not lines and not margin and not running and text.lines:
        lines = list(text.lines)  # a page that only holds its number still says so
        margin = []
    tables, skipped = drawn_tables(text, lines, output, survey.max_seconds)
    lines = left_over(lines, tables)
    drawn = figure_boxes(text, [t.bbox for t in tables])
    figures = [Item(*box, Block("figure", markdown=_FIGURE)) for box, _ in drawn]
    axes = {id(f) for f, (_, is_drawn) in zip(figures, drawn, strict=True) if is_drawn}
    free: list[Line] = [] if figures else lines
    for ln in lines if figures else ():
        box = next((f for f in figures if figure_label(ln, f, id(f) in axes, survey)), None)
        if box is not None:
            box.block.lines.append(ln)  # a label printed on the figure or at its axes
        else:
            free.append(ln)
    free = code_rows(free, survey)
    more = aligned_tables(text, free, output, survey)
    tables += more
    items: list[Item | Line] = [_table_item(t) for t in tables]
    items.extend(figures)
    items.extend(left_over(free, more))
    rtl = right_to_left("".join(ln.text for ln in lines[:20]))
    leaves = reading_order(items, _chars, rtl=rtl)
    toc = {norm(title): level for level, title in survey.toc.get(number, ())}
    columns = [column_blocks(leaf, survey, toc, rtl) for leaf in leaves]
    numbers = [ln for ln in free if _PAGE_NO.match(ln.text.strip())]
    for column in columns:
        _footnotes(column, survey)
        _titled(column, numbers)
        _termed(column, survey)
        displayed(column, survey)
        _coded(column, survey)
    run_on(columns, rtl)
    blocks: list[Block] = []
    notes: list[Block] = []
    for column in columns:
        for block in column:
            (notes if block.kind == "note" else blocks).append(block)
    blocks = captioned(blocks)
    dated = None if number else dateline(blocks, toc)
    for block in blocks:  # a one-page document's footer, a marking, a label, a title's release line
        if block.kind == "heading" and (
            marking(block.lines, text.lines, height) or drawn_label(block.lines, text)
            or row_label(block.lines, text.lines, toc) or block is dated
        ):
            block.kind = "text"
    aside = notes
    if margin:
        aside.append(
            Block(
                "lines",
                sorted(margin, key=lambda ln: (ln.x0, ln.y0) if ln.rotated else (1e9, ln.y0)),
            )
        )
    if running:
        aside.append(Block("lines", sorted(running, key=lambda ln: (ln.y0, ln.x0))))
    at = len(blocks)
    if blocks and blocks[-1].kind == "text" and not ended(blocks[-1]) and len(blocks) > 1:
        at -= 1  # the page's last paragraph runs on to the next page: the asides before it
    blocks[at:at] = aside
    if heads:
        blocks.insert(0, Block("lines", heads))  # a turned page's head, upright: read first
    headings = [(b.level, joined(b.lines)) for b in blocks if b.kind == "heading"]
    return PageModel(blocks, headings, text.chars, skipped)


def _page_title(ln: Line, survey: Survey, number: int) -> bool:
    """A title each page prints (``Survey.title``: a form and its copy), not a running line;
    where the PDF's outline names its headings and not this line (a manual's banner), only on
    the first page it runs on."""
    if not survey.title(ln) or len(survey.outline) < 2:
        return survey.title(ln)
    if survey.running.get(running_key(ln.text)) == number:
        return True
    if survey.titles is None:  # once a document, not once a banner line
        survey.titles = frozenset(norm(title) for _, title, _, _ in survey.outline)
    return norm(ln.text) in survey.titles


def _footnotes(blocks: list[Block], survey: Survey) -> None:
    """Mark the column's footnotes: the blocks at its foot set smaller than the body, the
    first of them opening with a mark (``1``, ``*``, ``†``, ``3)``)."""
    i = len(blocks)
    while i > 0:
        block = blocks[i - 1]
        if block.kind not in ("text", "item") or not block.lines:
            break
        if max(ln.size for ln in block.lines) > survey.body - 1.0:
            break
        i -= 1
    tail = blocks[i:]
    if tail and _FOOT_MARK.match(tail[0].lines[0].text):
        for block in tail:
            block.kind = "note"


def _coded(column: list[Block], survey: Survey) -> None:
    """A run of paragraphs and items all in a monospaced family other than the body's (a
    program's listing, its output, a shell session) as one "code" block, lines as printed."""
    out: list[Block] = []
    for block in column:
        if block.kind not in ("text", "item", "lines") or not all(map(survey.code, block.lines)):
            out.append(block)
        elif out and out[-1].kind == "code":
            out[-1].lines.extend(block.lines)
        else:
            out.append(Block("code", list(block.lines)))
    column[:] = out


def _running_turned(text: PageText, survey: Survey) -> tuple[set[int], list[Line]]:
    """A page read turned's lines that stand sideways as shown, upright as stored, at the
    page's top or foot as stored (pdflscape: mnras_guide p6, NDSU-Thesis-Extended p79), told
    as an upright page's are by their place as stored: the ids of its running lines, folio (in
    the band and in no row of numbers: no ruler's; or the top or bottom line; or on a running
    line's row) and the title on the folio's row (``6  K. T. Smith``, ``4.8. Liste ... 37``:
    one line upright, two as MuPDF reads the page turned), left out; and its other head lines
    (yathesis-fr p47's section head over the turned figure), read first, as upright."""
    stored, tall = upright(text)
    turned = {id(up): ln for ln, up in zip(text.lines, stored, strict=True) if ln.rotated}
    ups = [up for up in stored if id(up) in turned]
    running = [up for up in ups if survey.running_at(up, tall)]
    folios = [
        up for up in ups if is_page_number(up.text) and (
            in_band(up, tall) and page_number(up, stored) or alone(up, stored)
            or any(same_row(up, r) for r in running)
        )
    ]  # fmt: skip
    titles = [up for up in ups if in_band(up, tall) and any(same_row(up, n) for n in folios)]
    out = {id(turned[id(up)]) for up in (*running, *folios, *titles)}
    top = [up for up in ups if up.y1 <= 2 * BAND * tall and id(turned[id(up)]) not in out]
    worded = [up for up in top if not is_page_number(up.text)]  # a ruler's number: no head
    heads = [up for up in top if up in worded or any(same_row(up, w) for w in worded)]
    return out, [turned[id(up)] for up in sorted(heads, key=lambda up: (up.y0, up.x0))]


def _paired(ln: Line, number: Line, *, right: bool = False) -> bool:
    """``number`` is on ``ln``'s row, two ems or more apart from it (after it: ``right``)."""
    apart = number.x0 > ln.x1 + 2 * ln.size or (not right and ln.x0 > number.x1 + 2 * ln.size)
    overlap = min(ln.y1, number.y1) - max(ln.y0, number.y0)
    return ln is not number and apart and overlap > 0.5 * min(number.height, ln.height)


def _titled(column: list[Block], numbers: list[Line]) -> None:
    """A column's headings made right: a table of contents' entry (a page number well to the
    right on its row: one of ``numbers``, set without leaders) is no heading; a chapter's number
    on a line of its own (``Kapitel 4``, ``II``) and the title under it are one heading."""
    for block in column:
        if block.kind == "heading" and any(
            _paired(ln, n, right=True) for ln in block.lines for n in numbers
        ):
            block.kind, block.level = "text", 0
    i = 0
    while i + 1 < len(column):
        label, title = column[i], column[i + 1]
        if (
            label.kind == title.kind == "heading"
            and _TITLE_LABEL.match(joined(label.lines).strip())
            and title.y0 >= label.y1 - 1
        ):
            label.lines = [*label.lines, *title.lines]
            label.level = min(label.level, title.level)
            del column[i + 1]
        i += 1


def _termed(column: list[Block], survey: Survey) -> None:
    """A description list's term (unnumbered, in a face or colour of its own at the body's size
    and weight, over text all set in past it: ``pgfplots``) is no heading,
    where it opens in lower case (a name, an option) or the column's prose also starts at its
    left: a capitalised side head over a body set in throughout stays a heading."""
    lefts = [b.lines[0].x0 for b in column if b.kind == "text"]
    for block, after in zip(column, column[1:], strict=False):
        first = block.lines[0] if block.kind == "heading" and len(block.lines) == 1 else None
        if not first or first.bold or survey.bigger(first) or after.kind != "text":
            continue
        named = not first.text.lstrip()[:1].isupper()
        if not named and all(abs(x - first.x0) > 1 for x in lefts):
            continue
        inset = min(ln.x0 for ln in after.lines) - first.x0
        if inset >= 0.6 * first.size and not HEAD_NUMBER.match(first.text.strip()):
            block.kind, block.level = "text", 0


def _chars(piece: Item | Line) -> int:
    return 0 if isinstance(piece, Item) else line_chars(piece)


def _table_item(table: PageTable) -> Item:
    return Item(table.x0, table.y0, table.x1, table.y1, Block("table", markdown=table.markdown))
