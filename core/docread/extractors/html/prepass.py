"""One streaming pass over the page with the standard library's tokenizer, before BeautifulSoup
builds a tree: tables become markdown row by row through docread's one table renderer (a
placeholder line stands in for each), and elements nested deeper than ``max_depth`` are flattened
to their text; so the tree markdownify converts is small and shallow whatever the page holds."""

from __future__ import annotations

import os
import re
from collections.abc import Callable
from html import escape
from html.parser import HTMLParser

from ..markdown import Cell, Grid, TableCaps, count_attr, grid_table

#: Elements that never hold content (the tokenizer gives no end tag for them).
_VOID = frozenset({
    "area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "param", "source",
    "track", "wbr",
})  # fmt: skip


class Prepass(HTMLParser):
    """``feed(html)`` then ``close()``: ``html`` is the page with tables replaced by placeholder
    paragraphs and deep elements flattened, ``tables`` maps each placeholder to its markdown."""

    def __init__(
        self, max_depth: int, tick: Callable[[], None], caps: TableCaps | None = None
    ) -> None:
        super().__init__(convert_charrefs=True)
        self.max_depth = max_depth
        self.tick = tick
        self.caps = caps or TableCaps()  # how its tables are bounded (the read's)
        self.out: list[str] = []
        self.tables: dict[str, str] = {}
        self.flattened = False
        self._stack: list[str] = []  # open elements outside tables, as the tree builder nests
        self._shallow = 0  # how many of them were emitted (the rest flattened)
        self._prefix = "DOCREADTABLE" + os.urandom(6).hex().upper() + "N"
        self._table_depth = 0  # >0: inside a table being collected (nested ones counted)
        self._rows: list[list[Cell]] = []
        self._heads: list[bool] = []  # per row: every cell a <th> (a header row)
        self._cell: list[str] | None = None
        self._open = Cell("")  # the open cell's spans (its text comes at its end)
        self._seen = 0
        self._placeholder = re.compile(self._prefix + r"\d+")

    @property
    def html(self) -> str:
        return "".join(self.out)

    def restore(self, markdown: str) -> str:
        """``markdown`` with each table's placeholder replaced by the table."""
        if not self.tables:
            return markdown
        return self._placeholder.sub(lambda m: self.tables.get(m.group(0), ""), markdown)

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self._count()
        if self._table_depth:
            self._table_start(tag, attrs)
            return
        if tag == "table":
            self._table_depth, self._rows, self._heads, self._cell = 1, [], [], None
            return
        if tag in _VOID:
            if len(self._stack) < self.max_depth:
                self.out.append(_tag(tag, attrs))
            return
        self._stack.append(tag)
        if len(self._stack) <= self.max_depth:
            self.out.append(_tag(tag, attrs))
            self._shallow = len(self._stack)
        else:
            self.flattened = True

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.handle_starttag(tag, attrs)
        if tag not in _VOID:
            self.handle_endtag(tag)

    def handle_endtag(self, tag: str) -> None:
        self._count()
        if self._table_depth:
            self._table_end(tag)
            return
        if tag not in self._stack:
            return  # a stray end tag: the tree builder ignores it too
        while self._stack:
            name = self._stack.pop()
            if len(self._stack) < self._shallow:
                self.out.append(f"</{name}>")
                self._shallow = len(self._stack)
            if name == tag:
                break

    def handle_data(self, data: str) -> None:
        if self._table_depth:
            if self._cell is not None:
                self._cell.append(data)
        else:
            self.out.append(escape(data, quote=False))

    def close(self) -> None:
        super().close()
        if self._table_depth:  # a table never closed ends with the page
            self._table_done()

    # -- tables: rows of cell texts, rendered when the table ends ---------------------------
    def _table_start(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag == "table":
            self._table_depth += 1  # a table in a cell: its text joins the cell
        elif self._table_depth > 1:
            pass
        elif tag == "tr":
            self._end_cell()
            self._rows.append([])
            self._heads.append(True)
        elif tag in ("td", "th"):
            self._end_cell()
            if not self._rows:
                self._rows.append([])
                self._heads.append(True)
            self._cell = []
            self._heads[-1] = self._heads[-1] and tag == "th"
            found = dict(attrs)
            self._open = Cell(
                "", count_attr(found.get("rowspan")), count_attr(found.get("colspan"))
            )
        elif tag == "br" and self._cell is not None:
            self._cell.append(" ")

    def _table_end(self, tag: str) -> None:
        if tag != "table":
            if tag in ("td", "th", "tr") and self._table_depth == 1:
                self._end_cell()
            return
        self._table_depth -= 1
        if not self._table_depth:
            self._table_done()

    def _end_cell(self) -> None:
        if self._cell is not None:
            self._open.text = " ".join("".join(self._cell).split())
            self._rows[-1].append(self._open)
            self._cell = None

    def _table_done(self) -> None:
        self._end_cell()
        self._table_depth = 0
        kept = [(row, head) for row, head in zip(self._rows, self._heads, strict=True) if row]
        self._rows, self._heads = [], []
        if kept:
            heads = next((n for n, (_, head) in enumerate(kept) if not head), len(kept))
            grid = Grid([row for row, _ in kept], header_rows=heads)
            key = f"{self._prefix}{len(self.tables)}"
            self.tables[key] = grid_table(grid, self.caps)
            self.out.append(f"<p>{key}</p>")

    def _count(self) -> None:
        self._seen += 1
        if self._seen % 4096 == 0:
            self.tick()


def _tag(tag: str, attrs: list[tuple[str, str | None]]) -> str:
    shown = "".join(
        f' {name}="{escape(value)}"' if value is not None else f" {name}" for name, value in attrs
    )
    return f"<{tag}{shown}>"
