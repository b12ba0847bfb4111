"""What a load hands back, in one vocabulary from the worker to the consumer: a file's units
(``Document`` / ``Media``), then its end, ``FileDone`` or ``FileFailed``. A worker job, an
in-process read and the fan-out all speak it; ``past`` is the one rule of where a part of a
split PDF ends, ``joined`` the one end of a file read in parts, ``drive`` how a read is run."""

from __future__ import annotations

from collections.abc import Callable, Generator, Iterator
from dataclasses import field

from ..model import Unit, dataclass


@dataclass(frozen=True, slots=True)
class FileDone:
    """A file's units are all out: the header its read set and its notes. ``index``: the
    file's place in its job (a worker's batch) or load group."""

    index: int = 0
    header: dict[str, str] = field(default_factory=dict)
    notes: list[str] = field(default_factory=list)


@dataclass(frozen=True, slots=True)
class FileFailed:
    """A file's read failed after the units it gave: the error (a ``ReadDocumentError`` goes
    to the loader's ``on_error``, anything else is raised), and its notes so far."""

    error: BaseException
    index: int = 0
    notes: list[str] = field(default_factory=list)


FileEnd = FileDone | FileFailed
LoadEvent = Unit | FileDone | FileFailed
#: ``until()``: the last page of a read, once a split of its file set one (None: to the end).
Until = Callable[[], "int | None"]


def past(unit: Unit, last: int | None) -> bool:
    """Whether ``unit`` lies beyond page ``last`` of a split PDF's part: the read stops there
    (the worker after sending it, the fan-out before handing it out: the next part has it)."""
    page = unit.metadata.get("page_number")
    return last is not None and isinstance(page, int) and page > last


def joined(first: FileEnd | None, then: FileEnd | None) -> FileEnd | None:
    """One end for a file read in parts: the first part's header, every part's notes (once
    each, in order), and the first failure, if any."""
    if first is None or then is None:
        return first or then
    notes = [*first.notes, *(n for n in then.notes if n not in first.notes)]
    if isinstance(first, FileFailed):
        return FileFailed(first.error, first.index, notes)
    if isinstance(then, FileFailed):
        return FileFailed(then.error, first.index, notes)
    return FileDone(first.index, first.header, notes)


def drive(
    start: Callable[[], Iterator[LoadEvent]], keep: Callable[[Unit], bool] | None
) -> Generator[LoadEvent, None, FileEnd | None]:
    """Run a read: its events, each file's end included except the read's last, which is
    returned (its file may go on in a later part of a split). A unit ``keep`` refuses ends the
    read there (past its part: the stream is closed, which cancels a worker's job); an
    exception the read raises is its current file's ``FileFailed``."""
    held: FileEnd | None = None
    index = 0  # the file the read is on
    events: Iterator[LoadEvent] = iter(())
    try:
        events = start()
        for event in events:
            if isinstance(event, FileDone | FileFailed):
                if held is not None:
                    yield held
                held, index = event, event.index + 1
                continue
            if keep is not None and not keep(event):
                return held
            if held is not None:
                yield held
                held = None
            yield event
        return held
    except GeneratorExit:
        raise
    except BaseException as exc:  # noqa: BLE001 - the consumer decides (on_error, or raised)
        if held is not None:
            yield held
        return FileFailed(exc, index)
    finally:
        close = getattr(events, "close", None)
        if close is not None:
            close()
