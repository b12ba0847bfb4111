"""mbox files: messages split at their ``From `` separator lines, streamed from the file (only
one message in memory at a time), each read as an RFC 822 message with its 1-based index;
``pages`` selects messages (those before it are split off, never parsed), and the count of
messages comes from a byte scan for separator lines.

``mailbox.mbox`` is not used on the file itself: it opens its path for writing when it can and
indexes the whole file first; its separator rule (a line starting ``From ``) is the one here."""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

from ...request.ranges import select_units
from .message import Message
from .mime import read_message

if TYPE_CHECKING:
    from ...source import Source
    from ..base import Context

_SEPARATOR = b"\nFrom "
_CHUNK = 1 << 20


def count_messages(source: Source) -> int:
    """How many ``From `` separator lines the file has (one pass over its bytes, nothing parsed)."""
    count, tail = 0, b"\n"  # the file's start counts as a line start
    with source.open() as f:
        while chunk := f.read(_CHUNK):
            window = tail + chunk
            count += window.count(_SEPARATOR)
            tail = window[-(len(_SEPARATOR) - 1) :]
    return count


def open_mbox(source: Source, ctx: Context) -> Iterator[Message]:
    """The messages of the mbox (those ``pages`` selects), in file order; text before the first
    separator is ignored."""
    spec = ctx.options.page_spec
    wanted = None
    if spec is not None:
        total = count_messages(source)
        wanted = set(select_units(spec, total, unit="message", path=ctx.info.source, warn=ctx.warn))
    last = max(wanted, default=0) if wanted is not None else None
    index, lines = 0, list[bytes]()
    with source.open() as f:
        for line in f:
            if line.startswith(b"From "):
                if index and (wanted is None or index in wanted):
                    yield read_message(b"".join(lines), ctx, index)
                if last is not None and index >= last:
                    return
                index, lines = index + 1, []
                ctx.check_deadline("splitting the mbox")
            elif index and (wanted is None or index in wanted):
                lines.append(line)
    if index and (wanted is None or index in wanted):
        yield read_message(b"".join(lines), ctx, index)
    elif not index:
        ctx.warn(f"{ctx.info.source}: no 'From ' separator line: not an mbox with messages.")
