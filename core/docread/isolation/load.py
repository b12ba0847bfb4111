"""A multi-file load planned and consumed: the files grouped (runs of small files into batches a
worker opens and reads itself; any other file one read the host opens), fanned out over host
threads (``schedule.Fanout``: order, look-ahead, PDF splits), and their events handled on the
caller's thread: units out, each file's notes, its failure by the loaders' one rule (``failed``),
its cache entry stored once the file came whole."""

from __future__ import annotations

import dataclasses
import logging
import os
from collections.abc import Callable, Iterable, Iterator
from typing import Literal, get_args

from ..cache.store import PendingEntry
from ..errors import InvalidOptionError, ReadDocumentError, log_handled, log_shown, logger
from ..extractors.base import extractor_class
from ..extractors.programs import PROGRAMS
from ..formats import by_extension
from ..model import Unit
from ..request.options import ReadOptions
from .events import FileDone, FileFailed, LoadEvent, Until
from .host import Host
from .protocol import Job, JobFile
from .schedule import Fanout

BATCH_FILES = 32  # small files read by one worker job at most
BATCH_BYTES = 1 << 20  # ... and their sizes together
BATCH_SMALL = 256 << 10  # a file above this size is read by a job of its own

_OCR_FORMATS = PROGRAMS["tesseract"].formats  # a read of these may run tesseract: never batched

ErrorHandler = Callable[[str, ReadDocumentError], None]
#: What a loader does with a file that fails, by name (the wrappers' ``on_error=``): "raise" it,
#: "warn" (a warning on the ``docread`` logger, the load goes on) or "skip" (logged at info level)
ErrorPolicy = Literal["raise", "warn", "skip"]
OnError = ErrorHandler | ErrorPolicy | None
NoteHandler = Callable[[str, str], None]


@dataclasses.dataclass(eq=False)
class FileLoad:
    """One file of a load: what to read, whether the caller named it, the error found while
    listing it; the parts of a split PDF share its cache entry."""

    path: str
    named: bool
    opts: ReadOptions
    error: ReadDocumentError | None
    size: int = -1  # its size once looked up (``_Plan.size``)
    entry: PendingEntry = dataclasses.field(default_factory=PendingEntry)


@dataclasses.dataclass(eq=False)
class _Group:
    """A fan-out item: one file the host opens (a split PDF's part is another group of it), or
    a batch of small files one worker job opens and reads (``batch``: how the job names them)."""

    files: list[FileLoad]
    batch: tuple[JobFile, ...] = ()
    ended: int = 0  # files whose end the consumer has seen


def fan_out(
    host: Host,
    loads: Iterable[FileLoad],
    workers: int,
    ordered: bool,
    on_error: OnError,
    on_note: NoteHandler | None,
    skipped: Skipped,
) -> Iterator[Unit]:
    """``Reader.iter_units`` over ``workers`` threads, each driving one worker job (isolated
    formats) or leaving an in-process read (plain text, markdown) to this thread; every event
    is handled here, in the caller's thread, in order."""
    if host.settings.isolation.enabled:  # spare: a local read may turn out a PDF
        host.pool().grow(workers, spare=1)
    plan = _Plan(host, workers)
    fanout = Fanout(
        plan.batched(loads), plan.read, workers=workers, ordered=ordered, part=_part,
        size=plan.size, local=_local,
    )  # fmt: skip
    for group, event in fanout:
        if isinstance(event, FileDone | FileFailed):
            file = group.files[event.index]
            group.ended = event.index + 1
            if isinstance(event, FileFailed):
                if not isinstance(event.error, ReadDocumentError):
                    raise event.error
                failed(file.path, event.error, file.named, on_error, skipped)
            elif host.cache is not None:
                file.entry.store(host.cache, event.header, event.notes)
            for note in event.notes:
                (on_note or log_note)(file.path, note)
        else:
            group.files[group.ended].entry.keep(event)
            yield event


