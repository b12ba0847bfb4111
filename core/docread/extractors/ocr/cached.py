"""One image's reading, once per picture: an image of one colour reads as no text and noise is
skipped, else the reading stored in the OCR cache for these pixels and settings, else
Tesseract's (then stored).

The cache is handed in (``Context.ocr_cache``: ``cache/ocr.py``'s store, opened by the pipeline
in each process; None when ``cache.enabled`` is off). Its key is a digest of the pixels Tesseract
would be given and the settings that change the reading, so the agent view, a loader and a split
read of one scanned page share it (a PDF page is still rendered: its pixels are the key, a render
is a tenth of a tesseract run). A reading is stored whole, as JSON text (never a pickle of OCR
classes: a changed class is a miss); the confidence floor is applied after, so it is not in the
key."""

from __future__ import annotations

import dataclasses
import hashlib
from collections.abc import Mapping
from typing import TYPE_CHECKING

from .engine import ENGINE, PSM, read_upright, version
from .images import noise_correlation, one_colour, plain, recorded_dpi
from .result import OcrLine, OcrResult

if TYPE_CHECKING:
    from PIL.Image import Image

    from ..base import Context


def reading(image: Image, ctx: Context, cmd: str, what: str) -> OcrResult:
    """No words in an image of one colour (what Tesseract would read there, without running
    it); noise skipped (with a note); else the cached reading of these pixels, or a new one
    (stored)."""
    image = plain(image)
    gray = image if image.mode == "L" else image.convert("L")  # the checks read gray, once
    if one_colour(gray):
        return OcrResult.of([])
    noise = noise_correlation(gray)
    if noise is not None:
        ctx.warn(
            f"{what}: skipped, the image looks like noise, not text (its pixels are "
            f"uncorrelated: r={noise:.2f}); OCR would take long and read nothing."
        )
        return OcrResult("", None, 0, skipped=True)
    store = ctx.ocr_cache
    key = _cache_key(image, ctx, cmd) if store is not None else ""
    stored = store.get(key) if store is not None else None
    if stored is not None:
        return _loads(stored)
    result = read_upright(image, gray, ctx, cmd, what)
    if store is not None:
        store.put(key, _dumps(result))
    return result


def ocr_key(pixels: bytes, facts: Mapping[str, object]) -> str:
    """The key of one reading: BLAKE2b of the image's pixels and the facts that change what
    Tesseract reads from them (size, mode, dpi, languages, page segmentation, its version)."""
    digest = hashlib.blake2b(pixels, digest_size=32)
    for name in sorted(facts):
        digest.update(f"\0{name}={facts[name]}".encode())
    return "ocr:" + digest.hexdigest()


def _cache_key(image: Image, ctx: Context, cmd: str) -> str:
    """The OCR cache key of this image: its pixels, and what changes Tesseract's reading of
    them. The confidence floor is not in it: the whole reading is stored, callers apply it."""
    facts = {
        "engine": ENGINE, "tesseract": version(cmd), "languages": ctx.settings.pdf.ocr_languages,
        "psm": PSM, "mode": image.mode, "size": image.size, "dpi": recorded_dpi(image),
    }  # fmt: skip
    return ocr_key(image.tobytes(), facts)


def _dumps(result: OcrResult) -> str:
    """A reading as JSON text for the OCR cache."""
    import json  # with the first OCR reading: not on the template's path

    lines = [[line.words, line.confidences, line.paragraph] for line in result.lines]
    return json.dumps({"rotation": result.rotation, "skew": result.skew, "lines": lines})


def _loads(text: str) -> OcrResult:
    """A reading back from the OCR cache."""
    import json

    data = json.loads(text)
    lines = [OcrLine(tuple(w), tuple(c), bool(p)) for w, c, p in data["lines"]]
    return dataclasses.replace(OcrResult.of(lines), rotation=data["rotation"], skew=data["skew"])
