"""Images: the design's metadata block (dimensions, color, EXIF/GPS, XMP, ICC) read without
decoding pixels, the picture as a Media part a vision model accepts (the original bytes when they
fit, else a resize/re-encode cascade), and OCR through the shared engine (on request, and by
default in loader mode, kept only above a confidence floor)."""

from __future__ import annotations

import io
import threading
import warnings
from collections.abc import Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any, ClassVar, cast

from ...errors import ExtractionError, ExtractionTimeoutError, FileTooLargeError
from ...model import Document, Media, Unit
from ...sanitize import shown_name
from ...source import Source
from ..base import Context, Extractor
from ..markdown import human_size
from .image_meta import (
    ORIENTATION,
    basic_facts,
    exif_facts,
    fact_metadata,
    icc_fact,
    render_block,
    xmp_facts,
)

if TYPE_CHECKING:
    from PIL import Image

MODEL_MIME = {"PNG": "image/png", "JPEG": "image/jpeg", "GIF": "image/gif", "WEBP": "image/webp"}
CASCADE = ((1600, 80), (1200, 55), (800, 40))  # (longest side in px, JPEG quality)
_truncated_lock = threading.Lock()


class ImageExtractor(Extractor):
    """PNG, JPEG, GIF, BMP, TIFF, WebP, ICO and PSD (basic info): one Document and one Media."""

    name: ClassVar[str] = "image"
    options: ClassVar[frozenset[str]] = frozenset({"ocr"})
    version: ClassVar[int] = 2
    cacheable: ClassVar[bool] = True  # loader mode OCRs pictures (1-6 s each): never twice
    isolated: ClassVar[bool] = True

    def extract(self, source: Source, ctx: Context) -> Iterator[Unit]:
        with open_image(source, ctx) as img:
            facts = basic_facts(img, source.size) + exif_facts(source, str(img.format))
            facts += xmp_facts(img) + icc_fact(img)
            media = media_part(img, source, ctx)
            extra = [_media_line(media)]
            meta: dict[str, Any] = fact_metadata(facts)
            if _wants_ocr(ctx):
                extra.append(_ocr_section(source, ctx, meta))
            text = render_block(
                shown_name(ctx.info.name),
                facts,
                [e for e in extra if e],
                ctx.settings.output,
            )
        yield Document(text, meta)
        yield media


@contextmanager
def open_image(source: Source, ctx: Context) -> Iterator[Image.Image]:
    """Open lazily (header only) and refuse decompression bombs over ``image.max_pixels``."""
    from PIL import Image, UnidentifiedImageError

    where, limit = ctx.info.source, ctx.settings.image.max_pixels
    with source.open() as stream:
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore", Image.DecompressionBombWarning)  # own limit below
                img = Image.open(stream)
        except Image.DecompressionBombError as exc:
            raise _bomb(where, limit, str(exc)) from exc
        except (UnidentifiedImageError, OSError, SyntaxError, ValueError) as exc:
            raise ExtractionError(
                f"{where}: not a readable {ctx.info.format.upper()} image ({exc}); "
                f"the file is damaged or not an image despite its name",
                path=where,
            ) from exc
        with img:
            width, height = img.size
            if width * height > limit:
                raise _bomb(where, limit, f"{width} x {height} = {width * height:,} pixels")
            yield img


def media_part(img: Image.Image, source: Source, ctx: Context) -> Media:
    """The picture for a vision model, within ``image.max_image_bytes``.

    The original bytes when the format is one models take, they fit and need no EXIF rotation
    (no decode at all);
    otherwise PNG at full size for small non-model formats, then JPEG at 1600/80, 1200/55 and
    800/40 with the EXIF orientation applied, until it fits; else FileTooLargeError.
    """
    limit = ctx.settings.image.max_image_bytes
    mime = MODEL_MIME.get(str(img.format))
    base_meta = {"width": img.width, "height": img.height}
    upright = img.getexif().get(ORIENTATION, 1) in (0, 1)  # models may ignore EXIF rotation
    if mime and source.size <= limit and upright and _ends_whole(source, str(img.format)):
        return Media(mime, source.read_bytes(), {**base_meta, "converted": False})
    if getattr(img, "n_frames", 1) > 1:
        ctx.warn(
            f"{ctx.info.source}: animated or multi-page image; the first frame is sent as the image."
        )
    full = max(img.size)
    base = _load_oriented(img, ctx, max_side=CASCADE[0][0])
    tried = []
    if not mime and full <= CASCADE[0][0]:  # small non-model format: lossless PNG first
        data = _encode(base, "PNG", 0)
        if len(data) <= limit:
            return _converted("image/png", data, base, base_meta)
        tried.append(f"PNG {base.width}x{base.height}: {human_size(len(data))}")
    for side, quality in CASCADE:
        ctx.check_deadline("image resize")
        small = base if max(base.size) <= side else _shrink(base, side)
        data = _encode(small, "JPEG", quality)
        if len(data) <= limit:
            return _converted("image/jpeg", data, small, base_meta)
        tried.append(f"JPEG {side}px/q{quality}: {human_size(len(data))}")
    raise FileTooLargeError(
        f"{ctx.info.source}: the image does not fit image.max_image_bytes={limit:,} bytes even "
        f"after resizing ({'; '.join(tried)}); raise image.max_image_bytes in tools-security.yaml",
        path=ctx.info.source,
    )


