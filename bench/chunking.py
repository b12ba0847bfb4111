"""Benchmark: docread's chunker (``docread.chunking.chunk_units``) against the floor, LangChain's
RecursiveCharacterTextSplitter (``add_start_index=True``, the same size and overlap) on the same
units in memory.

    python bench/chunking.py        # seconds (best and median of 5, interleaved), ratio, RSS

Every measurement runs in its own subprocess (peak RSS per case); floor and docread runs
alternate, so machine noise hits both alike. Building the units is not timed.
"""

from __future__ import annotations

import json
import random
import resource
import statistics
import sys
import time

from _harness import best_of

CASES = {"pages-300x2k": (300, 2_000), "one-unit-2MB": (1, 2_000_000)}
SIZE, OVERLAP, RUNS = 800, 100, 5
WORDS = [
    "pump",
    "seal",
    "warranty",
    "revenue",
    "outlook",
    "quarter",
    "data",
    "team",
    "office",
    "growth",
    "the",
    "a",
    "of",
    "and",
]


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


def run_case(case: str, impl: str) -> int:
    import docread

    units, chars = CASES[case]
    docs = [
        docread.Document(_text(chars, i), {"source": "bench.txt", "page_number": i + 1}, f"u{i}")
        for i in range(units)
    ]
    if impl == "floor":
        from langchain_core.documents import Document
        from langchain_text_splitters import RecursiveCharacterTextSplitter

        splitter = RecursiveCharacterTextSplitter(
            chunk_size=SIZE, chunk_overlap=OVERLAP, add_start_index=True
        )
        lc = [Document(d.text, metadata=dict(d.metadata), id=d.id) for d in docs]
        start = time.perf_counter()
        count = len(splitter.split_documents(lc))
    else:
        from docread.chunking import chunk_units

        start = time.perf_counter()
        count = sum(1 for _ in chunk_units(docs, chunk_size=SIZE, chunk_overlap=OVERLAP))
    elapsed = time.perf_counter() - start
    rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(json.dumps({"seconds": elapsed, "rss_mb": rss, "count": count}))
    return 0


def main() -> int:
    if len(sys.argv) == 3:
        return run_case(sys.argv[1], sys.argv[2])
    print(
        f"{'case':<14} {'impl':<8} {'best s':>8} {'median s':>9} {'x floor':>8} {'RSS MB':>7} {'chunks':>7}"
    )
    for case in CASES:
        runs: dict[str, list[dict[str, float]]] = {"floor": [], "docread": []}
        for _ in range(RUNS):  # interleaved
            for impl in runs:
                runs[impl].append(best_of(__file__, case, impl, runs=1))
        floor = min(r["seconds"] for r in runs["floor"])
        for impl, results in runs.items():
            best = min(r["seconds"] for r in results)
            median = statistics.median(r["seconds"] for r in results)
            rss = max(r["rss_mb"] for r in results)
            print(
                f"{case:<14} {impl:<8} {best:8.3f} {median:9.3f} {best / floor:8.2f} "
                f"{rss:7.1f} {int(results[0]['count']):7d}"
            )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
