"""Source: the bytes of one file or archive member, read through one open descriptor (or from
memory), never re-opened by name."""

from __future__ import annotations

import io
import os
import shutil
import stat
from pathlib import Path
from typing import TYPE_CHECKING, BinaryIO

from .errors import ExtractionError
from .sanitize import lazy_pattern
from .workspace import check_kind

if TYPE_CHECKING:
    from _typeshed import WriteableBuffer

HEAD_SIZE = 65536
NAME_MAX = 255  # bytes in one file name
_CONTROL = lazy_pattern(r"[\x00-\x1f\x7f]")
_COPY_CHUNK = 1024 * 1024
_BUFFER = 65536  # a stream's read-ahead
PSEUDO_LIMIT = 10 * 1024 * 1024  # bytes of a pseudo file kept (the default limits.text)


class Source:
    """An open file (a descriptor this Source owns) or bytes in memory (an upload, an archive
    member); extractors read through it only.

    ``path`` is the file's real path, for names and metadata: nothing opens it again. Every
    ``open()`` is a stream of its own over the one descriptor (positioned reads), so a folder
    swapped for a link after the workspace opened the file changes nothing.
    """

    def __init__(
        self,
        *,
        path: Path | None = None,
        data: bytes | None = None,
        fd: int | None = None,
        name: str = "",
        shown: str = "",
        pseudo_limit: int = PSEUDO_LIMIT,
    ) -> None:
        if data is not None and fd is not None:
            raise ValueError("Source needs one of data or fd")
        if data is None and fd is None:
            if path is None:
                raise ValueError("Source needs one of path, data or fd")
            fd = _open_trusted(path)
        self.path = path
        self._data = data
        self._fd = fd
        self.name = safe_name(name) if data is not None else name or (path.name if path else "")
        self._head: bytes | None = None
        self._tmpdir: str | None = None
        self._copy: Path | None = None
        self._spill: int | None = None  # an anonymous temp file of the bytes, for a worker
        self.shown = shown or str(path or self.name)  # the file as messages name it
        self.cut_at: int | None = None  # a pseudo file longer than this was cut here
        if fd is not None:
            self._data = self._pseudo_bytes(pseudo_limit)

    @classmethod
    def from_path(cls, path: Path, name: str = "") -> Source:
        """Open a path the caller trusts (no workspace check; links are not followed)."""
        return cls(path=path, name=name)

    @classmethod
    def from_fd(
        cls,
        fd: int,
        path: Path | None = None,
        name: str = "",
        *,
        shown: str = "",
        pseudo_limit: int = PSEUDO_LIMIT,
    ) -> Source:
        """Take ownership of an open descriptor (from ``Workspace.open`` or a worker's job);
        a pseudo file's bytes are read into memory up to ``pseudo_limit``; ``shown`` names the
        file in errors (the path as the workspace shows it)."""
        return cls(fd=fd, path=path, name=name, shown=shown, pseudo_limit=pseudo_limit)

    def _pseudo_bytes(self, limit: int) -> bytes | None:
        """The bytes of a pseudo file (procfs, sysfs: a regular file that stats at 0 bytes and is
        made as it is read), read once as a stream up to ``limit`` (``cut_at`` set past it);
        None for any other file. A read error is a typed error naming the file."""
        fd = self._descriptor()
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode) or st.st_size:
            return None
        chunks: list[bytes] = []
        size = 0
        try:
            while size <= limit and (chunk := os.pread(fd, min(_BUFFER, limit + 1 - size), size)):
                chunks.append(chunk)
                size += len(chunk)
        except OSError as exc:
            raise read_error(self.shown, exc) from None
        if not size:
            return None  # an empty file: read as one
        if size > limit:
            self.cut_at = limit
        return b"".join(chunks)[:limit]

    @classmethod
    def from_bytes(cls, data: bytes, name: str) -> Source:
        """Bytes in memory; ``name`` (an upload's, a member's) is cut to a safe base name."""
        return cls(data=data, name=name)

    @property
    def in_memory(self) -> bool:
        return self._data is not None

    @property
    def fd(self) -> int | None:
        """The descriptor (None for bytes in memory); the Source closes it."""
        return self._fd

    def stat(self) -> os.stat_result:
        """The open file's status (a descriptor only)."""
        return os.fstat(self._descriptor())

    def _descriptor(self) -> int:
        if self._fd is None:
            raise ValueError(f"{self.name}: no open file (bytes in memory, or closed)")
        return self._fd

    @property
    def size(self) -> int:
        return len(self._data) if self._data is not None else self.stat().st_size

    def open(self) -> BinaryIO:
        """A binary stream with its own position; a directory raises IsADirectoryError."""
        if self._data is not None:
            return io.BytesIO(self._data)
        fd = self._descriptor()
        mode = os.fstat(fd).st_mode
        check_kind(mode, str(self.path or self.name))
        if not stat.S_ISREG(mode):
            raise IsADirectoryError(str(self.path or self.name))
        return io.BufferedReader(_Positioned(fd), buffer_size=_BUFFER)

    def head(self, size: int = HEAD_SIZE) -> bytes:
        """The first bytes (up to 64 KB), read once and kept."""
        if self._head is None:
            if self._data is not None:
                self._head = self._data[:HEAD_SIZE]
            else:
                try:
                    with self.open() as f:
                        self._head = f.read(HEAD_SIZE)
                except OSError as exc:
                    if isinstance(exc, IsADirectoryError):
                        raise
                    raise read_error(self.shown, exc) from None
        return self._head[:size]

    def read_bytes(self) -> bytes:
        if self._data is not None:
            return self._data
        with self.open() as f:
            return f.read()

    def as_path(self) -> Path:
        """A path for a tool that needs one (a subprocess, sqlite): a private copy of the bytes,
        made once in a folder of its own that nothing else writes to."""
        if self._copy is None:
            import tempfile  # (random, its names): a worker's start seldom makes a copy

            self._tmpdir = self._tmpdir or tempfile.mkdtemp(prefix="docread-")
            target = Path(self._tmpdir) / safe_name(self.name)
            with open(target, "xb") as out:
                if self._data is not None:
                    out.write(self._data)
                else:
                    _copy(self._descriptor(), out)
            self._copy = target
        return self._copy

    def fd_path(self) -> Path:
        """A path that a library in this process can open to reach this very file: Linux's
        ``/proc/self/fd/N`` (the kernel follows it to the open file, never through a folder),
        else ``as_path()``. Not for subprocesses, nor for libraries that resolve links
        themselves (sqlite): those get ``as_path()``."""
        if self._data is None and self._fd is not None and os.path.isdir("/proc/self/fd"):
            return Path(f"/proc/self/fd/{self._fd}")
        return self.as_path()

    def hide_paths(self, message: str, shown: str) -> str:
        """``message`` (a library's error) with this file's internal paths (``/proc/self/fd/N``,
        the private copy) named as ``shown``, the path the caller knows."""
        internal = [str(self._copy)] if self._copy is not None else []
        if self._fd is not None:
            internal.append(f"/proc/self/fd/{self._fd}")
        for path in internal:
            message = message.replace(path, shown)
        return message

    def handoff(self) -> int:
        """The descriptor to send to a worker process; bytes in memory go to an anonymous
        temp file first (no name on disk), so a worker always receives the data itself."""
        if self._data is None and self._fd is not None:
            return self._fd
        if self._spill is None:
            import tempfile

            with tempfile.TemporaryFile(prefix="docread-") as f:
                f.write(self._data or b"")
                f.flush()
                self._spill = os.dup(f.fileno())
        return self._spill

    def close(self) -> None:
        if self._fd is not None:
            os.close(self._fd)
            self._fd = None
        if self._spill is not None:
            os.close(self._spill)
            self._spill = None
        if self._tmpdir:
            shutil.rmtree(self._tmpdir, ignore_errors=True)
            self._tmpdir = self._copy = None

    def __enter__(self) -> Source:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def read_error(shown: str, exc: OSError) -> ExtractionError:
    """An OSError met reading a file (EIO of /proc/self/mem, EACCES), as a typed error naming it."""
    return ExtractionError(f"{shown}: cannot be read: {exc.strerror or exc}", path=shown)


