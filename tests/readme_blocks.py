"""How README.md's fenced code blocks are found and run (tests/test_readme.py runs them; the blocks
that start Ray run in tests/integrations/test_ray_data.py, on that module's Ray cluster).

Blocks run as a user types them after the set-up (``bash run.sh demo``): in a temp copy of the
repository's layout (the root with ``tools-security.yaml``, ``examples/*.py``, the sample
documents in ``examples/samples`` and ``.venv``, a link to this interpreter's virtualenv), with
the venv active as ``. .venv/bin/activate`` leaves it (its ``bin`` first on PATH,
``VIRTUAL_ENV``), a private HOME (cache) and a per-block timeout.

- ```python blocks run, each in a fresh process, in ``examples/samples`` (the README says the
  examples run there): a child forked from one interpreter per test module (``Forks``) that
  imported the third-party modules the blocks import (the framework stacks, 1-3 s of CPU each),
  not docread's own, so each block runs as ``python -c`` would, without importing those again.
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

import ast
import json
import os
import re
import select
import shlex
import shutil
import subprocess
import sys
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
README = ROOT / "README.md"
TIMEOUT = 120  # seconds per block (the first read of a PDF or office file starts a worker)
NOT_RUN = re.compile(r"\s*<!--\s*not run:\s*(.+?)\s*-->\s*")  # a line of its own
FENCE = re.compile(r"^( *)(`{3,}|~{3,})\s*([\w+-]*)")  # indented too (a block in a list item)
SHELL = {"bash", "sh", "shell", "console"}
CONFIG = {"json", "yaml", "yml", "toml"}
# a block that starts Ray (ray.init, or the Ray example, which calls it): run on the Ray tests'
# cluster, which it joins through RAY_ADDRESS, rather than starting one of its own (~7 s of CPU)
STARTS_RAY = re.compile(r"\bray\.init\(|examples/ray_ingest\.py")


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


def params(*langs: str, ray: bool = False) -> list[object]:
    """The blocks in these languages (all without), those that start Ray with ``ray=True``, the
    others without."""
    return [
        pytest.param(b, id=f"L{b.line}-{b.lang}")
        for b in BLOCKS
        if (b.lang in langs or not langs) and starts_ray(b) == ray
    ]


def starts_ray(block: Block) -> bool:
    return (
        block.lang in {"python", *SHELL}
        and not block.not_run
        and bool(STARTS_RAY.search(block.code))
    )


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


def user_env(home: Path, **env_vars: str) -> dict[str, str]:
    """The environment a block runs in: the venv active, a private HOME, ``env_vars`` set."""
    env = {**os.environ, "HOME": str(home), "PYTHONUNBUFFERED": "1", "VIRTUAL_ENV": sys.prefix}
    env.update(env_vars)
    env["PATH"] = os.pathsep.join([str(Path(sys.executable).parent), env.get("PATH", "")])
    env.pop("DOCREAD_CONFIG", None)
    return env


def run(block: Block, argv: list[str], cwd: Path, home: Path, **env_vars: str) -> str:
    """One process of a block, the venv active (and ``env_vars`` set); its stdout. Fails naming
    the block on an error or the timeout."""
    try:
        done = subprocess.run(
            argv, cwd=cwd, env=user_env(home, **env_vars), input="", capture_output=True,
            text=True, timeout=TIMEOUT,
        )  # fmt: skip
    except subprocess.TimeoutExpired:
        pytest.fail(f"{block.where}: {shlex.join(argv)[:80]} ran past {TIMEOUT} s")
    return ended(block, done.returncode, done.stdout, done.stderr)


def ended(block: Block, code: int, stdout: str, stderr: str) -> str:
    """A block's process's stdout; fails naming the block when it exited with an error."""
    if code != 0:
        pytest.fail(
            f"{block.where}: exit {code}\n{block.code}\n--- stderr ---\n"
            f"{stderr[-3000:]}\n--- stdout ---\n{stdout[-1500:]}"
        )
    return stdout


# The fork server: imports the modules named in argv[1] (one that fails is left to the block
# that imports it, to fail in its own process with the real error) and freezes them out of the
# collector (a child's collections then copy none of their pages), then per request line (a
# JSON job: code, cwd, out, err, pid files; or a script's path and args instead of code, and
# an environment and ``-W`` options) forks a child that runs the code as ``python -c`` would
# (``__main__``, argv ["-c"], stdin empty, stdout and stderr to the files, an uncaught error
# printed and exit 1; at its end its threads joined and atexit handlers run, as at an
# interpreter's exit, but the imported modules not torn down one by one), or the script as
# ``python [-W OPTION] PATH ARGS`` would (argv [PATH, *ARGS], its folder first on sys.path,
# ``__file__``), and answers with its exit code.
_SERVER = """
import atexit, gc, importlib, json, os, sys, threading, traceback, types, warnings
for name in json.loads(sys.argv[1]):
    try:
        importlib.import_module(name)
    except Exception:
        pass
