"""One document's section tree: its sections in reading order, each with a short id (``s12``, its
rank in the document; ``s0`` is the text before the first section), heading text, level, where it
is and how much text it holds; what ``view="outline"`` lists, what ``section=`` names, what a
chunk's ``section_id`` points back to."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import field
from typing import Any

from ..errors import InvalidOptionError
from ..model import dataclass
from ..sanitize import lazy_pattern, shown_name
from .headings import title_key

#: The text before a document's first section, when it has any (``s0``); the deepest level,
#: so that any section ends it.
PREAMBLE = "(start)"
PREAMBLE_LEVEL = 99
#: Sections one document gives at most; headings past it are text (a hostile file's millions of
#: "#" lines must not become millions of sections).
MAX_SECTIONS = 20_000
#: Candidates an ambiguous or unknown ``section=`` names.
CANDIDATES = 8
#: Titles compared for the closest ones at most (difflib costs each title a comparison).
_LIKENED = 20_000
_ID = lazy_pattern(r"^[sS](\d{1,7})$")


def section_id(ordinal: int) -> str:
    """The id of the ``ordinal``-th section of a document (0: the text before the first)."""
    return f"s{ordinal}"


def ordinal_of(name: str) -> int | None:
    """The rank an id names (``"s12"`` -> 12), None when ``name`` is not an id."""
    m = _ID.match(name.strip())
    return int(m.group(1)) if m else None


@dataclass(slots=True)
class Section:
    """One section: its rank (``id``), heading level (natural places such as a sheet or an
    archive member sit above every heading, at levels below 1), title, enclosing section, where
    it starts and ends (the position metadata of those units, and lines where units count them)
    and its size in characters: its own text and with its subsections (``total``)."""

    ordinal: int
    level: int
    title: str
    parent: int | None = None
    start: Mapping[str, Any] = field(default_factory=dict)
    end: Mapping[str, Any] = field(default_factory=dict)
    line: int | None = None  # its first line, in units that number lines
    end_line: int | None = None
    chars: int = 0
    total: int = 0
    tokens: int | None = None  # when known otherwise than from its characters (PDF bookmarks)
    found: bool = True  # a bookmark whose title was found on its page
    titles: tuple[str, ...] = ()  # its heading path, from the top (a chunk's ``headings``)

    @property
    def id(self) -> str:
        return section_id(self.ordinal)

    @property
    def size(self) -> int:
        """About how many tokens reading it whole costs (4 characters a token)."""
        return self.tokens if self.tokens is not None else (self.total + 3) // 4

    def place(self) -> str:
        """Where it is, as the file counts: pages, slides, lines, a sheet, a message..."""
        return place(self.start, self.end, self.line, self.end_line)


@dataclass(slots=True)
class Tree:
    """A document's sections in reading order; ``source`` says where they come from
    ("bookmarks": a PDF's outline, "headings": the document's own heading lines and natural
    places)."""

    sections: list[Section] = field(default_factory=list)
    source: str = "headings"
    _by_ordinal: dict[int, int] = field(default_factory=dict)

    def add(self, section: Section) -> None:
        self._by_ordinal[section.ordinal] = len(self.sections)
        self.sections.append(section)

    def __iter__(self) -> Iterator[Section]:
        return iter(self.sections)

    def __len__(self) -> int:
        return len(self.sections)

    @property
    def headed(self) -> list[Section]:
        """The sections without the text before the first one."""
        return [s for s in self.sections if s.ordinal]

    def get(self, ordinal: int) -> Section | None:
        index = self._by_ordinal.get(ordinal)
        return None if index is None else self.sections[index]

    def depth(self, section: Section) -> int:
        """1 for a top section, 2 for one of its subsections, ..."""
        depth, parent = 1, section.parent
        while parent is not None and (up := self.get(parent)) is not None:
            depth, parent = depth + 1, up.parent
        return depth

    def path(self, section: Section) -> list[Section]:
        """The section and its enclosing ones, from the top."""
        out = [section]
        while out[0].parent is not None and (up := self.get(out[0].parent)) is not None:
            out.insert(0, up)
        return out

    def within(self, section: Section) -> list[Section]:
        """The section and its subsections, in order (its text runs to the next heading of the
        same or a higher level)."""
        start = self._by_ordinal[section.ordinal]
        out = [section]
        for later in self.sections[start + 1 :]:
            if later.level <= section.level:
                break
            out.append(later)
        return out

    def after(self, section: Section) -> Section | None:
        """The first section past ``section`` and its subsections (where its text ends)."""
        start = self._by_ordinal[section.ordinal] + len(self.within(section))
        return self.sections[start] if start < len(self.sections) else None

    def totals(self) -> None:
        """Each section's ``total``: its own characters and its subsections'."""
        for section in self.sections:
            section.total = section.chars
        for section in reversed(self.sections):
            if section.parent is not None and (up := self.get(section.parent)) is not None:
                up.total += section.total

    def resolve(self, name: str, file: str) -> Section:
        """The section ``name`` names: its id (``s12``; an outline line's start, ``s12 Title``,
        works too), else its heading text, case and spaces aside, whole or a prefix that only
        one title starts with. Several or none: InvalidOptionError listing the closest."""
        given = " ".join(str(name).split())
        head = given.split(" ", 1)[0]
        ordinal = ordinal_of(head)
        if ordinal is not None and (found := self.get(ordinal)) is not None:
            return found
        if ordinal == 0:  # the text before the first section: all of a document without any
            return Section(0, PREAMBLE_LEVEL, PREAMBLE)
        key = title_key(given)
        exact = [s for s in self.sections if key and title_key(s.title) == key]
        if len(exact) == 1:
            return exact[0]
        starts = exact or [s for s in self.sections if key and title_key(s.title).startswith(key)]
        if len(starts) == 1:
            return starts[0]
        shown = f"section={shown_name(repr(given), 80)}"
        if starts:
            raise InvalidOptionError(
                f"{shown}: {len(starts)} sections of {file} match; give the id of the one you "
                f"mean: {self._listed(starts)}"
            )
        raise InvalidOptionError(
            f"{shown}: no section of {file} has that id or heading"
            + (f"; the closest: {self._listed(close)}" if (close := self._closest(key)) else "")
            + "; view='outline' lists them all"
        )

    def _closest(self, key: str) -> list[Section]:
        """Sections whose title holds ``key``, then the ones most like it."""
        import difflib  # an error's hint: not on every process's import path

        holding = [s for s in self.sections if key and key in title_key(s.title)]
        titles = {title_key(s.title): s for s in self.sections}
        alike = (  # difflib compares each title in turn: spared on a huge outline
            difflib.get_close_matches(key, list(titles), n=CANDIDATES, cutoff=0.5)
            if len(titles) <= _LIKENED
            else []
        )
        out: dict[int, Section] = {}
        for section in [*holding, *(titles[t] for t in alike)]:
            out.setdefault(section.ordinal, section)
        return list(out.values())[:CANDIDATES]

    @staticmethod
    def _listed(sections: list[Section]) -> str:
        shown = [f"{s.id} {shown_name(s.title, 80)!r} ({s.place()})" for s in sections[:CANDIDATES]]
        more = len(sections) - CANDIDATES
        return "; ".join(shown) + (f"; and {more} more" if more > 0 else "")


def place(
    start: Mapping[str, Any],
    end: Mapping[str, Any],
    line: int | None = None,
    end_line: int | None = None,
) -> str:
    """Where a stretch of a file is, from the position metadata of its first and last units
    (``page 6``, ``pages 6-8``, ``slide 3``, ``lines 12-40``, ``sheet 'Q1' rows 1-50``,
    ``message 2``, an archive member first)."""
    parts: list[str] = []
    if "member" in start:
        parts.append(shown_name(str(start["member"]), 80))
    for key, one, many in (
        ("page_number", "page", "pages"), ("slide_number", "slide", "slides"),
        ("chapter", "chapter", "chapters"), ("section_index", "part", "parts"),
        ("message_index", "message", "messages"), ("cell_index", "cell", "cells"),
    ):  # fmt: skip
        if isinstance(first := start.get(key), int):
            last = end.get(key, first)
            last = last if isinstance(last, int) and last >= first else first
            parts.append(f"{many} {first}-{last}" if last > first else f"{one} {first}")
            break
    for key, label in (("sheet", "sheet"), ("table", "table")):
        if key in start:
            parts.append(f"{label} {shown_name(str(start[key]), 60)!r}")
    if line is not None:
        last_line = end_line if end_line is not None and end_line >= line else line
        parts.append(f"lines {line}-{last_line}" if last_line > line else f"line {line}")
    elif isinstance(first := start.get("row_start"), int):
        last = end.get("row_end", first)
        parts.append(f"rows {first}-{last}")
    return ", ".join(parts) or "the whole file"
