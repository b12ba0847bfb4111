"""Legacy Word 97 text beyond ASCII (issue 17, class 5): tests/data/multilingual.doc (German,
Greek, Russian, Japanese, Chinese paragraphs; made by tests/data/make_multilingual_doc.py with
LibreOffice) read through antiword's UTF-8 mapping, whatever the locale of the process."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import docread
import pytest
from conftest import NO_CACHE
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
