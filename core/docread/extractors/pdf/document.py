"""PDF: one Document per page with PyMuPDF (content order kept, so columns read column by column),
automatic Tesseract OCR of pages with little text and large pictures (in parallel, in page order;
what it reads beyond the text layer is added under [OCR], the layer itself always kept),
tables and embedded-image listings on request, and pages as JPEG or the raw PDF for vision models.

Pages stream: text is taken page by page and a page is yielded as soon as it (and every page
before it) is done, so a 2,000-page loader run never holds the whole document.
"""

from __future__ import annotations

from collections.abc import Iterator
from functools import partial
from typing import TYPE_CHECKING, Any

from ...errors import EncryptedDocumentError, ExtractionError, ReadDocumentError
from ...model import Document, Media, Unit
from ...request.ranges import compact_spans, select_units
from ..base import Context
from ..deadline import Deadline
from ..markdown import human_size
from ..ocr import OcrResult, Scan, kept_reading, ocr_stream
from .bookmarks import PageStamps, outline_units, usable
from .content import bound_content
from .library import load_pymupdf, page_text, quads_corrected, right_to_left
from .pages import PageMarkdowns
from .parts import form_lines, image_lines, jpeg, ocr_dpi, properties, scan_image, table_markdowns
from .text.flow import paragraphs
from .text.lines import MAX_LINES, visible

if TYPE_CHECKING:
    import pymupdf

    from ...settings import PdfSettings
    from ...source import Source

_HEADER_LABELS = (
    ("title", "Title"), ("author", "Author"), ("subject", "Subject"), ("keywords", "Keywords"),
    ("creator", "Creator"), ("producer", "Producer"), ("created", "Created"),
    ("pdf_modified", "Modified"),
)  # fmt: skip
_SKIPPED = "[OCR limit reached - page skipped]"
_OUTLINE_PATHS = 50  # filled paths on a page without text: probably text drawn as outlines
_ONE = (1.0, 0.0, 0.0, 1.0, 0.0, 0.0)  # get_text's matrix: the page's own coordinates


def extract(source: Source, ctx: Context) -> Iterator[Unit]:
    """The units of a PDF: ``PdfExtractor.extract``'s body, imported on a worker's first PDF."""
    doc = _open(source, ctx)
    try:
        if ctx.options.view == "outline":  # the bookmarks alone, no page read
            yield from outline_units(doc, usable(doc))
            return
        numbers = _select(doc.page_count, ctx)
        ctx.set_header("Document", ctx.info.name)
        ctx.set_header("Pages", f"{compact_spans(numbers)} of {doc.page_count}")
        props = properties(doc) if ctx.options.include_metadata else {}
        base = {
            "page_count": doc.page_count,
            "encrypted": bool((doc.metadata or {}).get("encryption")),
            **props,
        }
        raw = _raw(doc, source, numbers, ctx) if ctx.options.view == "pdf" else None
        if raw is not None:
            yield raw
            return
        if ctx.options.view in ("visual", "pdf"):
            yield from _visual(doc, numbers, ctx, base)
        else:
            yield from _pages(doc, source, numbers, ctx, base)
        if props and not ctx.loader:
            lines = [
                f"\n  - {label}: {props[key]}" for key, label in _HEADER_LABELS if key in props
            ]
            ctx.set_header("Metadata", "".join(lines))
    finally:
        doc.close()


