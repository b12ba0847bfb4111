"""Every fenced code block of README.md, as written: a user pastes them, so they must run.

Blocks run as a user types them after the set-up (``bash run.sh demo``): in a temp copy of the
repository's layout (the root with ``tools-security.yaml``, ``examples/*.py``, the sample
documents in ``examples/samples`` and ``.venv``, a link to this interpreter's virtualenv), with
the venv active as ``. .venv/bin/activate`` leaves it (its ``bin`` first on PATH,
``VIRTUAL_ENV``), a private HOME (cache) and a per-block timeout.

- ```python blocks run, each in a fresh interpreter, in ``examples/samples`` (the README says
  the examples run there).
- ```bash / ```sh / ```console blocks run through ``bash -e -o pipefail`` from the repository
  root (where the set-up leaves the user; a block goes elsewhere with ``cd``), stdin closed (so
  ``docread mcp`` over stdio ends at once).
- ```json / ```yaml / ```toml blocks are parsed: YAML through docread's Settings (so the keys are
  real); a JSON MCP config naming ``docread`` has its args parsed by the ``docread`` CLI.
- A ```text block right after a runnable block is that block's documented output: each of its
  lines but ``...`` must be printed, in that order.
- A block that cannot run here says why on the line before it: ``<!-- not run: REASON -->``; it
  is reported as a skip with that reason. Any other block fails, naming its line and heading.
"""

from __future__ import annotations

import json
import os
import re
import shlex
import shutil
import subprocess
import sys
import tomllib
from dataclasses import dataclass
from pathlib import Path

import pytest
import yaml

ROOT = Path(__file__).resolve().parents[1]
README = ROOT / "README.md"
TIMEOUT = 120  # seconds per block (the first read of a PDF or office file starts a worker)
NOT_RUN = re.compile(r"\s*<!--\s*not run:\s*(.+?)\s*-->\s*")  # a line of its own
FENCE = re.compile(r"^( *)(`{3,}|~{3,})\s*([\w+-]*)")  # indented too (a block in a list item)
SHELL = {"bash", "sh", "shell", "console"}
CONFIG = {"json", "yaml", "yml", "toml"}


@dataclass(frozen=True)
class Block:
    """One fenced block: where it is (line of its opening fence, the heading above), its code,
    the reason it is not run (from the marker before it), its documented output (a text block
    right after it)."""

    line: int
    heading: str
    lang: str
    code: str
    not_run: str | None = None
    output: str | None = None

    @property
    def where(self) -> str:
        return f"README.md:{self.line} ({self.heading})"


def parse(markdown: str) -> list[Block]:
    """The fenced blocks, in order; a ```text block right after a runnable one becomes its output."""
    lines = markdown.split("\n")
    blocks: list[Block] = []
    heading, i, last_end = "top", 0, -10
    while i < len(lines):
        fence = FENCE.match(lines[i])
        if lines[i].startswith("#") and not fence:
            heading = lines[i].lstrip("#").strip()
        if not fence:
            i += 1
            continue
        start, indent, ticks, lang = i, len(fence[1]), fence[2], fence[3].lower()
        i += 1
        while i < len(lines) and not lines[i].strip().startswith(ticks):
            i += 1
        code = "\n".join(x[indent:] if x[:indent].isspace() else x for x in lines[start + 1 : i])
        before = [x for x in lines[max(0, start - 3) : start] if x.strip()]
        marker = NOT_RUN.fullmatch(before[-1]) if before else None
        just_after = all(not x.strip() for x in lines[last_end + 1 : start])
        previous = blocks[-1] if blocks else None
        if lang == "text" and just_after and previous and previous.lang in {"python", *SHELL}:
            blocks[-1] = Block(**{**previous.__dict__, "output": code})
        else:
            reason = marker[1] if marker else None
            blocks.append(Block(start + 1, heading, lang, code, reason))
        last_end = i
        i += 1
    return blocks


BLOCKS = parse(README.read_text(encoding="utf-8"))


