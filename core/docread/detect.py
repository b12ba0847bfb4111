"""detect(): the format of a file, decided once from its content, name, libmagic and a hint;
for text-like formats also its encoding (``FileInfo.encoding``), so no extractor guesses again."""

from __future__ import annotations

import codecs
import dataclasses
import io
import os
import struct
import threading
from pathlib import Path

from . import formats
from .errors import DependencyMissingError, FormatNotSupportedError
from .formats import BY_KEY, Format
from .model import FileInfo
from .sanitize import lazy_pattern
from .source import Source

_magic_lock = threading.Lock()
_magic = None


def libmagic_mime(head: bytes) -> str:
    """libmagic's MIME type for the first bytes (one shared handle; libmagic is not thread-safe)."""
    global _magic
    try:
        import magic
    except ImportError as exc:  # the Python binding, or libmagic itself
        raise DependencyMissingError(
            "python-magic and libmagic are needed for MIME detection: "
            "pip install python-magic and apt-get install libmagic1"
        ) from exc
    with _magic_lock:
        if _magic is None:
            _magic = magic.Magic(mime=True)
        return str(_magic.from_buffer(head))


def detect(
    source: Source, *, hint: str | None = None, shown: str = "", modified: float | None = None
) -> FileInfo:
    """FileInfo for ``source``: a hint wins, then proof in the content, then libmagic and the name."""
    head = source.head()
    fmt = formats.lookup_hint(hint) if hint else _sniff(source, head)
    size = source.size
    if fmt is None:
        mime = libmagic_mime(head) if head else "application/octet-stream"
        claimed = None if hint else formats.by_extension(source.name)
        content = f"{mime}, {size:,} bytes"
        said = (
            f"unsupported format ({content})"
            if claimed is None
            else formats.not_a(claimed, f"its content is {content}")
        )
        raise FormatNotSupportedError(
            f"{shown or source.name}: {said}; docread reads text, tables, office documents, PDF, "
            "archives, images, audio and SQLite (`docread formats` lists them all)",
            path=shown or source.name,
        )
    info = _info(source, fmt, shown, modified, size)
    claimed = None if hint else formats.by_extension(source.name)
    if claimed is not None and _contradicts(claimed, fmt):
        info = dataclasses.replace(info, extension_format=claimed.key)
    return info


def _contradicts(claimed: Format, found: Format) -> bool:
    """Whether the content (``found``) contradicts the format the extension names (``claimed``),
    rather than refining it: a .json holding a table or a notebook, a .zip that is a .docx, a .gz
    holding a tar are the same thing seen closer; a .pdf that is text or a PNG is not."""
    if claimed.key == found.key or (claimed.textual and found.textual):
        return False
    if claimed.key == "zip" and found.zip_marker:
        return False
    return found.key != f"tar.{claimed.key}"


def directory_info(path: Path, shown: str, st: os.stat_result | None = None) -> FileInfo:
    """FileInfo of a folder; ``st`` is its status when the caller holds it open."""
    st = st or path.stat()
    fmt = BY_KEY["directory"]
    return FileInfo(
        path=str(path), name=path.name or str(path), format=fmt.key, category=fmt.category,
        mime_type=fmt.mime_type, size=st.st_size, modified=_iso(st.st_mtime), source=shown, is_dir=True,
    )  # fmt: skip


def _info(source: Source, fmt: Format, shown: str, modified: float | None, size: int) -> FileInfo:
    if modified is None and source.path is not None and not source.in_memory:
        modified = source.stat().st_mtime
    return FileInfo(
        encoding=detect_encoding(source.head()) if fmt.textual else None,
        path=str(source.path) if source.path is not None else source.name,
        name=Path(source.name).name,
        format=fmt.key,
        category=fmt.category,
        mime_type=fmt.mime_type,
        size=size,
        modified=_iso(modified) if modified is not None else "",
        source=shown or source.name,
    )


