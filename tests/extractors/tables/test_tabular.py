"""Tables: sheet/rows/columns windows over CSV, TSV, JSONL, JSON, Parquet, XLSX, XLS and ODS,
the agent view (header, Row column, summary), loader chunks, and bad input as typed errors."""

from __future__ import annotations

import csv
import json
import re
import zipfile
from datetime import date, datetime
from pathlib import Path

import docread
import pytest
from conftest import CORPUS, MakeReader
from docread.errors import (
    ExtractionError,
    ExtractionTimeoutError,
    FileTooLargeError,
    InvalidOptionError,
)
from factories import xlsx


def _csv(path: Path, rows: int, *, header: tuple[str, ...] = ("id", "name", "score")) -> Path:
    with path.open("w", newline="", encoding="utf-8") as f:
        w = csv.writer(f)
        w.writerow(header)
        for i in range(1, rows + 1):
            w.writerow([i, f"name{i}", i * 1.5])
    return path


def _xlsx(path: Path) -> Path:
    """Three sheets: Q4_Sales (dates, unicode, a merged cell), Notes, Empty."""
    import openpyxl

    wb = openpyxl.Workbook()
    ws = wb.active
    ws.title = "Q4_Sales"
    ws.append(["Product", "Region", "Sales", "Date"])
    for i in range(1, 121):
        ws.append(
            [
                f"Widget {i}",
                "Nörth 北" if i == 1 else "South",
                i * 10.5,
                datetime(2024, 1, 1 + i % 28),
            ]
        )
    ws["F3"] = "merged note"
    ws.merge_cells("F3:G4")
    wb.create_sheet("Notes").append(["note"])
    wb["Notes"].append(["hello"])
    wb.create_sheet("Empty")
    wb.save(path)
    return path


def _rows(result: docread.ReadResult) -> list[list[str]]:
    """The data rows of the rendered markdown table (under a sheet's heading), as cells."""
    lines = [ln for ln in result.documents[0].text.splitlines() if ln.startswith("|")][2:]
    return [[c.strip() for c in ln.strip("|").split(" | ")] for ln in lines]


# -- CSV / TSV ---------------------------------------------------------------------------------
def test_csv_default_view_is_head_50_with_header_row_column_and_summary(tmp_path: Path) -> None:
    _csv(tmp_path / "data.csv", 1234)
    result = docread.read("data.csv", workspace=tmp_path)
    text = result.render()
    assert text.startswith("**Document:** data.csv")
    assert "**Rows:** 1-50 of 1,234" in text
    assert "**Columns:** A-C" in text
    assert "| Row | id | name | score |" in text
    assert "| 1 | 1 | name1 | 1.5 |" in text and "| 50 | 50 | name50 | 75.0 |" in text
    assert "| 51 |" not in text
    assert "  - Total rows: 1,234" in text
    assert "  - Columns: id (int), name (string), score (float)" in text
    assert "Use rows='51-100' to read more." in text
    meta = result.documents[0].metadata
    assert (meta["row_start"], meta["row_end"], meta["total_rows"]) == (1, 50, 1234)
    assert meta["columns"] == "id, name, score" and meta["category"] == "tabular"


@pytest.mark.parametrize(
    ("rows", "first", "last"),
    [
        pytest.param("head:5", 1, 5, id="head"),
        pytest.param("tail:3", 98, 100, id="tail"),
        pytest.param("10-12", 10, 12, id="range"),
        pytest.param("42", 42, 42, id="single"),
        pytest.param("97-", 97, 100, id="open-end"),
    ],
)
def test_csv_row_windows(tmp_path: Path, rows: str, first: int, last: int) -> None:
    _csv(tmp_path / "d.csv", 100)
    result = docread.read("d.csv", workspace=tmp_path, rows=rows)
    got = _rows(result)
    assert [int(r[0]) for r in got] == list(range(first, last + 1))
    assert [r[2] for r in got] == [f"name{i}" for i in range(first, last + 1)]
    assert f"**Rows:** {first}-{last} of 100" in result.render()


