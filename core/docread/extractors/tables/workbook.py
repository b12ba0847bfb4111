"""Workbooks: XLSX/XLSM streamed by openpyxl in read-only mode (formulas as cached values, XML
through defusedxml), XLS by xlrd, ODS by pandas' odf engine; XLSX and ODS packages pass the zip
checks of every zip-based format first.
The first non-empty row of a sheet is its header."""

from __future__ import annotations

import io
import zipfile
from collections.abc import Generator, Iterator
from itertools import chain, islice
from typing import TYPE_CHECKING, Any, BinaryIO

from ...errors import (
    DependencyMissingError,
    EncryptedDocumentError,
    ExtractionError,
    FileTooLargeError,
)
from ...source import Source
from ..base import Context
from ..office.package import open_package
from .model import Book, RowsTable, Table, Total, header_row, unique_names

if TYPE_CHECKING:
    from ..deadline import Deadline

_XML_HEAD = 8192
_WIDTH_SCAN = 100  # rows after the header looked at for the sheet's width


class XlsxTable(Table):
    """A read-only worksheet: rows are parsed as a stream and the parse stops after the window."""

    def __init__(self, ws: Any, deadline: Deadline) -> None:
        self.ws, self.deadline = ws, deadline
        self.claimed = ws.max_row  # from <dimension>; verified when a window reaches the end
        width = ws.max_column or 0
        ws.reset_dimensions()  # iterate to the real end, whatever the dimension says
        # one parse serves the header, the width and the first window (the usual head:N)
        self._parse: Generator[tuple[Any, ...], None, None] | None = ws.iter_rows(values_only=True)
        pos, header = header_row(self._parse)
        self._ahead = list(islice(self._parse, _WIDTH_SCAN)) if header else []
        if header:  # a wrong or missing dimension: the first rows say how wide the sheet is
            width = max([width, len(header)] + [len(r) for r in self._ahead])
        self.header_at = pos + 1  # 1-based sheet row of the header
        super().__init__(unique_names(header + [None] * (width - len(header))) if header else [])

    def _iter_from(self, start: int, cols: list[int], want: int | None) -> Iterator[list[Any]]:
        first = self.header_at + start
        if self._parse is not None:  # continue the first parse, past the header
            rows: Iterator[tuple[Any, ...]] = islice(
                chain(self._ahead, self._parse), start - 1, None
            )
            self._parse, self._ahead = None, []
        else:
            rows = self.ws.iter_rows(
                min_row=first, max_col=max(cols) + 1 if cols else 1, values_only=True
            )
        for n, row in enumerate(rows, first):
            if n & 0xFFF == 0:
                self.deadline.check(f"sheet row {n:,}")
            yield [row[c] if c < len(row) else None for c in cols]

    def close(self) -> None:
        if self._parse is not None:
            self._parse.close()

    def _count(self, exact: bool) -> Total:
        """The dimension's row count; without a dimension, one streamed pass counts the rows."""
        if self.claimed is not None:
            return Total(max(0, self.claimed - self.header_at))
        return Total(sum(1 for _ in self.rows(1, None, [0])))


class XlsxBook(Book):
    def __init__(self, source: Source, ctx: Context, deadline: Deadline) -> None:
        from defusedxml import DefusedXmlException
        from openpyxl import load_workbook

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

    def sheet_size(self, index: int) -> tuple[int, int] | None:
        """The sheet's <dimension> (read before ``table`` resets it to stream to the real end)."""
        ws = self.wb[self.sheet_names[index]]
        rows, cols = getattr(ws, "max_row", None), getattr(ws, "max_column", None)
        return (rows, cols) if isinstance(rows, int) and isinstance(cols, int) else None

    def table(self, index: int) -> Table:
        ws = self.wb[self.sheet_names[index]]
        if not hasattr(ws, "iter_rows"):  # a chart sheet
            return RowsTable([], 0, lambda n: [])
        table = XlsxTable(ws, self.deadline)
        self.tables.append(table)
        return table

    def close(self) -> None:
        for table in self.tables:
            table.close()
        self.wb.close()
        self.handle.close()


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
        pos, header = header_row(self._row(sh, r) for r in range(sh.nrows))
        if pos < 0:
            return RowsTable([], 0, lambda n: [])
        width = max(sh.ncols, len(header))
        columns = unique_names(header + [None] * (width - len(header)))
        return RowsTable(columns, sh.nrows - pos - 1, lambda n: self._row(sh, pos + n))

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


class OdsBook(Book):
    """OpenDocument spreadsheets through pandas' odf engine (needs odfpy); loaded per sheet."""

    def __init__(self, source: Source, ctx: Context) -> None:
        import pandas as pd

        try:
            import odf  # noqa: F401 - pandas' odf engine
        except ImportError as exc:
            raise DependencyMissingError(
                f"{ctx.info.source}: reading .ods needs odfpy: pip install odfpy",
                path=ctx.info.source,
            ) from exc
        data = io.BytesIO(source.read_bytes())
        check_package(data, ctx, required="content.xml")
        data.seek(0)
        self.book = pd.ExcelFile(data, engine="odf")
        self.sheet_names = [str(n) for n in self.book.sheet_names]

    def table(self, index: int) -> Table:
        frame = self.book.parse(self.book.sheet_names[index], header=None, dtype=object)
        rows = frame.astype(object).where(frame.notna(), None).values.tolist()
        pos, header = header_row(iter(rows))
        if pos < 0:
            return RowsTable([], 0, lambda n: [])
        return RowsTable(unique_names(header), len(rows) - pos - 1, lambda n: rows[pos + n])

    def close(self) -> None:
        self.book.close()


def open_ods(source: Source, ctx: Context, deadline: Deadline) -> Book:
    return OdsBook(source, ctx)
