"""Rows of a line and its value set far right on the line's baseline (a receipt's amounts, an
exam's marks: issue 33's fifteenth round, the jnuexam answer keys of bench/real_pdf.py's
``extra13``): read row by row, not cut off as a column read after the columns below them
(extractors/pdf/text/values.py, read by order.py); a dot leader and its marks go on with their line
(text/relations.py ``leads``). The negatives are the layouts a careless rule breaks: two
columns whose lines share baselines, a column's numbered equation, an index, a contents page."""

from __future__ import annotations

from dataclasses import dataclass

import pymupdf
from docread.extractors.pdf.text.lines import Line
from docread.extractors.pdf.text.relations import leads
from docread.extractors.pdf.text.values import value_segments
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


def test_a_bills_margin_line_numbers_stay_out_of_its_paragraphs(tmp_path):
    """immigration-bill p9's geometry (a UK bill): line numbers 5, 10, 15 ... in italics in
    the right margin, every fifth line, one beside a side head: they are no row's values (a
    column of line numbers refuses the rows), and the item's paragraph is not broken at "5"."""

    body = (
        (178, "of banning or excluding an individual from entering"),
        (178, "the United Kingdom, either temporarily"),
        (201, "The preceding provision applies only to those"),
        (201, "administrative measures and policies which"),
        (201, "the specific individual banned or excluded, and"),
        (201, "not apply to administrative measures or"),
        (201, "or non-specific bans or exclusions"),
    )

    def draw(page: pymupdf.Page) -> None:
        page.insert_text((95, 69), "Commonwealth (Designated Realms) Bill", fontsize=9.8)
        page.insert_text((497, 69), "7", fontsize=11.7)
        for i, (x, text) in enumerate(body):
            page.insert_text((x, 105 + 18 * i), text, fontsize=11.7)
        page.insert_text((174, 149), "(i)", fontsize=11.7)
        page.insert_text((92, 259), "8", fontsize=11.7)
        page.insert_text((125, 259), "Disapplication", fontsize=11.7)
        for i in range(8):
            if i % 3 == 0:
                page.insert_text((110, 295 + 18 * i), f"({i // 3 + 1})", fontsize=11.7)
            line = f"Where a citizen of a designated Realm {i} committed"
            page.insert_text((139, 295 + 18 * i), line, fontsize=11.7)
        for n, y in zip(range(5, 40, 5), (177, 261, 345, 429, 512, 596, 679), strict=True):
            page.insert_text((537, y), str(n), fontsize=9.8)

    text = drawn_markdown(tmp_path, draw)
    assert "banned or excluded, and not apply to administrative measures or" in text
    assert "5 not apply" not in text


@dataclass
class _Box:
    """A line's box and text, as order.py hands pieces to text/values.py."""

    x0: float
    y0: float
    x1: float
    y1: float
    text: str


def test_a_running_heads_page_number_alone_at_the_top_is_no_row_of_a_value():
    """microtype-DE p165's kind: a running head with its page number flush right, the region's
    top band, over lines with no value: no rows (reading it apart re-cut the listing under
    it): a bare number reads as no value (values.VALUE), while an amount does."""

    def chars(p: _Box) -> int:
        return len(p.text.strip())

    head = [_Box(145, 90, 338, 98, "CONFIGURATION FILES: Character protrusion")]
    head.append(_Box(486, 90, 498, 98, "165"))
    body = [
        [_Box(170, 120 + 12 * i, 400, 128 + 12 * i, f"Body line {i} of the page")] for i in range(3)
    ]
    assert value_segments([head, *body], chars, (145, 498), lambda rest: False) is None
    item = [_Box(145, 60, 300, 68, "Hinges, brass, pair"), _Box(480, 60, 498, 68, "4.50")]
    segments = value_segments([item, *body], chars, (145, 498), lambda rest: False)
    assert segments is not None and segments[0] == (item, True)


