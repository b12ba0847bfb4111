"""``docread mcp --transport http``: who may call the server. Host/Origin checks (DNS rebinding)
on every bind, loopback names plus ``--allowed-host``; a bearer token required for a bind other
machines can reach (refused to start without one); one startup line on stderr."""

from __future__ import annotations

import hmac
import ipaddress
import os
import sys
from collections.abc import Iterable
from typing import Any

from .. import InvalidOptionError

TOKEN_ENV = "DOCREAD_MCP_TOKEN"
PATH = "/mcp"
LOOPBACK_NAMES = ("127.0.0.1", "localhost", "[::1]")
_WILDCARDS = ("0.0.0.0", "::", "")

ASGIApp = Any  # Starlette's (scope, receive, send) callable; typed loosely as uvicorn takes it


def is_loopback(host: str) -> bool:
    """Whether binding ``host`` reaches this machine only."""
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


def bearer_token(host: str, given: str | None) -> str | None:
    """The token calls must carry: ``--auth-token``, else $DOCREAD_MCP_TOKEN; None on a loopback
    bind without one. A bind other machines can reach without a token is refused."""
    token = given or os.environ.get(TOKEN_ENV) or None
    if token is None and not is_loopback(host):
        raise InvalidOptionError(
            f"--host {host} serves other machines, so calls need a bearer token: start the server "
            f"with {TOKEN_ENV}=<secret> in its environment (or --auth-token <secret>) and have "
            "clients send 'Authorization: Bearer <secret>'; or bind --host 127.0.0.1"
        )
    return token


def security_settings(host: str, allowed_hosts: Iterable[str]) -> Any:
    """The SDK's Host/Origin checks, on for every bind: loopback names, the bound address (unless
    a wildcard) and each ``--allowed-host``, any port, over http or https."""
    from mcp.server.transport_security import TransportSecuritySettings

    names = [*LOOPBACK_NAMES, *([] if host in _WILDCARDS else [_bracketed(host)])]
    names += [_bracketed(h) for h in allowed_hosts]
    return TransportSecuritySettings(
        enable_dns_rebinding_protection=True,
        allowed_hosts=[h for name in names for h in (name, f"{name}:*")],
        allowed_origins=[
            f"{scheme}://{name}{port}"
            for name in names
            for scheme in ("http", "https")
            for port in ("", ":*")
        ],
    )


class BearerAuth:
    """ASGI middleware: an HTTP request without ``Authorization: Bearer <token>`` gets 401."""

    def __init__(self, app: ASGIApp, token: str) -> None:
        self.app = app
        self._expected = f"Bearer {token}".encode()

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        if scope["type"] == "http":
            given = dict(scope.get("headers") or []).get(b"authorization", b"")
            if not hmac.compare_digest(given, self._expected):
                await send(
                    {
                        "type": "http.response.start",
                        "status": 401,
                        "headers": [
                            (b"www-authenticate", b'Bearer realm="docread"'),
                            (b"content-type", b"text/plain; charset=utf-8"),
                        ],
                    }
                )
                body = b"401: send the server's token as 'Authorization: Bearer <token>'\n"
                await send({"type": "http.response.body", "body": body})
                return
        await self.app(scope, receive, send)


def announce(host: str, port: int, workspace: str, token: str | None) -> None:
    """The startup line on stderr: where the server listens, its workspace, who may call it."""
    who = "bearer token required" if token else "no token: this machine only"
    print(
        f"docread mcp: http://{_bracketed(host)}:{port}{PATH} workspace={workspace} ({who})",
        file=sys.stderr,
        flush=True,
    )


def _bracketed(host: str) -> str:
    """An IPv6 address as it appears in a Host header or URL: ``[::1]``."""
    return f"[{host}]" if ":" in host and not host.startswith("[") else host
