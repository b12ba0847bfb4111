"""E-mail (.eml, .msg, .mbox): each message as a header block and its body, then its attachments
listed; ``archive_path`` reads one attachment through the whole pipeline, and a loader reads every
attachment as a child, like archive members, under the archive limits (``settings.archive``)."""

from __future__ import annotations

import dataclasses
import io
from collections.abc import Callable, Iterator
from typing import ClassVar

from ...errors import DocumentNotFoundError, ExtractionTimeoutError, ReadDocumentError
from ...formats import BY_KEY
from ...model import Document, Unit
from ...request.options import ReadOptions
from ...request.ranges import compact_spans
from ...source import Source, safe_name
from ..archives.guard import Addresses, Entry, Guard, safe_member_path
from ..base import Context, Extractor, load_object
from .message import Attachment, Message

Opener = Callable[[Source, Context], Iterator[Message]]
Listing = list[tuple[str, Attachment]]


class EmailExtractor(Extractor):
    """One Document per message (an mbox has many), attachments listed, read or loaded."""

    name: ClassVar[str] = "email"
    version: ClassVar[int] = 3  # 3: HTML bodies' tables through html/tables.py
    cacheable: ClassVar[bool] = True
    isolated: ClassVar[bool] = True
    options: ClassVar[frozenset[str]] = frozenset({"archive_path", "pages"})

    @classmethod
    def ignored(cls, ctx: Context) -> list[str]:
        """With ``archive_path``, or in a loader, the other options go to the attachments read
        (and are checked there), as they go to archive members; ``pages`` selects mbox messages."""
        if ctx.options.archive_path or ctx.loader:
            return []
        ignored = super().ignored(ctx)
        mbox = ctx.info.format == "mbox"
        return ignored + ["pages"] if "pages" in ctx.options.given() and not mbox else ignored

    def extract(self, source: Source, ctx: Context) -> Iterator[Unit]:
        opener: Opener = load_object(BY_KEY[ctx.info.format].opener)
        guard = Guard(ctx, source.size)
        addresses = Addresses()
        wanted = ctx.options.archive_path
        target = safe_member_path(wanted) if wanted is not None else None
        budget, shown = _window_chars(ctx), list[int]()
        for message in opener(source, ctx):
            if target is None and not ctx.loader and budget <= 0 and message.index is not None:
                _read_on(source, ctx, shown, message.index)  # the agent's window is full
                break
            listing = _addressed(message, addresses)
            if target is not None:
                found = next((p for p in listing if p[0] == target), None)
                if found is not None:
                    ctx.set_header("Message", message.label)
                    ctx.set_header("Attachment", found[0])
                    yield from _child(found, message, guard, ctx)
                    return
                continue
            doc = Document(message.text(listing), message.metadata())
            budget -= len(doc.text)
            shown.append(message.index or 1)
            yield doc
            if ctx.loader:
                yield from _children(listing, message, guard, ctx)
        if wanted is not None:
            raise DocumentNotFoundError(
                f"{ctx.info.source}: no attachment named {wanted!r}; read the message first "
                f"to see the attachment names",
                path=ctx.info.source,
            )
        if note := addresses.note("read"):
            ctx.warn(note)


def _window_chars(ctx: Context) -> int:
    """The characters of messages one agent view shows: half its smallest budget (tokens
    estimated at four bytes), so that the view itself never cuts a message shown."""
    out = ctx.settings.output
    return min(out.max_chars, out.max_bytes, 4 * out.max_tokens) // 2


def _read_on(source: Source, ctx: Context, shown: list[int], following: int) -> None:
    """How to read the messages after the window: their count from a byte scan, never a parse."""
    from .mbox import count_messages

    ctx.read_on(
        f"messages {compact_spans(shown)} of {count_messages(source):,} (the rest is over the "
        "output limit)",
        f"pages='{following}-'",
    )


def _addressed(message: Message, addresses: Addresses) -> Listing:
    """Each attachment's address: its safe name (``N/name`` in an mbox, N the message index),
    numbered like archive members when a name repeats."""
    prefix = f"{message.index}/" if message.index is not None else ""
    return [
        (addresses.of(Entry(prefix + safe_name(att.name), "file", att.size)), att)
        for att in message.attachments
    ]


def _children(listing: Listing, message: Message, guard: Guard, ctx: Context) -> Iterator[Unit]:
    """Every attachment through the pipeline; one refused or unreadable is a note, the rest go on."""
    for pair in listing:
        try:
            yield from _child(pair, message, guard, ctx)
        except ExtractionTimeoutError:
            raise
        except ReadDocumentError as exc:
            ctx.warn(f"Attachment {pair[0]} skipped: {exc.message}")


def _child(
    pair: tuple[str, Attachment], message: Message, guard: Guard, ctx: Context
) -> Iterator[Unit]:
    """One attachment counted and size-checked as an archive member, then read as one, its units
    tagged with the attachment's name and the message's subject (or id)."""
    address, att = pair
    guard.count_member()
    entry = Entry(address, "file", att.size)
    guard.admit(entry)
    data = guard.read(entry, io.BytesIO(att.payload()))
    # the attachment gets the caller's own read options (pages, rows...), as archive members do
    options: ReadOptions = ctx.options.replace(archive_path=None, format_hint=None)
    tags = {"attachment": address, "message": message.label}
    for unit in ctx.extract_child(data, address, options):
        yield dataclasses.replace(unit, metadata={**unit.metadata, **tags})
