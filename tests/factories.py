"""Builders for the files tests read: PDFs (text, scanned, table pages), notebooks, office files,
archives and images. Each ``write``-style builder takes the target path first, writes the file
and returns the path; ``*_bytes`` builders return the bytes.

    pdf(tmp_path / "r.pdf", ["page one", scan_page("scanned words"), table_page(rows)])
    notebook(tmp_path / "a.ipynb", [markdown("# Title"), code("print(1)", stream("1\\n"))])
    zip_archive(tmp_path / "a.zip", {"dir/a.txt": b"alpha"})
"""

from __future__ import annotations

import base64
import io
import json
import re
import tarfile
import warnings
import zipfile
from collections.abc import Callable, Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any

import pymupdf
from PIL import Image, ImageDraw, ImageFont

TEXT_BOX = pymupdf.Rect(72, 72, 540, 720)

# -- images --------------------------------------------------------------------------------------
Color = str | int | tuple[int, ...]


def image_bytes(
    size: tuple[int, int] = (4, 4), color: Color = "red", fmt: str = "PNG", mode: str = "RGB"
) -> bytes:
    """A plain one-colour picture, encoded (PNG by default)."""
    return encode(Image.new(mode, size, color), fmt)


def encode(img: Image.Image, fmt: str = "PNG", **save: Any) -> bytes:
    buf = io.BytesIO()
    img.save(buf, fmt, **save)
    return buf.getvalue()


def image_file(
    path: Path, size: tuple[int, int] = (64, 48), color: Color = (200, 30, 30), **save: Any
) -> Path:
    """A plain one-colour RGB picture; the format follows the suffix (``save`` goes to Pillow)."""
    Image.new("RGB", size, color).save(path, **save)
    return path


def text_image(
    text: str, size: tuple[int, int] = (600, 200), *, font_size: int = 40, at=(20, 60)
) -> Image.Image:
    """Black text on white (something for OCR to read)."""
    img = Image.new("RGB", size, "white")
    ImageDraw.Draw(img).text(at, text, fill="black", font=ImageFont.load_default(size=font_size))
    return img


