"""Where a PDF page's outline entries start in its text: the ``bookmarks`` stamp a loaded page
carries (``extractors.pdf.bookmarks``) read back, and each entry placed at the heading (or line)
of its page that says its title, by bisection over an index of line starts (a page that lists
thousands of entries is not scanned once per entry)."""

from __future__ import annotations

import bisect
import re
from collections.abc import Iterable

from .headings import headings, title_key
from .tree import ordinal_of

_ENTRY = re.compile(r"^(s\d+) (-?\d+) (.*)$")
#: Words of a heading whose starts name a bookmark that is its beginning.
_PREFIX_WORDS = 16


def bookmark_entries(stamp: str) -> list[tuple[int, int, str]]:
    """A page's ``bookmarks`` stamp (``s42 4 Title`` lines) as (rank, level, title)."""
    out: list[tuple[int, int, str]] = []
    for line in stamp.split("\n"):
        m = _ENTRY.match(line.strip())
        if m and (ordinal := ordinal_of(m.group(1))) is not None:
            out.append((ordinal, int(m.group(2)), m.group(3)))
    return out


def place_bookmarks(text: str, titles: list[str]) -> list[tuple[int, bool]]:
    """Where each of a page's outline entries starts in its text, in order: the first heading
    line after the one before whose title starts with it (``Armored Ogre Creatures`` for
    ``Armored Ogre``), else a line that is the title; (offset, True). Not found: the page's
    start for its first entry, else where the next found one starts, else the page's end (the
    section then starts with the next page); (offset, False)."""
    if not titles:
        return []
    keys = [title_key(title) for title in titles]
    marks = _Offsets((h.at, title_key(h.title)) for h in headings(text))
    lines: _Offsets | None = None  # built when a title is no heading (most pages of an off read)
    found: list[int | None] = []
    low = 0
    for key in keys:
        at = marks.first(key, low)
        if at is None:
            lines = _Offsets(_lines(text, keys), prefixes=False) if lines is None else lines
            at = lines.first(key, low)
        found.append(at)
        if at is not None:
            low = at + 1
    first = next((i for i, at in enumerate(found) if at is not None), len(found))
    later, out = len(text), [(0, False)] * len(found)
    for i in range(len(found) - 1, -1, -1):  # one pass back: where the next found one starts
        at = found[i]
        out[i] = (at, True) if at is not None else (0 if i < first else later, False)
        later = at if at is not None else later
    return out


class _Offsets:
    """Lines by what they say (``title_key``), and with ``prefixes`` by each start of it of whole
    words (at most _PREFIX_WORDS): the first at or after an offset, by bisection (a page of
    thousands of entries is not scanned once per entry)."""

    def __init__(self, lines: Iterable[tuple[int, str]], *, prefixes: bool = True) -> None:
        self.at: dict[str, list[int]] = {}
        for at, key in lines:
            if not prefixes:
                self.at.setdefault(key, []).append(at)
                continue
            words = key.split(" ")
            starts = {" ".join(words[:n]) for n in range(1, min(len(words), _PREFIX_WORDS) + 1)}
            for start in {key, *starts}:
                self.at.setdefault(start, []).append(at)

    def first(self, key: str, low: int) -> int | None:
        found = self.at.get(key) if key else None
        if not found:
            return None
        i = bisect.bisect_left(found, low)
        return found[i] if i < len(found) else None


def _lines(text: str, keys: list[str]) -> list[tuple[int, str]]:
    """The lines of ``text`` that may say one of ``keys``, as (offset, title_key): a line can
    only if its casefolded text holds each word of the key (``title_key`` casefolds character
    by character and only takes markup and spaces out), so the lines holding its longest word
    are found by ``str.find`` over the whole page rather than a ``title_key`` of every line."""
    words = {max(key.split(" "), key=len) for key in keys if key}
    folded = text.casefold()  # character by character: its line breaks are the text's
    found: set[int] = set()
    for word in words:
        at = folded.find(word)
        while at >= 0:
            found.add(folded.rfind("\n", 0, at) + 1)
            end = folded.find("\n", at)
            at = folded.find(word, end) if end >= 0 else -1
    starts = sorted(found)
    if len(folded) != len(text):  # a character folded to several (ß): the text's own offsets
        shifted = [at for at, _ in _spans(folded)]  # line i starts here in ``folded``
        lines = [at for at, _ in _spans(text)]
        starts = [lines[bisect.bisect_left(shifted, at)] for at in starts]
    out = []
    for at in starts:
        end = text.find("\n", at)
        line = text[at:] if end < 0 else text[at:end]
        if line.strip():
            out.append((at, title_key(line)))
    return out


def _spans(text: str) -> list[tuple[int, str]]:
    """The lines of ``text`` with their offsets."""
    out, at = [], 0
    for line in text.split("\n"):
        out.append((at, line))
        at += len(line) + 1
    return out
