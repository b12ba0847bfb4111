"""Security and integrity (issue 15): zip-based documents pass the archive checks, cached and
deduplicated results follow the content, archive extraction names are safe and duplicates visible,
and the cache directory is private."""

from __future__ import annotations

import struct
import tracemalloc
import zipfile
import zlib
from pathlib import Path

import docread
import pytest
from docread.errors import ArchiveSecurityError

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
    book.active.append(["name"])
    book.active.append(["MARKER"])
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
