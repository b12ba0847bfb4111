"""Sandbox attacks (issue 15, items 1-3): upload names that point the temp copy out of its folder,
a parent folder swapped for a link out while a read runs (TOCTOU), and a hard link to an outside
file. Each test reproduces the attack and fails without its fix."""

from __future__ import annotations

import ctypes
import ctypes.util
import json
import os
import subprocess
import sys
import threading
import time
from pathlib import Path

import docread
import docread.pipeline as pipeline_module
import pymupdf
import pytest
from docread import PathSecurityError, ReadDocumentError
from docread.source import Source, safe_name

pytestmark = pytest.mark.timeout(120)
FAST = {"cache": {"enabled": False}}
SECRET = "OUTSIDE-SECRET"


def pdf_bytes(text: str) -> bytes:
    doc = pymupdf.open()
    doc.new_page().insert_text((72, 72), text)
    return doc.tobytes()


# -- 1. upload names --------------------------------------------------------------------------
NAMES = ["..", "x/..", "report.pdf/..", ".", "", "a/", "/etc/passwd", "/..", "nul\x00.pdf",
         "a\\..", "é" * 300 + ".pdf", "x" * 5000]  # fmt: skip

HOST_CHECK = r"""
import json, sys
import docread
data = open(sys.argv[1], "rb").read()
names = json.loads(sys.argv[2])
out = []
with docread.Reader(sys.argv[3], config={"cache": {"enabled": False}}) as reader:
    for name in names:
        texts = [u.text for u in reader.iter_bytes(data, name) if isinstance(u, docread.Document)]
        out.append({"name": name, "text": " ".join(texts),
                    "host_pdf": "fitz" in sys.modules or "pymupdf" in sys.modules})
print(json.dumps(out))
"""


def _run_host(tmp_path: Path, code: str, *args: str) -> object:
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)}
    out = subprocess.run(
        [sys.executable, "-c", code, *args], capture_output=True, text=True, env=env,
        timeout=90, cwd=tmp_path,
    )  # fmt: skip
    assert out.returncode == 0, out.stderr[-3000:]
    return json.loads(out.stdout)


def test_upload_names_never_run_the_pdf_reader_in_the_host(tmp_path: Path) -> None:
    """``iter_bytes(pdf, "..")`` used to find the temp folder's parent, skip the copy and run
    PyMuPDF inside the host; every name now reaches a worker with the bytes."""
    upload = tmp_path / "upload.bin"
    upload.write_bytes(pdf_bytes("hello from the upload"))
    results = _run_host(tmp_path, HOST_CHECK, str(upload), json.dumps(NAMES), str(tmp_path))
    for row in results:  # type: ignore[union-attr]
        assert "hello from the upload" in row["text"], row["name"]
        assert not row["host_pdf"], f"{row['name']!r}: PyMuPDF was imported in the host"


BLOB_CHECK = r"""
import json, sys
from langchain_core.document_loaders import Blob
from langchain_docread import DocReadParser
data = open(sys.argv[1], "rb").read()
docs = list(DocReadParser(config={"cache": {"enabled": False}}).lazy_parse(
    Blob.from_data(data, path="uploads/..")))
print(json.dumps({"text": " ".join(d.page_content for d in docs),
                  "host_pdf": "fitz" in sys.modules or "pymupdf" in sys.modules}))
"""


def test_langchain_blob_whose_path_ends_in_dot_dot_is_read_in_a_worker(tmp_path: Path) -> None:
    upload = tmp_path / "upload.bin"
    upload.write_bytes(pdf_bytes("blob text"))
    result = _run_host(tmp_path, BLOB_CHECK, str(upload))
    assert "blob text" in result["text"]  # type: ignore[index]
    assert not result["host_pdf"]  # type: ignore[index]


@pytest.mark.parametrize("name", NAMES)
def test_an_upload_copy_stays_in_its_private_folder(name: str) -> None:
    with Source.from_bytes(b"payload", name) as source:
        path = source.as_path()
        assert path.is_file() and path.read_bytes() == b"payload"
        assert path.parent.name.startswith("docread-")
        assert len(path.name.encode()) <= 255 and path.name not in ("", ".", "..")


@pytest.mark.parametrize(
    ("name", "expected"),
    [("..", "data"), ("x/..", "data"), ("a/", "a"), ("/etc/passwd", "passwd"), ("", "data"),
     ("nul\x00.pdf", "nul.pdf"), ("dir\\doc.txt", "doc.txt"), ("x" * 300 + ".pdf", "x" * 251 + ".pdf")],
)  # fmt: skip
def test_upload_names_become_one_safe_base_name(name: str, expected: str) -> None:
    assert safe_name(name) == expected


# -- 2. a parent folder swapped for a link out (TOCTOU) ---------------------------------------
RENAME_EXCHANGE = 2
AT_FDCWD = -100


