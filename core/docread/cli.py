"""The ``docread`` command: prints the agent view of a file or directory.

Exit codes: 0 ok, 1 read error (message on stderr), 2 usage error.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

from . import __version__
from .errors import InvalidOptionError, ReadDocumentError, SettingsError
from .reader import Reader


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="docread",
        description="Read any file the way an LLM agent sees it: text, tables, office, PDF (with OCR), "
        "archives, images, audio, SQLite, notebooks, directories.",
    )
    p.add_argument("path", help="file or directory to read (relative to the workspace)")
    p.add_argument("--version", action="version", version=f"docread {__version__}")
    p.add_argument("--offset", type=int, help="first line to read, 1-based (text, code, notebooks)")
    p.add_argument("--limit", type=int, help="number of lines to read (default 2000; 0 = no limit)")
    p.add_argument("--pages", help='pages or slides, e.g. "1-5", "3", "1,3,5-10", "5-"')
    p.add_argument("--rows", help='table rows: "head:50", "tail:20", "1-100", "250"')
    p.add_argument("--columns", help='table columns: "name,age" or "A,C" or "A-F"')
    p.add_argument("--sheet", help="sheet name or 0-based index")
    p.add_argument("--table", help="SQLite table to window with --rows/--columns")
    p.add_argument(
        "--mode", choices=("list", "read", "extract"), help="archive mode (default list)"
    )
    p.add_argument("--archive-path", help="member inside an archive (read/extract)")
    p.add_argument("--pattern", help='glob for archive members or directory entries, e.g. "*.py"')
    p.add_argument(
        "--view",
        choices=("text", "visual", "pdf", "auto"),
        help="PDF: text, page images, raw PDF, or text + images of scanned pages",
    )
    p.add_argument(
        "--extract-tables", action="store_true", default=None, help="PDF: tables as markdown"
    )
    p.add_argument(
        "--extract-images", action="store_true", default=None, help="list embedded images"
    )
    p.add_argument(
        "--ocr", action="store_true", default=None, help="images: run OCR on the picture"
    )
    p.add_argument(
        "--no-metadata",
        dest="include_metadata",
        action="store_false",
        default=None,
        help="leave out document metadata",
    )
    p.add_argument("--format-hint", help="force the format (pdf, csv, .xlsx, text/plain, ...)")
    p.add_argument("--output-format", choices=("text", "markdown", "json"), default="text")
    p.add_argument(
        "--config", help="tools-security.yaml (default: $DOCREAD_CONFIG or ./tools-security.yaml)"
    )
    p.add_argument("--workspace", help="sandbox root (default: the current directory)")
    return p


_OPTION_NAMES = (
    "offset", "limit", "pages", "rows", "columns", "sheet", "table", "mode", "archive_path", "pattern",
    "view", "extract_tables", "extract_images", "ocr", "include_metadata", "format_hint", "output_format",
)  # fmt: skip


def main(argv: Sequence[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    if argv[:1] == ["cache"]:  # docread cache info|clear (read a file named "cache" as ./cache)
        from .cache.store import cache_command

        return cache_command(argv[1:])
    args = build_parser().parse_args(argv)
    options = {
        name: getattr(args, name) for name in _OPTION_NAMES if getattr(args, name) is not None
    }
    if isinstance(options.get("sheet"), str) and options["sheet"].isdigit():
        options["sheet"] = int(options["sheet"])
    try:
        with Reader(args.workspace, args.config) as reader:
            result = reader.read(args.path, **options)
            text = result.render()
    except (InvalidOptionError, SettingsError) as exc:
        print(f"docread: {exc}", file=sys.stderr)
        return 2
    except ReadDocumentError as exc:
        print(f"docread: {exc}", file=sys.stderr)
        return 1
    sys.stdout.write(text if text.endswith("\n") else text + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
