"""CSV, TSV and JSON Lines, streamed: the encoding and delimiter are sniffed from the head, a
window stops reading once it is full, a tail reads backwards from the end, and totals come from
a fast scan counting non-blank lines as records (or, on huge files, an estimate that says so)."""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Callable, Generator, Iterable, Iterator
from contextlib import closing
from dataclasses import dataclass
from itertools import chain
from typing import TYPE_CHECKING, Any

from ...errors import ExtractionError
from ...source import Source
from ..base import Context
from .model import Book, Numbered, Table, Total, unique_names

if TYPE_CHECKING:
    from ..deadline import Deadline

LINE_CAP = 8 << 20  # characters: a longer physical line is cut, so memory stays bounded
_SCAN_CHUNK = 8 << 20
_READ_CHUNK = 64 << 10  # characters decoded per block
_TAIL_BLOCK = 64 << 10
_TAIL_MAX = 256 << 20
_KEY_SCAN = 1000  # JSON Lines: columns are the keys of the first records
_DELIMITERS = (",", "\t", ";", "|")
_NOT_QUOTE_OR_NL = bytes(b for b in range(256) if b not in b'\n"')
_RAW = "\0raw"  # JSON Lines: the key holding a line that is not valid JSON (no real key has a NUL)


@dataclass(frozen=True, slots=True)
class Scan:
    """A line scan: non-blank lines, and whether they are exactly the records (False when
    quoted fields hold line breaks, so records span lines)."""

    lines: int
    exact: bool


def _doubled(chunk: bytes) -> int:
    """Adjacent newline pairs, overlapping (a run of k newlines holds k - 1 blank lines)."""
    n = 0
    while b"\n\n" in chunk:  # each pass halves every run of newlines
        shorter = chunk.replace(b"\n\n", b"\n")
        n, chunk = n + len(chunk) - len(shorter), shorter
    return n


def _balanced(chunk: bytes, odd: bool) -> tuple[bool, bool]:
    """(every line break is outside quotes, the last partial line's quote count is odd) for a
    chunk whose partial first line continues one with ``odd`` quotes; a line of two quotes (a
    record the reader skips) also counts as unbalanced. Parity is how well-formed CSV quotes."""
    kept = chunk.translate(None, _NOT_QUOTE_OR_NL).replace(b'""', b"")  # '"' left: odd line
    first, last = kept.find(b"\n"), kept.rfind(b"\n")
    if first < 0:
        return True, odd != bool(kept)
    ok = (odd == (first == 1)) and b'"' not in kept[first:last] and b'\n""\n' not in chunk
    return ok, last < len(kept) - 1


class LineFile:
    """Capped physical lines of a text file, forwards from the start or backwards from the end."""

    def __init__(self, source: Source, ctx: Context, deadline: Deadline) -> None:
        self.source, self.ctx, self.deadline = source, ctx, deadline
        self.encoding = ctx.info.encoding or "utf-8"  # detected once, with the format
        self.width = (
            4
            if self.encoding.startswith("utf-32")
            else 2
            if self.encoding.startswith("utf-16")
            else 1
        )
        self.chars_read = self.lines_read = 0
        self.scanned: Scan | None = None  # set by scan

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

    def scan(self, *, strip: str, quotes: bool) -> Scan:
        """Non-blank lines (blank: empty once ``strip`` characters are removed), by one pass
        of C-speed string operations; ``quotes`` also checks for line breaks inside quotes."""
        if self.scanned is None:
            self.scanned = self._scan(strip, quotes)
        return self.scanned

    def _scan(self, strip: str, quotes: bool) -> Scan:
        pairs = breaks = 0  # pairs: adjacent newlines, i.e. blank lines
        last_nl, odd, exact = True, False, True  # a virtual newline before the file
        delete = strip.encode()
        for chunk in self._byte_chunks():
            if b"\r" in chunk:  # universal newlines: CR is a line break (CRLF adds a blank line)
                chunk = chunk.replace(b"\r", b"\n")
            if quotes and exact and (odd or b'"' in chunk):
                exact, odd = _balanced(chunk, odd)
            if delete:
                chunk = chunk.translate(None, delete)
            if not chunk:
                continue
            breaks += chunk.count(b"\n")
            pairs += (last_nl and chunk[:1] == b"\n") + _doubled(chunk)
            last_nl = chunk[-1:] == b"\n"
            self.deadline.check("counting rows")
        return Scan(breaks + (not last_nl) - pairs, exact and not odd)

    def _byte_chunks(self) -> Iterator[bytes]:
        """The file in big blocks with single-byte newlines (UTF-16/32 re-encoded as UTF-8)."""
        if self.width == 1:
            with self.source.open() as f:
                while chunk := f.read(_SCAN_CHUNK):
                    yield chunk
        else:
            with io.TextIOWrapper(
                self.source.open(), encoding=self.encoding, errors="replace"
            ) as f:
                while text := f.read(_SCAN_CHUNK):
                    yield text.encode("utf-8", errors="replace")

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


