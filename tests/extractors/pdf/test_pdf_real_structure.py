"""PDF structure (``pdf.structure: auto``) on real documents of the shared corpus: each test is
one of the ways real PDFs lost their shape (tables of contents, quiet headings, right-to-left
pages, footnote marks, boxes that take in too much, running lines, the heading path across a
page end, rotated margin stamps, justified lines split at a sentence's end, a column's top
read with the heading beside it). bench/real_pdf.py scores the same engine against pages
looked at by eye (bench/pdf_truth/)."""

from __future__ import annotations

import re
from functools import cache
from pathlib import Path

import docread
import pymupdf
import pytest
from conftest import CORPUS
from factories import drawn_markdown

HEADING = re.compile(r"^(#{1,4}) (.+)$", re.MULTILINE)
SQUARES = "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"  # a font with ■ and □ in it


@cache
def _read(name: str, pages: str | None) -> tuple[tuple[str, tuple[str, ...]], ...]:
    config = {"cache": {"enabled": False}}
    with docread.Reader(CORPUS, config=config, shared_pool=True) as reader:
        docs = reader.iter_documents(str(Path("pdf") / name), pages=pages)
        return tuple(
            (d.text, tuple(d.metadata.get("headings") or ()))
            for d in docs
            if "table_index" not in d.metadata
        )


def pages(name: str, pages: str | None = None) -> list[tuple[str, list[str]]]:
    """(text, heading path) of each page of a corpus PDF, read once per test session."""
    if not (CORPUS / "pdf" / name).is_file():
        pytest.skip(f"corpus not present at {CORPUS}")
    return [(text, list(path)) for text, path in _read(name, pages)]


def headings(text: str) -> list[str]:
    return [m.group(2) for m in HEADING.finditer(text)]


def test_a_table_of_contents_with_dot_leaders_is_a_table():
    """Item 1: one row per entry (title | page), the leaders gone, no entries joined."""
    text = pages("redp5110_sampled.pdf")[1][0]
    assert "| Notices | vii |" in text and "| Trademarks | viii |" in text
    assert "| 1.3.1 Existing row and column control | 4 |" in text
    assert "| Chapter 2. Roles and separation of duties | 7 |" in text
    assert ". . . ." not in text


def test_headings_a_little_larger_or_numbered_or_semi_bold_are_found():
    """Item 2: section headings set 12.5 pt over an 11.5 pt body, not bold (Korean report),
    numbered ``(1)`` sub-headings, and semi-bold standalone lines (a handbook)."""
    report = [headings(text) for text, _ in pages("normal_4pages.pdf")]
    assert "1 들어가며" in report[0] and "2 코로나-19 관련 보험 현황" in report[1]
    assert "(1) 「감염병의 예방 및 관리에 관한 법률」 개정" in report[1]
    assert "4 개선과제" in report[3]
    handbook = headings(pages("amt_handbook_sample.pdf")[0][0])
    assert {"Boots Self-Locking Nut", "Stainless Steel Self-Locking Nut"} <= set(handbook)
    assert "Elastic Stop Nut" in handbook


def test_a_right_to_left_page_has_its_structure():
    """Item 3: an Arabic page goes through the structure path: its title is a heading."""
    text = pages("right_to_left_01.pdf")[0][0]
    assert headings(text)[:1] == ["تحسين الإنتاجية وحل المشكلات من خلال البرمجة بلغة R وPython"]


def test_footnote_marks_are_not_glued_to_the_word_before():
    """Item 4: ``Center1 reports`` and ``상해1)나`` keep the mark apart from the word."""
    paper = "\n".join(text for text, _ in pages("redp5110_sampled.pdf"))
    assert "Identity Theft Resource Center 1 reports" in paper
    assert "Ponemon Institute 2 revealed" in paper and "Center1" not in paper
    report = pages("normal_4pages.pdf")[0][0]
    assert "상해 1)나 재해 2)로" in report and "상해1)" not in report


def test_an_underscore_in_a_table_cell_stays_in_its_word():
    """Item 5: ``FUNCTION_ID`` (its underscore drawn apart from the letters) is one cell's
    word, not ``FUNCTION ID _``."""
    text = "\n".join(text for text, _ in pages("redp5110_sampled.pdf"))
    assert "| FUNCTION_ID | VARCHAR(30) | ID of the function. |" in text
    assert "FUNCTION ID _" not in text


def test_a_running_line_is_kept_once_out_of_the_flow():
    """Item 6: the report's running title, printed on every other page, is in the document
    once (a search still finds it) and not in the flow of each page that prints it."""
    texts = [text for text, _ in pages("redp5110_sampled.pdf")]
    running = "Row and Column Access Control Support in IBM DB2 for i"
    holding = [
        n for n, text in enumerate(texts, 1) if any(
            running in line and not line.startswith("#") for line in text.splitlines()
        )
    ]  # fmt: skip
    assert len(holding) == 1, holding


def test_the_heading_path_runs_on_past_the_page_end():
    """Item 7: page 2 of a paper is still in ``1 Introduction`` (page 1 opens it); its
    outline holds only the title, which says nothing of its sections. The same alone."""
    paper = "layout-parser-paper-fast.pdf"
    title = "LayoutParser: A Unified Toolkit for Deep Learning Based Document Image Analysis"
    assert pages(paper)[1][1] == [title, "1 Introduction"]
    assert pages(paper, "2")[0][1] == [title, "1 Introduction"]


def test_a_rotated_margin_stamp_is_a_line_not_a_heading():
    """Item 8: arXiv's rotated stamp in the margin is a plain line at the page's end, never a
    heading that opens a section of its own."""
    text = pages("layout-parser-paper-fast.pdf")[0][0]
    stamp = "arXiv:2103.15348v2 [cs.CV] 21 Jun 2021"
    assert stamp in text.splitlines()
    assert not any("arXiv" in h for h in headings(text))
    assert headings(text)[-1] == "1 Introduction"


