"""The fork server: a template process that imports the extractors' heavy modules once, then
forks a worker per host request, so a new worker costs a fork (milliseconds), not an interpreter
start and PyMuPDF's import (the host side is ``processes``).

The template runs as ``python -P -c 'import gc; gc.disable(); from docread.isolation.template
import main; ...'`` (``-P``: no empty entry, the template's working folder, leads its import path,
so a module there, ``pymupdf.py`` or ``enum.py``, never shadows one the template imports; the
host's own path is passed on as given, its script's folder included) in its own session, one thread only (a fork copies just the calling thread),
with the allow-listed part of the host's environment only (``extractors.environ.environment``: no
tokens or keys). A request brings that part of the host's environment of the moment, its import
path and directory and the worker's end of a socketpair (SCM_RIGHTS); the child starts its own
session, and the template answers with the child's pid and a pidfd of it (opened by its parent,
so the host's handle can never name a reused pid), reaps it when it ends and sends its wait
status. Template and workers watch the host through a pidfd and exit with it.

Importing the Reader's module starts this process's template (``prestart``, before the rest of
docread imports; ``import docread`` alone starts none: a script or a test process that never
reads pays no process), so the template's imports run beside the host's instead of after them: they are
the cold start's critical path (the host asks for its first worker before they end). So the
template imports only what a worker's first PDF unit runs (``FIRST``), with the garbage
collector off (``gc.freeze`` then keeps those objects shared with every worker), PyMuPDF's
table finder deferred to its first use; the other families' modules (``IDLE``) only once it
served its first request, one at a time while no request waits: a process that never reads (a
script, a test that imports docread) pays the interpreter, docread's and PyMuPDF's imports, not
the office, HTML, archive, email and image readers'. A template no request came to within
``IDLE_EXIT`` seconds exits (the host starts one again when it needs it), and one never asked is
killed at the host's exit.
"""

from __future__ import annotations

import atexit
import contextlib
import gc
import os
import select
import socket
import subprocess
import sys

from ..extractors.environ import environment

TYPE_CHECKING = False  # typing.TYPE_CHECKING without typing's import (3 ms on the host's path)
if TYPE_CHECKING:
    from collections.abc import Iterable
    from importlib.machinery import ModuleSpec
    from multiprocessing.connection import Connection
    from typing import Any

ROLE = "DOCREAD_TEMPLATE"  # set in the template's environment: its own import starts no template
IDLE_EXIT = 60.0  # seconds a template waits for its first request before it exits
Started = tuple[subprocess.Popen[bytes], socket.socket]  # a template, the host's end of its socket
_early: dict[int, Started] = {}  # by host pid: the template ``prestart`` started, not yet taken

