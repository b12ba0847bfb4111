"""Parsers for the selection mini-languages: pages "1-5,7,9-", rows "head:50", columns "A-C";
which units a page selection picks, and selected numbers written back as compact spans."""

from __future__ import annotations

import functools
import re
from collections.abc import Callable, Iterable

from ..errors import InvalidOptionError
from ..model import dataclass
from ..sanitize import lazy_pattern, shown_name

#: The largest number an option takes (a page, row, line or sheet index): past every real file,
#: inside the 64-bit integers SQLite and Arrow take, and far from Python's refusal of int() on
#: over 4,300 digits (a raw ValueError, an "Internal server error" over MCP).
MAX_NUMBER = 10**15


def check_number(param: str, value: int, given: object = None) -> int:
    """``value`` if it is at most MAX_NUMBER, else an InvalidOptionError naming ``param`` (and
    the ``given`` option text, cut to a readable length)."""
    if abs(value) > MAX_NUMBER:
        shown = "" if given is None else f"={shown_name(repr(given), 40)}"
        raise InvalidOptionError(f"{param}{shown}: a number is over the limit of {MAX_NUMBER:,}")
    return value


def number(digits: str, param: str, given: str) -> int:
    """The whole number written as ``digits`` in option ``param`` (its text ``given``), checked
    against MAX_NUMBER before int() is asked to convert it."""
    if len(digits.lstrip("0")) > len(str(MAX_NUMBER)):
        return check_number(param, MAX_NUMBER + 1, given)
    return check_number(param, int(digits), given)


_SPAN = lazy_pattern(r"^\s*(\d+)\s*(?:(-)\s*(\d*)\s*)?$")


@dataclass(frozen=True, slots=True)
class PageSpec:
    """A validated page (or slide, chapter) selection: 1-based spans, an open end allowed."""

    spans: tuple[tuple[int, int | None], ...]
    text: str
    param: str = "pages"  # the option it came from, named in every message

    @classmethod
    def parse(cls, text: str, *, param: str = "pages") -> PageSpec:
        spans: list[tuple[int, int | None]] = []
        for part in str(text).split(","):
            m = _SPAN.match(part)
            if not m:
                raise InvalidOptionError(
                    f"{param}={text!r}: expected page numbers and ranges like '1-5', '3', '1,3,5-10' or '5-'"
                )
            start = number(m.group(1), param, text)
            end: int | None = (
                start if not m.group(2) else number(m.group(3), param, text) if m.group(3) else None
            )
            if start < 1:
                raise InvalidOptionError(f"{param}={text!r}: pages are numbered from 1")
            if end is not None and end < start:
                raise InvalidOptionError(
                    f"{param}={text!r}: range {start}-{end} ends before it starts"
                )
            spans.append((start, end))
        return cls(tuple(spans), str(text), param)

    def resolve(
        self,
        count: int,
        *,
        unit: str = "page",
        path: str | None = None,
        warn: Callable[[str], None] | None = None,
    ) -> list[int]:
        """1-based numbers in the order given, without repeats. Spans reaching past ``count``
        are clamped to the units that exist, said through ``warn``; a selection with no unit
        inside the document is an error naming the parameter and the count."""
        out: list[int] = []
        seen: set[int] = set()
        clamped = False
        for start, end in self.spans:
            stop = count if end is None else end
            if start > count or stop > count:
                clamped = True
            for n in range(start, min(stop, count) + 1):
                if n not in seen:
                    seen.add(n)
                    out.append(n)
        has = f"{count} {unit}{'s' if count != 1 else ''}"
        counts = "" if unit == "page" else f" ({self.param}= counts {unit}s in this file)"
        if not out:
            raise InvalidOptionError(
                f"{path or 'file'}: {self.param}={self.text!r} is out of range: the document "
                f"has {has}{counts}",
                path=path,
            )
        if clamped and warn is not None:
            read = compact_spans(out, sep=",")
            warn(f"{self.param}={self.text}: the file has {has}; read {read}{counts}")
        return out


