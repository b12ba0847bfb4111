"""CSV, TSV and JSON Lines, streamed: the encoding and delimiter are sniffed from the head, a
window stops reading once it is full, a tail reads backwards from the end, and totals come from
a fast newline scan (or, on huge files, an estimate from the file size that says so)."""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Callable, Iterable, Iterator
from contextlib import closing
from itertools import chain
from typing import TYPE_CHECKING, Any

from ..errors import ExtractionError
from ..source import Source
from .base import Context
from .tabular_base import Book, Table, Total, unique_names
from .text import detect_encoding

if TYPE_CHECKING:
    from .tabular import Deadline

LINE_CAP = 8 << 20  # characters: a longer physical line is cut, so memory stays bounded
_SCAN_CHUNK = 8 << 20
_READ_CHUNK = 64 << 10  # characters decoded per block
_TAIL_BLOCK = 64 << 10
_TAIL_MAX = 256 << 20
_KEY_SCAN = 1000  # JSON Lines: columns are the keys of the first records
_DELIMITERS = (",", "\t", ";", "|")
_RAW = "\0raw"  # JSON Lines: the key holding a line that is not valid JSON (no real key has a NUL)


class LineFile:
    """Capped physical lines of a text file, forwards from the start or backwards from the end."""

    def __init__(self, source: Source, ctx: Context, deadline: Deadline) -> None:
        self.source, self.ctx, self.deadline = source, ctx, deadline
        self.encoding = detect_encoding(source.head())
        self.width = (
            4
            if self.encoding.startswith("utf-32")
            else 2
            if self.encoding.startswith("utf-16")
            else 1
        )
        self.chars_read = self.lines_read = 0
        self.known_lines: int | None = None  # set by count_lines

    def lines(self) -> Iterator[str]:
        """Every line from the start, ending in newline; over-long lines cut (and said).

        Lines come from blocks, so a consumer (csv) iterates them at C speed."""
        return chain.from_iterable(self._blocks())

    def _blocks(self) -> Iterator[Iterable[str]]:
        with io.TextIOWrapper(
            self.source.open(), encoding=self.encoding, errors="replace", newline=None
        ) as stream:
            rest, skipping, n, chars = "", False, 0, 0  # lines and characters in this pass
            while chunk := stream.read(_READ_CHUNK):
                self.deadline.check(f"line {n:,}")
                chars += len(chunk)
                if skipping:  # the tail of an over-long line
                    at = chunk.find("\n")
                    if at < 0:
                        continue
                    chunk, skipping = chunk[at + 1 :], False
                block = rest + chunk
                cut = block.rfind("\n") + 1
                rest = block[cut:]
                if cut:
                    n += block.count("\n", 0, cut)
                    self._stats(n, chars - len(rest))
                    yield io.StringIO(block[:cut])
                if len(rest) > LINE_CAP:
                    n += 1
                    self.ctx.warn(f"Line {n:,} is longer than {LINE_CAP:,} characters: it was cut.")
                    yield (rest[:LINE_CAP] + "\n",)
                    rest, skipping = "", True
            if rest and not skipping:
                yield (rest + "\n",)

    def _stats(self, lines: int, chars: int) -> None:
        """Lines and characters read so far; the furthest pass gives the best estimate."""
        if lines > self.lines_read:
            self.lines_read, self.chars_read = lines, chars

    def count_lines(self) -> int:
        """Physical lines (a last line without a newline counts), by one newline scan."""
        if self.known_lines is None:
            self.known_lines = self._scan()
        return self.known_lines

    def _scan(self) -> int:
        n, last = 0, "\n"
        if self.width == 1:
            with self.source.open() as f:
                while chunk := f.read(_SCAN_CHUNK):
                    n += chunk.count(b"\n")
                    last = chr(chunk[-1])
                    self.deadline.check("counting rows")
        else:
            with io.TextIOWrapper(
                self.source.open(), encoding=self.encoding, errors="replace"
            ) as f:
                while chunk := f.read(_SCAN_CHUNK):
                    n, last = n + chunk.count("\n"), chunk[-1]
                    self.deadline.check("counting rows")
        return n + (last != "\n")

    def last_lines(self, enough: Callable[[list[str], bool], bool]) -> tuple[list[str], bool]:
        """Complete lines at the end of the file, read backwards in growing blocks until
        ``enough(lines, at_start)``; ``at_start`` says the lines begin at the file's start."""
        size, block = self.source.size, _TAIL_BLOCK
        with self.source.open() as f:
            while True:
                offset = max(0, size - block)
                f.seek(offset)
                text = f.read(size - offset).decode(self.encoding, errors="replace")
                lines = text.replace("\r\n", "\n").replace("\r", "\n").split("\n")
                if lines and not lines[-1]:
                    lines.pop()  # the file's final newline
                if offset > 0 and lines:
                    lines = lines[1:]  # the first line is partial
                if offset == 0 or enough(lines, False) or block >= _TAIL_MAX:
                    return lines, offset == 0
                block *= 4
                self.deadline.check("reading the tail")

    def estimate(self, header_lines: int) -> Total:
        """Rows from the file size and the bytes per line seen so far."""
        if not self.lines_read:
            return Total(None)
        per_line = self.chars_read * self.width / self.lines_read
        return Total(
            max(0, round(self.source.size / per_line) - header_lines),
            False,
            "estimated from the file size",
        )


