"""One image's reading, once per picture: an image of one colour reads as no text and noise is
skipped, else the reading stored in the OCR cache for these pixels and settings, else
Tesseract's (then stored).

The cache is handed in (``Context.ocr_cache``: ``cache/ocr.py``'s store, opened by the pipeline
in each process; None when ``cache.enabled`` is off). A picture's key is a digest of the pixels
Tesseract would be given and the settings that change the reading. A PDF page's (a ``Scan``) is
the file's content stamp, the page and what its render depends on (dpi, text hidden, the content cap
that cuts a page first, the renderer's version) with the same settings, so the agent view, a loader and a split read of one
scanned page share it and a stored reading is found before the page is rendered (a render is a
tenth of a tesseract run, all of a cached read's time). A reading is stored whole, as JSON text
(never a pickle of OCR classes: a changed class is a miss); the confidence floor is applied
after, so it is not in the key."""

from __future__ import annotations

import dataclasses
import hashlib
import threading
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING

from .engine import ENGINE, PSM, read_upright, version
from .images import noise_correlation, one_colour, plain, recorded_dpi
from .result import OcrLine, OcrResult

if TYPE_CHECKING:
    from PIL.Image import Image

    from ...source import Source
    from ..base import Context

_RENDERS = [0]  # scans rendered in this process (``renders``)
_RENDERS_LOCK = threading.Lock()


@dataclass(frozen=True, slots=True)
class Scan:
    """A PDF page to OCR, not rendered yet: ``render`` makes its image, ``facts`` are what that
    image depends on besides the file (page, dpi, text hidden, content cap, renderer version)."""

    source: Source
    facts: Mapping[str, object]
    render: Callable[[], Image]

    def image(self) -> Image:
        """The page rendered (counted in ``renders``)."""
        with _RENDERS_LOCK:
            _RENDERS[0] += 1
        return self.render()


def renders() -> int:
    """How many PDF pages this process has rendered for OCR: a page whose reading is in the OCR
    cache is not rendered."""
    return _RENDERS[0]


def scan_key(scan: Scan, ctx: Context, cmd: str) -> str:
    """The OCR cache key of a scan, from the file's content stamp rather than its pixels; ""
    when there is no cache or the file has no stamp (the rendered pixels are the key then)."""
    store = ctx.ocr_cache
    stamp = store.stamp(scan.source) if store is not None else None
    if stamp is None:
        return ""
    return ocr_key(stamp.encode(), {**_ocr_facts(ctx, cmd), **scan.facts})


def stored(key: str, ctx: Context) -> OcrResult | None:
    """The reading stored under ``key``, None when there is none (or no key, or no cache)."""
    text = ctx.ocr_cache.get(key) if key and ctx.ocr_cache is not None else None
    return _loads(text) if text is not None else None


def reading(image: Image, ctx: Context, cmd: str, what: str, key: str = "") -> OcrResult:
    """No words in an image of one colour (what Tesseract would read there, without running
    it); noise skipped (with a note); else the cached reading of these pixels (or under
    ``key``, a scan's), or a new one (stored)."""
    image = plain(image)
    gray = image if image.mode == "L" else image.convert("L")  # the checks read gray, once
    if one_colour(gray):
        result = OcrResult.of([])
        if key and ctx.ocr_cache is not None:  # a blank page is then not rendered again
            ctx.ocr_cache.put(key, _dumps(result))
        return result
    noise = noise_correlation(gray)
    if noise is not None:
        ctx.warn(
            f"{what}: skipped, the image looks like noise, not text (its pixels are "
            f"uncorrelated: r={noise:.2f}); OCR would take long and read nothing."
        )
        return OcrResult("", None, 0, skipped=True)
    store = ctx.ocr_cache
    key = key or (_cache_key(image, ctx, cmd) if store is not None else "")
    known = stored(key, ctx)
    if known is not None:
        return known
    result = read_upright(image, gray, ctx, cmd, what)
    if store is not None:
        store.put(key, _dumps(result))
    return result


def ocr_key(data: bytes, facts: Mapping[str, object]) -> str:
    """The key of one reading: BLAKE2b of the image's pixels (or a scan's file stamp) and the
    facts that change what Tesseract reads from them (size, mode, dpi, languages, page
    segmentation, its version; a scan's page and render settings)."""
    digest = hashlib.blake2b(data, digest_size=32)
    for name in sorted(facts):
        digest.update(f"\0{name}={facts[name]}".encode())
    return "ocr:" + digest.hexdigest()


def _cache_key(image: Image, ctx: Context, cmd: str) -> str:
    """The OCR cache key of this image: its pixels, and what changes Tesseract's reading of
    them. The confidence floor is not in it: the whole reading is stored, callers apply it."""
    facts = {"mode": image.mode, "size": image.size, "dpi": recorded_dpi(image)}
    return ocr_key(image.tobytes(), {**_ocr_facts(ctx, cmd), **facts})


def _ocr_facts(ctx: Context, cmd: str) -> dict[str, object]:
    """What changes Tesseract's reading of given pixels: the rules here, its version, the
    languages, the page segmentation."""
    return {
        "engine": ENGINE, "tesseract": version(cmd), "languages": ctx.settings.pdf.ocr_languages,
        "psm": PSM,
    }  # fmt: skip


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
