"""docread's chunker (docread.rag.chunking): boundaries, sizes, overlap, char_start, ids that stay
put, units never mixed; and the one ``source`` rule it hashes."""

from __future__ import annotations

import json
import math
import re
from pathlib import Path

import docread
import pytest
from conftest import NO_CACHE
from docread.rag.chunking import Chunker, chunk_id, chunk_units, contextualize
from docread.sanitize import clean_metadata
from factories import docx, pdf

TEXT = (
    "Pumps need care. Check the seal every month! Replace it yearly?\n\n"
    "The second paragraph has one line\nand a second line that is somewhat longer.\n\n"
    + "x" * 45
    + " tail."
)


def _doc(text: str = TEXT, **meta: object) -> docread.Document:
    return docread.Document(text, {"source": "a.txt", **meta}, "unit-id")


def _check_slices(doc: docread.Document, chunks: list[docread.Document]) -> None:
    for chunk in chunks:
        start = chunk.metadata["char_start"]
        assert doc.text[start : start + len(chunk.text)] == chunk.text


def test_chunks_fit_cut_at_the_coarsest_boundary_and_are_slices_of_the_unit() -> None:
    doc = _doc(page_number=4)
    chunks = Chunker(40).split(doc)
    assert [c.text for c in chunks] == [
        "Pumps need care.",  # the paragraph is too long: cut at sentences
        "Check the seal every month!",
        "Replace it yearly?",
        "The second paragraph has one line\nand a",  # a line, then words of the next
        "second line that is somewhat longer.",
        "x" * 40,  # one long word: cut hard
        "xxxxx tail.",
    ]
    _check_slices(doc, chunks)
    assert [c.metadata["chunk_index"] for c in chunks] == list(range(1, len(chunks) + 1))
    assert {c.metadata["chunk_count"] for c in chunks} == {len(chunks)}
    assert all(c.metadata["page_number"] == 4 and c.metadata["source"] == "a.txt" for c in chunks)


def test_a_paragraph_that_fits_stays_whole() -> None:
    doc = _doc()
    chunks = Chunker(70).split(doc)
    assert chunks[0].text == "Pumps need care. Check the seal every month! Replace it yearly?"
    _check_slices(doc, chunks)


def test_overlap_repeats_the_end_of_the_previous_chunk() -> None:
    doc = _doc(" ".join(f"w{i:02d}" for i in range(40)))  # 40 words of 3 chars + spaces
    chunks = Chunker(30, 10).split(doc)
    _check_slices(doc, chunks)
    assert chunks[0].text == "w00 w01 w02 w03 w04 w05 w06"
    assert chunks[1].text == "w05 w06 w07 w08 w09 w10 w11"  # 10 chars of the previous one
    for before, after in zip(chunks, chunks[1:], strict=False):
        start, end = after.metadata["char_start"], before.metadata["char_start"] + len(before.text)
        assert 0 < end - start <= 11  # the overlap, with its separating space
    no_overlap = Chunker(30).split(doc)
    assert no_overlap[1].text == "w07 w08 w09 w10 w11 w12 w13"


def test_length_may_count_tokens() -> None:
    doc = _doc(" ".join(f"word{i}" for i in range(25)))
    chunks = Chunker(10, 2, length=lambda s: len(s.split())).split(doc)
    assert [len(c.text.split()) for c in chunks] == [10, 10, 9]
    assert chunks[1].text.split()[:2] == ["word8", "word9"]
    _check_slices(doc, chunks)


def test_a_short_or_blank_unit_is_one_chunk_with_a_derived_id() -> None:
    [one] = Chunker(100).split(_doc("short"))
    assert one.text == "short" and one.metadata["chunk_count"] == 1
    assert one.id == chunk_id("unit-id", 1, "short") != "unit-id"
    [blank] = Chunker(100).split(_doc(""))
    assert blank.text == "" and blank.metadata["char_start"] == 0