class DelimitedTable(Table):
    """A CSV/TSV file: the first non-blank record is the header; quoted newlines are handled."""

    def __init__(self, lines: LineFile, delimiter: str) -> None:
        self.lf, self.delimiter = lines, delimiter
        self.multiline = self.ragged = False
        with closing(self._records(skip_header=False)) as records:
            header = next(records, [])
        super().__init__(unique_names(header))

    def _records(self, *, skip_header: bool = True) -> Iterator[list[str]]:
        reader = csv.reader(self.lf.lines(), delimiter=self.delimiter)
        seen_header = not skip_header
        prev = 0
        for record in _guarded(reader, self.lf.ctx.info.source):
            if reader.line_num - prev > 1:
                self.multiline = True
            prev = reader.line_num
            if not record or record == [""]:
                continue
            if not seen_header:
                seen_header = True
                continue
            yield record

    def _iter_from(self, start: int, cols: list[int], want: int | None) -> Iterator[list[Any]]:
        for n, record in enumerate(self._records(), 1):
            if n >= start:
                yield self._project(record, cols)

    def _project(self, record: list[str], cols: list[int]) -> list[str]:
        if len(record) != len(self.columns) and not self.ragged:
            self.ragged = True
            self.lf.ctx.warn(
                f"Ragged rows: some rows have {len(record)} fields where the header has "
                f"{len(self.columns)}; missing fields are shown empty, extra fields are dropped."
            )
        return [record[i] if i < len(record) else "" for i in cols]

    def _count(self, exact: bool) -> Total:
        if (
            not exact
            and self.lf.source.size > self.lf.ctx.settings.limits.tabular
            and self.lf.known_lines is None
        ):
            return self.lf.estimate(header_lines=1)
        rows = max(0, self.lf.count_lines() - 1)
        if self.multiline:
            return Total(rows, False, "line count; quoted line breaks make it approximate")
        return Total(rows)

    def tail(self, count: int, cols: list[int]) -> tuple[int, list[list[Any]]]:
        if self.lf.width > 1:
            return super().tail(count, cols)  # not byte-seekable by line: one streamed pass
        parsed: list[list[str]] = []

        def enough(lines: list[str], at_start: bool) -> bool:
            records = list(csv.reader(lines, delimiter=self.delimiter))
            self.multiline = self.multiline or len(records) < len(lines)
            parsed[:] = [r for r in records if r and r != [""]]
            if at_start:
                parsed[:] = parsed[1:]  # the header
            return len(parsed) > count  # one spare: the first may be cut inside a quoted field

        lines, at_start = self.lf.last_lines(enough)
        if not enough(lines, at_start) and not at_start:  # rows too big for a bounded tail
            return super().tail(count, cols)
        kept = [self._project(r, cols) for r in parsed[-count:]]
        total = self.total(exact=True).count or len(kept)
        return max(1, total - len(kept) + 1), kept


def _guarded(reader: Any, where: str) -> Iterator[list[str]]:
    """csv records; a malformed file (a quote never closed) becomes a typed error with its line."""
    try:
        yield from reader
    except csv.Error as exc:
        raise ExtractionError(
            f"{where}: malformed CSV near line {reader.line_num:,}: {exc} (a quote never "
            f"closed?); read rows before it with rows='head:N'",
            path=where,
        ) from exc


