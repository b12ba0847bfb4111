"""Directories: the agent view lists; loader mode walks recursively and survives bad files."""

from __future__ import annotations

from pathlib import Path

import docread


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
