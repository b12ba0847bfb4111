"""PDF structure (``pdf.structure``): page text as markdown with headings and their levels, tables
as pipe tables in place, lists, columns in reading order, running headers/footers out, hyphens
joined, the ``headings`` metadata (the same in a page read alone), ``off`` as before, the layout
model mode, and named corpus files (tests/structure_fixtures.py makes the PDFs whose truth is
known; bench/structure.py measures the same set)."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import docread
import pymupdf
import pytest
from conftest import CORPUS, normalize
from docread.errors import SettingsError
from docread.sanitize import clean_metadata
from docread.settings import OutputSettings, Settings
from factories import drawn, encode, image_bytes, pdf, rendered_text, scan_page, text_page
from structure_fixtures import MAKERS, Truth

HEADING = re.compile(r"^(#{1,4}) (.+)$", re.MULTILINE)


@pytest.fixture(scope="module")
def structure_set() -> dict[str, tuple[bytes, Truth]]:
    """The structure set, made once for the module."""
    return {name: make() for name, make in MAKERS.items()}


@pytest.fixture
def made(structure_set, tmp_path: Path) -> dict[str, tuple[Path, Truth]]:
    """The structure set in this test's workspace."""
    out = {}
    for name, (data, truth) in structure_set.items():
        (tmp_path / f"{name}.pdf").write_bytes(data)
        out[name] = (tmp_path / f"{name}.pdf", truth)
    return out


def pages_of(reader: docread.Reader, path: Path, **options: object) -> list[docread.Document]:
    return [
        d for d in reader.iter_documents(str(path), **options) if "table_index" not in d.metadata
    ]


def flat(text: str) -> str:
    return " ".join(text.split())


def test_headings_come_with_their_levels(reader, made):
    path, truth = made["report"]
    text = "\n\n".join(d.text for d in pages_of(reader, path))
    found = [(len(m.group(1)), m.group(2)) for m in HEADING.finditer(text)]
    assert found == truth.headings  # every heading, in order, h1-h4 as # .. ####


def test_tables_are_pipe_tables_in_place(reader, made):
    path, truth = made["tables"]
    text = "\n\n".join(d.text for d in pages_of(reader, path))
    rows = [ln for ln in text.splitlines() if ln.startswith("|")]
    cells = {c.strip() for row in rows for c in row.strip("|").split("|")}
    assert set(truth.cells) <= cells  # ruled, merged-cell, unruled and small tables
    # each table sits between its heading and the paragraph after it, not after the page text
    for heading, first_cell in (
        ("## Ruled table", "falcon-A00"),
        ("## Merged cells", "dynamo-B00"),
    ):
        before = text.index(heading)
        at = text.index(f"| {first_cell} |")
        after = text.index(truth.paragraphs[list(truth.headings).index((2, heading[3:]))])
        assert before < at < after
    # merged cells: the cell that spans two columns is one cell of its row
    assert "| dynamo-B00 |  |" in text


def test_lists_are_markdown_items(reader, made):
    path, truth = made["report"]
    text = "\n".join(d.text for d in pages_of(reader, path))
    for item in truth.lists:
        assert f"- {item}" in text.splitlines()


@pytest.mark.parametrize("name", ["two_column", "three_column"])
def test_columns_read_in_order_and_paragraphs_whole(reader, made, name):
    path, truth = made[name]
    text = flat("\n".join(d.text for d in pages_of(reader, path)))
    places = [text.find(flat(p)) for p in truth.paragraphs]
    assert all(at >= 0 for at in places), "a paragraph is broken"
    assert places == sorted(places)  # column by column, page by page
    raw = flat("\n".join(p.get_text() for p in pymupdf.open(path)))
    assert sum(flat(p) in raw for p in truth.paragraphs) < len(truth.paragraphs)  # not trivial


