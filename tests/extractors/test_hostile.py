"""Hostile inputs stay cheap: each ends in a typed error or a bounded result with a note, with
the worker under its memory limit and within seconds. The files are made small in each test
(tests/hostile_files.py; bench/hostile.py makes them at full size and measures them)."""

from __future__ import annotations

import functools
import operator
import re
import sqlite3
import struct
import threading
import time
import tracemalloc
import zipfile
import zlib
from pathlib import Path
from typing import cast

import docread
import factories
import hostile_files
import pymupdf
import pytest
from docread.errors import ArchiveSecurityError
from docread.extractors.pdf.text.lines import PageText

pytestmark = pytest.mark.timeout(180)

CONFIG = {"cache": {"enabled": False}, "global_timeout": 60, "isolation": {"workers": 1}}
# PDF content bombs past a cap of 512 KiB: reading a page's operators up to the default 4 MiB
# costs ~4 s of CPU, paid once (test_pdf_content_stream_bomb_is_cut_with_a_note); the guard's
# other ways in (forms, filter chains, split streams, a lying /Length) are the same at any cap
SMALL_CAP = {**CONFIG, "pdf": {"max_page_content": 512 << 10}}


def _read(tmp_path: Path, name: str, config: dict[str, object] | None = None, **options: object):
    """``reader.read`` of one file: (result, seconds). On the process-wide pool of its size and
    memory limit, as ``docread.read`` reads: a worker serves the next test as it would a user's
    next file, unless the pool replaced it (it died, or grew past half its limit: a bomb that
    filled memory); a pool of its own per test started a worker for every test (~0.05 s each)."""
    with docread.Reader(tmp_path, config=config or CONFIG, shared_pool=True) as reader:
        start = time.monotonic()
        result = reader.read(name, **options)
        return result, time.monotonic() - start


def test_sqlite_view_chain_and_wide_tables_stay_cheap(tmp_path: Path) -> None:
    hostile_files.sqlite_schema_bomb(
        tmp_path / "schema.sqlite", tables=2, columns=2000, chain=30, triggers=50
    )
    result, seconds = _read(tmp_path, "schema.sqlite")
    assert seconds < 20  # the 30-view chain alone costs SQLite about a minute to compile
    notes = " ".join(result.notes)
    assert "MAX_VIEW_EXPANSION" in notes and "'v10'" in notes
    assert "'t0' has 2,000 columns; the first 500" in notes
    assert "### Table: t1" in result.text and "c499" in result.text and "c500 " not in result.text


def test_sqlite_schema_of_many_wide_tables_is_capped_by_columns_with_a_note(tmp_path: Path) -> None:
    hostile_files.sqlite_schema_bomb(
        tmp_path / "wide.sqlite", tables=40, columns=2000, chain=12, triggers=200
    )
    result, seconds = _read(tmp_path, "wide.sqlite")
    assert seconds < 8
    notes = " ".join(result.notes)
    assert "the schema lists at most 10,000 columns (MAX_SCHEMA_COLUMNS); 28 tables/views" in notes
    assert "'t27'" in notes and "read one with table=NAME" in notes
    assert "### Table: t26 (0 rows)\n  - c0 " in result.text and "c499" in result.text
    assert "### Table: t27 (unknown rows)\n" in result.text  # listed, its columns left out
    assert len(result.text) < 1_500_000  # 100 tables of 500 columns made 6.4 MB
    one, _ = _read(tmp_path, "wide.sqlite", table="t39", rows="head:1")
    assert one.header["Table"].startswith("t39") and "c499" in one.header["Columns"]


def test_sqlite_schema_statement_over_the_cap_is_a_typed_error(tmp_path: Path) -> None:
    with sqlite3.connect(tmp_path / "big.sqlite") as conn:
        conn.execute(f"CREATE TABLE t (a TEXT DEFAULT '{'x' * 1_100_000}')")
    with pytest.raises(docread.ExtractionError, match=r"big\.sqlite: .*MAX_SCHEMA_SQL"):
        _read(tmp_path, "big.sqlite")


def test_sqlite_object_count_is_capped_with_a_note(tmp_path: Path) -> None:
    conn = sqlite3.connect(tmp_path / "many.sqlite")
    conn.executescript(
        "BEGIN;" + "".join(f"CREATE TABLE t{i:04d} (a);" for i in range(1050)) + "COMMIT;"
    )
    conn.close()
    result, seconds = _read(tmp_path, "many.sqlite")
    assert seconds < 20
    assert any("1,050 tables and views; the first 1,000" in n for n in result.notes)
    assert "t0999" in result.text and "t1000" not in result.text
    assert len(result.notes) < 30  # per-table notes are capped too
    past, _ = _read(tmp_path, "many.sqlite", table="t1049")
    assert past.header["Table"].startswith("t1049")


