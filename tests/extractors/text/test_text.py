"""Text and code: cat -n windows, encodings, sanitization, truncation and loader chunks."""

from __future__ import annotations

from pathlib import Path

import docread
import pytest
from conftest import MakeReader


def test_cat_n_numbering_offset_and_limit(tmp_path: Path) -> None:
    (tmp_path / "a.py").write_text("".join(f"line {i}\n" for i in range(1, 101)))
    result = docread.read("a.py", workspace=tmp_path, offset=10, limit=3)
    assert result.render() == (
        "    10\tline 10\n    11\tline 11\n    12\tline 12\n\n"
        "[Showing lines 10-12 of 100. Use offset=13 to read more.]"
    )
    doc = result.documents[0]
    assert (doc.metadata["line_start"], doc.metadata["line_end"], doc.metadata["total_lines"]) == (
        10,
        12,
        100,
    )
    assert doc.metadata["format"] == "text" and doc.metadata["category"] == "text"


def test_default_limit_is_2000_lines(tmp_path: Path) -> None:
    (tmp_path / "big.log").write_text("".join(f"{i}\n" for i in range(5000)))
    result = docread.read("big.log", workspace=tmp_path)
    assert result.documents[0].metadata["line_end"] == 2000
    assert "Use offset=2001 to read more." in result.render()


def test_limit_zero_reads_to_the_end(tmp_path: Path) -> None:
    (tmp_path / "a.txt").write_text("x\n" * 2500)
    assert (
        docread.read("a.txt", workspace=tmp_path, limit=0).documents[0].metadata["line_end"] == 2500
    )


@pytest.mark.parametrize(
    ("encoding", "text"),
    [
        pytest.param(
            "gbk",
            "中文编码测试：你好，世界。这是一个用于检测的较长句子。\n第二行内容。\n",
            id="gbk",
        ),
        pytest.param("utf-16", "Grüße aus Köln — ünïcödé\nzweite Zeile\n", id="utf16-bom"),
        pytest.param("utf-32", "emoji 🎉 and ß\n", id="utf32-bom"),
        pytest.param(
            "shift_jis",
            "日本語のテキストです。文字コードの判定を確認します。\n二行目。\n",
            id="shift-jis",
        ),
        pytest.param("utf-8-sig", "bom first line\n", id="utf8-bom"),
    ],
)
def test_encodings_are_decoded(tmp_path: Path, encoding: str, text: str) -> None:
    (tmp_path / "f.txt").write_bytes(text.encode(encoding))
    doc = docread.read("f.txt", workspace=tmp_path).documents[0]
    assert doc.text == text.rstrip("\n")


def test_latin1_is_decoded_not_crashed(tmp_path: Path) -> None:
    (tmp_path / "f.txt").write_bytes(
        "café crème brûlée à la française, déjà vu\n".encode("latin-1") * 5
    )
    assert "café crème" in docread.read("f.txt", workspace=tmp_path).text


def test_invalid_utf8_bytes_are_replaced(tmp_path: Path) -> None:
    (tmp_path / "f.txt").write_bytes(b"ok line\n" * 50 + b"bad \xff\xfe byte\n")
    assert "bad" in docread.read("f.txt", workspace=tmp_path, offset=51).text


def test_nul_ansi_and_control_characters_are_stripped(tmp_path: Path) -> None:
    (tmp_path / "f.log").write_bytes(
        b"\x1b[31mred\x1b[0m text\x00 with nul\x07 bell\x1b]0;title\x07 tab\tok\r\n"
    )
    text = docread.read("f.log", workspace=tmp_path).text
    assert text == "red text with nul bell tab\tok"


def test_long_lines_are_cut_with_their_length(tmp_path: Path) -> None:
    (tmp_path / "min.js").write_text("a" * 5000 + "\nshort\n")
    doc = docread.read("min.js", workspace=tmp_path).documents[0]
    first, second = doc.text.split("\n")
    assert first == "a" * 2000 + "... [line truncated: 5,000 chars]"
    assert second == "short"


def test_loaders_keep_long_lines_whole(tmp_path: Path) -> None:
    """The line cap is the agent view's: a loader's Document holds a 5,000-character line whole."""
    (tmp_path / "min.js").write_text("a" * 5000 + "\nshort\n")
    (doc,) = docread.iter_documents(tmp_path / "min.js")
    assert doc.text == "a" * 5000 + "\nshort"
    assert "truncated" not in doc.text


def test_a_line_past_a_documents_size_runs_on_into_the_next(
    make_reader: MakeReader, tmp_path: Path
) -> None:
    """A line longer than lines_per_document x max_line_length characters is handed out in
    pieces, each a Document at that line: all of its text kept, memory bounded."""
    reader = make_reader(text={"lines_per_document": 2, "max_line_length": 10})
    long = "b" * (5 << 19)  # 2.5 MiB: read in pieces of 1 MiB
    (tmp_path / "one.txt").write_text(f"first\n{long}\nlast\n")
    docs = list(reader.iter_units(["one.txt"]))
    assert "".join(d.text for d in docs) == f"first\n{long}last"
    spans = [(d.metadata["line_start"], d.metadata["line_end"]) for d in docs]
    assert spans == [(1, 2), (2, 2), (2, 2), (3, 3)]


