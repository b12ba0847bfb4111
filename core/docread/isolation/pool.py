"""The host side of isolation: a pool of worker processes, a hard timeout per file, crash containment.

A worker (``processes.WorkerProcess``: forked from the template, a process that imported docread
and the PDF engine once) runs in its own session, talking over a socketpair with pickled messages
(``protocol``). The host sends a ``Job`` (one file or a batch of small ones) and the descriptors
of the files it opened (SCM_RIGHTS); the worker opens the others under the workspace root's
descriptor, runs the in-process pipeline on each and sends each finished unit as soon as it
exists (those made while the socket was busy together, as one message), so memory stays flat on
both sides. Past a file's deadline the worker and every descendant (tesseract, pandoc) are
SIGKILLed and the slot is refilled lazily.
"""

from __future__ import annotations

import atexit
import contextlib
import dataclasses
import os
import select
import threading
import time
import weakref
from collections.abc import Callable, Generator, Sequence
from typing import TYPE_CHECKING

from ..errors import ExtractionTimeoutError
from ..extractors.deadline import end_after
from . import protocol
from .events import FileDone, FileEnd, FileFailed, LoadEvent, Until
from .processes import WorkerDied, WorkerProcess, close_template

if TYPE_CHECKING:
    from ..model import Unit
    from ..settings import Settings
    from .protocol import Job, JobFile, Message

MB = 1024 * 1024
KILL_GRACE = (
    0.5  # seconds past the deadline before the host kills (the worker's own check goes first)
)
MAX_JOBS_PER_WORKER = (
    500  # then the worker is replaced, so slow leaks in native parsers cannot pile up
)
GROWN_SHARE = 0.5  # a worker whose data segment passed this share of its limit is replaced
CANCEL_WAIT = 5.0  # seconds to wait for a worker to acknowledge a cancelled job before killing it
ACQUIRE_POLL = 0.25  # seconds between checks of a reader waiting for a worker


