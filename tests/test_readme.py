"""Every fenced code block of README.md, as written: a user pastes them, so they must run
(tests/readme_blocks.py says how each kind is run or parsed; the blocks that start Ray run in
tests/integrations/test_ray_data.py, on that module's cluster)."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path
from typing import Any

import pytest
import yaml
from conftest import rewrite_ahead
from readme_blocks import (
    BLOCKS,
    CONFIG,
    NOT_RUN,
    README,
    ROOT,
    SHELL,
    TIMEOUT,
    Block,
    Forks,
    forks,
    home,
    layout,
    params,
    parse,
    run_block,
    samples,
    skip_if_marked,
    unimported,
    workdir,
)

__all__ = ["forks", "home", "layout", "samples", "workdir"]  # the blocks' fixtures, used here


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
def test_python_block_runs(block: Block, workdir: Path, home: Path, forks: Forks) -> None:
    """In a process of its own, forked from an interpreter that imported the modules it
    imports but docread's (``readme_blocks.Forks``)."""
    run_block(block, workdir, home, forks)


@pytest.mark.parametrize("block", params(*SHELL))
def test_shell_block_runs(block: Block, workdir: Path, home: Path) -> None:
    """Through bash, as typed, from the repository root (any failing command fails the block)."""
    run_block(block, workdir, home)


def test_a_forked_block_runs_as_python_c_would(forks: Forks, tmp_path: Path) -> None:
    """A python block's process (``Forks``) is ``python -c``'s: ``__main__``, argv ``["-c"]``,
    its folder, empty stdin, an uncaught error printed and exit 1, ``sys.exit``'s code; an
    ``atexit`` handler runs; the block's names are its own."""
    code = (
        "import atexit, os, sys\nassert 'leftover' not in globals()\nleftover = 1\n"
        "atexit.register(print, 'at exit')\n"
        "print(__name__, sys.argv, os.getcwd(), repr(sys.stdin.read()))\n"
    )
    block = Block(1, "test", "python", code)
    printed = forks.run(block, tmp_path)
    assert printed == f"__main__ ['-c'] {tmp_path} ''\nat exit\n"
    assert forks.run(block, tmp_path) == printed
    with pytest.raises(pytest.fail.Exception, match=r"exit 1(.|\n)*ZeroDivisionError"):
        forks.run(Block(2, "test", "python", "print('before')\n1 / 0"), tmp_path)
    with pytest.raises(pytest.fail.Exception, match="exit 3"):
        forks.run(Block(3, "test", "python", "import sys\nsys.exit(3)"), tmp_path)
    assert forks.run(Block(4, "test", "python", "import sys\nsys.exit()"), tmp_path) == ""
    with pytest.raises(pytest.fail.Exception, match=r"exit 1(.|\n)*stopped here"):
        forks.run(Block(5, "test", "python", "import sys\nsys.exit('stopped here')"), tmp_path)


def test_a_forked_script_runs_as_python_path_would(forks: Forks, tmp_path: Path) -> None:
    """A script run by ``Forks.script`` (the example tests') is ``python [-W ...] PATH ARGS``
    in a process of its own: the same exit code and output as a real one, argv, ``__file__``
    and its folder first on sys.path, the given environment alone, ``-W`` options."""
    script = tmp_path / "bin" / "show.py"
    script.parent.mkdir()
    script.write_text(
        "import os, sys, warnings\n"
        "print(__name__, __file__, sys.argv, sys.path[0], os.getcwd(), sorted(os.environ))\n"
        "warnings.warn('hidden', FutureWarning)\nsys.exit(4)\n"
    )
    env = {"ONLY": "this", "PATH": os.environ["PATH"]}
    forked = forks.script(
        script, "a", "b c", cwd=tmp_path, env=env, warnings=["ignore::FutureWarning"]
    )
    real = subprocess.run(
        [sys.executable, "-W", "ignore::FutureWarning", str(script), "a", "b c"],
        cwd=tmp_path, env=env, capture_output=True, text=True, timeout=TIMEOUT,
    )  # fmt: skip
    assert (forked.returncode, forked.stdout, forked.stderr) == (4, real.stdout, "")
    assert real.returncode == 4 and real.stderr == ""
    assert forked.stdout.startswith(
        f"__main__ {script} {[str(script), 'a', 'b c']} {script.parent} {tmp_path} ["
    )
    assert "'ONLY', 'PATH']" in forked.stdout and "HOME" not in forked.stdout
    warned = forks.script(script, cwd=tmp_path, env=env)
    assert warned.returncode == 4 and "FutureWarning: hidden" in warned.stderr


