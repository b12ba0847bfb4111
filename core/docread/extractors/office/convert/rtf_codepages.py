"""RTF ``\\'hh`` byte escapes rewritten as ``\\uN`` escapes before pandoc, which reads them as
Windows-1252 only: each run is decoded with the code page in force (the current font's
``\\fcharset``, else the document's ``\\ansicpgN``), a DBCS lead byte taking the next byte as its
trail, so Japanese, Chinese, Korean, Greek and Cyrillic text survives. Literal ``\\uN``
fallback characters become ``\\'3f`` (pandoc drops the character after a literal one), CJK
``\\fmodern`` fonts ``\\fnil``. One linear pass, no recursion; other bytes are kept as they are."""

from __future__ import annotations

import codecs
import re
from dataclasses import dataclass, field

# \fcharsetN -> Python codec (Windows code pages); charsets not listed fall back to \ansicpg
CHARSET_CODECS = {
    128: "cp932", 129: "cp949", 130: "johab", 134: "gbk", 136: "big5",
    161: "cp1253", 162: "cp1254", 177: "cp1255", 178: "cp1256", 186: "cp1257",
    204: "cp1251", 222: "cp874", 238: "cp1250",
}  # fmt: skip
_SYMBOL = 2  # \fcharset2: symbol fonts (Wingdings...) whose bytes are glyph numbers, left alone
_CJK = {128, 129, 130, 134, 136}
_PANDOC_NATIVE = {"cp1252"}  # what pandoc already decodes right
_MAX_UC = 8  # \ucN fallback counts Word writes are 1 or 2

_TOKEN = re.compile(
    rb"(?P<hex>\\'[0-9a-fA-F]{2}(?:[\r\n]*\\'[0-9a-fA-F]{2})*)"
    rb"|\\(?P<word>[a-zA-Z]{1,32})(?P<num>-?\d{1,10})? ?"
    rb"|\\[^a-zA-Z']|\\'|[{}]|[^\\{}]+",
    re.S,
)
_HEX_BYTE = re.compile(rb"\\'([0-9a-fA-F]{2})")
_LITERAL = re.compile(rb"[^\r\n]")
_TRAIL = re.compile(rb"\\[\\{}]|[^\\{}\r\n]")  # a DBCS trail byte written as a plain character


@dataclass(slots=True)
class _State:
    """What a group inherits: its font and its ``\\uc`` count."""

    font: int | None
    uc: int = 1


@dataclass(slots=True)
class _FontTable:
    """Font number -> codec, read from ``\\fonttbl`` (``\\cpgN`` wins over ``\\fcharsetN``)."""

    codecs: dict[int, str | None] = field(default_factory=dict)
    depth: int = -1  # group depth of the \fonttbl group while inside it, else -1
    current: int = 0
    modern: int = -1  # offset of the current font's \fmodern, if any
    cjk: bool = False  # the current font has a CJK charset

    def define(self, word: bytes, num: int, start: int) -> int:
        """Read one control word of the table; the offset of an ``\\fmodern`` to rewrite as
        ``\\fnil`` (a CJK font is fixed-pitch by design, yet pandoc makes every run of a
        ``\\fmodern`` font inline code, one span per character), else -1."""
        if word == b"f":
            self.current, self.modern, self.cjk = num, -1, False
        elif word == b"fmodern":
            self.modern = start
        elif word == b"fcharset":
            self.codecs[self.current] = None if num == _SYMBOL else CHARSET_CODECS.get(num, "")
            self.cjk = num in _CJK
        elif word == b"cpg" and _codec(f"cp{num}"):
            self.codecs[self.current] = f"cp{num}"
        at = self.modern if self.cjk else -1
        self.modern = -1 if at >= 0 else self.modern
        return at


def _codec(name: str) -> str:
    """The Python codec name for ``name``, or "" when Python has no such codec."""
    try:
        return codecs.lookup(name).name
    except LookupError:
        return ""


