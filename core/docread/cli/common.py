"""What the commands share: the help layout, the workspace and settings options, and printing an
error."""

from __future__ import annotations

import argparse
import copy
import os
import sys
from typing import NoReturn

from ..integrations.adapters import suggestion


class Parser(argparse.ArgumentParser):
    """argparse that names the option a mistyped one was meant to be: ``docread read x --page
    1`` ends "unrecognized arguments: --page 1 (did you mean --pages?)"."""

    def error(self, message: str) -> NoReturn:
        prefix = "unrecognized arguments: "
        if message.startswith(prefix):
            flags = [w for w in message[len(prefix) :].split() if w.startswith("-")]
            known = [o for o in self._option_string_actions if o.startswith("--")]
            message += suggestion(flags, known)
        super().error(message)


class HelpFormatter(argparse.RawDescriptionHelpFormatter):
    """Examples and epilogs kept as written; an option with a default value says it in its help
    (``--port PORT  ... (default: 8000)``) unless its help already says its default. Options
    whose default is None or off say theirs in words where it matters (``--workers``)."""

    def _format_action(self, action: argparse.Action) -> str:
        if _unsaid_default(action):
            action = copy.copy(action)  # the parser's own action keeps its help
            action.help = f"{action.help or ''} (default: %(default)s)".lstrip()
        return super()._format_action(action)


def _unsaid_default(action: argparse.Action) -> bool:
    """An option with a value by default (not None, off or suppressed) its help does not name."""
    default = action.default
    if default is None or default is False or default is argparse.SUPPRESS:  # not 0: a port
        return False
    return bool(action.option_strings) and "default" not in (action.help or "")


def add_workspace_options(p: argparse.ArgumentParser, default: str = "the cwd") -> None:
    """``--workspace`` (the sandbox root; ``default`` says what it is when not given) and
    ``--config`` (tools-security.yaml)."""
    p.add_argument(
        "--workspace",
        type=_existing_folder,
        help=f"sandbox root; no path may leave it (default: {default})",
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
