"""The paragraph rules of the PDF text pass (extractors/pdf/text/blocks.py, flow.py) on small
generated pages: each test is one guard of a rule that joins lines into one paragraph or parts
them (a reference's hanging indent, a line of scripts, the next item's label, a column's last
paragraph past a picture's labels), seen to go wrong on a real page without it."""

from __future__ import annotations

import pymupdf
import pytest
from docread.extractors.pdf.text import blocks
from docread.extractors.pdf.text.lines import Line
from factories import drawn_markdown


def _justified(page: pymupdf.Page, x: float, y: float, text: str, right: float = 432) -> None:
    """A line set justified from ``x`` to ``right`` (its words spread), 10 pt Helvetica."""
    words = text.split()
    room = right - x - sum(pymupdf.get_text_length(w, "helv", 10) for w in words)
    at = x
    for word in words:
        page.insert_text((at, y), word, fontname="helv", fontsize=10)
        at += pymupdf.get_text_length(word, "helv", 10) + room / max(len(words) - 1, 1)


def test_a_columns_widest_line_is_found_once_not_per_numbered_line(tmp_path, monkeypatch):
    """A column of many numbered lines: the edge its text runs to (the widest of ``reach``) is
    taken once for the column, not again for each numbered line (a pass over every x per line)."""
    calls = []

    def counted(*args, **kwargs):
        calls.append(len(args) == 1 and type(args[0]).__name__ == "dict_values")
        return max(*args, **kwargs)

    monkeypatch.setattr(blocks, "max", counted, raising=False)

    def draw(page: pymupdf.Page) -> None:
        for i in range(40):
            page.insert_text((72, 60 + 14 * i), f"{i + 1}. Item number {i + 1} of the list.", fontsize=10)

    text = drawn_markdown(tmp_path, draw)
    assert "40. Item number 40 of the list." in text
    assert 1 <= sum(calls) <= 2


def test_a_listings_small_line_numbers_keep_its_lines_apart(tmp_path):
    """A code listing with its line numbers set at 6 pt beside 10 pt code (elteikthesis p14):
    a line that is mostly its number (``4 {``) is no line of scripts going on with the one
    above, so ``int main ()`` and ``{`` stay lines of their own."""

    def draw(page: pymupdf.Page) -> None:
        code = ["#include <stdio.h>", "", "int main ()", "{", "  int c;", "  return 0;", "}"]
        for i, line in enumerate(code):
            page.insert_text((88, 100 + 17 * i), str(i + 1), fontname="cour", fontsize=6)
            if line:
                page.insert_text((100, 100 + 17 * i), line, fontname="cour", fontsize=10)

    text = drawn_markdown(tmp_path, draw)
    assert "int main () 4" not in text and "return 0; 7" not in text
    assert "int main ()" in text and "return 0;" in text


def _line(x0: float, y0: float, text: str, size: float, height: float) -> Line:
    """A Line of ``text`` from ``x0`` (its right edge from its length), in Times."""
    return Line(x0, y0, x0 + 0.5 * size * len(text), y0 + height, text, size, family="Times")


@pytest.mark.parametrize(
    ("x0", "text", "family", "joined"),
    [
        (72, "Pselected(i).", "Times", True),  # the DPR paper's p7: its paragraph's last line
        (136, "Hint = 0.", "Times", False),  # elstest-3pd p3: the left column's, under the right's
        (100, "Pselected(i).", "Times", False),  # set in 2.8 ems: a display
        (72, "6 return 0;", "Times", False),  # a listing's line number leads (elteikthesis p14)
        (72, "Cannister shot is a tin cylinder with brave it out. Their sacrifices and", "Times",
         False),  # Seige of Vicksburg p3 (OCR): a caption's row and the body's, going on
        (72, "Pselected(i).", "GlyphLessFont", False),  # an OCR layer's boxes: one height
    ],
)  # fmt: skip
def test_a_line_of_scripts_goes_on_only_as_its_paragraphs_last_line(x0, text, family, joined):
    """``_scripted``: an 8 pt line in a box as tall as the 11 pt line above ends that paragraph
    only where it opens at the block's left (``start``), no line number leads it and it ends a
    sentence, not in an OCR layer: not a formula of the left column under a heading of the right
    one (x 309), nor a display set in, nor a listing's line, nor a row an OCR layer merged."""
    prev = _line(309 if x0 == 136 else 72, 100, "We write the score of the passage as", 11, 12)
    prev = Line(prev.x0, prev.y0, prev.x1, prev.y1, prev.text, prev.size, family=family)
    ln = _line(x0, 114, text, 8, 12)
    ln = Line(ln.x0, ln.y0, ln.x1, ln.y1, ln.text, ln.size, family=family)
    assert blocks._scripted(prev, ln, prev.x0) is joined


def test_a_lead_ins_clauses_set_in_under_it_are_no_wrap_of_it(tmp_path):
    """A contract's lead-in fills its line ending no sentence (``... as of this date, it``) and
    its clauses are set in a little under it, the first running to the edge: ``(a) is duly
    organised ...`` opens a clause of its own, no hanging indent's wrap of the lead-in."""

    def draw(page: pymupdf.Page) -> None:
        _justified(page, 72, 80, "Each party represents and warrants to the other party that, as of this date, it")
        _justified(page, 84, 94, "(a) is duly organised and validly existing under the laws of its place of")
        page.insert_text((84, 108), "incorporation and has full power to enter into this agreement;", fontsize=10)
        page.insert_text((84, 122), "(b) has obtained every consent that it needs; and", fontsize=10)
        page.insert_text((84, 136), "(c) is not insolvent.", fontsize=10)

    blocks = drawn_markdown(tmp_path, draw).split("\n\n")
    assert any(b.startswith("(a) is duly organised") for b in blocks), blocks
    assert any(b.endswith("as of this date, it") for b in blocks), blocks


