"""The worker side of isolation: a process forked from the template (``template``) under a
memory rlimit that runs Jobs through the in-process Pipeline, one file after another, and sends
its units back as they come: one made after a pause at once, those that follow within
``LINGER`` (or while the socket is busy) as one message (the host side is ``pool``)."""

from __future__ import annotations

import contextlib
import os
import queue
import re
import select
import threading
import time
from pathlib import Path
from typing import TYPE_CHECKING

from ..errors import ExtractionError, ReadDocumentError, ResourceLimitError, logger
from ..extractors.base import extractor_class
from ..extractors.ocr import set_share
from ..pipeline import Pipeline, extractor_of
from ..sanitize import lazy_pattern
from ..source import Source
from ..workspace import Workspace
from . import protocol
from .events import past
from .protocol import Job, Message

if TYPE_CHECKING:
    from collections.abc import Iterator
    from multiprocessing.connection import Connection

    from ..model import Unit
    from ..settings import Settings

MB = 1024 * 1024
BATCH = 64  # units in one message at most
QUEUED = 64  # units made and not yet sent before the extractor waits (the socket's backpressure)
POLL = 0.1  # seconds between checks of a failed sender by an extractor waiting for room
LINGER = 0.05  # seconds a unit made this soon after the last send waits for the ones after it
# (at 20 ms a text PDF's page made 20-25 ms after the last send, as on a loaded machine, went
# alone: the corpus PDFs x3 on 2 workers came in 754-804 messages, 473-489 at 50 ms, the host's
# CPU 0.52-0.54 -> 0.43-0.46 s, each worker's sender thread 0.07-0.08 -> 0.03-0.05 s)
# How native parsers say an allocation failed under the rlimit (sqlite, MuPDF, libc)
_NO_MEMORY = lazy_pattern(r"out of memory|\b(?:m|c|re)alloc\b.*\bfailed|cannot allocate memory", re.I)


