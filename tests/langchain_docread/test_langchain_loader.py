"""DocReadLoader and DocReadParser: LangChain metadata names, stable ids, directories with
progress and per-file errors, blob parsing, and upserting through langchain_core.indexing."""

from __future__ import annotations

import logging
import subprocess
import sys
from pathlib import Path

import docread
import pytest
from factories import (
    code,
    folder_with_broken_notebook,
    markdown,
    notebook,
    pdf,
    stream,
    zip_archive,
)
from langchain_core.document_loaders import Blob
from langchain_core.embeddings import DeterministicFakeEmbedding
from langchain_core.indexing import InMemoryRecordManager, index
from langchain_core.vectorstores import InMemoryVectorStore

from langchain_docread import DocReadLoader, DocReadParser

ROOT = Path(__file__).resolve().parents[2]
BASE_KEYS = {
    "source", "file_path", "file_name", "file_size", "mime_type", "format", "category",
    "modified", "extractor",
}  # fmt: skip


@pytest.fixture
def corpus(tmp_path: Path) -> Path:
    """A small folder: a text file, a notebook, and a nested text file."""
    (tmp_path / "notes.txt").write_text("alpha\nbeta\n", encoding="utf-8")
    notebook(
        tmp_path / "analysis.ipynb",
        [markdown("# Revenue\nby quarter"), code("print(6 * 7)", stream("42\n"), count=3)],
    )
    (tmp_path / "sub").mkdir()
    (tmp_path / "sub" / "deep.md").write_text("# Deep\nnested text\n", encoding="utf-8")
    return tmp_path


def test_text_file_keeps_core_metadata_with_source_as_given(corpus: Path) -> None:
    docs = DocReadLoader("notes.txt", workspace=corpus).load()
    assert len(docs) == 1
    doc = docs[0]
    assert doc.page_content == "alpha\nbeta"
    assert doc.metadata.keys() >= BASE_KEYS
    assert doc.metadata["source"] == "notes.txt"
    assert doc.metadata["file_path"] == str(corpus / "notes.txt")
    assert doc.metadata["line_start"] == 1 and doc.metadata["line_end"] == 2
    assert "page" not in doc.metadata and "row" not in doc.metadata
    assert all(isinstance(v, str | int | float | bool) for v in doc.metadata.values())


def test_notebook_gives_one_document_per_cell(corpus: Path) -> None:
    docs = DocReadLoader(corpus / "analysis.ipynb").load()
    assert [d.metadata["cell_index"] for d in docs] == [1, 2]
    assert [d.metadata["cell_type"] for d in docs] == ["markdown", "code"]
    assert docs[1].metadata["execution_count"] == 3
    assert "print(6 * 7)" in docs[1].page_content and "42" in docs[1].page_content
    assert docs[0].metadata["source"] == str(corpus / "analysis.ipynb")


def test_pdf_pages_carry_zero_based_page_label_and_total_pages(tmp_path: Path) -> None:
    pdf(tmp_path / "report.pdf", ["First page text", "Second page text", "Third page text"])
    docs = DocReadLoader("report.pdf", workspace=tmp_path).load()
    assert [d.metadata["page"] for d in docs] == [0, 1, 2]
    assert [d.metadata["page_label"] for d in docs] == ["1", "2", "3"]
    assert {d.metadata["total_pages"] for d in docs} == {3}
    assert [d.metadata["page_number"] for d in docs] == [1, 2, 3]
    assert "Second page text" in docs[1].page_content
    assert docs[0].metadata["source"] == "report.pdf"


def test_pdf_metadata_is_exactly_core_plus_langchain_names(tmp_path: Path) -> None:
    q3 = pdf(tmp_path / "q3.pdf", ["alpha", "beta"])
    import pymupdf

    with pymupdf.open(q3) as doc:
        doc.set_metadata({"title": "Q3 Report", "author": "Ann"})
        doc.saveIncr()
    first = DocReadLoader("q3.pdf", workspace=tmp_path).load()[0].metadata
    pdf_keys = {"page_number", "page_count", "ocr", "encrypted", "title", "author"}
    assert set(first) == BASE_KEYS | pdf_keys | {"page", "page_label", "total_pages"}
    assert (first["page"], first["page_label"], first["total_pages"]) == (0, "1", 2)
    assert (first["title"], first["author"], first["ocr"]) == ("Q3 Report", "Ann", False)
    assert "headings" not in first  # no heading path where the page starts: no key (Chroma)
    assert first["mime_type"] == "application/pdf" and first["file_size"] == q3.stat().st_size


