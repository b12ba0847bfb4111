"""ReadDocumentTool: a LangChain tool that lets a model read any file in a workspace, with
page/row/line windows, archive modes, and images or PDFs handed over as content blocks."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Literal

import docread
from docread.media import check_model_inputs
from langchain_core.callbacks import AsyncCallbackManagerForToolRun, CallbackManagerForToolRun
from langchain_core.tools import BaseTool, BaseToolkit, ToolException
from pydantic import BaseModel, ConfigDict, Field, PrivateAttr, ValidationError

from .blocks import DEFAULT_MODEL_INPUTS, content_blocks, to_langchain

DESCRIPTION = """Read a file in the workspace and return its content as text, plus images when \
useful. Reads text and code, PDF (with OCR of scanned pages), Word/RTF/ODT/EPUB, PowerPoint, \
spreadsheets and tables (CSV, TSV, Excel, ODS, Parquet, JSON, JSONL), Jupyter notebooks, \
archives (zip, tar, 7z), images (metadata, EXIF), audio (tags, duration), SQLite databases, and \
directories (a listing).
Windows keep the output small; read in steps instead of all at once:
- text/code: offset (1-based first line) and limit (number of lines; default 2000). Lines are \
numbered like cat -n.
- PDF, slides, documents: pages like "1-5" or "1,3,7-9"; view="visual" returns page images \
(for charts, scans, layout), view="auto" adds images of scanned pages to the text.
- tables: sheet (name or 0-based index), rows ("1-100", "head:50", "tail:20"), columns \
("A,C" or "name,age"); SQLite: table.
- archives: mode="list" (default; pattern filters names), mode="read" with archive_path to \
read one member, mode="extract" to unpack a member into the workspace.
The output starts with a header (pages, rows, sizes) and ends with notes; when it is \
truncated, a note says exactly which parameters read on. Errors (missing file, bad range, \
encrypted, too large) come back as a message saying what to do instead."""


class ReadDocumentInput(BaseModel):
    """The tool's arguments: the parameters of the ReadDocument design, for the model."""

    model_config = ConfigDict(extra="forbid")

    file_path: str = Field(
        description="Path of the file or directory, relative to the workspace (or /workspace/...)."
    )
    offset: int | None = Field(
        default=None, ge=1, description="Text files: first line to read, 1-based."
    )
    limit: int | None = Field(
        default=None, ge=0, description="Text files: number of lines to read (default 2000)."
    )
    pages: str | None = Field(
        default=None, description='PDF/slides/documents: page range, e.g. "1-5" or "1,3,7-9".'
    )
    rows: str | None = Field(
        default=None, description='Tables: row range, e.g. "1-100", "head:50", "tail:20".'
    )
    columns: str | None = Field(
        default=None, description='Tables: columns by letter or name, e.g. "A,C" or "name,age".'
    )
    sheet: str | int | None = Field(
        default=None, description="Spreadsheets: sheet name or 0-based index."
    )
    table: str | None = Field(
        default=None, description="SQLite: the table to preview (default: the schema)."
    )
    mode: Literal["list", "read", "extract"] | None = Field(
        default=None,
        description='Archives: "list" the members (default), "read" one, or "extract" one.',
    )
    archive_path: str | None = Field(
        default=None, description="Archives: the member to read or extract."
    )
    pattern: str | None = Field(
        default=None, description='Archives/directories: a glob filter, e.g. "*.py".'
    )
    include_metadata: bool | None = Field(
        default=None, description="Include file metadata in the header (default true)."
    )
    format_hint: str | None = Field(
        default=None, description='Force a format when detection is wrong, e.g. "csv".'
    )
    output_format: Literal["text", "markdown", "json"] | None = Field(
        default=None, description='"text" (default), "markdown" or "json".'
    )
    view: Literal["text", "visual", "pdf", "auto"] | None = Field(
        default=None,
        description='PDFs: "text" (default), "visual" (page images), "pdf" (the raw PDF, if the model '
        'takes files), "auto" (text plus images of scanned pages).',
    )
    extract_images: bool | None = Field(
        default=None, description="PDF/documents: also list embedded images."
    )
    extract_tables: bool | None = Field(
        default=None, description="PDF: also extract tables as markdown."
    )
    ocr: bool | None = Field(
        default=None, description="PDF/images: force OCR on (true) or off (false)."
    )


