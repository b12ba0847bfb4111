"""The cache directory is private: it holds pickles (loading one runs code) and document text.

The directory is created 0700 and its files 0600; a directory owned by another user or writable
by group or others is refused (anyone who can write there could plant a pickle), and a value
file is only ever unpickled from inside the directory. A readable but not writable directory of
our own (made by an older version) is tightened to 0700.
"""

from __future__ import annotations

import contextlib
import os
import stat
from pathlib import Path
from typing import Any

import diskcache
from diskcache.core import UNKNOWN

DB_FILES = ("cache.db", "cache.db-wal", "cache.db-shm")  # diskcache's SQLite file and journals


class UnsafeCacheDirectory(Exception):
    """The cache directory, or an entry's file, could be someone else's; it is not used.
    (Not an OSError: diskcache would take that for a vanished entry and say nothing.)"""


def prepare(directory: Path) -> None:
    """Create ``directory`` 0700 if missing, refuse an unsafe one, make the SQLite files 0600.

    The database file is created 0600 before SQLite opens it (SQLite gives its journal files the
    database's mode), so no window exists in which it is readable by others.
    """
    private_dir(directory)
    db = directory / DB_FILES[0]
    os.close(os.open(db, os.O_CREAT | os.O_WRONLY | getattr(os, "O_NOFOLLOW", 0), 0o600))
    for name in DB_FILES:
        if (directory / name).exists():
            os.chmod(directory / name, 0o600)


def make_folders(folder: str | os.PathLike[str]) -> Path:
    """``folder`` and each missing parent created 0700 (the XDG base directory rule), whatever
    the umask: ``mkdir -p`` gives parents the umask's mode (0777 under umask 000). Every folder
    docread creates is made by this (cache and media folders and their parents, the cache's
    value folders), or 0700 by ``os.mkdir`` (the extraction folders under a descriptor)."""
    folder = Path(folder)
    missing = [f for f in (folder, *folder.parents) if not f.exists()]
    for f in reversed(missing):
        with contextlib.suppress(FileExistsError):
            f.mkdir(mode=0o700)
    return folder


def private_dir(directory: Path) -> None:
    """``directory`` is this user's own: created 0700 (its missing parents too) if missing;
    refused when it is not a folder, is owned by someone else or is writable by group or
    others; tightened to 0700 when only readable by them. The rule of the cache folder and of
    the default media folder."""
    make_folders(directory)
    st = os.stat(directory)
    if not stat.S_ISDIR(st.st_mode):
        raise UnsafeCacheDirectory(f"{directory} is not a directory")
    if hasattr(os, "geteuid") and st.st_uid != os.geteuid():
        raise UnsafeCacheDirectory(
            f"{directory} is owned by uid {st.st_uid}, not by this user (uid {os.geteuid()})"
        )
    if st.st_mode & (stat.S_IWGRP | stat.S_IWOTH):
        raise UnsafeCacheDirectory(
            f"{directory} is writable by group or others (mode {stat.S_IMODE(st.st_mode):o}); "
            f"remove it or run chmod 700 on it"
        )
    if st.st_mode & 0o077:
        os.chmod(directory, 0o700)


class PrivateDisk(diskcache.Disk):  # type: ignore[misc]
    """diskcache's Disk with value files written 0600 and read only from inside the directory."""

    def __init__(self, directory: str, *args: Any, **kwargs: Any) -> None:
        super().__init__(directory, *args, **kwargs)
        self.root = os.path.realpath(directory)

    def filename(self, key: Any = UNKNOWN, value: Any = UNKNOWN) -> tuple[str, str]:
        """diskcache's name for a value file, its two folders made 0700 first (diskcache would
        make them with the umask's mode)."""
        filename, full_path = super().filename(key, value)
        make_folders(os.path.dirname(full_path))
        return filename, full_path

    def store(self, value: Any, read: bool, key: Any = UNKNOWN) -> tuple[int, int, Any, Any]:
        size, mode, filename, db_value = super().store(value, read, key=key)
        if filename is not None:
            os.chmod(os.path.join(self.root, filename), 0o600)
        return size, mode, filename, db_value

    def fetch(self, mode: int, filename: str | None, value: Any, read: bool) -> Any:
        if filename is not None:
            full = os.path.realpath(os.path.join(self.root, filename))
            if os.path.commonpath([full, self.root]) != self.root:
                raise UnsafeCacheDirectory(
                    f"cache entry file {filename!r} resolves outside {self.root}; not loaded"
                )
        return super().fetch(mode, filename, value, read)
