"""The fork server's preloads: what a template has imported when it forks its first worker (what
a first PDF unit runs), what it imports once it served that request (the other families), and
that a process that never read leaves no template behind; how it is started (nothing of the
host's folder, no descriptor of the host) and watched. Each runs in a fresh interpreter, as a
cold start does (this process's template has long served its requests)."""

from __future__ import annotations

import ast
import gc
import os
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import psutil
import pytest
from docread.extractors.base import Context, Extractor
from docread.extractors.ocr.result import OcrResult
from docread.isolation import template
from docread.model import Document
from docread.outline.headings import _RST_ADORNMENT
from docread.source import Source

pytestmark = pytest.mark.timeout(120)
FAMILIES = [name for name in template.IDLE if name.startswith("docread.")]  # other families'
HERE = Path(__file__).resolve().parent
Found = dict[str, object]
Cold = tuple[Found, str, Found, Found]  # the first worker's, its table read, it again, a later one


class Preloaded(Extractor):
    """What this worker had imported and set up (from its template, or since)."""

    name = "fake_preloaded"
    isolated = True

    def extract(self, source: Source, ctx: Context) -> Iterator[Document]:
        table = sys.modules.get("pymupdf.table")
        found = {
            "idle": [name for name in FAMILIES if name in sys.modules],
            "table": type(table).__name__,  # type(): a lazy module is not loaded by looking
            "collector": gc.isenabled(),
            "frozen": gc.get_freeze_count(),
            "pid": os.getpid(),
            # an OCR reading's class: no unit here makes one (generated: the template did)
            "generated": vars(OcrResult)["__init__"].__code__.co_filename == "<string>",
            # a pattern no unit here runs (reST headings): compiled only if the template did
            "compiled": "_compiled" in vars(_RST_ADORNMENT),
        }
        yield Document(repr(found))


def wait_idle(pid: int | None, within: float = 60.0) -> None:
    """Until the process sleeps (in poll, where the kernel says) with its CPU time unchanged
    over 0.2 s."""
    assert pid is not None
    deadline = time.monotonic() + within
    last = None
    while time.monotonic() < deadline:
        stat = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        now = (stat[0], int(stat[11]) + int(stat[12]))  # state, utime + stime
        wchan = Path(f"/proc/{pid}/wchan").read_text()  # "0" where the kernel hides it
        polling = "poll" in wchan or wchan in ("", "0")
        if polling and now[0] == "S" and now == last:
            return
        last = now if polling else None
        time.sleep(0.2)
    raise AssertionError(f"the template {pid} never went idle")


# A cold start's process: it reads a table PDF and the fake in its template's first worker, once
# the template is done with what it imports before a request; then, once the template is idle
# again, the fake in a new worker.
COLD = """
import sys
import docread
from docread import formats
from docread.isolation import processes
from test_template import Preloaded, wait_idle

formats.BY_KEY[Preloaded.name] = formats.Format(
    Preloaded.name, "pdf", "application/x-fake", extractor="test_template:Preloaded"
)
folder = sys.argv[1]
config = {
    "cache": {"enabled": False}, "global_timeout": 60, "isolation": {"workers": 1},
    "pdf": {"structure": "off"},  # tables (find_tables) only on request
}
processes.warm_template()
wait_idle(processes.template_pid())
with docread.Reader(folder, config) as reader:
    first = reader.read("f.bin", format_hint=Preloaded.name).text
    tables = reader.read("ruled.pdf", extract_tables=True).text
    again = reader.read("f.bin", format_hint=Preloaded.name).text
wait_idle(processes.template_pid())
with docread.Reader(folder, config) as reader:
    later = reader.read("f.bin", format_hint=Preloaded.name).text
print(repr((first, tables, again, later)))
"""


def _as_a_user(
    code: str, *args: str, cwd: Path | None = None, **env: str
) -> subprocess.CompletedProcess[str]:
    """``code`` run by a new interpreter as a user's script (not a template: its own template
    starts as docread starts it), with ``args`` and ``env`` added, in ``cwd``."""
    environ = {**os.environ, **env}
    environ.pop(template.ROLE, None)
    run = [sys.executable, "-c", code, *args]
    return subprocess.run(run, capture_output=True, text=True, env=environ, timeout=100, cwd=cwd)


