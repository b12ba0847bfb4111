"""Text and code, decoded with the encoding detection found: a line window (cat -n in the agent
view), loader chunks.

Files within ``limits.text`` are decoded once and sliced; larger ones are streamed line by line,
so ``offset=1, limit=50`` on a multi-GB log decodes 50 lines and a window never holds more than
``output.max_lines`` lines or ``output.max_chars`` characters."""

from __future__ import annotations

import codecs
import io
import sys
import threading
from collections.abc import Iterator
from typing import ClassVar, TextIO

from ...model import Document, Unit
from ...source import Source
from ..base import Context, Extractor
from .xml import is_xml, set_xml_header

_COUNT_CHUNK = 1 << 20
_DEADLINE_EVERY = 1 << 16  # lines between global-deadline checks on long scans
_REPLACE = "docread.replace"  # "replace", counting the bytes it replaced
_replaced = threading.local()


def _count_replace(exc: UnicodeError) -> tuple[str, int]:
    if not isinstance(exc, UnicodeDecodeError):
        raise exc
    _replaced.bytes = replaced_bytes() + exc.end - exc.start
    return "\ufffd", exc.end


codecs.register_error(_REPLACE, _count_replace)


def replaced_bytes() -> int:
    """Bytes this thread's decoders have replaced with U+FFFD so far (only ever grows: a caller
    takes the difference around its own decoding, so interleaved reads never mix)."""
    return int(getattr(_replaced, "bytes", 0))


def note_replaced(ctx: Context, count: int, encoding: str) -> None:
    """Say that ``count`` bytes were not valid ``encoding`` (a file with a few bad bytes)."""
    if count:
        ctx.warn(
            f"{ctx.info.source}: {count:,} byte{'s' if count != 1 else ''} not valid {encoding} "
            "replaced with U+FFFD"
        )


def open_text(source: Source, encoding: str) -> TextIO:
    """A decoding stream over the source: invalid bytes become U+FFFD (counted by
    ``replaced_bytes``), never an exception."""
    return io.TextIOWrapper(source.open(), encoding=encoding, errors=_REPLACE, newline=None)


def read_line(stream: TextIO, max_len: int) -> tuple[str | None, int]:
    """One line without its newline, cut at ``max_len`` chars, and its full length; memory-bounded."""
    line = stream.readline(max_len + 1)
    if not line:
        return None, 0
    if line.endswith("\n"):
        return line[:-1], len(line) - 1
    if len(line) <= max_len:
        return line, len(line)  # last line, no newline
    length = len(line)
    while True:  # skip the rest of an over-long line without holding it
        more = stream.readline(_COUNT_CHUNK)
        if not more:
            break
        if more.endswith("\n"):
            length += len(more) - 1
            break
        length += len(more)
    return line, length


def cut_line(line: str, length: int, max_len: int) -> str:
    if length <= max_len:
        return line
    return f"{line[:max_len]}... [line truncated: {length:,} chars]"


def _whole_window(
    source: Source, encoding: str, offset: int, limit: int, max_len: int
) -> tuple[list[str], int]:
    """A file within the text size limit: decode once, split in C, slice (fast path)."""
    text = source.read_bytes().decode(encoding, errors=_REPLACE)
    if "\r" in text:
        text = text.replace("\r\n", "\n").replace("\r", "\n")
    all_lines = text.split("\n")
    if all_lines[-1] == "":
        all_lines.pop()
    lines = all_lines[offset - 1 : offset - 1 + limit]
    if any(len(line) > max_len for line in lines):
        lines = [cut_line(line, len(line), max_len) for line in lines]
    return lines, len(all_lines)


def _streamed_window(
    source: Source, ctx: Context, encoding: str, offset: int, limit: int
) -> tuple[list[str], int | None]:
    """A large file: decode line by line up to the window's end (at most ``output.max_chars``
    kept, so memory stays bounded); the total only if the end was reached."""
    max_len, budget = ctx.settings.text.max_line_length, ctx.settings.output.max_chars
    lines: list[str] = []
    line: str | None = ""
    n = 0
    with open_text(source, encoding) as stream:
        while len(lines) < limit and budget > 0:
            line, length = read_line(stream, max_len)
            if line is None:
                break
            n += 1
            if n >= offset:
                lines.append(cut_line(line, length, max_len))
                budget -= len(lines[-1]) + 1
            elif n % _DEADLINE_EVERY == 0:
                ctx.check_deadline(f"line {n:,}")
    return lines, (n if line is None else None)


