"""What "the same file" means for the result cache and the read log: a stamp of the content.

Two rules, chosen by size:

- up to ``FULL_DIGEST_MAX`` (32 MB): BLAKE2b of every byte (streamed in 1 MB chunks) and the size.
  Only the content counts: a touched or copied file is still a hit, any changed byte is a miss,
  even with the size kept and the mtime restored (``cp -p``, ``rsync -t``).
- above it (a huge log read by window, a big PDF or archive): BLAKE2b of the first and last 64 KB,
  the size, mtime_ns, ctime_ns, inode and device, so a 50-line window of a 1 GB log stays fast.
  A rewrite between head and tail is caught by ctime, which the kernel sets on every write and
  which no tool can set back; a touch or chmod alone is a (harmless) miss.

The stamp is computed once per ``Source`` (one read) and shared by the cache key, the read log and
the OCR cache's keys of scanned pages (which also stamp bytes in memory: archive members, uploads).
"""

from __future__ import annotations

import hashlib
import os
import threading
import weakref
from typing import TYPE_CHECKING, BinaryIO

if TYPE_CHECKING:
    from ..source import Source

MB = 1 << 20
FULL_DIGEST_MAX = 32 * MB
CHUNK = MB
EDGE = 64 * 1024  # head and tail hashed by the bounded rule

_stamps: weakref.WeakKeyDictionary[Source, str] = weakref.WeakKeyDictionary()
_lock = threading.Lock()


def content_stamp(source: Source) -> str:
    """The stamp of a file-backed source (see the module docstring for the two rules); of bytes
    in memory (an archive member, an upload: the OCR cache's key), BLAKE2b of all of them."""
    with _lock:
        known = _stamps.get(source)
    if known is not None:
        return known
    if source.in_memory:
        stamp = "bytes:" + hashlib.blake2b(source.read_bytes(), digest_size=32).hexdigest()
    elif source.path is None:
        raise ValueError("content_stamp needs a file-backed Source or bytes in memory")
    else:
        with source.open() as f:  # the descriptor the read itself uses: never the path again
            stamp = _stamp(f, source.stat())
    with _lock:
        _stamps[source] = stamp
    return stamp


def file_stamp(path: str) -> str:
    """The stamp of the file at ``path``, computed now."""
    with open(path, "rb", buffering=0) as f:
        return _stamp(f, os.fstat(f.fileno()))


def _stamp(f: BinaryIO, st: os.stat_result) -> str:
    h = hashlib.blake2b(digest_size=32)
    if st.st_size <= FULL_DIGEST_MAX:
        while chunk := f.read(CHUNK):
            h.update(chunk)
        return f"full:{st.st_size}:{h.hexdigest()}"
    h.update(f.read(EDGE))
    f.seek(-EDGE, os.SEEK_END)
    h.update(f.read(EDGE))
    facts = f"{st.st_size}:{st.st_mtime_ns}:{st.st_ctime_ns}:{st.st_ino}:{st.st_dev}"
    return f"bounded:{facts}:{h.hexdigest()}"
