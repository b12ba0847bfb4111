"""PDF structure (``pdf.structure: auto``) at a page's edges, kinds the real pages of
bench/pdf_truth/ show (its ``extra`` and ``extra3`` splits): a table's header row repeated at
the top of each page it runs over, printed where running headers live; margin notes set close
beside the body column; a ruled table's cell printed on over its column's rule."""

from __future__ import annotations

import docread
import pymupdf
from factories import drawn, drawn_markdown, pdf, pipe_rows

HEADS = ("first", "second", "third")


def _sheet(page: pymupdf.Page, start: int) -> None:
    """A spreadsheet's page as LibreOffice exports it: the heads set left in their cells at the
    page's top, numbers set right under them, no rules."""
    for col, head in enumerate(HEADS):
        page.insert_text((51 + 80 * col, 66), head, fontsize=12)
    for row in range(6):
        for col in range(3):
            text = str(start + row * 3 + col)
            width = pymupdf.get_text_length(text, fontsize=12)
            page.insert_text((130 + 80 * col - width, 82 + 16 * row), text, fontsize=12)


def test_a_header_row_repeated_atop_each_page_heads_its_table(tmp_path):
    """xlsx_01: a sheet's heads printed again at the top of the next page are the table's
    header row on each page, not a running header taken out of the flow."""
    pdf(tmp_path / "sheet.pdf", [drawn(lambda p: _sheet(p, 1)), drawn(lambda p: _sheet(p, 40))])
    config = {"cache": {"enabled": False}, "isolation": {"enabled": False}}
    with docread.Reader(tmp_path, config=config) as reader:
        pages = [
            d.text for d in reader.iter_documents("sheet.pdf") if "table_index" not in d.metadata
        ]
    assert [pipe_rows(text)[:2] for text in pages] == [
        [list(HEADS), ["1", "2", "3"]],
        [list(HEADS), ["40", "41", "42"]],
    ]


PARAGRAPHS = [
    "Ein häufiges Ärgernis beim Umstieg von Officeprogrammen ist die unterschiedliche "
    "Interpretation einer Schriftgröße in Punkt, daher definiert diese Klasse beide Größen "
    "für die eine und die andere Welt, und Letzteres ist auch der Standardwert.",
    "Alle modernen Editoren arbeiten mittlerweile mit der Kodierung utf8, und wenn Sie "
    "eine andere Kodierung verwenden müssen, können Sie diese als Klassenoption angeben, "
    "die Einstellung wird an das passende Paket weitergereicht.",
]
NOTES = [["10bp,11bp,12bp,10pt,11pt,12pt", "(ab v2.0)"], ["utf8, latin1, ansinew,", "applemac"]]


def _margin_notes(page: pymupdf.Page) -> None:
    """A LaTeX class manual's page: paragraphs in a column from x = 145 (first lines indented
    2.5 pt), option names in a smaller monospaced face as margin notes set right against the
    column (3.5 pt off its edge, 10 for a note's later lines: hausarbeit-jura's layout), on the
    rows of each paragraph's first lines."""
    y = 100.0
    for para, note in zip(PARAGRAPHS, NOTES, strict=True):
        words, lines = para.split(), [""]
        for word in words:
            if pymupdf.get_text_length(f"{lines[-1]} {word}", fontname="tiro", fontsize=10) > 350:
                lines.append("")
            lines[-1] = f"{lines[-1]} {word}".strip()
        for i, line in enumerate(lines):
            page.insert_text((147.5 if i == 0 else 145, y + 15 * i), line, fontsize=10,
                             fontname="tiro")  # fmt: skip
        for i, line in enumerate(note):
            width = pymupdf.get_text_length(line, fontname="cour", fontsize=7.6)
            page.insert_text(((135 if i else 141.5) - width, y + 15 * i), line, fontsize=7.6,
                             fontname="cour")  # fmt: skip
        y += 90


