"""SQLite: schema and previews, table windows, loader chunks, never writing (hot journal too),
hostile schemas and statement timeouts, non-SQLite .db files (corpus conformance: test_conformance.py)."""

from __future__ import annotations

import json
import sqlite3
import subprocess
import sys
from pathlib import Path

import docread
import pytest
from conftest import MakeReader
from docread.errors import (
    ExtractionError,
    ExtractionTimeoutError,
    FormatNotSupportedError,
    InvalidOptionError,
)


def _shop(path: Path, n_orders: int = 120) -> Path:
    conn = sqlite3.connect(path)
    conn.executescript(
        """
        CREATE TABLE customers (id INTEGER PRIMARY KEY, name TEXT NOT NULL, email TEXT, photo BLOB);
        CREATE TABLE orders (id INTEGER PRIMARY KEY, customer_id INTEGER NOT NULL, total REAL, note TEXT);
        CREATE INDEX orders_by_customer ON orders(customer_id);
        CREATE VIEW big_orders AS SELECT id, total FROM orders WHERE total > 100;
        CREATE TRIGGER orders_audit AFTER INSERT ON orders BEGIN SELECT 1; END;
        """
    )
    conn.executemany(
        "INSERT INTO customers VALUES (?, ?, ?, ?)",
        [
            (1, "Ada Lovelace", "ada@example.org", b"\x89PNG" + b"\0" * 96),
            (2, "Grace | Hopper", None, None),
        ],
    )
    conn.executemany(
        "INSERT INTO orders VALUES (?, ?, ?, ?)",
        [(i, 1 + i % 2, i * 1.5, f"order {i}\nsecond line") for i in range(1, n_orders + 1)],
    )
    conn.commit()
    conn.close()
    return path


def test_schema_and_previews(reader: docread.Reader, tmp_path: Path) -> None:
    _shop(tmp_path / "shop.sqlite")
    result = reader.read("shop.sqlite")
    text = result.render()
    assert "**Database:** shop.sqlite" in text and "**Tables:** 2 tables, 1 view" in text
    assert "### Table: customers (2 rows)" in text
    assert "  - id INTEGER PK" in text and "  - name TEXT NOT NULL" in text
    assert "### Table: orders (120 rows)" in text and "  - indexes: orders_by_customer" in text
    assert "### View: big_orders (54 rows)" in text
    assert "### Triggers\n  - orders_audit on orders" in text
    # previews: the first 5 rows, cells escaped onto one line, blobs summarised
    assert "## Table: orders (preview 1-5 of 120)" in text
    assert "| 5 | 5 | 2 | 7.5 | order 5 second line |" in text and "| 6 | 6 |" not in text
    assert "| 2 | 2 | Grace \\| Hopper | NULL | NULL |" in text
    assert "<BLOB 100 bytes>" in text
    orders = next(d for d in result.documents if d.metadata.get("table") == "orders")
    assert orders.metadata["row_start"] == 1 and orders.metadata["row_end"] == 5
    assert (
        orders.metadata["row_count"] == 120
        and orders.metadata["columns"] == "id, customer_id, total, note"
    )


def test_table_window_with_rows_and_columns(reader: docread.Reader, tmp_path: Path) -> None:
    _shop(tmp_path / "shop.db")
    result = reader.read("shop.db", table="orders", rows="100-102", columns="id,total")
    text = result.render()
    assert "**Table:** orders (2 of 3 tables and views)" in text
    assert "**Rows:** 100-102 of 120" in text and "**Columns:** id, total" in text
    assert "| Row | id | total |" in text and "| 101 | 101 | 151.5 |" in text
    assert "note" not in text.split("---", 1)[1]
    assert "Use rows=103- to read more." in text
    # sheet= works like table=, by name or 0-based index; the default window is 50 rows
    by_sheet = reader.read("shop.db", sheet=1)
    assert by_sheet.documents[0].metadata["row_end"] == 50
    with pytest.raises(InvalidOptionError, match="customers, orders, big_orders"):
        reader.read("shop.db", table="nope")


def test_truncated_view_says_how_to_read_on(tmp_path: Path) -> None:
    _shop(tmp_path / "shop.db")
    config = {"output": {"max_lines": 30}, "cache": {"enabled": False}}
    text = docread.read(
        "shop.db", workspace=tmp_path, config=config, table="orders", rows="1-100"
    ).render()
    assert "| 26 | 26 |" in text and "| 27 | 27 |" not in text
    assert "use table='orders' rows=27- to continue" in text


