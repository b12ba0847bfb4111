"""HTML to markdown: what a person sees on the page as headings, paragraphs, lists, links, fenced
code and pipe tables (markdownify on BeautifulSoup), without scripts, styles, comments or the
page's navigation; bounded in size and nesting depth. Pure: no I/O."""

from __future__ import annotations

import re
from dataclasses import dataclass

from ...errors import DependencyMissingError
from ..markdown import escape_cell

try:
    from bs4 import BeautifulSoup, Comment, Tag
    from bs4.element import NavigableString
    from markdownify import ATX, MarkdownConverter
except ImportError as exc:  # core dependencies: only a broken install gets here
    raise DependencyMissingError(
        f"HTML conversion needs markdownify and beautifulsoup4 ({exc}): "
        "pip install 'markdownify>=1.2,<2' beautifulsoup4"
    ) from exc

#: Deeper elements are flattened to their text: markdownify recurses (three frames a level).
MAX_DEPTH = 100
#: Never content: dropped with everything inside them.
_DROPPED = ("head", "script", "style", "noscript", "template")
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


def html_to_markdown(html: str, *, limit_chars: int | None = None) -> HtmlPage:
    """``html`` as markdown: boilerplate removed, tags the parser finds unclosed repaired,
    nesting deeper than ``MAX_DEPTH`` flattened, and only the first ``limit_chars`` characters
    parsed when given (a note says so)."""
    notes: list[str] = []
    if limit_chars is not None and len(html) > limit_chars:
        notes.append(
            f"The HTML is {len(html):,} characters; only the first {limit_chars:,} were converted."
        )
        html = html[:limit_chars]
    soup = BeautifulSoup(html, "html.parser")
    title, description = _title(soup), _description(soup)
    _drop_boilerplate(soup)
    _simplify_media_and_links(soup)
    if _flatten_deep(soup, MAX_DEPTH):
        notes.append(
            f"Elements nested deeper than {MAX_DEPTH} levels were flattened to their text."
        )
    try:
        markdown = _Converter().convert_soup(soup)
    except RecursionError:  # a converter path deeper than the flattening allows for
        markdown = soup.get_text("\n")
        notes.append("The page was too deeply nested to convert: its plain text is shown.")
    return HtmlPage(_BLANK_RUNS.sub("\n\n", markdown).strip(), title, description, tuple(notes))


def _title(soup: BeautifulSoup) -> str | None:
    tag = soup.find("title")
    text = _SPACES.sub(" ", tag.get_text()).strip() if tag is not None else ""
    return text or None


def _description(soup: BeautifulSoup) -> str | None:
    """``<meta name="description">``, else the Open Graph one."""
    for attr, name in (("name", "description"), ("property", "og:description")):
        for meta in soup.find_all("meta"):
            if str(meta.get(attr, "")).strip().lower() == name:
                text = _SPACES.sub(" ", str(meta.get("content", ""))).strip()
                if text:
                    return text
    return None


def _drop_boilerplate(soup: BeautifulSoup) -> None:
    """Comments and non-content elements go; the page's navigation (``<nav>``, role=navigation,
    ``<header>``/``<footer>`` outside any article or section) goes too unless it holds all the
    page's text (a page that is only a link list keeps it)."""
    for node in soup.find_all(string=lambda s: isinstance(s, Comment)):
        node.extract()
    for tag in soup.find_all(_DROPPED):
        tag.decompose()
    navigation = [tag for tag in soup.find_all(True) if _is_navigation(tag)]
    ids = {id(t) for t in navigation}
    outer = [t for t in navigation if not any(id(p) in ids for p in t.parents)]
    boilerplate = sum(len(t.get_text(strip=True)) for t in outer)
    if boilerplate < len(soup.get_text(strip=True)):
        for tag in outer:
            tag.decompose()


def _is_navigation(tag: Tag) -> bool:
    if tag.name == "nav" or str(tag.get("role", "")).strip().lower() == "navigation":
        return True
    return tag.name in ("header", "footer") and not any(p.name in _SECTIONING for p in tag.parents)


def _simplify_media_and_links(soup: BeautifulSoup) -> None:
    """Images without alt text go (nothing to read); a ``data:`` image becomes its alt text (no
    base64 in the text); ``javascript:`` links become their text."""
    for img in soup.find_all("img"):
        alt = _SPACES.sub(" ", str(img.get("alt") or "")).strip()
        if not alt:
            img.decompose()
        elif str(img.get("src") or "").strip().lower().startswith("data:"):
            img.replace_with(NavigableString(alt))
    for link in soup.find_all("a", href=True):
        if str(link["href"]).strip().lower().startswith(("javascript:", "data:")):
            del link["href"]


def _flatten_deep(soup: BeautifulSoup, max_depth: int) -> bool:
    """Replace what is inside each element at ``max_depth`` by its text (iteratively: the tree
    may be 50,000 levels deep); True when something was flattened."""
    flattened = False
    stack: list[tuple[Tag, int]] = [(soup, 0)]
    while stack:
        tag, depth = stack.pop()
        if depth >= max_depth:
            if any(isinstance(child, Tag) for child in tag.contents):
                text = tag.get_text(" ")
                tag.clear()
                tag.append(NavigableString(text))
                flattened = True
            continue
        stack.extend((child, depth + 1) for child in tag.contents if isinstance(child, Tag))
    return flattened


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
    language, the first table row as header, text never backslash-escaped (a RAG index must
    find "snake_case" as written), and table cells escaped by docread's one cell rule."""

    def __init__(self) -> None:
        super().__init__(
            heading_style=ATX,
            bullets="-",
            code_language_callback=_code_language,
            escape_asterisks=False,
            escape_underscores=False,
            escape_misc=False,
            table_infer_header=True,
        )

    def convert_td(self, el: Tag, text: str, parent_tags: set[str]) -> str:
        span = str(el.get("colspan", ""))
        count = max(1, min(1000, int(span))) if span.isdigit() else 1
        return " " + escape_cell(text.strip()) + " |" * count

    convert_th = convert_td