gc.freeze()
for line in sys.stdin:
    job = json.loads(line)
    pid = os.fork()
    if pid == 0:
        os.dup2(os.open(os.devnull, os.O_RDONLY), 0)
        for fd, name in ((1, "out"), (2, "err")):
            os.dup2(os.open(job[name], os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600), fd)
        os.chdir(job["cwd"])
        env = job.get("env")
        if env is not None:
            os.environ.clear()
            os.environ.update(env)
            locale = env.get("LC_ALL") or env.get("LC_CTYPE") or env.get("LANG") or "C"
            if locale in ("C", "POSIX") and env.get("PYTHONCOERCECLOCALE") != "0":
                os.environ["LC_CTYPE"] = "C.UTF-8"  # PEP 538, as an interpreter started so does
        warnings._processoptions(job.get("warnings", []))
        main = sys.modules["__main__"] = types.ModuleType("__main__")
        if job.get("path"):
            sys.argv = [job["path"], *job["args"]]
            sys.path[0] = os.path.dirname(os.path.abspath(job["path"]))
            main.__file__ = job["path"]
            with open(job["path"], encoding="utf-8") as f:
                source, name = f.read(), job["path"]
        else:
            sys.argv = ["-c"]
            source, name = job["code"], "<string>"
        code = 0
        try:
            exec(compile(source, name, "exec"), main.__dict__)
        except SystemExit as exc:  # as the interpreter: None is 0, another object printed, 1
            code = 0 if exc.code is None else exc.code if isinstance(exc.code, int) else 1
            if not isinstance(exc.code, int | None):
                print(exc.code, file=sys.stderr)
        except BaseException:
            traceback.print_exc()
            code = 1
        threading._shutdown()
        atexit._run_exitfuncs()
        sys.stdout.flush()
        sys.stderr.flush()
        os._exit(code)
    with open(job["pid"], "w") as f:
        f.write(str(pid))
    print(os.waitstatus_to_exitcode(os.waitpid(pid, 0)[1]), flush=True)