class WorkerPool:
    """Up to ``size`` workers, started lazily on first use and reused; thread-safe."""

    def __init__(self, size: int, max_mb: int) -> None:
        self.size = max(1, size)
        self.max_mb = max_mb
        self._idle: list[WorkerProcess] = []
        self._busy: set[WorkerProcess] = set()
        self._starting = 0
        self._started = 0  # workers started so far
        self._jobs = 0  # jobs run so far
        self._warm_size = self.size  # the size ``grow`` asked for, without spares
        self._cond = threading.Condition()
        self._closed = False
        self._pid = os.getpid()  # a forked child must not use (or stop) its parent's workers
        self._cores = usable_cores()
        self._budget = self.size  # the cores a read that names none may use in all
        _live_pools.add(self)

    def grow(self, size: int, *, spare: int = 0) -> None:
        """At least ``size`` workers from now on: a parallel load runs one job per thread, and
        its threads must never wait for each other's workers. Each is forked when a job first
        needs it (a fork of the warm template, milliseconds: forking them all for the first job
        put every fork before its first unit); a load of plain text starts none. ``spare`` more
        may be started when needed (the consumer of a load running a read of its own)."""
        with self._cond:
            self._warm_size = max(self._warm_size, size)
            self.size = max(self.size, self._warm_size + spare)
            self._cond.notify_all()

    def run(
        self,
        job: Job,
        fds: Sequence[int | None] = (),
        root: Callable[[], int] | None = None,
        until: Until | None = None,
        cores: int = 0,
    ) -> Generator[LoadEvent]:
        """Stream the job's files from a worker: each file's units, then its ``FileDone``
        (header, notes) or ``FileFailed`` (index: its place in the job). ``fds[i]`` is the open
        descriptor of ``job.files[i]`` when the host opened it (sent with the job: the worker
        never opens a path); ``root()`` a new descriptor of the workspace root, sent once to
        each worker that opens files under it. ``until()``, checked as units arrive, is a last
        page decided while the job runs (a split): the worker is told, and stops after the first
        unit past it. ``cores``: the read's core budget (its load's workers; 0: the pool's size),
        which the pool's busy workers share for OCR (``_share``).

        Files fail alone. A file whose worker dies (a crash, a kill) is read once more on a
        fresh worker, skipping the units already handed out (units come in a fixed order), so
        nothing is lost or duplicated; a second death is its error. A file past its deadline is
        stopped there (the worker killed). Either way the files after it go on, on a fresh
        worker. (Running out of memory under the limit is a MemoryError in the worker, sent back
        as ResourceLimitError: not retried.)"""
        index, skip, notes, retried = 0, 0, list[str](), False
        while index < len(job.files):
            file = job.files[index]
            rest = dataclasses.replace(job, files=job.files[index:]) if index else job
            try:
                once = self._once(rest, fds[index:], root, skip, until, cores or self._budget)
                with contextlib.closing(once):
                    for event in once:
                        if isinstance(event, FileDone | FileFailed):  # indexes into ``rest``
                            if event.index != index or notes:
                                notes = [*notes, *event.notes]
                                event = dataclasses.replace(event, index=index, notes=notes)
                            yield event
                            index, skip, notes, retried = index + 1, 0, [], False
                        else:
                            skip += 1
                            yield event
            except WorkerDied as died:
                late = bool(file.deadline) and time.monotonic() >= file.deadline
                if not (retried or late or self._closed):
                    notes.append(
                        f"{file.source}: the {file.reader} worker died while reading "
                        f"({died.how}); it was read again on a fresh worker"
                    )
                    retried = True
                    continue
                error = died.error(file.source, file.reader, self.max_mb, retried=retried)
                yield FileFailed(error, index, notes)
                index, skip, notes, retried = index + 1, 0, [], False
            except ExtractionTimeoutError as exc:
                yield FileFailed(exc, index, notes)
                index, skip, notes, retried = index + 1, 0, [], False

    def _once(
        self,
        job: Job,
        fds: Sequence[int | None],
        root: Callable[[], int] | None,
        skip: int,
        until: Until | None,
        cores: int,
    ) -> Generator[LoadEvent]:
        """One worker's pass over ``job``: its units (past the first ``skip``) and an end per
        file (indexes into ``job``), until the job ends or the worker must go. The worker is
        free again before the last file's end is handed out."""
        settings = job.settings
        first = job.files[0]
        worker = self._acquire(
            first.deadline or end_after(settings.global_timeout), first.source, settings
        )
        worker.jobs += 1
        with self._cond:
            self._jobs += 1
        finished = False
        index = 0
        told: int | None = None  # the last page the worker was told
        share = self._share(cores)  # its share of the budget for OCR, told again as it changes
        last: FileEnd | None = None
        ready = select.poll()  # one system call a message (``conn.poll`` builds a selector)
        ready.register(worker.conn.fileno(), select.POLLIN)
        try:
            try:
                if job.opens and job.workspace not in worker.roots:
                    assert root is not None and job.workspace is not None
                    fd = root()
                    try:
                        protocol.send_root(worker.conn, job.workspace, fd)
                    finally:
                        os.close(fd)
                    worker.roots.add(job.workspace)
                # the same files on a retry too
                protocol.send_job(worker.conn, job, [fd for fd in fds if fd is not None], share)
            except (OSError, EOFError, ValueError):  # the idle worker had died
                finished = True
                worker.kill()
                raise WorkerDied(worker.death(), started=False) from None
            deadline = first.deadline or end_after(settings.global_timeout)  # a file's own
            while True:
                file = job.files[min(index, len(job.files) - 1)]
                kind, *rest = self._recv(worker, ready, deadline, file, settings)
                if kind == protocol.UNITS:  # the units made while the socket was busy, in order
                    page = until() if until is not None else None
                    now = self._share(cores)
                    with contextlib.suppress(OSError):  # a dead worker shows at the next recv
                        if page is not None and page != told:
                            told = page
                            worker.conn.send(protocol.until(page))
                        if now != share:
                            share = now
                            worker.conn.send(protocol.share(now))
                    skip = yield from _hand_out(worker, rest[0], skip)
                    continue
                if kind == protocol.FILE_DONE:
                    end: FileEnd = FileDone(index, rest[0], rest[1])
                else:  # FILE_ERROR
                    error, recycle = rest
                    end = FileFailed(error, index)
                    if recycle:
                        finished = True  # the worker breaks off after it: replaced
                        worker.kill()
                        last = end
                        break
                index += 1
                if index == len(job.files):  # the job's end: handed out once the worker is free
                    finished = True
                    last = end
                    break
                yield end
                deadline = job.files[index].deadline or end_after(settings.global_timeout)
        except GeneratorExit:  # the caller stopped reading: ask the worker to drop the rest
            if not finished and not _cancel(worker, len(job.files) - index):
                worker.kill()
            raise
        except BaseException:  # Ctrl-C, a timeout, a crash: the job's state is unknown
            if not finished:
                worker.kill()
            raise
        finally:
            self._release(worker)
        if last is not None:
            yield last

    def stats(self) -> PoolStats:
        """A snapshot of the pool: its running workers, the busy ones, and how many workers it
        started and jobs it ran so far (diagnostics and tests)."""
        with self._cond:
            workers = [*self._idle, *self._busy]
            return PoolStats(
                workers=tuple(w.proc.pid for w in workers if w.alive),
                busy=tuple(w.proc.pid for w in self._busy if w.alive),
                started=self._started,
                jobs=self._jobs,
            )

    def close(self) -> None:
        """Stop every worker; busy ones are killed (their readers get WorkerCrashedError)."""
        with self._cond:
            self._closed = True
            workers = [*self._idle, *self._busy] if self._pid == os.getpid() else []
            self._idle.clear()
            self._cond.notify_all()
        for worker in workers:
            worker.stop()
        _live_pools.discard(self)

    # -- internals --------------------------------------------------------------------------
    def _acquire(self, deadline: float, source: str, settings: Settings) -> WorkerProcess:
        with self._cond:
            if self._pid != os.getpid():  # forked: the inherited workers are the parent's
                self._idle, self._busy, self._starting = [], set(), 0
                self._pid = os.getpid()
            while True:
                if self._closed:
                    raise RuntimeError("the Reader was closed")
                while self._idle:
                    worker = self._idle.pop()
                    if worker.alive:
                        self._busy.add(worker)
                        return worker
                    worker.stop()
                if len(self._busy) + self._starting < self.size:
                    break
                now = time.monotonic()
                remaining = deadline - now
                if remaining <= 0:
                    raise ExtractionTimeoutError(
                        f"{source}: no worker became free within the global timeout of "
                        f"{settings.global_timeout:g} s (all {self.size} are busy); close "
                        f"unfinished iterators or raise isolation.workers",
                        path=source,
                    )
                held = self._held_since()
                bound = settings.isolation.acquire_timeout
                if held is not None and now - held >= bound:
                    raise ExtractionTimeoutError(
                        f"{source}: no worker became free within "
                        f"isolation.acquire_timeout={bound:g} s: all {self.size} are held by "
                        f"unfinished iterators that are not being read; finish or close them, "
                        f"or raise isolation.workers",
                        path=source,
                    )
                self._cond.wait(min(remaining, ACQUIRE_POLL))
            self._starting += 1  # hold the slot while the process starts unlocked
        try:
            worker = WorkerProcess(self.max_mb)
        finally:
            with self._cond:
                self._starting -= 1
                self._cond.notify_all()
        with self._cond:
            self._started += 1
            self._busy.add(worker)
        return worker

    def _share(self, cores: int) -> int:
        """How many images a busy worker OCRs at once: the read's budget of ``cores`` (at most
        the usable ones) shared by the pool's busy workers, at least one. A load of N workers
        uses N cores in all: ``workers=1`` OCRs one image at a time, so a second worker finds an
        idle core (on 2 cores one worker OCRing on both left it none); a worker alone in a load
        of 2 OCRs two."""
        with self._cond:
            return max(1, min(cores, self._cores) // max(1, len(self._busy)))

    def _held_since(self) -> float | None:
        """When every busy worker became held by a reader that is not reading (the latest of
        those moments); None while any worker is working or starting. Under the lock."""
        if self._starting or not self._busy:
            return None
        times = [w.parked for w in self._busy]
        return None if None in times else max(t for t in times if t is not None)

    def _release(self, worker: WorkerProcess) -> None:
        with self._cond:
            self._busy.discard(worker)
            keep = (
                worker.alive
                and not self._closed
                and worker.jobs < MAX_JOBS_PER_WORKER
                and not self._grown(worker)
            )
            if keep:
                self._idle.append(worker)
            self._cond.notify()
        if not keep:
            worker.stop()

    def _grown(self, worker: WorkerProcess) -> bool:
        """Heaps of native parsers (MuPDF, Tesseract, pandas) grow and rarely shrink: a worker that
        holds over half its memory limit after a job is replaced, so the next file does not run
        out of memory because of the files before it."""
        return worker.data_bytes() > self.max_mb * MB * GROWN_SHARE

    def _recv(
        self,
        worker: WorkerProcess,
        ready: select.poll,
        deadline: float,
        file: JobFile,
        settings: Settings,
    ) -> Message:
        """The worker's next message (``ready`` polls its socket), or the file's timeout."""
        source, name = file.source, file.reader
        remaining = deadline + KILL_GRACE - time.monotonic()
        try:
            if remaining > 0 and ready.poll(remaining * 1000):
                return worker.conn.recv()  # type: ignore[no-any-return]
        except (EOFError, OSError):
            raise WorkerDied(worker.death()) from None
        worker.kill()
        raise ExtractionTimeoutError(
            f"{source}: reading took longer than the global timeout of "
            f"{settings.global_timeout:g} s and the {name} worker was stopped; read a smaller "
            f'window (pages="1-10", rows="head:100") or raise global_timeout',
            path=source,
        )


@dataclasses.dataclass(frozen=True, slots=True)
class PoolStats:
    """``WorkerPool.stats``: pids of the running and of the busy workers, workers started and
    jobs run since the pool began."""

    workers: tuple[int, ...] = ()
    busy: tuple[int, ...] = ()
    started: int = 0
    jobs: int = 0


def _hand_out(worker: WorkerProcess, units: list[Unit], skip: int) -> Generator[Unit, None, int]:
    """``units`` past the first ``skip`` (handed out by the attempt before), the worker marked
    parked while the consumer holds each; the skip still left."""
    for unit in units:
        if skip:
            skip -= 1
            continue
        worker.parked = time.monotonic()
        try:
            yield unit
        finally:
            worker.parked = None
    return skip


def _cancel(worker: WorkerProcess, left: int) -> bool:
    """Tell the worker to drop the rest of a job the caller stopped reading (``left``: its files
    whose end has not come); True once it obeyed, or had finished them."""
    try:
        worker.conn.send(protocol.cancel())
        deadline = end_after(CANCEL_WAIT)
        while worker.conn.poll(max(deadline - time.monotonic(), 0)):
            kind = worker.conn.recv()[0]
            left -= kind in (protocol.FILE_DONE, protocol.FILE_ERROR)
            if kind == protocol.DONE or not left:
                return True
    except (EOFError, OSError):
        pass
    return False


_live_pools: weakref.WeakSet[WorkerPool] = weakref.WeakSet()
_shared: dict[tuple[int, int], WorkerPool] = {}
_shared_lock = threading.Lock()


def pool_size(settings: Settings) -> int:
    """Workers per pool: ``isolation.workers``, or one per usable CPU when it is 0."""
    return settings.isolation.workers or usable_cores()


def usable_cores() -> int:
    """The CPUs this process may run on (what ``ocr.workers`` counts)."""
    from ..extractors.ocr import workers

    return workers()


def shared_pool(settings: Settings) -> WorkerPool:
    """One process-wide pool per (size, memory limit), for the module-level ``docread.read``."""
    key = (pool_size(settings), settings.memory.max_worker_mb)
    with _shared_lock:
        pool = _shared.get(key)
        if pool is None or pool._closed:
            pool = _shared[key] = WorkerPool(*key)
        return pool


@atexit.register
def _close_all() -> None:
    for pool in list(_live_pools):
        pool.close()
    close_template()
