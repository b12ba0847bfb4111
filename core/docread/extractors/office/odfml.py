"""ODT body to markdown in-process, from content.xml (list and page-break styles from it and
styles.xml): headings by outline level, paragraphs, lists, tables (spans by the one table
renderer, nested tables flattened), sections and indexes, notes, links, images, and the text
of frames and drawn shapes after the paragraph that anchors them."""

from __future__ import annotations

import html
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from ..markdown import (
    MAX_NESTING,
    MAX_TABLE_CELLS,
    Cell,
    Grid,
    TableCaps,
    count_attr,
    flatten_grid,
    grid_table,
)
from .charts import odf_chart_grid, odf_object
from .convert.parts import MARK, Block, join_blocks, plain_lines
from .numbering import LEVELS, Counter, Level, odf_level, shown
from .package import OfficeZip, attr, local

if TYPE_CHECKING:
    from ..base import Context

_WALKED = {"section", "index-body", "table-of-content", "alphabetical-index",
           "illustration-index", "table-index", "object-index", "user-index",
           "bibliography", "deletion", "insertion", "change-start", "a", "span"}  # fmt: skip
_SKIPPED = {"tracked-changes", "annotation", "annotation-end", "note-citation",
            "sequence-decls", "variable-decls", "user-field-decls", "index-title-template",
            "table-of-content-source", "alphabetical-index-source", "forms", "page-number",
            "page-count", "title", "desc"}  # fmt: skip
_REPEAT_CAP = 1024  # repeated rows/columns of a table (a sheet-like table repeats to 1,048,576)
_SPACES_CAP = 100  # text:s c="N": a run of spaces
_SHAPES = {"frame", "custom-shape", "rect", "ellipse", "circle", "polygon", "g"}


def needs_pandoc_odf(oz: OfficeZip) -> bool:
    """True when the text holds formulas (MathML, inline or an embedded formula object):
    pandoc's job. Chart objects are read here."""
    content = oz.read("content.xml")
    if b"<math:math" in content:
        return True
    for href in _OBJECT_HREF.findall(content):
        name = html.unescape(href.decode("utf-8", "replace")).removeprefix("./").rstrip("/")
        part = f"{name}/content.xml"
        if oz.has(part) and b"office:chart" not in oz.read(part):
            return True  # a formula (or another object pandoc renders)
    return False


_OBJECT_HREF = re.compile(rb'<draw:object\b[^>]*?xlink:href="([^"]+)"')


_TITLES = {"title": 1, "subtitle": 2}  # LibreOffice's title styles: headings, never numbered


@dataclass(slots=True)
class _Styles:
    """What the walk needs from the styles: page breaks, headings, list and outline numbering."""

    breaks: set[str] = field(default_factory=set)  # paragraph styles that start a new page
    outline: dict[str, int] = field(default_factory=dict)  # heading styles of text:p -> level
    titles: dict[str, int] = field(default_factory=dict)  # Title/Subtitle styles -> level
    lists: dict[str, dict[int, Level]] = field(default_factory=dict)  # numbered list levels
    numbers: dict[int, Level] = field(default_factory=dict)  # the outline's numbered levels


@dataclass(slots=True)
class _Doc:
    oz: OfficeZip
    styles: _Styles
    notes: list[str] = field(default_factory=list)
    counts: dict[str, int] = field(default_factory=dict)  # list style -> its last top number
    style: str = ""  # the list style in force (a nested list inherits its parent's)
    path: dict[int, int] = field(default_factory=dict)  # numbers of the items around (by level)
    headings: Counter = field(default_factory=Counter)  # the outline's numbers
    depth: int = 0  # tables open around the cell being read
    caps: TableCaps = field(default_factory=TableCaps)  # the read's table and output budgets


