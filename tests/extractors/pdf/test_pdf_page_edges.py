"""PDF structure (``pdf.structure: auto``) at a page's edges, kinds the real pages of
bench/pdf_truth/ show (its ``extra`` and ``extra3`` splits): a table's header row repeated at
the top of each page it runs over, printed where running headers live."""

from __future__ import annotations

import docread
import pymupdf
from factories import drawn, pdf, pipe_rows

HEADS = ("first", "second", "third")


def _sheet(page: pymupdf.Page, start: int) -> None:
    """A spreadsheet's page as LibreOffice exports it: the heads set left in their cells at the
    page's top, numbers set right under them, no rules."""
    for col, head in enumerate(HEADS):
        page.insert_text((51 + 80 * col, 66), head, fontsize=12)
    for row in range(6):
        for col in range(3):
            text = str(start + row * 3 + col)
            width = pymupdf.get_text_length(text, fontsize=12)
            page.insert_text((130 + 80 * col - width, 82 + 16 * row), text, fontsize=12)


def test_a_header_row_repeated_atop_each_page_heads_its_table(tmp_path):
    """xlsx_01: a sheet's heads printed again at the top of the next page are the table's
    header row on each page, not a running header taken out of the flow."""
    pdf(tmp_path / "sheet.pdf", [drawn(lambda p: _sheet(p, 1)), drawn(lambda p: _sheet(p, 40))])
    config = {"cache": {"enabled": False}, "isolation": {"enabled": False}}
    with docread.Reader(tmp_path, config=config) as reader:
        pages = [
            d.text for d in reader.iter_documents("sheet.pdf") if "table_index" not in d.metadata
        ]
    assert [pipe_rows(text)[:2] for text in pages] == [
        [list(HEADS), ["1", "2", "3"]],
        [list(HEADS), ["40", "41", "42"]],
    ]
