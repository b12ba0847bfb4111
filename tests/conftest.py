"""Shared fixtures: a workspace in tmp_path (``reader``, ``make_reader``), and the conformance
corpus from ../shared when present (``corpus_rows``, ``corpus_params``, ``normalize``)."""

from __future__ import annotations

import asyncio
import csv
import json
import logging
import os
import re
import subprocess
import sys
import threading
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import docread
import pytest
from docread.extractors.pdf.library import load_pymupdf

load_pymupdf()  # the tests' own `import pymupdf` then skips the layout model (~0.4 s), as docread does
# the README blocks' runner (imported by two test modules) has its asserts explained as theirs are
pytest.register_assert_rewrite("readme_blocks")
TESTS = Path(__file__).resolve().parent

CORPUS = Path(
    os.environ.get(
        "DOCREAD_CORPUS", Path(__file__).resolve().parents[1].parent / "shared" / "corpus"
    )
)


@pytest.fixture(autouse=True)
def _private_home(
    tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch
) -> None:
    """No test writes into the real ~/.cache/docread (the default cache directory), and no
    settings file from the environment leaks in."""
    monkeypatch.setenv("HOME", str(tmp_path_factory.mktemp("home")))
    monkeypatch.delenv("DOCREAD_CONFIG", raising=False)


NO_CACHE: dict[str, Any] = {"cache": {"enabled": False}}
IN_PROCESS: dict[str, Any] = {"cache": {"enabled": False}, "isolation": {"enabled": False}}
MakeReader = Callable[..., docread.Reader]  # the type of the make_reader fixture


def merged(base: dict[str, Any], extra: dict[str, Any]) -> dict[str, Any]:
    """``base`` with ``extra`` merged in, section by section (a dict value updates a dict)."""
    out = dict(base)
    for key, value in extra.items():
        if isinstance(value, dict) and isinstance(out.get(key), dict):
            out[key] = merged(out[key], value)
        else:
            out[key] = value
    return out


@pytest.fixture
def make_reader(tmp_path: Path) -> Iterator[MakeReader]:
    """``make_reader(**settings)``: a Reader on tmp_path with the cache off, the given settings
    sections merged in (``make_reader(pdf={"ocr_dpi": 150})``, ``make_reader(cache={"enabled":
    True})``); every Reader made is closed at teardown. Its workers are the process-wide pool's
    (one per pool size and memory limit, as ``docread.read`` uses): started once per test
    process, not once per test (a start costs ~0.7 s of CPU); a test that needs workers of its
    own makes its ``docread.Reader`` itself."""
    made: list[docread.Reader] = []

    def make(**settings: Any) -> docread.Reader:
        config = merged(NO_CACHE, settings)
        made.append(docread.Reader(tmp_path, config=config, shared_pool=True))
        return made[-1]

    yield make
    for r in made:
        r.close()


@pytest.fixture
def reader(make_reader: MakeReader) -> docread.Reader:
    """A Reader whose workspace is this test's tmp_path (cache off: tests see real extraction)."""
    return make_reader()


# The modules that take longest, longest first (summed test times of a full run, issue 35's suite
# measurement). run.sh runs pytest-xdist with --dist loadscope --no-loadscope-reorder: modules go
# to the workers in collection order, so these start first and no long module is left to run
# alone at the end.
LONGEST_FIRST = (
    # first of all: its 2-node cluster cannot start in a process an earlier ray.init ran in
    # (Ray leaves state behind: RAY_AUTH_MODE=token, a driver id the new nodes see as gone)
    "test_ray_cluster.py",
    "test_conformance.py", "test_readme.py",
    "test_ray_data.py",  # with the README's Ray blocks, on its cluster
    "test_cli_pipeline.py", "test_hostile.py", "test_parallel.py", "test_mcp.py",
    "test_llamaindex_tool.py",
    "test_isolation.py", "test_pdf.py", "test_outline_corpus.py", "test_pdf_structure.py",
    "test_ocr_fidelity.py", "test_llamaindex_reader.py", "test_demo.py", "test_langchain_tool.py",
    "test_html.py", "test_ocr.py", "test_email.py", "test_faults.py", "test_cli.py",
    "test_workspace_races.py", "test_langchain_loader.py",
)  # fmt: skip


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """The modules of ``LONGEST_FIRST`` first, in its order; the others after them, as
    collected (a stable sort: each module's tests keep their order)."""
    rank = {name: n for n, name in enumerate(LONGEST_FIRST)}
    items.sort(key=lambda item: rank.get(item.path.name, len(rank)))


