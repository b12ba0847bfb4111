"""PDF tables (``pdf.structure: auto``) of bills: an invoice's item rows whose names carry
description lines under them, set as far apart as the items, over a company footer under a
rule; a receipt's item table in a box with rounded corners, its rows padded between rules
drawn cell by cell, amounts with a currency's prefix. Laid out here as real invoices lay them
out (bench/pdf_truth/extra14: invoice2data's QualityHosting and oyo), with the kinds they must
not catch (a note under a table, code lines under a macro's description, a diagram in a
rounded box)."""

from __future__ import annotations

import textwrap
from pathlib import Path

import pymupdf
from docread.extractors.pdf.tables.rows import price as is_price
from factories import drawn_markdown, pipe_rows

_SIZE = 8.0  # the invoice's type
_PITCH = 14.2  # its lines' pitch: an item's lines and its rows alike


def _right(page: pymupdf.Page, right: float, y: float, text: str, size: float = _SIZE) -> None:
    width = pymupdf.get_text_length(text, fontsize=size)
    page.insert_text((right - width, y), text, fontsize=size)


def _invoice(page: pymupdf.Page) -> None:
    """Three items, each a row (position, quantity, name, price, amount) over three description
    lines in the name's column, every line a pitch apart; the company footer in three columns
    under a rule across the page."""
    page.draw_line((54, 352), (572, 352), width=0.5)
    for x, head in ((66, "Pos."), (117, "Menge"), (150, "Beschreibung"), (470, "Preis")):
        page.insert_text((x, 366), head, fontsize=_SIZE, fontname="hebo")
    _right(page, 570, 366, "Betrag")
    page.draw_line((54, 372), (572, 372), width=0.5)
    y = 400.0
    for n, (name, user, price) in enumerate(
        (("Exchange Standard", "strukan", "3,89"), ("Exchange Quality", "minar", "5,39"),
         ("Exchange Quality", "mayr", "5,39")), start=1,
    ):  # fmt: skip
        _right(page, 83, y, str(n))
        _right(page, 142, y, "1")
        page.insert_text((150, y), f"Small Business {name} 2010", fontsize=_SIZE)
        _right(page, 508, y, price)
        _right(page, 570, y, price)
        for k, line in enumerate(("Grundgebühr pro Einheit", f"Dienst: OUDJQ_{user}",
                                  "01.05.14-31.05.14"), start=1):  # fmt: skip
            page.insert_text((150, y + k * _PITCH), line, fontsize=_SIZE)
        y += 4 * _PITCH
    last = y - _PITCH  # the footer close under the last item, as on a full page
    page.draw_rect((54, last + 8, 572, last + 8.5), color=None, fill=(0, 0, 0))
    for k, row in enumerate((("QualityHosting AG", "Vorstand: Christian Heit", "Bankverbindung"),
                             ("Uferweg 40-42", "Markus Oestreicher", "Kreissparkasse"),
                             ("D-63571 Gelnhausen", "Aufsichtsrat: Hans", "Kto-Nr. 48567"))):  # fmt: skip
        for x, cell in zip((56, 227, 398), row, strict=True):
            page.insert_text((x, last + 20 + k * 8), cell, fontsize=6.5)


def test_an_items_description_lines_under_its_name_are_its_cell(tmp_path: Path) -> None:
    rows = pipe_rows(drawn_markdown(tmp_path, _invoice))
    items = [[c for c in r if c] for r in rows if r and r[0] in {"1", "2", "3"}]
    assert items == [
        ["1", "1", "Small Business Exchange Standard 2010 Grundgebühr pro Einheit Dienst: "
         "OUDJQ_strukan 01.05.14-31.05.14", "3,89", "3,89"],
        ["2", "1", "Small Business Exchange Quality 2010 Grundgebühr pro Einheit Dienst: "
         "OUDJQ_minar 01.05.14-31.05.14", "5,39", "5,39"],
        ["3", "1", "Small Business Exchange Quality 2010 Grundgebühr pro Einheit Dienst: "
         "OUDJQ_mayr 01.05.14-31.05.14", "5,39", "5,39"],
    ]  # fmt: skip


