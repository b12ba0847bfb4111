"""Reader: the pipeline (resolve -> detect -> admit -> cache -> extract -> sanitize -> result).

Extraction runs in-process (``pipeline.Pipeline``) or in a worker process (``pool`` hosts,
``worker`` runs the same Pipeline); the cache and the read log sit in front of both.
"""

from __future__ import annotations

import asyncio
import dataclasses
import logging
import os
import sys
import threading
import time
import weakref
from collections import deque
from collections.abc import Callable, Iterable, Iterator
from itertools import chain
from pathlib import Path, PurePath
from typing import Any, Literal, TypeVar, get_args

from .cache.readlog import UNCHANGED, ReadLog
from .cache.stamp import content_stamp
from .cache.store import MAX_ENTRY_BYTES, Entry, ResultCache, cache_key, entry_size
from .detect import detect
from .errors import (
    ExtractionTimeoutError,
    InvalidOptionError,
    ReadDocumentError,
    log_handled,
    logger,
)
from .extractors.base import Context, extractor_class
from .formats import BY_KEY, by_extension
from .isolation.pool import FileEnd, Until, WorkerPool, pool_size, shared_pool
from .isolation.protocol import Batch, Job
from .isolation.schedule import Event, Fanout, Local, Mark
from .model import Document, FileInfo, Unit
from .pipeline import Pipeline, extractor_of
from .request.options import ReadOptions
from .result import ReadResult
from .settings import Settings
from .source import Source, clean_name
from .workspace import Workspace, walk_files

PathArg = str | os.PathLike[str]
_T = TypeVar("_T")
LOCAL_AHEAD = 64  # files looked ahead for one that needs a worker before a load fans out
BATCH_FILES = 32  # small files read by one worker job at most
BATCH_BYTES = 1 << 20  # ... and their sizes together
BATCH_SMALL = 256 << 10  # a file above this size is read by a job of its own
ErrorHandler = Callable[[str, ReadDocumentError], None]
#: What a loader does with a file that fails, by name (the wrappers' ``on_error=``): "raise" it,
#: "warn" (a warning on the ``docread`` logger, the load goes on) or "skip" (logged at info level)
ErrorPolicy = Literal["raise", "warn", "skip"]
OnError = ErrorHandler | ErrorPolicy | None
NoteHandler = Callable[[str, str], None]
UnitHandler = Callable[[Unit], None]


