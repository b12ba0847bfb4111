"""The Reader's outline and section reads: ``view="outline"`` lists a document's sections,
``section=`` reads one whole (its subsections included) as markdown, cut by the view's limits
with a hint that goes on inside it.

The tree comes from the file's loader units (a read like any other, cached like any other),
or, for a PDF whose outline can stand for its sections, from the outline alone (no page read);
a section of such a PDF reads only its own pages.
"""

from __future__ import annotations

from dataclasses import field
from typing import TYPE_CHECKING, Any

from ..extractors.base import WINDOW_NEXT, WINDOW_SHOWN
from ..model import Document, FileInfo, dataclass
from ..request.options import ReadOptions
from ..result import ReadResult
from ..sanitize import shown_name
from ..views.outline import outline_lines
from .build import TreeBuilder, UnitSections, joined, no_structure
from .tree import PREAMBLE, Section, Tree

if TYPE_CHECKING:
    from ..isolation.host import Host
    from ..settings import Settings
    from ..source import Source

#: The read options the tree's loader read keeps (the file, and what decides its text); the
#: others select or shape a window of the view.
_KEPT = ("file_path", "format_hint", "include_metadata", "ocr", "mode", "archive_path", "pattern")


@dataclass(slots=True)
class Built:
    """A file's tree, and (built from the loader units) those units with where sections stand
    in each; ``none``: the one line saying the file has no sections, and what it has instead."""

    tree: Tree = field(default_factory=Tree)
    units: list[Document] = field(default_factory=list)
    marks: list[UnitSections] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    none: str = ""


def read_outline(host: Host, opts: ReadOptions) -> ReadResult:
    """``view="outline"``: the document's sections, one line each (``section=`` lists one
    section's subsections), cut to the view's limits by depth, then by ``offset``/``limit``."""
    source, info = host.open(opts)
    with source:
        built = file_tree(host, source, info, opts)
    result = _result(host.settings, info, opts, built.notes)
    if built.none:
        result.documents.append(Document(built.none, {"extractor": "outline"}))
        return result
    tree = built.tree
    chosen = tree.within(tree.resolve(opts.section, info.source)) if opts.section else list(tree)
    lines, depth, hidden = outline_lines(tree, chosen, host.settings.output)
    count = len(tree.headed)
    origin = " (from the PDF's bookmarks)" if tree.source == "bookmarks" else ""
    result.header["Sections"] = f"{count:,}{origin}" + (
        f"; {len(chosen):,} in {chosen[0].id}" if opts.section else ""
    )
    if hidden:
        result.header["Shown"] = (
            f"{depth} level{'s' if depth > 1 else ''}; {hidden:,} deeper sections left out"
        )
        result.notes.append(
            f"{hidden:,} deeper sections are not listed: view='outline' section='<id>' lists one "
            "section's subsections"
        )
    start = opts.offset or 1
    end = len(lines) if not opts.limit else min(len(lines), start + opts.limit - 1)
    window = lines[start - 1 : end]
    meta = {"extractor": "outline", "line_start": start, "line_end": start + len(window) - 1,
            "total_lines": len(lines)}  # fmt: skip
    result.documents.append(Document("\n".join(window), meta))
    if end < len(lines):
        result.header[WINDOW_SHOWN] = f"outline lines {start}-{end} of {len(lines):,}"
        result.header[WINDOW_NEXT] = f"view='outline' offset={end + 1}"
    example = chosen[1].id if len(chosen) > 1 else chosen[0].id
    result.notes.append(
        f"Read one section with section='{example}' (its id, or its heading text); it comes "
        "whole, with its subsections."
    )
    return result


def read_section(host: Host, opts: ReadOptions) -> ReadResult:
    """``section=``: the section's text from its heading to the next heading of the same or a
    higher level, across pages, as markdown; ``offset``/``limit`` window its lines."""
    assert opts.section is not None
    source, info = host.open(opts)
    with source:
        built = file_tree(host, source, info, opts)
        if built.none:
            raise _no_sections(built.none, opts.section)
        section = built.tree.resolve(opts.section, info.source)
        if built.tree.source == "bookmarks":
            built = _pages_of(host, source, info, opts, built.tree, section)
    text, first, last = section_text(built, section)
    result = _result(host.settings, info, opts, built.notes)
    path = [s.title for s in built.tree.path(section)] if section.ordinal else []
    lines = text.split("\n") if text else []
    start = opts.offset or 1
    end = len(lines) if not opts.limit else min(len(lines), start + opts.limit - 1)
    meta: dict[str, Any] = {
        "extractor": "section", "section_id": section.id, "line_start": start,
        "line_end": max(start, end), "total_lines": len(lines),
    }  # fmt: skip
    if path:
        meta["headings"] = path[-8:]
    for key, value in (
        ("page_start", first.get("page_number")),
        ("page_end", last.get("page_number")),
    ):
        if isinstance(value, int):
            meta[key] = value
    place = section.place() if section.ordinal else "before the first section"
    result.header["Section"] = (
        f"{section.id} {shown_name(section.title, 120)} ({place}, ~{section.size:,} tokens)"
    )
    if len(path) > 1:
        result.header["Path"] = " > ".join(shown_name(t, 80) for t in path)
    if start > len(lines) and lines:
        result.notes.append(
            f"offset={start} is past the end of the section: it has {len(lines)} lines."
        )
    result.documents.append(Document("\n".join(lines[start - 1 : end]), meta))
    if end < len(lines):
        result.header[WINDOW_SHOWN] = f"lines {start}-{end} of {len(lines):,} of {section.id}"
        result.header[WINDOW_NEXT] = f"section='{section.id}' offset={end + 1}"
    if not section.found:
        result.notes.append(
            f"{section.id}'s title was not found on page {section.start.get('page_number')}: "
            "it is read from where the outline's next entry on that page starts, or the next page"
        )
    return result


