"""Worker-process isolation: hard global timeout, memory rlimit, crashes, streaming, clean shutdown.

The extractors here are fakes registered for each test as formats of their own (read with
``format_hint``); workers import them by dotted path like any real extractor, so this module
imports nothing heavy at its top (a worker's start counts against the 3 s global timeout).
"""

from __future__ import annotations

import ast
import asyncio
import os
import signal
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

import docread
import psutil
import pytest
from docread import formats
from docread.extractors.base import Context, Extractor
from docread.extractors.programs import run_tool
from docread.isolation import processes
from docread.model import Document
from docread.source import Source

if TYPE_CHECKING:
    from conftest import MakeReader

pytestmark = pytest.mark.timeout(120)


class _Fake(Extractor):
    """An isolated fake: the registered format key is its ``name``."""

    isolated = True


class SleepForever(_Fake):
    name = "fake_sleep"

    def extract(self, source: Source, ctx: Context) -> Iterator[Document]:
        yield Document("started")
        time.sleep(3600)  # never checks the deadline: only the host's hard kill ends this


class AllocateForever(_Fake):
    name = "fake_alloc"

    def extract(self, source: Source, ctx: Context) -> Iterator[Document]:
        hoard = []
        while True:
            hoard.append(bytearray(64 * 1024 * 1024))
        yield Document("unreachable")


class Abort(_Fake):
    name = "fake_abort"

    def extract(self, source: Source, ctx: Context) -> Iterator[Document]:
        if source.read_bytes() == b"segv":
            import ctypes

            ctypes.string_at(0)  # a parser's segfault
        os.abort()
        yield Document("unreachable")


class StubbornTool(_Fake):
    """Starts a program that ignores SIGTERM; its pid goes to ``<file>.pid``."""

    name = "fake_tool"

    def extract(self, source: Source, ctx: Context) -> Iterator[Document]:
        pidfile = Path(ctx.info.path).with_suffix(".pid")  # beside the file
        tool_timeout = float(source.read_bytes().decode() or 60)
        script = f"echo $$ > {pidfile}; trap '' TERM; exec sleep 600"
        run_tool(
            ["sh", "-c", script], timeout=tool_timeout, what="stubborn tool", path=ctx.info.source
        )
        yield Document("unreachable")


class Echo(_Fake):
    """One Document per line of the file, each saying which process made it."""

    name = "fake_echo"

    def extract(self, source: Source, ctx: Context) -> Iterator[Document]:
        lines = source.read_bytes().decode().splitlines()
        for number, line in enumerate(lines, 1):
            if line == "pause":
                time.sleep(2)
            if line == "wait":  # until the test creates <file>.go (at most 20 s)
                go = Path(ctx.info.path).with_suffix(".go")
                deadline = time.monotonic() + 20
                while not go.exists() and time.monotonic() < deadline:
                    time.sleep(0.02)
            yield Document(f"{line} from {os.getpid()}", {"page_number": number})
        ctx.set_header("Pages", len(lines))
        ctx.warn("echo finished")


class Hoard(_Fake):
    """Keeps ``<file content>`` MB alive in the worker after the job (a parser's grown heap)."""

    name = "fake_hoard"
    kept: list[bytearray] = []

    def extract(self, source: Source, ctx: Context) -> Iterator[Document]:
        size = int(source.read_bytes()) * 1024 * 1024
        Hoard.kept.append(bytearray(size))  # RLIMIT_DATA and VmData count it, touched or not
        yield Document(f"hoarded by {os.getpid()}")


class Environment(_Fake):
    """The worker's view of the host: an environment variable, a module, its parent process."""

    name = "fake_env"

    def extract(self, source: Source, ctx: Context) -> Iterator[Document]:
        loaded = [m for m in ("pymupdf", "pymupdf.layout", "onnxruntime") if m in sys.modules]
        found = {
            "env": dict(os.environ),
            "loaded": loaded,
            "pid": os.getpid(),
            "parent": os.getppid(),
            "session": os.getsid(0) == os.getpid(),
        }
        yield Document(repr(found))


class Share(_Fake):
    """The images this worker OCRs at once: its share of the cores, as its pool told it."""

    name = "fake_share"

    def extract(self, source: Source, ctx: Context) -> Iterator[Document]:
        from docread.extractors.ocr import share

        yield Document(str(share()))


