"""Whole paragraphs on untuned pages, with raw MuPDF as the witness: on a seeded sample of the
fetched real PDFs (``bench/data/real_pdf/``; the truth pages and every held-out document left
out, as ``bench/table_survey.py`` leaves them), PyMuPDF's plain ``get_text("blocks")`` keeps most
prose paragraphs in one block. Each raw block that reads as prose (two lines or more, 12 words or
more, ending ``.`` ``!`` ``?`` or ``:``, mostly letters) should lie inside ONE block of docread
``auto``'s markdown, normalised as ``bench/real_pdf.py`` scores whole paragraphs. Where it does
not, the survey says what came between its two parts in auto's markdown (a heading, a list item,
a table, code, another paragraph, nothing: a plain split) to render and look at; raw is not
always right (two columns read across are raw's error). ``--diff`` counts, page by page, the
broken blocks and changed markdown between two surveys of one sample (another tree's docread by
``PYTHONPATH``). ``--kinds`` sorts a survey's pages by the held-out half's kinds, each told by a
cheap signal of the page (``page_kind``: right-to-left script, an OCR layer, a turned page, two
columns, a bill's amounts, numbered clauses, else other), and counts the broken blocks per kind.

    python bench/para_survey.py OUT.json [--pages 3000] [--same-as A.json]
    PYTHONPATH=/other/tree/core python bench/para_survey.py B.json --same-as A.json
    python bench/para_survey.py --diff A.json B.json [--list]
    python bench/para_survey.py --kinds A.json [--list]
"""

from __future__ import annotations

import argparse
import json
import random
import re
from collections import Counter
from pathlib import Path
from typing import Any

from real_pdf import _MARKER, norm, page_parts
from table_survey import _AMOUNT, DATA, auto_pages, paired, untuned_pages

_ENDS = (".", "!", "?", ":")
_ITEM = re.compile(r"^\s*(?:[-*+•]\s+|\d{1,3}[.)]\s+)")
_BULLET = re.compile(r"^\s*[•◦▪‣–·]\s*")  # a raw bullet: markdown's ``-``, off the blocks
_CLAUSE = re.compile(r"^\(?\d{1,2}(?:\.\d{1,2})*[.)]?\s+\S")  # "3.2 The Buyer", "(4) Each"


def wanted(text: str) -> str:
    """A raw block's text as the blocks of auto's markdown are scored: each line's list marker
    or bullet out (``page_parts`` takes them off the markdown's lines), normalised."""
    return norm(" ".join(_BULLET.sub("", _MARKER.sub("", ln)) for ln in text.splitlines()))


def sample(count: int, same_as: str | None, per_file: int = 10) -> list[tuple[str, int]]:
    """The pages to read: those of ``same_as``'s survey, else ``count`` drawn (seeded) from the
    fetched PDFs' pages but truth pages and held-out documents, at most ``per_file`` a PDF (the
    sample spreads over packages, not over the three copies of R's 3,000-page reference)."""
    if same_as:
        return [(r["file"], r["page"]) for r in json.loads(Path(same_as).read_text())]
    pages = untuned_pages()
    random.Random(17).shuffle(pages)
    taken: Counter[str] = Counter()
    out = []
    for name, n in pages:
        if taken[name] < per_file and len(out) < count:
            taken[name] += 1
            out.append((name, n))
    return out


def prose(block: dict[str, Any]) -> str:
    """A raw ``dict`` block's text when it reads as a paragraph: 2+ horizontal lines, 12+ words,
    a sentence's end, mostly letters, no line with a column's gap inside (a label beside its
    text, a value row: raw's line, not a paragraph); else the empty string."""
    lines = block.get("lines", [])
    if len(lines) < 2 or any(abs(line["dir"][1]) > 0.01 for line in lines):
        return ""
    for line in lines:
        spans = line["spans"]
        for left, right in zip(spans, spans[1:], strict=False):
            if right["bbox"][0] - left["bbox"][2] > 1.5 * max(left["size"], 1):
                return ""
    text = "\n".join("".join(s["text"] for s in line["spans"]) for line in lines)
    body = text.strip()
    chars = [c for c in body if not c.isspace()]
    good = (
        len(body.split()) >= 12
        and body.endswith(_ENDS)
        and sum(c.isalpha() for c in chars) >= 0.75 * len(chars)
    )
    return body if good else ""


