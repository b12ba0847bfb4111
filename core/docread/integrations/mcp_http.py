"""``docread mcp --transport http``: who may call the server. Host/Origin checks (DNS rebinding)
on every bind, loopback names plus ``--allowed-host``; a bearer token required for a bind other
machines can reach (refused to start without one); one startup line on stderr."""

from __future__ import annotations

import hmac
import ipaddress
import os
import re
import sys
from collections.abc import Iterable
from typing import Any

from .. import InvalidOptionError

TOKEN_ENV = "DOCREAD_MCP_TOKEN"
PATH = "/mcp"
LOOPBACK_NAMES = ("127.0.0.1", "localhost", "[::1]")
_WILDCARDS = ("0.0.0.0", "::", "")
_PORTED = re.compile(r"(\[[^\]]*\]|[^:\[\]]+):(\d+)")  # a host with its port: name:8443, [::1]:8443

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


def security_settings(host: str, port: int, allowed_hosts: Iterable[str]) -> Any:
    """The SDK's Host/Origin checks, on for every bind. Host: the loopback names, the bound
    address (unless a wildcard) and each ``--allowed-host``, bare or with the bound port, matched
    exactly (an allowed host given with a port, ``docs.example:8443``, as given); never the SDK's
    ``name:*``, which lets ``localhost:@evil.example`` through. Origin: those names over http or
    https, any port (a browser writes it: an MCP inspector page on another local port)."""
    from mcp.server.transport_security import TransportSecuritySettings

    names = [*LOOPBACK_NAMES, *([] if host in _WILDCARDS else [host]), *allowed_hosts]
    allowed = [_host_values(name, port) for name in names]
    hosts = [value for _, values in allowed for value in values]
    bare = [name for name, _ in allowed]
    return TransportSecuritySettings(
        enable_dns_rebinding_protection=True,
        allowed_hosts=list(dict.fromkeys(hosts)),
        allowed_origins=[
            f"{scheme}://{name}{any_port}"
            for name in dict.fromkeys(bare)
            for scheme in ("http", "https")
            for any_port in ("", ":*")
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


def _host_values(name: str, port: int) -> tuple[str, list[str]]:
    """(``name`` without a port, the exact Host header values it allows: as given when it names
    a port, else bare and with the bound ``port``)."""
    ported = _PORTED.fullmatch(name)
    if ported:
        return ported.group(1), [name]
    bare = _bracketed(name)
    return bare, [bare, f"{bare}:{port}"]


def _bracketed(host: str) -> str:
    """An IPv6 address as it appears in a Host header or URL: ``[::1]``."""
    return f"[{host}]" if ":" in host and not host.startswith("[") else host
