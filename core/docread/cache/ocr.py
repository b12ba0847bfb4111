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

import hashlib
import threading
import weakref
from typing import TYPE_CHECKING

from .disk import DiskCache
from .stamp import content_stamp

if TYPE_CHECKING:
    from ..settings import CacheSettings
    from ..source import Source

_OPEN: dict[CacheSettings, OcrCache] = {}
_LOCK = threading.Lock()
_IN_MEMORY: weakref.WeakKeyDictionary[Source, str] = weakref.WeakKeyDictionary()


class OcrCache(DiskCache):
    """Readings stored as JSON text (never a pickle of OCR classes: a changed class is a miss)."""

    def get(self, key: str) -> str | None:
        value = self.value(key)
        return value if isinstance(value, str) else None

    def stamp(self, source: Source) -> str | None:
        """The result cache's content stamp of a file (computed once per Source); bytes in
        memory (an archive member, an upload) by their digest; None for a source without
        either (a descriptor with no path)."""
        if source.in_memory:  # digested once per Source, as content_stamp does
            with _LOCK:
                known = _IN_MEMORY.get(source)
            if known is None:
                known = "bytes:" + hashlib.blake2b(source.read_bytes(), digest_size=32).hexdigest()
                with _LOCK:
                    _IN_MEMORY[source] = known
            return known
        if source.path is None:
            return None
        return content_stamp(source)


def ocr_cache(settings: CacheSettings) -> OcrCache | None:
    """This process's OCR cache for ``settings``, None when the cache is off."""
    if not settings.enabled:
        return None
    with _LOCK:
        cache = _OPEN.get(settings)
        if cache is None:
            cache = _OPEN[settings] = OcrCache(settings)
        return cache
