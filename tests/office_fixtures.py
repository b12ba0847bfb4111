"""Office documents with a known structure, written by the libraries people make them with
(python-docx, odfpy, python-pptx) from one ``Spec``: headings, paragraphs, bullet lists and
tables (some with merged cells, one DOCX/ODT table nested in a cell). Tests read them back;
``bench/office_structure.py`` scores how much of the structure a reader keeps.

    spec = office_spec(sections=6)
    write_docx(tmp_path / "s.docx", spec); spec.headings, spec.cells, spec.paragraphs
"""

from __future__ import annotations

import re
import zipfile
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

_WORDS = [
    "harbor",
    "lantern",
    "meadow",
    "copper",
    "violet",
    "granite",
    "orchard",
    "saffron",
    "timber",
    "velvet",
    "quarry",
    "ember",
    "falcon",
    "juniper",
    "marble",
    "pepper",
    "willow",
    "cobalt",
    "thistle",
    "canyon",
]


@dataclass(frozen=True, slots=True)
class Table:
    """Rows of cell texts; ``merge`` (row, first column, last column) joins cells of one row
    (their text is the first cell's); ``nested`` rows go inside cell (1, 1)."""

    rows: list[list[str]]
    merge: tuple[int, int, int] | None = None
    nested: list[list[str]] | None = None


@dataclass(slots=True)
class Section:
    level: int
    heading: str
    paragraphs: list[str]
    bullets: list[str]
    table: Table


@dataclass(slots=True)
class Spec:
    """The blocks of a generated document and what a reader should find in it."""

    sections: list[Section] = field(default_factory=list)

    @property
    def headings(self) -> list[str]:
        return [s.heading for s in self.sections]

    @property
    def paragraphs(self) -> list[str]:
        return [p for s in self.sections for p in s.paragraphs + s.bullets]

    @property
    def cells(self) -> list[str]:
        """Every distinct cell text (a merged cell's once; nested tables' included)."""
        out: list[str] = []
        for s in self.sections:
            for rows in (s.table.rows, s.table.nested or []):
                out += [c for row in rows for c in row if c]
        return list(dict.fromkeys(out))


def _words(n: int, k: int) -> str:
    return " ".join(_WORDS[(n * 7 + i * 3) % len(_WORDS)] for i in range(k))


def office_spec(sections: int = 6, *, merges: bool = True, nested: bool = True) -> Spec:
    """``sections`` sections (levels 1, 2, 3 in turn), each with two paragraphs, a two-item
    bullet list and a 4x3 table; every third table merges two cells of its second row, and the
    second table holds a nested table (when asked)."""
    spec = Spec()
    for n in range(sections):
        rows = [[f"Col {c} s{n}" for c in range(3)]]
        rows += [[f"r{r}c{c} {_words(n + r, 1)} s{n}" for c in range(3)] for r in range(1, 4)]
        merge = None
        if merges and n % 3 == 0:
            merge = (1, 0, 1)
            rows[1][1] = ""  # covered by the merge
        inner = [[f"inner{n} a", f"inner{n} b"], [f"inner{n} c", f"inner{n} d"]]
        spec.sections.append(
            Section(
                level=n % 3 + 1,
                heading=f"Section {n} {_words(n, 2).title()}",
                paragraphs=[f"Paragraph {n}.{k} about {_words(n + k, 12)}." for k in range(2)],
                bullets=[f"Bullet {n}.{k} {_words(n * 2 + k, 4)}" for k in range(2)],
                table=Table(rows, merge, inner if nested and n == 1 else None),
            )
        )
    return spec


# -- DOCX (python-docx) ------------------------------------------------------------------------
def write_docx(path: Path, spec: Spec) -> Path:
    """The spec as Word writes it: Heading N styles, List Bullet items, Table Grid tables
    (merged cells by ``cell.merge``, a nested table by ``cell.add_table``)."""
    import docx

    d = docx.Document()
    for s in spec.sections:
        d.add_heading(s.heading, level=s.level)
        for p in s.paragraphs:
            d.add_paragraph(p)
        for b in s.bullets:
            d.add_paragraph(b, style="List Bullet")
        rows = s.table.rows
        table = d.add_table(rows=len(rows), cols=len(rows[0]))
        table.style = "Table Grid"
        for r, row in enumerate(rows):
            for c, value in enumerate(row):
                if value:
                    table.cell(r, c).text = value
        if s.table.merge:
            r, a, b = s.table.merge
            table.cell(r, a).merge(table.cell(r, b))
        if s.table.nested:
            inner = table.cell(1, 1).add_table(rows=len(s.table.nested), cols=2)
            for r, row in enumerate(s.table.nested):
                for c, value in enumerate(row):
                    inner.cell(r, c).text = value
    d.save(path)
    return path