"""


class Forks:
    """One interpreter that forks a process per python block or script (see ``_SERVER``),
    started with ``env`` (a block's: ``user_env``) after importing ``modules``; ``close`` ends
    it."""

    def __init__(self, folder: Path, modules: Iterable[str], env: dict[str, str]) -> None:
        self.folder = folder
        self.server = subprocess.Popen(
            [sys.executable, "-c", _SERVER, json.dumps(sorted(modules))], stdin=subprocess.PIPE,
            stdout=subprocess.PIPE, env=env, bufsize=0,
        )  # fmt: skip

    def run(self, block: Block, cwd: Path) -> str:
        """The block's stdout; fails naming the block on an error or the timeout (its process
        killed), or where it uses a submodule it does not import (``unimported``)."""
        missing = unimported(block)
        if missing:
            pytest.fail(f"{block.where}: uses {', '.join(missing)} without importing it")
        code, out, err = self._fork({"code": block.code}, f"L{block.line}", cwd, TIMEOUT)
        return ended(block, code, out, err)

    def script(
        self, path: Path, *args: str, cwd: Path, env: dict[str, str] | None = None,
        warnings: Sequence[str] = (), timeout: float = TIMEOUT,
    ) -> subprocess.CompletedProcess[str]:  # fmt: skip
        """``python [-W WARNINGS] PATH ARGS`` in ``cwd`` with ``env`` (the server's without),
        as ``subprocess.run`` gives it; fails on the timeout (its process killed), or where the
        script uses a submodule it does not import (``unimported``)."""
        missing = unimported(Block(0, path.name, "python", path.read_text(encoding="utf-8")))
        if missing:
            pytest.fail(f"{path.name}: uses {', '.join(missing)} without importing it")
        job = {"path": str(path), "args": list(args), "env": env, "warnings": list(warnings)}
        code, out, err = self._fork(job, path.stem, cwd, timeout)
        return subprocess.CompletedProcess([sys.executable, str(path), *args], code, out, err)

    def _fork(
        self, job: dict[str, object], name: str, cwd: Path, timeout: float
    ) -> tuple[int, str, str]:
        """One child of the server: its exit code, stdout and stderr."""
        files = {kind: str(self.folder / f"{name}.{kind}") for kind in ("out", "err", "pid")}
        assert self.server.stdin is not None and self.server.stdout is not None
        self.server.stdin.write((json.dumps({**job, "cwd": str(cwd), **files}) + "\n").encode())
        if not select.select([self.server.stdout], [], [], timeout)[0]:
            os.kill(int(Path(files["pid"]).read_text()), 9)
            self.server.stdout.readline()
            pytest.fail(f"{name}: ran past {timeout} s")
        code = int(self.server.stdout.readline())
        out, err = (Path(files[kind]).read_text(errors="replace") for kind in ("out", "err"))
        return code, out, err

    def close(self) -> None:
        assert self.server.stdin is not None
        self.server.stdin.close()
        self.server.wait(timeout=TIMEOUT)


def imported(code: str) -> set[str]:
    """The modules Python code imports, but docread's own (importing ``docread.Reader`` starts
    a worker template: each block's or script's process starts its own, as a user's does)."""
    names: set[str] = set()
    for node in ast.walk(ast.parse(code)):
        if isinstance(node, ast.Import):
            names |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            names.add(node.module)
    return {n for n in names if n.split(".")[0] not in DOCREAD_PACKAGES}


def unimported(block: Block) -> list[str]:
    """The submodules a block reaches as attributes of a package it imports (``import xml``,
    then ``xml.dom.minidom``) without importing them: in ``python -c`` that is an AttributeError
    unless the package happens to import them itself; in a fork whose server imported them for
    another block it would pass, so it is refused here. A name the package binds to a module
    of another name (``os.path``, posixpath) is no submodule: the package always binds it."""
    import importlib.util

    tree = ast.parse(block.code)
    imported: set[str] = set()
    bound: set[str] = set()  # names ``import a`` / ``import a.b`` bind to the package ``a``
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                parts = alias.name.split(".")
                imported |= {".".join(parts[: i + 1]) for i in range(len(parts))}
                if alias.asname is None:
                    bound.add(parts[0])
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            imported.add(node.module)
    missing: list[str] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute) and not isinstance(node.value, ast.Attribute):
            continue  # a chain is looked at from its outermost attribute only
        chain: list[str] = []
        while isinstance(node, ast.Attribute):
            chain.insert(0, node.attr)
            node = node.value
        if not (isinstance(node, ast.Name) and node.id in bound and chain):
            continue
        dotted = node.id
        for attr in chain:
            dotted = f"{dotted}.{attr}"
            if dotted in imported:
                continue
            try:
                spec = importlib.util.find_spec(dotted)
            except (ImportError, ValueError):
                spec = None
            # a module under another name (``os.path`` is posixpath) is one the package binds
            # itself at its import, as ``os`` does: no submodule to import
            if spec is not None and spec.name == dotted and dotted not in missing:
                missing.append(dotted)
            break
    return missing


DOCREAD_PACKAGES = ("docread", "langchain_docread", "llama_index_docread")


@pytest.fixture(scope="module")
def forks(home: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Forks]:
    """The module's fork server for python blocks: it imported what the blocks import."""
    runs = [b for b in BLOCKS if b.lang == "python" and not b.not_run and not starts_ray(b)]
    modules = {name for b in runs for name in imported(b.code)}
    server = Forks(tmp_path_factory.mktemp("blocks"), modules, user_env(home))
    yield server
    server.close()


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


def run_block(
    block: Block, workdir: Path, home: Path, forks: Forks | None = None, **env_vars: str
) -> None:
    """A python or shell block run as the module docstring says (a python block forked from
    ``forks`` when given, else in ``python -c``), its output and what it writes checked."""
    skip_if_marked(block)
    assert forks is None or not env_vars, "a fork server runs its blocks in its own environment"
    if block.lang == "python":
        if forks is not None:
            check_output(block, forks.run(block, workdir))
        else:
            argv = [sys.executable, "-c", block.code]
            check_output(block, run(block, argv, workdir, home, **env_vars))
        return
    root = workdir.parents[1]
    argv = ["bash", "-e", "-o", "pipefail", "-c", block.code]
    check_output(block, run(block, argv, root, home, **env_vars))
    check_written(block, root)