@pytest.fixture(scope="module")
def cold(tmp_path_factory: pytest.TempPathFactory) -> Cold:
    from factories import pdf, table_page

    folder = tmp_path_factory.mktemp("cold")
    (folder / "f.bin").write_text("x")
    pdf(folder / "ruled.pdf", [table_page([["name", "value"], ["alpha", "1"]])])
    out = _as_a_user(COLD, str(folder), PYTHONPATH=os.pathsep.join([str(HERE), str(HERE.parent)]))
    assert out.returncode == 0, out.stderr
    first, tables, again, later = ast.literal_eval(out.stdout.splitlines()[-1])
    return ast.literal_eval(first), tables, ast.literal_eval(again), ast.literal_eval(later)


def test_a_template_imports_the_other_families_only_after_its_first_request(
    cold: Cold,
) -> None:
    """Before its first request a template imports what a first PDF unit runs, not the office,
    HTML, archive, email or image readers (a process that never reads pays none of them), with
    PyMuPDF's table finder not loaded yet; its first worker starts with the collector on and the
    template's objects frozen. Once it served that request it imports them, so a later worker
    has them."""
    first, _, _, later = cold
    assert first["idle"] == [] and first["table"] == "_LazyModule" and first["collector"] is True
    assert isinstance(first["frozen"], int) and first["frozen"] > 10_000
    assert later["idle"] == FAMILIES and later["table"] == "module"
    assert later["pid"] != first["pid"]


def test_a_later_worker_inherits_the_dataclass_methods_a_first_unit_generates(
    cold: Cold,
) -> None:
    """The template generates no dataclass method before its first fork (``model.dataclass``:
    on first use, so the first worker makes those its unit uses); once idle after that request
    it generates them all, so a later worker makes none (an OcrResult's ``__init__`` here)."""
    first, _, _, later = cold
    assert first["generated"] is False and later["generated"] is True


def test_a_later_worker_inherits_the_patterns_the_template_compiled_once_idle(
    cold: Cold,
) -> None:
    """The template compiles no ``lazy_pattern`` a first unit does not run before its first
    fork; once idle after that request it compiles them all, so a later worker inherits them
    compiled instead of compiling each at its first use."""
    first, _, _, later = cold
    assert first["compiled"] is False and later["compiled"] is True


def test_a_first_worker_finds_tables_with_the_deferred_table_finder(
    cold: Cold,
) -> None:
    """The table finder the template's first worker started without loads there on first use."""
    first, tables, again, _ = cold
    assert "| name | value |" in tables and "| alpha | 1 |" in tables, tables
    assert again["pid"] == first["pid"] and again["table"] == "module"


def _at_first_fork(check: str, *args: str) -> str:
    """What ``check`` prints in a fresh interpreter that has run the template's path to its
    first fork (PyMuPDF as it loads it, ``FIRST``) as a template does (it starts none);
    ``importlib``, ``re`` and ``sys`` imported, ``args`` in ``sys.argv[1:]``."""
    code = (
        "import importlib, re, sys\n"
        "from docread.isolation import template\n"
        "template._import_pymupdf()\n"
        "template._preload(template.FIRST)\n"
    )
    env = {**os.environ, template.ROLE: "1"}
    run = [sys.executable, "-c", code + check, *args]
    return subprocess.run(run, capture_output=True, text=True, check=True, env=env).stdout


def test_the_path_to_the_first_fork_leaves_out_what_a_first_pdf_unit_does_not_run() -> None:
    """The template's imports before its first fork (PyMuPDF as it loads it, ``FIRST``) are the
    cold start's critical path: none of the standard modules a first PDF unit does not run,
    each imported where it is used: difflib (an error's hint), statistics (a code listing's
    columns; with fractions and decimal), tempfile (a private copy for a tool; with random),
    concurrent.futures (the OCR threads, made for a document's first image), json and datetime
    (a metadata value past the flat ones, a member's position, the settings' fingerprint, a
    file's modified time: the host's or another family's)."""
    check = (
        "left_out = {'difflib', 'statistics', 'tempfile', 'concurrent.futures', 'json', 'datetime'}\n"
        "print(sorted(left_out & set(sys.modules)))"
    )
    assert _at_first_fork(check) == "[]\n"


