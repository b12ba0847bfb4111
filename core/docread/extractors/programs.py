"""The programs docread runs (tesseract, pandoc, antiword): ``PROGRAMS``, the one table of what
each is for, which formats need it, how to install it and how it is found (``find_program``);
``run_tool``, the one way to run one, in ``environ.environment()``, the environment of every
process docread starts (the worker template, its workers, every tool).

``run_tool``: fixed argv (never a shell), a timeout, output capped in memory, and on timeout the
whole process group is killed with SIGKILL, so a child that ignores SIGTERM or forks helpers
cannot outlive it. Extractors import this module; it imports nothing above ``errors``.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import signal
import subprocess
import sys
import threading
from collections.abc import Callable, Mapping, Sequence
from typing import IO

from ..errors import DependencyMissingError, ExtractionError, ExtractionTimeoutError
from ..model import dataclass
from .environ import environment

DEFAULT_MAX_OUTPUT = 64 * 1024 * 1024


@dataclass(frozen=True, slots=True)
class Program:
    """An external program: what it is for, the formats that need it, how to install it, and
    ``locate()``, its path on this machine (None when it is not installed)."""

    name: str
    used_for: str
    formats: frozenset[str]
    install: str
    locate: Callable[[], str | None]


def _tesseract() -> str | None:
    """pytesseract's ``tesseract_cmd`` (the knob users already set, by importing it) on PATH,
    else ``tesseract``. Read, never imported: pytesseract imports pandas (0.26 s a process), and
    every PDF's cache key asks whether tesseract is here."""
    module = sys.modules.get("pytesseract.pytesseract")
    return shutil.which(str(getattr(module, "tesseract_cmd", "tesseract")))


def _pandoc() -> str | None:
    """The pandoc pypandoc finds (pypandoc-binary's own, else one on PATH)."""
    try:
        import pypandoc

        return str(pypandoc.get_pandoc_path())
    except (ImportError, OSError):
        return None


#: Every program docread runs, by name.
PROGRAMS: dict[str, Program] = {
    p.name: p
    for p in (
        Program(
            "tesseract", "OCR of scanned PDF pages and images",
            frozenset({"pdf", "png", "jpeg", "gif", "bmp", "tiff", "webp"}),
            "apt-get install tesseract-ocr (or brew install tesseract)", _tesseract,
        ),
        Program(
            "pandoc", "DOCX, ODT, RTF, EPUB and RTF-only .msg bodies",
            frozenset({"docx", "odt", "rtf", "epub", "msg"}), "pip install pypandoc-binary",
            _pandoc,
        ),
        Program(
            "antiword", "legacy Word .doc", frozenset({"doc"}), "apt-get install antiword",
            lambda: shutil.which("antiword"),
        ),
    )
}  # fmt: skip


def find_program(name: str, *, path: str | None = None, need: str) -> str:
    """The path of the program ``name`` of ``PROGRAMS``, or DependencyMissingError naming the file
    (``path``), what needs the program (``need``: "OCR", "reading docx files") and how to
    install it."""
    program = PROGRAMS[name]
    found = program.locate()
    if found is None:
        where = f"{path}: " if path else ""
        raise DependencyMissingError(
            f"{where}{need} needs the program {name!r}, which is not installed; install it "
            f"with: {program.install}",
            path=path,
        )
    return found


@dataclass(frozen=True, slots=True)
class ToolResult:
    returncode: int
    stdout: bytes
    stderr: bytes
    truncated: bool


def run_tool(
    argv: Sequence[str],
    *,
    timeout: float,
    what: str,
    path: str | None = None,
    stdin: bytes | None = None,
    max_output: int = DEFAULT_MAX_OUTPUT,
    env: Mapping[str, str] | None = None,
    cwd: str | None = None,
    check: bool = True,
) -> ToolResult:
    """Run ``argv`` with a hard timeout; ``what`` names the step in errors ("pandoc", "OCR page 3");
    its environment is ``environment()`` and ``env``."""
    if isinstance(argv, str):
        raise TypeError("argv must be a sequence of arguments, never a shell string")
    full_env = {**environment(), **(env or {})}
    try:
        proc = subprocess.Popen(
            list(argv),
            stdin=subprocess.PIPE if stdin is not None else subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            env=full_env,
            cwd=cwd,
            start_new_session=True,  # its own process group, killed as one
        )
    except FileNotFoundError as exc:
        raise DependencyMissingError(f"{what}: program not found: {argv[0]}", path=path) from exc
    out = _Capped(max_output, on_full=lambda: kill_group(proc, wait=False))
    err = _Capped(1024 * 1024)
    threads = [
        threading.Thread(target=out.drain, args=(proc.stdout,), daemon=True),
        threading.Thread(target=err.drain, args=(proc.stderr,), daemon=True),
    ]
    if stdin is not None:  # fed from a thread: a child that stops reading cannot block the timeout
        threads.append(threading.Thread(target=_feed, args=(proc.stdin, stdin), daemon=True))
    for t in threads:
        t.start()
    try:
        proc.wait(timeout=timeout)
    except subprocess.TimeoutExpired:
        kill_group(proc)
        raise ExtractionTimeoutError(
            f"{path or argv[0]}: {what} took longer than its timeout of {timeout:g} s and was stopped",
            path=path,
        ) from None
    except BaseException:  # interrupted (KeyboardInterrupt, a worker being stopped): leave nothing
        kill_group(proc)
        raise
    finally:
        for t in threads:
            t.join(timeout=5)
    result = ToolResult(proc.returncode, bytes(out.buf), bytes(err.buf), out.truncated)
    if check and proc.returncode != 0 and not out.truncated:
        message = result.stderr.decode("utf-8", "replace").strip()[-2000:]
        raise ExtractionError(
            f"{path or argv[0]}: {what} failed (exit {proc.returncode}): {message}", path=path
        )
    return result


def _feed(pipe: IO[bytes] | None, data: bytes) -> None:
    if pipe is None:
        return
    with contextlib.suppress(BrokenPipeError, OSError), pipe:
        pipe.write(data)


def kill_group(proc: subprocess.Popen[bytes], *, wait: bool = True) -> None:
    """SIGKILL the process group (the program and anything it started), then reap it."""
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(proc.pid, signal.SIGKILL)
    if wait:
        with contextlib.suppress(subprocess.TimeoutExpired):
            proc.wait(timeout=5)


class _Capped:
    """Reads a pipe to the end, keeping at most ``limit`` bytes; ``on_full`` runs once when the
    output passes the cap (run_tool stops the program there: more output is of no use)."""

    def __init__(self, limit: int, on_full: Callable[[], None] | None = None) -> None:
        self.limit = limit
        self.buf = bytearray()
        self.truncated = False
        self.on_full = on_full

    def drain(self, pipe: IO[bytes] | None) -> None:
        if pipe is None:
            return
        with pipe:
            while chunk := pipe.read(65536):
                room = self.limit - len(self.buf)
                if room > 0:
                    self.buf += chunk[:room]
                if len(chunk) > room and not self.truncated:
                    self.truncated = True
                    if self.on_full is not None:
                        self.on_full()
