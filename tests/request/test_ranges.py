"""Page, row and column selection (request/ranges.py): selected units in order, columns by
name or letter, and compact spans written the way ``pages`` is."""

from __future__ import annotations

import pytest
from docread.errors import InvalidOptionError
from docread.request.ranges import (
    ColumnSpec,
    PageSpec,
    column_letter,
    compact_spans,
    select_columns,
    select_units,
)


# -- selection and spans ---------------------------------------------------------------------------
def test_select_units_is_every_unit_without_a_spec_and_the_spec_in_order_with_one() -> None:
    assert select_units(None, 4) == [1, 2, 3, 4]
    assert select_units(PageSpec.parse("3-4,1,3"), 4) == [3, 4, 1]
    assert select_units(PageSpec.parse("2-"), 4, unit="slide") == [2, 3, 4]
    with pytest.raises(
        InvalidOptionError,
        match=r"deck\.pptx: pages='5' is out of range.*4 slides \(pages= counts slides",
    ):
        select_units(PageSpec.parse("5"), 4, unit="slide", path="deck.pptx")


def test_select_columns_is_every_column_without_a_spec() -> None:
    names = ["id", "name", "score"]
    assert select_columns(None, names) == [0, 1, 2]
    assert select_columns(ColumnSpec.parse("score,A"), names) == [2, 0]


@pytest.mark.parametrize(
    ("numbers", "sep", "text"),
    [
        ([1, 2, 3, 5], ", ", "1-3, 5"),
        ([1, 2, 3, 5, 7, 8], ",", "1-3,5,7-8"),
        ([4], ", ", "4"),
        ([], ", ", ""),
        ([3, 1, 2], ", ", "3, 1-2"),  # runs in the order given, like a pages value
    ],
)
def test_compact_spans_writes_numbers_the_way_pages_is_written(
    numbers: list[int], sep: str, text: str
) -> None:
    assert compact_spans(numbers, sep) == text
    if text:
        assert select_units(PageSpec.parse(text), 10) == numbers  # and reads back the same


def test_compact_spans_spells_column_letters() -> None:
    assert compact_spans([0, 1, 2, 4, 26, 27], name=column_letter) == "A-C, E, AA-AB"
