"""The programs docread runs: one table (``PROGRAMS``, ``find_program``), and ``run_tool``, the one
subprocess helper (no shell, hard timeout, capped output, group kill)."""

from __future__ import annotations

import dataclasses
import re
import sys
import time
from pathlib import Path

import docread
import pytest
from docread import DependencyMissingError, ExtractionError, ExtractionTimeoutError
from docread.extractors.programs import PROGRAMS, find_program, run_tool


def test_output_and_exit_status() -> None:
    result = run_tool([sys.executable, "-c", "print('hi')"], timeout=30, what="echo")
    assert (result.returncode, result.stdout.strip(), result.truncated) == (0, b"hi", False)
    with pytest.raises(ExtractionError, match=r"boom failed \(exit 3\): oops"):
        run_tool(
            [sys.executable, "-c", "import sys; sys.stderr.write('oops'); sys.exit(3)"],
            timeout=30,
            what="boom",
        )


def test_a_child_that_never_reads_stdin_cannot_outlast_the_timeout() -> None:
    start = time.monotonic()
    with pytest.raises(ExtractionTimeoutError, match="timeout of 1 s"):
        run_tool(["sleep", "60"], timeout=1, what="sleeper", stdin=b"x" * (16 * 1024 * 1024))
    assert time.monotonic() - start < 10


def test_output_over_the_cap_stops_the_program_early() -> None:
    start = time.monotonic()
    code = "import sys\nwhile True: sys.stdout.write('y' * 65536)"
    result = run_tool([sys.executable, "-c", code], timeout=60, what="yes", max_output=1 << 20)
    assert result.truncated and len(result.stdout) == 1 << 20
    assert time.monotonic() - start < 30


def test_a_shell_string_is_refused_and_a_missing_program_is_a_dependency_error() -> None:
    with pytest.raises(TypeError):
        run_tool("ls -l", timeout=5, what="ls")  # type: ignore[arg-type]
    with pytest.raises(DependencyMissingError, match="program not found"):
        run_tool(["/nonexistent/tool"], timeout=5, what="tool")


# -- one table of programs ----------------------------------------------------------------------
def test_a_missing_program_names_the_file_what_needs_it_and_how_to_install_it(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    gone = dataclasses.replace(PROGRAMS["antiword"], locate=lambda: None)
    monkeypatch.setitem(PROGRAMS, "antiword", gone)
    with pytest.raises(DependencyMissingError) as caught:
        find_program("antiword", path="old.doc", need="reading legacy .doc files")
    assert str(caught.value) == (
        "old.doc: reading legacy .doc files needs the program 'antiword', which is not "
        "installed; install it with: apt-get install antiword"
    )
    assert caught.value.path == "old.doc"


def test_the_formats_command_reports_the_table(monkeypatch: pytest.MonkeyPatch) -> None:
    from docread.cli.formats import TOOLS, tool_status, tools_of
    from docread.formats import BY_KEY

    assert set(TOOLS) == {"libmagic", *PROGRAMS}
    assert tools_of(BY_KEY["doc"]) == ["antiword"] and tools_of(BY_KEY["pdf"]) == ["tesseract"]
    gone = dataclasses.replace(PROGRAMS["pandoc"], locate=lambda: None)
    monkeypatch.setitem(PROGRAMS, "pandoc", gone)
    assert tool_status()["pandoc"] is False


def test_programs_are_looked_up_only_through_the_table() -> None:
    """No module finds a program its own way (``shutil.which``, pypandoc's lookup): a program
    is in ``PROGRAMS`` and found by ``find_program`` (or ``Program.locate``)."""
    core = Path(docread.__file__).resolve().parent
    own = re.compile(r"shutil\.which\(|get_pandoc_path\(")
    found = [
        str(path.relative_to(core))
        for path in core.rglob("*.py")
        if path.name != "programs.py" and own.search(path.read_text(encoding="utf-8"))
    ]
    assert found == []