@pytest.mark.parametrize(
    ("name", "options", "size", "member"),
    [
        ("negative.tar", {}, -512, "m1.txt"),
        ("negative.tar", {"archive_path": "m2.txt"}, -512, "m1.txt"),
        ("negative.tar.gz", {}, -512, "m1.txt"),
        ("past-end.tar", {}, 10**9, "m1.txt"),
        ("past-end.tar", {"mode": "extract", "pattern": "*"}, 10**9, "m1.txt"),
    ],
)
def test_tar_header_that_cannot_be_right_is_refused_at_once(
    tmp_path: Path, name: str, options: dict[str, object], size: int, member: str
) -> None:
    hostile_files.tar_bad_size(tmp_path / name, size=size)
    start = time.monotonic()
    with pytest.raises(
        docread.ExtractionError, match=rf"{name}::{member}: the tar header declares {size:,} bytes"
    ):
        _read(tmp_path, name, {**CONFIG, "global_timeout": 20}, **options)
    assert time.monotonic() - start < 8  # it looped until the archive_list or global timeout


def test_pdf_content_stream_bomb_is_cut_with_a_note(tmp_path: Path) -> None:
    hostile_files.pdf_operator_bomb(tmp_path / "ops.pdf", megabytes=12)
    result, seconds = _read(tmp_path, "ops.pdf")
    assert any("pdf.max_page_content=4,194,304" in n for n in result.notes)
    assert 0 < len(result.text) < 4_000_000
    assert seconds < 30


def test_a_content_bomb_lying_about_its_length_is_still_cut(tmp_path: Path) -> None:
    """The cheap bound (raw bytes x Deflate's largest ratio) uses the bytes MuPDF reads, not the
    stream's /Length: a bomb that declares 10 bytes is inflated, found past the cap and cut."""
    path = hostile_files.pdf_operator_bomb(tmp_path / "ops.pdf", megabytes=12)
    data = path.read_bytes()
    declared = re.search(rb"/Length (\d+) /Filter /FlateDecode", data)
    assert declared is not None and int(declared.group(1)) > 10_000
    path.write_bytes(data.replace(declared.group(0), b"/Length 10 /Filter /FlateDecode", 1))
    result, _ = _read(tmp_path, "ops.pdf", SMALL_CAP)
    assert any("pdf.max_page_content=524,288" in n for n in result.notes)
    assert 0 < len(result.text) < 524_288


@pytest.mark.parametrize(
    ("where", "filters"),
    [
        ("form", b"/FlateDecode"),  # two forms deep: not in the page's /Contents
        ("form", b"[/FlateDecode]"),  # a chain of one Flate
        ("form", b"[/ASCIIHexDecode /FlateDecode]"),  # a chain only MuPDF decodes
        ("form", b"/FlateDecode /DecodeParms << /Predictor 1 >>"),  # Flate with parameters
        ("split", b"/FlateDecode"),  # 8 streams, each under the cap, not together
    ],
)
def test_a_content_bomb_out_of_the_pages_contents_is_cut_too(
    tmp_path: Path, where: str, filters: bytes
) -> None:
    """The guard bounds every stream MuPDF may interpret for the page: its content streams
    together and the form XObjects its resources reach, nested ones included, whatever their
    filter chain. (At SMALL_CAP, an eighth of the default, with a third of the default case's
    bytes: split, each of the 8 streams, 256 KiB, is under the cap, not the 2 MiB together.)"""
    hostile_files.pdf_hidden_bomb(
        tmp_path / "hidden.pdf", megabytes=2, where=where, filters=filters
    )
    result, seconds = _read(tmp_path, "hidden.pdf", SMALL_CAP)
    assert any("pdf.max_page_content=524,288" in n for n in result.notes)
    assert 0 < len(result.text) < 524_288
    assert seconds < 30


def test_a_content_bomb_whose_objects_need_a_repair_is_still_cut(tmp_path: Path) -> None:
    """A file whose xref points the forms' objects a few bytes off is repaired in the middle
    of the guard's walk (MuPDF reloads its objects when it meets them), and the bomb two forms
    deep is still found and cut, in process (at SMALL_CAP, as the other ways in)."""
    path = hostile_files.pdf_hidden_bomb(tmp_path / "hidden.pdf", megabytes=2, where="form")
    data = path.read_bytes()
    table = data.rindex(b"\nxref\n") + 1
    rows = data[table:].split(b"\n")
    for row in (7, 8):  # objects 5 and 6: the two forms, 7 bytes off
        rows[row] = b"%010d" % (int(rows[row][:10]) + 7) + rows[row][10:]
    path.write_bytes(data[:table] + b"\n".join(rows))
    import pymupdf

    with pymupdf.open(path) as doc:  # opened as it is: the repair comes with the forms' objects
        assert not doc.is_repaired
    config = {**SMALL_CAP, "isolation": {"enabled": False}}
    result, seconds = _read(tmp_path, "hidden.pdf", config)
    assert any("pdf.max_page_content=524,288" in n for n in result.notes)
    assert 0 < len(result.text) < 1_000_000
    assert seconds < 30


