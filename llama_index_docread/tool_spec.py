"""DocReadToolSpec: docread's agent view as a LlamaIndex tool whose output carries TextBlock,
ImageBlock and DocumentBlock parts, and whose failures come back as error outputs, not raises."""

from __future__ import annotations

import asyncio
import os
import threading
from collections.abc import Awaitable, Callable, Iterable
from typing import Any, cast

import docread
from docread.integrations.adapters import PARAMETERS, check_keywords, tool_description
from docread.integrations.tool_call import tool_read
from llama_index.core.base.llms.types import ContentBlock, TextBlock
from llama_index.core.tools import FunctionTool, ToolMetadata, ToolOutput
from llama_index.core.tools.tool_spec.base import BaseToolSpec
from pydantic import BaseModel, ConfigDict, Field, create_model

from .blocks import DEFAULT_MODEL_INPUTS, check_model_inputs, part_block

ReadDocumentArgs: type[BaseModel] = create_model(
    "ReadDocumentArgs",
    __config__=ConfigDict(extra="forbid"),
    __doc__="The arguments of ``read_document`` as the model sees them (docread's parameter table).",
    __module__=__name__,
    # Any: the field definitions are not create_model's own double-underscore keywords
    **cast(
        dict[str, Any], {p.name: (p.annotation, Field(**p.field_options())) for p in PARAMETERS}
    ),
)
_READER_LOCK = threading.Lock()


class ErrorBlocks(list[ContentBlock]):
    """The blocks of a failed read: the error message, marked so the tool reports is_error."""


class DocReadToolSpec(BaseToolSpec):
    """``read_document`` for LlamaIndex agents, sandboxed to ``workspace`` (default: the current
    folder). ``model_inputs`` says what the model takes ({"text", "image"} by default; add "pdf"
    to send raw PDFs as DocumentBlocks); other media are described in text instead.
    ``dedupe=True`` answers a repeated read of an unchanged file with a short stub; it is off by
    default because one tool is often shared by several agents (call :meth:`forget` between
    conversations). The spec pickles: its Reader is rebuilt on first use, with an empty read log.
    """

    spec_functions = [("read_document", "aread_document")]

    def __init__(
        self,
        workspace: str | os.PathLike[str] | None = None,
        config: Any = None,
        *,
        model_inputs: Iterable[str] = DEFAULT_MODEL_INPUTS,
        dedupe: bool = False,
        **unknown: Any,
    ) -> None:
        check_keywords(type(self).__init__, unknown, reads=False)  # a typo names the parameters
        self.workspace = workspace
        self.config = config
        self.model_inputs = check_model_inputs(model_inputs)
        self.dedupe = dedupe
        self._reader: docread.Reader | None = None
        self.reader  # noqa: B018  (check the settings and workspace now, not at the first call)

    @property
    def reader(self) -> docread.Reader:
        """One thread-safe Reader for the spec's life, on the process-wide worker pool."""
        if self._reader is None:
            with _READER_LOCK:
                if self._reader is None:
                    self._reader = docread.Reader(self.workspace, self.config, shared_pool=True)
        return self._reader

    def __getstate__(self) -> dict[str, Any]:
        """Pickle without the Reader (it holds locks and a worker pool); it is rebuilt lazily."""
        return {**self.__dict__, "_reader": None}

    def forget(self) -> None:
        """Forget earlier reads (``dedupe``): the next read of every file is returned in full."""
        self.reader.forget()

    def read_document(self, file_path: str, **options: Any) -> list[ContentBlock]:
        """Read a file or list a folder; returns the text view plus images of pictures and pages.
        ``options`` are ReadDocumentArgs' other fields; a failed read (any exception) returns
        ErrorBlocks."""
        answer = tool_read(self.reader, file_path, options, self.model_inputs, dedupe=self.dedupe)
        if answer.is_error:
            return ErrorBlocks([TextBlock(text=f"Error: {answer.error}")])
        return [part_block(p) for p in answer.parts]

    async def aread_document(self, file_path: str, **options: Any) -> list[ContentBlock]:
        """``read_document`` in a worker thread, so the event loop is never blocked."""
        return await asyncio.to_thread(self.read_document, file_path, **options)

    def to_tool_list(
        self,
        spec_functions: list[Any] | None = None,
        func_to_metadata_mapping: dict[str, ToolMetadata] | None = None,
    ) -> list[FunctionTool]:
        """The tools with a model-facing description and schema; a failed read is an error output."""
        metadata = ToolMetadata(
            name="read_document",
            description=tool_description(self.reader.settings),
            fn_schema=ReadDocumentArgs,
        )
        mapping = {"read_document": metadata, **(func_to_metadata_mapping or {})}
        return [
            FunctionTool.from_defaults(
                fn=tool.fn,
                async_fn=tool.async_fn,
                tool_metadata=tool.metadata,
                callback=_error_output(tool.metadata.get_name()),
                async_callback=_async_error_output(tool.metadata.get_name()),
            )
            for tool in super().to_tool_list(spec_functions, mapping)
        ]


def _error_output(name: str) -> Callable[[Any], ToolOutput | None]:
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


def _async_error_output(name: str) -> Callable[[Any], Awaitable[ToolOutput | None]]:
    sync = _error_output(name)

    async def callback(raw_output: Any) -> ToolOutput | None:
        return sync(raw_output)

    return callback
