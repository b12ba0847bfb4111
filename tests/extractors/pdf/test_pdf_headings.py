"""PDF headings and whole paragraphs (``pdf.structure: auto``), issue 33's second round: real
corpus pages of the tune half (bench/pdf_truth/) and generated pages that print what the
held-out pages fail on (a clause heading run into its clause, a theorem's label run into its
statement, a numbered heading in capitals at body size, a header of six lines, a table of
contents without leaders, a chapter's number above its title, a formula inside a sentence)."""

from __future__ import annotations

import re

import docread
import pymupdf
from factories import drawn, drawn_markdown, pdf
from test_pdf_real_structure import headings, pages

BODY = (
    "The parties agree to the terms set out in this agreement and to the schedules attached "
    "to it, which form part of the agreement as if written into it. "
)


def blocks(text: str) -> list[str]:
    return [" ".join(b.split()) for b in re.split(r"\n\s*\n", text)]


def test_a_chapter_title_beside_a_small_tag_is_one_heading():
    """redp5110 p5: a 26 pt title on two lines with a 7 pt tag ("Chapter 1.") between its
    lines on the left; the tag beside it no longer makes the title a plain paragraph."""
    text = pages("redp5110_sampled.pdf", "5")[0][0]
    assert "Securing and protecting IBM DB2 data" in headings(text)


def test_paragraphs_opened_by_a_first_line_indent_are_apart():
    """normal_4pages p4 (Korean): each paragraph opens indented and its last line leaves room
    for a character (Hangul wraps inside words), so each is its own block."""
    text = pages("normal_4pages.pdf", "4")[0][0]
    first = next(b for b in blocks(text) if b.startswith("보험약관 분쟁 시"))
    assert first.endswith("사유가 발생한다.")
    assert any(b.startswith("생명보험 재해분류표에서는") for b in blocks(text))


def test_a_heading_on_a_small_picture_plate_is_a_heading():
    """normal_4pages p4: "5 맺으며" is printed on a small picture (a coloured bar): one line on
    a picture is the plate's text, not a figure's label."""
    assert "5 맺으며" in headings(pages("normal_4pages.pdf", "4")[0][0])


def test_inline_math_pieces_stay_in_their_paragraph():
    """multi-column-2p p2: subscripts set in their own size on a paragraph's row ("w(i)" then
    "1 , w(i)") run on in the paragraph instead of breaking it into pieces."""
    text = pages("multi-column-2p.pdf", "2")[0][0]
    block = next(b for b in blocks(text) if b.startswith("The problem of open-domain QA"))
    assert "|pi|. Given a question q" in block


def _read(reader: docread.Reader, name: str) -> list[str]:
    return [d.text for d in reader.read(name).documents]


def test_a_numbered_clause_heading_run_into_its_clause_is_a_heading(reader, tmp_path):
    """A contract's bold "2. COMPENSATION." followed on its line by the clause: the label is
    a heading, the clause a paragraph; a bold unnumbered label run into its statement
    ("Satz 4.1.") stays in its paragraph."""

    def page(p: pymupdf.Page) -> None:
        y = 80
        for label, font in (
            ("1. TERM.", "hebo"),
            ("2. COMPENSATION.", "hebo"),
            ("Satz 4.1.", "hebo"),
        ):
            p.insert_text((72, y), label, fontsize=10, fontname=font)
            width = pymupdf.get_text_length(label, fontname=font, fontsize=10)
            p.insert_text((72 + width + 6, y), "The Employer shall pay the Employee", fontsize=10)
            p.insert_textbox(pymupdf.Rect(72, y + 4, 520, y + 80), BODY * 2, fontsize=10)
            y += 100

    pdf(tmp_path / "contract.pdf", [drawn(page)])
    text = _read(reader, "contract.pdf")[0]
    assert headings(text) == ["1. TERM.", "2. COMPENSATION."]
    assert any(b.startswith("Satz 4.1. The Employer shall pay") for b in blocks(text))


