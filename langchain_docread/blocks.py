"""docread units -> LangChain: Documents with LangChain's metadata names, and standard v1
content blocks for Media. Plain dicts only: the ``create_*_block`` helpers add ``id`` keys that
leak into some provider payloads."""

from __future__ import annotations

import base64
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

import docread
from docread.integrations.adapters import (  # re-exported
    DEFAULT_MODEL_INPUTS as DEFAULT_MODEL_INPUTS,
)
from docread.integrations.adapters import Part, answer_parts, media_name, media_part
from docread.integrations.adapters import describe_media as describe_media  # re-exported
from langchain_core.documents import Document
from langchain_core.messages import BaseMessage, HumanMessage, ToolMessage

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


def part_block(part: Part) -> dict[str, Any]:
    """A standard content block for one part of a tool answer: text, image or file (a PDF)."""
    if part.media is None:
        return {"type": "text", "text": part.text}
    data = base64.b64encode(part.media.data).decode("ascii")
    if part.kind == "pdf":
        return {
            "type": "file",
            "base64": data,
            "mime_type": part.media.mime_type,
            "filename": media_name(part.media),
        }
    return {"type": "image", "base64": data, "mime_type": part.media.mime_type}


def media_block(
    media: docread.Media, model_inputs: Iterable[str] = DEFAULT_MODEL_INPUTS
) -> dict[str, Any]:
    """A standard content block for one Media part, or a text block describing it when the model
    does not take that kind (no "image" in ``model_inputs``, or no "pdf" for a raw PDF)."""
    return part_block(media_part(media, model_inputs))


def content_blocks(
    text: str, media: Iterable[docread.Media], model_inputs: Iterable[str] = DEFAULT_MODEL_INPUTS
) -> list[dict[str, Any]]:
    """A tool result's content: the agent view text, then one block per media part."""
    return [part_block(p) for p in answer_parts(text, media, model_inputs)]


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
