"""Re-indexing through the real framework objects (issue 19): LangChain ``index()`` with a record
manager over DocReadLoader chunks, a LlamaIndex IngestionPipeline over DocReadNodeParser nodes,
and pictures as Documents (``images="base64" | "path"``) in an offline multimodal store."""

from __future__ import annotations

import base64
import hashlib
from collections.abc import Iterable
from pathlib import Path
from typing import Any

import docread
import pytest
from conftest import NO_CACHE
from docread.rag.chunking import Chunker
from factories import code, display_png, image_bytes, notebook, pdf
from langchain_core.documents import Document
from langchain_core.embeddings import DeterministicFakeEmbedding, Embeddings
from langchain_core.indexing import InMemoryRecordManager, index
from langchain_core.vectorstores import InMemoryVectorStore

from langchain_docread import DocReadLoader

PAGES = [
    "Page one talks about pumps. " * 12,
    "Page two talks about seals. " * 12,
    "Page three talks about warranty. " * 12,
]
EDITED = [PAGES[0], "Page two now talks about gaskets. " * 12, PAGES[2]]


@pytest.fixture
def docs(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A folder: a three-page PDF manual and a markdown FAQ; the current directory holds it (so
    ``source`` is "docs/manual.pdf", as the loaders show a path inside the current folder)."""
    monkeypatch.chdir(tmp_path)
    folder = tmp_path / "docs"
    folder.mkdir()
    pdf(folder / "manual.pdf", PAGES)
    (folder / "faq.md").write_text(
        "# FAQ\n\nShipping takes five days.\n\nReturns are free within 30 days.\n"
    )
    return folder


def _page_ids(docs: Iterable[Document], page: int) -> set[str | None]:
    return {d.id for d in docs if d.metadata.get("page") == page}


# -- LangChain: index() + RecordManager --------------------------------------------------------
def test_langchain_index_rewrites_only_what_changed(docs: Path) -> None:
    manager = InMemoryRecordManager(namespace="docread")
    manager.create_schema()
    store = InMemoryVectorStore(DeterministicFakeEmbedding(size=16))
    loader = DocReadLoader(docs, chunk_size=120, chunk_overlap=20, config=NO_CACHE)
    chunks = loader.load()
    # 11: each PDF page is one paragraph (pdf.structure joins its wrapped lines)
    assert all(c.id for c in chunks) and len({c.id for c in chunks}) == len(chunks) == 11

    def run(cleanup: str = "incremental") -> dict[str, int]:
        return dict(
            index(
                loader, manager, store, cleanup=cleanup,  # type: ignore[arg-type]
                source_id_key="source", key_encoder=lambda doc: str(doc.id),
            )
        )  # fmt: skip

    assert run() == {"num_added": 11, "num_updated": 0, "num_skipped": 0, "num_deleted": 0}
    assert run() == {"num_added": 0, "num_updated": 0, "num_skipped": 11, "num_deleted": 0}
    assert len(store.store) == 11 and set(store.store) == {c.id for c in chunks}

    pdf(docs / "manual.pdf", EDITED)  # one page of three changes
    edited = loader.load()
    old2, new2 = _page_ids(chunks, 1), _page_ids(edited, 1)
    assert _page_ids(edited, 0) == _page_ids(chunks, 0) and _page_ids(edited, 2) == _page_ids(
        chunks, 2
    )
    assert not old2 & new2
    assert run() == {
        "num_added": len(new2),
        "num_updated": 0,
        "num_skipped": 11 - len(old2),
        "num_deleted": len(old2),
    }
    assert set(store.store) == {c.id for c in edited}

    (docs / "faq.md").unlink()  # a file that disappears: its source is in no batch any more,
    assert run()["num_deleted"] == 0  # so "incremental" cannot see it;
    assert run("full")["num_deleted"] == 1  # "full" (the loader reads the whole corpus) does
    assert set(store.store) == {c.id for c in edited if c.metadata["source"] != "docs/faq.md"}


def test_a_plain_vector_store_upserts_chunks(docs: Path) -> None:
    store = InMemoryVectorStore(DeterministicFakeEmbedding(size=8))
    loader = DocReadLoader(docs, chunk_size=120, config=NO_CACHE)
    store.add_documents(loader.load())
    store.add_documents(loader.load())  # the same ids: overwritten, not duplicated
    assert len(store.store) == len(loader.load()) > 5


def test_the_parser_chunks_like_the_loader(docs: Path) -> None:
    from langchain_core.document_loaders import Blob

    from langchain_docread import DocReadParser

    parser = DocReadParser(workspace=docs.parent, chunk_size=120, config=NO_CACHE)
    parsed = parser.parse(Blob.from_path(docs / "manual.pdf"))
    loaded = DocReadLoader(docs / "manual.pdf", chunk_size=120, workspace=docs.parent).load()
    assert [d.id for d in parsed] == [d.id for d in loaded] and len(parsed) > 3
    assert {d.metadata["page"] for d in parsed} == {0, 1, 2}


def test_chunk_arguments_are_checked_when_the_loader_is_made(docs: Path) -> None:
    with pytest.raises(docread.InvalidOptionError, match="chunk_overlap=50"):
        DocReadLoader(docs, chunk_size=50, chunk_overlap=50)
    with pytest.raises(docread.InvalidOptionError, match="chunk_overlap=5 needs chunk_size"):
        DocReadLoader(docs, chunk_overlap=5)
    with pytest.raises(docread.InvalidOptionError, match="images='png'"):
        DocReadLoader(docs, images="png")  # type: ignore[arg-type]


# -- LlamaIndex: IngestionPipeline -------------------------------------------------------------
def test_node_parser_arguments_are_checked_when_it_is_made() -> None:
    from llama_index_docread import DocReadNodeParser

    with pytest.raises(docread.InvalidOptionError, match="chunk_size=0"):
        DocReadNodeParser(chunk_size=0)
    with pytest.raises(docread.InvalidOptionError, match="chunk_overlap=300"):
        DocReadNodeParser(chunk_size=200, chunk_overlap=300)


def test_llamaindex_ingestion_pipeline_upserts_with_the_same_ids(docs: Path) -> None:
    from llama_index.core import SimpleDirectoryReader
    from llama_index.core.embeddings import MockEmbedding
    from llama_index.core.ingestion import DocstoreStrategy, IngestionPipeline
    from llama_index.core.schema import ImageNode, NodeRelationship
    from llama_index.core.storage.docstore import SimpleDocumentStore
    from llama_index.core.vector_stores import SimpleVectorStore

    from llama_index_docread import DocReadNodeParser, DocReadReader

    (docs / "photo.png").write_bytes(image_bytes())
    reader = DocReadReader(media_dir=docs.parent / "media", config=NO_CACHE)

    def load() -> list[Any]:
        return SimpleDirectoryReader("docs", file_extractor=reader.file_extractor()).load_data()

    vectors = SimpleVectorStore()
    pipeline = IngestionPipeline(
        transformations=[DocReadNodeParser(chunk_size=120, chunk_overlap=20), MockEmbedding(8)],
        docstore=SimpleDocumentStore(),
        vector_store=vectors,
        docstore_strategy=DocstoreStrategy.UPSERTS_AND_DELETE,
    )
    first = pipeline.run(documents=load())
    stored = set(vectors.data.embedding_dict)
    assert stored == {n.node_id for n in first} and len(first) > 11
    assert sum(isinstance(n, ImageNode) for n in first) == 1
    # the nodes of a page are the LangChain loader's chunks of that page, id for id
    lc = DocReadLoader("docs/manual.pdf", chunk_size=120, chunk_overlap=20, config=NO_CACHE)
    manual = [n for n in first if n.metadata["source"] == "docs/manual.pdf"]
    assert [n.node_id for n in manual] == [d.id for d in lc.load()]
    assert manual[0].metadata["file_path"] == str(docs / "manual.pdf")
    page1 = next(n for n in manual if n.metadata["page_label"] == "1")
    parent = page1.relationships[NodeRelationship.SOURCE]
    assert parent.node_id in {d.id_ for d in load()} and page1.ref_doc_id == parent.node_id
    assert "chunk_index" in page1.excluded_embed_metadata_keys

    assert pipeline.run(documents=load()) == []  # unchanged: nothing re-embedded
    assert set(vectors.data.embedding_dict) == stored

    pdf(docs / "manual.pdf", EDITED)
    pipeline.run(documents=load())
    after = set(vectors.data.embedding_dict)
    new_manual = [d.id for d in lc.load()]
    assert after == (stored - {n.node_id for n in manual}) | set(new_manual)  # no duplicates
    kept = {n.node_id for n in manual if n.metadata["page_label"] != "2"}
    assert kept <= after  # the pages that did not change kept their node ids

    photo = {n.node_id for n in first if n.metadata["source"] == "docs/photo.png"}
    assert photo <= after and len(photo) >= 2  # its text and its picture
    (docs / "photo.png").unlink()  # UPSERTS_AND_DELETE: what the run no longer has is removed
    pipeline.run(documents=load())
    assert set(vectors.data.embedding_dict) == after - photo


# -- pictures: images="base64" | "path" in an offline multimodal store --------------------------
class BytesEmbedding(Embeddings):
    """A tiny deterministic 'multimodal' embedding: a data URL or an image file embeds its
    decoded bytes, anything else its text (exact-match retrieval: enough to prove what went in)."""

    def embed_documents(self, texts: list[str]) -> list[list[float]]:
        return [self.embed_query(t) for t in texts]

    def embed_query(self, text: str) -> list[float]:
        if text.startswith("data:image/"):
            data = base64.b64decode(text.split(",", 1)[1])
        elif text.startswith("file:"):
            data = Path(text[5:]).read_bytes()
        else:
            data = text.encode()
        return [b / 255 for b in hashlib.sha256(data).digest()[:16]]


class MultimodalStore(InMemoryVectorStore):
    """An InMemoryVectorStore that embeds a Document's picture when it carries one."""

    def add_documents(self, documents: list[Document], **kwargs: Any) -> list[str]:
        inputs = [_embedding_input(d) for d in documents]
        vectors = self.embedding.embed_documents(inputs)
        for doc, vector in zip(documents, vectors, strict=True):
            self.store[str(doc.id)] = {
                "id": doc.id, "vector": vector, "text": doc.page_content, "metadata": doc.metadata,
            }  # fmt: skip
        return [str(d.id) for d in documents]


def _embedding_input(doc: Document) -> str:
    if "image_url" in doc.metadata:
        return str(doc.metadata["image_url"])
    if "image_path" in doc.metadata:
        return f"file:{doc.metadata['image_path']}"
    return doc.page_content


def _data_url(data: bytes, mime: str) -> str:
    return f"data:{mime};base64,{base64.b64encode(data).decode()}"


@pytest.fixture
def pictures(tmp_path: Path) -> Path:
    folder = tmp_path / "pics"
    folder.mkdir()
    (folder / "red.png").write_bytes(image_bytes(color=(200, 0, 0)))
    plot = image_bytes(color=(0, 0, 200))
    notebook(folder / "plot.ipynb", [code("plot(sales)", display_png(plot), count=1)])
    return folder


def test_default_images_text_keeps_only_the_pictures_text(pictures: Path) -> None:
    docs = DocReadLoader(pictures, config=NO_CACHE).load()
    assert docs and not any("image_url" in d.metadata or "image_path" in d.metadata for d in docs)
    assert any("red.png" in d.page_content for d in docs)


def test_images_base64_is_a_document_per_picture_with_a_data_url(pictures: Path) -> None:
    docs = DocReadLoader(pictures, images="base64", config=NO_CACHE).load()
    images = [d for d in docs if "image_url" in d.metadata]
    assert [d.metadata["source"] for d in images] == [
        str(pictures / "plot.ipynb"),
        str(pictures / "red.png"),
    ]
    plot, red = images
    assert red.metadata["image_url"] == _data_url((pictures / "red.png").read_bytes(), "image/png")
    assert red.metadata["image_mime_type"] == "image/png"
    # page_content stays the text read at the same place, so a text retriever finds it too
    text_doc = next(d for d in docs if d.metadata["source"] == red.metadata["source"] and d != red)
    assert red.page_content == text_doc.page_content and "red.png" in red.page_content
    assert plot.metadata["cell_index"] == 1 and "plot(sales)" in plot.page_content
    assert red.id and red.id not in {d.id for d in docs if d is not red}

    store = MultimodalStore(BytesEmbedding())
    store.add_documents(docs)
    query = BytesEmbedding().embed_query(_data_url(image_bytes(color=(0, 0, 200)), "image/png"))
    [hit] = store.similarity_search_by_vector(query, k=1)
    assert hit.id == plot.id  # found by its picture's bytes
    assert store.similarity_search("plot(sales)", k=1)  # and text documents still embed as text


def test_images_path_writes_each_picture_once_by_digest(pictures: Path, tmp_path: Path) -> None:
    media = tmp_path / "media"
    docs = DocReadLoader(pictures, images="path", media_dir=media, config=NO_CACHE).load()
    again = DocReadLoader(pictures, images="path", media_dir=media, config=NO_CACHE).load()
    images = [d for d in docs if "image_path" in d.metadata]
    assert [d.metadata["image_path"] for d in images] == [
        d.metadata["image_path"] for d in again if "image_path" in d.metadata
    ]
    plot, red = images
    assert red.metadata["image_path"] == str(pictures / "red.png")  # a picture file is its own
    written = Path(plot.metadata["image_path"])
    assert written.parent == media and written.suffix == ".png"
    assert written.stem == hashlib.sha256(written.read_bytes()).hexdigest()
    assert list(media.iterdir()) == [written]

    store = MultimodalStore(BytesEmbedding())
    store.add_documents(docs)
    query = BytesEmbedding().embed_query(_data_url(written.read_bytes(), "image/png"))
    assert store.similarity_search_by_vector(query, k=1)[0].id == plot.id


def test_pdf_page_images_with_view_visual(docs: Path, tmp_path: Path) -> None:
    loader = DocReadLoader(docs / "manual.pdf", view="visual", images="base64", config=NO_CACHE)
    pages = loader.load()
    assert [d.metadata["page"] for d in pages] == [0, 1, 2]
    assert all(d.metadata["image_url"].startswith("data:image/jpeg;base64,/9j/") for d in pages)
    assert "manual.pdf (page 2)" in pages[1].page_content
    by_path = DocReadLoader(
        docs / "manual.pdf", view="visual", images="path", media_dir=tmp_path / "m"
    ).load()
    for page, stored in zip(pages, by_path, strict=True):
        data = Path(stored.metadata["image_path"]).read_bytes()
        assert page.metadata["image_url"] == _data_url(data, "image/jpeg")
        assert page.id == stored.id
    store = MultimodalStore(BytesEmbedding())
    store.add_documents(pages)
    query = BytesEmbedding().embed_query(pages[2].metadata["image_url"])
    assert store.similarity_search_by_vector(query, k=1)[0].metadata["page"] == 2
    assert not DocReadLoader(docs / "manual.pdf", view="visual", config=NO_CACHE).load()


def test_remote_files_keep_their_remote_path_as_source_and_distinct_ids() -> None:
    import fsspec

    from llama_index_docread import DocReadReader

    fs = fsspec.filesystem("memory")
    fs.pipe("/bucket/a/notes.md", b"# Notes\n\nsame words\n")
    fs.pipe("/bucket/b/notes.md", b"# Notes\n\nsame words\n")
    reader = DocReadReader(config=NO_CACHE)
    try:
        a, b = (reader.load_data(p, fs=fs) for p in ("/bucket/a/notes.md", "/bucket/b/notes.md"))
        again = reader.load_data("/bucket/a/notes.md", fs=fs)
    finally:
        fs.rm("/bucket", recursive=True)
    assert {d.metadata["source"] for d in a} == {"/bucket/a/notes.md"}
    assert {d.metadata["source"] for d in b} == {"/bucket/b/notes.md"}
    assert [d.id_ for d in again] == [d.id_ for d in a]  # stable, not the temp copy's path
    assert not {d.id_ for d in a} & {d.id_ for d in b}  # one name, two files: two ids


# -- sections (issue 26.4): headings on chunks, contextualize, re-index by section --------------
GUIDE = {
    "Install": "Download the installer. Run it and accept the licence. " * 3,
    "Configure": "Open the settings file. Set the workspace and the cache folder. " * 3,
    "Use": "Point the loader at a folder. Every file comes back as chunks. " * 3,
}


def _guide(folder: Path, **changed: str) -> Path:
    body = "".join(f"## {title}\n\n{changed.get(title, text)}\n\n" for title, text in GUIDE.items())
    path = folder / "guide.md"
    path.write_text("# Guide\n\nWhat docread does, in short.\n\n" + body)
    return path


def test_langchain_chunks_carry_headings_and_reindex_by_section(docs: Path) -> None:
    _guide(docs)
    loader = DocReadLoader(docs / "guide.md", chunk_size=120, chunk_overlap=20, config=NO_CACHE)
    chunks = loader.load()
    assert {tuple(c.metadata["headings"]) for c in chunks} == {
        ("Guide",),
        ("Guide", "Install"),
        ("Guide", "Configure"),
        ("Guide", "Use"),
    }
    contextual = DocReadLoader(
        docs / "guide.md", chunk_size=120, chunk_overlap=20, contextualize=True, config=NO_CACHE
    ).load()
    assert [c.id for c in contextual] == [c.id for c in chunks]  # one chunk, one id
    for plain, ctx in zip(chunks, contextual, strict=True):
        assert (
            ctx.page_content == " > ".join(plain.metadata["headings"]) + "\n\n" + plain.page_content
        )
    flat = DocReadLoader(docs / "guide.md", chunk_size=120, chunk_sections=False, config=NO_CACHE)
    assert not any("headings" in c.metadata for c in flat.load())

    manager = InMemoryRecordManager(namespace="guide")
    manager.create_schema()
    store = InMemoryVectorStore(DeterministicFakeEmbedding(size=8))

    def run() -> dict[str, int]:
        return dict(index(loader, manager, store, cleanup="full", source_id_key="source",
                          key_encoder=lambda doc: str(doc.id)))  # fmt: skip

    assert run()["num_added"] == len(chunks)
    _guide(docs, Configure="Open the settings file and set only the workspace folder. " * 3)
    edited = loader.load()

    def of(docs_: list[Document], title: str) -> set[str | None]:
        return {d.id for d in docs_ if d.metadata["headings"][-1] == title}

    result = run()
    assert result["num_added"] == len(of(edited, "Configure"))
    assert result["num_deleted"] == len(of(chunks, "Configure"))
    assert result["num_skipped"] == len(chunks) - len(of(chunks, "Configure"))
    for title in ("Guide", "Install", "Use"):
        assert of(edited, title) == of(chunks, title)


def test_the_node_parser_carries_headings_flat_and_spans_pages() -> None:
    from llama_index.core.schema import Document as LlamaDocument
    from llama_index.core.schema import MetadataMode, NodeRelationship

    from llama_index_docread import DocReadNodeParser

    def page(n: int, text: str, headings: str) -> LlamaDocument:
        meta = {"source": "r.pdf", "extractor": "pdf", "page_number": n, "page_label": str(n),
                "headings": headings}  # fmt: skip
        return LlamaDocument(text=text, metadata=meta, id_=f"page-{n}")

    pages = [
        page(1, "# Report\n\n## Results\n\nRevenue grew in the first half.", ""),
        page(2, "Costs fell in the second half.\n\n## Outlook\n\nMore growth.", "Report > Results"),
    ]
    nodes = DocReadNodeParser(chunk_size=200).get_nodes_from_documents(pages)
    results = next(n for n in nodes if n.metadata["headings"] == "Report > Results")
    assert "Revenue grew" in results.get_content() and "Costs fell" in results.get_content()
    assert (results.metadata["page_start"], results.metadata["page_end"]) == (1, 2)
    assert results.relationships[NodeRelationship.SOURCE].node_id == "page-1"
    assert "headings: Report > Results" in results.get_content(MetadataMode.EMBED)
    assert "headings: Report > Results" in results.get_content(MetadataMode.LLM)
    assert "chunk_index" not in results.get_content(MetadataMode.EMBED)
    assert [n.metadata["headings"] for n in nodes] == [
        "Report",
        "Report > Results",
        "Report > Outlook",
    ]
    core = Chunker(200).chunks(
        docread.Document(p.text, {**p.metadata, "headings": [h for h in p.metadata["headings"].split(" > ") if h]}, p.id_)
        for p in pages
    )  # fmt: skip
    assert [n.node_id for n in nodes] == [c.id for c in core]  # LangChain's ids too

    plain = DocReadNodeParser(chunk_size=200, contextualize=False).get_nodes_from_documents(pages)
    assert "headings" not in plain[1].get_content(MetadataMode.EMBED)
    assert "headings: Report > Results" in plain[1].get_content(MetadataMode.LLM)
