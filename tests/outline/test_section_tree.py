"""One file's section tree from its units (docread.outline): heading lines of every markdown
family, natural places (sheets, messages, archive members), a PDF's bookmarks placed on their
pages, the text before the first section; ids counted from the file's start; ``section=`` names
resolved by id, heading text or a unique start of it."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import docread
import hostile_files
import pytest
from docread.outline.build import TreeBuilder
from docread.outline.headings import headings, rst_headings, written_headings
from docread.outline.stamps import place_bookmarks
from docread.outline.tree import Tree


def _unit(text: str, **meta: Any) -> docread.Document:
    return docread.Document(text, {"source": "doc", "extractor": "pdf", **meta})


def _tree(*units: docread.Document) -> tuple[Tree, TreeBuilder, list[Any]]:
    builder = TreeBuilder()
    marks = [builder.feed(u) for u in units]
    return builder.close(), builder, marks


def _rows(tree: Tree) -> list[tuple[str, str, int, str]]:
    return [(s.id, s.title, tree.depth(s), s.place()) for s in tree]


# -- heading lines -----------------------------------------------------------------------------
def test_atx_headings_skip_fenced_code_and_keep_levels_one_to_four() -> None:
    text = "# Top\n\n```\n# not a heading\n```\n## Sub ##\n##### too deep\n#### **Four**\n"
    assert [(h.level, h.title) for h in headings(text)] == [(1, "Top"), (2, "Sub"), (4, "Four")]


def test_link_markup_in_a_title_keeps_its_text() -> None:
    [h] = headings("## Experiment Setup[](#experiment-setup)\n")
    assert h.title == "Experiment Setup"


def test_hand_written_markdown_has_underlined_titles_too() -> None:
    text = "Title\n=====\n\nSome text\n\nPart two\n---\n\nwords\nnot a title\n---\n"
    found = [(h.level, h.title) for h in written_headings(text)]
    assert found == [(1, "Title"), (2, "Part two")]  # a line right under text is not one


def test_rst_titles_take_their_levels_from_the_order_styles_appear() -> None:
    text = "=====\nDoc\n=====\n\nIntro\n\nOne\n---\n\ntext\n\nTwo\n---\n\nDeep\n~~~~\n"
    found = [(h.level, h.title) for h in rst_headings(text)]
    assert found == [(1, "Doc"), (2, "One"), (2, "Two"), (3, "Deep")]


# -- the tree from units -----------------------------------------------------------------------
def _report() -> list[docread.Document]:
    return [
        _unit("Cover page text\n\n# Report\n\nIntro.\n\n## Results\n\nGood.", page_number=1),
        _unit("More results.\n\n### Detail\n\nSmall.", page_number=2),
        _unit("## Outlook\n\nBright.", page_number=3),
    ]


def test_headings_nest_by_level_with_ids_in_reading_order() -> None:
    tree, builder, marks = _tree(*_report())
    assert _rows(tree) == [
        ("s0", "(start)", 1, "page 1"),
        ("s1", "Report", 1, "pages 1-3"),
        ("s2", "Results", 2, "pages 1-2"),
        ("s3", "Detail", 3, "page 2"),
        ("s4", "Outlook", 2, "page 3"),
    ]
    assert builder.ids
    assert [s.id for s in tree.within(tree.resolve("s2", "doc"))] == ["s2", "s3"]
    assert tree.after(tree.resolve("s2", "doc")).id == "s4"  # type: ignore[union-attr]
    assert marks[1].start.id == "s2" and marks[1].first.id == "s2"  # page 2 goes on in s2
    assert [(at, s.id) for at, s in marks[1].starts] == [(15, "s3")]
    assert tree.resolve("s3", "doc").titles == ("Report", "Results", "Detail")


def test_sizes_add_up_the_subsections() -> None:
    tree, _, _ = _tree(*_report())
    report, results, detail = (tree.resolve(i, "doc") for i in ("s1", "s2", "s3"))
    assert results.total == results.chars + detail.chars
    assert report.total > results.total and report.size == (report.total + 3) // 4


def test_a_read_that_skips_pages_knows_paths_but_not_ids() -> None:
    later = _unit("## Outlook\n\nBright.", page_number=3, headings=["Report", "Results"])
    _, builder, marks = _tree(_report()[0], later)
    assert not builder.ids  # page 2's headings were not seen: ranks are unknown
    [(_, outlook)] = marks[1].starts
    assert outlook.titles == ("Report", "Outlook")  # the given path stands for the pages before


def test_natural_places_sit_above_headings() -> None:
    sheets = [
        docread.Document("## Sheet: Q1\n\n| a |\n|---|\n| 1 |", {
            "source": "b.xlsx", "extractor": "tabular", "sheet": "Q1", "sheet_index": 1}),
        docread.Document("## Sheet: Q1\n\n| a |\n|---|\n| 2 |", {
            "source": "b.xlsx", "extractor": "tabular", "sheet": "Q1", "sheet_index": 1,
            "row_start": 2}),
        docread.Document("## Sheet: Q2\n\n| b |\n|---|\n| 3 |", {
            "source": "b.xlsx", "extractor": "tabular", "sheet": "Q2", "sheet_index": 2}),
    ]  # fmt: skip
    tree, builder, _ = _tree(*sheets)
    assert [(s.id, s.title) for s in tree] == [("s1", "Q1"), ("s2", "Q2")]  # windows go on
    assert builder.ids
    late = [docread.Document(d.text, {**d.metadata, "row_start": 2}) for d in sheets[::2]]
    _, builder, _ = _tree(*late)  # the first sheet's table starts at row 2: still its start
    assert builder.ids
    _, builder, _ = _tree(sheets[2])  # a read of the second sheet alone: ranks unknown
    assert not builder.ids
    member = {"source": "a.zip::doc.md", "archive": "a.zip", "member": "doc.md", "depth": 1,
              "extractor": "text", "file_name": "doc.md", "line_start": 1}  # fmt: skip
    mail = {"source": "a.mbox", "extractor": "email", "message_index": 2, "subject": "Re: hi"}
    tree, _, _ = _tree(docread.Document("# Intro\n\ntext", member))
    assert [(s.title, tree.depth(s)) for s in tree] == [("doc.md", 1), ("Intro", 2)]
    tree, _, _ = _tree(docread.Document("# not parsed in a mail", mail))
    assert [(s.title, s.place()) for s in tree] == [("Re: hi", "message 2")]


def test_a_notebook_cell_opening_with_a_heading_is_that_section() -> None:
    cells = [
        docread.Document("## Cell 1 [markdown]\nSetup\n=====\nwords", {
            "source": "n.ipynb", "extractor": "notebook", "cell_index": 1,
            "cell_type": "markdown"}),
        docread.Document("## Cell 2 [code]\n```\n# a comment\n```", {
            "source": "n.ipynb", "extractor": "notebook", "cell_index": 2, "cell_type": "code"}),
    ]  # fmt: skip
    tree, _, marks = _tree(*cells)
    assert [(s.id, s.title, s.place()) for s in tree] == [("s1", "Setup", "cells 1-2")]
    assert marks[0].starts[0][0] == 0 and marks[1].first.id == "s1"


# -- a PDF's bookmarks -------------------------------------------------------------------------
def test_bookmarks_are_placed_at_their_heading_lines_or_a_line_of_their_title() -> None:
    text = "tail of before\n\n#### Armored Ogre Creatures\n\nx\n\nThe Children\n\ny"
    placed = place_bookmarks(text, ["Armored Ogre", "The Children", "Missing", "Gone"])
    assert placed == [
        (text.index("#### Armored"), True),
        (text.index("The Children"), True),
        (len(text), False),  # not on the page: it starts with the next page
        (len(text), False),
    ]
    assert place_bookmarks("body", ["Nowhere"]) == [(0, False)]  # first on its page: its top


def test_bookmarks_on_a_plain_text_page_are_placed_at_the_line_that_says_them() -> None:
    # an off read's page has no heading lines: each entry is the first line after the one
    # before that says its title (case, spaces and markup aside), not a line that only
    # mentions its words; a character that folds to several (ß) does not shift the offsets
    for lead in ("", "Straße und Maß\n"):
        text = (
            f"{lead}Combat rules follow.\n  COMBAT   Rules \nbody\n*Combat* rules\n"
            "Spells\nthe spells list\n  Spells  "
        )
        placed = place_bookmarks(text, ["Combat rules", "Combat Rules", "spells", "Spells"])
        assert placed == [
            (text.index("  COMBAT"), True),
            (text.index("*Combat*"), True),
            (text.index("Spells\n"), True),
            (text.rindex("  Spells"), True),
        ]


def test_bookmark_titles_match_lines_at_their_offsets_whatever_their_case_and_markup() -> None:
    """Lines are matched on a folded copy of the page (``ß`` folds to two letters, markup runs to
    one space): the offsets found are still the page's own."""
    text = "GROSSE STRASSE Straße\n\n  **Einführung**  in\u2003`Docread`\nbody\nEinführung\nend"
    placed = place_bookmarks(text, ["Einführung in Docread", "einführung", "Große Straße"])
    assert placed == [
        (text.index("  **Einf"), True),
        (text.index("Einführung\nend"), True),
        (len(text), False),  # a line that says more than the title is not it
    ]