def main(fd: int, max_mb: int, host: int) -> None:
    """Worker loop: set the memory limit, then run jobs until the host closes the socket
    (``host``: a pidfd of the host process, which the worker does not outlive).

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
    _watch_host(host)
    _serve(Connection(fd))


class _Outbox:
    """Sends the worker's messages in order. A file's first unit, and one made ``LINGER`` or
    more after the last send, goes at once from the extracting thread, while the socket has room
    and nothing waits before it (a slow extractor, OCR, never holds a finished unit back; a
    batch of small files, a unit each, wakes no thread). The units that follow within
    ``LINGER`` (a fast extractor: a text PDF's pages every few ms), or while the host falls
    behind (the socket over a quarter full), go to a sender thread, which sends those made meanwhile as one ``protocol.units`` message once
    ``LINGER`` has passed since the last send, at once when a file's end waits behind them or
    half a ``BATCH`` is queued: the host pays one wake-up, poll and read per batch rather than
    per unit (a wake-up per unit cost the host ~0.4 ms of CPU), and this process one wake-up
    of the sender thread per batch (a wake-up per unit cost a PDF's worker 5 % of its CPU)."""

    def __init__(self, conn: Connection) -> None:
        self._conn = conn
        self._queue: queue.Queue[Unit | Message] = queue.Queue(QUEUED)  # a message is a tuple
        self._failed: BaseException | None = None  # the host closed the socket
        self._waiting = 0  # items queued and not yet sent (the order: none is sent past them)
        self._count = threading.Lock()  # guards ``_waiting``
        self._last = 0.0  # time.monotonic() of the last units sent (0.0: a file ended since)
        self._flush = threading.Event()  # send what is queued now (an end waits, or many units)
        self._room = select.poll()  # POLLOUT: the socket takes a message without waiting
        self._room.register(conn.fileno(), select.POLLOUT)
        threading.Thread(target=self._send_all, daemon=True, name="docread-send").start()

    def unit(self, unit: Unit) -> None:
        """Send a unit now, or queue it behind those waiting. Raises OSError once sending
        failed."""
        if time.monotonic() - self._last >= LINGER and self._direct(protocol.units([unit])):
            self._last = time.monotonic()
            return
        self._put(unit)
        if self._waiting >= BATCH // 2:
            self._flush.set()

    def send(self, message: Message) -> None:
        """Send a message that is not a unit (a file's end) after the units before it; the next
        unit (the next file's first) goes at once."""
        self._last = 0.0
        if not self._direct(message):
            self._flush.set()
            self._put(message)

    def _direct(self, message: Message) -> bool:
        """Send ``message`` from this thread when nothing waits before it and the socket has
        room; False when it must be queued."""
        if self._failed is not None or self._waiting or not self._room.poll(0):
            return False
        try:
            self._conn.send(message)
        except (OSError, EOFError, ValueError) as exc:
            self._failed = exc
            return False
        return True

    def _put(self, item: Unit | Message) -> None:
        with self._count:
            self._waiting += 1
        while True:
            if self._failed is not None:  # the error message that follows raises too: job over
                raise _HostGone(str(self._failed))
            try:
                self._queue.put(item, timeout=POLL)
                return
            except queue.Full:
                continue

    def _send_all(self) -> None:
        held: Unit | Message | None = None  # a message that ended a batch, sent right after it
        try:
            while True:
                item, held = held or self._queue.get(), None
                if isinstance(item, tuple):
                    self._conn.send(item)
                    self._last = 0.0  # a file's end: the next file's first unit goes at once
                    self._sent(1)
                    continue
                self._flush.wait(self._last + LINGER - time.monotonic())  # the ones to follow
                self._flush.clear()
                batch = [item]
                while len(batch) < BATCH:
                    try:
                        item = self._queue.get_nowait()
                    except queue.Empty:
                        break
                    if isinstance(item, tuple):
                        held = item
                        break
                    batch.append(item)
                self._conn.send(protocol.units(batch))
                self._last = time.monotonic()
                self._sent(len(batch))
        except (OSError, EOFError, ValueError) as exc:
            self._failed = exc
            while True:  # an extractor waiting for room must not block: drop what comes
                self._queue.get()

    def _sent(self, count: int) -> None:
        """``count`` queued items are on the socket: once none waits, the extracting thread
        sends again itself."""
        with self._count:
            self._waiting -= count


class _HostGone(OSError):
    """The host closed the socket: the worker ends quietly."""


def _serve(conn: Connection) -> None:
    """Run jobs until the host closes the socket."""
    outbox = _Outbox(conn)
    roots: dict[Path, int] = {}  # workspace root -> its descriptor, sent once
    while True:
        try:
            message = conn.recv()
        except (EOFError, OSError):
            return
        try:
            if message[0] == protocol.JOB:
                job: Job = message[1]
                fds = [protocol.recv_fd(conn) for file in job.files if file.info is not None]
                root = roots[job.workspace] if job.opens and job.workspace else None
                set_share(message[2])
                _run(conn, outbox, job, fds, root)
            elif message[0] == protocol.ROOT:
                roots[message[1]] = protocol.recv_fd(conn)
        except (EOFError, OSError, RuntimeError):  # the host closed the socket: quietly
            return


def _run(conn: Connection, outbox: _Outbox, job: Job, fds: list[int], root: int | None) -> None:
    """Read the job's files one by one through the in-process pipeline, each unit to the outbox
    as soon as it exists (``conn`` brings the host's ``until`` and ``cancel``). A file the host
    opened is read from its descriptor (``fds``, in order); another is opened here under the
    workspace ``root`` with the host's own code (``Pipeline.open``: the sandbox's rules,
    detection, size limits). Each file ends with its notes or its error, under its own global
    deadline; a job broken off (cancelled, or out of memory) with ``done``."""
    settings = job.settings
    pipeline = Pipeline(settings)
    workspace = None
    if root is not None and job.workspace is not None:
        workspace = Workspace(
            job.workspace, alias=settings.workspace.alias,
            allow_hardlinks=settings.workspace.allow_hardlinks, root_fd=root,
        )  # fmt: skip
    given = iter(fds)
    try:
        for file in job.files:
            try:
                if file.info is not None:
                    path = Path(file.path) if file.path else None
                    source, info = Source.from_fd(next(given), path, file.info.name), file.info
                    ext = extractor_class(file.extractor)
                else:
                    assert workspace is not None  # a job that opens files came after its root
                    source, info = pipeline.open(workspace, file.options)
                    ext = extractor_of(info)
                with source:
                    ctx = pipeline.context(
                        info, file.options, loader=job.loader, workspace=job.workspace,
                        deadline=file.deadline or None,
                    )  # fmt: skip
                    cancelled = _send_units(
                        conn, outbox, pipeline.units(source, info, ctx, ext_cls=ext)
                    )
                if cancelled:
                    outbox.send(protocol.done())
                    return
                outbox.send(protocol.file_done(ctx.header, ctx.notes))
            except BaseException as exc:  # noqa: BLE001 - everything goes back to the host, typed
                error, recycle = _as_error(exc, file.source, settings)
                outbox.send(protocol.file_error(error, recycle))
                if recycle:  # the host replaces this worker: the rest goes to a fresh one
                    outbox.send(protocol.done())
                    return
    finally:
        for fd in given:  # files the job never reached
            os.close(fd)


def _send_units(conn: Connection, outbox: _Outbox, units: Iterator[Unit]) -> bool:
    """Hand each unit to the outbox as soon as it exists, obeying the host's ``until``,
    ``share`` and ``cancel`` between units; True when the host cancelled."""
    inbox = select.poll()  # one system call per unit (``conn.poll`` builds a selector each time)
    inbox.register(conn.fileno(), select.POLLIN)
    try:
        until: int | None = None  # a last page the host set while the job ran
        for unit in units:
            outbox.unit(unit)
            cancel = False
            while not cancel and inbox.poll(0):
                kind, *rest = conn.recv()
                cancel = kind == protocol.CANCEL
                if kind == protocol.SHARE:
                    set_share(rest[0])
                elif kind == protocol.UNTIL:
                    until = rest[0]
            if cancel:
                return True
            if past(unit, until):
                break  # the host stops at this unit, the rest is a part's
    finally:
        close = getattr(units, "close", None)
        if close is not None:
            close()
    return False


def _as_error(
    exc: BaseException, source: str, settings: Settings
) -> tuple[ReadDocumentError, bool]:
    """The error to send back, and whether the worker must be replaced (memory exhausted)."""
    if _out_of_memory(exc):
        return ResourceLimitError(
            f"{source}: ran out of memory while reading (the worker limit is "
            f"memory.max_worker_mb={settings.memory.max_worker_mb} MB); read a smaller window "
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


def _watch_host(host: int) -> None:
    """Exit when the host dies, even if the main thread is stuck in a parser."""

    def watch() -> None:
        select.select([host], [], [])  # a pidfd turns readable when its process ends
        os._exit(1)

    threading.Thread(target=watch, daemon=True, name="docread-host-watch").start()
