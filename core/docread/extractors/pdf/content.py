"""The content-bomb guard: a PDF page's content streams cut to ``pdf.max_page_content`` decoded
bytes before MuPDF interprets them (a few KB of Flate can inflate into GBs of text operators),
at the cost of a look at each stream's raw length and filter on every page (MuPDF's own
objects, read through its low-level bindings: PyMuPDF's ``get_contents``, ``get_xobjects`` and
``xref_stream_raw`` cost 3x as much in Python around the same calls; a key is looked up by
its name as a string, ``pdf_dict_gets``: ``pdf_dict_get`` with a name's enum costs twice as
much in the bindings)."""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import pymupdf


def bound_content(doc: pymupdf.Document, page: pymupdf.Page, cap: int) -> bool:
    """Cut the page's content streams (and its form XObjects') to ``cap`` decoded bytes in
    total, in memory, before anything interprets them: a few KB of Flate can inflate into GBs of
    text operators. True when something was cut. What each stream can decode to at most
    (``_Stream.bound``, from the length of the raw bytes MuPDF reads) clears most pages without
    inflating anything; of the streams that could pass the cap a Flate one is inflated as far
    as a head of it clears it (``_Stream.tighter``) and looked at up to ``cap`` + 1 bytes;
    another filter chain (or Flate with decode parameters) is decoded whole by MuPDF, within
    MuPDF's own decompression-bomb limit, then looked at up to the same bytes."""
    mupdf = _mupdf()

    try:
        streams = [_Stream(doc, xref, obj) for xref, obj in _stream_objects(page).items()]
    except (RuntimeError, ValueError, mupdf.FzErrorBase):
        return False  # damaged: MuPDF's own repair decides what is read
    # the most all streams can decode to, kept as each is decoded (a sum per step was
    # quadratic: a page of 500 form XObjects); ``unknown``: streams no bound is known for yet
    unknown, most = 0, 0
    for stream in streams:
        if stream.bound is None:
            unknown += 1
        else:
            most += stream.bound
    if not unknown and most <= cap:
        return False  # cannot decode past the cap (most pages: no inflating at all)
    for stream in sorted(streams, key=lambda s: -1 if s.bound is None else -s.bound):
        if not unknown and most <= cap:
            return False
        if stream.bound is not None and stream.filter == "flate":
            known = stream.tighter(cap - (most - stream.bound), cap)
            if known is not None:  # a head inflated: the rest bounded (or all of it read)
                known = min(known, stream.bound)
                most += known - stream.bound
                stream.bound = known
                if known <= cap:
                    continue
                break  # this one alone passes the cap
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


def _mupdf() -> Any:
    """PyMuPDF's MuPDF bindings (imported before any page is read): a look-up, not an import
    statement per call (``from pymupdf import mupdf`` runs the import system's Python code
    each time: 5,000 times over the corpus's 820 pages)."""
    return sys.modules["pymupdf"].mupdf


_FLATE_MAX_RATIO = 1032  # Deflate's largest expansion: n compressed bytes inflate to < 1032 n
# bytes of a head zlib may hold undecoded (its bit buffer, a match waiting for its distance),
# counted with the rest: 16 x 1032 > 64 bits' worth and a 258-byte match
_HELD = 16


def _stream_objects(page: pymupdf.Page) -> dict[int, Any]:
    """The page's content streams and every form XObject its resources reach (nested forms
    too, each once) by xref, in that order: what MuPDF may interpret for the page."""
    mupdf = _mupdf()

    obj = mupdf.pdf_page_from_fz_page(page.this).obj()
    found: dict[int, Any] = {}
    contents = mupdf.pdf_dict_gets(obj, "Contents")
    if mupdf.pdf_is_array(contents):
        for i in range(mupdf.pdf_array_len(contents)):
            part = mupdf.pdf_array_get(contents, i)
            found.setdefault(mupdf.pdf_to_num(part), part)
    elif contents.m_internal:
        found[mupdf.pdf_to_num(contents)] = contents
    seen: set[int] = set()
    todo = [mupdf.pdf_dict_gets_inheritable(obj, "Resources")]
    while todo:  # resources, then the resources of each form they list (a cycle ends at seen)
        xobjects = mupdf.pdf_dict_gets(todo.pop(), "XObject")
        for i in range(mupdf.pdf_dict_len(xobjects)):
            xobject = mupdf.pdf_dict_get_val(xobjects, i)
            xref = mupdf.pdf_to_num(xobject)
            subtype = mupdf.pdf_dict_gets(xobject, "Subtype")
            if xref in seen or mupdf.pdf_to_name(subtype) != "Form":
                continue
            seen.add(xref)
            found.setdefault(xref, xobject)
            resources = mupdf.pdf_dict_gets(xobject, "Resources")
            if resources.m_internal:
                todo.append(resources)
    return found


