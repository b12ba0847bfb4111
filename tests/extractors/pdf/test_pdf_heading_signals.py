"""PDF headings (``pdf.structure: auto``) told by signals other than size and weight, and
lines that look like headings but are not, as seen on the real pages of splits ``extra2`` and
``tune`` in bench/pdf_truth/ (a manual's headings set apart by colour only, a diagram's labels,
a form's field labels, a title block's date; and a paragraph running on into the next column
for one line of Hangul): each page here is generated to show the same thing."""

from __future__ import annotations

import re
from collections.abc import Callable
from functools import partial
from pathlib import Path

import pymupdf
import pytest
from docread.extractors.pdf.survey import HEAD_NUMBER
from factories import drawn_markdown

HEADING = re.compile(r"^#{1,6} (.+)$", re.MULTILINE)
_BLUE, _GREY = (0.08, 0.2, 0.31), (0.55, 0.55, 0.55)
_TEXT = (
    "There are implied associations with all hydrographic features and the network",
    "could be defined explicitly through spatial analysis of the features it holds.",
)


def _paragraph(page: pymupdf.Page, y: float, lines: int = 2) -> float:
    """A paragraph of ``_TEXT`` in black 10 pt Helvetica from ``y``; where the next one starts."""
    for i in range(lines):
        page.insert_text((72, y), _TEXT[i % 2], fontsize=10, fontname="helv")
        y += 12
    return y + 10


def _coloured_headings(page: pymupdf.Page) -> None:
    """Section headings in the body's font and size, set apart by a dark blue only, over
    paragraphs; a grey line (set back, not apart) and a row of blue figures (a table's)."""
    page.insert_text((72, 60), "Revised 2004-06-02", fontsize=10, color=_GREY)
    y = _paragraph(page, 90.0)
    for title in ("Hydrographic features", "Network linear elements", "Point events"):
        page.insert_text((72, y + 8), title, fontsize=10, fontname="helv", color=_BLUE)
        y = _paragraph(page, y + 28, 4)
    for x, cell in zip((72, 200, 330), ("12,553", "2,713", "2,632"), strict=True):
        page.insert_text((x, y + 10), cell, fontsize=10, fontname="helv", color=_BLUE)
    _paragraph(page, y + 34)


def test_a_line_standing_alone_in_a_colour_the_body_does_not_use_is_a_heading(
    tmp_path: Path,
) -> None:
    markdown = drawn_markdown(tmp_path, _coloured_headings, width=612)
    assert HEADING.findall(markdown) == [
        "Hydrographic features",
        "Network linear elements",
        "Point events",
    ]
    assert "Revised 2004-06-02" in markdown


def _diagram(page: pymupdf.Page) -> None:
    """A heading, text, then a figure: a frame around two boxes, a large bold label on a small
    plate of its own inside the frame, another in a box; after it, a form's frame whose
    section title sits in a band across it, over two entry boxes."""
    page.insert_text((72, 70), "Overview", fontsize=12, fontname="hebo")
    y = _paragraph(page, 95.0, 4)
    page.draw_rect(pymupdf.Rect(128, y, 484, y + 220), color=(0, 0, 1), width=3)
    page.draw_rect(pymupdf.Rect(254, y + 10, 413, y + 29), color=(1, 1, 1), fill=(1, 1, 1))
    page.insert_text((261, y + 24), "Quantity of phenomenon", fontsize=12, fontname="hebo")
    page.draw_rect(pymupdf.Rect(235, y + 41, 344, y + 89), fill=(0.2, 0.2, 0.2))
    page.draw_rect(pymupdf.Rect(235, y + 90, 386, y + 188), fill=(0.75, 0.75, 0.75))
    page.insert_text((240, y + 180), "Optional", fontsize=16, fontname="hebo")
    y = _paragraph(page, y + 250, 4)
    page.draw_rect(pymupdf.Rect(70, y, 540, y + 120), color=(0, 0, 0))
    page.draw_rect(pymupdf.Rect(70, y, 540, y + 20), fill=(0.85, 0.85, 0.85))
    page.insert_text((76, y + 14), "Section A. Claimant", fontsize=12, fontname="hebo")
    for top in (y + 35, y + 75):
        page.draw_rect(pymupdf.Rect(76, top, 400, top + 25), color=(0.5, 0.5, 0.5))


