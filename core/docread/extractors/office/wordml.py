"""DOCX body to markdown in-process, from word/document.xml (and its styles, numbering, notes
and relationships): headings, paragraphs, lists, tables (spans repeated, by the one table
renderer), footnotes and endnotes, links, images, text boxes and page breaks.

``needs_pandoc`` says when a document holds what pandoc alone renders well (equations, tracked
changes, embedded chunks); those files keep the pandoc path.
"""

from __future__ import annotations

import html
import posixpath
import re
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from ..markdown import MAX_NESTING, Cell, Grid, TableCaps, count_attr, flatten_grid, grid_table
from .charts import drawingml_grid
from .convert.parts import MARK, Block, join_blocks, plain_lines
from .numbering import WordNumbering, word_numbering
from .package import OfficeZip, attr, local

if TYPE_CHECKING:
    from ..base import Context

_DOCUMENT = "word/document.xml"
# what pandoc renders and this reader does not: math, tracked changes, alternate chunks
_PANDOC_ONLY = re.compile(
    rb"<(?:\w+:)?(?:oMath|oMathPara|ins|del|moveFrom|moveTo|altChunk|subDoc)\b"
)
_HEADING_NAME = re.compile(r"^heading\s*([1-9])$", re.I)
_TITLES = {"title": 1, "subtitle": 2}  # Word's title styles: headings as Word shows them
_SKIPPED = {"del", "delText", "moveFrom", "instrText", "commentReference", "Fallback", "rPr", "pPr"}


def needs_pandoc(document_xml: bytes) -> bool:
    """True when the body holds equations, tracked changes or alternate chunks: pandoc's job."""
    return _PANDOC_ONLY.search(document_xml) is not None


_LEVELS = 8  # list levels are 0-8 in Word: a deeper w:ilvl is the deepest (it indents the item)


def _level(value: str) -> int:
    """A list level (``w:ilvl``), clamped to Word's 0-8."""
    return count_attr(value, 0, _LEVELS)


def _first(el: Any, name: str) -> Any:
    for sub in el:
        if local(sub.tag) == name:
            return sub
    return None


@dataclass(slots=True)
class _Style:
    heading: int = 0
    num: tuple[str, int] | None = None  # (numId, ilvl)
    based_on: str = ""


@dataclass(slots=True)
class _Doc:
    """What the walk needs from the package, and what it collects on the way."""

    oz: OfficeZip
    styles: dict[str, _Style]
    numbering: WordNumbering  # list and heading numbers, with their counters
    links: dict[str, tuple[str, bool]]  # r:id -> (target, external)
    notes: dict[str, dict[str, Any]]  # "footnote"/"endnote" -> id -> element
    caps: TableCaps  # the read's table and output budgets
    refs: dict[tuple[str, str], int] = field(default_factory=dict)  # (kind, id) -> its number
    cited: list[tuple[str, str]] = field(default_factory=list)  # (kind, id) by number
    depth: int = 0  # tables open around the cell being read

    def style(self, sid: str) -> _Style:
        """A paragraph style with its heading level and numbering inherited through basedOn."""
        seen: set[str] = set()
        out = _Style()
        while sid and sid not in seen and sid in self.styles:
            seen.add(sid)
            st = self.styles[sid]
            out.heading = out.heading or st.heading
            out.num = out.num or st.num
            sid = st.based_on
        return out


def docx_markdown(oz: OfficeZip, ctx: Context) -> str:
    """word/document.xml as markdown (page breaks as MARK lines, notes at the end); tables under
    the read's caps, and the body's walk stops once its text is past what is left of the read's
    output budget (``Context.text_left``)."""
    doc = _Doc(oz, _styles(oz), word_numbering(oz), _links(oz), _notes(oz), TableCaps.of(ctx))
    body = _first(oz.xml(_DOCUMENT), "body")
    blocks: list[Block] = []
    size = 0
    for el in body if body is not None else []:
        done = len(blocks)
        _blocks([el], doc, blocks)
        size += sum(len(text) for _, text in blocks[done:])
        if size > ctx.text_left():
            blocks.append(("para", ctx.out_of_text()))
            break
    text = join_blocks(blocks)
    notes = []
    done = 0
    while done < len(doc.cited):  # a note may cite notes not cited yet (each is rendered once)
        kind, nid = doc.cited[done]
        done += 1
        note = doc.notes.get(kind, {}).get(nid)
        inner: list[Block] = []
        if note is not None:
            _blocks(note, doc, inner)
        notes.append(f"[^{done}]: " + " ".join(t for _, t in inner if t != MARK))
    return text + ("\n\n" + "\n\n".join(notes) if notes else "")


