"""A PDF page as markdown from its text geometry (lines.PageText, the page read once): headings
(``#``..``####``, from the outline when it names a line of the page, else from the document's
heading styles: survey.py), tables as pipe tables where they stand (tables.py), lists as ``-``
items, columns in reading order (order.py), pictures as a ``[Figure]`` line with their caption
and the labels printed on them, footnotes after the page's text, running headers/footers and
page numbers out of the flow (each running line once, on the first page that prints it),
rotated margin text as plain lines at the end, words hyphenated at a line end joined, a
paragraph's lines joined into one, a paragraph that runs on into the next column whole.

``analyse`` makes a page's ``PageModel`` (its blocks); ``PageModel.markdown`` writes it, with
each paragraph's lines joined or kept (the agent's line-oriented text view)."""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from .figures import figure_boxes
from .lines import Line, PageText, right_to_left, visible
from .order import reading_order
from .survey import Survey, in_band, is_page_number, running_key
from .tables import PageTable, aligned_tables, drawn_tables, inside, left_over

if TYPE_CHECKING:
    from ...settings import OutputSettings

_STRONG_BULLETS = "•◦▪▫‣⁃●○■□▶►➢✓\u25b8\ufffd\uf0a7\uf0b7\uf0d8\uf0fc"
_WEAK_BULLETS = "-–—*·∙"
_NUMBERED = re.compile(r"^\s*(?:\d{1,3}[.)]|\(?[a-z][.)]|\([ivx]{1,4}\)|\(\d{1,3}\))\s+\S")
_LIST_START = frozenset("0123456789(abcdefghijklmnopqrstuvwxyz")
_HYPHEN_END = re.compile(r"[^\W\d_]-$")
_HEAD_NUMBER = re.compile(
    r"^(?:\d{1,2}(?:\.\d{1,2}){0,4}\.?|[A-Z]\.|[IVX]{1,5}\.|\(\d{1,2}\)|\d{1,2}\)"
    r"|(?:chapter|section|part|appendix|kapitel|abschnitt|teil)\s+[\dIVXA-Z]+\.?"
    r"|제\s*\d+\s*[장절조편])(?:\s|$)",
    re.IGNORECASE,
)
_CAPTION = re.compile(
    r"^(?:Figure|Fig\.|Chart|Image|Photo|Abbildung|Abb\.|Table|Tab\.|Tabelle|Listing|Example"
    r"|Algorithm|Scheme|Plate|Exhibit|그림|표|\[표|\[그림)\s*[\dIVX]",
    re.IGNORECASE,
)
_FIGURE_CAPTION = re.compile(
    r"^(?:Figure|Fig\.|Chart|Image|Photo|Abbildung|Abb\.|그림|\[그림)\s*[\dIVX]", re.IGNORECASE
)
_ENDS = re.compile(r"[.!?:;。！？][\"'”’»)\]]*$")  # a sentence's end (quotes after it)
_FOOT_MARK = re.compile(r"^\s*(?:\d{1,3}\)?|[*†‡§¶∗⋆]+|[¹²³⁴⁵⁶⁷⁸⁹⁰]+|\(\d{1,3}\))\s*\S")
_LABEL_WORDS = 8  # a line on a figure this short is one of its labels, not text beside it
_AXES = 30.0  # points beside a figure where its tick labels and axis titles are printed
_MAX_HEADING = 160  # characters: a longer block is text, whatever its font
_WEAK_WORDS = 12  # a heading set only apart by slant, family or a little size: this many words
_FIGURE = "[Figure]"
_WORD = re.compile(r"[^\W\d_]{3}")  # a word: three letters in a row
_SENTENCES = re.compile(r"[a-z]{2}[.!?]\s+[A-Z]")  # one sentence ends, another starts
_MATH_FONT = re.compile(r"^(?:CM(?:MI|SY|EX)|MSAM|MSBM|rsfs|eufm|wasy)|Math|Symbol", re.I)


