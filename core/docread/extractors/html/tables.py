"""THE HTML table parser, one set of rules for HTML pages (the pre-pass feeds it its table tags)
and for the HTML tables in converted markdown (pandoc writes a table with merged cells or several
paragraphs in a cell as raw ``<table>``; EPUB chapters hold them as written): a ``Grid`` for the
one table renderer (``markdown.grid_table``).

The rules: ``<thead>`` rows, else the leading rows of ``<th>`` cells only, are the header;
``<caption>`` is the caption; a cell keeps its links (``[text](href)``, as paragraphs do) and
images (``![alt](src)``; a ``data:`` picture as its alt text), its block children (paragraphs,
list items, line breaks) apart by a space; a table in a cell is flattened into it
(``[nested table: ...]``), and past ``MAX_NESTING`` tables deep gives its words only."""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field
from html.parser import HTMLParser

from ..markdown import (
    MAX_NESTING,
    Cell,
    Grid,
    TableCaps,
    count_attr,
    flatten_grid,
    grid_table,
)

#: Elements whose content stands apart from what is around it (a space at each end).
_BLOCKS = frozenset({
    "p", "br", "div", "li", "ul", "ol", "dl", "dt", "dd", "tr", "h1", "h2", "h3", "h4", "h5",
    "h6", "blockquote", "pre", "section", "article", "header", "footer", "hr", "figure",
    "figcaption", "address",
})  # fmt: skip
_NO_LINK = ("javascript:", "data:", "vbscript:")
_TABLE_START = re.compile(r"<table\b", re.I)
_TABLE_TAG = re.compile(r"<(/?)table\b[^>]*>", re.I)


@dataclass(slots=True)
class _Level:
    """One open table: its grid, the open cell's text and spans, whether rows are in
    ``<thead>``, and whether every row so far was all ``<th>``."""

    grid: Grid = field(default_factory=Grid)
    cell: list[str] | None = None
    spans: tuple[int, int] = (1, 1)
    head: bool = False
    heads: list[bool] = field(default_factory=list)  # per row: a header row