class Reader:
    """Reads files inside one workspace with one Settings; safe to share across threads.

    Heavy extractors run in a pool of worker processes (started on first use, stopped by
    ``close``); cacheable results go to the disk cache. ``read(dedupe=True)`` (what agent tools
    ask for) returns a short stub for a file it already returned unchanged with the same options.
    """

    def __init__(
        self,
        workspace: str | os.PathLike[str] | None = None,
        config: str | os.PathLike[str] | Settings | dict[str, Any] | None = None,
        *,
        shared_pool: bool = False,
    ) -> None:
        self.settings = Settings.load(config)
        self.workspace = Workspace(
            workspace,
            alias=self.settings.workspace.alias,
            allow_hardlinks=self.settings.workspace.allow_hardlinks,
        )
        self._pipeline = Pipeline(self.settings)
        self._shared_pool = shared_pool
        self._pool: WorkerPool | None = None
        self._pool_lock = threading.Lock()
        self.cache = ResultCache(self.settings.cache) if self.settings.cache.enabled else None
        self._read_log = ReadLog()

    # -- public API -------------------------------------------------------------------------
    def read(
        self,
        file_path: str | os.PathLike[str],
        *,
        dedupe: bool = False,
        on_unit: UnitHandler | None = None,
        **options: Any,
    ) -> ReadResult:
        """The agent view's read: the requested window of one file (or a directory listing).

        ``dedupe=True`` (what agent tools ask for) answers a repeat of an earlier read of the
        unchanged file with a short stub. ``on_unit(unit)`` is called as each unit arrives
        (progress reports); when it raises, the read stops there: the unit stream is closed, which
        cancels a worker's job, and the exception propagates."""
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
            try:
                for unit in units:
                    (result.documents if isinstance(unit, Document) else result.media).append(unit)  # type: ignore[arg-type]
                    if on_unit is not None:
                        on_unit(unit)
            finally:
                close = getattr(units, "close", None)
                if close is not None:
                    close()  # a generator stopped early: its worker job is cancelled
        if seen is not None:
            self._read_log.remember(*seen)
        return result

    async def aread(self, file_path: str | os.PathLike[str], **options: Any) -> ReadResult:
        """``read`` in a worker thread, so the event loop is never blocked."""
        return await asyncio.to_thread(self.read, file_path, **options)

    def iter_units(
        self,
        paths: PathArg | Iterable[PathArg],
        *,
        pattern: str | None = None,
        recursive: bool = True,
        on_error: OnError = None,
        on_note: NoteHandler | None = None,
        workers: int | None = None,
        ordered: bool = True,
        show_progress: bool | None = False,
        progress_label: str = "docread",
        **options: Any,
    ) -> Iterator[Unit]:
        """Loader mode: every unit of each file in ``paths`` (one path or many), and of every file
        under each folder in it (``walk``: sorted, hidden folders skipped, ``pattern`` a glob
        relative to the folder, one level when not ``recursive``), streamed as produced.

        Paths resolve in this Reader's workspace. Without one given, the loaders (the module's
        ``docread.iter_units``, LangChain's and LlamaIndex's) take it from ``loader_workspace``:
        the current directory when every path lies inside it, else the filesystem root.
        A file that fails goes to ``on_error(path, error)`` and the load goes on (the handler
        raises to stop it); ``on_error`` may also name a policy: "raise" (every failure raises),
        "warn" (each is logged as a warning on the ``docread`` logger and skipped) or "skip"
        (logged at info level and skipped). Without it (None) a path you named raises, and a
        file found in a folder is logged once (a warning on the ``docread`` logger) and skipped:
        its error never costs the other files their units. A file's notes
        (a skipped archive member, an OCR limit) go to ``on_note(path, note)`` once its units are
        out, by default as warnings on the ``docread`` logger. ``pattern`` on a named file is the
        read option (archive members).

        ``workers`` files are read at once, each in a worker process (default
        ``isolation.workers``: one per CPU; 1 reads one file at a time from this thread as before),
        and a big PDF is read in page ranges by idle workers; files read in-process (plain text,
        markdown) stay in this thread until one that needs a worker is near. Units come in walk
        order, the same units and ids as ``workers=1`` (a few files read ahead, bounded), or as
        each is ready with ``ordered=False``. Handlers run in the caller's thread.
        ``show_progress`` puts a tqdm bar over the files on stderr when there are several (None:
        when stderr is a terminal), labelled ``progress_label``; the files are listed first, to
        count them.
        """
        opts = ReadOptions.from_kwargs("", pattern=pattern, **options)  # fails before any file
        check_on_error(on_error)
        if workers is not None and workers < 0:
            raise InvalidOptionError(f"workers={workers}: must be 0 (one per CPU) or more")
        count = workers or pool_size(self.settings)
        found: Iterable[tuple[str, bool, ReadDocumentError | None]]
        found = self._expand(paths, pattern, recursive)
        if show_progress or (show_progress is None and sys.stderr.isatty()):
            found = _progress(list(found), progress_label)
        loads = (
            _FileLoad(path, named, opts.replace(file_path=path, pattern=pattern if named else None), error)
            for path, named, error in found
        )  # fmt: skip
        if count <= 1:
            for load in loads:
                yield from self._load_one(load, on_error, on_note)
            return
        # Files read in this process (plain text, markdown) gain nothing from threads (the GIL)
        # and lose a hand-over each: they are read here, one after another, until a file that
        # needs a worker shows up within the next LOCAL_AHEAD; from there the load fans out.
        ahead: deque[_FileLoad] = deque()
        for load in loads:
            ahead.append(load)
            if not _in_process(load.path):
                yield from self._fan_out(chain(ahead, loads), count, ordered, on_error, on_note)
                return
            if len(ahead) > LOCAL_AHEAD:
                yield from self._load_one(ahead.popleft(), on_error, on_note)
        for load in ahead:
            yield from self._load_one(load, on_error, on_note)

    def files(
        self,
        paths: PathArg | Iterable[PathArg],
        *,
        pattern: str | None = None,
        recursive: bool = True,
        on_error: OnError = None,
    ) -> Iterator[str]:
        """The files ``iter_units`` reads for these arguments, in order (to count them first)."""
        for path, named, error in self._expand(paths, pattern, recursive):
            if error is None:
                yield path
            else:
                _failed(path, error, named, on_error)

    def iter_bytes(
        self, data: bytes, name: str, *, on_note: NoteHandler | None = None, **options: Any
    ) -> Iterator[Unit]:
        """Loader mode over bytes in memory (an upload, a blob): ``name`` is the ``source`` the
        units carry and its extension helps detection; it never names a file on disk (only a
        safe base name of it does). Isolated readers get the bytes in their worker."""
        name = clean_name(name) or "data"
        opts = ReadOptions.from_kwargs(name, **options)
        source = Source.from_bytes(data, name)
        with source:
            info = detect(source, hint=opts.format_hint, shown=name)
            self._pipeline.admit(info)
            ctx = self._pipeline.context(info, opts, loader=True, workspace=self.workspace.root)
            yield from self._produce(source, info, ctx)[0]
        for note in ctx.notes:
            (on_note or _log_note)(name, note)

    def iter_documents(
        self, paths: PathArg | Iterable[PathArg], **options: Any
    ) -> Iterator[Document]:
        """Loader mode, Documents only (Media parts are in ``iter_units``, same arguments)."""
        for unit in self.iter_units(paths, **options):
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
        when ``recursive`` is False. Paths come back under ``directory`` as given, so they show
        and resolve as the caller named them. Listing longer than ``global_timeout`` (the caller's
        time between files not counted) raises ExtractionTimeoutError: a huge tree cannot hang.
        """
        opened = self.workspace.open(directory)  # walked on its descriptor: never looked up again
        root = opened.path
        given = PurePath(os.fspath(directory))
        limit = self.settings.global_timeout
        spent, resumed = 0.0, time.monotonic()

        def check() -> None:
            if spent + time.monotonic() - resumed > limit:
                raise ExtractionTimeoutError(
                    f"{directory}: listing the folder took longer than the global timeout of "
                    f"{limit:g} s; name a smaller folder, a pattern, or raise global_timeout",
                    path=os.fspath(directory),
                )

        try:
            for full in walk_files(
                root, pattern, recursive=recursive, check=check, dir_fd=opened.fd
            ):
                spent += time.monotonic() - resumed
                yield str(given / full.relative_to(root).as_posix())
                resumed = time.monotonic()
        finally:
            os.close(opened.fd)

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
    def _expand(
        self, paths: PathArg | Iterable[PathArg], pattern: str | None, recursive: bool
    ) -> Iterator[tuple[str, bool, ReadDocumentError | None]]:
        """(file, named by the caller, None) for each path, folders walked; a path that cannot
        be resolved or listed comes as (path, True, its error): a failed file."""
        for raw in _each(paths):
            path = os.fspath(raw)
            try:
                if not self.workspace.resolve(path).is_dir():
                    yield path, True, None
                    continue
                for child in self.walk(path, pattern=pattern, recursive=recursive):
                    yield child, False, None
            except ReadDocumentError as exc:
                yield path, True, exc

    def _fan_out(
        self,
        loads: Iterator[_FileLoad],
        workers: int,
        ordered: bool,
        on_error: OnError,
        on_note: NoteHandler | None,
    ) -> Iterator[Unit]:
        """``iter_units`` over ``workers`` threads (``isolation.schedule``), each driving one
        worker job (isolated formats) or handing an in-process read (plain text, markdown) to
        the caller's thread (``Local``); errors and notes are handled here, in the caller's
        thread, in order."""
        if self.settings.isolation.enabled:  # spare: a Local read may turn out a PDF
            self._worker_pool().grow(workers, spare=1)
        fanout = Fanout(
            self._batched(loads), self._load_part, workers=workers, ordered=ordered,
            part=_page_range, size=self._size_hint,
        )  # fmt: skip
        for load, event in fanout:
            if isinstance(load, _BatchLoad):
                yield from load.handle(event, on_error, on_note)
            elif isinstance(event, ReadDocumentError):
                if not load.failed:  # one report per file, however many of its parts failed
                    load.failed = True
                    _failed(load.path, event, load.named, on_error)
            elif isinstance(event, BaseException):
                raise event
            elif event is None:
                for note in load.notes:
                    (on_note or _log_note)(load.path, note)
                self._store_whole(load)
            elif not isinstance(event, Mark):  # a single file's read yields no marks
                if self.cache is not None:
                    load.whole.keep(event)
                yield event

    def _store_whole(self, load: _FileLoad) -> None:
        """A file whose reads (one, or the parts of a split PDF) all came without an error: its
        units stored under the whole file's key."""
        whole = load.whole
        if self.cache is not None and whole.key and whole.units is not None and not load.failed:
            self.cache.put(whole.key, Entry(whole.units, dict(whole.header), list(load.notes)))
        whole.units = None

    def _size_hint(self, load: _FileLoad | _BatchLoad) -> int:
        """The file's size, to start big files first (0 when unknown): a hint that orders
        starts, read from the name without following a link (the read opens it by the rules)."""
        if isinstance(load, _BatchLoad):
            return sum(self._size_hint(member) for member in load.members)
        if load.size < 0:
            try:
                load.size = os.stat(self.workspace.root / load.path, follow_symlinks=False).st_size
            except (OSError, ValueError):
                load.size = 0
        return load.size

    def _batched(self, loads: Iterable[_FileLoad]) -> Iterator[_FileLoad | _BatchLoad]:
        """The loads, runs of small files grouped into batches (at most BATCH_FILES files,
        BATCH_BYTES bytes) that a worker opens and reads one after another: the host neither
        opens nor detects them, and one worker round trip serves them all. A batch starts at a
        file that needs a worker; plain text and markdown join it (read in the worker, they
        keep the batch whole where a mixed folder alternates kinds). Not with the cache on (the
        host reads each file to find its entry), nor for PDFs (split by pages)."""
        group: list[_FileLoad] = []
        names: list[tuple[str, str]] = []
        for load in loads:
            name = self._batch_name(load, joining=bool(group))
            if name is not None:
                group.append(load)
                names.append(name)
                if len(group) < BATCH_FILES and sum(m.size for m in group) < BATCH_BYTES:
                    continue
            if len(group) > 1:
                yield _BatchLoad(group, names)
            else:
                yield from group
            group, names = [], []
            if name is None:
                yield load
        if len(group) > 1:
            yield _BatchLoad(group, names)
        else:
            yield from group

    def _batch_name(self, load: _FileLoad, *, joining: bool) -> tuple[str, str] | None:
        """(shown name, extractor name) of a file that may start a batch (or, ``joining``, be
        added to one), else None."""
        if self.cache is not None or not self.settings.isolation.enabled or load.error is not None:
            return None
        named = by_extension(load.path)
        if named is None or named.key == "pdf":
            return None
        ext = extractor_class(named.extractor)
        if not (ext.isolated or joining) or self._size_hint(load) > BATCH_SMALL:
            return None
        try:
            return self.workspace.shown(load.path), ext.name
        except ReadDocumentError:
            return None

    def _load_one(
        self, load: _FileLoad, on_error: OnError, on_note: NoteHandler | None
    ) -> Iterator[Unit]:
        """One file of a load read in this thread; its failure handled as every load's."""
        try:
            if load.error is not None:
                raise load.error
            yield from self._load(load.opts, on_note)
        except ReadDocumentError as exc:
            _failed(load.path, exc, load.named, on_error)

    def _load_part(
        self, load: _FileLoad | _BatchLoad, until: Until
    ) -> Iterator[Unit | Mark] | Local:
        """One read of a parallel load (a file, or a page range of it, ending at ``until()``
        once a split sets it); its notes are kept. A file whose name says an in-process format
        (plain text, markdown) is left to the consumer's thread (``Local``): threads of one
        interpreter gain nothing on it, and handing its units over cost 2,000 small files
        2.3x the time of the one-thread loop. A batch is one worker's (``WorkerPool.run_batch``)."""
        if isinstance(load, _BatchLoad):
            batch = Batch(
                files=tuple(m.opts for m in load.members), settings=self.settings,
                workspace=self.workspace.root,
            )  # fmt: skip
            pool = self._worker_pool()
            return pool.run_batch(batch, load.names, self.workspace.root_descriptor)
        if load.error is not None:
            raise load.error

        def keep(_path: str, note: str) -> None:
            if note not in load.notes:
                load.notes.append(note)

        whole = load.whole if load.opts.pages is None else None
        units = self._load(load.opts, keep, until, whole)
        return Local(units) if _in_process(load.path) else units

    def _load(
        self,
        opts: ReadOptions,
        on_note: NoteHandler | None,
        until: Until | None = None,
        whole: _Whole | None = None,
    ) -> Iterator[Unit]:
        """Loader mode over one file, then its notes (``until``: see ``WorkerPool.run``;
        ``whole``: where a parallel read leaves its cache key; its consumer stores it)."""
        source, info = self._open(opts)
        ctx = self._pipeline.context(info, opts, loader=True, workspace=self.workspace.root)
        with source:
            yield from self._produce(source, info, ctx, until, whole)[0]
        for note in ctx.notes:
            (on_note or _log_note)(opts.file_path, note)

    def _open(self, opts: ReadOptions) -> tuple[Source, FileInfo]:
        """Open the file once, inside the workspace; everything after reads that descriptor."""
        return self._pipeline.open(self.workspace, opts)

    def _produce(
        self,
        source: Source,
        info: FileInfo,
        ctx: Context,
        until: Until | None = None,
        whole: _Whole | None = None,
    ) -> tuple[Iterator[Unit], bool]:
        """The units from the cache, or from the extractor (isolated or not); True when cached.
        ``whole`` gets the key and header of a read that is not served from the cache, and the
        storing: a parallel read's consumer stores the file once all its parts came."""
        ext = extractor_of(info)
        key = cache_key(source, ctx, ext) if self.cache is not None else None
        if key is not None and self.cache is not None:
            entry = self.cache.get(key)
            if entry is not None:
                ctx.header.update(entry.header)
                ctx.notes.extend(n for n in entry.notes if n not in ctx.notes)
                return iter(entry.units), True
        if whole is not None and key is not None:
            whole.key, whole.header = key, ctx.header  # (the dict, filled as the read goes)
        if ext.isolated and self.settings.isolation.enabled:  # the worker gets the descriptor
            job = Job(
                extractor=BY_KEY[info.format].extractor, path=str(source.path or ""), info=info,
                options=ctx.options, settings=self.settings, loader=ctx.loader,
                workspace=ctx.workspace, deadline=ctx.deadline,
            )  # fmt: skip
            units = self._worker_pool().run(job, source.handoff(), ctx, ext.name, until)
        else:
            units = self._pipeline.units(source, info, ctx, ext_cls=ext)
        if key is None or whole is not None:
            return units, False
        return self._storing(units, key, ctx), False

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


