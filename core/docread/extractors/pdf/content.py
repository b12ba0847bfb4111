"""The content-bomb guard: a PDF page's content streams cut to ``pdf.max_page_content`` decoded
bytes before MuPDF interprets them (a few KB of Flate can inflate into GBs of text operators),
at the cost of reading each stream's raw bytes once on most pages."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import pymupdf


def bound_content(doc: pymupdf.Document, page: pymupdf.Page, cap: int) -> bool:
    """Cut the page's content streams (and its form XObjects') to ``cap`` decoded bytes in
    total, in memory, before anything interprets them: a few KB of Flate can inflate into GBs of
    text operators. True when something was cut. Each stream's raw bytes are read once; what
    they can decode to at most (``_Stream.bound``) clears most pages without inflating
    anything, and only the streams that could pass the cap are inflated (at most ``cap`` + 1
    bytes each, so the check itself stays bounded)."""
    try:
        xrefs = dict.fromkeys([*page.get_contents(), *(x[0] for x in page.get_xobjects())])
        streams = [_Stream(doc, xref) for xref in xrefs]
    except (RuntimeError, ValueError):  # damaged: MuPDF's own repair decides what is read
        return False
    # the most all streams can decode to, kept as each is decoded (a sum per step was
    # quadratic: a page of 500 form XObjects); ``unknown``: streams no bound is known for yet
    unknown = sum(1 for s in streams if s.bound is None)
    most = sum(s.bound or 0 for s in streams)
    for stream in sorted(streams, key=lambda s: -1 if s.bound is None else -s.bound):
        if not unknown and most <= cap:
            return False  # cannot decode past the cap (most pages: no inflating at all)
        head, whole = stream.head(cap + 1)
        if not whole:
            break  # this one alone passes the cap
        unknown -= stream.bound is None
        most += len(head) - (stream.bound or 0)
    if not unknown and most <= cap:
        return False
    left, cut = cap, False
    for stream in streams:
        if left <= 0:
            doc.update_stream(stream.xref, b"")
            cut = True
            continue
        head, whole = stream.head(left + 1)
        if whole and len(head) <= left:
            left -= len(head)
            continue
        end = max(head.rfind(b"\n", 0, left), head.rfind(b" ", 0, left), 0)
        doc.update_stream(stream.xref, head[:end])  # whole operators only, as far as shown
        left, cut = 0, True
    return cut


_FLATE_MAX_RATIO = 1032  # Deflate's largest expansion: n compressed bytes inflate to < 1032 n
_ONE_FLATE = re.compile(
    r"/Filter\s*(?:/(?:FlateDecode|Fl)(?=[\s/>])|\[\s*/(?:FlateDecode|Fl)\s*\])"
)


class _Stream:
    """A content stream's raw bytes as MuPDF reads them (not its /Length, which may lie) and
    its filter: none, one Flate without parameters, or another chain (only MuPDF decodes)."""

    def __init__(self, doc: pymupdf.Document, xref: int) -> None:
        self.doc, self.xref = doc, xref
        self.raw: bytes = doc.xref_stream_raw(xref) or b""
        head = doc.xref_object(xref, compressed=True)
        if "/Filter" not in head:
            self.filter = "none"
        elif (
            head.count("/Filter") == 1 and "/DecodeParms" not in head and "/DP" not in head
            and _ONE_FLATE.search(head)
        ):  # fmt: skip
            self.filter = "flate"
        else:
            self.filter = "other"
        self._decoded: tuple[bytes, bool] | None = None  # the longest head decoded so far

    @property
    def bound(self) -> int | None:
        """The most the stream can decode to: its raw size unfiltered, 1032x it under one
        Flate; None under another filter chain."""
        if self.filter == "none":
            return len(self.raw)
        return len(self.raw) * _FLATE_MAX_RATIO if self.filter == "flate" else None

    def head(self, limit: int) -> tuple[bytes, bool]:
        """(the first ``limit`` decoded bytes, True when that is all of it); decoded once."""
        known = self._decoded
        if known is not None and (known[1] or len(known[0]) >= limit):
            data, whole = known
            return data[:limit], whole and len(data) <= limit
        self._decoded = self._decode(limit)
        return self._decoded

    def _decode(self, limit: int) -> tuple[bytes, bool]:
        import zlib

        if self.filter == "none":
            return self.raw[:limit], len(self.raw) <= limit
        if self.filter == "flate":
            inflater = zlib.decompressobj()
            try:
                data = inflater.decompress(self.raw, limit)
            except zlib.error:
                pass  # damaged: MuPDF decodes what it can below
            else:
                return data, not inflater.unconsumed_tail
        try:
            data = self.doc.xref_stream(self.xref) or b""  # another filter chain
        except (RuntimeError, ValueError):
            return b"", True  # undecodable: MuPDF will not read it either
        return data[:limit], len(data) <= limit
