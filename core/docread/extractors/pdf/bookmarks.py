"""A PDF's outline (bookmarks) as its sections, read without rendering a page: the entries when
they can stand for the document's sections (``usable``), each page's stamp (the entry in force
where it starts, ``page_section``, and the entries that start on it, ``bookmarks``, one
``s<rank> <level> <title>`` a line) and ``view="outline"``'s units (one per entry, with its page,
place on the page and an estimate of its size in tokens).

Sizes come from each page's content stream length (its ``/Length``: nothing is decoded) times
the characters a stream byte gives, measured on a few pages' text: 1,372 entries of a 619-page
manual in a tenth of a second, where reading every page's text takes three."""

from __future__ import annotations

import bisect
import itertools
from collections.abc import Iterator
from dataclasses import replace
from typing import TYPE_CHECKING, Any

from ...model import Document, dataclass
from ...outline.headings import TITLE_CHARS
from ...outline.tree import section_id
from ...sanitize import lazy_pattern
from .survey import outline

if TYPE_CHECKING:
    import pymupdf

#: The fields of an outline line (``outline_units``), tab-separated, in order.
ENTRY_FIELDS = ("ordinal", "level", "page", "end_page", "top", "tokens", "title")
#: Pages whose text measures the characters a content-stream byte gives.
_CALIBRATION = 8
#: Content streams of one page whose lengths are added up at most (a hostile page lists more).
_STREAMS = 64
_REFERENCE = lazy_pattern(r"(\d+) 0 R")
#: An entry this far down its page or less starts the page (its section holds no text above).
_TOP = 0.12


@dataclass(frozen=True, slots=True)
class Entry:
    """One outline entry: its rank (1-based, in outline order), level, title, 1-based page and
    the point it shows on that page from the top (-1 when the outline does not say; ``placed``
    makes it a share of the page)."""

    ordinal: int
    level: int
    title: str
    page: int
    top: float

    @property
    def stamp(self) -> str:
        return f"{section_id(self.ordinal)} {self.level} {self.title}"


def usable(
    doc: pymupdf.Document, read: list[tuple[int, str, int, float]] | None = None
) -> list[Entry]:
    """The outline's entries when they can stand for the sections: at least two, every one
    pointing into the document with a title, in page order, not all on one page of a longer
    document; else [] (the headings found on the pages serve instead). ``read``: the outline
    as the survey read it (``survey.outline``; [] when it could not), not walked again."""
    try:
        raw = outline(doc) if read is None else read
    except (ValueError, RuntimeError):  # over the outline's caps, or MuPDF could not read it
        return []
    count = doc.page_count
    if len(raw) < 2 or any(
        not 1 <= page <= count or not title.strip() for _, title, page, _ in raw
    ):
        return []
    pages = [page for _, _, page, _ in raw]
    if any(b < a for a, b in zip(pages, pages[1:], strict=False)):
        return []
    if count > 2 and pages[0] == pages[-1]:
        return []
    return [
        Entry(rank, level, " ".join(title.split())[:TITLE_CHARS], page, top)
        for rank, (level, title, page, top) in enumerate(raw, 1)
    ]


def placed(doc: pymupdf.Document, entries: list[Entry]) -> list[Entry]:
    """The entries with ``top`` as how far down its page each points (0 top .. 1 bottom; 0 when
    the outline does not say): the outline view's, from each page's height (a loader's page
    stamps do not need it, nor the cost of a page lookup per entry)."""
    out, heights = [], {}
    for entry in entries:
        if entry.page not in heights:
            heights[entry.page] = doc.page_cropbox(entry.page - 1).height or 1.0
        where = min(max(entry.top / heights[entry.page], 0.0), 1.0) if entry.top >= 0 else 0.0
        out.append(replace(entry, top=where))
    return out


class PageStamps:
    """The metadata each page of a PDF with a usable outline carries for its sections."""

    def __init__(self, entries: list[Entry]) -> None:
        self.entries = entries
        self.pages = [e.page for e in entries]

    def of(self, number: int) -> dict[str, Any]:
        """``page_section``: the entry in force where page ``number`` starts (``s0`` before the
        first); ``bookmarks``: the entries that start on it, when any."""
        before = bisect.bisect_left(self.pages, number)
        on = self.entries[before : bisect.bisect_right(self.pages, number)]
        out: dict[str, Any] = {"page_section": section_id(before)}
        if on:
            out["bookmarks"] = "\n".join(e.stamp for e in on)
        return out


