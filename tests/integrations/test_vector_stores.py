"""Chunks of every format of the shared corpus through real embedded vector stores, as a new
user's first RAG script sends them: LangChain's loader into Chroma and Qdrant, LlamaIndex's reader
and DocReadNodeParser into their Chroma and Qdrant vector stores. Embedded stores only (an
ephemeral Chroma client with telemetry off, Qdrant ``:memory:``), deterministic fake embeddings
(the store is what is tested), and no socket to the network. The corpus is read once for the
module: one file of each format (the smallest), LangChain first, LlamaIndex from the cache. The
stores and the frameworks are imported by the fixtures and tests that use them (LlamaIndex alone
is seconds of imports every test process would pay when collecting the suite)."""

from __future__ import annotations

import math
import shutil
import socket
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest
from conftest import CORPUS, corpus_rows

if TYPE_CHECKING:
    from langchain_core.documents import Document
    from llama_index.core import VectorStoreIndex
    from llama_index.core.schema import BaseNode

pytestmark = pytest.mark.corpus

CHUNK = {"chunk_size": 800, "chunk_overlap": 100}
DIM = 16  # a small embedding: the store is what is tested
INT64 = 1 << 63


@pytest.fixture(scope="module", autouse=True)
def no_network() -> Iterator[None]:
    """Any Internet socket connect (telemetry, a model download) fails the test; the worker
    pool's Unix sockets go on."""
    real = socket.socket.connect

    def connect(self: socket.socket, address: Any) -> None:
        if self.family in (socket.AF_INET, socket.AF_INET6):
            raise AssertionError(f"a vector store test reached for the network: {address!r}")
        real(self, address)

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(socket.socket, "connect", connect)
        yield


@pytest.fixture(scope="module")
def folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A folder holding one file of each format of the corpus (its smallest), in its corpus
    subfolder; skipped without a corpus."""
    rows = corpus_rows()
    if not rows:
        pytest.skip(f"corpus not present at {CORPUS}")
    smallest: dict[str, dict[str, Any]] = {}
    for row in rows:
        fmt = str(row["format"])
        if fmt not in smallest or int(str(row["bytes"])) < int(str(smallest[fmt]["bytes"])):
            smallest[fmt] = row
    root = tmp_path_factory.mktemp("stores")
    for row in smallest.values():
        target = root / "corpus" / str(row["file"])
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(CORPUS / str(row["file"]), target)
    return root


@pytest.fixture(scope="module")
def config(folder: Path) -> dict[str, Any]:
    """One cache for both loaders: LlamaIndex reads what LangChain read from it."""
    return {"cache": {"directory": str(folder / "cache")}}


@pytest.fixture(scope="module")
def lc_docs(folder: Path, config: dict[str, Any]) -> list[Document]:
    """The LangChain chunks of every file (OCR off: pictures OCR'd cost seconds and test no
    store)."""
    from langchain_docread import DocReadLoader

    return DocReadLoader("corpus", workspace=folder, config=config, ocr=False, **CHUNK).load()


@pytest.fixture(scope="module")
def li_nodes(folder: Path, config: dict[str, Any], lc_docs: list[Document]) -> list[BaseNode]:
    """The LlamaIndex nodes of the same files (after ``lc_docs``: read from its cache)."""
    from llama_index_docread import DocReadNodeParser, DocReadReader

    reader = DocReadReader(workspace=folder, config=config, ocr=False)
    return DocReadNodeParser(**CHUNK).get_nodes_from_documents(reader.load_data("corpus"))


def loaded_file(meta: dict[str, Any]) -> str:
    """The corpus file a chunk comes from: its source, or the archive it is a member of."""
    return str(meta.get("archive") or meta["source"]).split("::")[0]


def expected_files(folder: Path) -> set[str]:
    return {str(p.relative_to(folder)) for p in (folder / "corpus").rglob("*") if p.is_file()}


def with_headings(docs: list[Any]) -> Any:
    """The first chunk, in load order, that has a heading path and a text no other chunk has
    (an archive may hold a copy of a file loaded on its own)."""
    texts = Counter(text_of(d) for d in docs)
    return next(d for d in docs if d.metadata.get("headings") and texts[text_of(d)] == 1)


def text_of(doc: Any) -> str:
    """A LangChain Document's or a LlamaIndex node's text."""
    from langchain_core.documents import Document

    return doc.page_content if isinstance(doc, Document) else doc.get_content()


def storable(value: Any) -> bool:
    """A scalar every common store keeps as given: no None, no NaN, a 64-bit integer."""
    if isinstance(value, bool | str):
        return True
    if isinstance(value, int):
        return -INT64 <= value < INT64
    return isinstance(value, float) and math.isfinite(value)


def test_every_format_of_the_corpus_gives_chunks(folder, lc_docs, li_nodes):
    files = expected_files(folder)
    assert len(files) >= 40  # one per format of the corpus
    assert {loaded_file(d.metadata) for d in lc_docs} == files
    assert {loaded_file(n.metadata) for n in li_nodes} == files


def test_langchain_metadata_is_what_every_store_takes(lc_docs):
    """Scalars, and ``headings`` a non-empty list of strings (Chroma from 1.5, Qdrant, FAISS and
    InMemoryVectorStore take it; Chroma refuses an empty list or one of mixed types), absent
    where a chunk has no heading path."""
    for doc in lc_docs:
        for key, value in doc.metadata.items():
            if key == "headings":
                assert value and all(isinstance(h, str) and h.strip() for h in value), doc.metadata
            else:
                assert storable(value), (key, value, doc.metadata["source"])
    assert any("headings" in d.metadata for d in lc_docs)
    assert any("headings" not in d.metadata for d in lc_docs)


def test_llamaindex_metadata_is_flat(li_nodes):
    """LlamaIndex's flat stores (Chroma) take str, int, float and None only: no list at all."""
    for node in li_nodes:
        for key, value in node.metadata.items():
            assert storable(value), (key, value, node.metadata["source"])
    assert isinstance(with_headings(li_nodes).metadata["headings"], str)