def test_an_ellipsis_in_prose_is_no_leader_ending_its_line(tmp_path):
    """abntex2cite-alf p10's kind: a quotation's ellipsis ". . ." set apart from the words
    after it on the line: the words run on into the next line as one paragraph (a leader ends
    its line's block only before a short value: a page number, marks)."""

    def draw(page: pymupdf.Page) -> None:
        page.insert_text((72, 100), "A producao de livros . . .", fontsize=10)
        page.insert_text((210, 100), "em 1928 segundo o autor (MUM-", fontsize=10)
        page.insert_text(
            (72, 114), "FORD 1928) e depois em outras obras do mesmo autor.", fontsize=10
        )

    blocks = drawn_markdown(tmp_path, draw).split("\n\n")
    assert any("(MUM- FORD 1928)" in b or "(MUMFORD 1928)" in b for b in blocks)


def test_a_leader_reads_on_to_its_value_across_a_contents_row_not_an_index_column():
    """A contents line's leader and its page across the text (35 ems of a 10 pt row) go on
    as one printed line; an index column's entry, its leader and its pages (about 15 ems of
    an 8 pt row: thubeamer p17, njustthesis p18, milog p19, three columns) are left as main
    reads them: read as one line there, the entries split and a lone macro name was fenced."""
    title = Line(72, 100, 420, 110, "2.1 The beginning of the Chapter II text . . . . . .", 10)
    page = Line(424, 100, 432, 110, "4", 10)
    assert leads(title, page)
    entry = Line(72, 100, 170, 108, "\\titlerule . . . . . . .", 8)
    pages = Line(174, 100, 190, 108, "255", 8)
    assert not leads(entry, pages)


def test_superscripts_flush_right_do_not_crash_the_read(tmp_path):
    """A units table's exponent set as a piece of its own at the right edge ("²": a digit to
    ``str.isdigit``, none to ``int``): the page is read, not failed by a ValueError."""

    def draw(page: pymupdf.Page) -> None:
        for i in range(4):
            line = f"Floor area of room {i} in square metres"
            page.insert_text((72, 100 + 14 * i), line, fontsize=10)
            page.insert_text((480, 100 + 14 * i), "²", fontsize=10)

    text = drawn_markdown(tmp_path, draw)
    assert "Floor area of room 3 in square metres" in text


def _right(page: pymupdf.Page, y: float, text: str, size: float = 10) -> None:
    """``text`` set flush right against x = 520 on baseline ``y``."""
    page.insert_text((520 - pymupdf.get_text_length(text, fontsize=size), y), text, fontsize=size)


def test_an_exams_marks_end_their_questions_paragraph_over_an_indented_line(tmp_path):
    """Review rows_early G1: each question with its marks flush right, an indented instruction
    under it: the marks end the question's paragraph, none opens the instruction's."""

    questions = (
        ("1. State Newton's second law and give its SI units.", "(3 marks)"),
        ("2. A car accelerates from rest to 20 m/s in 8 s. Find its acceleration.", "(4 marks)"),
    )

    def draw(page: pymupdf.Page) -> None:
        for i, (question, marks) in enumerate(questions):
            page.insert_text((72, 110 + 54 * i), question, fontsize=10)
            _right(page, 110 + 54 * i, marks)
            page.insert_text((90, 124 + 54 * i), "Show your working below.", fontsize=10)

    paragraphs = drawn_markdown(tmp_path, draw).split("\n\n")
    for question, marks in questions:
        assert f"{question} {marks}" in paragraphs
    assert not any(p.startswith("(") for p in paragraphs)


