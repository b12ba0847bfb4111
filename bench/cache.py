"""Cache benchmark: a 100-page PDF read cold (cache empty) vs from the disk cache, side by side
with the floor (raw PyMuPDF ``page.get_text()`` over the same pages), each read by a new Reader.

    .venv/bin/python bench/cache.py
"""

from __future__ import annotations

import shutil
import statistics
import time
from pathlib import Path

from _harness import text_pdf

DATA = Path(__file__).resolve().parent / "data" / "cache"
PAGES = 100
ROUNDS = 5


BODY = "Lorem ipsum dolor sit amet, consectetur. " * 30


def timed(fn: object) -> float:
    start = time.perf_counter()
    fn()  # type: ignore[operator]
    return (time.perf_counter() - start) * 1000


def main() -> None:
    import docread
    import pymupdf

    pdf = text_pdf(DATA / "doc100.pdf", PAGES, BODY)
    cache_dir = DATA / "cache-dir"
    config = {"cache": {"directory": str(cache_dir)}, "pdf": {"max_pages_text": PAGES}}

    def floor() -> None:
        with pymupdf.open(pdf) as doc:
            for page in doc:
                page.get_text()

    def read() -> None:
        with docread.Reader(DATA, config=config) as reader:
            result = reader.read(pdf.name, pages=f"1-{PAGES}")
            assert len(result.documents) == PAGES

    cold, warm, raw = [], [], []
    for _ in range(ROUNDS):
        shutil.rmtree(cache_dir, ignore_errors=True)
        raw.append(timed(floor))
        cold.append(timed(read))  # includes starting the worker and importing PyMuPDF there
        warm.append(timed(read))
    c, w, f = statistics.median(cold), statistics.median(warm), statistics.median(raw)
    print(f"{PAGES}-page PDF, median of {ROUNDS} rounds, a new Reader per read (ms):")
    print(f"  raw PyMuPDF get_text (floor)  {f:8.1f}")
    print(f"  docread cold (cache miss)     {c:8.1f}   {c / f:5.2f}x floor")
    print(
        f"  docread cached                {w:8.1f}   {w / f:5.2f}x floor, {c / w:.1f}x faster than cold"
    )


if __name__ == "__main__":
    main()
