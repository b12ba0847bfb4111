"""Chunks for RAG: each Document split on its own (a chunk never spans two pages, sheets or
slides), on paragraph > line > sentence > word boundaries, with overlap and stable ids.

A chunk is a slice of its unit's text (``unit.text[char_start:char_start + len(chunk.text)]``)
carrying the unit's metadata plus ``chunk_index`` (1-based), ``chunk_count`` and ``char_start``;
its id comes from the unit's id, its index and its text, so an unchanged unit keeps its chunk
ids across runs and edits elsewhere in the file. Media pass through untouched.
"""

from __future__ import annotations

import re
from collections import deque
from collections.abc import Callable, Iterable, Iterator
from typing import Literal

from .errors import InvalidOptionError
from .model import Document, Unit, stable_id

Length = Literal["chars"] | Callable[[str], int]
# coarsest first: a paragraph break, a line break, the space after a sentence, any space
_BOUNDARIES = (
    re.compile(r"\n[ \t]*\n\s*"),
    re.compile(r"\n"),
    re.compile(r"(?<=[.!?])\s+"),
    re.compile(r"\s+"),
)
Span = tuple[int, int]


class Chunker:
    """Splits Documents into chunks of at most ``chunk_size`` (characters, or what ``length``
    counts: a token counter) with ``chunk_overlap`` of the previous chunk repeated."""

    def __init__(self, chunk_size: int, chunk_overlap: int = 0, length: Length = "chars") -> None:
        if isinstance(chunk_size, bool) or not isinstance(chunk_size, int) or chunk_size <= 0:
            raise InvalidOptionError(f"chunk_size={chunk_size!r}: must be a whole number above 0")
        if (
            isinstance(chunk_overlap, bool)
            or not isinstance(chunk_overlap, int)
            or not 0 <= chunk_overlap <= chunk_size // 2
        ):
            raise InvalidOptionError(
                f"chunk_overlap={chunk_overlap!r}: must be a whole number from 0 to half of "
                f"chunk_size={chunk_size} ({chunk_size // 2}): a larger overlap repeats most of "
                "every chunk in the next one, and the output grows with the input times chunk_size"
            )
        if length != "chars" and not callable(length):
            raise InvalidOptionError(
                f"length={length!r}: must be 'chars' or a callable(str) -> int"
            )
        self.chunk_size = chunk_size
        self.chunk_overlap = chunk_overlap
        self._count: Callable[[str], int] | None = None if length == "chars" else length

    def split(self, doc: Document) -> list[Document]:
        """The chunks of one Document, in order (one, the whole text, when it fits or is blank)."""
        text = doc.text
        spans = [_stripped(text, s) for s in self._merge(text, self._pieces(text, 0, len(text), 0))]
        spans = [s for s in spans if s[1] > s[0]] or [(0, len(text))]
        count = len(spans)
        return [
            Document(
                text[start:end],
                {**doc.metadata, "chunk_index": i, "chunk_count": count, "char_start": start},
                chunk_id(doc.id, i, text[start:end]),
            )
            for i, (start, end) in enumerate(spans, 1)
        ]

    def _len(self, text: str, span: Span) -> int:
        if self._count is None:
            return span[1] - span[0]
        return self._count(text[span[0] : span[1]])

    def _pieces(self, text: str, start: int, end: int, level: int) -> list[Span]:
        """Spans that each fit, cut at the coarsest boundary that makes them fit (the boundary
        stays with the piece before it, so the pieces tile the text)."""
        if self._len(text, (start, end)) <= self.chunk_size:
            return [(start, end)]
        if level == len(_BOUNDARIES):
            return self._hard_cut(text, start, end)
        cuts = [m.end() for m in _BOUNDARIES[level].finditer(text, start, end) if m.end() < end]
        if not cuts:
            return self._pieces(text, start, end, level + 1)
        out: list[Span] = []
        for a, b in zip([start, *cuts], [*cuts, end], strict=True):
            if b > a:
                out.extend(self._pieces(text, a, b, level + 1))
        return out

    def _hard_cut(self, text: str, start: int, end: int) -> list[Span]:
        """No boundary left (one long word): the longest prefixes that fit in ``chunk_size``
        less ``chunk_overlap`` (so the next chunk has room for its overlap), at least one char."""
        limit = self.chunk_size - self.chunk_overlap
        out: list[Span] = []
        while start < end:
            stop = self._fit(text, start, min(end, start + limit), limit)
            out.append((start, stop))
            start = stop
        return out

    def _fit(self, text: str, start: int, stop: int, limit: int) -> int:
        """The largest end in (start, stop] whose span fits in ``limit`` (at least start + 1)."""
        if self._count is None or self._len(text, (start, stop)) <= limit:
            return stop
        low, high = start + 1, stop  # binary search: a token count grows with the span
        while low < high:
            mid = (low + high + 1) // 2
            if self._len(text, (start, mid)) <= limit:
                low = mid
            else:
                high = mid - 1
        return low

    def _tail(self, text: str, start: int, end: int) -> int:
        """The start of the longest suffix of ``text[start:end]`` within ``chunk_overlap``."""
        if self._count is None:
            return max(start, end - self.chunk_overlap)
        low, high = start, end  # binary search on the suffix's start
        while low < high:
            mid = (low + high) // 2
            if self._len(text, (mid, end)) <= self.chunk_overlap:
                high = mid
            else:
                low = mid + 1
        return low

    def _merge(self, text: str, pieces: list[Span]) -> Iterator[Span]:
        """Adjacent pieces joined up to ``chunk_size``; each new chunk starts with the last
        pieces of the one before that fit in ``chunk_overlap`` (and leave room for the next), or,
        after a cut inside a word, its last ``chunk_overlap``; every chunk holds a new piece."""
        current: deque[Span] = deque()
        for piece in pieces:
            if current and self._len(text, (current[0][0], piece[1])) > self.chunk_size:
                start, end = current[0][0], current[-1][1]
                yield start, end
                while current and (
                    self._len(text, (current[0][0], end)) > self.chunk_overlap
                    or self._len(text, (current[0][0], piece[1])) > self.chunk_size
                ):
                    current.popleft()
                if not current and self.chunk_overlap and _inside_word(text, end):
                    tail = self._tail(text, start, end)
                    if tail < end and self._len(text, (tail, piece[1])) <= self.chunk_size:
                        current.append((tail, end))
            current.append(piece)
        if current:
            yield current[0][0], current[-1][1]


