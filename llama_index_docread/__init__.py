"""LlamaIndex integration for docread: ``DocReadReader`` (a reader for SimpleDirectoryReader and
ingestion pipelines) and ``DocReadToolSpec`` (an agent tool returning text and image blocks).

    from llama_index_docread import DocReadReader, DocReadToolSpec
    reader = DocReadReader()
    docs = SimpleDirectoryReader("data", file_extractor=reader.file_extractor()).load_data()
    tools = DocReadToolSpec(workspace="data").to_tool_list()
"""

from __future__ import annotations

from .blocks import DEFAULT_MODEL_INPUTS, describe_media, media_block, result_blocks
from .node_parser import DocReadNodeParser
from .reader import DocReadReader, FileDependencyError, llama_metadata
from .tool_spec import DocReadToolSpec

__all__ = [
    "DEFAULT_MODEL_INPUTS",
    "DocReadNodeParser",
    "DocReadReader",
    "DocReadToolSpec",
    "FileDependencyError",
    "describe_media",
    "llama_metadata",
    "media_block",
    "result_blocks",
]