def _renameat2() -> ctypes._CFuncPtr | None:  # type: ignore[name-defined]
    libc = ctypes.CDLL(ctypes.util.find_library("c"), use_errno=True)
    fn = getattr(libc, "renameat2", None)
    if fn is None:
        return None
    fn.argtypes = [ctypes.c_int, ctypes.c_char_p, ctypes.c_int, ctypes.c_char_p, ctypes.c_uint]
    a, b = os.fsencode("/tmp/docread-probe-none-a"), os.fsencode("/tmp/docread-probe-none-b")
    if fn(AT_FDCWD, a, AT_FDCWD, b, RENAME_EXCHANGE) != 0 and ctypes.get_errno() in (38, 22):
        return None  # ENOSYS / EINVAL: the kernel or filesystem has no RENAME_EXCHANGE
    return fn


class Swapper:
    """Swaps ``ws/d`` (a real folder) and ``ws/link`` (a symlink to an outside folder) as fast
    as it can, atomically (RENAME_EXCHANGE), until stopped."""

    def __init__(self, ws: Path) -> None:
        self.fn = _renameat2()
        if self.fn is None:
            pytest.skip("renameat2(RENAME_EXCHANGE) is not available on this system")
        self.a, self.b = os.fsencode(ws / "d"), os.fsencode(ws / "link")
        self.stop = threading.Event()
        self.swaps = 0
        self.thread = threading.Thread(target=self._run, daemon=True)

    def _run(self) -> None:
        while not self.stop.is_set():
            if self.fn(AT_FDCWD, self.a, AT_FDCWD, self.b, RENAME_EXCHANGE) == 0:
                self.swaps += 1

    def __enter__(self) -> Swapper:
        self.thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop.set()
        self.thread.join()


@pytest.fixture
def swapped(tmp_path: Path) -> Path:
    """ws/d/file.* inside, outside/file.* with the secret, ws/link -> outside."""
    ws, outside = tmp_path / "ws", tmp_path / "outside"
    (ws / "d").mkdir(parents=True)
    outside.mkdir()
    (ws / "d" / "file.txt").write_text("inside\n")
    (outside / "file.txt").write_text(f"{SECRET}\n")
    (outside / "outside-only.txt").write_text(f"{SECRET}\n")
    (ws / "d" / "file.pdf").write_bytes(pdf_bytes("inside"))
    (outside / "file.pdf").write_bytes(pdf_bytes(SECRET))
    (ws / "link").symlink_to(outside)
    return ws


def _race(read: object, seconds: float) -> tuple[int, int, list[str]]:
    """Call ``read()`` until ``seconds`` pass; (reads, typed errors, texts that leaked)."""
    reads = errors = 0
    leaks: list[str] = []
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        try:
            text = read()  # type: ignore[operator]
        except ReadDocumentError:
            errors += 1
        else:
            reads += 1
            if SECRET in text or "outside-only" in text:
                leaks.append(text)
    return reads, errors, leaks


@pytest.mark.parametrize("name", ["file.txt", "file.pdf"])  # read in the host, in a worker
def test_swapping_a_parent_folder_never_reads_the_outside_file(swapped: Path, name: str) -> None:
    with docread.Reader(swapped, config=FAST) as reader, Swapper(swapped) as swapper:
        reads, errors, leaks = _race(
            lambda: reader.read(f"d/{name}", dedupe=False).text, seconds=2.5
        )
    assert swapper.swaps > 100 and reads > 0, (swapper.swaps, reads, errors)
    assert leaks == [], f"{len(leaks)} of {reads} reads returned the outside file"


@pytest.mark.parametrize("pattern", [None, "**/*.txt"])
def test_swapping_a_parent_folder_never_lists_the_outside_folder(
    swapped: Path, pattern: str | None
) -> None:
    with docread.Reader(swapped, config=FAST) as reader, Swapper(swapped):
        _, _, leaks = _race(lambda: reader.read("d", pattern=pattern, dedupe=False).text, seconds=1)
    assert leaks == []


def test_swapping_a_parent_folder_in_loader_mode(swapped: Path) -> None:
    with docread.Reader(swapped, config=FAST) as reader, Swapper(swapped):
        _, _, leaks = _race(
            lambda: " ".join(d.text for d in reader.iter_documents("d/file.txt")), seconds=1
        )
    assert leaks == []


def _swap_in_link(ws: Path) -> None:
    """What the attacker does between the sandbox's check and the read: ``d`` becomes a link
    to the outside folder."""
    os.rename(ws / "d", ws / "d-moved")
    (ws / "d").symlink_to(ws / "link")


