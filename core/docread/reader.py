"""Reader: the public API over one workspace and one Settings (read, iter_units, iter_bytes, walk).

A read opens the file in the workspace and gets its units through ``isolation.host`` (the result
cache in front, a worker process or this one behind); a load of many files reads them here one
after another, or fans out over worker processes (``isolation.load``). The read log sits in
front of the agent view's reads.

Importing this module starts the process's worker template (``template.prestart``, before the
rest of it imports): a process that asks for the Reader is about to read, and the template's
imports (docread's worker, PyMuPDF: the cold start's longer path) then run beside the Reader's.
``import docread`` alone starts none.
"""

from __future__ import annotations

# ruff: noqa: E402 - the worker template starts before the rest of the Reader imports
from .isolation.template import prestart

prestart()

import os
import sys
import time
from collections import deque
from collections.abc import Callable, Iterable, Iterator
from itertools import chain
from pathlib import Path, PurePath
from typing import Any, TypeVar

from .cache.readlog import UNCHANGED, ReadLog
from .cache.stamp import content_stamp
from .detect import detect
from .errors import ExtractionTimeoutError, InvalidOptionError, ReadDocumentError
from .isolation.events import FileDone
from .isolation.host import Host, Stats
from .isolation.load import (
    FileLoad,
    NoteHandler,
    OnError,
    Skipped,
    check_on_error,
    failed,
    fan_out,
    in_process,
    log_note,
)
from .isolation.pool import pool_size
from .model import Document, FileInfo, Unit
from .outline.marking import with_sections
from .outline.reading import read_outline, read_section
from .request.options import ReadOptions
from .result import ReadResult
from .settings import Settings
from .source import Source, clean_name
from .workspace import Workspace, walk_files

