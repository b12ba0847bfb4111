"""Read dedup: a Reader asked to dedupe (as agent tools do) does not resend a file it already
returned unchanged with the same options; by default the core API always reads."""

from __future__ import annotations

import os
from pathlib import Path

import docread
from conftest import NO_CACHE
from docread.cache.readlog import UNCHANGED, ReadLog


def _write(tmp_path: Path, text: str = "first line\nsecond line\n") -> str:
    (tmp_path / "notes.txt").write_text(text)
    return "notes.txt"


def _touch(path: Path) -> None:
    st = os.stat(path)
    os.utime(path, ns=(st.st_atime_ns, st.st_mtime_ns + 1_000_000))


def test_second_identical_read_returns_the_stub(reader: docread.Reader, tmp_path: Path) -> None:
    name = _write(tmp_path)
    first = reader.read(name, dedupe=True)
    second = reader.read(name, dedupe=True)
    assert "second line" in first.text
    assert second.text == UNCHANGED
    assert second.render().strip() == UNCHANGED
    assert second.documents[0].metadata["source"] == name
    assert second.file.name == "notes.txt"


def test_other_options_or_dedupe_false_read_again(reader: docread.Reader, tmp_path: Path) -> None:
    name = _write(tmp_path)
    reader.read(name, dedupe=True)
    assert "second line" in reader.read(name, offset=2, dedupe=True).text
    assert "first line" in reader.read(name, dedupe=False).text
    assert reader.read(name, dedupe=True).text == UNCHANGED


def test_changed_file_is_read_again_then_deduped(reader: docread.Reader, tmp_path: Path) -> None:
    name = _write(tmp_path)
    reader.read(name, dedupe=True)
    _write(tmp_path, "rewritten\n")
    _touch(tmp_path / name)
    assert "rewritten" in reader.read(name, dedupe=True).text
    assert reader.read(name, dedupe=True).text == UNCHANGED
    _touch(tmp_path / name)  # same bytes, new mtime: the agent may want to see it again
    assert "rewritten" in reader.read(name, dedupe=True).text


def test_same_file_by_another_path_is_deduped(reader: docread.Reader, tmp_path: Path) -> None:
    name = _write(tmp_path)
    reader.read(name, dedupe=True)
    assert reader.read(str(tmp_path / name), dedupe=True).text == UNCHANGED


def test_loaders_module_level_and_default_reads_never_dedupe(
    reader: docread.Reader, tmp_path: Path
) -> None:
    name = _write(tmp_path)
    reader.read(name, dedupe=True)
    assert "first line" in reader.read(name).text  # the library API reads unless asked to dedupe
    assert "first line" in "".join(d.text for d in reader.iter_documents(name))
    config = {"cache": {"enabled": False}}
    for _ in range(2):
        assert "first line" in docread.read(name, workspace=tmp_path, config=config).text


def test_forget_resets(reader: docread.Reader, tmp_path: Path) -> None:
    name = _write(tmp_path)
    reader.read(name, dedupe=True)
    reader.forget()
    assert "first line" in reader.read(name, dedupe=True).text


def test_read_log_is_bounded() -> None:
    log = ReadLog(max_entries=2)
    for i in range(3):
        log.remember((f"f{i}", ""), (1, 1))
    assert not log.unchanged(("f0", ""), (1, 1))
    assert log.unchanged(("f2", ""), (1, 1))
    assert not log.unchanged(("f2", ""), (2, 1))


def test_archive_extraction_is_never_deduped(reader: docread.Reader, tmp_path: Path) -> None:
    import zipfile

    with zipfile.ZipFile(tmp_path / "a.zip", "w") as z:
        z.writestr("a.txt", "member\n")
    reader.read("a.zip", mode="extract", archive_path="a.txt", dedupe=True)
    assert reader.read("a.zip", mode="extract", archive_path="a.txt", dedupe=True).text != UNCHANGED
    reader.read("a.zip", dedupe=True)
    assert reader.read("a.zip", dedupe=True).text == UNCHANGED  # the listing is a pure read


# -- dedupe only when asked ------------------------------------------------------------------------
def test_the_core_read_does_not_dedupe_unless_asked(tmp_path: Path) -> None:
    (tmp_path / "n.txt").write_text("same words\n")
    with docread.Reader(tmp_path, NO_CACHE) as reader:
        assert [reader.read("n.txt").text for _ in range(2)] == ["same words", "same words"]
        reader.read("n.txt", dedupe=True)
        assert reader.read("n.txt", dedupe=True).documents[0].metadata["format"] == "unchanged"
