"""Conversions to markdown: pandoc (DOCX, ODT, RTF, EPUB) and antiword (legacy DOC), run through
``run_tool`` (no shell, timeout, capped output) in a private temp directory; then the markdown is
split into parts (explicit page breaks, EPUB chapters or heading 1/2 sections).

Page breaks are found by putting a marker word where the source has one (``w:br type=page``,
``pageBreakBefore``, ODF ``fo:break-before="page"``, RTF ``\\page``) before pandoc runs, since
pandoc drops page breaks; the marker is then split on and removed.
"""

from __future__ import annotations

import posixpath
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from ...errors import EncryptedDocumentError, ExtractionError
from ...outline.headings import headings
from ..programs import find_program, run_tool
from .rtf_codepages import decode_codepages

if TYPE_CHECKING:
    from ..base import Context

MARK = "DOCREADPAGEBREAKMARK"
_PANDOC_READERS = {"docx": "docx", "odt": "odt", "rtf": "rtf", "epub": "epub"}


# Title-block paragraphs (Title, Subtitle, Author, Date, Abstract styles) go back into the text,
# since pandoc moves them to metadata that gfm output drops; inline emphasis is dropped (it costs
# tokens and splits phrases); id-less spans are unwrapped (EPUB chapter anchors keep their ids);
# section divs are unwrapped (gfm would keep them as raw <div> lines around every section).
_FILTER = """
local function plain(e) return e.content end
Strong, Emph, Underline, SmallCaps, Div = plain, plain, plain, plain, plain
function Span(e) if e.identifier == "" then return e.content end end
function Pandoc(doc)
  if not doc.meta.docread_titleblock then return nil end
  local head = {}
  for _, key in ipairs({"title", "subtitle", "author", "date", "abstract"}) do
    local v = doc.meta[key]
    if v then table.insert(head, pandoc.Para(pandoc.utils.stringify(v))) end
  end
  doc.blocks = head .. doc.blocks
  return doc
end
"""


@dataclass(slots=True)
class Part:
    """A slice of the converted document: its text, a title, and the images it references."""

    text: str
    title: str = ""
    images: list[str] = field(default_factory=list)


def pandoc(path: Path, fmt: str, ctx: Context, workdir: Path) -> str:
    """``pandoc --sandbox`` to GitHub-flavoured markdown; stdout capped, killed at the timeout."""
    exe = find_program("pandoc", path=ctx.info.source, need=f"reading {fmt} files")
    lua = workdir / "docread.lua"
    lua.write_text(_FILTER, encoding="utf-8")
    argv = [
        exe,
        "--sandbox",
        "-f",
        _PANDOC_READERS[fmt],
        "-t",
        "gfm",
        "--wrap=none",
        "-L",
        str(lua),
    ]
    if fmt in ("docx", "odt"):
        argv += ["-M", "docread_titleblock=1"]
    argv.append(str(path))
    result = run_tool(
        argv, timeout=ctx.settings.timeouts.pandoc, what="pandoc", path=ctx.info.source,
        cwd=str(workdir), max_output=ctx.settings.output.max_chars * 8 + (1 << 20),
    )  # fmt: skip
    if result.truncated:
        ctx.warn("The converted document was larger than the output cap; its end is missing.")
    return result.stdout.decode("utf-8", "replace")


def antiword(path: Path, ctx: Context) -> str:
    """Legacy Word text through antiword (headings, lists and tables become plain text), always
    with its UTF-8 mapping: its default follows the locale, and under C/POSIX it turns Greek,
    Cyrillic, CJK and typographic quotes into '?' or ASCII look-alikes."""
    exe = find_program("antiword", path=ctx.info.source, need="reading legacy .doc files")
    result = run_tool(
        [exe, "-w", "0", "-m", "UTF-8.txt", str(path)], timeout=ctx.settings.timeouts.antiword,
        what="antiword",
        path=ctx.info.source, check=False,
    )  # fmt: skip
    err = result.stderr.decode("utf-8", "replace").strip()
    if "encrypted" in err.lower():
        raise EncryptedDocumentError(
            f"{ctx.info.source}: the document is password-protected; remove the password and retry",
            path=ctx.info.source,
        )
    if "too small" in err:  # antiword refuses very short documents; their text is UTF-16 runs
        ctx.warn("antiword refused this very short document; its text was recovered by a scan.")
        return "\n\n".join(_utf16_runs(path.read_bytes()))
    if result.returncode != 0:
        raise ExtractionError(
            f"{ctx.info.source}: antiword could not read the file: {err}", path=ctx.info.source
        )
    text = result.stdout.decode("utf-8", "replace")
    return text.replace("\f", f"\n{MARK}\n")


