"""Zip containers of office files (DOCX, PPTX, ODT, ODP, EPUB): bomb checks before any parsing,
capped member reads, XML parsed with defusedxml, and a verified re-pack for pandoc.

Pandoc never sees the original zip: every member is read here under the archive limits (count,
total size, ratio, single member), XML parts with entity declarations are refused, and the
checked bytes are written to a fresh zip in a private temp directory.
"""

from __future__ import annotations

import posixpath
import zipfile
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ...errors import ArchiveSecurityError, EncryptedDocumentError, ExtractionError

if TYPE_CHECKING:
    from ...settings import ArchiveSettings

_XML_SUFFIXES = (".xml", ".rels", ".opf", ".ncx", ".xhtml", ".html", ".htm", ".svg")
_ENTITY = b"<!ENTITY"
_MIN_RATIO_BYTES = 1024 * 1024  # tiny members compress absurdly well; judge ratio on big ones


class OfficeZip:
    """An opened, pre-checked office zip: members are read with caps, XML parsed defused."""

    def __init__(self, path: Path, source: str, limits: ArchiveSettings) -> None:
        self.source = source
        self.limits = limits
        try:
            self.zf = zipfile.ZipFile(path)
            infos = self.zf.infolist()
        except (zipfile.BadZipFile, EOFError, OSError) as exc:
            raise ExtractionError(
                f"{source}: not a readable office file (the zip container is truncated or "
                f"corrupt: {exc}); re-save or re-export the document",
                path=source,
            ) from exc
        self.names = {i.filename: i for i in infos}
        self._check(infos)

    def _check(self, infos: list[zipfile.ZipInfo]) -> None:
        """Member count, total size, single size and compression ratio, from the directory."""
        lim, src = self.limits, self.source
        if len(infos) > lim.max_file_count:
            raise ArchiveSecurityError(
                f"{src}: {len(infos):,} zip members is over archive.max_file_count="
                f"{lim.max_file_count:,}; this is not a normal office file",
                path=src,
            )
        total = sum(i.file_size for i in infos)
        packed = sum(i.compress_size for i in infos) or 1
        if total > lim.max_total_size:
            raise ArchiveSecurityError(
                f"{src}: unpacks to {total:,} bytes, over archive.max_total_size="
                f"{lim.max_total_size:,} (a zip bomb or an oversized document)",
                path=src,
            )
        if total > _MIN_RATIO_BYTES and total / packed > lim.max_compression_ratio:
            raise ArchiveSecurityError(
                f"{src}: compression ratio {total / packed:,.0f}:1 is over "
                f"archive.max_compression_ratio={lim.max_compression_ratio:g} (a zip bomb)",
                path=src,
            )
        for info in infos:
            if info.file_size > lim.max_single_file:
                raise ArchiveSecurityError(
                    f"{src}: member {info.filename} unpacks to {info.file_size:,} bytes, over "
                    f"archive.max_single_file={lim.max_single_file:,}",
                    path=src,
                )
            if info.flag_bits & 0x1:
                raise EncryptedDocumentError(
                    f"{src}: the document is password-protected; remove the password and retry",
                    path=src,
                )

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
        """The parsed root element of an XML part (defusedxml: no entities, no external refs)."""
        from defusedxml import ElementTree
        from defusedxml.common import DefusedXmlException

        data = self.read(name)
        try:
            return ElementTree.fromstring(data)
        except DefusedXmlException as exc:
            raise ArchiveSecurityError(
                f"{self.source}: part {name} refused: {exc}", path=self.source
            ) from exc
        except ElementTree.ParseError as exc:
            raise ExtractionError(
                f"{self.source}: part {name} is not valid XML ({exc})", path=self.source
            ) from exc

    def repack(self, target: Path, transform: Callable[[str, bytes], bytes] | None = None) -> Path:
        """Write every checked member (optionally rewritten) to a fresh zip for pandoc."""
        with zipfile.ZipFile(target, "w", zipfile.ZIP_STORED) as out:
            for name, info in self.names.items():
                if info.is_dir():
                    continue
                data = self.read(name)
                if transform is not None:
                    data = transform(name, data)
                out.writestr(name, data)
        return target

    def close(self) -> None:
        self.zf.close()

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