class _Plan:
    """What the fan-out is handed: the groups, how to read one, how big one is."""

    def __init__(self, host: Host, cores: int) -> None:
        self.host = host
        self.cores = cores  # the load's core budget: its workers

    def read(self, group: _Group, until: Until) -> Iterator[LoadEvent]:
        """One read of a parallel load: a batch is one worker's job; a file (or a page range of
        it, ending at ``until()`` once a split sets it) is opened here, its cache entry left to
        the consumer when it is read whole."""
        host = self.host
        if group.batch:
            job = Job(group.batch, host.settings, True, host.workspace.root)
            return host.pool().run(job, root=host.workspace.root_descriptor, cores=self.cores)
        file = group.files[0]
        if file.error is not None:
            raise file.error
        whole = file.entry if file.opts.pages is None else None
        return host.load(file.opts, until=until, entry=whole, cores=self.cores)

    def size(self, group: _Group) -> int:
        """The group's size, to start big files first (0 when unknown)."""
        return sum(self._size(file) for file in group.files)

    def _size(self, file: FileLoad) -> int:
        """A hint that orders starts, read from the name without following a link (the read
        opens the file by the sandbox's rules)."""
        if file.size < 0:
            try:
                named = self.host.workspace.root / file.path
                file.size = os.stat(named, follow_symlinks=False).st_size
            except (OSError, ValueError):
                file.size = 0
        return file.size

    def batched(self, loads: Iterable[FileLoad]) -> Iterator[_Group]:
        """The loads as groups, runs of small files batched (at most BATCH_FILES files,
        BATCH_BYTES bytes) for a worker to open and read one after another: the host neither
        opens nor detects them, and one worker round trip serves them all. A batch starts at a
        file that needs a worker; plain text and markdown join it (read in the worker, they
        keep the batch whole where a mixed folder alternates kinds). Not with the cache on (the
        host reads each file to find its entry), nor for PDFs (split by pages), nor for images
        (``_OCR_FORMATS``: a read OCRs them, seconds each: batched, the corpus's ten small
        images were OCR'd one after another by one worker while the other's core sat idle)."""
        group: list[FileLoad] = []
        names: list[JobFile] = []
        for load in loads:
            name = self._batch_name(load, joining=bool(group))
            if name is not None:
                group.append(load)
                names.append(name)
                if len(group) < BATCH_FILES and sum(m.size for m in group) < BATCH_BYTES:
                    continue
            yield from _groups(group, names)
            group, names = [], []
            if name is None:
                yield _Group([load])
        yield from _groups(group, names)

    def _batch_name(self, load: FileLoad, *, joining: bool) -> JobFile | None:
        """How a batch's job names a file that may start one (or, ``joining``, be added to
        one), else None."""
        host = self.host
        if host.cache is not None or not host.settings.isolation.enabled or load.error is not None:
            return None
        named = by_extension(load.path)
        if named is None or named.key == "pdf" or named.key in _OCR_FORMATS:
            return None
        ext = extractor_class(named.extractor)
        if not (ext.isolated or joining) or self._size(load) > BATCH_SMALL:
            return None
        try:
            return JobFile(load.opts, host.workspace.shown(load.path), ext.name)
        except ReadDocumentError:
            return None


def _groups(files: list[FileLoad], names: list[JobFile]) -> Iterator[_Group]:
    """A run of small files: a batch when there are several, else the file on its own."""
    if len(files) > 1:
        yield _Group(files, tuple(names))
    else:
        yield from (_Group([file]) for file in files)


def _part(group: _Group, first_unit: Unit, first: int, last: int) -> _Group | None:
    """The read of pages first..last of a PDF read whole as text, else None (not split)."""
    if group.batch:
        return None
    file = group.files[0]
    whole = file.opts.pages is None and file.opts.view == "text"
    if first_unit.metadata.get("format") != "pdf" or not whole:
        return None
    return _Group([dataclasses.replace(file, opts=file.opts.replace(pages=f"{first}-{last}"))])


def _local(group: _Group) -> bool:
    """A file the consumer's thread reads itself: threads of one interpreter gain nothing on an
    in-process format, and handing its units over cost 2,000 small files 2.3x the time of the
    one-thread loop."""
    return not group.batch and in_process(group.files[0].path)