# UTF-16LE characters of text: ASCII and Latin-1, Greek, Cyrillic and general punctuation (curly
# quotes, dashes, bullets); not CJK, whose code units look like misaligned ASCII
_UTF16_RUN = re.compile(rb"(?:[\x20-\x7e\r\t]\x00|[\xa0-\xff]\x00|[\x00-\xff][\x03\x04\x20]){16,}")


def _utf16_runs(data: bytes) -> list[str]:
    """Paragraphs stored as UTF-16 in a legacy Word file: runs of 16+ characters that hold a
    paragraph mark (style and font names in the same file have none)."""
    runs = (m.group().decode("utf-16-le") for m in _UTF16_RUN.finditer(data))
    return [r.replace("\r", "\n").strip() for r in runs if "\r" in r and " " in r]


# -- page-break markers, applied to the source before pandoc ---------------------------------------
_W_BR = re.compile(rb"<w:br\b[^>]*w:type=\"page\"[^>]*/>")
_W_PBB = re.compile(
    rb"(<w:pPr>(?:(?!</w:pPr>).)*?<w:pageBreakBefore(?:\s+w:val=\"(?:1|true|on)\")?\s*/>(?:(?!</w:pPr>).)*?</w:pPr>)",
    re.S,
)
_W_ALT = re.compile(
    rb"<mc:AlternateContent>(?:(?!</mc:AlternateContent>).)*?</mc:AlternateContent>", re.S
)
_W_SHAPE = re.compile(  # a VML picture or a DrawingML drawing outside alternate content
    rb"<w:pict\b(?:(?!</w:pict>).)*?</w:pict>|<w:drawing\b(?:(?!</w:drawing>).)*?</w:drawing>", re.S
)
_W_T = re.compile(rb"<w:t(?:\s[^>]*)?>([^<]*)</w:t>")
ODF_BREAK_STYLE = re.compile(
    rb"<style:style\b[^>]*style:name=\"([^\"]+)\"[^>]*>(?:(?!</style:style>).)*?fo:break-before=\"page\"",
    re.S,
)
_RTF_PAGE = re.compile(rb"\\page(?![a-z])")


def docx_marks(name: str, data: bytes) -> bytes:
    """Put the marker where word/document.xml has a hard page break; flatten text boxes (in
    alternate content, VML-only and DrawingML-only shapes alike)."""
    if name != "word/document.xml":
        return data
    word = f'<w:t xml:space="preserve"> {MARK} </w:t>'.encode()
    data = _W_SHAPE.sub(_textbox_words, _W_ALT.sub(_textbox_words, data))
    data = _W_BR.sub(word, data)
    return _W_PBB.sub(lambda m: m.group(1) + b"<w:r>" + word + b"</w:r>", data)


def _textbox_words(m: re.Match[bytes]) -> bytes:
    """A text box inside a run becomes its words: pandoc otherwise keeps the box and drops the
    rest of the paragraph around it."""
    block = m.group()
    if b"txbxContent" not in block:
        return block
    body = block.rsplit(b"<mc:Fallback>", 1)[-1]
    paras = [b"".join(_W_T.findall(p)) for p in body.split(b"</w:p>")]
    words = b" ".join(p.strip() for p in paras if p.strip())
    return b'<w:t xml:space="preserve"> ' + words + b" </w:t>"


def odt_marks(name: str, data: bytes) -> bytes:
    """Put the marker at the start of ODT paragraphs whose style breaks the page before them;
    text boxes moved out of their frames (pandoc drops frames)."""
    if name != "content.xml":
        return data
    data = odt_frames(data)
    styles = set(ODF_BREAK_STYLE.findall(data))
    if not styles:
        return data
    names = b"|".join(re.escape(s) for s in styles)
    opening = re.compile(
        rb"(<text:(?:p|h)\b[^>]*text:style-name=\"(?:" + names + rb")\"[^>]*(?<!/)>)"
    )
    return opening.sub(lambda m: m.group(1) + f"{MARK} ".encode(), data)


