"""RAG ingestion policy (issue 19): windows clamped to what exists, content that contradicts
its extension, pandoc anchors, LlamaIndex metadata hygiene."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import docread
import pytest
from docread.errors import InvalidOptionError
from factories import image_bytes, pdf


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


# -- 2. content that contradicts the extension is read as what it is, and said ------------------
def test_a_text_file_named_pdf_is_read_as_text_with_a_note_and_a_flag(
    reader: docread.Reader, tmp_path: Path
) -> None:
    (tmp_path / "fake.pdf").write_text("This is plain text, not a PDF.\n")
    result = reader.read("fake.pdf")
    assert result.file.format == "text" and "plain text, not a PDF" in result.text
    meta = result.documents[0].metadata
    assert meta["format_mismatch"] is True and meta["extension_format"] == "pdf"
    assert any("the name says pdf but the content is text" in n for n in result.notes)


def test_a_png_named_pdf_is_read_as_an_image_with_a_flag(
    reader: docread.Reader, tmp_path: Path
) -> None:
    (tmp_path / "scan.pdf").write_bytes(image_bytes())
    result = reader.read("scan.pdf")
    assert result.file.format == "png"
    units = [*result.documents, *result.media]
    assert units and all(u.metadata["format_mismatch"] is True for u in units)
    assert all(u.metadata["extension_format"] == "pdf" for u in units)
    assert any("the name says pdf but the content is png" in n for n in result.notes)


def test_refinements_of_the_extension_are_no_mismatch(
    reader: docread.Reader, tmp_path: Path
) -> None:
    pdf(tmp_path / "real.pdf", ["a real pdf"])
    (tmp_path / "rows.json").write_text('[{"a": 1}, {"a": 2}]')
    (tmp_path / "notes.txt").write_text("a,b\n1,2\n")
    for name in ("real.pdf", "rows.json", "notes.txt"):
        result = reader.read(name)
        assert "format_mismatch" not in result.documents[0].metadata, name
        assert not any("the name says" in n for n in result.notes), name
    # a format given by the caller is no contradiction either
    hinted = reader.read("notes.txt", format_hint="csv")
    assert "format_mismatch" not in hinted.documents[0].metadata


# -- 3. pandoc's empty anchors stay out of the text, titles and chunks --------------------------
def test_odt_heading_anchors_are_stripped(reader: docread.Reader, tmp_path: Path) -> None:
    import subprocess

    import pypandoc

    # pandoc writes every heading with a bookmark; read back, each showed as
    # '# <span id="anchor"></span>Summary'
    subprocess.run(
        [pypandoc.get_pandoc_path(), "-f", "markdown", "-o", str(tmp_path / "a.odt")],
        input=b"# Summary\n\nBody text.\n\n## Details {#det}\n\nMore.\n",
        check=True, capture_output=True, timeout=60,
    )  # fmt: skip
    result = reader.read("a.odt")
    assert "<span" not in result.text and "{#" not in result.text
    assert "# Summary" in result.text and "## Details" in result.text
    assert [d.metadata.get("section_title") for d in result.documents] == ["Summary", "Details"]


def test_strip_anchors_keeps_code_and_real_spans() -> None:
    from docread.extractors.office.convert.parts import strip_anchors

    text = (
        '# <span id="anchor"></span>Summary\n'
        "## Details {#details .unnumbered}\n"
        'See <span id="r1"></span>here and <span class="x">kept</span>.\n'
        "```\n"
        '<span id="literal"></span> {#x}\n'
        "```"
    )
    assert strip_anchors(text) == (
        "# Summary\n"
        "## Details\n"
        'See here and <span class="x">kept</span>.\n'
        "```\n"
        '<span id="literal"></span> {#x}\n'
        "```"
    )


# -- ids from content and position: an edit rewrites only the units it touched -----------------
def test_unit_ids_survive_an_edit_elsewhere_in_the_file(
    reader: docread.Reader, tmp_path: Path
) -> None:
    pdf(tmp_path / "book.pdf", ["chapter one", "chapter two", "chapter three"])
    before = [d.id for d in reader.iter_documents("book.pdf")]
    pdf(tmp_path / "book.pdf", ["chapter one", "chapter two, revised", "chapter three"])
    after = [d.id for d in reader.iter_documents("book.pdf")]
    assert len(set(before)) == 3
    assert after[0] == before[0] and after[2] == before[2]
    assert after[1] != before[1]
    # a page read alone has the id it has in the whole read
    assert [d.id for d in reader.iter_documents("book.pdf", pages="3")] == [after[2]]
    # the same bytes at another path are another file
    (tmp_path / "copy.pdf").write_bytes((tmp_path / "book.pdf").read_bytes())
    assert not set(after) & {d.id for d in reader.iter_documents("copy.pdf")}
