"""PDF structure (``pdf.structure: auto``) of kinds seen on the real pages of split ``extra2``
in bench/pdf_truth/ (PDFs from PyPI sdists: a grid over a page footer, form instructions,
numbered acknowledgements): each page here is generated to show the same thing."""

from __future__ import annotations

import re
from pathlib import Path

import pymupdf
from factories import drawn_markdown, pipe_rows

HEADING = re.compile(r"^#{1,6} (.+)$", re.MULTILINE)


_DONORS = [
    ("MENA", "JUAN MARTÍN", "27.083.460", "20-27083460-5", "09/10/2013", "EFECTIVO", "$ 10.000,00"),
    ("MOLLE", "MATÍAS", "25.348.547", "20-25348547-8", "09/10/2013", "EFECTIVO", "$ 10.000,00"),
    ("PISONI", "CARLOS ENRIQUE", "26.034.823", "20-26034823-0", "09/10/2013", "EFECTIVO", "$ 5.000,00"),
    ("REMÓN", "MABEL AURORA", "11.292.939", "27-11292939-3", "10/10/2013", "CHEQUE", "$ 10.000,00"),
    ("TORRES", "CARLOS HUGO", "25.957.223", "20-25957223-2", "10/10/2013", "EFECTIVO", "$ 20.000,00"),
]  # fmt: skip
_XS = (48, 150, 257, 315, 384, 435, 509)


def _page_long_grid(page: pymupdf.Page) -> None:
    """A grid of seven columns set close (a date and a word 1.2 ems apart) running down to
    the page's foot, where a footer line straddles the gap between two of its columns."""
    for x, head in zip(
        _XS, ("Apellido", "Nombre", "Matricula", "Cuit", "Fecha", "Tipo", "Importe"), strict=True
    ):
        page.insert_text((x, 60), head, fontsize=9, fontname="hebo")
    y = 60.0
    for i in range(34):
        y += 22
        for x, cell in zip(_XS, _DONORS[i % len(_DONORS)], strict=True):
            page.insert_text((x, y), cell, fontsize=8, fontname="helv")
    page.insert_text((415, y + 22), "ANEXO I-A-1", fontsize=8, fontname="helv")
    page.insert_text((500, y + 22), "Página 12 de 14", fontsize=8, fontname="helv")


def test_a_footer_under_a_page_long_grid_does_not_join_two_of_its_columns(tmp_path: Path) -> None:
    rows = pipe_rows(drawn_markdown(tmp_path, _page_long_grid, width=612))
    assert rows[0] == ["Apellido", "Nombre", "Matricula", "Cuit", "Fecha", "Tipo", "Importe"]
    assert list(_DONORS[0]) in rows and list(_DONORS[3]) in rows
    assert len(rows) == 35 and all(len(r) == 7 for r in rows)


_BODY = (
    "By filing this form, I hereby indicate my intent to apply for one or more general",
    "benefits under the laws administered by the department of veterans affairs today.",
)


def _acknowledgements(page: pymupdf.Page) -> None:
    """Numbered acknowledgements under a sentence, the first in bold ending with a comma."""
    y = 80.0
    for line in _BODY:
        page.insert_text((72, y), line, fontsize=10, fontname="helv")
        y += 13
    page.insert_text((72, y + 8), "I acknowledge that:", fontsize=10, fontname="helv")
    y += 30
    page.insert_text((90, y), "(1) this is not a claim for benefits,", fontsize=10, fontname="hebo")
    y += 20
    page.insert_text(
        (90, y), "(2) I must file an application for each benefit with the", fontsize=10
    )
    page.insert_text((90, y + 13), "department before it will process my claim; and", fontsize=10)
    y += 20
    for _ in range(6):
        for line in _BODY:
            y += 13
            page.insert_text((72, y), line, fontsize=10, fontname="helv")
        y += 8


def test_a_numbered_item_that_ends_with_a_comma_is_no_heading(tmp_path: Path) -> None:
    markdown = drawn_markdown(tmp_path, _acknowledgements, width=612)
    assert HEADING.findall(markdown) == []
    assert "(1) this is not a claim for benefits," in markdown


def _carried_on(page: pymupdf.Page) -> None:
    """Two columns of text whose OCR set one line a size larger: a line that carries on a
    sentence (it starts in lower case) standing apart from the lines around it."""
    y = 80.0
    lines = [
        "The INSERT/COPY function allows you to move bars",
        "from one location to another in the same sequence or a",
        "different one. For example, you might insert a copy of the",
        "first verse between the second chorus and the bridge.",
    ]
    for _ in range(4):
        for i, line in enumerate(lines):
            page.insert_text((72, y), line, fontsize=12.5 if i == 1 else 10, fontname="tiro")
            y += 16 if i <= 1 else 13
        y += 10


def test_a_larger_line_that_starts_in_lower_case_is_no_heading(tmp_path: Path) -> None:
    markdown = drawn_markdown(tmp_path, _carried_on, width=612)
    assert HEADING.findall(markdown) == []


_TEXT = (
    "Represents arrests reported (not charged) by agencies with a total population",
    "as estimated by the bureau. Some persons may be arrested more than once a year.",
)