def _open(source: Source, ctx: Context) -> pymupdf.Document:
    """Open (MuPDF repairs what it can), try the empty user password, refuse what stays locked."""
    load_pymupdf()
    import pymupdf

    pymupdf.TOOLS.mupdf_display_errors(False)  # its messages become our typed errors and notes
    where = ctx.info.source
    try:
        if source.in_memory:
            doc = pymupdf.open(stream=source.read_bytes(), filetype="pdf")
        else:
            doc = pymupdf.open(source.fd_path(), filetype="pdf")
    except (pymupdf.FileDataError, RuntimeError, ValueError) as exc:
        raise ExtractionError(
            f"{where}: not a readable PDF and MuPDF could not repair it "
            f"({source.hide_paths(str(exc), where)}); "
            f"check that the file is complete (not truncated) and really a PDF",
            path=where,
        ) from exc
    if doc.needs_pass and not doc.authenticate(""):
        doc.close()
        raise EncryptedDocumentError(
            f"{where}: the PDF is password-protected (it needs a user password to open); "
            f"docread does not take passwords: decrypt it first (e.g. qpdf --decrypt) and read the copy",
            path=where,
        )
    if doc.page_count == 0:
        doc.close()
        raise ExtractionError(f"{where}: the PDF has no pages (damaged beyond repair?)", path=where)
    if doc.is_repaired:
        ctx.warn("The PDF was damaged and has been repaired: some content may be missing.")
    return doc


def _select(count: int, ctx: Context) -> list[int]:
    """The pages asked for (all by default), cut to the agent view's page limit with a hint."""
    numbers = select_units(ctx.options.page_spec, count, path=ctx.info.source, warn=ctx.warn)
    if ctx.loader:
        return numbers
    pdf = ctx.settings.pdf
    key, limit = (
        ("max_visual_pages", pdf.max_visual_pages)
        if ctx.options.view in ("visual", "pdf")
        else ("max_pages_text", pdf.max_pages_text)
    )
    if len(numbers) > limit:
        rest = numbers[limit:]
        ctx.read_on(
            f"pages {compact_spans(numbers[:limit])} of the {len(numbers)} selected (pdf.{key}={limit})",
            f"pages={compact_spans(rest[:limit], ',')}",
        )
        numbers = numbers[:limit]
    return numbers


def _wants_ocr(page: pymupdf.Page, chars: int, threshold: int) -> bool:
    """Too little text layer, and something that may hold text drawn on the page: pictures
    over 5% of its area (a scan) or many filled paths (glyphs turned into outlines). A rule
    line or a small logo alone is not worth a tesseract run."""
    if chars >= threshold:
        return False
    import pymupdf

    area, paths, pictures = abs(page.rect) or 1.0, 0, 0.0
    for kind, rect in page.get_bboxlog():
        if kind in ("fill-image", "fill-imgmask"):
            pictures += abs(pymupdf.Rect(rect) & page.rect)
        elif kind == "fill-path":
            paths += 1
    return pictures >= 0.05 * area or paths >= _OUTLINE_PATHS


def _plain_text(page: pymupdf.Page) -> str:
    """``page_text(page)``: the text page made and printed by the C calls ``get_text()`` makes,
    without its Python around them (a crop box only other formats use, a TextPage object, a
    weak reference: 4 % of ``get_text()`` on the corpus PDFs), unrotated as it reads a page; a
    right-to-left page (rare) read again by ``page_text``, its ``rawdict`` from its own flags."""
    pymupdf = load_pymupdf()
    rotation = page.rotation
    if rotation:
        page.set_rotation(0)
    try:
        made = pymupdf.extra.page_get_textpage(page.this, None, pymupdf.TEXTFLAGS_TEXT, _ONE)
    finally:
        if rotation:
            page.set_rotation(rotation)
    stext, out = pymupdf.mupdf.FzStextPage(made), pymupdf.mupdf.fz_new_buffer(1024)
    pymupdf.extra.JM_print_stext_page_as_text(out, stext)
    text: str = pymupdf.JM_EscapeStrFromBuffer(out)
    return page_text(page) if right_to_left(text) else text  # its ligatures rebuilt


def _counted(text: str, threshold: int) -> int:
    """``visible(text)``, or what its head counts when that reaches ``threshold``: the OCR test
    only asks whether a page has that much text, and a page of text is not counted through."""
    head = visible(text[: 4 * threshold])
    return head if head >= threshold else visible(text)