def test_labels_inside_a_diagrams_frame_are_no_headings(tmp_path: Path) -> None:
    markdown = drawn_markdown(tmp_path, _diagram, width=612)
    assert HEADING.findall(markdown) == ["Overview", "Section A. Claimant"]
    assert "Quantity of phenomenon" in markdown and "Optional" in markdown


def _form(page: pymupdf.Page) -> None:
    """A boxed form: a bold title, bold numbered field labels ending with a colon, each over
    an empty entry box, then two numbered labels in capitals on one row, a cell's wall between
    them, over a paragraph of text."""
    page.draw_rect(pymupdf.Rect(30, 36, 578, 700), color=(0, 0, 0))
    page.insert_text((35, 52), "Application for Federal Assistance", fontsize=12, fontname="hebo")
    y = 75.0
    for label in ("9. Type of Applicant 1: Select Applicant Type:", "11. Catalog Number:"):
        page.insert_text((35, y), label, fontsize=8, fontname="hebo")
        page.draw_rect(pymupdf.Rect(34, y + 5, 527, y + 18), color=(0.6, 0.6, 0.6))
        page.insert_text((35, y + 34), "Title:", fontsize=7.5, fontname="helv")
        page.draw_rect(pymupdf.Rect(34, y + 39, 527, y + 52), color=(0.6, 0.6, 0.6))
        y += 75
    page.draw_rect(pymupdf.Rect(366, y - 10, 367.5, y + 40), fill=(0, 0, 0))
    page.insert_text((35, y), "20. SIGNATURE OF CLAIMANT (REQUIRED)", fontsize=8, fontname="hebo")
    page.insert_text((372, y), "21. DATE SIGNED", fontsize=8, fontname="hebo")
    for i in range(6):
        page.insert_text((35, y + 60 + 11 * i), _TEXT[i % 2], fontsize=7.5, fontname="helv")


def test_a_forms_field_labels_are_no_headings(tmp_path: Path) -> None:
    markdown = drawn_markdown(tmp_path, _form, width=612)
    assert HEADING.findall(markdown) == ["Application for Federal Assistance"]
    assert "9. Type of Applicant 1: Select Applicant Type:" in markdown


def _title_block(page: pymupdf.Page) -> None:
    """A LaTeX article's title block: an italic title, an italic date line under it in a
    smaller size, then paragraphs with hanging indents."""
    page.insert_text((72, 80), "The Crazy Ones", fontsize=14.5, fontname="tiit")
    page.insert_text((72, 100), "October 14, 1998", fontsize=12, fontname="tiit")
    y = 125.0
    for _ in range(5):
        for i, line in enumerate(_TEXT):
            page.insert_text((86 if i else 76, y), line, fontsize=9, fontname="tiro")
            y += 11
        y += 6


def test_a_date_line_under_a_title_is_no_heading(tmp_path: Path) -> None:
    markdown = drawn_markdown(tmp_path, _title_block, width=612)
    assert HEADING.findall(markdown) == ["The Crazy Ones"]
    assert "October 14, 1998" in markdown


_WRAPPED = (
    "Data homogeneity will thereby be ensured by a minimum",
    "set of data; beyond the minimum level the model serves",
    "as a target for all partners and their own extensions",
)


