"""The fan-out's scheduling (isolation.schedule.Fanout) with a fake read: order, splits, early
close and failures, without starting a worker or opening a file."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, replace

import docread
import pytest
from docread.isolation import schedule
from docread.isolation.events import FileDone, FileFailed, LoadEvent, past
from docread.isolation.schedule import AHEAD_PER_WORKER, BUFFER, Fanout


@dataclass(frozen=True)
class Item:
    """A fake file: ``pages`` units (a PDF when ``pdf``), ``delay`` seconds each; ``first`` and
    ``last``: the page range a split asked for; ``hold``: seconds its read waits after its
    second page for a split to cut it (a thread that was busy gets its chance to look)."""

    name: str
    pages: int = 1
    delay: float = 0.0
    pdf: bool = False
    fails: bool = False
    local: bool = False
    ocr: bool = False
    first: int = 1
    last: int | None = None
    hold: float = 0.0


class PageClock:
    """The schedule's clock in a test (``schedule.time``): it moves only by the fake pages'
    delays, so a read's pace is what its pages cost, not what a loaded machine made of their
    sleeps (a 1 ms page slept 4 ms under load, and a read not worth a split was split)."""

    def __init__(self) -> None:
        self.now = time.monotonic()
        self.lock = threading.Lock()

    def monotonic(self) -> float:
        """The fake time: what the pages read so far cost."""
        return self.now

    def spend(self, seconds: float) -> None:
        """A page's cost: the clock moves on by it."""
        with self.lock:
            self.now += seconds


class FakeRead:
    """The ``read`` of a Fanout: records what was started and closed, and on which thread."""

    def __init__(self, clock: PageClock | None = None) -> None:
        self.clock = clock  # moved by each page's delay
        self.started: list[Item] = []
        self.closed: list[Item] = []
        self.threads: dict[str, set[int]] = {}  # the threads that made each file's units
        self.lock = threading.Lock()

    def __call__(self, item: Item, until: Callable[[], int | None]) -> Iterator[LoadEvent]:
        with self.lock:
            self.started.append(item)
        return self._events(item, until)

    def _events(self, item: Item, until: Callable[[], int | None]) -> Iterator[LoadEvent]:
        try:
            if item.fails:
                raise docread.ExtractionError(f"{item.name}: broken", path=item.name)
            for page in range(item.first, (item.last or item.pages) + 1):
                self.threads.setdefault(item.name, set()).add(threading.get_ident())
                time.sleep(item.delay)
                if self.clock is not None:
                    self.clock.spend(item.delay)
                meta = {"source": item.name, "page_number": page}
                if item.pdf:
                    meta |= {"format": "pdf", "page_count": item.pages, "ocr": item.ocr}
                unit = docread.Document(f"{item.name} p{page}", meta)
                yield unit
                waited = time.monotonic() + item.hold if page == item.first + 1 else 0.0
                while until() is None and time.monotonic() < waited:
                    time.sleep(0.005)
                if past(unit, until()):
                    return  # the worker stops at the first unit past a split's last page
            yield FileDone(notes=[f"{item.name} p{item.first}-"])
        finally:
            with self.lock:
                self.closed.append(item)


def local(item: Item) -> bool:
    return item.local


def part(item: Item, first_unit: docread.Unit, first: int, last: int) -> Item | None:
    """A page range of a PDF item, as the reader's ``_page_range``."""
    return replace(item, first=first, last=last) if item.pdf else None


def events(fanout: Fanout[Item]) -> list[tuple[str, str | None]]:
    """(file, unit text or "error: ..." or None at a file's end) in the order they came."""
    out: list[tuple[str, str | None]] = []
    for item, event in fanout:
        if isinstance(event, FileFailed):
            out.append((item.name, f"error: {event.error}"))
        elif isinstance(event, FileDone):
            out.append((item.name, None))
        else:
            out.append((item.name, event.text))
    return out


def test_ordered_events_come_in_walk_order_whatever_finishes_first() -> None:
    items = [Item("slow", pages=3, delay=0.05), Item("fast", pages=2), Item("last", pages=1)]
    got = events(Fanout(items, FakeRead(), workers=2, ordered=True))
    assert got == [
        ("slow", "slow p1"), ("slow", "slow p2"), ("slow", "slow p3"), ("slow", None),
        ("fast", "fast p1"), ("fast", "fast p2"), ("fast", None),
        ("last", "last p1"), ("last", None),
    ]  # fmt: skip


