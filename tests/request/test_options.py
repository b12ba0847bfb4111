"""ReadOptions validation: every bad value fails naming its parameter."""

from __future__ import annotations

import docread
import pytest
from docread import InvalidOptionError, ReadOptions
from docread.request.ranges import ColumnSpec, PageSpec, RowSpec, glob_match


@pytest.mark.parametrize(
    ("options", "needle"),
    [
        pytest.param({"offset": 0}, "offset=0", id="offset-zero"),
        pytest.param({"offset": -3}, "offset=-3", id="offset-negative"),
        pytest.param({"offset": "5"}, "offset='5'", id="offset-string"),
        pytest.param({"limit": -1}, "limit=-1", id="limit-negative"),
        pytest.param({"limit": True}, "limit=True", id="limit-bool"),
        pytest.param({"pages": "5-3"}, "ends before it starts", id="pages-reversed"),
        pytest.param({"pages": "abc"}, "pages='abc'", id="pages-garbage"),
        pytest.param({"pages": "0"}, "numbered from 1", id="pages-zero"),
        pytest.param({"rows": "head:x"}, "rows='head:x'", id="rows-head-x"),
        pytest.param({"rows": "9-2"}, "ends before it starts", id="rows-reversed"),
        pytest.param({"rows": "tail:0"}, "at least 1", id="rows-tail-zero"),
        pytest.param({"columns": " , "}, "columns=", id="columns-empty"),
        pytest.param({"output_format": "html"}, "output_format='html'", id="output-format"),
        pytest.param({"mode": "explode"}, "mode='explode'", id="mode"),
        pytest.param({"view": "hologram"}, "view='hologram'", id="view"),
        pytest.param({"sheet": -1}, "sheet=-1", id="sheet-negative"),
        pytest.param({"sheet": 1.5}, "sheet=1.5", id="sheet-float"),
        pytest.param({"include_metadata": "yes"}, "include_metadata='yes'", id="include-metadata"),
        pytest.param({"format_hint": "klingon"}, "format_hint='klingon'", id="format-hint"),
        pytest.param({"bogus": 1}, "unknown read option(s): bogus", id="unknown-option"),
        pytest.param({"section": "  "}, "give a section id from view='outline'", id="section-blank"),
        pytest.param({"section": "x" * 501}, "at most 500 characters", id="section-long"),
        pytest.param({"section": 3}, "section=3: must be a string", id="section-number"),
        pytest.param({"section": "s1", "view": "visual"}, "does not go with view='visual'",
                     id="section-visual"),
        pytest.param({"section": "s1", "pages": "2"}, "give one of them", id="section-pages"),
    ],
)
def test_bad_option_is_refused_naming_the_parameter(options: dict, needle: str) -> None:
    with pytest.raises(InvalidOptionError) as info:
        ReadOptions.from_kwargs("x.txt", **options)
    assert needle in str(info.value)
    assert isinstance(info.value, ValueError)


def test_read_validates_options_before_touching_the_file(tmp_path) -> None:
    with pytest.raises(InvalidOptionError, match="offset"):
        docread.read("does-not-exist.txt", workspace=tmp_path, offset=0)


HUGE = "9" * 5000  # past Python's 4,300-digit int() limit: a raw ValueError before


@pytest.mark.parametrize(
    "options",
    [
        {"pages": HUGE},
        {"pages": "1-" + HUGE},
        {"pages": HUGE + "-"},
        {"pages": "1,3-" + HUGE},
        {"rows": "head:" + HUGE},
        {"rows": "tail:" + HUGE},
        {"rows": HUGE},
        {"rows": "5-" + HUGE},
        {"offset": 10**5000},
        {"limit": 10**5000},
        {"offset": -(10**5000)},
        {"sheet": HUGE},
        {"sheet": 10**5000},
        {"offset": 10**15 + 1},
        {"rows": "1-1" + "0" * 16},
    ],
    ids=lambda options: f"{next(iter(options))}",
)
def test_huge_numbers_are_refused_naming_the_parameter(options: dict) -> None:
    (name,) = options
    with pytest.raises(InvalidOptionError) as info:  # not a bare ValueError from int()
        ReadOptions.from_kwargs("x.txt", **options)
    assert str(info.value).startswith(name) and "over the limit of 1,000,000,000,000,000" in str(
        info.value
    )
    assert len(str(info.value)) < 150


