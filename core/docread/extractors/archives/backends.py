"""One small interface over the container families: zip (zipfile), tar and compressed tar
(tarfile, streamed through a ratio check) and single-file gz/bz2/xz streams (7z is in
``sevenzip``). A backend lists entries and hands out the data of the members a selection
callback admits, in archive order; it never writes anything to disk."""

from __future__ import annotations

import bisect
import copy
import io
import stat
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any, BinaryIO, Literal, cast

from ...errors import ArchiveSecurityError, ExtractionError
from ...sanitize import shown_name
from .backend import Backend, Want, stamp
from .guard import CHUNK, Entry, Guard, RatioStream, archive_stem

if TYPE_CHECKING:
    import zipfile

    from ...source import Source


def _dos_stamp(date_time: tuple[int, ...]) -> str:
    """A zip entry's DOS date, or "" when the header holds an impossible one (month 0...)."""
    year, month, day, hour, minute = date_time[:5]
    if not (1 <= month <= 12 and 1 <= day <= 31 and hour < 24 and minute < 60):
        return ""
    return f"{year:04d}-{month:02d}-{day:02d} {hour:02d}:{minute:02d}"


def decompressed(kind: str, raw: BinaryIO) -> BinaryIO:
    """A file object decompressing ``raw`` (gz, bz2 or xz), multi-stream aware."""
    # the three are binary file objects, but io.BufferedIOBase is not typing.BinaryIO
    if kind == "gz":
        import gzip

        return cast(BinaryIO, gzip.GzipFile(fileobj=raw, mode="rb"))
    if kind == "bz2":
        import bz2

        return cast(BinaryIO, bz2.BZ2File(raw))
    import lzma

    return cast(BinaryIO, lzma.LZMAFile(raw))


_ZIP_METHODS = (0, 8, 12, 14)  # stored, deflate, bzip2, lzma: what zipfile decodes
_ZIP_UNSUPPORTED = "compression method {} (deflate64, zstd, ...) is not supported by zipfile"


class ZipBackend(Backend):
    """zipfile, with overlapping entries refused up front and sizes re-checked while inflating."""

    def __init__(self, source: Source, guard: Guard, variant: str) -> None:
        import zipfile

        super().__init__(source, guard, variant)
        self._raw = source.open()
        self._not_utf8: set[int] = set()  # entries flagged UTF-8 whose names are not
        try:
            self._refuse_huge_directory()
            try:
                self.zf = zipfile.ZipFile(self._raw)
            except UnicodeDecodeError:  # zipfile fails the whole archive on one such name
                self.zf, self._not_utf8 = _utf8_flags_cleared(self._raw)
        except BaseException:
            self._raw.close()
            raise
        self._refuse_overlaps()

    def _refuse_huge_directory(self) -> None:
        """zipfile parses the whole central directory on open: refuse a huge one before that."""
        declared = zip_declared_count(self._raw)
        room = self.guard.limits.max_file_count - self.guard.ctx.budget.members
        if declared is not None and declared > room:
            raise ArchiveSecurityError(
                f"{self.guard.archive}: the central directory declares {declared:,} members, over "
                f"archive.max_file_count={self.guard.limits.max_file_count:,}",
                path=self.guard.archive,
            )

    def _refuse_overlaps(self) -> None:
        """Entries sharing compressed data are the overlapping-entries bomb: refused outright."""
        spans = sorted((i.header_offset, i.compress_size, i.filename) for i in self.zf.infolist())
        for (start, size, _), (next_start, _, name) in zip(spans, spans[1:], strict=False):
            if next_start < start + 30 + size:  # 30: the fixed part of a local header
                raise self.guard.refuse(
                    name, "its data overlaps another entry's (an overlapping-entries zip bomb)"
                )

    def entries(self) -> Iterator[Entry]:
        for index, info in enumerate(self.zf.infolist()):
            mode = info.external_attr >> 16
            kind = "file"
            if info.is_dir():
                kind = "dir"
            elif stat.S_ISLNK(mode):
                kind = "symlink"
            elif stat.S_IFMT(mode) and not stat.S_ISREG(mode) and not stat.S_ISDIR(mode):
                kind = "device"
            method = info.compress_type
            unsupported = "" if method in _ZIP_METHODS else _ZIP_UNSUPPORTED.format(method)
            name = info.filename
            if index in self._not_utf8:  # read as cp437 (a byte each): its bytes, as tar gives
                name = name.encode("cp437").decode("utf-8", "surrogateescape")
            yield Entry(
                name, kind, info.file_size, info.compress_size,
                _dos_stamp(info.date_time), bool(info.flag_bits & 0x1), unsupported=unsupported,
                handle=info, index=index,
            )  # fmt: skip

    def payloads(self, want: Want) -> Iterator[tuple[Entry, BinaryIO]]:
        for entry in self.entries():
            if want(entry):
                # let more than the declared size come out (zipfile would cut it off and fail
                # the CRC), so the guard sees a lying size header for what it is
                probe = copy.copy(entry.handle)
                probe.file_size = (entry.size or 0) + CHUNK + 1  # type: ignore[attr-defined]
                with self.zf.open(probe) as stream:  # type: ignore[arg-type]
                    yield entry, stream  # type: ignore[misc]

    def close(self) -> None:
        self.zf.close()
        self._raw.close()


