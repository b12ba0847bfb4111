"""The result cache: hit, miss, invalidation by mtime and settings, broken cache directories.

A fake cacheable extractor appends to ``<file>.count`` each time it really runs, so a hit is
proved by the count not moving (this works in-process and in a worker alike).
"""

from __future__ import annotations

import logging
import os
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import docread
import pytest
from docread import formats
from docread.cache import store
from docread.cache.disk import DiskCache
from docread.cache.store import ResultCache
from docread.extractors.base import Context, Extractor
from docread.model import Document
from docread.settings import CacheSettings
from docread.source import Source
from factories import pdf


class Counting(Extractor):
    """Cacheable, in-process: one Document per line, and a tick in ``<file>.count`` per run."""

    name = "fake_counting"
    cacheable = True

    def extract(self, source: Source, ctx: Context) -> Iterator[Document]:
        with Path(ctx.info.path).with_suffix(".count").open("a") as f:  # beside the file
            f.write("x")
        lines = source.read_bytes().decode().splitlines()
        for number, line in enumerate(lines, 1):
            yield Document(line, {"page_number": number})
        ctx.set_header("Pages", len(lines))
        ctx.warn("counted")


class CountingIsolated(Counting):
    name = "fake_counting_iso"
    isolated = True


class NotCacheable(Counting):
    name = "fake_plain"
    cacheable = False


class CountingArchive(Counting):
    name = "fake_archive"


FAKES = {cls.name: cls for cls in (Counting, CountingIsolated, NotCacheable, CountingArchive)}


@pytest.fixture(autouse=True)
def fakes(monkeypatch: pytest.MonkeyPatch) -> None:
    for key, cls in FAKES.items():
        category = "archive" if key == "fake_archive" else "pdf"
        fmt = formats.Format(
            key, category, "application/x-fake", extractor=f"{cls.__module__}:{cls.__qualname__}"
        )
        monkeypatch.setitem(formats.BY_KEY, key, fmt)


def _config(cache_dir: Path, **extra: Any) -> dict[str, Any]:
    return {"cache": {"directory": str(cache_dir)}, **extra}


def _runs(tmp_path: Path, name: str = "doc.bin") -> int:
    counter = (tmp_path / name).with_suffix(".count")
    return len(counter.read_text()) if counter.exists() else 0


@pytest.fixture
def doc(tmp_path: Path) -> str:
    (tmp_path / "doc.bin").write_text("alpha\nbeta\ngamma")
    return "doc.bin"


@pytest.mark.parametrize("fmt", ["fake_counting", "fake_counting_iso"])
def test_second_read_is_a_hit_with_the_same_result(tmp_path: Path, doc: str, fmt: str) -> None:
    with docread.Reader(tmp_path, config=_config(tmp_path / "cache")) as reader:
        cold = reader.read(doc, format_hint=fmt)
        warm = reader.read(doc, format_hint=fmt, dedupe=False)
    assert _runs(tmp_path) == 1
    assert (cold.cached, warm.cached) == (False, True)
    assert [(d.text, d.id, dict(d.metadata)) for d in warm.documents] == [
        (d.text, d.id, dict(d.metadata)) for d in cold.documents
    ]
    assert warm.header == {"Pages": "3"} and warm.notes == ["counted"]
    assert warm.render() == cold.render()


def test_cache_is_shared_by_readers_on_one_directory(tmp_path: Path, doc: str) -> None:
    for _ in range(2):
        with docread.Reader(tmp_path, config=_config(tmp_path / "cache")) as reader:
            assert [d.text for d in reader.iter_documents(doc, format_hint="fake_counting")] == [
                "alpha", "beta", "gamma",
            ]  # fmt: skip
    assert _runs(tmp_path) == 1


def test_changed_content_invalidates(tmp_path: Path, doc: str) -> None:
    with docread.Reader(tmp_path, config=_config(tmp_path / "cache")) as reader:
        reader.read(doc, format_hint="fake_counting")
        (tmp_path / doc).write_text("alpha\nbeta\ndelta")
        again = reader.read(doc, format_hint="fake_counting")
    assert _runs(tmp_path) == 2
    assert not again.cached


