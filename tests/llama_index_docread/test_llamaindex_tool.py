"""DocReadToolSpec: block types of tool outputs (text, image, document), model_inputs, error
outputs instead of raises, the tool inside a FunctionAgent loop, and both examples offline."""

from __future__ import annotations

import asyncio
import base64
import dataclasses
import pickle
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

import docread
import pytest
from docread.request.options import ReadOptions
from docread.request.parameters import PARAMETERS
from factories import code, display_png, image_bytes, markdown, notebook, pdf, stream
from readme_blocks import Forks, imported

# LlamaIndex is imported by the tests that use it, not at collection (~2.5 s of CPU in every
# pytest process, each xdist worker)
if TYPE_CHECKING:
    from llama_index.core.tools import FunctionTool

ROOT = Path(__file__).resolve().parents[2]


def read_tool(workspace: Path, **kwargs: object) -> FunctionTool:
    """The read_document tool of a spec sandboxed to ``workspace``."""
    from llama_index_docread import DocReadToolSpec

    tools = DocReadToolSpec(
        workspace, config={"cache": {"enabled": False}}, **kwargs
    ).to_tool_list()
    assert [t.metadata.name for t in tools] == ["read_document"]
    return tools[0]


def test_schema_has_the_design_parameters_with_descriptions(tmp_path: Path) -> None:
    meta = read_tool(tmp_path).metadata
    params = meta.get_parameters_dict()
    props = params["properties"]
    for name in ("file_path", "offset", "limit", "pages", "rows", "columns", "sheet", "mode",
                 "archive_path", "pattern", "include_metadata", "format_hint", "output_format", "view"):  # fmt: skip
        assert name in props and props[name].get("description"), name
    assert params["required"] == ["file_path"]
    assert (
        "pages" in meta.description and "read_document(" not in meta.description
    )  # no signature dump


def test_text_file_gives_one_text_block_with_numbered_lines(tmp_path: Path) -> None:
    from llama_index.core.base.llms.types import TextBlock

    (tmp_path / "notes.txt").write_text("alpha\nbeta\ngamma\n", encoding="utf-8")
    out = read_tool(tmp_path).call(file_path="notes.txt", offset=2, limit=1)
    assert not out.is_error
    assert [type(b) for b in out.blocks] == [TextBlock]
    assert "2\tbeta" in out.content and "alpha" not in out.content


def test_png_gives_text_and_image_blocks(tmp_path: Path) -> None:
    from llama_index.core.base.llms.types import ImageBlock, TextBlock

    (tmp_path / "logo.png").write_bytes(image_bytes((8, 5)))
    out = read_tool(tmp_path).call(file_path="logo.png")
    assert not out.is_error
    assert [type(b) for b in out.blocks] == [TextBlock, ImageBlock]
    image = out.blocks[1]
    assert image.image_mimetype == "image/png"
    assert base64.b64decode(image.image) == image_bytes((8, 5))


def test_without_image_input_media_are_described_in_text(tmp_path: Path) -> None:
    from llama_index.core.base.llms.types import TextBlock

    (tmp_path / "logo.png").write_bytes(image_bytes((8, 5)))
    out = read_tool(tmp_path, model_inputs={"text"}).call(file_path="logo.png")
    assert [type(b) for b in out.blocks] == [TextBlock, TextBlock]
    assert out.blocks[1].text.startswith("[Image file: logo.png,")
    assert "takes no images" in out.blocks[1].text


def plotted_notebook(path: Path) -> Path:
    """A markdown cell, a printing cell and a cell whose output is a PNG plot."""
    return notebook(path, [
        markdown("# Revenue notes\nQuarterly revenue rose."),
        code("print(6 * 7)", stream("42\n"), count=1),
        code("plot()", display_png(image_bytes((6, 4))), count=2),
    ])  # fmt: skip