def kind(want: str, markdown: str) -> str:
    """What auto put between the parts of a raw prose block it did not keep whole: the markdown
    block after the one holding the longest opening of ``want`` names the kind."""
    pairs = [  # each block as written and normalised, from one split, one filter
        (raw, normed)
        for raw, normed in zip(re.split(r"\n\s*\n", markdown), page_parts(markdown)[2], strict=True)
        if normed
    ]
    raw_blocks = [raw for raw, _ in pairs]
    normed = [n for _, n in pairs]
    if want not in norm(markdown):
        return "reordered"
    low, high = 8, len(want)
    while low < high:  # the longest opening of want found inside one block
        mid = (low + high + 1) // 2
        if any(want[:mid] in b for b in normed):
            low = mid
        else:
            high = mid - 1
    at = next((i for i, b in enumerate(normed) if want[:low] in b), None)
    if at is None or at + 1 >= len(raw_blocks):
        return "split"
    after = raw_blocks[at + 1].lstrip()
    rest = want[low:]
    if after.startswith("#"):
        return "heading"
    if after.startswith("|"):
        return "table"
    if after.startswith(("```", "~~~")):
        return "code"
    if _ITEM.match(after):
        return "item" if not norm(_ITEM.sub("", after)).startswith(rest[:12]) else "item-split"
    return "split" if norm(after).startswith(rest[:12]) else "between"


def survey(pages: list[tuple[str, int]]) -> list[dict[str, Any]]:
    """Each page's auto markdown and its raw prose blocks not kept whole (with their kind)."""
    import pymupdf

    out = []
    for name, numbers, texts in auto_pages(pages):
        with pymupdf.open(DATA / name) as doc:
            for n in sorted(numbers):
                markdown = texts[n]
                blocks = page_parts(markdown)[2]
                found = doc[n - 1].get_text("dict")["blocks"]
                raw = [t for t in (prose(b) for b in found if b.get("type") == 0) if t]
                broken = []
                for text in raw:
                    want = wanted(text)
                    if not any(want in b for b in blocks):
                        broken.append({"text": text[:300], "kind": kind(want, markdown)})
                out.append({"file": name, "page": n, "prose": len(raw), "broken": broken,
                            "markdown": markdown})  # fmt: skip
    return out


def page_kind(page: Any) -> str:
    """The held-out half's kind a PyMuPDF page is of, by the first cheap signal that holds: an
    RTL script (30 % of letters Arabic or Hebrew), an OCR layer (Tesseract's GlyphLessFont), a
    turned page (/Rotate), two columns (8+ lines in each half, the two 60 % of the lines), a
    bill (4+ lines that are amounts right of the middle), clauses (5+ lines opening with a
    number), else other."""
    if page.rotation % 180:
        return "turned"
    lines = [
        line
        for block in page.get_text("dict")["blocks"]
        if block.get("type") == 0
        for line in block["lines"]
        if line["dir"][0] > 0.99 and "".join(s["text"] for s in line["spans"]).strip()
    ]
    text = "".join(s["text"] for line in lines for s in line["spans"])
    letters = [c for c in text if c.isalpha()]
    if sum("\u0590" <= c <= "\u06ff" for c in letters) >= 0.3 * max(len(letters), 1):
        return "rtl"
    if any("GlyphLess" in s["font"] for line in lines for s in line["spans"]):
        return "ocr"
    width = page.rect.width
    left = sum(ln["bbox"][0] < 0.45 * width and ln["bbox"][2] < 0.55 * width for ln in lines)
    right = sum(ln["bbox"][0] > 0.45 * width for ln in lines)
    if min(left, right) >= 8 and left + right >= 0.6 * len(lines):
        return "two-column"
    texts = ["".join(s["text"] for s in ln["spans"]).strip() for ln in lines]
    amounts = sum(
        bool(_AMOUNT.match(t)) and ln["bbox"][0] > 0.5 * width for t, ln in zip(texts, lines, strict=True)
    )
    if amounts >= 4:
        return "bill"
    if sum(bool(_CLAUSE.match(t)) for t in texts) >= 5:
        return "clauses"
    return "other"