# Imported once here, before the first fork (instructions, callgrind: the whole path 0.64 billion,
# PyMuPDF's import with the interpreter 0.48 of them, multiprocessing.connection and logging 0.06,
# docread's modules the rest: their dataclasses' methods and rarely run patterns are made on first
# use, ``model.dataclass`` and ``sanitize.lazy_pattern``; docread's public API is not among them:
# the package imports its names on first use). ``IDLE`` after the first
# fork (0.09 s), one module at a time while no request waits; ``pymupdf.table`` (find_tables,
# 0.02 s) is PyMuPDF's own, deferred by ``_import_pymupdf``. Not pandas: 0.28 s, and 130 MB of
# data segment that every worker's RLIMIT_DATA would count; a worker imports it on its first table.
FIRST = ("docread.isolation.worker", "docread.extractors.pdf.document")
DEFERRED = "pymupdf.table"
IDLE = (
    DEFERRED,
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
    code = (  # the collector off from the first import: ``_preload`` turns it on
        f"import gc; gc.disable(); from docread.isolation.template import main; "
        f"main({theirs.fileno()})"
    )
    try:
        proc = subprocess.Popen(
            [sys.executable, "-P", "-c", code],  # -P: no module of the host's folder runs here
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


def pidfd_ended(pidfd: int, timeout: float | None) -> bool:
    """True once the process behind ``pidfd`` has ended, waiting up to ``timeout`` seconds (None:
    until it does). With poll, not select: in a host holding over 1024 descriptors (a server)
    a pidfd is past select's FD_SETSIZE."""
    import select

    ended = select.poll()
    ended.register(pidfd, select.POLLIN)
    return bool(ended.poll(None if timeout is None else max(timeout, 0) * 1000))


def prestart() -> None:
    """Start this process's template now (``docread.reader`` calls it first), unless this is a
    template itself or one was started; a failure here is retried on first use. One nothing
    took is killed at this process's exit (it would import on, orphaned, until its poll saw
    the host gone)."""
    if os.environ.get(ROLE) or os.getpid() in _early:
        return
    with contextlib.suppress(OSError):
        _early[os.getpid()] = launch()
        atexit.register(_discard_untaken)


def _discard_untaken() -> None:
    """At exit: kill and reap the template ``prestart`` started if nothing took it."""
    started = take()
    if started is not None:
        discard(started)


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
    """The host's import path, so a worker imports exactly what the host can (tests' fakes too),
    led by the folder that holds the ``docread`` package (never the package's own folder, whose
    modules would shadow top-level ones such as ``errors`` or ``cache``)."""
    package = os.path.dirname(os.path.dirname(os.path.realpath(__file__)))  # not pathlib: 2 ms
    here = os.path.dirname(package)
    entries = [here, *(p for p in sys.path if p and os.path.isdir(p))]
    return os.pathsep.join(dict.fromkeys(entries))


def main(fd: int) -> None:
    """Preload ``FIRST``, then serve fork requests until the host closes the socket or dies."""
    import logging
    from multiprocessing.connection import Connection

    host = os.pidfd_open(os.getppid())  # inherited by every worker: they watch the host too
    logging.getLogger("docread").propagate = False
    with contextlib.suppress(ImportError):
        _import_pymupdf()
    _preload(FIRST)
    _serve(Connection(fd), host)


def _import_pymupdf() -> None:
    """PyMuPDF as ``load_pymupdf`` imports it (without its layout packages), its ``table`` module
    (``Page.find_tables``: statistics, fractions, html and its own, 0.02 s) loaded on first use
    (``importlib.util.LazyLoader``): a first PDF unit seldom runs it (a read asking for tables
    with ``pdf.structure: off``), and the idle preloads load it before later forks."""
    import importlib.util

    from ..extractors.pdf.library import load_pymupdf

    class Deferred:
        def find_spec(self, name: str, path: Any, target: Any = None) -> ModuleSpec | None:
            if name != DEFERRED:
                return None
            sys.meta_path.remove(self)  # once: the real finders find it
            spec = importlib.util.find_spec(name)
            if spec is not None and spec.loader is not None:
                spec.loader = importlib.util.LazyLoader(spec.loader)
            return spec

    finder = Deferred()
    sys.meta_path.insert(0, finder)
    try:
        load_pymupdf()
    finally:
        if finder in sys.meta_path:  # pymupdf did not import it (or its import failed)
            sys.meta_path.remove(finder)


def _preload(names: Iterable[str], methods: bool = False) -> None:
    """Import ``names`` (a lazy module: loaded) with the collector off, ``methods``: then generate
    the methods of the dataclasses imported so far and compile their modules' patterns
    (``model.generate_all``, ``sanitize.compile_patterns``: a later worker inherits them, the
    first made what its unit used), then freeze what they made (a worker's
    collections never touch, so never copy, the template's objects) and turn it on."""
    import importlib

    gc.disable()
    for name in names:
        with contextlib.suppress(ImportError):
            vars(importlib.import_module(name))  # ``vars``: a lazily imported module loads
    if methods:
        from ..model import generate_all
        from ..sanitize import compile_patterns

        generate_all()
        compile_patterns()
    gc.freeze()
    gc.enable()


def _serve(conn: Connection, host: int) -> None:
    import time

    from . import protocol

    idle_until: float | None = time.monotonic() + IDLE_EXIT  # None once a request came
    children: dict[int, int] = {}  # pidfd -> pid of the workers forked and not yet reaped
    poller = select.poll()
    poller.register(conn.fileno(), select.POLLIN)
    poller.register(host, select.POLLIN)
    idle = list(IDLE)  # preloaded once a request came, one at a time while nothing waits
    while True:
        preload = bool(idle) and idle_until is None
        wait = None if idle_until is None else max(idle_until - time.monotonic(), 0) * 1000
        events = poller.poll(0 if preload else wait)
        if not events and idle_until is not None:
            return  # nobody asked for a worker: a prestarted template of a host that reads none
        if not events:  # nothing waits: preload one more module (the last: methods, below)
            _preload((idle.pop(0),), methods=not idle)
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
        import traceback

        traceback.print_exc()
        code = 1
    finally:
        os._exit(code)
