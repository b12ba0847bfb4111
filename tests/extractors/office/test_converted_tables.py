"""Tables of documents pandoc converts (a DOCX with equations, an ODT with a formula): display
math in a cell is written inline, so the row stays one line; a table without a header row gets
its first row as header (as the in-process readers give it), every column kept."""

from __future__ import annotations

import zipfile
from pathlib import Path

import docread

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
