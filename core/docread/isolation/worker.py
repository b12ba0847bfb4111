"""The worker side of isolation: a process under a memory rlimit that runs Jobs through the
in-process Pipeline and sends each unit back as soon as it exists (the host side is ``pool``)."""

from __future__ import annotations

import contextlib
import os
import threading
import time
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from ..errors import ExtractionError, ReadDocumentError, logger
from ..extractors.base import extractor_class
from ..model import FileInfo
from ..pipeline import Pipeline
from ..request.options import ReadOptions
from ..settings import Settings
from ..source import Source

if TYPE_CHECKING:
    from multiprocessing.connection import Connection

MB = 1024 * 1024


@dataclass(frozen=True, slots=True)
class Job:
    """One file for a worker: everything needed to rebuild the Context, all picklable."""

    extractor: str  # "module:Class", imported in the worker
    path: str
    info: FileInfo
    options: ReadOptions
    settings: Settings
    loader: bool
    workspace: Path | None
    deadline: float  # time.monotonic() value; CLOCK_MONOTONIC is shared by every process


def main(fd: int, max_mb: int) -> None:
    """Worker loop: set the address-space limit, then run jobs until the host closes the socket."""
    import logging
    import resource
    from multiprocessing.connection import Connection

    limit = max_mb * MB
    with contextlib.suppress(ValueError, OSError):
        resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
    logging.getLogger("docread").propagate = False  # errors go back to the host, which handles them
    _watch_parent(os.getppid())
    conn = Connection(fd)
    while True:
        try:
            message = conn.recv()
        except (EOFError, OSError):
            return
        if message[0] == "job":
            _run_job(conn, message[1])


def _run_job(conn: Connection, job: Job) -> None:
    """Run one job through the in-process pipeline, sending each unit as soon as it exists."""
    pipeline = Pipeline(job.settings)
    ctx = pipeline.context(
        job.info, job.options, loader=job.loader, workspace=job.workspace, deadline=job.deadline
    )
    try:
        with Source.from_path(Path(job.path)) as source:
            units = pipeline.units(source, job.info, ctx, ext_cls=extractor_class(job.extractor))
            try:
                for unit in units:
                    conn.send(("unit", unit))
                    if conn.poll() and conn.recv()[0] == "cancel":
                        break
            finally:
                units.close()
        conn.send(("done", ctx.header, ctx.notes))
    except BaseException as exc:  # noqa: BLE001 - everything goes back to the host, typed
        conn.send(("error", *_as_error(exc, job)))


def _as_error(exc: BaseException, job: Job) -> tuple[ReadDocumentError, bool]:
    """The error to send back, and whether the worker must be replaced (memory exhausted)."""
    source = job.info.source
    out_of_memory = isinstance(exc, MemoryError) or isinstance(exc.__cause__, MemoryError)
    if out_of_memory:
        return ExtractionError(
            f"{source}: ran out of memory while reading (the worker limit is "
            f"memory.max_worker_mb={job.settings.memory.max_worker_mb} MB); read a smaller window "
            f"or raise the limit",
            path=source,
        ), True
    if isinstance(exc, ReadDocumentError):
        return exc, False
    logger.debug("worker error", exc_info=exc)
    return ExtractionError(f"{source}: {type(exc).__name__}: {exc}", path=source), False


def _watch_parent(ppid: int) -> None:
    """Exit when the host dies, even if the main thread is stuck in a parser."""

    def watch() -> None:
        while os.getppid() == ppid:
            time.sleep(1)
        os._exit(1)

    threading.Thread(target=watch, daemon=True, name="docread-parent-watch").start()
