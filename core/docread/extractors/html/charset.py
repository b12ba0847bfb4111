"""The charset of an HTML file as a browser finds it: a byte-order mark, then a ``<meta charset>``
or ``<meta http-equiv="Content-Type" content="text/html; charset=...">`` early in the file, then
docread's own detection (``detect.detect_encoding``, already in ``FileInfo.encoding``)."""

from __future__ import annotations

import codecs
import re

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


def declared_charset(head: bytes) -> str | None:
    """The Python codec of the charset a ``<meta>`` tag declares, when Python knows it."""
    match = _DECLARED.search(head[:PRESCAN_BYTES])
    if match is None:
        return None
    label = match.group(1).decode("ascii").lower()
    if label == "x-user-defined":
        return "cp1252"
    try:
        name = codecs.lookup(label).name
    except LookupError:
        return None
    return _AS_BROWSERS_READ.get(name, name)


def html_encoding(head: bytes, detected: str | None = None) -> str:
    """BOM, then the declared charset, then ``detected`` (or detection on ``head``)."""
    if not head.startswith(_BOMS):
        declared = declared_charset(head)
        if declared is not None:
            return declared
    return detected or detect_encoding(head)