def test_a_company_footer_under_a_rule_is_no_row_of_the_items_table(tmp_path: Path) -> None:
    tables = drawn_markdown(tmp_path, _invoice).split("\n\n")
    items = next(t for t in tables if "OUDJQ_mayr" in t)
    assert "QualityHosting AG" not in items
    footer = [[c for c in r if c] for t in tables for r in pipe_rows(t) if "QualityHosting AG" in r]
    assert footer == [["QualityHosting AG", "Vorstand: Christian Heit", "Bankverbindung"]]


def _noted(page: pymupdf.Page) -> None:
    """Three item rows with amounts, then a note set right under the last row at the first
    column's start, a pitch under it (a table's footnote, not a cell's wrapped line)."""
    for k, (item, amount) in enumerate(
        (("Paper", "3,00"), ("Toner", "45,90"), ("Stapler", "12,50"))
    ):
        y = 100 + k * _PITCH
        page.insert_text((60, y), item, fontsize=_SIZE)
        page.insert_text((160, y), "1", fontsize=_SIZE)
        _right(page, 300, y, amount)
    page.insert_text((60, 100 + 3 * _PITCH), "Prices include VAT", fontsize=_SIZE)


def test_a_note_under_a_tables_last_row_is_no_cell(tmp_path: Path) -> None:
    rows = pipe_rows(drawn_markdown(tmp_path, _noted))
    assert ["Stapler", "1", "12,50"] in rows
    assert not any("Prices include VAT" in c for r in rows for c in r)


def _receipt(page: pymupdf.Page) -> None:
    """A booking's fields over its item table in a box with rounded corners: heads, rows of a
    charge, its rate and its amount (``Rs 1939``) each centred in a band 37 points high, the
    bands parted by rules drawn cell by cell (a segment a column)."""
    fields = (("Check In", "31/12/2017"), ("Check Out", "01/01/2018"))
    for x, (label, value) in zip((317, 405), fields, strict=True):
        page.insert_text((x, 112), label, fontsize=_SIZE)
        page.insert_text((x, 123), value, fontsize=_SIZE)
    page.draw_rect((41, 179, 553, 368), color=(0.87, 0.87, 0.87), width=0.8, radius=0.02)
    page.insert_text((55, 199), "DESCRIPTION", fontsize=_SIZE)
    _right(page, 470, 199, "RATE")
    _right(page, 533, 199, "AMOUNT")
    rows = (("Room Charges", "Rs 1939 x 1 Night x 1 Room", "Rs 1939"),
            ("Grand Total", "", "Rs 1939"),
            ("Payment received by OYO", "Paid through Cash At Hotel (Rs 1939)", "Rs 1939"),
            ("Balance ( if any )", "", "Rs 0"))  # fmt: skip
    for k, (charge, rate, amount) in enumerate(rows):
        y = 216.0 + 37 * k
        for x0, x1 in ((42, 297), (297, 471), (471, 552)):
            page.draw_rect((x0, y - 0.3, x1, y + 0.3), color=None, fill=(0.93, 0.93, 0.93))
        page.insert_text((51, y + 20), charge, fontsize=_SIZE)
        if rate:
            _right(page, 461, y + 20, rate)
        _right(page, 533, y + 20, amount)


def test_a_receipts_item_table_in_a_rounded_box_is_a_table(tmp_path: Path) -> None:
    rows = pipe_rows(drawn_markdown(tmp_path, _receipt))
    assert ["DESCRIPTION", "RATE", "AMOUNT"] in rows
    assert ["Room Charges", "Rs 1939 x 1 Night x 1 Room", "Rs 1939"] in rows
    assert ["Grand Total", "", "Rs 1939"] in rows
    assert ["Balance ( if any )", "", "Rs 0"] in rows