def part_markdown(oz: OfficeZip, part: str, caps: TableCaps) -> str:
    """A header or footer part as markdown by the body's rules (paragraphs, lists, tables through
    the one renderer); its page breaks dropped."""
    doc = _Doc(oz, _styles(oz), word_numbering(oz), _links(oz, part), {}, caps)
    blocks: list[Block] = []
    _blocks(oz.xml(part), doc, blocks)
    return join_blocks([block for block in blocks if block[0] != "break"])


def _blocks(parent: Any, doc: _Doc, out: list[Block]) -> None:
    for el in parent:
        kind = local(el.tag)
        if kind == "p":
            _paragraph(el, doc, out)
        elif kind == "tbl":
            table = grid_table(_grid(el, doc), doc.caps)
            if table:
                out.append(("table", table))
        elif kind in ("sdt", "sdtContent", "customXml", "smartTag", "txbxContent"):
            _blocks(el, doc, out)


def _paragraph(p: Any, doc: _Doc, out: list[Block]) -> None:
    ppr = _first(p, "pPr")
    style = _Style()
    num: tuple[str, int] | None = None
    if ppr is not None:
        sid = _first(ppr, "pStyle")
        style = doc.style(attr(sid, "val")) if sid is not None else _Style()
        num = style.num
        numpr = _first(ppr, "numPr")
        if numpr is not None:
            nid, lvl = _first(numpr, "numId"), _first(numpr, "ilvl")
            num = (
                attr(nid, "val") if nid is not None else (num[0] if num else ""),
                _level(attr(lvl, "val")) if lvl is not None else (num[1] if num else 0),
            )
        outline = _first(ppr, "outlineLvl")
        level = attr(outline, "val") if outline is not None else ""
        if not style.heading and level.isdigit() and int(level) < 9:
            style.heading = int(level) + 1
        brk = _first(ppr, "pageBreakBefore")
        if brk is not None and attr(brk, "val") not in ("0", "false", "off"):
            out.append(("break", MARK))
    boxes: list[Block] = []
    text = _inline(p, doc, boxes)
    for chunk_no, chunk in enumerate(text.split(MARK)):
        if chunk_no:
            out.append(("break", MARK))
        lines = [" ".join(line.split()) for line in chunk.split("\n")]
        shown = "\n".join(line for line in lines if line)
        if shown:
            out.append(_shape(shown, style.heading, num, doc))
    out += boxes


def _shape(text: str, heading: int, num: tuple[str, int] | None, doc: _Doc) -> Block:
    """A paragraph's block: a heading line (its number as Word shows it: ``## 2.1 Methods``), a
    list item (``   a) text``, ``- text`` for a bullet), or a paragraph (a line that would read
    as markdown structure escaped)."""
    label = None if num is None or num[0] in ("", "0") else doc.numbering.label(*num)
    if heading:
        shown = text.replace("\n", " ")
        return "heading", "#" * min(heading, 6) + " " + (f"{label} {shown}" if label else shown)
    text = plain_lines(text)
    if num is None or num[0] in ("", "0") or label == "":
        return "para", text
    return "item", "   " * num[1] + (label or "-") + " " + text.replace("\n", " ")


