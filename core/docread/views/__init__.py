"""The agent view: a ReadResult rendered as text, markdown or JSON, cut to the output limits
with a hint on how to read on. Only this view truncates; loaders get every unit."""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any

from ..model import Document
from ..sanitize import shown_name, shown_text
from ..settings import Settings
from .sections import Section, section_for

if TYPE_CHECKING:
    from ..result import ReadResult


def render(
    result: ReadResult, output_format: str = "text", *, settings: Settings | None = None
) -> str:
    settings = settings or Settings()
    if output_format == "json":
        return _render_json(result, settings)
    parts: list[str] = []
    if output_format == "markdown":
        parts.append(f"# {shown_name(result.file.name)}\n")
    if result.header:
        parts.append("\n".join(_header_line(k, v) for k, v in result.header.items()))
        parts.append("\n---\n")
    head = "\n".join(parts)
    body, cut_hint = _body(
        result, output_format, settings, budget_chars=settings.output.max_chars - len(head)
    )
    notes = list(result.notes)
    if cut_hint:
        notes.append(cut_hint)
    tail = "\n\n" + "\n".join(f"[{shown_text(n)}]" for n in notes) if notes else ""
    return (head + "\n" if head else "") + body + tail


def _header_line(label: str, value: str) -> str:
    """``**Pages:** 1-5 of 42``; a multi-line value (a metadata block) starts on its own line."""
    value = _shown_value(value)
    return f"**{label}:**{value}" if value.startswith("\n") else f"**{label}:** {value}"


def _shown_value(value: str) -> str:
    """A header value escaped (shown_text): a file name with a newline or a terminal escape cannot
    add a line; only a block that starts with a newline (metadata) keeps its lines."""
    if value.startswith("\n"):
        return "\n".join(map(shown_text, value.split("\n")))
    return shown_text(value)


def _body(
    result: ReadResult, output_format: str, settings: Settings, *, budget_chars: int
) -> tuple[str, str]:
    """Sections joined until max_chars/max_lines; returns (text, hint) where hint says how to go on."""
    out = settings.output
    chars, lines = max(budget_chars, 0), out.max_lines
    pieces: list[str] = []
    for i, doc in enumerate(result.documents):
        kind = section_for(doc)
        section = kind.render(doc)
        sep = kind.separator if i else ""
        need_lines = section.count("\n") + 1 + sep.count("\n")
        if len(sep) + len(section) <= chars and need_lines <= lines:
            pieces.append(sep + section)
            chars -= len(sep) + len(section)
            lines -= need_lines
            continue
        kept = _cut(section, max(chars - len(sep), 0), max(lines - sep.count("\n"), 0))
        if kept:
            pieces.append(sep + kept)
        shown = kept.count("\n") + 1 if kept else 0
        hint = _hint(kind, doc, shown)
        return "".join(pieces) + out.truncation_marker, hint
    return "".join(pieces), ""


def _cut(section: str, chars: int, lines: int) -> str:
    """Whole lines only, within both budgets."""
    kept = section[:chars]
    if len(kept) < len(section):
        kept = kept.rsplit("\n", 1)[0] if "\n" in kept else ""
    parts = kept.split("\n")
    return "\n".join(parts[:lines]) if lines else ""


def _hint(kind: Section, doc: Document, shown_lines: int) -> str:
    return f"Output truncated at the output limit: {kind.hint(doc.metadata, shown_lines)}"


def _render_json(result: ReadResult, settings: Settings) -> str:
    out = settings.output
    budget = out.max_chars
    docs: list[dict[str, Any]] = []
    truncated, hint = False, ""
    for doc in result.documents:
        text = doc.text
        if len(text) > budget:
            text, truncated = _cut(text, max(budget, 0), out.max_lines), True
            hint = _hint(section_for(doc), doc, text.count("\n") + 1 if text else 0)
        docs.append({"id": doc.id, "text": text, "metadata": dict(doc.metadata)})
        budget -= len(text)
        if truncated:
            break
    payload = {
        "file": {
            "path": shown_name(result.file.source or result.file.path),
            "name": shown_name(result.file.name),
            "format": result.file.format,
            "category": result.file.category,
            "mime_type": result.file.mime_type,
            "size": result.file.size,
            "modified": result.file.modified,
        },
        "header": {label: _shown_value(value) for label, value in result.header.items()},
        "documents": docs,
        "media": [
            {
                "id": m.id,
                "mime_type": m.mime_type,
                "bytes": len(m.data),
                "metadata": dict(m.metadata),
            }
            for m in result.media
        ],
        "notes": [shown_text(n) for n in result.notes],
        "truncated": truncated,
        "continuation": hint,
    }
    return json.dumps(payload, ensure_ascii=False, indent=2, default=str)
