"""The workspace sandbox: every path is opened inside one root, and only regular files and
directories are opened (devices, FIFOs and sockets are refused before any open, so none can hang).

A path is opened once, one component at a time from a descriptor of the root (``openat`` with
``O_NOFOLLOW``), never re-resolved by name: swapping a parent folder for a link out while a read
runs cannot redirect it. Symbolic links are followed by hand, and only while they stay inside.
The caller reads through the descriptor it gets back (``Source``, and the worker it is sent to).
"""

from __future__ import annotations

import contextlib
import errno
import os
import stat
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import NamedTuple

from .errors import DocumentNotFoundError, PathSecurityError
from .request.ranges import glob_match
from .sanitize import readable

MAX_LINKS = 40  # symbolic links followed in one path (the kernel's own limit)
_ROOT = "\x00root"  # in a walk's to-do list: start again from the root (no name holds a NUL)
# POSIX only (dir_fd); Python opens every descriptor close-on-exec already
_O_PATH = getattr(os, "O_PATH", os.O_RDONLY)  # a handle for lookups only: no read permission needed
_WALK = _O_PATH | os.O_DIRECTORY | os.O_NOFOLLOW
_DIR = os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW
_FILE = os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_NOCTTY


class Opened(NamedTuple):
    """A file or directory opened inside the workspace: the caller owns ``fd``."""

    fd: int
    path: Path  # the real path, for names and metadata only: never open it again
    stat: os.stat_result  # of the descriptor

    @property
    def is_dir(self) -> bool:
        return stat.S_ISDIR(self.stat.st_mode)


class Workspace:
    """Opens caller paths inside ``root``; ``alias`` (e.g. ``/workspace``) maps onto the root.

    ``allow_hardlinks=False`` refuses regular files with more than one link: the other name may
    be a file outside the root (nothing is outside when the root is ``/``). ``root_fd``: a
    descriptor of the root (``root_descriptor``) to walk from instead of its name (a worker
    opening a batch of files under the host's workspace; ``root`` is then the host's real path).
    """

    def __init__(
        self,
        root: str | os.PathLike[str] | None = None,
        *,
        alias: str = "/workspace",
        allow_hardlinks: bool = False,
        root_fd: int | None = None,
    ) -> None:
        self.root = Path(os.path.realpath(root or os.getcwd()) if root_fd is None else root or "/")
        self.alias = alias.rstrip("/") if alias else ""
        self.allow_hardlinks = allow_hardlinks
        self.root_fd = root_fd

    def root_descriptor(self) -> int:
        """A new descriptor of the root, for lookups only (the caller closes it)."""
        return os.open(self.root, _WALK)

    def resolve(self, path: str | os.PathLike[str]) -> Path:
        """The real path inside the root, or a typed error; for names only (``open`` to read)."""
        opened = self.open(path)
        os.close(opened.fd)
        return opened.path

    def open(self, path: str | os.PathLike[str]) -> Opened:
        """Open ``path`` (a regular file or a directory) without leaving the root, or raise
        PathSecurityError / DocumentNotFoundError; the caller closes ``Opened.fd``."""
        raw = os.fspath(path)
        return _Walk(self, raw).open(_parts(self._lexical(raw), self.root))

    def shown(self, path: str | os.PathLike[str]) -> str:
        """The path as the workspace shows it (``source``): relative to the root, normalized,
        links kept as named; absolute when the root is "/" (a loader given paths outside the
        current folder); a byte of a name that is not UTF-8 as U+FFFD (``open`` reads that name
        back). Ids hash it, so they survive moving or cloning the workspace."""
        lexical = self._lexical(os.fspath(path))
        if str(self.root) == "/":
            return readable(lexical)
        return readable(os.path.relpath(lexical, self.root))  # a name not UTF-8: U+FFFD

    def _lexical(self, raw: str) -> str:
        """The absolute normalized path ``raw`` names (the alias mapped onto the root), or
        PathSecurityError when it is not inside the root."""
        if not raw or "\x00" in raw:
            raise PathSecurityError(f"invalid path {raw!r}", path=raw)
        candidate = Path(os.path.expanduser(raw)) if raw.startswith("~") else Path(raw)
        if not candidate.is_absolute():
            candidate = self.root / candidate
        elif self.alias and self.alias != str(self.root) and _under(raw, self.alias):
            candidate = self.root / os.path.relpath(raw, self.alias)
        lexical = os.path.normpath(candidate)
        if not _under(lexical, str(self.root)):
            raise PathSecurityError(
                f"{raw}: path is outside the workspace {self.root}; only files inside it can be "
                "read: set workspace= to a folder holding it (docread.read(path, workspace=...), "
                "Reader(workspace=...), the tools' workspace=, or --workspace)",
                path=raw,
            )
        return lexical


