"""The structure pass over one PDF (``pdf.structure``): each page's markdown and the heading path
in force where a page starts (the ``headings`` metadata).

Every page is read once: the survey's readings serve the pages it sampled (all of a document of
20 pages or fewer), a page is analysed once (``structure.analyse``) whoever needs it first (its
read, or the heading path of a later page), and the heading path comes from the headings of
pages already analysed, never by reading earlier pages again. The parts of a split read in one
process share this (``_Document``, kept for the last few documents). ``pdf.structure: layout``
reads each page through PyMuPDF's layout model instead (``_layout_page``)."""

from __future__ import annotations

import contextlib
import io
import re
import threading
import time
from collections import OrderedDict
from collections.abc import Hashable, Iterable
from dataclasses import field
from typing import TYPE_CHECKING

from ...model import collector_paused, dataclass
from ...sanitize import lazy_pattern
from .content import bound_content
from .library import layout_model, quads_corrected
from .structure import PageMarkdown, PageModel, analyse
from .survey import Survey, survey
from .text.lines import PageText, visible
from .text.reading import read_page, with_pictures

if TYPE_CHECKING:
    import pymupdf

    from ...settings import OutputSettings, PdfSettings

_HEADING = lazy_pattern(r"^(#{1,6})\s+(.+?)\s*$", re.MULTILINE)
_EMPHASIS = lazy_pattern(r"\*\*|__")
_KEPT = 8  # documents whose survey and page headings a process keeps
_LOCK = threading.Lock()
_LAYOUT = threading.Lock()  # pymupdf4llm, a page at a time: its stdout's redirect is process-wide


@dataclass(slots=True)
class _Document:
    """One document's shared state: its survey, the readings and page models not handed out
    yet, the headings of every page analysed, and how many reads use it (the readings are
    dropped when the last one ends)."""

    survey: Survey
    models: dict[int, PageModel] = field(default_factory=dict)
    heads: dict[int, list[tuple[int, str]]] = field(default_factory=dict)
    users: int = 0


_DOCUMENTS: OrderedDict[Hashable, _Document] = OrderedDict()


class PageMarkdowns:
    """Markdown pages of ``doc`` by ``mode`` ("auto": text geometry; "layout": the layout model);
    ``lines_kept``: paragraphs keep the page's line breaks (the agent's text view); ``file``:
    what names the file and its version (the parts of a split read share its state)."""

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
        self.state, fresh = _document(doc, pdf, file)
        self.survey = self.state.survey
        self.guarded = set(self.survey.read) if fresh else set()  # bounded by the survey, in doc
        self.path: list[tuple[int, str]] = []
        self.next = 1  # the page self.path is the start of
        self.outline: list[list[str]] = []  # with an outline: the path where each page starts
        path: list[tuple[int, str]] = []
        entries = sum(len(found) for found in self.survey.toc.values())
        for n in range(doc.page_count if entries > 1 else 0):  # one entry: the title, no sections
            self.outline.append([t for _, t in path])
            path = fold(path, self.survey.toc.get(n, ()))

    def close(self) -> None:
        """This read is done: the last read of the document drops its unused readings."""
        with _LOCK:
            self.state.users -= 1
            if self.state.users <= 0:
                self.state.survey.read.clear()
                self.state.survey.unpictured.clear()
                self.state.models.clear()

    def bound(self, page: pymupdf.Page) -> bool:
        """Cut the page's content at ``pdf.max_page_content`` (content.bound_content): whether
        it was cut, now or by the survey. A page the survey sampled in this very document was
        bounded then (bounding it again cuts nothing: the survey's answer is the answer)."""
        if page.number in self.guarded:
            return page.number in self.survey.cut
        return bound_content(self.doc, page, self.cap) or page.number in self.survey.cut

    @collector_paused()  # a page's lines, blocks and markdown: many objects, no cycle to find
    def page(self, page: pymupdf.Page) -> PageMarkdown:
        """One page's markdown and its headings."""
        if self.mode == "layout":
            return _layout_page(self.doc, page)
        with _LOCK:
            model = self.state.models.pop(page.number, None)
            reading = self.survey.read.pop(page.number, None) if model is None else None
        if model is None:
            reading = reading or read_page(page, self.survey.max_paths)
            if reading.plain is not None:  # no printed page: its text, not its structure
                with _LOCK:
                    self.state.heads[page.number] = []
                return PageMarkdown(reading.plain, [], reading.chars, plain=True)
            model = self._analysed(page.number, reading, page)
        return model.markdown(lines_kept=self.lines_kept)

    @collector_paused()  # as ``page``: also reached from ``headings_at``
    def _analysed(self, number: int, text: PageText, page: pymupdf.Page | None = None) -> PageModel:
        """The page's model, from its reading (a survey's reading gets its pictures first)."""
        with _LOCK:
            unpictured = number in self.survey.unpictured
            self.survey.unpictured.discard(number)
        if unpictured:
            text = with_pictures(page if page is not None else self.doc[number], text)
        model = analyse(text, number, self.survey, self.output)
        with _LOCK:
            self.state.heads[number] = model.headings
        return model

    def headings_at(self, number: int, found: list[tuple[int, str]] | None) -> list[str]:
        """The heading path at the start of page ``number`` (1-based), then moved past the
        page's own ``found`` headings. From the outline when the PDF has one (more than its
        title: an outline of one entry says nothing of the sections); else from the
        headings of the pages before, as far as they were analysed (by this read, another
        part of it, or from the survey's readings: never read again), back to a page with a
        level-1 heading (it resets the path); none when the survey saw no heading style."""
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
        """The path at page ``number`` from the path at ``self.next`` and the pages between
        that were analysed (the survey's readings are analysed here, for their read)."""
        pages: list[list[tuple[int, str]]] = []
        base = self.path
        for n in range(number - 2, self.next - 2, -1):  # 0-based, backwards
            with _LOCK:
                heads = self.state.heads.get(n)
                reading = self.survey.read.get(n) if heads is None else None
                if reading is not None and reading.plain is not None:
                    heads, reading = [], None  # a plain page heads nothing (its read takes it)
                elif reading is not None:
                    del self.survey.read[n]
            if heads is None and reading is not None:
                model = self._analysed(n, reading)
                with _LOCK:
                    self.state.models[n] = model  # its own read takes it from here
                heads = model.headings
            if heads is None:
                continue  # not read by anyone: not read now either
            pages.append(heads)
            if any(level == 1 for level, _ in heads):
                base = []  # everything before a level-1 heading is replaced by it
                break
        return fold(base, (h for found in reversed(pages) for h in found))


