"""What every table family provides (Book, Table, Total) and how cells become readable text:
no "nan", integral floats without ".0", dates in ISO 8601, nested values as compact JSON."""

from __future__ import annotations

import json
import math
from collections import deque
from collections.abc import Callable, Generator, Iterator, Sequence
from contextlib import closing
from dataclasses import dataclass, field
from datetime import date, datetime, time, timedelta
from itertools import islice
from typing import Any, cast

from ...request.ranges import column_letter


@dataclass(frozen=True, slots=True)
class Total:
    """A table's data-row count: exact, or how it was estimated (None when unknown)."""

    count: int | None
    exact: bool = True
    how: str = ""

    def label(self) -> str:
        if self.count is None:
            return "unknown"
        return f"{self.count:,}" if self.exact else f"~{self.count:,} ({self.how})"


#: A data row and its 1-based number (the header is not a row).
Numbered = tuple[int, list[Any]]


class Table:
    """One sheet: column names plus a window over 1-based data rows (the header is not a row).

    Families implement ``_iter_from(start, cols)`` (rows from ``start`` on, only ``cols``; None
    for a row that holds no value in them, which a sparse family knows for free: a workbook row
    missing from its XML) and ``_count(exact)``; the base slices windows, keeps the tail, and
    remembers where the end was seen so a total is verified for free when a window reaches it.
    """

    columns: list[str]
    caption: str = ""  # a title row above the header (a sheet's "Stanley Cups" over its columns)
    dtypes: dict[int, str] | None = None  # exact column types when the format stores them
    counted: bool = False  # True when ``_count(exact=True)`` is cheap (stored in the file)

    def __init__(self, columns: list[str]) -> None:
        self.columns = columns
        self._end_seen: int | None = None

    def _iter_from(
        self, start: int, cols: list[int], want: int | None
    ) -> Iterator[list[Any] | None]:
        raise NotImplementedError

    def _count(self, exact: bool) -> Total:
        """The data-row count; ``exact=False`` allows a cheap estimate on huge files."""
        raise NotImplementedError

    def rows(self, start: int, stop: int | None, cols: list[int]) -> Iterator[Numbered]:
        """Data rows ``start``..``stop`` (1-based, inclusive; None = to the end), columns ``cols``,
        with their numbers; a row holding no value there (None from the family) is left out."""
        want = None if stop is None else stop - start + 1
        n = start - 1
        # every _iter_from is a generator: closed when the window ends early
        with closing(
            cast("Generator[list[Any] | None, None, None]", self._iter_from(start, cols, want))
        ) as it:
            for n, row in enumerate(it, start):  # noqa: B007
                if row is not None:
                    yield n, row
                if stop is not None and n >= stop:
                    return
        if n >= start or start == 1:
            self._end_seen = n

    def tail(self, count: int, cols: list[int]) -> list[Numbered]:
        """The rows among the last ``count``: from a stored count, else one streamed pass."""
        if self.counted:
            total = self._count(exact=True).count or 0
            first = max(1, total - count + 1)
            return list(self.rows(first, total, cols)) if total else []
        kept: deque[Numbered] = deque(maxlen=count)
        n = 0
        for n, row in enumerate(self._iter_from(1, cols, None), 1):  # noqa: B007
            if row is not None:
                kept.append((n, row))
        self._end_seen = n
        return [(k, row) for k, row in kept if k > n - count]

    def total(self, *, exact: bool) -> Total:
        if self._end_seen is not None:
            return Total(self._end_seen)
        return self._count(exact)


class Book:
    """The tables of one file; ``sheet_names`` is None for single-table formats (CSV, Parquet)."""

    sheet_names: list[str] | None = None

    def table(self, index: int) -> Table:
        raise NotImplementedError

    def sheet_size(self, index: int) -> tuple[int, int] | None:
        """(rows, columns) of a sheet as the workbook declares them, without reading its cells;
        None when unknown."""
        return None

    def close(self) -> None:
        """Release the file (workbooks keep their zip open while streaming)."""

    def __enter__(self) -> Book:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def unique_names(raw: Sequence[Any]) -> list[str]:
    """Header cells as column names: empty ones get their letter, repeats get '.1', '.2'."""
    out: list[str] = []
    seen: set[str] = set()
    for i, value in enumerate(raw):
        name = " ".join(plain_text(value).split()) or column_letter(i)
        base, k = name, 1
        while name in seen:
            name, k = f"{base}.{k}", k + 1
        seen.add(name)
        out.append(name)
    return out