def test_notebook_plot_comes_back_as_an_image_block(tmp_path: Path) -> None:
    from llama_index.core.base.llms.types import ImageBlock

    plotted_notebook(tmp_path / "analysis.ipynb")
    out = read_tool(tmp_path).call(file_path="analysis.ipynb")
    assert "Quarterly revenue rose." in out.blocks[0].text
    images = [b for b in out.blocks if isinstance(b, ImageBlock)]
    assert len(images) == 1 and images[0].image_mimetype == "image/png"


def test_pdf_view_pdf_is_a_document_block_only_when_the_model_takes_pdfs(tmp_path: Path) -> None:
    from llama_index.core.base.llms.types import DocumentBlock, ImageBlock

    pdf(tmp_path / "topics.pdf", ["Page 1 talks about topic 1.", "Page 2 talks about topic 2."])
    out = read_tool(tmp_path, model_inputs={"text", "image", "pdf"}).call(
        file_path="topics.pdf", view="pdf"
    )
    docs = [b for b in out.blocks if isinstance(b, DocumentBlock)]
    assert len(docs) == 1
    assert docs[0].document_mimetype == "application/pdf" and docs[0].title == "topics.pdf"
    assert base64.b64decode(docs[0].data) == (tmp_path / "topics.pdf").read_bytes()
    out = read_tool(tmp_path).call(file_path="topics.pdf", view="pdf")
    assert not any(isinstance(b, DocumentBlock) for b in out.blocks)
    assert len([b for b in out.blocks if isinstance(b, ImageBlock)]) == 2  # page images instead
    assert '"pdf" is not in model_inputs' in out.blocks[0].text


def test_pdf_visual_view_returns_page_images(tmp_path: Path) -> None:
    from llama_index.core.base.llms.types import ImageBlock

    pdf(tmp_path / "topics.pdf", [f"Page {n} talks about topic {n}." for n in (1, 2, 3)])
    out = read_tool(tmp_path).call(file_path="topics.pdf", pages="2", view="visual")
    images = [b for b in out.blocks if isinstance(b, ImageBlock)]
    assert len(images) == 1 and images[0].image_mimetype in ("image/jpeg", "image/png")


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        pytest.param({"file_path": "missing.txt"}, "no such file", id="missing-file"),
        pytest.param({"file_path": "notes.txt", "pages": "9-3"}, "pages", id="bad-page-range"),
        pytest.param(
            {"file_path": "../outside.txt"}, "outside the workspace", id="outside-workspace"
        ),
        pytest.param({"file_path": "notes.txt", "view": "hologram"}, "view", id="bad-view"),
    ],
)
def test_failures_are_error_outputs_not_exceptions(
    tmp_path: Path, kwargs: dict[str, object], message: str
) -> None:
    from llama_index.core.base.llms.types import TextBlock

    (tmp_path / "notes.txt").write_text("alpha\n", encoding="utf-8")
    out = read_tool(tmp_path).call(**kwargs)
    assert out.is_error
    assert [type(b) for b in out.blocks] == [TextBlock]
    assert out.content.startswith("Error: ") and message in out.content


async def test_async_call_is_an_error_output_too(tmp_path: Path) -> None:
    out = await read_tool(tmp_path).acall(file_path="missing.txt")
    assert out.is_error and "no such file" in out.content


async def test_a_read_raising_a_foreign_error_is_an_error_output() -> None:
    """/proc/self/mem fails with a raw OSError (EIO) inside the read, sync and async alike."""
    tool = read_tool(Path("/"))
    for out in (
        tool.call(file_path="/proc/self/mem"),
        await tool.acall(file_path="/proc/self/mem"),
    ):
        assert out.is_error and out.content.startswith("Error: /proc/self/mem")