def test_bookmarked_pages_take_ids_from_their_stamps() -> None:
    pages = [
        _unit("Title page", page_number=1, page_section="s0", bookmarks="s1 1 Guide"),
        _unit("text\n\n## Setup\n\nstuff\n\n## Use\n\nmore", page_number=2, page_section="s1",
              bookmarks="s2 2 Setup\ns3 2 Use", headings=["Guide"]),
        _unit("goes on", page_number=3, page_section="s3", headings=["Guide", "Use"]),
    ]  # fmt: skip
    tree, builder, marks = _tree(*pages)
    assert tree.source == "bookmarks" and builder.ids
    assert [(s.id, s.titles) for s in tree] == [
        ("s1", ("Guide",)), ("s2", ("Guide", "Setup")), ("s3", ("Guide", "Use")),
    ]  # fmt: skip
    assert marks[2].first.id == "s3"
    # a read of page 3 alone knows its section from the stamp
    _, alone, [mark] = _tree(pages[2])
    assert alone.ids and mark.first.id == "s3" and mark.first.titles == ("Guide", "Use")


# -- section= names ----------------------------------------------------------------------------
def test_a_name_resolves_by_id_title_or_a_unique_start() -> None:
    tree, _, _ = _tree(*_report())
    assert tree.resolve("s3", "doc").title == "Detail"
    assert tree.resolve("S3 Detail  (page 2)", "doc").title == "Detail"  # an outline line's start
    assert tree.resolve("  results ", "doc").id == "s2"
    assert tree.resolve("Outl", "doc").id == "s4"


