"""An XLSX's charts are named (title, kind, series) where they are: a loader gets a Document per
sheet holding charts (a chart sheet too) after the rows, the agent view a Charts header line."""

from __future__ import annotations

from pathlib import Path

import docread
import pytest
from conftest import CORPUS


def chart_book(path: Path) -> Path:
    """A sheet with a bar chart and a chart sheet with a line chart (openpyxl caches no
    values: the series are named by the cells they come from)."""
    from openpyxl import Workbook
    from openpyxl.chart import BarChart, LineChart, Reference

    wb = Workbook()
    ws = wb.active
    ws.title = "Data"
    for row in (["Region", "Revenue", "Cost"], ["North", 1.5, 0.5], ["South", 2.5, 1.25]):
        ws.append(row)
    bars = BarChart()
    bars.title = "Sales by region"
    bars.add_data(Reference(ws, min_col=2, max_col=3, min_row=1, max_row=3), titles_from_data=True)
    bars.set_categories(Reference(ws, min_col=1, min_row=2, max_row=3))
    ws.add_chart(bars, "E2")
    line = LineChart()
    line.title = "Cost trend"
    line.add_data(Reference(ws, min_col=3, min_row=1, max_row=3), titles_from_data=True)
    wb.create_chartsheet("Trend").add_chart(line)
    wb.save(path)
    return path


def test_loader_names_each_sheets_charts(reader: docread.Reader, tmp_path: Path) -> None:
    chart_book(tmp_path / "b.xlsx")
    docs = list(reader.iter_documents("b.xlsx"))
    charts = {d.metadata["sheet"]: d for d in docs if "charts" in d.metadata}
    assert charts["Data"].text == (
        "## Sheet: Data, charts\n\nCharts:\n- Chart: Sales by region (bar; series: 'Data'!B1, 'Data'!C1)"
    )
    assert (
        charts["Trend"].text
        == "## Sheet: Trend, charts\n\nCharts:\n- Chart: Cost trend (line; series: 'Data'!C1)"
    )
    assert charts["Trend"].metadata["sheet_index"] == 2


def test_agent_view_names_the_sheets_charts(reader: docread.Reader, tmp_path: Path) -> None:
    chart_book(tmp_path / "b.xlsx")
    shown = reader.read("b.xlsx").render()
    assert "**Charts:** Sales by region (bar; series: 'Data'!B1, 'Data'!C1)" in shown


def test_corpus_workbook_charts(reader: docread.Reader) -> None:
    """xlsx_01.xlsx's Sheet2 holds a scatter chart ("'col-2', 'col-3', 'col-4' by 'col-1'")
    and a line chart titled by its one series, col-3."""
    path = CORPUS / "tables" / "xlsx_01.xlsx"
    if not path.exists():
        pytest.skip("the shared corpus is not there")
    with docread.Reader(path.parent, config={"cache": {"enabled": False}}) as r:
        text = "\n".join(d.text for d in r.iter_documents(path.name))
    assert (
        "- Chart: 'col-2', 'col-3', 'col-4' by 'col-1' (scatter; series: col-2, col-3, col-4)"
        in text
    )
    assert "- Chart: 'col-3' (line; series: col-3)" in text
