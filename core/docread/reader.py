"""Reader: the pipeline (resolve -> detect -> admit -> cache -> extract -> sanitize -> result).

Extraction runs in-process (``pipeline.Pipeline``) or in a worker process (``pool`` hosts,
``worker`` runs the same Pipeline); the cache and the read log sit in front of both.
"""

from __future__ import annotations

import asyncio
import os
import threading
import weakref
from collections.abc import Callable, Iterator
from pathlib import PurePath
from typing import Any

from .cache.readlog import UNCHANGED, ReadLog
from .cache.store import MAX_ENTRY_BYTES, Entry, ResultCache, cache_key, entry_size
from .detect import detect, directory_info
from .errors import (
    ReadDocumentError,
    logger,
)
from .extractors.base import Context
from .formats import BY_KEY
from .isolation.pool import WorkerPool, pool_size, shared_pool
from .isolation.worker import Job
from .model import Document, FileInfo, Unit
from .pipeline import Pipeline, extractor_of
from .request.options import ReadOptions
from .result import ReadResult
from .settings import Settings
from .source import Source
from .workspace import Workspace, walk_files

ErrorHandler = Callable[[str, ReadDocumentError], None]
NoteHandler = Callable[[str, str], None]


class Reader:
    """Reads files inside one workspace with one Settings; safe to share across threads.

    Heavy extractors run in a pool of worker processes (started on first use, stopped by
    ``close``); cacheable results go to the disk cache; ``read`` returns a short stub for a file
    it already returned unchanged with the same options (``dedupe=False`` to re-read).
    """

    def __init__(
        self,
        workspace: str | os.PathLike[str] | None = None,
        config: str | os.PathLike[str] | Settings | dict[str, Any] | None = None,
        *,
        shared_pool: bool = False,
    ) -> None:
        self.settings = Settings.load(config)
        self.workspace = Workspace(workspace, alias=self.settings.workspace.alias)
        self._pipeline = Pipeline(self.settings)
        self._shared_pool = shared_pool
        self._pool: WorkerPool | None = None
        self._pool_lock = threading.Lock()
        self.cache = ResultCache(self.settings.cache) if self.settings.cache.enabled else None
        self._read_log = ReadLog()

    # -- public API -------------------------------------------------------------------------
    def read(
        self, file_path: str | os.PathLike[str], *, dedupe: bool = True, **options: Any
    ) -> ReadResult:
        """The agent view's read: the requested window of one file (or a directory listing)."""
        opts = ReadOptions.from_kwargs(os.fspath(file_path), **options)
        source, info = self._open(opts)
        ctx = self._pipeline.context(info, opts, loader=False, workspace=self.workspace.root)
        result = ReadResult(
            file=info, header=ctx.header, notes=ctx.notes,
            output_format=opts.output_format, settings=self.settings,
        )  # fmt: skip
        with source:
            pure = not info.is_dir and opts.mode != "extract"  # extraction writes files: always run
            seen = _read_key(source, info, opts) if dedupe and pure else None
            if seen is not None and self._read_log.unchanged(*seen):
                return _unchanged(info, opts, self.settings)
            units, result.cached = self._produce(source, info, ctx)
            for unit in units:
                (result.documents if isinstance(unit, Document) else result.media).append(unit)  # type: ignore[arg-type]
        if seen is not None:
            self._read_log.remember(*seen)
        return result

    async def aread(self, file_path: str | os.PathLike[str], **options: Any) -> ReadResult:
        """``read`` in a worker thread, so the event loop is never blocked."""
        return await asyncio.to_thread(self.read, file_path, **options)

    def iter_units(
        self,
        file_path: str | os.PathLike[str],
        *,
        on_error: ErrorHandler | None = None,
        on_note: NoteHandler | None = None,
        **options: Any,
    ) -> Iterator[Unit]:
        """Loader mode: every unit of a file, or of every file under a directory, as produced.

        In a directory a file that fails is passed to ``on_error(path, error)`` (errors are also
        logged on the ``docread`` logger) and the walk goes on. A file's notes (a skipped archive
        member, an OCR limit) go to ``on_note(path, note)`` once its units are out; by default
        they are logged as warnings on the ``docread`` logger.
        """
        opts = ReadOptions.from_kwargs(os.fspath(file_path), **options)
        resolved = self.workspace.resolve(opts.file_path)
        if resolved.is_dir():
            for child in self.walk(opts.file_path, pattern=opts.pattern):
                try:
                    yield from self.iter_units(
                        child, on_note=on_note, **_without(options, "pattern")
                    )
                except ReadDocumentError as exc:
                    if on_error is not None:
                        on_error(child, exc)
            return
        source, info = self._open(opts)
        ctx = self._pipeline.context(info, opts, loader=True, workspace=self.workspace.root)
        with source:
            yield from self._produce(source, info, ctx)[0]
        for note in ctx.notes:
            (on_note or _log_note)(opts.file_path, note)

    def iter_bytes(
        self, data: bytes, name: str, *, on_note: NoteHandler | None = None, **options: Any
    ) -> Iterator[Unit]:
        """Loader mode over bytes in memory (an upload, a blob): ``name`` is the ``source`` the
        units carry and its extension helps detection; isolated readers get a private temp copy."""
        opts = ReadOptions.from_kwargs(name, **options)
        source = Source.from_bytes(data, PurePath(name).name or "data")
        info = detect(source, hint=opts.format_hint, shown=name)
        self._pipeline.admit(info)
        ctx = self._pipeline.context(info, opts, loader=True, workspace=self.workspace.root)
        with source:
            if extractor_of(info).isolated and self.settings.isolation.enabled:
                source.as_path()  # workers open files; the copy goes when the source closes
            yield from self._produce(source, info, ctx)[0]
        for note in ctx.notes:
            (on_note or _log_note)(name, note)

    def iter_documents(
        self, file_path: str | os.PathLike[str], **options: Any
    ) -> Iterator[Document]:
        """Loader mode, Documents only (Media parts are in ``iter_units``)."""
        for unit in self.iter_units(file_path, **options):
            if isinstance(unit, Document):
                yield unit

    def walk(
        self,
        directory: str | os.PathLike[str],
        *,
        pattern: str | None = None,
        recursive: bool = True,
    ) -> Iterator[str]:
        """Files under a directory (sorted, hidden folders skipped) matching a glob; one level only
        when ``recursive`` is False. Paths come back as the caller would pass them (workspace-relative).
        """
        root = self.workspace.resolve(directory)
        for full in walk_files(root, pattern, recursive=recursive):
            yield self.workspace.relative(full)

    def forget(self) -> None:
        """Forget what ``read`` returned, so the next reads return full results again."""
        self._read_log.clear()

    def close(self) -> None:
        """Stop this Reader's worker processes and close the cache (a shared pool stays up)."""
        with self._pool_lock:
            pool, self._pool = self._pool, None
        if pool is not None and not self._shared_pool:
            pool.close()
        if self.cache is not None:
            self.cache.close()

    def __enter__(self) -> Reader:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- pipeline ---------------------------------------------------------------------------
    def _open(self, opts: ReadOptions) -> tuple[Source, FileInfo]:
        path = self.workspace.resolve(opts.file_path)
        if path.is_dir():
            return Source.from_path(path), directory_info(path, opts.file_path)
        source = Source.from_path(path)
        info = detect(source, hint=opts.format_hint, shown=opts.file_path)
        self._pipeline.admit(info)
        return source, info

    def _produce(self, source: Source, info: FileInfo, ctx: Context) -> tuple[Iterator[Unit], bool]:
        """The units from the cache, or from the extractor (isolated or not); True when cached."""
        ext = extractor_of(info)
        key = cache_key(source, ctx, ext) if self.cache is not None else None
        if key is not None and self.cache is not None:
            entry = self.cache.get(key)
            if entry is not None:
                ctx.header.update(entry.header)
                ctx.notes.extend(n for n in entry.notes if n not in ctx.notes)
                return iter(entry.units), True
        if ext.isolated and self.settings.isolation.enabled and source.path is not None:
            job = Job(
                extractor=BY_KEY[info.format].extractor, path=str(source.path), info=info,
                options=ctx.options, settings=self.settings, loader=ctx.loader,
                workspace=ctx.workspace, deadline=ctx.deadline,
            )  # fmt: skip
            units = self._worker_pool().run(job, ctx, ext.name)
        else:
            units = self._pipeline.units(source, info, ctx, ext_cls=ext)
        return (self._storing(units, key, ctx) if key is not None else units), False

    def _storing(self, units: Iterator[Unit], key: str, ctx: Context) -> Iterator[Unit]:
        """Pass units through, keeping them for the cache; stored only when the read completes."""
        kept: list[Unit] | None = []
        size = 0
        for unit in units:
            if kept is not None:
                size += entry_size(unit)
                kept = kept if size <= MAX_ENTRY_BYTES else None
                if kept is not None:
                    kept.append(unit)
            yield unit
        if kept is not None and self.cache is not None:
            self.cache.put(key, Entry(kept, dict(ctx.header), list(ctx.notes)))

    def _worker_pool(self) -> WorkerPool:
        with self._pool_lock:
            if self._pool is None:
                if self._shared_pool:
                    self._pool = shared_pool(self.settings)
                else:
                    self._pool = WorkerPool(
                        pool_size(self.settings), self.settings.memory.max_worker_mb
                    )
                    weakref.finalize(self, self._pool.close)  # a Reader dropped unclosed
            return self._pool


def _read_key(
    source: Source, info: FileInfo, opts: ReadOptions
) -> tuple[tuple[str, str], tuple[int, int]] | None:
    """(file, options) and (mtime_ns, size): what the read log compares."""
    if source.path is None:
        return None
    st = os.stat(source.path)
    return (info.path, repr(opts.replace(file_path=""))), (st.st_mtime_ns, st.st_size)


def _unchanged(info: FileInfo, opts: ReadOptions, settings: Settings) -> ReadResult:
    """The dedup stub: one short Document instead of the same content again."""
    meta = {"source": info.source, "file_path": info.path, "format": "unchanged"}  # plain render
    doc = Document(UNCHANGED, meta)
    return ReadResult(
        file=info, documents=[doc], output_format=opts.output_format, settings=settings
    )


def _log_note(path: str, note: str) -> None:
    logger.warning("%s: %s", path, note)


def _without(options: dict[str, Any], *names: str) -> dict[str, Any]:
    return {k: v for k, v in options.items() if k not in names}
