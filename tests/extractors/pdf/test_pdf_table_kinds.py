"""PDF tables (``pdf.structure: auto``) of the kinds real documents print and the engine missed:
a table of contents without dot leaders, a form's ``label: value`` fields with long values, a
two-level booktabs header over numbers set close together. The pages are generated here the
way a typesetter lays them out (the shared corpus holds these kinds only in the held-out half
of bench/pdf_truth/, which is not tuned on)."""

from __future__ import annotations

import re
import time
from collections.abc import Callable, Sequence
from pathlib import Path

import docread
import pymupdf
import pytest
from conftest import CORPUS
from docread.extractors.pdf.tables.banded import banded_tables
from docread.extractors.pdf.tables.cells import _fields
from docread.extractors.pdf.tables.cuts import column_cuts, walled_cuts
from docread.extractors.pdf.tables.ruled import _fills_joined
from docread.extractors.pdf.tables.unruled import unruled_runs
from docread.extractors.pdf.text.joins import _join_fragments
from docread.extractors.pdf.text.lines import Line
from docread.extractors.pdf.text.reading import read_page
from docread.settings import OutputSettings
from factories import drawn, drawn_markdown, pdf, pipe_rows

_DEJAVU = "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"  # a font with Greek letters in it


def _right(page: pymupdf.Page, right: float, y: float, text: str, font: str = "helv") -> None:
    width = pymupdf.get_text_length(text, fontname=font, fontsize=10.5)
    page.insert_text((right - width, y), text, fontsize=10.5, fontname=font)


def _contents(page: pymupdf.Page, numbers: list[int]) -> None:
    """A LaTeX-like table of contents: bold chapter lines, section numbers set apart from the
    titles, one title wrapped over two lines, page numbers right-aligned, no leaders."""
    page.insert_text((72, 90), "Inhaltsverzeichnis", fontsize=20, fontname="hebo")
    entries = [
        ("1", "Topologische Grundbegriffe und ihre ersten Eigenschaften", True),
        ("1.1", "Mengen, Abbildungen und die Sprache der Kategorien-|theorie im Überblick", False),
        ("1.2", "Metrische Räume", False),
        ("1.3", "Stetige Abbildungen zwischen topologischen Räumen", False),
        ("2", "Konstruktionen neuer Räume aus alten", True),
        ("2.1", "Teilräume, Produkte und Quotienten von Räumen", False),
        ("2.2", "Zusammenhang und Wegzusammenhang", False),
    ]
    y = 130.0
    for (num, title, chapter), number in zip(entries, numbers, strict=True):
        font, x = ("hebo", 72) if chapter else ("helv", 86)
        y += 10 if chapter else 0
        page.insert_text((x, y), num, fontsize=10.5, fontname=font)
        for i, part in enumerate(title.split("|")):
            y += 13 if i else 0
            page.insert_text((x + (18 if chapter else 26), y), part, fontsize=10.5, fontname=font)
        _right(page, 523, y, str(number), font)
        y += 15


def test_a_table_of_contents_without_leaders_is_a_table(tmp_path: Path) -> None:
    rows = pipe_rows(
        drawn_markdown(tmp_path, lambda page: _contents(page, [3, 3, 5, 12, 17, 17, 25]))
    )
    assert rows[0] == ["1 Topologische Grundbegriffe und ihre ersten Eigenschaften", "3"]
    assert ["1.2 Metrische Räume", "5"] in rows
    assert ["2 Konstruktionen neuer Räume aus alten", "17"] in rows
    wrapped = [r for r in rows if r[0].startswith("1.1 ")]
    assert wrapped and wrapped[0][0].endswith("im Überblick") and wrapped[0][1] == "3"
    assert len(rows) == 7


def test_numbers_at_the_right_that_go_down_are_not_a_table_of_contents(tmp_path: Path) -> None:
    text = drawn_markdown(tmp_path, lambda page: _contents(page, [31, 27, 25, 20, 12, 9, 3]))
    assert not pipe_rows(text)
    assert "Metrische Räume" in text


def _mixed_contents(page: pymupdf.Page) -> None:
    """A thesis's table of contents: bold chapter lines without leaders over section lines
    with dot leaders, one section's number printed apart from its leaders."""
    page.insert_text((72, 90), "Contents", fontsize=20, fontname="hebo")
    entries = [
        ("1", "Introduction", 1),
        ("1.1", "Motivation", 1),
        ("1.2", "Outline of the thesis", 3),
        ("2", "Background", 5),
        ("2.1", "Metric spaces", 5),
        ("2.2", "Topological spaces", 9),
        ("3", "Results", 15),
    ]
    y = 130.0
    for num, title, number in entries:
        chapter = "." not in num
        font, x = ("hebo", 72) if chapter else ("helv", 90)
        y += 8 if chapter else 0
        page.insert_text((x, y), f"{num}  {title}", fontsize=10.5, fontname=font)
        width = pymupdf.get_text_length(str(number), fontname=font, fontsize=10.5)
        if not chapter:
            end = 523 - width - (20 if num == "2.1" else 3)
            dot = x + pymupdf.get_text_length(f"{num}  {title}", fontsize=10.5) + 6
            while dot + 3 < end:
                page.insert_text((dot, y), ".", fontsize=10.5)
                dot += 5
        _right(page, 523, y, str(number), font)
        y += 15


def test_chapter_lines_without_leaders_join_their_sections_with_leaders(tmp_path: Path) -> None:
    rows = pipe_rows(drawn_markdown(tmp_path, _mixed_contents))
    assert [r[1] for r in rows] == ["1", "1", "3", "5", "5", "9", "15"]
    assert rows[0][0].endswith("Introduction") and rows[6][0].endswith("Results")
    assert rows[4][0].endswith("Metric spaces")


def _form(page: pymupdf.Page, colon: str) -> None:
    """A booking form: a section of ``label: value`` fields whose values run long, the labels
    in bold (and with a colon, or without one)."""
    page.insert_text((72, 72), "Show Details", fontsize=13, fontname="hebo")
    page.draw_line((72, 78), (540, 78), width=0.5)
    fields = [
        ("Movie", "The Grand Adventure Returns"),
        ("Theater", "Cineplex Downtown, Screen 7"),
        ("Showtime", "Saturday, March 16, 2024 at 7:30 PM"),
        ("Seats", "G12, G13, G14"),
    ]
    for i, (label, value) in enumerate(fields):
        page.insert_text((72, 96 + 16 * i), label + colon, fontsize=10, fontname="hebo")
        page.insert_text((140, 96 + 16 * i), value, fontsize=10)
    page.insert_text(
        (72, 190),
        "Please arrive 15 minutes before the showtime with this confirmation.",
        fontsize=10,
    )


@pytest.mark.parametrize("colon", [":", ""])
def test_label_value_fields_with_long_values_are_a_table(tmp_path: Path, colon: str) -> None:
    rows = pipe_rows(drawn_markdown(tmp_path, lambda page: _form(page, colon)))
    assert [f"Showtime{colon}", "Saturday, March 16, 2024 at 7:30 PM"] in rows
    assert [f"Movie{colon}", "The Grand Adventure Returns"] in rows
    assert len(rows) == 4


def _two_rows_of_fields(page: pymupdf.Page) -> None:
    """A receipt's header: two rows of two ``label: value`` fields side by side."""
    page.insert_text((72, 72), "Order Summary", fontsize=13, fontname="hebo")
    fields = [("Order:", "A-1029", "Date:", "2024-05-02"), ("Cashier:", "Maria", "Register:", "4")]
    for i, row in enumerate(fields):
        for x, text, font in zip((72, 130, 300, 360), row, ("hebo", "helv") * 2, strict=True):
            page.insert_text((x, 96 + 16 * i), text, fontsize=10, fontname=font)
    page.insert_text(
        (72, 150), "Thank you for shopping with us, we hope to see you again.", fontsize=10
    )


def test_two_rows_of_fields_side_by_side_are_a_table(tmp_path: Path) -> None:
    rows = pipe_rows(drawn_markdown(tmp_path, _two_rows_of_fields))
    assert rows == [
        ["Order:", "A-1029", "Date:", "2024-05-02"],
        ["Cashier:", "Maria", "Register:", "4"],
    ]


def _booktabs(page: pymupdf.Page) -> None:
    """A paper's booktabs table: a group header over sub-columns (a short rule under each
    group), the first column's head set between the two header rows, numbers close together."""
    cols = (170, 204, 244, 278)
    page.insert_text((110, 100), "Table 3: Accuracy of the models (%).", fontsize=9)
    page.draw_line((72, 112), (310, 112), width=0.8)
    page.insert_text((80, 130), "Model", fontsize=9)
    page.insert_text((178, 124), "Accuracy", fontsize=9)
    page.insert_text((252, 124), "Change", fontsize=9)
    page.draw_line((168, 127), (228, 127), width=0.4)
    page.draw_line((242, 127), (300, 127), width=0.4)
    for x, head in zip(cols, ("dev", "test", "dev", "test"), strict=True):
        page.insert_text((x, 137), head, fontsize=9)
    page.draw_line((72, 141), (310, 141), width=0.4)
    data = [
        ("Baseline", "71.2", "70.8", "0.0", "0.0"),
        ("No pretraining", "66.4", "65.1", "-4.8", "-5.7"),
        ("Full model", "75.9", "75.0", "+4.7", "+4.2"),
        ("Full + ensemble", "77.3", "76.6", "+6.1", "+5.8"),
    ]
    for i, (name, *values) in enumerate(data):
        page.insert_text((80, 153 + 12 * i), name, fontsize=9)
        for x, value in zip(cols, values, strict=True):
            page.insert_text((x, 153 + 12 * i), value, fontsize=9)
    page.draw_line((72, 195), (310, 195), width=0.8)


def test_a_two_level_booktabs_header_heads_its_table_and_numbers_stay_apart(
    tmp_path: Path,
) -> None:
    rows = pipe_rows(drawn_markdown(tmp_path, _booktabs))
    cells = [c for row in rows for c in row]
    for head in ("Model", "Accuracy", "Change"):
        assert cells.count(head) == 1
    assert cells.count("dev") == 2 and cells.count("test") == 2
    assert ["Baseline", "71.2", "70.8", "0.0", "0.0"] in rows
    assert ["No pretraining", "66.4", "65.1", "-4.8", "-5.7"] in rows


def _wrapped_heads(page: pymupdf.Page) -> None:
    """A table of numbers whose column heads are centred and wrapped over up to three lines
    (the first column's head set on the middle one)."""

    def centred(x: float, y: float, text: str, font: str = "tiro") -> None:
        width = pymupdf.get_text_length(text, fontname=font, fontsize=9)
        page.insert_text((x - width / 2, y), text, fontsize=9, fontname=font)

    page.insert_text(
        (72, 80), "Table 1. Effect of the training set size on each model.", fontsize=9
    )
    page.draw_line((72, 88), (400, 88), width=0.6)
    heads = [
        (110, ["Model"]),
        (190, ["Training", "images"]),
        (260, ["Mean average", "precision", "(mAP)"]),
        (340, ["Inference", "time (ms)"]),
    ]
    for x, parts in heads:
        for i, part in enumerate(parts):
            centred(x, 100 + 10 * i + 5 * (3 - len(parts)), part, "tibo")
    page.draw_line((72, 128), (400, 128), width=0.4)
    data = [
        ("Faster R-CNN", "5,000", "0.412", "85"),
        ("Mask R-CNN", "5,000", "0.437", "97"),
        ("YOLOv3", "10,000", "0.395", "-22"),
        ("DETR", "10,000", "0.451", "120"),
    ]
    for j, row in enumerate(data):
        for (x, _), value in zip(heads, row, strict=True):
            centred(x, 140 + 11 * j, value)
    page.draw_line((72, 182), (400, 182), width=0.6)


def test_column_heads_wrapped_over_lines_are_one_cell_each(tmp_path: Path) -> None:
    rows = pipe_rows(drawn_markdown(tmp_path, _wrapped_heads))
    assert rows[0] == [
        "Model",
        "Training images",
        "Mean average precision (mAP)",
        "Inference time (ms)",
    ]
    assert rows[1:] == [
        ["Faster R-CNN", "5,000", "0.412", "85"],
        ["Mask R-CNN", "5,000", "0.437", "97"],
        ["YOLOv3", "10,000", "0.395", "-22"],
        ["DETR", "10,000", "0.451", "120"],
    ]


def _hpo_table(page: pymupdf.Page) -> None:
    """A paper's booktabs table of experiment settings: heads centred over their columns, some
    wrapped over two lines (``#`` over ``enc-layers``, ``mAP`` over ``(0.75)``), the one-line
    heads set between them, numbers close together."""

    def centred(x: float, y: float, text: str) -> None:
        width = pymupdf.get_text_length(text, fontname="tiro", fontsize=9)
        page.insert_text((x - width / 2, y), text, fontsize=9, fontname="tiro")

    xs = (95, 150, 200, 250, 300, 360)
    page.insert_text((72, 80), "Table 2. Settings tried for the decoder.", fontsize=9)
    page.draw_line((60, 88), (400, 88), width=0.8)
    heads = [["#", "enc-layers"], ["#", "dec-layers"], ["Language"], ["TEDs"]]
    heads += [["mAP", "(0.75)"], ["Inference", "time (secs)"]]
    for x, parts in zip(xs, heads, strict=True):
        for i, part in enumerate(parts):
            centred(x, 100 + 11 * i + 5.5 * (2 - len(parts)), part)
    page.draw_line((60, 116), (400, 116), width=0.4)
    data = [
        ("6", "6", "HTML", "0.923", "0.861", "3.02"),
        ("4", "4", "HTML", "0.917", "0.858", "2.51"),
        ("2", "4", "OTSL", "0.930", "0.866", "1.64"),
        ("2", "2", "OTSL", "0.925", "0.863", "1.12"),
    ]
    for j, row in enumerate(data):
        for x, value in zip(xs, row, strict=True):
            centred(x, 128 + 11 * j, value)
    page.draw_line((60, 168), (400, 168), width=0.8)


def test_a_header_wrapped_over_two_lines_heads_its_table(tmp_path: Path) -> None:
    """A booktabs table whose header cells wrap (``#`` over ``enc-layers``, ``mAP`` over
    ``(0.75)``) beside heads of one line: both header lines head the table, each cell's lines
    in one cell (a generated page of the kind of a paper's HPO table)."""
    text = drawn_markdown(tmp_path, _hpo_table)
    header = next(line for line in text.splitlines() if "enc-layers" in line)
    assert header.startswith("| # enc-layers | # dec-layers | Language |")
    assert "| mAP (0.75) | Inference time (secs) |" in header


def _corpus_page(name: str, page: int) -> str:
    """A corpus PDF's page as docread reads it (a table's own units left out); skips when the
    corpus is absent."""
    if not (CORPUS / "pdf" / name).is_file():
        pytest.skip(f"corpus not present at {CORPUS}")
    config = {"cache": {"enabled": False}}
    with docread.Reader(CORPUS, config=config, shared_pool=True) as reader:
        docs = reader.iter_documents(f"pdf/{name}", pages=str(page))
        return "\n\n".join(d.text for d in docs if "table_index" not in d.metadata)


def test_a_column_of_x_marks_beside_long_labels_is_not_a_table_of_contents() -> None:
    """redp5110 p9: a matrix of "X" marks right-aligned beside long row labels stays the
    ruled table it is, its header row included ("X" is a mark, not page ten)."""
    text = _corpus_page("redp5110_sampled.pdf", 9)
    assert "| User action |" in text
    assert "| SET CURRENT DEGREE (SQL statement) | X |" not in text.split("| User action |")[0]


def _sheet(page: pymupdf.Page) -> None:
    """A spreadsheet printed without rules (LibreOffice's default): each head set left in its
    cell, the numbers under it set right, so a head starts left of its numbers and ends before
    them; the first rows high on the page, in the band where page numbers stand."""
    heads = [(52, 130, "first"), (132, 210, "second"), (212, 290, "third")]
    for x0, _, head in heads:
        page.insert_text((x0, 66), head, fontsize=12)
    for j in range(6):
        for (_, x1, _), value in zip(heads, (j + 1, 5 - j, 9 - 3 * j), strict=True):
            width = pymupdf.get_text_length(str(value), fontsize=12)
            page.insert_text((x1 - width, 82 + 15.7 * j), str(value), fontsize=12)


def test_heads_set_left_over_numbers_set_right_head_their_columns(tmp_path: Path) -> None:
    rows = pipe_rows(drawn_markdown(tmp_path, _sheet))
    assert rows == [
        ["first", "second", "third"],
        *[[str(j + 1), str(5 - j), str(9 - 3 * j)] for j in range(6)],
    ]


