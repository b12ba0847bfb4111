"""The paragraph rules of the PDF text pass (extractors/pdf/text/blocks.py) on small generated
pages and lines: each test is one guard of a rule that joins lines into one paragraph or parts
them (a reference's hanging indent, a line of scripts) seen to go wrong on a real page without
it."""

from __future__ import annotations

import pymupdf
import pytest
from docread.extractors.pdf.text import blocks
from docread.extractors.pdf.text.lines import Line
from factories import drawn_markdown


def _justified(
    page: pymupdf.Page, x: float, y: float, text: str, right: float = 432,
    font: str = "helv", size: float = 10,
) -> None:  # fmt: skip
    """A line set justified from ``x`` to ``right`` (its words spread), 10 pt Helvetica."""
    words = text.split()
    room = right - x - sum(pymupdf.get_text_length(w, font, size) for w in words)
    at = x
    for word in words:
        page.insert_text((at, y), word, fontname=font, fontsize=size)
        at += pymupdf.get_text_length(word, font, size) + room / max(len(words) - 1, 1)


def _paragraphs(page: pymupdf.Page, indent: float, top: float, lines: tuple[str, str, str]) -> None:
    """Three paragraphs of the page's body from ``top``: each a first line set in to ``indent``
    and justified, a justified line at the left, a short last line (42 pt apart)."""
    for i in range(3):
        _justified(page, indent, top + 42 * i, lines[0])
        _justified(page, 72, top + 14 + 42 * i, lines[1])
        page.insert_text((72, top + 28 + 42 * i), lines[2], fontsize=10)


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


@pytest.mark.parametrize(
    ("x0", "text", "height", "family", "joined"),
    [
        (72, "Pselected(i).", 12, "Times", True),  # the DPR paper's p7: its paragraph's end
        (72, "1Γ+", 12, "Times", True),  # elsdoc p13: a line's scripts opening it, read apart
        (136, "Hint = 0.", 12, "Times", False),  # elstest-3pd p3: the left column's formula
        (100, "Pselected(i).", 12, "Times", False),  # set in 2.8 ems: a display
        (72, "6 return 0;", 12, "Times", False),  # a listing's line number leads (elteikthesis)
        (72, "Cannister shot is a tin cylinder with brave it out. Their sacrifices and", 18,
         "Times", False),  # Seige of Vicksburg p3: an OCR layer's row of a caption and the body
        (72, "Pselected(i).", 12, "GlyphLessFont", False),  # an OCR layer's boxes: one height
    ],
)  # fmt: skip
def test_a_line_of_scripts_goes_on_only_wrapped_at_its_blocks_left(x0, text, height, family, joined):
    """``_scripted``: an 8 pt line in a box as tall as the 11 pt line above (12 pt) goes on
    with its block only where it opens at the block's left (``start``), no line number leads
    it, its box is no taller by a fifth of the size (two rows merged) and no OCR font sets it:
    not a formula of the left column under a heading of the right one (x 309), nor a display
    set in, nor a listing's line, nor a row an OCR layer merged."""
    px = 309 if x0 == 136 else 72
    prev = Line(px, 100, px + 200, 112, "We write the score of the passage as", 11, family=family)
    ln = Line(x0, 114, x0 + 4 * len(text), 114 + height, text, 8, family=family)
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




def test_a_references_wrap_opening_with_an_ordinal_stays_in_the_entry(tmp_path):
    """A reference's wrap set in under its full first line may open with a number and a stop
    (``11. Jahrhunderts bis 1448.``, template-expose-deutsch p5): a wrap, no list's label; the
    entry stays one paragraph (only a bracketed label, ``(a)``, or a bullet opens a clause)."""

    def draw(page: pymupdf.Page) -> None:
        _justified(page, 72, 80, "Brandt, Ahasver von & Erich Hoffmann. 1987. Die nordischen Länder von der Mitte des")
        _justified(page, 84, 94, "11. Jahrhunderts bis 1448. In Ferdinand Seibt (Hg.), Europa im Hoch- und Spät-")
        page.insert_text((84, 108), "mittelalter, 884–917. Stuttgart: Klett-Cotta.", fontsize=10)
        _justified(page, 72, 122, "Spiegelberg, Herbert. 1969. Intention und Intentionalität in der Scholastik, bei")
        page.insert_text((84, 136), "Brentano und Husserl. Studia Philosophica 29. 189–216.", fontsize=10)

    blocks = drawn_markdown(tmp_path, draw).split("\n\n")
    assert any(b.startswith("Brandt") and "des 11. Jahrhunderts" in b for b in blocks), blocks


def test_a_line_set_in_under_a_full_line_ending_a_sentence_opens_a_paragraph(tmp_path):
    """A full line at the column's left that ends a sentence (a one-line paragraph): the line
    set in a little under it, running to the edge, is the next paragraph's first-line indent,
    no wrap of a reference's hanging indent (whose first line ends no sentence)."""

    def draw(page: pymupdf.Page) -> None:
        _justified(page, 72, 80, "The committee met on the first Monday of the month to review the accounts.")
        _justified(page, 86, 94, "The treasurer reported that the reserves had grown by a tenth over")
        page.insert_text((72, 108), "the year, and the members approved the report.", fontsize=10)
        _paragraphs(page, 86, 136, ("Another paragraph opens with a first-line indent here and runs",
                                    "on to the edge of the column as the body of the minutes does in",
                                    "every paragraph of them."))  # fmt: skip

    blocks = drawn_markdown(tmp_path, draw).split("\n\n")
    assert any(b.startswith("The treasurer reported") for b in blocks), blocks


def test_a_display_set_in_three_ems_is_no_wrap_where_paragraphs_open_as_far_in(tmp_path):
    """A formula set in three ems under a lead that fills its line ending no sentence, where
    the page's paragraphs open indented as far (their first lines run to the edge at its x):
    a reference's wraps are set in two ems at most, so the formula is no wrap of the lead."""

    def draw(page: pymupdf.Page) -> None:
        _justified(page, 72, 80, "The loss we minimise over the batch, for every question and its passage, is")
        page.insert_text((102, 96), "L = - log exp(s(q, p)) / sum exp(s(q, p')).", fontsize=10)
        _paragraphs(page, 102, 124, ("A paragraph opens with a deep first-line indent as this paper's do,",
                                     "and it goes on at the left of the column as the body of the paper does",
                                     "in every paragraph."))  # fmt: skip

    blocks = drawn_markdown(tmp_path, draw).split("\n\n")
    assert "The loss we minimise over the batch, for every question and its passage, is" in blocks