_ODF_FRAME = re.compile(
    rb"<draw:frame\b[^>]*>(?:(?!</draw:frame>).)*?<draw:text-box\b[^>]*(?<!/)>(?P<box>.*?)"
    rb"</draw:text-box>(?:(?!</draw:frame>).)*?</draw:frame>"
    rb"|<draw:(?P<kind>custom-shape|rect|ellipse|circle|polygon)\b[^>]*(?<!/)>(?P<shape>.*?)"
    rb"</draw:(?P=kind)>",
    re.S,
)
_ODF_GEOMETRY = re.compile(
    rb"<draw:enhanced-geometry\b(?:[^>]*/>|.*?</draw:enhanced-geometry>)|<svg:(?:title|desc)\b.*?</svg:(?:title|desc)>",
    re.S,
)
_ODF_PARA_END = re.compile(rb"</text:(?:p|h)>")


def odt_frames(data: bytes) -> bytes:
    """Text boxes (``draw:frame/draw:text-box``: paragraphs, lists, tables) and the text of
    drawn shapes (custom shapes, rectangles, ellipses) taken out of the paragraph that anchors
    them and put right after it, where pandoc reads them; nested boxes too."""
    if b"<draw:" not in data:
        return data
    out, pos, pending = bytearray(), 0, bytearray()
    while True:
        frame = _ODF_FRAME.search(data, pos)
        end = _ODF_PARA_END.search(data, pos) if pending else None
        if end is not None and (frame is None or end.start() < frame.start()):
            out += data[pos : end.end()] + pending
            pending.clear()
            pos = end.end()
        elif frame is not None:
            out += data[pos : frame.start()]
            box = frame.group("box")
            inner = box if box is not None else _ODF_GEOMETRY.sub(b"", frame.group("shape"))
            pending += odt_frames(inner)
            pos = frame.end()
        else:
            break
    return bytes(out + data[pos:] + pending)


_RTF_BLOBS = re.compile(
    rb"\{\\(?:\*\\)?(object|objdata|pict|shppict|nonshppict|datastore|themedata|colorschememapping)\b"
)
_RTF_TOKEN = re.compile(rb"\\.|[{}]", re.S)


RTF_MAX_DEPTH = 1000  # nested groups; Word writes a few dozen, pandoc's memory grows with depth
_BRACE = re.compile(rb"[{}]")


def rtf_too_deep(data: bytes, limit: int = RTF_MAX_DEPTH) -> bool:
    """True when groups nest deeper than ``limit``: a streaming count of ``{`` depth, C-speed
    counts per block and a brace-by-brace look only at blocks that could cross the limit."""
    clean = data.replace(b"\\\\", b"").replace(b"\\{", b"").replace(b"\\}", b"")
    depth, block = 0, 1 << 16
    for start in range(0, len(clean), block):
        chunk = clean[start : start + block]
        opens = chunk.count(b"{")
        if depth + opens <= limit:
            depth = max(depth + opens - chunk.count(b"}"), 0)
            continue
        for m in _BRACE.finditer(chunk):
            depth = depth + 1 if m.group() == b"{" else max(depth - 1, 0)
            if depth > limit:
                return True
    return False


def rtf_prepare(data: bytes) -> bytes:
    """Embedded objects and pictures replaced by placeholders (a 50 MB blob costs pandoc nothing);
    ``\\'hh`` bytes decoded by their code page; ``\\page`` gets the page marker."""
    out, pos = bytearray(), 0
    while found := _RTF_BLOBS.search(data, pos):
        out += data[pos : found.start()]
        depth, end = 0, len(data)
        for tok in _RTF_TOKEN.finditer(data, found.start()):
            t = tok.group()
            depth += 1 if t == b"{" else -1 if t == b"}" else 0
            if depth == 0:
                end = tok.end()
                break
        kind = found.group(1)
        if kind in (b"pict", b"shppict", b"object"):
            out += b" DOCREADOBJECTMARK " if kind == b"object" else b" DOCREADIMAGEMARK "
        pos = end
    out += data[pos:]
    text = rtf_margins(decode_codepages(bytes(out)))
    return _RTF_PAGE.sub(rb"\\par " + MARK.encode() + rb"\\par ", text)


