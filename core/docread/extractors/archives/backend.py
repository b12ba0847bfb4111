"""The interface every archive backend implements, and what they share: corrupt-input errors and
timestamps. Backends are named in the format table (``Format.opener``) and built with
``(source, guard, format_key)``."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from datetime import datetime
from typing import TYPE_CHECKING, BinaryIO

from ...errors import EncryptedDocumentError, ExtractionError, ReadDocumentError
from .guard import Entry, Guard

if TYPE_CHECKING:
    from ...source import Source

Want = Callable[[Entry], bool]


class Backend:
    """List entries; stream the data of wanted members. Each call is one pass over the archive."""

    lists_cheaply: bool = True  # entries() reads headers only, no member data

    def __init__(self, source: Source, guard: Guard, variant: str) -> None:
        self.source, self.guard, self.variant = source, guard, variant

    def entries(self) -> Iterator[Entry]:
        raise NotImplementedError

    def payloads(self, want: Want) -> Iterator[tuple[Entry, BinaryIO]]:
        """(entry, data stream) for each entry ``want`` admits; the stream is valid until the next."""
        raise NotImplementedError

    def vet(self, entry: Entry, safe_name: str, root: str) -> None:
        """A format's own last check before ``entry`` is written under ``root`` (none by default)."""

    def close(self) -> None:
        """Release open handles."""


@contextmanager
def corrupt_errors(archive: str) -> Iterator[None]:
    """Parser failures (truncated, corrupt, wrong password) as typed docread errors."""
    import lzma
    import tarfile
    import zipfile
    import zlib

    try:
        yield
    except ReadDocumentError:
        raise
    except (zipfile.BadZipFile, tarfile.TarError, EOFError, zlib.error, lzma.LZMAError) as exc:
        raise corrupt(archive, exc) from exc
    except OSError as exc:  # gzip.BadGzipFile, bz2 "Invalid data stream"
        raise ExtractionError(
            f"{archive}: the archive cannot be read ({exc})", path=archive
        ) from exc
    except RuntimeError as exc:
        if "encrypted" in str(exc) or "password" in str(exc).lower():
            raise EncryptedDocumentError(
                f"{archive}: a member is password-protected; docread does not take passwords",
                path=archive,
            ) from exc
        raise


def corrupt(archive: str, exc: BaseException) -> ExtractionError:
    return ExtractionError(
        f"{archive}: the archive is truncated or corrupt ({type(exc).__name__}: {exc})",
        path=archive,
    )


def stamp(dt: datetime | None) -> str:
    return dt.strftime("%Y-%m-%d %H:%M") if dt else ""
