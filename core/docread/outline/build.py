"""The section tree of one file, built from its units in reading order (``TreeBuilder.feed``),
and what each unit holds: the section in force where it starts, the sections that start in it
(offset, section) and the one its first content belongs to. The outline view, ``section=``,
the loaders' ``section_id`` and the chunker's sections all read a file through this one class.

Where a section starts:
- heading lines (``headings``) in units read as markdown (PDF pages, office documents, HTML
  pages, ``.md``/``.rst`` files, notebooks' markdown cells);
- natural places (``places``), above every heading: an archive member, an e-mail message of an
  mbox and its attachments, a sheet, a database table (a slide is already its ``## Slide N``
  heading);
- a PDF with a usable outline: its bookmarks (``extractors.pdf.bookmarks`` stamps each page with
  the entries that start on it, ``bookmarks``, and the one in force where it starts,
  ``page_section``); each is placed at the heading (or line) of its page with its title
  (``stamps``).

Ids are ranks (``s12``) counted from the file's first unit; a read that starts past it, or skips
units, knows the heading paths but not the ranks (``ids``), except under bookmarks, whose ranks
the pages carry.
"""

from __future__ import annotations

import bisect
import re
from collections.abc import Mapping
from dataclasses import field
from typing import Any

from ..extractors.properties import properties_header
from ..model import Document, FileInfo, dataclass, unit_position
from ..sanitize import shown_name
from .places import CELL_HEAD, natural_places, reader
from .stamps import bookmark_entries, place_bookmarks
from .tree import MAX_SECTIONS, PREAMBLE, PREAMBLE_LEVEL, Section, Tree, ordinal_of

#: Position keys along which one file's units follow each other.
_ORDER = ("page_number", "slide_number", "chapter", "section_index", "message_index", "cell_index")
_BREAK = re.compile("\n")


@dataclass(slots=True)
class UnitSections:
    """Where sections stand in one unit: ``start`` is in force where it starts, ``starts`` are
    the (offset, section) pairs that start in it, ``first`` holds its first content (after the
    properties header a loader puts on a file's first unit)."""

    start: Section | None
    starts: list[tuple[int, Section]] = field(default_factory=list)
    first: Section | None = None

    def at(self, offset: int) -> Section | None:
        """The section in force at ``offset`` of the unit's text."""
        current = self.start
        for at, section in self.starts:
            if at > offset:
                break
            current = section
        return current


