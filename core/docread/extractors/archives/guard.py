"""Archive limits, checked while reading: member counts, real decompressed bytes against the
shared budget, compression ratios, lying size headers, timeouts, banned names and safe paths.

Headers are only a first filter: every byte that comes out of a decompressor is counted here,
so a member that lies about its size or a stream that inflates past its ratio is stopped at the
limit, with at most one chunk over it in memory.
"""

from __future__ import annotations

import contextlib
import hashlib
import io
import os
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path, PurePosixPath
from typing import BinaryIO

from ...errors import (
    ArchiveSecurityError,
    BannedExtensionError,
    EncryptedDocumentError,
    FormatNotSupportedError,
)
from ...formats import FORMATS
from ...sanitize import readable
from ..base import Context
from ..deadline import Deadline

CHUNK = 1 << 16
RATIO_FLOOR = 1 << 20  # a ratio says nothing about tiny members: judged past 1 MB of output


@dataclass(frozen=True, slots=True)
class Entry:
    """One archive member as listed: declared facts only (sizes may lie; reads re-check them)."""

    name: str
    kind: str  # file, dir, symlink, hardlink, device, other
    size: int | None  # declared uncompressed size (None: unknown until read)
    compressed: int | None = None  # compressed size when the format gives it per member
    modified: str = ""  # "YYYY-MM-DD HH:MM"
    encrypted: bool = False
    unsupported: str = ""  # why the format's library cannot decode it (a compression method)
    target: str = ""  # link target
    handle: object = None  # the backend's own record (ZipInfo, TarInfo, ...)
    index: int = 0  # position in archive order


_CONTROLS = dict.fromkeys((*range(32), 127), "_")


def safe_member_path(name: str) -> str:
    """The member path with ``..``, ``.``, empty parts, drive letters and leading slashes removed
    (control characters as ``_``, a byte of a name that is not UTF-8 as U+FFFD), so it can only
    name a file inside the extraction folder, and every mode and the listing agree on it."""
    clean = readable(name).translate(_CONTROLS).replace("\\", "/")
    parts = [p for p in clean.split("/") if p not in ("", ".", "..")]
    if parts and len(parts[0]) == 2 and parts[0][1] == ":":
        parts = parts[1:]
    return "/".join(parts)


def archive_stem(name: str) -> str:
    """The archive's name without its archive extensions ("backup.tar.gz" -> "backup"), always
    one safe path component: never empty, ``.`` or ``..`` ("...zip" -> "archive")."""
    stem = PurePosixPath(name.replace("\\", "/")).name.translate(_CONTROLS)
    for ext in _ARCHIVE_EXTENSIONS:
        if stem.lower().endswith(ext) and len(stem) > len(ext):
            stem = stem[: -len(ext)]
            break
    return stem if stem.strip(".") else "archive"


def extraction_folder(name: str, path: str) -> str:
    """The folder an archive extracts into: its stem and a short digest of its full path, so
    two archives never share one ("backup.zip" -> "backup-1f2e3d4c")."""
    digest = hashlib.blake2b(path.encode(), digest_size=4).hexdigest()
    return f"{archive_stem(name)}-{digest}"


def numbered(name: str, n: int) -> str:
    """The address of a later member with the same name: the number before the extension
    ("docs/dup.txt", 2 -> "docs/dup#2.txt"), so the copy still reads as the same format."""
    path = PurePosixPath(name)
    stem = path.name[: len(path.name) - len(path.suffix)]
    return str(path.with_name(f"{stem}#{n}{path.suffix}"))


