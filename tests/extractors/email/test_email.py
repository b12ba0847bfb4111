"""E-mail (.eml, .msg, .mbox): the header block and body (plain preferred, HTML as markdown,
charsets and transfer encodings decoded), attachments listed, read one by ``archive_path`` and
loaded as children under the archive limits, and damaged or hostile messages bounded."""

from __future__ import annotations

import io
import mailbox
import struct
from email.message import EmailMessage
from email.utils import make_msgid
from pathlib import Path

import docread
import pytest
from conftest import CORPUS, MakeReader
from docread.errors import BannedExtensionError, DocumentNotFoundError
from docread.extractors.markdown import human_size
from factories import pdf_bytes, zip_bytes

TOTALS = b"region,total\nnorth,120\nsouth,80\n"  # 32 bytes
ZEROS = 20 << 20  # deflates about 1000:1: over archive.max_compression_ratio=100


def message(
    body: str = "Hello Ann,\nthe figures are attached.\n",
    *,
    subject: str = "Quarterly figures",
    html: str | None = None,
    attachments: list[tuple[str, str, bytes]] = (),  # type: ignore[assignment]
    cc: str = "",
) -> EmailMessage:
    """A message with a text body (and an HTML alternative when ``html``) and attachments
    given as (file name, MIME type, bytes)."""
    msg = EmailMessage()
    msg["From"] = "Bob Sender <bob@example.com>"
    msg["To"] = "Ann Receiver <ann@example.com>"
    if cc:
        msg["Cc"] = cc
    msg["Subject"] = subject
    msg["Date"] = "Tue, 03 Mar 2026 14:15:00 +0100"
    msg["Message-ID"] = "<figures-1@example.com>"
    msg.set_content(body)
    if html is not None:
        msg.add_alternative(html, subtype="html")
    for name, mime, data in attachments:
        maintype, subtype = mime.split("/")
        msg.add_attachment(data, maintype=maintype, subtype=subtype, filename=name)
    return msg


def write(path: Path, msg: EmailMessage) -> Path:
    path.write_bytes(msg.as_bytes())
    return path


# -- header block and body -----------------------------------------------------------------
def test_plain_message_header_block_body_and_metadata(
    reader: docread.Reader, tmp_path: Path
) -> None:
    write(tmp_path / "m.eml", message(cc="Cid <cid@example.com>"))
    result = reader.read("m.eml")
    doc = result.documents[0]
    assert doc.text.splitlines()[:5] == [
        "From: Bob Sender <bob@example.com>",
        "To: Ann Receiver <ann@example.com>",
        "Cc: Cid <cid@example.com>",
        "Date: 2026-03-03T14:15:00+01:00",
        "Subject: Quarterly figures",
    ]
    assert "Hello Ann,\nthe figures are attached." in doc.text
    meta = doc.metadata
    assert (meta["format"], meta["extractor"], meta["category"]) == ("eml", "email", "email")
    assert meta["message_id"] == "<figures-1@example.com>"
    assert meta["from"] == "Bob Sender <bob@example.com>"
    assert meta["to"] == "Ann Receiver <ann@example.com>"
    assert meta["cc"] == "Cid <cid@example.com>"
    assert meta["date"] == "2026-03-03T14:15:00+01:00"
    assert meta["subject"] == "Quarterly figures"
    assert meta["attachment_count"] == 0
    assert result.notes == []


def test_html_only_body_becomes_markdown(reader: docread.Reader, tmp_path: Path) -> None:
    msg = EmailMessage()
    msg["From"], msg["Subject"] = "bob@example.com", "Launch"
    msg.set_content(
        "<html><head><style>p{color:red}</style></head><body><h1>Launch plan</h1>"
        "<p>Read the <a href='https://example.com/plan'>plan</a>.</p>"
        "<ul><li>first step</li><li>second step</li></ul></body></html>",
        subtype="html",
    )
    write(tmp_path / "h.eml", msg)
    text = reader.read("h.eml").documents[0].text
    assert "# Launch plan" in text
    assert "[plan](https://example.com/plan)" in text
    assert "first step" in text and "second step" in text
    assert "<p>" not in text and "color:red" not in text


