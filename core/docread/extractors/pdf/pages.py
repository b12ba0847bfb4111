"""The structure pass over one PDF (``pdf.structure``): each page's markdown and the heading path
in force where a page starts (the ``headings`` metadata), the same whether the page is read
alone, in a split read or with the whole file."""

from __future__ import annotations

import dataclasses
import threading
from collections import OrderedDict
from collections.abc import Hashable
from typing import TYPE_CHECKING

from .content import bound_content
from .lines import Survey, survey
from .structure import PageMarkdown, fold, page_markdown

if TYPE_CHECKING:
    import pymupdf

    from ...settings import OutputSettings, PdfSettings

_SURVEYS: OrderedDict[Hashable, Survey] = OrderedDict()  # the last few documents' surveys
_KEPT = 8
_LOCK = threading.Lock()


class PageMarkdowns:
    """Markdown pages of ``doc`` by ``mode`` ("auto": text geometry; "layout": the layout model);
    ``lines_kept``: paragraphs keep the page's line breaks (the agent's text view); ``file``:
    what names the file and its version (the parts of a split read share its survey)."""

    def __init__(
        self,
        doc: pymupdf.Document,
        mode: str,
        output: OutputSettings,
        pdf: PdfSettings,
        *,
        lines_kept: bool = False,
        file: Hashable = None,
    ) -> None:
        self.doc, self.mode, self.output, self.lines_kept = doc, mode, output, lines_kept
        self.cap = pdf.max_page_content
        self.survey = _survey(doc, pdf, file)
        self.path: list[tuple[int, str]] = []
        self.next = 1  # the page self.path is the start of
        self.outline: list[list[str]] = []  # with an outline: the path where each page starts
        path: list[tuple[int, str]] = []
        for n in range(doc.page_count if self.survey.toc else 0):
            self.outline.append([t for _, t in path])
            path = fold(path, self.survey.toc.get(n, ()))

    def was_cut(self, page: pymupdf.Page) -> bool:
        """Whether the survey cut the page's content (at ``content_cap``)."""
        return page.number in self.survey.cut

    def page(self, page: pymupdf.Page) -> PageMarkdown:
        """One page's markdown and its headings."""
        if self.mode == "layout":
            from .layout import layout_page

            return layout_page(self.doc, page)
        return page_markdown(page, self.survey, self.output, lines_kept=self.lines_kept)

    def headings_at(self, number: int, found: list[tuple[int, str]] | None) -> list[str]:
        """The heading path at the start of page ``number`` (1-based), then moved past the
        page's own ``found`` headings. From the outline when the PDF has one; else from the
        headings of the pages before, which a read that did not start at page 1 reads here,
        backwards, down to a page with a level-1 heading (it resets the path); none when the
        survey saw no heading style at all."""
        if self.outline:
            return self.outline[number - 1]
        if number < self.next:
            self.path, self.next = [], 1
        if number > self.next and self.survey.headed:
            self.path = self._path_before(number)
        start = [t for _, t in self.path]
        self.path = fold(self.path, found or [])
        self.next = number + 1
        return start

    def _path_before(self, number: int) -> list[tuple[int, str]]:
        """The path at page ``number`` from the path at ``self.next`` and the pages between."""
        pages: list[list[tuple[int, str]]] = []
        base = self.path
        for n in range(number - 1, self.next - 1, -1):
            page = self.doc[n - 1]
            bound_content(self.doc, page, self.cap)  # not a page of this read: not cut yet
            pages.append(self.page(page).headings)
            if any(level == 1 for level, _ in pages[-1]):
                base = []  # everything before a level-1 heading is replaced by it
                break
        return fold(base, (h for found in reversed(pages) for h in found))


def _survey(doc: pymupdf.Document, pdf: PdfSettings, file: Hashable) -> Survey:
    """The document's survey, made once per process for ``file`` (and its page and object
    counts): the parts of a split read in one process would each read its 40 sampled pages
    again. The pages it read are handed out to the read that made it only."""
    key = (
        None if file is None
        else (file, doc.page_count, doc.xref_length(), pdf.max_page_content,
              pdf.table_max_paths, pdf.table_max_seconds)
    )  # fmt: skip
    with _LOCK:
        known = _SURVEYS.get(key) if key is not None else None
    if known is not None:
        return dataclasses.replace(known, read={})
    found = survey(doc, pdf.max_page_content, pdf.table_max_paths, pdf.table_max_seconds)
    if key is not None:
        with _LOCK:
            _SURVEYS[key] = dataclasses.replace(found, read={})
            while len(_SURVEYS) > _KEPT:
                _SURVEYS.popitem(last=False)
    return found
