"""OpenDocument spreadsheets streamed from content.xml (defusedxml's iterparse, each row let go
once read): cells typed as pandas' odf engine types them, a repeated row or cell read once and
handed out as often as it repeats, lazily, so a window reads only its rows and a repeat of 10**9
costs nothing until read (pandas expanded every repeat: a 900-byte sheet of 100M cells filled a
worker's memory). The package passes the zip checks of every zip-based format first."""

from __future__ import annotations

import re
import zipfile
from collections.abc import Generator, Iterator
from datetime import datetime, time
from itertools import chain
from typing import IO, TYPE_CHECKING, Any

from ...source import Source
from ..base import Context
from ..markdown import count_attr
from .model import Book, Table, Total, table_head, unique_names
from .workbook import check_package

if TYPE_CHECKING:
    from ..deadline import Deadline

_TABLE_NS = "urn:oasis:names:tc:opendocument:xmlns:table:1.0"
_OFFICE_NS = "urn:oasis:names:tc:opendocument:xmlns:office:1.0"
_TEXT_NS = "urn:oasis:names:tc:opendocument:xmlns:text:1.0"
_TABLE, _ROW = f"{{{_TABLE_NS}}}table", f"{{{_TABLE_NS}}}table-row"
_CELLS = (f"{{{_TABLE_NS}}}table-cell", f"{{{_TABLE_NS}}}covered-table-cell")
_ROWS_REPEATED = f"{{{_TABLE_NS}}}number-rows-repeated"
_COLUMNS_REPEATED = f"{{{_TABLE_NS}}}number-columns-repeated"
_VALUE_TYPE = f"{{{_OFFICE_NS}}}value-type"
MAX_COLUMNS = 16384  # a sheet's width in LibreOffice and Excel (XFD): cells past it are not read
MAX_ROWS = 1 << 24  # a sheet's height in LibreOffice (16M rows): a longer repeat is cut there
_SPACES_CAP = 100  # text:s c="N" in a cell's text
_TEXT_DEPTH = 50  # spans nested deeper in a cell give their text without its spacing elements
_DURATION = re.compile(r"PT(\d+)H(\d+)M(\d+(?:\.\d+)?)S")


class OdsBook(Book):
    """An ODS package: sheet names and sizes from one streamed pass, each sheet's rows streamed
    again when a window asks for them."""

    def __init__(self, source: Source, ctx: Context, deadline: Deadline) -> None:
        self.deadline = deadline
        self.handle = source.open()
        try:
            check_package(self.handle, ctx, required="content.xml")
            self.zf = zipfile.ZipFile(self.handle)
            with self.zf.open("content.xml") as content:
                self.sizes = ods_sizes(content, deadline)
        except BaseException:
            self.handle.close()
            raise
        self.sheet_names: list[str] = [name for name, _ in self.sizes]
        self.tables: list[OdsTable] = []

    def sheet_size(self, index: int) -> tuple[int, int] | None:
        """(rows, columns) up to the last cell holding a value, as for an inflated XLSX."""
        return self.sizes[index][1]

    def table(self, index: int) -> Table:
        table = OdsTable(self, index)
        self.tables.append(table)
        return table

    def sheet_rows(self, index: int, skip: int = 0) -> Generator[list[Any], None, None]:
        """The rows of sheet ``index`` as values (each as wide as its last value, at most
        ``MAX_COLUMNS``), a repeated row handed out as often as it repeats (the same list), the
        first ``skip`` rows passed over unread."""
        from defusedxml.ElementTree import iterparse

        with self.zf.open("content.xml") as content:
            open_elements: list[Any] = []
            sheet, nested, seen = -1, 0, 0  # the sheet being read, tables open, rows passed
            for event, el in iterparse(content, events=("start", "end")):
                if event == "start":
                    open_elements.append(el)
                    if el.tag == _TABLE:
                        nested += 1
                        sheet += nested == 1
                    continue
                open_elements.pop()
                if el.tag == _TABLE:
                    nested -= 1
                    if nested == 0 and sheet == index:
                        return
                if el.tag != _ROW:
                    continue
                seen += 1
                if seen & 0xFFF == 0:
                    self.deadline.check(f"sheet row {seen:,}")
                if sheet == index and nested == 1:
                    repeat = count_attr(el.get(_ROWS_REPEATED), 1, MAX_ROWS)
                    if skip >= repeat:
                        skip -= repeat
                    else:
                        values = _row_values(el)
                        for _ in range(repeat - skip):
                            yield values
                        skip = 0
                if open_elements:
                    open_elements[-1].remove(el)  # a read row is let go: memory stays flat

    def close(self) -> None:
        for table in self.tables:
            table.close()
        self.zf.close()
        self.handle.close()


class OdsTable(Table):
    """One sheet: the header found on the first parse, which also serves the first window; a
    row holding no value is not shown (its number is skipped), rows past the last value are not
    read."""

    counted = True  # the sizes pass counted the rows

    def __init__(self, book: OdsBook, index: int) -> None:
        self.book, self.index = book, index
        self.last, width = book.sizes[index][1]
        self._parse: Generator[list[Any], None, None] | None = book.sheet_rows(index)
        head = table_head(self._parse)
        header = head.cells
        self._ahead: list[Any] = list(head.pending)
        self.header_at = head.at + 1  # 1-based sheet row of the header
        names = unique_names(header + [None] * (width - len(header))) if header else []
        super().__init__(names)
        self.caption = head.caption

    def _iter_from(
        self, start: int, cols: list[int], want: int | None
    ) -> Iterator[list[Any] | None]:
        first = self.header_at + start  # its sheet row
        ahead, parse = self._ahead, self._parse
        self._parse, self._ahead = None, []
        if parse is None or start != 1:  # else continue the first parse, past the header
            if parse is not None:
                parse.close()
            ahead, parse = [], self.book.sheet_rows(self.index, skip=first - 1)
        seen: Any = None
        shown: list[Any] | None = None
        try:
            for n, row in enumerate(chain(ahead, parse), first):
                if n > self.last:
                    return
                if row is not seen:  # a repeated row is projected once
                    seen = row
                    values = [row[c] if c < len(row) else None for c in cols] if row else []
                    shown = values if any(v is not None for v in values) else None
                yield shown
        finally:
            parse.close()

    def close(self) -> None:
        if self._parse is not None:
            self._parse.close()
            self._parse, self._ahead = None, []

    def _count(self, exact: bool) -> Total:
        return Total(max(0, self.last - self.header_at))


