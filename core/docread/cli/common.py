"""What the commands share: the workspace and settings options, and printing an error."""

from __future__ import annotations

import argparse
import os
import sys


def add_workspace_options(p: argparse.ArgumentParser) -> None:
    """``--workspace`` (the sandbox root) and ``--config`` (tools-security.yaml)."""
    p.add_argument(
        "--workspace",
        type=_existing_folder,
        help="sandbox root; no path may leave it (default: the cwd)",
    )
    p.add_argument(
        "--config", help="tools-security.yaml (default: $DOCREAD_CONFIG or ./tools-security.yaml)"
    )


def fail(message: object, status: int) -> int:
    """Print ``docread: message`` on stderr and return the exit status."""
    print(f"docread: {message}", file=sys.stderr)
    return status


def _existing_folder(value: str) -> str:
    """``--workspace`` must be an existing folder: a usage error (exit 2) otherwise."""
    if not os.path.isdir(value):
        raise argparse.ArgumentTypeError(f"{value}: not an existing folder")
    return value