def test_a_contents_pages_bare_page_numbers_open_no_next_entry(tmp_path):
    """Review rows_early G2: entry numbers, titles and bare page numbers flush right (no
    leader): a bare number is no row's value, so no page number is glued to the next entry."""

    entries = (
        ("1", "Introduction", "1"), ("1.1", "Background and motivation of the study", "3"),
        ("1.2", "A rather long section title that wraps onto a second line because it is", ""),
        ("", "far too long to fit", "7"), ("2", "Methods", "12"), ("2.1", "Data", "13"),
    )  # fmt: skip

    def draw(page: pymupdf.Page) -> None:
        page.insert_text((72, 80), "Contents", fontsize=16)
        for i, (number, title, at) in enumerate(entries):
            page.insert_text((72, 110 + 16 * i), number, fontsize=10)
            page.insert_text((110, 110 + 16 * i), title, fontsize=10)
            _right(page, 110 + 16 * i, at)
        page.insert_text((72, 760), "Thesis, University of Somewhere", fontsize=10)
        _right(page, 760, "iii")

    text = drawn_markdown(tmp_path, draw)
    assert "7 2" not in text and "12 2.1" not in text and "1 1.1" not in text


def test_margin_dates_beside_a_justified_paragraph_stay_out_of_it(tmp_path):
    """Review rows_early R1's kind (dfgproposal p2's margin keys): dates in the right margin,
    right of where the paragraph's full lines end, beside three of its lines: no row's values,
    the paragraph reads whole."""

    line = "The committee revised the draft proposal and sent it back to all of its"

    def draw(page: pymupdf.Page) -> None:
        for i in range(6):
            page.insert_text((72, 100 + 13 * i), line, fontsize=10)
        for i, date in enumerate(("03.02.2021", "17.05.2021", "09.11.2021")):
            _right(page, 100 + 13 * (i + 1), date, 8)

    text = drawn_markdown(tmp_path, draw)
    assert " ".join([line] * 6) in text


def test_a_right_columns_price_list_beside_prose_keeps_the_columns(tmp_path):
    """Two columns on shared baselines, the right one a price list (a dish, its price flush
    right): a gutter runs between the prose and the dishes (``split``), so no rows across
    them, and no table either (``tables.rows.running_text``: the left column's cells read on as
    a paragraph): the prose reads first, then the dishes."""

    def draw(page: pymupdf.Page) -> None:
        for i, line in enumerate(_PARAGRAPH):
            page.insert_text((72, 100 + 14 * i), line)
            page.insert_text((300, 100 + 14 * i), f"Dish {i}", fontsize=10)
            _right(page, 100 + 14 * i, f"{i + 4}.50")

    text = drawn_markdown(tmp_path, draw)
    assert "|" not in text
    assert text.index(_PARAGRAPH[-1]) < text.index("Dish 0")


_PARAGRAPH = (  # a paragraph's lines, each wrapped where the column ends
    "The committee met on Tuesday to review",
    "the proposal for the new community",
    "garden and agreed that the plots",
    "should be shared among the families",
    "who applied first, with a waiting list",
    "kept for the rest of the season and a",
)


def test_a_price_beside_a_columns_last_line_leaves_that_line_in_its_column(tmp_path):
    """A left column's last line with a price flush right of it, under lines of both columns
    with no value (``plain``: a line above starts where it does and runs as far): the left
    column reads whole, no row split off from it."""

    def draw(page: pymupdf.Page) -> None:
        for i in range(5):
            page.insert_text((72, 100 + 14 * i), f"Left column prose line {i} more", fontsize=10)
            page.insert_text((300, 100 + 14 * i), "right column text that runs wide", fontsize=10)
        page.insert_text((72, 170), "Left column prose line 5 more", fontsize=10)
        _right(page, 170, "12.50")

    text = drawn_markdown(tmp_path, draw)
    assert "line 4 more Left column prose line 5 more" in text



def test_a_leader_closing_a_contents_entry_reads_on_to_no_entry_of_the_next_column():
    """cquthesis p2's and buctthesis p1's kind: a two-column contents page, an entry of the
    left column ending in its leader (its page number cut off further right) on the row of an
    entry of the right column: a leader goes on only to a short value, no entry of its own."""
    left = Line(72, 100, 260, 110, "3.11 提问和新功能需求 . . . . . . .", 10)
    right = Line(300, 100, 520, 110, "5.15 载入配置文件. . . . . . . . . .", 10)
    assert not leads(left, right)
    assert leads(left, Line(500, 100, 520, 110, "17", 10))
