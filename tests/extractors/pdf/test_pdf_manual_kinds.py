"""PDF structure on kinds the extra3 real pages show (German manuals typeset by LaTeX and
DocBook, a contract's clauses, a filled form: bench/pdf_truth/README.md), each printed by a
generated page: a numbered heading wrapped under its title (a hanging indent), a FAQ's
question as a heading, a title ending in an abbreviation, a numbered heading whose
title is a word in code, a form's title printed again on its copy, a booktabs group head
narrower than the columns it heads."""

from __future__ import annotations

import re

import docread
import pymupdf
from factories import drawn, drawn_markdown, pdf, pipe_rows

BODY = (
    "Die meiste Arbeit von Paketbetreuern geht in das Bereitstellen aktualisierter "
    "Paketversionen, aber ihre Aufgabe bedingt auch, sich um Pakete zu kümmern. "
)
HEADING = re.compile(r"^#{1,6} (.+)$", re.MULTILINE)


def _number_and_title(p: pymupdf.Page, y: float, number: str, title: list[str]) -> float:
    """A numbered heading, bold 12 pt: its number at the margin, its title's lines under
    one another past it (a hanging indent); the y below it."""
    p.insert_text((72, y), number, fontsize=12, fontname="hebo")
    for line in title:
        p.insert_text((112, y), line, fontsize=12, fontname="hebo")
        y += 15
    return y


def test_a_numbered_heading_wrapped_under_its_title_is_one_heading(tmp_path):
    """debian-faq.de p17: ``3.1.1`` then a question over three lines, each wrap set under the
    title's first word (a hanging indent, not a paragraph's first-line indent), sentences in
    it and longer than a title usually is: one heading, not a heading's first line and a
    paragraph of the rest."""
    title = [
        "Sie haben mir empfohlen, Stable zu installieren. Allerdings wird unter",
        "Stable bestimmte Hardware nicht erkannt oder funktioniert nicht richtig.",
        "Was soll ich tun?",
    ]

    def page(p: pymupdf.Page) -> None:
        p.insert_textbox(pymupdf.Rect(72, 60, 520, 160), BODY * 3, fontsize=10)
        y = _number_and_title(p, 190, "3.1.1", title)
        p.insert_textbox(pymupdf.Rect(72, y, 520, y + 120), BODY * 3, fontsize=10)
        y = _number_and_title(p, y + 140, "3.1.2", ["Pakete in Stable betreuen"])
        p.insert_textbox(pymupdf.Rect(72, y, 520, y + 120), BODY * 3, fontsize=10)

    text = drawn_markdown(tmp_path, page)
    assert HEADING.findall(text) == ["3.1.1 " + " ".join(title), "3.1.2 Pakete in Stable betreuen"]


def test_a_title_that_ends_in_an_abbreviation_is_no_sentence(tmp_path):
    """scrjuraexample p1: a club's statutes titled ``VfVmai`` over the bold subtitle ``Verein
    für Vereinsmaierei mit ai n.e.V.``; its full stop closes an abbreviation (``n.e.V.``,
    ``Inc.``), not a sentence: a heading, as is a company's name ending in ``Inc.``."""

    def page(p: pymupdf.Page) -> None:
        p.insert_text((250, 90), "VfVmai", fontsize=24, fontname="hebo")
        p.insert_text((160, 120), "Verein für Vereinsmaierei mit ai n.e.V.", fontsize=14,
                      fontname="hebo")  # fmt: skip
        p.insert_textbox(pymupdf.Rect(72, 150, 520, 260), BODY * 3, fontsize=10)
        p.insert_text((72, 290), "Agreement with Northwind Traders Inc.", fontsize=14,
                      fontname="hebo")  # fmt: skip
        p.insert_textbox(pymupdf.Rect(72, 300, 520, 400), BODY * 3, fontsize=10)

    assert HEADING.findall(drawn_markdown(tmp_path, page)) == [
        "VfVmai",
        "Verein für Vereinsmaierei mit ai n.e.V.",
        "Agreement with Northwind Traders Inc.",
    ]


