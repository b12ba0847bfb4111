"""PDF structure (``pdf.structure: auto``) on slides and Word pages as LibreOffice prints them,
issue 33's fifth round: bench/real_pdf.py's ``extra`` split scores the corpus's slide decks and
more Word/ODF/HTML documents exported to PDF (bench/pdf_truth/README.md); each test here prints
one thing those pages showed the engine getting wrong, or one of the kinds the held-out half
holds and the tuning half lacks (a contract's clause headings, body-size headings), on a
generated page."""

from __future__ import annotations

import textwrap
from collections.abc import Callable

import docread
import pymupdf
from factories import drawn, pdf
from test_pdf_real_structure import headings


def _read(reader: docread.Reader, name: str) -> str:
    return next(d.text for d in reader.read(name).documents if "table_index" not in d.metadata)


def test_a_slides_list_and_the_lines_in_its_style_are_no_headings(reader, tmp_path):
    """fake-power-point.pptx and powerpoint_sample.pptx as LibreOffice prints them: a slide's
    bullets shrink by level, each larger than the slide's smallest text, and a line without a
    bullet in the first level's style opens or follows the list: the title is the slide's
    only heading, neither a bullet (``–`` at the second level) nor a line in a list's style."""

    def page(p: pymupdf.Page) -> None:
        p.insert_text((140, 80), "Adding a Bullet Slide", fontsize=44)
        rows = [
            (40, 130, "Let's introduce a list", 28),
            (40, 170, "• Find the bullet slide layout", 28),
            (75, 205, "– Use _TextFrame.text for first bullet", 24),
            (110, 235, "• Use _TextFrame.add_paragraph() for", 20),
            (123, 260, "subsequent bullets", 20),
            (40, 300, "Here is a lot of text!", 28),
            (40, 340, "Here is some text in a text box, set in the smallest size", 18),
            (40, 362, "of the slide: the notes under the list, in a box of their own.", 18),
        ]
        for x, y, text, size in rows:
            p.insert_text((x, y), text, fontsize=size)

    pdf(tmp_path / "slide.pdf", [drawn(page, width=720, height=540)])
    assert headings(_read(reader, "slide.pdf")) == ["Adding a Bullet Slide"]


def test_a_clause_number_at_a_tab_stop_before_its_title_heads_the_clause(reader, tmp_path):
    """A Word-made contract's numbered clause headings, bold at body size: the number, then its
    title at the list's tab stop half an inch on (about 2.5 ems at 11 pt and more: wider than a
    bullet's gap), are one heading line, ``1. Definitions``, ``2.1 Term``, not a number alone
    and a title beside it that no heading rule sees."""
    body = (
        "The Supplier shall deliver the goods described in the schedule to the premises of the "
        "Customer on the dates agreed in writing between the parties to this agreement."
    )

    def page(p: pymupdf.Page) -> None:
        p.insert_text((200, 72), "SERVICES AGREEMENT", fontname="tibo", fontsize=14)
        y = 110
        for number, title in (("1.", "Definitions"), ("2.1", "Term"), ("10.", "Payment")):
            p.insert_text((72, y), number, fontname="tibo", fontsize=11)
            p.insert_text((108, y), title, fontname="tibo", fontsize=11)
            y += 18
            for line in (body[:85], body[86:]):
                p.insert_text((72, y), line, fontname="tiro", fontsize=11)
                y += 14
            y += 12

    pdf(tmp_path / "contract.pdf", [drawn(page, width=612, height=792)])
    text = _read(reader, "contract.pdf")
    assert headings(text) == ["SERVICES AGREEMENT", "1. Definitions", "2.1 Term", "10. Payment"]
    assert " ".join(text.split()).count(body) == 3  # each clause's paragraph whole


def test_italic_headings_at_body_size_stay_headings_beside_italic_quotations(reader, tmp_path):
    """A report sets its topic headings in the body's italic, one line each, and its
    quotations in the same italic, indented, for several lines on end: the quotations' many
    lines do not outweigh the headings (a style's runs are counted, not its lines), and the
    quotations stay text."""
    body = (
        "The committee reviewed the proposal in detail and found that the budget was sound, "
        "although several members raised concerns about the timeline for the second phase. "
    ) * 2
    quote = (
        "To be, or not to be, that is the question: whether tis nobler in the mind to suffer "
        "the slings and arrows of outrageous fortune, or to take arms against a sea of troubles"
    )
    titles = ["Background", "Findings", "Outlook", "Method", "Budget", "Staffing"]

    def page(n: int) -> Callable[[pymupdf.Page], None]:
        def draw(p: pymupdf.Page) -> None:
            y = 70 + 37 * n
            for s in range(3):
                p.insert_text((57, y), titles[3 * n + s], fontname="tiit", fontsize=10)
                y += 16
                for line in textwrap.wrap(body, 95):
                    p.insert_text((57, y), line, fontname="tiro", fontsize=10)
                    y += 12.5
                y += 8
                if s == 1:
                    for line in textwrap.wrap(quote, 40):
                        p.insert_text((90, y), line, fontname="tiit", fontsize=10)
                        y += 12.5
                    y += 8

        return draw

    pdf(tmp_path / "report.pdf", [drawn(page(n), width=595, height=842) for n in range(2)])
    text = "\n\n".join(d.text for d in reader.read("report.pdf").documents)
    assert headings(text) == titles


