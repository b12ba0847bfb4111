"""One agent-tool read, the entry every tool (LangChain, LlamaIndex, MCP) is thin over: the
request adapted to what the model takes, read, and answered as parts; every failure, docread's
or not, an error answer, never a raise (an agent loop must not die on one file)."""

from __future__ import annotations

import asyncio
import dataclasses
import os
from collections.abc import Iterable, Mapping
from typing import Any

from .. import ExtractionError, ReadDocumentError, Reader, ReadResult
from .adapters import Part, UnitHandler, answer_parts, log_handled, logger, view_for_model


@dataclasses.dataclass(frozen=True)
class ToolAnswer:
    """What a tool hands its model: ``parts`` (the agent view text, then images or PDFs, or the
    error message alone), the ``result`` read (None when the read failed) and ``error``."""

    parts: list[Part]
    result: ReadResult | None = None
    error: str = ""

    @property
    def is_error(self) -> bool:
        return self.result is None


def tool_read(
    reader: Reader,
    file_path: str | os.PathLike[str],
    options: Mapping[str, Any],
    model_inputs: Iterable[str],
    *,
    dedupe: bool = False,
    on_unit: UnitHandler | None = None,
) -> ToolAnswer:
    """Read ``file_path`` for a model taking ``model_inputs``: the options it set (None means the
    default), ``view="pdf"`` turned into page images or text when it takes no PDFs (said in a
    note), the agent view rendered and each media part as the model takes it."""
    given, note = view_for_model({k: v for k, v in options.items() if v is not None}, model_inputs)
    try:
        result = reader.read(file_path, dedupe=dedupe, on_unit=on_unit, **given)
        if note:
            result.notes.append(note)
        text = result.render()
    except ReadDocumentError as exc:
        log_handled(exc)  # handled here: the model gets it as an error answer
        return _failed(exc.message)
    except Exception as exc:  # not docread's: a bug or the OS; still an answer, never a raise
        path = os.fspath(file_path)
        error = ExtractionError(
            f"{path}: could not be read ({type(exc).__name__}: {exc})", path=path
        )
        logger.error("%s", error.message, exc_info=exc, extra={"docread_path": path})
        return _failed(error.message)
    return ToolAnswer(answer_parts(text, result.media, model_inputs), result)


async def atool_read(
    reader: Reader,
    file_path: str | os.PathLike[str],
    options: Mapping[str, Any],
    model_inputs: Iterable[str],
    *,
    dedupe: bool = False,
) -> ToolAnswer:
    """``tool_read`` in a worker thread, so the event loop is never blocked."""
    return await asyncio.to_thread(
        tool_read, reader, file_path, options, model_inputs, dedupe=dedupe
    )


def _failed(message: str) -> ToolAnswer:
    return ToolAnswer([Part("text", message)], error=message)
