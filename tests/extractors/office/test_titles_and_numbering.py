"""Titles and numbering as Word and LibreOffice show them: ``Title``/``Subtitle`` paragraphs are
headings 1 and 2; list and heading numbers follow Word's numbering.xml (``lvlText``, ``numFmt``,
start values, overrides, deeper levels restarting) and ODF's list and outline styles (num-format,
prefix, suffix, display levels). Word documents are written part by part as Word writes them."""

from __future__ import annotations

import zipfile
from pathlib import Path

import docread
import pytest
from conftest import CORPUS
from docread.extractors.office.numbering import number_text

W = 'xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"'
_TYPES = (
    '<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">'
    '<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>'
    '<Default Extension="xml" ContentType="application/xml"/>'
    '<Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-'
    'officedocument.wordprocessingml.document.main+xml"/></Types>'
)
_RELS = (
    '<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">'
    '<Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/'
    'relationships/officeDocument" Target="word/document.xml"/></Relationships>'
)


def word_docx(path: Path, body: str, *, styles: str = "", numbering: str = "") -> Path:
    """A DOCX of ``body`` (w:p elements), with the given w:style and numbering elements."""
    with zipfile.ZipFile(path, "w") as z:
        z.writestr("[Content_Types].xml", _TYPES)
        z.writestr("_rels/.rels", _RELS)
        z.writestr("word/document.xml", f"<w:document {W}><w:body>{body}</w:body></w:document>")
        z.writestr("word/styles.xml", f"<w:styles {W}>{styles}</w:styles>")
        if numbering:
            z.writestr("word/numbering.xml", f"<w:numbering {W}>{numbering}</w:numbering>")
    return path


def para(text: str, style: str = "", num: tuple[int, int] | None = None) -> str:
    props = f'<w:pStyle w:val="{style}"/>' if style else ""
    if num is not None:
        props += f'<w:numPr><w:ilvl w:val="{num[1]}"/><w:numId w:val="{num[0]}"/></w:numPr>'
    return f"<w:p><w:pPr>{props}</w:pPr><w:r><w:t>{text}</w:t></w:r></w:p>"


def style(sid: str, name: str, num: int | None = None, level: int = 0, based: str = "") -> str:
    ppr = f'<w:pPr><w:numPr><w:numId w:val="{num}"/></w:numPr></w:pPr>' if num else ""
    if num and level:
        ppr = f'<w:pPr><w:numPr><w:ilvl w:val="{level}"/><w:numId w:val="{num}"/></w:numPr></w:pPr>'
    base = f'<w:basedOn w:val="{based}"/>' if based else ""
    return (
        f'<w:style w:type="paragraph" w:styleId="{sid}"><w:name w:val="{name}"/>{base}{ppr}'
        "</w:style>"
    )


def abstract(aid: int, levels: list[tuple[str, str, int]], legal: int = -1) -> str:
    """An abstract numbering: (numFmt, lvlText, start) per level; ``legal``: the level with
    isLgl."""
    out = "".join(
        f'<w:lvl w:ilvl="{i}"><w:start w:val="{start}"/><w:numFmt w:val="{fmt}"/>'
        f'{"<w:isLgl/>" if i == legal else ""}<w:lvlText w:val="{text}"/></w:lvl>'
        for i, (fmt, text, start) in enumerate(levels)
    )
    return f'<w:abstractNum w:abstractNumId="{aid}">{out}</w:abstractNum>'


def num(nid: int, aid: int, starts: dict[int, int] | None = None) -> str:
    overrides = "".join(
        f'<w:lvlOverride w:ilvl="{k}"><w:startOverride w:val="{v}"/></w:lvlOverride>'
        for k, v in (starts or {}).items()
    )
    return f'<w:num w:numId="{nid}"><w:abstractNumId w:val="{aid}"/>{overrides}</w:num>'


def loaded(reader: docread.Reader, name: str) -> str:
    return "\n\n".join(d.text for d in reader.iter_documents(name))