def _padded(page: pymupdf.Page) -> None:
    """A spreadsheet's accounting format: each row's numbers written as one run of text
    padded with spaces to their columns (right-aligned), the row label apart; the first
    row's numbers one text each, set where the padded ones fall."""
    page.insert_text((52, 200), "In millions", fontsize=7)
    heads = ["Sales", "Profit", "Costs"]
    data = [
        ("Zone NA", ("12,553", "2,713", "(81)")),
        ("Zone EUR", ("9,467", "1,570", "(197)")),
        ("Zone AOA", ("9,060", "2,068", "(83)")),
        ("Zone LATAM", ("6,082", "1,202", "(101)")),
        ("Total", ("46,293", "7,904", "(553)")),
    ]
    x, y = 170.0, 220.0
    padded = ["".join(v.rjust(18) for v in values) for _, values in data]
    for j, (label, values) in enumerate(data):
        page.insert_text((52, y + 11 * j), label, fontsize=7)
        if j == 0:  # one text per number, right edges where the padded rows put theirs
            for k, value in enumerate(values):
                right = x + pymupdf.get_text_length(padded[0][: 18 * (k + 1)], fontsize=7)
                left = right - pymupdf.get_text_length(value, fontsize=7)
                page.insert_text((left, y), value, fontsize=7)
        else:
            page.insert_text((x, y + 11 * j), padded[j], fontsize=7)
    for k, head in enumerate(heads):
        right = x + pymupdf.get_text_length(padded[0][: 18 * (k + 1)], fontsize=7)
        page.insert_text((right - pymupdf.get_text_length(head, fontsize=7), 210), head, fontsize=7)


def test_numbers_padded_with_spaces_in_one_text_are_cells_of_their_columns(
    tmp_path: Path,
) -> None:
    rows = pipe_rows(drawn_markdown(tmp_path, _padded))
    assert ["Zone AOA", "9,060", "2,068", "(83)"] in rows
    assert ["Zone NA", "12,553", "2,713", "(81)"] in rows
    assert ["Total", "46,293", "7,904", "(553)"] in rows


def _grid(
    page: pymupdf.Page, xs: list[float], ys: list[float], cells: dict[tuple[int, int], str]
) -> None:
    """A table drawn as a word processor draws it: each rule across the whole table, each
    rule down its whole height; text in the cells named (row, column)."""
    for y in ys:
        page.draw_line((xs[0], y), (xs[-1], y), width=0.5)
    for x in xs:
        page.draw_line((x, ys[0]), (x, ys[-1]), width=0.5)
    for (row, col), text in cells.items():
        page.insert_text((xs[col] + 4, ys[row] + 11), text, fontsize=9)


def _sparse(page: pymupdf.Page) -> None:
    """A grid whose far column holds one filled cell, empty cells between it and the others."""
    cells = {(r, c): f"Cell {r}.{c}" for r in range(2) for c in range(3)}
    cells[3, 4] = "Cell 3.4"
    _grid(page, [72, 160, 248, 336, 424, 512], [100 + 15 * i for i in range(5)], cells)


def test_a_drawn_grid_is_one_table_though_empty_cells_part_its_filled_ones(
    tmp_path: Path,
) -> None:
    markdown = drawn_markdown(tmp_path, _sparse)
    rows = pipe_rows(markdown)
    assert sum(ln.startswith("|---") for ln in markdown.splitlines()) == 1  # one table
    assert rows[0][:3] == ["Cell 0.0", "Cell 0.1", "Cell 0.2"]
    assert rows[-1][-1] == "Cell 3.4"


def _outer(page: pymupdf.Page) -> None:
    """A two-column table whose text stands in its first column only, a table nested in the
    second column of its middle row."""
    _grid(
        page,
        [72, 190, 500],
        [100, 130, 200, 240],
        {(0, 0): "This is a table", (2, 0): "It has things"},
    )
    _grid(page, [200, 300, 400], [140, 160, 180], {(0, 0): "Nested", (1, 1): "More nested"})


def test_a_drawn_table_with_text_in_one_column_is_a_table(tmp_path: Path) -> None:
    rows = pipe_rows(drawn_markdown(tmp_path, _outer))
    assert ["This is a table", ""] in rows and ["It has things", ""] in rows
    assert ["Nested", ""] in rows and ["", "More nested"] in rows


def _quiz(page: pymupdf.Page) -> None:
    """A spreadsheet's rows without rules: a code, a question of several words, an answer;
    one question wrapped over three lines, its code set on the last (cells aligned at the
    bottom), lines of one cell closer together than rows."""
    rows = [
        ("MC", ["What is 2+2?"], "4"),
        ("MA", ["Which C datatypes take up 8 bits? (assume i386)"], "int"),
        ("TF", ["Bagpipes are awesome."], "true"),
        (
            "ESS",
            [
                "How have the original Hornbostel buildings",
                "influenced campus architecture and",
                "design in the last 30 years?",
            ],
            "",
        ),
        ("ORD", ["Rank the following in their order of operation."], "Parentheses"),
        ("FIB", ["The student activities fee is"], "95"),
    ]
    y = 200.0
    for code, lines, answer in rows:
        for k, line in enumerate(lines):
            page.insert_text((123, y + 14 * k), line, fontsize=10)
        y += 14 * (len(lines) - 1)
        page.insert_text((59, y), code, fontsize=10)
        page.insert_text((375, y), answer, fontsize=10)
        y += 16


def test_a_row_of_short_cells_around_a_sentence_is_a_table_row(tmp_path: Path) -> None:
    rows = pipe_rows(drawn_markdown(tmp_path, _quiz))
    assert ["MA", "Which C datatypes take up 8 bits? (assume i386)", "int"] in rows
    assert [
        "ESS",
        "How have the original Hornbostel buildings influenced campus architecture and design"
        " in the last 30 years?",
        "",
    ] in rows
    assert ["FIB", "The student activities fee is", "95"] in rows


@pytest.mark.parametrize(("size", "kept"), [(10, True), (12, False)])
def test_a_rows_answer_set_in_a_fallback_font_keeps_the_row_in_its_table(
    tmp_path: Path, size: float, kept: bool
) -> None:
    """The quiz's last row answers with a Greek letter the spreadsheet's font lacks, printed in
    another font at the same size (LibreOffice's fallback: tests-example.xls): still a row of
    the table. A one-character cell of another size is another style (a symbol table's
    larger math sign beside code, l2kurz p53): no fallback, the row is not held."""

    def draw(page: pymupdf.Page) -> None:
        _quiz(page)
        page.insert_text((59, 324), "MAT", fontsize=10)
        page.insert_text((123, 324), "Match the lower-case greek letter with its capital form.",
                         fontsize=10)  # fmt: skip
        page.insert_text((375, 324), "λ", fontsize=size, fontname="F0", fontfile=_DEJAVU)

    rows = pipe_rows(drawn_markdown(tmp_path, draw))
    assert (
        ["MAT", "Match the lower-case greek letter with its capital form.", "λ"] in rows
    ) is kept


def _shaded(page: pymupdf.Page) -> None:
    """A financial table ruled across between rows, three of its number columns on one
    shaded band (a filled rectangle): the band's "cells" hold three numbers each."""
    rows = [
        ("Zone NA", "12,553", "2,713", "2,632", "(337)"),
        ("Zone EUR", "9,467", "1,570", "1,373", "(414)"),
        ("Zone AOA", "9,060", "2,068", "1,985", "(259)"),
        ("Total", "46,293", "7,904", "7,351", "(1,722)"),
    ]
    page.draw_rect(
        pymupdf.Rect(180, 200, 340, 200 + 14 * len(rows)), color=None, fill=(0.9, 0.9, 0.9)
    )
    for j, (label, *values) in enumerate(rows):
        y = 200 + 14 * j
        page.draw_line((72, y + 14), (420, y + 14), width=0.4)
        page.insert_text((74, y + 10), label, fontsize=8)
        for right, value in zip((230, 285, 335, 415), values, strict=True):
            _right(page, right, y + 10, value)


def test_a_shaded_band_over_several_columns_is_no_cell(tmp_path: Path) -> None:
    rows = pipe_rows(drawn_markdown(tmp_path, _shaded))
    assert ["Zone EUR", "9,467", "1,570", "1,373", "(414)"] in rows
    assert ["Total", "46,293", "7,904", "7,351", "(1,722)"] in rows


def _overflow(page: pymupdf.Page) -> None:
    """Numbers set right in three columns, one row's text cell running on over the next
    column's (empty) cell as one line: the columns stay apart."""
    rights = (110, 172, 234)
    for x0, head in zip((52, 114, 176), ("Alpha", "Beta", "Gamma"), strict=True):
        page.insert_text((x0, 200), head, fontsize=11, fontname="hebo")
    data = [("89", "82", "100"), ("76", "89", "33"), ("58 6ff4173b-4", "", "22"), ("49", "93", "6")]
    data += [("82", "28", "1"), ("95", "55", "18")]
    for j, row in enumerate(data):
        y = 215 + 15 * j
        if " " in row[0]:
            page.insert_text((rights[0] - 14, y), row[0], fontsize=11)
        for right, value in zip(rights, row, strict=True):
            if value and " " not in value:
                width = pymupdf.get_text_length(value, fontsize=11)
                page.insert_text((right - width, y), value, fontsize=11)


def test_a_cell_run_on_over_the_next_one_does_not_join_their_columns(tmp_path: Path) -> None:
    rows = pipe_rows(drawn_markdown(tmp_path, _overflow))
    assert rows[0] == ["Alpha", "Beta", "Gamma"]
    assert ["49", "93", "6"] in rows and ["95", "55", "18"] in rows


_COLUMN_TEXT = (
    "Regardless of the rights management choice, the author will",
    "receive a copy of the completed rights form once it has been",
    "submitted. This form contains commands that must be copied",
)


def _table_in_a_column(page: pymupdf.Page) -> None:
    """A two-column paper's page (ACM sigconf, split ``extra4``): running text down the left
    column, and at the top of the right one a small booktabs table (rules across only) whose
    rows sit between the left column's lines, then text under it."""
    for i in range(30):
        page.insert_text((54, 100 + 11 * i), _COLUMN_TEXT[i % 3], fontsize=9, fontname="tiro")
    rows = [
        ("Non-English or Math", "Frequency", "Comments"),
        ("Ø", "1 in 1,000", "For Swedish names"),
        ("%", "1 in 5", "Common in math"),
        ("$", "4 in 5", "Used in business"),
        ("#", "1 in 40,000", "Unexplained usage"),
    ]
    for rule in (104.0, 119.0, 175.0):
        page.draw_line((329, rule), (547, rule), width=0.6)
    for j, row in enumerate(rows):
        y = 115.0 + 13 * j + (4 if j else 0)
        for x, cell in zip((335, 423, 471), row, strict=True):
            page.insert_text((x, y), cell, fontsize=9, fontname="tiro")
    for i in range(20):
        page.insert_text((318, 200 + 11 * i), _COLUMN_TEXT[i % 3], fontsize=9, fontname="tiro")


def test_an_unruled_table_in_one_column_of_two_is_a_table(tmp_path: Path) -> None:
    rows = pipe_rows(drawn_markdown(tmp_path, _table_in_a_column, width=612))
    assert rows[:5] == [
        ["Non-English or Math", "Frequency", "Comments"],
        ["Ø", "1 in 1,000", "For Swedish names"],
        ["%", "1 in 5", "Common in math"],
        ["$", "4 in 5", "Used in business"],
        ["#", "1 in 40,000", "Unexplained usage"],
    ]


def _number_by_its_wall(page: pymupdf.Page) -> None:
    """A dblatex package table (debian-reference p33, split ``extra3``): a size column whose
    short numbers end a couple of ems before the drawn rule, the description just after it."""
    xs, ys = [72.0, 164.0, 230.6, 269.9, 520.0], [100.0 + 12 * i for i in range(4)]
    for y in ys:
        page.draw_line((xs[0], y), (xs[-1], y), width=0.5)
    for x in xs:
        page.draw_line((x, ys[0]), (x, ys[-1]), width=0.8)
    rows = [
        ("Paket", "Popcon", "Größe", "Beschreibung"),
        ("doc-debian", "I:853", "166", "Dokumentation des Debian-Projekts"),
        ("debian-faq", "I:850", "790", "Debian FAQ"),
    ]
    for r, row in enumerate(rows):
        for x, text in zip((78.0, 170.0, 236.8, 276.1), row, strict=True):
            page.insert_text((x, ys[r] + 9.5), text, fontsize=10, fontname="tiro")


def test_a_number_is_not_joined_to_the_text_across_a_drawn_column_rule(tmp_path: Path) -> None:
    assert pipe_rows(drawn_markdown(tmp_path, _number_by_its_wall)) == [
        ["Paket", "Popcon", "Größe", "Beschreibung"],
        ["doc-debian", "I:853", "166", "Dokumentation des Debian-Projekts"],
        ["debian-faq", "I:850", "790", "Debian FAQ"],
    ]


def _tableau(page: pymupdf.Page) -> None:
    """booktabs-de's ruled 'tableau' (split ``extra3``): a label over two rows (no rule across
    under it in its column); two columns with no rule down between them, told apart by a
    rule across under one only."""
    ys = [258.7, 271.0, 283.0, 295.3, 307.3, 319.6]
    for x in (251.5, 305.7, 409.6):
        page.draw_line((x, ys[0]), (x, ys[-1]), width=0.8)
    for y in (ys[0], ys[2], ys[4], ys[5]):
        page.draw_line((251.5, y), (409.6, y), width=0.8)
    page.draw_line((305.7, ys[1]), (409.6, ys[1]), width=0.8)  # not under Mücken
    page.draw_line((251.5, ys[3]), (305.7, ys[3]), width=0.8)  # not under ausgestopft
    page.draw_line((366.7, ys[3]), (409.6, ys[3]), width=0.8)  # under 92.50 only
    for x, y, text in (
        (257.5, 0, "Mücken"), (311.7, 0, "Gramm"), (373.1, 0, "$13.65"), (311.7, 1, "je"),
        (389.7, 1, ".01"), (257.5, 2, "Gnu"), (311.7, 2, "ausgestopft"), (378.7, 2, "92.50"),
        (257.5, 3, "Emu"), (378.7, 3, "33.33"), (257.5, 4, "Gürteltier"),
        (311.7, 4, "gefroren"), (384.2, 4, "8.99"),
    ):  # fmt: skip
        page.insert_text((x, ys[y] + 9), text, fontsize=9.5, fontname="tiro")


def test_two_columns_no_rule_down_parts_in_a_ruled_tableau_stay_two_columns(
    tmp_path: Path,
) -> None:
    assert pipe_rows(drawn_markdown(tmp_path, _tableau)) == [
        ["Mücken", "Gramm", "$13.65"],
        ["", "je", ".01"],
        ["Gnu", "ausgestopft", "92.50"],
        ["Emu", "", "33.33"],
        ["Gürteltier", "gefroren", "8.99"],
    ]


def _code_table(page: pymupdf.Page, head: bool = True) -> None:
    """An Introduction to R's families table (texinfo @multitable, split ``extra4``): a bold
    head row over rows whose two cells are both words in code, no rules; the body's text in
    roman under it."""
    for i in range(6):
        page.insert_text((72, 170 + 12 * i), _COLUMN_TEXT[i % 3], fontsize=10, fontname="tiro")
    if head:
        page.insert_text((72, 80), "Family name", fontsize=10, fontname="hebo")
        page.insert_text((190, 80), "Link functions", fontsize=10, fontname="hebo")
    rows = [
        ("binomial", "logit, probit, log, cloglog"),
        ("gaussian", "identity, log, inverse"),
        ("Gamma", "identity, inverse, log"),
        ("poisson", "identity, log, sqrt"),
    ]
    for i, (family, links) in enumerate(rows):
        page.insert_text((72, 94 + 13 * i), family, fontsize=10, fontname="cour")
        page.insert_text((190, 93.6 + 13 * i), links, fontsize=10, fontname="cour")


def test_a_head_row_over_cells_in_code_makes_them_a_table(tmp_path: Path) -> None:
    assert pipe_rows(drawn_markdown(tmp_path, _code_table)) == [
        ["Family name", "Link functions"],
        ["binomial", "logit, probit, log, cloglog"],
        ["gaussian", "identity, log, inverse"],
        ["Gamma", "identity, inverse, log"],
        ["poisson", "identity, log, sqrt"],
    ]


def test_a_listing_row_whose_right_piece_sits_higher_reads_left_to_right(tmp_path: Path) -> None:
    """The same rows without their head row are a listing: each row one line, its pieces
    left to right though the right one is set a little higher (R-intro's second page)."""

    markdown = drawn_markdown(tmp_path, lambda page: _code_table(page, head=False))
    assert pipe_rows(markdown) == []
    assert "binomial" in markdown
    assert markdown.index("binomial") < markdown.index("logit, probit")