def test_running_headers_are_out_of_the_flow_but_kept_once(reader, made):
    """A running header is printed on every page: it is taken out of each page's text but
    kept once, as a block of the first page that prints it (a search for it still finds the
    document); page numbers go."""
    path, truth = made["report"]
    docs = pages_of(reader, path)
    header = "Northwind Cooperative - Annual Report 2024"
    assert len(docs) == 4
    assert [d.text.count(header) for d in docs] == [1, 0, 0, 0]
    assert docs[0].text.startswith("# Annual Report of the Northwind Cooperative")
    assert docs[0].text.endswith(f"\n\n{header}")  # a block of its own, after the page's text
    for doc in docs:
        assert not re.search(r"Page \d of \d", doc.text)
    alone = pages_of(reader, path, pages="2")[0]  # a page read alone: not its header
    assert header not in alone.text and alone.text == docs[1].text
    raw = pymupdf.open(path)[1].get_text()
    assert "Annual Report 2024" in raw and "Page 2 of 4" in raw  # they are on the pages


def test_a_running_header_is_found_in_the_document_that_prints_it(reader, tmp_path):
    body = "Ordinary body text of a page that goes on for a while. " * 12
    pages = []
    for n in range(3):

        def page(p: pymupdf.Page, n: int = n) -> None:
            p.insert_text((72, 40), "This is the header text.", fontsize=9)
            p.insert_textbox(pymupdf.Rect(72, 90, 520, 400), f"Page {n + 1} says: {body}")
            p.insert_text((290, 800), str(n + 1), fontsize=9)

        pages.append(drawn(page))
    pdf(tmp_path / "headed.pdf", pages)
    texts = [d.text for d in pages_of(reader, tmp_path / "headed.pdf")]
    assert [t.count("This is the header text.") for t in texts] == [1, 0, 0]
    assert texts[0].startswith("Page 1 says:")  # out of the flow: after the page's text
    chunks = reader.read("headed.pdf", output_format="markdown").text
    assert chunks.count("This is the header text.") == 1


def test_a_title_set_on_two_lines_is_one_heading(reader, tmp_path):
    def page(p: pymupdf.Page) -> None:
        # centred, a third of a line apart: MuPDF makes them two blocks
        p.insert_text((170, 72), "Introduction to the", fontsize=20, fontname="hebo")
        p.insert_text((140, 110), "Geometry of Spaces", fontsize=20, fontname="hebo")
        p.insert_textbox(pymupdf.Rect(72, 140, 520, 400), "Plain body text follows. " * 30)

    pdf(tmp_path / "title.pdf", [drawn(page)])
    doc = reader.read("title.pdf").documents[0]
    assert doc.text.startswith("# Introduction to the Geometry of Spaces\n\nPlain body")


def test_a_page_holding_only_its_number_keeps_it(reader, tmp_path):
    body = "Some words of body text on this page. " * 20
    pages = [text_page(body), text_page("2", at=(300, 800)), text_page(body)]
    pdf(tmp_path / "blank.pdf", pages)
    assert [d.text for d in reader.read("blank.pdf").documents][1] == "2"


def test_words_hyphenated_at_line_ends_are_joined(reader, made):
    path, truth = made["report"]
    text = pages_of(reader, path)[0].text
    assert "Harvest structure council" in text and "struc-" not in text
    assert "struc-" in pymupdf.open(path)[0].get_text()


def test_figures_are_a_placeholder_with_their_caption(reader, tmp_path):
    def page(p: pymupdf.Page) -> None:
        p.insert_textbox(pymupdf.Rect(72, 72, 520, 140), "Revenue rose in every region. " * 4)
        p.insert_image(pymupdf.Rect(72, 150, 372, 350), stream=image_bytes())
        p.insert_text((72, 370), "Figure 1: Revenue by region, 2024")
        p.insert_textbox(pymupdf.Rect(72, 390, 520, 460), "The north led the growth. " * 4)

    pdf(tmp_path / "fig.pdf", [drawn(page)])
    text = reader.read("fig.pdf").documents[0].text
    assert "\n\n[Figure: Figure 1: Revenue by region, 2024]\n\n" in text
    assert text.index("Revenue rose") < text.index("[Figure:") < text.index("The north led")