class TableBuilder:
    """The tag events of one outer ``<table>`` (from its start tag on), as a Grid: ``start``,
    ``end`` and ``data`` per event; ``end`` returns the Grid when the outer table closes;
    ``finish`` closes what is still open (a table that runs to the end of the page)."""

    def __init__(self, caps: TableCaps | None = None) -> None:
        self.caps = caps or TableCaps()
        self.levels: list[_Level] = []
        self.deeper = 0  # tables open past MAX_NESTING: their tags are words' spaces
        self.links: list[str] = []  # open links' targets ("" for an anchor without one)
        self.caption: list[str] | None = None

    def start(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = {k: v or "" for k, v in attrs}
        if tag == "table":
            if len(self.levels) >= MAX_NESTING or self.deeper:
                self.deeper += 1
                self._text(" ")
            else:
                self.levels.append(_Level())
            return
        if not self.levels:
            return
        level = self.levels[-1]
        if self.deeper and tag in ("tr", "td", "th", "thead", "tbody", "caption"):
            self._text(" ")
        elif tag == "thead":
            level.head = True
        elif tag == "tr":
            self._end_cell()
            level.grid.rows.append([])
            level.heads.append(True)
        elif tag in ("td", "th"):
            self._end_cell()
            if not level.grid.rows:
                level.grid.rows.append([])
                level.heads.append(True)
            level.heads[-1] = level.heads[-1] and (tag == "th" or level.head)
            level.cell = []
            level.spans = (count_attr(a.get("rowspan")), count_attr(a.get("colspan")))
        elif tag == "caption" and len(self.levels) == 1:
            self.caption = []
        elif tag == "img":
            self._image(a.get("alt", ""), a.get("src", ""))
        elif tag == "a":
            href = a.get("href", "").strip()
            self.links.append("" if href.lower().startswith(_NO_LINK) else href)
            if self.links[-1]:
                self._text("[")
        elif tag in _BLOCKS:
            self._text(" ")

    def end(self, tag: str) -> Grid | None:
        if not self.levels:
            return None
        level = self.levels[-1]
        if tag == "table" and self.deeper:
            self.deeper -= 1
            self._text(" ")
        elif tag == "table":
            return self._close()
        elif self.deeper:
            if tag in ("tr", "td", "th"):
                self._text(" ")
        elif tag in ("td", "th"):
            self._end_cell()
        elif tag == "thead":
            level.head = False
        elif tag == "caption" and self.caption is not None:
            level.grid.caption = " ".join("".join(self.caption).split())
            self.caption = None
        elif tag == "a" and self.links:
            href = self.links.pop()
            if href:
                self._text(f"]({href})")
        elif tag in _BLOCKS:
            self._text(" ")
        return None

    def data(self, text: str) -> None:
        self._text(text)

    def finish(self) -> Grid | None:
        """The outer table, every table still open closed (the page ended inside it)."""
        self.deeper = 0
        done = None
        while self.levels:
            done = self._close()
        return done

    def _close(self) -> Grid | None:
        self._end_cell()
        level = self.levels.pop()
        grid = level.grid
        kept = [(row, head) for row, head in zip(grid.rows, level.heads, strict=False) if row]
        grid.rows = [row for row, _ in kept]
        grid.header_rows = next((n for n, (_, head) in enumerate(kept) if not head), len(kept))
        if self.levels:  # a table in a cell: flattened into it
            self._text(" " + flatten_grid(grid, self.caps) + " ")
            return None
        return grid

    def _end_cell(self) -> None:
        level = self.levels[-1]
        if level.cell is not None:
            while self.links:  # a link the cell ended inside ends with it
                href = self.links.pop()
                if href:
                    level.cell.append(f"]({href})")
            text = " ".join("".join(level.cell).split())
            rows, cols = level.spans
            level.grid.rows[-1].append(Cell(text, rows, cols))
            level.cell = None

    def _image(self, alt: str, src: str) -> None:
        alt = " ".join(alt.split())
        if src.strip().lower().startswith("data:"):
            self._text(f" {alt} ")
        elif src.strip():
            self._text(f" ![{alt}]({src.strip()}) ")

    def _text(self, text: str) -> None:
        if self.caption is not None:
            self.caption.append(text)
        elif self.levels and self.levels[-1].cell is not None:
            self.levels[-1].cell.append(text)


class _Parser(HTMLParser):
    """An HTML fragment's outer table through a TableBuilder."""

    def __init__(self, caps: TableCaps | None) -> None:
        super().__init__(convert_charrefs=True)
        self.builder = TableBuilder(caps)
        self.done: Grid | None = None

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if self.done is None:
            self.builder.start(tag, attrs)

    def handle_endtag(self, tag: str) -> None:
        if self.done is None:
            self.done = self.builder.end(tag)

    def handle_data(self, data: str) -> None:
        if self.done is None:
            self.builder.data(data)


def table_markdown(html: str, caps: TableCaps | None = None) -> str:
    """One HTML ``<table>...</table>`` as a pipe table ("" when it holds no cell), rendered
    under ``caps`` (the read's)."""
    parser = _Parser(caps)
    parser.feed(html)
    parser.close()
    grid = parser.done or parser.builder.finish()
    return grid_table(grid, parser.builder.caps) if grid is not None else ""


def html_tables(markdown: str, caps: TableCaps | None = None) -> str:
    """Every outermost ``<table>...</table>`` in ``markdown`` replaced by its pipe table."""
    return replace_tables(markdown, lambda html: table_markdown(html, caps))


def replace_tables(text: str, replace: Callable[[str], str]) -> str:
    """``text`` with every outermost ``<table>...</table>`` (nested ones inside it) replaced by
    ``replace(that table's HTML)``; an unclosed table runs to the end."""
    if not _TABLE_START.search(text):
        return text
    out: list[str] = []
    pos = 0
    while (start := _TABLE_START.search(text, pos)) is not None:
        depth, end = 0, len(text)
        for tag in _TABLE_TAG.finditer(text, start.start()):
            depth += -1 if tag.group(1) else 1
            if depth == 0:
                end = tag.end()
                break
        out += [text[pos : start.start()], replace(text[start.start() : end])]
        pos = end
    out.append(text[pos:])
    return "".join(out)
