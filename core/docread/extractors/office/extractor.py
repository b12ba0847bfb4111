"""Office documents and e-books, one opener per format (``Format.opener``): DOCX, ODT and EPUB
read in-process from the package XML (``wordml``, ``odfml``, ``epub``), pandoc for what it alone
renders well; every RTF through pandoc; PPTX and ODP from their XML (slide boundaries and speaker
notes kept); legacy DOC through antiword.

What pandoc drops is read from the package: headers and footers (``headers``), DOCX comments;
RTF header/footer groups and ODT frames are moved where pandoc reads them first (``convert``).

Units: slides for decks; for documents explicit page breaks when there are any (else heading 1/2
sections), EPUB chapters. ``pages`` selects among those units and the header says which unit it
was. Zip containers pass bomb and XML-entity checks before any parser sees them.
"""

from __future__ import annotations

import contextlib
import mimetypes
import posixpath
import tempfile
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import Any, ClassVar

from ...errors import EncryptedDocumentError, ExtractionError
from ...formats import BY_KEY
from ...model import Document, Media, Unit
from ...request.ranges import compact_spans, select_units
from ...source import Source
from ..base import Context, Extractor, load_object
from ..html.tables import html_tables
from ..markdown import TableCaps
from ..properties import document_properties
from .comments import docx_comments
from .convert.marks import docx_marks, odt_marks
from .convert.pandoc import antiword, pandoc
from .convert.parts import Part, blank_headers, split_chapters, split_pages, split_sections
from .convert.rtf import RTF_MAX_DEPTH, rtf_markdown, rtf_too_deep
from .convert.rtf_codepages import decode_codepages
from .epub import epub_markdown, epub_spine, spine_once
from .headers import docx_headers, odt_headers
from .meta import (
    epub_images,
    epub_metadata,
    odf_metadata,
    ooxml_metadata,
    rtf_metadata,
)  # fmt: skip
from .odfml import needs_pandoc_odf, odt_markdown
from .package import OfficeZip
from .slides import OdpDeck, PptxDeck
from .wordml import docx_markdown, needs_pandoc

_OLE2 = b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1"
_ENCRYPTED_PACKAGE = "EncryptedPackage".encode("utf-16-le")
_VISION_TYPES = ("image/png", "image/jpeg", "image/gif", "image/webp", "image/bmp", "image/tiff")
# unit kind -> (header label, number key, count key, title key)
_KINDS = {
    "page": ("Pages", "page_number", "page_count", ""),
    "section": ("Sections", "section_index", "section_count", "section_title"),
    "chapter": ("Chapters", "chapter", "chapter_count", "chapter_title"),
    "slide": ("Slides", "slide_number", "slide_count", "slide_title"),
}
_UNIT_NOTES = {
    "page": "explicit page breaks",
    "section": "no page breaks: sections by heading 1/2",
    "chapter": "EPUB chapters",
}


class OfficeExtractor(Extractor):
    """Word processing files, slide decks and e-books to markdown, one unit per page/section/slide."""

    name: ClassVar[str] = "office"
    options: ClassVar[frozenset[str]] = frozenset({"pages", "extract_images"})
    version: ClassVar[int] = 7  # 6: titles, numbering, charts, comments, header tables, RTF rows;
    # 7: sections split by the outline's heading reading
    cacheable: ClassVar[bool] = True
    isolated: ClassVar[bool] = True

    def extract(self, source: Source, ctx: Context) -> Iterator[Unit]:
        fmt = ctx.info.format
        if source.head().startswith(_OLE2):  # legacy container: a .doc, or encrypted OOXML
            if _ENCRYPTED_PACKAGE in source.read_bytes():
                raise EncryptedDocumentError(
                    f"{ctx.info.source}: a password-protected (encrypted) Office file; remove "
                    f"the password and retry",
                    path=ctx.info.source,
                )
            fmt = "doc"
        reader: SubReader = load_object(BY_KEY[fmt].opener)  # the format table names it
        with tempfile.TemporaryDirectory(prefix="docread-office-") as tmp:
            yield from reader(source, ctx, Path(tmp))


SubReader = Callable[[Source, Context, Path], Iterator[Unit]]


def read_doc(source: Source, ctx: Context, work: Path) -> Iterator[Unit]:
    """Legacy .doc through antiword."""
    ctx.warn(
        "Legacy .doc has limited support (antiword): headings, tables and lists come "
        "out as plain text, images and comments are dropped; save as .docx for more."
    )
    yield from _units(ctx, antiword(source.as_path(), ctx), {}, None, {})


def read_rtf(source: Source, ctx: Context, work: Path) -> Iterator[Unit]:
    """RTF through pandoc, refused first when its groups nest deeper than pandoc can afford."""
    data = source.read_bytes()
    if rtf_too_deep(data):  # refused before pandoc, whose memory grows with depth
        raise ExtractionError(
            f"{ctx.info.source}: RTF groups are nested more than {RTF_MAX_DEPTH:,} "
            f"deep (the RTF reader's limit, RTF_MAX_DEPTH); the file is not read",
            path=ctx.info.source,
        )
    markdown = rtf_markdown(data, ctx, work)
    # the {\info} fields' \'hh bytes in their font's code page, as the body's
    yield from _units(ctx, markdown, rtf_metadata(decode_codepages(data[:65536])), None, {})