def test_empty_file_gives_an_explicit_notice(tmp_path: Path) -> None:
    (tmp_path / "empty.txt").write_bytes(b"")
    result = docread.read("empty.txt", workspace=tmp_path)
    assert result.documents == []
    assert "empty" in result.render()


def test_offset_past_the_end_says_how_many_lines(tmp_path: Path) -> None:
    (tmp_path / "a.txt").write_text("1\n2\n3\n")
    result = docread.read("a.txt", workspace=tmp_path, offset=50)
    assert result.documents == []
    assert "offset=50 is past the end of the file: it has 3 lines." in result.render()


def test_max_lines_bounds_the_window_and_gives_the_next_offset(tmp_path: Path) -> None:
    (tmp_path / "a.txt").write_text("".join(f"{i:04d}\n" for i in range(1, 301)))
    config = {"output": {"max_lines": 100}}
    out = docread.read("a.txt", workspace=tmp_path, config=config).render()
    assert "Use offset=101 to read more." in out
    assert "   100\t0100" in out and "0101" not in out


def test_max_chars_truncation(tmp_path: Path) -> None:
    (tmp_path / "a.txt").write_text("x" * 100 + "\n" + "y" * 100 + "\n" + "z" * 100 + "\n")
    out = docread.read("a.txt", workspace=tmp_path, config={"output": {"max_chars": 250}}).render()
    assert "y" * 100 in out and "z" * 100 not in out and "use offset=3 to continue" in out


def test_loader_chunks_cover_every_line(tmp_path: Path) -> None:
    (tmp_path / "a.md").write_text("".join(f"row {i}\n" for i in range(1, 2501)))
    docs = list(docread.iter_documents("a.md", workspace=tmp_path))
    assert [(d.metadata["line_start"], d.metadata["line_end"]) for d in docs] == [
        (1, 1000),
        (1001, 2000),
        (2001, 2500),
    ]
    assert docs[2].text.endswith("row 2500")
    assert len({d.id for d in docs}) == 3
    assert [d.id for d in docread.iter_documents("a.md", workspace=tmp_path)] == [
        d.id for d in docs
    ]


def test_streaming_reads_only_the_window_of_a_file_over_the_size_limit(tmp_path: Path) -> None:
    path = tmp_path / "huge.log"
    with path.open("wb") as f:
        line = b"2026-01-01 INFO something happened in the service\n"
        f.write(line * (12 * 1024 * 1024 // len(line)))  # 12 MB: over limits.text
    result = docread.read("huge.log", workspace=tmp_path, offset=1, limit=5)
    assert result.documents[0].metadata["line_end"] == 5
    assert "total_lines" not in result.documents[0].metadata
    assert "Use offset=6 to read more." in result.render()


@pytest.mark.parametrize(
    "name", ["schema.proto", "api.graphql", "logo.svg", "config.toml", "Script.ps1"]
)
def test_text_like_formats_read_as_text(tmp_path: Path, name: str) -> None:
    (tmp_path / name).write_text("first line\nsecond line\n")
    result = docread.read(name, workspace=tmp_path)
    assert result.file.category == "text" and result.text == "first line\nsecond line"


def test_limit_zero_on_a_huge_file_stays_within_the_output_budget(tmp_path: Path) -> None:
    path = tmp_path / "huge.log"
    line = b"x" * 99 + b"\n"
    path.write_bytes(line * (12 * 1024 * 1024 // len(line)))  # 12 MB, over limits.text: streamed
    result = docread.read(
        "huge.log", workspace=tmp_path, limit=0, config={"output": {"max_chars": 50_000}}
    )
    doc = result.documents[0]
    assert doc.metadata["line_end"] == 500  # 50,000 chars of 100-char lines, not the whole file
    out = result.render()  # the numbered lines are longer: the view cuts first and says where
    assert "use offset=468 to continue" in out and "offset=501" not in out


# -- a UTF-8 file with a bad byte ------------------------------------------------------------------
RESUME = "Résumé, café, naïve: ligne\n" * 20


def test_utf8_with_one_bad_byte_stays_utf8_and_says_so(
    reader: docread.Reader, tmp_path: Path
) -> None:
    (tmp_path / "cv.txt").write_bytes(RESUME.encode() + b"\x80 fin\n")
    result = reader.read("cv.txt")
    assert result.file.encoding == "utf-8"
    assert "Résumé" in result.text and "RÃ©sumÃ©" not in result.text
    assert "\ufffd fin" in result.text
    assert any("1 byte not valid utf-8 replaced with U+FFFD" in n for n in result.notes)


def test_loader_counts_replaced_bytes(reader: docread.Reader, tmp_path: Path) -> None:
    (tmp_path / "cv.txt").write_bytes(RESUME.encode() + b"\x80\xff fin\n")
    notes: list[str] = []
    docs = list(reader.iter_units("cv.txt", on_note=lambda _p, n: notes.append(n)))
    assert "Résumé" in docs[0].text
    assert any("2 bytes not valid utf-8" in n for n in notes)