class _Walk:
    """One open: a stack of directory descriptors from the root down, links spliced in by hand."""

    def __init__(self, ws: Workspace, raw: str) -> None:
        self.ws, self.raw = ws, raw
        self.links = 0

    def open(self, parts: list[str]) -> Opened:
        try:
            root = (
                os.dup(self.ws.root_fd)
                if self.ws.root_fd is not None
                else os.open(self.ws.root, _WALK)
            )
        except OSError as exc:
            raise self._error(exc) from None
        stack: list[tuple[int, str]] = [(root, "")]
        fd = -1
        try:
            fd, name = self._descend(stack, parts[::-1])
            st = os.fstat(fd)
            self._admit(st)
            names = [n for _, n in stack[1:]] + ([name] if name else [])
            opened, fd = Opened(fd, self.ws.root.joinpath(*names), st), -1
            return opened
        finally:
            for dir_fd in [fd, *(d for d, _ in stack)]:
                if dir_fd >= 0:
                    os.close(dir_fd)

    def _descend(self, stack: list[tuple[int, str]], todo: list[str]) -> tuple[int, str]:
        """Walk ``todo`` (components, reversed) down from ``stack``: the final descriptor, open
        to read, and its name ("" when the path ends on a folder of the stack)."""
        while todo:
            name = todo.pop()
            if name in ("", "."):
                continue
            if name == _ROOT:  # an absolute link target starts again from the root
                while len(stack) > 1:
                    os.close(stack.pop()[0])
                continue
            if name == "..":
                if len(stack) > 1:
                    os.close(stack.pop()[0])
                elif str(self.ws.root) != "/":  # only a link's target climbs (paths are normal)
                    raise self._link_out()
                continue
            dir_fd = stack[-1][0]
            if "\ufffd" in name:
                name = self._stored(name, dir_fd)
            try:
                if not todo:
                    fd = self._open_last(name, dir_fd, todo)
                    if fd is not None:
                        return fd, name
                    continue  # a link: its target is in ``todo`` now
                stack.append((os.open(name, _WALK, dir_fd=dir_fd), name))
            except OSError as exc:
                if exc.errno not in (errno.ENOTDIR, errno.ELOOP, errno.EMLINK):
                    raise self._error(exc) from None
                self._not_a_folder(name, dir_fd, todo)
        try:  # the path ends on a folder held as a lookup handle (the root, "x/.."): open it to read
            return os.open(".", _DIR, dir_fd=stack[-1][0]), ""
        except OSError as exc:
            raise self._error(exc) from None

    def _stored(self, name: str, dir_fd: int) -> str:
        """``name`` as the folder stores it: itself when it exists, else the one entry that
        shows as ``name`` (a name that is not UTF-8, as ``source`` and listings show it, with
        U+FFFD for each such byte); two or more such entries are refused, never guessed."""
        try:
            os.stat(name, dir_fd=dir_fd, follow_symlinks=False)
            return name
        except OSError:
            pass
        try:
            folder = os.open(".", _DIR, dir_fd=dir_fd)
        except OSError:
            return name
        try:
            found = [entry for entry in os.listdir(folder) if readable(entry) == name]
        finally:
            os.close(folder)
        if len(found) > 1:
            raise PathSecurityError(
                f"{self.raw}: {len(found)} names in its folder show as {name!r} (their names are "
                "not valid UTF-8); name the file by its bytes (os.fsdecode) to read one",
                path=self.raw,
            )
        return found[0] if found else name

    def _open_last(self, name: str, dir_fd: int, todo: list[str]) -> int | None:
        """The final component: refused by kind before any open, a link spliced into ``todo``
        (None), else opened without following links."""
        st = os.stat(name, dir_fd=dir_fd, follow_symlinks=False)
        if stat.S_ISLNK(st.st_mode):
            # what the link reaches decides first: /proc/self/fd/N of a pipe has no path to walk
            with contextlib.suppress(OSError):  # dangling: the walk below says "no such file"
                check_kind(os.stat(name, dir_fd=dir_fd).st_mode, self.raw)
            self._splice(name, dir_fd, todo)
            return None
        check_kind(st.st_mode, self.raw)
        try:
            return os.open(name, _DIR if stat.S_ISDIR(st.st_mode) else _FILE, dir_fd=dir_fd)
        except OSError as exc:
            if exc.errno not in (errno.ENOTDIR, errno.ELOOP, errno.EMLINK):
                raise
            self._count_link()  # swapped between the stat and the open: look again
            todo.append(name)
            return None

    def _not_a_folder(self, name: str, dir_fd: int, todo: list[str]) -> None:
        """A middle component that did not open as a folder: a link to splice, a folder swapped
        back in (look again), or a file (no such path)."""
        try:
            st = os.stat(name, dir_fd=dir_fd, follow_symlinks=False)
        except OSError as exc:
            raise self._error(exc) from None
        if stat.S_ISLNK(st.st_mode):
            self._splice(name, dir_fd, todo)
        elif stat.S_ISDIR(st.st_mode):
            self._count_link()
            todo.append(name)
        else:
            raise DocumentNotFoundError(
                f"{self.raw}: no such file or directory ({name} is not a folder)", path=self.raw
            )

    def _splice(self, name: str, dir_fd: int, todo: list[str]) -> None:
        """Replace the link ``name`` by its target's components (from the root if absolute)."""
        self._count_link()
        try:
            target = os.readlink(name, dir_fd=dir_fd)
        except OSError as exc:
            if exc.errno != errno.EINVAL:
                raise self._error(exc) from None
            todo.append(name)  # no longer a link (swapped): look again
            return
        if os.path.isabs(target):
            todo.extend(reversed(self._inside(target)))
            todo.append(_ROOT)
        else:
            todo.extend(reversed(target.split("/")))

    def _inside(self, target: str) -> list[str]:
        """An absolute link target as components under the root, or PathSecurityError."""
        root = str(self.ws.root)
        for candidate in (os.path.normpath(target), _realpath(target)):
            if candidate is not None and _under(candidate, root):
                return _parts(candidate, self.ws.root)
        raise self._link_out()

    def _count_link(self) -> None:
        self.links += 1
        if self.links > MAX_LINKS:
            raise PathSecurityError(
                f"{self.raw}: too many levels of symbolic links (or the path kept changing while "
                f"it was opened)",
                path=self.raw,
            )

    def _admit(self, st: os.stat_result) -> None:
        """Checks on the opened descriptor itself: its kind, and hard links."""
        check_kind(st.st_mode, self.raw)
        linked = stat.S_ISREG(st.st_mode) and st.st_nlink > 1
        if linked and not self.ws.allow_hardlinks and str(self.ws.root) != "/":
            raise PathSecurityError(
                f"{self.raw}: the file has {st.st_nlink} hard links and another one may be a file "
                f"outside the workspace {self.ws.root}, so it is not read; set "
                f"workspace.allow_hardlinks: true in tools-security.yaml to read hard-linked files",
                path=self.raw,
            )

    def _link_out(self) -> PathSecurityError:
        return PathSecurityError(
            f"{self.raw}: a symbolic link leads outside the workspace {self.ws.root}", path=self.raw
        )

    def _error(self, exc: OSError) -> PathSecurityError | DocumentNotFoundError:
        if exc.errno in (errno.ENOENT, errno.ENOTDIR):
            return DocumentNotFoundError(f"{self.raw}: no such file or directory", path=self.raw)
        if exc.errno == errno.ELOOP:
            return PathSecurityError(f"{self.raw}: too many symbolic links", path=self.raw)
        return PathSecurityError(f"{self.raw}: cannot be read: {exc.strerror}", path=self.raw)


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