def test_an_outline_nested_1500_deep_costs_the_outline_not_the_text(tmp_path: Path) -> None:
    """``get_toc`` recursed once per level: the whole read failed ("structure nested too
    deeply"). The outline is dropped with a note; the headings come from the fonts."""
    hostile_files.pdf_deep_outline(tmp_path / "deep.pdf", depth=1500)
    result, seconds = _read(tmp_path, "deep.pdf", output_format="markdown")
    assert "# Deep outline" in result.text
    assert "The body text of the page stays readable." in result.text
    assert any("outline could not be used (over 64 levels deep)" in n for n in result.notes)
    assert seconds < 10


def test_a_page_of_20000_rules_keeps_its_text_without_table_search(tmp_path: Path) -> None:
    """find_tables on a page of 120,000 rules ran 100 s and 900 MB; the page's paths are
    counted first (pdf.table_max_paths) and the page keeps its text, with one note."""
    hostile_files.pdf_vector_grid(tmp_path / "grid.pdf", pages=2, lines=20_000)
    result, seconds = _read(tmp_path, "grid.pdf", output_format="markdown")
    assert result.text.count("cell") >= 180  # every word of both pages
    assert any(
        n.startswith("Pages 1-2: more drawn paths than pdf.table_max_paths=5,000")
        for n in result.notes
    )
    assert seconds < 10


def test_a_page_over_the_table_budgets_seconds_keeps_its_text_without_its_table(
    tmp_path: Path,
) -> None:
    """pdf.table_max_seconds: a page whose text pass took longer is not searched for rules (a
    budget of a microsecond: every page): its words stay, its ruled table is not made, one note."""
    rows = [["Item", "Qty"], ["apple", "3"], ["pear", "5"]]
    factories.pdf(tmp_path / "table.pdf", [factories.table_page(rows)])
    over, _ = _read(
        tmp_path, "table.pdf", {**CONFIG, "pdf": {"table_max_seconds": 1e-6}},
        output_format="markdown",
    )  # fmt: skip
    within, _ = _read(tmp_path, "table.pdf", output_format="markdown")
    assert "| apple | 3 |" in within.text and not within.notes
    assert "|" not in over.text and "apple" in over.text and "pear" in over.text
    assert over.notes == [
        "Page 1: more drawn paths than pdf.table_max_paths=5,000 or a text pass over "
        "pdf.table_max_seconds=1e-06 s: the text is complete, but ruled tables were not looked for."
    ]


def test_the_table_budget_counts_the_pages_own_cpu_not_its_wait(tmp_path: Path) -> None:
    """A page's text pass is timed in its thread's CPU: a reading held up (another thread holds
    the GIL in one C call: the wait a loaded machine or a busy process makes) is not over the
    budget for the wait. Timed by the clock, tables came off pages at random under load."""
    from docread.extractors.pdf.tables.cells import over_budget
    from docread.extractors.pdf.text.reading import read_page

    doc = pymupdf.open(hostile_files.pdf_vector_grid(tmp_path / "grid.pdf", pages=1, lines=4000))

    def reading(read: dict[str, object]) -> None:
        start = time.perf_counter()
        read["text"] = read_page(doc[0], 5000)
        read["wall"] = time.perf_counter() - start

    held = []
    for _ in range(5):  # until the reading is under way when the GIL is taken from it
        read: dict[str, object] = {}
        thread = threading.Thread(target=reading, args=(read,))
        thread.start()
        time.sleep(0.002)
        start = time.perf_counter()
        sum(range(10_000_000))  # one C call: the GIL is not given up until it returns
        hold = time.perf_counter() - start
        thread.join()
        if cast(float, read["wall"]) > hold:  # it waited the whole hold
            held.append((cast(PageText, read["text"]), hold))
    assert held, "the reading never waited for the GIL"
    for text, hold in held:
        assert text.seconds < hold / 2 and not over_budget(text, hold / 2)


def test_running_out_of_worker_memory_is_resource_limit_error(tmp_path: Path) -> None:
    """A 12 MB operator bomb under a 400 MB worker limit: what a bomb costs is the memory it
    fills up to the limit (24 MB under 600 MB took twice the CPU for the same error)."""
    hostile_files.pdf_operator_bomb(tmp_path / "ops.pdf", megabytes=12)
    config = {**CONFIG, "memory": {"max_worker_mb": 400}, "pdf": {"max_page_content": 64 << 20}}
    with pytest.raises(
        docread.ResourceLimitError, match=r"ops\.pdf: .*memory\.max_worker_mb=400 MB"
    ):
        _read(tmp_path, "ops.pdf", config)
    assert issubclass(docread.ResourceLimitError, docread.ExtractionError)


def test_csv_header_past_the_column_cap_is_cut_while_read(tmp_path: Path) -> None:
    hostile_files.wide_csv(tmp_path / "wide.csv", columns=500_001, rows=2)
    result, seconds = _read(tmp_path, "wide.csv")
    assert any("500,001 columns; only the first 500" in n for n in result.notes)
    assert not any("Ragged" in n for n in result.notes)
    assert seconds < 15
    with docread.Reader(tmp_path, config=CONFIG, shared_pool=True) as reader:
        docs = list(reader.iter_documents("wide.csv"))
    assert len(docs) == 1 and "| c499 |" in docs[0].text and "c500" not in docs[0].text