class EchoInProcess(Echo):
    name = "fake_echo_inproc"
    isolated = False


FAKES = (
    SleepForever, AllocateForever, Abort, StubbornTool, Echo, Hoard, Environment, Share,
    EchoInProcess,
)  # fmt: skip
# the global timeout covers starting a worker (a Python importing docread and this module): on a
# loaded machine (the suite on every core) that alone can take seconds, so only the tests about
# the global timeout itself use a short one (``strict``)
CONFIG = {
    "cache": {"enabled": False},
    "global_timeout": 30,
    "memory": {"max_worker_mb": 768},
    "isolation": {"workers": 2},
}


@pytest.fixture(autouse=True)
def fakes(monkeypatch: pytest.MonkeyPatch) -> None:
    for cls in FAKES:
        fmt = formats.Format(
            cls.name, "pdf", "application/x-fake", extractor=f"{cls.__module__}:{cls.__qualname__}"
        )
        monkeypatch.setitem(formats.BY_KEY, cls.name, fmt)


@pytest.fixture
def iso(tmp_path: Path) -> Iterator[docread.Reader]:
    with docread.Reader(tmp_path, config=CONFIG) as r:
        yield r


@pytest.fixture
def strict(tmp_path: Path) -> Iterator[docread.Reader]:
    """Like ``iso``, with a global timeout of 3 s."""
    with docread.Reader(tmp_path, config={**CONFIG, "global_timeout": 3}) as r:
        yield r


def _file(tmp_path: Path, text: str = "x", name: str = "f.bin") -> str:
    (tmp_path / name).write_text(text)
    return name


def _gone(pid: int, within: float = 10.0) -> bool:
    """The process ends (exits, or is a zombie) within ``within`` seconds: a SIGKILL is sent at
    once, but on a loaded machine (the suite on every core) the process takes a moment to die."""
    deadline = time.monotonic() + within
    while True:
        try:
            if psutil.Process(pid).status() == psutil.STATUS_ZOMBIE:
                return True
        except psutil.NoSuchProcess:
            return True
        if time.monotonic() > deadline:
            return False
        time.sleep(0.05)


def test_hung_parser_is_killed_at_the_global_timeout(
    strict: docread.Reader, tmp_path: Path
) -> None:
    name = _file(tmp_path)
    strict.read(_file(tmp_path, "a", "warm.bin"), format_hint="fake_echo")
    [pid] = _pids(strict)
    start = time.monotonic()
    with pytest.raises(
        docread.ExtractionTimeoutError, match=r"f\.bin.*global timeout of 3 s.*pages="
    ):
        strict.read(name, format_hint="fake_sleep")
    assert time.monotonic() - start < 3 + 2
    assert _gone(pid)
    assert "a from" in strict.read("warm.bin", format_hint="fake_echo", dedupe=False).text


def test_unbounded_allocation_is_a_typed_error_and_the_host_lives(
    iso: docread.Reader, tmp_path: Path
) -> None:
    with pytest.raises(
        docread.ExtractionError, match=r"f\.bin: ran out of memory.*max_worker_mb=768"
    ):
        iso.read(_file(tmp_path), format_hint="fake_alloc")
    assert "ok from" in iso.read(_file(tmp_path, "ok", "g.bin"), format_hint="fake_echo").text


@pytest.mark.parametrize("how", ["SIGABRT", "SIGSEGV"])
def test_crash_is_worker_crashed_and_the_next_read_succeeds(
    iso: docread.Reader, tmp_path: Path, how: str
) -> None:
    content = "segv" if how == "SIGSEGV" else "abort"
    with pytest.raises(
        docread.WorkerCrashedError, match=rf"f\.bin: the fake_abort .*killed by {how}"
    ):
        iso.read(_file(tmp_path, content), format_hint="fake_abort")
    result = iso.read(_file(tmp_path, "next", "g.bin"), format_hint="fake_echo")
    assert result.documents[0].text.startswith("next from ")


def test_tool_ignoring_sigterm_is_killed_by_its_own_timeout(
    iso: docread.Reader, tmp_path: Path
) -> None:
    with pytest.raises(
        docread.ExtractionTimeoutError, match="stubborn tool took longer than its timeout of 1 s"
    ):
        iso.read(_file(tmp_path, "1"), format_hint="fake_tool")
    assert _gone(int((tmp_path / "f.pid").read_text()))


