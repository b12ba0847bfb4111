"""Document properties in the text: title, author, subject and keywords of a document file (PDF,
office, e-book, workbook) as a short header at the head of its first unit in loader mode, so a
search for the author finds the file; they stay in the metadata too."""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from ..model import FIRST_AT_ONE

if TYPE_CHECKING:
    from .base import Context

PROPERTY_LABELS = (
    ("title", "Title"),
    ("author", "Author"),
    ("subject", "Subject"),
    ("keywords", "Keywords"),
)
# size-limit categories whose files carry document properties (audio tags and image EXIF are
# the media's own metadata, shown in their own header)
DOCUMENT_CATEGORIES = frozenset({"pdf", "office", "tabular"})
_META_LABELS = (
    "title", "author", "subject", "keywords", "description", "created", "last_modified",
    "last_modified_by",
)  # fmt: skip
_MARKUP = re.compile(r"[#*_`>|]+")
# what writers put where a property was never set (ReportLab's "(anonymous)", "untitled"):
# saying it in the text only makes a first chunk of noise
_PLACEHOLDERS = frozenset(
    {"anonymous", "unspecified", "untitled", "unknown", "none", "null", "n/a"}
)


def is_first_unit(meta: Mapping[str, Any]) -> bool:
    """Whether a unit is the head of its file (page 1, slide 1, the first sheet's first rows):
    only that unit gets the header, so a page read alone keeps the id it has in a whole read."""
    return all(meta.get(key, 1) == 1 for key in FIRST_AT_ONE)


def properties_header(meta: Mapping[str, Any], text: str) -> str:
    """``Title: ...`` / ``Author: ...`` lines for the properties ``meta`` holds (values already
    sanitized and capped by ``clean_metadata``); the title is left out when the text's first line
    already holds it, a placeholder (``(anonymous)``, ``untitled``) always. Empty when there is
    nothing to say."""
    first_line = next((line for line in text.splitlines() if line.strip()), "")
    shown = _plain(first_line)
    lines = []
    for key, label in PROPERTY_LABELS:
        value = " ".join(str(meta.get(key) or "").split())
        if not value or _placeholder(value) or (key == "title" and _plain(value) in shown):
            continue
        lines.append(f"{label}: {value}")
    return "\n".join(lines)


def _placeholder(value: str) -> bool:
    """A value that says the property was not set: ``(anonymous)``, ``(unspecified)``,
    ``Untitled``, ``unknown``, ``n/a`` (brackets and case aside)."""
    return value.strip(" ()[]<>").casefold() in _PLACEHOLDERS


def _plain(text: str) -> str:
    return " ".join(_MARKUP.sub(" ", text).lower().split())


def document_properties(ctx: Context, meta: dict[str, Any]) -> dict[str, Any]:
    """The properties every unit of an office file or workbook carries, and the agent view's
    Metadata header block (both only with include_metadata)."""
    if not ctx.options.include_metadata or not meta:
        return {}
    lines = [
        f"  - {k.replace('_', ' ').capitalize()}: {meta[k]}" for k in _META_LABELS if meta.get(k)
    ]
    if lines:
        ctx.set_header("Metadata", "\n" + "\n".join(lines))
    return dict(meta)
