"""False headings an outline survey found (issue 33, heading precision): generated pages that
print what the fetched manuals failed on (bench/pdf_truth/extra12: a heading's number and title
set in two faces, CJK body sentences, a LaTeX manual's command-syntax lines, a title page's
byline, an admonition's label; extra14 and extra16: a bill's field with its value, a code, a
total's label beside its amount), and the real short headings that must stay headings."""

from __future__ import annotations

import time
from collections.abc import Callable

import docread
import pymupdf
import pytest
from docread.extractors.pdf.survey import HEAD_NUMBER, Survey, survey
from docread.extractors.pdf.text.headings import _AUTHORS, row_label
from docread.extractors.pdf.text.lines import Line
from docread.extractors.pdf.text.pieces import norm
from factories import drawn, drawn_markdown, pdf
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


LISTING = [
    "\\RequirePackage{kvoptions}",
    "\\SetupKeyvalOptions{family=buct, prefix=buct@, setkeys=\\kvsetkeys}",
    "\\DeclareBoolOption[false]{submit}",
    "\\DeclareComplementaryOption{openright}{openany}",
    "\\DeclareDefaultOption{\\PassOptionsToClass{\\CurrentOption}{ctexbook}}",
    "\\PassOptionsToPackage{quiet}{xeCJK}",
    "\\ifbuct@openany\\LoadClass[zihao=-4,UTF8,oneside]{ctexbook}",
]


def _documented_source(page: pymupdf.Page) -> None:
    """A class's documented source: a bold heading, then prose lines (10.5 pt) that lead in to
    a 9 pt listing each, in a monospaced face that holds most of the page's characters."""
    page.insert_text((72, 70), "4.1 Class options", fontsize=14, fontname="hebo")
    y = 100.0
    for n in range(4):
        lead = f"The options of step {n + 1} are declared and set as follows:"
        page.insert_text((72, y), lead, fontsize=10.5)
        y += 16
        for code in LISTING:
            page.insert_text((80, y), code, fontsize=9, fontname="cour")
            y += 11
        y += 12


def test_prose_between_listings_that_outnumber_it_is_no_heading(tmp_path):
    """buctthesis p13, uwa-pif p2, thubeamer p4: a manual whose listings (a monospaced face)
    hold more characters than its prose: the prose is the body, not a heading style."""
    text = drawn_markdown(tmp_path, _documented_source)
    assert headings(text) == ["4.1 Class options"]


def _cjk_manual(page: pymupdf.Page) -> None:
    """A Chinese manual's page: a bold heading, CJK paragraphs (10.5 pt) and, between them,
    option lines in a 9 pt Latin face with more glyphs than the CJK text has (fewer than
    twice as many: a CJK glyph takes two Latin letters' room)."""
    page.insert_text((72, 70), "4.1 Options", fontsize=14, fontname="hebo")
    y = 96.0
    for n in range(3):
        box = pymupdf.Rect(72, y, 520, y + 40)
        page.insert_textbox(box, CJK_BODY[: 60 + 5 * n], fontsize=10.5, fontname="china-s")
        y += 44
        for k in range(2):
            option = f"option{n}{k} = true, false or auto (default: false)"
            page.insert_text((90, y), option, fontsize=9, fontname="helv")
            y += 12
        y += 10


def test_cjk_paragraphs_outnumbered_in_glyphs_by_latin_lines_are_no_headings(tmp_path):
    """buctthesis p13, thubeamer p4: a CJK manual whose Latin lines have more glyphs than its
    CJK sentences: the CJK face is the body (its text takes more room), not a heading style."""
    text = drawn_markdown(tmp_path, _cjk_manual)
    assert headings(text) == ["4.1 Options"]
    with pymupdf.open(tmp_path / "page.pdf") as doc:  # the CJK face is the body's
        assert survey(doc, 1 << 30, 5000, 1.0).body_style[:2] == (10.5, False)


def _cjk_descriptions(page: pymupdf.Page) -> None:
    """A Chinese class manual's option list: each option's one-line description, a sentence
    with its full stop, set apart from the body (larger here; a bold CJK face in njuthesis),
    alone between body paragraphs; and a real heading in that style, without a stop."""
    page.insert_text((72, 70), "选项设置", fontsize=12.5, fontname="china-s")
    y = 90.0
    for n in range(4):
        box = pymupdf.Rect(72, y, 520, y + 60)
        page.insert_textbox(box, CJK_BODY, fontsize=10.5, fontname="china-s")
        line = f"设置第{n + 1}个选项的默认值。"
        page.insert_text((72, y + 70), line, fontsize=12.5, fontname="china-s")
        y += 90


def test_a_cjk_sentence_with_its_full_stop_is_no_heading(tmp_path):
    """njuthesis p67, buctthesis p13: an option's description ("临时替换显示的名称字样。")
    alone in a face apart from the body: the ideographic full stop makes it a sentence."""
    text = drawn_markdown(tmp_path, _cjk_descriptions)
    assert headings(text) == ["选项设置"]


DEJAVU = "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"  # a font with ⟨ and ⟩ in it
COMMANDS = ("\\author{⟨author⟩}", "\\school{⟨school⟩}", "\\mbdp{⟨mbdp⟩}", "\\phone{⟨phone⟩}")


def _command_list(page: pymupdf.Page) -> None:
    """A LaTeX class manual's fields: a numbered heading, then each command's syntax with its
    meta-variable (``\\author{⟨author⟩}``) in a face apart from the body, alone over its
    description, and an unnumbered heading in that face."""
    page.insert_text((72, 70), "2.3 Letterhead Fields", fontsize=14, fontname="hebo")
    y = 100.0
    for command in COMMANDS:
        page.insert_text((72, y), command, fontsize=10, fontname="F0", fontfile=DEJAVU)
        box = pymupdf.Rect(72, y + 6, 520, y + 60)
        page.insert_textbox(box, BODY, fontsize=10, fontname="tiro")
        y += 70
    page.insert_text((72, y), "Project fields", fontsize=10, fontname="F0", fontfile=DEJAVU)
    page.insert_textbox(pymupdf.Rect(72, y + 6, 520, y + 60), BODY, fontsize=10, fontname="tiro")


BODY = (
    "The command sets the field that the letterhead prints in its top right corner, and the "
    "class reads it when the first page is made; leave it out where the default serves."
)


def test_a_commands_syntax_with_its_meta_variables_is_no_heading(tmp_path):
    """uwa-pif p2, biblatex-de p110: ``\\author{⟨author⟩}`` alone over its description in
    a face apart from the body is a command's syntax, not a heading; the headings stay."""
    text = drawn_markdown(tmp_path, _command_list)
    assert headings(text) == ["2.3 Letterhead Fields", "Project fields"]


def _admonitions(page: pymupdf.Page) -> None:
    """A dblatex manual's page (serif body): boxed notes, each a bold sans label alone over
    its sans text between two rules; headings: numbered, a bold sans word at body size, and
    a reference manual's bold "Note" section in the body's family."""
    page.insert_text((72, 70), "2.2.6 Optionen für Suchmethoden", fontsize=12, fontname="hebo")
    y = 90.0
    for label in ("Anmerkung", "Tipp", "Einleitung", "Note"):
        font = "tibo" if label == "Note" else "hebo"
        boxed = label in ("Anmerkung", "Tipp")
        if boxed:
            page.draw_line((72, y - 12), (520, y - 12), width=0.5)
        page.insert_text((72, y), label, fontsize=10, fontname=font)
        box = pymupdf.Rect(72, y + 4, 520, y + 40)
        page.insert_textbox(box, BODY, fontsize=10, fontname="helv" if boxed else "tiro")
        if boxed:
            page.draw_line((72, y + 44), (520, y + 44), width=0.5)
        y += 70
    for _ in range(3):
        page.insert_textbox(pymupdf.Rect(72, y, 520, y + 40), BODY, fontsize=10, fontname="tiro")
        y += 44


