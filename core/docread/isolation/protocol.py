"""The isolation protocol in one place: the messages host, worker and fork server exchange
(pickled tuples on a ``multiprocessing.connection.Connection``, a kind first) and the Job.

host -> worker    ``root(path)`` then the workspace root's descriptor, once per worker and root
                  (before a job with files the worker opens); ``job(Job, share)`` then the descriptor
                  of each file the host opened (SCM_RIGHTS); ``until(page)``; ``share(cores)``;
                  ``cancel()``
worker -> host    per file: ``units([unit, ...])`` (in order), then ``file_done(header, notes)``
                  or ``file_error(exc, recycle)``; the last file's end ends the job, ``done()``
                  one broken off (a cancel, or memory exhausted)
host -> server    ``fork(env, path, cwd, max_mb)`` then the worker's socket (SCM_RIGHTS)
server -> host    ``forked(pid)``; ``exited(pid, status)`` once a worker ends (waitpid status)
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..model import FileInfo, dataclass
from ..request.options import ReadOptions
from ..settings import Settings

if TYPE_CHECKING:
    from collections.abc import Sequence
    from multiprocessing.connection import Connection

    from ..errors import ReadDocumentError
    from ..model import Unit

Message = tuple[Any, ...]

JOB, UNTIL, SHARE, CANCEL, ROOT = "job", "until", "share", "cancel", "root"
UNITS, DONE, FILE_DONE, FILE_ERROR = "units", "done", "file_done", "file_error"
FORK, FORKED, EXITED = "fork", "forked", "exited"


@dataclass(frozen=True, slots=True)
class JobFile:
    """One file of a Job. A file the host opened comes with its FileInfo and extractor, and its
    descriptor follows the Job (SCM_RIGHTS): the worker never opens a path. Any other file the
    worker opens under the workspace root it was sent (``Workspace`` on the root's descriptor:
    the host's own rules) and detects."""

    options: ReadOptions  # file_path: the name as the caller gave it
    source: str  # the path as the workspace shows it, for errors
    reader: str  # the extractor's name, for errors (from the file's name when the worker opens it)
    info: FileInfo | None = None  # set: the host opened the file
    extractor: str = ""  # of a file the host opened: "module:Class", imported in the worker
    path: str = ""  # of a file the host opened: its real path, for names only ("" for bytes)
    deadline: float = 0.0  # of a file the host opened: its read's end (time.monotonic();
    # CLOCK_MONOTONIC is shared by every process); else global_timeout from its start


@dataclass(frozen=True, slots=True)
class Job:
    """Files for one worker, read one after another, each ending on its own (a job of one file
    is a batch of one): everything needed to rebuild each file's Context, all picklable."""

    files: tuple[JobFile, ...]
    settings: Settings
    loader: bool
    workspace: Path | None  # the root's real path (its descriptor came with ``root``)

    @property
    def opens(self) -> bool:
        """Whether the worker opens a file of it (it needs the workspace root first)."""
        return any(file.info is None for file in self.files)


def send_job(conn: Connection, job: Job, fds: Sequence[int], share: int) -> None:
    """The Job with the worker's share of the cores (the images it OCRs at once; 0: one per
    core), then the open files it reads (those the host opened, in order)."""
    conn.send((JOB, job, share))
    for fd in fds:
        send_fd(conn, fd)


def send_fd(conn: Connection, fd: int) -> None:
    """A descriptor over the socket (SCM_RIGHTS), after the message it belongs to."""
    from multiprocessing.reduction import send_handle

    send_handle(conn, fd, None)  # the pid matters on Windows only


def recv_fd(conn: Connection) -> int:
    """A descriptor that follows a ``job``, ``root``, ``fork`` or ``forked`` message."""
    from multiprocessing.reduction import recv_handle

    return recv_handle(conn)


def send_root(conn: Connection, root: Path, fd: int) -> None:
    """The workspace root's descriptor (lookups only), which the files of jobs on this root are
    opened under."""
    conn.send((ROOT, root))
    send_fd(conn, fd)


def file_done(header: dict[str, str], notes: list[str]) -> Message:
    return (FILE_DONE, header, notes)


def file_error(exc: ReadDocumentError, recycle: bool) -> Message:
    """A file's error; ``recycle``: the worker must be replaced (its memory ran out)."""
    return (FILE_ERROR, exc, recycle)


def until(page: int) -> Message:
    return (UNTIL, page)


def share(cores: int) -> Message:
    """The worker's share of the cores changed (others of its pool became busy or idle)."""
    return (SHARE, cores)


def cancel() -> Message:
    return (CANCEL,)


def units(batch: list[Unit]) -> Message:
    return (UNITS, batch)


def done() -> Message:
    """The job was broken off before its last file's end (a cancel): the worker is free."""
    return (DONE,)


def fork(env: dict[str, str], path: list[str], cwd: str, max_mb: int) -> Message:
    """A worker for the host as it is now: its environment, import path and directory."""
    return (FORK, env, path, cwd, max_mb)


def forked(pid: int) -> Message:
    return (FORKED, pid)


def exited(pid: int, status: int) -> Message:
    return (EXITED, pid, status)