@pytest.mark.parametrize(
    ("columns", "names", "letters"),
    [
        pytest.param("name,id", ["name", "id"], "B, A", id="names"),
        pytest.param("A,C", ["id", "score"], "A, C", id="letters"),
        pytest.param("B-C", ["name", "score"], "B-C", id="letter-range"),
    ],
)
def test_csv_column_selection(tmp_path: Path, columns: str, names: list[str], letters: str) -> None:
    _csv(tmp_path / "d.csv", 3)
    result = docread.read("d.csv", workspace=tmp_path, columns=columns)
    assert result.documents[0].text.splitlines()[0] == "| Row | " + " | ".join(names) + " |"
    assert f"**Columns:** {letters} ({len(names)} of 3)" in result.render()


def test_unknown_column_error_lists_the_columns(tmp_path: Path) -> None:
    _csv(tmp_path / "d.csv", 3)
    with pytest.raises(
        InvalidOptionError, match=r"unknown column 'salary'.*the columns are: id, name, score"
    ):
        docread.read("d.csv", workspace=tmp_path, columns="name,salary")


def test_bad_rows_syntax_is_an_invalid_option(tmp_path: Path) -> None:
    _csv(tmp_path / "d.csv", 3)
    with pytest.raises(InvalidOptionError, match="head:50"):
        docread.read("d.csv", workspace=tmp_path, rows="first 10")


def test_rows_past_the_end_say_how_many_rows_there_are(tmp_path: Path) -> None:
    _csv(tmp_path / "d.csv", 10)
    with pytest.raises(InvalidOptionError, match="the table has 10 data rows"):
        docread.read("d.csv", workspace=tmp_path, rows="500")


def test_csv_delimiter_encoding_quoted_newlines_and_ragged_rows(tmp_path: Path) -> None:
    data = 'a;b;c\n1;"two\nlines";3\n4;5\n6;7;8;9\n'.encode("cp1252") + "é;ü;€\n".encode("cp1252")
    (tmp_path / "odd.csv").write_bytes(data)
    result = docread.read("odd.csv", workspace=tmp_path)
    assert _rows(result) == [
        ["1", "1", "two lines", "3"],
        ["2", "4", "5", ""],
        ["3", "6", "7", "8"],
        ["4", "é", "ü", "€"],
    ]
    text = result.render()
    assert "Ragged rows" in text
    assert "**Rows:** 1-4 of 4" in text  # the window reached the end: the total is exact
    head = docread.read("odd.csv", workspace=tmp_path, rows="head:1").render()
    assert "**Rows:** 1-1 of 4" in head  # records counted as the reader reads them


def test_tsv_and_pipes_escaped_in_cells(tmp_path: Path) -> None:
    (tmp_path / "t.tsv").write_text("k\tv\nx|y\t" + "z" * 1500 + "\n", encoding="utf-8")
    result = docread.read("t.tsv", workspace=tmp_path)
    row = result.documents[0].text.splitlines()[2]
    assert row.startswith("| 1 | x\\|y | zzz")
    assert "[cell truncated: 1,500 chars]" in row


def test_csv_over_long_line_is_cut_with_a_note(tmp_path: Path) -> None:
    (tmp_path / "long.csv").write_text("a,b\n" + "x" * (9 << 20) + ",1\nshort,2\n")
    result = docread.read("long.csv", workspace=tmp_path)
    rows = _rows(result)
    assert rows[1] == ["2", "short", "2"]
    assert "[cell truncated" in rows[0][1]
    assert "Line 2 is longer than" in result.render()


def test_csv_quote_never_closed_is_a_typed_error_naming_the_line(tmp_path: Path) -> None:
    (tmp_path / "q.csv").write_text('a,b\n1,"open\n' + ("y" * 1000 + "\n") * 9000 + "2,3\n")
    with pytest.raises(
        ExtractionError, match=r"malformed CSV near line [\d,]+: .*a quote never closed"
    ):
        docread.read("q.csv", workspace=tmp_path)


def test_csv_tail_timeout_is_a_typed_error(make_reader: MakeReader, tmp_path: Path) -> None:
    _csv(tmp_path / "d.csv", 20000)
    reader = make_reader(timeouts={"tabular_load": 0.000001})
    with pytest.raises(ExtractionTimeoutError, match="tabular_load"):
        reader.read("d.csv", rows="tail:5")


