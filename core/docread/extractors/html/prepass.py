"""One streaming pass over the page with the standard library's tokenizer, before BeautifulSoup
builds a tree: tables are read by the one HTML table parser (``tables.TableBuilder``) and
rendered by the one table renderer (a placeholder line stands in for each), and elements nested deeper than ``max_depth`` are flattened
to their text; so the tree markdownify converts is small and shallow whatever the page holds."""

from __future__ import annotations

import os
import re
from collections.abc import Callable
from html import escape
from html.parser import HTMLParser

from ..markdown import Grid, TableCaps, grid_table
from .tables import TableBuilder

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
        self._table: TableBuilder | None = None  # the table being read (nested ones in it)
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
        if self._table is None and tag == "table":
            self._table = TableBuilder(self.caps)
        if self._table is not None:
            self._table.start(tag, attrs)
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
        if self._table is not None:
            done = self._table.end(tag)
            if done is not None:
                self._table_done(done)
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
        if self._table is not None:
            self._table.data(data)
        else:
            self.out.append(escape(data, quote=False))

    def close(self) -> None:
        super().close()
        if self._table is not None:  # a table never closed ends with the page
            done = self._table.finish()
            if done is not None:
                self._table_done(done)

    def _table_done(self, grid: Grid) -> None:
        """The outer table read: rendered now, a placeholder paragraph in its place."""
        self._table = None
        table = grid_table(grid, self.caps)
        if table:
            key = f"{self._prefix}{len(self.tables)}"
            self.tables[key] = table
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
