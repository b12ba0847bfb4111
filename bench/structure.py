"""PDF structure benchmark, side by side in one run: docread (pdf.structure auto / layout / off),
``pymupdf4llm.to_markdown`` (its layout model) and raw ``page.get_text()``.

Recall on PDFs whose structure is known (tests/structure_fixtures.py, made with PyMuPDF's Story,
plus corpus PDFs with hand-checked truth in bench/structure_truth.json):
- headings: an expected heading's text is a markdown heading line (``#``..``######``);
- table cells: an expected cell is a cell of a markdown pipe-table row;
- paragraphs: an expected paragraph is found whole, in one piece (whitespace and emphasis
  marks aside), which multi-column reading order and glued running headers break.
Speed: pages/s on that set, on the corpus's 619-page manual and on a generated 2,000-page text
PDF (pymupdf4llm on the first 100 pages of each: it runs ~0.3 s a page), peak RSS per case
(each case in a fresh process; imports, the layout model and a Reader set up and warmed on one
page before the clock starts), rounds interleaved, median of ``--rounds``.

    python bench/structure.py [--rounds 3] [--json out.json]
"""

from __future__ import annotations

import argparse
import json
import os
import re
import statistics
import subprocess
import sys
from pathlib import Path

from _harness import CORPUS

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
DATA = HERE / "data" / "structure"
TRUTH = HERE / "structure_truth.json"
PEER_PAGES = 100

CHILD = r"""
import json, os, resource, sys, time
case, out, files = sys.argv[1], sys.argv[2], sys.argv[3:]
pages = 0
texts = {}
# imports, the layout model and a Reader are set up and warmed before the clock starts
if case == "raw":
    import pymupdf
elif case == "pymupdf4llm":
    import pymupdf, pymupdf4llm
    with pymupdf.open(files[0]) as doc:
        pymupdf4llm.to_markdown(doc, pages=[0], show_progress=False)
else:
    import docread
    mode = case.split(":")[1]
    cfg = {"cache": {"enabled": False}, "isolation": {"enabled": False},
           "timeouts": {"global": 3600}, "pdf": {"structure": mode}}
    reader = docread.Reader("/", config=cfg)
    sum(1 for _ in reader.iter_documents(files[0], pages="1"))
t0 = time.perf_counter()
if case == "raw":
    for f in files:
        with pymupdf.open(f) as doc:
            parts = [page.get_text() for page in doc]
        pages += len(parts)
        texts[f] = "\n".join(parts)
elif case == "pymupdf4llm":
    for f in files:
        with pymupdf.open(f) as doc:
            count = min(doc.page_count, PEER_PAGES)
            texts[f] = pymupdf4llm.to_markdown(doc, pages=list(range(count)), show_progress=False)
        pages += count
else:
    for f in files:
        units = [d for d in reader.iter_documents(f) if "table_index" not in d.metadata]
        pages += len(units)
        texts[f] = "\n\n".join(d.text for d in units)
seconds = time.perf_counter() - t0
if out != "-":
    with open(out, "w") as fh:
        json.dump(texts, fh)
peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
print(json.dumps({"pages": pages, "seconds": seconds, "peak_mb": peak}))
""".replace("PEER_PAGES", str(PEER_PAGES))

CASES = ("docread:auto", "docread:off", "pymupdf4llm", "raw")
_EMPHASIS = re.compile(r"[*_`]+|<br\s*/?>|\\(?=[|*_])")
_HEADING = re.compile(r"^\s{0,3}#{1,6}\s+(.+?)\s*#*\s*$")
_CELL_SPLIT = re.compile(r"(?<!\\)\|")


def norm(text: str) -> str:
    """Casefolded, emphasis marks and <br> out, whitespace as single spaces."""
    return " ".join(_EMPHASIS.sub(" ", text).split()).casefold()


def score(markdown: str, truth: dict[str, list]) -> dict[str, tuple[int, int]]:
    """(found, expected) for headings, table cells and paragraphs."""
    lines = markdown.splitlines()
    heads = {norm(m.group(1)) for line in lines if (m := _HEADING.match(line))}
    cells = {
        norm(c)
        for line in lines
        if line.lstrip().startswith("|")
        for c in _CELL_SPLIT.split(line.strip().strip("|"))
    }
    whole = norm(markdown)
    want_h = [norm(t) for _, t in truth.get("headings", [])]
    want_c = [norm(c) for c in truth.get("cells", []) if c.strip()]
    want_p = [norm(p) for p in truth.get("paragraphs", [])]
    return {
        "headings": (sum(h in heads for h in want_h), len(want_h)),
        "cells": (sum(c in cells for c in want_c), len(want_c)),
        "paragraphs": (sum(p in whole for p in want_p), len(want_p)),
    }