def test_csv_over_the_size_limit_gets_an_estimated_total_for_head_and_exact_for_tail(
    make_reader: MakeReader,
    tmp_path: Path,
) -> None:
    _csv(tmp_path / "d.csv", 3000)
    reader = make_reader(limits={"tabular": 10000})
    head = reader.read("d.csv", rows="head:5")
    tail = reader.read("d.csv", rows="tail:2")
    assert re.search(
        r"\*\*Rows:\*\* 1-5 of ~[\d,]+ \(estimated from the file size\)", head.render()
    )
    assert "total_rows_note" in head.documents[0].metadata
    assert "**Rows:** 2,999-3,000 of 3,000" in tail.render()
    assert [r[0] for r in _rows(tail)] == ["2999", "3000"]


def test_csv_tail_reads_backwards_through_crlf_and_form_feeds(tmp_path: Path) -> None:
    body = "a,b\r\n" + "".join(f"{i},x\x0cy{i}\r\n" for i in range(1, 20001))
    (tmp_path / "crlf.csv").write_bytes(body.encode())
    result = docread.read("crlf.csv", workspace=tmp_path, rows="tail:2")
    assert _rows(result) == [["19999", "19999", "xy19999"], ["20000", "20000", "xy20000"]]


def test_csv_tail_trailing_blank_lines_are_not_rows(tmp_path: Path) -> None:
    (tmp_path / "b.csv").write_text("a,b\n1,2\n3,4\n\n\n")
    head = docread.read("b.csv", workspace=tmp_path)
    tail = docread.read("b.csv", workspace=tmp_path, rows="tail:2")
    assert head.header["Rows"] == tail.header["Rows"] == "1-2 of 2"
    assert _rows(tail) == [["1", "1", "2"], ["2", "3", "4"]]
    assert tail.documents[0].metadata["total_rows"] == 2


def test_json_lines_tail_skips_blank_lines_like_the_default_view(tmp_path: Path) -> None:
    (tmp_path / "b.jsonl").write_text('{"a":1}\n\n{"a":2}\n \t\n\r\n{"a":3}\n\n')
    head = docread.read("b.jsonl", workspace=tmp_path)
    tail = docread.read("b.jsonl", workspace=tmp_path, rows="tail:2")
    assert head.header["Rows"] == "1-3 of 3"
    assert tail.header["Rows"] == "2-3 of 3"
    assert _rows(tail) == [["2", "2"], ["3", "3"]]


def test_csv_quoted_newline_numbers_agree_between_range_and_tail(tmp_path: Path) -> None:
    (tmp_path / "q.csv").write_text('a,b\n"x\ny",1\n2,z\n')
    second = docread.read("q.csv", workspace=tmp_path, rows="2")
    tail = docread.read("q.csv", workspace=tmp_path, rows="tail:1")
    assert second.header["Rows"] == tail.header["Rows"] == "2-2 of 2"
    assert _rows(second) == _rows(tail) == [["2", "2", "z"]]
    assert "rows='3" not in second.render() + tail.render()  # no hint past the last record


def test_huge_csv_with_quoted_newlines_says_its_numbers_are_approximate(
    make_reader: MakeReader, tmp_path: Path
) -> None:
    body = "".join(f'{i},"line\nbreak {i}"\n' for i in range(1, 2001))
    (tmp_path / "q.csv").write_text("a,b\n" + body)
    reader = make_reader(limits={"tabular": 10000})
    tail = reader.read("q.csv", rows="tail:2")
    text = tail.render()
    assert [r[:2] for r in _rows(tail)] == [["3999", "1999"], ["4000", "2000"]]
    assert "**Rows:** 3,999-4,000 of ~4,000 (line count; quoted line breaks" in text
    assert "Row numbers are approximate" in text
    assert "rows='4001" not in text and "rows='4,001" not in text


def test_csv_quotes_without_line_breaks_keep_an_exact_tail_over_the_size_limit(
    make_reader: MakeReader,
    tmp_path: Path,
) -> None:
    body = "".join(f'{i},"note {i}, ok"\r\n' for i in range(1, 3001))
    (tmp_path / "q.csv").write_text("a,b\r\n" + body + "\r\n", newline="")
    reader = make_reader(limits={"tabular": 10000})
    tail = reader.read("q.csv", rows="tail:1")
    assert tail.header["Rows"] == "3,000-3,000 of 3,000"
    assert _rows(tail) == [["3000", "3000", "note 3000, ok"]]


