"""The workspace sandbox: every path resolves inside one root, and only regular files and
directories are opened (devices, FIFOs and sockets are refused before any open, so none can hang)."""

from __future__ import annotations

import os
import stat
from collections.abc import Callable, Iterator
from pathlib import Path

from .errors import DocumentNotFoundError, PathSecurityError
from .request.ranges import glob_match


class Workspace:
    """Resolves caller paths against ``root``; ``alias`` (e.g. ``/workspace``) maps onto the root."""

    def __init__(
        self, root: str | os.PathLike[str] | None = None, *, alias: str = "/workspace"
    ) -> None:
        self.root = Path(os.path.realpath(root or os.getcwd()))
        self.alias = alias.rstrip("/") if alias else ""

    def resolve(self, path: str | os.PathLike[str]) -> Path:
        """The real path inside the root, or a typed error; never follows a link out."""
        raw = os.fspath(path)
        if not raw or "\x00" in raw:
            raise PathSecurityError(f"invalid path {raw!r}", path=raw)
        candidate = Path(os.path.expanduser(raw)) if raw.startswith("~") else Path(raw)
        if not candidate.is_absolute():
            candidate = self.root / candidate
        elif self.alias and self.alias != str(self.root) and _under(raw, self.alias):
            candidate = self.root / os.path.relpath(raw, self.alias)
        lexical = Path(os.path.normpath(candidate))
        if not _under(str(lexical), str(self.root)):
            raise PathSecurityError(
                f"{raw}: path is outside the workspace {self.root}; only files inside it can be read",
                path=raw,
            )
        real = Path(os.path.realpath(lexical))
        if not _under(str(real), str(self.root)):
            raise PathSecurityError(
                f"{raw}: a symbolic link leads outside the workspace {self.root}", path=raw
            )
        try:
            st = os.stat(real)
        except FileNotFoundError:
            st = _stat_magic_link(lexical, raw)  # /proc/self/fd/N -> "pipe:[...]" has no real path
        except OSError as exc:
            raise PathSecurityError(f"{raw}: cannot be read: {exc.strerror}", path=raw) from exc
        check_kind(st.st_mode, raw)
        return real

    def relative(self, path: Path) -> str:
        """The path as shown to a model: relative to the root when inside it."""
        try:
            return str(path.relative_to(self.root))
        except ValueError:
            return str(path)


def _stat_magic_link(lexical: Path, raw: str) -> os.stat_result:
    """A /proc fd link to a pipe or socket resolves to no path; its target's kind is still known."""
    try:
        st = os.stat(lexical)
    except OSError:
        raise DocumentNotFoundError(f"{raw}: no such file or directory", path=raw) from None
    check_kind(st.st_mode, raw)
    raise DocumentNotFoundError(f"{raw}: no such file or directory", path=raw)


def check_kind(mode: int, shown: str) -> None:
    """Only regular files and directories may be read."""
    if stat.S_ISREG(mode) or stat.S_ISDIR(mode):
        return
    kind = (
        "a character device" if stat.S_ISCHR(mode)
        else "a block device" if stat.S_ISBLK(mode)
        else "a FIFO (named pipe)" if stat.S_ISFIFO(mode)
        else "a socket" if stat.S_ISSOCK(mode)
        else "not a regular file"
    )  # fmt: skip
    raise PathSecurityError(
        f"{shown}: is {kind}; only regular files and directories are read", path=shown
    )


def _under(path: str, root: str) -> bool:
    root = root.rstrip("/") or "/"
    return path == root or path.startswith(root + "/") or root == "/"


def walk_files(
    root: Path,
    pattern: str | None = None,
    *,
    recursive: bool = True,
    check: Callable[[], None] | None = None,
) -> Iterator[Path]:
    """Files under ``root`` (sorted, hidden folders skipped) whose root-relative path matches the
    glob (``glob_match``); one level only when ``recursive`` is False. ``Reader.walk`` and the
    directory listing both walk with this, so a listing shows what a loader reads. ``check`` is
    called for every folder and file (a deadline: a huge tree cannot hang the host)."""
    pat = pattern or "**/*"
    for dirpath, dirnames, filenames in os.walk(root):
        if check is not None:
            check()
        dirnames[:] = sorted(d for d in dirnames if not d.startswith(".")) if recursive else []
        for name in sorted(filenames):
            if check is not None:
                check()
            full = Path(dirpath) / name
            if glob_match(full.relative_to(root).as_posix(), pat):
                yield full