def test_loader_chunks_every_row_per_table(reader: docread.Reader, tmp_path: Path) -> None:
    _shop(tmp_path / "shop.db")
    docs = list(reader.iter_documents("shop.db"))
    assert docs[0].text.startswith("## Schema") and docs[0].metadata["table_count"] == 3
    spans = [
        (d.metadata["table"], d.metadata["row_start"], d.metadata["row_end"]) for d in docs[1:]
    ]
    assert spans == [
        ("customers", 1, 2),
        ("orders", 1, 50), ("orders", 51, 100), ("orders", 101, 120),
        ("big_orders", 1, 50), ("big_orders", 51, 54),
    ]  # fmt: skip
    assert "| 120 | 120 | 1 | 180.0 |" in docs[4].text
    assert len({d.id for d in docs}) == len(docs)


def test_max_rows_caps_view_counts_and_loader(make_reader: MakeReader, tmp_path: Path) -> None:
    _shop(tmp_path / "shop.db")
    reader = make_reader(sqlite={"max_rows": 40})
    text = reader.read("shop.db").render()
    assert "### Table: orders (120 rows)" in text  # tables: exact count
    assert "### View: big_orders (40+ rows)" in text  # views: bounded
    docs = list(reader.iter_documents("shop.db"))
    spans = [
        (d.metadata["row_start"], d.metadata["row_end"])
        for d in docs
        if d.metadata.get("table") == "orders"
    ]
    assert spans == [(1, 40)]
    result = reader.read("shop.db", table="orders", rows="1-")
    assert result.documents[0].metadata["row_end"] == 40
    assert any("sqlite.max_rows=40" in n for n in result.notes)


def _stat(path: Path) -> tuple[bytes, int]:
    return path.read_bytes(), path.stat().st_mtime_ns


def test_read_never_writes_even_with_a_hot_journal(reader: docread.Reader, tmp_path: Path) -> None:
    db = _shop(tmp_path / "shop.db", n_orders=2000)
    crash = (
        "import os, sqlite3, sys\n"
        "c = sqlite3.connect(sys.argv[1], isolation_level=None)\n"
        "c.execute('PRAGMA journal_mode=DELETE'); c.execute('PRAGMA cache_size=1')\n"
        "c.execute('BEGIN'); c.execute(\"UPDATE orders SET note = note || 'xxxxxxxxxxxxxxxx'\")\n"
        "os._exit(0)\n"
    )
    subprocess.run([sys.executable, "-c", crash, str(db)], check=True)
    journal = tmp_path / "shop.db-journal"
    assert journal.stat().st_size > 0  # a hot journal: a normal open would roll it back
    before = (_stat(db), _stat(journal))
    result = reader.read("shop.db")
    assert any("rollback journal (shop.db-journal)" in n for n in result.notes)
    list(reader.iter_documents("shop.db"))
    assert (_stat(db), _stat(journal)) == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["shop.db", "shop.db-journal"]


def test_uncheckpointed_wal_is_noted_and_untouched(reader: docread.Reader, tmp_path: Path) -> None:
    db = _shop(tmp_path / "live.db", n_orders=3)
    writer = sqlite3.connect(db)
    try:
        writer.execute("PRAGMA journal_mode=WAL")
        writer.execute("PRAGMA wal_autocheckpoint=0")
        writer.execute("INSERT INTO orders VALUES (99, 1, 1.0, 'only in the WAL')")
        writer.commit()
        wal = tmp_path / "live.db-wal"
        before = (_stat(db), _stat(wal))
        result = reader.read("live.db")
        assert any("live.db-wal holds changes" in n for n in result.notes)
        assert "### Table: orders (3 rows)" in result.render()
        assert (_stat(db), _stat(wal)) == before
    finally:
        writer.close()


def test_huge_cells_are_cut_in_sql(tmp_path: Path) -> None:
    conn = sqlite3.connect(tmp_path / "big.db")
    conn.execute("CREATE TABLE docs (body TEXT, data BLOB)")
    conn.execute("INSERT INTO docs VALUES (?, ?)", ("é" * 3_000_000, b"\0" * 5_000_000))
    conn.commit()
    conn.close()
    config = {"output": {"max_cell_content": 100}, "cache": {"enabled": False}}
    text = docread.read("big.db", workspace=tmp_path, config=config).render()
    assert (
        f"| 1 | {'é' * 100}... [cell truncated: 3,000,000 chars] | <BLOB 5,000,000 bytes> |" in text
    )


