"""Hostile inputs stay cheap: each ends in a typed error or a bounded result with a note, with
the worker under its memory limit and within seconds. The files are made small in each test
(tests/hostile_files.py; bench/hostile.py makes them at full size and measures them)."""

from __future__ import annotations

import re
import sqlite3
import time
from pathlib import Path

import docread
import hostile_files
import pytest

pytestmark = pytest.mark.timeout(180)

CONFIG = {"cache": {"enabled": False}, "global_timeout": 60, "isolation": {"workers": 1}}


def _read(tmp_path: Path, name: str, config: dict[str, object] | None = None, **options: object):
    with docread.Reader(tmp_path, config=config or CONFIG) as reader:
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
    result, _ = _read(tmp_path, "ops.pdf")
    assert any("pdf.max_page_content=4,194,304" in n for n in result.notes)
    assert 0 < len(result.text) < 4_000_000


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


def test_running_out_of_worker_memory_is_resource_limit_error(tmp_path: Path) -> None:
    hostile_files.pdf_operator_bomb(tmp_path / "ops.pdf", megabytes=24)
    config = {**CONFIG, "memory": {"max_worker_mb": 600}, "pdf": {"max_page_content": 64 << 20}}
    with pytest.raises(
        docread.ResourceLimitError, match=r"ops\.pdf: .*memory\.max_worker_mb=600 MB"
    ):
        _read(tmp_path, "ops.pdf", config)
    assert issubclass(docread.ResourceLimitError, docread.ExtractionError)


def test_csv_header_past_the_column_cap_is_cut_while_read(tmp_path: Path) -> None:
    hostile_files.wide_csv(tmp_path / "wide.csv", columns=500_001, rows=2)
    result, seconds = _read(tmp_path, "wide.csv")
    assert any("500,001 columns; only the first 500" in n for n in result.notes)
    assert not any("Ragged" in n for n in result.notes)
    assert seconds < 15
    with docread.Reader(tmp_path, config=CONFIG) as reader:
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
    yaml_file = Path(__file__).resolve().parents[1] / "tools-security.yaml"
    assert docread.Settings.load(yaml_file).memory.max_worker_mb == 1024