def test_an_admonitions_label_over_its_box_is_no_heading(tmp_path):
    """debian-reference.de p83: "Anmerkung" and "Tipp", bold sans labels over boxed sans text
    (the extra3 convention: a label, like a caption's); a heading of the same style
    ("Einleitung") and a bold "Note" in the body's face (R's reference manual) stay."""
    text = drawn_markdown(tmp_path, _admonitions)
    assert headings(text) == ["2.2.6 Optionen für Suchmethoden", "Einleitung", "Note"]


def _cjk_headed(page: pymupdf.Page, heads: tuple[tuple[str, str], ...]) -> float:
    """Each number and its title an em apart on one row (two lines to MuPDF), 15 pt, over two
    CJK paragraphs; the y under the last."""
    y = 80.0
    for number, title in heads:
        page.insert_text((72, y), number, fontsize=15, fontname="china-s")
        width = pymupdf.get_text_length(number, fontname="china-s", fontsize=15)
        page.insert_text((72 + width + 15, y), title, fontsize=15, fontname="china-s")
        for _ in range(2):
            box = pymupdf.Rect(72, y + 12, 520, y + 72)
            page.insert_textbox(box, CJK_BODY, fontsize=10.5, fontname="china-s")
            y += 64
        y += 30
    return y


def _cjk_chapter(page: pymupdf.Page) -> None:
    """A Chinese manual's section starts: ``第3 节`` and its title an em apart on one row (two
    lines to MuPDF), each over CJK paragraphs; and a bare ``1.`` in bold before an item's
    text on its row, which heads nothing."""
    y = _cjk_headed(page, (("第3 节", "兼容性说明"), ("第4 节", "使用建议")))
    page.insert_text((72, y), "1.", fontsize=10.5, fontname="hebo")
    page.insert_text((90, y), "选择合适的配置，部分配置对应的字体需要自行安装。", fontsize=10.5, fontname="china-s")


def test_a_section_number_and_its_title_apart_on_one_row_are_one_heading(tmp_path):
    """xduts p5: ``第3 节`` and ``兼容性说明`` an em apart: one heading, the paragraph under
    it apart (it ran into the paragraph: ``第3 节`` was no heading number)."""
    text = drawn_markdown(tmp_path, _cjk_chapter)
    assert headings(text) == ["第3 节 兼容性说明", "第4 节 使用建议"]


def _title_page(page: pymupdf.Page) -> None:
    """A LaTeX manual's title block: a large title with a thanks mark, the author and a second
    one, each with a footnote mark, at 12 pt over a 10 pt body; then a numbered section."""
    page.insert_text((110, 90), "Formatting documents in APA style", fontsize=17, fontname="tiro")
    for y, name in ((120, "Brian D. Beitzel†"), (140, "Chris Christmas,‡")):
        page.insert_text((220, y), name, fontsize=12, fontname="F0", fontfile=DEJAVU)
    page.insert_textbox(pymupdf.Rect(72, 160, 520, 220), BODY * 2, fontsize=10, fontname="tiro")
    page.insert_text((72, 250), "1 Background", fontsize=14, fontname="tibo")
    page.insert_textbox(pymupdf.Rect(72, 260, 520, 330), BODY * 2, fontsize=10, fontname="tiro")


def test_a_bylines_names_with_their_footnote_marks_are_no_headings(tmp_path):
    """apa6 p1 and 25 more title pages of the outline survey: an author's name with the mark
    of the footnote giving their address (†, ‡) is a byline, no heading; the title and the
    section stay."""
    text = drawn_markdown(tmp_path, _title_page)
    assert headings(text) == ["Formatting documents in APA style", "1 Background"]


def _contents_lines(page: pymupdf.Page) -> None:
    """A thesis template's contents set as bold lines with dot leaders whose page numbers the
    layer puts on lines of their own; then the first chapter."""
    y = 80.0
    for entry in ("4.1 Figures and tables", "4.2 Equations", "4.3 References"):
        page.insert_text((72, y), entry + " " + "." * 60, fontsize=11, fontname="hebo")
        page.insert_text((500, y + 40), "21", fontsize=11, fontname="hebo")
        y += 60
    page.insert_text((72, y), "1 Introduction", fontsize=14, fontname="hebo")
    page.insert_textbox(pymupdf.Rect(72, y + 10, 520, y + 80), BODY * 2, fontsize=10, fontname="tiro")


def test_a_contents_entry_with_its_dot_leader_is_no_heading(tmp_path):
    """thesis-doctor p21, hfutthesis-example p11: ``4.1 测试插图 ........`` (its page number
    apart) is a contents entry, no heading; the chapter after it is one."""
    text = drawn_markdown(tmp_path, _contents_lines)
    assert "1 Introduction" in headings(text)
    assert not any("Figures" in h or "Equations" in h for h in headings(text))


def _cjk_clauses(page: pymupdf.Page) -> None:
    """Lines set apart from a CJK body (larger here) that hold a clause's comma, no stop: a
    sentence's first line split off its paragraph; and an exam's section heading whose comma
    is inside its brackets (``一、填空题（每题3 分，共18 分）``)."""
    y = 80.0
    for line in ("在中文作业中，可能需要将默认的环境变成中文", "由于学校要求英文使用其他字体，对于用户"):
        page.insert_text((72, y), line, fontsize=12.5, fontname="china-s")
        page.insert_textbox(pymupdf.Rect(72, y + 8, 520, y + 68), CJK_BODY, fontsize=10.5, fontname="china-s")
        y += 90
    page.insert_text((72, y), "一、填空题（每题3 分，共18 分）", fontsize=12.5, fontname="china-s")
    page.insert_textbox(pymupdf.Rect(72, y + 8, 520, y + 68), CJK_BODY, fontsize=10.5, fontname="china-s")


def test_a_cjk_line_with_a_clauses_comma_is_no_heading(tmp_path):
    """thucoursework p11, xmuthesis p4: a line with a comma between two clauses is running
    text, no heading; a comma inside a heading's brackets keeps it one."""
    text = drawn_markdown(tmp_path, _cjk_clauses)
    assert headings(text) == ["一、填空题（每题3 分，共18 分）"]


def _two_columns(page: pymupdf.Page) -> None:
    """A two-column page: a chapter title across it, then in each column a numbered heading,
    a one-word bold heading and a bold line with a colon at body size, over body paragraphs."""
    page.insert_text((72, 70), "Chapter 2 Methods", fontsize=18, fontname="tibo")
    for left, heads in ((72, ("2.1 Data", "Sampling")), (312, ("Results", "Summary Statistics:"))):
        y = 110.0
        for head in heads:
            page.insert_text((left, y), head, fontsize=12 if head[0].isdigit() else 10, fontname="tibo")
            box = pymupdf.Rect(left, y + 6, left + 228, y + 150)
            page.insert_textbox(box, BODY * 3, fontsize=10, fontname="tiro")
            y += 170


def test_short_real_headings_stay_headings(tmp_path):
    """The rules against false headings keep the real short ones: a chapter, a numbered
    heading, a one-word bold one, a bold line ending in a colon, in either column."""
    text = drawn_markdown(tmp_path, _two_columns)
    assert headings(text) == [
        "Chapter 2 Methods", "2.1 Data", "Sampling", "Results", "Summary Statistics:"
    ]


def _numbered_commands(page: pymupdf.Page) -> None:
    """A Sphinx/DocBook manual's sections named after a command: the number in a bold sans
    face, the title beside it in a typewriter face (longer than the number), over Times body
    paragraphs."""
    y = 80.0
    for number, title in (("9.5.1", "dupload"), ("9.5.2", "reportbug")):
        page.insert_text((72, y), number, fontsize=12, fontname="hebo")
        width = pymupdf.get_text_length(number, fontname="hebo", fontsize=12)
        page.insert_text((72 + width + 6, y), title, fontsize=12, fontname="cour")
        for _ in range(2):
            box = pymupdf.Rect(72, y + 8, 520, y + 60)
            page.insert_textbox(box, BODY * 2, fontsize=10, fontname="tiro")
            y += 56
        y += 24


def test_a_numbered_heading_titled_in_a_typewriter_face_is_a_heading(tmp_path):
    """developers-reference p113, maint-guide.de p44: ``9.5.1`` bold and ``dupload`` in
    typewriter on one row: the heading ``9.5.1 dupload``, not a listing line."""
    text = drawn_markdown(tmp_path, _numbered_commands)
    assert headings(text) == ["9.5.1 dupload", "9.5.2 reportbug"]


