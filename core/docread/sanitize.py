"""Output sanitization, applied once per unit: no NULs, control characters, terminal escapes or
invisible text reach a model, names are shown on one line, and metadata stays flat, few and short
(vector stores reject anything else)."""

from __future__ import annotations

import math
import re
from collections.abc import Iterable, Mapping
from typing import TYPE_CHECKING, Any, AnyStr, cast

from .model import POSITION_KEYS  # the model alone: errors.py uses shown_name

if TYPE_CHECKING:
    from .settings import OutputSettings


def lazy_pattern(text: AnyStr, flags: int = 0) -> re.Pattern[AnyStr]:
    """``re.compile(text, flags)`` at the pattern's first use: a module's patterns a first read
    does not run cost no compile (some 0.7 million instructions each, the cold start's template
    imports them all). Each method read once is then a plain attribute (no cost after)."""
    pattern = _Pattern(text, flags)
    _uncompiled.append(pattern)
    return cast("re.Pattern[AnyStr]", pattern)


def compile_patterns() -> None:
    """Compile every ``lazy_pattern`` not compiled yet: the worker template, idle after its first
    fork, so its later workers inherit them compiled instead of each compiling what it uses."""
    while _uncompiled:
        _uncompiled.pop().compiled()


class _Pattern:
    """A regular expression compiled when first used (``lazy_pattern``)."""

    def __init__(self, text: str | bytes, flags: int) -> None:
        self.pattern, self._flags = text, flags  # ``pattern`` as re.Pattern's, not compiling

    def __getattr__(self, name: str) -> Any:
        if name.startswith("__"):
            raise AttributeError(name)  # copy's and pickle's probes: not a pattern's method
        value = self.__dict__[name] = getattr(self.compiled(), name)
        return value

    def compiled(self) -> re.Pattern[Any]:
        """The compiled pattern (compiled now if it was not)."""
        compiled: re.Pattern[Any] | None = self.__dict__.get("_compiled")
        if compiled is None:
            compiled = self.__dict__["_compiled"] = re.compile(self.pattern, self._flags)
        return compiled


_uncompiled: list[_Pattern] = []  # every lazy_pattern, until ``compile_patterns`` compiles them


_ANSI = lazy_pattern(
    r"\x1b\[[0-?]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)?|\x1b[@-Z\\-_]|\x9b[0-?]*[ -/]*[@-~]"
)
_CONTROLS = "\x01-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f"  # C0 but \t \n \r, DEL, C1
_CONTROL = lazy_pattern(f"[{_CONTROLS}]")
# invisible text: zero-width characters, bidi embeddings/overrides/isolates and Unicode tag
# characters (U+E0000-U+E007F, the "ASCII smuggling" channel); removed from bodies, escaped in names
_HIDDEN = ((0x200B, 0x200D), (0x2060, 0x2060), (0xFEFF, 0xFEFF), (0x202A, 0x202E), (0x2066, 0x2069),
           (0xE0000, 0xE007F))  # fmt: skip
# Bodies keep the joiners U+200C/U+200D (Persian and Indic spelling, emoji sequences) and the tag
# characters of an emoji subdivision flag (U+1F3F4 + tags + U+E007F, e.g. England's flag).
_BODY_HIDDEN = ((0x200B, 0x200B), *(r for r in _HIDDEN if r != (0x200B, 0x200D)))
_BODY_CLASS = "".join(f"{chr(lo)}-{chr(hi)}" for lo, hi in _BODY_HIDDEN)
_FLAG = "\U0001f3f4[\U000e0020-\U000e007e]+\U000e007f"
# a lone surrogate (a byte of a name that is not UTF-8, half a UTF-16 pair) becomes U+FFFD, in the
# same scan: no UTF-8 encoder, JSON consumer or vector store takes it
_LONE = "\ud800-\udfff"
_SURROGATE = lazy_pattern(f"[{_LONE}]")
_INVISIBLE = lazy_pattern(f"({_FLAG})|[{_BODY_CLASS}{_LONE}]")
_EITHER = lazy_pattern(
    f"[{_CONTROLS}{_BODY_CLASS}{_LONE}]"
)  # one scan when there is nothing to strip
# what a search types for typographic characters inside words: the hyphens U+2010 and U+2011 (a
# non-breaking hyphen) as "-", no-break spaces (U+00A0, figure U+2007, narrow U+202F) as " ", a
# soft hyphen (U+00AD, invisible unless a line breaks there) removed: "nicht\u2011englischer" is
# found by "nicht-englischer", in every family
_TYPOGRAPHIC = {"\u2010": "-", "\u2011": "-", "\u00a0": " ", "\u2007": " ", "\u202f": " ",
                "\u00ad": ""}  # fmt: skip
