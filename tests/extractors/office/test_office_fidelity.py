"""Office fidelity (issue 17, classes 3-6): OOXML detection by content type, the parts of a
document pandoc drops (headers, footers, notes, comments, frames), legacy .doc text beyond
ASCII, and the document-properties header. Fixtures are generated here (python-pptx,
python-docx, odfpy, literal RTF) or are the small public files noted in tests/data/NOTICE."""

from __future__ import annotations

import re
import zipfile
from pathlib import Path

import docread
import pytest
from conftest import CORPUS, MakeReader, normalize
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


def odt(
    path: Path,
    blocks: list[str | tuple[int, str]],
    *,
    header: str = "",
    footer: str = "",
    frame: str = "",
    frame_table: list[list[str]] | None = None,
    shape: str = "",
    **properties: str,
) -> Path:
    """An ODT via odfpy: paragraphs and ``(level, text)`` headings; a master page header and
    footer; a text box (draw:frame/draw:text-box) holding ``frame`` and, optionally, a table;
    a drawn rectangle (draw:custom-shape) holding ``shape``."""
    from odf import dc, meta, style, table, text
    from odf.draw import CustomShape, EnhancedGeometry, Frame, TextBox
    from odf.opendocument import OpenDocumentText

    doc = OpenDocumentText()
    for key, value in properties.items():
        element = {"title": dc.Title, "author": meta.InitialCreator, "subject": dc.Subject}.get(
            key, meta.Keyword
        )
        doc.meta.addElement(element(text=value))
    if header or footer:
        layout = style.PageLayout(name="Layout")
        doc.automaticstyles.addElement(layout)
        master = style.MasterPage(name="Standard", pagelayoutname=layout)
        for kind, words in ((style.Header, header), (style.Footer, footer)):
            if words:
                part = kind()
                part.addElement(text.P(text=words))
                master.addElement(part)
        doc.masterstyles.addElement(master)
    for block in blocks:
        if isinstance(block, tuple):
            doc.text.addElement(text.H(outlinelevel=block[0], text=block[1]))
        else:
            doc.text.addElement(text.P(text=block))
    if frame or frame_table:
        anchor = text.P()
        box = TextBox()
        if frame:
            box.addElement(text.P(text=frame))
        if frame_table:
            grid = table.Table(name="Framed")
            grid.addElement(table.TableColumn(numbercolumnsrepeated=len(frame_table[0])))
            for row in frame_table:
                tr = table.TableRow()
                for value in row:
                    cell = table.TableCell()
                    cell.addElement(text.P(text=value))
                    tr.addElement(cell)
                grid.addElement(tr)
            box.addElement(grid)
        framed = Frame(width="6cm", height="4cm", anchortype="paragraph")
        framed.addElement(box)
        anchor.addElement(framed)
        doc.text.addElement(anchor)
    if shape:
        anchor = text.P()
        drawn = CustomShape(width="3cm", height="2cm", anchortype="paragraph")
        drawn.addElement(text.P(text=shape))
        drawn.addElement(EnhancedGeometry(type="rectangle"))
        anchor.addElement(drawn)
        doc.text.addElement(anchor)
    doc.save(str(path))
    return path


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


# -- class 6: document properties in the text ------------------------------------------------------
PROPS = {
    "title": "Harbour survey",
    "author": "Ines Quintero",
    "subject": "Tides",
    "keywords": "kelp",
}


def _first_text(reader: docread.Reader, name: str, **options: object) -> docread.Document:
    return next(u for u in reader.iter_units(name, **options) if isinstance(u, docread.Document))


@pytest.mark.parametrize("kind", ["docx", "pptx", "xlsx", "pdf", "odt", "epub", "ods"])
def test_properties_head_the_first_unit_in_loader_mode(
    reader: docread.Reader, tmp_path: Path, kind: str
) -> None:
    name = _with_properties(tmp_path, kind)
    first = _first_text(reader, name)
    if kind == "epub":  # its title page opens with the title as a heading: not said twice
        assert first.text.startswith("Author: Ines Quintero\n"), first.text[:200]
        assert "\n# Harbour survey\n" in first.text and first.text.count("Harbour survey") == 1
    else:
        assert first.text.startswith("Title: Harbour survey\nAuthor: Ines Quintero\n"), first.text

    assert "Subject: Tides" in first.text
    assert ("Keywords: kelp" in first.text) is (kind != "epub")  # the OPF has no keywords
    assert first.metadata["author"] == "Ines Quintero"  # still in metadata
    others = [u for u in reader.iter_units(name) if isinstance(u, docread.Document)][1:]
    assert all("Ines Quintero" not in d.text for d in others)
    view = reader.read(name)
    assert "Ines Quintero" in view.header.get("Metadata", "")  # the agent view: in its header
    assert not view.text.lstrip().startswith("Title:")


