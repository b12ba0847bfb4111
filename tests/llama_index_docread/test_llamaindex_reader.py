"""DocReadReader: alone and through SimpleDirectoryReader, on generated notebook, PNG, PDF and
XLSX files: metadata names and values, page_label, stable ids, ImageDocuments, extra_info,
pickling, per-file failures, docstore round trips."""

from __future__ import annotations

import base64
import logging
import pickle
from pathlib import Path
from typing import TYPE_CHECKING

import docread
import pytest
from conftest import NO_CACHE
from factories import (
    code,
    display_png,
    folder_with_broken_notebook,
    image_bytes,
    markdown,
    notebook,
    pdf,
    stream,
    xlsx,
)

# LlamaIndex is imported by the tests that use it, not at collection (~2.5 s of CPU in every
# pytest process, each xdist worker)
if TYPE_CHECKING:
    from llama_index_docread import DocReadReader

FILE_KEYS = {
    "file_path",
    "file_name",
    "file_type",
    "file_size",
    "creation_date",
    "last_modified_date",
}


def png_bytes(size: tuple[int, int] = (6, 4), color: str = "red") -> bytes:
    """A real PNG made with Pillow."""
    return image_bytes(size, color)


def write_notebook(path: Path) -> Path:
    """A notebook with a markdown cell, a code cell with text output and one with a PNG output."""
    return notebook(
        path,
        [
            markdown("# Revenue notes\nQuarterly revenue rose."),
            code("print(6 * 7)", stream("42\n"), count=1),
            code("plot()", display_png(png_bytes()), count=2),
        ],
    )


def write_pdf(path: Path, pages: int = 3) -> Path:
    """A text PDF, one distinct sentence per page, with a title and an author."""
    sentences = [f"Page {n} talks about topic number {n}." for n in range(1, pages + 1)]
    return pdf(path, sentences, metadata={"title": "Topics", "author": "Ada"})


def write_xlsx(path: Path) -> Path:
    """A two-sheet workbook."""
    sales = [["region", "amount"], ["north", 10], ["south", 20], ["east", 30]]
    return xlsx(path, {"Sales": sales, "Costs": [["item", "cost"], ["paper", 5]]})


@pytest.fixture
def li_reader(tmp_path: Path) -> DocReadReader:
    """A reader that writes extracted media under this test's tmp_path."""
    from llama_index_docread import DocReadReader

    return DocReadReader(media_dir=tmp_path / "media", config={"cache": {"enabled": False}})


def test_notebook_cells_are_documents_with_llamaindex_metadata(
    tmp_path: Path, li_reader: DocReadReader
) -> None:
    from llama_index.core.schema import ImageDocument, MetadataMode

    nb = write_notebook(tmp_path / "analysis.ipynb")
    docs = li_reader.load_data(nb)
    texts = [d for d in docs if not isinstance(d, ImageDocument)]
    assert [d.metadata["cell_index"] for d in texts] == [1, 2, 3]
    assert "Quarterly revenue rose." in texts[0].text
    assert "42" in texts[1].text
    meta = texts[0].metadata
    assert meta.keys() >= FILE_KEYS
    assert meta["file_path"] == str(nb.resolve())
    assert meta["file_name"] == "analysis.ipynb"
    assert meta["file_type"] == "application/x-ipynb+json"
    assert meta["file_size"] == nb.stat().st_size
    assert meta["format"] == "ipynb" and meta["cell_type"] == "markdown"
    assert len(meta["last_modified_date"]) == 10 and meta["last_modified_date"][4] == "-"
    assert all(isinstance(v, str | int | float | bool) or v is None for v in meta.values())
    # the embedding text is the content plus what it is about, never the bookkeeping
    embed = texts[0].get_content(MetadataMode.EMBED)
    assert (
        "file_name: analysis.ipynb" in embed
        and "file_size" not in embed
        and "extractor" not in embed
    )