_FIGURES = (
    ("Cu", "0.800", "14.10", "2.550"),
    ("Ag", "0.990", "15.90", "2.710"),
    ("Au", "1.150", "15.90", "2.710"),
    ("Mg", "0.490", "17.60", "3.200"),
    ("Zn", "0.300", "15.20", "2.970"),
)


def _figures_under_a_wide_caption(page: pymupdf.Page) -> None:
    """A physics paper's page (REVTeX, split ``extra4``): a wide table's caption across the
    page, then two columns: running text down the left one, and in the right one text, then a
    table of figures with element labels (no word in it) whose rows sit between the left
    column's lines."""
    for i, line in enumerate(_CAPTION_LINES):
        page.insert_text((54, 80 + 11 * i), line, fontsize=9, fontname="tiro")
    for i in range(30):
        page.insert_text((54, 160 + 11 * i), _COLUMN_TEXT[i % 3], fontsize=9, fontname="tiro")
    for i in range(8):
        page.insert_text((318, 160 + 11 * i), _COLUMN_TEXT[i % 3], fontsize=9, fontname="tiro")
    for j, row in enumerate(_FIGURES):
        for x, cell in zip((320, 380, 440, 500), row, strict=True):
            page.insert_text((x, 262 + 11 * j), cell, fontsize=9, fontname="tiro")


_CAPTION_LINES = (
    "TABLE II. This is a wide table that spans the full page width in a two-column layout. It is",
    "formatted using the table* environment. It also demonstrates the use of multicolumn in rows.",
)


def test_a_table_of_figures_in_one_column_under_a_wide_caption_is_a_table(
    tmp_path: Path,
) -> None:
    rows = pipe_rows(drawn_markdown(tmp_path, _figures_under_a_wide_caption, width=612))
    assert rows == [list(r) for r in _FIGURES]


def _table_beside_notes(page: pymupdf.Page) -> None:
    """A physics paper's page (REVTeX, split ``extra4``): text down both columns, then a table
    at the foot of the left column whose last cells (a number set right: ``0.69``) end two
    ems and a half before the right column's footnotes, set smaller, on the same baselines."""
    for i in range(20):
        page.insert_text((54, 100 + 11 * i), _COLUMN_TEXT[i % 3], fontsize=9, fontname="tiro")
        page.insert_text((318, 100 + 11 * i), _COLUMN_TEXT[i % 3], fontsize=9, fontname="tiro")
    rows = [("One", "Two", "Three", "Four", "Five")] + [r for r, _ in _NOTED]
    for j, row in enumerate(rows):
        for x, cell in zip((58, 98, 150, 202, 278.6), row, strict=True):
            page.insert_text((x, 340 + 11 * j), cell, fontsize=9, fontname="tiro")
    for j, (_, note) in enumerate(_NOTED):
        page.insert_text((318.5, 351 + 11 * j), note, fontsize=8, fontname="tiro")


_NOTED = (
    (("He", "2", "2.77234", "45672.", "0.69"), "a Here is the first, from Ref. 2."),
    (("Ne", "3", "12537.64", "37.66345", "86.37"), "b Here is the second."),
    (("Ar", "5", "1.5", "2.25", "3.75"), "c Here is the third."),
)


def test_a_cell_is_not_joined_to_the_next_columns_smaller_note(tmp_path: Path) -> None:
    rows = pipe_rows(drawn_markdown(tmp_path, _table_beside_notes, width=612))
    assert rows == [["One", "Two", "Three", "Four", "Five"], *(list(r) for r, _ in _NOTED)]


_MARKED = (
    ("Ion", "First", "Second", "Third", "Fourth"),
    ("K", "(2e)", "(4i)", "(2c)", "(4f)"),
    ("Mn", "(2g)a", "(a) + (b)", "(4e)", "(2a)"),
    ("Cl", "(a) + (b)", "(2g)a", "(4e)a", ""),
    ("He", "(8r)a", "(4j)a", "(4g)a", ""),
    ("Ag", "", "(4k)a", "", "(4h)a"),
)


def _rows_with_raised_marks(page: pymupdf.Page) -> None:
    """A physics paper's wide table (REVTeX's Table II, split ``extra4``): rows set close, cells
    with a footnote mark raised after them (``(2g)ᵃ``: the mark lifts its line's top over the
    row above's bottom), rows after the first leaving cells empty."""
    for j, row in enumerate(_MARKED):
        y = 100 + 13.5 * j
        for x, cell in zip((60, 150, 260, 370, 480), row, strict=True):
            text = cell.removesuffix("a") if cell.endswith(")a") else cell
            page.insert_text((x, y), text, fontsize=9, fontname="tiro")
            if text != cell:
                end = x + pymupdf.get_text_length(text, fontname="tiro", fontsize=9)
                page.insert_text((end + 0.3, y - 5.5), "a", fontsize=6, fontname="tiro")


def test_rows_whose_cells_carry_raised_marks_stay_rows(tmp_path: Path) -> None:
    rows = pipe_rows(drawn_markdown(tmp_path, _rows_with_raised_marks, width=612))
    assert [r[0] for r in rows] == ["Ion", "K", "Mn", "Cl", "He", "Ag"]
    assert rows[3] == ["Cl", "(a) + (b)", "(2g)a", "(4e)a", ""]


_TWO_HEADS = (
    ("One", "Two", "Three", "Four", "Five"),
    ("one", "two", "three", "four", "five"),
    ("He", "2", "2.77234", "45672.", "0.69"),
    ("Ne", "3", "12537.64", "37.66345", "86.37"),
    ("Ar", "5", "1.5", "2.25", "3.75"),
)


def _two_full_header_rows(page: pymupdf.Page) -> None:
    """REVTeX's Table III (split ``extra4``): two header rows without a number, each with a
    head in every column (heads, then their lower-case names), over rows of figures."""
    for j, row in enumerate(_TWO_HEADS):
        for x, cell in zip((72, 130, 200, 280, 360), row, strict=True):
            page.insert_text((x, 100 + 13 * j), cell, fontsize=9, fontname="tiro")


def test_two_header_rows_with_a_head_in_every_column_stay_two_rows(tmp_path: Path) -> None:
    rows = pipe_rows(drawn_markdown(tmp_path, _two_full_header_rows))
    assert rows == [list(r) for r in _TWO_HEADS]


_FILES = (
    ("1. manptp.tex", "Source file for this manual."),
    ("2. template.tex", "Template for making a PTPTEX compuscript."),
    ("3. ptptex.cls", "Main class file of PTPTEX."),
    ("4. ptp-prep.clo", "Class option file for preprint style output."),
    ("5. wrapft.sty", "Macro for wrapfigure and wraptable environments."),
)


def _file_list(page: pymupdf.Page) -> None:
    """A journal class's manual (ptptex, split ``extra5``): a paragraph, then a numbered list
    of files set as a grid (a name, then what it is in a column of its own), a paragraph."""
    page.insert_text((90, 80), "The following files are obtained in the above site:", fontsize=11)
    y = 96.0
    for name, what in _FILES:
        page.insert_text((88, y), name, fontsize=11, fontname="tiro")
        page.insert_text((175, y), what, fontsize=11, fontname="tiro")
        y += 13.3
    text = "The macros 6 and 7 are style files attached to the standard systems."
    page.insert_text((72, y + 4), text, fontsize=11, fontname="tiro")


def test_a_numbered_list_of_names_set_beside_what_each_is_is_a_table(tmp_path: Path) -> None:
    rows = pipe_rows(drawn_markdown(tmp_path, _file_list))
    assert rows[-len(_FILES) :] == [list(row) for row in _FILES]


_ITEMS = [
    ("Paper A4 box", "4", "12.50", "50.00"),
    ("Toner cartridge", "2", "80.00", "160.00"),
    ("Stapler heavy", "1", "25.00", "25.00"),
    ("Envelopes C5", "10", "3.00", "30.00"),
    ("Desk lamp", "3", "40.00", "120.00"),
]
_TOTALS = [("Subtotal", "385.00"), ("VAT 20%", "77.00"), ("Total due", "462.00")]


def _invoice(page: pymupdf.Page) -> None:
    """An invoice: items and quantities at the left, prices and amounts far to the right, then
    three totals rows on the right side only (the review's gen1.py of round 12)."""
    page.insert_text((72, 72), "Invoice 2024-17", fontsize=16, fontname="hebo")
    page.insert_text((72, 102), "Acme Supplies Ltd, 12 Harbour Road", fontsize=10)
    xs = [72, 200, 420, 500]
    for x, head in zip(xs, ["Description", "Qty", "Unit price", "Amount"], strict=True):
        page.insert_text((x, 126), head, fontsize=10, fontname="hebo")
    y = 142.0
    for item in _ITEMS:
        for x, cell in zip(xs, item, strict=True):
            page.insert_text((x, y), cell, fontsize=10)
        y += 14
    y += 10
    for label, value in _TOTALS:
        page.insert_text((420, y), label, fontsize=10, fontname="hebo")
        page.insert_text((500, y), value, fontsize=10)
        y += 14


def test_an_invoice_with_totals_on_its_right_side_only_is_one_table(tmp_path: Path) -> None:
    rows = pipe_rows(drawn_markdown(tmp_path, _invoice))
    assert rows[0] == ["Description", "Qty", "Unit price", "Amount"]
    assert [list(item) for item in _ITEMS] == rows[1:6]
    assert all(len(row) == 4 for row in rows)


_RELEASES = [
    ("2.4", "2024-05-02", "Added CSV export"),
    ("", "", "Fixed crash on start"),
    ("2.3", "2024-03-11", "New settings dialog"),
    ("2.2", "2024-01-20", "Faster search"),
    ("", "", "Dark mode"),
    ("2.1", "2023-11-02", "Printing support"),
    ("2.0", "2023-09-15", "Rewritten storage layer"),
    ("1.9", "2023-06-01", "Plugin interface"),
    ("1.8", "2023-02-10", "Initial public release"),
]


def _keyed_page(
    title: str, heads: Sequence[str], rows: Sequence[Sequence[str]], xs: Sequence[float]
) -> Callable[[pymupdf.Page], None]:
    """A page maker: ``title``, bold ``heads`` at ``xs``, then ``rows`` under them a line each,
    an empty cell left blank (a key not repeated on the rows under it)."""

    def draw(page: pymupdf.Page) -> None:
        page.insert_text((72, 72), title, fontsize=14, fontname="hebo")
        for x, head in zip(xs, heads, strict=True):
            page.insert_text((x, 100), head, fontsize=10, fontname="hebo")
        for i, row in enumerate(rows):
            for x, cell in zip(xs, row, strict=True):
                if cell:
                    page.insert_text((x, 116 + 16 * i), cell, fontsize=10)

    return draw


# A release history: a version's second change on a row of its own, its version and date blank.
_changelog = _keyed_page(
    "Release history", ("Version", "Date", "Change"), _RELEASES, (72, 150, 260)
)


def test_a_row_with_its_key_left_blank_is_a_row_of_its_own(tmp_path: Path) -> None:
    rows = pipe_rows(drawn_markdown(tmp_path, _changelog))
    assert rows == [["Version", "Date", "Change"], *(list(row) for row in _RELEASES)]


_KEYED_LISTS = {  # heads, then rows: a second entry under a key starting lowercase, with a symbol, a letter
    "products": [("Customer", "Product"), ("Smith", "Laptop Pro"), ("", "iPhone 15"), ("Jones", "Monitor"),
                 ("Brown", "Keyboard"), ("", "eReader"), ("Green", "Mouse"), ("White", "Desk"),
                 ("Black", "Chair"), ("Grey", "Lamp")],
    "units": [("Name", "Unit"), ("Mass", "Kilogram"), ("", "kg"), ("Length", "Metre"), ("", "m"),
              ("Time", "Second"), ("Current", "Ampere"), ("Amount", "Mole"),
              ("Light", "Candela"), ("Temp", "Kelvin")],
    "codes": [("Module", "Code"), ("Parser", "Unexpected token"), ("", "err_eof"), ("Lexer", "Bad escape"),
              ("Loader", "Missing file"), ("", "enoent"), ("Net", "Timeout"),
              ("Cache", "Stale entry"), ("Auth", "Denied"), ("Db", "Locked")],
    "changes": [("Version", "Change"), ("2.4", "Added export"), ("", "+ dark mode"), ("2.3", "New dialog"),
                ("2.2", "Faster"), ("", "#123 fixed"), ("2.1", "Printing"), ("2.0", "Storage"),
                ("1.9", "Plugins"), ("1.8", "Initial")],
    "grades": [("Student", "Grade"), ("Anna", "Excellent"), ("", "A"), ("Ben", "Good"), ("Carl", "Fair"), ("", "C"),
               ("Dora", "Poor"), ("Eve", "Good"), ("Finn", "Fair"), ("Gus", "Good")],
}  # fmt: skip


@pytest.mark.parametrize("kind", sorted(_KEYED_LISTS))
def test_a_second_entry_under_a_key_is_a_row_of_its_own_however_it_starts(
    tmp_path: Path, kind: str
) -> None:
    """A blank-key row is the cell above wrapped only when that cell breaks off mid-phrase:
    ``iPhone 15``, ``kg``, ``err_eof``, ``+ dark mode`` or a grade ``A`` under a finished cell
    are entries of their own (a cell opening with no capitalised word was glued to the one
    above)."""
    heads, *rows = _KEYED_LISTS[kind]
    draw = _keyed_page(f"{heads[1]}s by {heads[0].lower()}", heads, rows, (72, 200))
    assert pipe_rows(drawn_markdown(tmp_path, draw)) == [list(heads), *map(list, rows)]


_PADDED_ROWS = [
    ("Colour", "Deep", "red      Warm tone      Bright"),
    ("Shape", "Round", "edge      Flat side      Sharp"),
    ("Size", "Large", "box      Small case      Tiny"),
]


def _bold_then_padded(page: pymupdf.Page) -> None:
    """Rows whose cells after the key are one text padded with spaces, its first word bold and
    set apart (MuPDF gives the row one line with a wide gap inside: ``Line.cuts``)."""
    page.insert_text((72, 72), "Some heading text", fontsize=12, fontname="hebo")
    writer = pymupdf.TextWriter(page.rect)
    bold, regular = pymupdf.Font("hebo"), pymupdf.Font("helv")
    for i, (key, first, rest) in enumerate(_PADDED_ROWS):
        y = 92 + 14 * i
        writer.append((72, y), key, font=bold, fontsize=10)
        end = writer.append((140, y), first, font=bold, fontsize=10)[1]
        writer.append((end.x + 7, y), rest, font=regular, fontsize=10)
    writer.write_text(page)


def test_cells_padded_with_spaces_are_not_cut_again_at_their_lines_gaps(tmp_path: Path) -> None:
    """A piece of a line padded with spaces does not keep the line's gaps (their offsets count
    from the line's start: ``Warm tone`` was cut into ``Warm`` and ``tone``)."""
    rows = pipe_rows(drawn_markdown(tmp_path, _bold_then_padded))
    assert rows == [
        ["Colour", "Deep red", "Warm tone", "Bright"],
        ["Shape", "Round edge", "Flat side", "Sharp"],
        ["Size", "Large box", "Small case", "Tiny"],
    ]


def _cpu(work: Callable[[], object]) -> float:
    """The CPU seconds ``work`` takes, the least of three runs."""
    times = []
    for _ in range(3):
        start = time.process_time()
        work()
        times.append(time.process_time() - start)
    return min(times)


def test_a_long_unruled_table_is_found_in_time_linear_in_its_rows() -> None:
    """4,000 rows of two cells: one run, read in well under a second of CPU (each row used to
    measure every gap of the run before it: ~7 s)."""
    lines = [
        Line(x, 72 + 12 * i, x + 50, 82 + 12 * i, f"{word}{i}", 10, family="x", weight=400)
        for i in range(4000)
        for x, word in ((72, "Term"), (200, "val"))
    ]
    assert len(unruled_runs(lines, 612, 10**6)) == 1
    assert _cpu(lambda: unruled_runs(lines, 612, 10**6)) < 0.5


def test_column_cuts_look_only_at_the_lines_near_each_cut() -> None:
    """4,000 lines each with a wide gap, one under another: cut at the column they share, in
    well under a second of CPU (each cut used to be checked against every line's start: ~10 s)."""
    lines = [
        Line(72, 14 * i, 300, 14 * i + 10, "Term   meaning", 10, cuts=((150.0, 4, 100.0),))
        for i in range(4000)
    ]
    out, whole = column_cuts(lines, {})
    assert [ln.text for ln in out[:2]] == ["Term", "meaning"] and len(out) == 8000
    assert _cpu(lambda: column_cuts(lines, {})) < 0.5


