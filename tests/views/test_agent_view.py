"""The agent view tells the truth: one continuation hint (the first unit not shown), the same in
JSON, options that do not apply said, output budgets in tokens, header caps."""

from __future__ import annotations

import csv
import importlib.util
import json
import re
import socket
from pathlib import Path
from typing import Any

import docread
import factories
import pymupdf
import pytest
from docread.views.budget import estimate_tokens, token_counter

NO_CACHE: dict[str, Any] = {"cache": {"enabled": False}}


def _config(**output: Any) -> dict[str, Any]:
    return {**NO_CACHE, "output": output}


def _csv(path: Path, rows: int) -> None:
    with path.open("w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["id", "name", "value"])
        w.writerows([i, f"name{i}", i * 3] for i in range(1, rows + 1))


def _pdf(path: Path, pages: int, title: str = "") -> None:
    """Pages of ~550 characters as markdown (a paragraph each): max_chars=1550 holds two."""
    doc = pymupdf.open()
    for n in range(1, pages + 1):
        lines = [f"Page {n} text line {i} " + "word " * 8 for i in range(10)]
        doc.new_page().insert_text((72, 72), "\n".join(lines))
    if title:
        doc.set_metadata({"title": title})
    doc.save(path)


def _hints(text: str) -> list[str]:
    """The notes that say how to read on."""
    return [n for n in re.findall(r"^\[(.*)\]$", text, re.M) if "to continue" in n or "more" in n]


# -- 1. one continuation hint, the right one -------------------------------------------------------
def test_cut_csv_window_gives_one_hint_at_the_first_row_not_shown(tmp_path: Path) -> None:
    _csv(tmp_path / "big.csv", 3000)
    result = docread.read(
        "big.csv", workspace=tmp_path, rows="1-2000", config=_config(max_chars=2000)
    )
    text = result.render()
    last_shown = max(int(n) for n in re.findall(r"^\| (\d+) \|", text, re.M))
    assert _hints(text) == [
        f"Output truncated at the output limit (output.max_chars=2,000): use rows={last_shown + 1}- "
        "(or fewer columns) to continue"
    ]
    assert "2001" not in text  # the extractor's next window would skip the rows the cap cut


def test_uncut_csv_window_says_the_extractors_next_window(tmp_path: Path) -> None:
    _csv(tmp_path / "big.csv", 300)
    text = docread.read("big.csv", workspace=tmp_path, config=NO_CACHE).render()
    assert _hints(text) == ["Showing rows 1-50 of 300. Use rows='51-100' to read more."]


def test_capped_row_window_reads_on_by_the_rows_it_read(tmp_path: Path) -> None:
    """rows='1-150' over memory.max_dataframe_rows=100: the next window is 101-200, not 151-300."""
    _csv(tmp_path / "big.csv", 400)
    config = {**NO_CACHE, "memory": {"max_dataframe_rows": 100}}
    text = docread.read("big.csv", workspace=tmp_path, rows="1-150", config=config).render()
    assert _hints(text) == ["Showing rows 1-100 of 400. Use rows='101-200' to read more."]


def test_cut_pdf_shows_whole_pages_and_one_hint(tmp_path: Path) -> None:
    _pdf(tmp_path / "doc.pdf", 5)
    text = docread.read(
        "doc.pdf", workspace=tmp_path, pages="1-4", config=_config(max_chars=1550)
    ).render()
    assert "## Page 2" in text and "Page 2 text" in text and "## Page 3" not in text
    assert _hints(text) == [
        "Output truncated at the output limit (output.max_chars=1,550): use pages=3- to continue"
    ]


def test_cut_long_pdf_drops_the_page_limit_hint(tmp_path: Path) -> None:
    """Over pdf.max_pages_text the extractor says pages=4-6; the cap cut after page 2 first."""
    _pdf(tmp_path / "long.pdf", 6)
    config = {**_config(max_chars=1550), "pdf": {"max_pages_text": 3}}
    text = docread.read("long.pdf", workspace=tmp_path, config=config).render()
    assert _hints(text) == [
        "Output truncated at the output limit (output.max_chars=1,550): use pages=3- to continue"
    ]
    uncut = docread.read(
        "long.pdf", workspace=tmp_path, config={**NO_CACHE, "pdf": {"max_pages_text": 3}}
    )
    assert _hints(uncut.render()) == [
        "Showing pages 1-3 of the 6 selected (pdf.max_pages_text=3). Use pages=4-6 to read more."
    ]


def test_first_page_over_the_budget_is_shown_in_part_and_the_hint_moves_on(tmp_path: Path) -> None:
    _pdf(tmp_path / "doc.pdf", 3)
    text = docread.read("doc.pdf", workspace=tmp_path, config=_config(max_chars=500)).render()
    assert "## Page 1" in text and "## Page 2" not in text
    assert _hints(text)[-1].endswith("use pages=2- to continue")


def test_cut_text_window_gives_one_offset(tmp_path: Path) -> None:
    (tmp_path / "a.txt").write_text("".join(f"line {i}\n" for i in range(1, 5001)))
    text = docread.read("a.txt", workspace=tmp_path, config=_config(max_chars=600)).render()
    last = max(int(n) for n in re.findall(r"^\s+(\d+)\t", text, re.M))
    assert _hints(text) == [
        f"Output truncated at the output limit (output.max_chars=600): use offset={last + 1} to continue"
    ]


def test_archive_member_hint_names_the_member(tmp_path: Path) -> None:
    import zipfile

    with zipfile.ZipFile(tmp_path / "a.zip", "w") as z:
        z.writestr("dir/notes.txt", "".join(f"line {i}\n" for i in range(1, 500)))
    text = docread.read(
        "a.zip", workspace=tmp_path, mode="read", archive_path="dir/notes.txt",
        config=_config(max_chars=700),
    ).render()  # fmt: skip
    hint = _hints(text)
    assert len(hint) == 1 and "archive_path='dir/notes.txt' offset=" in hint[0]


# -- 2. JSON tells the same truth ------------------------------------------------------------------
def test_json_window_is_truncated_with_the_extractors_continuation(tmp_path: Path) -> None:
    (tmp_path / "a.txt").write_text("".join(f"line {i}\n" for i in range(1, 5001)))
    data = json.loads(
        docread.read(
            "a.txt", workspace=tmp_path, limit=2, output_format="json", config=NO_CACHE
        ).render()
    )
    assert data["documents"][0]["text"] == "line 1\nline 2"
    assert data["truncated"] is True
    assert data["continuation"] == "Showing lines 1-2 of 5,000. Use offset=3 to read more."


def test_json_obeys_max_lines_and_says_where_it_cut(tmp_path: Path) -> None:
    (tmp_path / "a.txt").write_text("".join(f"line {i}\n" for i in range(1, 101)))
    data = json.loads(
        docread.read(
            "a.txt",
            workspace=tmp_path,
            output_format="json",
            config=_config(max_lines=5, max_chars=10**6),
        ).render()
    )
    assert data["documents"][0]["text"].count("\n") + 1 <= 5
    assert data["truncated"] is True and data["continuation"].endswith("to read more.")
    cut = json.loads(
        docread.read(
            "a.txt", workspace=tmp_path, output_format="json", config=_config(max_chars=400)
        ).render()
    )
    shown = cut["documents"][0]["text"].count("\n") + 1
    assert cut["continuation"].endswith(f"use offset={shown + 1} to continue")


def test_a_cut_view_reports_what_it_shows_not_the_window_asked_for(tmp_path: Path) -> None:
    (tmp_path / "a.txt").write_text("".join(f"line {i} " + "x" * 50 + "\n" for i in range(1, 1001)))
    text = json.loads(
        docread.read(
            "a.txt", workspace=tmp_path, output_format="json", config=_config(max_chars=4000)
        ).render()
    )["documents"][0]
    last = text["text"].count("\n") + 1
    assert 1 < last < 1000 and text["text"].splitlines()[-1].startswith(f"line {last} ")
    assert text["metadata"]["line_start"] == 1 and text["metadata"]["line_end"] == last
    assert text["metadata"]["truncated"] is True

    _csv(tmp_path / "big.csv", 500)
    rows = json.loads(
        docread.read(
            "big.csv", workspace=tmp_path, rows="1-400", output_format="json",
            config=_config(max_chars=3000),
        ).render()
    )  # fmt: skip
    table = rows["documents"][0]
    shown_rows = table["text"].count("\n") - 1  # header and rule
    assert table["metadata"]["row_end"] == shown_rows < 400
    assert rows["header"]["Rows"] == f"1-{shown_rows} of 500 (cut by the output limit)"

    _pdf(tmp_path / "doc.pdf", 40)
    for output_format in ("json", "text"):
        out = docread.read(
            "doc.pdf", workspace=tmp_path, pages="1-30", output_format=output_format,
            config=_config(max_chars=6000),
        ).render()  # fmt: skip
        # (line 0 opens every page with only the page number changed: a running header, removed)
        shown = re.findall(r"Page (\d+) text line 1 ", out)
        assert 1 < len(shown) < 30
        header = json.loads(out)["header"]["Pages"] if output_format == "json" else out
        assert f"1-{len(shown)} of 40 (cut by the output limit)" in header


def test_json_whole_read_is_not_truncated(tmp_path: Path) -> None:
    (tmp_path / "a.txt").write_text("one\ntwo\n")
    data = json.loads(docread.read("a.txt", workspace=tmp_path, output_format="json").render())
    assert data["truncated"] is False and data["continuation"] == ""


# -- 5. token budget -------------------------------------------------------------------------------
def test_default_token_budget_cuts_a_long_window_with_a_hint(tmp_path: Path) -> None:
    (tmp_path / "wide.txt").write_text("".join(f"{i} " + "y" * 120 + "\n" for i in range(1, 2001)))
    text = docread.read("wide.txt", workspace=tmp_path, config=NO_CACHE).render()
    assert estimate_tokens(text) <= 25_000
    (hint,) = _hints(text)
    assert hint.startswith(
        "Output truncated at the output limit (output.max_tokens=25,000): use offset="
    )


def test_the_hint_names_the_limit_that_cut(tmp_path: Path) -> None:
    """A 100,000-row window is over max_chars as a whole, but max_tokens cuts it first."""
    _csv(tmp_path / "big.csv", 20_000)
    text = docread.read("big.csv", workspace=tmp_path, rows="1-20000", config=NO_CACHE).render()
    (hint,) = _hints(text)
    assert "(output.max_tokens=25,000)" in hint and estimate_tokens(text) <= 25_000


def test_token_budget_is_configurable(tmp_path: Path) -> None:
    (tmp_path / "a.txt").write_text("".join(f"line {i}\n" for i in range(1, 200)))
    text = docread.read("a.txt", workspace=tmp_path, config=_config(max_tokens=50)).render()
    assert estimate_tokens(text) <= 50 + 30  # the hint itself is said whatever it costs
    assert "output.max_tokens=50" in text


def test_cjk_text_costs_its_tokens(tmp_path: Path) -> None:
    """The estimate counts UTF-8 bytes: 1,000 CJK characters are not 250 tokens."""
    assert estimate_tokens("中" * 1000) == 750


def test_tiktoken_counts_exactly_when_its_encoding_is_cached(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # the encoding LlamaIndex ships, found without importing it (~2 s of CPU in a process)
    spec = importlib.util.find_spec("llama_index.core")
    assert spec is not None and spec.submodule_search_locations
    cache = Path(spec.submodule_search_locations[0]) / "_static" / "tiktoken_cache"
    monkeypatch.setenv("TIKTOKEN_CACHE_DIR", str(cache))
    token_counter.cache_clear()
    count = token_counter("cl100k_base")
    assert count is not estimate_tokens and count("hello world") == 2
    token_counter.cache_clear()


def test_tiktoken_never_downloads(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    tried: list[object] = []

    def no_network(self: socket.socket, address: object) -> None:
        tried.append(address)
        raise OSError("network disabled in this test")

    monkeypatch.setattr(socket.socket, "connect", no_network)
    monkeypatch.setenv("TIKTOKEN_CACHE_DIR", str(tmp_path))  # empty: o200k_base is not cached
    token_counter.cache_clear()
    assert token_counter("o200k_base") is estimate_tokens
    assert tried == []
    token_counter.cache_clear()


def test_unknown_token_counter_is_refused() -> None:
    token_counter.cache_clear()
    with pytest.raises(docread.SettingsError, match="output.token_counter"):
        token_counter("o201k_typo")


# -- 6. header caps --------------------------------------------------------------------------------
def test_pdf_title_in_the_header_is_capped(tmp_path: Path) -> None:
    _pdf(tmp_path / "t.pdf", 1, title="T" * 5000)
    text = docread.read(
        "t.pdf", workspace=tmp_path, config=_config(max_metadata_value_len=200)
    ).render()
    title = next(line for line in text.splitlines() if "Title:" in line)
    assert len(title) < 300 and "output.max_metadata_value_len=200" in title
    assert "Page 1 text" in text  # the header did not eat the output budget


def test_header_metadata_block_holds_max_metadata_fields(tmp_path: Path) -> None:
    doc = pymupdf.open()
    doc.new_page().insert_text((72, 72), "body")
    doc.set_metadata({"title": "A", "author": "B", "subject": "C", "keywords": "D"})
    doc.save(tmp_path / "m.pdf")
    text = docread.read("m.pdf", workspace=tmp_path, config=_config(max_metadata_fields=2)).render()
    block = text.split("**Metadata:**", 1)[1].split("\n---", 1)[0]
    assert "  - Title: A" in block and "  - Author: B" in block and "Subject" not in block
    assert "more (output.max_metadata_fields=2)" in block


# -- 3. options that do not apply are said --------------------------------------------------------
@pytest.mark.parametrize(
    ("name", "options", "note"),
    [
        pytest.param(
            "t.csv", {"offset": 5, "limit": 3},
            "offset=5, limit=3 do not apply to csv files and were ignored "
            "(csv files take columns, rows, sheet).",
            id="offset-limit-on-csv",
        ),
        pytest.param(
            "t.py", {"pages": "1-2"},
            "pages='1-2' does not apply to text files and was ignored (text files take limit, offset).",
            id="pages-on-code",
        ),
        pytest.param(
            "t.pdf", {"rows": "1-5"},
            "rows='1-5' does not apply to pdf files and was ignored "
            "(pdf files take extract_images, extract_tables, ocr, pages, view).",
            id="rows-on-pdf",
        ),
        pytest.param(
            "t.csv", {"sheet": "Q1"}, "sheet='Q1' is ignored: a csv file holds one table.",
            id="sheet-on-csv",
        ),
        pytest.param(
            ".", {"offset": 3},
            "offset=3 does not apply to directories and was ignored (directories take pattern).",
            id="offset-on-directory",
        ),
    ],
)  # fmt: skip
def test_options_that_do_not_apply_are_said(
    tmp_path: Path, name: str, options: dict[str, Any], note: str
) -> None:
    _csv(tmp_path / "t.csv", 5)
    (tmp_path / "t.py").write_text("print(1)\n")
    _pdf(tmp_path / "t.pdf", 1)
    with docread.Reader(tmp_path, config=NO_CACHE) as reader:
        result = reader.read(name, **options)
        assert note in result.notes and f"[{note}]" in result.render()
        data = json.loads(reader.read(name, dedupe=False, output_format="json", **options).render())
        assert note in data["notes"]


def test_options_that_apply_are_not_noted(tmp_path: Path) -> None:
    _csv(tmp_path / "t.csv", 5)
    result = docread.read("t.csv", workspace=tmp_path, rows="1-2", columns="A", config=NO_CACHE)
    assert not any("does not apply" in n for n in result.notes)


def test_member_options_go_to_the_member_and_are_checked_there(tmp_path: Path) -> None:
    import zipfile

    with zipfile.ZipFile(tmp_path / "a.zip", "w") as z:
        z.writestr("notes.txt", "one\ntwo\nthree\n")
    read = docread.read(
        "a.zip", workspace=tmp_path, mode="read", archive_path="notes.txt", offset=2,
        config=NO_CACHE,
    )  # fmt: skip
    assert "     2\ttwo" in read.render() and not read.notes
    listed = docread.read("a.zip", workspace=tmp_path, rows="1-2", config=NO_CACHE)
    assert any(n.startswith("rows='1-2' does not apply to zip files") for n in listed.notes)
    paged = docread.read(
        "a.zip", workspace=tmp_path, mode="read", archive_path="notes.txt", pages="1",
        config=NO_CACHE,
    )  # fmt: skip
    assert any(n.startswith("pages='1' does not apply to text files") for n in paged.notes)


# -- 4. a directory listing with a pattern walks like the loader -----------------------------------
def test_recursive_pattern_lists_what_the_loader_reads(tmp_path: Path) -> None:
    (tmp_path / "docs" / "deep").mkdir(parents=True)
    (tmp_path / "docs" / "a.md").write_text("# A\n")
    (tmp_path / "docs" / "deep" / "b.md").write_text("# B\n")
    (tmp_path / "docs" / "c.txt").write_text("c\n")
    with docread.Reader(tmp_path, config=NO_CACHE) as reader:
        text = reader.read("docs", pattern="**/*.md").render()
        loaded = sorted(
            {d.metadata["file_name"] for d in reader.iter_documents("docs", pattern="**/*.md")}
        )
    assert "empty" not in text
    assert "a.md" in text and "deep/b.md" in text and "c.txt" not in text
    assert loaded == ["a.md", "b.md"]


# -- 7. view="pdf" ---------------------------------------------------------------------------------
def test_pdf_view_has_a_header_text(tmp_path: Path) -> None:
    _pdf(tmp_path / "d.pdf", 3)
    result = docread.read("d.pdf", workspace=tmp_path, view="pdf", config=NO_CACHE)
    text = result.render()
    assert "**Document:** d.pdf" in text and "**Pages:** 1-3 of 3" in text and "**Size:**" in text
    assert [m.mime_type for m in result.media] == ["application/pdf"]


def test_pdf_view_of_a_long_pdf_asks_for_pages_past_the_bound(tmp_path: Path) -> None:
    _pdf(tmp_path / "long.pdf", 30)
    result = docread.read("long.pdf", workspace=tmp_path, view="pdf", config=NO_CACHE)
    (part,) = result.media
    with pymupdf.open(stream=part.data, filetype="pdf") as sent:
        assert sent.page_count == 20  # pdf.max_visual_pages
    assert _hints(result.render()) == [
        "Showing pages 1-20 of the 30 selected (pdf.max_visual_pages=20). Use pages=21-30 to read more."
    ]


def test_pdf_view_for_a_model_without_pdf_sends_page_images(tmp_path: Path) -> None:
    from langchain_docread import ReadDocumentTool

    _pdf(tmp_path / "d.pdf", 2)
    tool = ReadDocumentTool(workspace=str(tmp_path), config=NO_CACHE)
    content, _ = tool._run("d.pdf", view="pdf")
    assert [b["type"] for b in content] == ["text", "image", "image"]
    assert content[0]["text"].startswith("**Document:** d.pdf")
    no_images = ReadDocumentTool(workspace=str(tmp_path), config=NO_CACHE, model_inputs={"text"})
    content, _ = no_images._run("d.pdf", view="pdf")
    assert [b["type"] for b in content] == ["text"] and "Page 1 text" in content[0]["text"]


# -- 8. format details -----------------------------------------------------------------------------
def test_a_windows_executable_is_refused_as_binary(tmp_path: Path) -> None:
    """An MZ header with NULs at every other byte looked like UTF-16 text and was decoded."""
    (tmp_path / "stub.dat").write_bytes(b"MZ" + b"\x90\x00\x03\x00" * 150)
    with pytest.raises(docread.FormatNotSupportedError, match="unsupported format"):
        docread.read("stub.dat", workspace=tmp_path, config=NO_CACHE)
    (tmp_path / "u16.txt").write_bytes("MZ is a name\n".encode("utf-16-le"))  # real UTF-16 text
    assert "MZ is a name" in docread.read("u16.txt", workspace=tmp_path, config=NO_CACHE).render()


def test_content_is_cleaned_never_refused() -> None:
    """ContentSanitizationError was defined and never raised: sanitization removes and notes."""
    assert not hasattr(docread, "ContentSanitizationError")


def _notebook(path: Path) -> None:
    trace = ["\x1b[0;31m----------\x1b[0m", "\x1b[0;31mKeyError\x1b[0m: 'price'"]
    nb = {
        "nbformat": 4, "nbformat_minor": 5,
        "metadata": {"kernelspec": {"name": "ir", "language": "R"}, "language_info": {"name": "R"}},
        "cells": [
            {"cell_type": "markdown", "metadata": {}, "source": "# Title"},
            {"cell_type": "code", "execution_count": 1, "metadata": {}, "source": "x <- c(1, 2)\nsum(x)",
             "outputs": [
                 {"output_type": "stream", "name": "stdout", "text": "3\n"},
                 {"output_type": "error", "ename": "KeyError", "evalue": "'price'", "traceback": trace},
             ]},
        ],
    }  # fmt: skip
    path.write_text(json.dumps(nb))


def test_notebook_code_is_fenced_in_its_language_with_output_blocks(tmp_path: Path) -> None:
    _notebook(tmp_path / "a.ipynb")
    result = docread.read("a.ipynb", workspace=tmp_path, config=NO_CACHE)
    text = result.documents[0].text
    assert "## Cell 2 [code] In [1]\n```R\nx <- c(1, 2)\nsum(x)\n```\n\n**Output:**\n3\n" in text
    assert text.count("KeyError") == 1 and text.rstrip().endswith("KeyError: 'price'")


def test_workbook_header_lists_every_sheet_with_its_size(tmp_path: Path) -> None:
    import openpyxl

    wb = openpyxl.Workbook()
    q1 = wb.active
    q1.title = "Q1"
    for r in range(1, 121):
        q1.append([r, r * 2, "x", 1, 2, 3])
    q2 = wb.create_sheet("Q2")
    for r in range(1, 81):
        q2.append([r, r])
    wb.create_sheet("Notes")["A1"] = "hello"
    wb.save(tmp_path / "sales.xlsx")
    text = docread.read("sales.xlsx", workspace=tmp_path, config=NO_CACHE).render()
    assert "**Sheet:** Q1 (1 of 3 sheets)" in text
    assert "**Sheets (rows x columns):** Q1 (120 x 6), Q2 (80 x 2), Notes (1 x 1)" in text


def _adts(frames: int) -> bytes:
    """Raw ADTS AAC: 7-byte frame headers (44.1 kHz, stereo, AAC LC) over silent payloads."""
    size = 7 + 100
    header = bytes(
        [0xFF, 0xF1, (1 << 6) | (4 << 2), (2 << 6) | (size >> 11), (size >> 3) & 0xFF,
         ((size & 7) << 5) | 0x1F, 0xFC]
    )  # fmt: skip
    return (header + b"\x00" * 100) * frames


def test_raw_adts_aac_is_read(tmp_path: Path) -> None:
    (tmp_path / "tone.aac").write_bytes(_adts(200))
    result = docread.read("tone.aac", workspace=tmp_path, config=NO_CACHE)
    meta = result.documents[0].metadata
    assert meta["sample_rate"] == 44100 and meta["channels"] == 2
    assert "**Duration:** 0:00:05" in result.render()


POM = """<?xml version="1.0" encoding="UTF-8"?>
<project xmlns="http://maven.apache.org/POM/4.0.0"
         xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance"
         xsi:schemaLocation="http://maven.apache.org/POM/4.0.0 https://maven.apache.org/xsd/maven-4.0.0.xsd">
  <modelVersion>4.0.0</modelVersion>
  <artifactId>demo</artifactId>
</project>
"""


def test_xml_gets_a_summary_before_its_lines(tmp_path: Path) -> None:
    (tmp_path / "pom.xml").write_text(POM)
    text = docread.read("pom.xml", workspace=tmp_path, config=NO_CACHE).render()
    head, body = text.split("\n---\n", 1)
    assert "**XML root:** <project>" in head and "**Elements:** 3" in head
    assert "(default)=http://maven.apache.org/POM/4.0.0" in head and "xsi=" in head
    assert "**Schema location:** http://maven.apache.org/POM/4.0.0 https://maven" in head
    assert "     1\t<?xml" in body


def test_xml_with_entities_is_not_expanded(tmp_path: Path) -> None:
    bomb = '<?xml version="1.0"?><!DOCTYPE r [<!ENTITY a "aaaaaaaaaa">]><r>&a;&a;</r>\n'
    (tmp_path / "bomb.xml").write_text(bomb)
    result = docread.read("bomb.xml", workspace=tmp_path, config=NO_CACHE)
    assert "XML root" not in result.header
    assert any("refused for safety" in n for n in result.notes)
    (tmp_path / "broken.xml").write_text("<a><b></a>\n")
    broken = docread.read("broken.xml", workspace=tmp_path, config=NO_CACHE)
    assert any("not well-formed XML" in n for n in broken.notes)
    assert "     1\t<a><b></a>" in broken.render()


def test_the_view_is_cut_at_max_bytes_whatever_the_token_count(tmp_path: Path) -> None:
    """The design's read tool caps a result at 200,000 bytes; with the token budget raised (or a
    tokenizer that counts few tokens), output.max_bytes still holds, with one hint."""
    (tmp_path / "wide.txt").write_text(
        "".join(f"line {n} " + "é" * 40 + "\n" for n in range(1, 501))
    )
    config = {"cache": {"enabled": False}, "output": {"max_tokens": 10**9, "max_bytes": 5000}}
    with docread.Reader(tmp_path, config=config) as reader:
        view = reader.read("wide.txt").render()
    assert len(view.encode()) <= 5000
    assert "output.max_bytes=5,000" in view and view.count("to continue") == 1


@pytest.mark.parametrize("fields", [3, 8])
def test_a_small_metadata_field_cap_never_changes_how_units_render(
    tmp_path: Path, fields: int
) -> None:
    """The cap keeps every key the views decide by (``extractor`` picks the cat -n lines, the
    table summary, ``## Page N``; the windows' ends pick the hint): only descriptive keys go."""
    (tmp_path / "a.py").write_text("import os\n\n\ndef f():\n    return 1\n" * 30)
    _csv(tmp_path / "t.csv", 80)
    _pdf(tmp_path / "p.pdf", 2)
    (tmp_path / "h.html").write_text("<h1>Title</h1><p>" + "word " * 50 + "</p>" * 3)
    reads = [("a.py", {"limit": 40}), ("t.csv", {}), ("p.pdf", {}), ("h.html", {})]
    for name, options in reads:
        full = docread.read(name, workspace=tmp_path, config=NO_CACHE, **options)
        capped = docread.read(
            name, workspace=tmp_path, config=_config(max_metadata_fields=fields), **options
        )
        assert capped.render() == full.render(), name
        assert capped.documents[0].metadata["extractor"] == full.documents[0].metadata["extractor"]
    text = docread.read("a.py", workspace=tmp_path, config=_config(max_metadata_fields=fields))
    assert "     1\timport os" in text.render()


def test_an_images_exif_block_holds_max_metadata_fields(tmp_path: Path) -> None:
    """The EXIF list of an image's header is a header block like the view's Metadata: at most
    ``max_metadata_fields`` lines, the rest counted."""
    from factories import jpeg_with_exif

    jpeg_with_exif(tmp_path / "photo.jpg")
    full = docread.read("photo.jpg", workspace=tmp_path, config=NO_CACHE).render()
    text = docread.read("photo.jpg", workspace=tmp_path, config=_config(max_metadata_fields=3))
    block = text.render().split("**EXIF Metadata:**\n", 1)[1].split("\n\n", 1)[0].splitlines()
    exif = full.split("**EXIF Metadata:**\n", 1)[1].split("\n\n", 1)[0].splitlines()
    assert len(exif) == 6  # camera, lens, exposure, date, software, GPS
    assert block == [*exif[:3], "  - ... 3 more (output.max_metadata_fields=3)"]


# -- issue 36: a cut read of a long document names the outline -----------------------------------------
def test_a_cut_document_read_names_the_outline_and_a_cut_table_does_not(tmp_path: Path) -> None:
    from docread.views import OUTLINE_TIP

    _pdf(tmp_path / "long.pdf", 12)
    text = docread.read("long.pdf", workspace=tmp_path, config=_config(max_chars=1500)).render()
    assert _hints(text) and f"[{OUTLINE_TIP}]" in text  # beside the one continuation hint
    windowed = docread.read("long.pdf", workspace=tmp_path, config={**NO_CACHE, "pdf": {
        "max_pages_text": 2}}).render()  # fmt: skip
    assert "Use pages=3-4 to read more." in windowed and OUTLINE_TIP in windowed
    whole = docread.read("long.pdf", workspace=tmp_path, pages="1", config=NO_CACHE).render()
    assert OUTLINE_TIP not in whole  # nothing was cut
    _csv(tmp_path / "big.csv", 3000)
    table = docread.read("big.csv", workspace=tmp_path, config=_config(max_chars=700)).render()
    assert _hints(table) and OUTLINE_TIP not in table  # a table has no sections
    data = json.loads(docread.read(
        "long.pdf", workspace=tmp_path, output_format="json", config=_config(max_chars=1500)
    ).render())  # fmt: skip
    assert data["truncated"] and OUTLINE_TIP in data["notes"]


# -- one header layout -----------------------------------------------------------------------------
def test_every_document_family_has_the_pdf_header_layout(
    reader: docread.Reader, tmp_path: Path
) -> None:
    factories.docx(tmp_path / "d.docx", ["hello"], author="Ann")
    factories.xlsx(tmp_path / "x.xlsx", {"S": [["a", "b"], [1, 2]]})
    factories.pptx(tmp_path / "s.pptx", [("Title", "bullet", "")], author="Ann")
    (tmp_path / "f.pdf").write_bytes(factories.pdf_bytes(["hello"]))
    for name, unit_line in [
        ("d.docx", "**Sections:**"), ("x.xlsx", "**Rows:**"), ("s.pptx", "**Slides:**"),
        ("f.pdf", "**Pages:**"),
    ]:  # fmt: skip
        head = reader.read(name).render().split("\n---\n", 1)[0]
        assert head.startswith(f"**Document:** {name}\n"), head
        assert head.count("**Document:**") == 1 and "**File:**" not in head
        if "**Metadata:**" in head:
            assert head.index(unit_line) < head.index("**Metadata:**"), head