def test_a_justified_line_split_at_a_sentence_end_is_one_line():
    """MuPDF splits a justified line at the wide space after a full stop (``facto method.``
    | ``In this work, we show that``): the abstract stays one paragraph."""
    text = pages("multi-column-2p.pdf", "1")[0][0]
    assert (
        "are the de facto method. In this work, we show that retrieval can be practically"
        " implemented using dense representations alone" in text
    )


def test_a_columns_line_ending_a_sentence_is_not_joined_to_the_next_columns_line():
    """A two-column LaTeX page with a 1-em gutter: the left column's ``... eget quam.`` and the
    right column's ``Morbi ultrices ...`` on one baseline look like a justified line split at
    a sentence's wide space, but MuPDF holds them in two blocks: two lines, and the left
    column's last paragraph is read whole before the right column."""
    text = pages("multicolumn.pdf", "2")[0][0]
    assert (
        "Morbi luctus, wisi viverra faucibus pretium, nibh est placerat odio, nec commodo wisi"
        " enim eget quam. Quisque libero justo" in text
    )
    assert "eget quam. Morbi ultrices" not in text
    assert text.index("Morbi luctus") < text.index("luctus et ultrices posuere cubilia")


def test_a_run_in_clause_heading_keeps_its_full_stop_where_mupdf_ends_the_line_before_it():
    """A Word contract's ``6. INSURANCE.`` run into its clause, underlined: MuPDF ends its line
    at the underline's end, so the bold full stop opens the next fragment. The heading is the
    whole bold label, as printed."""
    text = pages("sample_contract.pdf", "3")[0][0]
    assert "6. INSURANCE." in headings(text)
    assert "\nCONSULTANT, at its sole cost and expense" in text


def test_a_lettered_clause_after_a_wrapped_one_opens_a_paragraph_of_its_own():
    """A contract's ``B.`` sub-clause wraps under its text (a hanging indent) and ends short of
    the edge by less than ``C.`` is wide: ``C.`` at the letters' x opens the next sub-clause,
    as a bullet or ``b)`` does, not a line of the one before."""
    text = pages("sample_contract.pdf", "8")[0][0]
    assert "provided by the COMMISSION’s Contract Manager.\n\nC. There shall be no change" in text
    assert "\n\nD. No oral understanding" in text


def test_an_end_of_proof_mark_at_the_right_of_a_line_ends_that_line_and_opens_no_item():
    """A math course's ``■`` closing a remark, set flush right on the remark's last line (its
    box a little higher than the line's tall math box): the mark ends that line, no bullet that
    opens a list item and cuts the remark's paragraph in two."""
    text = pages("GeoTopo-komprimiert.pdf", "6")[0][0]
    assert (
        "Außerdem XC = X \\ X = ∅∈T und X \\ ∅= X ∈T, d. h. X und ∅sind als Komplement offener"
        " Mengen abgeschlossen. ■" in text
    )
    assert "\n- \n" not in text and "\n-\n" not in text


def test_an_item_set_in_under_a_full_line_that_ends_a_sentence_opens_a_list_item():
    """A definition's justified last line runs to the edge and ends with a colon or a full
    stop; the ``a)`` under it is set in past the definition's text: a list item, not the
    definition's line run on (GeoTopo p65, a section start)."""
    text = pages("GeoTopo-komprimiert.pdf", "65")[0][0]
    assert "Abbildung ◦: G × X →X für die gilt:\n\na) 1G" in text
    assert "eine Gruppenoperation.\n\na) G operiert durch Homöomorphismen" in text


def test_an_items_short_last_line_under_a_tall_math_box_goes_on_with_the_item():
    """An item's last line under a line whose box a Fraktur or overlined letter makes tall: the
    boxes overlap over half the short line's height, but the lines overlap across the column,
    one under the other, not on one row: the item stays whole (GeoTopo p7 and p71)."""
    text = pages("GeoTopo-komprimiert.pdf", "7")[0][0]
    assert "Vereinigung von Elementen aus B ist." in " ".join(text.split())
    assert "\n\naus B ist." not in text
    text = pages("GeoTopo-komprimiert.pdf", "71")[0][0]
    assert "also auch AP ′ und AQ." in text


def test_a_label_set_back_under_an_items_formula_is_no_wrap_of_the_item():
    """GeoTopo p53: ``Beispiel 33`` at the column's left under an item ``b)`` set in, whose
    line, a formula, ends no sentence and runs to the edge: a label of its own, not the item's
    wrap set back left of its label (``flow._set_back``: after a word or a comma only)."""
    text = pages("GeoTopo-komprimiert.pdf", "53")[0][0]
    assert "(g∗◦f∗)([γ])\n\nBeispiel 33" in text


def test_a_bold_label_run_in_after_a_sentences_end_opens_a_paragraph():
    """A two-column paper's datasets, each a paragraph opening with its name in bold run in, no
    indent, the line before ending a sentence (full or short: ``TriviaQA`` is too wide for the
    room left): each its own paragraph, not run on into the one before (the DPR paper's p4); not
    after a colon, nor at a word's bold part (IBM's back cover: ``ibm.com/redbooks``)."""
    text = pages("multi-column.pdf", "4")[0][0]
    for name in ("TriviaQA (Joshi", "WebQuestions (WQ)", "CuratedTREC (TREC)", "SQuAD v1.1"):
        assert re.search(r"\.\n\n(\*\*)?" + re.escape(name), text), name
    # after a colon, and a bold part of a word (``ibm.com/redbooks``): no label run in
    text = pages("redp5110_sampled.pdf")[-1][0]
    assert "For more information: ibm.com/redbooks" in text.replace("**", "")


def test_a_paragraph_ending_a_column_at_a_full_stop_goes_on_unindented_under_the_next_float():
    """The DPR paper's p6: ``Impact of gold passages ... (Section 4.2).`` ends the left column at
    a full stop and goes on in the right column under Table 3 and its caption, its first line
    not indented where the page's paragraphs open indented: one paragraph; the right column's
    run-in heads (``Similarity and loss``) still open paragraphs of their own."""
    text = pages("multi-column.pdf", "6")[0][0]
    assert "(Section 4.2). Our experiments on Natural Questions" in " ".join(text.split())
    assert "\n\nSimilarity and loss" in text.replace("**", "")


