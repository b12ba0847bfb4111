"""RAG ingestion policy (issue 19): windows clamped to what exists, content that contradicts
its extension, pandoc anchors, LlamaIndex metadata hygiene."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import docread
import pytest
from docread.errors import InvalidOptionError
from factories import pdf


# -- 1. windows past the end are clamped with a note; wholly outside stays an error -------------
def test_pages_past_the_end_are_clamped_with_a_note(reader: docread.Reader, tmp_path: Path) -> None:
    pdf(tmp_path / "three.pdf", ["page one", "page two", "page three"])
    result = reader.read("three.pdf", pages="1-5")
    assert [d.metadata["page_number"] for d in result.documents] == [1, 2, 3]
    assert "pages=1-5: the file has 3 pages; read 1-3" in result.notes
    loaded = reader.read("three.pdf", pages="2,9")
    assert [d.metadata["page_number"] for d in loaded.documents] == [2]
    assert "pages=2,9: the file has 3 pages; read 2" in loaded.notes
    # a window inside the document says nothing
    assert not any("the file has" in n for n in reader.read("three.pdf", pages="2-3").notes)
    with pytest.raises(InvalidOptionError, match=r"pages='4-5' is out of range.*has 3 pages"):
        reader.read("three.pdf", pages="4-5")


def test_csv_rows_past_the_end_are_clamped_with_a_note(
    reader: docread.Reader, tmp_path: Path
) -> None:
    (tmp_path / "t.csv").write_text("n,sq\n" + "".join(f"{i},{i * i}\n" for i in range(1, 11)))
    result = reader.read("t.csv", rows="8-20")
    assert [d.metadata["row_start"] for d in result.documents] == [8]
    assert result.documents[0].metadata["row_end"] == 10
    assert "rows=8-20: the table has 10 data rows; read 8-10" in result.notes
    with pytest.raises(InvalidOptionError, match=r"rows='11-20' is out of range.*10 data rows"):
        reader.read("t.csv", rows="11-20")
    with pytest.raises(InvalidOptionError, match=r"rows='15-' is out of range.*10 data rows"):
        reader.read("t.csv", rows="15-")


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