def test_max_dataframe_rows_caps_the_window(make_reader: MakeReader, tmp_path: Path) -> None:
    _csv(tmp_path / "d.csv", 100)
    reader = make_reader(memory={"max_dataframe_rows": 7})
    result = reader.read("d.csv", rows="1-100")
    assert len(_rows(result)) == 7
    assert "max_dataframe_rows" in result.render()


def test_empty_csv_and_bom_header(tmp_path: Path) -> None:
    (tmp_path / "empty.csv").write_bytes(b"")
    assert not docread.read("empty.csv", workspace=tmp_path).documents
    (tmp_path / "bom.csv").write_bytes("\ufeffname,n\nÅsa,1\n".encode())
    result = docread.read("bom.csv", workspace=tmp_path, columns="name")
    assert _rows(result) == [["1", "Åsa"]]


def test_truncated_view_says_which_row_to_read_next(
    make_reader: MakeReader, tmp_path: Path
) -> None:
    _csv(tmp_path / "d.csv", 100)
    reader = make_reader(output={"max_lines": 12})
    text = reader.read("d.csv").render()
    assert "| 10 | 10 | name10 | 15.0 |" in text and "| 11 |" not in text
    assert "use rows=11- (or fewer columns) to continue" in text


# -- loader ------------------------------------------------------------------------------------
def test_loader_chunks_carry_row_provenance(tmp_path: Path) -> None:
    _csv(tmp_path / "d.csv", 120)
    docs = list(docread.iter_documents("d.csv", workspace=tmp_path))
    assert [(d.metadata["row_start"], d.metadata["row_end"]) for d in docs] == [
        (1, 50),
        (51, 100),
        (101, 120),
    ]
    assert all(d.metadata["total_rows"] == 120 for d in docs)
    assert docs[2].text.splitlines()[0] == "| id | name | score |"  # header repeated, no Row column
    assert docs[2].text.splitlines()[2] == "| 101 | name101 | 151.5 |"


def test_loader_one_document_per_row_over_every_sheet(
    make_reader: MakeReader, tmp_path: Path
) -> None:
    _xlsx(tmp_path / "book.xlsx")
    reader = make_reader(tabular={"rows_per_document": 1})
    docs = list(reader.iter_documents("book.xlsx"))
    assert len(docs) == 121  # 120 sales rows + 1 note; the empty sheet gives nothing
    last = docs[-1].metadata
    assert (last["sheet"], last["sheet_index"], last["sheet_count"], last["row_start"], last["row_end"]) == (
        "Notes", 2, 3, 1, 1,
    )  # fmt: skip
    assert docs[-1].text == "## Sheet: Notes\n\n| note |\n|---|\n| hello |"
    assert docs[0].metadata["sheet"] == "Q4_Sales" and docs[0].metadata["total_rows"] == 120


# -- workbooks ---------------------------------------------------------------------------------
def test_xlsx_sheet_header_dates_unicode_and_merged_cells(tmp_path: Path) -> None:
    _xlsx(tmp_path / "book.xlsx")
    result = docread.read("book.xlsx", workspace=tmp_path, rows="1-3")
    text = result.render()
    assert "**Sheet:** Q4_Sales (1 of 3 sheets)" in text
    assert "**Rows:** 1-3 of 120" in text
    rows = _rows(result)
    assert rows[0][:5] == ["1", "Widget 1", "Nörth 北", "10.5", "2024-01-02"]
    assert rows[1][6:] == ["merged note", ""]  # the merged range shows its value once
    assert "Date (datetime)" in text


@pytest.mark.parametrize("sheet", ["Notes", 1, "1", "notes"])
def test_xlsx_sheet_by_name_or_index(tmp_path: Path, sheet: object) -> None:
    _xlsx(tmp_path / "book.xlsx")
    result = docread.read("book.xlsx", workspace=tmp_path, sheet=sheet)
    assert "**Sheet:** Notes (2 of 3 sheets)" in result.render()
    assert _rows(result) == [["1", "hello"]]


