"""Audio: stream facts and tags from generated WAV, MP3, FLAC and Ogg Vorbis files, cover art as a
Media part, non-audio files named like audio (corpus conformance: test_conformance.py)."""

from __future__ import annotations

import io
import struct
import wave
from pathlib import Path

import docread
import pytest
from docread.errors import ExtractionError
from docread.model import Document, Media
from PIL import Image


def _cover() -> bytes:
    buf = io.BytesIO()
    Image.new("RGB", (16, 16), (10, 200, 10)).save(buf, "PNG")
    return buf.getvalue()


def _wav(path: Path, seconds: float = 2.0, rate: int = 8000) -> Path:
    with wave.open(str(path), "wb") as w:
        w.setnchannels(1)
        w.setsampwidth(2)
        w.setframerate(rate)
        w.writeframes(b"\x00\x01" * int(seconds * rate))
    return path


def _mp3(path: Path, frames: int = 200) -> Path:
    """MPEG-1 Layer III frames (128 kbps, 44.1 kHz, stereo), silent payload, ID3v2 tags."""
    from mutagen.id3 import APIC, COMM, ID3, TALB, TCON, TDRC, TIT2, TPE1, TRCK

    frame = b"\xff\xfb\x90\x00" + b"\x00" * (417 - 4)
    path.write_bytes(frame * frames)
    tags = ID3()
    tags.add(TIT2(encoding=3, text="Night Train"))
    tags.add(TPE1(encoding=3, text="Zoë Ensemble"))
    tags.add(TALB(encoding=3, text="Rails"))
    tags.add(TRCK(encoding=3, text="3/12"))
    tags.add(TDRC(encoding=3, text="1999"))
    tags.add(TCON(encoding=3, text="Jazz"))
    tags.add(COMM(encoding=3, lang="eng", desc="", text="recorded live"))
    tags.add(APIC(encoding=3, mime="image/png", type=3, desc="front", data=_cover()))
    tags.save(path)
    return path


def _flac(path: Path, seconds: int = 3) -> Path:
    """A FLAC file with just its STREAMINFO block (mutagen needs no frames), then tags."""
    from mutagen.flac import FLAC, Picture

    rate, channels, bits = 44100, 2, 16
    packed = (rate << 44) | ((channels - 1) << 41) | ((bits - 1) << 36) | (rate * seconds)
    info = struct.pack(">HH", 4096, 4096) + b"\0" * 6 + packed.to_bytes(8, "big") + b"\0" * 16
    path.write_bytes(b"fLaC" + b"\x80" + len(info).to_bytes(3, "big") + info)
    audio = FLAC(path)
    audio.update(
        {
            "title": "Études",
            "artist": "Chopin",
            "album": "Op. 10",
            "tracknumber": "1",
            "date": "1833",
        }
    )
    pic = Picture()
    pic.type, pic.mime, pic.data = 3, "image/png", _cover()
    audio.add_picture(pic)
    audio.save()
    return path


def _ogg(path: Path, seconds: int = 4) -> Path:
    """An Ogg Vorbis stream of header packets only (identification, comment, setup), tagged."""
    from mutagen.ogg import OggPage
    from mutagen.oggvorbis import OggVorbis

    ident = b"\x01vorbis" + struct.pack("<IBIiii", 0, 2, 44100, 0, 112000, 0) + b"\xb8\x01"
    vendor = b"docread test"
    comment = (
        b"\x03vorbis" + struct.pack("<I", len(vendor)) + vendor + struct.pack("<I", 0) + b"\x01"
    )
    setup = b"\x05vorbis" + b"\x00" * 16
    pages = []
    for seq, packets, pos in (
        (0, [ident], 0),
        (1, [comment, setup], 0),
        (2, [b"\x00" * 8], 44100 * seconds),
    ):
        page = OggPage()
        page.serial, page.sequence, page.position, page.packets = 7, seq, pos, packets
        page.first, page.last = seq == 0, seq == 2
        pages.append(page)
    path.write_bytes(b"".join(p.write() for p in pages))
    audio = OggVorbis(path)
    audio.update({"title": "Ogg Song", "artist": "Vorbis Band", "genre": "Ambient"})
    audio.save()
    return path