# -- DOCX, ODT, EPUB: one opener each (Format.opener) ----------------------------------------
def read_docx(source: Source, ctx: Context, work: Path) -> Iterator[Unit]:
    """DOCX: word/document.xml read in-process (pandoc for what it alone renders well:
    equations, tracked changes, altChunk), then headers and footers, comments, word/media/."""
    with _package(source, ctx) as oz:
        meta = ooxml_metadata(oz)

        def in_process() -> str | None:
            return None if needs_pandoc(oz.read("word/document.xml")) else docx_markdown(oz, ctx)

        markdown = _body(oz, ctx, work, "docx", in_process, docx_marks)
        markdown += _section("", docx_headers(oz, TableCaps.of(ctx)))
        if comments := docx_comments(oz):
            markdown += _section("## Comments\n\n", "\n".join(f"- {c}" for c in comments))
        yield from _units(ctx, markdown, meta, oz, _named(oz, "word/media/"))


def read_odt(source: Source, ctx: Context, work: Path) -> Iterator[Unit]:
    """ODT: content.xml read in-process (pandoc for formulas and embedded objects), then
    headers and footers, Pictures/."""
    with _package(source, ctx) as oz:
        meta = odf_metadata(oz)

        def in_process() -> str | None:
            return None if needs_pandoc_odf(oz) else odt_markdown(oz, ctx)

        markdown = _body(oz, ctx, work, "odt", in_process, odt_marks)
        markdown += _section("", odt_headers(oz))
        yield from _units(ctx, markdown, meta, oz, _named(oz, "Pictures/"))


def read_epub(source: Source, ctx: Context, work: Path) -> Iterator[Unit]:
    """EPUB: the spine's chapters through the HTML converter, each read once (pandoc for
    MathML, or a package without a spine), one unit per chapter; the manifest's images."""
    with _package(source, ctx) as oz:
        meta = epub_metadata(oz)

        def in_process() -> str | None:
            chapters = epub_spine(oz, ctx)
            return None if chapters is None else epub_markdown(oz, chapters, ctx)

        markdown = _body(oz, ctx, work, "epub", in_process, spine_once)
        images = {posixpath.basename(m): m for m in epub_images(oz)}
        yield from _units(ctx, markdown, meta, oz, images, chapters=True)


@contextlib.contextmanager
def _package(source: Source, ctx: Context) -> Iterator[OfficeZip]:
    """The package through the one zip gate, refused when ODF marks it encrypted."""
    with OfficeZip(source.fd_path(), ctx.info.source, ctx.settings.archive) as oz:
        _check_odf_encryption(oz, ctx)
        yield oz


def _body(
    oz: OfficeZip,
    ctx: Context,
    work: Path,
    reader: str,
    in_process: Callable[[], str | None],
    transform: Callable[[str, bytes], bytes],
) -> str:
    """The document body as markdown: read in-process from the package XML (``in_process``),
    or, when that says pandoc alone renders it well (None: equations, tracked changes,
    embedded objects, MathML) or the elements nest past Python's stack, through pandoc's
    ``reader`` on the package repacked by ``transform``."""
    try:
        markdown = in_process()
        if markdown is not None:
            return markdown
    except RecursionError:  # elements nested past Python's stack (a hostile file): pandoc
        ctx.warn("The document nests its elements too deeply to read in-process; pandoc read it.")
    packed = oz.repack(work / f"in.{reader}", transform, tick=ctx.check_deadline)
    return pandoc(packed, reader, ctx, work)


def _section(head: str, text: str) -> str:
    """``text`` as a section after the body (nothing when it is empty)."""
    return f"\n\n{head}{text}" if text else ""


def _named(oz: OfficeZip, folder: str) -> dict[str, str]:
    """The package's members under ``folder``, by base name (how the markdown names them)."""
    return {posixpath.basename(n): n for n in oz.names if n.startswith(folder)}


