"""The structure pass over one PDF (``pdf.structure``): each page's markdown and the heading path
in force where a page starts (the ``headings`` metadata), the same whether the page is read
alone, in a split read or with the whole file."""

from __future__ import annotations

from typing import TYPE_CHECKING

from .lines import survey
from .structure import PageMarkdown, fold, page_markdown

if TYPE_CHECKING:
    import pymupdf

    from ...settings import OutputSettings


class PageMarkdowns:
    """Markdown pages of ``doc`` by ``mode`` ("auto": text geometry; "layout": the layout model)."""

    def __init__(
        self, doc: pymupdf.Document, mode: str, output: OutputSettings, content_cap: int
    ) -> None:
        self.doc, self.mode, self.output = doc, mode, output
        self.survey = survey(doc, content_cap)
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
        return page_markdown(page, self.survey, self.output)

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
            pages.append(self.page(self.doc[n - 1]).headings)
            if any(level == 1 for level, _ in pages[-1]):
                base = []  # everything before a level-1 heading is replaced by it
                break
        return fold(base, (h for found in reversed(pages) for h in found))
