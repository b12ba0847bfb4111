"""SQLite databases: schema (tables, views, columns, indexes, triggers, bounded row counts) and
row previews as markdown tables; ``table``/``sheet`` + ``rows``/``columns`` window one table.

The file is opened read-only and immutable, never written (``database``); the schema is read
within its budgets (``schema``), the rows as markdown tables (``rows``).
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator
from contextlib import closing
from pathlib import Path
from typing import ClassVar

from ...errors import ExtractionError, ExtractionTimeoutError, InvalidOptionError
from ...model import Document, Unit
from ...source import Source
from ..base import Context, Extractor
from .database import Database, connect
from .rows import Rows
from .schema import Relation, relations, schema_text, triggers

MAGIC = b"SQLite format 3\x00"


class SqliteExtractor(Extractor):
    """SQLite 3 files: schema document, then row previews (agent view) or row chunks (loader)."""

    name: ClassVar[str] = "sqlite"
    options: ClassVar[frozenset[str]] = frozenset({"table", "sheet", "rows", "columns"})
    version: ClassVar[int] = 1
    cacheable: ClassVar[bool] = False
    isolated: ClassVar[bool] = True

    def extract(self, source: Source, ctx: Context) -> Iterator[Unit]:
        if source.head(len(MAGIC)) != MAGIC:
            raise ExtractionError(
                f"{ctx.info.source}: not an SQLite 3 database (no 'SQLite format 3' header); "
                f"read it with format_hint='text' or the right format",
                path=ctx.info.source,
            )
        _note_side_files(source, ctx)
        with closing(connect(source, ctx)) as conn:
            db = Database(conn, ctx)
            described = relations(db)
            rows = Rows(db)
            wanted = ctx.options.table or ctx.options.sheet
            if wanted is not None:
                rel = _pick(described, wanted, ctx)
                yield from rows.window(rel, described)
                return
            ctx.set_header("Database", ctx.info.name)
            ctx.set_header("Tables", _inventory(described))
            yield Document(schema_text(described, triggers(db)), {"table_count": len(described)})
            for rel in described:
                ctx.check_deadline(f"table {rel.name}")
                try:
                    yield from (rows.chunks(rel) if ctx.loader else rows.preview(rel))
                except (
                    sqlite3.Error,
                    ExtractionError,
                    ExtractionTimeoutError,
                ) as exc:  # one bad table
                    db.warn(f"{ctx.info.source}: rows of {rel.name!r} could not be read ({exc}).")
            rows.flush_notes()


def _note_side_files(source: Source, ctx: Context) -> None:
    """Say when a WAL or a hot journal sits next to the file: immutable mode ignores both."""
    if source.in_memory or source.path is None:
        return
    wal, journal = (Path(f"{source.path}{suffix}") for suffix in ("-wal", "-journal"))
    if wal.is_file() and wal.stat().st_size:
        ctx.warn(
            f"{ctx.info.source}: {wal.name} holds changes not yet checkpointed into the file; they "
            f"are not shown (the file is read immutable, never written). Run PRAGMA wal_checkpoint "
            f"in the application that owns it to include them."
        )
    if journal.is_file() and journal.stat().st_size:
        ctx.warn(
            f"{ctx.info.source}: a rollback journal ({journal.name}) from an interrupted write "
            f"sits next to the file; the file is read as it is, without rolling back."
        )


def _inventory(relations: list[Relation]) -> str:
    tables = sum(r.kind == "table" for r in relations)
    views = len(relations) - tables
    return f"{tables} table{'s' * (tables != 1)}, {views} view{'s' * (views != 1)}"


def _pick(relations: list[Relation], wanted: str | int, ctx: Context) -> Relation:
    """The table named by ``table``/``sheet`` (a name, or a 0-based index like sheets)."""
    for rel in relations:
        if rel.name == wanted:
            return rel
    if isinstance(wanted, int) and wanted < len(relations):
        return relations[wanted]
    lowered = [r for r in relations if isinstance(wanted, str) and r.name.lower() == wanted.lower()]
    if len(lowered) == 1:
        return lowered[0]
    known = ", ".join(r.name for r in relations[:60]) or "(none)"
    raise InvalidOptionError(
        f"{ctx.info.source}: no table or view named {wanted!r}; the database has: {known}",
        path=ctx.info.source,
    )