# -- ODT (odfpy) -------------------------------------------------------------------------------
def write_odt(path: Path, spec: Spec) -> Path:
    """The spec as odfpy writes it: text:h with outline levels (every fourth heading a text:p in
    a "Heading N" style instead, as some producers write them), a bulleted text:list, tables
    (merged cells as number-columns-spanned plus covered cells; a nested table in a cell)."""
    from odf import text
    from odf.opendocument import OpenDocumentText
    from odf.style import ListLevelProperties, Style
    from odf.text import ListLevelStyleBullet, ListStyle

    doc = OpenDocumentText()
    styles = {}
    for lvl in (1, 2, 3):
        styles[lvl] = Style(
            name=f"Heading_20_{lvl}", displayname=f"Heading {lvl}", family="paragraph",
            defaultoutlinelevel=lvl,
        )  # fmt: skip
        doc.styles.addElement(styles[lvl])
    bullets = ListStyle(name="Bullets")
    level = ListLevelStyleBullet(level=1, bulletchar="•")
    level.addElement(ListLevelProperties())
    bullets.addElement(level)
    doc.automaticstyles.addElement(bullets)
    for n, s in enumerate(spec.sections):
        if n % 4 == 3:
            doc.text.addElement(text.P(stylename=styles[s.level], text=s.heading))
        else:
            doc.text.addElement(text.H(outlinelevel=s.level, text=s.heading))
        for p in s.paragraphs:
            doc.text.addElement(text.P(text=p))
        items = text.List(stylename=bullets)
        for b in s.bullets:
            item = text.ListItem()
            item.addElement(text.P(text=b))
            items.addElement(item)
        doc.text.addElement(items)
        doc.text.addElement(_odf_table(f"Table{n}", s.table))
    doc.save(str(path))
    return path


def _odf_table(name: str, spec: Table) -> object:
    from odf import table as t
    from odf import text

    width = len(spec.rows[0])
    table = t.Table(name=name)
    table.addElement(t.TableColumn(numbercolumnsrepeated=width))
    for r, row in enumerate(spec.rows):
        tr = t.TableRow()
        c = 0
        while c < width:
            merge = spec.merge if spec.merge and spec.merge[0] == r and spec.merge[1] == c else None
            span = merge[2] - merge[1] + 1 if merge else 1
            cell = t.TableCell(numbercolumnsspanned=span) if span > 1 else t.TableCell()
            cell.addElement(text.P(text=row[c]))
            if spec.nested and (r, c) == (1, 1):
                cell.addElement(_odf_table(name + "n", Table(spec.nested)))
            tr.addElement(cell)
            for _ in range(span - 1):
                tr.addElement(t.CoveredTableCell())
            c += span
        table.addElement(tr)
    return table


# -- PPTX (python-pptx) ------------------------------------------------------------------------
def write_pptx(path: Path, spec: Spec) -> Path:
    """One slide per section: its heading as the slide title, paragraphs and bullets in the
    body placeholder, the table as a table shape (merged cells by ``cell.merge``)."""
    from pptx import Presentation
    from pptx.util import Inches

    prs = Presentation()
    for s in spec.sections:
        slide = prs.slides.add_slide(prs.slide_layouts[1])
        slide.shapes.title.text = s.heading
        frame = slide.placeholders[1].text_frame
        frame.text = s.paragraphs[0]
        for line in s.paragraphs[1:] + s.bullets:
            frame.add_paragraph().text = line
        rows = s.table.rows
        shape = slide.shapes.add_table(
            len(rows), len(rows[0]), Inches(1), Inches(4), Inches(8), Inches(2)
        )
        for r, row in enumerate(rows):
            for c, value in enumerate(row):
                if value:
                    shape.table.cell(r, c).text = value
        if s.table.merge:
            r, a, b = s.table.merge
            shape.table.cell(r, a).merge(shape.table.cell(r, b))
    prs.save(path)
    return path


WRITERS = {"docx": write_docx, "odt": write_odt, "pptx": write_pptx}


# -- XLSX with an inflated used range ------------------------------------------------------------
def write_inflated_xlsx(path: Path, rows: int = 30) -> Path:
    """A sheet of ``rows`` data rows whose dimension claims the whole sheet (A1:XFD1048576) and
    whose last possible cell is styled (Excel writes such after whole rows/columns are formatted)."""
    import openpyxl

    wb = openpyxl.Workbook()
    ws = wb.active
    ws.title = "Data"
    ws.append(["Name", "Qty"])
    for i in range(rows):
        ws.append([f"item{i}", i])
    wb.save(path)

    def inflate(xml: str) -> str:
        xml = re.sub(r'<dimension ref="[^"]+"/>', '<dimension ref="A1:XFD1048576"/>', xml)
        cell = '<row r="1048576"><c r="XFD1048576" s="0"/></row>'
        return xml.replace("</sheetData>", cell + "</sheetData>")

    return rewrite_member(path, "xl/worksheets/sheet1.xml", inflate)


def rewrite_member(path: Path, member: str, change: Callable[[str], str]) -> Path:
    """Rewrite one XML member of a zip package in place (``change`` maps its text)."""
    with zipfile.ZipFile(path) as z:
        parts = {i.filename: z.read(i) for i in z.infolist()}
    parts[member] = change(parts[member].decode()).encode()
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as z:
        for name, data in parts.items():
            z.writestr(name, data)
    return path
