"""The units docread produces (Document, Media), the facts about a file, and a read's result."""

from __future__ import annotations

import hashlib
import uuid
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Literal


def stable_id(*parts: object, content: bytes) -> str:
    """A UUID from where something is (``parts``) and a hash of what it holds: the one rule for
    unit ids (``pipeline``) and chunk ids (``rag.chunking``)."""
    h = hashlib.sha256("".join(f"{p}\0" for p in parts).encode())
    h.update(hashlib.sha256(content).digest())
    return str(uuid.UUID(h.hexdigest()[:32]))


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