def test_changed_settings_invalidate(tmp_path: Path, doc: str) -> None:
    cache_dir = tmp_path / "cache"
    with docread.Reader(tmp_path, config=_config(cache_dir)) as reader:
        reader.read(doc, format_hint="fake_counting")
    with docread.Reader(tmp_path, config=_config(cache_dir, output={"max_chars": 1000})) as reader:
        assert not reader.read(doc, format_hint="fake_counting").cached
    assert _runs(tmp_path) == 2


def test_options_and_mode_are_part_of_the_key(tmp_path: Path, doc: str) -> None:
    with docread.Reader(tmp_path, config=_config(tmp_path / "cache")) as reader:
        reader.read(doc, format_hint="fake_counting")
        reader.read(doc, format_hint="fake_counting", pages="2")
        list(reader.iter_documents(doc, format_hint="fake_counting"))
        reader.read(doc, format_hint="fake_counting", output_format="json")  # rendering only
    assert _runs(tmp_path) == 3


def test_not_cacheable_extractors_and_archive_reads_are_not_cached(
    tmp_path: Path, doc: str
) -> None:
    with docread.Reader(tmp_path, config=_config(tmp_path / "cache")) as reader:
        for _ in range(2):
            reader.read(doc, format_hint="fake_plain", dedupe=False)
            reader.read(doc, format_hint="fake_archive", mode="read", dedupe=False)
            list(reader.iter_documents(doc, format_hint="fake_archive"))
        for _ in range(2):
            reader.read(doc, format_hint="fake_archive", mode="list", dedupe=False)
    assert _runs(tmp_path) == 2 + 2 + 2 + 1


