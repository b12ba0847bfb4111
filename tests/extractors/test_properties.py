"""The property header (extractors/properties.py) at the head of a document's first unit: real
properties are said, placeholders a writer puts where none was set (``(anonymous)``,
``(unspecified)``, ``Untitled``) are not, in every family (the header is written once, by the
pipeline, for PDF, office and workbook files alike)."""

from __future__ import annotations

from pathlib import Path

import docread
import pytest
from conftest import CORPUS
from factories import docx


def _first(reader: docread.Reader, name: str) -> docread.Document:
    return next(u for u in reader.iter_units(name) if isinstance(u, docread.Document))


def test_placeholder_properties_of_a_real_pdf_are_not_in_its_text():
    """A ReportLab report whose title and author are ``(anonymous)`` and subject
    ``(unspecified)``: its first chunk opens with the report, not with those."""
    name = "pdf/SPARSE-2024-INV-1234_borderless_table.pdf"
    if not (CORPUS / name).is_file():
        pytest.skip(f"corpus not present at {CORPUS}")
    with docread.Reader(CORPUS, config={"cache": {"enabled": False}}) as reader:
        first = _first(reader, name)
    assert "(anonymous)" not in first.text and "(unspecified)" not in first.text
    assert first.text.startswith("# INVENTORY RECONCILIATION REPORT")


def test_placeholders_go_and_real_properties_stay(reader: docread.Reader, tmp_path: Path) -> None:
    docx(
        tmp_path / "memo.docx", [(1, "Harbour survey"), "Body one"],
        title="Untitled", author="Ines Quintero", subject="(unspecified)", keywords="N/A",
    )  # fmt: skip
    first = _first(reader, "memo.docx")
    assert first.text.startswith("Author: Ines Quintero\n\n"), first.text[:120]
    assert "Untitled" not in first.text and "unspecified" not in first.text
    assert first.metadata["author"] == "Ines Quintero"