def test_the_path_to_the_first_fork_compiles_no_pattern_a_first_unit_does_not_run() -> None:
    """The core's patterns a first PDF unit does not run (headings, ranges, detection, the
    sanitizer's non-ASCII scans, OCR, tables, outline ids, footnote marks, form numbers, an
    allocation failure's message, contact lines, theorem labels) are compiled at their first use
    (``sanitize.lazy_pattern``): none is in ``re``'s cache when the template forks."""
    lazy = (
        "docread.outline.headings:_HEADING", "docread.outline.headings:_RST_ADORNMENT",
        "docread.request.ranges:_SPAN", "docread.detect:_NON_ASCII", "docread.detect:_CONTROL",
        "docread.sanitize:_INVISIBLE", "docread.sanitize:_ANSI", "docread.source:_CONTROL",
        "docread.extractors.ocr.result:_WORD", "docread.extractors.ocr.engine:_LANGUAGE",
        "docread.extractors.markdown:_BREAKS", "docread.outline.tree:_ID",
        "docread.extractors.pdf.structure:_FOOT_MARK", "docread.extractors.pdf.figures:_NUMBERED",
        "docread.extractors.pdf.tables.cells:_LED", "docread.extractors.pdf.tables.cells:_SPACED",
        "docread.extractors.pdf.tables.contents:_LEADER", "docread.isolation.worker:_NO_MEMORY",
        "docread.extractors.pdf.text.headings:_WORD",
        "docread.extractors.pdf.text.headings:_CONTACT",
        "docread.extractors.pdf.text.headings:_THEOREM",
        "docread.extractors.pdf.text.blocks:_CAPTION_LABEL",
    )  # fmt: skip
    check = (
        "compiled = {key[1] for key in re._cache}\n"
        "for name in sys.argv[1:]:\n"
        "    module, attr = name.split(':')\n"
        "    found = vars(importlib.import_module(module))[attr]\n"
        "    text = found.pattern\n"
        "    if text in compiled: print(name)"
    )
    assert _at_first_fork(check, *lazy) == ""


def test_the_path_to_the_first_fork_generates_no_method_a_first_unit_does_not_run() -> None:
    """Python compiles a dataclass's generated methods from source (some 4 million instructions
    a class): the template's path generates none for the classes a worker unpickles from a Job
    (settings, options, FileInfo) or the host alone makes (events), nor the tables, OCR, tool
    and outline classes a first PDF unit does not make. Seen by their ``__init__``: generated,
    its code comes from ``<string>``."""
    lazy = (
        "docread.settings:Settings", "docread.settings:PdfSettings", "docread.settings:Limits",
        "docread.request.options:ReadOptions", "docread.request.ranges:PageSpec",
        "docread.model:FileInfo", "docread.model:Document", "docread.isolation.protocol:Job",
        "docread.isolation.events:FileDone", "docread.extractors.markdown:Grid",
        "docread.extractors.ocr.result:OcrResult", "docread.extractors.programs:ToolResult",
        "docread.outline.tree:Section", "docread.extractors.base:Context",
    )  # fmt: skip
    check = (
        "for name in sys.argv[1:]:\n"
        "    module, cls = name.split(':')\n"
        "    init = vars(getattr(importlib.import_module(module), cls))['__init__']\n"
        "    if init.__code__.co_filename == '<string>': print(name)"
    )
    assert _at_first_fork(check, *lazy) == ""


def test_a_process_that_only_imports_docread_starts_no_process(tmp_path: Path) -> None:
    """``import docread`` (and its errors, settings, models) starts no template: only asking for
    the Reader does (0.4 s of CPU saved for every script or test process that never reads).
    The Reader's first read forks from the template its import started, and a later Reader's
    worker from the same template."""
    from factories import pdf

    pdf(tmp_path / "one.pdf", ["words on a page"])
    code = (
        "import os, sys, psutil, docread\n"
        "from docread.isolation import processes, template\n"
        "docread.Settings, docread.Document, docread.ReadDocumentError\n"
        "print(psutil.Process().children(), os.getpid() in template._early)\n"
        "docread.Reader\n"
        "early = template._early[os.getpid()][0].pid\n"
        "config = {'cache': {'enabled': False}, 'isolation': {'workers': 1}}\n"
        "for _ in range(2):\n"
        "    with docread.Reader(sys.argv[1], config) as r:\n"
        "        text = r.read('one.pdf').text\n"
        "        print('words on a page' in text, processes.template_pid() == early,\n"
        "              r.stats().started)\n"
    )
    out = _as_a_user(code, str(tmp_path))
    assert out.stdout.splitlines() == ["[] False", "True True 1", "True True 1"], out.stderr