def _columns_run_on(page: pymupdf.Page) -> None:
    """Two columns whose paragraphs open with an indented first line: the left column's last
    paragraph runs on into the right one for one line that opens without case (a number, as
    Hangul does), mid-page under a figure's box."""

    def paragraph(x: float, y: float, lines: tuple[str, ...]) -> float:
        for i, line in enumerate(lines):
            page.insert_text((x + (10 if i == 0 else 0), y), line, fontsize=10, fontname="helv")
            y += 13
        return y + 6

    y = 80.0
    for _ in range(4):
        y = paragraph(40, y, _WRAPPED)
    paragraph(40, y, _WRAPPED[:2])  # no sentence ends at the column's foot
    page.draw_rect(pymupdf.Rect(320, 70, 570, 140), fill=(0.6, 0.7, 0.9))
    page.insert_text((320, 160), "2004 partners in all.", fontsize=10, fontname="helv")
    y = 180.0
    for _ in range(2):
        y = paragraph(320, y, _WRAPPED)


def test_a_paragraph_runs_on_into_the_next_columns_one_line_that_opens_without_case(
    tmp_path: Path,
) -> None:
    markdown = drawn_markdown(tmp_path, _columns_run_on, width=612)
    blocks = [" ".join(block.split()) for block in markdown.split("\n\n")]
    assert f"{_WRAPPED[0]} {_WRAPPED[1]} 2004 partners in all." in blocks


def _product_sheet(page: pymupdf.Page) -> None:
    """A product sheet as printed: a two-line bold title, then bold side heads in the body's
    size over paragraphs."""
    page.insert_text((150, 60), "The LinnSequencer", fontsize=22, fontname="tibo")
    page.insert_text((110, 86), "32 Track MIDI Sequence Recorder", fontsize=22, fontname="tibo")
    y = 130.0
    for head in ("Recording a Sequence", "Creating a Song", "Composition Without Compromise"):
        page.insert_text((72, y), head, fontsize=11, fontname="tibo")
        y += 15
        for i in range(4):
            page.insert_text((72, y), _TEXT[i % 2], fontsize=10, fontname="tiro")
            y += 12
        y += 14


def test_an_ocr_text_layers_title_and_side_heads_are_headings(tmp_path: Path) -> None:
    """A scan with Tesseract's text layer (``GlyphLessFont``: fixed-pitch, no weight, each
    line's size fit to its box): the title is larger, the side heads are short lines in
    title case (the print's bold is not in the layer)."""
    import os
    import subprocess

    import docread

    doc = pymupdf.open()
    _product_sheet(doc.new_page(width=612, height=400))
    doc[0].get_pixmap(dpi=150, colorspace=pymupdf.csGRAY).save(tmp_path / "scan.png")
    # one OpenMP thread, as docread runs Tesseract (ocr/engine.py): the same PDF, ~0.7 s of CPU
    # instead of ~3.7 s of threads spinning on 2 cores
    subprocess.run(["tesseract", "scan.png", "page", "pdf"], cwd=tmp_path, check=True,
                   capture_output=True, env={**os.environ, "OMP_THREAD_LIMIT": "1"})  # fmt: skip
    config = {"cache": {"enabled": False}, "isolation": {"enabled": False}}
    with docread.Reader(tmp_path, config=config) as reader:
        markdown = "\n\n".join(d.text for d in reader.iter_documents("page.pdf"))
    assert HEADING.findall(markdown) == [
        "The LinnSequencer 32 Track MIDI Sequence Recorder",
        "Recording a Sequence",
        "Creating a Song",
        "Composition Without Compromise",
    ]


def _numbered_sentence(page: pymupdf.Page) -> None:
    """Paragraphs, and between them a numbered line set larger that is a whole sentence (an
    OCR layer's bullet read as ``0``, its size fit to a tall line box)."""
    y = _paragraph(page, 80.0, 4)
    line = "0 One or all tracks may be transposed at the touch of a key."
    page.insert_text((72, y), line, fontsize=13, fontname="helv")
    _paragraph(page, y + 22, 4)


def test_a_numbered_sentence_of_many_words_is_no_heading(tmp_path: Path) -> None:
    markdown = drawn_markdown(tmp_path, _numbered_sentence, width=612)
    assert HEADING.findall(markdown) == []
    assert "0 One or all tracks may be transposed at the touch of a key." in markdown