def test_multipart_alternative_prefers_the_plain_part(
    reader: docread.Reader, tmp_path: Path
) -> None:
    write(tmp_path / "alt.eml", message("plain rendering\n", html="<p>html rendering</p>"))
    doc = reader.read("alt.eml").documents[0]
    assert "plain rendering" in doc.text and "html rendering" not in doc.text
    assert doc.metadata["attachment_count"] == 0  # the alternative is not an attachment


@pytest.mark.parametrize(
    ("raw", "decoded"),
    [
        ("=?utf-8?b?w4ljaMOpYW5jaWVyIOKCrCAxMDA=?=", "Échéancier € 100"),
        ("=?iso-8859-1?q?R=E9sum=E9_de_r=E9union?=", "Résumé de réunion"),
    ],
)
def test_encoded_word_subjects_are_decoded(
    reader: docread.Reader, tmp_path: Path, raw: str, decoded: str
) -> None:
    data = (
        f"From: bob@example.com\r\nSubject: {raw}\r\nContent-Type: text/plain\r\n\r\nbody\r\n"
    ).encode("ascii")
    (tmp_path / "w.eml").write_bytes(data)
    doc = reader.read("w.eml").documents[0]
    assert doc.metadata["subject"] == decoded
    assert f"Subject: {decoded}" in doc.text


@pytest.mark.parametrize(
    ("charset", "cte"), [("iso-8859-1", "quoted-printable"), ("utf-8", "base64")]
)
def test_transfer_encodings_and_charsets_are_honoured(
    reader: docread.Reader, tmp_path: Path, charset: str, cte: str
) -> None:
    msg = EmailMessage()
    msg["From"], msg["Subject"] = "bob@example.com", "encodings"
    msg.set_content("Voilà le café crème, déjà payé.\n", charset=charset, cte=cte)
    raw = msg.as_bytes()
    assert "café".encode(charset) not in raw  # really encoded on the wire
    (tmp_path / "e.eml").write_bytes(raw)
    assert "Voilà le café crème, déjà payé." in reader.read("e.eml").documents[0].text


# -- attachments ---------------------------------------------------------------------------
@pytest.mark.parametrize("label", ["base64", "idna", "utf-7", "x-unknown"])
def test_part_charset_that_is_no_text_encoding_is_refused(
    reader: docread.Reader, tmp_path: Path, label: str
) -> None:
    """A part whose charset names a bytes codec, UTF-7 or nothing known is read as UTF-8 with a
    note naming the charset (idna made the message unreadable, utf-7 hid its text)."""
    raw = (
        "From: bob@example.com\nSubject: odd\nMIME-Version: 1.0\n"
        f"Content-Type: text/plain; charset={label}\nContent-Transfer-Encoding: 8bit\n\n"
        "Caf\u00e9 cr\u00e8me +AGEAYgBj-\n"
    ).encode()
    (tmp_path / "odd.eml").write_bytes(raw)
    result = reader.read("odd.eml")
    assert "Caf\u00e9 cr\u00e8me +AGEAYgBj-" in result.documents[0].text
    assert f"odd.eml: the declared charset {label!r} is not a text encoding" in result.notes[0]


def report_message() -> EmailMessage:
    pdf = pdf_bytes(["Revenue grew in the north.", "Costs fell in the south."])
    return message(
        attachments=[("report.pdf", "application/pdf", pdf), ("totals.csv", "text/csv", TOTALS)]
    )


def test_agent_view_lists_attachments_with_type_and_size(
    reader: docread.Reader, tmp_path: Path
) -> None:
    write(tmp_path / "r.eml", report_message())
    result = reader.read("r.eml")
    assert len(result.documents) == 1  # the agent view reads no attachment
    text = result.documents[0].text
    assert "Attachments (2):" in text
    lines = [line.split() for line in text.splitlines() if line.startswith("  ")]
    assert [(line[0], line[1]) for line in lines] == [
        ("report.pdf", "application/pdf"),
        ("totals.csv", "text/csv"),
    ]
    assert lines[1][2:] == ["32", "B"]
    assert result.documents[0].metadata["attachment_count"] == 2


