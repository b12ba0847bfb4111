"""Headings against PDF outlines, untuned (issue 33): the fetched PDFs in ``bench/data/real_pdf/``
(``real_pdf.py`` fetches them) whose outline names a heading on at least half their pages are
read by ``pdf.structure: auto`` from a copy with the outline removed (auto would use it: this
measures the headings found from the document's own statistics), a few pages each, and their
headings compared with the outline's entries page by page:
- recall: the outline's entries on the sampled pages that are a heading of that page or the next
  (an entry may point at the line above its heading, at a page's end);
- precision (outline): the headings that are an entry of their page or the page before. An
  outline names only its own levels, so a heading it does not name may be one (a paragraph
  head under its last level, a title page's title): ``--list`` prints those to look at.
Titles are compared by their letters and digits, casefolded, a leading section number out
(``3.1 Results`` = ``Results``), one holding the other if it is at least half its length.
The held-out documents (bench/pdf_truth/'s ``test`` split) are never read.

``--copy turned|scanned`` is a differential (the held-out half's rotated page and scan with an
OCR layer, made from untuned pages): each document's sampled pages, alone (an OCR page among
printed ones would be read with the print's statistics), are read as they are and from a copy
shown turned (``/Rotate`` 90 added, the text running across as stored) or made 300 dpi scans
with Tesseract's invisible text layer (``real_pdf.scanned``: made once into
``bench/data/scanned/``; ~2 s a page: ``--docs`` takes fewer documents, spread evenly), both
without the outline, and the headings the copy loses or gains against the original are counted
and listed (``--list``): each is a bug of the held-out kind.

    python bench/outline_survey.py [--pages 10] [--list out.tsv] [--json out.json]
    python bench/outline_survey.py --copy scanned --pages 3 --docs 50 --list diff.tsv
    PYTHONPATH=/path/to/other/tree/core python bench/outline_survey.py   # another tree's docread
"""

from __future__ import annotations

import argparse
import json
import re
import tempfile
import time
import unicodedata
from collections import defaultdict
from pathlib import Path
from typing import Any

import pymupdf
from real_pdf import TRUTH, norm, page_parts, scanned

DATA = Path(__file__).resolve().parent / "data" / "real_pdf"
_NUMBER = re.compile(
    r"^(?:(?:chapter|section|part|appendix|kapitel|anhang|teil)\s*)?"
    r"(?:\d+(?:\.\d+)*|[IVX]+|[A-Z](?=[.\s]))[.:)]?\s+",
    re.IGNORECASE,
)


def key(title: str) -> str:
    """A title as compared: NFKC, casefolded, its leading section number and all but letters and
    digits out (what a heading and its outline entry share however each is set)."""
    text = unicodedata.normalize("NFKC", title).strip()
    bare = _NUMBER.sub("", text, count=1) or text
    return "".join(c for c in bare.casefold() if c.isalnum())


def same(a: str, b: str) -> bool:
    """Two keys name one title: equal, or one holds the other and is at least half its length
    (a heading cut at a line, an entry shortened)."""
    short, long = sorted((a, b), key=len)
    return bool(short) and (a == b or len(short) >= 4 and short in long and 2 * len(short) >= len(long))


def held_out() -> set[str]:
    """The file names of the held-out half's PDFs: never read here."""
    names = set()
    for file in [*TRUTH.glob("*.json"), *TRUTH.glob("*/*.json")]:
        truth = json.loads(file.read_text())
        if truth["split"] == "test":
            names.add(Path(truth["file"]).name)
    return names