def photo(size: tuple[int, int] = (720, 480), seed: int = 0) -> Image.Image:
    """A photo-like grey picture Tesseract "reads" as junk (~30 mean confidence, like a slide's
    photo of shelves or a crowd): a soft gradient under rows of blurred strokes and arcs,
    glyph-sized but no letters. Its pixels are correlated, so the noise guard lets it through."""
    import random

    from PIL import ImageFilter

    rnd, (w, h) = random.Random(seed), size
    img = Image.linear_gradient("L").resize(size).point(lambda v: 90 + v // 2)
    draw, y = ImageDraw.Draw(img), 20
    while y < h - 40:
        x, tall = rnd.randrange(10, 40), rnd.randrange(14, 34)
        while x < w - 30:
            kind, ink = rnd.random(), rnd.randrange(60)
            if kind < 0.5:
                draw.line(
                    (x, y, x + rnd.randrange(-4, 5), y + tall), fill=ink, width=rnd.randrange(2, 5)
                )
            elif kind < 0.8:
                box = (x, y + tall // 3, x + tall // 2, y + tall)
                draw.arc(box, rnd.randrange(360), rnd.randrange(360), fill=ink, width=3)
            else:
                x += rnd.randrange(6, 20)
            x += rnd.randrange(5, 14)
        y += tall + rnd.randrange(10, 30)
    return img.filter(ImageFilter.GaussianBlur(1.2))


def rendered_text(
    text: str,
    *,
    page: tuple[float, float] = (595, 842),
    box: pymupdf.Rect = TEXT_BOX,
    fontsize: float = 16,
    dpi: int = 150,
) -> Image.Image:
    """``text`` typeset by PyMuPDF in ``box`` on a page of ``page`` points, rendered at ``dpi``
    as a grey ("L") picture: what a scanner would see."""
    doc = pymupdf.open()
    sheet = doc.new_page(width=page[0], height=page[1])
    sheet.insert_textbox(box, text, fontsize=fontsize)
    pix = sheet.get_pixmap(dpi=dpi, colorspace=pymupdf.csGRAY)
    img = Image.frombytes("L", (pix.width, pix.height), pix.samples)
    doc.close()
    return img


# -- PDF -----------------------------------------------------------------------------------------
PageMaker = Callable[[pymupdf.Document], None]


def pdf(
    path: Path,
    pages: Iterable[str | PageMaker],
    *,
    metadata: Mapping[str, str] | None = None,
    **save: Any,
) -> Path:
    """A PDF, one page per item: a string is a text page (``text_page``), anything else a page
    maker (``scan_page``, ``table_page``, ``drawn``). ``save`` goes to ``Document.save``
    (``encryption=``, ``user_pw=``, ``owner_pw=``, ``permissions=``)."""
    path.write_bytes(pdf_bytes(pages, metadata=metadata, **save))
    return path


def pdf_bytes(
    pages: Iterable[str | PageMaker], *, metadata: Mapping[str, str] | None = None, **save: Any
) -> bytes:
    doc = pymupdf.open()
    for page in pages:
        (text_page(page) if isinstance(page, str) else page)(doc)
    if metadata:
        doc.set_metadata(dict(metadata))
    out = doc.tobytes(**save)
    doc.close()
    return out


def text_page(
    text: str, *, fontsize: float = 12, at: tuple[float, float] | None = None
) -> PageMaker:
    """A page with a text layer: ``text`` wrapped in the page's text box, or written from the
    point ``at`` (one line per ``\\n``, no wrapping)."""

    def make(doc: pymupdf.Document) -> None:
        page = doc.new_page()
        if at is None:
            page.insert_textbox(TEXT_BOX, text, fontsize=fontsize)
        else:
            page.insert_text(at, text, fontsize=fontsize)

    return make


def drawn(draw: Callable[[pymupdf.Page], object], **size: float) -> PageMaker:
    """A page drawn by ``draw(page)`` (columns, widgets, rules...); ``size``: width=, height=."""

    def make(doc: pymupdf.Document) -> None:
        draw(doc.new_page(**size))

    return make


def drawn_markdown(tmp_path: Path, draw: Callable[[pymupdf.Page], object], **size: float) -> str:
    """The text docread reads (in-process, no cache; a table's own units left out) off a
    one-page PDF drawn by ``draw`` (``drawn``), saved as ``tmp_path/page.pdf``."""
    import docread

    pdf(tmp_path / "page.pdf", [drawn(draw, **size)])
    config = {"cache": {"enabled": False}, "isolation": {"enabled": False}}
    with docread.Reader(tmp_path, config=config) as reader:
        return "\n\n".join(
            d.text for d in reader.iter_documents("page.pdf") if "table_index" not in d.metadata
        )


_PIPE_ROW = re.compile(r"^\|(.*)\|$", re.MULTILINE)


def pipe_rows(markdown: str) -> list[list[str]]:
    """The rows of the pipe tables in ``markdown`` (rule rows out), each as its cells."""
    return [
        [c.strip() for c in m.group(1).split("|")]
        for m in _PIPE_ROW.finditer(markdown)
        if not set(m.group(1)) <= set("-| :")
    ]


def scan_page(
    text: str | Image.Image, *, rotate: int = 0, dpi: int = 150, fontsize: float = 16
) -> PageMaker:
    """An image-only page (a 'scan', no text layer): ``text`` rendered to a grey bitmap at
    ``dpi`` and optionally rotated, or a given picture, filling a page of its own size."""

    def make(doc: pymupdf.Document) -> None:
        if isinstance(text, Image.Image):
            img, res = text, 72
        else:
            img, res = rendered_text(text, fontsize=fontsize, dpi=dpi), dpi
        if rotate:
            img = img.rotate(rotate, expand=True)
        page = doc.new_page(width=img.width * 72 / res, height=img.height * 72 / res)
        page.insert_image(page.rect, stream=encode(img))

    return make


def table_page(
    rows: Sequence[Sequence[str]],
    *,
    caption: str | None = None,
    images: Sequence[str] = (),
) -> PageMaker:
    """A ruled table (one bordered cell per value) under an optional caption line, then one
    40x30 picture per entry of ``images`` (``"png"``, ``"jpeg"``)."""

    def make(doc: pymupdf.Document) -> None:
        page = doc.new_page()
        if caption:
            page.insert_text((72, 60), caption)
        x0, y0, w, h = 72, 80, 120, 24
        for r, row in enumerate(rows):
            for c, cell in enumerate(row):
                rect = pymupdf.Rect(x0 + c * w, y0 + r * h, x0 + (c + 1) * w, y0 + (r + 1) * h)
                page.draw_rect(rect, color=(0, 0, 0), width=1)
                page.insert_text((rect.x0 + 4, rect.y1 - 8), cell)
        y = 300
        for fmt in images:
            height = 30 if fmt == "png" else 80
            width = 40 if fmt == "png" else 120
            page.insert_image(
                pymupdf.Rect(72, y, 72 + width, y + height),
                stream=image_bytes((40, 30), (200, 30, 30), "JPEG" if fmt == "jpeg" else "PNG"),
            )
            y += height + 10

    return make


# -- notebooks -----------------------------------------------------------------------------------
def _lines(text: str) -> list[str]:
    return text.splitlines(keepends=True)


def markdown(source: str) -> dict[str, Any]:
    return {"cell_type": "markdown", "metadata": {}, "source": _lines(source)}


def code(source: str, *outputs: dict[str, Any], count: int | None = None) -> dict[str, Any]:
    return {
        "cell_type": "code", "execution_count": count, "metadata": {},
        "source": _lines(source), "outputs": list(outputs),
    }  # fmt: skip


def stream(text: str, name: str = "stdout") -> dict[str, Any]:
    return {"output_type": "stream", "name": name, "text": _lines(text)}


def display_png(png: bytes, plain: str = "<Figure>") -> dict[str, Any]:
    return {
        "output_type": "display_data", "metadata": {},
        "data": {"image/png": base64.b64encode(png).decode(), "text/plain": [plain]},
    }  # fmt: skip


def execute_result(plain: str, count: int | None = None) -> dict[str, Any]:
    return {
        "output_type": "execute_result", "execution_count": count, "metadata": {},
        "data": {"text/plain": _lines(plain)},
    }  # fmt: skip


def error(ename: str, evalue: str, traceback: Sequence[str] = ()) -> dict[str, Any]:
    return {"output_type": "error", "ename": ename, "evalue": evalue, "traceback": list(traceback)}


def notebook(
    path: Path, cells: Sequence[dict[str, Any]] = (), *, language: str | None = "python"
) -> Path:
    """An nbformat 4 notebook with these cells (``markdown``, ``code`` with ``stream``,
    ``display_png``, ``execute_result`` and ``error`` outputs); ``language=None`` leaves the kernelspec
    out."""
    meta = {"kernelspec": {"name": "python3", "language": language}} if language else {}
    nb = {"cells": list(cells), "metadata": meta, "nbformat": 4, "nbformat_minor": 5}
    path.write_text(json.dumps(nb), encoding="utf-8")
    return path


# -- office --------------------------------------------------------------------------------------
def xlsx(path: Path, sheets: Mapping[str, Sequence[Sequence[Any]]]) -> Path:
    """A workbook with one sheet per entry (in order), each given as its rows."""
    import openpyxl

    wb = openpyxl.Workbook()
    wb.remove(wb.active)
    for title, rows in sheets.items():
        ws = wb.create_sheet(title)
        for row in rows:
            ws.append(list(row))
    wb.save(path)
    return path


PAGE_BREAK = "\f"
Block = str | tuple[int, str] | bytes | Sequence[Sequence[str]]


def docx(path: Path, blocks: Sequence[Block], **properties: Any) -> Path:
    """A Word document, block by block: a string is a paragraph, ``(level, text)`` a heading,
    ``PAGE_BREAK`` a hard page break, bytes a picture, a list of rows a table; ``properties``
    set core properties (title=, author=, revision=, ...)."""
    import docx as python_docx

    d = python_docx.Document()
    for name, value in properties.items():
        setattr(d.core_properties, name, value)
    for block in blocks:
        if block == PAGE_BREAK:
            d.add_page_break()
        elif isinstance(block, str):
            d.add_paragraph(block)
        elif isinstance(block, bytes):
            d.add_picture(io.BytesIO(block))
        elif isinstance(block, tuple):
            d.add_heading(block[1], level=block[0])
        else:
            table = d.add_table(rows=len(block), cols=len(block[0]))
            for r, row in enumerate(block):
                for c, value in enumerate(row):
                    table.cell(r, c).text = value
    d.save(path)
    return path


def pptx(
    path: Path,
    slides: Sequence[tuple[str, str, str]],
    *,
    tables: Mapping[int, Sequence[Sequence[str]]] | None = None,
    **properties: Any,
) -> Path:
    """A deck, one ``(title, bullet, speaker notes or "")`` per slide; ``tables`` maps a slide
    number to the rows of a table on it; ``properties`` set core properties."""
    from pptx import Presentation
    from pptx.util import Inches

    prs = Presentation()
    for name, value in properties.items():
        setattr(prs.core_properties, name, value)
    for number, (title, bullet, notes) in enumerate(slides, 1):
        slide = prs.slides.add_slide(prs.slide_layouts[1])
        slide.shapes.title.text = title
        slide.placeholders[1].text_frame.text = bullet
        rows = (tables or {}).get(number)
        if rows:
            shape = slide.shapes.add_table(
                len(rows), len(rows[0]), Inches(1), Inches(3), Inches(4), Inches(1)
            )
            for r, row in enumerate(rows):
                for c, value in enumerate(row):
                    shape.table.cell(r, c).text = value
        if notes:
            slide.notes_slide.notes_text_frame.text = notes
    prs.save(path)
    return path


# -- archives ------------------------------------------------------------------------------------
Members = Mapping[str, bytes] | Sequence[tuple[str, bytes]]  # pairs may repeat a name


def _pairs(members: Members) -> list[tuple[str, bytes]]:
    return list(members.items()) if isinstance(members, Mapping) else list(members)


def zip_archive(path: Path, members: Members, method: int = zipfile.ZIP_DEFLATED) -> Path:
    path.write_bytes(zip_bytes(members, method))
    return path


def zip_bytes(members: Members, method: int = zipfile.ZIP_DEFLATED) -> bytes:
    buf = io.BytesIO()
    with warnings.catch_warnings(), zipfile.ZipFile(buf, "w", method) as zf:
        warnings.simplefilter("ignore", UserWarning)  # zipfile warns on a repeated name
        for name, data in _pairs(members):
            zf.writestr(name, data)
    return buf.getvalue()


def tar_archive(path: Path, members: Members, mode: str = "w") -> Path:
    """A tar (``mode`` "w:gz", "w:bz2", "w:xz" to compress) with fixed member dates."""
    with tarfile.open(path, mode) as tf:
        for name, data in _pairs(members):
            info = tarfile.TarInfo(name)
            info.size, info.mtime = len(data), 1_700_000_000
            tf.addfile(info, io.BytesIO(data))
    return path


def sevenz_archive(path: Path, members: Mapping[str, bytes], password: str | None = None) -> Path:
    import py7zr

    with py7zr.SevenZipFile(path, "w", password=password) as zf:
        for name, data in members.items():
            zf.writestr(data, name)
    return path


def folder_with_broken_notebook(root: Path) -> Path:
    """data/a.txt, data/sub/b.md, data/broken.ipynb (invalid JSON: fails in the notebook reader)."""
    data = root / "data"
    (data / "sub").mkdir(parents=True)
    (data / "a.txt").write_text("alpha\n")
    (data / "sub" / "b.md").write_text("# B\nbeta\n")
    (data / "broken.ipynb").write_text("{not json")
    return data


def camera_exif(orientation: int = 1) -> Image.Exif:
    """Camera, software, orientation, an Exif sub-IFD (exposure, lens, date) and GPS."""
    exif = Image.Exif()
    exif[271], exif[272], exif[305], exif[274] = (
        "Canon",
        "Canon EOS 5D Mark IV",
        "darktable 4.6",
        orientation,
    )
    sub = exif.get_ifd(0x8769)
    sub.update(
        {
            33434: 1 / 250,
            33437: 2.8,
            34855: 200,
            36867: "2024:01:15 14:30:22",
            42036: "EF24-70mm f/2.8L",
        }
    )
    gps = exif.get_ifd(0x8825)
    gps.update({1: "S", 2: (33.0, 51.0, 54.0), 3: "E", 4: (151.0, 12.0, 36.0)})
    return exif


def jpeg_with_exif(
    path: Path, *, orientation: int = 1, size: tuple[int, int] = (320, 200)
) -> Path:
    """A JPEG carrying ``camera_exif``: a blue block in the top-left corner shows its rotation."""
    img = Image.new("RGB", size, (200, 30, 30))
    ImageDraw.Draw(img).rectangle((0, 0, size[0] // 2, size[1] // 4), fill=(0, 0, 255))
    img.save(path, "JPEG", exif=camera_exif(orientation).tobytes(), quality=90)
    return path
