"""A LlamaIndex FunctionAgent that reads documents with DocReadToolSpec.

    python examples/llamaindex_agent.py                  # offline: a scripted model, real tool calls
    OPENAI_API_KEY=... python examples/llamaindex_agent.py --question "Summarise report.pdf"

Offline (the default, and whenever no key or provider package is present) the model is
``ScriptedLLM``: it issues real tool calls through the agent loop (the PDF's first page, then the
notebook, whose plot comes back as an ImageBlock) and answers from what the tools returned. With
OPENAI_API_KEY set and llama-index-llms-openai installed, ``OpenAIResponses`` is used: the
Responses API keeps images inside tool results (Chat Completions drops them).
"""

from __future__ import annotations

import argparse
import asyncio
import os
import sys
import tempfile
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from llama_index.core.agent.workflow import FunctionAgent, ToolCallResult
from llama_index.core.base.llms.types import ChatMessage, MessageRole, ToolCallBlock
from llama_index.core.llms.llm import LLM
from llama_index.core.llms.mock import MockFunctionCallingLLM

from llama_index_docread import DocReadToolSpec

sys.path.insert(0, str(Path(__file__).parent))
from make_samples import make_notebook, make_pdfs  # noqa: E402

QUESTION = "How much did revenue grow, and what does the sales notebook plot show?"
#: The offline model's plan: one tool call per step, then an answer from the results.
SCRIPT = (
    {"file_path": "report.pdf", "pages": "1"},
    {"file_path": "analysis.ipynb"},
)


def scripted_turn(messages: Sequence[ChatMessage], **kwargs: Any) -> ChatMessage:
    """The next assistant message: the next scripted tool call, or the final answer."""
    results = [m for m in messages if m.role == MessageRole.TOOL]
    if len(results) < len(SCRIPT):
        call = ToolCallBlock(
            tool_call_id=f"call_{len(results) + 1}",
            tool_name="read_document",
            tool_kwargs=SCRIPT[len(results)],
        )
        return ChatMessage(role=MessageRole.ASSISTANT, blocks=[call])
    pdf_text = results[0].content or ""
    revenue = next(
        (line.strip() for line in pdf_text.splitlines() if "Revenue" in line), "(not found)"
    )
    images = sum(1 for b in results[1].blocks if b.block_type == "image")
    return ChatMessage(
        role=MessageRole.ASSISTANT,
        content=f"report.pdf page 1 says: {revenue} The notebook returned {images} plot image(s).",
    )


class ScriptedLLM(MockFunctionCallingLLM):
    """An offline function-calling model that follows SCRIPT (no network, deterministic)."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(response_generator=scripted_turn, **kwargs)


def pick_llm() -> LLM:
    """OpenAIResponses when a key and the provider package are present, else ScriptedLLM."""
    if os.environ.get("OPENAI_API_KEY"):
        try:
            from llama_index.llms.openai import OpenAIResponses
        except ImportError:
            print(
                "(OPENAI_API_KEY is set but llama-index-llms-openai is not installed: offline model)"
            )
        else:
            return OpenAIResponses(model=os.environ.get("DOCREAD_MODEL", "gpt-4.1-mini"))
    return ScriptedLLM()


async def run(folder: Path, question: str, llm: LLM) -> str:
    """One agent run over ``folder``; prints each tool call and the block types it returned."""
    tools = DocReadToolSpec(workspace=folder).to_tool_list()
    agent = FunctionAgent(
        tools=tools,
        llm=llm,
        system_prompt="Answer from the files in the workspace; read them with read_document and cite pages.",
    )
    handler = agent.run(user_msg=question)
    async for event in handler.stream_events():
        if isinstance(event, ToolCallResult):
            kinds = [b.block_type for b in event.tool_output.blocks]
            status = "error" if event.tool_output.is_error else "ok"
            print(f"tool {event.tool_name}({event.tool_kwargs}) -> {status}, blocks {kinds}")
    return str(await handler)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--folder", help="workspace folder (default: generated sample documents)")
    parser.add_argument("--question", default=QUESTION)
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="docread-agent-") as tmp:
        folder = Path(args.folder) if args.folder else Path(tmp)
        if not args.folder:  # only the two samples the script reads
            make_pdfs(folder)
            make_notebook(folder)
        print(f"Q: {args.question}")
        print(f"A: {asyncio.run(run(folder, args.question, pick_llm()))}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
