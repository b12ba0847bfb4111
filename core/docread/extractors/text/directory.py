"""Directories in the agent view: a listing, folders first, with sizes and dates.

Loader mode over a directory is the Reader's walk (each file through the pipeline), not this."""

from __future__ import annotations

import os
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path
from typing import ClassVar

from ...model import Document, Unit
from ...sanitize import not_utf8_note, readable, shown_name
from ...source import Source
from ...workspace import walk_files
from ..base import Context, Extractor
from ..markdown import human_size

MAX_ENTRIES = 1000


class DirectoryExtractor(Extractor):
    """One level of a directory, sorted, folders first; with ``pattern``, the matching files at
    any depth, as the loader's walk finds them."""

    name: ClassVar[str] = "directory"
    options: ClassVar[frozenset[str]] = frozenset({"pattern"})

    def extract(self, source: Source, ctx: Context) -> Iterator[Unit]:
        path = source.path
        assert path is not None
        dirs: list[str] = []
        if ctx.options.pattern:
            files = _matching(path, source.fd, ctx)
        else:
            dirs, files = _level(path, source.fd, ctx)
        dirs.sort()
        files.sort()
        ctx.set_header("Directory", ctx.info.source)
        ctx.set_header("Entries", f"{len(dirs)} directories, {len(files)} files")
        lines = [f"{shown_name(d)}/" for d in dirs]  # one line per entry, whatever the name holds
        shown = [(shown_name(name), size, mtime) for name, size, mtime in files]
        width = max((len(f[0]) for f in shown), default=0)
        for name, size, mtime in shown:
            when = datetime.fromtimestamp(mtime, tz=UTC).strftime("%Y-%m-%d %H:%M")
            lines.append(f"{name:<{width}}  {human_size(size):>10}  {when}")
        undecodable = sum(readable(n) != n for n in [*dirs, *(f[0] for f in files)])
        if undecodable:
            ctx.warn(not_utf8_note(undecodable, "name"))
        if len(lines) > MAX_ENTRIES:
            ctx.warn(
                f"Listing cut at {MAX_ENTRIES} of {len(lines)} entries; use pattern= to filter."
            )
            lines = lines[:MAX_ENTRIES]
        if not lines:
            ctx.warn(
                "The directory is empty"
                + (" (no entry matches the pattern)." if ctx.options.pattern else ".")
            )
            return
        yield Document("\n".join(lines), {"entry_count": len(dirs) + len(files)})


def _level(
    path: Path, fd: int | None, ctx: Context
) -> tuple[list[str], list[tuple[str, int, float]]]:
    """One level: folder names and (name, size, mtime) of the files; through the folder's
    descriptor when the workspace opened it (never looked up by name again)."""
    dirs: list[str] = []
    files: list[tuple[str, int, float]] = []
    with os.scandir(path if fd is None else fd) as it:
        for entry in it:
            try:
                if entry.is_dir(follow_symlinks=False):
                    dirs.append(entry.name)
                else:
                    st = entry.stat(follow_symlinks=False)
                    files.append((entry.name, st.st_size, st.st_mtime))
            except OSError as exc:
                ctx.warn(f"{shown_name(entry.name)}: left out of the listing ({exc.strerror})")
    return dirs, files


def _matching(path: Path, fd: int | None, ctx: Context) -> list[tuple[str, int, float]]:
    """With ``pattern``: the files a loader would read (``walk_files``, the walk of
    ``Reader.walk``), by their path under the directory."""
    files: list[tuple[str, int, float]] = []
    for full in walk_files(path, ctx.options.pattern, check=ctx.check_deadline, dir_fd=fd):
        ctx.check_deadline("the directory walk")
        rel = full.relative_to(path).as_posix()
        try:
            st = full.stat(follow_symlinks=False)
        except OSError as exc:
            ctx.warn(f"{shown_name(rel)}: left out of the listing ({exc.strerror})")
            continue
        files.append((rel, st.st_size, st.st_mtime))
    return files
