"""PyMuPDF without its layout model until a page needs it.

PyMuPDF 2.0 imports ``pymupdf.layout`` (onnxruntime, and it loads its ONNX model at import) and
``pymupdf4llm`` whenever they are installed: 0.43 s per process against 0.10 s without them
(``python -X importtime``). Both imports sit in ``try: ... except ImportError`` blocks of
``pymupdf/__init__.py``, so marking them absent (a ``None`` entry in ``sys.modules``) for the
first import skips them; the marks are then removed, so ``layout_model()`` can import them when
``pdf.structure: layout`` asks. A process that imported ``pymupdf`` before docread has them
loaded already, and PyMuPDF's ``find_tables`` then runs the layout model on every page it
looks at (5 s a page on a loaded machine, and other tables): docread calls it with
``use_layout=False`` (tables.py, parts.py), so ``auto`` and ``off`` read the same, at the same
speed, whoever imported PyMuPDF first; for the same reason a page is read with PyMuPDF's quad
corrections on (``quads_corrected``), which pymupdf4llm's import turns off. And where a page
draws its pictures (``drawn_pictures``), the text flags a page is read with and a bounded count
of its blocks; a font's face (family, weight, slant, fixed pitch) from its name and MuPDF's flags
(``face``); and a page's lines repaired from the characters of its ``rawdict`` (right-to-left
ligatures, spaces MuPDF made up in numbers), an OCR text layer's sizes steadied (``steadied``)."""

from __future__ import annotations

import contextlib
import functools
import re
import sys
import threading
from collections.abc import Iterator
from dataclasses import replace
from types import ModuleType
from typing import TYPE_CHECKING, Any
from unicodedata import normalize

from ...errors import DependencyMissingError
from ...model import Switch
from ...sanitize import lazy_pattern

if TYPE_CHECKING:
    import pymupdf

    from .text.lines import Line

_EAGER = ("pymupdf.layout", "pymupdf4llm")
_LOCK = threading.Lock()
_QUADS: Switch | None = None  # PyMuPDF's quad corrections, on while a page is read
_RTL = lazy_pattern("[\u0590-\u08ff\ufb1d-\ufdff\ufe70-\ufeff]")  # Hebrew, Arabic and their forms
_SUBSET = lazy_pattern(r"^[A-Z]{6}\+")
_MONO_NAME = lazy_pattern(  # fixed-pitch families whose fonts may not say so in their flags
    r"(?i)courier|nimbusmon|mono(?!type)|consol|menlo|monaco|inconsolata|sourcecode|typewriter"
    r"|^(?:cm|lm|ec|sf)s?l?i?tt|tt\d+$|^t1?x(?:b?sl)?b?tt|iosevka(?![-\s]?(?:aile|etoile))"  # newtx's
)
# weight words in font names, heaviest first where one contains another ("semibold" > "bold")
_WEIGHTS = (
    ("hairline", 100), ("thin", 100), ("extralight", 200), ("ultralight", 200),
    ("semilight", 350), ("light", 300), ("book", 400), ("regular", 400), ("normal", 400),
    ("roman", 400), ("medium", 500), ("semibold", 600), ("demibold", 600), ("demi", 600),
    ("extrabold", 800), ("ultrabold", 800), ("heavy", 900), ("black", 900), ("bold", 700),
    ("bd", 700), ("medi", 500),
)  # fmt: skip
_TRAILING = lazy_pattern(
    r"(?:Thin|Hairline|ExtraLight|UltraLight|SemiLight|Light|Book|Regular|Regu|Normal|Roman"
    r"|Medium|Medi|SemiBold|DemiBold|Demi|ExtraBold|UltraBold|Bold|Bd|Heavy|Black|Italic|Ital"
    r"|Oblique|It|MT|PS|Std|Pro|\d+)$"
)
_CODE_WEIGHT = lazy_pattern(r"(?<!\d)(\d{3})$")  # YoonGothicPro780: the family's weight code

OCR_FONT = "GlyphLessFont"  # an OCR text layer's invisible font (Tesseract, OCRmyPDF)
_SIDE_HEAD = lazy_pattern(  # a few words in title case, no stop: "Composition Without Compromise"
    r"^[A-Z][^\W\d_]+(?:\s+(?:[A-Z][^\W\d_]*|a|an|and|at|by|for|in|of|on|or|the|to|with)){0,5}$"
)


