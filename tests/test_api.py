"""The public API contract and the import-lightness rule."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import docread
import pytest
from factories import notebook, pdf_bytes

HEAVY = (
    "pandas",
    "pyarrow",
    "fitz",
    "pymupdf",
    "PIL",
    "pytesseract",
    "py7zr",
    "pypandoc",
    "mutagen",
    "openpyxl",
    "magic",
)


def test_import_docread_stays_light() -> None:
    code = "import sys, docread, json; print(json.dumps(sorted(sys.modules)))"
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=60
    )
    loaded = set(json.loads(out.stdout))
    assert not [m for m in HEAVY if m in loaded]


def test_public_names() -> None:
    for name in ("read", "aread", "iter_documents", "iter_units", "Reader", "ReadOptions", "Settings", "Document",
                 "Media", "FileInfo", "ReadResult", "ReadDocumentError", "FormatNotSupportedError", "FileTooLargeError",
                 "ExtractionTimeoutError", "ArchiveSecurityError", "BannedExtensionError", "CacheError",
                 "DependencyMissingError", "PathSecurityError", "DocumentNotFoundError"):  # fmt: skip
        assert name in docread.__all__ and hasattr(docread, name)
    assert issubclass(docread.DependencyMissingError, ImportError)
    assert issubclass(docread.BannedExtensionError, docread.ArchiveSecurityError)
    assert all(
        issubclass(getattr(docread, n), docread.ReadDocumentError)
        for n in docread.__all__
        if n.endswith("Error")
    )


def test_errors_survive_pickling() -> None:
    import pickle

    err = pickle.loads(pickle.dumps(docread.FileTooLargeError("big.pdf: too big", path="big.pdf")))
    assert (
        isinstance(err, docread.FileTooLargeError)
        and err.path == "big.pdf"
        and str(err) == "big.pdf: too big"
    )


def test_file_too_large_names_size_and_limit(tmp_path: Path) -> None:
    padded = notebook(tmp_path / "nb.ipynb", language=None)
    padded.write_text(padded.read_text() + " " * 2000)
    with pytest.raises(
        docread.FileTooLargeError,
        match=r"over the notebook size limit of 1,000 bytes \(limits.notebook",
    ):
        docread.read("nb.ipynb", workspace=tmp_path, config={"limits": {"notebook": 1000}})


def test_json_view_and_markdown_view(tmp_path: Path) -> None:
    (tmp_path / "a.txt").write_text("alpha\n")
    data = json.loads(docread.read("a.txt", workspace=tmp_path, output_format="json").render())
    assert data["documents"][0]["text"] == "alpha" and data["file"]["format"] == "text"
    assert docread.read("a.txt", workspace=tmp_path).render("markdown").startswith("# a.txt\n")


async def test_aread_and_reader_context(tmp_path: Path) -> None:
    (tmp_path / "a.txt").write_text("alpha\n")
    with docread.Reader(tmp_path) as reader:
        result = await reader.aread("a.txt")
    assert result.text == "alpha"
    assert (await docread.aread("a.txt", workspace=tmp_path)).text == "alpha"


def test_units_carry_base_metadata_and_stable_ids(tmp_path: Path) -> None:
    (tmp_path / "a.txt").write_text("alpha\n")
    doc = docread.read("a.txt", workspace=tmp_path).documents[0]
    assert {
        "source",
        "file_path",
        "file_name",
        "file_size",
        "mime_type",
        "format",
        "category",
        "modified",
        "extractor",
    } <= set(doc.metadata)
    assert doc.id == docread.read("a.txt", workspace=tmp_path).documents[0].id
    assert all(isinstance(v, str | int | float | bool) for v in doc.metadata.values())


def test_iter_bytes_reads_uploads_in_memory(reader: docread.Reader, tmp_path: Path) -> None:
    upload = pdf_bytes(["Uploaded invoice total 99 EUR"])
    pages = list(reader.iter_bytes(upload, "uploads/invoice.pdf"))
    lines = list(reader.iter_bytes(b"alpha\nbeta\n", "notes.md"))
    assert [d.metadata["page_number"] for d in pages] == [1]
    assert "Uploaded invoice total 99 EUR" in pages[0].text
    assert (
        pages[0].metadata["source"] == "uploads/invoice.pdf"
        and pages[0].metadata["format"] == "pdf"
    )
    assert lines[0].text == "alpha\nbeta" and lines[0].metadata["source"] == "notes.md"
    assert list(tmp_path.iterdir()) == []  # nothing written into the workspace


def test_metadata_caps_never_cut_identity_or_position(tmp_path: Path) -> None:
    deep = tmp_path / ("d" * 60) / ("e" * 60)
    deep.mkdir(parents=True)
    (deep / "a.txt").write_text("alpha\n")
    config = {"output": {"max_metadata_value_len": 20, "max_metadata_fields": 3}}
    doc = docread.read(str(deep / "a.txt"), workspace=tmp_path, config=config).documents[0]
    assert doc.metadata["file_path"] == str(deep / "a.txt")  # whole, not cut to 20 chars
    assert doc.metadata["line_start"] == 1 and doc.metadata["line_end"] == 1
    assert "extractor" not in doc.metadata  # a descriptive key over the cap of 3 is dropped


def test_json_view_says_how_to_continue_when_cut(tmp_path: Path) -> None:
    (tmp_path / "a.txt").write_text("".join(f"line {i}\n" for i in range(1, 101)))
    data = json.loads(
        docread.read(
            "a.txt", workspace=tmp_path, output_format="json", config={"output": {"max_chars": 60}}
        ).render()
    )
    assert data["truncated"] is True
    assert data["continuation"].endswith(
        "use offset=9 to continue"
    )  # 8 whole lines fit in 60 chars
