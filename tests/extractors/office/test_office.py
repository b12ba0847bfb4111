"""Office documents and e-books: real files generated with python-docx, python-pptx, odfpy and
pandoc into tmp_path, read through the public API; bad inputs (corpus conformance: test_conformance.py)."""

from __future__ import annotations

import shutil
import subprocess
import tempfile
import time
import zipfile
from pathlib import Path

import docread
import pytest
from conftest import CORPUS, NO_CACHE, MakeReader
from docread.errors import (
    ArchiveSecurityError,
    DependencyMissingError,
    EncryptedDocumentError,
    ExtractionError,
    InvalidOptionError,
)
from factories import PAGE_BREAK, docx, image_bytes, pptx

PNG = image_bytes((4, 4), "red")


def _pandoc(markdown: str, target: Path, *extra: str) -> Path:
    """Write a fixture with pandoc itself (from markdown)."""
    import pypandoc

    subprocess.run(
        [pypandoc.get_pandoc_path(), "-f", "markdown", "-o", str(target), *extra],
        input=markdown.encode(), check=True, capture_output=True, timeout=60,
    )  # fmt: skip
    return target


@pytest.fixture
def paged_docx(tmp_path: Path) -> Path:
    """A DOCX with two headings, a table, two hard page breaks, an image and core properties."""
    return docx(
        tmp_path / "plan.docx",
        [
            (1, "Introduction"), "Alpha paragraph on the first page.", PAGE_BREAK,
            (1, "Budget"), [["Item", "Cost"], ["Servers", "1200"]], PAGE_BREAK,
            (2, "Pictures"), PNG, "Omega paragraph on the last page.",
        ],
        title="Quarterly Plan", author="Ada Lovelace", subject="Planning",
        keywords="plan, budget", revision=7,
    )  # fmt: skip


def test_docx_pages_follow_hard_page_breaks(reader: docread.Reader, paged_docx: Path) -> None:
    result = reader.read(paged_docx.name)
    assert [d.metadata["page_number"] for d in result.documents] == [1, 2, 3]
    assert result.header["Pages"] == "1-3 of 3 (explicit page breaks)"
    assert "Alpha paragraph" in result.documents[0].text
    assert "DOCREADPAGEBREAKMARK" not in result.text
    assert "| Servers | 1200" in result.documents[1].text.replace("  ", " ")
    assert "[image: " in result.documents[2].text
    one = reader.read(paged_docx.name, pages="2")
    assert len(one.documents) == 1 and "Budget" in one.text and "Alpha" not in one.text
    assert "## Page 2" in one.render()
    with pytest.raises(InvalidOptionError, match="3 pages"):
        reader.read(paged_docx.name, pages="4")


def test_docx_metadata_is_flat_and_in_the_header(reader: docread.Reader, paged_docx: Path) -> None:
    result = reader.read(paged_docx.name)
    meta = result.documents[0].metadata
    assert meta["title"] == "Quarterly Plan" and meta["author"] == "Ada Lovelace"
    assert meta["subject"] == "Planning" and meta["keywords"] == "plan, budget"
    assert meta["revision"] == 7 and meta["format"] == "docx" and meta["category"] == "office"
    assert "  - Title: Quarterly Plan" in result.render()
    bare = reader.read(paged_docx.name, include_metadata=False)
    assert "title" not in bare.documents[0].metadata and "Metadata" not in bare.header


def test_docx_loader_yields_sections_with_titles(reader: docread.Reader, paged_docx: Path) -> None:
    docs = list(reader.iter_documents(paged_docx.name))
    assert [d.metadata["section_title"] for d in docs] == ["Introduction", "Budget", "Pictures"]
    assert [d.metadata["section_index"] for d in docs] == [1, 2, 3]
    assert all(d.metadata["section_count"] == 3 for d in docs)
    assert len({d.id for d in docs}) == 3


def test_docx_images_become_media_when_asked(reader: docread.Reader, paged_docx: Path) -> None:
    units = list(reader.iter_units(paged_docx.name, pages="3", extract_images=True))
    media = [u for u in units if isinstance(u, docread.Media)]
    assert len(media) == 1 and media[0].mime_type == "image/png" and media[0].data == PNG
    assert media[0].metadata["page_number"] == 3 and media[0].metadata["image_index"] == 1
    assert not [u for u in reader.iter_units(paged_docx.name) if isinstance(u, docread.Media)]