# the marker a whole file ends with (a truncated one is decoded as far as it goes instead)
_END = {"JPEG": b"\xff\xd9", "PNG": b"IEND\xaeB`\x82"}


def _ends_whole(source: Source, fmt: str) -> bool:
    """Whether the file ends with its format's end marker (trailing padding allowed); a file
    cut short must not reach a model as its broken original bytes."""
    marker = _END.get(fmt)
    if marker is None:
        return True
    with source.open() as f:
        f.seek(max(0, source.size - 4096))
        tail = f.read()
    return tail.rstrip(b"\x00\r\n ").endswith(marker)


def _load_oriented(img: Image.Image, ctx: Context, *, max_side: int | None = None) -> Image.Image:
    """Decode the first frame (at most ``max_side`` px: JPEGs reduce on decode), upright per
    EXIF; a truncated file is decoded as far as it goes and said in a note."""
    from PIL import Image, ImageFile, ImageOps

    def decode(image: Image.Image) -> Image.Image:
        if max_side and image.format == "JPEG":
            image.draft("RGB", _fit(image.size, max_side))  # a 50 MP JPEG decodes at 1/4 scale
        image.load()
        return image

    try:
        img = decode(img)
    except OSError as first:
        fp = getattr(img, "fp", None)
        if fp is None:
            raise ExtractionError(
                f"{ctx.info.source}: the image data is corrupt ({first})", path=ctx.info.source
            ) from first
        with _truncated_lock:
            old, ImageFile.LOAD_TRUNCATED_IMAGES = ImageFile.LOAD_TRUNCATED_IMAGES, True
            try:
                fp.seek(0)
                img = decode(Image.open(fp))  # a failed load leaves the old object unusable
            except OSError as exc:
                raise ExtractionError(
                    f"{ctx.info.source}: the image data is corrupt and could not be decoded ({exc})",
                    path=ctx.info.source,
                ) from first
            finally:
                ImageFile.LOAD_TRUNCATED_IMAGES = old
        ctx.warn(
            f"{ctx.info.source}: the image is truncated or damaged ({first}); the readable part is shown."
        )
    img = _eight_bit(img)
    # a copy either way: the caller's (file-backed) image is never transposed in place
    img = _shrink(img, max_side) if max_side and max(img.size) > max_side else img.copy()
    ImageOps.exif_transpose(img, in_place=True)
    return img


def _eight_bit(img: Image.Image) -> Image.Image:
    """16-bit and float images (scientific TIFFs) stretched to 8-bit gray, not clipped to white."""
    if img.mode not in ("I;16", "I;16B", "I;16L", "I", "F"):
        return img
    wide = img if img.mode in ("I", "F") else img.convert("I")
    lo, hi = cast(tuple[float, float], wide.getextrema())  # I and F are one band: (min, max)
    scale = 255 / (hi - lo) if hi > lo else 1.0
    return wide.point(lambda v: (v - lo) * scale).convert("L")


def _shrink(img: Image.Image, side: int) -> Image.Image:
    """A Lanczos-resampled copy whose longest side is ``side``."""
    from PIL import Image

    return img.resize(_fit(img.size, side), Image.Resampling.LANCZOS, reducing_gap=2.0)


def _fit(size: tuple[int, int], side: int) -> tuple[int, int]:
    """``size`` scaled so its longest side is ``side`` (aspect kept, at least 1 px)."""
    scale = side / max(size)
    return max(1, round(size[0] * scale)), max(1, round(size[1] * scale))


