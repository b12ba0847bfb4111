"""A load's units with their sections: every Document that lies in a section of its file gets
that section's id (``section_id``, the id ``section=`` reads and ``view="outline"`` lists), from
the same reading of the file the outline makes (``build.TreeBuilder``), as the units stream."""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Iterable, Iterator
from typing import TypeVar

from ..model import Document
from .build import TreeBuilder, file_key

T = TypeVar("T")
#: Files whose sections are followed at once (a load that hands units out as they come).
_FILES = 256


def with_sections(units: Iterable[Document | T]) -> Iterator[Document | T]:
    """``units`` as they come, each Document with the ``section_id`` of the section its first
    content is in (none before a file's first section, in a file without any, or when a read
    began past the file's start: ids are ranks counted from it)."""
    files: OrderedDict[str, TreeBuilder] = OrderedDict()
    for unit in units:
        if not isinstance(unit, Document):
            yield unit
            continue
        key = file_key(unit.metadata)
        builder = files.get(key)
        if builder is None:
            builder = files[key] = TreeBuilder(sizes=False)
            if len(files) > _FILES:
                files.popitem(last=False)
        files.move_to_end(key)
        node = builder.feed(unit).first
        if node is not None and node.ordinal > 0 and builder.ids:
            unit = Document(unit.text, {**unit.metadata, "section_id": node.id}, unit.id)
        yield unit
