"""Slide decks from their XML: PPTX (PresentationML) and ODP (ODF). One Slide per slide, in
deck order, with its title, body text (bullets, tables and charts as markdown tables, image
placeholders) and speaker notes. Only the slides asked for are parsed, so a 5,000-slide deck reads a window fast.
"""

from __future__ import annotations

import posixpath
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from ..markdown import MAX_NESTING, Cell, Grid, TableCaps, count_attr, grid_table
from .charts import drawingml_grid, odf_chart_grid, odf_object
from .comments import pptx_comments
from .odfml import odf_grid
from .package import OfficeZip, attr, local, rels


@dataclass(slots=True)
class Slide:
    """One slide: 1-based number, title, markdown-ish body, notes, image members it shows."""

    number: int
    title: str = ""
    body: str = ""
    notes: str = ""
    images: list[str] = field(default_factory=list)
    comments: list[str] = field(default_factory=list)  # review comments, one line each

    @property
    def text(self) -> str:
        """Body, notes, then review comments: what loaders index and the agent view shows
        under the heading."""
        parts = [self.body] if self.body else []
        if self.notes:
            parts.append(f"Notes: {self.notes}")
        if self.comments:
            parts.append("Comments:\n" + "\n".join(f"- {c}" for c in self.comments))
        return "\n\n".join(parts)


def _child(el: Any, *names: str) -> Any:
    """The first descendant whose local name is in ``names`` (or None)."""
    for sub in el.iter():
        if sub is not el and local(sub.tag) in names:
            return sub
    return None


# -- PPTX ----------------------------------------------------------------------------------------
_LEVELS = 8  # DrawingML paragraph levels are 0-8: a deeper lvl is the deepest (it indents)


class PptxDeck:
    """A PPTX's slide list from presentation.xml; slides parsed one at a time on request;
    tables rendered under ``caps`` (the read's)."""

    def __init__(self, oz: OfficeZip, caps: TableCaps | None = None) -> None:
        self.oz, self.caps = oz, caps or TableCaps()
        pres = "ppt/presentation.xml"
        ids = rels(oz, pres)
        self.parts: list[str] = []
        for el in oz.xml(pres).iter():
            if local(el.tag) == "sldId":  # a plain numeric id and the relationship r:id
                rid = next((v for k, v in el.attrib.items() if k.endswith("}id")), "")
                if ids.get(rid) and oz.has(ids[rid]):
                    self.parts.append(ids[rid])

    @property
    def count(self) -> int:
        return len(self.parts)

    def slide(self, number: int) -> Slide:
        part = self.parts[number - 1]
        links = rels(self.oz, part)
        slide = Slide(number)
        lines: list[str] = []
        tree = _child(self.oz.xml(part), "spTree")
        if tree is not None:
            self._shapes(tree, links, slide, lines)
        slide.body = "\n".join(lines).strip()
        notes = next((t for t in links.values() if "notesSlides/" in t), None)
        if notes and self.oz.has(notes):
            slide.notes = self._notes(notes)
        slide.comments = pptx_comments(self.oz, part)
        return slide

    def _shapes(self, tree: Any, links: dict[str, str], slide: Slide, lines: list[str]) -> None:
        for shape in tree:
            kind = local(shape.tag)
            if kind == "grpSp":
                self._shapes(shape, links, slide, lines)
            elif kind == "sp":
                self._text_shape(shape, slide, lines)
            elif kind == "pic":
                info = _child(shape, "cNvPr")
                label = (attr(info, "descr") or attr(info, "name")) if info is not None else ""
                lines.append(f"[image: {' '.join(label.split()) or 'picture'}]")
                blip = _child(shape, "blip")
                target = links.get(attr(blip, "embed")) if blip is not None else None
                if target:
                    slide.images.append(target)
            elif kind == "graphicFrame":
                self._frame(shape, links, lines)

    def _text_shape(self, shape: Any, slide: Slide, lines: list[str]) -> None:
        ph = _child(shape, "ph")
        kind = attr(ph, "type") if ph is not None else None
        body = _child(shape, "txBody")
        if body is None:
            return
        paras = [(p, _pptx_para(p)) for p in body if local(p.tag) == "p"]
        if kind in ("title", "ctrTitle") and not slide.title:
            slide.title = " ".join(t for _, t in paras if t)
            return
        bullets = ph is not None and kind in ("", "body", "obj")
        for p, text in paras:
            if not text:
                continue
            ppr = _child(p, "pPr")
            level = count_attr(attr(ppr, "lvl"), 0, _LEVELS) if ppr is not None else 0
            lines.append(("  " * level + "- " + text) if bullets else text)
        lines.append("")

    def _frame(self, frame: Any, links: dict[str, str], lines: list[str]) -> None:
        table = _child(frame, "tbl")
        if table is not None:
            lines += [grid_table(_pptx_grid(table, self.caps.max_cells), self.caps), ""]
            return
        chart = _child(frame, "chart")
        target = links.get(attr(chart, "id")) if chart is not None else None
        if target and self.oz.has(target):
            lines += [grid_table(drawingml_grid(self.oz.xml(target)), self.caps), ""]

    def _notes(self, part: str) -> str:
        out = []
        for shape in self.oz.xml(part).iter():
            if local(shape.tag) != "sp":
                continue
            ph = _child(shape, "ph")
            if ph is None or attr(ph, "type") != "body":
                continue
            body = _child(shape, "txBody")
            if body is not None:
                out += [t for t in (_pptx_para(p) for p in body if local(p.tag) == "p") if t]
        return "\n".join(out).strip()


