"""PDF tables (``pdf.structure: auto``) of bills: an invoice's item rows whose names carry
description lines under them, set as far apart as the items, over a company footer under a
rule; a receipt's item table in a box with rounded corners, its rows padded between rules
drawn cell by cell, amounts with a currency's prefix. Laid out here as real invoices lay them
out (bench/pdf_truth/extra14: invoice2data's QualityHosting and oyo), with the kinds they must
not catch (a note under a table, code lines under a macro's description, a diagram in a
rounded box)."""

from __future__ import annotations

from pathlib import Path

import pymupdf
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