async def test_async_read_runs_off_the_event_loop(tmp_path: Path, gate_reads: Any) -> None:
    from llama_index_docread import DocReadToolSpec

    (tmp_path / "notes.txt").write_text("alpha\n", encoding="utf-8")
    spec = DocReadToolSpec(tmp_path)
    ticker = gate_reads(spec.reader)
    [tool] = spec.to_tool_list()
    out, _ = await asyncio.wait_for(asyncio.gather(tool.acall(file_path="notes.txt"), ticker()), 10)
    assert not out.is_error and "alpha" in out.content


def test_repeated_calls_are_full_unless_dedupe_is_on(tmp_path: Path) -> None:
    from llama_index_docread import DocReadToolSpec

    (tmp_path / "notes.txt").write_text("alpha\n", encoding="utf-8")
    tool = read_tool(tmp_path)
    first, again = tool.call(file_path="notes.txt"), tool.call(file_path="notes.txt")
    assert again.content == first.content and "alpha" in again.content
    spec = DocReadToolSpec(tmp_path, dedupe=True)
    [deduping] = spec.to_tool_list()
    assert "alpha" in deduping.call(file_path="notes.txt").content
    stub = deduping.call(file_path="notes.txt").content
    assert "unchanged since the last read" in stub and "alpha" not in stub
    spec.forget()
    assert "alpha" in deduping.call(file_path="notes.txt").content


def test_spec_pickles_and_reads_after(tmp_path: Path) -> None:
    from llama_index_docread import DocReadToolSpec

    (tmp_path / "notes.txt").write_text("alpha\n", encoding="utf-8")
    spec = DocReadToolSpec(tmp_path, model_inputs={"text"}, dedupe=True)
    spec.read_document("notes.txt")
    copy = pickle.loads(pickle.dumps(spec))
    assert copy.dedupe and copy.model_inputs == spec.model_inputs
    [tool] = copy.to_tool_list()
    assert "alpha" in tool.call(file_path="notes.txt").content  # a fresh read log


def test_schema_is_the_shared_parameter_table(tmp_path: Path) -> None:
    schema = read_tool(tmp_path).metadata.fn_schema.model_json_schema()
    assert list(schema["properties"]) == [p.name for p in PARAMETERS]
    assert schema["properties"]["offset"]["anyOf"][0]["minimum"] == 1
    assert schema["additionalProperties"] is False
    description = read_tool(tmp_path).metadata.description
    assert "at most 100 PDF pages of text" in description


def test_parameter_table_matches_read_options() -> None:
    fields = {f.name: f for f in dataclasses.fields(ReadOptions)}
    assert [p.name for p in PARAMETERS] == list(fields)
    for p in PARAMETERS:
        assert p.required or p.default == fields[p.name].default, p.name
        if p.minimum is not None:
            ReadOptions(**{p.name: p.minimum})
            with pytest.raises(docread.InvalidOptionError, match=p.name):
                ReadOptions(**{p.name: p.minimum - 1})
        for choice in p.choices or ():
            ReadOptions(**{p.name: choice})
        if p.choices:
            with pytest.raises(docread.InvalidOptionError, match=p.name):
                ReadOptions(**{p.name: "no-such-choice"})


def test_unknown_model_input_is_refused() -> None:
    from llama_index_docread import DocReadToolSpec

    with pytest.raises(docread.InvalidOptionError, match="audio"):
        DocReadToolSpec(model_inputs={"text", "audio"})