def structure_set() -> dict[str, dict[str, list]]:
    """The generated PDFs (written once under bench/data/structure) and the corpus PDFs with
    hand-checked truth: path -> truth."""
    sys.path.insert(0, str(ROOT / "tests"))
    import structure_fixtures

    DATA.mkdir(parents=True, exist_ok=True)
    out: dict[str, dict[str, list]] = {}
    for name, make in structure_fixtures.MAKERS.items():
        data, truth = make()
        path = DATA / f"{name}.pdf"
        path.write_bytes(data)
        out[str(path)] = truth.as_json()
    for name, truth in json.loads(TRUTH.read_text()).items():
        if (CORPUS / name).exists():
            out[str(CORPUS / name)] = truth
    return out


def run(case: str, files: list[str], keep: Path | None) -> dict[str, float]:
    env = {**os.environ, "PYTHONPATH": f"{ROOT / 'core'}:{ROOT}"}
    proc = subprocess.run(
        [sys.executable, "-c", CHILD, case, str(keep) if keep else "-", *files],
        capture_output=True, text=True, env=env, check=True,
    )  # fmt: skip
    result: dict[str, float] = json.loads(proc.stdout.strip().splitlines()[-1])
    return result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--json", help="write the results here")
    args = parser.parse_args()
    truths = structure_set()
    sys.path.insert(0, str(ROOT / "tests"))
    import structure_fixtures

    big = DATA / "text-2000.pdf"
    if not big.exists():
        big.write_bytes(structure_fixtures.text_pages(2000))
    sets = {"structure": list(truths), "manual-619": [str(CORPUS / "pdf" / "DA-619p.pdf")],
            "text-2000": [str(big)]}  # fmt: skip
    times: dict[tuple[str, str], list[dict[str, float]]] = {}
    recall: dict[str, dict[str, dict[str, tuple[int, int]]]] = {}
    for r in range(args.rounds):
        for set_name, files in sets.items():
            for case in CASES:
                keep = (
                    DATA / f"out-{case.replace(':', '-')}.json"
                    if set_name == "structure" and r == 0
                    else None
                )
                times.setdefault((set_name, case), []).append(run(case, files, keep))
                if keep:
                    texts = json.loads(keep.read_text())
                    recall[case] = {f: score(texts[f], truths[f]) for f in files}
    report = {"recall": {}, "speed": {}}
    print(f"{'case':<14} {'headings':>9} {'cells':>9} {'paragraphs':>11}")
    for case in CASES:
        sums = {k: [sum(v[k][0] for v in recall[case].values()), sum(v[k][1] for v in recall[case].values())] for k in ("headings", "cells", "paragraphs")}  # fmt: skip
        report["recall"][case] = {
            "total": sums,
            "files": {Path(f).name: v for f, v in recall[case].items()},
        }
        cols = [f"{100 * a / b:8.1f}%" if b else "      -" for a, b in sums.values()]
        print(f"{case:<14} {cols[0]:>9} {cols[1]:>9} {cols[2]:>11}")
    print(f"\n{'set':<11} {'case':<14} {'pages':>6} {'pages/s':>9} {'peak MB':>8}")
    for (set_name, case), runs in times.items():
        secs = statistics.median(x["seconds"] for x in runs)
        pages = runs[0]["pages"]
        peak = max(x["peak_mb"] for x in runs)
        report["speed"][f"{set_name}/{case}"] = {
            "pages": pages,
            "seconds": secs,
            "pages_per_s": pages / secs,
            "peak_mb": peak,
        }
        print(f"{set_name:<11} {case:<14} {pages:>6} {pages / secs:>9.1f} {peak:>8.0f}")
    for file_case in CASES:
        print(f"\n{file_case} per file:", {Path(f).name: v for f, v in recall[file_case].items()})
    if args.json:
        Path(args.json).write_text(json.dumps(report, indent=1))


if __name__ == "__main__":
    main()