def zip_declared_count(raw: BinaryIO) -> int | None:
    """The member count in the end-of-central-directory record (zip64 aware); None if not found."""
    end = _end_record(raw)
    return None if end is None else end[0]


def _end_record(raw: BinaryIO) -> tuple[int, int, int] | None:
    """(member count, central directory position, its size) from the end-of-central-directory
    record (zip64 aware; the position from where the record is, so data prepended to the zip is
    allowed for, as zipfile does); None if not found."""
    size = raw.seek(0, io.SEEK_END)
    tail_at = max(0, size - (1 << 16) - 22)
    raw.seek(tail_at)
    tail = raw.read()
    raw.seek(0)
    at = tail.rfind(b"PK\x05\x06")
    if at < 0 or at + 22 > len(tail):
        return None
    count = int.from_bytes(tail[at + 10 : at + 12], "little")
    directory = int.from_bytes(tail[at + 12 : at + 16], "little")
    end = tail_at + at
    locator = at - 20
    if count == 0xFFFF and locator >= 0 and tail[locator : locator + 4] == b"PK\x06\x07":
        record_at = int.from_bytes(tail[locator + 8 : locator + 16], "little") - tail_at
        if record_at >= 0 and tail[record_at : record_at + 4] == b"PK\x06\x06":
            count = int.from_bytes(tail[record_at + 32 : record_at + 40], "little")
            directory = int.from_bytes(tail[record_at + 40 : record_at + 48], "little")
            end = tail_at + record_at
    return count, end - directory, directory


def _utf8_flags_cleared(raw: BinaryIO) -> tuple[zipfile.ZipFile, set[int]]:
    """The zip opened when entries flagged UTF-8 (bit 11) have names that are not: read with that
    flag cleared in their central directory and local headers (zipfile then reads such a name as
    cp437, a character per byte, and checks the local header by the same rule), and the indexes
    of those entries. Nothing is copied but the central directory and two bytes per entry."""
    import zipfile

    end = _end_record(raw)
    if end is None:
        raise ExtractionError("a zip entry's name is not UTF-8 and its central directory is lost")
    count, start, size = end
    raw.seek(start)
    directory = bytearray(raw.read(size))
    raw.seek(0)
    cleared: set[int] = set()
    at = 0
    for index in range(count):
        if directory[at : at + 4] != b"PK\x01\x02":
            break
        flags = int.from_bytes(directory[at + 8 : at + 10], "little")
        lengths = [int.from_bytes(directory[at + k : at + k + 2], "little") for k in (28, 30, 32)]
        if flags & 0x800 and not _is_utf8(bytes(directory[at + 46 : at + 46 + lengths[0]])):
            directory[at + 8 : at + 10] = (flags & ~0x800).to_bytes(2, "little")
            cleared.add(index)
        at += 46 + sum(lengths)
    patched = _Overlaid(raw, {start: bytes(directory)})
    zf = zipfile.ZipFile(patched)
    for index in cleared:  # the local header's flag at offset 6, as the directory's
        local = zf.infolist()[index].header_offset + 6
        raw.seek(local)
        flags = int.from_bytes(raw.read(2), "little")
        patched.patch(local, (flags & ~0x800).to_bytes(2, "little"))
    raw.seek(0)
    return zf, cleared


def _is_utf8(data: bytes) -> bool:
    try:
        data.decode("utf-8")
    except UnicodeDecodeError:
        return False
    return True


class _Overlaid(io.RawIOBase):
    """``raw`` read with patches in place of some of its bytes (a zip's flags, see
    ``_utf8_flags_cleared``); the patches never overlap."""

    def __init__(self, raw: BinaryIO, patches: dict[int, bytes]) -> None:
        self.raw = raw
        self.starts: list[int] = []
        self.patches: dict[int, bytes] = {}
        for at, data in patches.items():
            self.patch(at, data)

    def patch(self, at: int, data: bytes) -> None:
        bisect.insort(self.starts, at)
        self.patches[at] = data

    def readable(self) -> bool:
        return True

    def seekable(self) -> bool:
        return True

    def seek(self, offset: int, whence: int = io.SEEK_SET) -> int:
        return self.raw.seek(offset, whence)

    def tell(self) -> int:
        return self.raw.tell()

    def readinto(self, buffer: Any) -> int:
        at = self.raw.tell()
        view = memoryview(buffer).cast("B")
        got = int(self.raw.readinto(view))  # type: ignore[attr-defined]
        first = max(bisect.bisect_right(self.starts, at) - 1, 0)
        for start in self.starts[first:]:
            if start >= at + got:
                break
            data = self.patches[start]
            lo, hi = max(at, start), min(at + got, start + len(data))
            if lo < hi:
                view[lo - at : hi - at] = data[lo - start : hi - start]
        return got


