"""Reading by the outline on real files of the shared corpus: ``view="outline"`` lists each
document's sections with their places and sizes, ``section=`` returns exactly one section (its
subsections, never its next sibling), a long one is cut and goes on inside it, a name several
sections share lists them, and a loaded chunk's ``section_id`` reads back the section it came
from."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import docread
import pytest
from conftest import CORPUS, NO_CACHE, merged
from docread.rag.chunking import chunk_units

pytestmark = pytest.mark.skipif(not CORPUS.is_dir(), reason=f"corpus not present at {CORPUS}")
MANUAL = "pdf/DA-619p.pdf"  # 619 pages, 1,372 bookmarks


@pytest.fixture
def corpus() -> Iterator[Callable[..., docread.Reader]]:
    """``corpus(**settings)``: a Reader over the corpus folder, cache off (real extraction),
    closed at teardown."""
    made: list[docread.Reader] = []

    def make(**settings: Any) -> docread.Reader:
        made.append(docread.Reader(CORPUS, config=merged(NO_CACHE, settings), shared_pool=True))
        return made[-1]

    yield make
    for reader in made:
        reader.close()


def _outline(reader: docread.Reader, path: str, **options: object) -> str:
    return reader.read(path, view="outline", **options).render()


def _lines(rendered: str) -> list[str]:
    """The outline's lines (``s12  Title  (place, ~N tokens)``), indentation kept."""
    return [line for line in rendered.split("\n") if re.match(r"^ *s\d+  ", line)]


@pytest.mark.parametrize(
    ("path", "expected"),
    [
        pytest.param(MANUAL, [
            "s1  Codex DAO  (pages 1-177, ~",
            "  s2  MAIN GAME  (pages 6-142, ~",
            "    s3  CREATURES  (pages 6-19, ~",
            "      s4  Abomination  (page 6, ~",
            "      s5  Arcane Horror  (pages 6-7, ~",
        ], id="pdf-bookmarks"),
        pytest.param("pdf/multi-column-2p.pdf", [  # not multi_page.pdf: real_pdf's held-out pages
            "s1  Dense Passage Retrieval for Open-Domain Question Answering  (pages 1-2, ~",
            "  s2  Abstract  (page 1, ~",
            "  s3  1 Introduction  (pages 1-2, ~",
            "  s5  3 Dense Passage Retriever (DPR)  (page 2, ~",
            "    s6  3.1 Overview  (page 2, ~",
        ], id="pdf-headings"),
        pytest.param("word/test.docx", [
            # the Title paragraph is the document's first heading, as Word shows it
            "s1  AutoGen: Enabling Next-Gen LLM Applications via Multi-Agent Conversation  (part 1, ~",
            "s2  Abstract  (part 2, ~",
            "s3  Introduction  (parts 3-4, ~",
            "  s4  d666f1f7-46cb-42bd-9a39-9a39cf2a509f  (part 4, ~",
        ], id="docx"),
        pytest.param("text/test_blog.html", [
            "s1  Does Model and Inference Parameter Matter in LLM Applications? - A Case Study "
            "for MATH  (lines 5-94, ~",
            "  s2  Experiment Setup  (lines 31-47, ~",
            "  s5  For Further Reading  (lines 78-94, ~",
        ], id="html"),
        pytest.param("text/wiki.md", [
            "s1  IBM  (lines 1-23, ~",
            "  s2  1910s–1950s  (lines 15-20, ~",
            "  s3  1960s–1980s  (lines 21-23, ~",
        ], id="markdown"),
        pytest.param("text/README.rst", [
            "s1  Example Docs  (lines 1-28, ~", "  s2  XBRL 10-K  (lines 15-28, ~",
        ], id="rst"),
        pytest.param("slides/test.pptx", [
            "s1  Slide 1: AutoGen: Enabling Next-Gen LLM Applications via Multi-Agent "
            "Conversation  (slide 1, ~",
            "s3  Slide 3: A table to test parsing:  (slide 3, ~",
        ], id="pptx"),
        pytest.param("tables/test.xlsx", [
            "s1  Sheet1  (sheet 'Sheet1', rows 1-23, ~",
            "s2  09060124-b5e7-4717-9d07-3c046eb  (sheet '09060124-b5e7-4717-9d07-3c046eb', "
            "rows 1-4, ~",
        ], id="xlsx"),
        pytest.param("ebooks/test.epub", [
            "s2  Chapter 1: Test Content  (chapter 2, ~",
        ], id="epub"),
        pytest.param("notebooks/simple.ipynb", [
            "s1  Lorem ipsum  (cells 1-5, ~", "  s2  Pyout  (cells 3-4, ~", "  s3  Image  (cell 5, ~",
        ], id="notebook"),
        pytest.param("email/testEML_embedded_xhtml_and_img.eml", [
            "s1  This is the subject  (the whole file, ~",
            "  s2  testimage.jpeg  (testimage.jpeg, ~",
        ], id="email"),
    ],
)  # fmt: skip
def test_the_outline_lists_the_headings_with_their_places(
    corpus: Callable[..., docread.Reader], path: str, expected: list[str]
) -> None:
    lines = _lines(_outline(corpus(), path))
    for want in expected:
        assert any(line.startswith(want) for line in lines), (want, lines[:12])
    assert all(re.search(r", ~[\d,]+ tokens\)$", line) for line in lines)