def test_a_scan_with_a_short_caption_is_still_ocrd(make_reader, tmp_path):
    # 44 characters of text layer (under pdf.ocr_text_threshold=50); its [Figure: ...]
    # placeholder would be over it: the threshold counts the layer, not the markdown
    caption = "Figure 7: Shipping lanes along the north coast, 2023"
    scan = rendered_text(
        "Harbour traffic doubled in spring", page=(400, 200), box=pymupdf.Rect(20, 20, 380, 180)
    )

    def page(p: pymupdf.Page) -> None:
        p.insert_image(pymupdf.Rect(40, 10, 440, 210), stream=encode(scan))
        p.insert_text((40, 285), caption, fontsize=11)

    pdf(tmp_path / "slide.pdf", [drawn(page, width=480, height=300)])
    doc = make_reader(pdf={"ocr_dpi": 150}).read("slide.pdf").documents[0]
    assert doc.metadata["ocr"] is True and "Harbour traffic doubled" in doc.text
    assert doc.text.startswith(f"[Figure: {caption}]")


def test_heading_path_metadata_across_pages_and_alone(reader, made):
    path, truth = made["report"]
    docs = pages_of(reader, path)
    paths = [d.metadata.get("headings") for d in docs]
    title = "Annual Report of the Northwind Cooperative"
    assert paths[0] is None  # no heading before page 1: no key, never an empty list
    assert paths[1] == [title, "1 Introduction", "1.1 Scope of the review"]
    assert paths[2] == [
        title,
        "2 Results",
        "2.1 Revenue by region",
        "2.1.1 Notes on the northern branch",
    ]
    assert paths[3] == [title, "3 Outlook"]
    # a page read alone (a split read) has the path and the text the whole read gave it
    alone = pages_of(reader, path, pages="3")[0]
    assert alone.metadata["headings"] == paths[2] and alone.text == docs[2].text


def test_heading_path_comes_from_the_outline_when_there_is_one(reader, tmp_path):
    doc = pymupdf.open()
    for n in range(3):
        doc.new_page().insert_text((72, 72), f"Body text of page {n + 1} " * 3, fontsize=11)
    doc.set_toc([[1, "Part One", 1], [2, "Chapter A", 2], [1, "Part Two", 3]])
    doc.save(tmp_path / "toc.pdf")
    paths = [d.metadata.get("headings") for d in pages_of(reader, tmp_path / "toc.pdf")]
    assert paths == [None, ["Part One"], ["Part One", "Chapter A"]]


def _toc_pdf(path: Path, toc: list[list[object]], pages: int = 4) -> Path:
    doc = pymupdf.open()
    titles = {int(str(page)): str(title) for _, title, page in toc}
    for n in range(1, pages + 1):
        page = doc.new_page()
        if n in titles:
            page.insert_text((72, 72), titles[n], fontsize=18)
        page.insert_text((72, 120), f"Body text of page {n} " * 3, fontsize=11)
    doc.set_toc(toc)
    doc.save(path)
    return path


def test_a_loader_read_with_structure_walks_the_outline_once(tmp_path, monkeypatch):
    """The survey's reading of the outline serves the pages' section stamps too: one walk of it
    per read (the 619-page corpus manual's 1,372 entries took two)."""
    from docread.extractors.pdf import bookmarks, survey

    _toc_pdf(tmp_path / "toc.pdf", [[1, "Part One", 1], [2, "Chapter A", 2], [1, "Part Two", 4]])
    walks: list[int] = []
    walk = survey.outline

    def counted(doc: pymupdf.Document) -> list[tuple[int, str, int, float]]:
        walks.append(doc.page_count)
        return walk(doc)

    monkeypatch.setattr(survey, "outline", counted)
    monkeypatch.setattr(bookmarks, "outline", counted)
    config = {"cache": {"enabled": False}, "isolation": {"enabled": False}}
    reader = docread.Reader(tmp_path, config={**config, "pdf": {"structure": "auto"}})
    pages = [d.metadata for d in reader.iter_documents("toc.pdf")]
    assert [m["page_section"] for m in pages] == ["s0", "s1", "s2", "s2"]
    assert [m["section_id"] for m in pages] == ["s1", "s2", "s2", "s3"]
    assert walks == [4]