def test_a_display_set_in_under_a_full_lead_is_no_wrap_where_no_line_there_runs_on(tmp_path):
    """A formula set in under two ems under a lead that fills its line ending no sentence, on a
    page whose paragraphs open at the left: no line set in at its x runs to the edge (a
    reference's wraps do), so the formula is no wrap of a hanging indent; the lead stays apart."""

    def draw(page: pymupdf.Page) -> None:
        _justified(page, 72, 80, "The loss we minimise over the batch, for every question and its passage, is")
        page.insert_text((90, 96), "L = - log exp(s(q, p)) / sum exp(s(q, p')).", fontsize=10)
        _justified(page, 72, 112, "Here s is the similarity of a question and a passage, the dot product of their")
        page.insert_text((72, 126), "two vectors.", fontsize=10)

    blocks = drawn_markdown(tmp_path, draw).split("\n\n")
    assert "The loss we minimise over the batch, for every question and its passage, is" in blocks


_LOREM = (
    "The paragraph goes on over full lines set from the left edge to the right edge",
    "of its column, every one of them as long as the others are, and ends on a line",
)


def _paragraph_over(page: pymupdf.Page, last: str) -> None:
    """A paragraph of four full lines and a short ``last`` line (16 pt leading: 2 pt apart)."""
    for i in range(4):
        page.insert_text((72, 100 + 16 * i), _LOREM[i % 2], fontsize=10)
    page.insert_text((72, 164), last, fontsize=10)


def test_a_paragraphs_short_last_line_over_two_pictures_stays_in_it(tmp_path):
    """side-by-side-subfig p1: a paragraph's one-word last line (``amet.``) sits over two
    pictures set side by side: the gutter between them, which the short line leaves free,
    must not take the line into the pictures' columns, a block of its own."""
    pixmap = pymupdf.Pixmap(pymupdf.csRGB, pymupdf.IRect(0, 0, 40, 40), False)
    pixmap.clear_with(200)

    def draw(page: pymupdf.Page) -> None:
        _paragraph_over(page, "amet.")
        page.insert_image(pymupdf.Rect(90, 250, 280, 400), pixmap=pixmap)
        page.insert_image(pymupdf.Rect(300, 170, 500, 400), pixmap=pixmap)
        page.insert_text((120, 415), "(a) The first picture", fontsize=8)
        page.insert_text((330, 415), "(b) The second picture", fontsize=8)

    text = drawn_markdown(tmp_path, draw)
    assert "ends on a line amet." in text


def test_an_abstracts_short_last_line_over_two_columns_stays_in_it(tmp_path):
    """whatsnew4-1 p1: a full-width abstract's short last line over the heads of two columns:
    the gutter the columns below share does not take the last line from its paragraph; the
    columns still read one after the other."""

    def draw(page: pymupdf.Page) -> None:
        _paragraph_over(page, "required to run it.")
        for i in range(6):
            page.insert_text((72, 200 + 16 * i), f"Left column line {i} reads on here", fontsize=10)
            page.insert_text((320, 200 + 16 * i), f"Right column line {i} reads on", fontsize=10)

    text = drawn_markdown(tmp_path, draw)
    assert "ends on a line required to run it." in text
    assert text.index("Left column line 5") < text.index("Right column line 0")


def test_a_typeset_example_beside_its_source_reads_side_by_side(tmp_path):
    """brandeis-problemset p7: a paragraph's short last line over a typeset example (short
    lines) beside its source (monospaced, as short): the line stays in its paragraph, and
    the two sides are no form's labels and values (most of one side is code): each reads
    whole, not row by row (``This is a problem in an as- \\end{problem} signment.``)."""

    def draw(page: pymupdf.Page) -> None:
        _paragraph_over(page, "environments.")
        page.insert_text((72, 196), "Problem 1", fontsize=12, fontname="hebo")
        page.insert_text((150, 214), "This is a problem in an as-", fontsize=10)
        page.insert_text((150, 226), "signment.", fontsize=10)
        source = ["\\begin{problem}", "  This is a problem in an", "     assignment.", "\\end{problem}"]
        for i, row in enumerate(source):
            page.insert_text((282, 194 + 11 * i), row, fontsize=9, fontname="cour")

    text = drawn_markdown(tmp_path, draw)
    assert "ends on a line environments." in text
    assert "This is a problem in an assignment." in text, text


def test_a_columns_first_line_close_under_a_full_line_stays_in_its_column(tmp_path):
    """The negative: two columns start close under a full-width line, the right one a line
    lower, so the left column's first line is a band of its own, as a paragraph's short last
    line is; but its column's next line follows as close under it: it is no last line, and
    stays with its column (read whole before the right column)."""

    def draw(page: pymupdf.Page) -> None:
        page.insert_text((72, 100), _LOREM[0], fontsize=10)
        page.insert_text((72, 116), "Left column opens its", fontsize=10)
        for i in range(1, 6):
            page.insert_text((72, 116 + 16 * i), f"left line {i} goes on", fontsize=10)
            page.insert_text((320, 116 + 16 * i), f"Right column line {i} reads on", fontsize=10)

    text = drawn_markdown(tmp_path, draw)
    assert "Left column opens its left line 1 goes on" in text
    assert text.index("left line 5") < text.index("Right column line 1")


def test_an_items_line_under_one_ending_a_sentence_stays_apart(tmp_path):
    """The negative (sandwich p1, an OCR layer's items whose bullets read as ``0`` and ``°``):
    a shorter line under a full one that ends a sentence, over a picture and a column beside
    it, is the next item, no paragraph's last line: it is not run into the item above."""
    pixmap = pymupdf.Pixmap(pymupdf.csRGB, pymupdf.IRect(0, 0, 40, 40), False)
    pixmap.clear_with(200)

    def draw(page: pymupdf.Page) -> None:
        for i in range(2):
            page.insert_text((72, 100 + 16 * i), _LOREM[i % 2], fontsize=10)
        page.insert_text((72, 132), "on the TAP TEMPO button.", fontsize=10)
        page.insert_text((72, 148), "0 TEMPO CHANGES may be programmed into a sequence, smoothly.", fontsize=10)
        page.insert_text((72, 164), "° Any TIME SIGNATURE may be used in a song.", fontsize=10)
        page.insert_image(pymupdf.Rect(72, 190, 250, 300), pixmap=pixmap)
        for i in range(5):
            page.insert_text((300, 200 + 16 * i), f"A column beside the picture, line {i}", fontsize=10)

    text = drawn_markdown(tmp_path, draw)
    assert "smoothly. ° Any" not in text and "° Any TIME SIGNATURE" in text


@pytest.mark.parametrize("opening", ["i. e., they are activated on these engines by default.",
                                     "z. B. die neuen Muster, die standardmäßig aktiv sind."])  # fmt: skip
