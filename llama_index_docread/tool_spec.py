"""DocReadToolSpec: docread's agent view as a LlamaIndex tool whose output carries TextBlock,
ImageBlock and DocumentBlock parts, and whose failures come back as error outputs, not raises."""

from __future__ import annotations

import asyncio
import os
from collections.abc import Iterable
from typing import Any, Literal

import docread
from llama_index.core.base.llms.types import ContentBlock, TextBlock
from llama_index.core.tools import FunctionTool, ToolMetadata, ToolOutput
from llama_index.core.tools.tool_spec.base import BaseToolSpec
from pydantic import BaseModel, Field

from .blocks import DEFAULT_MODEL_INPUTS, check_model_inputs, result_blocks

READ_DOCUMENT_DESCRIPTION = """\
Read a file or list a folder inside the workspace and return its content as text (images and \
rendered pages come back as images). Reads text and code, PDFs (scanned pages are OCR'd), Word/\
PowerPoint/OpenDocument/EPUB, spreadsheets (CSV, TSV, XLSX, XLS, ODS, Parquet, JSON tables), \
Jupyter notebooks, archives (zip, tar, 7z), images, audio metadata and SQLite databases.
Read in windows, never everything at once: text files by lines (offset/limit), PDFs, slides and \
documents by pages, tables by sheet/rows/columns (or table for SQLite), archives by mode \
("list" first, then "read" with archive_path). The output starts with a header saying what was \
shown (e.g. "Pages: 1-5 of 42") and ends with a note saying how to read on when cut."""


class ReadDocumentArgs(BaseModel):
    """The arguments of ``read_document`` as the model sees them (the design's parameters)."""

    file_path: str = Field(
        description="Path of the file or folder, relative to the workspace (or /workspace/...)."
    )
    offset: int | None = Field(None, description="Text files: first line to show, 1-based.")
    limit: int | None = Field(
        None, description="Text files: how many lines to show (default 2000)."
    )
    pages: str | None = Field(
        None, description='PDF pages, slides or document sections: "1-5" or "1,3,7-9".'
    )
    rows: str | None = Field(None, description='Table rows: "1-100", "head:50" or "tail:20".')
    columns: str | None = Field(
        None, description='Table columns by letter or name: "A,C" or "name,age".'
    )
    sheet: str | int | None = Field(
        None, description="Spreadsheet sheet: its name or 0-based index."
    )
    table: str | None = Field(None, description="SQLite database: the table to show rows of.")
    mode: Literal["list", "read", "extract"] | None = Field(
        None,
        description='Archives: "list" the members (default), "read" one, "extract" it to the workspace.',
    )
    archive_path: str | None = Field(None, description="Archives: the member to read or extract.")
    pattern: str | None = Field(
        None, description='Glob filtering archive members or folder files: "*.py".'
    )
    include_metadata: bool = Field(
        True, description="Show the document's metadata (title, author, ...)."
    )
    format_hint: str | None = Field(
        None, description='Force the format when detection is wrong: "csv", "pdf".'
    )
    output_format: Literal["text", "markdown", "json"] = Field(
        "text", description="How to render the view."
    )
    view: Literal["text", "visual", "pdf", "auto"] = Field(
        "text",
        description='PDFs: "text", "visual" (pages as images), "pdf" (the raw file), '
        '"auto" (text plus images of scanned pages).',
    )


class ErrorBlocks(list[ContentBlock]):
    """The blocks of a failed read: the error message, marked so the tool reports is_error."""


class DocReadToolSpec(BaseToolSpec):
    """``read_document`` for LlamaIndex agents, sandboxed to ``workspace`` (default: the current
    folder). ``model_inputs`` says what the model takes ({"text", "image"} by default; add "pdf"
    to send raw PDFs as DocumentBlocks); other media are described in text instead."""

    spec_functions = [("read_document", "aread_document")]

    def __init__(
        self,
        workspace: str | os.PathLike[str] | None = None,
        config: Any = None,
        *,
        model_inputs: Iterable[str] = DEFAULT_MODEL_INPUTS,
    ) -> None:
        self.reader = docread.Reader(workspace, config, shared_pool=True)  # process-wide workers
        self.model_inputs = check_model_inputs(model_inputs)

    def read_document(self, file_path: str, **options: Any) -> list[ContentBlock]:
        """Read a file or list a folder; returns the text view plus images of pictures and pages.
        ``options`` are ReadDocumentArgs' other fields; a failed read returns ErrorBlocks."""
        try:
            result = self.reader.read(file_path, **options)
        except docread.ReadDocumentError as exc:
            return ErrorBlocks([TextBlock(text=f"Error: {exc.message}")])
        return result_blocks(result, self.model_inputs)

    async def aread_document(self, file_path: str, **options: Any) -> list[ContentBlock]:
        """``read_document`` in a worker thread, so the event loop is never blocked."""
        return await asyncio.to_thread(self.read_document, file_path, **options)

    def to_tool_list(
        self,
        spec_functions: list[Any] | None = None,
        func_to_metadata_mapping: dict[str, ToolMetadata] | None = None,
    ) -> list[FunctionTool]:
        """The tools with a model-facing description and schema; a failed read is an error output."""
        mapping = {"read_document": READ_DOCUMENT_METADATA, **(func_to_metadata_mapping or {})}
        return [
            FunctionTool.from_defaults(
                fn=tool.fn,
                async_fn=tool.async_fn,
                tool_metadata=tool.metadata,
                callback=_error_output(tool.metadata.name),
                async_callback=_async_error_output(tool.metadata.name),
            )
            for tool in super().to_tool_list(spec_functions, mapping)
        ]


READ_DOCUMENT_METADATA = ToolMetadata(
    name="read_document", description=READ_DOCUMENT_DESCRIPTION, fn_schema=ReadDocumentArgs
)


def _error_output(name: str) -> Any:
    def callback(raw_output: Any) -> ToolOutput | None:
        if isinstance(raw_output, ErrorBlocks):
            return ToolOutput(
                blocks=list(raw_output),
                tool_name=name,
                raw_input={},
                raw_output=raw_output,
                is_error=True,
            )
        return None

    return callback


def _async_error_output(name: str) -> Any:
    sync = _error_output(name)

    async def callback(raw_output: Any) -> ToolOutput | None:
        return sync(raw_output)

    return callback
