"""The fork server: a template process that imports the extractors' heavy modules once, then
forks a worker per host request, so a new worker costs a fork (milliseconds), not an interpreter
start and PyMuPDF's import (the host side is ``processes``).

The template runs as ``python -c 'from docread.isolation.template import main; ...'`` in its own
session, one thread only (a fork copies just the calling thread), with the allow-listed part of
the host's environment only (``extractors.programs.environment``: no tokens or keys). A request brings that
part of the host's environment of the moment, its import path and directory and the worker's
end of a socketpair (SCM_RIGHTS); the child starts its own session, and the template answers
with the child's pid and a pidfd of it (opened by its parent, so the host's handle can never
name a reused pid), reaps it when it ends and sends its wait status. Template and workers watch the host through a pidfd and exit with it.
"""

from __future__ import annotations

import contextlib
import gc
import os
import select
import sys
import traceback
from typing import TYPE_CHECKING

from . import protocol

if TYPE_CHECKING:
    from multiprocessing.connection import Connection

# Imported once here (measured, per process: docread 0.12 s with this module, PyMuPDF without
# its layout packages and the PDF engine 0.11 s, before the first fork; the others 0.05 s, one
# module at a time while no request waits). Not pandas: 0.28 s, and 130 MB of data segment
# that every worker's RLIMIT_DATA would count; a worker imports it on its first table.
FIRST = ("docread.isolation.worker", "docread.extractors.pdf.extractor")
IDLE = (
    "docread.extractors.office.extractor",
    "docread.extractors.html.extractor",
    "docread.extractors.archives.extractor",
    "docread.extractors.email.extractor",
    "docread.extractors.media.image",
)


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

    children: dict[int, int] = {}  # pidfd -> pid of the workers forked and not yet reaped
    poller = select.poll()
    poller.register(conn.fileno(), select.POLLIN)
    poller.register(host, select.POLLIN)
    idle = list(IDLE)
    while True:
        events = poller.poll(0 if idle else None)
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