def _with_properties(tmp_path: Path, kind: str) -> str:
    """A two-unit file of ``kind`` whose properties are PROPS."""
    from factories import docx, pdf, pptx, xlsx

    path = tmp_path / f"props.{kind}"
    if kind == "docx":
        docx(path, [(1, "Part one"), "Body one", (1, "Part two"), "Body two"], **PROPS)
    elif kind == "pptx":
        pptx(path, [("Opening", "one", ""), ("Closing", "two", "")], **PROPS)
    elif kind == "xlsx":
        import openpyxl

        xlsx(path, {"One": [["a"], [1]], "Two": [["b"], [2]]})
        wb = openpyxl.load_workbook(path)
        wb.properties.title, wb.properties.creator = PROPS["title"], PROPS["author"]
        wb.properties.subject, wb.properties.keywords = PROPS["subject"], PROPS["keywords"]
        wb.save(path)
    elif kind == "pdf":
        import pymupdf

        pdf(path, ["page one words", "page two words"])
        doc = pymupdf.open(path)
        doc.set_metadata({k: v for k, v in PROPS.items()})
        doc.saveIncr()
        doc.close()
    elif kind == "ods":
        _ods(path)
    elif kind == "odt":
        odt(path, [(1, "Part one"), "Body one", (1, "Part two"), "Body two"], **PROPS)
    else:
        _pandoc_epub(path)
    return path.name


def _ods(path: Path) -> Path:
    """A two-sheet ODS via odfpy, with PROPS as its meta.xml properties."""
    from odf import dc, meta, table, text
    from odf.opendocument import OpenDocumentSpreadsheet

    doc = OpenDocumentSpreadsheet()
    doc.meta.addElement(dc.Title(text=PROPS["title"]))
    doc.meta.addElement(meta.InitialCreator(text=PROPS["author"]))
    doc.meta.addElement(dc.Subject(text=PROPS["subject"]))
    doc.meta.addElement(meta.Keyword(text=PROPS["keywords"]))
    for name, rows in (("One", [["a"], ["1"]]), ("Two", [["b"], ["2"]])):
        sheet = table.Table(name=name)
        for row in rows:
            tr = table.TableRow()
            for value in row:
                cell = table.TableCell(valuetype="string")
                cell.addElement(text.P(text=value))
                tr.addElement(cell)
            sheet.addElement(tr)
        doc.spreadsheet.addElement(sheet)
    doc.save(str(path))
    return path


def test_no_header_without_include_metadata(reader: docread.Reader, tmp_path: Path) -> None:
    name = _with_properties(tmp_path, "docx")
    first = _first_text(reader, name, include_metadata=False)
    assert "Ines Quintero" not in first.text and "author" not in first.metadata


def _pandoc_epub(path: Path) -> Path:
    """A two-chapter EPUB written by pandoc, with PROPS as its metadata."""
    import subprocess

    import pypandoc

    meta = "".join(f"{k}: {v}\n" for k, v in PROPS.items())
    source = f"---\n{meta}---\n\n# Part one\n\nBody one\n\n# Part two\n\nBody two\n"
    subprocess.run(
        [pypandoc.get_pandoc_path(), "-f", "markdown", "-o", str(path)],
        input=source.encode(), check=True, capture_output=True, timeout=60,
    )  # fmt: skip
    return path


def test_title_already_at_the_head_is_not_repeated(reader: docread.Reader, tmp_path: Path) -> None:
    from factories import docx

    docx(tmp_path / "t.docx", [(1, "Harbour survey"), "Body"], title="Harbour survey")
    text = _first_text(reader, "t.docx").text
    assert text.count("Harbour survey") == 1 and not text.startswith("Title:")


