"""DocReadNodeParser: docread's chunker as a LlamaIndex NodeParser, so the nodes of a
DocReadReader Document have the ids the LangChain loader gives the same chunks (upserts in an
IngestionPipeline, one id scheme across frameworks)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import docread
from docread.chunking import Chunker
from llama_index.core.node_parser import NodeParser
from llama_index.core.node_parser.node_utils import IdFuncCallable, build_nodes_from_splits
from llama_index.core.schema import BaseNode, MetadataMode, TextNode
from llama_index.core.utils import get_tqdm_iterable
from pydantic import Field, PrivateAttr

#: What a chunk adds to its document's metadata: bookkeeping, kept out of embed and LLM text.
CHUNK_KEYS = ("chunk_index", "chunk_count", "char_start")


class DocReadNodeParser(NodeParser):
    """Splits each Document (a page, a sheet chunk, a slide... from DocReadReader) on its own with
    ``docread.chunking.Chunker``: ``chunk_size`` characters, ``chunk_overlap`` repeated, on
    paragraph > line > sentence > word boundaries. Node ids are the chunker's (the document's id
    + chunk index + text hash), so an unchanged page keeps its node ids; each node's SOURCE is
    its document, and ``chunk_index`` / ``chunk_count`` / ``char_start`` join its metadata.
    ImageDocuments become one ImageNode each (same id rule)."""

    chunk_size: int = Field(default=1024, description="Chunk length in characters.")
    chunk_overlap: int = Field(default=0, description="Characters repeated between chunks.")
    _chunker: Chunker = PrivateAttr()

    def __init__(self, chunk_size: int = 1024, chunk_overlap: int = 0, **kwargs: Any) -> None:
        """Checks the sizes now (InvalidOptionError), not at the first document."""
        chunker = Chunker(chunk_size, chunk_overlap)
        # the fields are this class's: mypy types BaseModel.__init__ from the base's fields only
        super().__init__(chunk_size=chunk_size, chunk_overlap=chunk_overlap, **kwargs)  # type: ignore[call-arg]
        self._chunker = chunker

    @classmethod
    def class_name(cls) -> str:
        return "DocReadNodeParser"

    def _parse_nodes(
        self, nodes: Sequence[BaseNode], show_progress: bool = False, **kwargs: Any
    ) -> list[BaseNode]:
        out: list[BaseNode] = []
        for node in get_tqdm_iterable(nodes, show_progress, "Parsing nodes"):
            text = node.get_content(metadata_mode=MetadataMode.NONE)
            chunks = self._chunker.split(docread.Document(text, {}, node.node_id))
            built = build_nodes_from_splits([c.text for c in chunks], node, id_func=_ids_of(chunks))
            for chunk, child in zip(chunks, built, strict=True):
                extra = {k: chunk.metadata[k] for k in CHUNK_KEYS}
                child.metadata = {**node.metadata, **extra}
                child.excluded_embed_metadata_keys = [
                    *node.excluded_embed_metadata_keys,
                    *CHUNK_KEYS,
                ]
                child.excluded_llm_metadata_keys = [*node.excluded_llm_metadata_keys, *CHUNK_KEYS]
                if isinstance(child, TextNode):
                    child.start_char_idx = chunk.metadata["char_start"]
                    child.end_char_idx = chunk.metadata["char_start"] + len(chunk.text)
            out.extend(built)
        return out


def _ids_of(chunks: list[docread.Document]) -> IdFuncCallable:
    """The ``id_func`` giving the i-th node its chunk's id."""

    def node_id(i: int, doc: BaseNode) -> str:
        return chunks[i].id

    return node_id