def _pages(
    doc: pymupdf.Document, source: Source, numbers: list[int], ctx: Context, base: dict[str, Any]
) -> Iterator[Unit]:
    """Page Documents in order; scanned pages go through OCR in parallel while text pages wait.
    With ``pdf.structure`` on, a page's text is its markdown (pages.py) and its metadata has
    the heading path in force where it starts; the agent's text view keeps each paragraph's
    lines (line-oriented), loaders and ``output_format="markdown"`` get them joined."""
    opts, pdf = ctx.options, ctx.settings.pdf
    lines_kept = not ctx.loader and opts.output_format != "markdown"
    held: dict[int, tuple[pymupdf.Page, str, bool, list[tuple[int, str]] | None]] = {}
    marked = None
    if pdf.structure != "off":
        file = (ctx.info.path, ctx.info.size, ctx.info.modified)
        marked = PageMarkdowns(
            doc, pdf.structure, ctx.settings.output, pdf, lines_kept=lines_kept, file=file
        )
        if marked.survey.outline_lost:
            ctx.warn(
                f"The PDF's outline could not be used ({marked.survey.outline_lost}); "
                f"headings come from the pages' fonts instead."
            )
    skipped: list[int] = []
    unsearched: list[int] = []  # pages over the table budget: their text only
    plain: list[int] = []  # pages of more lines than a printed page: their plain text only
    read = marked.survey.outline if marked is not None else None  # the outline walked once
    stamps = PageStamps(entries) if ctx.loader and (entries := usable(doc, read)) else None

    def items() -> Iterator[tuple[int, Scan | None]]:
        # timed, not interrupted: a page over it stops the read after that page, with a hint
        page_time = Deadline(ctx.info.source, pdf.per_page_timeout, "timeouts.pdf_per_page")
        slow = False
        for i, n in enumerate(numbers):
            if slow:
                ctx.warn(
                    f"Page {numbers[i - 1]}: its text took longer than {page_time.describe()}; "
                    f"the pages after it were not read (use pages={n}- to go on)."
                )
                return
            ctx.check_deadline(f"page {n}")
            page = doc.load_page(n - 1)  # n is in range: no checks again
            if marked.bound(page) if marked is not None else bound_content(doc, page, pdf.max_page_content):
                ctx.warn(
                    f"Page {n}: its content streams decode to more than pdf.max_page_content="
                    f"{pdf.max_page_content:,} bytes; only the first {pdf.max_page_content:,} "
                    f"were read (the page's text may be incomplete)."
                )
            page_time.restart()
            md = marked.page(page) if marked is not None else None
            if md is None:
                with quads_corrected(False):  # the same text, ~8 % cheaper (library.py)
                    text, found = _plain_text(page), None
                chars = _counted(text, pdf.ocr_text_threshold)
            else:  # the text layer's characters, not the markdown's marks and placeholders
                text, found, chars = md.text, md.headings, md.chars
                page_time.extend(md.waited)  # another thread's turn is not this page's time
                if md.tables_skipped:
                    unsearched.append(n)
                if md.plain:
                    plain.append(n)
            slow = page_time.expired()
            scanned = _wants_ocr(page, chars, pdf.ocr_text_threshold)
            held[n] = (page, text, scanned, found)
            if not (opts.ocr or (scanned and opts.ocr is None)):
                yield n, None
            elif not ctx.loader and ctx.budget.ocr_pages >= pdf.max_pages_ocr:
                skipped.append(n)
                yield n, None
            else:
                ctx.budget.ocr_pages += 1
                dpi, hide = ocr_dpi(page, pdf.ocr_dpi, pdf.ocr_max_dpi), not opts.ocr
                facts = {  # what the render depends on: a page over the content cap is cut first
                    "page": n, "dpi": dpi, "hide_text": hide, "mupdf": load_pymupdf().version,
                    "content_cap": pdf.max_page_content,
                }  # fmt: skip
                yield n, Scan(source, facts, partial(scan_image, page, dpi, hide_text=hide))

    ocr_pages: list[int] = []
    no_layer: list[int] = []
    form = bool(doc.is_form_pdf)  # a document property MuPDF works out anew on each call
    try:
        for n, result in ocr_stream(items(), ctx, what="OCR of page"):
            page, text, scanned, found = held.pop(n)
            meta: dict[str, Any] = {"page_number": n, **base, "ocr": False}
            if marked is not None:
                meta["headings"] = marked.headings_at(n, found)
            if stamps is not None:
                meta.update(stamps.of(n))
            if isinstance(result, OcrResult) and result.skipped:
                pass  # noise, not text: the OCR engine said so in a note; the text layer stays
            elif isinstance(result, OcrResult):
                text = _with_ocr(
                    n, text, result, meta, ctx, joined=marked is not None and not lines_kept
                )
                if meta["ocr"]:
                    ocr_pages.append(n)
            elif isinstance(result, ReadDocumentError):
                ctx.warn(
                    f"Page {n}: OCR failed ({result.message}); its text layer is shown instead."
                )
                text = f"{text.strip()}\n\n[OCR failed - page not read]".strip()
            elif n in skipped:
                text = f"{text.strip()}\n\n{_SKIPPED}".strip()
            elif scanned and opts.ocr is False:
                no_layer.append(n)
            yield from _page_units(
                doc, page, text, meta, ctx, in_place=found is not None, form=form
            )
            if scanned and opts.view == "auto":
                yield _visual_part(page, ctx, base)
    finally:
        if marked is not None:
            marked.close()
    if ocr_pages:
        why = "forced by ocr=true" if opts.ocr else "scanned"
        ctx.set_header(
            "OCR Applied",
            f"Page{'s' if len(ocr_pages) > 1 else ''} {compact_spans(ocr_pages)} ({why})",
        )
    if skipped:
        ctx.warn(
            f"OCR limit reached: at most {pdf.max_pages_ocr} pages are OCR'd per read "
            f"(pdf.max_pages_ocr); pages {compact_spans(skipped)} were not OCR'd: read them with "
            f"pages={compact_spans(skipped[: pdf.max_pages_ocr], ',')}."
        )
    if unsearched:
        where = f"Page{'s' if len(unsearched) > 1 else ''} {compact_spans(unsearched)}"
        ctx.warn(
            _over_budget(where, pdf, "the text is complete, but ruled tables were not looked for")
        )
    if plain:
        ctx.warn(
            f"Page{'s' if len(plain) > 1 else ''} {compact_spans(plain)}: more than "
            f"{MAX_LINES:,} lines of text (no printed page): read as plain text, its headings, "
            f"tables and columns not looked for."
        )
    if no_layer:
        ctx.warn(
            f"Pages {compact_spans(no_layer)} have no text layer and OCR is off (ocr=false): use ocr=true."
        )