def _letterspaced_chapter(page: pymupdf.Page) -> None:
    """A classicthesis chapter start: a large ``2``, then the title in letterspaced capitals
    (each letter a word to the text layer), over serif body paragraphs."""
    page.insert_text((72, 90), "2", fontsize=14, fontname="helv")
    page.insert_text((92, 90), "T E S T  C H A P T E R", fontsize=14, fontname="helv")
    for n in range(3):
        box = pymupdf.Rect(72, 110 + 70 * n, 520, 170 + 70 * n)
        page.insert_textbox(box, BODY * 2, fontsize=10, fontname="tiro")


def test_a_chapter_titled_in_letterspaced_capitals_is_a_heading(tmp_path):
    """classicthesis-arsclassica-book p5, ArsClassica p13: ``2 T E S T C H A P T E R`` (its
    capitals spaced out) is the chapter's heading, not a paragraph without a word."""
    text = drawn_markdown(tmp_path, _letterspaced_chapter)
    assert [h.replace(" ", "") for h in headings(text)] == ["2TESTCHAPTER"]


def _cjk_numeral_chapters(page: pymupdf.Page) -> None:
    """A Chinese thesis's chapter starts: ``第四章`` (Chinese numerals) and its title an em
    apart on one row, each over CJK paragraphs."""
    _cjk_headed(page, (("第四章", "模板实现代码"), ("第六章", "全文总结")))


def test_a_chapter_label_in_chinese_numerals_takes_its_title(tmp_path):
    """sample_masters p36, seuthesis p33: ``第六章`` and ``全文总结`` on one row are one
    heading, not a heading ``第六章`` over a paragraph ``全文总结``."""
    text = drawn_markdown(tmp_path, _cjk_numeral_chapters)
    assert headings(text) == ["第四章 模板实现代码", "第六章 全文总结"]


def _small_abstract(page: pymupdf.Page, face: str = "tibo") -> None:
    """A paper's first page: a large title, ``Abstract`` in 9 pt bold (or a sans face) over
    the abstract's 9 pt text (LaTeX's ``\\small``), then a numbered section over a 10 pt body."""
    page.insert_text((120, 80), "A Class for Typesetting Papers", fontsize=17, fontname="tibo")
    page.insert_text((90, 120), "Abstract", fontsize=9, fontname=face)
    page.insert_textbox(pymupdf.Rect(90, 124, 500, 180), BODY * 2, fontsize=9, fontname="tiro")
    page.insert_text((72, 210), "1 Introduction", fontsize=12, fontname="tibo")
    for n in range(3):
        box = pymupdf.Rect(72, 220 + 70 * n, 520, 280 + 70 * n)
        page.insert_textbox(box, BODY * 2, fontsize=10, fontname="tiro")


def test_an_abstracts_small_bold_label_is_a_heading(tmp_path):
    """acmart p1 and 27 more title pages (bench/pdf_truth/extra12/apa6: ``[2, "Abstract"]``):
    ``Abstract`` in 9 pt bold over a 10 pt body heads the abstract."""
    text = drawn_markdown(tmp_path, _small_abstract)
    assert headings(text) == ["A Class for Typesetting Papers", "Abstract", "1 Introduction"]
    sans = drawn_markdown(tmp_path, lambda page: _small_abstract(page, "helv"))  # sduthesis: 摘要
    assert headings(sans) == ["A Class for Typesetting Papers", "Abstract", "1 Introduction"]


def _back_matter(page: pymupdf.Page) -> None:
    """An ASME paper's parts (asmeconf, bench/pdf_truth/extra16): ``NOMENCLATURE``,
    ``ACKNOWLEDGMENTS`` and ``REFERENCES`` in 9 pt bold sans capitals over a 10 pt serif body."""
    y = 80.0
    for head in ("NOMENCLATURE", "ACKNOWLEDGMENTS", "REFERENCES"):
        page.insert_text((72, y), head, fontsize=9, fontname="hebo")
        page.insert_textbox(pymupdf.Rect(72, y + 6, 520, y + 60), BODY * 2, fontsize=10, fontname="tiro")
        y += 80


def test_a_papers_parts_in_small_bold_capitals_are_headings(tmp_path):
    """The outline survey's commonest miss (asmeconf's five papers): a paper's named parts set
    a point under the body in bold sans capitals head their parts, as ``Abstract`` does."""
    text = drawn_markdown(tmp_path, _back_matter)
    assert headings(text) == ["NOMENCLATURE", "ACKNOWLEDGMENTS", "REFERENCES"]


def _typewriter_title(page: pymupdf.Page) -> None:
    """A class manual's title page: a large two-line bold title whose second line is the
    class's file name in a typewriter face (no bold cut), a byline at body size, then a typewriter listing line and
    body paragraphs."""
    title = "Preparing Proposals and Reports in LaTeX with"  # as wide as the text: it wraps
    width = pymupdf.get_text_length(title, fontname="hebo", fontsize=17)
    page.insert_text((520 - width, 80), title, fontsize=17, fontname="hebo")  # bold
    page.insert_text((200, 100), "proposal.cls", fontsize=17, fontname="cour")
    page.insert_text((180, 130), "Michael Kohlhase, Jacobs University", fontsize=10, fontname="tiro")
    page.insert_text((72, 170), "1 Introduction", fontsize=12, fontname="tibo")
    page.insert_textbox(pymupdf.Rect(72, 180, 520, 240), BODY * 2, fontsize=10, fontname="tiro")
    page.insert_text((90, 260), "\\documentclass{proposal}", fontsize=9, fontname="cour")
    page.insert_textbox(pymupdf.Rect(72, 275, 520, 335), BODY * 2, fontsize=10, fontname="tiro")


def test_a_titles_line_in_a_typewriter_face_stays_in_the_title(tmp_path):
    """dfgproposal p1, euproposal p1: the title's second line ``dfgproposal.cls`` (large,
    typewriter) is the title's, not code; a small listing line stays code."""
    text = drawn_markdown(tmp_path, _typewriter_title)
    assert headings(text)[0] == "Preparing Proposals and Reports in LaTeX with proposal.cls"
    assert "```\n\\documentclass{proposal}\n```" in text


def _bracketed_headings(page: pymupdf.Page) -> None:
    """A physics paper's and a LaTeX guide's bold 14 pt headings with angle brackets or a
    command's braces in them, each over body paragraphs; a docstrip guard at 14 pt, not bold."""
    y = 80.0
    for title in ("2 Expectation values ⟨n⟩ and ⟨n²⟩", "\\section{title} and friends", "4 Results"):
        page.insert_text((72, y), title, fontsize=14, fontname="F1", fontfile=DEJAVU_BOLD)
        for _ in range(2):
            page.insert_textbox(pymupdf.Rect(72, y + 12, 520, y + 72), BODY * 2, fontsize=10, fontname="tiro")
            y += 64
        y += 30
    page.insert_text((72, y), "700 ⟨/package⟩", fontsize=14, fontname="F0", fontfile=DEJAVU)
    page.insert_textbox(pymupdf.Rect(72, y + 12, 520, y + 72), BODY * 2, fontsize=10, fontname="tiro")


DEJAVU_BOLD = "/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf"


def test_a_larger_heading_with_brackets_or_a_command_in_it_stays_a_heading(tmp_path):
    """A command's syntax (``⟨n⟩``, ``\\section{``) in a bold heading set larger than the body:
    the heading stays (the syntax rule is for lines at body size: uwa-pif's fields); a
    larger docstrip guard not in bold (fcltxdoc p20: ``700 ⟨/package⟩``) is still none."""
    text = drawn_markdown(tmp_path, _bracketed_headings)
    assert headings(text) == [
        "2 Expectation values ⟨n⟩ and ⟨n²⟩", "\\section{title} and friends", "4 Results"
    ]