@dataclasses.dataclass(eq=False)
class _FileLoad:
    """One file of a parallel load: what to read (a page range of it shares its notes)."""

    path: str
    named: bool
    opts: ReadOptions
    error: ReadDocumentError | None
    notes: list[str] = dataclasses.field(default_factory=list)
    failed: bool = False
    size: int = -1  # its size once looked up (Reader._size_hint)
    whole: _Whole = dataclasses.field(default_factory=lambda: _Whole())  # shared by its parts


@dataclasses.dataclass(eq=False)
class _Whole:
    """A parallel read's whole-file cache entry in the making, kept by the consumer: a PDF
    split across workers has no read that sees it whole (the first is cut short, the others are
    page ranges), so the file is stored once all its units came, split or not."""

    key: str | None = None  # the whole read's cache key (None: not cached, or not known yet)
    header: dict[str, str] = dataclasses.field(default_factory=dict)  # the first read's own
    units: list[Unit] | None = dataclasses.field(default_factory=list)  # None: not kept
    size: int = 0

    def keep(self, unit: Unit) -> None:
        """Keep a unit of the file, up to the cache's entry size (past it: not cached)."""
        if self.units is None:
            return
        self.size += entry_size(unit)
        if self.size > MAX_ENTRY_BYTES:
            self.units = None
        else:
            self.units.append(unit)


