"""Images: metadata block, EXIF/GPS, XMP, ICC, the Media part and its size cascade, bombs,
truncated and corrupt files, and OCR (corpus conformance: test_conformance.py)."""

from __future__ import annotations

import io
import os
import struct
import zlib
from pathlib import Path

import docread
import factories
import pytest
from docread.errors import ExtractionError, FileTooLargeError
from docread.model import Document, Media
from PIL import Image, ImageCms, ImageDraw

MB = 1024 * 1024


def _png_bomb(path: Path, width: int, height: int) -> Path:
    """A valid PNG header claiming huge dimensions, with a tiny data chunk (never decoded)."""

    def chunk(kind: bytes, data: bytes) -> bytes:
        return (
            struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))
        )

    ihdr = struct.pack(">IIBBBBB", width, height, 1, 0, 0, 0, 0)
    path.write_bytes(
        b"\x89PNG\r\n\x1a\n"
        + chunk(b"IHDR", ihdr)
        + chunk(b"IDAT", zlib.compress(b"\0" * 64))
        + chunk(b"IEND", b"")
    )
    return path


def test_jpeg_exif_and_gps_block_and_metadata(reader: docread.Reader, tmp_path: Path) -> None:
    factories.jpeg_with_exif(tmp_path / "photo.jpg")
    result = reader.read("photo.jpg")
    text = result.render()
    assert "**Image:** photo.jpg" in text
    assert "**Dimensions:** 320 x 200 pixels" in text
    assert "**Color:** RGB, 8-bit" in text
    assert "  - Camera: Canon EOS 5D Mark IV" in text
    assert "  - Exposure: 1/250s at ISO 200" in text
    assert "  - Date: 2024-01-15 14:30:22" in text
    assert "  - GPS: 33.865° S, 151.21° E (-33.865, 151.21)" in text
    assert "EF24-70mm f/2.8L f/2.8" in text
    meta = result.documents[0].metadata
    assert meta["width"] == 320 and meta["height"] == 200
    assert meta["camera_make"] == "Canon" and meta["camera_model"] == "Canon EOS 5D Mark IV"
    assert meta["gps_latitude"] == pytest.approx(-33.865) and meta[
        "gps_longitude"
    ] == pytest.approx(151.21)
    assert meta["iso"] == 200 and meta["date_taken"] == "2024-01-15T14:30:22"
    assert meta["software"] == "darktable 4.6" and meta["category"] == "image"
    # the original bytes go out untouched: they fit and JPEG is a format models take
    (media,) = result.media
    assert media.mime_type == "image/jpeg" and media.data == (tmp_path / "photo.jpg").read_bytes()
    assert media.metadata["converted"] is False


def test_loader_yields_metadata_document_then_media(reader: docread.Reader, tmp_path: Path) -> None:
    factories.jpeg_with_exif(tmp_path / "photo.jpg")
    units = list(reader.iter_units("photo.jpg"))
    assert [type(u) for u in units] == [Document, Media]
    assert "Canon EOS 5D Mark IV" in units[0].text and units[1].metadata["width"] == 320
    assert units[0].id and units[1].id and units[0].id != units[1].id
    assert len(list(reader.iter_documents("photo.jpg"))) == 1


def test_exif_orientation_is_applied_to_the_picture(reader: docread.Reader, tmp_path: Path) -> None:
    factories.jpeg_with_exif(tmp_path / "rotated.jpg", orientation=6)
    result = reader.read("rotated.jpg")
    assert "  - Orientation: rotated 90° CW" in result.render()
    assert result.documents[0].metadata["width"] == 320  # as stored
    (media,) = result.media
    with Image.open(io.BytesIO(media.data)) as out:
        assert out.size == (200, 320)  # portrait after applying orientation 6
        assert out.getexif().get(274) is None  # no rotation left for the model to apply
    assert media.metadata["converted"] is True and media.mime_type == "image/jpeg"


@pytest.mark.parametrize(
    "name, fmt", [("shot.png", "PNG"), ("shot.webp", "WEBP"), ("shot.tif", "TIFF")]
)
def test_exif_is_read_from_png_webp_and_tiff(
    reader: docread.Reader, tmp_path: Path, name: str, fmt: str
) -> None:
    Image.new("RGB", (64, 48), (10, 120, 200)).save(tmp_path / name, fmt, exif=factories.camera_exif().tobytes())
    result = reader.read(name)
    text = result.render()
    assert "  - Camera: Canon EOS 5D Mark IV" in text
    assert "  - Exposure: 1/250s at ISO 200" in text
    assert "  - GPS: 33.865° S, 151.21° E (-33.865, 151.21)" in text
    meta = result.documents[0].metadata
    assert meta["f_number"] == pytest.approx(2.8) and meta["lens"] == "EF24-70mm f/2.8L"
    assert meta["date_taken"] == "2024-01-15T14:30:22" and meta["width"] == 64