def test_ids_are_stable_across_loads_and_unique_per_unit(
    tmp_path: Path, li_reader: DocReadReader
) -> None:
    from llama_index_docread import DocReadReader

    nb = write_notebook(tmp_path / "n.ipynb")
    first = [d.id_ for d in li_reader.load_data(nb)]
    second = [d.id_ for d in DocReadReader(media_dir=tmp_path / "m2").load_data(nb)]
    assert first == second
    assert len(set(first)) == len(first)


def test_notebook_image_output_is_an_image_document_that_survives_the_docstore(
    tmp_path: Path, li_reader: DocReadReader
) -> None:
    from llama_index.core.schema import ImageDocument
    from llama_index.core.storage.docstore import SimpleDocumentStore

    nb = write_notebook(tmp_path / "plots.ipynb")
    images = [d for d in li_reader.load_data(nb) if isinstance(d, ImageDocument)]
    assert len(images) == 1
    img = images[0]
    assert img.image_mimetype == "image/png"
    assert img.metadata["cell_index"] == 3 and img.metadata["image_mimetype"] == "image/png"
    saved = Path(img.image_path)
    assert saved.parent == tmp_path / "media" and saved.read_bytes() == png_bytes()
    assert base64.b64decode(img.image) == png_bytes()  # the bytes are there in memory as well
    store = SimpleDocumentStore()
    store.add_documents([img])
    store.persist(str(tmp_path / "store.json"))
    back = SimpleDocumentStore.from_persist_path(str(tmp_path / "store.json")).get_document(img.id_)
    assert isinstance(back, ImageDocument)
    assert back.image_path == str(saved) and back.image_mimetype == "image/png"
    assert back.metadata["cell_index"] == 3


def test_a_planted_media_file_of_the_same_size_is_replaced_not_reused(
    tmp_path: Path, li_reader: DocReadReader
) -> None:
    from llama_index.core.schema import ImageDocument

    nb = write_notebook(tmp_path / "plots.ipynb")
    [img] = [d for d in li_reader.load_data(nb) if isinstance(d, ImageDocument)]
    saved = Path(img.image_path)
    saved.write_bytes(b"x" * saved.stat().st_size)  # same name and size, other bytes
    [again] = [d for d in li_reader.load_data(nb) if isinstance(d, ImageDocument)]
    assert Path(again.image_path).read_bytes() == png_bytes()