def _diagram(page: pymupdf.Page) -> None:
    """A diagram in a box with rounded corners: curves inside it beside its labels."""
    page.draw_rect((60, 100, 400, 380), color=(0, 0, 0), width=0.8, radius=0.05)
    for k in range(4):
        page.draw_circle((120 + 80 * k, 240), 25)
        page.insert_text((105 + 80 * k, 290), f"node {k}", fontsize=9)


def test_a_diagram_in_a_rounded_box_is_still_a_figure(tmp_path: Path) -> None:
    assert "[Figure]" in drawn_markdown(tmp_path, _diagram)


def _documented_source(page: pymupdf.Page) -> None:
    """A documented LaTeX source (afparticle, erdc): a macro's name in the margin beside its
    one-line description, two numbered code lines under the description at the text's
    leading, for three macros: no prices, so no item rows with description lines."""
    y = 120.0
    for n, name in enumerate(("volumenumber", "issuenumber", "publicationyear")):
        page.insert_text((40, y), f"\\{name}", fontsize=9)
        page.insert_text((130, y), f"This sets the {name[:-6]} of the paper", fontsize=10)
        for k, code in enumerate((f"\\def\\{name}#1{{\\gdef\\current#1}}", f"\\{name}{{}}")):
            page.insert_text((130, y + 14 * (k + 1)), f"{174 + 2 * n + k} {code}", fontsize=9)
        y += 14 * 4


def test_code_lines_under_a_macros_description_are_no_cell_of_it(tmp_path: Path) -> None:
    rows = pipe_rows(drawn_markdown(tmp_path, _documented_source))
    assert not any("\\def" in c for r in rows for c in r)


def _wrapped_beside(page: pymupdf.Page) -> None:
    """A paragraph wrapped beside a small table of measures at its right (LaTeX's wraptable:
    ptptex's manual), the table's last column two decimals, its first one: no bill."""
    text = ("To make tables the standard table environment can be used. Here we give an example "
            "of a small table using the wraptable environment in Table I. This environment is "
            "also supported by the file discussed above, and the format for this environment is "
            "quite similar to that for the wrapfigure environment in every respect.")  # fmt: skip
    lines = textwrap.wrap(text, 40)
    for k, line in enumerate(lines):
        page.insert_text((60, 100 + 12 * k), line, fontsize=10)
    for k, row in enumerate((("temperature", "energy", "specific heat"), ("0.1", "0.24", "2.46"),
                             ("0.2", "0.80", "4.62"), ("0.3", "1.11", "3.27"))):  # fmt: skip
        for x, cell in zip((300, 380, 440), row, strict=True):
            page.insert_text((x, 124 + 12 * k), cell, fontsize=10)


def test_a_paragraph_beside_a_table_of_measures_is_no_cell(tmp_path: Path) -> None:
    rows = pipe_rows(drawn_markdown(tmp_path, _wrapped_beside))
    assert ["0.1", "0.24", "2.46"] in rows
    assert not any("environment" in c for r in rows for c in r)


def _items(page: pymupdf.Page, notes: tuple[str, ...]) -> None:
    """Three items (quantity, description, ``$`` price) a pitch apart, no description lines,
    then ``notes`` under the last one at the description column, a pitch apart."""
    for k, (qty, item, price) in enumerate(
        (("2", "Paper A4", "$3.00"), ("1", "Toner black", "$45.90"), ("3", "Stapler", "$12.50"))
    ):
        _right(page, 80, 100 + _PITCH * k, qty)
        page.insert_text((100, 100 + _PITCH * k), item, fontsize=_SIZE)
        _right(page, 400, 100 + _PITCH * k, price)
    for k, note in enumerate(notes, start=3):
        page.insert_text((100, 100 + _PITCH * k), note, fontsize=_SIZE)


def test_a_note_under_the_last_item_at_its_description_is_no_cell(tmp_path: Path) -> None:
    notes = ("All prices include 19% VAT.", "Payment due within 14 days.")
    rows = pipe_rows(drawn_markdown(tmp_path, lambda page: _items(page, notes)))
    assert ["3", "Stapler", "$12.50"] in rows
    assert not any("VAT" in c for r in rows for c in r)


