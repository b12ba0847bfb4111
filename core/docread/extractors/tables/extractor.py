"""Tables (CSV, TSV, JSONL, Parquet, XLSX, XLS, ODS, tabular JSON): a sheet/rows/columns window
read without loading the file, rendered as markdown tables with a Row column; loaders get every
sheet in chunks of ``tabular.rows_per_document`` rows with sheet and row provenance."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any, ClassVar

from ...errors import InvalidOptionError
from ...formats import BY_KEY
from ...model import Document, Unit
from ...request.ranges import (
    RowSpec,
    check_row_window,
    column_letter,
    compact_spans,
    select_columns,
)
from ...source import Source
from ..base import Context, Extractor, load_object
from ..deadline import Deadline
from ..markdown import captioned, escape_cell, markdown_table
from ..properties import document_properties
from .model import Book, Table, Total, column_types, plain_text


class TabularExtractor(Extractor):
    """Formats read by window (CSV, TSV, JSONL, Parquet, XLSX read-only): no size limit applies."""

    name: ClassVar[str] = "tabular"
    options: ClassVar[frozenset[str]] = frozenset({"rows", "columns", "sheet"})
    version: ClassVar[int] = 1
    isolated: ClassVar[bool] = True
    cacheable: ClassVar[bool] = False
    streaming: ClassVar[bool] = True

    def extract(self, source: Source, ctx: Context) -> Iterator[Unit]:
        opener = load_object(BY_KEY[ctx.info.format].opener)
        deadline = _load_deadline(ctx)
        book: Book = opener(source, ctx, deadline)
        with book:
            units = _loader(book, ctx, deadline) if ctx.loader else _window(book, ctx)
            yield from _with_properties(units, source, ctx)


class TabularLoadExtractor(TabularExtractor):
    """Formats that must be loaded whole (XLS, ODS, tabular JSON): the size limit protects them."""

    streaming: ClassVar[bool] = False


def _with_properties(units: Iterator[Unit], source: Source, ctx: Context) -> Iterator[Unit]:
    """Workbooks (XLSX, ODS) carry document properties: in every Document's metadata, and in the
    agent view's header, as office documents do."""
    if ctx.info.format not in ("xlsx", "ods") or not ctx.options.include_metadata:
        yield from units
        return
    from ..office.meta import workbook_properties

    props = document_properties(ctx, workbook_properties(source, ctx))
    for unit in units:
        yield (
            Document(unit.text, {**props, **unit.metadata}) if isinstance(unit, Document) else unit
        )


def _load_deadline(ctx: Context) -> Deadline:
    """``timeouts.tabular_load`` (and the global timeout), checked between rows and chunks."""
    return ctx.time_limit(
        ctx.settings.timeouts.tabular_load,
        "timeouts.tabular_load",
        task="reading the table",
        advice="read a smaller window (rows='head:50', fewer columns) or raise the timeout "
        "in tools-security.yaml",
    )


def _sheet_indices(book: Book, ctx: Context, *, all_sheets: bool) -> list[int]:
    """The selected sheet (name or 0-based index; default the first), or every sheet."""
    sheet, names = ctx.options.sheet, book.sheet_names
    if names is None:
        if sheet not in (None, 0, "0"):
            ctx.warn(f"sheet={sheet!r} is ignored: a {ctx.info.format} file holds one table.")
        return [0]
    if not names:
        return []
    if sheet is None:
        return list(range(len(names))) if all_sheets else [0]
    if isinstance(sheet, str) and sheet in names:
        return [names.index(sheet)]
    lowered = [n.lower() for n in names]
    if isinstance(sheet, str) and sheet.strip().lower() in lowered:
        return [lowered.index(sheet.strip().lower())]
    index = sheet if isinstance(sheet, int) else int(sheet) if str(sheet).isdigit() else None
    if index is not None and index < len(names):
        return [index]
    listing = ", ".join(f"{i}: {n!r}" for i, n in enumerate(names))
    raise InvalidOptionError(
        f"{ctx.info.source}: no sheet {sheet!r}; the workbook has {len(names)} sheet"
        f"{'s' if len(names) != 1 else ''}: {listing} (give a name or a 0-based index)",
        path=ctx.info.source,
    )