def test_csv_chunks_have_row_ranges_and_one_row_documents_have_row(tmp_path: Path) -> None:
    (tmp_path / "sales.csv").write_text(
        "region,units\nEMEA,340\nAPAC,210\nAMER,295\n", encoding="utf-8"
    )
    [chunk] = DocReadLoader("sales.csv", workspace=tmp_path).load()
    assert (
        chunk.metadata["row_start"],
        chunk.metadata["row_end"],
        chunk.metadata["total_rows"],
    ) == (1, 3, 3)
    assert "row" not in chunk.metadata
    assert "APAC" in chunk.page_content and "295" in chunk.page_content
    rows = DocReadLoader(
        "sales.csv", workspace=tmp_path, config={"tabular": {"rows_per_document": 1}}
    ).load()
    assert [d.metadata["row"] for d in rows] == [0, 1, 2]
    assert [d.metadata["row_start"] for d in rows] == [1, 2, 3]
    assert "EMEA" in rows[0].page_content and "EMEA" not in rows[1].page_content
    assert len({d.id for d in rows}) == 3


def test_pdf_page_window_is_pushed_to_the_core(tmp_path: Path) -> None:
    pdf(tmp_path / "report.pdf", ["one", "two", "three"])
    docs = DocReadLoader("report.pdf", workspace=tmp_path, pages="2-3").load()
    assert [d.metadata["page"] for d in docs] == [1, 2]


def test_ids_are_stable_across_runs_and_distinct(corpus: Path) -> None:
    first = [d.id for d in DocReadLoader(".", workspace=corpus).load()]
    second = [d.id for d in DocReadLoader(".", workspace=corpus).load()]
    assert first == second
    assert len(set(first)) == len(first) == 4
    assert all(first)


def test_directory_walk_glob_and_non_recursive(corpus: Path) -> None:
    everything = DocReadLoader(corpus).load()
    assert sorted({d.metadata["file_name"] for d in everything}) == [
        "analysis.ipynb",
        "deep.md",
        "notes.txt",
    ]
    assert {d.metadata["source"] for d in everything if d.metadata["file_name"] == "deep.md"} == {
        str(corpus / "sub" / "deep.md")
    }
    flat = DocReadLoader(corpus, recursive=False).load()
    assert sorted({d.metadata["file_name"] for d in flat}) == ["analysis.ipynb", "notes.txt"]
    md = DocReadLoader(corpus, glob="*.md").load()
    assert [d.metadata["file_name"] for d in md] == ["deep.md"]