@dataclass(frozen=True, slots=True)
class PageMarkdown:
    """A page's markdown, the headings it holds, in order, as (level, text), the
    characters of its text layer (spaces aside: what the OCR threshold counts), and whether
    ruled tables were not looked for (over the page's table budget)."""

    text: str
    headings: list[tuple[int, str]]
    chars: int
    tables_skipped: bool = False


@dataclass
class Block:
    """A piece of the page in reading order. ``kind``: "text" (a paragraph), "item" (a list
    item), "heading" (``level``), "table" and "figure" (``markdown``), "caption", "note" (a
    footnote), "lines" (kept line by line: figure labels, margin text, running lines)."""

    kind: str
    lines: list[Line] = field(default_factory=list)
    markdown: str = ""
    level: int = 0
    right: float = 0.0  # the column's right edge: where a wrapped line ends

    @property
    def x0(self) -> float:
        return min(ln.x0 for ln in self.lines)

    @property
    def y0(self) -> float:
        return min(ln.y0 for ln in self.lines)

    @property
    def y1(self) -> float:
        return max(ln.y1 for ln in self.lines)


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


@dataclass
class _Item:
    """A table or a figure to place in reading order."""

    x0: float
    y0: float
    x1: float
    y1: float
    block: Block


def _norm(text: str) -> str:
    return " ".join(text.split()).casefold()


def analyse(text: PageText, number: int, survey: Survey, output: OutputSettings) -> PageModel:
    """Page ``number`` (0-based) as blocks (see the module docstring)."""
    height = text.height
    lines: list[Line] = []
    margin: list[Line] = []
    running: list[Line] = []
    for ln in text.lines:
        if ln.rotated:
            margin.append(ln)
        elif is_page_number(ln.text) and (in_band(ln, height) or _alone(ln, text.lines)):
            continue
        elif survey.running_at(ln, height):
            if survey.running.get(running_key(ln.text)) == number:
                running.append(ln)
        else:
            lines.append(ln)
    if not lines and not margin and not running and text.lines:
        lines = list(text.lines)  # a page that only holds its number still says so
        margin = []
    tables, skipped = drawn_tables(text, lines, output, survey.max_seconds)
    lines = left_over(lines, tables)
    drawn = figure_boxes(text, [t.bbox for t in tables])
    figures = [_Item(*box, Block("figure", markdown=_FIGURE)) for box, _ in drawn]
    axes = {id(f) for f, (_, is_drawn) in zip(figures, drawn, strict=True) if is_drawn}
    free: list[Line] = []
    for ln in lines:
        box = next((f for f in figures if _label(ln, f, id(f) in axes, survey)), None)
        if box is not None:
            box.block.lines.append(ln)  # a label printed on the figure or at its axes
        else:
            free.append(ln)
    more = aligned_tables(text, free, output)
    tables += more
    items: list[_Item | Line] = [_table_item(t) for t in tables]
    items.extend(figures)
    items.extend(left_over(free, more))
    rtl = right_to_left("".join(ln.text for ln in lines[:20]))
    leaves = reading_order(items, _chars, rtl=rtl)
    toc = {_norm(title): level for level, title in survey.toc.get(number, ())}
    columns = [_blocks(leaf, survey, toc, rtl) for leaf in leaves]
    _run_on(columns, rtl)
    blocks: list[Block] = []
    notes: list[Block] = []
    for column in columns:
        for block in column:
            (notes if block.kind == "note" else blocks).append(block)
    blocks = _captioned(blocks)
    aside = notes
    if margin:
        aside.append(Block("lines", sorted(margin, key=lambda ln: (ln.x0, ln.y0))))
    if running:
        aside.append(Block("lines", sorted(running, key=lambda ln: (ln.y0, ln.x0))))
    at = len(blocks)
    if blocks and blocks[-1].kind == "text" and not _ended(blocks[-1]) and len(blocks) > 1:
        at -= 1  # the page's last paragraph runs on to the next page: the asides before it
    blocks[at:at] = aside
    headings = [(b.level, _joined(b.lines)) for b in blocks if b.kind == "heading"]
    return PageModel(blocks, headings, text.chars, skipped)


