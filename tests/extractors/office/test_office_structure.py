"""Office structure: tables are pipe tables (spans repeated, nested tables flattened with a note,
never raw HTML) for every family; ODT keeps headings and cells as DOCX does; a sheet starts with
its name and a slide with its title as headings; a title row is a caption; an inflated XLSX is
read fast and right; ODS sheets have sizes; a DOCX with an equation still goes through pandoc."""

from __future__ import annotations

import re
import time
import zipfile
from pathlib import Path

import docread
import pytest
from conftest import MakeReader
from factories import xlsx
from office_fixtures import (
    WRITERS,
    office_spec,
    rewrite_member,
    write_docx,
    write_inflated_xlsx,
    write_odt,
    write_pptx,
)

_HEADING = re.compile(r"^#{1,6}\s+(.*)$", re.M)


def _text(reader: docread.Reader, name: str) -> str:
    return "\n\n".join(d.text for d in reader.iter_documents(name))


def _pipe_rows(text: str) -> list[list[str]]:
    """Cells of every pipe-table row (escaped pipes kept inside their cell)."""
    return [
        [c.strip().replace("\\|", "|") for c in re.split(r"(?<!\\)\|", line.strip())[1:-1]]
        for line in text.splitlines()
        if line.startswith("|")
    ]


@pytest.mark.parametrize("family", ["docx", "odt", "pptx"])
def test_every_heading_cell_and_paragraph_of_a_generated_document_is_kept(
    reader: docread.Reader, tmp_path: Path, family: str
) -> None:
    spec = office_spec(6, nested=family != "pptx")
    WRITERS[family](tmp_path / f"s.{family}", spec)
    text = _text(reader, f"s.{family}")
    heads = [" ".join(h.split()) for h in _HEADING.findall(text)]
    assert all(any(h in line for line in heads) for h in spec.headings), heads
    rows = [" | ".join(r) for r in _pipe_rows(text)]
    missing = [c for c in spec.cells if not any(c in row for row in rows)]
    assert not missing, text
    flat = " ".join(text.split())
    assert all(p in flat for p in spec.paragraphs)
    assert "<table" not in text and "<td" not in text


@pytest.mark.parametrize("family", ["docx", "odt", "pptx"])
def test_a_merged_cell_is_repeated_in_each_cell_it_covers(
    reader: docread.Reader, tmp_path: Path, family: str
) -> None:
    spec = office_spec(1, nested=False)  # section 0 merges the first two cells of row 1
    WRITERS[family](tmp_path / f"m.{family}", spec)
    merged = spec.sections[0].table.rows[1][0]
    rows = _pipe_rows(_text(reader, f"m.{family}"))
    row = next(r for r in rows if merged in r)
    assert row[:2] == [merged, merged] and row[2] == spec.sections[0].table.rows[1][2]
    assert len({len(r) for r in rows}) == 1  # every row as wide as the header


@pytest.mark.parametrize("family", ["docx", "odt"])
def test_a_nested_table_is_flattened_into_its_cell_with_a_note(
    reader: docread.Reader, tmp_path: Path, family: str
) -> None:
    spec = office_spec(2, merges=False)  # section 1's table holds a nested one in cell (1, 1)
    WRITERS[family](tmp_path / f"n.{family}", spec)
    rows = _pipe_rows(_text(reader, f"n.{family}"))
    cell = next(c for r in rows for c in r if "nested table" in c)
    assert "[nested table: inner1 a, inner1 b; inner1 c, inner1 d]" in cell
    assert len({len(r) for r in rows if any("s1" in c for c in r)}) == 1


def test_odt_headings_and_cells_come_through_as_fully_as_docx(
    reader: docread.Reader, tmp_path: Path
) -> None:
    spec = office_spec(8)
    write_docx(tmp_path / "same.docx", spec)
    write_odt(tmp_path / "same.odt", spec)  # every fourth heading a text:p in "Heading N"

    def found(name: str) -> tuple[list[str], list[str]]:
        text = _text(reader, name)
        heads = " ".join(_HEADING.findall(text))
        rows = " ".join(" | ".join(r) for r in _pipe_rows(text))
        return [h for h in spec.headings if h in heads], [c for c in spec.cells if c in rows]

    assert found("same.odt") == found("same.docx") == (spec.headings, spec.cells)