async def test_function_agent_passes_image_blocks_to_the_model(tmp_path: Path) -> None:
    from llama_index.core.agent.workflow import FunctionAgent
    from llama_index.core.base.llms.types import ChatMessage, MessageRole, ToolCallBlock
    from llama_index.core.llms.mock import MockFunctionCallingLLMWithChatMemoryOfLastCall

    from llama_index_docread import DocReadToolSpec

    plotted_notebook(tmp_path / "analysis.ipynb")

    def script(messages: list[ChatMessage], **kwargs: object) -> ChatMessage:
        if not any(m.role == MessageRole.TOOL for m in messages):
            call = ToolCallBlock(
                tool_call_id="c1",
                tool_name="read_document",
                tool_kwargs={"file_path": "analysis.ipynb"},
            )
            return ChatMessage(role=MessageRole.ASSISTANT, blocks=[call])
        return ChatMessage(role=MessageRole.ASSISTANT, content="done")

    llm = MockFunctionCallingLLMWithChatMemoryOfLastCall(response_generator=script)
    agent = FunctionAgent(tools=DocReadToolSpec(tmp_path).to_tool_list(), llm=llm)
    result = await agent.run(user_msg="what does the plot show?")
    assert str(result) == "done"
    tool_msgs = [m for m in llm.last_chat_messages if m.role == MessageRole.TOOL]
    assert len(tool_msgs) == 1
    assert [b.block_type for b in tool_msgs[0].blocks] == ["text", "image"]
    assert "Quarterly revenue rose." in tool_msgs[0].content


EXAMPLES = ("llamaindex_agent.py", "llamaindex_ingestion.py")


def offline_env(home: Path) -> dict[str, str]:
    """What the examples run with: a bare PATH, a fresh HOME and TMPDIR, this checkout."""
    return {
        "PATH": "/usr/bin:/bin",
        "HOME": str(home),
        "TMPDIR": str(home),
        "PYTHONPATH": str(ROOT),
    }


@pytest.fixture(scope="module")
def example_forks(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Forks]:
    """One interpreter that imported the examples' LlamaIndex stack (~2 s of CPU) and forks a
    process per run of one (``readme_blocks.Forks``), instead of each importing it again."""
    modules = {
        name for script in EXAMPLES for name in imported((ROOT / "examples" / script).read_text())
    }
    server = Forks(
        tmp_path_factory.mktemp("forks"), modules, offline_env(tmp_path_factory.mktemp("home"))
    )
    yield server
    server.close()


@pytest.mark.parametrize("script", EXAMPLES)
def test_examples_run_offline(script: str, tmp_path: Path, example_forks: Forks) -> None:
    """``python -W ignore::FutureWarning examples/SCRIPT`` in a fresh folder and HOME."""
    proc = example_forks.script(
        ROOT / "examples" / script, cwd=tmp_path, env=offline_env(tmp_path),
        warnings=["ignore::FutureWarning"], timeout=180,
    )  # fmt: skip
    assert proc.returncode == 0, proc.stderr[-2000:]
    if script == "llamaindex_agent.py":
        assert "blocks ['text', 'image']" in proc.stdout
        assert "Revenue grew 12%" in proc.stdout.split("A:", 1)[1]
    else:
        assert "re-ingesting the same documents adds 0 nodes" in proc.stdout
        assert "Revenue grew" in proc.stdout
        assert "1,250 EUR" in proc.stdout and "[report.pdf p.3]" in proc.stdout  # OCR'd page, cited
        assert "[sales.xlsx sheet Q4_Sales rows 1-4]" in proc.stdout


def test_the_schema_offers_the_outline_and_section_reads(tmp_path: Path) -> None:
    """issue 36: ``view`` lists "outline", ``section`` is described, and the tool reads by them."""
    tool = read_tool(tmp_path)
    props = tool.metadata.get_parameters_dict()["properties"]
    view = props["view"]
    assert "outline" in str(view) and "section=" in view["description"]
    assert 'view="outline"' in props["section"]["description"]
    (tmp_path / "guide.md").write_text("# Guide\n\n## Install\n\nRun it.\n\n## Use\n\nCall it.\n")
    assert "s2  Install" in tool.call(file_path="guide.md", view="outline").content
    out = tool.call(file_path="guide.md", section="install")
    assert not out.is_error and "Run it." in out.content and "Call it." not in out.content
    bad = tool.call(file_path="guide.md", section="Nothing like it")
    assert bad.is_error and "view='outline' lists them all" in bad.content
