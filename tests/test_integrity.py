"""Security and integrity (issue 15): zip-based documents pass the archive checks, cached and
deduplicated results follow the content, archive extraction names are safe and duplicates visible,
and the cache directory is private."""

from __future__ import annotations

import logging
import os
import random
import struct
import time
import tracemalloc
import zipfile
import zlib
from collections.abc import Callable
from pathlib import Path

import docread
import pytest
from docread.cache.readlog import UNCHANGED
from docread.cache.stamp import FULL_DIGEST_MAX, file_stamp
from docread.errors import ArchiveSecurityError
from docread.extractors.archives.guard import extraction_folder
from factories import tar_archive, zip_archive

MB = 1 << 20


# -- 4. every zip-based format goes through the package checks -------------------------------
def _zip(path: Path, members: list[tuple[str, bytes, int, int, int]]) -> Path:
    """A zip written by hand from (name, data as stored, method, crc, inflated size), so a
    member's deflate stream can be prebuilt instead of compressing gigabytes in the test."""
    local, central = bytearray(), bytearray()
    for name, data, method, crc, size in members:
        raw = name.encode()
        offset = len(local)
        local += struct.pack("<4s5H3L2H", b"PK\x03\x04", 20, 0, method, 0, 0x21, crc,
                             len(data), size, len(raw), 0) + raw + data  # fmt: skip
        central += struct.pack("<4s6H3L5H2L", b"PK\x01\x02", 20, 20, 0, method, 0, 0x21, crc,
                               len(data), size, len(raw), 0, 0, 0, 0, 0, offset) + raw  # fmt: skip
    end = struct.pack("<4s4H2LH", b"PK\x05\x06", 0, 0, len(members), len(members), len(central),
                      len(local), 0)  # fmt: skip
    path.write_bytes(bytes(local + central + end))
    return path


def _deflate_bomb(prefix: bytes, suffix: bytes, inflated: int) -> tuple[bytes, int, int]:
    """A valid raw deflate stream of ``prefix + b"x" * inflated + suffix`` built from one 1 MB
    block repeated (a full flush makes each copy stand alone): (stream, crc, size)."""
    chunk = b"x" * MB
    head = zlib.compressobj(9, zlib.DEFLATED, -15)
    body = zlib.compressobj(9, zlib.DEFLATED, -15)
    tail = zlib.compressobj(9, zlib.DEFLATED, -15)
    block = body.compress(chunk) + body.flush(zlib.Z_FULL_FLUSH)
    count = inflated // MB
    stream = (
        head.compress(prefix) + head.flush(zlib.Z_FULL_FLUSH) + block * count
        + tail.compress(suffix) + tail.flush()
    )  # fmt: skip
    crc = zlib.crc32(prefix)
    for _ in range(count):
        crc = zlib.crc32(chunk, crc)
    return stream, zlib.crc32(suffix, crc), len(prefix) + count * MB + len(suffix)


def _with_bomb(real: Path, out: Path, member: str, cut: bytes, inflated: int) -> Path:
    """``real`` with ``member`` replaced by its own text, split at ``cut``, around a huge run."""
    with zipfile.ZipFile(real) as zf:
        parts = {i.filename: zf.read(i) for i in zf.infolist()}
    prefix, _, suffix = parts[member].partition(cut)
    members = []
    for name, data in parts.items():
        if name == member:
            stream, crc, size = _deflate_bomb(prefix + cut, suffix, inflated)
            members.append((name, stream, zipfile.ZIP_DEFLATED, crc, size))
        else:
            members.append((name, data, zipfile.ZIP_STORED, zlib.crc32(data), len(data)))
    return _zip(out, members)


