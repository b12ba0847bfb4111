"""PDF structure (``pdf.structure: auto``) on the kinds Word and LibreOffice print, issue 33's
fourth round: bench/real_pdf.py's ``extra`` split scores the corpus's Word/ODF/HTML documents
exported to PDF by LibreOffice (bench/pdf_truth/README.md); each test here prints one thing
those pages showed the engine getting wrong, on a generated page (a spreadsheet's financial
statement among them: its period heads in the band over a ruled table)."""

from __future__ import annotations

import docread
import pymupdf
from factories import drawn, drawn_markdown, pdf, pipe_rows
from test_pdf_real_structure import headings

BODY = (
    "Large language models are powerful tools that can generate natural language texts for "
    "various applications, such as chatbots, summarization, translation, and more. "
)


def _read(reader: docread.Reader, name: str) -> str:
    return next(d.text for d in reader.read(name).documents if "table_index" not in d.metadata)


def _centred(p: pymupdf.Page, y: float, text: str, font: str, size: float) -> None:
    width = pymupdf.get_text_length(text, fontname=font, fontsize=size)
    p.insert_text(((p.rect.width - width) / 2, y), text, fontname=font, fontsize=size)


def test_headings_in_two_slants_one_under_the_other_are_two_headings(reader, tmp_path):
    """testWORD.doc as LibreOffice prints it: an italic subtitle over a plain "Main Heading"
    and a bold italic "Heading Level 2" over a bold "Heading Level 3" of the same width, each
    pair as close as the document's paragraphs: four headings, not two joined pairs."""

    def page(p: pymupdf.Page) -> None:
        _centred(p, 90, "Sample Word Document Title", "tibo", 18)
        _centred(p, 122, "And now for a subtitle", "heit", 14)
        rows = [
            ("Main Heading", "helv", 14),
            ("Heading Level 1", "hebo", 16),
            ("Heading Level 2", "hebi", 14),
            ("Heading Level 3", "hebo", 14),
            ("This is a sample Microsoft Word Document.", "tiro", 12),
            ("This document includes text that is bold and italic.", "tiro", 12),
            ("Apache Tika: http://tika.apache.org/ Tika", "tiro", 12),
            ("Apache POI: http://poi.apache.org/ POI", "tiro", 12),
            ("This paragraph is in the default text style", "tiro", 12),
        ]
        for i, (text, font, size) in enumerate(rows):
            p.insert_text((72, 154 + 31 * i), text, fontname=font, fontsize=size)

    pdf(tmp_path / "word.pdf", [drawn(page, width=612, height=792)])
    found = headings(_read(reader, "word.pdf"))
    assert found == [
        "Sample Word Document Title", "And now for a subtitle", "Main Heading",
        "Heading Level 1", "Heading Level 2", "Heading Level 3",
    ]  # fmt: skip


def test_a_wrapped_cell_in_a_table_ruled_across_only_keeps_the_rows_after_it(reader, tmp_path):
    """legacy_sample.doc as LibreOffice prints it: a table with horizontal rules only, its rows
    set well apart (more than three lines' height between the rows' text), one cell wrapped
    onto a second line: the row after the wrapped line is near that line, not the row above
    it, and stays in the table."""

    def page(p: pymupdf.Page) -> None:
        p.insert_text((67, 108), "Here are some interesting things a respectful duck could eat:")
        p.insert_text((245, 211), "Food", fontsize=15)
        p.insert_text((404, 211), "Calories per portion", fontsize=15)
        rows = [
            (250, "Leaves", ["Ash, Elm, Maple"], "50"),
            (286, "Berries", ["Blueberry, Strawberry,", "Cranberry"], "150"),
            (360, "Grain", ["Corn, Buckwheat, Barley"], "200"),
        ]
        for y, label, food, calories in rows:
            width = pymupdf.get_text_length(label, fontname="tibo", fontsize=12)
            p.insert_text((208 - width, y), label, fontname="tibo", fontsize=12)
            for i, line in enumerate(food):
                p.insert_text((245, y + 14 * i), line, fontname="tiro", fontsize=12)
            p.insert_text((404, y), calories, fontname="tiro", fontsize=12)
        for y, width in ((226, 3), (263.5, 1), (325, 1), (372, 1)):
            p.draw_line((67, y), (545, y), width=width)
        p.insert_text((67, 410), "And let us add another list in the end:")

    pdf(tmp_path / "ruled_across.pdf", [drawn(page, width=612, height=792)])
    text = _read(reader, "ruled_across.pdf")
    assert "| Berries | Blueberry, Strawberry, Cranberry | 150 |" in text
    assert "| Grain | Corn, Buckwheat, Barley | 200 |" in text