def select_units(
    spec: PageSpec | None,
    count: int,
    *,
    unit: str = "page",
    path: str | None = None,
    warn: Callable[[str], None] | None = None,
) -> list[int]:
    """The 1-based units (pages, slides, sections) of ``count`` that ``spec`` selects (clamped
    to the ones that exist, said through ``warn``); every one of them without a spec."""
    if spec is None:
        return list(range(1, count + 1))
    return spec.resolve(count, unit=unit, path=path, warn=warn)


def compact_spans(numbers: Iterable[int], sep: str = ", ", name: Callable[[int], str] = str) -> str:
    """Consecutive runs joined, the way ``pages`` is written: [1, 2, 3, 5] -> "1-3, 5" ("" for
    none); ``name`` spells each number (column letters: [0, 1, 2, 4] -> "A-C, E")."""
    runs: list[list[int]] = []
    for n in numbers:
        if runs and n == runs[-1][1] + 1:
            runs[-1][1] = n
        else:
            runs.append([n, n])
    return sep.join(name(a) if a == b else f"{name(a)}-{name(b)}" for a, b in runs)


_ROWS = lazy_pattern(r"^\s*(?:(head|tail)\s*:\s*(\d+)|(\d+)\s*(?:-\s*(\d*))?)\s*$", re.IGNORECASE)


@dataclass(frozen=True, slots=True)
class RowSpec:
    """A row window over 1-based data rows: head:N, tail:N, a-b, a- or a single row."""

    kind: str  # "head" | "tail" | "range"
    start: int = 1
    stop: int | None = None  # inclusive; None = to the end
    count: int = 0  # for head/tail
    text: str = ""

    @classmethod
    def parse(cls, text: str, *, param: str = "rows") -> RowSpec:
        m = _ROWS.match(str(text))
        if not m:
            raise InvalidOptionError(
                f"{param}={text!r}: expected 'head:50', 'tail:20', '1-100', '10-' or a single row '250'"
            )
        if m.group(1):
            n = number(m.group(2), param, text)
            if n < 1:
                raise InvalidOptionError(f"{param}={text!r}: the count must be at least 1")
            return cls(m.group(1).lower(), count=n, text=str(text))
        start = number(m.group(3), param, text)
        if start < 1:
            raise InvalidOptionError(f"{param}={text!r}: rows are numbered from 1")
        if m.group(4) is None:
            stop: int | None = start if "-" not in str(text) else None
        else:
            stop = number(m.group(4), param, text) if m.group(4) else None
        if stop is not None and stop < start:
            raise InvalidOptionError(
                f"{param}={text!r}: range {start}-{stop} ends before it starts"
            )
        return cls("range", start=start, stop=stop, text=str(text))

    def bounds(
        self, total: int, *, warn: Callable[[str], None] | None = None, path: str | None = None
    ) -> tuple[int, int]:
        """(first, last) 1-based inclusive rows for a table of ``total`` rows; last < first if empty.

        With ``warn`` (``total`` is the exact count), a range reaching past the last row is
        clamped with a note and a range starting past it is an error naming ``rows`` and the count.
        """
        if self.kind == "head":
            return 1, min(self.count, total)
        if self.kind == "tail":
            return max(1, total - self.count + 1), total
        stop = total if self.stop is None else min(self.stop, total)
        if warn is not None:
            check_row_window(self, total, warn=warn, path=path)
        return self.start, stop


def check_row_window(
    spec: RowSpec, total: int, *, warn: Callable[[str], None], path: str | None = None
) -> None:
    """For a range window over a table of exactly ``total`` data rows: an error when it starts
    past the last row, a note when it reaches past it (the rows that exist are read)."""
    if spec.kind != "range":
        return
    has = f"{total:,} data row{'s' if total != 1 else ''}"
    if spec.start > total and total > 0:
        raise InvalidOptionError(
            f"{path or 'file'}: rows={spec.text!r} is out of range: the table has {has}",
            path=path,
        )
    if spec.stop is not None and spec.stop > total and spec.start <= total:
        warn(f"rows={spec.text}: the table has {has}; read {spec.start}-{total}")


_LETTERS = lazy_pattern(r"^[A-Z]{1,3}$")


def column_letter_index(letters: str) -> int:
    """'A' -> 0, 'Z' -> 25, 'AA' -> 26."""
    n = 0
    for ch in letters:
        n = n * 26 + (ord(ch) - 64)
    return n - 1


