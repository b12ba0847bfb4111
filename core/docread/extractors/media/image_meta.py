"""Image facts without decoding pixels: dimensions, color, frames (Pillow's header), EXIF
(camera, exposure, GPS in decimal degrees; read by exifread from the file's EXIF block), XMP
(title, description, author, keywords) and the ICC profile description.

Each fact is a ``Fact(label, shown, key, value)``: ``shown`` goes into the metadata block of the
agent view, ``key``/``value`` into the flat metadata of the unit.
"""

from __future__ import annotations

import io
import logging
import threading
from collections.abc import Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, BinaryIO

from ...sanitize import capped, capped_lines
from ..markdown import human_size

if TYPE_CHECKING:
    from PIL import Image

    from ...settings import OutputSettings
    from ...source import Source

ORIENTATION = 274  # EXIF Orientation tag number, used with Pillow to rotate the picture
# Formats whose EXIF exifread finds (by its own magic-byte check); others have no EXIF to read
_EXIFREAD_FORMATS = frozenset({"JPEG", "MPO", "TIFF", "PNG", "WEBP"})
_ORIENTATIONS = {
    1: "normal",
    2: "mirrored horizontally",
    3: "rotated 180°",
    4: "mirrored vertically",
    5: "mirrored horizontally, rotated 270° CW",
    6: "rotated 90° CW",
    7: "mirrored horizontally, rotated 90° CW",
    8: "rotated 270° CW",
}
_BITS = {"1": 1, "I;16": 16, "I;16B": 16, "I;16L": 16, "I": 32, "F": 32}
_XMP_FIELDS = {  # XMP leaf name -> (label, metadata key)
    "title": ("Title", "title"),
    "description": ("Description", "description"),
    "creator": ("Author", "author"),
    "Author": ("Author", "author"),
    "subject": ("Keywords", "keywords"),
    "rights": ("Rights", "rights"),
    "Headline": ("Headline", "headline"),
    "CreatorTool": ("Creator tool", "creator_tool"),
}


@dataclass(frozen=True, slots=True)
class Fact:
    """One line of the image block and its flat metadata entry; an empty ``label`` is metadata
    only (a second key of the same line, e.g. height), an empty ``key`` display only."""

    label: str
    shown: str
    key: str = ""
    value: Any = None


def basic_facts(img: Image.Image, size: int) -> list[Fact]:
    """Dimensions, format, color mode and bit depth, file size and frame count."""
    width, height = img.size
    bands = len(img.getbands())
    bits = _BITS.get(img.mode, 8)
    facts = [
        Fact("Dimensions", f"{width} x {height} pixels", "width", width),
        Fact("", "", "height", height),
        Fact("Format", str(img.format), "image_format", img.format),
        Fact("Color", f"{img.mode}, {bits}-bit", "color_mode", img.mode),
        Fact("", "", "bit_depth", bits),
        Fact("", "", "channels", bands),
        Fact("Size", human_size(size)),
    ]
    frames = int(getattr(img, "n_frames", 1) or 1)
    if frames > 1:
        facts.append(Fact("Frames", str(frames), "frame_count", frames))
    return facts


def exif_facts(source: Source, image_format: str) -> list[Fact]:
    """Camera, lens, exposure, dates, software, orientation and GPS, read by exifread from the
    file's EXIF block (JPEG APP1, TIFF IFDs, PNG eXIf, WebP EXIF chunk) without decoding pixels."""
    if image_format not in _EXIFREAD_FORMATS:
        return []
    tags = _read_exif(source, image_format)
    if not tags:
        return []
    facts: list[Fact] = []
    make, model = _text(tags.get("Image Make")), _text(tags.get("Image Model"))
    camera = (
        model
        if make and model.lower().startswith(make.lower())
        else " ".join(filter(None, (make, model)))
    )
    if camera:
        facts += [
            Fact("Camera", camera, "camera_model", model or None),
            Fact("", "", "camera_make", make or None),
        ]
    lens = _text(tags.get("EXIF LensModel")) or _text(tags.get("EXIF LensMake"))
    focal = _number(tags.get("EXIF FocalLength"))
    fnum = _number(tags.get("EXIF FNumber"))
    lens_line = " ".join(
        filter(
            None, (lens, f"{round(focal, 2):g}mm" if focal else "", f"f/{fnum:g}" if fnum else "")
        )
    )
    if lens_line:
        facts.append(Fact("Lens", lens_line, "lens", lens or None))
    if focal:
        facts.append(Fact("", "", "focal_length_mm", focal))
    if fnum:
        facts.append(Fact("", "", "f_number", fnum))
    exposure = _number(tags.get("EXIF ExposureTime"))
    iso = _number(tags.get("EXIF ISOSpeedRatings"))
    if exposure or iso:
        parts = [_shutter(exposure) if exposure else "", f"ISO {iso:g}" if iso else ""]
        facts.append(
            Fact("Exposure", " at ".join(filter(None, parts)), "exposure_time", exposure or None)
        )
        if iso:
            facts.append(Fact("", "", "iso", int(iso)))
    taken = _text(tags.get("EXIF DateTimeOriginal")) or _text(tags.get("Image DateTime"))
    if taken:
        facts.append(Fact("Date", _exif_date(taken, " "), "date_taken", _exif_date(taken, "T")))
    for tag, label, key in (("Software", "Software", "software"), ("Artist", "Artist", "author"),
                            ("Copyright", "Copyright", "copyright"), ("ImageDescription", "Description", "description")):  # fmt: skip
        value = _text(tags.get(f"Image {tag}"))
        if value:
            facts.append(Fact(label, value, key, value))
    orientation = _number(tags.get("Image Orientation"))
    if orientation is not None and int(orientation) in _ORIENTATIONS and orientation != 1:
        facts.append(
            Fact("Orientation", _ORIENTATIONS[int(orientation)], "orientation", int(orientation))
        )
    return facts + _gps_facts(tags)


