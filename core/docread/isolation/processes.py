"""The host's side of the worker processes: the fork server (``template``), one template process
per host process, started on first use and again when it died; ``Forked``, a handle on a worker
it forked; ``WorkerProcess``, a worker as the pool holds it (its socket, its memory, how it is
stopped or killed with every descendant) and ``WorkerDied``, how it ended under a job.

A forked worker is the template's child, not ours: the host holds a pidfd of it (opened by the
template, its parent, before it could be reaped, so it never names a reused pid), polls it for
the worker's end and signals through it; the wait status comes from the template."""

from __future__ import annotations

import contextlib
import os
import signal
import socket
import subprocess
import threading
import time
import weakref
from pathlib import Path
from typing import TYPE_CHECKING

from ..errors import ReadDocumentError, WorkerCrashedError
from ..extractors.deadline import end_after
from ..extractors.environ import environment
from . import protocol, template

if TYPE_CHECKING:
    from multiprocessing.connection import Connection

STATUS_WAIT = 1.0  # seconds to wait for the template's report of a worker that ended


class Forked:
    """A worker process forked by the template: its pid, a pidfd, its exit code once known."""

    def __init__(self, pid: int, pidfd: int, template: _Template) -> None:
        self.pid = pid
        self._pidfd = pidfd
        self._template = template
        self._lock = threading.Lock()  # the pool's threads may wait for it at once
        self.ended = False
        self.returncode: int | None = None  # as Popen's: -N for a signal; None while unknown
        weakref.finalize(self, os.close, pidfd).atexit = False  # the pools stop theirs at exit

    def poll(self) -> bool:
        """True once the process has ended (its pidfd is readable)."""
        return self.wait(0)

    def wait(self, timeout: float) -> bool:
        """Wait up to ``timeout`` seconds for the process to end; True if it has."""
        if self.ended:
            return True
        if not template.pidfd_ended(self._pidfd, timeout):
            return False
        with self._lock:
            if not self.ended:
                status = self._template.status(self.pid, STATUS_WAIT)
                if status is not None:
                    self.returncode = os.waitstatus_to_exitcode(status)
                self.ended = True
        return True

    def signal(self, signum: int) -> None:
        """Send ``signum`` to the process (never to another that took its pid)."""
        if not self.ended:
            with contextlib.suppress(ProcessLookupError, OSError):
                signal.pidfd_send_signal(self._pidfd, signum)