_BOMS = (
    (codecs.BOM_UTF32_LE, "utf-32"),
    (codecs.BOM_UTF32_BE, "utf-32"),
    (codecs.BOM_UTF8, "utf-8-sig"),
    (codecs.BOM_UTF16_LE, "utf-16"),
    (codecs.BOM_UTF16_BE, "utf-16"),
)
# single-byte Latin code pages charset-normalizer confuses on short Western text ("crème" read as
# cp1257 "crčme"): when its guess is one of these and the bytes are valid cp1252, cp1252 wins.
_LATIN_FAMILY = ("cp125", "iso8859", "latin", "mac_", "cp437", "cp775", "cp85", "hp_roman")
_NOT_LATIN = (
    "cp1251", "cp1253", "cp1255", "cp1256", "iso8859_5", "iso8859_6", "iso8859_7", "iso8859_8",
    "mac_cyrillic", "mac_greek",
)  # fmt: skip


def detect_encoding(head: bytes) -> str:
    """BOM, then UTF-8 (a cut last character allowed, and a few bad bytes among many good
    multi-byte characters: the reader replaces those and says so), then charset-normalizer's guess,
    with cp1252 preferred among look-alike Latin code pages (the common legacy case) and over an
    unlikely guess made on a few bytes."""
    for bom, name in _BOMS:
        if head.startswith(bom):
            return name
    if _mostly_utf8(head):
        return "utf-8"
    from charset_normalizer import from_bytes

    best = from_bytes(head[:32768]).best()
    guess = best.encoding if best is not None else "cp1252"
    latin = guess.startswith(_LATIN_FAMILY) and not guess.startswith(_NOT_LATIN)
    if latin or _unlikely(guess, head):
        try:
            head.decode("cp1252")
            return "cp1252"
        except UnicodeDecodeError:
            return guess
    return guess


# a UTF-8 file is still UTF-8 with one bad byte for every this many good multi-byte characters
_GOOD_PER_BAD = 4
# guesses worth taking on a short sample; anything else there (cp1006, EBCDIC, UTF-16 without a
# BOM or a NUL) is the statistics' noise, and cp1252 is the likelier truth
_SHORT_SAMPLE = 32  # non-ASCII bytes
_LIKELY = (
    *_NOT_LATIN, "big5", "gb", "hz", "shift_jis", "cp932", "euc", "cp949", "johab", "iso2022",
    "koi8", "cp866", "tis_620", "cp874",
)  # fmt: skip


def _mostly_utf8(head: bytes) -> bool:
    """Valid UTF-8, or UTF-8 with a few bad bytes (``_GOOD_PER_BAD``): legacy 8-bit text almost
    never holds valid multi-byte sequences, so many of them and a stray bad byte is UTF-8."""
    try:
        codecs.getincrementaldecoder("utf-8")().decode(head, final=False)
        return True
    except UnicodeDecodeError:
        pass
    text = codecs.getincrementaldecoder("utf-8")("surrogateescape").decode(head, final=False)
    bad = len(_ESCAPED.findall(text))
    good = len(_NON_ASCII.findall(text)) - bad
    return good >= _GOOD_PER_BAD * bad


_ESCAPED = lazy_pattern("[\udc80-\udcff]")  # a byte surrogateescape kept: not UTF-8
_NON_ASCII = lazy_pattern("[^\x00-\x7f]")


def _unlikely(guess: str, head: bytes) -> bool:
    """A guess that only noise supports: UTF-16/32 without a NUL, or an unusual code page named
    from fewer than ``_SHORT_SAMPLE`` non-ASCII bytes."""
    if guess.startswith(("utf_16", "utf_32")):
        return b"\x00" not in head
    short = len(head[:32768].translate(None, bytes(range(128)))) < _SHORT_SAMPLE
    return short and not guess.startswith(_LIKELY)


def _iso(ts: float) -> str:
    from datetime import UTC, datetime  # here: not imported on the template's path

    return datetime.fromtimestamp(ts, tz=UTC).isoformat(timespec="seconds")


def _sniff(source: Source, head: bytes) -> Format | None:
    name = source.name
    by_ext = formats.by_extension(name)
    if by_ext is None and formats.load_plugins():  # a name no known format claims: plugins may
        by_ext = formats.by_extension(name)
    if head.startswith(formats.OLE2_SIGNATURE):
        return _ole2(head, by_ext)
    by_sig = formats.by_signature(head)
    if by_sig is not None:
        if by_sig.key == "zip":
            return _zip_container(source, by_ext) or by_sig
        if by_sig.key in ("gz", "bz2", "xz"):
            return _compressed(head, by_sig, by_ext)
        return by_sig
    if not head:
        return (
            by_ext
            if by_ext is not None and by_ext.category in ("text", "tabular", "notebook")
            else BY_KEY["text"]
        )
    if _looks_binary(head):
        mime = libmagic_mime(head)
        return formats.by_mime(_MAGIC_ALIASES.get(mime, mime)) or (
            by_ext if by_ext and by_ext.category in ("audio", "image") else None
        )
    return _text_kind(head, by_ext)


