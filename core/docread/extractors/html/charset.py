"""The charset of an HTML file as a browser finds it: a byte-order mark, then a ``<meta charset>``
or ``<meta http-equiv="Content-Type" content="text/html; charset=...">`` early in the file, then
docread's own detection (``detect.detect_encoding``, already in ``FileInfo.encoding``). A declared
name that is no text charset (base64, rot13, zlib, utf-7...) is refused, as browsers refuse it."""

from __future__ import annotations

import codecs
import re
from typing import NamedTuple

from ...detect import detect_encoding

#: How far the declaration is looked for (browsers look at 1,024 bytes; long heads push it later).
PRESCAN_BYTES = 8192
_BOMS = (codecs.BOM_UTF8, codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)
# one pattern for both forms: charset= inside the tag, quoted or not
_DECLARED = re.compile(rb"<meta\b[^>]*?\bcharset\s*=\s*[\"']?\s*([A-Za-z0-9._:-]+)", re.IGNORECASE)
# what browsers read a declared label as (WHATWG Encoding): a page that declares Latin-1 or
# ASCII is shown as windows-1252; a UTF-16 declaration read in ASCII-compatible bytes is untrue
_AS_BROWSERS_READ = {
    "ascii": "cp1252", "iso8859-1": "cp1252", "gb2312": "gbk",
    "utf-16": "utf-8", "utf-16-le": "utf-8", "utf-16-be": "utf-8",
}  # fmt: skip
#: Text codecs a declaration may still not name: UTF-7 hides markup from other scanners (browsers
#: refuse it); IDNA and Punycode encode host names, not documents, and fail on other bytes.
_NEVER_DECLARED = frozenset({"utf-7", "idna", "punycode"})


class HtmlEncoding(NamedTuple):
    """The codec a page is read with, and the declared label refused on the way (or None)."""

    codec: str
    refused: str | None = None


def text_codec(label: str) -> str | None:
    """The Python codec a declared charset ``label`` names when a document may be read with it:
    None for unknown names, bytes-to-bytes or str-to-str codecs and ``_NEVER_DECLARED``."""
    try:
        info = codecs.lookup(label.strip())
    except (LookupError, ValueError):  # ValueError: a label with a NUL
        return None
    if not info._is_text_encoding or info.name in _NEVER_DECLARED:
        return None
    return info.name


def refused_note(label: str, codec: str) -> str:
    """The note for a declared charset that was not used."""
    return f"the declared charset {label!r} is not a text encoding docread reads; read as {codec}"


def declared_charset(head: bytes) -> HtmlEncoding | None:
    """The codec of the charset a ``<meta>`` tag declares (``refused`` set and ``codec`` empty
    when the declaration names no usable text codec); None without a declaration."""
    match = _DECLARED.search(head[:PRESCAN_BYTES])
    if match is None:
        return None
    label = match.group(1).decode("ascii").lower()
    if label == "x-user-defined":
        return HtmlEncoding("cp1252")
    name = text_codec(label)
    if name is None:
        return HtmlEncoding("", label)
    return HtmlEncoding(_AS_BROWSERS_READ.get(name, name))


def html_encoding(head: bytes, detected: str | None = None) -> HtmlEncoding:
    """BOM, then the declared charset, then ``detected`` (or detection on ``head``); a refused
    declaration is named in ``refused``."""
    declared = None if head.startswith(_BOMS) else declared_charset(head)
    if declared is not None and declared.codec:
        return declared
    return HtmlEncoding(detected or detect_encoding(head), declared and declared.refused)
