"""Output sanitization, applied once per unit: no NULs, control characters or terminal escapes
reach a model, and metadata stays flat, few and short (vector stores reject anything else)."""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from datetime import date, datetime
from typing import Any

from .settings import OutputSettings

_ANSI = re.compile(
    r"\x1b\[[0-?]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)?|\x1b[@-Z\\-_]|\x9b[0-?]*[ -/]*[@-~]"
)
_CONTROL = re.compile(r"[\x01-\x08\x0b\x0c\x0e-\x1f\x7f\x80-\x9f]")


def clean_text(text: str, output: OutputSettings) -> str:
    """Strip ANSI escape sequences, NUL bytes and control characters (keeping \\n and \\t)."""
    if "\x1b" in text or "\x9b" in text:
        text = _ANSI.sub("", text)
    if "\r" in text:
        text = text.replace("\r\n", "\n").replace("\r", "\n")
    if output.strip_null_bytes and "\x00" in text:
        text = text.replace("\x00", "")
    if output.strip_control_chars:
        text = _CONTROL.sub("", text)
    return text


def flat_value(value: Any) -> str | int | float | bool | None:
    """A JSON scalar for a metadata value: dates as ISO 8601, containers as compact JSON."""
    if value is None or isinstance(value, bool | int | float | str):
        return value
    if isinstance(value, datetime | date):
        return value.isoformat()
    if isinstance(value, bytes):
        return f"<{len(value)} bytes>"
    if isinstance(value, list | tuple | set | frozenset) and all(
        isinstance(v, str | int | float) for v in value
    ):
        return ", ".join(str(v) for v in value)
    try:
        return json.dumps(value, default=str, ensure_ascii=False)
    except (TypeError, ValueError):
        return str(value)


# identity and position keys: never cut (a truncated path breaks upserts) and never dropped by the
# field cap (it applies to the remaining, descriptive keys)
_PROTECTED = frozenset({
    "source", "file_path", "file_name", "format", "category", "mime_type", "archive", "member",
    "depth", "page_number", "page_count", "slide_number", "slide_count", "line_start", "line_end",
    "sheet", "sheet_index", "row_start", "row_end", "table", "cell_index", "chapter", "section_index",
})  # fmt: skip


def clean_metadata(metadata: Mapping[str, Any], output: OutputSettings) -> dict[str, Any]:
    """Flat scalars only; identity and position keys always kept whole, the other keys capped at
    ``max_metadata_fields`` in all and ``max_metadata_value_len`` characters each."""
    out: dict[str, Any] = {}
    for protected in (True, False):
        for key, raw in metadata.items():
            if (key in _PROTECTED) != protected:
                continue
            if not protected and len(out) >= output.max_metadata_fields:
                return out
            value = flat_value(raw)
            if value is None:
                continue
            if isinstance(value, str):
                value = clean_text(value, output)
                if not protected and len(value) > output.max_metadata_value_len:
                    value = value[: output.max_metadata_value_len] + "..."
            out[str(key)] = value
    return out


def cut_cell(text: str, output: OutputSettings) -> str:
    """A table cell capped at ``max_cell_content`` characters, with a visible marker."""
    limit = output.max_cell_content
    if len(text) <= limit:
        return text
    return f"{text[:limit]}... [cell truncated: {len(text):,} chars]"