def test_an_abbreviation_ending_a_short_line_ends_no_sentence():
    """``1) Jede Basis ist auch eine Subbasis, z.B.`` then ``S = { ... } ist für R ...`` under it:
    ``z.B.`` (``e.g.``) ends no sentence, so the short line above ends no paragraph; the item
    stays whole (GeoTopo p7)."""
    text = pages("GeoTopo-komprimiert.pdf", "7")[0][0]
    item = next(block for block in text.split("\n\n") if "Jede Basis ist auch" in block)
    assert "Subbasis, z.B." in item and "S = { (a, b) | a, b ∈R, a < b } ist für R" in item


def test_a_run_in_clause_headings_plain_full_stop_closes_the_heading_not_opens_the_clause():
    """``11. INDEPENDENT CONSULTANT STATUS. CONSULTANT and ...``: the bold label's full stop is
    set in the body's face, glued to it. It closes the heading (as a bold one does: ``6.
    INSURANCE.``); the clause's text does not open with a stray ``.``."""
    text = pages("sample_contract.pdf", "6")[0][0]
    assert "11. INDEPENDENT CONSULTANT STATUS." in headings(text)
    assert "\nCONSULTANT and COMMISSION have reviewed" in text
    assert "\n. " not in text


def test_a_references_hanging_indent_keeps_each_entry_one_paragraph():
    """The DPR paper's p9: a reference opens at the column's left, its first line full and
    ending no sentence, and wraps set in under it (a hanging indent): the entry is one
    paragraph, not its first line and the rest; the paragraphs above, opening indented, and the
    heading stay apart."""
    text = pages("multi-column.pdf", "9")[0][0]
    blocks = text.split("\n\n")
    assert any(b.startswith("Akari Asai, Kazuma Hashimoto, Hannaneh Hajishirzi, Richard Socher,")
               for b in blocks)  # fmt: skip
    assert "## References" in blocks
    assert any(b.startswith("DPR has also been used as an important module") for b in blocks)
    assert any(b.endswith("or complex joint training schemes.") for b in blocks)


def test_a_line_whose_subscript_outnumbers_its_letters_goes_on_with_its_paragraph():
    """The DPR paper's p7: ``P_selected(i).`` ends a paragraph on a line of its own, most of its
    characters the 8 pt subscript, its box as tall as the 11 pt lines: no smaller line, so the
    paragraph goes on there; the 9 pt footnote at the column's foot stays out of the paragraph
    it interrupts."""
    text = pages("multi-column.pdf", "7")[0][0]
    assert "a passage selection score of the i-th passage as Pselected(i)." in text
    paragraph = next(b for b in text.split("\n\n") if b.startswith("We implement an end-to-end"))
    assert "FAISS configuration" not in paragraph


def test_a_line_set_small_by_its_math_stays_apart_where_it_is_no_wrap():
    """GeoTopo p36 and p37: a line whose math sets it at a script's size ends a statement
    (``... = F −1 j.``) over ``Ausführung: Sei ...``, or a list item (``5) (R n, +), denn ...``)
    over a display set in under it: the line after opens its own block, not taken for a wrap of
    a line of scripts."""
    text = pages("GeoTopo-komprimiert.pdf", "36")[0][0]
    assert "\n\nAusführung: Sei u0" in text
    text = pages("GeoTopo-komprimiert.pdf", "37")[0][0]
    assert "differenzierbar\n\n(A−1)(i, j)" in text


def test_the_next_label_under_a_full_one_line_item_opens_the_next_item():
    """GeoTopo p33: ``b) f heißt differenzierbar ... ist.`` fills its line and ends a sentence,
    ``c) f heißt Diffeomorphismus ...`` opens the line under it at its x: the next item, not
    the rest of b)."""
    blocks = pages("GeoTopo-komprimiert.pdf", "33")[0][0].split("\n\n")
    assert any(b.startswith("b) f heißt") and b.endswith("differenzierbar ist.") for b in blocks)
    assert any(b.startswith("c) f heißt Diffeomorphismus") for b in blocks)


def test_a_wrap_of_an_item_opening_with_the_next_number_stays_in_the_item(tmp_path):
    """An item's wrapped line set in past its label that opens with the next label's text
    (``2) of the schedule``, a clause named) is no next item: only a label at the item's x is."""
    rows = [
        (72.0, 100, "1) Payment is due within thirty days of the date of the invoice as it is set out in"),
        (86, 114, "2) of the schedule, and any late payment costs interest at the usual rate."),
        (72, 128, "2) The work is accepted in writing once it has been inspected by the owner."),
    ]
    blocks = drawn_markdown(tmp_path, lambda page: _rows(page, rows, 11)).split("\n\n")
    item = "as it is set out in 2) of the schedule, and any late payment costs interest at the"
    assert any(b.endswith(item + " usual rate.") for b in blocks)
    assert any(b.startswith("2) The work is accepted") for b in blocks)


def test_a_paragraph_runs_on_past_the_labels_of_the_photos_under_it():
    """The handbook's p1: ``... The wing type that is`` ends the left column's text over a
    figure of five photos whose names (``Boots aircraft nut``, ``Elastic stop nut``) are set
    small under them, above the caption; the paragraph goes on at the top of the right column
    (``the most common ranges ...``), and the last label stays a label."""
    blocks = pages("amt_handbook_sample.pdf", "1")[0][0].split("\n\n")
    assert any("The wing type that is the most common ranges in size" in b for b in blocks)
    assert "Elastic stop nut" in blocks


