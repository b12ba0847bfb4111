"""Sections across units: a file's units are cut where its sections start (the outline's one
reading of a file, ``outline.build.TreeBuilder``: heading lines, natural places such as sheets
and messages, a PDF's bookmarks), a section runs on over the next page (section, line window)
of the same file, and each section is chunked on its own, tables row by row with their header
repeated. A chunk carries its section's heading path (``headings``) and id (``section_id``, what
``section=`` reads; none before a file's first section).

A unit outside any section, with no table, has no structure: it is chunked alone, as before
(same ids); one in a natural place that is not markdown (a mail, a text member) too, with that
place's ``headings`` and ``section_id``.
"""

from __future__ import annotations

import json
from bisect import bisect_right
from collections import OrderedDict
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any, TypeVar

from ...model import FLOW_KEYS, Document, stable_id, unit_position
from ...outline.build import TreeBuilder, UnitSections, file_key, glue
from ...outline.tree import Section
from ...sanitize import string_list
from .markdown import tables
from .splitter import Span, Splitter, stripped

T = TypeVar("T")
Chunks = Iterator[tuple[Document, Document]]  # (a chunk, the unit it starts in)

#: Extractors whose text is markdown (headings, pipe tables); any unit with a ``headings`` key or
#: ``markdown`` true is too, and a text file named .md/.markdown.
MARKDOWN_EXTRACTORS = frozenset({"pdf", "office", "html", "tabular"})
_MARKDOWN_NAMES = (".md", ".markdown")
#: A section longer than this is chunked in parts (memory: one open section's text is held).
SECTION_CHARS = 1 << 20
#: Files whose heading path and section ranks are remembered (interleaved unordered loads).
_FILES = 256


def is_markdown(meta: Mapping[str, Any]) -> bool:
    """Whether a unit's text is markdown whose ``#`` lines are headings (a Python comment in a
    .py file is not)."""
    extractor = meta.get("extractor")
    if "headings" in meta or meta.get("markdown") is True or extractor in MARKDOWN_EXTRACTORS:
        return True
    name = str(meta.get("file_name") or meta.get("source") or "").lower()
    return extractor == "text" and name.endswith(_MARKDOWN_NAMES)


@dataclass(slots=True)
class _Part:
    """One unit's share of a section: ``unit.text[start:end]`` at ``at`` in the section text."""

    unit: Document
    start: int
    end: int
    at: int = 0


@dataclass(slots=True)
class _Section:
    file: str  # the file (an archive: the archive)
    place: str  # the first unit's position without its flow keys (a sheet, a slide...)
    node: Section | None  # the outline's section (None: text before any)
    ids: bool  # the file's section ids are known (``TreeBuilder.ids``)
    parts: list[_Part] = field(default_factory=list)
    chars: int = 0

    @property
    def path(self) -> tuple[str, ...]:
        return self.node.titles if self.node is not None else ()

    def add(self, unit: Document, start: int, end: int) -> None:
        self.parts.append(_Part(unit, start, end))
        self.chars += end - start


@dataclass(slots=True)
class _File:
    sections: TreeBuilder = field(default_factory=TreeBuilder)
    last: Mapping[str, Any] | None = None  # the metadata of its last unit
    ranks: dict[tuple[str, tuple[str, ...]], int] = field(default_factory=dict)


