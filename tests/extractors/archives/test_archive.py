"""Archives: list / read / extract / loader over every container family, and the attacks the
limits exist for (bombs, lying sizes, zip-slip, links, devices, banned and encrypted members)."""

from __future__ import annotations

import bz2
import gzip
import io
import json
import lzma
import os
import struct
import tarfile
import time
import tracemalloc
import zipfile
from collections.abc import Callable
from pathlib import Path

import docread
import pytest
from conftest import MakeReader
from docread.errors import (
    ArchiveSecurityError,
    BannedExtensionError,
    DocumentNotFoundError,
    EncryptedDocumentError,
    ExtractionError,
    FormatNotSupportedError,
    InvalidOptionError,
)
from docread.extractors.archives.guard import extraction_folder
from factories import pdf_bytes, sevenz_archive, tar_archive, zip_archive, zip_bytes

MEMBERS = {
    "project/src/main.py": b"def main():\n    print('hello from main')\n",
    "project/src/utils/helpers.py": b"def helper():\n    return 42\n",
    "project/docs/readme.md": b"# Project\n\nThe readme of the project.\n",
    "project/data/notes.txt": b"alpha line\nbeta line\ngamma line\n",
}
ZEROS = 20 << 20  # 20 MB of zeros: deflates about 1000:1


def patch_zip_headers(data: bytes, *, size: int | None = None, flags: int | None = None) -> bytes:
    """Rewrite the declared uncompressed size / flag bits in local and central headers."""
    out = bytearray(data)
    for sig, size_at, flag_at in ((b"PK\x03\x04", 22, 6), (b"PK\x01\x02", 24, 8)):
        pos = out.find(sig)
        while pos != -1:
            if size is not None:
                out[pos + size_at : pos + size_at + 4] = struct.pack("<I", size)
            if flags is not None:
                out[pos + flag_at : pos + flag_at + 2] = struct.pack("<H", flags)
            pos = out.find(sig, pos + 4)
    return bytes(out)


def overlapping_zip(copies: int = 10) -> bytes:
    """Fifield's overlapped bomb, reduced: many central entries pointing at one compressed body."""
    one = zip_bytes({"k": bytes(1 << 20)})
    cd_at = one.find(b"PK\x01\x02")
    eocd_at = one.find(b"PK\x05\x06")
    record = one[cd_at:eocd_at]
    records = b"".join(record[:-1] + bytes([ord("a") + i]) for i in range(copies))  # names ka.. kj
    records = b"".join(
        record[:28] + struct.pack("<H", 2) + record[30:46] + b"k" + bytes([ord("a") + i])
        for i in range(copies)
    )
    eocd = bytearray(one[eocd_at:])
    eocd[8:10] = eocd[10:12] = struct.pack("<H", copies)
    eocd[12:16] = struct.pack("<I", len(records))
    eocd[16:20] = struct.pack("<I", cd_at)
    return one[:cd_at] + records + bytes(eocd)


def extraction_root(workspace: Path, archive: str) -> Path:
    """Where ``archive`` in ``workspace`` extracts: .tmp/extracted/<stem>-<digest of its path>."""
    path = (workspace / archive).resolve()
    return workspace / ".tmp" / "extracted" / extraction_folder(path.name, str(path))


def files_outside(root: Path, allowed: list[Path]) -> list[Path]:
    """Every file under root that is neither one of ``allowed`` nor under .tmp/extracted."""
    extracted = root / ".tmp" / "extracted"
    found = []
    for dirpath, _, names in os.walk(root):
        for name in names:
            p = Path(dirpath) / name
            if p not in allowed and extracted not in p.parents:
                found.append(p)
    return found


# -- every container family -----------------------------------------------------------------
FAMILIES = {
    "zip": lambda p: zip_archive(p / "project.zip", MEMBERS),
    "tar": lambda p: tar_archive(p / "project.tar", MEMBERS),
    "tar.gz": lambda p: tar_archive(p / "project.tar.gz", MEMBERS, "w:gz"),
    "tgz": lambda p: tar_archive(p / "project.tgz", MEMBERS, "w:gz"),
    "tar.bz2": lambda p: tar_archive(p / "project.tar.bz2", MEMBERS, "w:bz2"),
    "tar.xz": lambda p: tar_archive(p / "project.tar.xz", MEMBERS, "w:xz"),
    "7z": lambda p: sevenz_archive(p / "project.7z", MEMBERS),
}


