"""docread's chunker (docread.chunking): boundaries, sizes, overlap, char_start, ids that stay
put, units never mixed; and the one ``source`` rule it hashes."""

from __future__ import annotations

from pathlib import Path

import docread
import pytest
from conftest import NO_CACHE
from docread.chunking import Chunker, chunk_id, chunk_units
from factories import pdf

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
