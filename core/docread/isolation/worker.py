"""The worker side of isolation: a process under a memory rlimit that runs Jobs through the
in-process Pipeline and sends each unit back as soon as it exists, the units that pile up while
the socket is busy as one message (the host side is ``pool``)."""

from __future__ import annotations

import contextlib
import os
import queue
import re
import threading
import time
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..errors import ExtractionError, ReadDocumentError, ResourceLimitError, logger
from ..extractors.base import extractor_class
from ..model import FileInfo
from ..pipeline import Pipeline
from ..request.options import ReadOptions
from ..settings import Settings
from ..source import Source

if TYPE_CHECKING:
    from multiprocessing.connection import Connection

MB = 1024 * 1024
BATCH = 64  # units in one message at most
QUEUED = 64  # units made and not yet sent before the extractor waits (the socket's backpressure)
POLL = 0.1  # seconds between checks of a failed sender by an extractor waiting for room
# How native parsers say an allocation failed under the rlimit (sqlite, MuPDF, libc)
_NO_MEMORY = re.compile(r"out of memory|\b(?:m|c|re)alloc\b.*\bfailed|cannot allocate memory", re.I)


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


def main(fd: int, max_mb: int) -> None:
    """Worker loop: set the memory limit, then run jobs until the host closes the socket.

    The limit is RLIMIT_DATA (heap and private writable mappings: what the worker really uses),
    not RLIMIT_AS: the address space also counts reservations that never hold memory (PyMuPDF
    and pandas map ~740 MB at import, each thread reserves a 64 MB malloc arena and its stack),
    so an address-space limit of 1 GB would refuse an OCR thread long before memory ran short."""
    import logging
    import resource
    from multiprocessing.connection import Connection

    limit = max_mb * MB
    with contextlib.suppress(ValueError, OSError):
        resource.setrlimit(resource.RLIMIT_DATA, (limit, limit))
    logging.getLogger("docread").propagate = False  # errors go back to the host, which handles them
    _watch_parent(os.getppid())
    preload = threading.Thread(target=_preload, daemon=True, name="docread-preload")
    preload.start()
    try:
        _serve(Connection(fd))
    finally:
        preload.join()  # exiting in the middle of a native import aborts the process


class _Outbox:
    """Sends the worker's messages in order from its own thread: a unit goes out as soon as the
    socket takes it (the first of a job at once), and the units made meanwhile go together as
    one ``("units", [...])`` message, so a fast extractor pays one pickle and one wake-up of
    the host per batch, and a slow one (OCR) never holds a finished unit back."""

    def __init__(self, conn: Connection) -> None:
        self._conn = conn
        self._queue: queue.Queue[tuple[Any, ...]] = queue.Queue(QUEUED)
        self._failed: BaseException | None = None  # the host closed the socket
        self._sending = threading.Lock()  # one message on the socket at a time
        threading.Thread(target=self._send_all, daemon=True, name="docread-send").start()

    def send(self, message: tuple[Any, ...], *, now: bool = False) -> None:
        """Queue a message (``("unit", u)`` or any other); ``now``: send it from this thread
        before returning (a job's first unit: nothing of the job is queued before it). Raises
        OSError once sending failed."""
        if now and self._failed is None:
            with self._sending:
                try:
                    self._conn.send(("units", [message[1]]))
                    return
                except (OSError, EOFError, ValueError) as exc:
                    self._failed = exc
        while True:
            if self._failed is not None:  # the error message that follows raises too: job over
                raise _HostGone(str(self._failed))
            try:
                self._queue.put(message, timeout=POLL)
                return
            except queue.Full:
                continue

    def _send_all(self) -> None:
        held: tuple[Any, ...] | None = None  # a message that ended a batch, sent right after it
        try:
            while True:
                message, held = held or self._queue.get(), None
                if message[0] != "unit":
                    with self._sending:
                        self._conn.send(message)
                    continue
                batch = [message[1]]
                while len(batch) < BATCH:
                    try:
                        message = self._queue.get_nowait()
                    except queue.Empty:
                        break
                    if message[0] != "unit":
                        held = message
                        break
                    batch.append(message[1])
                with self._sending:
                    self._conn.send(("units", batch))
        except (OSError, EOFError, ValueError) as exc:
            self._failed = exc
            while True:  # an extractor waiting for room must not block: drop what comes
                self._queue.get()


