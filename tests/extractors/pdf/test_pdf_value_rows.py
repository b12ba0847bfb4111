"""Rows of a line and its value set far right on the line's baseline (a receipt's amounts, an
exam's marks: issue 33's fifteenth round, the jnuexam answer keys of bench/real_pdf.py's
``extra13``): read row by row, not cut off as a column read after the columns below them
(extractors/pdf/text/values.py, read by order.py); a dot leader and its marks go on with their line
(text/relations.py ``leads``). The negatives are the layouts a careless rule breaks: two
columns whose lines share baselines, a column's numbered equation, an index, a contents page."""

from __future__ import annotations

import pymupdf
from factories import drawn_markdown

_ITEMS = (
    ("Hinges, brass, pair of two, satin finish", "4.50"),
    ("Screws, wood, 4 x 40 mm, box of 200", "9.80"),
    ("Delivery to the door, Leeds area", "6.00"),
)


def _two_columns(page: pymupdf.Page, top: float, lines: int = 4) -> None:
    """A block of two columns of short lines from ``top``, the lines of both on one baseline."""
    for i in range(lines):
        page.insert_text((72, top + 14 * i), f"Store {i} address line", fontsize=9)
        page.insert_text((320, top + 14 * i), f"Returns policy line {i}", fontsize=9)


def test_a_receipts_amounts_are_read_with_their_items_above_two_columns(tmp_path):
    """A receipt's item lines with their amounts right-aligned on their baselines, over a block
    of two columns: each amount comes right after its item, not after the right column."""

    def draw(page: pymupdf.Page) -> None:
        for i, (item, amount) in enumerate(_ITEMS):
            page.insert_text((72, 100 + 14 * i), item, fontsize=10)
            page.insert_text((480, 100 + 14 * i), amount, fontsize=10)
        page.insert_text((72, 142), "Paid by card", fontsize=10)
        _two_columns(page, 180)

    text = drawn_markdown(tmp_path, draw)
    order = [text.index(s) for row in _ITEMS for s in row]
    assert order == sorted(order)
    assert text.index("6.00") < text.index("Paid by card") < text.index("Store 0")
    assert text.index("Store 3") < text.index("Returns policy line 0")  # still two columns
    assert "4.50 Screws" not in text  # an amount opens no paragraph of the next item


def test_an_exams_marks_after_a_dot_leader_stay_on_their_lines_row(tmp_path):
    """exam-a p5's kind: solution lines, each with a dot leader and its marks flush right on
    its baseline, a binding margin's characters at the left: each line with its marks is one
    paragraph, in order, the margin's characters after them."""

    rows = (
        ("Solution. E = np = 100 x 0.2 = 20, D = npq = 16.", "......2"),
        ("(1) P(10 < x < 30) >= 1 - 16/100 = 0.84.", "......4"),
        ("(2) by the central limit theorem P = 0.9876", "......6"),
    )

    def draw(page: pymupdf.Page) -> None:
        for i, (line, marks) in enumerate(rows):
            page.insert_text((90, 100 + 14 * i), line, fontsize=10)
            page.insert_text((470, 100 + 14 * i), marks, fontsize=10)
        for i, mark in enumerate("ABC"):
            page.insert_text((40, 80 + 90 * i), mark, fontsize=10)
        _two_columns(page, 180)

    blocks = drawn_markdown(tmp_path, draw).split("\n\n")
    for line, marks in rows:
        assert f"{line} {marks}" in blocks


def test_two_columns_sharing_baselines_keep_their_columns_under_a_short_line(tmp_path):
    """Two columns of prose whose lines share baselines, the right one's short closing line
    flush right beside a left line (a paragraph's last word or two): no row of a value, the
    columns read one after the other."""

    left = "Left column prose line {} goes on"
    right = "Right column prose {} goes on"

    def draw(page: pymupdf.Page) -> None:
        for i in range(6):
            page.insert_text((72, 100 + 14 * i), left.format(i), fontsize=10)
            page.insert_text((320, 100 + 14 * i), right.format(i), fontsize=10)
        page.insert_text((72, 184), left.format(6), fontsize=10)
        page.insert_text((420, 184), "the end.", fontsize=10)
        page.insert_text((72, 198), left.format(7), fontsize=10)
        page.insert_text((320, 198), right.format(7), fontsize=10)

    text = drawn_markdown(tmp_path, draw)
    assert text.index(left.format(7)) < text.index(right.format(0))


def test_a_right_columns_equation_number_beside_a_left_line_keeps_the_columns(tmp_path):
    """A two-column page whose right column holds a display equation and its number at the
    column's right edge, on the baseline of a left column's line: the gutter runs on above and
    below, so the band is no row of a value and the left column reads whole first."""

    left = "Left column prose line {} goes on"

    def draw(page: pymupdf.Page) -> None:
        for i in range(7):
            page.insert_text((72, 100 + 14 * i), left.format(i), fontsize=10)
        for i in (0, 1, 2, 4, 5, 6):
            page.insert_text((320, 100 + 14 * i), f"Right column prose {i} goes on", fontsize=10)
        page.insert_text((380, 142), "x = y + z", fontsize=10)
        page.insert_text((520, 142), "(3)", fontsize=10)

    text = drawn_markdown(tmp_path, draw)
    assert text.index(left.format(6)) < text.index("Right column prose 0")
    assert (
        text.index("Right column prose 2") < text.index("(3)") < text.index("Right column prose 4")
    )


def test_a_long_note_beside_a_key_runs_on_into_the_description_under_it(tmp_path):
    """langsci-avm p5's kind: a key with its default set far right on its row, "(initially
    \\itshape)", its description on the lines under it: the note is no row's short value, so
    the description runs on after it as on main (only a short value, ten characters at most,
    breaks before the next row's line)."""

    def draw(page: pymupdf.Page) -> None:
        page.insert_text((72, 100), "\\avmvalfont", fontsize=10)
        page.insert_text((420, 100), "(initially \\itshape)", fontsize=10)
        page.insert_text(
            (72, 114), "The font for values, i.e. the second column of each", fontsize=10
        )
        page.insert_text((72, 128), "structure, set in italics unless changed.", fontsize=10)

    text = drawn_markdown(tmp_path, draw)
    assert "(initially \\itshape) The font for values" in text