def _parts(path: str, root: Path) -> list[str]:
    """The components of a normalized absolute ``path`` below ``root``."""
    rel = os.path.relpath(path, root)
    return [] if rel == "." else rel.split(os.sep)


def _realpath(path: str) -> str | None:
    """The real path of an absolute link target, as a hint only (the walk checks every step)."""
    try:
        return os.path.realpath(path)
    except (OSError, ValueError):
        return None


def _under(path: str, root: str) -> bool:
    root = root.rstrip("/") or "/"
    return path == root or path.startswith(root + "/") or root == "/"


def walk_files(
    root: Path,
    pattern: str | None = None,
    *,
    recursive: bool = True,
    check: Callable[[], None] | None = None,
    dir_fd: int | None = None,
) -> Iterator[Path]:
    """Files under ``root`` (sorted, hidden folders skipped) whose root-relative path matches the
    glob (``glob_match``); one level only when ``recursive`` is False. ``Reader.walk`` and the
    directory listing both walk with this, so a listing shows what a loader reads. ``check`` is
    called for every folder and file (a deadline: a huge tree cannot hang the host).

    The walk goes folder by folder through descriptors (``os.fwalk``), so a folder swapped for a
    link meanwhile is not followed; with ``dir_fd`` (``root`` held open) not even ``root`` is
    looked up by name again."""
    pat = pattern or "**/*"
    top = "." if dir_fd is not None else root
    for dirpath, dirnames, filenames, _ in os.fwalk(top, dir_fd=dir_fd):
        if check is not None:
            check()
        dirnames[:] = sorted(d for d in dirnames if not d.startswith(".")) if recursive else []
        under = os.path.relpath(dirpath, top)
        for name in sorted(filenames):
            if check is not None:
                check()
            rel = name if under == "." else f"{under}/{name}"
            if glob_match(rel, pat):
                yield root / rel
