"""DiskCache: the cache folder opened once, lazily, as a diskcache.Cache; the one opener of the
result cache (``store``) and the OCR cache (``ocr``), which share the folder, its size limit and
its privacy rules (``private``). Every failure is a logged CacheError and a miss, never a failed
read."""

from __future__ import annotations

import os
import threading
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..errors import CacheError, log_handled

if TYPE_CHECKING:
    from ..settings import CacheSettings

MB = 1024 * 1024


def default_directory(settings: CacheSettings) -> Path:
    """``cache.directory`` with ``~`` expanded (default ``~/.cache/docread``)."""
    return Path(os.path.expanduser(settings.directory))


class DiskCache:
    """diskcache.Cache opened on first use (thread- and process-safe: SQLite underneath)."""

    def __init__(self, settings: CacheSettings) -> None:
        self.settings = settings
        self.directory = default_directory(settings)
        self._cache: Any = None
        self._broken = False
        self._lock = threading.Lock()
        self._opening: threading.Thread | None = None  # ``open_behind``'s

    def open_behind(self) -> None:
        """Open the folder in a thread now, so a read's first lookup does not wait for it after
        its key (the open waits on the disk, not the CPU: SQLite's setup, 0.04 s, 0.1 s for a
        new folder; the key may wait as long for Tesseract's languages)."""
        with self._lock:
            if self._cache is not None or self._broken or self._opening is not None:
                return
            self._opening = threading.Thread(target=self._open, daemon=True, name="docread-cache")
            self._opening.start()

    def value(self, key: str) -> object:
        """The stored value, None when missing or unreadable."""
        cache = self._open()
        if cache is None:
            return None
        try:
            return cache.get(key)
        except Exception as exc:  # noqa: BLE001 - a corrupt entry is a miss, never a failed read
            self._fail("read", exc)
            return None

    def put(self, key: str, value: object) -> None:
        """Store ``value`` for ``cache.ttl_days``."""
        cache = self._open()
        if cache is None:
            return
        try:
            cache.set(key, value, expire=self.settings.ttl_days * 86400)
        except Exception as exc:  # noqa: BLE001
            self._fail("write", exc)

    def close(self) -> None:
        if self._opening is not None:  # an open in flight would leave a connection behind
            self._opening.join()
        with self._lock:
            if self._cache is not None:
                self._cache.close()
                self._cache = None

    def _open(self) -> Any:
        with self._lock:
            if self._cache is None and not self._broken:
                try:
                    import diskcache

                    from .private import PrivateDisk, prepare

                    prepare(self.directory)
                    self._cache = diskcache.Cache(
                        str(self.directory),
                        disk=PrivateDisk,
                        size_limit=self.settings.max_size_mb * MB,
                        eviction_policy="least-recently-used",
                    )
                except Exception as exc:  # noqa: BLE001 - unwritable or corrupt: read without it
                    self._broken = True
                    log_handled(
                        CacheError(
                            f"cache at {self.directory} is unusable ({type(exc).__name__}: {exc}); "
                            f"reading without it (fix or remove the directory, or set cache.directory)",
                            path=str(self.directory),
                        )
                    )
            return self._cache

    def _fail(self, what: str, exc: Exception) -> None:
        log_handled(
            CacheError(
                f"cache {what} failed at {self.directory} ({type(exc).__name__}: {exc}); reading without it",
                path=str(self.directory),
            )
        )