def test_wav_stream_facts(reader: docread.Reader, tmp_path: Path) -> None:
    _wav(tmp_path / "tone.wav")
    result = reader.read("tone.wav")
    text = result.render()
    assert "**Audio:** tone.wav" in text and "**Duration:** 0:00:02 (2 s)" in text
    assert "**Sample rate:** 8,000 Hz" in text and "**Channels:** 1 (mono)" in text
    assert "**Bit depth:** 16-bit" in text and "**Tags:** none" in text
    meta = result.documents[0].metadata
    assert meta["duration_seconds"] == 2.0 and meta["duration"] == "0:00:02"
    assert meta["sample_rate"] == 8000 and meta["channels"] == 1 and meta["category"] == "audio"
    assert result.media == []


def test_mp3_tags_and_cover_art(reader: docread.Reader, tmp_path: Path) -> None:
    _mp3(tmp_path / "song.mp3")
    result = reader.read("song.mp3")
    text = result.render()
    assert "**Format:** MP3 (MPEG 1 layer 3)" in text and "**Bitrate:** 128 kbps" in text
    assert "**Duration:** 0:00:05" in text  # 200 frames x 1152 samples / 44.1 kHz = 5.2 s
    for line in ("Title: Night Train", "Artist: Zoë Ensemble", "Album: Rails", "Track: 3/12",
                 "Year: 1999", "Genre: Jazz", "Comment: recorded live"):  # fmt: skip
        assert f"  - {line}" in text
    assert "**Cover art:** image/png" in text
    meta = result.documents[0].metadata
    assert (
        meta["title"] == "Night Train"
        and meta["artist"] == "Zoë Ensemble"
        and meta["track"] == "3/12"
    )
    assert meta["cover_art"] == "image/png"
    (cover,) = result.media
    assert cover.mime_type == "image/png" and cover.data == _cover()
    assert cover.metadata["width"] == 16 and cover.metadata["cover_art"] is True


def test_flac_vorbis_comments_and_picture(tmp_path: Path) -> None:
    _flac(tmp_path / "etude.flac")
    units = list(docread.iter_units("etude.flac", workspace=tmp_path))
    assert [type(u) for u in units] == [Document, Media]
    doc = units[0]
    assert doc.metadata["title"] == "Études" and doc.metadata["year"] == "1833"
    assert doc.metadata["duration"] == "0:00:03" and doc.metadata["bits_per_sample"] == 16
    assert "**Format:** FLAC" in doc.text and "  - Album: Op. 10" in doc.text
    assert units[1].mime_type == "image/png"


def test_ogg_vorbis_tags(reader: docread.Reader, tmp_path: Path) -> None:
    _ogg(tmp_path / "song.ogg")
    result = reader.read("song.ogg")
    meta = result.documents[0].metadata
    assert meta["codec"] == "Vorbis (Ogg)" and meta["duration"] == "0:00:04"
    assert meta["sample_rate"] == 44100 and meta["channels"] == 2 and meta["bitrate"] == 112000
    assert meta["title"] == "Ogg Song" and meta["genre"] == "Ambient"
    assert "  - Artist: Vorbis Band" in result.render()


def test_aiff_with_id3_tags(reader: docread.Reader, tmp_path: Path) -> None:
    """AIFF written by hand (COMM with an 80-bit float rate, SSND), then tagged with mutagen."""
    from mutagen.aiff import AIFF
    from mutagen.id3 import TIT2

    frames = 22050
    comm = struct.pack(">hIh", 1, frames, 16) + bytes.fromhex("400dac44000000000000")  # 22,050 Hz
    ssnd = struct.pack(">II", 0, 0) + b"\0\0" * frames
    body = (
        b"AIFF"
        + b"COMM"
        + struct.pack(">I", len(comm))
        + comm
        + b"SSND"
        + struct.pack(">I", len(ssnd))
        + ssnd
    )
    (tmp_path / "take.aiff").write_bytes(b"FORM" + struct.pack(">I", len(body)) + body)
    audio = AIFF(tmp_path / "take.aiff")
    audio.add_tags()
    audio.tags.add(TIT2(encoding=3, text="Take One"))
    audio.save()
    meta = reader.read("take.aiff").documents[0].metadata
    assert (
        meta["format"] == "aiff" and meta["sample_rate"] == 22050 and meta["duration"] == "0:00:01"
    )
    assert meta["channels"] == 1 and meta["bits_per_sample"] == 16 and meta["title"] == "Take One"