@pytest.mark.parametrize("name", ["file.txt", "file.pdf"])
def test_a_parent_swapped_after_the_check_is_not_followed(
    swapped: Path, name: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The same race, made certain: the swap lands after the workspace check, before any byte is
    read (the text in the host, the PDF in a worker). The file opened at the check is read."""
    real_detect = pipeline_module.detect

    def detect_after_a_swap(*args: object, **kwargs: object) -> object:
        if not (swapped / "d-moved").exists():
            _swap_in_link(swapped)
        return real_detect(*args, **kwargs)

    monkeypatch.setattr(pipeline_module, "detect", detect_after_a_swap)
    with docread.Reader(swapped, config=FAST) as reader:
        text = reader.read(f"d/{name}").text
    assert "inside" in text and SECRET not in text


@pytest.mark.parametrize("pattern", [None, "**/*.txt"])
def test_a_folder_swapped_after_the_check_is_listed_as_opened(
    swapped: Path, pattern: str | None, monkeypatch: pytest.MonkeyPatch
) -> None:
    real_info = pipeline_module.directory_info

    def info_after_a_swap(*args: object, **kwargs: object) -> object:
        _swap_in_link(swapped)
        return real_info(*args, **kwargs)

    monkeypatch.setattr(pipeline_module, "directory_info", info_after_a_swap)
    with docread.Reader(swapped, config=FAST) as reader:
        text = reader.read("d", pattern=pattern).text
    assert "file.txt" in text and "outside-only" not in text


def test_a_link_swapped_for_a_folder_mid_resolution_is_a_typed_outcome(
    swapped: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``os.path.realpath`` raised a raw OSError (EINVAL) when a link became a folder between
    its lstat and its readlink; now the walk looks again."""
    real_readlink = os.readlink

    def readlink_after_a_swap(path: object, *args: object, **kwargs: object) -> str:
        if (swapped / "link").is_symlink():
            (swapped / "link").unlink()
            (swapped / "d").rename(swapped / "link")
        return real_readlink(path, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(os, "readlink", readlink_after_a_swap)
    with docread.Reader(swapped, config=FAST) as reader:
        assert reader.read("link/file.txt").text == "inside"


def test_symlinks_inside_the_workspace_still_resolve(tmp_path: Path) -> None:
    ws = tmp_path / "ws"
    (ws / "real" / "deep").mkdir(parents=True)
    (ws / "real" / "deep" / "f.txt").write_text("deep text\n")
    (ws / "rel").symlink_to("real/deep")  # relative, a folder
    (ws / "abs").symlink_to(ws / "real")  # absolute, inside
    (ws / "real" / "up").symlink_to("../real/deep/f.txt")  # climbs, stays inside
    (ws / "chain").symlink_to("abs/up")  # a link to a link
    with docread.Reader(ws, config=FAST) as reader:
        for path in ("rel/f.txt", "abs/deep/f.txt", "real/up", "chain", "abs/../real/up"):
            assert reader.read(path, dedupe=False).text == "deep text", path
        real = ws / "real" / "deep" / "f.txt"
        assert reader.read("rel/f.txt", dedupe=False).file.path == str(real)
    (ws / "loop").symlink_to("loop")
    (ws / "escape").symlink_to("real/../../outside")
    with docread.Reader(ws, config=FAST) as reader:
        with pytest.raises(PathSecurityError, match="symbolic link"):
            reader.read("loop")
        with pytest.raises(PathSecurityError, match="outside the workspace"):
            reader.read("escape/x")


# -- 3. hard links ----------------------------------------------------------------------------
def test_hard_link_to_an_outside_file_is_refused(tmp_path: Path) -> None:
    ws = tmp_path / "ws"
    ws.mkdir()
    (tmp_path / "secret.txt").write_text(f"{SECRET}\n")
    os.link(tmp_path / "secret.txt", ws / "innocent.txt")
    with docread.Reader(ws, config=FAST) as reader:
        with pytest.raises(PathSecurityError, match="workspace.allow_hardlinks") as info:
            reader.read("innocent.txt")
        assert SECRET not in str(info.value)
        with pytest.raises(PathSecurityError, match="hard link"):
            list(reader.iter_documents("innocent.txt"))


def test_hard_links_are_read_when_the_setting_allows_them(tmp_path: Path) -> None:
    ws = tmp_path / "ws"
    ws.mkdir()
    (ws / "a.txt").write_text("shared\n")
    os.link(ws / "a.txt", ws / "b.txt")
    config = {**FAST, "workspace": {"allow_hardlinks": True}}
    with docread.Reader(ws, config=config) as reader:
        assert reader.read("b.txt").text == "shared"


def test_a_folder_swapped_during_extraction_never_carries_the_write_out(
    swapped: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """mode='extract' into ``d/out``: right after the folders are made and checked, ``d`` becomes
    a link to the outside folder. The member still lands in the real folder, never outside."""
    import zipfile

    from docread.extractors.archives.backend import Backend

    with zipfile.ZipFile(swapped / "a.zip", "w") as zf:
        zf.writestr("payload.txt", "extracted payload\n")
    real_vet = Backend.vet

    def vet_after_a_swap(self: Backend, *args: object) -> None:
        if not (swapped / "d-moved").exists():
            _swap_in_link(swapped)
        real_vet(self, *args)  # type: ignore[arg-type]

    monkeypatch.setattr(Backend, "vet", vet_after_a_swap)
    config = {**FAST, "isolation": {"enabled": False}, "archive": {"extraction_dir": "d/out"}}
    with docread.Reader(swapped, config=config) as reader:
        reader.read("a.zip", mode="extract", archive_path="payload.txt")
    outside = swapped.parent / "outside"
    assert sorted(p.name for p in outside.iterdir()) == ["file.pdf", "file.txt", "outside-only.txt"]
    written = list((swapped / "d-moved" / "out").rglob("payload.txt"))
    assert [p.read_text() for p in written] == ["extracted payload\n"]