class ReadDocumentTool(BaseTool):
    """Reads files for a model: content = agent view text + image/file blocks; artifact = the
    LangChain Documents read. Errors become error tool results, never exceptions.

    ``model_inputs`` says what the model accepts: without "image", images are described in text;
    without "pdf" (the default), raw PDFs are never sent. For providers that reject media in tool
    messages, pass the ToolMessage through :func:`langchain_docread.split_tool_media`.
    ``dedupe=True`` answers a repeated read of an unchanged file with a short stub (saves context
    in one conversation); it is off by default because a tool is usually shared by many
    conversations. Call :meth:`forget` when a new conversation starts.
    """

    name: str = "ReadDocument"
    description: str = DESCRIPTION
    args_schema: type[BaseModel] = ReadDocumentInput
    response_format: Literal["content", "content_and_artifact"] = "content_and_artifact"
    handle_tool_error: bool = True
    handle_validation_error: bool | str | Callable[[ValidationError], str] | None = Field(
        default_factory=lambda: describe_validation_error
    )
    workspace: str | None = None
    config: Any = None
    model_inputs: frozenset[str] = DEFAULT_MODEL_INPUTS
    dedupe: bool = False
    _reader: docread.Reader = PrivateAttr()

    def model_post_init(self, context: Any) -> None:
        """One Reader (workspace sandbox, settings, read log) for the tool's life, on the process-wide
        worker pool; it is thread-safe."""
        super().model_post_init(context)
        self.model_inputs = check_model_inputs(self.model_inputs)
        self._reader = docread.Reader(self.workspace, self.config, shared_pool=True)
        if self.description == DESCRIPTION:
            self.description = DESCRIPTION + limits_note(self._reader.settings)

    def _run(
        self, file_path: str, run_manager: CallbackManagerForToolRun | None = None, **options: Any
    ) -> tuple[list[dict[str, Any]], list[Any]]:
        try:
            result = self._reader.read(file_path, dedupe=self.dedupe, **_given(options))
        except docread.ReadDocumentError as exc:
            raise ToolException(str(exc)) from exc
        return self._output(result)

    async def _arun(
        self,
        file_path: str,
        run_manager: AsyncCallbackManagerForToolRun | None = None,
        **options: Any,
    ) -> tuple[list[dict[str, Any]], list[Any]]:
        try:
            result = await self._reader.aread(file_path, dedupe=self.dedupe, **_given(options))
        except docread.ReadDocumentError as exc:
            raise ToolException(str(exc)) from exc
        return self._output(result)

    def forget(self) -> None:
        """Forget earlier reads (``dedupe``): the next read of every file is returned in full."""
        self._reader.forget()

    def _output(self, result: docread.ReadResult) -> tuple[list[dict[str, Any]], list[Any]]:
        """(content blocks for the model, Documents for the program)."""
        blocks = content_blocks(result.render(), result.media, self.model_inputs)
        return blocks, [to_langchain(d) for d in result.documents]


class DocReadToolkit(BaseToolkit):
    """The docread tools for one workspace and settings: today the ReadDocument tool."""

    workspace: str | None = None
    config: Any = None
    model_inputs: frozenset[str] = DEFAULT_MODEL_INPUTS
    dedupe: bool = False

    def get_tools(self) -> list[BaseTool]:
        """The tools, configured alike (see ReadDocumentTool for each option)."""
        options = {k: getattr(self, k) for k in ("workspace", "config", "model_inputs", "dedupe")}
        return [ReadDocumentTool(**options)]


def limits_note(settings: docread.Settings) -> str:
    """The limits a model should plan around, from the tool's actual settings."""
    return (
        f"\nLimits: at most {settings.pdf.max_pages_text} PDF pages of text, "
        f"{settings.pdf.max_pages_ocr} OCR pages and {settings.pdf.max_visual_pages} page images "
        f"per call; {settings.text.default_limit} lines and {settings.tabular.default_rows} rows by "
        f"default; output is cut at {settings.output.max_chars:,} characters."
    )


def describe_validation_error(error: ValidationError) -> str:
    """Bad arguments, said to the model so it can retry: "offset: must be >= 1; ..."."""
    problems = "; ".join(
        f"{'.'.join(str(p) for p in e['loc']) or 'arguments'}: {e['msg']}" for e in error.errors()
    )
    return f"Invalid ReadDocument arguments: {problems}. Fix them and call the tool again."


def _given(options: dict[str, Any]) -> dict[str, Any]:
    """The arguments the model set (None means "use the default")."""
    return {k: v for k, v in options.items() if v is not None}
