"""``docread formats``: every format docread reads (from the format table), with its category,
extensions, and the optional tools it needs, present or missing on this machine."""

from __future__ import annotations

import json
import shutil
import sys
from collections.abc import Callable, Sequence

from ..integrations.adapters import FORMATS, Format
from .common import HelpFormatter, Parser

#: What each optional tool is for, and how to install it.
TOOLS: dict[str, tuple[str, str]] = {
    "libmagic": ("MIME detection of files without a known extension", "apt-get install libmagic1"),
    "tesseract": ("OCR of scanned PDF pages and images", "apt-get install tesseract-ocr"),
    "pandoc": ("DOCX, ODT, RTF, EPUB and RTF-only .msg bodies", "pip install pypandoc-binary"),
    "antiword": ("legacy Word .doc", "apt-get install antiword"),
}
#: Formats by the tool they use (libmagic serves every format: detection).
_USES = {
    "tesseract": {"pdf", "png", "jpeg", "gif", "bmp", "tiff", "webp"},
    "pandoc": {"docx", "odt", "rtf", "epub", "msg"},
    "antiword": {"doc"},
}

_EPILOG = """\
examples:
  docread formats
  docread formats --json | jq '.formats[] | select(.category == "tabular") | .key'"""


def tools_of(fmt: Format) -> list[str]:
    """The optional tools a format needs (besides libmagic, which detection uses for all)."""
    return [tool for tool, keys in _USES.items() if fmt.key in keys]


def _has_libmagic() -> bool:
    try:
        import magic

        magic.Magic(mime=True)
    except Exception:  # noqa: BLE001 - the binding or the C library is missing or broken
        return False
    return True


def _has_tesseract() -> bool:
    try:
        from pytesseract import pytesseract

        return shutil.which(pytesseract.tesseract_cmd) is not None
    except ImportError:
        return shutil.which("tesseract") is not None


def _has_pandoc() -> bool:
    try:
        import pypandoc

        pypandoc.get_pandoc_path()
    except (ImportError, OSError):
        return False
    return True


_CHECKS: dict[str, Callable[[], bool]] = {
    "libmagic": _has_libmagic,
    "tesseract": _has_tesseract,
    "pandoc": _has_pandoc,
    "antiword": lambda: shutil.which("antiword") is not None,
}


def tool_status() -> dict[str, bool]:
    """Each optional tool: True when present on this machine."""
    return {name: check() for name, check in _CHECKS.items()}


def main(argv: Sequence[str]) -> int:
    p = Parser(
        prog="docread formats",
        description="List the formats docread reads and the optional tools each needs.",
        epilog=_EPILOG,
        formatter_class=HelpFormatter,
    )
    p.add_argument("--json", action="store_true", help="print one JSON object instead of a table")
    args = p.parse_args(argv)
    status = tool_status()
    formats = [f for f in FORMATS if f.extractor and f.key != "directory"]
    if args.json:
        payload = {
            "formats": [
                {
                    "key": f.key,
                    "category": f.category,
                    "mime_type": f.mime_type,
                    "extensions": list(f.extensions),
                    "tools": {t: status[t] for t in tools_of(f)},
                }
                for f in formats
            ],
            "tools": {
                name: {"present": status[name], "used_for": used, "install": hint}
                for name, (used, hint) in TOOLS.items()
            },
        }
        print(json.dumps(payload, indent=2))
        return 0
    out = sys.stdout
    out.write(f"{'FORMAT':<11}{'CATEGORY':<10}{'TOOLS':<24}EXTENSIONS\n")
    for f in formats:
        tools = ", ".join(f"{t}: {'present' if status[t] else 'MISSING'}" for t in tools_of(f))
        exts = " ".join(f.extensions) if len(f.extensions) <= 8 else _short(f.extensions)
        out.write(f"{f.key:<11}{f.category:<10}{tools or '-':<24}{exts or '(by content)'}\n")
    out.write("\noptional tools:\n")
    for name, (used, hint) in TOOLS.items():
        state = "present" if status[name] else f"MISSING ({hint})"
        out.write(f"  {name:<10} {state:<10}  {used}\n")
    return 0


def _short(extensions: tuple[str, ...]) -> str:
    return f"{' '.join(extensions[:8])} ... ({len(extensions)} in all)"
