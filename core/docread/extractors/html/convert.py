"""HTML to markdown: what a person sees on the page as headings, paragraphs, lists, links, fenced
code (markdownify on BeautifulSoup) and pipe tables (rendered row by row by docread's table
renderer in the tokenizing pre-pass, ``prepass.py``), without scripts, styles, comments or the
page's navigation; bounded in size and nesting depth. Pure: no I/O."""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

from ...errors import DependencyMissingError
from ..markdown import TableCaps
from .prepass import Prepass

try:
    from bs4 import BeautifulSoup, Comment, Tag
    from bs4.element import Declaration, Doctype, NavigableString, ProcessingInstruction
    from markdownify import ATX, MarkdownConverter
except ImportError as exc:  # core dependencies: only a broken install gets here
    raise DependencyMissingError(
        f"HTML conversion needs markdownify and beautifulsoup4 ({exc}): "
        "pip install 'markdownify>=1.2,<2' beautifulsoup4"
    ) from exc

#: Deeper elements are flattened to their text: markdownify recurses (three frames a level).
MAX_DEPTH = 100
#: Never content: dropped with everything inside them.
_DROPPED = ("head", "title", "script", "style", "noscript", "template")
#: Parsed strings that are not text: comments, the doctype, processing instructions.
_NOT_TEXT = (Comment, Declaration, Doctype, ProcessingInstruction)
#: Link targets that are no place to go: the link is rendered as its text.
_NO_LINK = ("javascript:", "data:", "vbscript:")
#: ``<header>``/``<footer>`` inside one of these belong to it (an article's title), not the page.
_SECTIONING = frozenset({"article", "aside", "main", "nav", "section"})
_BLANK_RUNS = re.compile(r"\n{3,}")
_SPACES = re.compile(r"\s+")
_LANGUAGE = re.compile(r"^(?:language|lang)-(\S+)$")


@dataclass(frozen=True, slots=True)
class HtmlPage:
    """A page as markdown with its ``<title>`` and ``<meta name=description>``; ``notes`` say
    what was cut or flattened (empty when the page converted whole)."""

    markdown: str
    title: str | None
    description: str | None
    notes: tuple[str, ...] = ()


def html_to_markdown(
    html: str,
    *,
    limit_chars: int | None = None,
    tick: Callable[[], None] | None = None,
    tables: TableCaps | None = None,
) -> HtmlPage:
    """``html`` as markdown: boilerplate removed, tags the parser finds unclosed repaired,
    nesting deeper than ``MAX_DEPTH`` flattened, tables rendered under ``tables`` (the read's
    ``TableCaps``), and only the first ``limit_chars`` characters
    parsed when given (a note says so). ``tick`` is called between steps and every few thousand
    elements (a deadline check may raise from it)."""
    notes: list[str] = []
    if limit_chars is not None and len(html) > limit_chars:
        notes.append(
            f"The HTML is {len(html):,} characters; only the first {limit_chars:,} were converted."
        )
        html = html[:limit_chars]
    tick = tick or _no_tick
    pre = Prepass(
        MAX_DEPTH, tick, tables
    )  # tables out, deep elements flattened: a small, shallow tree
    pre.feed(html)
    pre.close()
    del html
    soup = BeautifulSoup(pre.html, "html.parser")
    pre.out.clear()
    tick()
    found = _Cleaner(tick).clean(soup)
    if found.flattened or pre.flattened:
        notes.append(
            f"Elements nested deeper than {MAX_DEPTH} levels were flattened to their text."
        )
    tick()
    try:
        markdown = _Converter().convert_soup(soup)
    except RecursionError:  # a converter path deeper than the flattening allows for
        markdown = soup.get_text("\n")
        notes.append("The page was too deeply nested to convert: its plain text is shown.")
    markdown = _BLANK_RUNS.sub("\n\n", pre.restore(markdown)).strip()
    return HtmlPage(markdown, found.title, found.description or found.og, tuple(notes))


def _no_tick() -> None:
    pass


def _text(value: object) -> str | None:
    return _SPACES.sub(" ", str(value or "")).strip() or None


