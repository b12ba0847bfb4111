"""The shared OCR engine: Tesseract on PIL images, upright-corrected, one process per core.

Every tesseract run goes through ``docread.isolation.tools.run_tool`` (fixed argv, no shell, the
``timeouts.ocr_per_page`` timeout that kills the whole process group, capped output) with
``OMP_THREAD_LIMIT=1``, the image piped on stdin as PGM/PPM (no temp files, no PNG encoding).
pytesseract is used where it genuinely helps and nowhere else: ``tesseract_cmd`` locates the
binary (the knob users already set), ``file_to_dict`` / ``osd_to_dict`` / ``LANG_PATTERN`` parse
the TSV, OSD and ``--list-langs`` output. Its own runners are not used: they start the process
without a process-group kill, go through temp files and cannot share docread's output cap.

Rotation: a page is read as is; only when that reading looks poor (no words, or mean confidence
under 60) Tesseract's orientation detection (OSD) runs, and the upright reading is kept if it
is better. Skew: every image is first checked for a small one (1-5 degrees, a projection
profile on a small copy, a few tenths of a second); Tesseract reads a skewed scan with high
confidence but interleaves its lines, so a skewed image is also read straightened and that
reading kept unless its confidence is lower. Normal pages therefore pay for one tesseract run,
skewed or rotated scans for two or three, a skewed scan that still reads poorly for four.

One OCR per picture: a reading is stored in the OCR cache (``cache.ocr``, in the cache folder)
under a digest of the pixels Tesseract would be given and the OCR settings, so the agent view, a
loader and a split read of one scanned page share it (a PDF page is still rendered: its pixels
are the key, a render is a tenth of a tesseract run).

Every reading keeps its lines with their mean word confidence, so callers can drop what falls
under ``pdf.ocr_min_confidence`` (``OcrResult.confident``) and add only what a text layer lacks
(``OcrResult.beyond``).
"""

from __future__ import annotations

import dataclasses
import io
import json
import os
import re
from collections import deque
from collections.abc import Iterable, Iterator
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass
from functools import lru_cache
from typing import TYPE_CHECKING, Any, TypeVar

from ..cache.ocr import ocr_cache, ocr_key
from ..errors import DependencyMissingError, ExtractionError, ReadDocumentError
from ..isolation.tools import run_tool

if TYPE_CHECKING:
    from PIL.Image import Image

    from .base import Context

K = TypeVar("K")
INSTALL_HINT = "install it with: apt-get install tesseract-ocr (or brew install tesseract)"
_ENV = {"OMP_THREAD_LIMIT": "1"}
_RETRY_CONFIDENCE = 60.0  # below this mean word confidence, check the orientation
_MAX_OUTPUT = 16 * 1024 * 1024
_READ_DPI = 300  # small pictures are scaled up to read like a scan at this resolution...
_READ_SIDE = 2000  # ...or, without a recorded dpi, to this longest side in px (and from it up)
_MAX_UPSCALE = 4.2  # ...by at most this (72 dpi to 300)...
_MAX_SIDE = 3508  # ...to at most this longest side (A4 at 300 dpi)
_MAX_SKEW = 5  # degrees either way a page is checked for skew
_SKEW_WIDTH = 600  # px: the skew search runs on a copy this wide
_SKEW_GAIN = 1.15  # a skewed angle must line the rows up this much better than 0
_WORD = re.compile(r"[^\W_]+")
_ENGINE = 1  # bump when the reading rules below change: cached readings are then redone
_PSM = 3  # Tesseract's page segmentation: its default, full-page automatic (not passed)
_MAX_HELD = 64  # items waiting behind a slow OCR page before the reader waits for it
# A page of noise (random pixels) costs tesseract many seconds and reads nothing. Text, photos,
# halftones and scans all have neighbouring pixels that are alike; noise has them unrelated.
_NOISE_CORRELATION = 0.15  # horizontal and vertical correlation under this, at some lag
_NOISE_LAGS = (1, 2, 4)  # pixels apart: noise scaled up (a small scan rendered at 300 dpi) is
# correlated with its next pixel but not 4 away; text stays above 0.3 at every lag up to 4
_NOISE_MIN_STD = 30.0  # and real contrast (a blank page with faint sensor noise is cheap anyway)