def _encode(img: Image.Image, fmt: str, quality: int) -> bytes:
    """PNG (optimised for size) or JPEG (alpha flattened onto white, RGB or grayscale)."""
    from PIL import Image

    out = io.BytesIO()
    if fmt == "PNG":
        if img.mode not in ("1", "L", "LA", "P", "RGB", "RGBA"):
            img = img.convert("RGBA" if "A" in img.getbands() else "RGB")
        img.save(out, "PNG", optimize=False, compress_level=6)
        return out.getvalue()
    if "A" in img.getbands() or img.mode == "P":
        rgba = img.convert("RGBA")
        flat = Image.new("RGB", rgba.size, (255, 255, 255))
        flat.paste(rgba, mask=rgba.getchannel("A"))
        img = flat
    elif img.mode not in ("L", "RGB"):
        img = img.convert("RGB")
    img.save(out, "JPEG", quality=quality, optimize=True)
    return out.getvalue()


def _converted(mime: str, data: bytes, img: Image.Image, base_meta: dict[str, Any]) -> Media:
    return Media(
        mime,
        data,
        {**base_meta, "converted": True, "media_width": img.width, "media_height": img.height},
    )


def _media_line(media: Media) -> str:
    meta = media.metadata
    if meta.get("converted"):
        return (
            f"**Image part:** {media.mime_type}, {meta['media_width']} x {meta['media_height']}, "
            f"{human_size(len(media.data))} (converted for vision models)"
        )
    return f"**Image part:** {media.mime_type}, original file ({human_size(len(media.data))})"


def _wants_ocr(ctx: Context) -> bool:
    """OCR as asked (``ocr=True``/``False``); by default (``ocr=None``) in loader mode when
    Tesseract is installed, so a scanned receipt is findable in a RAG index, and never in the
    agent view, which hands the picture to a vision model."""
    from ..ocr import available

    if ctx.options.ocr is not None:
        return ctx.options.ocr
    return ctx.loader and available(ctx)


def _ocr_section(source: Source, ctx: Context, meta: dict[str, Any]) -> str:
    """Tesseract text for the image (at full resolution, scaled up to read like a 300 dpi scan)
    through the shared OCR engine, counted
    against ``pdf.max_pages_ocr`` like PDF pages (archives of scans share one budget); lines
    under ``pdf.ocr_min_confidence`` are dropped, so a photo indexes no OCR noise. "" when the
    automatic OCR (``ocr=None``) finds nothing worth saying."""
    from ..ocr import at_reading_size, kept_reading, ocr_image

    where, cap = ctx.info.source, ctx.settings.pdf.max_pages_ocr
    asked = ctx.options.ocr is True
    if not ctx.loader and ctx.budget.ocr_pages >= cap:
        ctx.warn(
            f"{where}: OCR limit reached (pdf.max_pages_ocr={cap} per read); read this image alone."
        )
        return "**OCR Text:** skipped (OCR limit reached)"
    ctx.budget.ocr_pages += 1
    try:
        with open_image(source, ctx) as img:
            picture = at_reading_size(_load_oriented(img, ctx))
            result = ocr_image(picture, ctx, what=f"OCR of {where}")
    except (ExtractionError, ExtractionTimeoutError) as exc:  # metadata and picture still count
        ctx.warn(f"{where}: OCR failed ({exc.message}); the metadata and the image are returned.")
        return "**OCR Text:** failed"
    floor = ctx.settings.pdf.ocr_min_confidence
    kept = kept_reading(result, floor, meta)
    if result.lines and not kept.lines:
        meta["ocr"] = False
        ctx.warn(
            f"OCR of {where} discarded: {result.under(floor)} (pdf.ocr_min_confidence): "
            f"a photo or too poor a scan; nothing indexed."
        )
        return f"**OCR Text:** none above confidence {floor:g}" if asked else ""
    if not kept.lines:
        if asked:
            meta["ocr"] = False
            ctx.warn(f"{where}: OCR found no text in the image.")
        return "**OCR Text:** (no text found)" if asked else ""
    return "**OCR Text:**\n\n" + kept.text


def _bomb(where: str, limit: int, detail: str) -> FileTooLargeError:
    return FileTooLargeError(
        f"{where}: refused as a decompression bomb ({detail}) over image.max_pixels={limit:,}; "
        f"raise image.max_pixels in tools-security.yaml only for images you trust",
        path=where,
    )
