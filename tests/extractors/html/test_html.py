"""HTML as markdown: the converter (structure, boilerplate removal, title/description, bounds on
size and nesting) and the extractor (loader markdown, the agent view's numbered source, charset
from BOM / meta / http-equiv), on HTML generated here."""

from __future__ import annotations

from pathlib import Path

import docread
import pytest
from conftest import MakeReader
from docread.extractors.html.convert import MAX_DEPTH, HtmlPage, html_to_markdown
from docread.extractors.html.extractor import SOURCE_NOTE

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
    assert "| Name | Value |\n|---|---|\n| a\\|b | 2 |" in md  # docread's one table renderer
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


# -- the extractor: loader markdown, the agent view's source, charsets, bounds --------------------


def test_loader_reads_markdown_with_title_and_description(
    reader: docread.Reader, tmp_path: Path
) -> None:
    (tmp_path / "page.html").write_text(PAGE, encoding="utf-8")
    (doc,) = reader.iter_documents("page.html")
    assert doc.text == html_to_markdown(PAGE).markdown
    meta = doc.metadata
    assert (meta["format"], meta["extractor"], meta["mime_type"]) == ("html", "html", "text/html")
    assert (meta["title"], meta["description"]) == (
        "Quarterly Report",
        "Numbers for the third quarter",
    )
    assert meta["markdown"] is True and meta["encoding"] == "utf-8"
    assert (meta["line_start"], meta["line_end"]) == (1, doc.text.count("\n") + 1)
    assert "truncated" not in meta


def test_a_long_paragraph_reaches_a_loader_whole(reader: docread.Reader, tmp_path: Path) -> None:
    """A 2,201-character paragraph is one markdown line: a loader keeps it (the agent view's
    line cap is the view's), and the agent's markdown view cuts it with its length."""
    para = ("lorem ipsum " * 184)[:2200] + "Z"
    (tmp_path / "long.html").write_text(f"<html><body><p>{para}</p></body></html>")
    (doc,) = reader.iter_documents("long.html")
    assert doc.text == para and "truncated" not in doc.metadata
    shown = reader.read("long.html", output_format="markdown").documents[0].text
    assert shown.endswith("... [line truncated: 2,201 chars]")


@pytest.mark.parametrize("name", ["page.htm", "page.xhtml", "page"])
def test_other_names_and_content_detection(
    reader: docread.Reader, tmp_path: Path, name: str
) -> None:
    (tmp_path / name).write_text(PAGE, encoding="utf-8")
    (doc,) = reader.iter_documents(name)
    assert doc.metadata["format"] == "html" and "# Article heading" in doc.text


def test_code_with_an_html_head_stays_code(reader: docread.Reader, tmp_path: Path) -> None:
    """The content decides HTML only where no known extension names the file: a PHP template
    that opens with a doctype is still code."""
    (tmp_path / "index.php").write_text("<!DOCTYPE html>\n<?php echo $x; ?>\n", encoding="utf-8")
    (doc,) = reader.iter_documents("index.php")
    assert doc.metadata["format"] == "text" and "<?php echo $x; ?>" in doc.text


def test_agent_view_is_numbered_source_with_a_note(reader: docread.Reader, tmp_path: Path) -> None:
    (tmp_path / "page.html").write_text(PAGE, encoding="utf-8")
    result = reader.read("page.html")
    text = result.render()
    assert "     1\t<!doctype html>" in text
    assert '<script>var secret = "SCRIPT-TEXT";</script>' in text
    assert SOURCE_NOTE in result.notes
    (doc,) = result.documents
    assert doc.metadata["line_start"] == 1 and "markdown" not in doc.metadata


def test_agent_view_markdown_on_request(reader: docread.Reader, tmp_path: Path) -> None:
    (tmp_path / "page.html").write_text(PAGE, encoding="utf-8")
    result = reader.read("page.html", output_format="markdown")
    assert result.documents[0].text == html_to_markdown(PAGE).markdown
    text = result.render()
    assert "# Article heading" in text and "\t# Article heading" not in text  # not numbered
    assert "SCRIPT-TEXT" not in text and SOURCE_NOTE not in result.notes


def test_agent_view_markdown_reads_on_in_markdown(reader: docread.Reader, tmp_path: Path) -> None:
    body = "".join(f"<p>Paragraph {n}</p>" for n in range(1, 101))
    (tmp_path / "long.html").write_text(f"<html><body>{body}</body></html>", encoding="utf-8")
    first = reader.read("long.html", output_format="markdown", limit=9)
    assert first.documents[0].text == "\n\n".join(f"Paragraph {n}" for n in range(1, 6))
    assert "Use output_format='markdown' offset=10 to read more." in first.render()
    second = reader.read("long.html", output_format="markdown", offset=11, limit=10)
    assert second.documents[0].text.startswith("Paragraph 6\n")


