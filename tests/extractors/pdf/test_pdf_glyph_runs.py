"""A statistical table set the way government yearbooks set it (the US Census Bureau's
Statistical Abstract, tabula-py's ``12s0324.pdf``): every glyph placed on its own, row labels
followed by dot leaders up to the first column of numbers, no rules between rows, and (in the
Abstract's font) a decimal point the font gives no width, so MuPDF makes up a space after it
(``11,062. 6``). Its rows are a table's rows, the leaders out of the label cells, the numbers
whole."""

from __future__ import annotations

import re
from pathlib import Path

import docread
import pymupdf

ROW = re.compile(r"^\|(.*)\|$", re.MULTILINE)
ROWS = [
    ("Violent crime", ["467.9", "69.1", "398.8"]),
    ("Robbery", ["102.1", "25.5", "76.6"]),
    ("Aggravated assault", ["338.4", "40.1", "298.3"]),
    ("Property crime", ["1,396.4", "338.7", "1,057.7"]),
    ("Burglary", ["240.9", "60.3", "180.6"]),
]


def _glyphs(page: pymupdf.Page, x: float, y: float, text: str) -> float:
    """``text`` placed one glyph at a time (its own positioning each); where it ends."""
    for char in text:
        page.insert_text((x, y), char, fontsize=6, fontname="helv")
        x += pymupdf.get_text_length(char, fontname="helv", fontsize=6)
    return x


def _right(page: pymupdf.Page, right: float, y: float, text: str) -> None:
    _glyphs(page, right - pymupdf.get_text_length(text, fontname="helv", fontsize=6), y, text)


def _rows(tmp_path: Path, *, pointless: bool = False) -> tuple[list[list[str]], str]:
    """The pipe-table rows docread reads on the page (``pointless``: its font's "." of no
    width) and the page's markdown."""
    doc = pymupdf.open()
    page = doc.new_page(width=420, height=660)
    page.insert_text((36, 40), "Table 324. Arrests by Sex and Age: 2009", fontsize=8)
    _glyphs(page, 60, 70, "Offense charged")
    for right, head in zip((163, 190, 218), ("Total", "Under 18", "18 and over"), strict=True):
        _right(page, right, 70, head)
    for i, (label, numbers) in enumerate(ROWS):
        y = 80 + 7 * i
        x = _glyphs(page, 36, y, label)
        while x < 130:  # leaders up to the first column: ". . . . ."
            x = _glyphs(page, x, y, " .")
        for right, number in zip((163, 190, 218), numbers, strict=True):
            _right(page, right, y, number)
    if pointless:
        font = pymupdf.Font("helv")
        widths = [
            0 if c == ord(".") else round(font.glyph_advance(c) * 1000) for c in range(32, 127)
        ]
        xref = page.get_fonts()[0][0]
        doc.xref_set_key(xref, "FirstChar", "32")
        doc.xref_set_key(xref, "LastChar", "126")
        doc.xref_set_key(xref, "Widths", f"[{' '.join(map(str, widths))}]")
    doc.save(tmp_path / "page.pdf")
    doc.close()
    config = {"cache": {"enabled": False}, "isolation": {"enabled": False}}
    with docread.Reader(tmp_path, config=config) as reader:
        text = reader.read("page.pdf").render()
    return [[c.strip() for c in m.group(1).split("|")] for m in ROW.finditer(text)], text


def test_glyph_placed_rows_with_leaders_are_a_table(tmp_path: Path) -> None:
    rows, text = _rows(tmp_path)
    for label, numbers in ROWS:
        assert [label, *numbers] in rows, text


def test_a_point_of_no_width_keeps_its_number_whole(tmp_path: Path) -> None:
    rows, text = _rows(tmp_path, pointless=True)
    with pymupdf.open(tmp_path / "page.pdf") as doc:  # MuPDF's own text spaces the point off
        assert "1,396. 4" in doc[0].get_text()
    assert ". 4" not in text and "1,396.4" in text, text
    for label, numbers in ROWS:
        assert [label, *numbers] in rows, text
