"""The schema of a database: tables and views (at most ``MAX_OBJECTS``) with their columns,
indexes and bounded row counts, within ``SCHEMA_SECONDS`` and ``MAX_SCHEMA_COLUMNS``; views
too costly to compile are named only; the schema block shown first."""

from __future__ import annotations

import re
import sqlite3
from dataclasses import dataclass

from ...errors import ExtractionTimeoutError
from ..markdown import escape_cell
from .database import SCHEMA_SECONDS, Database, quote

# At most this many tables/views are described and triggers listed; a view that expands into
# more than this many view references (views of views, joined many times) is not compiled,
# since SQLite cannot interrupt the compilation.
MAX_OBJECTS = 1000
MAX_VIEW_EXPANSION = 8
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
    costly: bool = False  # a view that expands past MAX_VIEW_EXPANSION: never compiled

    @property
    def count_text(self) -> str:
        if self.rows is None:
            return "unknown"
        return f"{self.rows:,}+" if self.capped else f"{self.rows:,}"


def relations(db: Database) -> list[Relation]:
    """User tables and views (at most ``MAX_OBJECTS``) with columns, indexes and a bounded
    row count; past ``SCHEMA_SECONDS``, or for a view too costly to compile, only the name."""
    ctx = db.ctx
    where = ctx.info.source
    user = "type IN ('table','view') AND name NOT LIKE 'sqlite\\_%' ESCAPE '\\'"
    total = db.query(f"SELECT count(*) FROM sqlite_master WHERE {user}")[0][0]
    pick = "SELECT type, name, CASE type WHEN 'view' THEN sql END FROM sqlite_master WHERE "
    rows = db.query(
        f"{pick}{user} ORDER BY type, name LIMIT {MAX_OBJECTS}", what="reading the schema"
    )
    wanted = ctx.options.table or ctx.options.sheet
    if isinstance(wanted, str) and total > len(rows) and wanted not in {r[1] for r in rows}:
        rows += db.query(f"{pick}{user} AND name = ?", (wanted,))  # past the cap, by name
    if total > len(rows) and len(rows) == MAX_OBJECTS:
        ctx.warn(
            f"{where}: the database has {total:,} tables and views; the first {MAX_OBJECTS:,} "
            f"are described (the schema limit of the sqlite reader, MAX_OBJECTS); read "
            f"another one with table=NAME"
        )
    indexes: dict[str, list[str]] = {}
    for name, table in db.query(
        "SELECT name, tbl_name FROM sqlite_master WHERE type='index' ORDER BY name "
        f"LIMIT {MAX_OBJECTS}"
    ):
        indexes.setdefault(table, []).append(name)
    costly = _costly_views({name: sql or "" for kind, name, sql in rows if kind == "view"})
    schema_time = db.budget("describing the schema")
    db.work = db.budget("describing the schema", statements=True)
    columns_left = MAX_SCHEMA_COLUMNS
    out: list[Relation] = []
    late: list[str] = []
    skipped: list[str] = []
    unlisted: list[str] = []
    for kind, name, _ in rows:
        ctx.check_deadline(f"schema of {name}")
        keys = tuple(indexes.get(name, ()))
        if name in costly or schema_time.expired() or columns_left <= 0:
            (skipped if name in costly else late if columns_left else unlisted).append(name)
            out.append(Relation(kind, name, (), keys, None, False, costly=name in costly))
            continue
        cols = columns(db, name)
        columns_left -= len(cols)
        count, capped = row_count(db, name, kind)
        out.append(Relation(kind, name, cols, keys, count, capped))
    db.work = None
    if skipped:
        ctx.warn(
            f"{where}: {len(skipped):,} view(s) expand into more than {MAX_VIEW_EXPANSION} "
            f"nested view references (MAX_VIEW_EXPANSION): not compiled, columns and rows "
            f"not read ({', '.join(repr(n) for n in skipped[:10])}"
            f"{', ...' if len(skipped) > 10 else ''})"
        )
    if unlisted:
        ctx.warn(
            f"{where}: the schema lists at most {MAX_SCHEMA_COLUMNS:,} columns "
            f"(MAX_SCHEMA_COLUMNS); {len(unlisted):,} tables/views are listed without columns "
            f"or row counts ({', '.join(repr(n) for n in unlisted[:10])}"
            f"{', ...' if len(unlisted) > 10 else ''}); read one with table=NAME"
        )
    if late:
        ctx.warn(
            f"{where}: describing the schema took over {SCHEMA_SECONDS:g} s "
            f"(SCHEMA_SECONDS); {len(late):,} tables/views are listed without columns or "
            f"row counts; read one with table=NAME"
        )
    db.flush_notes()
    return out


def triggers(db: Database) -> list[tuple[str, str]]:
    return [
        (n, t)
        for n, t in db.query(
            "SELECT name, tbl_name FROM sqlite_master WHERE type='trigger' ORDER BY name "
            f"LIMIT {MAX_OBJECTS}"
        )
    ]


def columns(db: Database, name: str) -> tuple[Column, ...]:
    """The columns of one table or view (at most ``memory.max_dataframe_cols``), none with a
    note when they cannot be read."""
    source = db.ctx.info.source
    try:
        info = db.query(f"PRAGMA table_info({quote(name)})", what=f"columns of {name}")
    except (sqlite3.Error, ExtractionTimeoutError) as exc:
        db.warn(f"{source}: columns of {name!r} could not be read ({exc}).")
        return ()
    cap = db.ctx.settings.memory.max_dataframe_cols
    if len(info) > cap:
        db.warn(
            f"{source}: {name!r} has {len(info):,} columns; the first {cap:,} are "
            f"shown and read (memory.max_dataframe_cols)."
        )
    return tuple(
        Column(str(r[1])[:MAX_NAME], str(r[2] or "")[:MAX_NAME], int(r[5] or 0), bool(r[3]))
        for r in info[:cap]
    )


def row_count(db: Database, name: str, kind: str) -> tuple[int | None, bool]:
    """Exact for tables (count(*) walks the smallest b-tree); at most max_rows + 1 for views,
    whose query may be arbitrarily expensive; None when it fails or times out."""
    cap = db.settings.max_rows
    sql = f"SELECT count(*) FROM {quote(name)}"
    if kind == "view":
        sql = f"SELECT count(*) FROM (SELECT 1 FROM {quote(name)} LIMIT {cap + 1})"
    try:
        ((n,),) = db.query(sql, what=f"counting rows of {name}")
    except (sqlite3.Error, ExtractionTimeoutError) as exc:
        db.warn(f"{db.ctx.info.source}: rows of {name!r} could not be counted ({exc}).")
        return None, False
    return (cap, True) if kind == "view" and n > cap else (int(n), False)


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