# in a name (not in prose) bidi marks and line/paragraph separators are escaped too
_NAME_ONLY = (0x061C, 0x200E, 0x200F, 0x2028, 0x2029)
# a name on one line: C0 (newline and tab too), DEL and C1 as \xNN, invisible and bidi as \uNNNN
_NAME_ESCAPES = {
    **{c: f"\\x{c:02x}" for c in (*range(0x20), *range(0x7F, 0xA0))},
    **{
        c: f"\\u{c:04x}" if c <= 0xFFFF else f"\\U{c:08x}"
        for c in (*(c for lo, hi in _HIDDEN for c in range(lo, hi + 1)), *_NAME_ONLY)
    },
    **dict.fromkeys(range(0xD800, 0xE000), "\ufffd"),
}
MAX_SHOWN_NAME = 300
_INT64 = 1 << 63  # Chroma and Qdrant hold signed 64-bit integers


def readable(text: str) -> str:
    """``text`` as valid Unicode: each lone surrogate (a byte of a name that is not UTF-8) as
    U+FFFD, as ``source``, every metadata value and every name shown hold it."""
    return text if text.isascii() else _SURROGATE.sub("\ufffd", text)


def not_utf8_note(count: int, what: str) -> str:
    """The note on names that are not valid UTF-8 (``count`` of ``what``: "file name")."""
    names = f"{count:,} {what} is" if count == 1 else f"{count:,} {what}s are"
    return (
        f"{names} not valid UTF-8: shown with U+FFFD (\ufffd) for each byte that is not; "
        "read a file by the name shown"
    )


def shown_text(text: str) -> str:
    """``text`` on one line with nothing hidden: control, bidi and invisible characters escaped,
    a byte of a name that is not UTF-8 as U+FFFD."""
    return text.translate(_NAME_ESCAPES)


def shown_name(name: str, limit: int = MAX_SHOWN_NAME) -> str:
    """A file or member name as shown to a model or a terminal: escaped (``shown_text``) and cut in
    the middle past ``limit`` characters, so neither a forged line nor a screenful gets through."""
    shown = shown_text(name)
    if len(shown) <= limit:
        return shown
    half = (limit - 3) // 2
    return f"{shown[:half]}...{shown[-half:]}"


def capped(value: str, limit: int) -> str:
    """A header value held to ``limit`` characters (``output.max_metadata_value_len``), saying so:
    every header line (the view's, an image's EXIF block, an audio file's tags) goes through it."""
    if len(value) <= limit:
        return value
    return f"{value[:limit]}... [{len(value):,} chars; output.max_metadata_value_len={limit:,}]"


def capped_lines(lines: list[str], limit: int) -> list[str]:
    """A header block's lines held to ``limit`` (``output.max_metadata_fields``), the rest counted
    on one line: every block of a header goes through it (the view's Metadata, an image's EXIF,
    an audio file's tags)."""
    if len(lines) <= limit:
        return lines
    more = f"  - ... {len(lines) - limit} more (output.max_metadata_fields={limit})"
    return [*lines[:limit], more]


def clean_text(text: str, output: OutputSettings) -> str:
    """Strip ANSI escape sequences, NUL bytes, control and invisible characters (keeping \\n, \\t);
    lone surrogates become U+FFFD; typographic hyphens and no-break spaces become what a search
    types."""
    return clean_body(text, output)[0]