CAFE = "<p>Caf\u00e9 cr\u00e8me \u201cquoted\u201d \u20ac5</p>"


@pytest.mark.parametrize(
    ("head", "codec"),
    [
        pytest.param('<meta charset="windows-1252">', "cp1252", id="meta-charset"),
        pytest.param(
            '<meta http-equiv="Content-Type" content="text/html; charset=windows-1252">',
            "cp1252",
            id="http-equiv",
        ),
        # a Latin-1 label is read as windows-1252, as browsers do: the quotes and euro sign show
        pytest.param("<meta charset=iso-8859-1>", "cp1252", id="latin1-label"),
        pytest.param('<meta charset="koi8-r">', "koi8-r", id="koi8-r"),
    ],
)
def test_declared_charset(reader: docread.Reader, tmp_path: Path, head: str, codec: str) -> None:
    text = "<p>\u041f\u0440\u0438\u0432\u0435\u0442</p>" if codec == "koi8-r" else CAFE
    page = f"<html><head>{head}<title>T</title></head><body>{text}</body></html>"
    (tmp_path / "legacy.html").write_bytes(page.encode(codec))
    (doc,) = reader.iter_documents("legacy.html")
    assert doc.text == html_to_markdown(text).markdown
    assert doc.metadata["encoding"] == codec
    source = reader.read("legacy.html")
    assert text in source.documents[0].text and source.documents[0].metadata["encoding"] == codec


@pytest.mark.parametrize(
    "label",
    ["base64", "rot13", "zlib", "hex", "uu", "bz2", "quopri", "idna", "punycode", "utf-7",
     "UTF_7", "no-such-charset"],
)  # fmt: skip
def test_declared_charset_that_is_no_text_encoding_is_refused(
    reader: docread.Reader, tmp_path: Path, label: str
) -> None:
    """A declaration naming a bytes codec, UTF-7 or nothing Python knows falls back to detection
    with a note naming it (it made the page unreadable: LookupError)."""
    page = f'<html><head><meta charset="{label}"></head><body>{CAFE}</body></html>'
    (tmp_path / "odd.html").write_bytes(page.encode("utf-8"))
    note = f"odd.html: the declared charset {label.lower()!r} is not a text encoding"
    for output_format in ("markdown", "text"):
        result = reader.read("odd.html", output_format=output_format)
        assert "Café crème “quoted” €5" in result.documents[0].text
        assert result.documents[0].metadata["encoding"] == "utf-8"
        assert any(n.startswith(note) and n.endswith("read as utf-8.") for n in result.notes)


def test_utf16_with_bom(reader: docread.Reader, tmp_path: Path) -> None:
    """The BOM wins over a (wrong) declaration, as in browsers."""
    page = f'<html><head><meta charset="windows-1252"></head><body>{CAFE}</body></html>'
    (tmp_path / "wide.html").write_bytes(page.encode("utf-16"))
    (doc,) = reader.iter_documents("wide.html")
    assert doc.text == "Café crème “quoted” €5" and doc.metadata["encoding"] == "utf-16"


def test_unclosed_tags_in_a_file(reader: docread.Reader, tmp_path: Path) -> None:
    (tmp_path / "broken.html").write_text(
        "<title>Broken</title><h1>Top<p>text <b>bold<ul><li>a<li>b"
    )
    (doc,) = reader.iter_documents("broken.html")
    assert doc.metadata["title"] == "Broken"
    for text in ("# Top", "text **bold", "a", "b"):
        assert text in doc.text


def test_deep_nesting_in_a_file_is_a_note(reader: docread.Reader, tmp_path: Path) -> None:
    depth = 50_000
    (tmp_path / "deep.html").write_text("<div>" * depth + "bottom" + "</div>" * depth)
    result = reader.read("deep.html", output_format="markdown")
    assert result.documents[0].text == "bottom"
    flattened = f"deep.html: Elements nested deeper than {MAX_DEPTH} levels were flattened"
    assert any(note.startswith(flattened) for note in result.notes)


