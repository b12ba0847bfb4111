"""One SQLite connection, read-only and immutable (no journal replay, no lock, never a write),
with ``trusted_schema=OFF``, no extension loading, and a progress handler that stops any
statement running past ``sqlite.statement_timeout`` (a view can hide an endless recursive
query) or past the schema or preview work's own budget; per-table notes, counted past a cap."""

from __future__ import annotations

import sqlite3
from typing import TYPE_CHECKING, Any

from ...errors import ExtractionError

if TYPE_CHECKING:
    from ...source import Source
    from ..base import Context
    from ..deadline import Deadline

# A crafted schema must stay cheap: one CREATE statement is at most this long (longer ones make
# the schema unreadable, a typed error); describing the schema, and showing row previews, stops
# after this many seconds each; at most this many per-table notes are given.
MAX_SCHEMA_SQL = 1_000_000
SCHEMA_SECONDS = 2.0
MAX_TABLE_NOTES = 20


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
        self.work: Deadline | None = None  # describing or previewing: interrupted when it ends
        conn.set_progress_handler(self._progress, 10_000)

    def warn(self, message: str) -> None:
        """A per-table note; past ``MAX_TABLE_NOTES`` they are counted, said once at the end."""
        self._notes += 1
        if self._notes <= MAX_TABLE_NOTES:
            self.ctx.warn(message)
        else:
            self._dropped += 1

    def flush_notes(self) -> None:
        """Say how many per-table notes were past the cap."""
        if self._dropped:
            self.ctx.warn(
                f"{self.ctx.info.source}: {self._dropped:,} more tables or views had the same "
                f"kind of problem (notes past the first {MAX_TABLE_NOTES} are not listed)."
            )
            self._dropped = 0

    def budget(self, task: str, *, statements: bool = False) -> Deadline:
        """SCHEMA_SECONDS (at most the statement timeout) for describing or previewing; with
        ``statements`` the whole SCHEMA_SECONDS, past which a running statement is stopped."""
        limit = (
            SCHEMA_SECONDS if statements else min(SCHEMA_SECONDS, self.settings.statement_timeout)
        )
        return self.ctx.time_limit(limit, "SCHEMA_SECONDS", task=task)

    def _progress(self) -> int:
        """Non-zero interrupts the statement: its own limit, the schema work's or the global
        one has run out."""
        work = self.work is not None and self.work.expired()
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
                if self.work is not None:
                    self.work.check(what)
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


def quote(name: str) -> str:
    """An SQL identifier, double-quoted (names from the file itself are never trusted)."""
    return '"' + name.replace('"', '""') + '"'
