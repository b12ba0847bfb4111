"""SQLite databases: schema (tables, views, columns, indexes, triggers, bounded row counts) and
row previews as markdown tables; ``table``/``sheet`` + ``rows``/``columns`` window one table.

The file is opened read-only and immutable (no journal replay, no lock, never a write), with
``trusted_schema=OFF``, no extension loading, and a progress handler that stops any statement
running past ``sqlite.statement_timeout`` (a view can hide an endless recursive query).
"""

from __future__ import annotations

import re
import sqlite3
from collections.abc import Iterator
from contextlib import closing
from dataclasses import dataclass
from pathlib import Path
from typing import Any, ClassVar

from ...errors import ExtractionError, ExtractionTimeoutError, InvalidOptionError
from ...model import Document, Unit
from ...request.ranges import RowSpec, select_columns
from ...source import Source
from ..base import Context, Extractor
from ..deadline import Deadline
from ..markdown import escape_cell, markdown_table

MAGIC = b"SQLite format 3\x00"
# A crafted schema must stay cheap: one CREATE statement is at most this long (longer ones make
# the schema unreadable, a typed error); at most this many tables/views are described and
# triggers listed; describing them stops after this many seconds; a view that expands into more
# than this many view references (views of views, joined many times) is not compiled, since
# SQLite cannot interrupt the compilation; at most this many per-table notes are given.
MAX_SCHEMA_SQL = 1_000_000
MAX_OBJECTS = 1000
SCHEMA_SECONDS = 2.0
MAX_VIEW_EXPANSION = 8
MAX_TABLE_NOTES = 20
# columns described in the schema and shown in previews, all tables together (a schema of
# thousands of wide tables is megabytes of text an agent cannot use)
MAX_SCHEMA_COLUMNS = 10_000
MAX_NAME = 1000  # characters of a column name or declared type kept
_IDENT = re.compile(r'"((?:[^"]|"")+)"|`([^`]+)`|\[([^\]]+)\]|([A-Za-z_][\w$]*)')


@dataclass(frozen=True, slots=True)
class Column:
    name: str
    type: str
    pk: int
    notnull: bool


@dataclass(frozen=True, slots=True)
class Relation:
    """A table or view, its columns, its indexes and a row count capped at ``max_rows``."""

    kind: str  # "table" | "view"
    name: str
    columns: tuple[Column, ...]
    indexes: tuple[str, ...]
    rows: int | None  # None: could not be counted (error or timeout)
    capped: bool

    @property
    def count_text(self) -> str:
        if self.rows is None:
            return "unknown"
        return f"{self.rows:,}+" if self.capped else f"{self.rows:,}"


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
            relations = db.relations()
            wanted = ctx.options.table or ctx.options.sheet
            if wanted is not None:
                rel = _pick(relations, wanted, ctx)
                yield from db.window(rel, relations)
                return
            ctx.set_header("Database", ctx.info.name)
            ctx.set_header("Tables", _inventory(relations))
            yield Document(schema_text(relations, db.triggers()), {"table_count": len(relations)})
            for rel in relations:
                ctx.check_deadline(f"table {rel.name}")
                try:
                    yield from (db.chunks(rel) if ctx.loader else db.preview(rel))
                except (
                    sqlite3.Error,
                    ExtractionError,
                    ExtractionTimeoutError,
                ) as exc:  # one bad table
                    db.warn(f"{ctx.info.source}: rows of {rel.name!r} could not be read ({exc}).")
            db.flush_notes()


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


def connect(source: Source, ctx: Context) -> sqlite3.Connection:
    """Read-only, immutable, untrusted-schema connection with a per-statement time limit."""
    uri = source.as_path().as_uri() + "?mode=ro&immutable=1"  # a private copy: never re-resolved
    conn = sqlite3.connect(uri, uri=True, check_same_thread=False, isolation_level=None)
    try:
        if hasattr(conn, "enable_load_extension"):
            conn.enable_load_extension(False)
        if hasattr(conn, "setlimit"):  # Python 3.11+: a huge CREATE statement is refused unparsed
            conn.setlimit(sqlite3.SQLITE_LIMIT_SQL_LENGTH, MAX_SCHEMA_SQL)
        conn.execute("PRAGMA trusted_schema=OFF")
        conn.execute("PRAGMA query_only=ON")
        conn.text_factory = lambda b: b.decode("utf-8", "replace")
    except sqlite3.Error:
        conn.close()
        raise
    return conn