def test_big_one_line_file_is_cut_at_the_text_limit(
    make_reader: MakeReader, tmp_path: Path
) -> None:
    """~20 MB on one line with limits.text at 1 MB: only the first MB is parsed (a note and
    ``truncated``); the source view still streams a window of the whole file."""
    cell = "<td>x</td>" * 50
    row = f"<tr>{cell}</tr>"
    body = row * (20 * 1024 * 1024 // len(row))
    (tmp_path / "big.html").write_text(
        f"<html><body><table>{body}</table><p>TAIL</p></body></html>"
    )
    reader = make_reader(limits={"text": 1024 * 1024})
    result = reader.read("big.html", output_format="markdown", limit=0)
    (doc,) = result.documents
    assert doc.metadata["truncated"] is True and "TAIL" not in doc.text
    assert doc.text.startswith("| x |") and 0 < len(doc.text) < 1024 * 1024
    assert any("limits.text" in note and "1,048,576 bytes" in note for note in result.notes)
    source = reader.read("big.html")
    assert "[line truncated:" in source.documents[0].text


def test_output_cap_inside_markdown_reads_on_in_markdown(
    make_reader: MakeReader, tmp_path: Path
) -> None:
    body = "".join(f"<p>Paragraph {n}</p>" for n in range(1, 101))
    (tmp_path / "long.html").write_text(f"<html><body>{body}</body></html>", encoding="utf-8")
    reader = make_reader(output={"max_chars": 120})
    text = reader.read("long.html", output_format="markdown").render()
    assert "Paragraph 1\n" in text and "Paragraph 100" not in text
    assert "use output_format='markdown' offset=" in text


def test_framework_loaders_see_html_as_markdown(tmp_path: Path) -> None:
    """Both wrappers list the HTML extensions and get the page as markdown with its title."""
    from langchain_core.document_loaders import Blob

    from langchain_docread import DocReadParser
    from llama_index_docread import DocReadReader

    (tmp_path / "page.xhtml").write_text(PAGE, encoding="utf-8")
    expected = html_to_markdown(PAGE).markdown
    config = {"cache": {"enabled": False}}
    (lc,) = DocReadParser(config=config).parse(Blob.from_data(PAGE.encode(), path="p.htm"))
    assert lc.page_content == expected and lc.metadata["title"] == "Quarterly Report"
    llama = DocReadReader(config=config)
    assert {".html", ".htm", ".xhtml"} <= set(llama.file_extractor())
    (node,) = llama.load_data(tmp_path / "page.xhtml")
    assert node.text == expected and node.metadata["description"] == "Numbers for the third quarter"


def big_table(rows: int) -> str:
    body = "".join(
        f"<tr><td>{i}</td><td>name {i}</td><td>{i * 7 % 1000}</td></tr>" for i in range(rows)
    )
    return f"<html><body><table><tr><th>n</th><th>name</th><th>v</th></tr>{body}</table><p>END</p></body></html>"


def test_big_table_reads_to_its_last_row_in_bounded_memory(
    make_reader: MakeReader, tmp_path: Path
) -> None:
    """Tables are rendered row by row before the tree is built: a 40,000-row table reads to its
    last row under a 400 MB worker (the markdownify tree of it ran out of memory)."""
    (tmp_path / "table.html").write_text(big_table(40_000))
    reader = make_reader(memory={"max_worker_mb": 400})
    text = "\n".join(d.text for d in reader.iter_documents("table.html"))
    assert text.startswith("| n | name | v |\n|---|---|---|\n| 0 | name 0 | 0 |")
    assert "| 39999 | name 39999 | 993 |\n\nEND" in text


def test_merged_cells_repeat_their_value_through_the_one_table_renderer() -> None:
    """A cell spanning columns or rows is repeated in each cell it covers (as the office
    families do: one renderer), two <th> rows are joined per column, a pipe is escaped."""
    page = (
        "<table><tr><th rowspan=2>Team</th><th colspan=2>Score</th></tr>"
        "<tr><th>home</th><th>away</th></tr>"
        "<tr><td rowspan=2>Owls</td><td>3</td><td>4|5</td></tr><tr><td>6</td><td>7</td></tr>"
        "</table>"
    )
    assert html_to_markdown(page).markdown.strip() == (
        "| Team | Score / home | Score / away |\n|---|---|---|\n"
        "| Owls | 3 | 4\\|5 |\n| Owls | 6 | 7 |"
    )


def test_deep_inline_nesting_is_flattened_while_tokenizing() -> None:
    """100,000 nested inline elements are flattened while tokenizing, before BeautifulSoup builds
    a tree of them (it took 33 s and 789 MB): the tree it gets is MAX_DEPTH deep."""
    from docread.extractors.html.prepass import Prepass

    html = "<p>top</p><p>" + "<b><i>" * 50_000 + "bottom" + "</i></b>" * 50_000 + "</p>"
    pre = Prepass(MAX_DEPTH, lambda: None)
    pre.feed(html)
    pre.close()
    assert pre.flattened and pre.html.count("<b>") + pre.html.count("<i>") == MAX_DEPTH - 1
    assert pre.html.count("</b>") == pre.html.count("<b>") and "bottom" in pre.html
    page = html_to_markdown(html)
    assert page.markdown.split()[0] == "top" and "bottom" in page.markdown
    assert page.notes == (
        f"Elements nested deeper than {MAX_DEPTH} levels were flattened to their text.",
    )