def _over_budget(where: str, pdf: PdfSettings, lost: str) -> str:
    """The note for pages over the table budget (tables.over_budget)."""
    return (
        f"{where}: more drawn paths than pdf.table_max_paths={pdf.table_max_paths:,} or a "
        f"text pass over pdf.table_max_seconds={pdf.table_max_seconds:g} s: {lost}."
    )


def _with_ocr(
    n: int, text: str, result: OcrResult, meta: dict[str, Any], ctx: Context, *, joined: bool
) -> str:
    """The page text with what OCR adds: the text layer always stays; OCR lines under
    ``pdf.ocr_min_confidence`` are dropped (a note says so), and on a page with a text layer
    only lines with words the layer lacks are added, under an ``[OCR]`` line. ``joined``
    (structure on): the lines of each paragraph Tesseract found are joined into one."""
    floor = ctx.settings.pdf.ocr_min_confidence
    kept = kept_reading(result, floor, meta)
    if not result.lines:
        if not visible(text):
            ctx.warn(f"Page {n}: OCR found no text on this page.")
        return text
    if not kept.lines:
        ctx.warn(
            f"OCR of page {n} discarded: {result.under(floor)} (pdf.ocr_min_confidence); "
            f"{'its text layer is kept' if visible(text) else 'no text indexed'}."
        )
        return text
    dropped = meta.get("ocr_dropped_words")
    if dropped:
        ctx.warn(
            f"Page {n}: {dropped} OCR word(s) under confidence {floor:g} left out "
            f"(pdf.ocr_min_confidence)."
        )
    shown = paragraphs if joined else str
    if not visible(text):
        return shown(kept.text)
    added = kept.beyond(text)
    return f"{text.strip()}\n\n[OCR]\n{shown(added.text)}" if added.lines else text


