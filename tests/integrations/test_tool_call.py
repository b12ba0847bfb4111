"""The agent-tool read (integrations/tool_call.py) under LangChain and LlamaIndex: an error
is the model's answer and is logged once."""

from __future__ import annotations

import logging
from pathlib import Path

import pytest
from conftest import docread_warnings


# -- an error is logged once, where it is handled --------------------------------------------------
def test_tools_log_the_error_they_hand_to_the_model_once(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    from langchain_docread import ReadDocumentTool
    from llama_index_docread import DocReadToolSpec

    lc = ReadDocumentTool(workspace=str(tmp_path))
    li = DocReadToolSpec(tmp_path)
    with caplog.at_level(logging.DEBUG, logger="docread"):
        message = lc.invoke({"file_path": "gone.txt"})
        assert "gone.txt" in str(message)
        assert "gone.txt" in li.read_document("gone.txt")[0].text
    records = docread_warnings(caplog)
    assert [r.docread_path for r in records] == ["gone.txt", "gone.txt"]
    assert all("DocumentNotFoundError" in r.getMessage() for r in records)