#: libmagic's own names for formats the table knows by their registered MIME type
_MAGIC_ALIASES = {"audio/x-hx-aac-adts": "audio/aac"}


def _ole2(head: bytes, by_ext: Format | None) -> Format | None:
    """Legacy .doc/.xls, or a password-protected OOXML file (Office wraps those in OLE2)."""
    if by_ext is not None and (
        by_ext.key in formats.OLE2_FORMATS or by_ext.zip_marker.endswith(".xml")
    ):
        return by_ext
    fmt = formats.by_mime(libmagic_mime(head))
    return fmt if fmt is not None and fmt.key in formats.OLE2_FORMATS else None


def _zip_container(source: Source, by_ext: Format | None) -> Format | None:
    """docx/xlsx/pptx/odt/ods/odp/epub are zips; which one is said by the package itself, never
    by member paths (a PPTX whose chart embeds an XLSX holds ``xl/workbook.xml`` bytes too): ODF
    and EPUB by their ``mimetype`` member, OOXML by the main part ``[Content_Types].xml`` names."""
    mimetype = _stored_mimetype(source.head())
    tail = _tail(source, _ZIP_TAIL)
    if not mimetype and _central_entry(tail, b"mimetype"):
        mimetype = _zip_mimetype(source)  # 'mimetype' not stored first: rare, parse the zip
    containers = formats.zip_containers()
    if mimetype:
        found = next((f for f in containers if f.zip_marker == mimetype), None)
        if found is not None:
            return found
    if _ZIP_END not in tail and by_ext is not None and by_ext.zip_marker:
        return by_ext  # no zip directory: the document its name says, cut short or corrupt
    from .extractors.office.package import CONTENT_TYPES, ooxml_main_part

    if not _central_entry(tail, CONTENT_TYPES.encode()):
        return None

    with source.open() as f:
        main = ooxml_main_part(f)
    if main is None:
        return None
    part, content_type = main
    found = next((f for f in containers if part and f.zip_marker == part), None)
    if found is None and content_type:  # a main part under another name: its content type's family
        family = next(
            (k for words, k in _OOXML_FAMILIES if any(w in content_type for w in words)), ""
        )
        found = BY_KEY[family] if family else None
    if found is None and by_ext is not None and by_ext.zip_marker.endswith(".xml"):
        found = by_ext  # [Content_Types].xml names no main part: the name refines it
    return found


# words of a main part's content type -> format ("...wordprocessingml.document.main+xml",
# "application/vnd.ms-word.document.macroEnabled.main+xml", templates, slide shows)
_OOXML_FAMILIES = (
    (("wordprocessingml", "ms-word"), "docx"),
    (("presentationml", "ms-powerpoint"), "pptx"),
    (("spreadsheetml", "ms-excel"), "xlsx"),
)


_ZIP_TAIL = 4 * 1024 * 1024
_ZIP_END = b"PK\x05\x06"  # the end of central directory record every readable zip ends with
_LOCAL = struct.Struct("<4sHHHHHIIIHH")  # local file header, 30 bytes


def _stored_mimetype(head: bytes) -> str:
    """The value of a first, uncompressed ``mimetype`` member (ODF, EPUB), else ''."""
    if len(head) < _LOCAL.size:
        return ""
    sig, _, _, method, _, _, _, csize, _, nlen, xlen = _LOCAL.unpack_from(head)
    name_end = _LOCAL.size + nlen
    if (
        sig != b"PK\x03\x04"
        or method != 0
        or head[_LOCAL.size : name_end] != b"mimetype"
        or csize > 200
    ):
        return ""
    return head[name_end + xlen : name_end + xlen + csize].decode("ascii", "replace").strip()