def test_numbers_up_to_the_limit_are_taken(tmp_path) -> None:
    (tmp_path / "a.txt").write_text("one\ntwo\n", encoding="utf-8")
    opts = ReadOptions.from_kwargs("a.xlsx", pages="1-" + "9" * 15, rows="0001", sheet="0" * 20)
    assert opts.page_spec.spans == ((1, 10**15 - 1),) and opts.row_spec.start == 1
    result = docread.read("a.txt", workspace=tmp_path, offset=10**15, limit=10**15)
    assert "past the end of the file" in " ".join(result.notes)


def test_good_options_are_kept() -> None:
    opts = ReadOptions.from_kwargs(
        "a.pdf", pages="1,3,5-", rows="tail:20", sheet=2, format_hint=".xlsx"
    )
    assert opts.page_spec.spans == ((1, 1), (3, 3), (5, None))
    assert opts.row_spec == RowSpec("tail", count=20, text="tail:20")
    assert opts.sheet == 2


def test_page_spec_resolves_against_the_page_count() -> None:
    spec = PageSpec.parse("2,4-5,9-")
    assert spec.resolve(10) == [2, 4, 5, 9, 10]
    notes: list[str] = []
    assert PageSpec.parse("2-7").resolve(3, warn=notes.append) == [2, 3]  # clamped, said
    assert notes == ["pages=2-7: the file has 3 pages; read 2-3"]
    with pytest.raises(InvalidOptionError, match="has 3 pages"):
        PageSpec.parse("4-7").resolve(3)


@pytest.mark.parametrize(
    ("text", "total", "bounds"),
    [("head:50", 1234, (1, 50)), ("tail:20", 1234, (1215, 1234)), ("250", 1234, (250, 250)),
     ("10-", 30, (10, 30)), ("1-100", 40, (1, 40)), ("head:5", 3, (1, 3))],
)  # fmt: skip
def test_row_spec_bounds(text: str, total: int, bounds: tuple[int, int]) -> None:
    assert RowSpec.parse(text).bounds(total) == bounds


def test_column_spec_by_name_and_by_letter() -> None:
    names = ["name", "age", "city", "zip"]
    assert ColumnSpec.parse("age,name").resolve(names) == [1, 0]
    assert ColumnSpec.parse("A,C").resolve(names) == [0, 2]
    assert ColumnSpec.parse("B-D").resolve(names) == [1, 2, 3]
    with pytest.raises(InvalidOptionError, match="the columns are: name, age, city, zip"):
        ColumnSpec.parse("salary").resolve(names)


@pytest.mark.parametrize(
    ("rel", "pattern", "matches"),
    [("src/b.py", "src/*.py", True), ("src/a/b.py", "src/*.py", False), ("src/a/b.py", "src/**", True),
     ("b.py", "**/*.py", True), ("deep/x/y.py", "*.py", True), ("a.txt", "*.py", False),
     ("x5.py", "x[0-9].py", True), ("x5.py", "x[!0-9].py", False), ("src/c.py", "src/**/*.py", True)],
)  # fmt: skip
def test_glob_star_stays_in_one_folder(rel: str, pattern: str, matches: bool) -> None:
    assert glob_match(rel, pattern) is matches


def test_pages_on_a_docx_is_named_as_given(tmp_path) -> None:
    from factories import docx

    docx(tmp_path / "a.docx", ["only section"])
    with pytest.raises(InvalidOptionError) as info:
        docread.read("a.docx", workspace=tmp_path, pages="2")
    message = str(info.value)
    assert message.startswith("a.docx: pages='2' is out of range: the document has 1 section")
    assert "(pages= counts sections in this file)" in message and "sections='2'" not in message