def test_a_line_opening_with_an_abbreviation_goes_on_with_its_paragraph(tmp_path, opening):
    """germanb p3: a paragraph's indented first line runs to the edge ending in a comma and its
    next line, at the column's left, opens with ``i. e.,``: an abbreviation, no item label
    (``i.`` of a lettered list), so the paragraph goes on."""

    def draw(page: pymupdf.Page) -> None:
        _justified(page, 90, 100, "Modern engines (that is, xetex and luatex) have embraced those,", right=432)
        page.insert_text((72, 114), opening, fontsize=10)
        page.insert_text((72, 128), "The classic engines, however, have not: they keep the old.", fontsize=10)

    text = drawn_markdown(tmp_path, draw)
    assert f"have embraced those, {opening}" in text


def test_a_lettered_items_label_still_opens_an_item(tmp_path):
    """The negative: ``a. The first ...`` and ``b. The second ...`` under a short lead-in open
    items of their own (a label, then a word: no abbreviation)."""

    def draw(page: pymupdf.Page) -> None:
        page.insert_text((72, 100), "Two entries follow:", fontsize=10)
        page.insert_text((72, 114), "a. The first entry of the list is set here.", fontsize=10)
        page.insert_text((72, 128), "b. The second entry of the list follows it.", fontsize=10)

    blocks = drawn_markdown(tmp_path, draw).split("\n\n")
    assert "a. The first entry of the list is set here." in blocks


@pytest.mark.parametrize("items", [
    ("Two witnesses signed:", "a. J. Smith, of the first part, in the presence of all.",
     "b. K. Jones, of the second part, on the same day."),
    ("Les notes suivent :", "b. Cf. par exemple les packages TikZ et PSTricks.",
     "c. P. ex. tabularx du package éponyme."),
])  # fmt: skip
def test_a_lettered_label_before_an_initial_still_opens_an_item(tmp_path, items):
    """The negative of the abbreviation (gzt-fr p9's lettered footnotes, ``c. P. ex.``; a
    list of people by their initials): a letter's label then a capital's initial
    (``a. J. Smith``) is an item's label, no ``i. e.`` or ``z. B.``: each line its own item."""

    def draw(page: pymupdf.Page) -> None:
        for i, line in enumerate(items):
            page.insert_text((72, 100 + 14 * i), line, fontsize=10)

    blocks = drawn_markdown(tmp_path, draw).split("\n\n")
    assert items[2] in blocks, blocks


def test_a_references_short_wrap_under_its_text_stays_in_the_entry(tmp_path):
    """example_bib p1: a numbered reference whose first line runs to the edge ending at a colon
    (``Reading, Massachusetts:``) and whose one wrap is short, set in under the entry's text
    past its ``[2]`` label box (two ems; no other line at that x runs to the edge): the wrap
    goes on with its entry, the next entry opens its own."""
    first = "[2] M. Goossens, F. Mittelbach, and A. Samarin, The Companion. Reading, Massachusetts:"

    def draw(page: pymupdf.Page) -> None:
        _justified(page, 72, 100, first, right=520)
        page.insert_text((92, 114), "Addison-Wesley, 1993.", fontsize=10)
        page.insert_text((72, 128), "[4] A. Author. A short entry of its own. 2001.", fontsize=10)

    blocks = drawn_markdown(tmp_path, draw).split("\n\n")
    assert any(b.startswith("[2]") and b.endswith("Addison-Wesley, 1993.") for b in blocks), blocks
    assert "[4] A. Author. A short entry of its own. 2001." in blocks



_TURNED = (
    "Important note: While printing the landscape pages the settings should be",
    "double-checked. Adobe reader was known to print the landscape pages in the",
    "correct format at the time of this writing.",
)


@pytest.mark.parametrize("sideways", [True, False])
def test_a_page_shown_turned_reads_its_paragraphs_as_shown(tmp_path, sideways):
    """NDSU-Thesis-Extended p41: a landscape page set sideways on a portrait page (its text
    runs up the page as stored) and shown turned by ``/Rotate 90`` is read as shown: its lines
    read across, one paragraph, not as margin text set sideways, last to first. The negative:
    a page shown turned whose text runs across as stored (a scan's text layer, a page turned
    for display) is read as stored, its lines one paragraph too."""

    def draw(page: pymupdf.Page) -> None:
        for i, line in enumerate(_TURNED):
            at = (100 + 14 * i, 700) if sideways else (72, 100 + 14 * i)
            page.insert_text(at, line, fontsize=10, rotate=90 if sideways else 0)
        page.set_rotation(90)

    assert " ".join(_TURNED) in drawn_markdown(tmp_path, draw)


def _open_left_column(page: pymupdf.Page) -> None:
    """A left column of five lines whose paragraph ends no sentence (it goes on elsewhere)."""
    for i in range(4):
        page.insert_text((72, 100 + 12 * i), "The template style text runs on here and", fontsize=9)
    page.insert_text((72, 148), "is available only in one form and not in", fontsize=9)


def test_a_reference_opening_the_next_column_does_not_continue_the_paragraph(tmp_path):
    """sample-sigconf-biblatex p5: the left column ends inside a sentence (its paragraph goes
    on over the page), the right column opens with a reference whose wrap hangs under its
    text: set out left of its next line, the entry opens a block of its own, no run-on."""

    def draw(page: pymupdf.Page) -> None:
        _open_left_column(page)
        page.insert_text((320, 100), "[3] Sten Andler. 1979. Predicate path expressions. In", fontsize=9)
        page.insert_text((334, 112), "Proceedings of the 6th ACM symposium, 226-236.", fontsize=9)
        page.insert_text((320, 124), "[4] David A. Anisi. 2003. Optimal Motion Control. KTH.", fontsize=9)

    text = drawn_markdown(tmp_path, draw)
    assert "[3] Sten Andler. 1979. Predicate path expressions. In Proceedings of the 6th" in text
    assert "and not in [3]" not in text


def test_a_block_opening_with_no_label_set_out_left_of_its_next_line_continues(tmp_path):
    """The negative (estcpmm p14's index entry, naacl06 p4's caption under a diagram label, index
    and listing pages at a column top): a column's first block opens with no letter (``...``)
    and is set out left of its next line, but with no ``[n]`` label: no hanging reference, so
    it goes on with the paragraph the column before left open, as before the reference rule."""

    def draw(page: pymupdf.Page) -> None:
        _open_left_column(page)
        page.insert_text((320, 100), "... the other, which the class sets as its", fontsize=9)
        page.insert_text((334, 112), "default for every page of the document.", fontsize=9)

    text = drawn_markdown(tmp_path, draw)
    assert "and not in ... the other" in text, text


