"""Shared fixtures: a workspace in tmp_path, and the conformance corpus from ../shared when present."""

from __future__ import annotations

import csv
import json
import os
from pathlib import Path

import docread
import pytest

CORPUS = Path(
    os.environ.get(
        "DOCREAD_CORPUS", Path(__file__).resolve().parents[1].parent / "shared" / "corpus"
    )
)


@pytest.fixture(autouse=True)
def _private_home(
    tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch
) -> None:
    """No test writes into the real ~/.cache/docread (the default cache directory), and no
    settings file from the environment leaks in."""
    monkeypatch.setenv("HOME", str(tmp_path_factory.mktemp("home")))
    monkeypatch.delenv("DOCREAD_CONFIG", raising=False)


@pytest.fixture
def reader(tmp_path: Path) -> docread.Reader:
    """A Reader whose workspace is this test's tmp_path (cache off: tests see real extraction)."""
    with docread.Reader(tmp_path, config={"cache": {"enabled": False}}) as r:
        yield r


def corpus_rows(*folders: str) -> list[dict[str, object]]:
    """MANIFEST.tsv rows under the given corpus folders, with ``must_include`` parsed; [] if absent."""
    manifest = CORPUS / "MANIFEST.tsv"
    if not manifest.is_file():
        return []
    with manifest.open(encoding="utf-8", newline="") as f:
        rows = list(csv.DictReader(f, delimiter="\t"))
    out = []
    for row in rows:
        if row["file"].split("/", 1)[0] in folders:
            row["must_include"] = json.loads(row.get("must_include_json") or "[]")
            out.append(row)
    return out


def corpus_params(*folders: str) -> list[object]:
    """pytest params (one per corpus file, id = its path); a single skip when the corpus is absent."""
    rows = corpus_rows(*folders)
    if not rows:
        return [
            pytest.param(None, marks=pytest.mark.skip(reason=f"corpus not present at {CORPUS}"))
        ]
    return [pytest.param(row, id=str(row["file"])) for row in rows]


def normalize(text: str) -> str:
    """Lower-cased, whitespace collapsed: how MANIFEST must-include strings are compared."""
    return " ".join(text.lower().split())
