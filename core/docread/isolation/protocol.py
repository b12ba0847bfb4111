"""The isolation protocol in one place: the messages host, worker and fork server exchange
(pickled tuples on a ``multiprocessing.connection.Connection``, a kind first) and the Job.

host -> worker    ``job(Job)`` then the file's descriptor (SCM_RIGHTS); ``until(page)``;
                  ``cancel()``; ``root(path)`` then the workspace root's descriptor, once per
                  worker and root; ``batch(Batch)``: files the worker opens under that root
worker -> host    ``units([unit, ...])`` (in order), then ``done(header, notes)`` or
                  ``error(exc, recycle)`` to end the job; in a batch each file ends with
                  ``file_done(header, notes)`` or ``file_error(exc, recycle)``, the batch
                  with ``done({}, [])``
host -> server    ``fork(env, path, cwd, max_mb)`` then the worker's socket (SCM_RIGHTS)
server -> host    ``forked(pid)``; ``exited(pid, status)`` once a worker ends (waitpid status)
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..model import FileInfo
from ..request.options import ReadOptions
from ..settings import Settings

if TYPE_CHECKING:
    from multiprocessing.connection import Connection

    from ..errors import ReadDocumentError
    from ..model import Unit

Message = tuple[Any, ...]

JOB, UNTIL, CANCEL, ROOT, BATCH = "job", "until", "cancel", "root", "batch"
UNITS, DONE, ERROR, FILE_DONE, FILE_ERROR = "units", "done", "error", "file_done", "file_error"
FORK, FORKED, EXITED = "fork", "forked", "exited"
ENDS = (DONE, ERROR)  # the kinds that end a job


@dataclass(frozen=True, slots=True)
class Job:
    """One file for a worker: everything needed to rebuild the Context, all picklable; the file
    itself follows the Job as a descriptor (SCM_RIGHTS), so the worker never opens a path."""

    extractor: str  # "module:Class", imported in the worker
    path: str  # the real path, for names only ("" for bytes): the file comes as a descriptor
    info: FileInfo
    options: ReadOptions
    settings: Settings
    loader: bool
    workspace: Path | None
    deadline: float  # time.monotonic() value; CLOCK_MONOTONIC is shared by every process


@dataclass(frozen=True, slots=True)
class Batch:
    """Small files for one worker, opened by it under the workspace root it was sent (the same
    sandbox rules as the host's: ``Workspace`` on the root's descriptor), read one by one, each
    under its own global timeout from its start."""

    files: tuple[ReadOptions, ...]  # each with its file_path as the caller named it
    settings: Settings
    workspace: Path  # the root's real path (its descriptor came with ``root``)


def send_job(conn: Connection, job: Job, fd: int) -> None:
    """The Job, then the open file it reads."""
    conn.send((JOB, job))
    send_fd(conn, fd)


def send_fd(conn: Connection, fd: int) -> None:
    """A descriptor over the socket (SCM_RIGHTS), after the message it belongs to."""
    from multiprocessing.reduction import send_handle

    send_handle(conn, fd, None)  # the pid matters on Windows only


def recv_fd(conn: Connection) -> int:
    """The descriptor that follows a ``job``, ``fork`` or ``forked`` message."""
    from multiprocessing.reduction import recv_handle

    return recv_handle(conn)


def send_root(conn: Connection, root: Path, fd: int) -> None:
    """The workspace root's descriptor (lookups only), which batches on this root open under."""
    conn.send((ROOT, root))
    send_fd(conn, fd)


def batch(files: Batch) -> Message:
    return (BATCH, files)


def file_done(header: dict[str, str], notes: list[str]) -> Message:
    return (FILE_DONE, header, notes)


def file_error(exc: ReadDocumentError, recycle: bool) -> Message:
    return (FILE_ERROR, exc, recycle)


def until(page: int) -> Message:
    return (UNTIL, page)


def cancel() -> Message:
    return (CANCEL,)


def units(batch: list[Unit]) -> Message:
    return (UNITS, batch)


def done(header: dict[str, str], notes: list[str]) -> Message:
    return (DONE, header, notes)


def error(exc: ReadDocumentError, recycle: bool) -> Message:
    """A job's error; ``recycle``: the worker must be replaced (its memory ran out)."""
    return (ERROR, exc, recycle)


def fork(env: dict[str, str], path: list[str], cwd: str, max_mb: int) -> Message:
    """A worker for the host as it is now: its environment, import path and directory."""
    return (FORK, env, path, cwd, max_mb)


def forked(pid: int) -> Message:
    return (FORKED, pid)


def exited(pid: int, status: int) -> Message:
    return (EXITED, pid, status)