def load_pymupdf() -> ModuleType:
    """``pymupdf``, imported without the layout packages when this is its first import."""
    with _LOCK:
        if "pymupdf" not in sys.modules:
            marked = [name for name in _EAGER if name not in sys.modules]
            for name in marked:
                sys.modules[name] = None  # type: ignore[assignment]
            try:
                import pymupdf
            finally:
                for name in marked:
                    if sys.modules.get(name, False) is None:
                        del sys.modules[name]
            pymupdf.no_recommend_layout()  # it would print to stdout once find_tables runs
    return sys.modules["pymupdf"]


@contextlib.contextmanager
def quads_corrected(on: bool = True) -> Iterator[None]:
    """PyMuPDF's ascender/descender corrections of character boxes ``on`` (its default) or off
    for the reads inside (the process's own setting put back by the last reader out; a thread
    asking for the other value waits for the readers inside: ``Switch``). pymupdf4llm turns
    this process-wide switch off when imported, which moves ``dict``'s line boxes (a two-line
    title read as two headings), so ``auto`` pins it on: what workers have and its rules were
    tuned on; ``layout`` reads, and imports pymupdf4llm, with it off, as pymupdf4llm means it, so
    its import changes nothing under another thread's read; the process's setting is then left
    as that import leaves it (off), else as docread found it. ``off``'s plain text is the same
    either way (every corpus page) and ~8 % cheaper off: it pins it off."""
    global _QUADS
    if _QUADS is None:
        tools = load_pymupdf().TOOLS
        with _LOCK:  # one Switch for every thread
            _QUADS = _QUADS or Switch(
                tools.unset_quad_corrections, tools.unset_quad_corrections, False
            )
    with _QUADS.held(not on):  # the switch is PyMuPDF's "unset"
        yield


def layout_model() -> ModuleType:
    """``pymupdf4llm`` with PyMuPDF's layout model active (loaded once per process, ~0.35 s;
    its weights ship in the ``pymupdf_layout`` package: nothing is downloaded)."""
    load_pymupdf()
    try:
        with quads_corrected(False):  # its import turns them off: not under another's read
            first = "pymupdf4llm" not in sys.modules
            import pymupdf.layout  # activates the model for pymupdf4llm
            import pymupdf4llm  # type: ignore[import-untyped]

            if first and _QUADS is not None:  # the process's setting after, as its import left it
                _QUADS.keep(pymupdf.TOOLS.unset_quad_corrections())
    except ImportError as exc:
        raise DependencyMissingError(
            f"pdf.structure: layout needs PyMuPDF's layout model ({exc}): "
            f"pip install 'docread[layout]', or set pdf.structure: auto"
        ) from exc
    pymupdf.layout.activate()

    model: ModuleType = pymupdf4llm
    return model


def drawn_pictures(page: pymupdf.Page) -> list[tuple[float, float, float, float]]:
    """Where the page draws pictures (images and image masks), in drawing order: what
    ``page.get_bboxlog()`` lists as ``fill-image`` / ``fill-imgmask``, from a run of the page
    through a device that hears of pictures only (get_bboxlog's device hears of every path
    and text run in Python: 6x the text page's time on a page of 6,000 paths)."""
    import pymupdf

    device = _picture_device()()
    rotation = page.rotation  # as get_bboxlog: the page's unrotated coordinates
    if rotation:
        page.set_rotation(0)
    try:
        pymupdf.mupdf.fz_run_page(
            page.this, device, pymupdf.mupdf.FzMatrix(), pymupdf.mupdf.FzCookie()
        )
        pymupdf.mupdf.fz_close_device(device)
    finally:
        if rotation:
            page.set_rotation(rotation)
    boxes: list[tuple[float, float, float, float]] = device.boxes
    return boxes


@functools.cache
def _picture_device() -> Any:
    """The class of ``drawn_pictures``' device (made once: PyMuPDF imported by then)."""
    import pymupdf

    mupdf = pymupdf.mupdf

    class Pictures(mupdf.FzDevice2):  # type: ignore[misc,name-defined]
        def __init__(self) -> None:
            super().__init__()
            self.boxes: list[tuple[float, float, float, float]] = []
            self.use_virtual_fill_image()
            self.use_virtual_fill_image_mask()

        def _add(self, ctm: Any) -> None:
            r = mupdf.ll_fz_transform_rect(mupdf.fz_unit_rect, ctm)
            self.boxes.append((r.x0, r.y0, r.x1, r.y1))

        def fill_image(self, ctx: Any, image: Any, ctm: Any, *rest: Any) -> None:
            self._add(ctm)

        def fill_image_mask(self, ctx: Any, image: Any, ctm: Any, *rest: Any) -> None:
            self._add(ctm)

    return Pictures