def in_process(path: str) -> bool:
    """Whether the file's name says a format read in this process (plain text, markdown...):
    the content may still say otherwise (a PDF named .txt), which the read then handles."""
    named = by_extension(path)
    return named is not None and not extractor_class(named.extractor).isolated


def check_on_error(on_error: OnError) -> None:
    """``on_error`` is a handler, a policy name or None; anything else is InvalidOptionError
    (the wrappers check theirs when built, before any file)."""
    if on_error is not None and not callable(on_error) and on_error not in get_args(ErrorPolicy):
        raise InvalidOptionError(
            f"on_error={on_error!r}: must be a function (path, error), "
            f"{', '.join(map(repr, get_args(ErrorPolicy)))} or None (a path you named raises, a "
            "file found in a folder is logged and skipped)"
        )


def failed(
    path: str,
    error: ReadDocumentError,
    named: bool,
    on_error: OnError,
    skipped: Skipped | None = None,
) -> None:
    """A file of a load failed, the one rule of every loader: the caller's handler or policy;
    without one a path the caller named raises and a file found in a folder is logged (here,
    once, with its path) and skipped, and counted in the load's ``skipped`` (said at its end)."""
    if callable(on_error):
        on_error(path, error)
    elif on_error == "raise" or (on_error is None and named):
        raise error
    elif on_error == "skip":
        log_handled(error, level=logging.INFO)
    elif skipped is not None:
        skipped.skip(path, error)
    else:
        log_handled(error)


class Skipped:
    """The files of a load skipped with a warning (the default rule for a file found in a
    folder, or ``on_error="warn"``), said once at its end, on stderr where the application set
    up no logging (``errors.log_shown``): each file's warning goes to the ``docread`` logger,
    which shows nothing there, and a new user never learned that 2 of 3 files were dropped. A
    logging line, not ``warnings.warn``: a test suite run with ``filterwarnings = error`` would
    turn a load that read the other files into an exception, and an application that set up
    logging already hears each file. As a context manager it says them on leaving, unless its
    consumer abandoned the load (GeneratorExit); ``skip`` is an ``on_error`` handler of this
    rule for a load made of several (a Ray read task's files)."""

    SHOWN = 3  # files named in the summary

    def __init__(self, hint: str = "on_error= handles them") -> None:
        self.hint = hint  # what the caller can do, after the logger's
        self.files = 0
        self.count = 0
        self.first: list[tuple[str, ReadDocumentError]] = []

    def counted(self, loads: Iterable[FileLoad]) -> Iterator[FileLoad]:
        """``loads``, each counted as a file of the load."""
        for load in loads:
            self.files += 1
            yield load

    def skip(self, path: str, error: ReadDocumentError) -> None:
        """A file skipped: its warning logged now, and counted for the summary."""
        log_handled(error)
        self.count += 1
        if len(self.first) < self.SHOWN:
            self.first.append((path, error))

    def say(self) -> None:
        """The summary, once, when a file was skipped."""
        if not self.count:
            return
        names = "; ".join(_described(path, error) for path, error in self.first)
        more = f" and {self.count - len(self.first):,} more" if self.count > len(self.first) else ""
        of = f" of {self.files:,}" if self.files >= self.count else ""
        log_shown(
            f"docread: {self.count:,}{of} file(s) failed and were skipped: {names}{more}. "
            "Each is a warning on the 'docread' logger (set up logging to see them as they "
            f"come){'; ' + self.hint if self.hint else ''}."
        )
        self.count, self.first = 0, []

    def __enter__(self) -> Skipped:
        return self

    def __exit__(self, kind: type[BaseException] | None, *rest: object) -> None:
        if kind is not GeneratorExit:
            self.say()


def _described(path: str, error: ReadDocumentError) -> str:
    """A skipped file in the summary: its error's message (which names the file, else the file
    first) and the error's type."""
    said = error.message if path in error.message else f"{path}: {error.message}"
    return f"{said} ({type(error).__name__})"


def log_note(path: str, note: str) -> None:
    """A file's note when the caller gave no ``on_note``: a warning on the ``docread`` logger."""
    logger.warning("%s: %s", path, note)