def test_docx_footnotes_and_links_are_kept(reader: docread.Reader, tmp_path: Path) -> None:
    _pandoc(
        "# Notes\n\nA claim[^1] with [a link](https://example.org).\n\n[^1]: The footnote text.\n",
        tmp_path / "fn.docx",
    )
    text = reader.read("fn.docx").text
    assert "[^1]" in text and "The footnote text." in text
    assert "[a link](https://example.org)" in text


def test_odt_headings_page_break_style_and_meta(reader: docread.Reader, tmp_path: Path) -> None:
    from odf import dc, meta, text
    from odf.opendocument import OpenDocumentText
    from odf.style import ParagraphProperties, Style

    doc = OpenDocumentText()
    doc.meta.addElement(dc.Title(text="Field Notes"))
    doc.meta.addElement(meta.InitialCreator(text="Grace Hopper"))
    brk = Style(name="Break", family="paragraph")
    brk.addElement(ParagraphProperties(breakbefore="page"))
    doc.automaticstyles.addElement(brk)
    doc.text.addElement(text.H(outlinelevel=1, text="Day One"))
    doc.text.addElement(text.P(text="Saw a heron."))
    doc.text.addElement(text.P(stylename=brk, text="Second page starts here."))
    doc.save(str(tmp_path / "notes.odt"))
    result = reader.read("notes.odt")
    assert [d.metadata["page_number"] for d in result.documents] == [1, 2]
    assert "Second page starts here." in result.documents[1].text
    assert result.documents[0].metadata["title"] == "Field Notes"
    assert result.documents[0].metadata["author"] == "Grace Hopper"
    assert "# Day One" in result.documents[0].text


@pytest.fixture
def deck(tmp_path: Path) -> Path:
    """A PPTX with three slides: titles, bullets, a table, speaker notes on slides 1 and 3."""
    slides = [
        ("Vision", "Be fast", "Say hello first"),
        ("Plan", "Ship weekly", ""),
        ("Risks", "Scope", "Mind the gap"),
    ]
    table = [["Month", "Goal"], ["May", "Beta"]]
    return pptx(tmp_path / "deck.pptx", slides, tables={2: table}, title="Roadmap", author="Linus")


def test_pptx_one_unit_per_slide_with_notes(reader: docread.Reader, deck: Path) -> None:
    docs = list(reader.iter_documents(deck.name))
    assert [d.metadata["slide_number"] for d in docs] == [1, 2, 3]
    assert all(d.metadata["slide_count"] == 3 for d in docs)
    assert docs[0].metadata["slide_title"] == "Vision" and docs[0].metadata["author"] == "Linus"
    assert "- Be fast" in docs[0].text and "Notes: Say hello first" in docs[0].text
    assert "Notes:" not in docs[1].text and "| May | Beta |" in docs[1].text
    view = reader.read(deck.name, pages="2-3").render()
    assert "## Slide 2: Plan" in view and "## Slide 3: Risks" in view and "Vision" not in view
    assert "**Slides:** 2-3 of 3" in view and "Notes: Mind the gap" in view


def test_odp_slides_titles_and_notes(reader: docread.Reader, tmp_path: Path) -> None:
    from odf import draw, presentation, text
    from odf.opendocument import OpenDocumentPresentation
    from odf.style import MasterPage, PageLayout

    doc = OpenDocumentPresentation()
    layout = PageLayout(name="L")
    doc.automaticstyles.addElement(layout)
    master = MasterPage(name="M", pagelayoutname=layout)
    doc.masterstyles.addElement(master)
    for n, (title, body, note) in enumerate(
        [("Intro", "Welcome all", "Smile"), ("End", "Thanks", "")], 1
    ):
        page = draw.Page(name=f"p{n}", masterpagename=master)
        for cls, words in (("title", title), ("outline", body)):
            frame = draw.Frame(**{"class": cls}, width="10cm", height="2cm", x="1cm", y="1cm")
            box = draw.TextBox()
            box.addElement(text.P(text=words))
            frame.addElement(box)
            page.addElement(frame)
        if note:
            notes = presentation.Notes()
            frame = draw.Frame(**{"class": "notes"}, width="10cm", height="2cm", x="1cm", y="1cm")
            box = draw.TextBox()
            box.addElement(text.P(text=note))
            frame.addElement(box)
            notes.addElement(frame)
            page.addElement(notes)
        doc.presentation.addElement(page)
    doc.save(str(tmp_path / "talk.odp"))
    docs = list(reader.iter_documents("talk.odp"))
    assert [(d.metadata["slide_number"], d.metadata.get("slide_title")) for d in docs] == [
        (1, "Intro"),
        (2, "End"),
    ]
    assert "Welcome all" in docs[0].text and "Notes: Smile" in docs[0].text
    assert "Notes" not in docs[1].text


