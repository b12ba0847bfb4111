"""The shared OCR engine on PIL images: text and confidence, transparency, blank images,
rotation, parallel order, and the typed errors (missing program, missing language, timeout)."""

from __future__ import annotations

from pathlib import Path

import pymupdf
import pytest
from docread.errors import DependencyMissingError, ExtractionTimeoutError
from docread.extractors.base import Context
from docread.extractors.ocr import OcrResult, ocr_image, ocr_images
from docread.model import FileInfo
from docread.request.options import ReadOptions
from docread.settings import Settings
from factories import rendered_text
from PIL import Image


def context(**settings: object) -> Context:
    info = FileInfo(path="/x/scan.png", name="scan.png", format="png", category="image",
                    mime_type="image/png", size=1, modified="2026-01-01T00:00:00", source="scan.png")  # fmt: skip
    return Context(settings=Settings.from_mapping(settings), info=info, options=ReadOptions())


def picture(text: str, mode: str = "L") -> Image.Image:
    """``text`` drawn by PyMuPDF at 150 dpi, as a PIL image in ``mode``."""
    img = rendered_text(text, page=(500, 160), box=pymupdf.Rect(20, 20, 480, 150), fontsize=18)
    if mode == "RGBA":  # black text on a transparent background
        rgba = Image.new("RGBA", img.size, (0, 0, 0, 0))
        rgba.putalpha(img.point(lambda v: 255 - v))
        return rgba
    return img.convert(mode)


def test_reads_text_with_confidence():
    result = ocr_image(picture("Invoice number 4711 is paid"), context(), what="OCR of test")
    assert isinstance(result, OcrResult)
    assert "invoice number 4711" in result.text.lower()
    assert result.confidence is not None and result.confidence > 70 and result.rotation == 0


def test_transparent_image_is_read_on_white():
    result = ocr_image(picture("Transparent label text", "RGBA"), context(), what="OCR")
    assert "transparent label" in result.text.lower()


def test_blank_image_has_no_words_and_no_confidence():
    result = ocr_image(Image.new("L", (600, 300), 255), context(), what="OCR")
    assert result.text == "" and result.confidence is None