def test_a_numbered_heading_whose_title_is_code_is_a_heading(tmp_path):
    """maint-guide.de p25: ``4.1`` in the bold heading face before ``control`` in a bold
    monospaced face, the name of the file the section is about: a heading, not a code block;
    a listing's lines in the same monospaced face stay code."""

    def page(p: pymupdf.Page) -> None:
        p.insert_textbox(pymupdf.Rect(72, 60, 520, 160), BODY * 3, fontsize=10)
        p.insert_text((72, 190), "4.1", fontsize=14, fontname="hebo")
        p.insert_text((108, 190), "control", fontsize=14, fontname="cobo")
        p.insert_textbox(pymupdf.Rect(72, 200, 520, 300), BODY * 3, fontsize=10)
        for i, line in enumerate(("Source: gentoo", "Section: unknown", "Priority: optional")):
            p.insert_text((80, 330 + 12 * i), line, fontsize=10, fontname="cour")

    text = drawn_markdown(tmp_path, page)
    assert HEADING.findall(text) == ["4.1 control"]
    assert "```\nSource: gentoo\nSection: unknown\nPriority: optional\n```" in text


def test_a_form_title_printed_again_on_its_copy_is_a_heading_on_each_page(tmp_path):
    """milog-example: a working-time record and its copy, the same bold title at the top of
    both pages, twice the body's size: each page's heading, not a running line kept once; a
    small header on both pages stays a running line."""
    made = []
    for copy in (False, True):

        def page(p: pymupdf.Page, copy: bool = copy) -> None:
            p.insert_text((72, 30), "TeX Satz GmbH, Personalabteilung", fontsize=8)
            if copy:
                p.insert_text((500, 45), "Kopie", fontsize=10)
            p.insert_text((110, 70), "Arbeitszeitnachweis nach dem Mindestlohngesetz",
                          fontsize=18, fontname="tibo")  # fmt: skip
            p.insert_textbox(pymupdf.Rect(72, 110, 520, 260), BODY * 4, fontsize=10)

        made.append(drawn(page))
    pdf(tmp_path / "form.pdf", made)
    config = {"cache": {"enabled": False}, "isolation": {"enabled": False}}
    with docread.Reader(tmp_path, config=config) as reader:
        texts = [d.text for d in reader.iter_documents("form.pdf")]
    title = "Arbeitszeitnachweis nach dem Mindestlohngesetz"
    assert [HEADING.findall(t) for t in texts] == [[title], [title]]
    assert [t.count("TeX Satz GmbH, Personalabteilung") for t in texts] == [1, 0]


PRICES = [
    ["Tier", "Beschreibung", "Preis ($)"],
    ["Mücke", "pro Gramm", "13.65"],
    ["", "pro Stück", "0.01"],
    ["Gnu", "ausgestopft", "92.50"],
    ["Emu", "ausgestopft", "33.33"],
    ["Gürteltier", "gefroren", "8.99"],
]


def _group_head(p: pymupdf.Page) -> None:
    """booktabs-de p2's table: rules across only, ``Artikel`` centred over the first two
    columns under a short rule (narrower than they are, so it overlaps the second alone), the
    prices set right."""
    p.draw_line((250, 380), (412, 380), width=0.8)
    p.insert_text((294, 391), "Artikel", fontsize=10, fontname="tiro")
    p.draw_line((250, 396), (362, 396), width=0.4)
    for i, row in enumerate(PRICES):
        y = 408 + 17 * (i > 0) + 12 * max(i - 1, 0)
        p.insert_text((251, y), row[0], fontsize=10, fontname="tiro")
        p.insert_text((302, y), row[1], fontsize=10, fontname="tiro")
        width = pymupdf.get_text_length(row[2], fontname="tiro", fontsize=10)
        p.insert_text((410 - width, y), row[2], fontsize=10, fontname="tiro")
        if i == 0:
            p.draw_line((250, y + 4), (412, y + 4), width=0.4)
    p.draw_line((250, 490), (412, 490), width=0.8)


def test_a_group_head_centred_over_two_columns_is_a_header_row_of_its_own(tmp_path):
    """booktabs-de p2: a group head centred over two columns, narrower than they are, is a
    header row of its own (its text in the first column it spans), not the wrapped first line
    of the head of the one column it overlaps (``Artikel Beschreibung``)."""
    rows = pipe_rows(drawn_markdown(tmp_path, _group_head))
    assert rows == [["Artikel", "", ""], *PRICES]


