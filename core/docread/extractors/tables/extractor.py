"""Tables (CSV, TSV, JSONL, Parquet, XLSX, XLS, ODS, tabular JSON): a sheet/rows/columns window
read without loading the file, rendered as markdown tables with a Row column; loaders get every
sheet in chunks of ``tabular.rows_per_document`` rows with sheet and row provenance."""

from __future__ import annotations

import math
from collections.abc import Iterator
from itertools import islice
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
from .model import Book, Numbered, Table, Total, column_types, plain_text


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
            yield from _with_properties(_with_sheet_notes(units, book, source, ctx), source, ctx)


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


def _with_sheet_notes(
    units: Iterator[Unit], book: Book, source: Source, ctx: Context
) -> Iterator[Unit]:
    """An XLSX's charts (title, kind, series; their data is the sheet's cells) and review
    comments (threaded and notes: cell, author, date, text): in a loader, a Document per sheet
    holding any, after the sheets' rows; in the agent view, ``Charts`` and ``Comments`` header
    lines for the sheet shown."""
    if ctx.info.format != "xlsx":
        yield from units
        return
    from ..office.charts import workbook_charts
    from ..office.comments import workbook_comments
    from ..office.package import OfficeZip

    with OfficeZip(source.fd_path(), ctx.info.source, ctx.settings.archive) as oz:
        found = {"charts": workbook_charts(oz), "comments": workbook_comments(oz)}
    names = book.sheet_names or []
    yield from units
    if not ctx.loader:
        shown = _sheet_indices(book, ctx, all_sheets=False)
        for key, by_sheet in found.items():
            if shown and names and (lines := by_sheet.get(names[shown[0]])):
                ctx.set_header(
                    key.capitalize(), "; ".join(x.removeprefix("Chart: ") for x in lines)
                )
        return
    for index, name in enumerate(names, 1):
        kinds = {key: by_sheet[name] for key, by_sheet in found.items() if name in by_sheet}
        if not kinds:
            continue
        blocks = [f"{key.capitalize()}:\n" + "\n".join(f"- {x}" for x in lines)
                  for key, lines in kinds.items()]  # fmt: skip
        text = f"## Sheet: {name}, {' and '.join(kinds)}\n\n" + "\n\n".join(blocks)
        meta = {"sheet": name, "sheet_index": index, "sheet_count": len(names)}
        yield Document(text, {**meta, **{key: len(lines) for key, lines in kinds.items()}})


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
    most = 2 * ctx.settings.output.max_chars  # what one view shows, and as much again
    read = _Budgeted(_window_rows(table, spec, cols, cap, ctx), len(cols), ctx, most)
    rows = list(read)
    if read.full:
        ctx.warn(
            f"The window stops at row {rows[-1][0]:,}: its text passed {most:,} characters, twice"
            " what one view shows (output.max_chars); the header says how to read on."
        )
    total = table.total(exact=False)
    if total.exact and total.count is not None:
        check_row_window(spec, total.count, warn=ctx.warn, path=ctx.info.source)
    if not rows:
        start = spec.start if spec.kind == "range" else 1
        if total.count is None or start <= total.count:  # rows there, none holding a value
            ctx.warn(f"rows={spec.text or 'head'!r} holds no values in the columns read.")
        else:
            ctx.warn(
                f"rows={spec.text or 'head'!r} selects no rows: the table has "
                f"{total.count:,} data rows."
            )
        if start == 1 and not total.count:  # a header without data: the names are the content
            yield _document(table, book, index, cols, rows, total, ctx, row_column=True)
        return
    first, last = rows[0][0], rows[-1][0]
    of = f" of {total.label()}" if total.count is not None else ""
    ctx.set_header("Rows", f"{first:,}-{last:,}{of}")
    ctx.set_header(
        "Columns",
        compact_spans(cols, name=column_letter)
        + (f" ({len(cols)} of {len(table.columns)})" if len(cols) < len(table.columns) else ""),
    )
    if total.count is None or last < total.count:
        size = max(len(rows), last - first + 1)
        ctx.read_on(f"rows {first:,}-{last:,}{of}", f"rows='{last + 1}-{last + size}'")
    yield _document(table, book, index, cols, rows, total, ctx, row_column=True, cut=read.cut)


def _window_rows(
    table: Table, spec: RowSpec, cols: list[int], cap: int, ctx: Context
) -> Iterator[Numbered]:
    """The rows of the window, never more than ``cap``."""
    if spec.kind == "tail":
        n = min(spec.count, cap)
        _note_cap(spec.count, cap, ctx)
        return iter(table.tail(n, cols))
    if spec.kind == "head":
        n = min(spec.count, cap)
        _note_cap(spec.count, cap, ctx)
        return table.rows(1, n, cols)
    stop = spec.stop if spec.stop is not None else spec.start + cap - 1
    if stop - spec.start + 1 > cap:
        _note_cap(stop - spec.start + 1, cap, ctx)
        stop = spec.start + cap - 1
    return table.rows(spec.start, stop, cols)


