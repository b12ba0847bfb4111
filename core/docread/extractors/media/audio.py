"""Audio files (MP3, WAV, FLAC, Ogg Vorbis/Opus, M4A, AAC, AIFF): duration, codec, bitrate,
sample rate, channels and tags through mutagen, without decoding or transcribing the sound;
embedded cover art is noted and handed out as a Media part."""

from __future__ import annotations

import base64
import io
from collections.abc import Iterator
from typing import Any, ClassVar

from ...errors import ExtractionError
from ...model import Document, Media, Unit
from ...sanitize import capped, capped_lines, shown_name
from ...source import Source
from ..base import Context, Extractor
from ..markdown import human_size

TAGS = ("title", "artist", "album", "albumartist", "track", "year", "genre", "composer", "comment")
_ID3 = {"TIT2": "title", "TPE1": "artist", "TALB": "album", "TPE2": "albumartist", "TRCK": "track",
        "TDRC": "year", "TYER": "year", "TCON": "genre", "TCOM": "composer", "COMM": "comment"}  # fmt: skip
_VORBIS = {"title": "title", "artist": "artist", "album": "album", "albumartist": "albumartist",
           "tracknumber": "track", "date": "year", "year": "year", "genre": "genre",
           "composer": "composer", "comment": "comment", "description": "comment"}  # fmt: skip
_MP4 = {"\xa9nam": "title", "\xa9ART": "artist", "\xa9alb": "album", "aART": "albumartist",
        "trkn": "track", "\xa9day": "year", "\xa9gen": "genre", "\xa9wrt": "composer",
        "\xa9cmt": "comment"}  # fmt: skip
_CHANNELS = {1: "mono", 2: "stereo"}
_LABELS = {"albumartist": "Album artist"}


class AudioExtractor(Extractor):
    """Audio metadata as the design's block; cover art as a Media part."""

    name: ClassVar[str] = "audio"
    version: ClassVar[int] = 1
    cacheable: ClassVar[bool] = False
    isolated: ClassVar[bool] = True

    def extract(self, source: Source, ctx: Context) -> Iterator[Unit]:
        import mutagen

        where = ctx.info.source
        try:
            with source.open() as stream:
                audio = _aac(stream) if ctx.info.format == "aac" else mutagen.File(stream)
        except mutagen.MutagenError as exc:
            raise ExtractionError(
                f"{where}: the audio file is damaged or unreadable ({exc})", path=where
            ) from exc
        if audio is None or getattr(audio, "info", None) is None:
            raise ExtractionError(
                f"{where}: not an audio file mutagen can read, despite the "
                f"{ctx.info.format.upper()} name; check the file or pass format_hint",
                path=where,
            )
        meta = stream_facts(audio)
        tags = read_tags(audio)
        meta.update(tags)
        covers = list(cover_art(audio))
        lines = [f"**Audio:** {shown_name(ctx.info.name)}"]
        cap = ctx.settings.output.max_metadata_value_len
        lines += [f"**{label}:** {capped(str(v), cap)}" for label, v in _stream_lines(meta)]
        lines.append(f"**Size:** {human_size(source.size)}")
        parts = ["\n".join(lines)]
        if tags:
            shown = [f"  - {_LABELS.get(k, k.title())}: {capped(v, cap)}" for k, v in tags.items()]
            shown = capped_lines(shown, ctx.settings.output.max_metadata_fields)
            parts.append("**Tags:**\n" + "\n".join(shown))
        else:
            parts.append("**Tags:** none")
        limit = ctx.settings.image.max_image_bytes
        for mime, data in covers:
            parts.append(f"**Cover art:** {mime}, {human_size(len(data))}")
            if len(data) > limit:
                ctx.warn(
                    f"{where}: cover art of {len(data):,} bytes is over image.max_image_bytes; not attached."
                )
        if covers:
            meta["cover_art"] = covers[0][0]
        yield Document("\n\n".join(parts), meta)
        for i, (_, data) in enumerate(covers, 1):
            picture = _picture(data)
            if picture is None:
                ctx.warn(f"{where}: cover art {i} is not a PNG/JPEG/GIF/WebP image; not attached.")
            elif len(data) <= limit:
                mime, size = picture
                yield Media(mime, data, {"cover_art": True, "image_index": i, **size})


def _aac(stream: Any) -> Any:
    """Raw AAC (ADTS or ADIF): mutagen only guesses it from a file name, which a stream may
    lack, so the AAC reader is asked directly."""
    from mutagen.aac import AAC

    return AAC(stream)


def stream_facts(audio: Any) -> dict[str, Any]:
    """Duration, codec, bitrate, sample rate, channels and bit depth from ``audio.info``."""
    info = audio.info
    meta: dict[str, Any] = {"codec": _codec(audio)}
    length = float(getattr(info, "length", 0) or 0)
    if length > 0:
        meta["duration_seconds"] = round(length, 3)
        meta["duration"] = hms(length)
    for attr, key in (("bitrate", "bitrate"), ("sample_rate", "sample_rate"),
                      ("channels", "channels"), ("bits_per_sample", "bits_per_sample")):  # fmt: skip
        value = getattr(info, attr, None)  # mutagen's ADTS bitrate is a float
        if isinstance(value, int | float) and not isinstance(value, bool) and value > 0:
            meta[key] = round(value)
    return meta


