"""Parallel loads (issue 16 §1) with real worker processes: the same units and ids as one worker,
errors and killed workers lose no file, a split PDF equals the whole read, async loads overlap."""

from __future__ import annotations

import asyncio
import json
import os
import signal
import socket
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import docread
import pytest
from conftest import NO_CACHE
from docread.isolation import schedule
from docread.reader import LOCAL_AHEAD
from factories import pdf

from langchain_docread import DocReadLoader

SPLIT_PAGES = 400  # enough for a split to pay (schedule.SPLIT_PAYS: the pages' time, not count)
BODY = "Pages with a paragraph read slowly enough for a split to pay. " * 12


def _unit(u: docread.Unit) -> tuple[Any, ...]:
    body = u.text if isinstance(u, docread.Document) else u.data
    return u.id, dict(u.metadata), body


@pytest.fixture(scope="module")
def folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A mixed folder: PDFs of a few pages, text, markdown, a subfolder."""
    root = tmp_path_factory.mktemp("parallel")
    docs = root / "docs"
    (docs / "sub").mkdir(parents=True)
    for n in range(6):
        pdf(docs / f"report{n}.pdf", [f"Report {n} page {p}\nfigures {n * p}" for p in range(1, 5)])
    for n in range(5):
        (docs / f"note{n}.txt").write_text(f"note {n}\n" * 20)
        (docs / "sub" / f"readme{n}.md").write_text(f"# Title {n}\n\nBody {n}.\n\n## Part\n\nMore.")
    pdf(root / "big.pdf", [f"Page {p} of the long one\n{BODY}" for p in range(1, SPLIT_PAGES + 1)])
    (root / "big-copy.pdf").write_bytes((root / "big.pdf").read_bytes())
    return root


@pytest.fixture(scope="module")
def reader(folder: Path) -> Iterator[docread.Reader]:
    with docread.Reader(folder, NO_CACHE) as r:
        yield r


@pytest.fixture(scope="module")
def whole(folder: Path) -> list[tuple[Any, ...]]:
    """The units of big.pdf and docs/ read by one worker: the read the tests below compare
    theirs with, made once for the module (the 400-page PDF costs ~0.5 s of CPU a read)."""
    with docread.Reader(folder, NO_CACHE) as r:
        return [_unit(u) for u in r.iter_units(["big.pdf", "docs"], workers=1)]


@pytest.fixture(scope="module")
def in_process(folder: Path) -> list[tuple[Any, ...]]:
    """The same units read with isolation off, in this process's one thread (made once)."""
    with docread.Reader(folder, {**NO_CACHE, "isolation": {"enabled": False}}) as r:
        return [_unit(u) for u in r.iter_units(["big.pdf", "docs"], workers=1)]


def test_two_workers_give_the_units_and_ids_of_one(reader: docread.Reader) -> None:
    one = [_unit(u) for u in reader.iter_units("docs", workers=1)]
    two = [_unit(u) for u in reader.iter_units("docs", workers=2)]
    assert len(one) == 6 * 4 + 5 + 5  # pages, text files, markdown files
    assert two == one
    assert len({u[0] for u in two}) == len(two)
    unordered = [_unit(u) for u in reader.iter_units("docs", workers=2, ordered=False)]
    assert sorted(unordered, key=repr) == sorted(one, key=repr)


def test_module_loader_takes_workers(folder: Path, reader: docread.Reader) -> None:
    one = [d.id for d in reader.iter_documents(["docs/sub", "docs/report0.pdf"], workers=1)]
    two = docread.iter_documents(
        ["docs/sub", "docs/report0.pdf"], workspace=folder, config=NO_CACHE, workers=2
    )
    assert [d.id for d in two] == one


