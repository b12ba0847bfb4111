"""Converted markdown, whoever made it (pandoc, antiword, the in-process readers): the page-break
marker, blocks joined, split into parts (explicit page breaks, EPUB chapters or heading 1/2
sections) with their titles and the images they show."""

from __future__ import annotations

import posixpath
import re
from dataclasses import dataclass, field

from ....outline.headings import headings

MARK = "DOCREADPAGEBREAKMARK"


@dataclass(slots=True)
class Part:
    """A slice of the converted document: its text, a title, and the images it references."""

    text: str
    title: str = ""
    images: list[str] = field(default_factory=list)


# -- markdown of the in-process readers (wordml, odfml) --------------------------------------------
Block = tuple[str, str]  # (kind: "heading", "para", "item", "table", "break"; its markdown)
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


_BLANK_HEAD = re.compile(
    r"^\|(?:[ \t]*\|)+[ \t]*\n\|(?:[ \t]*:?-+:?[ \t]*\|)+[ \t]*\n(\|.*\|)[ \t]*$", re.M
)


def blank_headers(markdown: str) -> str:
    """A pipe table pandoc wrote with an empty header row (an ODT table without a header) gets
    its first row as the header, as the in-process readers give it."""
    if "|\n|" not in markdown:
        return markdown

    def promote(m: re.Match[str]) -> str:
        row = m.group(1)
        return row + "\n|" + "---|" * (row.count("|") - 1 - row.count("\\|"))

    return _BLANK_HEAD.sub(promote, markdown)


def _part(chunk: str) -> Part:
    """A slice as a unit: its text, its first heading's title (the outline's reading)."""
    text, images = image_placeholders(strip_anchors(chunk).strip())
    found = headings(text)
    return Part(text, found[0].title if found else "", images)
