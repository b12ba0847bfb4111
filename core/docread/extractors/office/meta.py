"""Document properties of office files as flat values: OOXML core.xml/app.xml, ODF meta.xml,
the EPUB OPF package, the RTF info group; ``workbook_properties`` for XLSX/ODS."""

from __future__ import annotations

import posixpath
import re
from typing import TYPE_CHECKING, Any

from .package import OfficeZip, local

if TYPE_CHECKING:
    from ...source import Source
    from ..base import Context

# element local name -> canonical key, per container kind
_CORE = {
    "title": "title", "creator": "author", "subject": "subject", "keywords": "keywords",
    "description": "description", "created": "created", "modified": "last_modified",
    "lastModifiedBy": "last_modified_by", "revision": "revision", "category": "category",
}  # fmt: skip
_APP = {"Words": "word_count", "Application": "producer", "Company": "company"}
_ODF = {
    "title": "title", "initial-creator": "author", "creator": "last_modified_by",
    "subject": "subject", "keyword": "keywords", "description": "description",
    "creation-date": "created", "date": "last_modified", "editing-cycles": "revision",
    "generator": "producer", "language": "language",
}  # fmt: skip
_OPF = {
    "title": "title", "creator": "author", "subject": "subject", "description": "description",
    "date": "created", "publisher": "publisher", "language": "language", "rights": "rights",
}  # fmt: skip
_RTF = {
    "title": "title", "author": "author", "subject": "subject", "keywords": "keywords",
    "doccomm": "description", "operator": "last_modified_by", "company": "company",
}  # fmt: skip
_INTS = {"word_count", "revision"}


def _put(meta: dict[str, Any], key: str, value: str | None) -> None:
    """Keep the first non-empty value; repeated keys (several creators) are joined."""
    value = " ".join((value or "").split())
    if not value:
        return
    if key in _INTS and value.isdigit():
        meta.setdefault(key, int(value))
    elif key in meta and key in ("author", "keywords", "subject") and value not in str(meta[key]):
        meta[key] = f"{meta[key]}, {value}"
    else:
        meta.setdefault(key, value)


def _collect(root: Any, names: dict[str, str], meta: dict[str, Any]) -> None:
    for el in root.iter():
        key = names.get(local(el.tag))
        if key:
            _put(meta, key, "".join(el.itertext()))


def ooxml_metadata(oz: OfficeZip) -> dict[str, Any]:
    """DOCX/PPTX properties from docProps/core.xml and docProps/app.xml."""
    meta: dict[str, Any] = {}
    if oz.has("docProps/core.xml"):
        _collect(oz.xml("docProps/core.xml"), _CORE, meta)
    if oz.has("docProps/app.xml"):
        root = oz.xml("docProps/app.xml")
        for el in root:  # top level only: the titles vector nests strings we do not want
            key = _APP.get(local(el.tag))
            if key:
                _put(meta, key, el.text)
    return meta


def workbook_properties(source: Source, ctx: Context) -> dict[str, Any]:
    """An XLSX's or ODS's document properties (the table readers parse cells, not these)."""
    with OfficeZip(source.fd_path(), ctx.info.source, ctx.settings.archive) as oz:
        return ooxml_metadata(oz) if ctx.info.format == "xlsx" else odf_metadata(oz)


def odf_metadata(oz: OfficeZip) -> dict[str, Any]:
    """ODT/ODP properties from meta.xml (word count from the document statistics)."""
    meta: dict[str, Any] = {}
    if not oz.has("meta.xml"):
        return meta
    root = oz.xml("meta.xml")
    _collect(root, _ODF, meta)
    for el in root.iter():
        if local(el.tag) == "document-statistic":
            for attr, value in el.attrib.items():
                if local(attr) == "word-count":
                    _put(meta, "word_count", value)
    return meta


def opf_path(oz: OfficeZip) -> str:
    """The EPUB package document named by META-INF/container.xml."""
    if oz.has("META-INF/container.xml"):
        for el in oz.xml("META-INF/container.xml").iter():
            if local(el.tag) == "rootfile" and el.get("full-path"):
                return str(el.get("full-path"))
    return next((n for n in oz.names if n.endswith(".opf")), "")


def epub_metadata(oz: OfficeZip) -> dict[str, Any]:
    """EPUB Dublin Core properties from the OPF <metadata> block."""
    meta: dict[str, Any] = {}
    opf = opf_path(oz)
    if not opf:
        return meta
    for block in oz.xml(opf):
        if local(block.tag) == "metadata":
            _collect(block, _OPF, meta)
    return meta


def epub_images(oz: OfficeZip) -> list[str]:
    """Image members listed in the EPUB manifest, in manifest order."""
    opf = opf_path(oz)
    if not opf:
        return []
    folder = posixpath.dirname(opf)
    out = []
    for el in oz.xml(opf).iter():
        if local(el.tag) == "item" and str(el.get("media-type", "")).startswith("image/"):
            out.append(posixpath.normpath(posixpath.join(folder, el.get("href", ""))))
    return [n for n in out if oz.has(n)]


_RTF_INFO = re.compile(rb"\{\\info(.{0,65536}?)\}\s*\}", re.S)
_RTF_FIELD = re.compile(rb"\{\\(\w+)\s?([^{}]*)\}")


def rtf_metadata(head: bytes) -> dict[str, Any]:
    """Plain-text fields of the RTF {\\info ...} group (title, author, ...), from the file head."""
    meta: dict[str, Any] = {}
    found = _RTF_INFO.search(head)
    if not found:
        return meta
    cpg = re.search(rb"\\ansicpg(\d+)", head)
    codepage = f"cp{int(cpg.group(1))}" if cpg else "cp1252"
    try:
        "".encode(codepage)
    except LookupError:
        codepage = "cp1252"
    # reversed: a {\*\ud{\title \uN...}} Unicode copy follows the ANSI one and should win
    for name, value in reversed(_RTF_FIELD.findall(found.group(1) + b"}")):
        key = _RTF.get(name.decode("ascii", "replace"))
        if key:
            _put(meta, key, _rtf_unescape(value, codepage))
    return meta


_RTF_TOKEN = re.compile(rb"\\'([0-9a-fA-F]{2})|\\u(-?\d+) ?|\\[a-z]+-?\d* ?|\\(.)|([^\\]+)", re.S)


def _rtf_unescape(raw: bytes, codepage: str) -> str:
    r"""Decode \'hh escapes (in the document's code page) and \uN escapes (skipping the one
    fallback character after each); drop other control words."""
    out: list[str] = []
    pending = bytearray()
    skip = 0
    for hexbyte, uni, escaped, plain in _RTF_TOKEN.findall(raw):
        if skip and (hexbyte or plain):
            skip -= 1
            plain = plain[1:] if plain else plain
            if hexbyte or not plain:
                continue
        if hexbyte:
            pending.append(int(hexbyte, 16))
            continue
        if pending:
            out.append(pending.decode(codepage, "replace"))
            pending.clear()
        if uni:
            out.append(chr(int(uni) % 65536))
            skip = 1
        elif escaped:
            out.append(escaped.decode("latin-1"))
        elif plain:
            out.append(plain.decode(codepage, "replace"))
    if pending:
        out.append(pending.decode(codepage, "replace"))
    return "".join(out)