def test_short_lines_at_the_bodys_size_under_a_columns_paragraph_are_no_labels(tmp_path):
    """A column's paragraph that breaks off over a few short lines set apart in its own size (a
    list without bullets), the next column going on in lower case: the short lines are text, no
    picture's labels, so the last of them, not the paragraph above, runs on."""

    def draw(page: pymupdf.Page) -> None:
        for i, line in enumerate([
            "The stores will take the fruit in the order",
            "listed below, as the growers have agreed,",
            "and the first deliveries are the ones of",
        ]):  # fmt: skip
            page.insert_text((56, 70 + 12 * i), line, fontsize=9)
        for i, word in enumerate(["Apples", "Pears", "Plums"]):  # set apart: a block each
            page.insert_text((56, 120 + 30 * i), word, fontsize=9)
        for i, line in enumerate([
            "and cherries at the end of the summer, when",
            "the last of the orchards has been picked.",
        ]):  # fmt: skip
            page.insert_text((316, 70 + 12 * i), line, fontsize=9)

    text = drawn_markdown(tmp_path, draw)
    assert "Plums and cherries at the end" in " ".join(text.split())
    assert "are the ones of and cherries" not in " ".join(text.split())


def _set_lines(
    page: pymupdf.Page, rows: list[list[tuple[str, str]]], x: float = 72, y: float = 80,
    size: float = 10,
) -> None:  # fmt: skip
    """Lines of a paragraph from (x, y), 1.4 sizes apart, each a run of (text, font) spans."""
    for i, spans in enumerate(rows):
        at = x
        for text, font in spans:
            page.insert_text((at, y + 1.4 * size * i), text, fontname=font, fontsize=size)
            at += pymupdf.get_text_length(text, fontname=font, fontsize=size)


def test_a_bold_word_of_a_sentence_after_a_full_stop_opens_no_paragraph(tmp_path):
    """A bold word that opens a wrapped line after one ending at a full stop, going on in lower
    case (emphasis: ``Important changes were``), or after an abbreviation's stop (``Dr.``), is
    a word of the paragraph, not a label run in: the paragraph stays one."""
    rows = [
        [("The committee reviewed the proposal and found it sound. The chair then", "helv")],
        [("asked for comments from every member of the board, which took the day.", "helv")],
        [("Important", "hebo"), (" changes were adopted at once, and the rest was deferred", "helv")],
        [("to the next meeting of the board, as the rules ask. The minutes are by Dr.", "helv")],
        [("Smith", "hebo"), (" of the board's office, who keeps them for ten years at least.", "helv")],
    ]  # fmt: skip
    text = drawn_markdown(tmp_path, lambda page: _set_lines(page, rows)).replace("**", "")
    assert "\n\n" not in text.strip() and "took the day. Important changes" in text
    assert "by Dr. Smith of the board's office" in text


def test_a_short_line_ending_at_a_clock_times_stop_ends_its_paragraph(tmp_path):
    """``a.m.`` and ``p.m.`` end a sentence where a line stops short (no abbreviation a sentence
    goes on after, as ``z.B.`` is): three paragraphs stay three."""
    rows = [
        [("The office opens every weekday morning for visitors and staff alike, at", "helv")],
        [("exactly 9 a.m.", "helv")],
        [("Deliveries are taken at the back door only, and never after the gate closes, at", "helv")],
        [("about 5 p.m.", "helv")],
        [("Parking is free for all visitors who show a valid ticket at the front desk.", "helv")],
    ]  # fmt: skip
    blocks = drawn_markdown(tmp_path, lambda page: _set_lines(page, rows)).split("\n\n")
    assert len(blocks) == 3 and blocks[1].startswith("Deliveries")


def test_a_run_in_head_under_the_next_columns_float_opens_its_own_paragraph(tmp_path):
    """Two columns whose paragraphs open indented; the left ends at a full stop; the right opens
    with a ruled table and its caption, then ``Ablation.`` (an italic head run in): a paragraph
    of its own, not the left column's last one going on."""

    def draw(page: pymupdf.Page) -> None:
        lines = [
            "Dense retrieval methods map questions and passages",
            "into one vector space and compare them by inner",
            "product, which lets a search over millions of passages",
            "run fast enough for open-domain question answering.",
        ]
        for i in range(48):  # twelve paragraphs, each opening 12 pt in
            page.insert_text((56 + (12 if i % 4 == 0 else 0), 70 + 12 * i), lines[i % 4], fontsize=9)
        for r in range(5):
            for c in range(3):
                page.draw_rect(pymupdf.Rect(316 + 80 * c, 62 + 14 * r, 396 + 80 * c, 76 + 14 * r))
                page.insert_text((319 + 80 * c, 72 + 14 * r), f"cell {r}{c}", fontsize=9)
        page.insert_text((316, 146), "Table 1: Top-20 retrieval accuracy on five datasets.",
                         fontsize=9)  # fmt: skip
        _set_lines(page, [[("Ablation.", "heit"), (" We remove the in-batch negatives and", "helv")]],
                   x=316, y=170, size=9)  # fmt: skip
        for i, line in enumerate([
            "train the encoders with only one negative each, which",
            "lowers the accuracy by several points on every dataset.",
            "A second paragraph of the right column follows here",
            "and runs on for another line before it ends for good.",
        ]):  # fmt: skip
            page.insert_text((316 + (12 if i == 2 else 0), 182 + 12 * i), line, fontsize=9)

    text = drawn_markdown(tmp_path, draw).replace("*", "")
    assert "question answering.\n\n" in text and "\n\nAblation. We remove" in text


def _justified(page: pymupdf.Page, x: float, y: float, text: str, width: float = 360) -> None:
    """A line set justified from ``x`` to ``x + width`` (its words spread), 10 pt Helvetica."""
    words = text.split()
    room = width - sum(pymupdf.get_text_length(w, "helv", 10) for w in words)
    at = x
    for word in words:
        page.insert_text((at, y), word, fontname="helv", fontsize=10)
        at += pymupdf.get_text_length(word, "helv", 10) + room / max(len(words) - 1, 1)