@functools.lru_cache(maxsize=512)
def monospaced(font: str, flags_: int) -> bool:
    """A fixed-pitch font: MuPDF's flag, or its family's name (NimbusMonL, CMTT10, Consolas);
    never an OCR text layer's invisible ``GlyphLessFont`` (fixed-pitch, but the print is not)."""
    name = _SUBSET.sub("", font)
    return name != OCR_FONT and (bool(flags_ & 8) or bool(_MONO_NAME.search(name)))


@functools.lru_cache(maxsize=512)
def font_style(font: str, flags_: int) -> tuple[str, int, bool, bool]:
    """A font's (family, weight, bold, italic): the family is its name without the subset
    prefix and the weight, slant and vendor words it ends with (``Times-BoldItalic`` and
    ``Times-Roman`` are ``Times``); the weight from those words (``Light`` 300, ``Medium``
    500, ``Demi`` 600, ``Bold``/``Bd`` 700, ...) or a family's own three-digit code
    (``YoonGothicPro780``: compared within the family only), else 400; bold from 600 up or
    by MuPDF's flag (then 700)."""
    name = _SUBSET.sub("", font)
    family = re.split(r"[-,+ ]", name, maxsplit=1)[0]
    while (shorter := _TRAILING.sub("", family)) != family and shorter:
        family = shorter
    suffix = name[len(family) :]
    low = suffix.casefold()
    weight = next((w for word, w in _WEIGHTS if word in low), 0)
    code = None if weight else _CODE_WEIGHT.search(suffix)
    if code:
        weight = int(code.group(1))
    bold = bool(flags_ & 16) or (not code and weight >= 600)
    if not weight:
        weight = 700 if bold else 400
    italic = bool(flags_ & 2) or "ital" in low or "oblique" in low
    return family or name, weight, bold, italic


@functools.lru_cache(maxsize=512)
def face(font: str, flags_: int) -> tuple[str, int, bool, bool, bool]:
    """``font_style`` and ``monospaced`` in one look-up: what a line's style needs of its font,
    asked once a line (two cached calls a line cost more than the tuple they make)."""
    return (*font_style(font, flags_), monospaced(font, flags_))


def flags(*, vectors: bool = True) -> int:
    """The text flags of plain ``get_text()`` (whitespace kept, clipped to the page) without
    images (no slower than text), with ligatures expanded ("ﬀ" as "ff": searchable) and the
    drawn paths' boxes collected in the same pass (no second interpretation of the page)."""
    import pymupdf

    return int(
        pymupdf.TEXT_PRESERVE_WHITESPACE
        | pymupdf.TEXT_MEDIABOX_CLIP
        | (pymupdf.TEXT_COLLECT_VECTORS if vectors else 0)
    )


def over_paths(textpage: Any, limit: int) -> bool:
    """Whether a text page collected with vectors holds more than ``limit`` blocks (paths and
    text blocks), counted along MuPDF's block list without converting them: stops at
    ``limit`` + 1, so a page of 120,000 paths costs what one of ``limit`` does."""
    block, count = textpage.this.m_internal.first_block, 0
    while block is not None and count <= limit:
        block, count = block.next, count + 1
    return count > limit


def right_to_left(text: str) -> bool:
    """Whether the text has Hebrew or Arabic letters."""
    return not text.isascii() and bool(_RTL.search(text))


def page_text(page: pymupdf.Page, textpage: Any = None) -> str:
    """The page's text in content order (``pdf.structure: off``'s; from ``textpage`` when given,
    a text page already made); right-to-left lines rebuilt from the characters with their
    ligatures as printed (``repaired``)."""
    text: str = page.get_text(textpage=textpage)
    raw = _rawdict(page, textpage) if right_to_left(text) else None
    if raw is None:
        return text
    return "".join(
        repaired(line) + "\n" for block in raw["blocks"] for line in block.get("lines", ())
    )


