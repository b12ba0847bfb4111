"""The OCR cache's storage: what Tesseract read from one image, kept in the cache folder under a
key the OCR engine makes (``extractors.ocr.cached``: for a PDF page, the file's content stamp,
the page and its render settings; for a picture, a digest of its pixels; both with the OCR
settings), so a scanned page read by the agent view, then by a loader or in a split read (each
its own result-cache entry) runs Tesseract once and is rendered once.

The pipeline opens it in each process (workers too: OCR runs there, and diskcache is safe
across processes) and hands it to the extractors in the Context, with the file's content stamp
(``stamp``: the extractors stand below the cache). ``cache.enabled: false`` turns it off with
the result cache.
"""

from __future__ import annotations

import threading
from typing import TYPE_CHECKING

from .disk import DiskCache
from .stamp import content_stamp

if TYPE_CHECKING:
    from ..settings import CacheSettings
    from ..source import Source

_OPEN: dict[CacheSettings, OcrCache] = {}
_LOCK = threading.Lock()


class OcrCache(DiskCache):
    """Readings stored as JSON text (never a pickle of OCR classes: a changed class is a miss)."""

    def get(self, key: str) -> str | None:
        value = self.value(key)
        return value if isinstance(value, str) else None

    def stamp(self, source: Source) -> str | None:
        """The result cache's content stamp of a file, or of bytes in memory (an archive
        member, an upload), computed once per Source; None for a source with neither (a
        descriptor with no path)."""
        return content_stamp(source) if source.in_memory or source.path is not None else None


def ocr_cache(settings: CacheSettings) -> OcrCache | None:
    """This process's OCR cache for ``settings``, None when the cache is off."""
    if not settings.enabled:
        return None
    with _LOCK:
        cache = _OPEN.get(settings)
        if cache is None:
            cache = _OPEN[settings] = OcrCache(settings)
        return cache