def test_no_properties_no_header_and_a_later_page_keeps_its_id(
    reader: docread.Reader, tmp_path: Path
) -> None:
    from factories import PAGE_BREAK, docx

    docx(tmp_path / "bare.docx", ["Only body", PAGE_BREAK, "Second page"], author="")
    assert _first_text(reader, "bare.docx").text.startswith("Only body")
    docx(tmp_path / "p.docx", ["One", PAGE_BREAK, "Two"], author="Ines Quintero")
    whole = [u for u in reader.iter_units("p.docx", pages="1-2")]
    alone = _first_text(reader, "p.docx", pages="2")
    assert "Ines Quintero" not in alone.text and alone.id == whole[1].id
    assert whole[0].text.startswith("Author: Ines Quintero")


def test_property_values_are_sanitized_and_capped(make_reader, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    from factories import docx

    docx(tmp_path / "x.docx", ["Body"], author="Evil\u202e\u200b " + "a" * 200)
    reader = make_reader(output={"max_metadata_value_len": 40})
    head = _first_text(reader, "x.docx").text.split("\n\n", 1)[0]
    assert "\u202e" not in head and "\u200b" not in head and head.startswith("Author: Evil")
    assert len(head) == len("Author: ") + 40 + len("...")  # capped as the metadata value is


# -- class 5: legacy .doc beyond ASCII -------------------------------------------------------------
LEGACY = CORPUS / "word" / "legacy_sample.doc"


@pytest.mark.skipif(not LEGACY.exists(), reason="the shared corpus is not present")
def test_legacy_doc_keeps_non_ascii_under_a_c_locale(
    make_reader: MakeReader, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """antiword's default mapping follows the locale: under C it writes "Let's" for "Let’s" and
    "." for a bullet (and "?" for Greek or Cyrillic); the UTF-8 mapping keeps every character."""
    import shutil

    monkeypatch.setenv("LANG", "C")
    monkeypatch.setenv("LC_ALL", "C")
    shutil.copy(LEGACY, tmp_path / "legacy.doc")
    text = "\n".join(d.text for d in make_reader().iter_documents("legacy.doc"))
    assert "Let’s swim!" in text and "• You can relax and look around" in text
    assert "…" in text


def test_short_doc_scan_keeps_greek_and_cyrillic() -> None:
    """antiword refuses very short documents; the UTF-16 scan that recovers their text keeps
    Greek, Cyrillic and typographic punctuation, not only Latin-1."""
    from docread.extractors.office.convert.pandoc import _utf16_runs

    words = "Καλημέρα κόσμε, Привет мир — “quoted”"
    data = b"\xd0\xcf\x11\xe0\x00\x05" + f"{words}\r".encode("utf-16-le") + b"\x00\x00"
    assert _utf16_runs(data) == [words]


# -- class 4: the parts pandoc drops --------------------------------------------------------------
_W = 'xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"'
_REL = "http://schemas.openxmlformats.org/officeDocument/2006/relationships/"
_CT = "application/vnd.openxmlformats-officedocument.wordprocessingml."
_TEXT_BOX = (
    '<w:p><w:r><mc:AlternateContent><mc:Choice Requires="wps"><w:drawing><wp:anchor>'
    '<a:graphic xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main"><a:graphicData>'
    "<wps:wsp><wps:txbx><w:txbxContent><w:p><w:r><w:t>Boxed aside words</w:t></w:r></w:p>"
    "</w:txbxContent></wps:txbx></wps:wsp></a:graphicData></a:graphic></wp:anchor></w:drawing>"
    "</mc:Choice><mc:Fallback><w:pict><v:shape><v:textbox><w:txbxContent><w:p><w:r>"
    "<w:t>Boxed aside words</w:t></w:r></w:p></w:txbxContent></v:textbox></v:shape></w:pict>"
    "</mc:Fallback></mc:AlternateContent></w:r></w:p>"
    "<w:p><w:r><w:pict><v:shape><v:textbox><w:txbxContent><w:p><w:r><w:t>Vml boxed words</w:t>"
    "</w:r></w:p></w:txbxContent></v:textbox></v:shape></w:pict></w:r></w:p>"
)


def _notes_part(kind: str, words: str) -> str:
    """word/footnotes.xml or word/endnotes.xml: Word's two separators, then note 1."""
    separators = "".join(
        f'<w:{kind} w:type="{t}" w:id="{i}"><w:p><w:r><w:separator/></w:r></w:p></w:{kind}>'
        for i, t in ((-1, "separator"), (0, "continuationSeparator"))
    )
    note = f'<w:{kind} w:id="1"><w:p><w:r><w:t>{words}</w:t></w:r></w:p></w:{kind}>'
    return f"<w:{kind}s {_W}>{separators}{note}</w:{kind}s>"


def rich_docx(path: Path) -> Path:
    """A DOCX with everything pandoc may drop: a header and a footer (python-docx), a comment
    (python-docx >= 1.2), a footnote and an endnote (parts written here, as Word writes them),
    and text boxes (DrawingML with its VML fallback, and a VML-only one)."""
    import docx as python_docx

    d = python_docx.Document()
    d.core_properties.author = ""
    d.sections[0].header.paragraphs[0].text = "Running head words"
    d.sections[0].footer.paragraphs[0].text = "Page foot words"
    d.add_paragraph("Body with notes")
    para = d.add_paragraph("Commented words")
    d.add_comment(para.runs, text="A reviewer remark", author="Rev")
    d.save(path)
    with zipfile.ZipFile(path) as z:
        parts = {i.filename: z.read(i) for i in z.infolist()}
    refs = (
        '<w:r><w:rPr><w:rStyle w:val="FootnoteReference"/></w:rPr><w:footnoteReference w:id="1"/>'
        '</w:r><w:r><w:endnoteReference w:id="1"/></w:r>'
    )
    body = parts["word/document.xml"].decode()
    body = body.replace(
        "<w:t>Body with notes</w:t></w:r>", f"<w:t>Body with notes</w:t></w:r>{refs}"
    )
    parts["word/document.xml"] = body.replace("<w:sectPr", _TEXT_BOX + "<w:sectPr", 1).encode()
    for kind in ("footnote", "endnote"):
        parts[f"word/{kind}s.xml"] = _notes_part(kind, f"{kind.capitalize()} words").encode()
        rels = parts["word/_rels/document.xml.rels"].decode()
        rel = f'<Relationship Id="rId{kind}" Type="{_REL}{kind}s" Target="{kind}s.xml"/>'
        parts["word/_rels/document.xml.rels"] = rels.replace(
            "</Relationships>", rel + "</Relationships>"
        ).encode()
        types = parts["[Content_Types].xml"].decode()
        override = f'<Override PartName="/word/{kind}s.xml" ContentType="{_CT}{kind}s+xml"/>'
        parts["[Content_Types].xml"] = types.replace("</Types>", override + "</Types>").encode()
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as z:
        for name, data in parts.items():
            z.writestr(name, data)
    return path


RICH_WORDS = (
    "Footnote words", "Endnote words", "Boxed aside words", "Vml boxed words", "Running head",
    "Page foot words", "A reviewer remark", "Body with notes",
)  # fmt: skip


def _sections(text: str) -> dict[str, str]:
    """``## Heading`` -> the text under it (up to the next level-2 heading)."""
    out: dict[str, str] = {}
    for chunk in ("\n" + text).split("\n## ")[1:]:
        title, _, rest = chunk.partition("\n")
        out[title.strip()] = rest.strip()
    return out


def test_docx_headers_footers_notes_comments_and_text_boxes_each_once(
    reader: docread.Reader, tmp_path: Path
) -> None:
    rich_docx(tmp_path / "rich.docx")
    for text in (
        reader.read("rich.docx").text,
        "\n\n".join(d.text for d in reader.iter_documents("rich.docx")),
    ):
        for words in RICH_WORDS:
            assert text.count(words) == 1, (words, text)
        parts = _sections(text)
        assert parts["Header"] == "Running head words"
        assert parts["Footer"] == "Page foot words"
        assert re.fullmatch(r"- Rev \(\d{4}-\d\d-\d\d\): A reviewer remark", parts["Comments"])
        assert "[^1]: Footnote words" in text  # pandoc marks notes as notes


def test_docx_header_and_footer_tables_are_pipe_tables() -> None:
    """docx-hdrftr.docx has a 2-cell table in its header and a table nesting another in its
    footer: both read by the body's rules (a pipe table, the nested one flattened into its cell),
    not as ``a | b`` lines."""
    with docread.Reader(CORPUS, config={"cache": {"enabled": False}}) as reader:
        parts = _sections(reader.read("word/docx-hdrftr.docx").text)
    assert "| Table cell1 | Table cell2 |\n|---|---|" in parts["Header"]
    assert parts["Header"].startswith("First header para")
    assert re.search(r"^\| cell1 \| a \[nested table: [^]]*\] f \|$", parts["Footer"], re.M)


def test_odt_frames_tables_in_frames_headers_and_footers(
    reader: docread.Reader, tmp_path: Path
) -> None:
    odt(
        tmp_path / "framed.odt", [(1, "Body heading"), "Body paragraph words"],
        header="Running head words", footer="Page foot words", frame="Boxed aside words",
        frame_table=[["Framed cell A", "Framed cell B"], ["c", "d"]], shape="Shape inner words",
    )  # fmt: skip
    text = reader.read("framed.odt").text
    assert text.count("Shape inner words") == 1
    assert text.index("Body paragraph words") < text.index("Boxed aside words")
    assert "| Framed cell A | Framed cell B |" in text  # the table stays a table
    parts = _sections(text)
    assert parts["Header"] == "Running head words" and parts["Footer"] == "Page foot words"
    assert text.count("Boxed aside words") == 1


RTF = rb"""{\rtf1\ansi\ansicpg1252\deff0{\fonttbl{\f0 Times;}}
{\*\pgdsctbl{\pgdsc0{\header \pard Style table words\par}}}
\sectd{\header \pard\plain Running head w\'f6rds\par}{\footerr \pard Page foot words\par}
{\footerl \pard Page foot words\par}
\pard Body paragraph words\par
}"""


def test_rtf_headers_and_footers(reader: docread.Reader, tmp_path: Path) -> None:
    """Pandoc drops \\header and \\footer groups: they are moved after the body and marked; a
    page-style table's copy (an ignorable destination) stays unread, a repeated one counts once."""
    (tmp_path / "margins.rtf").write_bytes(RTF)
    text = reader.read("margins.rtf").text
    parts = _sections(text)
    assert text.startswith("Body paragraph words")
    assert parts["Header"] == "Running head wörds" and parts["Footer"] == "Page foot words"
    assert "Style table words" not in text and "DOCREAD" not in text


def test_a_moved_margin_group_never_joins_a_control_word_to_the_text_after_it(
    reader: docread.Reader, tmp_path: Path
) -> None:
    """``\\plain{\\footer Page}Body`` must not become ``\\plainBody`` (a control word that eats
    the body's first word)."""
    (tmp_path / "tight.rtf").write_bytes(rb"{\rtf1\ansi\plain{\footer Foot words}Body words\par}")
    parts = _sections(text := reader.read("tight.rtf").text)
    assert text.startswith("Body words") and parts["Footer"] == "Foot words"


def test_odp_footers_and_master_page_words(reader: docread.Reader, tmp_path: Path) -> None:
    from odf import draw, presentation, style, text
    from odf.opendocument import OpenDocumentPresentation

    doc = OpenDocumentPresentation()
    layout = style.PageLayout(name="PM1")
    doc.automaticstyles.addElement(layout)
    master = style.MasterPage(name="Corporate", pagelayoutname=layout)
    badge = draw.Frame(width="4cm", height="1cm", x="1cm", y="1cm")
    box = draw.TextBox()
    box.addElement(text.P(text="Acme Confidential"))
    badge.addElement(box)
    master.addElement(badge)
    prompt = draw.Frame(width="4cm", height="1cm", x="1cm", y="3cm", placeholder="true")
    prompt.setAttrNS(presentation.PRESENTATIONNS, "class", "title")
    prompt_box = draw.TextBox()
    prompt_box.addElement(text.P(text="Click to edit Master title style"))
    prompt.addElement(prompt_box)
    master.addElement(prompt)
    doc.masterstyles.addElement(master)
    doc.presentation.addElement(
        presentation.FooterDecl(name="ftr1", text="Quarterly review footer")
    )
    for n in (1, 2):
        page = draw.Page(masterpagename=master, usefootername="ftr1")
        frame = draw.Frame(width="10cm", height="2cm", x="1cm", y="5cm")
        tb = draw.TextBox()
        tb.addElement(text.P(text=f"Slide body {n}"))
        frame.addElement(tb)
        page.addElement(frame)
        doc.presentation.addElement(page)
    doc.save(str(tmp_path / "deck.odp"))
    slides = [d.text for d in reader.iter_documents("deck.odp")]
    assert all("Footer: Quarterly review footer" in s for s in slides)
    assert "Master page: Acme Confidential" in slides[0]
    assert "Acme Confidential" not in slides[1]  # the background is said once
    assert not any("Click to edit" in s for s in slides)
