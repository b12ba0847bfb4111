"""Workbooks: XLSX/XLSM streamed by openpyxl in read-only mode (formulas as cached values, XML
through defusedxml), XLS by xlrd (ODS: ``ods.py``); XLSX and ODS packages pass the zip checks of
every zip-based format first (``check_package``).
The first non-empty row of a sheet is its header."""

from __future__ import annotations

import io
import re
import zipfile
from collections.abc import Generator, Iterator
from itertools import chain, islice
from typing import IO, TYPE_CHECKING, Any, BinaryIO

from ...errors import (
    EncryptedDocumentError,
    ExtractionError,
    FileTooLargeError,
)
from ...source import Source
from ..base import Context
from ..office.package import open_package
from .model import Book, RowsTable, Table, Total, table_head, unique_names

if TYPE_CHECKING:
    from ..deadline import Deadline

_XML_HEAD = 8192
_WIDTH_SCAN = 100  # rows after the header looked at for the sheet's width


class XlsxTable(Table):
    """A read-only worksheet: rows are parsed as a stream and the parse stops after the window.
    ``extent`` (rows, columns) is the sheet's real extent when its <dimension> was found inflated.
    Rows are never padded past the cells the XML holds: a row missing from it, or holding no value
    in the columns read, costs nothing and is not shown (its number is skipped)."""

    def __init__(self, ws: Any, deadline: Deadline, extent: tuple[int, int | None] | None) -> None:
        self.ws, self.deadline = ws, deadline
        # past ``last`` no row holds a value (openpyxl reads 0 as "no limit")
        self.last = max(extent[0], 1) if extent else None
        self.claimed = self.last if extent else ws.max_row  # verified when a window reaches the end
        known = extent[1] if extent else None  # the columns, when the XML said
        width = max(known, 1) if known is not None else (ws.max_column or 0)
        ws.reset_dimensions()  # iterate to the real end, whatever the dimension says
        # one parse serves the header, the width and the first window (the usual head:N); no
        # max_col: openpyxl would pad every row, and every row missing from the XML, to it
        self._parse: Generator[tuple[Any, ...], None, None] | None = ws.iter_rows(
            values_only=True, max_row=self.last
        )
        head = table_head(self._parse)
        header = head.cells
        self._ahead = head.pending + list(islice(self._parse, _WIDTH_SCAN)) if header else []
        if header and known is None:  # no dimension, or cells without references: the first
            # rows say the width
            width = max([width, len(header)] + [len(r) for r in self._ahead])
        self.header_at = head.at + 1  # 1-based sheet row of the header
        super().__init__(unique_names(header + [None] * (width - len(header))) if header else [])
        self.caption = head.caption

    def _iter_from(
        self, start: int, cols: list[int], want: int | None
    ) -> Iterator[list[Any] | None]:
        first = self.header_at + start
        if self._parse is not None:  # continue the first parse, past the header
            rows: Iterator[tuple[Any, ...]] = islice(
                chain(self._ahead, self._parse), start - 1, None
            )
            self._parse, self._ahead = None, []
        else:
            rows = self.ws.iter_rows(min_row=first, max_row=self.last, values_only=True)
        for n, row in enumerate(rows, first):
            if n & 0xFFF == 0:
                self.deadline.check(f"sheet row {n:,}")
            if not row:  # a row missing from the XML (openpyxl fills the gap): nothing to read
                yield None
                continue
            values = [row[c] if c < len(row) else None for c in cols]
            yield values if any(v is not None for v in values) else None

    def close(self) -> None:
        if self._parse is not None:
            self._parse.close()

    def _count(self, exact: bool) -> Total:
        """The dimension's row count; without a dimension, one streamed pass counts the rows."""
        if self.claimed is not None:
            return Total(max(0, self.claimed - self.header_at))
        for _ in self.rows(1, None, []):
            pass  # no column asked: every row is None, counted and never built
        return Total(self._end_seen or 0)


