"""PDF pieces around the page text: document properties, tables as markdown, form fields, the
embedded-image listing, and pages rendered for vision models (JPEG under a byte limit) or for OCR."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ...sanitize import lazy_pattern
from .library import quads_corrected
from .tables.cells import over_budget, pipe_table, table_rows
from .text.reading import read_page

if TYPE_CHECKING:
    import pymupdf
    from PIL.Image import Image

    from ...settings import OutputSettings, PdfSettings

_PDF_DATE = lazy_pattern(
    r"^D?:?(\d{4})(\d{2})?(\d{2})?(\d{2})?(\d{2})?(\d{2})?\s*(Z|[+-]\d{2}'?\d{2}'?)?"
)
_PROPERTIES = (
    ("title", "title"), ("author", "author"), ("subject", "subject"), ("keywords", "keywords"),
    ("creator", "creator"), ("producer", "producer"),
)  # fmt: skip
_FILTERS = {
    "DCTDecode": "jpeg", "JPXDecode": "jpeg2000", "JBIG2Decode": "jbig2",
    "CCITTFaxDecode": "ccitt", "FlateDecode": "flate", "LZWDecode": "lzw", "RunLengthDecode": "rle",
}  # fmt: skip
_MAX_RENDER_PIXELS = 40_000_000  # a poster-sized page is rendered at a lower dpi, not into GBs
_GRAY_SPACES = ("DeviceGray", "CalGray", "")  # "" = 1-bit masks (CCITT, JBIG2)
_JPEG_QUALITIES = (85, 70, 50, 35)


def pdf_date(value: str) -> str | None:
    """A PDF date ("D:20240115093000+01'00'") as ISO 8601; None when it is not a date."""
    m = _PDF_DATE.match(value.strip()) if value else None
    if not m:
        return None
    year, month, day, hour, minute, second, zone = m.groups()
    date = f"{year}-{month or '01'}-{day or '01'}"
    if hour is None:
        return date
    out = f"{date}T{hour}:{minute or '00'}:{second or '00'}"
    if zone == "Z":
        return out + "Z"
    if zone:
        digits = zone.replace("'", "")
        return f"{out}{digits[:3]}:{digits[3:5] or '00'}"
    return out


def properties(doc: pymupdf.Document) -> dict[str, Any]:
    """Document properties under the canonical keys, only those present; dates in ISO 8601."""
    meta = doc.metadata or {}
    out: dict[str, Any] = {
        key: meta[name].strip() for key, name in _PROPERTIES if (meta.get(name) or "").strip()
    }
    for key, name in (("created", "creationDate"), ("pdf_modified", "modDate")):
        iso = pdf_date(meta.get(name) or "")
        if iso:
            out[key] = iso
    return out


def table_markdowns(
    page: pymupdf.Page, output: OutputSettings, pdf: PdfSettings
) -> list[str] | None:
    """Tables PyMuPDF finds on the page, each as a markdown table (``extract_tables``: one
    unit per table besides the page); None when the page is over the table budget (its
    paths counted first: ``pdf.table_max_paths``, ``table_max_seconds``)."""
    if over_budget(read_page(page, pdf.table_max_paths), pdf.table_max_seconds):
        return None
    with quads_corrected():  # its cells' boxes whoever imported pymupdf4llm
        found = [table_rows(table) for table in page.find_tables(use_layout=False).tables]
    return [pipe_table(rows, output) for rows in found if rows]


def form_lines(page: pymupdf.Page) -> list[str]:
    """One line per form field on the page (name, kind, value): fillable forms keep what was
    typed into them, which the page text does not show."""
    lines = []
    for widget in page.widgets():
        value = widget.field_value
        shown = "" if value in (None, "", "Off") else f": {' '.join(str(value).split())}"
        lines.append(f"[Field {widget.field_name} ({widget.field_type_string}){shown}]")
    return lines


def image_lines(doc: pymupdf.Document, page: pymupdf.Page) -> list[str]:
    """One line per embedded image: index, size in pixels, stored format, stored bytes."""
    lines = []
    for index, item in enumerate(page.get_images(full=True), 1):
        xref, width, height, filt = item[0], item[2], item[3], item[8]
        kind, length = doc.xref_get_key(xref, "Length")
        size = f", {int(length):,} bytes" if kind == "int" else ""
        fmt = _FILTERS.get(filt, filt or "raw")
        lines.append(f"[Image {index}: {width}x{height} {fmt}{size}]")
    return lines


def _dpi_for(page: pymupdf.Page, dpi: int) -> int:
    """``dpi``, lowered so the rendered page stays under _MAX_RENDER_PIXELS."""
    area = (page.rect.width / 72) * (page.rect.height / 72)
    if area <= 0:
        return dpi
    return max(min(dpi, int((_MAX_RENDER_PIXELS / area) ** 0.5)), 1)


def ocr_dpi(page: pymupdf.Page, floor: int, cap: int) -> int:
    """The resolution to render a page at for OCR: at least ``floor`` (Tesseract reads best
    at 300 dpi and up), the page's own scan resolution when that is higher (its largest
    picture's pixels per inch as placed) capped at ``cap``, never over the pixel limit.
    Pictures as ``get_image_info`` places them (no hashes: ``get_image_rects`` decodes and
    hashes every picture to find it, 0.25 s of a 400 dpi scanned page)."""
    import pymupdf

    native, largest = 0.0, 0.0
    for info in page.get_image_info():
        rect = pymupdf.Rect(info["bbox"])
        area = abs(rect & page.rect)
        if area > largest and rect.width > 0:
            largest, native = area, info["width"] * 72 / rect.width
    return _dpi_for(page, max(floor, min(round(native), cap)))


def scan_image(page: pymupdf.Page, dpi: int, *, hide_text: bool) -> Image:
    """The page rendered for Tesseract, upright as displayed, with its dpi recorded; with
    ``hide_text`` its text blocks are painted white (the text layer has them: OCR then reads
    only the pictures; not when OCR is forced, for a broken text layer). Grayscale,
    unless an image on it is in colour: Tesseract's own thresholding then keeps coloured
    lettering (logos, stamps) that a grayscale rendering washes out, at twice the OCR time."""
    import pymupdf
    from PIL import Image as PILImage
    from PIL import ImageDraw

    color = any(item[5] not in _GRAY_SPACES for item in page.get_images(full=True))
    pix = page.get_pixmap(
        dpi=dpi, colorspace=pymupdf.csRGB if color else pymupdf.csGRAY, alpha=False
    )
    image = PILImage.frombytes("RGB" if color else "L", (pix.width, pix.height), pix.samples)
    to_pixels = page.rotation_matrix * pymupdf.Matrix(dpi / 72, dpi / 72)
    draw = ImageDraw.Draw(image)  # Pillow paints in C; PyMuPDF 2.x's set_rect is a Python loop
    with quads_corrected():  # the text's boxes as auto and off read them
        blocks = page.get_text("blocks") if hide_text else []
    for block in blocks:
        if block[6] == 0 and block[4].strip():  # a text block with visible characters
            box = (pymupdf.Rect(block[:4]) * to_pixels).round()
            if not box.is_empty:  # its pixels x0..x1-1, y0..y1-1, as set_rect's
                draw.rectangle((box.x0, box.y0, box.x1 - 1, box.y1 - 1), fill="white")
    image.info["dpi"] = (dpi, dpi)
    return image


def jpeg(page: pymupdf.Page, dpi: int, max_bytes: int) -> tuple[bytes, dict[str, int]]:
    """The page as a JPEG under ``max_bytes``: lower quality first, then fewer dots per inch."""
    dpi = _dpi_for(page, dpi)
    while True:
        pix = page.get_pixmap(dpi=dpi, alpha=False)
        for quality in _JPEG_QUALITIES:
            data = pix.tobytes("jpeg", jpg_quality=quality)
            if len(data) <= max_bytes:
                return data, {"width": pix.width, "height": pix.height, "dpi": dpi}
        if dpi <= 10:
            raise ValueError(f"page {page.number + 1} cannot be rendered under {max_bytes:,} bytes")
        dpi = max(int(dpi * min((max_bytes / len(data)) ** 0.5, 0.8)), 10)