class TreeBuilder:
    """Sections of one file from its units, fed in reading order. ``tree`` holds them (ids
    counted from the first unit); ``ids`` says whether those ranks are the file's own (the
    units began at the file's start and skipped none, or a PDF's bookmarks gave them).
    ``sizes=False``: the sections' sizes and ends are not counted (``with_sections`` needs only
    where they start)."""

    def __init__(self, *, sizes: bool = True) -> None:
        self.sizes = sizes
        self.tree = Tree()
        self.ids = True
        self.dropped = 0  # headings past MAX_SECTIONS, left as text
        self._path: list[Section] = []
        self._places: tuple[tuple[int, str, str], ...] = ()
        self._next = 1
        self._last: Mapping[str, Any] | None = None

    @property
    def titles(self) -> tuple[str, ...]:
        """The heading path in force now."""
        return self._path[-1].titles if self._path else ()

    def feed(self, unit: Document) -> UnitSections:
        meta, text = unit.metadata, unit.text
        first, before = self._last is None, self._last
        self._last = meta
        content = _content_start(meta, text, first=first)
        if "page_section" in meta:
            self.tree.source = "bookmarks"
            return self._bookmarked(meta, text, content)
        if before is None or _gap(before, meta):
            # a database's outline is its schema (a plain read): its tables name its chunks'
            # places, but section= does not read them
            self.ids = (
                before is None and _at_file_start(meta) and meta.get("category") != "database"
            )
            self._given(meta)
        here = _Here(meta, text)
        out = UnitSections(self._top())
        for level, key, title in self._natural(meta):  # where its own content starts
            self._start(here, min(content, len(text)), level, title, out, key=key)
        read = reader(meta)
        marks = read(text) if read is not None else []
        if (
            self._next == 1
            and not self._path
            and _before(text, content, marks[0].at if marks else None)
        ):
            self._preamble(here, content, out)
        for mark in marks:
            self._start(here, mark.at, mark.level, mark.title, out)
        if self.sizes:
            self._account(here, out)
        out.first = out.at(content)
        return out

    def close(self) -> Tree:
        """The tree, each section's total size added up."""
        self.tree.totals()
        return self.tree

    # -- heading lines and natural places ----------------------------------------------------
    def _start(
        self,
        here: _Here,
        at: int,
        level: int,
        title: str,
        out: UnitSections,
        *,
        key: str = "",
        ordinal: int | None = None,
        found: bool = True,
    ) -> None:
        """A section that starts at ``at``: the path loses what it closes, gains it."""
        if ordinal is None and self._next > MAX_SECTIONS:
            self.dropped += 1
            return
        while self._path and self._path[-1].level >= level:
            self._path.pop()
        parent = self._path[-1].ordinal if self._path else None
        if ordinal is None:
            ordinal, self._next = self._next, self._next + 1
        titles = (*self.titles, title) if ordinal else ()
        section = Section(
            ordinal, level, title, parent if parent is not None and parent >= 0 else None,
            start=here.where, end=here.where, line=here.line(at), found=found,
            titles=titles,
        )  # fmt: skip
        self._path.append(section)
        if ordinal >= 0 and self.tree.get(ordinal) is None:
            self.tree.add(section)
        out.starts.append((at, section))
        if key:
            self._places = (*self._places, (level, key, title))

    def _natural(self, meta: Mapping[str, Any]) -> list[tuple[int, str, str]]:
        """The natural places this unit opens: those past the ones it shares with the unit
        before (a new sheet in the same member, a new member...); the ones it left are closed."""
        places = natural_places(meta)
        same = 0
        while same < min(len(places), len(self._places)) and places[same] == self._places[same]:
            same += 1
        changed = [level for level, _, _ in (*self._places[same:], *places[same:])]
        if changed:
            while self._path and self._path[-1].level >= min(changed):
                self._path.pop()
        self._places = self._places[:same]
        return list(places[same:])

    def _preamble(self, here: _Here, at: int, out: UnitSections) -> None:
        """The text before the file's first section: ``s0``."""
        self._start(here, at, PREAMBLE_LEVEL, PREAMBLE, out, ordinal=0)

    def _given(self, meta: Mapping[str, Any]) -> None:
        """A read that starts past the file's start or skips units: the unit's own ``headings``
        (the path in force where it starts) stand for the sections before it, without ids."""
        self._path = []
        given = meta.get("headings")
        if isinstance(given, list | tuple):
            for level, title in enumerate((str(t) for t in given if str(t)), 1):
                self._path.append(Section(-1, level, title, titles=(*self.titles, title)))

    def _top(self) -> Section | None:
        return self._path[-1] if self._path else None

    def _account(self, here: _Here, out: UnitSections) -> None:
        """Each stretch of the unit's text counted to the section it belongs to (and where its
        ancestors end)."""
        text = here.text
        bounds = [*(at for at, _ in out.starts), len(text)]
        owners = [out.start, *(s for _, s in out.starts)]
        stretches = zip([0, *bounds[:-1]], bounds, owners, strict=True)
        for begin, end, owner in stretches:
            if owner is None or end <= begin:
                continue
            owner.chars += end - begin
            if text[begin:end].strip():
                line = here.line(max(begin, end - 1))
                for section in self.tree.path(owner):
                    section.end, section.end_line = here.where, line

    # -- a PDF's bookmarks ---------------------------------------------------------------------
    def _bookmarked(self, meta: Mapping[str, Any], text: str, content: int) -> UnitSections:
        """A page of a PDF whose outline gives its sections: the one in force where it starts
        (``page_section``) and the entries that start on it (``bookmarks``), placed."""
        in_force = ordinal_of(str(meta.get("page_section", ""))) or 0
        top = self._top()
        if top is None or top.ordinal != in_force:
            if self._known(in_force):
                self._restore(in_force)
            else:
                self._given(meta)
                if in_force and self._path:  # the deepest heading in force is that entry
                    ghost = self._path[-1]
                    self._path[-1] = Section(
                        in_force, ghost.level, ghost.title, titles=ghost.titles
                    )
        here = _Here(meta, text)
        out = UnitSections(self._top())
        entries = bookmark_entries(str(meta.get("bookmarks", "")))
        placed = place_bookmarks(text, [title for _, _, title in entries])
        if (
            in_force == 0
            and not self._path
            and _before(text, content, placed[0][0] if placed else None)
        ):
            self._preamble(here, content, out)
        for (ordinal, level, title), (at, found) in zip(entries, placed, strict=True):
            self._start(here, at, level, title, out, ordinal=ordinal, found=found)
        if self.sizes:
            self._account(here, out)
        out.first = out.at(content)
        return out

    def _known(self, ordinal: int) -> bool:
        return ordinal > 0 and self.tree.get(ordinal) is not None

    def _restore(self, ordinal: int) -> None:
        """The path in force is that of a section already seen (the page follows it)."""
        section = self.tree.get(ordinal)
        if section is not None:
            self._path = self.tree.path(section)


def file_key(meta: Mapping[str, Any]) -> str:
    """The file a unit belongs to, whose sections it shares: an archive member's outermost
    archive, else its own ``source``."""
    archive, depth = meta.get("archive"), meta.get("depth")
    if isinstance(archive, str) and archive:
        nested = depth - 1 if isinstance(depth, int) and depth > 1 else 0
        return archive.rsplit("::", nested)[0] if nested else archive
    return str(meta.get("source", ""))


def _at_file_start(meta: Mapping[str, Any]) -> bool:
    """A unit at the very start of its file (page, slide, line, cell... 1). A sheet's rows do
    not count: its sections are its sheets (a first sheet whose table starts at row 2, or a
    rows= window of every sheet, still has them all)."""
    keys = (*_ORDER, "sheet_index", "line_start", *(() if "sheet_index" in meta else ("row_start",)))
    return all(meta.get(key, 1) == 1 for key in keys)