def test_a_display_set_in_under_a_full_line_is_no_hanging_indents_wrap(tmp_path):
    """A paragraph's lead runs to the column's edge ending no sentence, a formula centred under
    it ends at a stop, and the text goes on at the left in a new sentence: the formula is not a
    wrap of the lead (a reference's hanging indent), so the lead stays a block of its own; the
    references under it, each opening at the left with its wraps set in, are one block each."""

    def draw(page: pymupdf.Page) -> None:
        page.insert_text((72, 60), "2 Training", fontname="hebo", fontsize=12)
        _justified(page, 72, 80, "We train both encoders on pairs of questions and passages and minimise")
        page.insert_text((120, 96), "L(q, p) = - log sim(q, p) + log sum sim(q, p'), all.",
                         fontname="helv", fontsize=10)  # fmt: skip
        body = [
            "Here q is a question and p the passage that answers it, drawn from the",
            "batch. The other passages of the batch serve as negatives, so that no",
            "extra passages are needed for training at all and every step sees more.",
        ]
        for i, line in enumerate(body):
            _justified(page, 72, 112 + 14 * i, line)
        page.insert_text((72, 170), "References", fontname="hebo", fontsize=12)
        refs = [
            (72, "Akari Asai, Kazuma Hashimoto, Hannaneh Hajishirzi, Richard Socher, and"),
            (84, "Caiming Xiong. 2020. Learning to retrieve reasoning paths over the graph"),
            (84, "for question answering. In Conference on Learning Representations."),
            (72, "Petr Baudis and Jan Sedivy. 2015. Modeling of the question answering task"),
            (84, "in the yodaqa system. In Conference of the Cross-Language Evaluation."),
        ]
        for i, (x, line) in enumerate(refs):
            if line.endswith("."):
                page.insert_text((x, 190 + 14 * i), line, fontname="helv", fontsize=10)
            else:
                _justified(page, x, 190 + 14 * i, line, 432 - x)

    blocks = drawn_markdown(tmp_path, draw).split("\n\n")
    assert "We train both encoders on pairs of questions and passages and minimise" in blocks
    assert any(b.startswith("Akari Asai") and b.endswith("Learning Representations.") for b in blocks)
    assert any(b.startswith("Petr Baudis") and b.endswith("Evaluation.") for b in blocks)


def test_a_full_size_piece_under_a_line_is_no_script_of_it():
    """GeoTopo p36: ``F⁻¹ⱼ.`` ends a sentence: the subscript ``j`` under ``−1`` is read before
    the stop; the display's full-size pieces (a fraction's, a matrix's) are no scripts, so they
    do not join the line in their place and push the ``j`` past the stop (``F −1. j``)."""
    text = pages("GeoTopo-komprimiert.pdf", "36")[0][0]
    assert "|S∩W = F −1 j." in text and "F −1. j" not in text


def test_a_chapters_title_under_its_large_number_is_no_script_of_the_label(tmp_path):
    """A KOMA chapter opening (udesoftec-doc p16): a huge ``3`` beside ``Kapitel``, the title
    ``FAQ`` at twice the body under ``Kapitel``, its box inside the digit's row: no script of
    that line (it is larger than ``Kapitel``, the piece it lies under), a heading of its own."""

    def draw(page: pymupdf.Page) -> None:
        page.insert_text((107, 200), "3", fontsize=54, fontname="hebo")
        page.insert_text((152, 170), "Kapitel", fontsize=11, fontname="hebo")
        page.insert_text((151, 197), "FAQ", fontsize=20.7, fontname="hebo")
        for i in range(6):
            page.insert_text((72, 240 + 14 * i), "Plain body text of the chapter runs on "
                             "here for a while, line after line.", fontsize=10)  # fmt: skip

    text = drawn_markdown(tmp_path, draw)
    assert "Kapitel FAQ" not in text and "FAQ" in headings(text)


def test_a_display_formula_in_a_text_face_heads_no_section():
    """GeoTopo p19: ``⇒ ⋃ (Uij ∩A) ∪((X \\ A) ∩A) = A`` set apart in TeX's roman (the body is
    sans serif) with its limits read into its line: a formula of several signs, no heading."""
    text = pages("GeoTopo-komprimiert.pdf", "19")[0][0]
    assert "(Uij ∩A) ∪((X \\ A) ∩A) = A" in text
    assert not [h for h in headings(text) if "∩" in h or "=" in h]


def test_a_fractions_denominator_under_its_numerator_is_no_line_of_text_under_another():
    """GeoTopo p93: a Jacobian's entries (``∂u(p)`` over ``∂y``) lie one under another as an
    item's last line lies under a tall line of text, but they are a formula's pieces: the
    matrix still ends its block, the remark after it opens its own."""
    text = pages("GeoTopo-komprimiert.pdf", "93")[0][0]
    assert "\nBemerkung 73 (Eigenschaften der Tangentialebene)" in text
    assert "\n\na) TsS ist 2-dimensionaler Untervektorraum" in text


def test_an_equation_number_at_a_columns_edge_is_not_joined_to_the_next_columns_line():
    """A two-column paper's ``(1)`` set at the left column's right edge, 1.5 ems before the right
    column's line on its row: no label of that line (a line across the gutter reads the band
    row by row, both columns' lines mixed), and the left column's paragraph stays whole."""
    text = pages("multi-column.pdf", "3")[0][0]
    assert "(1) as the negative log likelihood" not in text
    assert (
        "are the closest to the question vector. We define the similarity between the question"
        " and the passage using the dot product of their vectors:" in text
    )


def test_a_tables_check_mark_glyph_is_no_label_of_the_number_beside_it():
    """The DPR paper's Table 3: an ``IB`` column of check marks (an unmapped glyph, a control
    character in the text layer) before ``Top-5``'s numbers. The mark is no bullet of the
    number: ``47.0`` is a cell of its own and ``Top-5`` heads its own column."""
    text = pages("multi-column.pdf", "6")[0][0]
    rows = [line for line in text.splitlines() if line.startswith("|")]
    assert any(re.search(r"\| Top-5 \|", row) for row in rows)
    assert any(re.search(r"\| 47\.0 \| 64\.3 \| 77\.8 \|", row) for row in rows)


def test_an_appendix_heading_wrapped_under_its_title_is_one_heading():
    """A paper's appendix heads are lettered without a stop (``B Alternative Similarity
    Functions &`` over ``Triplet Loss`` set under the title past the letter): one heading, as a
    numbered head wrapped under itself is, not two."""
    heads = headings(pages("multi-column.pdf", "12")[0][0])
    assert "B Alternative Similarity Functions & Triplet Loss" in heads
    assert "D Joint Training of Retriever and Reader" in heads
    assert "Reader" not in heads