_RTF_MARGIN = re.compile(rb"\\(header|footer)[lrf]?(?![a-z])")
_MARGIN_MARKS = {b"header": b"DOCREADHEADERMARK", b"footer": b"DOCREADFOOTERMARK"}


def rtf_margins(data: bytes) -> bytes:
    """``{\\header ...}`` and ``{\\footer ...}`` groups (pandoc drops them) moved to the end of
    the document as paragraphs after a marker word, each distinct one once; groups inside an
    ignorable destination (``{\\*...}``, such as a page-style table) stay where they are."""
    if b"\\header" not in data and b"\\footer" not in data:
        return data
    stack: list[bool] = []  # per open group: inside an ignorable destination
    moved: dict[bytes, bytes] = {}
    cuts: list[tuple[int, int]] = []
    start: int | None = None
    kind, depth = b"", 0
    for tok in _RTF_TOKEN.finditer(data):
        t = tok.group()
        if t == b"{":
            ignorable = bool(stack and stack[-1]) or data.startswith(b"{\\*", tok.start())
            margin = _RTF_MARGIN.match(data, tok.end())
            if margin and not ignorable and start is None:
                start, kind, depth = tok.start(), margin.group(1), len(stack)
            stack.append(ignorable)
        elif t == b"}" and stack:
            stack.pop()
            if start is not None and len(stack) == depth:
                body = _RTF_MARGIN.sub(b"", data[start + 1 : tok.start()], count=1)
                moved.setdefault(body.strip(), _MARGIN_MARKS[kind])
                cuts.append((start, tok.end()))
                start = None
    if not cuts:
        return data
    out, pos = bytearray(), 0
    for a, b in cuts:
        out += (
            data[pos:a] + b"{}"
        )  # an empty group: a control word before never meets the text after
        pos = b
    out += data[pos:]
    end = out.rstrip(b"\0 \r\n").rfind(b"}")
    tail = b"".join(b"\\par " + mark + b"\\par {" + body + b"}" for body, mark in moved.items())
    return bytes(out[:end] + tail + out[end:]) if end > 0 else bytes(out)


def rtf_markdown(data: bytes, ctx: Context, work: Path) -> str:
    """An RTF document as markdown through pandoc (``rtf_prepare`` first), its header/footer
    groups as ``## Header`` / ``## Footer``; page marks and image placeholders are left for the
    caller, which splits pages or cleans them."""
    (work / "in.rtf").write_bytes(rtf_prepare(data))
    return margin_headings(pandoc(work / "in.rtf", "rtf", ctx, work))


_MARGIN_LINE = re.compile(r"^[ \t>]*(DOCREADHEADERMARK|DOCREADFOOTERMARK)\s*$", re.M)


def margin_headings(markdown: str) -> str:
    """The RTF header/footer marker lines as ``## Header`` / ``## Footer`` headings."""
    return _MARGIN_LINE.sub(
        lambda m: "## Header" if "HEADER" in m.group(1) else "## Footer", markdown
    )


# -- markdown of the in-process readers (wordml, odfml) --------------------------------------------
Block = tuple[str, str]  # (kind: "heading", "para", "item", "table", "break"; its markdown)
MAX_NESTING = 32  # tables in tables (and inline elements) deeper than this give their words only
_LINE_START = re.compile(r"^(\s*)([#>|+*-]|\d+[.)]|```|~~~)(?=\s|$)")


def join_blocks(blocks: list[Block]) -> str:
    """Blocks joined by blank lines; consecutive list items by line breaks (one list)."""
    out: list[str] = []
    prev = ""
    for kind, text in blocks:
        if out:
            out.append("\n" if kind == prev == "item" else "\n\n")
        out.append(text)
        prev = kind
    return "".join(out)


def plain_lines(text: str) -> str:
    """A paragraph's lines with what would read as markdown structure at their start (``#``,
    ``- ``, ``1. ``, ``>``, a fence) escaped: the document's text, not markup."""
    return "\n".join(_LINE_START.sub(r"\1\\\2", line) for line in text.split("\n"))