def _gap(before: Mapping[str, Any], meta: Mapping[str, Any]) -> bool:
    """``meta``'s unit does not come right after ``before``'s in its file (a page selection)."""
    if unit_position(before, flow=False) != unit_position(meta, flow=False):
        return False  # another sheet, slide, member...: a natural place, not a gap
    for key in _ORDER:
        a, b = before.get(key), meta.get(key)
        if isinstance(a, int) and isinstance(b, int):
            return b != a + 1
    end, b = before.get("line_end"), meta.get("line_start")
    return isinstance(end, int) and isinstance(b, int) and b != end + 1


_WHERE = ("member", "page_number", "slide_number", "chapter", "section_index", "message_index",
          "cell_index", "sheet", "table", "row_start", "row_end", "line_start", "line_end")  # fmt: skip


class _Here:
    """One unit as the builder reads it: where it is (the position metadata an outline line
    shows) and, in a unit that numbers its lines (text, HTML markdown), the line of an offset."""

    __slots__ = ("meta", "text", "where", "_breaks")

    def __init__(self, meta: Mapping[str, Any], text: str) -> None:
        self.meta, self.text = meta, text
        self.where = {k: meta[k] for k in _WHERE if k in meta}
        self._breaks: list[int] | None = None

    def line(self, at: int) -> int | None:
        start = self.meta.get("line_start")
        if not isinstance(start, int):
            return None
        if self._breaks is None:  # once per unit: a line per heading is a bisection
            self._breaks = [m.start() for m in _BREAK.finditer(self.text)]
        return start + bisect.bisect_left(self._breaks, at)


def _content_start(meta: Mapping[str, Any], text: str, *, first: bool) -> int:
    """Where a unit's own content starts: past the properties header (``Author: ...``) a loader
    puts above a file's ``first`` unit and a notebook cell's ``## Cell N [kind]`` line, which
    are no section's content."""
    skip = 0
    if meta.get("extractor") == "notebook" and (cell := CELL_HEAD.match(text)):
        skip = cell.end()
    elif first:
        head, sep, rest = text.partition("\n\n")
        if sep and head and head == properties_header(meta, rest):
            skip = len(head) + len(sep)
    return skip + len(text[skip:]) - len(text[skip:].lstrip())


def _before(text: str, content: int, first: int | None) -> bool:
    """Whether a unit holds content before its first section start (``first``; None: none
    starts in it): the text before a file's first section."""
    end = len(text) if first is None else first
    return content < len(text) and bool(text[content:end].strip())


def glue(before: str, piece: str) -> str:
    """What joins two units' texts in one section: a blank line, or a line break between two
    rows of a table that runs on (a page that goes on with the rows of the one before)."""
    row = before.rsplit("\n", 1)[-1].lstrip(" ").startswith("|")
    return "\n" if row and piece.lstrip(" \n").startswith("|") else "\n\n"


def joined(pieces: list[str]) -> str:
    """Units' texts as one section's text (``glue`` between them)."""
    out = ""
    for piece in pieces:
        out = out.rstrip("\n") + glue(out.rstrip("\n"), piece) + piece if out else piece
    return out


#: What a format without sections has instead, by format category (``no_structure``).
_WINDOWS = {
    "pdf": "read it by pages with pages= (e.g. pages='1-5')",
    "office": "read it by pages with pages= (pages, slides, chapters or parts, as its header says)",
    "text": "read it by lines with offset= and limit=",
    "notebook": "read it by lines with offset= and limit=",
    "tabular": "read rows with rows= (e.g. rows='head:50') and columns=",
    "email": "read it whole (an mbox's messages with pages=)",
    "archive": "list its members with mode='list', read one with mode='read' archive_path=",
    "database": "a plain read lists its tables; read one with table=",
    "image": "a plain read gives what it holds (metadata, text in it)",
    "audio": "a plain read gives its tags and length",
    "directory": "a plain read lists it; pattern= filters the listing",
}
_PLAIN = {
    "directory": "a folder", "image": "a picture", "audio": "a recording",
    "database": "a database", "text": "plain text", "tabular": "a single table",
}  # fmt: skip
_SHEETS = frozenset({"xlsx", "xls", "ods"})
_WRITTEN = (".md", ".markdown", ".rst", ".rest")


def no_structure(info: FileInfo, *, found: bool = True) -> str:
    """The one line ``view="outline"`` gives for a file without sections, and the window it has
    instead; "" for a format that can have sections (``found=False``: it was read and had
    none)."""
    name, category = shown_name(info.name, 80), info.category
    window = _WINDOWS.get(category, "read it with a plain read")
    if not found:
        return f"{name} has no headings docread could find: no sections to list; {window}."
    plain = (
        info.is_dir
        or category in ("image", "audio", "database")
        or category == "text"
        and info.format != "html"
        and not info.name.lower().endswith(_WRITTEN)
        or category == "tabular"
        and info.format not in _SHEETS
    )
    if not plain:
        return ""
    kind = _PLAIN["directory" if info.is_dir else category]
    return f"{name} is {kind}: it has no sections; {window}."