def test_hostile_schema_is_escaped_and_bounded(make_reader: MakeReader, tmp_path: Path) -> None:
    conn = sqlite3.connect(tmp_path / "evil.db")
    conn.executescript(
        """
        CREATE TABLE "t""; DROP TABLE x; --| **bold**
        next" ("col|1" TEXT);
        INSERT INTO "t""; DROP TABLE x; --| **bold**
        next" VALUES ('a');
        CREATE VIEW endless AS WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n) SELECT i FROM n;
        CREATE VIEW forever AS WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n)
            SELECT count(*) AS c FROM n;
        """
    )
    conn.commit()
    conn.close()
    before = _stat(tmp_path / "evil.db")
    reader = make_reader(sqlite={"statement_timeout": 0.3})
    result = reader.read("evil.db")
    text = result.render()
    assert '### Table: t"; DROP TABLE x; --\\| **bold** next (1 row)' in text
    assert "| 1 | a |" in text and "  - col\\|1 TEXT" in text
    assert (
        "### View: endless (10,000+ rows)" in text and "| 5 | 5 |" in text
    )  # lazy: LIMIT stops it
    assert (
        "### View: forever (unknown rows)" in text
    )  # an endless aggregate: stopped by the timeout
    assert any("forever" in n and "statement_timeout" in n for n in result.notes)
    with pytest.raises(ExtractionTimeoutError, match="sqlite.statement_timeout=0.3"):
        reader.read("evil.db", table="forever")
    assert _stat(tmp_path / "evil.db") == before


def test_view_using_unsafe_function_is_reported_not_run(
    reader: docread.Reader, tmp_path: Path
) -> None:
    conn = sqlite3.connect(tmp_path / "fn.db")
    conn.executescript(
        "CREATE TABLE t (a); CREATE VIEW v AS SELECT load_extension('/tmp/x.so') AS a FROM t;"
    )
    conn.execute("INSERT INTO t VALUES (1)")
    conn.commit()
    conn.close()
    result = reader.read("fn.db")
    assert any("'v'" in n and "could not be read" in n for n in result.notes)
    assert "## Table: t (preview 1-1 of 1)" in result.render()


def test_db_that_is_not_sqlite_is_detected(reader: docread.Reader, tmp_path: Path) -> None:
    (tmp_path / "notes.db").write_text("just some notes\nin a text file\n")
    result = reader.read("notes.db")
    assert result.file.format == "text" and "just some notes" in result.render()
    (tmp_path / "blob.db").write_bytes(bytes(range(256)) * 8)
    with pytest.raises(FormatNotSupportedError):
        reader.read("blob.db")
    with pytest.raises(ExtractionError, match="not an SQLite 3 database"):
        reader.read("notes.db", format_hint="sqlite")


def test_damaged_database_is_a_clear_error(reader: docread.Reader, tmp_path: Path) -> None:
    (tmp_path / "bad.db").write_bytes(b"SQLite format 3\x00" + bytes(range(256)) * 16)
    with pytest.raises(ExtractionError, match="the SQLite file is damaged"):
        reader.read("bad.db")


# -- row metadata ----------------------------------------------------------------------------------
def test_sqlite_rows_metadata_counts_are_ints(tmp_path: Path) -> None:
    # the block's metadata mixes text and numbers (mypy had inferred dict[str, str])
    import sqlite3

    with sqlite3.connect(tmp_path / "db.sqlite") as con:
        con.execute("CREATE TABLE t (id INTEGER, name TEXT)")
        con.executemany("INSERT INTO t VALUES (?, ?)", [(i, f"n{i}") for i in range(1, 6)])
    con.close()
    result = docread.read("db.sqlite", workspace=tmp_path, table="t", rows="2-3")
    (meta,) = [d.metadata for d in result.documents]
    assert (meta["row_count"], meta["row_start"], meta["row_end"]) == (5, 2, 3)
    json.dumps(dict(meta))  # plain JSON values


# -- rows past the end are clamped with a note -----------------------------------------------------
def test_sqlite_rows_past_the_end_are_clamped_with_a_note(
    reader: docread.Reader, tmp_path: Path
) -> None:
    conn = sqlite3.connect(tmp_path / "s.db")
    conn.execute("CREATE TABLE t (id INTEGER PRIMARY KEY, v TEXT)")
    conn.executemany("INSERT INTO t VALUES (?, ?)", [(i, f"v{i}") for i in range(1, 6)])
    conn.commit()
    conn.close()
    result = reader.read("s.db", table="t", rows="4-9")
    assert result.header["Rows"] == "4-5 of 5"
    assert "rows=4-9: the table has 5 data rows; read 4-5" in result.notes
    with pytest.raises(InvalidOptionError, match=r"rows='6-9' is out of range.*5 data rows"):
        reader.read("s.db", table="t", rows="6-9")
