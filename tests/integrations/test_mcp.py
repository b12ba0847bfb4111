"""docread mcp: the read_document tool over MCP, in process (the SDK's Client on the server
object) and as a real ``docread mcp`` subprocess over stdio; plus the core hook it stands on
(``Reader.read(on_unit=...)`` stopping a read)."""

from __future__ import annotations

import base64
import contextlib
import importlib.util
import io
import os
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

import anyio
import docread
import httpx
import pytest
from conftest import CliHere
from factories import image_file, pdf, scan_page, text_image, zip_archive

if TYPE_CHECKING:
    from docread.integrations.mcp_server import ReadDocumentServer
    from mcp import types

# the [mcp] extra (installed in the dev environment); the SDK itself is imported by the tests
# that use it, not at collection (1.7 s of CPU in every pytest process)
if importlib.util.find_spec("mcp") is None:
    pytest.skip("the MCP SDK is not installed: pip install 'docread[mcp]'", allow_module_level=True)


ROOT = Path(__file__).resolve().parents[2]
SCANNED_PAGES = 20
NO_CACHE = {"cache": {"enabled": False}}


def make_workspace(root: Path) -> Path:
    """A workspace with a text file, a 3-page PDF, a PNG, a zip bomb, a 20-page scanned PDF and
    a tar to extract; plus a secret file next to (outside) it."""
    ws = root / "ws"
    ws.mkdir()
    (root / "secret.txt").write_text("top secret\n", encoding="utf-8")
    (ws / "notes.txt").write_text("first line\nsecond line\n", encoding="utf-8")
    pdf(ws / "report.pdf", [f"Quarterly page {n}" for n in (1, 2, 3)])
    image_file(ws / "pic.png")
    zip_archive(ws / "bomb.zip", {"zeros.bin": b"\0" * (20 * 1024 * 1024)})
    zip_archive(ws / "bundle.zip", {"src/main.py": b"print('hello')\n"})
    pdf(ws / "scan.pdf", [scan_page(text_image("INVOICE 4711"))] * SCANNED_PAGES)
    return ws