def _styles(roots: list[Any]) -> _Styles:
    """From content.xml's automatic styles and styles.xml: the paragraph styles that break the
    page before them, the paragraph styles with an outline level (a heading written as
    ``text:p`` in "Heading 2") or a title style, each through its parent styles; the numbered
    levels of list styles and of the outline style (num-format, prefix, suffix, display levels,
    start value)."""
    parent: dict[str, str] = {}
    level: dict[str, int] = {}
    titled: dict[str, int] = {}
    out = _Styles()
    for root in roots:
        for el in root.iter():
            kind = local(el.tag)
            if kind == "style" and attr(el, "family") == "paragraph":
                name = attr(el, "name")
                parent[name] = attr(el, "parent-style-name")
                declared = count_attr(attr(el, "default-outline-level"), 0, 10)
                if declared > 0:
                    level[name] = declared
                shown_name = (attr(el, "display-name") or name).strip().lower()
                if shown_name in _TITLES:
                    titled[name] = _TITLES[shown_name]
                if any(attr(sub, "break-before") == "page" for sub in el):
                    out.breaks.add(name)
            elif kind in ("list-style", "outline-style"):
                levels = _levels(el)
                if kind == "outline-style":
                    out.numbers = levels
                elif levels:
                    out.lists[attr(el, "name")] = levels

    def inherited(name: str, found: dict[str, int]) -> int:
        seen: set[str] = set()
        while name and name not in seen:
            if name in found:
                return found[name]
            seen.add(name)
            name = parent.get(name, "")
        return 0

    for name in parent:
        if title := inherited(name, titled):
            out.titles[name] = title
        elif heading := inherited(name, level):
            out.outline[name] = heading
    breaking = dict.fromkeys(out.breaks, 1)
    out.breaks = {name for name in parent if inherited(name, breaking)}
    return out


def _levels(style: Any) -> dict[int, Level]:
    """The numbered levels (0-based) of a text:list-style or text:outline-style."""
    out: dict[int, Level] = {}
    for sub in style:
        if local(sub.tag) not in ("list-level-style-number", "outline-level-style"):
            continue
        fmt = attr(sub, "num-format")
        if not fmt:
            continue  # an outline level that shows no number
        at = count_attr(attr(sub, "level"), 1, LEVELS) - 1
        out[at] = odf_level(
            at, fmt, attr(sub, "num-prefix"), attr(sub, "num-suffix"),
            count_attr(attr(sub, "display-levels"), 1, LEVELS),
            count_attr(attr(sub, "start-value"), 1),
        )  # fmt: skip
    return out


def odt_markdown(oz: OfficeZip, ctx: Context) -> str:
    """content.xml's office:text as markdown (page breaks as MARK lines, notes at the end);
    tables under the read's caps, and the walk stops once its text is past what is left of the
    read's output budget (``Context.text_left``)."""
    root = oz.xml("content.xml")
    roots = [root] + ([oz.xml("styles.xml")] if oz.has("styles.xml") else [])
    doc = _Doc(oz, _styles(roots), caps=TableCaps.of(ctx))
    blocks: list[Block] = []
    body = next((el for el in root if local(el.tag) == "body"), None)
    texts = [part for part in body if local(part.tag) == "text"] if body is not None else []
    size = 0
    for el in (el for part in texts for el in part):
        done = len(blocks)
        _blocks([el], doc, blocks, 0)
        size += sum(len(text) for _, text in blocks[done:])
        if size > ctx.text_left():
            blocks.append(("para", ctx.out_of_text()))
            break
    notes = "\n\n".join(f"[^{n}]: {t}" for n, t in enumerate(doc.notes, 1))
    return join_blocks(blocks) + ("\n\n" + notes if notes else "")


def _blocks(parent: Any, doc: _Doc, out: list[Block], depth: int) -> None:
    for el in parent:
        kind = local(el.tag)
        if kind in ("p", "h"):
            _paragraph(el, doc, out, kind == "h")
        elif kind == "list":
            _list(el, doc, out, depth)
        elif kind == "table":
            grid = odf_grid(el, lambda cell: _cell_text(cell, doc), doc.caps.max_cells)
            table = grid_table(grid, doc.caps)
            if table:
                out.append(("table", table))
        elif kind in _SHAPES:
            _blocks(_box(el), doc, out, depth)
        elif kind in _WALKED:
            _blocks(el, doc, out, depth)