def test_a_right_column_that_starts_beside_a_heading_is_read_after_the_left_one():
    """The right column's first line sits on the row of the left column's ``Abstract``
    heading, under a centred author block: it opens the right column, not the abstract."""
    text = pages("multi-column-2p.pdf", "1")[0][0]
    assert "Retrieval in open-domain QA is usually implemented using TF-IDF or BM25" in text
    assert text.index("## Abstract") < text.index("Open-domain question answering relies")
    assert text.index("1 Introduction") < text.index("Retrieval in open-domain QA is usually")


def test_a_surveyed_page_read_without_its_pictures_gets_them_back_as_a_full_reading():
    from docread.extractors.pdf.library import load_pymupdf
    from docread.extractors.pdf.survey import sample
    from docread.extractors.pdf.text.reading import read_page, with_pictures

    path = CORPUS / "pdf" / "GeoTopo-komprimiert.pdf"
    if not path.is_file():
        pytest.skip(f"corpus not present at {CORPUS}")
    with load_pymupdf().open(path) as doc:
        pictured = [n for n in sample(doc.page_count) if doc[n].get_images()]
        assert pictured  # the survey samples pages that draw pictures
        for n in pictured:
            full = read_page(doc[n], 5000)
            bare = read_page(doc[n], 5000, pictures=False)
            assert full.pictures and not bare.pictures
            again = with_pictures(doc[n], bare)
            assert (again.lines, again.pictures, again.rects) == (
                full.lines,
                full.pictures,
                full.rects,
            )


def _rows(page: pymupdf.Page, rows: list[tuple[float, float, str]], size: float = 10) -> None:
    """Writes each ``(x, y, text)`` on ``page``: ■, □ and � in DejaVu Sans, the rest in Helvetica."""
    for x, y, text in rows:
        square = text in ("■", "□", "\ufffd")
        font = {"fontname": "F0", "fontfile": SQUARES} if square else {"fontname": "helv"}
        page.insert_text((x, y), text, fontsize=size, **font)


def test_a_square_bullet_in_the_next_column_ends_no_line_of_this_one(tmp_path):
    """A paragraph beside a list whose items open with ``■`` in the next column: a bullet of its
    item's text, no end of proof of the left column's line on its row (the columns read one
    after the other, the paragraph whole)."""
    left = ["The left column holds an ordinary paragraph", "of running text that wraps over several",
            "lines of the page and goes on for a while", "before it comes to its own end, like this.",
            "Another sentence follows here in the left", "column, still part of the same paragraph."]
    items = ["Fast export to many formats", "Cloud sync across devices", "An audit log of changes"]
    rows = [(72.0, 100.0 + 13 * i, line) for i, line in enumerate(left)]
    rows.append((320, 100, "Features of the product:"))
    for i, item in enumerate(items, 1):
        rows += [(320, 100 + 13 * i, "■"), (338, 100 + 13 * i, item)]
    text = drawn_markdown(tmp_path, lambda page: _rows(page, rows))  # fmt: skip
    flat = " ".join(text.split())
    assert "ordinary paragraph of running text that wraps over several lines of the page" in flat
    assert "several ■" not in flat and "while ■" not in flat
    assert text.index("same paragraph.") < text.index("Features of the product:")


def test_squares_in_an_unruled_tables_cells_end_no_line_and_keep_the_table(tmp_path):
    """A feature table without rules, ``■`` (has it) and ``□`` (has it not) in its cells: no end
    of proof of the row's label, the table stays a table."""
    rows = [(72.0, 100.0, "Feature comparison of the three products is shown below in the table.")]
    cells = [("Feature", "Basic", "Pro"), ("Export to CSV", "■", "■"), ("Cloud sync", "□", "■"),
             ("Audit log", "□", "■"), ("Priority support", "□", "□")]  # fmt: skip
    for i, (label, basic, pro) in enumerate(cells):
        rows += [(72, 130 + 16 * i, label), (300, 130 + 16 * i, basic), (400, 130 + 16 * i, pro)]
    text = drawn_markdown(tmp_path, lambda page: _rows(page, rows, 11))
    assert "| Feature | Basic | Pro |" in text
    assert "| Priority support |" in text and "support □" not in text
    assert "| Export to CSV | ■ | ■ |" in text and "| Cloud sync | □ | ■ |" in text  # its values


def test_a_box_alone_on_its_line_is_kept_and_opens_no_empty_list_item(tmp_path):
    """A form's tick box ``□`` set far right of a paragraph's line, too far to join it: a line of
    its own that keeps its glyph, not a bullet of nothing (an empty ``-`` item that cut the
    paragraph and lost the box)."""
    rows = [(72.0, 100.0, "The applicant has read the terms and conditions set out in this and"),
            (72, 114, "agrees to all of them in full as indicated by the mark in the box at"),
            (500, 114, "□"),
            (72, 128, "the right and by the signature given at the bottom of this page here.")]
    text = drawn_markdown(tmp_path, lambda page: _rows(page, rows, 11))  # fmt: skip
    assert "□" in text
    assert "-" not in [line.strip() for line in text.splitlines()]


def test_a_glyph_the_text_layer_cannot_name_alone_is_no_value_of_a_cell_nor_part_of_a_sentence(
    tmp_path,
):
    """U+FFFD, a glyph with no Unicode (a formula's big operator), alone in a table's cell is no
    value, unlike a box or tick: the cell stays empty; alone on a line beside prose it is not
    glued into the sentence (GeoTopo's lone operators read as ``abgeschlossen �``)."""
    cells = [("Symbol", "Meaning", "Page"), ("A", "\ufffd", "12"), ("B", "the second", "14"),
             ("C", "the third", "15"), ("D", "the fourth", "16")]  # fmt: skip
    rows = [(72.0, 100.0, "The symbols of the chapter and what each one of them means are these.")]
    for i, row in enumerate(cells):
        rows += [(x, 130 + 16 * i, cell) for x, cell in zip((72, 250, 400), row, strict=True)]
    rows += [(72, 250, "The set is closed and so is its image under the map that we defined"),
             (300, 264, "\ufffd"),
             (72, 278, "in the chapter before this one, which ends the proof of the claim.")]
    text = drawn_markdown(tmp_path, lambda page: _rows(page, rows, 11))  # fmt: skip
    assert "| Symbol | Meaning | Page |" in text and "| A |  | 12 |" in text
    assert "defined \ufffd" not in text and "\ufffd in the chapter" not in text