def test_title_and_subtitle_are_headings(reader: docread.Reader, tmp_path: Path) -> None:
    styles = style("Title", "Title") + style("Subtitle", "Subtitle") + style("H1", "heading 1")
    body = para("Annual Report", "Title") + para("Fiscal year", "Subtitle") + para("Intro", "H1")
    word_docx(tmp_path / "t.docx", body, styles=styles)
    text = loaded(reader, "t.docx")
    assert "# Annual Report\n\n## Fiscal year\n\n# Intro" in text


def test_corpus_title_style_is_a_heading(reader: docread.Reader) -> None:
    """unit_test_headers.docx opens with "Test Document" in Word's Title style (rendered large,
    above "Section 1")."""
    path = CORPUS / "word" / "unit_test_headers.docx"
    if not path.exists():
        pytest.skip("the shared corpus is not there")
    with docread.Reader(path.parent, config={"cache": {"enabled": False}}) as r:
        text = loaded(r, path.name)
    assert "# Test Document" in text.split("\n")


def test_corpus_odt_title_and_subtitle_are_headings(reader: docread.Reader) -> None:
    """text_document_01.odt opens with paragraphs styled after LibreOffice's Title and Subtitle
    (centred, large), above "heading level 1.0"; its numbered list shows "1." and "2."."""
    path = CORPUS / "word" / "text_document_01.odt"
    if not path.exists():
        pytest.skip("the shared corpus is not there")
    with docread.Reader(path.parent, config={"cache": {"enabled": False}}) as r:
        text = loaded(r, path.name)
    assert text.startswith("# Title\n\n## Subtitle\n\n# heading level 1.0\n")
    assert "1. numbered list 1\n2. numbered list 2\n" in text


def test_corpus_numbered_list_keeps_its_parenthesis(reader: docread.Reader) -> None:
    """testWORD_various.docx's numbered list shows "1)" .. "3)" (lvlText "%1)")."""
    path = CORPUS / "word" / "testWORD_various.docx"
    if not path.exists():
        pytest.skip("the shared corpus is not there")
    with docread.Reader(path.parent, config={"cache": {"enabled": False}}) as r:
        text = loaded(r, path.name)
    assert "1) Number bullet 1\n2) Number bullet 2\n3) Number bullet 3" in text


def test_word_numbering_as_word_shows_it(reader: docread.Reader, tmp_path: Path) -> None:
    """Multi-level lvlText, letters and roman numbers, a start value, deeper levels restarting,
    numbered headings, a start override and a bullet level."""
    outline = abstract(1, [("decimal", "%1", 1), ("decimal", "%1.%2", 1)])
    lists = abstract(
        2,
        [("decimal", "%1.", 2), ("decimal", "%1.%2.", 3), ("decimal", "%1.%2.%3.", 8),
         ("decimal", "%1.%2.%3.%4.", 1)],
    )  # fmt: skip
    mixed = abstract(3, [("lowerLetter", "%1)", 1), ("upperRoman", "%2.", 1), ("bullet", "o", 1)])
    numbering = outline + lists + mixed + num(1, 1) + num(2, 2) + num(3, 3) + num(4, 3, {0: 26})
    styles = (
        style("H1", "heading 1", num=1) + style("H2", "heading 2", num=1, level=1)
        + style("Title", "Title")
    )  # fmt: skip
    body = "".join([
        para("Report", "Title"),
        para("Section 1", "H1"),
        para("Scope", "H2"),
        para("Aims", "H2"),
        para("Top item", num=(2, 0)),
        para("Second level", num=(2, 1)),
        para("Third level", num=(2, 2)),
        para("First sub-item", num=(2, 3)),
        para("Section 2", "H1"),
        para("Methods", "H2"),
        para("Next top", num=(2, 0)),
        para("Restarted", num=(2, 1)),
        para("Letter one", num=(3, 0)),
        para("Roman one", num=(3, 1)),
        para("Roman two", num=(3, 1)),
        para("A bullet", num=(3, 2)),
        para("Letter two", num=(3, 0)),
        para("Own start", num=(4, 0)),
    ])  # fmt: skip
    word_docx(tmp_path / "n.docx", body, styles=styles, numbering=numbering)
    text = loaded(reader, "n.docx")
    for line in [
        "# Report", "# 1 Section 1", "## 1.1 Scope", "## 1.2 Aims",
        "2. Top item", "   2.3. Second level", "      2.3.8. Third level",
        "         2.3.8.1. First sub-item", "# 2 Section 2", "## 2.1 Methods", "3. Next top",
        "   3.3. Restarted", "a) Letter one", "   I. Roman one", "   II. Roman two",
        "      - A bullet", "b) Letter two", "z) Own start",
    ]:  # fmt: skip
        assert line in text.split("\n"), (line, text)