def test_an_ambiguous_or_unknown_name_lists_the_closest_sections() -> None:
    units = [_unit("# Ogre\n\na\n\n# Ogre Lord\n\nb\n\n# Orc\n\nc", page_number=1)]
    tree, _, _ = _tree(*units)
    assert tree.resolve("ogre", "doc").id == "s1"  # one exact title wins over longer ones
    with pytest.raises(docread.InvalidOptionError) as exc:
        tree.resolve("Og", "doc")
    assert "2 sections of doc match" in str(exc.value)
    assert "s1 'Ogre' (page 1)" in str(exc.value) and "s2 'Ogre Lord' (page 1)" in str(exc.value)
    with pytest.raises(docread.InvalidOptionError) as exc:
        tree.resolve("Orcs", "doc")
    assert "no section of doc has that id or heading" in str(exc.value)
    assert "s3 'Orc'" in str(exc.value) and "view='outline'" in str(exc.value)


# -- hostile files: bounded work ---------------------------------------------------------------
def test_a_huge_outline_and_a_flood_of_headings_stay_bounded(tmp_path: Path) -> None:
    """20,000 bookmarks on one page and 25,000 heading lines: the outline and a load finish
    within a short global timeout (no scan per entry), headings past MAX_SECTIONS stay text."""
    hostile_files.pdf_wide_outline(tmp_path / "wide.pdf", entries=20_000)  # "Entry 7" on top
    (tmp_path / "flood.md").write_text("# h\n" * 25_000)
    config = {"cache": {"enabled": False}, "global_timeout": 30, "output": {"max_tokens": 4000}}
    with docread.Reader(tmp_path, config, shared_pool=True) as reader:
        outline = reader.read("wide.pdf", view="outline").render()
        assert "**Sections:** 20,000 (from the PDF's bookmarks)" in outline
        [unit] = reader.iter_documents("wide.pdf")  # entries 0-6 not found: at the page's top,
        assert unit.metadata["section_id"] == "s8"  # "Entry 7" (s8) its first line, 8+ after
        flood = reader.read("flood.md", view="outline")
        assert flood.header["Sections"] == "20,000"
        assert any("5,000 headings past the first 20,000 sections are read as text" in n
                   for n in flood.notes)  # fmt: skip