@dataclass(frozen=True, slots=True)
class OcrLine:
    """One line Tesseract read: its words, each with its confidence (0-100, -1 for none)."""

    words: tuple[str, ...]
    confidences: tuple[float, ...]
    paragraph: bool  # the first line of a paragraph

    @property
    def text(self) -> str:
        return " ".join(self.words)

    @property
    def scored(self) -> list[float]:
        """The confidences Tesseract gave (what means are over)."""
        return [c for c in self.confidences if c >= 0]

    def above(self, floor: float) -> OcrLine | None:
        """The line when its mean confidence reaches ``floor``, else only its words that do
        (a real "TSH 2.4 0.4-4.0" keeps those after a smudged unit); None when no word is left."""
        scored = self.scored
        if scored and sum(scored) / len(scored) >= floor:
            line: OcrLine | None = self
        else:
            kept = [(w, c) for w, c in zip(self.words, self.confidences, strict=True) if c >= floor]
            line = OcrLine(tuple(w for w, _ in kept), tuple(c for _, c in kept), self.paragraph)
        return line if line is not None and _words(line.text) else None


@dataclass(frozen=True, slots=True)
class OcrResult:
    """What Tesseract read from one image."""

    text: str
    confidence: float | None  # mean word confidence 0-100, None when no words
    rotation: int  # degrees the image was turned (clockwise) to read it upright: 0/90/180/270
    skipped: bool = False  # not run: the image is clearly not text (a note says why)
    lines: tuple[OcrLine, ...] = ()
    skew: float = 0.0  # degrees it was then turned (counter-clockwise) to straighten its lines

    @classmethod
    def of(cls, lines: list[OcrLine]) -> OcrResult:
        """A reading upright as given, from its lines."""
        return cls("", None, 0)._with(lines)

    def confident(self, floor: float) -> OcrResult:
        """Nothing when the mean word confidence is under ``floor`` (noise read from a photo
        sits at 20-45, printed text at 85-96); else the lines that reach it, and of the others
        the words that do; a line left without a word (a lone "|" read from an edge) goes.
        The confidence is then over what is left."""
        if self.confidence is None or self.confidence < floor:
            return self._with([])
        return self._with([kept for line in self.lines if (kept := line.above(floor))])

    def under(self, floor: float) -> str:
        """Why ``confident(floor)`` kept nothing, for a note."""
        if self.confidence is None or self.confidence < floor:
            return f"mean confidence {self.confidence} < {floor:g}"
        return f"no word reaches confidence {floor:g}"

    @property
    def word_count(self) -> int:
        """Words read (a kept reading's count against the whole one's says what was dropped)."""
        return sum(len(line.words) for line in self.lines)

    def beyond(self, text: str) -> OcrResult:
        """Only the lines with a word ``text`` lacks (words compared case- and
        punctuation-blind): what OCR adds to a page's text layer."""
        known = set(_words(text))
        return self._with([line for line in self.lines if set(_words(line.text)) - known])

    def _with(self, lines: list[OcrLine]) -> OcrResult:
        """This reading cut to ``lines``: text and confidence recomputed."""
        scored = [c for line in lines for c in line.scored]
        parts: list[str] = []
        for line in lines:
            if line.paragraph and parts:
                parts.append("")
            parts.append(line.text)
        mean = round(sum(scored) / len(scored), 1) if scored else None
        return dataclasses.replace(self, text="\n".join(parts), confidence=mean, lines=tuple(lines))