_FULL = Line(72, 100, 500, 110, "The paragraph goes on over full lines set from edge to edge of", 10)
_LAST = Line(72, 112, 200, 122, "its column here", 10)


@pytest.mark.parametrize("case", ["plain", "mono", "numbered", "label", "gap", "narrow"])
def test_a_short_line_under_a_full_one_reads_on_only_as_prose(case):
    """order._reads_on: a short line close under a full one ending no sentence is its
    paragraph's last line; not when either is code (monospaced: jmlr p52's listing), a
    listing's numbered line (``542 \\fi``), the next item's label (exam-a p5's ``(2)`` under
    ``(1) ...概率．``, its full-width stop no ENDS one), a row with a wide gap in it (a tab-set mark or
    amount: exam-a p5's ``······2分``), or the line above spans under 0.6 of the region (a
    byline or an address)."""
    from dataclasses import replace

    from docread.extractors.pdf import order

    a, b = _FULL, _LAST
    if case == "mono":
        a, b = replace(a, mono=True), replace(b, mono=True)
    elif case == "numbered":
        a, b = replace(a, text="541 " + a.text), replace(b, text="542 \\fi")
    elif case == "label":
        b = replace(b, text="(2) The next one")
    elif case == "gap":
        a = replace(a, cuts=((470.0, 40, 420.0),))
    elif case == "narrow":
        a = replace(a, x1=300)
    assert order._reads_on(a, b, [], 440) is (case == "plain")


def test_a_turned_pages_running_head_and_number_stay_out(tmp_path):
    """mnras_guide p6, NDSU-Thesis-Extended p50/p79, yathesis-fr p47: a landscape page of a
    portrait document (pdflscape: its body set sideways, the page shown turned by ``/Rotate``)
    keeps its running head and page number upright as stored, so shown turned they stand
    sideways at its edges: still running lines by their place as stored, left out as on the
    other pages, not read into the text (nor between a figure and its caption)."""
    import docread

    body = ["The landscape page carries a wide table that would not fit the portrait page, and",
            "its text is set sideways so that the reader turns the page to read it, as a thesis does."]  # fmt: skip
    doc = pymupdf.open()
    for n in range(1, 4):
        page = doc.new_page(width=595, height=842)
        page.insert_text((72, 50), "Journal of Reproducible Tests, vol. 3", fontsize=9)
        page.insert_text((290, 800), str(n), fontsize=9)
        if n == 2:
            for i, line in enumerate(body):
                page.insert_text((120 + 16 * i, 760), line, fontsize=10, rotate=90)
            page.set_rotation(90)
        else:
            for i in range(20):
                page.insert_text((72, 100 + 14 * i), f"Portrait line {i} of page {n} runs on.", fontsize=10)
    doc.save(tmp_path / "lscape.pdf")
    config = {"cache": {"enabled": False}, "isolation": {"enabled": False}}
    with docread.Reader(tmp_path, config=config) as reader:
        texts = [d.text for d in reader.iter_documents("lscape.pdf", pages="2")]
    text = "\n\n".join(texts)
    assert " ".join(body) in text
    assert "Journal of Reproducible" not in text and "\n\n2" not in text and not text.startswith("2"), text


def test_a_paragraph_opening_with_a_hash_is_written_as_text_not_a_heading(tmp_path):
    """A body line opening with ``# `` (a shell comment quoted in prose, a numbered ``# 1.``)
    is escaped: a markdown reader and the chunker's section marking see no heading there."""

    def draw(page: pymupdf.Page) -> None:
        page.insert_text((72, 100), "The first paragraph of the page says what follows below.", fontsize=10)
        page.insert_text((72, 130), "# 1. the comment a script prints before its first step", fontsize=10)
        page.insert_text((72, 144), "runs on in the same paragraph as the sentence ends here.", fontsize=10)

    text = drawn_markdown(tmp_path, draw)
    assert "\\# 1. the comment" in text
    assert not [ln for ln in text.splitlines() if ln.startswith("#")]


def _questions(page: pymupdf.Page, second: str) -> None:
    """A FAQ as novel's p3 sets it: ``Q.`` and ``A.`` at the left, each wrapped under its text
    (17 pt in), no space between them; a full question ending ``?``, then ``second``'s line."""
    _justified(page, 72, 100, "Q. Has this document class ever been used for an actual novel?")
    _justified(page, 72, 114, second)
    _justified(page, 89, 128, "novel, including its cover, using this document class. Almost all")
    page.insert_text((89, 142), "of the setup used defaults. Took months to write, of course.", fontsize=10)
    page.insert_text((72, 156), "Q. My thesis advisor told me that", fontsize=10)
    page.insert_text((72, 170), "A. Stop right there. This class is very different from theses.", fontsize=10)


def test_an_answer_under_its_question_opens_a_paragraph(tmp_path):
    """novel p3: ``A.`` at the x of the block's ``Q.``, after the question's full line ending
    ``?`` or a short one ending no sentence, opens the answer; it was run into the question."""
    text = drawn_markdown(tmp_path, lambda page: _questions(
        page, "A. Yes indeed! In August 2017 the author published a complete"))  # fmt: skip
    blocks = [" ".join(b.split()) for b in text.split("\n\n")]
    assert "Q. Has this document class ever been used for an actual novel?" in blocks
    assert "Q. My thesis advisor told me that" in blocks
    assert any(b.startswith("A. Yes indeed!") and b.endswith("of course.") for b in blocks)


def _initial_wrap(page: pymupdf.Page) -> None:
    """A lettered clause whose full first line ends no sentence and whose wrap, set at the
    label's x, opens with an initial (``J. Smith``)."""
    _justified(page, 72, 100, "A. The answer was given in writing by the two authors, namely")
    page.insert_text((72, 114), "J. Smith and K. Jones, on the same day as the question.", fontsize=10)
    page.insert_text((72, 140), "B. The next clause follows after a space of its own here.", fontsize=10)


def test_an_initial_opening_a_wrap_under_a_lettered_clause_goes_on(tmp_path):
    """The negative: a lettered clause's full line that ends no sentence, then a line at its
    label's x opening with an initial (``J. Smith``): the clause's wrap, not a new item."""
    text = " ".join(drawn_markdown(tmp_path, _initial_wrap).split())
    assert "by the two authors, namely J. Smith and K. Jones" in text


def _nested_items(page: pymupdf.Page) -> None:
    """A nested enumerate of one-line items under a paragraph (se2thesis p11): each level set
    18 pt further in, the lines 14 pt apart, no space between items."""
    _justified(page, 72, 72, "The example below shows how the class sets a list nested four levels")
    page.insert_text((72, 86), "deep, each level with labels of its own.", fontsize=10)
    rows = [(72, "1. First item of the list"), (90, "a) First item one level in"),
            (108, "i. First item two levels in"), (126, "A. First item three levels in"),
            (126, "B. Second item three levels in"), (90, "b) Second item one level in"),
            (72, "2. Second item of the list")]  # fmt: skip
    for i, (x, text) in enumerate(rows):
        page.insert_text((x, 100 + 14 * i), text, fontsize=10)


