"""docread Media -> LlamaIndex: chat content blocks for tools, image documents for loaders, and
files on disk so an image survives docstore serialization (LlamaIndex never stores the bytes)."""

from __future__ import annotations

import mimetypes
import os
import tempfile
import threading
from collections.abc import Collection, Iterable
from pathlib import Path

import docread
from llama_index.core.base.llms.types import ContentBlock, DocumentBlock, ImageBlock, TextBlock

#: What a model accepts by default: text and images (raw PDFs only when "pdf" is added).
DEFAULT_MODEL_INPUTS = frozenset({"text", "image"})
MODEL_INPUTS = frozenset({"text", "image", "pdf"})
#: Image types every multimodal provider takes (Anthropic's list is the narrowest).
SENDABLE_IMAGES = frozenset({"image/png", "image/jpeg", "image/gif", "image/webp"})
PDF = "application/pdf"


def check_model_inputs(model_inputs: Iterable[str]) -> frozenset[str]:
    """Validate a ``model_inputs`` set: only "text", "image" and "pdf" are known."""
    accepted = frozenset(model_inputs)
    unknown = sorted(accepted - MODEL_INPUTS)
    if unknown:
        raise docread.InvalidOptionError(
            f"model_inputs: unknown kind(s) {', '.join(unknown)}; known: {', '.join(sorted(MODEL_INPUTS))}"
        )
    return accepted


def media_name(media: docread.Media) -> str:
    """The name a media part is shown under: its member's or file's name, plus the page."""
    meta = media.metadata
    member = meta.get("member")
    name = str(member).rsplit("/", 1)[-1] if member else str(meta.get("file_name") or "document")
    page = meta.get("page_number")
    return f"{name} (page {page})" if page and media.mime_type != PDF else name


def describe_media(media: docread.Media, reason: str = "") -> str:
    """A one-line text stand-in for media the model cannot take: "[Image file: a.png, 2 KB, 4x4]"."""
    kind = "PDF file" if media.mime_type == PDF else f"Image file ({media.mime_type})"
    parts = [media_name(media), _size(len(media.data))]
    width, height = media.metadata.get("width"), media.metadata.get("height")
    if width and height:
        parts.append(f"{width}x{height}")
    tail = f"; {reason}" if reason else ""
    return f"[{kind}: {', '.join(parts)}{tail}]"


def media_block(
    media: docread.Media, model_inputs: Collection[str] = DEFAULT_MODEL_INPUTS
) -> ContentBlock:
    """One Media part as an ImageBlock / DocumentBlock, or a TextBlock describing it when the
    model does not take that kind (no "image" / "pdf" in ``model_inputs``, or an odd image type)."""
    if media.mime_type == PDF:
        if "pdf" in model_inputs:
            return DocumentBlock(data=media.data, document_mimetype=PDF, title=media_name(media))
        return TextBlock(text=describe_media(media, 'not sent: add "pdf" to model_inputs'))
    if media.mime_type in SENDABLE_IMAGES and "image" in model_inputs:
        return ImageBlock(image=media.data, image_mimetype=media.mime_type)
    reason = (
        "not sent: this model takes no images"
        if "image" not in model_inputs
        else "type not sendable"
    )
    return TextBlock(text=describe_media(media, reason))


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


def _size(n: int) -> str:
    return (
        f"{n} bytes"
        if n < 1024
        else f"{n / 1024:.0f} KB"
        if n < 1024**2
        else f"{n / 1024**2:.1f} MB"
    )


__all__ = [
    "DEFAULT_MODEL_INPUTS",
    "check_model_inputs",
    "describe_media",
    "media_block",
    "media_path",
    "result_blocks",
]
