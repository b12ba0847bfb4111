"""PDFs whose structure is known, made with PyMuPDF's Story from HTML: headings h1-h4, ruled,
unruled and merged-cell tables, lists, two- and three-column flows, running headers/footers,
a word hyphenated at a line end. Each maker returns the PDF bytes and its ``Truth`` (the
headings with their levels, the table cells, the paragraphs as they must read whole).
Used by tests/extractors/pdf/test_pdf_structure.py and bench/structure.py."""

from __future__ import annotations

import io
import random
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

_WORDS = (
    "river harbour lantern meadow copper signal orchard basalt canvas ledger quartz willow "
    "engine market council season archive thunder granite velvet pioneer compass harvest "
    "cobalt anchor falcon garden bridge summit valley marble shelter crystal island furnace "
    "journey kernel ladder mirror needle ocean pepper rocket saddle timber umbrella vessel "
    "wander yonder zephyr amber beacon candle dynamo ember fabric glacier hollow ivory jasper"
)
WORDS = _WORDS.split()
_BREAK = "<!-- page -->"
CSS = "body {font-family: sans-serif; font-size: 10pt;} p {text-align: left;}"


@dataclass
class Truth:
    """What a reader must find: headings (level, text), table cells, whole paragraphs."""

    headings: list[tuple[int, str]] = field(default_factory=list)
    cells: list[str] = field(default_factory=list)
    paragraphs: list[str] = field(default_factory=list)
    lists: list[str] = field(default_factory=list)

    def as_json(self) -> dict[str, Any]:
        return {
            "headings": [list(h) for h in self.headings],
            "cells": self.cells,
            "paragraphs": self.paragraphs,
            "lists": self.lists,
        }


class _Html:
    """HTML built up with its truth recorded alongside."""

    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)
        self.parts: list[str] = []
        self.truth = Truth()
        self.serial = 0

    def sentence(self) -> str:
        self.serial += 1
        words = [self.rng.choice(WORDS) for _ in range(self.rng.randint(8, 14))]
        return f"{words[0].capitalize()} {' '.join(words[1:])} number {self.serial}."

    def heading(self, level: int, text: str) -> None:
        self.parts.append(f"<h{level}>{text}</h{level}>")
        self.truth.headings.append((level, text))

    def para(self, sentences: int = 4, *, hyphen: bool = False) -> None:
        text = " ".join(self.sentence() for _ in range(sentences))
        self.truth.paragraphs.append(text)
        if hyphen:  # a forced break inside a word: the reader must join it back
            head, _, tail = text.partition(" ")
            html = f"{head} struc-<br/>ture {tail}"
            self.truth.paragraphs[-1] = f"{head} structure {tail}"
        else:
            html = text
        self.parts.append(f"<p>{html}</p>")

    def table(self, rows: list[list[str]], *, ruled: bool, merged: bool = False) -> None:
        style = (
            ' style="border: 1px solid black; padding: 2px;"'
            if ruled
            else ' style="padding: 2px 12px;"'
        )
        out = [f"<table{style}>"]
        for i, row in enumerate(rows):
            tag = "th" if i == 0 else "td"
            cells = [f"<{tag}{style}>{c}</{tag}>" for c in row]
            if merged and i == 1:  # the first two cells of the first data row as one
                cells = [f'<td colspan="2"{style}>{row[0]}</td>', *cells[2:]]
                row = [row[0], *row[2:]]
            out.append("<tr>" + "".join(cells) + "</tr>")
            self.truth.cells.extend(row)
        out.append("</table>")
        self.parts.append("".join(out))

    def items(self, count: int) -> None:
        items = [
            f"{self.rng.choice(WORDS).capitalize()} item {self.serial + i}" for i in range(count)
        ]
        self.serial += count
        self.truth.lists.extend(items)
        self.parts.append("<ul>" + "".join(f"<li>{t}</li>" for t in items) + "</ul>")

    def html(self) -> str:
        return "\n".join(self.parts)

    def page_break(self) -> None:
        """Story cannot carry a table over a page break (it drops what follows): pages that
        hold tables are laid out one by one."""
        self.parts.append(_BREAK)

    def pages(self) -> list[str]:
        return self.html().split(_BREAK)


def _grid(rng: random.Random, rows: int, cols: int, tag: str) -> list[list[str]]:
    head = [f"{rng.choice(WORDS).capitalize()} {tag}{c}" for c in range(cols)]
    body = [
        [
            f"{rng.choice(WORDS)}-{tag}{r}{c}" if c == 0 else f"{rng.randint(10, 9999):,}"
            for c in range(cols)
        ]
        for r in range(rows)
    ]
    seen: set[str] = set()
    for row in body:  # numbers unique within a table, so each expected cell is one cell
        for c in range(1, cols):
            while row[c] in seen:
                row[c] = f"{rng.randint(10, 9999):,}"
            seen.add(row[c])
    return [head, *body]


def _render(
    html: str, columns: int = 1, *, css: str = CSS, band: float = 0.0, pages_hint: int = 0
) -> bytes:
    """Lay ``html`` out on A4 in ``columns`` columns (a full-width band of ``band`` points on
    the first page first, for a title)."""
    import pymupdf

    story = pymupdf.Story(html, user_css=css)
    page = pymupdf.paper_rect("a4")
    left, top, right, bottom, gap = 56.0, 72.0, page.width - 56.0, page.height - 72.0, 18.0
    width = (right - left - gap * (columns - 1)) / columns
    slots: list[tuple[bool, Any]] = []
    if band:
        slots.append((True, pymupdf.Rect(left, top, right, top + band)))
    for n in range(200):
        first = n == 0
        y0 = top + band if first and band else top
        for c in range(columns):
            x0 = left + c * (width + gap)
            slots.append(
                (c == 0 and not (first and band), pymupdf.Rect(x0, y0, x0 + width, bottom))
            )

    def rectfn(num: int, filled: Any) -> tuple[Any, Any, Any]:
        new_page, where = slots[num]
        return (page if new_page else None), where, None

    out = io.BytesIO()
    writer = pymupdf.DocumentWriter(out)
    story.write(writer, rectfn)
    writer.close()
    return out.getvalue()


