"""False headings an outline survey found (issue 33, heading precision): generated pages that
print what the fetched manuals failed on (bench/pdf_truth/extra12: a heading's number and title
set in two faces, CJK body sentences, a LaTeX manual's command-syntax lines, a title page's
byline, an admonition's label), and the real short headings that must stay headings."""

from __future__ import annotations

import pymupdf
from factories import drawn_markdown
from test_pdf_real_structure import headings

CJK_BODY = (
    "本手册假定用户已经能处理一般的文档，并对参考文献有一定了解。如果从来没有接触过这些工具，"
    "建议先学习相关的基础知识。模板核心文件有四个，但是如果没有示例文档用户会发现很难下手。"
)


def _cjk_section(page: pymupdf.Page, y: float, number: str, title: str, size: float) -> float:
    """A heading as a CJK class sets it: the number in a bold Latin face, the title beside it
    on the same row in a CJK face, then two paragraphs of CJK body text."""
    page.insert_text((72, y), number, fontsize=size, fontname="hebo")
    width = pymupdf.get_text_length(number, fontname="hebo", fontsize=size)
    page.insert_text((72 + width + size, y), title, fontsize=size, fontname="china-s")
    for _ in range(2):
        box = pymupdf.Rect(72, y + 12, 520, y + 70)
        page.insert_textbox(box, CJK_BODY, fontsize=10.5, fontname="china-s")
        y += 64
    return y + 30


def test_a_headings_number_and_its_title_in_two_faces_are_one_heading(tmp_path):
    """thubeamer p4, xduts p5: "3" in a bold Latin face, "使用说明" beside it in a CJK face:
    one heading "3 使用说明", not a heading "3" over a paragraph "使用说明"."""

    def page(p: pymupdf.Page) -> None:
        y = _cjk_section(p, 80, "3", "使用说明", 15)
        y = _cjk_section(p, y, "3.1", "关于提问", 12)
        _cjk_section(p, y, "3.2", "示例文件", 12)

    text = drawn_markdown(tmp_path, page)
    assert headings(text) == ["3 使用说明", "3.1 关于提问", "3.2 示例文件"]