def _small_heads(page: pymupdf.Page) -> None:
    """A physics paper's heads (REVTeX, split ``extra4``): numbered lines centred over the
    column, set a point SMALLER than the 10 pt body, apart from it by weight or slant; and a
    numbered line in the body's own roman at that small size (a note), which is no heading.
    Each paragraph ends in a short line, so a numbered head under it opens a list item too."""
    y = 70.0
    for text, font in (
        ("A. Second-level heading: Formatting", "tibo"),
        ("1. Wide text (A level-3 head)", "tiit"),
        ("2. Example citations", "tiit"),
        ("1. Notes set small in roman", "tiro"),
    ):
        width = pymupdf.get_text_length(text, fontname=font, fontsize=9)
        page.insert_text((306 - width / 2, y + 8), text, fontsize=9, fontname=font)
        y += 24
        for i in range(4):
            page.insert_text((72, y), _TEXT[i % 2], fontsize=10, fontname="tiro")
            y += 12
        page.insert_text((72, y), "as printed.", fontsize=10, fontname="tiro")
        y += 18


def test_a_numbered_line_set_a_little_smaller_than_the_body_but_apart_is_a_heading(
    tmp_path: Path,
) -> None:
    markdown = drawn_markdown(tmp_path, _small_heads, width=612)
    assert HEADING.findall(markdown) == [
        "A. Second-level heading: Formatting",
        "1. Wide text (A level-3 head)",
        "2. Example citations",
    ]
    assert "1. Notes set small in roman" in markdown


def _code_word_head(page: pymupdf.Page) -> None:
    """An Introduction to R's unnumbered heads (split ``extra4``): a bold line set larger than
    the body with a word in code in its middle (``The gaussian family``), paragraphs around."""
    y = _paragraph(page, 80.0, 3)
    x = 72.0
    for piece, font in (("The ", "hebo"), ("gaussian", "cour"), (" family", "hebo")):
        page.insert_text((x, y + 8), piece, fontsize=13, fontname=font)
        x += pymupdf.get_text_length(piece, fontname=font, fontsize=13)
    _paragraph(page, y + 30, 3)


def test_a_larger_line_with_a_word_in_code_amid_its_bold_is_one_heading(tmp_path: Path) -> None:
    markdown = drawn_markdown(tmp_path, _code_word_head, width=612)
    assert HEADING.findall(markdown) == ["The gaussian family"]


def _barred_heads(page: pymupdf.Page) -> None:
    """Section heads whose number and title stand either side of a short drawn upright bar
    (``1 │ Introduction``: a bar no taller than the line, no table's column rule), paragraphs
    under each."""
    y = _paragraph(page, 80.0, 3)
    for number, title in (("1", "Introduction"), ("2", "Background")):
        page.insert_text((72, y + 8), number, fontsize=14, fontname="hebo")
        page.draw_line((88, y - 4), (88, y + 12), width=1)
        page.insert_text((96, y + 8), title, fontsize=14, fontname="hebo")
        y = _paragraph(page, y + 30, 3)


def test_a_heads_number_and_title_either_side_of_a_drawn_bar_are_one_heading(
    tmp_path: Path,
) -> None:
    markdown = drawn_markdown(tmp_path, _barred_heads, width=612)
    assert HEADING.findall(markdown) == ["1 Introduction", "2 Background"]


def _small_oblique_lines(page: pymupdf.Page, lines: tuple[str, ...]) -> None:
    """Paragraphs in 10 pt, and between them numbered ``lines`` set a point smaller in an
    oblique face, one after another."""
    y = _paragraph(page, 80.0, 3)
    for line in lines:
        page.insert_text((72, y), line, fontsize=9, fontname="heit")
        y += 14
    _paragraph(page, y + 10, 3)


# a contract's terms, numbered sentences: no heading
_TERMS = ("1. Payment is due within 30 days.", "2. Late payments bear interest at two percent a month.")