@pytest.mark.parametrize(
    ("n", "fmt", "shown"),
    [(1, "decimal", "1"), (7, "decimalZero", "07"), (28, "lowerLetter", "bb"),
     (3, "upperLetter", "C"), (1994, "upperRoman", "MCMXCIV"), (4, "lowerRoman", "iv"),
     (5, "ordinalText", "5")],
)  # fmt: skip
def test_number_formats(n: int, fmt: str, shown: str) -> None:
    assert number_text(n, fmt) == shown


_ODF_NS = (
    'xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0" '
    'xmlns:style="urn:oasis:names:tc:opendocument:xmlns:style:1.0" '
    'xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0" '
    'xmlns:fo="urn:oasis:names:tc:opendocument:xmlns:xsl-fo-compatible:1.0"'
)


def odt_file(path: Path, styles: str, body: str) -> Path:
    """An ODT of ``body`` (office:text content) with ``styles`` (office:styles content)."""
    manifest = (
        '<manifest:manifest xmlns:manifest="urn:oasis:names:tc:opendocument:xmlns:manifest:1.0">'
        '<manifest:file-entry manifest:full-path="/" '
        'manifest:media-type="application/vnd.oasis.opendocument.text"/>'
        '<manifest:file-entry manifest:full-path="content.xml" manifest:media-type="text/xml"/>'
        "</manifest:manifest>"
    )
    with zipfile.ZipFile(path, "w") as z:
        z.writestr("mimetype", "application/vnd.oasis.opendocument.text")
        z.writestr("META-INF/manifest.xml", manifest)
        z.writestr(
            "styles.xml",
            f"<office:document-styles {_ODF_NS}><office:styles>{styles}</office:styles>"
            "</office:document-styles>",
        )
        z.writestr(
            "content.xml",
            f"<office:document-content {_ODF_NS}><office:body><office:text>{body}"
            "</office:text></office:body></office:document-content>",
        )
    return path


def _odf_level(tag: str, level: int, fmt: str, suffix: str = ".", display: int = 1) -> str:
    return (
        f'<text:{tag} text:level="{level}" style:num-format="{fmt}" style:num-suffix="{suffix}" '
        f'text:display-levels="{display}"/>'
    )