def _pptx_grid(table: Any, max_cells: int) -> Grid:
    """A DrawingML table as a Grid: gridSpan/rowSpan on the first cell of a merge, the cells it
    covers (hMerge, vMerge) skipped; the first row is the header when the table says so; no row
    read once the grid holds more than ``max_cells`` cells."""
    grid = Grid()
    props = _child(table, "tblPr")
    grid.header_rows = 1 if props is not None and attr(props, "firstRow") in ("1", "true") else 0
    for tr in (r for r in table if local(r.tag) == "tr"):
        row = []
        for tc in (c for c in tr if local(c.tag) == "tc"):
            if attr(tc, "hMerge") in ("1", "true") or attr(tc, "vMerge") in ("1", "true"):
                continue
            text = " ".join(
                t for t in (_pptx_para(p) for p in tc.iter() if local(p.tag) == "p") if t
            )
            row.append(
                Cell(text, count_attr(attr(tc, "rowSpan")), count_attr(attr(tc, "gridSpan")))
            )
        if grid.add(row, max_cells):
            break
    return grid


def _pptx_para(p: Any) -> str:
    """A DrawingML paragraph's text: runs, fields, and line breaks as spaces."""
    parts = []
    for el in p.iter():
        name = local(el.tag)
        if name == "t" and el.text:
            parts.append(el.text)
        elif name == "br":
            parts.append(" ")
    return "".join(parts).strip()


# -- ODP -----------------------------------------------------------------------------------------
class OdpDeck:
    """An ODP's draw:page elements from content.xml (one parse; ODP keeps every slide in it);
    tables rendered under ``caps`` (the read's)."""

    def __init__(self, oz: OfficeZip, caps: TableCaps | None = None) -> None:
        self.oz, self.caps = oz, caps or TableCaps()
        root = oz.xml("content.xml")
        self.pages = [el for el in root.iter() if local(el.tag) == "page"]
        # footer/header texts a page names (presentation:use-footer-name), and master-page words
        self.decls = {
            (local(el.tag), attr(el, "name")): " ".join("".join(el.itertext()).split())
            for el in root.iter()
            if local(el.tag) in ("footer-decl", "header-decl")
        }
        self.masters = _master_texts(oz, self.caps)
        self.master_first: dict[str, int] = {}  # master page name -> the first slide showing it
        for number, page in enumerate(self.pages, 1):
            self.master_first.setdefault(attr(page, "master-page-name"), number)

    @property
    def count(self) -> int:
        return len(self.pages)

    def slide(self, number: int) -> Slide:
        page = self.pages[number - 1]
        slide = Slide(number)
        lines: list[str] = []
        top = _top_title(page, self.caps)
        for el in page:
            if local(el.tag) == "notes":
                slide.notes = "\n".join(_odf_block(el, 0, self.caps)).strip()
            elif el is top:
                slide.title = " ".join(" ".join(_odf_block(el, 0, self.caps)).split())
            else:
                _odf_shape(el, slide, lines, self.caps, self.oz)
        master = attr(page, "master-page-name")
        if self.master_first.get(master) == number and self.masters.get(master):
            lines.append(f"Master page: {self.masters[master]}")  # once, on its first slide
        for kind, label in (("header-decl", "Header"), ("footer-decl", "Footer")):
            text = self.decls.get((kind, attr(page, f"use-{kind[:-5]}-name")))
            if text:
                lines.append(f"{label}: {text}")
        slide.body = "\n".join(lines).strip()
        return slide


# master-page shapes whose words are placeholder prompts ("Click to edit Master title style") or
# fields (dates, page numbers)
_PLACEHOLDERS = {
    "title", "subtitle", "outline", "notes", "object", "graphic", "chart", "table", "date-time",
    "page-number", "page",
}  # fmt: skip


def _master_texts(oz: OfficeZip, caps: TableCaps) -> dict[str, str]:
    """Words on each master page of styles.xml outside placeholders (a company name, a fixed
    footer): the background every slide of that master shows."""
    if not oz.has("styles.xml"):
        return {}
    out: dict[str, str] = {}
    for master in oz.xml("styles.xml").iter():
        if local(master.tag) != "master-page":
            continue
        words = [
            " ".join(" ".join(_odf_block(shape, 0, caps)).split())
            for shape in master
            if local(shape.tag) not in ("notes", "theme")
            and attr(shape, "class") not in _PLACEHOLDERS
        ]
        text = " / ".join(w for w in words if w)
        if text:
            out[attr(master, "name")] = text
    return out


