"""Every fenced code block of README.md, as written: a user pastes them, so they must run.

- ```python blocks run, each in a fresh interpreter, in a temp copy of the sample documents laid
  out as in the repository (cwd ``examples/samples``, ``../../tools-security.yaml`` next to it),
  with a private HOME (cache) and a per-block timeout.
- ```bash / ```sh / ```console blocks run when every command is ``docread ...`` (the CLI; stdin
  closed, so ``docread mcp`` over stdio ends at once), one after the other in one such folder.
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


@pytest.fixture
def workdir(tmp_path: Path, samples: Path) -> Path:
    """A fresh copy of the samples at examples/samples, the settings file two levels up."""
    shutil.copy(ROOT / "tools-security.yaml", tmp_path / "tools-security.yaml")
    return Path(shutil.copytree(samples, tmp_path / "examples" / "samples", symlinks=True))


def run(block: Block, argv: list[str], cwd: Path, home: Path, stdin: str = "") -> str:
    """One process of a block; its stdout. Fails naming the block on an error or the timeout."""
    env = {**os.environ, "HOME": str(home), "PYTHONUNBUFFERED": "1"}
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


#: runs a shell block's ``docread`` commands one after the other in one interpreter (one process
#: per block, as for Python blocks); the first that fails ends it with its exit code
CLI_RUNNER = """
import json, shlex, sys
from docread.cli import main
for argv in json.loads(sys.argv[1]):
    try:
        code = main(argv)
    except SystemExit as exc:  # argparse: --version, --help, a bad flag
        code = exc.code
    sys.stdout.flush()
    if code:
        sys.exit(f"exit {code}: docread {shlex.join(argv)}")
"""


def commands(block: Block) -> list[list[str]]:
    """The block's commands (``\\`` continuations joined, comments dropped), each as argv."""
    joined = re.sub(r"\\\n", " ", block.code)
    return [argv for x in joined.split("\n") if (argv := shlex.split(x, comments=True))]


@pytest.mark.parametrize("block", params(*SHELL))
def test_shell_block_runs(block: Block, workdir: Path, home: Path) -> None:
    skip_if_marked(block)
    argvs = commands(block)
    others = [shlex.join(a) for a in argvs if a[0] != "docread"]
    assert not others, (
        f"{block.where}: only `docread ...` commands run here; mark the block "
        f"<!-- not run: REASON --> or make it a docread command: {others}"
    )
    script = [sys.executable, "-c", CLI_RUNNER, json.dumps([argv[1:] for argv in argvs])]
    check_output(block, run(block, script, workdir, home))


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
            from docread.cli.mcp_server import build_parser

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
    assert commands(Block(1, "", "bash", "docread a.pdf \\\n  --pages 1  # x\n\n")) == [
        ["docread", "a.pdf", "--pages", "1"]
    ]
