"""mbox files: messages split at their ``From `` separator lines, streamed from the file (only
one message in memory at a time), each read as an RFC 822 message with its 1-based index.

``mailbox.mbox`` is not used on the file itself: it opens its path for writing when it can and
indexes the whole file first; its separator rule (a line starting ``From ``) is the one here."""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

from .message import Message
from .mime import read_message

if TYPE_CHECKING:
    from ...source import Source
    from ..base import Context


def open_mbox(source: Source, ctx: Context) -> Iterator[Message]:
    """Every message of the mbox, in file order; text before the first separator is ignored."""
    index, lines = 0, list[bytes]()
    with source.open() as f:
        for line in f:
            if line.startswith(b"From "):
                if index:
                    yield read_message(b"".join(lines), ctx, index)
                index, lines = index + 1, []
                ctx.check_deadline("splitting the mbox")
            elif index:
                lines.append(line)
    if index:
        yield read_message(b"".join(lines), ctx, index)
    else:
        ctx.warn(f"{ctx.info.source}: no 'From ' separator line: not an mbox with messages.")