def _document(doc: pymupdf.Document, pdf: PdfSettings, file: Hashable) -> tuple[_Document, bool]:
    """The document's shared state, made once per process for ``file`` (and its page and
    object counts): the parts of a split read in one process would each survey it again; and
    whether it was made now (surveyed in ``doc``)."""
    key = (
        None if file is None
        else (file, doc.page_count, doc.xref_length(), pdf.max_page_content,
              pdf.table_max_paths, pdf.table_max_seconds)
    )  # fmt: skip
    with _LOCK:
        known = _DOCUMENTS.get(key) if key is not None else None
        if known is not None:
            known.users += 1
            _DOCUMENTS.move_to_end(key)
            return known, False
    state = _Document(survey(doc, pdf.max_page_content, pdf.table_max_paths, pdf.table_max_seconds))
    state.users = 1
    if key is not None:
        with _LOCK:
            _DOCUMENTS[key] = state
            while len(_DOCUMENTS) > _KEPT:
                _DOCUMENTS.popitem(last=False)
    return state, True


def _layout_page(doc: pymupdf.Document, page: pymupdf.Page) -> PageMarkdown:
    """The page through ``pymupdf4llm.to_markdown`` with PyMuPDF's layout model (ONNX weights
    shipped with ``pymupdf_layout``, loaded on the first page that needs it; no OCR: docread's
    own OCR decides that; running headers/footers left out), its headings read back from its
    ``#`` lines."""
    asked = time.monotonic()
    model = layout_model()
    quiet = contextlib.redirect_stdout(io.StringIO())  # it prints parser messages
    with _LAYOUT, quads_corrected(False), quiet:  # as pymupdf4llm means it (its import's setting)
        waited = time.monotonic() - asked  # the model's import, another thread's page: not its own
        text = model.to_markdown(
            doc, pages=[page.number], use_ocr=False, header=False, footer=False,
            show_progress=False,
        )  # fmt: skip
    text = text.strip()
    headings = [
        (min(len(m.group(1)), 4), " ".join(_EMPHASIS.sub("", m.group(2)).split()))
        for m in _HEADING.finditer(text)
    ]
    return PageMarkdown(text, headings, visible(page.get_text()), waited=waited)


def fold(path: list[tuple[int, str]], headings: Iterable[tuple[int, str]]) -> list[tuple[int, str]]:
    """The heading path after ``headings``: each replaces those of its level and below."""
    out = list(path)
    for level, title in headings:
        while out and out[-1][0] >= level:
            out.pop()
        out.append((level, title))
    return out