def column_letter(index: int) -> str:
    """0 -> 'A', 26 -> 'AA'."""
    out = ""
    index += 1
    while index:
        index, rem = divmod(index - 1, 26)
        out = chr(65 + rem) + out
    return out


@dataclass(frozen=True, slots=True)
class ColumnSpec:
    """Columns by name ("name,age") or spreadsheet letter ("A,C", "A-F")."""

    tokens: tuple[str, ...]
    text: str

    @classmethod
    def parse(cls, text: str, *, param: str = "columns") -> ColumnSpec:
        tokens = tuple(t.strip() for t in str(text).split(",") if t.strip())
        if not tokens:
            raise InvalidOptionError(
                f"{param}={text!r}: name at least one column, e.g. 'name,age' or 'A-C'"
            )
        return cls(tokens, str(text))

    def resolve(self, names: list[str], *, path: str | None = None) -> list[int]:
        """0-based column indices; names win over letters; unknown columns list the real ones."""
        if all(t in names for t in self.tokens):
            return [names.index(t) for t in self.tokens]
        out: list[int] = []
        for tok in self.tokens:
            if tok in names:
                out.append(names.index(tok))
                continue
            a, _, b = tok.upper().partition("-")
            if _LETTERS.match(a) and (not b or _LETTERS.match(b)):
                lo, hi = column_letter_index(a), column_letter_index(b or a)
                if lo <= hi < len(names):
                    out.extend(i for i in range(lo, hi + 1) if i not in out)
                    continue
            shown = ", ".join(names[:60]) + (" ..." if len(names) > 60 else "")
            raise InvalidOptionError(
                f"{path or 'file'}: unknown column {tok!r} in columns={self.text!r}; "
                f"the columns are: {shown} (or letters A-{column_letter(max(len(names) - 1, 0))})",
                path=path,
            )
        return out


def select_columns(
    spec: ColumnSpec | None, names: list[str], *, path: str | None = None
) -> list[int]:
    """The 0-based columns of ``names`` that ``spec`` selects; every one of them without a spec."""
    return spec.resolve(names, path=path) if spec else list(range(len(names)))


MAX_PATTERN_LEN = 1000


def glob_match(rel: str, pattern: str) -> bool:
    """Glob over a '/'-separated path: ``*`` and ``?`` stay inside one folder, ``**`` spans
    folders (``src/**`` is everything below src, ``**/*.py`` any .py), and a pattern without
    '/' matches the file name at any depth ("*.py"). Linear in the path, whatever the pattern."""
    if "/" not in pattern:
        rel = rel.rsplit("/", 1)[-1]
    return compile_glob(pattern).match(rel)


@functools.lru_cache(maxsize=64)
def compile_glob(pattern: str, param: str = "pattern") -> Glob:
    """The pattern parsed once; a malformed one ("[z-a]", an unclosed "[") is an
    InvalidOptionError naming ``param``."""
    if len(pattern) > MAX_PATTERN_LEN:
        raise InvalidOptionError(
            f"{param}: the pattern is {len(pattern):,} characters, over the limit of "
            f"{MAX_PATTERN_LEN:,}"
        )
    return Glob(_glob_tokens(pattern, param))


# tokens: one character (a literal, "?" or a [...] class) or a loop: "*" (within a folder), "**"
# (anything) and "**/" (zero or more whole folders)
_STAR, _ANY, _FOLDERS, _ENTER = "*", "**", "**/", "enter"


@dataclass(frozen=True, slots=True)
class _Class:
    """A ``[...]`` set of characters: single ones and ranges, negated by a leading ``!`` or ``^``."""

    ranges: tuple[tuple[str, str], ...]
    negated: bool

    def __contains__(self, ch: str) -> bool:
        inside = any(lo <= ch <= hi for lo, hi in self.ranges)
        return inside != self.negated and (ch != "/" or not self.negated)


_Token = str | _Class
# a loop next to one that covers it adds nothing ("***" is "**", "**/**" is "**"): merged while
# parsing, so "*" * 20 is one state, not twenty
_ABSORBS: dict[tuple[_Token, _Token], str] = {
    (_STAR, _STAR): _STAR, (_STAR, _ANY): _ANY, (_ANY, _STAR): _ANY, (_ANY, _ANY): _ANY,
    (_ANY, _FOLDERS): _ANY, (_FOLDERS, _ANY): _ANY, (_FOLDERS, _FOLDERS): _FOLDERS,
}  # fmt: skip