def test_exif_is_read_by_exifread_once_per_read(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import exifread

    real, calls = exifread.process_file, []

    def spy(stream: io.BufferedIOBase, **kwargs: object) -> dict[str, object]:
        calls.append(kwargs)
        return real(stream, **kwargs)

    monkeypatch.setattr(exifread, "process_file", spy)
    factories.jpeg_with_exif(tmp_path / "photo.jpg")
    config = {"isolation": {"enabled": False}, "cache": {"enabled": False}}
    result = docread.read("photo.jpg", workspace=tmp_path, config=config)
    assert calls == [{"details": False, "extract_thumbnail": False}]
    with open(tmp_path / "photo.jpg", "rb") as f:
        direct = real(f, details=False)
    meta = result.documents[0].metadata  # Exif sub-IFD values, as exifread reads them
    assert meta["lens"] == direct["EXIF LensModel"].values == "EF24-70mm f/2.8L"
    assert meta["iso"] == direct["EXIF ISOSpeedRatings"].values[0] == 200
    assert meta["exposure_time"] == pytest.approx(0.004)


def test_image_without_exif_logs_nothing(tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    Image.new("RGB", (8, 8)).save(tmp_path / "plain.png")
    config = {"isolation": {"enabled": False}, "cache": {"enabled": False}}
    with caplog.at_level("DEBUG", logger="exifread"):
        text = docread.read("plain.png", workspace=tmp_path, config=config).render()
    assert "EXIF Metadata" not in text and "**Dimensions:** 8 x 8 pixels" in text
    assert not [r for r in caplog.records if r.name.startswith("exifread")]


def test_large_png_is_compressed_under_budget(reader: docread.Reader, tmp_path: Path) -> None:
    side = 3200
    noise = Image.frombytes("RGB", (side, side), os.urandom(side * side * 3))
    noise.save(tmp_path / "big.png", compress_level=1)
    assert (tmp_path / "big.png").stat().st_size > 29 * MB
    result = reader.read("big.png")
    (media,) = result.media
    assert media.mime_type == "image/jpeg" and len(media.data) <= 5 * MB
    assert max(media.metadata["media_width"], media.metadata["media_height"]) <= 1600
    assert result.documents[0].metadata["width"] == side
    assert "(converted for vision models)" in result.render()


def test_nothing_fits_tiny_budget_is_a_clear_error(tmp_path: Path) -> None:
    Image.frombytes("RGB", (400, 400), os.urandom(400 * 400 * 3)).save(tmp_path / "noise.bmp")
    with pytest.raises(FileTooLargeError, match="image.max_image_bytes=500 bytes"):
        docread.read("noise.bmp", workspace=tmp_path, config={"image": {"max_image_bytes": 500}})


def test_decompression_bomb_is_refused(reader: docread.Reader, tmp_path: Path) -> None:
    _png_bomb(tmp_path / "bomb.png", 40000, 40000)
    with pytest.raises(FileTooLargeError, match="decompression bomb"):
        reader.read("bomb.png")
    _png_bomb(
        tmp_path / "wide.png", 10000, 10000
    )  # 100 MP: over the 89 MP default, under Pillow's 2x
    with pytest.raises(FileTooLargeError, match="image.max_pixels=89,478,485"):
        reader.read("wide.png")


def test_max_pixels_setting_is_honoured(tmp_path: Path) -> None:
    Image.new("RGB", (100, 100)).save(tmp_path / "small.png")
    with pytest.raises(FileTooLargeError, match="10,000 pixels"):
        docread.read("small.png", workspace=tmp_path, config={"image": {"max_pixels": 9999}})


def test_truncated_jpeg_is_read_tolerantly_with_a_note(tmp_path: Path) -> None:
    buf = io.BytesIO()
    Image.frombytes("RGB", (300, 300), os.urandom(300 * 300 * 3)).save(buf, "JPEG", quality=95)
    data = buf.getvalue()
    (tmp_path / "cut.jpg").write_bytes(data[: len(data) * 2 // 3])
    budget = len(data) // 3  # force a decode (the original bytes would not fit)
    result = docread.read(
        "cut.jpg", workspace=tmp_path, config={"image": {"max_image_bytes": budget}}
    )
    assert any("truncated or damaged" in n for n in result.notes)
    assert result.media[0].mime_type == "image/jpeg" and len(result.media[0].data) <= budget


def test_corrupt_image_is_a_typed_error(reader: docread.Reader, tmp_path: Path) -> None:
    (tmp_path / "broken.png").write_bytes(b"\x89PNG\r\n\x1a\n" + b"garbage, not chunks" * 10)
    with pytest.raises(ExtractionError, match="not a readable PNG image"):
        reader.read("broken.png")


def test_animated_gif_counts_frames_and_keeps_original(
    reader: docread.Reader, tmp_path: Path
) -> None:
    frames = [Image.new("RGB", (60, 40), (i * 100, 0, 0)) for i in range(3)]
    frames[0].save(
        tmp_path / "anim.gif", save_all=True, append_images=frames[1:], duration=100, loop=0
    )
    result = reader.read("anim.gif")
    assert "**Frames:** 3" in result.render()
    assert result.documents[0].metadata["frame_count"] == 3
    assert result.media[0].mime_type == "image/gif"


def test_multipage_tiff_is_converted_to_png(reader: docread.Reader, tmp_path: Path) -> None:
    pages = [Image.new("RGB", (120, 80), (0, 128, 0)), Image.new("RGB", (120, 80), (0, 0, 128))]
    pages[0].save(tmp_path / "scan.tiff", save_all=True, append_images=pages[1:])
    result = reader.read("scan.tiff")
    meta = result.documents[0].metadata
    assert meta["image_format"] == "TIFF" and meta["frame_count"] == 2
    (media,) = result.media
    assert media.mime_type == "image/png" and media.metadata["converted"] is True
    with Image.open(io.BytesIO(media.data)) as out:
        assert out.size == (120, 80) and out.getpixel((5, 5)) == (0, 128, 0)
    assert any("first frame" in n for n in result.notes)


def test_sixteen_bit_tiff_is_stretched_not_clipped(reader: docread.Reader, tmp_path: Path) -> None:
    ramp = Image.linear_gradient("L").resize((64, 64)).convert("I").point(lambda v: v * 257)
    ramp.convert("I;16").save(tmp_path / "depth.tif")
    result = reader.read("depth.tif")
    assert result.documents[0].metadata["bit_depth"] == 16
    with Image.open(io.BytesIO(result.media[0].data)) as out:
        assert out.mode == "L" and out.getextrema() == (0, 255)
        assert 100 < out.getpixel((32, 32)) < 160  # mid-gray stays mid-gray


def test_icc_profile_description(reader: docread.Reader, tmp_path: Path) -> None:
    icc = ImageCms.ImageCmsProfile(ImageCms.createProfile("sRGB")).tobytes()
    Image.new("RGB", (20, 20)).save(tmp_path / "icc.png", icc_profile=icc)
    result = reader.read("icc.png")
    desc = result.documents[0].metadata["icc_profile"]
    assert "sRGB" in desc and f"**ICC Profile:** {desc}" in result.render()


def test_rgba_ico_becomes_png_with_alpha(reader: docread.Reader, tmp_path: Path) -> None:
    Image.new("RGBA", (32, 32), (255, 0, 0, 128)).save(tmp_path / "fav.ico")
    result = reader.read("fav.ico")
    assert result.documents[0].metadata["color_mode"] == "RGBA"
    with Image.open(io.BytesIO(result.media[0].data)) as out:
        assert out.format == "PNG" and out.mode == "RGBA"


def test_psd_basic_info_and_png_part(reader: docread.Reader, tmp_path: Path) -> None:
    """A minimal flattened PSD (header, empty sections, raw RGB planes) as Pillow reads it."""
    w, h = 4, 3
    header = b"8BPS" + struct.pack(">H", 1) + b"\0" * 6 + struct.pack(">HIIHH", 3, h, w, 8, 3)
    planes = bytes([200]) * (w * h) + bytes([10]) * (w * h) + bytes([30]) * (w * h)
    (tmp_path / "art.psd").write_bytes(header + struct.pack(">III", 0, 0, 0) + b"\0\0" + planes)
    result = reader.read("art.psd")
    assert (
        "**Format:** PSD" in result.render() and "**Dimensions:** 4 x 3 pixels" in result.render()
    )
    (media,) = result.media
    with Image.open(io.BytesIO(media.data)) as out:
        assert media.mime_type == "image/png" and out.getpixel((0, 0)) == (200, 10, 30)


def test_ocr_adds_the_text_of_the_image(reader: docread.Reader, tmp_path: Path) -> None:
    img = Image.new("L", (900, 200), 255)
    from PIL import ImageFont

    ImageDraw.Draw(img).text(
        (30, 60), "Invoice 4711 paid", fill=0, font=ImageFont.load_default(size=64)
    )
    img.save(tmp_path / "scan.png")
    result = reader.read("scan.png", ocr=True)
    text = result.render()
    assert "**OCR Text:**" in text and "Invoice 4711 paid" in text
    assert result.documents[0].metadata["ocr"] is True
    assert "OCR Text" not in reader.read("scan.png").render()


def test_ocr_limit_and_failure_keep_metadata_and_picture(tmp_path: Path) -> None:
    mark = Image.new("L", (300, 100), 255)  # a dark bar: ink to read (a blank is no OCR run)
    mark.paste(0, (20, 40, 280, 60))
    mark.save(tmp_path / "bar.png")
    limited = docread.read(
        "bar.png", workspace=tmp_path, ocr=True, config={"pdf": {"max_pages_ocr": 0}}
    )
    assert (
        any("pdf.max_pages_ocr=0" in n for n in limited.notes)
        and "ocr" not in limited.documents[0].metadata
    )
    assert limited.media and "**Dimensions:** 300 x 100 pixels" in limited.render()
    config = {"timeouts": {"ocr_per_page": 0.001}}
    failed = docread.read("bar.png", workspace=tmp_path, ocr=True, config=config)
    assert any("OCR failed" in n for n in failed.notes) and failed.media
    assert "**OCR Text:** failed" in failed.render()


# -- a truncated JPEG ------------------------------------------------------------------------------
@pytest.mark.parametrize("fraction", [0.7, 0.5])
def test_truncated_jpeg_is_decoded_as_far_as_it_goes(
    reader: docread.Reader, tmp_path: Path, fraction: float
) -> None:
    whole = factories.encode(factories.photo(), "JPEG", quality=90)
    (tmp_path / "cut.jpg").write_bytes(whole[: int(len(whole) * fraction)])
    result = reader.read("cut.jpg")
    (media,) = result.media
    assert media.metadata["converted"] is True
    assert media.data.endswith(b"\xff\xd9")  # a whole JPEG, not the broken original bytes
    with Image.open(io.BytesIO(media.data)) as img:
        img.load()
        assert img.size == (720, 480)
    assert any("truncated" in n for n in result.notes)


def test_whole_jpeg_is_sent_as_is(reader: docread.Reader, tmp_path: Path) -> None:
    whole = factories.encode(factories.photo(), "JPEG", quality=90)
    (tmp_path / "whole.jpg").write_bytes(whole)
    (media,) = reader.read("whole.jpg").media
    assert media.data == whole and not media.metadata["converted"]


# -- header caps -----------------------------------------------------------------------------------
LONG = "word " * 1000  # 4,999 characters once stripped


def test_long_exif_description_is_capped(reader: docread.Reader, tmp_path: Path) -> None:
    exif = Image.Exif()
    exif[0x010E] = LONG  # ImageDescription
    (tmp_path / "p.jpg").write_bytes(factories.encode(factories.photo(), "JPEG", exif=exif))
    text = reader.read("p.jpg").text
    limit = docread.Settings().output.max_metadata_value_len
    assert "word word" in text and len(text) < 2 * limit + 1000
    assert "4,999 chars; output.max_metadata_value_len" in text


# -- a float TIFF ----------------------------------------------------------------------------------
def test_float_tiff_is_stretched_to_eight_bit_gray(tmp_path: Path) -> None:
    # the "F" branch of _eight_bit: one band, so getextrema() is (min, max), not per-band pairs
    ramp = Image.linear_gradient("L").resize((64, 64)).convert("F").point(lambda v: v * 0.5 - 20)
    ramp.save(tmp_path / "float.tif")
    result = docread.read("float.tif", workspace=tmp_path)
    with Image.open(io.BytesIO(result.media[0].data)) as out:
        assert out.mode == "L" and out.getextrema() == (0, 255)
        assert 100 < out.getpixel((32, 32)) < 160