def test_a_format_without_structure_says_so_and_names_its_window(
    corpus: Callable[..., docread.Reader],
) -> None:
    text = _outline(corpus(), "tables/stanley-cups.csv")
    assert "stanley-cups.csv is a single table: it has no sections; read rows with rows=" in text
    text = _outline(corpus(), "text/norwich-city.txt")
    assert "is plain text: it has no sections; read it by lines with offset= and limit=" in text
    with pytest.raises(docread.InvalidOptionError, match="plain text: it has no sections"):
        corpus().read("text/norwich-city.txt", section="s1")


def test_the_bookmark_outline_reads_no_page(
    corpus: Callable[..., docread.Reader], monkeypatch: pytest.MonkeyPatch
) -> None:
    """A PDF whose outline stands for its sections is listed from the outline alone: the page
    structure pass (PageMarkdowns) is never started."""
    from docread.extractors.pdf import pages

    def no_pages(*args: object, **kwargs: object) -> None:
        raise AssertionError("a page was read")

    monkeypatch.setattr(pages.PageMarkdowns, "__init__", no_pages)
    reader = corpus(isolation={"enabled": False})
    text = _outline(reader, MANUAL)
    assert "**Sections:** 1,372 (from the PDF's bookmarks)" in text
    assert len(_lines(text)) == 1372
    assert "s1372  Storms of Temptation  (page 619, ~" in text


def test_a_huge_outline_shows_its_upper_levels_and_how_to_list_the_rest(
    corpus: Callable[..., docread.Reader],
) -> None:
    reader = corpus(output={"max_tokens": 3000})
    text = _outline(reader, MANUAL)
    lines = _lines(text)
    assert lines and all(not line.startswith("      ") for line in lines)  # depth 4 left out
    assert "deeper sections are not listed: view='outline' section='<id>' lists one" in text
    subtree = _lines(_outline(reader, MANUAL, section="s3"))
    assert subtree[0].startswith("s3  CREATURES") and subtree[1].startswith("  s4  Abomination")
    assert all("ITEMS" not in line for line in subtree)  # the next sibling is not in it


