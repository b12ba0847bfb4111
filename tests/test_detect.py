"""Format detection: content beats the name, containers are sniffed, hints override; content that
contradicts the extension is read as what it is and said; the encoding is detected once."""

from __future__ import annotations

import json
import zipfile
from pathlib import Path

import docread
import pytest
from conftest import IN_PROCESS
from docread import FormatNotSupportedError
from docread import detect as detection
from docread.detect import detect, detect_encoding
from docread.source import Source
from factories import (
    image_bytes,
    notebook,
    pdf,
    pdf_bytes,
    tar_archive,
    zip_bytes,
)


def _detect(path: Path, hint: str | None = None) -> str:
    return detect(Source.from_path(path), hint=hint).format


def test_pdf_named_txt_is_detected_as_pdf(tmp_path: Path) -> None:
    (tmp_path / "notes.txt").write_bytes(pdf_bytes(["Hidden PDF content"]))
    assert _detect(tmp_path / "notes.txt") == "pdf"
    result = docread.read("notes.txt", workspace=tmp_path)
    assert result.file.format == "pdf" and "Hidden PDF content" in result.text


def _types(part: str, kind: str) -> bytes:
    """A minimal [Content_Types].xml naming ``part`` as the package's main part."""
    return (
        '<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">'
        f'<Override PartName="/{part}" ContentType="application/vnd.openxmlformats-'
        f'officedocument.{kind}.main+xml"/></Types>'
    ).encode()


@pytest.mark.parametrize(
    ("name", "members", "expected"),
    [
        (
            "report.bin",
            {
                "[Content_Types].xml": _types("word/document.xml", "wordprocessingml.document"),
                "word/document.xml": b"<w/>",
            },
            "docx",
        ),
        (
            "sheet.zip",
            {
                "[Content_Types].xml": _types("xl/workbook.xml", "spreadsheetml.sheet"),
                "xl/workbook.xml": b"<w/>",
            },
            "xlsx",
        ),
        (
            "deck",
            {
                "[Content_Types].xml": _types(
                    "ppt/presentation.xml", "presentationml.presentation"
                ),
                "ppt/presentation.xml": b"<p/>",
            },
            "pptx",
        ),
        (
            "doc.zip",
            {"mimetype": b"application/vnd.oasis.opendocument.text", "content.xml": b"<x/>"},
            "odt",
        ),
        (
            "book.zip",
            {"mimetype": b"application/epub+zip", "META-INF/container.xml": b"<x/>"},
            "epub",
        ),
        ("plain.docx", {"readme.txt": b"hello"}, "zip"),
    ],
)
def test_zip_containers_are_sniffed_by_their_members(
    tmp_path: Path, name: str, members: dict, expected: str
) -> None:
    (tmp_path / name).write_bytes(zip_bytes(members, zipfile.ZIP_STORED))
    assert _detect(tmp_path / name) == expected


def test_json_shapes(tmp_path: Path) -> None:
    (tmp_path / "rows.json").write_text(json.dumps([{"a": 1}, {"a": 2}]))
    (tmp_path / "conf.json").write_text(json.dumps({"a": 1}))
    notebook(tmp_path / "nb.json", language=None)
    (tmp_path / "events.jsonl").write_text('{"a": 1}\n{"a": 2}\n')
    (tmp_path / "words.jsonl").write_text('"a"\n"b"\n')
    got = {
        p: _detect(tmp_path / p)
        for p in ("rows.json", "conf.json", "nb.json", "events.jsonl", "words.jsonl")
    }
    assert got == {
        "rows.json": "json_table",
        "conf.json": "json",
        "nb.json": "ipynb",
        "events.jsonl": "jsonl",
        "words.jsonl": "text",
    }


@pytest.mark.parametrize(
    ("data", "expected"),
    [
        (b"\x89PNG\r\n\x1a\n" + b"\x00" * 64, "png"),
        (b"SQLite format 3\x00" + b"\x00" * 100, "sqlite"),
        (b"7z\xbc\xaf\x27\x1c" + b"\x00" * 32, "7z"),
        (b"{\\rtf1\\ansi hello}", "rtf"),
        (b"PAR1" + b"\x00" * 32, "parquet"),
    ],
)
def test_signatures_win_over_a_wrong_extension(tmp_path: Path, data: bytes, expected: str) -> None:
    (tmp_path / "file.txt").write_bytes(data)
    assert _detect(tmp_path / "file.txt") == expected


def test_tar_gz_is_recognised_without_its_extension(tmp_path: Path) -> None:
    tar_archive(tmp_path / "backup.bin", {"a.txt": b"hi"}, "w:gz")
    assert _detect(tmp_path / "backup.bin") == "tar.gz"


def test_format_hint_overrides_detection(tmp_path: Path) -> None:
    (tmp_path / "data.txt").write_text("a,b\n1,2\n")
    assert _detect(tmp_path / "data.txt") == "text"
    assert _detect(tmp_path / "data.txt", hint="csv") == "csv"
    assert _detect(tmp_path / "data.txt", hint=".csv") == "csv"