def _cut_line(y: float, text: str = "Term   meaning") -> Line:
    """A line MuPDF gives whole over a wide gap at x=150 (``Line.cuts``), four letters before."""
    return Line(72, y, 300, y + 10, text, 10, cuts=((150.0, 4, 100.0),))


def test_a_wide_gap_is_cut_only_where_two_other_lines_start_there() -> None:
    """One other line starting at a line's wide gap is no column (a word spaced wide over a
    line that starts there): the line stays whole; two make a column, and it is cut."""
    one = [_cut_line(100), Line(150, 114, 250, 124, "under it", 10)]
    assert [ln.text for ln in column_cuts(one, {})[0]] == ["Term   meaning", "under it"]
    two = [*one, Line(150, 128, 250, 138, "and again", 10)]
    assert [ln.text for ln in column_cuts(two, {})[0]][:2] == ["Term", "meaning"]


def test_a_row_set_off_under_a_tight_run_in_its_columns_stays_in_the_run() -> None:
    """A row a blank line under three tight rows, its lines starting where the run's do (a
    bill's note row under its items): the same table, not the next list (``_spaced_off``)."""
    lines = [
        Line(x, y, x + 40, y + 10, f"{word}{i}", 10)
        for i, y in enumerate((100, 112, 124, 146))
        for x, word in ((72, "Item"), (200, "cost"))
    ]
    runs = unruled_runs(lines, 612, 792)
    assert [len(run) for _, run in runs] == [4]


def test_a_gap_after_words_joined_by_a_drawn_underscore_cuts_where_its_text_parts() -> None:
    """``READ`` and ``ID   reads a value`` joined by an underscore drawn as a rule: the gap
    inside the second is counted past the ``_`` put between them, so the cell is ``READ_ID``
    (it was cut one letter early: ``READ_I`` / ``D reads a value``)."""
    joined = []
    for i, (key, what) in enumerate(
        (("READ", "reads a value"), ("WRITE", "writes it"), ("CLEAR", "clears all"))
    ):
        y = 100.0 + 16 * i
        first = Line(72, y, 72 + 6.5 * len(key), y + 10, key, 10)
        second = Line(
            first.x1 + 4.5, y, 300, y + 10, f"ID   {what}", 10, cuts=((160.0, 2, first.x1 + 18),)
        )
        stroke = (first.x1 + 0.5, y + 8, first.x1 + 4, y + 8.5)
        line = _join_fragments(first, second, False, [stroke], [])
        assert line is not None and line.text == f"{key}_ID   {what}"
        joined.append(line)
    assert [ln.text for ln in column_cuts(joined, {})[0]][:2] == ["READ_ID", "reads a value"]


_SURVEY = [
    "The results of the survey show a clear trend over the years",
    "and the numbers below give the counts for each of the regions",
    "that took part in the study, with the totals at the bottom.",
]


def _two_tables_of_rising_numbers(page: pymupdf.Page) -> None:
    """Two page columns of text, each with a small table whose last column's numbers rise row
    by row (as a table of contents' page numbers do), at other heights in each column."""
    for col, x in ((0, 54), (1, 318)):
        for i in range(30):
            y = 100 + 11 * i
            if (col == 0 and 4 <= i < 9) or (col == 1 and 20 <= i < 25):
                for dx, cell in ((0, f"Region {i}"), (90, f"{i * 7}"), (150, f"{i * 3}.5")):
                    page.insert_text((x + dx, y), cell, fontsize=9, fontname="tiro")
            else:
                page.insert_text((x, y), _SURVEY[i % 3], fontsize=9, fontname="tiro")


def test_two_columns_of_rising_numbers_without_leaders_are_read(tmp_path: Path) -> None:
    """Two columns of numbers that could be a contents' pages, no column with dot leaders:
    the page is read (the second such column was matched against the leader columns' edges,
    one fewer than the columns: ``ValueError: zip() argument 2 is shorter``)."""
    text = drawn_markdown(tmp_path, _two_tables_of_rising_numbers)
    assert "Region 4" in text and "Region 24" in text


def _two_rows(
    page: pymupdf.Page, styles: tuple[str, str, str, str] = ("helv",) * 4, step: float = 25
) -> None:
    """A word processor's borderless table of two rows of two cells (its rows padded a
    quarter of a line apart: ``step`` points from baseline to baseline), under a citation and
    a caption (testWORD_various.docx's second page); ``styles``: each cell's font, row by row."""
    page.insert_text((72, 100), "Here is a citation:", fontsize=11)
    page.insert_text((72, 130), "(Kramer)", fontsize=11)
    page.insert_text((72, 190), "Figure 1 This is a caption for Figure 1", fontsize=9)
    cells = [(72, 262, "Row 1 column 1"), (324, 262, "Row 1 column 2")]
    cells += [(72, 262 + step, "Row 2 column 1"), (324, 262 + step, "Row 2 column 2")]
    for (x, y, text), font in zip(cells, styles, strict=True):
        page.insert_text((x, y), text, fontsize=11, fontname=font)


def test_two_rows_of_two_short_cells_in_columns_are_a_table(tmp_path: Path) -> None:
    rows = pipe_rows(drawn_markdown(tmp_path, _two_rows))
    assert rows == [
        ["Row 1 column 1", "Row 1 column 2"],
        ["Row 2 column 1", "Row 2 column 2"],
    ]


@pytest.mark.parametrize(
    ("styles", "step"), [(("cour",) * 4, 25), (("helv",) * 4, 40)], ids=["code", "far_apart"]
)
def test_two_rows_in_a_monospaced_face_or_far_apart_are_no_table(
    tmp_path: Path, styles: tuple[str, str, str, str], step: float
) -> None:
    """The same two rows set in a monospaced face (code beside what it prints), or two lines
    and more apart (two lines of text with a blank between, not a table's padded rows)."""
    assert not pipe_rows(drawn_markdown(tmp_path, lambda page: _two_rows(page, styles, step)))


def test_two_rows_whose_right_column_changes_style_are_no_table(tmp_path: Path) -> None:
    """A bold head beside a bold head over a plain line beside a bold one: two columns of
    text under their heads, not a table of two rows."""
    text = drawn_markdown(tmp_path, lambda page: _two_rows(page, ("hebo", "hebo", "hebo", "helv")))
    assert not pipe_rows(text)
    assert "Row 2 column 2" in text


def test_two_rows_with_a_third_row_in_their_columns_are_not_a_table_of_two(
    tmp_path: Path,
) -> None:
    """Two rows of two cells over a third in the same columns that is not a row of cells
    (long lines: a grid of text): no table of the first two."""

    def draw(page: pymupdf.Page) -> None:
        _two_rows(page)
        page.insert_text((72, 312), "A longer line of text here in the", fontsize=11)
        page.insert_text((324, 312), "second column of the text too", fontsize=11)

    assert not pipe_rows(drawn_markdown(tmp_path, draw))


def test_a_symbol_list_of_two_entries_is_a_table() -> None:
    """GeoTopo p112: the list of symbols' last group, two symbols beside their meanings under
    a one-line gap, a table of two rows like the groups of more above it."""
    text = _corpus_page("GeoTopo-komprimiert.pdf", 112)
    assert ["Perm(X)", "Permutationsgruppe"] in pipe_rows(text)
    assert ["Sym(X)", "Symmetrische Gruppe"] in pipe_rows(text)


def test_check_marks_a_dingbats_font_gives_as_control_characters_are_named_in_cells() -> None:
    """The DPR paper's Table 3 (p6; its pages 1 and 5 are held out): the IB column's ✗ and ✓
    come from an embedded Dingbats font as ``\\x17`` and ``\\x13`` (no ToUnicode map); the
    cells hold the marks, not empty strings, and stay cells of their own column."""
    rows = pipe_rows(_corpus_page("multi-column.pdf", 6))
    assert ["Random", "7", "✗", "47.0", "64.3", "77.8"] in rows
    assert ["Gold", "127", "✓", "55.8", "73.0", "83.1"] in rows


def test_a_bullet_opening_a_line_inside_a_ruled_cell_is_left_out() -> None:
    """redp5110 p8: a ruled table's Description cell holds a sentence over a bulleted list
    (its bullets a glyph the text layer cannot name); the items read on in the cell without
    the bullets, as the cell's first line would."""
    rows = pipe_rows(_corpus_page("redp5110_sampled.pdf", 8))
    usage = next(r for r in rows if r[0] == "USAGE")
    assert usage[2] == (
        "Usage setting: ALLOWED: The user profile is allowed to use the function. "
        "DENIED: The user profile is not allowed to use the function."
    )


def test_two_short_paragraphs_side_by_side_are_no_table_of_two_rows(tmp_path: Path) -> None:
    """A newsletter's two columns of a two-line sentence each: two rows of two short lines in
    aligned columns, each column in one style, but each a sentence wrapped over its lines."""

    def draw(page: pymupdf.Page) -> None:
        page.insert_text((72, 60), "Newsletter", fontsize=16)
        for x, y, text in (
            (72, 100, "Our team met on Monday"), (250, 100, "The new office opens soon"),
            (72, 112, "To plan the next steps."), (250, 112, "With a party for all."),
        ):  # fmt: skip
            page.insert_text((x, y), text, fontsize=10)
        for i in range(3):
            page.insert_text((72, 200 + 14 * i), "This is a long line of ordinary body text "
                             "that runs across the page width.", fontsize=11)  # fmt: skip
        for i, text in enumerate(("Dear Sir or Madam,", "Thank you for your letter.", "Yours,")):
            page.insert_text(
                (72, 600 + 14 * i), text, fontsize=11
            )  # short lines: a page to look at

    assert pipe_rows(drawn_markdown(tmp_path, draw)) == []


def test_a_box_or_tick_opening_a_line_inside_a_ruled_cell_is_kept(tmp_path: Path) -> None:
    """A form's cell lists options under its first line with a filled or empty box, or a tick:
    the mark is the option's state, not a bullet; it stays in the cell."""

    def draw(page: pymupdf.Page) -> None:
        xs, ys = (72, 200, 450), (80, 100, 160, 200)
        for y in ys:
            page.draw_line((xs[0], y), (xs[-1], y))
        for x in xs:
            page.draw_line((x, ys[0]), (x, ys[-1]))
        for x, y, text in (
            (76, 94, "Setting"), (204, 94, "Value"), (76, 114, "Notifications"),
            (204, 114, "Send by:"), (204, 128, "■ Email"), (204, 142, "□ Text message"),
            (76, 174, "Features"), (204, 174, "Enabled:"), (204, 188, "✓ Sync   ✗ Backup"),
        ):  # fmt: skip
            page.insert_text((x, y), text, fontsize=10, fontname="F0", fontfile=_DEJAVU)

    rows = pipe_rows(drawn_markdown(tmp_path, draw))
    assert ["Notifications", "Send by: ■ Email □ Text message"] in rows
    assert ["Features", "Enabled: ✓ Sync ✗ Backup"] in rows