def test_a_numbered_heading_in_capitals_at_body_size_is_a_heading(reader, tmp_path):
    def page(p: pymupdf.Page) -> None:
        p.insert_text((72, 80), "1. INTENT", fontsize=10)
        p.insert_textbox(pymupdf.Rect(72, 90, 520, 200), BODY * 3, fontsize=10)
        p.insert_text((72, 220), "2. SCOPE", fontsize=10)
        p.insert_textbox(pymupdf.Rect(72, 230, 520, 340), BODY * 3, fontsize=10)

    pdf(tmp_path / "caps.pdf", [drawn(page)])
    assert headings(_read(reader, "caps.pdf")[0]) == ["1. INTENT", "2. SCOPE"]


def test_a_header_of_six_lines_is_a_running_header(reader, tmp_path):
    """Six lines at the top of every page, past the top tenth of it: out of the flow, kept
    once; the page's own heading stays."""
    header = [
        "Project Manual",
        "Division 01 General Requirements",
        "Summary of Work",
        "Issued for Construction",
        "Northwind Architects",
        "Seattle, Washington",
    ]
    made = []
    for n in range(3):

        def page(p: pymupdf.Page, n: int = n) -> None:
            for i, line in enumerate(header):
                p.insert_text((72, 40 + 13 * i), line, fontsize=10, fontname="hebo")
            p.insert_text((72, 150), f"Part {n + 1} of the work", fontsize=14, fontname="hebo")
            p.insert_textbox(pymupdf.Rect(72, 160, 520, 400), BODY * 4, fontsize=10)

        made.append(drawn(page))
    pdf(tmp_path / "six.pdf", made)
    texts = _read(reader, "six.pdf")
    assert [headings(t) for t in texts] == [[f"Part {n} of the work"] for n in (1, 2, 3)]
    assert [sum(t.count(line) for line in header) for t in texts] == [6, 0, 0]


def test_the_entries_of_a_table_of_contents_without_leaders_are_not_headings(reader, tmp_path):
    """A chapter's entry in a table of contents is set bold and numbered like a heading, with
    its page number far to its right and no leaders (its sections' entries have them): not
    a heading."""
    chapters = (("1 Topologische Räume", 5), ("2 Stetigkeit", 17), ("3 Kompaktheit", 29))

    def page(p: pymupdf.Page) -> None:
        p.insert_text((72, 60), "Inhaltsverzeichnis", fontsize=18, fontname="hebo")
        y = 100
        for n, (entry, at) in enumerate(chapters, 1):
            p.insert_text((72, y), entry, fontsize=10, fontname="hebo")
            p.insert_text((510, y), str(at), fontsize=10, fontname="hebo")
            for k, name in enumerate(("Definitionen und Beispiele", "Erste Eigenschaften"), 1):
                y += 16
                p.insert_text((90, y), f"{n}.{k} {name} " + ". " * 40, fontsize=10)
                p.insert_text((510, y), str(at + k), fontsize=10)
            y += 24
        p.insert_textbox(pymupdf.Rect(72, y, 520, y + 200), BODY * 3, fontsize=10)

    pdf(tmp_path / "toc.pdf", [drawn(page)])
    assert headings(_read(reader, "toc.pdf")[0]) == ["Inhaltsverzeichnis"]


def test_a_chapter_number_above_its_title_is_one_heading(reader, tmp_path):
    def page(p: pymupdf.Page) -> None:
        p.insert_text((72, 90), "Kapitel 4", fontsize=20, fontname="hebo")
        p.insert_text((72, 140), "Kompaktheit", fontsize=24, fontname="hebo")
        p.insert_textbox(pymupdf.Rect(72, 170, 520, 400), BODY * 3, fontsize=10)

    pdf(tmp_path / "chapter.pdf", [drawn(page)])
    assert headings(_read(reader, "chapter.pdf")[0]) == ["Kapitel 4 Kompaktheit"]


def test_a_paragraph_broken_at_a_display_formula_is_one(reader, tmp_path):
    def page(p: pymupdf.Page) -> None:
        p.insert_textbox(pymupdf.Rect(72, 80, 520, 150), BODY * 2 + "so that we have", fontsize=10)
        p.insert_text((250, 175), "f(x) = a x + b", fontsize=10)
        p.insert_textbox(
            pymupdf.Rect(72, 190, 520, 300), "where a and b are real. " + BODY, fontsize=10
        )

    pdf(tmp_path / "formula.pdf", [drawn(page)])
    text = _read(reader, "formula.pdf")[0]
    block = next(b for b in blocks(text) if b.startswith("The parties agree"))
    assert "so that we have" in block and "f(x) = a x + b" in block and "where a and b" in block


