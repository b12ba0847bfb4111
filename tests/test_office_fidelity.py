"""Office fidelity (issue 17, classes 3-6): OOXML detection by content type, the parts of a
document pandoc drops (headers, footers, notes, comments, frames), legacy .doc text beyond
ASCII, and the document-properties header. Fixtures are generated here (python-pptx,
python-docx, odfpy, literal RTF) or are the small public files noted in tests/data/NOTICE."""

from __future__ import annotations

import zipfile
from pathlib import Path

import docread
import pytest
from conftest import normalize
from docread.detect import detect
from docread.source import Source


def _restore(path: Path, stored: tuple[str, ...]) -> Path:
    """Re-write a package with the members ending in ``stored`` uncompressed, as Office stores
    embedded packages (their central directory then shows in the outer file's bytes)."""
    with zipfile.ZipFile(path) as src:
        members = [(i, src.read(i)) for i in src.infolist()]
    with zipfile.ZipFile(path, "w") as out:
        for info, data in members:
            method = zipfile.ZIP_STORED if info.filename.endswith(stored) else zipfile.ZIP_DEFLATED
            out.writestr(info.filename, data, method)
    return path


def chart_deck(path: Path) -> Path:
    """A one-slide PPTX with a column chart: python-pptx embeds the chart's XLSX workbook."""
    from pptx import Presentation
    from pptx.chart.data import CategoryChartData
    from pptx.enum.chart import XL_CHART_TYPE
    from pptx.util import Inches

    prs = Presentation()
    slide = prs.slides.add_slide(prs.slide_layouts[5])
    slide.shapes.title.text = "Quarterly revenue"
    data = CategoryChartData()
    data.categories = ["Alpha quarter", "Bravo quarter"]
    data.add_series("Revenue series", (1.0, 2.0))
    frame = slide.shapes.add_chart(
        XL_CHART_TYPE.COLUMN_CLUSTERED, Inches(1), Inches(1), Inches(6), Inches(4), data
    )
    frame.chart.has_title = True
    frame.chart.chart_title.text_frame.text = "Revenue by quarter"
    prs.save(path)
    return _restore(path, (".xlsx",))


# -- class 3: OOXML detection by content type ------------------------------------------------------
def test_pptx_with_a_chart_is_a_pptx_and_its_chart_is_read(
    reader: docread.Reader, tmp_path: Path
) -> None:
    deck = chart_deck(tmp_path / "chart.pptx")
    with zipfile.ZipFile(deck) as z:  # the trap: an XLSX's member names stand in the file's bytes
        assert any(n.startswith("ppt/embeddings/") and n.endswith(".xlsx") for n in z.namelist())
    assert b"xl/workbook.xml" in deck.read_bytes()
    assert detect(Source.from_path(deck)).format == "pptx"
    (tmp_path / "renamed.bin").write_bytes(deck.read_bytes())  # content decides, not the name
    assert detect(Source.from_path(tmp_path / "renamed.bin")).format == "pptx"
    text = normalize("\n".join(d.text for d in reader.iter_documents("chart.pptx")))
    for want in ("quarterly revenue", "revenue by quarter", "revenue series", "bravo quarter"):
        assert want in text


def test_docx_embedding_a_workbook_is_a_docx(reader: docread.Reader, tmp_path: Path) -> None:
    """A Word file holding a stored XLSX (an embedded spreadsheet object) is still a DOCX."""
    import docx as python_docx

    book = tmp_path / "inner.xlsx"
    from factories import xlsx

    xlsx(book, {"Data": [["a", "b"], [1, 2]]})
    doc = python_docx.Document()
    doc.add_paragraph("The body of the report")
    doc.save(tmp_path / "report.docx")
    with zipfile.ZipFile(tmp_path / "report.docx", "a") as z:
        z.writestr("word/embeddings/Microsoft_Excel_Worksheet.xlsx", book.read_bytes())
    _restore(tmp_path / "report.docx", (".xlsx",))
    assert detect(Source.from_path(tmp_path / "report.docx")).format == "docx"
    assert "The body of the report" in reader.read("report.docx").text


def test_zip_holding_office_paths_without_content_types_is_a_zip(tmp_path: Path) -> None:
    """Member paths alone never make a package: no [Content_Types].xml, no OOXML."""
    with zipfile.ZipFile(tmp_path / "parts.zip", "w") as z:
        z.writestr("word/document.xml", "<w/>")
        z.writestr("xl/workbook.xml", "<w/>")
    assert detect(Source.from_path(tmp_path / "parts.zip")).format == "zip"


@pytest.mark.parametrize(
    ("kind", "part", "expected"),
    [
        ("application/vnd.ms-word.document.macroEnabled.main+xml", "word/document2.xml", "docx"),
        ("application/vnd.ms-powerpoint.slideshow.macroEnabled.main+xml", "ppt/p.xml", "pptx"),
        ("application/vnd.ms-excel.sheet.macroEnabled.main+xml", "xl/workbook.xml", "xlsx"),
    ],
)
def test_main_part_content_type_decides(
    tmp_path: Path, kind: str, part: str, expected: str
) -> None:
    types = (
        '<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">'
        f'<Override PartName="/{part}" ContentType="{kind}"/></Types>'
    )
    with zipfile.ZipFile(tmp_path / "file.bin", "w") as z:
        z.writestr("[Content_Types].xml", types)
        z.writestr(part, "<x/>")
    assert detect(Source.from_path(tmp_path / "file.bin")).format == expected
