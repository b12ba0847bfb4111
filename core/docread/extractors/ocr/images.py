"""An image made ready for Tesseract: scaled to reading size, checked for noise (not read) and
for a small skew (also read straightened), flattened to gray or RGB (gray when no pixel has a
colour), and encoded as PGM/PPM for tesseract's stdin (no temp files, no PNG encoding)."""

from __future__ import annotations

import io
from typing import TYPE_CHECKING, cast

if TYPE_CHECKING:
    from PIL.Image import Image

_READ_DPI = 300  # small pictures are scaled up to read like a scan at this resolution...
_READ_SIDE = 2000  # ...or, without a recorded dpi, to this longest side in px (and from it up)
_MAX_UPSCALE = 4.2  # ...by at most this (72 dpi to 300)...
_MAX_SIDE = 3508  # ...to at most this longest side (A4 at 300 dpi)
_MAX_SKEW = 5  # degrees either way a page is checked for skew
_SKEW_WIDTH = 600  # px: the skew search runs on a copy this wide
_SKEW_GAIN = 1.15  # a skewed angle must line the rows up this much better than 0
# A page of noise (random pixels) costs tesseract many seconds and reads nothing. Text, photos,
# halftones and scans all have neighbouring pixels that are alike; noise has them unrelated.
_NOISE_CORRELATION = 0.15  # horizontal and vertical correlation under this, at some lag
_NOISE_LAGS = (1, 2, 4)  # pixels apart: noise scaled up (a small scan rendered at 300 dpi) is
# correlated with its next pixel but not 4 away; text stays above 0.3 at every lag up to 4
_NOISE_MIN_STD = 30.0  # and real contrast (a blank page with faint sensor noise is cheap anyway)
# An RGB image whose channels differ nowhere by more than this is gray (a scan or a PNG saved as
# RGB; JPEG's chroma noise stays under it): Tesseract reads it as gray, the same words, in
# 0.5-0.8x the time (it thresholds each channel of a colour image). One coloured letter exceeds it.
_GRAY_SPREAD = 8


def at_reading_size(image: Image) -> Image:
    """A small picture scaled so its text is about as large as on a 300 dpi scan (Tesseract's
    best): by 300 / its dpi when it records one (a 72 dpi page image grows 4x), else to a 2000 px
    longest side (a screenshot or small receipt grows 2x); at most 4.2x and 3508 px (A4 at 300
    dpi). Pictures 2000 px or more across (camera photos, real scans) are read as they are."""
    from PIL import Image as PILImage

    longest, dpi = max(image.size), recorded_dpi(image)
    if longest >= _READ_SIDE:
        return image
    want = _READ_DPI / dpi if dpi else _READ_SIDE / longest
    scale = min(want, _MAX_UPSCALE, _MAX_SIDE / longest)
    if scale <= 1.05:
        return image
    size = (round(image.width * scale), round(image.height * scale))
    grown = image.resize(size, PILImage.Resampling.LANCZOS)
    if dpi:
        grown.info["dpi"] = (dpi * scale, dpi * scale)
    return grown


def skew_angle(image: Image) -> float:
    """The turn (degrees counter-clockwise, within +-5) that straightens the image's text rows,
    0.0 when none clearly does: the angle whose row-ink profile is sharpest, on a copy at most
    600 px wide. Each angle's profile is its ink pixels' turned rows counted (``bincount``), not
    the image turned: 21 angles in 0.01-0.03 s a page, where turning it took 0.1-0.25 s."""
    import numpy as np
    from PIL import Image as PILImage

    gray = image.convert("L") if image.mode != "L" else image
    scale = min(1.0, _SKEW_WIDTH / max(gray.width, 1))
    small = gray.resize((max(int(gray.width * scale), 1), max(int(gray.height * scale), 1)),
                        PILImage.Resampling.BOX)  # fmt: skip
    height = small.height
    ys, xs = np.nonzero(np.asarray(small) < 128)  # the ink, about the copy's centre
    down, across = ys + (0.5 - height / 2), xs + (0.5 - small.width / 2)

    def sharpness(angle: float) -> float:
        turn = np.radians(angle)  # a row after turning by ``angle`` (as ``Image.rotate``)
        rows = np.floor(down * np.cos(turn) - across * np.sin(turn) + height / 2).astype(np.intp)
        profile = np.bincount(rows[(rows >= 0) & (rows < height)], minlength=height)
        return float(np.square(np.diff(profile.astype(np.float64))).sum())

    angles = [a / 2 for a in range(-2 * _MAX_SKEW, 2 * _MAX_SKEW + 1)]
    scores = {a: sharpness(a) for a in angles}
    best = max(angles, key=lambda a: (scores[a], -abs(a)))
    return best if abs(best) >= 1 and scores[best] > _SKEW_GAIN * scores[0.0] else 0.0


