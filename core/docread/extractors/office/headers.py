"""Page headers and footers, which pandoc drops: read from the package (DOCX header/footer parts,
ODT master pages in styles.xml) and appended to the text as ``## Header`` / ``## Footer``
sections, each distinct text once (a header repeated on every page is indexed once)."""

from __future__ import annotations

import re

from ..markdown import TableCaps
from .package import OfficeZip, local, rels
from .slides import odf_inline
from .wordml import part_markdown

_DOCX_PART = re.compile(r"(?:^|/)(header|footer)(\d*)\.xml$")
_ODF_KINDS = {
    "header": "header", "header-left": "header", "header-first": "header",
    "footer": "footer", "footer-left": "footer", "footer-first": "footer",
}  # fmt: skip


def sections(found: dict[str, list[str]]) -> str:
    """``## Header`` and ``## Footer`` markdown sections of the distinct texts found."""
    out = []
    for kind in ("header", "footer"):
        # a text without a letter is a page number or a date field: no words to find
        texts = list(dict.fromkeys(t for t in found.get(kind, []) if any(c.isalpha() for c in t)))
        if texts:
            out.append(f"## {kind.capitalize()}\n\n" + "\n\n".join(texts))
    return "\n\n".join(out)


def docx_headers(oz: OfficeZip, caps: TableCaps) -> str:
    """The header and footer parts word/document.xml refers to, in part-number order, each read
    by the body's rules (a table in a footer is a pipe table)."""
    parts = []
    for target in rels(oz, "word/document.xml").values():
        found = _DOCX_PART.search(target)
        if found and oz.has(target):
            parts.append((found.group(1), int(found.group(2) or 0), target))
    texts: dict[str, list[str]] = {}
    for kind, _, target in sorted(parts):
        texts.setdefault(kind, []).append(part_markdown(oz, target, caps))
    return sections(texts)


def odt_headers(oz: OfficeZip) -> str:
    """Headers and footers of the master pages in styles.xml (first, left and right pages)."""
    if not oz.has("styles.xml"):
        return ""
    texts: dict[str, list[str]] = {}
    for el in oz.xml("styles.xml").iter():
        kind = _ODF_KINDS.get(local(el.tag))
        if kind is None:
            continue
        lines = [" ".join(odf_inline(p).split()) for p in el.iter() if local(p.tag) in ("p", "h")]
        texts.setdefault(kind, []).append("\n".join(line for line in lines if line))
    return sections(texts)