def test_a_caption_label_on_its_own_line_keeps_its_text(reader, tmp_path):
    """A bold "Table 1." on a line of its own, its text under it in italics at body size: one
    caption, not a label and a heading."""

    def page(p: pymupdf.Page) -> None:
        p.insert_textbox(pymupdf.Rect(72, 80, 520, 160), BODY * 2, fontsize=10)
        p.insert_text((72, 190), "Table 1.", fontsize=10, fontname="hebo")
        p.insert_text((72, 204), "Results of the three models on the test set", fontsize=10,
                      fontname="heit")  # fmt: skip
        p.insert_textbox(pymupdf.Rect(72, 230, 520, 320), BODY * 2, fontsize=10)

    pdf(tmp_path / "caption.pdf", [drawn(page)])
    text = _read(reader, "caption.pdf")[0]
    assert headings(text) == []
    assert "Table 1. Results of the three models on the test set" in blocks(text)


def test_a_one_page_papers_running_title_beside_its_page_number_is_no_heading(reader, tmp_path):
    """A page of a paper read alone: its running title, beside the page number at the top,
    cannot be seen to repeat; it is a running line (kept once, out of the flow), not a
    heading."""

    def page(p: pymupdf.Page) -> None:
        p.insert_text((72, 40), "Optimized Table Tokenization for Structure Recognition",
                      fontsize=11, fontname="heit")  # fmt: skip
        p.insert_text((510, 40), "9", fontsize=10)
        p.insert_text((72, 100), "4 Experiments", fontsize=14, fontname="hebo")
        p.insert_textbox(pymupdf.Rect(72, 110, 520, 300), BODY * 4, fontsize=10)

    pdf(tmp_path / "paper.pdf", [drawn(page)])
    text = _read(reader, "paper.pdf")[0]
    assert headings(text) == ["4 Experiments"]
    assert text.count("Optimized Table Tokenization for Structure Recognition") == 1


def test_a_theorems_label_on_a_line_of_its_own_is_no_heading(reader, tmp_path):
    """A math course's bold "Satz 4.1" and "Definition 4.2" standing over their statements:
    labels of the paragraph under them, not sections."""

    def page(p: pymupdf.Page) -> None:
        p.insert_text((72, 80), "4.1 Kompakte Räume", fontsize=14, fontname="hebo")
        y = 110
        for label in ("Satz 4.1", "Definition 4.2"):
            p.insert_text((72, y), label, fontsize=10, fontname="hebo")
            p.insert_textbox(pymupdf.Rect(72, y + 4, 520, y + 60), BODY, fontsize=10,
                             fontname="heit")  # fmt: skip
            p.insert_textbox(pymupdf.Rect(72, y + 60, 520, y + 120), BODY * 2, fontsize=10)
            y += 140

    pdf(tmp_path / "satz.pdf", [drawn(page)])
    assert headings(_read(reader, "satz.pdf")[0]) == ["4.1 Kompakte Räume"]


def test_a_wrapped_line_opening_with_a_middle_dot_is_no_list_item():
    """layout-parser p1: the keywords wrap onto a line that opens with "·" (their separator);
    the abstract they close is narrower than the body, so the line before ran to the
    abstract's edge: the same paragraph, not a list item."""
    text = pages("layout-parser-paper-fast.pdf", "1")[0][0]
    assert any(
        b.startswith("Keywords: Document Image Analysis") and b.endswith("Toolkit.")
        for b in blocks(text)
    )


def test_a_bold_field_and_its_value_at_body_size_is_no_heading(reader, tmp_path):
    """A receipt's bold "Booking ID: MTB-2024-1234" and "Total Paid $45.00" lines are fields
    with their values, not sections; its larger title stays a heading."""

    def page(p: pymupdf.Page) -> None:
        p.insert_text((72, 70), "Booking Confirmation", fontsize=16, fontname="hebo")
        p.insert_textbox(pymupdf.Rect(72, 80, 520, 140), BODY, fontsize=10)
        p.insert_text((72, 170), "Booking ID: MTB-2024-1234", fontsize=10, fontname="hebo")
        p.insert_textbox(pymupdf.Rect(72, 180, 520, 240), BODY, fontsize=10)
        p.insert_text((72, 270), "Total Paid $45.00", fontsize=10, fontname="hebo")
        p.insert_textbox(pymupdf.Rect(72, 280, 520, 340), BODY, fontsize=10)

    pdf(tmp_path / "receipt.pdf", [drawn(page)])
    assert headings(_read(reader, "receipt.pdf")[0]) == ["Booking Confirmation"]


