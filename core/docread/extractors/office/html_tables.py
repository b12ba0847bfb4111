"""HTML tables in converted markdown (pandoc writes a table with merged cells or several
paragraphs in a cell as raw ``<table>`` HTML; EPUB chapters hold them as written) turned into
pipe tables by the one table renderer (``markdown.grid_table``); a table inside a cell is
flattened into it with a note."""

from __future__ import annotations

import re
from collections.abc import Callable
from html.parser import HTMLParser

from ..markdown import Cell, Grid, TableCaps, count_attr, flatten_grid, grid_table

_TABLE_START = re.compile(r"<table\b", re.I)
_TABLE_TAG = re.compile(r"<(/?)table\b[^>]*>", re.I)
_BREAKS = {"p", "br", "div", "li", "tr", "h1", "h2", "h3", "h4", "h5", "h6"}


class _Grids(HTMLParser):
    """One outer ``<table>``: a stack of grids under construction (nested tables flatten)."""

    def __init__(self, caps: TableCaps) -> None:
        super().__init__(convert_charrefs=True)
        self.caps = caps
        self.stack: list[Grid] = []
        self.cell: list[list[str]] = []  # text parts of the open cell, per table level
        self.spans: list[tuple[int, int]] = []
        self.head: list[bool] = []  # inside <thead>, per table level
        self.link: list[str] = []
        self.caption: list[str] | None = None
        self.done: Grid | None = None

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = {k: v or "" for k, v in attrs}
        if tag == "table":
            self.stack.append(Grid())
            self.cell.append([])
            self.spans.append((1, 1))
            self.head.append(False)
        elif not self.stack:
            return
        elif tag == "thead":
            self.head[-1] = True
        elif tag == "tr":
            grid = self.stack[-1]
            grid.rows.append([])
            if self.head[-1] and grid.header_rows == len(grid.rows) - 1:
                grid.header_rows += 1
        elif tag in ("td", "th"):
            self.cell[-1] = []
            self.spans[-1] = (count_attr(a.get("rowspan")), count_attr(a.get("colspan")))
        elif tag == "caption":
            self.caption = []
        elif tag == "img":
            self._text(f" ![{a.get('alt', '')}]({a.get('src', '')}) ")
        elif tag == "a":
            self.link.append(a.get("href", ""))  # "" for an anchor: closed without a link
            if self.link[-1]:
                self._text("[")
        elif tag in _BREAKS:
            self._text(" ")

    def handle_endtag(self, tag: str) -> None:
        if not self.stack:
            return
        if tag in ("td", "th"):
            grid = self.stack[-1]
            if not grid.rows:
                grid.rows.append([])
            rows, cols = self.spans[-1]
            text = " ".join("".join(self.cell[-1]).split())
            grid.rows[-1].append(Cell(text, rows, cols))
            self.cell[-1] = []
        elif tag == "thead":
            self.head[-1] = False
        elif tag == "caption" and self.caption is not None:
            self.stack[-1].caption = " ".join("".join(self.caption).split())
            self.caption = None
        elif tag == "a" and self.link:
            href = self.link.pop()
            if href:
                self._text(f"]({href})")
        elif tag == "table":
            grid = self.stack.pop()
            self.cell.pop(), self.spans.pop(), self.head.pop()
            if self.stack:
                self._text(" " + flatten_grid(grid, self.caps) + " ")
            else:
                self.done = grid

    def handle_data(self, data: str) -> None:
        if self.stack:
            self._text(data)

    def _text(self, text: str) -> None:
        if self.caption is not None:
            self.caption.append(text)
        elif self.cell:
            self.cell[-1].append(text)


def html_tables(markdown: str, caps: TableCaps | None = None) -> str:
    """Every outermost ``<table>...</table>`` in ``markdown`` replaced by its pipe table."""
    return replace_tables(markdown, lambda html: table_markdown(html, caps))


def table_markdown(html: str, caps: TableCaps | None = None) -> str:
    """One HTML ``<table>...</table>`` as a pipe table ("" when it holds no cell), rendered
    under ``caps`` (the read's)."""
    parser = _Grids(caps or TableCaps())
    parser.feed(html)
    parser.close()
    return grid_table(parser.done, parser.caps) if parser.done is not None else ""


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
