"""The one time-limit primitive: a read's global deadline and every per-step limit (a tabular
load, an archive listing, a member's extraction, one PDF page, one SQLite statement)."""

from __future__ import annotations

import time

from ..errors import ExtractionTimeoutError


def end_after(seconds: float) -> float:
    """The time.monotonic() value ``seconds`` from now: the one place a limit's end is set (a
    step's, a read's global deadline, the pool's wait for a worker and its kill time)."""
    return time.monotonic() + seconds


class Deadline:
    """A limit of ``limit`` seconds on one step, named by its ``setting`` in messages.

    ``check`` raises ExtractionTimeoutError naming the file, the setting and the limit (then
    checks ``outer``, the read's global deadline); ``restart`` gives the step its full time
    again. ``end`` is the time.monotonic() value it runs out at: ``limit`` from now unless
    given (a worker's global deadline, fixed by the host; math.inf for none).
    """

    __slots__ = ("advice", "end", "limit", "outer", "path", "setting", "task")

    def __init__(
        self,
        path: str,
        limit: float,
        setting: str,
        *,
        task: str = "reading",
        advice: str = "",
        outer: Deadline | None = None,
        end: float | None = None,
    ) -> None:
        self.path, self.limit, self.setting = path, limit, setting
        self.task, self.advice, self.outer = task, advice, outer
        self.end = end_after(limit) if end is None else end

    def restart(self) -> None:
        """The full ``limit`` again from now (a loader's next chunk, the next page)."""
        self.end = end_after(self.limit)

    def extend(self, seconds: float) -> None:
        """``seconds`` more: time the step spent waiting for another thread's turn is not its own."""
        self.end += seconds

    def expired(self) -> bool:
        """True once this limit itself has run out (``check`` also asks ``outer``)."""
        return time.monotonic() > self.end

    def describe(self) -> str:
        """The limit as the setting that sets it: 'timeouts.tabular_load=30 s'."""
        return f"{self.setting}={self.limit:g} s"

    def check(self, what: str = "") -> None:
        """Raise ExtractionTimeoutError when this limit (or an outer one) has run out."""
        if self.expired():
            at = f" at {what}" if what else ""
            advice = f"; {self.advice}" if self.advice else ""
            raise ExtractionTimeoutError(
                f"{self.path}: {self.task} took longer than {self.describe()}{at}{advice}",
                path=self.path,
            )
        if self.outer is not None:
            self.outer.check(what)