def test_a_letterheads_address_and_phone_block_is_no_heading():
    """REPAIR-2022-INV-001 p1 and p2: under the company's name, its tagline, street address
    and phone number stacked in a larger type are the letterhead's contact block, not a
    heading; the name and the form's title still are."""
    for text, _ in pages("REPAIR-2022-INV-001_multipage.pdf", "1,2"):
        found = headings(text)
        assert not [h for h in found if "Phone" in h or "Main Street" in h], found
        assert "ZAVA AUTO REPAIR" in found and "Preliminary Estimate (ID: EST-1008)" in found


def test_a_poem_line_ending_in_a_colon_does_not_split_the_poem():
    """DA-619p p7: a quoted poem set line by line, none of its lines running to the column's
    edge; its fourth line ends in a colon ("Their god, their betrayer:") and the verse goes
    on: one block."""
    text = pages("DA-619p.pdf", "7")[0][0]
    block = next(b for b in blocks(text) if b.startswith('"In Darkness eternal'))
    assert block.endswith('The first Blight."'), block


def test_a_diagrams_lines_under_the_table_taken_from_it_are_no_headings():
    """redp5110 p10: a boxed diagram of a statement with callouts, whose upper half the ruled
    pass reads as a table; its lower half is still the figure, and its bold keywords
    (``ENFORCED FOR ALL ACCESS``, ``ENABLE``) are its labels, not headings."""
    assert headings(pages("redp5110_sampled.pdf", "10")[0][0]) == ["Column mask"]


def test_headings_set_in_a_heavier_cut_of_the_body_font_are_headings():
    """korean-text-with-tables p1: the shaded notes under the tables head their parts with
    lines in YoonGothicPro780, the body in 740 (same size, no bold flag), words of two
    Hangul syllables (``기타``); the 770 paragraph of three lines under one is no heading."""
    found = headings(pages("korean-text-with-tables.pdf", "1")[0][0])
    for title in ("전월 이용금액 제외 대상", "적립 제외 대상", "기타"):
        assert title in found, found
    assert not [h for h in found if h.startswith("무이자할부")], found


def _reference(p: pymupdf.Page, signature: list[tuple[str, str]]) -> None:
    """A function reference (libtasn1's texinfo manual, bench/pdf_truth/libtasn1.json p12):
    three entries, each a bold name, a signature a point above the body (11 pt: not "larger"
    by itself, a style apart that stands alone as headings do) that wraps with its bracket
    open, and the entry's text."""
    y = 80
    for name in ("asn1 create", "asn1 delete", "asn1 copy"):
        p.insert_text((72, y), name, fontsize=13, fontname="hebo")
        x = 72
        for piece, font in signature:
            p.insert_text((x, y + 26), piece, fontsize=12, fontname=font)
            x += pymupdf.get_text_length(piece, fontname=font, fontsize=12)
        p.insert_text((110, y + 40), "errorDescription)", fontsize=12, fontname="cour")
        p.insert_textbox(pymupdf.Rect(100, y + 48, 520, y + 140), BODY * 2, fontsize=11)
        y += 170


def test_a_functions_signature_set_in_a_monospaced_font_is_no_heading(reader, tmp_path):
    signature = [("int asn1_create (asn1_node * node) const", "cour")]
    pdf(tmp_path / "ref.pdf", [drawn(lambda p: _reference(p, signature))])
    assert headings(_read(reader, "ref.pdf")[0]) == ["asn1 create", "asn1 delete", "asn1 copy"]


def test_a_line_that_leaves_a_bracket_open_is_no_heading(reader, tmp_path):
    """The signature's first line mostly in a slanted serif (not monospaced): its open
    bracket says it runs on, as the closing bracket of the line after it says it ran on."""
    signature = [("int f (", "cour"), ("const struct node * tree, char *", "tiit")]
    pdf(tmp_path / "ref.pdf", [drawn(lambda p: _reference(p, signature))])
    assert headings(_read(reader, "ref.pdf")[0]) == ["asn1 create", "asn1 delete", "asn1 copy"]


