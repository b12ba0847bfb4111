"""A file's content stamp (cache/stamp.py): the result cache and the read log follow the
content, whatever a rewrite does to the size and the mtime."""

from __future__ import annotations

import os
import random
import time
from collections.abc import Callable
from pathlib import Path

import docread
from docread.cache.readlog import UNCHANGED
from docread.cache.stamp import FULL_DIGEST_MAX, file_stamp

# -- cached and deduplicated results follow the content --------------------------------------------
MB = 1 << 20


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