def _run_in_head_over_text(page: pymupdf.Page) -> None:
    """A journal's instructions (OptEngInstruct p1): ``3.2`` in bold sans and its title in
    oblique sans on one line, the paragraph's first line under it in the serif body face."""
    page.insert_text((72, 80), "3.2", fontsize=10, fontname="hebo")
    page.insert_text((92, 80), "Displayed equations", fontsize=10, fontname="heit")
    page.insert_text((72, 92), "Equations should fit into one column:", fontsize=10, fontname="tiro")
    for n in range(3):
        page.insert_textbox(pymupdf.Rect(72, 110 + 64 * n, 520, 170 + 64 * n), BODY * 2, fontsize=10, fontname="tiro")


def test_a_run_in_heads_line_does_not_take_the_body_line_under_it(tmp_path):
    """OptEngInstruct p1: the heading is ``3.2 Displayed equations``, not that and the
    paragraph's first line ``Equations should fit into one column:``."""
    text = drawn_markdown(tmp_path, _run_in_head_over_text)
    assert "Equations should fit" not in " ".join(headings(text))


def _logo_sheet(page: pymupdf.Page) -> None:
    """A logo sheet (USlogos p2): a bold heading, a note in brackets set larger than the body
    under it, then body paragraphs."""
    page.insert_text((72, 80), "University crest", fontsize=14, fontname="hebo")
    page.insert_text((72, 100), "(Watermark for theses and dissertations)", fontsize=12, fontname="helv")
    for n in range(3):
        page.insert_textbox(pymupdf.Rect(72, 116 + 64 * n, 520, 176 + 64 * n), BODY * 2, fontsize=10, fontname="tiro")


def test_a_line_wholly_in_brackets_is_no_heading(tmp_path):
    """USlogos p2: ``(Watermark for theses and dissertations)`` is a note, no heading."""
    assert headings(drawn_markdown(tmp_path, _logo_sheet)) == ["University crest"]


def _exam_questions(page: pymupdf.Page) -> None:
    """A Chinese exam (hfutexam_shijuan p1): a bold ``7.`` and its question on one line in a
    face a little larger than the body, a formula in it, what to prove beside it on its row,
    then CJK body lines."""
    page.insert_text((72, 70), "二、计算题", fontsize=14, fontname="china-s")
    y = 100.0
    for n, question in ((7, "设函数f(x) 在(0, 1) 内可导, 且f(1) = 0."), (8, "设f(x) = sin x, 且g(x) = x.")):
        page.insert_text((72, y), f"{n}.", fontsize=11, fontname="hebo")
        page.insert_text((86, y), question, fontsize=11, fontname="china-s")
        width = pymupdf.get_text_length(question, fontname="china-s", fontsize=11)
        page.insert_text((86 + width + 9, y), "证明: 存在一点使得结论成立", fontsize=11, fontname="china-s")
        page.insert_textbox(pymupdf.Rect(72, y + 8, 520, y + 68), CJK_BODY, fontsize=10.5, fontname="china-s")
        y += 90


def test_an_exam_questions_number_does_not_make_its_formula_a_heading(tmp_path):
    """hfutexam_shijuan p1: ``7.`` and a question with a formula, what to prove beside it on
    its row: no heading ``7. 设函数...``."""
    assert headings(drawn_markdown(tmp_path, _exam_questions)) == ["二、计算题"]


def _numbers_before_text(page: pymupdf.Page) -> None:
    """A Chinese manual's page: a section number and its title an em apart (a heading); a
    number and a sentence in the number's style an em apart; a bold ``1.`` and an item's text
    in the body face an em apart (each two lines to MuPDF); CJK body paragraphs between."""
    y = 80.0
    rows = (("第3 节", "兼容性说明", "china-s", 15), ("第5 节", "本节介绍模板的使用方法。", "china-s", 15),
            ("1.", "选择合适的配置部分配置对应的字体需要自行安装", "china-s", 10.5))  # fmt: skip
    for number, text, font, size in rows:
        page.insert_text((72, y), number, fontsize=size, fontname="hebo" if number == "1." else font)
        width = pymupdf.get_text_length(number, fontname="hebo" if number == "1." else font, fontsize=size)
        page.insert_text((72 + width + size, y), text, fontsize=size, fontname=font)
        page.insert_textbox(pymupdf.Rect(72, y + 12, 520, y + 72), CJK_BODY, fontsize=10.5, fontname="china-s")
        y += 100


def test_a_bare_number_takes_a_title_beside_it_not_a_sentence_or_body_text(tmp_path):
    """``第3 节`` takes its title; ``第5 节`` before a sentence in its style and a bold ``1.``
    before body text stay in their paragraphs: no heading of them."""
    assert headings(drawn_markdown(tmp_path, _numbers_before_text)) == ["第3 节 兼容性说明"]



def _large_listing(page: pymupdf.Page) -> None:
    """A documented source whose prose is set small (9 pt) and its listings a size larger
    (11 pt typewriter), a numbered heading over them."""
    page.insert_text((72, 70), "2 Implementation", fontsize=14, fontname="tibo")
    y = 90.0
    for n in range(3):
        page.insert_textbox(pymupdf.Rect(72, y, 520, y + 50), BODY * 2, fontsize=9, fontname="tiro")
        y += 56
        for code in LISTING[2 * n : 2 * n + 2]:
            page.insert_text((80, y), code, fontsize=11, fontname="cour")
            y += 14
        y += 10


def test_a_listing_a_size_larger_than_small_prose_stays_code(tmp_path):
    """fcltxdoc p8, nwafuthesis p25: listings in 11 pt typewriter over 9 pt prose are code
    (only a title's size, 1.4 times the body's, makes a typewriter line no code)."""
    text = drawn_markdown(tmp_path, _large_listing)
    assert text.count("```") == 6 and LISTING[0] in text.split("```")[1]


def _run_in_section_head(page: pymupdf.Page) -> None:
    """A plain TeX guide's paragraph (tubguide p2): a bold ``Section heads.`` run in before
    its text on the row, over body paragraphs."""
    page.insert_text((72, 80), "Section heads.", fontsize=10, fontname="tibo")
    width = pymupdf.get_text_length("Section heads.", fontname="tibo", fontsize=10)
    page.insert_text((72 + width + 5, 80), "Heads of sections are introduced with", fontsize=10, fontname="tiro")
    for n in range(3):
        page.insert_textbox(pymupdf.Rect(72, 84 + 64 * n, 520, 144 + 64 * n), BODY * 2, fontsize=10, fontname="tiro")


def test_a_run_in_label_opening_with_section_is_no_heading(tmp_path):
    """tubguide p2: ``Section heads.`` is a bold label run into its paragraph, not a numbered
    head: HEAD_NUMBER's ``section`` needs a number after it (a word is a sentence's)."""
    text = drawn_markdown(tmp_path, _run_in_section_head)
    assert headings(text) == []
    assert text.startswith("Section heads. Heads of sections are introduced with")


def _definitions(page: pymupdf.Page, after: str, *, indent: float = 100, items: int = 3) -> None:
    """A Sphinx manual's page (policy p149): a bold heading at body size, two paragraphs, then
    ``items`` bold terms at body size (``after`` the first one), each over a one-line definition
    set in to ``indent``."""
    page.insert_text((72, 80), "State G: Reject", fontsize=10, fontname="tibo")
    for n in range(2):
        page.insert_textbox(pymupdf.Rect(72, 88 + 64 * n, 520, 148 + 64 * n), BODY * 2, fontsize=10, fontname="tiro")
    terms = [("dubious", after), ("ctte", "Referred to the Technical Committee"), ("devel", "Referred to the developers")]
    for n, (term, text) in enumerate(terms[:items]):
        page.insert_text((72, 240 + 34 * n), term, fontsize=10, fontname="tibo")
        page.insert_text((indent, 253 + 34 * n), text, fontsize=10, fontname="tiro")


def test_a_definition_lists_terms_are_no_headings(tmp_path):
    """policy p149: bold terms at body size, each over its definition set in 2.8 ems, are a
    definition list's, no headings; the bold heading over flush paragraphs stays one."""
    text = drawn_markdown(tmp_path, lambda page: _definitions(page, "Not a policy matter"))
    assert headings(text) == ["State G: Reject"]
    assert "Not a policy matter" in text and "Referred to the developers" in text