def test_default_media_folder_is_private_to_the_user(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from llama_index.core.schema import ImageDocument

    from llama_index_docread import DocReadReader

    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    nb = write_notebook(tmp_path / "plots.ipynb")
    [img] = [d for d in DocReadReader().load_data(nb) if isinstance(d, ImageDocument)]
    saved = Path(img.image_path)
    assert saved.parent == tmp_path / "cache" / "docread" / "media"
    assert saved.parent.stat().st_mode & 0o777 == 0o700
    assert saved.read_bytes() == png_bytes()


def test_png_file_image_document_points_at_the_file_itself(
    tmp_path: Path, li_reader: DocReadReader
) -> None:
    from llama_index.core.schema import ImageDocument

    png = tmp_path / "logo.png"
    png.write_bytes(png_bytes((8, 5)))
    docs = li_reader.load_data(png)
    images = [d for d in docs if isinstance(d, ImageDocument)]
    assert len(images) == 1
    assert images[0].image_path == str(png.resolve())
    assert images[0].image_mimetype == "image/png"
    assert images[0].metadata["file_type"] == "image/png"
    assert not (tmp_path / "media").exists()  # nothing copied: the file is its own resource
    described = [d for d in docs if not isinstance(d, ImageDocument)]
    assert described and "8" in described[0].text  # the metadata block names the dimensions


def test_pdf_pages_carry_page_label_and_page_number(
    tmp_path: Path, li_reader: DocReadReader
) -> None:
    from llama_index.core.schema import MetadataMode

    pdf = write_pdf(tmp_path / "topics.pdf", pages=3)
    docs = li_reader.load_data(pdf)
    assert [d.metadata["page_label"] for d in docs] == ["1", "2", "3"]
    assert [d.metadata["page_number"] for d in docs] == [1, 2, 3]
    assert all(d.metadata["page_count"] == 3 for d in docs)
    assert "Page 2 talks about topic number 2." in docs[1].text
    assert docs[0].metadata["file_type"] == "application/pdf"
    assert "page_label: 1" in docs[0].get_content(MetadataMode.LLM)


def test_pages_option_is_passed_to_the_core(tmp_path: Path) -> None:
    from llama_index_docread import DocReadReader

    pdf = write_pdf(tmp_path / "topics.pdf", pages=4)
    docs = DocReadReader(pages="2-3").load_data(pdf)
    assert [d.metadata["page_label"] for d in docs] == ["2", "3"]


def test_xlsx_documents_name_their_sheet(tmp_path: Path, li_reader: DocReadReader) -> None:
    from llama_index.core.schema import MetadataMode

    xlsx = write_xlsx(tmp_path / "book.xlsx")
    docs = li_reader.load_data(xlsx)
    by_sheet = {d.metadata["sheet"]: d for d in docs}
    assert set(by_sheet) == {"Sales", "Costs"}
    sales = by_sheet["Sales"]
    assert "south" in sales.text and "20" in sales.text
    assert sales.metadata["row_start"] == 1 and sales.metadata["row_end"] == 3
    embed = sales.get_content(MetadataMode.EMBED)
    assert embed.count("Sales") == 1 and "Sheet: Sales" in embed  # the heading, said once
    assert "sheet: Sales" in sales.get_content(MetadataMode.LLM)  # for citing a split node


def test_simple_directory_reader_names_each_excluded_key_once_and_each_fact_once(
    tmp_path: Path, li_reader: DocReadReader
) -> None:
    from llama_index.core import SimpleDirectoryReader
    from llama_index.core.schema import MetadataMode

    data = tmp_path / "data"
    data.mkdir()
    xlsx(data / "book.xlsx", {"Q4_Sales": [["Product", "Units"], ["Widget", 7]]})
    write_notebook(data / "n.ipynb")
    docs = SimpleDirectoryReader(str(data), file_extractor=li_reader.file_extractor()).load_data()
    assert len(docs) == 5  # the sheet chunk, three cells, the plot
    for doc in docs:
        for keys in (doc.excluded_embed_metadata_keys, doc.excluded_llm_metadata_keys):
            assert len(keys) == len(set(keys)), keys
            # SDR's file keys are hidden (by SDR, once); docread's bookkeeping by the reader
            assert {"file_type", "file_size", "creation_date", "source", "extractor"} <= set(keys)
    [sheet] = [d for d in docs if d.metadata["file_name"] == "book.xlsx"]
    embed = sheet.get_content(MetadataMode.EMBED)
    assert embed.count("Q4_Sales") == 1 and "Sheet: Q4_Sales" in embed
    assert "| Widget | 7 |" in embed and "file_size" not in embed and "extractor" not in embed
    assert f"file_path: {data / 'book.xlsx'}" in embed  # SDR's one key kept for embedding
    llm = sheet.get_content(MetadataMode.LLM)
    assert "sheet: Q4_Sales" in llm and "row_start: 1" in llm and "creation_date" not in llm


def test_extra_info_is_merged_and_wins_but_none_never_erases(
    tmp_path: Path, li_reader: DocReadReader
) -> None:
    nb = write_notebook(tmp_path / "n.ipynb")
    docs = li_reader.load_data(
        nb, extra_info={"project": "apollo", "file_name": "renamed.ipynb", "file_type": None}
    )
    assert all(d.metadata["project"] == "apollo" for d in docs)
    assert all(d.metadata["file_name"] == "renamed.ipynb" for d in docs)
    assert all(d.metadata["file_type"] == "application/x-ipynb+json" for d in docs)


def test_simple_directory_reader_with_file_extractor(
    tmp_path: Path, li_reader: DocReadReader
) -> None:
    from llama_index.core import SimpleDirectoryReader
    from llama_index.core.schema import ImageDocument

    data = tmp_path / "data"
    data.mkdir()
    write_notebook(data / "n.ipynb")
    write_pdf(data / "p.pdf", pages=2)
    (data / "pic.png").write_bytes(png_bytes())
    mapping = li_reader.file_extractor()
    assert {".pdf", ".xlsx", ".ipynb", ".png", ".gz", ".sqlite"} <= mapping.keys()
    docs = SimpleDirectoryReader(str(data), file_extractor=mapping).load_data()
    names = {d.metadata["file_name"] for d in docs}
    assert names == {"n.ipynb", "p.pdf", "pic.png"}
    pdf_docs = [d for d in docs if d.metadata["file_name"] == "p.pdf"]
    assert [d.metadata["page_label"] for d in pdf_docs] == ["1", "2"]
    assert any(isinstance(d, ImageDocument) for d in docs)
    assert all(d.id_ and "_part_" not in d.id_ for d in docs)  # our stable ids, not SDR's


def test_a_broken_file_and_an_unknown_type_do_not_stop_the_rest(
    tmp_path: Path, li_reader: DocReadReader, capsys: pytest.CaptureFixture[str]
) -> None:
    from llama_index.core import SimpleDirectoryReader

    data = tmp_path / "data"
    data.mkdir()
    write_notebook(data / "good.ipynb")
    (data / "broken.pdf").write_bytes(b"%PDF-1.7\n garbage that is no pdf at all")
    (data / "notes.unknownext").write_text("plain words in an unknown type", encoding="utf-8")
    docs = SimpleDirectoryReader(str(data), file_extractor=li_reader.file_extractor()).load_data()
    names = {d.metadata["file_name"] for d in docs}
    assert names == {"good.ipynb", "notes.unknownext"}
    assert "broken.pdf" in capsys.readouterr().out  # SDR says which file it skipped, and why


def test_a_bad_file_raises_a_typed_error(tmp_path: Path) -> None:
    from llama_index_docread import DocReadReader

    bad = tmp_path / "broken.pdf"
    bad.write_bytes(b"%PDF-1.7\n garbage")
    with pytest.raises(docread.ExtractionError, match="broken.pdf"):
        DocReadReader().load_data(bad)


def test_a_missing_dependency_skips_only_that_file_in_simple_directory_reader(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from llama_index.core import SimpleDirectoryReader

    from llama_index_docread import DocReadReader, FileDependencyError

    data = tmp_path / "data"
    data.mkdir()
    (data / "scan.png").write_bytes(png_bytes((60, 20), "white"))
    (data / "notes.md").write_text("# Notes\nkept words\n", encoding="utf-8")
    # OCR in a language whose tesseract data is not installed: a real DependencyMissingError
    reader = DocReadReader(
        ocr=True, config={"pdf": {"ocr_languages": "qya"}, "cache": {"enabled": False}}
    )
    with pytest.raises(FileDependencyError, match="tesseract-ocr-qya") as info:
        reader.load_data(data / "scan.png")
    assert not isinstance(info.value, ImportError)  # SDR aborts a whole load on any ImportError
    assert isinstance(info.value.__cause__, docread.DependencyMissingError)
    docs = SimpleDirectoryReader(str(data), file_extractor=reader.file_extractor()).load_data()
    assert {d.metadata["file_name"] for d in docs} == {"notes.md"}
    assert "scan.png" in capsys.readouterr().out


def test_on_error_skip_logs_and_yields_nothing(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    from llama_index_docread import DocReadReader

    bad = tmp_path / "broken.pdf"
    bad.write_bytes(b"%PDF-1.7\n garbage")
    with caplog.at_level(logging.INFO, logger="docread"):
        assert DocReadReader(on_error="skip").load_data(bad) == []
    [record] = caplog.records
    assert record.levelno == logging.INFO and "broken.pdf" in record.message


def test_a_bad_read_option_fails_at_construction() -> None:
    from llama_index_docread import DocReadReader

    with pytest.raises(docread.InvalidOptionError, match="pagez"):
        DocReadReader(pagez="1-2")
    with pytest.raises(docread.InvalidOptionError, match="pages"):
        DocReadReader(pages="9-3")


def test_reader_pickles_and_loads_with_two_workers(tmp_path: Path) -> None:
    from llama_index.core import SimpleDirectoryReader

    from llama_index_docread import DocReadReader

    reader = DocReadReader(media_dir=tmp_path / "media", pages="1")
    clone = pickle.loads(pickle.dumps(reader))
    assert clone.read_options == {"pages": "1"} and clone.media_dir == str(tmp_path / "media")
    data = tmp_path / "data"
    data.mkdir()
    write_pdf(data / "a.pdf", pages=2)
    write_pdf(data / "b.pdf", pages=2)
    docs = SimpleDirectoryReader(str(data), file_extractor={".pdf": reader}).load_data(
        num_workers=2
    )
    assert sorted((d.metadata["file_name"], d.metadata["page_label"]) for d in docs) == [
        ("a.pdf", "1"),
        ("b.pdf", "1"),
    ]


async def test_async_load(tmp_path: Path, li_reader: DocReadReader) -> None:
    nb = write_notebook(tmp_path / "n.ipynb")
    docs = await li_reader.aload_data(nb)
    assert [d.id_ for d in docs] == [d.id_ for d in li_reader.load_data(nb)]


def test_fsspec_memory_filesystem(li_reader: DocReadReader) -> None:
    import fsspec
    from llama_index.core.schema import MetadataMode

    fs = fsspec.filesystem("memory")
    fs.pipe("/bucket/notes.md", b"# Title\n\nremote words here\n")
    docs = li_reader.load_data("/bucket/notes.md", fs=fs)
    assert "remote words here" in docs[0].text
    assert docs[0].metadata["file_path"] == "/bucket/notes.md"
    assert docs[0].metadata["source"] == "/bucket/notes.md"  # the remote path, not the temp copy
    assert docs[0].metadata["file_name"] == "notes.md"
    embed = docs[0].get_content(MetadataMode.EMBED)  # read alone: the reader hides its file keys
    assert "file_name: notes.md" in embed and "file_size" not in embed and "/tmp" not in embed
    extra = {"file_path": "s3://bucket/notes.md", "file_size": 28}  # as SDR passes it for an fs
    [doc] = li_reader.load_data("/bucket/notes.md", extra_info=extra, fs=fs)
    assert doc.metadata["file_path"] == "s3://bucket/notes.md"
    assert "file_size" not in doc.excluded_embed_metadata_keys  # SDR appends its own keys
    fs.rm("/bucket/notes.md")


def test_a_local_fsspec_filesystem_gets_the_workspace_rules(
    tmp_path: Path, li_reader: DocReadReader
) -> None:
    """A DirFileSystem over this machine's disk is local, not remote: its folder is the
    workspace, a link out of it is refused (``fs.open`` followed it and read the file outside),
    and a file in it reads as a local file, under its path in that folder."""
    from fsspec.implementations.dirfs import DirFileSystem
    from fsspec.implementations.local import LocalFileSystem

    work, outside = tmp_path / "work", tmp_path / "outside"
    work.mkdir()
    outside.mkdir()
    (outside / "secret.md").write_text("the secret outside the workspace\n")
    (work / "link.md").symlink_to(outside / "secret.md")
    (work / "notes.md").write_text("# Notes\n\nlocal words here\n")
    fs = DirFileSystem(path=str(work), fs=LocalFileSystem())
    assert fs.cat_file("link.md") == b"the secret outside the workspace\n"  # fsspec follows it
    with pytest.raises(docread.PathSecurityError, match="link.md"):
        li_reader.load_data("link.md", fs=fs)
    [doc] = li_reader.load_data("/notes.md", fs=fs)
    assert "local words here" in doc.text
    assert doc.metadata["source"] == "notes.md"
    assert doc.metadata["file_path"] == str(work / "notes.md")


def test_sentence_splitter_accepts_the_documents(tmp_path: Path, li_reader: DocReadReader) -> None:
    from llama_index.core.node_parser import SentenceSplitter
    from llama_index.core.schema import Document

    pdf = write_pdf(tmp_path / "topics.pdf", pages=2)
    nodes = SentenceSplitter(chunk_size=128, chunk_overlap=0).get_nodes_from_documents(
        li_reader.load_data(pdf)
    )
    assert len(nodes) == 2 and nodes[1].metadata["page_label"] == "2"
    assert all(isinstance(d, Document) for d in li_reader.load_data(pdf))


def test_ingestion_pipeline_upserts_instead_of_duplicating(tmp_path: Path) -> None:
    from llama_index.core.embeddings import MockEmbedding
    from llama_index.core.ingestion import IngestionPipeline
    from llama_index.core.node_parser import SentenceSplitter
    from llama_index.core.readers.base import ReaderConfig
    from llama_index.core.storage.docstore import SimpleDocumentStore
    from llama_index.core.vector_stores import SimpleVectorStore

    from llama_index_docread import DocReadReader

    nb = write_notebook(tmp_path / "n.ipynb")
    reader = DocReadReader(media_dir=tmp_path / "media")
    pipeline = IngestionPipeline(
        readers=[ReaderConfig(reader=reader, reader_args=[str(nb)])],
        transformations=[
            SentenceSplitter(chunk_size=256, chunk_overlap=0),
            MockEmbedding(embed_dim=8),
        ],
        docstore=SimpleDocumentStore(),
        vector_store=SimpleVectorStore(),
    )
    first = pipeline.run()
    assert len(first) == 4  # three cells and the plot
    assert pipeline.run() == []  # a fresh load of the same file: same ids and hashes, nothing new
    assert set(pipeline.docstore.docs) == {d.id_ for d in reader.load_data(nb)}


def test_a_directory_loads_every_file_and_reports_the_broken_one(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    from llama_index_docread import DocReadReader

    data = tmp_path / "data"
    (data / "sub").mkdir(parents=True)
    write_notebook(data / "sub" / "n.ipynb")
    (data / "a.md").write_text("# A\nalpha words\n", encoding="utf-8")
    (data / "broken.pdf").write_bytes(b"%PDF-1.7\n garbage")
    with caplog.at_level(logging.WARNING, logger="docread"):
        docs = DocReadReader(media_dir=tmp_path / "media").load_data(data)
    assert {d.metadata["file_name"] for d in docs} == {"a.md", "n.ipynb"}
    assert all(d.metadata["creation_date"] for d in docs)
    assert "broken.pdf" in caplog.text  # found in the folder: logged, the others go on
    with pytest.raises(docread.ExtractionError, match="broken.pdf"):
        DocReadReader(on_error="raise", media_dir=tmp_path / "media").load_data(data)


def test_visual_view_gives_one_image_document_per_page(tmp_path: Path) -> None:
    from llama_index.core.schema import ImageDocument

    from llama_index_docread import DocReadReader

    pdf = write_pdf(tmp_path / "topics.pdf", pages=2)
    docs = DocReadReader(view="visual", media_dir=tmp_path / "media").load_data(pdf)
    images = [d for d in docs if isinstance(d, ImageDocument)]
    assert [d.metadata["page_label"] for d in images] == ["1", "2"]
    assert all(
        d.image_mimetype.startswith("image/") and Path(d.image_path).is_file() for d in images
    )
    assert all(Path(d.image_path).parent == tmp_path / "media" for d in images)
    assert len({d.id_ for d in docs}) == len(docs)


# -- an error is logged once, where it is handled --------------------------------------------------
def test_llamaindex_warn_logs_a_failing_folder_file_once(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    from llama_index_docread import DocReadReader

    data = folder_with_broken_notebook(tmp_path)
    with caplog.at_level(logging.DEBUG):
        docs = DocReadReader(on_error="warn", config=NO_CACHE).load_data(data)
    assert {d.metadata["file_name"] for d in docs} == {"a.txt", "b.md"}
    warned = [r for r in caplog.records if r.levelno >= logging.WARNING]
    assert len(warned) == 2 and "broken.ipynb" in warned[0].getMessage()  # the file, then
    assert "1 of 3 file(s) failed" in warned[1].getMessage()  # the load's summary