def params(*langs: str) -> list[object]:
    return [
        pytest.param(b, id=f"L{b.line}-{b.lang}") for b in BLOCKS if b.lang in langs or not langs
    ]


@pytest.fixture(scope="module")
def samples(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The demo's sample documents, generated once for the module."""
    folder = tmp_path_factory.mktemp("samples")
    sys.path.insert(0, str(ROOT / "examples"))
    try:
        from make_samples import make_samples
    finally:
        sys.path.remove(str(ROOT / "examples"))
    assert make_samples(folder) == []
    return folder


@pytest.fixture(scope="module")
def home(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """One private HOME for every block of the module (its cache is shared: a warm PDF)."""
    return tmp_path_factory.mktemp("home")


@pytest.fixture(scope="module")
def layout(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Where every block's copy of the repository's layout is made: one path for the module,
    so a block reads the files at the paths the blocks before it read (the cache keys a file
    by its path and content): each command after the first finds the cache warm, as a user's
    commands after ``bash run.sh demo`` do."""
    return tmp_path_factory.mktemp("repo")


@pytest.fixture
def workdir(layout: Path, samples: Path) -> Path:
    """examples/samples in a fresh copy of the repository's layout (``layout`` is its root,
    emptied first: the settings file, the example scripts, ``.venv``); the samples folder is
    returned."""
    shutil.rmtree(layout)
    (layout / "examples").mkdir(parents=True)
    shutil.copy(ROOT / "tools-security.yaml", layout / "tools-security.yaml")
    for script in (ROOT / "examples").glob("*.py"):
        shutil.copy(script, layout / "examples" / script.name)
    (layout / ".venv").symlink_to(sys.prefix, target_is_directory=True)
    return Path(shutil.copytree(samples, layout / "examples" / "samples", symlinks=True))


def run(block: Block, argv: list[str], cwd: Path, home: Path, stdin: str = "") -> str:
    """One process of a block, the venv active; its stdout. Fails naming the block on an error
    or the timeout."""
    env = {**os.environ, "HOME": str(home), "PYTHONUNBUFFERED": "1", "VIRTUAL_ENV": sys.prefix}
    env["PATH"] = os.pathsep.join([str(Path(sys.executable).parent), env.get("PATH", "")])
    env.pop("DOCREAD_CONFIG", None)
    try:
        done = subprocess.run(
            argv, cwd=cwd, env=env, input=stdin, capture_output=True, text=True, timeout=TIMEOUT
        )
    except subprocess.TimeoutExpired:
        pytest.fail(f"{block.where}: {shlex.join(argv)[:80]} ran past {TIMEOUT} s")
    if done.returncode != 0:
        pytest.fail(
            f"{block.where}: exit {done.returncode}\n{block.code}\n--- stderr ---\n"
            f"{done.stderr[-3000:]}\n--- stdout ---\n{done.stdout[-1500:]}"
        )
    return done.stdout


def check_output(block: Block, printed: str) -> None:
    """The documented output's lines (but ``...``) appear in what ran, in order."""
    if block.output is None:
        return
    rest = printed
    for want in (x.rstrip() for x in block.output.split("\n")):
        if not want.strip() or want.strip() == "...":
            continue
        at = rest.find(want)
        assert at >= 0, (
            f"{block.where}: a line of the documented output is not printed (in this order):\n"
            f"{want}\n--- printed ---\n{printed[-1500:]}"
        )
        rest = rest[at + len(want) :]


def check_written(block: Block, root: Path) -> None:
    """What a block writes, beyond what it prints: the Ray example's Parquet (the suite's one run
    of examples/ray_ingest.py) holds the samples' chunks, with docread's unique chunk ids, the
    columns its docstring names and one embedding size."""
    if "examples/ray_ingest.py" not in block.code:
        return
    import pyarrow.parquet as pq

    table = pq.read_table(root / "out.parquet")
    assert {"id", "chunk_index", "text", "source", "embedding"} <= set(table.column_names)
    rows = table.to_pylist()
    assert len({r["id"] for r in rows}) == len(rows), block.where  # unique and stable ids
    assert any(r["source"].endswith("report.pdf") and "Revenue grew" in r["text"] for r in rows)
    assert all(len(r["embedding"]) == len(rows[0]["embedding"]) > 0 for r in rows)


def skip_if_marked(block: Block) -> None:
    if block.not_run:
        pytest.skip(f"{block.where}: not run: {block.not_run}")


def test_every_block_is_run_parsed_or_marked() -> None:
    """A block in a language with no runner here fails unless marked (a typo is not skipped)."""
    runnable = {"python", "text", *SHELL, *CONFIG}
    unknown = [
        b.where + f" ```{b.lang}" for b in BLOCKS if b.lang not in runnable and not b.not_run
    ]
    assert not unknown, f"no runner for these blocks; mark them <!-- not run: REASON -->: {unknown}"
    loose = [b.where for b in BLOCKS if b.lang == "text" and not b.not_run]
    assert not loose, (
        f"a ```text block is the output of the runnable block right before it; mark any other "
        f"<!-- not run: REASON -->: {loose}"
    )
    text = README.read_text(encoding="utf-8").split("\n")
    markers = [n for n, x in enumerate(text, 1) if NOT_RUN.fullmatch(x)]
    marked = [b for b in BLOCKS if b.not_run]
    assert len(markers) == len(marked), f"a not-run marker not right before a block: {markers}"


@pytest.mark.parametrize("block", params("python"))
def test_python_block_runs(block: Block, workdir: Path, home: Path) -> None:
    skip_if_marked(block)
    printed = run(block, [sys.executable, "-c", block.code], workdir, home)
    check_output(block, printed)


@pytest.mark.parametrize("block", params(*SHELL))
def test_shell_block_runs(block: Block, workdir: Path, home: Path) -> None:
    """Through bash, as typed, from the repository root (any failing command fails the block)."""
    skip_if_marked(block)
    root = workdir.parents[1]
    check_output(block, run(block, ["bash", "-e", "-o", "pipefail", "-c", block.code], root, home))
    check_written(block, root)


def mcp_servers(config: object) -> list[dict[str, object]]:
    """The server entries of an MCP client config (Claude Desktop/Cursor ``mcpServers``, VS Code
    ``servers``)."""
    if not isinstance(config, dict):
        return []
    found = config.get("mcpServers") or config.get("servers") or {}
    return [s for s in found.values() if isinstance(s, dict)] if isinstance(found, dict) else []


@pytest.mark.parametrize("block", params(*CONFIG))
def test_config_block_parses(block: Block, tmp_path: Path) -> None:
    skip_if_marked(block)
    import docread

    if block.lang == "json":
        servers = mcp_servers(json.loads(block.code))
        for server in (s for s in servers if s.get("command") == "docread"):
            from docread.cli.mcp import build_parser

            args = [str(a) for a in server["args"]]  # type: ignore[attr-defined]
            assert args[0] == "mcp", f"{block.where}: {args}"
            # the workspace is the user's folder (or the client's variable): one that exists here
            at = args.index("--workspace") + 1 if "--workspace" in args else 0
            if at:
                args[at] = str(tmp_path)
            build_parser().parse_args(args[1:])  # SystemExit (argparse) on a wrong flag
    elif block.lang == "toml":
        tomllib.loads(block.code)
    else:
        docread.Settings.from_mapping(yaml.safe_load(block.code), origin=block.where)


def test_parse_understands_markers_outputs_and_headings() -> None:
    """The conventions above, on a small README of its own."""
    sample = "\n".join(
        [
            "## Usage",
            "```python",
            "print('hi')",
            "```",
            "",
            "```text",
            "hi",
            "```",
            "### Install",
            "- a list item:",
            "  ```python",
            "  if True:",
            "      print('in a list')",
            "  ```",
            "<!-- not run: installs packages -->",
            "```bash",
            "pip install docread",
            "```",
        ]
    )
    first, listed, second = parse(sample)
    assert (first.line, first.heading, first.lang, first.output) == (2, "Usage", "python", "hi")
    assert listed.code == "if True:\n    print('in a list')" and listed.heading == "Install"
    assert (second.heading, second.not_run, second.output) == ("Install", "installs packages", None)


def test_skipped_corpus_tests_are_counted_at_the_end_of_the_run(tmp_path: Path) -> None:
    """Outside the usual layout (no ``../shared/corpus``) the corpus tests say, in one line at
    the end, how many were skipped and how to run them; counted by the controller of an xdist
    run from its workers' reports. The README's Development section says the same."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PYTEST_", "DOCREAD_"))}
    env["DOCREAD_CORPUS"] = str(tmp_path)  # an empty folder: no corpus there
    tests = [
        "tests/extractors/tables/test_tabular.py::test_xls_sheets_numbers_and_listing",  # a skipif on a file
        "tests/extractors/office/test_rtf_codepages.py::test_corpus_japanese_rtf_body_is_read",
        "tests/test_api.py::test_public_names",  # no corpus needed: runs
    ]
    argv = [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", *tests]
    for xdist in ([], ["-n", "1", "--dist", "loadscope"]):
        done = subprocess.run(
            argv + xdist, cwd=ROOT, env=env, capture_output=True, text=True, timeout=TIMEOUT
        )
        assert done.returncode == 0, done.stdout[-2000:]
        assert (
            f"docread: 2 corpus tests skipped: no corpus at {tmp_path}; run them with "
            "DOCREAD_CORPUS=/path/to/corpus (README, Development)"
        ) in done.stdout, done.stdout[-2000:]
    done = subprocess.run(
        argv[:-3] + tests[-1:], cwd=ROOT, env=env, capture_output=True, text=True, timeout=TIMEOUT
    )
    assert done.returncode == 0 and "corpus" not in done.stdout
    development = README.read_text(encoding="utf-8").split("## Development", 1)[1]
    assert "DOCREAD_CORPUS=/path/to/corpus" in development


def test_run_sh_runs_any_command_in_the_venv_from_the_callers_folder(tmp_path: Path) -> None:
    """``bash run.sh COMMAND ...`` (the README's way without activating) runs the command as
    ``. .venv/bin/activate`` would (the venv's ``bin`` first on PATH), in the caller's folder.
    Here in a copy of run.sh whose ``.venv`` is set up already (a view of this interpreter's)."""
    repo, elsewhere = tmp_path / "repo", tmp_path / "elsewhere"
    (repo / ".venv" / "bin").mkdir(parents=True)
    elsewhere.mkdir()
    shutil.copy(ROOT / "run.sh", repo / "run.sh")
    venv, real = repo / ".venv", Path(sys.prefix)
    shutil.copy(real / "pyvenv.cfg", venv / "pyvenv.cfg")
    (venv / "lib").symlink_to(real / "lib", target_is_directory=True)
    (venv / "bin" / "python").symlink_to(os.path.realpath(sys.executable))
    (venv / "bin" / "docread").symlink_to(real / "bin" / "docread")
    (venv / ".docread-installed").touch()  # installed: run.sh has nothing to do first
    bin_dirs = {str(real / "bin"), str(Path(sys.executable).parent)}
    path = os.pathsep.join(p for p in os.environ["PATH"].split(os.pathsep) if p not in bin_dirs)
    env = {**os.environ, "PATH": path, "PYTHON": sys.executable}
    env.pop("VIRTUAL_ENV", None)

    def run_sh(*argv: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            ["bash", str(repo / "run.sh"), *argv],
            cwd=elsewhere, env=env, capture_output=True, text=True, timeout=TIMEOUT,
        )  # fmt: skip

    code = "import os, sys, pyarrow; print(sys.prefix, os.getcwd(), os.environ['VIRTUAL_ENV'])"
    done = run_sh("python", "-c", code)
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == [str(venv), str(elsewhere), str(venv)]
    done = run_sh("docread", "--version")
    assert done.returncode == 0 and done.stdout.startswith("docread "), done.stderr
    assert run_sh().returncode == 2
