"""LlamaIndex ingestion with docread, fully offline: SimpleDirectoryReader with docread's
file_extractor over the sample folder -> IngestionPipeline (DocReadNodeParser + embedding) ->
VectorStoreIndex -> answers citing file and page or sheet.

    python examples/llamaindex_ingestion.py                     # generated sample documents
    python examples/llamaindex_ingestion.py --folder docs/ --question "What is the refund policy?"

The embedding is NOT a real model: ``HashEmbedding`` below is a deterministic hashed
bag-of-words vector, so the example runs with no network and no model download. Swap in any
LlamaIndex embedding (``OpenAIEmbedding``, ``HuggingFaceEmbedding``, ...) for real retrieval.
"""

from __future__ import annotations

import argparse
import hashlib
import math
import re
import sys
import tempfile
from pathlib import Path
from typing import Any

from llama_index.core import SimpleDirectoryReader, VectorStoreIndex
from llama_index.core.embeddings import BaseEmbedding
from llama_index.core.ingestion import DocstoreStrategy, IngestionCache, IngestionPipeline
from llama_index.core.schema import NodeWithScore
from llama_index.core.storage.docstore import SimpleDocumentStore

from llama_index_docread import DocReadNodeParser, DocReadReader

sys.path.insert(0, str(Path(__file__).parent))
from make_samples import make_samples  # noqa: E402

QUESTIONS = (
    "How much did revenue grow?",
    "What is the total due on the scanned invoice?",  # a scanned PDF page: docread OCRs it
    "What were the Widget B sales in the Q4 sales sheet?",
)
STOPWORDS = frozenset(
    {"a", "an", "and", "are", "did", "do", "does", "how", "in", "is", "it", "of", "on", "the", "to",
     "was", "were", "what", "when", "where", "which", "who", "why"}
)  # fmt: skip


class HashEmbedding(BaseEmbedding):
    """A stand-in embedding: words hashed into ``dim`` buckets, L2-normalised. Offline and
    deterministic; it finds shared words, not meaning."""

    dim: int = 2048

    @classmethod
    def class_name(cls) -> str:
        return "HashEmbedding"

    def _embed(self, text: str) -> list[float]:
        vec = [0.0] * self.dim
        for word in re.findall(r"[a-z0-9]+", text.lower()):
            if word in STOPWORDS:
                continue
            bucket = int.from_bytes(hashlib.blake2b(word.encode(), digest_size=4).digest(), "big")
            vec[bucket % self.dim] += 1.0
        norm = math.sqrt(sum(v * v for v in vec)) or 1.0
        return [v / norm for v in vec]

    def _get_text_embedding(self, text: str) -> list[float]:
        return self._embed(text)

    def _get_query_embedding(self, query: str) -> list[float]:
        return self._embed(query)

    async def _aget_query_embedding(self, query: str) -> list[float]:
        return self._embed(query)


def cite(hit: NodeWithScore) -> str:
    """ "[report.pdf p.1]", "[sales.xlsx sheet Q4_Sales rows 1-4]", "[analysis.ipynb cell 2]"."""
    meta: dict[str, Any] = hit.node.metadata
    where = [str(meta.get("member") or meta.get("file_name", "?"))]
    if "page_label" in meta:
        where.append(f"p.{meta['page_label']}")
    if "slide_number" in meta:
        where.append(f"slide {meta['slide_number']}")
    if "sheet" in meta:
        where.append(f"sheet {meta['sheet']}")
    if "row_start" in meta:
        where.append(f"rows {meta['row_start']}-{meta.get('row_end', meta['row_start'])}")
    if "cell_index" in meta:
        where.append(f"cell {meta['cell_index']}")
    return "[" + " ".join(where) + "]"


def answer(index: VectorStoreIndex, question: str, top_k: int = 3) -> str:
    """An extractive answer: the best-matching passages, each with its citation."""
    hits = index.as_retriever(similarity_top_k=top_k).retrieve(question)
    lines = [
        f"- {' '.join(h.node.get_content().split())[:200]} {cite(h)}"
        for h in hits
        if h.node.get_content()
    ]
    return "\n".join(lines) or "No passage matches the question."


def ingest(folder: Path, media_dir: Path) -> tuple[VectorStoreIndex, IngestionPipeline, list[Any]]:
    """Load the folder with docread, chunk and embed it, and index the nodes."""
    reader = DocReadReader(media_dir=media_dir)  # images and plots are kept as files here
    docs = SimpleDirectoryReader(str(folder), file_extractor=reader.file_extractor()).load_data()
    pipeline = IngestionPipeline(
        transformations=[DocReadNodeParser(chunk_size=2000, chunk_overlap=100), HashEmbedding()],
        docstore=SimpleDocumentStore(),
        docstore_strategy=DocstoreStrategy.DUPLICATES_ONLY,  # UPSERTS needs a vector store
        cache=IngestionCache(),
    )
    nodes = pipeline.run(documents=docs)
    index = VectorStoreIndex(nodes=nodes, embed_model=HashEmbedding())
    return index, pipeline, docs


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--folder", help="folder to ingest (default: generated sample documents)")
    parser.add_argument("--question", action="append", help="question to answer (repeatable)")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="docread-li-") as tmp:
        folder = Path(args.folder) if args.folder else Path(tmp) / "samples"
        if not args.folder:
            for problem in make_samples(folder):
                print(f"(sample skipped: {problem})")
        index, pipeline, docs = ingest(folder, Path(tmp) / "media")
        kinds = sorted({d.metadata.get("format", "?") for d in docs})
        print(
            f"{len(docs)} documents from {len({d.metadata.get('file_name') for d in docs})} files ({', '.join(kinds)})"
        )
        print(f"{len(index.docstore.docs)} nodes indexed")
        again = pipeline.run(documents=docs)
        print(
            f"re-ingesting the same documents adds {len(again)} nodes (stable ids, content hashes)"
        )
        for question in args.question or QUESTIONS:
            print(f"\nQ: {question}\n{answer(index, question)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