def test_a_nested_lists_short_items_each_open_an_item(tmp_path):
    """se2thesis p11: an item set an em or more right of a short item's line is the next level's
    item, and ``B.`` under ``A.`` the next lettered one; they were run into the item above."""
    blocks = [" ".join(b.split()) for b in drawn_markdown(tmp_path, _nested_items).split("\n\n")]
    for text in ("a) First item one level in", "i. First item two levels in",
                 "A. First item three levels in", "B. Second item three levels in"):  # fmt: skip
        assert any(b.endswith(text) and len(b) < len(text) + 4 for b in blocks), (text, blocks)


def _hanging_wrap(page: pymupdf.Page) -> None:
    """An item's full line, then its wrap hung under its text that opens with a number."""
    _justified(page, 72, 100, "1. The parts are listed in the appendix of the contract, under item")
    page.insert_text((86, 114), "2. of the first schedule, as both parties agreed in writing.", fontsize=10)


def test_a_wrap_hung_under_a_full_items_line_stays_in_it(tmp_path):
    """The negative: a line set in under an item's line that runs to the edge, opening with a
    number (``2. of the first schedule``), is that item's wrap, no nested item."""
    text = " ".join(drawn_markdown(tmp_path, _hanging_wrap).split())
    assert "under item 2. of the first schedule" in text


def _row_pieces(page: pymupdf.Page) -> None:
    """A reference's justified row that the text layer holds in pieces (asmeconf p5): the last
    two, ``W. M. and Kline,`` and ``S. J.``, each opening with an initial, 9 pt apart; then
    the reference's next line."""
    _justified(page, 72, 72, "The references below are set justified as the template asks of them")
    at = 72.0
    for piece in ("[17] Reynolds, W. C., Kays,", "W. M. and Kline,", "S. J."):
        page.insert_text((at, 86), piece, fontsize=10)
        at += pymupdf.get_text_length(piece, fontsize=10) + 9
    page.insert_text((72, 100), "Heat Transfer in the Incompressible Turbulent Boundary Layer.", fontsize=10)


def test_a_piece_of_an_items_row_opens_no_nested_item(tmp_path):
    """The negative of the nested item (asmeconf p5, hfutexam p2, ijmsample p17): a piece of a
    row set right of a piece opening with an initial, itself opening with one, is no deeper
    item under it: the reference's row stays one."""
    blocks = [" ".join(b.split()) for b in drawn_markdown(tmp_path, _row_pieces).split("\n\n")]
    assert any(b.endswith("W. M. and Kline, S. J.") for b in blocks), blocks


_AUTHORS = (
    "C. Petit-Jean-Genaz, J. Poole, T. Baron, R. Billen, P. Ferreira, N. Juszka, M. Kolodziejski,",
    "A. Mönnich, P. Poulopoulou, M. Vidal, CERN, 1211 Geneva 23, Switzerland",
    "C. E. Eyberger, K. Jaje, Y. Jaski, Argonne National Laboratory, Lemont, IL 60439, USA",
    "D. Button, M. Hewes, ANSTO, Lucas Heights NSW 2234, Australia",
    "R. Dowd, K. Riches, E. Tan, N. White, ANSTO, Clayton VIC 3168, Australia",
    "R. Picoreti, S. Marques, Brazilian Synchrotron Light Laboratory, 13083-970 Campinas, Brazil",
    "P. Dyer, C. Hoffman, Brookhaven National Laboratory, Upton, NY 11973, USA",
    "M. V. Kuzin, Budker Institute of Nuclear Physics, 630090 Novosibirsk, Russia",
    "M. Arena, Fermilab, Batavia IL 60510, USA",
    "R. Müller, V. R. W. Schaa",
    "GSI Helmholtzzentrum für Schwerionenforschung, 64291 Darmstadt, Germany",
    "M. McAteer, Helmholtz-Zentrum Berlin, 14109 Berlin, Germany",
)


def _centred_authors(page: pymupdf.Page) -> None:
    """A collaboration's author list as jacow-collaboration p1 sets it: lines centred on one
    axis at 12 pt, 13.3 pt apart, each (but an affiliation's wrap) opening with an initial."""
    for i, text in enumerate(_AUTHORS):
        width = pymupdf.get_text_length(text, fontname="tiro", fontsize=12)
        page.insert_text((297.6 - width / 2, 100 + 13.3 * i), text, fontname="tiro", fontsize=12)


def test_centred_lines_opening_with_initials_open_no_items(tmp_path):
    """jacow-collaboration p1, JACoW p6: a centred line opening with an initial, right of a
    longer one or at the x of the block's first, is no nested item nor answer: the author list
    stays one block (it was cut in five, an author from the affiliation under it)."""
    text = drawn_markdown(tmp_path, _centred_authors)
    assert "\n\n" not in text.strip(), text
    assert "R. Müller, V. R. W. Schaa\nGSI Helmholtzzentrum" in text


def _numbered_head(page: pymupdf.Page) -> None:
    """A numbered head in the body's style over a paragraph whose full first line is set in
    14 pt and opens with an initial (``A. Einstein``), its wrap at the left."""
    page.insert_text((72, 80), "1. Introduction", fontsize=10)
    _justified(page, 86, 94, "A. Einstein wrote the first paper on the subject in the year 1905, and")
    _justified(page, 72, 106, "since then the field has grown into one of the largest in physics today.")


def test_an_initial_set_in_under_a_short_numbered_line_opens_no_nested_item(tmp_path):
    """The negative of ``_nested`` (review lists_early 6, mended by 633df04's sibling letter):
    a paragraph's first line opening with an initial, set in under a short numbered line, is
    no nested item: its sentence goes on in its wrap (it was cut after ``1905, and``)."""
    blocks = [" ".join(b.split()) for b in drawn_markdown(tmp_path, _numbered_head).split("\n\n")]
    assert any("in the year 1905, and since then the field" in b for b in blocks), blocks