def test_a_small_oblique_numbered_sentence_is_no_heading(tmp_path: Path) -> None:
    markdown = drawn_markdown(tmp_path, partial(_small_oblique_lines, lines=_TERMS), width=612)
    assert HEADING.findall(markdown) == []
    assert "1. Payment is due within 30 days." in markdown


def _small_bold_question(page: pymupdf.Page) -> None:
    """A paper's numbered section head set a point smaller than the body in bold, asked as a
    question (it ends in ``?``, not a full stop): a heading, unlike a term's sentence."""
    y = _paragraph(page, 80.0, 3)
    page.insert_text(
        (72, y + 6), "2. Why does the simple model fail at low temperature?", fontsize=9,
        fontname="hebo",
    )  # fmt: skip
    _paragraph(page, y + 24, 3)


def test_a_small_numbered_head_asked_as_a_question_is_a_heading(tmp_path: Path) -> None:
    markdown = drawn_markdown(tmp_path, _small_bold_question, width=612)
    assert HEADING.findall(markdown) == ["2. Why does the simple model fail at low temperature?"]


# an exercise list's numbered questions, oblique: text, no headings (a bold question heads)
_QUESTIONS = (
    "1. Which of the files in the folder does the reader skip?",
    "2. How long does the first read of a long document take?",
    "3. What does the agent see when a section is asked for?",
)


def test_small_oblique_numbered_questions_are_no_headings(tmp_path: Path) -> None:
    markdown = drawn_markdown(tmp_path, partial(_small_oblique_lines, lines=_QUESTIONS), width=612)
    assert HEADING.findall(markdown) == []
    assert "2. How long does the first read of a long document take?" in markdown


def _appendix(page: pymupdf.Page) -> None:
    """A manual's appendix (geradwp p16): bold heads a point over the serif body numbered by the
    appendix's letter (``A.6.1``), the number and the title set as two runs on one row."""
    y = 80.0
    for number, title in (("A.6", "Private class commands"), ("A.6.1", "Metadata"), ("A.6.2", "Cover pages")):
        page.insert_text((72, y), number, fontsize=10, fontname="hebo")
        page.insert_text((72 + 4 * len(number) + 14, y), title, fontsize=10, fontname="hebo")
        page.insert_textbox(pymupdf.Rect(72, y + 8, 520, y + 60), " ".join(_TEXT), fontsize=9, fontname="tiro")
        y += 80


def test_a_head_numbered_by_an_appendixs_letter_is_a_heading(tmp_path):
    """``A.6.1 Metadata`` (geradwp), ``A.1 Part One`` (acmart's samples): an appendix's numbering
    is a heading's as ``6.1`` is; the outline survey found these read as paragraphs."""
    text = drawn_markdown(tmp_path, _appendix)
    assert HEADING.findall(text) == ["A.6 Private class commands", "A.6.1 Metadata", "A.6.2 Cover pages"]
    assert HEAD_NUMBER.match("A.6.1 Metadata") and not HEAD_NUMBER.match("A.B. Smith")


def _appendix_for_chapter(page: pymupdf.Page) -> None:
    """A thesis's appendix heads (technion p27): ``A.1 Appendices for Chapter 3`` ends in the
    chapter's number, no page number; a bold line opening ``p.12`` is a reference, no number."""
    y = 80.0
    for head in ("A.1 Appendices for Chapter 3", "A.1.1 A lovely subsection", "p.12 and the following chapter on method"):
        page.insert_text((72, y), head, fontsize=10, fontname="hebo")
        page.insert_textbox(pymupdf.Rect(72, y + 8, 520, y + 60), " ".join(_TEXT), fontsize=9, fontname="tiro")
        y += 80


def test_a_head_ending_in_its_chapters_number_is_no_contents_entry(tmp_path):
    """A number after Chapter, Section, Appendix ... is the head's; ``p.12`` numbers no head."""
    text = drawn_markdown(tmp_path, _appendix_for_chapter)
    assert HEADING.findall(text) == ["A.1 Appendices for Chapter 3", "A.1.1 A lovely subsection"]
    assert not HEAD_NUMBER.match("p.12 and the following")