def test_tool_ignoring_sigterm_dies_with_the_worker_at_the_global_timeout(
    strict: docread.Reader, tmp_path: Path
) -> None:
    with pytest.raises(docread.ExtractionTimeoutError, match="global timeout"):
        strict.read(_file(tmp_path, "600"), format_hint="fake_tool")
    assert _gone(int((tmp_path / "f.pid").read_text()))


def test_isolated_units_come_from_a_worker_in_order(iso: docread.Reader, tmp_path: Path) -> None:
    result = iso.read(_file(tmp_path, "one\ntwo\nthree"), format_hint="fake_echo")
    texts = [d.text for d in result.documents]
    worker = texts[0].rsplit(" ", 1)[1]
    assert int(worker) != os.getpid()
    assert texts == [f"{w} from {worker}" for w in ("one", "two", "three")]
    assert [d.metadata["page_number"] for d in result.documents] == [1, 2, 3]
    assert result.documents[0].metadata["source"] == "f.bin"
    assert result.header == {"Pages": "3"}
    assert result.notes == ["echo finished"]


def test_in_process_extractors_stay_in_process(iso: docread.Reader, tmp_path: Path) -> None:
    result = iso.read(_file(tmp_path, "one"), format_hint="fake_echo_inproc")
    assert result.text == f"one from {os.getpid()}"
    assert _pids(iso) == []


def test_units_stream_before_the_extractor_finishes(iso: docread.Reader, tmp_path: Path) -> None:
    units = iso.iter_documents(_file(tmp_path, "first\nwait\nlast"), format_hint="fake_echo")
    start = time.monotonic()
    assert next(units).text.startswith("first")  # while the worker waits for f.go
    assert time.monotonic() - start < 15  # without streaming it would wait the full 20 s
    (tmp_path / "f.go").touch()
    assert [d.text.split()[0] for d in units] == ["wait", "last"]