class LinesTable(Table):
    """A table of text lines: CSV records or JSON Lines objects, where blank lines are no rows.

    Totals and tail row numbers come from one line scan that skips blank lines as the forward
    reader does, so a tail, the total and the default view number the same record alike."""

    header_lines = 0  # records before the data (the CSV header)
    strip = ""  # characters that leave a line blank (JSON Lines: whitespace)
    quotes = False  # quoted fields may hold line breaks (CSV)

    def __init__(self, lines: LineFile, columns: list[str]) -> None:
        self.lf = lines
        super().__init__(columns)

    def _count(self, exact: bool) -> Total:
        lf = self.lf
        huge = lf.source.size > lf.ctx.settings.limits.tabular
        if not exact and huge and lf.scanned is None:
            return lf.estimate(self.header_lines)
        scan = lf.scan(strip=self.strip, quotes=self.quotes)
        rows = max(0, scan.lines - self.header_lines)
        if scan.exact:
            return Total(rows)
        if huge:
            return Total(rows, False, "line count; quoted line breaks make it approximate")
        n = 0
        for n, _ in enumerate(self._iter_from(1, [], None), 1):  # noqa: B007
            pass  # records span lines: count them as the forward reader reads them
        self._end_seen = n
        return Total(n)

    def _numbered(self, kept: list[list[Any]]) -> list[Numbered]:
        """``kept``, the last rows of the table, numbered from its total."""
        total = self.total(exact=True)
        if not total.exact:
            self.lf.ctx.warn(
                f"Row numbers are approximate ({total.how}): counting records exactly would "
                f"mean parsing the whole file."
            )
        return list(enumerate(kept, max(1, (total.count or 0) - len(kept) + 1)))


class DelimitedTable(LinesTable):
    """A CSV/TSV file: the first non-blank record is the header; quoted newlines are handled."""

    header_lines, quotes = 1, True

    def __init__(self, lines: LineFile, delimiter: str) -> None:
        self.lf, self.delimiter = lines, delimiter
        self.ragged = False
        with closing(self._records(skip_header=False)) as records:
            header = next(records, [])
        self.width, cap = len(header), lines.ctx.settings.memory.max_dataframe_cols
        if self.width > cap:  # the names past the cap are never looked at (nor made unique)
            lines.ctx.warn(
                f"The header has {self.width:,} columns; only the first {cap:,} are read "
                f"(memory.max_dataframe_cols)."
            )
        super().__init__(lines, unique_names(header[:cap]))

    def _records(self, *, skip_header: bool = True) -> Generator[list[str], None, None]:
        reader = csv.reader(self.lf.lines(), delimiter=self.delimiter)
        seen_header = not skip_header
        for record in _guarded(reader, self.lf.ctx.info.source):
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
        if len(record) != self.width and not self.ragged:
            self.ragged = True
            self.lf.ctx.warn(
                f"Ragged rows: some rows have {len(record)} fields where the header has "
                f"{self.width}; missing fields are shown empty, extra fields are dropped."
            )
        return [record[i] if i < len(record) else "" for i in cols]

    def tail(self, count: int, cols: list[int]) -> list[Numbered]:
        if self.lf.width > 1:
            return super().tail(count, cols)  # not byte-seekable by line: one streamed pass
        parsed: list[list[str]] = []

        def enough(lines: list[str], at_start: bool) -> bool:
            records = csv.reader(lines, delimiter=self.delimiter)
            parsed[:] = [r for r in records if r and r != [""]]
            if at_start:
                parsed[:] = parsed[1:]  # the header
            return len(parsed) > count  # one spare: the first may be cut inside a quoted field

        lines, at_start = self.lf.last_lines(enough)
        if not enough(lines, at_start) and not at_start:  # rows too big for a bounded tail
            return super().tail(count, cols)
        return self._numbered([self._project(r, cols) for r in parsed[-count:]])


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


class JsonLinesTable(LinesTable):
    """JSON Lines: one object per line; the columns are the keys of the first records."""

    strip = " \t\f\v\x1c\x1d\x1e\x1f"  # what str.strip removes, besides line breaks

    def __init__(self, lines: LineFile) -> None:
        self.lf = lines
        keys: dict[str, None] = {}
        with closing(self._objects()) as objects:
            for n, obj in enumerate(objects):
                if n >= _KEY_SCAN:
                    break
                keys.update(dict.fromkeys(k for k in obj if k != _RAW))
        super().__init__(lines, list(keys) or ["value"])

    def _objects(self) -> Generator[dict[str, Any], None, None]:
        for line in self.lf.lines():
            if line.strip():
                yield self._parse(line)

    def _parse(self, line: str) -> dict[str, Any]:
        try:
            obj = json.loads(line)
        except ValueError as exc:  # a JSONDecodeError, or int() refusing a 4,301-digit number
            reason = exc.msg if isinstance(exc, json.JSONDecodeError) else str(exc)
            self.lf.ctx.warn(
                f"Some lines are not valid JSON ({reason}): shown in the first column."
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

    def tail(self, count: int, cols: list[int]) -> list[Numbered]:
        if self.lf.width > 1:
            return super().tail(count, cols)
        lines, _ = self.lf.last_lines(lambda ls, _s: sum(1 for ln in ls if ln.strip()) >= count)
        kept = [ln for ln in lines if ln.strip()][-count:]
        return self._numbered([self._row(self._parse(ln), cols) for ln in kept])


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
