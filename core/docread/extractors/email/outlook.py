"""Outlook .msg files through extract-msg: the plain body, else the HTML body (stored, or
de-encapsulated from the RTF one by RTFDE), else the RTF body through pandoc; attachments,
embedded .msg messages included (re-exported as .msg bytes for the nested read)."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import IO, TYPE_CHECKING, Any

from ...errors import DependencyMissingError, ExtractionError
from ..html.charset import text_codec
from .body import html_text, rtf_text
from .message import Attachment, Message, iso_date, tidy

if TYPE_CHECKING:
    from ...source import Source
    from ..base import Context


def open_msg(source: Source, ctx: Context) -> Iterator[Message]:
    """The one message of a .msg file (any Outlook item: its fields where it has them)."""
    try:
        import extract_msg
    except ImportError as exc:
        raise DependencyMissingError(
            f"{ctx.info.source}: reading Outlook .msg files needs extract-msg: "
            f"pip install 'docread[msg]' (extract-msg, GPL-3.0)",
            path=ctx.info.source,
        ) from exc
    with source.open() as f:
        msg = _open(extract_msg.openMsg, f, ctx, None)
        try:
            encoding = _string_encoding(msg, ctx)
            if encoding != text_codec(msg.stringEncoding):  # extract-msg: PR_MESSAGE_CODEPAGE only
                msg.close()
                f.seek(0)
                msg = _open(extract_msg.openMsg, f, ctx, encoding)
            yield _message(msg, ctx)
        finally:
            msg.close()


def _open(open_msg: Callable[..., Any], f: IO[bytes], ctx: Context, encoding: str | None) -> Any:
    from extract_msg.exceptions import ExMsgBaseException

    try:
        return open_msg(f, strict=False, overrideEncoding=encoding)
    except (ExMsgBaseException, OSError, ValueError) as exc:
        raise ExtractionError(
            f"{ctx.info.source}: not a readable Outlook .msg file ({exc})", path=ctx.info.source
        ) from exc


#: Where a message with 8-bit (PT_STRING8) strings names their code page, in this order:
#: PR_MESSAGE_CODEPAGE, PR_INTERNET_CPID.
_CODE_PAGES = ("3FFD0003", "3FDE0003")
#: The 8-bit strings detection looks at when no code page is named: subject and plain body.
_STRING8 = ("__substg1.0_0037001E", "__substg1.0_1000001E")


def _string_encoding(msg: Any, ctx: Context) -> str:
    """The codec of the message's strings: UTF-16 ones as extract-msg reads them; 8-bit ones by
    the message's own code page, else its internet code page, else detected (with a note)."""
    from extract_msg.encoding import lookupCodePage
    from extract_msg.exceptions import ExMsgBaseException

    from ...detect import detect_encoding

    if msg.areStringsUnicode:
        return str(text_codec(msg.stringEncoding))
    for tag in _CODE_PAGES:
        prop = msg.props.get(tag)
        try:
            codec = text_codec(lookupCodePage(int(prop.value))) if prop is not None else None
        except (ExMsgBaseException, TypeError, ValueError):
            codec = None
        if codec is not None:
            return codec
    sample = b" ".join(msg.getStream(name) or b"" for name in _STRING8)
    codec = detect_encoding(sample)
    ctx.warn(
        f"{ctx.info.source}: the message names no usable code page for its 8-bit strings "
        f"(PR_MESSAGE_CODEPAGE, PR_INTERNET_CPID); they were read as {codec} (detected)."
    )
    return codec


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