def test_an_initial_opening_a_paragraphs_line_opens_no_list_item(tmp_path):
    """``J. Smith and his colleagues`` opens the second line of a paragraph whose first line is
    set in (a first-line indent): a name's initial, no lettered item ``J.`` (no ``I.`` or ``K.``
    at its x), the paragraph whole."""
    rows = [(72.0, 100.0, "This paragraph is an ordinary one before the next paragraph in the text."),
            (72, 114, "It ends here with a full stop and nothing more to say about the matter."),
            (90, 128, "Recent work on the topic was carried out over many years by the team led by"),
            (72, 142, "J. Smith and his colleagues at the university, who measured the effect in a"),
            (72, 156, "long series of careful experiments that are still cited widely today by many.")]
    text = drawn_markdown(tmp_path, lambda page: _rows(page, rows, 11))  # fmt: skip
    assert "by the team led by J. Smith and his colleagues" in " ".join(text.split())
    assert "\n\nJ. Smith" not in text


def test_an_end_of_proof_mark_ends_the_line_it_is_set_on_not_one_beside_or_above_it():
    """GeoTopo's ``■`` at the right edge ends the proof's last line: the line whose row it
    shares most, its row's last piece (p42: not the sum sign in the formula's middle; p62: not
    the line above; p107: not the line above, read after its own)."""
    text = pages("GeoTopo-komprimiert.pdf", "42")[0][0]
    assert "+ � ■" not in text and "(−1)k ■" not in text and "= χ(∆) ■" in text
    text = pages("GeoTopo-komprimiert.pdf", "62")[0][0]
    assert "Analog gilt f ◦g = id ˜Y . ■" in text and "id ˜ ■ X." not in text
    text = pages("GeoTopo-komprimiert.pdf", "107")[0][0]
    assert "⇒ϕ(∠ABC) = ∠ACB\n⇒∠ABC ∼= ∠ACB ■" in text


def test_a_german_abbreviation_opening_a_line_opens_no_lettered_item():
    """``O. B. d. A.`` (o. B. d. A.: without loss of generality) opening a line under a line set
    in is no lettered item: no ``N.`` or ``P.`` opens a line at its x (GeoTopo p15)."""
    assert "\n\nO. B. d. A. sei N" not in pages("GeoTopo-komprimiert.pdf", "15")[0][0]


def test_a_proofs_item_under_a_short_line_keeps_its_wrapped_line():
    """A proof's ``a)`` set in under ``Beweis:`` (a short line alone at its x, not a full line
    ending a sentence) opens no item there, and its line wrapped under it stays in its
    paragraph (GeoTopo p31: no cut between ``mit`` and ``ε = ...``)."""
    text = pages("GeoTopo-komprimiert.pdf", "31")[0][0]
    assert "F(Bδ(y)) ⊆Bε(F(y)) mit ε = 12∥F(y)∥. Folgt" in text

def test_a_line_an_end_of_proof_mark_ends_ends_its_paragraph():
    """The ``■`` at the edge makes the proof's last line full, yet the paragraph ends there: the
    example's label under it opens a paragraph of its own (GeoTopo p6)."""
    text = pages("GeoTopo-komprimiert.pdf", "6")[0][0]
    assert "Mengen abgeschlossen. ■\n\nBeispiel 1 (Topologien)\n\n" in text


def test_an_examples_label_with_its_name_in_brackets_heads_no_section():
    """``Beispiel 14 (Stereographische Projektion)`` in bold opens an example, as ``Beispiel
    42`` does: a label of its paragraph, no heading of the outline (GeoTopo p15)."""
    text = pages("GeoTopo-komprimiert.pdf", "15")[0][0]
    assert "Beispiel 14 (Stereographische Projektion)" in text
    assert not any(h.startswith("Beispiel") for h in headings(text))



def test_two_columns_of_symbol_lists_are_a_table_each_not_one_across_the_gutter():
    """A math course's list of symbols, two page columns of headed two-cell lists (GeoTopo
    p112): each list is a table of its own, no row runs across the gutter into the other
    column's list, and the lists' headings are headings, not cells."""
    text = pages("GeoTopo-komprimiert.pdf", "112")[0][0]
    assert {"Mengenoperationen", "Geometrie", "Gruppen", "Wege"} <= set(headings(text))
    rows = [ln for ln in text.splitlines() if ln.startswith("|")]
    assert not [r for r in rows if "Komplement" in r and ("Perm" in r or "Wege" in r)]
    assert "| [γ] | Homotopieklasse von γ |" in text


def test_a_symbol_given_on_one_line_with_its_meaning_is_cut_into_two_cells_at_the_column():
    """MuPDF gives ``A × B   Kreuzprodukt`` as one line (TeX's box), and docread joins ``∂M``
    to its text across the gap: where the list's other meanings start at that edge, the line
    is cut there into the symbol's cell and the meaning's (GeoTopo p112)."""
    text = pages("GeoTopo-komprimiert.pdf", "112")[0][0]
    assert "| ∂M | Rand der Menge M |" in text and "| A × B | Kreuzprodukt |" in text
    assert "| γ1 ∗γ2 | Zusammenhängen von Wegen |" in text


