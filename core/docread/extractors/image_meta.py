"""Image facts without decoding pixels: dimensions, color, frames, EXIF (camera, exposure, GPS in
decimal degrees), XMP (title, description, author, keywords) and the ICC profile description.

Each fact is a ``Fact(label, shown, key, value)``: ``shown`` goes into the metadata block of the
agent view, ``key``/``value`` into the flat metadata of the unit.
"""

from __future__ import annotations

import io
from collections.abc import Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from PIL import Image

# EXIF tag numbers (TIFF/EXIF 2.3): the base IFD, the Exif sub-IFD and the GPS sub-IFD
_EXIF_IFD, _GPS_IFD = 0x8769, 0x8825
_DESCRIPTION, _MAKE, _MODEL, ORIENTATION, _SOFTWARE, _DATETIME, _ARTIST, _COPYRIGHT = (
    270, 271, 272, 274, 305, 306, 315, 33432,
)  # fmt: skip
_EXPOSURE, _FNUMBER, _ISO, _TAKEN, _FOCAL, _LENS_MAKE, _LENS_MODEL = (
    33434, 33437, 34855, 36867, 37386, 42035, 42036,
)  # fmt: skip
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


def exif_facts(img: Image.Image) -> list[Fact]:
    """Camera, lens, exposure, dates, software, orientation and GPS from Pillow's EXIF reader."""
    exif = img.getexif()
    if not exif:
        return []
    sub = _ifd(exif, _EXIF_IFD)
    facts: list[Fact] = []
    make, model = _text(exif.get(_MAKE)), _text(exif.get(_MODEL))
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
    lens = _text(sub.get(_LENS_MODEL)) or _text(sub.get(_LENS_MAKE))
    focal = _number(sub.get(_FOCAL))
    fnum = _number(sub.get(_FNUMBER))
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
    exposure, iso = _number(sub.get(_EXPOSURE)), _number(sub.get(_ISO))
    if exposure or iso:
        parts = [_shutter(exposure) if exposure else "", f"ISO {iso:g}" if iso else ""]
        facts.append(
            Fact("Exposure", " at ".join(filter(None, parts)), "exposure_time", exposure or None)
        )
        if iso:
            facts.append(Fact("", "", "iso", int(iso)))
    taken = _text(sub.get(_TAKEN)) or _text(exif.get(_DATETIME))
    if taken:
        facts.append(Fact("Date", _exif_date(taken, " "), "date_taken", _exif_date(taken, "T")))
    for tag, label, key in ((_SOFTWARE, "Software", "software"), (_ARTIST, "Artist", "author"),
                            (_COPYRIGHT, "Copyright", "copyright"), (_DESCRIPTION, "Description", "description")):  # fmt: skip
        value = _text(exif.get(tag))
        if value:
            facts.append(Fact(label, value, key, value))
    orientation = exif.get(ORIENTATION)
    if isinstance(orientation, int) and orientation in _ORIENTATIONS and orientation != 1:
        facts.append(Fact("Orientation", _ORIENTATIONS[orientation], "orientation", orientation))
    return facts + _gps_facts(_ifd(exif, _GPS_IFD))


def _gps_facts(gps: dict[int, Any]) -> list[Fact]:
    """GPS latitude/longitude (and altitude) as signed decimal degrees with N/S/E/W."""
    lat = _degrees(gps.get(2), gps.get(1), "S")
    lon = _degrees(gps.get(4), gps.get(3), "W")
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
    alt = _number(gps.get(6))
    if alt is not None:
        alt = -alt if gps.get(5) in (1, b"\x01") else alt
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


def render_block(name: str, facts: list[Fact], extra: list[str]) -> str:
    """The design's image block: ``**Image:** name``, the facts, EXIF as a list, then extras."""
    head, exif_labels = [f"**Image:** {name}"], {"Camera", "Lens", "Exposure", "Date", "GPS", "Altitude",
                                                  "Software", "Artist", "Copyright", "Orientation"}  # fmt: skip
    exif = [f"  - {f.label}: {f.shown}" for f in facts if f.label in exif_labels]
    for f in facts:
        if f.label and f.label not in exif_labels:
            head.append(f"**{f.label}:** {f.shown}")
    parts = ["\n".join(head)]
    if exif:
        parts.append("**EXIF Metadata:**\n" + "\n".join(exif))
    parts += extra
    return "\n\n".join(parts)


def fact_metadata(facts: list[Fact]) -> dict[str, Any]:
    """Flat metadata from the facts (first value of a key wins: EXIF author before XMP's)."""
    meta: dict[str, Any] = {}
    for f in facts:
        if f.key and f.value is not None and f.key not in meta:
            meta[f.key] = f.value
    return meta


def human_size(n: int) -> str:
    """1536 -> '1.5 KB': the size line of the design's blocks."""
    size = float(n)
    for unit in ("bytes", "KB", "MB", "GB"):
        if size < 1024 or unit == "GB":
            return f"{n:,} bytes" if unit == "bytes" else f"{size:.1f} {unit}"
        size /= 1024
    return f"{n:,} bytes"


def _ifd(exif: Image.Exif, tag: int) -> dict[int, Any]:
    try:
        return dict(exif.get_ifd(tag))
    except Exception:  # noqa: BLE001 - a damaged sub-IFD leaves the rest readable
        return {}


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


def _text(value: Any) -> str:
    if isinstance(value, bytes):
        value = value.decode("utf-8", "replace")
    return value.strip("\x00 ").strip() if isinstance(value, str) else ""


def _number(value: Any) -> float | None:
    if isinstance(value, tuple | list):
        value = value[0] if value else None
    try:
        number = float(value)  # IFDRational, int or float
    except (TypeError, ValueError, ZeroDivisionError):
        return None
    return number if number == number else None  # NaN from a 0/0 rational


def _degrees(dms: Any, ref: Any, negative: str) -> float | None:
    if not isinstance(dms, tuple | list) or len(dms) != 3:
        return None
    try:
        d, m, s = (float(x) for x in dms)
    except (TypeError, ValueError, ZeroDivisionError):
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