def test_a_docx_table_with_merged_cells_is_a_pipe_table_when_pandoc_reads_it(
    reader: docread.Reader, tmp_path: Path
) -> None:
    """An equation sends the file through pandoc, which writes a merged table as HTML."""
    spec = office_spec(1, nested=False)
    path = write_docx(tmp_path / "eq.docx", spec)
    omml = (
        "<m:oMath><m:sSup><m:e><m:r><m:t>x</m:t></m:r></m:e><m:sup><m:r><m:t>2</m:t></m:r>"
        "</m:sup></m:sSup></m:oMath>"
    )
    rewrite_member(path, "word/document.xml", lambda xml: xml.replace("</w:p>", omml + "</w:p>", 1))
    text = _text(reader, "eq.docx")
    assert "x^{2}" in text or "x^2" in text  # pandoc's TeX: the in-process reader has none
    assert "<table" not in text
    merged = spec.sections[0].table.rows[1][0]
    assert any(r[:2] == [merged, merged] for r in _pipe_rows(text))


def test_an_epub_table_with_spans_is_a_pipe_table(reader: docread.Reader, tmp_path: Path) -> None:
    chapter = (
        '<html xmlns="http://www.w3.org/1999/xhtml"><head><title>C</title></head><body>'
        "<h1>Results</h1><table><caption>Scores</caption><thead><tr><th>Team</th><th>Q1</th>"
        "<th>Q2</th></tr></thead><tbody><tr><td rowspan='2'>Owls</td><td colspan='2'>tied 3</td>"
        "</tr><tr><td>4</td><td>5</td></tr></tbody></table></body></html>"
    )
    _epub(tmp_path / "b.epub", chapter)
    text = _text(reader, "b.epub")
    assert "<table" not in text and "Table: Scores" in text
    assert ["Owls", "tied 3", "tied 3"] in _pipe_rows(text)
    assert ["Owls", "4", "5"] in _pipe_rows(text)


def test_each_slide_unit_starts_with_its_title_as_a_heading(
    reader: docread.Reader, tmp_path: Path
) -> None:
    spec = office_spec(2, nested=False)
    write_pptx(tmp_path / "d.pptx", spec)
    docs = list(reader.iter_documents("d.pptx"))
    assert [d.text.splitlines()[0] for d in docs] == [
        f"## Slide {n}: {s.heading}" for n, s in enumerate(spec.sections, 1)
    ]
    assert reader.read("d.pptx", pages="2").documents[0].text.startswith("## Slide 2: ")


def test_each_sheet_unit_starts_with_its_name_as_a_heading(
    reader: docread.Reader, tmp_path: Path
) -> None:
    xlsx(tmp_path / "b.xlsx", {"Q1": [["a", "b"], [1, 2]], "Q2 | north": [["c"], [3]]})
    docs = list(reader.iter_documents("b.xlsx", include_metadata=False))  # no properties block
    assert [d.text.splitlines()[0] for d in docs] == ["## Sheet: Q1", "## Sheet: Q2 \\| north"]
    view = reader.read("b.xlsx", sheet="Q2 | north")
    assert view.documents[0].text.startswith("## Sheet: Q2 \\| north\n\n| Row | c |")


def test_a_title_row_above_the_header_is_the_tables_caption(
    reader: docread.Reader, tmp_path: Path
) -> None:
    import openpyxl

    wb = openpyxl.Workbook()
    ws = wb.active
    ws.title = "Cups"
    for row in (
        ["Stanley Cups"],
        ["Team", "Location", "Cups"],
        ["Blues", "STL", 1],
        ["Flyers", "PHI", 2],
    ):
        ws.append(row)
    ws.merge_cells("A1:C1")
    wb.save(tmp_path / "cups.xlsx")
    doc = reader.read("cups.xlsx").documents[0]
    assert doc.metadata["columns"] == "Team, Location, Cups"
    assert doc.metadata["table_caption"] == "Stanley Cups" and doc.metadata["total_rows"] == 2
    assert doc.text.startswith(
        "## Sheet: Cups\n\nTable: Stanley Cups\n\n| Row | Team | Location | Cups |"
    )
    one_column = xlsx(tmp_path / "names.xlsx", {"S": [["Names"], ["Ada"], ["Grace"]]})
    assert reader.read(one_column.name).documents[0].metadata["columns"] == "Names"


def test_an_inflated_xlsx_is_read_fast_and_right(reader: docread.Reader, tmp_path: Path) -> None:
    write_inflated_xlsx(tmp_path / "big.xlsx")
    reader.read("big.xlsx")  # a warm worker
    start = time.perf_counter()
    result = reader.read("big.xlsx", dedupe=False)
    docs = list(reader.iter_documents("big.xlsx"))
    elapsed = time.perf_counter() - start
    assert result.header["Sheets (rows x columns)"] == "Data (31 x 2)"
    assert result.header["Rows"] == "1-30 of 30" and result.header["Columns"] == "A-B"
    assert len(docs) == 1 and docs[0].metadata["total_rows"] == 30  # no chunks of empty rows
    assert docs[0].text.splitlines()[-1] == "| item29 | 29 |"
    assert elapsed < 3, elapsed  # 65 s before (a million empty rows in 20,000 chunks)