class _Budgeted:
    """``rows`` until the text they make is past what is left of the read's output budget
    (``Context.text_left``): the row that passes it is the last, and ``cut`` is then the line
    the last unit ends with (``Context.out_of_text``), so a huge window is never read whole;
    or until it is past ``most`` characters (``full``: an agent view's window). Rows are only
    counted once they could pass a limit (every one of its ``width`` cells at its longest), and
    then from zero, so a limit is met late (at most twice over), never early, and a common table
    costs nothing."""

    def __init__(
        self, rows: Iterator[Numbered], width: int, ctx: Context, most: float = math.inf
    ) -> None:
        self.rows, self.width, self.ctx, self.most = rows, width, ctx, most
        self.cut, self.full = "", False

    def __iter__(self) -> Iterator[Numbered]:
        room, cell = self.ctx.text_left(), self.ctx.settings.output.max_cell_content
        limit = min(room, self.most)
        try:
            if not math.isfinite(limit):
                yield from self.rows
                return
            # rows that cannot pass a limit even with every cell at its longest (cut at
            # max_cell_content, with its marker) pass uncounted
            yield from islice(self.rows, int(limit // (self.width * (cell + 40) + 8)))
            chars = 0
            for row in self.rows:
                chars += _row_chars(row[1], cell) + 8
                if chars > room:  # said before the row is handed out: its unit is the last
                    self.cut = self.ctx.out_of_text()
                    yield row
                    return
                yield row
                if chars > self.most:
                    self.full = True
                    return
        finally:
            close = getattr(self.rows, "close", None)
            if close is not None:
                close()  # the sheet's parse stops here


def _row_chars(values: list[Any], cell: int) -> int:
    """About the characters a row makes in a pipe table (cells cut at ``cell``)."""
    try:  # text cells (CSV) at C speed
        if max(map(len, values), default=0) <= cell:
            return sum(map(len, values)) + 3 * len(values)
    except TypeError:
        pass
    return sum(min(len(plain_text(v)), cell) + 3 for v in values)


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
        chunk: list[Numbered] = []
        read, shown = _Budgeted(_loader_rows(table, spec, cols), len(cols), ctx), False
        for row in read:
            chunk.append(row)
            if len(chunk) >= per_doc and not read.cut:
                yield _document(table, book, index, cols, chunk, total, ctx, row_column=False)
                chunk, shown = [], True
                deadline.restart()
        if chunk or not shown:  # no row holding a value: the column names are the content
            yield _document(
                table, book, index, cols, chunk, total, ctx, row_column=False, cut=read.cut
            )
        if read.cut:
            return


def _loader_rows(table: Table, spec: RowSpec | None, cols: list[int]) -> Iterator[Numbered]:
    """The rows for a loader: every row, or the ``rows`` window when given."""
    if spec is None:
        return table.rows(1, None, cols)
    if spec.kind == "tail":
        return iter(table.tail(spec.count, cols))
    if spec.kind == "head":
        return table.rows(1, spec.count, cols)
    return table.rows(spec.start, spec.stop, cols)


def _document(
    table: Table, book: Book, index: int, cols: list[int], rows: list[Numbered],
    total: Total, ctx: Context, *, row_column: bool, cut: str = "",
) -> Document:  # fmt: skip
    """A markdown table of ``rows`` (the header repeated) with the canonical table metadata;
    ``cut``: the line saying where the read stopped, under the table."""
    names = [table.columns[i] for i in cols]
    text = markdown_table(
        names, [row for _, row in rows], text=plain_text, output=ctx.settings.output,
        numbers=[n for n, _ in rows] if row_column else None,
    )  # fmt: skip
    text = captioned(table.caption, text) + (f"\n\n{cut}" if cut else "")
    if book.sheet_names is not None:  # a unit says which sheet it comes from, as a heading
        text = f"## Sheet: {escape_cell(book.sheet_names[index])}\n\n{text}"
    meta: dict[str, Any] = {"columns": names}
    if table.caption:
        meta["table_caption"] = table.caption
    if rows:
        meta.update(row_start=rows[0][0], row_end=rows[-1][0])
    if total.count is not None:
        meta["total_rows"] = total.count
        if not total.exact:
            meta["total_rows_note"] = total.how
    if book.sheet_names is not None:
        meta.update(
            sheet=book.sheet_names[index], sheet_index=index + 1, sheet_count=len(book.sheet_names)
        )
    if not ctx.loader:
        values = [row for _, row in rows]
        meta["column_types"] = ", ".join(
            f"{n} ({t})" for n, t in zip(names, column_types(table, cols, values), strict=True)
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