def test_margin_notes_set_close_to_the_column_leave_its_paragraphs_whole(tmp_path):
    """hausarbeit-jura p2: option names set in the left margin right against the body (3-11
    pt off), one on a paragraph's first row: the paragraphs stay whole (a note is neither
    their first words nor a code block between their lines) and the notes are still read."""
    text = drawn_markdown(tmp_path, _margin_notes)
    blocks = [" ".join(b.split()) for b in text.split("\n\n")]
    assert all(p in blocks for p in PARAGRAPHS), blocks
    assert all(line in text for note in NOTES for line in note)


PACKAGES = [
    ["Paket", "Popcon", "Größe", "Beschreibung"],
    ["doc-debian", "I:853", "166", "Dokumentation des Debian-Projekts"],
    ["debian-policy", "I:21", "4379", "Debian Policy-Handbuch"],
    ["developers-reference", "V:0, I:6", "2051", "Richtlinien für Debian-Entwickler"],
    ["debmake-doc", "I:0", "11992", "Leitfaden für Debian-Betreuer"],
    ["debian-faq", "I:850", "790", "Debian FAQ"],
]


def _overflowing(page: pymupdf.Page) -> None:
    """A DocBook table as FOP draws it, each cell's borders its own strokes (a rule across
    per cell, a rule down per row); one package name in a monospaced face longer than its
    column, printed on over the rule down into the next column (its row taller, the row's
    other cells set lower)."""
    xs, y = [62.0, 166.0, 232.0, 272.0, 520.0], 100.0
    for row in PACKAGES:
        tall = len(row[0]) > 16
        height = 22 if tall else 13
        page.insert_text((xs[0] + 4, y + 10), row[0], fontsize=10, fontname="cour")
        for x, cell in zip(xs[1:], row[1:], strict=False):
            page.insert_text((x + 4, y + (15 if tall else 10)), cell, fontsize=9, fontname="tiro")
        for left, right in zip(xs, xs[1:], strict=False):
            page.draw_line((left, y), (right, y), width=0.6)
            page.draw_line((left, y + height), (right, y + height), width=0.6)
        for x in xs:
            page.draw_line((x, y), (x, y + height), width=0.6)
        y += height


def test_a_cell_printed_on_over_its_column_rule_stays_in_its_column(tmp_path):
    """debian-reference.de p33: ``developers-reference`` runs over the rule down after its
    column into the next one; it is its own column's cell, and the table's other cells keep
    their columns."""
    assert pipe_rows(drawn_markdown(tmp_path, _overflowing)) == PACKAGES


def _bannered(doc: pymupdf.Document, page: int) -> None:
    """A class manual's page (milog, split ``extra3``): a large bold banner with the class's
    name atop every page, a numbered section heading and paragraphs under it."""
    p = doc.new_page()
    p.insert_text((46, 34), "milog.cls", fontsize=15.5, fontname="hebo")
    p.insert_text((145, 138), f"{page} Klassenoptionen", fontsize=13, fontname="tibo")
    y = 170.0
    for text in PARAGRAPHS * 3:
        for i in range(0, len(text), 90):
            p.insert_text((145, y), text[i : i + 90], fontsize=9, fontname="tiro")
            y += 12
        y += 6


def test_a_banner_atop_every_page_that_the_outline_does_not_name_is_no_heading(tmp_path):
    """A bold line far larger than the body repeated atop each page is kept as each page's
    title (a form and its copy) unless the PDF's outline names the headings and not it: then
    it is the title of the first page it runs on only."""
    doc = pymupdf.open()
    for page in range(1, 4):
        _bannered(doc, page)
    doc.set_toc([[1, f"{page} Klassenoptionen", page] for page in range(1, 4)])
    doc.save(tmp_path / "manual.pdf")
    config = {"cache": {"enabled": False}, "isolation": {"enabled": False}}
    with docread.Reader(tmp_path, config=config) as reader:
        pages = [d.text for d in reader.iter_documents("manual.pdf")]
    heads = [[ln for ln in text.splitlines() if ln.startswith("#")] for text in pages]
    assert [[h.lstrip("# ") for h in page] for page in heads] == [
        ["milog.cls", "1 Klassenoptionen"],
        ["2 Klassenoptionen"],
        ["3 Klassenoptionen"],
    ]
    assert sum(text.count("milog.cls") for text in pages) == 1