_LISTED = (
    ["Unless the file to be imported from is entirely in ASCII, it is usually necessary to",
     "know how it was encoded. For text files, a good way to find out something about its",
     "structure is the file command-line tool. This reports something like"],
    ["text.Rd: UTF-8 Unicode English text", "text2.dat: ISO-8859 English text",
     "intro.dat: UTF-8 Unicode text"],
    ["Modern Unix-alike systems, including macOS, are likely to produce UTF-8 files, and",
     "Windows may produce what it calls Unicode files. Any manual can be compacted by"],
    ["make compact-pdf"],
    ["provided qpdf and gs are available (see the help for how to name them if not on the",
     "path), as the tools that shrink a manual's fonts and its pictures need both of them."],
)  # fmt: skip


def _code_displays(p: pymupdf.Page) -> None:
    """R's manuals (texinfo, split ``extra5``): paragraphs in a serif body, and between them
    listings in a typewriter face set in from the text (a program's output, a command), one
    before a paragraph opening in capitals, one before text going on in lower case."""
    y = 72.0
    for n, lines in enumerate(_LISTED):
        code = n % 2 == 1
        for line in lines:
            p.insert_text(
                (100 if code else 72, y), line, fontsize=10, fontname="cour" if code else "tiro"
            )
            y += 13
        y += 3 if code else 1


def test_a_listing_set_in_between_paragraphs_is_code_of_its_own(tmp_path):
    blocks = drawn_markdown(tmp_path, _code_displays, width=612).split("\n\n")
    assert "```\n" + "\n".join(_LISTED[1]) + "\n```" in blocks
    assert "```\nmake compact-pdf\n```" in blocks
    assert " ".join(_LISTED[2]) in blocks and " ".join(_LISTED[4]) in blocks


def _one_line_before_code(p: pymupdf.Page) -> None:
    """A journal class's manual (ptptex, split ``extra5``): a paragraph of one line, opened by
    an indent, then a command set in further in a typewriter face, then text at the margin."""
    p.insert_text(
        (90, 72), "You can start your source file with the line", fontsize=10, fontname="tiro"
    )
    p.insert_text((120, 88), "\\documentclass{ptptex}", fontsize=10, fontname="cour")
    y = 104.0
    for line in _LISTED[4]:
        p.insert_text((72, y), line, fontsize=10, fontname="tiro")
        y += 13


def test_a_command_set_in_under_a_one_line_paragraph_is_code_of_its_own(tmp_path):
    blocks = drawn_markdown(tmp_path, _one_line_before_code, width=612).split("\n\n")
    assert "You can start your source file with the line" in blocks
    assert "```\n\\documentclass{ptptex}\n```" in blocks


def _described(p: pymupdf.Page) -> None:
    """A German package manual (schulmathematik, split ``extra5``): a bold heading, then
    package names in green sans at the body's size, each over a paragraph set in an em."""
    p.insert_text((72, 72), "Geladene Pakete und Bibliotheken", fontsize=11, fontname="hebo")
    y = 96.0
    for name in ("autoaligne", "icomma", "pgfplots"):
        p.insert_text((72, y), name, fontsize=11, fontname="helv", color=(0.0, 0.5, 0.0))
        for line in BODY.strip().split(", "):
            y += 14
            p.insert_text((83, y), line, fontsize=11, fontname="tiro")
        y += 22


def test_a_description_lists_terms_over_text_set_in_are_no_headings(tmp_path):
    markdown = drawn_markdown(tmp_path, _described, width=612)
    assert HEADING.findall(markdown) == ["Geladene Pakete und Bibliotheken"]
    assert "```" not in markdown  # each term a line of text of its own, not code
    assert [p for p in markdown.split("\n\n") if p in ("autoaligne", "icomma", "pgfplots")] == [
        "autoaligne", "icomma", "pgfplots",
    ]  # fmt: skip