def _list(el: Any, doc: _Doc, out: list[Block], depth: int) -> None:
    """List items as ``- text`` / ``1. text`` lines (the label as the list style shows it:
    ``a)``, ``1.2.``), nested lists indented below their item, a heading in a list a heading
    (numbered by the outline style, as LibreOffice shows it); a list that continues an earlier
    one continues its numbers."""
    outer = doc.style
    doc.style = attr(el, "style-name") or outer
    levels = doc.styles.lists.get(doc.style, {})
    at = min(depth, LEVELS - 1)
    proceed = attr(el, "continue-numbering") == "true" or attr(el, "continue-list")
    start = levels[at].start - 1 if at in levels else 0
    number = doc.counts.get(doc.style, start) if depth == 0 and proceed else start
    for item in el:
        if local(item.tag) not in ("list-item", "list-header"):
            continue
        restart = attr(item, "start-value")
        if restart:
            number = count_attr(restart, 1) - 1
        number += 1
        doc.path[at] = number
        for deeper in [k for k in doc.path if k > at]:
            del doc.path[deeper]
        label = shown(levels, doc.path, at) if at in levels else None
        inner: list[Block] = []
        _blocks(item, doc, inner, depth + 1)
        marked = False
        for kind, text in inner:
            if kind == "heading" and not marked:  # numbered by the outline, as LibreOffice does
                out.append((kind, text))
                marked = True
            elif kind == "para":
                if not marked:
                    text = (label or "-") + " " + text
                    marked = True
                out.append(("item", "   " * depth + text))
            else:
                out.append((kind, text))
        if not marked:
            number -= 1  # an item without a paragraph shows no number
    for done in [k for k in doc.path if k >= at]:
        del doc.path[done]
    if depth == 0:
        doc.counts[doc.style] = number
    doc.style = outer


def _paragraph(p: Any, doc: _Doc, out: list[Block], heading: bool) -> None:
    style = attr(p, "style-name")
    styles = doc.styles
    if style in styles.breaks:
        out.append(("break", MARK))
    after: list[Block] = []
    text = " ".join(
        " ".join(line.split()) for line in _inline(p, doc, after).split("\n") if line.strip()
    )
    level = attr(p, "outline-level")
    if text and style in styles.titles and not (heading and level):
        out.append(("heading", "#" * styles.titles[style] + " " + text))
    elif text and (heading or style in styles.outline):
        depth = min(max(count_attr(level, styles.outline.get(style, 1), 10), 1), LEVELS)
        label = None
        cached = any(local(sub.tag) == "number" for sub in p)  # the label, as written
        if depth - 1 in styles.numbers and attr(p, "is-list-header") != "true" and not cached:
            label = doc.headings.label(styles.numbers, depth - 1)
        text = f"{label} {text}" if label else text
        out.append(("heading", "#" * min(depth, 6) + " " + text))
    elif text:
        out.append(("para", plain_lines(text)))
    out += after


def _inline(el: Any, doc: _Doc, after: list[Block], depth: int = 0) -> str:
    """A paragraph's text (ODF spacing kept); frames and shapes go to ``after`` as blocks. Past
    ``MAX_NESTING`` levels (a hostile nest of links or spans) the words only, without recursion."""
    if depth >= MAX_NESTING:
        return "".join(el.itertext())
    parts = [el.text or ""]
    for sub in el:
        kind = local(sub.tag)
        if kind == "s":
            parts.append(" " * count_attr(attr(sub, "c"), 1, _SPACES_CAP))
        elif kind == "tab":
            parts.append("\t")
        elif kind == "line-break":
            parts.append("\n")
        elif kind == "number":  # a list or heading label as its writer cached it
            parts.append("".join(sub.itertext()).strip() + " ")
        elif kind == "note":
            body = next((b for b in sub if local(b.tag) == "note-body"), None)
            inner: list[Block] = []
            if body is not None:
                _blocks(body, doc, inner, 0)
            doc.notes.append(" ".join(t for k, t in inner if k != "break"))
            parts.append(f"[^{len(doc.notes)}]")
        elif kind == "a":
            words = " ".join(_inline(sub, doc, after, depth + 1).split())
            href = attr(sub, "href")
            parts.append(f"[{words}]({href})" if words and href and "://" in href else words)
        elif kind in _SHAPES and (chart := _chart(sub, doc)):
            after.append(("table", chart))
        elif kind in _SHAPES:
            image = _image(sub)
            if image:
                parts.append(image)
            _blocks(_box(sub), doc, after, 0)
        elif kind not in _SKIPPED:
            parts.append(_inline(sub, doc, after, depth + 1))
        parts.append(sub.tail or "")
    return "".join(parts)


