"""Charts are data: a DOCX or PPTX chart (the values its series cache) and an ODF chart object
(ODT, ODP: its local table) become a pipe table, category | series..., under the chart's title,
through the one table renderer. DOCX and ODF files are written part by part as Word and
LibreOffice write them; the PPTX by python-pptx."""

from __future__ import annotations

import zipfile
from pathlib import Path

import docread
import pytest
from conftest import CORPUS

_C = "http://schemas.openxmlformats.org/drawingml/2006/chart"
_TITLE = (
    "<c:title><c:tx><c:rich><a:bodyPr/><a:p><a:r><a:t>Sales by region</a:t></a:r></a:p>"
    "</c:rich></c:tx></c:title>"
)
TABLE = (
    "Table: Sales by region\n\n| Category | Revenue | Cost |\n|---|---|---|\n"
    "| North | 1.5 | 0.5 |\n| South | 2.5 | 1.25 |"
)


def chart_xml() -> str:
    """A clustered column chart with two series, as python-pptx (and Word) write it, titled."""
    from pptx.chart.data import CategoryChartData
    from pptx.chart.xmlwriter import ChartXmlWriter
    from pptx.enum.chart import XL_CHART_TYPE

    data = CategoryChartData()
    data.categories = ["North", "South"]
    data.add_series("Revenue", (1.5, 2.5))
    data.add_series("Cost", (0.5, 1.25))
    xml = ChartXmlWriter(XL_CHART_TYPE.COLUMN_CLUSTERED, data).xml
    return xml.replace("<c:chart>", "<c:chart>" + _TITLE, 1)


def chart_docx(path: Path) -> Path:
    """A DOCX with a paragraph, an inline chart (word/charts/chart1.xml), a paragraph."""
    import docx as python_docx

    d = python_docx.Document()
    d.add_paragraph("Before the chart")
    d.add_paragraph("CHARTHERE")
    d.add_paragraph("After the chart")
    d.save(path)
    with zipfile.ZipFile(path) as z:
        parts = {i.filename: z.read(i) for i in z.infolist()}
    drawing = (
        '<w:drawing><wp:inline xmlns:wp="http://schemas.openxmlformats.org/drawingml/2006/'
        'wordprocessingDrawing"><wp:extent cx="5486400" cy="3200400"/><wp:docPr id="1" '
        'name="Chart 1"/><a:graphic xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/'
        f'main"><a:graphicData uri="{_C}"><c:chart xmlns:c="{_C}" xmlns:r="http://schemas.'
        'openxmlformats.org/officeDocument/2006/relationships" r:id="rIdChart1"/>'
        "</a:graphicData></a:graphic></wp:inline></w:drawing>"
    )
    body = parts["word/document.xml"].decode()
    parts["word/document.xml"] = body.replace("<w:t>CHARTHERE</w:t>", drawing).encode()
    rels = parts["word/_rels/document.xml.rels"].decode()
    rel = (
        '<Relationship Id="rIdChart1" Type="http://schemas.openxmlformats.org/officeDocument/'
        '2006/relationships/chart" Target="charts/chart1.xml"/>'
    )
    parts["word/_rels/document.xml.rels"] = rels.replace(
        "</Relationships>", rel + "</Relationships>"
    ).encode()
    types = parts["[Content_Types].xml"].decode()
    override = (
        '<Override PartName="/word/charts/chart1.xml" ContentType="application/vnd.'
        'openxmlformats-officedocument.drawingml.chart+xml"/>'
    )
    parts["[Content_Types].xml"] = types.replace("</Types>", override + "</Types>").encode()
    parts["word/charts/chart1.xml"] = chart_xml().encode()
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as z:
        for name, data in parts.items():
            z.writestr(name, data)
    return path


def chart_pptx(path: Path) -> Path:
    from pptx import Presentation
    from pptx.chart.data import CategoryChartData
    from pptx.enum.chart import XL_CHART_TYPE
    from pptx.util import Inches

    prs = Presentation()
    slide = prs.slides.add_slide(prs.slide_layouts[5])
    slide.shapes.title.text = "Results"
    data = CategoryChartData()
    data.categories = ["North", "South"]
    data.add_series("Revenue", (1.5, 2.5))
    data.add_series("Cost", (0.5, 1.25))
    frame = slide.shapes.add_chart(
        XL_CHART_TYPE.COLUMN_CLUSTERED, Inches(1), Inches(1), Inches(6), Inches(4), data
    )
    frame.chart.has_title = True
    frame.chart.chart_title.text_frame.text = "Sales by region"
    prs.save(path)
    return path


_ODF_NS = (
    'xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0" '
    'xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0" '
    'xmlns:table="urn:oasis:names:tc:opendocument:xmlns:table:1.0" '
    'xmlns:draw="urn:oasis:names:tc:opendocument:xmlns:drawing:1.0" '
    'xmlns:chart="urn:oasis:names:tc:opendocument:xmlns:chart:1.0" '
    'xmlns:svg="urn:oasis:names:tc:opendocument:xmlns:svg-compatible:1.0" '
    'xmlns:xlink="http://www.w3.org/1999/xlink"'
)