def test_unknown_sheet_error_lists_the_sheets(tmp_path: Path) -> None:
    _xlsx(tmp_path / "book.xlsx")
    with pytest.raises(
        InvalidOptionError, match=r"no sheet 'Q5'.*3 sheets: 0: 'Q4_Sales', 1: 'Notes', 2: 'Empty'"
    ):
        docread.read("book.xlsx", workspace=tmp_path, sheet="Q5")


def test_xlsx_formulas_show_cached_values(tmp_path: Path) -> None:
    xlsx(tmp_path / "f.xlsx", {"Sheet": [["n", "double"], [21, "=A2*2"]]})
    with (
        zipfile.ZipFile(tmp_path / "f.xlsx") as src,
        zipfile.ZipFile(tmp_path / "g.xlsx", "w") as dst,
    ):
        for item in src.infolist():
            data = src.read(item)
            if item.filename == "xl/worksheets/sheet1.xml":
                data = data.replace(b"<f>A2*2</f><v></v>", b"<f>A2*2</f><v>42</v>")
            dst.writestr(item, data)
    result = docread.read("g.xlsx", workspace=tmp_path)
    assert _rows(result) == [["1", "21", "42"]]


def test_wide_sheet_is_capped_by_max_cols(make_reader: MakeReader, tmp_path: Path) -> None:
    xlsx(tmp_path / "wide.xlsx", {"Sheet": [[f"c{i}" for i in range(12)], list(range(12))]})
    reader = make_reader(memory={"max_dataframe_cols": 5})
    result = reader.read("wide.xlsx")
    assert result.documents[0].text.splitlines()[2] == "| Row | c0 | c1 | c2 | c3 | c4 |"
    assert "Showing the first 5 of 12 columns" in result.render()


def test_ods_is_read_from_its_xml(tmp_path: Path) -> None:
    pd = pytest.importorskip("pandas")
    with pd.ExcelWriter(tmp_path / "s.ods", engine="odf") as writer:
        pd.DataFrame({"city": ["Zürich", "Oslo"], "pop": [421878, 709037]}).to_excel(
            writer, sheet_name="Cities", index=False
        )
        pd.DataFrame({"x": [1]}).to_excel(writer, sheet_name="Other", index=False)
    result = docread.read("s.ods", workspace=tmp_path)
    assert "**Sheet:** Cities (1 of 2 sheets)" in result.render()
    assert _rows(result) == [["1", "Zürich", "421878"], ["2", "Oslo", "709037"]]


def _million_row_xlsx(path: Path, rows: int = 1_000_000) -> Path:
    """A real XLSX whose sheet XML is written directly (openpyxl would take minutes)."""
    import openpyxl

    openpyxl.Workbook().save(path.with_suffix(".base.xlsx"))
    ns = "http://schemas.openxmlformats.org/spreadsheetml/2006/main"
    with (
        zipfile.ZipFile(path.with_suffix(".base.xlsx")) as src,
        zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED, compresslevel=1) as dst,
    ):
        for item in src.infolist():
            if item.filename != "xl/worksheets/sheet1.xml":
                dst.writestr(item, src.read(item))
        with dst.open("xl/worksheets/sheet1.xml", "w") as f:
            f.write(
                f'<worksheet xmlns="{ns}"><dimension ref="A1:B{rows + 1}"/><sheetData>'.encode()
            )
            f.write(
                b'<row r="1"><c r="A1" t="inlineStr"><is><t>n</t></is></c><c r="B1" t="inlineStr"><is><t>sq</t></is></c></row>'
            )
            for start in range(2, rows + 2, 100_000):
                f.write("".join(
                    f'<row r="{r}"><c><v>{r - 1}</v></c><c><v>{(r - 1) ** 2}</v></c></row>'
                    for r in range(start, min(start + 100_000, rows + 2))
                ).encode())  # fmt: skip
            f.write(b"</sheetData></worksheet>")
    return path


