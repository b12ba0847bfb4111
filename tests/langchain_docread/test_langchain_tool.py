"""ReadDocumentTool: ToolMessages with the agent view text and standard image/file blocks,
artifact Documents, error tool results, model_inputs, split_tool_media (the agent example:
test_langchain_examples.py)."""

from __future__ import annotations

import asyncio
import base64
import pickle
from pathlib import Path
from typing import Any

import pytest
from docread.request.parameters import PARAMETERS
from factories import image_file, pdf, scan_page, text_image
from langchain_core.messages import AIMessage, HumanMessage, ToolMessage
from langchain_core.tools import BaseTool
from langchain_core.utils.function_calling import convert_to_openai_tool

from langchain_docread import (
    DocReadToolkit,
    ReadDocumentInput,
    ReadDocumentTool,
    split_tool_media,
)

ROOT = Path(__file__).resolve().parents[2]
PNG_MAGIC = b"\x89PNG\r\n\x1a\n"


def call(tool: BaseTool, call_id: str = "call_1", **args: object) -> ToolMessage:
    """Invoke the tool the way an agent does: with a ToolCall dict, which yields a ToolMessage."""
    message = tool.invoke({"type": "tool_call", "id": call_id, "name": tool.name, "args": args})
    assert isinstance(message, ToolMessage)
    return message


def write_scanned_pdf(folder: Path) -> Path:
    """A one-page PDF whose only content is an image of text (a scan)."""
    return pdf(folder / "scan.pdf", [scan_page(text_image("INVOICE 4711"))])


@pytest.fixture
def tool(tmp_path: Path) -> ReadDocumentTool:
    (tmp_path / "notes.txt").write_text("first line\nsecond line\nthird line\n", encoding="utf-8")
    return ReadDocumentTool(workspace=str(tmp_path), config={"cache": {"enabled": False}})


def test_text_read_returns_numbered_view_and_documents(tool: ReadDocumentTool) -> None:
    message = call(tool, file_path="notes.txt", offset=2, limit=1)
    assert message.status == "success" and message.name == "ReadDocument"
    assert message.content == [
        {
            "type": "text",
            "text": "     2\tsecond line\n\n[Showing lines 2-2 of 3. Use offset=3 to read more.]",
        }
    ]
    [doc] = message.artifact
    assert doc.page_content == "second line"
    assert doc.metadata["source"] == "notes.txt" and doc.metadata["line_start"] == 2
    assert doc.id


def test_png_gives_text_and_an_image_block(tool: ReadDocumentTool, tmp_path: Path) -> None:
    image_file(tmp_path / "red.png")
    message = call(tool, file_path="red.png")
    text, image = message.content
    assert text["type"] == "text" and "64 x 48" in text["text"]
    assert image.keys() == {"type", "base64", "mime_type"}
    assert image["type"] == "image" and image["mime_type"] == "image/png"
    assert base64.b64decode(image["base64"]) == (tmp_path / "red.png").read_bytes()


def test_scanned_page_in_visual_view_is_an_image_block(
    tool: ReadDocumentTool, tmp_path: Path
) -> None:
    write_scanned_pdf(tmp_path)
    message = call(tool, file_path="scan.pdf", view="visual")
    assert message.status == "success"
    images = [b for b in message.content if b["type"] == "image"]
    assert len(images) == 1
    assert images[0]["mime_type"] in {"image/png", "image/jpeg"}
    assert len(base64.b64decode(images[0]["base64"])) > 1000
    assert "Pages:** 1 of 1" in message.content[0]["text"]


def test_scanned_page_text_view_is_ocr_text_only(tool: ReadDocumentTool, tmp_path: Path) -> None:
    write_scanned_pdf(tmp_path)
    message = call(tool, file_path="scan.pdf")
    assert [b["type"] for b in message.content] == ["text"]
    assert "INVOICE 4711" in message.content[0]["text"]
    assert message.artifact[0].metadata["page"] == 0


def test_without_image_input_media_are_described_in_text(tmp_path: Path) -> None:
    image_file(tmp_path / "red.png", (120, 80))
    tool = ReadDocumentTool(workspace=str(tmp_path), model_inputs=frozenset({"text"}))
    message = call(tool, file_path="red.png")
    assert [b["type"] for b in message.content] == ["text", "text"]
    assert message.content[1]["text"].startswith("[Image file: red.png, ")
    assert message.content[1]["text"].endswith(", 120x80; not sent: this model takes no images]")


def test_raw_pdf_is_sent_only_when_the_model_takes_pdf(tmp_path: Path) -> None:
    write_scanned_pdf(tmp_path)
    default = call(ReadDocumentTool(workspace=str(tmp_path)), file_path="scan.pdf", view="pdf")
    assert [b["type"] for b in default.content] == ["text", "image"]  # page images instead
    assert '"pdf" is not in model_inputs' in default.content[0]["text"]
    with_pdf = ReadDocumentTool(
        workspace=str(tmp_path), model_inputs=frozenset({"text", "image", "pdf"})
    )
    block = call(with_pdf, file_path="scan.pdf", view="pdf").content[-1]
    assert block["type"] == "file" and block["mime_type"] == "application/pdf"
    assert block["filename"] == "scan.pdf"
    assert base64.b64decode(block["base64"]) == (tmp_path / "scan.pdf").read_bytes()


