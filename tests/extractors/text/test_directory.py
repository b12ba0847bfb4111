"""Directories: the agent view lists; loader mode walks recursively and survives bad files."""

from __future__ import annotations

import json
import os
from pathlib import Path

import docread
import pytest


def _tree(root: Path) -> None:
    (root / "src" / "pkg").mkdir(parents=True)
    (root / "docs").mkdir()
    (root / "src" / "main.py").write_text("print('main')\n")
    (root / "src" / "pkg" / "util.py").write_text("def util():\n    return 1\n")
    (root / "docs" / "guide.md").write_text("# Guide\n")
    (root / "README.txt").write_text("read me\n")
    (root / "blob.bin").write_bytes(bytes(range(256)) * 8)


def test_listing_puts_directories_first_with_sizes(tmp_path: Path) -> None:
    _tree(tmp_path)
    result = docread.read(".", workspace=tmp_path)
    lines = result.documents[0].text.split("\n")
    assert lines[:2] == ["docs/", "src/"]
    assert lines[2].startswith("README.txt") and "8 B" in lines[2]
    assert lines[3].startswith("blob.bin") and "2.0 KB" in lines[3]
    assert result.header["Entries"] == "2 directories, 2 files"


def test_walk_with_pattern_reads_every_matching_file(tmp_path: Path) -> None:
    _tree(tmp_path)
    docs = list(docread.iter_documents(".", workspace=tmp_path, pattern="**/*.py"))
    assert sorted(d.metadata["source"] for d in docs) == ["src/main.py", "src/pkg/util.py"]
    assert any("def util" in d.text for d in docs)


def test_a_failing_file_is_reported_and_the_walk_goes_on(
    reader: docread.Reader, tmp_path: Path
) -> None:
    _tree(tmp_path)
    errors: list[tuple[str, str]] = []
    docs = list(
        reader.iter_documents(".", on_error=lambda p, e: errors.append((p, type(e).__name__)))
    )
    assert errors == [("blob.bin", "FormatNotSupportedError")]
    assert sorted(d.metadata["source"] for d in docs) == [
        "README.txt",
        "docs/guide.md",
        "src/main.py",
        "src/pkg/util.py",
    ]


def test_walk_one_level_when_not_recursive(reader: docread.Reader, tmp_path: Path) -> None:
    _tree(tmp_path)
    assert list(reader.walk(".", recursive=False)) == ["README.txt", "blob.bin"]
    assert list(reader.walk("src", pattern="*.py")) == ["src/main.py", "src/pkg/util.py"]


def test_identical_files_at_two_paths_get_distinct_ids(tmp_path: Path) -> None:
    (tmp_path / "a.txt").write_text("same\n")
    (tmp_path / "b.txt").write_text("same\n")
    ids = {d.metadata["source"]: d.id for d in docread.iter_documents(".", workspace=tmp_path)}
    assert ids["a.txt"] != ids["b.txt"]


def test_loader_notes_reach_the_caller(reader: docread.Reader, tmp_path: Path) -> None:
    (tmp_path / "empty.txt").write_bytes(b"")
    (tmp_path / "full.txt").write_text("text\n")
    notes: list[tuple[str, str]] = []
    docs = list(reader.iter_documents(".", on_note=lambda p, n: notes.append((p, n))))
    assert [d.metadata["source"] for d in docs] == ["full.txt"]
    assert notes == [("empty.txt", "The file exists but is empty (0 bytes).")]


def _not_utf8(root: Path, *names: bytes) -> list[str]:
    """Files whose names are these bytes (not valid UTF-8), each holding its own name's repr."""
    made = []
    for raw in names:
        name = os.fsdecode(raw)  # Python's form of such a name: a lone surrogate per bad byte
        (root / name).write_text(f"text of {raw!r}\n")
        made.append(name)
    return made


def test_a_name_that_is_not_utf8_is_listed_read_and_loaded(tmp_path: Path) -> None:
    """The listing shows every entry, the bad bytes as U+FFFD, with a note; the shown name, the
    real name (str or bytes) all read the file; the loader reads it with valid UTF-8 metadata."""
    folder = tmp_path / "dir"
    folder.mkdir()
    (folder / "good.txt").write_text("good\n")
    (real,) = _not_utf8(folder, b"bad\xff\xfename.txt")
    shown = "bad\ufffd\ufffdname.txt"
    listing = docread.read("dir", workspace=tmp_path)
    text = listing.render()
    assert [line.split()[0] for line in listing.text.splitlines()] == [shown, "good.txt"]
    assert "1 name is not valid UTF-8: shown with U+FFFD" in text
    text.encode("utf-8")  # the view is valid UTF-8
    for name in (f"dir/{shown}", f"dir/{real}", os.fsencode(f"dir/{real}")):
        result = docread.read(name, workspace=tmp_path)  # type: ignore[arg-type]
        assert result.text == "text of b'bad\\xff\\xfename.txt'"
        assert result.documents[0].metadata["source"] == f"dir/{shown}"
    docs = list(docread.iter_documents(folder, workspace=tmp_path))
    assert sorted(d.metadata["source"] for d in docs) == [f"dir/{shown}", "dir/good.txt"]
    bad = next(d for d in docs if d.metadata["file_name"] == shown)
    assert bad.metadata["file_path"] == str(folder / shown)  # U+FFFD too: docread reads it back
    json.dumps([dict(d.metadata) for d in docs], ensure_ascii=False).encode("utf-8")
    assert docread.read(bad.metadata["file_path"], workspace=tmp_path).text == result.text


def test_two_names_that_show_alike_are_refused_by_the_shown_name(tmp_path: Path) -> None:
    """bad\\xff.txt and bad\\xfe.txt both show as bad\ufffd.txt: never guessed, each read by its
    real name."""
    first, second = _not_utf8(tmp_path, b"bad\xff.txt", b"bad\xfe.txt")
    with pytest.raises(docread.PathSecurityError, match="2 names in its folder show as"):
        docread.read("bad\ufffd.txt", workspace=tmp_path)
    assert "xfe" in docread.read(second, workspace=tmp_path).text
    listing = docread.read(".", workspace=tmp_path)
    assert listing.text.count("bad\ufffd.txt") == 2
    assert "2 names are not valid UTF-8" in listing.render()


def test_the_agent_tool_and_the_cli_take_a_name_that_is_not_utf8(tmp_path: Path) -> None:
    """tool_read (LangChain, LlamaIndex, MCP) lists and reads it; ``docread load --jsonl`` writes
    valid UTF-8 JSON Lines for it."""
    from conftest import run_cli as cli
    from docread.integrations.tool_call import tool_read

    ws = tmp_path / "ws"
    ws.mkdir()
    _not_utf8(ws, b"bad\xff.txt")
    with docread.Reader(ws) as reader:
        listing = tool_read(reader, ".", {}, ["text"])
        read = tool_read(reader, "bad\ufffd.txt", {}, ["text"])
    assert not listing.is_error and "bad\ufffd.txt" in listing.parts[0].text
    assert not read.is_error and "text of b'bad\\xff.txt'" in read.parts[0].text
    done = cli("load", ".", "--jsonl", str(tmp_path / "out.jsonl"), cwd=ws)
    assert done.returncode == 0, done.stderr
    rows = [json.loads(line) for line in (tmp_path / "out.jsonl").read_bytes().splitlines()]
    assert [row["metadata"]["source"] for row in rows] == ["bad\ufffd.txt"]