class JsonLinesTable(Table):
    """JSON Lines: one object per line; the columns are the keys of the first records."""

    def __init__(self, lines: LineFile) -> None:
        self.lf = lines
        keys: dict[str, None] = {}
        with closing(self._objects()) as objects:
            for n, obj in enumerate(objects):
                if n >= _KEY_SCAN:
                    break
                keys.update(dict.fromkeys(k for k in obj if k != _RAW))
        super().__init__(list(keys) or ["value"])

    def _objects(self) -> Iterator[dict[str, Any]]:
        for line in self.lf.lines():
            if line.strip():
                yield self._parse(line)

    def _parse(self, line: str) -> dict[str, Any]:
        try:
            obj = json.loads(line)
        except ValueError as exc:
            self.lf.ctx.warn(
                f"Some lines are not valid JSON ({exc.msg}): shown in the first column."
            )
            return {_RAW: line.strip()}
        return obj if isinstance(obj, dict) else {"value": obj}

    def _row(self, obj: dict[str, Any], cols: list[int]) -> list[Any]:
        if _RAW in obj:
            return [obj[_RAW] if j == 0 else None for j in range(len(cols))]
        return [obj.get(self.columns[i]) for i in cols]

    def _iter_from(self, start: int, cols: list[int], want: int | None) -> Iterator[list[Any]]:
        for n, line in enumerate((ln for ln in self.lf.lines() if ln.strip()), 1):
            if n >= start:
                yield self._row(self._parse(line), cols)

    def _count(self, exact: bool) -> Total:
        if (
            not exact
            and self.lf.source.size > self.lf.ctx.settings.limits.tabular
            and self.lf.known_lines is None
        ):
            return self.lf.estimate(header_lines=0)
        return Total(self.lf.count_lines())

    def tail(self, count: int, cols: list[int]) -> tuple[int, list[list[Any]]]:
        if self.lf.width > 1:
            return super().tail(count, cols)
        lines, _ = self.lf.last_lines(lambda ls, _s: sum(1 for ln in ls if ln.strip()) >= count)
        kept = [
            self._row(self._parse(ln), cols) for ln in [ln for ln in lines if ln.strip()][-count:]
        ]
        total = self.total(exact=True).count or len(kept)
        return max(1, total - len(kept) + 1), kept


class LinesBook(Book):
    """A single-table text file."""

    def __init__(self, table: Table) -> None:
        self._table = table

    def table(self, index: int) -> Table:
        return self._table


def sniff_delimiter(head: str, default: str) -> str:
    """The candidate giving the most consistent field count (>1) over the first lines."""
    lines = head.splitlines()[:50]
    if len(lines) > 1 and not head.endswith("\n"):
        lines = lines[:-1]  # cut inside a line
    best, best_score = default, (0.0, 0)
    for delim in _DELIMITERS:
        try:
            counts = [len(r) for r in csv.reader(lines, delimiter=delim) if r]
        except csv.Error:
            continue
        if not counts:
            continue
        mode = max(set(counts), key=counts.count)
        if mode < 2:
            continue
        score = (counts.count(mode) / len(counts), mode)
        if score > best_score:
            best, best_score = delim, score
    return best


def open_delimited(source: Source, ctx: Context, deadline: Deadline) -> Book:
    """CSV or TSV; ``.tsv`` means tabs, a ``.csv`` delimiter is sniffed."""
    lf = LineFile(source, ctx, deadline)
    default = "\t" if ctx.info.format == "tsv" else ","
    head = source.head().decode(lf.encoding, errors="replace").lstrip("\ufeff")
    delimiter = default if ctx.info.format == "tsv" else sniff_delimiter(head, default)
    _raise_field_limit()
    return LinesBook(DelimitedTable(lf, delimiter))


def open_json_lines(source: Source, ctx: Context, deadline: Deadline) -> Book:
    return LinesBook(JsonLinesTable(LineFile(source, ctx, deadline)))


def _raise_field_limit() -> None:
    """A field may be as long as a capped line (the csv default, 128 KB, rejects real files)."""
    if csv.field_size_limit() < LINE_CAP:
        csv.field_size_limit(LINE_CAP)