def _hpo_section(page: pymupdf.Page) -> None:
    """A paper's page: a numbered section heading, a paragraph, a booktabs table whose rows
    come in pairs (the settings' cells set on the first row of each pair only, two languages
    on its two rows), then the next section's heading and paragraph."""
    text = (
        "We have chosen the number of layers by a search over the settings tried before. The",
        "table below gives the scores of each language for every setting of the layers.",
    )
    page.insert_text((72, 80), "5.1 Hyper Parameter Optimization", fontsize=12, fontname="tibo")
    for i, line in enumerate(text):
        page.insert_text((72, 100 + 12 * i), line, fontsize=10, fontname="tiro")
    page.insert_text((72, 140), "Table 1. Settings tried for the decoder.", fontsize=9)
    page.draw_line((72, 146), (400, 146), width=0.8)
    xs = (90, 150, 210, 280, 350)
    for x, head in zip(xs, ("enc", "dec", "Language", "TEDs", "mAP"), strict=True):
        page.insert_text((x, 157), head, fontsize=9, fontname="tiro")
    page.draw_line((72, 161), (400, 161), width=0.4)
    data = [
        ("6", "6", "OTSL", "0.941", "0.861"),
        ("", "", "HTML", "0.952", "0.857"),
        ("4", "4", "OTSL", "0.937", "0.858"),
        ("", "", "HTML", "0.947", "0.853"),
        ("2", "4", "OTSL", "0.930", "0.866"),
        ("", "", "HTML", "0.939", "0.849"),
    ]
    for j, row in enumerate(data):
        y = 173 + 11 * j + 3 * (j // 2)
        for x, value in zip(xs, row, strict=True):
            if value:
                page.insert_text((x, y), value, fontsize=9, fontname="tiro")
    page.draw_line((72, 245), (400, 245), width=0.8)
    page.insert_text((72, 275), "5.2 Quantitative Results", fontsize=12, fontname="tibo")
    page.insert_text(
        (72, 295), "We compare the best setting with the models of earlier work.", fontsize=10
    )


def test_a_papers_table_of_paired_rows_keeps_its_rows_apart_in_place(tmp_path: Path) -> None:
    """The settings' row and the language's row under it stay two rows (the second's first
    cells empty), and the table stands between its section's heading and the next one's."""
    text = drawn_markdown(tmp_path, _hpo_section)
    assert re.search(r"^#+ 5\.1 Hyper Parameter Optimization$", text, re.MULTILINE)
    assert "| 6 | 6 | OTSL | 0.941 |" in text and "|  |  | HTML | 0.952 |" in text
    assert text.index("5.1 Hyper") < text.index("| 6 | 6 | OTSL") < text.index("5.2 Quantitative")


def test_many_tables_of_two_rows_are_found_in_time_linear_in_their_rows() -> None:
    """1,000 tables of two rows of two cells one under another, over three lines apart:
    each a table of its own (``two_row_tables``), found in well under a second of CPU."""
    lines = [
        Line(x, y, x + 50, y + 10, f"{word}{i}", 10, family="x", weight=400)
        for i in range(1000)
        for y in (72 + 60 * i, 84 + 60 * i)
        for x, word in ((72, "Term"), (200, "Value"))
    ]
    assert len(unruled_runs(lines, 612, 10**6)) == 1000
    assert _cpu(lambda: unruled_runs(lines, 612, 10**6)) < 0.5


def test_a_label_joined_to_the_next_cells_text_over_a_drawn_rule_is_cut_there() -> None:
    """normal_4pages p2: a ruled table's row label ``U코드`` and the next cell's bulleted text,
    5 points apart with the column's rule between them, come as one line from the join of
    fragments; the rule cuts it: the label its own cell, the text the next one's."""
    rows = pipe_rows(_corpus_page("normal_4pages.pdf", 2))
    assert [r[:2] for r in rows if r[0].startswith("U코드")] == [["U코드", "대상질병에 U코드 없음"]]


@pytest.mark.parametrize("spacing", [0, 3], ids=["touching", "apart"])
def test_lines_cut_at_drawn_rules_look_only_at_the_rules_near_each_gap(spacing: float) -> None:
    """4,000 lines each joined over a rule down (a grid of 4,000 boxed rows: a rule a row on
    one x, end to end or ``spacing`` apart: HTML's cell spacing): each cut at its rule, in well
    under a second of CPU (every rule on the line's x would be 16 million checks)."""
    lines = [
        Line(72, 14 * i, 300, 14 * i + 10, "Term meaning", 10, cuts=((152.0, 4, 148.0),))
        for i in range(4000)
    ]
    down = [(150.0, 14 * i - 2 + spacing, 14 * i + 12 - spacing) for i in range(4000)]
    out, whole = walled_cuts(lines, down, {})
    assert [ln.text for ln in out[:2]] == ["Term", "meaning"] and len(out) == 8000
    assert _cpu(lambda: walled_cuts(lines, down, {})) < 0.5


_BILL = [
    ("", "Nature", "Quantité", "Prix unit.", "EUR"),
    ("A", "Produit Un", "5,00", "100,20", "501,00"),
    ("B", "Produit Deux", "2,00", "1 000,40", "2 000,80"),
    ("C", "Produit Trois", "1,00", "500,00", "500,00"),
    ("", "Prix HTVA (A+B+C)", "", "", "3 001,80"),
    ("D", "TVA (6,00% sur A)", "", "", "30,06"),
    ("E", "TVA (21,00% sur B+C)", "", "", "525,17"),
    ("", "Total hors remise : (A+B+C+D+E)", "", "", "3 557,03"),
]
_BILL_X = (126.0, 146.0, 313.0, 363.0, 418.0, 469.0)  # the columns' edges


def _bill(page: pymupdf.Page, shaded: bool = True, pitch: float = 16) -> None:
    """An invoice's item grid as LaTeX sets it with booktabs and colortbl: rules across only,
    rows shaded cell by cell (a filled rect a cell, meeting edge to edge; the last three
    stacked a point apart), amounts set right, totals rows whose label holds more words than a
    row of cells is let hold."""
    top, rows = 200.0, _BILL
    for j, row in enumerate(rows):
        y = top + pitch * j
        if shaded and j in (0, 2, 5, 6, 7):
            for x0, x1 in zip(_BILL_X, _BILL_X[1:], strict=False):
                box = pymupdf.Rect(x0, y, x1, y + pitch - 1)
                page.draw_rect(box, color=None, fill=(0.92, 0.92, 0.92))
        if j in (0, 1, 4, 5, 7):
            page.draw_line((_BILL_X[0], y - 1), (_BILL_X[-1], y - 1), width=0.5)
        for i, text in enumerate(row):
            if i < 2:
                page.insert_text((_BILL_X[i] + 5, y + 10), text, fontsize=10.5)
            elif text:
                _right(page, _BILL_X[i + 1] - 5, y + 10, text)
    page.draw_line((_BILL_X[0], top + pitch * len(rows)), (_BILL_X[-1], top + pitch * len(rows)))


def test_a_bills_rows_shaded_cell_by_cell_are_no_ruled_cells(tmp_path: Path) -> None:
    """The shaded cells' fills meet edge to edge: no wall between them (``ruled._fills_joined``),
    so no ruled table of the shaded rows' first cells, the grid is one table, amounts in it."""
    rows = pipe_rows(drawn_markdown(tmp_path, _bill))
    assert ["A", "Produit Un", "5,00", "100,20", "501,00"] in rows
    assert ["E", "TVA (21,00% sur B+C)", "", "", "525,17"] in rows
    assert ["", "Total hors remise : (A+B+C+D+E)", "", "", "3 557,03"] in rows
    assert len(rows) == len(_BILL)  # one table: no second one of the shaded rows


def test_a_bills_totals_rows_stay_in_its_grid(tmp_path: Path) -> None:
    """A totals row (a label of five words and an amount in the far column, its digit groups
    no words: ``unruled._worded``) is a row of the grid above it, not a heading over loose
    amounts; no shading here."""
    rows = pipe_rows(drawn_markdown(tmp_path, lambda p: _bill(p, shaded=False)))
    assert ["", "Total hors remise : (A+B+C+D+E)", "", "", "3 557,03"] in rows
    assert ["", "Prix HTVA (A+B+C)", "", "", "3 001,80"] in rows


def _boxes(page: pymupdf.Page) -> None:
    """A grid drawn as a stroked box a cell (an HTML table without cell spacing): the boxes'
    edges overlap by the stroke's width, each a wall; cells of seven words, too long for a
    table without rules."""
    for j in range(3):
        for i in range(2):
            box = pymupdf.Rect(72 + 230 * i, 200 + 20 * j, 302 + 230 * i, 220 + 20 * j)
            page.draw_rect(box, color=(0, 0, 0), width=1)
            page.insert_text((box.x0 + 4, box.y0 + 14), _BOX.format(j, i), fontsize=9)


_BOX = "Box {}.{} holds seven words of text"


def test_a_grid_of_stroked_boxes_keeps_its_walls(tmp_path: Path) -> None:
    rows = pipe_rows(drawn_markdown(tmp_path, _boxes))
    assert rows == [[_BOX.format(j, i) for i in range(2)] for j in range(3)]


def _spaced_boxes(page: pymupdf.Page) -> None:
    """A grid of stroked boxes set a stroke's width apart (an HTML table's cell spacing): each
    box's outer edge meets the next's edge to edge, as a row's fills do, each a wall."""
    for j in range(3):
        for i in range(2):
            box = pymupdf.Rect(72 + 232 * i, 200 + 22 * j, 302 + 232 * i, 220 + 22 * j)
            page.draw_rect(box, color=(0, 0, 0), width=1)
            page.insert_text((box.x0 + 4, box.y0 + 14), _BOX.format(j, i), fontsize=9)


def test_stroked_boxes_meeting_edge_to_edge_keep_their_walls(tmp_path: Path) -> None:
    """Stroked boxes are no fills (``reading``: only unstroked rects' colours are) and a rect
    of no fill colour is never joined (``ruled._fills_joined``): boxes whose edges meet stay
    cells of their own, two a row."""
    rows = pipe_rows(drawn_markdown(tmp_path, _spaced_boxes))
    assert rows == [[_BOX.format(j, i) for i in range(2)] for j in range(3)]


def _coloured_cells(page: pymupdf.Page) -> None:
    """A grid drawn only with cell fills in three colours by turns, meeting edge to edge, no
    stroke: each fill a cell, its colour's edge the wall between two cells."""
    colours = [(0.8, 0.2, 0.2), (0.2, 0.8, 0.2), (0.2, 0.2, 0.8)]
    for j in range(4):
        for i in range(3):
            box = pymupdf.Rect(72 + 150 * i, 200 + 20 * j, 222 + 150 * i, 220 + 20 * j)
            page.draw_rect(box, color=None, fill=colours[(i + j) % 3], width=0)
            page.insert_text((box.x0 + 4, box.y0 + 14), _COLOURED.format(j, i), fontsize=9)


_COLOURED = "Entry {} {} with several words here"


def test_cells_filled_in_colours_by_turns_keep_their_walls(tmp_path: Path) -> None:
    """Only fills of one colour meeting edge to edge are one fill (``ruled._fills_joined``):
    fills of different colours side by side are cells of a grid, read as a table."""
    rows = pipe_rows(drawn_markdown(tmp_path, _coloured_cells))
    assert rows == [[_COLOURED.format(j, i) for i in range(3)] for j in range(4)]


def _totals_beside_text(page: pymupdf.Page) -> None:
    """A price list of three rows, then two paragraphs side by side whose last lines are short
    and end in a number: text under the grid, not totals rows of it."""
    for j, (name, qty, price) in enumerate(
        [("Pens", "4", "2,00"), ("Paper", "1", "5,50"), ("Ink", "2", "9,90")]
    ):
        page.insert_text((72, 200 + 14 * j), name, fontsize=10.5)
        _right(page, 300, 200 + 14 * j, qty)
        _right(page, 400, 200 + 14 * j, price)
    left = ["The prices above are valid for orders placed", "before the end of the year", "2024"]
    right = [
        "Delivery is free for orders over one hundred",
        "euros within the country of",
        "100,00",
    ]
    for k, (a, b) in enumerate(zip(left, right, strict=True)):
        page.insert_text((72, 244 + 13 * k), a, fontsize=10.5)
        page.insert_text((330, 244 + 13 * k), b, fontsize=10.5)


def test_two_paragraphs_side_by_side_under_a_grid_are_not_its_totals(tmp_path: Path) -> None:
    markdown = drawn_markdown(tmp_path, _totals_beside_text)
    rows = pipe_rows(markdown)
    assert ["Ink", "2", "9,90"] in rows
    assert not any("2024" in c or "100,00" in c or "euros" in c for r in rows for c in r)


def test_a_thousand_rows_shaded_cell_by_cell_are_joined_in_time_linear_in_their_fills() -> None:
    """1,000 rows of five fills meeting edge to edge (5,000 rects), and a rule across under
    each: one fill a row and the rules kept, in well under a second of CPU."""
    rects = [
        box
        for j in range(1000)
        for box in (
            *((float(x), 14.0 * j, x + 60.0, 14.0 * j + 12) for x in range(72, 372, 60)),
            (72.0, 14.0 * j + 13, 372.0, 14.0 * j + 13.5),
        )
    ]
    fills = dict.fromkeys(rects, 0xEEEEEE)
    joined = _fills_joined(rects, fills)
    assert len(joined) == 2000 and (72.0, 14.0, 372.0, 26.0) in joined
    assert _cpu(lambda: _fills_joined(rects, fills)) < 0.5


def test_a_thousand_item_rows_with_totals_rows_are_one_run_in_linear_time() -> None:
    """A bill of 1,000 item rows (a code, a name, an amount), a totals row of a four-word label
    and an amount after every tenth: one run, found in well under a second of CPU."""
    lines = []
    for i in range(1000):
        y = 72.0 + 14 * i
        if i % 10 == 9:
            lines += [
                Line(
                    150,
                    y,
                    290,
                    y + 10,
                    f"Total of block {i}",
                    10,
                    family="x",
                    weight=400,
                ),
                Line(420, y, 460, y + 10, f"{i},00", 10, family="x", weight=400),
            ]
        else:
            lines += [
                Line(72, y, 90, y + 10, f"A{i}", 10, family="x", weight=400),
                Line(150, y, 200, y + 10, f"Item {i}", 10, family="x", weight=400),
                Line(420, y, 460, y + 10, f"{i},50", 10, family="x", weight=400),
            ]
    runs = unruled_runs(lines, 612, 10**6)
    assert len(runs) == 1 and len(runs[0][1]) == 1000
    assert _cpu(lambda: unruled_runs(lines, 612, 10**6)) < 1.0


def _raised_head(page: pymupdf.Page) -> None:
    """An expense claim's fully ruled grid (as LaTeX draws it) whose first head is ``Nº pièce``:
    the raised ``o`` reaches over the rule above the head row."""
    xs = [105, 160, 222, 330, 413, 490]
    ys = [429.5, 441.9, 454.2, 466.6, 479.0]
    for y in ys:
        page.draw_line((xs[0], y), (xs[-1], y), width=0.8)
    for x in xs:
        page.draw_line((x, ys[0]), (x, ys[-1]), width=0.8)
    page.insert_text((111.4, 438.0), "N", fontsize=10, fontname="hebo")
    page.insert_text((119.0, 434.0), "o", fontsize=7, fontname="hebo")
    page.insert_text((126.0, 438.0), "pièce", fontsize=10, fontname="hebo")
    for x, head in zip(
        (179, 228, 336, 419.6), ("Date", "Nature", "Montant TTC", "Moyen"), strict=True
    ):
        page.insert_text((x, 438.0), head, fontsize=10, fontname="hebo")
    rows = [
        ("1", "04/10/1952", "Gateau", "25,20", "Carte"),
        ("2", "04/10/1952", "Bougie", "5,00", "Carte"),
        ("3", "06/10/1952", "Soude", "1,25", "Espèces"),
    ]
    for j, row in enumerate(rows):
        for x, text in zip((149, 166, 228, 379, 419.6), row, strict=True):
            page.insert_text((x, 450.4 + 12.35 * j), text, fontsize=10)


def test_a_head_whose_raised_mark_crosses_the_rule_above_stays_in_its_ruled_cell(
    tmp_path: Path,
) -> None:
    markdown = drawn_markdown(tmp_path, _raised_head)
    assert pipe_rows(markdown)[0] == ["N o pièce", "Date", "Nature", "Montant TTC", "Moyen"]
    assert not re.search(r"^#", markdown, re.MULTILINE)  # no head read as a heading


def test_a_line_of_figures_joined_over_a_column_is_cut_there() -> None:
    """cjeguide p8 (a journal's results table): MuPDF gives a row's last two figures, the
    second with a raised footnote mark, as one line ``0.8 4.6 a``; the rows above start a
    figure at the gap's far edge, so it is cut there though ``0.8`` reads as a section's
    number (``2.1``) and ``4.6 a`` holds no word."""

    def line(x0: float, y: float, x1: float, text: str, cuts: tuple = ()) -> Line:
        return Line(x0, y, x1, y + 8, text, 8, family="x", weight=400, cuts=cuts)

    lines = [
        *(line(228.9, y, 239.7, "0.8") for y in (194.8, 203.8, 212.7)),
        *(line(256.3, y, 267.1, t) for y, t in ((194.8, "1.9"), (203.8, "2.8"), (212.7, "3.8"))),
        line(228.9, 221.7, 271.2, "0.8 4.6 a", ((256.3, 3, 239.7),)),
    ]
    out, _ = column_cuts(lines, {})
    assert [ln.text for ln in out[-2:]] == ["0.8", "4.6 a"]
    assert out[-1].x0 == 256.3


def _addresses(page: pymupdf.Page) -> None:
    """An invoice's address block: three columns under underlined heads, one line a row, the
    sender's and the payer's bank accounts (IBANs in digit groups) on its last row."""
    rows = [
        ("Expedition", "Facturation", "Livraison"),
        ("Prénom Nom", "Fbg Bgf", "Voir facturation"),
        ("Rue Delarue 1", "DelarueStraat 2", ""),
        ("CCC1 Ville1", "CCC2 Ville2", ""),
        ("BE12 3456 7890 1234", "BE98 7654 3210 9876", ""),
    ]
    for j, row in enumerate(rows):
        for x, text in zip((77, 225, 373), row, strict=True):
            if text:
                page.insert_text((x, 185 + 14 * j), text, fontsize=10, fontname="tiro")


def test_an_address_blocks_rows_of_account_numbers_stay_in_it(tmp_path: Path) -> None:
    """Digit groups are one figure, not words (``unruled._worded``): a row of two IBANs is
    no longer over a row of cells' word budget."""
    rows = pipe_rows(drawn_markdown(tmp_path, _addresses))
    assert ["BE12 3456 7890 1234", "BE98 7654 3210 9876", ""] in rows
    assert ["Prénom Nom", "Fbg Bgf", "Voir facturation"] in rows


def test_a_formulas_cases_are_no_table_though_their_numbers_are_no_words() -> None:
    """GeoTopo p50: a piecewise function's cases (``ϕ(t) = t −14  falls 12 ≤t < 34``) set in
    two columns; digit groups are no words in a row's budget (``unruled._worded``), but its
    signs and operators are: the cases stay text, no table."""
    markdown = _corpus_page("GeoTopo-komprimiert.pdf", 50)
    assert "falls" in markdown
    assert not any("falls" in cell for row in pipe_rows(markdown) for cell in row)


def test_two_numbered_headings_side_by_side_are_no_row_of_cells() -> None:
    """quantumarticle's bibliography demo p3 (a two-column paper): the headings ``6 Reference
    class misc`` and ``7.2 Reference class inbook`` side by side under a short line and a
    paragraph's last lines. A lone number is a word in a row's budget (only two digit groups
    or more are one figure, ``unruled._worded``): the headings are no row of a table."""

    def line(
        x0: float,
        y0: float,
        x1: float,
        y1: float,
        text: str,
        size: float = 11,
        family: str = "SFRM",
    ) -> Line:
        return Line(x0, y0, x1, y1, text, size, family=family, weight=400)

    lines = [
        line(73.6, 484.1, 136.9, 495.0, "Appearances:"),
        line(307.6, 485.6, 538.6, 497.3, "year/date, an eprint reference, and finally a"),
        line(307.6, 499.2, 386.0, 510.9, "custom note [1]."),
        line(56.7, 530.8, 200.3, 545.8, "6 Reference class misc", size=14.5, family="LMSans"),
        line(307.6, 533.0, 448.7, 545.5, "7.2 Reference class inbook", size=12.0, family="LMSans"),
    ]
    assert unruled_runs(lines, 595.3, 841.9) == []


def test_a_paragraph_set_in_under_the_last_line_of_another_is_no_wrapped_cell() -> None:
    """acmart's sample-sigconf-biblatex p2 (two columns): the right column's paragraph ends
    (``... effective use.``) and the next opens set in under it, between a short line and two
    headings side by side. A line set in under a cell is its wrapped line only when the cell
    ends no sentence (``rows._set_in``): no run of rows across the two columns."""

    def line(x0: float, y0: float, x1: float, text: str, bold: bool = False) -> Line:
        size, family = (11.0, "LinLibertineTB") if bold else (9.0, "LinLibertineT")
        return Line(
            x0, y0, x1, y0 + size, text, size, bold=bold, family=family, weight=700 if bold else 400
        )

    lines = [
        line(53.8, 327.9, 116.9, "in the source file:"),
        line(
            318.0, 324.6, 547.1, "explanation of these commands and tips for their effective use."
        ),
        line(
            327.9, 335.6, 559.5, "Note that authors’ addresses are mandatory for journal articles."
        ),
        line(53.8, 365.3, 157.8, "3 MODIFICATIONS", bold=True),
        line(318.0, 360.8, 457.1, "7 RIGHTS INFORMATION", bold=True),
    ]
    assert unruled_runs(lines, 612.0, 792.0) == []


def _set(rows: list[tuple[str, ...]], xs: tuple[float, ...]) -> list[Line]:
    """Lines set a row each, the row's texts from the ``xs`` given, each 80 points wide."""
    return [
        Line(x, 100 + 11 * j, x + 80, 108 + 11 * j, text, 9, family="Times", weight=400)
        for j, row in enumerate(rows)
        for x, text in zip(xs, row, strict=True)
    ]


def test_a_books_index_entries_and_their_page_lists_are_no_rows_of_cells() -> None:
    """A book's index: an entry of four words beside the pages it is on (``112, 140, 233,``).
    A number ending in a comma is a list's item, no digit group of one figure
    (``unruled._DIGITS``): each counts as a word, and the rows are over a row's budget."""
    index = [
        ("heat equation, boundary values", "112, 140, 233, 260"),
        ("heat flow in a rod", "17, 18, 45, 90"),
        ("Hilbert space, inner product", "301, 302, 310, 322"),
        ("Huygens principle and waves", "55, 61, 78, 80"),
    ]
    assert unruled_runs(_set(index, (72, 200)), 612.0, 792.0) == []


def test_contents_lines_whose_dot_leaders_are_lines_of_their_own_are_no_rows_of_cells() -> None:
    """Contents lines set as a section's title, its dot leaders and its page apart: a leader
    is no digit group (``unruled._DIGITS``: a group starts with a digit), so the leaders
    count as words and the rows are over a row's budget."""
    contents = [
        ("1.1 Scope of work", ". . . . . .", "3"),
        ("1.2 Terms and names", ". . . . . .", "7"),
        ("2.1 How it was made", ". . . . . .", "12"),
        ("2.2 What it holds", ". . . . . .", "19"),
    ]
    assert unruled_runs(_set(contents, (72, 165, 250)), 612.0, 792.0) == []


def _head_row_and_boxed_note(page: pymupdf.Page) -> None:
    """A boxed note of two cells of prose, then a drawn table's head row alone at the foot of
    the page (its body on the next page: the ReportLab user guide's p88)."""
    _grid(page, [72, 300, 520], [200, 230], {})
    page.insert_text((76, 211), "This note sits in a box of its own,", fontsize=9)
    page.insert_text((304, 211), "beside the second half of its sentence.", fontsize=9)
    _grid(page, [72, 155, 238, 320, 430, 512], [740, 760], {})
    for x, head in zip((78, 161, 244, 326, 436), ("A", "B", "C", "A paragraph", "D"), strict=True):
        page.insert_text((x, 753), head, fontsize=10)


def test_a_drawn_head_row_alone_is_a_table_a_boxed_note_is_not(tmp_path: Path) -> None:
    markdown = drawn_markdown(tmp_path, _head_row_and_boxed_note)
    assert pipe_rows(markdown) == [["A", "B", "C", "A paragraph", "D"]]
    assert "This note sits in a box of its own," in markdown


def _boxed_fields_over_a_paragraph(page: pymupdf.Page) -> None:
    """A form's row of boxed fields, then a paragraph three lines' height under it (a gap, not
    the next row of a body the rules do not draw)."""
    _grid(page, [72, 200, 330, 460], [300, 320], {})
    for x, head in zip((78, 206, 336), ("Name", "Date", "Signature"), strict=True):
        page.insert_text((x, 313), head, fontsize=10)
    page.insert_text((72, 360), "Send the form back to the office by the end of May.", fontsize=10)


def test_a_drawn_row_of_fields_over_a_paragraph_further_down_is_a_table(tmp_path: Path) -> None:
    """A head row alone reaches two lines' height down (``ruled._head_alone``): a paragraph
    further down is no body of it, so the row stays a table of its own."""
    markdown = drawn_markdown(tmp_path, _boxed_fields_over_a_paragraph)
    assert pipe_rows(markdown) == [["Name", "Date", "Signature"]]
    assert "Send the form back to the office by the end of May." in markdown


def _head_over_body(page: pymupdf.Page) -> None:
    """A drawn head row of three short cells over an unruled body of four rows in its columns
    and a rule under them (12s0324's crime table, cleanthesis' rules between rows only)."""
    page.draw_line((72, 200), (472, 200))
    page.draw_line((72, 222), (472, 222))
    for x in (72, 272, 372, 472):
        page.draw_line((x, 200), (x, 222))
    for x, head in ((76, "Product"), (276, "Quantity"), (376, "Price")):
        page.insert_text((x, 215), head, fontsize=10)
    for j, row in enumerate(_HEAD_BODY):
        for x, text in zip((76, 276, 376), row, strict=True):
            page.insert_text((x, 240 + 14 * j), text, fontsize=10)
    page.draw_line((72, 300), (472, 300))


_HEAD_BODY = [
    ("Pens", "4", "2,00"),
    ("Paper", "1", "5,50"),
    ("Ink", "2", "9,90"),
    ("Glue", "3", "1,20"),
]


@pytest.mark.parametrize("turned", [0, 90])
def test_a_drawn_head_row_over_an_unruled_body_is_one_table_with_it(
    tmp_path: Path, turned: int
) -> None:
    """A head row alone is a table only with no line under it within two lines' height
    (``ruled._head_alone``): here its body follows, so head and body are one table of five
    rows, not a table of the head and another of the body."""

    def draw(page: pymupdf.Page) -> None:
        _head_over_body(page)
        page.set_rotation(turned)

    markdown = drawn_markdown(tmp_path, draw)
    assert sum(ln.startswith("|---") for ln in markdown.splitlines()) == 1
    assert pipe_rows(markdown) == [["Product", "Quantity", "Price"], *map(list, _HEAD_BODY)]


def test_a_tight_bills_totals_rows_are_not_its_last_items_wrapped_lines(tmp_path: Path) -> None:
    """Rows set a line apart (no gap between them): a totals row whose amount's digits are
    grouped by a space (``3 001,80`` under ``500,00``) is a row of its own, not the wrapped
    second line of the item above (``grid._continued``: an amount under an amount)."""
    rows = pipe_rows(drawn_markdown(tmp_path, lambda p: _bill(p, shaded=False, pitch=14)))
    assert ["C", "Produit Trois", "1,00", "500,00", "500,00"] in rows
    assert ["", "Prix HTVA (A+B+C)", "", "", "3 001,80"] in rows
    assert ["E", "TVA (21,00% sur B+C)", "", "", "525,17"] in rows


_SHARES = [
    ("Région", "2023", "2024"),
    ("Nord", "1200", "3400"),
    ("", "35 %", "65 %"),
    ("Sud", "2100", "1900"),
    ("", "5,5 %", "48 %"),
    ("Est", "800", "950"),
]


def _shares(page: pymupdf.Page) -> None:
    """A French report's table set a line apart, each region's figures over their shares in
    per cent as France writes them (a space before the sign: ``35 %``, ``5,5 %``)."""
    for j, row in enumerate(_SHARES):
        page.insert_text((72, 200 + 12 * j), row[0], fontsize=10)
        for right, text in zip((250, 330), row[1:], strict=True):
            _right(page, right, 200 + 12 * j, text)


def test_shares_in_per_cent_under_amounts_are_rows_of_their_own(tmp_path: Path) -> None:
    """A per cent with a space before its sign is an amount (``cells.AMOUNT``): under the
    region's figures it is no wrapped line of them (``grid._continued``) but a row."""
    assert pipe_rows(drawn_markdown(tmp_path, _shares)) == [list(row) for row in _SHARES]


_INDEX = [
    ("\\parindent", "755, 771,", "2454, 2462, 2865, 3094"),
    ("\\received", "18, 1694", ""),
    ("\\refname", "279, 280", ""),
    ("\\relax", "176, 182, 195, 202,", "3103, 3210, 3214, 3218"),
    ("\\renewcommand", "468", ""),
]


def _index(page: pymupdf.Page) -> None:
    """A docstrip index's column (acmart p140, erdc p33): a command and the numbers of the
    lines it is used on, a long list wrapped onto a second line under the first's numbers."""
    y = 100
    for name, numbers, wrapped in _INDEX:
        page.insert_text((72, y), name, fontsize=9, fontname="cour")
        page.insert_text((200, y), numbers, fontsize=9)
        if wrapped:
            y += 11
            page.insert_text((200, y), wrapped, fontsize=9)
        y += 11


def test_an_index_entrys_wrapped_list_of_numbers_stays_in_its_cell(tmp_path: Path) -> None:
    """A list of numbers is no amount (``cells.AMOUNT``: spaces group only thousands): the
    wrapped second line of an entry's numbers carries on its cell (``grid._continued``), not
    a row of its own nor the next entry's."""
    rows = pipe_rows(drawn_markdown(tmp_path, _index))
    assert rows == [[name, " ".join(filter(None, more))] for name, *more in _INDEX]


def _signatures(page: pymupdf.Page) -> None:
    """A Word contract's signature block (sample_contract p10, as it sets it): two numbered
    parties in bold (the second's name over two lines, set in), two columns of ``By:`` over a
    blank drawn as underscores, ``SIGNED`` and ``PRINTED`` under blank lines,
    a consultant's fields over blanks, then numbered approval labels ending in a colon over
    blanks and their officers' titles, a distribution list."""
    blank = "_" * 30
    for x, y, text, font in [
        (54, 183, "1.  CONSULTANT", "tibo"),
        (270, 183, "2.  SANTA CRUZ COUNTY REGIONAL", "tibo"),
        (306, 199, "TRANSPORTATION COMMISSIONS", "tibo"),  # set in under it, over 0.3 pages
        (54, 221, f"By: {blank}", "tiro"),
        (270, 221, "By:", "tiro"),
        (306, 221, blank, "tiro"),
        (54, 234, "       SIGNED", "tiro"),  # Word's indent: spaces from the column's start
        (306, 234, "              SIGNED", "tiro"),
        (54, 246, f"      {blank}", "tiro"),
        (306, 246, blank, "tiro"),
        (54, 259, "       PRINTED", "tiro"),
        (306, 259, "              PRINTED", "tiro"),
        (54, 285, "Company Name:  _____________", "tiro"),
        (54, 297, "Address:             ______________", "tiro"),
        (54, 310, "Telephone:(         ) __________", "tiro"),
        (54, 322, "Fax: (         )  __________", "tiro"),
        (54, 335, "Email:  ________________________", "tiro"),
        (54, 360, "3. APPROVED AS TO INSURANCE:", "tibo"),
        (270, 360, "4. APPROVED AS TO FORM:", "tibo"),
        (54, 385, blank, "tiro"),
        (270, 385, blank, "tiro"),
        (54, 398, "Administrative Services Officer", "tiro"),
        (270, 398, "COMMISSION Counsel", "tiro"),
        (54, 423, "DISTRIBUTION:", "tiro"),
        (90, 435, "RTC Fiscal & Contract Manager", "tiro"),
        (90, 447, "CONSULTANT", "tiro"),
    ]:
        page.insert_text((x, y), text, fontsize=11, fontname=font)


def test_a_signature_blocks_blanks_are_no_cells_and_its_rows_stay_a_grid(tmp_path: Path) -> None:
    """A line that is only a blank to fill in is no cell and no row (``cells.spaced_apart``);
    a numbered label ending in a colon is a form's label (``rows._LABEL``): the approval row
    stays the head of its grid; the parties' row heads the signatures' grid, the second's
    name set in under it held to it (``rows._set_in``): no heading."""
    markdown = drawn_markdown(tmp_path, _signatures, width=612, height=792)
    cells = [" ".join(cell.split()) for row in pipe_rows(markdown) for cell in row if cell]
    for cell in ("By:", "SIGNED", "PRINTED"):
        assert cells.count(cell) == 2
    assert "1. CONSULTANT" in cells and "4. APPROVED AS TO FORM:" in cells
    assert "Administrative Services Officer" in cells and "COMMISSION Counsel" in cells
    assert not any("___" in cell for cell in cells)
    assert not re.search(r"^#", markdown, re.MULTILINE)


_FIELDS = ["Firma:", "Name:", "Ort:", "E-Mail:"]


def _questionnaire(page: pymupdf.Page) -> None:
    """A questionnaire's foot (hagenberg-thesis' fragebogen p2): a field a row, its label
    ending in a colon and a blank of underscores right of it, a paragraph in the next
    column at the same heights."""
    for j, label in enumerate(_FIELDS):
        page.insert_text((20, 772 + 15 * j), label, fontsize=9)
        page.insert_text((60, 772 + 15 * j), "_" * 54, fontsize=8)
    for j, text in enumerate(_NOTE):
        page.insert_text((334, 772 + 10 * j), text, fontsize=8)


_NOTE = [
    "Wenn Sie die Erhebung nicht online beantwortet",
    "haben, sondern mittels dieses Fragebogens, so",
    "ersuchen wir Sie, diesen an folgende Adresse zu",
    "senden oder direkt im Gemeindeamt abzugeben.",
]


def test_a_forms_fields_of_a_label_and_a_blank_each_stay_a_table(tmp_path: Path) -> None:
    """A blank right of its row's one label ending in a colon is the field's value
    (``cells._fields``): the fields stay a table of label | blank, not a blank left out and
    the labels run into one paragraph (a signature grid's blanks beside more cells go)."""
    rows = pipe_rows(drawn_markdown(tmp_path, _questionnaire, width=595, height=842))
    assert rows == [[label, "_" * 54] for label in _FIELDS]


_PAIRS = [("Name:", "Date:"), ("Firm:", "Phone:"), ("Street:", "City:")]


def _two_fields_a_row(page: pymupdf.Page) -> None:
    """A form's lines of two fields each: a label ending in a colon, a blank of underscores
    right of it, then the second field's label and blank (``Name: ____    Date: ____``)."""
    for j, pair in enumerate(_PAIRS):
        for x, label in zip((72, 320), pair, strict=True):
            page.insert_text((x, 100 + 24 * j), label, fontsize=11)
            page.insert_text((x + 58, 100 + 24 * j), "_" * 25, fontsize=11)


def test_a_forms_lines_of_two_fields_keep_both_blanks_in_their_rows(tmp_path: Path) -> None:
    """A blank whose nearest line to the left is a label ending in a colon is that field's
    value (``cells._fields``), the second field's as the first's: each row is label | blank
    | label | blank, no blank left over under the table."""
    markdown = drawn_markdown(tmp_path, _two_fields_a_row)
    blank = "_" * 25
    assert pipe_rows(markdown) == [[first, blank, second, blank] for first, second in _PAIRS]
    assert markdown.count(blank) == 2 * len(_PAIRS)


def test_a_blank_with_no_line_left_of_it_is_no_field_of_a_label_right_of_it() -> None:
    """A blank opening its row (a signature's line, ``Date:`` after it) has no label: none of
    the row's lines is left of it (``cells._fields``), so it is no field's value."""
    lines = [
        Line(x, 100, x + w, 112, text, 11, family="Helvetica", weight=400)
        for x, w, text in ((72, 150, "_" * 30), (300, 30, "Date:"))
    ]
    assert _fields(lines) == set()


def test_a_rows_many_blanks_are_told_apart_in_time_linear_in_them() -> None:
    """20,000 label | blank pairs on one row: each blank's field found in well under a second
    of CPU (each blank used to look at every line of its row: ~20 s)."""
    lines = [
        Line(x, 100, x + w, 112, text, 11, family="Helvetica", weight=400)
        for i in range(20000)
        for x, w, text in ((100.0 * i, 30, "Name:"), (100.0 * i + 40, 50, "_" * 10))
    ]
    assert len(_fields(lines)) == 20000
    assert _cpu(lambda: _fields(lines)) < 0.5


_LISTINGS = (  # (left column's line number and code, right column's two code pieces)
    (("15", "\\def \\@makefntext ##1{\\noindent"), ("\\small", "9 pt")),
    (("16", "\\small \\@thefnmark. \\it ##1}"), ("\\tiny", "5 pt")),
    (("17", "\\renewcommand{\\thempfootnote}%"), ("\\large", "11 pt")),
)


def _two_column_listings(page: pymupdf.Page) -> None:
    """A two-column class manual (elbioimp p2): prose in both columns, and on the same rows a
    numbered listing in the left column and a listing of two pieces in the right one, set in, in a
    typewriter face (each piece a line of its own to MuPDF)."""
    for x in (72, 312):
        for i in range(10):
            page.insert_text((x, 80 + 11 * i), _COLUMN_TEXT[i % 3][:44], fontsize=10, fontname="tiro")
        for i in range(10):
            page.insert_text((x, 240 + 11 * i), _COLUMN_TEXT[i % 3][:44], fontsize=10, fontname="tiro")
    for i, ((number, code), (size, points)) in enumerate(_LISTINGS):
        y = 200 + 11 * i
        page.insert_text((84, y), number, fontsize=9, fontname="cour")
        page.insert_text((100, y), code, fontsize=9, fontname="cour")
        page.insert_text((324, y), size, fontsize=9, fontname="cour")
        page.insert_text((420, y), points, fontsize=9, fontname="cour")


def test_listings_of_two_columns_on_one_row_stay_apart(tmp_path: Path) -> None:
    """elbioimp p2: each column's listing row is one line of its own; no line runs from the
    left column's code into the right column's (``\\it ##1}   \\tiny``)."""
    markdown = drawn_markdown(tmp_path, _two_column_listings)
    lines = markdown.splitlines()
    assert any(ln.startswith("16") and ln.rstrip().endswith("##1}") for ln in lines)
    assert not any("##1}" in ln and "\\tiny" in ln for ln in lines)
# -- tables of rules across only (tables/banded.py), as quantumarticle p8 and abntex2cite p22
# (split extra11) print them ---------------------------------------------------------------
_OPTIONS = [
    ("accepted=YYYY-MM-DD", ["Adds the note 'Accepted in Quantum YYYY-MM-DD' to the document."]),
    ("unpublished", ["Intended for works that are not published in Quantum. Disables all",
                     "Quantum-related branding."]),
    ("noarxiv", ["Intended for works that are not meant to be uploaded to the arXiv. Dis-",
                 "ables all arXiv-related sanity checks in the document. This option also",
                 "sets unpublished."]),
]  # fmt: skip


def _rule(
    page: pymupdf.Page, y: float, x0: float = 85, x1: float = 510, width: float = 0.5
) -> None:
    page.draw_line((x0, y), (x1, y), width=width)


def _options(page: pymupdf.Page, options: list[tuple[str, list[str]]], top: bool = False) -> None:
    """A section heading, a paragraph, then an option | description table in booktabs: the
    head row just over a rule (a top rule over it too where ``top``) and set apart from the
    paragraph by two lines' space, options in a typewriter face, descriptions wrapped, a
    thicker bottom rule; a paragraph under it."""
    page.insert_text((85, 80), "3.4 Publication", fontsize=12, fontname="hebo")
    page.insert_text((85, 102), "By default, all documents that are created with this class are",
                     fontsize=10, fontname="tiro")  # fmt: skip
    page.insert_text((85, 115), "treated as possible submissions to the journal.", fontsize=10,
                     fontname="tiro")  # fmt: skip
    if top:
        _rule(page, 140, width=0.8)
    page.insert_text((91, 153), "Option", fontsize=10, fontname="helv")
    page.insert_text((209, 153), "Description", fontsize=10, fontname="helv")
    _rule(page, 158)
    y = 158.0
    for option, lines in options:
        y += 14
        page.insert_text((91, y), option, fontsize=9, fontname="cour")
        for i, line in enumerate(lines):
            page.insert_text((209, y + 13 * i), line, fontsize=10, fontname="tiro")
        y += 13 * (len(lines) - 1)
    _rule(page, y + 6, width=0.8)
    page.insert_text((85, y + 40), "The class aims to be compatible with documents that were",
                     fontsize=10, fontname="tiro")  # fmt: skip
    page.insert_text((85, y + 53), "typeset with other document classes before this one.",
                     fontsize=10, fontname="tiro")  # fmt: skip


def test_a_table_of_rules_across_keeps_wrapped_descriptions_in_their_cells(tmp_path: Path) -> None:
    """Descriptions wrapped over two and three lines under an option each: one row an option,
    its description's lines one cell (a word broken at a line's end kept one word); the head
    is no heading and the paragraphs around the table stay text."""
    markdown = drawn_markdown(tmp_path, lambda page: _options(page, _OPTIONS))
    assert pipe_rows(markdown) == [
        ["Option", "Description"],
        ["accepted=YYYY-MM-DD", _OPTIONS[0][1][0]],
        ["unpublished", " ".join(_OPTIONS[1][1])],
        ["noarxiv", "Intended for works that are not meant to be uploaded to the arXiv. Dis-ables"
         " all arXiv-related sanity checks in the document. This option also sets unpublished."],
    ]  # fmt: skip
    assert "#" not in markdown.replace("# 3.4", "")
    assert "treated as possible submissions to the journal." in markdown


def test_one_row_under_a_ruled_head_is_a_table(tmp_path: Path) -> None:
    """A booktabs table of one option (head, rule, one row, rule), with a top rule and without:
    a table of two rows, not two headings over a line of code."""
    one = [("openbib", ["Display elements of bibliography entries on separate lines, see here."])]
    for top in (False, True):
        markdown = drawn_markdown(tmp_path, lambda page, top=top: _options(page, one, top))
        assert pipe_rows(markdown) == [["Option", "Description"], ["openbib", one[0][1][0]]]


def _ruled_rows(page: pymupdf.Page, rows: int) -> None:
    """A caption over a table with a rule between every row (abntex2cite's): a field's name,
    where it is used and its description wrapped over two lines, ``rows`` rows (drawn as one
    shape: a page of a thousand rows is made in a moment)."""
    shape = page.new_shape()
    shape.insert_text((147, 60), "Tabela 13: Campos relativos a descrição física do documento.",
                      fontsize=10, fontname="tiro")  # fmt: skip
    for x, head in ((150, "campo"), (250, "entradas"), (350, "descrição")):
        shape.insert_text((x, 82), head, fontsize=10, fontname="tiro")
    y = 86.0
    for i in range(rows):
        shape.insert_text((150, y + 12), f"field{i}", fontsize=9, fontname="cour")
        shape.insert_text((250, y + 12), "book", fontsize=10, fontname="tiro")
        shape.insert_text((350, y + 12), "texto que mostra as dimen-", fontsize=10, fontname="tiro")
        shape.insert_text((350, y + 25), f"sões do documento {i}.", fontsize=10, fontname="tiro")
        y += 30
    for at in (70, 86, *(86 + 30 * (i + 1) for i in range(rows))):
        shape.draw_line((147, at), (496, at))
    shape.finish(width=0.5)
    shape.commit()


def test_a_table_with_a_rule_between_rows_reads_each_band_as_a_row(tmp_path: Path) -> None:
    markdown = drawn_markdown(tmp_path, lambda page: _ruled_rows(page, 3))
    assert pipe_rows(markdown) == [["campo", "entradas", "descrição"]] + [
        [f"field{i}", "book", f"texto que mostra as dimen-sões do documento {i}."] for i in range(3)
    ]
    assert markdown.startswith("Tabela 13: Campos relativos")


def test_a_thousand_banded_rows_are_read_in_time_linear_in_them(tmp_path: Path) -> None:
    """500 and 1,000 rows with a rule between each: each band is looked for by bisection, once,
    so twice the rows take about twice the CPU in ``banded_tables`` (four times where a band
    looked at every band before it), well under a second."""
    seconds = []
    for rows in (500, 1000):
        path = tmp_path / f"rows{rows}.pdf"
        pdf(path, [drawn(lambda page, n=rows: _ruled_rows(page, n), height=86 + 30 * rows + 60)])
        with pymupdf.open(path) as doc:
            text = read_page(doc[0], 100000)
        tables = banded_tables(text, text.lines, OutputSettings(), [])
        assert len(tables) == 1 and tables[0].markdown.count("\n") == rows + 1
        seconds.append(_cpu(lambda t=text: banded_tables(t, t.lines, OutputSettings(), [])))
    assert seconds[1] < 0.5 and seconds[1] < 3 * seconds[0] + 0.01


def _algorithm(page: pymupdf.Page) -> None:
    """An algorithm float: a top rule, its caption, a rule, numbered steps, a bottom rule."""
    _rule(page, 80, width=0.8)
    page.insert_text((85, 93), "Algorithm 1", fontsize=10, fontname="hebo")
    page.insert_text((150, 93), "Euclid's algorithm", fontsize=10, fontname="tiro")
    _rule(page, 98)
    steps = ["procedure Euclid(a, b)", "r <- a mod b", "while r != 0 do", "a <- b", "b <- r",
             "r <- a mod b", "end while", "return b"]  # fmt: skip
    for i, step in enumerate(steps):
        page.insert_text((85, 112 + 13 * i), f"{i + 1}:", fontsize=8, fontname="helv")
        page.insert_text((105 + 10 * (1 < i < 7), 112 + 13 * i), step, fontsize=10, fontname="tiro")
    _rule(page, 112 + 13 * len(steps), width=0.8)


def _note_boxes(page: pymupdf.Page) -> None:
    """A page header over its rule, then two notes between rules of the page's width, a
    paragraph under them, and a footer rule: no band holds a row of two short cells over
    rows that keep to its columns."""
    page.insert_text((85, 50), "Debian-Referenz", fontsize=9, fontname="helv")
    page.insert_text((470, 50), "62 / 248", fontsize=9, fontname="helv")
    _rule(page, 56)
    y = 90.0
    for label in ("Anmerkung", "Tipp"):
        _rule(page, y)
        page.insert_text((90, y + 14), label, fontsize=10, fontname="hebo")
        page.insert_text((90, y + 28), "Wenn Sie Probleme beim Laden von Modulen feststellen,",
                         fontsize=10, fontname="helv")  # fmt: skip
        page.insert_text((90, y + 41), "lesen Sie den Abschnitt 9.5.3 der Referenz.", fontsize=10,
                         fontname="helv")  # fmt: skip
        _rule(page, y + 50)
        y += 80
    page.insert_text((85, y + 20), "Das Programm findet weitere Informationen im System.",
                     fontsize=10, fontname="helv")  # fmt: skip
    _rule(page, 800)


@pytest.mark.parametrize("draw", [_algorithm, _note_boxes])
def test_rules_across_around_no_head_of_short_cells_make_no_table(
    tmp_path: Path, draw: Callable[[pymupdf.Page], None]
) -> None:
    """An algorithm's float (its caption one cell) and notes boxed by rules under a page header
    (its page number set apart, but the rows under the header's rule cross its columns)."""
    markdown = drawn_markdown(tmp_path, draw)
    assert not pipe_rows(markdown)


_GROUPS = [["fastidii ea ius", "germano", "demonstratea"],
           ["suscipit instructior", "titulo", "personas"],
           ["quaestio philosophia", "facto", "demonstrated Knuth"]]  # fmt: skip


def _row_groups(page: pymupdf.Page) -> None:
    """ClassicThesis's Table 2.1: a running head, a top rule, a head in small capitals, a rule,
    two rows, a rule between row groups, one row, a bottom rule, the caption under it."""
    page.insert_text((290, 40), "2.2 another section in this chapter", fontsize=8, fontname="helv")
    _rule(page, 70, 100, 430, 0.8)
    for x, head in zip(
        (104, 260, 330), ("labitur bonorum pri no", "que vista", "human"), strict=True
    ):
        page.insert_text((x, 84), head, fontsize=8, fontname="helv")
    _rule(page, 92, 100, 430)
    for y, row in zip((108, 126, 152), _GROUPS, strict=True):
        for x, cell in zip((104, 260, 330), row, strict=True):
            page.insert_text((x, y), cell, fontsize=10, fontname="tiro")
    _rule(page, 135, 100, 430)
    _rule(page, 160, 100, 430, 0.8)
    page.insert_text((160, 180), "Table 2.1: Autem timeam deleniti usu id. Knuth", fontsize=9,
                     fontname="tiro")  # fmt: skip


def test_a_row_group_of_one_row_under_a_rule_is_no_head(tmp_path: Path) -> None:
    """The row over the rule between row groups is a row of the table, not the head of a
    table of the row under it: the head is the row over the first rule, set apart."""
    rows = pipe_rows(drawn_markdown(tmp_path, _row_groups))
    assert rows == [["labitur bonorum pri no", "que vista", "human"], *_GROUPS]


def _double_rules(page: pymupdf.Page) -> None:
    """abntex2's Tabela 3: a caption over a small table between double rules, no rule under
    its head; a numbered heading and a paragraph under it."""
    page.insert_text((230, 70), "Tabela 3 - Tabela de conversão de acentuação.", fontsize=10,
                     fontname="tiro")  # fmt: skip
    for y in (80, 82, 140, 142):
        _rule(page, y, 310, 477, 0.4)
    for y, (accent, code) in zip(
        (95, 108, 121, 134),
        (("acento", "bibtex"), ("à á ã", "\\'a \\`a \\~a"), ("í", "{\\'\\i}"), ("ç", "{\\c c}")),
        strict=True,
    ):
        page.insert_text((318, y), accent, fontsize=10, fontname="tiro")
        page.insert_text((380, y), code, fontsize=10, fontname="helv" if y == 95 else "cour")
    page.insert_text((80, 190), "2.17 Precisa de ajuda?", fontsize=14, fontname="hebo")
    page.insert_text((80, 215), "Consulte a FAQ com perguntas frequentes e comuns no portal.",
                     fontsize=10, fontname="tiro")  # fmt: skip


def test_a_head_no_rule_underlines_opens_the_table_between_its_rules(tmp_path: Path) -> None:
    """Between double rules, the first row of short cells is the head and the rows under it,
    each keeping to its columns, the table's rows."""
    rows = pipe_rows(drawn_markdown(tmp_path, _double_rules))
    assert rows == [
        ["acento", "bibtex"], ["à á ã", "\\'a \\`a \\~a"], ["í", "{\\'\\i}"], ["ç", "{\\c c}"]
    ]  # fmt: skip


def _boxed_label(page: pymupdf.Page) -> None:
    """A command's signature between two rules, its argument set apart in another face (two
    pieces: a head's two cells, to a careless reading), and one line of text under it."""
    _rule(page, 100, 85, 400)
    page.insert_text((90, 114), "\\schoolcode{", fontsize=10, fontname="cour")
    page.insert_text((180, 114), "school code}", fontsize=10, fontname="tiit")
    page.insert_text((90, 130), "Sets the code.", fontsize=10, fontname="tiro")
    _rule(page, 136, 85, 400)
    page.insert_text((85, 170), "The next command sets the student's number on the cover page.",
                     fontsize=10, fontname="tiro")  # fmt: skip


def test_rows_of_one_cell_under_a_ruled_head_make_no_table(tmp_path: Path) -> None:
    """Most rows under the head hold one cell (a short line under a signature): no table."""
    markdown = drawn_markdown(tmp_path, _boxed_label)
    assert not pipe_rows(markdown)
    assert "Sets the code." in markdown


def _text(page: pymupdf.Page, x: float, y: float, text: str, size: float = 10) -> None:
    page.insert_text((x, y), text, fontsize=size, fontname="tiro")


_WORDS = "the model reads each page of the document and keeps its lines in order so".split()  # noqa: SIM905


def _two_columns(page: pymupdf.Page) -> None:
    """A two-column paper page: a running head whose two pieces start the two columns over a
    rule across the text width, fifty rows of body text a column, a footer rule as wide."""
    _text(page, 72, 50, "Comput. Linguistics", 9)
    _text(page, 306, 50, "Smith and Jones", 9)
    _rule(page, 56, 72, 523)
    _body_columns(page, 80)
    _rule(page, 760, 72, 523)
    _text(page, 290, 775, "17", 9)


def _body_columns(page: pymupdf.Page, top: float) -> None:
    """Fifty rows of body text in two columns (x 72 and 306), 13 points apart from ``top``."""
    for i in range(50):
        _text(page, 72, top + 13 * i, " ".join(_WORDS[i % 5 : i % 5 + 7]))
        _text(page, 306, top + 13 * i, " ".join(_WORDS[i % 4 : i % 4 + 7]))


def _close_two_columns(page: pymupdf.Page) -> None:
    """Two columns of body text set close under a running head's rule and over a footer rule
    (as close as booktabs' rows): the running head's pieces are no head, of more words than a
    table's head cells."""
    _text(page, 72, 50, "Proceedings of the Annual Meeting", 9)
    _text(page, 306, 50, "Smith and Jones: reading long documents", 9)
    _rule(page, 56, 72, 523)
    _body_columns(page, 66)
    _rule(page, 66 + 13 * 49 + 5, 72, 523)
    _text(page, 290, 775, "17", 9)


def _two_column_index(page: pymupdf.Page) -> None:
    """An index in two columns under a running head whose two pieces start the columns."""
    _text(page, 72, 50, "INDEX", 9)
    _text(page, 306, 50, "INDEX", 9)
    _rule(page, 56, 72, 523)
    for i in range(45):
        _text(page, 72, 80 + 14 * i, f"term{i}, {i * 3 + 1}")
        _text(page, 306, 80 + 14 * i, f"word{i}, {i * 5 + 2}")
    _rule(page, 720, 72, 523)


def _letter(page: pymupdf.Page) -> None:
    """A letter under its letterhead's rule (name left, telephone right), short lines all in
    the first column, a footer rule with the bank's details."""
    _text(page, 72, 50, "ACME GmbH", 14)
    _text(page, 420, 50, "Tel. 030 1234", 9)
    _rule(page, 58, 72, 523)
    for y, line in ((100, "Herrn Max Muster"), (112, "Musterweg 1"), (124, "12345 Berlin"),
                    (170, "Sehr geehrter Herr Muster,"), (190, "vielen Dank."),
                    (220, "Mit freundlichen Gruessen"), (260, "Erika Beispiel")):  # fmt: skip
        _text(page, 72, y, line)
    _rule(page, 780, 72, 523)
    _text(page, 72, 792, "Sparkasse Berlin", 8)
    _text(page, 300, 792, "IBAN DE12 3456", 8)


def _fill_in_form(page: pymupdf.Page) -> None:
    """A blank form: label pairs over fill-in lines of one width, two fields a row."""
    _text(page, 72, 60, "Application form", 14)
    y = 100
    for left, right in (("Surname", "Given name"), ("Date of birth", "Place of birth"),
                        ("Street", "City"), ("Phone", "E-mail")):  # fmt: skip
        _text(page, 72, y, left, 9)
        _text(page, 300, y, right, 9)
        _rule(page, y + 18, 72, 523)
        y += 40
    _text(page, 72, y + 10, "Signature", 9)
    _text(page, 300, y + 10, "Date", 9)
    _rule(page, y + 28, 72, 523)


def _definition(page: pymupdf.Page) -> None:
    """A definition's label and name over a rule, its short lines under it, a rule."""
    _text(page, 80, 115, "Definition 2")
    _text(page, 300, 115, "(Group)")
    _rule(page, 122, 72, 523)
    for i, line in enumerate(("A set G with an operation", "that is associative,",
                              "has a neutral element", "and inverses.")):  # fmt: skip
        _text(page, 80, 137 + 12 * i, line)
    _rule(page, 180, 72, 523)


def _legend(page: pymupdf.Page) -> None:
    """A figure's caption between rules, its legend's two entries under it, a rule."""
    _rule(page, 300, 72, 523)
    _text(page, 72, 314, "Figure 3:")
    _text(page, 130, 314, "Loss per epoch.")
    _rule(page, 320, 72, 523)
    _text(page, 72, 334, "Training")
    _text(page, 72, 346, "Validation")
    _rule(page, 352, 72, 523)


@pytest.mark.parametrize(
    "draw",
    [
        _two_columns,
        _close_two_columns,
        _two_column_index,
        _letter,
        _fill_in_form,
        _definition,
        _legend,
    ],
)
def test_rules_across_that_bound_no_rows_of_cells_make_no_table(
    tmp_path: Path, draw: Callable[[pymupdf.Page], None]
) -> None:
    """A running head's rule over a page's two columns of text or an index (the rows stand far
    under the rule, no booktabs padding: ``banded._tight``; set close, the head's pieces are of
    too many words), a form's labels over fill-in lines
    (far over them), a letter, a definition and a legend under a rule (their rows one cell
    each, the head two): no table, the text read as before."""
    markdown = drawn_markdown(tmp_path, draw)
    assert not pipe_rows(markdown)


def _file_groups(page: pymupdf.Page) -> None:
    """hfutthesis-doc's Table 1: a top rule, a head, a rule; row groups between rules, each
    group's label on its first row, one file and its purpose a row (the first purpose wrapped
    over two lines); a bottom rule."""
    _rule(page, 152.5, 182, 461, 0.8)
    for x, head in zip((189, 237, 334), ("Kind", "File", "Purpose"), strict=True):
        _text(page, x, 165, head, 9)
    _rule(page, 172, 182, 461)
    y = 184.0
    for group, files in _GROUP_FILES:
        _text(page, 189, y, group, 9)
        for name, purpose in files:
            page.insert_text((237, y), name, fontsize=9, fontname="cour")
            for line in purpose.split(" / "):
                _text(page, 334, y, line, 9)
                y += 14
        _rule(page, y - 6, 182, 461, 0.8 if group == _GROUP_FILES[-1][0] else 0.5)
        y += 10


_GROUP_FILES = [
    ("Template", [("hfut.cls", "the class, loaded / by documentclass"), ("hfut-a.bst", "BibTeX style"),
                  ("hfut-a.bbx", "BibLaTeX style")]),
    ("Manual", [("hfut-doc.tex", "its source"), ("hfut-doc.pdf", "what you read")]),
]  # fmt: skip


def test_a_row_group_reads_a_row_each_line_under_its_label(tmp_path: Path) -> None:
    """A line with cells in two columns opens a row though its first cell is blank: each file
    keeps its purpose (``banded_tables`` itself, as on hfutthesis-doc p2, whose table the
    aligned rows leave: they glued a group's files into one row of its label)."""
    pdf(tmp_path / "groups.pdf", [drawn(_file_groups)])
    with pymupdf.open(tmp_path / "groups.pdf") as doc:
        text = read_page(doc[0], 5000)
    (table,) = banded_tables(text, text.lines, OutputSettings(), [])
    assert pipe_rows(table.markdown) == [["Kind", "File", "Purpose"]] + [
        [group if k == 0 else "", name, purpose.replace(" / ", " ")]
        for group, files in _GROUP_FILES
        for k, (name, purpose) in enumerate(files)
    ]


def _centred_groups(page: pymupdf.Page) -> None:
    """suftesi's Table 1: a head centred over left-aligned columns (no column starts at its
    cells: no table of them), then row groups between rules, one or two rows each, set close
    under the rule over them and over the rule under them."""
    _rule(page, 84.6, 84, 515, 0.8)
    _text(page, 136.5, 99, "Context")
    _text(page, 348.4, 99, "Packages")
    _rule(page, 105.4, 84, 515)
    _text(page, 155.3, 120, "Global")
    for i, line in enumerate(("appendix, caption, color, crop, enumitem,",
                              "etoolbox, fancyhdr, fixltxhyph, fontenc,",
                              "geometry, iftex, microtype, multicol,", "xkeyval, zref")):  # fmt: skip
        _text(page, 235.5, 120 + 14.3 * i, line)
    _rule(page, 168.7, 84, 515)
    _text(page, 155.3, 184, "pdfLaTeX only")
    _text(page, 235.5, 184, "fontenc, substitutefont")
    _rule(page, 189, 84, 515)
    _text(page, 155.3, 204, "LuaLaTeX only")
    _text(page, 235.5, 204, "luatex85")
    _text(page, 155.3, 218, "XeLaTeX only")
    _text(page, 235.5, 218, "fontspec")
    _rule(page, 223, 84, 515)
    _text(page, 155.3, 237, "Math")
    _text(page, 235.5, 237, "amsthm, mathalpha")
    _rule(page, 243, 84, 515, 0.8)


def test_a_rule_between_row_groups_opens_no_table(tmp_path: Path) -> None:
    """The rules between a table's row groups are no top rules and a group's last row over one
    no head (rows set close under the rule over them): no table of a group's rows under another
    group taken as its head."""
    markdown = drawn_markdown(tmp_path, _centred_groups)
    assert not pipe_rows(markdown)
    assert "pdfLaTeX only" in markdown and "luatex85" in markdown


def _timesheet(page: pymupdf.Page) -> None:
    """milog's blank timesheet: a head of six cells over a rule, a row a day with only its
    number filled in, a rule between the rows; a signature's label under it."""
    _text(page, 80, 95, "Firma:")
    _rule(page, 100, 78, 520, 0.8)
    for x, head in zip((82, 130, 200, 280, 350, 430), _SHEET, strict=True):
        _text(page, x, 112, head, 9)
    for day in range(9):
        _rule(page, 116 + 16 * day, 78, 520)
        _text(page, 82, 128 + 16 * day, str(day + 1), 9)
    _rule(page, 116 + 16 * 9, 78, 520, 0.8)
    _text(page, 80, 300, "Unterschrift:")


_SHEET = ("Tag", "Beginn", "Pause", "Ende", "Dauer", "Bemerkung")


def test_a_blank_form_of_many_head_cells_over_row_numbers_is_a_table(tmp_path: Path) -> None:
    """Rows of one cell under a head of six: a blank form's grid, a table (rows of one cell
    under a head of two are a label boxed by rules over its text)."""
    rows = pipe_rows(drawn_markdown(tmp_path, _timesheet))
    assert rows == [list(_SHEET)] + [[str(day + 1), "", "", "", "", ""] for day in range(9)]


def _captioned(page: pymupdf.Page) -> None:
    """shtthesis's Table 2.2: its caption's number and title (two short pieces) just over the
    top rule, the head under it, a rule, rows whose notes wrap, a bottom rule."""
    _text(page, 195, 191, "Table 2.2")
    _text(page, 241, 191, "Degree set by shtsetup")
    _rule(page, 204.7, 89, 506)
    for x, head in zip((96, 176, 291), ("key", "value sample", "note"), strict=True):
        _text(page, x, 225, head)
    _rule(page, 234.5, 89, 506)
    y = 252.0
    for key, value, note in _DEGREES:
        page.insert_text((96, y), key, fontsize=10, fontname="cour")
        _text(page, 176, y, value)
        for line in note.split(" / "):
            _text(page, 291, y, line)
            y += 14
        y += 4
    _rule(page, y - 10, 89, 506, 0.8)
    _text(page, 90, y + 30, "The degree's type sets the cover's text.")


_DEGREES = [
    ("degree-name", "Doctor", "the degree's name in / Chinese, as the rules / name it"),
    ("degree-name*", "Doctor of Philosophy", "the degree's name in / English"),
]


def test_a_caption_over_the_top_rule_is_no_head_of_the_table_under_it(tmp_path: Path) -> None:
    """The caption's two short pieces just over the top rule are tried as a head first; no row
    keeps to their columns, so the row under the top rule is the head (``banded_tables``
    itself: here the aligned rows take the table first, as they did not on shtthesis p26)."""
    pdf(tmp_path / "captioned.pdf", [drawn(_captioned)])
    with pymupdf.open(tmp_path / "captioned.pdf") as doc:
        text = read_page(doc[0], 5000)
    (table,) = banded_tables(text, text.lines, OutputSettings(), [])
    assert pipe_rows(table.markdown) == [["key", "value sample", "note"]] + [
        [key, value, note.replace(" / ", " ")] for key, value, note in _DEGREES
    ]


# -- docstrip listings, their lines numbered (revtex's ltxgrid p110, ltxutil p28) ------------
_DOCSTRIP = ["\\appdef\\class@documenthook{%", " \\@ifpackageloaded{lineno}{%",
             "  \\@ifx{\\linenomathWithnumbers}{%", "   \\@ifx{\\endlinenomath}{%",
             "    \\true@sw", "   }{\\false@sw}%", "  }{\\false@sw}%", " }{\\false@sw}%",
             " {%", "  \\class@info{Overriding lineno.sty}%", " }%", "}%"]  # fmt: skip


def _docstrip(page: pymupdf.Page, number_font: str) -> None:
    """A paragraph, a listing of twelve lines each numbered left of it (right-aligned, in
    ``number_font``), its code in a typewriter face set in by its nesting, a paragraph."""
    _text(page, 150, 80, "We patch only if we recognize the definitions of all the procedures.")
    for i, code in enumerate(_DOCSTRIP):
        number = str(2796 + i)
        page.insert_text((170 - 5.3 * len(number), 100 + 11 * i), number, fontsize=8.8,
                         fontname=number_font)  # fmt: skip
        indent = len(code) - len(code.lstrip())
        page.insert_text((176 + 5.3 * indent, 100 + 11 * i), code.strip(), fontsize=8.8,
                         fontname="cour")  # fmt: skip
    _text(page, 150, 250, "We commence overriding the procedures of lineno.sty.")


@pytest.mark.parametrize("number_font", ["tiro", "cour"])
def test_a_listings_numbered_lines_make_no_table(tmp_path: Path, number_font: str) -> None:
    """Each line's number and its code are no two cells of a table (they were: a column of
    numbers beside a column of code, the paragraphs around cut off): the lines read in order,
    each with its number."""
    markdown = drawn_markdown(tmp_path, lambda page: _docstrip(page, number_font))
    assert not pipe_rows(markdown)
    at = [markdown.find(str(2796 + i)) for i in range(len(_DOCSTRIP))]
    assert -1 not in at and at == sorted(at)
    assert re.search(r"2797 +\\@ifpackageloaded\{lineno\}\{%", markdown)


_STYLES = [("theorem", "bold, roman, / numbered", "italic", "theorems, corollaries, / lemmas"),
           ("proof", "non bold, / italic", "roman, ended / with a square", "proofs")]  # fmt: skip


def _styles(page: pymupdf.Page) -> None:
    """nwejm's table of theorem styles: four columns, cells wrapped over two lines in two or
    three of them (none in the first), rules across only."""
    _rule(page, 100, 85, 510, 0.8)
    for x, head in zip((90, 170, 280, 380), ("Env", "Head", "Body", "Used for"), strict=True):
        _text(page, x, 113, head)
    _rule(page, 118, 85, 510)
    y = 132.0
    for row in _STYLES:
        for x, cell in zip((90, 170, 280, 380), row, strict=True):
            for i, line in enumerate(cell.split(" / ")):
                _text(page, x, y + 13 * i, line)
        y += 13 * max(cell.count(" / ") + 1 for cell in row) + 4
    _rule(page, y - 10, 85, 510, 0.8)


def test_cells_wrapped_in_some_later_columns_carry_their_row_on(tmp_path: Path) -> None:
    """A printed row with lines in some columns after the first, not all, carries the cells of
    the row over it on (a row group's rows fill every later column: ``_file_groups``)."""
    pdf(tmp_path / "styles.pdf", [drawn(_styles)])
    with pymupdf.open(tmp_path / "styles.pdf") as doc:
        text = read_page(doc[0], 5000)
    (table,) = banded_tables(text, text.lines, OutputSettings(), [])
    assert pipe_rows(table.markdown) == [["Env", "Head", "Body", "Used for"]] + [
        [cell.replace(" / ", " ") for cell in row] for row in _STYLES
    ]


_COMMANDS = ["sudo tlmgr update --self", "sudo tlmgr update --all",
             "sudo tlmgr install udesoftec nag chngcntr hyphenat libertine mweights",
             "sudo tlmgr install enumitem todonotes wallpaper marginnote mdframed"]  # fmt: skip


_INSTALL = ["The class needs a few packages that a small TeX installation may lack; install",
            "them with the commands below, as the administrator of the machine:"]  # fmt: skip


def _framed_listing(page: pymupdf.Page) -> None:
    """udesoftec-doc p19: a paragraph, then shell commands framed by a rule over and under them
    (listings' frame=lines: each word its own span, set apart wider than a space), a paragraph;
    all in one typewriter face (the body's: no listing told apart by its face)."""
    for i, line in enumerate(_INSTALL):
        page.insert_text((85, 60 + 11 * i), line, fontsize=9, fontname="cour")
    _rule(page, 92, 85, 510)
    for i, command in enumerate(_COMMANDS):
        column = 0
        for word in command.split(" "):  # a word a span, each on its fixed column (listings)
            page.insert_text((88 + 5.4 * column, 106 + 11 * i), word, fontsize=9, fontname="cour")
            column += len(word) + 2
    _rule(page, 106 + 11 * len(_COMMANDS) - 5, 85, 510)
    page.insert_text((85, 180), "Then run the example document once to check it.", fontsize=9,
                     fontname="cour")  # fmt: skip


def test_a_listing_framed_by_rules_is_no_table(tmp_path: Path) -> None:
    """A listing's first line in a typewriter face is no head of a table of its lines: code
    stays code, each command whole."""
    markdown = drawn_markdown(tmp_path, _framed_listing)
    assert not pipe_rows(markdown)
    assert all(command in markdown for command in _COMMANDS)


def _arabic_rules(page: pymupdf.Page) -> None:
    """An Arabic booktabs table (name, city; read from the right): top rule, head, rule, two
    rows, bottom rule."""
    page.insert_font(fontname="dejavu", fontfile=_DEJAVU)
    _rule(page, 78, 100, 480, 0.8)
    for y, (name, city) in ((92, ("الاسم", "المدينة")), (112, ("أحمد", "القاهرة")),
                            (126, ("سارة", "دبي"))):  # fmt: skip
        page.insert_text((400, y), name, fontsize=10, fontname="dejavu")
        page.insert_text((200, y), city, fontsize=10, fontname="dejavu")
        if y == 92:
            _rule(page, 97, 100, 480)
    _rule(page, 132, 100, 480, 0.8)


def test_a_right_to_left_table_of_rules_across_is_left_as_text(tmp_path: Path) -> None:
    """Its columns would read left to right (the city before the name): no table of it."""
    assert not pipe_rows(drawn_markdown(tmp_path, _arabic_rules))
