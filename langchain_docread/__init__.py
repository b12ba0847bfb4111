"""LangChain integration for docread: a document loader, a blob parser, and an agent tool that
reads any file with page/row windows and hands images to the model.

    from langchain_docread import DocReadLoader, ReadDocumentTool
    docs = DocReadLoader("reports/", glob="**/*.pdf").load()
    tool = ReadDocumentTool(workspace="reports")
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .blocks import content_blocks, describe_media, media_block, split_tool_media, to_langchain
    from .loader import DocReadLoader
    from .parser import DocReadParser
    from .tool import DocReadToolkit, ReadDocumentInput, ReadDocumentTool

__all__ = [
    "DocReadLoader",
    "DocReadParser",
    "DocReadToolkit",
    "ReadDocumentInput",
    "ReadDocumentTool",
    "content_blocks",
    "describe_media",
    "media_block",
    "split_tool_media",
    "to_langchain",
]

# The public names, each imported from its module on first use (PEP 562): a loader's user does
# not import the tool's stack (langchain_core's tracers and LangSmith, ~1.3 s of CPU).
_MODULES = {
    ".blocks": ["content_blocks", "describe_media", "media_block", "split_tool_media",
                "to_langchain"],
    ".loader": ["DocReadLoader"],
    ".parser": ["DocReadParser"],
    ".tool": ["DocReadToolkit", "ReadDocumentInput", "ReadDocumentTool"],
}  # fmt: skip
_PUBLIC = {name: module for module, names in _MODULES.items() for name in names}


def __getattr__(name: str) -> Any:
    """A public name, imported from its module the first time it is asked for."""
    module = _PUBLIC.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(module, __name__), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted({*globals(), *_PUBLIC})
