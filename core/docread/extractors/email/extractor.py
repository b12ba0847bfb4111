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
from ...source import Source, safe_name
from ..archives.guard import Addresses, Entry, Guard, safe_member_path
from ..base import Context, Extractor, load_object
from .message import Attachment, Message

Opener = Callable[[Source, Context], Iterator[Message]]
Listing = list[tuple[str, Attachment]]


class EmailExtractor(Extractor):
    """One Document per message (an mbox has many), attachments listed, read or loaded."""

    name: ClassVar[str] = "email"
    version: ClassVar[int] = 1
    cacheable: ClassVar[bool] = True
    isolated: ClassVar[bool] = True
    options: ClassVar[frozenset[str]] = frozenset({"archive_path"})

    @classmethod
    def ignored(cls, ctx: Context) -> list[str]:
        """With ``archive_path``, or in a loader, the other options go to the attachments read
        (and are checked there), as they go to archive members."""
        return [] if ctx.options.archive_path or ctx.loader else super().ignored(ctx)

    def extract(self, source: Source, ctx: Context) -> Iterator[Unit]:
        opener: Opener = load_object(BY_KEY[ctx.info.format].opener)
        guard = Guard(ctx, source.size)
        addresses = Addresses()
        wanted = ctx.options.archive_path
        target = safe_member_path(wanted) if wanted is not None else None
        for message in opener(source, ctx):
            listing = _addressed(message, addresses)
            if target is not None:
                found = next((p for p in listing if p[0] == target), None)
                if found is not None:
                    ctx.set_header("Message", message.label)
                    ctx.set_header("Attachment", found[0])
                    yield from _child(found, message, guard, ctx)
                    return
                continue
            yield Document(message.text(listing), message.metadata())
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