def _changes(page: pymupdf.Page) -> None:
    """A change history in a table: version, change, the page it is on; one change's second
    entry a row of its own with no page (ulthese's manual): a page number is no amount."""
    rows = (("1.0", "Thesis by articles added", "10"), ("", "Source code moved", ""),
            ("1.1", "Options renamed", "12"), ("1.2", "French captions", "14"))  # fmt: skip
    for k, row in enumerate(rows):
        for x, cell in zip((60, 140, 400), row, strict=True):
            if cell:
                page.insert_text((x, 100 + 13 * k), cell, fontsize=9)


def test_a_change_under_a_change_with_a_page_number_is_its_own_row(tmp_path: Path) -> None:
    rows = pipe_rows(drawn_markdown(tmp_path, _changes))
    assert ["1.0", "Thesis by articles added", "10"] in rows
    assert ["", "Source code moved", ""] in rows


def _chart(page: pymupdf.Page, rounded: bool) -> None:
    """A chart under its caption: three bars in a panel with rounded corners (``rounded``), or
    a curve over two axes with a three-line legend inside (both one path around few lines)."""
    if rounded:
        page.draw_rect((60, 100, 500, 400), radius=0.05)
        for k in range(3):
            bar = (100 + 120 * k, 300 - 80 * k, 160 + 120 * k, 380)
            page.draw_rect(bar, color=None, fill=(0.2, 0.4, 0.8))
            page.insert_text((105 + 120 * k, 392), f"Q{k + 1}", fontsize=9)
    else:
        page.draw_line((80, 100), (80, 400))
        page.draw_line((80, 400), (500, 400))
        curve = [pymupdf.Point(80 + 4.2 * i, 400 - 280 * (i / 100) ** 0.5) for i in range(101)]
        page.draw_polyline(curve, color=(0, 0, 1))
        for k, label in enumerate(("Legend", "accuracy (train)", "epochs 0-100")):
            page.insert_text((330, 300 + 12 * k), label, fontsize=9)
    page.insert_text((60, 430), "Figure 2: Sales by quarter.", fontsize=9)


def test_a_chart_in_a_rounded_panel_is_still_a_figure(tmp_path: Path) -> None:
    assert "[Figure" in drawn_markdown(tmp_path, lambda page: _chart(page, True))


def test_a_curve_with_a_legend_inside_is_still_a_figure(tmp_path: Path) -> None:
    assert "[Figure" in drawn_markdown(tmp_path, lambda page: _chart(page, False))


_LEADING = 19.5  # a pitch over 1.7 of these lines' height: QualityHosting's 14.2 for lines 8 high


def _leaded(page: pymupdf.Page) -> None:
    """Two items whose three description lines are set at the rows' own wide leading (over half
    a line between them, as QualityHosting p2 sets them), then the total under the amounts."""
    for x, head in ((66, "Pos."), (117, "Menge"), (150, "Beschreibung"), (470, "Preis")):
        page.insert_text((x, 366), head, fontsize=_SIZE, fontname="hebo")
    _right(page, 570, 366, "Betrag")
    y = 390.0
    for n in (1, 2):
        _right(page, 83, y, str(n))
        _right(page, 142, y, "1")
        page.insert_text((150, y), "Small Business Exchange 2010", fontsize=_SIZE)
        _right(page, 508, y, "3,89")
        _right(page, 570, y, "3,89")
        for k, line in enumerate(("Grundgebühr pro Einheit", f"Dienst: OUDJQ_{n}",
                                  "01.05.14-31.05.14"), start=1):  # fmt: skip
            page.insert_text((150, y + k * _LEADING), line, fontsize=_SIZE)
        y += 4 * _LEADING
    page.insert_text((420, y), "Total EUR", fontsize=_SIZE, fontname="hebo")
    _right(page, 570, y, "7,78")


