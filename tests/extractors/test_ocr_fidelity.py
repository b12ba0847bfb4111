"""OCR fidelity (issue 17 classes 1, 2, 7) with real Tesseract on small generated pages: the text
layer is never replaced and OCR noise never indexed; images carry their text in loader mode;
scans are read at their own resolution and straightened when skewed."""

from __future__ import annotations

import logging
from pathlib import Path

import docread
import pymupdf
import pytest
from conftest import MakeReader
from docread.extractors.base import Context
from docread.extractors.ocr import OcrLine, OcrResult, at_reading_size, ocr_image, skew_angle
from docread.extractors.pdf.parts import ocr_dpi
from docread.model import FileInfo
from docread.request.options import ReadOptions
from docread.settings import Settings
from factories import encode, photo, rendered_text
from PIL import Image, ImageDraw, ImageFont

CAPTION = "Figure 3: Quarterly revenue by region, 2024"  # 44 characters, under the OCR threshold
FONT = "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"
RECEIPT = ["CORNER BAKERY", "Sourdough loaf 4.50", "Total paid 7.25"]


def printed(lines: list[str], size: tuple[int, int] = (560, 220)) -> Image.Image:
    """Black lines of DejaVu Sans on white, 28 px: a receipt or a scanned text block."""
    img = Image.new("L", size, 255)
    font = ImageFont.truetype(FONT, 28)
    for i, line in enumerate(lines):
        ImageDraw.Draw(img).text((24, 24 + i * 60), line, fill=0, font=font)
    return img


FIGURE = f"[Figure: {CAPTION}]"  # the picture's placeholder holds its caption (pdf.structure)


def slide(path: Path, picture: Image.Image) -> Path:
    """A small slide: ``picture`` above the caption, which is the page's only text layer."""
    doc = pymupdf.open()
    page = doc.new_page(width=480, height=300)
    page.insert_image(pymupdf.Rect(40, 10, 440, 260), stream=encode(picture))
    page.insert_text((40, 285), CAPTION, fontsize=11)
    doc.save(path)
    doc.close()
    return path


# -- class 1: OCR never replaces the text layer, never indexes noise ---------------------------


def test_caption_over_a_photo_survives_whole_and_no_noise_is_indexed(
    make_reader: MakeReader, tmp_path: Path
) -> None:
    slide(tmp_path / "slide.pdf", photo((480, 300)))
    result = make_reader().read("slide.pdf")
    (page,) = result.documents
    assert page.text == FIGURE
    meta = page.metadata
    assert meta["ocr"] is False and meta["ocr_discarded"] is True and meta["ocr_confidence"] < 60
    assert any("OCR of page 1 discarded: mean confidence" in n for n in result.notes)
    # the floor is what keeps the noise out: at 0 the same reading is indexed, after the caption
    loose = make_reader(pdf={"ocr_min_confidence": 0}).read("slide.pdf").documents[0]
    assert loose.text.startswith(FIGURE + "\n\n[OCR]\n") and len(loose.text) > len(FIGURE) + 20


def test_caption_and_the_scanned_text_under_it_are_both_kept(
    reader: docread.Reader, tmp_path: Path
) -> None:
    lines = ["Shipping costs fell by nine percent", "Northern stores opened on Monday"]
    slide(tmp_path / "slide.pdf", printed(lines, (640, 300)))
    (page,) = reader.read("slide.pdf").documents
    assert page.text.startswith(FIGURE + "\n\n[OCR]\n") and page.text.count("Quarterly") == 1
    assert all(line in page.text for line in lines)
    assert page.metadata["ocr"] is True and page.metadata["ocr_confidence"] > 80


