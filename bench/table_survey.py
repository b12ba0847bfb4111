"""Tables on untuned pages, without truth: docread ``auto``'s pipe tables per page of a sample of
the fetched real PDFs (``bench/data/real_pdf/``, made by ``bench/real_pdf.py``; the truth pages
and every held-out document left out), beside cheap signals that say a page holds a grid:
rows of three pieces or more whose left edges line up in columns, dot leaders, amounts
right-aligned on one edge, rules across of one width with no rule down, and (on the first
``--find-tables`` pages) PyMuPDF's ``find_tables`` by both strategies. Pages where the signals
say grid and auto made none, or auto made a table of long cells, are the ones to render and
look at; ``--diff`` lists the pages whose tables changed between two surveys of one sample.

    python bench/table_survey.py OUT.json [--pages 2500] [--find-tables 200] [--same-as A.json]
    PYTHONPATH=/other/tree/core python bench/table_survey.py B.json --same-as A.json
    python bench/table_survey.py --diff A.json B.json
"""

from __future__ import annotations

import argparse
import json
import random
import re
import sys
from collections import Counter, defaultdict
from collections.abc import Iterator
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
DATA = HERE / "data" / "real_pdf"
_AMOUNT = re.compile(r"^[-−+(]?[$€£]?\s?\d{1,3}([.,' \u202f]\d{3})*([.,]\d{1,2})?\)?\s?[%€$]?$")
_LEADERS = re.compile(r"(\.\s?){6,}\s*\d+\s*$")
_RULE_ROW = re.compile(r"^[\s|:-]+$")
_CELL = re.compile(r"(?<!\\)\|")


def held_out() -> tuple[set[str], dict[str, set[int]]]:
    """The stems of the held-out documents (never opened) and the truth pages of the others."""
    stems, pages = set(), defaultdict(set)
    for file in [*HERE.glob("pdf_truth/*.json"), *HERE.glob("pdf_truth/*/*.json")]:
        truth = json.loads(file.read_text())
        if truth["split"] == "test":
            stems.add(Path(truth["file"]).stem)
        pages[Path(truth["file"]).name].update(int(n) for n in truth["pages"])
    return stems, pages


def pipe_tables(markdown: str) -> list[dict[str, Any]]:
    """A page's pipe tables: rows, columns, mean words a cell, the first row."""
    blocks: list[list[str]] = [[]]
    for line in markdown.splitlines():
        if line.lstrip().startswith("|"):
            blocks[-1].append(line)
        elif blocks[-1]:
            blocks.append([])
    out = []
    for block in (b for b in blocks if b):
        rows = [r for r in block if not _RULE_ROW.match(r)]
        cells = [c.strip() for r in rows for c in _CELL.split(r.strip().strip("|"))]
        words = [len(c.split()) for c in cells if c]
        out.append({
            "rows": len(rows),
            "cols": max(len(_CELL.split(r.strip().strip("|"))) for r in rows) if rows else 0,
            "mean_words": sum(words) / max(1, len(words)),
            "first": rows[0][:120] if rows else "",
        })  # fmt: skip
    return out


def signals(page: Any) -> dict[str, int]:
    """The cheap signals of a grid on a PyMuPDF page (see the module docstring)."""
    lines = [
        (line["bbox"], "".join(s["text"] for s in line["spans"]).strip())
        for block in page.get_text("dict")["blocks"]
        if block.get("type") == 0
        for line in block["lines"]
        if line["dir"][0] > 0.99
    ]
    lines = [(box, text) for box, text in lines if text]
    rows: dict[int, list[tuple[Any, str]]] = defaultdict(list)
    for box, text in lines:
        rows[round((box[1] + box[3]) / 6)].append((box, text))
    starts: Counter[int] = Counter()
    rights: Counter[int] = Counter()
    wide = 0
    for row in rows.values():
        row.sort(key=lambda piece: piece[0][0])
        if len(row) >= 3:
            wide += 1
            starts.update({round(box[0] / 4) for box, _ in row})
        last, first = row[-1], row[0]
        if len(row) >= 2 and _AMOUNT.match(last[1]) and not _AMOUNT.match(first[1]):
            rights[round(last[0][2] / 4)] += 1
    across: dict[tuple[int, int], set[int]] = defaultdict(set)
    down = 0
    for drawing in page.get_drawings() if len(lines) < 2000 else ():
        for item in drawing["items"]:
            if item[0] == "l":
                (x0, y0), (x1, y1) = (item[1].x, item[1].y), (item[2].x, item[2].y)
            elif item[0] == "re":
                x0, y0, x1, y1 = item[1]
            else:
                continue
            if abs(y1 - y0) < 2 and abs(x1 - x0) > 40:
                across[(round(min(x0, x1) / 3), round(max(x0, x1) / 3))].add(round(y0))
            elif abs(x1 - x0) < 2 and abs(y1 - y0) > 4:
                down += 1
    return {
        "lines": len(lines),
        "wide_rows": wide,
        "aligned_columns": sum(1 for n in starts.values() if n >= 3),
        "leaders": sum(1 for _, text in lines if _LEADERS.search(text)),
        "amount_rows": max(rights.values(), default=0),
        "banded": int(down == 0 and any(len(ys) >= 3 for ys in across.values())),
    }


