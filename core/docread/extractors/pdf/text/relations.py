"""How two of a page's lines relate: set apart on one row (``side_by_side``) or run on from one
another (``run_in``, ``script``), one under the other (``stacked``, ``hung``, ``hung_text``);
where a line ends against its column (``runs_to_edge``) says whether it wrapped, and a
sentence's end (``ENDS``, ``STOPS``) whether its paragraph may; wrapped lines' text joined, a
word hyphenated at a line end made whole (``join``)."""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING

from ....sanitize import lazy_pattern
from .lines import CJK
from .values import VALUE, VALUE_CHARS

if TYPE_CHECKING:
    from .lines import Line

_HYPHEN_END = lazy_pattern(r"[^\W\d_]-$")
# a sentence's end (quotes after), a proof's; not an abbreviation's a sentence goes on after
# (_GOES_ON; "a.m." may end one), looked for behind a stop only (3.5x a line's search before)
_GOES_ON = r"(?<!\b(?:z\.B|d\.h|e\.g|i\.e|vgl|bzw)\.)(?<!\b[zd]\.\s[Bh]\.)(?<!\bca\.)"
ENDS = lazy_pattern(r"[.!?:;。！？■□∎]" + _GOES_ON + r"[\"'”’»)\]]*$")
LINE_NUMBER = lazy_pattern(r"\s*\d{1,5}\s")  # a listing's line number leading its line: "542 \fi"
STOPS = lazy_pattern(r"[.!?]" + _GOES_ON + r"[\"'”’»)\]]*\s*$")  # a full stop's, no colon's
_LABEL = lazy_pattern(r"\s*(?:\[\w{1,4}\]|\(?\d{1,3}[.)]|[•◦▪‣·–-])\s")  # a reference's, an item's
_RUN_IN = 1.5  # ems: a row's next piece this close after a label is that label's text
_LEADER = lazy_pattern(r"\s*(?:[.·…]\s?){3}")  # a dot leader opening a piece: "······2分"
_LEADER_ROW = 25  # ems: a leader's row at least this wide (no index column's entry and pages)
LEADER_END = lazy_pattern(r"(?:[.·…]\s?){3}\s*$")  # one closing it: "A subsection . . . ."


def script(prev: Line, ln: Line) -> bool:
    """``ln`` is a piece of ``prev``'s row that runs on from it, overlapping its second half or
    just after it (inline math: a subscript, a symbol in its own font, set apart by MuPDF)."""
    return (
        max(ln.size, prev.size) <= 1.6 * min(ln.size, prev.size)
        and ln.x0 > (prev.x0 + prev.x1) / 2
        and ln.x0 - prev.x1 <= _RUN_IN * max(ln.size, prev.size)
    )


def run_in(prev: Line, ln: Line) -> bool:
    """``ln`` runs on from ``prev`` on the same row, a space or so after it (a run-in label's
    text, ``Satz 4.1`` then its statement), not a value set apart in a column of its own."""
    return (
        side_by_side(prev, ln)
        and 0 <= ln.x0 - prev.x1 <= _RUN_IN * max(ln.size, prev.size)
        and abs(ln.size - prev.size) < 1.0
    )


def leads(prev: Line, ln: Line) -> bool:
    """``ln`` opens with a dot leader right of ``prev`` on its row, or ``prev`` ends with one
    and ``ln`` is short (a page, no next column's entry): the rest of ``prev``'s printed line
    (an exam's marks, a contents line's page), no value of its own; on a row ``_LEADER_ROW``
    ems wide or more (an index column's entry and its pages are left apart)."""
    return (
        ln.x0 > prev.x1
        and ln.x1 - prev.x0 >= _LEADER_ROW * prev.size
        and side_by_side(prev, ln)
        and (
            _LEADER.match(ln.text) is not None
            or LEADER_END.search(prev.text) is not None and len(ln.text.strip()) <= VALUE_CHARS
        )
    )


def valued(prev: Line, ln: Line) -> bool:
    """``ln`` is ``prev``'s value on its row, two ems or more right of it: an amount, an
    exam's marks, a time or date (values.VALUE), the end of ``prev``'s printed line."""
    return (
        ln.x0 - prev.x1 >= 2 * ln.size
        and side_by_side(prev, ln)
        and len(ln.text.strip()) <= VALUE_CHARS
        and VALUE.fullmatch(ln.text) is not None
    )


def hung(prev: Line, ln: Line) -> bool:
    """``ln`` hangs under ``prev``'s text past a one-glyph label that is no letter (an OCR
    layer's bullet read as ``0`` or ``'``, a note's mark): a wrap, no first-line indent."""
    head = prev.text[:2]
    return head[1:] == " " and not head[:1].isalpha() and ln.x0 <= prev.x0 + 2 * ln.size


