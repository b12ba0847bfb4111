"""Legacy Word 97 text beyond ASCII (issue 17, class 5): tests/data/multilingual.doc (German,
Greek, Russian, Japanese, Chinese paragraphs; made by tests/data/make_multilingual_doc.py with
LibreOffice) read through antiword's UTF-8 mapping, whatever the locale of the process."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import docread
import pytest
from conftest import NO_CACHE, MakeReader
from data.make_multilingual_doc import PHRASES  # the phrases it wrote, one paragraph each

DATA = Path(__file__).parents[2] / "data"


@pytest.fixture
def doc(tmp_path: Path) -> Path:
    return Path(shutil.copy(DATA / "multilingual.doc", tmp_path / "multilingual.doc"))


@pytest.mark.parametrize("script", PHRASES)
def test_every_script_is_read(reader: docread.Reader, doc: Path, script: str) -> None:
    loaded = "\n".join(d.text for d in reader.iter_documents([doc.name]))
    assert PHRASES[script] in loaded and PHRASES[script] in reader.read(doc.name).text


def test_every_script_is_read_under_the_c_locale(
    doc: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Under LANG=C antiword's default mapping turns every non-Latin letter into '?'; docread
    asks for its UTF-8 mapping, so nothing changes."""
    monkeypatch.setenv("LANG", "C")
    monkeypatch.setenv("LC_ALL", "C")
    default = subprocess.run(["antiword", "-w", "0", str(doc)], capture_output=True).stdout
    assert "東京".encode() not in default and b"?????" in default  # what the default gives
    # workers of its own, started with this locale (the shared ones started earlier)
    with docread.Reader(doc.parent, config=NO_CACHE) as reader:
        loaded = "\n".join(d.text for d in reader.iter_documents([doc.name]))
    for phrase in PHRASES.values():
        assert phrase in loaded


def test_antiword_runs_under_its_own_timeout(
    make_reader: MakeReader, doc: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``timeouts.antiword`` bounds antiword (it ran under pandoc's), and only antiword: an
    antiword on PATH that takes a second first (read in-process: it is found on this PATH)."""
    real = shutil.which("antiword")
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    (bin_dir / "antiword").write_text(f'#!/bin/sh\nsleep 1\nexec "{real}" "$@"\n')
    (bin_dir / "antiword").chmod(0o755)
    monkeypatch.setenv("PATH", f"{bin_dir}:{os.environ['PATH']}")
    in_process = {"isolation": {"enabled": False}}
    slow = make_reader(timeouts={"antiword": 0.3, "pandoc": 600}, **in_process)
    with pytest.raises(docread.ExtractionTimeoutError, match="antiword took longer than its"):
        slow.read(doc.name)
    quick = make_reader(timeouts={"antiword": 30, "pandoc": 0.3}, **in_process)
    assert PHRASES["german"] in quick.read(doc.name).text
