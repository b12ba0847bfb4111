"""One OCR per picture: a scanned page read by the agent view, then by a loader, runs Tesseract
once (real runs counted by a ``tesseract`` on PATH that logs each call and runs the real one),
with the same text; with the cache off, every read runs it."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import docread
import pytest
from factories import pdf, scan_page

TESSERACT = shutil.which("tesseract")
pytestmark = pytest.mark.skipif(TESSERACT is None, reason="tesseract is not installed")


@pytest.fixture
def ocr_runs(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A logging ``tesseract`` first on PATH (for worker processes started after this); the
    log file gets one line per call, its arguments."""
    log, shim = tmp_path / "tesseract.log", tmp_path / "bin" / "tesseract"
    shim.parent.mkdir()
    shim.write_text(f'#!/bin/sh\necho "$*" >> "{log}"\nexec "{TESSERACT}" "$@"\n')
    shim.chmod(0o755)
    monkeypatch.setenv("PATH", f"{shim.parent}{os.pathsep}{os.environ['PATH']}")
    log.touch()
    return log


def readings(log: Path) -> int:
    """Tesseract runs that read an image (not --version / --list-langs)."""
    return sum(1 for line in log.read_text().splitlines() if line.startswith("stdin"))


@pytest.mark.parametrize("enabled", [True, False], ids=["cache", "no-cache"])
def test_a_scanned_page_viewed_then_loaded_is_ocrd_once(tmp_path, ocr_runs, enabled):
    ws = tmp_path / "ws"
    ws.mkdir()
    pdf(
        ws / "scan.pdf", [scan_page("Quarterly revenue grew strongly\nwhile costs remained stable")]
    )
    config = {
        "cache": {"enabled": enabled, "directory": str(tmp_path / "cache")},
        "isolation": {"workers": 1}, "pdf": {"ocr_dpi": 150},
    }  # fmt: skip
    with docread.Reader(ws, config=config) as reader:  # its own worker, started with PATH above
        viewed = reader.read("scan.pdf").documents[0]
        assert readings(ocr_runs) == 1
        (loaded,) = reader.iter_units(["scan.pdf"])
    assert viewed.metadata["ocr"] is True and "quarterly revenue" in viewed.text.lower()
    # the same reading: the view keeps Tesseract's lines, the loader joins a paragraph's lines
    assert viewed.text.split() == loaded.text.split() and "\n" in viewed.text.strip()
    assert loaded.metadata["ocr_confidence"] == viewed.metadata["ocr_confidence"]
    assert readings(ocr_runs) == (1 if enabled else 2)


def test_a_cached_scan_is_not_rendered_again(tmp_path: Path) -> None:
    """The OCR cache keys a PDF page by the file's content, the page and its render settings:
    once a scan is read, the agent view, a loader, a split read and a new Reader find its
    pages' readings without rendering them (``renders``: this process's renders for OCR); a
    changed file, another dpi or another content cap (a page over it is rendered cut) is
    rendered and read anew."""
    from docread.extractors.ocr import renders

    ws = tmp_path / "ws"
    ws.mkdir()
    lines = ["Quarterly revenue grew strongly", "Shipping costs remained stable"]
    pdf(ws / "scan.pdf", [scan_page(line) for line in lines])
    config = {
        "cache": {"directory": str(tmp_path / "cache")}, "isolation": {"enabled": False},
        "pdf": {"ocr_dpi": 150},  # the scan's own resolution: a fourth of 300's pixels to read
    }  # fmt: skip
    start = renders()
    with docread.Reader(ws, config=config) as reader:
        viewed = reader.read("scan.pdf").documents
        assert renders() - start == 2
        loaded = list(reader.iter_units(["scan.pdf"]))
        second = reader.read("scan.pdf", pages="2").documents
    with docread.Reader(ws, config=config) as reader:
        again = reader.read("scan.pdf", pages="1-2", output_format="markdown").documents
    assert renders() - start == 2
    assert "quarterly revenue" in viewed[0].text.lower()
    assert [d.text for d in second] == [viewed[1].text] and "shipping" in second[0].text.lower()
    assert [u.text.split() for u in loaded] == [d.text.split() for d in viewed]
    assert [u.metadata["ocr"] for u in loaded] == [True, True]
    assert [d.text.split() for d in again] == [d.text.split() for d in viewed]
    pdf(ws / "scan.pdf", [scan_page(lines[1])])  # another file at the same path
    with docread.Reader(ws, config=config) as reader:
        changed = reader.read("scan.pdf").documents
        assert renders() - start == 3
    finer = {**config, "pdf": {"ocr_dpi": 200}}
    with docread.Reader(ws, config=finer) as reader:
        assert "shipping" in reader.read("scan.pdf").documents[0].text.lower()
    assert renders() - start == 4 and "shipping" in changed[0].text.lower()
    capped = {**config, "pdf": {"ocr_dpi": 150, "max_page_content": 2_000_000}}  # cut: rendered
    with docread.Reader(ws, config=capped) as reader:
        assert "shipping" in reader.read("scan.pdf").documents[0].text.lower()
    assert renders() - start == 5


def test_a_scan_inside_an_archive_is_rendered_once(tmp_path: Path) -> None:
    """A member's bytes are its stamp (archive members have no result-cache entry of their own):
    a second load of the archive finds the member's reading without rendering its page."""
    import zipfile

    from docread.extractors.ocr import renders
    from factories import pdf_bytes

    ws = tmp_path / "ws"
    ws.mkdir()
    with zipfile.ZipFile(ws / "scans.zip", "w") as archive:
        archive.writestr("scan.pdf", pdf_bytes([scan_page("Invoice number 4711 is paid")]))
    config = {"cache": {"directory": str(tmp_path / "cache")}, "isolation": {"enabled": False}}
    start = renders()
    texts = []
    for _ in range(2):
        with docread.Reader(ws, config=config) as reader:
            texts.append([d.text for d in reader.iter_documents(["scans.zip"])])
        assert renders() - start == 1
    assert texts[0] == texts[1] and "4711" in " ".join(texts[0])
