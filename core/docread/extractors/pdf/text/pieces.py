"""A page's pieces in reading order as blocks (``Block``: a paragraph, a list item, a heading,
a table, a figure, a caption, a note) and what their lines' text says: joined, normalised,
ending a sentence, opening with a bullet or a caption's label."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from ....sanitize import lazy_pattern
from .relations import ENDS, hyphenated, join

if TYPE_CHECKING:
    from .lines import Line

STRONG_BULLETS = "•◦▪▫‣⁃●○■□▶►➢✓\u25b8\ufffd\uf0a7\uf0b7\uf0d8\uf0fc"
WEAK_BULLETS = "-–—*·∙"
_CAPTION_WORDS = (
    r"(?:Figure|Fig\.|Chart|Image|Photo|Abbildung|Abb\.|Table|Tab\.|Tabelle|Listing|Example"
    r"|Algorithm|Scheme|Plate|Exhibit|그림|표|\[표|\[그림)"
)
CAPTION = lazy_pattern(rf"^{_CAPTION_WORDS}\s*[\dIVX]", re.IGNORECASE)
CAPTION_START = lazy_pattern(rf"^\s*{_CAPTION_WORDS}", re.IGNORECASE)  # what a caption opens with


@dataclass
class Block:
    """A piece of the page in reading order. ``kind``: "text" (a paragraph), "item" (a list
    item), "heading" (``level``), "table", "figure" (``markdown``), "caption", "note" (a
    footnote), "lines" (figure labels, margin text, running lines), "code" (a listing)."""

    kind: str
    lines: list[Line] = field(default_factory=list)
    markdown: str = ""
    level: int = 0
    right: float = 0.0  # the column's right edge: where a wrapped line ends

    @property
    def x0(self) -> float:
        return min(ln.x0 for ln in self.lines)

    @property
    def text(self) -> str:
        return joined(self.lines).strip()

    @property
    def y0(self) -> float:
        return min(ln.y0 for ln in self.lines)

    @property
    def y1(self) -> float:
        return max(ln.y1 for ln in self.lines)


def norm(text: str) -> str:
    return " ".join(text.split()).casefold()


def ended(block: Block) -> bool:
    """The block's text ends a sentence."""
    end = block.lines[-1].text.rstrip() if block.lines else ""
    return bool(ENDS.search(end)) and not hyphenated(end)


def bulleted(text: str) -> bool:
    """The line opens with a bullet glyph (a weak one, ``-``, followed by a space)."""
    head = text.lstrip()[:2]
    return head[:1] in STRONG_BULLETS or head[:1] in WEAK_BULLETS and head[1:2].isspace()


def joined(lines: list[Line]) -> str:
    return join(ln.text for ln in lines)