class _Cleaner:
    """One iterative walk over the parsed page (it may be 50,000 levels deep): reads the title
    and description, drops comments and non-content elements, simplifies images, script links
    and tooltips, finds the page's navigation and flattens elements nested past ``MAX_DEPTH``.

    Navigation is ``<nav>``, role=navigation, and ``<header>``/``<footer>`` outside any article
    or section (one inside belongs to it: an article's title); it is dropped unless it holds all
    the page's text (a page that is only a link list keeps it)."""

    def __init__(self, tick: Callable[[], None]) -> None:
        self.tick = tick
        self.title: str | None = None
        self.description: str | None = None
        self.og: str | None = None
        self.flattened = False
        self.navigation: list[Tag] = []

    def clean(self, soup: BeautifulSoup) -> _Cleaner:
        stack: list[tuple[Tag, int, bool, bool]] = [(soup, 0, False, False)]
        seen = 0
        while stack:
            tag, depth, sectioned, in_nav = stack.pop()
            seen += 1
            if seen % 4096 == 0:
                self.tick()
            if depth >= MAX_DEPTH:
                self._flatten(tag)
                continue
            for child in list(tag.contents):
                if isinstance(child, Tag):
                    if self._keep(child):
                        nav = not in_nav and _is_navigation(child, sectioned)
                        if nav:
                            self.navigation.append(child)
                        inside = sectioned or child.name in _SECTIONING
                        stack.append((child, depth + 1, inside, in_nav or nav))
                elif isinstance(child, _NOT_TEXT):
                    child.extract()
        ids = {id(t) for t in self.navigation}
        if self.navigation and _text_outside(soup, ids):
            for tag in self.navigation:
                tag.decompose()
        return self

    def _keep(self, tag: Tag) -> bool:
        """Read what the element says about the page; False when it was removed."""
        name = tag.name
        if name in ("head", "title", "meta"):
            for el in [tag, *tag.find_all(["title", "meta"])] if name == "head" else [tag]:
                self._page_facts(el)
        if name in _DROPPED:
            tag.decompose()
            return False
        if name == "img":
            alt = _text(tag.get("alt"))
            if alt is None:
                tag.decompose()
                return False
            if str(tag.get("src") or "").strip().lower().startswith("data:"):
                tag.replace_with(NavigableString(alt))  # the alt text, no base64 in the text
                return False
        elif name == "a" and str(tag.get("href") or "").strip().lower().startswith(_NO_LINK):
            del tag["href"]  # rendered as its text
        if name in ("a", "img") and "title" in tag.attrs:
            del tag["title"]  # a tooltip, not page text: it would repeat in every link
        return True

    def _page_facts(self, tag: Tag) -> None:
        if tag.name == "title" and self.title is None:
            self.title = _text(tag.get_text())
        elif tag.name == "meta":
            content = _text(tag.get("content"))
            if str(tag.get("name", "")).strip().lower() == "description":
                self.description = self.description or content
            elif str(tag.get("property", "")).strip().lower() == "og:description":
                self.og = self.og or content

    def _flatten(self, tag: Tag) -> None:
        """What is inside ``tag`` becomes its text (non-content elements dropped first)."""
        if not any(isinstance(child, Tag) for child in tag.contents):
            return
        for el in tag.find_all(_DROPPED):
            el.decompose()
        text = tag.get_text(" ")
        tag.clear()
        tag.append(NavigableString(text))
        self.flattened = True


def _is_navigation(tag: Tag, sectioned: bool) -> bool:
    if tag.name == "nav" or str(tag.get("role", "")).strip().lower() == "navigation":
        return True
    return tag.name in ("header", "footer") and not sectioned


def _text_outside(soup: BeautifulSoup, ids: set[int]) -> bool:
    """Whether some visible text is outside the elements whose ids are given (stops at the
    first such text)."""
    for text in soup.strings:
        if text.strip() and not any(id(p) in ids for p in text.parents):
            return True
    return False


def _code_language(el: Tag) -> str | None:
    """``language-x``/``lang-x`` on a ``<pre>`` or on its ``<code>``."""
    code = el.find("code")
    for tag in (el, code) if isinstance(code, Tag) else (el,):
        for cls in tag.get("class") or ():
            match = _LANGUAGE.match(str(cls))
            if match:
                return match.group(1)
    return None


class _Converter(MarkdownConverter):
    """markdownify with docread's choices: ATX headings, ``-`` bullets, fenced code with its
    language, text never backslash-escaped (a RAG index must find "snake_case" as written)."""

    def __init__(self) -> None:
        super().__init__(
            heading_style=ATX,
            bullets="-",
            code_language_callback=_code_language,
            escape_asterisks=False,
            escape_underscores=False,
            escape_misc=False,
        )