def test_ods_sheets_have_sizes(reader: docread.Reader, tmp_path: Path) -> None:
    pd = pytest.importorskip("pandas")
    with pd.ExcelWriter(tmp_path / "s.ods", engine="odf") as writer:
        pd.DataFrame({"city": ["Zürich", "Oslo", "Lima"], "pop": [1, 2, 3]}).to_excel(
            writer, sheet_name="Cities", index=False
        )
        pd.DataFrame({"x": [1]}).to_excel(writer, sheet_name="Other", index=False)
    header = reader.read("s.ods").header
    assert header["Sheets (rows x columns)"] == "Cities (4 x 2), Other (2 x 1)"


def _epub(path: Path, chapter: str) -> Path:
    """A minimal EPUB 3: mimetype, container, package document, one chapter."""
    opf = (
        '<?xml version="1.0"?><package xmlns="http://www.idpf.org/2007/opf" version="3.0" '
        'unique-identifier="id"><metadata xmlns:dc="http://purl.org/dc/elements/1.1/">'
        '<dc:identifier id="id">x</dc:identifier><dc:title>T</dc:title><dc:language>en</dc:language>'
        '</metadata><manifest><item id="c1" href="c1.xhtml" media-type="application/xhtml+xml"/>'
        '</manifest><spine><itemref idref="c1"/></spine></package>'
    )
    container = (
        '<?xml version="1.0"?><container version="1.0" xmlns="urn:oasis:names:tc:opendocument:'
        'xmlns:container"><rootfiles><rootfile full-path="OEBPS/content.opf" '
        'media-type="application/oebps-package+xml"/></rootfiles></container>'
    )
    with zipfile.ZipFile(path, "w") as z:
        z.writestr("mimetype", "application/epub+zip", zipfile.ZIP_STORED)
        z.writestr("META-INF/container.xml", container)
        z.writestr("OEBPS/content.opf", opf)
        z.writestr("OEBPS/c1.xhtml", chapter)
    return path


def test_grid_table_is_the_one_renderer_families_call() -> None:
    """The public API the PDF and HTML families call: spans both ways, header rows joined per
    column, a caption line, the one cell rule (pipes escaped, breaks as spaces)."""
    from docread.extractors.markdown import Cell, Grid, flatten_grid, grid_table

    grid = Grid(
        [
            [Cell("Team", rowspan=2), Cell("Score", colspan=2)],
            [Cell("Q1"), Cell("Q2")],
            [Cell("Owls | Inc", rowspan=2), Cell("3\nthree"), Cell("4")],
            [Cell("5"), Cell("6")],
        ],
        header_rows=2,
        caption="Results\n2024",
    )
    assert grid_table(grid).splitlines() == [
        "Table: Results 2024",
        "",
        "| Team | Score / Q1 | Score / Q2 |",
        "|---|---|---|",
        "| Owls \\| Inc | 3 three | 4 |",
        "| Owls \\| Inc | 5 | 6 |",
    ]
    assert flatten_grid(Grid([[Cell("a"), Cell("b")], [Cell("c", colspan=2)]])) == (
        "[nested table: a, b; c, c]"
    )
    assert grid_table(Grid([[Cell("")]])) == ""


def test_docx_numbered_and_bulleted_lists_keep_their_markers(
    reader: docread.Reader, tmp_path: Path
) -> None:
    import docx

    d = docx.Document()
    for text, style in (
        ("First step", "List Number"), ("Second step", "List Number"),
        ("A point", "List Bullet"), ("Another point", "List Bullet"),
    ):  # fmt: skip
        d.add_paragraph(text, style=style)
    d.add_paragraph("# not a heading, 1. not an item")
    d.save(tmp_path / "l.docx")
    text = _text(reader, "l.docx")
    assert "1. First step\n2. Second step" in text
    assert "- A point\n- Another point" in text
    assert "\\# not a heading, 1. not an item" in text