def _words(text: str) -> list[str]:
    """Case-folded words of letters and digits: what two readings of a line share."""
    return [w for w in _WORD.findall(text.casefold()) if len(w) > 1]


def workers() -> int:
    """One tesseract per usable core."""
    try:
        return max(len(os.sched_getaffinity(0)), 1)
    except AttributeError:  # not Linux
        return os.cpu_count() or 1


def tesseract(ctx: Context) -> str:
    """The tesseract binary (pytesseract's ``tesseract_cmd``), with every configured language
    installed; else DependencyMissingError saying what to install."""
    import shutil

    from pytesseract import pytesseract as pt

    path: str | None = shutil.which(pt.tesseract_cmd)
    if path is None:
        raise DependencyMissingError(
            f"{ctx.info.source}: OCR needs the program 'tesseract', which is not installed; "
            f"{INSTALL_HINT}",
            path=ctx.info.source,
        )
    wanted = [lang for lang in ctx.settings.pdf.ocr_languages.split("+") if lang]
    missing = [lang for lang in wanted if lang not in _languages(path)]
    if missing:
        packages = " ".join(f"tesseract-ocr-{lang.lower().replace('_', '-')}" for lang in missing)
        raise DependencyMissingError(
            f"{ctx.info.source}: the OCR language(s) {', '.join(missing)} of pdf.ocr_languages="
            f"{ctx.settings.pdf.ocr_languages!r} are not installed; install them with: "
            f"apt-get install {packages}, or change pdf.ocr_languages "
            f"(installed: {', '.join(sorted(_languages(path))) or 'none'})",
            path=ctx.info.source,
        )
    return path


def available(ctx: Context) -> bool:
    """Tesseract and the configured languages are installed (automatic OCR runs only then)."""
    try:
        tesseract(ctx)
    except DependencyMissingError:
        return False
    return True


@lru_cache(maxsize=8)
def _languages(path: str) -> frozenset[str]:
    """Languages this tesseract has (``--list-langs``), asked once per binary."""
    from pytesseract import pytesseract as pt

    out = run_tool([path, "--list-langs"], timeout=30, what="tesseract --list-langs", env=_ENV)
    lines = out.stdout.decode("utf-8", "replace").splitlines()[1:]  # first line is a title
    return frozenset(line.strip() for line in lines if pt.LANG_PATTERN.match(line.strip()))


def kept_reading(result: OcrResult, floor: float, meta: dict[str, Any]) -> OcrResult:
    """What of a reading indexes (its lines at or over ``floor``), its facts put in ``meta``:
    ``ocr_confidence`` of the reading; ``ocr_discarded`` when it had lines and none passed; else
    ``ocr``, the kept lines' confidence, ``ocr_rotation``/``ocr_skew`` and ``ocr_dropped_words``.
    The one rule for pages and pictures; their callers say it in notes."""
    kept = result.confident(floor)
    if result.confidence is not None:
        meta["ocr_confidence"] = result.confidence
    if not kept.lines:
        if result.lines:
            meta["ocr_discarded"] = True
        return kept
    meta.update(ocr=True, ocr_confidence=kept.confidence)
    for key, value in (("ocr_rotation", result.rotation), ("ocr_skew", result.skew)):
        if value:
            meta[key] = value
    if kept.word_count < result.word_count:
        meta["ocr_dropped_words"] = result.word_count - kept.word_count
    return kept


def ocr_image(image: Image, ctx: Context, *, what: str) -> OcrResult:
    """Read one image upright; ``what`` names it in errors ("OCR of page 3")."""
    return _ocr(image, ctx, tesseract(ctx), what)


def ocr_images(
    images: Iterable[tuple[K, Image]], ctx: Context, *, what: str
) -> Iterator[tuple[K, OcrResult]]:
    """Many images in parallel (one tesseract per core), results in input order; errors raise."""
    for key, result in ocr_stream(images, ctx, what=what):
        if isinstance(result, ReadDocumentError):
            raise result
        assert result is not None  # every item carries an image
        yield key, result