def read_tags(audio: Any) -> dict[str, str]:
    """title, artist, album, track, year, genre, composer, comment from ID3, Vorbis or MP4 tags."""
    tags = getattr(audio, "tags", None)
    if not tags:
        return {}
    found: dict[str, str] = {}
    for key, value in tags.items():
        name = _tag_name(str(key))
        text = _tag_text(value)
        if name and text and name not in found:
            found[name] = text
    return {k: found[k] for k in TAGS if k in found}


def cover_art(audio: Any) -> Iterator[tuple[str, bytes]]:
    """(MIME, bytes) of embedded pictures: ID3 APIC, FLAC pictures, Ogg and MP4 covers."""
    for pic in getattr(audio, "pictures", None) or ():  # FLAC
        yield pic.mime or "image/jpeg", bytes(pic.data)
    tags = getattr(audio, "tags", None)
    if not tags:
        return
    if hasattr(tags, "getall"):  # ID3
        for frame in tags.getall("APIC"):
            yield frame.mime or "image/jpeg", bytes(frame.data)
        return
    from mutagen.flac import Picture

    for key, value in tags.items():
        if key == "covr":  # MP4
            for cov in value:
                yield (
                    ("image/png" if cov.imageformat == cov.FORMAT_PNG else "image/jpeg"),
                    bytes(cov),
                )
        elif str(key).lower() == "metadata_block_picture":  # Ogg Vorbis/Opus
            for b64 in value:
                try:
                    pic = Picture(base64.b64decode(b64))
                except Exception:  # noqa: BLE001 - a broken picture block is skipped, the rest read
                    continue
                yield pic.mime or "image/jpeg", bytes(pic.data)


def _picture(data: bytes) -> tuple[str, dict[str, int]] | None:
    """The real MIME type and size of embedded art (tags often say 'image/jpg' or nothing),
    read from the image header; None when it is not a format vision models take."""
    from PIL import Image, UnidentifiedImageError

    from .image import MODEL_MIME

    try:
        with Image.open(io.BytesIO(data)) as img:
            mime = MODEL_MIME.get(str(img.format))
            return (mime, {"width": img.width, "height": img.height}) if mime else None
    except (UnidentifiedImageError, OSError, SyntaxError, ValueError):
        return None


def hms(seconds: float) -> str:
    """6.48 -> '0:00:06'; 3725 -> '1:02:05'."""
    total = int(round(seconds))
    return f"{total // 3600}:{total % 3600 // 60:02d}:{total % 60:02d}"


def _stream_lines(meta: dict[str, Any]) -> Iterator[tuple[str, str]]:
    if "duration" in meta:
        yield "Duration", f"{meta['duration']} ({meta['duration_seconds']:g} s)"
    yield "Format", meta["codec"]
    if "bitrate" in meta:
        yield "Bitrate", f"{meta['bitrate'] // 1000:,} kbps"
    if "sample_rate" in meta:
        yield "Sample rate", f"{meta['sample_rate']:,} Hz"
    if "channels" in meta:
        n = meta["channels"]
        yield "Channels", f"{n} ({_CHANNELS[n]})" if n in _CHANNELS else str(n)
    if "bits_per_sample" in meta:
        yield "Bit depth", f"{meta['bits_per_sample']}-bit"


def _codec(audio: Any) -> str:
    """A readable codec name: 'MP3 (MPEG 1 layer 3)', 'AAC LC', 'FLAC', 'Vorbis'."""
    info = audio.info
    desc = getattr(info, "codec_description", None)
    if desc:
        return str(desc)
    kind = type(audio).__name__
    if kind == "MP3":
        return f"MP3 (MPEG {info.version:g} layer {info.layer})"
    return {"OggVorbis": "Vorbis (Ogg)", "OggOpus": "Opus (Ogg)", "WAVE": "WAV (PCM)"}.get(
        kind, kind
    )


def _tag_name(key: str) -> str:
    if key in _MP4:
        return _MP4[key]
    head = key.split(":", 1)[0]
    if head in _ID3:
        return _ID3[head]
    return _VORBIS.get(key.lower(), "")


def _tag_text(value: Any) -> str:
    """One display string from an ID3 frame, a Vorbis list or an MP4 list (track as 'n/total')."""
    if hasattr(value, "text"):  # ID3 frame
        value = value.text
    if isinstance(value, list | tuple):
        items = []
        for v in value:
            if (
                isinstance(v, tuple) and len(v) == 2 and all(isinstance(x, int) for x in v)
            ):  # MP4 trkn
                items.append(f"{v[0]}/{v[1]}" if v[1] else str(v[0]))
            else:
                items.append(str(v))
        value = "; ".join(i for i in items if i.strip())
    return str(value).strip() if value is not None else ""
