"""Outlook .msg files through extract-msg: the plain body, else the HTML body (stored, or
de-encapsulated from the RTF one by RTFDE), else the RTF body through pandoc; attachments,
embedded .msg messages included (re-exported as .msg bytes for the nested read)."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING, Any

from ...errors import DependencyMissingError, ExtractionError
from .body import html_text, rtf_text
from .message import Attachment, Message, iso_date, tidy

if TYPE_CHECKING:
    from ...source import Source
    from ..base import Context


def open_msg(source: Source, ctx: Context) -> Iterator[Message]:
    """The one message of a .msg file (any Outlook item: its fields where it has them)."""
    try:
        import extract_msg
        from extract_msg.exceptions import ExMsgBaseException
    except ImportError as exc:
        raise DependencyMissingError(
            f"{ctx.info.source}: reading Outlook .msg files needs extract-msg: "
            f"pip install 'docread[msg]' (extract-msg, GPL-3.0)",
            path=ctx.info.source,
        ) from exc
    with source.open() as f:
        try:
            msg = extract_msg.openMsg(f, strict=False)
        except (ExMsgBaseException, OSError, ValueError) as exc:
            raise ExtractionError(
                f"{ctx.info.source}: not a readable Outlook .msg file ({exc})", path=ctx.info.source
            ) from exc
        try:
            yield _message(msg, ctx)
        finally:
            msg.close()


def _message(msg: Any, ctx: Context) -> Message:
    return Message(
        sender=_field(msg, "sender"), to=_field(msg, "to"), cc=_field(msg, "cc"),
        date=iso_date(getattr(msg, "date", None)), subject=_field(msg, "subject"),
        message_id=_field(msg, "messageId"), body="" if ctx.options.archive_path else _body(msg, ctx),
        attachments=[a for att in getattr(msg, "attachments", []) if (a := _attachment(att, ctx))],
    )  # fmt: skip


def _field(msg: Any, name: str) -> str:
    value = getattr(msg, name, None)
    return " ".join(str(value).replace("\x00", " ").split()) if value else ""


def _body(msg: Any, ctx: Context) -> str:
    """Plain text preferred, else HTML as markdown, else the RTF body converted."""
    plain = getattr(msg, "body", None)
    if plain and plain.strip("\x00 \r\n\t"):
        return tidy(plain.replace("\x00", ""))
    html = getattr(msg, "htmlBody", None)
    if html:
        return html_text(_decoded(html), ctx)
    rtf = getattr(msg, "rtfBody", None)
    return rtf_text(rtf, ctx) if rtf else ""


def _decoded(data: bytes | str) -> str:
    if isinstance(data, str):
        return data
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        return data.decode("cp1252", "replace")


def _attachment(att: Any, ctx: Context) -> Attachment | None:
    """A data attachment, or an embedded message as .msg bytes; others (links to the web,
    broken or unsupported entries) are named in a note."""
    from extract_msg.enums import AttachmentType

    name = str(att.longFilename or att.shortFilename or getattr(att, "name", "") or "")
    kind = att.type
    if kind == AttachmentType.DATA and isinstance(att.data, bytes):
        data: bytes = att.data
        mime = str(att.mimetype or "application/octet-stream")
        return Attachment(name, mime, len(data), lambda: data)
    if kind == AttachmentType.MSG:
        inner = att.data
        if not name.lower().endswith(".msg"):
            name = f"{name or _field(inner, 'subject') or 'message'}.msg"
        return Attachment(name, "application/vnd.ms-outlook", None, _exporter(inner, name, ctx))
    ctx.warn(f"{ctx.info.source}: attachment {name or '?'} ({kind.name.lower()}) is not read.")
    return None


def _exporter(inner: Any, name: str, ctx: Context) -> Callable[[], bytes]:
    """The embedded message's bytes as a .msg file of its own, made when it is read."""
    from extract_msg.exceptions import ExMsgBaseException

    def export() -> bytes:
        try:
            data: bytes = inner.exportBytes()
        except (ExMsgBaseException, OSError, ValueError, KeyError) as exc:
            raise ExtractionError(
                f"{ctx.info.source}::{name}: the embedded message cannot be exported ({exc})",
                path=ctx.info.source,
            ) from exc
        return data

    return export