def test_the_folder_opens_while_the_key_is_made(
    tmp_path: Path, doc: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The cold start's wait: the folder's open (SQLite's setup, 0.1 s for a new one) runs while
    the read's key is made (the file's digest, Tesseract's languages), not after it; a read that
    is not cached opens no folder."""
    opened = threading.Event()
    real_open = DiskCache._open

    def open_(self: DiskCache) -> Any:
        found = real_open(self)
        opened.set()
        return found

    real_stamp = store.content_stamp
    seen: list[bool] = []

    def stamp(source: Source) -> str:
        seen.append(opened.wait(5))  # the open is under way meanwhile (before: 5 s, then False)
        return real_stamp(source)

    monkeypatch.setattr(DiskCache, "_open", open_)
    monkeypatch.setattr(store, "content_stamp", stamp)
    with docread.Reader(tmp_path, config=_config(tmp_path / "plain")) as reader:
        reader.read(doc, format_hint="fake_plain")
    assert not (tmp_path / "plain").exists() and not opened.is_set()
    with docread.Reader(tmp_path, config=_config(tmp_path / "cache")) as reader:
        assert not reader.read(doc, format_hint="fake_counting").cached
        assert reader.read(doc, format_hint="fake_counting", dedupe=False).cached
    assert seen == [True, True]


def test_expired_entries_are_misses(tmp_path: Path, doc: str) -> None:
    config = _config(tmp_path / "cache")
    config["cache"]["ttl_days"] = 0.5 / 86400  # half a second
    with docread.Reader(tmp_path, config=config) as reader:
        reader.read(doc, format_hint="fake_counting")
        time.sleep(0.7)
        assert not reader.read(doc, format_hint="fake_counting", dedupe=False).cached
    assert _runs(tmp_path) == 2


def test_corrupt_cache_directory_logs_and_reads_on(
    tmp_path: Path, doc: str, caplog: pytest.LogCaptureFixture
) -> None:
    cache_dir = tmp_path / "cache"
    cache_dir.mkdir()
    (cache_dir / "cache.db").write_bytes(b"this is not a database" * 100)
    with (
        caplog.at_level(logging.WARNING, logger="docread"),
        docread.Reader(tmp_path, config=_config(cache_dir)) as reader,
    ):
        result = reader.read(doc, format_hint="fake_counting")
    assert result.text == "alpha\n\nbeta\n\ngamma"
    assert any(
        "CacheError" in r.getMessage() and "unusable" in r.getMessage() for r in caplog.records
    )


def test_unwritable_cache_location_logs_and_reads_on(
    tmp_path: Path, doc: str, caplog: pytest.LogCaptureFixture
) -> None:
    (tmp_path / "plainfile").write_text("")
    with (
        caplog.at_level(logging.WARNING, logger="docread"),
        docread.Reader(tmp_path, config=_config(tmp_path / "plainfile" / "cache")) as reader,
    ):
        assert len(reader.read(doc, format_hint="fake_counting").documents) == 3
        assert len(reader.read(doc, format_hint="fake_counting", dedupe=False).documents) == 3
    errors = [r for r in caplog.records if "CacheError" in r.getMessage()]
    assert len(errors) == 1  # said once, then the Reader goes on without a cache
    assert _runs(tmp_path) == 2


def test_disabled_cache_writes_nothing(tmp_path: Path, doc: str) -> None:
    config = {"cache": {"enabled": False, "directory": str(tmp_path / "cache")}}
    with docread.Reader(tmp_path, config=config) as reader:
        reader.read(doc, format_hint="fake_counting")
        assert not reader.read(doc, format_hint="fake_counting", dedupe=False).cached
    assert not (tmp_path / "cache").exists()


def test_info_and_clear(tmp_path: Path, doc: str) -> None:
    cache_dir = tmp_path / "cache"
    with docread.Reader(tmp_path, config=_config(cache_dir)) as reader:
        reader.read(doc, format_hint="fake_counting")
    cache = ResultCache(CacheSettings(directory=str(cache_dir)))
    info = cache.info()
    assert info["directory"] == str(cache_dir)
    assert info["entries"] == 1 and info["size_bytes"] > 0 and info["usable"]
    assert cache.clear() == 1
    assert cache.info()["entries"] == 0
    cache.close()


def test_cli_cache_info_and_clear(
    tmp_path: Path, doc: str, capsys: pytest.CaptureFixture[str]
) -> None:
    from docread.cli import main

    cache_dir = tmp_path / "cache"
    config = tmp_path / "tools-security.yaml"
    config.write_text(f"tools:\n  read_document:\n    cache:\n      directory: {cache_dir}\n")
    with docread.Reader(tmp_path, config=str(config)) as reader:
        reader.read(doc, format_hint="fake_counting")
    assert main(["cache", "info", "--config", str(config)]) == 0
    out = capsys.readouterr().out
    assert f"directory: {cache_dir}" in out and "entries: 1" in out
    assert main(["cache", "clear", "--config", str(config)]) == 0
    assert "removed 1 entries" in capsys.readouterr().out
    main(["cache", "info", "--config", str(config)])
    assert "entries: 0" in capsys.readouterr().out


def test_real_pdf_is_cached_across_readers(tmp_path: Path) -> None:
    pdf(tmp_path / "doc.pdf", ["Cached page 1", "Cached page 2"])
    results = []
    for _ in range(2):
        with docread.Reader(tmp_path, config=_config(tmp_path / "cache")) as reader:
            results.append(reader.read("doc.pdf"))
    cold, warm = results
    assert (cold.cached, warm.cached) == (False, True)
    assert "Cached page 2" in warm.text
    assert warm.render() == cold.render()


def test_a_new_pdf_extractor_version_is_a_miss(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The key names the extractor's version as the host reads it (the class facts in
    ``extractors/pdf/__init__.py``, not the engine): a bumped version reads the PDF again."""
    from docread.extractors.pdf import PdfExtractor

    pdf(tmp_path / "doc.pdf", ["Versioned page"])
    cached = []
    for version in (PdfExtractor.version, PdfExtractor.version, PdfExtractor.version + 1):
        monkeypatch.setattr(PdfExtractor, "version", version)
        with docread.Reader(tmp_path, config=_config(tmp_path / "cache")) as reader:
            cached.append(reader.read("doc.pdf").cached)
    assert cached == [False, True, False]


def test_processes_share_one_cache_directory(tmp_path: Path) -> None:
    names = [f"doc{i}.bin" for i in range(6)]
    for name in names:
        (tmp_path / name).write_text(f"text of {name}")
    config = _config(tmp_path / "cache")

    def read_all(order: list[str]) -> None:
        with docread.Reader(tmp_path, config=config) as reader:
            for name in order:
                reader.read(name, format_hint="fake_counting")

    pid = os.fork()
    if pid == 0:  # the child writes in the opposite order at the same time
        code = 1
        try:
            read_all(names[::-1])
            code = 0
        finally:
            os._exit(code)
    read_all(names)
    assert os.waitpid(pid, 0)[1] == 0
    with docread.Reader(tmp_path, config=config) as reader:
        assert all(reader.read(name, format_hint="fake_counting").cached for name in names)
    assert all(1 <= _runs(tmp_path, name) <= 2 for name in names)


def test_a_single_file_gz_read_is_its_content_and_not_cached(tmp_path: Path) -> None:
    import gzip

    (tmp_path / "app.log.gz").write_bytes(gzip.compress(b"line one\nline two\n"))
    with docread.Reader(tmp_path, config=_config(tmp_path / "cache")) as reader:
        first = reader.read("app.log.gz")
        second = reader.read("app.log.gz", dedupe=False)
    assert "line two" in first.text and "line two" in second.text
    assert not second.cached  # archives keep only their listings in the cache


@pytest.fixture
def umask_000() -> Iterator[None]:
    """The loosest umask: a folder made without an explicit mode comes out 0777."""
    old = os.umask(0)
    try:
        yield
    finally:
        os.umask(old)


def _folder_modes(top: Path) -> dict[str, int]:
    """Every folder from ``top`` down, relative, with its permission bits."""
    found = {".": top.stat().st_mode & 0o777}
    for folder in top.rglob("*"):
        if folder.is_dir():
            found[str(folder.relative_to(top))] = folder.stat().st_mode & 0o777
    return found


def test_every_folder_made_for_the_cache_and_media_is_0700_under_umask_000(
    tmp_path: Path, umask_000: None
) -> None:
    """The cache folder's missing parents, diskcache's value folders (a value over 32 KB goes to a
    file in two levels of folders) and a media folder with its parents: all 0700."""
    from docread.model import Media
    from docread.rag.media_files import store_media

    (tmp_path / "big.bin").write_text("".join(f"line {i} " + "x" * 60 + "\n" for i in range(800)))
    cache = tmp_path / "a" / "b" / "cache"
    with docread.Reader(tmp_path, config=_config(cache)) as reader:
        reader.read("big.bin", format_hint="fake_counting")
    modes = _folder_modes(tmp_path / "a")
    assert len(modes) >= 5  # a, a/b, a/b/cache and a value file's two folders
    assert set(modes.values()) == {0o700}, modes
    store_media(Media("image/png", b"\x89PNG", {}, "m"), tmp_path / "m" / "n")
    assert set(_folder_modes(tmp_path / "m").values()) == {0o700}


def test_a_result_over_the_entry_size_streams_through_uncached_read_or_loaded(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """One rule sizes every entry (``PendingEntry``): a read, a one-file load and a parallel
    load all keep a small PDF and none keeps one past ``MAX_ENTRY_BYTES``."""
    monkeypatch.setattr("docread.cache.store.MAX_ENTRY_BYTES", 6000)
    pdf(tmp_path / "big.pdf", [f"Page {n} " + "words in a line " * 40 for n in range(1, 13)])
    pdf(tmp_path / "small.pdf", ["one short page"])
    config = _config(tmp_path / "cache")
    with docread.Reader(tmp_path, config) as reader:
        for name in ("big.pdf", "small.pdf"):
            reader.read(name)
        again = {name: reader.read(name).cached for name in ("big.pdf", "small.pdf")}
    assert again == {"big.pdf": False, "small.pdf": True}
    for workers in (1, 2):  # a cache folder each: each load path stores its own entries
        config = _config(tmp_path / f"cache{workers}")
        served = []
        for _ in range(2):
            with docread.Reader(tmp_path, config) as reader:
                units = list(reader.iter_units(["big.pdf", "small.pdf"], workers=workers))
                served.append((reader.stats().reads, reader.stats().cached))
            assert len(units) == 13
        assert served == [(2, 0), (2, 1)]  # the small PDF only, from the second load on
