"""run_tool: the one subprocess helper (no shell, hard timeout, capped output, group kill)."""

from __future__ import annotations

import sys
import time

import pytest
from docread import DependencyMissingError, ExtractionError, ExtractionTimeoutError
from docread.isolation.tools import run_tool


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
