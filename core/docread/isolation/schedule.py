"""Multi-file loads fanned out over host threads, each driving one read (a file, a page range of
one, or a batch of small files) at a time through its own worker job (a local read runs on the
consumer's thread): events come back in walk order through a bounded look-ahead (or as they
finish), and a thread with nothing left to start takes the second half of the pages still to come
of a PDF in flight, so one big file also uses every worker. A file read in parts ends once, when
its last part does (``events.joined``)."""

from __future__ import annotations

import queue
import threading
import time
from collections.abc import Callable, Generator, Iterable, Iterator
from dataclasses import dataclass, field
from typing import Any, Generic, TypeVar

from ..cache.store import entry_size
from ..extractors.deadline import end_after
from ..model import Document, Media, Unit
from .events import FileEnd, LoadEvent, Until, drive, joined, past

T = TypeVar("T")

#: ``read(item, until)``: the events of a read of ``item`` (its files' units, each file's end).
Read = Callable[[T, Until], Iterator[LoadEvent]]
#: ``part(item, first_unit, first, last)``: the item reading pages first..last of that file, or
#: None when the file cannot be read in parts (not a PDF, a page window was asked for...).
Part = Callable[[T, Unit, int, int], "T | None"]

STOP_WAIT = 5.0  # seconds a closed load waits for its threads to cancel their worker jobs
AHEAD_PER_WORKER = 4  # ordered: files listed and not yet read to their end, per worker (a file
# read and waiting for the consumer holds no slot: a slow file at the head left the other
# worker idle 3.9 s once it had read the 7 files after it)
AHEAD_LOCAL = 1024  # ordered: files listed and not yet handed out, for the whole load
AHEAD_BYTES = 64 * 2**20  # ordered: units read and not yet handed out (``entry_size``), at most
WINDOW = 1024  # unordered: files listed and not yet started, the biggest started first
BUFFER = 256  # units one read holds before its thread waits for the consumer
MIN_SPLIT = 32  # OCR'd pages still to come below which a read is not split (its worker already
# OCRs a page per core: 8 scanned pages split on 2 workers took 26.5 s against 21.9 s)
PART_START = 0.05  # seconds a page-range read takes before its first page (a text PDF opened and
# surveyed: 0.035-0.04 s measured), which the part a split makes pays again
SPLIT_PAYS = 4.0  # a read is split when its pages to come take this many times a part's start
# (half of them move to the new part: it saves twice what it pays)
POLL = 0.1  # seconds between checks of a closed load by a waiting thread

_LOCAL = object()  # the consumer's thread runs this read itself


@dataclass(frozen=True, slots=True)
class _End:
    """A read finished; ``final``: its last file's end, held back (the file may go on in a
    later part of a split)."""

    final: FileEnd | None


class _Closed(Exception):
    """The consumer stopped the load: a thread drops what it was doing."""


@dataclass(eq=False)
class _Read:
    """One read of a file (``item``: whole, or a page range); its events wait in ``out``."""

    item: Any
    out: queue.Queue[tuple[Any, object]]
    last: int | None = None  # stop before a unit of a later page (None: to the end)
    seen: int = 0  # the page of the latest unit received (before its first page at the start)
    done: bool = False
    first: float | None = None  # time.monotonic() when its first unit with a page came
    pages: int = 0  # pages received after that first one
    ocr: bool = False  # a page of it was OCR'd

    def time_left(self, left: int) -> float | None:
        """Seconds its ``left`` pages still take at the pace of its pages so far, when that
        makes a split pay (``SPLIT_PAYS`` times a part's start), else None (and before its
        second page)."""
        if self.first is None or not self.pages:
            return None
        pace = (time.monotonic() - self.first) / self.pages
        time_left = pace * left
        pays = time_left >= SPLIT_PAYS * PART_START
        return time_left if pays and left >= (MIN_SPLIT if self.ocr else 2) else None


