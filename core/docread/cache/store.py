"""The result cache (diskcache): expensive extractions (pdf, office, archive manifests) parsed once.

Key: BLAKE2b of the file's content stamp (``stamp.content_stamp``: a full content digest up to
32 MB, a bounded head/tail/metadata rule above), path, the read options that change extraction,
the mode (agent view or loader), the extractor's name and version and the settings fingerprint.
Entries expire after ``cache.ttl_days`` and the least recently used go first past
``cache.max_size_mb``. diskcache is SQLite underneath, so several processes share one directory
safely. The directory is private (``private``: 0700, files 0600, refused when others could write
it); the OCR cache (``ocr``) shares the folder. A broken or unsafe cache never fails a read: it logs a ``CacheError`` and the read goes on
without it.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import field
from typing import TYPE_CHECKING, Any

from ..formats import SINGLE_STREAM_ARCHIVES
from ..model import Document, Unit, dataclass
from ..pipeline import UNITS_VERSION
from .disk import MB, DiskCache
from .stamp import content_stamp

if TYPE_CHECKING:
    from ..extractors.base import Context, Extractor
    from ..source import Source

MAX_ENTRY_BYTES = 64 * MB  # a result bigger than this streams through uncached


@dataclass(slots=True)
class Entry:
    """A cached result: its units plus the header facts and notes the read produced."""

    units: list[Unit] = field(default_factory=list)
    header: dict[str, str] = field(default_factory=dict)
    notes: list[str] = field(default_factory=list)


@dataclass(slots=True, eq=False)
class PendingEntry:
    """An entry in the making, the one place an entry's size is counted: a file's units kept as
    they pass, up to MAX_ENTRY_BYTES (past it the file streams on, uncached), stored under
    ``key`` once the file came whole and without an error (one read, or a split PDF's parts)."""

    key: str | None = None  # None: nothing to store (not cacheable, served from the cache)
    units: list[Unit] | None = field(default_factory=list)  # None: over the size, or stored
    size: int = 0

    def keep(self, unit: Unit) -> None:
        """Keep a unit of the file (nothing when there is no key or the entry is over)."""
        if self.key is None or self.units is None:
            return
        self.size += entry_size(unit)
        if self.size > MAX_ENTRY_BYTES:
            self.units = None
        else:
            self.units.append(unit)

    def store(self, cache: ResultCache, header: dict[str, str], notes: list[str]) -> None:
        """Put the entry in ``cache`` (once) with the read's header and notes."""
        if self.key is not None and self.units is not None:
            cache.put(self.key, Entry(self.units, dict(header), list(notes)))
        self.units = None


class ResultCache(DiskCache):
    """The disk cache's extraction results (``Entry``); other values in the folder are misses."""

    def get(self, key: str) -> Entry | None:
        value = self.value(key)
        return value if isinstance(value, Entry) else None

    def key(self, source: Source, ctx: Context, ext: type[Extractor]) -> str | None:
        """The key for this read, or None when it must not be cached; the folder opens behind it
        (``open_behind``: the file's digest, and Tesseract's languages, are asked meanwhile)."""
        info, opts = ctx.info, ctx.options
        if not ext.cacheable or source.in_memory or source.path is None or info.is_dir:
            return None
        listing = opts.mode == "list" or (  # a .gz read is its content, not a listing
            opts.mode is None
            and opts.archive_path is None
            and not ctx.loader
            and info.format not in SINGLE_STREAM_ARCHIVES
        )
        if info.category == "archive" and not listing:
            return None  # archives: only the manifest (the listing) is kept; member reads are not
        self.open_behind()
        facts = {
            "content": content_stamp(source),
            "path": info.path,
            "source": info.source,
            "format": info.format,
            "options": opts.cache_key_fields(),
            "loader": ctx.loader,
            "extractor": f"{ext.name}:{ext.version}",
            "units": UNITS_VERSION,
            "settings": ctx.settings.fingerprint(),
        }
        if "ocr" in ext.options and opts.ocr is None:
            # automatic OCR gives text only where Tesseract is installed: a result made without
            # it must not be served once it is (nor the other way round)
            from ..extractors.ocr import available

            facts["ocr_engine"] = available(ctx)
        blob = json.dumps(facts, sort_keys=True, default=str).encode()
        return hashlib.blake2b(blob, digest_size=32).hexdigest()

    def info(self) -> dict[str, Any]:
        """Location, entry count and bytes on disk (``docread cache info``)."""
        cache = self._open()
        count, volume = (len(cache), cache.volume()) if cache is not None else (0, 0)
        return {
            "directory": str(self.directory),
            "entries": count,
            "size_bytes": volume,
            "max_size_bytes": self.settings.max_size_mb * MB,
            "ttl_days": self.settings.ttl_days,
            "usable": cache is not None,
        }

    def clear(self) -> int:
        """Remove every entry; returns how many were removed."""
        cache = self._open()
        return int(cache.clear()) if cache is not None else 0


def entry_size(unit: Unit) -> int:
    """Rough bytes a unit adds to an entry (text, media and metadata)."""
    body = len(unit.text) if isinstance(unit, Document) else len(unit.data)
    return body + 64 * len(unit.metadata)