def _code_under_code_word(p: pymupdf.Page) -> None:
    """R's manuals (split ``extra5``): a bulleted item whose last line is mostly a path in
    the typewriter face, then an option line set in under it, then the item's next paragraph."""
    p.insert_text(
        (72, 72),
        "• An X sub-system unless configuring without it: the script",
        fontsize=10,
        fontname="tiro",
    )
    p.insert_text(
        (84, 85),
        "can be told to look for the X11 headers and libraries in the main location of XQuartz at",
        fontsize=10,
        fontname="tiro",
    )
    p.insert_text((84, 98), "/opt/X11, e.g. by", fontsize=10, fontname="cour")
    p.insert_text((124, 114), "--x-includes=/opt/X11/include", fontsize=10, fontname="cour")
    p.insert_text(
        (84, 130),
        "Be wary of pre-release versions, which may be offered as an update.",
        fontsize=10,
        fontname="tiro",
    )


def test_an_option_set_in_under_an_items_line_in_code_is_code_of_its_own(tmp_path):
    blocks = drawn_markdown(tmp_path, _code_under_code_word, width=612).split("\n\n")
    fenced = [b for b in blocks if b.startswith("```")]
    assert fenced and "--x-includes=/opt/X11/include" in fenced[0]
    assert blocks[0].endswith("in the main location of XQuartz at /opt/X11, e.g. by")


def _side_heads(p: pymupdf.Page) -> None:
    """A manual's side heads: capitalised, blue sans at the body's size at the margin, the body
    set in past them throughout (Word's and many manuals' layout): headings, no terms."""
    y = 80.0
    for k, head in enumerate(("Installing the software", "Configuring the server")):
        p.insert_text((72, y), head, fontsize=10, fontname="helv", color=(0.0, 0.0, 0.7))
        for _ in range(1 + 3 * k):
            y += 12
            p.insert_text((108, y), "The body of the manual runs on with words to fill a line.",
                          fontsize=10, fontname="tiro")  # fmt: skip
        y += 26


def test_capitalised_side_heads_over_a_body_set_in_throughout_stay_headings(tmp_path):
    markdown = drawn_markdown(tmp_path, _side_heads, width=612)
    assert HEADING.findall(markdown) == ["Installing the software", "Configuring the server"]


def _references(p: pymupdf.Page) -> None:
    """A paper's references, each wrapped under its text past the ``[n]`` label, a URL in the
    typewriter face (LaTeX's ``\\url``) on the wrapped line: each reference one paragraph."""
    rows = (
        (72, "[1] A. Author and B. Writer. A study of things in the real world. Available", "helv"),
        (90, "https://example.org/a/long/path/to/the/paper/file.pdf", "cour"),
        (72, "[2] C. Someone. Another title of another paper in a journal, 2020. Online:", "helv"),
        (90, "https://example.org/another/long/path/to/paper2.pdf", "cour"),
    )
    for k, (x, text, font) in enumerate(rows):
        p.insert_text((x, 100 + 12 * k + 2 * (k // 2)), text, fontsize=10, fontname=font)


def test_a_references_url_on_its_hung_line_goes_on_with_the_reference(tmp_path):
    markdown = drawn_markdown(tmp_path, _references, width=612)
    assert "```" not in markdown
    assert "Available https://example.org/a/long/path/to/the/paper/file.pdf" in markdown
    assert "\n[2] C. Someone." in "\n" + markdown.split("file.pdf", 1)[1].lstrip()


def _command_in_an_item(p: pymupdf.Page) -> None:
    """A numbered step whose command, in the typewriter face, sits where the step's text hangs
    under a short line ending in a colon: a listing, not the step's words."""
    p.insert_text((72, 100), "1. Install the package from the index with:", fontsize=10,
                  fontname="helv")  # fmt: skip
    p.insert_text((90, 114), "pip install docread", fontsize=10, fontname="cour")
    p.insert_text((72, 130), "2. Then run the demo over the sample files.", fontsize=10,
                  fontname="helv")  # fmt: skip


def test_a_command_where_an_items_text_hangs_is_still_code(tmp_path):
    markdown = drawn_markdown(tmp_path, _command_in_an_item, width=612)
    assert "```\npip install docread\n```" in markdown