@pytest.mark.parametrize("family", list(FAMILIES))
def test_list_shows_sorted_members_sizes_and_counts(
    reader: docread.Reader, tmp_path: Path, family: str
) -> None:
    path = FAMILIES[family](tmp_path)
    result = reader.read(path.name)
    text = result.render()
    assert result.documents[0].metadata["file_count"] == 4
    assert result.header["Files"].startswith("4 files")
    assert f"**Archive:** {path.name}" in text
    names = [line.split()[0] for line in result.text.splitlines()[1:5]]
    assert names == sorted(MEMBERS)
    assert "(4 files)" in text
    assert "41 B" in text  # project/src/main.py


@pytest.mark.parametrize("family", list(FAMILIES))
def test_pattern_filters_the_listing(reader: docread.Reader, tmp_path: Path, family: str) -> None:
    path = FAMILIES[family](tmp_path)
    result = reader.read(path.name, pattern="*.py")
    assert "Contents (matching pattern: *.py):" in result.text
    assert "(2 files matching pattern)" in result.text
    assert "readme.md" not in result.text
    only_src = reader.read(path.name, pattern="project/src/**")
    assert only_src.documents[0].metadata["members_shown"] == 2


@pytest.mark.parametrize("family", list(FAMILIES))
def test_read_member_goes_through_the_pipeline(
    reader: docread.Reader, tmp_path: Path, family: str
) -> None:
    path = FAMILIES[family](tmp_path)
    result = reader.read(
        path.name, mode="read", archive_path="project/data/notes.txt", offset=2, limit=1
    )
    assert result.text == "beta line"
    meta = result.documents[0].metadata
    assert meta["member"] == "project/data/notes.txt" and meta["depth"] == 1
    assert meta["archive"] == path.name and meta["format"] == "text"
    assert result.header["Member"] == "project/data/notes.txt"
    assert "     2\tbeta line" in result.render()  # the member's own (cat -n) rendering


@pytest.mark.parametrize("family", list(FAMILIES))
def test_loader_yields_every_member_with_archive_metadata(
    reader: docread.Reader, tmp_path: Path, family: str
) -> None:
    path = FAMILIES[family](tmp_path)
    docs = list(reader.iter_documents(path.name))
    assert {d.metadata["member"] for d in docs} == set(MEMBERS)
    by_member = {d.metadata["member"]: d for d in docs}
    assert "hello from main" in by_member["project/src/main.py"].text
    assert all(d.metadata["depth"] == 1 and d.metadata["archive"] == path.name for d in docs)
    assert len({d.id for d in docs}) == len(docs)
    only_py = reader.iter_documents(path.name, pattern="*.py")
    assert sorted(d.metadata["member"] for d in only_py) == sorted(
        m for m in MEMBERS if m.endswith(".py")
    )


@pytest.mark.parametrize("family", list(FAMILIES))
def test_extract_writes_only_under_the_extraction_folder(
    reader: docread.Reader, tmp_path: Path, family: str
) -> None:
    path = FAMILIES[family](tmp_path)
    result = reader.read(path.name, mode="extract", archive_path="project/src/main.py")
    target = extraction_root(tmp_path, path.name) / "project" / "src" / "main.py"
    assert target.read_bytes() == MEMBERS["project/src/main.py"]
    assert result.header["To"] == target.relative_to(tmp_path).as_posix()
    assert str(target) in result.text
    many = reader.read(path.name, mode="extract", pattern="*.py")
    assert many.documents[0].metadata["extracted_count"] == 2
    assert (target.parent / "utils" / "helpers.py").is_file()
    assert files_outside(tmp_path, [path]) == []
    folders = [tmp_path / ".tmp", *(p for p in (tmp_path / ".tmp").rglob("*") if p.is_dir())]
    assert {p.stat().st_mode & 0o777 for p in folders} == {0o700}  # the user's own, every one


@pytest.mark.parametrize(
    ("suffix", "opener"), [(".gz", gzip.compress), (".bz2", bz2.compress), (".xz", lzma.compress)]
)
def test_single_file_stream_reads_as_its_content(
    reader: docread.Reader, tmp_path: Path, suffix: str, opener
) -> None:
    (tmp_path / f"notes.txt{suffix}").write_bytes(opener(b"first\nsecond\nthird\n"))
    result = reader.read(f"notes.txt{suffix}", offset=2)
    assert result.text == "second\nthird"
    assert result.documents[0].metadata["member"] == "notes.txt"
    listing = reader.read(f"notes.txt{suffix}", mode="list")
    assert "notes.txt" in listing.text and "(1 file)" in listing.text


def test_csv_member_gets_row_windows(reader: docread.Reader, tmp_path: Path) -> None:
    zip_archive(tmp_path / "t.zip", {"data/t.csv": b"name,score\nann,1\nbob,2\ncid,3\n"})
    result = reader.read("t.zip", archive_path="data/t.csv", rows="2-3")
    assert result.documents[0].metadata["format"] == "csv"
    assert "bob" in result.render() and "cid" in result.render()