def by_kind(surveyed: str, listing: bool) -> None:
    """A survey's pages by ``page_kind``: pages, raw prose blocks, those broken, the share
    kept whole and what came between; ``listing`` names each broken page."""
    import pymupdf

    rows = json.loads(Path(surveyed).read_text())
    by: dict[str, list[dict[str, Any]]] = {}
    for name in dict.fromkeys(r["file"] for r in rows):
        with pymupdf.open(DATA / name) as doc:
            for r in (r for r in rows if r["file"] == name):
                by.setdefault(page_kind(doc[r["page"] - 1]), []).append(r)
    for label, got in sorted(by.items(), key=lambda item: -len(item[1])):
        prose_, broken = sum(r["prose"] for r in got), sum(len(r["broken"]) for r in got)
        between = Counter(x["kind"] for r in got for x in r["broken"])
        whole = 100 * (1 - broken / prose_) if prose_ else 100.0
        print(f"{label}: {len(got)} pages, {prose_} prose, {broken} broken, whole {whole:.1f} % {dict(between)}")
        if listing:
            for r in (r for r in got if r["broken"]):
                print(f"    {r['file']} p{r['page']}: {[x['kind'] for x in r['broken']]}")


def diff(before: str, after: str, listing: bool) -> None:
    """Pages whose markdown changed between two surveys, and their broken-block counts."""
    a, b, both, changed = paired(before, after, "markdown")
    print(f"{len(both)} pages in both, {len(changed)} changed markdown")
    for k in changed:
        na, nb = len(a[k]["broken"]), len(b[k]["broken"])
        print(f"  {k[0]} p{k[1]}: broken {na} -> {nb}")
    for label, got in (("before", a), ("after", b)):
        kinds = Counter(x["kind"] for k in both for x in got[k]["broken"])
        total = sum(got[k]["prose"] for k in both)
        print(f"{label}: {sum(kinds.values())} of {total} prose blocks broken {dict(kinds)}")
    if listing:
        for k in changed:
            print(f"=== {k[0]} p{k[1]}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("out", nargs="?", help="the survey's JSON")
    parser.add_argument("--pages", type=int, default=3000)
    parser.add_argument("--same-as", help="read the pages of this survey")
    parser.add_argument("--diff", nargs=2, metavar=("BEFORE", "AFTER"))
    parser.add_argument("--kinds", metavar="SURVEY", help="a survey's broken blocks by page kind")
    parser.add_argument("--list", action="store_true", help="with --diff/--kinds: name pages")
    args = parser.parse_args()
    if args.diff:
        diff(*args.diff, args.list)
        return
    if args.kinds:
        by_kind(args.kinds, args.list)
        return
    if not args.out:
        parser.error("OUT.json or --diff")
    got = survey(sample(args.pages, args.same_as))
    Path(args.out).write_text(json.dumps(got))
    kinds = Counter(x["kind"] for r in got for x in r["broken"])
    print(f"{len(got)} pages, {sum(r['prose'] for r in got)} prose blocks,"
          f" {sum(kinds.values())} broken {dict(kinds)} -> {args.out}")  # fmt: skip


if __name__ == "__main__":
    main()