def decode_codepages(data: bytes) -> bytes:
    """``data`` with every ``\\'hh`` run outside the font table and outside ``\\uN`` fallbacks
    replaced by ``\\uN`` escapes of the characters the code page in force makes of it."""
    if b"\\'" not in data and b"\\fmodern" not in data and b"\\u" not in data:
        return data
    fonts = _FontTable()
    ansi, default_font = "cp1252", 0
    stack: list[_State] = []
    state = _State(None)
    out: list[bytes] = []
    done = pos = skip = 0  # skip: fallback characters still to pass after a \uN
    end = len(data)
    while pos < end:
        m = _TOKEN.match(data, pos)
        if m is None:  # a lone backslash at the very end
            break
        tok, pos = m.group(), m.end()
        if tok == b"{":
            stack.append(_State(state.font, state.uc))
            skip = 0
        elif tok == b"}":
            if fonts.depth == len(stack):
                fonts.depth = -1
            state = stack.pop() if stack else state
            skip = 0
        elif m.group("word") is not None:
            word, num = m.group("word"), int(m.group("num") or 0)
            if word == b"bin":  # raw bytes follow; never tokenized
                pos = min(pos + max(num, 0), end)
                skip = 0
            elif skip:
                skip -= 1
            elif fonts.depth >= 0:
                at = fonts.define(word, num, m.start())
                if at >= 0:
                    out += [data[done:at], b"\\fnil"]
                    done = at + len(b"\\fmodern")
            elif word == b"fonttbl":
                fonts.depth = len(stack)
            elif word == b"f":
                state.font = num
            elif word == b"plain":
                state.font = default_font
            elif word == b"deff":
                default_font = num
                state.font = num if state.font is None else state.font
            elif word == b"ansicpg":
                ansi = _codec(f"cp{num}") or ansi
            elif word == b"uc":
                state.uc = max(num, 0)
            elif word == b"u":
                skip = state.uc
        elif m.group("hex") is not None:
            run = tok
            if skip:  # the first bytes are the fallback of a \uN: kept as they are
                fallback = _HEX_BYTE.findall(run)
                if len(fallback) <= skip:
                    skip -= len(fallback)
                    continue
                cut = list(_HEX_BYTE.finditer(run))[skip]
                run, skip = run[cut.start() :], 0
            name = None if fonts.depth >= 0 else _font_codec(fonts, state.font, ansi)
            if name is None:
                continue
            text, pos = _decode_run(data, run, pos, name)
            out += [data[done : m.end() - len(run)], _escapes(text, state.uc)]
            done = pos
        elif skip and tok[:1] == b"\\":  # a control symbol: one fallback character
            skip -= 1
        elif skip:  # literal fallback characters, rewritten as \'3f: pandoc skips one character
            taken = 0  # too many after a literal fallback (the "e" of "\u233?end"), not after \'3f
            while skip and taken < len(tok):
                skip -= tok[taken] not in b"\r\n"
                taken += 1
            out += [data[done : m.start()], _LITERAL.sub(rb"\\'3f", tok[:taken])]
            done = m.start() + taken
    if not out:
        return data
    out.append(data[done:])
    return b"".join(out)


def _decode_run(data: bytes, run: bytes, pos: int, name: str) -> tuple[str, int]:
    """The text of a ``\\'hh`` run that ends at ``pos``, and where the run ends: past the next
    character when that is the trail byte of the run's last (lead) byte."""
    decoder = codecs.getincrementaldecoder(name)("replace")
    text = decoder.decode(bytes(int(h, 16) for h in _HEX_BYTE.findall(run)))
    if not decoder.getstate()[0]:
        return text, pos
    trail = _TRAIL.match(data, pos)
    if trail is None:
        return text + decoder.decode(b"", final=True), pos
    return text + decoder.decode(trail.group()[-1:], final=True), trail.end()


def _font_codec(fonts: _FontTable, font: int | None, ansi: str) -> str | None:
    """The codec of ``font`` (the document's code page when its charset has none); None for a
    symbol font or when pandoc decodes the bytes right already."""
    name = fonts.codecs.get(font, "") if font is not None else ""
    if name is None:
        return None
    name = name or ansi
    return None if name in _PANDOC_NATIVE else name


def _escapes(text: str, uc: int) -> bytes:
    """``\\uN`` escapes of ``text`` (signed 16-bit, astral characters as surrogate pairs), each
    followed by as many ``\\'3f`` fallbacks as the ``\\uc`` in force skips (a hostile count is
    reset to 0 inside a group of their own)."""
    units = text.encode("utf-16-le")
    fallback = "\\'3f" * uc if 0 < uc <= _MAX_UC else " "
    escapes = "".join(
        f"\\u{int.from_bytes(units[i : i + 2], 'little', signed=True)}{fallback}"
        for i in range(0, len(units), 2)
    )
    return (escapes if uc <= _MAX_UC else "{\\uc0 " + escapes + "}").encode("ascii")