def clean_name(name: str) -> str:
    """A caller's name with control characters (NUL, newline, escape) dropped: the rule of
    ``safe_name``, for a name kept whole (``iter_bytes``'s ``source``)."""
    return _CONTROL.sub("", name)


def safe_name(name: str) -> str:
    """One safe file name from an upload's or a member's name: its last component (either
    slash), control characters dropped, never "", "." or "..", at most 255 bytes with the
    extension kept; "data" when nothing is left."""
    base = clean_name(name.replace("\\", "/").rstrip("/").rpartition("/")[2])
    if base in ("", ".", ".."):
        return "data"
    if len(base.encode()) <= NAME_MAX:
        return base
    stem, dot, ext = base.rpartition(".")
    if not dot or len(ext) > 16:
        stem, ext = base, ""
    else:
        ext = "." + ext
    room = NAME_MAX - len(ext.encode())
    return stem.encode()[:room].decode("utf-8", "ignore") + ext


class _Positioned(io.RawIOBase):
    """A read-only stream over a duplicate of a descriptor, reading at its own position
    (``pread``), so several streams over one file never move each other."""

    def __init__(self, fd: int) -> None:
        super().__init__()
        self._fd = os.dup(fd)
        self._pos = 0

    def readable(self) -> bool:
        return True

    def seekable(self) -> bool:
        return True

    def readinto(self, buffer: WriteableBuffer) -> int:
        n = _preadinto(self._fd, buffer, self._pos)
        self._pos += n
        return n

    def readall(self) -> bytes:
        """The rest in one read of the known size (then to EOF, should the file grow)."""
        chunks = []
        size = max(os.fstat(self._fd).st_size - self._pos, _COPY_CHUNK)
        while chunk := os.pread(self._fd, size, self._pos):
            chunks.append(chunk)
            self._pos += len(chunk)
            size = _COPY_CHUNK
        return b"".join(chunks)

    def seek(self, offset: int, whence: int = io.SEEK_SET) -> int:
        base = {io.SEEK_SET: 0, io.SEEK_CUR: self._pos, io.SEEK_END: None}[whence]
        if base is None:
            base = os.fstat(self._fd).st_size
        if base + offset < 0:
            raise OSError(22, "negative seek position")
        self._pos = base + offset
        return self._pos

    def tell(self) -> int:
        return self._pos

    def close(self) -> None:
        if not self.closed:
            os.close(self._fd)
        super().close()


def _copy(src: int, out: BinaryIO) -> None:
    """All of ``src`` into ``out``: in the kernel when it can (copy_file_range), else by chunks."""
    offset = 0
    if hasattr(os, "copy_file_range"):
        try:
            while n := os.copy_file_range(src, out.fileno(), _COPY_CHUNK * 64, offset, None):
                offset += n
            return
        except OSError:  # another filesystem, or not supported: finish by hand
            pass
    while chunk := os.pread(src, _COPY_CHUNK, offset):
        out.write(chunk)
        offset += len(chunk)


def _preadinto(fd: int, buffer: WriteableBuffer, pos: int) -> int:
    if hasattr(os, "preadv"):
        return os.preadv(fd, [buffer], pos)
    view = memoryview(buffer).cast("B")
    data = os.pread(fd, len(view), pos)
    view[: len(data)] = data
    return len(data)


def _open_trusted(path: Path) -> int:
    """Open a caller-trusted path: refused by kind before the open, links not followed."""
    check_kind(os.stat(path, follow_symlinks=False).st_mode, str(path))
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOFOLLOW", 0)
    fd = os.open(path, flags)
    try:
        check_kind(os.fstat(fd).st_mode, str(path))
    except BaseException:
        os.close(fd)
        raise
    return fd