def test_ocr_adds_only_lines_with_words_the_text_layer_lacks() -> None:
    info = FileInfo(path="/x/a.png", name="a.png", format="png", category="image",
                    mime_type="image/png", size=1, modified="2026-01-01T00:00:00", source="a.png")  # fmt: skip
    ctx = Context(settings=Settings(), info=info, options=ReadOptions())
    reading = ocr_image(printed(["Alpha beta gamma", "Delta epsilon zeta"]), ctx, what="OCR")
    assert [line.text for line in reading.lines] == ["Alpha beta gamma", "Delta epsilon zeta"]
    added = reading.beyond("alpha, BETA gamma.")
    assert added.text == "Delta epsilon zeta" and added.confidence is not None
    assert reading.confident(101).lines == () and reading.confident(101).confidence is None


def test_a_line_under_the_floor_keeps_only_its_confident_words() -> None:
    smudged = OcrLine(("TSH", "2.4", "mU/L", "0.4-4.0", "mU/L"), (96, 90, 7, 86, 0), False)
    assert smudged.above(60) == OcrLine(("TSH", "2.4", "0.4-4.0"), (96, 90, 86), False)
    assert OcrLine(("|",), (91,), False).above(60) is None  # no word: an edge, not text
    page = OcrResult.of([OcrLine(("Thyroid", "panel:"), (95, 95), True), smudged])
    kept = page.confident(60)
    assert kept.text == "Thyroid panel:\nTSH 2.4 0.4-4.0" and kept.word_count == 5
    assert (page.confidence, kept.confidence) == (67.0, 92.4)
    assert page.confident(70).lines == () and page.under(70) == "mean confidence 67.0 < 70"


# -- class 2: images carry their text in loader mode -------------------------------------------


@pytest.mark.parametrize("fmt,name", [("PNG", "receipt.png"), ("JPEG", "receipt.jpg"),
                                      ("TIFF", "receipt.tif")])  # fmt: skip
def test_scanned_receipt_image_is_ocrd_by_default_in_loader_mode(
    reader: docread.Reader, tmp_path: Path, fmt: str, name: str
) -> None:
    (tmp_path / name).write_bytes(encode(printed(RECEIPT).convert("RGB"), fmt))
    (doc,) = [d for d in reader.iter_documents(name)]
    assert all(line in doc.text for line in RECEIPT) and "**OCR Text:**" in doc.text
    assert doc.metadata["ocr"] is True and doc.metadata["ocr_confidence"] > 80
    agent = reader.read(name)  # the agent view hands the picture to a vision model instead
    assert "OCR Text" not in agent.render() and "ocr" not in agent.documents[0].metadata
    assert agent.media