class _Template:
    """The template process and the thread that reads its messages (replies, exit reports)."""

    def __init__(self, started: template.Started | None = None) -> None:
        """``started``: the template ``template.prestart`` started (else a new one)."""
        from multiprocessing.connection import Connection

        self.proc, ours = started or template.launch()
        self.conn = Connection(ours.detach())
        self.alive = True
        self.forks = 0  # fork requests sent (a template never asked is killed at close)
        self._request = threading.Lock()  # one fork request at a time
        self._cond = threading.Condition()
        self._replies: list[tuple[int, int]] = []  # (pid, pidfd) of the last request
        self._statuses: dict[int, int] = {}  # pid -> wait status of the workers that ended
        self._reader = threading.Thread(target=self._read, daemon=True, name="docread-template")
        self._reader.start()

    def fork(self, sock: int, max_mb: int) -> Forked:
        """A worker on ``sock`` (its end of a socketpair) forked from the template; OSError
        when the template is gone."""
        try:
            cwd = os.getcwd()
        except OSError:  # the host's folder was removed: the worker starts at the root
            cwd = "/"
        path = template.python_path().split(os.pathsep)
        request = protocol.fork(environment(), path, cwd, max_mb)
        with self._request:
            self.forks += 1
            try:
                self.conn.send(request)
                protocol.send_fd(self.conn, sock)
            except (OSError, ValueError) as exc:
                raise OSError(f"the worker template is gone: {exc}") from None
            with self._cond:
                while not self._replies and self.alive:
                    self._cond.wait()
                if not self._replies:
                    raise OSError("the worker template died")
                pid, pidfd = self._replies.pop()
        return Forked(pid, pidfd, self)

    def status(self, pid: int, timeout: float) -> int | None:
        """The wait status of an ended worker, as the template reports it (None: unknown)."""
        until = end_after(timeout)
        with self._cond:
            while pid not in self._statuses and self.alive:
                if not self._cond.wait(max(until - time.monotonic(), 0)):
                    break
            return self._statuses.pop(pid, None)

    def close(self) -> None:
        """EOF on its socket: the template exits (its workers stay until their pools stop); one
        never asked for a worker is killed (it may still be importing: no wait for that). The
        socket is shut down before it is closed: the reading thread sees EOF, never a
        Connection closed under its ``recv`` (a TypeError at interpreter exit)."""
        with contextlib.suppress(OSError), socket.socket(fileno=os.dup(self.conn.fileno())) as end:
            end.shutdown(socket.SHUT_RDWR)
        if self._reader is not threading.current_thread():
            self._reader.join(timeout=1)
        with contextlib.suppress(OSError):
            self.conn.close()
        if not self.forks:
            self.proc.kill()
        try:
            self.proc.wait(timeout=1)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()

    def _read(self) -> None:
        try:
            while True:
                kind, *rest = self.conn.recv()
                if kind == protocol.FORKED:
                    reply = (rest[0], protocol.recv_fd(self.conn))
                    with self._cond:
                        self._replies.append(reply)
                        self._cond.notify_all()
                elif kind == protocol.EXITED:
                    with self._cond:
                        self._statuses[rest[0]] = rest[1]
                        self._cond.notify_all()
        except (EOFError, OSError):
            pass
        with self._cond:
            self.alive = False
            self._cond.notify_all()


_templates: dict[int, _Template] = {}  # by host pid: a forked host starts its own
_lock = threading.Lock()


def fork_worker(max_mb: int) -> tuple[Forked, Connection]:
    """A new worker process and the host's end of its socket. The template is started on first
    use and again when it died (a failed fork on a dead one is retried once on a fresh one)."""
    from multiprocessing.connection import Connection

    host, child = socket.socketpair()
    try:
        for attempt in (1, 2):
            template = _template(fresh=attempt == 2)
            try:
                proc = template.fork(child.fileno(), max_mb)
                break
            except OSError:
                if attempt == 2:
                    raise
    except BaseException:
        host.close()
        raise
    finally:
        child.close()
    return proc, Connection(host.detach())


def _template(*, fresh: bool) -> _Template:
    with _lock:
        current = _templates.get(os.getpid())
        if fresh or current is None or not current.alive or current.proc.poll() is not None:
            if current is not None:
                current.close()
            early = template.take()
            if early is not None and (fresh or early[0].poll() is not None):
                template.discard(early)  # one that ended (idle, or failed): a new one
                early = None
            current = _templates[os.getpid()] = _Template(early)
        return current


def warm_template() -> None:
    """Make sure this process's template runs (a new Reader's worker then forks from a template
    that imported while the Reader opened its first file)."""
    _template(fresh=False)


def drop_prestarted() -> None:
    """Kill and reap the template ``prestart`` started if nothing took it: a Reader that
    reads in its own process needs none (it would import on for ~0.3 s of CPU beside the read);
    a later isolated Reader starts one."""
    with _lock:
        early = template.take()
    if early is not None:
        template.discard(early)


def template_pid() -> int | None:
    """The pid of this process's template (None: none started yet), for diagnostics and tests."""
    with _lock:
        current = _templates.get(os.getpid())
    return None if current is None else current.proc.pid


def close_template() -> None:
    """Stop this process's template (at exit), and one ``prestart`` started and nothing took."""
    with _lock:
        current = _templates.pop(os.getpid(), None)
        early = template.take()
    if current is not None:
        current.close()
    if early is not None:
        template.discard(early)