@pytest.mark.parametrize(
    ("args", "expected"),
    [
        pytest.param({"file_path": "missing.txt"}, "missing.txt: no such file", id="missing-file"),
        pytest.param({"file_path": "notes.txt", "pages": "9-3"}, "9-3", id="reversed-pages"),
        pytest.param(
            {"file_path": "../outside.txt"}, "outside the workspace", id="outside-workspace"
        ),
        pytest.param(
            {"file_path": "notes.txt", "offset": 0},
            "offset: Input should be greater",
            id="bad-offset",
        ),
        pytest.param(
            {"file_path": "notes.txt", "view": "3d"}, "view: Input should be", id="bad-view"
        ),
        pytest.param({"path": "notes.txt"}, "file_path: Field required", id="wrong-argument-name"),
    ],
)
def test_bad_calls_become_error_tool_results(
    tool: ReadDocumentTool, args: dict, expected: str
) -> None:
    message = call(tool, **args)
    assert message.status == "error"
    assert expected in message.content


async def test_a_read_raising_a_foreign_error_is_an_error_result() -> None:
    """/proc/self/mem fails with a raw OSError (EIO) inside the read, sync and async alike."""
    tool = ReadDocumentTool(workspace="/", config={"cache": {"enabled": False}})
    message = call(tool, file_path="/proc/self/mem")
    assert message.status == "error" and "/proc/self/mem" in message.content
    call_ = {
        "type": "tool_call",
        "id": "2",
        "name": tool.name,
        "args": {"file_path": "/proc/self/mem"},
    }
    message = await tool.ainvoke(call_)
    assert message.status == "error" and "/proc/self/mem" in message.content


async def test_async_read_runs_off_the_event_loop(tool: ReadDocumentTool, gate_reads: Any) -> None:
    ticker = gate_reads(tool.reader)
    call = {"type": "tool_call", "id": "a1", "name": tool.name, "args": {"file_path": "notes.txt"}}
    message, _ = await asyncio.wait_for(asyncio.gather(tool.ainvoke(call), ticker()), 10)
    assert message.status == "success"
    assert "second line" in message.content[0]["text"] and len(message.artifact) == 1
    error = await tool.ainvoke(
        {"type": "tool_call", "id": "a2", "name": tool.name, "args": {"file_path": "nope"}}
    )
    assert error.status == "error"


def test_schema_seen_by_the_model_has_the_design_parameters(tool: ReadDocumentTool) -> None:
    spec = convert_to_openai_tool(tool)["function"]
    assert spec["name"] == "ReadDocument"
    params = spec["parameters"]["properties"]
    for name in (
        "file_path",
        "offset",
        "limit",
        "pages",
        "rows",
        "columns",
        "sheet",
        "mode",
        "archive_path",
        "view",
    ):
        assert params[name]["description"]
    assert spec["parameters"]["required"] == ["file_path"]
    assert "pages" in spec["description"] and "archive" in spec["description"]
    assert "at most 100 PDF pages of text" in spec["description"]
    strict = ReadDocumentTool(config={"pdf": {"max_pages_text": 7}, "output": {"max_chars": 9000}})
    assert (
        "at most 7 PDF pages" in strict.description
        and "cut at 9,000 characters" in strict.description
    )
    assert ReadDocumentTool(description="Read files.").description == "Read files."


def test_repeated_reads_are_full_unless_dedupe_is_on(
    tool: ReadDocumentTool, tmp_path: Path
) -> None:
    first, again = call(tool, file_path="notes.txt"), call(tool, file_path="notes.txt")
    assert again.content == first.content and "second line" in again.content[0]["text"]
    deduping = ReadDocumentTool(workspace=str(tmp_path), dedupe=True)
    assert "second line" in call(deduping, file_path="notes.txt").content[0]["text"]
    stub = call(deduping, file_path="notes.txt").content[0]["text"]
    assert "unchanged since the last read" in stub and "second line" not in stub
    deduping.forget()
    assert "second line" in call(deduping, file_path="notes.txt").content[0]["text"]


def test_toolkit_and_custom_name(tmp_path: Path) -> None:
    (tmp_path / "a.txt").write_text("hello", encoding="utf-8")
    [tool] = DocReadToolkit(workspace=str(tmp_path)).get_tools()
    assert isinstance(tool, ReadDocumentTool)
    assert "hello" in call(tool, file_path="a.txt").content[0]["text"]
    renamed = ReadDocumentTool(name="read_file", workspace=str(tmp_path))
    assert call(renamed, file_path="a.txt").name == "read_file"


