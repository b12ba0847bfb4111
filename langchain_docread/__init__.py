"""LangChain integration for docread: a document loader, a blob parser, and an agent tool that
reads any file with page/row windows and hands images to the model.

    from langchain_docread import DocReadLoader, ReadDocumentTool
    docs = DocReadLoader("reports/", glob="**/*.pdf").load()
    tool = ReadDocumentTool(workspace="reports")
"""

from __future__ import annotations

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
