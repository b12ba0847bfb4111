"""The docread error tree, and the one place where foreign exceptions become ours.

    ReadDocumentError                      base: every error docread raises on purpose
    ├── InvalidOptionError (ValueError)    a read option is malformed (names the parameter)
    ├── SettingsError (ValueError)         tools-security.yaml has an unknown key or a wrong type
    ├── DocumentNotFoundError (FileNotFoundError)
    ├── PathSecurityError                  outside the workspace, a link out, a device/FIFO/socket
    ├── FormatNotSupportedError            no extractor for this content
    ├── FileTooLargeError                  over the size limit of its category
    ├── ExtractionTimeoutError             over the global or a per-unit timeout
    ├── ArchiveSecurityError               bombs, zip-slip, links out, too many members
    │   └── BannedExtensionError           an executable or disk image inside an archive
    ├── CacheError                         the cache failed (non-fatal: logged, read goes on)
    ├── DependencyMissingError (ImportError)  a package or program to install
    └── ExtractionError                    the parser failed on this file (corrupt, truncated)
        ├── EncryptedDocumentError         password-protected
        ├── ResourceLimitError             the read needed more memory than memory.max_worker_mb
        └── WorkerCrashedError             the isolated worker died (segfault, abort, a kill)

Errors are logged where they are handled, once, not where they are created: ``log_handled`` is called
by whoever swallows one (a folder load that skips a file, a tool that turns it into an error result,
the cache that reads on without itself). An error raised to the caller is the caller's to log; one
docread handles inside a read (a skipped archive member) is said as a note, not logged again.
"""

from __future__ import annotations

import logging
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from .sanitize import shown_name, shown_text

logger = logging.getLogger("docread")
logger.addHandler(logging.NullHandler())  # a library logs; the application decides where it goes


class ReadDocumentError(Exception):
    """Base of every error docread raises on purpose; ``path`` names the file when known (as
    given; the message shows it escaped, one line, so a file name cannot forge output)."""

    def __init__(self, message: str, *, path: str | None = None) -> None:
        message = _shown_message(message, path)
        super().__init__(message)
        self.message = message
        self.path = path

    def __reduce__(self) -> tuple[Any, ...]:  # keep errors picklable across worker processes
        return _rebuild, (type(self), self.message, self.path)


def _shown_message(message: str, path: str | None) -> str:
    """The message on one line, the path in it cut to a readable length, nothing hidden."""
    if path and path in message:
        message = message.replace(path, shown_name(path))
    return shown_text(message)


def _rebuild(cls: type[ReadDocumentError], message: str, path: str | None) -> ReadDocumentError:
    err = cls.__new__(cls)
    Exception.__init__(err, message)
    err.message, err.path = message, path
    return err


class InvalidOptionError(ReadDocumentError, ValueError):
    """A read option has a bad value; the message names the parameter."""


class SettingsError(ReadDocumentError, ValueError):
    """tools-security.yaml has an unknown key or a value of the wrong type."""


class DocumentNotFoundError(ReadDocumentError, FileNotFoundError):
    """The path does not exist."""


class PathSecurityError(ReadDocumentError):
    """The path leaves the workspace or is not a regular file (device, FIFO, socket)."""


class FormatNotSupportedError(ReadDocumentError):
    """No extractor reads this content."""


class FileTooLargeError(ReadDocumentError):
    """The file is over the size limit of its category."""


class ExtractionTimeoutError(ReadDocumentError):
    """Extraction ran past the global or a per-unit timeout."""


class ArchiveSecurityError(ReadDocumentError):
    """An archive failed a safety check (bomb, zip-slip, link out, too many members)."""


class BannedExtensionError(ArchiveSecurityError):
    """An archive member has a banned extension (executables, disk images)."""


class CacheError(ReadDocumentError):
    """The cache failed; reads go on without it."""


class DependencyMissingError(ReadDocumentError, ImportError):
    """A required package or program is missing; the message says what to install."""


class ExtractionError(ReadDocumentError):
    """The parser failed on this file (corrupt, truncated, unreadable)."""


class EncryptedDocumentError(ExtractionError):
    """The document is password-protected."""


class ResourceLimitError(ExtractionError):
    """The read ran out of memory under the worker's limit (``memory.max_worker_mb``); the
    message names the file and the limit. A smaller window (pages, rows) or a higher limit helps."""


class WorkerCrashedError(ExtractionError):
    """The isolated worker process died while reading the file."""


def log_shown(message: str, *, level: int = logging.WARNING) -> None:
    """A record on the ``docread`` logger that shows even where the application set up no
    logging: there the NullHandler above keeps it from Python's last-resort handler (stderr),
    so that handler is given it directly. An application with a handler of its own (on
    ``docread`` or an ancestor) gets it there only; one that silenced ``docread`` gets nothing."""
    if not logger.isEnabledFor(level):
        return
    record = logger.makeRecord(logger.name, level, __name__, 0, message, (), None)
    logger.handle(record)
    last = logging.lastResort
    if last is not None and level >= last.level and not _heard(level):
        last.handle(record)


def _heard(level: int) -> bool:
    """Whether a ``docread`` record at ``level`` reaches a handler other than a NullHandler."""
    node: logging.Logger | None = logger
    while node is not None:
        if any(not isinstance(h, logging.NullHandler) and level >= h.level for h in node.handlers):
            return True
        node = node.parent if node.propagate else None
    return False


def log_handled(error: ReadDocumentError, *, level: int = logging.WARNING) -> None:
    """Log a handled error once on the ``docread`` logger, with its file (``docread_path``)."""
    logger.log(
        level, "%s: %s", type(error).__name__, error.message, extra={"docread_path": error.path}
    )


@contextmanager
def translate_errors(path: str, extractor: str) -> Iterator[None]:
    """Turn a foreign exception raised by a parser into the matching docread error, once."""
    try:
        yield
    except ReadDocumentError:
        raise
    except ImportError as exc:
        raise DependencyMissingError(
            f"{path}: the {extractor} reader needs a module that is not installed ({exc}); "
            f"install docread with its dependencies: pip install docread",
            path=path,
        ) from exc
    except MemoryError as exc:
        raise ExtractionError(
            f"{path}: ran out of memory while reading ({extractor})", path=path
        ) from exc
    except RecursionError as exc:
        raise ExtractionError(
            f"{path}: structure nested too deeply to read ({extractor})", path=path
        ) from exc
    except Exception as exc:  # noqa: BLE001 - this is the one boundary where we translate
        raise ExtractionError(
            f"{path}: the {extractor} reader failed: {type(exc).__name__}: {exc}", path=path
        ) from exc