class XlsxBook(Book):
    def __init__(self, source: Source, ctx: Context, deadline: Deadline) -> None:
        from defusedxml import DefusedXmlException
        from openpyxl import load_workbook

        _dimension_from_head()
        self.deadline = deadline
        self.handle = source.open()
        try:
            check_package(self.handle, ctx)
            self.handle.seek(0)
            self.wb = load_workbook(self.handle, read_only=True, data_only=True, keep_links=False)
        except DefusedXmlException as exc:
            self.handle.close()
            raise ExtractionError(
                f"{ctx.info.source}: unsafe XML in the workbook refused ({exc})",
                path=ctx.info.source,
            ) from exc
        except (KeyError, ValueError, TypeError, OSError, zipfile.BadZipFile) as exc:
            self.handle.close()
            raise ExtractionError(
                f"{ctx.info.source}: not a readable XLSX workbook: {type(exc).__name__}: {exc}",
                path=ctx.info.source,
            ) from exc
        except BaseException:
            self.handle.close()
            raise
        self.sheet_names: list[str] = list(self.wb.sheetnames)
        self.tables: list[XlsxTable] = []
        self.zf = zipfile.ZipFile(self.handle)  # for sizing sheets whose dimension is inflated
        self.extents: dict[int, tuple[int, int | None] | None] = {}

    def sheet_size(self, index: int) -> tuple[int, int] | None:
        """The sheet's <dimension> (read before ``table`` resets it to stream to the real end),
        or its real extent when the dimension is inflated or missing."""
        ws = self.wb[self.sheet_names[index]]
        if not hasattr(ws, "iter_rows"):  # a chart sheet
            return None
        rows, cols = getattr(ws, "max_row", None), getattr(ws, "max_column", None)
        found = self.extent(index, ws)
        if found is not None:
            return (found[0], found[1]) if found[1] is not None else None
        return (rows, cols) if isinstance(rows, int) and isinstance(cols, int) else None

    def extent(self, index: int, ws: Any) -> tuple[int, int | None] | None:
        """(last row, last column) holding a value, scanned from the sheet's XML (once a sheet)
        when its <dimension> is missing or claims more cells than the XML can hold (a used range
        inflated to the sheet's maximum by formatting whole rows or columns); None when the
        dimension is plausible."""
        if index in self.extents:
            return self.extents[index]
        rows, cols = getattr(ws, "max_row", None), getattr(ws, "max_column", None)
        path = getattr(ws, "_worksheet_path", None)  # openpyxl keeps the member name here
        found = None
        info = _member(self.zf, path)
        if info is not None:
            size = max(info.file_size, 1)
            # no dimension, or one claiming more cells than the XML can hold
            if not (isinstance(rows, int) and isinstance(cols, int)) or (
                rows * max(cols, 1) > _CELLS_PER_BYTE * size
            ):
                with self.zf.open(info) as part:
                    found = sheet_extent(part, self.deadline)
        self.extents[index] = found
        return found

    def table(self, index: int) -> Table:
        ws = self.wb[self.sheet_names[index]]
        if not hasattr(ws, "iter_rows"):  # a chart sheet
            return RowsTable([], 0, lambda n: [])
        table = XlsxTable(ws, self.deadline, self.extent(index, ws))
        self.tables.append(table)
        return table

    def close(self) -> None:
        for table in self.tables:
            table.close()
        self.wb.close()
        self.zf.close()
        self.handle.close()


_DIMENSION = re.compile(rb'<(?:\w+:)?dimension\b[^>]*?\bref="([^"]*)"')
_SHEET_DATA = re.compile(rb"<(?:\w+:)?sheetData\b")


