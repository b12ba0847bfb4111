"""One way to do each thing: loader policy in the core (paths, walk, errors, default workspace),
errors logged once where handled, no dedupe unless asked, the encoding detected once, and
third-party formats through ``formats.register`` or the ``docread.extractors`` entry points."""

from __future__ import annotations

import json
import logging
import os
import sys
import time
import zipfile
from collections.abc import Iterator
from pathlib import Path
from typing import ClassVar

import docread
import pytest
from docread import detect, formats
from docread.extractors.base import Context, Extractor
from docread.model import Document, Unit
from docread.reader import loader_workspace
from docread.source import Source

NO_CACHE = {"cache": {"enabled": False}}
IN_PROCESS = {"cache": {"enabled": False}, "isolation": {"enabled": False}}


def _docread_records(caplog: pytest.LogCaptureFixture) -> list[logging.LogRecord]:
    return [r for r in caplog.records if r.name == "docread" and r.levelno >= logging.WARNING]


def _folder(root: Path) -> Path:
    """data/a.txt, data/sub/b.md, data/broken.ipynb (invalid JSON: fails in the notebook reader)."""
    data = root / "data"
    (data / "sub").mkdir(parents=True)
    (data / "a.txt").write_text("alpha\n")
    (data / "sub" / "b.md").write_text("# B\nbeta\n")
    (data / "broken.ipynb").write_text("{not json")
    return data


# -- loader policy: paths, walk, errors ------------------------------------------------------
def test_iter_units_takes_files_and_folders_and_shows_them_as_given(tmp_path: Path) -> None:
    _folder(tmp_path)
    (tmp_path / "top.txt").write_text("top\n")
    with docread.Reader(tmp_path, NO_CACHE) as reader:
        docs = list(reader.iter_documents(["top.txt", "data"], on_error=lambda p, e: None))
        flat = list(reader.iter_documents("data", recursive=False, on_error=lambda p, e: None))
        md = list(reader.iter_documents(Path("data"), pattern="**/*.md"))
    assert [d.metadata["source"] for d in docs] == ["top.txt", "data/a.txt", "data/sub/b.md"]
    assert [d.metadata["source"] for d in flat] == ["data/a.txt"]
    assert [d.metadata["source"] for d in md] == ["data/sub/b.md"]


def test_on_error_gets_named_and_found_failures_and_the_load_goes_on(tmp_path: Path) -> None:
    _folder(tmp_path)
    failed: list[tuple[str, str]] = []
    with docread.Reader(tmp_path, NO_CACHE) as reader:
        docs = list(
            reader.iter_documents(
                ["missing.txt", "data"], on_error=lambda p, e: failed.append((p, type(e).__name__))
            )
        )
    assert failed == [
        ("missing.txt", "DocumentNotFoundError"),
        ("data/broken.ipynb", "ExtractionError"),
    ]
    assert [d.metadata["source"] for d in docs] == ["data/a.txt", "data/sub/b.md"]