def _chart(frame: Any, doc: _Doc) -> str:
    """The table of the chart object a frame embeds ("" when it embeds none)."""
    obj = next((sub for sub in frame if local(sub.tag) == "object"), None)
    root = odf_object(doc.oz, attr(obj, "href")) if obj is not None else None
    if root is None:
        return ""
    grid = odf_chart_grid(
        root, lambda table: odf_grid(table, lambda c: _cell_text(c, doc), doc.caps.max_cells)
    )
    return grid_table(grid, doc.caps) if grid is not None else ""


def _box(shape: Any) -> list[Any]:
    """The block content of a frame's text box or a drawn shape (its paragraphs, lists, tables)."""
    out: list[Any] = []
    for sub in shape:
        kind = local(sub.tag)
        if kind == "text-box":
            out += list(sub)
        elif kind in ("p", "h", "list", "table"):
            out.append(sub)
        elif kind in _SHAPES:
            out += _box(sub)
    return out


def _image(frame: Any) -> str:
    """``![title](Pictures/name)`` of a frame's picture ("" for none, or a linked one)."""
    image = next((s for s in frame if local(s.tag) == "image"), None)
    if image is None:
        return ""
    href = attr(image, "href")
    if not href or href.startswith(("http:", "https:", "/")):
        return ""
    alt = next((s.text or "" for s in frame if local(s.tag) in ("title", "desc")), "")
    return f" ![{' '.join(alt.split())}]({href}) "


def odf_grid(table: Any, cell_text: Callable[[Any], str], max_cells: int = MAX_TABLE_CELLS) -> Grid:
    """A table:table (ODT, ODP) as a Grid, each cell's text by ``cell_text``: spans from
    number-columns/rows-spanned (covered cells skipped), repeated rows and cells repeated (each
    up to a cap, and no further once the rows times the widest row hold more than ``max_cells``
    cells: ``grid_table`` cuts the table there and says so), the header-rows group as the
    header."""
    grid = Grid()
    for row, header in _table_rows(table):
        cells: list[Cell] = []
        for cell in row:
            if local(cell.tag) != "table-cell":
                continue
            spans = (_count(cell, "number-rows-spanned"), _count(cell, "number-columns-spanned"))
            repeat = _count(cell, "number-columns-repeated")
            cells += [Cell(cell_text(cell), *spans)] * min(repeat, max_cells + 1 - len(cells))
            if len(cells) > max_cells:
                break
        while cells and not cells[-1].text and cells[-1].colspan == 1 and len(cells) > 1:
            cells.pop()  # trailing empty cells (a sheet-like table repeats them)
        times = _count(row, "number-rows-repeated")
        if header and grid.header_rows == len(grid.rows):  # the header rows lead the table
            grid.header_rows += times
        if grid.add(cells, max_cells, times):
            return grid  # past the cap: the renderer cuts it and says so
    while len(grid.rows) > 1 and not any(c.text for c in grid.rows[-1]):
        grid.rows.pop()
    return grid


def _table_rows(table: Any, header: bool = False) -> list[tuple[Any, bool]]:
    out: list[tuple[Any, bool]] = []
    for el in table:
        kind = local(el.tag)
        if kind == "table-row":
            out.append((el, header))
        elif kind in ("table-header-rows", "table-rows", "table-row-group"):
            out += _table_rows(el, header or kind == "table-header-rows")
    return out


def _count(el: Any, name: str) -> int:
    return max(count_attr(attr(el, name), 1, _REPEAT_CAP), 1)


def _cell_text(cell: Any, doc: _Doc) -> str:
    """A cell's content on one line; a nested table flattened with a note."""
    parts: list[str] = []
    for el in cell:
        if local(el.tag) == "table" and doc.depth >= MAX_NESTING:  # deeper: the words only
            parts.append(" ".join(el.itertext()))
        elif local(el.tag) == "table":
            doc.depth += 1
            grid = odf_grid(el, lambda sub: _cell_text(sub, doc), doc.caps.max_cells)
            parts.append(flatten_grid(grid, doc.caps))
            doc.depth -= 1
        else:
            inner: list[Block] = []
            _blocks([el], doc, inner, 0)
            parts += [t for k, t in inner if k != "break"]
    return " ".join(" ".join(p.split()) for p in parts if p)