def _numbered_side_heads(page: pymupdf.Page) -> None:
    """A journal guide's page (mnras_guide p4): numbered side heads in bold at the body's size
    (``7.3 Units``) between paragraphs, and a numbered step that is a sentence."""
    y = _paragraph(page, 60.0, 3)
    for head in ("7.3 Units", "8.1 Basic examples", "8.2 Captions and placement"):
        page.insert_text((72, y + 8), head, fontsize=10, fontname="hebo")
        y = _paragraph(page, y + 24, 3)
    page.insert_text((72, y + 8), "2. Use the program and quit it at the end.", fontsize=10, fontname="helv")
    _paragraph(page, y + 30, 2)


def _scanned_markdown(tmp_path: Path, draw: Callable[[pymupdf.Page], None], height: float) -> str:
    """The markdown auto reads from a page drawn by ``draw``, rendered at 300 dpi and given to
    Tesseract (its picture and its invisible text layer), one OpenMP thread as docread runs it."""
    import os
    import subprocess

    import docread

    doc = pymupdf.open()
    draw(doc.new_page(width=612, height=height))
    doc[0].get_pixmap(dpi=300, colorspace=pymupdf.csGRAY).save(tmp_path / "scan.png")
    subprocess.run(["tesseract", "scan.png", "page", "pdf"], cwd=tmp_path, check=True,
                   capture_output=True, env={**os.environ, "OMP_THREAD_LIMIT": "1"})  # fmt: skip
    config = {"cache": {"enabled": False}, "isolation": {"enabled": False}}
    with docread.Reader(tmp_path, config=config) as reader:
        return "\n\n".join(d.text for d in reader.iter_documents("page.pdf"))


def test_an_ocr_text_layers_numbered_side_heads_are_headings(tmp_path: Path) -> None:
    """The print's bold is not in an OCR layer, and its sizes are steadied to the body's: a
    line opening with a section number and a capital, a few words with no stop, is a side
    head there (the outline survey's scanned copies lost 60 such heads of 163); a numbered
    sentence stays text."""
    markdown = _scanned_markdown(tmp_path, _numbered_side_heads, 500)
    assert HEADING.findall(markdown) == ["7.3 Units", "8.1 Basic examples", "8.2 Captions and placement"]


def _contents(page: pymupdf.Page, entries: tuple[str, ...]) -> None:
    """A thesis's contents page (fbithesis p1, auguide4-2 p1): numbered entries, a chapter's
    larger, each with its page number far right on its row, no text between them."""
    page.insert_text((72, 70), "Contents", fontsize=16, fontname="hebo")
    for i, entry in enumerate(entries):
        y = 110.0 + 22 * i
        section = "." in entry.split()[0].rstrip(".")  # a chapter's entry in 15 pt bold
        dots, size, font = (" " + ". " * 30, 10, "helv") if section else ("", 15, "hebo")
        page.insert_text((72 + 14 * section, y), entry + dots, fontsize=size, fontname=font)
        page.insert_text((520, y), str(2 + i), fontsize=10, fontname="helv")


_THESIS = ("1 Introduction", "1.1 Why the name", "1.2 Other packages", "1.3 Installation",
           "2 Usage", "2.1 The baseclass", "2.2 Options", "3 Customization")  # fmt: skip
_REVTEX = ("IV. The Front Matter", "IV.1. Setting the title", "IV.2. Specifying a date",
           "IV.3. Specifying authors", "V. The body of the paper", "V.1. Section headings")  # fmt: skip


