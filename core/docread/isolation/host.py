"""The host's side of reading one file, what a read and a load share: the file opened in the
workspace, then its units from the result cache, from a worker job (the pool, started on first
use) or from this process, kept for the cache as they pass."""

from __future__ import annotations

import contextlib
import threading
import weakref
from collections.abc import Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING

from ..cache.store import PendingEntry, ResultCache
from ..formats import BY_KEY
from ..pipeline import Pipeline, extractor_of
from .events import FileDone, FileFailed, Until
from .pool import WorkerPool, pool_size, shared_pool
from .processes import drop_prestarted, warm_template
from .protocol import Job, JobFile

if TYPE_CHECKING:
    from ..extractors.base import Context, Extractor
    from ..model import FileInfo, Unit
    from ..request.options import ReadOptions
    from ..settings import Settings
    from ..source import Source
    from ..workspace import Workspace


@dataclass(frozen=True, slots=True)
class Stats:
    """``Reader.stats()``: files this host opened and read so far (a batch's small files are
    opened by their worker: not counted) and how many of them the result cache served; the
    worker pool's running and busy workers (pids), workers started and jobs run (a shared pool
    counts every Reader's)."""

    reads: int = 0
    cached: int = 0
    workers: tuple[int, ...] = ()
    busy: tuple[int, ...] = ()
    started: int = 0
    jobs: int = 0


class Host:
    """One Reader's way to a file's units (thread-safe): the workspace, the pipeline, the result
    cache and the worker pool (its own, or the process-wide one: ``shared``)."""

    def __init__(self, settings: Settings, workspace: Workspace, *, shared: bool) -> None:
        self.settings = settings
        self.workspace = workspace
        self.pipeline = Pipeline(settings)
        self.cache = ResultCache(settings.cache) if settings.cache.enabled else None
        self._shared = shared
        self._pool: WorkerPool | None = None
        self._lock = threading.Lock()
        self._reads = self._cached = 0
        if settings.isolation.enabled:  # its imports overlap this Reader's first open and lookup
            warm_template()
        else:
            drop_prestarted()

    def open(self, opts: ReadOptions) -> tuple[Source, FileInfo]:
        """Open the file once, inside the workspace; everything after reads that descriptor."""
        return self.pipeline.open(self.workspace, opts)

    def context(self, info: FileInfo, opts: ReadOptions, *, loader: bool) -> Context:
        """A new read's Context (its global deadline starts now)."""
        return self.pipeline.context(info, opts, loader=loader, workspace=self.workspace.root)

    def units(
        self,
        source: Source,
        info: FileInfo,
        ctx: Context,
        *,
        until: Until | None = None,
        entry: PendingEntry | None = None,
        cores: int = 0,
    ) -> tuple[Iterator[Unit], bool]:
        """The units from the cache, or from the extractor (in a worker when it is isolated);
        True when cached. A read not served from the cache is stored once it completes, unless
        ``entry`` is given: it gets the key, and its consumer stores the file (a parallel load's,
        once every part of a split PDF came). ``until`` and ``cores``: see ``WorkerPool.run``."""
        ext = extractor_of(info)
        key = self.cache.key(source, ctx, ext) if self.cache is not None else None
        hit = self.cache.get(key) if key is not None and self.cache is not None else None
        with self._lock:
            self._reads += 1
            self._cached += hit is not None
        if hit is not None:
            ctx.header.update(hit.header)
            ctx.notes.extend(n for n in hit.notes if n not in ctx.notes)
            return iter(hit.units), True
        if ext.isolated and self.settings.isolation.enabled:
            units = self._isolated(source, info, ctx, ext, until, cores)
        else:
            units = self.pipeline.units(source, info, ctx, ext_cls=ext)
        if entry is not None:
            entry.key = key
        elif key is not None:
            units = self._storing(units, PendingEntry(key), ctx)
        return units, False

    def load(
        self,
        opts: ReadOptions,
        *,
        until: Until | None = None,
        entry: PendingEntry | None = None,
        cores: int = 0,
    ) -> Iterator[Unit | FileDone]:
        """One file in loader mode: its units, then its ``FileDone`` (header, notes); a failure
        is raised. ``until``, ``entry`` and ``cores``: see ``units``."""
        source, info = self.open(opts)
        ctx = self.context(info, opts, loader=True)
        with source:
            yield from self.units(source, info, ctx, until=until, entry=entry, cores=cores)[0]
        yield FileDone(0, ctx.header, ctx.notes)

    def pool(self) -> WorkerPool:
        """The worker pool, started on first use."""
        with self._lock:
            if self._pool is None:
                if self._shared:
                    self._pool = shared_pool(self.settings)
                else:
                    self._pool = WorkerPool(
                        pool_size(self.settings), self.settings.memory.max_worker_mb
                    )
                    weakref.finalize(self, self._pool.close)  # a Reader dropped unclosed
            return self._pool

    def stats(self) -> Stats:
        """A snapshot of the counters (``Stats``)."""
        with self._lock:
            pool, reads, cached = self._pool, self._reads, self._cached
        if pool is None:
            return Stats(reads, cached)
        now = pool.stats()
        return Stats(reads, cached, now.workers, now.busy, now.started, now.jobs)

    def close(self) -> None:
        """Stop the worker pool (a shared one stays up) and close the cache."""
        with self._lock:
            pool, self._pool = self._pool, None
        if pool is not None and not self._shared:
            pool.close()
        if self.cache is not None:
            self.cache.close()

    def _isolated(
        self,
        source: Source,
        info: FileInfo,
        ctx: Context,
        ext: type[Extractor],
        until: Until | None,
        cores: int,
    ) -> Iterator[Unit]:
        """The file's units from a worker: a job of one file, its open descriptor sent with it;
        its end goes to ``ctx`` (header, notes) or is raised."""
        file = JobFile(
            ctx.options, info.source, ext.name, info=info, extractor=BY_KEY[info.format].extractor,
            path=str(source.path or ""), deadline=ctx.deadline,
        )  # fmt: skip
        job = Job((file,), self.settings, ctx.loader, ctx.workspace)
        run = self.pool().run(job, (source.handoff(),), until=until, cores=cores)
        with contextlib.closing(run):  # closed early: the worker's job is cancelled
            for event in run:
                if isinstance(event, FileDone | FileFailed):
                    ctx.notes.extend(n for n in event.notes if n not in ctx.notes)
                    if isinstance(event, FileFailed):
                        raise event.error
                    ctx.header.update(event.header)
                else:
                    yield event

    def _storing(self, units: Iterator[Unit], entry: PendingEntry, ctx: Context) -> Iterator[Unit]:
        """Pass units through, keeping them for the cache; stored only when the read completes."""
        for unit in units:
            entry.keep(unit)
            yield unit
        if self.cache is not None:
            entry.store(self.cache, ctx.header, ctx.notes)
