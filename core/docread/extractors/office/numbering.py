"""List and heading numbers as Word and LibreOffice show them: a level's pattern (Word's
``lvlText`` such as ``%1.%2.``; ODF's prefix, display levels and suffix), its number format
(decimal, letters, roman, zero-padded), its start value, deeper levels restarting after a
shallower item. ``word_numbering`` reads Word's numbering.xml; odfml builds ODF's levels."""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from ..markdown import count_attr

if TYPE_CHECKING:
    from .package import OfficeZip

LEVELS = 9  # Word's list levels are 0-8; ODF's 1-10 are read as 0-9 and capped alike
_MOST = 100_000  # a start value or counter past this is shown as it (a hostile start=10**18)
_PLACE = re.compile(r"%([1-9])")
_ROMAN = ((1000, "m"), (900, "cm"), (500, "d"), (400, "cd"), (100, "c"), (90, "xc"), (50, "l"),
          (40, "xl"), (10, "x"), (9, "ix"), (5, "v"), (4, "iv"), (1, "i"))  # fmt: skip
_ODF_FORMATS = {"1": "decimal", "a": "lowerLetter", "A": "upperLetter", "i": "lowerRoman",
                "I": "upperRoman", "": "none"}  # fmt: skip


def number_text(n: int, fmt: str) -> str:
    """``n`` as a number format shows it: Word's ``decimal``, ``decimalZero`` (01),
    ``lowerLetter``/``upperLetter`` (a..z, aa..), ``lowerRoman``/``upperRoman``; any other
    format as decimal."""
    if n <= 0 or fmt not in ("lowerLetter", "upperLetter", "lowerRoman", "upperRoman"):
        return f"{n:02d}" if fmt == "decimalZero" else str(n)
    if fmt.endswith("Letter"):  # Word repeats the letter: a..z, aa..zz, aaa..
        text = chr(ord("a") + (n - 1) % 26) * ((n - 1) // 26 + 1)
    else:
        text, rest = "", min(n, 4999)
        for value, digits in _ROMAN:
            while rest >= value:
                text, rest = text + digits, rest - value
    return text.upper() if fmt.startswith("upper") else text


@dataclass(frozen=True, slots=True)
class Level:
    """One list level: ``fmt`` is ``bullet``, ``none`` or a number format; ``text`` the label
    pattern (``%N`` is the number of level N, 1-based); ``legal``: every number decimal."""

    fmt: str = "decimal"
    text: str = "%1."
    start: int = 1
    legal: bool = False


def odf_level(level: int, fmt: str, prefix: str, suffix: str, display: int, start: int) -> Level:
    """An ODF list or outline level (0-based ``level``) as a Level: its prefix, the numbers of
    the ``display`` levels ending at it joined by dots, its suffix."""
    shown = range(max(level - max(display, 1) + 1, 0), level + 1)
    pattern = prefix + ".".join(f"%{k + 1}" for k in shown if k < LEVELS) + suffix
    return Level(_ODF_FORMATS.get(fmt, "decimal"), pattern, start)


@dataclass(slots=True)
class Counter:
    """The running numbers of one list (a Word numbering instance, an ODF list or outline)."""

    numbers: dict[int, int] = field(default_factory=dict)

    def label(self, levels: Mapping[int, Level], level: int) -> str | None:
        """The next item's label at ``level`` (deeper levels restart): None for a bullet, ""
        for a level that shows no number."""
        own = levels.get(level, Level())
        self.numbers[level] = min(self.numbers.get(level, own.start - 1) + 1, _MOST)
        for deeper in [k for k in self.numbers if k > level]:
            del self.numbers[deeper]
        return shown(levels, self.numbers, level)


def shown(levels: Mapping[int, Level], numbers: Mapping[int, int], level: int) -> str | None:
    """The label of an item at ``level`` whose levels hold ``numbers`` (a level without one
    shows its start value): None for a bullet, "" for a level that shows no number."""
    own = levels.get(level, Level())
    if own.fmt == "bullet":
        return None
    if own.fmt == "none":
        return _PLACE.sub("", own.text).strip()

    def number(m: re.Match[str]) -> str:
        k = int(m.group(1)) - 1
        at = levels.get(k, Level())
        return number_text(numbers.get(k, at.start), "decimal" if own.legal else at.fmt)

    return _PLACE.sub(number, own.text).strip()


_WORD_TAGS = frozenset({"abstractNum", "lvl", "start", "numFmt", "lvlText", "isLgl", "num",
                        "abstractNumId", "lvlOverride", "startOverride"})  # fmt: skip


@dataclass(slots=True)
class WordNumbering:
    """Word's numbering.xml: abstract numberings' levels, the instances (``w:num``) that use
    them, and their counters. Instances of one abstract numbering count on together, as Word
    shows them; an instance that overrides a start value counts on its own."""

    abstract: dict[str, dict[int, Level]] = field(default_factory=dict)
    nums: dict[str, str] = field(default_factory=dict)  # numId -> abstractNumId
    starts: dict[str, dict[int, int]] = field(default_factory=dict)  # numId -> level -> start
    counters: dict[str, Counter] = field(default_factory=dict)

    def label(self, num: str, level: int) -> str | None:
        """The label of the next paragraph of instance ``num`` at ``level`` (None: a bullet)."""
        aid = self.nums.get(num)
        if aid is None or aid not in self.abstract:
            return None
        levels = self.abstract[aid]
        starts = self.starts.get(num)
        if starts:
            levels = {**levels, **{k: _restart(levels.get(k), v) for k, v in starts.items()}}
        key = f"num:{num}" if starts else aid
        return self.counters.setdefault(key, Counter()).label(levels, level)


def _restart(level: Level | None, start: int) -> Level:
    base = level or Level()
    return Level(base.fmt, base.text, start, base.legal)


def word_numbering(oz: OfficeZip) -> WordNumbering:
    """word/numbering.xml read by one pass over its start tags (a ``w:lvl`` inside an instance's
    override is not read: its start override is)."""
    out = WordNumbering()
    if not oz.has("word/numbering.xml"):
        return out
    levels: dict[int, Level] = {}
    fields: dict[str, str] = {}
    level = override = 0
    num = ""

    def close() -> None:
        if fields and not num:
            levels[level] = Level(
                fields.get("numFmt", "decimal"), fields.get("lvlText", ""),
                count_attr(fields.get("start"), 1, _MOST), "isLgl" in fields,
            )  # fmt: skip
        fields.clear()

    for tag, attrs in oz.start_tags("word/numbering.xml", _WORD_TAGS):
        value = attrs.get("val", "")
        if tag in ("abstractNum", "lvl", "num"):
            close()
        if tag == "abstractNum":
            levels, num = out.abstract.setdefault(attrs.get("abstractNumId", ""), {}), ""
        elif tag == "lvl":
            level = count_attr(attrs.get("ilvl"), 0, LEVELS - 1)
        elif tag == "num":
            num = attrs.get("numId", "")
        elif tag == "abstractNumId" and num:
            out.nums[num] = value
        elif tag == "lvlOverride" and num:
            override = count_attr(attrs.get("ilvl"), 0, LEVELS - 1)
        elif tag == "startOverride" and num:
            out.starts.setdefault(num, {})[override] = count_attr(value, 1, _MOST)
        elif not num:
            fields[tag] = value
    close()
    return out