def test_deeply_nested_rtf_is_refused_before_pandoc(tmp_path: Path) -> None:
    hostile_files.nested_rtf(tmp_path / "deep.rtf", depth=200_000)
    start = time.monotonic()
    with pytest.raises(docread.ExtractionError, match=r"deep\.rtf: .*1,000 deep.*RTF_MAX_DEPTH"):
        _read(tmp_path, "deep.rtf")
    assert time.monotonic() - start < 10
    hostile_files.nested_rtf(tmp_path / "ok.rtf", depth=50)
    assert "deep" in _read(tmp_path, "ok.rtf")[0].text


@pytest.mark.parametrize("name", ["nest.docx", "nest.odt", "nest.odp"])
def test_a_hyperlink_nest_100000_deep_keeps_its_inner_text(tmp_path: Path, name: str) -> None:
    """Past 32 inline levels the in-process readers take the words without recursing: no
    RecursionError, so no pandoc fallback (which lost the inner text of an ODT and spent its
    whole timeout on a DOCX) and no failed slide (ODP)."""
    hostile_files.link_nest(tmp_path / name, depth=100_000)
    config = {**CONFIG, "archive": {"max_compression_ratio": 2000}}  # the nest compresses well
    result, seconds = _read(tmp_path, name, config)
    assert "INNER TEXT" in result.text
    assert not any("pandoc" in note for note in result.notes)
    assert seconds < 10


def test_noise_is_not_sent_to_ocr(tmp_path: Path) -> None:
    hostile_files.noise_pdf(tmp_path / "noise.pdf", width=1275, height=1650)
    result, seconds = _read(tmp_path, "noise.pdf")
    assert any("looks like noise" in n for n in result.notes)
    assert not any("OCR found no text" in n for n in result.notes)
    assert result.documents[0].metadata["ocr"] is False
    hostile_files.noise_png(tmp_path / "noise.png", width=1275, height=1650)
    image, _ = _read(tmp_path, "noise.png", ocr=True)
    assert any("looks like noise" in n for n in image.notes)


def test_noise_check_passes_text_and_photos() -> None:
    import numpy as np
    import pymupdf
    from docread.extractors.ocr import noise_correlation
    from PIL import Image

    doc = pymupdf.open()
    page = doc.new_page()
    for i in range(40):
        page.insert_text((72, 80 + 16 * i), "The quick brown fox jumps over the lazy dog 0123")
    pix = page.get_pixmap(dpi=300, colorspace=pymupdf.csGRAY)
    text = Image.frombytes("L", (pix.width, pix.height), pix.samples)
    photo = Image.radial_gradient("L").resize((1200, 1200))
    noise = Image.fromarray(np.random.default_rng(3).integers(0, 2, (900, 900), np.uint8) * 255)
    assert noise_correlation(text) is None and noise_correlation(photo) is None
    assert noise_correlation(noise) is not None  # black-and-white noise too


def test_default_worker_memory_limit_is_1024_mb() -> None:
    assert docread.Settings().memory.max_worker_mb == 1024
    yaml_file = Path(__file__).resolve().parents[2] / "tools-security.yaml"
    assert docread.Settings.load(yaml_file).memory.max_worker_mb == 1024


# -- issue 32: small files whose attributes multiply -----------------------------------------------
TIGHT = {**CONFIG, "global_timeout": 30, "memory": {"max_worker_mb": 400}}


def _load(tmp_path: Path, name: str, config: dict[str, object] | None = None, **options: object):
    """iter_documents of one file: (documents, notes, seconds)."""
    notes: list[str] = []
    with docread.Reader(tmp_path, config=config or TIGHT, shared_pool=True) as reader:
        start = time.monotonic()
        docs = list(reader.iter_documents(name, on_note=lambda _, n: notes.append(n), **options))
        return docs, notes, time.monotonic() - start


def test_xlsx_cells_at_the_far_corners_read_in_seconds(tmp_path: Path) -> None:
    """A1 and XFD1048576, no <dimension>: openpyxl padded every row to 16,384 columns and every
    missing row between them (17 billion cells, the global timeout); rows missing from the XML
    now cost nothing and are not shown."""
    hostile_files.xlsx_far_corners(tmp_path / "corners.xlsx")
    docs, notes, seconds = _load(tmp_path, "corners.xlsx")
    assert seconds < 15
    assert len(docs) == 1 and docs[0].metadata["total_rows"] == 1_048_575
    assert docs[0].text.splitlines()[2].startswith("| top | B | C |")  # the header, no rows
    assert any("first 500 of 16384 columns" in n for n in notes)
    head, seconds = _read(tmp_path, "corners.xlsx", TIGHT, rows="head:5")
    assert seconds < 10
    assert "rows='head:5' holds no values in the columns read." in head.notes
    corner, _ = _read(tmp_path, "corners.xlsx", TIGHT, rows="1048575", columns="XFD")
    assert corner.documents[0].text.splitlines()[-1] == "| 1048575 | bottom |"