def test_split_tool_media_moves_images_after_the_tool_run(
    tool: ReadDocumentTool, tmp_path: Path
) -> None:
    image_file(tmp_path / "red.png")
    ai = AIMessage(
        content="", tool_calls=[{"name": "ReadDocument", "args": {}, "id": i} for i in ("c1", "c2")]
    )
    image_result = call(tool, "c1", file_path="red.png")
    text_result = call(tool, "c2", file_path="notes.txt")
    out = split_tool_media([HumanMessage("hi"), ai, image_result, text_result])
    assert [type(m).__name__ for m in out] == [
        "HumanMessage",
        "AIMessage",
        "ToolMessage",
        "ToolMessage",
        "HumanMessage",
    ]
    assert [b["type"] for b in out[2].content] == ["text", "text"]
    assert "1 attachment(s)" in out[2].content[-1]["text"]
    assert out[2].tool_call_id == "c1" and out[2].artifact == image_result.artifact
    assert out[3] is text_result
    assert [b["type"] for b in out[4].content] == ["text", "image"]
    assert split_tool_media([HumanMessage("hi"), text_result]) == [HumanMessage("hi"), text_result]


def test_unknown_model_input_is_refused(tmp_path) -> None:
    with pytest.raises(ValueError, match="model_inputs: unknown kind"):  # pydantic wraps it
        ReadDocumentTool(workspace=str(tmp_path), model_inputs=frozenset({"text", "video"}))


def test_schema_is_the_shared_parameter_table(tool: ReadDocumentTool) -> None:
    params = convert_to_openai_tool(tool)["function"]["parameters"]
    assert list(params["properties"]) == [p.name for p in PARAMETERS]
    assert params["properties"]["offset"]["anyOf"][0]["minimum"] == 1
    assert ReadDocumentInput.model_json_schema()["additionalProperties"] is False
    assert "extract_tables" in params["properties"] and "ocr" in params["properties"]


def test_path_workspace_is_accepted(tmp_path: Path) -> None:
    (tmp_path / "a.txt").write_text("hello", encoding="utf-8")
    tool = ReadDocumentTool(workspace=tmp_path)
    assert tool.workspace == str(tmp_path)
    assert "hello" in call(tool, file_path="a.txt").content[0]["text"]
    [kit_tool] = DocReadToolkit(workspace=tmp_path).get_tools()
    assert "hello" in call(kit_tool, file_path="a.txt").content[0]["text"]


def test_tool_and_toolkit_pickle_and_read_after(tmp_path: Path) -> None:
    (tmp_path / "a.txt").write_text("hello", encoding="utf-8")
    tool = ReadDocumentTool(workspace=str(tmp_path), dedupe=True)
    call(tool, file_path="a.txt")  # the original's read log must not matter to the copy
    copy = pickle.loads(pickle.dumps(tool))
    assert copy.dedupe and copy.description == tool.description
    assert "hello" in call(copy, file_path="a.txt").content[0]["text"]
    assert "unchanged since the last read" in call(copy, file_path="a.txt").content[0]["text"]
    kit = pickle.loads(pickle.dumps(DocReadToolkit(workspace=str(tmp_path))))
    assert "hello" in call(kit.get_tools()[0], file_path="a.txt").content[0]["text"]


def test_the_schema_offers_the_outline_and_section_reads(
    tool: ReadDocumentTool, tmp_path: Path
) -> None:
    """issue 36: ``view`` lists "outline", a ``section`` parameter says what it takes, and a
    model reads a long file by its sections: the outline, then one section by id."""
    spec = convert_to_openai_tool(tool)["function"]
    params = spec["parameters"]["properties"]
    assert "outline" in params["view"]["enum"] and "section=" in params["view"]["description"]
    assert 'view="outline"' in params["section"]["description"]
    assert "heading text" in params["section"]["description"]
    assert 'view="outline"' in spec["description"] and 'section="s12"' in spec["description"]
    (tmp_path / "guide.md").write_text(
        "# Guide\n\nIntro.\n\n## Install\n\nRun it.\n\n## Use\n\nCall it.\n"
    )
    outline = call(tool, file_path="guide.md", view="outline").content[0]["text"]
    assert "s2  Install  (lines 5-8, ~" in outline
    section = call(tool, file_path="guide.md", section="s2").content[0]["text"]
    assert "## Install" in section and "Run it." in section and "## Use" not in section


# -- validation errors -----------------------------------------------------------------------------
def test_validation_error_text_takes_pydantic_v1_errors_as_base_tool_may_pass() -> None:
    # BaseTool.handle_validation_error is called with v2 or v1 ValidationErrors
    from pydantic.v1 import BaseModel as BaseModelV1
    from pydantic.v1 import ValidationError as ValidationErrorV1

    from langchain_docread.tool import ReadDocumentTool, describe_validation_error

    class Args(BaseModelV1):
        offset: int

    try:
        Args(offset="x")
    except ValidationErrorV1 as exc:
        text = describe_validation_error(exc)
    assert text.startswith("Invalid ReadDocument arguments: offset: ")
    assert ReadDocumentTool().handle_validation_error is describe_validation_error
