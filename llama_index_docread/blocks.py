"""docread Media -> LlamaIndex: chat content blocks for tools, image documents for loaders, and
files on disk so an image survives docstore serialization (LlamaIndex never stores the bytes)."""

from __future__ import annotations

from collections.abc import Collection

import docread
from docread.media_files import default_media_dir as default_media_dir  # re-exported
from docread.media_files import media_path as media_path  # re-exported
from docread.views.media import (
    DEFAULT_MODEL_INPUTS,
    PDF,
    check_model_inputs,
    describe_media,
    media_name,
    sendable_as,
)
from llama_index.core.base.llms.types import ContentBlock, DocumentBlock, ImageBlock, TextBlock


def media_block(
    media: docread.Media, model_inputs: Collection[str] = DEFAULT_MODEL_INPUTS
) -> ContentBlock:
    """One Media part as an ImageBlock / DocumentBlock, or a TextBlock describing it when the
    model does not take that kind (no "image" / "pdf" in ``model_inputs``, or an odd image type)."""
    kind, reason = sendable_as(media, model_inputs)
    if kind is None:
        return TextBlock(text=describe_media(media, reason))
    if kind == "pdf":
        return DocumentBlock(data=media.data, document_mimetype=PDF, title=media_name(media))
    return ImageBlock(image=media.data, image_mimetype=media.mime_type)


def result_blocks(
    result: docread.ReadResult, model_inputs: Collection[str] = DEFAULT_MODEL_INPUTS
) -> list[ContentBlock]:
    """A tool result: the agent view text first, then one block per media part."""
    return [TextBlock(text=result.render()), *(media_block(m, model_inputs) for m in result.media)]


__all__ = [
    "DEFAULT_MODEL_INPUTS",
    "check_model_inputs",
    "describe_media",
    "media_block",
    "default_media_dir",
    "media_path",
    "result_blocks",
]