def _pages(pages: list[str]) -> bytes:
    """Each HTML chunk on a page of its own (it must fit)."""
    import pymupdf

    out = pymupdf.open()
    for html in pages:
        one = pymupdf.open("pdf", _render(html))
        if one.page_count != 1:
            raise ValueError(f"a page chunk took {one.page_count} pages: {html[:80]!r}")
        out.insert_pdf(one)
    data = out.tobytes()
    out.close()
    return data


def with_running_lines(data: bytes, header: str) -> bytes:
    """Each page gets ``header`` at its top and ``Page n of N`` at its bottom (drawn on top of
    the laid-out text, as a PDF's running header/footer is)."""
    import pymupdf

    doc = pymupdf.open("pdf", data)
    count = doc.page_count
    for page in doc:
        page.insert_text((56, 40), header, fontsize=8)
        page.insert_text(
            (page.rect.width / 2 - 20, page.rect.height - 36),
            f"Page {page.number + 1} of {count}",
            fontsize=8,
        )
    out = doc.tobytes()
    doc.close()
    return out


def report() -> tuple[bytes, Truth]:
    """A 1-column report: h1-h4, ruled, merged-cell and unruled tables, lists, a hyphenated
    word, running header and footer."""
    h = _Html(1)
    h.heading(1, "Annual Report of the Northwind Cooperative")
    h.para(5)
    h.heading(2, "1 Introduction")
    h.para(6, hyphen=True)
    h.para(5)
    h.heading(3, "1.1 Scope of the review")
    h.para(4)
    h.items(4)
    h.para(3)
    h.page_break()
    h.heading(2, "2 Results")
    h.para(5)
    h.heading(3, "2.1 Revenue by region")
    h.table(_grid(h.rng, 5, 4, "R"), ruled=True)
    h.para(4)
    h.heading(4, "2.1.1 Notes on the northern branch")
    h.para(6)
    h.table(_grid(h.rng, 4, 3, "M"), ruled=True, merged=True)
    h.para(5)
    h.page_break()
    h.heading(3, "2.2 Staff and volunteers")
    h.para(4)
    h.table(_grid(h.rng, 6, 3, "U"), ruled=False)
    h.para(5)
    h.heading(2, "3 Outlook")
    for _ in range(3):
        h.para(5)
    h.page_break()
    for _ in range(3):
        h.para(5)
    h.items(3)
    h.heading(3, "3.1 Risks")
    for _ in range(4):
        h.para(6)
    data = _pages(h.pages())
    return with_running_lines(data, "Northwind Cooperative - Annual Report 2024"), h.truth


def columns(count: int, seed: int) -> tuple[bytes, Truth]:
    """A title across the page, then ``count`` columns of sections over several pages."""
    h = _Html(seed)
    h.heading(1, f"Field Notes in {count} Columns")
    h.para(3)
    for s in range(1, 7):
        h.heading(2, f"{s} Section on {h.rng.choice(WORDS)} {h.rng.choice(WORDS)}")
        for _ in range(3):
            h.para(h.rng.randint(3, 6))
        if s == 2:
            h.heading(3, f"{s}.1 A closer look")
            h.para(4)
    data = _render(h.html(), count, band=110)
    return with_running_lines(data, f"Journal of Field Notes - {count} column edition"), h.truth


def tables() -> tuple[bytes, Truth]:
    """Tables of every kind between paragraphs: ruled, merged cells, unruled, wide."""
    h = _Html(7)
    h.heading(1, "Measurement Tables")
    h.para(3)
    h.heading(2, "Ruled table")
    h.table(_grid(h.rng, 8, 5, "A"), ruled=True)
    h.para(3)
    h.heading(2, "Merged cells")
    h.table(_grid(h.rng, 5, 4, "B"), ruled=True, merged=True)
    h.para(3)
    h.page_break()
    h.heading(2, "Table without rules")
    h.table(_grid(h.rng, 7, 4, "C"), ruled=False)
    h.para(3)
    h.page_break()
    h.heading(2, "Small table")
    h.table(_grid(h.rng, 3, 2, "D"), ruled=True)
    h.para(4)
    return _pages(h.pages()), h.truth


MAKERS: dict[str, Callable[[], tuple[bytes, Truth]]] = {
    "report": report,
    "two_column": lambda: columns(2, 2),
    "three_column": lambda: columns(3, 3),
    "tables": tables,
}


def text_pages(pages: int) -> bytes:
    """A plain single-column text PDF of ``pages`` pages (throughput)."""
    import pymupdf

    rng = random.Random(5)
    doc = pymupdf.open()
    for n in range(1, pages + 1):
        page = doc.new_page()
        body = "\n".join(" ".join(rng.choice(WORDS) for _ in range(12)) for _ in range(45))
        page.insert_textbox(
            pymupdf.Rect(56, 56, 540, 800), f"Chapter text page {n}\n{body}", fontsize=10
        )
    out = doc.tobytes()
    doc.close()
    return out