def test_xlsx_rows_missing_from_the_xml_are_skipped_with_their_numbers(tmp_path: Path) -> None:
    hostile_files.xlsx_sheet(
        tmp_path / "gaps.xlsx",
        b'<sheetData><row r="1"><c r="A1" t="inlineStr"><is><t>name</t></is></c>'
        b'<c r="B1" t="inlineStr"><is><t>n</t></is></c></row>'
        b'<row r="2"><c r="A2" t="inlineStr"><is><t>a</t></is></c><c r="B2"><v>1</v></c></row>'
        b'<row r="9"><c r="A9" t="inlineStr"><is><t>b</t></is></c><c r="B9"><v>2</v></c></row>'
        b"</sheetData>",
    )
    result, _ = _read(tmp_path, "gaps.xlsx")
    assert result.documents[0].text.splitlines()[-2:] == ["| 1 | a | 1 |", "| 8 | b | 2 |"]
    assert result.header["Rows"] == "1-8 of 8"
    docs, _, _ = _load(tmp_path, "gaps.xlsx")
    assert [(d.metadata["row_start"], d.metadata["row_end"]) for d in docs] == [(1, 8)]


def test_sheet_extent_reads_the_cells_holding_values_at_c_speed() -> None:
    """The size of a sheet without a <dimension> comes from a regex pass over its XML, not from
    openpyxl parsing every row (14 s for 400,000 rows); cells without a reference are placed by
    their rows (prefixed or not), whose count gives the last row (the column is then unknown)."""
    import io

    from docread.extractors.deadline import Deadline
    from docread.extractors.tables.workbook import sheet_extent

    deadline = Deadline("s.xlsx", 60, "timeouts.tabular_load")
    refs = (b'<sheetData><row r="2"><c r="B2"><v>1</v></c><c r="AA2" s="3"/></row>'
            b'<row r="7"><c r="C7" t="inlineStr"><is><t>x</t></is></c></row>'
            b'<row r="9"><c r="XFD9" s="1"/></row></sheetData>')  # fmt: skip
    assert sheet_extent(io.BytesIO(refs), deadline) == (7, 3)
    bare = b"<x:sheetData>" + b"<x:row><x:c><x:v>1</x:v></x:c></x:row>" * 5 + b"</x:sheetData>"
    assert sheet_extent(io.BytesIO(bare), deadline) == (5, None)


@pytest.mark.parametrize("name", ["repeat.odt", "repeat.ods"])
def test_odf_repeats_are_capped_by_their_product(tmp_path: Path, name: str) -> None:
    """1,024 rows x 1,024 repeated cells, 100 times over (900 bytes): 100M cells, each attribute
    under its own cap; the ODT table is cut at output.max_table_cells, the ODS sheet is read
    lazily and cut by the file's output budget."""
    hostile_files.odf_repeated_table(tmp_path / name)
    docs, notes, seconds = _load(tmp_path, name)
    assert seconds < 20  # main: the global timeout at 838 MB (ODT), out of memory (ODS)
    text = "".join(d.text for d in docs)
    assert docs[-1].metadata["truncated"] is True and "| x | x |" in text
    assert len(text) <= 1024 * 1024 + 100  # min_text_budget: the file is 900 bytes
    assert any("output.max_text_ratio=100" in n for n in notes)
    if name.endswith(".odt"):  # the table is cut where the budget is spent, and says so
        assert any(n.startswith("A table was cut: the file's output budget") for n in notes)
    view, seconds = _read(tmp_path, name, TIGHT)
    assert seconds < 20 and "| x | x |" in view.text


def test_epub_chapter_named_100000_times_is_read_once(tmp_path: Path) -> None:
    hostile_files.epub_repeated_spine(tmp_path / "spine.epub", times=100_000, chapter_kb=100)
    result, seconds = _read(tmp_path, "spine.epub", TIGHT)
    assert seconds < 20  # main: the MathML check read the chapter 100,000 times (timeout)
    assert len(result.documents) == 1 and result.header["Chapters"].startswith("1 of 1")


def test_epub_spine_repeats_are_dropped_for_pandoc(tmp_path: Path) -> None:
    """A chapter holding MathML goes to pandoc: it gets the spine with each chapter once."""
    from docread.extractors.office.epub import spine_once

    opf = b'<spine><itemref idref="a"/><itemref idref="b" linear="no"/><itemref idref="a"/></spine>'
    assert spine_once("OEBPS/content.opf", opf) == (
        b'<spine><itemref idref="a"/><itemref idref="b" linear="no"/></spine>'
    )
    assert spine_once("OEBPS/c.xhtml", opf) == opf
    path = hostile_files.epub_repeated_spine(tmp_path / "math.epub", times=3_000, chapter_kb=20)
    with zipfile.ZipFile(path) as z:
        members = [(i.filename, z.read(i)) for i in z.infolist()]
    math = b"<math xmlns='http://www.w3.org/1998/Math/MathML'><mi>x</mi></math>"
    members = [(n, d.replace(b"<h1>Chapter</h1>", b"<h1>Chapter</h1>" + math)) for n, d in members]
    hostile_files._package(path, members, stored=("mimetype", "OEBPS/content.opf"))
    result, _ = _read(tmp_path, "math.epub", TIGHT)
    assert len(result.documents) == 1  # main: 3,000 chapters, pandoc's output cut at its cap
    assert not any("larger than the output cap" in n for n in result.notes)