def outline_units(doc: pymupdf.Document, entries: list[Entry]) -> Iterator[Document]:
    """``view="outline"``: one Document listing the entries, one a line (``ENTRY_FIELDS``,
    tab-separated: rank, level, page, last page, how far down the page, tokens, title; its
    ``tokens`` what reading it with its subsections costs), after a line of rank 0 for the
    pages before the first entry when it does not start the document. One unit, not one per
    entry: 1,372 entries cost the pipeline one unit's passage."""
    if not entries:
        return
    entries = placed(doc, entries)
    sizes = _page_tokens(doc)
    lines: list[str] = []
    first = entries[0]
    if first.page > 1 or first.top > _TOP:
        end = first.page if first.top > _TOP else first.page - 1
        tokens = sizes.between((1, 0.0), (first.page, first.top))
        lines.append(f"0\t99\t1\t{max(end, 1)}\t0\t{tokens}\t")
    for entry, after in zip(entries, _ends(entries), strict=True):
        stop = (after.page, after.top) if after is not None else (doc.page_count, 1.0)
        last = stop[0] if stop[1] > _TOP or stop[0] == entry.page else stop[0] - 1
        tokens = sizes.between((entry.page, entry.top), stop)
        lines.append(
            f"{entry.ordinal}\t{entry.level}\t{entry.page}\t{last}\t{entry.top:.3f}\t"
            f"{tokens}\t{entry.title}"
        )
    yield Document("\n".join(lines), {"page_count": doc.page_count, "bookmark_count": len(entries)})


def _ends(entries: list[Entry]) -> list[Entry | None]:
    """Each entry's end: the next entry of its level or a higher one (None: the document's
    end), in one pass (a 50,000-entry outline must not cost 50,000 scans)."""
    out: list[Entry | None] = [None] * len(entries)
    open_: list[int] = []
    for i, entry in enumerate(entries):
        while open_ and entries[open_[-1]].level >= entry.level:
            out[open_.pop()] = entry
        open_.append(i)
    return out


class _Sizes:
    """Each page's text in tokens (4 characters a token), estimated from the length of its
    content streams and the characters per stream byte of a few pages spread over the file;
    ``between`` adds up a stretch of pages by running sums."""

    def __init__(self, pages: list[float]) -> None:
        self.pages = pages
        self.sums = list(itertools.accumulate(pages, initial=0.0))

    def between(self, start: tuple[int, float], stop: tuple[int, float]) -> int:
        """Tokens from (page, share of it down) to (page, share): the pages between whole,
        parts of the first and last."""
        (first, a), (last, b) = start, stop
        if last < first or last == first and b <= a:
            return 0
        if last == first:
            return round(self.pages[first - 1] * (b - a))
        middle = self.sums[last - 1] - self.sums[first]
        return round(self.pages[first - 1] * (1 - a) + middle + self.pages[last - 1] * b)


def _page_tokens(doc: pymupdf.Document) -> _Sizes:
    """The estimate of each page's tokens (``_Sizes``)."""
    lengths = [_stream_length(doc, n) for n in range(doc.page_count)]
    count = min(_CALIBRATION, doc.page_count)
    sample = sorted({round(i * (doc.page_count - 1) / max(count - 1, 1)) for i in range(count)})
    chars = sum(len(doc[n].get_text()) for n in sample)
    stream = sum(lengths[n] for n in sample)
    per_byte = chars / stream if stream else 0.0
    fallback = chars / len(sample) if sample else 0.0
    return _Sizes([(length * per_byte if length else fallback) / 4 for length in lengths])


def _stream_length(doc: pymupdf.Document, number: int) -> int:
    """The bytes of a page's content streams as their dictionaries say (nothing decoded, the
    page not loaded); 0 when they do not say."""
    kind, value = doc.xref_get_key(doc.page_xref(number), "Contents")
    if kind not in ("xref", "array"):
        return 0
    total = 0
    for xref in _REFERENCE.findall(value)[:_STREAMS]:
        kind, length = doc.xref_get_key(int(xref), "Length")
        total += int(length) if kind == "int" else 0
    return total