@pytest.mark.parametrize(
    ("path", "name", "starts", "holds", "not_holds"),
    [
        pytest.param(MANUAL, "s4", "#### Abomination", "walk the Fade", "#### Arcane Horror",
                     id="pdf-bookmarks"),
        pytest.param(MANUAL, "s3", "### CREATURES", "#### Mabari Dominance", "### ITEMS",
                     id="pdf-bookmarks-subsections"),
        pytest.param("pdf/multi-column-2p.pdf", "2 Background", "## 2 Background",
                     "top-k retrieval accuracy", "3 Dense Passage Retriever", id="pdf-headings"),
        pytest.param("word/test.docx", "Introduction", "# Introduction",
                     "## d666f1f7-46cb-42bd-9a39-9a39cf2a509f", "# Abstract", id="docx"),
        pytest.param("text/wiki.md", "s2", "## 1910s–1950s", "1911", "## 1960s", id="markdown"),
        pytest.param("text/test_blog.html", "Experiment Setup", "## Experiment Setup",
                     "We use AutoGen to select between", "## Experiment Results", id="html"),
        pytest.param("slides/test.pptx", "s3", "## Slide 3: A table to test parsing:",
                     "| ColA |", "## Slide 4", id="pptx"),
        pytest.param("tables/test.xlsx", "Sheet1", "## Sheet: Sheet1", "| Alpha |",
                     "## Sheet: 0906", id="xlsx"),
    ],
)  # fmt: skip
def test_section_returns_exactly_that_section(
    corpus: Callable[..., docread.Reader],
    path: str,
    name: str,
    starts: str,
    holds: str,
    not_holds: str,
) -> None:
    result = corpus().read(path, section=name)
    [doc] = result.documents
    assert doc.text.lstrip().startswith(starts), doc.text[:200]
    assert holds in doc.text and not_holds not in doc.text
    assert doc.metadata["section_id"] == result.header["Section"].split()[0]
    assert "truncated" not in result.render().lower()


def test_a_long_section_is_cut_and_goes_on_inside_it(
    corpus: Callable[..., docread.Reader], tmp_path: Path
) -> None:
    """Each window of a long section says where the next begins, and that offset reads on
    inside it. The windows' reads after the first come from a cache of their own (the file is
    read once there), checked against ``whole``, a read of the section without one."""
    whole = corpus().read(MANUAL, section="s3").documents[0].text.split("\n")
    reader = corpus(
        output={"max_tokens": 2000}, cache={"enabled": True, "directory": str(tmp_path)}
    )
    shown: list[str] = []
    offset = None
    for _ in range(40):
        result = reader.read(MANUAL, section="s3", offset=offset)
        text = result.render()
        shown += result.documents[0].text.split("\n") if offset is None else []
        hint = re.search(r"use section='s3' offset=(\d+) to continue", text)
        assert "pages=" not in text.split("---", 1)[1].split("\n\n[")[-1]  # never the next page
        if hint is None:
            break
        offset = int(hint.group(1))
        part = reader.read(MANUAL, section="s3", offset=offset, limit=3).documents[0].text
        assert part.split("\n") == whole[offset - 1 : offset + 2]
    else:
        pytest.fail("the section never ended")
    assert offset is not None and offset > 1  # it was cut at least once


def test_an_ambiguous_name_lists_the_candidates_with_their_ids(
    corpus: Callable[..., docread.Reader],
) -> None:
    with pytest.raises(docread.InvalidOptionError) as exc:
        corpus().read(MANUAL, section="Ogre")
    message = str(exc.value)
    assert "section='Ogre': 2 sections of pdf/DA-619p.pdf match" in message
    assert "s22 'Ogre' (page 13)" in message and "s1295 'Ogre' (page 579)" in message
    answer = corpus().read(MANUAL, section="s1295")  # the id picks one
    assert answer.documents[0].text.startswith("### Ogre\n")


