"""docread Media -> LlamaIndex: chat content blocks for tools, image documents for loaders, and
files on disk so an image survives docstore serialization (LlamaIndex never stores the bytes)."""

from __future__ import annotations

import hashlib
import mimetypes
import os
import tempfile
from collections.abc import Collection
from pathlib import Path

import docread
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


def media_path(media: docread.Media, media_dir: str | os.PathLike[str] | None) -> str:
    """A file holding the media's bytes: the read file itself when it holds exactly those bytes,
    else ``<media_dir>/<sha256 of the bytes><ext>`` (default: a private per-user folder). An
    existing file is reused only when its bytes are the media's, never on name or size alone."""
    meta = media.metadata
    own = meta.get("file_path")
    if (
        own
        and not meta.get("member")
        and meta.get("mime_type") == media.mime_type
        and _holds(Path(own), media.data)
    ):
        return str(own)
    folder = Path(media_dir) if media_dir else default_media_dir()
    folder.mkdir(parents=True, exist_ok=True)
    ext = mimetypes.guess_extension(media.mime_type) or ".bin"
    target = folder / f"{hashlib.sha256(media.data).hexdigest()}{ext}"
    if not _holds(target, media.data):
        fd, tmp = tempfile.mkstemp(dir=folder, prefix=f".{target.name}.", suffix=".part")
        try:
            with os.fdopen(fd, "wb") as out:
                out.write(media.data)
            os.replace(tmp, target)  # atomic: parallel workers never see a half-written file
        except BaseException:
            Path(tmp).unlink(missing_ok=True)
            raise
    return str(target)


def default_media_dir() -> Path:
    """``$XDG_CACHE_HOME/docread/media`` (``~/.cache/docread/media``), private to the user (0700):
    a shared, predictable folder would let another local user plant images."""
    cache = os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache"
    folder = Path(cache) / "docread" / "media"
    folder.parent.mkdir(parents=True, exist_ok=True)
    folder.mkdir(mode=0o700, exist_ok=True)
    return folder


def _holds(path: Path, data: bytes) -> bool:
    """Whether ``path`` is a regular file (not a link) whose bytes are exactly ``data``."""
    try:
        return (
            not path.is_symlink()
            and path.is_file()
            and path.stat().st_size == len(data)
            and path.read_bytes() == data
        )
    except OSError:
        return False


__all__ = [
    "DEFAULT_MODEL_INPUTS",
    "check_model_inputs",
    "describe_media",
    "media_block",
    "default_media_dir",
    "media_path",
    "result_blocks",
]