def _dimension_from_head() -> None:
    """openpyxl sizes each read-only sheet when it loads the workbook, and when the sheet has no
    ``<dimension>`` its loop waits for the end of ``<sheetData>``: a whole parse of every such
    sheet, its tree kept (a 1 MB file of 400,000 rows: 8 s and hundreds of MB before the first
    row is read). The schema puts ``<dimension>`` before ``<sheetData>``, so reading up to
    there finds it or proves it absent: that reading replaces openpyxl's (once a process)."""
    from openpyxl.utils.cell import range_boundaries
    from openpyxl.worksheet._read_only import ReadOnlyWorksheet

    if getattr(getattr(ReadOnlyWorksheet, "_get_size", None), "head_only", False):
        return

    def get_size(ws: Any) -> None:
        head = b""
        with ws._get_source() as src:
            while len(head) < _HEAD_CAP and not _SHEET_DATA.search(head):
                chunk = src.read(_XML_HEAD)
                if not chunk:
                    break
                head += chunk
        start = _SHEET_DATA.search(head)
        found = _DIMENSION.search(head, 0, start.start() if start else len(head))
        try:
            bounds = range_boundaries(found.group(1).decode("ascii")) if found else None
        except (ValueError, TypeError, UnicodeDecodeError):
            bounds = None  # a dimension openpyxl cannot read: as if it were missing
        if bounds is not None and None not in bounds:
            ws._min_column, ws._min_row, ws._max_column, ws._max_row = bounds

    get_size.head_only = True  # type: ignore[attr-defined]
    ReadOnlyWorksheet._get_size = get_size  # type: ignore[attr-defined]


_HEAD_CAP = 1 << 20  # the part of a sheet's XML read for its <dimension> (columns come before)


def _member(zf: zipfile.ZipFile, name: object) -> zipfile.ZipInfo | None:
    try:
        return zf.getinfo(name) if isinstance(name, str) else None
    except KeyError:
        return None


_CELLS_PER_BYTE = 4  # a dimension claiming more cells than this per byte of sheet XML is inflated
# a cell holding something: a value, an inline string or a formula (a styled empty cell is
# ``<c r="X1" s="3"/>``), with its reference when it has one
_ANY_VALUED_CELL = re.compile(rb"<(?:\w+:)?c\b[^>]*(?<!/)>\s*<(?:\w+:)?(?:v|is|f)\b")
_VALUED_CELL = re.compile(
    rb"<(?:\w+:)?c\b[^>]*?\br=\"([A-Z]{1,3})(\d+)\"[^>]*(?<!/)>\s*<(?:\w+:)?(?:v|is|f)\b"
)
_ROW_NUMBER = re.compile(rb'<(?:\w+:)?row\b[^>]*?\br="(\d+)"')
_PREFIXED_ROW = re.compile(rb"<\w+:row[\s>]")
_CHUNK = 1 << 20


def sheet_extent(part: IO[bytes], deadline: Deadline) -> tuple[int, int | None]:
    """(last row, last column), 1-based, of the cells of a worksheet's XML that hold a value,
    at C speed in 1 MB chunks (what follows a chunk's last closed cell is read with the next).
    Cells without a reference (``r``) are placed by their rows: the last row is then the last
    ``<row>`` (by its number, or their count) and the column is unknown (None)."""
    last_row = last_col = rows = counted = placed = anywhere = 0
    letters: set[bytes] = set()
    carry = b""
    while True:
        chunk = part.read(_CHUNK)
        data = carry + chunk
        end = data.rfind(b"</c>")  # cut after the last closed cell: no cell spans the cut
        cut = len(data) if not chunk else end + 4 if end >= 0 else max(data.rfind(b"<"), 0)
        body, carry = data[:cut], data[cut:]
        refs = _VALUED_CELL.findall(body)
        if refs:
            placed += len(refs)
            last_row = max(last_row, max(map(int, (r for _, r in refs))))
            letters.update(c for c, _ in refs)
        anywhere += len(_ANY_VALUED_CELL.findall(body))
        numbered = _ROW_NUMBER.findall(body)  # rows: by their numbers, or counted
        counted += body.count(b"<row ") + body.count(b"<row>")
        if b":row" in body:  # a prefixed row start, <x:row ...>
            counted += len(_PREFIXED_ROW.findall(body))
        rows = max(rows, max(map(int, numbered), default=0))
        if not chunk:
            break
        deadline.check("sizing a sheet")
    if placed != anywhere:
        return max(last_row, rows, counted), None
    for name in letters:
        col = 0
        for ch in name:
            col = col * 26 + ch - 64
        last_col = max(last_col, col)
    return last_row, last_col


