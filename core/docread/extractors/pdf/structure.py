"""A PDF page as markdown from its text geometry (lines.PageText, the page read once): headings
(``#``..``####``, from the outline when it names a line of the page, else from the document's
heading styles: survey.py), tables as pipe tables where they stand (tables.py), lists as ``-``
items, columns in reading order (order.py), pictures as a ``[Figure]`` line with their caption
and the labels printed on them, footnotes after the page's text, running headers/footers and
page numbers out of the flow (each running line once, on the first page that prints it),
rotated margin text and margin notes as plain lines at the end, words hyphenated at a line end joined, a
paragraph's lines joined into one, a paragraph that runs on into the next column whole.

``analyse`` makes a page's ``PageModel`` (its blocks); ``PageModel.markdown`` writes it, with
each paragraph's lines joined or kept (the agent's line-oriented text view)."""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

from ...sanitize import lazy_pattern
from .blocks import Block, bulleted, column_blocks, ended, joined, norm
from .figures import captioned, drawn_label, figure_boxes, figure_label
from .library import right_to_left
from .lines import Line, PageText
from .order import (
    Item,
    hyphenated,
    join,
    line_chars,
    margin_notes,
    reading_order,
    runs_to_edge,
)
from .survey import HEAD_NUMBER, Survey, alone, in_band, is_page_number, marking, running_key
from .tables.cells import PageTable, heads_row, left_over, numbers_row, page_number
from .tables.listing import code_rows
from .tables.ruled import drawn_tables
from .tables.unruled import aligned_tables

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
_RUN_IN_HEAD = lazy_pattern(r"\W*[^\W\d_][\w-]*(?: [\w-]+){0,3}\. [A-Z]")  # "Ablation. We"
_DISPLAY_LINES = 4  # a display (a formula set apart) between a paragraph's parts: lines at most


