"""DocReadNodeParser: docread's chunker as a LlamaIndex NodeParser, so the nodes of DocReadReader
Documents have the ids the LangChain loader gives the same chunks (upserts in an
IngestionPipeline, one id scheme across frameworks)."""

from __future__ import annotations

from collections.abc import Sequence
from itertools import groupby
from typing import Any

import docread
from docread.integrations.adapters import Chunker
from llama_index.core.node_parser import NodeParser
from llama_index.core.node_parser.node_utils import IdFuncCallable, build_nodes_from_splits
from llama_index.core.schema import BaseNode, MetadataMode, TextNode
from llama_index.core.utils import get_tqdm_iterable
from pydantic import Field, PrivateAttr

from .reader import flat_headings, listed_headings

#: What a chunk adds to its document's metadata: bookkeeping, kept out of embed and LLM text.
CHUNK_KEYS = ("chunk_index", "chunk_count", "char_start")
#: Where a chunk is: in the LLM text (to cite it), not in the embedding.
PAGE_KEYS = ("page_start", "page_end")


class DocReadNodeParser(NodeParser):
    """Chunks DocReadReader Documents with ``docread.rag.chunking.Chunker``: ``chunk_size``
    characters, ``chunk_overlap`` repeated (at most half), on paragraph > line > sentence > word
    boundaries; markdown Documents (PDF, office, HTML, tables, .md) by section, a node running on
    over the next pages of its section (``sections=False``: each Document on its own), table
    rows whole with the header repeated. Node ids are the chunker's, so an unchanged section
    keeps its node ids; each node's SOURCE is the Document it starts in, and ``chunk_index`` /
    ``chunk_count`` / ``char_start`` / ``page_start`` / ``page_end`` join its metadata.

    ``headings`` (the heading path) is metadata as one string, " > "-joined (vector stores take
    flat metadata only): in the LLM text always (it says where the chunk is, like
    ``page_label``), in the embedding text with ``contextualize`` (default: the node's own text
    stays as read; its embedding knows its section, as docling's HybridChunker.contextualize).
    ImageDocuments become one ImageNode each (same id rule)."""

    chunk_size: int = Field(default=1024, description="Chunk length in characters.")
    chunk_overlap: int = Field(default=0, description="Characters repeated between chunks.")
    sections: bool = Field(default=True, description="Chunk markdown Documents by section.")
    contextualize: bool = Field(default=True, description="Embed a node's heading path.")
    _chunker: Chunker = PrivateAttr()

    def __init__(
        self,
        chunk_size: int = 1024,
        chunk_overlap: int = 0,
        sections: bool = True,
        contextualize: bool = True,
        **kwargs: Any,
    ) -> None:
        """Checks the sizes now (InvalidOptionError), not at the first document."""
        chunker = Chunker(chunk_size, chunk_overlap, sections=sections)
        # the fields are this class's: mypy types BaseModel.__init__ from the base's fields only
        super().__init__(  # type: ignore[call-arg]
            chunk_size=chunk_size,
            chunk_overlap=chunk_overlap,
            sections=sections,
            contextualize=contextualize,
            **kwargs,
        )
        self._chunker = chunker

    @classmethod
    def class_name(cls) -> str:
        return "DocReadNodeParser"

    def _parse_nodes(
        self, nodes: Sequence[BaseNode], show_progress: bool = False, **kwargs: Any
    ) -> list[BaseNode]:
        parents = {node.node_id: node for node in nodes}
        units = (_unit(n) for n in get_tqdm_iterable(nodes, show_progress, "Parsing nodes"))
        out: list[BaseNode] = []
        for parent_id, group in groupby(self._chunker.with_units(units), lambda p: p[1].id):
            parent = parents[parent_id]
            chunks = [chunk for chunk, _ in group]
            built = build_nodes_from_splits(
                [c.text for c in chunks], parent, id_func=_ids_of(chunks)
            )
            for chunk, child in zip(chunks, built, strict=True):
                self._describe(child, chunk, parent)
            out.extend(built)
        return out

    def _describe(self, child: BaseNode, chunk: docread.Document, parent: BaseNode) -> None:
        """The child's metadata (its document's, then the chunk's keys and heading path) and
        which keys each text shows."""
        meta = chunk.metadata
        extra = {k: meta[k] for k in (*CHUNK_KEYS, *PAGE_KEYS) if k in meta}
        child.metadata = {**parent.metadata, **extra}
        shown = {"headings", *PAGE_KEYS}
        embed_out = [*CHUNK_KEYS, *PAGE_KEYS]
        if "headings" in meta:
            child.metadata["headings"] = flat_headings(meta["headings"])
            if not self.contextualize:
                embed_out.append("headings")
        child.excluded_embed_metadata_keys = [
            *(k for k in parent.excluded_embed_metadata_keys if k not in shown),
            *(k for k in embed_out if k in child.metadata),
        ]
        child.excluded_llm_metadata_keys = [
            *(k for k in parent.excluded_llm_metadata_keys if k not in shown),
            *CHUNK_KEYS,
        ]
        start, end = meta["char_start"], meta["char_start"] + len(chunk.text)
        if isinstance(child, TextNode) and parent.get_content()[start:end] == chunk.text:
            child.start_char_idx, child.end_char_idx = start, end  # a slice of its document


def _unit(node: BaseNode) -> docread.Document:
    """A node as the core's Document: its text, metadata (``headings`` as the core's list) and id."""
    meta = dict(node.metadata)
    if isinstance(meta.get("headings"), str):
        meta["headings"] = listed_headings(meta["headings"])
    return docread.Document(node.get_content(metadata_mode=MetadataMode.NONE), meta, node.node_id)


def _ids_of(chunks: list[docread.Document]) -> IdFuncCallable:
    """The ``id_func`` giving the i-th node its chunk's id."""

    def node_id(i: int, doc: BaseNode) -> str:
        return chunks[i].id

    return node_id