def test_a_broken_file_loses_no_other_file(tmp_path: Path, folder: Path) -> None:
    for name in ("a.pdf", "c.pdf"):
        (tmp_path / name).write_bytes((folder / "docs" / "report1.pdf").read_bytes())
    (tmp_path / "b.pdf").write_bytes(b"%PDF-1.7\nnot really a pdf at all")
    (tmp_path / "d.txt").write_text("last file")
    failed: list[tuple[str, type]] = []
    with docread.Reader(tmp_path, NO_CACHE) as r:
        units = list(
            r.iter_units(".", workers=2, on_error=lambda p, e: failed.append((p, type(e))))
        )
    assert failed == [("b.pdf", docread.ExtractionError)]
    assert [u.metadata["file_name"] for u in units] == ["a.pdf"] * 4 + ["c.pdf"] * 4 + ["d.txt"]


def test_a_killed_worker_is_replaced_and_the_folder_completes(
    folder: Path, whole: list[tuple[Any, ...]]
) -> None:
    victim = 0
    with docread.Reader(folder, NO_CACHE) as r:
        got = []
        for unit in r.iter_units(["big.pdf", "docs"], workers=2):
            busy = r.stats().busy  # reading the big PDF
            if not victim and busy:
                victim = busy[0]
                os.kill(victim, signal.SIGKILL)  # a real worker process, mid-job
            got.append(_unit(unit))
        assert victim and victim not in r.stats().workers
    assert got == whole


def test_a_split_pdf_equals_the_whole_read(
    folder: Path, whole: list[tuple[Any, ...]], monkeypatch: pytest.MonkeyPatch
) -> None:
    """A split read gives the whole read's units and ids. The split is forced (a part's start
    counted as free): whether one pays on this machine's pace is test_schedule's."""
    from docread.isolation import schedule

    monkeypatch.setattr(schedule, "PART_START", 0.0)
    with docread.Reader(folder, NO_CACHE) as r:
        split = [_unit(u) for u in r.iter_units("big.pdf", workers=2)]
        jobs = r.stats().jobs
    assert jobs >= 2  # the one file was read by more than one job: it was split
    assert [u[1]["page_number"] for u in split] == list(range(1, SPLIT_PAGES + 1))
    assert split == [u for u in whole if u[1]["source"] == "big.pdf"]


