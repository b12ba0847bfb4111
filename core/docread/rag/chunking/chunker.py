"""Chunker: a unit stream as RAG chunks. With ``sections`` (default), units read as markdown
are chunked by section (``sections.py``); any other unit on its own, as one text."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from typing import Literal, TypeVar

from ...errors import InvalidOptionError
from ...model import Document
from .sections import SectionStream, chunk_id
from .splitter import Splitter

T = TypeVar("T")
Length = Literal["chars"] | Callable[[str], int]


class Chunker:
    """Splits Documents into chunks of at most ``chunk_size`` (characters, or what ``length``
    counts: a token counter) with ``chunk_overlap`` (at most half the size) of the chunk before
    repeated. ``sections=False``: every unit on its own, headings and tables read as text."""

    def __init__(
        self,
        chunk_size: int,
        chunk_overlap: int = 0,
        length: Length = "chars",
        *,
        sections: bool = True,
    ) -> None:
        if length != "chars" and not callable(length):
            raise InvalidOptionError(
                f"length={length!r}: must be 'chars' or a callable(str) -> int"
            )
        if not isinstance(sections, bool):
            raise InvalidOptionError(f"sections={sections!r}: must be True or False")
        self._splitter = Splitter(chunk_size, chunk_overlap, None if length == "chars" else length)
        self.chunk_size = chunk_size
        self.chunk_overlap = chunk_overlap
        self.sections = sections

    def chunks(self, units: Iterable[Document | T]) -> Iterator[Document | T]:
        """Every Document of ``units`` as its chunks, anything else as it is, streamed (what
        comes inside an open section follows that section's chunks)."""
        for chunk, _ in self.with_units(units):
            yield chunk

    def with_units(
        self, units: Iterable[Document | T]
    ) -> Iterator[tuple[Document | T, Document | T]]:
        """``chunks``, each with the unit it starts in (its parent, for frameworks that link a
        chunk to its document); anything else paired with itself."""
        if not self.sections:
            for unit in units:
                for chunk in self.split_plain(unit) if isinstance(unit, Document) else [unit]:
                    yield chunk, unit
            return
        stream = SectionStream(self._splitter, self.split_plain)
        for unit in units:
            yield from stream.feed(unit)
        yield from stream.close()

    def split(self, doc: Document) -> list[Document]:
        """The chunks of one Document read alone (its sections, when it has structure)."""
        return [c for c in self.chunks([doc]) if isinstance(c, Document)]

    def split_plain(self, doc: Document) -> list[Document]:
        """One unit's chunks as one text, in order (one, the whole text, when it fits or is
        blank); ids from the unit's id, the index and the text, as before sections."""
        text = doc.text
        spans = self._splitter.spans(text)
        pages: dict[str, object] = {}
        if isinstance(doc.metadata.get("page_number"), int):
            pages = {
                "page_start": doc.metadata["page_number"],
                "page_end": doc.metadata["page_number"],
            }
        count = len(spans)
        return [
            Document(
                text[start:end],
                {
                    **doc.metadata,
                    "chunk_index": i,
                    "chunk_count": count,
                    "char_start": start,
                    **pages,
                },
                chunk_id(doc.id, i, text[start:end]),
            )
            for i, (start, end) in enumerate(spans, 1)
        ]


def contextualize(chunk: Document) -> str:
    """The text to embed for a chunk: its heading path on one line (" > "), a blank line, its
    text, as docling's HybridChunker.contextualize; the text alone without headings."""
    path = chunk.metadata.get("headings")
    if not isinstance(path, list | tuple) or not path:
        return chunk.text
    return " > ".join(str(h) for h in path) + "\n\n" + chunk.text
