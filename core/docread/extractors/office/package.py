"""Zip containers of documents: ``open_package``, the bomb checks every zip-based format (DOCX,
PPTX, ODT, ODP, EPUB here; XLSX and ODS in ``tables.workbook``) passes before any parsing; for
office files also capped member reads, XML parsed with defusedxml, a verified re-pack for pandoc.

Pandoc never sees the original zip: every member is read here under the archive limits (count,
total size, ratio, single member), XML parts with entity declarations are refused, and the
checked bytes are written to a fresh zip in a private temp directory.
"""

from __future__ import annotations

import posixpath
import zipfile
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any, BinaryIO

from ...errors import ArchiveSecurityError, EncryptedDocumentError, ExtractionError
from ..archives.backends import zip_declared_count
from ..archives.guard import RATIO_FLOOR

if TYPE_CHECKING:
    from ...settings import ArchiveSettings

CONTENT_TYPES = "[Content_Types].xml"
_CONTENT_TYPES_CAP = 1 << 20  # a real one is a few KB
_DETECT_MAX_MEMBERS = 100_000  # detection parses no central directory larger than this
_XML_SUFFIXES = (".xml", ".rels", ".opf", ".ncx", ".xhtml", ".html", ".htm", ".svg")
_ENTITY = b"<!ENTITY"


def open_package(file: BinaryIO, source: str, limits: ArchiveSettings) -> zipfile.ZipFile:
    """The one gate every zip-based document format (DOCX, PPTX, XLSX, ODT, ODP, ODS, EPUB) passes
    before any parser sees it: the archive limits of ``settings.archive`` on the directory.

    The member count is read from the end record first (zipfile parses the whole central
    directory on open); then the members' declared sizes are checked, which bounds what any
    zipfile-based parser can inflate: zipfile stops every member at its declared size.
    """
    declared = zip_declared_count(file)
    if declared is not None and declared > limits.max_file_count:
        raise _too_many(source, declared, limits)
    try:
        zf = zipfile.ZipFile(file)
    except (zipfile.BadZipFile, EOFError, OSError) as exc:
        raise _not_a_package(file, source, exc) from exc
    try:
        check_members(zf.infolist(), source, limits)
    except BaseException:
        zf.close()
        raise
    return zf


def _not_a_package(file: BinaryIO, source: str, exc: Exception) -> ExtractionError:
    """The error of a document that does not open as a zip: "not a DOCX: the file is not a zip
    package", with what its bytes look like (a zip cut short, or something else)."""
    from ...formats import BY_KEY, by_extension, not_a

    try:
        file.seek(0)
        zip_start = file.read(4) in (b"PK\x03\x04", b"PK\x05\x06")
    except OSError:
        zip_start = False
    why = f"it starts like one but is cut short or corrupt: {exc}" if zip_start else str(exc)
    said = not_a(by_extension(source) or BY_KEY["docx"], why)
    return ExtractionError(f"{source}: {said}; re-save or re-export it", path=source)


def check_members(infos: list[zipfile.ZipInfo], source: str, limits: ArchiveSettings) -> None:
    """Member count, total and single inflated size, package and member compression ratio
    (judged past ``RATIO_FLOOR`` bytes, as for archives) and encryption, from the directory."""
    if len(infos) > limits.max_file_count:
        raise _too_many(source, len(infos), limits)
    total = sum(i.file_size for i in infos)
    packed = sum(i.compress_size for i in infos)
    if total > limits.max_total_size:
        raise ArchiveSecurityError(
            f"{source}: unpacks to {total:,} bytes, over archive.max_total_size="
            f"{limits.max_total_size:,} (a zip bomb or an oversized document)",
            path=source,
        )
    _check_ratio(source, "the package", total, packed, limits)
    for info in infos:
        if info.file_size > limits.max_single_file:
            raise ArchiveSecurityError(
                f"{source}: member {info.filename} unpacks to {info.file_size:,} bytes, over "
                f"archive.max_single_file={limits.max_single_file:,}",
                path=source,
            )
        _check_ratio(source, f"member {info.filename}", info.file_size, info.compress_size, limits)
        if info.flag_bits & 0x1:
            raise EncryptedDocumentError(
                f"{source}: the document is password-protected; remove the password and retry",
                path=source,
            )


def _check_ratio(source: str, what: str, out: int, packed: int, limits: ArchiveSettings) -> None:
    if out > RATIO_FLOOR and out > limits.max_compression_ratio * max(packed, 1):
        raise ArchiveSecurityError(
            f"{source}: {what} has compression ratio {out / max(packed, 1):,.0f}:1, over "
            f"archive.max_compression_ratio={limits.max_compression_ratio:g} (a zip bomb)",
            path=source,
        )


def _too_many(source: str, count: int, limits: ArchiveSettings) -> ArchiveSecurityError:
    return ArchiveSecurityError(
        f"{source}: {count:,} zip members is over archive.max_file_count="
        f"{limits.max_file_count:,}; this is not a normal document",
        path=source,
    )


def ooxml_main_part(file: BinaryIO) -> tuple[str, str] | None:
    """(part name, content type) of the main part an OOXML package's ``[Content_Types].xml``
    names (``("word/document.xml", "...wordprocessingml.document.main+xml")``); ``("", "")`` when
    it has that file but names no main part; None when it has none (not OOXML) or it cannot be
    read. Used by detection: one bounded member read, parsed with defusedxml."""
    from defusedxml import ElementTree

    count = zip_declared_count(file)
    if count is None or count > _DETECT_MAX_MEMBERS:
        return None
    try:
        with zipfile.ZipFile(file) as zf:
            info = zf.getinfo(CONTENT_TYPES)
            if info.file_size > _CONTENT_TYPES_CAP:
                return None
            with zf.open(info) as f:
                data = f.read(_CONTENT_TYPES_CAP + 1)
        root = ElementTree.fromstring(data)
    except (KeyError, zipfile.BadZipFile, EOFError, OSError, ValueError, ElementTree.ParseError):
        return None  # ValueError covers defusedxml's refusals: not a package detection trusts
    for el in root:
        kind = el.get("ContentType", "")
        if local(el.tag) == "Override" and kind.endswith(".main+xml"):
            return el.get("PartName", "").lstrip("/"), kind
    return "", ""