class Database:
    """Statements against one connection, each under ``sqlite.statement_timeout``."""

    def __init__(self, conn: sqlite3.Connection, ctx: Context) -> None:
        self.conn, self.ctx = conn, ctx
        self.settings = ctx.settings.sqlite
        self._statement = ctx.time_limit(
            self.settings.statement_timeout,
            "sqlite.statement_timeout",
            task="a query",
            advice="select a smaller rows window",
        )
        self._notes = self._dropped = 0
        self.costly: set[str] = set()
        self._previews: Deadline | None = None
        self._late_previews: list[str] = []
        self._work: Deadline | None = None  # describing or previewing: interrupted when it ends
        self._preview_work: Deadline | None = None
        self.columns_left = self.preview_columns_left = MAX_SCHEMA_COLUMNS
        conn.set_progress_handler(self._progress, 10_000)

    def warn(self, message: str) -> None:
        """A per-table note; past ``MAX_TABLE_NOTES`` they are counted, said once at the end."""
        self._notes += 1
        if self._notes <= MAX_TABLE_NOTES:
            self.ctx.warn(message)
        else:
            self._dropped += 1

    def flush_notes(self) -> None:
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
        if self._dropped:
            self.ctx.warn(
                f"{self.ctx.info.source}: {self._dropped:,} more tables or views had the same "
                f"kind of problem (notes past the first {MAX_TABLE_NOTES} are not listed)."
            )
            self._dropped = 0

    def _budget(self, task: str, *, statements: bool = False) -> Deadline:
        """SCHEMA_SECONDS (at most the statement timeout) for describing or previewing; with
        ``statements`` the whole SCHEMA_SECONDS, past which a running statement is stopped."""
        limit = (
            SCHEMA_SECONDS if statements else min(SCHEMA_SECONDS, self.settings.statement_timeout)
        )
        return self.ctx.time_limit(limit, "SCHEMA_SECONDS", task=task)

    def _progress(self) -> int:
        """Non-zero interrupts the statement: its own limit, the schema work's or the global
        one has run out."""
        work = self._work is not None and self._work.expired()
        return int(work or self._statement.expired() or self.ctx.timer.expired())

    def query(
        self, sql: str, params: tuple[Any, ...] = (), what: str = ""
    ) -> list[tuple[Any, ...]]:
        """Run one statement to completion within the timeout (and the global deadline)."""
        self._statement.restart()
        try:
            return self.conn.execute(sql, params).fetchall()
        except sqlite3.DatabaseError as exc:  # OperationalError (interrupted) is one too
            if "interrupted" in str(exc):  # by _progress: raise the limit that ran out
                self._statement.check(what)
                if self._work is not None:
                    self._work.check(what)
            if "malformed database schema" in str(exc) and "too big" in str(exc):
                raise ExtractionError(
                    f"{self.ctx.info.source}: a CREATE statement in the schema is over "
                    f"{MAX_SCHEMA_SQL:,} characters (the schema limit of the sqlite reader, "
                    f"MAX_SCHEMA_SQL); the database is not read ({exc})",
                    path=self.ctx.info.source,
                ) from exc
            if "not a database" in str(exc) or "malformed" in str(exc):
                raise ExtractionError(
                    f"{self.ctx.info.source}: the SQLite file is damaged ({exc})",
                    path=self.ctx.info.source,
                ) from exc
            raise

    def relations(self) -> list[Relation]:
        """User tables and views (at most ``MAX_OBJECTS``) with columns, indexes and a bounded
        row count; past ``SCHEMA_SECONDS``, or for a view too costly to compile, only the name."""
        where = self.ctx.info.source
        user = "type IN ('table','view') AND name NOT LIKE 'sqlite\\_%' ESCAPE '\\'"
        total = self.query(f"SELECT count(*) FROM sqlite_master WHERE {user}")[0][0]
        pick = "SELECT type, name, CASE type WHEN 'view' THEN sql END FROM sqlite_master WHERE "
        rows = self.query(
            f"{pick}{user} ORDER BY type, name LIMIT {MAX_OBJECTS}", what="reading the schema"
        )
        wanted = self.ctx.options.table or self.ctx.options.sheet
        if isinstance(wanted, str) and total > len(rows) and wanted not in {r[1] for r in rows}:
            rows += self.query(f"{pick}{user} AND name = ?", (wanted,))  # past the cap, by name
        if total > len(rows) and len(rows) == MAX_OBJECTS:
            self.ctx.warn(
                f"{where}: the database has {total:,} tables and views; the first {MAX_OBJECTS:,} "
                f"are described (the schema limit of the sqlite reader, MAX_OBJECTS); read "
                f"another one with table=NAME"
            )
        indexes: dict[str, list[str]] = {}
        for name, table in self.query(
            "SELECT name, tbl_name FROM sqlite_master WHERE type='index' ORDER BY name "
            f"LIMIT {MAX_OBJECTS}"
        ):
            indexes.setdefault(table, []).append(name)
        costly = self.costly = _costly_views(
            {name: sql or "" for kind, name, sql in rows if kind == "view"}
        )
        schema_time = self._budget("describing the schema")
        self._work = self._budget("describing the schema", statements=True)
        out: list[Relation] = []
        late: list[str] = []
        skipped: list[str] = []
        unlisted: list[str] = []
        for kind, name, _ in rows:
            self.ctx.check_deadline(f"schema of {name}")
            keys = tuple(indexes.get(name, ()))
            if name in costly or schema_time.expired() or self.columns_left <= 0:
                (skipped if name in costly else late if self.columns_left else unlisted).append(
                    name
                )
                out.append(Relation(kind, name, (), keys, None, False))
                continue
            cols = self._columns(name)
            self.columns_left -= len(cols)
            count, capped = self._count(name, kind)
            out.append(Relation(kind, name, cols, keys, count, capped))
        self._work = None
        if skipped:
            self.ctx.warn(
                f"{where}: {len(skipped):,} view(s) expand into more than {MAX_VIEW_EXPANSION} "
                f"nested view references (MAX_VIEW_EXPANSION): not compiled, columns and rows "
                f"not read ({', '.join(repr(n) for n in skipped[:10])}"
                f"{', ...' if len(skipped) > 10 else ''})"
            )
        if unlisted:
            self.ctx.warn(
                f"{where}: the schema lists at most {MAX_SCHEMA_COLUMNS:,} columns "
                f"(MAX_SCHEMA_COLUMNS); {len(unlisted):,} tables/views are listed without columns "
                f"or row counts ({', '.join(repr(n) for n in unlisted[:10])}"
                f"{', ...' if len(unlisted) > 10 else ''}); read one with table=NAME"
            )
        if late:
            self.ctx.warn(
                f"{where}: describing the schema took over {SCHEMA_SECONDS:g} s "
                f"(SCHEMA_SECONDS); {len(late):,} tables/views are listed without columns or "
                f"row counts; read one with table=NAME"
            )
        self.flush_notes()
        return out

    def triggers(self) -> list[tuple[str, str]]:
        return [
            (n, t)
            for n, t in self.query(
                "SELECT name, tbl_name FROM sqlite_master WHERE type='trigger' ORDER BY name "
                f"LIMIT {MAX_OBJECTS}"
            )
        ]

    def _columns(self, name: str) -> tuple[Column, ...]:
        try:
            info = self.query(f"PRAGMA table_info({quote(name)})", what=f"columns of {name}")
        except (sqlite3.Error, ExtractionTimeoutError) as exc:
            self.warn(f"{self.ctx.info.source}: columns of {name!r} could not be read ({exc}).")
            return ()
        cap = self.ctx.settings.memory.max_dataframe_cols
        if len(info) > cap:
            self.warn(
                f"{self.ctx.info.source}: {name!r} has {len(info):,} columns; the first {cap:,} are "
                f"shown and read (memory.max_dataframe_cols)."
            )
        return tuple(
            Column(str(r[1])[:MAX_NAME], str(r[2] or "")[:MAX_NAME], int(r[5] or 0), bool(r[3]))
            for r in info[:cap]
        )

    def _count(self, name: str, kind: str) -> tuple[int | None, bool]:
        """Exact for tables (count(*) walks the smallest b-tree); at most max_rows + 1 for views,
        whose query may be arbitrarily expensive; None when it fails or times out."""
        cap = self.settings.max_rows
        sql = f"SELECT count(*) FROM {quote(name)}"
        if kind == "view":
            sql = f"SELECT count(*) FROM (SELECT 1 FROM {quote(name)} LIMIT {cap + 1})"
        try:
            ((n,),) = self.query(sql, what=f"counting rows of {name}")
        except (sqlite3.Error, ExtractionTimeoutError) as exc:
            self.warn(f"{self.ctx.info.source}: rows of {name!r} could not be counted ({exc}).")
            return None, False
        return (cap, True) if kind == "view" and n > cap else (int(n), False)

    def rows(self, rel: Relation, cols: list[int], first: int, last: int) -> list[tuple[Any, ...]]:
        """Rows ``first``..``last`` (1-based, inclusive) of the chosen columns, cells bounded."""
        limit = self.ctx.settings.output.max_cell_content
        exprs = ", ".join(bounded(quote(rel.columns[i].name), limit) for i in cols)
        return self.query(
            f"SELECT {exprs} FROM {quote(rel.name)} LIMIT ? OFFSET ?",
            (max(last - first + 1, 0), first - 1),
            what=f"reading rows of {rel.name}",
        )

    def preview(self, rel: Relation) -> Iterator[Document]:
        """The first ``sqlite.preview_rows`` rows of a relation (agent view without a table);
        after ``SCHEMA_SECONDS`` of previews, the rest are listed in a note instead."""
        if self._previews is None:
            self._previews = self._budget("showing row previews")
            self._preview_work = self._budget("showing row previews", statements=True)
        if self._previews.expired() or self.preview_columns_left <= 0:
            self._late_previews.append(rel.name)
            return
        self._work = self._preview_work
        self.preview_columns_left -= len(rel.columns)
        try:  # the rows are read here, under the previews' budget, not at the consumer's pace
            docs = list(
                self._block(
                    rel, list(range(len(rel.columns))), 1, self.settings.preview_rows, "Preview"
                )
            )
        finally:
            self._work = None
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
        if not rel.columns and rel.name not in self.costly:  # not described within the budget
            count, capped = self._count(rel.name, rel.kind)
            rel = Relation(rel.kind, rel.name, self._columns(rel.name), rel.indexes, count, capped)
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