def test_hostile_docx_spans_self_citing_notes_and_deep_nesting_stay_bounded(
    reader: docread.Reader, tmp_path: Path
) -> None:
    """A gridSpan of 10**9, a footnote that cites itself, tables nested 1,500 deep: each file
    reads in bounded time and memory, its words kept."""
    spec = office_spec(1, merges=False, nested=False)
    wide = write_docx(tmp_path / "wide.docx", spec)
    rewrite_member(
        wide, "word/document.xml",
        lambda xml: xml.replace("<w:tcPr>", '<w:tcPr><w:gridSpan w:val="1000000000"/>', 1),
    )  # fmt: skip
    header = next(r for r in _pipe_rows(_text(reader, "wide.docx")) if "Col 0 s0" in r)
    assert header.count("Col 0 s0") == 1000  # the span is cut at markdown.MAX_SPAN

    cited = write_docx(tmp_path / "cited.docx", spec)
    note = (
        '<w:footnotes xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main">'
        '<w:footnote w:id="1"><w:p><w:r><w:t>Loop note</w:t></w:r><w:r>'
        '<w:footnoteReference w:id="1"/></w:r></w:p></w:footnote></w:footnotes>'
    )
    with zipfile.ZipFile(cited, "a") as z:
        z.writestr("word/footnotes.xml", note)
    rewrite_member(
        cited, "word/document.xml",
        lambda xml: xml.replace("</w:t></w:r>", '</w:t></w:r><w:r><w:footnoteReference w:id="1"/></w:r>', 1),
    )  # fmt: skip
    text = _text(reader, "cited.docx")
    assert text.count("[^1]: Loop note[^1]") == 1

    deep = write_docx(tmp_path / "deep.docx", spec)
    nest = "<w:tbl><w:tr><w:tc>" * 1500 + "<w:p><w:r><w:t>Bottom words</w:t></w:r></w:p>"
    nest += "</w:tc></w:tr></w:tbl>" * 1500
    rewrite_member(
        deep, "word/document.xml", lambda xml: xml.replace("<w:sectPr", nest + "<w:sectPr", 1)
    )
    result = reader.read("deep.docx")
    assert "Bottom words" in result.text

    odt = write_odt(tmp_path / "deep.odt", spec)
    cell = "<table:table><table:table-row><table:table-cell>"
    nest = cell * 1500 + "<text:p>Bottom odt words</text:p>"
    nest += "</table:table-cell></table:table-row></table:table>" * 1500
    rewrite_member(
        odt, "content.xml", lambda xml: xml.replace("</office:text>", nest + "</office:text>")
    )
    assert "Bottom odt words" in reader.read("deep.odt").text


def test_odt_numbered_headings_in_a_list_stay_headings(
    reader: docread.Reader, tmp_path: Path
) -> None:
    from odf import text
    from odf.opendocument import OpenDocumentText
    from odf.style import ListLevelProperties
    from odf.text import ListLevelStyleNumber, ListStyle

    doc = OpenDocumentText()
    numbers = ListStyle(name="Outline")
    level = ListLevelStyleNumber(level=1, numformat="1")
    level.addElement(ListLevelProperties())
    numbers.addElement(level)
    doc.automaticstyles.addElement(numbers)
    for title, body in (("Intro", "Why we went."), ("Methods", "How we went.")):
        items = text.List(stylename=numbers, continuenumbering="true")
        item = text.ListItem()
        item.addElement(text.H(outlinelevel=1, text=title))
        items.addElement(item)
        doc.text.addElement(items)
        doc.text.addElement(text.P(text=body))
    doc.save(str(tmp_path / "o.odt"))
    text_out = _text(reader, "o.odt")
    # LibreOffice numbers headings by the outline style (none here), not by the list around them
    assert "# Intro\n\nWhy we went.\n\n# Methods\n\nHow we went." in text_out


def test_a_cut_sheet_view_names_the_next_row_after_its_heading_and_caption(
    make_reader: MakeReader, tmp_path: Path
) -> None:
    rows = [["Inventory"], ["item", "qty"]] + [[f"i{n}", n] for n in range(1, 101)]
    xlsx(tmp_path / "c.xlsx", {"Stock": rows})
    text = make_reader(output={"max_lines": 16}).read("c.xlsx").render()
    last = max(int(m) for m in re.findall(r"^\| (\d+) \| i\d+ \|", text, re.M))
    assert f"use rows={last + 1}- (or fewer columns) to continue" in text


def test_docx_section_units_are_the_outline_s_top_sections(
    reader: docread.Reader, tmp_path: Path
) -> None:
    """issue 36: without page breaks a DOCX's units are its heading 1/2 sections as the outline
    reads them: each unit's ``section_title`` is its section's heading and its ``section_id``
    the id ``section=`` reads (a heading 3 stays inside its part)."""
    from factories import docx

    docx(tmp_path / "r.docx", [(1, "Intro"), "Why.", (2, "Scope"), "What.", (3, "Detail"),
                               "Small.", (1, "Results"), "Good."])  # fmt: skip
    units = list(reader.iter_documents("r.docx"))
    assert [u.metadata.get("section_title") for u in units] == ["Intro", "Scope", "Results"]
    assert [u.metadata["section_id"] for u in units] == ["s1", "s2", "s4"]
    outline = reader.read("r.docx", view="outline").render()
    assert "s1  Intro  (parts 1-2, ~" in outline and "    s3  Detail  (part 2, ~" in outline
    part = reader.read("r.docx", pages="2", output_format="markdown").documents[0].text
    section = reader.read("r.docx", section="s2").documents[0].text
    assert section == part == "## Scope\n\nWhat.\n\n### Detail\n\nSmall."
