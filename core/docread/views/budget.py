"""The output budget of one agent view: characters, lines, tokens and bytes (``output.max_chars``,
``output.max_lines``, ``output.max_tokens``, ``output.max_bytes``), spent section by section; a
section that does not fit is cut at a whole line. ``max_lines`` counts content lines,
``max_chars`` the header too, and ``max_tokens``/``max_bytes`` the whole result (header, notes,
the truncation marker and the continuation note).

Tokens are estimated from UTF-8 bytes (4 to a token: CJK text costs its due) unless
``output.token_counter`` names a tiktoken encoding that is available offline; tiktoken never
downloads anything here, so a missing encoding falls back to the estimate.
"""

from __future__ import annotations

import functools
import threading
from collections.abc import Callable
from typing import Any

from ..errors import SettingsError
from ..settings import OutputSettings

TokenCounter = Callable[[str], int]
_load_lock = threading.Lock()


def estimate_tokens(text: str) -> int:
    """Tokens estimated as UTF-8 bytes / 4, rounded up."""
    return (len(text.encode("utf-8", "surrogatepass")) + 3) // 4


@functools.lru_cache(maxsize=8)
def token_counter(name: str) -> TokenCounter:
    """``estimate_tokens``, or the exact count of tiktoken encoding ``name`` when it loads offline."""
    if name == "estimate":
        return estimate_tokens
    try:
        import tiktoken
    except ImportError:
        return estimate_tokens
    if name not in tiktoken.list_encoding_names():
        raise SettingsError(
            f"output.token_counter={name!r} is not a tiktoken encoding; use 'estimate' or one of "
            f"{', '.join(tiktoken.list_encoding_names())} (tools-security.yaml)"
        )
    encoding = _offline_encoding(name)
    if encoding is None:
        return estimate_tokens
    return lambda text: len(encoding.encode(text, disallowed_special=()))


def _offline_encoding(name: str) -> Any:
    """The tiktoken encoding from its local cache only: its fetcher is replaced, for the load,
    by one that refuses URLs, so a cold cache means None (the estimate), never a download."""
    import tiktoken
    import tiktoken.load

    def local_only(blobpath: str) -> bytes:
        if "://" in blobpath:
            raise OSError(f"tiktoken: {blobpath} is not cached locally")
        with open(blobpath, "rb") as f:
            return f.read()

    with _load_lock:
        fetch = tiktoken.load.read_file
        tiktoken.load.read_file = local_only
        try:
            return tiktoken.get_encoding(name)
        except (OSError, ValueError, KeyError):
            return None
        finally:
            tiktoken.load.read_file = fetch


class OutputBudget:
    """What is left of the view's characters, lines and tokens."""

    def __init__(self, out: OutputSettings) -> None:
        self.left = {"max_chars": out.max_chars, "max_lines": out.max_lines}
        self.left["max_tokens"] = out.max_tokens
        self.left["max_bytes"] = out.max_bytes
        self.count = token_counter(out.token_counter)
        self.hit = ""  # the setting that stopped the view ("output.max_tokens=25,000")
        self._limits = {
            "max_chars": out.max_chars,
            "max_lines": out.max_lines,
            "max_tokens": out.max_tokens,
            "max_bytes": out.max_bytes,
        }

    def _cost(self, text: str) -> dict[str, int]:
        return {
            "max_chars": len(text),
            "max_lines": text.count("\n") + 1 if text else 0,
            "max_tokens": self.count(text) if text else 0,
            "max_bytes": len(text.encode("utf-8", "surrogatepass")),
        }

    def _over(self, text: str) -> str:
        """The first limit ``text`` would exceed, or ""."""
        cost = self._cost(text)
        return next((k for k, v in cost.items() if v > self.left[k]), "")

    def spend(self, text: str, *limits: str) -> None:
        """Take ``text`` out of the named limits ("max_chars", "max_tokens"): what is always
        shown (header, notes) but counts against them."""
        cost = self._cost(text)
        for key in limits:
            self.left[key] -= cost[key]

    def take(self, text: str) -> str:
        """``text`` whole when it fits, else its longest prefix of whole lines that does (maybe
        ""); what is returned is spent, and ``hit`` names the limit that cut."""
        if not self._over(text):
            self.spend(text, *self.left)
            return text
        lines = text.split("\n")
        low, high = 0, len(lines) - 1  # the longest prefix that fits has low lines
        while low < high:
            mid = (low + high + 1) // 2
            if self._over("\n".join(lines[:mid])):
                high = mid - 1
            else:
                low = mid
        over = self._over("\n".join(lines[: low + 1]))  # the limit the next line would pass
        self.hit = f"output.{over}={self._limits[over]:,}"
        kept = "\n".join(lines[:low])
        self.spend(kept, *self.left)
        return kept