def test_an_image_of_one_colour_reads_as_no_text_without_tesseract(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A flat fill (a blank page, a logo's colour, JPEG's ripple within 8 levels) has no ink:
    Tesseract is not run for it (its reading, OSD and a turned reading found nothing in ~1.5 s);
    faint lettering 9 levels off the paper still goes to it."""
    from docread.extractors.ocr import engine

    runs: list[list[str]] = []
    run_tool = engine.run_tool

    def spy(argv: list[str], **kw: object) -> object:
        runs.append(argv)
        return run_tool(argv, **kw)  # type: ignore[arg-type]

    monkeypatch.setattr(engine, "run_tool", spy)
    flat = Image.new("RGB", (320, 200), (20, 40, 200))
    flat.paste((24, 44, 204), (100, 50, 220, 150))  # a patch a few levels apart
    for image in (flat, Image.new("L", (600, 300), 255)):
        result = ocr_image(image, context(), what="OCR")
        assert result.text == "" and result.confidence is None and not result.skipped
    assert runs == []
    faint = picture("Invoice number 4711 is paid").point(lambda v: 246 + v * 9 // 255)
    ocr_image(faint, context(), what="OCR")
    assert any("stdin" in argv for argv in runs)


def test_upside_down_image_is_turned_upright():
    img = picture("Docling bundles PDF document conversion\nto JSON and Markdown in an easy way")
    result = ocr_image(img.rotate(180, expand=True), context(), what="OCR")
    assert result.rotation == 180 and "document conversion" in result.text.lower()


def test_a_colourless_rgb_image_is_read_as_gray_and_a_coloured_one_in_colour(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Tesseract thresholds each channel of a colour image (0.5-0.8x the time as gray on the
    corpus's gray scans saved as RGB, the same words): an RGB image with no colour goes to it as
    PGM, one with a single red word as PPM (its colour can carry lettering gray washes out)."""
    from docread.extractors.ocr import engine

    sent: list[bytes] = []
    run_tool = engine.run_tool

    def spy(argv: list[str], **kw: object) -> object:
        if isinstance(kw.get("stdin"), bytes):
            sent.append(kw["stdin"][:2])  # type: ignore[index]
        return run_tool(argv, **kw)  # type: ignore[arg-type]

    monkeypatch.setattr(engine, "run_tool", spy)
    gray = picture("Invoice number 4711 is paid", "RGB")
    result = ocr_image(gray, context(), what="OCR")
    assert sent == [b"P5"] and "invoice number 4711" in result.text.lower()
    coloured = gray.copy()
    coloured.paste((200, 0, 0), (0, 0, 8, 8))  # a red dot in a corner, away from the words
    sent.clear()
    result = ocr_image(coloured, context(), what="OCR")
    assert sent[0] == b"P6" and "invoice number 4711" in result.text.lower()


def test_many_images_keep_their_order():
    words = ["north", "south", "east", "west", "centre"]
    out = list(ocr_images(((w, picture(f"Go {w} now")) for w in words), context(), what="OCR of"))
    assert [k for k, _ in out] == words
    assert all(k in r.text.lower() for k, r in out)


def test_timeout_is_a_typed_error():
    with pytest.raises(ExtractionTimeoutError, match="timeout"):
        ocr_image(picture("slow"), context(timeouts={"ocr_per_page": 0.01}), what="OCR of slow")


def test_a_process_reads_its_share_of_images_at_once(monkeypatch: pytest.MonkeyPatch) -> None:
    """``set_share(n)``: at most n images read at once (a worker of a busy pool); 0: one per
    usable core."""
    import threading
    import time

    from docread.extractors.ocr import set_share, share, stream, workers

    running, most, lock = 0, 0, threading.Lock()

    def slow(image: Image.Image, ctx: Context, cmd: str, what: str, key: str = "") -> OcrResult:
        nonlocal running, most
        with lock:
            running += 1
            most = max(most, running)
        time.sleep(0.1)
        with lock:
            running -= 1
        return OcrResult("", None, 0)

    monkeypatch.setattr(stream, "reading", slow)
    images = [(n, Image.new("L", (10, 10))) for n in range(6)]
    try:
        set_share(1)
        assert share() == 1
        assert len(list(ocr_images(images, context(), what="OCR"))) == 6 and most == 1
        set_share(0)
        most = 0
        assert share() == workers()
        assert len(list(ocr_images(images, context(), what="OCR"))) == 6
        assert most == min(workers(), 6)
    finally:
        set_share(0)


def test_missing_program_and_language(monkeypatch):
    from pytesseract import pytesseract as pt

    with pytest.raises(DependencyMissingError, match="tesseract-ocr-klingon"):
        ocr_image(picture("x"), context(pdf={"ocr_languages": "klingon"}), what="OCR")
    monkeypatch.setattr(pt, "tesseract_cmd", "no-such-tesseract")
    with pytest.raises(DependencyMissingError, match="apt-get install tesseract-ocr"):
        ocr_image(picture("x"), context(), what="OCR")


class _Store:
    """An OCR cache of one's own: the Context hands the engine whatever store it is given."""

    def __init__(self) -> None:
        self.values: dict[str, str] = {}
        self.gets = 0

    def get(self, key: str) -> str | None:
        self.gets += 1
        return self.values.get(key)

    def put(self, key: str, value: str) -> None:
        self.values[key] = value

    def stamp(self, source: object) -> None:
        """No file stamp: every image is keyed by its pixels."""


def test_the_ocr_cache_is_the_one_the_context_hands_in(monkeypatch: pytest.MonkeyPatch) -> None:
    from docread.extractors.ocr import engine

    runs: list[str] = []
    real = engine._read
    monkeypatch.setattr(engine, "_read", lambda *a: runs.append(a[3]) or real(*a))
    ctx = context()
    ctx.ocr_cache = store = _Store()
    first = ocr_image(picture("Invoice number 4711 is paid"), ctx, what="OCR of test")
    again = ocr_image(picture("Invoice number 4711 is paid"), ctx, what="OCR of test")
    assert len(store.values) == 1 and store.gets == 2 and len(runs) == 1
    assert again == first and "4711" in again.text
    ctx.ocr_cache = None  # cache.enabled off: every reading runs tesseract
    ocr_image(picture("Invoice number 4711 is paid"), ctx, what="OCR of test")
    assert len(runs) == 2


def test_the_pipeline_opens_the_ocr_cache_for_every_context(tmp_path: Path) -> None:
    from docread.cache.ocr import OcrCache
    from docread.pipeline import Pipeline

    info = context().info
    on = Pipeline(Settings.from_mapping({"cache": {"directory": str(tmp_path)}}))
    root = on.context(info, ReadOptions(), loader=False, workspace=None)
    member = on.context(info, ReadOptions(), loader=False, workspace=None, parent=root)
    assert isinstance(root.ocr_cache, OcrCache) and member.ocr_cache is root.ocr_cache
    off = Pipeline(Settings.from_mapping({"cache": {"enabled": False}}))
    assert off.context(info, ReadOptions(), loader=False, workspace=None).ocr_cache is None


def test_reading_pdfs_and_ocr_imports_neither_pytesseract_nor_pandas(tmp_path: Path) -> None:
    """pytesseract imports pandas (0.26 s a process): a PDF's cache key (is tesseract here?) and
    an OCR'd scan, read in-process with the cache on, import neither; the upside-down scan is
    still turned upright (OSD parsed here)."""
    import subprocess
    import sys

    text = "Docling bundles PDF document conversion\nto JSON and Markdown in an easy way"
    picture(text).rotate(180, expand=True).save(tmp_path / "scan.png")
    doc = pymupdf.open()
    doc.new_page().insert_text((72, 72), "A text page")
    doc.save(tmp_path / "text.pdf")
    code = (
        "import sys, docread\n"
        f"config = {{'isolation': {{'enabled': False}}, 'cache': {{'directory': {str(tmp_path / 'c')!r}}}}}\n"
        f"with docread.Reader({str(tmp_path)!r}, config) as r:\n"
        "    pdf = r.read('text.pdf').text\n"
        "    scan = r.read('scan.png', ocr=True).text\n"
        "print(sorted({'pytesseract', 'pandas'} & set(sys.modules)), 'text page' in pdf.lower(),"
        " 'document conversion' in scan.lower())\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.split("\n")[-2] == "[] True True"


def test_items_without_an_image_are_handed_out_before_the_next_is_taken() -> None:
    """A text page passes through the OCR stream at once: a PDF's pages stream (and a load can
    split a long one) rather than all coming out at its end."""
    from docread.extractors.ocr import ocr_stream

    taken: list[int] = []

    def items():  # type: ignore[no-untyped-def]
        for n in range(3):
            taken.append(n)
            yield n, None

    stream = ocr_stream(items(), context(), what="OCR")
    assert next(stream) == (0, None) and taken == [0]
    assert list(stream) == [(1, None), (2, None)] and taken == [0, 1, 2]
