"""Generators of hostile files, small on disk and fast to make, shared by tests/test_hostile.py
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
    objects = [
        b"<< /Type /Catalog /Pages 2 0 R >>",
        b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
        b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R "
        b"/Resources << /Font << /F1 5 0 R >> >> >>",
        b"<< /Length %d /Filter /FlateDecode >>\nstream\n" % len(stream) + stream + b"\nendstream",
        b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>",
    ]
    return _write_pdf(path, objects)


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
    page = (
        b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R "
        b"/Resources << /Font << /F1 5 0 R >> >> >>"
    )
    objects = [
        b"<< /Type /Catalog /Pages 2 0 R /Outlines 6 0 R >>",
        b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
        page,
        _text_stream([(18, "Deep outline"), (11, "The body text of the page stays readable.")]),
        b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>",
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


def pdf_vector_grid(path: Path, *, pages: int = 90, lines: int = 120_000) -> Path:
    """A PDF of ``pages`` pages that all show one content stream: a few lines of text and a
    grid of ``lines`` rules (half across the page, half down it, each its own stroked path),
    with a word in some of its cells: about 300 KB of Flate."""
    half = lines // 2
    ops = [b"0.1 w\n"]
    ops += [b"36 %.3f m 576 %.3f l S\n" % (y, y) for y in (36 + 720 * i / half for i in range(half))]
    ops += [b"%.3f 36 m %.3f 756 l S\n" % (x, x) for x in (36 + 540 * i / half for i in range(half))]
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