def pytest_configure(config: pytest.Config) -> None:
    """The controller of an xdist run (``run.sh test``) rewrites the test modules' asserts
    before its workers start: on a clean clone each worker would rewrite every module itself,
    at once (~3 s of CPU each); they then read the pycs pytest caches."""
    xdist = config.getoption("numprocesses", None) and not hasattr(config, "workerinput")
    if xdist and config.getoption("assertmode") == "rewrite":
        files = [*TESTS.rglob("test_*.py"), *TESTS.rglob("conftest.py"), TESTS / "readme_blocks.py"]
        rewrite_ahead(config, sorted(files), processes=os.cpu_count() or 1)


def rewrite_ahead(config: pytest.Config, files: list[Path], processes: int) -> None:
    """Writes the pyc of rewritten asserts pytest's import hook would write, for each of
    ``files`` without a current one, split over ``processes`` forked processes (this one
    included; none forked beside another thread). Nothing where pytest writes no bytecode
    (PYTHONDONTWRITEBYTECODE)."""
    from _pytest.assertion import rewrite

    if sys.dont_write_bytecode:
        return

    def pyc(path: Path) -> Path:
        return rewrite.get_cache_dir(path) / (path.name[:-3] + rewrite.PYC_TAIL)

    stale = [path for path in files if rewrite._read_pyc(path, pyc(path)) is None]
    state = config.stash[rewrite.assertstate_key]

    def write(share: list[Path]) -> None:
        for path in share:
            try:
                source_hash, code = rewrite._rewrite_test(path, config)
            except SyntaxError:  # pytest reports it when it collects the module
                continue
            if rewrite.try_makedirs(pyc(path).parent):
                rewrite._write_pyc(state, code, source_hash, pyc(path))

    if threading.active_count() > 1:  # a fork copies this thread alone: no fork
        processes = 1
    children = []
    for n in range(1, min(processes, len(stale))):
        pid = os.fork()
        if pid == 0:
            try:
                write(stale[n::processes])
            finally:
                os._exit(0)
        children.append(pid)
    write(stale[::processes])
    for pid in children:
        os.waitpid(pid, 0)


def corpus_rows(*folders: str) -> list[dict[str, object]]:
    """MANIFEST.tsv rows under the given corpus folders (all rows without folders), with
    ``must_include`` parsed; [] if the corpus is absent."""
    manifest = CORPUS / "MANIFEST.tsv"
    if not manifest.is_file():
        return []
    with manifest.open(encoding="utf-8", newline="") as f:
        rows = list(csv.DictReader(f, delimiter="\t"))
    out = []
    for row in rows:
        if not folders or row["file"].split("/", 1)[0] in folders:
            row["must_include"] = json.loads(row.get("must_include_json") or "[]")
            out.append(row)
    return out


def corpus_params(*folders: str) -> list[object]:
    """pytest params (one per corpus file, id = its path); a single skip when the corpus is absent."""
    rows = corpus_rows(*folders)
    if not rows:
        return [
            pytest.param(None, marks=pytest.mark.skip(reason=f"corpus not present at {CORPUS}"))
        ]
    return [pytest.param(row, id=str(row["file"])) for row in rows]


