"""``docread read PATH``: prints the agent view of a file or directory.

Every read option is a flag generated from the tool's parameter table (``--pages 1-5``,
``--rows head:20``, ``--sheet Q4``, ...), with the same names, choices and validation as the tool.
Exit codes: 0 ok, 1 read error (message on stderr), 2 usage error.
"""

from __future__ import annotations

import argparse
import sys
import typing
from collections.abc import Sequence
from typing import Any

from .. import InvalidOptionError, ReadDocumentError, Reader, SettingsError
from ..integrations.adapters import PARAMETERS, Parameter, log_handled
from .common import HelpFormatter, Parser, add_workspace_options, fail

#: Extra spellings kept for the command line: ``--format json``, ``--no-metadata``.
_ALIASES = {"output_format": ("--format",), "include_metadata": ("--metadata",)}

_EPILOG = """\
examples:
  docread read notes.txt --offset 100 --limit 50
  docread read report.pdf --pages 1-5 --extract-tables
  docread read manual.pdf --outline              # its sections: id, heading, pages, size
  docread read manual.pdf --section s12          # one section whole (or --section "Safety")
  docread read data.xlsx --sheet Q4 --rows head:20 --columns A-C
  docread read bundle.zip --mode read --archive-path src/main.py
  docread read report.pdf --format json        # the whole result as JSON
  docread report.pdf                           # "read" is the default command

exit status: 0 ok, 1 the file could not be read, 2 bad arguments"""


def build_parser() -> argparse.ArgumentParser:
    p = Parser(
        prog="docread read",
        description="Print the agent view of a file or directory: a header, the requested "
        "window of content, and notes saying how to read on.",
        epilog=_EPILOG,
        formatter_class=HelpFormatter,
        allow_abbrev=False,
    )
    p.add_argument("path", help="file or directory to read (relative to the workspace)")
    p.add_argument(
        "--outline",
        action="store_true",
        help="list the document's sections (the same as --view outline); with --section, "
        "that section's subsections",
    )
    add_read_options(p)
    add_workspace_options(p)
    return p


def add_read_options(p: argparse.ArgumentParser) -> None:
    """One flag per tool parameter (``file_path`` is the positional PATH); unset flags are None,
    so the core's defaults apply (a switch's help says its default: on or off)."""
    for param in PARAMETERS:
        if param.name == "file_path":
            continue
        names = ["--" + param.name.replace("_", "-"), *_ALIASES.get(param.name, ())]
        kinds = _kinds(param)
        if bool in kinds:
            said = param.default is None or "default" in param.description
            p.add_argument(
                *names,
                dest=param.name,
                action=argparse.BooleanOptionalAction,
                default=None,
                help=param.description if said else
                f"{param.description} (default: {'on' if param.default else 'off'})",
            )  # fmt: skip
            continue
        p.add_argument(
            *names,
            dest=param.name,
            type=int if kinds == {int} else str,
            choices=param.choices,
            default=None,
            metavar=None if param.choices else param.name.upper(),
            help=param.description,
        )


def read_options(args: argparse.Namespace) -> dict[str, Any]:
    """The options given on the command line, as Reader.read takes them."""
    options = {
        p.name: getattr(args, p.name)
        for p in PARAMETERS
        if p.name != "file_path" and getattr(args, p.name) is not None
    }
    sheet = options.get("sheet")
    if isinstance(sheet, str) and sheet.isdigit():
        options["sheet"] = int(sheet)
    if getattr(args, "outline", False):
        if options.get("view", "outline") != "outline":
            raise InvalidOptionError(f"--outline and --view {options['view']}: give one of them")
        options["view"] = "outline"
    return options


def main(argv: Sequence[str]) -> int:
    args = build_parser().parse_args(argv)
    try:
        options = read_options(args)
        with Reader(args.workspace, args.config) as reader:
            text = reader.read(args.path, **options).render()
    except (InvalidOptionError, SettingsError) as exc:
        return fail(exc, 2)
    except ReadDocumentError as exc:
        log_handled(exc)  # handled here: logged once, and said on stderr
        return fail(exc, 1)
    sys.stdout.write(text if text.endswith("\n") else text + "\n")
    return 0


def _kinds(param: Parameter) -> set[type]:
    """The base types of a parameter's type: ``int | None`` -> {int}, ``str | int | None`` ->
    {str, int}."""
    args = typing.get_args(param.type) or (param.type,)
    return {a for a in args if a is not type(None)}
