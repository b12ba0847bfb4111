"""``docread mcp``: serve the read_document tool (``integrations/mcp_server.py``) over stdio or
streamable HTTP (``integrations/mcp_http.py``: Host/Origin checks, a bearer token off loopback)."""

from __future__ import annotations

import argparse
import logging
import sys
from collections.abc import Sequence
from typing import Any

from .. import InvalidOptionError, ReadDocumentError, SettingsError
from ..integrations.adapters import DEFAULT_MODEL_INPUTS, MODEL_INPUTS
from ..integrations.mcp_http import TOKEN_ENV, BearerAuth, announce, bearer_token, security_settings
from ..integrations.mcp_server import ReadDocumentServer
from .common import HelpFormatter, Parser, add_workspace_options, fail

_EPILOG = """\
examples:
  docread mcp --workspace ~/projects/acme                 # stdio, for Claude Desktop, Cursor, ...
  claude mcp add docread -- docread mcp --workspace .     # Claude Code
  docread mcp --transport http --port 8765                # streamable HTTP at /mcp (this machine)
  DOCREAD_MCP_TOKEN=<secret> docread mcp --transport http --host 0.0.0.0 --allowed-host docs.example
  docread mcp --model-inputs text,image,pdf --allow-extract"""


def build_parser() -> argparse.ArgumentParser:
    p = Parser(
        prog="docread mcp",
        description="Serve the read_document tool over MCP. Every path is confined to the "
        "workspace; parsing runs in isolated worker processes.",
        epilog=_EPILOG,
        formatter_class=HelpFormatter,
        allow_abbrev=False,
    )
    p.add_argument("--transport", choices=("stdio", "http"), default="stdio")
    p.add_argument(
        "--host",
        default="127.0.0.1",
        help="HTTP: the address to bind; one other machines can reach (0.0.0.0) needs a token",
    )
    p.add_argument("--port", type=int, default=8000, help="HTTP: the port (path /mcp)")
    p.add_argument(
        "--auth-token",
        help=f"HTTP: the bearer token every call must send (default: ${TOKEN_ENV}; the "
        "environment keeps it out of the process list)",
    )
    p.add_argument(
        "--allowed-host",
        action="append",
        default=[],
        metavar="NAME[:PORT]",
        help="HTTP: a name clients reach the server by (Host/Origin checks, exact: NAME with "
        "--port, or as given with a port; repeatable); loopback names are always allowed",
    )
    p.add_argument(
        "--model-inputs",
        default=",".join(sorted(DEFAULT_MODEL_INPUTS)),
        help=f"what the model takes, comma-separated from {','.join(sorted(MODEL_INPUTS))}; "
        '"pdf" sends raw PDFs for view="pdf" (default: %(default)s)',
    )
    p.add_argument(
        "--allow-extract",
        action="store_true",
        help='allow mode="extract" (writes archive members under the extraction folder)',
    )
    add_workspace_options(p)
    return p


def main(argv: Sequence[str]) -> int:
    args = build_parser().parse_args(argv)
    try:
        token = bearer_token(args.host, args.auth_token) if args.transport == "http" else None
        app = ReadDocumentServer(
            args.workspace,
            args.config,
            model_inputs=[k.strip() for k in args.model_inputs.split(",") if k.strip()],
            allow_extract=args.allow_extract,
        )
    except (InvalidOptionError, SettingsError, ReadDocumentError) as exc:
        return fail(exc, 2)
    logging.basicConfig(stream=sys.stderr, level=logging.WARNING, format="%(name)s: %(message)s")
    try:
        if args.transport == "http":
            import uvicorn

            http = app.server.streamable_http_app(
                host=args.host,
                transport_security=security_settings(args.host, args.port, args.allowed_host),
            )
            announce(args.host, args.port, str(app.reader.workspace.root), token)
            served = BearerAuth(http, token) if token else http
            uvicorn.run(served, host=args.host, port=args.port, log_level="warning")
        else:
            import anyio

            anyio.run(_serve_stdio, app.server)
    except KeyboardInterrupt:
        pass
    finally:
        app.close()
    return 0


async def _serve_stdio(server: Any) -> None:
    """Run ``server`` (an MCP ``Server``) on this process's stdin/stdout."""
    from mcp.server.stdio import stdio_server

    async with stdio_server() as (read_stream, write_stream):
        await server.run(read_stream, write_stream, server.create_initialization_options())
