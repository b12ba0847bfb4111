"""The shared OCR engine on PIL images: text and confidence, transparency, blank images,
rotation, parallel order, and the typed errors (missing program, missing language, timeout)."""

from __future__ import annotations

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


def test_upside_down_image_is_turned_upright():
    img = picture("Docling bundles PDF document conversion\nto JSON and Markdown in an easy way")
    result = ocr_image(img.rotate(180, expand=True), context(), what="OCR")
    assert result.rotation == 180 and "document conversion" in result.text.lower()


def test_many_images_keep_their_order():
    words = ["north", "south", "east", "west", "centre"]
    out = list(ocr_images(((w, picture(f"Go {w} now")) for w in words), context(), what="OCR of"))
    assert [k for k, _ in out] == words
    assert all(k in r.text.lower() for k, r in out)


def test_timeout_is_a_typed_error():
    with pytest.raises(ExtractionTimeoutError, match="timeout"):
        ocr_image(picture("slow"), context(timeouts={"ocr_per_page": 0.01}), what="OCR of slow")


def test_missing_program_and_language(monkeypatch):
    from pytesseract import pytesseract as pt

    with pytest.raises(DependencyMissingError, match="tesseract-ocr-klingon"):
        ocr_image(picture("x"), context(pdf={"ocr_languages": "klingon"}), what="OCR")
    monkeypatch.setattr(pt, "tesseract_cmd", "no-such-tesseract")
    with pytest.raises(DependencyMissingError, match="apt-get install tesseract-ocr"):
        ocr_image(picture("x"), context(), what="OCR")