def test_a_title_that_the_other_pages_header_repeats_small_stays_a_heading(reader, tmp_path):
    """The shared-mime-info spec (bench/pdf_truth/shared-mime-info-spec.json p1): the title
    page's 20 pt title is printed by every other page's header in 10 pt italic; the title is
    the page's heading, not a running line, and its byline's "name at host" address is no
    heading; the header still leaves the flow of the other pages."""
    title = "Shared Storage Specification"

    def first(p: pymupdf.Page) -> None:
        p.insert_text((150, 70), title, fontsize=20, fontname="hebo")
        p.insert_text((230, 100), "jdoe at users.example.net", fontsize=12, fontname="hebo")
        p.insert_text((72, 150), "1. Introduction", fontsize=16, fontname="hebo")
        p.insert_textbox(pymupdf.Rect(72, 165, 520, 400), BODY * 3, fontsize=11)

    def other(p: pymupdf.Page) -> None:
        p.insert_text((380, 40), title, fontsize=10, fontname="heit")
        p.insert_textbox(pymupdf.Rect(72, 80, 520, 400), BODY * 3, fontsize=11)

    pdf(tmp_path / "spec.pdf", [drawn(first), drawn(other), drawn(other), drawn(other)])
    texts = _read(reader, "spec.pdf")
    assert headings(texts[0]) == [title, "1. Introduction"]
    assert not any(title in text for text in texts[1:])


def test_an_underscore_drawn_as_a_rule_joins_its_words(reader, tmp_path):
    """Item 5: TeX draws ``\\_`` in a text font as a short rule (libtasn1's manual, p12:
    ``asn1_array2tree``), so the words either side are separate pieces of text; the rule
    between them on the baseline is the underscore, not a space."""

    def page(p: pymupdf.Page) -> None:
        y = 80
        for name in ("asn1 array2tree", "asn1 delete element"):
            x = 72.0
            for i, word in enumerate(name.split()):
                if i:
                    p.draw_line((x + 0.5, y + 0.6), (x + 5, y + 0.6), width=0.5)
                    x += 5.5
                p.insert_text((x, y), word, fontsize=13, fontname="hebo")
                x += pymupdf.get_text_length(word, fontname="hebo", fontsize=13)
            p.insert_textbox(pymupdf.Rect(72, y + 10, 520, y + 120), BODY * 2, fontsize=11)
            y += 150

    pdf(tmp_path / "rules.pdf", [drawn(page)])
    assert headings(_read(reader, "rules.pdf")[0]) == ["asn1_array2tree", "asn1_delete_element"]


def test_a_numbered_title_in_capitals_opening_a_list_item_is_a_heading(reader, tmp_path):
    """The GNU FDL as texinfo sets it (libtasn1's manual, p27-33): each clause a list item
    whose first line is its numbered title in capitals at body size, its text under it
    without a gap; the title is a heading, the text its paragraph."""

    def page(p: pymupdf.Page) -> None:
        y = 80
        for number, title in (("0.", "PREAMBLE"), ("1.", "APPLICABILITY AND DEFINITIONS")):
            p.insert_text((72, y), number, fontsize=11, fontname="tiro")
            p.insert_text((90, y), title, fontsize=11, fontname="tiro")
            p.insert_textbox(pymupdf.Rect(90, y + 3, 520, y + 120), BODY * 3, fontsize=11,
                             fontname="tiro")  # fmt: skip
            y += 140

    pdf(tmp_path / "fdl.pdf", [drawn(page)])
    text = _read(reader, "fdl.pdf")[0]
    assert headings(text) == ["0. PREAMBLE", "1. APPLICABILITY AND DEFINITIONS"]
    assert any(b.startswith("The parties agree") for b in blocks(text))


