"""A load's rules (``iter_units`` and the loaders on it): files and folders shown as given,
the one failure rule and each error logged once where it is handled, the one default-workspace
rule, and the global deadline of the host-side walk."""

from __future__ import annotations

import logging
import time
import zipfile
from pathlib import Path

import docread
import pytest
from conftest import IN_PROCESS, NO_CACHE, docread_warnings
from docread.reader import loader_workspace
from factories import folder_with_broken_notebook


# -- paths, walk, errors ---------------------------------------------------------------------------
def test_iter_units_takes_files_and_folders_and_shows_them_as_given(tmp_path: Path) -> None:
    folder_with_broken_notebook(tmp_path)
    (tmp_path / "top.txt").write_text("top\n")
    with docread.Reader(tmp_path, NO_CACHE) as reader:
        docs = list(reader.iter_documents(["top.txt", "data"], on_error=lambda p, e: None))
        flat = list(reader.iter_documents("data", recursive=False, on_error=lambda p, e: None))
        md = list(reader.iter_documents(Path("data"), pattern="**/*.md"))
    assert [d.metadata["source"] for d in docs] == ["top.txt", "data/a.txt", "data/sub/b.md"]
    assert [d.metadata["source"] for d in flat] == ["data/a.txt"]
    assert [d.metadata["source"] for d in md] == ["data/sub/b.md"]


def test_on_error_gets_named_and_found_failures_and_the_load_goes_on(tmp_path: Path) -> None:
    folder_with_broken_notebook(tmp_path)
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
    folder_with_broken_notebook(tmp_path)
    with (
        caplog.at_level(logging.DEBUG, logger="docread"),
        docread.Reader(tmp_path, NO_CACHE) as reader,
        pytest.raises(docread.ExtractionError, match="broken.ipynb"),
    ):
        list(reader.iter_documents(["data/a.txt", "data/broken.ipynb"]))
    assert docread_warnings(caplog) == []  # raised to the caller: the caller's to log


def test_a_failing_file_in_a_folder_load_is_logged_exactly_once(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    folder_with_broken_notebook(tmp_path)
    with caplog.at_level(logging.DEBUG, logger="docread"):
        docs = list(docread.iter_documents("data", workspace=tmp_path, config=NO_CACHE))
    assert [d.metadata["source"] for d in docs] == ["data/a.txt", "data/sub/b.md"]
    record, summary = docread_warnings(caplog)  # the file's warning, the load's summary
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
    [record] = docread_warnings(caplog)  # the loader's note; the member's error is not logged
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
    assert docread_warnings(caplog) == []


# -- the one default-workspace rule ----------------------------------------------------------------
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


# -- the global deadline in the host-side walk -----------------------------------------------------
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