def _inline(el: Any, doc: _Doc, boxes: list[Block], depth: int = 0) -> str:
    """The text of runs below ``el``; text boxes go to ``boxes`` as blocks of their own. Past
    ``MAX_NESTING`` levels (a hostile nest of links) the words only, without recursion."""
    if depth >= MAX_NESTING:
        return "".join(t.text or "" for t in el.iter() if local(t.tag) == "t")
    parts: list[str] = []
    for sub in el:
        kind = local(sub.tag)
        if kind == "t":
            parts.append(sub.text or "")
        elif kind in ("tab", "noBreakHyphen"):
            parts.append("\t" if kind == "tab" else "-")
        elif kind in ("br", "cr"):
            parts.append(f"\n{MARK}\n" if attr(sub, "type") == "page" else "\n")
        elif kind in ("footnoteReference", "endnoteReference"):
            key = (kind[:-9], attr(sub, "id"))
            if key not in doc.refs:
                doc.refs[key] = len(doc.cited) + 1
                doc.cited.append(key)
            parts.append(f"[^{doc.refs[key]}]")
        elif kind == "hyperlink":
            words = _inline(sub, doc, boxes, depth + 1)
            target, external = doc.links.get(attr(sub, "id"), ("", False))
            shown = " ".join(words.split())
            parts.append(f"[{shown}]({target})" if external and target and shown else words)
        elif kind in ("drawing", "pict", "object"):
            parts.append(_picture(sub, doc, boxes))
        elif kind == "AlternateContent":
            choice = _first(sub, "Choice")
            parts.append(_inline(choice if choice is not None else sub, doc, boxes, depth + 1))
        elif kind in ("oMath", "oMathPara"):  # in a note (the body's go to pandoc): its text
            parts.append(" ".join(t.text or "" for t in sub.iter() if local(t.tag) == "t"))
        elif kind not in _SKIPPED and len(sub):
            parts.append(_inline(sub, doc, boxes, depth + 1))
    return "".join(parts)


def _picture(el: Any, doc: _Doc, boxes: list[Block]) -> str:
    """An image as ``![alt](media/name)``; a text box's paragraphs and a chart's table as
    blocks after the paragraph that anchors it."""
    image = ""
    for sub in el.iter():
        kind = local(sub.tag)
        if kind == "txbxContent":
            _blocks(sub, doc, boxes)
            return ""
        if kind == "chart":  # the values its series cache, as a table after the paragraph
            part, external = doc.links.get(attr(sub, "id"), ("", True))
            if part and not external and doc.oz.has(part):
                boxes.append(("table", grid_table(drawingml_grid(doc.oz.xml(part)), doc.caps)))
            return ""
        if kind in ("blip", "imagedata") and not image:
            target = doc.links.get(attr(sub, "embed") or attr(sub, "id"), ("", True))
            if target[0] and not target[1]:
                image = target[0]
    if not image:
        return ""
    alt = next((attr(s, "descr") for s in el.iter() if local(s.tag) == "docPr"), "")
    return f" ![{' '.join(alt.split())}]({image}) "


def _grid(tbl: Any, doc: _Doc) -> Grid:
    """A w:tbl as a Grid: gridSpan as column spans; a vertically merged cell's text repeated
    down the cells it covers; leading rows marked as repeating headers are the header."""
    grid = Grid()
    above: dict[int, str] = {}  # grid column -> the text of the merge it starts
    heading = True
    for tr in _children(tbl, "tr"):
        row: list[Cell] = []
        col = 0
        trpr = _first(tr, "trPr")
        if trpr is not None:
            before = _first(trpr, "gridBefore")
            if before is not None:
                skip = count_attr(attr(before, "val"), 0)
                row += [Cell("")] * skip
                col += skip
        heading = heading and trpr is not None and _first(trpr, "tblHeader") is not None
        grid.header_rows += heading
        for tc in _children(tr, "tc"):
            tcpr = _first(tc, "tcPr")
            span, merge = 1, None
            if tcpr is not None:
                gs = _first(tcpr, "gridSpan")
                span = count_attr(attr(gs, "val")) if gs is not None else 1
                vm = _first(tcpr, "vMerge")
                merge = None if vm is None else (attr(vm, "val") or "continue")
            if merge == "continue":
                text = above.get(col, "")
            else:
                text = _cell_text(tc, doc)
                above[col] = text
            row.append(Cell(text, colspan=max(span, 1)))
            col += max(span, 1)
        if grid.add(row, doc.caps.max_cells):
            break  # the rows past the table's cells are not read
    return grid


def _children(el: Any, kind: str) -> list[Any]:
    """``el``'s children of ``kind`` (``tr`` of a table, ``tc`` of a row), also those wrapped in
    content controls or custom XML."""
    out = []
    for child in el:
        name = local(child.tag)
        if name == kind:
            out.append(child)
        elif name in ("sdt", "sdtContent", "customXml"):
            out += _children(child, kind)
    return out


def _cell_text(tc: Any, doc: _Doc) -> str:
    """A cell's paragraphs on one line; a table inside it flattened with a note."""
    parts: list[str] = []
    for el in tc:
        kind = local(el.tag)
        if kind == "tbl" and doc.depth >= MAX_NESTING:  # deeper tables: their words only
            parts.append(" ".join(el.itertext()))
        elif kind == "tbl":
            doc.depth += 1
            parts.append(flatten_grid(_grid(el, doc), doc.caps))
            doc.depth -= 1
        elif kind in ("p", "sdt", "customXml"):
            inner: list[Block] = []
            _blocks([el], doc, inner)
            parts += [t for k, t in inner if k != "break"]
    return " ".join(" ".join(p.split()) for p in parts if p)