def _row_values(row: Any) -> list[Any]:
    """A row's values, as pandas' odf engine reads them: empty cells before a value are None,
    trailing ones dropped; a repeated cell repeated up to ``MAX_COLUMNS``."""
    values: list[Any] = []
    empty = 0
    for cell in row:
        if cell.tag not in _CELLS:
            continue
        value = _value(cell)
        repeat = count_attr(cell.get(_COLUMNS_REPEATED), 1, MAX_COLUMNS)
        if value is None:
            empty += repeat
            continue
        values += [None] * min(empty, MAX_COLUMNS - len(values))
        values += [value] * min(repeat, MAX_COLUMNS - len(values))
        empty = 0
        if len(values) >= MAX_COLUMNS:
            break
    return values


def _value(cell: Any) -> Any:
    """A cell's value by its office:value-type (None when it has none, or no text); a value the
    type cannot parse is its text."""
    kind = cell.get(_VALUE_TYPE)
    if kind is None:
        return None
    text = _cell_text(cell)
    if text == "#N/A":
        return None
    office = f"{{{_OFFICE_NS}}}"
    try:
        if kind == "float":
            number = float(cell.get(office + "value", text))
            return int(number) if number.is_integer() else number
        if kind in ("percentage", "currency"):
            return float(cell.get(office + "value", text))
        if kind == "boolean":
            return cell.get(office + "boolean-value", text).strip().lower() in ("true", "1")
        if kind == "date":
            return datetime.fromisoformat(cell.get(office + "date-value", ""))
        if kind == "time":
            found = _DURATION.fullmatch(cell.get(office + "time-value", ""))
            if found:
                hours, minutes, seconds = found.groups()
                whole = float(seconds)
                micro = round((whole - int(whole)) * 1_000_000)
                return time(int(hours) % 24, int(minutes) % 60, int(whole) % 60, micro % 1_000_000)
    except (ValueError, OverflowError):
        pass
    return text or None


def _cell_text(cell: Any) -> str:
    """A cell's paragraphs, one a line, with ODF spacing (text:s, text:tab, text:line-break)
    kept and annotations left out."""
    return "\n".join(_text(p, 0) for p in cell if p.tag == f"{{{_TEXT_NS}}}p")


def _text(el: Any, depth: int) -> str:
    if depth > _TEXT_DEPTH:
        return "".join(el.itertext())
    parts = [el.text or ""]
    for sub in el:
        tag = sub.tag.rsplit("}", 1)[-1]
        if tag == "s":
            parts.append(" " * count_attr(sub.get(f"{{{_TEXT_NS}}}c"), 1, _SPACES_CAP))
        elif tag == "tab":
            parts.append("\t")
        elif tag == "line-break":
            parts.append("\n")
        elif tag != "annotation":
            parts.append(_text(sub, depth + 1))
        parts.append(sub.tail or "")
    return "".join(parts)


def ods_sizes(content: IO[bytes], deadline: Deadline) -> list[tuple[str, tuple[int, int]]]:
    """Each sheet's name and (rows, columns) up to its last cell with a value, in order, from
    one streamed pass over content.xml (repeated rows and cells counted, not expanded; the
    package was checked)."""
    from defusedxml.ElementTree import iterparse

    sizes: list[tuple[str, tuple[int, int]]] = []
    name, rows, cols, at_row, at_col, valued, nested = "", 0, 0, 0, 0, False, 0
    seen = 0
    for event, el in iterparse(content, events=("start", "end")):
        tag = el.tag
        if event == "start":
            if tag == _TABLE:
                nested += 1
                if nested == 1:
                    name, rows, cols, at_row = el.get(f"{{{_TABLE_NS}}}name", ""), 0, 0, 0
            elif tag == _ROW and nested == 1:
                at_col, valued = 0, False
            continue
        if nested != 1 and tag != _TABLE:
            continue
        if tag in _CELLS:
            repeat = count_attr(el.get(_COLUMNS_REPEATED), 1, MAX_COLUMNS)
            if el.get(_VALUE_TYPE) or "".join(el.itertext()).strip():
                cols, valued = max(cols, min(at_col + repeat, MAX_COLUMNS)), True
            at_col += repeat
            el.clear()
        elif tag == _ROW:
            seen += 1
            if seen & 0xFFF == 0:
                deadline.check(f"sizing sheet {name!r}")
            repeat = count_attr(el.get(_ROWS_REPEATED), 1, MAX_ROWS)
            rows = at_row + repeat if valued else rows
            at_row += repeat
            el.clear()
        elif tag == _TABLE:
            nested -= 1
            if nested == 0:
                sizes.append((name, (rows, cols)))
            el.clear()
    return sizes


def open_ods(source: Source, ctx: Context, deadline: Deadline) -> Book:
    return OdsBook(source, ctx, deadline)
