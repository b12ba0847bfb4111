"""A LangGraph agent that reads documents with docread's ReadDocument tool.

    python examples/langchain_agent.py            # offline: a scripted model makes real tool calls
    ANTHROPIC_API_KEY=... python examples/langchain_agent.py   # a real model (langchain-anthropic)
    OPENAI_API_KEY=...    python examples/langchain_agent.py   # a real model (langchain-openai)

The sample documents (examples/make_samples.py: a PDF with a scanned page, a CSV, a log, a photo)
are generated into a temporary workspace, which is the tool's sandbox: the model can read nothing
outside it. ``--folder`` points the agent at your own folder instead.
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from langchain_core.language_models import BaseChatModel
from langchain_core.messages import AIMessage, BaseMessage, HumanMessage, ToolMessage
from langchain_core.outputs import ChatGeneration, ChatResult
from langgraph.graph import END, START, MessagesState, StateGraph
from langgraph.prebuilt import ToolNode, tools_condition

from langchain_docread import DocReadToolkit, split_tool_media

sys.path.insert(0, str(Path(__file__).parent))
from make_samples import make_media, make_pdfs, make_tables, make_text  # noqa: E402

QUESTION = (
    "How did revenue develop, which product sold most, and what does the scanned invoice say?"
)
SCRIPT = [  # the offline model's tool calls, one turn each (parallel calls in a turn), then an answer
    [{"file_path": "report.pdf", "pages": "1-2"}],
    [
        {"file_path": "sales.csv", "rows": "head:10"},
        {"file_path": "server.log", "offset": 1, "limit": 3},
    ],
    [{"file_path": "report.pdf", "pages": "3", "view": "visual"}, {"file_path": "photo.jpg"}],
]


class ScriptedChatModel(BaseChatModel):
    """An offline chat model: issues the scripted tool calls turn by turn, then answers from the
    tool results it was given (so the whole agent loop runs without a network)."""

    script: list[list[dict[str, Any]]] = SCRIPT
    tool_name: str = "ReadDocument"

    @property
    def _llm_type(self) -> str:
        return "scripted"

    def bind_tools(self, tools: Sequence[Any], **kwargs: Any) -> ScriptedChatModel:
        return self

    def _generate(
        self, messages: list[BaseMessage], stop: Any = None, run_manager: Any = None, **kw: Any
    ) -> ChatResult:
        turn = sum(isinstance(m, AIMessage) for m in messages)
        if turn < len(self.script):
            calls = [
                {
                    "name": self.tool_name,
                    "args": args,
                    "id": f"call_{turn}_{i}",
                    "type": "tool_call",
                }
                for i, args in enumerate(self.script[turn])
            ]
            reply = AIMessage(content="", tool_calls=calls)
        else:
            reply = AIMessage(content=_summarize(messages))
        return ChatResult(generations=[ChatGeneration(message=reply)])


def _summarize(messages: list[BaseMessage]) -> str:
    """The scripted 'answer': what each tool result held (text lines, images seen, errors)."""
    lines = ["Here is what I read:"]
    for m in messages:
        if not isinstance(m, ToolMessage):
            continue
        blocks = [{"type": "text", "text": m.content}] if isinstance(m.content, str) else m.content
        text = " ".join(
            b["text"] for b in blocks if isinstance(b, dict) and b.get("type") == "text"
        )
        images = sum(1 for b in blocks if isinstance(b, dict) and b.get("type") == "image")
        status = (
            "error"
            if m.status == "error"
            else f"{len(m.artifact or [])} document(s), {images} image(s)"
        )
        lines.append(f"- {m.tool_call_id} [{status}]: {' '.join(text.split())[:160]}")
    return "\n".join(lines)


def real_model() -> tuple[BaseChatModel | None, bool]:
    """A provider model when its key is set (and whether it needs media moved out of tool messages)."""
    if os.environ.get("ANTHROPIC_API_KEY"):
        from langchain_anthropic import ChatAnthropic

        return ChatAnthropic(model="claude-sonnet-4-5", max_tokens=1024), False
    if os.environ.get("OPENAI_API_KEY"):
        from langchain_openai import ChatOpenAI

        return ChatOpenAI(
            model="gpt-4.1-mini"
        ), True  # Chat Completions: no images in tool messages
    return None, False


def build_agent(model: BaseChatModel, workspace: str, *, split_media: bool = False) -> Any:
    """agent -> tools -> agent ... until the model stops calling tools."""
    tools = DocReadToolkit(workspace=workspace).get_tools()
    bound = model.bind_tools(tools)

    def agent(state: MessagesState) -> dict[str, list[BaseMessage]]:
        messages = split_tool_media(state["messages"]) if split_media else state["messages"]
        return {"messages": [bound.invoke(messages)]}

    graph = StateGraph(MessagesState)
    graph.add_node("agent", agent)
    graph.add_node("tools", ToolNode(tools))
    graph.add_edge(START, "agent")
    graph.add_conditional_edges("agent", tools_condition, ["tools", END])
    graph.add_edge("tools", "agent")
    return graph.compile()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--offline", action="store_true", help="use the scripted model even if a key is set"
    )
    parser.add_argument("--folder", help="the workspace to read (default: generated samples)")
    parser.add_argument("--question", default=QUESTION)
    args = parser.parse_args(argv)
    model, split = (None, False) if args.offline else real_model()
    with tempfile.TemporaryDirectory(prefix="docread-agent-") as tmp:
        workspace = args.folder or tmp
        if not args.folder:
            for make in (make_text, make_tables, make_pdfs, make_media):
                make(Path(tmp))
        agent = build_agent(model or ScriptedChatModel(), workspace, split_media=split)
        state = agent.invoke({"messages": [HumanMessage(args.question)]})
    for message in state["messages"]:
        if isinstance(message, ToolMessage):
            kinds = [b.get("type") for b in message.content if isinstance(b, dict)]
            print(f"tool {message.tool_call_id}: status={message.status} blocks={kinds}")
    print(state["messages"][-1].content)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