def straighten(image: Image, angle: float) -> Image:
    """The image turned by ``angle`` degrees, the corners it uncovers filled white."""
    from PIL import Image as PILImage

    white = 255 if image.mode == "L" else (255, 255, 255)
    return image.rotate(angle, PILImage.Resampling.BICUBIC, expand=True, fillcolor=white)


def noise_correlation(image: Image) -> float | None:
    """The pixel correlation of an image that is clearly noise, else None. Measured along every
    4th row and column at full resolution (scaling down would average noise into gray)."""
    import numpy as np

    gray = np.asarray(image.convert("L") if image.mode != "L" else image)
    if gray.shape[0] < 16 or gray.shape[1] < 16:
        return None
    rows, cols = gray[::4].astype(np.float32), gray[:, ::4].astype(np.float32)
    std = float(rows.std())
    if std < _NOISE_MIN_STD:
        return None
    var = 2 * std * std
    lowest = 1.0
    for k in _NOISE_LAGS:
        across = 1 - float(np.square(rows[:, k:] - rows[:, :-k]).mean()) / var
        down = 1 - float(np.square(cols[k:] - cols[:-k]).mean()) / var
        lowest = min(lowest, max(across, down))
    return lowest if lowest < _NOISE_CORRELATION else None


def one_colour(gray: Image) -> bool:
    """Whether a gray image's pixels all lie within ``_GRAY_SPREAD`` of each other: no ink to
    read (a blank page, a logo's flat fill). Tesseract would find no word in two to three runs
    (the reading, OSD, a turned reading: ~1.5 s of CPU a picture)."""
    low, high = cast("tuple[int, int]", gray.getextrema())  # one band: its (min, max)
    return high - low <= _GRAY_SPREAD


def plain(image: Image) -> Image:
    """Grayscale or RGB without alpha (transparent parts become white), as PGM/PPM can carry;
    gray when no pixel has a colour (``colourless``)."""
    from PIL import Image as PILImage

    if image.mode == "L":
        return image
    if image.mode != "RGB" and (
        "A" in image.getbands() or image.mode == "P" and "transparency" in image.info
    ):
        rgba = image.convert("RGBA")
        flat = PILImage.new("RGB", rgba.size, "white")
        flat.paste(rgba, mask=rgba.getchannel("A"))
        image = flat
    elif image.mode != "RGB":
        image = image.convert("RGB" if len(image.getbands()) >= 3 else "L")
    return image.convert("L") if image.mode == "RGB" and colourless(image) else image


def colourless(image: Image) -> bool:
    """Whether an RGB image's channels are alike at every pixel (within ``_GRAY_SPREAD``)."""
    from PIL import ImageChops

    red, green, blue = image.split()
    return all(
        ImageChops.difference(one, other).getextrema()[1] <= _GRAY_SPREAD  # type: ignore[operator]
        for one, other in ((red, green), (green, blue))
    )


def encode(image: Image) -> bytes:
    """The image as PGM/PPM bytes for tesseract's stdin."""
    buf = io.BytesIO()
    image.save(buf, "PPM")  # PGM for "L": no compression, read by tesseract from stdin
    return buf.getvalue()


def recorded_dpi(image: Image) -> int:
    """The resolution the image records, 0 when none or implausible."""
    dpi = image.info.get("dpi")
    try:
        value = round(float(dpi[0])) if dpi else 0
    except (TypeError, ValueError, IndexError):
        value = 0
    return value if 70 <= value <= 2400 else 0


def dpi_args(image: Image) -> list[str]:
    """``--dpi N`` when the image knows its resolution (tesseract otherwise guesses)."""
    value = recorded_dpi(image)
    return ["--dpi", str(value)] if value else []
