"""Benchmark: docread's chunker (``docread.rag.chunking.chunk_units``) against the floor, LangChain's
RecursiveCharacterTextSplitter (``add_start_index=True``, the same size and overlap) on the same
units in memory, and optionally against docread's chunker of another checkout (``--before``).

    python bench/chunking.py                                  # floor vs this tree
    python bench/chunking.py --before /tmp/before/core        # + another tree's chunker

Cases: prose pages; one 2 MB unit; ``short-words-1MB`` (1 MB of two-letter words at the largest
overlap this tree takes, half the size: the input of issue 25.6, where an overlap of
``chunk_size - 1`` made 333,000 chunks); ``sections-300`` (300 markdown pages as the PDF
extractor makes them: ``headings`` metadata, heading lines, a pipe table every third page).
Each measurement runs in its own subprocess (peak RSS per case); implementations alternate,
so machine noise hits them alike. Building the units is not timed.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import resource
import statistics
import sys
import time
from pathlib import Path

from _harness import best_of

HERE = Path(__file__).resolve().parent
#: case -> (units, characters per unit, chunk_size, chunk_overlap)
CASES = {
    "pages-300x2k": (300, 2_000, 800, 100),
    "one-unit-2MB": (1, 2_000_000, 800, 100),
    "short-words-1MB": (1, 1_000_000, 1_000, 500),
    "sections-300": (300, 2_000, 800, 100),
}
RUNS = 5
WORDS = [
    "pump", "seal", "warranty", "revenue", "outlook", "quarter", "data", "team", "office",
    "growth", "the", "a", "of", "and",
]  # fmt: skip


def _text(chars: int, seed: int) -> str:
    """Prose of about ``chars`` characters: sentences, lines and paragraphs of common words."""
    rng = random.Random(seed)
    out: list[str] = []
    size = 0
    while size < chars:
        sentence = " ".join(rng.choice(WORDS) for _ in range(rng.randint(5, 18))).capitalize()
        out.append(sentence + rng.choice([". ", ". ", "! ", ".\n", ".\n\n"]))
        size += len(out[-1])
    return "".join(out)


def _markdown_page(n: int, chars: int) -> tuple[str, list[str]]:
    """Page ``n`` as markdown: a "## n" heading every other page, a pipe table every third; and
    the heading path in force at its start."""
    parts = [f"## Part {n}\n\n" if n % 2 else "", _text(chars // 2, n)]
    if n % 3 == 0:
        rows = "".join(f"| {w} | {i} | {i * 7} |\n" for i, w in enumerate(WORDS * 3))
        parts.append("\n\n| Word | Count | Total |\n|---|---|---|\n" + rows)
    parts.append(_text(chars // 2, n + 10_000))
    path = ["Report", f"Part {n - 1 if n % 2 == 0 else n - 2}"] if n > 1 else ["Report"]
    return "".join(parts), path


def _units(case: str) -> list[object]:
    import docread

    units, chars, _, _ = CASES[case]
    if case == "short-words-1MB":
        return [docread.Document("ab cd " * (chars // 6), {"source": "w.txt"}, "u0")]
    if case == "sections-300":
        out: list[object] = []
        for n in range(1, units + 1):
            text, path = _markdown_page(n, chars)
            meta = {"source": "r.pdf", "extractor": "pdf", "page_number": n, "headings": path}
            out.append(docread.Document(text, meta, f"u{n}"))
        return out
    return [
        docread.Document(_text(chars, i), {"source": "bench.txt", "page_number": i + 1}, f"u{i}")
        for i in range(units)
    ]


def run_case(case: str, impl: str) -> int:
    docs = _units(case)
    _, _, size, overlap = CASES[case]
    if impl == "floor":
        from langchain_core.documents import Document
        from langchain_text_splitters import RecursiveCharacterTextSplitter

        splitter = RecursiveCharacterTextSplitter(
            chunk_size=size, chunk_overlap=overlap, add_start_index=True
        )
        lc = [Document(d.text, metadata=dict(d.metadata), id=d.id) for d in docs]  # type: ignore[attr-defined]
        start = time.perf_counter()
        count = len(splitter.split_documents(lc))
    else:
        from docread.rag.chunking import chunk_units

        start = time.perf_counter()
        count = sum(1 for _ in chunk_units(docs, chunk_size=size, chunk_overlap=overlap))  # type: ignore[arg-type]
    elapsed = time.perf_counter() - start
    rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(json.dumps({"seconds": elapsed, "rss_mb": rss, "count": count}))
    return 0


def main() -> int:
    if len(sys.argv) == 3 and not sys.argv[1].startswith("-"):
        return run_case(sys.argv[1], sys.argv[2])
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--before", help="another checkout's core/ folder: its chunker, side by side")
    ap.add_argument("--only", choices=list(CASES), help="one case")
    args = ap.parse_args()
    trees = {"docread": str(HERE.parent / "core")}
    if args.before:
        trees = {"before": args.before, **trees}
    print(
        f"{'case':<16} {'impl':<8} {'best s':>8} {'median s':>9} {'x floor':>8} {'RSS MB':>7} {'chunks':>7}"
    )
    for case in [args.only] if args.only else CASES:
        runs: dict[str, list[dict[str, float]]] = {"floor": [], **{k: [] for k in trees}}
        for _ in range(RUNS):  # interleaved
            for impl in runs:
                core = trees.get(impl, trees["docread"])
                os.environ["PYTHONPATH"] = os.pathsep.join([core, str(HERE.parent)])
                runs[impl].append(best_of(__file__, case, impl, runs=1))
        floor = min(r["seconds"] for r in runs["floor"])
        for impl, results in runs.items():
            best = min(r["seconds"] for r in results)
            median = statistics.median(r["seconds"] for r in results)
            rss = max(r["rss_mb"] for r in results)
            print(
                f"{case:<16} {impl:<8} {best:8.3f} {median:9.3f} {best / floor:8.2f} "
                f"{rss:7.1f} {int(results[0]['count']):7d}"
            )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
