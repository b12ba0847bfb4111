"""The cache folder is the user's own (cache/private.py): 0700 and 0600, tightened when only
readable by others, refused when writable by others or owned by another user, and never a
pickle from outside it."""

from __future__ import annotations

import logging
import os
import zipfile
from pathlib import Path

import docread
import pytest


# -- the cache directory is private ----------------------------------------------------------------
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
