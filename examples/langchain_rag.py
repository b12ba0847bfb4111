"""Retrieval with page citations, fully offline: DocReadLoader over a folder, chunked by docread
(chunks never span two pages, stable ids) -> BM25 retriever -> an extractive answer citing file
and page.

    python examples/langchain_rag.py                       # generated sample folder
    python examples/langchain_rag.py --folder docs/ --question "What is the refund policy?"
"""

from __future__ import annotations

import argparse
import re
import tempfile
from pathlib import Path
from typing import Any

from langchain_core.callbacks import CallbackManagerForRetrieverRun
from langchain_core.documents import Document
from langchain_core.retrievers import BaseRetriever
from pydantic import PrivateAttr

from langchain_docread import DocReadLoader

QUESTION = "When does the warranty on the pump expire?"


class BM25Retriever(BaseRetriever):
    """A local keyword retriever (rank-bm25): no embeddings, no network."""

    docs: list[Document]
    k: int = 3
    _index: Any = PrivateAttr()

    def model_post_init(self, context: Any) -> None:
        from rank_bm25 import BM25Okapi

        super().model_post_init(context)
        self._index = BM25Okapi([_tokens(d.page_content) for d in self.docs])

    def _get_relevant_documents(
        self, query: str, *, run_manager: CallbackManagerForRetrieverRun
    ) -> list[Document]:
        scores = self._index.get_scores(_tokens(query))
        ranked = sorted(range(len(self.docs)), key=lambda i: scores[i], reverse=True)
        return [self.docs[i] for i in ranked[: self.k] if scores[i] > 0]


def _tokens(text: str) -> list[str]:
    return re.findall(r"\w+", text.lower())


def cite(doc: Document) -> str:
    """ "[manual.pdf p.3]" for pages (page_label, as PDF loaders give it), else the file name."""
    name = doc.metadata.get("file_name", doc.metadata.get("source", "?"))
    label = doc.metadata.get("page_label")
    return f"[{name} p.{label}]" if label else f"[{name}]"


def answer(question: str, retriever: BaseRetriever) -> str:
    """An extractive answer: the best-matching passages, each with its citation."""
    hits = retriever.invoke(question)
    if not hits:
        return "No passage matches the question."
    return "\n".join(f"- {' '.join(d.page_content.split())} {cite(d)}" for d in hits)


def make_samples(folder: Path) -> None:
    """A three-page PDF manual, and a text FAQ."""
    import pymupdf

    pages = (
        "Pump P-200 installation guide. Mount the pump on a level base.",
        "Maintenance: replace the seal every 2,000 hours of operation.",
        "Warranty: the pump warranty expires 24 months after the date of purchase.",
    )
    pdf = pymupdf.open()
    for text in pages:
        pdf.new_page().insert_text((72, 72), text, fontsize=11)
    pdf.save(folder / "report.pdf")
    pdf.close()
    (folder / "faq.md").write_text(
        "# FAQ\nShipping takes five days.\nReturns are free within 30 days.\n", encoding="utf-8"
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--folder", help="folder to index (default: generated samples)")
    parser.add_argument("--question", default=QUESTION)
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="docread-rag-") as tmp:
        folder = Path(args.folder) if args.folder else Path(tmp)
        if not args.folder:
            make_samples(folder)
        loader = DocReadLoader(
            folder, chunk_size=400, chunk_overlap=40, show_progress=bool(args.folder)
        )
        chunks = loader.load()
    print(f"{len({d.metadata['source'] for d in chunks})} files, {len(chunks)} chunks")
    print(f"Q: {args.question}")
    print(answer(args.question, BM25Retriever(docs=chunks, k=2)))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