def _costly_views(views: dict[str, str]) -> set[str]:
    """Views whose compilation would expand more than ``MAX_VIEW_EXPANSION`` view references:
    each view's cost is 1 + the cost of every view it names (counted as often as named), from
    the identifiers in its SQL; a cycle counts as costly."""
    lowered = {name.lower(): name for name in views}
    refs: dict[str, list[str]] = {}
    for name, sql in views.items():
        found = (next(g for g in m.groups() if g) for m in _IDENT.finditer(sql))
        refs[name] = [lowered[w.lower()] for w in found if w.lower() in lowered and w != name]
    cost: dict[str, int] = {}

    def expand(name: str, path: set[str]) -> int:
        if name in cost:
            return cost[name]
        if name in path or len(path) > MAX_VIEW_EXPANSION:  # a cycle, or a chain that long
            return MAX_VIEW_EXPANSION + 1
        path.add(name)
        total = 1
        for ref in refs[name]:
            total += expand(ref, path)
            if total > MAX_VIEW_EXPANSION:
                break
        path.discard(name)
        cost[name] = total
        return total

    return {name for name in views if expand(name, set()) > MAX_VIEW_EXPANSION}


def schema_text(relations: list[Relation], triggers: list[tuple[str, str]]) -> str:
    """The schema block: each table/view with its row count, columns, keys and indexes."""
    parts = ["## Schema"]
    if not relations:
        parts.append("(no tables)")
    for rel in relations:
        lines = [
            f"### {rel.kind.title()}: {escape_cell(rel.name)} ({rel.count_text} row{'s' * (rel.rows != 1)})"
        ]
        for c in rel.columns:
            flags = [
                f
                for f, on in (("PK" if c.pk == 1 else f"PK{c.pk}", c.pk), ("NOT NULL", c.notnull))
                if on
            ]
            lines.append(
                f"  - {escape_cell(c.name)} {escape_cell(c.type) or 'ANY'}{' ' + ' '.join(flags) if flags else ''}"
            )
        if rel.indexes:
            lines.append(f"  - indexes: {', '.join(escape_cell(i) for i in rel.indexes)}")
        parts.append("\n".join(lines))
    if triggers:
        parts.append(
            "### Triggers\n"
            + "\n".join(f"  - {escape_cell(n)} on {escape_cell(t)}" for n, t in triggers)
        )
    return "\n\n".join(parts)


def bounded(column: str, limit: int) -> str:
    """A column expression that never brings a huge value into memory: a blob becomes its
    size, text over ``limit`` characters is cut in SQL with cut_cell's marker."""
    return (
        f"CASE typeof({column}) WHEN 'blob' THEN printf('<BLOB %,d bytes>', length({column})) "
        f"WHEN 'text' THEN CASE WHEN length({column}) > {limit} THEN substr({column}, 1, {limit}) "
        f"|| printf('... [cell truncated: %,d chars]', length({column})) ELSE {column} END "
        f"ELSE {column} END"
    )


def quote(name: str) -> str:
    """An SQL identifier, double-quoted (names from the file itself are never trusted)."""
    return '"' + name.replace('"', '""') + '"'


def _value(v: Any) -> str:
    return "NULL" if v is None else str(v)


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