def test_directory_progress_bar_counts_files(
    corpus: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    docs = DocReadLoader(corpus, show_progress=True).load()
    assert len(docs) == 4
    err = capsys.readouterr().err
    assert "DocReadLoader" in err and "3/3" in err


def test_the_progress_bar_changes_nothing_a_load_yields(
    corpus: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """The folder's files under a bar are still files found in a folder: ``glob`` picks them,
    it is not a read option of each (the archive's members are kept, no file gets a note)."""
    zip_archive(corpus / "sub" / "bundle.zip", {"inside.txt": b"packed words"})
    quiet = DocReadLoader(corpus, glob="**/*.zip", show_progress=False).load()
    shown = DocReadLoader(corpus, glob="**/*.zip", show_progress=True).load()
    assert any("packed words" in d.page_content for d in quiet)
    assert [d.id for d in shown] == [d.id for d in quiet]
    assert "does not apply" not in caplog.text


def test_failing_file_in_a_folder_is_logged_and_other_files_still_load(
    corpus: Path, caplog: pytest.LogCaptureFixture
) -> None:
    (corpus / "broken.ipynb").write_text("{not json", encoding="utf-8")
    with caplog.at_level(logging.WARNING, logger="docread"):
        docs = DocReadLoader(corpus).load()
    [record, summary] = caplog.records  # the file's warning, then the load's summary
    assert record.docread_path.endswith("broken.ipynb") and "not a valid notebook" in record.message
    assert summary.getMessage().startswith("docread: 1 of 4 file(s) failed and were skipped: ")
    assert sorted({d.metadata["file_name"] for d in docs}) == [
        "analysis.ipynb",
        "deep.md",
        "notes.txt",
    ]


def test_on_error_raise_and_skip(corpus: Path, recwarn: pytest.WarningsRecorder) -> None:
    (corpus / "broken.ipynb").write_text("{not json", encoding="utf-8")
    with pytest.raises(docread.ExtractionError, match="broken.ipynb"):
        DocReadLoader(corpus, on_error="raise").load()
    docs = DocReadLoader([corpus / "broken.ipynb", corpus / "notes.txt"], on_error="skip").load()
    assert [d.metadata["file_name"] for d in docs] == ["notes.txt"]
    assert not recwarn.list


def test_missing_path_is_a_per_file_error(corpus: Path, caplog: pytest.LogCaptureFixture) -> None:
    with caplog.at_level(logging.WARNING, logger="docread"):
        loader = DocReadLoader(["missing.txt", "notes.txt"], workspace=corpus, on_error="warn")
        docs = loader.load()
    assert [d.metadata["file_name"] for d in docs] == ["notes.txt"]
    assert "missing.txt" in caplog.text
    with pytest.raises(docread.DocumentNotFoundError):
        DocReadLoader("missing.txt", workspace=corpus).load()  # a path named: raised


def test_bad_options_fail_at_construction() -> None:
    with pytest.raises(docread.InvalidOptionError, match="pages"):
        DocReadLoader("x.pdf", pages="9-3")
    with pytest.raises(docread.InvalidOptionError, match=r"page \(did you mean pages\?\)"):
        DocReadLoader("x.pdf", page="1")
    with pytest.raises(ValueError, match="on_error"):
        DocReadLoader("x.pdf", on_error="ignore")  # type: ignore[arg-type]  # InvalidOptionError


async def test_aload_matches_load(corpus: Path) -> None:
    loader = DocReadLoader(corpus)
    assert [d.id for d in await loader.aload()] == [d.id for d in loader.load()]


def test_parser_reads_path_blobs_and_in_memory_blobs(corpus: Path) -> None:
    parser = DocReadParser()
    from_path = parser.parse(Blob.from_path(corpus / "analysis.ipynb", metadata={"batch": "b1"}))
    assert [d.metadata["cell_index"] for d in from_path] == [1, 2]
    assert from_path[0].metadata["batch"] == "b1"
    data = (corpus / "analysis.ipynb").read_bytes()
    in_memory = parser.parse(Blob.from_data(data, path="s3://bucket/analysis.ipynb"))
    assert [d.page_content for d in in_memory] == [d.page_content for d in from_path]
    assert in_memory[0].metadata["source"] == "s3://bucket/analysis.ipynb"


def test_reindexing_upserts_instead_of_duplicating(corpus: Path) -> None:
    manager = InMemoryRecordManager(namespace="docread")
    manager.create_schema()
    store = InMemoryVectorStore(DeterministicFakeEmbedding(size=8))
    loader = DocReadLoader(corpus)
    first = index(
        loader, manager, store, cleanup="incremental", source_id_key="source", key_encoder="sha256"
    )
    second = index(
        loader, manager, store, cleanup="incremental", source_id_key="source", key_encoder="sha256"
    )
    assert first["num_added"] == 4
    assert second["num_added"] == 0 and second["num_skipped"] == 4
    plain = InMemoryVectorStore(DeterministicFakeEmbedding(size=8))
    plain.add_documents(loader.load())
    plain.add_documents(loader.load())  # same ids: overwritten, not duplicated
    assert len(plain.store) == 4
    assert {d.id for d in plain.get_by_ids([d.id for d in loader.load()])} == set(plain.store)


# -- LangChain's conventions on the core walk ------------------------------------------------------
def test_langchain_loader_keeps_its_conventions_on_the_core_walk(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    from langchain_docread import DocReadLoader

    data = folder_with_broken_notebook(tmp_path)
    with caplog.at_level(logging.DEBUG):
        docs = DocReadLoader(data, glob="**/*").load()
    record, summary = [r for r in caplog.records if r.levelno >= logging.WARNING]  # the core's
    assert record.name == "docread" and "broken.ipynb" in record.getMessage()
    assert summary.name == "docread" and "1 of 3 file(s) failed" in summary.getMessage()
    assert [d.metadata["source"] for d in docs] == [str(data / "a.txt"), str(data / "sub/b.md")]


def test_pattern_is_the_glob_as_in_every_other_loader(corpus: Path) -> None:
    """``pattern=`` (docread's name, iter_units' and DocReadReader's) was a read option here too
    and met ``glob`` in the load: a TypeError at the first file. It is the glob."""
    docs = DocReadLoader(corpus, pattern="**/*.md").load()
    assert [d.metadata["file_name"] for d in docs] == ["deep.md"]
    with pytest.raises(docread.InvalidOptionError, match="glob= or pattern=, not both"):
        DocReadLoader(corpus, glob="*.txt", pattern="**/*.md")


def test_the_loader_alone_does_not_import_the_tools_stack() -> None:
    """``from langchain_docread import DocReadLoader`` imports the loader's modules only (the
    package's names load on first use): not the agent tool, whose langchain_core tracers and
    LangSmith cost ~1.3 s of CPU in every interpreter (each README block, each CLI run)."""
    code = (
        "import sys\nfrom langchain_docread import DocReadLoader, DocReadParser\n"
        "print(sorted(m for m in ('langchain_docread.tool', 'langchain_core.tools', "
        "'langchain_core.tracers', 'langsmith.run_trees') if m in sys.modules))"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=60
    )
    assert done.stdout.strip() == "[]"
    import langchain_docread

    assert langchain_docread.ReadDocumentTool.__name__ == "ReadDocumentTool"  # on first use
    assert set(langchain_docread.__all__) <= set(dir(langchain_docread))
    with pytest.raises(AttributeError, match="no attribute 'Missing'"):
        langchain_docread.Missing  # noqa: B018