def test_a_block_using_a_submodule_it_does_not_import_fails(forks: Forks, tmp_path: Path) -> None:
    """``import xml`` then ``xml.dom.minidom`` fails in ``python -c`` (xml imports no dom): a
    forked block fails the same way, whatever its server imported for other blocks; a block
    that imports the submodule runs."""
    use = "xml.dom.minidom.parseString('<a/>')\nprint('parsed')\n"
    with pytest.raises(pytest.fail.Exception, match=r"uses xml\.dom without importing it"):
        forks.run(Block(6, "test", "python", "import xml\n" + use), tmp_path)
    assert forks.run(Block(7, "test", "python", "import xml.dom.minidom\n" + use), tmp_path) == (
        "parsed\n"
    )


def test_a_module_a_package_binds_itself_is_no_unimported_submodule() -> None:
    """``import os`` then ``os.path`` runs in ``python -c`` (os binds ``path`` to posixpath
    itself): not refused, while ``xml.dom`` after ``import xml`` still is."""

    def block(code: str) -> Block:
        return Block(8, "test", "python", code)

    assert unimported(block("import os\nprint(os.path.join('a', 'b'), os.sep)\n")) == []
    assert unimported(block("import os.path\nprint(os.path.basename('/a/b'))\n")) == []
    assert unimported(block("import os, xml\nos.path.join('a')\nxml.dom.minidom\n")) == ["xml.dom"]


def test_the_blocks_that_start_ray_are_run_with_the_ray_tests() -> None:
    """The blocks left out above are run by tests/integrations/test_ray_data.py: the Python one
    and the Ray example's (whose Parquet ``check_written`` reads)."""
    ray_blocks = [p.values[0] for p in params(ray=True)]  # type: ignore[attr-defined]
    assert [b.lang for b in ray_blocks] == ["python", "bash"], [b.where for b in ray_blocks]
    assert "examples/ray_ingest.py" in ray_blocks[1].code
    assert (
        "test_readme_ray_block_runs" in (ROOT / "tests/integrations/test_ray_data.py").read_text()
    )


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


def test_an_xdist_runs_controller_rewrites_the_test_modules_asserts_ahead_of_its_workers(
    pytestconfig: pytest.Config, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``conftest.rewrite_ahead`` (an xdist controller's, before its workers collect: each
    would rewrite every module again on a clean clone) leaves the pyc pytest's import hook
    reads, with the asserts rewritten; each file once, split over the processes."""
    from _pytest.assertion.rewrite import PYC_TAIL, _read_pyc

    files = [tmp_path / f"test_{n}.py" for n in range(3)]
    for n, path in enumerate(files):
        path.write_text(f"def test():\n    seen = {n}\n    assert seen == 7\n")
    monkeypatch.setattr(sys, "dont_write_bytecode", False)  # as run.sh runs pytest
    rewrite_ahead(pytestconfig, files, processes=2)
    for n, path in enumerate(files):
        code = _read_pyc(path, path.parent / "__pycache__" / (path.stem + PYC_TAIL))
        assert code is not None, path
        names: dict[str, Any] = {}
        exec(code, names)
        with pytest.raises(AssertionError, match=rf"assert {n} == 7"):  # rewritten: the values
            names["test"]()


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