def chunk_units(
    units: Iterable[Unit], *, chunk_size: int, chunk_overlap: int = 0, length: Length = "chars"
) -> Iterator[Unit]:
    """Every Document of ``units`` as its chunks (``Chunker``), Media as they are, streamed;
    the arguments are checked before the first unit is read (InvalidOptionError)."""
    chunker = Chunker(chunk_size, chunk_overlap, length)
    return _chunked(units, chunker)


def _chunked(units: Iterable[Unit], chunker: Chunker) -> Iterator[Unit]:
    for unit in units:
        if isinstance(unit, Document):
            yield from chunker.split(unit)
        else:
            yield unit


def chunk_id(unit_id: str, index: int, text: str) -> str:
    """A chunk's id: a UUID from its unit's id, its 1-based index and a hash of its text."""
    return stable_id(unit_id, index, content=text.encode())


def _inside_word(text: str, at: int) -> bool:
    """A cut at ``at`` falls inside a word (a hard cut): no whitespace on either side."""
    return 0 < at < len(text) and not text[at - 1].isspace() and not text[at].isspace()


def _stripped(text: str, span: Span) -> Span:
    """The span without the whitespace at its ends (chunks start and end on content)."""
    start, end = span
    while start < end and text[start].isspace():
        start += 1
    while end > start and text[end - 1].isspace():
        end -= 1
    return start, end
