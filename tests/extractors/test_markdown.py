"""The one table renderer and its cell rule (extractors/markdown.py), and the same awkward cell
(a pipe and a line break) read from a CSV, an XLSX, a PPTX table, a PDF table and an SQLite
table."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import docread
import pymupdf
import pytest
from docread.extractors.markdown import escape_cell, markdown_table
from docread.settings import Settings

# -- the cell rule and the renderer ----------------------------------------------------------------
AWKWARD = "a|b \n\n c  d"  # one cell: a pipe, a blank line, spacing of its own


RENDERED = "a\\|b c  d"  # the one rule: pipe escaped, the breaks and their blanks one space


@pytest.mark.parametrize(
    ("raw", "cell"),
    [
        ("x|y", "x\\|y"),
        ("line one\r\nline two", "line one line two"),
        ("a \n\n  b", "a b"),  # a run of breaks and the blanks around it: one space
        ("a\r\n\t|b", "a \\|b"),
        ("tab\tkept  twice", "tab\tkept  twice"),  # the value's own spacing stays
        ("  padded ", "  padded "),
    ],
)
def test_escape_cell_keeps_a_cell_on_one_line_and_escapes_pipes(raw: str, cell: str) -> None:
    assert escape_cell(raw) == cell


def test_markdown_table_pads_short_rows_and_the_header_to_the_widest_row() -> None:
    table = markdown_table(["k"], [["1", "2", "3"], ["only"]])
    assert table.splitlines() == [
        "| k |  |  |",
        "|---|---|---|",
        "| 1 | 2 | 3 |",
        "| only |  |  |",
    ]


def test_markdown_table_row_column_gives_each_row_its_number() -> None:
    table = markdown_table(["name", "note"], [["x", "p|q"], ["y", "r\ns"]], numbers=[41, 57])
    assert table.splitlines() == [
        "| Row | name | note |",
        "|---|---|---|",
        "| 41 | x | p\\|q |",
        "| 57 | y | r s |",
    ]


def test_markdown_table_converts_then_cuts_then_escapes() -> None:
    output = Settings.from_mapping({"output": {"max_cell_content": 4}}).output
    table = markdown_table(
        ["h"], [[None], ["||||||"]], text=lambda v: "NULL" if v is None else str(v), output=output
    )
    rows = table.splitlines()[2:]
    # the cut counts the value's own characters; the marker's count is the raw length
    assert rows == ["| NULL |", "| \\|\\|\\|\\|... [cell truncated: 6 chars] |"]


def test_markdown_table_of_nothing_is_empty_and_a_header_alone_has_its_rule() -> None:
    assert markdown_table([], []) == ""
    assert markdown_table(["a", "b"], []) == "| a | b |\n|---|---|"


# -- one cell, five families -----------------------------------------------------------------------
def _row_with(text: str, needle: str) -> str:
    """The markdown table line holding ``needle``."""
    return next(ln for ln in text.splitlines() if ln.startswith("|") and needle in ln)


def test_csv_cell_renders_by_the_one_rule(reader: docread.Reader, tmp_path: Path) -> None:
    (tmp_path / "t.csv").write_text(f'key,value\none,"{AWKWARD}"\n', encoding="utf-8")
    text = reader.read("t.csv").documents[0].text
    assert _row_with(text, "one") == f"| 1 | one | {RENDERED} |"


def test_xlsx_cell_renders_by_the_one_rule(reader: docread.Reader, tmp_path: Path) -> None:
    import openpyxl

    wb = openpyxl.Workbook()
    sheet = wb.worksheets[0]
    sheet.append(["key", "value"])
    sheet.append(["one", AWKWARD])
    wb.save(tmp_path / "t.xlsx")
    text = reader.read("t.xlsx").documents[0].text
    assert _row_with(text, "one") == f"| 1 | one | {RENDERED} |"


def test_pptx_table_cell_renders_by_the_one_rule(reader: docread.Reader, tmp_path: Path) -> None:
    from pptx import Presentation
    from pptx.util import Inches

    prs = Presentation()
    slide = prs.slides.add_slide(prs.slide_layouts[5])
    table = slide.shapes.add_table(2, 2, Inches(1), Inches(2), Inches(4), Inches(1)).table
    for (r, c), value in {(0, 0): "key", (0, 1): "value", (1, 0): "one", (1, 1): AWKWARD}.items():
        table.cell(r, c).text = value  # the line break makes a second paragraph in the cell
    prs.save(str(tmp_path / "t.pptx"))
    text = reader.read("t.pptx").documents[0].text
    assert _row_with(text, "key") == "| key | value |"
    assert _row_with(text, "one") == f"| one | {RENDERED} |"


def test_pdf_table_cell_escapes_its_pipe(reader: docread.Reader, tmp_path: Path) -> None:
    # PyMuPDF splits a cell's second text line into a row of its own, so the PDF case holds a
    # pipe only; the line-break half of the rule is the renderer's, tested above
    doc = pymupdf.open()
    page = doc.new_page()
    page.insert_text((72, 60), "A table below, with a pipe inside one of its cells, as a test")
    for r, row in enumerate([["Key", "Value"], ["one", "a|b"], ["two", "plain"]]):
        for c, cell in enumerate(row):
            rect = pymupdf.Rect(72 + c * 120, 80 + r * 24, 192 + c * 120, 104 + r * 24)
            page.draw_rect(rect, color=(0, 0, 0), width=1)
            page.insert_text((rect.x0 + 4, rect.y1 - 8), cell)
    doc.save(tmp_path / "t.pdf")
    text = reader.read("t.pdf", extract_tables=True).documents[0].text
    assert _row_with(text, "Key") == "| Key | Value |"
    assert _row_with(text, "one") == "| one | a\\|b |"


def test_sqlite_cell_renders_by_the_one_rule(reader: docread.Reader, tmp_path: Path) -> None:
    with sqlite3.connect(tmp_path / "t.db") as conn:
        conn.execute("CREATE TABLE t (key TEXT, value TEXT)")
        conn.execute("INSERT INTO t VALUES ('one', ?)", (AWKWARD,))
    conn.close()
    text = reader.read("t.db", table="t").documents[0].text
    assert _row_with(text, "Row") == "| Row | key | value |"
    assert _row_with(text, "one") == f"| 1 | one | {RENDERED} |"
