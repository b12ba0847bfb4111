"""The docread command: output and exit codes (0 ok, 1 read error, 2 usage)."""

from __future__ import annotations

import json
import logging
from pathlib import Path

import docread
import pytest
from conftest import CliHere, docread_warnings, run_cli
from docread.cli import main


def test_prints_the_agent_view(tmp_path: Path) -> None:
    """As a user runs it, in an interpreter of its own (``run_cli``); the tests after it run
    ``docread.cli.main`` here (``cli_here``: the same command, ~0.9 s of CPU less each)."""
    (tmp_path / "a.txt").write_text("alpha\nbeta\ngamma\n")
    proc = run_cli("a.txt", "--offset", "2", "--limit", "1", cwd=tmp_path)
    assert proc.returncode == 0
    assert proc.stdout == "     2\tbeta\n\n[Showing lines 2-2 of 3. Use offset=3 to read more.]\n"


def test_json_output(tmp_path: Path, cli_here: CliHere) -> None:
    (tmp_path / "a.txt").write_text("alpha\n")
    code, out, _ = cli_here("a.txt", "--output-format", "json", cwd=tmp_path)
    assert code == 0 and '"text": "alpha"' in out


def test_read_error_exits_1_with_the_message_on_stderr(tmp_path: Path, cli_here: CliHere) -> None:
    code, out, err = cli_here("missing.txt", cwd=tmp_path)
    assert code == 1 and out == ""
    assert "missing.txt: no such file or directory" in err


def test_usage_errors_exit_2(tmp_path: Path, cli_here: CliHere) -> None:
    (tmp_path / "a.txt").write_text("alpha\n")
    assert cli_here("a.txt", "--offset", "0", cwd=tmp_path)[0] == 2
    assert cli_here("a.txt", "--pages", "5-3", cwd=tmp_path)[0] == 2
    assert cli_here(cwd=tmp_path)[0] == 2
    assert cli_here("a.txt", "--output-format", "html", cwd=tmp_path)[0] == 2


def test_version(tmp_path: Path, cli_here: CliHere) -> None:
    code, out, _ = cli_here("--version", cwd=tmp_path)
    assert code == 0 and out.strip() == f"docread {docread.__version__}"


def test_workspace_option_sandboxes(tmp_path: Path, cli_here: CliHere) -> None:
    (tmp_path / "ws").mkdir()
    (tmp_path / "outside.txt").write_text("secret\n")
    code, out, err = cli_here("../outside.txt", "--workspace", str(tmp_path / "ws"), cwd=tmp_path)
    assert code == 1 and "outside the workspace" in err and "secret" not in out


# -- an error is logged once, where it is handled --------------------------------------------------
def test_the_cli_logs_the_error_it_reports_once(
    tmp_path: Path, caplog: pytest.LogCaptureFixture, capsys: pytest.CaptureFixture[str]
) -> None:
    from docread.cli import main

    with caplog.at_level(logging.DEBUG, logger="docread"):
        assert main(["gone.txt", "--workspace", str(tmp_path)]) == 1
    assert "gone.txt" in capsys.readouterr().err
    [record] = docread_warnings(caplog)
    assert record.docread_path == "gone.txt"


def test_load_reads_a_path_outside_the_cwd_as_the_python_loaders_do(
    tmp_path: Path, cli_here: CliHere
) -> None:
    """``docread load`` follows the loaders' workspace rule (a path the user names is read,
    ``source`` absolute, the ids the Python loaders give); ``--workspace`` still sandboxes."""
    (tmp_path / "here").mkdir()
    (tmp_path / "elsewhere").mkdir()
    outside = tmp_path / "elsewhere" / "o.txt"
    outside.write_text("outside text\n")
    code, out, err = cli_here("load", str(outside), cwd=tmp_path / "here")
    assert code == 0, err
    [line] = [json.loads(x) for x in out.splitlines()]
    [doc] = docread.iter_documents(str(outside), config={"cache": {"enabled": False}})
    assert line["metadata"]["source"] == str(outside) and line["id"] == doc.id
    code, _, err = cli_here("load", str(outside), "--workspace", ".", cwd=tmp_path / "here")
    assert code == 1 and "outside the workspace" in err


def test_a_near_miss_flag_names_the_option_it_was_meant_to_be(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "a.txt").write_text("alpha\n")
    for argv, meant in [
        (["read", "a.txt", "--page", "1"], "--page 1 (did you mean --pages?)"),
        (["a.txt", "--row", "1", "--offest", "2"], "(did you mean --rows, --offset?)"),
        (["load", "a.txt", "--chunksize", "3"], "(did you mean --chunk-size?)"),
        (["mcp", "--transprt", "http"], "(did you mean --transport?)"),
        (["read", "a.txt", "--zzzz"], "unrecognized arguments: --zzzz\n"),
    ]:
        with pytest.raises(SystemExit) as exited:
            main(argv)
        assert exited.value.code == 2
        assert meant in capsys.readouterr().err


def test_outline_and_section_flags(tmp_path: Path, cli_here: CliHere) -> None:
    """issue 36: ``--outline`` lists the sections, ``--section`` reads one (id or heading)."""
    (tmp_path / "guide.md").write_text("# Guide\n\n## Install\n\nRun it.\n\n## Use\n\nCall it.\n")
    code, out, _ = cli_here("read", "guide.md", "--outline", cwd=tmp_path)
    assert code == 0 and "  s2  Install  (lines 3-6, ~" in out
    code, out, _ = cli_here("guide.md", "--section", "use", cwd=tmp_path)
    assert code == 0 and "## Use\n\nCall it." in out
    assert "Run it." not in out and "**Section:** s3 Use (lines 7-9, ~" in out
    code, _, err = cli_here("guide.md", "--outline", "--view", "visual", cwd=tmp_path)
    assert code == 2 and "--outline and --view visual" in err
    code, _, err = cli_here("guide.md", "--section", "Nope", cwd=tmp_path)
    assert code == 2 and "no section of guide.md has that id or heading" in err
