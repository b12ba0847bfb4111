"""Charts as data: a DrawingML chart part (DOCX, PPTX, XLSX: the values cached in each series)
or an ODF chart object (ODT, ODP: its local table) as a Grid, category | series..., with the
chart's title as caption, for the one table renderer; ``chart_summary``: one line naming a
chart (title, kind, series) where a table is not wanted (a workbook's sheet)."""

from __future__ import annotations

import posixpath
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from ..markdown import Cell, Grid
from .package import attr, local, rels

if TYPE_CHECKING:
    from .package import OfficeZip

MAX_POINTS = 10_000  # categories a chart's table holds (a hostile ptCount is cut there)
_PLOTS = ("barChart", "bar3DChart", "lineChart", "line3DChart", "pieChart", "pie3DChart",
          "doughnutChart", "areaChart", "area3DChart", "scatterChart", "radarChart",
          "bubbleChart", "stockChart", "surfaceChart", "surface3DChart", "ofPieChart")  # fmt: skip


def _texts(el: Any, name: str = "t") -> str:
    """The words of an element's runs (``a:t``) or cached values (``c:v``), spaces joined."""
    return " ".join(" ".join((t.text or "") for t in el.iter() if local(t.tag) == name).split())


def _child(el: Any, name: str) -> Any:
    return next((sub for sub in el if local(sub.tag) == name), None)


def _points(ref: Any) -> dict[int, str]:
    """Cached points of a series' reference (``c:strRef``/``c:numRef``/``c:multiLvlStrRef``
    caches, or literal ``c:strLit``/``c:numLit``): index -> value; a multi-level category
    joins its levels."""
    out: dict[int, str] = {}
    if ref is None:
        return out
    for pt in ref.iter():
        if local(pt.tag) != "pt":
            continue
        idx = attr(pt, "idx")
        if not (idx.isascii() and idx.isdigit()) or len(idx) > 9 or int(idx) >= MAX_POINTS:
            continue
        value = _texts(pt, "v")
        n = int(idx)
        out[n] = f"{value} / {out[n]}" if n in out and value else value or out.get(n, "")
    return out


def chart_title(space: Any) -> str:
    """A DrawingML chart's title: its own text, else (Office's automatic title) the name of
    its only series."""
    chart = _child(space, "chart")
    title = _child(chart, "title") if chart is not None else None
    if title is not None and (words := _texts(title)):
        return words
    names = [name for name, _ in _series(space)]
    return names[0] if len(names) == 1 and title is not None else ""


def _series(space: Any) -> list[tuple[str, Any]]:
    """(name, element) of every series of every plot, in order: its cached or literal name,
    else the cell its name is taken from (a writer that caches nothing, such as openpyxl)."""
    out: list[tuple[str, Any]] = []
    for el in space.iter():
        if local(el.tag) == "ser":
            tx = _child(el, "tx")
            name = (_texts(tx, "v") or _texts(tx) or _texts(tx, "f")) if tx is not None else ""
            out.append((name, el))
    return out


def drawingml_grid(space: Any) -> Grid:
    """A ``c:chartSpace`` as a Grid: a header row (the category axis' title or "Category",
    then each series' name), then one row per category with each series' value there; a
    scatter or bubble chart's x values are its categories."""
    series = _series(space)
    cats: dict[int, str] = {}
    columns: list[tuple[str, dict[int, str]]] = []
    for number, (name, ser) in enumerate(series, 1):
        cat = _child(ser, "cat") if _child(ser, "cat") is not None else _child(ser, "xVal")
        val = _child(ser, "val") if _child(ser, "val") is not None else _child(ser, "yVal")
        for idx, value in _points(cat).items():
            cats.setdefault(idx, value)
        columns.append((name or f"Series {number}", _points(val)))
    indices = sorted(set(cats) | {i for _, values in columns for i in values})
    header = [Cell(_axis_title(space) or "Category")] + [Cell(name) for name, _ in columns]
    rows = [[Cell(cats.get(i, str(i + 1)))] + [Cell(v.get(i, "")) for _, v in columns]
            for i in indices]  # fmt: skip
    return Grid([header, *rows], header_rows=1, caption=chart_title(space) or "Chart")


def _axis_title(space: Any) -> str:
    for el in space.iter():
        if local(el.tag) in ("catAx", "dateAx"):
            title = _child(el, "title")
            return _texts(title) if title is not None else ""
    return ""


def chart_summary(space: Any) -> str:
    """One line naming a chart: ``Chart: <title> (<kind>; series: a, b)``."""
    kinds = [local(el.tag).removesuffix("Chart").removesuffix("3D") for el in space.iter()
             if local(el.tag) in _PLOTS]  # fmt: skip
    names = [name for name, _ in _series(space) if name]
    parts = [", ".join(dict.fromkeys(kinds))] if kinds else []
    if names:
        parts.append("series: " + ", ".join(names))
    shown = f" ({'; '.join(parts)})" if parts else ""
    return f"Chart: {chart_title(space) or 'untitled'}{shown}"


def workbook_charts(oz: OfficeZip) -> dict[str, list[str]]:
    """An XLSX's charts by sheet name, in sheet order: a worksheet's drawings' charts and a
    chart sheet's chart, each as its ``chart_summary`` line."""
    book = "xl/workbook.xml"
    if not oz.has(book):
        return {}
    parts = rels(oz, book)
    out: dict[str, list[str]] = {}
    for el in oz.xml(book).iter():
        if local(el.tag) != "sheet":
            continue
        sheet = parts.get(attr(el, "id"), "")
        lines = []
        for drawing in (t for t in rels(oz, sheet).values() if "/drawings/" in t) if sheet else ():
            for target in sorted(rels(oz, drawing).values()):  # chart1, chart2: made in order
                if "/charts/" in target and oz.has(target):
                    lines.append(chart_summary(oz.xml(target)))
        if lines:
            out[attr(el, "name")] = lines
    return out


# -- ODF chart objects -------------------------------------------------------------------------
def odf_object(oz: OfficeZip, href: str) -> Any:
    """The root of an embedded ODF object's content.xml (``./Object 1`` -> ``Object 1/``),
    or None when the package has none."""
    folder = posixpath.normpath(href.removeprefix("./").rstrip("/"))
    name = f"{folder}/content.xml"
    return oz.xml(name) if oz.has(name) and not folder.startswith("..") else None


def odf_chart_grid(root: Any, table_grid: Callable[[Any], Grid]) -> Grid | None:
    """An ODF chart object (``office:chart``) as a Grid: its local table read by
    ``table_grid`` (first column the categories, the header row the series), its title as
    caption; None for another object (a formula)."""
    chart = next((el for el in root.iter() if local(el.tag) == "chart" and attr(el, "class")), None)
    if chart is None:  # no chart:chart (office:chart holds it)
        return None
    table = next((el for el in chart.iter() if local(el.tag) == "table"), None)
    title = next((el for el in chart if local(el.tag) == "title"), None)
    grid = table_grid(table) if table is not None else Grid()
    grid.header_rows = max(grid.header_rows, 1)
    if grid.rows and grid.rows[0] and not grid.rows[0][0].text:
        grid.rows[0][0] = Cell("Category")
    caption = " ".join("".join(title.itertext()).split()) if title is not None else ""
    grid.caption = caption or "Chart"
    return grid
