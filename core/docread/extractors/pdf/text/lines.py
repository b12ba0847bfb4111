"""A PDF page's text as the structure pass sees it: a printed line (``Line``: its box, text,
font and colour), a page's one reading (``PageText``: its lines, drawn rules and pictures;
reading.py makes it) and what counts as visible text (``visible``, the OCR threshold's)."""

from __future__ import annotations

from dataclasses import field

from ....model import dataclass

_SPACES = (" ", "\n", "\t", "\r", "\xa0", "\u3000")
# scripts that wrap anywhere (Hangul, kana, CJK): ranges, not a regex class (5 ms to compile)
CJK = ((0x1100, 0x11FF), (0x3040, 0x30FF), (0x3130, 0x318F), (0x4E00, 0x9FFF), (0xAC00, 0xD7AF))
MAX_LINES = 5000  # a page of more lines is no printed page (dense real pages hold a few hundred)


Box = tuple[float, float, float, float]


@dataclass(slots=True)
class Line:
    """One printed line: its box, text, dominant font size (rounded to 0.5 pt), whether most
    of it (60 %) is bold / italic, whether it is monospaced, its font family and weight
    (100-900, or the family's own code), its MuPDF block, whether it runs other than left to
    right (rotated, vertical: margin stamps, table heads set sideways), how many characters
    of a bold label it opens with when the rest is not bold (``2. COMPENSATION.`` run in), and
    the sRGB colour most of its characters have.
    Never changed once made (``replace`` makes another), but not frozen: a frozen class's
    ``__init__`` sets each of the 15 fields through ``object.__setattr__``, 8x the time of a
    plain one, and a page makes a Line for each of its lines and joined fragments."""

    x0: float
    y0: float
    x1: float
    y1: float
    text: str
    size: float
    bold: bool = False
    italic: bool = False
    mono: bool = False
    family: str = ""
    weight: int = 400
    block: int = 0
    rotated: bool = False
    lead: int = 0  # characters of a bold label the line opens with, the rest not bold
    color: int = 0
    cuts: tuple[tuple[float, int, float], ...] = ()  # where cells may part: ``tables.cuts``

    @property
    def height(self) -> float:
        return self.y1 - self.y0

    @property
    def style(self) -> tuple[float, bool, bool, str]:
        """What tells headings from body text: size, weight, slant, family."""
        return (self.size, self.bold, self.italic, self.family)


@dataclass(frozen=True, slots=True)
class PageText:
    """A page's text lines in content order, the boxes of the rectilinear paths it draws (rules,
    cell frames and backgrounds: what a ruled table is made of; None when the page draws more
    paths than the budget, which are then not collected) and of its other paths (curves,
    shapes: what a drawing is made of), the boxes of its pictures, its size, the characters of
    its text layer (spaces aside) and the CPU seconds its reading took; ``plain``: a page of more
    than MAX_LINES lines (no printed page: a content bomb) has no lines, only its plain text;
    ``fills``: the colour of each rect that is filled, not stroked (what joins shaded cells);
    ``turn``: the rotation matrix its boxes were set upright by (a page shown turned whose text
    reads across only so: text.reading._turn), else None."""

    lines: list[Line]
    rects: list[Box] | None
    pictures: list[Box]
    width: float
    height: float
    chars: int
    seconds: float = 0.0
    paths: list[Box] = field(default_factory=list)
    plain: str | None = None
    fills: dict[Box, int] = field(default_factory=dict)
    turn: tuple[float, float, float, float, float, float] | None = None  # read as shown turned


def visible(text: str) -> int:
    """Non-space characters: what the OCR threshold counts (C-speed counts, no word list)."""
    return len(text) - sum(map(text.count, _SPACES))