def pytest_terminal_summary(terminalreporter: Any) -> None:
    """One line at the end of the run when tests needing the corpus were skipped (their skip
    reason names it), with how to point them at one. It runs in the controller, which under
    pytest-xdist holds every worker's reports."""
    skipped = terminalreporter.stats.get("skipped", [])
    count = sum(1 for report in skipped if "corpus" in _skip_reason(report).lower())
    if count:
        terminalreporter.write_line(
            f"docread: {count} corpus test{'s' if count != 1 else ''} skipped: no corpus at "
            f"{CORPUS}; run them with DOCREAD_CORPUS=/path/to/corpus (README, Development)",
            yellow=True,
        )


def docread_warnings(caplog: pytest.LogCaptureFixture) -> list[logging.LogRecord]:
    """What the ``docread`` logger said at WARNING or above (an error logged where handled)."""
    return [r for r in caplog.records if r.name == "docread" and r.levelno >= logging.WARNING]


def _skip_reason(report: Any) -> str:
    """A skip report's reason: its ``longrepr`` is (file, line, reason) for a skip."""
    longrepr = getattr(report, "longrepr", None)
    return str(longrepr[2]) if isinstance(longrepr, tuple) and len(longrepr) == 3 else ""


def normalize(text: str) -> str:
    """Lower-cased, whitespace collapsed, markdown emphasis markers and table cell separators
    dropped: how MANIFEST must-include strings are compared ("markup is never part of a string",
    corpus README; no string holds a ``|``)."""
    text = re.sub(r"\s*\|\s*", " ", text.replace("**", "").replace("__", ""))
    return " ".join(text.lower().split())


@pytest.fixture
def gate_reads(monkeypatch: pytest.MonkeyPatch) -> Callable[[docread.Reader], Callable[[], Any]]:
    """``gate_reads(reader)`` makes ``reader.read`` wait (5 s at most) until the returned coroutine
    has ticked the event loop 5 times: a read that blocks the loop fails, one in a thread passes."""

    def gate(reader: docread.Reader) -> Callable[[], Any]:
        opened = threading.Event()
        real_read = reader.read

        def gated_read(*args: Any, **kwargs: Any) -> docread.ReadResult:
            if threading.current_thread() is threading.main_thread() or not opened.wait(5):
                raise AssertionError("the read blocked the event loop")
            return real_read(*args, **kwargs)

        async def ticker() -> None:
            for _ in range(5):
                await asyncio.sleep(0)
            opened.set()

        monkeypatch.setattr(reader, "read", gated_read)
        return ticker

    return gate


CliHere = Callable[..., tuple[int, str, str]]  # the type of the cli_here fixture


@pytest.fixture
def cli_here(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> CliHere:
    """``cli_here(*args, cwd=folder)``: ``docread ARGS`` through ``docread.cli.main`` in this
    process, from ``cwd``: (exit code, stdout, stderr). For what the command prints and exits
    with (usage errors, help, a read's output); ``run_cli`` runs the command as a user does, in
    an interpreter of its own (~0.9 s of CPU each), for what is about that process (its entry
    point, output streamed while it reads, signals)."""
    from docread.cli import main

    def run(*args: str, cwd: Path) -> tuple[int, str, str]:
        monkeypatch.chdir(cwd)
        capsys.readouterr()
        try:
            code: object = main(list(args))
        except SystemExit as exc:  # argparse: a usage error, --help, --version
            code = exc.code
        out, err = capsys.readouterr()
        return (code if isinstance(code, int) else 0 if code is None else 1), out, err

    return run


def run_cli(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    """``docread ARGS`` as a user runs it: a subprocess of this interpreter, this checkout's core
    first on the path, no stdin, its output captured as text."""
    root = Path(__file__).resolve().parents[1]
    return subprocess.run(
        [sys.executable, "-m", "docread.cli", *args],
        cwd=cwd,
        capture_output=True,
        stdin=subprocess.DEVNULL,
        text=True,
        timeout=120,
        env={**os.environ, "PYTHONPATH": f"{root / 'core'}:{root}"},
    )
