"""XML in the agent view: header facts before the numbered lines (root element, namespaces,
``xsi:schemaLocation``, element count), from one bounded defusedxml pass (no entities, no DTDs,
no network); the lines themselves are the text reader's."""

from __future__ import annotations

import io
from pathlib import PurePosixPath
from typing import IO, Any

from ...source import Source
from ..base import Context

XML_SUFFIXES = frozenset({".xml", ".xsd", ".xsl", ".xslt", ".svg", ".rss", ".atom", ".wsdl"})
MAX_BYTES = 16 * 1024 * 1024  # the summary reads at most this much of the file
_XSI = "{http://www.w3.org/2001/XMLSchema-instance}"


def is_xml(source: Source, name: str) -> bool:
    """An XML name, or text that opens with an XML declaration."""
    if PurePosixPath(name.lower()).suffix in XML_SUFFIXES:
        return True
    return source.head()[:512].lstrip(b"\xef\xbb\xbf \t\r\n").startswith(b"<?xml")


class _Bounded(io.RawIOBase):
    """The first ``limit`` bytes of a stream; ``cut`` says whether the rest was left out."""

    def __init__(self, stream: IO[bytes], limit: int) -> None:
        self.stream, self.left, self.cut = stream, limit, False

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: Any) -> int:
        want = min(len(buffer), self.left)
        data = self.stream.read(want) if want else b""
        if not want and self.stream.read(1):
            self.cut = True
        buffer[: len(data)] = data
        self.left -= len(data)
        return len(data)


def set_xml_header(source: Source, ctx: Context) -> None:
    """Header facts of an XML file; a document that does not parse is said in a note."""
    from defusedxml import DefusedXmlException
    from defusedxml.ElementTree import ParseError, iterparse

    root: str | None = None
    count = 0
    namespaces: list[str] = []
    schema = ""
    with source.open() as raw:
        bounded = _Bounded(raw, MAX_BYTES)
        try:
            for event, item in iterparse(bounded, events=("start-ns", "start")):
                if event == "start-ns":
                    prefix, uri = item
                    namespaces.append(f"{prefix or '(default)'}={uri}")
                    continue
                count += 1
                if root is None:
                    root = _name(item.tag)
                    schema = item.get(f"{_XSI}schemaLocation") or item.get(
                        f"{_XSI}noNamespaceSchemaLocation", ""
                    )
                if count % 10000 == 0:
                    ctx.check_deadline("the XML summary")
        except DefusedXmlException as exc:
            ctx.warn(f"{ctx.info.source}: no XML summary: {exc} (refused for safety).")
            return
        except ParseError as exc:
            if not bounded.cut:
                ctx.warn(f"{ctx.info.source}: not well-formed XML ({exc}); shown as plain text.")
                return
    if root is None:
        return
    ctx.set_header("XML root", f"<{root}>")
    if namespaces:
        ctx.set_header("Namespaces", ", ".join(dict.fromkeys(namespaces)))
    if schema:
        ctx.set_header("Schema location", " ".join(schema.split()))
    more = f" in the first {MAX_BYTES // (1024 * 1024)} MB" if bounded.cut else ""
    ctx.set_header("Elements", f"{count:,}{more}")


def _name(tag: str) -> str:
    """``{uri}local`` as ``local``: the namespace is in the Namespaces line."""
    return tag.rsplit("}", 1)[-1]