def test_unordered_events_come_as_files_finish() -> None:
    items = [Item("slow", pages=2, delay=0.2), Item("fast", pages=2)]
    got = events(Fanout(items, FakeRead(), workers=2, ordered=False))
    assert got.index(("fast", None)) < got.index(("slow", "slow p1"))
    assert sorted(got, key=str) == sorted(
        [("slow", "slow p1"), ("slow", "slow p2"), ("slow", None),
         ("fast", "fast p1"), ("fast", "fast p2"), ("fast", None)], key=str,
    )  # fmt: skip


@pytest.mark.parametrize("ordered", [True, False])
def test_an_idle_thread_splits_a_long_pdf_and_every_page_comes_once(ordered: bool) -> None:
    pages = 100
    read = FakeRead()
    big = Item("big.pdf", pages=pages, delay=0.005, pdf=True)
    got = events(Fanout([big], read, workers=2, ordered=ordered, part=part))
    texts = [text for _, text in got]
    assert texts[-1] is None and texts.count(None) == 1  # one end, after every part
    expected = [f"big.pdf p{n}" for n in range(1, pages + 1)]
    assert (texts[:-1] if ordered else sorted(texts[:-1], key=expected.index)) == expected
    assert any(item.first > 1 for item in read.started)  # the idle thread took a part
    assert len(read.threads["big.pdf"]) == 2


def test_a_split_file_ends_once_with_the_notes_of_its_parts() -> None:
    """Each part of a split read ends on its own; the consumer gets one end for the file, after
    its last page, holding every part's notes once (a part cut short by a split has none)."""
    read = FakeRead()
    big = Item("big.pdf", pages=100, delay=0.005, pdf=True)
    got = list(Fanout([big], read, workers=2, part=part))
    ends = [event for _, event in got if isinstance(event, FileDone | FileFailed)]
    assert len(ends) == 1 and got[-1][1] is ends[0]
    starts = {item.first for item in read.started}
    assert len(starts) > 1  # it was split
    notes = ends[0].notes
    assert len(notes) == len(set(notes)) >= 1
    assert {note.split(" p")[1] for note in notes} <= {f"{first}-" for first in starts}
    assert f"{max(starts)}-" in {note.split(" p")[1] for note in notes}  # the last part's


def split(item: Item, monkeypatch: pytest.MonkeyPatch) -> bool:
    """Whether an idle thread took a part of ``item`` (read alone on 2 threads), its pace timed
    by a ``PageClock`` and its read held ``hold`` seconds after its second page (or until cut)."""
    clock = PageClock()
    monkeypatch.setattr(schedule, "time", clock)
    read = FakeRead(clock)
    events(Fanout([item], read, workers=2, part=part))
    return len(read.started) > 1


def test_the_pages_cost_decides_a_split_not_their_count(monkeypatch: pytest.MonkeyPatch) -> None:
    """0.4 s of pages to come is split; 58 pages of 1 ms (a part's start costs more) and a
    file that is no PDF are not, however long the idle thread looks (deterministic: the pace
    is the pages' cost, not the sleeps' on a loaded machine)."""
    slow = Item("slow.pdf", pages=6, delay=0.1, pdf=True, hold=30.0)  # held until it is cut
    assert split(slow, monkeypatch)
    quick = Item("quick.pdf", pages=60, delay=0.001, pdf=True, hold=0.5)
    assert not split(quick, monkeypatch)
    assert not split(Item("long.docx", pages=60, delay=0.01, hold=0.5), monkeypatch)


def test_a_short_ocr_run_is_not_split(monkeypatch: pytest.MonkeyPatch) -> None:
    """Its worker OCRs a page per core already: a split measured slower below MIN_SPLIT pages."""
    scan = Item("scan.pdf", pages=6, delay=0.1, pdf=True, ocr=True, hold=0.5)
    assert not split(scan, monkeypatch)


def test_a_failing_file_is_an_event_in_its_place_and_the_others_are_read() -> None:
    items = [Item("a"), Item("bad", fails=True), Item("c")]
    got = events(Fanout(items, FakeRead(), workers=2))
    assert got == [
        ("a", "a p1"), ("a", None), ("bad", "error: bad: broken"), ("c", "c p1"), ("c", None),
    ]  # fmt: skip


def test_closing_early_closes_every_read_in_flight_and_ends_the_threads() -> None:
    read = FakeRead()
    items = [Item(f"f{n}", pages=1000, delay=0.001) for n in range(4)]
    before = threading.active_count()
    stream = iter(Fanout(items, read, workers=2))
    assert next(stream)[1] is not None
    stream.close()  # type: ignore[attr-defined]
    assert sorted(i.name for i in read.closed) == sorted(i.name for i in read.started)
    assert threading.active_count() == before