def ocr_stream(
    items: Iterable[tuple[K, Image | None]], ctx: Context, *, what: str
) -> Iterator[tuple[K, OcrResult | ReadDocumentError | None]]:
    """Items with an image are OCR'd in parallel, items without pass through (result None), in
    input order. At most two images per core (and 64 items) are held, so a long document streams. A failed
    image (timeout, tesseract error) yields its error, so the caller can go on with the rest."""
    cmd: str | None = None
    pending: deque[tuple[K, Future[OcrResult] | None]] = deque()
    window = 2 * workers()
    with ThreadPoolExecutor(max_workers=workers(), thread_name_prefix="docread-ocr") as pool:
        try:
            for key, image in items:
                if image is not None:
                    cmd = cmd or tesseract(ctx)
                    pending.append((key, pool.submit(_ocr, image, ctx, cmd, f"{what} {key}")))
                else:
                    pending.append((key, None))
                while pending and (
                    _ready(pending[0][1]) or _busy(pending) >= window or len(pending) >= _MAX_HELD
                ):
                    yield _take(pending.popleft())
            while pending:
                ctx.check_deadline(what)
                yield _take(pending.popleft())
        finally:
            for _, fut in pending:
                if fut is not None:
                    fut.cancel()


def _ready(fut: Future[OcrResult] | None) -> bool:
    """Nothing to wait for: a pass-through item or a finished OCR."""
    return fut is None or fut.done()


def _busy(pending: deque[tuple[K, Future[OcrResult] | None]]) -> int:
    """Images submitted and not yet handed out (each holds a rendered page)."""
    return sum(1 for _, fut in pending if fut is not None)


def _take(
    item: tuple[K, Future[OcrResult] | None],
) -> tuple[K, OcrResult | ReadDocumentError | None]:
    """Wait for one item; a per-image failure is returned, a missing program still raises."""
    key, fut = item
    if fut is None:
        return key, None
    try:
        return key, fut.result()
    except DependencyMissingError:
        raise
    except ReadDocumentError as exc:
        return key, exc


def _ocr(image: Image, ctx: Context, cmd: str, what: str) -> OcrResult:
    """Noise skipped; else the cached reading of these pixels, or a new one (stored)."""
    image = _plain(image)
    gray = image if image.mode == "L" else image.convert("L")  # both checks read gray, once
    noise = noise_correlation(gray)
    if noise is not None:
        ctx.warn(
            f"{what}: skipped, the image looks like noise, not text (its pixels are "
            f"uncorrelated: r={noise:.2f}); OCR would take long and read nothing."
        )
        return OcrResult("", None, 0, skipped=True)
    store = ocr_cache(ctx.settings.cache)
    key = _cache_key(image, ctx, cmd) if store is not None else ""
    stored = store.get(key) if store is not None else None
    if stored is not None:
        return _loads(stored)
    result = _upright(image, gray, ctx, cmd, what)
    if store is not None:
        store.put(key, _dumps(result))
    return result


def _cache_key(image: Image, ctx: Context, cmd: str) -> str:
    """The OCR cache key of this image: its pixels, and what changes Tesseract's reading of
    them. The confidence floor is not in it: the whole reading is stored, callers apply it."""
    facts = {
        "engine": _ENGINE, "tesseract": _version(cmd), "languages": ctx.settings.pdf.ocr_languages,
        "psm": _PSM, "mode": image.mode, "size": image.size, "dpi": _recorded_dpi(image),
    }  # fmt: skip
    return ocr_key(image.tobytes(), facts)


def _dumps(result: OcrResult) -> str:
    """A reading as JSON text for the OCR cache."""
    lines = [[line.words, line.confidences, line.paragraph] for line in result.lines]
    return json.dumps({"rotation": result.rotation, "skew": result.skew, "lines": lines})