# -- the package parts the body refers to ----------------------------------------------------------
def _styles(oz: OfficeZip) -> dict[str, _Style]:
    """Paragraph styles: heading level (by name "heading N" or outline level), numbering.

    Word's styles part is large (python-docx's: 350 KB, 11,000 elements) and only a few values
    of it matter, so a part written with the usual ``w:`` prefix is scanned as bytes for them
    (~1 ms); any other is read by one expat pass over its start tags."""
    if not oz.has("word/styles.xml"):
        return {}
    data = oz.read("word/styles.xml")
    first = data.find(b"<w:style ")
    if first >= 0:  # from the first style on: the latent styles before it are most of the part
        events = [_style_event(m) for m in _STYLE_SCAN.finditer(data, first)]
    else:
        events = oz.start_tags("word/styles.xml", _STYLE_TAGS)
    out: dict[str, _Style] = {}
    style: _Style | None = None
    for tag, attrs in events:
        value = attrs.get("val", "")
        if tag == "style":
            style = _Style() if attrs.get("type", "paragraph") == "paragraph" else None
            if style is not None:
                out[attrs.get("styleId", "")] = style
        elif style is None:
            continue
        elif tag == "name" and (found := _HEADING_NAME.match(value.strip())):
            style.heading = int(found.group(1))
        elif tag == "name" and value.strip().lower() in _TITLES:
            style.heading = _TITLES[value.strip().lower()]
        elif tag == "basedOn":
            style.based_on = value
        elif tag == "outlineLvl" and not style.heading and value.isdigit() and int(value) < 9:
            style.heading = int(value) + 1
        elif tag == "numId":
            style.num = (value, style.num[1] if style.num else 0)
        elif tag == "ilvl" and value.isdigit():
            style.num = (style.num[0] if style.num else "", _level(value))
    return out


# a style's start tag, or one of the value elements _styles reads, in a ``w:``-prefixed part
_STYLE_SCAN = re.compile(
    rb'<w:style\b([^>]*)>|<w:(name|basedOn|outlineLvl|numId|ilvl)\b[^>]*?\bw:val="([^"]*)"'
)
_STYLE_ATTR = re.compile(rb'\bw:(type|styleId)="([^"]*)"')


def _style_event(m: re.Match[bytes]) -> tuple[str, dict[str, str]]:
    start, tag, value = m.groups()
    if start is not None:
        return "style", {k.decode(): _unescaped(v) for k, v in _STYLE_ATTR.findall(start)}
    return tag.decode(), {"val": _unescaped(value)}


def _unescaped(value: bytes) -> str:
    """An attribute's text (entities resolved only where there is one: most values have none)."""
    text = value.decode("utf-8", "replace")
    return html.unescape(text) if "&" in text else text


_STYLE_TAGS = frozenset({"style", "name", "basedOn", "outlineLvl", "numId", "ilvl"})


def _links(oz: OfficeZip, part: str = _DOCUMENT) -> dict[str, tuple[str, bool]]:
    """A part's relationships: id -> (target, external); internal targets as member names."""
    folder, base = posixpath.split(part)
    name = f"{folder}/_rels/{base}.rels"
    if not oz.has(name):
        return {}
    out: dict[str, tuple[str, bool]] = {}
    for rel in oz.xml(name):
        target = rel.get("Target", "")
        if rel.get("TargetMode") == "External":
            out[rel.get("Id", "")] = (target, True)
        else:
            full = (
                target.lstrip("/")
                if target.startswith("/")
                else posixpath.normpath(posixpath.join(folder, target))
            )
            out[rel.get("Id", "")] = (full, False)
    return out


def _notes(oz: OfficeZip) -> dict[str, dict[str, Any]]:
    """Footnote and endnote elements by id (Word's separator notes are never referenced)."""
    out: dict[str, dict[str, Any]] = {}
    for kind in ("footnote", "endnote"):
        part = f"word/{kind}s.xml"
        if oz.has(part):
            out[kind] = {attr(n, "id"): n for n in oz.xml(part) if local(n.tag) == kind}
    return out