def test_local_reads_run_on_the_consumer_thread_in_order() -> None:
    read = FakeRead()
    items = [Item("a.txt", local=True), Item("b.pdf", pdf=True), Item("c.txt", local=True)]
    got = events(Fanout(items, read, workers=2, part=part, local=local))
    assert [text for _, text in got] == ["a.txt p1", None, "b.pdf p1", None, "c.txt p1", None]
    consumer = {threading.get_ident()}
    assert read.threads["a.txt"] == read.threads["c.txt"] == consumer
    assert read.threads["b.pdf"] != consumer


def test_the_item_iterator_failing_is_raised_after_the_items_before_it() -> None:
    def items() -> Iterator[Item]:
        yield Item("a")
        raise OSError("listing failed")

    seen = []
    with pytest.raises(OSError, match="listing failed"):
        for item, _event in Fanout(items(), FakeRead(), workers=2):
            seen.append(item.name)
    assert seen == ["a", "a"]


def size(item: Item) -> int:
    return item.pages


def test_unordered_starts_the_biggest_listed_file_first() -> None:
    read = FakeRead()
    items = [Item("a", pages=2), Item("b", pages=3), Item("big", pages=50), Item("c", pages=1)]
    got = events(Fanout(items, read, workers=1, ordered=False, size=size))
    assert [i.name for i in read.started] == ["big", "b", "a", "c"]
    assert got.count(("big", None)) == 1 and len(got) == 56 + 4


def test_ordered_starts_the_biggest_file_of_the_window_and_keeps_walk_order() -> None:
    read = FakeRead()
    items = [Item("a"), Item("b"), Item("c"), Item("big", pages=20, delay=0.005)]
    got = events(Fanout(items, read, workers=2, size=size))
    assert read.started[0].name == "big"  # one thread took it at once, the other kept order
    assert [name for name, text in got if text is None] == ["a", "b", "c", "big"]


@pytest.mark.timeout(30)
def test_ordered_big_files_ahead_with_full_buffers_never_block_the_consumer() -> None:
    """Later big files fill their buffers while the consumer waits for the first ones: a thread
    always keeps to walk order, so the load ends."""
    pages = 2 * BUFFER
    items = [Item(f"s{n}") for n in range(6)] + [Item(f"big{n}", pages=pages) for n in range(3)]
    got = events(Fanout(items, FakeRead(), workers=2, size=size))
    assert [name for name, text in got if text is None] == [item.name for item in items]
    assert len(got) == 6 * 2 + 3 * (pages + 1)


def read_behind_a_slow_head(files: int) -> int:
    """How many of ``files`` quick files after a slow one the other thread read to their end
    while the consumer waited on the slow one (it waits up to 3 s for all of them)."""
    read = FakeRead()
    others = [Item(f"f{n}") for n in range(files)]

    def slow_head(item: Item, until: Callable[[], int | None]) -> Iterator[LoadEvent]:
        if item.name == "head":
            deadline = time.monotonic() + 3
            while len(read.closed) < files and time.monotonic() < deadline:
                time.sleep(0.01)
        return read(item, until)

    stream = iter(Fanout([Item("head"), *others], slow_head, workers=2))
    assert next(stream)[0].name == "head"
    behind = len([item for item in read.closed if item.name != "head"])
    ends = [item.name for item, event in stream if isinstance(event, FileDone)]
    assert ends == ["head"] + [f"f{n}" for n in range(files)]
    return behind


def test_files_read_and_waiting_for_the_consumer_leave_the_other_thread_reading() -> None:
    """Ordered: a file read to its end holds no look-ahead slot while it waits for the consumer,
    so a slow file at the head (an archive, a scan) does not leave the other worker idle once it
    has read ``AHEAD_PER_WORKER`` files a worker past it."""
    files = 4 * AHEAD_PER_WORKER
    assert read_behind_a_slow_head(files) == files


def test_units_waiting_for_the_consumer_are_bounded_by_their_bytes(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """What files read ahead hold is bounded by ``AHEAD_BYTES`` of units: past it the other
    thread lists no more files until the consumer takes some (here: past the files listed before
    any was read, the head and ``2 * AHEAD_PER_WORKER - 1`` after it)."""
    monkeypatch.setattr(schedule, "AHEAD_BYTES", 1)
    assert read_behind_a_slow_head(4 * AHEAD_PER_WORKER) == 2 * AHEAD_PER_WORKER - 1
