"""Conformance of the in-process readers (text, notebooks) over the shared corpus: every file
reads in both the agent view and loader mode, and every MANIFEST must-include string is found."""

from __future__ import annotations

import docread
import pytest
from conftest import CORPUS, corpus_params, normalize


@pytest.mark.parametrize("row", corpus_params("text", "notebooks"))
def test_corpus_text_and_notebooks(row: dict) -> None:
    name = str(row["file"])
    view = docread.read(name, workspace=CORPUS, limit=0).render()
    loaded = "\n".join(d.text for d in docread.iter_documents(name, workspace=CORPUS))
    for haystack in (view, loaded):
        flat = normalize(haystack)
        missing = [s for s in row["must_include"] if normalize(s) not in flat]
        assert not missing, f"{name}: missing {missing}"