def test_odt_titles_and_numbering_as_libreoffice_shows_them(
    reader: docread.Reader, tmp_path: Path
) -> None:
    styles = (
        '<style:style style:name="Title" style:family="paragraph"/>'
        '<style:style style:name="Subtitle" style:family="paragraph"/>'
        '<text:outline-style style:name="Outline">'
        + _odf_level("outline-level-style", 1, "1", "")
        + _odf_level("outline-level-style", 2, "1", "", 2)
        + "</text:outline-style>"
        '<text:list-style style:name="L1">'
        + _odf_level("list-level-style-number", 1, "a", ")")
        + _odf_level("list-level-style-number", 2, "1", ".", 2)
        + '<text:list-level-style-bullet text:level="3" text:bullet-char="*"/>'
        "</text:list-style>"
    )

    def item(words: str, inner: str = "") -> str:
        return f"<text:list-item><text:p>{words}</text:p>{inner}</text:list-item>"

    nested = '<text:list>' + item("One one") + item("One two", "<text:list>" + item("Dot") + "</text:list>") + "</text:list>"  # fmt: skip
    body = (
        '<text:p text:style-name="Title">Field guide</text:p>'
        '<text:p text:style-name="Subtitle">Second edition</text:p>'
        '<text:h text:outline-level="1">Section 1</text:h>'
        '<text:h text:outline-level="2">Birds</text:h>'
        '<text:h text:outline-level="2">Trees</text:h>'
        f'<text:list text:style-name="L1">{item("First", nested)}{item("Second")}</text:list>'
        '<text:h text:outline-level="1">Section 2</text:h>'
        '<text:h text:outline-level="2">Rivers</text:h>'
        '<text:h text:outline-level="1"><text:number>7.</text:number>Cached</text:h>'
    )
    odt_file(tmp_path / "n.odt", styles, body)
    lines = loaded(reader, "n.odt").split("\n")
    for line in [
        "# Field guide", "## Second edition", "# 1 Section 1", "## 1.1 Birds", "## 1.2 Trees",
        "a) First", "   a.1. One one", "   a.2. One two", "      - Dot", "b) Second",
        "# 2 Section 2", "## 2.1 Rivers", "# 7. Cached",
    ]:  # fmt: skip
        assert line in lines, (line, lines)


def odp_file(path: Path, pages: str) -> Path:
    ns = (
        _ODF_NS + ' xmlns:draw="urn:oasis:names:tc:opendocument:xmlns:drawing:1.0" '
        'xmlns:svg="urn:oasis:names:tc:opendocument:xmlns:svg-compatible:1.0" '
        'xmlns:presentation="urn:oasis:names:tc:opendocument:xmlns:presentation:1.0"'
    )
    with zipfile.ZipFile(path, "w") as z:
        z.writestr("mimetype", "application/vnd.oasis.opendocument.presentation")
        z.writestr(
            "content.xml",
            f"<office:document-content {ns}><office:body><office:presentation>{pages}"
            "</office:presentation></office:body></office:document-content>",
        )
    return path


def _box(y: float, height: float, *paragraphs: str, role: str = "") -> str:
    cls = f' presentation:class="{role}"' if role else ""
    paras = "".join(f"<text:p>{p}</text:p>" for p in paragraphs)
    return (
        f'<draw:frame svg:x="1cm" svg:y="{y}cm" svg:width="20cm" svg:height="{height}cm"{cls}>'
        f"<draw:text-box>{paras}</draw:text-box></draw:frame>"
    )


def test_odp_title_in_an_unclassed_top_text_box(reader: docread.Reader, tmp_path: Path) -> None:
    """A converter's slide: its title is a plain text box at the top (no title placeholder);
    a slide whose top box holds a list, or whose title is a placeholder, keeps its rule."""
    pages = (
        '<draw:page draw:name="p1">' + _box(6, 8, "First point", "Second point")
        + _box(1, 2, "Quarterly results") + "</draw:page>"
        '<draw:page draw:name="p2">' + _box(1, 3, "Item one", "Item two")
        + _box(5, 2, "Closing words") + "</draw:page>"
        '<draw:page draw:name="p3">' + _box(1, 2, "Small print")
        + _box(4, 2, "Real title", role="title") + "</draw:page>"
    )  # fmt: skip
    odp_file(tmp_path / "deck.odp", pages)
    slides = [d for d in reader.iter_documents("deck.odp")]
    assert slides[0].text.startswith("## Slide 1: Quarterly results\n\n")
    assert slides[0].metadata["slide_title"] == "Quarterly results"
    assert "Quarterly results" not in slides[0].text.split("\n", 1)[1]
    assert slides[1].text.startswith("## Slide 2\n\n") and "Item one" in slides[1].text
    assert (
        slides[2].text.startswith("## Slide 3: Real title\n\n") and "Small print" in slides[2].text
    )
