"""A page's paragraphs across what breaks them, and their writing: a paragraph broken at a
display (a formula set apart) made one (``displayed``), one that runs on into a later column
made whole (``run_on``); a block written as markdown (``written``: a paragraph's wrapped lines
joined or kept, a listing fenced, a list item's bullet as ``-``); an OCR reading's paragraphs
(``paragraphs``)."""

from __future__ import annotations

import re
from dataclasses import replace
from itertools import takewhile
from typing import TYPE_CHECKING

from ....sanitize import lazy_pattern
from ..library import right_to_left
from .pieces import Block, bulleted, ended
from .relations import ENDS, first_word, hyphenated, join, runs_to_edge, unspaced

if TYPE_CHECKING:
    from ..survey import Survey
    from .lines import Line

_CITED = lazy_pattern(r"\s*\[\w{1,4}\]\s")  # a reference's label opening its entry: "[3] "
_RUN_IN_HEAD = lazy_pattern(r"\W*[^\W\d_][\w-]*(?: [\w-]+){0,3}\. [A-Z]")  # "Ablation. We"
_LABEL_WORDS = 4  # a picture's label under a column's last paragraph: words at most
_DISPLAY_LINES = 4  # a display (a formula set apart) between a paragraph's parts: lines at most
_LAST_WORDS = 3  # a paragraph's last line parted from it by its size: words at most
_BARE_NUMBER = lazy_pattern(r"\s*\(?\d{1,4}[:.)]\s*$")  # an algorithm's step number: "4:"
_NUMBERED = lazy_pattern(r"\(\d{1,3}[a-z]?\)\s*$")  # an equation's number ending its line: "(7)"
_WRAP_EMS = 15  # a heading's row this wide (or wider) may wrap on: no title's short row


def displayed(column: list[Block], survey: Survey) -> None:
    """A paragraph broken at a display (a formula, a short line centred under it) is one: a
    paragraph that does not end a sentence, up to two short blocks indented on both sides,
    then a paragraph that opens lower-case (its sentence going on: ``where x is ...``), none in
    code (a listing set in: ``make compact-pdf``, stays a block of its own); a list item's
    wrap set out left of its bullet, right under it (``_wrap``), is the item's (lower-case, or
    set back left of the bullet where the item ends no sentence: ``Patrick`` / ``Daly's``). One pass, the
    paragraph's edges kept as it grows: a page of 25,000 one-line blocks is linear."""
    kept: list[Block] = []
    edge = max((ln.x1 for b in column for ln in b.lines), default=0.0)  # the column's right
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
                and (
                    column[j].lines[0].text.lstrip()[:1].islower()
                    or j == i and _last_line(head.lines[-1], column[j], left, edge)
                    or head.kind == "item" and not ended(head) and _set_back(head, column[j])
                )
                and (head.kind == "text" or j == i and _wrap(head, column[j], edge))
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
    """A paragraph (or a list item) whose sentence may go on past a display: text that does
    not end one, or ends with a colon."""
    if block.kind not in ("text", "item") or not block.lines:
        return False
    return not ended(block) or block.lines[-1].text.rstrip()[-1:] == ":"


def _last_line(last: Line, block: Block, left: float, edge: float) -> bool:
    """``block`` is the paragraph's last line parted from it by its size (R-FAQ p29's ``CRAN.``,
    texinfo's acronym a point under the body): one line of a few words ending a sentence (not
    with a label's ``:`` or ``;``, not a bare number: hagenberg p54's step ``4:``), at the
    paragraph's left (or up to 2.5 ems left of it: under an indented first line), a line's gap
    under ``last``, which ends no sentence and runs to the column's right ``edge``, within a
    fifth of its size (an 8 pt footnote under 10 pt lines is outside; termcal-de p10's last
    line, of 9.2 pt dates, under 10.9 pt words is inside)."""
    if len(block.lines) != 1:
        return False
    ln = block.lines[0]
    text = ln.text.rstrip()
    return (
        len(text.split()) <= _LAST_WORDS
        and bool(ENDS.search(text))
        and not text.endswith((":", ";"))
        and not _BARE_NUMBER.match(text)
        and not ENDS.search(last.text.rstrip())
        and left - 2.5 * ln.size <= ln.x0 < left + 0.5 * ln.size
        and 0 <= ln.y0 - last.y1 < 0.8 * (last.y1 - last.y0)
        and 0.8 * last.size < ln.size <= 1.2 * last.size
        and runs_to_edge(last, edge, False, first_word(ln.text))
    )


