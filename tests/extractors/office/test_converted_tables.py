"""Tables of documents pandoc converts (a DOCX with equations, an ODT with a formula): display
math in a cell is written inline, so the row stays one line; a table without a header row gets
its first row as header (as the in-process readers give it), every column kept."""

from __future__ import annotations

import re
import zipfile
from pathlib import Path

import docread
from conftest import CORPUS

_M = 'xmlns:m="http://schemas.openxmlformats.org/officeDocument/2006/math"'
_OMML = (
    f"</w:t></w:r><m:oMathPara {_M}><m:oMath><m:r><m:t>E=m</m:t></m:r><m:sSup><m:e><m:r>"
    "<m:t>c</m:t></m:r></m:e><m:sup><m:r><m:t>2</m:t></m:r></m:sup></m:sSup></m:oMath>"
    "</m:oMathPara><w:r><w:t>"
)


def _rewrite(path: Path, name: str, edit: object) -> Path:
    with zipfile.ZipFile(path) as z:
        parts = {i.filename: z.read(i) for i in z.infolist()}
    parts[name] = edit(parts[name].decode()).encode()  # type: ignore[operator]
    with zipfile.ZipFile(path, "w") as z:
        for member, data in parts.items():
            z.writestr(member, data)
    return path


def test_display_math_in_a_cell_stays_on_its_row(reader: docread.Reader, tmp_path: Path) -> None:
    import docx

    d = docx.Document()
    table = d.add_table(rows=2, cols=2)
    for (r, c), text in {(0, 0): "Name", (0, 1): "Formula", (1, 0): "Energy",
                         (1, 1): "EQHERE"}.items():  # fmt: skip
        table.cell(r, c).text = text
    d.add_paragraph("After the table")
    d.save(tmp_path / "eq.docx")
    _rewrite(tmp_path / "eq.docx", "word/document.xml", lambda xml: xml.replace("EQHERE", _OMML))
    text = reader.read("eq.docx").text
    rows = [line for line in text.split("\n") if line.startswith("|")]
    assert len(rows) == 3 and "E = mc^{2}" in rows[2] and rows[2].startswith("| Energy")
    assert "```" not in text


def _seven_columns(path: Path, formula: bool) -> Path:
    from odf import table, text
    from odf.opendocument import OpenDocumentText

    doc = OpenDocumentText()
    grid = table.Table(name="T")
    grid.addElement(table.TableColumn(numbercolumnsrepeated=7))
    for r in (1, 2):
        row = table.TableRow()
        for c in range(1, 8):
            cell = table.TableCell()
            cell.addElement(text.P(text=f"Cell {r}.{c}"))
            row.addElement(cell)
        grid.addElement(row)
    doc.text.addElement(grid)
    doc.text.addElement(text.P(text="FORMULA"))
    doc.save(str(path))
    math = '<math:math xmlns:math="http://www.w3.org/1998/Math/MathML"><math:mi>y</math:mi></math:math>'
    return _rewrite(
        path, "content.xml", lambda xml: xml.replace("FORMULA", math if formula else "no formula")
    )


def test_odt_tables_keep_every_column_and_their_first_row_as_header(
    reader: docread.Reader, tmp_path: Path
) -> None:
    for name, formula in (("pandoc.odt", True), ("inprocess.odt", False)):
        _seven_columns(tmp_path / name, formula)
        rows = [line for line in reader.read(name).text.split("\n") if line.startswith("|")]
        assert rows[0] == "| " + " | ".join(f"Cell 1.{c}" for c in range(1, 8)) + " |", name
        assert rows[2].split(" | ")[-1] == "Cell 2.7 |"


def test_rtf_rows_sharing_one_row_definition_stay_rows() -> None:
    """fake-doc.rtf writes ``\\trowd`` once and three ``\\row``s (Word and LibreOffice show a
    3x2 table); pandoc read it as one 6-cell row until each row got the definition again."""
    with docread.Reader(CORPUS, config={"cache": {"enabled": False}}) as corpus:
        text = re.sub(r" {2,}", " ", corpus.read("word/fake-doc.rtf").text)  # pandoc pads cells
    assert (
        "| Column 1 | Column 2 |\n|---|---|\n| Row 1, Cell 1 | Row 1, Cell 2 |\n"
        "| Row 2, Cell 1 | Row 2, Cell 2 |"
    ) in text


def test_rtf_rows_with_their_own_definitions_are_left_alone() -> None:
    """Only a row without a ``\\trowd`` of its own gets one; a shared definition is copied
    whole (up to its last ``\\cellx``)."""
    from docread.extractors.office.convert.rtf import rtf_rows

    data = (
        rb"{\rtf1{\trowd\cellx100\cellx200\pard\intbl a\cell b\cell\row}"
        rb"{\trowd\cellx300\pard\intbl c\cell\row}\pard after\par}"
    )
    assert rtf_rows(data) == data
    word = rb"\pard\intbl a\cell\trowd\cellx100\row \pard\intbl b\cell\trowd\cellx100\row"
    assert rtf_rows(word) == word  # Word's layout: each row defined at its end
    shared = (
        rb"{\rtf1\trowd\trgaph10\cellx100\cellx200 \pard\intbl a\cell b\cell\row "
        rb"\pard\intbl c\cell d\cell\row \pard x\par}"
    )
    assert rtf_rows(shared) == shared.replace(
        rb"\row \pard\intbl c", rb"\row\trowd\trgaph10\cellx100\cellx200 \pard\intbl c"
    )