@dataclasses.dataclass(eq=False)
class _BatchLoad:
    """Small files of a parallel load read by one worker job (``Reader._batched``)."""

    members: list[_FileLoad]
    names: list[tuple[str, str]]  # (shown name, extractor name) of each, for errors
    ended: int = 0  # members whose end the consumer has seen

    def handle(
        self, event: Event, on_error: OnError, on_note: NoteHandler | None
    ) -> Iterator[Unit]:
        """One event of the batch on the consumer's thread: a unit out, a member's end (its
        notes, or its error, as any file's), or an error of the whole batch (every member not
        ended fails with it)."""
        if isinstance(event, FileEnd):
            member = self.members[event.index]
            self.ended = event.index + 1
            if event.error is not None:
                _failed(member.path, event.error, member.named, on_error)
            for note in event.notes:
                (on_note or _log_note)(member.path, note)
        elif isinstance(event, ReadDocumentError):
            for member in self.members[self.ended :]:
                _failed(member.path, event, member.named, on_error)
            self.ended = len(self.members)
        elif isinstance(event, BaseException):
            raise event
        elif event is not None and not isinstance(event, Mark):
            yield event


def _in_process(path: str) -> bool:
    """Whether the file's name says a format read in this process (plain text, markdown...):
    the content may still say otherwise (a PDF named .txt), which the read then handles."""
    named = by_extension(path)
    return named is not None and not extractor_class(named.extractor).isolated