def _loads(text: str) -> OcrResult:
    """A reading back from the OCR cache."""
    data = json.loads(text)
    lines = [OcrLine(tuple(w), tuple(c), bool(p)) for w, c, p in data["lines"]]
    return dataclasses.replace(OcrResult.of(lines), rotation=data["rotation"], skew=data["skew"])


@lru_cache(maxsize=8)
def _version(path: str) -> str:
    """This tesseract's version line (``--version``), asked once per binary and process."""
    out = run_tool([path, "--version"], timeout=30, what="tesseract --version", env=_ENV)
    return (out.stdout or out.stderr).decode("utf-8", "replace").partition("\n")[0].strip()


def _upright(image: Image, gray: Image, ctx: Context, cmd: str, what: str) -> OcrResult:
    """As is, and straightened when skewed (kept unless less confident); when that reads
    poorly, OSD, and the upright reading if it is better."""
    skew = skew_angle(gray)
    best = _read(image, ctx, cmd, what)
    if skew:  # a skewed scan reads with high confidence but its lines interleave: straighten
        straight = _read(_straighten(image, skew), ctx, cmd, what)
        if (straight.confidence or 0.0) >= (best.confidence or 0.0):
            best = dataclasses.replace(straight, skew=skew)
    if _good(best):
        return best
    rotation = _orientation(image, ctx, cmd, what)
    if not rotation:
        return best
    turned = _read(image.rotate(-rotation, expand=True), ctx, cmd, what)
    return dataclasses.replace(turned, rotation=rotation) if _score(turned) > _score(best) else best


def at_reading_size(image: Image) -> Image:
    """A small picture scaled so its text is about as large as on a 300 dpi scan (Tesseract's
    best): by 300 / its dpi when it records one (a 72 dpi page image grows 4x), else to a 2000 px
    longest side (a screenshot or small receipt grows 2x); at most 4.2x and 3508 px (A4 at 300
    dpi). Pictures 2000 px or more across (camera photos, real scans) are read as they are."""
    from PIL import Image as PILImage

    longest, dpi = max(image.size), _recorded_dpi(image)
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


def _good(result: OcrResult) -> bool:
    """Read well enough that turning the image cannot be worth another run."""
    return result.confidence is not None and result.confidence >= _RETRY_CONFIDENCE


def skew_angle(image: Image) -> float:
    """The turn (degrees counter-clockwise, within +-5) that straightens the image's text rows,
    0.0 when none clearly does: the angle whose row-ink profile is sharpest, on a copy at most
    600 px wide (text lines stay lines, the search stays within a few tenths of a second)."""
    import numpy as np
    from PIL import Image as PILImage

    gray = image.convert("L") if image.mode != "L" else image
    scale = min(1.0, _SKEW_WIDTH / max(gray.width, 1))
    small = gray.resize((max(int(gray.width * scale), 1), max(int(gray.height * scale), 1)),
                        PILImage.Resampling.BOX)  # fmt: skip
    ink = small.point(lambda v: 255 if v < 128 else 0)  # text as white on black: rotation fills 0

    def sharpness(angle: float) -> float:
        rows = np.asarray(ink.rotate(angle, PILImage.Resampling.BILINEAR), dtype=np.float32).sum(1)
        return float(np.square(np.diff(rows)).sum())

    angles = [a / 2 for a in range(-2 * _MAX_SKEW, 2 * _MAX_SKEW + 1)]
    scores = {a: sharpness(a) for a in angles}
    best = max(angles, key=lambda a: (scores[a], -abs(a)))
    return best if abs(best) >= 1 and scores[best] > _SKEW_GAIN * scores[0.0] else 0.0


def _straighten(image: Image, angle: float) -> Image:
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


def _score(result: OcrResult) -> float:
    """How much was read how surely: compares the as-is and the turned reading."""
    return (result.confidence or 0.0) * len(result.text.split())


