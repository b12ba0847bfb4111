"""The workspace sandbox: nothing outside the root is read, and nothing that could hang is opened."""

from __future__ import annotations

import os
import time
from pathlib import Path

import docread
import pytest
from docread import DocumentNotFoundError, PathSecurityError


@pytest.fixture
def ws(tmp_path: Path) -> Path:
    root = tmp_path / "ws"
    root.mkdir()
    (root / "notes.txt").write_text("inside\n")
    (tmp_path / "secret.txt").write_text("TOP-SECRET\n")
    return root


@pytest.mark.parametrize("path", ["../secret.txt", "../../etc/passwd", "sub/../../secret.txt"])
def test_traversal_is_refused(ws: Path, path: str) -> None:
    with pytest.raises(PathSecurityError, match="outside the workspace") as info:
        docread.read(path, workspace=ws)
    assert "TOP-SECRET" not in str(info.value)


def test_absolute_path_outside_is_refused(ws: Path) -> None:
    with pytest.raises(PathSecurityError, match="outside the workspace"):
        docread.read(str(ws.parent / "secret.txt"), workspace=ws)
    with pytest.raises(PathSecurityError):
        docread.read("/etc/passwd", workspace=ws)


def test_symlink_pointing_out_is_refused(ws: Path) -> None:
    (ws / "link.txt").symlink_to(ws.parent / "secret.txt")
    with pytest.raises(PathSecurityError, match="symbolic link"):
        docread.read("link.txt", workspace=ws)


def test_symlink_inside_is_followed(ws: Path) -> None:
    (ws / "alias.txt").symlink_to(ws / "notes.txt")
    assert docread.read("alias.txt", workspace=ws).text == "inside"


def test_absolute_paths_inside_and_the_workspace_alias_work(ws: Path) -> None:
    assert docread.read(str(ws / "notes.txt"), workspace=ws).text == "inside"
    assert docread.read("/workspace/notes.txt", workspace=ws).text == "inside"
    with pytest.raises(PathSecurityError):
        docread.read("/workspace/../secret.txt", workspace=ws)


def test_missing_file_is_a_clear_not_found(ws: Path) -> None:
    with pytest.raises(DocumentNotFoundError, match="nope.txt: no such file") as info:
        docread.read("nope.txt", workspace=ws)
    assert isinstance(info.value, FileNotFoundError)


@pytest.mark.parametrize("device", ["/dev/zero", "/dev/random", "/dev/urandom", "/dev/null"])
def test_device_files_are_refused_fast(device: str) -> None:
    start = time.monotonic()
    with pytest.raises(PathSecurityError, match="device"):
        docread.read(device, workspace="/")
    assert time.monotonic() - start < 1.0


def test_stdin_fd_path_is_refused_fast() -> None:
    read_fd, write_fd = os.pipe()
    try:
        start = time.monotonic()
        with pytest.raises(PathSecurityError):
            docread.read(f"/proc/self/fd/{read_fd}", workspace="/")
        assert time.monotonic() - start < 1.0
    finally:
        os.close(read_fd)
        os.close(write_fd)


def test_fifo_is_refused_without_hanging(ws: Path) -> None:
    os.mkfifo(ws / "pipe")
    start = time.monotonic()
    with pytest.raises(PathSecurityError, match="FIFO"):
        docread.read("pipe", workspace=ws)
    assert time.monotonic() - start < 1.0


def test_fifo_inside_a_directory_walk_is_reported_not_hung(ws: Path) -> None:
    os.mkfifo(ws / "pipe")
    errors: list[tuple[str, Exception]] = []
    with docread.Reader(ws) as reader:
        docs = list(reader.iter_documents(".", on_error=lambda p, e: errors.append((p, e))))
    assert [d.text for d in docs] == ["inside"]
    assert [p for p, _ in errors] == ["pipe"] and isinstance(errors[0][1], PathSecurityError)