def test_an_outline_entry_to_no_page_or_no_point_says_so(tmp_path: Path) -> None:
    """survey.outline: a named destination MuPDF resolves to nothing is page -1 (it was page 0:
    before the first page), a /Fit destination shows no point (-1, it was NaN)."""
    import hostile_files
    from docread.extractors.pdf.survey import outline

    text = hostile_files._text_stream([(18, "Heading"), (11, "Body.")])
    made = hostile_files._write_pdf(
        tmp_path / "dests.pdf",
        [
            *hostile_files._one_page(text, outline=True),
            b"<< /Type /Outlines /First 7 0 R /Last 8 0 R /Count 2 >>",
            b"<< /Title (Nowhere) /Parent 6 0 R /Next 8 0 R /Dest (missing) >>",
            b"<< /Title (Whole page) /Parent 6 0 R /Prev 7 0 R /Dest [3 0 R /Fit] >>",
        ],
    )
    with pymupdf.open(made) as doc:
        assert outline(doc) == [(1, "Nowhere", -1, -1.0), (1, "Whole page", 1, -1.0)]


def test_a_usable_outline_is_the_sections_and_its_pages_carry_them(make_reader, tmp_path):
    """issue 36: a PDF's outline, when it can stand for its sections, is the outline view (no
    page read) and stamps each loaded page with its sections (structure on or off)."""
    toc = [[1, "Part One", 1], [2, "Chapter A", 2], [2, "Chapter B", 3], [1, "Part Two", 4]]
    _toc_pdf(tmp_path / "toc.pdf", toc)
    for structure in ("auto", "off"):
        reader = make_reader(pdf={"structure": structure})
        outline = reader.read("toc.pdf", view="outline").render()
        assert "**Sections:** 4 (from the PDF's bookmarks)" in outline
        assert "  s3  Chapter B  (page 3, ~" in outline and "s4  Part Two  (page 4, ~" in outline
        pages = [d.metadata for d in reader.iter_documents("toc.pdf")]
        assert [m["page_section"] for m in pages] == ["s0", "s1", "s2", "s3"]
        assert [m.get("bookmarks") for m in pages] == [
            "s1 1 Part One", "s2 2 Chapter A", "s3 2 Chapter B", "s4 1 Part Two",
        ]  # fmt: skip
        assert [m["section_id"] for m in pages] == ["s1", "s2", "s3", "s4"]
        section = reader.read("toc.pdf", section="chapter b").documents[0]
        assert "Body text of page 3" in section.text and "page 4" not in section.text
    assert "page_section" not in reader.read("toc.pdf").documents[0].metadata  # the agent view


@pytest.mark.parametrize(
    "toc",
    [
        pytest.param([[1, "Only", 1]], id="one-entry"),
        pytest.param([[1, "Late", 3], [1, "Early", 1]], id="out-of-page-order"),
        pytest.param([[1, "A", 1], [1, "B", 1], [1, "C", 1]], id="all-on-one-page"),
    ],
)
def test_an_outline_that_cannot_stand_for_the_sections_is_left_to_the_headings(
    reader, tmp_path, toc
):
    _toc_pdf(tmp_path / "odd.pdf", toc)
    outline = reader.read("odd.pdf", view="outline").render()
    assert "from the PDF's bookmarks" not in outline
    assert all("page_section" not in d.metadata for d in reader.iter_documents("odd.pdf"))


def test_structure_off_is_the_plain_text(make_reader, made):
    path, _ = made["report"]
    plain = pages_of(make_reader(pdf={"structure": "off"}), path)
    with pymupdf.open(path) as doc:
        assert [d.text for d in plain] == [p.get_text().strip() for p in doc]
    assert all("headings" not in d.metadata for d in plain)


