"""EPUB chapters to markdown in-process: the spine's XHTML files in reading order, each through
the HTML converter (``html.convert.html_to_markdown``: its tables by the one HTML table parser
and the one table renderer, spans repeated). Each chapter opens with the anchor line pandoc writes
(``<span id="file.xhtml"></span>``), so ``convert.split_chapters`` splits both paths alike.

``epub_spine`` returns None when a chapter holds MathML: pandoc's job, as before. A chapter the
spine names many times is read once (``spine_once`` gives pandoc that spine too).
"""

from __future__ import annotations

import posixpath
import re
from typing import TYPE_CHECKING

from ..markdown import TableCaps
from .meta import opf_path
from .package import OfficeZip, local

if TYPE_CHECKING:
    from ..base import Context

_XHTML = ("application/xhtml+xml", "text/html")


def epub_spine(oz: OfficeZip, ctx: Context) -> list[str] | None:
    """The XHTML members of the spine in reading order, each once; None (pandoc's job) when one
    holds MathML, or when no package document or spine names any."""
    opf = opf_path(oz)
    if not opf:
        return None
    folder = posixpath.dirname(opf)
    root = oz.xml(opf)
    manifest: dict[str, str] = {}
    spine: list[str] = []
    for el in root.iter():
        kind = local(el.tag)
        if kind == "item" and el.get("media-type", "") in _XHTML:
            href = posixpath.normpath(posixpath.join(folder, el.get("href", "")))
            manifest[el.get("id", "")] = href
        elif kind == "itemref":
            spine.append(el.get("idref", ""))
    members = list(dict.fromkeys(m for i in spine if (m := manifest.get(i)) and oz.has(m)))
    if not members:
        return None
    for name in members:
        ctx.check_deadline(f"EPUB chapter {posixpath.basename(name)}")
        if b"<math" in oz.read(name):
            return None
    return members


_ITEMREF = re.compile(rb"<(?:[\w.-]+:)?itemref\b[^>]*>")
_IDREF = re.compile(rb"""\bidref\s*=\s*["']([^"']*)["']""")


def spine_once(name: str, data: bytes) -> bytes:
    """A package document (``.opf``) whose spine names each chapter once (the first time):
    what pandoc is given, so a spine that repeats one chapter 100,000 times reads it once."""
    if not name.endswith(".opf"):
        return data
    seen: set[bytes] = set()

    def once(m: re.Match[bytes]) -> bytes:
        ref = _IDREF.search(m.group())
        if ref is None:
            return m.group()
        if ref.group(1) in seen:
            return b""
        seen.add(ref.group(1))
        return m.group()

    return _ITEMREF.sub(once, data)


def epub_markdown(oz: OfficeZip, members: list[str], ctx: Context) -> str:
    """The chapters as markdown, each behind its anchor line; the output is capped as pandoc's
    (``output.max_chars`` x 8 + 1 MB), with a note when a chapter was cut; no chapter is read
    once the text is past the read's output budget (the pipeline cuts it there and says so)."""
    from ..html.convert import html_to_markdown

    cap = ctx.settings.output.max_chars * 8 + (1 << 20)
    caps = TableCaps.of(ctx)
    out: list[str] = []
    size = 0
    for name in members:
        ctx.check_deadline(f"EPUB chapter {posixpath.basename(name)}")
        if size > ctx.text_left():
            out.append(ctx.out_of_text())
            break
        page = oz.read(name).decode("utf-8", "replace")
        converted = html_to_markdown(
            page, limit_chars=cap, tick=lambda: ctx.check_deadline("EPUB"), tables=caps
        )
        for note in converted.notes:
            ctx.warn(f"{posixpath.basename(name)}: {note}")
        out.append(f'<span id="{posixpath.basename(name)}"></span>\n\n{converted.markdown}')
        size += len(out[-1])
    return "\n\n".join(out)