def file_tree(host: Host, source: Source, info: FileInfo, opts: ReadOptions) -> Built:
    """The file's section tree: a PDF's usable outline (no page read), else built from its
    loader units; ``none`` says why a file has none."""
    why = no_structure(info)
    if why:
        return Built(none=why)
    base = _whole(opts)
    if info.format == "pdf":
        ctx = host.context(info, base.replace(view="outline"), loader=True)
        listing = [u.text for u in host.units(source, info, ctx)[0] if isinstance(u, Document)]
        if listing:
            return Built(bookmark_tree(listing[0]), notes=list(ctx.notes))
    ctx = host.context(info, base, loader=True)
    builder = TreeBuilder()
    built = Built()
    for unit in host.units(source, info, ctx)[0]:
        if isinstance(unit, Document):
            built.units.append(unit)
            built.marks.append(builder.feed(unit))
    built.tree, built.notes = builder.close(), list(ctx.notes)
    if builder.dropped:
        built.notes.append(
            f"{info.source}: {builder.dropped:,} headings past the first {len(built.tree):,} "
            "sections are read as text"
        )
    if not built.tree.headed:
        built.none = no_structure(info, found=False)
    return built


def bookmark_tree(listing: str) -> Tree:
    """The tree of a PDF's outline from ``view="outline"``'s unit: one entry a line (rank,
    level, page, last page, place on the page, tokens, title; tab-separated)."""
    tree = Tree(source="bookmarks")
    path: list[Section] = []
    for line in listing.split("\n"):
        fields = line.split("\t", 6)
        numbers = fields[:6]
        if len(fields) < 7 or not all(f.lstrip("-").replace(".", "", 1).isdigit() for f in numbers):
            continue
        ordinal, level, page, end = (int(f) for f in fields[:4])
        while path and path[-1].level >= level:
            path.pop()
        parent = path[-1] if path and ordinal else None
        title = fields[6] or PREAMBLE
        section = Section(
            ordinal, level, title, parent.ordinal if parent else None,
            start={"page_number": page}, end={"page_number": end}, tokens=int(fields[5]),
            titles=(*(parent.titles if parent else ()), title) if ordinal else (),
        )  # fmt: skip
        tree.add(section)
        if ordinal:
            path.append(section)
    return tree


def section_text(built: Built, section: Section) -> tuple[str, dict[str, Any], dict[str, Any]]:
    """The section's text, from its start to where the next section of its level or a higher
    one starts (``s0``: to the first section), and the metadata of the units it starts and
    ends in."""
    where = _starts(built)
    if not built.units or section.ordinal not in where and section.ordinal:
        return "", {}, {}
    begin = where.get(section.ordinal, (0, 0))  # s0 of a file without sections: all of it
    ends = [
        at for ordinal, at in where.items()
        if at > begin and ordinal > section.ordinal and (other := built.tree.get(ordinal))
        and other.level <= section.level
    ]  # fmt: skip
    stop = min(ends) if ends else (len(built.units), 0)
    pieces: list[str] = []
    for index in range(begin[0], min(stop[0] + 1, len(built.units))):
        text = built.units[index].text
        a = begin[1] if index == begin[0] else 0
        b = stop[1] if index == stop[0] else len(text)
        if b > a:
            pieces.append(text[a:b])
    last = max(begin[0], min(stop[0] if stop[1] else stop[0] - 1, len(built.units) - 1))
    units = built.units
    return joined(pieces).strip("\n"), dict(units[begin[0]].metadata), dict(units[last].metadata)


def _starts(built: Built) -> dict[int, tuple[int, int]]:
    """Where each section starts: (unit index, offset in its text)."""
    out: dict[int, tuple[int, int]] = {}
    for index, marks in enumerate(built.marks):
        for at, section in marks.starts:
            if section.ordinal >= 0:
                out.setdefault(section.ordinal, (index, at))
    return out


def _pages_of(
    host: Host, source: Source, info: FileInfo, opts: ReadOptions, tree: Tree, section: Section
) -> Built:
    """A bookmarked PDF's section: its pages read (loader units, cached like any read), the
    outline's entries placed on them; the tree stays the outline's."""
    first = int(section.start.get("page_number", 1))
    after = tree.after(section)
    last = int(
        (after or section).start["page_number"] if after else section.end.get("page_number", first)
    )
    base = _whole(opts)
    ctx = host.context(info, base.replace(pages=f"{first}-{max(first, last)}"), loader=True)
    builder = TreeBuilder()
    built = Built(tree=tree)
    for unit in host.units(source, info, ctx)[0]:
        if isinstance(unit, Document):
            built.units.append(unit)
            built.marks.append(builder.feed(unit))
    built.notes = list(ctx.notes)
    return built


def _whole(opts: ReadOptions) -> ReadOptions:
    """The options of the loader read a tree is built from: the whole file as loaders get it."""
    return ReadOptions(**{name: getattr(opts, name) for name in _KEPT})


def _result(settings: Settings, info: FileInfo, opts: ReadOptions, notes: list[str]) -> ReadResult:
    return ReadResult(
        file=info, header={"Document": info.name}, notes=list(notes),
        output_format=opts.output_format, settings=settings,
    )  # fmt: skip


def _no_sections(why: str, name: str) -> Exception:
    from ..errors import InvalidOptionError

    return InvalidOptionError(f"section={shown_name(repr(name), 80)}: {why}")