def _page_range(
    load: _FileLoad | _BatchLoad, first_unit: Unit, first: int, last: int
) -> _FileLoad | None:
    """The load of pages first..last of a PDF read whole as text, else None (not split)."""
    if isinstance(load, _BatchLoad):
        return None
    whole = load.opts.pages is None and load.opts.view == "text"
    if first_unit.metadata.get("format") != "pdf" or not whole:
        return None
    return dataclasses.replace(load, opts=load.opts.replace(pages=f"{first}-{last}"))


def _progress(found: list[_T], label: str) -> Iterable[_T]:
    """A load's files under a tqdm bar (stderr), advancing as each starts; none for one file."""
    if len(found) < 2:
        return found
    from tqdm.auto import tqdm

    return tqdm(found, desc=label, unit="file")


def _read_key(
    source: Source, info: FileInfo, opts: ReadOptions
) -> tuple[tuple[str, str], str] | None:
    """(file, options) and (content stamp, mtime_ns): what the read log compares. The stamp is
    the cache key's (computed once per read); a touched file is shown again to the agent."""
    if source.path is None:
        return None
    stamp = f"{content_stamp(source)}:{source.stat().st_mtime_ns}"
    return (info.path, repr(opts.replace(file_path=""))), stamp


def _unchanged(info: FileInfo, opts: ReadOptions, settings: Settings) -> ReadResult:
    """The dedup stub: one short Document instead of the same content again."""
    meta = {"source": info.source, "file_path": info.path, "format": "unchanged"}  # plain render
    doc = Document(UNCHANGED, meta)
    return ReadResult(
        file=info, documents=[doc], output_format=opts.output_format, settings=settings
    )