def test_a_heading_over_one_line_set_in_or_an_indented_list_stays_a_heading(tmp_path):
    """The negatives: one bold line over a single line set in (no second term beside it), and
    bold lines over items set in with their bullets, are headings."""
    one = drawn_markdown(tmp_path, lambda page: _definitions(page, "A single quoted line", items=1))
    assert headings(one) == ["State G: Reject", "dubious"]
    listed = drawn_markdown(tmp_path, lambda page: _definitions(page, "• the first point of a list"))
    assert headings(listed) == ["State G: Reject", "dubious"]  # its siblings' terms: text
    assert "# dubious\n\n- the first point of a list" in listed


def _paper_first_page(page: pymupdf.Page, byline: str) -> None:
    """A paper's first page (imac p1): a bold title, a bold byline under it without a footnote
    mark, an address, then a bold section head over body paragraphs."""
    page.insert_text((100, 80), "A Package for Writing Conference Papers", fontsize=16, fontname="hebo")
    page.insert_text((230, 120), byline, fontsize=12, fontname="hebo")
    page.insert_text((200, 145), "Department of Mechanical Engineering", fontsize=10, fontname="tiro")
    page.insert_text((72, 190), "Appendix A. Proofs", fontsize=12, fontname="hebo")
    for n in range(3):
        page.insert_textbox(pymupdf.Rect(72, 200 + 64 * n, 520, 260 + 64 * n), BODY * 2, fontsize=10, fontname="tiro")


def test_a_byline_with_a_middle_initial_is_no_heading(tmp_path):
    """imac p1: a bold name with a middle initial under the title, no footnote mark after it,
    is a byline, no heading; a lettered part's head (``Appendix A. Proofs``) stays one."""
    text = drawn_markdown(tmp_path, lambda page: _paper_first_page(page, "Joseph C. Slater"))
    assert headings(text) == ["A Package for Writing Conference Papers", "Appendix A. Proofs"]
    assert "Joseph C. Slater" in text


_LEAD = "This chapter describes how the options of the program are set from the command line."
_SET_IN = ("The method was tested on three data sets drawn from the public archives",
           "of the institute, with the splits fixed in advance and the seeds chosen.")  # fmt: skip


def _side_heads(page: pymupdf.Page, heads: tuple[str, ...], rows: tuple[str, ...], font: str) -> None:
    """A manual's page: one lead paragraph at the left, then bold ``heads`` at body size, each
    over ``rows`` set in 2 ems in ``font`` (a side head's body, a listing)."""
    page.insert_text((72, 80), _LEAD, fontsize=10, fontname="tiro")
    y = 110.0
    for head in heads:
        page.insert_text((72, y), head, fontsize=10, fontname="tibo")
        for row in rows:
            y += 13
            page.insert_text((92, y), row, fontsize=10, fontname=font)
        y += 26


@pytest.mark.parametrize(
    ("heads", "rows", "font"),
    [
        (("Building from source", "Running the tests"), ("make install",), "cour"),  # a listing
        (("Installation", "Configuration", "Usage"), _SET_IN, "tiro"),  # side heads
    ],
)
def test_a_head_over_an_example_a_listing_or_a_side_heads_body_stays_a_heading(tmp_path, heads, rows, font):
    """The negatives of ``_terms`` (review lists_early 5): bold heads over a listing set in, and
    side heads over paragraphs set in (no one-line definition among them) after one lead
    paragraph, stay headings."""
    text = drawn_markdown(tmp_path, lambda page: _side_heads(page, heads, rows, font))
    assert headings(text) == list(heads), text


def test_a_head_ending_with_a_colon_over_its_example_is_no_definition_term():
    """bgteubner p29's blocks (a one-page PDF reads no such line as a heading): the bold
    ``Beispiel .:`` (its number lost to the font) over an example set in 2 ems, a paragraph
    at its x above, is a labelled example's head, no definition list's term (review 3)."""
    from docread.extractors.pdf.text.blocks import _terms
    from docread.extractors.pdf.text.pieces import Block

    body = [Line(46.3, 307.7, 428.9, 317.7, "einen grauen Hintergrund hervorheben. Auch", 10)]
    head = Line(46.3, 338.3, 107.0, 347.1, "Beispiel .:", 10, bold=True, weight=700)
    example = [Line(66.7, 351.7, 408.0, 361.7, "Wenn man sich ständig Textbeispiele ausdenken", 10),
               Line(67.2, 363.7, 127.3, 373.6, "die Ideen aus.", 10)]  # fmt: skip
    out = [Block("text", body), Block("heading", [head], level=4), Block("text", example)]
    assert _terms(out, {}, Survey(body=10.0)) == []


def _chapters(page: pymupdf.Page) -> None:
    """A novel's chapters: ``CHAPTER ONE`` ... centred at body size over a paragraph each."""
    y = 80.0
    for head in ("CHAPTER ONE", "CHAPTER ELEVEN", "CHAPTER TWELVE"):
        width = pymupdf.get_text_length(head, fontname="tiro", fontsize=10)
        page.insert_text(((612 - width) / 2, y), head, fontsize=10, fontname="tiro")
        page.insert_textbox(pymupdf.Rect(72, y + 14, 540, y + 64), BODY, fontsize=10, fontname="tiro")
        y += 90


def test_a_chapter_numbered_in_words_or_roman_numerals_is_a_numbered_head(tmp_path):
    """HEAD_NUMBER takes a number after ``Chapter``/``Part``: spelled out in any case up to
    twenty, a Roman numeral in one case, a ``:`` after it (review lists_early 4); a word
    after it (``Section heads.``) stays a sentence's: centred ``CHAPTER ONE`` lines at body
    size are headings again."""
    assert headings(drawn_markdown(tmp_path, _chapters)) == ["CHAPTER ONE", "CHAPTER ELEVEN", "CHAPTER TWELVE"]
    for head in ("Chapter Eleven", "Chapter one", "PART TWO The Return", "Chapter XL", "Part ii",
                 "Chapter 1: Intro", "Part I: Basics", "Chapter Twenty"):  # fmt: skip
        assert HEAD_NUMBER.match(head), head
    for sentence in ("Section heads.", "Part of the work", "Chapter ill", "Section Ivy", "CHAPTER 2:"):
        assert not HEAD_NUMBER.match(sentence), sentence  # a contents line's label (msu-thesis p7)


def _field_list(page: pymupdf.Page) -> None:
    """tlc-article p7: a paragraph ending ``column names:``, bold field names at body size each
    over two lines set in 2.4 ems, then the body going on at the left."""
    page.insert_text((72, 80), "The file uses the following column names:", fontsize=10, fontname="tiro")
    y = 110.0
    for name in ("version", "date", "status"):
        page.insert_text((72, y), name, fontsize=10, fontname="tibo")
        for row in _SET_IN:
            y += 13
            page.insert_text((96, y), row, fontsize=10, fontname="tiro")
        y += 26
    page.insert_text((72, y), "The extraction methods are shown below.", fontsize=10, fontname="tiro")


def test_a_field_lists_names_over_two_lines_each_are_no_headings(tmp_path):
    """tlc-article p7: terms over definitions of two lines each, where the body goes on at the
    terms' x after the last one, are a definition list's (side heads' bodies run to the next
    head): no headings."""
    text = drawn_markdown(tmp_path, _field_list)
    assert headings(text) == [], text
    assert "version\nThe method was tested" in text or "version\n\nThe method was tested" in text


_CREATURES = ("Arcane Horror", "Corpse", "Desire Demon")


def _bestiary(page: pymupdf.Page) -> None:
    """DA-619p p184: a bold name at body size with a note flush right on its row, a quotation
    set in 2.4 ems under it, then the body at the name's x."""
    y = 80.0
    for name in _CREATURES:
        page.insert_text((72, y), name, fontsize=10, fontname="tibo")
        page.insert_text((440, y), "Same as in DAO", fontsize=10, fontname="tibo")
        for row in _SET_IN:
            y += 13
            page.insert_text((96, y), row, fontsize=10, fontname="tiro")
        y += 26
        body = "The body of the entry goes on at the left margin here."
        page.insert_text((72, y), body, fontsize=10, fontname="tiro")
        y += 30