# -- markdown post-processing ---------------------------------------------------------------------
_MD_IMAGE = re.compile(r"!\[((?:[^\]\\]|\\.)*)\]\(<?([^)\s>]+)>?(?:\s+\"[^\"]*\")?\)")
_HTML_IMAGE = re.compile(r"<img\b[^>]*?\bsrc=\"([^\"]+)\"[^>]*>", re.I)
_HTML_ALT = re.compile(r"\balt=\"([^\"]*)\"", re.I)
_CHAPTER = re.compile(r"^<span id=\"([^\"]+\.(?:xhtml|html|htm|xml))\"></span>$", re.M)
_FENCE = re.compile(r"^\s*(```|~~~)")


def image_placeholders(text: str) -> tuple[str, list[str]]:
    """Markdown and HTML images become ``[image: name]``; returns the text and the image paths."""
    found: list[str] = []

    def md(m: re.Match[str]) -> str:
        found.append(m.group(2))
        return _placeholder(m.group(1), m.group(2))

    def html(m: re.Match[str]) -> str:
        found.append(m.group(1))
        alt = _HTML_ALT.search(m.group(0))
        return _placeholder(alt.group(1) if alt else "", m.group(1))

    text = _HTML_IMAGE.sub(html, _MD_IMAGE.sub(md, text))
    text = text.replace("DOCREADOBJECTMARK", "[embedded object]").replace(
        "DOCREADIMAGEMARK", "[image]"
    )
    return text, found


def _placeholder(alt: str, src: str) -> str:
    name = posixpath.basename(src)
    alt = " ".join(alt.replace("\\", "").split())
    return f"[image: {name}: {alt}]" if alt and alt != name else f"[image: {name}]"


def split_pages(markdown: str) -> list[Part]:
    """Parts between page-break markers (the marker words removed)."""
    chunks = markdown.split(MARK)
    return [_part(c) for c in chunks] if len(chunks) > 1 else []


def split_chapters(markdown: str) -> list[Part]:
    """EPUB: pandoc opens every spine file with ``<span id="file.xhtml"></span>``; split there."""
    bounds = [m.start() for m in _CHAPTER.finditer(markdown)]
    if not bounds:
        return split_sections(markdown)
    chunks = [markdown[a:b] for a, b in zip([0, *bounds], [*bounds, len(markdown)], strict=True)]
    parts = [_part(_CHAPTER.sub("", c)) for c in chunks]
    return [p for p in parts if p.text] or [Part("")]


def split_sections(markdown: str) -> list[Part]:
    """Parts starting at each level-1/2 heading, as the outline reads headings
    (``outline.headings``: the sections' own tree, so a part is a top section and its
    ``section_title`` that section's title); text before the first one is its own part."""
    text = markdown.replace(MARK, "")
    cuts = [0]
    for heading in headings(text):
        if heading.level <= 2 and text[cuts[-1] : heading.at].strip():
            cuts.append(heading.at)
    bounds = [*cuts, len(text)]
    parts = [_part(text[a:b]) for a, b in zip(bounds, bounds[1:], strict=False)]
    return [p for p in parts if p.text] or [Part("")]


# pandoc carries bookmarks as empty anchors ("# <span id="anchor"></span>Summary") and, in some
# outputs, heading attributes ("## Details {#details}"): markup without content, noise in the text
# and in every RAG chunk. Code blocks keep theirs (they are literal).
_EMPTY_ANCHOR = re.compile(r"<span id=\"[^\"<>]*\"></span>|<a id=\"[^\"<>]*\"></a>")
_HEADING_ATTRS = re.compile(r"^(#{1,6}\s.*?)\s+\{#[^{}\s]*(?:\s[^{}]*)?\}\s*$")


def strip_anchors(markdown: str) -> str:
    """Empty ``<span id=...></span>`` anchors and ``{#id}`` heading attributes removed, outside
    code fences."""
    if "<span id=" not in markdown and "<a id=" not in markdown and "{#" not in markdown:
        return markdown
    out: list[str] = []
    fenced = False
    for line in markdown.split("\n"):
        if _FENCE.match(line):
            fenced = not fenced
        elif not fenced:
            line = _HEADING_ATTRS.sub(r"\1", _EMPTY_ANCHOR.sub("", line))
        out.append(line)
    return "\n".join(out)


def _part(chunk: str) -> Part:
    """A slice as a unit: its text, its first heading's title (the outline's reading)."""
    text, images = image_placeholders(strip_anchors(chunk).strip())
    found = headings(text)
    return Part(text, found[0].title if found else "", images)