def test_a_busy_worker_ocrs_with_its_share_of_the_cores(
    iso: docread.Reader, tmp_path: Path
) -> None:
    """A worker alone OCRs one image per usable core; while another worker of its pool is busy,
    the cores are shared (two workers on two cores: one tesseract each, not two)."""
    from docread.extractors.ocr import workers

    probe = _file(tmp_path, "", "probe.bin")
    assert iso.read(probe, format_hint="fake_share").text == str(workers())
    held = iso.iter_documents(_file(tmp_path, "first\nwait"), format_hint="fake_echo")
    next(held)  # its worker waits for f.go: busy
    shared = iso.read(probe, format_hint="fake_share", dedupe=False).text
    assert shared == str(max(1, workers() // 2))
    (tmp_path / "f.go").touch()
    assert len(list(held)) == 1
    assert iso.read(probe, format_hint="fake_share", dedupe=False).text == str(workers())


def test_a_load_of_one_worker_ocrs_one_image_at_a_time(iso: docread.Reader, tmp_path: Path) -> None:
    """``workers`` is a load's core budget: one worker OCRs one image at a time (on every core
    it left a second worker of another load no idle core), even where the pool has more."""
    probe = _file(tmp_path, "", "probe.bin")
    units = list(iso.iter_units([probe], format_hint="fake_share", workers=1))
    assert [u.text for u in units] == ["1"]


def test_a_load_of_two_workers_with_one_busy_ocrs_two_images_at_once(
    iso: docread.Reader, tmp_path: Path
) -> None:
    """A busy worker alone in a 2-worker load OCRs with both of the load's cores (as many as
    are usable)."""
    from docread.extractors.ocr import workers

    probe = _file(tmp_path, "", "probe.bin")
    units = list(iso.iter_units([probe], format_hint="fake_share", workers=2))
    assert [u.text for u in units] == [str(min(2, workers()))]


def test_abandoned_iterator_frees_its_worker_for_reuse(iso: docread.Reader, tmp_path: Path) -> None:
    name = _file(tmp_path, "\n".join(f"line {i}" for i in range(5000)))
    pids = set()
    for _ in range(3):
        units = iso.iter_documents(name, format_hint="fake_echo")
        pids.add(next(units).text.rsplit(" ", 1)[1])
        units.close()
    assert len(pids) == 1  # the same worker served all three after each cancel
    assert len(list(iso.iter_documents(name, format_hint="fake_echo"))) == 5000


def test_reader_is_usable_from_threads(iso: docread.Reader, tmp_path: Path) -> None:
    names = [_file(tmp_path, f"file {i}", f"f{i}.bin") for i in range(6)]
    results: dict[str, str] = {}

    def work(name: str) -> None:
        results[name] = iso.read(name, format_hint="fake_echo").text

    threads = [threading.Thread(target=work, args=(n,)) for n in names]
    for t in threads:
        t.start()
    for t in threads:
        t.join(30)
    assert sorted(v.split(" from ")[0] for v in results.values()) == [f"file {i}" for i in range(6)]
    assert len(_pids(iso)) <= 2


async def test_aread_does_not_block_the_event_loop(
    iso: docread.Reader, tmp_path: Path, gate_reads: Any
) -> None:
    # the read waits until the loop has ticked: a read on the loop's thread fails, and no sleep
    # in the extractor races the 3 s global timeout on a loaded machine
    ticker = gate_reads(iso)
    read = iso.aread(_file(tmp_path, "a\nb"), format_hint="fake_echo")
    result, _ = await asyncio.wait_for(asyncio.gather(read, ticker()), 10)
    assert [d.text.split(" from ")[0] for d in result.documents] == ["a", "b"]


def test_no_worker_outlives_close(tmp_path: Path) -> None:
    reader = docread.Reader(tmp_path, config=CONFIG)
    busy = [
        reader.iter_documents(_file(tmp_path, "a\npause\nb", name), format_hint="fake_echo")
        for name in ("a.bin", "b.bin")
    ]
    for units in busy:
        next(units)
    pids = _pids(reader)
    assert len(pids) == 2
    reader.close()
    assert all(_gone(p) for p in pids)
    with pytest.raises(docread.WorkerCrashedError):
        next(busy[0])
    children = psutil.Process().children(recursive=True)
    assert not [c for c in children if c.pid in pids]


def test_module_level_read_shares_one_pool(tmp_path: Path) -> None:
    name = _file(tmp_path, "hi")
    first = docread.read(name, workspace=tmp_path, config=CONFIG, format_hint="fake_echo").text
    second = docread.read(name, workspace=tmp_path, config=CONFIG, format_hint="fake_echo").text
    assert first == second  # same worker pid: no new process per call


def test_isolation_can_be_disabled(tmp_path: Path) -> None:
    config = {**CONFIG, "isolation": {"enabled": False}}
    with docread.Reader(tmp_path, config=config) as reader:
        assert (
            reader.read(_file(tmp_path, "a"), format_hint="fake_echo").text
            == f"a from {os.getpid()}"
        )


def _pids(reader: docread.Reader) -> list[int]:
    return list(reader.stats().workers)


def test_real_pdf_and_archive_members_are_read_in_a_worker(
    make_reader: MakeReader, tmp_path: Path
) -> None:
    from factories import pdf, zip_archive

    pdf(tmp_path / "doc.pdf", [f"Isolated page {n}" for n in (1, 2, 3)])
    zip_archive(tmp_path / "bundle.zip", {"inner/notes.txt": b"hello from the member\n"})
    reader = make_reader()
    result = reader.read("doc.pdf", pages="2")
    assert [d.metadata["page_number"] for d in result.documents] == [2]
    assert "Isolated page 2" in result.documents[0].text
    docs = list(reader.iter_documents("bundle.zip"))  # the member's pipeline runs in the worker
    assert _pids(reader)
    member = [d for d in docs if d.metadata.get("member") == "inner/notes.txt"]
    assert member and "hello from the member" in member[0].text


@pytest.mark.parametrize("ending", ["exit", "sigkill"])
def test_workers_end_with_the_host_process(tmp_path: Path, ending: str) -> None:
    import subprocess
    import sys
    import zipfile

    with zipfile.ZipFile(tmp_path / "bundle.zip", "w") as z:
        z.writestr("a.txt", "member text\n")
    last = "os.kill(os.getpid(), signal.SIGKILL)" if ending == "sigkill" else "pass"
    script = (
        "import os, signal, docread\n"
        f"r = docread.Reader({str(tmp_path)!r}, config={{'cache': {{'enabled': False}}}})\n"
        "r.read('bundle.zip')\n"
        "print(r.stats().workers[0], flush=True)\n"
        f"{last}\n"  # never closed: interpreter exit (or the worker's parent watch) must end it
    )
    out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=60)
    pid = int(out.stdout.split()[0])
    assert _gone(pid)


def test_forked_child_gets_its_own_workers(iso: docread.Reader, tmp_path: Path) -> None:
    name = _file(tmp_path, "hello")
    parent_text = iso.read(name, format_hint="fake_echo").text
    read_end, write_end = os.pipe()
    pid = os.fork()
    if pid == 0:  # the child reads through the inherited Reader, then leaves without cleanup
        try:
            text = iso.read(name, format_hint="fake_echo", dedupe=False).text
            iso.close()
            os.write(write_end, text.encode())
        finally:
            os._exit(0)
    os.close(write_end)
    os.waitpid(pid, 0)
    child_text = os.read(read_end, 1000).decode()
    os.close(read_end)
    assert child_text.startswith("hello from ") and child_text != parent_text
    assert (
        iso.read(name, format_hint="fake_echo", dedupe=False).text == parent_text
    )  # ours survived


def test_a_worker_that_grew_past_half_its_limit_is_replaced(
    tmp_path: Path, make_reader: MakeReader
) -> None:
    """A worker still holding 400 of its 768 MB after a job would fail the next big file: it is
    replaced; one holding 20 MB is kept."""
    (tmp_path / "big.bin").write_text("400")
    (tmp_path / "small.bin").write_text("20")
    reader = make_reader(**{**CONFIG, "isolation": {"workers": 1}})

    def pid_of(name: str) -> str:
        return reader.read(name, format_hint="fake_hoard").documents[0].text.split()[-1]

    small = pid_of("small.bin")
    assert pid_of("small.bin") == small  # a modest worker is reused
    grown = pid_of("big.bin")
    assert grown == small
    assert pid_of("small.bin") != grown  # the grown one was replaced after its job


def test_workers_are_forked_warm_from_a_template_with_the_hosts_environment(
    iso: docread.Reader, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A worker is forked from a template that imported PyMuPDF once, without its layout model
    and onnxruntime; it runs in its own session with the host's environment of the moment (its
    allowed part)."""
    name = _file(tmp_path)
    iso.read(name, format_hint="fake_env")  # the template is up
    monkeypatch.setenv("TESSDATA_PREFIX", str(tmp_path / "set after the template started"))
    for pid in _pids(iso):
        os.kill(pid, signal.SIGKILL)
    found = ast.literal_eval(iso.read(name, format_hint="fake_env").text)
    assert found["env"]["TESSDATA_PREFIX"] == str(tmp_path / "set after the template started")
    assert found["loaded"] == ["pymupdf"]  # imported before the fork, the layout model never
    assert found["session"]
    template = psutil.Process(found["parent"])
    assert template.ppid() == os.getpid() and "docread.isolation.template" in template.cmdline()[-1]


def test_the_template_imports_what_a_worker_runs_and_not_the_public_api() -> None:
    """``import docread`` imports its public names on first use, so the template (whose imports
    run this package first) imports PyMuPDF and the worker's modules, not the Reader, the
    outline or asyncio: its imports are the cold start's longer path."""
    import subprocess

    preload = (
        "import sys\n"
        "from docread.isolation.template import FIRST\n"
        "from docread.extractors.pdf.library import load_pymupdf\n"
        "load_pymupdf()\n"
        "for name in FIRST: __import__(name)\n"
        "print(sorted({'docread.reader', 'docread.outline.reading', 'asyncio'} & set(sys.modules)))"
    )
    env = {**os.environ, "DOCREAD_TEMPLATE": "1"}  # as the template runs: it starts none
    run = [sys.executable, "-c", preload]
    assert subprocess.run(run, capture_output=True, text=True, check=True, env=env).stdout == "[]\n"
    assert docread.Reader.__module__ == "docread.reader" and "Reader" in dir(docread)
    with pytest.raises(AttributeError, match="no attribute 'Nothing'"):
        docread.Nothing  # noqa: B018


def test_a_pdf_read_in_a_worker_imports_neither_pymupdf_nor_the_engine_nor_asyncio_in_the_host(
    tmp_path: Path,
) -> None:
    """The host learns that a PDF is isolated, and its extractor's version for the cache key,
    from the class in ``extractors/pdf/__init__.py``: the engine (``pdf.document``: PyMuPDF,
    OCR, the structure passes) is the worker's import, not on the cold start's host path; nor
    is asyncio (``Reader.aread``'s, 0.1 s with ssl) for a caller that never awaits."""
    import subprocess

    from factories import pdf

    pdf(tmp_path / "one.pdf", ["one page of text"])
    read = (
        "import sys, docread\n"
        f"with docread.Reader({str(tmp_path)!r}, {{'cache': {{'directory': {str(tmp_path / 'c')!r}}}}}) as r:\n"
        "    unit = next(iter(r.iter_units('one.pdf')))\n"
        "print(unit.text.strip())\n"
        "print(sorted(m for m in sys.modules\n"
        "             if m in ('pymupdf', 'asyncio') or m.startswith('docread.extractors.pdf.')))"
    )
    run = subprocess.run([sys.executable, "-c", read], capture_output=True, text=True, check=True)
    assert run.stdout.splitlines() == ["one page of text", "[]"], run.stdout


def test_the_readers_import_starts_the_template_the_first_worker_forks_from(
    tmp_path: Path,
) -> None:
    """Asking for ``docread.Reader`` starts the worker template, so its imports run beside the
    Reader's: the first Reader's worker is its child. A host that reads nothing leaves none
    behind (killed at exit, even while it is still importing)."""
    import subprocess

    import pymupdf

    doc = pymupdf.open()
    doc.new_page().insert_text((72, 72), "one page")
    doc.save(tmp_path / "one.pdf")
    find = (
        "import docread, psutil\n"
        "docread.Reader\n"
        "[template] = [p.pid for p in psutil.Process().children()\n"
        "              if 'docread.isolation.template' in ' '.join(p.cmdline())]\n"
    )
    read = (
        f"with docread.Reader({str(tmp_path)!r}, {CONFIG!r}) as r:\n"
        "    r.read('one.pdf')\n"
        "    [worker] = r.stats().workers\n"
        "    print(template, psutil.Process(worker).ppid() == template)\n"
    )
    run = [sys.executable, "-c", find + read]
    pid, forked = subprocess.run(run, capture_output=True, text=True, check=True).stdout.split()
    assert forked == "True" and _gone(int(pid))
    run = [sys.executable, "-c", find + "print(template)"]
    pid = subprocess.run(run, capture_output=True, text=True, check=True, timeout=30).stdout
    assert _gone(int(pid), within=1)


def test_a_template_that_died_is_started_again(iso: docread.Reader, tmp_path: Path) -> None:
    name = _file(tmp_path)
    first = ast.literal_eval(iso.read(name, format_hint="fake_env").text)["parent"]
    os.kill(first, signal.SIGKILL)
    assert _gone(first)
    for pid in _pids(iso):  # the workers outlive their template; these go too
        os.kill(pid, signal.SIGKILL)
        assert _gone(pid)
    again = ast.literal_eval(iso.read(name, format_hint="fake_env").text)["parent"]
    assert again != first and psutil.Process(again).ppid() == os.getpid()


SECRETS = {"DOCREAD_MCP_TOKEN": "mcp-token-s3cret", "AWS_SECRET_ACCESS_KEY": "aws-key-s3cret"}


def _environ(environ_file: Path) -> dict[str, str]:
    """An environment as the kernel holds it (``/proc/<pid>/environ``: NUL-separated)."""
    items = environ_file.read_bytes().decode().split("\0")
    return dict(item.split("=", 1) for item in items if "=" in item)


def _no_secret(env: dict[str, str]) -> None:
    assert not set(SECRETS) & set(env) and not set(SECRETS.values()) & set(env.values())
    assert "PATH" in env and env.get("LC_TIME") == "C"  # what programs need is passed on


@pytest.mark.parametrize("isolated", [True, False], ids=["workers", "in-process"])
def test_secrets_in_the_hosts_environment_reach_no_process_docread_starts(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, isolated: bool
) -> None:
    """Tokens and keys in the host's environment when the template starts: neither the template,
    a worker, nor the tesseract a worker (or, isolation off, the host) runs holds them. The
    tesseract first on PATH writes its own environment to a file, then runs the real one."""
    import shutil

    from factories import text_image

    real = shutil.which("tesseract")
    if real is None:
        pytest.skip("tesseract is not installed")
    dumps, shim = tmp_path / "dumps", tmp_path / "bin" / "tesseract"
    dumps.mkdir()
    shim.parent.mkdir()
    shim.write_text(f'#!/bin/sh\ncat /proc/$$/environ > "{dumps}/$$"\nexec "{real}" "$@"\n')
    shim.chmod(0o755)
    monkeypatch.setenv("PATH", f"{shim.parent}{os.pathsep}{os.environ['PATH']}")
    for key, value in {**SECRETS, "LC_TIME": "C"}.items():
        monkeypatch.setenv(key, value)
    text_image("Quarterly revenue grew").save(tmp_path / "scan.png")
    config = {**CONFIG, "isolation": {"workers": 1, "enabled": isolated}}
    with docread.Reader(tmp_path, config=config) as reader:
        if isolated:  # a template started now, with the secrets in our environment
            name = _file(tmp_path)
            old = ast.literal_eval(reader.read(name, format_hint="fake_env").text)["parent"]
            processes.drop_prestarted()  # one an earlier docread.* access started holds its env
            for pid in [old, *_pids(reader)]:
                os.kill(pid, signal.SIGKILL)
                assert _gone(pid)
            found = ast.literal_eval(reader.read(name, format_hint="fake_env").text)
            assert found["parent"] != old
            _no_secret(_environ(Path(f"/proc/{found['parent']}/environ")))  # the template
            _no_secret(_environ(Path(f"/proc/{found['pid']}/environ")))  # a worker, alive
            _no_secret(found["env"])  # the worker's os.environ
        text = reader.read("scan.png", ocr=True).text
    assert "revenue" in text.lower()  # the real tesseract ran, through the shim
    runs = list(dumps.iterdir())
    assert runs
    for dump in runs:
        _no_secret(_environ(dump))


def test_one_job_reads_files_the_host_opened_and_files_the_worker_opens(tmp_path: Path) -> None:
    """One protocol for both kinds of file: a Job lists them; the one the host opened travels as
    its descriptor (its name then unlinked: the worker cannot have opened it by path), the other
    the worker opens under the workspace root; each ends on its own, in order, and a file that
    fails ends alone."""
    from docread.formats import BY_KEY
    from docread.isolation.events import FileDone, FileFailed
    from docread.isolation.pool import WorkerPool
    from docread.isolation.protocol import Job, JobFile
    from docread.pipeline import Pipeline
    from docread.request.options import ReadOptions
    from docread.workspace import Workspace

    (tmp_path / "a.csv").write_text("name,value\nopened by the host,1\n")
    (tmp_path / "b.csv").write_text("name,value\nopened by the worker,2\n")
    settings = docread.Settings.load(CONFIG)
    workspace = Workspace(tmp_path)
    first = ReadOptions.from_kwargs("a.csv")
    source, info = Pipeline(settings).open(workspace, first)
    (tmp_path / "a.csv").unlink()
    files = (
        JobFile(first, info.source, "tabular", info=info, extractor=BY_KEY["csv"].extractor),
        JobFile(ReadOptions.from_kwargs("b.csv"), "b.csv", "tabular"),
        JobFile(ReadOptions.from_kwargs("gone.csv"), "gone.csv", "tabular"),
    )
    pool = WorkerPool(1, settings.memory.max_worker_mb)
    try:
        with source:
            job = Job(files, settings, True, workspace.root)
            events = list(pool.run(job, (source.handoff(),), root=workspace.root_descriptor))
        stats = pool.stats()
    finally:
        pool.close()
    ends = [(type(e).__name__, e.index) for e in events if isinstance(e, FileDone | FileFailed)]
    assert ends == [("FileDone", 0), ("FileDone", 1), ("FileFailed", 2)]
    texts = [e.text for e in events if isinstance(e, Document)]
    assert "opened by the host" in texts[0] and "opened by the worker" in texts[-1]
    gone = events[-1]
    assert isinstance(gone, FileFailed) and isinstance(gone.error, docread.DocumentNotFoundError)
    assert (stats.started, stats.jobs) == (1, 1)