# -- nesting ------------------------------------------------------------------------------
def test_nested_zip_is_listed_read_and_loaded(reader: docread.Reader, tmp_path: Path) -> None:
    inner = zip_bytes({"deep/inner.txt": b"inside the inner zip\n"})
    zip_archive(tmp_path / "outer.zip", {"inner.zip": inner, "top.txt": b"top level\n"})
    listing = reader.read("outer.zip", archive_path="inner.zip")
    assert "deep/inner.txt" in listing.text
    assert listing.header["Archive"] == "outer.zip::inner.zip"
    docs = list(reader.iter_documents("outer.zip"))
    deep = [d for d in docs if d.metadata["member"] == "deep/inner.txt"]
    assert (
        deep
        and deep[0].metadata["depth"] == 2
        and deep[0].metadata["archive"] == "outer.zip::inner.zip"
    )
    assert "inside the inner zip" in deep[0].text


def test_nesting_deeper_than_the_limit_is_refused(
    make_reader: MakeReader, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    data = zip_bytes({"bottom.txt": b"at the bottom\n"})
    for level in range(4):
        data = zip_bytes({f"level{level}.zip": data})
    zip_archive(tmp_path / "deep.zip", {"level4.zip": data, "ok.txt": b"fine\n"})
    # the refusal is a note of the read, logged once by the loader (in-process, for caplog)
    reader = make_reader(isolation={"enabled": False})
    docs = list(reader.iter_documents("deep.zip"))
    assert [d.text for d in docs] == ["fine"]  # the bottom is 6 levels down: never read
    refused = [r for r in caplog.records if "max_nesting_depth=3" in r.getMessage()]
    assert len(refused) == 1 and "skipped" in refused[0].getMessage()


# -- bombs --------------------------------------------------------------------------------
def test_zip_bomb_over_the_ratio_is_refused_in_read_and_skipped_in_loader(
    reader: docread.Reader, tmp_path: Path
) -> None:
    zip_archive(tmp_path / "bomb.zip", {"zeros.txt": bytes(ZEROS), "ok.txt": b"still readable\n"})
    assert (tmp_path / "bomb.zip").stat().st_size * 500 < ZEROS  # really ~1000:1
    with pytest.raises(ArchiveSecurityError, match=r"zeros\.txt.*max_compression_ratio=100"):
        reader.read("bomb.zip", archive_path="zeros.txt")
    docs = list(reader.iter_documents("bomb.zip"))
    assert [d.metadata["member"] for d in docs] == ["ok.txt"]
    listing = reader.read("bomb.zip")  # listing decompresses nothing: shown, with a warning
    assert "zeros.txt" in listing.text
    assert any("decompression bomb" in n for n in listing.notes)


def test_nested_bombs_share_one_budget_and_never_load(
    reader: docread.Reader, tmp_path: Path
) -> None:
    bomb = zip_bytes({"zeros.bin": bytes(ZEROS)})
    zip_archive(
        tmp_path / "nest.zip", {f"inner{i}.zip": bomb for i in range(5)} | {"ok.txt": b"fine\n"}
    )
    before = time.monotonic()
    docs = list(reader.iter_documents("nest.zip"))
    assert [d.metadata["member"] for d in docs] == ["ok.txt"]
    assert time.monotonic() - before < 20


def test_shared_budget_stops_nested_members_past_the_total(
    make_reader: MakeReader, tmp_path: Path
) -> None:
    payload = os.urandom(300_000)  # incompressible: no ratio problem, only the total
    inner = zip_bytes({"a.txt": payload.hex().encode()[:300_000]})
    zip_archive(tmp_path / "two.zip", {"one.zip": inner, "two.zip": inner})
    reader = make_reader(isolation={"enabled": False}, archive={"max_total_size": 800_000})
    docs = list(reader.iter_documents("two.zip"))
    # each inner zip (~150 KB) + its member (300 KB) counts: the second member no longer fits
    assert [d.metadata["archive"] for d in docs] == ["two.zip::one.zip"]
    tight = make_reader(isolation={"enabled": False}, archive={"max_total_size": 100_000})
    with pytest.raises(ArchiveSecurityError, match="max_total_size=100,000"):
        tight.read("two.zip", archive_path="one.zip")


def test_overlapping_entries_zip_bomb_is_refused(reader: docread.Reader, tmp_path: Path) -> None:
    (tmp_path / "overlap.zip").write_bytes(overlapping_zip())
    assert len(zipfile.ZipFile(tmp_path / "overlap.zip").namelist()) == 10
    for options in ({}, {"archive_path": "kb"}, {"mode": "extract", "pattern": "*"}):
        with pytest.raises(ArchiveSecurityError, match="overlapping-entries zip bomb"):
            reader.read("overlap.zip", **options)
    with pytest.raises(ArchiveSecurityError):
        list(reader.iter_documents("overlap.zip"))
    assert files_outside(tmp_path, [tmp_path / "overlap.zip"]) == []
    assert not (tmp_path / ".tmp" / "extracted").exists()


def test_member_lying_about_its_size_is_caught_while_reading(
    reader: docread.Reader, tmp_path: Path
) -> None:
    honest = zip_bytes({"liar.txt": b"x" * 10_000})
    (tmp_path / "liar.zip").write_bytes(patch_zip_headers(honest, size=100))
    assert zipfile.ZipFile(tmp_path / "liar.zip").getinfo("liar.txt").file_size == 100
    with pytest.raises(ArchiveSecurityError, match="more than the 100 bytes its header declares"):
        reader.read("liar.zip", archive_path="liar.txt")
    with pytest.raises(ArchiveSecurityError, match="lying size header"):
        reader.read("liar.zip", mode="extract", archive_path="liar.txt")
    assert not (extraction_root(tmp_path, "liar.zip") / "liar.txt").exists()  # partial removed


def test_tar_gz_bomb_is_stopped_by_the_stream_ratio(reader: docread.Reader, tmp_path: Path) -> None:
    tar_archive(tmp_path / "bomb.tar.gz", {"zeros.bin": bytes(50 << 20)}, "w:gz")
    before = time.monotonic()
    with pytest.raises(ArchiveSecurityError, match="compression ratio over"):
        reader.read("bomb.tar.gz")  # even listing must inflate the stream: the ratio stops it
    assert time.monotonic() - before < 10


def test_7z_bomb_is_refused(reader: docread.Reader, tmp_path: Path) -> None:
    sevenz_archive(tmp_path / "bomb.7z", {"zeros.bin": bytes(ZEROS), "ok.txt": b"fine\n"})
    with pytest.raises(ArchiveSecurityError, match=r"zeros\.bin.*max_compression_ratio"):
        reader.read("bomb.7z", archive_path="zeros.bin")
    assert reader.read("bomb.7z", archive_path="ok.txt").text == "fine"


def test_refusing_bombs_keeps_memory_and_time_bounded(
    make_reader: MakeReader, tmp_path: Path
) -> None:
    honest = zip_bytes({"zeros.bin": bytes(64 << 20)})
    (tmp_path / "big.zip").write_bytes(honest)
    (tmp_path / "liar.zip").write_bytes(patch_zip_headers(honest, size=1000))
    reader = make_reader(isolation={"enabled": False})
    tracemalloc.start()
    before = time.monotonic()
    try:
        for name in ("big.zip", "liar.zip"):
            with pytest.raises(ArchiveSecurityError):
                reader.read(name, archive_path="zeros.bin")
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert peak < 8 << 20, f"peak {peak:,} bytes while refusing a 64 MB bomb"
    assert time.monotonic() - before < 5


def test_too_many_members_is_refused(make_reader: MakeReader, tmp_path: Path) -> None:
    members = {f"f{i}.txt": b"x" for i in range(12)}
    zip_archive(tmp_path / "many.zip", members)
    tar_archive(tmp_path / "many.tar.gz", members, "w:gz")
    reader = make_reader(archive={"max_file_count": 10})
    with pytest.raises(ArchiveSecurityError, match="declares 12 members"):  # before parsing
        reader.read("many.zip")
    with pytest.raises(ArchiveSecurityError, match="more than 10 members"):  # counted as read
        reader.read("many.tar.gz")
    for name in ("many.zip", "many.tar.gz"):
        with pytest.raises(ArchiveSecurityError, match="max_file_count"):
            list(reader.iter_documents(name))


def test_single_member_over_the_size_limit_is_refused(
    make_reader: MakeReader, tmp_path: Path
) -> None:
    tar_archive(tmp_path / "big.tar", {"big.txt": os.urandom(300_000)})
    reader = make_reader(archive={"max_single_file": 100_000})
    with pytest.raises(ArchiveSecurityError, match="max_single_file=100,000"):
        reader.read("big.tar", archive_path="big.txt")


# -- names, links, devices, banned, encrypted, broken -------------------------------------
def test_zip_slip_names_land_inside_the_extraction_folder(
    reader: docread.Reader, tmp_path: Path
) -> None:
    work = tmp_path / "ws"
    work.mkdir()
    zip_archive(
        work / "slip.zip",
        {
            "../../evil.txt": b"evil\n",
            "/etc/evil.conf": b"conf\n",
            "ok.txt": b"ok\n",
            "C:\\win\\..\\..\\evil.ini": b"ini\n",
        },
    )
    reader = docread.Reader(work, config={"cache": {"enabled": False}})
    result = reader.read("slip.zip", mode="extract", pattern="*")
    assert result.documents[0].metadata["extracted_count"] == 4
    root = extraction_root(work, "slip.zip")
    assert (root / "win" / "evil.ini").read_bytes() == b"ini\n"
    assert (root / "evil.txt").read_bytes() == b"evil\n"
    assert (root / "etc" / "evil.conf").read_bytes() == b"conf\n"
    assert files_outside(work, [work / "slip.zip"]) == []
    assert [p.name for p in tmp_path.iterdir()] == ["ws"]
    assert reader.read("slip.zip", archive_path="../../evil.txt").text == "evil"


def test_listing_shows_member_names_as_read_and_extract_use_them(
    reader: docread.Reader, tmp_path: Path
) -> None:
    members = {"../../evil.txt": b"e\n", "/abs/path.txt": b"a\n", "ok.txt": b"o\n"}
    members |= {f"../many/{i}.txt": b"m\n" for i in range(12)}
    for name in ("slip.zip", "slip.tar"):
        (zip_archive if name.endswith("zip") else tar_archive)(tmp_path / name, members)
        listing = reader.read(name)
        names = [line.split()[0] for line in listing.text.splitlines()[1:-2] if line.strip()]
        assert names[:3] == ["abs/path.txt", "evil.txt", "many/0.txt"] and "ok.txt" in names
        assert not any(".." in n or n.startswith("/") for n in names)
        (note,) = [n for n in listing.notes if "unsafe as stored" in n]
        assert note.startswith("14 member names unsafe as stored, shown as read and extract use")
        assert "../../evil.txt as evil.txt, /abs/path.txt as abs/path.txt" in note
        assert note.endswith("and 4 more.")  # capped at 10 named
        for shown in ("evil.txt", "abs/path.txt", "many/3.txt"):
            assert reader.read(name, archive_path=shown).text in ("e", "a", "m")
    assert not any("unsafe" in n for n in reader.read("slip.zip", pattern="ok*").notes)


def test_extraction_never_writes_through_a_planted_link(tmp_path: Path) -> None:
    work, outside = tmp_path / "ws", tmp_path / "outside"
    outside.mkdir()
    (outside / "victim.txt").write_bytes(b"untouched")
    root = extraction_root(work, "a.zip")
    root.mkdir(parents=True)
    (root / "victim.txt").symlink_to(outside / "victim.txt")
    (root / "sub").symlink_to(outside)
    zip_archive(work / "a.zip", {"victim.txt": b"overwritten", "sub/new.txt": b"new"})
    reader = docread.Reader(work, config={"cache": {"enabled": False}})
    for member in ("victim.txt", "sub/new.txt"):
        with pytest.raises(ArchiveSecurityError, match="cannot be written|outside|link"):
            reader.read("a.zip", mode="extract", archive_path=member)
    assert (outside / "victim.txt").read_bytes() == b"untouched"
    assert sorted(p.name for p in outside.iterdir()) == ["victim.txt"]


@pytest.mark.parametrize("planted", [".tmp", ".tmp/extracted"])
def test_a_linked_extraction_folder_carries_nothing_out(tmp_path: Path, planted: str) -> None:
    work, outside = tmp_path / "ws", tmp_path / "outside"
    outside.mkdir()
    (work / planted).parent.mkdir(parents=True, exist_ok=True)
    (work / planted).symlink_to(outside)
    zip_archive(work / "a.zip", {"deep/hello.txt": b"hello"})
    reader = docread.Reader(work, config={"cache": {"enabled": False}})
    with pytest.raises(ArchiveSecurityError, match="link"):
        reader.read("a.zip", mode="extract", archive_path="deep/hello.txt")
    assert list(outside.iterdir()) == []  # not even an empty folder was created out there


def test_extraction_dir_setting_cannot_leave_the_workspace(tmp_path: Path) -> None:
    work = tmp_path / "ws"
    work.mkdir()
    zip_archive(work / "a.zip", {"hello.txt": b"hello"})
    reader = docread.Reader(
        work, config={"cache": {"enabled": False}, "archive": {"extraction_dir": "../x"}}
    )
    with pytest.raises(ArchiveSecurityError, match="leads outside the workspace"):
        reader.read("a.zip", mode="extract", archive_path="hello.txt")
    assert not (tmp_path / "x").exists()


def link_tar(path: Path) -> Path:
    with tarfile.open(path, "w") as tf:
        for name, kind, target in (
            ("link_out", tarfile.SYMTYPE, "/etc/passwd"),
            ("hard_out", tarfile.LNKTYPE, "../../outside.txt"),
            ("dev/null_dev", tarfile.CHRTYPE, ""),
        ):
            info = tarfile.TarInfo(name)
            info.type, info.linkname = kind, target
            if kind == tarfile.CHRTYPE:
                info.devmajor, info.devminor = 1, 3
            tf.addfile(info)
        data = b"regular content\n"
        info = tarfile.TarInfo("regular.txt")
        info.size = len(data)
        tf.addfile(info, io.BytesIO(data))
    return path


def test_links_and_devices_are_listed_but_never_followed(
    reader: docread.Reader, tmp_path: Path
) -> None:
    link_tar(tmp_path / "links.tar")
    listing = reader.read("links.tar").text
    assert "-> /etc/passwd [symlink, not followed]" in listing
    assert "../../outside.txt [hardlink, not followed]" in listing
    assert "null_dev" in listing and "[device/special entry, not read]" in listing
    for member, match in (
        ("link_out", "symlink"),
        ("hard_out", "hardlink"),
        ("dev/null_dev", "device"),
    ):
        with pytest.raises(ArchiveSecurityError, match=match):
            reader.read("links.tar", archive_path=member)
    result = reader.read("links.tar", mode="extract", pattern="*")
    assert result.documents[0].metadata["extracted_count"] == 1
    root = extraction_root(tmp_path, "links.tar")
    assert sorted(p.name for p in root.rglob("*")) == ["regular.txt"]
    assert not any(p.is_symlink() for p in root.rglob("*"))
    assert sum("skipped" in n for n in result.notes) == 3
    docs = list(reader.iter_documents("links.tar"))
    assert [d.metadata["member"] for d in docs] == ["regular.txt"]


def test_banned_extension_is_listed_but_never_read_or_extracted(
    reader: docread.Reader, tmp_path: Path
) -> None:
    zip_archive(tmp_path / "tools.zip", {"bin/tool.exe": b"MZ\x90\x00", "readme.txt": b"read me\n"})
    assert "[banned extension, not read]" in reader.read("tools.zip").text
    with pytest.raises(BannedExtensionError, match=r"tool\.exe"):
        reader.read("tools.zip", archive_path="bin/tool.exe")
    with pytest.raises(BannedExtensionError):
        reader.read("tools.zip", mode="extract", archive_path="bin/tool.exe")
    assert not (extraction_root(tmp_path, "tools.zip") / "bin" / "tool.exe").exists()
    assert [d.metadata["member"] for d in reader.iter_documents("tools.zip")] == ["readme.txt"]


def test_encrypted_zip_member_is_a_clear_error(reader: docread.Reader, tmp_path: Path) -> None:
    (tmp_path / "secret.zip").write_bytes(
        patch_zip_headers(zip_bytes({"s.txt": b"secret"}), flags=0x1)
    )
    assert "[encrypted]" in reader.read("secret.zip").text
    with pytest.raises(EncryptedDocumentError, match="password-protected"):
        reader.read("secret.zip", archive_path="s.txt")


def test_encrypted_7z_is_a_clear_error(reader: docread.Reader, tmp_path: Path) -> None:
    sevenz_archive(tmp_path / "secret.7z", {"s.txt": b"secret"}, password="pw")
    with pytest.raises(EncryptedDocumentError, match="password-protected"):
        reader.read("secret.7z", archive_path="s.txt")


@pytest.mark.parametrize("name", ["cut.zip", "cut.tar.gz", "cut.7z"])
def test_truncated_archive_is_an_extraction_error(
    reader: docread.Reader, tmp_path: Path, name: str
) -> None:
    full = tmp_path / f"full-{name}"
    members = {"a.txt": os.urandom(40_000).hex().encode(), "b.txt": b"b\n"}
    {
        "cut.zip": zip_archive,
        "cut.tar.gz": lambda p, m: tar_archive(p, m, "w:gz"),
        "cut.7z": sevenz_archive,
    }[name](full, members)
    data = full.read_bytes()
    (tmp_path / name).write_bytes(data[: len(data) // 2])
    with pytest.raises(ExtractionError, match="truncated or corrupt|cannot be read"):
        list(reader.iter_documents(name))


def test_option_errors_name_what_to_pass(reader: docread.Reader, tmp_path: Path) -> None:
    zip_archive(tmp_path / "a.zip", {"x.txt": b"x\n"})
    with pytest.raises(InvalidOptionError, match="archive_path"):
        reader.read("a.zip", mode="read")
    with pytest.raises(InvalidOptionError, match="pattern"):
        reader.read("a.zip", mode="extract")
    with pytest.raises(DocumentNotFoundError, match="no member named 'y.txt'"):
        reader.read("a.zip", archive_path="y.txt")


# -- conformance --------------------------------------------------------------------------


def test_listing_past_its_timeout_is_a_timeout_error(
    make_reader: MakeReader, tmp_path: Path
) -> None:
    from docread.errors import ExtractionTimeoutError

    zip_archive(tmp_path / "slow.zip", {f"f{i}.txt": b"x" for i in range(50)})
    reader = make_reader(timeouts={"archive_list": 1e-9})
    with pytest.raises(ExtractionTimeoutError, match="timeouts.archive_list"):
        reader.read("slow.zip")


def test_loader_list_mode_gives_the_listing_as_one_document(
    reader: docread.Reader, tmp_path: Path
) -> None:
    FAMILIES["zip"](tmp_path)
    docs = list(reader.iter_documents("project.zip", mode="list", pattern="*.md"))
    assert len(docs) == 1 and "project/docs/readme.md" in docs[0].text
    assert docs[0].metadata["members_shown"] == 1 and docs[0].metadata["file_count"] == 4


def test_impossible_zip_dates_list_without_a_date(reader: docread.Reader, tmp_path: Path) -> None:
    data = bytearray(zip_bytes({"undated.txt": b"x\n"}))
    cd = data.find(b"PK\x01\x02")
    data[cd + 12 : cd + 16] = bytes(4)  # DOS time and date 0: month 0, day 0
    (tmp_path / "undated.zip").write_bytes(bytes(data))
    line = reader.read("undated.zip").text.splitlines()[1]
    assert line.split() == ["undated.txt", "2", "B"]


def test_single_file_stream_extracts_its_one_member(reader: docread.Reader, tmp_path: Path) -> None:
    (tmp_path / "dump.sql.gz").write_bytes(gzip.compress(b"CREATE TABLE t (x int);\n"))
    result = reader.read("dump.sql.gz", mode="extract")
    target = extraction_root(tmp_path, "dump.sql.gz") / "dump.sql"
    assert target.read_bytes() == b"CREATE TABLE t (x int);\n"
    assert result.header["To"] == target.relative_to(tmp_path).as_posix()


def test_pdf_member_gets_its_pages_window(reader: docread.Reader, tmp_path: Path) -> None:
    pages = [
        f"This is page number {n} of the quarterly report, long enough to need no OCR"
        for n in range(1, 4)
    ]
    zip_archive(tmp_path / "reports.zip", {"q4/report.pdf": pdf_bytes(pages)})
    result = reader.read("reports.zip", archive_path="q4/report.pdf", pages="2")
    assert [d.metadata["page_number"] for d in result.documents] == [2]
    assert "page number 2" in result.text and "page number 3" not in result.text
    assert result.documents[0].metadata["member"] == "q4/report.pdf"


def test_zip_symlink_entry_is_listed_but_never_followed(
    reader: docread.Reader, tmp_path: Path
) -> None:
    import stat

    with zipfile.ZipFile(tmp_path / "ln.zip", "w") as zf:
        info = zipfile.ZipInfo("passwd_link")
        info.external_attr = (stat.S_IFLNK | 0o777) << 16
        zf.writestr(info, "/etc/passwd")
        zf.writestr("plain.txt", "plain\n")
    assert "[symlink, not followed]" in reader.read("ln.zip").text
    with pytest.raises(ArchiveSecurityError, match="links are listed but never followed"):
        reader.read("ln.zip", archive_path="passwd_link")
    reader.read("ln.zip", mode="extract", pattern="*")
    extracted = extraction_root(tmp_path, "ln.zip")
    assert [p.name for p in extracted.iterdir()] == ["plain.txt"]


def test_huge_declared_central_directory_is_refused_before_parsing(
    reader: docread.Reader, tmp_path: Path
) -> None:
    data = bytearray(zip_bytes({"a.txt": b"a", "b.txt": b"b"}))
    eocd = data.rfind(b"PK\x05\x06")
    data[eocd + 8 : eocd + 12] = struct.pack("<HH", 60000, 60000)  # claims 60,000 members
    (tmp_path / "claims.zip").write_bytes(bytes(data))
    with pytest.raises(
        ArchiveSecurityError, match="declares 60,000 members.*max_file_count=10,000"
    ):
        reader.read("claims.zip")


def test_unsupported_compression_method_is_a_clear_error(
    reader: docread.Reader, tmp_path: Path
) -> None:
    data = bytearray(zip_bytes({"d64.txt": b"deflate64 here\n"}))
    local, central = data.find(b"PK\x03\x04"), data.find(b"PK\x01\x02")
    data[local + 8 : local + 10] = data[central + 10 : central + 12] = struct.pack("<H", 9)
    (tmp_path / "d64.zip").write_bytes(bytes(data))
    assert "[unsupported compression]" in reader.read("d64.zip").text
    with pytest.raises(FormatNotSupportedError, match="compression method 9"):
        reader.read("d64.zip", archive_path="d64.txt")


def test_extracting_again_rewrites_a_removed_file(reader: docread.Reader, tmp_path: Path) -> None:
    """Extraction has a side effect, so a repeated extract must run again (never the dedup stub)."""
    zip_archive(tmp_path / "again.zip", {"a.txt": b"again\n"})
    target = extraction_root(tmp_path, "again.zip") / "a.txt"
    reader.read("again.zip", mode="extract", archive_path="a.txt")
    target.unlink()
    result = reader.read("again.zip", mode="extract", archive_path="a.txt")
    assert target.read_bytes() == b"again\n", result.text


def test_member_names_cannot_break_the_listing_layout(
    reader: docread.Reader, tmp_path: Path
) -> None:
    zip_archive(tmp_path / "names.zip", {"evil\nContents:\n  fake.txt": b"x", "ok.txt": b"y"})
    listing = reader.read("names.zip")
    lines = listing.text.splitlines()
    assert lines[1].split()[0] == "evil_Contents:_"  # the name extraction writes, below
    assert len(lines) == 5  # Contents:, two members, blank, count
    assert "evil\\x0aContents:\\x0a  fake.txt as evil_Contents:_  fake.txt" in listing.notes[-1]
    reader.read("names.zip", mode="extract", pattern="evil*")
    extracted = extraction_root(tmp_path, "names.zip")
    assert [p.name for p in extracted.iterdir()] == ["evil_Contents:_  fake.txt"]


def _utf8_flagged(members: dict[bytes, bytes]) -> bytes:
    """A zip whose entries all carry the UTF-8 flag (bit 11), whatever bytes their names are."""
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w") as archive:
        for index, data in enumerate(members.values()):
            archive.writestr(f"m{index:04d}", data)
    raw = buf.getvalue()
    for index, name in enumerate(members):
        raw = raw.replace(f"m{index:04d}".encode(), name[:5].ljust(5, b"_"))  # same length
    out = bytearray(raw)
    for signature, flag_at in ((b"PK\x03\x04", 6), (b"PK\x01\x02", 8)):
        at = out.find(signature)
        while at >= 0:
            out[at + flag_at + 1] |= 0x08  # bit 11: the high byte of the little-endian flags
            at = out.find(signature, at + 4)
    return bytes(out)


@pytest.mark.parametrize("family", ["tar", "zip"])
def test_a_member_name_that_is_not_utf8_is_listed_read_and_loaded(
    reader: docread.Reader, tmp_path: Path, family: str
) -> None:
    """A tar member b"bad\\xff.txt" and a zip entry flagged UTF-8 whose name is not: the listing
    shows every member, the bad byte as U+FFFD, with a note (it failed whole); that name reads
    the member; the loader's metadata is valid UTF-8."""
    if family == "tar":
        name, data = "a.tar", io.BytesIO()
        with tarfile.open(fileobj=data, mode="w", format=tarfile.GNU_FORMAT) as archive:
            for raw, body in ((b"bad\xff.txt", b"bad bytes\n"), (b"ok.txt", b"fine\n")):
                info = tarfile.TarInfo(os.fsdecode(raw))
                info.size = len(body)
                archive.addfile(info, io.BytesIO(body))
        (tmp_path / name).write_bytes(data.getvalue())
    else:
        name = "a.zip"
        members = {b"b\xff\xfe.t": b"bad bytes\n", b"ok.tx": b"fine\n"}
        (tmp_path / name).write_bytes(_utf8_flagged(members))
    listing = reader.read(name)
    text = listing.render()
    lines = listing.text.splitlines()[1:]
    shown = [line.split()[0] for line in lines if line.startswith("  ") and "(" not in line]
    bad = next(n for n in shown if "\ufffd" in n)
    assert len(shown) == 2 and "1 member name is not valid UTF-8" in text
    assert reader.read(name, mode="read", archive_path=bad).text.strip().endswith("bad bytes")
    units = list(reader.iter_documents(name))
    assert sorted(u.metadata["member"] for u in units) == sorted(shown)
    json.dumps([dict(u.metadata) for u in units], ensure_ascii=False).encode("utf-8")


# -- extraction folders and duplicate member names -------------------------------------------------
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