def _columns(table: Table, ctx: Context) -> list[int]:
    """Selected 0-based column indices, capped at ``memory.max_dataframe_cols``."""
    cols = select_columns(ctx.options.column_spec, table.columns, path=ctx.info.source)
    cap = ctx.settings.memory.max_dataframe_cols
    if len(cols) > cap:
        ctx.warn(
            f"Showing the first {cap} of {len(cols)} columns (memory.max_dataframe_cols); "
            f"use columns= (e.g. columns='{column_letter(cols[cap])}-{column_letter(cols[-1])}') for the rest."
        )
        cols = cols[:cap]
    return cols


def _window(book: Book, ctx: Context) -> Iterator[Unit]:
    """The agent view: one window of one sheet, as one Document."""
    indices = _sheet_indices(book, ctx, all_sheets=False)
    if not indices:
        ctx.warn("The workbook has no sheets.")
        return
    index = indices[0]
    _sheet_header(book, index, ctx)
    table = book.table(index)
    if not table.columns:
        ctx.warn("The table is empty: no header row and no data rows.")
        return
    cols = _columns(table, ctx)
    spec = ctx.options.row_spec or RowSpec("head", count=ctx.settings.tabular.default_rows)
    cap = ctx.settings.memory.max_dataframe_rows
    first, rows = _read_window(table, spec, cols, cap, ctx)
    total = table.total(exact=False)
    if total.exact and total.count is not None:
        check_row_window(spec, total.count, warn=ctx.warn, path=ctx.info.source)
    if not rows:
        size = f"{total.count:,}" if total.count is not None else "fewer"
        ctx.warn(f"rows={spec.text or 'head'!r} selects no rows: the table has {size} data rows.")
        if first == 1:  # a header without data: the column names are the content
            yield _document(table, book, index, cols, first, rows, total, ctx, row_column=True)
        return
    last = first + len(rows) - 1
    of = f" of {total.label()}" if total.count is not None else ""
    ctx.set_header("Rows", f"{first:,}-{last:,}{of}")
    ctx.set_header(
        "Columns",
        compact_spans(cols, name=column_letter)
        + (f" ({len(cols)} of {len(table.columns)})" if len(cols) < len(table.columns) else ""),
    )
    if total.count is None or last < total.count:
        ctx.read_on(f"rows {first:,}-{last:,}{of}", f"rows='{last + 1}-{last + len(rows)}'")
    yield _document(table, book, index, cols, first, rows, total, ctx, row_column=True)


def _read_window(
    table: Table, spec: RowSpec, cols: list[int], cap: int, ctx: Context
) -> tuple[int, list[list[Any]]]:
    """(first row number, rows) of the window, never more than ``cap`` rows materialized."""
    if spec.kind == "tail":
        n = min(spec.count, cap)
        _note_cap(spec.count, cap, ctx)
        return table.tail(n, cols)
    if spec.kind == "head":
        n = min(spec.count, cap)
        _note_cap(spec.count, cap, ctx)
        return 1, list(table.rows(1, n, cols))
    stop = spec.stop if spec.stop is not None else spec.start + cap - 1
    if stop - spec.start + 1 > cap:
        _note_cap(stop - spec.start + 1, cap, ctx)
        stop = spec.start + cap - 1
    return spec.start, list(table.rows(spec.start, stop, cols))


def _note_cap(asked: int, cap: int, ctx: Context) -> None:
    if asked > cap:
        ctx.warn(
            f"At most {cap:,} rows are read at once (memory.max_dataframe_rows); asked for {asked:,}."
        )


