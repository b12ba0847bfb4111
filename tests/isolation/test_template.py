"""The fork server's preloads: what a template has imported when it forks its first worker (what
a first PDF unit runs), and what it imports once it served that request (the other families)."""

from __future__ import annotations

import ast
import gc
import os
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import docread
import pytest
from docread import formats
from docread.extractors.base import Context, Extractor
from docread.isolation import processes, template
from docread.model import Document
from docread.source import Source

pytestmark = pytest.mark.timeout(120)
FAMILIES = [name for name in template.IDLE if name.startswith("docread.")]  # other families'


class Preloaded(Extractor):
    """What the worker's template had imported and set up when it forked this worker."""

    name = "fake_preloaded"
    isolated = True

    def extract(self, source: Source, ctx: Context) -> Iterator[Document]:
        table = sys.modules.get("pymupdf.table")
        found = {
            "idle": [name for name in FAMILIES if name in sys.modules],
            "table": type(table).__name__,  # type(): a lazy module is not loaded by looking
            "collector": gc.isenabled(),
            "frozen": gc.get_freeze_count(),
        }
        yield Document(repr(found))


@pytest.fixture
def fresh(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """A workspace whose Readers fork from a new template of this process, one idle in its
    poll (done importing what it imports before a request)."""
    fmt = formats.Format(
        Preloaded.name, "pdf", "application/x-fake", extractor=f"{__name__}:Preloaded"
    )
    monkeypatch.setitem(formats.BY_KEY, Preloaded.name, fmt)
    (tmp_path / "f.bin").write_text("x")
    processes.close_template()
    processes.warm_template()
    _wait_idle(processes.template_pid())
    yield tmp_path
    processes.close_template()


def _wait_idle(pid: int | None, within: float = 60.0) -> None:
    """Until the process sleeps in poll with its CPU time unchanged over 0.2 s."""
    assert pid is not None
    deadline = time.monotonic() + within
    last = None
    while time.monotonic() < deadline:
        stat = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        now = (stat[0], int(stat[11]) + int(stat[12]))  # state, utime + stime
        polling = "poll" in Path(f"/proc/{pid}/wchan").read_text()
        if polling and now[0] == "S" and now == last:
            return
        last = now if polling else None
        time.sleep(0.2)
    raise AssertionError(f"the template {pid} never went idle")


def _read(workspace: Path) -> dict[str, object]:
    config = {"cache": {"enabled": False}, "global_timeout": 60}
    with docread.Reader(workspace, config=config) as reader:  # its own pool: a new worker
        return ast.literal_eval(reader.read("f.bin", format_hint=Preloaded.name).text)  # type: ignore[no-any-return]


def test_a_template_imports_the_other_families_only_after_its_first_request(fresh: Path) -> None:
    """Before its first request a template imports what a first PDF unit runs, not the office,
    HTML, archive, email or image readers (a process that never reads pays none of them), with
    PyMuPDF's table finder not loaded yet (it loads on first use); its first worker starts with
    the collector on and the template's objects frozen. Once it served that request it imports
    them, so a later worker has them."""
    first = _read(fresh)
    assert first["idle"] == [] and first["table"] == "_LazyModule" and first["collector"] is True
    assert isinstance(first["frozen"], int) and first["frozen"] > 10_000
    _wait_idle(processes.template_pid())
    later = _read(fresh)
    assert later["idle"] == FAMILIES and later["table"] == "module"


def test_a_worker_finds_tables_with_the_deferred_table_finder(fresh: Path) -> None:
    """The table finder a first worker did not have loaded loads on its first use there."""
    from factories import pdf, table_page

    pdf(fresh / "ruled.pdf", [table_page([["name", "value"], ["alpha", "1"]])])
    config = {"cache": {"enabled": False}, "pdf": {"structure": "off"}}
    with docread.Reader(fresh, config=config) as reader:
        text = reader.read("ruled.pdf", extract_tables=True).text  # find_tables, structure off
    assert "| name | value |" in text and "| alpha | 1 |" in text, text


def test_the_template_of_a_process_that_never_read_is_gone_when_it_exits() -> None:
    """``import docread`` starts a template; a process that exits without reading kills and
    reaps it on its way out, rather than leaving it to import on, orphaned, until its poll sees
    the host gone (0.4 s of CPU for every short script or test process that imports docread)."""
    import psutil

    code = (
        "import os, docread\n"
        "from docread.isolation import template\n"
        "print(template._early[os.getpid()][0].pid)"
    )
    env = {**os.environ}
    env.pop(template.ROLE, None)
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env)
    pid = int(out.stdout)
    try:
        alive = psutil.Process(pid).status() != psutil.STATUS_ZOMBIE
    except psutil.NoSuchProcess:
        alive = False
    assert not alive