@pytest.mark.parametrize("rotation", [0, 90, 270])
def test_a_page_turned_for_display_reads_as_it_does_upright(tmp_path, rotation):
    """A portrait page shown turned by ``/Rotate`` whose text runs across as stored (R-data p9,
    bgteubner p19, mathCol p4 copied turned): MuPDF gives its lines' boxes as stored, so the
    page's size (its running lines' band) is the stored page's: a heading low on the page stays
    a heading and its page number stays out: it reads exactly as the page upright."""

    def draw(page: pymupdf.Page) -> None:
        page.insert_text((72, 60), "4 Missing values", fontname="hebo", fontsize=14)
        for i in range(12):
            page.insert_text((72, 90 + 14 * i), f"The body runs on over line {i} and", fontsize=10)
        page.insert_text((72, 258), "ends its sentence here.", fontsize=10)
        page.insert_text((72, 580), "5 Quoting strings", fontname="hebo", fontsize=14)
        page.insert_text((72, 600), "A second paragraph stands under its heading,", fontsize=10)
        page.insert_text((72, 614), "low on the page, where a turned page's foot would be.", fontsize=10)
        page.insert_text((300, 800), "9", fontsize=10)
        page.set_rotation(rotation)

    text = drawn_markdown(tmp_path, draw)
    assert "# 4 Missing values" in text and "# 5 Quoting strings" in text, text
    assert not [b for b in text.split("\n\n") if b.strip() == "9"], text
    (tmp_path / "upright").mkdir()
    assert text == drawn_markdown(tmp_path / "upright", lambda page: (draw(page), page.set_rotation(0)))


_STARTS = "on the notes the maintainers send back, so the next section starts"
_FOLLOWS = "on the notes the maintainers send back, with the fields as follows:"


@pytest.mark.parametrize(
    ("head", "last", "size", "x", "gap", "edge", "joined"),
    [
        (_STARTS, "CRAN.", 9, 72, 13, True, True),  # R-FAQ p29: texinfo's acronym a point under
        ("on the notes the maintainers send back, so the next section ends.", "Later we see.",
         9, 72, 13, True, False),  # under a line that ends a sentence (``_open``)
        (_STARTS, "4:", 9, 72, 13, True, False),  # hagenberg p54: an algorithm's step number
        (_STARTS, "4.", 9, 72, 13, True, False),  # a bare number, however it ends
        (_FOLLOWS, "Syntax:", 9, 72, 13, True, False),  # a label under ``as follows:``
        (_FOLLOWS, "CRAN.", 9, 72, 13, True, False),  # under ``as follows:``: a display
        ("on the notes the maintainers send back, which the applicant signs", "Signature:",
         9, 72, 13, True, False),  # a form's label
        (_STARTS, "Total: 12;", 9, 72, 13, True, False),  # a row's label and value
        (_STARTS, "1 Ibid.", 8, 72, 12, True, False),  # a footnote, 8 pt under 10 pt
        (_STARTS, "See the archive now.", 9, 72, 13, True, False),  # four words
        (_STARTS, "CRAN", 9, 72, 13, True, False),  # no sentence ended
        (_STARTS, "CRAN.", 9, 240, 13, True, False),  # centred under the paragraph: a display
        (_STARTS, "CRAN.", 9, 400, 13, True, False),  # set at the right
        (_STARTS, "CRAN.", 9, 72, 24, True, False),  # a blank line's gap under it
        ("on the notes the maintainers send back, so", "CRAN.", 9, 72, 13, False, False),
        # the line over it stops short of the column's edge
    ],
    ids=["CRAN", "ended", "step", "number", "label", "follows", "form", "row", "footnote",
         "four-words", "unended", "centred", "right", "blank-gap", "short-head"],
)
def test_a_paragraphs_last_line_set_a_size_smaller_stays_in_it(
    tmp_path, head, last, size, x, gap, edge, joined
):
    """R-FAQ p29, R-admin p51: a paragraph's last line is one word set a point smaller than the
    body (texinfo's acronym ``CRAN.`` at 10 pt under 11 pt lines) at the paragraph's left, a
    line's gap under a line run to the edge that ends no sentence: the paragraph's last line,
    not a block of its own. Each negative is refused by one guard of ``flow._last_line`` (review
    paras_early 1, 2 and 4: hagenberg p54's step numbers ``4:`` were joined into the code above),
    ``ended`` and ``centred`` before it (``_open``, ``_display``)."""

    def draw(page: pymupdf.Page) -> None:
        _justified(page, 72, 100, "See the section on the archive, where the packages are kept, for")
        _justified(page, 72, 113, "information on uploading a package, on the checks it must pass and")
        if edge:
            _justified(page, 72, 126, head)
        else:
            page.insert_text((72, 126), head, fontsize=10)
        page.insert_text((x, 126 + gap), last, fontname="helv", fontsize=size)
        page.insert_text((72, 175), "The next paragraph stands apart under a space of its own.", fontsize=10)

    blocks = [" ".join(b.split()) for b in drawn_markdown(tmp_path, draw).split("\n\n")]
    assert any(b.endswith(f"{head} {last}") for b in blocks) is joined, blocks


def test_many_short_lines_under_paragraphs_are_read_in_time_linear_in_them() -> None:
    """8,000 blocks, a 10 pt line that ends no sentence over a 9 pt ``End.`` each: every pair is
    tried as a paragraph and its last line (``flow._last_line``), in well under a second of CPU
    (the column's right edge was measured over all its lines at each try: ~2.5 s)."""
    import time

    from docread.extractors.pdf.text import flow
    from docread.extractors.pdf.text.pieces import Block

    class _NoCode:
        def code(self, line: Line) -> bool:
            return False

    def column() -> list[Block]:
        out = []
        for k in range(4000):
            out.append(Block("text", [Line(72, 14 * k, 200, 14 * k + 10, "the body goes on and", 10)]))
            out.append(Block("text", [Line(72, 14 * k + 11, 100, 14 * k + 20, "End.", 9)]))
        return [*out, Block("text", [Line(72, 0, 500, 10, "Wide.", 10)])]  # the column's edge

    times = []
    for _ in range(3):
        blocks = column()
        start = time.process_time()
        flow.displayed(blocks, _NoCode())  # type: ignore[arg-type]
        times.append(time.process_time() - start)
    assert len(blocks) == 8001  # none joined: the short lines run to no edge
    assert min(times) < 0.5


_ZH = ("文档读取器把每一页的文字按照阅读顺序整理成段落，", "并且在换行的地方不应该插入多余的空格，中文与", "日文的行尾直接接上下一行。")
_JA = ("この読み取りツールはページの文字を読む順に段落へまとめ、", "行が変わるところに余分な空白を入れない。")
_KO = ("문서 읽기 도구는 각 페이지의 글자를 읽는 순서대로", "문단으로 정리하며 줄이 바뀌는 곳에서도", "띄어쓰기를 그대로 지킵니다.")