def _paragraphs(page: pymupdf.Page, y: float) -> None:
    """Eight paragraphs of ``_TEXT`` in 9 pt from ``y`` down."""
    for _ in range(8):
        for line in _TEXT:
            page.insert_text((72, y), line, fontsize=9, fontname="helv")
            y += 12
        y += 6


def _one_page_with_footer(page: pymupdf.Page) -> None:
    """A one-page document (no other page repeats its footer): a bold title, text, and at the
    page's foot a larger bold folio line with a smaller line under it at the right."""
    page.insert_text((72, 70), "Arrests by Sex and Age", fontsize=14, fontname="hebo")
    _paragraphs(page, 100.0)
    page.insert_text(
        (72, 800), "206 Law Enforcement, Courts, and Prisons", fontsize=12, fontname="hebo"
    )
    page.insert_text((300, 812), "Statistical Abstract of the United States: 2012", fontsize=9.5)


def test_a_one_page_documents_footer_at_the_foot_is_no_heading(tmp_path: Path) -> None:
    markdown = drawn_markdown(tmp_path, _one_page_with_footer, width=612)
    assert HEADING.findall(markdown) == ["Arrests by Sex and Age"]
    assert "206 Law Enforcement, Courts, and Prisons" in markdown


def _marked(page: pymupdf.Page) -> None:
    """A page marked at its top and its foot with the same bold line, a section title and
    text between."""
    for y in (40, 815):
        page.insert_text((250, y), "CUI (when filled in)", fontsize=12, fontname="hebo")
    page.insert_text((72, 90), "PRIVACY ACT STATEMENT", fontsize=10, fontname="hebo")
    _paragraphs(page, 110.0)


def test_a_marking_printed_at_the_top_and_the_foot_of_a_page_is_no_heading(tmp_path: Path) -> None:
    markdown = drawn_markdown(tmp_path, _marked, width=612)
    assert HEADING.findall(markdown) == ["PRIVACY ACT STATEMENT"]


_FEATURES = (
    ("0 Simple, easy to learn operation: the 32 character LCD display clearly guides you through",
     "HELP screens and additional explanations."),
    ("0 Two FOOTSWITCH INPUTS may be assigned to remotely control many of the functions used,",
     "ERASE, REPEAT, PLAY/STOP, or LOCATE."),
)  # fmt: skip


def _ocr_bullets(page: pymupdf.Page) -> None:
    """A scanned sheet's OCR text layer (sandwich.pdf, split ``extra2``): bullets read as
    ``0``, each item's second line hung under its text past the bullet; above them a
    paragraph whose first line is indented as far, after one that ran to the edge."""
    y = 80.0
    for line, x in ((_TEXT[0], 80.0), (_TEXT[1], 72.0), (_TEXT[0], 80.0), (_TEXT[1], 72.0)):
        page.insert_text((x, y), line, fontsize=9, fontname="tiro")
        y += 11
    hang = 72 + pymupdf.get_text_length("0 ", fontname="tiro", fontsize=9)
    for first, second in _FEATURES:
        page.insert_text((72, y + 6), first, fontsize=9, fontname="tiro")
        page.insert_text((hang, y + 17), second, fontsize=9, fontname="tiro")
        y += 24


def test_an_items_line_hung_under_its_text_past_a_one_glyph_bullet_goes_on_with_it(
    tmp_path: Path,
) -> None:
    blocks = drawn_markdown(tmp_path, _ocr_bullets, width=612).split("\n\n")
    for first, second in _FEATURES:
        assert f"{first} {second}" in blocks
    assert f"{_TEXT[0]} {_TEXT[1]}" in blocks  # an indented first line still opens a paragraph


_LEFT_COLUMN = (
    "To erase a wrong note, simply hold ERASE and press",
    "the note to be erased just before it plays in the",
    "sequence: when played back, it will be gone.",
)
_RIGHT_COLUMN = (
    "The INSERT/COPY function allows you to move bars",
    "from one location to another in the same sequence",
    "or a different one, as the song needs it.",
)


def _head_under_columns(page: pymupdf.Page) -> None:
    """Two columns of text, under them a bold side head at the left closer to the full-width
    items it heads than to the columns' ends (sandwich.pdf's 'Additional Features')."""
    y = 80.0
    for left, right in zip(_LEFT_COLUMN, _RIGHT_COLUMN, strict=True):
        page.insert_text((72, y), left, fontsize=9, fontname="tiro")
        page.insert_text((310, y), right, fontsize=9, fontname="tiro")
        y += 14
    y += 11
    page.insert_text((72, y), "Additional Features", fontsize=10, fontname="tibo")
    for first, second in _FEATURES:
        page.insert_text((72, y + 15), first, fontsize=9, fontname="tiro")
        page.insert_text((78, y + 29), second, fontsize=9, fontname="tiro")
        y += 28


def test_a_side_head_under_two_columns_heads_the_full_width_text_under_it(
    tmp_path: Path,
) -> None:
    markdown = drawn_markdown(tmp_path, _head_under_columns, width=612)
    read = [
        markdown.index(text)
        for text in (_LEFT_COLUMN[-1], _RIGHT_COLUMN[0], _RIGHT_COLUMN[-1], "Additional Features")
    ]
    assert read == sorted(read) and read[-1] < markdown.index(_FEATURES[0][0])