def _label(ln: Line, figure: _Item, axes: bool, survey: Survey) -> bool:
    """A figure's label: a short line on it (``_LABEL_WORDS``), or, by a drawing (``axes``),
    a word or three just outside it (a plot's tick labels and axis titles); never a caption,
    nor a heading's line beside it."""
    words = len(ln.text.split())
    if words > _LABEL_WORDS or _CAPTION.match(ln.text.lstrip()):
        return False
    if inside(ln, (figure.x0, figure.y0, figure.x1, figure.y1)):
        return True
    if not axes or survey.bigger(ln):
        return False
    m = _AXES
    near = (figure.x0 - m, figure.y0 - m / 3, figure.x1 + m / 2, figure.y1 + m)
    return words <= 3 and not _ENDS.search(ln.text.rstrip()) and _within(ln, near)


def _within(ln: Line, box: tuple[float, float, float, float]) -> bool:
    return box[0] <= ln.x0 and ln.x1 <= box[2] and box[1] <= ln.y0 and ln.y1 <= box[3]


def _ended(block: Block) -> bool:
    """The block's text ends a sentence."""
    end = block.lines[-1].text.rstrip() if block.lines else ""
    return bool(_ENDS.search(end)) and not _hyphenated(end)


def _chars(piece: _Item | Line) -> int:
    return 0 if isinstance(piece, _Item) else max(1, len(piece.text.strip()))


def _alone(ln: Line, lines: list[Line]) -> bool:
    """The top line, above every other line, or the bottom one, below them."""
    others = [o for o in lines if o is not ln]
    return bool(others) and (
        all(o.y0 >= ln.y1 - 1 for o in others) or all(o.y1 <= ln.y0 + 1 for o in others)
    )


def _table_item(table: PageTable) -> _Item:
    return _Item(table.x0, table.y0, table.x1, table.y1, Block("table", markdown=table.markdown))


# -- blocks of a column ---------------------------------------------------------------------------
def _blocks(
    leaf: list[_Item | Line], survey: Survey, toc: dict[str, int], rtl: bool
) -> list[Block]:
    """A column's pieces as blocks: its lines split into paragraphs, list items and headings;
    its tables and figures as they stand; its footnotes marked."""
    lines = [p for p in leaf if isinstance(p, Line)]
    if not lines:
        return [p.block for p in leaf if isinstance(p, _Item)]
    left = min(ln.x0 for ln in lines)
    right = max(ln.x1 for ln in lines)
    gap = _line_gap(lines)
    out: list[Block] = []
    current: list[Line] = []
    kind = "text"
    beside = False  # the block being made sits beside the one before (a label on its row)

    def flush() -> None:
        nonlocal current, kind
        if current:
            edge = max(ln.x1 for ln in current) if len(current) > 1 else right
            indented = current[0].x0 > left + 0.5 * current[0].size
            strong = kind == "item" and (indented or len(current) > 1)
            out.extend(_typed(current, kind, survey, toc, edge, beside=beside, strong=strong))
        current, kind = [], "text"

    prev: Line | None = None
    for piece in leaf:
        if isinstance(piece, _Item):
            flush()
            out.append(piece.block)
            prev = None
            continue
        ln = piece
        start = _starts_item(ln, prev, right, rtl)
        if prev is None or start or _breaks(prev, ln, current, kind, gap, left, right, survey, rtl):
            flush()
            kind = "item" if start else "text"
            beside = prev is not None and _beside(prev, ln)
        current.append(ln)
        prev = ln
    flush()
    _footnotes(out, survey)
    return out