class OfficeZip:
    """An opened, pre-checked office zip: members are read with caps, XML parsed defused."""

    def __init__(self, path: Path, source: str, limits: ArchiveSettings) -> None:
        self.source = source
        self.limits = limits
        self._raw = path.open("rb")
        try:
            self.zf = open_package(self._raw, source, limits)
        except BaseException:
            self._raw.close()
            raise
        self.names = {i.filename: i for i in self.zf.infolist()}

    def has(self, name: str) -> bool:
        return name in self.names

    def read(self, name: str) -> bytes:
        """A member's bytes, never more than its declared size (a lying header cannot bomb us)."""
        info = self.names.get(name)
        if info is None:
            raise ExtractionError(
                f"{self.source}: missing part {name}; the file is damaged", path=self.source
            )
        try:
            with self.zf.open(info) as f:
                data = f.read(info.file_size + 1)
        except (zipfile.BadZipFile, EOFError, OSError, ValueError) as exc:
            raise ExtractionError(
                f"{self.source}: part {name} is truncated or corrupt ({exc})", path=self.source
            ) from exc
        if len(data) > info.file_size:
            raise ArchiveSecurityError(
                f"{self.source}: part {name} unpacks to more than its declared size (a zip bomb)",
                path=self.source,
            )
        if name.lower().endswith(_XML_SUFFIXES) and _ENTITY in data:
            raise ArchiveSecurityError(
                f"{self.source}: part {name} declares XML entities (billion-laughs or external "
                f"entity attack); refused",
                path=self.source,
            )
        return data

    def xml(self, name: str) -> Any:
        """The parsed root element of an XML part. ``read`` refused entity declarations, so a
        part without a DOCTYPE goes to the C parser (expat fetches nothing external; ~3x the
        speed of defusedxml's Python-level tree builder); one with a DOCTYPE to defusedxml."""
        from xml.etree import ElementTree as StdTree

        from defusedxml import ElementTree
        from defusedxml.common import DefusedXmlException

        data = self.read(name)
        try:
            if b"<!DOCTYPE" not in data:
                return StdTree.fromstring(data)
            return ElementTree.fromstring(data)
        except DefusedXmlException as exc:
            raise ArchiveSecurityError(
                f"{self.source}: part {name} refused: {exc}", path=self.source
            ) from exc
        except StdTree.ParseError as exc:
            raise ExtractionError(
                f"{self.source}: part {name} is not valid XML ({exc})", path=self.source
            ) from exc

    def start_tags(self, name: str, wanted: frozenset[str]) -> list[tuple[str, dict[str, str]]]:
        """(local name, attributes by local name) of the start tags named in ``wanted``, in
        document order: one expat pass that builds no tree (Word's 350 KB styles part: a few ms
        against ~60 ms for a tree). Entity declarations were refused by ``read``; expat fetches
        nothing external."""
        from xml.parsers import expat

        found: list[tuple[str, dict[str, str]]] = []

        def start(tag: str, attrs: dict[str, str]) -> None:
            tag = tag.rsplit("}", 1)[-1]
            if tag in wanted:
                found.append((tag, {k.rsplit("}", 1)[-1]: v for k, v in attrs.items()}))

        parser = expat.ParserCreate(namespace_separator="}")
        parser.StartElementHandler = start
        try:
            parser.Parse(self.read(name), True)
        except expat.ExpatError as exc:
            raise ExtractionError(
                f"{self.source}: part {name} is not valid XML ({exc})", path=self.source
            ) from exc
        return found

    def repack(
        self,
        target: Path,
        transform: Callable[[str, bytes], bytes] | None = None,
        *,
        tick: Callable[[str], None] | None = None,
    ) -> Path:
        """Write every checked member (optionally rewritten) to a fresh zip for pandoc;
        ``tick(member)`` before each (a deadline check may raise from it)."""
        with zipfile.ZipFile(target, "w", zipfile.ZIP_STORED) as out:
            for name, info in self.names.items():
                if tick is not None:
                    tick(name)
                if info.is_dir():
                    continue
                data = self.read(name)
                if transform is not None:
                    data = transform(name, data)
                out.writestr(name, data)
        return target

    def close(self) -> None:
        self.zf.close()
        self._raw.close()

    def __enter__(self) -> OfficeZip:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def rels(oz: OfficeZip, part: str) -> dict[str, str]:
    """OOXML relationships of ``part``: id -> absolute member name (external links dropped)."""
    folder, base = posixpath.split(part)
    rels_name = posixpath.join(folder, "_rels", base + ".rels")
    if not oz.has(rels_name):
        return {}
    out: dict[str, str] = {}
    for rel in oz.xml(rels_name):
        if rel.get("TargetMode") == "External":
            continue
        target = rel.get("Target", "")
        full = (
            target.lstrip("/")
            if target.startswith("/")
            else posixpath.normpath(posixpath.join(folder, target))
        )
        out[rel.get("Id", "")] = full
    return out


def local(tag: str) -> str:
    """An element's tag without its namespace."""
    return tag.rsplit("}", 1)[-1]


def attr(el: Any, name: str) -> str:
    """An element's attribute by local name, whatever its namespace ("" when absent)."""
    for key, value in el.attrib.items():
        if local(key) == name:
            return str(value)
    return ""