def test_unknown_binary_names_its_mime_type_and_size(tmp_path: Path) -> None:
    import random

    (tmp_path / "blob.dat").write_bytes(random.Random(7).randbytes(10240))
    with pytest.raises(FormatNotSupportedError, match=r"application/octet-stream, 10,240 bytes"):
        docread.read("blob.dat", workspace=tmp_path)


def test_an_unreadable_file_says_what_its_name_claims_it_is_not_and_where_the_formats_are(
    tmp_path: Path,
) -> None:
    """An unknown format points to ``docread formats``; one whose name says a format says it is
    not that ("not a DOCX: the file is not a zip package") and what its content is."""
    import random

    data = random.Random(7).randbytes(10240)
    for name, said in [
        ("blob.dat", "unsupported format (application/octet-stream, 10,240 bytes)"),
        ("blob.docx", "not a DOCX: the file is not a zip package (its content is "
                      "application/octet-stream, 10,240 bytes)"),
        ("blob.pdf", "not a PDF (its content is application/octet-stream, 10,240 bytes)"),
        ("blob.xlsx", "not an XLSX: the file is not a zip package (its content is "),
    ]:  # fmt: skip
        (tmp_path / name).write_bytes(data)
        with pytest.raises(FormatNotSupportedError) as raised:
            docread.read(name, workspace=tmp_path)
        assert str(raised.value).startswith(f"{name}: {said}")
        assert str(raised.value).endswith("(`docread formats` lists them all)")


def test_file_info_facts(tmp_path: Path) -> None:
    (tmp_path / "a.md").write_text("# hi\n")
    info = docread.read("a.md", workspace=tmp_path).file
    assert (info.name, info.format, info.category, info.mime_type, info.size) == (
        "a.md",
        "text",
        "text",
        "text/plain",
        5,
    )
    assert info.modified.endswith("+00:00")


def test_ole2_file_named_docx_keeps_its_office_format(tmp_path: Path) -> None:
    """Password-protected OOXML files are OLE2 containers: the extractor must see them."""
    (tmp_path / "locked.docx").write_bytes(b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1" + b"\x00" * 600)
    assert _detect(tmp_path / "locked.docx") == "docx"


# -- a few bad bytes are no code page --------------------------------------------------------------
def test_legacy_text_is_still_cp1252() -> None:
    assert detect_encoding("Résumé, café\n".encode("cp1252") * 5) == "cp1252"


@pytest.mark.parametrize("data", [b"x\xff\xfe", b"caf\xe9\n"])
def test_a_few_bytes_are_not_an_exotic_code_page(data: bytes) -> None:
    assert detect_encoding(data) == "cp1252"  # charset-normalizer said cp1006, utf_16_be


# -- content that contradicts the extension is read as what it is, and said ------------------------
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


# -- the encoding, detected once -------------------------------------------------------------------
ENCODED = {
    "notes.txt": "crème brûlée, déjà vu\n".encode("cp1252"),
    "table.csv": "name,dish\nAnaïs,crème\n".encode("utf-16"),
    "rows.jsonl": '{"dish": "crème"}\n'.encode("utf-8-sig"),
    "items.json": '[{"dish": "crème"}]'.encode("cp1252"),
    "nb.ipynb": json.dumps(
        {"cells": [{"cell_type": "markdown", "source": "crème"}], "nbformat": 4}, ensure_ascii=False
    ).encode("cp1252"),
}


@pytest.mark.parametrize("name", sorted(ENCODED))
def test_the_detected_encoding_decodes_every_text_reader(name: str, tmp_path: Path) -> None:
    (tmp_path / name).write_bytes(ENCODED[name])
    with docread.Reader(tmp_path, IN_PROCESS) as reader:
        read = reader.read(name)
        loaded = list(reader.iter_documents(name))
    assert read.file.encoding == detection.detect_encoding(ENCODED[name])
    assert "crème" in read.text and any("crème" in d.text for d in loaded)


@pytest.mark.parametrize("name", sorted(ENCODED))
def test_readers_decode_with_what_detection_said_once(
    name: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / name).write_bytes(
        ENCODED[name].decode(detection.detect_encoding(ENCODED[name])).encode()
    )
    calls: list[bytes] = []
    monkeypatch.setattr(detection, "detect_encoding", lambda head: calls.append(head) or "latin-1")
    with docread.Reader(tmp_path, IN_PROCESS) as reader:
        read = reader.read(name)
        loaded = list(reader.iter_documents(name))
    # UTF-8 bytes decoded as detection (here, wrongly) said: no reader guessed for itself
    assert "crÃ¨me" in read.text and any("crÃ¨me" in d.text for d in loaded)
    assert len(calls) == 2  # once per read, in detection


def test_binary_formats_have_no_encoding(tmp_path: Path) -> None:
    (tmp_path / "a.zip").write_bytes(b"PK\x05\x06" + bytes(18))
    info = detection.detect(Source.from_path(tmp_path / "a.zip"))
    assert info.format == "zip" and info.encoding is None