PathArg = str | os.PathLike[str]
_T = TypeVar("_T")
LOCAL_AHEAD = 64  # files looked ahead for one that needs a worker before a load fans out
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
        self._host = Host(self.settings, self.workspace, shared=shared_pool)
        self.cache = self._host.cache
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

        ``view="outline"`` lists the document's sections (``outline.reading``), ``section=``
        reads one whole. ``dedupe=True`` (what agent tools ask for) answers a repeat of an
        earlier read of the unchanged file with a short stub. ``on_unit(unit)`` is called as
        each unit arrives (progress reports); when it raises, the read stops there: the unit
        stream is closed, which cancels a worker's job, and the exception propagates."""
        opts = ReadOptions.from_kwargs(os.fspath(file_path), **options)
        if opts.section is not None and opts.view != "outline":
            return read_section(self._host, opts)  # one section whole, across its pages
        if opts.view == "outline":
            return read_outline(self._host, opts)  # the sections, one line each
        source, info = self._host.open(opts)
        ctx = self._host.context(info, opts, loader=False)
        result = ReadResult(
            file=info, header=ctx.header, notes=ctx.notes,
            output_format=opts.output_format, settings=self.settings,
        )  # fmt: skip
        with source:
            pure = not info.is_dir and opts.mode != "extract"  # extraction writes files: always run
            seen = _read_key(source, info, opts) if dedupe and pure else None
            if seen is not None and self._read_log.unchanged(*seen):
                return _unchanged(info, opts, self.settings)
            units, result.cached = self._host.units(source, info, ctx)
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
        """``read`` in a worker thread, so the event loop is never blocked (asyncio imported here:
        0.1 s, with ssl, on the cold start's path of every caller that never awaits)."""
        import asyncio

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
        its error never costs the other files their units; the load says how many it skipped
        (those and "warn"'s) once at its end, on stderr where no logging is set up
        (``isolation.load.Skipped``). A file's notes
        (a skipped archive member, an OCR limit) go to ``on_note(path, note)`` once its units are
        out, by default as warnings on the ``docread`` logger. ``pattern`` on a named file is the
        read option (archive members).

        ``workers`` files are read at once, each in a worker process (default
        ``isolation.workers``: one per CPU; 1 reads one file at a time from this thread as before),
        and a big PDF is read in page ranges by idle workers; files read in-process (plain text,
        markdown) stay in this thread until one that needs a worker is near; with
        ``isolation.enabled: false`` every file is read in this thread. Units come in walk
        order, the same units and ids as ``workers=1`` (a few files read ahead, bounded), or as
        each is ready with ``ordered=False``. Handlers run in the caller's thread.
        ``show_progress`` puts a tqdm bar over the files on stderr when there are several (None:
        when stderr is a terminal), labelled ``progress_label``; the files are listed first, to
        count them.
        """
        opts = ReadOptions.from_kwargs("", pattern=pattern, **options)  # fails before any file
        if opts.section is not None or opts.view == "outline":
            raise InvalidOptionError(
                "section= and view='outline' are agent-view reads (Reader.read, the tools, "
                "docread read); a load gives every unit its section_id, which section= reads"
            )
        check_on_error(on_error)
        if workers is not None and workers < 0:
            raise InvalidOptionError(f"workers={workers}: must be 0 (one per CPU) or more")
        return with_sections(self._load(paths, opts, pattern, recursive, on_error, on_note,
                                        workers, ordered, show_progress, progress_label))  # fmt: skip

    def _load(
        self,
        paths: PathArg | Iterable[PathArg],
        opts: ReadOptions,
        pattern: str | None,
        recursive: bool,
        on_error: OnError,
        on_note: NoteHandler | None,
        workers: int | None,
        ordered: bool,
        show_progress: bool | None,
        progress_label: str,
    ) -> Iterator[Unit]:
        """``iter_units``' units, before their sections are stamped."""
        # in-process (isolation off) every file is read in this thread: threads of one
        # interpreter gain nothing under the GIL, and a PDF split over them cost 1.5x the CPU
        count = (workers or pool_size(self.settings)) if self.settings.isolation.enabled else 1
        found: Iterable[tuple[str, bool, ReadDocumentError | None]]
        found = self._expand(paths, pattern, recursive)
        if show_progress or (show_progress is None and sys.stderr.isatty()):
            found = _progress(list(found), progress_label)
        loads = (
            FileLoad(path, named, opts.replace(file_path=path, pattern=pattern if named else None), error)
            for path, named, error in found
        )  # fmt: skip
        with Skipped() as skipped:  # the files skipped with a warning, said at the end
            yield from self._loads(skipped.counted(loads), count, ordered, on_error, on_note, skipped)

    def _loads(
        self,
        loads: Iterator[FileLoad],
        count: int,
        ordered: bool,
        on_error: OnError,
        on_note: NoteHandler | None,
        skipped: Skipped,
    ) -> Iterator[Unit]:
        """The units of a load's files: one after another in this thread (``count`` 1), else
        fanned out over ``count`` threads from the first file that needs a worker."""
        if count <= 1:
            for load in loads:
                yield from self._load_one(load, count, on_error, on_note, skipped)
            return
        # Files read in this process (plain text, markdown) gain nothing from threads (the GIL)
        # and lose a hand-over each: they are read here, one after another, until a file that
        # needs a worker shows up within the next LOCAL_AHEAD; from there the load fans out.
        ahead: deque[FileLoad] = deque()
        for load in loads:
            ahead.append(load)
            if not in_process(load.path):
                yield from fan_out(
                    self._host, chain(ahead, loads), count, ordered, on_error, on_note, skipped
                )
                return
            if len(ahead) > LOCAL_AHEAD:
                yield from self._load_one(ahead.popleft(), count, on_error, on_note, skipped)
        for load in ahead:
            yield from self._load_one(load, count, on_error, on_note, skipped)

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
                failed(path, error, named, on_error)

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
            self._host.pipeline.admit(info)
            ctx = self._host.context(info, opts, loader=True)
            yield from with_sections(self._host.units(source, info, ctx)[0])
        for note in ctx.notes:
            (on_note or log_note)(name, note)

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

    def stats(self) -> Stats:
        """What this Reader did so far (``Stats``): files it read and how many the result cache
        served, its worker processes (running and busy pids, started) and jobs run."""
        return self._host.stats()

    def forget(self) -> None:
        """Forget what ``read`` returned, so the next reads return full results again."""
        self._read_log.clear()

    def close(self) -> None:
        """Stop this Reader's worker processes and close the cache (a shared pool stays up)."""
        self._host.close()

    def __enter__(self) -> Reader:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- loads ------------------------------------------------------------------------------
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

    def _load_one(
        self,
        load: FileLoad,
        cores: int,
        on_error: OnError,
        on_note: NoteHandler | None,
        skipped: Skipped,
    ) -> Iterator[Unit]:
        """One file of a load read in this thread (``cores``: the load's core budget, its
        workers); its notes, and its failure handled as every load's."""
        try:
            if load.error is not None:
                raise load.error
            for event in self._host.load(load.opts, cores=cores):
                if isinstance(event, FileDone):
                    for note in event.notes:
                        (on_note or log_note)(load.path, note)
                else:
                    yield event
        except ReadDocumentError as exc:
            failed(load.path, exc, load.named, on_error, skipped)


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
