"""Chunks for RAG, with stable ids.

Units read as markdown (PDF, office, HTML, tables, .md files) are chunked by section: a chunk
never spans two sections, may span pages (sections, line windows) of one section of one file,
carries ``headings`` (the heading path) and ``page_start``/``page_end``, and never cuts a table
row (a table split over chunks repeats its header row). Any other unit is chunked on its own.
Cuts fall at paragraph > line > sentence > word boundaries, with ``chunk_overlap`` repeated.

A chunk carries its first unit's metadata plus ``chunk_index`` (1-based, within its section or
unit), ``chunk_count`` and ``char_start`` (its offset in that unit's text). Its id comes from its
unit's id (a section's: its file, heading path and rank), its index and its text, so a chunk
keeps its id across runs and edits of other sections or units. Media pass through untouched.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import TypeVar

from ...model import Document
from .chunker import Chunker, Length, contextualize
from .sections import chunk_id

T = TypeVar("T")

__all__ = ["Chunker", "Length", "chunk_id", "chunk_units", "contextualize"]


def chunk_units(
    units: Iterable[Document | T],
    *,
    chunk_size: int,
    chunk_overlap: int = 0,
    length: Length = "chars",
    sections: bool = True,
) -> Iterator[Document | T]:
    """Every Document of ``units`` as its chunks (``Chunker``), Media as they are, streamed;
    the arguments are checked before the first unit is read (InvalidOptionError)."""
    return Chunker(chunk_size, chunk_overlap, length, sections=sections).chunks(units)