def test_million_row_xlsx_head_is_instant_and_tail_is_bounded_by_the_timeout(
    make_reader: MakeReader,
    tmp_path: Path,
) -> None:
    import time

    _million_row_xlsx(tmp_path / "m.xlsx")
    reader = make_reader(timeouts={"tabular_load": 1})
    t = time.monotonic()
    result = reader.read("m.xlsx", rows="999-1000")
    assert time.monotonic() - t < 5
    assert _rows(result) == [["999", "999", "998001"], ["1000", "1000", "1000000"]]
    assert "**Rows:** 999-1,000 of 1,000,000" in result.render()
    t = time.monotonic()
    with pytest.raises(ExtractionTimeoutError, match="tabular_load=1 s"):
        reader.read("m.xlsx", rows="tail:5")
    assert time.monotonic() - t < 10


@pytest.mark.skipif(not (CORPUS / "tables" / "test.xls").is_file(), reason="corpus not present")
def test_xls_sheets_numbers_and_listing(tmp_path: Path) -> None:
    (tmp_path / "t.xls").write_bytes((CORPUS / "tables" / "test.xls").read_bytes())
    result = docread.read("t.xls", workspace=tmp_path, sheet=1, rows="tail:1")
    assert "**Sheet:** 09060124-b5e7-4717-9d07-3c046eb (2 of 2 sheets)" in result.render()
    assert _rows(result) == [["4", "13", "14", "15", "affc7dad-52dc-4b98-9b5d-51e65d8a8ad0"]]
    with pytest.raises(InvalidOptionError, match="0: 'Sheet1', 1: '09060124"):
        docread.read("t.xls", workspace=tmp_path, sheet=2)


# -- Parquet, JSON -----------------------------------------------------------------------------
def _parquet(path: Path, rows: int, group: int) -> Path:
    import pyarrow as pa
    import pyarrow.parquet as pq

    table = pa.table({
        "id": pa.array(range(1, rows + 1), pa.int64()),
        "label": pa.array([f"r{i}" for i in range(1, rows + 1)]),
        "when": pa.array([date(2024, 1, 1)] * rows, pa.date32()),
        "ratio": pa.array([None if i % 2 else 0.1 for i in range(rows)], pa.float32()),
    })  # fmt: skip
    pq.write_table(table, path, row_group_size=group)
    return path


def test_parquet_windows_cross_row_groups_with_exact_total_and_types(tmp_path: Path) -> None:
    _parquet(tmp_path / "p.parquet", 1000, 64)
    result = docread.read("p.parquet", workspace=tmp_path, rows="60-70", columns="id,when,ratio")
    rows = _rows(result)
    assert [r[1] for r in rows] == [str(i) for i in range(60, 71)]
    assert rows[0][2:] == ["2024-01-01", ""] and rows[1][3] == "0.1"
    text = result.render()
    assert "**Rows:** 60-70 of 1,000" in text
    assert "id (int64), when (date32[day]), ratio (float)" in text
    tail = _rows(docread.read("p.parquet", workspace=tmp_path, rows="tail:2"))
    assert [r[0] for r in tail] == ["999", "1000"] and tail[1][2] == "r1000"


def test_parquet_with_corrupt_footer_is_an_extraction_error(tmp_path: Path) -> None:
    path = _parquet(tmp_path / "bad.parquet", 10, 5)
    data = path.read_bytes()
    path.write_bytes(data[:-12] + b"\0" * 12)
    with pytest.raises(ExtractionError, match="not a readable Parquet file"):
        docread.read("bad.parquet", workspace=tmp_path)


def test_json_array_and_json_lines(tmp_path: Path) -> None:
    records = [{"name": "Ann", "tags": ["a", "b"]}, {"name": "Bob", "age": 7}]
    (tmp_path / "a.json").write_text(json.dumps(records))
    (tmp_path / "a.jsonl").write_text("\n".join(json.dumps(r) for r in records) + "\n")
    for name in ("a.json", "a.jsonl"):
        result = docread.read(name, workspace=tmp_path)
        assert result.documents[0].text.splitlines()[0] == "| Row | name | tags | age |"
        assert _rows(result) == [["1", "Ann", '["a","b"]', ""], ["2", "Bob", "", "7"]]
    tail = _rows(docread.read("a.jsonl", workspace=tmp_path, rows="tail:1"))
    assert tail == [["2", "Bob", "", "7"]]


