"""RTF text in double-byte and non-Latin code pages (issue 17): ``\\'hh`` bytes decoded with the
current font's ``\\fcharset`` or the document's ``\\ansicpg`` before pandoc. Fixtures are RTF
written here (real pandoc reads them) plus the corpus's Japanese RTF when the corpus is present."""

from __future__ import annotations

from pathlib import Path

import docread
import pytest
from conftest import CORPUS, normalize
from docread.extractors.office.convert.rtf_codepages import decode_codepages

FONTS = (
    rb"{\fonttbl{\f0\froman\fcharset0 Times New Roman;}"
    rb"{\f1\fmodern\fprq1\fcharset128 MS Gothic;}{\f2\fnil\fcharset134 SimSun;}"
    rb"{\f3\froman\fcharset204 Times New Roman Cyr;}{\f4\froman\fcharset161 Times New Roman Greek;}"
    rb"{\f5\fnil\fcharset2 Symbol;}{\f6\fnil\fcharset129 Gulim;}{\f7\fnil\fcharset136 MingLiU;}"
    rb"{\f8\fnil\fcharset130 Johab;}}"
)


def escaped(text: str, codec: str) -> bytes:
    """``text`` as RTF writers store it: ASCII as is, every other byte of ``codec`` as ``\\'hh``."""
    out = bytearray()
    for ch in text:
        if ch.isascii():
            out += ch.encode()
        else:
            out += b"".join(b"\\'%02x" % b for b in ch.encode(codec))
    return bytes(out)


def rtf(body: bytes, head: bytes = rb"\ansi\ansicpg1252\deff0") -> bytes:
    return rb"{\rtf1" + head + FONTS + b"\n" + body + b"\n}"


def read(reader: docread.Reader, tmp_path: Path, data: bytes) -> str:
    (tmp_path / "doc.rtf").write_bytes(data)
    return reader.read("doc.rtf").text


JAPANESE = "東京の古書店で処刑記録が見つかった"
CHINESE = "中华人民共和国的首都是北京"
RUSSIAN = "Съешь же ещё этих мягких французских булок"
GREEK = "Καλημέρα κόσμε, ζωή και φως"


def test_shift_jis_through_fcharset128(reader: docread.Reader, tmp_path: Path) -> None:
    """A fixed-pitch (\\fmodern) CJK font: the text comes out plain, not one code span per
    character."""
    text = read(reader, tmp_path, rtf(rb"\pard{\f1 " + escaped(JAPANESE, "cp932") + rb"}\par"))
    assert JAPANESE in text and "`" not in text


def test_gbk_through_fcharset134(reader: docread.Reader, tmp_path: Path) -> None:
    text = read(reader, tmp_path, rtf(rb"\pard\f2 " + escaped(CHINESE, "gbk") + rb"\par"))
    assert CHINESE in text


@pytest.mark.parametrize(
    ("font", "codec", "phrase"),
    [(6, "cp949", "대한민국의 수도는 서울입니다"), (7, "big5", "臺灣的首都是臺北"),
     (8, "johab", "한글 조합형 문서")],
)  # fmt: skip
def test_korean_and_traditional_chinese_charsets(
    reader: docread.Reader, tmp_path: Path, font: int, codec: str, phrase: str
) -> None:
    body = b"\\pard\\f%d " % font + escaped(phrase, codec) + rb"\par"
    assert phrase in read(reader, tmp_path, rtf(body))


def test_cyrillic_through_ansicpg1251(reader: docread.Reader, tmp_path: Path) -> None:
    body = rb"\pard\f0 " + escaped(RUSSIAN, "cp1251") + rb"\par"
    assert RUSSIAN in read(reader, tmp_path, rtf(body, rb"\ansi\ansicpg1251\deff0"))


def test_cyrillic_through_fcharset204(reader: docread.Reader, tmp_path: Path) -> None:
    text = read(reader, tmp_path, rtf(rb"\pard{\f3 " + escaped(RUSSIAN, "cp1251") + rb"}\par"))
    assert RUSSIAN in text


def test_greek_through_fcharset161(reader: docread.Reader, tmp_path: Path) -> None:
    text = read(reader, tmp_path, rtf(rb"\pard\f4 " + escaped(GREEK, "cp1253") + rb"\par"))
    assert GREEK in text


def test_latin_and_japanese_in_one_paragraph(reader: docread.Reader, tmp_path: Path) -> None:
    """Font switches inside a paragraph; a group's font ends with the group; \\plain returns to
    \\deff; cp1252 bytes in the Latin font stay Latin."""
    body = (
        rb"\pard\f0 Caf\'e9 invoice {\f1 " + escaped("合計金額", "cp932") + rb"} due "
        rb"\f1 " + escaped("金曜日", "cp932") + rb"\plain  na\'efve end\par"
    )
    text = read(reader, tmp_path, rtf(body))
    assert "Café invoice 合計金額 due 金曜日 naïve end" in text