@pytest.fixture(scope="module")
def bombs(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """A small ODS and XLSX whose one sheet inflates to 1.5 GB (a 1.5 MB file each)."""
    import openpyxl
    import pandas as pd

    folder = tmp_path_factory.mktemp("bombs")
    pd.DataFrame({"name": ["MARKER"]}).to_excel(folder / "real.ods", engine="odf", index=False)
    book = openpyxl.Workbook()
    sheet = book.active
    assert sheet is not None
    sheet.append(["name"])
    sheet.append(["MARKER"])
    book.save(folder / "real.xlsx")
    size = 1500 * MB
    return {
        "ods": _with_bomb(folder / "real.ods", folder / "bomb.ods", "content.xml", b"MARKER", size),
        "xlsx": _with_bomb(
            folder / "real.xlsx", folder / "bomb.xlsx", "xl/worksheets/sheet1.xml", b"<sheetData>",
            size,
        ),
    }  # fmt: skip


@pytest.mark.parametrize("isolated", [True, False], ids=["isolated", "in-process"])
@pytest.mark.parametrize("fmt", ["ods", "xlsx"])
def test_workbook_zip_bomb_is_refused_by_the_package_checks(
    bombs: dict[str, Path], fmt: str, isolated: bool
) -> None:
    bomb = bombs[fmt]
    assert bomb.stat().st_size < 2 * MB
    config = {"cache": {"enabled": False}, "isolation": {"enabled": isolated}}
    tracemalloc.start()
    try:
        with (
            docread.Reader(bomb.parent, config=config) as reader,
            pytest.raises(ArchiveSecurityError, match=rf"bomb\.{fmt}.*archive\.max_total_size"),
        ):
            reader.read(bomb.name)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < 20 * MB  # the host never inflated the sheet


def test_the_unbombed_workbooks_still_read(bombs: dict[str, Path]) -> None:
    """The generated originals are real workbooks: the bombs differ only in the one member."""
    folder = bombs["ods"].parent
    for name in ("real.ods", "real.xlsx"):
        assert (
            "MARKER"
            in docread.read(name, workspace=folder, config={"cache": {"enabled": False}}).text
        )


# -- 7. cached and deduplicated results follow the content ------------------------------------
def _pdf(path: Path, word: str) -> Path:
    """Two pages: a 60 KB incompressible image first, then "The answer is <word>." past 64 KB;
    the same size for any five-letter word."""
    import pymupdf

    doc = pymupdf.open()
    pixels = random.Random(7).randbytes(150 * 150 * 3)
    image = pymupdf.Pixmap(pymupdf.csRGB, 150, 150, pixels, False)
    doc.new_page().insert_image(pymupdf.Rect(72, 72, 300, 300), pixmap=image)
    doc.new_page().insert_text((72, 72), f"The answer is {word}.", fontsize=12)
    doc.save(path, no_new_id=True)
    return path


def _rewrite_keeping_stat(path: Path, write: Callable[[], object]) -> None:
    """Change the bytes in place, keep the size and restore the mtime (as cp -p, rsync -t do)."""
    before = path.stat()
    time.sleep(0.02)  # past the kernel's ctime tick, as any real later edit is
    write()
    os.utime(path, ns=(before.st_atime_ns, before.st_mtime_ns))
    after = path.stat()
    assert (after.st_size, after.st_mtime_ns) == (before.st_size, before.st_mtime_ns)


def test_pdf_changed_past_64kb_with_size_and_mtime_kept_is_not_served_stale(
    tmp_path: Path,
) -> None:
    doc = _pdf(tmp_path / "doc.pdf", "ALPHA")
    old = doc.read_bytes()
    config = {"cache": {"directory": str(tmp_path / "cache")}, "isolation": {"enabled": False}}
    with docread.Reader(tmp_path, config=config) as reader:
        assert "ALPHA" in reader.read("doc.pdf", pages="2").text
        _rewrite_keeping_stat(doc, lambda: _pdf(doc, "OMEGA"))
        new = doc.read_bytes()
        first_change = next(i for i, (a, b) in enumerate(zip(old, new, strict=True)) if a != b)
        assert first_change > 64 * 1024
        again = reader.read("doc.pdf", pages="2")
    assert "OMEGA" in again.text and "ALPHA" not in again.text
    assert not again.cached


def test_touched_file_with_the_same_content_is_still_a_cache_hit(tmp_path: Path) -> None:
    doc = _pdf(tmp_path / "doc.pdf", "ALPHA")
    config = {"cache": {"directory": str(tmp_path / "cache")}, "isolation": {"enabled": False}}
    with docread.Reader(tmp_path, config=config) as reader:
        reader.read("doc.pdf", pages="2")
        os.utime(doc, ns=(0, 1_000_000_000))
        warm = reader.read("doc.pdf", pages="2", dedupe=False)
    assert warm.cached and "ALPHA" in warm.text


def test_same_size_text_rewrite_with_mtime_restored_is_not_called_unchanged(
    reader: docread.Reader, tmp_path: Path
) -> None:
    notes = tmp_path / "notes.txt"
    notes.write_text("status: red\n")
    assert "red" in reader.read("notes.txt", dedupe=True).text
    _rewrite_keeping_stat(notes, lambda: notes.write_text("status: grn\n"))
    again = reader.read("notes.txt", dedupe=True)
    assert again.text != UNCHANGED and "grn" in again.text
    assert (
        reader.read("notes.txt", dedupe=True).text == UNCHANGED
    )  # and the new content is deduplicated


def test_full_digest_rule_follows_content_only(tmp_path: Path) -> None:
    small = tmp_path / "small.txt"
    small.write_bytes(b"a" * 1000)
    stamp = file_stamp(str(small))
    os.utime(small, ns=(0, 0))
    assert file_stamp(str(small)) == stamp  # metadata alone: same content, same stamp
    _rewrite_keeping_stat(small, lambda: small.write_bytes(b"a" * 999 + b"b"))
    assert file_stamp(str(small)) != stamp


def test_bounded_rule_for_big_files_catches_a_middle_rewrite_with_mtime_restored(
    reader: docread.Reader, tmp_path: Path
) -> None:
    big = tmp_path / "big.log"
    line = b"2026-11-23 INFO request handled\n"
    with big.open("wb") as f:
        f.write(line * (FULL_DIGEST_MAX // len(line) + 100_000))
    assert big.stat().st_size > FULL_DIGEST_MAX + 2 * MB
    assert "request handled" in reader.read("big.log", limit=5, dedupe=True).text
    assert reader.read("big.log", limit=5, dedupe=True).text == UNCHANGED
    stamp = file_stamp(str(big))

    def edit_middle() -> None:
        with big.open("r+b") as f:
            f.seek(big.stat().st_size // 2)
            f.write(b"ERROR")

    _rewrite_keeping_stat(big, edit_middle)  # head, tail, size and mtime as before: ctime moved
    edited = file_stamp(str(big))
    assert edited != stamp
    assert reader.read("big.log", limit=5, dedupe=True).text != UNCHANGED
    os.utime(big, ns=(0, 0))  # a touch: the bounded rule counts metadata, so this is a change too
    assert file_stamp(str(big)) != edited


# -- 9. the cache directory is private ----------------------------------------------------------
def _big_zip(path: Path, members: int = 600) -> Path:
    """A zip whose listing is over diskcache's 32 KB inline limit, so its entry is a value file."""
    with zipfile.ZipFile(path, "w") as zf:
        for n in range(members):
            zf.writestr(f"reports/quarterly/department-{n:04d}/summary-{n:04d}.txt", "x")
    return path


def _cached_listing(tmp_path: Path, cache: Path) -> docread.ReadResult:
    config = {"cache": {"directory": str(cache)}, "isolation": {"enabled": False}}
    with docread.Reader(tmp_path, config=config) as reader:
        reader.read("big.zip")
        return reader.read("big.zip", dedupe=False)


def test_cache_directory_is_0700_and_its_files_0600(tmp_path: Path) -> None:
    _big_zip(tmp_path / "big.zip")
    cache = tmp_path / "cache"
    old = os.umask(0o022)
    try:
        assert _cached_listing(tmp_path, cache).cached
    finally:
        os.umask(old)
    assert cache.stat().st_mode & 0o777 == 0o700
    files = [Path(d) / f for d, _, names in os.walk(cache) for f in names]
    assert {"cache.db"} <= {f.name for f in files}
    assert any(f.suffix == ".val" for f in files)  # the pickled entry, in its own file
    assert {f.name: f.stat().st_mode & 0o777 for f in files} == dict.fromkeys(
        (f.name for f in files), 0o600
    )


def test_own_readable_cache_directory_is_tightened(tmp_path: Path) -> None:
    _big_zip(tmp_path / "big.zip")
    cache = tmp_path / "cache"
    cache.mkdir(mode=0o755)
    cache.chmod(0o755)
    assert _cached_listing(tmp_path, cache).cached
    assert cache.stat().st_mode & 0o777 == 0o700


def _refused(tmp_path: Path, cache: Path, caplog: pytest.LogCaptureFixture, why: str) -> None:
    with caplog.at_level(logging.WARNING, logger="docread"):
        assert not _cached_listing(tmp_path, cache).cached
    assert any("CacheError" in r.getMessage() and why in r.getMessage() for r in caplog.records)
    assert list(cache.iterdir()) == []  # nothing was written into it


def test_group_writable_cache_directory_is_refused(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    _big_zip(tmp_path / "big.zip")
    cache = tmp_path / "cache"
    cache.mkdir()
    cache.chmod(0o770)
    _refused(tmp_path, cache, caplog, "writable by group or others")


@pytest.mark.skipif(os.geteuid() != 0, reason="giving a directory to another user needs root")
def test_cache_directory_of_another_user_is_refused(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    _big_zip(tmp_path / "big.zip")
    cache = tmp_path / "cache"
    cache.mkdir(mode=0o700)
    os.chown(cache, 65534, 65534)
    _refused(tmp_path, cache, caplog, "owned by uid 65534")


class _Planted:
    """A pickle that makes a folder when loaded: proof that it was unpickled."""

    def __init__(self, marker: Path) -> None:
        self.marker = marker

    def __reduce__(self) -> tuple[object, tuple[str]]:
        return os.mkdir, (str(self.marker),)


def test_cache_never_unpickles_a_file_outside_its_directory(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    import pickle
    import sqlite3

    _big_zip(tmp_path / "big.zip")
    cache = tmp_path / "cache"
    assert _cached_listing(tmp_path, cache).cached
    marker = tmp_path / "unpickled"
    (tmp_path / "evil.val").write_bytes(pickle.dumps(_Planted(marker)))
    with sqlite3.connect(cache / "cache.db") as db:  # every entry now points outside
        db.execute("UPDATE Cache SET filename = '../evil.val', mode = 4, value = NULL")
    config = {"cache": {"directory": str(cache)}, "isolation": {"enabled": False}}
    with caplog.at_level(logging.WARNING, logger="docread"), docread.Reader(tmp_path, config) as r:
        fresh = r.read("big.zip")
    assert not fresh.cached and "summary-0599.txt" in fresh.text  # a miss, read afresh
    assert not marker.exists()
    assert any("resolves outside" in r.getMessage() for r in caplog.records)


# -- 8. archive extraction folders and duplicate member names ---------------------------------
def test_archive_named_dots_cannot_overwrite_another_archives_extraction(
    reader: docread.Reader, tmp_path: Path
) -> None:
    zip_archive(tmp_path / "other.zip", [("a.txt", b"original")])
    done = reader.read("other.zip", mode="extract", archive_path="a.txt")
    victim = tmp_path / done.documents[0].metadata["extraction_dir"] / "a.txt"
    assert victim.read_bytes() == b"original"
    # "...zip" has the stem "..": its folder was .tmp/ itself, where it could reach "extracted/"
    inside = victim.relative_to(tmp_path / ".tmp").as_posix()
    zip_archive(tmp_path / "...zip", [(inside, b"overwritten")])
    evil = reader.read("...zip", mode="extract", pattern="*")
    assert victim.read_bytes() == b"original"
    folder = Path(evil.documents[0].metadata["extraction_dir"])
    assert folder.parent == Path(".tmp/extracted") and folder.name.startswith("archive-")
    assert (tmp_path / folder / inside).read_bytes() == b"overwritten"


def test_archives_with_the_same_stem_extract_to_different_folders(
    reader: docread.Reader, tmp_path: Path
) -> None:
    (tmp_path / "a").mkdir()
    zip_archive(tmp_path / "a" / "backup.zip", [("notes.txt", b"from a/backup.zip")])
    tar_archive(tmp_path / "backup.tar", [("notes.txt", b"from backup.tar")])
    folders = []
    for archive in ("a/backup.zip", "backup.tar"):
        result = reader.read(archive, mode="extract", pattern="*")
        folders.append(tmp_path / result.documents[0].metadata["extraction_dir"])
    assert folders[0] != folders[1]
    assert (folders[0] / "notes.txt").read_bytes() == b"from a/backup.zip"
    assert (folders[1] / "notes.txt").read_bytes() == b"from backup.tar"


@pytest.mark.parametrize(
    ("name", "stem"),
    [("...zip", "archive"), ("..tar.gz", "archive"), (".zip", ".zip"), ("a\nb.7z", "a_b"),
     ("backup.tar.gz", "backup"), ("dir\\x.zip", "x")],
)  # fmt: skip
def test_extraction_folder_is_one_safe_unique_component(name: str, stem: str) -> None:
    folder = extraction_folder(name, f"/work/{name}")
    assert folder.rsplit("-", 1)[0] == stem
    assert "/" not in folder and "\\" not in folder and folder.strip(".")
    assert folder != extraction_folder(name, f"/elsewhere/{name}")


@pytest.mark.parametrize(("suffix", "make"), [("tar", tar_archive), ("zip", zip_archive)])
def test_duplicate_member_names_are_listed_addressable_and_extracted_apart(
    reader: docread.Reader,
    tmp_path: Path,
    suffix: str,
    make: Callable[[Path, list[tuple[str, bytes]]], Path],
) -> None:
    members = [("docs/dup.txt", b"first copy"), ("docs/dup.txt", b"second copy")]
    archive = make(tmp_path / f"dups.{suffix}", members)
    listing = reader.read(archive.name)
    lines = [line for line in listing.text.splitlines() if "dup" in line]
    assert len(lines) == 2
    assert "[duplicate name, read as docs/dup.txt]" in lines[0]
    assert "[duplicate name, read as docs/dup#2.txt]" in lines[1]
    assert listing.documents[0].metadata["duplicate_names"] == 1
    assert any("Duplicate member names: docs/dup.txt x2" in n for n in listing.notes)

    assert reader.read(archive.name, archive_path="docs/dup.txt").text == "first copy"
    assert reader.read(archive.name, archive_path="docs/dup#2.txt").text == "second copy"

    done = reader.read(archive.name, mode="extract", pattern="*")
    root = tmp_path / done.documents[0].metadata["extraction_dir"]
    assert (root / "docs" / "dup.txt").read_bytes() == b"first copy"
    assert (root / "docs" / "dup#2.txt").read_bytes() == b"second copy"
    assert any("later copies are extracted as NAME#2" in n for n in done.notes)

    loaded = {d.metadata["member"]: d.text for d in reader.iter_documents(archive.name)}
    assert loaded == {"docs/dup.txt": "first copy", "docs/dup#2.txt": "second copy"}


def test_a_literal_numbered_name_never_collides_with_a_duplicate(
    reader: docread.Reader, tmp_path: Path
) -> None:
    tar_archive(tmp_path / "mix.tar", [("a.txt", b"one"), ("a.txt", b"two"), ("a#2.txt", b"lit")])
    done = reader.read("mix.tar", mode="extract", pattern="*")
    root = tmp_path / done.documents[0].metadata["extraction_dir"]
    assert {p.name: p.read_bytes() for p in root.iterdir()} == {
        "a.txt": b"one", "a#2.txt": b"two", "a#2#2.txt": b"lit",
    }  # fmt: skip
    assert reader.read("mix.tar", archive_path="a#2#2.txt").text == "lit"
