"""The units docread produces (Document, Media), the facts about a file, and a read's result."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Literal


def stable_id(*parts: object, content: bytes) -> str:
    """A UUID from where something is (``parts``) and a hash of what it holds: the one rule for
    unit ids (``pipeline``) and chunk ids (``rag.chunking``)."""
    h = hashlib.sha256("".join(f"{p}\0" for p in parts).encode())
    h.update(hashlib.sha256(content).digest())
    x = h.hexdigest()  # a UUID's text form, as str(uuid.UUID(x[:32])) (not importing uuid: 5 ms)
    return f"{x[:8]}-{x[8:12]}-{x[12:16]}-{x[16:20]}-{x[20:32]}"


# THE position keys: where a unit is in its file. A unit's id hashes them (pipeline), the metadata
# caps never cut or drop them (sanitize), a file's first unit has all the numbered ones at 1
# (properties: the header goes there), and the flow keys are those along which one file's text
# runs on, the next page, section or line window (a chunk's section runs on over them).
FLOW_KEYS = ("page_number", "section_index", "line_start")
FIRST_AT_ONE = (
    "page_number", "slide_number", "chapter", "section_index", "sheet_index", "row_start",
)  # fmt: skip
POSITION_KEYS = (
    "member", "sheet", "table", *FIRST_AT_ONE, "cell_index", "line_start", "table_index",
    "image_index", "message_index",
)  # fmt: skip


def unit_position(meta: Mapping[str, Any], *, flow: bool = True) -> str:
    """Where a unit is in its file (page, sheet, slide, member, cell, lines... as JSON): what its
    id hashes, and how a picture finds the text read at the same place. ``flow=False`` leaves
    the flow keys out: the place a file's text runs on in (a sheet, a slide; "{}" for a PDF)."""
    keys = POSITION_KEYS if flow else _PLACE_KEYS
    found = {k: meta[k] for k in keys if k in meta}
    if all(type(v) is int for v in found.values()):  # a page, slide, cell...: once a unit
        return "{" + ", ".join(f'"{k}": {found[k]}' for k in sorted(found)) + "}"  # json's text
    return json.dumps(found, sort_keys=True, default=str)


_PLACE_KEYS = tuple(k for k in POSITION_KEYS if k not in FLOW_KEYS)


@dataclass(frozen=True, slots=True, kw_only=True)
class FileInfo:
    """What detection found out about a file, once, before any parsing."""

    path: str
    name: str
    format: str
    category: str
    mime_type: str
    size: int
    modified: str  # ISO 8601
    source: str = ""  # the path as the workspace shows it (relative to its root; Workspace.shown)
    encoding: str | None = None
    is_dir: bool = False
    # the format the file's extension names when the content proves another (a text or PNG
    # saved as .pdf): the file is read as what it is, and this says so (metadata format_mismatch)
    extension_format: str | None = None


@dataclass(frozen=True, slots=True)
class Document:
    """A unit of text with flat metadata (page, rows, cell, member, ...)."""

    text: str
    metadata: Mapping[str, Any] = field(default_factory=dict)
    id: str = ""


@dataclass(frozen=True, slots=True)
class Media:
    """Bytes for a vision model or a native PDF reader: image/* or application/pdf."""

    mime_type: str
    data: bytes
    metadata: Mapping[str, Any] = field(default_factory=dict)
    id: str = ""


Unit = Document | Media
OutputFormat = Literal["text", "markdown", "json"]