def test_markdown_view_shows_the_structure(reader, made):
    path, _ = made["report"]
    shown = reader.read(str(path), pages="2", output_format="markdown")
    view = shown.render("markdown")
    assert "### 2.1 Revenue by region" in view and "| saddle-R00 |" in view
    assert view.count("| saddle-R00 |") == 1  # tables are not printed again after the text
    text_view = shown.render("text")
    assert "\n| saddle-R00 | 7,103 | 9,699 | 3,190 |\n" in text_view


def test_the_text_view_keeps_the_page_lines_and_its_tables(reader, made):
    """The agent's text view stays line-oriented (a paragraph keeps the page's line breaks)
    with the same headings, tables and order; the markdown view and loaders join the lines."""
    path, truth = made["report"]
    text_view = reader.read(str(path)).render("text")
    markdown_view = reader.read(str(path), output_format="markdown").render("markdown")
    loaded = "\n".join(d.text for d in pages_of(reader, path))
    whole = [p for p in truth.paragraphs if p in loaded]  # (not the ones a page break cuts)
    assert len(whole) >= len(truth.paragraphs) // 2
    assert all(p in markdown_view for p in whole)
    assert sum(p in text_view for p in whole) <= len(whole) // 2  # most wrap on the page
    for para in truth.paragraphs:
        # the same words in order, line by line (a word hyphenated at a line end as printed)
        assert flat(para) in re.sub(r"([a-z])- ([a-z])", r"\1\2", flat(text_view))
    for level, title in truth.headings:
        assert f"{'#' * level} {title}" in text_view
    assert "| saddle-R00 | 7,103 | 9,699 | 3,190 |" in text_view


def test_ocr_paragraph_lines_are_joined(make_reader, tmp_path):
    pdf(
        tmp_path / "scan.pdf",
        [scan_page("The quick brown fox jumps\nover the lazy dog today", fontsize=20)],
    )
    reader = make_reader(pdf={"ocr_dpi": 150})
    text = next(reader.iter_documents("scan.pdf")).text  # a loader: paragraphs joined
    assert "jumps over the lazy" in text
    assert "jumps\nover" in reader.read("scan.pdf").documents[0].text  # the text view: lines
    off = make_reader(pdf={"ocr_dpi": 150, "structure": "off"}).read("scan.pdf").documents[0].text
    assert "jumps\nover" in off


def test_layout_mode_uses_the_layout_model(make_reader, made):
    path, truth = made["two_column"]
    reader = make_reader(pdf={"structure": "layout"})
    doc = pages_of(reader, path, pages="1")[0]
    assert re.search(r"^#+ .*Field Notes in 2 Columns", doc.text, re.MULTILINE)
    assert flat(truth.paragraphs[1]) in flat(doc.text.replace("**", ""))


def test_structure_setting_is_checked():
    assert Settings.from_mapping({"pdf": {"structure": "layout"}}).pdf.structure == "layout"
    with pytest.raises(SettingsError, match=r"pdf\.structure must be auto \| layout \| off"):
        Settings.from_mapping({"pdf": {"structure": "fancy"}})


def test_headings_metadata_stays_a_short_list_of_strings():
    out = OutputSettings(max_metadata_value_len=10)
    meta = clean_metadata({"headings": ["A\x1b[31m title", "x" * 30], "other": ["a", "b"]}, out)
    assert meta["headings"] == ["A title", "x" * 10 + "..."]
    assert meta["other"] == "a, b"  # any other list is still flattened