def test_a_name_the_outline_opens_a_title_with_stays_a_heading(tmp_path):
    """DA-619p (its outline's ``Arcane Horror Same as in DAO``): heads over a quotation set in,
    the body going on at their x, are no definition list's terms where the outline names them
    (with the note flush right on their row: ``blocks._outlined``); the same page without an
    outline reads them as terms (the rule's other side)."""
    import docread

    plain = drawn_markdown(tmp_path, _bestiary)
    assert [h for h in headings(plain) if h in _CREATURES] == [], plain
    doc = pymupdf.open(tmp_path / "page.pdf")
    doc.set_toc([[1, f"{name} Same as in DAO", 1] for name in _CREATURES])
    doc.save(tmp_path / "outlined.pdf")
    config = {"cache": {"enabled": False}, "isolation": {"enabled": False}}
    with docread.Reader(tmp_path, config=config) as reader:
        text = "\n\n".join(d.text for d in reader.iter_documents("outlined.pdf"))
    assert [h for h in headings(text) if h in _CREATURES] == list(_CREATURES), text


BILL_BODY = (
    "The goods sold as part of this shipment are intended for end user consumption and not "
    "for resale; returns are accepted within ten days of delivery with the original packing."
)


def _bill_fields(page: pymupdf.Page) -> None:
    """A bill's head as real ones set it (extra14 Flipkart, extra16 asmeconf): a document's
    number alone flush right, a title, fields and their values and a product code in a bold
    type larger than the body's, a real section head with an ID in brackets."""
    page.insert_text((400, 60), "AIECE2021-0001", fontsize=14, fontname="hebo")
    page.insert_text((72, 100), "Retail Invoice", fontsize=18, fontname="hebo")
    y = 130.0
    for field in ("Order ID: OD304175096047380001", "Invoice Date: 20-10-2015", "ACCEA5E3GPBQJ9P9"):
        page.insert_text((72, y), field, fontsize=12, fontname="hebo")
        page.insert_textbox(pymupdf.Rect(72, y + 8, 520, y + 50), BILL_BODY, fontsize=10)
        y += 70
    for head in ("Preliminary Estimate (ID: EST-1008)", "Payment Summary"):
        page.insert_text((72, y), head, fontsize=12, fontname="hebo")
        page.insert_textbox(pymupdf.Rect(72, y + 8, 520, y + 50), BILL_BODY, fontsize=10)
        y += 70


def test_a_field_with_its_value_or_a_code_is_no_heading_at_any_size(tmp_path):
    """Flipkart's bold ``Order ID: OD304175096047380001``, ``Invoice Date: 20-10-2015`` and
    ``ACCEA5E3GPBQJ9P9``, asmeconf's paper number ``AIECE2021-0001``: a field's value or a
    code, set larger than the body, is still no heading; a title with an ID in brackets is."""
    text = drawn_markdown(tmp_path, _bill_fields)
    assert headings(text) == [
        "Retail Invoice", "Preliminary Estimate (ID: EST-1008)", "Payment Summary"
    ]


def _right(page: pymupdf.Page, x: float, y: float, text: str, font: str = "helv") -> None:
    page.insert_text((x - pymupdf.get_text_length(text, fontname=font, fontsize=10), y), text,
                     fontsize=10, fontname=font)  # fmt: skip


def _totals(page: pymupdf.Page) -> None:
    """extra14's Netpresse invoice as it is set: an item table under a grey head band, framed
    but for rules inside, its bold totals' labels (``Total HT :``) at the body's size in its
    box, each with its value flush right on its row, then a bold section head (the amounts
    without their euro sign: the base-14 fonts have none)."""
    page.insert_text((72, 70), "Facture n° 2022089083", fontsize=16, fontname="hebo")
    page.insert_textbox(pymupdf.Rect(45, 90, 550, 150), BILL_BODY, fontsize=10)
    for x0, x1 in ((45, 298), (298, 373), (373, 449), (449, 550)):
        page.draw_rect(pymupdf.Rect(x0, 251, x1, 275), color=(0, 0, 0), fill=(0.83,) * 3, width=0.8)
    for a, b in (((45, 275), (45, 438)), ((550, 275), (550, 438)), ((45, 438), (550, 438))):
        page.draw_line(a, b, width=0.8)
    for x, head in ((143, "Désignation"), (317, "Nombre"), (393, "P.U. HT"), (469, "Montant HT")):
        page.insert_text((x, 267), head, fontsize=10, fontname="hebo")
    page.insert_text((50, 297), "le-tout-lyon.fr du 06/12/2022", fontsize=10)
    _right(page, 543, 297, "45,93")
    for y, name, n, unit in ((322, "Justificatif PDF", "1", "0,75"), (347, "Justificatif Papier", "0", "3,50")):
        page.insert_text((50, y), name, fontsize=10)
        page.insert_text((300, y), n, fontsize=10)
        _right(page, 442, y, unit)
        _right(page, 543, y, unit if n == "1" else "0,00")
    for y, label, value in ((373, "Total HT :", "46,68"), (398, "TVA 20% :", "9,34"), (423, "Total TTC :", "56,02")):
        page.insert_text((376, y), label, fontsize=10, fontname="hebo")
        _right(page, 544, y, value, "hebo")
    page.insert_text((45, 460), "Modes de règlement", fontsize=10, fontname="hebo")
    page.insert_textbox(pymupdf.Rect(45, 468, 550, 530), BILL_BODY, fontsize=10)


def test_a_label_with_its_value_on_its_row_is_no_heading(tmp_path):
    """Netpresse's ``Total HT :``, ``TVA 20% :``, ``Total TTC :``: a label ending with a colon
    whose value is set on its row to its right (read into the table beside it) is a row's
    label, no heading; the section head under the table stays one."""
    text = drawn_markdown(tmp_path, _totals)
    assert headings(text) == ["Facture n° 2022089083", "Modes de règlement"], text


def _release_title_page(page: pymupdf.Page) -> None:
    """A class manual's title block (univie-ling-expose p1): a title, a byline with LaTeX's
    first \\thanks mark ``∗``, a release line a little over the body's size, an abstract."""
    page.insert_text((200, 100), "The univie-ling-expose class", fontsize=17, fontname="tiro")
    page.insert_text((240, 130), "Jürgen Spitzmüller∗", fontsize=12, fontname="F0", fontfile=DEJAVU)
    page.insert_text((230, 155), "Version 2.2, 2022/12/06", fontsize=12, fontname="tiro")
    page.insert_text((280, 190), "Abstract", fontsize=10, fontname="tibo")
    page.insert_textbox(pymupdf.Rect(90, 200, 520, 280), BILL_BODY * 2, fontsize=10, fontname="tiro")


def _change_log(page: pymupdf.Page) -> None:
    """A later page's change log: each entry a bold version and date over its text."""
    y = 80.0
    for entry in ("Version 3.0.1, 2017-08-11", "Version 3.0, 2017-07-18"):
        page.insert_text((72, y), entry, fontsize=12, fontname="tibo")
        page.insert_textbox(pymupdf.Rect(72, y + 8, 520, y + 60), BILL_BODY, fontsize=10, fontname="tiro")
        y += 80


def test_a_title_blocks_release_line_and_starred_byline_are_no_headings(tmp_path):
    """univie-ling-expose p1 and ~40 title pages of the outline survey: ``Version 2.2,
    2022/12/06`` and ``Jürgen Spitzmüller∗`` under a title are its block, no headings; a change
    log's entries, a version and a date on a later page, stay headings."""
    pdf(tmp_path / "manual.pdf", [drawn(_release_title_page), drawn(_change_log)])
    config = {"cache": {"enabled": False}, "isolation": {"enabled": False}}
    with docread.Reader(tmp_path, config=config) as reader:
        first, second = (d.text for d in reader.iter_documents("manual.pdf"))
    assert headings(first) == ["The univie-ling-expose class", "Abstract"], first
    assert headings(second) == ["Version 3.0.1, 2017-08-11", "Version 3.0, 2017-07-18"], second