_TITLE_MOST = 150  # characters: a longer single paragraph is body text, not a title


def _top_title(page: Any, caps: TableCaps) -> Any:
    """On a slide without a title placeholder, the text shape that is its title as a reader
    sees it: one short paragraph in an unclassed shape above every other shape holding text
    (a converter's text box at the top); None when there is no such shape."""
    if any(attr(el, "class") == "title" for el in page):
        return None
    shapes = []
    for el in page:
        if local(el.tag) in ("notes", "g") or attr(el, "class") not in ("", "text"):
            continue
        lines = [line for line in _odf_block(el, 0, caps) if line.strip()]
        if lines:
            top = _length(attr(el, "y"))
            shapes.append((top, top + _length(attr(el, "height")), lines, el))
    if len(shapes) < 2:  # a title stands above the slide's other text
        return None
    shapes.sort(key=lambda s: s[0])
    top, bottom, lines, el = shapes[0]
    if len(lines) != 1 or len(lines[0]) > _TITLE_MOST or lines[0].lstrip().startswith(("-", "|")):
        return None
    return el if all(bottom <= other[0] for other in shapes[1:]) else None


def _length(value: str) -> float:
    """An ODF length (``6.7cm``, ``2in``, ``12pt``) in centimetres (0 when unreadable)."""
    units = {"cm": 1.0, "mm": 0.1, "in": 2.54, "pt": 2.54 / 72, "pc": 2.54 / 6}
    for unit, scale in units.items():
        if value.endswith(unit):
            try:
                return float(value[: -len(unit)]) * scale
            except ValueError:
                return 0.0
    return 0.0


def _odf_shape(el: Any, slide: Slide, lines: list[str], caps: TableCaps, oz: OfficeZip) -> None:
    kind = local(el.tag)
    if kind == "g":
        for sub in el:
            _odf_shape(sub, slide, lines, caps, oz)
        return
    role = attr(el, "class")
    if role == "title" and not slide.title:
        slide.title = " ".join(" ".join(_odf_block(el, 0, caps)).split())
        return
    chart = odf_chart(oz, el, caps)
    if chart is not None:
        lines += [chart, ""]
        return
    image = _child(el, "image")
    if image is not None and _child(el, "table", "text-box") is None:
        alt = _child(el, "title", "desc")
        label = (alt.text if alt is not None else "") or attr(el, "name") or "picture"
        lines.append(f"[image: {' '.join(label.split())}]")
        href = attr(image, "href")
        if href and not href.startswith(("http:", "https:", "/")):
            slide.images.append(posixpath.normpath(href))
        return
    lines += _odf_block(el, 0, caps) + [""]


def _odf_block(el: Any, depth: int, caps: TableCaps) -> list[str]:
    """Lines of ODF block content: paragraphs, headings, nested lists (bullets), tables."""
    out: list[str] = []
    for sub in el:
        kind = local(sub.tag)
        if kind in ("p", "h"):
            text = odf_inline(sub).strip()
            if text:
                out.append(text)
        elif kind == "list":
            for item in sub:
                for i, line in enumerate(_odf_block(item, depth + 1, caps)):
                    out.append(
                        ("  " * depth + "- " + line)
                        if i == 0 and not line.startswith(" ")
                        else line
                    )
        elif kind == "table":
            grid = odf_grid(sub, lambda cell: " ".join(_odf_block(cell, 0, caps)), caps.max_cells)
            out.append(grid_table(grid, caps))
        elif kind not in ("image", "title", "desc"):
            out += _odf_block(sub, depth, caps)
    return out


def odf_chart(oz: OfficeZip, frame: Any, caps: TableCaps) -> str | None:
    """The table of the chart object a ``draw:frame`` embeds (None when it embeds no chart)."""
    obj = next((sub for sub in frame if local(sub.tag) == "object"), None)
    root = odf_object(oz, attr(obj, "href")) if obj is not None else None
    if root is None:
        return None
    grid = odf_chart_grid(
        root,
        lambda table: odf_grid(table, lambda c: " ".join(_odf_block(c, 0, caps)), caps.max_cells),
    )
    return grid_table(grid, caps) if grid is not None else None


_ODF_SPECIAL: dict[str, Callable[[Any], str]] = {
    "s": lambda el: " " * count_attr(attr(el, "c"), 1, 100),
    "tab": lambda el: "\t",
    "line-break": lambda el: " ",
}


def odf_inline(el: Any, depth: int = 0) -> str:
    """A paragraph's text with ODF spacing elements (text:s, text:tab, text:line-break) kept;
    notes, annotations and page-number fields left out; past ``MAX_NESTING`` levels the words
    only, without recursion."""
    if depth >= MAX_NESTING:
        return "".join(el.itertext())
    parts = [el.text or ""]
    for sub in el:
        special = _ODF_SPECIAL.get(local(sub.tag))
        if special is not None:
            parts.append(special(sub))
        elif local(sub.tag) not in ("note", "annotation", "page-number", "page-count"):
            parts.append(odf_inline(sub, depth + 1))
        parts.append(sub.tail or "")
    return "".join(parts)
