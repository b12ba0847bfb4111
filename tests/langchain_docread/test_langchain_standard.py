"""LangChain's own standard tests for ReadDocumentTool (langchain_tests unit + integration)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from langchain_tests.integration_tests import ToolsIntegrationTests
from langchain_tests.unit_tests import ToolsUnitTests

from langchain_docread import ReadDocumentTool

HERE = Path(__file__).resolve().parent


class _ReadDocumentSetup:
    """The tool sandboxed to tests/, reading this very file with a line window."""

    @property
    def tool_constructor(self) -> type[ReadDocumentTool]:
        return ReadDocumentTool

    @property
    def tool_constructor_params(self) -> dict[str, Any]:
        return {"workspace": str(HERE), "config": {"cache": {"enabled": False}}}

    @property
    def tool_invoke_params_example(self) -> dict[str, Any]:
        return {"file_path": Path(__file__).name, "offset": 1, "limit": 5}


class TestReadDocumentToolUnit(_ReadDocumentSetup, ToolsUnitTests):
    """Init, name, input schema matching the example arguments."""


class TestReadDocumentToolIntegration(_ReadDocumentSetup, ToolsIntegrationTests):
    """Invoke with and without a ToolCall, sync and async: ToolMessage content and artifact."""
