"""The OCR cache: what Tesseract read from one image, kept in the cache folder under a digest of
the image's pixels and the OCR settings, so a scanned page read by the agent view, then by a
loader or in a split read (each its own result-cache entry) runs Tesseract once.

Workers open it themselves (one per process and cache settings): OCR runs there, and diskcache
is safe across processes. ``cache.enabled: false`` turns it off with the result cache.
"""

from __future__ import annotations

import hashlib
import threading
from collections.abc import Mapping
from typing import TYPE_CHECKING

from .disk import DiskCache

if TYPE_CHECKING:
    from ..settings import CacheSettings

_OPEN: dict[CacheSettings, OcrCache] = {}
_LOCK = threading.Lock()


class OcrCache(DiskCache):
    """Readings stored as JSON text (never a pickle of OCR classes: a changed class is a miss)."""

    def get(self, key: str) -> str | None:
        value = self.value(key)
        return value if isinstance(value, str) else None


def ocr_cache(settings: CacheSettings) -> OcrCache | None:
    """This process's OCR cache for ``settings``, None when the cache is off."""
    if not settings.enabled:
        return None
    with _LOCK:
        return _OPEN.setdefault(settings, OcrCache(settings))


def ocr_key(pixels: bytes, facts: Mapping[str, object]) -> str:
    """The key of one reading: BLAKE2b of the image's pixels and the facts that change what
    Tesseract reads from them (size, mode, dpi, languages, page segmentation, its version)."""
    digest = hashlib.blake2b(pixels, digest_size=32)
    for name in sorted(facts):
        digest.update(f"\0{name}={facts[name]}".encode())
    return "ocr:" + digest.hexdigest()