def _adts(path: Path, frames: int = 200, frame_len: int = 372) -> Path:
    """Raw AAC-LC in ADTS frames (44.1 kHz, stereo, no CRC) of ``frame_len`` bytes each: 1,024
    samples a frame, so 372-byte frames are 128 kbps."""
    header = bytes(
        [0xFF, 0xF1, (1 << 6) | (4 << 2), (2 << 6) | (frame_len >> 11), (frame_len >> 3) & 0xFF,
         ((frame_len & 7) << 5) | 0x1F, 0xFC]
    )  # fmt: skip
    path.write_bytes(b"".join(header + bytes([i % 251]) * (frame_len - 7) for i in range(frames)))
    return path


def test_adts_aac_has_a_bitrate_with_or_without_its_extension(
    reader: docread.Reader, tmp_path: Path
) -> None:
    data = _adts(tmp_path / "song.aac").read_bytes()
    (tmp_path / "song").write_bytes(data)  # libmagic: audio/x-hx-aac-adts
    for name in ("song.aac", "song"):
        result = reader.read(name)
        meta = result.documents[0].metadata
        assert meta["format"] == "aac" and meta["codec"] == "AAC" and meta["channels"] == 2
        assert 120_000 < meta["bitrate"] < 135_000 and meta["sample_rate"] == 44_100
        assert "**Bitrate:** 12" in result.text and "kbps" in result.text


def test_file_named_like_audio_that_is_not_audio(reader: docread.Reader, tmp_path: Path) -> None:
    (tmp_path / "fake.mp3").write_bytes(bytes(range(1, 256)) * 40)
    with pytest.raises(ExtractionError, match="not an audio file"):
        reader.read("fake.mp3")
    (tmp_path / "broken.flac").write_bytes(b"fLaC" + b"\x00" * 10)
    with pytest.raises(ExtractionError):
        reader.read("broken.flac")


def test_large_cover_art_is_noted_not_attached(tmp_path: Path) -> None:
    _mp3(tmp_path / "song.mp3")
    result = docread.read("song.mp3", workspace=tmp_path, config={"image": {"max_image_bytes": 10}})
    assert result.media == [] and "**Cover art:** image/png" in result.render()
    assert any("not attached" in n for n in result.notes)


def test_cover_art_that_is_not_an_image_is_noted(reader: docread.Reader, tmp_path: Path) -> None:
    from mutagen.id3 import APIC, ID3

    path = _mp3(tmp_path / "odd.mp3")
    tags = ID3(path)
    tags.delall("APIC")
    tags.add(APIC(encoding=3, mime="image/jpg", type=3, desc="", data=b"not an image at all"))
    tags.save(path)
    result = reader.read("odd.mp3")
    assert result.media == [] and any("cover art 1 is not a PNG/JPEG" in n for n in result.notes)
    assert result.documents[0].metadata["title"] == "Night Train"


# -- header caps -----------------------------------------------------------------------------------
LONG = "word " * 1000  # 4,999 characters once stripped


def test_long_audio_tag_is_capped(reader: docread.Reader, tmp_path: Path) -> None:
    import wave

    from mutagen.id3 import TIT2
    from mutagen.wave import WAVE

    path = tmp_path / "a.wav"
    with wave.open(str(path), "wb") as w:
        w.setnchannels(1)
        w.setsampwidth(2)
        w.setframerate(8000)
        w.writeframes(b"\x00\x00" * 8000)
    audio = WAVE(path)
    audio.add_tags()
    audio.tags.add(TIT2(encoding=3, text=LONG))
    audio.save()
    text = reader.read("a.wav").text
    assert "word word" in text and "4,999 chars; output.max_metadata_value_len" in text