def _starred_title(page: pymupdf.Page) -> None:
    """A paper's title in capitals over two sizes (resphilosophica's rpsample p1), its second
    line ending with the thanks marks ``∗†``, then the byline at the body's size."""
    page.insert_text((200, 80), "A SAMPLE PAPER:", fontsize=17, fontname="F0", fontfile=DEJAVU)
    page.insert_text((210, 100), "A TEMPLATE ∗†", fontsize=14, fontname="F0", fontfile=DEJAVU)
    page.insert_text((180, 130), "Boris Veytsman", fontsize=10, fontname="tiro")
    page.insert_textbox(pymupdf.Rect(72, 150, 520, 300), BILL_BODY * 4, fontsize=10, fontname="tiro")


def test_a_titles_line_in_capitals_with_its_thanks_marks_is_no_byline(tmp_path):
    """A byline's mark may be ``∗`` (univie-ling-expose), but a title's line in capitals with
    its marks is no author's name: it stays a heading."""
    assert headings(drawn_markdown(tmp_path, _starred_title)) == ["A SAMPLE PAPER:", "A TEMPLATE ∗†"]


def _starred_package_title(page: pymupdf.Page) -> None:
    """A package manual's title with its thanks mark (UStitle p1: ``The UStitle Package ∗``),
    a byline with one too, then the body."""
    page.insert_text((200, 80), "The UStitle Package∗", fontsize=17, fontname="F0", fontfile=DEJAVU)
    page.insert_text((220, 110), "Jürgen Spitzmüller∗", fontsize=12, fontname="F0", fontfile=DEJAVU)
    page.insert_textbox(pymupdf.Rect(72, 140, 520, 300), BILL_BODY * 4, fontsize=10, fontname="tiro")


def test_a_title_with_its_thanks_mark_is_no_byline(tmp_path):
    """``∗`` marks a title's note as well as an author's (UStitle, JACoW): a line in the
    document's first heading style stays its title; the name under it is the byline."""
    assert headings(drawn_markdown(tmp_path, _starred_package_title)) == ["The UStitle Package∗"]


def _registration(page: pymupdf.Page) -> None:
    """A booking receipt's foot (extra14 oyo): bold labels over their codes, two side by side
    (``GSTIN`` over ``06AABCO6063D1ZQ``, ``CIN`` over ``U63090DL2012PTC231770``), under a
    bold title and body text."""
    page.insert_text((57, 80), "Payment Receipt", fontsize=16, fontname="hebo")
    page.insert_text((57, 92), "BKG-2024-0001234", fontsize=8, fontname="helv")
    page.insert_textbox(pymupdf.Rect(57, 105, 540, 200), BILL_BODY * 3, fontsize=8, fontname="helv")
    for x, label, code in ((57, "GSTIN", "06AABCO6063D1ZQ"), (302, "CIN", "U63090DL2012PTC231770")):
        page.insert_text((x, 240), label, fontsize=9, fontname="hebo")
        page.insert_text((x, 260), code, fontsize=8.3, fontname="hebo")


def test_a_label_over_its_code_is_no_heading(tmp_path):
    """oyo's ``GSTIN`` over its registration code: a field's label over its value (a code, no
    heading either) is no heading; the receipt's title over its booking's code stays one."""
    assert headings(drawn_markdown(tmp_path, _registration)) == ["Payment Receipt"]


def _dated_title(page: pymupdf.Page, title: str) -> None:
    """A page 1 whose title carries its date (minutes, release notes): the title in 18 pt bold,
    a section head in 14 pt bold, body text under each."""
    page.insert_text((72, 90), title, fontsize=18, fontname="hebo")
    page.insert_textbox(pymupdf.Rect(72, 105, 520, 200), BILL_BODY * 2, fontsize=10, fontname="tiro")
    page.insert_text((72, 230), "Tagesordnung", fontsize=14, fontname="hebo")
    page.insert_textbox(pymupdf.Rect(72, 245, 520, 340), BILL_BODY * 2, fontsize=10, fontname="tiro")


@pytest.mark.parametrize("title", ["Protokoll der Sitzung vom 12.03.2024", "Release Notes 2024-01-15"])
def test_a_first_pages_title_that_carries_its_date_stays_a_heading(tmp_path, title):
    """ijsra p1's ``The ijsra-class, Version 1.1 – 2017/07/24``: a release line that is the
    page's top heading is its title, not the small release line under one."""
    assert headings(drawn_markdown(tmp_path, lambda page: _dated_title(page, title))) == [
        title, "Tagesordnung"
    ]


def _first_change_log(page: pymupdf.Page) -> None:
    """A change log's first page: its title, then entries of a version and a date."""
    page.insert_text((72, 60), "Changelog", fontsize=20, fontname="hebo")
    y = 100.0
    for entry in ("Version 3.0.1, 2017-08-11", "Version 3.0, 2017-07-18", "Version 2.9, 2017-05-02"):
        page.insert_text((72, y), entry, fontsize=12, fontname="tibo")
        page.insert_textbox(pymupdf.Rect(72, y + 8, 520, y + 60), BILL_BODY, fontsize=10, fontname="tiro")
        y += 80


def test_a_change_logs_entries_on_its_first_page_stay_headings(tmp_path):
    """Several release lines on page 1 are a change log's entries, not a title block's line."""
    assert headings(drawn_markdown(tmp_path, _first_change_log)) == [
        "Changelog", "Version 3.0.1, 2017-08-11", "Version 3.0, 2017-07-18", "Version 2.9, 2017-05-02"
    ]


def test_a_release_line_the_outline_names_stays_a_heading(tmp_path):
    """Release notes whose bookmarks name each release: the outline's heading is never demoted
    as a title block's release line."""
    doc = pymupdf.open()
    page = doc.new_page()
    page.insert_text((72, 80), "Release 2.0 (2023-05-05)", fontsize=16, fontname="hebo")
    page.insert_textbox(pymupdf.Rect(72, 90, 520, 180), BILL_BODY * 2, fontsize=10)
    page.insert_text((72, 210), "Release 1.9 (2023-01-12)", fontsize=16, fontname="hebo")
    page.insert_textbox(pymupdf.Rect(72, 220, 520, 310), BILL_BODY * 2, fontsize=10)
    doc.set_toc([[1, "Release 2.0 (2023-05-05)", 1], [1, "Release 1.9 (2023-01-12)", 1]])
    doc.save(tmp_path / "notes.pdf")
    config = {"cache": {"enabled": False}, "isolation": {"enabled": False}}
    with docread.Reader(tmp_path, config=config) as reader:
        (first,) = (d.text for d in reader.iter_documents("notes.pdf"))
    assert headings(first) == ["Release 2.0 (2023-05-05)", "Release 1.9 (2023-01-12)"], first


def _heads_under_title(
    title: tuple[str, float], heads: tuple[str, ...], size: float
) -> Callable[[pymupdf.Page], None]:
    """A page drawer: ``title`` (text, size) in bold, then each head in bold at ``size`` over a
    paragraph of body text."""

    def draw(page: pymupdf.Page) -> None:
        page.insert_text((72, 60), title[0], fontsize=title[1], fontname="hebo")
        y = 100.0
        for head in heads:
            page.insert_text((72, y), head, fontsize=size, fontname="hebo")
            box = pymupdf.Rect(72, y + 8, 520, y + 90)
            page.insert_textbox(box, BILL_BODY * 2, fontsize=10, fontname="tiro")
            y += 110

    return draw


def test_a_bold_section_marked_with_a_star_is_no_byline(tmp_path):
    """``Further Reading*``: a bold head marked optional is a section; a byline is no bold (a
    textbook's optional sections marked ``*`` in its bold heading style under its title)."""
    heads = ("Vector Spaces", "Further Reading*", "Advanced Topics*")
    draw = _heads_under_title(("Linear Algebra Notes", 20), heads, 13)
    assert headings(drawn_markdown(tmp_path, draw)) == ["Linear Algebra Notes", *heads]


def test_a_heads_year_after_its_colon_is_no_fields_value(tmp_path):
    """``Outlook: 2025``: a year after a colon is a head's, no field's one-word value (a
    report's heads under its title)."""
    heads = ("Overview", "Strategy: 2030", "Outlook: 2025")
    draw = _heads_under_title(("Annual Report", 24), heads, 14)
    assert headings(drawn_markdown(tmp_path, draw)) == ["Annual Report", *heads]


