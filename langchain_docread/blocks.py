"""docread units -> LangChain: Documents with LangChain's metadata names, and standard v1
content blocks for Media. Plain dicts only: the ``create_*_block`` helpers add ``id`` keys that
leak into some provider payloads."""

from __future__ import annotations

import base64
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

import docread
from langchain_core.documents import Document
from langchain_core.messages import BaseMessage, HumanMessage, ToolMessage

#: What a model accepts by default: text and images (PDFs are sent raw only when "pdf" is added).
DEFAULT_MODEL_INPUTS = frozenset({"text", "image"})
_IMAGE_TYPES = frozenset({"image/png", "image/jpeg", "image/gif", "image/webp"})
_MEDIA_TYPES = frozenset({"image", "file"})


def to_langchain(doc: docread.Document) -> Document:
    """A core Document as a LangChain Document: core metadata plus PyPDFLoader/CSVLoader names.

    ``page`` is 0-based with ``page_label`` and ``total_pages`` (as PyPDFLoader gives them); ``row``
    is 0-based for one-row table documents (as CSVLoader gives it); the id is the core's stable id.
    """
    meta = dict(doc.metadata)
    page = meta.get("page_number")
    if isinstance(page, int):
        meta["page"] = page - 1
        meta.setdefault("page_label", str(page))
    if isinstance(meta.get("page_count"), int):
        meta["total_pages"] = meta["page_count"]
    start, end = meta.get("row_start"), meta.get("row_end")
    if isinstance(start, int) and start == end:
        meta["row"] = start - 1
    return Document(page_content=doc.text, metadata=meta, id=doc.id or None)


def media_name(media: docread.Media) -> str:
    """The file name a media part is shown under (an archive member keeps its own name)."""
    meta = media.metadata
    member = meta.get("member")
    name = str(member).rsplit("/", 1)[-1] if member else meta.get("file_name")
    page = meta.get("page_number")
    base = str(name or "document")
    return f"{base} (page {page})" if page and media.mime_type != "application/pdf" else base


def describe_media(media: docread.Media) -> str:
    """A one-line text stand-in for media the model cannot take: "[Image file: a.png, 245 KB, 1200x800]"."""
    kind = "PDF file" if media.mime_type == "application/pdf" else "Image file"
    parts = [media_name(media), _size(len(media.data))]
    width, height = media.metadata.get("width"), media.metadata.get("height")
    if width and height:
        parts.append(f"{width}x{height}")
    return f"[{kind}: {', '.join(parts)}]"


def media_block(
    media: docread.Media, model_inputs: Iterable[str] = DEFAULT_MODEL_INPUTS
) -> dict[str, Any]:
    """A standard content block for one Media part, or a text block describing it when the model
    does not take that kind (no "image" in ``model_inputs``, or no "pdf" for a raw PDF)."""
    accepted = set(model_inputs)
    data = base64.b64encode(media.data).decode("ascii")
    if media.mime_type == "application/pdf" and "pdf" in accepted:
        return {
            "type": "file",
            "base64": data,
            "mime_type": "application/pdf",
            "filename": media_name(media),
        }
    if media.mime_type in _IMAGE_TYPES and "image" in accepted:
        return {"type": "image", "base64": data, "mime_type": media.mime_type}
    return {"type": "text", "text": describe_media(media)}


def content_blocks(
    text: str, media: Iterable[docread.Media], model_inputs: Iterable[str] = DEFAULT_MODEL_INPUTS
) -> list[dict[str, Any]]:
    """A tool result's content: the agent view text, then one block per media part."""
    return [{"type": "text", "text": text}, *(media_block(m, model_inputs) for m in media)]


def split_tool_media(messages: Sequence[BaseMessage]) -> list[BaseMessage]:
    """For providers that reject images/files in tool messages (OpenAI Chat Completions): each
    ToolMessage's media blocks are replaced by a note and re-sent in one HumanMessage placed after
    the run of ToolMessages (tool results must directly follow their AIMessage).

    Apply it to the message list just before calling the model; messages without media pass as is.
    """
    out: list[BaseMessage] = []
    pending: list[dict[str, Any]] = []
    for message in messages:
        if pending and not isinstance(message, ToolMessage):
            out.append(_attachments(pending))
            pending = []
        media = _media_of(message) if isinstance(message, ToolMessage) else []
        if media:
            kept = [b for b in message.content if not _is_media(b)]
            note = {
                "type": "text",
                "text": f"[{len(media)} attachment(s) follow in the next user message]",
            }
            message = message.model_copy(update={"content": [*kept, note]})
            pending.extend(media)
        out.append(message)
    if pending:
        out.append(_attachments(pending))
    return out


def _media_of(message: ToolMessage) -> list[dict[str, Any]]:
    content = message.content
    return [] if isinstance(content, str) else [b for b in content if _is_media(b)]  # type: ignore[misc]


def _attachments(media: list[dict[str, Any]]) -> HumanMessage:
    intro = {"type": "text", "text": "Attachments returned by the tool calls above:"}
    return HumanMessage(content=[intro, *media])


def _is_media(block: str | Mapping[str, Any]) -> bool:
    return isinstance(block, Mapping) and block.get("type") in _MEDIA_TYPES


def _size(n: int) -> str:
    if n < 1024:
        return f"{n} B"
    if n < 1024 * 1024:
        return f"{n / 1024:.0f} KB"
    return f"{n / (1024 * 1024):.1f} MB"