def test_json_lines_with_a_broken_line_keeps_it_visible(tmp_path: Path) -> None:
    (tmp_path / "b.jsonl").write_text('{"k": 1}\n\n{"k": oops}\n[1, 2]\n')
    result = docread.read("b.jsonl", workspace=tmp_path)
    assert result.documents[0].text.splitlines()[0] == "| Row | k | value |"
    assert _rows(result) == [["1", "1", ""], ["2", '{"k": oops}', ""], ["3", "", "[1,2]"]]
    assert "Some lines are not valid JSON" in result.render()


def test_numbers_render_as_a_spreadsheet_shows_them(tmp_path: Path) -> None:
    (tmp_path / "n.json").write_text(
        '[{"x": 0.30000000000000004, "y": 3.0, "z": null, "b": true, "big": 1e20}]'
    )
    assert _rows(docread.read("n.json", workspace=tmp_path)) == [
        ["1", "0.3", "3", "", "TRUE", "1e+20"]
    ]


# -- bad input ---------------------------------------------------------------------------------
def test_xlsx_with_billion_laughs_is_refused(tmp_path: Path) -> None:
    import openpyxl

    openpyxl.Workbook().save(tmp_path / "ok.xlsx")
    bomb = (
        b'<?xml version="1.0"?><!DOCTYPE lolz [<!ENTITY lol "lol">'
        b'<!ENTITY lol2 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;">]>'
        b'<sst xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><si><t>&lol2;</t></si></sst>'
    )
    with (
        zipfile.ZipFile(tmp_path / "ok.xlsx") as src,
        zipfile.ZipFile(tmp_path / "bomb.xlsx", "w") as dst,
    ):
        for item in src.infolist():
            dst.writestr(item, src.read(item))
        dst.writestr("xl/sharedStrings.xml", bomb)
    with pytest.raises(ExtractionError, match="declares XML entities"):
        docread.read("bomb.xlsx", workspace=tmp_path)


def test_zip_claiming_to_be_xlsx_is_an_extraction_error(tmp_path: Path) -> None:
    with zipfile.ZipFile(tmp_path / "fake.xlsx", "w") as zf:
        zf.writestr("hello.txt", "not a workbook")
    with pytest.raises(ExtractionError, match="not an XLSX workbook"):
        docread.read("fake.xlsx", workspace=tmp_path, format_hint="xlsx")


def test_loaded_formats_keep_the_size_limit(make_reader: MakeReader, tmp_path: Path) -> None:
    (tmp_path / "big.json").write_text(json.dumps([{"k": "v" * 100}] * 200))
    reader = make_reader(limits={"tabular": 1000})
    with pytest.raises(FileTooLargeError, match="limits.tabular"):
        reader.read("big.json")
    _csv(tmp_path / "big.csv", 200)  # windowed formats are not refused
    assert reader.read("big.csv", rows="head:2").documents


# -- conformance -------------------------------------------------------------------------------


# -- JSON lines past json's own limits -------------------------------------------------------------
def test_json_lines_number_past_the_int_digit_limit_is_one_bad_line(tmp_path: Path) -> None:
    # json.loads raises a plain ValueError (not a JSONDecodeError, which has .msg) for an integer
    # of more than 4,300 digits: the note read exc.msg and the whole file failed
    huge = "9" * 5000
    (tmp_path / "big.jsonl").write_text(f'{{"a": 1}}\n{{"a": {huge}}}\n{{"a": 3}}\n')
    result = docread.read("big.jsonl", workspace=tmp_path)
    assert result.header["Rows"] == "1-3 of 3"
    rows = result.documents[0].text.splitlines()[2:]
    assert rows[0] == "| 1 | 1 |" and rows[2] == "| 3 | 3 |"
    assert rows[1].startswith('| 2 | {"a": 999')  # the line itself, in the first column
    assert any("not valid JSON" in n and "4300 digits" in n for n in result.notes)


def test_json_lines_decode_error_still_names_the_json_problem(tmp_path: Path) -> None:
    (tmp_path / "bad.jsonl").write_text('{"a": 1}\n{"a": \n{"a": 3}\n')
    result = docread.read("bad.jsonl", workspace=tmp_path)
    assert result.header["Rows"] == "1-3 of 3"
    assert any("(Expecting value)" in n for n in result.notes)


# -- rows past the end are clamped with a note -----------------------------------------------------
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
