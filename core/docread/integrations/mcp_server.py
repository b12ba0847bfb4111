"""The MCP server behind ``docread mcp`` (``cli/mcp.py``): one tool with one tool, ``read_document``, over stdio or streamable HTTP.

The tool is the LangChain tool's twin: the same parameters, descriptions and validation (the
pydantic model built from the core's parameter table) and the same read (``tool_call.tool_read``:
``view="pdf"`` adapted to the model), the agent view as ``TextContent``, images and rendered pages
as ``ImageContent``, a raw PDF as an embedded blob resource when the model takes PDFs. Every read
failure is a tool result with ``isError`` (the error's message), never a dead server: parsing runs in the Reader's isolated workers, each call in its own thread, so calls
overlap. A client's progress token gets one notification per unit read; a cancelled call stops
its read at the next unit (the unit stream is closed, which cancels the worker's job).

``mode="extract"`` writes under the workspace's extraction folder, so it is off unless the server
is started with ``--allow-extract``; without it the tool is annotated read-only. Over HTTP,
``mcp_http`` decides who may call (Host/Origin checks, a bearer token off loopback).
"""

from __future__ import annotations

import contextlib
import threading
from base64 import b64encode
from collections.abc import Callable, Coroutine, Iterable
from functools import partial
from typing import Any
from urllib.parse import quote

from .. import DependencyMissingError, ReadDocumentError, Reader, Settings, Unit, __version__
from .adapters import (
    DEFAULT_MODEL_INPUTS,
    Part,
    arguments_model,
    check_model_inputs,
    describe_invalid_arguments,
    media_name,
    tool_description,
)
from .tool_call import ToolAnswer, tool_read

try:
    import anyio
    import anyio.from_thread
    import anyio.to_thread
    from mcp import types
    from mcp.server.context import ServerRequestContext
    from mcp.server.lowlevel import Server
    from pydantic import ValidationError
except ImportError as exc:  # the extra is not installed
    raise DependencyMissingError(
        f"the MCP server needs the MCP SDK ({exc.name} is missing): pip install 'docread[mcp]'"
    ) from exc

TOOL_NAME = "read_document"
EXTRACT_OFF = (
    'mode="extract" is turned off on this server: it writes files into the workspace. Use '
    'mode="read" to read a member instead, or start the server with --allow-extract.'
)
INSTRUCTIONS = (
    "docread reads files in one workspace for you: call read_document with a path relative to "
    "the workspace; read long files in windows (pages, rows, offset/limit) as its notes suggest."
)

Progress = Callable[[float, float | None, str | None], Coroutine[Any, Any, None]]


class _Cancelled(ReadDocumentError):
    """Raised from the unit handler of a read whose call was cancelled: the read stops there."""

    def __init__(self) -> None:
        super().__init__("the call was cancelled by the client")


