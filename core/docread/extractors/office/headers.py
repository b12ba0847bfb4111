"""Page headers and footers, which pandoc drops: read from the package (DOCX header/footer parts,
ODT master pages in styles.xml) and appended to the text as ``## Header`` / ``## Footer``
sections, each distinct text once (a header repeated on every page is indexed once)."""

from __future__ import annotations

import re
from typing import Any

from .package import OfficeZip, local, rels
from .slides import odf_inline

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


def docx_headers(oz: OfficeZip) -> str:
    """The header and footer parts word/document.xml refers to, in part-number order."""
    parts = []
    for target in rels(oz, "word/document.xml").values():
        found = _DOCX_PART.search(target)
        if found and oz.has(target):
            parts.append((found.group(1), int(found.group(2) or 0), target))
    texts: dict[str, list[str]] = {}
    for kind, _, target in sorted(parts):
        lines = _docx_lines(oz.xml(target))
        texts.setdefault(kind, []).append("\n".join(lines))
    return sections(texts)


def _docx_lines(root: Any) -> list[str]:
    """Paragraph texts of a WordprocessingML part; a table row becomes one line of its cells;
    cells continuing a vertical merge (Word does not show their text) are skipped."""
    out: list[str] = []
    for el in root:
        kind = local(el.tag)
        if kind == "p":
            text = " ".join(_w_text(el).split())
            if text:
                out.append(text)
        elif kind == "tbl":
            for row in (r for r in el if local(r.tag) == "tr"):
                cells = [
                    " ".join(_docx_lines(c)) for c in row if local(c.tag) == "tc" and _shown(c)
                ]
                line = " | ".join(c for c in cells if c)
                if line:
                    out.append(line)
        elif kind in ("sdt", "sdtContent", "customXml"):
            out += _docx_lines(el)
    return out


def _w_text(el: Any) -> str:
    """Text of runs below ``el``: w:t, tabs and breaks; alternate-content fallbacks and deleted
    text left out."""
    parts = []
    for sub in el:
        kind = local(sub.tag)
        if kind == "t":
            parts.append(sub.text or "")
        elif kind in ("tab", "br", "cr"):
            parts.append(" ")
        elif kind not in ("Fallback", "del", "delText", "instrText"):
            parts.append(_w_text(sub))
    return "".join(parts)


def _shown(cell: Any) -> bool:
    for pr in (c for c in cell if local(c.tag) == "tcPr"):
        for merge in (m for m in pr if local(m.tag) == "vMerge"):
            if not any(local(k) == "val" and v == "restart" for k, v in merge.attrib.items()):
                return False
    return True


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