@pytest.mark.parametrize("isolated", [True, False], ids=["worker", "in-process"])
def test_docx_list_level_is_clamped_to_words_nine(tmp_path: Path, isolated: bool) -> None:
    """w:ilvl="100000000" indented the item by 300 MB (five such paragraphs: out of memory; with
    isolation off, in the host)."""
    level = 10**8 if isolated else 10**7  # in the host: 30 MB a line is proof enough
    hostile_files.docx_deep_list(tmp_path / "deep.docx", level=level, paragraphs=5)
    config = {**TIGHT, "isolation": {"workers": 1, "enabled": isolated}}
    result, _ = _read(tmp_path, "deep.docx", config)
    assert result.documents[0].text.splitlines() == ["List:", ""] + [" " * 24 + "- item"] * 5


def test_slide_levels_and_spaces_are_clamped(tmp_path: Path) -> None:
    hostile_files.pptx_deep_bullet(tmp_path / "deep.pptx")
    hostile_files.odp_spaces(tmp_path / "spaces.odp")
    assert len(_read(tmp_path, "deep.pptx", TIGHT)[0].documents[0].text) < 100
    odp = _read(tmp_path, "spaces.odp", TIGHT)[0].documents[0].text
    assert odp.endswith("a" + " " * 100 + "b")  # main: a billion spaces


def test_one_table_renderer_bounds_cells_after_spans() -> None:
    from docread.extractors.markdown import TABLE_CUT, Cell, Grid, TableCaps, grid_table

    notes: list[str] = []
    start = time.monotonic()
    spans = Grid([[Cell("x", rowspan=10**9, colspan=10**9)] * 10] * 2000)
    table = grid_table(spans, TableCaps(max_cells=50_000, warn=notes.append))
    assert time.monotonic() - start < 5
    rows = table.splitlines()  # each row wider than the one above: the spans carry down
    assert rows[-1] == (
        f"{TABLE_CUT}2 rows: over output.max_table_cells=50,000 cells once its spans are placed]"
    )
    assert [row.count("| x") for row in rows[:-2] if "x" in row] == [10_000, 20_000]
    assert notes == [
        "A table was cut: over output.max_table_cells=50,000 cells once its spans are placed; "
        "the rows past the cut are left out and a line under the table says so (metadata "
        "truncated)."
    ]
    wide = grid_table(Grid([[Cell("y", colspan=10**9)] * 100]), TableCaps(max_cells=2_500))
    assert wide.splitlines()[0].count("| y") == 2_500 and "first row has more than" in wide


def _html_spans(path: Path) -> Path:
    cells = "".join(f'<td rowspan="1000000000" colspan="1000000000">{i}</td>' for i in range(50))
    path.write_text(f"<html><body><table><tr>{cells}</tr>" + "<tr><td>z</td></tr>" * 50)
    return path


@pytest.mark.parametrize(
    ("name", "make"),
    [
        ("spans.docx", lambda p: hostile_files.docx_spans(p, cells=2_000)),
        ("spans.pptx", lambda p: hostile_files.pptx_spans(p, rows=50, cols=5)),
        ("spans.odt", lambda p: hostile_files.odf_repeated_table(p, elements=2, repeat=200)),
        ("spans.html", _html_spans),
    ],
)
def test_every_family_cuts_a_table_at_its_cells(tmp_path: Path, name: str, make) -> None:
    make(tmp_path / name)
    config = {**TIGHT, "output": {"max_table_cells": 20_000}}
    docs, notes, _ = _load(tmp_path, name, config)
    cut = [d for d in docs if "[table cut after " in d.text]
    assert len(cut) == 1 and cut[0].metadata["truncated"] is True
    assert any("output.max_table_cells=20,000" in n for n in notes)
    widest = max(line.count("|") for d in docs for line in d.text.splitlines())
    assert widest <= 20_001


def test_docx_and_pptx_spans_of_a_billion_stay_bounded(tmp_path: Path) -> None:
    """gridSpan 10**9 on 200,000 cells (each cut at 1,000 columns: 200M cells) and PPTX
    rowSpan 10**9 (no cap at all) reached the memory limit."""
    hostile_files.docx_spans(tmp_path / "spans.docx")
    hostile_files.pptx_spans(tmp_path / "spans.pptx")
    for name in ("spans.docx", "spans.pptx"):
        docs, notes, seconds = _load(tmp_path, name)
        assert seconds < 30, name
        assert any("output.max_table_cells=1,000,000" in n for n in notes), name
        assert sum(len(d.text) for d in docs) < 12_000_000