def test_epub_chapters_are_units(reader: docread.Reader, tmp_path: Path) -> None:
    md = "---\ntitle: Small Book\nauthor: Jane Austen\n---\n\n# First Chapter\n\nIt begins.\n\n# Second Chapter\n\nIt goes on.\n\n# Third Chapter\n\nIt ends.\n"
    _pandoc(md, tmp_path / "book.epub")
    docs = list(reader.iter_documents("book.epub"))
    titles = [d.metadata.get("chapter_title") for d in docs]
    assert titles[-3:] == ["First Chapter", "Second Chapter", "Third Chapter"]
    assert docs[-1].metadata["chapter"] == docs[-1].metadata["chapter_count"] == len(docs)
    assert (
        docs[-1].metadata["title"] == "Small Book" and docs[-1].metadata["author"] == "Jane Austen"
    )
    assert "<span id=" not in "".join(d.text for d in docs)
    assert "<div" not in "".join(d.text for d in docs) and "</div>" not in "".join(
        d.text for d in docs
    )
    last = reader.read("book.epub", pages=str(len(docs)))
    assert "It ends." in last.text and "It begins." not in last.text
    assert last.header["Chapters"].endswith(f"of {len(docs)} (EPUB chapters)")


def test_rtf_info_page_breaks_and_big_object_stay_bounded(
    reader: docread.Reader, tmp_path: Path
) -> None:
    blob = b"0123456789abcdef" * (5 * 1024 * 1024 // 16)  # a 5 MB embedded object
    rtf = (
        rb"{\rtf1\ansi\ansicpg1252{\info{\title Minutes Caf\'e9 \u8364?}{\author Bob Smith}}"
        rb"\pard First page text.\par\page\pard Second page text.\par"
        rb"{\object\objemb{\*\objdata " + blob + rb"}}\pard After the object.\par}"
    )
    (tmp_path / "min.rtf").write_bytes(rtf)
    started = time.monotonic()
    result = reader.read("min.rtf")
    assert time.monotonic() - started < 20
    assert [d.metadata["page_number"] for d in result.documents] == [1, 2]
    assert "Second page text." in result.documents[1].text and "After the object." in result.text
    assert "[embedded object]" in result.text and "0123456789abcdef" not in result.text
    assert result.documents[0].metadata["title"] == "Minutes Café €"
    assert result.documents[0].metadata["author"] == "Bob Smith"


# -- bad input ---------------------------------------------------------------------------------
def _rewrite(src: Path, dst: Path, changes: dict[str, bytes]) -> Path:
    with zipfile.ZipFile(src) as zin, zipfile.ZipFile(dst, "w", zipfile.ZIP_DEFLATED) as zout:
        for item in zin.infolist():
            zout.writestr(item.filename, changes.get(item.filename, zin.read(item.filename)))
    return dst


LAUGHS = (
    b'<?xml version="1.0"?><!DOCTYPE w:document [<!ENTITY a "ha"><!ENTITY b "&a;&a;&a;&a;&a;&a;">'
    b'<!ENTITY c "&b;&b;&b;&b;&b;&b;">]><w:document xmlns:w="http://schemas.openxmlformats.org/'
    b'wordprocessingml/2006/main"><w:body><w:p><w:r><w:t>&c;</w:t></w:r></w:p></w:body></w:document>'
)
XXE = (
    b'<?xml version="1.0"?><!DOCTYPE cp [<!ENTITY x SYSTEM "file:///etc/passwd">]>'
    b'<cp:coreProperties xmlns:cp="http://schemas.openxmlformats.org/package/2006/metadata/core-properties">'
    b"<dc:title xmlns:dc='http://purl.org/dc/elements/1.1/'>&x;</dc:title></cp:coreProperties>"
)


@pytest.mark.parametrize(
    ("part", "xml"),
    [("word/document.xml", LAUGHS), ("docProps/core.xml", XXE)],
    ids=["billion-laughs", "xxe"],
)
def test_docx_with_entity_declarations_is_refused(
    reader: docread.Reader, paged_docx: Path, tmp_path: Path, part: str, xml: bytes
) -> None:
    _rewrite(paged_docx, tmp_path / "evil.docx", {part: xml})
    with pytest.raises(ArchiveSecurityError, match="entities"):
        reader.read("evil.docx")


def _bomb(path: Path, size: int) -> Path:
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as z:
        z.writestr("[Content_Types].xml", "<Types/>")
        z.writestr("word/document.xml", b"<w:document/>")
        z.writestr("word/padding.bin", b"\0" * size)
    return path


def test_zip_bomb_renamed_docx_is_refused_before_pandoc(
    reader: docread.Reader, make_reader: MakeReader, tmp_path: Path
) -> None:
    _bomb(tmp_path / "bomb.docx", 40 * 1024 * 1024)
    with pytest.raises(ArchiveSecurityError, match="compression ratio"):
        reader.read("bomb.docx")
    small = make_reader(archive={"max_total_size": 1024 * 1024, "max_compression_ratio": 1e9})
    with pytest.raises(ArchiveSecurityError, match="max_total_size"):
        small.read("bomb.docx")


def test_truncated_docx_is_an_extraction_error(
    reader: docread.Reader, paged_docx: Path, tmp_path: Path
) -> None:
    data = paged_docx.read_bytes()
    (tmp_path / "cut.docx").write_bytes(data[: len(data) // 2])
    with pytest.raises(ExtractionError):
        reader.read("cut.docx")


def test_pptx_with_5000_slides_reads_a_window_fast(
    reader: docread.Reader, deck: Path, make_reader: MakeReader, tmp_path: Path
) -> None:
    big = tmp_path / "big.pptx"
    with zipfile.ZipFile(deck) as zin:
        slide = zin.read("ppt/slides/slide2.xml")
        pres = zin.read("ppt/presentation.xml")
        prels = zin.read("ppt/_rels/presentation.xml.rels")
        ids = "".join(f'<p:sldId id="{300 + i}" r:id="rS{i}"/>' for i in range(1, 5001)).encode()
        start, end = pres.index(b"<p:sldIdLst>") + 12, pres.index(b"</p:sldIdLst>")
        pres = pres[:start] + ids + pres[end:]
        links = "".join(
            f'<Relationship Id="rS{i}" Type="http://schemas.openxmlformats.org/officeDocument/2006/'
            f'relationships/slide" Target="slides/slide{i}.xml"/>'
            for i in range(1, 5001)
        ).encode()
        prels = prels.replace(b"</Relationships>", links + b"</Relationships>")
        with zipfile.ZipFile(big, "w", zipfile.ZIP_DEFLATED) as z:
            for item in zin.infolist():
                if not item.filename.startswith(("ppt/slides/", "ppt/notesSlides/")):
                    z.writestr(
                        item.filename,
                        {
                            "ppt/presentation.xml": pres,
                            "ppt/_rels/presentation.xml.rels": prels,
                        }.get(item.filename, zin.read(item.filename)),
                    )
            for i in range(1, 5001):  # no per-slide rels: 10,000 members would pass the member cap
                z.writestr(
                    f"ppt/slides/slide{i}.xml", slide.replace(b"Plan", f"Topic {i}".encode())
                )
    started = time.monotonic()
    window = reader.read("big.pptx", pages="4999-5000")
    assert time.monotonic() - started < 10
    assert [d.metadata["slide_title"] for d in window.documents] == ["Topic 4999", "Topic 5000"]
    assert window.header["Slides"] == "4999-5000 of 5000"
    r = make_reader(output={"max_chars": 2000})
    view = r.read("big.pptx")
    assert len(view.documents) < 50 and "to continue]" in view.render()
    few = make_reader(archive={"max_file_count": 1000})
    with pytest.raises(ArchiveSecurityError, match="max_file_count"):
        few.read("big.pptx", pages="1")


def test_encrypted_odt_and_encrypted_ooxml_are_typed(
    reader: docread.Reader, tmp_path: Path
) -> None:
    with zipfile.ZipFile(tmp_path / "locked.odt", "w") as z:
        z.writestr("mimetype", "application/vnd.oasis.opendocument.text")
        z.writestr(
            "META-INF/manifest.xml",
            "<manifest><file-entry><encryption-data/></file-entry></manifest>",
        )
        z.writestr("content.xml", "garbage")
    with pytest.raises(EncryptedDocumentError):
        reader.read("locked.odt")
    ole = (
        b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1"
        + b"\0" * 1000
        + "EncryptedPackage".encode("utf-16-le")
        + b"\0" * 600
    )
    (tmp_path / "locked.doc").write_bytes(ole)
    with pytest.raises(EncryptedDocumentError):
        reader.read("locked.doc")
    with pytest.raises(EncryptedDocumentError):
        reader.read("locked.doc", format_hint="docx")


def test_pandoc_temp_directory_is_removed(
    make_reader: MakeReader, paged_docx: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    scratch = tmp_path / "scratch"
    scratch.mkdir()
    monkeypatch.setattr(tempfile, "tempdir", str(scratch))
    r = make_reader(isolation={"enabled": False})  # in-process: observable
    units = r.iter_units(paged_docx.name, workers=1)  # streamed in this thread, no read-ahead
    next(units)
    assert [p.name.startswith("docread-office-") for p in scratch.iterdir()] == [True]
    list(units)
    assert list(scratch.iterdir()) == []


# -- legacy DOC ----------------------------------------------------------------------------------
DOC = CORPUS / "word" / "testWORD.doc"


@pytest.mark.skipif(not DOC.is_file(), reason="the .doc sample lives in the shared corpus")
def test_doc_reads_through_antiword_and_says_what_is_lost(
    make_reader: MakeReader, tmp_path: Path
) -> None:
    shutil.copy(DOC, tmp_path / "old.doc")
    r = make_reader()
    result = r.read("old.doc")
    assert "This is a sample Microsoft Word Document" in result.text
    assert any("limited support" in n for n in result.notes)


@pytest.mark.skipif(not DOC.is_file(), reason="the .doc sample lives in the shared corpus")
def test_doc_without_antiword_names_the_package(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    shutil.copy(DOC, tmp_path / "old.doc")
    monkeypatch.setenv("PATH", str(tmp_path))
    # workers of its own, started with this PATH (make_reader's shared ones started earlier)
    with (
        docread.Reader(tmp_path, config=NO_CACHE) as reader,
        pytest.raises(DependencyMissingError, match="antiword"),
    ):
        reader.read("old.doc")


# -- corpus conformance --------------------------------------------------------------------------


# -- pandoc's empty anchors stay out of the text, titles and chunks --------------------------------
def test_odt_heading_anchors_are_stripped(reader: docread.Reader, tmp_path: Path) -> None:
    import subprocess

    import pypandoc

    # pandoc writes every heading with a bookmark; read back, each showed as
    # '# <span id="anchor"></span>Summary'
    subprocess.run(
        [pypandoc.get_pandoc_path(), "-f", "markdown", "-o", str(tmp_path / "a.odt")],
        input=b"# Summary\n\nBody text.\n\n## Details {#det}\n\nMore.\n",
        check=True, capture_output=True, timeout=60,
    )  # fmt: skip
    result = reader.read("a.odt")
    assert "<span" not in result.text and "{#" not in result.text
    assert "# Summary" in result.text and "## Details" in result.text
    assert [d.metadata.get("section_title") for d in result.documents] == ["Summary", "Details"]


def test_strip_anchors_keeps_code_and_real_spans() -> None:
    from docread.extractors.office.convert.parts import strip_anchors

    text = (
        '# <span id="anchor"></span>Summary\n'
        "## Details {#details .unnumbered}\n"
        'See <span id="r1"></span>here and <span class="x">kept</span>.\n'
        "```\n"
        '<span id="literal"></span> {#x}\n'
        "```"
    )
    assert strip_anchors(text) == (
        "# Summary\n"
        "## Details\n"
        'See here and <span class="x">kept</span>.\n'
        "```\n"
        '<span id="literal"></span> {#x}\n'
        "```"
    )


def test_a_docx_that_is_not_a_zip_says_so_not_that_an_archive_is_truncated(
    reader: docread.Reader, tmp_path: Path
) -> None:
    """A file named .docx whose bytes start like a zip but have no zip directory (a download cut
    short, or a zip's first bytes and nothing after) was read as a zip archive: "the archive
    is truncated or corrupt". It is the document its name says, and not a readable one."""
    whole = docx(tmp_path / "whole.docx", ["A paragraph."]).read_bytes()
    (tmp_path / "cut.docx").write_bytes(whole[: len(whole) // 2])
    (tmp_path / "pk.docx").write_bytes(b"PK\x03\x04" + bytes(200))
    for name in ("cut.docx", "pk.docx"):
        with pytest.raises(ExtractionError) as raised:
            reader.read(name)
        assert str(raised.value).startswith(
            f"{name}: not a DOCX: the file is not a zip package (it starts like one but is cut "
            "short or corrupt: "
        ), str(raised.value)
        assert "archive" not in str(raised.value)