def _plain(image: Image) -> Image:
    """Grayscale or RGB without alpha (transparent parts become white), as PGM/PPM can carry."""
    from PIL import Image as PILImage

    if image.mode in ("L", "RGB"):
        return image
    if "A" in image.getbands() or image.mode == "P" and "transparency" in image.info:
        rgba = image.convert("RGBA")
        flat = PILImage.new("RGB", rgba.size, "white")
        flat.paste(rgba, mask=rgba.getchannel("A"))
        return flat
    return image.convert("RGB" if len(image.getbands()) >= 3 else "L")


def _encode(image: Image) -> bytes:
    """The image as PGM/PPM bytes for tesseract's stdin."""
    buf = io.BytesIO()
    image.save(buf, "PPM")  # PGM for "L": no compression, read by tesseract from stdin
    return buf.getvalue()


def _recorded_dpi(image: Image) -> int:
    """The resolution the image records, 0 when none or implausible."""
    dpi = image.info.get("dpi")
    try:
        value = round(float(dpi[0])) if dpi else 0
    except (TypeError, ValueError, IndexError):
        value = 0
    return value if 70 <= value <= 2400 else 0


def _dpi_args(image: Image) -> list[str]:
    """``--dpi N`` when the image knows its resolution (tesseract otherwise guesses)."""
    value = _recorded_dpi(image)
    return ["--dpi", str(value)] if value else []


def _read(image: Image, ctx: Context, cmd: str, what: str) -> OcrResult:
    """One tesseract run, TSV out: text by line and paragraph, mean word confidence."""
    from pytesseract import pytesseract as pt

    argv = [cmd, "stdin", "stdout", *_dpi_args(image), "-l", ctx.settings.pdf.ocr_languages, "tsv"]
    out = run_tool(
        argv, timeout=ctx.settings.timeouts.ocr_per_page, what=what, path=ctx.info.source,
        stdin=_encode(image), env=_ENV, max_output=_MAX_OUTPUT,
    )  # fmt: skip
    if out.truncated:
        raise ExtractionError(f"{ctx.info.source}: {what} produced more than {_MAX_OUTPUT:,} bytes")
    data = pt.file_to_dict(out.stdout.decode("utf-8", "replace"), "\t", -1)
    lines: list[tuple[tuple[int, int, int], list[str], list[float]]] = []
    rows = zip(data.get("level", []), data.get("block_num", []), data.get("par_num", []),
               data.get("line_num", []), data.get("conf", []), data.get("text", []), strict=False)  # fmt: skip
    for level, block, par, line, conf, word in rows:
        word = str(word).strip()
        if level != 5 or not word:
            continue
        here = (block, par, line)
        if not lines or lines[-1][0] != here:
            lines.append((here, [], []))
        lines[-1][1].append(word)
        lines[-1][2].append(float(conf) if isinstance(conf, int | float) and conf >= 0 else -1.0)
    read = [
        OcrLine(tuple(words), tuple(confs), i == 0 or key[:2] != lines[i - 1][0][:2])
        for i, (key, words, confs) in enumerate(lines)
    ]
    return OcrResult.of(read)


def _orientation(image: Image, ctx: Context, cmd: str, what: str) -> int:
    """Clockwise degrees that make the image upright per Tesseract OSD; 0 when unsure or no osd."""
    from pytesseract import pytesseract as pt

    if "osd" not in _languages(cmd):
        return 0
    out = run_tool(
        [cmd, "stdin", "stdout", *_dpi_args(image), "--psm", "0"],
        timeout=ctx.settings.timeouts.ocr_per_page, what=f"{what} (orientation)",
        path=ctx.info.source, stdin=_encode(image), env=_ENV, check=False,
    )  # fmt: skip
    if out.returncode != 0:  # too few characters to tell
        return 0
    osd = pt.osd_to_dict(out.stdout.decode("utf-8", "replace"))
    rotate = int(osd.get("rotate", 0)) % 360
    return rotate if rotate in (90, 180, 270) else 0
