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