class _HostGone(OSError):
    """The host closed the socket: the worker ends quietly."""


def _serve(conn: Connection) -> None:
    """Run jobs until the host closes the socket."""
    from multiprocessing.reduction import recv_handle

    outbox = _Outbox(conn)
    while True:
        try:
            message = conn.recv()
        except (EOFError, OSError):
            return
        if message[0] == "job":
            try:
                fd = recv_handle(conn)  # the file, sent right after its Job
                _run_job(conn, outbox, message[1], fd)
            except (EOFError, OSError, RuntimeError):  # the host closed the socket: quietly
                return


def _run_job(conn: Connection, outbox: _Outbox, job: Job, fd: int) -> None:
    """Run one job through the in-process pipeline, handing each unit to the outbox as soon as
    it exists; ``conn`` brings the host's ``until`` and ``cancel`` messages."""
    source = Source.from_fd(fd, Path(job.path) if job.path else None, job.info.name)
    try:
        with source:
            pipeline = Pipeline(job.settings)
            ctx = pipeline.context(
                job.info, job.options, loader=job.loader, workspace=job.workspace,
                deadline=job.deadline,
            )  # fmt: skip
            units = pipeline.units(source, job.info, ctx, ext_cls=extractor_class(job.extractor))
            try:
                until: int | None = None  # a last page the host set while the job ran
                for n, unit in enumerate(units):
                    outbox.send(("unit", unit), now=not n)
                    cancel = False
                    while not cancel and conn.poll():
                        message = conn.recv()
                        cancel = message[0] == "cancel"
                        until = until if cancel else message[1]
                    page = unit.metadata.get("page_number")
                    past = until is not None and isinstance(page, int) and page > until
                    if cancel or past:  # past: the host stops at this unit, the rest is a part's
                        break
            finally:
                units.close()
        outbox.send(("done", ctx.header, ctx.notes))
    except BaseException as exc:  # noqa: BLE001 - everything goes back to the host, typed
        outbox.send(("error", *_as_error(exc, job)))


def _as_error(exc: BaseException, job: Job) -> tuple[ReadDocumentError, bool]:
    """The error to send back, and whether the worker must be replaced (memory exhausted)."""
    source = job.info.source
    if _out_of_memory(exc):
        return ResourceLimitError(
            f"{source}: ran out of memory while reading (the worker limit is "
            f"memory.max_worker_mb={job.settings.memory.max_worker_mb} MB); read a smaller window "
            f"or raise the limit",
            path=source,
        ), True
    if isinstance(exc, ReadDocumentError):
        return exc, False
    logger.debug("worker error", exc_info=exc)
    return ExtractionError(f"{source}: {type(exc).__name__}: {exc}", path=source), False


def _out_of_memory(exc: BaseException) -> bool:
    """A MemoryError, or a native parser's failed allocation, anywhere in the chain."""
    seen: BaseException | None = exc
    for _ in range(5):
        if seen is None:
            return False
        if isinstance(seen, MemoryError) or _NO_MEMORY.search(str(seen)):
            return True
        seen = seen.__cause__ or seen.__context__
    return False


def _preload() -> None:
    """Import PyMuPDF (most loads are PDFs) while the first job is on its way, not after
    (without its layout model: extractors.pdf.library)."""
    with contextlib.suppress(ImportError):
        from ..extractors.pdf.library import load_pymupdf

        load_pymupdf()


def _watch_parent(ppid: int) -> None:
    """Exit when the host dies, even if the main thread is stuck in a parser."""

    def watch() -> None:
        while os.getppid() == ppid:
            time.sleep(1)
        os._exit(1)

    threading.Thread(target=watch, daemon=True, name="docread-parent-watch").start()