def _wrap(item: Block, block: Block, edge: float) -> bool:
    """``block`` opens with the wrap of the ``item`` above it, set back at the column's left,
    left of the bullet (mnras_guide p2's options): no further right than the item's first
    line, a line's gap under its last line (or a bullet's box over it), which runs to the
    column's ``edge``, one size, the wrap under the bullet or ending a sentence (no line of
    the column beside read in: ltubguid p3); its last line more than one word (or Chinese) and no
    equation's number: no one-URL item (anonymous-acm p1's ``or here:`` under it) nor an
    equation's tail read as one (elstest-3pd p3's ``, (7)``)."""
    last, first = item.lines[-1], block.lines[0]
    height = last.y1 - last.y0  # (a bullet's taller glyph box may reach under the wrap's top)
    words = last.text.split()[1 if len(item.lines) == 1 else 0 :]  # the bullet off
    return (
        (len(words) > 1 or any(map(unspaced, last.text)))
        and not _NUMBERED.search(last.text)
        and first.x0 <= item.lines[0].x0 + 0.5 * first.size
        and -0.25 * height <= first.y0 - last.y1 < 0.8 * height
        and abs(first.size - last.size) < 1.0
        and runs_to_edge(last, edge, False, first_word(first.text))
        and (first.x1 >= item.lines[0].x0 or bool(ENDS.search(first.text.rstrip())))
    )


def _set_back(item: Block, block: Block) -> bool:
    """``block`` opens left of the ``item``'s bullet, half an em or more, not bold, under an
    item broken off after a word or a comma (mnras_guide p2's ``Daly's`` under ``... uses
    Patrick``): a wrap however it opens; a label in bold or a line under a formula (GeoTopo
    p53's ``Beispiel 33`` under ``b) (g ◦f)∗([γ]) = ...``) stays apart."""
    first, end = block.lines[0], item.lines[-1].text.rstrip()[-1:]
    return (
        first.x0 < item.lines[0].x0 - 0.5 * first.size
        and (end.isalpha() or end == ",")  # a phrase broken off, no formula's end
        and not first.bold
    )


def _display(block: Block, left: float, right: float) -> bool:
    """A short block set in from both sides of its column (a centred formula)."""
    if block.kind != "text" or not block.lines or len(block.lines) > _DISPLAY_LINES:
        return False
    em = block.lines[0].size
    return all(ln.x0 > left + 2 * em and ln.x1 < right - 2 * em for ln in block.lines)


def run_on(columns: list[list[Block]], rtl: bool) -> None:
    """A paragraph that ends a column without ending its sentence and the paragraph that
    opens a later column (above it: the next column), lower-case or without a first-line
    indent, are one paragraph (tables, figures, captions and notes between them aside); one
    that ends its sentence too, where the page's paragraphs open indented (``_resumes``)."""
    for i, column in enumerate(columns):
        last = _last(column)
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


def _last(column: list[Block]) -> Block | None:
    """The column's last paragraph, item or heading; past the labels of a picture under it,
    each a line of a few words set smaller than that paragraph, no sentence (``Flexloc nut``
    under a photo of the handbook's figure, over its caption)."""
    text = [b for b in column if b.kind in ("text", "item", "heading")]
    labels = list(takewhile(_label, reversed(text)))
    if labels and len(text) > len(labels):
        last = text[-len(labels) - 1]
        if all(ln.size < 0.9 * last.lines[0].size for b in labels for ln in b.lines):
            return last
    return text[-1] if text else None


