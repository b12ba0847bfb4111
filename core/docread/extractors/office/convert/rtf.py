"""The RTF pre-pass before pandoc: groups nested too deep refused, embedded objects and pictures
replaced by placeholders, ``\\'hh`` bytes decoded by their code page, ``\\page`` marked,
header/footer groups moved where pandoc reads them, a row definition written once given to each
row."""

from __future__ import annotations

import re
from pathlib import Path
from typing import TYPE_CHECKING

from .pandoc import pandoc
from .parts import MARK
from .rtf_codepages import decode_codepages

if TYPE_CHECKING:
    from ...base import Context

_RTF_PAGE = re.compile(rb"\\page(?![a-z])")
_RTF_BLOBS = re.compile(
    rb"\{\\(?:\*\\)?(object|objdata|pict|shppict|nonshppict|datastore|themedata|colorschememapping)\b"
)
_RTF_TOKEN = re.compile(rb"\\.|[{}]", re.S)


RTF_MAX_DEPTH = 1000  # nested groups; Word writes a few dozen, pandoc's memory grows with depth
_BRACE = re.compile(rb"[{}]")


def rtf_too_deep(data: bytes, limit: int = RTF_MAX_DEPTH) -> bool:
    """True when groups nest deeper than ``limit``: a streaming count of ``{`` depth, C-speed
    counts per block and a brace-by-brace look only at blocks that could cross the limit."""
    clean = data.replace(b"\\\\", b"").replace(b"\\{", b"").replace(b"\\}", b"")
    depth, block = 0, 1 << 16
    for start in range(0, len(clean), block):
        chunk = clean[start : start + block]
        opens = chunk.count(b"{")
        if depth + opens <= limit:
            depth = max(depth + opens - chunk.count(b"}"), 0)
            continue
        for m in _BRACE.finditer(chunk):
            depth = depth + 1 if m.group() == b"{" else max(depth - 1, 0)
            if depth > limit:
                return True
    return False


def rtf_prepare(data: bytes) -> bytes:
    """Embedded objects and pictures replaced by placeholders (a 50 MB blob costs pandoc nothing);
    ``\\'hh`` bytes decoded by their code page; ``\\page`` gets the page marker."""
    out, pos = bytearray(), 0
    while found := _RTF_BLOBS.search(data, pos):
        out += data[pos : found.start()]
        depth, end = 0, len(data)
        for tok in _RTF_TOKEN.finditer(data, found.start()):
            t = tok.group()
            depth += 1 if t == b"{" else -1 if t == b"}" else 0
            if depth == 0:
                end = tok.end()
                break
        kind = found.group(1)
        if kind in (b"pict", b"shppict", b"object"):
            out += b" DOCREADOBJECTMARK " if kind == b"object" else b" DOCREADIMAGEMARK "
        pos = end
    out += data[pos:]
    text = rtf_rows(rtf_margins(decode_codepages(bytes(out))))
    return _RTF_PAGE.sub(rb"\\par " + MARK.encode() + rb"\\par ", text)


_ROW_WORDS = re.compile(rb"\\(trowd|row)(?![a-z])")
#: A row definition: ``\trowd`` up to its last ``\cellxN`` before the row's first paragraph (or
#: the next definition), looked for in at most _ROW_DEF_MAX bytes: each byte is scanned once
_ROW_DEF = re.compile(
    rb"\\trowd(?:(?!\\(?:pard|intbl|cell|row|trowd)(?![a-z])).)*\\cellx-?\d+", re.S
)
_ROW_DEF_MAX = 1 << 16


def rtf_rows(data: bytes) -> bytes:
    """A row written without its own ``\\trowd`` (a writer may define the row once for the whole
    table; Word and LibreOffice carry the definition on) gets the last definition again: pandoc
    starts a row only at ``\\trowd`` and ran such rows into one. A row defining itself at its
    end (Word's own layout) has one and is left alone."""
    if b"\\row" not in data:
        return data
    out, pos = bytearray(), 0
    defined, row_end, last = True, -1, -1  # last: where the last definition starts
    definitions: dict[int, bytes] = {}
    for tok in _ROW_WORDS.finditer(data):
        if tok.group(1) == b"trowd":
            defined, last = True, tok.start()
            continue
        if not defined and last >= 0 and row_end >= 0:
            if last not in definitions:  # read once, and only when a row needs it
                found = _ROW_DEF.match(data, last, last + _ROW_DEF_MAX)
                definitions[last] = found.group() if found else b""
            out += data[pos:row_end] + definitions[last]
            pos = row_end
        row_end, defined = tok.end(), False
    return bytes(out + data[pos:])


_RTF_MARGIN = re.compile(rb"\\(header|footer)[lrf]?(?![a-z])")
_MARGIN_MARKS = {b"header": b"DOCREADHEADERMARK", b"footer": b"DOCREADFOOTERMARK"}


def rtf_margins(data: bytes) -> bytes:
    """``{\\header ...}`` and ``{\\footer ...}`` groups (pandoc drops them) moved to the end of
    the document as paragraphs after a marker word, each distinct one once; groups inside an
    ignorable destination (``{\\*...}``, such as a page-style table) stay where they are."""
    if b"\\header" not in data and b"\\footer" not in data:
        return data
    stack: list[bool] = []  # per open group: inside an ignorable destination
    moved: dict[bytes, bytes] = {}
    cuts: list[tuple[int, int]] = []
    start: int | None = None
    kind, depth = b"", 0
    for tok in _RTF_TOKEN.finditer(data):
        t = tok.group()
        if t == b"{":
            ignorable = bool(stack and stack[-1]) or data.startswith(b"{\\*", tok.start())
            margin = _RTF_MARGIN.match(data, tok.end())
            if margin and not ignorable and start is None:
                start, kind, depth = tok.start(), margin.group(1), len(stack)
            stack.append(ignorable)
        elif t == b"}" and stack:
            stack.pop()
            if start is not None and len(stack) == depth:
                body = _RTF_MARGIN.sub(b"", data[start + 1 : tok.start()], count=1)
                moved.setdefault(body.strip(), _MARGIN_MARKS[kind])
                cuts.append((start, tok.end()))
                start = None
    if not cuts:
        return data
    out, pos = bytearray(), 0
    for a, b in cuts:
        out += (
            data[pos:a] + b"{}"
        )  # an empty group: a control word before never meets the text after
        pos = b
    out += data[pos:]
    end = out.rstrip(b"\0 \r\n").rfind(b"}")
    tail = b"".join(b"\\par " + mark + b"\\par {" + body + b"}" for body, mark in moved.items())
    return bytes(out[:end] + tail + out[end:]) if end > 0 else bytes(out)


def rtf_markdown(data: bytes, ctx: Context, work: Path) -> str:
    """An RTF document as markdown through pandoc (``rtf_prepare`` first), its header/footer
    groups as ``## Header`` / ``## Footer``; page marks and image placeholders are left for the
    caller, which splits pages or cleans them."""
    (work / "in.rtf").write_bytes(rtf_prepare(data))
    return margin_headings(pandoc(work / "in.rtf", "rtf", ctx, work))


_MARGIN_LINE = re.compile(r"^[ \t>]*(DOCREADHEADERMARK|DOCREADFOOTERMARK)\s*$", re.M)


def margin_headings(markdown: str) -> str:
    """The RTF header/footer marker lines as ``## Header`` / ``## Footer`` headings."""
    return _MARGIN_LINE.sub(
        lambda m: "## Header" if "HEADER" in m.group(1) else "## Footer", markdown
    )