def test_loader_reads_pdf_attachment_as_pages_with_attachment_and_message_metadata(
    reader: docread.Reader, tmp_path: Path
) -> None:
    write(tmp_path / "r.eml", report_message())
    docs = list(reader.iter_documents("r.eml"))
    assert docs[0].metadata["extractor"] == "email" and "Hello Ann" in docs[0].text
    pages = [d for d in docs if d.metadata.get("format") == "pdf"]
    assert [p.metadata["page_number"] for p in pages] == [1, 2]
    assert "Revenue grew in the north." in pages[0].text
    assert "Costs fell in the south." in pages[1].text
    for page in pages:
        meta = page.metadata
        assert meta["attachment"] == "report.pdf" and meta["member"] == "report.pdf"
        assert meta["message"] == "Quarterly figures"
        assert meta["archive"] == "r.eml" and meta["depth"] == 1
        assert meta["source"] == "r.eml::report.pdf"
    table = [d for d in docs if d.metadata.get("format") == "csv"]
    assert table and "north" in table[0].text and table[0].metadata["attachment"] == "totals.csv"
    assert len({d.id for d in docs}) == len(docs)
    second = list(reader.iter_documents("r.eml", pages="2"))  # options go to the attachments
    assert [d.metadata["page_number"] for d in second if "page_number" in d.metadata] == [2]


def test_archive_path_reads_one_attachment_with_its_own_options(
    reader: docread.Reader, tmp_path: Path
) -> None:
    write(tmp_path / "r.eml", report_message())
    result = reader.read("r.eml", archive_path="report.pdf", pages="2")
    assert [d.metadata["page_number"] for d in result.documents] == [2]
    assert "Costs fell in the south." in result.render()
    assert result.header["Attachment"] == "report.pdf"
    assert result.documents[0].metadata["source"] == "r.eml::report.pdf"
    with pytest.raises(DocumentNotFoundError, match="no attachment named 'nope.pdf'"):
        reader.read("r.eml", archive_path="nope.pdf")


def test_nested_message_is_read_recursively(reader: docread.Reader, tmp_path: Path) -> None:
    inner = message(
        "the forwarded words\n",
        subject="Original note",
        attachments=[("inner.txt", "text/plain", b"deep inside the inner message\n")],
    )
    outer = message("see the forwarded mail\n", subject="Fwd: Original note")
    outer.add_attachment(inner)  # message/rfc822
    write(tmp_path / "fwd.eml", outer)
    listing = reader.read("fwd.eml").documents[0].text
    assert "Original note.eml  message/rfc822" in listing
    docs = list(reader.iter_documents("fwd.eml"))
    nested = [d for d in docs if d.metadata.get("attachment") == "Original note.eml"]
    assert nested[0].metadata["format"] == "eml"
    assert "the forwarded words" in nested[0].text
    assert nested[0].metadata["message"] == "Fwd: Original note"
    deep = [d for d in docs if d.metadata.get("member") == "inner.txt"]
    assert deep and "deep inside the inner message" in deep[0].text
    assert deep[0].metadata["depth"] == 2
    assert deep[0].metadata["archive"] == "fwd.eml::Original note.eml"
    alone = reader.read("fwd.eml", archive_path="Original note.eml")
    assert "the forwarded words" in alone.documents[0].text