def _read_exif(source: Source, image_format: str) -> dict[str, Any]:
    """exifread's ``{"IFD Tag": IfdTag}`` from a fresh stream (Pillow keeps its own), with its
    log records ("no EXIF", "possibly corrupted field") kept out of the caller's log; a
    damaged EXIF block yields no tags rather than failing the image."""
    import exifread

    logger = logging.getLogger("exifread")
    quiet = _ThreadFilter()
    logger.addFilter(quiet)
    try:
        with source.open() as stream:
            block = _webp_exif(stream) if image_format == "WEBP" else stream
            if block is None:
                return {}
            return dict(exifread.process_file(block, details=False, extract_thumbnail=False))
    except Exception:  # noqa: BLE001 - a damaged EXIF block leaves the rest readable
        return {}
    finally:
        logger.removeFilter(quiet)


def _webp_exif(stream: BinaryIO) -> BinaryIO | None:
    """The WebP ``EXIF`` chunk as a TIFF stream for exifread, found by walking the RIFF chunk
    headers. exifread 3.5 assumes an ``Exif\\0\\0`` prefix that the spec (and Pillow, webpmux)
    do not write, so it misreads spec-compliant files; the chunk is raw TIFF data."""
    stream.seek(12)  # RIFF size WEBP
    while len(header := stream.read(8)) == 8:
        size = int.from_bytes(header[4:], "little")
        if header[:4] == b"EXIF":
            data = stream.read(size)
            return io.BytesIO(data[6:] if data.startswith(b"Exif\0\0") else data)
        stream.seek(size + (size & 1), io.SEEK_CUR)  # chunks are padded to even sizes
    return None


class _ThreadFilter(logging.Filter):
    """Drops the log records of the thread that created it (other threads log as usual)."""

    def __init__(self) -> None:
        super().__init__()
        self.thread = threading.get_ident()

    def filter(self, record: logging.LogRecord) -> bool:
        return record.thread != self.thread


def _gps_facts(tags: dict[str, Any]) -> list[Fact]:
    """GPS latitude/longitude (and altitude) as signed decimal degrees with N/S/E/W."""
    lat = _degrees(tags.get("GPS GPSLatitude"), tags.get("GPS GPSLatitudeRef"), "S")
    lon = _degrees(tags.get("GPS GPSLongitude"), tags.get("GPS GPSLongitudeRef"), "W")
    if lat is None or lon is None:
        return []
    shown = (
        f"{_deg(abs(lat))}° {'S' if lat < 0 else 'N'}, {_deg(abs(lon))}° {'W' if lon < 0 else 'E'}"
        f" ({_deg(lat)}, {_deg(lon)})"
    )
    facts = [
        Fact("GPS", shown, "gps_latitude", round(lat, 6)),
        Fact("", "", "gps_longitude", round(lon, 6)),
    ]
    alt = _number(tags.get("GPS GPSAltitude"))
    if alt is not None:
        alt = -alt if _number(tags.get("GPS GPSAltitudeRef")) == 1 else alt
        facts.append(Fact("Altitude", f"{alt:.1f} m", "gps_altitude", round(alt, 1)))
    return facts


def xmp_facts(img: Image.Image) -> list[Fact]:
    """Title, description, author and keywords from the XMP packet (parsed with defusedxml)."""
    if "xmp" not in img.info and 700 not in getattr(img, "tag_v2", {}):
        return []
    try:
        xmp = img.getxmp()
    except Exception:  # noqa: BLE001 - a broken XMP packet is not a broken image
        return []
    found: dict[str, list[str]] = {}
    for name, text in _leaves(xmp):
        if name in _XMP_FIELDS and text.strip() and text.strip() not in found.get(name, []):
            found.setdefault(name, []).append(text.strip())
    facts = []
    for name, values in found.items():
        label, key = _XMP_FIELDS[name]
        joined = ", ".join(values)
        facts.append(Fact(label, joined, key, joined))
    return facts