def test_a_files_text_is_cut_at_its_output_budget(tmp_path: Path) -> None:
    """One 30 KB shared string in every row: each cell is cut at 1,000 characters, and the
    loader still made 423 MB from 785 KB. The file's text stops at 100x its bytes, in the loader
    and the agent view, with a note and ``truncated`` on the unit cut."""
    path = hostile_files.xlsx_shared_string(tmp_path / "shared.xlsx", rows=40_000)
    budget = 100 * path.stat().st_size
    docs, notes, _ = _load(tmp_path, "shared.xlsx")
    assert budget - 10_000 < sum(len(d.text) for d in docs) <= budget
    assert [d.metadata.get("truncated", False) for d in docs[-2:]] == [False, True]
    assert docs[-1].text.endswith("|\n... [content truncated] ...")  # cut after a whole row
    assert any(
        f"output budget of {budget:,} characters (output.max_text_ratio=100" in n for n in notes
    )
    assert docs[-1].metadata["row_end"] < 40_000  # the rows past the budget were not read
    view, _ = _read(tmp_path, "shared.xlsx", rows="1-40000")
    assert "The window stops at row" in " ".join(view.notes)  # an agent view shows 2x max_chars


def test_members_bring_their_own_output_budget(tmp_path: Path) -> None:
    """A member's text counts against the archive's budget, which grows by the member's own
    bytes: a zip of text whose text passes 2x the zip's bytes reads whole at max_text_ratio=2;
    a member that makes more text than 2x its own bytes is cut, with the note."""
    text = "".join(f"line {i} of a long plain text, deflated well\n" for i in range(20_000))
    factories.zip_archive(tmp_path / "text.zip", {"a.txt": text.encode()})
    config = {**TIGHT, "output": {"max_text_ratio": 2, "min_text_budget": 1000}}
    docs, notes, _ = _load(tmp_path, "text.zip", config)
    assert "".join(d.text for d in docs).count("line ") == 20_000 and not notes
    assert not any(d.metadata.get("truncated") for d in docs)
    hostile_files.xlsx_shared_string(tmp_path / "shared.xlsx", rows=2_000, length=3_000)
    data = (tmp_path / "shared.xlsx").read_bytes()
    factories.zip_archive(tmp_path / "sheet.zip", {"s.xlsx": data}, zipfile.ZIP_STORED)
    docs, notes, _ = _load(tmp_path, "sheet.zip", config)
    allowed = 2 * ((tmp_path / "sheet.zip").stat().st_size + len(data))
    assert sum(len(d.text) for d in docs) <= allowed and docs[-1].metadata["truncated"] is True
    assert any(f"output budget of {allowed:,} characters" in n for n in notes)


# -- every zip-based format goes through the package checks ----------------------------------------
MB = 1 << 20


def _zip(path: Path, members: list[tuple[str, bytes, int, int, int]]) -> Path:
    """A zip written by hand from (name, data as stored, method, crc, inflated size), so a
    member's deflate stream can be prebuilt instead of compressing gigabytes in the test."""
    local, central = bytearray(), bytearray()
    for name, data, method, crc, size in members:
        raw = name.encode()
        offset = len(local)
        local += struct.pack("<4s5H3L2H", b"PK\x03\x04", 20, 0, method, 0, 0x21, crc,
                             len(data), size, len(raw), 0) + raw + data  # fmt: skip
        central += struct.pack("<4s6H3L5H2L", b"PK\x01\x02", 20, 20, 0, method, 0, 0x21, crc,
                               len(data), size, len(raw), 0, 0, 0, 0, 0, offset) + raw  # fmt: skip
    end = struct.pack("<4s4H2LH", b"PK\x05\x06", 0, 0, len(members), len(members), len(central),
                      len(local), 0)  # fmt: skip
    path.write_bytes(bytes(local + central + end))
    return path


def _deflate_bomb(prefix: bytes, suffix: bytes, inflated: int) -> tuple[bytes, int, int]:
    """A valid raw deflate stream of ``prefix + b"x" * inflated + suffix`` built from one 1 MB
    block repeated (a full flush makes each copy stand alone): (stream, crc, size)."""
    chunk = b"x" * MB
    head = zlib.compressobj(9, zlib.DEFLATED, -15)
    body = zlib.compressobj(9, zlib.DEFLATED, -15)
    tail = zlib.compressobj(9, zlib.DEFLATED, -15)
    block = body.compress(chunk) + body.flush(zlib.Z_FULL_FLUSH)
    count = inflated // MB
    stream = (
        head.compress(prefix) + head.flush(zlib.Z_FULL_FLUSH) + block * count
        + tail.compress(suffix) + tail.flush()
    )  # fmt: skip
    crc = zlib.crc32(suffix, _crc_of_copies(chunk, count, zlib.crc32(prefix)))
    return stream, crc, len(prefix) + count * MB + len(suffix)