def test_a_split_read_is_cached_whole_once_its_parts_are_in(
    folder: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """No part of a split read is stored as the whole file (the first is cut short), but the
    load stores the file whole once all its parts came: the next read is served from the cache
    and equals the split read."""
    monkeypatch.setattr(schedule, "PART_START", 0.0)  # the split is forced
    config = {"cache": {"enabled": True, "directory": str(tmp_path / "cache")}}
    with docread.Reader(folder, config) as r:
        split = [_unit(u) for u in r.iter_units("big.pdf", workers=2)]
        assert r.stats().jobs >= 2  # it was split
    with docread.Reader(folder, config) as r:
        again = [_unit(u) for u in r.iter_units("big.pdf", workers=1)]
        stats = r.stats()
    assert (stats.reads, stats.cached, stats.jobs) == (1, 1, 0)  # one read, from the cache
    assert again == split and len(again) == SPLIT_PAGES


def test_alazy_load_overlaps_files(folder: Path) -> None:
    loader = DocReadLoader(
        ["big.pdf", "big-copy.pdf"],
        workspace=folder,
        config=NO_CACHE,
        workers=2,
        ordered=False,
    )
    assert len(loader.load()) == 2 * SPLIT_PAGES  # both workers started: neither waits on an import
    arrived: dict[str, list[float]] = {}

    async def run() -> None:
        async for doc in loader.alazy_load():
            arrived.setdefault(doc.metadata["source"], []).append(time.monotonic())

    asyncio.run(run())
    one, two = arrived["big.pdf"], arrived["big-copy.pdf"]
    assert len(one) == len(two) == SPLIT_PAGES
    # each file's pages began to arrive before the other's ended: the files were read at once
    assert max(one[0], two[0]) < min(one[-1], two[-1])


@pytest.fixture
def outbox() -> Iterator[tuple[Any, Any]]:
    """A worker's ``_Outbox`` on one end of a socket pair, and the host's end (Connections)."""
    from multiprocessing.connection import Connection

    from docread.isolation.worker import _Outbox

    host, worker = (Connection(s.detach()) for s in socket.socketpair())
    yield host, _Outbox(worker)
    host.close()
    worker.close()


def test_units_made_while_the_socket_is_busy_go_as_one_message(outbox: tuple[Any, Any]) -> None:
    """The extracting thread sends each unit itself while the socket has room; once the host
    falls behind (here it reads nothing until the end), the units made meanwhile go in batches,
    in order, the job's end after them."""
    from docread.isolation import protocol

    host, box = outbox
    body = "x" * 4000  # a page of text: the socket fills after a few dozen
    units = [docread.Document(f"unit {n} {body}", {"page_number": n}) for n in range(300)]

    def extract() -> None:
        for unit in units:
            box.unit(unit)
        box.send(protocol.done())

    made = threading.Thread(target=extract)
    made.start()
    made.join(0.5)  # the host reads nothing meanwhile: the socket fills, units queue up
    messages = []
    while not messages or messages[-1][0] != "done":
        messages.append(host.recv())
    made.join()
    assert messages[0] == ("units", [units[0]])  # the first unit went out alone, at once
    got = [u for kind, *rest in messages if kind == "units" for u in rest[0]]
    assert [u.text for u in got] == [u.text for u in units]
    assert len(messages) < len(units) // 2  # the rest came in batches


def test_a_slow_extractor_sends_each_unit_itself_at_once(outbox: tuple[Any, Any]) -> None:
    """A unit made ``LINGER`` or more after the last send is on the socket when ``unit``
    returns, sent by the extracting thread (the sender thread is never woken): a slow extractor
    (OCR) never holds a finished unit back, nor a read its first."""
    from docread.isolation import protocol
    from docread.isolation.worker import LINGER

    host, box = outbox
    queued: list[object] = []  # what went to the sender thread
    put = box._queue.put
    box._queue.put = lambda item, **kw: (queued.append(item), put(item, **kw))[1]  # type: ignore[method-assign]
    for n in range(5):
        unit = docread.Document(f"unit {n} " + "x" * 4000, {"page_number": n})
        box.unit(unit)
        assert host.poll(0)  # already on the socket when ``unit`` returned
        assert host.recv() == ("units", [unit])
        time.sleep(LINGER * 1.5)
    box.send(protocol.done())
    assert host.recv() == ("done",)
    assert queued == []


def test_a_fast_extractors_units_come_a_batch_per_linger(outbox: tuple[Any, Any]) -> None:
    """Units made within ``LINGER`` of the last send go as one message once it has passed (the
    host wakes, polls and reads once per batch, not per unit); the first went alone at once."""
    from docread.isolation.worker import LINGER

    host, box = outbox
    units = [docread.Document(f"unit {n}", {"page_number": n}) for n in range(20)]
    began = time.monotonic()
    for unit in units:
        box.unit(unit)
    assert host.recv() == ("units", [units[0]])
    assert host.recv() == ("units", units[1:])  # together, once LINGER passed
    assert time.monotonic() - began >= LINGER


def test_a_page_made_25_ms_after_the_last_send_waits_for_the_pages_after_it(
    monkeypatch: pytest.MonkeyPatch, outbox: tuple[Any, Any]
) -> None:
    """A text PDF's pages on a loaded machine come every 10-25 ms: each such page sent alone
    was a message, a host wake-up, poll and read per page (843-874 messages for the 2,466 pages
    of the corpus PDFs x3 on 2 workers); it waits for the pages after it and they go together.
    The outbox's clock is a fake one moved by hand (the sender thread's wait is what is left of
    ``LINGER`` on it: 25 ms of real time here)."""
    from types import SimpleNamespace

    from docread.isolation import worker as worker_module

    clock = SimpleNamespace(now=1000.0)
    monkeypatch.setattr(worker_module, "time", SimpleNamespace(monotonic=lambda: clock.now))
    host, box = outbox
    units = [docread.Document(f"unit {n}", {"page_number": n}) for n in range(3)]
    box.unit(units[0])
    assert host.recv() == ("units", units[:1])  # the first at once
    clock.now += 0.025  # the next page, 25 ms later
    box.unit(units[1])
    box.unit(units[2])
    assert host.recv() == ("units", units[1:])  # together, not the first of them alone


def test_a_files_end_is_sent_at_once_after_the_units_lingering_before_it(
    monkeypatch: pytest.MonkeyPatch, outbox: tuple[Any, Any]
) -> None:
    """A file's end does not wait for ``LINGER`` to pass: the units queued before it go at
    once, then the end (the worker would idle meanwhile, its next file not yet sent); the next
    file's first unit goes at once too (a batch of small files wakes no sender thread)."""
    from docread.isolation import protocol
    from docread.isolation import worker as worker_module

    monkeypatch.setattr(worker_module, "LINGER", 5.0)
    host, box = outbox
    units = [docread.Document(f"unit {n}", {"page_number": n}) for n in range(3)]
    began = time.monotonic()
    for unit in units:
        box.unit(unit)
    box.send(protocol.done())
    assert host.recv() == ("units", units[:1])
    assert host.recv() == ("units", units[1:]) and host.recv() == ("done",)
    assert time.monotonic() - began < 2.5
    time.sleep(0.2)  # the sender thread done with the end (far less than LINGER)
    box.unit(units[0])  # the next file's first unit goes at once, from this thread
    assert host.poll(0) and host.recv() == ("units", units[:1])


def test_isolated_batched_units_equal_the_in_process_read(
    whole: list[tuple[Any, ...]], in_process: list[tuple[Any, ...]]
) -> None:
    assert len(whole) == SPLIT_PAGES + 6 * 4 + 10 and whole == in_process


def test_an_in_process_load_reads_every_file_in_the_callers_thread(
    folder: Path, in_process: list[tuple[Any, ...]]
) -> None:
    """With isolation off, ``workers=2`` starts no load threads (they would only take turns
    under the GIL: a PDF split over two cost 1.5x the CPU) and gives the one-thread units."""
    with docread.Reader(folder, {**NO_CACHE, "isolation": {"enabled": False}}) as r:
        units = r.iter_units(["big.pdf", "docs"], workers=2)
        two = [_unit(next(units))]
        loading = [t.name for t in threading.enumerate() if t.name.startswith("docread-load")]
        two += [_unit(u) for u in units]
    assert loading == [] and two == in_process


def test_in_process_files_read_by_the_consumer_keep_order_ids_and_errors(
    tmp_path: Path, folder: Path
) -> None:
    """Plain text and markdown of a parallel load run on the caller's thread (``Local``), well
    past the look-ahead window, between PDFs read by workers; a .txt that is really a PDF still
    goes to a worker, and a link out of the workspace is reported once, in order."""
    for n in range(schedule.AHEAD_LOCAL + 40):
        sub = tmp_path / f"d{n // 200}"
        sub.mkdir(exist_ok=True)
        name = f"f{n:04d}.md" if n % 2 else f"f{n:04d}.txt"
        (sub / name).write_text(f"# Note {n}\n\nbody {n}\n" if n % 2 else f"file {n}\n")
    report = (folder / "docs" / "report2.pdf").read_bytes()
    (tmp_path / "d0" / "f0100.txt").write_bytes(report)  # named text, read as a PDF
    (tmp_path / "d3" / "f0601.pdf").write_bytes(report)
    (tmp_path / "d4" / "f0801.md").unlink()
    (tmp_path / "d4" / "f0801.md").symlink_to(folder / "docs" / "note1.txt")  # outside
    runs = []
    for workers, ordered in ((1, True), (2, True), (2, False)):
        failed: list[tuple[str, type]] = []
        with docread.Reader(tmp_path, NO_CACHE) as r:
            units = [
                _unit(u)
                for u in r.iter_units(
                    ".",
                    workers=workers,
                    ordered=ordered,
                    on_error=lambda p, e, f=failed: f.append((p, type(e))),  # type: ignore[misc]
                )
            ]
        runs.append((units, failed))
    (one, one_failed), (two, two_failed), (loose, loose_failed) = runs
    assert one_failed == two_failed == loose_failed == [("d4/f0801.md", docread.PathSecurityError)]
    assert [u[1]["format"] for u in one if u[1]["file_name"] == "f0100.txt"] == ["pdf"] * 4
    assert len(one) == schedule.AHEAD_LOCAL + 40 - 1 + 3 + 4  # link failed; 2 PDFs of 4 pages
    assert two == one
    assert sorted(loose, key=repr) == sorted(one, key=repr)


def test_a_text_name_on_a_pdf_gets_a_worker_while_the_threads_hold_theirs(tmp_path: Path) -> None:
    """The consumer runs a Local read itself; when its content is a PDF it needs a worker while
    both threads hold theirs, parked on big PDFs read ahead: the pool's spare takes it."""
    pages = [f"Page {p}" for p in range(1, 301)]  # more than schedule.BUFFER units each
    (tmp_path / "a0.txt").write_text("a line of plain text\n" * 200_000)  # the caller reads it
    pdf(tmp_path / "b1.txt", ["Really a PDF"])
    pdf(tmp_path / "c2.pdf", pages)
    pdf(tmp_path / "d3.pdf", pages)
    config = {**NO_CACHE, "isolation": {"acquire_timeout": 2}}
    with docread.Reader(tmp_path, config) as r:
        one = [_unit(u) for u in r.iter_units(".", workers=1)]
    with docread.Reader(tmp_path, config) as r:
        two = [_unit(u) for u in r.iter_units(".", workers=2)]
    assert [u[1]["format"] for u in one if u[1]["file_name"] == "b1.txt"] == ["pdf"]
    assert [u[1]["file_name"] for u in one].count("c2.pdf") == 300
    assert two == one


def test_a_text_only_load_stays_on_the_callers_thread(tmp_path: Path) -> None:
    """Files read in-process gain nothing from threads (the GIL): a text-only load with
    ``workers=2`` reads them one after another here, as ``workers=1`` does, and starts no
    thread and no worker process."""
    for n in range(LOCAL_AHEAD * 2):
        (tmp_path / f"n{n:03d}.md").write_text(f"# Note {n}\n\nbody {n}\n")
    with docread.Reader(tmp_path, NO_CACHE) as r:
        before = threading.active_count()
        seen = []
        for unit in r.iter_units(".", workers=2):
            seen.append(_unit(unit))
            assert threading.active_count() == before
        assert (r.stats().started, r.stats().jobs) == (0, 0)  # no worker was ever started
        assert seen == [_unit(u) for u in r.iter_units(".", workers=1)]


@pytest.fixture(scope="module")
def small(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Small files of isolated formats (JSON, CSV, HTML), one broken DOCX among them, and a
    link out of the workspace."""
    root = tmp_path_factory.mktemp("small")
    for n in range(40):
        (root / f"f{n:02d}.json").write_text(json.dumps({"file": n, "items": list(range(n))}))
        (root / f"g{n:02d}.csv").write_text("id,name\n" + "".join(f"{i},r{i}\n" for i in range(n)))
        (root / f"h{n:02d}.html").write_text(f"<html><body><h1>Page {n}</h1><p>x</p></body></html>")
    (root / "h20-broken.docx").write_bytes(b"PK\x03\x04 not a real package")
    (root / "h21-out.json").symlink_to("/etc/hostname")
    return root


def test_small_files_go_in_batches_with_the_units_and_errors_of_one_file_at_a_time(
    small: Path,
) -> None:
    def load(workers: int) -> tuple[list[tuple[Any, ...]], list[tuple[str, str]], int]:
        errors: list[tuple[str, str]] = []
        with docread.Reader(small, NO_CACHE) as r:
            units = [
                _unit(u)
                for u in r.iter_units(
                    ".", workers=workers, on_error=lambda p, e: errors.append((p, type(e).__name__))
                )
            ]
            jobs = r.stats().jobs
        return units, errors, jobs

    one, one_errors, one_jobs = load(1)
    two, two_errors, two_jobs = load(2)
    assert two == one and len(one) == 120
    assert two_errors == one_errors == [
        ("h20-broken.docx", "ExtractionError"), ("h21-out.json", "PathSecurityError"),
    ]  # fmt: skip
    assert 0 < two_jobs * 8 <= one_jobs  # a job per file, or per batch


def test_small_images_are_not_batched_so_their_ocr_spreads_over_the_workers(
    tmp_path: Path,
) -> None:
    """A read of an image OCRs it (seconds, not the milliseconds a batch is for): small images
    each get a job of their own, so two workers OCR two at a time (batched, the corpus's ten
    small images went to one worker and were read one after another)."""
    from factories import text_image

    words = ["north", "south", "east", "west"]
    for n, word in enumerate(words):
        text_image(f"Go {word} now").save(tmp_path / f"p{n}.png")
    with docread.Reader(tmp_path, NO_CACHE) as r:
        units = list(r.iter_units(".", workers=2))
        jobs = r.stats().jobs
    read = " ".join(getattr(u, "text", "").lower() for u in units)
    assert all(word in read for word in words)
    assert jobs == len(words)  # an image a job (batched: one job)


def test_a_batch_closed_early_frees_its_worker(small: Path) -> None:
    with docread.Reader(small, {**NO_CACHE, "isolation": {"workers": 2}}) as r:
        stream = r.iter_units(".", workers=2, on_error=lambda p, e: None)
        next(stream)
        stream.close()
        assert len(list(r.iter_units(".", workers=2, on_error=lambda p, e: None))) == 120


def test_a_worker_killed_in_a_batch_is_replaced_and_every_file_comes_once(
    tmp_path: Path,
) -> None:
    section = "<h2>Part</h2><p>" + "Words in a paragraph of the page. " * 20 + "</p>"
    for n in range(24):
        (tmp_path / f"p{n:02d}.html").write_text(f"<html><body>{section * (80 + n)}</body></html>")
    with docread.Reader(tmp_path, NO_CACHE) as r:
        expected = [_unit(u) for u in r.iter_units(".", workers=1)]
    victim, notes = 0, []
    with docread.Reader(tmp_path, NO_CACHE) as r:
        got = []
        for unit in r.iter_units(".", workers=2, on_note=lambda p, n: notes.append(n)):
            busy = r.stats().busy
            if not victim and busy:
                victim = busy[0]
                os.kill(victim, signal.SIGKILL)  # mid-batch: more of its files are to come
            got.append(_unit(unit))
    assert got == expected and victim
    assert any("read again on a fresh worker" in note for note in notes)


def test_a_file_past_its_timeout_in_a_batch_fails_alone(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The worker is killed at the file's own deadline; the files after it are read on a fresh
    worker (a big page joins the batch here: the limit for batched files is raised). The limit
    sits near the geometric middle of a small file's first read (~0.1 s, a worker's start
    included) and the big one's (~8 s), so a loaded machine slows both without crossing it."""
    monkeypatch.setattr("docread.isolation.load.BATCH_SMALL", 32 << 20)
    monkeypatch.setattr("docread.isolation.load.BATCH_BYTES", 64 << 20)
    section = "<h2>Part</h2><p>" + "Words in a paragraph of the page. " * 20 + "</p>"
    for n in range(6):
        (tmp_path / f"{'a' if n < 2 else 'c'}{n}.html").write_text(f"<p>small {n}</p>")
    (tmp_path / "b-big.html").write_text(f"<html><body>{section * 24000}</body></html>")
    errors: list[tuple[str, str]] = []
    config = {**NO_CACHE, "global_timeout": 1.0}
    with docread.Reader(tmp_path, config) as r:
        texts = [
            u.text
            for u in r.iter_units(
                ".", workers=2, on_error=lambda p, e: errors.append((p, type(e).__name__))
            )
        ]
        jobs = r.stats().jobs
    assert errors == [("b-big.html", "ExtractionTimeoutError")]
    assert [t.split()[-1] for t in texts] == ["0", "1", "2", "3", "4", "5"]
    assert jobs <= 2  # one batch job, and one more for the files after it if its worker was killed
