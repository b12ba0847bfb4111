"""docread Media -> LlamaIndex: chat content blocks for tools, image documents for loaders, and
files on disk so an image survives docstore serialization (LlamaIndex never stores the bytes)."""

from __future__ import annotations

import mimetypes
import os
import tempfile
import threading
from collections.abc import Collection
from pathlib import Path

import docread
from docread.media import (
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


def media_path(media: docread.Media, media_dir: str | os.PathLike[str] | None) -> str:
    """A file holding the media's bytes: the read file itself when the media is that file
    unchanged, else ``<media_dir>/<unit id><ext>`` (the id is stable, so a re-run finds it)."""
    meta = media.metadata
    own = meta.get("file_path")
    if (
        own
        and not meta.get("member")
        and meta.get("mime_type") == media.mime_type
        and meta.get("file_size") == len(media.data)
    ):
        return str(own)
    folder = Path(media_dir) if media_dir else Path(tempfile.gettempdir()) / "docread-media"
    folder.mkdir(parents=True, exist_ok=True)
    ext = mimetypes.guess_extension(media.mime_type) or ".bin"
    target = folder / f"{media.id or 'media'}{ext}"
    if not (target.is_file() and target.stat().st_size == len(media.data)):
        tmp = target.with_name(f"{target.name}.{os.getpid()}.{threading.get_ident()}.part")
        tmp.write_bytes(media.data)
        tmp.replace(target)  # atomic: parallel workers never see a half-written file
    return str(target)


__all__ = [
    "DEFAULT_MODEL_INPUTS",
    "check_model_inputs",
    "describe_media",
    "media_block",
    "media_path",
    "result_blocks",
]