def test_chinese_and_japanese_wraps_join_with_no_space_korean_keeps_its_spaces(tmp_path):
    """Chinese and Japanese set no spaces between words: a paragraph's wrapped lines join with
    none (a CJK book's paragraphs read ``段落， 并且``: a space no reader of the script writes);
    Korean spaces its words, so its wraps join with a space as Latin lines do."""

    def draw(page: pymupdf.Page) -> None:
        for top, font, lines in ((100, "china-s", _ZH), (200, "japan", _JA), (300, "korea", _KO)):
            for i, line in enumerate(lines):
                page.insert_text((72, top + 14 * i), line, fontsize=10, fontname=font)

    text = " ".join(drawn_markdown(tmp_path, draw).split())
    assert "".join(_ZH) in text
    assert "".join(_JA) in text
    assert " ".join(_KO) in text


def test_an_items_wrap_set_out_left_of_its_bullet_stays_in_the_item(tmp_path):
    """mnras_guide p2: bullets set in as far as the paragraphs' first lines, each item's
    wrapped line back at the column's left, left of the bullet; the wrap (a line's
    gap under the item's last line, which runs to the column's edge and ends no sentence) is
    the item's, not a paragraph of its own, however it opens (``Daly's``). A lower-case line
    under an item that ends short stays apart."""

    items = (
        ("doublespacing: text has double line spacing. Please do not", "submit papers."),
        ("referee: (deprecated) single column, double spaced, wider", "text, bigger margins."),
        ("usenatbib: (all papers should use this) it uses Patrick", "Daly's natbib package."),
        ("galley: no running headers", "and more text under the list stands apart."),
    )
    right = 60 + pymupdf.get_text_length(items[0][0], "tiro", 9)  # the column's edge

    def draw(page: pymupdf.Page) -> None:
        y = 100.0
        for _ in range(3):  # paragraphs set in 9 pt, their first lines indented
            _justified(page, 51, y, "The paragraph goes on over full lines set from", right, "tiro", 9)
            _justified(page, 42, y + 11, "the left edge of its column, every one as long", right, "tiro", 9)
            page.insert_text((42, y + 22), "short.", fontsize=9, fontname="tiro")
            y += 33
        for item, wrap in items:
            page.insert_text((51, y), "•", fontsize=9, fontname="symb")
            page.insert_text((60, y), item, fontsize=9, fontname="tiro")
            page.insert_text((42, y + 11), wrap, fontsize=9, fontname="tiro")
            y += 22

    text = drawn_markdown(tmp_path, draw)
    assert "double line spacing. Please do not submit papers." in text
    assert "double spaced, wider text, bigger margins." in text
    assert "it uses Patrick Daly's natbib package." in text  # a capital opens it: a name
    assert "no running headers\n\nand more text" in text, text


def _small_paragraphs(page: pymupdf.Page, right: float, first: str, second: str) -> float:
    """Two 9 pt Times paragraphs from y 100 at the margin x 42: ``first`` and ``second``
    justified to ``right``, then ``short.`` (11 pt leading); where the next line goes."""
    y = 100.0
    for _ in range(2):
        _justified(page, 42, y, first, right, "tiro", 9)
        _justified(page, 42, y + 11, second, right, "tiro", 9)
        page.insert_text((42, y + 22), "short.", fontsize=9, fontname="tiro")
        y += 33
    return y


def test_a_one_url_item_keeps_the_sentence_going_on_under_it_apart(tmp_path):
    """anonymous-acm p1: a list of one item, a URL that runs to the column's edge, then the
    sentence picks up again at the margin (``or here:``), left of the bullet: a one-word item
    is no item whose wrap that is; the line stays apart."""

    url = "https://www.acm.org/publications/proceedings-template"
    right = 60 + pymupdf.get_text_length(url, "tiro", 9) + 4  # the column's edge

    def draw(page: pymupdf.Page) -> None:
        y = _small_paragraphs(
            page, right, "The templates are found at the address given below in",
            "the list that follows the sentence and the list goes",
        )  # fmt: skip
        page.insert_text((51, y), "\u2022", fontsize=9, fontname="symb")
        page.insert_text((60, y), url, fontsize=9, fontname="tiro")
        page.insert_text((42, y + 11), "or here:", fontsize=9, fontname="tiro")
        page.insert_text((51, y + 22), "\u2022", fontsize=9, fontname="symb")
        page.insert_text((60, y + 22), "https://www.overleaf.com/gallery/tagged/acm", fontsize=9, fontname="tiro")

    text = drawn_markdown(tmp_path, draw)
    assert "proceedings-template\n\nor here:" in text, text


def test_an_items_wrap_of_numbers_joins_an_equations_number_ends_the_item(tmp_path):
    """example-biosketch p1: an item broken off after its years (``2002, 2004,``) goes on at
    the margin left of its bullet (``2005: Ad hoc Member``): its wrap, numbers or not.
    elstest-3pd p3: a line ending with an equation's number (``(7)``) read as an item is no
    item whose wrap the paragraph under it is (``here ax, bx are ...``)."""

    def page(item: str, wrap: str):
        def draw(pg: pymupdf.Page) -> None:
            right = 300.0
            y = _small_paragraphs(
                pg, right, "The paragraph above the list goes on over full lines",
                "set from the left edge of its column, each as long",
            )  # fmt: skip
            pg.insert_text((51, y), "\u2022", fontsize=9, fontname="symb")
            _justified(pg, 60, y, item, right, "tiro", 9)
            pg.insert_text((42, y + 11), wrap, fontsize=9, fontname="tiro")
        return draw

    years = drawn_markdown(tmp_path, page("1999-2006: Professor of Computer Science; 2002, 2004,",
                                          "2005: Ad hoc Member, NIH Study Sections."))  # fmt: skip
    assert "2002, 2004, 2005: Ad hoc Member" in years, years
    tail = drawn_markdown(tmp_path, page("the coupling of the light and the exciton in its cavity mode , (7)",
                                         "here ax, bx are annihilation operators."))  # fmt: skip
    assert "(7)\n\nhere ax" in tail, tail


def test_a_line_of_the_column_beside_is_no_items_wrap() -> None:
    """ltubguid p3 (two columns read interleaved): the left column's line ``names and
    addresses between the \\maketitle and``, ending left of the right column's item and no
    sentence, is no wrap of that item; example-biosketch p1's ``Chemistry, Dartmouth.``,
    short and ending its sentence at the page's left under a run-in item, is."""
    from docread.extractors.pdf.text import flow
    from docread.extractors.pdf.text.pieces import Block

    item = Block("item", [Line(324.1, 100, 538.6, 110, "• The command \\makevmeta, also available only", 10)])
    other = Block("text", [Line(72.0, 111, 296.2, 121, "names and addresses between the \\maketitle and", 10),
                           Line(72.0, 122, 296.2, 132, "the abstract of the article set in the left column", 10)])
    assert not flow._wrap(item, other, 538.6)
    run_in = Block("item", [Line(398.9, 100, 576.0, 111, "• 2000-2006: Adjunct Professor of", 11)])
    wrap = Block("text", [Line(36.0, 112, 146.1, 123, "Chemistry, Dartmouth.", 11)])
    assert flow._wrap(run_in, wrap, 576.0)