def _filter(obj: Any) -> str:
    """A stream's filter by name: "none", "flate" (one Flate) or "other" (another chain: only
    MuPDF decodes it). Each look into the dictionary is a call into MuPDF, on every stream of
    every page: a Flate's parameters are looked at only when it is inflated (``_parameters``),
    its bound is the same with them (a predictor only takes bytes out)."""
    mupdf = _mupdf()

    chain = mupdf.pdf_dict_gets(obj, "Filter")
    if not chain.m_internal:
        return "none"
    name = mupdf.pdf_to_name(chain)  # "" when it is no name (an array)
    if not name and mupdf.pdf_is_array(chain) and mupdf.pdf_array_len(chain) == 1:
        name = mupdf.pdf_to_name(mupdf.pdf_array_get(chain, 0))
    return "flate" if name in ("FlateDecode", "Fl") else "other"


def _parameters(obj: Any) -> bool:
    """Whether a Flate stream has decode parameters (a predictor: only MuPDF decodes it)."""
    mupdf = _mupdf()

    return bool(
        mupdf.pdf_dict_gets(obj, "DecodeParms").m_internal
        or mupdf.pdf_dict_gets(obj, "DP").m_internal
    )


class _Stream:
    """A content stream: the length of its raw bytes as MuPDF reads them (not its /Length,
    which may lie; the bytes themselves are fetched only to be inflated) and its filter."""

    def __init__(self, doc: pymupdf.Document, xref: int, obj: Any) -> None:
        mupdf = _mupdf()

        self.doc, self.xref, self.obj = doc, xref, obj
        self._raw: Any = None  # a Flate stream's raw bytes, as MuPDF read them for the length
        # ``bound``: the most the stream can decode to: its raw size unfiltered, 1032x it
        # under one Flate; None under another filter chain
        self.bound: int | None = 0
        if mupdf.pdf_is_stream(obj):
            raw = mupdf.pdf_load_raw_stream(obj)
            self.length: int = raw.m_internal.len
            self.filter = _filter(obj)
            if self.filter == "flate":
                self._raw, self.bound = raw, self.length * _FLATE_MAX_RATIO
            else:
                self.bound = self.length if self.filter == "none" else None
        else:  # nothing MuPDF would interpret
            self.length, self.filter = 0, "none"
        self._decoded: tuple[bytes, bool] | None = None  # the longest head decoded so far

    def tighter(self, room: int, cap: int) -> int | None:
        """A Flate stream's bound under ``room`` (what it may decode to, the page's other
        streams' bounds kept) from a head of its raw bytes: what a head inflates to, plus
        1032x what is left (and ``_HELD``). A stream of 5 KB on a page with a cap of 4 MB is
        read for its first KB, not inflated whole twice (here, then by MuPDF). The head grows
        until the bound fits, or is all of it (the exact size); over ``cap`` decoded: what was
        decoded (past ``cap``: no room for it). None: not inflatable here (parameters, damage)."""
        import zlib

        mupdf = _mupdf()

        if _parameters(self.obj):
            return None
        packed = mupdf.fz_buffer_storage_memoryview(self._raw)
        size, ratio = len(packed), _FLATE_MAX_RATIO
        inflater = zlib.decompressobj()
        at, out = 0, 0
        end = max(size + _HELD - room // ratio, 1)  # the least head the rest's bound fits after
        while True:
            end = min(end, size)
            try:
                out += len(inflater.decompress(packed[at:end], cap + 1 - out))
            except zlib.error:
                return None  # damaged: ``head`` lets MuPDF decode what it can
            at = end
            if inflater.unconsumed_tail or out > cap:
                return out  # past the cap alone
            if at >= size or inflater.eof:
                return out  # all of it
            rest = ratio * (size - at + _HELD)
            if out + rest <= room:
                return out + rest
            # each byte more takes ``ratio`` off the rest and adds what bytes inflate to so far
            step = (out + rest - room) // max(ratio - out // at, 1) + 1
            end = at + max(step, 64)

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

        mupdf = _mupdf()

        try:
            if self.filter == "none":
                raw: bytes = self.doc.xref_stream_raw(self.xref) or b""
                return raw[:limit], len(raw) <= limit
            if self.filter == "flate" and not _parameters(self.obj):
                # the bytes MuPDF already read for the length, in place (no second read)
                packed = mupdf.fz_buffer_storage_memoryview(self._raw)
                inflater = zlib.decompressobj()
                try:
                    data = inflater.decompress(packed, limit)
                except zlib.error:
                    pass  # damaged: MuPDF decodes what it can below
                else:
                    return data, not inflater.unconsumed_tail
            data = self.doc.xref_stream(self.xref) or b""  # another filter chain
        except (RuntimeError, ValueError, mupdf.FzErrorBase):
            return b"", True  # undecodable: MuPDF will not read it either
        return data[:limit], len(data) <= limit