def test_photo_indexes_no_ocr_text_in_loader_mode(
    reader: docread.Reader, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    photo((480, 320)).save(tmp_path / "holiday.jpg", quality=90)
    with caplog.at_level(logging.WARNING, logger="docread"):
        (doc,) = list(reader.iter_documents("holiday.jpg"))
    assert "OCR" not in doc.text and doc.metadata["ocr_discarded"] is True
    assert doc.metadata["ocr"] is False and doc.metadata["ocr_confidence"] < 60
    assert "discarded: mean confidence" in caplog.text
    assert "ocr" not in list(reader.iter_documents("holiday.jpg", ocr=False))[0].metadata


def test_llamaindex_reader_indexes_the_receipt_text(tmp_path: Path) -> None:
    from llama_index.core.schema import ImageDocument

    from llama_index_docread import DocReadReader

    printed(RECEIPT).save(tmp_path / "receipt.png")
    docs = DocReadReader(workspace=tmp_path, media_dir=tmp_path / "media",
                         config={"cache": {"enabled": False}}).load_data(tmp_path / "receipt.png")  # fmt: skip
    texts = [d.text for d in docs if not isinstance(d, ImageDocument)]
    assert any(all(line in t for line in RECEIPT) for t in texts)
    assert any(isinstance(d, ImageDocument) for d in docs)  # the picture still goes along


# -- class 7: scanned pages at their resolution, straightened ----------------------------------


def test_ocr_renders_at_the_scans_own_resolution_within_bounds() -> None:
    doc = pymupdf.open()
    for pixels in (200, 1200):  # a 2-inch wide picture: 100 dpi and 600 dpi as placed
        page = doc.new_page(width=144, height=144)
        page.insert_image(page.rect, stream=encode(Image.new("L", (pixels, pixels), 255)))
    assert ocr_dpi(doc[0], 300, 600) == 300  # a coarse scan is brought up to the floor
    assert ocr_dpi(doc[1], 300, 600) == 600  # a fine one is read at its own resolution...
    assert ocr_dpi(doc[1], 300, 400) == 400  # ...up to the cap
    pdf = Settings().pdf  # by default a fine scan is read at 300 dpi: the corpus's 400 dpi scans
    assert ocr_dpi(doc[1], pdf.ocr_dpi, pdf.ocr_max_dpi) == 300  # read the same words, at 0.6x


def test_small_pictures_are_scaled_to_read_like_a_300_dpi_scan() -> None:
    page_image = Image.new("L", (612, 792), 255)
    page_image.info["dpi"] = (72, 72)  # a page saved at screen resolution: 300 / 72
    grown = at_reading_size(page_image)
    assert grown.size == (2550, 3300) and grown.info["dpi"] == pytest.approx((300, 300))
    assert at_reading_size(Image.new("L", (800, 1000), 255)).size == (1600, 2000)  # no dpi
    photo_sized = Image.new("L", (4000, 3000), 255)
    assert at_reading_size(photo_sized) is photo_sized  # big enough: read as it is


def test_skew_is_measured_and_straight_text_left_alone() -> None:
    text = "The committee reviewed the quarterly figures and found revenue ahead of plan. " * 4
    page = rendered_text(text, page=(420, 300), box=pymupdf.Rect(20, 20, 400, 280), dpi=150)
    assert skew_angle(page) == 0.0
    assert skew_angle(page.rotate(3, expand=True, fillcolor=255)) == pytest.approx(-3, abs=0.5)


def test_the_skew_search_counts_ink_rows_and_turns_no_image(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Each angle's row profile comes from the ink pixels' turned rows, not from the page turned
    21 times (0.1-0.25 s a scanned page, against 0.01-0.03 s): the same angles are found."""
    text = "The committee reviewed the quarterly figures and found revenue ahead of plan. " * 4
    page = rendered_text(text, page=(420, 300), box=pymupdf.Rect(20, 20, 400, 280), dpi=150)
    turned = {a: page.rotate(a, expand=True, fillcolor=255) for a in (0, 2, -4.5)}

    def no_turning(*args: object, **kwargs: object) -> Image.Image:
        raise AssertionError("the skew search turned an image")

    monkeypatch.setattr(Image.Image, "rotate", no_turning)
    assert {a: skew_angle(img) for a, img in turned.items()} == {0: 0.0, 2: -2.0, -4.5: 4.5}


def test_skewed_scan_page_is_straightened_before_ocr(
    make_reader: MakeReader, tmp_path: Path
) -> None:
    # turned 5 degrees, Tesseract still reads the words (confidence ~88) but interleaves lines
    text = "Lorem ipsum dolor sit amet consectetur adipiscing elit sed do eiusmod tempor. " * 3
    scan = rendered_text(text, page=(420, 240), box=pymupdf.Rect(20, 20, 400, 220), dpi=150)
    skewed = scan.rotate(5, expand=True, fillcolor=255)
    doc = pymupdf.open()
    page = doc.new_page(width=skewed.width * 72 / 150, height=skewed.height * 72 / 150)
    page.insert_image(page.rect, stream=encode(skewed))
    (tmp_path / "skewed.pdf").write_bytes(doc.tobytes())
    (read,) = make_reader(pdf={"ocr_dpi": 150}).read("skewed.pdf").documents
    assert read.metadata["ocr"] is True and read.metadata["ocr_skew"] == pytest.approx(-5, abs=0.5)
    assert " ".join(read.text.split()).startswith(text.strip()[:60])