def _page_units(
    doc: pymupdf.Document,
    page: pymupdf.Page,
    text: str,
    meta: dict[str, Any],
    ctx: Context,
    *,
    in_place: bool,
    form: bool,
) -> Iterator[Unit]:
    """The page Document (text, image listing, ``form`` fields, tables after the text in the
    agent view unless they are ``in_place`` already) and, in loader mode, each table as its own
    Document."""
    opts = ctx.options
    parts = [text.strip(), "\n".join(form_lines(page)) if form else ""]
    if opts.extract_images:
        lines = image_lines(doc, page)
        meta["image_count"] = len(lines)
        parts.append("\n".join(lines))
    tables = (
        table_markdowns(page, ctx.settings.output, ctx.settings.pdf) if opts.extract_tables else []
    )
    if tables is None:
        pdf = ctx.settings.pdf
        ctx.warn(_over_budget(f"Page {meta['page_number']}", pdf, "tables were not extracted"))
        tables = []
    if opts.extract_tables:
        meta["table_count"] = len(tables)
    if not ctx.loader and not in_place:
        parts.extend(tables)
    yield Document("\n\n".join(p for p in parts if p), meta)
    if ctx.loader:
        n, count = meta["page_number"], meta["page_count"]
        for index, table in enumerate(tables, 1):
            yield Document(table, {"page_number": n, "page_count": count, "table_index": index})


def _visual_part(page: pymupdf.Page, ctx: Context, base: dict[str, Any]) -> Media:
    """One page as a JPEG Media part at ``pdf.render_dpi``, under ``pdf.max_image_bytes``."""
    pdf = ctx.settings.pdf
    data, facts = jpeg(page, pdf.render_dpi, pdf.max_image_bytes)
    return Media(
        "image/jpeg",
        data,
        {"page_number": page.number + 1, "page_count": base["page_count"], **facts},
    )


def _visual(
    doc: pymupdf.Document, numbers: list[int], ctx: Context, base: dict[str, Any]
) -> Iterator[Unit]:
    """view="visual": the selected pages as JPEG Media parts for a vision model."""
    for n in numbers:
        ctx.check_deadline(f"page {n}")
        yield _visual_part(doc[n - 1], ctx, base)
    ctx.set_header(
        "View", f"visual: {len(numbers)} page image(s), JPEG at {ctx.settings.pdf.render_dpi} dpi"
    )


def _raw(doc: pymupdf.Document, source: Source, numbers: list[int], ctx: Context) -> Media | None:
    """view="pdf": the PDF itself (only the selected pages, at most ``pdf.max_visual_pages``), or
    None with a note when it is over ``pdf.max_raw_bytes`` (the pages go as images instead)."""
    import pymupdf

    limit, count = ctx.settings.pdf.max_raw_bytes, doc.page_count
    if len(numbers) == count:
        size = source.size
        data = source.read_bytes() if size <= limit else b""
    else:
        with pymupdf.open() as part:
            for n in numbers:
                part.insert_pdf(doc, from_page=n - 1, to_page=n - 1)
            data = part.tobytes(garbage=3, deflate=True)
        size = len(data)
    if size > limit:
        ctx.warn(
            f"view='pdf': {human_size(size)} of PDF is over pdf.max_raw_bytes={limit:,}: the "
            f"pages are sent as images instead (at most pdf.max_visual_pages)."
        )
        return None
    ctx.set_header("Size", human_size(size))
    ctx.set_header("View", "pdf: the PDF file itself, for a model that reads PDFs")
    return Media(
        "application/pdf", data, {"page_count": count, "pages": compact_spans(numbers, ",")}
    )