class TextExtractor(Extractor):
    """Plain text, code, markup and config files."""

    name: ClassVar[str] = "text"
    options: ClassVar[frozenset[str]] = frozenset({"offset", "limit"})
    streaming: ClassVar[bool] = True

    def encoding(self, source: Source, ctx: Context) -> str:
        """The charset the lines are decoded with: detection's (set for every textual format)."""
        return ctx.info.encoding or "utf-8"

    def extract(self, source: Source, ctx: Context) -> Iterator[Unit]:
        encoding = self.encoding(source, ctx)
        if source.size == 0:
            ctx.warn("The file exists but is empty (0 bytes).")
            return
        if ctx.loader:
            yield from self._chunks(source, ctx, encoding)
        else:
            if is_xml(source, ctx.info.name):
                set_xml_header(source, ctx)
            yield from self._window(source, ctx, encoding)

    def _window(self, source: Source, ctx: Context, encoding: str) -> Iterator[Document]:
        opts, text = ctx.options, ctx.settings.text
        offset = opts.offset or 1
        # the agent view never shows more than output.max_lines, so no window holds more
        limit = min(
            text.default_limit if opts.limit is None else opts.limit or sys.maxsize,
            ctx.settings.output.max_lines,
        )
        total: int | None
        before = replaced_bytes()
        if source.size <= ctx.settings.limits.text:
            lines, total = _whole_window(source, encoding, offset, limit, text.max_line_length)
        else:
            lines, total = _streamed_window(source, ctx, encoding, offset, limit)
        note_replaced(ctx, replaced_bytes() - before, encoding)
        if not lines:
            ctx.warn(f"offset={offset} is past the end of the file: it has {total} lines.")
            return
        end = offset + len(lines) - 1
        meta = {"line_start": offset, "line_end": end, "encoding": encoding}
        if total is not None:
            meta["total_lines"] = total
        if total is None or end < total:
            shown = f"of {total:,}" if total is not None else "(more follow)"
            ctx.read_on(f"lines {offset}-{end} {shown}", f"offset={end + 1}")
        yield Document("\n".join(lines), meta)

    def _chunks(self, source: Source, ctx: Context, encoding: str) -> Iterator[Document]:
        """Loader mode: every line whole (``text.max_line_length`` is the agent view's cut, never
        a loader's), ``text.lines_per_document`` lines a Document; a Document holding more than
        that many lines of ``max_line_length`` characters is handed out where it stands, so a
        line longer than that (a minified file) runs on into the next Document, its text
        kept and memory bounded."""
        text = ctx.settings.text
        per_doc, most = text.lines_per_document, text.lines_per_document * text.max_line_length
        offset = ctx.options.offset or 1
        remaining = ctx.options.limit or None
        parts: list[str] = []  # the open Document's text, pieces of lines
        size = lines = 0  # its characters, and the lines it holds ended
        start, n, replaced = offset, 0, 0
        inside = False  # a line is open: its start was read, its end not yet
        with open_text(source, encoding) as stream:
            while True:
                before = replaced_bytes()
                piece = stream.readline(_COUNT_CHUNK)
                replaced += replaced_bytes() - before
                if not piece:
                    break
                if not inside:
                    if remaining is not None and remaining <= 0:
                        break
                    n += 1
                    if n % _DEADLINE_EVERY == 0:
                        ctx.check_deadline(f"line {n:,}")
                    if n >= offset and remaining is not None:
                        remaining -= 1
                inside = not piece.endswith("\n")
                if n < offset:
                    continue
                parts.append(piece)
                size += len(piece)
                lines += not inside
                if lines >= per_doc or size >= most:
                    body = "".join(parts)
                    yield Document(
                        body[:-1] if body.endswith("\n") else body,
                        {"line_start": start, "line_end": n, "encoding": encoding},
                    )
                    start = n if inside else n + 1
                    parts, size, lines = [], 0, 0
        if parts:
            body = "".join(parts)
            yield Document(
                body[:-1] if body.endswith("\n") else body,
                {"line_start": start, "line_end": n, "encoding": encoding},
            )
        note_replaced(ctx, replaced, encoding)