def test_pymupdf_is_imported_without_its_layout_model():
    code = (
        "import sys; from docread.extractors.pdf.library import load_pymupdf; load_pymupdf(); "
        "print('onnxruntime' in sys.modules, 'pymupdf4llm' in sys.modules)"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.split() == ["False", "False"]


def test_a_user_who_imported_pymupdf_first_does_not_get_its_layout_model(tmp_path):
    """``import pymupdf`` before docread loads pymupdf.layout, and find_tables then ran its
    ONNX model on every page it looked at (a 47-page deck: 12.2 s instead of 1.5 s, other
    tables). auto and off never call it, whoever imported PyMuPDF first."""
    data, _ = MAKERS["tables"]()
    (tmp_path / "tables.pdf").write_bytes(data)
    code = (
        "import pymupdf, sys, docread\n"
        "calls = []\n"
        "model = pymupdf._get_layout\n"
        "pymupdf._get_layout = lambda *a, **k: calls.append(1) or model(*a, **k)\n"
        "cfg = {'cache': {'enabled': False}, 'isolation': {'enabled': False}}\n"
        "r = docread.Reader(sys.argv[1], config=cfg)\n"
        "text = r.read('tables.pdf', output_format='markdown').text\n"
        "off = docread.Reader(sys.argv[1], config={**cfg, 'pdf': {'structure': 'off'}})\n"
        "off.read('tables.pdf', extract_tables=True)\n"
        "print(model is not None, len(calls), '| falcon-A00 |' in text)\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", code, str(tmp_path)], capture_output=True, text=True, check=True
    )
    assert out.stdout.split() == ["True", "0", "True"]


# -- named corpus files ---------------------------------------------------------------------------
def corpus_text(name: str, pages: str | None = None) -> str:
    """The page texts of a corpus PDF (skips when the corpus is absent)."""
    if not (CORPUS / "pdf" / name).is_file():
        pytest.skip(f"corpus not present at {CORPUS}")
    with docread.Reader(CORPUS, config={"cache": {"enabled": False}}, shared_pool=True) as reader:
        return "\n\n".join(d.text for d in pages_of(reader, Path("pdf") / name, pages=pages))


def test_corpus_two_column_paper_page_reads_its_columns_in_order():
    """A two-column paper's page (its second: pages 1 and 3 are the real-PDF bench's held-out
    half, never read by a test): the paragraph running from the left column's foot to the right
    column's head is one block, a word hyphenated at a line's end is joined, the page number
    is left out of the flow."""
    text = corpus_text("multicolumn.pdf", pages="2")
    blocks = text.split("\n\n")
    assert any(
        "primis in faucibus orci luctus et ultrices posuere cubilia Curae; Pellentesque" in b
        for b in blocks
    )
    assert "fermentum faucibus, egestas vel, odio." in normalize(text)  # "fer-" + "mentum"
    assert not text.rstrip().endswith("2")


def test_corpus_borderless_table():
    text = corpus_text("SPARSE-2024-INV-1234_borderless_table.pdf")
    assert text.startswith("# INVENTORY RECONCILIATION REPORT\n")  # no "Title: (anonymous)"
    assert "| SKU-8847 | A-12 | 450 |" in text and "| SKU-4563 | D-22 |" in text


def test_corpus_plots_and_diagrams_drawn_with_rules_are_not_tables():
    """Axes, ticks, frames and grids of a figure once passed the "ruled" test: find_tables ran
    on them (69 % of a paper's time) and made tables of their labels. Only cells of rules
    around text count now; the labels stay text."""
    if not (CORPUS / "pdf" / "GeoTopo-komprimiert.pdf").is_file():
        pytest.skip(f"corpus not present at {CORPUS}")
    config = {"cache": {"enabled": False}}
    with docread.Reader(CORPUS / "pdf", config=config, shared_pool=True) as reader:
        text = reader.read(
            "GeoTopo-komprimiert.pdf", pages="8,9,31,57,75,78,83,86", output_format="markdown"
        ).text
    assert not [ln for ln in text.splitlines() if ln.startswith("|")]
    assert "Abbildung 1.2: Zariski-Topologie" in text and "Abbildung 2.2: Rechts" in text


def test_corpus_ruled_tables_without_outer_walls_are_found():
    text = corpus_text("korean-text-with-tables.pdf")
    assert "| 할인점 | 이마트, 이마트 트레이더스, 롯데마트, 홈플러스 |" in text
    assert "| 커피전문점 |" in text