@dataclass(eq=False)
class _File(Generic[T]):
    """A file of the load: its reads in page order (one unless it was split)."""

    item: T
    seq: int
    reads: list[_Read] = field(default_factory=list)
    sample: Unit | None = None  # its first unit, once the file is known to be splittable
    count: int = 0  # its page count (splittable files only)
    splittable: bool | None = None  # unknown until the first unit
    ended: int = 0  # reads whose end the consumer has seen (unordered)
    local: bool = False  # the consumer runs its read: it holds nothing until then
    reading: bool = True  # listed and not read to its end: it holds a look-ahead slot
    size: int = 0  # its size in bytes (0: unknown), to start the biggest files first
    end: FileEnd | None = None  # the ends of its reads so far, joined


class Fanout(Generic[T]):
    """Runs ``read(item, until)`` for each item on up to ``workers`` threads and yields
    ``(item, event)``: ordered (walk order, at most ``AHEAD_PER_WORKER * workers`` files listed
    and not read to their end, each holding at most ``BUFFER`` units, files read and waiting for
    the consumer up to ``AHEAD_BYTES`` of units, at most ``AHEAD_LOCAL`` files listed) or as
    finished; ``until()`` is the read's last page once a split set one (a worker told
    early wastes no pages). Each file of an item ends with one ``FileDone`` or ``FileFailed``
    (its parts' ends joined); an exception a read raises is its current file's ``FileFailed``,
    so one file never stops the others; closing the iterator stops every thread at its next
    unit (a worker job is cancelled by closing its event stream).

    ``local(item)``: the consumer's thread runs that read itself when it gets there (in-process
    units: handing each over between threads costs more than making it). With ``size(item)``
    the biggest file of those listed and not started (the look-ahead when ordered, ``WINDOW``
    files when not) starts first, so no big file is left for the end of the load; ordered, one
    thread at least keeps to walk order (the consumer waits for that file: threads all holding
    later files with full buffers would wait for it forever)."""

    def __init__(
        self,
        items: Iterable[T],
        read: Read[T],
        *,
        workers: int,
        ordered: bool = True,
        part: Part[T] | None = None,
        size: Callable[[T], int] | None = None,
        local: Callable[[T], bool] | None = None,
    ) -> None:
        self._items = iter(items)
        self._size = size
        self._local = local
        self._read = read
        self._workers = max(1, workers)
        self._ordered = ordered
        self._part = part
        self._cond = threading.Condition()
        self._files: dict[int, _File[T]] = {}  # listed and not yet handed out completely
        self._waiting: list[_File[T]] = []  # listed and not started, in walk order
        self._next = 0  # seq of the next file to start
        self._head = 0  # seq of the file the consumer is on (ordered)
        self._reading = 0  # files listed and not read to their end that are not local
        self._queued = 0  # bytes of units the threads queued (ordered; under the lock)
        self._taken = 0  # bytes of them the consumer took (its thread alone writes it)
        self._exhausted = False
        self._failure: BaseException | None = None  # the item iterator itself raised
        self._closed = False
        self._shared: queue.Queue[tuple[Any, object]] = queue.Queue(BUFFER)  # unordered

    def __iter__(self) -> Iterator[tuple[T, LoadEvent]]:
        threads = [
            threading.Thread(target=self._work, daemon=True, name=f"docread-load-{n}")
            for n in range(self._workers)
        ]
        for thread in threads:
            thread.start()
        try:
            yield from self._in_order() if self._ordered else self._as_finished()
            if self._failure is not None:
                raise self._failure
        finally:
            with self._cond:
                self._closed = True
                self._cond.notify_all()
            until = end_after(STOP_WAIT)  # their jobs cancelled: the workers are free
            for thread in threads:
                thread.join(max(until - time.monotonic(), 0))

    # -- consumer side ----------------------------------------------------------------------
    def _in_order(self) -> Iterator[tuple[T, LoadEvent]]:
        seq = 0
        while True:
            with self._cond:
                while not (seq in self._files and self._files[seq].reads) and not (
                    self._exhausted and seq >= self._next
                ):
                    self._cond.wait()
                file = self._files.get(seq)
            if file is None:
                return
            index = 0
            while True:
                with self._cond:  # a split adds reads right after the one it cut short
                    if index >= len(file.reads):
                        break
                    current = file.reads[index]
                ran: FileEnd | None = None
                while not isinstance(event := current.out.get()[1], _End):
                    if event is _LOCAL:
                        ran = yield from self._run_local(file)
                    else:
                        if isinstance(event, Document | Media):
                            self._taken += entry_size(event)
                        yield file.item, event  # type: ignore[misc]
                file.end = joined(file.end, event.final or ran)
                index += 1
            if file.end is not None:
                yield file.item, file.end
            seq += 1
            with self._cond:
                del self._files[file.seq]
                self._head = seq
                if not file.local or self._next - seq <= AHEAD_LOCAL // 2:
                    self._cond.notify_all()  # room for threads (not at every local file: a
                    # woken thread takes the GIL from this one at its next system call)

    def _as_finished(self) -> Iterator[tuple[T, LoadEvent]]:
        while True:
            with self._cond:
                if self._exhausted and not self._files:
                    return
            try:
                file, event = self._shared.get(timeout=POLL)
            except queue.Empty:
                continue
            if event is _LOCAL:  # its read's end follows it in the queue
                file.end = joined(file.end, (yield from self._run_local(file)))
                continue
            if not isinstance(event, _End):
                yield file.item, event  # type: ignore[misc]
                continue
            file.ended += 1
            file.end = joined(file.end, event.final)
            with self._cond:  # every read ended: none can be added (a split cuts a running one)
                finished = file.ended == len(file.reads)
                if finished:
                    del self._files[file.seq]
                    self._cond.notify_all()
            if finished and file.end is not None:
                yield file.item, file.end

    def _run_local(self, file: _File[T]) -> Generator[tuple[T, LoadEvent], None, FileEnd | None]:
        """A local read on the consumer's thread: its events, and its last end (returned)."""
        events = drive(lambda: self._read(file.item, lambda: None), None)
        try:
            while True:
                yield file.item, next(events)
        except StopIteration as stop:
            return stop.value  # type: ignore[no-any-return]
        finally:
            events.close()

    # -- thread side ------------------------------------------------------------------------
    def _work(self) -> None:
        try:
            while (task := self._task()) is not None:
                self._run(*task)
        except _Closed:
            pass

    def _task(self) -> tuple[_File[T], _Read] | None:
        """The next read for a free thread: a listed file (the biggest that may start), else the
        second half of a splittable read in flight, else wait; None when nothing is left."""
        with self._cond:
            while True:
                if self._closed:
                    raise _Closed
                self._list()
                file = self._pick()
                if file is not None:
                    self._waiting.remove(file)
                    self._cond.notify_all()
                    return file, self._add_read(file, file.item, 0, 0, None)
                stolen = self._steal()
                if stolen is not None:
                    return stolen
                if self._exhausted and not self._waiting and not self._may_split():
                    return None
                self._cond.wait(POLL)

    def _list(self) -> None:
        """Take items from the iterator while the look-ahead has room (ordered: files waiting or
        being read, ``AHEAD_PER_WORKER`` per worker, the units read and not handed out under
        ``AHEAD_BYTES``; else ``WINDOW`` waiting). Under the lock."""
        while not self._exhausted:
            if self._ordered:
                room = (
                    self._reading < AHEAD_PER_WORKER * self._workers
                    and self._next < self._head + AHEAD_LOCAL
                    and self._queued - self._taken < AHEAD_BYTES
                )
            else:
                room = len(self._waiting) < (WINDOW if self._size is not None else 1)
            if not room:
                return
            try:
                item = next(self._items)
            except StopIteration:
                self._exhausted = True
                self._cond.notify_all()
                return
            except BaseException as exc:  # noqa: BLE001 - raised to the consumer, in order
                self._failure, self._exhausted = exc, True
                self._cond.notify_all()
                return
            file = _File(item, self._next, size=self._size(item) if self._size else 0)
            self._next += 1
            self._reading += 1
            self._files[file.seq] = file
            self._waiting.append(file)

    def _read_to_end(self, file: _File[T]) -> None:
        """Free ``file``'s look-ahead slot once no thread has to read it any more (every read
        of it done, or the consumer runs it). Under the lock."""
        if file.reading and (file.local or all(read.done for read in file.reads)):
            file.reading = False
            self._reading -= 1
            self._cond.notify_all()

    def _pick(self) -> _File[T] | None:
        """The waiting file to start: the biggest, unless (ordered) every other thread already
        reads a file past the first waiting one: then that one. Under the lock."""
        if not self._waiting:
            return None
        first = self._waiting[0]
        if self._size is None:
            return first
        if self._ordered:
            ahead = sum(
                not read.done for f in self._files.values() if f.seq > first.seq for read in f.reads
            )
            if ahead >= self._workers - 1:
                return first
        return max(self._waiting, key=lambda f: f.size)

    def _add_read(self, file: _File[T], item: T, index: int, after: int, last: int | None) -> _Read:
        """A read of ``item`` (pages after ``after`` up to ``last``) at ``index`` in its file."""
        out = self._shared if not self._ordered else queue.Queue(BUFFER)
        read = _Read(item, out, last, seen=after)
        file.reads.insert(index, read)
        return read

    def _may_split(self) -> bool:
        """Whether a read in flight may still be split (its file's first unit not seen yet, or
        splittable). Under the lock."""
        if self._part is None:
            return False
        return any(
            f.splittable is not False and any(not r.done for r in f.reads)
            for f in self._files.values()
        )

    def _steal(self) -> tuple[_File[T], _Read] | None:
        """Cut the read with the most time still to come in two, when the split pays
        (``_Read.time_left``): it stops at the middle and a new read, right after it in its
        file, takes the rest. Under the lock."""
        best: tuple[float, int, _File[T], _Read] | None = None
        for file in self._files.values():
            if not file.splittable:
                continue
            for read in file.reads:
                left = (read.last or file.count) - read.seen
                time_left = None if read.done else read.time_left(left)
                if time_left is not None and (best is None or time_left > best[0]):
                    best = (time_left, left, file, read)
        if best is None:
            return None
        _, left, file, victim = best
        end = victim.last or file.count
        middle = victim.seen + (left + 1) // 2
        assert file.sample is not None
        item = self._part(file.item, file.sample, middle + 1, end) if self._part else None
        if item is None:
            file.splittable = False
            return None
        victim.last = middle
        return file, self._add_read(file, item, file.reads.index(victim) + 1, middle, end)

    def _run(self, file: _File[T], read: _Read) -> None:
        """Stream one read into its queue: its events up to its last page (the file's end at
        its ``_End``), or, for a local read, a sign that the consumer runs it."""
        final: FileEnd | None = None
        if self._local is not None and self._local(read.item):
            with self._cond:  # it holds nothing: the look-ahead may take another file
                file.local = True
                self._read_to_end(file)
            self._put(read, file, _LOCAL)
        else:
            events = drive(
                lambda: self._read(read.item, lambda: read.last),
                lambda unit: self._keep(file, read, unit),
            )
            try:
                while True:
                    self._put(read, file, next(events))
            except StopIteration as stop:
                final = stop.value
            finally:
                events.close()  # stopped early: the worker's job is cancelled, nothing is cached
        with self._cond:
            read.done = True
            self._read_to_end(file)
            self._cond.notify_all()
        self._put(read, file, _End(final))

    def _keep(self, file: _File[T], read: _Read, unit: Unit) -> bool:
        """Record the unit's page; False when it is past the read's last page (split off)."""
        page = unit.metadata.get("page_number")
        with self._cond:
            if past(unit, read.last):
                return False
            if self._ordered:
                self._queued += entry_size(unit)
            if isinstance(page, int):
                read.seen = max(read.seen, page)
                if read.first is None:
                    read.first = time.monotonic()
                else:
                    read.pages += 1
                read.ocr = read.ocr or unit.metadata.get("ocr") is True
            if file.splittable is None:
                self._learn(file, unit)
        return True

    def _learn(self, file: _File[T], unit: Unit) -> None:
        """From a file's first unit: its page count and whether it can be read in parts."""
        count = unit.metadata.get("page_count")
        if isinstance(count, int) and self._part is not None:
            file.splittable = self._part(file.item, unit, 1, count) is not None
            file.sample, file.count = unit, count
        else:
            file.splittable = False
        self._cond.notify_all()

    def _put(self, read: _Read, file: _File[T], event: object) -> None:
        while True:
            if self._closed:
                raise _Closed
            try:
                read.out.put((file, event), timeout=POLL)
                return
            except queue.Full:
                continue