def test_a_listing_in_a_monospaced_font_is_a_fenced_code_block(reader, tmp_path):
    """A manual's program usage (libtasn1's manual, p8): monospaced lines under a paragraph,
    an indent, a blank line, options beside their descriptions; they stay lines as printed,
    in one fenced block, the text around them paragraphs."""
    listing = [
        (72, "Usage: asn1Parser [OPTION] FILE"),
        (72, "Read FILE with ASN.1 definitions and generate"),
        (None, ""),
        (84, "-c, --check"),
        (84, "-o, --output=FILE"),
    ]

    def page(p: pymupdf.Page) -> None:
        p.insert_textbox(pymupdf.Rect(72, 60, 520, 120), BODY * 2, fontsize=11, fontname="tiro")
        y = 140
        for x, text in listing:
            if x is not None:
                p.insert_text((x, y), text, fontsize=10, fontname="cour")
            y += 12
        p.insert_text((240, 176), "checks the syntax only", fontsize=10, fontname="cour")
        p.insert_text((240, 188), "output file", fontsize=10, fontname="cour")
        p.insert_textbox(pymupdf.Rect(72, 210, 520, 300), BODY * 2, fontsize=11, fontname="tiro")

    pdf(tmp_path / "usage.pdf", [drawn(page)])
    text = _read(reader, "usage.pdf")[0]
    code = "\n".join([
        "```",
        "Usage: asn1Parser [OPTION] FILE",
        "Read FILE with ASN.1 definitions and generate",
        "",
        "  -c, --check".ljust(28) + "checks the syntax only",  # 240 pt: 28 characters in
        "  -o, --output=FILE".ljust(28) + "output file",
        "```",
    ])  # fmt: skip
    assert code in text
    assert text.count("```") == 2 and blocks(text)[0].startswith("The parties agree")


def test_a_font_named_for_a_fixed_pitch_family_is_monospaced_without_its_flag():
    """The shared-mime-info spec's listings are in NimbusMonL, whose flags do not say fixed
    pitch; the family's name does (and a Monotype face is no monospaced one)."""
    from docread.extractors.pdf.library import monospaced

    assert monospaced("ABCDEF+NimbusMonL-Regu", 4)
    assert monospaced("CMSLTT10", 4) and monospaced("Consolas-Bold", 0)
    assert monospaced("QWERTY+t1xtt", 4)  # newtx's typewriter (thubeamer's listings)
    assert all(monospaced(f"QWERTY+{n}", 0) for n in ("t1xbtt", "txbtt", "txsltt"))  # its cuts
    assert monospaced("QWERTY+Iosevka-Light", 4) and not monospaced("IosevkaAile-Regular", 4)
    assert not monospaced("Iosevka-Etoile", 4)  # its serif cut: proportional
    assert not monospaced("MonotypeCorsiva", 4) and not monospaced("NimbusRomNo9L-Regu", 4)


def test_a_listings_options_beside_their_descriptions_stay_on_their_rows(reader, tmp_path):
    """libtasn1's manual p8, as printed: a usage listing closing the page, its options in
    one column and their descriptions 63 pt to the right; each row stays a line, not two
    columns read one after the other (nor a table)."""
    options = [("-c, --check", "checks the syntax only"), ("-o, --output=FILE", "output file"),
               ("-h, --help", "display this help and exit"),
               ("-v, --version", "output version information and exit")]  # fmt: skip
    usage = ["Usage: asn1Coding [OPTION] DEFINITIONS ASSIGNMENTS",
             "Generates a DER encoding of ASN.1 DEFINITIONS file",
             "and ASSIGNMENTS file with value assignments.", "",
             "Mandatory arguments to long options are mandatory for short options too."]  # fmt: skip

    def page(p: pymupdf.Page) -> None:
        p.insert_textbox(pymupdf.Rect(90, 300, 520, 580), BODY * 6, fontsize=11, fontname="tiro")
        for row, line in enumerate(usage):
            p.insert_text((90, 596 + 13 * row), line, fontsize=9, fontname="cour")
        for row, (option, description) in enumerate(options):
            p.insert_text((101, 662 + 13 * row), option, fontsize=9, fontname="cour")
            p.insert_text((227, 662 + 13 * row), description, fontsize=9, fontname="cour")

    pdf(tmp_path / "options.pdf", [drawn(page)])
    text = _read(reader, "options.pdf")[0]
    for option, description in options:
        assert re.search(re.escape(option) + " {5,}" + re.escape(description), text)
    assert "|" not in text


def test_headings_over_notes_set_a_little_apart_stand_apart():
    """korean-text-with-tables p1 (and libtasn1's function reference, bench/pdf_truth): most
    of the column's lines are one-line notes a little apart, so the median gap between lines
    is the notes' own; a paragraph's line gap is the lower quartile, and the headings over the
    notes (``서비스 제공 기준``, ``전월 이용금액 기준``) are blocks of their own."""
    found = headings(pages("korean-text-with-tables.pdf", "1")[0][0])
    assert "서비스 제공 기준" in found and "전월 이용금액 기준" in found, found