def test_media_pass_through_untouched() -> None:
    media = docread.Media("image/png", b"\x89PNG", {"source": "a.png"}, "m-id")
    out = list(chunk_units([_doc("one two"), media], chunk_size=5))
    assert out[-1] is media
    assert [u.text for u in out[:-1] if isinstance(u, docread.Document)] == ["one", "two"]


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"chunk_size": 0}, "chunk_size=0"),
        ({"chunk_size": -5}, "chunk_size=-5"),
        ({"chunk_size": "100"}, "chunk_size='100'"),
        ({"chunk_size": 10, "chunk_overlap": 10}, "chunk_overlap=10"),
        ({"chunk_size": 10, "chunk_overlap": -1}, "chunk_overlap=-1"),
        ({"chunk_size": 10, "length": "tokens"}, "length='tokens'"),
    ],
)
def test_bad_arguments_are_invalid_option_errors(kwargs: dict[str, object], message: str) -> None:
    with pytest.raises(docread.InvalidOptionError, match=message):
        chunk_units([], **kwargs)  # type: ignore[arg-type]


# -- issue 25.6: the overlap is bounded and every chunk advances -----------------------------
def test_an_overlap_above_half_the_size_is_refused_in_the_core() -> None:
    with pytest.raises(docread.InvalidOptionError, match=r"chunk_overlap=999: .*half.*1000"):
        Chunker(1000, 999)  # accepted before: 1 MB of short words made 836 MB of chunks
    with pytest.raises(docread.InvalidOptionError, match="chunk_overlap=6"):
        chunk_units([], chunk_size=11, chunk_overlap=6)
    assert Chunker(11, 5).chunk_overlap == 5  # half (rounded down) is the most


def test_the_output_stays_proportional_to_the_input() -> None:
    text = " ".join(f"w{i % 10}" for i in range(60_000))  # 180 KB of short words
    chunks = Chunker(1000, 500).split(_doc(text))
    ends = [c.metadata["char_start"] + len(c.text) for c in chunks]
    assert all(b > a for a, b in zip(ends, ends[1:], strict=False))  # each chunk advances
    assert sum(len(c.text) for c in chunks) <= 2.1 * len(text)
    assert len(chunks) <= 2 * len(text) // 1000 + 1
    _check_slices(_doc(text), chunks)