def clean_body(text: str, output: OutputSettings) -> tuple[str, int]:
    """``clean_text``, and how many invisible or bidi control characters it removed (hidden text
    the caller should be told about)."""
    if "\x1b" in text or "\x9b" in text:
        text = _ANSI.sub("", text)
    if "\r" in text:
        text = text.replace("\r\n", "\n").replace("\r", "\n")
    if output.strip_null_bytes and "\x00" in text:
        text = text.replace("\x00", "")
    if text.startswith("\ufeff"):  # a byte-order mark, not hidden text
        text = text[1:]
    if text.isascii():  # printable: none of _CONTROLS (a metadata value, once a unit each)
        strip = output.strip_control_chars and not text.isprintable()
        return (_CONTROL.sub("", text) if strip else text), 0
    for char, typed in _TYPOGRAPHIC.items():  # a C-speed scan each (a regex class: 5x slower)
        if char in text:
            text = text.replace(char, typed)
    hidden = _EITHER if output.strip_control_chars else _INVISIBLE
    if _printable(text) or hidden.search(text) is None:
        return text, 0
    if output.strip_control_chars:
        text = _CONTROL.sub("", text)
    removed = 0

    def drop(match: re.Match[str]) -> str:
        nonlocal removed
        if match.group(1):  # a flag's tag sequence is what it looks like
            return match.group(1)
        if "\ud800" <= match.group() <= "\udfff":  # a lone surrogate: shown, not hidden
            return "\ufffd"
        removed += 1
        return ""

    return _INVISIBLE.sub(drop, text), removed


def _printable(text: str) -> bool:
    """No character but printable ones, line breaks and tabs: then none of ``_EITHER``'s (each
    is a control, format, surrogate or unassigned character, which ``str.isprintable`` refuses),
    found at a third of the regular expression's cost (a page past ASCII, every page)."""
    return text.replace("\n", "").replace("\t", "").isprintable()


def flat_value(value: Any) -> str | int | float | bool | None:
    """A JSON scalar for a metadata value, as every common vector store keeps it: dates as ISO
    8601, containers as compact JSON; a number no store holds as given (NaN or infinity, which
    Chroma drops and JSON lacks; an integer past 64 bits, which Chroma turns into a float) as
    its decimal string."""
    if value is None or isinstance(value, bool | str):
        return value
    if isinstance(value, int):
        return value if -_INT64 <= value < _INT64 else str(value)
    if isinstance(value, float):
        return value if math.isfinite(value) else str(value)
    if isinstance(value, bytes):
        return f"<{len(value)} bytes>"
    if isinstance(value, list | tuple | set | frozenset) and all(
        isinstance(v, str | int | float) for v in value
    ):
        return ", ".join(str(v) for v in value)
    import datetime  # here, for the rare value past the flat ones (the cold start's path: none)
    import json

    if isinstance(value, datetime.date):  # a datetime too
        return value.isoformat()
    try:
        return json.dumps(value, default=str, ensure_ascii=False)
    except (TypeError, ValueError):
        return str(value)


# THE protected keys: never cut (a truncated path breaks upserts) and never dropped by the field
# cap, which applies to the remaining, descriptive keys. Identity and position (model.POSITION_KEYS),
# and every key the views (views/sections.py: the rendering by `extractor`, the windows' ends, a
# table's head and summary, `## Page 3 [OCR]`; views/media.py: a picture's size), the chunker
# (`markdown`, `headings`) and the wrappers (`page_count`) decide by, so a small cap never changes
# a view.
PROTECTED_KEYS = frozenset({
    "source", "file_path", "file_name", "format", "category", "mime_type", "archive", "depth",
    "extractor", "page_count", "slide_count", "line_end", "row_end", "markdown", "headings",
    "ocr", "table_caption", "total_rows", "total_rows_note", "column_types", "file_count",
    "width", "height", "section_id", "page_section", "bookmarks", *POSITION_KEYS,
})  # fmt: skip
# values never cut: a PDF page's outline entries (``bookmarks``) must all reach the section tree
_WHOLE = frozenset({"bookmarks", *POSITION_KEYS})
# the real path, so a loader can open it again (a name that is not UTF-8 with U+FFFD, which the
# workspace reads back): a JSON or repr shows its escapes, views use shown_name
_PATHS = frozenset({"source", "file_path", "file_name", "archive", "member"})


# list-valued keys: a short list of short strings each (the heading path of a PDF page)
_LISTS = frozenset({"headings"})
_MAX_LIST = 8