def _units(
    ctx: Context,
    markdown: str,
    meta: dict[str, Any],
    oz: OfficeZip | None,
    images: dict[str, str],
    *,
    chapters: bool = False,
) -> Iterator[Unit]:
    """Split into the unit kind (``chapters``: EPUB's; else pages, else sections), select
    ``pages``, yield Documents (and Media when asked); HTML tables pandoc wrote become pipe
    tables first."""
    markdown = blank_headers(html_tables(markdown, TableCaps.of(ctx)))
    pages = split_pages(markdown)
    if chapters:
        kind, parts = "chapter", split_chapters(markdown)
    elif pages and (not ctx.loader or ctx.options.pages):
        kind, parts = "page", pages
    else:
        kind, parts = "section", split_sections(markdown)
    numbers = select_units(
        ctx.options.page_spec, len(parts), unit=kind, path=ctx.info.source, warn=ctx.warn
    )
    props = document_properties(ctx, meta)
    label, num_key, count_key, title_key = _KINDS[kind]
    shown: list[int] = []
    image_index = 0
    for n in numbers:
        ctx.check_deadline(f"{kind} {n}")
        part: Part = parts[n - 1]
        unit_meta: dict[str, Any] = {num_key: n, count_key: len(parts), **props}
        if title_key and part.title:
            unit_meta[title_key] = part.title
        yield Document(part.text, unit_meta)
        shown.append(n)
        if ctx.options.extract_images and oz is not None:
            names = [images[b] for b in (posixpath.basename(s) for s in part.images) if b in images]
            for media in _media(oz, names, ctx, {num_key: n}, image_index):
                image_index += 1
                yield media
    ctx.set_header(label, f"{compact_spans(shown) or 'none'} of {len(parts)} ({_UNIT_NOTES[kind]})")


# -- PPTX, ODP ------------------------------------------------------------------------------
def read_pptx(source: Source, ctx: Context, work: Path) -> Iterator[Unit]:
    """PPTX from its XML: one unit per slide, speaker notes kept."""
    with _package(source, ctx) as oz:
        yield from _slides(oz, ctx, PptxDeck(oz, TableCaps.of(ctx)), ooxml_metadata(oz))


def read_odp(source: Source, ctx: Context, work: Path) -> Iterator[Unit]:
    """ODP from its XML: one unit per slide, speaker notes and footers kept."""
    with _package(source, ctx) as oz:
        yield from _slides(oz, ctx, OdpDeck(oz, TableCaps.of(ctx)), odf_metadata(oz))


def _slides(
    oz: OfficeZip, ctx: Context, deck: PptxDeck | OdpDeck, meta: dict[str, Any]
) -> Iterator[Unit]:
    """A deck's slides, those ``pages`` selects, each with its pictures when asked."""
    numbers = select_units(
        ctx.options.page_spec, deck.count, unit="slide", path=ctx.info.source, warn=ctx.warn
    )
    props = document_properties(ctx, meta)
    budget, image_index = ctx.settings.output.max_chars, 0
    shown: list[int] = []
    for n in numbers:
        ctx.check_deadline(f"slide {n}")
        if not ctx.loader and budget <= 0:
            ctx.read_on(
                f"slides {compact_spans(shown) or 'none'} of {deck.count} (the rest is over the "
                "output limit)",
                f"pages={n}-",
            )
            break
        slide = deck.slide(n)
        unit_meta: dict[str, Any] = {"slide_number": n, "slide_count": deck.count, **props}
        if slide.title:
            unit_meta["slide_title"] = slide.title
        if slide.notes:
            unit_meta["notes"] = slide.notes
        # the heading is part of the text, so a loader's Document keeps the slide title
        yield Document(
            _slide_heading(n, slide.title) + (f"\n\n{slide.text}" if slide.text else ""),
            unit_meta,
        )
        shown.append(n)
        budget -= len(slide.text) + len(slide.title) + 20
        if ctx.options.extract_images:
            for media in _media(oz, slide.images, ctx, {"slide_number": n}, image_index):
                image_index += 1
                yield media
    ctx.set_header(
        "Slides",
        f"{compact_spans(shown)} of {deck.count}" if shown else f"none of {deck.count}",
    )


def _slide_heading(number: int, title: str) -> str:
    return f"## Slide {number}: {title}" if title else f"## Slide {number}"


def _check_odf_encryption(oz: OfficeZip, ctx: Context) -> None:
    """ODF marks encrypted parts in its manifest; pandoc would only see noise."""
    if oz.has("META-INF/manifest.xml") and b"encryption-data" in oz.read("META-INF/manifest.xml"):
        raise EncryptedDocumentError(
            f"{ctx.info.source}: the document is password-protected; remove the password and retry",
            path=ctx.info.source,
        )


def _media(
    oz: OfficeZip, names: Sequence[str], ctx: Context, position: dict[str, Any], start: int
) -> Iterator[Media]:
    """Images a unit shows, as Media parts (raster types a vision model reads, under the size cap)."""
    cap = ctx.settings.image.max_image_bytes
    for offset, name in enumerate(dict.fromkeys(names)):
        ctx.check_deadline(f"image {posixpath.basename(name)}")
        mime = mimetypes.guess_type(name)[0] or ""
        info = oz.names.get(name)
        if mime not in _VISION_TYPES or info is None:
            ctx.warn(
                f"Image {name} skipped: {mime or 'unknown type'} is not an image type a model reads."
            )
            continue
        if info.file_size > cap:
            ctx.warn(
                f"Image {name} skipped: {info.file_size:,} bytes is over image.max_image_bytes={cap:,}."
            )
            continue
        meta = {
            "image_index": start + offset + 1,
            "image_name": posixpath.basename(name),
            **position,
        }
        yield Media(mime, oz.read(name), meta)
