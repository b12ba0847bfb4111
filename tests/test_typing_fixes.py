"""Bugs that mypy found (issue 14), each on a real file that reaches the code path, and the
paths it questioned that turned out sound, pinned so a typing change cannot break them."""

from __future__ import annotations

import io
import json
from pathlib import Path

import docread
from PIL import Image


def test_json_lines_number_past_the_int_digit_limit_is_one_bad_line(tmp_path: Path) -> None:
    # json.loads raises a plain ValueError (not a JSONDecodeError, which has .msg) for an integer
    # of more than 4,300 digits: the note read exc.msg and the whole file failed
    huge = "9" * 5000
    (tmp_path / "big.jsonl").write_text(f'{{"a": 1}}\n{{"a": {huge}}}\n{{"a": 3}}\n')
    result = docread.read("big.jsonl", workspace=tmp_path)
    assert result.header["Rows"] == "1-3 of 3"
    rows = result.documents[0].text.splitlines()[2:]
    assert rows[0] == "| 1 | 1 |" and rows[2] == "| 3 | 3 |"
    assert rows[1].startswith('| 2 | {"a": 999')  # the line itself, in the first column
    assert any("not valid JSON" in n and "4300 digits" in n for n in result.notes)


def test_json_lines_decode_error_still_names_the_json_problem(tmp_path: Path) -> None:
    (tmp_path / "bad.jsonl").write_text('{"a": 1}\n{"a": \n{"a": 3}\n')
    result = docread.read("bad.jsonl", workspace=tmp_path)
    assert result.header["Rows"] == "1-3 of 3"
    assert any("(Expecting value)" in n for n in result.notes)


def test_float_tiff_is_stretched_to_eight_bit_gray(tmp_path: Path) -> None:
    # the "F" branch of _eight_bit: one band, so getextrema() is (min, max), not per-band pairs
    ramp = Image.linear_gradient("L").resize((64, 64)).convert("F").point(lambda v: v * 0.5 - 20)
    ramp.save(tmp_path / "float.tif")
    result = docread.read("float.tif", workspace=tmp_path)
    with Image.open(io.BytesIO(result.media[0].data)) as out:
        assert out.mode == "L" and out.getextrema() == (0, 255)
        assert 100 < out.getpixel((32, 32)) < 160


def test_sqlite_rows_metadata_counts_are_ints(tmp_path: Path) -> None:
    # the block's metadata mixes text and numbers (mypy had inferred dict[str, str])
    import sqlite3

    with sqlite3.connect(tmp_path / "db.sqlite") as con:
        con.execute("CREATE TABLE t (id INTEGER, name TEXT)")
        con.executemany("INSERT INTO t VALUES (?, ?)", [(i, f"n{i}") for i in range(1, 6)])
    con.close()
    result = docread.read("db.sqlite", workspace=tmp_path, table="t", rows="2-3")
    (meta,) = [d.metadata for d in result.documents]
    assert (meta["row_count"], meta["row_start"], meta["row_end"]) == (5, 2, 3)
    json.dumps(dict(meta))  # plain JSON values


def test_validation_error_text_takes_pydantic_v1_errors_as_base_tool_may_pass() -> None:
    # BaseTool.handle_validation_error is called with v2 or v1 ValidationErrors
    from pydantic.v1 import BaseModel as BaseModelV1
    from pydantic.v1 import ValidationError as ValidationErrorV1

    from langchain_docread.tool import ReadDocumentTool, describe_validation_error

    class Args(BaseModelV1):
        offset: int

    try:
        Args(offset="x")
    except ValidationErrorV1 as exc:
        text = describe_validation_error(exc)
    assert text.startswith("Invalid ReadDocument arguments: offset: ")
    assert ReadDocumentTool().handle_validation_error is describe_validation_error
