"""Faults lose nothing: a worker killed mid-load is replaced and its file read on, a read that
cannot get a worker says so quickly, shutdown is quiet, the cache stays right under concurrency.

Fakes are registered per test as formats of their own (read with ``format_hint``); workers
import them by dotted path like any real extractor. Kills are real SIGKILLs of worker pids.
"""

from __future__ import annotations

import asyncio
import os
import signal
import subprocess
import sys
import textwrap
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import docread
import pytest
from docread import formats
from docread.extractors.base import Context, Extractor
from docread.model import Document
from docread.source import Source

pytestmark = pytest.mark.timeout(180)


class Paced(Extractor):
    """One Document per line, ``line N of FILE``; a line ``wait`` holds until ``<file>.go``
    exists (20 s at most), a line ``die`` SIGKILLs the worker itself (every time)."""

    name = "fake_paced"
    isolated = True

    def extract(self, source: Source, ctx: Context) -> Iterator[Document]:
        lines = source.read_bytes().decode().splitlines()
        for number, line in enumerate(lines, 1):
            if line == "wait":
                go = Path(ctx.info.path).with_suffix(".go")  # beside the file
                deadline = time.monotonic() + 20
                while not go.exists() and time.monotonic() < deadline:
                    time.sleep(0.02)
            if line == "die":
                os.kill(os.getpid(), signal.SIGKILL)
            yield Document(f"line {number} of {ctx.info.name}", {"page_number": number})


@pytest.fixture(autouse=True)
def fakes(monkeypatch: pytest.MonkeyPatch) -> None:
    fmt = formats.Format(
        Paced.name, "pdf", "application/x-fake", extractor=f"{__name__}:{Paced.__qualname__}"
    )
    monkeypatch.setitem(formats.BY_KEY, Paced.name, fmt)


def _config(**isolation: object) -> dict[str, object]:
    return {
        "cache": {"enabled": False},
        "global_timeout": 60,
        "isolation": {"workers": 1, **isolation},
    }


def test_worker_sigkilled_mid_folder_load_is_replaced_and_nothing_is_lost(tmp_path: Path) -> None:
    folder = tmp_path / "docs"
    folder.mkdir()
    (folder / "a.bin").write_text("1\n2\n")
    (folder / "b.bin").write_text("1\nwait\n3\n4\n")  # the worker is killed while it waits
    (folder / "c.bin").write_text("1\n2\n3\n")
    errors: list[tuple[str, Exception]] = []
    notes: list[str] = []
    seen: list[str] = []
    with docread.Reader(tmp_path, config=_config()) as reader:
        units = reader.iter_units(
            "docs", format_hint="fake_paced", on_error=lambda p, e: errors.append((p, e)),
            on_note=lambda p, n: notes.append(n),
        )  # fmt: skip
        for unit in units:
            assert isinstance(unit, Document)
            seen.append(unit.text)
            if unit.text == "line 1 of b.bin":  # b's worker now waits for b.go: kill it
                [pid] = reader.stats().workers
                os.kill(pid, signal.SIGKILL)
                time.sleep(0.2)
                (folder / "b.go").touch()  # the fresh worker goes straight through
    assert errors == []
    assert seen == [
        "line 1 of a.bin", "line 2 of a.bin",
        "line 1 of b.bin", "line 2 of b.bin", "line 3 of b.bin", "line 4 of b.bin",
        "line 1 of c.bin", "line 2 of c.bin", "line 3 of c.bin",
    ]  # fmt: skip
    assert any("killed by SIGKILL" in n and "fresh worker" in n for n in notes)


def test_a_file_that_kills_its_worker_twice_goes_to_on_error_once(tmp_path: Path) -> None:
    folder = tmp_path / "docs"
    folder.mkdir()
    (folder / "a.bin").write_text("1\n")
    (folder / "b.bin").write_text("1\ndie\n")
    (folder / "c.bin").write_text("1\n")
    errors: list[tuple[str, Exception]] = []
    with docread.Reader(tmp_path, config=_config()) as reader:
        seen = [
            u.text
            for u in reader.iter_units(
                "docs", format_hint="fake_paced", on_error=lambda p, e: errors.append((p, e))
            )
            if isinstance(u, Document)
        ]
    assert seen == ["line 1 of a.bin", "line 1 of b.bin", "line 1 of c.bin"]  # b's first once
    [(path, error)] = errors
    assert path.endswith("b.bin") and isinstance(error, docread.WorkerCrashedError)
    assert "killed by SIGKILL" in str(error) and "also on a fresh worker" in str(error)