def test_a_line_set_out_left_of_a_list_items_bullet_ends_the_item(reader, tmp_path):
    """simple.odt as LibreOffice prints it: a nested bullet item, then body lines back at the
    margin, each a paragraph of its own set as far apart as the items: the line left of the
    item's bullet is no line of that item (the item stays ``Hockey``)."""

    def page(p: pymupdf.Page) -> None:
        p.insert_text(
            (68, 90), "These are a few of my favorite things:", fontname="hebo", fontsize=14
        )
        rows = [(68, "• Parrots"), (84, "• Hockey"), (68, "Analysis"), (68, "This is my thought.")]
        for i, (x, text) in enumerate(rows):
            p.insert_text((x, 115 + 21 * i), text, fontsize=12)

    pdf(tmp_path / "list.pdf", [drawn(page, width=612, height=792)])
    text = _read(reader, "list.pdf")
    assert "- Hockey\n\n" in text and "Analysis" in text.split("- Hockey", 1)[1]


def test_a_clause_number_printed_without_its_title_is_a_heading(reader, tmp_path):
    """A specification numbered in part (MasterFormat style): ``1.2`` stands alone where its
    title is left out, in the style and indent of the numbered headings ``1.1 SUMMARY`` around
    it: a heading of their level, not a stray line in the text."""
    body = (
        "Section includes the requirements for submittals, quality assurance and delivery of "
        "the products specified here, with the coordination of the work with other trades."
    )

    def page(p: pymupdf.Page) -> None:
        p.insert_text(
            (72, 72), "SECTION 09 91 23 - INTERIOR PAINTING", fontname="hebo", fontsize=12
        )
        y = 110
        for number in ("1.1 SUMMARY", "1.2", "1.3 SUBMITTALS", "1.4"):
            p.insert_text((72, y), number, fontsize=10)
            y += 16
            for line in textwrap.wrap(body, 90):
                p.insert_text((90, y), line, fontsize=10)
                y += 12
            y += 10

    pdf(tmp_path / "spec.pdf", [drawn(page, width=612, height=792)])
    found = headings(_read(reader, "spec.pdf"))
    assert found == [
        "SECTION 09 91 23 - INTERIOR PAINTING",
        "1.1 SUMMARY",
        "1.2",
        "1.3 SUBMITTALS",
        "1.4",
    ]


def test_an_examples_or_exercises_numbered_label_on_its_own_line_heads_no_section(reader, tmp_path):
    """Lecture notes set an example's or an exercise's label (``Beispiel 2.3``, ``Aufgabe 4``)
    bold on a line of its own over its list: a theorem-like label, like ``Satz 2.1``, heads no
    section; the section's own heading stays one."""
    body = (
        "Ein topologischer Raum heißt kompakt, wenn jede offene Überdeckung eine endliche "
        "Teilüberdeckung besitzt; diese Eigenschaft ist zentral für viele Sätze der Analysis."
    )

    def page(p: pymupdf.Page) -> None:
        p.insert_text((72, 72), "2.1 Kompaktheit", fontname="hebo", fontsize=14)
        y = 100
        for label in ("Beispiel 2.3", "Example 2.4", "Aufgabe 4", "Exercise 5.1"):
            for line in textwrap.wrap(body, 90):
                p.insert_text((72, y), line, fontname="tiro", fontsize=10)
                y += 12.5
            y += 10
            p.insert_text((72, y), label, fontname="tibo", fontsize=10)
            y += 14
            for item in ("(i) Jede endliche Menge ist kompakt.", "(ii) Das Intervall ist kompakt."):
                p.insert_text((84, y), item, fontname="tiro", fontsize=10)
                y += 12.5
            y += 10

    pdf(tmp_path / "notes.pdf", [drawn(page, width=595, height=842)])
    assert headings(_read(reader, "notes.pdf")) == ["2.1 Kompaktheit"]