def test_an_items_description_lines_at_a_wide_leading_are_its_cell(tmp_path: Path) -> None:
    rows = [[c for c in r if c] for r in pipe_rows(drawn_markdown(tmp_path, _leaded))]
    assert ["2", "1", "Small Business Exchange 2010 Grundgebühr pro Einheit Dienst: OUDJQ_2 "
            "01.05.14-31.05.14", "3,89", "3,89"] in rows  # fmt: skip
    assert ["Total EUR", "7,78"] in rows


def test_a_price_is_a_currencys_mark_or_cents_not_a_version_nor_a_run_of_numbers() -> None:
    prices = ("Rs 1939", "$7.50", "EUR 12", "45,93 €", "0 €", "1 000.40", "3,89", "Rs. 1,939.00")
    assert all(is_price(text) for text in prices)
    others = ("USB 2.0", "RFC 2119", "ABC 123", "0.1 0.2 0.35", "1 2 3.50", "2.5", "10")
    assert not any(is_price(text) for text in others)


_CUTS = (53.9, 85.4, 143.8, 148.3, 409.3, 413.8, 418.3, 463.3, 509.9, 572.2)  # its cells' edges


def _head_band(page: pymupdf.Page) -> None:
    """QualityHosting p1's head band: three lines of heads (``VK-Preis`` / ``Ohne`` /
    ``MwSt.``) between two rules across drawn cell by cell (a segment a cell, end to end), a
    line of text under it; type 5.8 points, lines 8 high as that invoice's Helvetica's."""
    for y in (355.9, 387.4):
        for x0, x1 in zip(_CUTS, _CUTS[1:], strict=False):
            page.draw_line((x0, y), (x1, y), width=1)
    heads = ((66.5, 365.9, "Pos."), (116.5, 365.9, "Menge"), (150.3, 365.9, "Beschreibung"),
             (420.3, 365.9, "Rabatt %"), (474.5, 365.9, "VK-Preis"), (487.4, 375.1, "Ohne"),
             (484.7, 384.3, "MwSt."), (522.6, 365.9, "Zeilenbetrag"),
             (524.4, 375.1, "Ohne MwSt."))  # fmt: skip
    for x, y, head in heads:
        page.insert_text((x, y), head, fontsize=5.8, fontname="hebo")
    page.insert_text((150.3, 397.5), "Contract No. CON02858", fontsize=5.8)


def test_a_head_band_between_rules_drawn_cell_by_cell_is_a_table(tmp_path: Path) -> None:
    rows = pipe_rows(drawn_markdown(tmp_path, _head_band))
    assert ["Pos.", "Menge", "Beschreibung", "Rabatt %", "VK-Preis", "Zeilenbetrag"] in rows


def _language_grid(page: pymupdf.Page) -> None:
    """A CV's language grid set with booktabs (europecv's manual p9): heads between rules, two
    rows of a level's three lines in five columns, a rule under each row, in the table's type."""
    page.draw_line((150, 90), (560, 90), width=0.4)
    for x, head in ((160, "Hören"), (240, "Lesen"), (320, "Gespräch"), (400, "Vortrag"),
                    (480, "Schreiben")):  # fmt: skip
        page.insert_text((x, 102), head, fontsize=8)
    page.draw_line((150, 108), (560, 108), width=0.4)
    for n, (key, level) in enumerate((("Französisch", "C1 Kompetente"), ("Deutsch", "A2 Elem"))):
        y = 120 + 41 * n
        page.insert_text((90, y + 9), key, fontsize=9, fontname="hebo")
        for x in (160, 240, 320, 400, 480):
            for k, line in enumerate((level, "Sprachver-", "wendung")):
                page.insert_text((x, y + 9 * k), line, fontsize=7)
        page.draw_line((150, y + 27), (560, y + 27), width=0.4)


def test_a_row_under_a_rule_between_rows_in_the_tables_type_is_its_row(tmp_path: Path) -> None:
    tables = drawn_markdown(tmp_path, _language_grid).split("\n\n")
    assert any("Französisch" in t and "Deutsch" in t for t in tables)
