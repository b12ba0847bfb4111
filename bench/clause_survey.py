"""Numbered clauses on untuned pages (issue 33): where ``pdf.structure: auto`` puts the printed
lines that open with a clause number (``1.2.3 Text``, ``(a) text``, ``A. Text``, ``Article 5``,
``§ 3``; a contents entry's leader out), over the fetched PDFs in ``bench/data/real_pdf/`` (``real_pdf.py`` fetches them), pages
with at least ``--least`` such lines, a few pages a document, no truth page and no held-out
document read. Each clause line (number and its first words, from raw ``get_text("dict")``) is
found in auto's markdown and counted by kind:
- heading: on a ``#`` line; own: it opens a block (a paragraph or list item of its own);
- joined: inside a block that opens with other text (a clause run into the one before);
- split: its next printed line, a wrap of it (same raw block, no number of its own), lies in
  another block (the clause broken mid-way); missing: not found (a table cell, dropped).
``--list`` writes one TSV row per clause line (document, page, kind, line) to look at.

    python bench/clause_survey.py [--pages 4] [--least 3] [--under debs/x] [--list f.tsv] [--json f.json]
    PYTHONPATH=/path/to/other/tree/core python bench/clause_survey.py   # another tree's docread
"""

from __future__ import annotations

import argparse
import json
import re
import time
from collections import Counter
from pathlib import Path
from typing import Any

import pymupdf
from outline_survey import DATA, held_out
from real_pdf import TRUTH, norm

CLAUSE = re.compile(
    r"^(?:(?:article|section|clause|art\.|§)\s*\d+[.:]?|\d{1,2}(?:\.\d{1,2}){1,3}\.?|\d{1,2}[.)]"
    r"|\([a-z]{1,3}\)|\(\d{1,2}\)|[a-zA-Z][.)])\s+(?=\w)",
    re.IGNORECASE,
)
LEADER = re.compile(r"(?:\.\s?){4,}|[⋅ꞏ·]{3,}|…{2,}")  # a contents entry's: not surveyed


def truth_pages() -> set[tuple[str, int]]:
    """(file name, page) of every truth page of every split: never surveyed."""
    out = set()
    for file in [*TRUTH.glob("*.json"), *TRUTH.glob("*/*.json")]:
        truth = json.loads(file.read_text())
        out |= {(Path(truth["file"]).name, int(n)) for n in truth["pages"]}
    return out


def clauses(page: Any) -> list[tuple[str, str]]:
    """(clause line, the printed line after it when that is its wrap, else '') of a page."""
    out = []
    for block in page.get_text("dict")["blocks"]:
        rows = [
            " ".join(s["text"] for s in line["spans"]).strip() for line in block.get("lines", [])
        ]
        rows = [r for r in rows if r]
        for i, row in enumerate(rows):
            if CLAUSE.match(row) and len(row.split()) >= 3 and not LEADER.search(row):
                nxt = rows[i + 1] if i + 1 < len(rows) else ""
                out.append((row, "" if CLAUSE.match(nxt) else nxt))
    return out


def kind(line: str, wrap: str, markdown: str) -> str:
    """Where auto put a clause line (the module docstring's kinds)."""
    key = norm(line)[:40]
    rest = norm(CLAUSE.sub("", line, count=1))[:30]
    blocks = [b for b in re.split(r"\n\s*\n", markdown) if b.strip()]
    for block in blocks:
        flat = norm(block)
        if key not in flat and rest not in flat:
            continue
        first = block.lstrip().splitlines()[0]
        if first.lstrip().startswith("#") and (rest in norm(first) or key in norm(first)):
            return "heading"
        at = flat.find(key) if key in flat else flat.find(rest)
        if at > 8:
            return "joined"
        tail = norm(wrap)[:20]
        if tail and len(tail) >= 8 and tail not in flat and tail in norm(markdown):
            return "split"
        return "own"
    return "missing"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--pages", type=int, default=4, help="pages read per document")
    parser.add_argument("--least", type=int, default=3, help="clause lines a page needs")
    parser.add_argument("--list", help="write every clause line's kind here (TSV)")
    parser.add_argument("--json", help="write the counts here")
    parser.add_argument("--under", default="", help="only PDFs under this folder of the data")
    args = parser.parse_args()
    import docread

    cfg = {"cache": {"enabled": False}, "isolation": {"enabled": False},
           "timeouts": {"global": 3600}, "pdf": {"structure": "auto"}}  # fmt: skip
    reader = docread.Reader("/", config=cfg)
    skip, tuned, seen = held_out(), truth_pages(), set()
    counts: Counter[str] = Counter()
    rows, pages_read, cpu = [], 0, time.process_time()
    for path in sorted((DATA / args.under).rglob("*.pdf")):
        if (
            path.name in skip
            or "lo-profile" in path.parts
            or (path.name, path.stat().st_size) in seen
        ):
            continue
        seen.add((path.name, path.stat().st_size))
        try:
            with pymupdf.open(path) as doc:
                if doc.needs_pass or doc.page_count > 400:
                    continue
                found = {n + 1: c for n, page in enumerate(doc)
                         if (path.name, n + 1) not in tuned and len(c := clauses(page)) >= args.least}  # fmt: skip
        except (RuntimeError, ValueError):
            continue
        if not found:
            continue
        keys = sorted(found)
        picked = sorted(
            {keys[i * len(keys) // args.pages] for i in range(min(args.pages, len(keys)))}
        )
        try:
            got: dict[int, str] = {}
            for unit in reader.iter_documents(str(path), pages=",".join(map(str, picked))):
                if "table_index" not in unit.metadata and "page_number" in unit.metadata:
                    n = unit.metadata["page_number"]
                    got[n] = got.get(n, "") + "\n\n" + unit.text
        except docread.errors.ReadDocumentError:
            continue
        for n in picked:
            pages_read += 1
            for line, wrap in found[n]:
                k = kind(line, wrap, got.get(n, ""))
                counts[k] += 1
                rows.append((str(path.relative_to(DATA)), n, k, line))
    print(
        f"{pages_read} pages, {sum(counts.values())} clause lines, CPU {time.process_time() - cpu:.0f} s"
    )
    for k, v in counts.most_common():
        print(f"  {k:<8} {v:>6}")
    if args.list:
        Path(args.list).write_text("".join(f"{d}\t{n}\t{k}\t{t}\n" for d, n, k, t in rows))
    if args.json:
        Path(args.json).write_text(json.dumps(dict(counts), indent=1))


if __name__ == "__main__":
    main()
