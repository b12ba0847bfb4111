"""One e-mail message as every variant (.eml, .msg, one message of an .mbox) hands it to the
extractor: header fields, the body as text, and the attachments with their bytes on demand."""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime
from email.utils import parsedate_to_datetime
from typing import Any

from ..markdown import human_size

_BLANK_RUN = re.compile(r"\n{3,}")


@dataclass(frozen=True, slots=True)
class Attachment:
    """An attached file (or a nested message) as the message names it; a MIME part's bytes are
    decoded when the message is parsed, an embedded .msg is made only when it is read."""

    name: str  # as the message gives it, unsanitized ("" when it gives none)
    mime_type: str
    size: int | None  # decoded size when known without decoding
    payload: Callable[[], bytes]


@dataclass(slots=True)
class Message:
    """Header fields (``date`` in ISO 8601), the body as text, the attachments, and ``index``,
    the message's 1-based position in an mbox (None for a single-message file)."""

    sender: str = ""
    to: str = ""
    cc: str = ""
    date: str = ""
    subject: str = ""
    message_id: str = ""
    body: str = ""
    attachments: list[Attachment] = field(default_factory=list)
    index: int | None = None

    @property
    def label(self) -> str:
        """What names the message to a reader of its attachments: subject, else id, else place."""
        return self.subject or self.message_id or f"message {self.index or 1}"

    def text(self, listing: list[tuple[str, Attachment]]) -> str:
        """The header block (From, To, Cc, Date, Subject), the body, then the attachments listed
        by ``(address, attachment)``: name, type and size."""
        fields = (
            ("From", self.sender), ("To", self.to), ("Cc", self.cc), ("Date", self.date),
            ("Subject", self.subject),
        )  # fmt: skip
        parts = ["\n".join(f"{label}: {value}" for label, value in fields if value)]
        if self.body:
            parts.append(self.body)
        if listing:
            width = min(max(len(address) for address, _ in listing), 60)
            rows = [
                f"  {address:<{width}}  {att.mime_type}  "
                f"{'?' if att.size is None else human_size(att.size)}"
                for address, att in listing
            ]
            parts.append("\n".join([f"Attachments ({len(listing)}):", *rows]))
        return "\n\n".join(p for p in parts if p)

    def metadata(self) -> dict[str, Any]:
        meta: dict[str, Any] = {
            "message_id": self.message_id, "from": self.sender, "to": self.to, "cc": self.cc,
            "date": self.date, "subject": self.subject, "attachment_count": len(self.attachments),
        }  # fmt: skip
        meta = {k: v for k, v in meta.items() if v != ""}
        if self.index is not None:
            meta["message_index"] = self.index
        return meta


def iso_date(value: str | datetime | None) -> str:
    """An RFC 5322 date (or a datetime) as ISO 8601; "" when absent, the text as given when it
    cannot be parsed."""
    if value is None or value == "":
        return ""
    if isinstance(value, datetime):
        return value.isoformat()
    try:
        return parsedate_to_datetime(value).isoformat()
    except (TypeError, ValueError, IndexError):
        return value.strip()


def tidy(text: str) -> str:
    """Line ends unified, trailing blanks and runs of empty lines removed (Outlook bodies are
    full of both)."""
    lines = (line.rstrip() for line in text.replace("\r\n", "\n").replace("\r", "\n").split("\n"))
    return _BLANK_RUN.sub("\n\n", "\n".join(lines)).strip()