class TarBackend(Backend):
    """tarfile: plain tar is seeked over; compressed tar streams once through a ratio check."""

    def __init__(self, source: Source, guard: Guard, variant: str) -> None:
        super().__init__(source, guard, variant)
        self.compression = variant.partition(".")[2]  # "tar.gz" -> "gz", "tar" -> ""
        self.lists_cheaply = not self.compression

    @contextmanager
    def _tar(self) -> Iterator[Any]:
        import tarfile

        mode: Literal["r|", "r:"] = "r|" if self.compression else "r:"
        with (
            self.source.open() as raw,
            tarfile.open(fileobj=self._input(raw), mode=mode, bufsize=CHUNK) as tf,
        ):
            yield tf

    def _input(self, raw: BinaryIO) -> BinaryIO:
        """The tar bytes: the file itself, or its decompressed stream under a ratio check."""
        if not self.compression:
            return raw
        inner = decompressed(self.compression, raw)
        return RatioStream(inner, raw, self.guard, "(compressed stream)")  # type: ignore[return-value]

    def _entry(self, index: int, m: Any) -> Entry:
        kind = "file" if m.isreg() else "dir" if m.isdir() else "symlink" if m.issym() else (
            "hardlink" if m.islnk() else "device" if m.isdev() else "other"
        )  # fmt: skip
        when = datetime.fromtimestamp(m.mtime, tz=UTC) if m.mtime else None
        return Entry(m.name, kind, m.size if kind == "file" else 0, None, stamp(when),
                     target=m.linkname, handle=m, index=index)  # fmt: skip

    def _members(self, tf: Any) -> Iterator[tuple[int, Any]]:
        """tarfile's members in order, each header checked before tarfile reads the next: a
        negative size moves tarfile back onto the same header forever, and a size past the
        file's end (plain tar, whose length is known) means data that is not there."""
        import tarfile

        end = None if self.compression else self.source.size
        for index, m in enumerate(tf):
            stored = sum(n for _, n in m.sparse) if m.sparse else m.size
            has_data = m.isreg() or m.type not in tarfile.SUPPORTED_TYPES  # what tarfile skips
            if m.size < 0 or (has_data and end is not None and m.offset_data + stored > end):
                where = f"at offset {m.offset_data:,}" + (f" of a {end:,}-byte file" if end else "")
                raise ExtractionError(
                    f"{self.guard.archive}::{shown_name(m.name)}: the tar header declares "
                    f"{m.size:,} bytes {where}, which cannot be right; the archive is corrupt "
                    "or crafted and is not read",
                    path=self.guard.archive,
                )
            yield index, m

    def entries(self) -> Iterator[Entry]:
        with self._tar() as tf:
            for index, m in self._members(tf):
                yield self._entry(index, m)

    def payloads(self, want: Want) -> Iterator[tuple[Entry, BinaryIO]]:
        with self._tar() as tf:
            for index, m in self._members(tf):
                entry = self._entry(index, m)
                if want(entry):
                    yield entry, tf.extractfile(m)

    def vet(self, entry: Entry, safe_name: str, root: str) -> None:
        """tarfile's ``data`` extraction filter as a second opinion on what we are about to write."""
        import tarfile

        try:
            tarfile.data_filter(entry.handle.replace(name=safe_name, deep=False), root)  # type: ignore[attr-defined]
        except tarfile.FilterError as exc:
            raise self.guard.refuse(entry.name, f"refused by tarfile's data filter: {exc}") from exc


class StreamBackend(Backend):
    """A single compressed file (.gz/.bz2/.xz): one member, its content; size known only by reading."""

    def __init__(self, source: Source, guard: Guard, variant: str) -> None:
        super().__init__(source, guard, variant)
        self.kind = variant

    def _entry(self) -> Entry:
        name = archive_stem(self.source.name)
        modified = self.guard.ctx.info.modified[:16].replace("T", " ")
        return Entry(name, "file", None, self.source.size, modified, index=0)

    def entries(self) -> Iterator[Entry]:
        yield self._entry()

    def payloads(self, want: Want) -> Iterator[tuple[Entry, BinaryIO]]:
        entry = self._entry()
        if want(entry):
            with self.source.open() as raw, decompressed(self.kind, raw) as stream:
                yield entry, stream