def test_asking_for_the_reader_starts_the_template_before_the_rest_of_docread_imports() -> None:
    """The template's imports are the cold start's critical path: ``docread.Reader`` starts it
    (``template.launch``) having imported no docread module but the template's own and none of
    the standard modules the rest of docread needs (``model``'s dataclasses and hashlib,
    ``typing``, ``pathlib``: 0.02 s of the host's CPU that would come first)."""
    code = (
        "import subprocess, sys\n"
        "seen = []\n"
        "popen = subprocess.Popen.__init__\n"
        "def started(self, *args, **kwargs):\n"
        "    seen.append(sorted(name for name in sys.modules if name.startswith('docread') or\n"
        "        name in ('typing', 'dataclasses', 'hashlib', 'pathlib')))\n"
        "    popen(self, *args, **kwargs)\n"
        "subprocess.Popen.__init__ = started\n"
        "import docread\n"
        "docread.Reader\n"
        "print(seen[0])"
    )
    out = _as_a_user(code)
    assert out.returncode == 0, out.stderr
    assert ast.literal_eval(out.stdout) == [
        "docread", "docread.extractors", "docread.extractors.environ", "docread.isolation",
        "docread.isolation.template",
    ]  # fmt: skip


def test_the_template_of_a_process_that_never_read_is_gone_when_it_exits() -> None:
    """Asking for the Reader starts a template; a process that exits without reading kills and
    reaps it on its way out, rather than leaving it to import on, orphaned, until its poll sees
    the host gone (0.4 s of CPU for every short script or test process that imports docread)."""
    code = (
        "import os, docread\n"
        "docread.Reader\n"
        "from docread.isolation import template\n"
        "print(template._early[os.getpid()][0].pid)"
    )
    out = _as_a_user(code)
    pid = int(out.stdout)
    try:
        alive = psutil.Process(pid).status() != psutil.STATUS_ZOMBIE
    except psutil.NoSuchProcess:
        alive = False
    assert not alive


def test_docread_imports_its_api_with_the_collector_paused_and_restores_it() -> None:
    """The host's side of a cold start: ``docread.Reader`` (and ``read``, ``iter_units``...)
    import the API with no garbage collection on the way (0.15 -> 0.13 s of CPU), and leave the
    collector as the caller had it."""
    code = (
        "import gc, sys, docread\n"
        "runs = []\n"
        "gc.callbacks.append(lambda phase, info: runs.append(phase))\n"
        "if sys.argv[1] == 'off': gc.disable()\n"
        "docread.Reader\n"
        "print(len(runs) // 2, gc.isenabled())"  # a start and a stop phase per collection
    )
    env = {**os.environ, template.ROLE: "1"}  # no template: only this process's imports
    for caller, on in (("on", "True"), ("off", "False")):
        run = [sys.executable, "-c", code, caller]
        out = subprocess.run(run, capture_output=True, text=True, env=env, check=True)
        collections, after = out.stdout.split()
        assert int(collections) <= 1 and after == on  # one: the collector's due run once back on


def test_a_reader_that_reads_in_its_own_process_stops_the_template_import_started(
    tmp_path: Path,
) -> None:
    """``isolation.enabled: false``: nothing will fork from the template the Reader's import
    started, so the first such Reader kills and reaps it (it would import on for ~0.3 s of CPU
    beside the reads); a later isolated Reader starts one of its own and reads through it."""
    (tmp_path / "a.txt").write_text("words")
    code = (
        "import os, sys, docread\n"
        "from docread.isolation import processes, template\n"
        "docread.Reader\n"
        "proc = template._early[os.getpid()][0]\n"
        "docread.Reader(sys.argv[1], config={'isolation': {'enabled': False}})\n"
        "print(proc.poll() is not None, processes.template_pid())\n"
        "r = docread.Reader(sys.argv[1])\n"
        "print(r.read('a.txt').text.strip(), processes.template_pid() not in (None, proc.pid))\n"
    )
    out = _as_a_user(code, str(tmp_path))
    assert out.stdout.split("\n")[:2] == ["True None", "words True"], out.stderr


def test_a_workers_import_path_holds_the_folder_of_docread_not_its_modules() -> None:
    """The template's path leads with the folder the host imports docread from, and no entry
    lies inside the package, where ``errors.py`` or ``cache/`` would shadow top-level modules."""
    import docread

    package = Path(docread.__file__).resolve().parent
    path = [Path(entry).resolve() for entry in template.python_path().split(os.pathsep)]
    assert path[0] == package.parent
    assert not [entry for entry in path if entry == package or package in entry.parents]


