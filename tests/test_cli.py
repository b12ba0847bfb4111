"""The docread command: output and exit codes (0 ok, 1 read error, 2 usage)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import docread


def _run(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "docread.cli", *args],
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=60,
    )


def test_prints_the_agent_view(tmp_path: Path) -> None:
    (tmp_path / "a.txt").write_text("alpha\nbeta\ngamma\n")
    proc = _run("a.txt", "--offset", "2", "--limit", "1", cwd=tmp_path)
    assert proc.returncode == 0
    assert proc.stdout == "     2\tbeta\n\n[Showing lines 2-2 of 3. Use offset=3 to read more.]\n"


def test_json_output(tmp_path: Path) -> None:
    (tmp_path / "a.txt").write_text("alpha\n")
    proc = _run("a.txt", "--output-format", "json", cwd=tmp_path)
    assert proc.returncode == 0 and '"text": "alpha"' in proc.stdout


def test_read_error_exits_1_with_the_message_on_stderr(tmp_path: Path) -> None:
    proc = _run("missing.txt", cwd=tmp_path)
    assert proc.returncode == 1 and proc.stdout == ""
    assert "missing.txt: no such file or directory" in proc.stderr


def test_usage_errors_exit_2(tmp_path: Path) -> None:
    (tmp_path / "a.txt").write_text("alpha\n")
    assert _run("a.txt", "--offset", "0", cwd=tmp_path).returncode == 2
    assert _run("a.txt", "--pages", "5-3", cwd=tmp_path).returncode == 2
    assert _run(cwd=tmp_path).returncode == 2
    assert _run("a.txt", "--output-format", "html", cwd=tmp_path).returncode == 2


def test_version(tmp_path: Path) -> None:
    proc = _run("--version", cwd=tmp_path)
    assert proc.returncode == 0 and proc.stdout.strip() == f"docread {docread.__version__}"


def test_workspace_option_sandboxes(tmp_path: Path) -> None:
    (tmp_path / "ws").mkdir()
    (tmp_path / "outside.txt").write_text("secret\n")
    proc = _run("../outside.txt", "--workspace", str(tmp_path / "ws"), cwd=tmp_path)
    assert (
        proc.returncode == 1
        and "outside the workspace" in proc.stderr
        and "secret" not in proc.stdout
    )


def test_outline_and_section_flags(tmp_path: Path) -> None:
    """issue 36: ``--outline`` lists the sections, ``--section`` reads one (id or heading)."""
    (tmp_path / "guide.md").write_text("# Guide\n\n## Install\n\nRun it.\n\n## Use\n\nCall it.\n")
    proc = _run("read", "guide.md", "--outline", cwd=tmp_path)
    assert proc.returncode == 0 and "  s2  Install  (lines 3-6, ~" in proc.stdout
    proc = _run("guide.md", "--section", "use", cwd=tmp_path)
    assert proc.returncode == 0 and "## Use\n\nCall it." in proc.stdout
    assert "Run it." not in proc.stdout and "**Section:** s3 Use (lines 7-9, ~" in proc.stdout
    proc = _run("guide.md", "--outline", "--view", "visual", cwd=tmp_path)
    assert proc.returncode == 2 and "--outline and --view visual" in proc.stderr
    proc = _run("guide.md", "--section", "Nope", cwd=tmp_path)
    assert proc.returncode == 2 and "no section of guide.md has that id or heading" in proc.stderr
