"""One text cut into spans of at most ``chunk_size``: at paragraph > line > sentence > word
boundaries (a hard cut only inside one over-long word), joined up to the size, each span
starting with ``chunk_overlap`` of the one before; a table row may carry its table's header."""

from __future__ import annotations

import re
from collections import deque
from collections.abc import Callable, Iterator, Mapping

from ...errors import InvalidOptionError

Span = tuple[int, int]
Count = Callable[[str], int]
# coarsest first: a paragraph break, a line break, the space after a sentence, any space
_BOUNDARIES = (
    re.compile(r"\n[ \t]*\n\s*"),
    re.compile(r"\n"),
    re.compile(r"(?<=[.!?])\s+"),
    re.compile(r"\s+"),
)


class Splitter:
    """Spans of one text: ``pieces`` that each fit, ``merge``d into chunks with overlap. Sizes
    are characters, or what ``count`` counts (a token counter)."""

    def __init__(self, chunk_size: int, chunk_overlap: int, count: Count | None) -> None:
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
        self.chunk_size = chunk_size
        self.chunk_overlap = chunk_overlap
        self.count = count

    def spans(self, text: str) -> list[Span]:
        """The chunks of a whole text without tables, stripped, never empty (the whole text
        when it is blank)."""
        spans = [stripped(text, s) for s in self.merge(text, self.pieces(text, 0, len(text)))]
        return [s for s in spans if s[1] > s[0]] or [(0, len(text))]

    def length(self, text: str, start: int, end: int, header: Span | None = None) -> int:
        """The size of ``text[start:end]``, after ``header`` (a table's header row) if given."""
        if self.count is None:
            return end - start + (header[1] - header[0] if header else 0)
        prefix = text[header[0] : header[1]] if header else ""
        return self.count(prefix + text[start:end])

    def pieces(self, text: str, start: int, end: int, level: int = 0) -> list[Span]:
        """Spans that each fit, cut at the coarsest boundary that makes them fit (the boundary
        stays with the piece before it, so the pieces tile the text)."""
        if self.length(text, start, end) <= self.chunk_size:
            return [(start, end)]
        if level == len(_BOUNDARIES):
            return self._hard_cut(text, start, end)
        cuts = [m.end() for m in _BOUNDARIES[level].finditer(text, start, end) if m.end() < end]
        if not cuts:
            return self.pieces(text, start, end, level + 1)
        out: list[Span] = []
        for a, b in zip([start, *cuts], [*cuts, end], strict=True):
            if b > a:
                out.extend(self.pieces(text, a, b, level + 1))
        return out

    def merge(
        self, text: str, pieces: list[Span], headers: Mapping[int, Span] | None = None
    ) -> Iterator[Span]:
        """Adjacent pieces joined up to ``chunk_size``; each new chunk starts with the last
        pieces of the one before that fit in ``chunk_overlap`` (and leave room for the next), or,
        after a cut inside a word, its last ``chunk_overlap``; every chunk holds a new piece.
        ``headers``: the header a chunk starting at that piece repeats (counted in its size)."""
        current: deque[Span] = deque()

        def size(start: int, end: int) -> int:
            return self.length(text, start, end, headers.get(start) if headers else None)

        for piece in pieces:
            if current and size(current[0][0], piece[1]) > self.chunk_size:
                start, end = current[0][0], current[-1][1]
                yield start, end
                while current and (
                    self.length(text, current[0][0], end) > self.chunk_overlap
                    or size(current[0][0], piece[1]) > self.chunk_size
                ):
                    current.popleft()
                if not current and self.chunk_overlap and _inside_word(text, end):
                    tail = self._tail(text, start, end)
                    if tail < end and size(tail, piece[1]) <= self.chunk_size:
                        current.append((tail, end))
            current.append(piece)
        if current:
            yield current[0][0], current[-1][1]

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
        if self.count is None or self.length(text, start, stop) <= limit:
            return stop
        low, high = start + 1, stop  # binary search: a token count grows with the span
        while low < high:
            mid = (low + high + 1) // 2
            if self.length(text, start, mid) <= limit:
                low = mid
            else:
                high = mid - 1
        return low

    def _tail(self, text: str, start: int, end: int) -> int:
        """The start of the longest suffix of ``text[start:end]`` within ``chunk_overlap``."""
        if self.count is None:
            return max(start, end - self.chunk_overlap)
        low, high = start, end  # binary search on the suffix's start
        while low < high:
            mid = (low + high) // 2
            if self.length(text, mid, end) <= self.chunk_overlap:
                high = mid
            else:
                low = mid + 1
        return low


def _inside_word(text: str, at: int) -> bool:
    """A cut at ``at`` falls inside a word (a hard cut): no whitespace on either side."""
    return 0 < at < len(text) and not text[at - 1].isspace() and not text[at].isspace()


def stripped(text: str, span: Span) -> Span:
    """The span without the whitespace at its ends (chunks start and end on content)."""
    start, end = span
    while start < end and text[start].isspace():
        start += 1
    while end > start and text[end - 1].isspace():
        end -= 1
    return start, end