def test_a_template_imports_nothing_from_the_folder_its_host_runs_in(tmp_path: Path) -> None:
    """A script run from a folder that holds a module named as one the template imports
    (``pymupdf.py`` here; ``enum.py`` or ``typing.py`` alike) never imports it itself (its path
    starts with the script's folder), and neither does its template (started with ``-P``: no
    working folder on its path): the read goes through the real PyMuPDF, no code of the folder
    runs in the template or a worker."""
    from factories import pdf

    pdf(tmp_path / "one.pdf", ["words on a page"])
    folder = tmp_path / "work"
    folder.mkdir()
    (folder / "pymupdf.py").write_text("raise RuntimeError('the folder module ran')\n")
    code = (
        "import sys\n"
        "sys.path.remove('')  # as a script elsewhere: its own folder leads, not this one\n"
        "import docread\n"
        "config = {'cache': {'enabled': False}, 'isolation': {'workers': 1}}\n"
        "with docread.Reader(sys.argv[1], config) as r:\n"
        "    print(r.read('one.pdf').text.count('words on a page'))\n"
    )
    out = _as_a_user(code, str(tmp_path), cwd=folder)
    assert out.returncode == 0 and out.stdout == "1\n", out.stderr


def test_a_template_and_its_workers_inherit_no_descriptor_of_the_host(tmp_path: Path) -> None:
    """The template starts in its own session with stdin and stdout on /dev/null, and neither
    it nor a worker it forks holds a descriptor the host left inheritable (a pipe here: a
    child holding its write end would keep its reader from ever seeing EOF)."""
    from factories import pdf

    pdf(tmp_path / "one.pdf", ["words on a page"])
    code = (
        "import os, sys, docread\n"
        "from docread.isolation import template\n"
        "read, write = os.pipe()\n"
        "os.set_inheritable(read, True); os.set_inheritable(write, True)\n"
        "pipe = os.readlink(f'/proc/self/fd/{write}')\n"
        "docread.Reader\n"
        "pid = template._early[os.getpid()][0].pid\n"
        "config = {'cache': {'enabled': False}, 'isolation': {'workers': 1}}\n"
        "with docread.Reader(sys.argv[1], config) as reader:\n"
        "    text = reader.read('one.pdf').text\n"
        "    held = {}\n"
        "    for name, proc in (('template', pid), ('worker', reader.stats().workers[0])):\n"
        "        fds = sorted(os.listdir(f'/proc/{proc}/fd'), key=int)\n"
        "        held[name] = [os.readlink(f'/proc/{proc}/fd/{fd}') for fd in fds]\n"
        "print(repr((pipe, os.getsid(pid) == pid, 'words on a page' in text, held)))\n"
    )
    out = _as_a_user(code, str(tmp_path))
    assert out.returncode == 0, out.stderr
    pipe, session, read, held = ast.literal_eval(out.stdout.splitlines()[-1])
    assert session and read
    assert held["template"][:2] == ["/dev/null", "/dev/null"]
    assert pipe not in held["template"] and pipe not in held["worker"], held


def test_a_host_holding_over_a_thousand_descriptors_reads_through_its_workers(
    tmp_path: Path,
) -> None:
    """A server holding over FD_SETSIZE (1024) descriptors gets worker pidfds past it: the host
    watches them with poll, not select (``filedescriptor out of range in select()`` failed every
    read of such a host)."""
    import resource

    from factories import pdf

    if resource.getrlimit(resource.RLIMIT_NOFILE)[1] < 2048:
        pytest.skip("this machine allows a process fewer than 2048 descriptors")
    pdf(tmp_path / "one.pdf", ["words on a page"])
    code = (
        "import os, resource, sys, docread\n"
        "hard = resource.getrlimit(resource.RLIMIT_NOFILE)[1]\n"
        "resource.setrlimit(resource.RLIMIT_NOFILE, (min(hard, 4096), hard))  # 20,000 here\n"
        "held = [os.open(os.devnull, os.O_RDONLY) for _ in range(1100)]\n"
        "config = {'cache': {'enabled': False}, 'isolation': {'workers': 1}}\n"
        "with docread.Reader(sys.argv[1], config) as reader:\n"
        "    print(reader.read('one.pdf').text.count('words on a page'))\n"
        "print('closed')\n"
    )
    out = _as_a_user(code, str(tmp_path))
    assert out.stdout == "1\nclosed\n", out.stderr[-2000:]