def string_list(items: Iterable[str]) -> list[str]:
    """A list-valued metadata key (``headings``) as every common vector store takes it: its
    non-blank strings; when none is left the key is left out, never an empty list (Chroma
    refuses an empty list and one of mixed types; LlamaIndex's flat stores refuse any list, so
    its wrapper joins this one into a string). Units (``clean_metadata``) and chunks (the
    chunker's heading path) both go through it."""
    return [item for item in items if item.strip()]


def _string_list(raw: Any, output: OutputSettings) -> list[str] | None:
    """A list of strings kept as one (``string_list``): at most _MAX_LIST, each cleaned and cut
    like a value; None when ``raw`` is not a list of strings."""
    if not isinstance(raw, list | tuple) or not all(isinstance(v, str) for v in raw):
        return None
    limit = output.max_metadata_value_len
    items = [clean_text(" ".join(v.split()), output) for v in raw[:_MAX_LIST]]
    return string_list(v if len(v) <= limit else v[:limit] + "..." for v in items)


def clean_metadata(
    metadata: Mapping[str, Any],
    output: OutputSettings,
    seen: dict[tuple[str, type, Any], Any] | None = None,
) -> dict[str, Any]:
    """Flat scalars only (``flat_value``; and the list keys of _LISTS: short strings, left out
    when empty: ``string_list``), never None; ``PROTECTED_KEYS`` always kept, first, the other
    keys after them, capped at ``max_metadata_fields`` in all; values cut at
    ``max_metadata_value_len`` characters, paths and positions never; paths as given. ``seen``:
    scalar values cleaned before, by key (one file's units repeat most of their metadata: the
    pipeline keeps one per file, so a page's 20 keys are not cleaned again on every page)."""
    out: dict[str, Any] = {}
    rest: list[tuple[str, Any]] = []
    for key, raw in metadata.items():  # one pass over the keys: once a unit
        if key in PROTECTED_KEYS:
            _keep(out, key, raw, output, seen)
        else:
            rest.append((key, raw))
    for key, raw in rest:
        if len(out) >= output.max_metadata_fields:
            break
        _keep(out, key, raw, output, seen)
    return out


_MISSING = object()  # no cleaned value known yet
_SCALARS = frozenset({str, int, float, bool})  # the values ``seen`` holds: immutable, hashable
_SEEN_MAX = 4096  # values ``seen`` holds at most: a file of unique titles does not grow it on


def _keep(
    out: dict[str, Any],
    key: str,
    raw: Any,
    output: OutputSettings,
    seen: dict[tuple[str, type, Any], Any] | None,
) -> None:
    """``raw`` cleaned (``clean_metadata``) into ``out[key]``, unless it is None or an empty
    list; a scalar's cleaned value from ``seen`` when it was cleaned before (its type in the key:
    ``1``, ``1.0`` and ``True`` are equal and hash alike)."""
    memo = seen if seen is not None and type(raw) in _SCALARS else None
    mark = (key, type(raw), raw)
    if memo is not None:
        value = memo.get(mark, _MISSING)
        if value is not _MISSING:
            if value is not None:
                out[str(key)] = value
            return
    if key in _LISTS and (items := _string_list(raw, output)) is not None:
        if items:  # else left out: Chroma refuses an empty list
            out[str(key)] = items
        return
    value = flat_value(raw)
    if isinstance(value, str) and key in _PATHS:
        value = readable(value)  # valid UTF-8 for every consumer (JSON, Arrow, stores)
    elif isinstance(value, str):
        value = clean_text(value, output)
        if key not in _WHOLE and len(value) > output.max_metadata_value_len:
            value = value[: output.max_metadata_value_len] + "..."
    if memo is not None:
        if len(memo) >= _SEEN_MAX:
            memo.clear()
        memo[mark] = value
    if value is not None:
        out[str(key)] = value



def cut_cell(text: str, output: OutputSettings) -> str:
    """A table cell capped at ``max_cell_content`` characters, with a visible marker."""
    limit = output.max_cell_content
    if len(text) <= limit:
        return text
    return f"{text[:limit]}... [cell truncated: {len(text):,} chars]"