def documents(pages: int) -> list[tuple[Path, list[int], list[list[Any]]]]:
    """(PDF, the pages sampled, its outline) for every fetched PDF whose outline names a
    heading on at least half of its three or more pages, the pages spread evenly over it; a
    PDF once (``debs/`` holds the packages that ``debian/`` takes single files from)."""
    skip, seen, out = held_out(), set(), []
    for path in sorted(DATA.rglob("*.pdf")):
        if path.name in skip or "lo-profile" in path.parts:
            continue
        if (path.name, path.stat().st_size) in seen:
            continue
        seen.add((path.name, path.stat().st_size))
        try:
            with pymupdf.open(path) as doc:
                if doc.needs_pass:
                    continue
                toc, count = doc.get_toc(simple=True), doc.page_count
        except (RuntimeError, ValueError):
            continue
        if count >= 3 and 2 * len({e[2] for e in toc if e[2] >= 1}) >= count:
            picked = sorted({1 + i * count // pages for i in range(min(pages, count))})
            out.append((path, picked, toc))
    return out


def read(
    path: Path, pages: list[int], scratch: Path, reader: Any, made: str = ""
) -> dict[int, str]:
    """The pages' markdown as auto reads them from a copy of ``path`` without its outline; with
    ``made``, a copy of those pages alone (``alone``; an OCR page in a document of printed ones
    would be read with the print's statistics), shown ``turned`` (90 degrees more ``/Rotate``)
    or ``scanned``."""
    copy = scratch / "copy.pdf"
    source = scanned(path, pages) if made == "scanned" else path  # made once, kept
    if source is None:
        raise RuntimeError("no tesseract")
    with pymupdf.open(source) as doc:
        doc.set_toc([])
        if made:
            doc.select([n - 1 for n in pages])
        for page in doc if made == "turned" else ():
            page.set_rotation((page.rotation + 90) % 360)
        doc.save(copy)
    numbers = dict(enumerate(pages, 1)) if made else {n: n for n in pages}
    got: dict[int, str] = {}
    for unit in reader.iter_documents(str(copy), pages=",".join(map(str, sorted(numbers)))):
        if "table_index" not in unit.metadata and "page_number" in unit.metadata:
            n = numbers[unit.metadata["page_number"]]
            got[n] = got[n] + "\n\n" + unit.text if n in got else unit.text
    return got


def heading_lines(markdown: str) -> list[str]:
    """A page's heading lines as printed (page_parts normalises them: the text comes back)."""
    raw = [m.group(1) for m in re.finditer(r"(?m)^\s{0,3}#{1,6}\s+(.+?)\s*#*\s*$", markdown)]
    kept = set(page_parts(markdown)[0])  # outside code fences
    return [h for h in raw if norm(h) in kept]


def differential(docs: list[tuple[Path, list[int], list[list[Any]]]], made: str, reader: Any) -> list[str]:
    """The headings each sampled page's ``made`` copy loses or gains against the page itself
    (both read without the outline), printed as counts; the TSV lines to look at returned."""
    import docread

    rows, heads, lost, gained, pages, cpu = [], 0, 0, 0, 0, time.process_time()
    with tempfile.TemporaryDirectory() as scratch:
        for path, picked, _ in docs:
            try:
                texts = read(path, picked, Path(scratch), reader, "alone")
                copies = read(path, picked, Path(scratch), reader, made)
            except (docread.errors.ReadDocumentError, RuntimeError, ValueError) as exc:
                print(f"skipped {path.name}: {exc}")
                continue
            for n in picked:
                pages += 1
                mine, theirs = heading_lines(texts.get(n, "")), heading_lines(copies.get(n, ""))
                heads += len(mine)
                for head, other, label in ((mine, theirs, "lost"), (theirs, mine, "gained")):
                    for h in head:
                        if not any(same(key(h), key(o)) for o in other):
                            lost += label == "lost"
                            gained += label == "gained"
                            rows.append(f"{label}\t{path.relative_to(DATA)}\t{n}\t{h}")
    cpu = time.process_time() - cpu
    print(f"{made}: {pages} pages, {heads} headings on the originals, {lost} lost and {gained} gained"
          f" by the copies, {cpu:.0f} CPU s")  # fmt: skip
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--pages", type=int, default=10, help="pages sampled per document")
    parser.add_argument("--list", help="write the headings no outline entry names here (TSV)")
    parser.add_argument("--json", help="write the counts here")
    parser.add_argument("--copy", choices=("turned", "scanned"), help="the differential (above)")
    parser.add_argument("--docs", type=int, help="documents read at most, spread evenly")
    args = parser.parse_args()
    import docread

    cfg = {"cache": {"enabled": False}, "isolation": {"enabled": False},
           "timeouts": {"global": 3600}, "pdf": {"structure": "auto"}}  # fmt: skip
    reader = docread.Reader("/", config=cfg)
    docs = documents(args.pages)
    if args.docs and args.docs < len(docs):
        docs = [docs[i * len(docs) // args.docs] for i in range(args.docs)]
    if args.copy:
        rows = differential(docs, args.copy, reader)
        if args.list:
            Path(args.list).write_text("\n".join(rows) + "\n")
        return
    counts: dict[str, list[int]] = defaultdict(lambda: [0, 0, 0, 0])  # found, entries, named, heads
    unnamed, sampled, cpu = [], 0, time.process_time()
    with tempfile.TemporaryDirectory() as scratch:
        for path, pages, toc in docs:
            try:
                texts = read(path, pages, Path(scratch), reader)
            except docread.errors.ReadDocumentError as exc:
                print(f"skipped {path.name}: {exc}")
                continue
            entries: dict[int, list[str]] = defaultdict(list)
            for _, title, page in toc:
                entries[page].append(key(title))
            parts = path.relative_to(DATA).parts  # debs/<package>_<version>/...
            package = parts[1].split("_")[0] if len(parts) > 2 else "made"
            tally = counts[package]
            for n in pages:
                sampled += 1
                heads = heading_lines(texts.get(n, ""))
                near = [key(h) for h in heads + heading_lines(texts.get(n + 1, ""))]
                tally[0] += sum(any(same(e, h) for h in near) for e in entries[n])
                tally[1] += len(entries[n])
                for head in heads:
                    if any(same(key(head), e) for e in entries[n] + entries[n - 1]):
                        tally[2] += 1
                    else:
                        unnamed.append(f"{path.relative_to(DATA)}\t{n}\t{head}")
                tally[3] += len(heads)
    cpu = time.process_time() - cpu
    total = [sum(c[i] for c in counts.values()) for i in range(4)]
    for package, (found, listed, named, heads) in sorted(counts.items(), key=lambda c: -c[1][3]):
        print(f"{package:<36} recall {found:>5}/{listed:<5} precision {named:>5}/{heads:<5}")
    print(f"\nall: recall {100 * total[0] / max(total[1], 1):.1f} % ({total[0]}/{total[1]}), "
          f"precision (outline) {100 * total[2] / max(total[3], 1):.1f} % ({total[2]}/{total[3]}),"
          f" {sampled} pages, {cpu:.0f} CPU s")  # fmt: skip
    if args.list:
        Path(args.list).write_text("\n".join(unnamed) + "\n")
    if args.json:
        Path(args.json).write_text(json.dumps({"total": total, "packages": counts}, indent=1))


if __name__ == "__main__":
    main()
