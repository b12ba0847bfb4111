"""One HTML table parser (``html.tables``) for HTML pages and for the HTML tables in converted
markdown (pandoc's, EPUB chapters'): the same header rule, links and images kept in cells as in
paragraphs, block children apart by a space, nested tables flattened."""

from __future__ import annotations

from pathlib import Path

import docread
import pytest
from docread.extractors.html.convert import html_to_markdown
from docread.extractors.html.tables import MAX_NESTING, html_tables, table_markdown

TABLES = {
    "links and blocks": (
        "<table><tr><th>Name</th><th>Notes</th></tr>"
        '<tr><td><a href="https://example.org/docs">Docs</a> page</td>'
        "<td><p>First item</p><p>Second item</p></td></tr>"
        "<tr><td>List</td><td><ul><li>One</li><li>Two</li></ul>end<br>line</td></tr></table>",
        "| Name | Notes |\n|---|---|\n| [Docs](https://example.org/docs) page | First item Second item |\n"
        "| List | One Two end line |",
    ),
    "thead of td cells": (
        "<table><thead><tr><td>Year</td><td>Count</td></tr></thead>"
        "<tbody><tr><td>2024</td><td>3</td></tr></tbody></table>",
        "| Year | Count |\n|---|---|\n| 2024 | 3 |",
    ),
    "two th rows": (
        "<table><tr><th colspan='2'>Sales</th></tr><tr><th>North</th><th>South</th></tr>"
        "<tr><td>1</td><td>2</td></tr></table>",
        "| Sales / North | Sales / South |\n|---|---|\n| 1 | 2 |",
    ),
    "nested and caption": (
        "<table><caption>Results</caption><tr><th>Team</th><th>Scores</th></tr>"
        "<tr><td>Owls</td><td><table><tr><td>a</td><td>b</td></tr></table></td></tr></table>",
        "Table: Results\n\n| Team | Scores |\n|---|---|\n| Owls | [nested table: a, b] |",
    ),
    "script link and data image": (
        '<table><tr><th>A</th></tr><tr><td><a href="javascript:go()">Run</a> '
        '<img src="data:image/png;base64,AAAA" alt="Logo"> <img src="pic.png" alt="Pic"></td>'
        "</tr></table>",
        "| A |\n|---|\n| Run Logo ![Pic](pic.png) |",
    ),
}


@pytest.mark.parametrize("case", TABLES)
def test_one_parser_for_pages_and_converted_markdown(case: str) -> None:
    html, table = TABLES[case]
    assert table_markdown(html) == table
    assert html_tables(f"Before\n\n{html}\n\nAfter") == f"Before\n\n{table}\n\nAfter"
    page = html_to_markdown(f"<html><body><p>Before</p>{html}<p>After</p></body></html>")
    assert page.markdown == f"Before\n\n{table}\n\nAfter"


def test_an_html_page_keeps_links_in_cells(reader: docread.Reader, tmp_path: Path) -> None:
    html, table = TABLES["links and blocks"]
    (tmp_path / "t.html").write_text(f"<html><body>{html}</body></html>", "utf-8")
    (doc,) = reader.iter_documents("t.html")
    assert doc.text == table


def test_tables_nested_past_the_limit_give_their_words() -> None:
    depth = MAX_NESTING + 20
    html = "<table><tr><td>" * depth + "core words" + "</td></tr></table>" * depth
    table = table_markdown(html)
    assert "core words" in table and table.count("[nested table:") == MAX_NESTING - 1
