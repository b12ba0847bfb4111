"""What Tesseract read from one image: lines of words with their confidences (``OcrLine``,
``OcrResult``), and the one rule that keeps what reaches the confidence floor
(``kept_reading``, for PDF pages and pictures alike)."""

from __future__ import annotations

import dataclasses
from typing import Any

from ...model import dataclass
from ...sanitize import lazy_pattern

_WORD = lazy_pattern(r"[^\W_]+")


@dataclass(frozen=True, slots=True)
class OcrLine:
    """One line Tesseract read: its words, each with its confidence (0-100, -1 for none)."""

    words: tuple[str, ...]
    confidences: tuple[float, ...]
    paragraph: bool  # the first line of a paragraph

    @property
    def text(self) -> str:
        return " ".join(self.words)

    @property
    def scored(self) -> list[float]:
        """The confidences Tesseract gave (what means are over)."""
        return [c for c in self.confidences if c >= 0]

    def above(self, floor: float) -> OcrLine | None:
        """The line when its mean confidence reaches ``floor``, else only its words that do
        (a real "TSH 2.4 0.4-4.0" keeps those after a smudged unit); None when no word is left."""
        scored = self.scored
        if scored and sum(scored) / len(scored) >= floor:
            line: OcrLine | None = self
        else:
            kept = [(w, c) for w, c in zip(self.words, self.confidences, strict=True) if c >= floor]
            line = OcrLine(tuple(w for w, _ in kept), tuple(c for _, c in kept), self.paragraph)
        return line if line is not None and _words(line.text) else None


@dataclass(frozen=True, slots=True)
class OcrResult:
    """What Tesseract read from one image."""

    text: str
    confidence: float | None  # mean word confidence 0-100, None when no words
    rotation: int  # degrees the image was turned (clockwise) to read it upright: 0/90/180/270
    skipped: bool = False  # not run: the image is clearly not text (a note says why)
    lines: tuple[OcrLine, ...] = ()
    skew: float = 0.0  # degrees it was then turned (counter-clockwise) to straighten its lines

    @classmethod
    def of(cls, lines: list[OcrLine]) -> OcrResult:
        """A reading upright as given, from its lines."""
        return cls("", None, 0)._with(lines)

    def confident(self, floor: float) -> OcrResult:
        """Nothing when the mean word confidence is under ``floor`` (noise read from a photo
        sits at 20-45, printed text at 85-96); else the lines that reach it, and of the others
        the words that do; a line left without a word (a lone "|" read from an edge) goes.
        The confidence is then over what is left."""
        if self.confidence is None or self.confidence < floor:
            return self._with([])
        return self._with([kept for line in self.lines if (kept := line.above(floor))])

    def under(self, floor: float) -> str:
        """Why ``confident(floor)`` kept nothing, for a note."""
        if self.confidence is None or self.confidence < floor:
            return f"mean confidence {self.confidence} < {floor:g}"
        return f"no word reaches confidence {floor:g}"

    @property
    def word_count(self) -> int:
        """Words read (a kept reading's count against the whole one's says what was dropped)."""
        return sum(len(line.words) for line in self.lines)

    def beyond(self, text: str) -> OcrResult:
        """Only the lines with a word ``text`` lacks (words compared case- and
        punctuation-blind): what OCR adds to a page's text layer."""
        known = set(_words(text))
        return self._with([line for line in self.lines if set(_words(line.text)) - known])

    def _with(self, lines: list[OcrLine]) -> OcrResult:
        """This reading cut to ``lines``: text and confidence recomputed."""
        scored = [c for line in lines for c in line.scored]
        parts: list[str] = []
        for line in lines:
            if line.paragraph and parts:
                parts.append("")
            parts.append(line.text)
        mean = round(sum(scored) / len(scored), 1) if scored else None
        return dataclasses.replace(self, text="\n".join(parts), confidence=mean, lines=tuple(lines))


def _words(text: str) -> list[str]:
    """Case-folded words of letters and digits: what two readings of a line share."""
    return [w for w in _WORD.findall(text.casefold()) if len(w) > 1]


def kept_reading(result: OcrResult, floor: float, meta: dict[str, Any]) -> OcrResult:
    """What of a reading indexes (its lines at or over ``floor``), its facts put in ``meta``:
    ``ocr_confidence`` of the reading; ``ocr_discarded`` when it had lines and none passed; else
    ``ocr``, the kept lines' confidence, ``ocr_rotation``/``ocr_skew`` and ``ocr_dropped_words``.
    The one rule for pages and pictures; their callers say it in notes."""
    kept = result.confident(floor)
    if result.confidence is not None:
        meta["ocr_confidence"] = result.confidence
    if not kept.lines:
        if result.lines:
            meta["ocr_discarded"] = True
        return kept
    meta.update(ocr=True, ocr_confidence=kept.confidence)
    for key, value in (("ocr_rotation", result.rotation), ("ocr_skew", result.skew)):
        if value:
            meta[key] = value
    if kept.word_count < result.word_count:
        meta["ocr_dropped_words"] = result.word_count - kept.word_count
    return kept