class ReadDocumentServer:
    """The ``read_document`` MCP server over one workspace: ``server`` is the SDK's low-level
    Server (run it on any transport, or connect ``mcp.Client(server)`` in process).

    ``model_inputs`` says what the client's model takes ("text", "image", "pdf"), as the LangChain
    tool's; ``allow_extract`` turns ``mode="extract"`` on. Call ``close`` to stop the workers.
    """

    def __init__(
        self,
        workspace: str | None = None,
        config: str | Settings | dict[str, Any] | None = None,
        *,
        model_inputs: Iterable[str] = DEFAULT_MODEL_INPUTS,
        allow_extract: bool = False,
    ) -> None:
        self.model_inputs = check_model_inputs(model_inputs)
        self.allow_extract = allow_extract
        self.reader = Reader(workspace, config)
        self.arguments = arguments_model("ReadDocumentArguments", __name__)
        self.tool = self._tool()
        self.server: Server[Any] = Server(
            "docread",
            version=__version__,
            instructions=INSTRUCTIONS,
            on_list_tools=self._list_tools,
            on_call_tool=self._call_tool,
        )
        self._lock = threading.Lock()
        self._active = 0

    @property
    def active_reads(self) -> int:
        """Reads running in threads right now (a cancelled read counts until it has stopped)."""
        with self._lock:
            return self._active

    def close(self) -> None:
        """Stop the Reader's worker processes and close its cache."""
        self.reader.close()

    def _tool(self) -> types.Tool:
        description = tool_description(self.reader.settings)
        if not self.allow_extract:
            description += ' mode="extract" is turned off on this server.'
        return types.Tool(
            name=TOOL_NAME,
            title="Read document",
            description=description,
            input_schema=self.arguments.model_json_schema(),
            annotations=types.ToolAnnotations(
                title="Read document",
                read_only_hint=not self.allow_extract,
                destructive_hint=False,
                idempotent_hint=True,
                open_world_hint=False,
            ),
        )

    async def _list_tools(
        self, ctx: ServerRequestContext[Any], params: types.PaginatedRequestParams | None
    ) -> types.ListToolsResult:
        return types.ListToolsResult(tools=[self.tool])

    async def _call_tool(
        self, ctx: ServerRequestContext[Any], params: types.CallToolRequestParams
    ) -> types.CallToolResult:
        if params.name != TOOL_NAME:
            return error_result(f"unknown tool {params.name!r}; this server has {TOOL_NAME!r}")
        try:
            args = self.arguments.model_validate(params.arguments or {})
        except ValidationError as exc:
            return error_result(describe_invalid_arguments(exc, TOOL_NAME))
        options = {k: v for k, v in args.model_dump(exclude_unset=True).items() if v is not None}
        file_path = options.pop("file_path")
        if options.get("mode") == "extract" and not self.allow_extract:
            return error_result(EXTRACT_OFF)
        cancel = threading.Event()
        report = ctx.session.report_progress  # a no-op unless the client asked for progress
        read = partial(self._read, file_path, options, cancel, report)
        try:
            answer = await anyio.to_thread.run_sync(read, abandon_on_cancel=True)
        finally:
            cancel.set()  # a cancelled call: the thread's read stops at its next unit
        if answer.is_error:
            return error_result(answer.error)
        return types.CallToolResult(content=[mcp_block(p) for p in answer.parts])

    def _read(
        self,
        file_path: str,
        options: dict[str, Any],
        cancel: threading.Event,
        report: Progress | None,
    ) -> ToolAnswer:
        """One read, in a worker thread; progress goes back to the event loop per unit."""
        count = 0

        def on_unit(unit: Unit) -> None:
            nonlocal count
            if cancel.is_set():
                raise _Cancelled
            count += 1
            if report is not None:
                with contextlib.suppress(Exception):  # the call ended meanwhile: no one to tell
                    anyio.from_thread.run(report, count, None, f"{count} part(s) read")

        with self._lock:
            self._active += 1
        try:
            return tool_read(self.reader, file_path, options, self.model_inputs, on_unit=on_unit)
        finally:
            with self._lock:
                self._active -= 1


def mcp_block(part: Part) -> types.ContentBlock:
    """One part of a tool answer as MCP content: text, an image, or a PDF as an embedded blob."""
    if part.media is None:
        return types.TextContent(text=part.text)
    data = b64encode(part.media.data).decode("ascii")
    if part.kind == "pdf":
        name = part.media.metadata.get("source") or media_name(part.media)
        blob = types.BlobResourceContents(
            uri=f"docread:///{quote(str(name))}", blob=data, mime_type=part.media.mime_type
        )
        return types.EmbeddedResource(resource=blob)
    return types.ImageContent(data=data, mime_type=part.media.mime_type)


def error_result(message: str) -> types.CallToolResult:
    """A failed call as the model sees it: the message, flagged ``isError``."""
    return types.CallToolResult(content=[types.TextContent(text=message)], is_error=True)
