"""Typographic characters inside words become what a search types, in every family (one place:
the body sanitizer, ``sanitize.clean_body``): the hyphens U+2010 and U+2011 as "-", no-break
spaces as " ", a soft hyphen removed; so "nicht-englischer" finds a heading Word wrote with a
non-breaking hyphen."""

from __future__ import annotations

import shutil
from collections.abc import Callable
from pathlib import Path

import docread
import factories
import pytest
from data.make_multilingual_doc import TYPOGRAPHIC
from docread.sanitize import clean_text
from docread.settings import Settings

HEADING = "Texte nicht\u2011englischer Sprache"  # a non-breaking hyphen
BODY = "Ein Weg von 10\u00a0km, ein schma\u00adler Pfad und ein Hoch\u2010haus."
TYPED = ("nicht-englischer", "10 km", "schmaler", "Hoch-haus")


def _docx(path: Path) -> None:
    factories.docx(path, [(1, HEADING), BODY])


def _pptx(path: Path) -> None:
    factories.pptx(path, [(HEADING, BODY, "")])


def _xlsx(path: Path) -> None:
    factories.xlsx(path, {"Sheet": [["Titel"], [HEADING], [BODY]]})


def _html(path: Path) -> None:
    path.write_text(f"<html><body><h1>{HEADING}</h1><p>{BODY}</p></body></html>", "utf-8")


def _text(path: Path) -> None:
    path.write_text(f"{HEADING}\n{BODY}\n", "utf-8")


@pytest.mark.parametrize(
    ("name", "make"),
    [("a.docx", _docx), ("a.pptx", _pptx), ("a.xlsx", _xlsx), ("a.html", _html),
     ("a.txt", _text), ("a.md", _text)],
)  # fmt: skip
def test_every_family_gives_typed_hyphens_and_spaces(
    reader: docread.Reader, tmp_path: Path, name: str, make: Callable[[Path], None]
) -> None:
    make(tmp_path / name)
    for text in (
        "\n".join(d.text for d in reader.iter_documents(name)),
        reader.read(name).text,
    ):
        for typed in TYPED:
            assert typed in text, (name, typed)
        assert not {"\u2010", "\u2011", "\u00a0", "\u00ad"} & set(text)


def test_a_legacy_doc_heading_is_found_as_typed(reader: docread.Reader, tmp_path: Path) -> None:
    """tests/data/multilingual.doc has a heading with a non-breaking hyphen and a no-break
    space (as LibreOffice wrote them from U+2011 and U+00A0)."""
    shutil.copy(Path(__file__).parent / "data" / "multilingual.doc", tmp_path / "m.doc")
    assert "\u00a0" in TYPOGRAPHIC
    text = "\n".join(d.text for d in reader.iter_documents("m.doc"))
    assert "Texte nicht-englischer Sprache auf 10 km" in text


def test_the_rule_keeps_other_text() -> None:
    out = Settings().output
    assert clean_text("a\u2011b \u00a0c\u00ad d \u2013 e \u2014 f \u2212 1", out) == (
        "a-b  c d \u2013 e \u2014 f \u2212 1"
    )


def test_a_metadata_value_past_the_flat_ones_is_still_made_flat() -> None:
    """``flat_value`` imports datetime and json only for the values that need them (the cold
    start's template imports neither): dates as ISO text, nested values as JSON, the rest as
    before."""
    import datetime

    from docread.sanitize import flat_value

    assert flat_value(datetime.date(2020, 1, 2)) == "2020-01-02"
    assert flat_value(datetime.datetime(2020, 1, 2, 3, 4)) == "2020-01-02T03:04:00"
    assert flat_value({"a": [1, {"b": "é"}]}) == '{"a": [1, {"b": "é"}]}'
    assert flat_value([1, "a"]) == "1, a" and flat_value(1 << 70) == str(1 << 70)


def test_metadata_cleaned_once_per_value_is_the_same_metadata() -> None:
    """The pipeline cleans a file's repeated metadata values once (``clean_metadata``'s
    ``seen``): each unit's metadata is what a clean of its own gives, a value seen under one
    key is cleaned again under another (the cut differs), and ``1``, ``1.0`` and ``True``
    (equal, hashed alike) keep their own types."""
    from docread.sanitize import clean_metadata

    out = Settings().output
    long = "x\u200b" * (out.max_metadata_value_len + 10)
    units = [
        {"source": "a.pdf", "page_number": 1, "title": long, "flag": 1, "score": 1.0},
        {"source": "a.pdf", "page_number": 2, "title": long, "flag": True, "score": 1},
        {"source": "a.pdf", "page_number": 3, "bookmarks": long, "flag": 1.0, "score": True},
    ]
    seen: dict = {}
    for meta in units:
        cleaned = clean_metadata(meta, out, seen)
        alone = clean_metadata(meta, out)
        assert cleaned == alone
        assert [type(v) for v in cleaned.values()] == [type(v) for v in alone.values()]
    assert len(clean_metadata(units[2], out, seen)["bookmarks"]) == len(long.replace("\u200b", ""))
    assert clean_metadata(units[0], out, seen)["title"].endswith("...")
