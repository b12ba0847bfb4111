"""The fork server: a template process that imports the extractors' heavy modules once, then
forks a worker per host request, so a new worker costs a fork (milliseconds), not an interpreter
start and PyMuPDF's import (the host side is ``processes``).

The template runs as ``python -c 'from docread.isolation.template import main; ...'`` in its own
session, one thread only (a fork copies just the calling thread), with the allow-listed part of
the host's environment only (``extractors.environ.environment``: no tokens or keys). A request brings that
part of the host's environment of the moment, its import path and directory and the worker's
end of a socketpair (SCM_RIGHTS); the child starts its own session, and the template answers
with the child's pid and a pidfd of it (opened by its parent, so the host's handle can never
name a reused pid), reaps it when it ends and sends its wait status. Template and workers watch the host through a pidfd and exit with it.

``import docread`` starts this process's template (``prestart``, before the rest of docread
imports), so the template's own imports (0.22 s: docread and PyMuPDF) run beside the host's
instead of after them; a template no request came to within ``IDLE_EXIT`` seconds exits (the
host starts one again when it needs it), and one never asked is killed at the host's exit.
"""

from __future__ import annotations

import contextlib
import gc
import os
import select
import socket
import subprocess
import sys
import traceback
from pathlib import Path
from typing import TYPE_CHECKING

from ..extractors.environ import environment

if TYPE_CHECKING:
    from multiprocessing.connection import Connection

ROLE = "DOCREAD_TEMPLATE"  # set in the template's environment: its own import starts no template
IDLE_EXIT = 60.0  # seconds a template waits for its first request before it exits
Started = tuple[subprocess.Popen[bytes], socket.socket]  # a template, the host's end of its socket
_early: dict[int, Started] = {}  # by host pid: the template ``prestart`` started, not yet taken

# Imported once here (measured, per process: docread 0.12 s with this module, PyMuPDF without
# its layout packages and the PDF engine 0.11 s, before the first fork; docread's public API is
# not among them: the package imports its names on first use; the others 0.05 s, one
# module at a time while no request waits). Not pandas: 0.28 s, and 130 MB of data segment
# that every worker's RLIMIT_DATA would count; a worker imports it on its first table.
FIRST = ("docread.isolation.worker", "docread.extractors.pdf.document")
IDLE = (
    "docread.extractors.office.extractor",
    "docread.extractors.html.extractor",
    "docread.extractors.archives.extractor",
    "docread.extractors.email.extractor",
    "docread.extractors.media.image",
)


def launch() -> Started:
    """A new template process (own session, the allow-listed environment, the host's import
    path, stdout closed) and the host's end of its socket."""
    ours, theirs = socket.socketpair()
    code = f"from docread.isolation.template import main; main({theirs.fileno()})"
    try:
        proc = subprocess.Popen(
            [sys.executable, "-c", code],
            pass_fds=(theirs.fileno(),),
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,  # a chatty native library must not write into our stdout
            env={**environment(), "PYTHONPATH": python_path(), ROLE: "1"},  # no tokens, no keys
            start_new_session=True,  # its own process group: a Ctrl-C in our terminal is ours
        )
    except BaseException:
        ours.close()
        raise
    finally:
        theirs.close()
    return proc, ours


def prestart() -> None:
    """Start this process's template now (``import docread`` calls it first), unless this is a
    template itself or one was started; a failure here is retried on first use."""
    if os.environ.get(ROLE) or os.getpid() in _early:
        return
    with contextlib.suppress(OSError):
        _early[os.getpid()] = launch()


def take() -> Started | None:
    """The template ``prestart`` started in this process, once (None: none, or taken)."""
    return _early.pop(os.getpid(), None)


def discard(started: Started) -> None:
    """Kill a template no request went to (it may still be importing) and reap it."""
    proc, sock = started
    sock.close()
    with contextlib.suppress(OSError):
        proc.kill()
    proc.wait()


def python_path() -> str:
    """The host's import path, so a worker imports exactly what the host can (tests' fakes too)."""
    here = str(Path(__file__).resolve().parents[1])
    entries = [here, *(p for p in sys.path if p and os.path.isdir(p))]
    return os.pathsep.join(dict.fromkeys(entries))


def main(fd: int) -> None:
    """Preload, then serve fork requests until the host closes the socket or dies."""
    import importlib
    import logging
    from multiprocessing.connection import Connection

    host = os.pidfd_open(os.getppid())  # inherited by every worker: they watch the host too
    logging.getLogger("docread").propagate = False
    from ..extractors.pdf.library import load_pymupdf

    with contextlib.suppress(ImportError):
        load_pymupdf()  # without its layout packages: the first import of pymupdf decides
    for name in FIRST:
        with contextlib.suppress(ImportError):
            importlib.import_module(name)
    _serve(Connection(fd), host)


def _serve(conn: Connection, host: int) -> None:
    import importlib
    import time

    from . import protocol

    idle_until: float | None = time.monotonic() + IDLE_EXIT  # None once a request came
    children: dict[int, int] = {}  # pidfd -> pid of the workers forked and not yet reaped
    poller = select.poll()
    poller.register(conn.fileno(), select.POLLIN)
    poller.register(host, select.POLLIN)
    idle = list(IDLE)
    while True:
        wait = None if idle_until is None else max(idle_until - time.monotonic(), 0) * 1000
        events = poller.poll(0 if idle else wait)
        if not events and not idle and idle_until is not None:
            return  # nobody asked for a worker: a prestarted template of a host that reads none
        if not events and idle:  # nothing waits: preload one more module
            with contextlib.suppress(ImportError):
                importlib.import_module(idle.pop(0))
            if not idle:
                gc.freeze()  # the preloaded objects stay shared (no copy at a collection)
            continue
        for ready, _ in events:
            if ready == host:
                return  # the host died: its workers see it too
            if ready in children:
                pid = children.pop(ready)
                poller.unregister(ready)
                os.close(ready)
                _, status = os.waitpid(pid, 0)
                conn.send(protocol.exited(pid, status))
                continue
            idle_until = None
            try:
                message = conn.recv()
                sock = protocol.recv_fd(conn)
            except (EOFError, OSError):
                return  # the host closed the socket
            _, env, path, cwd, max_mb = message
            pid = os.fork()
            if pid == 0:
                _child(conn, children, sock, host, env, path, cwd, max_mb)
            os.close(sock)
            pidfd = os.pidfd_open(pid)
            children[pidfd] = pid
            poller.register(pidfd, select.POLLIN)
            conn.send(protocol.forked(pid))
            protocol.send_fd(conn, pidfd)


def _child(
    conn: Connection,
    children: dict[int, int],
    sock: int,
    host: int,
    env: dict[str, str],
    path: list[str],
    cwd: str,
    max_mb: int,
) -> None:
    """The forked worker: its own session, the host's allowed environment, then the worker loop."""
    code = 0
    try:
        os.setsid()  # its own process group, killed as one
        os.close(conn.fileno())
        for pidfd in children:
            os.close(pidfd)
        os.environ.clear()
        os.environ.update(env)
        sys.path[:] = list(dict.fromkeys([*path, *sys.path]))
        os.chdir(cwd)
        from .worker import main as worker

        worker(sock, max_mb, host)
    except BaseException:  # noqa: BLE001 - a worker that failed to start: the host sees it die
        traceback.print_exc()
        code = 1
    finally:
        os._exit(code)