def test_a_wrap_left_of_its_indented_first_line_stays_with_it_over_display_equations() -> None:
    """aipsamp p7 (the lines as MuPDF gives them): a two-line paragraph, its first line set
    in, its one-word wrap (``ment:``) back at the left, over centred equations whose numbers
    stand in a column at the right: the gutter of the region below does not take the wrap
    into that region's left column; it reads with its first line."""
    from docread.extractors.pdf.order import line_chars, reading_order

    rows = [
        (99.9, 593.8, 107.3, 601.8, "a.", 8),
        (117.2, 593.8, 246.8, 601.8, "A subsubsection in an appendix", 8),
        (109.9, 618.8, 494.5, 627.6, "Note the equation numbers in this appendix, produced with"
         " the subequations environ-", 10),
        (99.9, 630.2, 124.5, 639.1, "ment:", 10),
        (275.6, 649.5, 312.6, 658.4, "E = mc,", 10),
        (469.6, 649.5, 494.4, 658.4, "(B2a)", 10),
        (275.6, 661.9, 317.1, 672.8, "E = mc2,", 10),
        (469.1, 664.0, 494.4, 672.8, "(B2b)", 10),
        (275.6, 676.4, 317.1, 687.3, "E ≳mc3.", 10),
        (470.2, 678.4, 494.4, 687.3, "(B2c)", 10),
        (99.9, 697.7, 322.0, 706.6, "They turn out to be Eqs. (B2a), (B2b), and (B2c).", 10),
        (103.5, 715.1, 267.4, 723.6, "1R. P. Feynman, Phys. Rev. 94, 262 (1954).", 8),
        (103.5, 724.6, 241.6, 733.1, "2E. Witten, (2001), hep-th/0106109.", 8),
    ]  # fmt: skip
    runs = [[ln.text for ln in run] for run in reading_order([Line(*r) for r in rows], line_chars)]
    first = next(run for run in runs if rows[2][4] in run)
    assert first[first.index(rows[2][4]) + 1] == "ment:", runs
    # the wrap keeps its own margins: the equations read row by row, each number after its
    # equation (apssamp p6's appendix as well), not all numbers after the footnotes
    read = [text for run in runs for text in run]
    assert read.index("E = mc,") < read.index("(B2a)") < read.index("E = mc2,") < read.index("(B2b)"), runs


def test_a_letter_spaced_chinese_title_keeps_its_spaces() -> None:
    """hustthesis p9's running head, its characters set apart (``华 中 科 技 大 学``) in pieces
    MuPDF gives as lines of one row: joined with its spaces, not as wrapped prose
    (``华 中科 技大 学``); Chinese wrapped inside a run of its characters joins with none."""
    from docread.extractors.pdf.text.relations import join

    assert join(["华 中", "科 技", "大 学"]) == "华 中 科 技 大 学"
    assert join(["整理成段落，", "并且在换行"]) == "整理成段落，并且在换行"


def test_a_chinese_wrap_beside_latin_joins_with_no_space() -> None:
    """buctthesis p4/p5: a wrap that leaves one Chinese character after a Latin word (``安装
    TeX 发`` / ``行版``) or opens with one before Latin (``优先使`` / ``用latexmk``) is inside a
    Chinese word all the same: no space (``发 行版``, ``使 用latexmk`` read as two words)."""
    from docread.extractors.pdf.text.relations import join

    assert join(["请先安装 TeX 发", "行版，然后编译"]) == "请先安装 TeX 发行版，然后编译"
    assert join(["编译时优先使", "用latexmk 工具"]) == "编译时优先使用latexmk 工具"
    assert join(["华", "中"]) == "华 中"  # one character a line, both alone: letter-spaced
    assert join(["电影推荐系统", "题 目"]) == "电影推荐系统 题 目"  # a form's letter-spaced label


def test_a_rows_chinese_pieces_keep_a_space_its_wraps_none() -> None:
    """hfutexam_datizhi p2: ``【解】`` and the score box's ``得分`` beside it on one row are two
    things (a space between), where a wrap inside Chinese prose joins with none."""
    from docread.extractors.pdf.text import flow

    row = [Line(72, 100, 130, 110, "8. 【解】", 10), Line(300, 100, 330, 110, "得分", 10)]
    assert flow._wrapped(row, 500) == "8. 【解】 得分"
    wraps = [Line(72, 100, 500, 110, "文档读取器把每一页整理成段落，", 10),
             Line(72, 112, 300, 122, "并且在换行处不插入空格。", 10)]  # fmt: skip
    assert flow._wrapped(wraps, 500) == "文档读取器把每一页整理成段落，并且在换行处不插入空格。"


def test_a_chinese_headings_number_and_title_beside_it_keep_their_space() -> None:
    """sample-bachelor p11: ``第一章`` and ``绪论(前言)`` set apart on one row are one heading
    with a space between (``第一章 绪论(前言)``), not joined as a wrap inside Chinese prose."""
    from docread.extractors.pdf.text import flow
    from docread.extractors.pdf.text.pieces import Block

    row = [Line(227.7, 141.5, 274.8, 157.2, "第一章", 15), Line(290.5, 141.5, 367.6, 158.3, "绪论(前言)", 15)]
    assert flow.written(Block("heading", row, level=1), False) == "# 第一章 绪论(前言)"


def test_a_chinese_title_over_its_subtitle_keeps_their_space() -> None:
    """seuthesis sample-doctor p1, ithw p1: a centred title and the short row under it (a
    subtitle, a course's name) are two rows of a heading, no wrap inside one line of prose:
    ``论文中文标题 中文副标题``; a long heading's row to its wrap joins with none."""
    from docread.extractors.pdf.text import flow
    from docread.extractors.pdf.text.pieces import Block

    rows = [Line(250, 100, 346, 116, "论文中文标题", 16), Line(258, 124, 338, 140, "中文副标题", 16)]
    assert flow.written(Block("heading", rows, level=2), False) == "## 论文中文标题 中文副标题"
    wrap = [Line(72, 100, 520, 112, "年度研究计划及预期研究结果（包括拟组织的重要学术交流", 12),
            Line(72, 114, 300, 126, "活动、国际合作与交流计划等）。", 12)]  # fmt: skip
    assert flow.written(Block("heading", wrap, level=3), False) == (
        "### 年度研究计划及预期研究结果（包括拟组织的重要学术交流活动、国际合作与交流计划等）。"
    )