def icc_fact(img: Image.Image) -> list[Fact]:
    """The ICC profile's description (``sRGB IEC61966-2.1``), or its size when unreadable."""
    icc = img.info.get("icc_profile")
    if not icc:
        return []
    try:
        from PIL import ImageCms

        desc = ImageCms.ImageCmsProfile(io.BytesIO(icc)).profile.profile_description or ""
    except Exception:  # noqa: BLE001 - an unreadable profile is still worth noting
        desc = ""
    shown = desc.strip() or f"embedded ({len(icc):,} bytes)"
    return [Fact("ICC Profile", shown, "icc_profile", shown)]


def render_block(name: str, facts: list[Fact], extra: list[str], output: OutputSettings) -> str:
    """The design's image block: ``**Image:** name``, the facts (each value cut at
    ``output.max_metadata_value_len``), EXIF as a list (``output.max_metadata_fields`` lines at
    most), then extras."""
    limit = output.max_metadata_value_len
    head, exif_labels = [f"**Image:** {name}"], {"Camera", "Lens", "Exposure", "Date", "GPS", "Altitude",
                                                  "Software", "Artist", "Copyright", "Orientation"}  # fmt: skip
    exif = [f"  - {f.label}: {capped(f.shown, limit)}" for f in facts if f.label in exif_labels]
    for f in facts:
        if f.label and f.label not in exif_labels:
            head.append(f"**{f.label}:** {capped(f.shown, limit)}")
    parts = ["\n".join(head)]
    if exif:
        parts.append(
            "**EXIF Metadata:**\n" + "\n".join(capped_lines(exif, output.max_metadata_fields))
        )
    parts += extra
    return "\n\n".join(parts)


def fact_metadata(facts: list[Fact]) -> dict[str, Any]:
    """Flat metadata from the facts (first value of a key wins: EXIF author before XMP's)."""
    meta: dict[str, Any] = {}
    for f in facts:
        if f.key and f.value is not None and f.key not in meta:
            meta[f.key] = f.value
    return meta


def _leaves(node: Any, name: str = "") -> Iterator[tuple[str, str]]:
    """(field name, text) for every text leaf of Pillow's XMP dict (rdf:Alt/Bag/Seq flattened)."""
    if isinstance(node, dict):
        for key, value in node.items():
            if key in ("lang", "about", "xmptk"):
                continue
            inner = name if key in ("Alt", "Bag", "Seq", "li", "text") else key
            yield from _leaves(value, inner)
    elif isinstance(node, list | tuple):
        for value in node:
            yield from _leaves(value, name)
    elif isinstance(node, str) and name:
        yield name, node


def _raw(value: Any) -> Any:
    """The value of an exifread ``IfdTag`` (str for ASCII, a list otherwise), else ``value``."""
    return getattr(value, "values", value)


def _text(value: Any) -> str:
    value = _raw(value)
    if isinstance(value, bytes):
        value = value.decode("utf-8", "replace")
    return value.strip("\x00 ").strip() if isinstance(value, str) else ""


def _number(value: Any) -> float | None:
    value = _raw(value)
    while isinstance(value, tuple | list):  # exifread gives FLOAT/DOUBLE as [(0.004,)]
        value = value[0] if value else None
    try:
        number = float(value)  # exifread Ratio (a Fraction), int or float
    except (TypeError, ValueError, ZeroDivisionError):
        return None
    return number if number == number else None  # NaN from a 0/0 rational


def _degrees(dms: Any, ref: Any, negative: str) -> float | None:
    dms = _raw(dms)
    if not isinstance(dms, tuple | list) or len(dms) != 3:
        return None
    d, m, s = (_number(x) for x in dms)
    if d is None or m is None or s is None:
        return None
    value = d + m / 60 + s / 3600
    return -value if _text(ref).upper() == negative else value


def _deg(value: float) -> str:
    return f"{value:.6f}".rstrip("0").rstrip(".")


def _shutter(seconds: float) -> str:
    if 0 < seconds < 1:
        return f"1/{round(1 / seconds)}s"
    return f"{seconds:g}s"


def _exif_date(value: str, sep: str) -> str:
    """'2009:08:11 09:09:45' -> '2009-08-11 09:09:45' (or ISO with ``sep='T'``)."""
    date, _, time = value.partition(" ")
    return f"{date.replace(':', '-')}{sep + time if time else ''}"
