"""Review comments are read as ``author (date): text`` lines: DOCX (``## Comments``), each PPTX
slide's legacy and modern comments (with replies, under ``Comments:`` after its notes), and an
XLSX sheet's threaded comments and notes (a loader unit per sheet, the agent view's header).
PPTX and threaded XLSX comments are written part by part as PowerPoint and Excel write them."""

from __future__ import annotations

import re
import zipfile
from pathlib import Path

import docread
import pytest
from conftest import CORPUS

_P = 'xmlns:p="http://schemas.openxmlformats.org/presentationml/2006/main"'
_P188 = 'xmlns:p188="http://schemas.microsoft.com/office/powerpoint/2018/8/main"'
_A = 'xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main"'
_REL = "http://schemas.openxmlformats.org/officeDocument/2006/relationships"


def _add(path: Path, parts: dict[str, str], rels: dict[str, list[tuple[str, str, str]]],
         types: list[tuple[str, str]]) -> Path:  # fmt: skip
    """Add ``parts``, relationships (part -> (id, type, target)) and content types to a zip."""
    with zipfile.ZipFile(path) as z:
        members = {i.filename: z.read(i) for i in z.infolist()}
    for name, xml in parts.items():
        members[name] = xml.encode()
    for part, entries in rels.items():
        folder, base = part.rsplit("/", 1)
        name = f"{folder}/_rels/{base}.rels"
        text = members.get(name, b"").decode() or (
            '<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">'
            "</Relationships>"
        )
        add = "".join(f'<Relationship Id="{i}" Type="{t}" Target="{g}"/>' for i, t, g in entries)
        members[name] = text.replace("</Relationships>", add + "</Relationships>").encode()
    overrides = "".join(f'<Override PartName="/{n}" ContentType="{c}"/>' for n, c in types)
    ct = members["[Content_Types].xml"].decode()
    members["[Content_Types].xml"] = ct.replace("</Types>", overrides + "</Types>").encode()
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as z:
        for name, data in members.items():
            z.writestr(name, data)
    return path


def commented_deck(path: Path) -> Path:
    """Two slides: slide 1 with a legacy comment, slide 2 with a modern comment and a reply."""
    from pptx import Presentation

    prs = Presentation()
    for title in ("Plan", "Budget"):
        prs.slides.add_slide(prs.slide_layouts[5]).shapes.title.text = title
    prs.save(path)
    legacy = (
        f'<p:cmLst {_P}><p:cm authorId="0" dt="2024-03-05T10:00:00.000" idx="1">'
        '<p:pos x="10" y="10"/><p:text>Check the dates</p:text></p:cm></p:cmLst>'
    )
    authors = f'<p:cmAuthorLst {_P}><p:cmAuthor id="0" name="Ana" initials="A" lastIdx="1" clrIdx="0"/></p:cmAuthorLst>'  # fmt: skip
    modern = (
        f'<p188:cmLst {_P188} {_A}><p188:cm id="{{1}}" authorId="{{AB}}" '
        'created="2024-04-01T09:30:00.000"><p188:replyLst><p188:reply id="{2}" authorId="{CD}" '
        'created="2024-04-02T08:00:00.000"><p188:txBody><a:bodyPr/><a:p><a:r><a:t>Done, '
        "updated</a:t></a:r></a:p></p188:txBody></p188:reply></p188:replyLst><p188:txBody>"
        "<a:bodyPr/><a:p><a:r><a:t>Numbers are from Q1</a:t></a:r></a:p></p188:txBody>"
        "</p188:cm></p188:cmLst>"
    )
    people = (
        f'<p188:authorLst {_P188}><p188:author id="{{AB}}" name="Bo" initials="B" userId="b" '
        'providerId="None"/><p188:author id="{CD}" name="Cy" initials="C" userId="c" '
        'providerId="None"/></p188:authorLst>'
    )
    return _add(
        path,
        {"ppt/comments/comment1.xml": legacy, "ppt/commentAuthors.xml": authors,
         "ppt/comments/modernComment_101_1.xml": modern, "ppt/authors.xml": people},
        {"ppt/slides/slide1.xml": [("rIdC1", f"{_REL}/comments", "../comments/comment1.xml")],
         "ppt/slides/slide2.xml": [("rIdC2", "http://schemas.microsoft.com/office/2018/10/"
                                    "relationships/comments", "../comments/modernComment_101_1.xml")]},
        [("ppt/comments/comment1.xml", "application/vnd.openxmlformats-officedocument."
          "presentationml.comments+xml")],
    )  # fmt: skip