def _line_gap(lines: list[Line]) -> float:
    """The usual space between two lines of a paragraph in this column (the median of the
    gaps between lines one under the other), 0.3 of a line when it has too few."""
    gaps = sorted(
        b.y0 - a.y1
        for a, b in zip(lines, lines[1:], strict=False)
        if b.y0 >= a.y1 - 0.5 * a.height and a.size == b.size and b.y0 - a.y1 < 2 * a.height
    )
    if len(gaps) < 2:
        return 0.3 * (lines[0].height if lines else 10.0)
    return max(gaps[len(gaps) // 2], 0.0)


def _starts_item(ln: Line, prev: Line | None, right: float, rtl: bool) -> bool:
    """A line that opens a list item: a strong bullet, or a weak one (``-``, ``·``) or a number
    after a line that did not run to the column's edge."""
    stripped = ln.text.lstrip()
    first, second = stripped[:1], stripped[1:2]
    if first in _STRONG_BULLETS:
        return True
    weak = first in _WEAK_BULLETS and second in (" ", "\t", "\xa0")
    numbered = not weak and first in _LIST_START and bool(_NUMBERED.match(stripped))
    if not (weak or numbered):
        return False
    return prev is None or not _runs_to_edge(prev, right, rtl) or prev.x0 > ln.x0 + 2


def _runs_to_edge(ln: Line, right: float, rtl: bool, word: int = 4) -> bool:
    """Whether the line reaches the column's edge (no room left there for a word)."""
    per_char = (ln.x1 - ln.x0) / max(len(ln.text.strip()), 1)
    if rtl:
        return True  # right-aligned starts: the left end tells nothing of a wrap
    return ln.x1 + (word + 1) * per_char >= right


def _breaks(
    prev: Line, ln: Line, current: list[Line], kind: str, gap: float, left: float,
    right: float, survey: Survey, rtl: bool,
) -> bool:  # fmt: skip
    """Whether ``ln`` starts a new block after ``prev``: it sits beside it, or more space is
    above it than between a paragraph's lines, or the font size changes; after a line that
    runs to the text's edge (a paragraph wraps there), only a first-line indent; after a
    short line, a change between a heading style and another, or the end of a sentence."""
    if _beside(prev, ln):
        return True  # a label or a value on the same row: its own block
    if ln.y0 - prev.y1 > gap + 0.35 * min(ln.height, prev.height):
        return True
    if abs(ln.size - prev.size) >= 1.0:
        return True
    words = ln.text.split()
    edge = max(max(c.x1 for c in current), ln.x1) if current else right  # this text's edge
    wraps = _runs_to_edge(prev, edge, rtl, len(words[0]) if words else 4)
    if not wraps:
        heady_prev, heady = survey.distinct(prev), survey.distinct(ln)
        if heady_prev != heady or (heady and prev.style != ln.style):
            return True
        if _ENDS.search(prev.text.rstrip()):
            return True
    if rtl or kind == "item":
        return False
    em = ln.size
    indented = left + 0.6 * em < ln.x0 <= left + 6 * em and ln.x0 > prev.x0 + 0.6 * em
    if indented and prev.x0 <= left + 0.6 * em:
        first = current[0]
        return first is prev or first.x0 <= left + 0.6 * em  # not a hanging indent
    return False


def _beside(prev: Line, ln: Line) -> bool:
    """The line sits on the row of the one before, apart from it."""
    return ln.y0 < prev.y1 - 0.5 * min(ln.height, prev.height) and ln.y1 > prev.y0


def _typed(
    lines: list[Line], kind: str, survey: Survey, toc: dict[str, int], right: float,
    *, beside: bool = False, strong: bool = False,
) -> list[Block]:  # fmt: skip
    """A run of lines as its blocks: a heading (the outline names it, or its style and shape
    say so: ``_heading_level``), a heading run into the paragraph it opens (its first
    lines), a caption, or a paragraph / list item; a block ``beside`` another on its row (a
    label, a value) is never a heading, a list item (``strong``: indented, or of several
    lines) only when it is larger than the body or bold."""
    whole = _norm(" ".join(ln.text for ln in lines)) if toc else ""
    if whole in toc:
        return [Block("heading", lines, level=min(toc[whole], 4))]
    if kind == "text" and _CAPTION.match(lines[0].text.lstrip()):
        return [Block("caption", lines, right=right)]
    if beside:
        return [Block(kind, lines, right=right)]
    level = _heading_level(lines, survey, toc, strong=strong)
    if level:
        return [Block("heading", lines, level=level)]
    head = _lead(lines, survey)
    if head:
        level = _heading_level(lines[:head], survey, toc, strong=strong)
        if level:
            return [
                Block("heading", lines[:head], level=level),
                Block(kind, lines[head:], right=right),
            ]
    return [Block(kind, lines, right=right)]


def _heading_level(
    lines: list[Line], survey: Survey, toc: dict[str, int], *, strong: bool = False
) -> int:
    """The level of a block that is a heading, else 0: at most three lines of one size and
    weight apart from the body's (survey.Survey.distinct), with a word in it (not a formula),
    not a caption, a bullet or sentences, and either larger than the body or bold, or (unless
    ``strong`` only: a list item) in a style the document sets its headings in, or numbered
    (``1.2``, ``(1)``, ``Chapter 3``), short (a dozen words) and not a sentence."""
    first = lines[0]
    if len(lines) > 3 or any(
        abs(ln.size - first.size) >= 0.5 or ln.bold != first.bold for ln in lines
    ):
        return 0
    text = _joined(lines)
    if not text or len(text) > _MAX_HEADING or not survey.distinct(first):
        return 0
    if toc and _norm(text) in toc:
        return min(toc[_norm(text)], 4)
    stripped = text.lstrip()
    if (
        stripped[:1] in _STRONG_BULLETS
        or _CAPTION.match(stripped)
        or not _WORD.search(text)
        or _MATH_FONT.search(first.family)
        or _SENTENCES.search(text)
    ):
        return 0
    words = len(text.split())
    numbered = bool(_HEAD_NUMBER.match(stripped))
    sentence = bool(re.search(r"[.,;]$", text.rstrip())) and not numbered
    if survey.bigger(first) or (first.bold and not survey.body_style[1]):
        if sentence and (words > 8 or text.rstrip().endswith(".") and words > 2) or first.mono:
            return 0
        return survey.level(first)
    if strong or words > _WEAK_WORDS or sentence:
        return 0
    if stripped[:1] in "—–-\"“'‘(" and not numbered:
        return 0
    if first.style in survey.heading_styles or numbered:
        return survey.level(first)
    return 0


def _has_letters(text: str) -> bool:
    return any(c.isalpha() for c in text)


def _lead(lines: list[Line], survey: Survey) -> int:
    """How many first lines of a block are a heading run into its paragraph: whole lines in
    one style apart from the body's, the next line not in it."""
    if len(lines) < 2 or not survey.distinct(lines[0]):
        return 0
    n = 1
    while n < min(3, len(lines)) and lines[n].style == lines[0].style:
        n += 1
    return n if n < len(lines) and not survey.distinct(lines[n]) else 0


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


def _run_on(columns: list[list[Block]], rtl: bool) -> None:
    """A paragraph that ends a column without ending its sentence and the paragraph that
    opens a later column (above it: the next column), lower-case or without a first-line
    indent, are one paragraph (tables, figures, captions and notes between them aside)."""
    for i, column in enumerate(columns):
        last = next((b for b in reversed(column) if b.kind in ("text", "item", "heading")), None)
        if last is None or last.kind == "heading":
            continue
        if _ended(last):
            continue
        for later in columns[i + 1 :]:
            first = next((b for b in later if b.kind in ("text", "item", "heading")), None)
            if first is None:
                continue
            if first.kind != "text" or first.y0 >= last.y1 or not _continues(first, rtl):
                break
            last.lines = [*last.lines, *first.lines]
            later.remove(first)
            break


def _continues(block: Block, rtl: bool) -> bool:
    """A paragraph that continues one before it: it opens lower-case, or (a script without
    case, or any) with its first line not indented against its next."""
    start = block.lines[0].text.lstrip()[:1]
    if start.islower():
        return True
    if start.isupper() or not start or rtl:
        return False
    if len(block.lines) < 2:
        return False
    return block.lines[0].x0 <= block.lines[1].x0 + 0.5 * block.lines[0].size


def _captioned(blocks: list[Block]) -> list[Block]:
    """A figure's caption (the caption block right after or before it) into its placeholder."""
    out: list[Block] = []
    skip = False
    for i, block in enumerate(blocks):
        if skip:
            skip = False
            continue
        if block.kind == "figure":
            after = blocks[i + 1] if i + 1 < len(blocks) else None
            if (
                after is not None
                and after.kind in ("caption", "text")
                and _FIGURE_CAPTION.match(after.lines[0].text.lstrip())
            ):
                block.markdown = f"[Figure: {_joined(after.lines)}]"
                skip = True
        out.append(block)
    return out


# -- writing --------------------------------------------------------------------------------------
def _written(block: Block, lines_kept: bool) -> str:
    if block.kind == "heading":
        return f"{'#' * block.level} {_joined(block.lines)}"
    if block.kind in ("table",):
        return block.markdown
    if block.kind == "figure":
        labels = "\n".join(" ".join(ln.text.split()) for ln in _read(block.lines))
        return f"{block.markdown}\n\n{labels}" if labels else block.markdown
    if block.kind == "lines":
        return "\n".join(" ".join(ln.text.split()) for ln in block.lines)
    lines = block.lines
    if block.kind == "item":
        stripped = lines[0].text.lstrip()
        if (
            stripped[:1] in _STRONG_BULLETS
            or stripped[:1] in _WEAK_BULLETS
            and stripped[1:2].isspace()
        ):
            text = stripped[1:].lstrip(" \t\xa0\x07")
            lines = [_retexted(lines[0], "- " + text), *lines[1:]]
    if lines_kept:
        return "\n".join(" ".join(ln.text.split()) for ln in lines)
    return _wrapped(lines, block.right or max(ln.x1 for ln in lines))


def _read(lines: list[Line]) -> list[Line]:
    return sorted(lines, key=lambda ln: (round(ln.y0 / 4), ln.x0))


def _retexted(ln: Line, text: str) -> Line:
    return Line(
        ln.x0, ln.y0, ln.x1, ln.y1, text, ln.size, ln.bold, ln.italic, ln.mono, ln.family,
        ln.weight, ln.block, ln.rotated,
    )  # fmt: skip


def _joined(lines: list[Line]) -> str:
    return _join(ln.text for ln in lines)


def _wrapped(lines: list[Line], right: float) -> str:
    """A paragraph: runs of lines that wrap joined (``_join``), a line break kept after a line
    whose end leaves room for the next line's first word (and no sentence ends there: a
    short line inside a paragraph is a poem's or an address's)."""
    runs: list[list[str]] = [[]]
    for ln, nxt in zip(lines, [*lines[1:], None], strict=False):
        runs[-1].append(ln.text)
        if nxt is None:
            break
        text = ln.text.strip()
        words = nxt.text.split()
        if (
            not _runs_to_edge(ln, right, False, len(words[0]) if words else 4)
            and not _hyphenated(text)
            and nxt.y0 >= ln.y1 - 0.5 * ln.height  # not a piece beside it
            and not right_to_left(text)
        ):
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


def visible_chars(text: PageText) -> int:
    return text.chars if text.chars else sum(visible(ln.text) for ln in text.lines)