def _rawdict(page: pymupdf.Page, textpage: Any) -> dict[str, Any] | None:
    """The page's ``rawdict``, None where PyMuPDF cannot build it: a glyph whose code MuPDF gives
    past Unicode's range makes the binding fail (``SystemError`` from ``chr()``; texlive's
    quran-de-doc p3), and that page keeps the text ``dict`` gave instead of losing its file."""
    try:
        raw: dict[str, Any] = page.get_text("rawdict", textpage=textpage)
    except SystemError as exc:
        if not isinstance(exc.__cause__, ValueError):
            raise
        return None
    return raw


def raw_lines(page: pymupdf.Page, textpage: Any, lines: list[Line], rtl: bool) -> list[Line]:
    """The page's lines with the text their ``rawdict`` characters make (``repaired`` on a
    right-to-left page, else ``unspaced``), a line that gives no text, or every line of a page
    PyMuPDF cannot give the characters of (``_rawdict``), as it was."""
    text_of = repaired if rtl else unspaced
    fixed: dict[tuple[int, float, float], str] = {}
    raw = _rawdict(page, textpage)
    if raw is None:
        return lines
    for number, block in enumerate(raw["blocks"]):
        for line in block.get("lines", ()):
            x0, y0 = line["bbox"][:2]
            fixed[(number, round(x0, 1), round(y0, 1))] = normalize("NFC", text_of(line))
    texts = ((ln, fixed.get((ln.block, round(ln.x0, 1), round(ln.y0, 1)), "")) for ln in lines)
    return [replace(ln, text=text, lead=0) if text.strip() else ln for ln, text in texts]


def steadied(lines: list[Line]) -> list[Line]:
    """An OCR text layer's lines (Tesseract's ``GlyphLessFont``, each line's size fit to its
    box: a body line's swings 7-13 pt) with their sizes steadied: from a fifth under the
    page's median size to 40 % over it, the median (one body); larger sizes within a tenth of
    one another, the smallest of them (a title's lines one size). The layer has no weight: a
    body line of a few words in title case without a stop (``Creating a Song``) is taken as
    bold, the side head the print sets it as."""
    sizes = sorted(ln.size for ln in lines)
    median = sizes[len(sizes) // 2]
    steady: dict[float, float] = {}
    for size in sizes:
        if 0.8 * median <= size <= 1.4 * median:
            steady[size] = median
        elif size > median and steady and max(steady) >= size / 1.1 > 1.4 * median:
            steady[size] = steady[max(steady)]
        else:
            steady[size] = size
    out: list[Line] = []
    for ln in lines:
        size = steady[ln.size]
        if size == median and _SIDE_HEAD.match(ln.text.strip()):
            out.append(replace(ln, size=size, bold=True, weight=700))
        else:
            out.append(replace(ln, size=size) if size != ln.size else ln)
    return out


def unspaced(line: dict[str, Any]) -> str:
    """A ``rawdict`` line's text without the spaces MuPDF makes up inside a number after a
    point or comma its font gives no width (each glyph placed on its own: ``11,062. 6``);
    "" when it has none (a sentence's end, words, are left as they are)."""
    chars = [c for span in line["spans"] for c in span["chars"]]
    text = "".join(c["c"] for c in chars)
    drop = {
        i
        for i in range(2, len(chars) - 1)
        if chars[i]["synthetic"]
        and text[i - 1] in ".," and text[i - 2].isdigit() and text[i + 1].isdigit()
        and chars[i - 1]["bbox"][2] - chars[i - 1]["bbox"][0] < 0.01
    }  # fmt: skip
    return "".join(c for i, c in enumerate(text) if i not in drop) if drop else ""


def repaired(line: dict[str, Any]) -> str:
    """A ``rawdict`` line's text with right-to-left ligatures as printed: MuPDF reverses a
    ligature's characters with the line (Arabic lam-alef "لإ" comes out as "إل"); its
    zero-width second character gives it away and is put back."""
    chars = [c for span in line["spans"] for c in span["chars"]]
    i = 0
    while i < len(chars) - 1:
        a, b = chars[i], chars[i + 1]
        if a["bbox"][2] - a["bbox"][0] < 0.01 and abs(b["bbox"][2] - a["bbox"][0]) < 0.5:
            chars[i], chars[i + 1] = b, a
            i += 1
        i += 1
    return "".join(c["c"] for c in chars)
