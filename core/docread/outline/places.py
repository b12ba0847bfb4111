"""Where a unit is in its file, above its headings: the natural places (``natural_places``: an
archive member, an e-mail message and its attachments, a sheet, a database table) and how its
heading lines are read, by what it is (``reader``: markdown, hand-written markdown,
reStructuredText, a notebook's markdown cell, none)."""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from typing import Any

from .headings import Heading, headings, rst_headings, written_headings

#: Natural places, outermost first, at levels above every heading (``#`` is 1).
_MEMBER, _MESSAGE, _ATTACHMENT, _SHEET = -4, -3, -2, -1
#: A notebook cell's first line as a loader writes it (no section's content).
CELL_HEAD = re.compile(r"^## Cell \d+ \[[a-z]+\][^\n]*\n?")

Reader = Callable[[str], list[Heading]]


def reader(meta: Mapping[str, Any]) -> Reader | None:
    """How a unit's heading lines are read, None when its text has none (code, tables, mail)."""
    extractor = meta.get("extractor")
    if extractor in ("tabular", "sqlite", "email", "archive"):
        return None
    if extractor == "notebook":
        return _cell_headings if meta.get("cell_type") == "markdown" else None
    if extractor in ("pdf", "office") or meta.get("markdown") is True or "headings" in meta:
        return headings
    name = str(meta.get("file_name") or meta.get("source") or "").lower()
    if extractor == "text" and name.endswith((".md", ".markdown")):
        return written_headings
    if extractor == "text" and name.endswith((".rst", ".rest")):
        return rst_headings
    return None


def _cell_headings(text: str) -> list[Heading]:
    """A notebook's markdown cell as a loader gives it: its ``## Cell N [markdown]`` line, then
    the cell's own markdown, whose headings count (one that opens the cell starts at the cell's
    line: the cell is that section's)."""
    head = CELL_HEAD.match(text)
    skip = head.end() if head else 0
    body = text[skip:]
    return [
        Heading(0 if not body[: h.at].strip() else h.at + skip, h.level, h.title)
        for h in written_headings(body)
    ]


def natural_places(meta: Mapping[str, Any]) -> tuple[tuple[int, str, str], ...]:
    """The natural places a unit is in, outermost first: (level, identity, title)."""
    out: list[tuple[int, str, str]] = []
    if "attachment" not in meta and "member" in meta and "archive" in meta:
        member = str(meta["member"])
        out.append((_MEMBER, f"member:{meta['archive']}::{member}", member))
    message = _message(meta)
    if message is not None:
        out.append((_MESSAGE, f"message:{message[0]}", message[1]))
    if "attachment" in meta:
        name = str(meta["attachment"])
        out.append((_ATTACHMENT, f"attachment:{name}", name.split("/", 1)[-1] if message else name))
    if meta.get("extractor") == "tabular" and "sheet" in meta:
        out.append((_SHEET, f"sheet:{meta.get('sheet_index', meta['sheet'])}", str(meta["sheet"])))
    if meta.get("extractor") == "sqlite":
        table = str(meta.get("table") or "")
        out.append((_SHEET, f"table:{table}", table or "Schema"))
    return tuple(out)


def _message(meta: Mapping[str, Any]) -> tuple[int, str] | None:
    """The e-mail message a unit is in (its index, its subject or else ``Message N``): a mail
    file's message, an mbox's, or the one an attachment came with (``N/name`` in an mbox)."""
    index = meta.get("message_index")
    if "attachment" in meta:
        head, slash, _ = str(meta["attachment"]).partition("/")
        index = int(head) if slash and head.isdecimal() else 1
        subject = meta.get("message")
    elif meta.get("extractor") == "email":
        index = index if isinstance(index, int) else 1
        subject = meta.get("subject")
    else:
        return None
    title = " ".join(str(subject or "").split())
    return index, title or f"Message {index}"