def test_text_without_whitespace_still_gets_its_overlap() -> None:
    text = "".join(chr(ord("a") + i % 26) for i in range(1000))  # one 1,000-char "word"
    doc = _doc(text)
    chunks = Chunker(100, 20).split(doc)
    _check_slices(doc, chunks)
    starts = [c.metadata["char_start"] for c in chunks]
    assert all(len(c.text) <= 100 for c in chunks) and starts[:3] == [0, 60, 140]
    for before, after in zip(chunks, chunks[1:], strict=False):
        assert before.text[-20:] == after.text[:20]  # the last 20 chars come again
    assert chunks[-1].metadata["char_start"] + len(chunks[-1].text) == len(text)
    tokens = Chunker(25, 5, length=lambda s: (len(s) + 3) // 4).split(doc)  # ~4 chars a token
    assert all(len(c.text) <= 100 for c in tokens)
    assert all(a.text[-20:] == b.text[:20] for a, b in zip(tokens, tokens[1:], strict=False))


# -- issue 26.4: chunks know their section ------------------------------------------------------
ROWS = "\n".join(f"| Q{i} | {i * 100} | region {i} |" for i in range(1, 9))


def _page(n: int, text: str, headings: list[str] | None = None) -> docread.Document:
    """A PDF page unit as the PDF extractor makes it: markdown, ``headings`` at its start."""
    meta: dict[str, object] = {"source": "report.pdf", "extractor": "pdf", "page_number": n}
    if headings is not None:
        meta["headings"] = headings
    return docread.Document(text, meta, f"page-{n}-{hash(text)}")


def _report(
    page2: str = "The summary goes on over page two with more words about the year.",
) -> list[docread.Document]:
    """Four pages: a title and a summary that runs over page 2, then results with a pipe table
    that runs from page 3 into page 4 (its rows go on without a header), then a subsection."""
    return [
        _page(1, "# Annual report\n\nThis report covers the year. It has results and an outlook."
              "\n\n## 1 Summary\n\nRevenue grew. Costs fell."),
        _page(2, page2, ["Annual report", "1 Summary"]),
        _page(3, "## 2 Results\n\nResults by quarter:\n\n| Quarter | Revenue | Region |\n"
                 "|---|---|---|\n" + ROWS, ["Annual report", "1 Summary"]),
        _page(4, "| Q9 | 900 | region 9 |\n| Q10 | 1000 | region 10 |\n\n### 2.1 Revenue\n\n"
                 "Revenue details here.", ["Annual report", "2 Results"]),
    ]  # fmt: skip


def _docs(
    units: list[docread.Document], size: int = 150, **kwargs: object
) -> list[docread.Document]:
    chunks = list(chunk_units(units, chunk_size=size, **kwargs))  # type: ignore[arg-type]
    assert all(isinstance(c, docread.Document) for c in chunks)
    return chunks  # type: ignore[return-value]


def test_chunks_carry_their_heading_path_and_pages() -> None:
    chunks = _docs(_report())
    got = [
        (c.metadata["headings"], c.metadata["page_start"], c.metadata["page_end"]) for c in chunks
    ]
    assert got == [
        (["Annual report"], 1, 1),
        (["Annual report", "1 Summary"], 1, 2),  # the summary runs over page 2: one chunk
        (["Annual report", "2 Results"], 3, 3),
        (["Annual report", "2 Results"], 3, 3),
        (["Annual report", "2 Results"], 3, 4),  # the table's last rows are on page 4
        (["Annual report", "2 Results", "2.1 Revenue"], 4, 4),
    ]
    summary = chunks[1]
    assert summary.text.startswith("## 1 Summary") and summary.text.endswith("about the year.")
    assert summary.metadata["page_number"] == 1 and summary.metadata["char_start"] == 78
    assert [c.metadata["chunk_index"] for c in chunks[2:5]] == [1, 2, 3]  # within the section
    assert {c.metadata["chunk_count"] for c in chunks[2:5]} == {3}
    assert len({c.id for c in chunks}) == len(chunks)


def test_a_section_without_a_heading_path_carries_no_headings_key() -> None:
    """A table before any heading is a section with no path: its chunks carry no ``headings``
    (Chroma refuses an empty list), and neither does a page that starts with none."""
    table = "Before any heading.\n\n| a | b |\n|---|---|\n| 1 | 2 |"
    chunks = _docs([_page(1, table, []), _page(2, "# Title\n\nBody.", [])])
    assert [c.metadata.get("headings") for c in chunks] == [None, ["Title"]]
    assert contextualize(chunks[0]) == chunks[0].text


def test_unit_metadata_is_what_every_store_takes() -> None:
    """The one rule of units and chunks (sanitize): no empty or blank heading path, no None, no
    NaN or infinity (Chroma drops them, JSON has none), no integer past 64 bits (Chroma makes
    it a float): those numbers as their decimal strings."""
    out = docread.Settings().output
    meta = clean_metadata(
        {"headings": [], "title": None, "nan": math.nan, "inf": -math.inf, "big": 1 << 64,
         "edge": (1 << 63) - 1, "ratio": 0.5},
        out,
    )  # fmt: skip
    assert meta == {"nan": "nan", "inf": "-inf", "big": str(1 << 64), "edge": (1 << 63) - 1,
                    "ratio": 0.5}  # fmt: skip
    assert "headings" not in clean_metadata({"headings": ["", " \t"]}, out)
    assert clean_metadata({"headings": ["A", " ", "B"]}, out)["headings"] == ["A", "B"]


def test_table_rows_are_never_cut_and_the_header_comes_again() -> None:
    for size, overlap in ((150, 0), (120, 30), (90, 0)):
        chunks = _docs(_report(), size, chunk_overlap=overlap)
        table = [c for c in chunks if "| Q" in c.text]
        rows = {f"| Q{i} | {i * 100} | region {i} |" for i in range(1, 11)}
        seen: list[str] = []
        for chunk in table:
            assert len(chunk.text) <= size
            lines = [line for line in chunk.text.splitlines() if re.match(r"\| Q\d", line)]
            assert set(lines) <= rows  # whole rows only
            assert "| Quarter | Revenue | Region |\n|---|---|---|\n" in chunk.text  # the header
            seen += lines
        assert set(seen) == rows and len(table) >= 3


def test_contextualize_prefixes_the_heading_path_without_changing_the_text() -> None:
    chunk = _docs(_report())[5]
    assert contextualize(chunk) == (
        "Annual report > 2 Results > 2.1 Revenue\n\n### 2.1 Revenue\n\nRevenue details here."
    )
    assert chunk.text == "### 2.1 Revenue\n\nRevenue details here."
    plain = Chunker(100).split(_doc("no headings here"))[0]
    assert "headings" not in plain.metadata and contextualize(plain) == "no headings here"


def test_an_edit_of_one_page_renames_only_the_chunks_of_its_section() -> None:
    before = _docs(_report(), 120, chunk_overlap=20)
    again = _docs(_report(), 120, chunk_overlap=20)
    assert [c.id for c in again] == [c.id for c in before]
    after = _docs(
        _report("Page two now says something else, and says it at much greater length."),
        120,
        chunk_overlap=20,
    )

    def ids(chunks: list[docread.Document]) -> dict[str, set[str]]:
        out: dict[str, set[str]] = {}
        for c in chunks:
            out.setdefault(" > ".join(c.metadata["headings"]), set()).add(c.id)
        return out

    old, new = ids(before), ids(after)
    assert old.keys() == new.keys()
    for section in old:
        if section == "Annual report > 1 Summary":
            assert not old[section] & new[section]  # page 2 is in this section: rewritten
        else:
            assert old[section] == new[section]  # every other section keeps its ids


def test_units_without_structure_keep_their_chunks_and_ids() -> None:
    code = docread.Document(
        "# a comment, not a heading\nimport os\n\n# another\nx = 1\n" * 6,
        {"source": "a.py", "file_name": "a.py", "extractor": "text", "line_start": 1},
        "code-id",
    )
    for unit in (code, _doc(), _page(1, TEXT)):
        chunks = Chunker(60, 10).split(unit)
        assert chunks == Chunker(60, 10, sections=False).split(unit)
        assert [c.id for c in chunks] == [
            chunk_id(unit.id, i, c.text) for i, c in enumerate(chunks, 1)
        ]  # the rule before sections: unit id, index, text
        assert all("headings" not in c.metadata for c in chunks)
    assert Chunker(60).split(_page(1, TEXT))[0].metadata["page_start"] == 1


def test_sections_false_chunks_each_unit_alone() -> None:
    chunks = _docs(_report(), sections=False)
    assert all(c.metadata["page_start"] == c.metadata["page_end"] for c in chunks)
    assert all(c.metadata.get("headings") in (None, ["Annual report", "1 Summary"],
                                              ["Annual report", "2 Results"]) for c in chunks)  # fmt: skip
    with pytest.raises(docread.InvalidOptionError, match="sections='yes'"):
        Chunker(100, sections="yes")  # type: ignore[arg-type]


def test_code_fences_pages_out_of_order_and_media() -> None:
    md = {
        "source": "n.md",
        "file_name": "n.md",
        "extractor": "text",
        "line_start": 1,
        "line_end": 9,
    }
    fenced = docread.Document("# Notes\n\n```python\n# not a heading\nx = 1\n```\n", md, "md")
    [chunk] = Chunker(500).split(fenced)
    assert chunk.metadata["headings"] == ["Notes"] and "# not a heading" in chunk.text
    pages = _report()
    picture = docread.Media("image/png", b"png", {"source": "report.pdf", "page_number": 2}, "m")
    out = list(chunk_units([pages[0], pages[1], picture, pages[3]], chunk_size=150))
    assert out.index(picture) == 2  # after the chunks of the section it came in
    page4 = [c for c in out if isinstance(c, docread.Document) and c.metadata["page_start"] == 4]
    assert page4[0].metadata["headings"] == ["Annual report", "2 Results"]  # its own path: page 3
    assert page4[0].text.startswith("| Q9")  # is missing, so nothing runs on into page 4


def test_the_cli_chunks_with_sections(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from docread.cli.load import main

    (tmp_path / "guide.md").write_text(
        "# Guide\n\nIntro words.\n\n## Install\n\n" + "Run the installer and wait. " * 8
    )
    args = ["guide.md", "--workspace", str(tmp_path), "--no-progress", "--chunk-size", "120"]
    assert main([*args, "--chunk-overlap", "20"]) == 0
    lines = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert [line["metadata"]["headings"] for line in lines[:2]] == [["Guide"], ["Guide", "Install"]]
    assert all(len(line["text"]) <= 120 for line in lines) and len(lines) > 3
    assert main([*args, "--chunk-overlap", "61"]) == 2
    assert "chunk_overlap=61" in capsys.readouterr().err


# -- real files through the reader ----------------------------------------------------------
PAGES = [
    "Page one talks about pumps. " * 12,
    "Page two talks about seals. " * 12,
    "Page three talks about warranty. " * 12,
]


def _chunks(reader: docread.Reader, name: str) -> list[docread.Document]:
    units = list(reader.iter_documents(name))
    chunks = list(chunk_units(units, chunk_size=120, chunk_overlap=30))
    assert all(isinstance(c, docread.Document) for c in chunks)
    return chunks  # type: ignore[return-value]


def test_a_chunk_never_spans_two_pages(reader: docread.Reader, tmp_path: Path) -> None:
    pdf(tmp_path / "three.pdf", PAGES)
    pages = {d.metadata["page_number"]: d for d in reader.iter_documents("three.pdf")}
    chunks = _chunks(reader, "three.pdf")
    assert len(chunks) > 6
    for chunk in chunks:
        page = pages[chunk.metadata["page_number"]]
        _check_slices(page, [chunk])
        assert "talks about" in chunk.text and len(chunk.text) <= 120
    words = {1: "pumps", 2: "seals", 3: "warranty"}
    for chunk in chunks:
        others = set(words.values()) - {words[chunk.metadata["page_number"]]}
        assert not any(w in chunk.text for w in others)
    by_page = [c.metadata["page_number"] for c in chunks]
    assert by_page == sorted(by_page) and set(by_page) == {1, 2, 3}


def test_chunk_ids_are_stable_and_survive_an_edit_of_another_page(
    reader: docread.Reader, tmp_path: Path
) -> None:
    pdf(tmp_path / "three.pdf", PAGES)
    first = _chunks(reader, "three.pdf")
    again = _chunks(reader, "three.pdf")
    assert [c.id for c in first] == [c.id for c in again]
    assert len({c.id for c in first}) == len(first)
    pdf(tmp_path / "three.pdf", [PAGES[0], "Page two now talks about gaskets. " * 12, PAGES[2]])
    edited = _chunks(reader, "three.pdf")

    def ids(chunks: list[docread.Document], page: int) -> list[str]:
        return [c.id for c in chunks if c.metadata["page_number"] == page]

    assert ids(edited, 1) == ids(first, 1) and ids(edited, 3) == ids(first, 3)
    assert not set(ids(edited, 2)) & set(ids(first, 2))


# -- one `source` rule ------------------------------------------------------------------------
def test_source_is_relative_to_the_workspace_however_the_path_is_given(tmp_path: Path) -> None:
    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "a.txt").write_text("alpha\n")
    with docread.Reader(tmp_path, NO_CACHE) as reader:
        given = ["docs/a.txt", str(tmp_path / "docs" / "a.txt"), "./docs/../docs/a.txt"]
        docs = [next(reader.iter_documents(p)) for p in given]
        via_folder = next(reader.iter_documents(str(tmp_path / "docs")))
    assert {d.metadata["source"] for d in [*docs, via_folder]} == {"docs/a.txt"}
    assert {d.metadata["file_path"] for d in docs} == {str(tmp_path / "docs" / "a.txt")}
    assert len({d.id for d in [*docs, via_folder]}) == 1  # one file, one id


def test_ids_survive_moving_the_workspace(tmp_path: Path) -> None:
    one, two = tmp_path / "one", tmp_path / "two"
    one.mkdir()
    pdf(one / "three.pdf", PAGES)
    one_ids = [d.id for d in docread.iter_documents("three.pdf", workspace=one, config=NO_CACHE)]
    one.rename(two)
    two_ids = [d.id for d in docread.iter_documents("three.pdf", workspace=two, config=NO_CACHE)]
    assert one_ids == two_ids and len(one_ids) == 3


def test_the_agent_view_refuses_a_path_outside_and_says_how_to_set_workspace(
    tmp_path: Path,
) -> None:
    assert not tmp_path.is_relative_to(Path.cwd())
    (tmp_path / "far.txt").write_text("far away\n")
    with pytest.raises(docread.PathSecurityError, match=r"outside the workspace.*workspace="):
        docread.read(tmp_path / "far.txt", config=NO_CACHE)
    assert "far away" in docread.read(tmp_path / "far.txt", workspace=tmp_path).text


# -- sections in real reads: DOCX and HTML give markdown headings and pipe tables today -----------
def test_docx_and_html_chunks_know_their_section(reader: docread.Reader, tmp_path: Path) -> None:
    table = [["Quarter", "Revenue"], *([f"Q{i}", f"{i}00"] for i in range(1, 13))]
    blocks = [
        (1, "Annual report"), "Intro text about the year.",
        (2, "2 Results"), "Results by quarter follow.", table,
        (3, "2.1 Revenue"), "Revenue grew in every region. " * 4,
    ]  # fmt: skip
    docx(tmp_path / "report.docx", blocks)
    html = "".join(f"<h{lvl}>{t}</h{lvl}><p>{'Words about it. ' * 5}</p>" for lvl, t in
                   [(1, "Guide"), (2, "Install"), (3, "On Linux"), (2, "Use")])  # fmt: skip
    (tmp_path / "guide.html").write_text(f"<html><body>{html}</body></html>")
    for name, paths in [  # the DOCX's first section is its properties header: "Author: ..."
        ("report.docx", [None, ["Annual report"], ["Annual report", "2 Results"],
                         ["Annual report", "2 Results", "2.1 Revenue"]]),
        ("guide.html", [["Guide"], ["Guide", "Install"], ["Guide", "Install", "On Linux"],
                        ["Guide", "Use"]]),
    ]:  # fmt: skip
        chunks = _chunks(reader, name)
        got = [c.metadata.get("headings") for c in chunks]
        assert [p for i, p in enumerate(got) if p not in got[:i]] == paths
        for chunk in chunks:
            assert chunk.metadata["source"] == name and len(chunk.text) <= 120
    rows = [c for c in _chunks(reader, "report.docx") if "Q1" in c.text or "Q12" in c.text]
    assert rows and all(re.search(r"\| *Quarter *\| *Revenue *\|\n\|-", c.text) for c in rows)


def test_units_chunked_alone_get_distinct_ids_when_two_sections_share_a_path(
    tmp_path: Path,
) -> None:
    """A DOCX whose Title and first Heading 1 say the same words (pandoc's
    ``--metadata=title`` writes both) has two sections with one heading path. Chunked a unit at
    a time (Ray's rows), each section ranked first of its path and their '# Quarterly Report'
    chunks shared an id; the section id tells them apart."""
    import pypandoc

    pypandoc.convert_text(
        "# Quarterly Report\n\n## Summary\n\nRevenue grew.\n",
        "docx", format="md", outputfile=str(tmp_path / "r.docx"),
        extra_args=["--metadata=title:Quarterly Report"],
    )  # fmt: skip
    units = list(docread.iter_documents("r.docx", workspace=tmp_path, config=NO_CACHE))
    assert [(u.text, u.metadata["section_id"]) for u in units[:2]] == [
        ("# Quarterly Report", "s1"),
        ("# Quarterly Report", "s2"),
    ]
    chunker = Chunker(chunk_size=1000, chunk_overlap=100)
    ids = [chunk.id for unit in units for chunk in chunker.split(unit)]
    assert len(ids) == len(set(ids)) >= 3
    assert ids == [chunk.id for unit in units for chunk in chunker.split(unit)]  # stable
