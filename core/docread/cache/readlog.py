"""Read dedup for agents: a Reader remembers what it returned, so an unchanged file is not resent."""

from __future__ import annotations

import threading
from collections import OrderedDict

UNCHANGED = (
    "File unchanged since the last read. Refer to the earlier result instead of re-reading it."
)
MAX_ENTRIES = 10000


class ReadLog:
    """(file, options) -> content stamp and mtime (``reader._read_key``) of the last successful
    read; thread-safe, bounded LRU."""

    def __init__(self, max_entries: int = MAX_ENTRIES) -> None:
        self._seen: OrderedDict[tuple[str, str], str] = OrderedDict()
        self._max = max_entries
        self._lock = threading.Lock()

    def unchanged(self, key: tuple[str, str], stamp: str) -> bool:
        """True when this exact read was returned before and the file has not changed since."""
        with self._lock:
            if self._seen.get(key) != stamp:
                return False
            self._seen.move_to_end(key)
            return True

    def remember(self, key: tuple[str, str], stamp: str) -> None:
        with self._lock:
            self._seen[key] = stamp
            self._seen.move_to_end(key)
            while len(self._seen) > self._max:
                self._seen.popitem(last=False)

    def clear(self) -> None:
        """Forget everything (e.g. when the agent's context was reset)."""
        with self._lock:
            self._seen.clear()