class SectionStream:
    """Feeds units in, gives (chunk, unit it starts in) out, in order; one open section (and the
    non-Document items that came while it was open) is held until it ends."""

    def __init__(self, splitter: Splitter, plain: Callable[[Document], list[Document]]) -> None:
        self.splitter = splitter
        self.plain = plain  # the chunks of an unstructured unit on its own
        self.open: _Section | None = None
        self.held: list[Any] = []
        self.files: OrderedDict[str, _File] = OrderedDict()

    def feed(self, unit: T) -> Iterator[tuple[Document | T, Document | T]]:
        if not isinstance(unit, Document):
            if self.open is None:
                yield unit, unit
            else:
                self.held.append(unit)
            return
        meta = unit.metadata
        key = file_key(meta)
        info = self._file(key)
        marks = info.sections.feed(unit)
        follows = info.last is not None and _follows(info.last, meta)
        info.last = meta
        start = _headed(marks.start)
        starts = [(at, node) for at, node in marks.starts if node.ordinal]  # s0: before any
        structured = is_markdown(meta) and (starts or start is not None)
        if not structured and not (is_markdown(meta) and tables(unit.text)):
            yield from self._alone(unit, marks, info.sections.ids)
            return
        section = self.open
        if not (section and follows and section.file == key and section.node is start):
            yield from self.close()
            section = None
        cuts = [at for at, _ in starts]
        ends = [*cuts[1:], len(unit.text)] if cuts else []
        if section is not None:
            section.add(unit, 0, cuts[0] if cuts else len(unit.text))
        elif not cuts or unit.text[: cuts[0]].strip():
            section = self.open = _Section(key, _place(meta), start, info.sections.ids)
            section.add(unit, 0, cuts[0] if cuts else len(unit.text))
        for (at, node), end in zip(starts, ends, strict=True):
            yield from self.close()
            section = self.open = _Section(key, _place(meta), node, info.sections.ids)
            section.add(unit, at, end)
        if section is not None and section.chars > SECTION_CHARS:
            yield from self.close()

    def _alone(self, unit: Document, marks: UnitSections, ids: bool) -> Chunks:
        """A unit without structure: the open section ends, the unit is chunked on its own
        (with the natural place it is in, if any: a message, an archive member)."""
        yield from self.close()
        where = _keys(marks.first, ids)
        for chunk in self.plain(unit):
            if where:
                chunk = Document(chunk.text, {**chunk.metadata, **where}, chunk.id)
            yield chunk, unit

    def close(self) -> Iterator[tuple[Any, Any]]:
        """The open section's chunks, then what was held behind it."""
        section, self.open = self.open, None
        if section is not None:
            info = self._file(section.file)
            rank = info.ranks.get((section.place, section.path), 0)
            info.ranks[(section.place, section.path)] = rank + 1
            yield from self._chunks(section, rank)
        held, self.held = self.held, []
        for item in held:
            yield item, item

    def _file(self, key: str) -> _File:
        info = self.files.get(key)
        if info is None:
            info = self.files[key] = _File()
            if len(self.files) > _FILES:
                self.files.popitem(last=False)
        self.files.move_to_end(key)
        return info

    def _chunks(self, section: _Section, rank: int) -> Chunks:
        text = _join(section.parts)
        spans = self._spans(text)
        titles = list(section.path)
        source = section.parts[0].unit.metadata.get("source")
        base = json.dumps([source, section.place, titles, rank], default=str)
        starts = [p.at for p in section.parts]
        for index, (span, header) in enumerate(spans, 1):
            first = section.parts[_bisect(starts, span[0])]
            last = section.parts[_bisect(starts, span[1] - 1)]
            body = text[span[0] : span[1]]
            if header is not None:
                prefixed = text[header[0] : header[1]] + body
                if self.splitter.length(prefixed, 0, len(prefixed)) <= self.splitter.chunk_size:
                    body = prefixed
            meta: dict[str, Any] = {
                **{k: v for k, v in first.unit.metadata.items() if k not in _SECTION_KEYS},
                **_keys(section.node, section.ids),
                "chunk_index": index,
                "chunk_count": len(spans),
                "char_start": first.start + span[0] - first.at,
            }
            pages = first.unit.metadata.get("page_number"), last.unit.metadata.get("page_number")
            if isinstance(pages[0], int) and isinstance(pages[1], int):
                meta["page_start"], meta["page_end"] = pages
            yield Document(body, meta, chunk_id(base, index, body)), first.unit

    def _spans(self, text: str) -> list[tuple[Span, Span | None]]:
        """The section's chunks: text pieces as everywhere, a table row by row (header and
        first row as one piece), each later row carrying its table's header."""
        split = self.splitter
        pieces: list[Span] = []
        headers: dict[int, Span] = {}
        pos = 0
        for table in tables(text):
            pieces += split.pieces(text, pos, table.header[0]) if table.header[0] > pos else []
            first = table.rows[0][1] if table.rows else table.header[1]
            pieces += split.pieces(text, table.header[0], first)
            for row in table.rows[1:]:
                cut = split.pieces(text, *row)
                headers[cut[0][0]] = table.header
                pieces += cut
            pos = table.end
        if pos < len(text):
            pieces += split.pieces(text, pos, len(text))
        out = []
        for start, end in split.merge(text, pieces, headers):
            span = stripped(text, (start, end))
            if span[1] > span[0]:
                out.append((span, headers.get(start)))
        return out


#: What a unit says of its own section, which a chunk's own section replaces.
_SECTION_KEYS = ("headings", "section_id")


def _keys(node: Section | None, ids: bool) -> dict[str, Any]:
    """A chunk's section: its heading path (``headings``, absent when it has none) and its id
    (``section_id``: when the file's ids are known, never for the text before any section)."""
    out: dict[str, Any] = {}
    if node is not None and (path := string_list(node.titles)):  # no empty list: every store
        out["headings"] = path
    if node is not None and ids and node.ordinal > 0:
        out["section_id"] = node.id
    return out


def _headed(node: Section | None) -> Section | None:
    """The section a unit starts in, None before the file's first one (``s0`` too)."""
    return node if node is not None and node.ordinal != 0 else None


def chunk_id(unit_id: str, index: int, text: str) -> str:
    """A chunk's id: a UUID from its unit's id (for a section: its file, place, heading path and
    rank among sections of that path), its 1-based index and a hash of its text."""
    return stable_id(unit_id, index, content=text.encode())


def _follows(before: Mapping[str, Any], meta: Mapping[str, Any]) -> bool:
    """``meta``'s unit is the next page (section, line window) of ``before``'s, in one flow."""
    if _place(before) != _place(meta):
        return False
    for key in FLOW_KEYS:
        a, b = before.get(key), meta.get(key)
        if isinstance(a, int) and isinstance(b, int):
            if key == "line_start":
                end = before.get("line_end")
                return isinstance(end, int) and b == end + 1
            return b == a + 1
    return False


def _place(meta: Mapping[str, Any]) -> str:
    """Where a unit is, less its flow keys: "{}" for a page of a PDF, a sheet or slide else."""
    return unit_position(meta, flow=False)


def _join(parts: list[_Part]) -> str:
    """The section's text: its parts, a blank line between units (a single line break between
    table rows, so a table that runs over a page stays one table); sets each part's ``at``."""
    out: list[str] = []
    at = 0
    for part in parts:
        piece = part.unit.text[part.start : part.end]
        if out:
            previous = out[-1].rstrip("\n")
            between = glue(previous, piece)
            at += len(previous) + len(between) - len(out[-1])
            out[-1] = previous + between
        part.at = at
        out.append(piece)
        at += len(piece)
    return "".join(out)


def _bisect(starts: list[int], offset: int) -> int:
    """The index of the part holding ``offset`` of the section text."""
    return max(0, bisect_right(starts, offset) - 1)