def test_a_nested_tables_cells_set_corner_to_corner_are_one_table(reader, tmp_path):
    """testWORD.doc as LibreOffice prints it: a ruled 2 x 2 table nested in a Word table,
    text in its top-left and bottom-right cells only: the two cells touch at a corner, never
    along a side, but one rule bounds both (the wall between the columns): one table."""

    def page(p: pymupdf.Page) -> None:
        p.insert_text((72, 80), "This document includes text that is bold and italic.")
        for y in (386.5, 418, 487.3, 534.8):
            p.draw_line((71.4, y), (503.6, y), width=0.25)
        for x in (71.5, 188.9, 503.5):
            p.draw_line((x, 386.3), (x, 534.9), width=0.25)
        for y in (421, 452.6, 484.2):
            p.draw_line((191.7, y), (402.4, y), width=0.25)
        for x in (191.8, 268, 402.3):
            p.draw_line((x, 420.9), (x, 484.4), width=0.25)
        p.insert_text((74, 400), "This is a table", fontname="tiro", fontsize=12)
        p.insert_text((195, 435), "Nested table", fontname="tiro", fontsize=12)
        p.insert_text((271, 466), "More of our nested table", fontname="tiro", fontsize=12)
        p.insert_text((74, 501), "The table has things in", fontname="tiro", fontsize=12)
        p.insert_text((74, 517), "it", fontname="tiro", fontsize=12)

    pdf(tmp_path / "nested.pdf", [drawn(page, width=612, height=792)])
    text = _read(reader, "nested.pdf")
    assert "| Nested table |  |" in text
    assert "|  | More of our nested table |" in text


def test_an_underlined_link_in_a_ruled_cell_stays_in_its_cell(reader, tmp_path):
    """docx-tables.docx as LibreOffice prints it: a hyperlink underlined in a ruled table's
    cell; the underline is no wall of the cell, so the link stays in the table."""

    def page(p: pymupdf.Page) -> None:
        p.insert_text((72, 83), "Simple uniform table")
        for y in (86.3, 100.7, 115.3):
            p.draw_line((71.6, y), (540.5, y), width=1)
        for x in (72.3, 306, 539.8):
            p.draw_line((x, 85.5), (x, 116), width=1)
        p.insert_text((77.8, 97.5), "Header Col 1")
        p.insert_text((311.5, 97.5), "Header Col 2")
        p.insert_text((77.8, 112), "Lorem ipsum")
        p.insert_text((311.5, 112), "A link example", color=(0, 0.4, 0.8))
        end = 311.5 + pymupdf.get_text_length("A link example", fontsize=11)
        p.draw_line((311.5, 113.4), (end, 113.4), width=1.4, color=(0, 0.4, 0.8))

    pdf(tmp_path / "link.pdf", [drawn(page, width=612, height=792)])
    assert "| Lorem ipsum | A link example |" in _read(reader, "link.pdf")


def test_a_bold_line_of_two_letter_acronyms_at_body_size_is_a_heading(reader, tmp_path):
    """test_blog.html as LibreOffice prints it: a bold "TL;DR:" standing alone at body size
    over a list: its words are acronyms of two capitals, not the three letters a word takes
    elsewhere (a formula's "x = y" has none), so it is a heading; a bold "x = 2" stays none."""

    def page(p: pymupdf.Page) -> None:
        p.insert_text((57, 100), "TL;DR:", fontname="tibo", fontsize=12)
        p.insert_textbox(pymupdf.Rect(57, 112, 540, 220), BODY * 3, fontname="tiro", fontsize=12)
        p.insert_text((57, 250), "x = 2", fontname="tibo", fontsize=12)
        p.insert_textbox(pymupdf.Rect(57, 262, 540, 370), BODY * 3, fontname="tiro", fontsize=12)

    pdf(tmp_path / "tldr.pdf", [drawn(page, width=612, height=792)])
    assert headings(_read(reader, "tldr.pdf")) == ["TL;DR:"]


STATEMENT = [
    ["Underlying trading operating profit", "7,904", "7,683"],
    ["Net other trading income/(expenses)", "(553)", "(999)"],
    ["Trading operating profit", "7,351", "6,684"],
    ["Operating profit", "7,262", "6,619"],
]


def _statement(p: pymupdf.Page) -> None:
    """A financial statement as a spreadsheet exports it (2023-half-year-analyses-by-segment
    p5): a rule across the table's top, the unit at the left and each period's head set right
    over two lines in the band under it, a rule under the heads, a rule under each row, the
    current period's column shaded from the first row down (its edges the only rules down)."""
    p.draw_line((62, 108), (533, 108), width=0.3)
    p.insert_text((63, 115), "In millions of CHF", fontsize=7)
    for right, year in ((472.5, "2023"), (531.7, "2022")):
        for y, text in ((121, "Half-year"), (129, year)):
            width = pymupdf.get_text_length(text, fontsize=7)
            p.insert_text((right - width, y), text, fontsize=7)
    p.draw_rect(pymupdf.Rect(414, 131, 473.4, 131 + 11 * len(STATEMENT)), color=None,
                fill=(0.93, 0.93, 0.93))  # fmt: skip
    p.draw_line((62, 131), (533, 131), width=0.3)
    for i, row in enumerate(STATEMENT):
        y = 131 + 11 * i
        p.insert_text((63, y + 8), row[0], fontsize=7)
        for right, value in zip((472.5, 531.7), row[1:], strict=True):
            width = pymupdf.get_text_length(value, fontsize=7)
            p.insert_text((right - width, y + 8), value, fontsize=7)
        p.draw_line((62, y + 11), (533, y + 11), width=0.3)


def test_period_heads_in_the_band_over_a_ruled_table_head_its_columns(tmp_path):
    """2023-half-year-analyses-by-segment p5: the heads set in the band between the table's top
    rule and its first row, where no rule down reaches, are its header row, each column's lines
    one cell; not lines of text above a table without a header."""
    rows = pipe_rows(drawn_markdown(tmp_path, _statement))
    assert rows == [["In millions of CHF", "Half-year 2023", "Half-year 2022"], *STATEMENT]
