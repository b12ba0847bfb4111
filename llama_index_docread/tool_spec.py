"""DocReadToolSpec: docread's agent view as a LlamaIndex tool whose output carries TextBlock,
ImageBlock and DocumentBlock parts, and whose failures come back as error outputs, not raises."""

import os
from collections.abc import Iterable
from typing import Annotated, Any

import docread
from llama_index.core.base.llms.types import ContentBlock, TextBlock
from llama_index.core.tools import FunctionTool, ToolOutput
from llama_index.core.tools.tool_spec.base import BaseToolSpec
from pydantic import Field

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
        self.reader = docread.Reader(workspace, config)
        self.model_inputs = check_model_inputs(model_inputs)

    def read_document(
        self,
        file_path: Annotated[
            str,
            Field(
                description="Path of the file or folder, relative to the workspace (or /workspace/...)."
            ),
        ],
        offset: Annotated[
            int | None, Field(description="Text files: first line to show, 1-based.")
        ] = None,
        limit: Annotated[
            int | None, Field(description="Text files: how many lines to show (default 2000).")
        ] = None,
        pages: Annotated[
            str | None,
            Field(description='PDF pages, slides or document sections, e.g. "1-5" or "1,3,7-9".'),
        ] = None,
        rows: Annotated[
            str | None, Field(description='Table rows: "1-100", "head:50" or "tail:20".')
        ] = None,
        columns: Annotated[
            str | None, Field(description='Table columns by letter or name: "A,C" or "name,age".')
        ] = None,
        sheet: Annotated[
            str | int | None, Field(description="Spreadsheet sheet: its name or 0-based index.")
        ] = None,
        table: Annotated[
            str | None, Field(description="SQLite: the table to show rows of.")
        ] = None,
        mode: Annotated[
            str | None,
            Field(
                description='Archives: "list" (default) the members, "read" one member, "extract" it to the workspace.'
            ),
        ] = None,
        archive_path: Annotated[
            str | None, Field(description="Archives: the member path to read or extract.")
        ] = None,
        pattern: Annotated[
            str | None,
            Field(description='Glob that filters archive members or folder files, e.g. "*.py".'),
        ] = None,
        include_metadata: Annotated[
            bool,
            Field(
                description="Include the document's metadata (title, author, ...) in the header."
            ),
        ] = True,
        format_hint: Annotated[
            str | None,
            Field(
                description='Force the format when detection is wrong: "csv", ".xlsx", "pdf", ...'
            ),
        ] = None,
        output_format: Annotated[
            str, Field(description='"text" (default), "markdown" or "json".')
        ] = "text",
        view: Annotated[
            str,
            Field(
                description='PDFs: "text" (default), "visual" (pages as images), "pdf" (the raw file), "auto" (text plus images of scanned pages).'
            ),
        ] = "text",
    ) -> list[ContentBlock]:
        """Read a file or list a folder; returns the text view plus images of pictures and pages."""
        options = {
            "offset": offset, "limit": limit, "pages": pages, "rows": rows, "columns": columns,
            "sheet": sheet, "table": table, "mode": mode, "archive_path": archive_path,
            "pattern": pattern, "include_metadata": include_metadata, "format_hint": format_hint,
            "output_format": output_format, "view": view,
        }  # fmt: skip
        try:
            result = self.reader.read(file_path, **options)
        except docread.ReadDocumentError as exc:
            return ErrorBlocks([TextBlock(text=f"Error: {exc.message}")])
        return result_blocks(result, self.model_inputs)

    async def aread_document(self, *args: Any, **kwargs: Any) -> list[ContentBlock]:
        """``read_document`` in a worker thread, so the event loop is never blocked."""
        import asyncio

        return await asyncio.to_thread(self.read_document, *args, **kwargs)

    def to_tool_list(self, *args: Any, **kwargs: Any) -> list[FunctionTool]:
        """The tools, with the model-facing description, and a failed read as an error output."""
        tools = []
        for tool in super().to_tool_list(*args, **kwargs):
            metadata = tool.metadata
            if metadata.name == "read_document":
                metadata.description = READ_DOCUMENT_DESCRIPTION
            tools.append(
                FunctionTool.from_defaults(
                    fn=tool.fn,
                    async_fn=tool.async_fn,
                    tool_metadata=metadata,
                    callback=_error_output(metadata.name),
                    async_callback=_async_error_output(metadata.name),
                )  # fmt: skip
            )
        return tools


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