def _cell(text: str, kind: str = "string") -> str:
    value = f' office:value="{text}"' if kind == "float" else ""
    return f'<table:table-cell office:value-type="{kind}"{value}><text:p>{text}</text:p></table:table-cell>'


# an office:chart as LibreOffice writes it: the title, the plot area, the local table
CHART_OBJECT = (
    f'<office:document-content {_ODF_NS}><office:body><office:chart>'
    '<chart:chart chart:class="chart:bar"><chart:title><text:p>Sales by region</text:p>'
    '</chart:title><chart:plot-area><chart:axis chart:dimension="y"><chart:title><text:p>'
    'Euro</text:p></chart:title></chart:axis></chart:plot-area>'
    '<table:table table:name="local-table"><table:table-header-rows><table:table-row>'
    '<table:table-cell><text:p/></table:table-cell>' + _cell("Revenue") + _cell("Cost")
    + '</table:table-row></table:table-header-rows><table:table-rows><table:table-row>'
    + _cell("North") + _cell("1.5", "float") + _cell("0.5", "float")
    + '</table:table-row><table:table-row>'
    + _cell("South") + _cell("2.5", "float") + _cell("1.25", "float")
    + "</table:table-row></table:table-rows></table:table></chart:chart></office:chart>"
    "</office:body></office:document-content>"
)  # fmt: skip
FRAME = (
    '<draw:frame draw:name="Chart 1" svg:x="1cm" svg:y="5cm" svg:width="15cm" svg:height="9cm">'
    '<draw:object xlink:href="./Object 1"/><draw:image xlink:href="./ObjectReplacements/Object 1"/>'
    "</draw:frame>"
)


def odf_with_chart(path: Path, kind: str) -> Path:
    """An ODT (the chart anchored in a paragraph) or ODP (on a titled slide) with a chart
    object and its replacement picture."""
    if kind == "text":
        body = f"<office:text><text:p>Before the chart{FRAME}</text:p><text:p>After the chart</text:p></office:text>"  # fmt: skip
    else:
        title = (
            '<draw:frame presentation:class="title" xmlns:presentation="urn:oasis:names:tc:'
            'opendocument:xmlns:presentation:1.0"><draw:text-box><text:p>Results</text:p>'
            "</draw:text-box></draw:frame>"
        )
        body = f'<office:presentation><draw:page draw:name="p1">{title}{FRAME}</draw:page></office:presentation>'  # fmt: skip
    with zipfile.ZipFile(path, "w") as z:
        z.writestr("mimetype", f"application/vnd.oasis.opendocument.{kind}")
        z.writestr(
            "content.xml",
            f"<office:document-content {_ODF_NS}><office:body>{body}</office:body>"
            "</office:document-content>",
        )
        z.writestr("Object 1/content.xml", CHART_OBJECT)
        z.writestr("ObjectReplacements/Object 1", b"not a picture docread reads")
    return path


def loaded(reader: docread.Reader, name: str) -> str:
    return "\n\n".join(d.text for d in reader.iter_documents(name))


def test_docx_chart_is_a_table_where_it_stands(reader: docread.Reader, tmp_path: Path) -> None:
    chart_docx(tmp_path / "c.docx")
    text = loaded(reader, "c.docx")
    assert TABLE in text, text
    assert text.index("Before the chart") < text.index(TABLE) < text.index("After the chart")


def test_pptx_chart_values_are_a_table(reader: docread.Reader, tmp_path: Path) -> None:
    chart_pptx(tmp_path / "c.pptx")
    text = loaded(reader, "c.pptx")
    assert text.startswith("## Slide 1: Results\n\n") and TABLE in text, text
    assert "Series:" not in text


@pytest.mark.parametrize(("name", "kind"), [("c.odt", "text"), ("c.odp", "presentation")])
def test_odf_chart_object_is_a_table(
    reader: docread.Reader, tmp_path: Path, name: str, kind: str
) -> None:
    odf_with_chart(tmp_path / name, kind)
    text = loaded(reader, name)
    assert TABLE in text, text
    assert "<embed" not in text and "[image" not in text and "Object 1" not in text


def test_corpus_pptx_chart_values(reader: docread.Reader) -> None:
    """test.pptx's slide 4 holds a column chart (title "a3f6004b-..."), categories 2000-2003,
    one series "Series 1" with the values 2000-2003."""
    path = CORPUS / "slides" / "test.pptx"
    if not path.exists():
        pytest.skip("the shared corpus is not there")
    with docread.Reader(path.parent, config={"cache": {"enabled": False}}) as r:
        text = loaded(r, path.name)
    assert (
        "Table: a3f6004b-6f4f-4ea8-bee3-3741f4dc385f\n\n| Category | Series 1 |\n|---|---|\n"
        "| 2000 | 2000 |\n| 2001 | 2001 |\n| 2002 | 2002 |\n| 2003 | 2003 |"
    ) in text