def test_without_a_handler_a_named_file_raises_and_logs_nothing(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    _folder(tmp_path)
    with (
        caplog.at_level(logging.DEBUG, logger="docread"),
        docread.Reader(tmp_path, NO_CACHE) as reader,
        pytest.raises(docread.ExtractionError, match="broken.ipynb"),
    ):
        list(reader.iter_documents(["data/a.txt", "data/broken.ipynb"]))
    assert _docread_records(caplog) == []  # raised to the caller: the caller's to log


def test_a_failing_file_in_a_folder_load_is_logged_exactly_once(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    _folder(tmp_path)
    with caplog.at_level(logging.DEBUG, logger="docread"):
        docs = list(docread.iter_documents("data", workspace=tmp_path, config=NO_CACHE))
    assert [d.metadata["source"] for d in docs] == ["data/a.txt", "data/sub/b.md"]
    record, summary = _docread_records(caplog)  # the file's warning, the load's summary
    assert "ExtractionError" in record.getMessage() and "broken.ipynb" in record.getMessage()
    assert record.docread_path == "data/broken.ipynb"
    assert "1 of 3 file(s) failed and were skipped: data/broken.ipynb" in summary.getMessage()


def test_a_skipped_archive_member_is_only_the_note(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    with zipfile.ZipFile(tmp_path / "pack.zip", "w") as z:
        z.writestr("ok.txt", "fine\n")
        z.writestr("bad.ipynb", "{not json")
    with caplog.at_level(logging.DEBUG, logger="docread"):
        docs = list(docread.iter_documents("pack.zip", workspace=tmp_path, config=IN_PROCESS))
    assert [d.text for d in docs] == ["fine"]
    [record] = _docread_records(caplog)  # the loader's note; the member's error is not logged
    assert record.getMessage().startswith("pack.zip: Member bad.ipynb skipped:")


def test_a_worker_error_is_raised_once_and_not_logged(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    (tmp_path / "broken.pdf").write_bytes(b"%PDF-1.7\n garbage that is no pdf")
    with (
        caplog.at_level(logging.DEBUG, logger="docread"),
        docread.Reader(tmp_path, {**NO_CACHE, "isolation": {"workers": 1}}) as reader,
        pytest.raises(docread.ExtractionError, match="broken.pdf"),
    ):
        reader.read("broken.pdf")
    assert _docread_records(caplog) == []


def test_tools_log_the_error_they_hand_to_the_model_once(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    from langchain_docread import ReadDocumentTool
    from llama_index_docread import DocReadToolSpec

    lc = ReadDocumentTool(workspace=str(tmp_path))
    li = DocReadToolSpec(tmp_path)
    with caplog.at_level(logging.DEBUG, logger="docread"):
        message = lc.invoke({"file_path": "gone.txt"})
        assert "gone.txt" in str(message)
        assert "gone.txt" in li.read_document("gone.txt")[0].text
    records = _docread_records(caplog)
    assert [r.docread_path for r in records] == ["gone.txt", "gone.txt"]
    assert all("DocumentNotFoundError" in r.getMessage() for r in records)


def test_the_cli_logs_the_error_it_reports_once(
    tmp_path: Path, caplog: pytest.LogCaptureFixture, capsys: pytest.CaptureFixture[str]
) -> None:
    from docread.cli import main

    with caplog.at_level(logging.DEBUG, logger="docread"):
        assert main(["gone.txt", "--workspace", str(tmp_path)]) == 1
    assert "gone.txt" in capsys.readouterr().err
    [record] = _docread_records(caplog)
    assert record.docread_path == "gone.txt"


def test_llamaindex_warn_logs_a_failing_folder_file_once(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    from llama_index_docread import DocReadReader

    data = _folder(tmp_path)
    with caplog.at_level(logging.DEBUG):
        docs = DocReadReader(on_error="warn", config=NO_CACHE).load_data(data)
    assert {d.metadata["file_name"] for d in docs} == {"a.txt", "b.md"}
    warned = [r for r in caplog.records if r.levelno >= logging.WARNING]
    assert len(warned) == 2 and "broken.ipynb" in warned[0].getMessage()  # the file, then
    assert "1 of 3 file(s) failed" in warned[1].getMessage()  # the load's summary


def test_langchain_loader_keeps_its_conventions_on_the_core_walk(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    from langchain_docread import DocReadLoader

    data = _folder(tmp_path)
    with caplog.at_level(logging.DEBUG):
        docs = DocReadLoader(data, glob="**/*").load()
    record, summary = [r for r in caplog.records if r.levelno >= logging.WARNING]  # the core's
    assert record.name == "docread" and "broken.ipynb" in record.getMessage()
    assert summary.name == "docread" and "1 of 3 file(s) failed" in summary.getMessage()
    assert [d.metadata["source"] for d in docs] == [str(data / "a.txt"), str(data / "sub/b.md")]


# -- the one default-workspace rule ----------------------------------------------------------
def test_loader_workspace_is_cwd_when_every_path_is_inside_it_else_root(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    inside, outside = tmp_path / "cwd", tmp_path / "elsewhere"
    inside.mkdir()
    outside.mkdir()
    monkeypatch.chdir(inside)
    assert loader_workspace(["a.txt", "sub"]) == (inside.resolve(), ["a.txt", "sub"])
    assert loader_workspace(Path("a.txt"), workspace=outside) == (outside, ["a.txt"])
    assert loader_workspace(["a.txt", "../elsewhere/b.txt"]) == (
        "/",
        [str(inside / "a.txt"), str(outside / "b.txt")],
    )


def test_module_level_loader_reads_a_path_outside_the_cwd_by_that_rule(tmp_path: Path) -> None:
    assert not tmp_path.is_relative_to(Path.cwd())
    (tmp_path / "far.txt").write_text("far away\n")
    [doc] = docread.iter_documents(tmp_path / "far.txt", config=NO_CACHE)
    assert doc.text == "far away" and doc.metadata["source"] == str(tmp_path / "far.txt")


# -- the global deadline in the host-side walk -----------------------------------------------
def test_walking_a_big_tree_stops_at_the_global_timeout(tmp_path: Path) -> None:
    tree = tmp_path / "tree"
    for i in range(300):
        (tree / f"d{i % 10}").mkdir(parents=True, exist_ok=True)
        (tree / f"d{i % 10}" / f"f{i}.txt").write_text("x")
    config = {**NO_CACHE, "global_timeout": 1e-6}
    with docread.Reader(tmp_path, config) as reader:
        with pytest.raises(docread.ExtractionTimeoutError, match=r"tree: listing .* of 1e-06 s"):
            list(reader.walk("tree"))
        failed: list[str] = []
        assert list(reader.iter_units("tree", on_error=lambda p, e: failed.append(p))) == []
        assert failed == ["tree"]
    with docread.Reader(tmp_path, {**NO_CACHE, "global_timeout": 30}) as reader:
        assert len(list(reader.walk("tree"))) == 300


def test_the_callers_time_between_files_does_not_count(tmp_path: Path) -> None:
    for i in range(4):
        (tmp_path / f"f{i}.txt").write_text("x")
    with docread.Reader(tmp_path, {**NO_CACHE, "global_timeout": 0.2}) as reader:
        seen = []
        for path in reader.walk("."):
            time.sleep(0.1)  # 0.4 s spent by the caller, over the 0.2 s limit
            seen.append(path)
    assert seen == ["f0.txt", "f1.txt", "f2.txt", "f3.txt"]


# -- dedupe only when asked ------------------------------------------------------------------
def test_the_core_read_does_not_dedupe_unless_asked(tmp_path: Path) -> None:
    (tmp_path / "n.txt").write_text("same words\n")
    with docread.Reader(tmp_path, NO_CACHE) as reader:
        assert [reader.read("n.txt").text for _ in range(2)] == ["same words", "same words"]
        reader.read("n.txt", dedupe=True)
        assert reader.read("n.txt", dedupe=True).documents[0].metadata["format"] == "unchanged"


# -- the encoding, detected once -------------------------------------------------------------
ENCODED = {
    "notes.txt": "crème brûlée, déjà vu\n".encode("cp1252"),
    "table.csv": "name,dish\nAnaïs,crème\n".encode("utf-16"),
    "rows.jsonl": '{"dish": "crème"}\n'.encode("utf-8-sig"),
    "items.json": '[{"dish": "crème"}]'.encode("cp1252"),
    "nb.ipynb": json.dumps(
        {"cells": [{"cell_type": "markdown", "source": "crème"}], "nbformat": 4}, ensure_ascii=False
    ).encode("cp1252"),
}


@pytest.mark.parametrize("name", sorted(ENCODED))
def test_the_detected_encoding_decodes_every_text_reader(name: str, tmp_path: Path) -> None:
    (tmp_path / name).write_bytes(ENCODED[name])
    with docread.Reader(tmp_path, IN_PROCESS) as reader:
        read = reader.read(name)
        loaded = list(reader.iter_documents(name))
    assert read.file.encoding == detect.detect_encoding(ENCODED[name])
    assert "crème" in read.text and any("crème" in d.text for d in loaded)


@pytest.mark.parametrize("name", sorted(ENCODED))
def test_readers_decode_with_what_detection_said_once(
    name: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / name).write_bytes(
        ENCODED[name].decode(detect.detect_encoding(ENCODED[name])).encode()
    )
    calls: list[bytes] = []
    monkeypatch.setattr(detect, "detect_encoding", lambda head: calls.append(head) or "latin-1")
    with docread.Reader(tmp_path, IN_PROCESS) as reader:
        read = reader.read(name)
        loaded = list(reader.iter_documents(name))
    # UTF-8 bytes decoded as detection (here, wrongly) said: no reader guessed for itself
    assert "crÃ¨me" in read.text and any("crÃ¨me" in d.text for d in loaded)
    assert len(calls) == 2  # once per read, in detection


def test_binary_formats_have_no_encoding(tmp_path: Path) -> None:
    (tmp_path / "a.zip").write_bytes(b"PK\x05\x06" + bytes(18))
    info = detect.detect(Source.from_path(tmp_path / "a.zip"))
    assert info.format == "zip" and info.encoding is None


# -- third-party formats ---------------------------------------------------------------------
class FancyExtractor(Extractor):
    """The toy third-party reader: the text upper-cased, and the process that read it."""

    name: ClassVar[str] = "fancy"
    isolated: ClassVar[bool] = True

    def extract(self, source: Source, ctx: Context) -> Iterator[Unit]:
        text = source.read_bytes().decode(ctx.info.encoding or "ascii").upper()
        yield Document(text, {"pid": os.getpid()})


FANCY = formats.Format(
    "fancy", "text", "text/x-fancy", (".fancy",),
    extractor=f"{__name__}:FancyExtractor", textual=True,
)  # fmt: skip


@pytest.fixture
def registry(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """Whatever a test registers is gone afterwards (the table is process-wide)."""
    for name in ("_ordered", "_by_ext", "_plugins"):
        monkeypatch.setattr(formats, name, getattr(formats, name))
    monkeypatch.setattr(formats, "_ext_owner", dict(formats._ext_owner))
    keys = set(formats.BY_KEY)
    yield
    for key in set(formats.BY_KEY) - keys:
        del formats.BY_KEY[key]


@pytest.mark.parametrize("isolated", [True, False])
def test_a_registered_format_is_read_like_a_built_in(
    registry: None, isolated: bool, tmp_path: Path
) -> None:
    formats.register(FANCY)
    (tmp_path / "hello.fancy").write_text("déjà fancy\n", encoding="utf-16")
    config = {**NO_CACHE, "isolation": {"enabled": isolated}}
    result = docread.read("hello.fancy", workspace=tmp_path, config=config)
    [doc] = docread.iter_documents("hello.fancy", workspace=tmp_path, config=config)
    assert result.file.format == "fancy" and result.file.encoding == "utf-16"
    assert result.text == doc.text == "DÉJÀ FANCY\n"
    assert (doc.metadata["pid"] != os.getpid()) is isolated  # a worker imported it by its path
    assert formats.by_extension("X.FANCY") is FANCY and ".fancy" in formats.extensions()
    assert formats.lookup_hint("text/x-fancy") is FANCY


def test_register_refuses_clashes_unless_replace(registry: None) -> None:
    formats.register(FANCY)
    with pytest.raises(docread.InvalidOptionError, match="'fancy'.*replace=True"):
        formats.register(FANCY)
    taker = formats.Format("md2", "text", "text/markdown", (".md",), extractor="x:Y")
    with pytest.raises(docread.InvalidOptionError, match=r"\.md.*text"):
        formats.register(taker)
    with pytest.raises(docread.InvalidOptionError, match="lower case"):
        formats.register(formats.Format("up", "text", "text/x-up", (".UP",), extractor="x:Y"))
    with pytest.raises(docread.InvalidOptionError, match="category='misc' is not one of"):
        formats.register(formats.Format("m", "misc", "text/x-m", (".m1",), extractor="x:Y"))
    moved = formats.Format("fancy", "text", "text/x-fancy", (".fancier",), extractor="x:Y")
    formats.register(moved, replace=True)
    assert formats.BY_KEY["fancy"] is moved and formats.by_extension("a.fancier") is moved
    assert formats.by_extension("a.fancy") is None


PLUGIN = """
from docread.formats import Format
from docread.model import Document
from docread.extractors.base import Extractor


class Shout(Extractor):
    name = "shout"

    def extract(self, source, ctx):
        yield Document(source.read_bytes().decode(ctx.info.encoding).upper())


def formats():
    return [Format("shout", "text", "text/x-shout", (".shout",),
                   extractor="fancy_plugin:Shout", textual=True)]


GREEDY = Format("greedy", "text", "text/plain", (".txt",), extractor="fancy_plugin:Shout")
"""


def test_an_installed_plugin_is_found_through_its_entry_point(
    registry: None,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    caplog: pytest.LogCaptureFixture,
) -> None:
    site = tmp_path / "site"
    info = site / "fancy_plugin-0.1.dist-info"
    info.mkdir(parents=True)
    (site / "fancy_plugin.py").write_text(PLUGIN)
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: fancy_plugin\nVersion: 0.1\n")
    (info / "entry_points.txt").write_text(
        "[docread.extractors]\nshout = fancy_plugin:formats\ngreedy = fancy_plugin:GREEDY\n"
    )
    monkeypatch.syspath_prepend(str(site))
    monkeypatch.setattr(formats, "_plugins", "unloaded")  # as in a fresh process
    monkeypatch.delitem(sys.modules, "fancy_plugin", raising=False)
    (tmp_path / "loud.shout").write_text("quiet words\n")
    assert formats.by_extension("a.txt") is formats.BY_KEY["text"]
    assert formats._plugins == "unloaded"  # what the built-ins answer never scans the packages
    with caplog.at_level(logging.WARNING, logger="docread"):
        [doc] = docread.iter_documents("loud.shout", workspace=tmp_path, config=NO_CACHE)
    assert doc.text == "QUIET WORDS\n" and doc.metadata["format"] == "shout"
    assert formats.BY_KEY["shout"].extractor == "fancy_plugin:Shout"
    # a plugin adds formats; one claiming a built-in extension is logged and skipped
    [record] = _docread_records(caplog)
    assert "greedy = fancy_plugin:GREEDY" in record.getMessage() and ".txt" in record.getMessage()
    assert (
        formats.by_extension("a.txt") is formats.BY_KEY["text"] and "greedy" not in formats.BY_KEY
    )


def test_a_broken_plugin_is_logged_and_skipped(
    registry: None,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    caplog: pytest.LogCaptureFixture,
) -> None:
    info = tmp_path / "broken_plugin-0.1.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: broken_plugin\nVersion: 0.1\n")
    (info / "entry_points.txt").write_text("[docread.extractors]\nbad = no_such_module:formats\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.setattr(formats, "_plugins", "unloaded")
    with caplog.at_level(logging.WARNING, logger="docread"):
        assert formats.load_plugins()
    [record] = _docread_records(caplog)
    assert "bad = no_such_module:formats" in record.getMessage()