def _loader(book: Book, ctx: Context, deadline: Deadline) -> Iterator[Unit]:
    """Every selected sheet in turn, in chunks of ``tabular.rows_per_document`` rows."""
    per_doc = max(1, ctx.settings.tabular.rows_per_document)
    for index in _sheet_indices(book, ctx, all_sheets=True):
        table = book.table(index)
        if not table.columns:
            continue
        cols = _columns(table, ctx)
        spec = ctx.options.row_spec
        total = table.total(exact=True)
        if spec is not None and total.count is not None:
            check_row_window(spec, total.count, warn=ctx.warn, path=ctx.info.source)
        start, rows_iter = _loader_rows(table, spec, cols)
        chunk: list[list[Any]] = []
        if total.count == 0:  # a header without data: the column names are the content
            yield _document(table, book, index, cols, start, chunk, total, ctx, row_column=False)
        for row in rows_iter:
            chunk.append(row)
            if len(chunk) >= per_doc:
                yield _document(
                    table, book, index, cols, start, chunk, total, ctx, row_column=False
                )
                start, chunk = start + len(chunk), []
                deadline.restart()
        if chunk:
            yield _document(table, book, index, cols, start, chunk, total, ctx, row_column=False)


def _loader_rows(
    table: Table, spec: RowSpec | None, cols: list[int]
) -> tuple[int, Iterator[list[Any]]]:
    """(first row number, rows) for a loader: every row, or the ``rows`` window when given."""
    if spec is None:
        return 1, table.rows(1, None, cols)
    if spec.kind == "tail":
        first, rows = table.tail(spec.count, cols)
        return first, iter(rows)
    if spec.kind == "head":
        return 1, table.rows(1, spec.count, cols)
    return spec.start, table.rows(spec.start, spec.stop, cols)


def _document(
    table: Table, book: Book, index: int, cols: list[int], first: int, rows: list[list[Any]],
    total: Total, ctx: Context, *, row_column: bool,
) -> Document:  # fmt: skip
    """A markdown table of ``rows`` (the header repeated) with the canonical table metadata."""
    names = [table.columns[i] for i in cols]
    text = markdown_table(
        names, rows, text=plain_text, output=ctx.settings.output,
        first_row=first if row_column else None,
    )  # fmt: skip
    text = captioned(table.caption, text)
    if book.sheet_names is not None:  # a unit says which sheet it comes from, as a heading
        text = f"## Sheet: {escape_cell(book.sheet_names[index])}\n\n{text}"
    meta: dict[str, Any] = {"columns": names}
    if table.caption:
        meta["table_caption"] = table.caption
    if rows:
        meta.update(row_start=first, row_end=first + len(rows) - 1)
    if total.count is not None:
        meta["total_rows"] = total.count
        if not total.exact:
            meta["total_rows_note"] = total.how
    if book.sheet_names is not None:
        meta.update(
            sheet=book.sheet_names[index], sheet_index=index + 1, sheet_count=len(book.sheet_names)
        )
    if not ctx.loader:
        meta["column_types"] = ", ".join(
            f"{n} ({t})" for n, t in zip(names, column_types(table, cols, rows), strict=True)
        )
    return Document(text, meta)


def _sheet_header(book: Book, index: int, ctx: Context) -> None:
    """``Sheet: Q1 (1 of 3 sheets)`` and every sheet with its size (rows x columns)."""
    names = book.sheet_names
    if names is not None:
        ctx.set_header(
            "Sheet",
            f"{names[index]} ({index + 1} of {len(names)} sheet{'s' if len(names) != 1 else ''})",
        )
        sizes = []
        for i, name in enumerate(names[:_LISTED_SHEETS]):
            size = book.sheet_size(i)
            sizes.append(
                f"{name} ({size[0]:,} x {size[1]:,})" if size else f"{name} (size unknown)"
            )
        more = f", and {len(names) - _LISTED_SHEETS:,} more" if len(names) > _LISTED_SHEETS else ""
        ctx.set_header("Sheets (rows x columns)", ", ".join(sizes) + more)


_LISTED_SHEETS = 50  # a workbook's header lists this many sheets with their sizes
