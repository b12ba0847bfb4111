"""Rows of a database's tables as markdown tables: previews of every table (the agent view),
chunks of every row (loaders), one table windowed by ``rows``/``columns`` like a sheet. Cells
are bounded in SQL (a blob is its size, long text is cut), never brought into memory whole."""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

from ...model import Document
from ...request.ranges import RowSpec, select_columns
from ..markdown import escape_cell, markdown_table
from .database import SCHEMA_SECONDS, Database, quote
from .schema import MAX_SCHEMA_COLUMNS, Relation, columns, row_count

if TYPE_CHECKING:
    from ..deadline import Deadline


class Rows:
    """The rows of one database, read under its statements' limits; previews share one
    ``SCHEMA_SECONDS`` budget and ``MAX_SCHEMA_COLUMNS`` columns, the rest are named in a note."""

    def __init__(self, db: Database) -> None:
        self.db, self.ctx = db, db.ctx
        self.settings = db.settings
        self._previews: Deadline | None = None
        self._preview_work: Deadline | None = None
        self._late_previews: list[str] = []
        self.preview_columns_left = MAX_SCHEMA_COLUMNS

    def flush_notes(self) -> None:
        """The tables shown without previews, then the per-table notes past their cap."""
        if self._late_previews:
            late = self._late_previews
            self.ctx.warn(
                f"{self.ctx.info.source}: row previews stop after {SCHEMA_SECONDS:g} s "
                f"(SCHEMA_SECONDS) or {MAX_SCHEMA_COLUMNS:,} columns shown in all "
                f"(MAX_SCHEMA_COLUMNS); {len(late):,} tables/views are shown without them "
                f"({', '.join(repr(n) for n in late[:10])}{', ...' if len(late) > 10 else ''}); "
                f"read one with table=NAME"
            )
            self._late_previews = []
        self.db.flush_notes()

    def rows(self, rel: Relation, cols: list[int], first: int, last: int) -> list[tuple[Any, ...]]:
        """Rows ``first``..``last`` (1-based, inclusive) of the chosen columns, cells bounded."""
        limit = self.ctx.settings.output.max_cell_content
        exprs = ", ".join(bounded(quote(rel.columns[i].name), limit) for i in cols)
        return self.db.query(
            f"SELECT {exprs} FROM {quote(rel.name)} LIMIT ? OFFSET ?",
            (max(last - first + 1, 0), first - 1),
            what=f"reading rows of {rel.name}",
        )

    def preview(self, rel: Relation) -> Iterator[Document]:
        """The first ``sqlite.preview_rows`` rows of a relation (agent view without a table);
        after ``SCHEMA_SECONDS`` of previews, the rest are listed in a note instead."""
        if self._previews is None:
            self._previews = self.db.budget("showing row previews")
            self._preview_work = self.db.budget("showing row previews", statements=True)
        if self._previews.expired() or self.preview_columns_left <= 0:
            self._late_previews.append(rel.name)
            return
        self.db.work = self._preview_work
        self.preview_columns_left -= len(rel.columns)
        try:  # the rows are read here, under the previews' budget, not at the consumer's pace
            docs = list(
                self._block(
                    rel, list(range(len(rel.columns))), 1, self.settings.preview_rows, "Preview"
                )
            )
        finally:
            self.db.work = None
        yield from docs

    def chunks(self, rel: Relation) -> Iterator[Document]:
        """Loader mode: every row (up to ``sqlite.max_rows``) in chunks of ``tabular.rows_per_document``."""
        cols = list(range(len(rel.columns)))
        per = self.ctx.settings.tabular.rows_per_document
        cap = self.settings.max_rows
        total = min(rel.rows or 0, cap)
        if rel.capped or (rel.rows or 0) > cap:
            self.ctx.warn(
                f"{self.ctx.info.source}: {rel.name!r} has {rel.count_text} rows; only the first "
                f"{cap:,} were read (sqlite.max_rows); use table={rel.name!r} with rows to read on"
            )
        for start in range(1, total + 1, per):
            self.ctx.check_deadline(f"rows of {rel.name}")
            yield from self._block(rel, cols, start, min(start + per - 1, total), "Rows")

    def window(self, rel: Relation, relations: list[Relation]) -> Iterator[Document]:
        """One table, windowed by ``rows``/``columns`` like a spreadsheet (agent view or loader)."""
        opts, ctx = self.ctx.options, self.ctx
        if not rel.columns and not rel.costly:  # not described within the budget
            count, capped = row_count(self.db, rel.name, rel.kind)
            rel = Relation(rel.kind, rel.name, columns(self.db, rel.name), rel.indexes, count, capped)
        total = self.settings.max_rows if rel.rows is None else rel.rows  # uncounted: try the cap
        names = [c.name for c in rel.columns]
        cols = select_columns(opts.column_spec, names, path=ctx.info.source)
        default = ctx.settings.tabular.default_rows
        row_spec = opts.row_spec or (None if ctx.loader else RowSpec("head", count=default))
        exact = rel.rows is not None and not rel.capped
        first, last = (
            row_spec.bounds(total, warn=ctx.warn if exact else None, path=ctx.info.source)
            if row_spec
            else (1, total)
        )
        if last - first + 1 > self.settings.max_rows:
            last = first + self.settings.max_rows - 1
            ctx.warn(
                f"{ctx.info.source}: at most sqlite.max_rows={self.settings.max_rows:,} rows are read at once"
            )
        index = [r.name for r in relations].index(rel.name) + 1
        ctx.set_header("Table", f"{rel.name} ({index} of {len(relations)} tables and views)")
        ctx.set_header(
            "Rows",
            f"{first:,}-{last:,} of {rel.count_text}"
            if last >= first
            else f"none of {rel.count_text}",
        )
        ctx.set_header("Columns", ", ".join(names[i] for i in cols))
        if last < total and not ctx.loader:
            ctx.read_on(f"rows {first}-{last} of {rel.count_text}", f"rows={last + 1}-")
        if ctx.loader:
            per = ctx.settings.tabular.rows_per_document
            for start in range(first, last + 1, per):
                yield from self._block(rel, cols, start, min(start + per - 1, last), "Rows")
        else:
            yield from self._block(rel, cols, first, last, "Rows")

    def _block(
        self, rel: Relation, cols: list[int], first: int, last: int, label: str
    ) -> Iterator[Document]:
        rows = self.rows(rel, cols, first, last) if last >= first and rel.columns else []
        end = first + len(rows) - 1
        heading = f"## {rel.kind.title()}: {escape_cell(rel.name)}"
        if rows:
            heading += f" ({label.lower()} {first:,}-{end:,} of {rel.count_text})"
        names = [rel.columns[i].name for i in cols]
        table = (
            markdown_table(names, rows, text=_value, numbers=range(first, first + len(rows)))
            if rows
            else "(no rows)"
        )
        meta: dict[str, Any] = {
            "table": rel.name,
            "table_type": rel.kind,
            "columns": ", ".join(names),
        }
        if rel.rows is not None:
            meta["row_count"] = rel.rows
            meta["total_rows"] = rel.rows
        if rows:
            meta.update(row_start=first, row_end=end)
        yield Document(f"{heading}\n\n{table}", meta)


def bounded(column: str, limit: int) -> str:
    """A column expression that never brings a huge value into memory: a blob becomes its
    size, text over ``limit`` characters is cut in SQL with cut_cell's marker."""
    return (
        f"CASE typeof({column}) WHEN 'blob' THEN printf('<BLOB %,d bytes>', length({column})) "
        f"WHEN 'text' THEN CASE WHEN length({column}) > {limit} THEN substr({column}, 1, {limit}) "
        f"|| printf('... [cell truncated: %,d chars]', length({column})) ELSE {column} END "
        f"ELSE {column} END"
    )


def _value(v: Any) -> str:
    return "NULL" if v is None else str(v)