def _zip_mimetype(source: Source) -> str:
    import zipfile

    try:
        with source.open() as f, zipfile.ZipFile(f) as zf:
            if zf.getinfo("mimetype").file_size < 200:
                return zf.read("mimetype").decode("ascii", "replace").strip()
    except (zipfile.BadZipFile, KeyError, OSError, ValueError, EOFError):
        pass
    return ""


def _tail(source: Source, size: int) -> bytes:
    with source.open() as f:
        f.seek(max(0, source.size - size))
        return f.read(size)


def _central_entry(tail: bytes, name: bytes) -> bool:
    """True if a central-directory record names exactly ``name`` (not a deeper path ending in it)."""
    pos = tail.find(name)
    while pos != -1:
        rec = pos - 46
        if (
            rec >= 0
            and tail[rec : rec + 4] == b"PK\x01\x02"
            and int.from_bytes(tail[rec + 28 : rec + 30], "little") == len(name)
        ):
            return True
        pos = tail.find(name, pos + 1)
    return False


def _compressed(head: bytes, stream: Format, by_ext: Format | None) -> Format:
    """A compressed tar when the name says so or the decompressed start is a tar header."""
    if by_ext is not None and by_ext.key.startswith("tar."):
        return by_ext
    try:
        if stream.key == "gz":
            import gzip

            inner = gzip.GzipFile(fileobj=io.BytesIO(head)).read(512)
        elif stream.key == "bz2":
            import bz2

            inner = bz2.BZ2Decompressor().decompress(head, 512)
        else:
            import lzma

            inner = lzma.LZMADecompressor().decompress(head, 512)
    except Exception:  # noqa: BLE001 - a truncated or odd head: keep the stream kind
        inner = b""
    if inner[257:262] == b"ustar":
        return BY_KEY["tar." + stream.key]
    return stream


_CONTROL = lazy_pattern(rb"[\x00-\x08\x0e-\x1a\x1c-\x1f]")


def _looks_binary(head: bytes) -> bool:
    """Binary if NULs or control bytes are more than stray (a log with one NUL is still text)."""
    if head.startswith((b"\xff\xfe", b"\xfe\xff", b"\xef\xbb\xbf")):
        return False
    sample = head[:8192]
    threshold = max(4, len(sample) // 100)
    if sample.count(0) > threshold:  # "MZ" then NULs: a Windows executable, never UTF-16 text
        return head.startswith(b"MZ") or not _utf16_without_bom(head)
    return len(_CONTROL.findall(sample)) > threshold


def _utf16_without_bom(head: bytes) -> bool:
    sample = head[:4096]
    even, odd = sample[0::2], sample[1::2]
    return (odd.count(0) > len(odd) * 0.4 and even.count(0) < len(even) * 0.1) or (
        even.count(0) > len(even) * 0.4 and odd.count(0) < len(odd) * 0.1
    )


def _text_kind(head: bytes, by_ext: Format | None) -> Format:
    """Text content: the extension picks csv/tsv/json/ipynb; JSON shapes refine it; a page
    without a known extension that opens as HTML is HTML."""
    stripped = head.lstrip(b"\xef\xbb\xbf \t\r\n")
    if (
        by_ext is not None
        and by_ext.key == "json"
        or (by_ext is None and stripped[:1] in (b"{", b"["))
    ):
        if stripped[:1] == b"[" and stripped[1:].lstrip()[:1] == b"{":
            return BY_KEY["json_table"]
        if stripped[:1] == b"{" and b'"cells"' in head and b'"nbformat"' in head:
            return BY_KEY["ipynb"]
        return BY_KEY["json"]
    if by_ext is None and stripped[:15].lower().startswith((b"<!doctype html", b"<html")):
        return BY_KEY["html"]
    if by_ext is not None and by_ext.key == "jsonl":
        first = stripped.split(b"\n", 1)[0].strip()
        return by_ext if _is_json_object(first) else BY_KEY["text"]
    if by_ext is not None and (
        by_ext.category in ("text", "tabular", "notebook", "email") or by_ext.key == "rtf"
    ):
        return by_ext
    return BY_KEY["text"]


def _is_json_object(line: bytes) -> bool:
    import json  # here: not imported on the template's path

    try:
        return isinstance(json.loads(line), dict)
    except ValueError:
        return False