def _label(block: Block) -> bool:
    """One line of four words at most ending no sentence: a picture's label, maybe."""
    return (
        block.kind == "text" and len(block.lines) == 1
        and len(block.lines[0].text.split()) <= _LABEL_WORDS
        and not ENDS.search(block.lines[0].text.rstrip())
    )  # fmt: skip


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
    case, or any) with its first line not indented against its next (nor, opening with a
    ``[n]`` label, set out left of it: a reference's hanging entry, ``[3] Sten Andler ...``;
    an index's leaders or a caption under a figure's label do go on), or, a line alone, not
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
    first, second = block.lines[0].x0, block.lines[1].x0
    hanging = first < second - 0.5 * em and _CITED.match(block.lines[0].text)  # [3] ...
    return first <= second + 0.5 * em and not hanging


# -- writing --------------------------------------------------------------------------------------
_HASHES = lazy_pattern(r"^(\s*)(#{1,6})(?=\s|$)", re.MULTILINE)  # a heading's mark opening a line


def written(block: Block, lines_kept: bool) -> str:
    """A block as markdown; text that opens a line with ``#`` escaped (``\\#``), so that only a
    heading block reads as one (to a markdown reader and to the chunker's sections)."""
    if block.kind in ("heading", "table", "figure", "code"):
        return _marked(block)
    return _HASHES.sub(r"\1\\\2", _text(block, lines_kept))


def _marked(block: Block) -> str:
    """A heading, a table, a figure or code: markdown of its own."""
    if block.kind == "heading":
        return f"{'#' * block.level} {_rows_joined(block.lines)}"
    if block.kind == "table":
        return block.markdown
    if block.kind == "figure":
        labels = "\n".join(" ".join(ln.text.split()) for ln in _read(block.lines))
        return f"{block.markdown}\n\n{labels}" if labels else block.markdown
    return _fenced(block.lines)


def _text(block: Block, lines_kept: bool) -> str:
    """A paragraph, an item or lines kept as printed."""
    if block.kind == "lines":
        return "\n".join(" ".join(ln.text.split()) for ln in block.lines)
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


def _rows_joined(lines: list[Line]) -> str:
    """Lines as one, a row's pieces joined as no wrap (a Chinese heading's ``第一章`` and its
    title beside it keep their space), a row under a short one (under _WRAP_EMS wide: a
    centred title over its subtitle, ``论文中文标题`` / ``中文副标题``) as none either, its
    other rows as wraps (``join``)."""
    runs: list[list[str]] = []
    row_x0 = row_x1 = size = 0.0
    for prev, ln in zip([None, *lines], lines, strict=False):
        if prev is not None and _beside(prev, ln):
            runs[-1][-1] = join([runs[-1][-1], ln.text], wraps=False)
            row_x1 = ln.x1
            continue
        if not runs or row_x1 - row_x0 < _WRAP_EMS * size:
            runs.append([])
        runs[-1].append(ln.text)
        row_x0, row_x1, size = ln.x0, ln.x1, ln.size
    return join([join(run) for run in runs], wraps=False)


def _beside(line: Line, nxt: Line) -> bool:
    """``nxt`` is a piece of ``line``'s row (its top above half of ``line``'s height), no wrap."""
    return nxt.y0 < line.y1 - 0.5 * line.height


def _read(lines: list[Line]) -> list[Line]:
    return sorted(lines, key=lambda ln: (round(ln.y0 / 4), ln.x0))


def _wrapped(lines: list[Line], right: float) -> str:
    """A paragraph: runs of lines that wrap joined (``join``: Chinese wrapped with no space; a
    row's pieces with one, ``【解】 得分``), a line break kept after a line whose end leaves
    room for the next line's first word (and no sentence ends there: a short line inside a
    paragraph is a poem's or an address's)."""
    runs: list[list[str]] = [[]]
    beside = False  # the line is a piece of the row before it: joined to it as no wrap
    for ln, nxt in zip(lines, [*lines[1:], None], strict=False):
        if beside:
            runs[-1][-1] = join([runs[-1][-1], ln.text], wraps=False)
        else:
            runs[-1].append(ln.text)
        if nxt is None:
            break
        text = ln.text.strip()
        words = nxt.text.split(None, 1)
        beside = _beside(ln, nxt)
        if (
            not runs_to_edge(ln, right, False, len(words[0]) if words else 4)
            and not hyphenated(text)
            and not beside
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
