"""Media written to disk once, content-addressed (``<sha256 of the bytes>.<ext>``): the files the
CLI's ``load --media-dir``, LangChain's ``images="path"`` and LlamaIndex's image documents name."""

from __future__ import annotations

import hashlib
import mimetypes
import os
import tempfile
from pathlib import Path

from ..cache.private import make_folders
from ..errors import PathSecurityError
from ..model import Media

_EXTENSIONS = {"image/jpeg": ".jpg", "image/png": ".png", "application/pdf": ".pdf"}


def store_media(media: Media, folder: str | os.PathLike[str]) -> Path:
    """``<folder>/<sha256><ext>`` holding the media's bytes, written once (atomically, so a
    parallel writer never sees half a file; a missing folder made 0700); an existing file is reused only when its bytes are
    the media's, never on name or size alone (a planted file is replaced)."""
    folder = make_folders(folder)
    ext = _EXTENSIONS.get(media.mime_type) or mimetypes.guess_extension(media.mime_type) or ".bin"
    target = folder / f"{hashlib.sha256(media.data).hexdigest()}{ext}"
    if not _holds(target, media.data):
        fd, tmp = tempfile.mkstemp(dir=folder, prefix=f".{target.name}.", suffix=".part")
        try:
            with os.fdopen(fd, "wb") as out:
                out.write(media.data)
            os.replace(tmp, target)
        except BaseException:
            Path(tmp).unlink(missing_ok=True)
            raise
    return target


def media_path(media: Media, media_dir: str | os.PathLike[str] | None) -> str:
    """A file holding the media's bytes: the read file itself when it holds exactly those bytes
    (a picture read whole), else ``store_media`` in ``media_dir`` (default: a private folder)."""
    meta = media.metadata
    own = meta.get("file_path")
    if (
        own
        and not meta.get("member")
        and meta.get("mime_type") == media.mime_type
        and _holds(Path(own), media.data)
    ):
        return str(own)
    return str(store_media(media, media_dir if media_dir else default_media_dir()))


def default_media_dir() -> Path:
    """``$XDG_CACHE_HOME/docread/media`` (``~/.cache/docread/media``), private to the user by the
    cache folder's rule (``cache.private.private_dir``): a shared, predictable folder, or one
    another user made first, would let another local user plant or read images."""
    from ..cache.private import UnsafeCacheDirectory, private_dir

    cache = os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache"
    folder = Path(cache) / "docread" / "media"
    try:
        private_dir(folder)
    except UnsafeCacheDirectory as exc:
        raise PathSecurityError(
            f"{exc}: the media folder is not private, so no image is written there; pass a "
            "folder of your own (media_dir=, --media-dir)",
            path=str(folder),
        ) from None
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
