"""``docread cache info|clear``: where the result cache is and how big, or empty it."""

from __future__ import annotations

import sys
from collections.abc import Sequence

from .. import Settings, SettingsError
from ..integrations.adapters import ResultCache
from .common import HelpFormatter, Parser


def main(argv: Sequence[str]) -> int:
    """``docread cache info|clear [--config FILE]``: where the cache is, how big, or empty it."""
    p = Parser(
        prog="docread cache",
        description="Inspect or empty the result cache.",
        formatter_class=HelpFormatter,
    )
    p.add_argument("action", choices=("info", "clear"))
    p.add_argument(
        "--config", help="tools-security.yaml (default: $DOCREAD_CONFIG or ./tools-security.yaml)"
    )
    args = p.parse_args(argv)
    try:
        settings = Settings.load(args.config).cache
    except SettingsError as exc:
        print(f"docread: {exc}", file=sys.stderr)
        return 2
    cache = ResultCache(settings)
    try:
        if args.action == "clear":
            print(f"removed {cache.clear()} entries from {cache.directory}")
        else:
            for key, value in cache.info().items():
                print(f"{key}: {value}")
            if not settings.enabled:
                print("enabled: False (cache.enabled in the settings)")
    finally:
        cache.close()
    return 0
