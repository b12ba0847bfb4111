"""Review comments, one line each as ``author (date): text`` (the date as its day), read from the
package (pandoc drops them): DOCX word/comments.xml; a PPTX slide's legacy (``p:cm``) and modern
(``p188:cm``, with replies) comments; an XLSX sheet's legacy notes and threaded comments (a
threaded comment's legacy copy, which Excel writes beside it, is not read twice)."""

from __future__ import annotations

import posixpath
from typing import Any

from .package import OfficeZip, attr, local, rels


def comment_line(author: str, date: str, text: str, where: str = "") -> str:
    """One comment: ``[where: ]author (date): text``; the parts it lacks left out."""
    author, text = " ".join(author.split()), " ".join(text.split())
    who = f"{author} ({date[:10]})" if author and date else author or (date[:10] if date else "")
    line = f"{who}: {text}" if who else text
    return f"{where}: {line}" if where else line


def _words(el: Any) -> str:
    """The text of an element's runs (``t``), paragraphs apart by a space."""
    paras = [
        "".join(t.text or "" for t in p.iter() if local(t.tag) == "t")
        for p in el.iter()
        if local(p.tag) == "p"
    ]
    if paras:
        return " ".join(p for p in paras if p).strip()
    runs = [t.text or "" for t in el.iter() if local(t.tag) == "t"]
    return ("".join(runs) if runs else "".join(el.itertext())).strip()


def docx_comments(oz: OfficeZip) -> list[str]:
    """DOCX review comments (pandoc drops them when accepting changes)."""
    if not oz.has("word/comments.xml"):
        return []
    out = []
    for el in oz.xml("word/comments.xml"):
        if local(el.tag) == "comment" and (text := _words(el)):
            out.append(comment_line(attr(el, "author"), attr(el, "date"), text))
    return out


def _authors(oz: OfficeZip, part: str, tag: str, key: str) -> dict[str, str]:
    """Author id -> name from a PPTX authors part (legacy ``cmAuthor``, modern ``author``)."""
    if not oz.has(part):
        return {}
    return {attr(a, key): attr(a, "name") for a in oz.xml(part).iter() if local(a.tag) == tag}


def pptx_comments(oz: OfficeZip, slide: str) -> list[str]:
    """The comments on one slide: its legacy comments part and its modern one (replies after
    the comment they answer), in each part's order."""
    legacy = _authors(oz, "ppt/commentAuthors.xml", "cmAuthor", "id")
    modern = _authors(oz, "ppt/authors.xml", "author", "id")
    out: list[str] = []
    for target in rels(oz, slide).values():
        if not (posixpath.basename(target).lower().startswith(("comment", "moderncomment"))
                and oz.has(target)):  # fmt: skip
            continue
        for cm in oz.xml(target).iter():
            kind = local(cm.tag)
            body = next((s for s in cm if local(s.tag) in ("text", "txBody")), None)
            if kind == "cm" and body is not None and (text := _words(body)):
                author = legacy.get(attr(cm, "authorId")) or modern.get(attr(cm, "authorId"), "")
                out.append(comment_line(author, attr(cm, "dt") or attr(cm, "created"), text))
            elif kind == "reply" and (text := _words(cm)):
                author = modern.get(attr(cm, "authorId"), "")
                out.append(comment_line(author, attr(cm, "created"), text, "reply"))
    return out


def workbook_comments(oz: OfficeZip) -> dict[str, list[str]]:
    """An XLSX's comments by sheet name, in sheet order: threaded comments (with their
    replies) and legacy notes, each ``cell: author (date): text``."""
    book = "xl/workbook.xml"
    if not oz.has(book):
        return {}
    parts = rels(oz, book)
    people = _people(oz)
    out: dict[str, list[str]] = {}
    for el in oz.xml(book).iter():
        if local(el.tag) != "sheet" or not (sheet := parts.get(attr(el, "id"), "")):
            continue
        targets = [t for t in rels(oz, sheet).values() if oz.has(t)]
        lines: list[str] = []
        threaded: set[str] = set()
        for target in (t for t in targets if "threadedcomment" in t.lower()):
            for c in oz.xml(target).iter():
                if local(c.tag) == "threadedComment" and (text := _words(c)):
                    cell = attr(c, "ref")
                    threaded.add(cell)
                    author = people.get(attr(c, "personId"), "")
                    lines.append(comment_line(author, attr(c, "dT"), text, cell))
        notes = [t for t in targets if posixpath.basename(t).lower().startswith("comment")]
        for target in notes:
            root = oz.xml(target)
            authors = [a.text or "" for a in root.iter() if local(a.tag) == "author"]
            for c in root.iter():
                if local(c.tag) != "comment" or attr(c, "ref") in threaded:
                    continue
                index = attr(c, "authorId")
                author = (
                    authors[int(index)] if index.isdigit() and int(index) < len(authors) else ""
                )
                text = _words(next((s for s in c if local(s.tag) == "text"), c))
                if author and text.startswith(f"{author}:"):  # Excel heads a note with its author
                    text = text[len(author) + 1 :]
                if text.strip():
                    lines.append(comment_line(author, "", text, attr(c, "ref")))
        if lines:
            out[attr(el, "name")] = lines
    return out


def _people(oz: OfficeZip) -> dict[str, str]:
    """Threaded comments' persons: id -> display name (xl/persons/person.xml)."""
    for name in oz.names:
        if name.lower().startswith("xl/persons/") and name.endswith(".xml"):
            return {attr(p, "id"): attr(p, "displayName") for p in oz.xml(name).iter()
                    if local(p.tag) == "person"}  # fmt: skip
    return {}
