"""docread Media -> LlamaIndex: chat content blocks for tools, image documents for loaders, and
files on disk so an image survives docstore serialization (LlamaIndex never stores the bytes)."""

from __future__ import annotations

from collections.abc import Collection

import docread
from docread.integrations.adapters import (
    DEFAULT_MODEL_INPUTS,
    PDF,
    Part,
    answer_parts,
    check_model_inputs,
    describe_media,
    media_name,
    media_part,
)
from docread.integrations.adapters import default_media_dir as default_media_dir  # re-exported
from docread.integrations.adapters import media_path as media_path  # re-exported
from llama_index.core.base.llms.types import ContentBlock, DocumentBlock, ImageBlock, TextBlock


def part_block(part: Part) -> ContentBlock:
    """One part of a tool answer as a TextBlock, ImageBlock or DocumentBlock (a PDF)."""
    if part.media is None:
        return TextBlock(text=part.text)
    if part.kind == "pdf":
        return DocumentBlock(
            data=part.media.data, document_mimetype=PDF, title=media_name(part.media)
        )
    return ImageBlock(image=part.media.data, image_mimetype=part.media.mime_type)


def media_block(
    media: docread.Media, model_inputs: Collection[str] = DEFAULT_MODEL_INPUTS
) -> ContentBlock:
    """One Media part as an ImageBlock / DocumentBlock, or a TextBlock describing it when the
    model does not take that kind (no "image" / "pdf" in ``model_inputs``, or an odd image type)."""
    return part_block(media_part(media, model_inputs))


def result_blocks(
    result: docread.ReadResult, model_inputs: Collection[str] = DEFAULT_MODEL_INPUTS
) -> list[ContentBlock]:
    """A tool result: the agent view text first, then one block per media part."""
    return [part_block(p) for p in answer_parts(result.render(), result.media, model_inputs)]


__all__ = [
    "DEFAULT_MODEL_INPUTS",
    "check_model_inputs",
    "describe_media",
    "media_block",
    "part_block",
    "default_media_dir",
    "media_path",
    "result_blocks",
]