def test_a_first_word_in_a_script_that_wraps_anywhere_needs_one_characters_room():
    """The wrap test's room for a line's first word on the line above: one character of Hangul,
    kana or CJK (they wrap inside a word; each range's ends included), else the whole word."""
    from docread.extractors.pdf.text.relations import first_word

    words = ["기타 항목", "ひらがな", "カタカナ", "中文", "\u1100x", "\u11ff", "\u3131", "\u9fff"]
    assert [first_word(text) for text in [*words, "\ud7af"]] == [1] * (len(words) + 1)
    others = ["paragraph one", "\u10ffab", "\u3100\u3101", "\ua000xy", ""]
    assert [first_word(text) for text in others] == [9, 3, 2, 3, 4]


_RUN_ON = (
    "key, or may consist of a comma-separated list of keys. The citation key may",
    "contain letters, numbers, the dash (-) character, or the period character.",
)


def test_a_paragraph_opened_by_a_numbered_run_in_head_stays_one_block(reader, tmp_path):
    """REVTeX's fourth-level head (apssamp p2, split ``extra4``): ``a. Syntax`` in italic at a
    paragraph's first-line indent, its text run in on the row to the column's edge, the next
    lines at the column's left: the head is a heading, its paragraph one block (a list
    item's lines would hang under its text)."""

    def page(p: pymupdf.Page) -> None:
        p.insert_text((72, 80), BODY[:60], fontsize=10, fontname="tiro")
        p.insert_text((82, 100), "a. Syntax", fontsize=10, fontname="tiit")
        first = "The argument of the cite command may be a single one"
        at = 82 + pymupdf.get_text_length("a. Syntax", fontname="tiit", fontsize=10) + 8
        p.insert_text((at, 100), first, fontsize=10, fontname="tiro")
        for i, line in enumerate(_RUN_ON):
            p.insert_text((72, 112 + 12 * i), line, fontsize=10, fontname="tiro")

    pdf(tmp_path / "paper.pdf", [drawn(page, width=480)])
    text = _read(reader, "paper.pdf")[0]
    assert headings(text) == ["a. Syntax"]
    block = next(b for b in blocks(text) if "The argument" in b)
    assert "period character." in block


_ABSTRACT = (
    "An article usually includes an abstract, a concise summary of the work covered at length",
    "in the main body of the article, set across the page above both columns of the text; it",
    "the item command to give the category of each item of the list.",
)
_COLUMN = "line {:02d} of the sample's {} column, the use of the class in manuscripts"


def _heads_under_an_abstract(page: pymupdf.Page) -> None:
    """REVTeX's APS sample p1 (split ``extra4``): a full-width abstract whose short last line
    ends over the gap between the two columns' heads, then the left head on two lines (its
    first shorter), the right head beside its first line, and text down both columns."""
    for i, line in enumerate(_ABSTRACT):
        page.insert_text((118, 300 + 13.5 * i), line, fontsize=9, fontname="tiro")
    page.insert_text((110, 350), "I. FIRST-LEVEL HEADING:", fontsize=9, fontname="tibo")
    page.insert_text((80, 363.5), "THE LINE BREAK WAS FORCED VIA BY", fontsize=9, fontname="tibo")
    page.insert_text((385, 350), "A. Second-level heading", fontsize=9, fontname="tibo")
    for i in range(12):
        page.insert_text(
            (54, 390 + 13.5 * i), _COLUMN.format(i, "left"), fontsize=9, fontname="tiro"
        )
        page.insert_text(
            (317, 390 + 13.5 * i), _COLUMN.format(i, "right"), fontsize=9, fontname="tiro"
        )


def test_two_column_heads_under_an_abstract_are_read_column_by_column(tmp_path):
    text = drawn_markdown(tmp_path, _heads_under_an_abstract, width=612)
    left, right = text.index("THE LINE BREAK"), text.index("A. Second-level heading")
    assert left < right
    last_left, first_right = _COLUMN.format(11, "left"), _COLUMN.format(0, "right")
    assert text.index(last_left) < right < text.index(first_right)  # column by column