def test_a_short_total_with_its_prices_or_a_cjk_label_with_one_is_a_rows_label():
    """``Total`` before two sums and ``合计：`` before one (a full-width colon) label their rows;
    ``Total`` before one sum, a longer head before two, or a row the outline names do not."""

    def row(label: str, *sums: str) -> tuple[list[Line], list[Line]]:
        head = Line(50, 415, 50 + 6 * len(label), 425, label, 10, bold=True, weight=700)
        values = [Line(300 + 100 * n, 415, 340 + 100 * n, 425, v, 10) for n, v in enumerate(sums)]
        return [head], [head, *values]

    assert row_label(*row("Total", "$40.00", "$46.68"), {})
    assert row_label(*row("合计：", "¥46.68"), {})
    assert not row_label(*row("Total", "$46.68"), {})
    assert not row_label(*row("Prices of the year 2024", "$40.00", "$46.68"), {})
    assert row_label(*row("Total HT :", "46,68 €"), {})
    assert not row_label(*row("Total HT :", "46,68 €"), {norm("Total HT :"): 1})


def _bold_byline(page: pymupdf.Page) -> None:
    """iscram p1's title block: the title, the author's name in a large bold face with LaTeX's
    \\thanks mark ``∗`` in a regular face beside it, then the body."""
    page.insert_text((100, 80), "Crisis Response Systems", fontsize=24, fontname="hebo")
    page.insert_text((220, 120), "Paul Gaborit", fontsize=16, fontname="tibo")
    page.insert_text((220 + pymupdf.get_text_length("Paul Gaborit", "tibo", 16) + 2, 114), "∗",
                     fontsize=11.7, fontname="F0", fontfile=DEJAVU)  # fmt: skip
    page.insert_textbox(pymupdf.Rect(72, 150, 520, 300), BILL_BODY * 4, fontsize=10, fontname="tiro")


def test_a_bold_byline_with_latexs_thanks_mark_is_no_heading(tmp_path):
    """The ``∗`` LaTeX sets marks a byline even in bold (a typed ``*`` on a bold head does not)."""
    assert headings(drawn_markdown(tmp_path, _bold_byline)) == ["Crisis Response Systems"]


def _dated_cover(page: pymupdf.Page) -> None:
    """jmlr p1: a manual's first page whose one heading is its release line, in a style the
    manual's sections (later pages) are larger than."""
    page.insert_text((72, 80), "Articles for Proceedings of Machine Learning Research", fontsize=10, fontname="tiro")
    page.insert_text((72, 110), "2022-02-09 (version 1.30)", fontsize=12, fontname="hebo")
    page.insert_textbox(pymupdf.Rect(72, 130, 520, 300), BILL_BODY * 4, fontsize=10, fontname="tiro")


def _sections(page: pymupdf.Page) -> None:
    """A later page's sections: a chapter's head in 20 pt bold, sections' in 12 pt bold."""
    page.insert_text((72, 80), "1 Introduction", fontsize=20, fontname="hebo")
    page.insert_textbox(pymupdf.Rect(72, 95, 520, 180), BILL_BODY * 2, fontsize=10, fontname="tiro")
    for y, head in ((210, "1.1 Scope"), (340, "1.2 Aims")):
        page.insert_text((72, y), head, fontsize=12, fontname="hebo")
        page.insert_textbox(pymupdf.Rect(72, y + 15, 520, y + 100), BILL_BODY * 2, fontsize=10, fontname="tiro")


def test_a_release_line_that_is_page_ones_only_heading_is_no_heading(tmp_path):
    """The release line is the title block's even when no other heading is on page 1: only
    the document's top heading style makes it a title."""
    pdf(tmp_path / "manual.pdf", [drawn(_dated_cover), drawn(_sections)])
    config = {"cache": {"enabled": False}, "isolation": {"enabled": False}}
    with docread.Reader(tmp_path, config=config) as reader:
        first, second = (d.text for d in reader.iter_documents("manual.pdf"))
    assert headings(first) == [], first
    assert headings(second)[:1] == ["1 Introduction"], second


def _numbered_bill(page: pymupdf.Page, number: str) -> None:
    """SammyMaystone's head (extra14): ``INVOICE`` in 28 pt at the right, the bill's number
    under it in 12 pt (``# invoice_number_1``), then the body."""
    page.insert_text((400, 60), "INVOICE", fontsize=28, fontname="helv")
    page.insert_text((402, 80), number, fontsize=12, fontname="helv")
    page.insert_textbox(pymupdf.Rect(57, 120, 540, 300), BILL_BODY * 3, fontsize=10, fontname="helv")


@pytest.mark.parametrize("number", ["# invoice_number_1", "No. INV2022-089", "#INV-0042"])
def test_a_bills_number_under_its_title_is_no_heading(tmp_path, number):
    """A number sign and one token with a digit in it is the document's number (a bill's, a
    receipt's), no heading, whatever its size; the title over it stays one."""
    draw = lambda page: _numbered_bill(page, number)  # noqa: E731
    assert headings(drawn_markdown(tmp_path, draw)) == ["INVOICE"]


def _authors_title_page(page: pymupdf.Page, authors: str) -> None:
    """R-intro's and hagenberg-thesis's title page: the title, a byline of several names with
    initials joined by commas and ``and`` in a larger face, then the body."""
    page.insert_text((150, 100), "An Introduction to R", fontsize=24, fontname="hebo")
    page.insert_text((150, 140), authors, fontsize=14, fontname="helv")
    page.insert_textbox(pymupdf.Rect(72, 170, 520, 330), BILL_BODY * 4, fontsize=10, fontname="tiro")


@pytest.mark.parametrize(
    "authors", ["W. N. Venables, D. M. Smith and the R Core Team", "W. Burger and W. Hochleitner"]
)
def test_a_byline_of_several_names_with_initials_is_no_heading(tmp_path, authors):
    """Several authors' names with their initials, joined by commas and ``and``, under a title
    are its byline (outline survey: 3 of 3 such headings were bylines), no heading."""
    draw = lambda page: _authors_title_page(page, authors)  # noqa: E731
    assert headings(drawn_markdown(tmp_path, draw)) == ["An Introduction to R"]


def _lettered_sections(page: pymupdf.Page, heads: tuple[str, ...]) -> None:
    """A paper's or a biosketch's lettered sections (REVTeX's ``A. Title and Front Matter``,
    IEEE's ``V. Conclusion and Future Work``): each head in 12 pt bold over its text."""
    y = 60.0
    for head in heads:
        page.insert_text((72, y), head, fontsize=12, fontname="hebo")
        page.insert_textbox(pymupdf.Rect(72, y + 14, 520, y + 80), BILL_BODY * 2, fontsize=10, fontname="tiro")
        y += 100


@pytest.mark.parametrize(
    "heads",
    [
        ("A. Research and Professional Experience", "B. Title and Front Matter"),
        ("IV. Experiments", "V. Conclusion and Future Work", "A. Brand New World"),
        ("U.S. Policy and the Middle East", "C. Terms & Payment Schedule"),
    ],
)
def test_lettered_section_heads_joined_by_and_stay_headings(tmp_path, heads):
    """A lettered or roman-numbered head whose title holds ``and`` or ``&`` is no byline: one
    letter is no name's initials (aipguide4-1 p3, example-biosketch p1 lost theirs)."""
    draw = lambda page: _lettered_sections(page, heads)  # noqa: E731
    assert headings(drawn_markdown(tmp_path, draw)) == list(heads)


def test_a_long_list_of_initialed_names_is_matched_in_linear_time():
    """A byline test on 24 initialed names that fails at its end costs no more than a moment
    (a space that two parts of the pattern could take made it 2^n: seconds at 20 names)."""
    line = ", ".join(f"{chr(65 + i % 26)}. Li" for i in range(24)) + " 1"
    start = time.process_time()
    assert not _AUTHORS.match(line)
    assert time.process_time() - start < 0.5