def test_literal_trail_bytes_and_uc_fallbacks(reader: docread.Reader, tmp_path: Path) -> None:
    """A Shift-JIS trail byte written as a character (ソ is 83 5C, written ``\\'83\\\\``); the
    ``\\'hh`` fallback bytes of a ``\\uN`` are skipped, not decoded a second time; a literal
    ``?`` fallback no longer costs the next character."""
    body = (
        rb"\pard{\f1 \'83\\\'83\'8b\'83\'51 " + rb"\uc2\u26085\'93\'fa\u26412\'96\'7b}"
        rb" Caf\u233?s open\par"
    )
    text = read(reader, tmp_path, rtf(body))
    assert "ソルゲ 日本 Cafés open" in text


def test_japanese_header_is_decoded_and_moved(reader: docread.Reader, tmp_path: Path) -> None:
    body = (
        rb"\sectd{\header \pard\plain {\f1 " + escaped("ゾルゲの処刑記録", "cp932") + rb"}\par}"
        rb"\pard Body words\par"
    )
    text = read(reader, tmp_path, rtf(body))
    assert text.startswith("Body words")
    assert text.split("## Header", 1)[1].strip() == "ゾルゲの処刑記録"


def test_symbol_font_and_cp1252_documents_keep_their_bytes() -> None:
    """Nothing to decode: the bytes pandoc already reads right are left as they are (only the
    CJK font loses its \\fmodern, which pandoc would make code of)."""
    latin = rtf(rb"\pard Caf\'e9 {\f5 \'b7\'a5} \u8364\'3f\par")
    assert decode_codepages(latin) == latin.replace(rb"\f1\fmodern", rb"\f1\fnil")
    no_cjk = latin.replace(rb"\fcharset128", rb"\fcharset0")
    assert decode_codepages(no_cjk) == no_cjk


def test_decoding_changes_only_the_byte_runs() -> None:
    data = rtf(rb"\pard{\f4 \'c1\'e8}\par").replace(rb"\fmodern", rb"\fswiss")
    assert decode_codepages(data) == data.replace(rb"\'c1\'e8", rb"\u913\'3f\u952\'3f")


def test_100000_nested_groups_neither_crash_nor_slip() -> None:
    """Hostile nesting: one pass, no recursion; the font state unwinds group by group. (The
    reader refuses such a file before pandoc: tests/extractors/test_hostile.py.)"""
    deep = 100_000
    body = b"{" * deep + rb"\f1 \'82\'a0" + b"}" * deep + rb"\'82\'a0"
    out = decode_codepages(rtf(body))
    assert out.count(rb"\u12354\'3f") == 1  # あ inside; outside, \f0 (cp1252) stays bytes
    assert out.endswith(b"}" * deep + rb"\'82\'a0" + b"\n}")


JAPANESE_CORPUS = CORPUS / "word" / "testRTFJapanese.rtf"


@pytest.mark.skipif(not JAPANESE_CORPUS.is_file(), reason=f"corpus not present at {CORPUS}")
def test_corpus_japanese_rtf_body_is_read(reader: docread.Reader, tmp_path: Path) -> None:
    """Its title comes from \\u escapes; its body and header are Shift-JIS bytes (fcharset128)."""
    text = read(reader, tmp_path, JAPANESE_CORPUS.read_bytes())
    body = text.split("\n", 1)[1]  # past the title line, which \u escapes always gave
    cjk = sum(1 for c in body if "\u3000" <= c <= "\u9fff" or "\uff00" <= c <= "\uffef")
    assert cjk > 900 and "`" not in body
    assert "古書店で処刑記録見つかる" in body and "ゾルゲ事件の調査報告書" in body
    assert normalize("ゾルゲと尾崎") in normalize(text)  # MANIFEST's must-include string
    assert "ゾルゲの処刑記録、" in text.split("## Header", 1)[1]


def test_info_title_in_the_default_fonts_code_page(reader: docread.Reader, tmp_path: Path) -> None:
    """``{\\info{\\title}}`` bytes follow \\deff's charset too: the title metadata is Japanese."""
    title = escaped("ゾルゲ事件の記録", "cp932")
    data = rtf(rb"{\info{\title " + title + rb"}}\pard Body\par", rb"\ansi\deff1")
    (tmp_path / "doc.rtf").write_bytes(data)
    assert reader.read("doc.rtf").documents[0].metadata["title"] == "ゾルゲ事件の記録"
