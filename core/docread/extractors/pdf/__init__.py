"""PDF: page text, tables, OCR of scanned pages, page images and raw PDF parts.

The extractor's facts live here, apart from the engine (``document.py``: PyMuPDF, OCR, the
structure passes), so the host learns that a PDF is read in a worker, and the version its cache
key names, without importing the engine (0.1-0.2 s of a cold start's critical path)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING, ClassVar

from ..base import Context, Extractor

if TYPE_CHECKING:
    from ...model import Unit
    from ...source import Source


class PdfExtractor(Extractor):
    """PDF pages as Documents (text or OCR), plus Media parts for the visual and pdf views."""

    name: ClassVar[str] = "pdf"
    options: ClassVar[frozenset[str]] = frozenset(
        {"pages", "view", "extract_images", "extract_tables", "ocr"}
    )
    # 5: view="outline" is one listing unit (bookmarks.py); 6: the structure engine's rules from
    # the extra2 real pages (headings, unruled grids, leaders): a result cached before is stale;
    # 7: heading colours, diagram and form labels, date lines, OCR layers, column run-ons
    # 8: extra3's table and margin-note rules; 9: extra4's paper tables, run-in heads and column
    # rules, a content-bomb page read as plain text with a note; 10: extra5's code listings,
    # description terms and label grids, pages read with PyMuPDF's quad corrections pinned on;
    # 11: extra6's run-in label stops, column joins, lettered and numbered items, proof marks
    # 12: unruled tables cut at column gaps, page columns side by side, keyed rows' wraps
    # 13: extra7's paragraph rules, two-row tables, cells' marks and bullets, scripts in place
    # 14: extra8's hanging references, script-size lines and items; extra9's invoice grids
    # 15: headings checked against outlines (CJK, note labels, bylines), a short last line over
    # a gutter, turned pages as shown, tables of rules across only, '#' escaped in text
    # 16: a row's value read with its row, bill tables, definition terms, FAQ answers, nested
    # items, bylines with an initial, a chapter's number needed after its word
    # 17: codes, fields, rows' labels, release lines and starred bylines no headings, appendix
    # numbers and small named parts headings, pages turned for display read as stored, a size-
    # parted last line kept, the table budget in the reading thread's CPU
    # 18: bylines of initialed names and a bill's '#' number no headings, an OCR layer's numbered
    # side heads (not its contents entries), items' set-back wraps, CJK wraps with no space, a
    # page whose rawdict PyMuPDF cannot build read with dict's text
    version: ClassVar[int] = 18
    cacheable: ClassVar[bool] = True
    isolated: ClassVar[bool] = True

    def extract(self, source: Source, ctx: Context) -> Iterator[Unit]:
        from .document import extract

        return extract(source, ctx)