class Addresses:
    """Unique member addresses, handed out in archive order: a member's cleaned path, or, when an
    earlier member already has it (a duplicate name), ``numbered(path, N)`` with the smallest free
    N >= 2. Every mode walks the archive in the same order, so listing, ``archive_path``,
    extraction and loader names agree. Directories keep their cleaned path."""

    def __init__(self) -> None:
        self.taken: set[str] = set()
        self.repeated: dict[str, list[str]] = {}  # cleaned path -> addresses, when shared

    def of(self, entry: Entry) -> str:
        name = safe_member_path(entry.name)
        if entry.kind == "dir" or not name:
            return name
        address, n = name, 2
        while address in self.taken:
            address, n = numbered(name, n), n + 1
        self.taken.add(address)
        if address != name:
            self.repeated.setdefault(name, [name]).append(address)
        return address

    def note(self, done: str) -> str:
        """One sentence on the duplicate names seen ("" when none), ``done`` saying what happened."""
        if not self.repeated:
            return ""
        shown = "; ".join(
            f"{name} x{len(addrs)} as {', '.join(addrs)}"
            for name, addrs in list(self.repeated.items())[:5]
        )
        more = f" and {len(self.repeated) - 5} more" if len(self.repeated) > 5 else ""
        return (
            f"Duplicate member names: {shown}{more}. The first keeps the name; later copies are "
            f"{done} as NAME#2, NAME#3 before the extension (use that as archive_path)."
        )


# from the format table, longest first so ".tar.gz" is stripped whole
_ARCHIVE_EXTENSIONS = sorted(
    (ext for f in FORMATS if f.category == "archive" for ext in f.extensions), key=len, reverse=True
)