def test_lists_set_one_under_another_with_their_own_columns_are_tables_each():
    """GeoTopo p112's right column holds three symbol lists one under another, each set tight
    with its meanings at its own x and a blank line between them: each is a table, not one
    run whose columns overlap and fold into one (which read as text)."""
    text = pages("GeoTopo-komprimiert.pdf", "112")[0][0]
    assert "| B | Basis einer Topologie |" in text and "| A | Atlas |" in text
    assert "| ⟨a⟩ | Erzeugnis von a |" in text and "| πX | Projektion auf X |" in text


def test_a_list_of_symbols_starting_lowercase_is_no_sentence_carried_on():
    """A list whose symbols start in lowercase (``f−1(M)``, ``χ(K)``: no word in them) beside
    their meanings is a table; only lines with a word count as a sentence carried on."""
    text = pages("GeoTopo-komprimiert.pdf", "112")[0][0]
    assert "| f−1(M) | Urbild von M |" in text and "| χ(K) | Euler-Charakteristik von K |" in text


def test_a_meaning_wrapped_in_a_symbol_list_set_loose_stays_in_its_cell():
    """GeoTopo p112 sets a meaning's wrapped line as far under it as the next row: a row with
    only that line, its symbol's column empty in a list whose symbols key every other row, is
    the cell above carried on, not a row of its own."""
    text = pages("GeoTopo-komprimiert.pdf", "112")[0][0]
    assert "| AB | Gerade durch die Punkte A und B |" in text
    assert "| GLn(K) | Allgemeine lineare Gruppe (von General Linear Group) |" in text


def test_an_affiliations_mark_joined_to_its_line_is_no_cell():
    """A paper's affiliations (``4 University of Washington``: the raised mark joined to its
    line across a wide gap, the lines under it starting where the text does) are no table:
    a bare number left of such a gap is a mark or a list's number, no cell (layout-parser
    p1)."""
    text = pages("layout-parser-paper-fast.pdf", "1")[0][0]
    assert not [ln for ln in text.splitlines() if ln.startswith("|") and "University" in ln]
    assert "University of Waterloo" in text


def test_rows_of_symbols_in_tall_math_boxes_stay_apart():
    """A symbol set in a math font (``A ⊆B``) comes in a box nearly twice its line's height:
    the row under it, its middle within that box's half height but not within its own, is a
    row of its own, not glued into the one above (GeoTopo p112)."""
    text = pages("GeoTopo-komprimiert.pdf", "112")[0][0]
    assert "| A ⊆B | Teilmengenbeziehung |" in text
    assert "| A ⊊B | echte Teilmengenbeziehung |" in text


def _pipe_rows(text: str) -> list[str]:
    return [ln for ln in text.splitlines() if ln.startswith("|")]


def test_a_display_formulas_pieces_are_not_cut_into_cells():
    """A display formula's pieces apart on its line (``∂u1 (p) = ∂F``, a vector's entries) hold
    no word: no cut there, and the proof's text around them is no table (GeoTopo p98)."""
    assert not [r for r in _pipe_rows(pages("GeoTopo-komprimiert.pdf", "98")[0][0]) if "Beweis" in r]


def test_a_formulas_lowercase_lines_without_words_are_no_symbol_list():
    """``k=0`` under a sum, ``d`` over it: lowercase lines without words count as a sentence's
    lines unless they open a row whose other cells hold words (a symbol before its meaning):
    two sums side by side are no table (GeoTopo p45)."""
    assert not [r for r in _pipe_rows(pages("GeoTopo-komprimiert.pdf", "45")[0][0]) if "k=0" in r]


def test_a_case_label_before_its_formula_is_not_cut_off_as_a_cell():
    """``Fall 1`` set apart before its condition, its explanation under it: a case's label, as
    ``1.`` is an item's, no cell of a table (GeoTopo p88)."""
    assert not [r for r in _pipe_rows(pages("GeoTopo-komprimiert.pdf", "88")[0][0]) if "Fall 1" in r]


def test_an_index_entry_under_another_is_not_glued_to_it():
    """An index's sub-entry under an entry ending in its page number starts an entry of its
    own, though the key column beside it is empty (GeoTopo p115)."""
    assert "allgemeine lineare, 22, 26 spezielle" not in pages("GeoTopo-komprimiert.pdf", "115")[0][0]


def test_a_matrix_closing_bracket_a_little_low_stays_in_its_row():
    """A Jacobian matrix's closing bracket piece sits a little lower than its row's first line
    (a taller one) but level with the line it ends: it stays in the row, and the matrix's right
    column is read with it, not after the next paragraph (GeoTopo p34)."""
    text = pages("GeoTopo-komprimiert.pdf", "34")[0][0]
    assert text.index("r′(v) sin u") < text.index("Kugelkoordinaten")


def test_a_subscript_stacked_under_a_superscript_is_read_where_it_is_set():
    """The DPR paper's ``w_e^(i) from``: MuPDF gives the subscript ``e`` (set under the raised
    ``(i)``, so its box starts inside the line's) as a line of its own, lower than ``from``
    beside it: it is read at its place in the line, not after the line's last word."""
    text = pages("multi-column-2p.pdf", "2")[0][0]
    assert "· · · , w(i) e from one of the passages pi that can answer" in text
    assert "w(i) 1 , w(i) 2 , · · · , w(i) |pi|. Given a question q," in text


def test_a_big_operators_limit_is_read_after_the_operator_not_after_the_line():
    """GeoTopo p6's ``⋃_{i∈I} U_i ∈ T``: the limit ``i∈I`` set under the union sign, lower than
    the ``U_i`` beside it, is read after the sign, not after the line's last symbol."""
    text = pages("GeoTopo-komprimiert.pdf", "6")[0][0]
    assert re.search(r"für jedes i ∈I, so ist \S i∈I Ui ∈T\n", text)


def test_a_subscript_under_a_wide_superscript_is_read_where_it_is_set():
    """The DPR paper's p7 ``[P_1^[CLS], ..., P_k^[CLS]]``: the ``k`` set under the raised
    ``[CLS]``, two ems wide, is read after it, not after the line's last word."""
    text = pages("multi-column.pdf", "7")[0][0]
    assert "[P[CLS] 1 , . . . , P[CLS] k] ∈R h×k and wstart" in text