def loader_workspace(
    paths: PathArg | Iterable[PathArg],
    workspace: PathArg | None = None,
    *,
    cwd: PathArg | None = None,
) -> tuple[PathArg, list[str]]:
    """The one rule for a loader's workspace, and the paths to pass in it: ``workspace`` when
    given; else the current directory when every path lies inside it (paths as given); else the
    filesystem root, paths made absolute. A loader reads what its program names, not what a
    model asks for, so the sandbox only anchors relative paths and what ``source`` shows.
    ``cwd`` stands for the current directory (a Ray task judges by its driver's)."""
    given = [os.fspath(p) for p in _each(paths)]
    if workspace is not None:
        return workspace, given
    base = os.fspath(cwd) if cwd is not None else os.getcwd()
    here = Path(base).resolve()
    if all(_inside(os.path.realpath(os.path.join(base, p)), here) for p in given):
        return here, given
    return "/", [os.path.normpath(os.path.join(base, p)) for p in given]


def _each(paths: PathArg | Iterable[PathArg]) -> Iterable[PathArg]:
    """One path or many, as many (lazily: a generator of paths is never listed whole)."""
    return [paths] if isinstance(paths, str | os.PathLike) else paths


def _inside(path: str, root: Path) -> bool:
    return Path(path).is_relative_to(root)


def check_on_error(on_error: OnError) -> None:
    """``on_error`` is a handler, a policy name or None; anything else is InvalidOptionError
    (the wrappers check theirs when built, before any file)."""
    if on_error is not None and not callable(on_error) and on_error not in get_args(ErrorPolicy):
        raise InvalidOptionError(
            f"on_error={on_error!r}: must be a function (path, error), "
            f"{', '.join(map(repr, get_args(ErrorPolicy)))} or None (a path you named raises, a "
            "file found in a folder is logged and skipped)"
        )


def _failed(path: str, error: ReadDocumentError, named: bool, on_error: OnError) -> None:
    """A file of a load failed, the one rule of every loader: the caller's handler or policy;
    without one a path the caller named raises and a file found in a folder is logged (here,
    once, with its path) and skipped."""
    if callable(on_error):
        on_error(path, error)
    elif on_error == "raise" or (on_error is None and named):
        raise error
    else:
        log_handled(error, level=logging.INFO if on_error == "skip" else logging.WARNING)


def _log_note(path: str, note: str) -> None:
    logger.warning("%s: %s", path, note)
