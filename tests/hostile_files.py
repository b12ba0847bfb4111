"""Generators of hostile files, small on disk and fast to make, shared by tests/extractors/test_hostile.py
and bench/hostile.py (which makes them at full size)."""

from __future__ import annotations

import sqlite3
import zlib
from pathlib import Path


def sqlite_schema_bomb(
    path: Path, *, tables: int = 100, columns: int = 2000, chain: int = 30, triggers: int = 1000
) -> Path:
    """A database whose schema is expensive and holds no data: ``tables`` tables of ``columns``
    columns with long declared types, a chain of ``chain`` views each selecting every column of
    the one before (SQLite compiles a view chain in time quadratic in its length, and cannot
    interrupt a compilation), and ``triggers`` triggers with long bodies."""
    path.unlink(missing_ok=True)
    conn = sqlite3.connect(path)
    decl = "VARCHAR(" + "9" * 100 + ")"  # a long declared type: schema text, no data
    cols = ", ".join(f"c{i} {decl}" for i in range(columns))
    for t in range(tables):
        conn.execute(f"CREATE TABLE t{t} ({cols})")
    conn.execute("CREATE VIEW v0 AS SELECT * FROM t0")
    for v in range(1, chain):
        conn.execute(f"CREATE VIEW v{v} AS SELECT * FROM v{v - 1}")
    body = "; ".join(f"UPDATE t0 SET c{i} = NEW.c{i}" for i in range(50))
    for g in range(triggers):
        conn.execute(f"CREATE TRIGGER g{g} AFTER INSERT ON t0 BEGIN {body}; END")
    conn.commit()
    conn.close()
    return path