def test_pptx_legacy_and_modern_comments(reader: docread.Reader, tmp_path: Path) -> None:
    commented_deck(tmp_path / "deck.pptx")
    slides = [d.text for d in reader.iter_documents("deck.pptx")]
    assert slides[0].endswith("Comments:\n- Ana (2024-03-05): Check the dates")
    assert slides[1].endswith(
        "Comments:\n- Bo (2024-04-01): Numbers are from Q1\n- reply: Cy (2024-04-02): Done, updated"
    )
    assert "Check the dates" in reader.read("deck.pptx").text


def commented_book(path: Path) -> Path:
    """A sheet with a legacy note (openpyxl) on A1 and a threaded comment with a reply on B2,
    whose legacy copy Excel writes beside it."""
    from openpyxl import Workbook
    from openpyxl.comments import Comment

    wb = Workbook()
    ws = wb.active
    ws.title = "Data"
    ws.append(["Region", "Revenue"])
    ws.append(["North", 1.5])
    ws["A1"].comment = Comment("Ed:\nRegions as of 2024", "Ed")
    ws["B2"].comment = Comment("[Threaded comment] Is this net?", "tc=1")
    wb.save(path)
    threaded = (
        '<ThreadedComments xmlns="http://schemas.microsoft.com/office/spreadsheetml/2018/'
        'threadedcomments"><threadedComment ref="B2" dT="2024-05-06T07:08:09.00" personId="{P1}"'
        ' id="{T1}"><text>Is this net?</text></threadedComment><threadedComment ref="B2" '
        'dT="2024-05-07T07:08:09.00" personId="{P2}" id="{T2}" parentId="{T1}"><text>Yes, net'
        "</text></threadedComment></ThreadedComments>"
    )
    persons = (
        '<personList xmlns="http://schemas.microsoft.com/office/spreadsheetml/2018/threadedcomments">'
        '<person displayName="Fay" id="{P1}" userId="f" providerId="None"/>'
        '<person displayName="Gus" id="{P2}" userId="g" providerId="None"/></personList>'
    )
    return _add(
        path,
        {"xl/threadedComments/threadedComment1.xml": threaded, "xl/persons/person.xml": persons},
        {"xl/worksheets/sheet1.xml": [("rIdT", "http://schemas.microsoft.com/office/2017/10/"
                                       "relationships/threadedComment",
                                       "../threadedComments/threadedComment1.xml")]},
        [],
    )  # fmt: skip


def test_xlsx_notes_and_threaded_comments(reader: docread.Reader, tmp_path: Path) -> None:
    commented_book(tmp_path / "book.xlsx")
    docs = [d for d in reader.iter_documents("book.xlsx") if "comments" in d.metadata]
    assert [d.text for d in docs] == [
        "## Sheet: Data, comments\n\nComments:\n- B2: Fay (2024-05-06): Is this net?\n"
        "- B2: Gus (2024-05-07): Yes, net\n- A1: Ed: Regions as of 2024"
    ]
    assert docs[0].metadata["comments"] == 3
    assert "**Comments:** B2: Fay (2024-05-06): Is this net?" in reader.read("book.xlsx").render()


def test_docx_comments_carry_their_date(reader: docread.Reader) -> None:
    """test_with_comment.docx holds two comments by "Unknown Author" of 2024-12-15."""
    path = CORPUS / "word" / "test_with_comment.docx"
    if not path.exists():
        pytest.skip("the shared corpus is not there")
    with docread.Reader(path.parent, config={"cache": {"enabled": False}}) as r:
        text = "\n".join(d.text for d in r.iter_documents(path.name))
    assert re.search(
        r"## Comments\n\n- Unknown Author \(2024-12-15\): This is a test comment\. 12df-321a\n"
        r"- Unknown Author \(2024-12-15\): Yet another comment in the doc\. 55yiyi-asd09",
        text,
    )
