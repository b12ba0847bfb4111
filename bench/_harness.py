"""Shared bench plumbing: each case runs in a fresh process (so peak RSS is per case) and the
best of a few runs is kept."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

#: The shared corpus, as tests/conftest.py finds it: ``$DOCREAD_CORPUS``, else ``../shared/corpus``
#: beside the repository.
CORPUS = Path(
    os.environ.get("DOCREAD_CORPUS", Path(__file__).resolve().parents[2] / "shared" / "corpus")
)


def best_of(script: str, *args: str, runs: int = 3, key: str = "seconds") -> dict[str, Any]:
    """Run ``python script *args`` ``runs`` times; each prints one JSON line last; keep the fastest."""
    best: dict[str, Any] | None = None
    for _ in range(runs):
        out = subprocess.run(
            [sys.executable, script, *args], capture_output=True, text=True, check=True
        )
        run = json.loads(out.stdout.strip().splitlines()[-1])
        if best is None or run[key] < best[key]:
            best = run
    assert best is not None
    return best


def text_pdf(path: Path, pages: int, body: str) -> Path:
    """A text PDF with ``Page N`` and ``body`` on every page (PyMuPDF), made once."""
    if path.exists():
        return path
    import pymupdf

    path.parent.mkdir(parents=True, exist_ok=True)
    doc = pymupdf.open()
    for n in range(1, pages + 1):
        doc.new_page().insert_text((72, 72), f"Page {n}\n{body}")
    doc.save(path)
    doc.close()
    return path
