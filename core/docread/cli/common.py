"""What the commands share: the workspace and settings options, and printing an error."""

from __future__ import annotations

import argparse
import os
import sys


def add_workspace_options(p: argparse.ArgumentParser) -> None:
    """``--workspace`` (the sandbox root) and ``--config`` (tools-security.yaml)."""
    p.add_argument("--workspace", help="sandbox root; no path may leave it (default: the cwd)")
    p.add_argument(
        "--config", help="tools-security.yaml (default: $DOCREAD_CONFIG or ./tools-security.yaml)"
    )


def fail(message: object, status: int) -> int:
    """Print ``docread: message`` on stderr and return the exit status."""
    print(f"docread: {message}", file=sys.stderr)
    return status


def bad_workspace(workspace: str | None) -> str | None:
    """Why ``--workspace`` cannot be used (it is not an existing folder), or None when it can."""
    if workspace is not None and not os.path.isdir(workspace):
        return f"--workspace {workspace}: not an existing folder"
    return None