@dataclass(frozen=True, slots=True)
class PageMarkdown:
    """A page's markdown, the headings it holds, in order, as (level, text), the
    characters of its text layer (spaces aside: what the OCR threshold counts), whether
    ruled tables were not looked for (over the page's table budget), and whether the page is
    its plain text, no structure looked for (over lines.MAX_LINES: ``PageText.plain``)."""

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
        parts = [_written(b, lines_kept) for b in self.blocks]
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
    for ln in text.lines:
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
        _displayed(column, survey)
        _coded(column, survey)
    _run_on(columns, rtl)
    blocks: list[Block] = []
    notes: list[Block] = []
    for column in columns:
        for block in column:
            (notes if block.kind == "note" else blocks).append(block)
    blocks = captioned(blocks)
    for block in blocks:  # a one-page document's footer, a marking, a diagram's label: no heading
        if block.kind == "heading" and (
            marking(block.lines, text.lines, height) or drawn_label(block.lines, text)
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


def _displayed(column: list[Block], survey: Survey) -> None:
    """A paragraph broken at a display (a formula, a short line centred under it) is one: a
    paragraph that does not end a sentence, up to two short blocks indented on both sides,
    then a paragraph that opens lower-case (its sentence going on: ``where x is ...``), none in
    code (a listing set in: ``make compact-pdf``, stays a block of its own). One pass, the
    paragraph's edges kept as it grows: a page of 25,000 one-line blocks is linear."""
    kept: list[Block] = []
    i = 0
    while i < len(column):
        head = column[i]
        kept.append(head)
        i += 1
        if not _open(head) or survey.code(head.lines[0]):
            continue
        left, right = head.x0, head.right or max(ln.x1 for ln in head.lines)
        head.lines = list(head.lines)  # its own list, grown in place
        while True:
            j = i
            while j < len(column) and j - i < 2 and _display(column[j], left, right):
                j += 1
            if not (
                j < len(column)
                and column[j].kind == "text"
                and column[j].lines
                and column[j].lines[0].text.lstrip()[:1].islower()
            ) or any(survey.code(b.lines[0]) for b in column[i : j + 1]):
                break
            joined = [ln for block in column[i : j + 1] for ln in block.lines]
            head.lines.extend(joined)
            left = min(left, min(ln.x0 for ln in joined))
            right = head.right or max(right, max(ln.x1 for ln in joined))
            i = j + 1
            if not _open(head):
                break
    column[:] = kept


def _open(block: Block) -> bool:
    """A paragraph whose sentence may go on past a display: text that does not end one, or
    ends with a colon."""
    if block.kind != "text" or not block.lines:
        return False
    return not ended(block) or block.lines[-1].text.rstrip()[-1:] == ":"


def _display(block: Block, left: float, right: float) -> bool:
    """A short block set in from both sides of its column (a centred formula)."""
    if block.kind != "text" or not block.lines or len(block.lines) > _DISPLAY_LINES:
        return False
    em = block.lines[0].size
    return all(ln.x0 > left + 2 * em and ln.x1 < right - 2 * em for ln in block.lines)


def _chars(piece: Item | Line) -> int:
    return 0 if isinstance(piece, Item) else line_chars(piece)


def _table_item(table: PageTable) -> Item:
    return Item(table.x0, table.y0, table.x1, table.y1, Block("table", markdown=table.markdown))


def _run_on(columns: list[list[Block]], rtl: bool) -> None:
    """A paragraph that ends a column without ending its sentence and the paragraph that
    opens a later column (above it: the next column), lower-case or without a first-line
    indent, are one paragraph (tables, figures, captions and notes between them aside); one
    that ends its sentence too, where the page's paragraphs open indented (``_resumes``)."""
    for i, column in enumerate(columns):
        last = next((b for b in reversed(column) if b.kind in ("text", "item", "heading")), None)
        if last is None or last.kind == "heading":
            continue
        done = ended(last)
        if done and rtl:
            continue
        for later in columns[i + 1 :]:
            first = next((b for b in later if b.kind in ("text", "item", "heading")), None)
            if first is None:
                continue
            goes_on = _resumes(first, column, later) if done else _continues(first, rtl, later)
            if first.kind != "text" or first.y0 >= last.y1 or not goes_on:
                break
            last.lines = [*last.lines, *first.lines]
            later.remove(first)
            break


def _resumes(block: Block, column: list[Block], later: list[Block]) -> bool:
    """A paragraph of lines under the float that opens the ``later`` column, unindented, no
    label run in (bold, or a short head ending at a full stop), where the two columns'
    paragraphs open indented: it resumes the paragraph the ``column`` before ended at a
    sentence's end (the DPR paper's p6, under Table 3)."""
    lines, em, at = block.lines, block.lines[0].size, later.index(block)
    if len(lines) < 2 or lines[0].lead or lines[0].bold or lines[0].x0 > lines[1].x0 + 0.5 * em:
        return False
    if _RUN_IN_HEAD.match(lines[0].text):
        return False  # an italic or plain head run in ("Ablation. We ..."): a paragraph's own
    if not at or any(b.kind not in ("table", "figure", "caption") for b in later[:at]):
        return False  # no float over it: a column's unindented top may be a paragraph's own
    return any(
        b.kind == "text" and len(b.lines) > 1 and b.lines[0].x0 > b.lines[1].x0 + 0.5 * em
        for b in (*column, *later)
    )


def _continues(block: Block, rtl: bool, column: list[Block]) -> bool:
    """A paragraph that continues one before it: it opens lower-case, or (a script without
    case, or any) with its first line not indented against its next, or, a line alone, not
    indented against the ``column``'s left edge where its paragraphs open indented."""
    start = block.lines[0].text.lstrip()[:1]
    if start.islower():
        return True
    if start.isupper() or not start or rtl:
        return False
    em = block.lines[0].size
    if len(block.lines) < 2:
        texts = [b for b in column if b.kind == "text" and len(b.lines) > 1]
        indented = any(b.lines[0].x0 > b.lines[1].x0 + 0.5 * em for b in texts)
        return indented and block.lines[0].x0 <= min(b.x0 for b in texts) + 0.5 * em
    return block.lines[0].x0 <= block.lines[1].x0 + 0.5 * em


# -- writing --------------------------------------------------------------------------------------
def _written(block: Block, lines_kept: bool) -> str:
    if block.kind == "heading":
        return f"{'#' * block.level} {joined(block.lines)}"
    if block.kind in ("table",):
        return block.markdown
    if block.kind == "figure":
        labels = "\n".join(" ".join(ln.text.split()) for ln in _read(block.lines))
        return f"{block.markdown}\n\n{labels}" if labels else block.markdown
    if block.kind == "lines":
        return "\n".join(" ".join(ln.text.split()) for ln in block.lines)
    if block.kind == "code":
        return _fenced(block.lines)
    lines = block.lines
    if block.kind == "item" and bulleted(lines[0].text):
        text = lines[0].text.lstrip()[1:].lstrip(" \t\xa0\x07")
        lines = [replace(lines[0], text="- " + text), *lines[1:]]
    if lines_kept:
        return "\n".join(" ".join(ln.text.split()) for ln in lines)
    return _wrapped(lines, block.right or max(ln.x1 for ln in lines))


def _fenced(lines: list[Line]) -> str:
    """Code fenced, a row a line (``tables.listing.code_rows``), indented and spaced out as printed."""
    import statistics

    left = min(ln.x0 for ln in lines)
    width = statistics.median((ln.x1 - ln.x0) / max(len(ln.text), 1) for ln in lines)
    out: list[str] = []
    for above, ln in zip([None, *lines], lines, strict=False):
        if above and ln.y0 - above.y1 > 0.8 * ln.height:
            out.append("")  # a blank line as printed
        out.append(" " * round((ln.x0 - left) / width) + ln.text.strip())
    fence = "~~~" if any("```" in row for row in out) else "```"
    return "\n".join([fence, *out, fence])


def _read(lines: list[Line]) -> list[Line]:
    return sorted(lines, key=lambda ln: (round(ln.y0 / 4), ln.x0))


def _wrapped(lines: list[Line], right: float) -> str:
    """A paragraph: runs of lines that wrap joined (``join``), a line break kept after a line
    whose end leaves room for the next line's first word (and no sentence ends there: a
    short line inside a paragraph is a poem's or an address's)."""
    runs: list[list[str]] = [[]]
    for ln, nxt in zip(lines, [*lines[1:], None], strict=False):
        runs[-1].append(ln.text)
        if nxt is None:
            break
        text = ln.text.strip()
        words = nxt.text.split(None, 1)
        if (
            not runs_to_edge(ln, right, False, len(words[0]) if words else 4)
            and not hyphenated(text)
            and nxt.y0 >= ln.y1 - 0.5 * ln.height  # not a piece beside it
            and not right_to_left(text)
        ):
            runs.append([])
    return "\n".join(join(run) for run in runs)


def paragraphs(text: str) -> str:
    """Plain text with blank lines between paragraphs (an OCR reading) with each paragraph's
    lines joined into one, hyphenated words made whole."""
    return "\n\n".join(
        join(chunk.splitlines()) for chunk in re.split(r"\n\s*\n", text) if chunk.strip()
    )
