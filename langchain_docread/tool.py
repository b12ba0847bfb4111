"""ReadDocumentTool: a LangChain tool that lets a model read any file in a workspace, with
page/row/line windows, archive modes, and images or PDFs handed over as content blocks."""

from __future__ import annotations

import os
import threading
from collections.abc import Callable
from typing import Annotated, Any, Literal

import docread
from docread.integrations.adapters import (
    TOOL_DESCRIPTION,
    arguments_model,
    check_keywords,
    check_model_inputs,
    describe_invalid_arguments,
    tool_description,
)
from docread.integrations.tool_call import ToolAnswer, atool_read, tool_read
from langchain_core.callbacks import AsyncCallbackManagerForToolRun, CallbackManagerForToolRun
from langchain_core.tools import BaseTool, BaseToolkit, ToolException
from pydantic import (
    BaseModel,
    BeforeValidator,
    Field,
    PrivateAttr,
    ValidationError,
)
from pydantic.v1 import ValidationError as ValidationErrorV1

from .blocks import DEFAULT_MODEL_INPUTS, part_block, to_langchain

ReadDocumentInput: type[BaseModel] = arguments_model("ReadDocumentInput", __name__)


def _fspath(value: Any) -> Any:
    """A Path (any os.PathLike) as its string, so ``workspace=Path("reports")`` is accepted."""
    return os.fspath(value) if isinstance(value, os.PathLike) else value


WorkspacePath = Annotated[str | None, BeforeValidator(_fspath)]
_READER_LOCK = threading.Lock()


class ReadDocumentTool(BaseTool):
    """Reads files for a model: content = agent view text + image/file blocks; artifact = the
    LangChain Documents read. Every read failure (docread's, or any other exception the read
    raises) and invalid arguments become error tool results; only an interrupt is raised.

    ``model_inputs`` says what the model accepts: without "image", images are described in text;
    without "pdf" (the default), raw PDFs are never sent. For providers that reject media in tool
    messages, pass the ToolMessage through :func:`langchain_docread.split_tool_media`.
    ``dedupe=True`` answers a repeated read of an unchanged file with a short stub (saves context
    in one conversation); it is off by default because a tool is usually shared by many
    conversations. Call :meth:`forget` when a new conversation starts. The tool pickles (e.g.
    for multiprocessing): its Reader is rebuilt on first use, with an empty read log.
    """

    name: str = "ReadDocument"
    description: str = TOOL_DESCRIPTION
    args_schema: type[BaseModel] = ReadDocumentInput
    response_format: Literal["content", "content_and_artifact"] = "content_and_artifact"
    handle_tool_error: bool = True
    handle_validation_error: (
        bool | str | Callable[[ValidationError | ValidationErrorV1], str] | None
    ) = Field(default_factory=lambda: describe_validation_error)
    workspace: WorkspacePath = None
    config: Any = None
    model_inputs: frozenset[str] = DEFAULT_MODEL_INPUTS
    dedupe: bool = False
    _reader: docread.Reader | None = PrivateAttr(default=None)

    def __init__(self, **data: Any) -> None:
        """A keyword that is no field (``workspce=``) is an InvalidOptionError naming the
        fields, not ignored: pydantic's default would read the current folder instead."""
        fields = type(self).model_fields
        named = {*fields, *(f.alias for f in fields.values() if f.alias)}
        check_keywords(type(self), {k: v for k, v in data.items() if k not in named}, reads=False)
        super().__init__(**data)

    def model_post_init(self, context: Any) -> None:
        """Checks the settings and workspace now (by building the Reader) and puts the limits
        into the default description."""
        super().model_post_init(context)
        self.model_inputs = check_model_inputs(self.model_inputs)
        if self.description == TOOL_DESCRIPTION:
            self.description = tool_description(self.reader.settings)

    @property
    def reader(self) -> docread.Reader:
        """One Reader (workspace sandbox, settings, read log) for the tool's life, on the
        process-wide worker pool; it is thread-safe. Built on first use."""
        if self._reader is None:
            with _READER_LOCK:
                if self._reader is None:
                    self._reader = docread.Reader(self.workspace, self.config, shared_pool=True)
        return self._reader

    def __getstate__(self) -> dict[Any, Any]:
        """Pickle without the Reader (it holds locks and a worker pool); it is rebuilt lazily."""
        state = super().__getstate__()
        private = {**(state.get("__pydantic_private__") or {}), "_reader": None}
        return {**state, "__pydantic_private__": private}

    def _run(
        self, file_path: str, run_manager: CallbackManagerForToolRun | None = None, **options: Any
    ) -> tuple[list[dict[str, Any]], list[Any]]:
        return _output(
            tool_read(self.reader, file_path, options, self.model_inputs, dedupe=self.dedupe)
        )

    async def _arun(
        self,
        file_path: str,
        run_manager: AsyncCallbackManagerForToolRun | None = None,
        **options: Any,
    ) -> tuple[list[dict[str, Any]], list[Any]]:
        answer = await atool_read(
            self.reader, file_path, options, self.model_inputs, dedupe=self.dedupe
        )
        return _output(answer)

    def forget(self) -> None:
        """Forget earlier reads (``dedupe``): the next read of every file is returned in full."""
        self.reader.forget()


class DocReadToolkit(BaseToolkit):
    """The docread tools for one workspace and settings: today the ReadDocument tool."""

    workspace: WorkspacePath = None
    config: Any = None
    model_inputs: frozenset[str] = DEFAULT_MODEL_INPUTS
    dedupe: bool = False

    def get_tools(self) -> list[BaseTool]:
        """The tools, configured alike (see ReadDocumentTool for each option)."""
        options = {k: getattr(self, k) for k in ("workspace", "config", "model_inputs", "dedupe")}
        return [ReadDocumentTool(**options)]


def describe_validation_error(error: ValidationError | ValidationErrorV1) -> str:
    """Bad arguments, said to the model so it can retry: "offset: must be >= 1; ..."."""
    return describe_invalid_arguments(error, "ReadDocument")


def _output(answer: ToolAnswer) -> tuple[list[dict[str, Any]], list[Any]]:
    """(content blocks for the model, Documents for the program); a failed read is raised as the
    ToolException LangChain turns into an error ToolMessage (``handle_tool_error``)."""
    if answer.result is None:
        raise ToolException(answer.error)
    return [part_block(p) for p in answer.parts], [to_langchain(d) for d in answer.result.documents]