def _glob_tokens(pattern: str, param: str) -> tuple[_Token, ...]:
    """The pattern as tokens, left to right: "**/" before "**" before "*"."""
    tokens: list[_Token] = []
    i = 0
    while i < len(pattern):
        tok: _Token
        if pattern.startswith("**/", i):
            tok, i = _FOLDERS, i + 3
        elif pattern.startswith("**", i):
            tok, i = _ANY, i + 2
        elif pattern[i] == "[":
            tok, i = _parse_class(pattern, i, param)
        else:
            tok, i = pattern[i], i + 1
        if tokens and (tokens[-1], tok) in _ABSORBS:
            tokens[-1] = _ABSORBS[(tokens[-1], tok)]
        else:
            tokens.append(tok)
    return tuple(tokens)


def _parse_class(pattern: str, start: int, param: str) -> tuple[_Class, int]:
    """``[...]`` from ``start`` (the "["): a "]" right after the "[" (or "[!") is a member."""
    i = start + 1
    negated = i < len(pattern) and pattern[i] in "!^"
    i += negated
    first, ranges = i, []
    while i < len(pattern) and (pattern[i] != "]" or i == first):
        lo = hi = pattern[i]
        if i + 2 < len(pattern) and pattern[i + 1] == "-" and pattern[i + 2] != "]":
            hi = pattern[i + 2]
            if hi < lo:
                raise InvalidOptionError(
                    f"{param}={pattern!r}: the range {lo}-{hi} ends before it starts"
                )
            i += 2
        ranges.append((lo, hi))
        i += 1
    if i >= len(pattern):
        raise InvalidOptionError(
            f"{param}={pattern!r}: the '[' at position {start + 1} is never closed; "
            "write '[[]' for a literal '['"
        )
    return _Class(tuple(ranges), bool(negated)), i + 1


class Glob:
    """A compiled glob, matched by following all its states at once (a bit set over the tokens,
    a lazily built DFA), so no pattern makes matching backtrack: linear in the path's length.

    ``**/`` is three states: a choice (skip the folders or enter them), anything, then a "/"."""

    def __init__(self, tokens: tuple[_Token, ...]) -> None:
        states: list[_Token] = []
        for tok in tokens:
            states += [_ENTER, _ANY, "/"] if tok == _FOLDERS else [tok]
        self.states = tuple(states)
        self._accept = 1 << len(states)
        self._skip = sum(1 << i for i, t in enumerate(states) if t in (_STAR, _ANY, _ENTER))
        self._bypass = sum(1 << i for i, t in enumerate(states) if t == _ENTER)  # zero folders
        self._start = self._closure(1)
        self._moves: dict[tuple[int, str], int] = {}

    def match(self, text: str) -> bool:
        state, moves = self._start, self._moves
        for ch in text:
            nxt = moves.get((state, ch))
            state = self._move(state, ch) if nxt is None else nxt
            if not state:
                return False
        return bool(state & self._accept)

    def _move(self, state: int, ch: str) -> int:
        """The states after ``ch``: characters it moves past, loops it stays in, then the empty
        moves. Remembered for the next path, up to a bound (real paths use few characters)."""
        step = stay = 0
        for i, tok in enumerate(self.states):
            bit = 1 << i
            if not state & bit or tok == _ENTER:
                continue
            if tok == _ANY or (tok == _STAR and ch != "/"):
                stay |= bit
            elif _one(tok, ch):
                step |= bit
        nxt = self._closure((step << 1) | stay)
        if len(self._moves) < 4096:
            self._moves[(state, ch)] = nxt
        return nxt

    def _closure(self, state: int) -> int:
        """Add the states reached without a character: past an empty loop, past zero folders."""
        while (more := state | (state & self._skip) << 1 | (state & self._bypass) << 3) != state:
            state = more
        return state


def _one(tok: _Token, ch: str) -> bool:
    """Whether a one-character token (a literal, "?" or a [...] class) takes ``ch``."""
    if isinstance(tok, _Class):
        return ch in tok
    return tok == ch or (tok == "?" and ch != "/")
