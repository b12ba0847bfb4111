"""``pdf.structure: layout``: a page's markdown from PyMuPDF's layout model (``pymupdf4llm``,
ONNX weights shipped with ``pymupdf_layout``), loaded on the first page that needs it."""

from __future__ import annotations

import contextlib
import io
import re
from typing import TYPE_CHECKING

from .library import layout_model
from .lines import visible
from .structure import PageMarkdown

if TYPE_CHECKING:
    import pymupdf

_HEADING = re.compile(r"^(#{1,6})\s+(.+?)\s*$", re.MULTILINE)
_EMPHASIS = re.compile(r"\*\*|__")


def layout_page(doc: pymupdf.Document, page: pymupdf.Page) -> PageMarkdown:
    """The page through ``pymupdf4llm.to_markdown`` (no OCR: docread's own OCR decides that;
    running headers/footers left out), its headings read back from its ``#`` lines."""
    model = layout_model()
    with contextlib.redirect_stdout(io.StringIO()):  # it prints parser messages
        text = model.to_markdown(
            doc, pages=[page.number], use_ocr=False, header=False, footer=False,
            show_progress=False,
        )  # fmt: skip
    text = text.strip()
    headings = [
        (min(len(m.group(1)), 4), " ".join(_EMPHASIS.sub("", m.group(2)).split()))
        for m in _HEADING.finditer(text)
    ]
    return PageMarkdown(text, headings, visible(page.get_text()))
