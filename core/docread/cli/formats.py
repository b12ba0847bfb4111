"""``docread formats``: every format docread reads (from the format table), with its category,
extensions, and the optional tools it needs, present or missing on this machine."""

from __future__ import annotations

import json
import sys
from collections.abc import Sequence

from ..integrations.adapters import FORMATS, PROGRAMS, Format
from .common import HelpFormatter, Parser

#: What each optional tool is for, and how to install it: libmagic (detection, for every format)
#: and the programs docread runs (their one table, ``PROGRAMS``).
TOOLS: dict[str, tuple[str, str]] = {
    "libmagic": ("MIME detection of files without a known extension", "apt-get install libmagic1"),
    **{name: (program.used_for, program.install) for name, program in PROGRAMS.items()},
}

_EPILOG = """\
examples:
  docread formats
  docread formats --json | jq '.formats[] | select(.category == "tabular") | .key'"""


def tools_of(fmt: Format) -> list[str]:
    """The optional tools a format needs (besides libmagic, which detection uses for all)."""
    return [name for name, program in PROGRAMS.items() if fmt.key in program.formats]


def _has_libmagic() -> bool:
    try:
        import magic

        magic.Magic(mime=True)
    except Exception:  # noqa: BLE001 - the binding or the C library is missing or broken
        return False
    return True


def tool_status() -> dict[str, bool]:
    """Each optional tool: True when present on this machine."""
    programs = {name: program.locate() is not None for name, program in PROGRAMS.items()}
    return {"libmagic": _has_libmagic(), **programs}


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