@pytest.mark.parametrize("entries", [_THESIS, _REVTEX])
def test_a_scanned_contents_pages_entries_are_no_side_heads(tmp_path: Path, entries: tuple[str, ...]) -> None:
    """On an OCR layer a contents entry's leader and page number are words apart from its
    title: a column whose numbered lines mostly have a leader or a bare number on their row is
    a contents page, its entries no side heads (fbithesis p1 scanned read ``2 Usage``)."""
    markdown = _scanned_markdown(tmp_path, partial(_contents, entries=entries), 320)
    assert [head for head in HEADING.findall(markdown) if head != "Contents"] == [], markdown


def _stacked_heads(page: pymupdf.Page) -> None:
    """A chapter's first page: three numbered heads stacked with no text between (``3 Methods``,
    ``3.1 Data``, ``3.1.1 Sources``), then paragraphs, then another side head."""
    y = 60.0
    for head in ("3 Methods", "3.1 Data", "3.1.1 Sources"):
        page.insert_text((72, y), head, fontsize=10, fontname="hebo")
        y += 18
    y = _paragraph(page, y + 6, 3)
    page.insert_text((72, y + 8), "3.1.2 Sampling", fontsize=10, fontname="hebo")
    _paragraph(page, y + 24, 3)


def test_an_ocr_layers_heads_stacked_over_their_text_are_no_contents(tmp_path: Path) -> None:
    """Three numbered heads with no text between them are a chapter's opening, no contents
    page (a contents page's entries run on four rows or more)."""
    markdown = _scanned_markdown(tmp_path, _stacked_heads, 400)
    assert HEADING.findall(markdown) == ["3 Methods", "3.1 Data", "3.1.1 Sources", "3.1.2 Sampling"]


def _run_in_nones(page: pymupdf.Page) -> None:
    """A proposal's budget (dfg proposal p5): two side heads with ``None.`` run in on their
    rows, then two more: four numbered rows with no other row between, then text."""
    rows = (("4.1.2 Non-Academic Staff", 330), ("4.1.3 Student Assistants", 318),
            ("4.2 Funding for Direct Project Costs", 0), ("4.2.1 Travel Expenses", 0))  # fmt: skip
    y = 60.0
    for head, at in rows:
        page.insert_text((72, y), head, fontsize=10, fontname="hebo")
        if at:
            page.insert_text((at, y), "None.", fontsize=10, fontname="helv")
        y += 20
    _paragraph(page, y, 3)


def test_an_ocr_layers_heads_with_text_run_in_are_no_contents(tmp_path: Path) -> None:
    """A sentence on a numbered row (``None.``) is text between heads, no contents entry's page
    number or leader: the heads stay."""
    markdown = _scanned_markdown(tmp_path, _run_in_nones, 300)
    assert HEADING.findall(markdown) == [
        "4.1.2 Non-Academic Staff", "4.1.3 Student Assistants", "4.2 Funding for Direct Project Costs",
        "4.2.1 Travel Expenses",
    ]


def _heads_over_listing(page: pymupdf.Page) -> None:
    """A class manual's page (ut-thesis p8): two numbered heads, then a listing whose lines
    carry their numbers (``56 \\department{...}``), then text."""
    page.insert_text((72, 60), "3.5 Front Matter", fontsize=10, fontname="hebo")
    page.insert_text((72, 80), "3.5.1 Matter Commands", fontsize=10, fontname="hebo")
    code = ("\\department{(department)}", "\\gradyear{(year)} % the year of the degree",
            "\\degree{(degree)}", "\\copyrighttext{Copyright by the author}")  # fmt: skip
    for i, line in enumerate(code):
        page.insert_text((72, 104 + 14 * i), f"{56 + i} {line}", fontsize=10, fontname="helv")
    _paragraph(page, 170, 3)


def test_an_ocr_layers_heads_over_a_numbered_listing_stay_headings(tmp_path: Path) -> None:
    """A listing's numbered lines (``56 \\department{``) are no contents entries: the heads over
    them stay."""
    markdown = _scanned_markdown(tmp_path, _heads_over_listing, 260)
    assert HEADING.findall(markdown)[:2] == ["3.5 Front Matter", "3.5.1 Matter Commands"], markdown