def test_zip_bomb_attached_is_refused_and_the_rest_survives(
    reader: docread.Reader, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    bomb = zip_bytes({"zeros.txt": bytes(ZEROS)})
    assert len(bomb) * 500 < ZEROS
    msg = message(
        "the bomb is attached\n",
        attachments=[
            ("bomb.zip", "application/zip", bomb),
            ("notes.txt", "text/plain", b"notes that survive\n"),
        ],
    )
    write(tmp_path / "bomb.eml", msg)
    result = reader.read("bomb.eml")
    assert "bomb.zip" in result.text and "the bomb is attached" in result.text
    docs = list(reader.iter_documents("bomb.eml"))  # the notes of a loader read are logged
    assert "the bomb is attached" in docs[0].text
    assert [d.metadata.get("member") for d in docs[1:]] == ["notes.txt"]
    assert "notes that survive" in docs[1].text
    refused = [r.getMessage() for r in caplog.records if "zeros.txt skipped" in r.getMessage()]
    assert refused and "max_compression_ratio=100" in refused[0]
    listing = reader.read("bomb.eml", archive_path="bomb.zip")  # the zip's own listing
    assert "zeros.txt" in listing.text
    assert any("decompression bomb" in n for n in listing.notes)


def test_banned_and_traversing_attachment_names(reader: docread.Reader, tmp_path: Path) -> None:
    msg = message(
        attachments=[
            ("setup.exe", "application/octet-stream", b"MZ not really"),
            ("../../etc/passwd", "text/plain", b"root:x:0:0\n"),
            ("dup.txt", "text/plain", b"first copy\n"),
            ("dup.txt", "text/plain", b"second copy\n"),
        ]
    )
    write(tmp_path / "names.eml", msg)
    docs = list(reader.iter_documents("names.eml"))
    members = [d.metadata.get("member") for d in docs[1:]]
    assert members == ["passwd", "dup.txt", "dup#2.txt"]
    assert "second copy" in docs[-1].text
    with pytest.raises(BannedExtensionError, match="setup.exe"):
        reader.read("names.eml", archive_path="setup.exe")


def test_non_ascii_attachment_names_are_decoded(reader: docread.Reader, tmp_path: Path) -> None:
    msg = message(
        attachments=[
            ("résumé.csv", "text/csv", b"k,v\nx,1\n"),  # written as an RFC 2231 parameter
            ("x.txt", "text/plain", b"plain words\n"),
        ]
    )
    msg.get_payload()[-1].replace_header(  # an encoded word, as some mailers write it
        "Content-Disposition", 'attachment; filename="=?utf-8?q?na=C3=AFve.txt?="'
    )
    write(tmp_path / "names.eml", msg)
    text = reader.read("names.eml").documents[0].text
    assert "résumé.csv  text/csv" in text and "naïve.txt   text/plain" in text


def big_attachment(path: Path, data: bytes) -> Path:
    """An .eml with a text body and ``data`` attached in base64 (76-character lines)."""
    import base64

    path.write_bytes(
        b"From: a@example.com\nSubject: big attachment\nMIME-Version: 1.0\n"
        b'Content-Type: multipart/mixed; boundary="b"\n\n--b\nContent-Type: text/plain\n\n'
        b"The body always reads.\n--b\nContent-Type: application/octet-stream\n"
        b'Content-Disposition: attachment; filename="blob.bin"\n'
        b"Content-Transfer-Encoding: base64\n\n" + base64.encodebytes(data) + b"--b--\n"
    )
    return path


def test_large_attachment_stays_out_of_the_parse_and_decodes_when_read(
    reader: docread.Reader, tmp_path: Path
) -> None:
    """The base64 body is kept out of the MIME parser and decoded only when the attachment is
    read: its bytes and size are exact, the message reads."""
    from docread.extractors.email.blobs import Blobs

    data = "".join(f"line {i} of the notes\n" for i in range(1, 50_001)).encode()  # 1.1 MB
    eml = big_attachment(tmp_path / "big.eml", data)
    blobs = Blobs(eml.read_bytes())
    assert len(blobs.skeleton) < 1000 and len(blobs.spans) == 1
    result = reader.read("big.eml")
    assert "The body always reads." in result.documents[0].text
    assert (
        f"blob.bin  application/octet-stream  {human_size(len(data))}" in result.documents[0].text
    )
    one = reader.read("big.eml", archive_path="blob.bin", offset=49_999)
    assert one.documents[0].metadata["total_lines"] == 50_000
    assert one.documents[0].text.endswith("line 50000 of the notes")


def test_large_attachment_does_not_hide_the_body(make_reader: MakeReader, tmp_path: Path) -> None:
    """A 40 MB attachment under a 480 MB worker limit (address space): the parse held ~10x the
    file and the read failed (ResourceLimitError); now the body reads."""
    big_attachment(tmp_path / "huge.eml", bytes(40 << 20))
    reader = make_reader(memory={"max_worker_mb": 480})
    result = reader.read("huge.eml")
    assert "The body always reads." in result.documents[0].text


# -- damaged and hostile input -------------------------------------------------------------
def test_malformed_headers_are_shown_as_written(reader: docread.Reader, tmp_path: Path) -> None:
    raw = (
        b'From: <<<@@@>>> "unclosed\r\nTo: ,,,;;;\r\nSubject: =?utf-8?q?half an encoded\r\n'
        b"Date: the day after tomorrow\r\nSubject: \xe9t\xe9 in raw latin-1\r\n\r\nstill read\r\n"
    )
    (tmp_path / "bad.eml").write_bytes(raw)
    doc = reader.read("bad.eml").documents[0]
    assert "still read" in doc.text
    assert doc.metadata["date"] == "the day after tomorrow"  # not a date: kept as written
    assert "<<<@@@>>>" in doc.metadata["from"]
    assert doc.metadata["subject"].startswith("=?utf-8?q?half an encoded")


def test_ten_thousand_parts_are_capped_with_a_note(make_reader: MakeReader, tmp_path: Path) -> None:
    parts = "".join(
        f"--b\r\nContent-Type: text/plain\r\nContent-Disposition: attachment; "
        f"filename=p{i}.txt\r\n\r\npart {i}\r\n"
        for i in range(10_000)
    )
    head = "From: bob@example.com\r\nSubject: many\r\nContent-Type: multipart/mixed; boundary=b\r\n"
    (tmp_path / "many.eml").write_bytes(f"{head}\r\n{parts}--b--\r\n".encode())
    reader = make_reader()
    result = reader.read("many.eml")
    assert any("more than 10,000 MIME parts (archive.max_file_count)" in n for n in result.notes)
    assert result.documents[0].metadata["attachment_count"] == 9_999  # the root counts as one
    small = make_reader(archive={"max_file_count": 50})
    docs = list(small.iter_documents("many.eml"))
    loaded = [d.metadata["attachment"] for d in docs[1:]]
    assert loaded == [f"p{i}.txt" for i in range(49)]
    assert "part 48" in docs[-1].text


def test_missing_boundary_is_recovered_with_a_note(reader: docread.Reader, tmp_path: Path) -> None:
    raw = (
        b"From: bob@example.com\r\nSubject: no boundary\r\nContent-Type: multipart/mixed\r\n\r\n"
        b"--zz\r\nContent-Type: text/plain\r\n\r\nthe body survives\r\n"
        b"--zz\r\nContent-Type: text/csv\r\nContent-Disposition: attachment; filename=t.csv\r\n"
        b"\r\nname,n\r\nann,1\r\n--zz--\r\n"
    )
    (tmp_path / "nb.eml").write_bytes(raw)
    result = reader.read("nb.eml")
    assert "the body survives" in result.text and "t.csv  text/csv" in result.text
    assert any("names no boundary" in n for n in result.notes)
    (tmp_path / "nb2.eml").write_bytes(raw.replace(b"--zz", b"  zz"))
    second = reader.read("nb2.eml")
    assert "the body survives" in second.text
    assert any("without a boundary" in n for n in second.notes)


def test_truncated_message_keeps_what_was_read(reader: docread.Reader, tmp_path: Path) -> None:
    raw = report_message().as_bytes()
    cut = raw[: raw.index(b'filename="totals.csv"') - 200]  # inside the PDF's base64
    (tmp_path / "cut.eml").write_bytes(cut)
    result = reader.read("cut.eml")
    assert "Hello Ann" in result.text
    assert any("MIME structure is damaged" in n for n in result.notes)
    docs = list(reader.iter_documents("cut.eml"))
    assert "Hello Ann" in docs[0].text  # the cut PDF is read or skipped: the message stays


def test_mbox_gives_one_document_per_message(reader: docread.Reader, tmp_path: Path) -> None:
    box = mailbox.mbox(tmp_path / "inbox.mbox")
    for i in (1, 2, 3):
        attachments = [("a.csv", "text/csv", b"k,v\nx,2\n")] if i == 2 else []
        msg = message(f"body of message {i}\n", subject=f"Message {i}", attachments=attachments)
        msg.replace_header("Message-ID", make_msgid())
        box.add(msg)
    box.close()
    result = reader.read("inbox.mbox")
    assert [d.metadata["message_index"] for d in result.documents] == [1, 2, 3]
    assert [d.metadata["subject"] for d in result.documents] == [
        "Message 1", "Message 2", "Message 3",
    ]  # fmt: skip
    assert "body of message 3" in result.documents[2].text
    assert "2/a.csv  text/csv" in result.documents[1].text
    assert "\n\n---\n\n" in result.render()
    docs = list(reader.iter_documents("inbox.mbox"))
    assert len({d.id for d in docs}) == len(docs) == 4
    assert (
        docs[2].metadata["attachment"] == "2/a.csv" and docs[2].metadata["message"] == "Message 2"
    )
    one = reader.read("inbox.mbox", archive_path="2/a.csv")
    assert one.documents[0].metadata["format"] == "csv" and "x" in one.render()


def test_mbox_agent_view_stops_parsing_when_its_window_is_full(
    make_reader: MakeReader, tmp_path: Path
) -> None:
    """The agent view parses messages until its window is full, says how many there are (a byte
    scan) and how to read on; the damaged message far past the window is never parsed."""
    box = b"".join(
        b"From a@example.com Tue Mar  3 14:15:00 2026\nSubject: Message %d\n%s\nbody of %d\n\n"
        % (i, b"Content-Type: multipart/mixed\n" if i == 2500 else b"", i)
        for i in range(1, 3001)
    )
    (tmp_path / "big.mbox").write_bytes(box)
    reader = make_reader(output={"max_tokens": 2000})
    result = reader.read("big.mbox")
    shown = len(result.documents)
    assert 10 < shown < 1000 and result.documents[-1].metadata["message_index"] == shown
    assert not any("(message 2500)" in n for n in result.notes)
    assert f"Showing messages 1-{shown} of 3,000" in result.render()
    assert f"Use pages='{shown + 1}-' to read more." in result.render()
    tail = reader.read("big.mbox", pages="2999-")
    assert [d.metadata["subject"] for d in tail.documents] == ["Message 2999", "Message 3000"]
    one = reader.read("big.mbox", pages="2500")
    assert one.documents[0].metadata["message_index"] == 2500
    assert any("(message 2500)" in n for n in one.notes)
    loaded = list(reader.iter_documents("big.mbox"))
    assert len(loaded) == 3000  # a loader reads every message


def test_pages_selects_mbox_messages_only(reader: docread.Reader, tmp_path: Path) -> None:
    write(tmp_path / "m.eml", message())
    result = reader.read("m.eml", pages="2")
    assert "Hello Ann" in result.documents[0].text
    assert any(n.startswith("pages='2' does not apply to eml files") for n in result.notes)


# -- Outlook .msg --------------------------------------------------------------------------
# .msg files cannot be written from scratch here; variants of the corpus file are made at test
# time with extract-msg's own OLE writer (the corpus file itself is never copied).
OUTLOOK = CORPUS / "email" / "test-outlook.msg"
needs_outlook = pytest.mark.skipif(not OUTLOOK.is_file(), reason=f"corpus not present at {CORPUS}")
ATTACH = "__attach_version1.0_#00000000"
ATTACH_METHOD = struct.pack("<II", 0x37050003, 6)  # PR_ATTACH_METHOD, readable and writable


def outlook_variant(
    *,
    rtf: bytes | None = None,
    attach: bytes | None = None,
    embed: bool = False,
    legacy: tuple[int | None, bytes, bytes] | None = None,
) -> bytes:
    """The corpus .msg with its plain body replaced by a (non-HTML) RTF body, a CSV attached by
    value (``figures.csv``), the whole message embedded in itself as an attached .msg, or its
    8-bit subject and body replaced by ``legacy`` = (internet code page or None to drop it,
    subject bytes, body bytes); the corpus file names PR_INTERNET_CPID only."""
    import compressed_rtf
    import olefile
    from extract_msg.ole_writer import OleWriter

    ole = olefile.OleFileIO(str(OUTLOOK))
    writer = OleWriter()
    writer.fromOleFile(ole)
    if rtf is not None:
        writer.deleteEntry("__substg1.0_1000001E")
        writer.editEntry("__substg1.0_10090102", data=compressed_rtf.compress(rtf))
    if legacy is not None:
        cpid, subject, body = legacy
        props = ole.openstream("__properties_version1.0").read()
        entries = [props[i : i + 16] for i in range(32, len(props), 16)]
        tag = struct.pack("<I", 0x3FDE0003)  # PR_INTERNET_CPID, PT_LONG
        entries = [
            e if e[:4] != tag else e[:8] + struct.pack("<Q", cpid)
            for e in entries
            if e[:4] != tag or cpid is not None
        ]
        writer.editEntry("__properties_version1.0", data=props[:32] + b"".join(entries))
        writer.editEntry("__substg1.0_0037001E", data=subject)
        writer.editEntry("__substg1.0_1000001E", data=body)
    if attach is not None or embed:
        writer.addEntry(ATTACH, storage=True)
        method = 5 if embed else 1  # ATTACH_EMBEDDED_MSG, ATTACH_BY_VALUE
        writer.addEntry(
            f"{ATTACH}/__properties_version1.0",
            bytes(8) + ATTACH_METHOD + struct.pack("<Q", method),
        )
    if attach is not None:
        writer.addEntry(f"{ATTACH}/__substg1.0_37010102", attach)
        writer.addEntry(f"{ATTACH}/__substg1.0_3707001E", b"figures.csv")
    if embed:
        inner = f"{ATTACH}/__substg1.0_3701000D"
        writer.addEntry(inner, storage=True)
        for path in ole.listdir(streams=False, storages=True):
            if path[0] != "__nameid_version1.0":
                writer.addEntry("/".join([inner, *path]), storage=True)
        for path in ole.listdir():
            if path[0] != "__nameid_version1.0":
                data = ole.openstream(path).read()
                if path == ["__properties_version1.0"]:  # an embedded header is 24 bytes, not 32
                    data = data[:24] + data[32:]
                writer.addEntry("/".join([inner, *path]), data)
    ole.close()
    out = io.BytesIO()
    writer.write(out)
    return out.getvalue()


@needs_outlook
def test_outlook_msg_fields_and_body() -> None:
    with docread.Reader(OUTLOOK.parent, config={"cache": {"enabled": False}}) as reader:
        doc = reader.read(OUTLOOK.name).documents[0]
    meta = doc.metadata
    assert (meta["format"], meta["extractor"]) == ("msg", "email")
    assert meta["subject"] == "Microsoft Outlook Express 6"
    assert meta["from"] == "L'Équipe Microsoft Outlook Express <msoe@microsoft.com>"
    assert meta["date"] == "2007-04-05T16:26:06+00:00"
    assert meta["attachment_count"] == 0
    assert "Synchronisation hors connexion" in doc.text
    assert "Subject: Microsoft Outlook Express 6" in doc.text


@needs_outlook
def test_outlook_rtf_only_body_goes_through_pandoc(reader: docread.Reader, tmp_path: Path) -> None:
    rtf = rb"{\rtf1\ansi\deff0{\fonttbl{\f0 Arial;}}Plain RTF words for pandoc.\par Second paragraph.}"
    (tmp_path / "rtf.msg").write_bytes(outlook_variant(rtf=rtf))
    text = reader.read("rtf.msg").documents[0].text
    assert "Plain RTF words for pandoc." in text and "Second paragraph." in text
    assert "\\rtf1" not in text and "Synchronisation" not in text  # the plain body is gone


@needs_outlook
def test_outlook_attachment_is_listed_and_loaded(reader: docread.Reader, tmp_path: Path) -> None:
    (tmp_path / "att.msg").write_bytes(outlook_variant(attach=b"name,total\nann,3\nbob,4\n"))
    doc = reader.read("att.msg").documents[0]
    assert doc.metadata["attachment_count"] == 1 and "figures.csv" in doc.text
    docs = list(reader.iter_documents("att.msg"))
    table = docs[1]
    assert table.metadata["format"] == "csv" and "bob" in table.text
    assert table.metadata["attachment"] == "figures.csv"
    assert table.metadata["message"] == "Microsoft Outlook Express 6"


@needs_outlook
def test_outlook_embedded_message_is_read_recursively(
    reader: docread.Reader, tmp_path: Path
) -> None:
    (tmp_path / "emb.msg").write_bytes(outlook_variant(embed=True))
    name = "Microsoft Outlook Express 6.msg"
    assert f"{name}  application/vnd.ms-outlook" in reader.read("emb.msg").documents[0].text
    docs = list(reader.iter_documents("emb.msg"))
    nested = [d for d in docs if d.metadata.get("member") == name]
    assert nested and nested[0].metadata["format"] == "msg" and nested[0].metadata["depth"] == 1
    assert "Synchronisation hors connexion" in nested[0].text


@needs_outlook
@pytest.mark.parametrize("codec", ["big5", "gbk", "shift_jis", "cp1251"])
def test_outlook_legacy_code_page_strings_are_decoded(
    reader: docread.Reader, tmp_path: Path, codec: str
) -> None:
    """8-bit strings in the code page PR_INTERNET_CPID names (extract-msg read them as
    ISO-8859-15 without PR_MESSAGE_CODEPAGE: mojibake)."""
    subject, body = {
        "big5": ("測試 Chang@FT (張貼)", "恭喜 HQ 保全部門"),
        "gbk": ("测试 主题", "恭喜 总部 保安部门"),
        "shift_jis": ("テスト 件名", "おめでとう 本社 警備部"),
        "cp1251": ("Тест тема", "Поздравляем отдел охраны"),
    }[codec]
    cpid = {"big5": 950, "gbk": 936, "shift_jis": 932, "cp1251": 1251}[codec]
    legacy = (cpid, subject.encode(codec), body.encode(codec))
    (tmp_path / "legacy.msg").write_bytes(outlook_variant(legacy=legacy))
    result = reader.read("legacy.msg")
    doc = result.documents[0]
    assert doc.metadata["subject"] == subject
    assert body in doc.text
    assert not any("code page" in n for n in result.notes)


@needs_outlook
def test_outlook_without_a_code_page_is_detected_with_a_note(
    reader: docread.Reader, tmp_path: Path
) -> None:
    body = "Поздравляем отдел охраны с успешным завершением года. " * 8
    legacy = (None, "Тема".encode("cp1251"), body.encode("cp1251"))
    (tmp_path / "bare.msg").write_bytes(outlook_variant(legacy=legacy))
    result = reader.read("bare.msg")
    assert "Поздравляем отдел охраны" in result.documents[0].text
    assert any(
        "names no usable code page for its 8-bit strings" in n and "read as cp1251" in n
        for n in result.notes
    )


# -- the wrappers --------------------------------------------------------------------------
def test_wrappers_take_email_files(tmp_path: Path) -> None:
    from langchain_docread import DocReadLoader
    from llama_index_docread import DocReadReader

    mapping = DocReadReader(workspace=tmp_path).file_extractor()
    assert {".eml", ".msg", ".mbox"} <= set(mapping)
    write(tmp_path / "r.eml", report_message())
    docs = DocReadLoader("r.eml", workspace=tmp_path).load()
    assert "Hello Ann" in docs[0].page_content and docs[0].metadata["subject"] == (
        "Quarterly figures"
    )
    assert any(d.metadata.get("attachment") == "report.pdf" for d in docs)
