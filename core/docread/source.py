"""Source: the bytes of one file or archive member, read at most once and never re-opened by name."""

from __future__ import annotations

import io
import os
import shutil
import stat
import tempfile
from pathlib import Path
from typing import BinaryIO

from .workspace import check_kind

HEAD_SIZE = 65536


class Source:
    """A file on disk or bytes in memory (an archive member); extractors read through it only."""

    def __init__(
        self, *, path: Path | None = None, data: bytes | None = None, name: str = ""
    ) -> None:
        if (path is None) == (data is None):
            raise ValueError("Source needs exactly one of path or data")
        self.path = path
        self._data = data
        self.name = name or (path.name if path else "data")
        self._head: bytes | None = None
        self._tmpdir: str | None = None

    @classmethod
    def from_path(cls, path: Path, name: str = "") -> Source:
        return cls(path=path, name=name)

    @classmethod
    def from_bytes(cls, data: bytes, name: str) -> Source:
        return cls(data=data, name=name)

    @property
    def in_memory(self) -> bool:
        return self._data is not None

    @property
    def size(self) -> int:
        return len(self._data) if self._data is not None else os.stat(self.path).st_size  # type: ignore[arg-type]

    def open(self) -> BinaryIO:
        """A binary stream; a path is opened without following links and without blocking."""
        if self._data is not None:
            return io.BytesIO(self._data)
        flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOFOLLOW", 0)
        fd = os.open(self.path, flags)  # type: ignore[arg-type]
        try:
            check_kind(os.fstat(fd).st_mode, str(self.path))
            if not stat.S_ISREG(os.fstat(fd).st_mode):
                raise IsADirectoryError(str(self.path))
        except BaseException:
            os.close(fd)
            raise
        return os.fdopen(fd, "rb")

    def head(self, size: int = HEAD_SIZE) -> bytes:
        """The first bytes (up to 64 KB), read once and kept."""
        if self._head is None:
            if self._data is not None:
                self._head = self._data[:HEAD_SIZE]
            else:
                with self.open() as f:
                    self._head = f.read(HEAD_SIZE)
        return self._head[:size]

    def read_bytes(self) -> bytes:
        if self._data is not None:
            return self._data
        with self.open() as f:
            return f.read()

    def as_path(self) -> Path:
        """A path for tools that need one; in-memory data goes to a private temp file once."""
        if self.path is not None:
            return self.path
        if self._tmpdir is None:
            self._tmpdir = tempfile.mkdtemp(prefix="docread-")
        target = Path(self._tmpdir) / (Path(self.name).name or "data")
        if not target.exists():
            target.write_bytes(self._data or b"")
            self.path = target
        return target

    def close(self) -> None:
        if self._tmpdir:
            shutil.rmtree(self._tmpdir, ignore_errors=True)
            self._tmpdir = None

    def __enter__(self) -> Source:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