@pytest.mark.parametrize(
    ("path", "options"),
    [
        pytest.param("pdf/GeoTopo-komprimiert.pdf", {"pages": "28-40"}, id="pdf-bookmarks"),
        pytest.param("pdf/multi-column-2p.pdf", {}, id="pdf-headings"),
        pytest.param("word/test.docx", {}, id="docx"),
        pytest.param("text/test_blog.html", {}, id="html"),
        pytest.param("tables/test.xlsx", {}, id="xlsx"),
        pytest.param("email/simple.mbox", {}, id="mbox"),
    ],
)
def test_a_chunk_s_section_id_reads_back_its_section(
    corpus: Callable[..., docread.Reader], path: str, options: dict[str, str]
) -> None:
    reader = corpus()
    units = list(reader.iter_units(path, **options))
    chunks = [c for c in chunk_units(units, chunk_size=600) if isinstance(c, docread.Document)]
    read: dict[str, tuple[str, str]] = {}
    checked = 0
    for chunk in chunks:
        sid = chunk.metadata.get("section_id")
        if sid is None:
            continue
        if sid not in read:
            result = reader.read(path, section=sid, output_format="markdown")
            read[sid] = (" ".join(result.documents[0].text.split()), result.header["Section"])
        text, header = read[sid]
        body = re.sub(r"^\|[^\n]*\n\|[-| :]*\|\n", "", chunk.text)  # a repeated table header
        assert " ".join(body.split())[:200] in text, (sid, chunk.text[:100])
        assert header.startswith(f"{sid} {chunk.metadata['headings'][-1]} (")
        checked += 1
    assert checked >= 2
    documents = [u for u in units if isinstance(u, docread.Document)]
    again = [u for u in reader.iter_units(path, **options) if isinstance(u, docread.Document)]
    assert [d.metadata.get("section_id") for d in documents] == [
        d.metadata.get("section_id") for d in again
    ]  # stable across runs


def test_a_load_refuses_section_and_outline(tmp_path: Path) -> None:
    with pytest.raises(docread.InvalidOptionError, match="agent-view reads"):
        list(docread.Reader(tmp_path).iter_units(tmp_path, section="s1"))


@pytest.mark.parametrize(
    ("path", "paths"),
    [
        pytest.param("tables/test.xlsx", [["Sheet1"], ["09060124-b5e7-4717-9d07-3c046eb"]],
                     id="xlsx-sheet"),
        pytest.param("tables/2023-half-year-analyses-by-segment.xlsx", [
            ["OS-Rev.and results 30 06 2023"], ["Reconciliation 30 06 2023"]],
                     id="xlsx-sheet-from-row-2"),
        pytest.param("slides/test.pptx", [
            ["Slide 1: AutoGen: Enabling Next-Gen LLM Applications via Multi-Agent Conversation"],
            ["Slide 3: A table to test parsing:"]], id="pptx-slide-title"),
        pytest.param("email/testEML_embedded_xhtml_and_img.eml", [
            ["This is the subject"], ["This is the subject", "testimage.jpeg"]], id="email-subject"),
        pytest.param("archives/simple.zip", [["ideas-page.html"], ["stanley-cups.csv"]],
                     id="archive-member"),
        pytest.param("notebooks/simple.ipynb", [["Lorem ipsum"], ["Lorem ipsum", "Pyout"]],
                     id="notebook-heading-cell"),
    ],
)  # fmt: skip
def test_chunks_name_their_natural_place_in_headings(
    corpus: Callable[..., docread.Reader], path: str, paths: list[list[str]]
) -> None:
    """issue 34: a chunk tells where it came from (sheet, slide title, subject, member, notebook
    heading cell) in ``headings``, the same tree's path as its ``section_id``; a chunk before any
    place (a properties header) carries neither key, never an empty list."""
    reader = corpus()
    chunks = [
        c for c in chunk_units(reader.iter_units(path), chunk_size=800, chunk_overlap=100)
        if isinstance(c, docread.Document)
    ]  # fmt: skip
    got = [c.metadata.get("headings") for c in chunks]
    assert all(p in got for p in paths), got
    for chunk in chunks:
        headings = chunk.metadata.get("headings")
        assert headings != [] and (headings is None) == ("section_id" not in chunk.metadata)
    assert sum(h is not None for h in got) >= len(got) - 1  # at most the properties header