class Guard:
    """The limits of ``settings.archive`` applied to one archive, sharing ``ctx.budget``."""

    def __init__(self, ctx: Context, archive_size: int) -> None:
        self.ctx = ctx
        self.limits = ctx.settings.archive
        self.archive = ctx.info.source
        self.archive_size = max(archive_size, 1)
        self._banned = tuple(ext.lower() for ext in self.limits.banned_extensions)

    def refuse(self, member: str, problem: str) -> ArchiveSecurityError:
        return ArchiveSecurityError(f"{self.archive}::{member}: {problem}", path=self.archive)

    # -- listing -----------------------------------------------------------------------------
    def count_member(self) -> None:
        """One more member seen (shared across nested archives) against archive.max_file_count."""
        budget = self.ctx.budget
        budget.members += 1
        if budget.members > self.limits.max_file_count:
            raise ArchiveSecurityError(
                f"{self.archive}: more than {self.limits.max_file_count:,} members "
                f"(archive.max_file_count); list a smaller archive or raise the limit",
                path=self.archive,
            )

    def list_deadline(self) -> Deadline:
        """``timeouts.archive_list`` on listing the archive (checked once per member)."""
        return self._time_limit("archive_list", "listing the archive")

    def _time_limit(self, setting: str, task: str) -> Deadline:
        return self.ctx.time_limit(
            getattr(self.ctx.settings.timeouts, setting),
            f"timeouts.{setting}",
            task=task,
            advice="use pattern= or archive_path= to work on fewer members",
        )

    def is_banned(self, name: str) -> bool:
        return name.lower().rstrip("/").endswith(self._banned)

    # -- before reading a member ---------------------------------------------------------------
    def admit(self, entry: Entry) -> None:
        """Refuse a member to read or extract: kind, banned name, encryption, declared sizes."""
        if entry.kind in ("symlink", "hardlink"):
            raise self.refuse(
                entry.name,
                f"is a {entry.kind} to {entry.target or '?'}; links are listed but never followed",
            )
        if entry.kind in ("device", "other"):
            raise self.refuse(
                entry.name, "is a device or special entry; it is listed but never read"
            )
        if entry.kind == "dir":
            raise self.refuse(entry.name, "is a directory; use pattern= to work on its files")
        if self.is_banned(entry.name):
            raise BannedExtensionError(
                f"{self.archive}::{entry.name}: banned extension (archive.banned_extensions); "
                f"executables and disk images are listed but never read or extracted",
                path=self.archive,
            )
        if entry.encrypted:
            raise EncryptedDocumentError(
                f"{self.archive}::{entry.name}: the member is password-protected; "
                f"docread does not take passwords",
                path=self.archive,
            )
        if entry.unsupported:
            raise FormatNotSupportedError(
                f"{self.archive}::{entry.name}: {entry.unsupported}; extract it with 7-Zip",
                path=self.archive,
            )
        if entry.size is not None:
            self._check_size(entry.name, entry.size, entry.compressed, declared=True)

    # -- while reading -----------------------------------------------------------------------
    def read(self, entry: Entry, stream: BinaryIO) -> bytes:
        """The member's bytes, read in chunks and counted; stops at the first limit crossed."""
        buf = io.BytesIO()
        for chunk in self._chunks(entry, stream):
            buf.write(chunk)
        return buf.getvalue()

    def write(self, entry: Entry, stream: BinaryIO, target: Path, folder: int) -> int:
        """Stream the member into ``target``, opened by its name inside the open ``folder``
        descriptor (never through a link, never re-resolved); removed again on failure."""
        flags = os.O_WRONLY | os.O_CREAT | os.O_TRUNC | os.O_NOFOLLOW
        try:
            fd = os.open(target.name, flags, 0o644, dir_fd=folder)
        except OSError as exc:  # a link or a folder in the way: never written through
            raise self.refuse(entry.name, f"cannot be written to {target}: {exc.strerror}") from exc
        written = 0
        try:
            with os.fdopen(fd, "wb") as out:
                for chunk in self._chunks(entry, stream):
                    out.write(chunk)
                    written += len(chunk)
        except BaseException:
            with contextlib.suppress(FileNotFoundError):
                os.unlink(target.name, dir_fd=folder)
            raise
        return written

    def _chunks(self, entry: Entry, stream: BinaryIO) -> Iterator[bytes]:
        deadline = self._time_limit("archive_extract", f"reading {entry.name}")
        budget, n = self.ctx.budget, 0
        while chunk := stream.read(CHUNK):
            n += len(chunk)
            budget.decompressed_bytes += len(chunk)
            if entry.size is not None and n > entry.size:
                raise self.refuse(
                    entry.name,
                    f"decompresses to more than the {entry.size:,} bytes its header declares "
                    f"(a lying size header: zip bomb); refused",
                )
            self._check_size(entry.name, n, entry.compressed, declared=False)
            deadline.check()
            yield chunk

    def _check_size(
        self, member: str, size: int, compressed: int | None, *, declared: bool
    ) -> None:
        limits, budget = self.limits, self.ctx.budget
        said = "declares" if declared else "decompressed to"
        if size > limits.max_single_file:
            raise self.refuse(
                member,
                f"{said} {size:,} bytes, over archive.max_single_file={limits.max_single_file:,}",
            )
        total = budget.decompressed_bytes + (size if declared else 0)
        if total > limits.max_total_size:
            raise self.refuse(
                member,
                f"reading it brings the decompressed total to {total:,} bytes, over "
                f"archive.max_total_size={limits.max_total_size:,} (shared by nested archives)",
            )
        # no per-member compressed size (solid 7z, tar streams): the whole archive bounds it
        self.check_ratio(member, size, compressed if compressed is not None else self.archive_size)

    def check_ratio(self, member: str, out: int, compressed: int) -> None:
        """Refuse output/input over archive.max_compression_ratio once past RATIO_FLOOR bytes."""
        limit = self.limits.max_compression_ratio
        if out > RATIO_FLOOR and out > limit * max(compressed, 1):
            raise self.refuse(
                member,
                f"compression ratio over {out / max(compressed, 1):,.0f}:1 "
                f"(archive.max_compression_ratio={limit:g}): a decompression bomb; refused",
            )


class RatioStream:
    """A decompressed stream (gzip/bz2/lzma file) whose output/input ratio is checked as it flows.

    ``raw`` is the compressed file underneath: its position is the compressed bytes consumed.
    Only ``read`` is offered: what tarfile's stream mode calls.
    """

    def __init__(self, inner: BinaryIO, raw: BinaryIO, guard: Guard, what: str) -> None:
        self.inner, self.raw, self.guard, self.what = inner, raw, guard, what
        self.out = 0

    def read(self, size: int = -1) -> bytes:
        data = self.inner.read(size)
        self.out += len(data)
        self.guard.check_ratio(self.what, self.out, self.raw.tell())
        return data