def check_package(handle: BinaryIO, ctx: Context, required: str = "xl/workbook.xml") -> None:
    """Before openpyxl or odfpy runs: the zip checks of every zip-based format (``open_package``),
    the part that makes it a workbook, shared strings small enough to hold and no XML part
    declaring entities (billion laughs)."""
    where = ctx.info.source
    with open_package(handle, where, ctx.settings.archive) as zf:
        infos = zf.infolist()
        if required not in {i.filename for i in infos}:
            raise ExtractionError(
                f"{where}: a zip file, but not an {ctx.info.format.upper()} workbook (no "
                f"{required})",
                path=where,
            )
        for info in infos:
            ctx.check_deadline(f"workbook part {info.filename}")
            if (
                info.filename == "xl/sharedStrings.xml"
                and info.file_size > ctx.settings.limits.tabular
            ):
                raise FileTooLargeError(
                    f"{where}: the shared strings part is {info.file_size:,} bytes, over limits.tabular="
                    f"{ctx.settings.limits.tabular:,}; convert the workbook to CSV to read it",
                    path=where,
                )
            if info.filename.endswith((".xml", ".rels", ".vml")):
                with zf.open(info) as part:
                    head = part.read(_XML_HEAD)
                if b"<!DOCTYPE" in head or b"<!ENTITY" in head:
                    raise ExtractionError(
                        f"{where}: workbook part {info.filename} declares XML entities (a "
                        f"billion-laughs bomb?); refused",
                        path=where,
                    )


def open_xlsx(source: Source, ctx: Context, deadline: Deadline) -> Book:
    return XlsxBook(source, ctx, deadline)


class XlsBook(Book):
    """Legacy BIFF workbooks: dates decoded with the book's date mode, errors as #REF! etc."""

    def __init__(self, source: Source, ctx: Context) -> None:
        import xlrd
        from xlrd.biffh import XLRDError  # xlrd.XLRDError, which its stubs leave out

        try:
            self.book = xlrd.open_workbook(
                file_contents=source.read_bytes(), on_demand=True, logfile=io.StringIO()
            )
        except XLRDError as exc:
            if "encrypt" in str(exc).lower():
                raise EncryptedDocumentError(
                    f"{ctx.info.source}: the workbook is password-protected; save an unprotected copy to read it",
                    path=ctx.info.source,
                ) from exc
            raise ExtractionError(
                f"{ctx.info.source}: not a readable XLS workbook: {exc}", path=ctx.info.source
            ) from exc
        self.sheet_names = list(self.book.sheet_names())

    def sheet_size(self, index: int) -> tuple[int, int] | None:
        sh = self.book.sheet_by_index(index)
        return sh.nrows, sh.ncols

    def table(self, index: int) -> Table:
        sh = self.book.sheet_by_index(index)
        head = table_head(self._row(sh, r) for r in range(sh.nrows))
        pos, header = head.at, head.cells
        if pos < 0:
            return RowsTable([], 0, lambda n: [])
        width = max(sh.ncols, len(header))
        columns = unique_names(header + [None] * (width - len(header)))
        table = RowsTable(columns, sh.nrows - pos - 1, lambda n: self._row(sh, pos + n))
        table.caption = head.caption
        return table

    def _row(self, sh: Any, r: int) -> list[Any]:
        import xlrd

        out: list[Any] = []
        for cell in sh.row(r):
            if cell.ctype == xlrd.XL_CELL_DATE:
                try:
                    out.append(xlrd.xldate.xldate_as_datetime(cell.value, self.book.datemode))
                except (xlrd.xldate.XLDateError, ValueError, OverflowError):
                    out.append(cell.value)
            elif cell.ctype == xlrd.XL_CELL_BOOLEAN:
                out.append(bool(cell.value))
            elif cell.ctype == xlrd.XL_CELL_ERROR:
                out.append(xlrd.error_text_from_code.get(cell.value, "#ERROR"))
            elif cell.ctype in (xlrd.XL_CELL_EMPTY, xlrd.XL_CELL_BLANK):
                out.append(None)
            else:
                out.append(cell.value)
        return out

    def close(self) -> None:
        self.book.release_resources()


def open_xls(source: Source, ctx: Context, deadline: Deadline) -> Book:
    return XlsBook(source, ctx)