def pdf_operator_bomb(path: Path, *, megabytes: int = 128) -> Path:
    """A one-page PDF whose content stream inflates to ``megabytes`` MB of text-showing
    operators (a few hundred KB on disk)."""
    op = b"BT /F1 1 Tf 10 10 Td (xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx) Tj ET\n"
    count = megabytes * 1024 * 1024 // len(op)
    z = zlib.compressobj(9)
    parts = [z.compress(op * 10000) for _ in range(count // 10000)]
    parts.append(z.compress(op * (count % 10000)))
    parts.append(z.flush())
    stream = b"".join(parts)
    flate = b"<< /Length %d /Filter /FlateDecode >>\nstream\n" % len(stream) + stream
    return _write_pdf(path, _one_page(flate + b"\nendstream"))


def pdf_hidden_bomb(
    path: Path, *, megabytes: int = 12, where: str = "form", filters: bytes = b"/FlateDecode"
) -> Path:
    """A one-page PDF whose text operators (``megabytes`` MB inflated) hide where a look at
    the page's /Contents misses them: ``where`` "form": in a form XObject drawn by another form
    drawn by the page; "split": over 8 content streams, each under the default cap but not
    all of them together. ``filters``: the streams' /Filter (and parameters) as written."""
    op = b"BT /F1 1 Tf 10 10 Td (xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx) Tj ET\n"
    parts = 8 if where == "split" else 1
    body = op * (megabytes * 1024 * 1024 // len(op) // parts)
    packed = zlib.compress(body, 9)
    if b"ASCIIHex" in filters:
        packed = packed.hex().encode() + b">"

    def stream(head: bytes) -> bytes:
        return b"<< %s /Length %d /Filter %s >>\nstream\n" % (head, len(packed), filters) + (
            packed + b"\nendstream"
        )

    font = b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>"
    objects = [b"<< /Type /Catalog /Pages 2 0 R >>", b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>"]
    if where == "split":
        contents = b" ".join(b"%d 0 R" % (5 + i) for i in range(parts))
        objects += [
            b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents [%s] "
            b"/Resources << /Font << /F1 4 0 R >> >> >>" % contents,
            font,
            *(stream(b"") for _ in range(parts)),
        ]
    else:  # page -> /Fx1 (draws /Fx2) -> /Fx2 (the operators)
        form = b"/Type /XObject /Subtype /Form /BBox [0 0 612 792]"
        objects += [
            b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R "
            b"/Resources << /XObject << /Fx1 5 0 R >> >> >>",
            b"<< /Length 8 >>\nstream\n/Fx1 Do\nendstream",
            b"<< %s /Resources << /XObject << /Fx2 6 0 R >> >> /Length 8 >>\nstream\n"
            b"/Fx2 Do\nendstream" % form,
            stream(form + b" /Resources << /Font << /F1 7 0 R >> >>"),
            font,
        ]
    return _write_pdf(path, objects)


def _one_page(
    contents: bytes, *, outline: bool = False, size: bytes = b"612 792", font: bytes = b""
) -> list[bytes]:
    """Objects 1-5 of a one-page PDF: the catalog (its outline root object 6 when ``outline``),
    the page tree, the page (``size`` points), its ``contents`` stream object, and Helvetica as
    font /F1 (with ``font``'s extra keys)."""
    return [
        b"<< /Type /Catalog /Pages 2 0 R%s >>" % (b" /Outlines 6 0 R" if outline else b""),
        b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
        b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 %s] /Contents 4 0 R "
        b"/Resources << /Font << /F1 5 0 R >> >> >>" % size,
        contents,
        b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica%s >>" % font,
    ]


def _write_pdf(path: Path, objects: list[bytes]) -> Path:
    """A PDF of ``objects`` (object n is ``objects[n - 1]``, 1 the catalog) with its xref table."""
    out = bytearray(b"%PDF-1.7\n")
    offsets = []
    for n, body in enumerate(objects, 1):
        offsets.append(len(out))
        out += b"%d 0 obj\n" % n + body + b"\nendobj\n"
    xref = len(out)
    out += b"xref\n0 %d\n0000000000 65535 f \n" % (len(objects) + 1)
    out += b"".join(b"%010d 00000 n \n" % o for o in offsets)
    out += b"trailer\n<< /Size %d /Root 1 0 R >>\nstartxref\n%d\n%%%%EOF\n" % (
        len(objects) + 1,
        xref,
    )
    path.write_bytes(bytes(out))
    return path


def _text_stream(lines: list[tuple[int, str]]) -> bytes:
    """A content stream that shows ``lines`` ((font size, text), Helvetica: font /F1) down a
    page."""
    ops = b"".join(
        b"BT /F1 %d Tf 72 %d Td (%s) Tj ET\n" % (size, 720 - 24 * i, text.encode("latin-1"))
        for i, (size, text) in enumerate(lines)
    )
    return b"<< /Length %d >>\nstream\n" % len(ops) + ops + b"\nendstream"


def pdf_deep_outline(path: Path, *, depth: int = 1500) -> Path:
    """A one-page PDF with a heading (18 pt) and a paragraph, whose outline nests ``depth`` items, each
    the only child of the one before (PyMuPDF's ``get_toc`` recurses once per level)."""
    text = _text_stream([(18, "Deep outline"), (11, "The body text of the page stays readable.")])
    objects = [
        *_one_page(text, outline=True),
        b"<< /Type /Outlines /First 7 0 R /Last 7 0 R /Count %d >>" % depth,
    ]
    for level in range(depth):  # item k is object 7 + k
        me, parent = 7 + level, 6 if level == 0 else 6 + level
        child = b" /First %d 0 R /Last %d 0 R /Count %d" % (me + 1, me + 1, depth - level - 1)
        objects.append(
            b"<< /Title (Level %d) /Parent %d 0 R /Dest [3 0 R /XYZ 0 792 0]%s >>"
            % (level + 1, parent, child if level + 1 < depth else b"")
        )
    return _write_pdf(path, objects)


def pdf_wide_outline(path: Path, *, entries: int = 20_000) -> Path:
    """A one-page A4 PDF ("Entry 7" near its top, "body text" lower down) whose outline lists
    ``entries`` siblings "Entry 0", "Entry 1", ..., each going to the page's top: what
    PyMuPDF's ``set_toc`` writes, here in ~0.1 s instead of its ~2 s for 20,000."""
    ops = b"BT /F1 12 Tf 72 770 Td (Entry 7) Tj ET\nBT /F1 12 Tf 72 442 Td (body text) Tj ET\n"
    contents = b"<< /Length %d >>\nstream\n" % len(ops) + ops + b"\nendstream"
    objects = [
        *_one_page(contents, outline=True, size=b"595 842", font=b" /Encoding /WinAnsiEncoding"),
        b"<< /Type /Outlines /First 7 0 R /Last %d 0 R /Count %d >>" % (6 + entries, entries),
    ]
    for n in range(entries):  # entry n is object 7 + n
        links = (b" /Prev %d 0 R" % (6 + n) if n else b"") + (
            b" /Next %d 0 R" % (8 + n) if n + 1 < entries else b""
        )
        objects.append(
            b"<< /Title (Entry %d) /Parent 6 0 R /A << /S /GoTo /D [3 0 R /XYZ 72 806 0] >>%s >>"
            % (n, links)
        )
    return _write_pdf(path, objects)


def pdf_vector_grid(path: Path, *, pages: int = 90, lines: int = 120_000) -> Path:
    """A PDF of ``pages`` pages that all show one content stream: a few lines of text and a
    grid of ``lines`` rules (half across the page, half down it, each its own stroked path),
    with a word in some of its cells: about 300 KB of Flate."""
    half = lines // 2
    ops = [b"0.1 w\n"]
    ops += [
        b"36 %.3f m 576 %.3f l S\n" % (y, y) for y in (36 + 720 * i / half for i in range(half))
    ]
    ops += [
        b"%.3f 36 m %.3f 756 l S\n" % (x, x) for x in (36 + 540 * i / half for i in range(half))
    ]
    ops += [
        b"BT /F1 11 Tf %d %d Td (cell) Tj ET\n" % (40 + 60 * (i % 9), 100 + 60 * (i // 9))
        for i in range(90)
    ]
    data = zlib.compress(b"".join(ops), 9)
    kids = b" ".join(b"%d 0 R" % (5 + i) for i in range(pages))
    objects = [
        b"<< /Type /Catalog /Pages 2 0 R >>",
        b"<< /Type /Pages /Kids [%s] /Count %d >>" % (kids, pages),
        b"<< /Length %d /Filter /FlateDecode >>\nstream\n" % len(data) + data + b"\nendstream",
        b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>",
    ]
    objects += [
        b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 3 0 R "
        b"/Resources << /Font << /F1 4 0 R >> >> >>"
    ] * pages
    return _write_pdf(path, objects)


def wide_csv(path: Path, *, columns: int = 500_001, rows: int = 2) -> Path:
    """A CSV of ``columns`` columns: a header and ``rows`` data rows."""
    with path.open("w") as f:
        f.write(",".join(f"c{i}" for i in range(columns)) + "\n")
        for r in range(rows):
            f.write(",".join(str(r) for _ in range(columns)) + "\n")
    return path


def nested_rtf(path: Path, *, depth: int = 200_000) -> Path:
    """An RTF of ``depth`` nested groups."""
    path.write_bytes(b"{\\rtf1\\ansi " + b"{" * depth + b"deep" + b"}" * depth + b"}")
    return path


def noise_png(path: Path, *, width: int = 2550, height: int = 3300, seed: int = 7) -> Path:
    """A letter page at 300 dpi of pure grayscale noise (nothing an OCR engine can read)."""
    import numpy as np
    from PIL import Image

    rng = np.random.default_rng(seed)
    pixels = rng.integers(0, 256, size=(height, width), dtype=np.uint8)
    Image.fromarray(pixels, "L").save(path, dpi=(300, 300))
    return path


def noise_pdf(path: Path, *, width: int = 2550, height: int = 3300) -> Path:
    """A one-page PDF whose page is a picture of pure noise (a "scan" with no text layer)."""
    import pymupdf

    png = noise_png(path.with_suffix(".png"), width=width, height=height)
    doc = pymupdf.open()
    page = doc.new_page(width=612, height=792)
    page.insert_image(page.rect, filename=str(png))
    doc.save(path)
    doc.close()
    png.unlink()
    return path


def tar_bad_size(path: Path, *, size: int = -512, members: int = 3, at: int = 1) -> Path:
    """A tar of ``members`` small files (gzipped when ``path`` ends in .gz) whose member number
    ``at`` (0-based) declares ``size`` bytes in its header (base-256, checksum fixed): a negative
    size sends tarfile back to the same header forever, a size past the end points at data that
    is not there."""
    import gzip
    import io
    import tarfile

    buf = io.BytesIO()
    with tarfile.open(fileobj=buf, mode="w", format=tarfile.USTAR_FORMAT) as tf:
        for i in range(members):
            data = b"hello %d\n" % i
            info = tarfile.TarInfo(f"m{i}.txt")
            info.size, info.mtime = len(data), 1_700_000_000
            tf.addfile(info, io.BytesIO(data))
    raw = bytearray(buf.getvalue())
    header = 1024 * at  # each member: a header block and one data block
    raw[header + 124 : header + 136] = (b"\xff" if size < 0 else b"\x80") + (
        size % 256**11
    ).to_bytes(11, "big")
    raw[header + 148 : header + 156] = b" " * 8
    raw[header + 148 : header + 156] = b"%06o\x00 " % sum(raw[header : header + 512])
    path.write_bytes(gzip.compress(bytes(raw)) if path.suffix == ".gz" else bytes(raw))
    return path


def link_nest(path: Path, *, depth: int = 100_000) -> Path:
    """A DOCX, ODT or ODP (by the suffix) whose one paragraph holds ``depth`` nested hyperlinks
    around the words "INNER TEXT"."""
    from factories import docx
    from odf import draw, text
    from odf.opendocument import OpenDocumentPresentation, OpenDocumentText
    from office_fixtures import rewrite_member

    if path.suffix == ".docx":
        docx(path, ["PLACEHOLDER"])
        link, end, member = '<w:hyperlink w:anchor="x">', "</w:hyperlink>", "word/document.xml"
        inner, old = "<w:r><w:t>INNER TEXT</w:t></w:r>", "<w:r><w:t>PLACEHOLDER</w:t></w:r>"
    else:
        para = text.P(text="before ")
        para.addElement(text.A(href="#x", text="PLACEHOLDER"))  # declares the xlink namespace
        if path.suffix == ".odp":
            doc = OpenDocumentPresentation()
            box, slide = draw.TextBox(), draw.Page(masterpagename="")
            frame = draw.Frame(width="9cm", height="2cm")
            box.addElement(para)
            frame.addElement(box)
            slide.addElement(frame)
            doc.presentation.addElement(slide)
        else:
            doc = OpenDocumentText()
            doc.text.addElement(para)
        doc.save(str(path))
        link, end, member = '<text:a xlink:href="#x">', "</text:a>", "content.xml"
        inner, old = "INNER TEXT", "PLACEHOLDER"
    nest = link * depth + inner + end * depth
    return rewrite_member(path, member, lambda xml: xml.replace(old, nest))


# -- office and workbook packages: small files whose attributes multiply ---------------------------
def _package(path: Path, members: list[tuple[str, bytes]], stored: tuple[str, ...] = ()) -> Path:
    """A zip of ``members`` in order (deflated, but the names in ``stored`` are stored)."""
    import zipfile

    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as zf:
        for name, data in members:
            zf.writestr(name, data, zipfile.ZIP_STORED if name in stored else zipfile.ZIP_DEFLATED)
    return path


_OOXML_RELS = (
    b'<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/'
    b'package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/'
    b'officeDocument/2006/relationships/officeDocument" Target="%s"/></Relationships>'
)
_REL_NS = b"http://schemas.openxmlformats.org/officeDocument/2006/relationships"


def _content_types(part: bytes, kind: bytes, extra: bytes = b"") -> bytes:
    return (
        b'<?xml version="1.0" encoding="UTF-8"?><Types xmlns="http://schemas.openxmlformats.org/'
        b'package/2006/content-types"><Default Extension="rels" ContentType="application/'
        b'vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType='
        b'"application/xml"/><Override PartName="/' + part + b'" ContentType="application/'
        b"vnd.openxmlformats-officedocument." + kind + b'.main+xml"/>' + extra + b"</Types>"
    )


def xlsx_sheet(path: Path, sheet_data: bytes, shared: list[str] | None = None) -> Path:
    """A one-sheet XLSX whose sheet XML holds ``sheet_data`` (the ``<sheetData>`` element and
    anything around it, no ``<dimension>`` unless given) and ``shared`` strings."""
    from xml.sax.saxutils import escape

    main = b"http://schemas.openxmlformats.org/spreadsheetml/2006/main"
    rels = [
        b'<Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/'
        b'relationships/worksheet" Target="worksheets/sheet1.xml"/>'
    ]
    strings = (b'<Override PartName="/xl/sharedStrings.xml" ContentType="application/vnd.'
               b'openxmlformats-officedocument.spreadsheetml.sharedStrings+xml"/>')  # fmt: skip
    members = [
        ("[Content_Types].xml", _content_types(b"xl/workbook.xml", b"spreadsheetml.sheet",
                                               strings if shared is not None else b"")),
        ("_rels/.rels", _OOXML_RELS % b"xl/workbook.xml"),
        ("xl/workbook.xml", b'<?xml version="1.0" encoding="UTF-8"?><workbook xmlns="' + main
         + b'" xmlns:r="' + _REL_NS + b'"><sheets><sheet name="Sheet1" sheetId="1" r:id="rId1"/>'
         b"</sheets></workbook>"),
        ("xl/worksheets/sheet1.xml", b'<?xml version="1.0" encoding="UTF-8"?><worksheet xmlns="'
         + main + b'">' + sheet_data + b"</worksheet>"),
    ]  # fmt: skip
    if shared is not None:
        rels.append(
            b'<Relationship Id="rId2" Type="http://schemas.openxmlformats.org/officeDocument/2006/'
            b'relationships/sharedStrings" Target="sharedStrings.xml"/>'
        )
        items = "".join(f"<si><t>{escape(s)}</t></si>" for s in shared).encode()
        members.append(("xl/sharedStrings.xml", b'<?xml version="1.0" encoding="UTF-8"?><sst xmlns="'
                        + main + b'" count="%d">' % len(shared) + items + b"</sst>"))  # fmt: skip
    members.append(
        ("xl/_rels/workbook.xml.rels", b'<?xml version="1.0" encoding="UTF-8"?><Relationships '
         b'xmlns="http://schemas.openxmlformats.org/package/2006/relationships">'
         + b"".join(rels) + b"</Relationships>")
    )  # fmt: skip
    return _package(path, members)


def xlsx_far_corners(path: Path) -> Path:
    """Issue 32 item 1: two cells, A1 and XFD1048576 (the sheet's first and last), no
    ``<dimension>``: a reader that pads empty rows and columns makes 17 billion cells."""
    return xlsx_sheet(
        path,
        b'<sheetData><row r="1"><c r="A1" t="inlineStr"><is><t>top</t></is></c></row>'
        b'<row r="1048576"><c r="XFD1048576" t="inlineStr"><is><t>bottom</t></is></c></row>'
        b"</sheetData>",
    )


def xlsx_shared_string(path: Path, *, rows: int = 400_000, length: int = 30_000) -> Path:
    """Issue 32 item 7: one shared string of ``length`` characters used in ``rows`` cells (a
    header, then one cell per row): each cell is cut at output.max_cell_content, and the whole
    is still hundreds of MB of text from under 1 MB."""
    import random

    rng = random.Random(32)
    words = " ".join(
        rng.choice(["alpha", "beta", "gamma", "delta", "omega"]) for _ in range(length)
    )
    body = b"".join(b'<row r="%d"><c t="s"><v>1</v></c></row>' % r for r in range(2, rows + 2))
    head = b'<row r="1"><c r="A1" t="s"><v>0</v></c></row>'
    return xlsx_sheet(path, b"<sheetData>" + head + body + b"</sheetData>",
                      ["text", words[:length]])  # fmt: skip


def _odf(path: Path, kind: str, body: bytes) -> Path:
    """An ODF package (``kind``: "text" or "spreadsheet") whose office:body holds ``body``."""
    mime = f"application/vnd.oasis.opendocument.{kind}".encode()
    ns = (b'xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0" '
          b'xmlns:table="urn:oasis:names:tc:opendocument:xmlns:table:1.0" '
          b'xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0"')  # fmt: skip
    content = (b'<?xml version="1.0" encoding="UTF-8"?><office:document-content ' + ns
               + b' office:version="1.2"><office:body><office:' + kind.encode() + b">" + body
               + b"</office:" + kind.encode() + b"></office:body></office:document-content>")  # fmt: skip
    manifest = (b'<?xml version="1.0" encoding="UTF-8"?><manifest:manifest xmlns:manifest='
                b'"urn:oasis:names:tc:opendocument:xmlns:manifest:1.0"><manifest:file-entry '
                b'manifest:full-path="/" manifest:media-type="' + mime + b'"/><manifest:file-entry'
                b' manifest:full-path="content.xml" manifest:media-type="text/xml"/>'
                b"</manifest:manifest>")  # fmt: skip
    members = [("mimetype", mime), ("META-INF/manifest.xml", manifest), ("content.xml", content)]
    return _package(path, members, stored=("mimetype",))


def odf_repeated_table(path: Path, *, elements: int = 100, repeat: int = 1024) -> Path:
    """Issue 32 item 2: a table of ``elements`` rows, each repeated ``repeat`` times, of one
    cell repeated ``repeat`` times holding a value: each attribute alone is under the per-attribute
    cap (1,024), their product is ``elements`` x ``repeat``^2 cells (100M by default). An ODT
    when ``path`` ends in .odt, else an ODS."""
    row = (b'<table:table-row table:number-rows-repeated="%d"><table:table-cell '
           b'table:number-columns-repeated="%d" office:value-type="string"><text:p>x</text:p>'
           b"</table:table-cell></table:table-row>" % (repeat, repeat))  # fmt: skip
    table = b'<table:table table:name="T">' + row * elements + b"</table:table>"
    kind = "text" if path.suffix == ".odt" else "spreadsheet"
    return _odf(path, kind, table)


def epub_repeated_spine(path: Path, *, times: int = 100_000, chapter_kb: int = 1900) -> Path:
    """Issue 32 item 3: an EPUB whose spine names one ``chapter_kb`` KB chapter ``times`` times."""
    import random

    rng = random.Random(3)
    words = ["alpha", "beta", "gamma", "delta", "omega", "sigma", "kappa", "theta"]
    paras, size = [], 0
    while size < chapter_kb * 1024:
        para = "<p>" + " ".join(rng.choice(words) for _ in range(60)) + "</p>\n"
        paras.append(para)
        size += len(para)
    chapter = ('<?xml version="1.0" encoding="UTF-8"?><html xmlns="http://www.w3.org/1999/xhtml">'
               "<head><title>c</title></head><body><h1>Chapter</h1>" + "".join(paras)
               + "</body></html>").encode()  # fmt: skip
    opf = (b'<?xml version="1.0" encoding="UTF-8"?><package xmlns="http://www.idpf.org/2007/opf" '
           b'version="3.0" unique-identifier="id"><metadata xmlns:dc="http://purl.org/dc/elements/'
           b'1.1/"><dc:title>Spine</dc:title><dc:identifier id="id">x</dc:identifier></metadata>'
           b'<manifest><item id="c" href="c.xhtml" media-type="application/xhtml+xml"/></manifest>'
           b"<spine>" + b'<itemref idref="c"/>' * times + b"</spine></package>")  # fmt: skip
    container = (b'<?xml version="1.0"?><container version="1.0" xmlns="urn:oasis:names:tc:'
                 b'opendocument:xmlns:container"><rootfiles><rootfile full-path="OEBPS/content.opf"'
                 b' media-type="application/oebps-package+xml"/></rootfiles></container>')  # fmt: skip
    members = [("mimetype", b"application/epub+zip"), ("META-INF/container.xml", container),
               ("OEBPS/content.opf", opf), ("OEBPS/c.xhtml", chapter)]  # fmt: skip
    return _package(path, members, stored=("mimetype", "OEBPS/content.opf"))


_W_NS = b"http://schemas.openxmlformats.org/wordprocessingml/2006/main"


def docx_body(path: Path, body: bytes) -> Path:
    """A DOCX whose word/document.xml body is ``body`` (no styles, numbering or settings)."""
    document = (b'<?xml version="1.0" encoding="UTF-8"?><w:document xmlns:w="' + _W_NS
                + b'"><w:body>' + body + b"</w:body></w:document>")  # fmt: skip
    members = [
        ("[Content_Types].xml", _content_types(b"word/document.xml", b"wordprocessingml.document")),
        ("_rels/.rels", _OOXML_RELS % b"word/document.xml"),
        ("word/document.xml", document),
    ]
    return _package(path, members)


def docx_deep_list(path: Path, *, level: int = 100_000_000, paragraphs: int = 5) -> Path:
    """Issue 32 item 4: a paragraph, then list paragraphs at ``w:ilvl`` ``level`` (Word has
    levels 0-8)."""
    para = (b'<w:p><w:pPr><w:numPr><w:ilvl w:val="%d"/><w:numId w:val="1"/></w:numPr></w:pPr>'
            b"<w:r><w:t>item</w:t></w:r></w:p>" % level)  # fmt: skip
    return docx_body(path, b"<w:p><w:r><w:t>List:</w:t></w:r></w:p>" + para * paragraphs)


def docx_spans(path: Path, *, cells: int = 200_000, span: int = 10**9, per_row: int = 10) -> Path:
    """Issue 32 item 5: a table of ``cells`` cells (``per_row`` a row, the first of each
    holding its row's number), each spanning about ``span`` grid columns (the spans vary, so
    the package stays under the zip-bomb ratio)."""
    cell = b'<w:tc><w:tcPr><w:gridSpan w:val="%d"/></w:tcPr><w:p>%s</w:p></w:tc>'
    rows = [b"<w:tr>" + b"".join(cell % (span + (n * per_row + k) * 7919 % 99991,
                                         b"<w:r><w:t>%d</w:t></w:r>" % n if k == 0 else b"")
                                 for k in range(per_row)) + b"</w:tr>"
            for n in range(cells // per_row)]  # fmt: skip
    return docx_body(path, b"<w:tbl>" + b"".join(rows) + b"</w:tbl>")


_P_NS = b"http://schemas.openxmlformats.org/presentationml/2006/main"
_A_NS = b"http://schemas.openxmlformats.org/drawingml/2006/main"


def pptx_slide(path: Path, shapes: bytes) -> Path:
    """A one-slide PPTX whose shape tree holds ``shapes`` (``p:``/``a:`` prefixes bound)."""
    slide = (b'<?xml version="1.0" encoding="UTF-8"?><p:sld xmlns:p="' + _P_NS + b'" xmlns:a="'
             + _A_NS + b'"><p:cSld><p:spTree>' + shapes + b"</p:spTree></p:cSld></p:sld>")  # fmt: skip
    pres = (b'<?xml version="1.0" encoding="UTF-8"?><p:presentation xmlns:p="' + _P_NS
            + b'" xmlns:r="' + _REL_NS + b'"><p:sldIdLst><p:sldId id="256" r:id="rId2"/>'
            b"</p:sldIdLst></p:presentation>")  # fmt: skip
    pres_rels = (b'<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.'
                 b'openxmlformats.org/package/2006/relationships"><Relationship Id="rId2" Type='
                 b'"http://schemas.openxmlformats.org/officeDocument/2006/relationships/slide" '
                 b'Target="slides/slide1.xml"/></Relationships>')  # fmt: skip
    kind = b"presentationml.presentation"
    members = [
        ("[Content_Types].xml", _content_types(b"ppt/presentation.xml", kind)),
        ("_rels/.rels", _OOXML_RELS % b"ppt/presentation.xml"),
        ("ppt/presentation.xml", pres),
        ("ppt/_rels/presentation.xml.rels", pres_rels),
        ("ppt/slides/slide1.xml", slide),
    ]
    return _package(path, members)


def pptx_spans(path: Path, *, rows: int = 2000, cols: int = 10, span: int = 10**9) -> Path:
    """Issue 32 item 5: a slide with a table of ``rows`` x ``cols`` cells, each with rowSpan and
    gridSpan ``span``."""
    cell = (b'<a:tc rowSpan="%d" gridSpan="%d"><a:txBody><a:p><a:r><a:t>%x</a:t></a:r></a:p>'
            b"</a:txBody></a:tc>")  # fmt: skip
    table = (
        b"<a:tbl>"
        + b"".join(
            b"<a:tr>"
            + b"".join(cell % (span, span, r * 7919 + c) for c in range(cols))
            + b"</a:tr>"
            for r in range(rows)
        )
        + b"</a:tbl>"
    )
    frame = (
        b"<p:graphicFrame><a:graphic><a:graphicData>"
        + table
        + b"</a:graphicData></a:graphic></p:graphicFrame>"
    )
    return pptx_slide(path, frame)


def pptx_deep_bullet(path: Path, *, level: int = 100_000_000) -> Path:
    """Issue 32 item 4: a body placeholder whose bullet paragraph says ``lvl`` ``level``
    (DrawingML has levels 0-8; the reader indents by it)."""
    shape = (b'<p:sp><p:nvSpPr><p:nvPr><p:ph type="body"/></p:nvPr></p:nvSpPr><p:txBody>'
             b'<a:p><a:pPr lvl="%d"/><a:r><a:t>deep</a:t></a:r></a:p></p:txBody></p:sp>' % level)  # fmt: skip
    return pptx_slide(path, shape)


def odp_spaces(path: Path, *, count: int = 1_000_000_000) -> Path:
    """Issue 32 item 4: an ODP slide whose paragraph holds ``<text:s text:c="count"/>``."""
    page = (b'<draw:page xmlns:draw="urn:oasis:names:tc:opendocument:xmlns:drawing:1.0" '
            b'draw:name="p1"><draw:frame><draw:text-box><text:p>a<text:s text:c="%d"/>b</text:p>'
            b"</draw:text-box></draw:frame></draw:page>" % count)  # fmt: skip
    return _odf(path, "presentation", page)
