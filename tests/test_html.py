"""HTML as markdown: the converter (structure, boilerplate removal, title/description, bounds on
size and nesting) and the extractor (loader markdown, the agent view's numbered source, charset
from BOM / meta / http-equiv), on HTML generated here."""

from __future__ import annotations

from docread.extractors.html.convert import MAX_DEPTH, HtmlPage, html_to_markdown

PAGE = """<!doctype html>
<html><head><title> Quarterly   Report </title>
<meta name="Description" content="Numbers for the third quarter">
<style>p { color: red }</style><script>var secret = "SCRIPT-TEXT";</script></head>
<body>
<header><a href="/">Home</a> <a href="/about">About us</a></header>
<nav><ul><li><a href="/menu">MENU-ENTRY</a></li></ul></nav>
<main><article>
<header><h1>Article heading</h1><p>By the editor</p></header>
<p>First paragraph with <a href="https://example.org/p">a link</a> and snake_case *as written*.</p>
<!-- COMMENT-TEXT -->
<h2>Lists</h2>
<ul><li>one</li><li>two<ul><li>nested</li></ul></li></ul>
<ol><li>first</li><li>second</li></ol>
<h3>Code</h3>
<pre><code class="language-python">def f(x):
    return x | 1
</code></pre>
<table><tr><th>Name</th><th>Value</th></tr><tr><td>a|b</td><td>2</td></tr></table>
<img src="spacer.gif"><img src="chart.png" alt="Sales chart">
<img src="data:image/png;base64,iVBORw0KGgo=" alt="Inline logo">
<noscript>NOSCRIPT-TEXT</noscript><template><p>TEMPLATE-TEXT</p></template>
<div role="navigation">ROLE-NAV-TEXT</div>
<a href="javascript:void(0)">Click here</a>
<footer>Article footnote stays</footer>
</article></main>
<footer>PAGE-FOOTER-TEXT</footer>
</body></html>"""


def test_structure_becomes_markdown() -> None:
    md = html_to_markdown(PAGE).markdown
    assert "# Article heading" in md
    assert "## Lists" in md and "### Code" in md
    assert "[a link](https://example.org/p)" in md
    assert "- one\n- two\n  - nested" in md
    assert "1. first\n2. second" in md
    assert "```python\ndef f(x):\n    return x | 1\n```" in md
    assert "| Name | Value |\n| --- | --- |\n| a\\|b | 2 |" in md
    # text is never backslash-escaped: a search finds it as written
    assert "snake_case *as written*" in md


def test_boilerplate_removed_content_kept() -> None:
    md = html_to_markdown(PAGE).markdown
    for gone in (
        "SCRIPT-TEXT", "color: red", "COMMENT-TEXT", "MENU-ENTRY", "About us", "NOSCRIPT-TEXT",
        "TEMPLATE-TEXT", "ROLE-NAV-TEXT", "PAGE-FOOTER-TEXT", "Quarterly", "javascript:",
    ):  # fmt: skip
        assert gone not in md, gone
    # a header or footer inside an article is the article's own
    assert "By the editor" in md and "Article footnote stays" in md
    assert "Click here" in md


def test_images_with_alt_only_and_no_data_uris() -> None:
    md = html_to_markdown(PAGE).markdown
    assert "![Sales chart](chart.png)" in md
    assert "spacer.gif" not in md
    assert "Inline logo" in md and "base64" not in md


def test_title_and_description() -> None:
    page = html_to_markdown(PAGE)
    assert page == HtmlPage(page.markdown, "Quarterly Report", "Numbers for the third quarter")
    og = html_to_markdown('<meta property="og:description" content="From OG"><p>x</p>')
    assert (og.title, og.description) == (None, "From OG")


def test_navigation_only_page_is_kept() -> None:
    """A page that is nothing but a link list keeps it: boilerplate never empties a page."""
    md = html_to_markdown("<body><nav><a href='/a'>Chapter one</a></nav></body>").markdown
    assert md == "[Chapter one](/a)"


def test_unclosed_tags_are_repaired() -> None:
    page = html_to_markdown("<h2>Title<p>Para <b>bold <i>both<li>item<table><tr><td>cell")
    assert "## Title" in page.markdown
    for text in ("Para", "**bold", "both", "item", "cell"):
        assert text in page.markdown
    assert page.notes == ()


def test_deep_nesting_is_flattened_not_a_crash() -> None:
    depth = 50_000
    html = (
        "<p>before</p>" + "<div>" * depth + "<b>deep</b> text" + "</div>" * depth + "<p>after</p>"
    )
    page = html_to_markdown(html)
    assert page.markdown.split() == ["before", "deep", "text", "after"]
    assert page.notes == (
        f"Elements nested deeper than {MAX_DEPTH} levels were flattened to their text.",
    )
    unclosed = html_to_markdown("<span>" * depth + "never closed")
    assert unclosed.markdown == "never closed"


def test_limit_chars_cuts_before_parsing() -> None:
    html = "<p>" + "word " * 1000 + "</p><p>END-MARK</p>"
    page = html_to_markdown(html, limit_chars=100)
    assert "END-MARK" not in page.markdown and page.markdown.startswith("word word")
    assert page.notes == (
        f"The HTML is {len(html):,} characters; only the first 100 were converted.",
    )
    assert "END-MARK" in html_to_markdown(html, limit_chars=len(html)).markdown