def test_read_behind_held_iterators_fails_fast_naming_the_setting(tmp_path: Path) -> None:
    (tmp_path / "a.bin").write_text("1\n2\n3\n")
    (tmp_path / "b.bin").write_text("1\n")
    with docread.Reader(tmp_path, config=_config(acquire_timeout=1)) as reader:
        held = reader.iter_documents("a.bin", format_hint="fake_paced")
        assert next(held).text == "line 1 of a.bin"  # the only worker is held, not read
        start = time.monotonic()
        with pytest.raises(docread.ExtractionTimeoutError, match=r"isolation\.acquire_timeout=1"):
            reader.read("b.bin", format_hint="fake_paced")
        assert time.monotonic() - start < 10  # not the 60 s global timeout
        assert [d.text for d in held] == ["line 2 of a.bin", "line 3 of a.bin"]
        held.close()
        assert reader.read("b.bin", format_hint="fake_paced").text == "line 1 of b.bin"


def test_read_behind_a_working_worker_waits_past_the_acquire_timeout(tmp_path: Path) -> None:
    (tmp_path / "slow.bin").write_text("1\nwait\n")
    (tmp_path / "b.bin").write_text("1\n")
    with docread.Reader(tmp_path, config=_config(acquire_timeout=0.5)) as reader:
        slow = threading.Thread(
            target=reader.read, args=("slow.bin",), kwargs={"format_hint": "fake_paced"}
        )
        slow.start()
        while not reader.stats().workers:
            time.sleep(0.02)
        time.sleep(0.3)
        threading.Timer(2, (tmp_path / "slow.go").touch).start()  # the worker works for 2 s
        assert reader.read("b.bin", format_hint="fake_paced").text == "line 1 of b.bin"
        slow.join()


def test_host_exit_with_an_open_iterator_prints_no_worker_traceback(tmp_path: Path) -> None:
    import pymupdf

    doc = pymupdf.open()
    for n in range(300):
        doc.new_page().insert_text((72, 72), f"page {n} " + "words " * 200)
    doc.save(tmp_path / "long.pdf")
    doc.close()
    script = textwrap.dedent(
        f"""
        import docread
        r = docread.Reader({str(tmp_path)!r}, config={{"cache": {{"enabled": False}}}})
        units = r.iter_documents("long.pdf")
        print(next(units).metadata["page_number"], flush=True)
        """
    )  # the iterator stays open and the Reader unclosed: the interpreter exits
    out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=90)
    assert out.returncode == 0 and out.stdout.strip() == "1"
    assert "Traceback" not in out.stderr and "Error" not in out.stderr, out.stderr


async def test_200_concurrent_areads_all_answer(tmp_path: Path) -> None:
    for i in range(8):
        (tmp_path / f"f{i}.bin").write_text(f"{i}\n")
    with docread.Reader(tmp_path, config=_config(workers=2)) as reader:
        calls = [
            reader.aread(f"f{i % 8}.bin", format_hint="fake_paced", dedupe=False)
            for i in range(200)
        ]
        results = await asyncio.wait_for(asyncio.gather(*calls), 150)
    assert [r.text for r in results] == [f"line 1 of f{i % 8}.bin" for i in range(200)]


def test_three_processes_sharing_a_cache_get_right_results(tmp_path: Path) -> None:
    import pymupdf

    for i in range(6):
        doc = pymupdf.open()
        doc.new_page().insert_text((72, 72), f"content of file {i}")
        doc.save(tmp_path / f"f{i}.pdf")
        doc.close()
    script = textwrap.dedent(
        f"""
        import sys, docread
        order = list(range(6))[:: 1 if int(sys.argv[1]) % 2 else -1]
        config = {{"cache": {{"directory": {str(tmp_path / "cache")!r}}}}}
        with docread.Reader({str(tmp_path)!r}, config=config) as r:
            for _ in range(3):
                for i in order:
                    text = r.read(f"f{{i}}.pdf", dedupe=False).text
                    assert f"content of file {{i}}" in text, (i, text)
                    assert all(f"file {{j}}" not in text for j in range(6) if j != i)
        """
    )
    procs = [
        subprocess.Popen([sys.executable, "-c", script, str(n)], stderr=subprocess.PIPE, text=True)
        for n in range(3)
    ]
    for proc in procs:
        _, err = proc.communicate(timeout=150)
        assert proc.returncode == 0, err
    with docread.Reader(tmp_path, config={"cache": {"directory": str(tmp_path / "cache")}}) as r:
        assert all(r.read(f"f{i}.pdf").cached for i in range(6))