@pytest.fixture(scope="module")
def workspace(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return make_workspace(tmp_path_factory.mktemp("mcp"))


@pytest.fixture(scope="module")
def app(workspace: Path) -> Iterator[ReadDocumentServer]:
    from docread.integrations.mcp_server import ReadDocumentServer

    server = ReadDocumentServer(str(workspace), NO_CACHE)
    yield server
    server.close()


def text_of(result: types.CallToolResult) -> str:
    from mcp import types

    first = result.content[0]
    assert isinstance(first, types.TextContent)
    return first.text


# -- in process ------------------------------------------------------------------------------
async def test_lists_one_read_only_tool_with_the_langchain_schema(app: ReadDocumentServer) -> None:
    from docread.integrations.mcp_server import TOOL_NAME
    from mcp import Client

    async with Client(app.server) as client:
        [tool] = (await client.list_tools()).tools
    assert tool.name == TOOL_NAME
    assert tool.annotations is not None and tool.annotations.read_only_hint is True
    assert tool.input_schema["required"] == ["file_path"]
    assert tool.input_schema["additionalProperties"] is False
    lc = pytest.importorskip("langchain_docread")
    langchain = lc.ReadDocumentInput.model_json_schema()["properties"]
    assert tool.input_schema["properties"] == langchain  # names, types, descriptions, defaults
    assert tool.description is not None
    assert tool.description.startswith(
        lc.ReadDocumentTool(workspace=str(app.reader.workspace.root)).description
    )


@pytest.mark.parametrize("mode", ["auto", "legacy"])
async def test_reads_pdf_pages_as_text_with_progress(app: ReadDocumentServer, mode: str) -> None:
    from docread.integrations.mcp_server import TOOL_NAME
    from mcp import Client

    seen: list[tuple[float, str | None]] = []

    async def progress(done: float, total: float | None, message: str | None) -> None:
        seen.append((done, message))

    async with Client(app.server, mode=mode) as client:
        result = await client.call_tool(
            TOOL_NAME, {"file_path": "report.pdf", "pages": "2-3"}, progress_callback=progress
        )
    assert not result.is_error and len(result.content) == 1
    text = text_of(result)
    assert "Quarterly page 2" in text and "Quarterly page 3" in text
    assert "Quarterly page 1" not in text
    assert [done for done, _ in seen] == [1, 2]  # one notification per page read


async def test_image_is_image_content(app: ReadDocumentServer) -> None:
    from docread.integrations.mcp_server import TOOL_NAME
    from mcp import Client, types
    from PIL import Image

    async with Client(app.server) as client:
        result = await client.call_tool(TOOL_NAME, {"file_path": "pic.png"})
    assert not result.is_error
    text, image = result.content
    assert isinstance(text, types.TextContent) and "64 x 48" in text.text
    assert isinstance(image, types.ImageContent) and image.mime_type == "image/png"
    with Image.open(io.BytesIO(base64.b64decode(image.data))) as picture:
        picture.load()
        assert picture.size == (64, 48) and picture.format == "PNG"


async def test_raw_pdf_is_an_embedded_blob_only_when_the_model_takes_pdf(
    app: ReadDocumentServer, workspace: Path
) -> None:
    from docread.integrations.mcp_server import TOOL_NAME, ReadDocumentServer
    from mcp import Client, types

    async with Client(app.server) as client:
        result = await client.call_tool(TOOL_NAME, {"file_path": "report.pdf", "view": "pdf"})
    assert not result.is_error  # a model that takes no PDFs gets the pages as images
    assert [type(c) for c in result.content] == [types.TextContent] + [types.ImageContent] * 3
    assert "this model takes no PDF files" in text_of(result)
    takes_pdf = ReadDocumentServer(str(workspace), NO_CACHE, model_inputs={"text", "image", "pdf"})
    try:
        async with Client(takes_pdf.server) as client:
            result = await client.call_tool(TOOL_NAME, {"file_path": "report.pdf", "view": "pdf"})
    finally:
        takes_pdf.close()
    [blob] = [c for c in result.content if isinstance(c, types.EmbeddedResource)]
    assert isinstance(blob.resource, types.BlobResourceContents)
    assert blob.resource.mime_type == "application/pdf"
    assert base64.b64decode(blob.resource.blob) == (workspace / "report.pdf").read_bytes()


@pytest.mark.parametrize(
    ("args", "expected"),
    [
        pytest.param({"file_path": "../secret.txt"}, "outside the workspace", id="sandbox"),
        pytest.param(
            {"file_path": "bomb.zip", "mode": "read", "archive_path": "zeros.bin"},
            "decompression bomb",
            id="zip-bomb",
        ),
        pytest.param({"file_path": "report.pdf", "pages": "3-1"}, "pages='3-1'", id="bad-pages"),
        pytest.param({"file_path": "notes.txt", "offset": 0}, "offset:", id="bad-offset"),
        pytest.param({"path": "notes.txt"}, "file_path: Field required", id="wrong-name"),
        pytest.param({"file_path": "missing.txt"}, "no such file", id="missing"),
        pytest.param(
            {"file_path": "bundle.zip", "mode": "extract", "archive_path": "src/main.py"},
            None,  # the server's whole EXTRACT_OFF message
            id="extract-off",
        ),
    ],
)
async def test_errors_are_error_results_and_the_server_goes_on(
    app: ReadDocumentServer, args: dict[str, Any], expected: str | None
) -> None:
    from docread.integrations.mcp_server import EXTRACT_OFF, TOOL_NAME
    from mcp import Client

    expected = expected or EXTRACT_OFF
    async with Client(app.server) as client:
        result = await client.call_tool(TOOL_NAME, args)
        assert result.is_error and expected in text_of(result)
        assert "top secret" not in text_of(result)
        again = await client.call_tool(TOOL_NAME, {"file_path": "notes.txt"})
    assert not again.is_error and "second line" in text_of(again)


async def test_a_name_that_is_not_utf8_is_listed_and_read_over_mcp(tmp_path: Path) -> None:
    """A folder holding bad\\xff.txt: the listing is a result (not an error) showing U+FFFD, and
    that name reads the file (it failed the whole call with UnicodeEncodeError)."""
    from docread.integrations.mcp_server import TOOL_NAME, ReadDocumentServer
    from mcp import Client

    (tmp_path / os.fsdecode(b"bad\xff.txt")).write_text("bytes in a name\n")
    server = ReadDocumentServer(str(tmp_path), NO_CACHE)
    try:
        async with Client(server.server) as client:
            listing = await client.call_tool(TOOL_NAME, {"file_path": "."})
            read = await client.call_tool(TOOL_NAME, {"file_path": "bad\ufffd.txt"})
    finally:
        server.close()
    assert not listing.is_error and "bad\ufffd.txt" in text_of(listing)
    assert not read.is_error and "bytes in a name" in text_of(read)


async def test_the_three_agent_tools_answer_one_request_alike(
    app: ReadDocumentServer, workspace: Path
) -> None:
    """LangChain, LlamaIndex and MCP go through one core entry (``tool_call.tool_read``): the
    same request, default model inputs, gives the same kinds of parts in the same order."""
    from docread.integrations.mcp_server import TOOL_NAME
    from llama_index.core.base.llms.types import ImageBlock, TextBlock
    from mcp import Client, types

    from langchain_docread import ReadDocumentTool
    from llama_index_docread import DocReadToolSpec

    args = {"file_path": "report.pdf", "view": "pdf", "pages": "1-2"}
    async with Client(app.server) as client:
        result = await client.call_tool(TOOL_NAME, args)
    over_mcp = [
        {types.TextContent: "text", types.ImageContent: "image"}[type(c)] for c in result.content
    ]
    lc_tool = ReadDocumentTool(workspace=str(workspace), config=NO_CACHE)
    message = lc_tool.invoke({"type": "tool_call", "id": "1", "name": lc_tool.name, "args": args})
    over_langchain = [block["type"] for block in message.content]
    [li_tool] = DocReadToolSpec(workspace, config=NO_CACHE).to_tool_list()
    output = li_tool.call(**args)
    over_llamaindex = [{TextBlock: "text", ImageBlock: "image"}[type(b)] for b in output.blocks]
    assert over_mcp == over_langchain == over_llamaindex == ["text", "image", "image"]
    assert "this model takes no PDF files" in text_of(result)


async def test_a_read_raising_a_foreign_error_is_an_error_result() -> None:
    """/proc/self/mem fails with a raw OSError (EIO) inside the read: an isError result."""
    from docread.integrations.mcp_server import TOOL_NAME, ReadDocumentServer
    from mcp import Client

    server = ReadDocumentServer("/", NO_CACHE)
    try:
        async with Client(server.server) as client:
            result = await client.call_tool(TOOL_NAME, {"file_path": "/proc/self/mem"})
    finally:
        server.close()
    assert result.is_error and "/proc/self/mem" in text_of(result)


async def test_extract_needs_allow_extract(workspace: Path) -> None:
    from docread.integrations.mcp_server import TOOL_NAME, ReadDocumentServer
    from mcp import Client

    server = ReadDocumentServer(str(workspace), NO_CACHE, allow_extract=True)
    try:
        async with Client(server.server) as client:
            [tool] = (await client.list_tools()).tools
            result = await client.call_tool(
                TOOL_NAME,
                {"file_path": "bundle.zip", "mode": "extract", "archive_path": "src/main.py"},
            )
    finally:
        server.close()
    assert tool.annotations is not None and tool.annotations.read_only_hint is False
    assert not result.is_error, text_of(result)
    extracted = list((workspace / ".tmp" / "extracted").rglob("main.py"))
    assert extracted and extracted[0].read_text() == "print('hello')\n"


async def test_two_calls_overlap(app: ReadDocumentServer, monkeypatch: pytest.MonkeyPatch) -> None:
    from docread.integrations.mcp_server import TOOL_NAME
    from mcp import Client

    both_in = threading.Barrier(2, timeout=10)  # broken unless two reads run at the same time
    real_read = app.reader.read

    def read(*args: Any, **kwargs: Any) -> docread.ReadResult:
        both_in.wait()
        return real_read(*args, **kwargs)

    monkeypatch.setattr(app.reader, "read", read)
    results: list[types.CallToolResult] = []
    async with Client(app.server) as client:

        async def call(path: str) -> None:
            results.append(await client.call_tool(TOOL_NAME, {"file_path": path}))

        with anyio.fail_after(30):
            async with anyio.create_task_group() as tg:
                tg.start_soon(call, "notes.txt")
                tg.start_soon(call, "report.pdf")
    assert [r.is_error for r in results] == [False, False]


async def test_a_cancelled_call_stops_its_read(
    app: ReadDocumentServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    from docread.integrations.mcp_server import TOOL_NAME
    from mcp import Client

    outcome: dict[str, Any] = {}
    real_read = app.reader.read

    def read(*args: Any, on_unit: Any = None, **kwargs: Any) -> docread.ReadResult:
        units = 0

        def counting(unit: docread.Unit) -> None:
            nonlocal units
            units += 1
            on_unit(unit)

        try:
            return real_read(*args, on_unit=counting, **kwargs)
        except BaseException as exc:
            outcome["error"] = type(exc).__name__
            raise
        finally:
            outcome["units"] = units

    monkeypatch.setattr(app.reader, "read", read)
    async with Client(app.server) as client:
        with anyio.move_on_after(60) as scope:

            async def progress(done: float, total: float | None, message: str | None) -> None:
                scope.cancel()  # the caller gives up after the first page

            await client.call_tool(
                TOOL_NAME, {"file_path": "scan.pdf", "ocr": True}, progress_callback=progress
            )
        assert scope.cancelled_caught
        with anyio.fail_after(20):
            while app.active_reads:
                await anyio.sleep(0.05)
        assert outcome["error"] == "_Cancelled"
        assert outcome["units"] < SCANNED_PAGES
        again = await client.call_tool(TOOL_NAME, {"file_path": "notes.txt"})
    assert not again.is_error


def test_read_stops_when_on_unit_raises(workspace: Path) -> None:
    """The core hook: the exception ends the read after that unit and the worker job is
    cancelled, so the next read on the same Reader is answered at once."""

    class Stop(Exception):
        pass

    seen: list[docread.Unit] = []

    def stop_after_one(unit: docread.Unit) -> None:
        seen.append(unit)
        raise Stop

    with docread.Reader(workspace, NO_CACHE) as reader:
        with pytest.raises(Stop):
            reader.read("scan.pdf", ocr=True, on_unit=stop_after_one)
        assert len(seen) == 1
        start = time.monotonic()
        assert "Quarterly page 1" in reader.read("report.pdf", pages="1").render()
        assert time.monotonic() - start < 15


def test_missing_sdk_names_the_extra() -> None:
    code = "import sys; sys.modules['mcp'] = None\nfrom docread.cli import main\nsys.exit(main(['mcp']))"
    proc = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=60, env=_env()
    )
    assert proc.returncode == 1
    assert "pip install 'docread[mcp]'" in proc.stderr


# -- a real server over stdio ----------------------------------------------------------------
def _env() -> dict[str, str]:
    path = os.pathsep.join([str(ROOT / "core"), str(ROOT), os.environ.get("PYTHONPATH", "")])
    return {**os.environ, "PYTHONPATH": path}


async def test_stdio_server_end_to_end(workspace: Path) -> None:
    from docread.integrations.mcp_server import TOOL_NAME
    from mcp import Client, StdioServerParameters, types
    from PIL import Image

    params = StdioServerParameters(
        command=sys.executable,
        args=["-m", "docread.cli", "mcp", "--workspace", str(workspace)],
        env={**_env(), "DOCREAD_CONFIG": ""},
        cwd=str(workspace),
    )
    with anyio.fail_after(120):
        async with Client(params, mode="legacy") as client:  # the initialize handshake
            assert client.server_info is not None and client.server_info.name == "docread"
            [tool] = (await client.list_tools()).tools
            assert tool.name == TOOL_NAME and "pages" in tool.input_schema["properties"]

            pdf = await client.call_tool(TOOL_NAME, {"file_path": "report.pdf", "pages": "1"})
            assert not pdf.is_error and "Quarterly page 1" in text_of(pdf)

            png = await client.call_tool(TOOL_NAME, {"file_path": "pic.png"})
            [image] = [c for c in png.content if isinstance(c, types.ImageContent)]
            with Image.open(io.BytesIO(base64.b64decode(image.data))) as picture:
                assert picture.size == (64, 48)

            outside = await client.call_tool(TOOL_NAME, {"file_path": "../secret.txt"})
            assert outside.is_error and "outside the workspace" in text_of(outside)

            bomb = await client.call_tool(
                TOOL_NAME, {"file_path": "bomb.zip", "mode": "read", "archive_path": "zeros.bin"}
            )
            assert bomb.is_error and "decompression bomb" in text_of(bomb)

            with anyio.move_on_after(60) as scope:

                async def progress(done: float, total: float | None, message: str | None) -> None:
                    scope.cancel()

                await client.call_tool(
                    TOOL_NAME, {"file_path": "scan.pdf", "ocr": True}, progress_callback=progress
                )
            assert scope.cancelled_caught

            start = time.monotonic()
            after = await client.call_tool(TOOL_NAME, {"file_path": "notes.txt"})
            assert not after.is_error and "second line" in text_of(after)
            assert time.monotonic() - start < 30


# -- a real server over HTTP -----------------------------------------------------------------
INITIALIZE = {
    "jsonrpc": "2.0",
    "id": 1,
    "method": "initialize",
    "params": {
        "protocolVersion": "2025-06-18",
        "capabilities": {},
        "clientInfo": {"name": "test", "version": "0"},
    },
}


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@contextlib.contextmanager
def http_server(
    workspace: Path, log: Path, *flags: str, env: dict[str, str] | None = None
) -> Iterator[str]:
    """``docread mcp --transport http`` in a subprocess; yields its URL on 127.0.0.1 once it
    answers (bounded: 60 s), stops it after."""
    port = _free_port()
    argv = [sys.executable, "-m", "docread.cli", "mcp", "--transport", "http", "--port", str(port)]
    with log.open("w") as err:
        proc = subprocess.Popen(
            [*argv, "--workspace", str(workspace), *flags],
            env={**_env(), "DOCREAD_CONFIG": "", **(env or {})},
            stdout=subprocess.DEVNULL,
            stderr=err,
        )
    url = f"http://127.0.0.1:{port}/mcp"
    try:
        deadline = time.monotonic() + 60
        while True:
            assert proc.poll() is None, log.read_text()
            try:
                httpx.get(url, timeout=2)
                break
            except httpx.TransportError:
                assert time.monotonic() < deadline, "the server did not answer in 60 s"
                time.sleep(0.2)
        yield url
    finally:
        proc.terminate()
        proc.wait(timeout=30)


def post(url: str, **headers: str) -> httpx.Response:
    """An MCP initialize request with these extra headers."""
    base = {"Accept": "application/json, text/event-stream", "Content-Type": "application/json"}
    return httpx.post(url, json=INITIALIZE, headers={**base, **headers}, timeout=30)


def test_http_on_loopback_checks_host_and_origin(workspace: Path, tmp_path: Path) -> None:
    log = tmp_path / "stderr.txt"
    with http_server(workspace, log) as url:
        assert post(url).status_code == 200
        assert post(url, Host="evil.example").status_code == 421  # DNS rebinding
        port = int(url.split(":")[2].split("/")[0])
        for host in ("localhost:@evil.example", "127.0.0.1:@evil.example", f"localhost:{port + 1}"):
            assert post(url, Host=host).status_code == 421, host  # host and port exactly
        assert post(url, Host=f"localhost:{port}").status_code == 200
        assert post(url, Origin="http://evil.example").status_code == 403
        assert post(url, Origin=url.removesuffix("/mcp")).status_code == 200
    first, *warnings = log.read_text().splitlines()
    assert "Invalid Host header: evil.example" in warnings[0]
    assert first == (
        f"docread mcp: http://127.0.0.1:{url.split(':')[2].split('/')[0]}/mcp "
        f"workspace={workspace} (no token: this machine only)"
    )


def test_http_reachable_by_others_needs_a_token(
    workspace: Path, tmp_path: Path, cli_here: CliHere, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("DOCREAD_MCP_TOKEN", "")  # refused before it serves: in this process
    argv = ["mcp", "--transport", "http", "--host", "0.0.0.0", "--port", str(_free_port())]
    code, _, err = cli_here(*argv, "--workspace", str(workspace), cwd=tmp_path)
    assert code == 2 and "DOCREAD_MCP_TOKEN=<secret>" in err
    secret = "s3cret-token"
    log = tmp_path / "stderr.txt"
    flags = ("--host", "0.0.0.0", "--allowed-host", "docs.example")
    flags += ("--allowed-host", "proxy.example:8443")
    with http_server(workspace, log, *flags, env={"DOCREAD_MCP_TOKEN": secret}) as url:
        port = url.split(":")[2].split("/")[0]
        assert post(url).status_code == 401
        assert post(url, Authorization="Bearer wrong").status_code == 401
        assert post(url, Authorization=f"Bearer {secret}").status_code == 200
        auth = {"Authorization": f"Bearer {secret}"}
        assert post(url, Host="evil.example", **auth).status_code == 421
        assert post(url, Host=f"docs.example:{port}", **auth).status_code == 200
        assert post(url, Host="docs.example:@evil.example", **auth).status_code == 421
        assert post(url, Host="proxy.example:8443", **auth).status_code == 200  # as given
        assert post(url, Host=f"proxy.example:{port}", **auth).status_code == 421
    assert "(bearer token required)" in log.read_text()
    assert secret not in log.read_text()


async def test_read_document_offers_the_outline_and_section(app: ReadDocumentServer) -> None:
    """issue 36: the MCP schema lists view="outline" and a described ``section``; a call reads by
    them (the PDF's found headings here)."""
    from docread.integrations.mcp_server import TOOL_NAME
    from mcp import Client

    async with Client(app.server) as client:
        [tool] = (await client.list_tools()).tools
        props = tool.input_schema["properties"]
        assert (
            "outline" in str(props["view"]) and 'view="outline"' in props["section"]["description"]
        )
        outline = text_of(
            await client.call_tool(TOOL_NAME, {"file_path": "notes.txt", "view": "outline"})
        )
        assert "notes.txt is plain text: it has no sections; read it by lines" in outline
        missing = await client.call_tool(TOOL_NAME, {"file_path": "notes.txt", "section": "s1"})
        assert missing.is_error and "no sections" in text_of(missing)