def sample(count: int, same_as: str | None) -> list[tuple[str, int]]:
    """The pages to read: those of ``same_as``'s survey, else ``count`` drawn (seeded) from
    every page of the fetched PDFs but truth pages and held-out documents."""
    if same_as:
        return [(r["file"], r["page"]) for r in json.loads(Path(same_as).read_text())]
    pages = untuned_pages()
    random.Random(15).shuffle(pages)
    return pages[:count]


def untuned_pages() -> list[tuple[str, int]]:
    """Every page of the fetched PDFs (name under ``DATA``, number) but truth pages and held-out
    documents, in the files' order: the surveys' samples are drawn from it."""
    import pymupdf

    stems, truth = held_out()
    pages = []
    for path in sorted(DATA.rglob("*.pdf")):
        if path.stem in stems:
            continue
        try:
            with pymupdf.open(path) as doc:
                total = 0 if doc.needs_pass else doc.page_count
        except Exception:  # noqa: BLE001 (a PDF MuPDF cannot open is no page)
            continue
        name = str(path.relative_to(DATA))
        pages += [(name, n) for n in range(1, total + 1) if n not in truth.get(path.name, ())]
    return pages


def auto_pages(pages: list[tuple[str, int]]) -> Iterator[tuple[str, list[int], dict[int, str]]]:
    """Each sampled document's name, its sampled page numbers and each page's auto markdown
    (tables in it, their own units left out), read document by document; a document docread
    refuses is reported and skipped."""
    import docread

    config = {"cache": {"enabled": False}, "isolation": {"enabled": False},
              "pdf": {"structure": "auto"}}  # fmt: skip
    reader = docread.Reader("/", config=config)
    by_file: dict[str, list[int]] = defaultdict(list)
    for name, n in pages:
        by_file[name].append(n)
    for name, numbers in by_file.items():
        texts: dict[int, str] = defaultdict(str)
        try:
            spec = ",".join(map(str, sorted(numbers)))
            for d in reader.iter_documents(str(DATA / name), pages=spec):
                if "table_index" not in d.metadata and "page_number" in d.metadata:
                    texts[d.metadata["page_number"]] += "\n\n" + d.text
        except Exception as exc:  # noqa: BLE001 (a page docread refuses is reported, not fatal)
            print(f"skipped {name}: {exc}", file=sys.stderr)
            continue
        yield name, numbers, texts


def survey(pages: list[tuple[str, int]], find_tables: int) -> list[dict[str, Any]]:
    """Each page's auto tables and signals, read document by document."""
    import pymupdf

    out = []
    for name, numbers, texts in auto_pages(pages):
        with pymupdf.open(DATA / name) as doc:
            for n in sorted(numbers):
                page = doc[n - 1]
                got = {"file": name, "page": n, "auto": pipe_tables(texts[n]), **signals(page)}
                if find_tables > 0 and got["lines"] < 1500:
                    find_tables -= 1
                    for way in ("lines", "text"):
                        found = page.find_tables(strategy=way).tables
                        got[f"find_tables_{way}"] = [(t.row_count, t.col_count) for t in found]
                out.append(got)
    return out


Surveyed = dict[tuple[str, int], dict[str, Any]]


def paired(before: str, after: str, field: str) -> tuple[Surveyed, Surveyed, list, list]:
    """Two surveys' JSON by (file, page): each's rows, the pages in both, those whose ``field``
    changed (this survey's and para_survey.py's ``--diff``)."""
    a = {(r["file"], r["page"]): r for r in json.loads(Path(before).read_text())}
    b = {(r["file"], r["page"]): r for r in json.loads(Path(after).read_text())}
    both = [k for k in a if k in b]
    return a, b, both, [k for k in both if a[k][field] != b[k][field]]


def diff(before: str, after: str) -> None:
    """The pages whose auto tables differ between two surveys, with the tables they gained."""
    a, b, both, changed = paired(before, after, "auto")
    print(f"{len(both)} pages in both, {len(changed)} changed")
    for k in changed:
        new = [t["first"][:70] for t in b[k]["auto"] if t not in a[k]["auto"]]
        print(f"  {k[0]} p{k[1]}: {len(a[k]['auto'])} -> {len(b[k]['auto'])} tables {new[:3]}")
    for name, survey_ in (("before", a), ("after", b)):
        none = [r for r in survey_.values() if not r["auto"]]
        print(f"{name}: no auto table where rules across of one width and no rule down:"
              f" {sum(r['banded'] for r in none)}; where 3+ columns line up over 3+ rows:"
              f" {sum(r['wide_rows'] >= 4 and r['aligned_columns'] >= 3 for r in none)};"
              f" where amounts line up right: {sum(r['amount_rows'] >= 4 for r in none)}")  # fmt: skip


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("out", nargs="?", help="the survey's JSON")
    parser.add_argument("--pages", type=int, default=2500)
    parser.add_argument("--find-tables", type=int, default=0, help="pages given find_tables")
    parser.add_argument("--same-as", help="read the pages of this survey")
    parser.add_argument("--diff", nargs=2, metavar=("BEFORE", "AFTER"))
    args = parser.parse_args()
    if args.diff:
        diff(*args.diff)
        return
    if not args.out:
        parser.error("OUT.json or --diff")
    got = survey(sample(args.pages, args.same_as), args.find_tables)
    Path(args.out).write_text(json.dumps(got))
    print(f"{len(got)} pages, {sum(len(r['auto']) for r in got)} auto tables -> {args.out}")


if __name__ == "__main__":
    main()
