"""The ``docread`` command: ``read`` (the default), ``load``, ``formats``, ``mcp`` and ``cache``.

    docread report.pdf --pages 1-5           # the agent view (same as: docread read ...)
    docread load docs/ --jsonl out.jsonl     # every Document as a JSON line, for any pipeline
    docread formats                          # what docread reads, and the tools present here
    docread mcp --workspace .                # an MCP server with the read_document tool

Exit codes: 0 ok, 1 read error (message on stderr), 2 usage error. Each command is a thin layer
over the core (Reader, the parameter table, the views).
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

from .. import DependencyMissingError, __version__
from .common import HelpFormatter, Parser

COMMANDS = ("read", "load", "formats", "mcp", "cache")

_EPILOG = """\
commands:
  read PATH [options]     print the agent view of a file or directory (the default command)
  load PATH... [options]  every Document as one JSON line; media written to files
  formats                 the supported formats and the optional tools each needs
  mcp [options]           serve the read_document tool over MCP (stdio or HTTP)
  cache info|clear        the result cache

examples:
  docread report.pdf --pages 1-5
  docread read data.xlsx --sheet Q4 --rows head:20
  docread load docs/ --pattern '**/*.pdf' --jsonl docs.jsonl --media-dir media/
  docread mcp --workspace ~/projects/acme

Run "docread COMMAND --help" for a command's options."""


def build_parser() -> argparse.ArgumentParser:
    """The top-level parser: ``--version`` and the list of commands (each has its own parser)."""
    p = Parser(
        prog="docread",
        description="Read any file the way an LLM agent sees it: text, tables, office, PDF (with "
        "OCR), archives, images, audio, SQLite, notebooks, directories.",
        epilog=_EPILOG,
        formatter_class=HelpFormatter,
    )
    p.add_argument("--version", action="version", version=f"docread {__version__}")
    p.add_argument("command", choices=COMMANDS, help="what to do (default: read)")
    return p


def main(argv: Sequence[str] | None = None) -> int:
    """Dispatch to a command; a first argument that names no command is a path to ``read``."""
    args = list(sys.argv[1:] if argv is None else argv)
    if not args:
        build_parser().print_usage(sys.stderr)
        print("docread: error: give a PATH to read, or a command", file=sys.stderr)
        return 2
    command, rest = args[0], args[1:]
    if command in ("-h", "--help", "--version"):
        build_parser().parse_args(args)  # prints and exits 0
        return 0
    if command == "cache":  # docread cache info|clear (read a file named "cache" as ./cache)
        from .cache import main as cache_main

        return cache_main(rest)
    if command == "load":
        from .load import main as load_main

        return load_main(rest)
    if command == "formats":
        from .formats import main as formats_main

        return formats_main(rest)
    if command == "mcp":
        try:
            from .mcp import main as mcp_main
        except DependencyMissingError as exc:  # the mcp extra is not installed
            print(f"docread: {exc}", file=sys.stderr)
            return 1
        return mcp_main(rest)
    from .read import main as read_main

    return read_main(rest if command == "read" else args)