def chroma_client() -> Any:
    """An in-memory Chroma, telemetry off."""
    import chromadb
    from chromadb.config import Settings

    return chromadb.EphemeralClient(Settings(anonymized_telemetry=False))


def test_langchain_chroma_takes_every_chunk_and_finds_one_by_its_heading_path(folder, lc_docs):
    from langchain_chroma import Chroma
    from langchain_core.embeddings import DeterministicFakeEmbedding

    client = chroma_client()
    embedding = DeterministicFakeEmbedding(size=DIM)
    store = Chroma.from_documents(lc_docs, embedding, client=client, collection_name="lc-docread")
    stored = client.get_collection("lc-docread").get(include=["metadatas"])
    assert len(stored["ids"]) == len(lc_docs)
    assert {loaded_file(m) for m in stored["metadatas"]} == expected_files(folder)
    wanted = with_headings(lc_docs)
    [hit] = store.similarity_search(wanted.page_content, k=1)  # the same text: the same vector
    assert (hit.id, hit.metadata["headings"]) == (wanted.id, wanted.metadata["headings"])
    last = wanted.metadata["headings"][-1]
    under = store.similarity_search("x", k=5, filter={"headings": {"$contains": last}})
    assert under and all(last in d.metadata["headings"] for d in under)


def test_langchain_qdrant_takes_every_chunk_and_finds_one_by_its_heading_path(folder, lc_docs):
    from langchain_core.embeddings import DeterministicFakeEmbedding
    from langchain_qdrant import QdrantVectorStore
    from qdrant_client import models

    embedding = DeterministicFakeEmbedding(size=DIM)
    store = QdrantVectorStore.from_documents(
        lc_docs, embedding, location=":memory:", collection_name="lc-docread"
    )
    assert store.client.count("lc-docread").count == len(lc_docs)
    wanted = with_headings(lc_docs)
    [hit] = store.similarity_search(wanted.page_content, k=1)
    assert hit.metadata["_id"] == wanted.id
    assert hit.metadata["headings"] == wanted.metadata["headings"]
    last = wanted.metadata["headings"][-1]
    match = models.FieldCondition(key="metadata.headings", match=models.MatchValue(value=last))
    under = store.similarity_search("x", k=5, filter=models.Filter(must=[match]))
    assert under and all(last in d.metadata["headings"] for d in under)


def llama_index_of(store: Any, nodes: list[BaseNode]) -> VectorStoreIndex:
    """A VectorStoreIndex of the text nodes in ``store``. ImageNodes are left out: over a store
    that keeps text, llama-index-core 0.14's retriever then searches only the ImageNodes it was
    given (``as_retriever``: ``node_ids`` from the index struct, which holds just those), so a
    Qdrant index of a folder with one picture finds nothing else; they go to a multimodal
    index."""
    from llama_index.core import StorageContext, VectorStoreIndex
    from llama_index.core.embeddings import MockEmbedding
    from llama_index.core.schema import ImageNode

    texts = [n for n in nodes if not isinstance(n, ImageNode)]
    assert len(texts) < len(nodes)  # the corpus has pictures
    context = StorageContext.from_defaults(vector_store=store)
    return VectorStoreIndex(
        texts, storage_context=context, embed_model=MockEmbedding(embed_dim=DIM)
    )


def heading_search(index: VectorStoreIndex, nodes: list[BaseNode]) -> None:
    """Every node under one heading path, found by it (MockEmbedding: the filter decides)."""
    from llama_index.core.vector_stores import MetadataFilter, MetadataFilters

    path = with_headings(nodes).metadata["headings"]
    wanted = {n.node_id for n in nodes if n.metadata.get("headings") == path}
    filters = MetadataFilters(filters=[MetadataFilter(key="headings", value=path)])
    hits = index.as_retriever(similarity_top_k=len(wanted) + 5, filters=filters).retrieve("x")
    assert {h.node.node_id for h in hits} == wanted
    assert all(h.node.metadata["headings"] == path for h in hits)


def test_llamaindex_chroma_takes_every_node_and_finds_one_by_its_heading_path(folder, li_nodes):
    from llama_index.core.schema import ImageNode
    from llama_index.vector_stores.chroma import ChromaVectorStore

    collection = chroma_client().create_collection("li-docread")
    index = llama_index_of(ChromaVectorStore(chroma_collection=collection), li_nodes)
    stored = collection.get(include=["metadatas"])
    texts = [n for n in li_nodes if not isinstance(n, ImageNode)]
    assert sorted(stored["ids"]) == sorted(n.node_id for n in texts)
    assert {loaded_file(m) for m in stored["metadatas"]} == {loaded_file(n.metadata) for n in texts}
    heading_search(index, li_nodes)


@pytest.mark.filterwarnings("ignore:Payload indexes have no effect in the local Qdrant")
def test_llamaindex_qdrant_takes_every_node_and_finds_one_by_its_heading_path(li_nodes):
    from llama_index.core.schema import ImageNode
    from llama_index.vector_stores.qdrant import QdrantVectorStore
    from qdrant_client import QdrantClient

    client = QdrantClient(location=":memory:")
    index = llama_index_of(QdrantVectorStore(client=client, collection_name="li-docread"), li_nodes)
    texts = [n for n in li_nodes if not isinstance(n, ImageNode)]
    assert client.count("li-docread").count == len(texts)
    heading_search(index, li_nodes)