def plain_text(value: Any) -> str:
    """A cell value as text (markdown_table cuts and escapes it)."""
    if value is None or isinstance(value, str):
        return value or ""
    if isinstance(value, bool):
        return "TRUE" if value else "FALSE"
    if isinstance(value, float):
        if math.isnan(value):
            return ""
        if value.is_integer() and abs(value) < 1e16:
            return str(int(value))
        return f"{value:.15g}"  # what a spreadsheet shows: 0.1 + 0.2 is 0.3
    if isinstance(value, int):
        return str(value)
    if isinstance(value, datetime):
        if type(value).__name__ == "NaTType":
            return ""
        if value.time() == time(0) and value.tzinfo is None:
            return value.date().isoformat()
        return value.isoformat(sep=" ")
    if isinstance(value, date | time):
        return value.isoformat()
    if isinstance(value, timedelta):
        return str(value)
    if isinstance(value, bytes | bytearray):
        return f"<{len(value):,} bytes>"
    if isinstance(value, dict | list | tuple):
        return json.dumps(value, ensure_ascii=False, default=str, separators=(",", ":"))
    if hasattr(value, "item") and type(value).__module__ == "numpy":
        return plain_text(value.item())
    if type(value).__name__ in ("NaTType", "NAType"):
        return ""
    return str(value)


def column_types(table: Table, cols: list[int], rows: list[list[Any]]) -> list[str]:
    """Each column's type: stored (Parquet) or inferred from the values shown."""
    if table.dtypes is not None:
        return [table.dtypes.get(c, "unknown") for c in cols]
    return [_infer([row[j] for row in rows]) for j in range(len(cols))]


def _infer(values: list[Any]) -> str:
    kinds = {_kind(v) for v in values} - {"empty"}
    if not kinds:
        return "empty"
    if kinds == {"int", "float"}:
        return "float"
    return kinds.pop() if len(kinds) == 1 else "mixed"


def _kind(value: Any) -> str:
    if value is None or value == "" or (isinstance(value, float) and math.isnan(value)):
        return "empty"
    if isinstance(value, str):  # a long text is no number: never parsed (a 30 KB cell in
        # every row took int() and float() 0.4 ms a row)
        return "string" if len(value) > _NUMBER_CHARS else _str_kind(value.strip())
    if isinstance(value, bool):
        return "bool"
    if isinstance(value, int):
        return "int"
    if isinstance(value, float):
        return "float"
    if isinstance(value, datetime):
        return "datetime"
    if isinstance(value, date):
        return "date"
    return type(value).__name__


_NUMBER_CHARS = 100  # a cell longer than this is text, whatever it holds


def _str_kind(text: str) -> str:
    """CSV cells are text: say 'int'/'float' when they all parse as numbers."""
    if not text:
        return "empty"
    try:
        int(text)
        return "int"
    except ValueError:
        pass
    try:
        float(text)
        return "float"
    except ValueError:
        return "string"


class RowsTable(Table):
    """A table whose rows are indexable (a loaded JSON array, an XLS or ODS sheet)."""

    counted = True

    def __init__(
        self, columns: list[str], count: int, fetch: Callable[[int], Sequence[Any]]
    ) -> None:
        super().__init__(columns)
        self.count, self.fetch = count, fetch  # fetch(n): data row n (1-based)

    def _iter_from(
        self, start: int, cols: list[int], want: int | None
    ) -> Iterator[list[Any] | None]:
        for n in range(start, self.count + 1):
            row = self.fetch(n)
            yield [row[c] if c < len(row) else None for c in cols]

    def _count(self, exact: bool) -> Total:
        return Total(self.count)


def header_row(rows: Iterator[Sequence[Any]]) -> tuple[int, list[Any]]:
    """(0-based position, cells) of the first row with any non-empty cell; (-1, []) if none."""
    for i, row in enumerate(rows):
        if _filled(row):
            return i, list(row)
    return -1, []


def _filled(row: Sequence[Any]) -> int:
    return sum(1 for v in row if plain_text(v).strip())


@dataclass(slots=True)
class Head:
    """Where a sheet's table starts: its header row (0-based position, cells), the title row
    above it as a caption, and rows read past the header while looking (data to yield first)."""

    at: int = -1
    cells: list[Any] = field(default_factory=list)
    caption: str = ""
    pending: list[Sequence[Any]] = field(default_factory=list)


_TITLE_SCAN = 20  # rows after a one-value first row looked at for the header under a title


def table_head(rows: Iterator[Sequence[Any]]) -> Head:
    """The header of a sheet: its first non-empty row, unless that row holds one value and the
    next non-empty row (within ``_TITLE_SCAN`` rows) holds more: then the one value is the
    table's title (a caption) and the next row is the header (a "Stanley Cups" title merged over
    "Team | Location | Cups")."""
    at, cells = header_row(rows)
    if at < 0 or _filled(cells) != 1:
        return Head(at, cells)
    pending: list[Sequence[Any]] = []
    for row in islice(rows, _TITLE_SCAN):
        pending.append(row)
        if not _filled(row):
            continue
        if _filled(row) < 2:
            break
        title = next(plain_text(v).strip() for v in cells if plain_text(v).strip())
        return Head(at + len(pending), list(row), " ".join(title.split()))
    return Head(at, cells, "", pending)