def _crc_of_copies(chunk: bytes, count: int, crc: int) -> int:
    """``zlib.crc32(chunk * count, crc)`` without reading gigabytes: a CRC over ``chunk`` maps the
    starting value affinely (over GF(2)), so 33 passes over ``chunk`` give that map, applied
    ``count`` times."""
    base = zlib.crc32(chunk, 0)
    columns = [zlib.crc32(chunk, 1 << bit) ^ base for bit in range(32)]
    for _ in range(count):
        crc = base ^ functools.reduce(
            operator.xor, (c for bit, c in enumerate(columns) if crc >> bit & 1), 0
        )
    return crc


def _with_bomb(real: Path, out: Path, member: str, cut: bytes, inflated: int) -> Path:
    """``real`` with ``member`` replaced by its own text, split at ``cut``, around a huge run."""
    with zipfile.ZipFile(real) as zf:
        parts = {i.filename: zf.read(i) for i in zf.infolist()}
    prefix, _, suffix = parts[member].partition(cut)
    members = []
    for name, data in parts.items():
        if name == member:
            stream, crc, size = _deflate_bomb(prefix + cut, suffix, inflated)
            members.append((name, stream, zipfile.ZIP_DEFLATED, crc, size))
        else:
            members.append((name, data, zipfile.ZIP_STORED, zlib.crc32(data), len(data)))
    return _zip(out, members)


@pytest.fixture(scope="module")
def bombs(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """A small ODS and XLSX whose one sheet inflates to 1.5 GB (a 1.5 MB file each)."""
    import openpyxl
    import pandas as pd

    folder = tmp_path_factory.mktemp("bombs")
    pd.DataFrame({"name": ["MARKER"]}).to_excel(folder / "real.ods", engine="odf", index=False)
    book = openpyxl.Workbook()
    sheet = book.active
    assert sheet is not None
    sheet.append(["name"])
    sheet.append(["MARKER"])
    book.save(folder / "real.xlsx")
    size = 1500 * MB
    return {
        "ods": _with_bomb(folder / "real.ods", folder / "bomb.ods", "content.xml", b"MARKER", size),
        "xlsx": _with_bomb(
            folder / "real.xlsx", folder / "bomb.xlsx", "xl/worksheets/sheet1.xml", b"<sheetData>",
            size,
        ),
    }  # fmt: skip


@pytest.mark.parametrize("isolated", [True, False], ids=["isolated", "in-process"])
@pytest.mark.parametrize("fmt", ["ods", "xlsx"])
def test_workbook_zip_bomb_is_refused_by_the_package_checks(
    bombs: dict[str, Path], fmt: str, isolated: bool
) -> None:
    bomb = bombs[fmt]
    assert bomb.stat().st_size < 2 * MB
    config = {"cache": {"enabled": False}, "isolation": {"enabled": isolated}}
    tracemalloc.start()
    try:
        with (
            docread.Reader(bomb.parent, config=config, shared_pool=True) as reader,
            pytest.raises(ArchiveSecurityError, match=rf"bomb\.{fmt}.*archive\.max_total_size"),
        ):
            reader.read(bomb.name)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < 20 * MB  # the host never inflated the sheet


def test_the_unbombed_workbooks_still_read(bombs: dict[str, Path]) -> None:
    """The generated originals are real workbooks: the bombs differ only in the one member."""
    folder = bombs["ods"].parent
    for name in ("real.ods", "real.xlsx"):
        assert (
            "MARKER"
            in docread.read(name, workspace=folder, config={"cache": {"enabled": False}}).text
        )


def test_a_flate_stream_with_a_harmless_head_and_a_bomb_in_its_tail_is_cut(
    tmp_path: Path,
) -> None:
    """The guard may clear a Flate stream from a head of it (what the head inflates to, plus
    Deflate's largest ratio times the bytes left): a stream whose first part is a page's text
    and whose rest inflates to 5 MB of operators is still found past the 4 MB cap and cut."""
    import pymupdf

    path = tmp_path / "tail.pdf"
    with pymupdf.open() as doc:
        page = doc.new_page()
        page.insert_text((72, 72), "Visible words at the head")
        xref = page.get_contents()[0]
        head = doc.xref_stream(xref)
        bomb = head + b"\n" + b"q Q\n" * (5 * 1024 * 1024 // 4)
        doc.update_stream(xref, zlib.compress(bomb, 9), compress=False)
        doc.xref_set_key(xref, "Filter", "/FlateDecode")
        doc.save(path)
    with pymupdf.open(path) as doc:
        raw = len(doc.xref_stream_raw(doc[0].get_contents()[0]))
    assert raw < 4 * 1024 * 1024 // 1032 * 2  # a few KB: the head's inflating decides
    result, _ = _read(tmp_path, "tail.pdf")
    assert any("pdf.max_page_content=4,194,304" in n for n in result.notes)
    assert "Visible words at the head" in result.text