class WorkerProcess:
    """One worker process, forked by the template, and the host's end of its socket: its data
    segment, whether it runs, and how it is stopped (politely, or killed with every descendant)."""

    def __init__(self, max_mb: int) -> None:
        self.proc, self.conn = fork_worker(max_mb)
        self.roots: set[Path] = set()  # workspace roots whose descriptor it holds
        self.jobs = 0
        self.parked: float | None = None  # since when its reader holds it without reading

    def data_bytes(self) -> int:
        """The worker's data segment (what RLIMIT_DATA counts), from /proc; 0 when unknown."""
        try:
            with open(f"/proc/{self.proc.pid}/status", encoding="ascii") as status:
                for line in status:
                    if line.startswith("VmData:"):
                        return int(line.split()[1]) * 1024
        except (OSError, ValueError, IndexError):
            pass
        return 0

    @property
    def alive(self) -> bool:
        """True while the process runs (it may have died between jobs)."""
        return not self.proc.poll()

    def kill(self) -> None:
        """SIGKILL the worker, its process group and every descendant (tools in their own sessions)."""
        if self.proc.poll():
            return  # ended: its pid may belong to someone else now
        self.proc.signal(signal.SIGSTOP)  # frozen: it cannot start a tool we would miss
        for pid in _descendants(self.proc.pid):
            _kill_group_of(pid)
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.kill(pid, signal.SIGKILL)
        _kill_group_of(self.proc.pid)  # frozen, so its pid is still its own
        self.proc.signal(signal.SIGKILL)
        self._reap(5)

    def stop(self) -> None:
        """Ask politely (EOF on its socket), then kill."""
        with contextlib.suppress(OSError):
            self.conn.close()
        if not self._reap(0.5):
            self.kill()

    def _reap(self, timeout: float) -> bool:
        if not self.proc.wait(timeout):
            return False
        with contextlib.suppress(OSError):
            self.conn.close()
        return True

    def death(self) -> str:
        """How the worker ended, for the error message."""
        if not self._reap(2):
            self.kill()
        rc = self.proc.returncode
        if rc is None:
            return "ended, status unknown: its template died"
        if rc < 0:
            with contextlib.suppress(ValueError):
                return f"killed by {signal.Signals(-rc).name}"
        return f"exit status {rc}"


class WorkerDied(Exception):
    """A worker died under a job (the pool reads the file once more, then reports ``error()``)."""

    def __init__(self, how: str, *, started: bool = True) -> None:
        super().__init__(how)
        self.how, self.started = how, started

    def error(
        self, source: str, name: str, max_mb: int, *, retried: bool = False
    ) -> ReadDocumentError:
        if not self.started:
            return WorkerCrashedError(
                f"{source}: the {name} worker process was gone before the read started "
                f"({self.how}); read the file again",
                path=source,
            )
        return WorkerCrashedError(
            f"{source}: the {name} reader's worker process died ({self.how}) while reading"
            f"{', also on a fresh worker' if retried else ''}; the file may be corrupt or need "
            f"more than memory.max_worker_mb={max_mb} MB",
            path=source,
        )


def _descendants(pid: int) -> list[int]:
    """Every descendant of ``pid`` (Linux /proc; psutil elsewhere when installed)."""
    if not os.path.isdir("/proc"):
        try:
            import psutil
        except ImportError:
            return []
        with contextlib.suppress(psutil.Error):
            return [p.pid for p in psutil.Process(pid).children(recursive=True)]
        return []
    children: dict[int, list[int]] = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            with contextlib.suppress(OSError, ValueError, IndexError):
                stat = Path(f"/proc/{entry}/stat").read_text()
                ppid = int(stat.rsplit(")", 1)[1].split()[1])
                children.setdefault(ppid, []).append(int(entry))
    found, todo = [], [pid]
    while todo:
        for child in children.get(todo.pop(), []):
            found.append(child)
            todo.append(child)
    return found


def _kill_group_of(pid: int) -> None:
    """SIGKILL the process group led by ``pid`` (never our own group)."""
    with contextlib.suppress(ProcessLookupError, PermissionError):
        if os.getpgid(pid) == pid and pid != os.getpgrp():
            os.killpg(pid, signal.SIGKILL)