def hung_text(first: Line, ln: Line) -> bool:
    """``ln`` starts where the text after ``first``'s label does (``[12] ``, ``3. ``, a bullet;
    0.6 em a character, within an em): a reference's or an item's wrapped line."""
    label = _LABEL.match(first.text)
    return label is not None and abs(first.x0 + 0.6 * first.size * label.end() - ln.x0) < ln.size


def verse(prev: Line, current: list[Line], right: float, rtl: bool) -> bool:
    """A colon after a short line where two earlier lines stop short of ``right`` (verse)."""
    short = sum(not runs_to_edge(ln, right, rtl) for ln in current if ln is not prev)
    return prev.text.rstrip().endswith(":") and short >= 2


def side_by_side(prev: Line, ln: Line) -> bool:
    """The line sits on the row of the one before, apart from it."""
    y0, y1, top, bottom = ln.y0, ln.y1, prev.y0, prev.y1  # heights inline: 50,000 calls a corpus
    return y0 < bottom - 0.5 * min(y1 - y0, bottom - top) and y1 > top


def stacked(prev: Line, ln: Line) -> bool:
    """``ln`` lies under ``prev``, not beside it, though their boxes share most of a row (a
    Fraktur or overlined letter's tall box): one size, ``ln`` starting in ``prev``'s first half
    and over half its width under ``prev``'s, a line of four words and more (no fraction's
    numerator over its denominator; no subscript: ``script``; no cell: apart)."""
    if abs(ln.size - prev.size) >= 1.0 or len(prev.text.split()) < 4:
        return False
    width, over = ln.x1 - ln.x0, min(ln.x1, prev.x1) - max(ln.x0, prev.x0)
    return ln.x0 < (prev.x0 + prev.x1) / 2 and over > 0.5 * width > 0


def runs_to_edge(ln: Line, right: float, rtl: bool, word: int = 4) -> bool:
    """Whether the line reaches the column's edge (no room left there for a word)."""
    per_char = (ln.x1 - ln.x0) / max(len(ln.text.strip()), 1)
    if rtl:
        return True  # right-aligned starts: the left end tells nothing of a wrap
    return ln.x1 + (word + 1) * per_char >= right


def first_word(text: str) -> int:
    """The length of the text's first word, as wrapping sees it: one character for a script
    that wraps anywhere in a word (Hangul, Chinese, Japanese)."""
    word = (text.split(None, 1) or ["    "])[0]  # no word: as wide as four characters
    code = ord(word[0])  # below U+1100 no script of CJK (most text: no range looked at)
    return 1 if code >= 0x1100 and any(lo <= code <= hi for lo, hi in CJK) else len(word)


def hyphenated(text: str) -> bool:
    """Ends in a letter and a hyphen."""
    return text.endswith("-") and bool(_HYPHEN_END.search(text))


# scripts set without spaces between words (Chinese, Japanese: their punctuation, kana, Han,
# full-width forms); Hangul is no such script (Korean spaces its words)
_UNSPACED = ((0x3000, 0x30FF), (0x3400, 0x4DBF), (0x4E00, 0x9FFF), (0xF900, 0xFAFF), (0xFF00, 0xFFEF))


def unspaced(char: str) -> bool:
    """The character is of a script that sets no spaces between its words."""
    code = ord(char) if char else 0  # below U+3000 none (most text: no range looked at)
    return code >= 0x3000 and any(lo <= code <= hi for lo, hi in _UNSPACED)


def join(lines: Iterable[str], wraps: bool = True) -> str:
    """Lines as one: a word hyphenated at a line end joined ("struc-" + "ture"), Chinese or
    Japanese wrapped inside a run of its characters joined with no space (``wraps``: the lines
    are rows, not pieces of one row; ``发`` / ``行版`` beside Latin words as well), else a space."""
    out = ""
    for line in lines:
        text = " ".join(line.split())
        if not out:
            out = text
        elif hyphenated(out) and text[:1].islower():
            out = out[:-1] + text
        elif (
            wraps and unspaced(out[-1]) and unspaced(text[0])
            and not (_spaced(out[-3:]) or _spaced(text[2::-1]))
        ):  # fmt: skip
            out += text
        else:
            out = f"{out} {text}"
    return out


def _spaced(end: str) -> bool:
    """``end``, the last characters before a break (read towards it), is one character alone or
    one set a space after another Chinese one: a letter-spaced title's ``华 中`` / ``科 技`` or
    a form's label ``题 目`` keeps its spaces; ``安装 TeX 发`` / ``行版`` joins."""
    return len(end) == 1 or end[-2:-1] == " " and unspaced(end[-3:-2])
